/* Replacing a file atomically on Windows (replace.h): a temporary file
 * beside the target, put in its place by ReplaceFileW, which keeps the
 * replaced file's attributes and security descriptor (the counterpart of
 * the POSIX mode and owner), or by MoveFileExW (MOVEFILE_REPLACE_EXISTING,
 * MOVEFILE_WRITE_THROUGH) for a new target or where ReplaceFileW fails and
 * leaves both files as they were. Windows has no O_TMPFILE: the temporary
 * file always has a name, ".iprof-PID-N.tmp". A read-only target is
 * refused, as a plain open for writing would. */
#include "replace.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <process.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <windows.h>

#include "platform.h"
#include "win32.h"

void ipi_replace_dir_of(char *dir, const char *path)
{
    const char *slash = NULL;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\')
            slash = p;
    size_t n;
    if (!slash) {
        /* "C:x" is relative to drive C's current directory. */
        int drive = path[0] && path[1] == ':';
        path = drive ? path : ".";
        n = drive ? 2 : 1;
    } else {
        while (slash > path && (slash[-1] == '/' || slash[-1] == '\\'))
            slash--;
        n = slash == path ? 1 : (size_t)(slash - path);
        if (n == 2 && path[1] == ':') /* "C:\x": the root of C:, not C:'s current directory */
            n = 3;
    }
    memcpy(dir, path, n);
    dir[n] = '\0';
}

int ipi_replace_open(ipi_replace *r, const char *target, const char **what)
{
    int err = ipi_replace_begin(r, target, what);
    if (err)
        return err;
    char dir[IPI_REPLACE_PATH_MAX];
    int exists = ipi_path_kind(target, 1) != IPI_KIND_NONE;
    int e = exists ? ipi_path_writable(target) : 0;
    if (e)
        return ipi_replace_fail(r, what, "cannot write", e);
    ipi_replace_dir_of(dir, target);
    for (unsigned n = 0; r->fd < 0; n++) {
        int len = snprintf(r->tmp, sizeof r->tmp, "%s/.iprof-%ld-%u.tmp", dir,
                           (long)_getpid(), n);
        wchar_t w[IPI_WPATH_MAX];
        if (len < 0 || (size_t)len >= sizeof r->tmp)
            e = ENAMETOOLONG;
        else if (ipi_win_path(r->tmp, w, IPI_WPATH_MAX))
            e = errno;
        else if ((r->fd = _wopen(w, _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY | _O_NOINHERIT,
                                 _S_IREAD | _S_IWRITE)) < 0)
            e = errno != EEXIST || n >= 10000 ? errno : 0;
        if (e) {
            r->tmp[0] = '\0';
            return ipi_replace_fail(r, what, "cannot create a temporary file next to", e);
        }
    }
    return 0;
}

int ipi_replace_commit(ipi_replace *r, const char *target, int sync, const char **what)
{
    /* _commit: FlushFileBuffers, the file's data and metadata on disk. */
    if (sync && _commit(r->fd) != 0)
        return ipi_replace_fail(r, what, "cannot sync", errno);
    int fd = r->fd;
    r->fd = -1;
    if (_close(fd) != 0)
        return ipi_replace_fail(r, what, "cannot close", errno);
    wchar_t to[IPI_WPATH_MAX], from[IPI_WPATH_MAX];
    if (ipi_win_path(target, to, IPI_WPATH_MAX) || ipi_win_path(r->tmp, from, IPI_WPATH_MAX))
        return ipi_replace_fail(r, what, "cannot rename the temporary file to", errno);
    DWORD attr = GetFileAttributesW(to);
    int replaced = attr != INVALID_FILE_ATTRIBUTES &&
                   ReplaceFileW(to, from, NULL, REPLACEFILE_IGNORE_MERGE_ERRORS, NULL, NULL);
    if (!replaced && !MoveFileExW(from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        return ipi_replace_fail(r, what, "cannot rename the temporary file to",
                    ipi_win_errno(GetLastError()));
    r->tmp[0] = '\0';
    r->done = 1;
    return 0; /* no directory to sync: the rename was written through */
}

void ipi_replace_abort(ipi_replace *r)
{
    if (r->fd >= 0)
        _close(r->fd);
    r->fd = -1;
    r->anon = 0;
    wchar_t w[IPI_WPATH_MAX];
    if (r->tmp[0] && ipi_win_path(r->tmp, w, IPI_WPATH_MAX) == 0)
        _wunlink(w);
    r->tmp[0] = '\0';
}
