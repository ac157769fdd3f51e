/*
 * JSON values formatted into space the writer has reserved: strings
 * escaped, integer arrays, literal syntax. Pointer bumps, no bounds checks:
 * the caller reserves the worst case (the *_MAX sizes below) first. The
 * writer's structure (sections, separators, state, checks) is in writer.c;
 * these are inline because every element of a write runs them.
 */
#ifndef IPI_JSON_FMT_H
#define IPI_JSON_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "numfmt.h"

/* Worst case of one array value with its separator (", " when pretty). */
#define IPI_VALUE_MAX (IPI_I64_MAX_CHARS + 2)
/* Worst case of one escaped name byte ("\u0000"). */
#define IPI_ESC_MAX 6


/* Whether any byte of the 8 in x needs escaping: < 0x20, '"' or '\\'
 * (the classic "has a zero byte" bit trick on x, x ^ '"' and x ^ '\\'). */
#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)
static inline int word_needs_escape(uint64_t x)
{
    uint64_t q = x ^ (ONES * '"'), b = x ^ (ONES * '\\');
    uint64_t lt = (x - ONES * 0x20) & ~x;
    uint64_t zq = (q - ONES) & ~q;
    uint64_t zb = (b - ONES) & ~b;
    return ((lt | zq | zb) & HIGHS) != 0;
}

/* Escape s[0..len) as JSON string content at p; at most IPI_ESC_MAX * len
 * bytes. Runs of 8 plain bytes are copied as one word. */
#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define ESCAPE_SSE2 1
/* Whether any of 16 bytes needs an escape: quote, backslash, or below
 * 0x20 (unsigned: bytes >= 0x80 are UTF-8 and pass through). */
static inline int block_needs_escape(__m128i v)
{
    __m128i q = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
    __m128i b = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    __m128i c = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1F)), _mm_set1_epi8(0x1F));
    return _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(q, b), c)) != 0;
}
#endif

static inline char *ipi_json_escape_into(char *p, const unsigned char *s, size_t len)
{
    size_t i = 0;
#ifdef ESCAPE_SSE2
    /* 16 bytes per step, the last 16 overlapping what was copied; a block
     * that needs an escape leaves the rest to the loops below. */
    if (len >= 16) {
        __m128i v;
        for (; i + 16 <= len; i += 16) {
            v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
            if (block_needs_escape(v))
                break;
            _mm_storeu_si128((__m128i *)(void *)(p + i), v);
        }
        if (i == len)
            return p + len;
        if (i + 16 > len) {
            v = _mm_loadu_si128((const __m128i *)(const void *)(s + len - 16));
            if (!block_needs_escape(v)) {
                _mm_storeu_si128((__m128i *)(void *)(p + len - 16), v);
                return p + len;
            }
        }
    }
#endif
    /* Most names need no escape: whole words, then the last 8 bytes as one
     * word overlapping what was copied (no per-byte tail loop). */
    if (len >= 8) {
        uint64_t x;
        for (; i + 8 <= len; i += 8) {
            memcpy(&x, s + i, 8);
            if (word_needs_escape(x))
                break;
            memcpy(p + i, &x, 8);
        }
        if (i + 8 > len) {
            if (i < len) {
                memcpy(&x, s + len - 8, 8);
                if (!word_needs_escape(x)) {
                    memcpy(p + len - 8, &x, 8);
                    return p + len;
                }
            } else {
                return p + len;
            }
        }
        p += i;
    }
    while (i < len) {
        if (len - i >= 8) {
            uint64_t x;
            memcpy(&x, s + i, 8);
            if (!word_needs_escape(x)) {
                memcpy(p, &x, 8);
                p += 8;
                i += 8;
                continue;
            }
        }
        unsigned char c = s[i++];
        if (c >= 0x20 && c != '"' && c != '\\') {
            *p++ = (char)c;
            continue;
        }
        *p++ = '\\';
        switch (c) {
        case '"': *p++ = '"'; break;
        case '\\': *p++ = '\\'; break;
        case '\b': *p++ = 'b'; break;
        case '\f': *p++ = 'f'; break;
        case '\n': *p++ = 'n'; break;
        case '\r': *p++ = 'r'; break;
        case '\t': *p++ = 't'; break;
        default:
            p[0] = 'u';
            p[1] = '0';
            p[2] = '0';
            p[3] = "0123456789abcdef"[c >> 4];
            p[4] = "0123456789abcdef"[c & 15];
            p += 5;
            break;
        }
    }
    return p;
}

/* Values separated by "," (", " when pretty), no brackets; at most
 * IPI_VALUE_MAX * n bytes. first: no separator before the first value. */
static inline char *ipi_json_values_into(char *p, const int64_t *v, size_t n, int pretty, int first)
{
    for (size_t i = 0; i < n; i++) {
        if (i || !first) {
            *p++ = ',';
            if (pretty)
                *p++ = ' ';
        }
        p += ipi_fmt_i64(p, v[i]);
    }
    return p;
}

#endif
