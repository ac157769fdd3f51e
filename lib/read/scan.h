/*
 * The streaming reader's own state, shared by its files (not by the rest
 * of the library, which sees reader_internal.h):
 *
 *   reader.c        the driver: steps over the top level, sections,
 *                   callbacks, the public API
 *   read_element.c  one element's object: the exact-layout fast path
 *                   beside the general parser
 *   read_refs.c     reference checks: unique ids, ids that must exist,
 *                   those that wait for a later section
 *   read_report.c   positions, JSON paths, errors and diagnostics
 */
#ifndef IPI_SCAN_H
#define IPI_SCAN_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <iprof/stream.h>

#include "error.h"
#include "idset.h"
#include "json.h"
#include "rules.h"
#include "source.h"
#include "version.h"

#define MORE 1 /* step result: needs more input */

/* Top-level sections; entry kinds use their IPROF_KIND_* numbers, the
 * others the public IPROF_SECTION_* ones (on_key reports them). */
enum {
    SEC_NONE = -1,
    SEC_TYPES = IPROF_SECTION_TYPES,
    SEC_METHODS = IPROF_SECTION_METHODS,
    SEC_VERSION = IPROF_SECTION_VERSION,
    SEC_UNKNOWN = IPROF_SECTION_UNKNOWN
};
#define SEC_BIT(sec) (1u << (sec))

/* Fields of elements, for error paths. */
enum { F_NONE, F_ID, F_NAME, F_SIGNATURE, F_CTX, F_RECORDS };

enum { ST_BEGIN, ST_KEY, ST_VALUE, ST_ELEMENT, ST_AFTER_ELEMENT, ST_AFTER_MEMBER, ST_END,
       ST_DONE };

/* Where in the document an element or value is: formatted into paths. */
typedef struct path_pos {
    int section;
    int field;
    uint64_t elem;  /* UINT64_MAX: the section itself */
    int64_t sub;    /* index in signature/records, -1 for none */
} path_pos;

/* A reference that must wait for a later section to be checked. */
typedef struct pending_ref {
    int64_t id;
    int is_type;
    path_pos at;
    uint64_t offset, line, column;
} pending_ref;

struct iprof_reader {
    iprof_allocator alloc;
    unsigned flags;
    size_t chunk, max_element, max_depth;
    size_t max_diags;            /* diagnostics kept per read */
    size_t dropped[2];           /* diagnostics past max_diags, by severity */
    ipi_errbuf error;
    ipi_diags diags;
    /* Buffers reused from read to read. */
    char *window;
    size_t window_cap;
    int64_t *frames;
    size_t frames_cap; /* pairs */
    int64_t *nums;
    size_t nums_cap;
    char *text; /* a decoded string of the current element */
    size_t text_cap;
    char *key; /* the current unknown top-level key */
    size_t key_cap, key_len;
    ipi_json_stack stack;
    ipi_idset type_ids, method_ids;
    pending_ref *pending;
    size_t pending_count, pending_cap;
    /* Of the last read: the input offset just past the last element (or
     * section) completed, whether the version was accepted, and whether a
     * salvaging load kept what came before its error (the damage). */
    uint64_t kept_end;
    int had_version;
    int salvaged;
    /* Of the last read: the elements handed over whose unknown keys it did
     * not read, and the first of them ("types[3], key \"x\""), so that a
     * model loaded from it can refuse to be written without them. */
    size_t unread;
    char unread_first[IPI_UNREAD_AT_MAX];
};

/* The state of one read. */
typedef struct scan {
    iprof_reader *r;
    const iprof_read_callbacks *cb;
    void *payload;
    ipi_source src;
    size_t pos; /* window index of the next byte */
    int state;
    int first;      /* nothing yet in the current object or array */
    unsigned seen;  /* SEC_BIT of known top-level keys met */
    unsigned done;  /* SEC_BIT of sections whose array was closed */
    path_pos at;    /* current path */
    int have_version;
    int legacy;      /* the version is 0.2.x: its own keys and ctx separator */
    uint64_t nkeys;  /* top-level keys met so far */
    ipi_fmtver version;
    char version_text[64];
    int iof_pending; /* instanceofProfiles met before the version */
    int iof_key;     /* IPROF_INSTANCEOF_KEY_* of the file, 0 before the section */
    uint64_t iof_offset, iof_line, iof_column;
    /* Line tracking: line_no lines end before input offset line_pos, the
     * last of them at last_nl (UINT64_MAX: none). base_last_nl is the last
     * newline before the window. */
    uint64_t line_pos, line_no, last_nl, base_last_nl;
    /* The element being parsed (window indices). */
    size_t el_start, id_at, name_at, sig_at, ctx_at, rec_at;
    /* Whether it has keys no element has, and where the first is ("types[3],
     * key \"x\""): counted in r->unread once the element is handed over. */
    int el_unread;
    char el_unread_at[IPI_UNREAD_AT_MAX];
    int64_t id;
    const char *name;
    size_t name_len, nframes, nnums;
} scan;

/* The window, and the window index of pointer p. */
#define WIN(s) ((s)->src.data)
#define IDX(s, p) ((size_t)((p) - (s)->src.data))

/* Whether c starts some JSON value other than a number: a type mismatch,
 * not a syntax error. */
static inline int starts_other_value(char c)
{
    return c == '"' || c == '{' || c == '[' || c == 't' || c == 'f' || c == 'n';
}

