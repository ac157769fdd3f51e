/*
 * The model's lazy indexes: by type name, by method key (name and
 * signature) and from context to entry. Loading a profile never needs
 * them, and together they cost about as much memory as the types and
 * methods themselves, so they are built on the first lookup.
 *
 * Lookups are const and may run in many threads at once (model.h): a
 * thread that finds an index missing builds a private one and publishes it
 * with a compare-and-swap; a thread that loses the race frees its copy and
 * uses the winner's. If memory runs out, the lookup scans instead, so a
 * const lookup never fails. Mutation functions have the model to
 * themselves: they keep a built index up to date as they append, and say
 * whatever else they changed through ipi_model_changed (its section
 * below), the one place that drops what went stale.
 */
#include "model.h"

#include "hash.h"
#include "job.h"

uint64_t ipi_entry_hash(const iprof_context *ctx)
{
    return ipi_hash_mix((uint64_t)(uintptr_t)ctx + 0x9e3779b97f4a7c15ULL);
}

/* ---- probing a built index ---------------------------------------------- */

static const iprof_type *probe_type(const iprof_model *m, const ipi_rtab *t, const ipi_str *name)
{
    uint32_t ref;
    ipi_rtab_for(t, name->hash, ref)
    {
        if (m->types[ref - 1]->name == name)
            return m->types[ref - 1];
    }
    return NULL;
}

static int method_has_key(const iprof_method *x, const ipi_str *name, const int64_t *sig,
                          size_t sig_len)
{
    return x->name == name && x->sig_len == sig_len &&
           (sig_len == 0 || memcmp(x->sig, sig, sig_len * sizeof *sig) == 0);
}

static const iprof_method *probe_method(const iprof_model *m, const ipi_rtab *t,
                                        const ipi_str *name, const int64_t *sig,
                                        size_t sig_len, uint64_t h)
{
    uint32_t ref;
    ipi_rtab_for(t, h, ref)
    {
        const iprof_method *x = ipi_model_method_at(m, ref);
        if (method_has_key(x, name, sig, sig_len))
            return x;
    }
    return NULL;
}

static size_t probe_entry(const ipi_rtab *t, const ipi_entry_list *l, const iprof_context *ctx)
{
    uint32_t pos;
    ipi_rtab_for(t, ipi_entry_hash(ctx), pos)
    {
        if (l->items[pos - 1].ctx == ctx)
            return pos;
    }
    return 0;
}

/* ---- methods by names ---------------------------------------------------- */

uint64_t ipi_method_names_hash(const ipi_str *name, const iprof_type *const *sig, size_t n)
{
    return ipi_method_names_hash_of(name->hash, sig, n);
}

uint64_t ipi_method_names_hash_of(uint64_t name_hash, const iprof_type *const *sig, size_t n)
{
    uint64_t h = ipi_hash_combine(name_hash, (uint64_t)n); /* content hash: same in any model */
    for (size_t i = 0; i < n; i++)
        h = ipi_hash_combine(h, sig[i]->name->hash);
    return h;
}

uint64_t ipi_method_names_key(const iprof_model *m, const iprof_method *x, int *ok)
{
    uint64_t h = ipi_hash_combine(x->name->hash, (uint64_t)x->sig_len);
    for (size_t j = 0; j < x->sig_len; j++) {
        const iprof_type *t = ipi_model_type_by_id(m, x->sig[j]);
        if (!t) {
            *ok = 0;
            return 0;
        }
        h = ipi_hash_combine(h, t->name->hash);
    }
    *ok = 1;
    return h;
}

const iprof_method *ipi_find_method_by_names(const iprof_model *m, const ipi_rtab *index,
                                             const ipi_str *name,
                                             const iprof_type *const *sig, size_t n,
                                             uint64_t h)
{
    uint32_t ref;
    ipi_rtab_for(index, h, ref)
    {
        const iprof_method *d = ipi_model_method_at(m, ref);
        if (d->sig_len != n || d->name->len != name->len ||
            (d->name != name && memcmp(d->name->s, name->s, name->len) != 0))
            continue;
        size_t j = 0;
        while (j < n && ((const iprof_type *)ipi_model_type_by_id(m, d->sig[j]))->name ==
                            sig[j]->name)
            j++;
        if (j == n)
            return d;
    }
    return NULL;
}

