/* One element's object, {"id":..,"name":..} or {"ctx":..,"records":..}:
 * the exact-layout fast path (GraalVM's minified spelling, in a straight
 * line) beside the general parser that takes any valid JSON and reports
 * what is wrong (scan.h). The fast path gives up (0, or NOT_FAST for a
 * whole element) on anything unusual and the general parser starts the
 * element over; member values go through the same parse_member either
 * way, so a value's error is the same on both. */
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "ctx.h"
#include "scan.h"

/* The members of an element, as bits of what was seen. */
enum { M_ID = 1, M_NAME = 2, M_SIG = 4, M_CTX = 8, M_REC = 16 };

static int parse_member(scan *s, unsigned m, const char **pp, const char *end);

/* ------------------------------------------------------------------------ */
/* The exact-layout fast path: GraalVM's minified spelling, in a line       */

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

/* ------------------------------------------------------------------------ */
/* The general parser: any valid JSON, and what is wrong with the rest      */

static int expect_int(scan *s, const char **pp, const char *end, int64_t *out)
{
    const char *p = *pp, *err = p, *after;
    if (fast_int(pp, end, out))
        return IPROF_OK;
    if (p >= end)
        return MORE;
    if (starts_other_value(*p))
        return ipi_scan_fail(s, IPROF_ESCHEMA, IDX(s, p), "expected an integer");
    int rc = ipi_json_parse_int(p, end, s->src.eof, out, &after, &err);
    if (rc == IPI_JSON_MORE)
        return MORE;
    if (rc == IPI_JSON_BAD)
        return ipi_scan_fail(s, IPROF_ESYNTAX, IDX(s, err), *p == '-' || (*p >= '0' && *p <= '9')
                                                      ? "invalid number" : "expected a JSON value");
    if (rc)
        return ipi_scan_json_fail(s, rc, err, NULL);
    *pp = after;
    return IPROF_OK;
}

