/* The journal of a merge: see journal.h. */
#include "journal.h"

int ipi_journal_start(ipi_journal *j, iprof_model *dst)
{
    memset(j, 0, sizeof *j);
    j->m = dst;
    j->a = &dst->alloc;
    j->types = dst->type_count;
    j->methods = dst->method_count;
    j->extras = dst->extras.count;
    j->version_set = dst->version_set;
    j->instanceof_key = dst->extras.instanceof_key;
    j->version = dst->version;
    ipi_arena_init(&j->arena, j->a);
    j->contexts.arena = &j->arena;
    dst->ctx_log = &j->contexts;
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        j->entries[k] = dst->entries[k].count;
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        size_t words = (j->entries[k] + 63) / 64;
        if (!words)
            continue;
        j->touched[k] = ipi_malloc(j->a, words * sizeof *j->touched[k]);
        if (!j->touched[k])
            return IPROF_ENOMEM;
        memset(j->touched[k], 0, words * sizeof *j->touched[k]);
    }
    return IPROF_OK;
}

void ipi_journal_free(ipi_journal *j, iprof_model *dst)
{
    dst->ctx_log = NULL;
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        ipi_free(j->a, j->touched[k], (j->entries[k] + 63) / 64 * sizeof *j->touched[k]);
    ipi_arena_free(&j->arena);
}

/* Keep the records of entry pos of a kind dst had before its first change
 * in this merge (entries the merge appended are simply cut off). */
static int journal_save(ipi_journal *j, const iprof_entry *e, int kind, size_t pos)
{
    uint64_t bit = (uint64_t)1 << (pos % 64);
    if (pos >= j->entries[kind] || (j->touched[kind][pos / 64] & bit))
        return IPROF_OK;
    size_t size = sizeof(ipi_saved_entry) + (size_t)e->record_count * sizeof(int64_t);
    ipi_saved_entry *s = ipi_arena_alloc(&j->arena, size);
    if (!s)
        return IPROF_ENOMEM;
    *s = (ipi_saved_entry){j->saved, e->records, pos, e->record_count, kind};
    if (e->record_count)
        memcpy(s->vals, e->records, e->record_count * sizeof *s->vals);
    j->saved = s;
    j->touched[kind][pos / 64] |= bit;
    return IPROF_OK;
}

/* Put dst back as the journal found it. Allocates nothing; what it puts
 * back it says to ipi_model_changed, which drops what went stale. */
void ipi_journal_undo(ipi_journal *j, iprof_model *dst)
{
    for (const ipi_saved_entry *s = j->saved; s; s = s->prev) {
        iprof_entry *e = &dst->entries[s->kind].items[s->pos];
        ipi_model_changed(dst, IPI_CHANGED_RECORDS, s->kind);
        if (s->record_count)
            memcpy(s->records, s->vals, s->record_count * sizeof *s->vals);
        e->records = s->records;
        e->record_count = s->record_count;
    }
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        if (dst->entries[k].count != j->entries[k]) {
            dst->entries[k].count = j->entries[k];
            ipi_model_changed(dst, IPI_CHANGED_ENTRIES_REMOVED, k);
        }
    /* The ids of what the merge added are fresh (it never takes an id dst
     * uses): they leave the id indexes. */
    unsigned cut = (dst->type_count != j->types ? IPI_CHANGED_TYPES_REMOVED : 0) |
                   (dst->method_count != j->methods ? IPI_CHANGED_METHODS_REMOVED : 0);
    ipi_model_truncate(dst, j->types, j->methods);
    ipi_model_changed(dst, cut, -1);
    ipi_context_forget(dst, &j->contexts);
    ipi_unknown_truncate(dst, j->extras);
    dst->extras.instanceof_key = j->instanceof_key;
    dst->version = j->version;
    dst->version_set = j->version_set;
}

int ipi_journal_entry(void *payload, int kind, size_t pos)
{
    ipi_journal *j = payload;
    return journal_save(j, &j->m->entries[kind].items[pos], kind, pos);
}