int ipi_types_one_to_one(const iprof_model *m)
{
    const ipi_rtab *names = ipi_index_get(m, IPI_IX_TYPE_NAMES);
    /* The names index holds each name's first type; the id index each
     * id's. */
    return names && names->count == m->type_count && ipi_model_ids_unique(m, 1);
}

const iprof_method *ipi_find_method_by_ids(const iprof_model *m, const ipi_rtab *index,
                                           const ipi_str *name, const int64_t *sig, size_t n,
                                           uint64_t h)
{
    uint32_t ref;
    ipi_rtab_for(index, h, ref)
    {
        const iprof_method *d = ipi_model_method_at(m, ref);
        if (d->name == name && d->sig_len == n && memcmp(d->sig, sig, n * sizeof *sig) == 0)
            return d;
    }
    return NULL;
}

static void index_drop(iprof_model *m, int which);

int ipi_index_reserve_method_names(iprof_model *m)
{
    ipi_rtab *t = ipi_index_built(m, IPI_IX_METHOD_NAMES);
    return t ? ipi_rtab_reserve(t, &m->alloc, 1) : IPROF_OK;
}

void ipi_index_add_method_names(iprof_model *m, uint32_t ref)
{
    ipi_rtab *t = ipi_index_built(m, IPI_IX_METHOD_NAMES);
    if (!t)
        return;
    const iprof_method *x = ipi_model_method_at(m, ref);
    int ok;
    uint64_t h = ipi_method_names_key(m, x, &ok);
    if (!ok) {
        m->names_unresolved++;
        return;
    }
    const iprof_type *sig[64];
    if (x->sig_len <= 64) {
        for (size_t j = 0; j < x->sig_len; j++)
            sig[j] = ipi_model_type_by_id(m, x->sig[j]);
        if (ipi_find_method_by_names(m, t, x->name, sig, x->sig_len, h))
            return; /* an earlier method has the key */
    } else {
        index_drop(m, IPI_IX_METHOD_NAMES); /* rare: rebuilt on next use */
        return;
    }
    ipi_rtab_put(t, h, ref); /* reserved by the caller */
}

void ipi_index_put_method_names(iprof_model *m, uint32_t ref, uint64_t h)
{
    ipi_rtab *t = ipi_index_built(m, IPI_IX_METHOD_NAMES);
    if (t)
        ipi_rtab_put(t, h, ref); /* reserved by the caller */
}

/* ---- building ------------------------------------------------------------ */

static size_t element_count(const iprof_model *m, int which)
{
    if (which == IPI_IX_TYPE_NAMES)
        return m->type_count;
    if (which == IPI_IX_METHOD_KEYS || which == IPI_IX_METHOD_NAMES)
        return m->method_count;
    return m->entries[which - IPI_IX_ENTRIES].count;
}

/* The name hash of each type id (that of the id's first type; 0: no such
 * type), when the ids are dense: the keys of a million methods then read
 * an array instead of a type and its name per signature id, each a cache
 * miss. *out NULL when sparse or a name hashes to 0; IPROF_OK or
 * IPROF_ENOMEM. */
static int type_name_hashes(const iprof_model *m, uint64_t **out, size_t *cap)
{
    *out = NULL;
    *cap = 0;
    int64_t max = ipi_model_max_id(m, 1);
    if (max < 0 || (uint64_t)max >= 2 * (uint64_t)m->type_count + 1024)
        return IPROF_OK;
    size_t n = (size_t)max + 1;
    uint64_t *h = ipi_malloc(&m->alloc, n * sizeof *h);
    if (!h)
        return IPROF_ENOMEM;
    memset(h, 0, n * sizeof *h);
    for (size_t i = 0; i < m->type_count; i++) {
        const iprof_type *t = m->types[i];
        if (t->id < 0 || ipi_model_type_by_id(m, t->id) != t)
            continue;
        if (!(h[t->id] = t->name->hash)) {
            ipi_free(&m->alloc, h, n * sizeof *h);
            return IPROF_OK;
        }
    }
    *out = h;
    *cap = n;
    return IPROF_OK;
}

