/*
 * The streaming reader.
 *
 * A document is read as a sequence of small restartable steps (a top-level
 * key, one array element, a separator...). A step scans from the current
 * position and either completes, committing its side effects (callbacks,
 * diagnostics) only then, or reports that it ran out of window; the driver
 * then refills the window, keeping the bytes from the step's start, and
 * runs the step again. So no JSON value is ever held as a tree, nothing is
 * allocated per value, and memory is bounded by the largest element.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iprof/reader.h>

#include "alloc.h"
#include "ctx.h"
#include "error.h"
#include "idset.h"
#include "json.h"
#include "reader_internal.h"
#include "rules.h"
#include "source.h"
#include "version.h"

#define DEFAULT_CHUNK ((size_t)256 * 1024)
#define DEFAULT_MAX_ELEMENT ((size_t)1 << 30)
#define DEFAULT_MAX_DIAGS ((size_t)10000)
#define MORE 1 /* step result: needs more input */

/* Top-level sections; entry kinds use their IPROF_KIND_* numbers, the
 * others the public IPROF_SECTION_* ones (on_key reports them). */
enum {
    SEC_NONE = -1,
    SEC_TYPES = IPROF_SECTION_TYPES,
    SEC_METHODS = IPROF_SECTION_METHODS,
    SEC_VERSION = IPROF_SECTION_VERSION,
    SEC_UNKNOWN = IPROF_SECTION_UNKNOWN
};
#define SEC_BIT(sec) (1u << (sec))

/* Fields of elements, for error paths. */
enum { F_NONE, F_ID, F_NAME, F_SIGNATURE, F_CTX, F_RECORDS };
static const char *const field_names[] = {"", "id", "name", "signature", "ctx", "records"};

enum { ST_BEGIN, ST_KEY, ST_VALUE, ST_ELEMENT, ST_AFTER_ELEMENT, ST_AFTER_MEMBER, ST_END,
       ST_DONE };

/* Where in the document an element or value is: formatted into paths. */
typedef struct path_pos {
    int section;
    int field;
    uint64_t elem;  /* UINT64_MAX: the section itself */
    int64_t sub;    /* index in signature/records, -1 for none */
} path_pos;

/* A reference that must wait for a later section to be checked. */
typedef struct pending_ref {
    int64_t id;
    int is_type;
    path_pos at;
    uint64_t offset, line, column;
} pending_ref;

struct iprof_reader {
    iprof_allocator alloc;
    unsigned flags;
    size_t chunk, max_element, max_depth;
    size_t max_diags;            /* diagnostics kept per read */
    size_t dropped[2];           /* diagnostics past max_diags, by severity */
    ipi_errbuf error;
    ipi_diags diags;
    /* Buffers reused from read to read. */
    char *window;
    size_t window_cap;
    int64_t *frames;
    size_t frames_cap; /* pairs */
    int64_t *nums;
    size_t nums_cap;
    char *text; /* a decoded string of the current element */
    size_t text_cap;
    char *key; /* the current unknown top-level key */
    size_t key_cap, key_len;
    ipi_json_stack stack;
    ipi_idset type_ids, method_ids;
    pending_ref *pending;
    size_t pending_count, pending_cap;
};

/* The state of one read. */
typedef struct scan {
    iprof_reader *r;
    const iprof_read_callbacks *cb;
    void *payload;
    ipi_source src;
    size_t pos; /* window index of the next byte */
    int state;
    int first;      /* nothing yet in the current object or array */
    unsigned seen;  /* SEC_BIT of known top-level keys met */
    unsigned done;  /* SEC_BIT of sections whose array was closed */
    path_pos at;    /* current path */
    int have_version;
    ipi_fmtver version;
    char version_text[64];
    int iof_pending; /* instanceofProfiles met before the version */
    int iof_key;     /* IPROF_INSTANCEOF_KEY_* of the file, 0 before the section */
    uint64_t iof_offset, iof_line, iof_column;
    /* Line tracking: line_no lines end before input offset line_pos, the
     * last of them at last_nl (UINT64_MAX: none). base_last_nl is the last
     * newline before the window. */
    uint64_t line_pos, line_no, last_nl, base_last_nl;
    /* The element being parsed (window indices). */
    size_t el_start, id_at, name_at, sig_at, ctx_at, rec_at;
    int64_t id;
    const char *name;
    size_t name_len, nframes, nnums;
} scan;

/* ------------------------------------------------------------------------ */
/* Positions and paths                                                      */

/* Line and column of input offset off, which lies in the window. Moves the
 * line cursor forward or back; cost is proportional to the distance. */
static void locate(scan *s, uint64_t off, uint64_t *line, uint64_t *column)
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
static void forget(scan *s, size_t drop)
{
    uint64_t line, column, off = s->src.base + drop;
    if (off > s->line_pos)
        locate(s, off, &line, &column);
    s->base_last_nl = s->last_nl;
}

/* The key of a known section as this file spells it. */
static const char *section_name(const scan *s, int section)
{
    switch (section) {
    case SEC_TYPES: return "types";
    case SEC_METHODS: return "methods";
    case SEC_VERSION: return "version";
    case IPROF_KIND_INSTANCEOF:
        return s->iof_key ? iprof_instanceof_key_name(s->iof_key) : iprof_kind_name(section);
    default: return iprof_kind_name(section);
    }
}

static void format_path(const scan *s, const path_pos *at, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    if (at->section == SEC_NONE)
        return;
    if (at->section == SEC_UNKNOWN) {
        snprintf(out, cap, "%.*s", (int)(s->r->key_len < cap ? s->r->key_len : cap - 1),
                 s->r->key);
        return;
    }
    const char *name = section_name(s, at->section);
    n = (size_t)snprintf(out, cap, "%s", name);
    if (at->elem != UINT64_MAX && n < cap)
        n += (size_t)snprintf(out + n, cap - n, "[%llu]", (unsigned long long)at->elem);
    if (at->field != F_NONE && n < cap)
        n += (size_t)snprintf(out + n, cap - n, ".%s", field_names[at->field]);
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
    locate(s, e->offset, &e->line, &e->column);
    vsnprintf(msg, msg_cap, fmt, ap);
    format_path(s, where, path, path_cap);
    e->message = msg;
    e->path = path;
}

