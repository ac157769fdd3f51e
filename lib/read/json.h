/*
 * JSON lexing for the reader: whitespace, strings, integers and skipping
 * whole values, over a window [p, end) of the input.
 *
 * Every scanner is restartable: when it reaches `end` before the token is
 * complete it returns IPI_JSON_MORE and changes nothing, so the reader can
 * read more input and scan the element again. Skipping nested values uses a
 * bit stack (one bit per level) instead of recursion, so nesting depth is
 * bounded by memory, not by the C stack.
 */
#ifndef IPI_JSON_H
#define IPI_JSON_H

#include <iprof/iprof.h>

enum ipi_json_result {
    IPI_JSON_OK = 0,
    IPI_JSON_MORE = 1,     /* reached end before the token was complete */
    IPI_JSON_BAD = 2,      /* syntax error at *err */
    IPI_JSON_RANGE = 3,    /* an integer outside int64 */
    IPI_JSON_FRACTION = 4, /* a number that is not integral */
    IPI_JSON_DEPTH = 5,    /* nesting deeper than the limit */
    IPI_JSON_NOMEM = 6     /* the bit stack could not grow */
};

static inline const char *ipi_json_skip_ws(const char *p, const char *end)
{
    /* One comparison for the usual case, a byte above ' ': no whitespace. */
    while (p < end && (unsigned char)*p <= ' ' &&
           (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        p++;
    return p;
}

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define IPI_JSON_SSE2 1
/* One bit per byte of the 16 at p that a string cannot simply copy: a
 * quote, a backslash, a control character or a byte >= 0x80 (the signed
 * comparison puts those below 0x20 too). */
static inline unsigned ipi_json_special16(const char *p)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i q = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
    __m128i b = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    __m128i c = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(q, b), c));
}
#endif

/* The common string: printable ASCII up to its closing quote, no escape.
 * Returns the byte after the closing quote, or NULL when the string holds
 * anything else or may run past end (ipi_json_scan_string decides). p is
 * at the opening quote. Inline: a name costs no call this way. */
static inline const char *ipi_json_plain_string(const char *p, const char *end)
{
#ifdef IPI_JSON_SSE2
    const char *s = p + 1;
    while (end - s >= 16) {
        unsigned mask = ipi_json_special16(s);
        if (mask) {
            s += __builtin_ctz(mask);
            return *s == '"' ? s + 1 : NULL;
        }
        s += 16;
    }
#else
    (void)p;
    (void)end;
#endif
    return NULL;
}

/*
 * Scan the string whose opening quote is at p. On IPI_JSON_OK, *after is
 * just past the closing quote and *escaped tells whether the body holds
 * backslash escapes. The body is checked: escapes, control characters,
 * UTF-8 and surrogate pairs. On IPI_JSON_BAD, *err points at the problem
 * and *why says what it is.
 */
int ipi_json_scan_string(const char *p, const char *end, const char **after, int *escaped,
                         const char **err, const char **why);

/* Whether s[0..len) is valid UTF-8 (no overlong forms, surrogates or
 * code points above U+10FFFF): what a name must be for its JSON string to
 * be readable. */
int ipi_utf8_valid(const char *s, size_t len);

/* Decode a scanned string body [raw, raw+len) with escapes into out, which
 * must hold len + 1 bytes (decoding never grows a string). NUL-terminates;
 * returns the decoded length. */
size_t ipi_json_decode(const char *raw, size_t len, char *out);

/*
 * Parse a JSON number at p as an int64. Integral numbers written with a
 * fraction or exponent (1.0, 1e3, 15e-1 is not) are accepted when exactly
 * integral; -0 is 0. at_eof says whether `end` is the end of the input
 * (otherwise a number touching `end` may continue: IPI_JSON_MORE).
 * Returns IPI_JSON_OK, MORE, BAD (not a number), RANGE or FRACTION.
 */
int ipi_json_parse_int(const char *p, const char *end, int at_eof, int64_t *out,
                       const char **after, const char **err);

/* The bit stack of ipi_json_skip_value; owned by the caller and reused. */
typedef struct ipi_json_stack {
    uint64_t *bits;
    size_t cap; /* in uint64 words */
    const iprof_allocator *alloc;
    size_t max_depth; /* 0: no limit */
} ipi_json_stack;

void ipi_json_stack_free(ipi_json_stack *st);

/* Skip (and fully validate) one JSON value starting at p (no leading
 * whitespace). Returns OK with *after past it, MORE, BAD (*err, *why),
 * DEPTH or NOMEM. */
int ipi_json_skip_value(ipi_json_stack *st, const char *p, const char *end, int at_eof,
                        const char **after, const char **err, const char **why);

/* Whether [json, json + len) is exactly one JSON value, whitespace around
 * it allowed: IPROF_OK, IPROF_ESYNTAX or IPROF_ENOMEM. */
int ipi_json_check_one(const iprof_allocator *a, const char *json, size_t len);

#endif