/* ipi_method_names_key's key from the name's content hash and the
 * signature's type ids, through th[id], the name hash of type id's type
 * (0: none) for ids below cap: 0 in *ok when an id has none. Building
 * many keys, an array read instead of a type and its name per id. */
static uint64_t method_names_key_by(uint64_t name_hash, const int64_t *sig, size_t n,
                                    const uint64_t *th, size_t cap, int *ok)
{
    uint64_t h = ipi_hash_combine(name_hash, (uint64_t)n);
    for (size_t j = 0; j < n; j++) {
        uint64_t v = sig[j] >= 0 && (uint64_t)sig[j] < cap ? th[sig[j]] : 0;
        if (!v) {
            *ok = 0;
            return 0;
        }
        h = ipi_hash_combine(h, v);
    }
    *ok = 1;
    return h;
}

/* How far ahead fill fetches table slots. */
#define FILL_AHEAD 8

/* The names keys of m's methods [from, to), through th (the type name
 * hashes, NULL: the types themselves). A job: on a second thread, the
 * other half of the methods. */
typedef struct method_keys {
    const iprof_model *m;
    const uint64_t *th;
    size_t cap; /* of th */
    uint64_t *keys;
    unsigned char *ok; /* 0: a signature type id does not resolve */
    size_t from, to;
} method_keys;

static void compute_keys(void *arg)
{
    method_keys *k = arg;
    const iprof_model *m = k->m;
    for (size_t i = k->from; i < k->to; i++) {
        /* Each name a miss: fetched ahead, its method first. */
        if (i + 2 * FILL_AHEAD < k->to)
            ipi_prefetch(ipi_model_method(m, i + 2 * FILL_AHEAD));
        if (i + FILL_AHEAD < k->to)
            ipi_prefetch(ipi_model_method(m, i + FILL_AHEAD)->name);
        const iprof_method *a = ipi_model_method(m, i);
        int ok;
        k->keys[i] = k->th ? method_names_key_by(a->name->hash, a->sig, a->sig_len, k->th,
                                                 k->cap, &ok)
                           : ipi_method_names_key(m, a, &ok);
        k->ok[i] = (unsigned char)ok;
    }
}

/* Every method's key in k (keys and ok allocated), on two threads when
 * threaded. */
static void method_keys_all(method_keys *k, int threaded)
{
    size_t n = k->m->method_count, h = n / 2;
    method_keys hi = *k;
    hi.from = h;
    hi.to = n;
    k->from = 0;
    k->to = h;
    ipi_job_both(compute_keys, k, &hi, threaded && n > IPI_JOB_MIN);
}

/* Whether methods d and x have the same names: name and signature type
 * names. */
static int same_names(const iprof_model *m, const iprof_method *d, const iprof_method *x)
{
    if (d->name != x->name || d->sig_len != x->sig_len)
        return 0;
    size_t j = 0;
    while (j < x->sig_len &&
           ((const iprof_type *)ipi_model_type_by_id(m, d->sig[j]))->name ==
               ((const iprof_type *)ipi_model_type_by_id(m, x->sig[j]))->name)
        j++;
    return j == x->sig_len;
}

/* k->ok of a method whose insertion a fill_half left for later. */
#define KEY_DEFERRED 2

/* Half of filling the names index: the methods whose home slot lies in
 * [lo, hi) of the table, in order, without reading or writing a slot
 * outside it (a job: the other half is the other thread's); a probe that
 * would leave it is deferred (KEY_DEFERRED) for the calling thread. A
 * key's methods share a home, so the first per key is still the one
 * indexed: a later one with its key reaches the same end and is deferred
 * after it. */
typedef struct fill_half {
    const iprof_model *m;
    ipi_rtab *t;
    method_keys *k;
    size_t lo, hi, inserted;
} fill_half;

