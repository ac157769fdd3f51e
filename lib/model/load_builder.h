/* The model builder of a load: takes the batches the reader's callbacks
 * fill and applies them to the model, either on the calling thread when a
 * batch is full, or on a thread of its own (IPROF_READ_THREADED) while the
 * calling thread goes on reading into the next batch. */
#ifndef IPI_LOAD_BUILDER_H
#define IPI_LOAD_BUILDER_H

#include "load_batch.h"

typedef struct ipi_builder ipi_builder;

/* A builder for m (which it borrows until ipi_builder_finish), threaded if
 * asked and possible: the thread starts when the first batch is full, so
 * small inputs are built inline. NULL when out of memory. */
ipi_builder *ipi_builder_start(iprof_model *m, int threaded);

/* The batch to append events to, with room for `size` more bytes: the
 * current one, or a fresh one once the current is handed over. NULL with
 * *status set when a batch could not be had or the builder failed (its
 * first failure: the events before stay in the model). */
ipi_batch *ipi_builder_reserve(ipi_builder *b, size_t size, int *status);

/* Apply what is left (nothing if `cancel`), stop the thread, free the
 * builder; the first failure of the whole build, or IPROF_OK. */
int ipi_builder_finish(ipi_builder *b, int cancel);

#endif
