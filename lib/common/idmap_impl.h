/* The body of an id map (idmap.h), written once for both value types:
 * idmap.c includes it with IDMAP (the struct), IDMAP_VAL (the value type,
 * whose zero marks an empty slot) and IDMAP_FN (the name prefix) defined.
 * Dense array plus linear probing with backward-shift deletion (no
 * tombstones), load <= 1/2. */

/* The dense array grows to cover an id only while it stays at most this
 * many slots per stored id (and never past DENSE_MAX), so sparse or huge
 * ids cannot blow it up. */
#ifndef IPI_IDMAP_DENSE
#define IPI_IDMAP_DENSE
#define DENSE_SLACK 4
#define DENSE_MIN 64
#define DENSE_MAX ((size_t)1 << 28)
#endif

void IDMAP_FN(init)(IDMAP *m)
{
    memset(m, 0, sizeof *m);
}

void IDMAP_FN(free)(IDMAP *m, const iprof_allocator *a)
{
    ipi_free(a, m->keys, m->cap * sizeof *m->keys);
    ipi_free(a, m->vals, m->cap * sizeof *m->vals);
    ipi_free(a, m->dense, m->dense_cap * sizeof *m->dense);
    IDMAP_FN(init)(m);
}

void IDMAP_FN(clear)(IDMAP *m)
{
    if (m->cap)
        memset(m->vals, 0, m->cap * sizeof *m->vals);
    if (m->dense_cap)
        memset(m->dense, 0, m->dense_cap * sizeof *m->dense);
    m->count = m->hash_count = 0;
}

int64_t IDMAP_FN(max_key)(const IDMAP *m)
{
    int64_t max = INT64_MIN;
    for (size_t i = 0; m->hash_count && i < m->cap; i++)
        if (m->vals[i] && m->keys[i] > max)
            max = m->keys[i];
    for (size_t i = m->dense_cap; i > 0 && (int64_t)(i - 1) > max; i--)
        if (m->dense[i - 1])
            return (int64_t)(i - 1);
    return max;
}

static int IDMAP_FN(in_dense)(const IDMAP *m, int64_t key)
{
    return key >= 0 && (uint64_t)key < (uint64_t)m->dense_cap;
}

IDMAP_VAL IDMAP_FN(get_hashed)(const IDMAP *m, int64_t key)
{
    if (!m->hash_count)
        return 0;
    size_t mask = m->cap - 1;
    for (size_t i = ipi_hash_i64(key) & mask; m->vals[i]; i = (i + 1) & mask)
        if (m->keys[i] == key)
            return m->vals[i];
    return 0;
}

static void IDMAP_FN(raw_put)(IDMAP *m, int64_t key, IDMAP_VAL val)
{
    size_t mask = m->cap - 1;
    size_t i = ipi_hash_i64(key) & mask;
    while (m->vals[i] && m->keys[i] != key)
        i = (i + 1) & mask;
    if (!m->vals[i])
        m->hash_count++;
    m->keys[i] = key;
    m->vals[i] = val;
}

static int IDMAP_FN(rehash)(IDMAP *m, const iprof_allocator *a, size_t ncap)
{
    int64_t *keys = ipi_malloc(a, ncap * sizeof *keys);
    IDMAP_VAL *vals = ipi_malloc(a, ncap * sizeof *vals);
    if (!keys || !vals) {
        ipi_free(a, keys, ncap * sizeof *keys);
        ipi_free(a, vals, ncap * sizeof *vals);
        return IPROF_ENOMEM;
    }
    memset(vals, 0, ncap * sizeof *vals);
    IDMAP old = *m;
    m->keys = keys;
    m->vals = vals;
    m->cap = ncap;
    m->hash_count = 0;
    for (size_t i = 0; i < old.cap; i++)
        if (old.vals[i])
            IDMAP_FN(raw_put)(m, old.keys[i], old.vals[i]);
    ipi_free(a, old.keys, old.cap * sizeof *old.keys);
    ipi_free(a, old.vals, old.cap * sizeof *old.vals);
    return IPROF_OK;
}

int IDMAP_FN(reserve)(IDMAP *m, const iprof_allocator *a, size_t n)
{
    size_t need = m->hash_count + n;
    if (need > SIZE_MAX / 4)
        return IPROF_ENOMEM;
    if (need * 2 <= m->cap)
        return IPROF_OK;
    size_t ncap = m->cap ? m->cap : 16;
    while (ncap < need * 2)
        ncap *= 2;
    return IDMAP_FN(rehash)(m, a, ncap);
}

