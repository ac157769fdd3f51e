/*
 * Fuzz the streaming reader.
 *
 * The input is read (a) as a buffer, strict and lenient, (b) through
 * a callback source (IPROF_SOURCE_CALLBACK) in tiny chunks chosen from the first byte, so
 * that window refills and element restarts are exercised, (c) as a buffer
 * with a callback that stops the read after a number of calls, and (d) with
 * NO_REFERENCES. Every callback touches every byte it gets and folds it
 * into a digest. Invariants: (a) lenient and (b) agree on the status, and
 * on the digest and diagnostics when OK; strict OK implies lenient OK with
 * the same digest; (d) agrees with (a) lenient when that is OK; (c) stops
 * when there were more calls than its limit. For gzip input (inflated by
 * the reader) buffer and chunked reads that both fail may differ in which
 * error they report: a gzip error is found when the window is refilled.
 */
#include "fuzz_common.h"

typedef struct digest {
    uint64_t h;
    uint64_t calls;
    uint64_t stop_after; /* 0: never stop */
} digest;

/* Count a call; non-zero when the read should stop. */
static int step(digest *d)
{
    d->calls++;
    return d->stop_after && d->calls >= d->stop_after;
}

static int on_version(const char *version, size_t len, void *payload)
{
    digest *d = payload;
    d->h = fuzz_mix(d->h, 1);
    d->h = fuzz_mix_str(d->h, version, len);
    return step(d);
}

static int on_type(int64_t id, const char *name, size_t name_len, void *payload)
{
    digest *d = payload;
    d->h = fuzz_mix(fuzz_mix(d->h, 2), (uint64_t)id);
    d->h = fuzz_mix_str(d->h, name, name_len);
    return step(d);
}

static int on_method(int64_t id, const char *name, size_t name_len, const int64_t *signature,
                     size_t signature_len, void *payload)
{
    digest *d = payload;
    d->h = fuzz_mix(fuzz_mix(d->h, 3), (uint64_t)id);
    d->h = fuzz_mix_str(d->h, name, name_len);
    FUZZ_ASSERT(signature || !signature_len);
    d->h = fuzz_mix(d->h, signature_len);
    for (size_t i = 0; i < signature_len; i++)
        d->h = fuzz_mix(d->h, (uint64_t)signature[i]);
    return step(d);
}

static int entry(digest *d, int kind, int expect, const int64_t *frames, size_t frame_count,
                 const int64_t *records, size_t record_count)
{
    FUZZ_ASSERT(kind == expect);
    FUZZ_ASSERT(frames || !frame_count);
    FUZZ_ASSERT(records || !record_count);
    d->h = fuzz_mix(fuzz_mix(d->h, 4), (uint64_t)kind);
    d->h = fuzz_mix(d->h, frame_count);
    for (size_t i = 0; i < 2 * frame_count; i++)
        d->h = fuzz_mix(d->h, (uint64_t)frames[i]);
    d->h = fuzz_mix(d->h, record_count);
    for (size_t i = 0; i < record_count; i++)
        d->h = fuzz_mix(d->h, (uint64_t)records[i]);
    return step(d);
}

#define ENTRY_CB(fn, K)                                                                    \
    static int fn(int kind, const int64_t *frames, size_t frame_count,                     \
                  const int64_t *records, size_t record_count, void *payload)              \
    {                                                                                      \
        return entry(payload, kind, K, frames, frame_count, records, record_count);        \
    }
ENTRY_CB(on_call_count, IPROF_KIND_CALL_COUNT)
ENTRY_CB(on_conditional, IPROF_KIND_CONDITIONAL)
ENTRY_CB(on_virtual_invoke, IPROF_KIND_VIRTUAL_INVOKE)
ENTRY_CB(on_monitor, IPROF_KIND_MONITOR)
ENTRY_CB(on_sampling, IPROF_KIND_SAMPLING)
ENTRY_CB(on_instanceof, IPROF_KIND_INSTANCEOF)

static int on_unknown(const char *key, size_t key_len, const char *json, size_t json_len,
                      void *payload)
{
    digest *d = payload;
    d->h = fuzz_mix(d->h, 5);
    d->h = fuzz_mix_str(d->h, key, key_len);
    FUZZ_ASSERT(json != NULL && json_len > 0);
    for (size_t i = 0; i < json_len; i++)
        d->h = fuzz_mix(d->h, (unsigned char)json[i]);
    return step(d);
}

