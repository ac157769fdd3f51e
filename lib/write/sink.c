/* Writer sinks: path (atomic replace), fd, memory, callback. */
#include "sink.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "platform.h"

static int io_error(ipi_errbuf *eb, int errnum, const char *what, const char *path)
{
    char tmp[128];
    const char *why = ipi_strerror(errnum, tmp, sizeof tmp);
    if (path)
        return ipi_errbuf_set(eb, IPROF_EIO, "%s \"%s\": %s", what, path, why);
    return ipi_errbuf_set(eb, IPROF_EIO, "%s: %s", what, why);
}

static void init_common(ipi_sink *s, const iprof_allocator *a, int kind)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->alloc = a;
    s->fd = -1;
    s->rep.fd = -1;
}

int ipi_sink_init_path(ipi_sink *s, const iprof_allocator *a, const char *path, int sync)
{
    init_common(s, a, IPI_SINK_PATH);
    size_t n = strlen(path) + 1;
    s->path = ipi_malloc(a, n);
    if (!s->path)
        return IPROF_ENOMEM;
    memcpy(s->path, path, n);
    s->path_size = n;
    s->sync = sync;
    return IPROF_OK;
}

void ipi_sink_init_fd(ipi_sink *s, const iprof_allocator *a, int fd)
{
    init_common(s, a, IPI_SINK_FD);
    s->fd = fd;
    if (fd >= 0)
        ipi_fd_binary(fd); /* Windows: no CRLF */
}

void ipi_sink_init_mem(ipi_sink *s, const iprof_allocator *a)
{
    init_common(s, a, IPI_SINK_MEM);
}

void ipi_sink_init_callback(ipi_sink *s, const iprof_allocator *a, iprof_write_fn fn,
                            void *payload)
{
    init_common(s, a, IPI_SINK_CALLBACK);
    s->fn = fn;
    s->payload = payload;
}

/* Close what a path sink opened; remove the temporary file if it did not
 * commit. */
static void discard_tmp(ipi_sink *s)
{
    if (s->through && s->fd >= 0)
        ipi_fd_close(s->fd);
    s->fd = -1;
    ipi_replace_abort(&s->rep);
}

static char *dir_of(const iprof_allocator *a, const char *path, size_t *size);

/* Where a symlink at `path` points: its text, relative to the link's
 * directory unless absolute (platform.h). NULL with *err set. */
static char *link_target(const iprof_allocator *a, const char *path, size_t *size, int *err)
{
    char buf[IPI_FILE_PATH_MAX];
    ptrdiff_t n = ipi_path_readlink(path, buf, sizeof buf);
    if (n < 0) {
        *err = errno;
        return NULL;
    }
    size_t dsize = 0;
    int absolute = ipi_path_is_absolute(buf);
    char *dir = absolute ? NULL : dir_of(a, path, &dsize);
    if (!absolute && !dir) {
        *err = ENOMEM;
        return NULL;
    }
    size_t dlen = dir ? strlen(dir) : 0;
    *size = dlen + 1 + (size_t)n + 1;
    char *out = ipi_malloc(a, *size);
    if (out)
        snprintf(out, *size, "%s%s%.*s", dir ? dir : "", dir ? "/" : "", (int)n, buf);
    else
        *err = ENOMEM;
    ipi_free(a, dir, dsize);
    return out;
}

/* Follow the symlinks of s->path into s->target, stopping at a path that
 * names a descriptor (*fd_out >= 0). 0, or an errno value. */
static int resolve_target(ipi_sink *s, int *fd_out)
{
    size_t size = s->path_size;
    char *cur = ipi_malloc(s->alloc, size);
    if (!cur)
        return ENOMEM;
    memcpy(cur, s->path, size);
    int err = 0;
    *fd_out = -1;
    for (int hops = 0;; hops++) {
        if ((*fd_out = ipi_path_descriptor(cur)) >= 0 || ipi_path_kind(cur, 0) != IPI_KIND_LINK)
            break;
        size_t nsize = 0;
        char *next = hops < 40 ? link_target(s->alloc, cur, &nsize, &err) : NULL;
        if (!next) {
            err = err ? err : ELOOP;
            break;
        }
        ipi_free(s->alloc, cur, size);
        cur = next;
        size = nsize;
    }
    if (err) {
        ipi_free(s->alloc, cur, size);
        return err;
    }
    s->target = cur;
    s->target_size = size;
    return 0;
}

/* Open a target that is not replaced but written in place: a descriptor
 * of the process (dup'ed), a character device or a FIFO. */