static void fill_names_half(void *arg)
{
    fill_half *f = arg;
    const iprof_model *m = f->m;
    const method_keys *k = f->k;
    size_t mask = f->t->cap - 1, n = m->method_count;
    for (size_t i = 0; i < n; i++) {
        /* Slots fetched ahead: this half's only (the other thread writes
         * the other's). */
        if (i + FILL_AHEAD < n) {
            size_t ahead = (uint32_t)k->keys[i + FILL_AHEAD] & mask;
            if (ahead >= f->lo && ahead < f->hi)
                ipi_rtab_prefetch(f->t, k->keys[i + FILL_AHEAD]);
        }
        size_t home = (uint32_t)k->keys[i] & mask; /* ok[i] is the other half's to write */
        if (home < f->lo || home >= f->hi || !k->ok[i])
            continue;
        const iprof_method *x = ipi_model_method(m, i);
        for (size_t at = home;; at++) {
            ipi_rtab_slot *slot = &f->t->slots[at];
            if (!slot->ref) {
                *slot = (ipi_rtab_slot){(uint32_t)k->keys[i], m->methods[i]};
                f->inserted++;
                break;
            }
            if (slot->tag == (uint32_t)k->keys[i] &&
                same_names(m, ipi_model_method_at(m, slot->ref), x))
                break;
            if (at + 1 == f->hi) {
                k->ok[i] = KEY_DEFERRED;
                break;
            }
        }
    }
}

/* Index the first element per key, in order (method keys through th, the
 * type name hashes, when there is one). The table is reserved for
 * every element up front, so inserting cannot fail. Returns the methods
 * left out of IPI_IX_METHOD_NAMES (unresolved signatures); *by_halves,
 * the methods the two halves of a threaded fill inserted (set only when
 * they ran). */
static size_t fill(const iprof_model *m, int which, ipi_rtab *t, method_keys *k, int threaded,
                   size_t *by_halves)
{
    size_t unresolved = 0;
    if (which == IPI_IX_TYPE_NAMES) {
        for (size_t i = 0; i < m->type_count; i++) {
            const iprof_type *x = m->types[i];
            if (!probe_type(m, t, x->name))
                ipi_rtab_put(t, x->name->hash, (uint32_t)i + 1);
        }
    } else if (which == IPI_IX_METHOD_NAMES) {
        /* The keys computed (method_keys), each slot fetched FILL_AHEAD
         * methods ahead: the probe of a large table is a cache miss each.
         * Threaded, each half of the table on its own thread first; what
         * they defer goes in here, in order. */
        size_t n = m->method_count;
        int take = 1; /* the k->ok of the methods inserted here */
        if (threaded && n > IPI_JOB_MIN && t->cap >= 2) {
            fill_half lo = {m, t, k, 0, t->cap / 2, 0}, hi = {m, t, k, t->cap / 2, t->cap, 0};
            ipi_job_both(fill_names_half, &lo, &hi, 1);
            t->count += lo.inserted + hi.inserted;
            *by_halves = lo.inserted + hi.inserted;
            take = KEY_DEFERRED; /* the others were taken by a half */
        }
        for (size_t i = 0; i < n; i++) {
            if (i + FILL_AHEAD < n && k->ok[i + FILL_AHEAD] == take)
                ipi_rtab_prefetch(t, k->keys[i + FILL_AHEAD]);
            const iprof_method *x = ipi_model_method(m, i);
            uint64_t h = k->keys[i];
            unresolved += !k->ok[i];
            if (k->ok[i] != take)
                continue;
            uint32_t ref;
            int seen = 0;
            ipi_rtab_for(t, h, ref)
            {
                seen |= same_names(m, ipi_model_method_at(m, ref), x);
            }
            if (!seen)
                ipi_rtab_put(t, h, m->methods[i]);
        }
    } else if (which == IPI_IX_METHOD_KEYS) {
        for (size_t i = 0; i < m->method_count; i++) {
            const iprof_method *x = ipi_model_method(m, i);
            uint64_t h = ipi_method_hash(x->name, x->sig, x->sig_len);
            if (!probe_method(m, t, x->name, x->sig, x->sig_len, h))
                ipi_rtab_put(t, h, m->methods[i]);
        }
    } else {
        const ipi_entry_list *l = &m->entries[which - IPI_IX_ENTRIES];
        for (size_t i = 0; i < l->count; i++) {
            if (i + FILL_AHEAD < l->count)
                ipi_rtab_prefetch(t, ipi_entry_hash(l->items[i + FILL_AHEAD].ctx));
            if (!probe_entry(t, l, l->items[i].ctx))
                ipi_rtab_put(t, ipi_entry_hash(l->items[i].ctx), (uint32_t)i + 1);
        }
    }
    return unresolved;
}

