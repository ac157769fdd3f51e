/* A set of int64 ids: a bitmap for the small non-negative ids real files
 * use (GraalVM numbers types and methods densely from 0), a hash map for
 * the rest. One bit per id makes the reader's reference checks a load and
 * a mask instead of a hash probe. */
#ifndef IPI_IDSET_H
#define IPI_IDSET_H

#include "idmap.h"

/* Ids below this use the bitmap (2 MiB at most). */
#define IPI_IDSET_DENSE_LIMIT ((int64_t)1 << 24)

typedef struct ipi_idset {
    uint64_t *bits;
    size_t words; /* bitmap size in 64-bit words */
    ipi_idmap sparse;
    size_t count;
} ipi_idset;

void ipi_idset_init(ipi_idset *s);
void ipi_idset_free(ipi_idset *s, const iprof_allocator *a);
void ipi_idset_clear(ipi_idset *s);

static inline int ipi_idset_has(const ipi_idset *s, int64_t id)
{
    if (id >= 0 && (uint64_t)id < (uint64_t)s->words * 64)
        return (int)(s->bits[id >> 6] >> (id & 63) & 1);
    if (id >= 0 && id < IPI_IDSET_DENSE_LIMIT)
        return 0;
    return ipi_idmap_get(&s->sparse, id) != NULL;
}

/* The slow part of ipi_idset_add: ids beyond the bitmap. */
int ipi_idset_add_slow(ipi_idset *s, const iprof_allocator *a, int64_t id, int *added);

/* Add id; *added tells whether it was new. 0 or IPROF_ENOMEM. Inline for
 * the bitmap case: the reader adds every type and method id. */
static inline int ipi_idset_add(ipi_idset *s, const iprof_allocator *a, int64_t id, int *added)
{
    if (id >= 0 && (uint64_t)id < (uint64_t)s->words * 64) {
        uint64_t *w = &s->bits[id >> 6], bit = (uint64_t)1 << (id & 63);
        *added = !(*w & bit);
        *w |= bit;
        s->count += (size_t)*added;
        return IPROF_OK;
    }
    return ipi_idset_add_slow(s, a, id, added);
}

#endif
