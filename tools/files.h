/* The command's own few calls to the system, where the library's public
 * API has nothing to offer: opening an input by a UTF-8 name (Windows
 * takes UTF-16), whether two names are one file, and a scratch stream for
 * a report before the library's path writer puts it in place
 * (outfile.c); sizes and the first bytes of inputs and of standard output
 * (filter and repair compare sizes). Everything else about files
 * (replacing one atomically, following symlinks, devices and /dev/fd/N)
 * is the library's (iprof_writer_new with an IPROF_SINK_PATH sink,
 * iprof_writer_raw). */
#ifndef IPROF_TOOL_FILES_H
#define IPROF_TOOL_FILES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* fopen with a UTF-8 path on every system. */
FILE *files_open(const char *path, const char *mode);

/* What an open stream reads: its size for a regular file, -1 for a
 * directory (which the caller leaves to the library to refuse), 0 when
 * unknown (a pipe, a device). */
int64_t files_size(FILE *f);

/* The size of the regular file descriptor fd reads, else -1 (a pipe, a
 * device, a directory). */
int64_t files_fd_size(int fd);

/* Read up to n bytes at offset 0 of fd without moving its offset (which
 * standard input may share): the count, or -1. */
int64_t files_fd_peek(int fd, void *buf, size_t n);

/* Whether writes to fd go to the end of the file (O_APPEND; never on
 * Windows, whose C runtime keeps that flag to itself). */
int files_fd_appends(int fd);

/* Whether the paths name one existing file, or the path names the file of
 * descriptor fd (device and inode; POSIX only: on Windows, where stat has
 * no inode, 0). */
int files_same(const char *a, const char *b);
int files_fd_is(int fd, const char *path);

/* A stream to write scratch bytes to and read them back (rewind), removed
 * when closed: tmpfile(), or on Windows a file of the user's temporary
 * directory (tmpfile() there writes to the root of the drive). */
FILE *files_scratch(void);

#endif /* IPROF_TOOL_FILES_H */
