/* JSON lexing: strings with full validation, int64 numbers, and
 * non-recursive skipping of unknown values. */
#include "json.h"

#include <string.h>

#include "alloc.h"

#define BAD(at, text)       \
    do {                    \
        *err = (at);        \
        *why = (text);      \
        return IPI_JSON_BAD; \
    } while (0)

static int hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c |= 0x20;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* Four hex digits at p into *cp; -1 if not hex. Caller ensures 4 bytes. */
static int read_hex4(const char *p, unsigned *cp)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hex_value((unsigned char)p[i]);
        if (h < 0)
            return -1;
        v = v << 4 | (unsigned)h;
    }
    *cp = v;
    return 0;
}

/* Length of the valid UTF-8 sequence at p (lead byte >= 0x80): 2-4, 0 if
 * invalid, -1 if it is cut by end. */
static int utf8_sequence(const unsigned char *p, const unsigned char *end)
{
    unsigned c = p[0];
    int n;
    unsigned lo = 0x80, hi = 0xBF; /* range of the second byte */
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0; /* overlong */
        else if (c == 0xED)
            hi = 0x9F; /* surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90; /* overlong */
        else if (c == 0xF4)
            hi = 0x8F; /* above U+10FFFF */
    } else
        return 0;
    for (int i = 1; i < n; i++) {
        if (p + i >= end)
            return -1;
        unsigned b = p[i];
        if (i == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF))
            return 0;
    }
    return n;
}

int ipi_utf8_valid(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    while (p < end) {
        if (*p < 0x80) {
            p++;
            continue;
        }
        int n = utf8_sequence(p, end);
        if (n <= 0)
            return 0;
        p += n;
    }
    return 1;
}

/* Check the escape at p (p[0] == '\\'); returns its length, 0 if bad, -1 if
 * cut by end. */
static int escape_length(const char *p, const char *end, const char **why)
{
    if (p + 1 >= end)
        return -1;
    switch (p[1]) {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
        return 2;
    case 'u':
        break;
    default:
        *why = "invalid escape in string";
        return 0;
    }
    if (end - p < 6)
        return -1;
    unsigned cp;
    if (read_hex4(p + 2, &cp)) {
        *why = "invalid \\u escape in string";
        return 0;
    }
    if (cp >= 0xDC00 && cp <= 0xDFFF) {
        *why = "lone low surrogate in string";
        return 0;
    }
    if (cp < 0xD800 || cp > 0xDBFF)
        return 6;
    /* A high surrogate must be followed by a low one. */
    if ((end - p > 6 && p[6] != '\\') || (end - p > 7 && p[7] != 'u')) {
        *why = "lone high surrogate in string";
        return 0;
    }
    if (end - p < 12)
        return -1;
    unsigned lo;
    if (p[6] != '\\' || p[7] != 'u' || read_hex4(p + 8, &lo) || lo < 0xDC00 || lo > 0xDFFF) {
        *why = "lone high surrogate in string";
        return 0;
    }
    return 12;
}

/* Whether any of the 8 bytes at p needs a look in a string: a control
 * character, a byte >= 0x80, '"' or '\\'. Bit tricks on one 64-bit word
 * (the "haszero" idiom), portable C. */
static inline uint64_t special_mask(const char *p)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t w;
    memcpy(&w, p, 8);
    uint64_t quote = w ^ (ones * '"'), slash = w ^ (ones * '\\');
    /* (x - ones) & ~x has a high bit where a byte of x is 0 (or where a
     * borrow ran into a byte >= 0x80, flagged anyway by w itself). */
    uint64_t low = (w - ones * 0x20) & ~w;
    uint64_t hq = (quote - ones) & ~quote;
    uint64_t hs = (slash - ones) & ~slash;
    return (low | hq | hs | w) & highs;
}

/* Where the first special byte of a word with a non-zero mask is: on
 * little-endian machines the lowest flagged byte (borrows only disturb the
 * bytes after a real hit); elsewhere 0, and the byte loop finds it. */
static inline size_t first_special(uint64_t mask)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return (size_t)__builtin_ctzll(mask) >> 3;
#else
    (void)mask;
    return 0;
#endif
}

