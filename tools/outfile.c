/* Output files of the viewer subcommands: see outfile.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <iprof/stream.h>

#include "files.h"
#include "outfile.h"
#include "tool.h"

int outfile_is_stdout(const char *path)
{
    return !path || strcmp(path, "-") == 0;
}

iprof_sink outfile_sink(const char *path)
{
    if (outfile_is_stdout(path)) {
        iprof_sink out = IPROF_SINK_FD_INIT(1);
        return out;
    }
    iprof_sink file = IPROF_SINK_PATH_INIT(path);
    return file;
}

int outfile_shares_stdout(const char *path)
{
    if (outfile_is_stdout(path))
        return 1;
    return files_fd_is(1, path);
}

int outfile_same(const char *a, const char *b)
{
    if (outfile_shares_stdout(a) && outfile_shares_stdout(b))
        return 1;
    if (outfile_is_stdout(a) || outfile_is_stdout(b))
        return 0;
    return strcmp(a, b) == 0 || files_same(a, b);
}

static void fail(const char *cmd, const char *path, const char *what, int err)
{
    fprintf(stderr, "%s: %s: %s%s%s\n", cmd, path, what, err ? ": " : "",
            err ? strerror(err) : "");
}

/* The writer's failure, in the library's words (OUT named once), as for
 * a profile written to OUT (post.c). */
static void fail_writer(const char *cmd, outfile *o, int rc)
{
    const char *msg = error_info(iprof_writer_error(o->w)).message;
    if (!*msg)
        msg = iprof_status_string(rc);
    char buf[4096];
    report_plain(cmd, o->path, "%s", name_once(buf, sizeof buf, msg, o->path));
}

int outfile_check_report(const char *cmd, const char *path)
{
    /* Profiles named *.gz are written compressed (the library's writer);
     * a report there would be text under a compressed name. */
    size_t n = path ? strlen(path) : 0;
    if (n >= 3 && strcmp(path + n - 3, ".gz") == 0) {
        fail(cmd, path, "reports are written as text, not compressed: name OUT without .gz, "
                        "or pipe -o - through gzip", 0);
        return -1;
    }
    return 0;
}

int outfile_open(outfile *o, const char *cmd, const char *path)
{
    memset(o, 0, sizeof *o);
    if (outfile_is_stdout(path)) {
        o->fp = stdout;
        return 0;
    }
    if (outfile_check_report(cmd, path) != 0)
        return -1;
    o->path = path;
    iprof_sink sink = outfile_sink(path);
    int rc = iprof_writer_new(&o->w, &sink, NULL);
    if (rc == IPROF_OK && (rc = iprof_writer_raw(o->w, NULL, 0)) != IPROF_OK) {
        /* Before the report is made: OUT cannot be written. */
        fail_writer(cmd, o, rc);
        outfile_abort(o);
        return -1;
    }
    o->fp = rc == IPROF_OK ? files_scratch() : NULL;
    if (!o->fp) {
        fail(cmd, path, "cannot create the output file", rc == IPROF_OK ? errno : ENOMEM);
        outfile_abort(o);
        return -1;
    }
    return 0;
}

int outfile_commit(outfile *o, const char *cmd)
{
    if (!o->path) /* main() flushes stdout and reports its errors (finish_stdout) */
        return 0;
    int err = 0, rc = IPROF_OK;
    if (fflush(o->fp) != 0 || ferror(o->fp))
        err = errno ? errno : EIO;
    rewind(o->fp);
    char buf[1 << 16];
    size_t n;
    while (!err && rc == IPROF_OK && (n = fread(buf, 1, sizeof buf, o->fp)) > 0)
        rc = iprof_writer_raw(o->w, buf, n);
    if (!err && ferror(o->fp))
        err = errno ? errno : EIO;
    /* What the command printed on standard output goes before a report
     * written there (-o /dev/stdout). */
    fflush(stdout);
    if (!err && rc == IPROF_OK)
        rc = iprof_writer_end(o->w);
    if (err)
        fail(cmd, o->path, "cannot write", err);
    else if (rc != IPROF_OK)
        fail_writer(cmd, o, rc);
    outfile_abort(o);
    return err || rc != IPROF_OK ? -1 : 0;
}

void outfile_abort(outfile *o)
{
    if (o->path && o->fp)
        fclose(o->fp);
    iprof_writer_free(o->w); /* not ended: its temporary file goes */
    memset(o, 0, sizeof *o);
}
