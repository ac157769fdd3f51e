/*
 * Helpers shared by the libFuzzer harnesses: a failure macro that libFuzzer
 * reports, a digest, writing a model into malloc'd memory and comparing two
 * models element by element. Everything is static inline so that each
 * harness compiles alone without unused-function warnings.
 */
#ifndef IPROF_FUZZ_COMMON_H
#define IPROF_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iprof/iprof.h>

#include "../tests/check_api.h"

/* Inputs above this size are ignored: the harnesses must stay fast. */
#define FUZZ_MAX_INPUT (1u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken invariant: print why and abort so that libFuzzer (or the replay
 * program) reports the input. */
#define FUZZ_FAIL(...)                                                   \
    do {                                                                 \
        fprintf(stderr, "%s:%d: invariant broken: ", __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                                    \
        fputc('\n', stderr);                                             \
        __builtin_trap();                                                \
    } while (0)

#define FUZZ_ASSERT(cond)                       \
    do {                                        \
        if (!(cond))                            \
            FUZZ_FAIL("%s", #cond);             \
    } while (0)

/* FNV-1a over 64-bit words. */
static inline uint64_t fuzz_mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * UINT64_C(0x100000001b3);
}

/* Touch every byte of a string of the given length and its NUL, which the
 * API promises; fold the bytes into h. */
static inline uint64_t fuzz_mix_str(uint64_t h, const char *s, size_t len)
{
    FUZZ_ASSERT(s != NULL);
    for (size_t i = 0; i < len; i++)
        h = fuzz_mix(h, (unsigned char)s[i]);
    FUZZ_ASSERT(s[len] == '\0');
    return fuzz_mix(h, len);
}

/* Touch every byte of an error report. */
static inline void fuzz_touch_error(const iprof_error *err)
{
    FUZZ_ASSERT(err != NULL);
    iprof_error_info info = IPROF_ERROR_INFO_INIT;
    FUZZ_ASSERT(iprof_error_get_info(err, &info) == IPROF_OK);
    FUZZ_ASSERT(info.message != NULL && info.path != NULL && info.context != NULL);
    volatile size_t n = strlen(info.message) + strlen(info.path) + strlen(info.context);
    (void)n;
    FUZZ_ASSERT(info.severity == IPROF_SEVERITY_ERROR || info.severity == IPROF_SEVERITY_WARNING);
    FUZZ_ASSERT(info.status <= 0 && info.status >= IPROF_ENOTFOUND);
}

/* Touch the error (if any) and every diagnostic of a reader's last read. */
static inline void fuzz_touch_reader(const iprof_reader *r, int rc)
{
    const iprof_error *err = iprof_reader_error(r);
    if (rc == IPROF_OK)
        FUZZ_ASSERT(err == NULL);
    else
        fuzz_touch_error(err);
    size_t n = read_result(r).diag_count;
    for (size_t i = 0; i < n; i++)
        fuzz_touch_error(iprof_reader_diag(r, i));
    FUZZ_ASSERT(iprof_reader_diag(r, n) == NULL);
}

/* Write a model into memory with the given flags; on success *out holds a
 * malloc'd copy of the bytes. Returns the writer's status. */
static inline int fuzz_write_model(const iprof_model *m, unsigned flags, uint8_t **out,
                                   size_t *out_len)
{
    iprof_write_options wo = IPROF_WRITE_OPTIONS_INIT;
    if (iprof_model_unread_count(m, NULL) && !(flags & IPROF_WRITE_DROP_UNKNOWN)) {
        /* The model lacks keys of its input's elements: a write refuses,
         * before any byte; told to drop them, it writes. */
        iprof_writer *refused = NULL;
        const void *p = NULL;
        size_t n = 1;
        wo.flags = flags;
        FUZZ_ASSERT(iprof_writer_new(&refused, SINK_BUFFER, &wo) == IPROF_OK);
        FUZZ_ASSERT(iprof_writer_write_model(refused, m) == IPROF_ESCHEMA);
        FUZZ_ASSERT(iprof_writer_buffer(refused, &p, &n) == IPROF_OK && n == 0);
        iprof_writer_free(refused);
        flags |= IPROF_WRITE_DROP_UNKNOWN;
    }
    wo.flags = flags;
    wo.buffer_size = 64; /* small: exercise the flushes */
    iprof_writer *w = NULL;
    int rc = iprof_writer_new(&w, SINK_BUFFER, &wo);
    if (rc)
        FUZZ_FAIL("iprof_writer_new (buffer): %s", iprof_status_string(rc));
    rc = iprof_writer_write_model(w, m);
    *out = NULL;
    *out_len = 0;
    if (rc == IPROF_OK) {
        const void *p;
        size_t n;
        FUZZ_ASSERT(iprof_writer_buffer(w, &p, &n) == IPROF_OK);
        *out = malloc(n ? n : 1);
        FUZZ_ASSERT(*out != NULL);
        if (n)
            memcpy(*out, p, n);
        *out_len = n;
    } else {
        fuzz_touch_error(iprof_writer_error(w));
    }
    iprof_writer_free(w);
    return rc;
}

/* An allocator that fails every allocation from the limit-th on (counting
 * from 0), to exercise the out-of-memory paths. */
typedef struct fuzz_failing {
    iprof_allocator a;
    size_t count, limit;
} fuzz_failing;

static inline void *fuzz_failing_malloc(size_t size, void *user)
{
    fuzz_failing *f = user;
    if (f->count++ >= f->limit)
        return NULL;
    return malloc(size);
}

static inline void *fuzz_failing_realloc(void *p, size_t old_size, size_t new_size, void *user)
{
    fuzz_failing *f = user;
    (void)old_size;
    if (f->count++ >= f->limit)
        return NULL;
    return realloc(p, new_size);
}

static inline void fuzz_failing_free(void *p, size_t size, void *user)
{
    (void)size;
    (void)user;
    free(p);
}

static inline void fuzz_failing_init(fuzz_failing *f, size_t limit)
{
    f->a.malloc_fn = fuzz_failing_malloc;
    f->a.realloc_fn = fuzz_failing_realloc;
    f->a.free_fn = fuzz_failing_free;
    f->a.user = f;
    f->count = 0;
    f->limit = limit;
}

static inline int fuzz_str_eq(const char *a, size_t alen, const char *b, size_t blen)
{
    return alen == blen && memcmp(a, b, alen) == 0;
}

/* The frames of a context into a malloc'd array (2 * depth values). */
static inline int64_t *fuzz_frames(const iprof_context *ctx, size_t *depth)
{
    FUZZ_ASSERT(ctx != NULL);
    size_t d = iprof_context_depth(ctx);
    FUZZ_ASSERT(d >= 1);
    int64_t *f = malloc(2 * d * sizeof *f);
    FUZZ_ASSERT(f != NULL);
    FUZZ_ASSERT(iprof_context_frames(ctx, f, d) == d);
    *depth = d;
    return f;
}

/* Abort with a message unless models a and b hold the same version, types,
 * methods and entries, in the same order. */
static inline void fuzz_assert_models_equal(const iprof_model *a, const iprof_model *b)
{
    if (strcmp(iprof_model_version(a), iprof_model_version(b)) != 0)
        FUZZ_FAIL("version %s != %s", iprof_model_version(a), iprof_model_version(b));
    size_t n = iprof_model_type_count(a);
    if (n != iprof_model_type_count(b))
        FUZZ_FAIL("type count %zu != %zu", n, iprof_model_type_count(b));
    for (size_t i = 0; i < n; i++) {
        const iprof_type *x = iprof_model_type_at(a, i), *y = iprof_model_type_at(b, i);
        size_t xl, yl;
        const char *xn = iprof_type_name(x, &xl), *yn = iprof_type_name(y, &yl);
        if (iprof_type_id(x) != iprof_type_id(y) || !fuzz_str_eq(xn, xl, yn, yl))
            FUZZ_FAIL("types[%zu] differ", i);
    }
    n = iprof_model_method_count(a);
    if (n != iprof_model_method_count(b))
        FUZZ_FAIL("method count %zu != %zu", n, iprof_model_method_count(b));
    for (size_t i = 0; i < n; i++) {
        const iprof_method *x = iprof_model_method_at(a, i), *y = iprof_model_method_at(b, i);
        size_t xl, yl, xs, ys;
        const char *xn = iprof_method_name(x, &xl), *yn = iprof_method_name(y, &yl);
        const int64_t *xsig = iprof_method_signature(x, &xs);
        const int64_t *ysig = iprof_method_signature(y, &ys);
        if (iprof_method_id(x) != iprof_method_id(y) || !fuzz_str_eq(xn, xl, yn, yl) ||
            xs != ys || (xs && memcmp(xsig, ysig, xs * sizeof *xsig) != 0))
            FUZZ_FAIL("methods[%zu] differ", i);
    }
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        n = iprof_model_entry_count(a, k);
        if (n != iprof_model_entry_count(b, k))
            FUZZ_FAIL("%s: entry count %zu != %zu", iprof_kind_name(k), n,
                      iprof_model_entry_count(b, k));
        for (size_t i = 0; i < n; i++) {
            const iprof_entry *x = iprof_model_entry_at(a, k, i);
            const iprof_entry *y = iprof_model_entry_at(b, k, i);
            FUZZ_ASSERT(x && y && iprof_entry_kind(x) == k && iprof_entry_kind(y) == k);
            size_t xd, yd, xr, yr;
            int64_t *xf = fuzz_frames(iprof_entry_context(x), &xd);
            int64_t *yf = fuzz_frames(iprof_entry_context(y), &yd);
            int same = xd == yd && memcmp(xf, yf, 2 * xd * sizeof *xf) == 0;
            free(xf);
            free(yf);
            if (!same)
                FUZZ_FAIL("%s[%zu]: contexts differ", iprof_kind_name(k), i);
            const int64_t *xrec = iprof_entry_records(x, &xr);
            const int64_t *yrec = iprof_entry_records(y, &yr);
            if (xr != yr || (xr && memcmp(xrec, yrec, xr * sizeof *xrec) != 0))
                FUZZ_FAIL("%s[%zu]: records differ", iprof_kind_name(k), i);
        }
    }
}

#endif
