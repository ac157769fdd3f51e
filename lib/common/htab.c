/* Linear probing with backward-shift deletion, load <= 3/4: the stored
 * hashes reject most mismatches without touching the items, so a fuller
 * table costs little time and saves a quarter of the memory (these tables
 * are a large part of a loaded model). */
#include "htab.h"

#include <string.h>

#include "alloc.h"
#include "regrow.h"

void ipi_htab_init(ipi_htab *t)
{
    memset(t, 0, sizeof *t);
}

void ipi_htab_free(ipi_htab *t, const iprof_allocator *a)
{
    ipi_free(a, t->slots, t->cap * sizeof *t->slots);
    ipi_htab_init(t);
}

static void raw_insert(ipi_htab *t, uint64_t h, void *item)
{
    size_t mask = t->cap - 1;
    size_t i = h & mask;
    while (t->slots[i].item)
        i = (i + 1) & mask;
    t->slots[i].hash = h;
    t->slots[i].item = item;
    t->count++;
}

#define HTAB_EMPTY(x) ((x)->item == NULL)
#define HTAB_HOME(x) ((x)->hash)
IPI_DEFINE_REGROW(regrow, ipi_htab_slot, HTAB_EMPTY, HTAB_HOME)

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
    if (ncap > SIZE_MAX / sizeof(ipi_htab_slot))
        return IPROF_ENOMEM;
    size_t ocap = t->cap;
    ipi_htab_slot *slots = ocap ? ipi_realloc(a, t->slots, ocap * sizeof *slots, ncap * sizeof *slots)
                                : ipi_malloc(a, ncap * sizeof *slots);
    if (!slots)
        return IPROF_ENOMEM;
    memset(slots + ocap, 0, (ncap - ocap) * sizeof *slots);
    regrow(slots, ocap, ncap);
    t->slots = slots;
    t->cap = ncap;
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


/* Linear probing keeps no tombstones: the items after a removed one in its
 * run move back into the hole unless their home slot lies after it. */
int ipi_htab_remove(ipi_htab *t, uint64_t h, const void *item)
{
    if (!t->cap)
        return 0;
    size_t mask = t->cap - 1, i = h & mask;
    while (t->slots[i].item != item || t->slots[i].hash != h) {
        if (!t->slots[i].item)
            return 0;
        i = (i + 1) & mask;
    }
    for (size_t j = (i + 1) & mask; t->slots[j].item; j = (j + 1) & mask) {
        size_t home = t->slots[j].hash & mask;
        /* Stays when home is cyclically in (i, j]. */
        int stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (!stays) {
            t->slots[i] = t->slots[j];
            i = j;
        }
    }
    t->slots[i].item = NULL;
    t->count--;
    return 1;
}
