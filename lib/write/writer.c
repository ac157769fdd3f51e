/* The writer: streaming elements or a whole model into a sink.
 *
 * Output is formatted straight into one buffer (the memory sink's own
 * buffer, or a buffer of options.buffer_size bytes flushed to the sink when
 * full). Each element reserves its worst-case size once and is then
 * formatted in place with pointer bumps; only very long names, signatures,
 * contexts or record arrays are written in chunks, each reserving its own
 * worst case, so the buffer never has to hold a whole huge element. */
#include <iprof/writer.h>

#include <limits.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "canon.h" /* the canonical order a canonical write walks */
#include "model.h" /* write_model reads the model directly where it pays */
#include "ctx.h"
#include "error.h"
#include "idmap.h"
#include "json.h"
#include "json_fmt.h"
#include "numfmt.h"
#include "rules.h"
#include "sink.h"
#include "version.h"

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

/* ------------------------------------------------------------------------ */
/* Failure                                                                  */

static int fail(iprof_writer *w, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail(iprof_writer *w, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ipi_errbuf_vset(&w->err, status, fmt, ap);
    va_end(ap);
    w->status = status;
    return status;
}

/* Fail with a status whose message is already in w->err (sink errors) or
 * that needs none beyond the status text. */
static int fail_rc(iprof_writer *w, int rc)
{
    if (!w->err.set || w->err.err.status != rc)
        ipi_errbuf_set(&w->err, rc, "%s", rc == IPROF_ENOMEM ? "out of memory"
                                                             : iprof_status_string(rc));
    w->status = rc;
    return rc;
}

/* Fail with a message about element `index` of `section` ("types[3]: ...")
 * and that element as the report's path ("conditionalProfiles[3]"). */
static int fail_at(iprof_writer *w, int status, const char *section, size_t index,
                   const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static int fail_at(iprof_writer *w, int status, const char *section, size_t index,
                   const char *fmt, ...)
{
    char what[IPI_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fail(w, status, "%s[%zu]%s", section, index, what);
    snprintf(w->err.path, sizeof w->err.path, "%s[%zu]", section, index);
    return status;
}

/* The failures of the checks a strict read makes, worded once for the
 * streaming calls and the whole-model check. */
static int fail_duplicate(iprof_writer *w, const char *section, size_t index, int64_t id)
{
    return fail_at(w, IPROF_ESCHEMA, section, index, ": duplicate %s id %lld",
                   section[0] == 't' ? "type" : "method", (long long)id);
}

static int fail_short_signature(iprof_writer *w, size_t index)
{
    return fail_at(w, IPROF_ESCHEMA, "methods", index,
                   ": signature must hold the declaring and return type ids");
}

static int fail_signature_type(iprof_writer *w, size_t index, int64_t id, size_t slot)
{
    return fail_at(w, IPROF_EDANGLING, "methods", index,
                   ": signature type id %lld (signature[%zu]) was not written", (long long)id,
                   slot);
}

static int fail_ctx_method(iprof_writer *w, const char *key, size_t index, int64_t id,
                           size_t frame)
{
    return fail_at(w, IPROF_EDANGLING, key, index, ".ctx: method id %lld (frame %zu) was not written",
                   (long long)id, frame);
}

static int fail_record_type(iprof_writer *w, const char *key, size_t index, int64_t id,
                            size_t slot)
{
    return fail_at(w, IPROF_EDANGLING, key, index,
                   ".records: type id %lld (records[%zu]) was not written", (long long)id, slot);
}


/* ------------------------------------------------------------------------ */
/* The output buffer                                                        */

static int flush(iprof_writer *w)
{
    if (w->direct || !w->pos)
        return IPROF_OK;
    int rc = ipi_sink_write(&w->sink, w->buf, w->pos, &w->err);
    if (rc)
        return rc;
    w->pos = 0;
    return IPROF_OK;
}

/* Make room for n more bytes: grow the memory sink, or flush (and grow
 * the buffer if n exceeds it). */
static int make_room(iprof_writer *w, size_t n)
{
    if (w->part) /* a part has no sink: its job leaves the element */
        return IPROF_ELIMIT;
    if (w->direct) {
        if (n > SIZE_MAX - w->pos || ipi_sink_mem_reserve(&w->sink, w->pos + n))
            return IPROF_ENOMEM;
        w->buf = w->sink.mem;
        w->cap = w->sink.mem_cap;
        return IPROF_OK;
    }
    int rc = flush(w);
    if (rc)
        return rc;
    if (n > w->cap) {
        char *nb = ipi_malloc(&w->alloc, n);
        if (!nb)
            return IPROF_ENOMEM;
        ipi_free(&w->alloc, w->buf, w->cap);
        w->buf = nb;
        w->cap = n;
    }
    return IPROF_OK;
}

#define ENSURE(w, n)                                   \
    do {                                               \
        if ((w)->cap - (w)->pos < (size_t)(n)) {       \
            int ensure_rc_ = make_room((w), (n));      \
            if (ensure_rc_)                            \
                return ensure_rc_;                     \
        }                                              \
    } while (0)

/* Chunked versions for long content: each chunk reserves its own worst
 * case. */
static int put_string(iprof_writer *w, const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    while (len) {
        size_t chunk = len > FAST_NAME ? FAST_NAME : len;
        ENSURE(w, chunk * IPI_ESC_MAX);
        w->pos = (size_t)(ipi_json_escape_into(w->buf + w->pos, u, chunk) - w->buf);
        u += chunk;
        len -= chunk;
    }
    return IPROF_OK;
}

static int put_values(iprof_writer *w, const int64_t *v, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t chunk = n - i > FAST_VALUES ? FAST_VALUES : n - i;
        ENSURE(w, chunk * IPI_VALUE_MAX);
        w->pos = (size_t)(ipi_json_values_into(w->buf + w->pos, v + i, chunk, w->pretty, i == 0) -
                          w->buf);
        i += chunk;
    }
    return IPROF_OK;
}

static int put_ctx(iprof_writer *w, const int64_t *frames, size_t count)
{
    for (size_t i = 0; i < count;) {
        size_t chunk = count - i > FAST_FRAMES ? FAST_FRAMES : count - i;
        ENSURE(w, IPI_CTX_MAX_CHARS(chunk));
        char *p = w->buf + w->pos;
        if (i)
            *p++ = w->legacy ? ',' : '<';
        p += ipi_ctx_format_sep(p, frames + 2 * i, chunk, w->legacy ? ',' : '<');
        w->pos = (size_t)(p - w->buf);
        i += chunk;
    }
    return IPROF_OK;
}

/* The separator before an element of the open section. */
static inline char *elem_prefix(const iprof_writer *w, char *p)
{
    if (w->count)
        *p++ = ',';
    if (w->pretty)
        PUT(p, "\n    ");
    return p;
}

/* ------------------------------------------------------------------------ */
/* Document structure                                                       */

/* Whether the key is 0.2.0's monitorsProfile: one object, not an array. */
static int legacy_monitors(const iprof_writer *w, const char *key)
{
    return w->legacy && strcmp(key, ipi_legacy_kind_key(IPROF_KIND_MONITOR)) == 0;
}

static int open_section(iprof_writer *w, const char *key)
{
    size_t klen = strlen(key);
    ENSURE(w, klen + 32);
    char *p = w->buf + w->pos;
    *p++ = ',';
    if (w->pretty)
        PUT(p, "\n  ");
    *p++ = '"';
    memcpy(p, key, klen);
    p += klen;
    if (legacy_monitors(w, key))
        PUT(p, "\": {\n    \"records\": [ ");
    else if (w->pretty)
        PUT(p, "\": [");
    else
        PUT(p, "\":[");
    w->pos = (size_t)(p - w->buf);
    w->count = 0;
    w->open_key = key;
    return IPROF_OK;
}

static int close_section(iprof_writer *w)
{
    ENSURE(w, 8);
    char *p = w->buf + w->pos;
    if (legacy_monitors(w, w->open_key)) {
        PUT(p, " ] \n  }");
        w->pos = (size_t)(p - w->buf);
        return IPROF_OK;
    }
    if (w->legacy) /* GraalVM's 0.2.0 writer: an empty line in an empty section */
        PUT2(p, w->count, "\n  ", "\n\n  ");
    else if (w->pretty && w->count)
        PUT(p, "\n  ");
    *p++ = ']';
    w->pos = (size_t)(p - w->buf);
    return IPROF_OK;
}

/* The key of a kind as this document spells it. */
static const char *kind_key(const iprof_writer *w, int kind)
{
    if (w->legacy && ipi_legacy_kind_key(kind))
        return ipi_legacy_kind_key(kind);
    return kind == IPROF_KIND_INSTANCEOF ? w->iof_key : iprof_kind_name(kind);
}

/* An unknown key of a 1.x model spelled like a 0.2.0 section (say
 * "hotnessPoints") cannot be written beside that section. */
static int legacy_key_clash(iprof_writer *w, const char *key, size_t key_len)
{
    int sec = ipi_legacy_section_of(key, key_len);
    if (!w->legacy || sec < 0 || sec >= IPROF_KIND_COUNT)
        return IPROF_OK;
    return fail(w, IPROF_EVERSION, "the unknown key \"%.*s\" is a section of format %s",
                (int)(key_len > 64 ? 64 : key_len), key, w->version);
}

static int legacy_unknowns_fit(iprof_writer *w, const iprof_model *model)
{
    for (size_t i = 0; i < model->extras.count; i++) {
        const ipi_unknown *u = &model->extras.items[i];
        int rc = legacy_key_clash(w, u->key, u->key_len);
        if (rc)
            return rc;
    }
    return IPROF_OK;
}

static const char *seq_key(const iprof_writer *w, int seq)
{
    return seq == SEQ_TYPES     ? "types"
           : seq == SEQ_METHODS ? "methods"
                                : kind_key(w, w->layout[seq - SEQ_ENTRIES]);
}

/* The sequence index the document is at, and whether that section is
 * open; -1 right after the version. */
static int seq_now(const iprof_writer *w, int *open)
{
    *open = w->state == ST_TYPES || w->state == ST_METHODS || w->state == ST_ENTRIES;
    switch (w->state) {
    case ST_TYPES: return SEQ_TYPES;
    case ST_METHODS: return SEQ_METHODS;
    case ST_ENTRIES: return SEQ_ENTRIES + (int)w->section;
    case ST_BETWEEN: return w->seq;
    default: return -1;
    }
}

/* Close what is open and write every section after it up to and
 * including `through` empty: the document then stands after `through`
 * with nothing open (or where it is, if that is later). */
static int close_through(iprof_writer *w, int through)
{
    int open, cur = seq_now(w, &open), rc;
    if (open && (rc = close_section(w)))
        return rc;
    for (int i = cur + 1; i <= through; i++)
        if ((rc = open_section(w, seq_key(w, i))) || (rc = close_section(w)))
            return rc;
    w->state = ST_BETWEEN;
    w->seq = cur > through ? cur : through;
    return IPROF_OK;
}

/* Open section `to` of the sequence, writing those before it empty. The
 * caller checked it is ahead of the document (or open already). */
static int open_seq(iprof_writer *w, int to)
{
    int open, cur = seq_now(w, &open), rc;
    if (open && cur == to)
        return IPROF_OK;
    if ((rc = close_through(w, to - 1)) || (rc = open_section(w, seq_key(w, to))))
        return rc;
    w->state = to == SEQ_TYPES ? ST_TYPES : to == SEQ_METHODS ? ST_METHODS : ST_ENTRIES;
    if (to >= SEQ_ENTRIES)
        w->section = (size_t)(to - SEQ_ENTRIES);
    return IPROF_OK;
}

/* An unknown top-level key and its value, right where the document is
 * (the caller closed the open section). */
static int write_unknown(iprof_writer *w, const char *key, size_t key_len, const char *json,
                         size_t json_len)
{
    int rc;
    ENSURE(w, 8);
    char *p = w->buf + w->pos;
    *p++ = ',';
    if (w->pretty)
        PUT(p, "\n  ");
    *p++ = '"';
    w->pos = (size_t)(p - w->buf);
    if ((rc = put_string(w, key, key_len)))
        return rc;
    ENSURE(w, 4);
    p = w->buf + w->pos;
    if (w->pretty)
        PUT(p, "\": ");
    else
        PUT(p, "\":");
    w->pos = (size_t)(p - w->buf);
    for (size_t done = 0; done < json_len;) {
        size_t chunk = json_len - done > FAST_NAME ? FAST_NAME : json_len - done;
        ENSURE(w, chunk);
        memcpy(w->buf + w->pos, json + done, chunk);
        w->pos += chunk;
        done += chunk;
    }
    return IPROF_OK;
}

static int write_begin(iprof_writer *w, const char *version, size_t len)
{
    ENSURE(w, len + 32);
    char *p = w->buf + w->pos;
    if (w->pretty)
        PUT(p, "{\n  \"version\": \"");
    else
        PUT(p, "{\"version\":\"");
    memcpy(p, version, len);
    p += len;
    *p++ = '"';
    w->pos = (size_t)(p - w->buf);
    return IPROF_OK;
}

static int write_end(iprof_writer *w)
{
    int rc = close_through(w, SEQ_ENTRIES + (int)w->nlayout - 1);
    if (rc)
        return rc;
    ENSURE(w, 4);
    char *p = w->buf + w->pos;
    if (w->legacy) /* GraalVM's 0.2.0 files end without a newline */
        PUT(p, "\n}");
    else if (w->pretty)
        PUT(p, "\n}\n");
    else
        *p++ = '}';
    w->pos = (size_t)(p - w->buf);
    if ((rc = flush(w)))
        return rc;
    if (w->direct)
        w->sink.mem_len = w->pos;
    return ipi_sink_commit(&w->sink, &w->err);
}

/* ------------------------------------------------------------------------ */
/* Elements                                                                 */

static int write_type(iprof_writer *w, int64_t id, const char *name, size_t len)
{
    int fast = len <= FAST_NAME;
    ENSURE(w, ELEM_FIXED + (fast ? len * IPI_ESC_MAX : 0));
    char *p = elem_prefix(w, w->buf + w->pos);
    if (w->legacy)
        PUT(p, "{ \"id\": ");
    else if (w->pretty)
        PUT(p, "{\"id\": ");
    else
        PUT(p, "{\"id\":");
    p += ipi_fmt_i64(p, id);
    if (w->legacy)
        PUT(p, ", \"typeName\": \"");
    else if (w->pretty)
        PUT(p, ", \"name\": \"");
    else
        PUT(p, ",\"name\":\"");
    if (fast) {
        p = ipi_json_escape_into(p, (const unsigned char *)name, len);
    } else {
        w->pos = (size_t)(p - w->buf);
        int rc = put_string(w, name, len);
        if (rc)
            return rc;
        ENSURE(w, 3);
        p = w->buf + w->pos;
    }
    if (w->legacy)
        PUT(p, "\" }");
    else
        PUT(p, "\"}");
    w->pos = (size_t)(p - w->buf);
    w->count++;
    return IPROF_OK;
}

/* The end of a method or an entry after the string of its first member:
 * `", "signature": [...]}` or `", "records": [...]}`. With p, the space was
 * reserved and everything is formatted in place; with NULL, the string was
 * written in pieces and so are the values (w->pos is where to go on). */
static int element_tail(iprof_writer *w, char *p, int is_method, const int64_t *v, size_t n)
{
    int rc;
    if (!p) {
        ENSURE(w, 24);
        p = w->buf + w->pos;
    }
    if (w->legacy) /* 0.2.0: "[ 1, 2 ]", "[  ]" when empty */
        PUT2(p, is_method, "\", \"signature\": [ ", "\", \"records\": [ ");
    else if (is_method)
        PUT2(p, w->pretty, "\", \"signature\": [", "\",\"signature\":[");
    else
        PUT2(p, w->pretty, "\", \"records\": [", "\",\"records\":[");
    if (n <= FAST_VALUES && (size_t)(w->cap - (size_t)(p - w->buf)) >= n * IPI_VALUE_MAX + 4) {
        p = ipi_json_values_into(p, v, n, w->pretty, 1);
    } else {
        w->pos = (size_t)(p - w->buf);
        if ((rc = put_values(w, v, n)))
            return rc;
        ENSURE(w, 4);
        p = w->buf + w->pos;
    }
    if (w->legacy)
        PUT(p, " ] }");
    else
        PUT(p, "]}");
    w->pos = (size_t)(p - w->buf);
    w->count++;
    return IPROF_OK;
}

static int write_method(iprof_writer *w, int64_t id, const char *name, size_t len,
                        const int64_t *sig, size_t sig_len)
{
    int fast = len <= FAST_NAME && sig_len <= FAST_VALUES;
    ENSURE(w, ELEM_FIXED + (fast ? len * IPI_ESC_MAX + sig_len * IPI_VALUE_MAX : 0));
    char *p = elem_prefix(w, w->buf + w->pos);
    if (w->legacy)
        PUT(p, "{ \"id\": ");
    else
        PUT2(p, w->pretty, "{\"id\": ", "{\"id\":");
    p += ipi_fmt_i64(p, id);
    if (w->legacy)
        PUT(p, ", \"methodName\": \"");
    else
        PUT2(p, w->pretty, ", \"name\": \"", ",\"name\":\"");
    if (fast)
        return element_tail(w, ipi_json_escape_into(p, (const unsigned char *)name, len), 1, sig, sig_len);
    int rc;
    w->pos = (size_t)(p - w->buf);
    if ((rc = put_string(w, name, len)))
        return rc;
    return element_tail(w, NULL, 1, sig, sig_len);
}

static int write_entry(iprof_writer *w, const int64_t *frames, size_t frame_count,
                       const int64_t *records, size_t record_count)
{
    int fast = frame_count <= FAST_FRAMES && record_count <= FAST_VALUES;
    ENSURE(w, ELEM_FIXED +
                  (fast ? IPI_CTX_MAX_CHARS(frame_count) + record_count * IPI_VALUE_MAX : 0));
    char *p = elem_prefix(w, w->buf + w->pos);
    if (w->legacy)
        PUT(p, "{ \"methodBciList\": \"");
    else
        PUT2(p, w->pretty, "{\"ctx\": \"", "{\"ctx\":\"");
    if (fast)
        return element_tail(w, p + ipi_ctx_format_sep(p, frames, frame_count,
                                                      w->legacy ? ',' : '<'),
                            0, records, record_count);
    int rc;
    w->pos = (size_t)(p - w->buf);
    if ((rc = put_ctx(w, frames, frame_count)))
        return rc;
    return element_tail(w, NULL, 0, records, record_count);
}

/* ------------------------------------------------------------------------ */
/* Options and creation                                                     */

/* The size of each version of iprof_write_options: a caller's struct may
 * be an older, shorter one. */
static size_t write_options_size(unsigned int version)
{
    return version >= 2 ? sizeof(iprof_write_options)
                        : offsetof(iprof_write_options, buffer_size) + sizeof(size_t);
}

IPROF_API int iprof_write_options_init(iprof_write_options *opts, unsigned int version)
{
    if (!opts || version == 0 || version > IPROF_WRITE_OPTIONS_VERSION)
        return IPROF_EINVAL;
    memset(opts, 0, write_options_size(version));
    opts->version = version;
    return IPROF_OK;
}

/* Allocate a writer with its output buffer; the caller sets up the sink
 * (a memory sink takes over the buffer). */
static int writer_create(iprof_writer **out, const iprof_write_options *opts, int mem)
{
    static const iprof_write_options defaults = IPROF_WRITE_OPTIONS_INIT;
    if (!opts)
        opts = &defaults;
    if (opts->version == 0 || opts->version > IPROF_WRITE_OPTIONS_VERSION ||
        (opts->flags & ~ALL_FLAGS))
        return IPROF_EINVAL;
    int iof = opts->version >= 2 ? opts->instanceof_key : IPROF_INSTANCEOF_KEY_AUTO;
    if (iof < IPROF_INSTANCEOF_KEY_AUTO || iof > IPROF_INSTANCEOF_KEY_CAMEL)
        return IPROF_EINVAL;
    iprof_allocator a;
    ipi_allocator_init(&a, opts->allocator);
    iprof_writer *w = ipi_malloc(&a, sizeof *w);
    if (!w)
        return IPROF_ENOMEM;
    memset(w, 0, sizeof *w);
    w->alloc = a;
    ipi_errbuf_clear(&w->err);
    ipi_idmap_init(&w->type_ids);
    ipi_idmap_init(&w->method_ids);
    w->flags = opts->flags;
    w->pretty = (opts->flags & IPROF_WRITE_PRETTY) != 0;
    w->state = ST_INIT;
    w->iof_opt = iof;
    w->check_refs = (opts->flags & IPROF_WRITE_STRICT) ||
                    !(opts->flags & (IPROF_WRITE_NO_VALIDATE | IPROF_WRITE_NO_REFERENCES));
    if (opts->format_version) {
        size_t n = strlen(opts->format_version) + 1;
        w->opt_version = ipi_malloc(&w->alloc, n);
        if (!w->opt_version) {
            ipi_free(&w->alloc, w, sizeof *w);
            return IPROF_ENOMEM;
        }
        memcpy(w->opt_version, opts->format_version, n);
        w->opt_version_size = n;
    }
    if (!mem) {
        size_t size = opts->buffer_size ? opts->buffer_size : DEFAULT_BUFFER_SIZE;
        w->buf = ipi_malloc(&w->alloc, size);
        if (!w->buf) {
            ipi_free(&w->alloc, w->opt_version, w->opt_version_size);
            ipi_free(&w->alloc, w, sizeof *w);
            return IPROF_ENOMEM;
        }
        w->cap = size;
    }
    *out = w;
    return IPROF_OK;
}

IPROF_API void iprof_writer_free(iprof_writer *w)
{
    if (!w)
        return;
    if (!w->direct)
        ipi_free(&w->alloc, w->buf, w->cap);
    ipi_sink_close(&w->sink);
    ipi_free(&w->alloc, w->opt_version, w->opt_version_size);
    ipi_idmap_free(&w->type_ids, &w->alloc);
    ipi_idmap_free(&w->method_ids, &w->alloc);
    ipi_free(&w->alloc, w->scratch, w->scratch_cap * sizeof *w->scratch);
    iprof_allocator a = w->alloc;
    ipi_free(&a, w, sizeof *w);
}

/* Turn on gzip for the sink. Without zlib the writer is created failed:
 * its first call returns IPROF_EIO with the reason. */
static void setup_gzip(iprof_writer *w)
{
    int rc = ipi_sink_gzip(&w->sink, &w->err);
    if (rc)
        w->status = rc;
}

IPROF_API int iprof_writer_new_path(iprof_writer **out, const char *path,
                                    const iprof_write_options *opts)
{
    if (!out)
        return IPROF_EINVAL;
    *out = NULL;
    if (!path || !*path)
        return IPROF_EINVAL;
    iprof_writer *w;
    int rc = writer_create(&w, opts, 0);
    if (rc)
        return rc;
    if (ipi_sink_init_path(&w->sink, &w->alloc, path,
                           (w->flags & IPROF_WRITE_NO_SYNC) == 0)) {
        iprof_writer_free(w);
        return IPROF_ENOMEM;
    }
    /* The file written is the one the links name: its name says gzip. */
    if ((w->flags & IPROF_WRITE_GZIP) || ipi_sink_target_is_gzip(&w->sink))
        setup_gzip(w);
    *out = w;
    return IPROF_OK;
}

IPROF_API int iprof_writer_new_fd(iprof_writer **out, int fd, const iprof_write_options *opts)
{
    if (!out)
        return IPROF_EINVAL;
    *out = NULL;
    if (fd < 0)
        return IPROF_EINVAL;
    iprof_writer *w;
    int rc = writer_create(&w, opts, 0);
    if (rc)
        return rc;
    ipi_sink_init_fd(&w->sink, &w->alloc, fd);
    if (w->flags & IPROF_WRITE_GZIP)
        setup_gzip(w);
    *out = w;
    return IPROF_OK;
}

IPROF_API int iprof_writer_new_buffer(iprof_writer **out, const iprof_write_options *opts)
{
    if (!out)
        return IPROF_EINVAL;
    *out = NULL;
    iprof_writer *w;
    int gz = opts && (opts->flags & IPROF_WRITE_GZIP);
    int rc = writer_create(&w, opts, !gz);
    if (rc)
        return rc;
    ipi_sink_init_mem(&w->sink, &w->alloc);
    if (gz) { /* formatted into w->buf, compressed into the sink */
        setup_gzip(w);
        *out = w;
        return IPROF_OK;
    }
    w->direct = 1;
    size_t size = opts && opts->buffer_size ? opts->buffer_size : DEFAULT_MEM_SIZE;
    if (ipi_sink_mem_reserve(&w->sink, size)) {
        iprof_writer_free(w);
        return IPROF_ENOMEM;
    }
    w->buf = w->sink.mem;
    w->cap = w->sink.mem_cap;
    *out = w;
    return IPROF_OK;
}

IPROF_API int iprof_writer_new_callback(iprof_writer **out, iprof_write_fn write_fn,
                                        void *write_payload, const iprof_write_options *opts)
{
    if (!out)
        return IPROF_EINVAL;
    *out = NULL;
    if (!write_fn)
        return IPROF_EINVAL;
    iprof_writer *w;
    int rc = writer_create(&w, opts, 0);
    if (rc)
        return rc;
    ipi_sink_init_callback(&w->sink, &w->alloc, write_fn, write_payload);
    if (w->flags & IPROF_WRITE_GZIP)
        setup_gzip(w);
    *out = w;
    return IPROF_OK;
}

/* ------------------------------------------------------------------------ */
/* Streaming                                                                */

static const char *state_name(const iprof_writer *w)
{
    switch (w->state) {
    case ST_INIT: return "before begin";
    case ST_BETWEEN: return w->seq < 0 ? "after begin" : "after a closed section";
    case ST_TYPES: return "in types";
    case ST_METHODS: return "after methods started";
    case ST_ENTRIES: return "after entries started";
    default: return "after end";
    }
}

IPROF_API int iprof_writer_begin(iprof_writer *w, const char *format_version)
{
    if (!w)
        return IPROF_EINVAL;
    if (w->status)
        return w->status;
    if (w->state != ST_INIT)
        return fail(w, IPROF_ESTATE, "begin called %s", state_name(w));
    const char *v = format_version ? format_version
                    : w->opt_version ? w->opt_version
                                     : IPROF_FORMAT_LATEST;
    size_t len = strlen(v);
    ipi_fmtver fv;
    if (ipi_version_parse(v, len, &fv))
        return fail(w, IPROF_EVERSION, "malformed format version \"%.64s\"", v);
    switch (ipi_version_classify(&fv)) {
    case IPI_VERSION_LEGACY:
        return fail(w, IPROF_EVERSION,
                    "format version %.64s predates the 0.2.0 layout, not writable", v);
    case IPI_VERSION_FUTURE:
        return fail(w, IPROF_EVERSION, "format version %.64s is newer than this library knows",
                    v);
    default:
        break;
    }
    snprintf(w->version, sizeof w->version, "%s", v);
    w->legacy = ipi_version_is_legacy(&fv);
    if (w->legacy) /* its one layout is GraalVM's pretty printing */
        w->pretty = 1;
    w->nlayout = ipi_version_layout(&fv, w->layout);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        w->kind_pos[k] = -1;
    for (size_t i = 0; i < w->nlayout; i++)
        w->kind_pos[w->layout[i]] = (int)i;
    int rc = ipi_sink_open(&w->sink, &w->err);
    if (rc)
        return fail_rc(w, rc);
    if ((rc = write_begin(w, v, len)))
        return fail_rc(w, rc);
    w->state = ST_BETWEEN;
    w->seq = -1;
    w->iof_key = iprof_instanceof_key_name(w->iof_opt ? w->iof_opt : IPROF_INSTANCEOF_KEY_CAMEL);
    return IPROF_OK;
}

IPROF_API int iprof_writer_type(iprof_writer *w, int64_t id, const char *name, size_t name_len)
{
    if (!w)
        return IPROF_EINVAL;
    if (w->status)
        return w->status;
    if (w->state != ST_TYPES) {
        if (w->state != ST_BETWEEN || w->seq >= SEQ_TYPES)
            return fail(w, IPROF_ESTATE, "type written %s", state_name(w));
        int rc = open_seq(w, SEQ_TYPES);
        if (rc)
            return fail_rc(w, rc);
    }
    if (!name && name_len)
        return fail(w, IPROF_EINVAL, "type name is NULL");
    /* Never written, checked or not: the file would not be JSON. */
    if (name_len && !ipi_utf8_valid(name, name_len))
        return fail(w, IPROF_EINVAL, "type %lld: the name is not valid UTF-8", (long long)id);
    int rc;
    if (w->check_refs) {
        if (ipi_idmap_get(&w->type_ids, id))
            return fail_duplicate(w, "types", (size_t)w->count, id);
        if ((rc = ipi_idmap_put(&w->type_ids, &w->alloc, id, w)))
            return fail_rc(w, rc);
    }
    if ((rc = write_type(w, id, name ? name : "", name_len)))
        return fail_rc(w, rc);
    return IPROF_OK;
}

IPROF_API int iprof_writer_method(iprof_writer *w, int64_t id, const char *name,
                                  size_t name_len, const int64_t *signature,
                                  size_t signature_len)
{
    if (!w)
        return IPROF_EINVAL;
    if (w->status)
        return w->status;
    if (w->state != ST_TYPES && w->state != ST_METHODS &&
        !(w->state == ST_BETWEEN && w->seq < SEQ_METHODS))
        return fail(w, IPROF_ESTATE, "method written %s", state_name(w));
    if (!name && name_len)
        return fail(w, IPROF_EINVAL, "method name is NULL");
    if (name_len && !ipi_utf8_valid(name, name_len))
        return fail(w, IPROF_EINVAL, "method %lld: the name is not valid UTF-8", (long long)id);
    if (!signature && signature_len)
        return fail(w, IPROF_EINVAL, "method signature is NULL");
    int rc;
    uint64_t index = w->state == ST_METHODS ? w->count : 0;
    if (w->check_refs) {
        if (ipi_idmap_get(&w->method_ids, id))
            return fail_duplicate(w, "methods", (size_t)index, id);
        if (signature_len < 2) /* what a strict read refuses */
            return fail_short_signature(w, (size_t)index);
        for (size_t i = 0; i < signature_len; i++)
            if (!ipi_idmap_get(&w->type_ids, signature[i]))
                return fail_signature_type(w, (size_t)index, signature[i], i);
        if ((rc = ipi_idmap_put(&w->method_ids, &w->alloc, id, w)))
            return fail_rc(w, rc);
    }
    if (w->state != ST_METHODS && (rc = open_seq(w, SEQ_METHODS)))
        return fail_rc(w, rc);
    if ((rc = write_method(w, id, name ? name : "", name_len, signature, signature_len)))
        return fail_rc(w, rc);
    return IPROF_OK;
}

/* Rule and reference checks of one entry; 0 or the failure. */
static int check_entry(iprof_writer *w, int kind, const int64_t *frames, size_t frame_count,
                       const int64_t *records, size_t record_count, uint64_t index)
{
    const char *kname = kind_key(w, kind);
    int rule;
    if (w->flags & IPROF_WRITE_NO_VALIDATE) {
        /* Still refuse what would not parse back: no frames, a '-' in a
         * method id. */
        rule = IPI_RULE_OK;
        if (frame_count == 0)
            rule = IPI_RULE_NO_FRAMES;
        for (size_t i = 0; i < frame_count && !rule; i++)
            if (frames[2 * i] < 0)
                rule = IPI_RULE_NEGATIVE_METHOD;
    } else {
        rule = ipi_rule_check_entry(kind, frames, frame_count, records, record_count);
    }
    if (rule)
        return fail_at(w, IPROF_ESCHEMA, kname, (size_t)index, ".%s: %s",
                       ipi_rule_is_ctx(rule) ? "ctx" : "records", ipi_rule_message(rule));
    if (!w->check_refs)
        return IPROF_OK;
    const ipi_kind_layout *lay = ipi_kind_layout_of(kind);
    if (lay->checks_methods)
        for (size_t i = 0; i < frame_count; i++)
            if (!ipi_idmap_get(&w->method_ids, frames[2 * i]))
                return fail_ctx_method(w, kname, (size_t)index, frames[2 * i], i);
    if (lay->type_slot >= 0)
        for (size_t i = (size_t)lay->type_slot; i < record_count; i += (size_t)lay->group)
            if (!ipi_idmap_get(&w->type_ids, records[i]))
                return fail_record_type(w, kname, (size_t)index, records[i], i);
    return IPROF_OK;
}

/* 0.2.0's monitorsProfile is one object of records: the one monitor entry
 * (ctx "0:0") gives them; a second, or another ctx (which an unvalidated
 * write lets through), has no place. */
static int legacy_monitor_entry(iprof_writer *w, int to, const int64_t *frames,
                                size_t frame_count, const int64_t *records,
                                size_t record_count)
{
    int open, cur = seq_now(w, &open), rc;
    size_t index = open && cur == to ? (size_t)w->count : 0;
    if (frame_count != 1 || frames[0] != 0 || frames[1] != 0)
        return fail_at(w, IPROF_EVERSION, kind_key(w, IPROF_KIND_MONITOR), index,
                       ": format %s has no ctx for monitors, only the dummy \"0:0\"",
                       w->version);
    if (index)
        return fail_at(w, IPROF_EVERSION, kind_key(w, IPROF_KIND_MONITOR), (size_t)w->count,
                       ": format %s holds one monitor profile, not a second monitor entry",
                       w->version);
    if ((rc = open_seq(w, to)) || (rc = put_values(w, records, record_count)))
        return fail_rc(w, rc);
    w->count++;
    return IPROF_OK;
}

IPROF_API int iprof_writer_entry(iprof_writer *w, int kind, const int64_t *frames,
                                 size_t frame_count, const int64_t *records,
                                 size_t record_count)
{
    if (!w)
        return IPROF_EINVAL;
    if (w->status)
        return w->status;
    if (w->state == ST_INIT || w->state == ST_DONE)
        return fail(w, IPROF_ESTATE, "entry written %s", state_name(w));
    if (kind < 0 || kind >= IPROF_KIND_COUNT)
        return fail(w, IPROF_EINVAL, "invalid entry kind %d", kind);
    if ((!frames && frame_count) || (!records && record_count))
        return fail(w, IPROF_EINVAL, "%s entry: frames or records are NULL",
                    kind_key(w, kind));
    int pos = w->kind_pos[kind];
    if (pos < 0) {
        if (kind == IPROF_KIND_INSTANCEOF && (w->flags & IPROF_WRITE_DROP_INSTANCEOF))
            return IPROF_OK;
        return fail(w, IPROF_EVERSION, "%s are not part of format version %s",
                    kind_key(w, kind), w->version);
    }
    int open, cur = seq_now(w, &open), to = SEQ_ENTRIES + pos;
    if (cur > to || (cur == to && !open))
        return fail(w, IPROF_ESTATE, "%s entry after %s: version %s writes them before",
                    kind_key(w, kind), w->state == ST_BETWEEN ? "an unknown key"
                                                              : seq_key(w, cur), w->version);
    uint64_t index = open && cur == to ? w->count : 0;
    int rc = check_entry(w, kind, frames, frame_count, records, record_count, index);
    if (rc)
        return rc;
    if (w->legacy && kind == IPROF_KIND_MONITOR)
        return legacy_monitor_entry(w, to, frames, frame_count, records, record_count);
    if ((rc = open_seq(w, to)) ||
        (rc = write_entry(w, frames, frame_count, records, record_count)))
        return fail_rc(w, rc);
    return IPROF_OK;
}

IPROF_API int iprof_writer_end(iprof_writer *w)
{
    if (!w)
        return IPROF_EINVAL;
    if (w->status)
        return w->status;
    if (w->state == ST_INIT || w->state == ST_DONE)
        return fail(w, IPROF_ESTATE, "end called %s", state_name(w));
    int rc = write_end(w);
    if (rc)
        return fail_rc(w, rc);
    w->state = ST_DONE;
    return IPROF_OK;
}

/* An unknown key after the open section (closed first). */
static int unknown_here(iprof_writer *w, const char *key, size_t key_len, const char *json,
                        size_t json_len)
{
    int open, cur = seq_now(w, &open), rc;
    if (open && (rc = close_through(w, cur)))
        return rc;
    return write_unknown(w, key, key_len, json, json_len);
}

IPROF_API int iprof_writer_unknown(iprof_writer *w, const char *key, size_t key_len,
                                   const char *json, size_t json_len)
{
    if (!w)
        return IPROF_EINVAL;
    if (w->status)
        return w->status;
    if (w->state == ST_INIT || w->state == ST_DONE)
        return fail(w, IPROF_ESTATE, "unknown key written %s", state_name(w));
    if ((!key && key_len) || !json)
        return fail(w, IPROF_EINVAL, "unknown key: the key or the JSON is NULL");
    if (key_len && !ipi_utf8_valid(key, key_len))
        return fail(w, IPROF_EINVAL, "unknown key: the key is not valid UTF-8");
    if (ipi_is_known_key(key ? key : "", key_len))
        return fail(w, IPROF_EINVAL, "\"%.*s\" is a key the library writes itself",
                    (int)(key_len > 64 ? 64 : key_len), key);
    int clash = legacy_key_clash(w, key ? key : "", key_len);
    if (clash)
        return clash;
    int rc = ipi_json_check_one(&w->alloc, json, json_len);
    if (rc)
        return rc == IPROF_ESYNTAX
                   ? fail(w, rc, "the value of \"%.*s\" is not one JSON value",
                          (int)(key_len > 64 ? 64 : key_len), key)
                   : fail_rc(w, rc);
    if ((rc = unknown_here(w, key ? key : "", key_len, json, json_len)))
        return fail_rc(w, rc);
    return IPROF_OK;
}

/* ------------------------------------------------------------------------ */
/* Whole model                                                              */

/* The entries of one kind against the model's id tables. */
static int check_kind_refs(iprof_writer *w, const iprof_model *m, int kind)
{
    const ipi_kind_layout *L = ipi_kind_layout_of(kind);
    const ipi_entry_list *l = &m->entries[kind];
    const char *key = kind_key(w, kind);
    for (size_t i = 0; i < l->count; i++) {
        const iprof_entry *e = &l->items[i];
        size_t frame = 0;
        for (const iprof_context *c = e->ctx; L->checks_methods && c; c = c->parent, frame++)
            if (!ipi_idmap_get(&m->method_ids, c->method))
                return fail_ctx_method(w, key, i, c->method, frame);
        for (size_t k = (size_t)L->type_slot; L->type_slot >= 0 && k < e->record_count;
             k += (size_t)L->group)
            if (!ipi_idmap_get(&m->type_ids, e->records[k]))
                return fail_record_type(w, key, i, e->records[k], k);
    }
    return IPROF_OK;
}

/* What a strict read of the model's document would refuse beyond the entry
 * rules: duplicate ids, short signatures, ids not defined. Checked on the
 * model's own id tables, which is cheaper than the per-element tables of
 * a streaming write; the messages are the streaming checks'. */
static int check_model_refs(iprof_writer *w, const iprof_model *m)
{
    for (size_t i = 0; i < m->type_count; i++)
        if (ipi_idmap_get(&m->type_ids, m->types[i]->id) != m->types[i])
            return fail_duplicate(w, "types", i, m->types[i]->id);
    for (size_t i = 0; i < m->method_count; i++) {
        const iprof_method *x = m->methods[i];
        if (ipi_idmap_get(&m->method_ids, x->id) != x)
            return fail_duplicate(w, "methods", i, x->id);
        if (x->sig_len < 2)
            return fail_short_signature(w, i);
        for (size_t k = 0; k < x->sig_len; k++)
            if (!ipi_idmap_get(&m->type_ids, x->sig[k]))
                return fail_signature_type(w, i, x->sig[k], k);
    }
    for (size_t s = 0; s < w->nlayout; s++) {
        int rc = check_kind_refs(w, m, w->layout[s]);
        if (rc)
            return rc;
    }
    return IPROF_OK;
}

/* The sequence index of the section an unknown key follows; -1 after the
 * version; INT_MAX when the target version lacks it (written last). */
static int anchor_seq(const iprof_writer *w, int after)
{
    switch (after) {
    case IPROF_SECTION_VERSION:
    case -1: return -1;
    case IPROF_SECTION_TYPES: return SEQ_TYPES;
    case IPROF_SECTION_METHODS: return SEQ_METHODS;
    default:
        if (after >= 0 && after < IPROF_KIND_COUNT && w->kind_pos[after] >= 0)
            return SEQ_ENTRIES + w->kind_pos[after];
        return INT_MAX;
    }
}

/* Write the model's unknown keys that follow sequence index `seq` (and,
 * with seq INT_MAX, those that follow nothing the version writes). */
static int model_unknowns(iprof_writer *w, const iprof_model *model, int seq)
{
    const ipi_layout_extras *x = &model->extras;
    for (size_t i = 0; i < x->count; i++) {
        const ipi_unknown *u = &x->items[i];
        if (anchor_seq(w, u->after) != seq)
            continue;
        int rc = seq == INT_MAX ? close_through(w, SEQ_ENTRIES + (int)w->nlayout - 1)
                 : seq >= 0     ? close_through(w, seq)
                                : IPROF_OK;
        if (rc || (rc = write_unknown(w, u->key, u->key_len, u->json, u->json_len)))
            return fail_rc(w, rc);
    }
    return IPROF_OK;
}

/* How many elements ahead write_model asks the cache for. */
#define PREFETCH_AHEAD 16

/* The start of a whole model's document: the version, the instanceof
 * key's spelling and whether the target version can hold the model. */
static int begin_model(iprof_writer *w, const iprof_model *model)
{
    int rc = iprof_writer_begin(w, w->opt_version ? w->opt_version : iprof_model_version(model));
    if (rc)
        return rc;
    if (!w->iof_opt && model->extras.instanceof_key)
        w->iof_key = iprof_instanceof_key_name(model->extras.instanceof_key);
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        if (w->kind_pos[k] >= 0 || !iprof_model_entry_count(model, k) ||
            (k == IPROF_KIND_INSTANCEOF && (w->flags & IPROF_WRITE_DROP_INSTANCEOF)))
            continue;
        /* Copying a lenient load as it is: a 1.0.0 file's instanceof
         * entries (kept with a warning) go last, as the file had them. */
        if (k == IPROF_KIND_INSTANCEOF && (w->flags & IPROF_WRITE_NO_VALIDATE) && !w->legacy) {
            w->kind_pos[k] = (int)w->nlayout;
            w->layout[w->nlayout++] = k;
            continue;
        }
        return fail(w, IPROF_EVERSION, "%s are not part of format version %s", kind_key(w, k),
                    w->version);
    }
    return legacy_unknowns_fit(w, model);
}

/* ---- the canonical form (IPROF_WRITE_CANONICAL) ---- */

static int cmp_unknown_key(const void *pa, const void *pb)
{
    const ipi_unknown *a = *(const ipi_unknown *const *)pa, *b = *(const ipi_unknown *const *)pb;
    size_t n = a->key_len < b->key_len ? a->key_len : b->key_len;
    int c = memcmp(a->key, b->key, n);
    return c ? c : (a->key_len > b->key_len) - (a->key_len < b->key_len);
}

/* The unknown keys where the canonical form has them: all at the end,
 * sorted by key, one per key. */
static int canonical_unknowns(iprof_writer *w, const iprof_model *model)
{
    size_t n = model->extras.count;
    if (!n)
        return IPROF_OK;
    const ipi_unknown **keys = ipi_malloc(&w->alloc, n * sizeof *keys);
    if (!keys)
        return fail(w, IPROF_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        keys[i] = &model->extras.items[i];
    qsort(keys, n, sizeof *keys, cmp_unknown_key);
    int rc = close_through(w, SEQ_ENTRIES + (int)w->nlayout - 1);
    for (size_t i = 0; !rc && i < n; i++)
        if (i == 0 || cmp_unknown_key(&keys[i - 1], &keys[i]) != 0)
            rc = write_unknown(w, keys[i]->key, keys[i]->key_len, keys[i]->json,
                               keys[i]->json_len);
    ipi_free(&w->alloc, keys, n * sizeof *keys);
    return rc ? fail_rc(w, rc) : IPROF_OK;
}

/* Whether the model has a canonical form, in the words canonicalizing it
 * would use: the checks write to a report model, copied to the writer. */
static int check_canonical(iprof_writer *w, const iprof_model *model)
{
    iprof_model *report;
    if (iprof_model_new(&report, &w->alloc))
        return fail(w, IPROF_ENOMEM, "out of memory");
    int rc = ipi_unknown_check_keys(report, model);
    if (!rc)
        rc = ipi_canon_check(report, model, (w->flags & IPROF_WRITE_THREADED) != 0);
    if (rc) {
        ipi_errbuf_copy(&w->err, iprof_model_error(report));
        w->status = rc;
    }
    iprof_model_free(report);
    return rc;
}

static int fail_canon(iprof_writer *w, int rc)
{
    return fail(w, rc, rc == IPROF_ENOMEM ? "out of memory" : "too many entries of a kind");
}

/* ---- formatting on two threads (IPROF_WRITE_THREADED) ---- */

/* A section of a canonical write is cut in ranges of PART_ELEMS elements:
 * while the calling thread writes one, a job formats the next into a part
 * (a buffer of PART_BYTES), which the calling thread then passes on. The
 * job takes small elements only, in order, and stops at the first it
 * cannot take (too large, breaking a rule, the buffer full): the calling
 * thread goes on from there, so the bytes are those of one thread. */
#define PART_ELEMS 8192
#define PART_BYTES ((size_t)1 << 20)
#define PART_VALUES 256 /* signature ids or records */
#define PART_FRAMES 64

typedef struct part {
    iprof_writer w; /* formatting state only: w.part set, its own buffer */
    const ipi_canon *c;
    int kind;              /* entries of the kind being walked; -1: methods */
    size_t from, to, done; /* the range; how many of it were formatted */
    ipi_job job;
    int64_t vals[PART_VALUES];
    int64_t fr[2 * PART_FRAMES];
} part;

/* Method i or entry i into the part: 1, or 0 (nothing written) when it is
 * the calling thread's. Room is not checked first: the part's make_room
 * fails, and the element is cut off. */
static int part_method(part *p, size_t i)
{
    ipi_canon_prefetch_method(p->c, i);
    const iprof_method *x = ipi_canon_method(p->c, i);
    if (x->sig_len > PART_VALUES)
        return 0;
    ipi_canon_sig_into(p->c, i, p->vals);
    size_t pos = p->w.pos;
    if (write_method(&p->w, (int64_t)i + 1, x->name->s, x->name->len, p->vals, x->sig_len)) {
        p->w.pos = pos;
        return 0;
    }
    return 1;
}

static int part_entry(part *p, size_t i)
{
    ipi_canon_entry e;
    if (!ipi_canon_entry_at(p->c, i, p->fr, PART_FRAMES, p->vals, PART_VALUES, &e) ||
        ipi_rule_check_entry(p->kind, e.frames, e.depth, e.records, e.record_count) !=
            IPI_RULE_OK)
        return 0;
    size_t pos = p->w.pos;
    if (write_entry(&p->w, e.frames, e.depth, e.records, e.record_count)) {
        p->w.pos = pos;
        return 0;
    }
    return 1;
}

/* The job: only reads the canonical order and writes its own part. */
static void format_part(void *arg)
{
    part *p = arg;
    size_t i = p->from;
    while (i < p->to && (p->kind < 0 ? part_method(p, i) : part_entry(p, i)))
        i++;
    p->done = i - p->from;
}

static void start_part(const iprof_writer *w, part *p, int kind, size_t from, size_t to)
{
    p->w.pos = 0;
    p->w.count = 1; /* never a section's first element: a separator first */
    p->w.pretty = w->pretty;
    p->w.legacy = w->legacy;
    p->kind = kind;
    p->from = from;
    p->to = to;
    p->done = 0;
    ipi_job_start(&p->job, format_part, p, 1);
}

/* Pass the bytes of a part that has run on. */
static int put_part(iprof_writer *w, part *p)
{
    size_t n = p->w.pos;
    w->count += p->done;
    if (!n)
        return IPROF_OK;
    if (w->direct) {
        ENSURE(w, n);
        memcpy(w->buf + w->pos, p->w.buf, n);
        w->pos += n;
        return IPROF_OK;
    }
    int rc = flush(w);
    return rc ? rc : ipi_sink_write(&w->sink, p->w.buf, n, &w->err);
}

/* A part for a threaded write, NULL otherwise or when out of memory (the
 * write then goes on one thread). */
static part *new_part(iprof_writer *w, const ipi_canon *c)
{
    if (!(w->flags & IPROF_WRITE_THREADED))
        return NULL;
    part *p = ipi_malloc(&w->alloc, sizeof *p);
    char *buf = p ? ipi_malloc(&w->alloc, PART_BYTES) : NULL;
    if (!buf) {
        ipi_free(&w->alloc, p, sizeof *p);
        return NULL;
    }
    memset(p, 0, sizeof *p);
    p->w.part = 1;
    p->w.buf = buf;
    p->w.cap = PART_BYTES;
    p->c = c;
    return p;
}

static void free_part(iprof_writer *w, part *p)
{
    if (!p)
        return;
    ipi_free(&w->alloc, p->w.buf, PART_BYTES);
    ipi_free(&w->alloc, p, sizeof *p);
}

/* Methods [from, to) on the calling thread. */
static int write_methods(iprof_writer *w, ipi_canon *c, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        /* The order is not the model's: fetch the methods ahead. */
        ipi_canon_prefetch_method(c, i);
        const iprof_method *x = ipi_canon_method(c, i);
        const int64_t *sig = ipi_canon_sig(c, i);
        if (!sig)
            return fail(w, IPROF_ENOMEM, "out of memory");
        int rc = iprof_writer_method(w, (int64_t)i + 1, x->name->s, x->name->len, sig,
                                     x->sig_len);
        if (rc)
            return rc;
    }
    return IPROF_OK;
}

/* The walk's entries up to index `to` (a run start) on the calling
 * thread. */
static int write_entries(iprof_writer *w, ipi_canon *c, int kind, size_t to)
{
    while (c->next < to) {
        ipi_canon_entry e;
        int rc = ipi_canon_next(c, &e); /* not 0: to is at most the count */
        if (rc != 1)
            return fail(w, rc, rc == IPROF_ENOMEM ? "out of memory" : "too many records");
        if ((rc = iprof_writer_entry(w, kind, e.frames, e.depth, e.records, e.record_count)))
            return rc;
    }
    return IPROF_OK;
}

/* The n methods (kind -1) or the n entries of the kind being walked, a
 * part formatting each next range when there is one. */
static int write_split(iprof_writer *w, ipi_canon *c, part *p, int kind, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t a = !p || n - i <= PART_ELEMS ? n : i + PART_ELEMS;
        if (kind >= 0)
            a = ipi_canon_run_start(c, a);
        /* While a sort runs on the second thread, the calling thread
         * writes alone: a part sharing the sort's core would keep it
         * waiting. */
        int split = a < n && !ipi_canon_sorting(c);
        if (split)
            start_part(w, p, kind, a, n - a <= PART_ELEMS ? n : a + PART_ELEMS);
        int rc = kind < 0 ? write_methods(w, c, i, a) : write_entries(w, c, kind, a);
        if (split) {
            ipi_job_wait(&p->job); /* even after a failure: the job reads c */
            if (!rc && (rc = put_part(w, p)))
                rc = fail_rc(w, rc);
        }
        if (rc)
            return rc;
        i = split ? a + p->done : a;
        if (kind >= 0)
            ipi_canon_skip(c, i);
    }
    return IPROF_OK;
}

