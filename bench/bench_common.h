/*
 * Shared helpers of the benchmark programs: a monotonic clock, the peak RSS
 * of the process and the result line that scripts/bench.sh parses:
 *
 *   RESULT task=NAME wall_s=SECONDS rss_kb=KB bytes=INPUT_BYTES minflt=N [key=value ...]
 *
 * One process measures one task, so the peak RSS is that task's; minflt is
 * the process's minor page faults (setup included), which cost a virtual
 * machine much more than the memory they map (docs/performance.md, "Pages
 * mapped ahead").
 *
 * IPROF_BENCH_THREADED=1 in the environment makes bench_reader_new() set
 * IPROF_READ_THREADED, so loads build the model on a second thread.
 */
#ifndef IPROF_BENCH_COMMON_H
#define IPROF_BENCH_COMMON_H

#include <stddef.h>
#include <stdint.h>

double bench_now(void);
/* CPU time of this process (user + system, every thread), in seconds. */
double bench_cpu(void);
/* ru_maxrss of this process, in KiB */
long bench_peak_rss_kb(void);
/* Print the RESULT line; `extra` may be NULL or "key=value ...". */
void bench_result(const char *task, double wall_s, uint64_t bytes, const char *extra);
/* Size of a file, or -1 (with a message). */
int64_t bench_file_size(const char *path);
/* Read a whole file into malloc'ed memory; NULL on failure (with a message). */
char *bench_read_file(const char *path, size_t *len);
/* A reader with the options the environment asks for (exits on failure). */
struct iprof_reader *bench_reader_new(void);
struct iprof_error;
/* What a report says (iprof_error_get_info): its message and JSON path,
 * "" for a NULL report. */
const char *bench_error_message(const struct iprof_error *e);
const char *bench_error_path(const struct iprof_error *e);
/* Exit with a message. */
void bench_die(const char *fmt, ...);

#endif
