/* Linear probing with backward-shift deletion, load <= 3/4: the stored
 * hashes reject most mismatches without touching the items, so a fuller
 * table costs little time and saves a quarter of the memory (these tables
 * are a large part of a loaded model). */
#include "htab.h"

#include <string.h>

#include "alloc.h"

void ipi_htab_init(ipi_htab *t)
{
    memset(t, 0, sizeof *t);
}

void ipi_htab_free(ipi_htab *t, const iprof_allocator *a)
{
    ipi_free(a, t->hashes, t->cap * sizeof *t->hashes);
    ipi_free(a, t->items, t->cap * sizeof *t->items);
    ipi_htab_init(t);
}

void ipi_htab_clear(ipi_htab *t)
{
    if (t->cap)
        memset(t->items, 0, t->cap * sizeof *t->items);
    t->count = 0;
}

static void raw_insert(ipi_htab *t, uint64_t h, void *item)
{
    size_t mask = t->cap - 1;
    size_t i = h & mask;
    while (t->items[i])
        i = (i + 1) & mask;
    t->hashes[i] = h;
    t->items[i] = item;
    t->count++;
}

int ipi_htab_reserve(ipi_htab *t, const iprof_allocator *a, size_t n)
{
    size_t need = t->count + n;
    if (need > SIZE_MAX / 4)
        return IPROF_ENOMEM;
    if (need <= t->cap / 4 * 3)
        return IPROF_OK;
    size_t ncap = t->cap ? t->cap : 16;
    while (need > ncap / 4 * 3)
        ncap *= 2;
    uint64_t *hashes = ipi_malloc(a, ncap * sizeof *hashes);
    void **items = ipi_malloc(a, ncap * sizeof *items);
    if (!hashes || !items) {
        ipi_free(a, hashes, ncap * sizeof *hashes);
        ipi_free(a, items, ncap * sizeof *items);
        return IPROF_ENOMEM;
    }
    memset(items, 0, ncap * sizeof *items);
    ipi_htab old = *t;
    t->hashes = hashes;
    t->items = items;
    t->cap = ncap;
    t->count = 0;
    for (size_t i = 0; i < old.cap; i++)
        if (old.items[i])
            raw_insert(t, old.hashes[i], old.items[i]);
    ipi_free(a, old.hashes, old.cap * sizeof *old.hashes);
    ipi_free(a, old.items, old.cap * sizeof *old.items);
    return IPROF_OK;
}

int ipi_htab_insert(ipi_htab *t, const iprof_allocator *a, uint64_t h, void *item)
{
    int rc = ipi_htab_reserve(t, a, 1);
    if (rc)
        return rc;
    raw_insert(t, h, item);
    return IPROF_OK;
}

int ipi_htab_remove(ipi_htab *t, uint64_t h, const void *item)
{
    if (!t->count)
        return 0;
    size_t mask = t->cap - 1;
    size_t i = h & mask;
    while (t->items[i] && t->items[i] != item)
        i = (i + 1) & mask;
    if (!t->items[i])
        return 0;
    size_t hole = i;
    for (size_t j = (i + 1) & mask; t->items[j]; j = (j + 1) & mask) {
        size_t home = t->hashes[j] & mask;
        if (((j - home) & mask) >= ((j - hole) & mask)) {
            t->hashes[hole] = t->hashes[j];
            t->items[hole] = t->items[j];
            hole = j;
        }
    }
    t->items[hole] = NULL;
    t->count--;
    return 1;
}
