/* Integer to decimal text, two digits per step: the writer's hot path
 * prints millions of ids, bcis and counts. */
#ifndef IPI_NUMFMT_H
#define IPI_NUMFMT_H

#include <stdint.h>
#include <string.h>

/* The writer formats millions of numbers: a call per number is measurable. */
#if defined(__GNUC__)
#define IPI_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define IPI_ALWAYS_INLINE inline
#endif

/* Longest int64 text: "-9223372036854775808". */
#define IPI_I64_MAX_CHARS 20

/* Number of decimal digits of v. */
static inline size_t ipi_digit_count(uint64_t v)
{
    size_t n = 1;
    for (;;) {
        if (v < 10)
            return n;
        if (v < 100)
            return n + 1;
        if (v < 1000)
            return n + 2;
        if (v < 10000)
            return n + 3;
        v /= 10000;
        n += 4;
    }
}

static const char ipi_digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define IPI_FMT_SWAR 1
/* The 8 decimal digits of v < 10^8, leading zeros included, as byte
 * values 0-9 in one word whose lowest byte is the first digit: split into 4-digit
 * halves, then 2-digit quarters, then digits, every lane at once, dividing
 * by multiplying with rounded reciprocals (exact for these ranges:
 * x * 10486 >> 20 == x / 100 below 10^4, y * 103 >> 10 == y / 10 below
 * 100). No branch depends on the value, so mixed lengths cost no
 * mispredictions. */
static IPI_ALWAYS_INLINE uint64_t ipi_digits8(uint32_t v)
{
    uint64_t x = (uint64_t)(v / 10000) | ((uint64_t)(v % 10000) << 32);
    uint64_t q = ((x * 10486) >> 20) & 0x0000007F0000007FULL;
    x = ((x - q * 100) << 16) | q;
    uint64_t t = ((x * 103) >> 10) & 0x000F000F000F000FULL;
    return ((x - t * 10) << 8) | t; /* digit values; | 0x30 bytes for ASCII */
}
#endif

/* Most ids, bcis and counts fit in 32 bits, where dividing by a constant
 * is a cheaper multiply than in 64. Below 10^8 (nearly all of them) the
 * digits come from ipi_digits8 and are stored as one word: 8 bytes are
 * written whatever the length, within the IPI_I64_MAX_CHARS the caller
 * provides. */
static IPI_ALWAYS_INLINE size_t ipi_fmt_u32(char *out, uint32_t v)
{
#ifdef IPI_FMT_SWAR
    if (v < 100000000) {
        /* The leading zero digits are the low zero bytes of the word (the
         * last digit always counts, even for 0). */
        uint64_t d = ipi_digits8(v);
        size_t zeros = (size_t)__builtin_ctzll(d | ((uint64_t)1 << 56)) >> 3;
        uint64_t w = (d | 0x3030303030303030ULL) >> (8 * zeros);
        memcpy(out, &w, 8);
        return 8 - zeros;
    }
#endif
    size_t n = v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10000 ? 4 : v < 100000 ? 5
             : v < 1000000 ? 6 : v < 10000000 ? 7 : v < 100000000 ? 8 : v < 1000000000 ? 9 : 10;
    char *p = out + n;
    while (v >= 100) {
        unsigned i = (v % 100) * 2;
        v /= 100;
        p -= 2;
        p[0] = ipi_digit_pairs[i];
        p[1] = ipi_digit_pairs[i + 1];
    }
    if (v >= 10) {
        p[-2] = ipi_digit_pairs[v * 2];
        p[-1] = ipi_digit_pairs[v * 2 + 1];
    } else {
        p[-1] = (char)('0' + v);
    }
    return n;
}

/* Digits written straight into place from the end, two per step: no
 * temporary buffer and no copy (a memcpy call per number was the writer's
 * largest single cost). */
static inline size_t ipi_fmt_u64(char *out, uint64_t v)
{
    if (v <= UINT32_MAX)
        return ipi_fmt_u32(out, (uint32_t)v);
    static const char digits[201] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    size_t n = ipi_digit_count(v);
    char *p = out + n;
    while (v >= 100) {
        unsigned i = (unsigned)(v % 100) * 2;
        v /= 100;
        p -= 2;
        p[0] = digits[i];
        p[1] = digits[i + 1];
    }
    if (v >= 10) {
        unsigned i = (unsigned)v * 2;
        p[-2] = digits[i];
        p[-1] = digits[i + 1];
    } else {
        p[-1] = (char)('0' + v);
    }
    return n;
}

/* Writes at most IPI_I64_MAX_CHARS bytes (possibly more than the count:
 * out needs room for all of them), no NUL; returns the count. */
static IPI_ALWAYS_INLINE size_t ipi_fmt_i64(char *out, int64_t v)
{
    if (v < 0) {
        out[0] = '-';
        return 1 + ipi_fmt_u64(out + 1, (uint64_t)0 - (uint64_t)v);
    }
    return ipi_fmt_u64(out, (uint64_t)v);
}

#endif
