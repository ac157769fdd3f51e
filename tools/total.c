/* Sums of int64 counts without 128-bit integers: a positive and a
 * negative part, each a saturating uint64. Real counts are non-negative
 * and far below 2^64 in total, so the sums are exact in practice; a part
 * saturates only after more than two counts of INT64_MAX. */
#include <inttypes.h>

#include "tool.h"

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void total_add(tool_total *t, int64_t v)
{
    if (v >= 0)
        t->pos = sat_add(t->pos, (uint64_t)v);
    else
        t->neg = sat_add(t->neg, (uint64_t)0 - (uint64_t)v);
}

/* The value as a sign and a magnitude. */
static int split(const tool_total *t, uint64_t *mag)
{
    if (t->pos >= t->neg) {
        *mag = t->pos - t->neg;
        return *mag ? 1 : 0;
    }
    *mag = t->neg - t->pos;
    return -1;
}

int total_cmp(const tool_total *a, const tool_total *b)
{
    uint64_t ma, mb;
    int sa = split(a, &ma), sb = split(b, &mb);
    if (sa != sb)
        return sa < sb ? -1 : 1;
    if (ma == mb)
        return 0;
    return (ma < mb) == (sa > 0) ? -1 : 1;
}

const char *total_format(const tool_total *t, char *buf)
{
    uint64_t mag;
    int sign = split(t, &mag);
    snprintf(buf, TOTAL_CHARS, "%s%" PRIu64, sign < 0 ? "-" : "", mag);
    return buf;
}