static int open_through(ipi_sink *s, int fd, ipi_errbuf *eb)
{
    s->fd = fd >= 0 ? ipi_fd_dup(fd) : ipi_open_write(s->target);
    if (s->fd < 0)
        return io_error(eb, errno, "cannot open", s->path);
    s->through = 1;
    return IPROF_OK;
}

/* Decide how the target is written: in place (devices, FIFOs,
 * descriptors: opened here, s->through set), refused (directories, block
 * devices, sockets), or replaced by a temporary file (regular files, and
 * paths that do not exist yet: nothing opened here). */
static int open_target(ipi_sink *s, ipi_errbuf *eb)
{
    int fd, e = resolve_target(s, &fd);
    if (e)
        return e == ENOMEM ? ipi_errbuf_set(eb, IPROF_ENOMEM, "out of memory")
                           : io_error(eb, e, "cannot follow the symbolic links of", s->path);
    if (fd >= 0)
        return open_through(s, fd, eb);
    int kind = ipi_path_kind(s->target, 1);
    if (kind == IPI_KIND_NONE || kind == IPI_KIND_FILE)
        return IPROF_OK;
    if (kind == IPI_KIND_CHAR || kind == IPI_KIND_FIFO)
        return open_through(s, -1, eb);
    return ipi_errbuf_set(eb, IPROF_EIO, "cannot write \"%s\": it is %s, not a file", s->path,
                          kind == IPI_KIND_DIR     ? "a directory"
                          : kind == IPI_KIND_BLOCK ? "a block device"
                                                   : "a socket or other special file");
}

int ipi_sink_open(ipi_sink *s, ipi_errbuf *eb)
{
    if (s->kind != IPI_SINK_PATH || s->rep.fd >= 0 || s->through || s->committed)
        return IPROF_OK;
    int rc = s->target ? IPROF_OK : open_target(s, eb);
    if (rc) { /* resolved again, and refused again, if asked again */
        ipi_free(s->alloc, s->target, s->target_size);
        s->target = NULL;
    }
    if (rc || s->through)
        return rc;
    /* Replacing a file keeps its mode (and owner where permitted); a new
     * one gets 0666 & ~umask (replace.h). */
    const char *what = NULL;
    int e = ipi_replace_open(&s->rep, s->target, &what);
    if (e)
        return io_error(eb, e, what, s->path);
    s->fd = s->rep.fd;
    return IPROF_OK;
}

