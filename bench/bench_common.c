/* Helpers of the benchmark programs (see bench_common.h). */
#include "bench_common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bench_cpu(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

long bench_peak_rss_kb(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return -1;
    return ru.ru_maxrss;
}

void bench_result(const char *task, double wall_s, uint64_t bytes, const char *extra)
{
    struct rusage ru;
    long faults = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_minflt : -1;
    printf("RESULT task=%s wall_s=%.6f rss_kb=%ld bytes=%llu minflt=%ld%s%s\n", task, wall_s,
           bench_peak_rss_kb(), (unsigned long long)bytes, faults, extra ? " " : "",
           extra ? extra : "");
    fflush(stdout);
}

int64_t bench_file_size(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    return (int64_t)st.st_size;
}

char *bench_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return NULL;
    }
    int64_t size = bench_file_size(path);
    char *buf = size >= 0 ? malloc((size_t)size + 1) : NULL;
    size_t got = buf ? fread(buf, 1, (size_t)size, f) : 0;
    fclose(f);
    if (!buf || got != (size_t)size) {
        fprintf(stderr, "%s: short read\n", path);
        free(buf);
        return NULL;
    }
    buf[got] = 0;
    *len = got;
    return buf;
}

void bench_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}
