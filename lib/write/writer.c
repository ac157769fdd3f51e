/* The writer: streaming elements into a sink (the whole-model write is in
 * write_model.c, options and creation in write_create.c).
 *
 * Output is formatted straight into one buffer (the memory sink's own
 * buffer, or a buffer of options.buffer_size bytes flushed to the sink when
 * full). Each element reserves its worst-case size once and is then
 * formatted in place with pointer bumps; only very long names, signatures,
 * contexts or record arrays are written in chunks, each reserving its own
 * worst case, so the buffer never has to hold a whole huge element. */
#include <iprof/stream.h>

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

#include "writer_internal.h"

/* ------------------------------------------------------------------------ */
/* Failure                                                                  */

int ipi_writer_fail(iprof_writer *w, int status, const char *fmt, ...)
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
int ipi_writer_fail_rc(iprof_writer *w, int rc)
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
    ipi_writer_fail(w, status, "%s[%zu]%s", section, index, what);
    snprintf(w->err.path, sizeof w->err.path, "%s[%zu]", section, index);
    return status;
}

/* The failures of the checks a strict read makes, worded once for the
 * streaming calls and the whole-model check. */
int ipi_writer_fail_duplicate(iprof_writer *w, const char *section, size_t index, int64_t id)
{
    return fail_at(w, IPROF_ESCHEMA, section, index, ": duplicate %s id %lld",
                   section[0] == 't' ? "type" : "method", (long long)id);
}

int ipi_writer_fail_short_signature(iprof_writer *w, size_t index)
{
    return fail_at(w, IPROF_ESCHEMA, "methods", index,
                   ": signature must hold the declaring and return type ids");
}

int ipi_writer_fail_signature_type(iprof_writer *w, size_t index, int64_t id, size_t slot)
{
    return fail_at(w, IPROF_EDANGLING, "methods", index,
                   ": signature type id %lld (signature[%zu]) was not written", (long long)id,
                   slot);
}

int ipi_writer_fail_ctx_method(iprof_writer *w, const char *key, size_t index, int64_t id,
                           size_t frame)
{
    return fail_at(w, IPROF_EDANGLING, key, index, ".ctx: method id %lld (frame %zu) was not written",
                   (long long)id, frame);
}

int ipi_writer_fail_record_type(iprof_writer *w, const char *key, size_t index, int64_t id,
                            size_t slot)
{
    return fail_at(w, IPROF_EDANGLING, key, index,
                   ".records: type id %lld (records[%zu]) was not written", (long long)id, slot);
}


/* ------------------------------------------------------------------------ */
/* The output buffer                                                        */

int ipi_writer_flush(iprof_writer *w)
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
int ipi_writer_make_room(iprof_writer *w, size_t n)
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
    int rc = ipi_writer_flush(w);
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
        w->pos = (size_t)(ipi_json_values_into(w->buf + w->pos, v + i, chunk, w->lay->pretty, i == 0) -
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
            *p++ = w->lay->ctx_sep;
        p += ipi_ctx_format_sep(p, frames + 2 * i, chunk, w->lay->ctx_sep);
        w->pos = (size_t)(p - w->buf);
        i += chunk;
    }
    return IPROF_OK;
}

/* The separator before an element of the open section. */
static inline char *elem_prefix(const iprof_writer *w, char *p)
{
    *p = ',';
    p += w->count != 0;
    PUT_PIECE(p, w->lay->elem_indent);
    return p;
}

/* ------------------------------------------------------------------------ */
/* Document structure                                                       */

/* Whether the key is the monitor section of a layout where it is one
 * object, not an array (0.2.0's monitorsProfile). */
static int monitor_object(const iprof_writer *w, const char *key)
{
    return w->lay->monitor_object &&
           strcmp(key, ipi_writer_kind_key(w, IPROF_KIND_MONITOR)) == 0;
}

