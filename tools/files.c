/* The command's own calls to the system: see files.h. */
#include "files.h"

#include <stdlib.h>
#include <sys/stat.h>

#ifdef _WIN32
#include <io.h>
#include <windows.h>

/* path as UTF-16, malloc'd; NULL when it is not UTF-8 or memory fails. */
static wchar_t *wide(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
    wchar_t *w = n > 0 ? malloc((size_t)n * sizeof *w) : NULL;
    if (w && !MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n)) {
        free(w);
        w = NULL;
    }
    return w;
}

FILE *files_open(const char *path, const char *mode)
{
    wchar_t *wp = wide(path), *wm = wide(mode);
    FILE *f = wp && wm ? _wfopen(wp, wm) : NULL;
    free(wp);
    free(wm);
    return f;
}

int64_t files_size(FILE *f)
{
    struct _stat64 st;
    if (_fstat64(_fileno(f), &st) != 0)
        return 0;
    if ((st.st_mode & _S_IFMT) == _S_IFDIR)
        return -1;
    return (st.st_mode & _S_IFMT) == _S_IFREG ? (int64_t)st.st_size : 0;
}

int64_t files_fd_size(int fd)
{
    struct _stat64 st;
    if (_fstat64(fd, &st) != 0 || (st.st_mode & _S_IFMT) != _S_IFREG)
        return -1;
    return (int64_t)st.st_size;
}

int64_t files_fd_peek(int fd, void *buf, size_t n)
{
    __int64 at = _lseeki64(fd, 0, SEEK_CUR);
    if (at < 0 || _lseeki64(fd, 0, SEEK_SET) != 0)
        return -1;
    int got = _read(fd, buf, (unsigned)n);
    _lseeki64(fd, at, SEEK_SET);
    return got;
}

int files_fd_appends(int fd)
{
    (void)fd;
    return 0;
}

int files_same(const char *a, const char *b)
{
    (void)a;
    (void)b;
    return 0;
}

int files_fd_is(int fd, const char *path)
{
    (void)fd;
    (void)path;
    return 0;
}

FILE *files_scratch(void)
{
    wchar_t dir[MAX_PATH + 1], name[MAX_PATH + 1];
    DWORD n = GetTempPathW(MAX_PATH + 1, dir);
    if (!n || n > MAX_PATH || !GetTempFileNameW(dir, L"ipr", 0, name))
        return NULL;
    /* T: kept in memory where it fits; D: deleted when closed. */
    return _wfopen(name, L"w+bTD");
}

#else
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

FILE *files_open(const char *path, const char *mode)
{
    return fopen(path, mode);
}

int64_t files_size(FILE *f)
{
    struct stat st;
    if (fstat(fileno(f), &st) != 0)
        return 0;
    if (S_ISDIR(st.st_mode))
        return -1;
    return S_ISREG(st.st_mode) ? (int64_t)st.st_size : 0;
}

int64_t files_fd_size(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    return (int64_t)st.st_size;
}

int64_t files_fd_peek(int fd, void *buf, size_t n)
{
    ssize_t got;
    do
        got = pread(fd, buf, n, 0);
    while (got < 0 && errno == EINTR);
    return got;
}

int files_fd_appends(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl >= 0 && (fl & O_APPEND);
}

int files_same(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

int files_fd_is(int fd, const char *path)
{
    struct stat sf, sp;
    return fstat(fd, &sf) == 0 && stat(path, &sp) == 0 && sf.st_dev == sp.st_dev &&
           sf.st_ino == sp.st_ino;
}

FILE *files_scratch(void)
{
    return tmpfile();
}

#endif