int ipi_json_scan_string(const char *p, const char *end, const char **after, int *escaped,
                         const char **err, const char **why)
{
    const char *s = p + 1;
    int esc = 0;
    for (;;) {
        /* The common case: printable ASCII other than quote and backslash,
         * sixteen bytes per step with SSE2, then eight, then one; each
         * loop stops at the first special byte, where the next one stops
         * at once. */
#ifdef IPI_JSON_SSE2
        while (end - s >= 16) {
            unsigned mask = ipi_json_special16(s);
            if (mask) {
                s += __builtin_ctz(mask);
                break;
            }
            s += 16;
        }
#endif
        while (end - s >= 8) {
            uint64_t mask = special_mask(s);
            if (mask) {
                s += first_special(mask);
                break;
            }
            s += 8;
        }
        while (s < end) {
            unsigned char c = (unsigned char)*s;
            if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\')
                break;
            s++;
        }
        if (s >= end)
            return IPI_JSON_MORE;
        unsigned char c = (unsigned char)*s;
        if (c == '"') {
            *after = s + 1;
            *escaped = esc;
            return IPI_JSON_OK;
        }
        if (c == '\\') {
            int n = escape_length(s, end, why);
            if (n < 0)
                return IPI_JSON_MORE;
            if (n == 0) {
                *err = s;
                return IPI_JSON_BAD;
            }
            esc = 1;
            s += n;
        } else if (c < 0x20) {
            BAD(s, "control character in string");
        } else {
            int n = utf8_sequence((const unsigned char *)s, (const unsigned char *)end);
            if (n < 0)
                return IPI_JSON_MORE;
            if (n == 0)
                BAD(s, "invalid UTF-8 in string");
            s += n;
        }
    }
}

static char *put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        *o++ = (char)cp;
    } else if (cp < 0x800) {
        *o++ = (char)(0xC0 | cp >> 6);
        *o++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *o++ = (char)(0xE0 | cp >> 12);
        *o++ = (char)(0x80 | (cp >> 6 & 0x3F));
        *o++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *o++ = (char)(0xF0 | cp >> 18);
        *o++ = (char)(0x80 | (cp >> 12 & 0x3F));
        *o++ = (char)(0x80 | (cp >> 6 & 0x3F));
        *o++ = (char)(0x80 | (cp & 0x3F));
    }
    return o;
}

size_t ipi_json_decode(const char *raw, size_t len, char *out)
{
    const char *p = raw, *end = raw + len;
    char *o = out;
    while (p < end) {
        const char *bs = memchr(p, '\\', (size_t)(end - p));
        size_t plain = (size_t)((bs ? bs : end) - p);
        memcpy(o, p, plain);
        o += plain;
        p += plain;
        if (!bs)
            break;
        char e = p[1];
        p += 2;
        switch (e) {
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            unsigned cp = 0, lo = 0xDC00;
            read_hex4(p, &cp);
            p += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF) { /* validated: a low half follows */
                read_hex4(p + 2, &lo);
                p += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            o = put_utf8(o, cp);
            break;
        }
        default: *o++ = e; break; /* " \ / */
        }
    }
    *o = '\0';
    return (size_t)(o - out);
}

/* ------------------------------------------------------------------------ */
/* Numbers                                                                  */

/* The parts of a number that has a fraction or an exponent. */
typedef struct number_parts {
    const char *ip, *ie; /* integer digits */
    const char *fp, *fe; /* fraction digits */
    int neg;
    int64_t exp; /* saturated */
} number_parts;

static char part_digit(const number_parts *n, size_t k)
{
    size_t ni = (size_t)(n->ie - n->ip);
    return k < ni ? n->ip[k] : n->fp[k - ni];
}

/* Value of a number with fraction/exponent, if it is an integral int64. */
static int integral_value(const number_parts *n, int64_t *out)
{
    size_t total = (size_t)(n->ie - n->ip) + (size_t)(n->fe - n->fp);
    size_t first = 0, last = total;
    while (first < total && part_digit(n, first) == '0')
        first++;
    if (first == total) {
        *out = 0;
        return IPI_JSON_OK;
    }
    while (part_digit(n, last - 1) == '0')
        last--;
    /* value = digits[first, last) * 10^scale */
    int64_t scale = n->exp - (int64_t)(n->fe - n->fp) + (int64_t)(total - last);
    size_t sig = last - first;
    if (scale < 0)
        return IPI_JSON_FRACTION;
    if (scale > 19 || (int64_t)sig + scale > 19)
        return IPI_JSON_RANGE;
    uint64_t v = 0;
    for (size_t k = first; k < last; k++)
        v = v * 10 + (uint64_t)(part_digit(n, k) - '0');
    for (int64_t i = 0; i < scale; i++) {
        if (v > UINT64_MAX / 10)
            return IPI_JSON_RANGE;
        v *= 10;
    }
    uint64_t limit = n->neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    if (v > limit)
        return IPI_JSON_RANGE;
    *out = n->neg ? (int64_t)(0 - v) : (int64_t)v;
    return IPI_JSON_OK;
}

/* Scan the grammar -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? at p,
 * filling parts. */