static int open_section(iprof_writer *w, const char *key)
{
    size_t klen = strlen(key);
    ENSURE(w, klen + 1 + 2 * IPI_PIECE_MAX);
    char *p = w->buf + w->pos;
    *p++ = ',';
    PUT_PIECE(p, w->lay->key_open);
    memcpy(p, key, klen);
    p += klen;
    PUT_PIECE(p, monitor_object(w, key) ? w->lay->monitor_open : w->lay->section_open);
    w->pos = (size_t)(p - w->buf);
    w->count = 0;
    w->open_key = key;
    return IPROF_OK;
}

static int close_section(iprof_writer *w)
{
    ENSURE(w, IPI_PIECE_MAX);
    char *p = w->buf + w->pos;
    if (monitor_object(w, w->open_key))
        PUT_PIECE(p, w->lay->monitor_close);
    else
        PUT_PIECE(p, w->count ? w->lay->section_close : w->lay->empty_close);
    w->pos = (size_t)(p - w->buf);
    return IPROF_OK;
}

/* The key of a kind as this document spells it. */
const char *ipi_writer_kind_key(const iprof_writer *w, int kind)
{
    const char *own = w->lay->kind_key ? w->lay->kind_key(kind) : NULL;
    if (own)
        return own;
    return kind == IPROF_KIND_INSTANCEOF ? w->iof_key : iprof_kind_name(kind);
}

/* An unknown key spelled like a section of the layout's own (a 1.x
 * model's "hotnessPoints" written as 0.2.0) cannot be written beside that
 * section. */
static int key_clash(iprof_writer *w, const char *key, size_t key_len)
{
    int sec = w->lay->section_of ? w->lay->section_of(key, key_len) : -1;
    if (sec < 0 || sec >= IPROF_KIND_COUNT)
        return IPROF_OK;
    return ipi_writer_fail(w, IPROF_EVERSION, "the unknown key \"%.*s\" is a section of format %s",
                (int)(key_len > 64 ? 64 : key_len), key, w->version);
}

int ipi_writer_unknowns_fit(iprof_writer *w, const iprof_model *model)
{
    for (size_t i = 0; i < model->extras.count; i++) {
        const ipi_unknown *u = &model->extras.items[i];
        int rc = key_clash(w, u->key, u->key_len);
        if (rc)
            return rc;
    }
    return IPROF_OK;
}

static const char *seq_key(const iprof_writer *w, int seq)
{
    return seq == SEQ_TYPES     ? "types"
           : seq == SEQ_METHODS ? "methods"
                                : ipi_writer_kind_key(w, w->layout[seq - SEQ_ENTRIES]);
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
int ipi_writer_close_through(iprof_writer *w, int through)
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
    if ((rc = ipi_writer_close_through(w, to - 1)) || (rc = open_section(w, seq_key(w, to))))
        return rc;
    w->state = to == SEQ_TYPES ? ST_TYPES : to == SEQ_METHODS ? ST_METHODS : ST_ENTRIES;
    if (to >= SEQ_ENTRIES)
        w->section = (size_t)(to - SEQ_ENTRIES);
    return IPROF_OK;
}

/* An unknown top-level key and its value, right where the document is
 * (the caller closed the open section). */
int ipi_writer_write_unknown(iprof_writer *w, const char *key, size_t key_len, const char *json,
                         size_t json_len)
{
    int rc;
    ENSURE(w, 1 + IPI_PIECE_MAX);
    char *p = w->buf + w->pos;
    *p++ = ',';
    PUT_PIECE(p, w->lay->key_open);
    w->pos = (size_t)(p - w->buf);
    if ((rc = put_string(w, key, key_len)))
        return rc;
    ENSURE(w, IPI_PIECE_MAX);
    p = w->buf + w->pos;
    PUT_PIECE(p, w->lay->unknown_colon);
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
    ENSURE(w, IPI_PIECE_MAX + len + 1);
    char *p = w->buf + w->pos;
    PUT_PIECE(p, w->lay->begin);
    memcpy(p, version, len);
    p += len;
    *p++ = '"';
    w->pos = (size_t)(p - w->buf);
    return IPROF_OK;
}

