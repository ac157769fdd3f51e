/*
 * Visiting a loaded model: every entry of every kind and every record of
 * it, through the public accessors (iprof_model_entry_at,
 * iprof_entry_records), summing the records. The loop the Java binding's
 * visit is measured against (bench/BenchJava.java; docs/performance.md).
 * The load is not timed; the visit runs PASSES (10) times and the first and the
 * fastest pass are reported.
 *
 *   bench_visit FILE
 */
#include <stdio.h>

#include <iprof/iprof.h>

#include "bench_common.h"

#define PASSES 10

int main(int argc, char **argv)
{
    if (argc != 2)
        bench_die("usage: bench_visit FILE");
    const char *path = argv[1];
    int64_t size = bench_file_size(path);
    if (size < 0)
        return 1;
    iprof_reader *reader = bench_reader_new();
    iprof_model *model;
    iprof_source src = IPROF_SOURCE_PATH_INIT(path);
    if (iprof_model_load(&model, reader, &src) != IPROF_OK)
        bench_die("%s: cannot load", path);

    double first = 0, best = 0;
    long long sum = 0, entries = 0, records = 0;
    for (int pass = 0; pass < PASSES; pass++) {
        double t0 = bench_now();
        sum = entries = records = 0;
        for (int k = 0; k < IPROF_KIND_COUNT; k++) {
            size_t n = iprof_model_entry_count(model, k);
            for (size_t i = 0; i < n; i++) {
                size_t len;
                const int64_t *r = iprof_entry_records(iprof_model_entry_at(model, k, i), &len);
                for (size_t j = 0; j < len; j++)
                    sum += r[j];
                records += (long long)len;
                entries++;
            }
        }
        double t = bench_now() - t0;
        if (pass == 0)
            first = best = t;
        else if (t < best)
            best = t;
    }
    char extra[200];
    snprintf(extra, sizeof extra, "first_s=%.6f entries=%lld records=%lld sum=%lld", first, entries,
             records, sum);
    bench_result("visit", best, (uint64_t)size, extra);
    iprof_model_free(model);
    iprof_reader_free(reader);
    return 0;
}
