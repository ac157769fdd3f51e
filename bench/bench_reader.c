/* The reader the benchmark programs load with (not linked into the peers,
 * which do not use libiprof). */
#include <stdlib.h>
#include <string.h>

#include <iprof/iprof.h>

#include "bench_common.h"

struct iprof_reader *bench_reader_new(void)
{
    const char *t = getenv("IPROF_BENCH_THREADED");
    iprof_read_options opts = IPROF_READ_OPTIONS_INIT;
    opts.flags = t && strcmp(t, "1") == 0 ? IPROF_READ_THREADED : 0;
    iprof_reader *reader;
    if (iprof_reader_new(&reader, &opts) != IPROF_OK)
        bench_die("iprof_reader_new failed");
    return reader;
}

const char *bench_error_message(const struct iprof_error *e)
{
    iprof_error_info info = IPROF_ERROR_INFO_INIT;
    return iprof_error_get_info(e, &info) == IPROF_OK ? info.message : "";
}

const char *bench_error_path(const struct iprof_error *e)
{
    iprof_error_info info = IPROF_ERROR_INFO_INIT;
    return iprof_error_get_info(e, &info) == IPROF_OK ? info.path : "";
}
