/* Unit tests of integer formatting (lib/common/numfmt.h) against snprintf. */
#include "check.h"

#include "numfmt.h"

static void check_value(int64_t v)
{
    char got[IPI_I64_MAX_CHARS + 1], want[32];
    size_t n = ipi_fmt_i64(got, v);
    snprintf(want, sizeof want, "%lld", (long long)v);
    CHECK_EQ_MEM(got, n, want, strlen(want));
}

static void test_boundaries(void)
{
    check_value(0);
    check_value(INT64_MAX);
    check_value(INT64_MIN);
    check_value(INT64_MIN + 1);
    int64_t p = 1;
    for (int i = 0; i < 19; i++) { /* every digit-count boundary */
        check_value(p - 1);
        check_value(p);
        check_value(p + 1);
        check_value(-p);
        check_value(-(p - 1));
        if (i < 18)
            p *= 10; /* 10^18 is the last power that fits */
    }
    for (size_t d = 1; d <= 19; d++) {
        uint64_t v = 1;
        for (size_t i = 1; i < d; i++)
            v *= 10;
        CHECK_EQ_INT(ipi_digit_count(v), d);
        CHECK_EQ_INT(ipi_digit_count(v - 1), d > 1 ? d - 1 : 1);
    }
    CHECK_EQ_INT(ipi_digit_count(UINT64_MAX), 20);
    char out[IPI_I64_MAX_CHARS];
    CHECK_EQ_INT(ipi_fmt_u64(out, UINT64_MAX), 20);
    CHECK_EQ_MEM(out, 20, "18446744073709551615", 20);
}

static void test_pseudo_random(void)
{
    uint64_t x = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 100000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        check_value((int64_t)x >> (x % 64)); /* every magnitude, both signs */
    }
}

/* The word-at-a-time path below 10^8: every value up to 2 * 10^6, then a
 * stride through the rest (each of its lanes sees every value), and no
 * byte written past IPI_I64_MAX_CHARS. */
static void test_below_1e8(void)
{
    for (int64_t v = 0; v < 2000000; v++)
        check_value(v);
    for (int64_t v = 2000000; v < 100000000; v += 997)
        check_value(v);
    char buf[IPI_I64_MAX_CHARS + 4];
    memset(buf, '#', sizeof buf);
    CHECK_EQ_INT(ipi_fmt_i64(buf, -7), 2);
    CHECK_EQ_MEM(buf, 2, "-7", 2);
    CHECK_EQ_MEM(buf + IPI_I64_MAX_CHARS, 4, "####", 4);
}

int main(void)
{
    RUN(test_boundaries);
    RUN(test_pseudo_random);
    RUN(test_below_1e8);
    return check_done();
}