/* Grow a reader buffer; failure is fatal at the element start. */
static int grow(scan *s, void **p, size_t *cap, size_t need, size_t size)
{
    if (ipi_grow(&s->r->alloc, p, cap, need, size))
        return ipi_scan_fail(s, IPROF_ENOMEM, s->el_start, "out of memory");
    return IPROF_OK;
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
            return ipi_scan_fail(s, IPROF_ENOMEM, s->el_start, "out of memory");
    }
    if (*p != '[')
        return ipi_scan_fail(s, starts_other_value(*p) || *p == '-' || (*p >= '0' && *p <= '9')
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
                return ipi_scan_fail(s, IPROF_ESYNTAX, IDX(s, p), "expected ',' or ']'");
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
        return ipi_scan_fail(s, starts_other_value(*p) || *p == '-' || (*p >= '0' && *p <= '9')
                           ? IPROF_ESCHEMA : IPROF_ESYNTAX,
                    IDX(s, p), "expected a string");
    int rc;
    if ((after = ipi_json_plain_string(p, end)) != NULL)
        escaped = 0;
    else if ((rc = ipi_json_scan_string(p, end, &after, &escaped, &err, &why)) == IPI_JSON_MORE)
        return MORE;
    else if (rc)
        return ipi_scan_json_fail(s, rc, err, why);
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

/* The top level's strings (the version, unknown keys) use the same parser;
 * the wrapper keeps expect_string static, for the element paths to inline. */
int ipi_scan_string(scan *s, const char **pp, const char *end, const char **str, size_t *len,
                    int borrow)
{
    return expect_string(s, pp, end, str, len, borrow);
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
        return ipi_scan_fail(s, IPROF_ESYNTAX, IDX(s, p), "expected a string key");
    int rc = ipi_json_scan_string(p, end, &after, &escaped, &err, &why);
    if (rc == IPI_JSON_MORE)
        return MORE;
    if (rc)
        return ipi_scan_json_fail(s, rc, err, why);
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
        return ipi_scan_fail(s, IPROF_ESYNTAX, IDX(s, p), "expected ':' after key");
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
        return ipi_scan_json_fail(s, rc, err, why);
    *pp = after;
    return IPROF_OK;
}

/* The member keys of the legacy 0.2.0 layout: typeName, methodName,
 * methodBciList for name and ctx; monitorsProfile is one object with
 * records only. */
static unsigned legacy_member_of(int section, const char *key, size_t len)
{
    int entry = section != SEC_TYPES && section != SEC_METHODS;
    switch (len) {
    case 2: return !entry && memcmp(key, "id", 2) == 0 ? M_ID : 0;
    case 7: return entry && memcmp(key, "records", 7) == 0 ? M_REC : 0;
    case 8: return section == SEC_TYPES && memcmp(key, "typeName", 8) == 0 ? M_NAME : 0;
    case 9: return section == SEC_METHODS && memcmp(key, "signature", 9) == 0 ? M_SIG : 0;
    case 10: return section == SEC_METHODS && memcmp(key, "methodName", 10) == 0 ? M_NAME : 0;
    case 13:
        return entry && section != IPROF_KIND_MONITOR && memcmp(key, "methodBciList", 13) == 0
                   ? M_CTX : 0;
    default: return 0;
    }
}

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
    int rc = ipi_ctx_parse_sep(text, len, s->legacy ? ',' : '<', &r->frames, &r->frames_cap,
                               &s->nframes, &err_at, &r->alloc);
    if (rc == IPROF_OK)
        return IPROF_OK;
    if (rc < 0)
        return ipi_scan_fail(s, rc, s->ctx_at, "out of memory");
    if (rc == IPI_CTX_RANGE)
        return ipi_scan_fail(s, IPROF_ELIMIT, s->ctx_at,
                             "a number in ctx \"%.*s%s\" does not fit in int64",
                             ipi_excerpt(text, len, 64), text, IPI_CUT(len, 64));
    return ipi_scan_fail(s, IPROF_ESCHEMA, s->ctx_at,
                "invalid %s \"%.*s%s\" at character %zu: expected method:bci pairs joined by '%c'",
                s->legacy ? "methodBciList" : "ctx", ipi_excerpt(text, len, 64), text,
                IPI_CUT(len, 64), err_at + 1, s->legacy ? ',' : '<');
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
        if (!s->legacy && (rc = fast_ctx(s, pp, end)) != 0)
            return rc < 0 ? ipi_scan_fail(s, IPROF_ENOMEM, s->ctx_at, "out of memory") : IPROF_OK;
        rc = expect_string(s, pp, end, &text, &len, 1);
        return rc ? rc : parse_ctx(s, text, len);
    default:
        return skip_member(s, pp, end);
    }
}

static const char *member_name(const scan *s, unsigned m)
{
    if (m == M_NAME && s->legacy)
        return s->at.section == SEC_TYPES ? "typeName" : "methodName";
    return m == M_ID ? "id" : m == M_NAME ? "name" : m == M_SIG ? "signature"
         : m == M_CTX ? (s->legacy ? "methodBciList" : "ctx") : "records";
}

static const char *element_noun(int section)
{
    return section == SEC_TYPES ? "type" : section == SEC_METHODS ? "method" : "entry";
}

/* Keys no element has are not read, so a model (and every rewrite of the
 * file) drops them. Said once per
 * element, as a warning at the first such key, once the element is
 * whole (a restarted element would say it twice). */
static int warn_unknown_members(scan *s, size_t key_at, size_t count, const char *end)
{
    const char *k = WIN(s) + key_at, *after = k, *err = k, *why = NULL;
    int escaped;
    size_t len = 0;
    if (ipi_json_scan_string(k, end, &after, &escaped, &err, &why) == IPI_JSON_OK)
        len = (size_t)(after - k) - 2;
    char more[48] = "";
    if (count > 1)
        snprintf(more, sizeof more, " (and %zu more)", count - 1);
    char path[IPI_PATH_MAX];
    ipi_scan_format_path(s, &s->at, path, sizeof path);
    snprintf(s->el_unread_at, sizeof s->el_unread_at, "%s, key \"%.*s%s\"", path,
             ipi_excerpt(k + 1, len, 64), k + 1, IPI_CUT(len, 64));
    s->el_unread = 1;
    return ipi_scan_violation(s, IPROF_ESCHEMA, IPROF_SEVERITY_WARNING, key_at,
                              "unknown key \"%.*s%s\"%s in %s %s: not read, so a model does not hold it",
                              ipi_excerpt(k + 1, len, 64), k + 1, IPI_CUT(len, 64), more,
                              s->at.section == SEC_TYPES || s->at.section == SEC_METHODS ? "a"
                                                                                         : "an",
                              element_noun(s->at.section));
}