/* A fatal error at window index `at`; returns status. */
static int fail(scan *s, int status, size_t at, const char *fmt, ...)
{
    ipi_errbuf *eb = &s->r->error;
    va_list ap;
    ipi_errbuf_clear(eb);
    eb->set = 1;
    va_start(ap, fmt);
    make_report(s, &eb->err, eb->message, sizeof eb->message, eb->path, sizeof eb->path,
                &s->at, at, status, fmt, ap);
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
static int report_located(scan *s, const iprof_error *e)
{
    if (!(s->r->flags & IPROF_READ_STRICT))
        return keep_diag(s->r, e) ? fail(s, IPROF_ENOMEM, s->pos, "out of memory recording a "
                                                                  "diagnostic")
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
static int violation(scan *s, int status, int severity, size_t at, const char *fmt, ...)
{
    char msg[IPI_MESSAGE_MAX], path[IPI_PATH_MAX];
    iprof_error e;
    va_list ap;
    if (severity == IPROF_SEVERITY_ERROR && (s->r->flags & IPROF_READ_STRICT)) {
        ipi_errbuf *eb = &s->r->error;
        ipi_errbuf_clear(eb);
        eb->set = 1;
        va_start(ap, fmt);
        make_report(s, &eb->err, eb->message, sizeof eb->message, eb->path, sizeof eb->path,
                    &s->at, at, status, fmt, ap);
        va_end(ap);
        return status;
    }
    va_start(ap, fmt);
    make_report(s, &e, msg, sizeof msg, path, sizeof path, &s->at, at, status, fmt, ap);
    va_end(ap);
    e.severity = severity;
    if (keep_diag(s->r, &e))
        return fail(s, IPROF_ENOMEM, at, "out of memory recording a diagnostic");
    return IPROF_OK;
}

/* Map a JSON scanner result to a failure at `err` (a window pointer). */
static int json_fail(scan *s, int rc, const char *err, const char *why)
{
    size_t at = (size_t)(err - s->src.data);
    switch (rc) {
    case IPI_JSON_RANGE: return fail(s, IPROF_ELIMIT, at, "integer does not fit in int64");
    case IPI_JSON_FRACTION: return fail(s, IPROF_ESCHEMA, at, "expected an integer, not a fraction");
    case IPI_JSON_DEPTH: return fail(s, IPROF_ELIMIT, at, "JSON nesting deeper than %zu", s->r->max_depth);
    case IPI_JSON_NOMEM: return fail(s, IPROF_ENOMEM, at, "out of memory");
    default: return fail(s, IPROF_ESYNTAX, at, "%s", why ? why : "invalid JSON");
    }
}

/* ------------------------------------------------------------------------ */
/* Values inside elements                                                   */

#define WIN(s) ((s)->src.data)
#define IDX(s, p) ((size_t)((p) - (s)->src.data))

/* Whether c starts some JSON value other than a number: a type mismatch,
 * not a syntax error. */
static int starts_other_value(char c)
{
    return c == '"' || c == '{' || c == '[' || c == 't' || c == 'f' || c == 'n';
}

/* -?[0-9]{1,18} at *pp (a lone "0" ends after the zero), moving *pp past
 * the digits: the numbers GraalVM writes, which cannot overflow. The caller
 * ensures 21 readable bytes and checks what follows, which also turns away
 * "01", "1.5", "1e3" and 19+ digits (the general parser takes those).
 * Returns 0 when no digit starts there. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWAR_DIGITS 1

/* The value of the 8 ASCII digits in x (first digit in the lowest byte):
 * three multiply-shift steps pair digits up (the technique of simdjson's
 * parse_eight_digits_unrolled). */
static inline uint64_t eight_digits(uint64_t x)
{
    x = (x & 0x0F0F0F0F0F0F0F0FULL) * 2561 >> 8;
    x = (x & 0x00FF00FF00FF00FFULL) * 6553601 >> 16;
    return (x & 0x0000FFFF0000FFFFULL) * 42949672960001ULL >> 32;
}

/* How many of the 8 bytes of x, from the lowest, are ASCII digits. */
static inline size_t leading_digits(uint64_t x)
{
    /* A high bit flags a byte below '0' (borrow) or above '9' (carry into
     * the high bit) or >= 0x80; only bytes after a flagged one can be
     * flagged wrongly, so the lowest flag is exact. */
    uint64_t flags = (((x - 0x3030303030303030ULL) & ~x) | (x + 0x4646464646464646ULL) | x) &
                     0x8080808080808080ULL;
    return flags ? (size_t)__builtin_ctzll(flags) >> 3 : 8;
}
#endif

/* Digits after the first ones of a number starting at `start`, up to 18
 * in all (no overflow possible). */
static inline uint64_t more_digits(const char **pp, const char *start, uint64_t v)
{
    const char *p = *pp;
    unsigned d;
    while ((d = (unsigned)(*p - '0')) <= 9 && p - start < 18) {
        v = v * 10 + d;
        p++;
    }
    *pp = p;
    return v;
}

static inline int plain_digits(const char **pp, int64_t *out)
{
    const char *p = *pp;
    int neg = *p == '-';
    const char *start = p + neg;
#ifdef SWAR_DIGITS
    /* Up to 8 digits in one step: most ids, bcis and counts. */
    uint64_t x, v;
    memcpy(&x, start, 8);
    size_t n = leading_digits(x);
    if (n == 0)
        return 0;
    if ((x & 0xFF) == '0') { /* a lone zero: "01" is for the caller to refuse */
        v = 0;
        p = start + 1;
    } else if (n < 8) {
        v = eight_digits((x << (64 - 8 * n)) | (0x3030303030303030ULL >> (8 * n)));
        p = start + n;
    } else {
        p = start + 8;
        v = more_digits(&p, start, eight_digits(x));
    }
#else
    unsigned d = (unsigned)(*start - '0');
    if (d > 9)
        return 0;
    uint64_t v = d;
    p = start + 1;
    if (d != 0)
        v = more_digits(&p, start, v);
#endif
    *out = neg ? -(int64_t)v : (int64_t)v;
    *pp = p;
    return 1;
}

static inline int fast_int(const char **pp, const char *end, int64_t *out)
{
    const char *p = *pp;
    int64_t v;
    if (end - p < 21 || !plain_digits(&p, &v))
        return 0;
    char c = *p;
    if (c != ',' && c != ']' && c != '}' && c != ' ' && c != '\n' && c != '\r' && c != '\t')
        return 0;
    *out = v;
    *pp = p;
    return 1;
}

static int expect_int(scan *s, const char **pp, const char *end, int64_t *out)
{
    const char *p = *pp, *err = p, *after;
    if (fast_int(pp, end, out))
        return IPROF_OK;
    if (p >= end)
        return MORE;
    if (starts_other_value(*p))
        return fail(s, IPROF_ESCHEMA, IDX(s, p), "expected an integer");
    int rc = ipi_json_parse_int(p, end, s->src.eof, out, &after, &err);
    if (rc == IPI_JSON_MORE)
        return MORE;
    if (rc == IPI_JSON_BAD)
        return fail(s, IPROF_ESYNTAX, IDX(s, err), *p == '-' || (*p >= '0' && *p <= '9')
                                                      ? "invalid number" : "expected a JSON value");
    if (rc)
        return json_fail(s, rc, err, NULL);
    *pp = after;
    return IPROF_OK;
}

/* Grow a reader buffer; failure is fatal at the element start. */
static int grow(scan *s, void **p, size_t *cap, size_t need, size_t size)
{
    if (ipi_grow(&s->r->alloc, p, cap, need, size))
        return fail(s, IPROF_ENOMEM, s->el_start, "out of memory");
    return IPROF_OK;
}

/* A compact array of plain integers ("[1,-2,30]", as GraalVM writes
 * them) in one tight loop. Returns 1 when done, 0 to let the general path
 * start over at the '[' (whitespace, other spellings, the window's end, an
 * error to report), -1 on no memory. */
static int fast_int_array(scan *s, const char **pp, const char *end, size_t *count)
{
    iprof_reader *r = s->r;
    const char *p = *pp + 1;
    size_t n = 0;
    if (p < end && *p == ']') {
        *pp = p + 1;
        *count = 0;
        return 1;
    }
    for (;;) {
        if (end - p < 21)
            return 0;
        if (n == r->nums_cap &&
            ipi_grow(&r->alloc, (void **)&r->nums, &r->nums_cap, n + 1, sizeof(int64_t)))
            return -1;
        if (!plain_digits(&p, &r->nums[n]))
            return 0;
        n++;
        if (*p == ',') {
            p++;
            continue;
        }
        if (*p == ']')
            break;
        return 0; /* "01", "1.0", 19+ digits, spaces, bad syntax */
    }
    *pp = p + 1;
    *count = n;
    return 1;
}

/* An array of integers into r->nums: signature or records. */
static int expect_int_array(scan *s, const char **pp, const char *end, size_t *count)
{
    const char *p = *pp;
    size_t n = 0;
    if (p >= end)
        return MORE;
    if (*p == '[') {
        int rc = fast_int_array(s, pp, end, count);
        if (rc > 0)
            return IPROF_OK;
        if (rc < 0)
            return fail(s, IPROF_ENOMEM, s->el_start, "out of memory");
    }
    if (*p != '[')
        return fail(s, starts_other_value(*p) || *p == '-' || (*p >= '0' && *p <= '9')
                           ? IPROF_ESCHEMA : IPROF_ESYNTAX,
                    IDX(s, p), "expected an array of integers");
    p = ipi_json_skip_ws(p + 1, end);
    if (p >= end)
        return MORE;
    if (*p != ']') {
        for (;;) {
            if (n == s->r->nums_cap &&
                grow(s, (void **)&s->r->nums, &s->r->nums_cap, n + 1, sizeof(int64_t)))
                return s->r->error.err.status;
            s->at.sub = (int64_t)n;
            int rc = expect_int(s, &p, end, &s->r->nums[n]);
            if (rc)
                return rc;
            n++;
            p = ipi_json_skip_ws(p, end);
            if (p >= end)
                return MORE;
            if (*p == ']')
                break;
            if (*p != ',')
                return fail(s, IPROF_ESYNTAX, IDX(s, p), "expected ',' or ']'");
            p = ipi_json_skip_ws(p + 1, end);
        }
    }
    s->at.sub = -1;
    *pp = p + 1;
    *count = n;
    return IPROF_OK;
}

/* A string value, NUL-terminated in r->text (decoded when it has escapes)
 * because callbacks are promised C strings; with `borrow` an unescaped
 * string may point into the window instead (not terminated). */
static int expect_string(scan *s, const char **pp, const char *end, const char **str,
                         size_t *len, int borrow)
{
    const char *p = *pp, *after, *err = p, *why = NULL;
    int escaped;
    if (p >= end)
        return MORE;
    if (*p != '"')
        return fail(s, starts_other_value(*p) || *p == '-' || (*p >= '0' && *p <= '9')
                           ? IPROF_ESCHEMA : IPROF_ESYNTAX,
                    IDX(s, p), "expected a string");
    int rc;
    if ((after = ipi_json_plain_string(p, end)) != NULL)
        escaped = 0;
    else if ((rc = ipi_json_scan_string(p, end, &after, &escaped, &err, &why)) == IPI_JSON_MORE)
        return MORE;
    else if (rc)
        return json_fail(s, rc, err, why);
    size_t raw = (size_t)(after - p) - 2;
    if (!escaped && borrow) {
        *str = p + 1;
        *len = raw;
    } else {
        if (raw >= s->r->text_cap && grow(s, (void **)&s->r->text, &s->r->text_cap, raw + 1, 1))
            return s->r->error.err.status;
        if (escaped)
            *len = ipi_json_decode(p + 1, raw, s->r->text);
        else {
            memcpy(s->r->text, p + 1, raw);
            s->r->text[raw] = '\0';
            *len = raw;
        }
        *str = s->r->text;
    }
    *pp = after;
    return IPROF_OK;
}

/* The member key at p (at '"') and the colon; *key is a short decoded copy
 * or "" for keys no element has. */
static int expect_member_key(scan *s, const char **pp, const char *end, char key[16],
                             size_t *key_len)
{
    const char *p = *pp, *after, *err = p, *why = NULL;
    int escaped;
    if (p >= end)
        return MORE;
    if (*p != '"')
        return fail(s, IPROF_ESYNTAX, IDX(s, p), "expected a string key");
    int rc = ipi_json_scan_string(p, end, &after, &escaped, &err, &why);
    if (rc == IPI_JSON_MORE)
        return MORE;
    if (rc)
        return json_fail(s, rc, err, why);
    size_t raw = (size_t)(after - p) - 2;
    key[0] = '\0';
    *key_len = 0;
    if (!escaped && raw < 16) {
        memcpy(key, p + 1, raw);
        key[raw] = '\0';
        *key_len = raw;
    } else if (escaped && raw < 64) {
        char tmp[64];
        size_t n = ipi_json_decode(p + 1, raw, tmp);
        if (n < 16 && memchr(tmp, '\0', n) == NULL) {
            memcpy(key, tmp, n + 1);
            *key_len = n;
        }
    }
    p = ipi_json_skip_ws(after, end);
    if (p >= end)
        return MORE;
    if (*p != ':')
        return fail(s, IPROF_ESYNTAX, IDX(s, p), "expected ':' after key");
    *pp = ipi_json_skip_ws(p + 1, end);
    return IPROF_OK;
}

/* Skip a member value nobody asked for. */
static int skip_member(scan *s, const char **pp, const char *end)
{
    const char *after, *err = *pp, *why = NULL;
    if (*pp >= end)
        return MORE;
    int rc = ipi_json_skip_value(&s->r->stack, *pp, end, s->src.eof, &after, &err, &why);
    if (rc == IPI_JSON_MORE)
        return MORE;
    if (rc)
        return json_fail(s, rc, err, why);
    *pp = after;
    return IPROF_OK;
}

/* ------------------------------------------------------------------------ */
/* Elements                                                                 */

enum { M_ID = 1, M_NAME = 2, M_SIG = 4, M_CTX = 8, M_REC = 16 };

static unsigned member_of(int section, const char *key, size_t len)
{
    int entry = section != SEC_TYPES && section != SEC_METHODS;
    switch (len) {
    case 2: return !entry && memcmp(key, "id", 2) == 0 ? M_ID : 0;
    case 3: return entry && memcmp(key, "ctx", 3) == 0 ? M_CTX : 0;
    case 4: return !entry && memcmp(key, "name", 4) == 0 ? M_NAME : 0;
    case 7: return entry && memcmp(key, "records", 7) == 0 ? M_REC : 0;
    case 9: return section == SEC_METHODS && memcmp(key, "signature", 9) == 0 ? M_SIG : 0;
    default: return 0;
    }
}

static int parse_ctx(scan *s, const char *text, size_t len)
{
    size_t err_at = 0;
    iprof_reader *r = s->r;
    int rc = ipi_ctx_parse(text, len, &r->frames, &r->frames_cap, &s->nframes, &err_at,
                           &r->alloc);
    if (rc == IPROF_OK)
        return IPROF_OK;
    if (rc < 0)
        return fail(s, rc, s->ctx_at, "out of memory");
    if (rc == IPI_CTX_RANGE)
        return fail(s, IPROF_ELIMIT, s->ctx_at, "a number in ctx \"%.*s\" does not fit in int64",
                    (int)(len > 64 ? 64 : len), text);
    return fail(s, IPROF_ESCHEMA, s->ctx_at,
                "invalid ctx \"%.*s\" at character %zu: expected method:bci pairs joined by '<'",
                (int)(len > 64 ? 64 : len), text, err_at + 1);
}

/* A ctx string of plain "m:b<m:b" text parsed in one pass, straight from
 * the window. Returns 1 when done, 0 to let the general path (string
 * scanner, then ipi_ctx_parse) handle anything unusual, -1 on no memory. */
static int fast_ctx(scan *s, const char **pp, const char *end)
{
    iprof_reader *r = s->r;
    const char *p = *pp;
    size_t n = 0;
    if (p >= end || *p != '"')
        return 0;
    p++;
    for (;;) {
        if (n == r->frames_cap) {
            size_t elems = r->frames_cap * 2;
            if (ipi_grow(&r->alloc, (void **)&r->frames, &elems, (n + 1) * 2, sizeof(int64_t)))
                return -1;
            r->frames_cap = elems / 2;
        }
        for (int half = 0; half < 2; half++) { /* method id, then bci */
            if (end - p < 21 || (!half && *p == '-') ||
                !plain_digits(&p, &r->frames[2 * n + (size_t)half]))
                return 0;
            if (*p != (half ? '<' : ':') && !(half && *p == '"'))
                return 0;
            p++;
        }
        n++;
        if (p[-1] == '"')
            break;
    }
    s->nframes = n;
    *pp = p;
    return 1;
}

/* One member value of an element; *pp is at the value. */
static int parse_member(scan *s, unsigned m, const char **pp, const char *end)
{
    const char *text;
    size_t len;
    int rc;
    switch (m) {
    case M_ID:
        s->at.field = F_ID;
        s->id_at = IDX(s, *pp);
        return expect_int(s, pp, end, &s->id);
    case M_NAME:
        s->at.field = F_NAME;
        s->name_at = IDX(s, *pp);
        return expect_string(s, pp, end, &s->name, &s->name_len, 0);
    case M_SIG:
    case M_REC:
        s->at.field = m == M_SIG ? F_SIGNATURE : F_RECORDS;
        if (m == M_SIG)
            s->sig_at = IDX(s, *pp);
        else
            s->rec_at = IDX(s, *pp);
        return expect_int_array(s, pp, end, &s->nnums);
    case M_CTX:
        s->at.field = F_CTX;
        s->ctx_at = IDX(s, *pp);
        if ((rc = fast_ctx(s, pp, end)) != 0)
            return rc < 0 ? fail(s, IPROF_ENOMEM, s->ctx_at, "out of memory") : IPROF_OK;
        rc = expect_string(s, pp, end, &text, &len, 1);
        return rc ? rc : parse_ctx(s, text, len);
    default:
        return skip_member(s, pp, end);
    }
}

/* The member keys as GraalVM writes them, matched as raw bytes with their
 * colon; NULL when the key needs the general path (escapes, spaces,
 * unknown keys). */
static const char *fast_key(int section, const char *p, const char *end, unsigned *m)
{
    size_t room = (size_t)(end - p);
    if (section == SEC_TYPES || section == SEC_METHODS) {
        if (room >= 5 && memcmp(p, "\"id\":", 5) == 0) {
            *m = M_ID;
            return p + 5;
        }
        if (room >= 7 && memcmp(p, "\"name\":", 7) == 0) {
            *m = M_NAME;
            return p + 7;
        }
        if (section == SEC_METHODS && room >= 12 && memcmp(p, "\"signature\":", 12) == 0) {
            *m = M_SIG;
            return p + 12;
        }
    } else {
        if (room >= 6 && memcmp(p, "\"ctx\":", 6) == 0) {
            *m = M_CTX;
            return p + 6;
        }
        if (room >= 10 && memcmp(p, "\"records\":", 10) == 0) {
            *m = M_REC;
            return p + 10;
        }
    }
    return NULL;
}

/* Whether p starts with the n bytes of lit (n <= 16): whole-word compares
 * for keys longer than a word, which memcmp calls would not inline. */
static inline int literal_at(const char *p, const char *lit, size_t n)
{
    if (n <= 8)
        return memcmp(p, lit, n) == 0;
    return memcmp(p, lit, 8) == 0 && memcmp(p + n - 8, lit + n - 8, 8) == 0;
}

/* Step past the literal key `lit` at p if it is there and its value
 * follows without whitespace (a constant-size compare the compiler
 * inlines). */
#define MATCH(p, end, lit)                                                   \
    ((size_t)((end) - (p)) > sizeof(lit) - 1 &&                              \
             literal_at((p), (lit), sizeof(lit) - 1) &&                      \
             (unsigned char)(p)[sizeof(lit) - 1] > ' '                       \
         ? ((p) += sizeof(lit) - 1, 1)                                       \
         : 0)

#define NOT_FAST 2 /* fast_members: the element needs the general loop */

/* Parse the members at *pp (just after '{') if they come in the order and
 * spelling GraalVM writes, {"id":1,"name":"x","signature":[2]} or
 * {"ctx":"1:2","records":[3]}, leaving *pp at the closing '}': a straight
 * line without the general loop's key matching and bookkeeping. Returns
 * NOT_FAST as soon as something differs (the caller starts the element
 * over), else what parsing a member returned: a value's error is the one
 * the general loop would report, as it parses that member the same way. */
static int fast_members(scan *s, const char **pp, const char *end)
{
    const char *p = *pp;
    int rc;
    if (s->at.section == SEC_TYPES || s->at.section == SEC_METHODS) {
        if (!MATCH(p, end, "\"id\":"))
            return NOT_FAST;
        if ((rc = parse_member(s, M_ID, &p, end)) != IPROF_OK)
            return rc;
        if (!MATCH(p, end, ",\"name\":"))
            return NOT_FAST;
        if ((rc = parse_member(s, M_NAME, &p, end)) != IPROF_OK)
            return rc;
        if (s->at.section == SEC_METHODS) {
            if (!MATCH(p, end, ",\"signature\":"))
                return NOT_FAST;
            if ((rc = parse_member(s, M_SIG, &p, end)) != IPROF_OK)
                return rc;
        }
    } else {
        if (!MATCH(p, end, "\"ctx\":"))
            return NOT_FAST;
        if ((rc = parse_member(s, M_CTX, &p, end)) != IPROF_OK)
            return rc;
        if (!MATCH(p, end, ",\"records\":"))
            return NOT_FAST;
        if ((rc = parse_member(s, M_REC, &p, end)) != IPROF_OK)
            return rc;
    }
    if (p >= end || *p != '}')
        return NOT_FAST;
    s->at.field = F_NONE;
    *pp = p;
    return IPROF_OK;
}

static const char *member_name(unsigned m)
{
    return m == M_ID ? "id" : m == M_NAME ? "name" : m == M_SIG ? "signature"
         : m == M_CTX ? "ctx" : "records";
}

static const char *element_noun(int section)
{
    return section == SEC_TYPES ? "type" : section == SEC_METHODS ? "method" : "entry";
}

/* Forget what an earlier attempt at the element left: a restarted element
 * (more input was needed, or the fast path gave up) must not keep its
 * numbers, frames, field or array index. */
static void start_element(scan *s)
{
    s->nnums = 0;
    s->nframes = 0;
    s->at.field = F_NONE;
    s->at.sub = -1;
}

/* Parse the object of one element at *pp into the scan's element fields. */
static int parse_element(scan *s, const char **pp, const char *end)
{
    const char *p = *pp;
    unsigned got = 0, need;
    s->el_start = IDX(s, p);
    if (*p != '{')
        return fail(s, starts_other_value(*p) || *p == '-' || (*p >= '0' && *p <= '9')
                           ? IPROF_ESCHEMA : IPROF_ESYNTAX,
                    IDX(s, p), "expected an object");
    p = ipi_json_skip_ws(p + 1, end);
    if (p >= end)
        return MORE;
    start_element(s);
    int fast = fast_members(s, &p, end);
    if (fast == IPROF_OK) {
        *pp = p + 1;
        return IPROF_OK;
    }
    if (fast != NOT_FAST)
        return fast;
    p = ipi_json_skip_ws(WIN(s) + s->el_start + 1, end); /* over, on the general loop */
    start_element(s);
    if (*p != '}') {
        for (;;) {
            const char *key_at = p, *q;
            unsigned m = 0;
            int rc;
            if ((q = fast_key(s->at.section, p, end, &m)) != NULL) {
                p = ipi_json_skip_ws(q, end);
            } else {
                char key[16];
                size_t key_len = 0;
                if ((rc = expect_member_key(s, &p, end, key, &key_len)) != IPROF_OK)
                    return rc;
                m = member_of(s->at.section, key, key_len);
            }
            if (m & got)
                return fail(s, IPROF_ESCHEMA, IDX(s, key_at), "duplicate key \"%s\"",
                            member_name(m));
            if ((rc = parse_member(s, m, &p, end)) != IPROF_OK)
                return rc;
            got |= m;
            s->at.field = F_NONE;
            p = ipi_json_skip_ws(p, end);
            if (p >= end)
                return MORE;
            if (*p == '}')
                break;
            if (*p != ',')
                return fail(s, IPROF_ESYNTAX, IDX(s, p), "expected ',' or '}'");
            p = ipi_json_skip_ws(p + 1, end);
        }
    }
    need = s->at.section == SEC_TYPES     ? (M_ID | M_NAME)
           : s->at.section == SEC_METHODS ? (M_ID | M_NAME | M_SIG)
                                          : (M_CTX | M_REC);
    if (need & ~got) {
        unsigned miss = need & ~got;
        const char *what = miss & M_ID     ? "id"
                           : miss & M_NAME ? "name"
                           : miss & M_SIG  ? "signature"
                           : miss & M_CTX  ? "ctx"
                                           : "records";
        return fail(s, IPROF_ESCHEMA, s->el_start, "%s is missing \"%s\"",
                    element_noun(s->at.section), what);
    }
    *pp = p + 1;
    return IPROF_OK;
}

/* Window index of number k of the integer array starting at `at` (its
 * '['): only for reporting, so a re-scan is fine. */
static size_t nth_number(const scan *s, size_t at, size_t k)
{
    const char *p = WIN(s) + at + 1, *end = WIN(s) + s->src.len;
    for (size_t i = 0;; i++) {
        p = ipi_json_skip_ws(p, end);
        if (i == k || p >= end)
            return IDX(s, p);
        while (p < end && *p != ',' && *p != ']')
            p++;
        if (p < end)
            p++;
    }
}

/* Whether a reference is known good already: its section has been read
 * and has the id. The common case, inline; check_ref() does the rest. */
static inline int ref_known(const scan *s, int is_type, int64_t id)
{
    return is_type ? (s->done & SEC_BIT(SEC_TYPES)) && ipi_idset_has(&s->r->type_ids, id)
                   : (s->done & SEC_BIT(SEC_METHODS)) && ipi_idset_has(&s->r->method_ids, id);
}

/* Check that a type or method id exists; wait for its section if that has
 * not been read yet. The position to report is the window index `at`, or
 * with k != SIZE_MAX number k of the array at `at` (found only when
 * needed: the common case must not pay for it). */
static int check_ref(scan *s, int64_t id, int is_type, size_t at, size_t k)
{
    iprof_reader *r = s->r;
    int sec = is_type ? SEC_TYPES : SEC_METHODS;
    ipi_idset *set = is_type ? &r->type_ids : &r->method_ids;
    const char *noun = is_type ? "type" : "method";
    if (s->done & SEC_BIT(sec)) {
        if (ipi_idset_has(set, id))
            return IPROF_OK;
        if (k != SIZE_MAX)
            at = nth_number(s, at, k);
        return violation(s, IPROF_EDANGLING, IPROF_SEVERITY_ERROR, at,
                         "%s id %lld is not defined", noun, (long long)id);
    }
    if (k != SIZE_MAX)
        at = nth_number(s, at, k);
    if (ipi_grow(&r->alloc, (void **)&r->pending, &r->pending_cap, r->pending_count + 1,
                 sizeof *r->pending))
        return fail(s, IPROF_ENOMEM, at, "out of memory");
    pending_ref *pr = &r->pending[r->pending_count++];
    pr->id = id;
    pr->is_type = is_type;
    pr->at = s->at;
    pr->offset = s->src.base + at;
    locate(s, pr->offset, &pr->line, &pr->column);
    return IPROF_OK;
}

/* Record a unique id; a repeat is a violation at the id. */
static int check_unique(scan *s, int is_type)
{
    iprof_reader *r = s->r;
    if (r->flags & IPROF_READ_NO_REFERENCES)
        return IPROF_OK;
    ipi_idset *set = is_type ? &r->type_ids : &r->method_ids;
    int added;
    if (ipi_idset_add(set, &r->alloc, s->id, &added))
        return fail(s, IPROF_ENOMEM, s->el_start, "out of memory");
    if (!added) {
        s->at.field = F_ID;
        int rc = violation(s, IPROF_ESCHEMA, IPROF_SEVERITY_ERROR, s->id_at,
                           "duplicate %s id %lld", is_type ? "type" : "method",
                           (long long)s->id);
        s->at.field = F_NONE;
        return rc;
    }
    return IPROF_OK;
}

static int stopped(scan *s, const char *which)
{
    return fail(s, IPROF_ESTOPPED, s->el_start, "stopped by the %s callback", which);
}

static int process_type(scan *s)
{
    int rc = check_unique(s, 1);
    if (rc)
        return rc;
    if (s->cb && s->cb->on_type && s->cb->on_type(s->id, s->name, s->name_len, s->payload))
        return stopped(s, "on_type");
    return IPROF_OK;
}

static int process_method(scan *s)
{
    iprof_reader *r = s->r;
    int rc = check_unique(s, 0);
    if (rc)
        return rc;
    s->at.field = F_SIGNATURE;
    if (s->nnums < 2 &&
        (rc = violation(s, IPROF_ESCHEMA, IPROF_SEVERITY_ERROR, s->sig_at,
                        "signature must hold the declaring and return type ids")))
        return rc;
    for (size_t i = 0; i < s->nnums; i++) {
        s->at.sub = (int64_t)i;
        if (!(r->flags & IPROF_READ_NO_REFERENCES) &&
            !ref_known(s, 1, r->nums[i]) && (rc = check_ref(s, r->nums[i], 1, s->sig_at, i)))
            return rc;
    }
    s->at.field = F_NONE;
    s->at.sub = -1;
    if (s->cb && s->cb->on_method &&
        s->cb->on_method(s->id, s->name, s->name_len, r->nums, s->nnums, s->payload))
        return stopped(s, "on_method");
    return IPROF_OK;
}

static iprof_entry_cb entry_callback(const iprof_read_callbacks *cb, int kind)
{
    if (!cb)
        return NULL;
    switch (kind) {
    case IPROF_KIND_CALL_COUNT: return cb->on_call_count;
    case IPROF_KIND_CONDITIONAL: return cb->on_conditional;
    case IPROF_KIND_VIRTUAL_INVOKE: return cb->on_virtual_invoke;
    case IPROF_KIND_MONITOR: return cb->on_monitor;
    case IPROF_KIND_SAMPLING: return cb->on_sampling;
    default: return cb->on_instanceof;
    }
}

static int check_entry_refs(scan *s, int kind)
{
    iprof_reader *r = s->r;
    const ipi_kind_layout *lay = ipi_kind_layout_of(kind);
    int rc;
    if (r->flags & IPROF_READ_NO_REFERENCES)
        return IPROF_OK;
    if (lay->checks_methods) {
        s->at.field = F_CTX;
        for (size_t i = 0; i < s->nframes; i++)
            if (!ref_known(s, 0, r->frames[2 * i]) &&
                (rc = check_ref(s, r->frames[2 * i], 0, s->ctx_at, SIZE_MAX)))
                return rc;
    }
    if (lay->type_slot >= 0) {
        s->at.field = F_RECORDS;
        for (size_t i = (size_t)lay->type_slot; i < s->nnums; i += (size_t)lay->group) {
            s->at.sub = (int64_t)i;
            if (!ref_known(s, 1, r->nums[i]) && (rc = check_ref(s, r->nums[i], 1, s->rec_at, i)))
                return rc;
        }
    }
    s->at.sub = -1;
    s->at.field = F_NONE;
    return IPROF_OK;
}

static int process_entry(scan *s)
{
    iprof_reader *r = s->r;
    int kind = s->at.section;
    int rule = ipi_rule_check_entry(kind, r->frames, s->nframes, r->nums, s->nnums);
    int rc;
    if (rule != IPI_RULE_OK) {
        int on_ctx = ipi_rule_is_ctx(rule);
        s->at.field = on_ctx ? F_CTX : F_RECORDS;
        rc = violation(s, IPROF_ESCHEMA, IPROF_SEVERITY_ERROR, on_ctx ? s->ctx_at : s->rec_at,
                       "%s", ipi_rule_message(rule));
        s->at.field = F_NONE;
        if (rc)
            return rc;
    }
    if ((rc = check_entry_refs(s, kind)))
        return rc;
    iprof_entry_cb fn = entry_callback(s->cb, kind);
    if (fn && fn(kind, r->frames, s->nframes, r->nums, s->nnums, s->payload))
        return stopped(s, iprof_kind_name(kind));
    return IPROF_OK;
}

/* ------------------------------------------------------------------------ */
/* Top level                                                                */

static int section_of(const char *key, size_t len)
{
    if (len == 18 && memcmp(key, "instanceOfProfiles", 18) == 0)
        return IPROF_KIND_INSTANCEOF; /* GraalVM's spelling; the document's is below */
    if (len == 7 && memcmp(key, "version", 7) == 0)
        return SEC_VERSION;
    if (len == 5 && memcmp(key, "types", 5) == 0)
        return SEC_TYPES;
    if (len == 7 && memcmp(key, "methods", 7) == 0)
        return SEC_METHODS;
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        const char *name = iprof_kind_name(k);
        if (strlen(name) == len && memcmp(key, name, len) == 0)
            return k;
    }
    return SEC_UNKNOWN;
}

/* instanceofProfiles in a file whose version lacks them. */
static int check_instanceof_version(scan *s)
{
    if (!s->iof_pending || !s->have_version || ipi_version_has_instanceof(&s->version))
        return IPROF_OK;
    s->iof_pending = 0;
    path_pos saved = s->at;
    s->at = (path_pos){IPROF_KIND_INSTANCEOF, F_NONE, UINT64_MAX, -1};
    int rc;
    /* The position was located when the section was met. */
    uint64_t off = s->iof_offset;
    if (off >= s->src.base && off <= s->src.base + s->src.len) {
        rc = violation(s, IPROF_EVERSION, IPROF_SEVERITY_ERROR, (size_t)(off - s->src.base),
                       "%s requires format 1.1.0 or later, the file is %s",
                       section_name(s, IPROF_KIND_INSTANCEOF), s->version_text);
    } else {
        char msg[IPI_MESSAGE_MAX], path[IPI_PATH_MAX];
        snprintf(msg, sizeof msg, "%s requires format 1.1.0 or later, the file is %s",
                 section_name(s, IPROF_KIND_INSTANCEOF), s->version_text);
        format_path(s, &s->at, path, sizeof path);
        iprof_error e = {IPROF_EVERSION, IPROF_SEVERITY_ERROR, off, s->iof_line,
                         s->iof_column, msg, path, NULL, 0, 0, 0, 0, 0, 0};
        rc = report_located(s, &e);
    }
    s->at = saved;
    return rc;
}

/* The element limit holds for every source: streamed windows enforce it
 * as they grow, this catches elements of in-memory documents. */
static int check_size(scan *s, size_t from, size_t to)
{
    if (to - from <= s->r->max_element)
        return IPROF_OK;
    return fail(s, IPROF_ELIMIT, from, "an element is larger than the limit of %zu bytes",
                s->r->max_element);
}

static int process_version(scan *s, const char *text, size_t len, size_t at)
{
    snprintf(s->version_text, sizeof s->version_text, "%.*s", (int)(len > 40 ? 40 : len), text);
    if (ipi_version_parse(text, len, &s->version))
        return fail(s, IPROF_EVERSION, at, "malformed format version \"%s\"", s->version_text);
    switch (ipi_version_classify(&s->version)) {
    case IPI_VERSION_LEGACY:
        return fail(s, IPROF_EVERSION, at,
                    "format version %s is not supported: its legacy layout predates 0.3",
                    s->version_text);
    case IPI_VERSION_FUTURE:
        return fail(s, IPROF_EVERSION, at,
                    "format version %s is not supported: major version %lld is newer than 1",
                    s->version_text, (long long)s->version.major);
    case IPI_VERSION_COMPAT: {
        int rc = violation(s, IPROF_EVERSION, IPROF_SEVERITY_WARNING, at,
                           "unknown format version %s, read as %s", s->version_text,
                           s->version.major == 0 ? "0.4.0" : "1.x");
        if (rc)
            return rc;
        break;
    }
    default:
        break;
    }
    s->have_version = 1;
    if (s->cb && s->cb->on_version && s->cb->on_version(text, len, s->payload))
        return fail(s, IPROF_ESTOPPED, at, "stopped by the on_version callback");
    return check_instanceof_version(s);
}

static int step_begin(scan *s)
{
    const char *p = WIN(s) + s->pos, *end = WIN(s) + s->src.len;
    /* A UTF-8 byte order mark is tolerated (RFC 8259 section 8.1). */
    if (s->src.base + s->pos == 0) {
        size_t have = (size_t)(end - p) < 3 ? (size_t)(end - p) : 3;
        if (have && memcmp(p, "\xEF\xBB\xBF", have) == 0) {
            if (have < 3)
                return s->src.eof ? fail(s, IPROF_ESYNTAX, IDX(s, p), "unexpected character")
                                  : MORE;
            p += 3;
        }
    }
    p = ipi_json_skip_ws(p, end);
    if (p >= end)
        return MORE;
    if (*p == '{') {
        s->pos = IDX(s, p + 1);
        s->state = ST_KEY;
        s->first = 1;
        return IPROF_OK;
    }
    /* Not an object: say whether it is JSON at all. */
    const char *after, *err = p, *why = NULL;
    int rc = ipi_json_skip_value(&s->r->stack, p, end, s->src.eof, &after, &err, &why);
    if (rc == IPI_JSON_MORE)
        return MORE;
    if (rc)
        return json_fail(s, rc, err, why);
    return fail(s, IPROF_ESCHEMA, IDX(s, p), "an iprof document must be a JSON object");
}

static int close_document(scan *s, const char *p);

/* A known key may appear once; the two spellings of the instanceof key
 * are one key. Remembers the spelling the file uses. */
static int check_key_once(scan *s, int sec, size_t at)
{
    const char *key = s->r->key;
    if (sec == IPROF_KIND_INSTANCEOF) {
        int spelling = key[8] == 'O' ? IPROF_INSTANCEOF_KEY_CAMEL : IPROF_INSTANCEOF_KEY_LOWER;
        const char *first = iprof_instanceof_key_name(s->iof_key);
        int twice = (s->seen & SEC_BIT(sec)) && spelling != s->iof_key;
        s->iof_key = spelling; /* the path names the key at hand */
        if (twice)
            return fail(s, IPROF_ESCHEMA, at,
                        "both %s and %s: one instanceof section spelled two ways", first, key);
    }
    if (s->seen & SEC_BIT(sec))
        return fail(s, IPROF_ESCHEMA, at, "duplicate key \"%s\"", key);
    return IPROF_OK;
}

static int step_key(scan *s)
{
    iprof_reader *r = s->r;
    const char *p = ipi_json_skip_ws(WIN(s) + s->pos, WIN(s) + s->src.len);
    const char *end = WIN(s) + s->src.len, *after, *err = p, *why = NULL;
    int escaped;
    s->at = (path_pos){SEC_NONE, F_NONE, UINT64_MAX, -1};
    if (p >= end)
        return MORE;
    if (*p == '}' && s->first)
        return close_document(s, p);
    if (*p != '"')
        return fail(s, IPROF_ESYNTAX, IDX(s, p), s->first ? "expected a key or '}'" : "expected a key");
    int rc = ipi_json_scan_string(p, end, &after, &escaped, &err, &why);
    if (rc == IPI_JSON_MORE)
        return MORE;
    if (rc)
        return json_fail(s, rc, err, why);
    const char *colon = ipi_json_skip_ws(after, end);
    if (colon >= end)
        return MORE;
    if (*colon != ':')
        return fail(s, IPROF_ESYNTAX, IDX(s, colon), "expected ':' after key");
    size_t raw = (size_t)(after - p) - 2;
    if (ipi_grow(&r->alloc, (void **)&r->key, &r->key_cap, raw + 1, 1))
        return fail(s, IPROF_ENOMEM, IDX(s, p), "out of memory");
    if (escaped)
        r->key_len = ipi_json_decode(p + 1, raw, r->key);
    else {
        memcpy(r->key, p + 1, raw);
        r->key[raw] = '\0';
        r->key_len = raw;
    }
    int sec = section_of(r->key, r->key_len);
    s->at.section = sec;
    if (sec != SEC_UNKNOWN) {
        if ((rc = check_key_once(s, sec, IDX(s, p))) != IPROF_OK)
            return rc;
        s->seen |= SEC_BIT(sec);
    } else if ((rc = violation(s, IPROF_ESCHEMA, IPROF_SEVERITY_WARNING, IDX(s, p),
                               "unknown top-level key \"%.64s\": not interpreted, kept as is "
                               "by models",
                               r->key)) != IPROF_OK) {
        return rc;
    }
    if (s->cb && s->cb->version >= 2 && s->cb->on_key &&
        s->cb->on_key(r->key, r->key_len, sec, s->payload))
        return fail(s, IPROF_ESTOPPED, IDX(s, p), "stopped by the on_key callback");
    s->pos = IDX(s, colon + 1);
    s->state = ST_VALUE;
    return IPROF_OK;
}

static int step_value(scan *s)
{
    const char *end = WIN(s) + s->src.len;
    const char *p = ipi_json_skip_ws(WIN(s) + s->pos, end);
    int sec = s->at.section, rc;
    if (p >= end)
        return MORE;
    if (sec == SEC_VERSION) {
        const char *text;
        size_t len;
        s->el_start = IDX(s, p);
        if ((rc = expect_string(s, &p, end, &text, &len, 0)) != IPROF_OK)
            return rc;
        if ((rc = process_version(s, text, len, s->el_start)) != IPROF_OK)
            return rc;
    } else if (sec == SEC_UNKNOWN) {
        const char *after, *err = p, *why = NULL;
        rc = ipi_json_skip_value(&s->r->stack, p, end, s->src.eof, &after, &err, &why);
        if (rc == IPI_JSON_MORE)
            return MORE;
        if (rc)
            return json_fail(s, rc, err, why);
        s->el_start = IDX(s, p);
        if ((rc = check_size(s, s->el_start, IDX(s, after))) != IPROF_OK)
            return rc;
        if (s->cb && s->cb->on_unknown &&
            s->cb->on_unknown(s->r->key, s->r->key_len, p, (size_t)(after - p), s->payload))
            return stopped(s, "on_unknown");
        p = after;
    } else {
        if (*p != '[')
            return fail(s, starts_other_value(*p) || *p == '-' || (*p >= '0' && *p <= '9')
                               ? IPROF_ESCHEMA : IPROF_ESYNTAX,
                        IDX(s, p), "expected an array");
        if (sec == IPROF_KIND_INSTANCEOF) {
            s->iof_pending = 1;
            s->iof_offset = s->src.base + IDX(s, p);
            locate(s, s->iof_offset, &s->iof_line, &s->iof_column);
            if ((rc = check_instanceof_version(s)) != IPROF_OK)
                return rc;
        }
        s->pos = IDX(s, p + 1);
        s->first = 1;
        s->at.elem = 0;
        s->state = ST_ELEMENT;
        return IPROF_OK;
    }
    s->pos = IDX(s, p);
    s->state = ST_AFTER_MEMBER;
    return IPROF_OK;
}

static void close_section(scan *s, const char *p)
{
    s->done |= SEC_BIT(s->at.section);
    s->at.elem = UINT64_MAX;
    s->pos = IDX(s, p + 1);
    s->state = ST_AFTER_MEMBER;
}

/* Past the comma at p, to the next element of the section. */
static void next_element(scan *s, const char *p)
{
    s->at.elem++;
    s->first = 0;
    s->pos = IDX(s, p + 1);
}

static int step_element(scan *s)
{
    const char *end = WIN(s) + s->src.len;
    const char *p = ipi_json_skip_ws(WIN(s) + s->pos, end);
    int rc;
    if (p >= end)
        return MORE;
    if (*p == ']') {
        if (!s->first)
            return fail(s, IPROF_ESYNTAX, IDX(s, p), "expected a value after ','");
        close_section(s, p);
        return IPROF_OK;
    }
    if ((rc = parse_element(s, &p, end)) != IPROF_OK)
        return rc;
    if ((rc = check_size(s, s->el_start, IDX(s, p))) != IPROF_OK)
        return rc;
    if (s->at.section == SEC_TYPES)
        rc = process_type(s);
    else if (s->at.section == SEC_METHODS)
        rc = process_method(s);
    else
        rc = process_entry(s);
    if (rc)
        return rc;
    if (p < end && *p == ',') { /* the usual next element: no extra step */
        next_element(s, p);
        return IPROF_OK;
    }
    s->pos = IDX(s, p);
    s->state = ST_AFTER_ELEMENT;
    return IPROF_OK;
}

static int step_after_element(scan *s)
{
    const char *end = WIN(s) + s->src.len;
    const char *p = ipi_json_skip_ws(WIN(s) + s->pos, end);
    if (p >= end)
        return MORE;
    if (*p == ',') {
        next_element(s, p);
        s->state = ST_ELEMENT;
        return IPROF_OK;
    }
    if (*p != ']')
        return fail(s, IPROF_ESYNTAX, IDX(s, p), "expected ',' or ']'");
    close_section(s, p);
    return IPROF_OK;
}

/* Report references that waited for a later section and are missing. */
static int resolve_pending(scan *s)
{
    iprof_reader *r = s->r;
    for (size_t i = 0; i < r->pending_count; i++) {
        const pending_ref *pr = &r->pending[i];
        if (ipi_idset_has(pr->is_type ? &r->type_ids : &r->method_ids, pr->id))
            continue;
        char msg[IPI_MESSAGE_MAX], path[IPI_PATH_MAX];
        snprintf(msg, sizeof msg, "%s id %lld is not defined", pr->is_type ? "type" : "method",
                 (long long)pr->id);
        format_path(s, &pr->at, path, sizeof path);
        iprof_error e = {IPROF_EDANGLING, IPROF_SEVERITY_ERROR, pr->offset, pr->line,
                         pr->column, msg, path, NULL, 0, 0, 0, 0, 0, 0};
        int rc = report_located(s, &e);
        if (rc)
            return rc;
    }
    return IPROF_OK;
}

/* At the document's closing brace p: the checks that need the whole
 * document. */
static int close_document(scan *s, const char *p)
{
    size_t at = IDX(s, p);
    static const struct { int sec; const char *name; } required[] = {
        {SEC_VERSION, "version"}, {SEC_TYPES, "types"}, {SEC_METHODS, "methods"}};
    s->at = (path_pos){SEC_NONE, F_NONE, UINT64_MAX, -1};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!(s->seen & SEC_BIT(required[i].sec)))
            return fail(s, IPROF_ESCHEMA, at, "the document is missing \"%s\"", required[i].name);
    int rc = check_instanceof_version(s);
    if (rc || (rc = resolve_pending(s)))
        return rc;
    s->pos = at + 1;
    s->state = ST_END;
    return IPROF_OK;
}