/* Whether a kind's entries may be formatted by a part: the kind has a
 * section of its own (not 0.2.0's one monitor object, not dropped). */
static int kind_splits(const iprof_writer *w, int kind)
{
    return w->kind_pos[kind] >= 0 && !(w->legacy && kind == IPROF_KIND_MONITOR);
}

static int write_canonical_elements(iprof_writer *w, ipi_canon *c, part *p)
{
    int rc;
    /* The first kind sorts (threaded: on the second thread) while the
     * types and methods are written, each next kind while one is. */
    if (w->nlayout && (rc = ipi_canon_presort(c, w->layout[0])))
        return fail_canon(w, rc);
    for (size_t i = 0; i < c->type_count; i++) {
        /* In name order, not the model's: each type and its name a miss,
         * fetched ahead as the plain write fetches them. */
        if (i + PREFETCH_AHEAD < c->type_count)
            ipi_prefetch(c->types[i + PREFETCH_AHEAD]);
        if (i + PREFETCH_AHEAD / 2 < c->type_count)
            ipi_prefetch(c->types[i + PREFETCH_AHEAD / 2]->name);
        const ipi_str *name = c->types[i]->name;
        if ((rc = iprof_writer_type(w, (int64_t)i, name->s, name->len)))
            return rc;
    }
    if ((rc = write_split(w, c, p, -1, c->method_count)))
        return rc;
    ipi_canon_methods_done(c);
    for (size_t s = 0; s < w->nlayout; s++) {
        int kind = w->layout[s];
        if ((rc = ipi_canon_kind(c, kind)) ||
            (s + 1 < w->nlayout && (rc = ipi_canon_presort(c, w->layout[s + 1]))))
            return fail_canon(w, rc);
        size_t n = iprof_model_entry_count(c->m, kind);
        if ((rc = write_split(w, c, kind_splits(w, kind) ? p : NULL, kind, n)))
            return rc;
    }
    return IPROF_OK;
}

