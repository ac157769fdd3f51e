/* Output of the viewer subcommands (flame, export, diff, coverage, fit):
 * standard output, or a file put in place by the library's path writer
 * (iprof_writer_raw: atomically, through symlinks; a character device, a
 * FIFO or one of our descriptors such as /dev/stdout written in place; on
 * failure OUT is untouched). The report is printed into a scratch stream
 * first (files.h) and handed to the writer at the commit. */
#ifndef IPROF_TOOL_OUTFILE_H
#define IPROF_TOOL_OUTFILE_H

#include <stdint.h>
#include <stdio.h>

#include <iprof/iprof.h>

typedef struct outfile {
    FILE *fp;          /* where to print: stdout, or the scratch stream */
    const char *path;  /* OUT, or NULL for standard output */
    iprof_writer *w;   /* OUT's path writer, its temporary file open */
} outfile;

/* Whether OUT means standard output (NULL or "-"). */
int outfile_is_stdout(const char *path);
/* Where a writer puts OUT: standard output's descriptor when OUT means it,
 * else OUT's path (borrowed: OUT must outlive the sink). */
iprof_sink outfile_sink(const char *path);
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
/* Hand the report to the writer, which syncs and renames it into place.
 * 0, or -1 after printing why (the temporary file is removed). Standard
 * output is left to finish_stdout(). */
int outfile_commit(outfile *o, const char *cmd);
/* Give up: close and remove the temporary file (stdout: nothing). */
void outfile_abort(outfile *o);

#endif /* IPROF_TOOL_OUTFILE_H */
