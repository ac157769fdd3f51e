/* platform.h on Windows (mingw-w64; the C runtime is msvcrt or UCRT).
 * Paths arrive as UTF-8 and reach the system as UTF-16 through the _w*
 * and *W functions; descriptors are the C runtime's, always binary and
 * not inherited by child processes. */
#include "platform.h"
#include "win32.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <windows.h>

/* _read and _write take 32-bit counts. */
#define CHUNK ((unsigned)1 << 30)

int ipi_win_errno(unsigned long error)
{
    switch (error) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH:
    case ERROR_BAD_NET_NAME: return ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_WRITE_PROTECT:
    case ERROR_PRIVILEGE_NOT_HELD: return EACCES;
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
    case ERROR_UNABLE_TO_REMOVE_REPLACED:
    case ERROR_UNABLE_TO_MOVE_REPLACEMENT:
    case ERROR_UNABLE_TO_MOVE_REPLACEMENT_2: return EBUSY;
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS: return EEXIST;
    case ERROR_NOT_SAME_DEVICE: return EXDEV;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL: return ENOSPC;
    case ERROR_FILENAME_EXCED_RANGE:
    case ERROR_BUFFER_OVERFLOW: return ENAMETOOLONG;
    case ERROR_DIRECTORY: return ENOTDIR;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY: return ENOMEM;
    case ERROR_CANT_RESOLVE_FILENAME: return ELOOP;
    case ERROR_NOT_SUPPORTED:
    case ERROR_INVALID_FUNCTION: return ENOSYS;
    default: return EIO;
    }
}

int ipi_win_path(const char *path, wchar_t *out, size_t room)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, out, (int)room);
    if (n > 0)
        return 0;
    errno = GetLastError() == ERROR_INSUFFICIENT_BUFFER ? ENAMETOOLONG : EILSEQ;
    return -1;
}

int ipi_win_utf8(const wchar_t *path, char *out, size_t room)
{
    int n = WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, path, -1, out, (int)room, NULL,
                                NULL);
    if (n > 0)
        return 0;
    errno = GetLastError() == ERROR_INSUFFICIENT_BUFFER ? ENAMETOOLONG : EILSEQ;
    return -1;
}

static int open_w(const char *path, int flags)
{
    wchar_t w[IPI_WPATH_MAX];
    if (ipi_win_path(path, w, IPI_WPATH_MAX))
        return -1;
    return _wopen(w, flags | _O_BINARY | _O_NOINHERIT);
}

int ipi_open_read(const char *path)
{
    return open_w(path, _O_RDONLY);
}

int ipi_open_write(const char *path)
{
    return open_w(path, _O_WRONLY);
}

int ipi_fd_dup(int fd)
{
    int copy = _dup(fd);
    if (copy < 0)
        return -1;
    /* Not inherited, like the POSIX F_DUPFD_CLOEXEC. */
    HANDLE h = (HANDLE)_get_osfhandle(copy);
    if (h != INVALID_HANDLE_VALUE)
        SetHandleInformation(h, HANDLE_FLAG_INHERIT, 0);
    _setmode(copy, _O_BINARY);
    return copy;
}

int ipi_fd_close(int fd)
{
    return _close(fd) != 0 ? errno : 0;
}

void ipi_fd_binary(int fd)
{
    _setmode(fd, _O_BINARY);
}

ptrdiff_t ipi_fd_read(int fd, void *buf, size_t len)
{
    return _read(fd, buf, len > CHUNK ? CHUNK : (unsigned)len);
}

ptrdiff_t ipi_fd_write(int fd, const void *buf, size_t len)
{
    return _write(fd, buf, len > CHUNK ? CHUNK : (unsigned)len);
}

ptrdiff_t ipi_fd_pread(int fd, void *buf, size_t len, uint64_t offset)
{
    /* ReadFile at an offset: the descriptor's own offset is not used and,
     * for a synchronous handle, is left after the bytes read; callers of
     * pread on Windows (the command's sniffing of gzip's magic) read files
     * they then open again or read from the start. */
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    if (h == INVALID_HANDLE_VALUE) {
        errno = EBADF;
        return -1;
    }
    OVERLAPPED at;
    memset(&at, 0, sizeof at);
    at.Offset = (DWORD)offset;
    at.OffsetHigh = (DWORD)(offset >> 32);
    DWORD got = 0;
    if (!ReadFile(h, buf, len > CHUNK ? CHUNK : (DWORD)len, &got, &at)) {
        DWORD e = GetLastError();
        if (e == ERROR_HANDLE_EOF)
            return 0;
        errno = ipi_win_errno(e);
        return -1;
    }
    return (ptrdiff_t)got;
}

static int kind_of_mode(unsigned mode)
{
    return (mode & _S_IFMT) == _S_IFREG    ? IPI_KIND_FILE
           : (mode & _S_IFMT) == _S_IFDIR  ? IPI_KIND_DIR
           : (mode & _S_IFMT) == _S_IFCHR  ? IPI_KIND_CHAR
           : (mode & _S_IFMT) == _S_IFIFO  ? IPI_KIND_FIFO
                                           : IPI_KIND_OTHER;
}

int ipi_fd_appends(int fd)
{
    (void)fd;
    return 0;
}

int64_t ipi_fd_size(int fd)
{
    struct _stat64 st;
    return _fstat64(fd, &st) == 0 && (st.st_mode & _S_IFMT) == _S_IFREG ? (int64_t)st.st_size
                                                                         : -1;
}

