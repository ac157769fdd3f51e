/* An open-addressing table of 32-bit references keyed by a caller-computed
 * hash: 8-byte slots (32 bits of the hash, a reference), half of what a
 * 64-bit hash and a pointer take. For elements the caller keeps in an
 * index-addressed store (the model's context nodes, types, methods and
 * entries): the caller turns a reference into its element and compares
 * keys itself, probing inline (ipi_rtab_for), so hot lookups cost no
 * indirect calls. A slot holds the hash bits next to the reference: one
 * cache line answers most probes.
 *
 * Only the low 32 bits of a hash are kept: they pick the home slot (so a
 * table holds at most 2^32 slots) and reject most mismatches before the
 * element is read. Reference 0 marks an empty slot, so up to 2^32 - 1
 * references fit. */
#ifndef IPI_RTAB_H
#define IPI_RTAB_H

#include <iprof/iprof.h>

#include "prefetch.h"

typedef struct ipi_rtab_slot {
    uint32_t tag; /* the hash's low 32 bits */
    uint32_t ref; /* 0: empty */
} ipi_rtab_slot;

typedef struct ipi_rtab {
    ipi_rtab_slot *slots;
    size_t cap; /* power of two (at most 2^32), or 0 */
    size_t count;
} ipi_rtab;

void ipi_rtab_init(ipi_rtab *t);
void ipi_rtab_free(ipi_rtab *t, const iprof_allocator *a);
/* ipi_rtab_reserve's slow path: grow the table. */
int ipi_rtab_grow(ipi_rtab *t, const iprof_allocator *a, size_t n);

/* Make room for n more references: IPROF_OK, IPROF_ENOMEM, or
 * IPROF_ELIMIT beyond 2^32 - 1 of them. Inline: interning asks before
 * every new element. */
static inline int ipi_rtab_reserve(ipi_rtab *t, const iprof_allocator *a, size_t n)
{
    size_t room = t->cap / 4 * 3;
    return t->count < room && n <= room - t->count ? IPROF_OK : ipi_rtab_grow(t, a, n);
}
/* Insert ref (not 0) with hash h into a table with room reserved for it
 * (no duplicate check; cannot fail). */
void ipi_rtab_put(ipi_rtab *t, uint64_t h, uint32_t ref);
/* Remove ref (stored with hash h); 1 if it was there, else 0. Never
 * allocates. */
int ipi_rtab_remove(ipi_rtab *t, uint64_t h, uint32_t ref);

/* The home slot of h (cap > 0). */
static inline const ipi_rtab_slot *ipi_rtab_home(const ipi_rtab *t, uint64_t h)
{
    return &t->slots[(uint32_t)h & (t->cap - 1)];
}

/* Ask the cache for the home slot of h ahead of a lookup. */
static inline void ipi_rtab_prefetch(const ipi_rtab *t, uint64_t h)
{
    if (t->cap)
        ipi_prefetch(ipi_rtab_home(t, h));
}

/* The first reference stored with hash h (its low 32 bits) within the
 * first `probes` slots of its probe sequence, or 0: the candidate a lookup
 * of h compares first. Reads slots only, never an element. */
static inline uint32_t ipi_rtab_candidate(const ipi_rtab *t, uint64_t h, size_t probes)
{
    if (!t->cap)
        return 0;
    for (size_t i = (uint32_t)h & (t->cap - 1), k = 0; k < probes && t->slots[i].ref;
         i = (i + 1) & (t->cap - 1), k++)
        if (t->slots[i].tag == (uint32_t)h)
            return t->slots[i].ref;
    return 0;
}

/* Visit the references stored with hash h (and any other hash with the
 * same low 32 bits): `ipi_rtab_for(t, h, ref) { if (eq(ref)) ... }`, ref a
 * uint32_t variable of any name. */
#define ipi_rtab_for(t, h, var)                                                            \
    for (size_t ipi_i_ = (t)->cap ? ((uint32_t)(h) & ((t)->cap - 1)) : 0, ipi_m_ = (t)->cap - 1; \
         (t)->cap && ((var) = (t)->slots[ipi_i_].ref) != 0; ipi_i_ = (ipi_i_ + 1) & ipi_m_)    \
        if ((t)->slots[ipi_i_].tag == (uint32_t)(h))

#endif