static int step_after_member(scan *s)
{
    const char *end = WIN(s) + s->src.len;
    const char *p = ipi_json_skip_ws(WIN(s) + s->pos, end);
    s->at = (path_pos){SEC_NONE, F_NONE, UINT64_MAX, -1};
    if (p >= end)
        return MORE;
    if (*p == ',') {
        s->first = 0;
        s->pos = IDX(s, p + 1);
        s->state = ST_KEY;
        return IPROF_OK;
    }
    if (*p != '}')
        return fail(s, IPROF_ESYNTAX, IDX(s, p), "expected ',' or '}'");
    return close_document(s, p);
}

static int step_end(scan *s)
{
    const char *end = WIN(s) + s->src.len;
    const char *p = ipi_json_skip_ws(WIN(s) + s->pos, end);
    if (p < end)
        return fail(s, IPROF_ESYNTAX, IDX(s, p), "unexpected data after the document");
    if (!s->src.eof) {
        s->pos = IDX(s, p);
        return MORE;
    }
    s->state = ST_DONE;
    return IPROF_OK;
}

static int step(scan *s)
{
    switch (s->state) {
    case ST_BEGIN: return step_begin(s);
    case ST_KEY: return step_key(s);
    case ST_VALUE: return step_value(s);
    case ST_ELEMENT: return step_element(s);
    case ST_AFTER_ELEMENT: return step_after_element(s);
    case ST_AFTER_MEMBER: return step_after_member(s);
    default: return step_end(s);
    }
}