/* What canonicalizing the model and writing it would give. The canonical
 * model's ids are unique and resolve; of the reference checks only the
 * signatures' length is left to make. */
static int write_canonical(iprof_writer *w, const iprof_model *model)
{
    int rc = check_canonical(w, model);
    if (rc || (rc = begin_model(w, model)))
        return rc;
    ipi_canon c;
    if ((rc = ipi_canon_start(&c, model, (w->flags & IPROF_WRITE_THREADED) != 0))) {
        ipi_canon_free(&c);
        return fail(w, rc, rc == IPROF_ENOMEM ? "out of memory" : "too many methods or types");
    }
    /* Signatures of 2+ ids; a model that vouches for its references
     * (model.h: refs_checked) has them. */
    for (size_t i = 0; w->check_refs && !model->refs_checked && i < c.method_count; i++)
        if (ipi_canon_method(&c, i)->sig_len < 2) {
            ipi_canon_free(&c);
            return fail_short_signature(w, i);
        }
    w->check_refs = 0; /* no per-element id tables */
    part *p = new_part(w, &c);
    rc = write_canonical_elements(w, &c, p);
    free_part(w, p);
    ipi_canon_free(&c);
    if (rc || (rc = canonical_unknowns(w, model)))
        return rc;
    return iprof_writer_end(w);
}

