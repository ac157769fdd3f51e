/* Positions of ids: a bitmap with ranks while ids come in increasing
 * order, else a map of 4-byte positions (idpos.h). */
#include "idpos.h"

#include <string.h>

#include "alloc.h"

/* The bitmap covers at most this many ids per position (plus a constant),
 * so that sparse ids take the map: 2 bytes of bitmap and 0.5 of ranks per
 * position at worst. */
#define RANGE_PER_ID 16
#define RANGE_MIN 4096

void ipi_idpos_init(ipi_idpos *x)
{
    memset(x, 0, sizeof *x);
    ipi_idmap32_init(&x->map);
}

/* bits and ranks share one block: word_cap words of bits, then the ranks
 * (a shrink that could not give the block back leaves it larger than
 * that: block_size says what it is). */
static size_t block_size(size_t words)
{
    return words * (sizeof(uint64_t) + sizeof(uint32_t));
}

static void free_bitmap(ipi_idpos *x, const iprof_allocator *a)
{
    ipi_free(a, x->bits, x->block_size);
    x->bits = NULL;
    x->ranks = NULL;
    x->words = x->word_cap = x->block_size = 0;
}

/* Move the bitmap to a new block of ncap >= words words; the old block
 * stays when there is no memory. */
static int move_bitmap(ipi_idpos *x, const iprof_allocator *a, size_t ncap)
{
    uint64_t *bits = ipi_malloc(a, block_size(ncap));
    if (!bits)
        return IPROF_ENOMEM;
    uint32_t *ranks = (uint32_t *)(bits + ncap);
    if (x->words) {
        memcpy(bits, x->bits, x->words * sizeof *bits);
        memcpy(ranks, x->ranks, x->words * sizeof *ranks);
    }
    ipi_free(a, x->bits, x->block_size);
    x->bits = bits;
    x->ranks = ranks;
    x->word_cap = ncap;
    x->block_size = block_size(ncap);
    return IPROF_OK;
}

void ipi_idpos_free(ipi_idpos *x, const iprof_allocator *a)
{
    free_bitmap(x, a);
    ipi_idmap32_free(&x->map, a);
    ipi_idpos_init(x);
}

/* Room for need words, grown by half (ids come with the file). */
static int grow_bitmap(ipi_idpos *x, const iprof_allocator *a, size_t need)
{
    if (need <= x->word_cap)
        return IPROF_OK;
    size_t ncap = x->word_cap + x->word_cap / 2;
    if (ncap < need)
        ncap = need < 16 ? 16 : need;
    return move_bitmap(x, a, ncap);
}

/* The bitmap's count positions as a map (room for one id more). */
static int to_map(ipi_idpos *x, const iprof_allocator *a, size_t count)
{
    int rc = ipi_idmap32_size_for(&x->map, a, x->last, count + 1);
    if (!rc && (x->base < 0 || (uint64_t)x->last >= x->map.dense_cap))
        rc = ipi_idmap32_reserve(&x->map, a, count + 1);
    if (rc) {
        ipi_idmap32_free(&x->map, a);
        return rc;
    }
    uint32_t pos = 0;
    for (size_t w = 0; w < x->words; w++)
        for (uint64_t b = x->bits[w]; b; b &= b - 1) {
            uint64_t d = w * 64 + (uint64_t)__builtin_ctzll(b);
            ipi_idmap32_put_reserved(&x->map, (int64_t)((uint64_t)x->base + d), ++pos);
        }
    free_bitmap(x, a);
    x->mapped = 1;
    return IPROF_OK;
}

int ipi_idpos_reserve_slow(ipi_idpos *x, const iprof_allocator *a, size_t count, int64_t id)
{
    if (count >= IPI_IDPOS_MAX)
        return IPROF_ELIMIT;
    if (!x->mapped) {
        if (count == 0)
            return grow_bitmap(x, a, 1);
        if (id > x->last) {
            uint64_t need = ((uint64_t)id - (uint64_t)x->base) / 64 + 1;
            if (need <= ((uint64_t)RANGE_PER_ID * (count + 1) + RANGE_MIN) / 64)
                return grow_bitmap(x, a, (size_t)need);
        }
        int rc = to_map(x, a, count); /* out of order, repeated, or too sparse */
        if (rc)
            return rc;
    }
    if (ipi_idmap32_get(&x->map, id))
        return IPROF_OK; /* an earlier position keeps it */
    return ipi_idmap32_reserve_key(&x->map, a, id);
}

void ipi_idpos_put_slow(ipi_idpos *x, size_t count, int64_t id)
{
    if (x->mapped) {
        if (!ipi_idmap32_get(&x->map, id))
            ipi_idmap32_put_reserved(&x->map, id, (uint32_t)(count + 1));
        return;
    }
    if (count == 0) {
        x->base = id;
        x->words = 0;
    }
    uint64_t d = (uint64_t)id - (uint64_t)x->base;
    while (x->words <= d / 64) { /* new words: every id so far is below them */
        x->bits[x->words] = 0;
        x->ranks[x->words++] = (uint32_t)count;
    }
    x->bits[d / 64] |= (uint64_t)1 << (d % 64);
    x->last = id;
}

