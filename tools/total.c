/* Sums of int64 counts without 128-bit integer types: a positive and a
 * negative part, each 128 bits as a carry word and a low word, exact for
 * any number of counts below 2^64. The value shown is their difference,
 * its magnitude clamped at UINT64_MAX (docs/commands.md: totals clamp there). */
#include <inttypes.h>

#include "tool.h"

static void add_part(uint64_t *hi, uint64_t *lo, uint64_t v)
{
    *hi += *lo > UINT64_MAX - v;
    *lo += v;
}

void total_add(tool_total *t, int64_t v)
{
    if (v >= 0)
        add_part(&t->pos_hi, &t->pos, (uint64_t)v);
    else
        add_part(&t->neg_hi, &t->neg, (uint64_t)0 - (uint64_t)v);
}

/* The value as a sign and an exact 128-bit magnitude (hi, lo). */
static int split(const tool_total *t, uint64_t *hi, uint64_t *lo)
{
    int pos_ge = t->pos_hi != t->neg_hi ? t->pos_hi > t->neg_hi : t->pos >= t->neg;
    uint64_t ahi = pos_ge ? t->pos_hi : t->neg_hi, alo = pos_ge ? t->pos : t->neg;
    uint64_t bhi = pos_ge ? t->neg_hi : t->pos_hi, blo = pos_ge ? t->neg : t->pos;
    *hi = ahi - bhi - (alo < blo);
    *lo = alo - blo;
    if (!*hi && !*lo)
        return 0;
    return pos_ge ? 1 : -1;
}

int total_cmp(const tool_total *a, const tool_total *b)
{
    uint64_t ha, la, hb, lb;
    int sa = split(a, &ha, &la), sb = split(b, &hb, &lb);
    if (sa != sb)
        return sa < sb ? -1 : 1;
    if (ha == hb && la == lb)
        return 0;
    int less = ha != hb ? ha < hb : la < lb; /* by magnitude */
    return less == (sa > 0) ? -1 : 1;
}

const char *total_format(const tool_total *t, char *buf)
{
    uint64_t hi, mag;
    int sign = split(t, &hi, &mag);
    if (hi) /* only what is shown clamps */
        mag = UINT64_MAX;
    snprintf(buf, TOTAL_CHARS, "%s%" PRIu64, sign < 0 ? "-" : "", mag);
    return buf;
}
