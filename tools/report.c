/* Messages and exit codes shared by the subcommands, and opening the
 * inputs the user names ("-" is standard input). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

const char *display_name(const char *file)
{
    return strcmp(file, "-") == 0 ? "<stdin>" : file;
}

iprof_source input_source(const char *file)
{
    if (strcmp(file, "-") == 0) {
        iprof_source in = IPROF_SOURCE_FD_INIT(0);
        return in;
    }
    iprof_source path = IPROF_SOURCE_PATH_INIT(file);
    return path;
}

iprof_error_info error_info(const iprof_error *err)
{
    iprof_error_info info = IPROF_ERROR_INFO_INIT;
    iprof_error_get_info(err, &info); /* cannot fail: the version is the headers' */
    return info;
}

iprof_read_result read_result(const iprof_reader *reader)
{
    iprof_read_result r = IPROF_READ_RESULT_INIT;
    iprof_reader_get_result(reader, &r); /* cannot fail: a reader and the headers' version */
    return r;
}

char *no_nul(char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] == '\0')
            s[i] = '?';
    return s;
}

void put_text(FILE *out, const char *s)
{
    for (; *s; s++)
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
}

/* A word a shell reads back as @p s: as it is when it holds only
 * characters no shell treats specially, else in single quotes. */
static void put_shell_word(FILE *out, const char *s)
{
    if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                        "@%+=:,./_-") == strlen(s)) {
        fputs(s, out);
        return;
    }
    fputc('\'', out);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", out);
        else
            fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
    }
    fputc('\'', out);
}

char *method_label(const iprof_model *model, int64_t id)
{
    const iprof_method *m = iprof_model_method_by_id(model, id);
    char probe[64];
    size_t len = m ? iprof_model_method_describe(model, m, probe, sizeof probe)
                   : (size_t)snprintf(probe, sizeof probe, "?%" PRId64, id);
    char *buf = malloc(len + 1);
    if (!buf)
        return NULL;
    if (len < sizeof probe)
        memcpy(buf, probe, len + 1);
    else
        iprof_model_method_describe(model, m, buf, len + 1);
    return no_nul(buf, len);
}

/* Where name is mentioned in msg as lcov.h says, or NULL; *len gets the
 * length of the mention with its quotes and the space before it. */
static const char *mention(const char *msg, const char *name, size_t *len)
{
    size_t n = strlen(name);
    for (const char *p = n ? strstr(msg, name) : NULL; p; p = strstr(p + 1, name)) {
        int quoted = p - msg >= 2 && p[-1] == '"' && p[n] == '"';
        const char *start = p - 1 - quoted, *end = p + n + quoted;
        if (start > msg && *start == ' ' && (*end == ':' || !*end)) {
            *len = (size_t)(end - start);
            return start;
        }
    }
    return NULL;
}

const char *name_once(char *buf, size_t cap, const char *msg, const char *name)
{
    size_t len;
    const char *at = mention(msg, name, &len);
    if (!at)
        return msg;
    /* "next to x": a preposition needs its object */
    int to = at - msg >= 2 && memcmp(at - 2, "to", 2) == 0 && (at - msg == 2 || at[-3] == ' ');
    int n = snprintf(buf, cap, "%.*s%s%s", (int)(at - msg), msg, to ? " it" : "", at + len);
    return n >= 0 && (size_t)n < cap ? buf : msg;
}

void report_error(const char *file, const iprof_error *err)
{
    iprof_error_info e = error_info(err);
    const char *path = e.path;
    const char *msg = e.message;
    if (!*msg)
        msg = iprof_status_string(e.status);
    const char *warning = e.severity == IPROF_SEVERITY_WARNING ? "warning: " : "";
    char buf[4096];
    if (e.line == 0) /* no position: a file that cannot be opened or read */
        fprintf(stderr, "%s: %s%s%s%s\n", display_name(file), path, *path ? ": " : "", warning,
                name_once(buf, sizeof buf, msg, display_name(file)));
    else
        fprintf(stderr, "%s:%" PRIu64 ":%" PRIu64 ": %s: %s%s\n", display_name(file),
                e.line, e.column, *path ? path : "-", warning, msg);
}

/* A warning about an element is about keys iprof does not read: the
 * reader's only warning with an element's path ("types[3]"). */
static int is_unread_warning(const iprof_error *d)
{
    iprof_error_info e = error_info(d);
    return e.severity == IPROF_SEVERITY_WARNING && strchr(e.path, '[');
}

void report_read(const char *file, const iprof_reader *reader, int status)
{
    report_read_listing(file, reader, status, 0);
}

