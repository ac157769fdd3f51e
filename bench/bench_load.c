/*
 * Model load: iprof_model_load_path (chunked reads), then free (not timed).
 *
 *   bench_load [--threaded] FILE
 *
 * --threaded sets IPROF_READ_THREADED: the model is built on a second
 * thread while this one reads.
 */
#include <stdio.h>
#include <string.h>

#include <iprof/iprof.h>

#include "bench_common.h"

int main(int argc, char **argv)
{
    int threaded = argc == 3 && strcmp(argv[1], "--threaded") == 0;
    if (argc != 2 + threaded)
        bench_die("usage: bench_load [--threaded] FILE");
    const char *path = argv[1 + threaded];
    int64_t size = bench_file_size(path);
    if (size < 0)
        return 1;

    double t0 = bench_now();
    iprof_reader *reader;
    iprof_read_options opts = IPROF_READ_OPTIONS_INIT;
    opts.flags = threaded ? IPROF_READ_THREADED : 0;
    if (iprof_reader_new(&reader, &opts) != IPROF_OK)
        bench_die("iprof_reader_new failed");
    iprof_model *model;
    int rc = iprof_model_load_path(&model, reader, path);
    if (rc != IPROF_OK) {
        const iprof_error *e = iprof_reader_error(reader);
        bench_die("%s: %s: %s (at %s)", path, iprof_status_string(rc),
                  e ? iprof_error_message(e) : "", e ? iprof_error_path(e) : "");
    }
    double t1 = bench_now();

    size_t entries = 0;
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        entries += iprof_model_entry_count(model, k);
    char extra[200];
    snprintf(extra, sizeof extra, "types=%zu methods=%zu entries=%zu contexts=%zu",
             iprof_model_type_count(model), iprof_model_method_count(model), entries,
             iprof_model_context_count(model));
    bench_result(threaded ? "load_threaded" : "load", t1 - t0, (uint64_t)size, extra);
    iprof_model_free(model);
    iprof_reader_free(reader);
    return 0;
}