static int source_fail(scan *s, int rc)
{
    if (rc == IPROF_ELIMIT)
        return fail(s, rc, s->pos, "an element is larger than the limit of %zu bytes",
                    s->r->max_element);
    if (s->src.message) /* gzip: corrupt, truncated, unsupported, no memory */
        return fail(s, rc, s->pos, "%s", s->src.message);
    if (rc == IPROF_ENOMEM)
        return fail(s, rc, s->pos, "out of memory growing the input window");
    if (s->src.err_no) {
        char buf[128] = "";
        strerror_r(s->src.err_no, buf, sizeof buf);
        return fail(s, IPROF_EIO, s->pos, "read failed: %s", buf);
    }
    return fail(s, IPROF_EIO, s->pos, "the read callback failed");
}

static int run(scan *s)
{
    for (;;) {
        int rc = step(s);
        if (rc == IPROF_OK) {
            if (s->state == ST_DONE)
                return IPROF_OK;
            continue;
        }
        if (rc != MORE)
            return rc;
        if (s->src.eof)
            return fail(s, IPROF_ESYNTAX, s->src.len, "unexpected end of input");
        forget(s, s->pos);
        rc = ipi_source_refill(&s->src, s->pos);
        s->pos = 0;
        if (rc)
            return source_fail(s, rc);
    }
}

