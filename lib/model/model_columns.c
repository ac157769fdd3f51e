/*
 * Columns of a kind (iprof_model_get_columns):
 * every record in one buffer with offsets, and every entry's context as
 * its node and as frames in one buffer with offsets, for bindings that
 * hand whole columns to numpy or a Rust slice instead of calling per
 * entry.
 *
 * The entries' records live in the arena one block per entry, so the
 * columns are a copy, built once per kind in one block from the model's
 * allocator and kept in m->columns[kind] until the kind's entries change
 * (ipi_model_changed). Like the lazy indexes (model_index.c), const callers
 * may race to build one: each builds its own and publishes it with a
 * compare-and-swap, and the losers free theirs.
 */
#include <iprof/analysis.h>

#include "model.h"

struct ipi_columns {
    size_t size; /* bytes of this block, arrays included */
    iprof_columns view;
};

/* Room for n items of size bytes after *at, 8-byte aligned; 0 on overflow. */
static int reserve(size_t *at, size_t n, size_t size)
{
    if (n > (SIZE_MAX - *at - 8) / size)
        return 0;
    *at = (*at + n * size + 7) & ~(size_t)7;
    return 1;
}

/* How far ahead the passes fetch entries' context nodes and records:
 * both lie scattered in the arena, a cache miss each. */
#define AHEAD 16

static ipi_columns *build(const iprof_model *m, int kind)
{
    const ipi_entry_list *l = &m->entries[kind];
    size_t n = l->count, records = 0, frames = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + AHEAD < n)
            ipi_prefetch(l->items[i + AHEAD].ctx);
        records += l->items[i].record_count;
        frames += l->items[i].ctx->depth;
    }
    size_t at = (sizeof(ipi_columns) + 7) & ~(size_t)7;
    size_t rec_at = at, off_at, ctx_at, fr_at, foff_at;
    if (!reserve(&at, records, sizeof(int64_t)) || !(off_at = at, reserve(&at, n + 1, 8)) ||
        !(ctx_at = at, reserve(&at, n, sizeof(void *))) ||
        !(fr_at = at, reserve(&at, frames, 2 * sizeof(int64_t))) ||
        !(foff_at = at, reserve(&at, n + 1, 8)))
        return NULL;
    char *block = ipi_malloc(&m->alloc, at);
    if (!block)
        return NULL;
    ipi_columns *c = (ipi_columns *)(void *)block;
    int64_t *rec = (int64_t *)(void *)(block + rec_at);
    uint64_t *off = (uint64_t *)(void *)(block + off_at);
    const iprof_context **ctxs = (const iprof_context **)(void *)(block + ctx_at);
    int64_t *fr = (int64_t *)(void *)(block + fr_at);
    uint64_t *foff = (uint64_t *)(void *)(block + foff_at);
    size_t r = 0, f = 0;
    for (size_t i = 0; i < n; i++) {
        const iprof_entry *e = &l->items[i];
        if (i + AHEAD < n) {
            ipi_prefetch(l->items[i + AHEAD].records);
            ipi_prefetch(l->items[i + AHEAD].ctx);
            if (l->items[i + AHEAD / 2].ctx->parent)
                ipi_prefetch(l->items[i + AHEAD / 2].ctx->parent);
        }
        off[i] = r;
        foff[i] = f;
        ctxs[i] = e->ctx;
        if (e->record_count)
            memcpy(rec + r, e->records, e->record_count * sizeof *rec);
        r += e->record_count;
        for (const iprof_context *x = e->ctx; x; x = x->parent, f++) {
            fr[2 * f] = x->method;
            fr[2 * f + 1] = ipi_ctx_bci(x);
        }
    }
    off[n] = r;
    foff[n] = f;
    c->size = at;
    c->view = (iprof_columns){IPROF_COLUMNS_VERSION, kind, n, records, rec, off, ctxs, frames,
                              fr, foff};
    return c;
}

void ipi_columns_drop(iprof_model *m, int kind)
{
    /* A relaxed load first: loads append entry after entry to models
     * that have no columns, and need no atomic exchange for that. */
    if (!atomic_load_explicit(&m->columns[kind], memory_order_relaxed))
        return;
    ipi_columns *c = atomic_exchange_explicit(&m->columns[kind], NULL, memory_order_relaxed);
    if (c)
        ipi_free(&m->alloc, c, c->size);
}

IPROF_API int iprof_model_get_columns(const iprof_model *model, int kind, iprof_columns *out)
{
    if (!model || kind < 0 || kind >= IPROF_KIND_COUNT || !out || out->version == 0 ||
        out->version > IPROF_COLUMNS_VERSION)
        return IPROF_EINVAL;
    /* The cast drops const only to reach the atomic slot: publishing the
     * columns changes no observable state of the model. */
    ipi_columns *_Atomic *slot = (ipi_columns *_Atomic *)&model->columns[kind];
    ipi_columns *c = atomic_load_explicit(slot, memory_order_acquire);
    if (!c) {
        ipi_columns *mine = build(model, kind);
        if (!mine)
            return IPROF_ENOMEM;
        ipi_columns *expected = NULL;
        if (atomic_compare_exchange_strong_explicit(slot, &expected, mine, memory_order_acq_rel,
                                                    memory_order_acquire)) {
            c = mine;
        } else {
            ipi_free(&model->alloc, mine, mine->size); /* another thread won */
            c = expected;
        }
    }
    /* Version 1 is every member so far; a later version fills its own. */
    unsigned int version = out->version;
    *out = c->view;
    out->version = version;
    return IPROF_OK;
}

