/* A CSV reader (RFC 4180) for the reports GraalVM Native Image writes
 * (iprof fit's call tree). It lives in tools/, not in the library: it
 * reads another program's report, not the .iprof format, and only the
 * command needs it.
 *
 * Fields are separated by ','; records end with LF or CRLF; a field in
 * double quotes may hold ',', CR, LF and '""' (one '"'). A UTF-8 byte order
 * mark at the start and blank lines are skipped. Malformed input (a '"'
 * inside an unquoted field, text after a closing quote, a quoted field
 * that never closes, a NUL byte) is an error with its line. */
#ifndef IPROF_TOOL_CSV_H
#define IPROF_TOOL_CSV_H

#include <stddef.h>

typedef struct csv_reader {
    const char *p, *end;  /* the text not read yet */
    size_t line;          /* the line p is on, from 1 */
    size_t record_line;   /* the line the last record started on */
    char *buf;            /* the last record's fields, unescaped, each NUL-ended */
    size_t len, cap;
    size_t *offs;         /* where each field starts in buf */
    size_t count, offs_cap;
    const char *error;    /* after -1: what is wrong (a literal) */
    size_t error_line;    /* and on which line */
} csv_reader;

/* Read @p len bytes at @p text (kept by the caller while reading). */
void csv_init(csv_reader *r, const char *text, size_t len);
/* The next record: 1 (fields in csv_field, r->count of them), 0 at the
 * end, -1 on malformed input (r->error, r->error_line) or out of memory
 * (r->error "out of memory"). */
int csv_next(csv_reader *r);
static inline const char *csv_field(const csv_reader *r, size_t i)
{
    return r->buf + r->offs[i];
}
void csv_free(csv_reader *r);

#endif /* IPROF_TOOL_CSV_H */