/* ------------------------------------------------------------------------ */
/* Public API                                                               */

IPROF_API int iprof_read_options_init(iprof_read_options *opts, unsigned int version)
{
    if (!opts || version == 0 || version > IPROF_READ_OPTIONS_VERSION)
        return IPROF_EINVAL;
    /* A version 1 struct is shorter: fill only its fields. */
    memset(opts, 0, version >= 2 ? sizeof *opts : offsetof(iprof_read_options, max_diagnostics));
    opts->version = version;
    return IPROF_OK;
}

IPROF_API int iprof_reader_new(iprof_reader **out, const iprof_read_options *opts)
{
    iprof_allocator alloc;
    if (!out)
        return IPROF_EINVAL;
    *out = NULL;
    /* The rule of every options struct: a version from 1 to the headers',
     * and no flag this library does not know. */
    if (opts && (opts->version == 0 || opts->version > IPROF_READ_OPTIONS_VERSION ||
                 (opts->flags & ~(IPROF_READ_STRICT | IPROF_READ_NO_REFERENCES |
                                  IPROF_READ_THREADED))))
        return IPROF_EINVAL;
    ipi_allocator_init(&alloc, opts ? opts->allocator : NULL);
    iprof_reader *r = ipi_malloc(&alloc, sizeof *r);
    if (!r)
        return IPROF_ENOMEM;
    memset(r, 0, sizeof *r);
    r->alloc = alloc;
    if (opts) {
        r->flags = opts->flags;
        r->chunk = opts->chunk_size;
        r->max_element = opts->max_element_size;
        r->max_depth = opts->max_depth;
        if (opts->version >= 2)
            r->max_diags = opts->max_diagnostics;
    }
    if (!r->chunk)
        r->chunk = DEFAULT_CHUNK;
    if (!r->max_element)
        r->max_element = DEFAULT_MAX_ELEMENT;
    if (!r->max_diags)
        r->max_diags = DEFAULT_MAX_DIAGS;
    r->stack.alloc = &r->alloc;
    r->stack.max_depth = r->max_depth;
    ipi_errbuf_clear(&r->error);
    ipi_diags_init(&r->diags, &r->alloc);
    ipi_idset_init(&r->type_ids);
    ipi_idset_init(&r->method_ids);
    *out = r;
    return IPROF_OK;
}

