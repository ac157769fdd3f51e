/*
 * Totals of a profile: one entry's count (the count slot of each record,
 * by the kind's layout) and the totals per callee method with the hottest
 * first, which is what iprof stats lists and what a post-processor ranks
 * methods by.
 */
#include <iprof/analysis.h>

#include <stdlib.h>

#include "model.h"
#include "rules.h"

IPROF_API int64_t iprof_entry_total(const iprof_entry *entry)
{
    if (!entry)
        return 0;
    const ipi_kind_layout *L = ipi_kind_layout_of(entry->kind);
    int64_t t = 0;
    for (size_t i = (size_t)L->count_slot; i < entry->record_count; i += (size_t)L->group)
        t = ipi_count_add(t, entry->records[i]);
    return t;
}

typedef struct method_total {
    int64_t id, total;
} method_total;

static int by_id(const void *pa, const void *pb)
{
    const method_total *a = pa, *b = pb;
    return (a->id > b->id) - (a->id < b->id);
}

/* Hottest first, ties by ascending id. */
static int by_total(const void *pa, const void *pb)
{
    const method_total *a = pa, *b = pb;
    if (a->total != b->total)
        return a->total > b->total ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

IPROF_API int iprof_model_method_totals(const iprof_model *model, int kind, int64_t *method_ids,
                                        int64_t *totals, size_t capacity, size_t *count)
{
    if (!count)
        return IPROF_EINVAL;
    *count = 0;
    if (!model || kind < 0 || kind >= IPROF_KIND_COUNT || ((!method_ids || !totals) && capacity))
        return IPROF_EINVAL;
    const ipi_entry_list *l = &model->entries[kind];
    if (l->count == 0)
        return IPROF_OK;
    if (l->count > SIZE_MAX / sizeof(method_total))
        return IPROF_ENOMEM;
    size_t size = l->count * sizeof(method_total);
    iprof_allocator a = model->alloc; /* a copy: the model is const */
    method_total *t = ipi_malloc(&a, size);
    if (!t)
        return IPROF_ENOMEM;
    for (size_t i = 0; i < l->count; i++)
        t[i] = (method_total){l->items[i].ctx->method, iprof_entry_total(&l->items[i])};
    /* Sum per method, then rank. */
    qsort(t, l->count, sizeof *t, by_id);
    size_t n = 0;
    for (size_t i = 0; i < l->count; i++) {
        if (n && t[n - 1].id == t[i].id)
            t[n - 1].total = ipi_count_add(t[n - 1].total, t[i].total);
        else
            t[n++] = t[i];
    }
    qsort(t, n, sizeof *t, by_total);
    for (size_t i = 0; i < n && i < capacity; i++) {
        method_ids[i] = t[i].id;
        totals[i] = t[i].total;
    }
    *count = n;
    ipi_free(&a, t, size);
    return IPROF_OK;
}