int ipi_fd_kind(int fd)
{
    struct _stat64 st;
    return _fstat64(fd, &st) == 0 ? kind_of_mode(st.st_mode) : IPI_KIND_NONE;
}

/* A symbolic link (or junction) itself, not what it names. */
static int is_link(const wchar_t *w)
{
    DWORD attr = GetFileAttributesW(w);
    return attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_REPARSE_POINT);
}

int ipi_path_kind(const char *path, int follow)
{
    wchar_t w[IPI_WPATH_MAX];
    if (ipi_win_path(path, w, IPI_WPATH_MAX))
        return IPI_KIND_NONE;
    if (!follow && is_link(w))
        return IPI_KIND_LINK;
    struct _stat64 st;
    return _wstat64(w, &st) == 0 ? kind_of_mode(st.st_mode) : IPI_KIND_NONE;
}

int ipi_path_writable(const char *path)
{
    wchar_t w[IPI_WPATH_MAX];
    if (ipi_win_path(path, w, IPI_WPATH_MAX))
        return errno;
    return _waccess(w, 2) == 0 ? 0 : errno; /* 2: W_OK, a read-only attribute */
}

/* Open what path names, following links; INVALID_HANDLE_VALUE with
 * errno set. Directories too (FILE_FLAG_BACKUP_SEMANTICS). */
static HANDLE open_handle(const char *path)
{
    wchar_t w[IPI_WPATH_MAX];
    if (ipi_win_path(path, w, IPI_WPATH_MAX))
        return INVALID_HANDLE_VALUE;
    HANDLE h = CreateFileW(w, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
    if (h == INVALID_HANDLE_VALUE)
        errno = ipi_win_errno(GetLastError());
    return h;
}

ptrdiff_t ipi_path_readlink(const char *path, char *buf, size_t size)
{
    /* The system resolves the whole chain: the final path of a handle
     * opened through the link ("\\?\C:\dir\file", the prefix dropped). A
     * link to nothing cannot be opened, so it is an error here (POSIX
     * systems create its target). */
    HANDLE h = open_handle(path);
    if (h == INVALID_HANDLE_VALUE)
        return -1;
    wchar_t w[IPI_WPATH_MAX];
    DWORD n = GetFinalPathNameByHandleW(h, w, IPI_WPATH_MAX, FILE_NAME_NORMALIZED);
    DWORD e = GetLastError();
    CloseHandle(h);
    if (n == 0 || n >= IPI_WPATH_MAX) {
        errno = n ? ENAMETOOLONG : ipi_win_errno(e);
        return -1;
    }
    const wchar_t *p = w;
    if (wcsncmp(p, L"\\\\?\\UNC\\", 8) == 0) {
        p += 6; /* "\\?\UNC\srv\x" -> "\\srv\x" */
        w[6] = L'\\';
    } else if (wcsncmp(p, L"\\\\?\\", 4) == 0) {
        p += 4;
    }
    if (ipi_win_utf8(p, buf, size))
        return -1;
    return (ptrdiff_t)strlen(buf);
}

int ipi_path_is_absolute(const char *path)
{
    if (path[0] == '/' || path[0] == '\\')
        return 1;
    return ((path[0] >= 'A' && path[0] <= 'Z') || (path[0] >= 'a' && path[0] <= 'z')) &&
           path[1] == ':' && (path[2] == '\\' || path[2] == '/');
}

int ipi_path_descriptor(const char *path)
{
    (void)path; /* no /dev/fd on Windows */
    return -1;
}

/* Volume serial number and file index: Windows' device and inode. */
static int same_handle(HANDLE a, HANDLE b)
{
    BY_HANDLE_FILE_INFORMATION x, y;
    return GetFileInformationByHandle(a, &x) && GetFileInformationByHandle(b, &y) &&
           x.dwVolumeSerialNumber == y.dwVolumeSerialNumber &&
           x.nFileIndexHigh == y.nFileIndexHigh && x.nFileIndexLow == y.nFileIndexLow;
}

int ipi_path_same(const char *a, const char *b)
{
    HANDLE x = open_handle(a);
    if (x == INVALID_HANDLE_VALUE)
        return 0;
    HANDLE y = open_handle(b);
    int same = y != INVALID_HANDLE_VALUE && same_handle(x, y);
    if (y != INVALID_HANDLE_VALUE)
        CloseHandle(y);
    CloseHandle(x);
    return same;
}

int ipi_fd_same_path(int fd, const char *path)
{
    HANDLE x = (HANDLE)_get_osfhandle(fd);
    if (x == INVALID_HANDLE_VALUE || GetFileType(x) != FILE_TYPE_DISK)
        return 0;
    HANDLE y = open_handle(path);
    int same = y != INVALID_HANDLE_VALUE && same_handle(x, y);
    if (y != INVALID_HANDLE_VALUE)
        CloseHandle(y);
    return same;
}

const char *ipi_strerror(int errnum, char *buf, size_t size)
{
    if (!buf || !size)
        return "unknown error";
    buf[0] = '\0';
    return strerror_s(buf, size, errnum) == 0 && buf[0] ? buf : "unknown error";
}

void ipi_mem_populate(void *p, size_t len)
{
    /* Windows commits pages on first touch too, but has no call that maps
     * a range of committed memory in one go short of touching it. */
    (void)p;
    (void)len;
}