/* The bitmap's words end with the last id's: an id appended later (above
 * it) may land in any word after, whose rank must then count every id
 * before it, so those words start again when it comes
 * (ipi_idpos_put_slow), never stale. */
static void set_last(ipi_idpos *x, size_t count, ipi_idpos_id_fn id_at, const void *list)
{
    if (count == 0) {
        x->words = 0;
        return;
    }
    x->last = id_at(list, count - 1);
    x->words = ((uint64_t)x->last - (uint64_t)x->base) / 64 + 1;
}

/* The map refilled from the list: it held every id before, so no
 * insertion allocates. */
static void refill_map(ipi_idpos *x, size_t count, ipi_idpos_id_fn id_at, const void *list)
{
    ipi_idmap32_clear(&x->map);
    for (size_t i = 0; i < count; i++) {
        int64_t id = id_at(list, i);
        if (!ipi_idmap32_get(&x->map, id))
            ipi_idmap32_put_reserved(&x->map, id, (uint32_t)(i + 1));
    }
}

void ipi_idpos_removed(ipi_idpos *x, size_t count, size_t pos, int64_t id,
                       ipi_idpos_id_fn id_at, const void *list)
{
    if (x->mapped) {
        refill_map(x, count, id_at, list);
        return;
    }
    uint64_t d = (uint64_t)id - (uint64_t)x->base;
    x->bits[d / 64] &= ~((uint64_t)1 << (d % 64));
    for (size_t w = d / 64 + 1; w < x->words; w++)
        x->ranks[w]--;
    if (pos == count) /* the last went */
        set_last(x, count, id_at, list);
}

void ipi_idpos_rebuild(ipi_idpos *x, size_t count, ipi_idpos_id_fn id_at, const void *list)
{
    if (x->mapped) {
        refill_map(x, count, id_at, list);
        return;
    }
    /* A filtered list keeps its order: the bitmap, over the same range. */
    if (x->words)
        memset(x->bits, 0, x->words * sizeof *x->bits);
    for (size_t i = 0; i < count; i++) {
        uint64_t d = (uint64_t)id_at(list, i) - (uint64_t)x->base;
        x->bits[d / 64] |= (uint64_t)1 << (d % 64);
    }
    uint32_t r = 0;
    for (size_t w = 0; w < x->words; w++) {
        x->ranks[w] = r;
        r += (uint32_t)__builtin_popcountll(x->bits[w]);
    }
    set_last(x, count, id_at, list);
}

void ipi_idpos_truncate(ipi_idpos *x, size_t count, size_t keep, ipi_idpos_id_fn id_at,
                        const void *list)
{
    for (size_t i = keep; i < count; i++) {
        int64_t id = id_at(list, i);
        if (x->mapped) {
            if (ipi_idmap32_get(&x->map, id) == i + 1)
                ipi_idmap32_del(&x->map, id);
        } else {
            uint64_t d = (uint64_t)id - (uint64_t)x->base;
            x->bits[d / 64] &= ~((uint64_t)1 << (d % 64));
        }
    }
    if (!x->mapped && keep < count)
        set_last(x, keep, id_at, list); /* the ids cut were the largest */
}

void ipi_idpos_shrink(ipi_idpos *x, const iprof_allocator *a)
{
    if (x->mapped || !x->words || x->word_cap <= x->words)
        return;
    /* The ranks move down behind the bits in use: the block's first
     * block_size(words) bytes then hold everything, whether or not the
     * allocator gives back the rest. */
    memmove(x->bits + x->words, x->ranks, x->words * sizeof *x->ranks);
    x->ranks = (uint32_t *)(x->bits + x->words);
    x->word_cap = x->words;
    uint64_t *bits = ipi_realloc(a, x->bits, x->block_size, block_size(x->words));
    if (!bits)
        return; /* the larger block stays */
    x->bits = bits;
    x->ranks = (uint32_t *)(bits + x->words);
    x->block_size = block_size(x->words);
}

int64_t ipi_idpos_max(const ipi_idpos *x, size_t count)
{
    if (x->mapped)
        return ipi_idmap32_max_key(&x->map);
    return count ? x->last : INT64_MIN;
}

size_t ipi_idpos_distinct(const ipi_idpos *x, size_t count)
{
    return x->mapped ? x->map.count : count;
}

size_t ipi_idpos_bytes(const ipi_idpos *x)
{
    return x->block_size +
           x->map.dense_cap * sizeof *x->map.dense +
           x->map.cap * (sizeof *x->map.keys + sizeof *x->map.vals);
}
