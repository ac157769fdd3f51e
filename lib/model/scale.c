/* Counts times a weight (scale.h). */
#include "scale.h"

#include <math.h>

void ipi_scaler_init(ipi_scaler *s, double w, int rounding)
{
    s->w = w;
    s->integral = w < 9223372036854775808.0 && (double)(int64_t)w == w;
    s->k = s->integral ? (int64_t)w : 0;
    s->rounding = rounding;
}

static int64_t mul_sat(int64_t c, int64_t k)
{
    if (k == 0 || c == 0)
        return 0;
    if (c > 0)
        return c > INT64_MAX / k ? INT64_MAX : c * k;
    return c < INT64_MIN / k ? INT64_MIN : c * k;
}

/* r rounded as asked, saturating at the int64 range. 2^63 is exact in
 * every floating type, so the bounds need no care about precision. */
static int64_t round_sat(long double r, int rounding)
{
    const long double two63 = 9223372036854775808.0L;
    switch (rounding) {
    case IPROF_ROUND_FLOOR: r = floorl(r); break;
    case IPROF_ROUND_NEAREST_EVEN: {
        long double f = floorl(r), d = r - f;
        r = d > 0.5L || (d == 0.5L && fmodl(f, 2.0L) != 0) ? f + 1 : f;
        break;
    }
    default: /* halves away from zero */
        r = r >= 0 ? floorl(r + 0.5L) : -floorl(-r + 0.5L);
    }
    if (r >= two63)
        return INT64_MAX;
    return r <= -two63 ? INT64_MIN : (int64_t)r;
}

int64_t ipi_scale(const ipi_scaler *s, int64_t count)
{
    if (s->integral)
        return mul_sat(count, s->k);
    return round_sat((long double)count * (long double)s->w, s->rounding);
}
