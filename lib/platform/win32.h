/* What win32.c and replace_win32.c share: UTF-8 <-> UTF-16 paths and
 * Windows error codes as errno values. Windows only. */
#ifndef IPI_WIN32_H
#define IPI_WIN32_H

#include <stddef.h>
#include <wchar.h>

#include "platform.h"

/* UTF-16 units of a path (with its NUL) that fit the buffers here. */
#define IPI_WPATH_MAX (IPI_FILE_PATH_MAX + 64)

/* path (UTF-8) into out as UTF-16. 0, or -1 with errno EILSEQ (not UTF-8)
 * or ENAMETOOLONG. */
int ipi_win_path(const char *path, wchar_t *out, size_t room);
/* The reverse. */
int ipi_win_utf8(const wchar_t *path, char *out, size_t room);
/* GetLastError() values as errno values (EIO for the rest). */
int ipi_win_errno(unsigned long error);

#endif