IPROF_API int iprof_writer_write_model(iprof_writer *w, const iprof_model *model)
{
    if (!w)
        return IPROF_EINVAL;
    if (w->status)
        return w->status;
    if (!model)
        return fail(w, IPROF_EINVAL, "the model is NULL");
    if (w->state != ST_INIT) /* before the checks below: a misuse first */
        return fail(w, IPROF_ESTATE, "write_model called %s", state_name(w));
    /* The model lacks keys its input had: writing it would lose them. */
    const char *first;
    size_t unread = iprof_model_unread_count(model, &first);
    if (unread && !(w->flags & IPROF_WRITE_DROP_UNKNOWN))
        return fail(w, IPROF_ESCHEMA,
                    "%zu element%s of the model's input held keys it does not keep (the "
                    "first: %s); writing would lose them (IPROF_WRITE_DROP_UNKNOWN writes "
                    "without them)",
                    unread, unread == 1 ? "" : "s", first);
    if (w->flags & IPROF_WRITE_CANONICAL)
        return write_canonical(w, model);
    int rc = begin_model(w, model);
    if (rc)
        return rc;
    if (w->check_refs) {
        /* A model that vouches for its references (a clean load, checked
         * edits) needs no pass; others are checked as a whole. */
        if (!model->refs_checked && (rc = check_model_refs(w, model)))
            return rc;
        w->check_refs = 0; /* no per-element id tables */
    }
    if ((rc = model_unknowns(w, model, -1)))
        return rc;
    size_t n = iprof_model_type_count(model);
    for (size_t i = 0; i < n; i++) {
        if (i + PREFETCH_AHEAD < n)
            ipi_prefetch(model->types[i + PREFETCH_AHEAD]);
        if (i + PREFETCH_AHEAD / 2 < n)
            ipi_prefetch(model->types[i + PREFETCH_AHEAD / 2]->name);
        const iprof_type *t = iprof_model_type_at(model, i);
        size_t len = 0;
        const char *name = iprof_type_name(t, &len);
        if ((rc = iprof_writer_type(w, iprof_type_id(t), name, len)))
            return rc;
    }
    if ((rc = model_unknowns(w, model, SEQ_TYPES)))
        return rc;
    n = iprof_model_method_count(model);
    for (size_t i = 0; i < n; i++) {
        /* Methods and their interned names are scattered in the arena:
         * fetch a few ahead so the formatting does not wait on memory. */
        if (i + PREFETCH_AHEAD < n)
            ipi_prefetch(model->methods[i + PREFETCH_AHEAD]);
        if (i + PREFETCH_AHEAD / 2 < n)
            ipi_prefetch(model->methods[i + PREFETCH_AHEAD / 2]->name);
        const iprof_method *m = iprof_model_method_at(model, i);
        size_t len = 0, sig_len = 0;
        const char *name = iprof_method_name(m, &len);
        const int64_t *sig = iprof_method_signature(m, &sig_len);
        if ((rc = iprof_writer_method(w, iprof_method_id(m), name, len, sig, sig_len)))
            return rc;
    }
    if ((rc = model_unknowns(w, model, SEQ_METHODS)))
        return rc;
    for (size_t s = 0; s < w->nlayout; s++) {
        int kind = w->layout[s];
        n = iprof_model_entry_count(model, kind);
        const iprof_entry *items = model->entries[kind].items;
        for (size_t i = 0; i < n; i++) {
            if (i + PREFETCH_AHEAD < n) {
                ipi_prefetch(items[i + PREFETCH_AHEAD].ctx);
                ipi_prefetch(items[i + PREFETCH_AHEAD].records);
            }
            const iprof_entry *e = iprof_model_entry_at(model, kind, i);
            const iprof_context *ctx = iprof_entry_context(e);
            size_t depth = ctx ? iprof_context_depth(ctx) : 0;
            if (depth > SIZE_MAX / 2 / sizeof *w->scratch)
                return fail(w, IPROF_ENOMEM, "out of memory");
            if (ipi_grow(&w->alloc, (void **)&w->scratch, &w->scratch_cap, depth * 2,
                         sizeof *w->scratch))
                return fail(w, IPROF_ENOMEM, "out of memory");
            if (depth)
                iprof_context_frames(ctx, w->scratch, depth);
            size_t rlen = 0;
            const int64_t *rec = iprof_entry_records(e, &rlen);
            if ((rc = iprof_writer_entry(w, kind, w->scratch, depth, rec, rlen)))
                return rc;
        }
        if ((rc = model_unknowns(w, model, SEQ_ENTRIES + (int)s)))
            return rc;
    }
    if ((rc = model_unknowns(w, model, INT_MAX)))
        return rc;
    return iprof_writer_end(w);
}

/* ------------------------------------------------------------------------ */
/* Results                                                                  */

IPROF_API const iprof_error *iprof_writer_error(const iprof_writer *w)
{
    if (!w || !w->status)
        return NULL;
    return ipi_errbuf_get(&w->err);
}

IPROF_API int iprof_writer_buffer(const iprof_writer *w, const void **data, size_t *len)
{
    if (!w || !data || !len || w->sink.kind != IPI_SINK_MEM)
        return IPROF_EINVAL;
    if (!w->direct) { /* gzip: the compressed bytes so far */
        *data = w->sink.mem ? (const void *)w->sink.mem : (const void *)"";
        *len = w->sink.mem_len;
        return IPROF_OK;
    }
    *data = w->buf;
    *len = w->pos;
    return IPROF_OK;
}
