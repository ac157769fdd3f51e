/* Multiplying counts by a weight, as merges and iprof_model_scale() do:
 * integral weights exactly in int64 (counts exceed 2^53, where a double
 * would round), others through long double with a choice of rounding;
 * results saturate at the int64 range. */
#ifndef IPI_SCALE_H
#define IPI_SCALE_H

#include <iprof/iprof.h> /* enum iprof_rounding */

typedef struct ipi_scaler {
    double w;
    int integral; /* w is a whole number below 2^63: multiply by k */
    int64_t k;
    int rounding; /* IPROF_ROUND_* */
} ipi_scaler;

/* w must be finite and >= 0, rounding an IPROF_ROUND_* value. */
void ipi_scaler_init(ipi_scaler *s, double w, int rounding);
int64_t ipi_scale(const ipi_scaler *s, int64_t count);

#endif