IPROF_API void iprof_reader_free(iprof_reader *r)
{
    if (!r)
        return;
    iprof_allocator a = r->alloc;
    ipi_diags_free(&r->diags);
    ipi_free(&a, r->window, r->window_cap);
    ipi_free(&a, r->frames, r->frames_cap * 2 * sizeof *r->frames);
    ipi_free(&a, r->nums, r->nums_cap * sizeof *r->nums);
    ipi_free(&a, r->text, r->text_cap);
    ipi_free(&a, r->key, r->key_cap);
    ipi_free(&a, r->pending, r->pending_cap * sizeof *r->pending);
    ipi_json_stack_free(&r->stack);
    ipi_idset_free(&r->type_ids, &a);
    ipi_idset_free(&r->method_ids, &a);
    ipi_free(&a, r, sizeof *r);
}

/* Reset the reader for a new read; EINVAL for bad callback structs. */
static int begin_read(iprof_reader *r, const iprof_read_callbacks *cb)
{
    ipi_errbuf_clear(&r->error);
    ipi_diags_clear(&r->diags);
    r->dropped[0] = r->dropped[1] = 0;
    ipi_idset_clear(&r->type_ids);
    ipi_idset_clear(&r->method_ids);
    r->pending_count = 0;
    r->key_len = 0;
    if (cb && (cb->version < 1 || cb->version > IPROF_READ_CALLBACKS_VERSION))
        return ipi_errbuf_set(&r->error, IPROF_EINVAL,
                              "unsupported iprof_read_callbacks version %u", cb->version);
    return IPROF_OK;
}

