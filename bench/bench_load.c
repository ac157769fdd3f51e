/*
 * Model load: iprof_model_load from a path (chunked reads), then free (not timed).
 *
 *   bench_load FILE
 */
#include <stdio.h>

#include <iprof/iprof.h>

#include "bench_common.h"

int main(int argc, char **argv)
{
    if (argc != 2)
        bench_die("usage: bench_load FILE");
    const char *path = argv[1];
    int64_t size = bench_file_size(path);
    if (size < 0)
        return 1;

    double t0 = bench_now(), c0 = bench_cpu();
    iprof_reader *reader = bench_reader_new();
    iprof_model *model;
    iprof_source src = IPROF_SOURCE_PATH_INIT(path);
    int rc = iprof_model_load(&model, reader, &src);
    if (rc != IPROF_OK) {
        const iprof_error *e = iprof_reader_error(reader);
        bench_die("%s: %s: %s (at %s)", path, iprof_status_string(rc),
                  bench_error_message(e), bench_error_path(e));
    }
    double t1 = bench_now(), c1 = bench_cpu();

    size_t entries = 0;
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        entries += iprof_model_entry_count(model, k);
    char extra[200];
    snprintf(extra, sizeof extra, "cpu_s=%.6f types=%zu methods=%zu entries=%zu contexts=%zu",
             c1 - c0, iprof_model_type_count(model), iprof_model_method_count(model), entries,
             iprof_model_context_count(model));
    bench_result("load", t1 - t0, (uint64_t)size, extra);
    iprof_model_free(model);
    iprof_reader_free(reader);
    return 0;
}
