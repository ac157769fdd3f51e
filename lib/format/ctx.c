/* Parsing and printing ctx text. The parser is on the reader's hot path:
 * one pass, no allocation unless the frame buffer must grow. */
#include "ctx.h"

#include "alloc.h"
#include "numfmt.h"

/* Parse one integer at *p; unsigned if !allow_minus. */
static int parse_int(const char **p, const char *end, int allow_minus, int64_t *out)
{
    const char *s = *p;
    int neg = 0;
    if (allow_minus && s < end && *s == '-') {
        neg = 1;
        s++;
    }
    if (s == end || (unsigned)(*s - '0') > 9)
        return IPI_CTX_SYNTAX;
    uint64_t v = 0;
    const uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    while (s < end && (unsigned)(*s - '0') <= 9) {
        unsigned d = (unsigned)(*s - '0');
        if (v > (limit - d) / 10) {
            *p = s;
            return IPI_CTX_RANGE;
        }
        v = v * 10 + d;
        s++;
    }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    *p = s;
    return IPI_CTX_OK;
}

static inline int parse_frames(const char *s, size_t len, char sep, int64_t **frames,
                               size_t *cap, size_t *count, size_t *err_at,
                               const iprof_allocator *alloc)
{
    const char *p = s, *end = s + len;
    size_t n = 0;
    for (;;) {
        if (n == *cap) {
            size_t pairs = *cap;
            size_t bytes_cap = pairs * 2;
            int rc = ipi_grow(alloc, (void **)frames, &bytes_cap, (n + 1) * 2,
                              sizeof(int64_t));
            if (rc)
                return rc;
            *cap = bytes_cap / 2;
        }
        int64_t *f = *frames + 2 * n;
        int rc = parse_int(&p, end, 0, &f[0]);
        if (rc == IPI_CTX_OK) {
            if (p == end || *p != ':')
                rc = IPI_CTX_SYNTAX;
            else {
                p++;
                rc = parse_int(&p, end, 1, &f[1]);
            }
        }
        if (rc) {
            *err_at = (size_t)(p - s);
            return rc;
        }
        n++;
        if (p == end)
            break;
        if (*p != sep) {
            *err_at = (size_t)(p - s);
            return IPI_CTX_SYNTAX;
        }
        p++;
    }
    *count = n;
    return IPI_CTX_OK;
}

int ipi_ctx_parse(const char *s, size_t len, int64_t **frames, size_t *cap, size_t *count,
                  size_t *err_at, const iprof_allocator *alloc)
{
    return parse_frames(s, len, '<', frames, cap, count, err_at, alloc);
}

int ipi_ctx_parse_sep(const char *s, size_t len, char sep, int64_t **frames, size_t *cap,
                      size_t *count, size_t *err_at, const iprof_allocator *alloc)
{
    return parse_frames(s, len, sep, frames, cap, count, err_at, alloc);
}

size_t ipi_ctx_format(char *out, const int64_t *frames, size_t count)
{
    return ipi_ctx_format_sep(out, frames, count, '<');
}

size_t ipi_ctx_format_sep(char *out, const int64_t *frames, size_t count, char sep)
{
    char *p = out;
    for (size_t i = 0; i < count; i++) {
        if (i)
            *p++ = sep;
        p += ipi_fmt_i64(p, frames[2 * i]);
        *p++ = ':';
        p += ipi_fmt_i64(p, frames[2 * i + 1]);
    }
    return (size_t)(p - out);
}
