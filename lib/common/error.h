/* Error reports: the public iprof_error, a fixed-size holder for a
 * handle's current error (so reporting never allocates) and the growable
 * list of diagnostics a lenient read keeps. */
#ifndef IPI_ERROR_H
#define IPI_ERROR_H

#include <stdarg.h>

#include <iprof/iprof.h>

#include "arena.h"

struct iprof_error {
    int status;
    int severity;
    uint64_t offset, line, column;
    const char *message;
    const char *path;
    /* What a model operation's report is about (zero: nothing). */
    const char *context;  /* ctx text, or NULL */
    int has_kind, has_type, has_method;
    int kind;
    int64_t type_id, method_id;
};

#define IPI_MESSAGE_MAX 256
#define IPI_PATH_MAX 192
/* A path and a key excerpt ("types[3], key \"x\""): where the first
 * element with keys the reader does not read was. */
#define IPI_UNREAD_AT_MAX (IPI_PATH_MAX + 96)

/* A handle's current error; err.message and err.path point into the
 * arrays. */
typedef struct ipi_errbuf {
    iprof_error err;
    int set;
    char message[IPI_MESSAGE_MAX];
    char path[IPI_PATH_MAX];
    char context[IPI_PATH_MAX];
} ipi_errbuf;

void ipi_errbuf_clear(ipi_errbuf *eb);
/* The instanceof key's spelling (IPROF_INSTANCEOF_KEY_LOWER or _CAMEL) as
 * text, NULL for any other value. */
const char *ipi_instanceof_key_name(int spelling);
/* Set a position-less error; returns status. */
int ipi_errbuf_set(ipi_errbuf *eb, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int ipi_errbuf_vset(ipi_errbuf *eb, int status, const char *fmt, va_list ap);
/* Set a copy of another report's status, severity, position, message and
 * JSON path (what a reader's error says). */
void ipi_errbuf_copy(ipi_errbuf *eb, const iprof_error *e);
/* The error, or NULL when none is set. */
const iprof_error *ipi_errbuf_get(const ipi_errbuf *eb);

/* How many of the len bytes of s a message quotes when it quotes at most
 * max: never part of a UTF-8 sequence (the cut backs up to its lead byte).
 * A message adds IPI_CUT(len, max), "...", when it is cut. */
static inline int ipi_excerpt(const char *s, size_t len, size_t max)
{
    if (len <= max)
        return (int)len;
    size_t n = max;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    return (int)n;
}
#define IPI_CUT(len, max) ((len) > (max) ? "..." : "")

/* Diagnostics: a list of reports whose strings live in an arena. */
typedef struct ipi_diags {
    iprof_error *items;
    size_t count, cap;
    ipi_arena strings;
    const iprof_allocator *alloc;
} ipi_diags;

void ipi_diags_init(ipi_diags *d, const iprof_allocator *alloc);
void ipi_diags_free(ipi_diags *d);
void ipi_diags_clear(ipi_diags *d);
/* Append a copy of *e. 0 or IPROF_ENOMEM. */
int ipi_diags_add(ipi_diags *d, const iprof_error *e);

/* ipi_strerror, the message of an errno value, is the platform's. */
#include "platform.h"

#endif