static int scan_number(const char *p, const char *end, int at_eof, number_parts *n,
                       const char **after, const char **err)
{
    const char *s = p;
    n->neg = 0;
    n->exp = 0;
    if (s < end && *s == '-') {
        n->neg = 1;
        s++;
    }
    if (s >= end)
        return IPI_JSON_MORE;
    n->ip = s;
    if (*s == '0')
        s++;
    else if (*s >= '1' && *s <= '9')
        while (s < end && *s >= '0' && *s <= '9')
            s++;
    else {
        *err = s;
        return IPI_JSON_BAD;
    }
    n->ie = s;
    n->fp = n->fe = s;
    if (s < end && *s == '.') {
        s++;
        n->fp = s;
        while (s < end && *s >= '0' && *s <= '9')
            s++;
        n->fe = s;
        if (s == n->fp) {
            if (s >= end)
                return IPI_JSON_MORE;
            *err = s;
            return IPI_JSON_BAD;
        }
    }
    if (s < end && (*s == 'e' || *s == 'E')) {
        s++;
        int eneg = 0;
        if (s < end && (*s == '+' || *s == '-'))
            eneg = *s++ == '-';
        const char *ds = s;
        int64_t e = 0;
        while (s < end && *s >= '0' && *s <= '9') {
            if (e < 1000000000)
                e = e * 10 + (*s - '0');
            s++;
        }
        if (s == ds) {
            if (s >= end)
                return IPI_JSON_MORE;
            *err = s;
            return IPI_JSON_BAD;
        }
        n->exp = eneg ? -e : e;
    }
    if (s >= end && !at_eof)
        return IPI_JSON_MORE;
    if (s < end && *s >= '0' && *s <= '9') { /* "01" */
        *err = s;
        return IPI_JSON_BAD;
    }
    *after = s;
    return IPI_JSON_OK;
}

