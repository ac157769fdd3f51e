/* Replacing a file atomically (replace.h): the steps that are the same on
 * every system, for replace_posix.c and replace_win32.c. Plain libc. */
#include "replace.h"

#include <errno.h>
#include <string.h>

int ipi_replace_fail(ipi_replace *r, const char **what, const char *step, int err)
{
    ipi_replace_abort(r);
    *what = step;
    return err;
}

int ipi_replace_begin(ipi_replace *r, const char *target, const char **what)
{
    r->fd = -1;
    r->anon = r->done = 0;
    r->tmp[0] = '\0';
    if (strlen(target) >= IPI_REPLACE_PATH_MAX)
        return ipi_replace_fail(r, what, "cannot write", ENAMETOOLONG);
    return 0;
}
