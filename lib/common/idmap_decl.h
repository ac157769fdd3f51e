/* The interface of an id map (idmap.h), declared once for both value
 * types: included with IDMAP, IDMAP_VAL and IDMAP_FN defined, as
 * idmap_impl.h is. A value of zero (NULL) means "absent": it is never
 * stored. */

struct IDMAP {
    int64_t *keys;
    IDMAP_VAL *vals;   /* zero marks an empty slot */
    size_t cap;        /* hash part: power of two, or 0 */
    size_t count;      /* ids in the map, both parts */
    size_t hash_count; /* ids in the hash part */
    IDMAP_VAL *dense;  /* dense[id] for 0 <= id < dense_cap */
    size_t dense_cap;
};

void IDMAP_FN(init)(IDMAP *m);
void IDMAP_FN(free)(IDMAP *m, const iprof_allocator *a);
IDMAP_VAL IDMAP_FN(get_hashed)(const IDMAP *m, int64_t key);

/* The value of key, or zero. The dense case inline: it is most lookups. */
static inline IDMAP_VAL IDMAP_FN(get)(const IDMAP *m, int64_t key)
{
    if (key >= 0 && (uint64_t)key < (uint64_t)m->dense_cap)
        return m->dense[key];
    return IDMAP_FN(get_hashed)(m, key);
}
/* Insert or replace; val must not be zero. 0 or IPROF_ENOMEM. */
int IDMAP_FN(put)(IDMAP *m, const iprof_allocator *a, int64_t key, IDMAP_VAL val);
/* Make room in the hash part for n more keys (one rehash instead of many):
 * the next n put_reserved calls cannot fail. */
int IDMAP_FN(reserve)(IDMAP *m, const iprof_allocator *a, size_t n);
/* Make room for key itself, growing the dense array when the key is small
 * enough: the next put_reserved of key cannot fail. */
int IDMAP_FN(reserve_key)(IDMAP *m, const iprof_allocator *a, int64_t key);
/* Size the dense array for ids up to max_key, count of them expected, in
 * one allocation (no growth by steps, each holding the old array and the
 * new one at once); nothing when they would be too sparse for it. */
int IDMAP_FN(size_for)(IDMAP *m, const iprof_allocator *a, int64_t max_key, size_t count);
/* Insert or replace without allocating: needs a reservation, or a key that
 * was in the map before (re-indexing after a removal). */
void IDMAP_FN(put_reserved)(IDMAP *m, int64_t key, IDMAP_VAL val);
/* Remove key; returns the old value or zero. */
IDMAP_VAL IDMAP_FN(del)(IDMAP *m, int64_t key);
void IDMAP_FN(clear)(IDMAP *m);
/* The largest key in the map, INT64_MIN when it is empty: the dense part
 * read down from its top (it is at most DENSE_SLACK times its keys), the
 * hash part whole, both in order, never the values. */
int64_t IDMAP_FN(max_key)(const IDMAP *m);
