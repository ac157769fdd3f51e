/* The reader's positions, JSON paths, errors and diagnostics: every
 * report of a read is filled here (scan.h). */
#include <stdio.h>
#include <string.h>

#include "scan.h"

static const char *const field_names[] = {"", "id", "name", "signature", "ctx", "records"};

/* A field's key as the file spells it (0.2.0: typeName, methodName,
 * methodBciList). */
static const char *field_name(const scan *s, const path_pos *at)
{
    if (s->legacy && at->field == F_NAME)
        return at->section == SEC_TYPES ? "typeName" : "methodName";
    if (s->legacy && at->field == F_CTX)
        return "methodBciList";
    return field_names[at->field];
}


/* Line and column of input offset off, which lies in the window. Moves the
 * line cursor forward or back; cost is proportional to the distance. */
void ipi_scan_locate(scan *s, uint64_t off, uint64_t *line, uint64_t *column)
{
    const char *w = s->src.data;
    uint64_t base = s->src.base;
    if (off >= s->line_pos) {
        const char *p = w + (s->line_pos - base), *end = w + (off - base);
        while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
            s->line_no++;
            s->last_nl = base + (uint64_t)(p - w);
            p++;
        }
    } else {
        for (uint64_t i = off; i < s->line_pos; i++)
            if (w[i - base] == '\n')
                s->line_no--;
        s->last_nl = s->base_last_nl;
        for (uint64_t i = off; i > base; i--)
            if (w[i - 1 - base] == '\n') {
                s->last_nl = i - 1;
                break;
            }
    }
    s->line_pos = off;
    *line = s->line_no + 1;
    *column = s->last_nl == UINT64_MAX ? off + 1 : off - s->last_nl;
}

/* Before the window drops its first `drop` bytes: count their lines. */
void ipi_scan_forget(scan *s, size_t drop)
{
    uint64_t line, column, off = s->src.base + drop;
    if (off > s->line_pos)
        ipi_scan_locate(s, off, &line, &column);
    s->base_last_nl = s->last_nl;
}

/* The key of a known section as this file spells it. */
const char *ipi_scan_section_name(const scan *s, int section)
{
    if (s->legacy && ipi_legacy_kind_key(section))
        return ipi_legacy_kind_key(section);
    switch (section) {
    case SEC_TYPES: return "types";
    case SEC_METHODS: return "methods";
    case SEC_VERSION: return "version";
    case IPROF_KIND_INSTANCEOF:
        return s->iof_key ? ipi_instanceof_key_name(s->iof_key) : iprof_kind_name(section);
    default: return iprof_kind_name(section);
    }
}

void ipi_scan_format_path(const scan *s, const path_pos *at, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    if (at->section == SEC_NONE)
        return;
    if (at->section == SEC_UNKNOWN) {
        snprintf(out, cap, "%.*s", ipi_excerpt(s->r->key, s->r->key_len, cap - 1), s->r->key);
        return;
    }
    const char *name = ipi_scan_section_name(s, at->section);
    n = (size_t)snprintf(out, cap, "%s", name);
    if (at->elem != UINT64_MAX && n < cap)
        n += (size_t)snprintf(out + n, cap - n, "[%llu]", (unsigned long long)at->elem);
    if (at->field != F_NONE && n < cap)
        n += (size_t)snprintf(out + n, cap - n, ".%s", field_name(s, at));
    if (at->sub >= 0 && n < cap)
        snprintf(out + n, cap - n, "[%lld]", (long long)at->sub);
}

/* Fill a report for window index `at` (or, with at == SIZE_MAX, for the
 * input offset in *pre). */
static void make_report(scan *s, iprof_error *e, char *msg, size_t msg_cap, char *path,
                        size_t path_cap, const path_pos *where, size_t at, int status,
                        const char *fmt, va_list ap)
{
    e->status = status;
    e->severity = IPROF_SEVERITY_ERROR;
    e->offset = s->src.base + at;
    ipi_scan_locate(s, e->offset, &e->line, &e->column);
    vsnprintf(msg, msg_cap, fmt, ap);
    ipi_scan_format_path(s, where, path, path_cap);
    e->message = msg;
    e->path = path;
}

