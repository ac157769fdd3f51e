/* What differs between systems, behind one interface: posix.c (Linux,
 * musl, macOS, the BSDs) or win32.c (Windows), with replace_posix.c or
 * replace_win32.c for replacing a file (replace.h); lib/meson.build picks
 * the pair, so the rest of lib/ has no #ifdef for a system. The lowest
 * layer of lib/ (docs/architecture.md); not API, not compiled into the
 * command.
 *
 * Paths are UTF-8; on Windows they reach the system as UTF-16 (the *W and
 * _w* functions), so no code page is involved. Descriptors are the C
 * runtime's (on Windows, those of _open and _fileno), always used in binary
 * mode. Functions that fail return -1 (or say so) with errno set, like the
 * POSIX calls they stand for; no allocation. docs/architecture.md,
 * "Platforms". */
#ifndef IPI_PLATFORM_H
#define IPI_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

/* Paths longer than this (in bytes of UTF-8) are refused with ENAMETOOLONG
 * where a copy is needed (Linux's PATH_MAX). */
#define IPI_FILE_PATH_MAX 4096

/* What a path or a descriptor names. */
enum ipi_kind {
    IPI_KIND_NONE,  /* nothing there (errno says why) */
    IPI_KIND_FILE,  /* a regular file */
    IPI_KIND_DIR,   /* a directory */
    IPI_KIND_CHAR,  /* a character device (a terminal, /dev/null, NUL) */
    IPI_KIND_FIFO,  /* a FIFO or pipe */
    IPI_KIND_BLOCK, /* a block device */
    IPI_KIND_LINK,  /* a symbolic link (ipi_path_kind without following) */
    IPI_KIND_OTHER  /* a socket or other special file */
};

/* Open a file for reading, binary, not inherited by child processes. */
int ipi_open_read(const char *path);
/* Open an existing file or device for writing in place (neither created
 * nor truncated), binary, not inherited. */
int ipi_open_write(const char *path);
/* A copy of fd, numbered 3 or more where the system numbers them so
 * (never standard input, output or error), not inherited. */
int ipi_fd_dup(int fd);
/* 0, or an errno value (the descriptor is closed either way). */
int ipi_fd_close(int fd);
/* Make the descriptor binary (Windows: _setmode _O_BINARY, so that no
 * CRLF translation happens; elsewhere nothing). */
void ipi_fd_binary(int fd);
/* read(), write() and pread() with EINTR retried and counts of any size
 * (Windows' take 32 bits); write may write less than asked. */
ptrdiff_t ipi_fd_read(int fd, void *buf, size_t len);
ptrdiff_t ipi_fd_write(int fd, const void *buf, size_t len);
ptrdiff_t ipi_fd_pread(int fd, void *buf, size_t len, uint64_t offset);
/* Whether writes to fd go to the end of the file (O_APPEND; never on
 * Windows, whose C runtime keeps that flag to itself). */
int ipi_fd_appends(int fd);
/* The size of what fd reads, or -1 (a pipe, a device). */
int64_t ipi_fd_size(int fd);
int ipi_fd_kind(int fd);

/* What path names: following symbolic links, or not (IPI_KIND_LINK).
 * IPI_KIND_NONE with errno set when it cannot be examined. */
int ipi_path_kind(const char *path, int follow);
/* Whether the caller may write to the existing path (access W_OK); 0 or
 * an errno value. */
int ipi_path_writable(const char *path);
/* Where the symbolic link at path points, NUL-terminated in buf: its text
 * (POSIX, relative to the link's directory unless absolute) or the
 * absolute path it finally resolves to (Windows). Its length, or -1 with
 * errno set (ENAMETOOLONG when size is too small). */
ptrdiff_t ipi_path_readlink(const char *path, char *buf, size_t size);
/* Whether path is absolute (POSIX "/x"; Windows "C:\x", "\\srv\x", "/x"). */
int ipi_path_is_absolute(const char *path);
/* The descriptor a path stands for: /dev/stdout, /dev/stderr, /dev/fd/N
 * and /proc/self/fd/N on POSIX systems (writing there means writing to that
 * descriptor at its offset, not reopening the file behind it); none on
 * Windows. -1 when none. */
int ipi_path_descriptor(const char *path);
/* Whether two paths name the same file (device and inode, volume and file
 * index); 0 when either cannot be examined. */
int ipi_path_same(const char *a, const char *b);
/* Whether fd and path name the same file. */
int ipi_fd_same_path(int fd, const char *path);

/* Have the system map the pages inside [p, p + len) now, writable, in one
 * call (Linux's MADV_POPULATE_WRITE), for memory about to be written
 * whole, such as a table's new half: each 4 KiB page then costs no page
 * fault of its own, which on the benchmark VM halves what a first touch
 * costs, 12 us (docs/performance.md, "Pages mapped ahead"). A hint: the
 * contents do not change, errno neither, and where the system cannot (an
 * older kernel, another system) or the range is below IPI_POPULATE_MIN
 * nothing happens. */
#define IPI_POPULATE_MIN ((size_t)16 * 1024)
void ipi_mem_populate(void *p, size_t len);

/* The message of an errno value in buf (strerror_r, strerror_s), or a
 * constant; never NULL. */
const char *ipi_strerror(int errnum, char *buf, size_t size);

#endif /* IPI_PLATFORM_H */
