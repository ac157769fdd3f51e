/* Output of the viewer subcommands (flame, export, diff, coverage):
 * standard output, or a file written atomically (a temporary file in the
 * same directory, synced and renamed over OUT; on failure OUT is untouched
 * and the temporary file removed: lib/platform/replace.h, the library's
 * own way, compiled in). Symlinks are followed to the file they
 * name, which is the one replaced; a character device, a FIFO or one of
 * our descriptors (/dev/stdout, /dev/fd/N) is written in place. */
#ifndef IPROF_TOOL_OUTFILE_H
#define IPROF_TOOL_OUTFILE_H

#include <stdint.h>
#include <stdio.h>

#include "replace.h"

typedef struct outfile {
    FILE *fp;          /* where to write */
    const char *path;  /* OUT, or NULL for standard output */
    char *target;      /* the file OUT's symlinks finally name (malloc'd) */
    ipi_replace rep;   /* the temporary file (rep.fd >= 0 while open) */
    int in_place;      /* a device, FIFO or descriptor: no temporary file */
} outfile;

/* Whether OUT means standard output (NULL or "-"). */
int outfile_is_stdout(const char *path);
/* Whether writing OUT writes where standard output goes: "-", or a path
 * naming the same file (/dev/stdout, /dev/fd/1, the file stdout was
 * redirected to), so that a report meant for stdout goes elsewhere. */
int outfile_shares_stdout(const char *path);
/* Whether two OUTs are one file: both standard output (by any name), the
 * same path, or paths of one existing file. */
int outfile_same(const char *a, const char *b);
/* Whether OUT (NULL: standard output) may take a report: one ending in
 * .gz may not (reports are not compressed). Commands ask before reading
 * their inputs. 0, or -1 after printing "CMD: OUT: message" on stderr. */
int outfile_check_report(const char *cmd, const char *path);
/* Open OUT ("-" or NULL: standard output) for a report; an OUT ending in
 * .gz is refused (reports are not compressed). 0, or -1 after printing
 * "CMD: OUT: message" on stderr. */
int outfile_open(outfile *o, const char *cmd, const char *path);
/* Flush, sync and rename into place. 0, or -1 after printing why (the
 * temporary file is removed). Standard output is left to finish_stdout(). */
int outfile_commit(outfile *o, const char *cmd);
/* Give up: close and remove the temporary file (stdout: nothing). */
void outfile_abort(outfile *o);

#endif /* IPROF_TOOL_OUTFILE_H */