static int read_source(iprof_reader *r, ipi_source *src, const iprof_read_callbacks *cb,
                       void *payload)
{
    scan s;
    memset(&s, 0, sizeof s);
    s.r = r;
    s.cb = cb;
    s.payload = payload;
    s.src = *src;
    s.state = ST_BEGIN;
    s.at = (path_pos){SEC_NONE, F_NONE, UINT64_MAX, -1};
    s.last_nl = s.base_last_nl = UINT64_MAX;
    int rc = run(&s);
    ipi_source_close(&s.src);
    return rc;
}

static void stream_source(iprof_reader *r, ipi_source *src, int fd, iprof_read_fn fn,
                          void *fn_payload)
{
    size_t max_window = r->max_element > SIZE_MAX - r->chunk ? SIZE_MAX
                                                             : r->max_element + r->chunk;
    ipi_source_init_stream(src, fd, fn, fn_payload, &r->window, &r->window_cap, r->chunk,
                           max_window, &r->alloc);
}

IPROF_API int iprof_reader_read_buffer(iprof_reader *r, const void *data, size_t len,
                                       const iprof_read_callbacks *cb, void *payload)
{
    if (!r)
        return IPROF_EINVAL;
    int rc = begin_read(r, cb);
    if (rc)
        return rc;
    if (!data && len)
        return ipi_errbuf_set(&r->error, IPROF_EINVAL, "NULL buffer of %zu bytes", len);
    ipi_source src;
    if (ipi_gzip_magic(data, len)) { /* inflated through the window */
        size_t max_window = r->max_element > SIZE_MAX - r->chunk ? SIZE_MAX
                                                                 : r->max_element + r->chunk;
        ipi_source_init_gzip_buffer(&src, data, len, &r->window, &r->window_cap, r->chunk,
                                    max_window, &r->alloc);
    } else {
        ipi_source_init_buffer(&src, data, len);
    }
    return read_source(r, &src, cb, payload);
}

