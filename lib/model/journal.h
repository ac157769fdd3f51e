/* The journal of a merge into a model (merge_stream.c): what the
 * model held when the merge started, the records of each entry it had
 * before their first change, the context nodes the merge created; so that
 * on any failure, out of memory included, the model is put back as it was.
 * Entries, types and methods the merge appended are cut off, their ids
 * leave the id maps, and ipi_model_changed hears what was cut and put
 * back. Not kept: what the lazy indexes derive (the names index keeps its
 * own count of unresolved methods), and refs_checked, which a merge
 * lowers only once nothing can fail any more. */
#ifndef IPI_JOURNAL_H
#define IPI_JOURNAL_H

#include "model.h"

/* An entry dst had, as it was before the merge first changed its records:
 * where they were and a copy of them. */
typedef struct ipi_saved_entry {
    struct ipi_saved_entry *prev; /* saved before this one */
    int64_t *records;
    size_t pos;
    uint32_t record_count;
    int kind;
    int64_t vals[]; /* the records' copy */
} ipi_saved_entry;

typedef struct ipi_journal {
    iprof_model *m;
    const iprof_allocator *a;
    /* dst as the merge found it */
    size_t types, methods, entries[IPROF_KIND_COUNT];
    size_t extras;
    int version_set, instanceof_key;
    const char *version;
    /* a bit per entry dst had: journalled already */
    uint64_t *touched[IPROF_KIND_COUNT];
    /* The saved entries and the context log's blocks: appended, never
     * moved (a merge into a large model saves hundreds of thousands of
     * entries, which a growing array would copy at each doubling), freed
     * at once. */
    ipi_arena arena;
    ipi_saved_entry *saved; /* the last saved */
    ipi_ctx_log contexts; /* the context nodes the merge created */
} ipi_journal;

/* Note dst as it is and log the context nodes created from now on;
 * IPROF_ENOMEM when the journal cannot be made (dst unchanged). Whatever
 * it returns, ipi_journal_free must follow. */
int ipi_journal_start(ipi_journal *j, iprof_model *dst);
/* An ipi_entry_hook (payload: the journal): keep the records of entry pos
 * of a kind dst had, before their first change. */
int ipi_journal_entry(void *payload, int kind, size_t pos);
/* Put dst back as the journal found it. Allocates nothing. */
void ipi_journal_undo(ipi_journal *j, iprof_model *dst);
/* Stop logging and free the journal (dst keeps what the merge did). */
void ipi_journal_free(ipi_journal *j, iprof_model *dst);

#endif
