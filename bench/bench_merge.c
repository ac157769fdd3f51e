/*
 * Merge, the way `iprof merge` does it: the first file loaded, the others
 * merged into it as they are read (iprof_model_merge_source from a path), all with
 * IPROF_READ_THREADED, then the result written in canonical form
 * (IPROF_WRITE_CANONICAL, sorting on a second thread: IPROF_WRITE_THREADED)
 * to a sink that only counts.
 *
 *   bench_merge FILE1 FILE2 [FILE...]
 *   bench_merge --loaded FILE1 FILE2 [FILE...]
 *
 * With --loaded every file is loaded first and the models merged into the
 * first (iprof_model_merge with IPROF_MERGE_THREADED, as `iprof merge
 * --drop-unknown` does): merge_s is then those merges alone, task
 * merge<N>_loaded.
 *
 * Reports the whole job's time with the total input bytes; merge_s (the
 * streaming merges), merge_cpu_s (their CPU time, all threads: steadier
 * than merge_s on a busy machine) and write_s; and, from a counting allocator shared by
 * the reader and the model, result_mib (what the merged model holds) and
 * peak_mib (the most the job held at once): the memory target is
 * peak <= result + 64 MiB, whatever the number of files. cpu is the
 * process's CPU time over the wall time: 2 when both cores of the merge
 * part are busy.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <iprof/iprof.h>

#include "bench_common.h"

/* Live and peak bytes; atomic: a threaded merge allocates on two threads. */
typedef struct counts {
    atomic_llong live, peak;
} counts;

static void add(counts *c, long long n)
{
    long long now = atomic_fetch_add(&c->live, n) + n, peak = atomic_load(&c->peak);
    while (now > peak && !atomic_compare_exchange_weak(&c->peak, &peak, now))
        ;
}

static void *c_malloc(size_t size, void *user)
{
    void *p = malloc(size);
    if (p)
        add(user, (long long)size);
    return p;
}

static void *c_realloc(void *p, size_t old_size, size_t new_size, void *user)
{
    void *q = realloc(p, new_size);
    if (q)
        add(user, (long long)new_size - (long long)old_size);
    return q;
}

static void c_free(void *p, size_t size, void *user)
{
    if (p)
        add(user, -(long long)size);
    free(p);
}

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

static int count_bytes(const void *data, size_t len, void *payload)
{
    (void)data;
    *(uint64_t *)payload += len;
    return 0;
}

int main(int argc, char **argv)
{
    int loaded = argc > 1 && strcmp(argv[1], "--loaded") == 0;
    if (loaded) {
        argv++;
        argc--;
    }
    if (argc < 3)
        bench_die("usage: bench_merge [--loaded] FILE1 FILE2 [FILE...]");
    int n = argc - 1;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        int64_t s = bench_file_size(argv[i + 1]);
        if (s < 0)
            return 1;
        total += (uint64_t)s;
    }
    counts c = {0, 0};
    iprof_allocator a = {c_malloc, c_realloc, c_free, &c};
    iprof_read_options ro = IPROF_READ_OPTIONS_INIT;
    ro.flags = IPROF_READ_THREADED;
    ro.allocator = &a;
    iprof_reader *reader;
    if (iprof_reader_new(&reader, &ro) != IPROF_OK)
        bench_die("iprof_reader_new failed");

    double t0 = bench_now(), c0 = cpu_seconds();
    iprof_model *dst = NULL;
    iprof_source src = IPROF_SOURCE_PATH_INIT(argv[1]);
    int rc = iprof_model_load(&dst, reader, &src);
    if (rc != IPROF_OK)
        bench_die("%s: %s", argv[1], iprof_status_string(rc));
    iprof_model *srcs[64];
    if (loaded && n > 64)
        bench_die("--loaded: at most 64 files");
    for (int i = 1; loaded && i < n; i++) {
        iprof_source s = IPROF_SOURCE_PATH_INIT(argv[i + 1]);
        if ((rc = iprof_model_load(&srcs[i], reader, &s)) != IPROF_OK)
            bench_die("%s: %s", argv[i + 1], iprof_status_string(rc));
    }
    iprof_merge_options mo = IPROF_MERGE_OPTIONS_INIT;
    mo.flags = IPROF_MERGE_THREADED; /* as `iprof merge --drop-unknown` */
    double m0 = bench_now(), mc0 = cpu_seconds();
    for (int i = 1; i < n; i++) {
        iprof_source s = IPROF_SOURCE_PATH_INIT(argv[i + 1]);
        if ((rc = loaded ? iprof_model_merge(dst, srcs[i], &mo)
                         : iprof_model_merge_source(dst, reader, &s, NULL)) != IPROF_OK)
            bench_die("merge of %s: %s", argv[i + 1],
                      bench_error_message(iprof_model_error(dst)));
    }
    double m1 = bench_now(), mc1 = cpu_seconds();
    for (int i = 1; loaded && i < n; i++)
        iprof_model_free(srcs[i]);
    iprof_reader_free(reader);
    long long result = atomic_load(&c.live), merge_peak = atomic_load(&c.peak);
    atomic_store(&c.peak, result); /* from here: the write's peak */

    iprof_write_options wo = IPROF_WRITE_OPTIONS_INIT;
    wo.flags = IPROF_WRITE_CANONICAL | IPROF_WRITE_THREADED; /* as `iprof merge` */
    wo.allocator = &a;
    uint64_t written = 0;
    iprof_writer *w;
    iprof_sink sink = IPROF_SINK_CALLBACK_INIT(count_bytes, &written);
    if ((rc = iprof_writer_new(&w, &sink, &wo)) != IPROF_OK)
        bench_die("iprof_writer_new: %s", iprof_status_string(rc));
    if ((rc = iprof_writer_write_model(w, dst)) != IPROF_OK)
        bench_die("canonical write: %s", bench_error_message(iprof_writer_error(w)));
    iprof_writer_free(w);
    double t1 = bench_now(), c1 = cpu_seconds();

    size_t entries = 0;
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        entries += iprof_model_entry_count(dst, k);
    long long write_peak = atomic_load(&c.peak);
    char extra[400];
    snprintf(extra, sizeof extra,
             "files=%d merge_s=%.6f merge_cpu_s=%.6f write_s=%.6f out_bytes=%llu result_mib=%.1f peak_mib=%.1f "
             "merge_peak_mib=%.1f write_peak_mib=%.1f cpu=%.2f types=%zu methods=%zu entries=%zu",
             n, m1 - m0, mc1 - mc0, t1 - m1, (unsigned long long)written, result / 1048576.0,
             (merge_peak > write_peak ? merge_peak : write_peak) / 1048576.0,
             merge_peak / 1048576.0, write_peak / 1048576.0, (c1 - c0) / (t1 - t0),
             iprof_model_type_count(dst), iprof_model_method_count(dst), entries);
    char task[32];
    snprintf(task, sizeof task, loaded ? "merge%d_loaded" : "merge%d", n);
    bench_result(task, t1 - t0, total, extra);
    iprof_model_free(dst);
    return 0;
}
