/* Linear probing with backward-shift deletion (no tombstones), load <= 1/2. */
#include "idmap.h"

#include <string.h>

#include "alloc.h"
#include "hash.h"

void ipi_idmap_init(ipi_idmap *m)
{
    memset(m, 0, sizeof *m);
}

void ipi_idmap_free(ipi_idmap *m, const iprof_allocator *a)
{
    ipi_free(a, m->keys, m->cap * sizeof *m->keys);
    ipi_free(a, m->vals, m->cap * sizeof *m->vals);
    ipi_idmap_init(m);
}

void ipi_idmap_clear(ipi_idmap *m)
{
    if (m->cap)
        memset(m->vals, 0, m->cap * sizeof *m->vals);
    m->count = 0;
}

void *ipi_idmap_get(const ipi_idmap *m, int64_t key)
{
    if (!m->count)
        return NULL;
    size_t mask = m->cap - 1;
    for (size_t i = ipi_hash_i64(key) & mask; m->vals[i]; i = (i + 1) & mask)
        if (m->keys[i] == key)
            return m->vals[i];
    return NULL;
}

static void raw_put(ipi_idmap *m, int64_t key, void *val)
{
    size_t mask = m->cap - 1;
    size_t i = ipi_hash_i64(key) & mask;
    while (m->vals[i] && m->keys[i] != key)
        i = (i + 1) & mask;
    if (!m->vals[i])
        m->count++;
    m->keys[i] = key;
    m->vals[i] = val;
}

static int rehash(ipi_idmap *m, const iprof_allocator *a, size_t ncap)
{
    int64_t *keys = ipi_malloc(a, ncap * sizeof *keys);
    void **vals = ipi_malloc(a, ncap * sizeof *vals);
    if (!keys || !vals) {
        ipi_free(a, keys, ncap * sizeof *keys);
        ipi_free(a, vals, ncap * sizeof *vals);
        return IPROF_ENOMEM;
    }
    memset(vals, 0, ncap * sizeof *vals);
    ipi_idmap old = *m;
    m->keys = keys;
    m->vals = vals;
    m->cap = ncap;
    m->count = 0;
    for (size_t i = 0; i < old.cap; i++)
        if (old.vals[i])
            raw_put(m, old.keys[i], old.vals[i]);
    ipi_free(a, old.keys, old.cap * sizeof *old.keys);
    ipi_free(a, old.vals, old.cap * sizeof *old.vals);
    return IPROF_OK;
}

int ipi_idmap_reserve(ipi_idmap *m, const iprof_allocator *a, size_t n)
{
    size_t need = m->count + n;
    if (need > SIZE_MAX / 4)
        return IPROF_ENOMEM;
    if (need * 2 <= m->cap)
        return IPROF_OK;
    size_t ncap = m->cap ? m->cap : 16;
    while (ncap < need * 2)
        ncap *= 2;
    return rehash(m, a, ncap);
}

int ipi_idmap_put(ipi_idmap *m, const iprof_allocator *a, int64_t key, void *val)
{
    int rc = ipi_idmap_reserve(m, a, 1);
    if (rc)
        return rc;
    raw_put(m, key, val);
    return IPROF_OK;
}

void *ipi_idmap_del(ipi_idmap *m, int64_t key)
{
    if (!m->count)
        return NULL;
    size_t mask = m->cap - 1;
    size_t i = ipi_hash_i64(key) & mask;
    while (m->vals[i] && m->keys[i] != key)
        i = (i + 1) & mask;
    void *old = m->vals[i];
    if (!old)
        return NULL;
    /* Backward shift: pull later members of the probe run into the hole. */
    size_t hole = i;
    for (size_t j = (i + 1) & mask; m->vals[j]; j = (j + 1) & mask) {
        size_t home = ipi_hash_i64(m->keys[j]) & mask;
        if (((j - home) & mask) >= ((j - hole) & mask)) {
            m->keys[hole] = m->keys[j];
            m->vals[hole] = m->vals[j];
            hole = j;
        }
    }
    m->vals[hole] = NULL;
    m->count--;
    return old;
}
