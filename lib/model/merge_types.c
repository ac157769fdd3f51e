/* What a streaming merge's premap reads of the input's types; see
 * merge_types.h. */
#include "merge_types.h"

#include <string.h>

#include "alloc.h"

/* A name hashing to 0 stays out of both parts: 0 means "none", and the
 * caller's slow path takes such a type. */
static uint64_t hash_of(const iprof_type *x)
{
    return x ? x->name->hash : 0;
}

static int64_t premapped(const ipi_merge_types *t, const iprof_type *x)
{
    return t->by_id ? x->id : (int64_t)(uintptr_t)x;
}

static int build_dense(ipi_merge_types *t, const ipi_idmap *tmap, const iprof_allocator *a)
{
    size_t n = tmap->dense_cap;
    if (!n)
        return IPROF_OK;
    t->hash = ipi_malloc(a, n * sizeof *t->hash);
    t->dst = ipi_malloc(a, n * sizeof *t->dst);
    t->cap = n; /* for ipi_merge_types_free, whatever failed */
    if (!t->hash || !t->dst)
        return IPROF_ENOMEM;
    for (size_t id = 0; id < n; id++) {
        const iprof_type *x = tmap->dense[id];
        t->hash[id] = hash_of(x);
        t->dst[id] = x ? premapped(t, x) : 0;
    }
    return IPROF_OK;
}

static int build_sparse(ipi_merge_types *t, const ipi_idmap *tmap, const iprof_allocator *a)
{
    if (!tmap->hash_count)
        return IPROF_OK;
    size_t cap = 16;
    while (cap < 2 * tmap->hash_count)
        cap *= 2;
    ipi_sparse_type *s = ipi_malloc(a, cap * sizeof *s);
    if (!s)
        return IPROF_ENOMEM;
    memset(s, 0, cap * sizeof *s);
    for (size_t i = 0; i < tmap->cap; i++) {
        const iprof_type *x = tmap->vals[i];
        if (!hash_of(x))
            continue;
        size_t at = ipi_hash_i64(tmap->keys[i]) & (cap - 1);
        while (s[at].hash)
            at = (at + 1) & (cap - 1);
        s[at] = (ipi_sparse_type){tmap->keys[i], hash_of(x), premapped(t, x)};
    }
    t->sparse = s;
    t->sparse_cap = cap;
    return IPROF_OK;
}

int ipi_merge_types_build(ipi_merge_types *t, const ipi_idmap *tmap, const iprof_model *dst,
                          const iprof_allocator *a)
{
    memset(t, 0, sizeof *t);
    t->by_id = ipi_types_one_to_one(dst);
    int rc = build_dense(t, tmap, a);
    if (!rc)
        rc = build_sparse(t, tmap, a);
    if (rc)
        ipi_merge_types_free(t, a);
    return rc;
}

void ipi_merge_types_free(ipi_merge_types *t, const iprof_allocator *a)
{
    ipi_free(a, t->hash, t->cap * sizeof *t->hash);
    ipi_free(a, t->dst, t->cap * sizeof *t->dst);
    ipi_free(a, t->sparse, t->sparse_cap * sizeof *t->sparse);
    memset(t, 0, sizeof *t);
}
