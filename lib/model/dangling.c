/*
 * Dropping what dangles: methods whose signatures name types the model
 * does not define, then entries whose contexts name methods it does not
 * define or whose records name undefined types. What a salvaging load
 * keeps of a damaged file may refer to what the damage cut off; after
 * this, a strict write accepts it. iprof_model_drop_dangling and
 * iprof_model_prune(IPROF_PRUNE_DANGLING) (transform.c) both run it.
 */
#include <iprof/iprof.h>
#include <iprof/transform.h>

#include "model.h"

/* The reference checks of a strict write (model.c, model_entry.c), as
 * retain predicates. */
static int method_whole(const iprof_method *method, void *payload)
{
    return ipi_method_sig_missing(payload, method->sig, method->sig_len) == method->sig_len;
}

static int entry_whole(const iprof_entry *entry, void *payload)
{
    return ipi_entry_refs_ok(payload, entry);
}

int ipi_model_drop_dangling(iprof_model *model, size_t *methods,
                            size_t entries[IPROF_KIND_COUNT])
{
    if (!model)
        return IPROF_EINVAL;
    size_t before = model->method_count;
    /* Entries naming what goes dangle until the next step. */
    int rc = ipi_model_retain_methods(model, method_whole, model, IPI_CHANGED_UNCHECKED);
    if (rc)
        return rc;
    if (methods)
        *methods = before - model->method_count;
    for (int kind = 0; kind < IPROF_KIND_COUNT; kind++) {
        before = iprof_model_entry_count(model, kind);
        if ((rc = ipi_model_retain_entries(model, kind, entry_whole, model)))
            return rc;
        if (entries)
            entries[kind] = before - iprof_model_entry_count(model, kind);
    }
    return IPROF_OK;
}

