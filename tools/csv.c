/* A CSV reader for GraalVM's reports (csv.h). */
#include <stdlib.h>
#include <string.h>

#include "csv.h"

void csv_init(csv_reader *r, const char *text, size_t len)
{
    memset(r, 0, sizeof *r);
    r->p = text;
    r->end = text + len;
    r->line = 1;
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
        r->p += 3;
}

void csv_free(csv_reader *r)
{
    free(r->buf);
    free(r->offs);
    r->buf = NULL;
    r->offs = NULL;
}

static int fail(csv_reader *r, const char *msg, size_t line)
{
    r->error = msg;
    r->error_line = line;
    return -1;
}

static int put(csv_reader *r, char c)
{
    if (r->len == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 256;
        char *b = realloc(r->buf, cap);
        if (!b)
            return -1;
        r->buf = b;
        r->cap = cap;
    }
    r->buf[r->len++] = c;
    return 0;
}

/* Start a field at the end of buf. */
static int start_field(csv_reader *r)
{
    if (r->count == r->offs_cap) {
        size_t cap = r->offs_cap ? 2 * r->offs_cap : 16;
        size_t *o = realloc(r->offs, cap * sizeof *o);
        if (!o)
            return -1;
        r->offs = o;
        r->offs_cap = cap;
    }
    r->offs[r->count++] = r->len;
    return 0;
}

/* At a record's end: CRLF or LF (consumed), or the end of the text. */
static int at_eol(csv_reader *r)
{
    if (r->p == r->end)
        return 1;
    if (*r->p == '\n' || (*r->p == '\r' && r->p + 1 < r->end && r->p[1] == '\n')) {
        r->p += *r->p == '\r' ? 2 : 1;
        r->line++;
        return 1;
    }
    return 0;
}

/* A quoted field, p after the opening quote. */
static int quoted(csv_reader *r)
{
    size_t start = r->line;
    for (;;) {
        if (r->p == r->end)
            return fail(r, "a quoted field does not end (no closing '\"')", start);
        char c = *r->p++;
        if (c == '\0')
            return fail(r, "NUL byte", r->line);
        if (c == '"') {
            if (r->p < r->end && *r->p == '"')
                r->p++;
            else
                return 0;
        } else if (c == '\n') {
            r->line++;
        }
        if (put(r, c))
            return fail(r, "out of memory", r->line);
    }
}

/* One field and its separator or the record's end: 1 when the record
 * goes on, 0 when it ended, -1 on error. */
static int field(csv_reader *r)
{
    if (start_field(r))
        return fail(r, "out of memory", r->line);
    if (r->p < r->end && *r->p == '"') {
        r->p++;
        if (quoted(r))
            return -1;
        if (put(r, '\0'))
            return fail(r, "out of memory", r->line);
        if (at_eol(r))
            return 0;
        if (*r->p++ == ',')
            return 1;
        return fail(r, "text after a closing '\"' (a field is quoted whole)", r->line);
    }
    for (;;) {
        if (at_eol(r))
            break;
        char c = *r->p;
        if (c == ',') {
            r->p++;
            if (put(r, '\0'))
                return fail(r, "out of memory", r->line);
            return 1;
        }
        if (c == '"')
            return fail(r, "'\"' inside an unquoted field (quote the field, '\"\"' for '\"')",
                        r->line);
        if (c == '\0')
            return fail(r, "NUL byte", r->line);
        if (c == '\r' && r->p + 1 == r->end) { /* a last CR without LF */
            r->p++;
            break;
        }
        if (put(r, c))
            return fail(r, "out of memory", r->line);
        r->p++;
    }
    if (put(r, '\0'))
        return fail(r, "out of memory", r->line);
    return 0;
}

int csv_next(csv_reader *r)
{
    while (r->p < r->end && at_eol(r)) /* blank lines */
        ;
    r->count = r->len = 0;
    if (r->p == r->end)
        return 0;
    r->record_line = r->line;
    int rc;
    while ((rc = field(r)) == 1)
        ;
    return rc < 0 ? -1 : 1;
}