/* Hand what is buffered to the sink and commit it (a path sink renames
 * its file into place). */
static int commit(iprof_writer *w)
{
    int rc = ipi_writer_flush(w);
    if (rc)
        return rc;
    if (w->direct)
        w->sink.mem_len = w->pos;
    return ipi_sink_commit(&w->sink, &w->err);
}

static int write_end(iprof_writer *w)
{
    int rc = ipi_writer_close_through(w, SEQ_ENTRIES + (int)w->nlayout - 1);
    if (rc)
        return rc;
    ENSURE(w, IPI_PIECE_MAX);
    char *p = w->buf + w->pos;
    PUT_PIECE(p, w->lay->end);
    w->pos = (size_t)(p - w->buf);
    return commit(w);
}

/* ------------------------------------------------------------------------ */
/* Elements                                                                 */

static int write_type(iprof_writer *w, int64_t id, const char *name, size_t len)
{
    int fast = len <= FAST_NAME;
    ENSURE(w, ELEM_FIXED + (fast ? len * IPI_ESC_MAX : 0));
    char *p = elem_prefix(w, w->buf + w->pos);
    PUT_PIECE(p, w->lay->id_open);
    p += ipi_fmt_i64(p, id);
    PUT_PIECE(p, w->lay->type_name);
    if (fast) {
        p = ipi_json_escape_into(p, (const unsigned char *)name, len);
    } else {
        w->pos = (size_t)(p - w->buf);
        int rc = put_string(w, name, len);
        if (rc)
            return rc;
        ENSURE(w, IPI_PIECE_MAX);
        p = w->buf + w->pos;
    }
    PUT_PIECE(p, w->lay->type_close);
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
    const ipi_write_layout *lay = w->lay;
    if (!p) {
        ENSURE(w, IPI_PIECE_MAX);
        p = w->buf + w->pos;
    }
    PUT_PIECE(p, is_method ? lay->sig_open : lay->records_open);
    if (n <= FAST_VALUES &&
        (size_t)(w->cap - (size_t)(p - w->buf)) >= n * IPI_VALUE_MAX + IPI_PIECE_MAX) {
        p = ipi_json_values_into(p, v, n, lay->pretty, 1);
    } else {
        w->pos = (size_t)(p - w->buf);
        if ((rc = put_values(w, v, n)))
            return rc;
        ENSURE(w, IPI_PIECE_MAX);
        p = w->buf + w->pos;
    }
    PUT_PIECE(p, lay->tail_close);
    w->pos = (size_t)(p - w->buf);
    w->count++;
    return IPROF_OK;
}

int ipi_writer_write_method(iprof_writer *w, int64_t id, const char *name, size_t len,
                        const int64_t *sig, size_t sig_len)
{
    int fast = len <= FAST_NAME && sig_len <= FAST_VALUES;
    ENSURE(w, ELEM_FIXED + (fast ? len * IPI_ESC_MAX + sig_len * IPI_VALUE_MAX : 0));
    char *p = elem_prefix(w, w->buf + w->pos);
    PUT_PIECE(p, w->lay->id_open);
    p += ipi_fmt_i64(p, id);
    PUT_PIECE(p, w->lay->method_name);
    if (fast)
        return element_tail(w, ipi_json_escape_into(p, (const unsigned char *)name, len), 1, sig, sig_len);
    int rc;
    w->pos = (size_t)(p - w->buf);
    if ((rc = put_string(w, name, len)))
        return rc;
    return element_tail(w, NULL, 1, sig, sig_len);
}

