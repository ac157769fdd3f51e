/* An open-addressing table of pointers keyed by a caller-computed 64-bit
 * hash. The caller probes inline (ipi_htab_for) and compares keys itself,
 * so hot lookups (context interning) cost no indirect calls. A slot holds
 * the hash next to the item: one cache line answers most probes. */
#ifndef IPI_HTAB_H
#define IPI_HTAB_H

#include <iprof/iprof.h>

typedef struct ipi_htab_slot {
    uint64_t hash;
    void *item; /* NULL marks an empty slot */
} ipi_htab_slot;

typedef struct ipi_htab {
    ipi_htab_slot *slots;
    size_t cap; /* power of two, or 0 */
    size_t count;
} ipi_htab;

void ipi_htab_init(ipi_htab *t);
void ipi_htab_free(ipi_htab *t, const iprof_allocator *a);
/* Make room for n more items. */
int ipi_htab_reserve(ipi_htab *t, const iprof_allocator *a, size_t n);
/* Insert item with hash h (no duplicate check). 0 or IPROF_ENOMEM. */
int ipi_htab_insert(ipi_htab *t, const iprof_allocator *a, uint64_t h, void *item);

/* Remove item (stored with hash h); 1 if it was there, else 0. Never
 * allocates. */
int ipi_htab_remove(ipi_htab *t, uint64_t h, const void *item);

/* Ask the cache for the line at p (a hint: p may be anything, even NULL). */
static inline void ipi_prefetch(const void *p)
{
#if defined(__GNUC__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

/* Ask the cache for the home slot of h ahead of a lookup. */
static inline void ipi_htab_prefetch(const ipi_htab *t, uint64_t h)
{
#if defined(__GNUC__)
    if (t->cap)
        __builtin_prefetch(&t->slots[h & (t->cap - 1)]);
#else
    (void)t;
    (void)h;
#endif
}

/* The first item stored with hash h within the first `probes` slots of its
 * probe sequence, or NULL: the candidate a lookup of h compares first.
 * Reads slots only, never an item. */
static inline void *ipi_htab_candidate(const ipi_htab *t, uint64_t h, size_t probes)
{
    if (!t->cap)
        return NULL;
    for (size_t i = h & (t->cap - 1), k = 0; k < probes && t->slots[i].item;
         i = (i + 1) & (t->cap - 1), k++)
        if (t->slots[i].hash == h)
            return t->slots[i].item;
    return NULL;
}

/* Ask the cache for the candidate of h, once its slots are there
 * (ipi_htab_prefetch a few lookups earlier), so that the lookup's compare
 * finds the item's line too. Four slots hold most probes at 3/4 load. */
static inline void ipi_htab_prefetch_item(const ipi_htab *t, uint64_t h)
{
    ipi_prefetch(ipi_htab_candidate(t, h, 4));
}

/* Visit the candidates for hash h: `ipi_htab_for(t, h, it) { if (eq(it)) ... }`. */
#define ipi_htab_for(t, h, it)                                                           \
    for (size_t ipi_i_ = (t)->cap ? ((h) & ((t)->cap - 1)) : 0, ipi_m_ = (t)->cap - 1; \
         (t)->cap && ((it) = (t)->slots[ipi_i_].item) != NULL; ipi_i_ = (ipi_i_ + 1) & ipi_m_) \
        if ((t)->slots[ipi_i_].hash == (h))

#endif
