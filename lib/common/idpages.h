/* Ids -> int64 values for ids that a file numbers densely from 0, in
 * pages of IPI_IDPAGES_SIZE values allocated as the ids reach them.
 *
 * Why not the dense part of an ipi_idmap (idmap.h): that array grows by
 * realloc, and each step copies what it holds into memory touched for the
 * first time. A map filled id by id, a million ids in a merge, so moves
 * and faults in about three times its final size; a page is filled once,
 * when its first id comes, and never moves. The price is one more load
 * per lookup, from a table of a few kilobytes.
 *
 * Negative, huge or sparse ids are refused (ipi_idpages_put says so), for
 * the caller to keep in a hash map: the pages stay within
 * IPI_IDPAGES_SLACK slots per value set, as an idmap's dense part does. */
#ifndef IPI_IDPAGES_H
#define IPI_IDPAGES_H

#include <iprof/iprof.h>

#include "prefetch.h"

#define IPI_IDPAGES_SHIFT 12 /* 4,096 values (32 KiB) a page */
#define IPI_IDPAGES_SIZE ((size_t)1 << IPI_IDPAGES_SHIFT)
#define IPI_IDPAGES_SLACK 4

typedef struct ipi_idpages {
    int64_t **pages;   /* pages[id >> SHIFT], NULL until its first id */
    size_t table_cap;  /* slots of pages */
    size_t page_count; /* pages allocated */
    size_t count;      /* ids set */
    int64_t none;      /* the value of an id not set */
} ipi_idpages;

/* Empty, every id's value `none` (which no put may store). */
void ipi_idpages_init(ipi_idpages *p, int64_t none);
void ipi_idpages_free(ipi_idpages *p, const iprof_allocator *a);

/* id's value, or none. */
static inline int64_t ipi_idpages_get(const ipi_idpages *p, int64_t id)
{
    uint64_t page = (uint64_t)id >> IPI_IDPAGES_SHIFT; /* huge when negative */
    if (page >= p->table_cap || !p->pages[page])
        return p->none;
    return p->pages[page][(uint64_t)id & (IPI_IDPAGES_SIZE - 1)];
}

/* Ask the cache for id's slot ahead of an ipi_idpages_get (nothing when
 * its page does not exist). */
static inline void ipi_idpages_prefetch(const ipi_idpages *p, int64_t id)
{
    uint64_t page = (uint64_t)id >> IPI_IDPAGES_SHIFT;
    if (page < p->table_cap && p->pages[page])
        ipi_prefetch(&p->pages[page][(uint64_t)id & (IPI_IDPAGES_SIZE - 1)]);
}

/* Set id's value (val is not none): IPROF_OK with *kept 1, or *kept 0
 * when the id is not one for pages (negative, 2^40 or more, or so far
 * beyond the ids set that its page would break the slack); IPROF_ENOMEM. */
int ipi_idpages_put(ipi_idpages *p, const iprof_allocator *a, int64_t id, int64_t val,
                    int *kept);

#endif