IPROF_API int iprof_reader_read_fd(iprof_reader *r, int fd, const iprof_read_callbacks *cb,
                                   void *payload)
{
    if (!r)
        return IPROF_EINVAL;
    int rc = begin_read(r, cb);
    if (rc)
        return rc;
    if (fd < 0)
        return ipi_errbuf_set(&r->error, IPROF_EINVAL, "invalid file descriptor %d", fd);
    ipi_source src;
    stream_source(r, &src, fd, NULL, NULL);
    return read_source(r, &src, cb, payload);
}

IPROF_API int iprof_reader_read_callback(iprof_reader *r, iprof_read_fn read_fn,
                                         void *read_payload, const iprof_read_callbacks *cb,
                                         void *payload)
{
    if (!r)
        return IPROF_EINVAL;
    int rc = begin_read(r, cb);
    if (rc)
        return rc;
    if (!read_fn)
        return ipi_errbuf_set(&r->error, IPROF_EINVAL, "NULL read function");
    ipi_source src;
    stream_source(r, &src, -1, read_fn, read_payload);
    return read_source(r, &src, cb, payload);
}

IPROF_API int iprof_reader_read_path(iprof_reader *r, const char *path,
                                     const iprof_read_callbacks *cb, void *payload)
{
    if (!r)
        return IPROF_EINVAL;
    int rc = begin_read(r, cb);
    if (rc)
        return rc;
    if (!path)
        return ipi_errbuf_set(&r->error, IPROF_EINVAL, "NULL path");
    int fd;
    do
        fd = open(path, O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    char why[128] = "";
    if (fd < 0) {
        strerror_r(errno, why, sizeof why);
        return ipi_errbuf_set(&r->error, IPROF_EIO, "cannot open %s: %s", path, why);
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        return ipi_errbuf_set(&r->error, IPROF_EIO, "cannot read %s: it is a directory", path);
    }
    ipi_source src;
    stream_source(r, &src, fd, NULL, NULL);
    rc = read_source(r, &src, cb, payload);
    close(fd);
    return rc;
}

IPROF_API const iprof_error *iprof_reader_error(const iprof_reader *r)
{
    return r ? ipi_errbuf_get(&r->error) : NULL;
}

IPROF_API size_t iprof_reader_diag_count(const iprof_reader *r)
{
    return r ? r->diags.count : 0;
}

IPROF_API size_t iprof_reader_diag_dropped(const iprof_reader *r, int severity)
{
    if (!r)
        return 0;
    if (severity == IPROF_SEVERITY_ERROR || severity == IPROF_SEVERITY_WARNING)
        return r->dropped[severity == IPROF_SEVERITY_WARNING];
    return r->dropped[0] + r->dropped[1];
}

IPROF_API const iprof_error *iprof_reader_diag(const iprof_reader *r, size_t index)
{
    return r && index < r->diags.count ? &r->diags.items[index] : NULL;
}

/* ------------------------------------------------------------------------ */
/* Internal interface (reader_internal.h)                                   */

const iprof_allocator *ipi_reader_allocator(const iprof_reader *r)
{
    return &r->alloc;
}

unsigned ipi_reader_flags(const iprof_reader *r)
{
    return r->flags;
}

void ipi_reader_fail(iprof_reader *r, int status, const char *message)
{
    ipi_diags_clear(&r->diags);
    ipi_errbuf_set(&r->error, status, "%s", message);
}

void ipi_reader_replace_error(iprof_reader *r, int status, const char *message)
{
    if (!r->error.set) { /* the read itself succeeded: no position */
        ipi_errbuf_set(&r->error, status, "%s", message);
        return;
    }
    r->error.err.status = status;
    snprintf(r->error.message, sizeof r->error.message, "%s", message);
}
