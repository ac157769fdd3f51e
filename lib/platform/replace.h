/* Replacing a file atomically: a temporary file beside it, renamed over it
 * once complete. Used by the writer's path sink (and so by the reports of
 * `iprof`, which go through it: iprof_writer_raw). Part of the platform layer
 * (platform.h): replace_posix.c, described here, and replace_win32.c,
 * which says how Windows differs, with replace.c for what both share. Plain libc; no allocation.
 *
 * The temporary file has no name while it is written where the system
 * allows (Linux's O_TMPFILE, linked in at the commit), so a process killed
 * mid-write leaves nothing behind; elsewhere it is ".iprof-PID-N.tmp" in
 * the target's directory (short, whatever the target's name). A target
 * that exists must be writable by the caller, as for a plain open(); its
 * mode and, where permitted, owner and group pass to the new file, which
 * is created readable by its owner only until then. */
#ifndef IPI_REPLACE_H
#define IPI_REPLACE_H

#include <stddef.h>

#include "platform.h"

#define IPI_REPLACE_PATH_MAX IPI_FILE_PATH_MAX

typedef struct ipi_replace {
    int fd;   /* the temporary file, -1 when none */
    int anon; /* not linked yet (O_TMPFILE) */
    int done; /* renamed into place */
    char tmp[IPI_REPLACE_PATH_MAX + 64]; /* its name once it has one, else "" */
} ipi_replace;

/* Create the temporary file for @p target (symlinks already followed; it
 * need not exist). 0, or an errno value with *what saying which step
 * failed ("cannot create a temporary file next to", ...), nothing left. */
int ipi_replace_open(ipi_replace *r, const char *target, const char **what);

/* Put the written temporary file in place of @p target (with @p sync:
 * fsync'ed, and the directory after the rename). Closes it either way. 0,
 * or an errno value with *what set; the target is then as it was, unless
 * only the directory's sync failed (r->done says the file is in place). */
int ipi_replace_commit(ipi_replace *r, const char *target, int sync, const char **what);

/* The directory part of @p path ("." for a bare name, "/" for "/x") into
 * @p dir, which holds at least strlen(path) + 2 bytes. */
void ipi_replace_dir_of(char *dir, const char *path);

/* Give up: close and remove the temporary file. Idempotent. */
void ipi_replace_abort(ipi_replace *r);

/* For the systems' files (replace.c). Give up (ipi_replace_abort), set
 * *what to @p step and return @p err. */
int ipi_replace_fail(ipi_replace *r, const char **what, const char *step, int err);

/* The start of ipi_replace_open: no temporary file yet; 0, or
 * ENAMETOOLONG (via ipi_replace_fail) for a @p target too long for
 * IPI_REPLACE_PATH_MAX. */
int ipi_replace_begin(ipi_replace *r, const char *target, const char **what);

#endif /* IPI_REPLACE_H */
