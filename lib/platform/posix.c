/* platform.h on POSIX systems: Linux (glibc, musl), macOS, the BSDs. Only
 * POSIX.1-2008 calls (O_CLOEXEC and F_DUPFD_CLOEXEC are in it), and on
 * Linux madvise, which needs _DEFAULT_SOURCE beside the build's
 * _POSIX_C_SOURCE. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE
#endif
#include "platform.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older headers lack the name */
#endif
#endif

/* Counts above this are split: some systems refuse reads of 2 GiB or more
 * (macOS, Linux's own cap is just under it). */
#define CHUNK ((size_t)1 << 30)

int ipi_open_read(const char *path)
{
    int fd;
    do
        fd = open(path, O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    return fd;
}

int ipi_open_write(const char *path)
{
    int fd;
    do
        fd = open(path, O_WRONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    return fd;
}

int ipi_fd_dup(int fd)
{
    return fcntl(fd, F_DUPFD_CLOEXEC, 3);
}

int ipi_fd_close(int fd)
{
    return close(fd) != 0 ? errno : 0;
}

void ipi_fd_binary(int fd)
{
    (void)fd; /* no text mode here */
}

ptrdiff_t ipi_fd_read(int fd, void *buf, size_t len)
{
    ssize_t n;
    do
        n = read(fd, buf, len > CHUNK ? CHUNK : len);
    while (n < 0 && errno == EINTR);
    return n;
}

ptrdiff_t ipi_fd_write(int fd, const void *buf, size_t len)
{
    ssize_t n;
    do
        n = write(fd, buf, len > CHUNK ? CHUNK : len);
    while (n < 0 && errno == EINTR);
    return n;
}

ptrdiff_t ipi_fd_pread(int fd, void *buf, size_t len, uint64_t offset)
{
    ssize_t n;
    do
        n = pread(fd, buf, len > CHUNK ? CHUNK : len, (off_t)offset);
    while (n < 0 && errno == EINTR);
    return n;
}

static int kind_of(const struct stat *st)
{
    return S_ISREG(st->st_mode)    ? IPI_KIND_FILE
           : S_ISDIR(st->st_mode)  ? IPI_KIND_DIR
           : S_ISCHR(st->st_mode)  ? IPI_KIND_CHAR
           : S_ISFIFO(st->st_mode) ? IPI_KIND_FIFO
           : S_ISBLK(st->st_mode)  ? IPI_KIND_BLOCK
           : S_ISLNK(st->st_mode)  ? IPI_KIND_LINK
                                   : IPI_KIND_OTHER;
}

int ipi_fd_appends(int fd)
{
    int flags = fcntl(fd, F_GETFL);
    return flags >= 0 && (flags & O_APPEND);
}

int64_t ipi_fd_size(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? (int64_t)st.st_size : -1;
}

int ipi_fd_kind(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 ? kind_of(&st) : IPI_KIND_NONE;
}

int ipi_path_kind(const char *path, int follow)
{
    struct stat st;
    return (follow ? stat(path, &st) : lstat(path, &st)) == 0 ? kind_of(&st) : IPI_KIND_NONE;
}

int ipi_path_writable(const char *path)
{
    return access(path, W_OK) == 0 ? 0 : errno;
}

ptrdiff_t ipi_path_readlink(const char *path, char *buf, size_t size)
{
    ssize_t n = readlink(path, buf, size);
    if (n >= 0 && (size_t)n >= size) {
        errno = ENAMETOOLONG;
        return -1;
    }
    if (n >= 0)
        buf[n] = '\0';
    return n;
}

int ipi_path_is_absolute(const char *path)
{
    return path[0] == '/';
}

int ipi_path_descriptor(const char *path)
{
    if (strcmp(path, "/dev/stdout") == 0)
        return 1;
    if (strcmp(path, "/dev/stderr") == 0)
        return 2;
    const char *num = strncmp(path, "/dev/fd/", 8) == 0          ? path + 8
                      : strncmp(path, "/proc/self/fd/", 14) == 0 ? path + 14
                                                                 : NULL;
    if (!num || *num < '0' || *num > '9' || strlen(num) > 6)
        return -1;
    int fd = 0;
    for (; *num >= '0' && *num <= '9'; num++)
        fd = fd * 10 + (*num - '0');
    return *num ? -1 : fd;
}

int ipi_path_same(const char *a, const char *b)
{
    struct stat x, y;
    return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

int ipi_fd_same_path(int fd, const char *path)
{
    struct stat x, y;
    return fstat(fd, &x) == 0 && stat(path, &y) == 0 && x.st_dev == y.st_dev &&
           x.st_ino == y.st_ino;
}

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

void ipi_mem_populate(void *p, size_t len)
{
#if defined(__linux__)
    if (len < IPI_POPULATE_MIN)
        return;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        return;
    uintptr_t mask = (uintptr_t)page - 1, from = ((uintptr_t)p + mask) & ~mask,
              to = ((uintptr_t)p + len) & ~mask;
    int saved = errno; /* EINVAL before Linux 5.14: the pages fault in as before */
    if (to > from)
        (void)madvise((void *)from, to - from, MADV_POPULATE_WRITE);
    errno = saved;
#else
    (void)p;
    (void)len;
#endif
}