/* Forget what an earlier attempt at the element left: a restarted element
 * (more input was needed, or the fast path gave up) must not keep its
 * numbers, frames, field or array index. */
static void start_element(scan *s)
{
    s->el_unread = 0;
    s->nnums = 0;
    s->nframes = 0;
    s->at.field = F_NONE;
    s->at.sub = -1;
}

/* Parse the object of one element at *pp into the scan's element fields. */
int ipi_scan_element(scan *s, const char **pp, const char *end)
{
    const char *p = *pp;
    unsigned got = 0, need;
    s->el_start = IDX(s, p);
    if (*p != '{')
        return ipi_scan_fail(s, starts_other_value(*p) || *p == '-' || (*p >= '0' && *p <= '9')
                           ? IPROF_ESCHEMA : IPROF_ESYNTAX,
                    IDX(s, p), "expected an object");
    p = ipi_json_skip_ws(p + 1, end);
    if (p >= end)
        return MORE;
    start_element(s);
    /* 0.2.0 has other keys (and GraalVM's spaces): the general loop. */
    int fast = s->legacy ? NOT_FAST : fast_members(s, &p, end);
    if (fast == IPROF_OK) {
        *pp = p + 1;
        return IPROF_OK;
    }
    if (fast != NOT_FAST)
        return fast;
    p = ipi_json_skip_ws(WIN(s) + s->el_start + 1, end); /* over, on the general loop */
    start_element(s);
    size_t unknown_at = 0, unknown = 0; /* keys no element has */
    if (*p != '}') {
        for (;;) {
            const char *key_at = p, *q;
            unsigned m = 0;
            int rc;
            if (!s->legacy && (q = fast_key(s->at.section, p, end, &m)) != NULL) {
                p = ipi_json_skip_ws(q, end);
            } else {
                char key[16];
                size_t key_len = 0;
                if ((rc = expect_member_key(s, &p, end, key, &key_len)) != IPROF_OK)
                    return rc;
                m = s->legacy ? legacy_member_of(s->at.section, key, key_len)
                              : member_of(s->at.section, key, key_len);
                if (!m && !unknown++)
                    unknown_at = IDX(s, key_at);
            }
            if (m & got)
                return ipi_scan_fail(s, IPROF_ESCHEMA, IDX(s, key_at), "duplicate key \"%s\"",
                            member_name(s, m));
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
                return ipi_scan_fail(s, IPROF_ESYNTAX, IDX(s, p), "expected ',' or '}'");
            p = ipi_json_skip_ws(p + 1, end);
        }
    }
    need = s->at.section == SEC_TYPES     ? (M_ID | M_NAME)
           : s->at.section == SEC_METHODS ? (M_ID | M_NAME | M_SIG)
           : s->legacy && s->at.section == IPROF_KIND_MONITOR ? M_REC /* 0.2.0's object */
                                          : (M_CTX | M_REC);
    if (need & ~got) {
        unsigned miss = need & ~got;
        unsigned first = miss & M_ID ? M_ID : miss & M_NAME ? M_NAME : miss & M_SIG ? M_SIG
                       : miss & M_CTX ? M_CTX : M_REC;
        return ipi_scan_fail(s, IPROF_ESCHEMA, s->el_start, "%s is missing \"%s\"",
                    element_noun(s->at.section), member_name(s, first));
    }
    if (unknown) {
        int rc = warn_unknown_members(s, unknown_at, unknown, end);
        if (rc)
            return rc;
    }
    *pp = p + 1;
    return IPROF_OK;
}