int ipi_writer_write_entry(iprof_writer *w, const int64_t *frames, size_t frame_count,
                       const int64_t *records, size_t record_count)
{
    int fast = frame_count <= FAST_FRAMES && record_count <= FAST_VALUES;
    ENSURE(w, ELEM_FIXED +
                  (fast ? IPI_CTX_MAX_CHARS(frame_count) + record_count * IPI_VALUE_MAX : 0));
    char *p = elem_prefix(w, w->buf + w->pos);
    PUT_PIECE(p, w->lay->entry_open);
    if (fast)
        return element_tail(w, p + ipi_ctx_format_sep(p, frames, frame_count, w->lay->ctx_sep),
                            0, records, record_count);
    int rc;
    w->pos = (size_t)(p - w->buf);
    if ((rc = put_ctx(w, frames, frame_count)))
        return rc;
    return element_tail(w, NULL, 0, records, record_count);
}

/* ------------------------------------------------------------------------ */
/* Streaming                                                                */

const char *ipi_writer_state_name(const iprof_writer *w)
{
    switch (w->state) {
    case ST_INIT: return "before begin";
    case ST_BETWEEN: return w->seq < 0 ? "after begin" : "after a closed section";
    case ST_TYPES: return "in types";
    case ST_METHODS: return "after methods started";
    case ST_ENTRIES: return "after entries started";
    case ST_RAW: return "after raw bytes";
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
        return ipi_writer_fail(w, IPROF_ESTATE, "begin called %s", ipi_writer_state_name(w));
    const char *v = format_version ? format_version
                    : w->opt_version ? w->opt_version
                                     : IPROF_FORMAT_LATEST;
    size_t len = strlen(v);
    ipi_fmtver fv;
    if (ipi_version_parse(v, len, &fv))
        return ipi_writer_fail(w, IPROF_EVERSION, "malformed format version \"%.64s\"", v);
    switch (ipi_version_classify(&fv)) {
    case IPI_VERSION_LEGACY:
        return ipi_writer_fail(w, IPROF_EVERSION,
                    "format version %.64s predates the 0.2.0 layout, not writable", v);
    case IPI_VERSION_FUTURE:
        return ipi_writer_fail(w, IPROF_EVERSION, "format version %.64s is newer than this library knows",
                    v);
    default:
        break;
    }
    snprintf(w->version, sizeof w->version, "%s", v);
    w->lay = ipi_write_layout_of(ipi_version_is_legacy(&fv), (w->flags & IPROF_WRITE_PRETTY) != 0);
    w->nlayout = ipi_version_layout(&fv, w->layout);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        w->kind_pos[k] = -1;
    for (size_t i = 0; i < w->nlayout; i++)
        w->kind_pos[w->layout[i]] = (int)i;
    int rc = ipi_sink_open(&w->sink, &w->err);
    if (rc)
        return ipi_writer_fail_rc(w, rc);
    if ((rc = write_begin(w, v, len)))
        return ipi_writer_fail_rc(w, rc);
    w->state = ST_BETWEEN;
    w->seq = -1;
    w->iof_key = ipi_instanceof_key_name(w->iof_opt ? w->iof_opt : IPROF_INSTANCEOF_KEY_CAMEL);
    return IPROF_OK;
}

/* iprof_writer_type and ipi_writer_type_valid: the name checked for
 * UTF-8 unless `valid`. */
static int put_type(iprof_writer *w, int64_t id, const char *name, size_t name_len, int valid)
{
    if (!w)
        return IPROF_EINVAL;
    if (w->status)
        return w->status;
    if (w->state != ST_TYPES) {
        if (w->state != ST_BETWEEN || w->seq >= SEQ_TYPES)
            return ipi_writer_fail(w, IPROF_ESTATE, "type written %s", ipi_writer_state_name(w));
        int rc = open_seq(w, SEQ_TYPES);
        if (rc)
            return ipi_writer_fail_rc(w, rc);
    }
    if (!name && name_len)
        return ipi_writer_fail(w, IPROF_EINVAL, "type name is NULL");
    /* Never written, checked or not: the file would not be JSON. */
    if (!valid && name_len && !ipi_utf8_valid(name, name_len))
        return ipi_writer_fail(w, IPROF_EINVAL, "type %lld: the name is not valid UTF-8", (long long)id);
    int rc;
    if (w->check_refs) {
        if (ipi_idmap_get(&w->type_ids, id))
            return ipi_writer_fail_duplicate(w, "types", (size_t)w->count, id);
        if ((rc = ipi_idmap_put(&w->type_ids, &w->alloc, id, w)))
            return ipi_writer_fail_rc(w, rc);
    }
    if ((rc = write_type(w, id, name ? name : "", name_len)))
        return ipi_writer_fail_rc(w, rc);
    return IPROF_OK;
}

IPROF_API int iprof_writer_type(iprof_writer *w, int64_t id, const char *name, size_t name_len)
{
    return put_type(w, id, name, name_len, 0);
}

int ipi_writer_type_valid(iprof_writer *w, int64_t id, const char *name, size_t name_len)
{
    return put_type(w, id, name, name_len, 1);
}

/* iprof_writer_method and ipi_writer_method_valid: the name checked for
 * UTF-8 unless `valid`. */
static int put_method(iprof_writer *w, int64_t id, const char *name, size_t name_len,
                      const int64_t *signature, size_t signature_len, int valid)
{
    if (!w)
        return IPROF_EINVAL;
    if (w->status)
        return w->status;
    if (w->state != ST_TYPES && w->state != ST_METHODS &&
        !(w->state == ST_BETWEEN && w->seq < SEQ_METHODS))
        return ipi_writer_fail(w, IPROF_ESTATE, "method written %s", ipi_writer_state_name(w));
    if (!name && name_len)
        return ipi_writer_fail(w, IPROF_EINVAL, "method name is NULL");
    if (!valid && name_len && !ipi_utf8_valid(name, name_len))
        return ipi_writer_fail(w, IPROF_EINVAL, "method %lld: the name is not valid UTF-8", (long long)id);
    if (!signature && signature_len)
        return ipi_writer_fail(w, IPROF_EINVAL, "method signature is NULL");
    int rc;
    uint64_t index = w->state == ST_METHODS ? w->count : 0;
    if (w->check_refs) {
        if (ipi_idmap_get(&w->method_ids, id))
            return ipi_writer_fail_duplicate(w, "methods", (size_t)index, id);
        if (signature_len < 2) /* what a strict read refuses */
            return ipi_writer_fail_short_signature(w, (size_t)index);
        for (size_t i = 0; i < signature_len; i++)
            if (!ipi_idmap_get(&w->type_ids, signature[i]))
                return ipi_writer_fail_signature_type(w, (size_t)index, signature[i], i);
        if ((rc = ipi_idmap_put(&w->method_ids, &w->alloc, id, w)))
            return ipi_writer_fail_rc(w, rc);
    }
    if (w->state != ST_METHODS && (rc = open_seq(w, SEQ_METHODS)))
        return ipi_writer_fail_rc(w, rc);
    if ((rc = ipi_writer_write_method(w, id, name ? name : "", name_len, signature, signature_len)))
        return ipi_writer_fail_rc(w, rc);
    return IPROF_OK;
}

IPROF_API int iprof_writer_method(iprof_writer *w, int64_t id, const char *name,
                                  size_t name_len, const int64_t *signature,
                                  size_t signature_len)
{
    return put_method(w, id, name, name_len, signature, signature_len, 0);
}

int ipi_writer_method_valid(iprof_writer *w, int64_t id, const char *name, size_t name_len,
                            const int64_t *signature, size_t signature_len)
{
    return put_method(w, id, name, name_len, signature, signature_len, 1);
}

/* Rule and reference checks of one entry; 0 or the failure. */
static int check_entry(iprof_writer *w, int kind, const int64_t *frames, size_t frame_count,
                       const int64_t *records, size_t record_count, uint64_t index)
{
    const char *kname = ipi_writer_kind_key(w, kind);
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
                return ipi_writer_fail_ctx_method(w, kname, (size_t)index, frames[2 * i], i);
    if (lay->type_slot >= 0)
        for (size_t i = (size_t)lay->type_slot; i < record_count; i += (size_t)lay->group)
            if (!ipi_idmap_get(&w->type_ids, records[i]))
                return ipi_writer_fail_record_type(w, kname, (size_t)index, records[i], i);
    return IPROF_OK;
}

/* 0.2.0's monitorsProfile is one object of records: the one monitor entry
 * (ctx "0:0") gives them; a second, or another ctx (which an unvalidated
 * write lets through), has no place. */
static int monitor_object_entry(iprof_writer *w, int to, const int64_t *frames,
                                size_t frame_count, const int64_t *records,
                                size_t record_count)
{
    int open, cur = seq_now(w, &open), rc;
    size_t index = open && cur == to ? (size_t)w->count : 0;
    if (frame_count != 1 || frames[0] != 0 || frames[1] != 0)
        return fail_at(w, IPROF_EVERSION, ipi_writer_kind_key(w, IPROF_KIND_MONITOR), index,
                       ": format %s has no ctx for monitors, only the dummy \"0:0\"",
                       w->version);
    if (index)
        return fail_at(w, IPROF_EVERSION, ipi_writer_kind_key(w, IPROF_KIND_MONITOR), (size_t)w->count,
                       ": format %s holds one monitor profile, not a second monitor entry",
                       w->version);
    if ((rc = open_seq(w, to)) || (rc = put_values(w, records, record_count)))
        return ipi_writer_fail_rc(w, rc);
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
    if (w->state == ST_INIT || w->state == ST_DONE || w->state == ST_RAW)
        return ipi_writer_fail(w, IPROF_ESTATE, "entry written %s", ipi_writer_state_name(w));
    if (kind < 0 || kind >= IPROF_KIND_COUNT)
        return ipi_writer_fail(w, IPROF_EINVAL, "invalid entry kind %d", kind);
    if ((!frames && frame_count) || (!records && record_count))
        return ipi_writer_fail(w, IPROF_EINVAL, "%s entry: frames or records are NULL",
                    ipi_writer_kind_key(w, kind));
    int pos = w->kind_pos[kind];
    if (pos < 0) {
        if (kind == IPROF_KIND_INSTANCEOF && (w->flags & IPROF_WRITE_DROP_INSTANCEOF))
            return IPROF_OK;
        return ipi_writer_fail(w, IPROF_EVERSION, "%s are not part of format version %s",
                    ipi_writer_kind_key(w, kind), w->version);
    }
    int open, cur = seq_now(w, &open), to = SEQ_ENTRIES + pos;
    if (cur > to || (cur == to && !open))
        return ipi_writer_fail(w, IPROF_ESTATE, "%s entry after %s: version %s writes them before",
                    ipi_writer_kind_key(w, kind), w->state == ST_BETWEEN ? "an unknown key"
                                                              : seq_key(w, cur), w->version);
    uint64_t index = open && cur == to ? w->count : 0;
    int rc = check_entry(w, kind, frames, frame_count, records, record_count, index);
    if (rc)
        return rc;
    if (w->lay->monitor_object && kind == IPROF_KIND_MONITOR)
        return monitor_object_entry(w, to, frames, frame_count, records, record_count);
    if ((rc = open_seq(w, to)) ||
        (rc = ipi_writer_write_entry(w, frames, frame_count, records, record_count)))
        return ipi_writer_fail_rc(w, rc);
    return IPROF_OK;
}

IPROF_API int iprof_writer_end(iprof_writer *w)
{
    if (!w)
        return IPROF_EINVAL;
    if (w->status)
        return w->status;
    if (w->state == ST_INIT || w->state == ST_DONE)
        return ipi_writer_fail(w, IPROF_ESTATE, "end called %s", ipi_writer_state_name(w));
    int rc = w->state == ST_RAW ? commit(w) : write_end(w);
    if (rc)
        return ipi_writer_fail_rc(w, rc);
    w->state = ST_DONE;
    return IPROF_OK;
}

/* An unknown key after the open section (closed first). */
static int unknown_here(iprof_writer *w, const char *key, size_t key_len, const char *json,
                        size_t json_len)
{
    int open, cur = seq_now(w, &open), rc;
    if (open && (rc = ipi_writer_close_through(w, cur)))
        return rc;
    return ipi_writer_write_unknown(w, key, key_len, json, json_len);
}

IPROF_API int iprof_writer_unknown(iprof_writer *w, const char *key, size_t key_len,
                                   const char *json, size_t json_len)
{
    if (!w)
        return IPROF_EINVAL;
    if (w->status)
        return w->status;
    if (w->state == ST_INIT || w->state == ST_DONE || w->state == ST_RAW)
        return ipi_writer_fail(w, IPROF_ESTATE, "unknown key written %s", ipi_writer_state_name(w));
    if ((!key && key_len) || !json)
        return ipi_writer_fail(w, IPROF_EINVAL, "unknown key: the key or the JSON is NULL");
    if (key_len && !ipi_utf8_valid(key, key_len))
        return ipi_writer_fail(w, IPROF_EINVAL, "unknown key: the key is not valid UTF-8");
    if (ipi_is_known_key(key ? key : "", key_len))
        return ipi_writer_fail(w, IPROF_EINVAL, "\"%.*s\" is a key the library writes itself",
                    (int)(key_len > 64 ? 64 : key_len), key);
    int clash = key_clash(w, key ? key : "", key_len);
    if (clash)
        return clash;
    int rc = ipi_json_check_one(&w->alloc, json, json_len);
    if (rc)
        return rc == IPROF_ESYNTAX
                   ? ipi_writer_fail(w, rc, "the value of \"%.*s\" is not one JSON value",
                          (int)(key_len > 64 ? 64 : key_len), key)
                   : ipi_writer_fail_rc(w, rc);
    if ((rc = unknown_here(w, key ? key : "", key_len, json, json_len)))
        return ipi_writer_fail_rc(w, rc);
    return IPROF_OK;
}

/* Copy bytes through the buffer, a buffer's worth at a time. */
static int put_raw(iprof_writer *w, const char *data, size_t len)
{
    while (len) {
        size_t chunk = len > w->cap ? w->cap : len;
        if (!chunk) /* no buffer yet (an empty memory sink) */
            chunk = len > DEFAULT_MEM_SIZE ? DEFAULT_MEM_SIZE : len;
        ENSURE(w, chunk);
        memcpy(w->buf + w->pos, data, chunk);
        w->pos += chunk;
        data += chunk;
        len -= chunk;
    }
    return IPROF_OK;
}

IPROF_API int iprof_writer_raw(iprof_writer *w, const void *data, size_t len)
{
    if (!w)
        return IPROF_EINVAL;
    if (w->status)
        return w->status;
    if (w->state != ST_INIT && w->state != ST_RAW)
        return ipi_writer_fail(w, IPROF_ESTATE, "raw bytes written %s", ipi_writer_state_name(w));
    if (!data && len)
        return ipi_writer_fail(w, IPROF_EINVAL, "raw bytes are NULL");
    int rc;
    if (w->state == ST_INIT) { /* a path sink's temporary file, or why not */
        if ((rc = ipi_sink_open(&w->sink, &w->err)))
            return ipi_writer_fail_rc(w, rc);
        w->state = ST_RAW;
    }
    if ((rc = put_raw(w, data, len)))
        return ipi_writer_fail_rc(w, rc);
    return IPROF_OK;
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

