/* The input's types as a streaming merge reads them to premap a method
 * (merge_stream.c, on either of its threads): for each input type id, the
 * name hash of the dst type it was merged into and that type as a
 * premapped signature carries it (dst's id when dst's types are one to
 * one, else the type). Built once the input's types are final, from the
 * merge's type map; read-only after. Two small arrays for the ids in the
 * type map's dense part, one open-addressing table of 24-byte slots for
 * the others (sparse ids), so that a method's signature reads a slot per
 * id instead of the map, the type and its name. */
#ifndef IPI_MERGE_TYPES_H
#define IPI_MERGE_TYPES_H

#include "hash.h"
#include "idmap.h"
#include "model.h"
#include "prefetch.h"

/* A sparse id's slot (hash 0: empty). */
typedef struct ipi_sparse_type {
    int64_t key;
    uint64_t hash; /* the dst type's name hash */
    int64_t dst;   /* as premapped: dst's id when by_id, else the type */
} ipi_sparse_type;

typedef struct ipi_merge_types {
    int by_id; /* dst's types are one to one (ipi_types_one_to_one) */
    /* Ids below cap (the type map's dense part): the name hash (0: none)
     * and the type as premapped, as in a sparse slot. */
    uint64_t *hash;
    int64_t *dst;
    size_t cap;
    ipi_sparse_type *sparse; /* the map's hash part; NULL when it has none */
    size_t sparse_cap;       /* a power of two */
} ipi_merge_types;

/* From tmap (input type id -> dst type) and dst. IPROF_OK or
 * IPROF_ENOMEM (t then holds nothing). */
int ipi_merge_types_build(ipi_merge_types *t, const ipi_idmap *tmap, const iprof_model *dst,
                          const iprof_allocator *a);
void ipi_merge_types_free(ipi_merge_types *t, const iprof_allocator *a);

/* Whether it was built with anything to read. */
static inline int ipi_merge_types_any(const ipi_merge_types *t)
{
    return t->hash || t->sparse;
}

/* Input type id x's name hash (not 0) in *hash and, as a premapped
 * signature holds it, its dst type in *dst (dst's id when by_id, else the
 * type): 1, or 0 when x is not mapped or its name hashes to 0 (for the
 * caller's slow path). Inline: a premap asks for every signature id. */
static inline int ipi_merge_types_get(const ipi_merge_types *t, int64_t x, uint64_t *hash,
                                      int64_t *dst)
{
    if (x >= 0 && (uint64_t)x < t->cap) {
        *hash = t->hash[x];
        *dst = t->dst[x];
        return *hash != 0;
    }
    if (!t->sparse)
        return 0;
    size_t mask = t->sparse_cap - 1;
    for (size_t i = ipi_hash_i64(x) & mask; t->sparse[i].hash; i = (i + 1) & mask)
        if (t->sparse[i].key == x) {
            *hash = t->sparse[i].hash;
            *dst = t->sparse[i].dst;
            return 1;
        }
    return 0;
}

/* Ask the cache for what ipi_merge_types_get reads of x. */
static inline void ipi_merge_types_prefetch(const ipi_merge_types *t, int64_t x)
{
    if (x >= 0 && (uint64_t)x < t->cap) {
        ipi_prefetch(&t->hash[x]);
        ipi_prefetch(&t->dst[x]);
    } else if (t->sparse) {
        ipi_prefetch(&t->sparse[ipi_hash_i64(x) & (t->sparse_cap - 1)]);
    }
}

#endif /* IPI_MERGE_TYPES_H */
