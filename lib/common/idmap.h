/* A map from int64 ids to non-NULL pointers, used for type and method ids.
 * Real files number their ids densely from 0, so small non-negative ids
 * live in a direct array (one load, no hashing, 8 bytes per id) and only
 * the others in an open-addressing hash part. An id below dense_cap is only
 * ever in the array: growing the array moves such ids out of the hash. */
#ifndef IPI_IDMAP_H
#define IPI_IDMAP_H

#include <iprof/common.h>

typedef struct ipi_idmap {
    int64_t *keys;
    void **vals;       /* NULL marks an empty slot */
    size_t cap;        /* hash part: power of two, or 0 */
    size_t count;      /* ids in the map, both parts */
    size_t hash_count; /* ids in the hash part */
    void **dense;      /* dense[id] for 0 <= id < dense_cap */
    size_t dense_cap;
} ipi_idmap;

void ipi_idmap_init(ipi_idmap *m);
void ipi_idmap_free(ipi_idmap *m, const iprof_allocator *a);
void *ipi_idmap_get_hashed(const ipi_idmap *m, int64_t key);

/* The value of key, or NULL. The dense case inline: it is most lookups. */
static inline void *ipi_idmap_get(const ipi_idmap *m, int64_t key)
{
    if (key >= 0 && (uint64_t)key < (uint64_t)m->dense_cap)
        return m->dense[key];
    return ipi_idmap_get_hashed(m, key);
}
/* Insert or replace; val must not be NULL. 0 or IPROF_ENOMEM. */
int ipi_idmap_put(ipi_idmap *m, const iprof_allocator *a, int64_t key, void *val);
/* Make room in the hash part for n more keys (one rehash instead of many):
 * the next n ipi_idmap_put_reserved calls cannot fail. */
int ipi_idmap_reserve(ipi_idmap *m, const iprof_allocator *a, size_t n);
/* Make room for key itself, growing the dense array when the key is small
 * enough: the next ipi_idmap_put_reserved of key cannot fail. */
int ipi_idmap_reserve_key(ipi_idmap *m, const iprof_allocator *a, int64_t key);
/* Size the dense array for ids up to max_key, count of them expected, in
 * one allocation (no growth by steps, each holding the old array and the
 * new one at once); nothing when they would be too sparse for it. */
int ipi_idmap_size_for(ipi_idmap *m, const iprof_allocator *a, int64_t max_key, size_t count);
/* Insert or replace without allocating: needs a reservation, or a key that
 * was in the map before (re-indexing after a removal). */
void ipi_idmap_put_reserved(ipi_idmap *m, int64_t key, void *val);
/* Remove key; returns the old value or NULL. */
void *ipi_idmap_del(ipi_idmap *m, int64_t key);
void ipi_idmap_clear(ipi_idmap *m);
/* The largest key in the map, INT64_MIN when it is empty: the dense part
 * read down from its top (it is at most DENSE_SLACK times its keys), the
 * hash part whole, both in order, never the values. */
int64_t ipi_idmap_max_key(const ipi_idmap *m);

#endif
