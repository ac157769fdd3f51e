/* Ids -> int64 values in pages (idpages.h). */
#include "idpages.h"

#include <string.h>

#include "alloc.h"

/* The most pages: ids below 2^40, a table of at most 2 GiB that the slack
 * rule keeps to a few bytes a value set. */
#define MAX_PAGES ((uint64_t)1 << (40 - IPI_IDPAGES_SHIFT))

void ipi_idpages_init(ipi_idpages *p, int64_t none)
{
    memset(p, 0, sizeof *p);
    p->none = none;
}

void ipi_idpages_free(ipi_idpages *p, const iprof_allocator *a)
{
    for (size_t i = 0; i < p->table_cap; i++)
        ipi_free(a, p->pages[i], IPI_IDPAGES_SIZE * sizeof *p->pages[i]);
    ipi_free(a, p->pages, p->table_cap * sizeof *p->pages);
    ipi_idpages_init(p, p->none);
}

/* Whether the page of id may be allocated: every id up to the end of that
 * page, counted as a slot, stays within the slack per value set (one
 * page's worth always allowed, so that the first ids find room). */
static int page_allowed(const ipi_idpages *p, uint64_t page)
{
    uint64_t slots = (page + 1) * IPI_IDPAGES_SIZE;
    return page < MAX_PAGES && slots <= IPI_IDPAGES_SLACK * ((uint64_t)p->count + IPI_IDPAGES_SIZE);
}

/* The table grown to hold page (ipi_grow_array: doubling), new slots NULL. */
static int grow_table(ipi_idpages *p, const iprof_allocator *a, uint64_t page)
{
    size_t old = p->table_cap;
    if (ipi_grow_array(a, &p->pages, &p->table_cap, (size_t)page + 1, sizeof *p->pages))
        return IPROF_ENOMEM;
    memset(p->pages + old, 0, (p->table_cap - old) * sizeof *p->pages);
    return IPROF_OK;
}

static int new_page(ipi_idpages *p, const iprof_allocator *a, uint64_t page)
{
    if (page >= p->table_cap && grow_table(p, a, page))
        return IPROF_ENOMEM;
    int64_t *values = ipi_malloc_whole(a, IPI_IDPAGES_SIZE * sizeof *values);
    if (!values)
        return IPROF_ENOMEM;
    for (size_t i = 0; i < IPI_IDPAGES_SIZE; i++)
        values[i] = p->none;
    p->pages[page] = values;
    p->page_count++;
    return IPROF_OK;
}

int ipi_idpages_put(ipi_idpages *p, const iprof_allocator *a, int64_t id, int64_t val, int *kept)
{
    uint64_t page = (uint64_t)id >> IPI_IDPAGES_SHIFT;
    *kept = 0;
    if (page >= p->table_cap || !p->pages[page]) {
        if (id < 0 || !page_allowed(p, page))
            return IPROF_OK;
        if (new_page(p, a, page))
            return IPROF_ENOMEM;
    }
    int64_t *slot = &p->pages[page][(uint64_t)id & (IPI_IDPAGES_SIZE - 1)];
    p->count += *slot == p->none;
    *slot = val;
    *kept = 1;
    return IPROF_OK;
}
