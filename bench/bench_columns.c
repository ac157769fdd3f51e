/*
 * Summing every record of a loaded model (issue 32, item 2): the loop in C
 * that bench/columns_python.py repeats from Python, once loaded.
 *
 *   bench_columns FILE
 *
 * Loads FILE (not timed), then times, over every kind: the sum through
 * iprof_model_get_columns (the first call builds the columns: what Python's
 * first Model.columns pays too), the same again (kept), and the sum
 * through the per-entry accessors. Each sum wraps modulo 2^64, as numpy's
 * int64 sum does, so the programs' sums must be equal. Besides wall
 * times, the CPU time of this thread (cpu_s, kept_cpu_s), which a busy
 * machine disturbs less.
 */
#include <stdio.h>
#include <time.h>

#include <iprof/analysis.h>
#include <iprof/iprof.h>

#include "bench_common.h"

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t sum_columns(const iprof_model *m)
{
    uint64_t s = 0;
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        iprof_columns c = IPROF_COLUMNS_INIT;
        if (iprof_model_get_columns(m, k, &c) != IPROF_OK)
            bench_die("iprof_model_get_columns failed");
        for (size_t j = 0; j < c.record_count; j++)
            s += (uint64_t)c.records[j];
    }
    return s;
}

static uint64_t sum_entries(const iprof_model *m)
{
    uint64_t s = 0;
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        for (size_t i = 0, n = iprof_model_entry_count(m, k); i < n; i++) {
            size_t len;
            const int64_t *r = iprof_entry_records(iprof_model_entry_at(m, k, i), &len);
            for (size_t j = 0; j < len; j++)
                s += (uint64_t)r[j];
        }
    return s;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        bench_die("usage: bench_columns FILE");
    int64_t size = bench_file_size(argv[1]);
    if (size < 0)
        return 1;
    iprof_reader *reader = bench_reader_new();
    iprof_model *model;
    iprof_source src = IPROF_SOURCE_PATH_INIT(argv[1]);
    if (iprof_model_load(&model, reader, &src) != IPROF_OK)
        bench_die("%s: load failed", argv[1]);
    double t0 = bench_now(), c0 = thread_cpu();
    uint64_t first = sum_columns(model);
    double t1 = bench_now(), c1 = thread_cpu();
    uint64_t kept = sum_columns(model);
    double t2 = bench_now(), c2 = thread_cpu();
    uint64_t by_entry = sum_entries(model);
    double t3 = bench_now();
    if (first != kept || first != by_entry)
        bench_die("sums differ: %llu %llu %llu", (unsigned long long)first,
                  (unsigned long long)kept, (unsigned long long)by_entry);
    char extra[200];
    snprintf(extra, sizeof extra,
             "cpu_s=%.6f kept_s=%.6f kept_cpu_s=%.6f by_entry_s=%.6f sum=%llu", c1 - c0,
             t2 - t1, c2 - c1, t3 - t2, (unsigned long long)first);
    bench_result("columns_c", t1 - t0, (uint64_t)size, extra);
    iprof_model_free(model);
    iprof_reader_free(reader);
    return 0;
}
