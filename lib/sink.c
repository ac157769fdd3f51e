/* Writer sinks: path (atomic replace), fd, memory, callback. */
#include "sink.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "alloc.h"

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_DIRECTORY
#define O_DIRECTORY 0
#endif

/* strerror_r is the XSI one (int) under _POSIX_C_SOURCE and the GNU one
 * (char *) under _GNU_SOURCE; _Generic picks the matching adapter. */
static const char *strerror_xsi(int rc, char *buf)
{
    return rc == 0 ? buf : "unknown error";
}

static const char *strerror_gnu(char *rc, char *buf)
{
    (void)buf;
    return rc ? rc : "unknown error";
}

const char *ipi_strerror(int errnum, char *buf, size_t size)
{
    if (!buf || !size)
        return "unknown error";
    buf[0] = '\0';
    const char *s = _Generic(strerror_r(errnum, buf, size), char *: strerror_gnu,
                             default: strerror_xsi)(strerror_r(errnum, buf, size), buf);
    return s && *s ? s : "unknown error";
}

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

/* Remove the temporary file of a path sink that did not commit. */
static void discard_tmp(ipi_sink *s)
{
    if (s->fd >= 0) {
        close(s->fd);
        s->fd = -1;
    }
    if (s->tmp_path) {
        if (!s->committed)
            unlink(s->tmp_path);
        ipi_free(s->alloc, s->tmp_path, s->tmp_size);
        s->tmp_path = NULL;
    }
}

int ipi_sink_open(ipi_sink *s, ipi_errbuf *eb)
{
    if (s->kind != IPI_SINK_PATH || s->tmp_path || s->committed)
        return IPROF_OK;
    size_t size = s->path_size + 48; /* ".tmp." pid "." n */
    char *tmp = ipi_malloc(s->alloc, size);
    if (!tmp)
        return ipi_errbuf_set(eb, IPROF_ENOMEM, "out of memory");
    long pid = (long)getpid();
    int fd = -1;
    for (unsigned n = 0;;) {
        snprintf(tmp, size, "%s.tmp.%ld.%u", s->path, pid, n);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0)
            break;
        int e = errno;
        if (e == EINTR)
            continue;
        if (e != EEXIST || ++n >= 10000) {
            ipi_free(s->alloc, tmp, size);
            return io_error(eb, e, "cannot create a temporary file next to", s->path);
        }
    }
    s->fd = fd;
    s->tmp_path = tmp;
    s->tmp_size = size;
    /* Replacing a file keeps its permissions; a new one gets 0666 & ~umask. */
    struct stat st;
    if (stat(s->path, &st) == 0 && S_ISREG(st.st_mode) &&
        fchmod(fd, st.st_mode & 07777) != 0) {
        int e = errno;
        discard_tmp(s);
        return io_error(eb, e, "cannot set the mode of the temporary file for", s->path);
    }
    return IPROF_OK;
}

static int write_fd(int fd, const char *p, size_t len, int *err)
{
    while (len) {
        size_t chunk = len > ((size_t)1 << 30) ? ((size_t)1 << 30) : len;
        ssize_t n = write(fd, p, chunk);
        if (n < 0) {
            if (errno == EINTR)
                continue;
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
            return io_error(eb, err, "cannot write", s->tmp_path);
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

/* The directory part of path ("." for a bare name) into a new string. */
static char *dir_of(const iprof_allocator *a, const char *path, size_t *size)
{
    const char *slash = strrchr(path, '/');
    size_t n;
    if (!slash) {
        path = ".";
        n = 1;
    } else {
        while (slash > path && slash[-1] == '/')
            slash--;
        n = slash == path ? 1 : (size_t)(slash - path);
    }
    char *d = ipi_malloc(a, n + 1);
    if (!d)
        return NULL;
    memcpy(d, path, n);
    d[n] = '\0';
    *size = n + 1;
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
    if (s->sync && fsync(s->fd) != 0) {
        rc = io_error(eb, errno, "cannot sync", s->tmp_path);
        discard_tmp(s);
        return rc;
    }
    int fd = s->fd;
    s->fd = -1;
    if (close(fd) != 0) {
        rc = io_error(eb, errno, "cannot close", s->tmp_path);
        discard_tmp(s);
        return rc;
    }
    if (rename(s->tmp_path, s->path) != 0) {
        rc = io_error(eb, errno, "cannot rename the temporary file to", s->path);
        discard_tmp(s);
        return rc;
    }
    s->committed = 1;
    discard_tmp(s);
    if (!s->sync)
        return IPROF_OK;
    /* Make the rename durable. The file is in place whatever happens here;
     * file systems that cannot sync a directory are not an error. */
    size_t dsize = 0;
    char *dir = dir_of(s->alloc, s->path, &dsize);
    if (!dir)
        return ipi_errbuf_set(eb, IPROF_ENOMEM, "out of memory");
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    rc = IPROF_OK;
    if (dfd >= 0) {
        if (fsync(dfd) != 0 && errno != EINVAL && errno != EROFS && errno != EBADF
#ifdef ENOTSUP
            && errno != ENOTSUP
#endif
        )
            rc = io_error(eb, errno, "cannot sync the directory", dir);
        close(dfd);
    }
    ipi_free(s->alloc, dir, dsize);
    return rc;
}

void ipi_sink_close(ipi_sink *s)
{
    ipi_gzout_free(s->gz);
    s->gz = NULL;
    switch (s->kind) {
    case IPI_SINK_PATH:
        discard_tmp(s);
        ipi_free(s->alloc, s->path, s->path_size);
        s->path = NULL;
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
