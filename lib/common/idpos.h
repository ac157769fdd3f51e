/* Where each id sits in a list (the model's types, its methods): the
 * FIRST position holding it, in O(1) and few bytes.
 *
 * Real files and the generator number ids in increasing file order, with
 * gaps (2-10 % of the ids in the corpus are unused). While every id
 * appended is above the last, the index is a bitmap of the ids present
 * over their range from base, with per 64 ids the count of ids before
 * them: the position of an id is that count plus the bits set below it in
 * its word (one word read, one popcount), about 0.2 bytes per id where a
 * map of pointers took 12. When that stops holding (an id out of order, a
 * duplicate, a range too sparse for a bitmap) the index becomes a map of
 * 4-byte positions + 1 (ipi_idmap32), built then. Removing and filtering
 * keep the order, so they never need the map. The list itself stays the
 * caller's: calls that need its ids take them through an ipi_idpos_id_fn. */
#ifndef IPI_IDPOS_H
#define IPI_IDPOS_H

#include "idmap.h"

typedef struct ipi_idpos {
    int mapped; /* 0: the bitmap (nothing allocated while empty) */
    /* The bitmap: bit d of the words is id base + d. */
    int64_t base;
    int64_t last;    /* the largest id, when any */
    uint64_t *bits;  /* words of them in use, room for word_cap */
    uint32_t *ranks; /* ranks[w]: the ids of words below w (same block) */
    size_t words, word_cap;
    size_t block_size; /* bytes of the block holding both */
    ipi_idmap32 map; /* mapped: id -> its first position + 1 */
} ipi_idpos;

/* The id at position i of the caller's list. */
typedef int64_t (*ipi_idpos_id_fn)(const void *list, size_t i);

/* The most positions a list may hold: ranks and the map store them in 32
 * bits. ipi_idpos_reserve refuses more with IPROF_ELIMIT. */
#define IPI_IDPOS_MAX ((size_t)UINT32_MAX - 1)

void ipi_idpos_init(ipi_idpos *x);
void ipi_idpos_free(ipi_idpos *x, const iprof_allocator *a);

/* The first position holding id: a value >= the list's count when none
 * (UINT64_MAX; the caller compares with its count). */
static inline uint64_t ipi_idpos_get(const ipi_idpos *x, int64_t id)
{
    if (x->mapped)
        return (uint64_t)ipi_idmap32_get(&x->map, id) - 1; /* 0 (none): UINT64_MAX */
    uint64_t d = (uint64_t)id - (uint64_t)x->base;
    if (d >= (uint64_t)x->words * 64)
        return UINT64_MAX;
    uint64_t w = x->bits[d / 64], below = w & (((uint64_t)1 << (d % 64)) - 1);
    if (!(w >> (d % 64) & 1))
        return UINT64_MAX;
    return x->ranks[d / 64] + (uint64_t)__builtin_popcountll(below);
}

int ipi_idpos_reserve_slow(ipi_idpos *x, const iprof_allocator *a, size_t count, int64_t id);
void ipi_idpos_put_slow(ipi_idpos *x, size_t count, int64_t id);

/* Before appending id at position count (the list's length): makes the
 * next ipi_idpos_put_reserved unable to fail, growing the bitmap or
 * turning the index into a map. IPROF_ENOMEM or IPROF_ELIMIT leave the
 * index as good as before. Inline for the next id of a file within the
 * bitmap's room: nearly every one of a load. */
static inline int ipi_idpos_reserve(ipi_idpos *x, const iprof_allocator *a, size_t count,
                                    int64_t id)
{
    if (!x->mapped && count && count < IPI_IDPOS_MAX && id > x->last &&
        ((uint64_t)id - (uint64_t)x->base) / 64 < x->word_cap)
        return IPROF_OK;
    return ipi_idpos_reserve_slow(x, a, count, id);
}

/* Index id, just appended at position count, unless an earlier position
 * holds it. */
static inline void ipi_idpos_put_reserved(ipi_idpos *x, size_t count, int64_t id)
{
    uint64_t d = (uint64_t)id - (uint64_t)x->base;
    if (!x->mapped && count && d / 64 < x->words) {
        x->bits[d / 64] |= (uint64_t)1 << (d % 64);
        x->last = id;
        return;
    }
    ipi_idpos_put_slow(x, count, id);
}

/* After position pos was removed from the list (count positions now).
 * Never allocates. */
void ipi_idpos_removed(ipi_idpos *x, size_t count, size_t pos, int64_t id,
                       ipi_idpos_id_fn id_at, const void *list);
/* After the list was filtered, keeping its order (count positions now).
 * Never allocates. */
void ipi_idpos_rebuild(ipi_idpos *x, size_t count, ipi_idpos_id_fn id_at, const void *list);
/* Forget positions keep..count-1 (their elements still in the list while
 * this runs): undoing appends. Never allocates. */
void ipi_idpos_truncate(ipi_idpos *x, size_t count, size_t keep, ipi_idpos_id_fn id_at,
                        const void *list);
/* Give back the bitmap's growth slack (end of a load); keeps the larger
 * block when the allocator cannot shrink it. */
void ipi_idpos_shrink(ipi_idpos *x, const iprof_allocator *a);

/* The largest id of the list, INT64_MIN when it is empty. */
int64_t ipi_idpos_max(const ipi_idpos *x, size_t count);
/* How many distinct ids the list holds (count when none repeats). */
size_t ipi_idpos_distinct(const ipi_idpos *x, size_t count);
/* Bytes the index holds outside the list. */
size_t ipi_idpos_bytes(const ipi_idpos *x);

#endif
