/* Atomic output files of the viewer subcommands. */
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
