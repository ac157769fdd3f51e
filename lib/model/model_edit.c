/*
 * Editing records: replacing one entry's, rewriting a kind's with a
 * function, scaling counts. Each checks everything before it changes
 * anything, as adding does.
 */
#include <math.h>

#include <iprof/edit.h>

#include "model.h"
#include "rules.h"
#include "scale.h"

/* New records for entry e (its context unchanged, so only the records'
 * rules and type ids are checked: the same for set and map). */
static int check_rewritten(iprof_model *m, const iprof_entry *e, const int64_t *records,
                           size_t record_count)
{
    iprof_entry probe = *e;
    probe.records = (int64_t *)records;
    probe.record_count = (uint32_t)record_count;
    int64_t callee[2] = {e->ctx->method, ipi_ctx_bci(e->ctx)};
    int rule = ipi_rule_check_entry(e->kind, callee, 1, records, record_count);
    if (rule != IPI_RULE_OK && !ipi_rule_is_ctx(rule))
        return ipi_entry_fail_rule(m, &probe, rule, 0);
    return ipi_entry_check_type_refs(m, m, &probe, "the model");
}

IPROF_API int iprof_model_set_entry_records(iprof_model *model, int kind, const int64_t *frames,
                                            size_t frame_count, const int64_t *records,
                                            size_t record_count)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    if (kind < 0 || kind >= IPROF_KIND_COUNT || !frames || !frame_count ||
        (!records && record_count))
        return ipi_model_fail(model, IPROF_EINVAL, "invalid kind %d, no frames or NULL records",
                              kind);
    if (record_count > IPI_MAX_RECORDS)
        return ipi_model_fail(model, IPROF_ELIMIT, "more than %zu records",
                              (size_t)IPI_MAX_RECORDS);
    const iprof_context *ctx = ipi_context_lookup(model, frames, frame_count);
    size_t pos = ctx ? ipi_find_entry_pos(model, kind, ctx) : 0;
    if (!pos)
        return ipi_model_fail_about(model, IPROF_ENOTFOUND,
                                    &(ipi_subject){kind, frames, frame_count, NULL, NULL},
                                    "no %s entry with this context", iprof_kind_name(kind));
    iprof_entry *e = &model->entries[kind].items[pos - 1];
    int rc = check_rewritten(model, e, records, record_count);
    if (rc)
        return rc;
    /* Fewer or as many records fit where the old ones were. */
    int64_t *to = record_count <= e->record_count
                      ? e->records
                      : ipi_arena_alloc(&model->arena, record_count * sizeof *records);
    if (!to && record_count)
        return ipi_model_fail(model, IPROF_ENOMEM, "out of memory");
    ipi_model_changed(model, IPI_CHANGED_RECORDS, kind);
    if (record_count)
        memcpy(to, records, record_count * sizeof *records);
    e->records = to;
    e->record_count = (uint32_t)record_count;
    return IPROF_OK;
}

IPROF_API int iprof_model_map_records(iprof_model *model, int kind, iprof_records_fn fn,
                                      void *payload)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    if (kind < 0 || kind >= IPROF_KIND_COUNT || !fn)
        return ipi_model_fail(model, IPROF_EINVAL, "invalid kind %d, or no function", kind);
    ipi_entry_list *l = &model->entries[kind];
    size_t total = 0;
    for (size_t i = 0; i < l->count; i++)
        total += l->items[i].record_count;
    if (total > SIZE_MAX / sizeof(int64_t))
        return ipi_model_fail(model, IPROF_ENOMEM, "out of memory");
    /* At least one slot: the function always gets a valid pointer. */
    size_t slots = total ? total : 1;
    int64_t *copy = ipi_malloc(&model->alloc, slots * sizeof *copy);
    if (!copy)
        return ipi_model_fail(model, IPROF_ENOMEM, "out of memory");
    int rc = IPROF_OK;
    size_t at = 0;
    for (size_t i = 0; i < l->count && !rc; i++) {
        const iprof_entry *e = &l->items[i];
        if (e->record_count) /* an entry without records may have no array */
            memcpy(copy + at, e->records, e->record_count * sizeof *copy);
        if (fn(e, copy + at, e->record_count, payload))
            rc = ipi_model_fail_about(model, IPROF_ESTOPPED, &(ipi_subject){kind, NULL, 0, NULL, NULL},
                                      "stopped by the function at %s entry %zu",
                                      iprof_kind_name(kind), i);
        else
            rc = check_rewritten(model, e, copy + at, e->record_count);
        at += e->record_count;
    }
    /* Every entry passed: store. */
    if (!rc)
        ipi_model_changed(model, IPI_CHANGED_RECORDS, kind);
    for (size_t i = 0, off = 0; i < l->count && !rc; off += l->items[i++].record_count)
        if (l->items[i].record_count)
            memcpy(l->items[i].records, copy + off, l->items[i].record_count * sizeof *copy);
    ipi_free(&model->alloc, copy, slots * sizeof *copy);
    return rc;
}

IPROF_API int iprof_model_scale(iprof_model *model, int kind, double weight, int rounding)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    if (kind < -1 || kind >= IPROF_KIND_COUNT)
        return ipi_model_fail(model, IPROF_EINVAL, "invalid kind %d", kind);
    if (weight != weight || weight < 0 || isinf(weight))
        return ipi_model_fail(model, IPROF_EINVAL, "weight %s: must be finite and >= 0",
                              weight != weight ? "nan" : weight < 0 ? "negative" : "inf");
    if (rounding < IPROF_ROUND_NEAREST_AWAY || rounding > IPROF_ROUND_FLOOR)
        return ipi_model_fail(model, IPROF_EINVAL, "unknown rounding %d", rounding);
    ipi_scaler sc;
    ipi_scaler_init(&sc, weight, rounding);
    for (int k = kind < 0 ? 0 : kind; k < (kind < 0 ? IPROF_KIND_COUNT : kind + 1); k++) {
        const ipi_kind_layout *L = ipi_kind_layout_of(k);
        ipi_entry_list *l = &model->entries[k];
        ipi_model_changed(model, IPI_CHANGED_RECORDS, k);
        for (size_t i = 0; i < l->count; i++) {
            iprof_entry *e = &l->items[i];
            for (size_t j = (size_t)L->count_slot; j < e->record_count; j += (size_t)L->group)
                e->records[j] = ipi_scale(&sc, e->records[j]);
        }
    }
    return IPROF_OK;
}
