/* The writer's internals shared by its files (writer.c, write_create.c,
 * write_model.c): the writer's struct, its states and the functions
 * one file calls in another. Not part of the public API. */
#ifndef IPROF_WRITER_INTERNAL_H
#define IPROF_WRITER_INTERNAL_H

#include <iprof/stream.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "idmap.h"
#include "sink.h"

/* A piece of syntax that a layout spells its own way: fewer than
 * IPI_PIECE_MAX bytes, copied as one fixed-size block (a couple of moves,
 * as cheap as a literal's memcpy) and then advanced by its length. Whoever
 * copies one has reserved IPI_PIECE_MAX bytes there; what lies past the
 * length is overwritten next or never counted. */
#define IPI_PIECE_MAX 24
typedef struct ipi_piece {
    char s[IPI_PIECE_MAX];
    size_t n;
} ipi_piece;
#define PUT_PIECE(p, piece) (memcpy((p), (piece).s, IPI_PIECE_MAX), (p) += (piece).n)

/* What differs between the layouts a writer writes: compact, pretty
 * (IPROF_WRITE_PRETTY) and GraalVM's 0.2.0 (the format 0.2.x: its keys,
 * its spacing, its one monitorsProfile object). Chosen once, at begin
 * (ipi_write_layout_of); the writer's code has no branch on the layout. */
typedef struct ipi_write_layout {
    int pretty;   /* array values separated by ", " (json_fmt.h) */
    char ctx_sep; /* between the frames of a ctx: '<', or 0.2.0's ',' */
    /* The layout's own key of a kind's section, NULL for the 1.x names
     * (iprof_kind_name and the instanceof spelling); and which kind a key
     * names in it (ipi_legacy_section_of), so that an unknown key spelled
     * like one of its sections is refused. NULL both, or neither. */
    const char *(*kind_key)(int kind);
    int (*section_of)(const char *key, size_t len);
    /* The monitor kind is one object of records (0.2.0's monitorsProfile,
     * from the one entry with ctx "0:0"), not an array of entries. */
    int monitor_object;
    /* A copy of an unvalidated load may put instanceof entries after the
     * version's sections, where its file had them (1.x readers keep them
     * with a warning); 0.2.0 has no place for them. */
    int late_instanceof;
    ipi_piece begin;        /* up to the version's value: {"version":" */
    ipi_piece end;          /* after the last section: } */
    ipi_piece key_open;     /* after the ',' before a top-level key: " */
    ipi_piece section_open; /* after a section's key: ":[ */
    ipi_piece monitor_open; /* ... the monitor object's (monitor_object) */
    ipi_piece section_close, empty_close, monitor_close; /* ] */
    ipi_piece unknown_colon; /* after an unknown key: ": */
    ipi_piece elem_indent;  /* after the ',' before an element */
    ipi_piece id_open;      /* a type's or method's start: {"id": */
    ipi_piece type_name, method_name; /* ,"name":" */
    ipi_piece type_close;   /* "} */
    ipi_piece entry_open;   /* an entry's start: {"ctx":" */
    ipi_piece sig_open, records_open; /* ","signature":[ */
    ipi_piece tail_close;   /* ]} */
} ipi_write_layout;

/* The layout of a version that is (or not) 0.2.x, pretty or not (0.2.0
 * has GraalVM's pretty printing only). */
const ipi_write_layout *ipi_write_layout_of(int legacy, int pretty);

#define DEFAULT_BUFFER_SIZE ((size_t)256 * 1024)
#define DEFAULT_MEM_SIZE ((size_t)16 * 1024)

#define ALL_FLAGS                                                                   \
    (IPROF_WRITE_PRETTY | IPROF_WRITE_DROP_INSTANCEOF |                             \
     IPROF_WRITE_NO_VALIDATE | IPROF_WRITE_NO_SYNC | IPROF_WRITE_GZIP |             \
     IPROF_WRITE_NO_REFERENCES | IPROF_WRITE_CANONICAL | IPROF_WRITE_THREADED |      \
     IPROF_WRITE_DROP_UNKNOWN)

/* Where the document is: before begin; inside "types", "methods" or an
 * entry section (w->section); between sections with nothing open, after
 * sequence index w->seq (-1: right after the version; an unknown key may
 * be written there); after end; writing raw bytes instead of a document
 * (iprof_writer_raw). */
enum { ST_INIT, ST_TYPES, ST_METHODS, ST_ENTRIES, ST_BETWEEN, ST_DONE, ST_RAW };

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
 * punctuation and one int64, and the slack of the last piece copied
 * (write_layout.c checks it against the widest layout). */
#define ELEM_FIXED 96

struct iprof_writer {
    iprof_allocator alloc;
    ipi_sink sink;
    ipi_errbuf err;
    int status; /* the failure, sticky; 0 while healthy */
    unsigned int flags;
    const ipi_write_layout *lay; /* how this document is spelled (set at begin) */
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
int ipi_writer_unknowns_fit(iprof_writer *w, const iprof_model *model);
int ipi_writer_write_method(iprof_writer *w, int64_t id, const char *name, size_t len,
    const int64_t *sig, size_t sig_len);
/* iprof_writer_type and iprof_writer_method for a name already known to
 * be valid UTF-8: a model's, checked as it entered the model (the reader,
 * the model's add functions), is not checked again by a model's write. */
int ipi_writer_type_valid(iprof_writer *w, int64_t id, const char *name, size_t name_len);
int ipi_writer_method_valid(iprof_writer *w, int64_t id, const char *name, size_t name_len,
    const int64_t *signature, size_t signature_len);
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