void report_read_listing(const char *file, const iprof_reader *reader, int status,
                         int list_unread)
{
    size_t n = read_result(reader).diag_count;
    for (size_t i = 0; i < n; i++) {
        const iprof_error *d = iprof_reader_diag(reader, i);
        if (list_unread || !is_unread_warning(d))
            report_error(file, d);
    }
    if (!list_unread)
        report_unread(file, reader);
    if (status == IPROF_OK)
        return;
    const iprof_error *err = iprof_reader_error(reader);
    if (err)
        report_error(file, err);
    else /* every failed read sets an error; this is a fallback */
        fprintf(stderr, "%s: %s\n", display_name(file), iprof_status_string(status));
}

void report_load(const char *file, const iprof_reader *reader, int status)
{
    report_read(file, reader, status);
    report_repair_hint(file, reader, status);
}

void report_repair_hint(const char *file, const iprof_reader *reader, int status)
{
    /* Malformed or cut short past its start (a killed instrumented run
     * leaves such files): what comes before the damage can be saved. */
    const iprof_error *err = iprof_reader_error(reader);
    iprof_error_info e = error_info(err); /* NULL: "" path */
    const char *path = e.path;
    if (status == IPROF_ESYNTAX && err && e.offset > 0 && *path &&
        strcmp(path, "version") != 0) { /* cut before the version: nothing to save */
        fprintf(stderr, "%s: damaged or cut short; to save what comes before the damage: "
                        "iprof repair ", display_name(file));
        put_shell_word(stderr, file);
        fputs(" -o OUT\n", stderr);
    }
}

void count_diagnostics(const iprof_reader *reader, size_t *errors, size_t *warnings)
{
    /* Past the reader's cap, diagnostics are counted, not kept. */
    iprof_read_result r = read_result(reader);
    *errors = r.dropped_errors;
    *warnings = r.dropped_warnings;
    for (size_t i = 0; i < r.diag_count; i++) {
        if (error_info(iprof_reader_diag(reader, i)).severity == IPROF_SEVERITY_WARNING)
            ++*warnings;
        else
            ++*errors;
    }
}

void report_unread(const char *file, const iprof_reader *reader)
{
    iprof_read_result r = read_result(reader);
    size_t n = r.unread_count;
    const char *first = r.unread_first;
    if (n)
        fprintf(stderr, "%s: warning: %zu element%s %s keys iprof does not read (the first: "
                "%s)\n", display_name(file), n, n == 1 ? "" : "s", n == 1 ? "has" : "have",
                first);
}

void report_read_warnings(const char *file, const iprof_reader *reader)
{
    report_unread(file, reader);
    size_t errors, warnings;
    count_diagnostics(reader, &errors, &warnings);
    if (errors)
        fprintf(stderr, "%s: warning: read past %zu rule violation%s ('iprof validate' lists "
                "them; --strict refuses the file)\n", display_name(file), errors,
                errors == 1 ? "" : "s");
}

void report_plain(const char *cmd, const char *name, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: %s: ", cmd, name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int exit_code_of(int status)
{
    switch (status) {
    case IPROF_OK: return TOOL_EXIT_OK;
    case IPROF_EIO:
    case IPROF_ENOMEM:
    case IPROF_EINVAL: return TOOL_EXIT_USAGE;
    default: return TOOL_EXIT_INVALID;
    }
}

iprof_reader *open_reader(const char *cmd, int strict)
{
    iprof_read_options opts = IPROF_READ_OPTIONS_INIT;
    iprof_reader *reader = NULL;
    /* Model loads build the model on a second thread while this one reads
     * (the tool uses libc's allocator, which is thread-safe); streaming
     * reads (validate) ignore the flag. */
    opts.flags = IPROF_READ_THREADED;
    if (strict)
        opts.flags |= IPROF_READ_STRICT;
    int rc = iprof_reader_new(&reader, &opts);
    if (rc != IPROF_OK) {
        fprintf(stderr, "%s: cannot create a reader: %s\n", cmd, iprof_status_string(rc));
        return NULL;
    }
    return reader;
}

int load_model(iprof_model **out, iprof_reader *reader, const char *file)
{
    iprof_source src = input_source(file);
    int rc = iprof_model_load(out, reader, &src);
    if (rc == IPROF_OK) {
        report_read_warnings(file, reader);
        return TOOL_EXIT_OK;
    }
    report_load(file, reader, rc);
    return exit_code_of(rc);
}

int finish_stdout(const char *cmd, int code)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: cannot write to standard output: %s\n", cmd, strerror(errno));
        return TOOL_EXIT_USAGE;
    }
    return code;
}
