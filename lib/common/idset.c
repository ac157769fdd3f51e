/* Bitmap plus hash map id set. */
#include "idset.h"

#include <string.h>

#include "alloc.h"

void ipi_idset_init(ipi_idset *s)
{
    memset(s, 0, sizeof *s);
    ipi_idmap_init(&s->sparse);
}

void ipi_idset_free(ipi_idset *s, const iprof_allocator *a)
{
    ipi_free(a, s->bits, s->words * sizeof *s->bits);
    ipi_idmap_free(&s->sparse, a);
    ipi_idset_init(s);
}

void ipi_idset_clear(ipi_idset *s)
{
    if (s->words)
        memset(s->bits, 0, s->words * sizeof *s->bits);
    ipi_idmap_clear(&s->sparse);
    s->count = 0;
}

int ipi_idset_add_slow(ipi_idset *s, const iprof_allocator *a, int64_t id, int *added)
{
    *added = 0;
    if (ipi_idset_has(s, id))
        return IPROF_OK;
    if (id >= 0 && id < IPI_IDSET_DENSE_LIMIT) {
        size_t need = (size_t)(id >> 6) + 1;
        if (need > s->words) {
            size_t old = s->words, cap = s->words;
            if (ipi_grow(a, (void **)&s->bits, &cap, need, sizeof *s->bits))
                return IPROF_ENOMEM;
            memset(s->bits + old, 0, (cap - old) * sizeof *s->bits);
            s->words = cap;
        }
        s->bits[id >> 6] |= (uint64_t)1 << (id & 63);
    } else if (ipi_idmap_put(&s->sparse, a, id, s)) {
        return IPROF_ENOMEM;
    }
    s->count++;
    *added = 1;
    return IPROF_OK;
}