static IDMAP_VAL IDMAP_FN(hash_del)(IDMAP *m, int64_t key)
{
    if (!m->hash_count)
        return 0;
    size_t mask = m->cap - 1;
    size_t i = ipi_hash_i64(key) & mask;
    while (m->vals[i] && m->keys[i] != key)
        i = (i + 1) & mask;
    IDMAP_VAL old = m->vals[i];
    if (!old)
        return 0;
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
    m->vals[hole] = 0;
    m->hash_count--;
    return old;
}

/* Whether the dense array should grow to cover key: only while it stays
 * at most DENSE_SLACK slots per stored id. */
static size_t IDMAP_FN(dense_target)(const IDMAP *m, int64_t key)
{
    if (key < 0 || (uint64_t)key >= DENSE_MAX)
        return 0;
    /* Grow by half: ids come roughly in order, and doubling would leave up
     * to half of a large array unused. */
    size_t ncap = m->dense_cap ? m->dense_cap : DENSE_MIN;
    while (ncap <= (size_t)key)
        ncap += ncap / 2;
    if (ncap > DENSE_MIN && ncap > DENSE_SLACK * (m->count + 1))
        return 0;
    return ncap;
}

/* Grow the dense array to ncap slots and move the hash part's ids that it
 * now covers. */
static int IDMAP_FN(grow_dense)(IDMAP *m, const iprof_allocator *a, size_t ncap)
{
    IDMAP_VAL *nd = m->dense
                        ? ipi_realloc(a, m->dense, m->dense_cap * sizeof *nd, ncap * sizeof *nd)
                        : ipi_malloc(a, ncap * sizeof *nd);
    if (!nd)
        return IPROF_ENOMEM;
    ipi_clear_new(nd + m->dense_cap, (ncap - m->dense_cap) * sizeof *nd);
    m->dense = nd;
    m->dense_cap = ncap;
    for (size_t i = 0; i < m->cap && m->hash_count;) {
        if (m->vals[i] && IDMAP_FN(in_dense)(m, m->keys[i])) {
            int64_t k = m->keys[i];
            m->dense[k] = IDMAP_FN(hash_del)(m, k); /* shifts a later slot into i */
        } else {
            i++;
        }
    }
    return IPROF_OK;
}

int IDMAP_FN(size_for)(IDMAP *m, const iprof_allocator *a, int64_t max_key, size_t count)
{
    if (max_key < 0 || (uint64_t)max_key >= DENSE_MAX || IDMAP_FN(in_dense)(m, max_key))
        return IPROF_OK;
    size_t ncap = (size_t)max_key + 1;
    if (ncap > DENSE_MIN && ncap > DENSE_SLACK * (count + 1))
        return IPROF_OK; /* too sparse: the hash part takes the ids */
    return IDMAP_FN(grow_dense)(m, a, ncap < DENSE_MIN ? DENSE_MIN : ncap);
}

int IDMAP_FN(reserve_key)(IDMAP *m, const iprof_allocator *a, int64_t key)
{
    if (IDMAP_FN(in_dense)(m, key))
        return IPROF_OK;
    size_t ncap = IDMAP_FN(dense_target)(m, key);
    if (ncap)
        return IDMAP_FN(grow_dense)(m, a, ncap);
    return IDMAP_FN(reserve)(m, a, 1);
}

void IDMAP_FN(put_reserved)(IDMAP *m, int64_t key, IDMAP_VAL val)
{
    if (IDMAP_FN(in_dense)(m, key)) {
        m->count += !m->dense[key];
        m->dense[key] = val;
        return;
    }
    size_t before = m->hash_count;
    IDMAP_FN(raw_put)(m, key, val);
    m->count += m->hash_count - before;
}

int IDMAP_FN(put)(IDMAP *m, const iprof_allocator *a, int64_t key, IDMAP_VAL val)
{
    int rc = IDMAP_FN(reserve_key)(m, a, key);
    if (rc)
        return rc;
    IDMAP_FN(put_reserved)(m, key, val);
    return IPROF_OK;
}

IDMAP_VAL IDMAP_FN(del)(IDMAP *m, int64_t key)
{
    if (IDMAP_FN(in_dense)(m, key)) {
        IDMAP_VAL old = m->dense[key];
        m->dense[key] = 0;
        m->count -= !!old;
        return old;
    }
    IDMAP_VAL old = IDMAP_FN(hash_del)(m, key);
    m->count -= !!old;
    return old;
}