/* Make the report the read's error; returns status. */
static int set_error(scan *s, int status, size_t at, const char *fmt, va_list ap)
{
    ipi_errbuf *eb = &s->r->error;
    ipi_errbuf_clear(eb);
    eb->set = 1;
    make_report(s, &eb->err, eb->message, sizeof eb->message, eb->path, sizeof eb->path,
                &s->at, at, status, fmt, ap);
    return status;
}

/* A fatal error at window index `at`; returns status. */
int ipi_scan_fail(scan *s, int status, size_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_error(s, status, at, fmt, ap);
    va_end(ap);
    return status;
}

/* Keep a diagnostic, or count it once max_diags are kept: a hostile file
 * with a violation per element must not make the reader's memory grow
 * with it. IPROF_OK or IPROF_ENOMEM. */
static int keep_diag(iprof_reader *r, const iprof_error *e)
{
    if (r->diags.count >= r->max_diags) {
        r->dropped[e->severity == IPROF_SEVERITY_WARNING]++;
        return IPROF_OK;
    }
    return ipi_diags_add(&r->diags, e);
}

/* A report located before the window (a deferred check): the read's
 * error in strict mode (returning its status), else a diagnostic. */
int ipi_scan_report_located(scan *s, const iprof_error *e)
{
    if (!(s->r->flags & IPROF_READ_STRICT))
        return keep_diag(s->r, e) ? ipi_scan_fail(s, IPROF_ENOMEM, s->pos,
                                                  "out of memory recording a diagnostic")
                                  : IPROF_OK;
    ipi_errbuf *eb = &s->r->error;
    ipi_errbuf_clear(eb);
    eb->set = 1;
    eb->err = *e;
    snprintf(eb->message, sizeof eb->message, "%s", e->message);
    snprintf(eb->path, sizeof eb->path, "%s", e->path);
    eb->err.message = eb->message;
    eb->err.path = eb->path;
    eb->err.context = eb->context;
    return e->status;
}

/* A rule violation at window index `at`: fatal in strict mode, else a
 * diagnostic. Returns 0 to go on or a status. */
int ipi_scan_violation(scan *s, int status, int severity, size_t at, const char *fmt, ...)
{
    char msg[IPI_MESSAGE_MAX], path[IPI_PATH_MAX];
    iprof_error e;
    va_list ap;
    if (severity == IPROF_SEVERITY_ERROR && (s->r->flags & IPROF_READ_STRICT)) {
        va_start(ap, fmt);
        set_error(s, status, at, fmt, ap);
        va_end(ap);
        return status;
    }
    va_start(ap, fmt);
    make_report(s, &e, msg, sizeof msg, path, sizeof path, &s->at, at, status, fmt, ap);
    va_end(ap);
    e.severity = severity;
    if (keep_diag(s->r, &e))
        return ipi_scan_fail(s, IPROF_ENOMEM, at, "out of memory recording a diagnostic");
    return IPROF_OK;
}

/* Map a JSON scanner result to a failure at `err` (a window pointer). */
int ipi_scan_json_fail(scan *s, int rc, const char *err, const char *why)
{
    size_t at = (size_t)(err - s->src.data);
    switch (rc) {
    case IPI_JSON_RANGE: return ipi_scan_fail(s, IPROF_ELIMIT, at, "integer does not fit in int64");
    case IPI_JSON_FRACTION: return ipi_scan_fail(s, IPROF_ESCHEMA, at, "expected an integer, not a fraction");
    case IPI_JSON_DEPTH: return ipi_scan_fail(s, IPROF_ELIMIT, at, "JSON nesting deeper than %zu", s->r->max_depth);
    case IPI_JSON_NOMEM: return ipi_scan_fail(s, IPROF_ENOMEM, at, "out of memory");
    default: return ipi_scan_fail(s, IPROF_ESYNTAX, at, "%s", why ? why : "invalid JSON");
    }
}

