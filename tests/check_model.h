/*
 * Model equality for tests, through the public API: the version; types,
 * methods and the entries of every kind in order (ids, name bytes,
 * signatures, contexts frame by frame, records); the number of context
 * nodes; and the same answers from the lookups by id, by name and by
 * context (which element is the first with its key, for models holding
 * duplicates). model_diff() prints the first differences and returns how
 * many it found.
 */
#ifndef IPROF_TESTS_CHECK_MODEL_H
#define IPROF_TESTS_CHECK_MODEL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iprof/iprof.h>

#include "check_api.h"

/* The model written minified in GraalVM's layout with these write flags,
 * malloc'd and NUL-terminated; "(write failed)" when the write fails. */
static inline char *model_text(const iprof_model *m, unsigned flags)
{
    static const char failed[] = "(write failed)";
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.flags = flags;
    iprof_writer *w = NULL;
    const void *d = failed;
    size_t n = sizeof failed - 1;
    if (iprof_writer_new(&w, SINK_BUFFER, &o) != IPROF_OK ||
        iprof_writer_write_model(w, m) != IPROF_OK || iprof_writer_buffer(w, &d, &n) != 0) {
        d = failed;
        n = sizeof failed - 1;
    }
    char *out = malloc(n + 1);
    if (out) {
        memcpy(out, d, n);
        out[n] = '\0';
    }
    iprof_writer_free(w);
    return out;
}

#define MD_REPORT(...)                              \
    do {                                            \
        if (diffs++ < 8) {                          \
            fprintf(stderr, "   model_diff: ");     \
            fprintf(stderr, __VA_ARGS__);           \
            fputc('\n', stderr);                    \
        }                                           \
    } while (0)

static inline int md_same_ctx(const iprof_context *a, const iprof_context *b)
{
    if (iprof_context_depth(a) != iprof_context_depth(b))
        return 0;
    for (; a && b; a = iprof_context_caller(a), b = iprof_context_caller(b))
        if (iprof_context_method_id(a) != iprof_context_method_id(b) ||
            iprof_context_bci(a) != iprof_context_bci(b) ||
            iprof_context_depth(a) != iprof_context_depth(b))
            return 0;
    return !a && !b;
}

static inline size_t model_diff(const iprof_model *a, const iprof_model *b)
{
    size_t diffs = 0;
    if (strcmp(iprof_model_version(a), iprof_model_version(b)) != 0)
        MD_REPORT("version %s != %s", iprof_model_version(a), iprof_model_version(b));

    size_t nt = iprof_model_type_count(a);
    if (nt != iprof_model_type_count(b))
        MD_REPORT("type count %zu != %zu", nt, iprof_model_type_count(b));
    for (size_t i = 0; i < nt && i < iprof_model_type_count(b); i++) {
        const iprof_type *x = iprof_model_type_at(a, i), *y = iprof_model_type_at(b, i);
        size_t xl, yl;
        const char *xn = iprof_type_name(x, &xl), *yn = iprof_type_name(y, &yl);
        if (iprof_type_id(x) != iprof_type_id(y) || xl != yl || memcmp(xn, yn, xl) != 0)
            MD_REPORT("type %zu: %lld \"%.*s\" != %lld \"%.*s\"", i,
                      (long long)iprof_type_id(x), (int)xl, xn, (long long)iprof_type_id(y),
                      (int)yl, yn);
        else if ((iprof_model_type_by_id(a, iprof_type_id(x)) == x) !=
                     (iprof_model_type_by_id(b, iprof_type_id(y)) == y) ||
                 (iprof_model_type_by_name(a, xn, xl) == x) !=
                     (iprof_model_type_by_name(b, yn, yl) == y))
            MD_REPORT("type %zu: lookups differ", i);
    }

    size_t nm = iprof_model_method_count(a);
    if (nm != iprof_model_method_count(b))
        MD_REPORT("method count %zu != %zu", nm, iprof_model_method_count(b));
    for (size_t i = 0; i < nm && i < iprof_model_method_count(b); i++) {
        const iprof_method *x = iprof_model_method_at(a, i), *y = iprof_model_method_at(b, i);
        size_t xl, yl, xs, ys;
        const char *xn = iprof_method_name(x, &xl), *yn = iprof_method_name(y, &yl);
        const int64_t *xg = iprof_method_signature(x, &xs), *yg = iprof_method_signature(y, &ys);
        if (iprof_method_id(x) != iprof_method_id(y) || xl != yl || memcmp(xn, yn, xl) != 0 ||
            xs != ys || (xs && memcmp(xg, yg, xs * sizeof *xg) != 0))
            MD_REPORT("method %zu: %lld \"%.*s\" (%zu ids) != %lld \"%.*s\" (%zu ids)", i,
                      (long long)iprof_method_id(x), (int)xl, xn, xs,
                      (long long)iprof_method_id(y), (int)yl, yn, ys);
        else if ((iprof_model_method_by_id(a, iprof_method_id(x)) == x) !=
                     (iprof_model_method_by_id(b, iprof_method_id(y)) == y) ||
                 (iprof_model_method_find(a, xn, xl, xg, xs) == x) !=
                     (iprof_model_method_find(b, yn, yl, yg, ys) == y))
            MD_REPORT("method %zu: lookups differ", i);
    }

    if (iprof_model_context_count(a) != iprof_model_context_count(b))
        MD_REPORT("context count %zu != %zu", iprof_model_context_count(a),
                  iprof_model_context_count(b));

    static int64_t frames[2 * 1024];
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        size_t ne = iprof_model_entry_count(a, k);
        if (ne != iprof_model_entry_count(b, k))
            MD_REPORT("kind %d: entry count %zu != %zu", k, ne, iprof_model_entry_count(b, k));
        for (size_t i = 0; i < ne && i < iprof_model_entry_count(b, k); i++) {
            const iprof_entry *x = iprof_model_entry_at(a, k, i), *y = iprof_model_entry_at(b, k, i);
            size_t xr, yr;
            const int64_t *xv = iprof_entry_records(x, &xr), *yv = iprof_entry_records(y, &yr);
            if (iprof_entry_kind(x) != k || iprof_entry_kind(y) != k) {
                MD_REPORT("kind %d entry %zu: kind %d / %d", k, i, iprof_entry_kind(x),
                          iprof_entry_kind(y));
                continue;
            }
            if (!md_same_ctx(iprof_entry_context(x), iprof_entry_context(y))) {
                MD_REPORT("kind %d entry %zu: contexts differ", k, i);
                continue;
            }
            if (xr != yr || (xr && memcmp(xv, yv, xr * sizeof *xv) != 0)) {
                MD_REPORT("kind %d entry %zu: records differ (%zu / %zu)", k, i, xr, yr);
                continue;
            }
            size_t d = iprof_context_frames(iprof_entry_context(x), frames, 1024);
            if (d <= 1024 && (iprof_model_entry_find(a, k, frames, d) == x) !=
                                 (iprof_model_entry_find(b, k, frames, d) == y))
                MD_REPORT("kind %d entry %zu: lookups differ", k, i);
        }
    }
    return diffs;
}

#undef MD_REPORT

#endif