int ipi_json_parse_int(const char *p, const char *end, int at_eof, int64_t *out,
                       const char **after, const char **err)
{
    /* Fast path: plain decimal integer. */
    const char *s = p;
    int neg = 0;
    if (s < end && *s == '-') {
        neg = 1;
        s++;
    }
    if (s < end && (unsigned)(*s - '0') <= 9) {
        int zero = *s == '0'; /* "0" ends the integer part */
        uint64_t v = (uint64_t)(*s++ - '0');
        const char *stop = end - s > 18 ? s + 18 : end; /* 19 digits cannot overflow */
        while (!zero && s < stop && (unsigned)(*s - '0') <= 9)
            v = v * 10 + (uint64_t)(*s++ - '0');
        if (s < end && (*s == '.' || *s == 'e' || *s == 'E' || (unsigned)(*s - '0') <= 9))
            goto slow;
        if (s >= end && !at_eof)
            return IPI_JSON_MORE;
        if (v > (uint64_t)INT64_MAX + (uint64_t)neg) {
            *err = p;
            return IPI_JSON_RANGE;
        }
        *out = neg ? (int64_t)(0 - v) : (int64_t)v;
        *after = s;
        return IPI_JSON_OK;
    }
slow:;
    number_parts n;
    int rc = scan_number(p, end, at_eof, &n, after, err);
    if (rc != IPI_JSON_OK)
        return rc;
    if (n.fp == n.fe && n.exp == 0) {
        /* Long plain integer: 20+ digits or near the limit. */
        uint64_t v = 0, limit = n.neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
        for (const char *d = n.ip; d < n.ie; d++) {
            unsigned dv = (unsigned)(*d - '0');
            if (v > (limit - dv) / 10) {
                *err = p;
                return IPI_JSON_RANGE;
            }
            v = v * 10 + dv;
        }
        *out = n.neg ? (int64_t)(0 - v) : (int64_t)v;
        return IPI_JSON_OK;
    }
    rc = integral_value(&n, out);
    if (rc != IPI_JSON_OK)
        *err = p;
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Skipping values                                                          */

void ipi_json_stack_free(ipi_json_stack *st)
{
    if (st->alloc)
        ipi_free(st->alloc, st->bits, st->cap * sizeof *st->bits);
    st->bits = NULL;
    st->cap = 0;
}

static int stack_set(ipi_json_stack *st, size_t depth, int is_object)
{
    size_t word = depth / 64;
    if (word >= st->cap &&
        ipi_grow(st->alloc, (void **)&st->bits, &st->cap, word + 1, sizeof *st->bits))
        return IPI_JSON_NOMEM;
    uint64_t bit = (uint64_t)1 << (depth % 64);
    if (is_object)
        st->bits[word] |= bit;
    else
        st->bits[word] &= ~bit;
    return IPI_JSON_OK;
}

static int stack_is_object(const ipi_json_stack *st, size_t depth)
{
    return (int)(st->bits[depth / 64] >> (depth % 64) & 1);
}

static int skip_literal(const char *p, const char *end, const char *word, size_t n,
                        const char **after, const char **err)
{
    size_t have = (size_t)(end - p) < n ? (size_t)(end - p) : n;
    if (memcmp(p, word, have) != 0) {
        size_t i = 0;
        while (p[i] == word[i])
            i++;
        *err = p + i;
        return IPI_JSON_BAD;
    }
    if (have < n)
        return IPI_JSON_MORE;
    *after = p + n;
    return IPI_JSON_OK;
}

/* One scalar (string, number, literal) at p. */
static int skip_scalar(const char *p, const char *end, int at_eof, const char **after,
                       const char **err, const char **why)
{
    int esc, rc;
    number_parts n;
    switch (*p) {
    case '"':
        rc = ipi_json_scan_string(p, end, after, &esc, err, why);
        return rc;
    case 't':
        rc = skip_literal(p, end, "true", 4, after, err);
        break;
    case 'f':
        rc = skip_literal(p, end, "false", 5, after, err);
        break;
    case 'n':
        rc = skip_literal(p, end, "null", 4, after, err);
        break;
    default:
        if (*p != '-' && (*p < '0' || *p > '9')) {
            *err = p;
            *why = "expected a JSON value";
            return IPI_JSON_BAD;
        }
        rc = scan_number(p, end, at_eof, &n, after, err);
        if (rc == IPI_JSON_BAD)
            *why = "invalid number";
        return rc;
    }
    if (rc == IPI_JSON_BAD)
        *why = "invalid literal";
    return rc;
}

/* Expect a member key and its colon at *pp (after '{' or ','). */
static int skip_key(const char **pp, const char *end, const char **err, const char **why)
{
    const char *p = ipi_json_skip_ws(*pp, end);
    if (p >= end)
        return IPI_JSON_MORE;
    if (*p != '"') {
        *err = p;
        *why = "expected a string key";
        return IPI_JSON_BAD;
    }
    int esc;
    int rc = ipi_json_scan_string(p, end, &p, &esc, err, why);
    if (rc)
        return rc;
    p = ipi_json_skip_ws(p, end);
    if (p >= end)
        return IPI_JSON_MORE;
    if (*p != ':') {
        *err = p;
        *why = "expected ':' after key";
        return IPI_JSON_BAD;
    }
    *pp = p + 1;
    return IPI_JSON_OK;
}

int ipi_json_skip_value(ipi_json_stack *st, const char *p, const char *end, int at_eof,
                        const char **after, const char **err, const char **why)
{
    size_t depth = 0; /* open containers */
    int rc;
    for (;;) {
        /* A value starts at p. */
        p = ipi_json_skip_ws(p, end);
        if (p >= end)
            return IPI_JSON_MORE;
        if (*p == '[' || *p == '{') {
            int obj = *p == '{';
            if (st->max_depth && depth >= st->max_depth) {
                *err = p;
                *why = "nesting too deep";
                return IPI_JSON_DEPTH;
            }
            if ((rc = stack_set(st, depth, obj)) != IPI_JSON_OK)
                return rc;
            depth++;
            p = ipi_json_skip_ws(p + 1, end);
            if (p >= end)
                return IPI_JSON_MORE;
            if (*p == (obj ? '}' : ']')) {
                p++;
                depth--;
            } else {
                if (obj && (rc = skip_key(&p, end, err, why)) != IPI_JSON_OK)
                    return rc;
                continue;
            }
        } else {
            rc = skip_scalar(p, end, at_eof && depth == 0, &p, err, why);
            if (rc)
                return rc;
        }
        /* After a complete value: close containers or move to the next. */
        for (;;) {
            if (depth == 0) {
                *after = p;
                return IPI_JSON_OK;
            }
            p = ipi_json_skip_ws(p, end);
            if (p >= end)
                return IPI_JSON_MORE;
            int obj = stack_is_object(st, depth - 1);
            if (*p == ',') {
                p++;
                if (obj && (rc = skip_key(&p, end, err, why)) != IPI_JSON_OK)
                    return rc;
                break;
            }
            if (*p != (obj ? '}' : ']')) {
                *err = p;
                *why = obj ? "expected ',' or '}'" : "expected ',' or ']'";
                return IPI_JSON_BAD;
            }
            p++;
            depth--;
        }
    }
}

int ipi_json_check_one(const iprof_allocator *a, const char *json, size_t len)
{
    ipi_json_stack st = {NULL, 0, a, 0};
    const char *end = json + len, *after = NULL, *err = NULL, *why = NULL;
    const char *p = ipi_json_skip_ws(json, end);
    int rc = p < end ? ipi_json_skip_value(&st, p, end, 1, &after, &err, &why) : IPI_JSON_BAD;
    ipi_json_stack_free(&st);
    if (rc == IPI_JSON_NOMEM)
        return IPROF_ENOMEM;
    if (rc != IPI_JSON_OK)
        return IPROF_ESYNTAX;
    return ipi_json_skip_ws(after, end) == end ? IPROF_OK : IPROF_ESYNTAX;
}