static int on_key(const char *key, size_t key_len, int section, void *payload)
{
    digest *d = payload;
    FUZZ_ASSERT(key != NULL && section >= 0 && section <= IPROF_SECTION_UNKNOWN);
    d->h = fuzz_mix(d->h, 6);
    d->h = fuzz_mix_str(d->h, key, key_len);
    d->h = fuzz_mix(d->h, (uint64_t)section);
    return step(d);
}

static const iprof_read_callbacks callbacks = {
    IPROF_READ_CALLBACKS_VERSION, on_version,     on_type,           on_method,
    on_call_count,                on_conditional, on_virtual_invoke, on_monitor,
    on_sampling,                  on_instanceof,  on_unknown,        on_key,
};

/* The outcome of one read. */
typedef struct outcome {
    int rc;
    digest d;
    size_t ndiag;
    uint64_t diag_hash; /* status, severity and offset of every diagnostic */
    uint64_t err_offset;  /* of the error when rc != OK */
    uint64_t err_hash;    /* its message and path */
    int gzip;             /* the input was gzip-compressed */
} outcome;

/* Whether the input is gzip-compressed (the reader inflates it). */
static int is_gzip(const uint8_t *data, size_t size)
{
    return size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

static iprof_reader *new_reader_alloc(unsigned flags, size_t chunk, size_t max_depth,
                                      const iprof_allocator *alloc)
{
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.allocator = alloc;
    o.flags = flags;
    o.chunk_size = chunk;
    o.max_depth = max_depth;
    iprof_reader *r = NULL;
    int rc = iprof_reader_new(&r, &o);
    if (rc == IPROF_ENOMEM && alloc)
        return NULL;
    if (rc)
        FUZZ_FAIL("iprof_reader_new: %s", iprof_status_string(rc));
    return r;
}

static iprof_reader *new_reader(unsigned flags, size_t chunk, size_t max_depth)
{
    return new_reader_alloc(flags, chunk, max_depth, NULL);
}

static void finish(iprof_reader *r, outcome *out)
{
    fuzz_touch_reader(r, out->rc);
    out->ndiag = read_result(r).diag_count;
    out->diag_hash = 0;
    for (size_t i = 0; i < out->ndiag; i++) {
        const iprof_error *e = iprof_reader_diag(r, i);
        out->diag_hash = fuzz_mix(out->diag_hash, (uint64_t)err_info(e).status);
        out->diag_hash = fuzz_mix(out->diag_hash, (uint64_t)err_info(e).severity);
        out->diag_hash = fuzz_mix(out->diag_hash, err_info(e).offset);
    }
    const iprof_error *err = iprof_reader_error(r);
    if (err) {
        out->err_offset = err_info(err).offset;
        const char *msg = err_info(err).message, *path = err_info(err).path;
        out->err_hash = fuzz_mix_str(fuzz_mix_str(0, msg, strlen(msg)), path, strlen(path));
    }
    FUZZ_ASSERT(out->rc <= 0 && out->rc >= IPROF_ENOTFOUND);
    FUZZ_ASSERT(out->rc != IPROF_EIO && out->rc != IPROF_EINVAL);
}

static outcome read_buffer(const uint8_t *data, size_t size, unsigned flags, size_t max_depth,
                           uint64_t stop_after)
{
    outcome out;
    memset(&out, 0, sizeof out);
    out.d.stop_after = stop_after;
    iprof_reader *r = new_reader(flags, 0, max_depth);
    out.rc = iprof_reader_read(r, SRC_BUFFER(data, size), &callbacks, &out.d);
    out.gzip = is_gzip(data, size);
    finish(r, &out);
    iprof_reader_free(r);
    return out;
}

typedef struct feed {
    const uint8_t *data;
    size_t size, pos, step;
} feed;

static int feed_read(void *buf, size_t capacity, size_t *len, void *payload)
{
    feed *f = payload;
    size_t n = f->size - f->pos;
    if (n > f->step)
        n = f->step;
    if (n > capacity)
        n = capacity;
    memcpy(buf, f->data + f->pos, n);
    f->pos += n;
    *len = n;
    return 0;
}

static outcome read_chunks(const uint8_t *data, size_t size, unsigned flags)
{
    outcome out;
    memset(&out, 0, sizeof out);
    /* Chunk size 1..16 for the reader's window, and the read function
     * returns 1..16 bytes per call, both from the first byte. */
    size_t chunk = size ? 1 + (data[0] & 15u) : 1;
    feed f = {data, size, 0, size ? 1 + (data[0] >> 4) : 1};
    iprof_reader *r = new_reader(flags, chunk, 0);
    out.rc = iprof_reader_read(r, SRC_CALLBACK(feed_read, &f), &callbacks, &out.d);
    out.gzip = is_gzip(data, size);
    finish(r, &out);
    iprof_reader_free(r);
    return out;
}

static void assert_same(const outcome *a, const outcome *b, const char *what)
{
    if (a->gzip && b->gzip && a->rc != IPROF_OK && b->rc != IPROF_OK)
        return; /* a gzip error is found when the window is refilled, so which
                   error comes first, and where, depends on the chunk size */
    if (a->rc != b->rc)
        FUZZ_FAIL("%s: status %s != %s", what, iprof_status_string(a->rc),
                  iprof_status_string(b->rc));
    if (a->rc != IPROF_OK && a->rc != IPROF_ESTOPPED &&
        (a->err_offset != b->err_offset || a->err_hash != b->err_hash))
        FUZZ_FAIL("%s: %s at offset %llu vs %llu, or other message or path", what,
                  iprof_status_string(a->rc), (unsigned long long)a->err_offset,
                  (unsigned long long)b->err_offset);
    if (a->rc == IPROF_OK &&
        (a->d.h != b->d.h || a->d.calls != b->d.calls || a->ndiag != b->ndiag ||
         a->diag_hash != b->diag_hash))
        FUZZ_FAIL("%s: callbacks or diagnostics differ (%llu vs %llu calls, %zu vs %zu diags)",
                  what, (unsigned long long)a->d.calls, (unsigned long long)b->d.calls,
                  a->ndiag, b->ndiag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    outcome strict = read_buffer(data, size, IPROF_READ_STRICT, 0, 0);
    outcome lenient = read_buffer(data, size, 0, 0, 0);
    outcome chunked = read_chunks(data, size, 0);
    assert_same(&lenient, &chunked, "buffer vs chunked (lenient)");
    if (strict.rc == IPROF_OK) {
        if (lenient.rc != IPROF_OK || strict.d.h != lenient.d.h ||
            strict.d.calls != lenient.d.calls)
            FUZZ_FAIL("strict read OK but lenient read %s or differs",
                      iprof_status_string(lenient.rc));
        outcome strict_chunked = read_chunks(data, size, IPROF_READ_STRICT);
        assert_same(&strict, &strict_chunked, "buffer vs chunked (strict)");
    }
    if (lenient.rc == IPROF_OK) {
        outcome norefs = read_buffer(data, size, IPROF_READ_NO_REFERENCES, 0, 0);
        if (norefs.rc != IPROF_OK || norefs.d.h != lenient.d.h)
            FUZZ_FAIL("NO_REFERENCES read %s or differs", iprof_status_string(norefs.rc));
    }
    /* Stop after a number of calls chosen from the last byte. */
    uint64_t stop_after = size ? 1 + data[size - 1] % 8u : 1;
    outcome stopped = read_buffer(data, size, 0, 0, stop_after);
    if (lenient.rc == IPROF_OK && lenient.d.calls >= stop_after) {
        if (stopped.rc != IPROF_ESTOPPED || stopped.d.calls != stop_after)
            FUZZ_FAIL("stop after %llu calls: %s after %llu", (unsigned long long)stop_after,
                      iprof_status_string(stopped.rc), (unsigned long long)stopped.d.calls);
    }
    FUZZ_ASSERT(lenient.rc != IPROF_ENOMEM && chunked.rc != IPROF_ENOMEM);
    /* Allocation failure from the n-th allocation on (n from the third
     * byte): the read fails with IPROF_ENOMEM or ends as without it. */
    if (size > 2) {
        fuzz_failing fa;
        fuzz_failing_init(&fa, data[2] % 32u);
        outcome oom;
        memset(&oom, 0, sizeof oom);
        iprof_reader *r = new_reader_alloc(0, 0, 0, &fa.a);
        if (r) {
            oom.rc = iprof_reader_read(r, SRC_BUFFER(data, size), &callbacks, &oom.d);
            finish(r, &oom);
            if (oom.rc != IPROF_ENOMEM)
                assert_same(&lenient, &oom, "with failing allocations");
            iprof_reader_free(r);
        }
    }
    /* A nesting limit for skipped values, from the second byte. */
    if (size > 1) {
        outcome limited = read_buffer(data, size, 0, 1 + data[1] % 4u, 0);
        if (limited.rc == IPROF_OK && lenient.rc == IPROF_OK && limited.d.h != lenient.d.h)
            FUZZ_FAIL("max_depth read differs");
    }
    return 0;
}
