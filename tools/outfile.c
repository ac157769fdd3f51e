/* Atomic output files and the progress bar of the viewer subcommands. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "outfile.h"

int outfile_is_stdout(const char *path)
{
    return !path || strcmp(path, "-") == 0;
}

static void fail(const char *cmd, const char *path, const char *what, int err)
{
    fprintf(stderr, "%s: %s: %s%s%s\n", cmd, path, what, err ? ": " : "",
            err ? strerror(err) : "");
}

int outfile_open(outfile *o, const char *cmd, const char *path)
{
    memset(o, 0, sizeof *o);
    if (outfile_is_stdout(path)) {
        o->fp = stdout;
        return 0;
    }
    o->path = path;
    size_t len = strlen(path);
    o->tmp = malloc(len + sizeof ".tmpXXXXXX");
    if (!o->tmp) {
        fail(cmd, path, "out of memory", 0);
        return -1;
    }
    memcpy(o->tmp, path, len);
    memcpy(o->tmp + len, ".tmpXXXXXX", sizeof ".tmpXXXXXX");
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        fail(cmd, path, "cannot create the output file", errno);
        free(o->tmp);
        o->tmp = NULL;
        return -1;
    }
    /* mkstemp makes the file 0600: give it the usual 0666 less umask. */
    mode_t mask = umask(0);
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask);
    o->fp = fdopen(fd, "wb");
    if (!o->fp) {
        fail(cmd, path, "cannot create the output file", errno);
        close(fd);
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        return -1;
    }
    return 0;
}

int outfile_commit(outfile *o, const char *cmd)
{
    if (!o->path) /* main() flushes stdout and reports its errors (finish_stdout) */
        return 0;
    int err = 0;
    if (fflush(o->fp) != 0 || ferror(o->fp))
        err = errno ? errno : EIO;
    else if (fsync(fileno(o->fp)) != 0)
        err = errno;
    if (fclose(o->fp) != 0 && !err)
        err = errno ? errno : EIO;
    o->fp = NULL;
    if (!err && rename(o->tmp, o->path) != 0)
        err = errno;
    if (err) {
        fail(cmd, o->path, "cannot write", err);
        unlink(o->tmp);
    }
    free(o->tmp);
    o->tmp = NULL;
    return err ? -1 : 0;
}

void outfile_abort(outfile *o)
{
    if (o->path && o->fp) {
        fclose(o->fp);
        unlink(o->tmp);
    }
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

/* ---- progress ----------------------------------------------------------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_init(progress *p, const char *cmd)
{
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    p->enabled = isatty(2);
    p->delay = 1.0;
    const char *env = getenv("IPROF_PROGRESS_DELAY_MS");
    if (env && *env)
        p->delay = atof(env) / 1000.0;
    p->start = now();
}

void progress_update(progress *p, const char *what, uint64_t done, uint64_t total)
{
    if (!p || !p->enabled)
        return;
    double t = now();
    if (t - p->start < p->delay || (p->shown && t - p->last < 0.1))
        return;
    p->last = t;
    p->shown = 1;
    if (total) {
        enum { WIDTH = 30 };
        int fill = done >= total ? WIDTH : (int)((double)done / (double)total * WIDTH);
        char bar[WIDTH + 1];
        memset(bar, '#', (size_t)fill);
        memset(bar + fill, '.', (size_t)(WIDTH - fill));
        bar[WIDTH] = '\0';
        fprintf(stderr, "\r\033[K%s: %s [%s] %3d%%", p->cmd, what, bar,
                done >= total ? 100 : (int)((double)done * 100.0 / (double)total));
    } else {
        fprintf(stderr, "\r\033[K%s: %s %llu", p->cmd, what, (unsigned long long)done);
    }
    fflush(stderr);
}

void progress_end(progress *p)
{
    if (p && p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p->shown = 0;
    }
}
