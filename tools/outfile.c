/* Output files of the viewer subcommands: regular files replaced
 * atomically (through their symlinks), devices, FIFOs and our own
 * descriptors written in place. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"

int outfile_is_stdout(const char *path)
{
    return !path || strcmp(path, "-") == 0;
}

int outfile_shares_stdout(const char *path)
{
    if (outfile_is_stdout(path))
        return 1;
    return ipi_fd_same_path(1, path);
}

int outfile_same(const char *a, const char *b)
{
    if (outfile_shares_stdout(a) && outfile_shares_stdout(b))
        return 1;
    if (outfile_is_stdout(a) || outfile_is_stdout(b))
        return 0;
    return strcmp(a, b) == 0 || ipi_path_same(a, b);
}

static void fail(const char *cmd, const char *path, const char *what, int err)
{
    fprintf(stderr, "%s: %s: %s%s%s\n", cmd, path, what, err ? ": " : "",
            err ? strerror(err) : "");
}

/* Whether a path names one of the process's descriptors (/dev/stdout,
 * /dev/stderr, /dev/fd/N, /proc/self/fd/N; platform.h): writing there
 * means writing to that descriptor at its offset, not reopening (and
 * truncating) the file behind it. The descriptor, or -1. */
static int descriptor_of(const char *path)
{
    return ipi_path_descriptor(path);
}

/* Where the symlink at cur points, relative to its directory unless
 * absolute (malloc'd), or NULL with errno set. */
static char *link_target(const char *cur)
{
    char link[IPI_FILE_PATH_MAX];
    ptrdiff_t n = ipi_path_readlink(cur, link, sizeof link);
    if (n < 0)
        return NULL;
    const char *slash = strrchr(cur, '/');
    size_t dlen = ipi_path_is_absolute(link) || !slash ? 0 : (size_t)(slash - cur) + 1;
    char *next = malloc(dlen + (size_t)n + 1);
    if (next) {
        memcpy(next, cur, dlen);
        memcpy(next + dlen, link, (size_t)n + 1);
    }
    return next;
}

/* Follow the symlinks of path to what they finally name (which may not
 * exist yet), stopping at a descriptor path. malloc'd, or NULL with errno
 * set (ELOOP for a loop). */
static char *final_target(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur; hops++) {
        if (descriptor_of(cur) >= 0 || ipi_path_kind(cur, 0) != IPI_KIND_LINK)
            return cur;
        char *next = hops < 40 ? link_target(cur) : NULL;
        int e = hops < 40 ? errno : ELOOP;
        free(cur);
        cur = next;
        errno = e;
    }
    return NULL;
}

/* Write in place: a descriptor of ours, a character device or a FIFO. */
static int open_in_place(outfile *o, const char *cmd, const char *target)
{
    int fd = descriptor_of(target);
    if (fd == 1) {
        o->fp = stdout;
        o->path = NULL; /* finished like standard output */
        return 0;
    }
    int copy = fd >= 0 ? ipi_fd_dup(fd) : -1;
    /* "w" on a descriptor neither truncates nor, as "a" would, sets O_APPEND
     * on the file description the caller shares: the bytes go at its offset. */
    o->fp = fd >= 0 ? (copy >= 0 ? fdopen(copy, "wb") : NULL) : fopen(target, "wb");
    if (!o->fp) {
        fail(cmd, o->path, "cannot open", errno);
        if (copy >= 0)
            ipi_fd_close(copy);
        return -1;
    }
    o->in_place = 1;
    return 0;
}

int outfile_check_report(const char *cmd, const char *path)
{
    /* Profiles named *.gz are written compressed (the library's writer);
     * a report there would be text under a compressed name. */
    size_t n = path ? strlen(path) : 0;
    if (n >= 3 && strcmp(path + n - 3, ".gz") == 0) {
        fail(cmd, path, "reports are written as text, not compressed: name OUT without .gz, "
                        "or pipe -o - through gzip", 0);
        return -1;
    }
    return 0;
}

int outfile_open(outfile *o, const char *cmd, const char *path)
{
    memset(o, 0, sizeof *o);
    o->rep.fd = -1;
    if (outfile_is_stdout(path)) {
        o->fp = stdout;
        return 0;
    }
    if (outfile_check_report(cmd, path) != 0)
        return -1;
    o->path = path;
    char *target = final_target(path);
    if (!target) {
        fail(cmd, path, "cannot follow its symbolic links", errno);
        return -1;
    }
    int kind = ipi_path_kind(target, 1);
    if (descriptor_of(target) >= 0 || kind == IPI_KIND_CHAR || kind == IPI_KIND_FIFO) {
        int rc = open_in_place(o, cmd, target);
        free(target);
        return rc;
    }
    if (kind != IPI_KIND_NONE && kind != IPI_KIND_FILE) {
        fail(cmd, path, kind == IPI_KIND_DIR ? "is a directory, not a file" : "is not a file", 0);
        free(target);
        return -1;
    }
    o->target = target;
    const char *what = NULL;
    int e = ipi_replace_open(&o->rep, target, &what);
    /* The stream's own descriptor: fclose leaves rep's. */
    int copy = e ? -1 : ipi_fd_dup(o->rep.fd);
    o->fp = copy >= 0 ? fdopen(copy, "wb") : NULL;
    if (!o->fp) {
        if (!e) {
            e = errno;
            if (copy >= 0)
                ipi_fd_close(copy);
        }
        fail(cmd, path, "cannot create the output file", e);
        outfile_abort(o);
        return -1;
    }
    return 0;
}

int outfile_commit(outfile *o, const char *cmd)
{
    if (!o->path) /* main() flushes stdout and reports its errors (finish_stdout) */
        return 0;
    int err = 0;
    const char *what = "cannot write"; /* or the commit's step */
    if (fflush(o->fp) != 0 || ferror(o->fp))
        err = errno ? errno : EIO;
    if (o->fp != stderr && fclose(o->fp) != 0 && !err)
        err = errno ? errno : EIO;
    o->fp = NULL;
    if (!err && !o->in_place)
        err = ipi_replace_commit(&o->rep, o->target, 1, &what);
    if (err)
        fail(cmd, o->path, what, err);
    outfile_abort(o);
    return err ? -1 : 0;
}

void outfile_abort(outfile *o)
{
    if (o->path && o->fp && o->fp != stderr)
        fclose(o->fp);
    if (o->path && !o->in_place)
        ipi_replace_abort(&o->rep);
    free(o->target);
    memset(o, 0, sizeof *o);
    o->rep.fd = -1;
}