static void free_table(const iprof_model *m, ipi_rtab *t)
{
    if (!t)
        return;
    ipi_rtab_free(t, &m->alloc);
    ipi_free(&m->alloc, t, sizeof *t);
}

/* The index `which` of m, NULL when out of memory; the names index's keys
 * computed and its table filled on two threads when threaded (*by_halves:
 * the methods the fill's halves took, 0 when it ran on one thread). */
static ipi_rtab *build(const iprof_model *m, int which, size_t *unresolved, int threaded,
                       size_t *by_halves)
{
    *by_halves = 0;
    ipi_rtab *t = ipi_malloc(&m->alloc, sizeof *t);
    if (!t)
        return NULL;
    ipi_rtab_init(t);
    method_keys k = {m, NULL, 0, NULL, NULL, 0, 0};
    size_t n = which == IPI_IX_METHOD_NAMES ? m->method_count : 0;
    /* Beyond 2^32 - 1 references (IPROF_ELIMIT) the index cannot be had:
     * as out of memory, lookups scan. */
    int rc = ipi_rtab_reserve(t, &m->alloc, element_count(m, which));
    if (!rc && n) {
        uint64_t *th;
        rc = type_name_hashes(m, &th, &k.cap);
        k.th = th;
        k.keys = rc ? NULL : ipi_malloc_whole(&m->alloc, n * sizeof *k.keys);
        k.ok = k.keys ? ipi_malloc_whole(&m->alloc, n) : NULL;
        if (!rc && !k.ok)
            rc = IPROF_ENOMEM;
    }
    if (!rc) {
        if (n)
            method_keys_all(&k, threaded);
        *unresolved = fill(m, which, t, &k, threaded, by_halves);
    }
    ipi_free(&m->alloc, (void *)k.th, k.cap * sizeof *k.th);
    ipi_free(&m->alloc, k.keys, n * sizeof *k.keys);
    ipi_free(&m->alloc, k.ok, n);
    if (rc) {
        free_table(m, t);
        return NULL;
    }
    return t;
}

const ipi_rtab *ipi_index_get(const iprof_model *m, int which)
{
    /* The cast drops const only to reach the atomic slot: publishing an
     * index changes no observable state of the model. */
    ipi_rtab *_Atomic *slot = (ipi_rtab *_Atomic *)&m->index[which];
    ipi_rtab *t = atomic_load_explicit(slot, memory_order_acquire);
    if (t)
        return t;
    size_t unresolved, by_halves;
    ipi_rtab *mine = build(m, which, &unresolved, 0, &by_halves);
    if (!mine)
        return NULL;
    ipi_rtab *expected = NULL;
    if (atomic_compare_exchange_strong_explicit(slot, &expected, mine, memory_order_acq_rel,
                                                memory_order_acquire))
        return mine;
    free_table(m, mine); /* another thread won */
    return expected;
}

const ipi_rtab *ipi_index_method_names(iprof_model *m, int threaded, size_t *by_halves)
{
    size_t unused;
    by_halves = by_halves ? by_halves : &unused;
    *by_halves = 0;
    ipi_rtab *t = ipi_index_built(m, IPI_IX_METHOD_NAMES);
    if (t)
        return t;
    size_t unresolved;
    if (!(t = build(m, IPI_IX_METHOD_NAMES, &unresolved, threaded, by_halves)))
        return NULL;
    m->names_unresolved = unresolved;
    atomic_store_explicit(&m->index[IPI_IX_METHOD_NAMES], t, memory_order_relaxed);
    return t;
}

ipi_rtab *ipi_index_built(iprof_model *m, int which)
{
    return atomic_load_explicit(&m->index[which], memory_order_relaxed);
}

/* Forget an index; the next lookup rebuilds it. What makes one stale is
 * ipi_model_changed's to decide (below). */