/* ---- read_report.c ------------------------------------------------------ */

/* Line and column of input offset off, which lies in the window. */
void ipi_scan_locate(scan *s, uint64_t off, uint64_t *line, uint64_t *column);
/* Before the window drops its first `drop` bytes: count their lines. */
void ipi_scan_forget(scan *s, size_t drop);
/* The key of a known section as this file spells it. */
const char *ipi_scan_section_name(const scan *s, int section);
void ipi_scan_format_path(const scan *s, const path_pos *at, char *out, size_t cap);
/* A fatal error at window index `at`; returns status. */
int ipi_scan_fail(scan *s, int status, size_t at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* A rule violation at window index `at`: fatal in strict mode, else a
 * diagnostic. Returns 0 to go on or a status. */
int ipi_scan_violation(scan *s, int status, int severity, size_t at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* A report located before the window (a deferred check): the read's
 * error in strict mode (returning its status), else a diagnostic. */
int ipi_scan_report_located(scan *s, const iprof_error *e);
/* Map a JSON scanner result to a failure at `err` (a window pointer). */
int ipi_scan_json_fail(scan *s, int rc, const char *err, const char *why);

/* ---- read_process.c ----------------------------------------------------- */

/* Hand the parsed element over: its checks, then its callback; a callback
 * that returns non-zero stops the read (IPROF_ESTOPPED, naming it). */
int ipi_scan_process_type(scan *s);
int ipi_scan_process_method(scan *s);
int ipi_scan_process_entry(scan *s);
/* The failure of a read that the `which` callback stopped. */
int ipi_scan_stopped(scan *s, const char *which);

/* ---- read_element.c ----------------------------------------------------- */

/* Parse the object of one element at *pp into the scan's element fields:
 * IPROF_OK, MORE (the window ends first) or a failure. */
int ipi_scan_element(scan *s, const char **pp, const char *end);
/* A string value, NUL-terminated in r->text (decoded when it has escapes);
 * with `borrow` an unescaped string may point into the window instead (not
 * terminated). */
int ipi_scan_string(scan *s, const char **pp, const char *end, const char **str, size_t *len,
                    int borrow);

/* ---- read_refs.c -------------------------------------------------------- */

/* Record the element's id as unique; a repeat is a violation at the id. */
int ipi_scan_check_unique(scan *s, int is_type);
/* A type or method id not known good yet (see below), at the window index
 * `at` or, with k != SIZE_MAX, number k of the array at `at`, in element
 * field `field` (F_*): a violation if its section was read without it, else
 * kept to check at the document's end. */
int ipi_scan_ref_unknown(scan *s, int64_t id, int is_type, int field, size_t at, size_t k);

/* Whether a reference is known good already: its section has been read
 * and has the id. The per-id checks below are inline, as they were when
 * the reader was one file: every element of a read runs them. */
static inline int ipi_scan_ref_known(const scan *s, int is_type, int64_t id)
{
    return is_type ? (s->done & SEC_BIT(SEC_TYPES)) && ipi_idset_has(&s->r->type_ids, id)
                   : (s->done & SEC_BIT(SEC_METHODS)) && ipi_idset_has(&s->r->method_ids, id);
}

/* Check the type ids of a method's signature (in r->nums). */
static inline int ipi_scan_check_signature_refs(scan *s)
{
    iprof_reader *r = s->r;
    if (r->flags & IPROF_READ_NO_REFERENCES)
        return IPROF_OK;
    for (size_t i = 0; i < s->nnums; i++) {
        int rc;
        if (!ipi_scan_ref_known(s, 1, r->nums[i]) &&
            (rc = ipi_scan_ref_unknown(s, r->nums[i], 1, F_SIGNATURE, s->sig_at, i)))
            return rc;
    }
    return IPROF_OK;
}

/* Whether frame i's method id is that of an earlier frame (a recursive
 * ctx): an unknown id is reported once per ctx. */
static inline int ipi_scan_frame_repeats(const int64_t *frames, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (frames[2 * j] == frames[2 * i])
            return 1;
    return 0;
}

/* Check the method ids of an entry's ctx and the type ids of its records. */
static inline int ipi_scan_check_entry_refs(scan *s, int kind)
{
    iprof_reader *r = s->r;
    if (r->flags & IPROF_READ_NO_REFERENCES)
        return IPROF_OK;
    const ipi_kind_layout *lay = ipi_kind_layout_of(kind);
    int rc;
    if (lay->checks_methods)
        for (size_t i = 0; i < s->nframes; i++)
            if (!ipi_scan_ref_known(s, 0, r->frames[2 * i]) &&
                !ipi_scan_frame_repeats(r->frames, i) &&
                (rc = ipi_scan_ref_unknown(s, r->frames[2 * i], 0, F_CTX, s->ctx_at, SIZE_MAX)))
                return rc;
    if (lay->type_slot >= 0)
        for (size_t i = (size_t)lay->type_slot; i < s->nnums; i += (size_t)lay->group)
            if (!ipi_scan_ref_known(s, 1, r->nums[i]) &&
                (rc = ipi_scan_ref_unknown(s, r->nums[i], 1, F_RECORDS, s->rec_at, i)))
                return rc;
    return IPROF_OK;
}

/* At the document's end: report references that waited for a later
 * section and are missing. */
int ipi_scan_resolve_pending(scan *s);

#endif