static int write_fd(int fd, const char *p, size_t len, int *err)
{
    while (len) {
        size_t chunk = len > ((size_t)1 << 30) ? ((size_t)1 << 30) : len;
        ptrdiff_t n = ipi_fd_write(fd, p, chunk);
        if (n < 0) {
            *err = errno;
            return -1;
        }
        if (n == 0) {
            *err = EIO;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int ipi_sink_mem_reserve(ipi_sink *s, size_t need)
{
    if (need <= s->mem_cap)
        return IPROF_OK;
    size_t ncap = s->mem_cap ? s->mem_cap : 4096;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return IPROF_ENOMEM;
        ncap *= 2;
    }
    char *np = s->mem ? ipi_realloc(s->alloc, s->mem, s->mem_cap, ncap)
                      : ipi_malloc(s->alloc, ncap);
    if (!np)
        return IPROF_ENOMEM;
    s->mem = np;
    s->mem_cap = ncap;
    return IPROF_OK;
}

static int raw_write(ipi_sink *s, const void *data, size_t len, ipi_errbuf *eb)
{
    if (!len)
        return IPROF_OK;
    int err = 0;
    switch (s->kind) {
    case IPI_SINK_PATH:
        if (s->fd < 0) {
            int rc = ipi_sink_open(s, eb);
            if (rc)
                return rc;
        }
        if (write_fd(s->fd, data, len, &err))
            return io_error(eb, err, "cannot write", s->path);
        return IPROF_OK;
    case IPI_SINK_FD:
        if (write_fd(s->fd, data, len, &err))
            return io_error(eb, err, "cannot write to the file descriptor", NULL);
        return IPROF_OK;
    case IPI_SINK_MEM:
        if (len > SIZE_MAX - s->mem_len || ipi_sink_mem_reserve(s, s->mem_len + len))
            return ipi_errbuf_set(eb, IPROF_ENOMEM, "out of memory");
        memcpy(s->mem + s->mem_len, data, len);
        s->mem_len += len;
        return IPROF_OK;
    default: {
        int rc = s->fn(data, len, s->payload);
        if (rc)
            return ipi_errbuf_set(eb, IPROF_EIO, "the write callback failed (returned %d)", rc);
        return IPROF_OK;
    }
    }
}

typedef struct gz_ctx {
    ipi_sink *s;
    ipi_errbuf *eb;
} gz_ctx;

static int gz_raw_write(void *ctx, const void *data, size_t len)
{
    gz_ctx *c = ctx;
    return raw_write(c->s, data, len, c->eb);
}

int ipi_sink_write(ipi_sink *s, const void *data, size_t len, ipi_errbuf *eb)
{
    if (!s->gz)
        return raw_write(s, data, len, eb);
    if (!len)
        return IPROF_OK;
    gz_ctx c = {s, eb};
    int rc = ipi_gzout_write(s->gz, data, len, gz_raw_write, &c);
    if (rc && (!eb->set || eb->err.status != rc))
        return ipi_errbuf_set(eb, rc, "gzip compression failed");
    return rc;
}

int ipi_sink_gzip(ipi_sink *s, ipi_errbuf *eb)
{
    if (s->gz)
        return IPROF_OK;
    if (!ipi_gzip_available())
        return ipi_errbuf_set(eb, IPROF_EIO, "%s", IPI_GZIP_UNSUPPORTED_OUT);
    int rc = ipi_gzout_new(&s->gz, s->alloc);
    if (rc)
        return ipi_errbuf_set(eb, rc, "out of memory setting up gzip compression");
    return IPROF_OK;
}

int ipi_sink_path_is_gzip(const char *path)
{
    size_t n = strlen(path);
    return n >= 3 && memcmp(path + n - 3, ".gz", 3) == 0;
}

int ipi_sink_target_is_gzip(ipi_sink *s)
{
    if (s->kind != IPI_SINK_PATH)
        return 0;
    int fd, gz;
    if (s->target || resolve_target(s, &fd) != 0) /* the open will say why */
        return ipi_sink_path_is_gzip(s->target ? s->target : s->path);
    gz = fd < 0 && ipi_sink_path_is_gzip(s->target);
    ipi_free(s->alloc, s->target, s->target_size); /* resolved again by the open */
    s->target = NULL;
    return gz;
}

/* The directory part of path ("." for a bare name) into a new string. */
static char *dir_of(const iprof_allocator *a, const char *path, size_t *size)
{
    *size = strlen(path) + 2;
    char *d = ipi_malloc(a, *size);
    if (d)
        ipi_replace_dir_of(d, path);
    return d;
}

int ipi_sink_commit(ipi_sink *s, ipi_errbuf *eb)
{
    if (s->gz && !s->committed) {
        gz_ctx c = {s, eb};
        int zrc = ipi_gzout_finish(s->gz, gz_raw_write, &c);
        if (zrc && (!eb->set || eb->err.status != zrc))
            return ipi_errbuf_set(eb, zrc, "gzip compression failed");
        if (zrc)
            return zrc;
        ipi_gzout_free(s->gz);
        s->gz = NULL;
    }
    if (s->kind != IPI_SINK_PATH || s->committed)
        return IPROF_OK;
    int rc = ipi_sink_open(s, eb);
    if (rc)
        return rc;
    if (s->through) { /* a device, FIFO or descriptor: nothing to rename */
        int fd = s->fd;
        s->fd = -1;
        s->committed = 1;
        int e = ipi_fd_close(fd);
        return e ? io_error(eb, e, "cannot close", s->path) : IPROF_OK;
    }
    const char *what = NULL;
    s->fd = -1; /* the replacement's: closed by the commit */
    int e = ipi_replace_commit(&s->rep, s->target, s->sync, &what);
    s->committed = s->rep.done; /* in place, though its directory's sync may have failed */
    return e ? io_error(eb, e, what, s->committed ? s->target : s->path) : IPROF_OK;
}

void ipi_sink_close(ipi_sink *s)
{
    ipi_gzout_free(s->gz);
    s->gz = NULL;
    switch (s->kind) {
    case IPI_SINK_PATH:
        discard_tmp(s);
        ipi_free(s->alloc, s->path, s->path_size);
        ipi_free(s->alloc, s->target, s->target_size);
        s->path = s->target = NULL;
        break;
    case IPI_SINK_MEM:
        ipi_free(s->alloc, s->mem, s->mem_cap);
        s->mem = NULL;
        s->mem_len = s->mem_cap = 0;
        break;
    default:
        break;
    }
}
