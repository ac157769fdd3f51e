/* The writer's internals shared by its files (writer.c, write_create.c,
 * write_model.c): the writer's struct, its states and the functions
 * one file calls in another. Not part of the public API. */
#ifndef IPROF_WRITER_INTERNAL_H
#define IPROF_WRITER_INTERNAL_H

#include <iprof/writer.h>

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "error.h"
#include "idmap.h"
#include "sink.h"

#define DEFAULT_BUFFER_SIZE ((size_t)256 * 1024)
#define DEFAULT_MEM_SIZE ((size_t)16 * 1024)

#define ALL_FLAGS                                                                   \
    (IPROF_WRITE_PRETTY | IPROF_WRITE_DROP_INSTANCEOF | IPROF_WRITE_STRICT |        \
     IPROF_WRITE_NO_VALIDATE | IPROF_WRITE_NO_SYNC | IPROF_WRITE_GZIP |             \
     IPROF_WRITE_NO_REFERENCES | IPROF_WRITE_CANONICAL | IPROF_WRITE_THREADED |      \
     IPROF_WRITE_DROP_UNKNOWN)

/* Where the document is: before begin; inside "types", "methods" or an
 * entry section (w->section); between sections with nothing open, after
 * sequence index w->seq (-1: right after the version; an unknown key may
 * be written there); after end. */
enum { ST_INIT, ST_TYPES, ST_METHODS, ST_ENTRIES, ST_BETWEEN, ST_DONE };

/* The sections in document order form a sequence: 0 "types", 1 "methods",
 * then 2 + i for entry section layout[i]. */
#define SEQ_TYPES 0
#define SEQ_METHODS 1
#define SEQ_ENTRIES 2

/* Elements up to these sizes are written with one reservation; larger
 * ones in chunks of these sizes. */
#define FAST_NAME 4096
#define FAST_VALUES 2048
#define FAST_FRAMES 1024

/* Worst case of an element's fixed parts: separator and indent, keys,
 * punctuation and one int64. */
#define ELEM_FIXED 96

struct iprof_writer {
    iprof_allocator alloc;
    ipi_sink sink;
    ipi_errbuf err;
    int status; /* the failure, sticky; 0 while healthy */
    unsigned int flags;
    int pretty;
    int legacy; /* format 0.2.x: GraalVM's layout of 0.2.0 (pretty is set too) */
    char *opt_version; /* copy of options.format_version, or NULL */
    size_t opt_version_size;

    char *buf; /* output buffer; the memory sink's own buffer for that sink */
    int direct; /* buf is the memory sink's buffer (a memory sink without gzip) */
    size_t pos, cap;

    int state;
    int layout[IPROF_KIND_COUNT];
    size_t nlayout;
    int kind_pos[IPROF_KIND_COUNT]; /* kind -> index in layout, -1 if absent */
    size_t section;                 /* ST_ENTRIES: layout index of the open section */
    const char *open_key;           /* the key of the section opened last */
    int seq;                        /* ST_BETWEEN: the sequence index last closed */
    int iof_opt;                    /* options.instanceof_key */
    /* What a strict read checks beyond the entry rules: ids unique and
     * defined, signatures long enough. On unless IPROF_WRITE_NO_VALIDATE or
     * _NO_REFERENCES; write_model checks the model up front and turns it
     * off. */
    int check_refs;
    const char *iof_key;            /* the instanceof key written */
    uint64_t count;                 /* elements written in the open section */
    char version[32];               /* the version being written, for messages */

    ipi_idmap type_ids, method_ids; /* STRICT: ids written so far */
    int64_t *scratch;               /* write_model: frames of one context */
    size_t scratch_cap;             /* in int64 values */
    /* A writer formatting part of a section into its own buffer on a
     * second thread (format_part): make_room fails, so it never flushes
     * and never allocates. */
    int part;
};

/* Shared between the writer's files (defined in writer.c). */

/* Fail the writer with a message: sets the sticky status; returns it. */
int ipi_writer_fail(iprof_writer *w, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int ipi_writer_close_through(iprof_writer *w, int through);
int ipi_writer_write_unknown(iprof_writer *w, const char *key, size_t key_len, const char *json,
    size_t json_len);
int ipi_writer_fail_rc(iprof_writer *w, int rc);
int ipi_writer_legacy_unknowns_fit(iprof_writer *w, const iprof_model *model);
int ipi_writer_write_method(iprof_writer *w, int64_t id, const char *name, size_t len,
    const int64_t *sig, size_t sig_len);
int ipi_writer_write_entry(iprof_writer *w, const int64_t *frames, size_t frame_count,
    const int64_t *records, size_t record_count);
int ipi_writer_flush(iprof_writer *w);
int ipi_writer_make_room(iprof_writer *w, size_t n);
const char *ipi_writer_kind_key(const iprof_writer *w, int kind);
int ipi_writer_fail_ctx_method(iprof_writer *w, const char *key, size_t index, int64_t id,
    size_t frame);
int ipi_writer_fail_record_type(iprof_writer *w, const char *key, size_t index, int64_t id,
    size_t slot);
const char *ipi_writer_state_name(const iprof_writer *w);
int ipi_writer_fail_duplicate(iprof_writer *w, const char *section, size_t index, int64_t id);
int ipi_writer_fail_short_signature(iprof_writer *w, size_t index);
int ipi_writer_fail_signature_type(iprof_writer *w, size_t index, int64_t id, size_t slot);

/* Make room for n bytes in the buffer, or return the failure. */
#define ENSURE(w, n)                                   \
    do {                                               \
        if ((w)->cap - (w)->pos < (size_t)(n)) {       \
            int ensure_rc_ = ipi_writer_make_room((w), (n));      \
            if (ensure_rc_)                            \
                return ensure_rc_;                     \
        }                                              \
    } while (0)


#endif
