/* The progress bar of the long-running subcommands: see progress.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
#include "progress.h"
#include "tool.h"

enum { BAR_WIDTH = 30 };
#define SHOW_AFTER 1.0     /* seconds of work before the bar appears */
#define REDRAW_EVERY 0.1   /* seconds between redraws */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void draw(progress_bar *p, uint64_t done)
{
    if (p->total) {
        uint64_t d = done > p->total ? p->total : done;
        int fill = (int)((double)d / (double)p->total * BAR_WIDTH);
        char bar[BAR_WIDTH + 1];
        memset(bar, '#', (size_t)fill);
        memset(bar + fill, '.', (size_t)(BAR_WIDTH - fill));
        bar[BAR_WIDTH] = '\0';
        fprintf(stderr, "\r\033[K%s [%s] %3d%%", p->label, bar,
                (int)((double)d * 100.0 / (double)p->total));
    } else {
        fprintf(stderr, "\r\033[K%s %llu", p->label, (unsigned long long)done);
    }
    fflush(stderr);
    p->shown = 1;
}

void progress_bar_start(progress_bar *p, const char *label, uint64_t total)
{
    if (!p->started) {
        memset(p, 0, sizeof *p);
        p->started = 1;
        p->enabled = isatty(2);
        p->start = now();
        const char *env = getenv("IPROF_PROGRESS_TEST_DELAY_MS");
        if (env && *env)
            p->test_delay_ms = strtol(env, NULL, 10);
    }
    p->label = label;
    p->total = total;
    p->last = 0;
    progress_bar_update(p, 0);
}

void progress_bar_update(progress_bar *p, uint64_t done)
{
    if (!p || !p->started)
        return;
    if (p->test_delay_ms > 0) {
        struct timespec ts = {p->test_delay_ms / 1000, (p->test_delay_ms % 1000) * 1000000L};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
            ;
    }
    if (!p->enabled)
        return;
    double t = now();
    if (t - p->start < SHOW_AFTER || (p->last > 0 && t - p->last < REDRAW_EVERY))
        return;
    p->last = t;
    draw(p, done);
}

void progress_bar_end(progress_bar *p)
{
    if (p && p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    if (p)
        memset(p, 0, sizeof *p);
}

/* ---- loading a model with a byte count ----------------------------------- */

typedef struct counted_file {
    FILE *f;
    uint64_t done;
    progress_bar *p;
} counted_file;

static int read_counted(void *buf, size_t capacity, size_t *len, void *payload)
{
    counted_file *s = payload;
    size_t n = fread(buf, 1, capacity, s->f);
    if (n == 0 && ferror(s->f))
        return -1;
    *len = n;
    s->done += (uint64_t)n;
    progress_bar_update(s->p, s->done);
    return 0;
}

/* Read FILE through a counted stream into a new model (*out) or, with dst, a
 * streaming merge into dst; the library's own path or fd source when the
 * file cannot be opened or is a directory, so that it reports the failure
 * in its words. */
static int read_counted_file(progress_bar *p, const char *label, iprof_reader *reader,
                             const char *file, iprof_model **out, iprof_model *dst,
                             const iprof_merge_options *opts)
{
    int is_stdin = strcmp(file, "-") == 0;
    FILE *f = is_stdin ? stdin : files_open(file, "rb"); /* stdin: binary (main.c) */
    int64_t size = f ? files_size(f) : -1;
    if (size < 0) {
        if (f && !is_stdin)
            fclose(f);
        iprof_source path = IPROF_SOURCE_PATH_INIT(file);
        if (!dst)
            return iprof_model_load(out, reader, &path);
        return iprof_model_merge_source(dst, reader, &path, opts);
    }
    progress_bar_start(p, label, (uint64_t)size);
    counted_file counted = {f, 0, p};
    iprof_source src = IPROF_SOURCE_CALLBACK_INIT(read_counted, &counted);
    int rc = dst ? iprof_model_merge_source(dst, reader, &src, opts)
                 : iprof_model_load(out, reader, &src);
    if (!is_stdin)
        fclose(f);
    return rc;
}

int progress_load_model(progress_bar *p, const char *label, iprof_model **out,
                        iprof_reader *reader, const char *file)
{
    int rc = read_counted_file(p, label, reader, file, out, NULL, NULL);
    if (rc == IPROF_OK) {
        if (read_result(reader).diag_count)
            progress_bar_end(p);
        report_read_warnings(file, reader);
        return TOOL_EXIT_OK;
    }
    progress_bar_end(p);
    report_load(file, reader, rc);
    return exit_code_of(rc);
}

int progress_merge_model(progress_bar *p, const char *label, iprof_model *dst,
                         iprof_reader *reader, const char *file,
                         const iprof_merge_options *opts, int *read_failed)
{
    int rc = read_counted_file(p, label, reader, file, NULL, dst, opts);
    const iprof_error *err = iprof_reader_error(reader);
    *read_failed = rc != IPROF_OK && err && error_info(err).status == rc;
    if (rc != IPROF_OK || read_result(reader).diag_count)
        progress_bar_end(p);
    if (*read_failed)
        report_load(file, reader, rc);
    else
        report_read_warnings(file, reader);
    return rc;
}
