/*
 * Merge: load N files and merge them into the first (weight 1), as
 * `native-image-configure merge-pgo-profiles` would.
 *
 *   bench_merge FILE1 FILE2 [FILE...]
 *
 * Reports the total time (loads and merges) with the total input bytes, and
 * the merge part alone as merge_s.
 */
#include <stdio.h>
#include <stdlib.h>

#include <iprof/iprof.h>

#include "bench_common.h"

int main(int argc, char **argv)
{
    if (argc < 3)
        bench_die("usage: bench_merge FILE1 FILE2 [FILE...]");
    int n = argc - 1;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        int64_t s = bench_file_size(argv[i + 1]);
        if (s < 0)
            return 1;
        total += (uint64_t)s;
    }
    iprof_reader *reader = bench_reader_new();

    double merge_s = 0;
    double t0 = bench_now();
    iprof_model *dst = NULL;
    for (int i = 0; i < n; i++) {
        iprof_model *m;
        int rc = iprof_model_load_path(&m, reader, argv[i + 1]);
        if (rc != IPROF_OK)
            bench_die("%s: %s", argv[i + 1], iprof_status_string(rc));
        if (!dst) {
            dst = m;
            continue;
        }
        double m0 = bench_now();
        rc = iprof_model_merge(dst, m, 1.0);
        merge_s += bench_now() - m0;
        if (rc != IPROF_OK)
            bench_die("merge of %s: %s", argv[i + 1], iprof_status_string(rc));
        iprof_model_free(m);
    }
    double t1 = bench_now();

    size_t entries = 0;
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        entries += iprof_model_entry_count(dst, k);
    char extra[200];
    snprintf(extra, sizeof extra, "files=%d merge_s=%.6f types=%zu methods=%zu entries=%zu", n,
             merge_s, iprof_model_type_count(dst), iprof_model_method_count(dst), entries);
    char task[32];
    snprintf(task, sizeof task, "merge%d", n);
    bench_result(task, t1 - t0, total, extra);
    iprof_model_free(dst);
    iprof_reader_free(reader);
    return 0;
}
