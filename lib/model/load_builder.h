/* The model builder of a load: takes the batches the reader's callbacks
 * fill and applies them to the model, either on the calling thread when a
 * batch is full, or on a thread of its own (IPROF_READ_THREADED) while the
 * calling thread goes on reading into the next batch. */
#ifndef IPI_LOAD_BUILDER_H
#define IPI_LOAD_BUILDER_H

#include "load_batch.h"

typedef struct ipi_builder ipi_builder;

/* What a builder does with each full batch, in file order: IPROF_OK or
 * the failure that stops the build. A load applies the events to its
 * model (ipi_batch_apply); a streaming merge remaps them into its
 * destination first (merge_stream.c). The batch is the applier's to
 * change until it returns. */
typedef int (*ipi_apply_fn)(ipi_batch *batch, void *payload);

/* A builder applying batches with apply(batch, payload), its batches from
 * allocator a (both borrowed until ipi_builder_finish), threaded if asked
 * and possible: the thread starts when the first batch is full, so small
 * inputs are built inline. NULL when out of memory. */
ipi_builder *ipi_builder_start(const iprof_allocator *a, ipi_apply_fn apply, void *payload,
                               int threaded);

/* The batch to append events to, with room for `size` more bytes: the
 * current one, or a fresh one once the current is handed over. NULL with
 * *status set when a batch could not be had or the builder failed (its
 * first failure: the events before stay in the model). */
ipi_batch *ipi_builder_reserve(ipi_builder *b, size_t size, int *status);

/* Whether, when the reading thread last handed a batch over, the one
 * before it still waited to be applied: the applying thread is then the
 * slower of the two, and work that either thread can do is better done
 * on the reading thread. 0 before any hand-over, and on one thread. */
int ipi_builder_behind(const ipi_builder *b);

/* Apply every event handed over so far, the current batch's included, and
 * wait until they are applied: afterwards, until the next hand-over, the
 * reading thread may read what the applier wrote. The build's first
 * failure, or IPROF_OK. */
int ipi_builder_drain(ipi_builder *b);

/* Apply what is left (nothing if `cancel`), stop the thread, free the
 * builder; the first failure of the whole build, or IPROF_OK. */
int ipi_builder_finish(ipi_builder *b, int cancel);



/* What a streaming merge does on the reading thread (NULL for a load):
 * on_section at each known top-level key (nonzero stops the read with that
 * status), on_put after each type, method or entry is put in batch b at
 * byte `at`. */
typedef struct ipi_load_hooks {
    void *payload;
    int (*on_section)(void *payload, int section);
    void (*on_put)(void *payload, ipi_batch *b, size_t at);
    /* Called before the batch being filled may leave the reading thread
     * (it is full, or the read ends), so that on_put may finish its work
     * on the batch's events a few events late. */
    void (*on_flush)(void *payload);
} ipi_load_hooks;

/* ipi_builder_reserve for the thread that fills b with hooks (NULL: none):
 * when the current batch lacks the room and so may be handed over,
 * hooks->on_flush first. A read's callbacks and a merge's walk of a loaded
 * model both fill their batches through it. */
ipi_batch *ipi_builder_room(ipi_builder *b, size_t size, const ipi_load_hooks *hooks,
                            int *status);

/* Read src with the reader, handing every version, type, method and entry
 * to builder b and keeping the layout beyond the profile (unknown keys,
 * the instanceof key's spelling) in `extras` (on the reading thread).
 * Finishes b. IPROF_OK, or why the read or the build failed, in the
 * reader's error (a build failure as "out of memory building the model",
 * the message of extras' error when it has the failure's status, as when
 * extras is the model built and ran into a limit, or the status string;
 * unless keep_build_error). A load (no hooks) whose
 * reader has IPROF_READ_SALVAGE keeps what was read before damage and
 * succeeds (ipi_reader_salvageable() says when). */
int ipi_load_run(iprof_reader *reader, const iprof_source *src, ipi_builder *b,
                 iprof_model *extras, int keep_build_error, const ipi_load_hooks *hooks);

/* Whether a finished read checked references and reported no error
 * diagnostic: what it delivered holds what a strict read asks. */
int ipi_reader_vouches(iprof_reader *reader);

#endif
