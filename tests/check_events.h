/*
 * Load events for the unit tests of lib/model/load_batch.c and lib/model/load_builder.c:
 * one struct for every kind of event the reader delivers, its size in a
 * batch, putting it into a batch, and pushing it into a model the way loads
 * did before batches (the reference both tests compare with).
 */
#ifndef IPROF_TESTS_CHECK_EVENTS_H
#define IPROF_TESTS_CHECK_EVENTS_H

#include <stdint.h>

#include "load_batch.h"

enum { VERSION, TYPE, METHOD, ENTRY };

typedef struct event {
    int what;
    int64_t id;
    const char *name;
    size_t name_len;
    const int64_t *sig;
    size_t sig_len;
    int kind;
    const int64_t *frames;
    size_t frame_count;
    const int64_t *records;
    size_t record_count;
} event;

static inline size_t size_of(const event *e)
{
    return e->what == ENTRY ? ipi_batch_entry_size(e->frame_count, e->record_count)
                            : ipi_batch_named_size(e->name_len, e->sig_len);
}

static inline void put(ipi_batch *b, const event *e)
{
    switch (e->what) {
    case VERSION: ipi_batch_put_version(b, e->name, e->name_len); break;
    case TYPE: ipi_batch_put_type(b, e->id, e->name, e->name_len); break;
    case METHOD: ipi_batch_put_method(b, e->id, e->name, e->name_len, e->sig, e->sig_len); break;
    default:
        ipi_batch_put_entry(b, e->kind, e->frames, e->frame_count, e->records, e->record_count);
    }
}

static inline int push(iprof_model *m, const event *e)
{
    switch (e->what) {
    case VERSION: return ipi_model_store_version(m, e->name, e->name_len);
    case TYPE: return ipi_model_push_type(m, e->id, e->name, e->name_len, NULL);
    case METHOD:
        return ipi_model_push_method(m, e->id, e->name, e->name_len, e->sig, e->sig_len, NULL);
    default:
        return ipi_model_push_entry_hashed(m, e->kind, e->frames, e->frame_count, NULL,
                                           e->records, e->record_count);
    }
}

#endif
