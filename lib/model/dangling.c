/*
 * Dropping what dangles: methods whose signatures name types the model
 * does not define, then entries whose contexts name methods it does not
 * define or whose records name undefined types. What a salvaging load
 * keeps of a damaged file may refer to what the damage cut off; after
 * this, a strict write accepts it.
 */
#include <iprof/model.h>
#include <iprof/transform.h>

#include "model.h"
#include "rules.h"

static int method_whole(const iprof_method *method, void *payload)
{
    const iprof_model *m = payload;
    for (size_t k = 0; k < method->sig_len; k++)
        if (!iprof_model_type_by_id(m, method->sig[k]))
            return 0;
    return 1;
}

static int entry_whole(const iprof_entry *entry, void *payload)
{
    const iprof_model *m = payload;
    const ipi_kind_layout *lay = ipi_kind_layout_of(entry->kind);
    if (lay->checks_methods)
        for (const iprof_context *c = entry->ctx; c; c = c->parent)
            if (!iprof_model_method_by_id(m, c->method))
                return 0;
    if (lay->type_slot >= 0)
        for (size_t i = (size_t)lay->type_slot; i < entry->record_count; i += (size_t)lay->group)
            if (!iprof_model_type_by_id(m, entry->records[i]))
                return 0;
    return 1;
}

IPROF_API int iprof_model_drop_dangling(iprof_model *model, size_t *methods,
                                        size_t entries[IPROF_KIND_COUNT])
{
    if (!model)
        return IPROF_EINVAL;
    size_t before = model->method_count;
    int rc = iprof_model_retain_methods(model, method_whole, model);
    if (rc)
        return rc;
    if (methods)
        *methods = before - model->method_count;
    for (int kind = 0; kind < IPROF_KIND_COUNT; kind++) {
        before = iprof_model_entry_count(model, kind);
        if ((rc = iprof_model_retain_entries(model, kind, entry_whole, model)))
            return rc;
        if (entries)
            entries[kind] = before - iprof_model_entry_count(model, kind);
    }
    return IPROF_OK;
}
