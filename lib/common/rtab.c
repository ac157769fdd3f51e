/* Linear probing with backward-shift deletion, load <= 3/4: the stored
 * hash bits reject most mismatches without touching the elements, so a
 * fuller table costs little time and saves a quarter of the memory (these
 * tables are a large part of a model that merges). The home slot of an
 * element comes from the 32 hash bits its slot keeps, so growing rehashes
 * without asking the caller. At the largest size (2^32 slots, 32 GiB)
 * the load may pass 3/4: references run out first, so a slot always stays
 * empty and every probe ends. */
#include "rtab.h"

#include <string.h>

#include "alloc.h"
#include "regrow.h"

#define RTAB_MAX_CAP ((uint64_t)1 << 32)

void ipi_rtab_init(ipi_rtab *t)
{
    memset(t, 0, sizeof *t);
}

void ipi_rtab_free(ipi_rtab *t, const iprof_allocator *a)
{
    ipi_free(a, t->slots, t->cap * sizeof *t->slots);
    ipi_rtab_init(t);
}

static void raw_put(ipi_rtab *t, uint32_t tag, uint32_t ref)
{
    size_t mask = t->cap - 1;
    size_t i = tag & mask;
    while (t->slots[i].ref)
        i = (i + 1) & mask;
    t->slots[i] = (ipi_rtab_slot){tag, ref};
    t->count++;
}

#define RTAB_EMPTY(x) ((x)->ref == 0)
#define RTAB_HOME(x) ((x)->tag)
IPI_DEFINE_REGROW(regrow, ipi_rtab_slot, RTAB_EMPTY, RTAB_HOME)

int ipi_rtab_grow(ipi_rtab *t, const iprof_allocator *a, size_t n)
{
    if (n > UINT32_MAX - t->count)
        return IPROF_ELIMIT;
    uint64_t need = (uint64_t)t->count + n;
    if (need <= t->cap / 4 * 3 || (t->cap == RTAB_MAX_CAP && need < t->cap))
        return IPROF_OK;
    uint64_t ncap = t->cap ? t->cap : 16;
    while (need > ncap / 4 * 3 && ncap < RTAB_MAX_CAP)
        ncap *= 2;
    /* Grown in its own block (regrow.h): a large block is then never
     * given back to malloc. glibc raises its mmap threshold to the size of
     * a mapped block freed, and blocks below it come from the heap from
     * then on, where what the model's lists leave behind when they grow
     * stays resident (5 MiB of a 100 MB profile's peak;
     * docs/performance.md). */
    size_t ocap = t->cap;
    if (ncap > SIZE_MAX / sizeof(ipi_rtab_slot))
        return IPROF_ENOMEM;
    size_t bytes = (size_t)ncap * sizeof(ipi_rtab_slot);
    ipi_rtab_slot *slots = ocap ? ipi_realloc(a, t->slots, ocap * sizeof *slots, bytes)
                                : ipi_malloc(a, bytes);
    if (!slots)
        return IPROF_ENOMEM;
    ipi_clear_new(slots + ocap, bytes - ocap * sizeof *slots);
    regrow(slots, ocap, (size_t)ncap);
    t->slots = slots;
    t->cap = (size_t)ncap;
    return IPROF_OK;
}

void ipi_rtab_put(ipi_rtab *t, uint64_t h, uint32_t ref)
{
    raw_put(t, (uint32_t)h, ref);
}

/* Backward-shift deletion: the references after a removed one in its run
 * move back into the hole unless their home slot lies after it, so no
 * probe ever meets a gap it should have passed. */
int ipi_rtab_remove(ipi_rtab *t, uint64_t h, uint32_t ref)
{
    if (!t->cap)
        return 0;
    uint32_t tag = (uint32_t)h;
    size_t mask = t->cap - 1, i = tag & mask;
    while (t->slots[i].ref != ref || t->slots[i].tag != tag) {
        if (!t->slots[i].ref)
            return 0;
        i = (i + 1) & mask;
    }
    for (size_t j = (i + 1) & mask; t->slots[j].ref; j = (j + 1) & mask) {
        size_t home = t->slots[j].tag & mask;
        /* Stays when home is cyclically in (i, j]. */
        int stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (!stays) {
            t->slots[i] = t->slots[j];
            i = j;
        }
    }
    t->slots[i].ref = 0;
    t->count--;
    return 1;
}