static void index_drop(iprof_model *m, int which)
{
    /* The count belongs to the names index: 0 while there is none, so
     * that nothing (a journal's undo) can leave it out of step. */
    if (which == IPI_IX_METHOD_NAMES)
        m->names_unresolved = 0;
    free_table(m, atomic_exchange_explicit(&m->index[which], NULL, memory_order_relaxed));
}

void ipi_index_free_all(iprof_model *m)
{
    for (int i = 0; i < IPI_IX_COUNT; i++)
        index_drop(m, i);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        ipi_columns_drop(m, k);
}

/* ---- what a change makes stale -------------------------------------------- */

void ipi_model_changed(iprof_model *m, unsigned what, int kind)
{
    /* A method left out of the names index for a missing signature type
     * may resolve now; the type name index took the types as they came. */
    if ((what & IPI_CHANGED_TYPES_ADDED) && m->names_unresolved)
        index_drop(m, IPI_IX_METHOD_NAMES);
    /* A name may now find a later type; a method's signature names may
     * differ or no longer resolve. The method key index holds ids only. */
    if (what & IPI_CHANGED_TYPES_REMOVED) {
        index_drop(m, IPI_IX_TYPE_NAMES);
        index_drop(m, IPI_IX_METHOD_NAMES);
    }
    if (what & IPI_CHANGED_METHODS_REMOVED) {
        index_drop(m, IPI_IX_METHOD_KEYS);
        index_drop(m, IPI_IX_METHOD_NAMES);
    }
    /* The entry index holds positions: it goes when they move. The
     * columns copy records and contexts: they go on any entry change. */
    for (int k = kind < 0 ? 0 : kind; k < (kind < 0 ? IPROF_KIND_COUNT : kind + 1); k++) {
        if (what & IPI_CHANGED_ENTRIES_REMOVED)
            index_drop(m, IPI_IX_ENTRIES + k);
        if (what & (IPI_CHANGED_ENTRIES_ADDED | IPI_CHANGED_RECORDS | IPI_CHANGED_ENTRIES_REMOVED))
            ipi_columns_drop(m, k);
    }
    if (what & IPI_CHANGED_UNCHECKED)
        m->refs_checked = 0;
}

/* ---- finding --------------------------------------------------------------- */

const iprof_type *ipi_find_type_by_name(const iprof_model *m, const ipi_str *name)
{
    const ipi_rtab *t = ipi_index_get(m, IPI_IX_TYPE_NAMES);
    if (t)
        return probe_type(m, t, name);
    for (size_t i = 0; i < m->type_count; i++)
        if (m->types[i]->name == name)
            return m->types[i];
    return NULL;
}

const iprof_method *ipi_find_method_by_key(const iprof_model *m, const ipi_str *name,
                                           const int64_t *sig, size_t sig_len, uint64_t h)
{
    const ipi_rtab *t = ipi_index_get(m, IPI_IX_METHOD_KEYS);
    if (t)
        return probe_method(m, t, name, sig, sig_len, h);
    for (size_t i = 0; i < m->method_count; i++)
        if (method_has_key(ipi_model_method(m, i), name, sig, sig_len))
            return ipi_model_method(m, i);
    return NULL;
}

size_t ipi_find_entry_pos(const iprof_model *m, int kind, const iprof_context *ctx)
{
    const ipi_entry_list *l = &m->entries[kind];
    const ipi_rtab *t = ipi_index_get(m, IPI_IX_ENTRIES + kind);
    if (t)
        return probe_entry(t, l, ctx);
    for (size_t i = 0; i < l->count; i++)
        if (l->items[i].ctx == ctx)
            return i + 1;
    return 0;
}

IPROF_API int iprof_model_build_indexes(iprof_model *model)
{
    if (!model)
        return IPROF_EINVAL;
    /* The lookups of the public API; IPI_IX_METHOD_NAMES is merge's own. */
    static const int readers[] = {IPI_IX_TYPE_NAMES, IPI_IX_METHOD_KEYS};
    for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++)
        if (!ipi_index_get(model, readers[i]))
            return IPROF_ENOMEM;
    for (int kind = 0; kind < IPROF_KIND_COUNT; kind++)
        if (!ipi_index_get(model, IPI_IX_ENTRIES + kind))
            return IPROF_ENOMEM;
    return IPROF_OK;
}
