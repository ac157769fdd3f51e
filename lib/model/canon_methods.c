/* The canonical ids of a model's types and methods: types sorted by
 * name, methods by declaring type and signature, each numbered in that
 * order (ipi_canon_start); see canon.h. The entries' order is canon.c's. */
#include "canon.h"

#include <stdlib.h>

/* ---- comparisons -------------------------------------------------------- */

static int cmp_str(const ipi_str *a, const ipi_str *b)
{
    if (a == b)
        return 0;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = n ? memcmp(a->s, b->s, n) : 0;
    if (c)
        return c;
    return a->len < b->len ? -1 : a->len > b->len;
}

/* Bytes [from, from + 8) of a name as a big-endian number (zeros past
 * its end): comparing two of them orders as memcmp of those bytes does,
 * and a shorter name padded with zeros still sorts first or ties, never
 * after (a tie falls back to cmp_str). */
static uint64_t name_bytes(const ipi_str *s, size_t from)
{
    unsigned char b[8] = {0};
    if (s->len > from)
        memcpy(b, s->s + from, s->len - from < 8 ? s->len - from : 8);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | b[i];
    return v;
}

static uint64_t name_prefix(const ipi_str *s)
{
    return name_bytes(s, 0);
}

/* A type in the sort: its name's first 16 bytes inline, so that most
 * comparisons read no string (type names share package prefixes, often
 * longer than 8 bytes). */
typedef struct type_key {
    uint64_t hi, lo;
    const iprof_type *t;
} type_key;

static int cmp_type_key(const ipi_canon *c, const type_key *a, const type_key *b)
{
    (void)c;
    if (a->hi != b->hi)
        return a->hi < b->hi ? -1 : 1;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    return cmp_str(a->t->name, b->t->name);
}

int64_t ipi_canon_type(const ipi_canon *c, int64_t old)
{
    return (int64_t)(intptr_t)ipi_idmap_get(&c->tmap, old) - 1;
}

/* Methods of one declaring type by name, then the other signature types
 * and the signature's length (the declaring type is list_methods'
 * counting sort). */
static int cmp_meth(const ipi_canon *c, const ipi_canon_meth *a, const ipi_canon_meth *b)
{
    if (a->prefix != b->prefix)
        return a->prefix < b->prefix ? -1 : 1;
    const iprof_method *x = ipi_model_method_at(c->m, a->ref), *y = ipi_model_method_at(c->m, b->ref);
    int r = cmp_str(x->name, y->name);
    if (r)
        return r;
    for (size_t i = 1; i < x->sig_len && i < y->sig_len; i++)
        if ((r = ipi_canon_cmp_i64(ipi_canon_type(c, x->sig[i]), ipi_canon_type(c, y->sig[i]))))
            return r;
    return ipi_canon_cmp_i64((int64_t)x->sig_len, (int64_t)y->sig_len);
}

IPI_CANON_DEFINE_SORT(sort_meths, ipi_canon, ipi_canon_meth, cmp_meth)
IPI_CANON_DEFINE_SORT(sort_type_keys, ipi_canon, type_key, cmp_type_key)

/* ---- types and methods -------------------------------------------------- */

/* Half of the type keys, sorted on a job. */
typedef struct type_half {
    const ipi_canon *c;
    type_key *keys, *tmp;
    size_t n;
} type_half;

static void sort_type_half(void *arg)
{
    type_half *h = arg;
    sort_type_keys(h->c, h->keys, h->tmp, h->n);
}

/* keys sorted; tmp holds count / 2 + 2 of them. Threaded, each half on
 * its own thread, then merged. */
static void sort_types(const ipi_canon *c, type_key *keys, type_key *tmp, size_t count)
{
    size_t h = count / 2;
    type_half lo = {c, keys, tmp, h}, hi = {c, keys + h, tmp + h / 2 + 1, count - h};
    ipi_job_both(sort_type_half, &lo, &hi, c->threaded && count > IPI_JOB_MIN);
    sort_type_keys_merge(c, keys, tmp, h, count);
}

static int order_types(ipi_canon *c)
{
    const iprof_model *m = c->m;
    size_t count = m->type_count, tmp_count = count / 2 + 2;
    if (!count)
        return IPROF_OK;
    if (!(c->types = ipi_malloc(c->a, count * sizeof *c->types)) ||
        ipi_idmap_size_for(&c->tmap, c->a, ipi_model_max_id(m, 1), count))
        return IPROF_ENOMEM;
    type_key *keys = ipi_malloc(c->a, count * sizeof *keys);
    type_key *tmp = keys ? ipi_malloc(c->a, tmp_count * sizeof *tmp) : NULL;
    if (!tmp) {
        ipi_free(c->a, keys, count * sizeof *keys);
        return IPROF_ENOMEM;
    }
    for (size_t i = 0; i < count; i++) {
        const iprof_type *t = m->types[i];
        keys[i] = (type_key){name_bytes(t->name, 0), name_bytes(t->name, 8), t};
    }
    sort_types(c, keys, tmp, count);
    ipi_free(c->a, tmp, tmp_count * sizeof *tmp);
    size_t n = 0; /* distinct names so far: the next id */
    int rc = IPROF_OK;
    for (size_t i = 0; i < count && !rc; i++) {
        const iprof_type *t = keys[i].t;
        if (n == 0 || cmp_type_key(c, &keys[i - 1], &keys[i]) != 0)
            c->types[n++] = t;
        /* Only the first type of an id is what references mean. */
        if (ipi_model_type_by_id(m, t->id) == t)
            rc = ipi_idmap_put(&c->tmap, c->a, t->id, (void *)(intptr_t)n);
    }
    ipi_free(c->a, keys, count * sizeof *keys);
    c->type_count = n;
    return rc;
}

/* Methods are ordered by a counting sort on their declaring type (the
 * first key, a canonical type id), then a sort of each type's methods on
 * the other keys: linear in the methods but for the small per-type sorts,
 * and no pass over all of them in random order. Each pass runs in two
 * parts, one on a second thread when threaded: the methods split in two
 * halves (passes one and two), the types where the methods split in two
 * (pass three). */
typedef struct meth_part {
    const ipi_canon *c;
    ipi_canon_meth *meths, *tmp;
    uint32_t *decl;     /* per method, in the model's order */
    uint32_t *next;     /* per type: the part's count (pass one), then its next slot */
    const uint32_t *end; /* per type: the end of its methods (pass three) */
    uint8_t *same;       /* per sorted method: 1 if equal to the one before */
    size_t from, to;    /* methods (passes one, two); types (pass three) */
} meth_part;

static void count_decls(void *arg)
{
    meth_part *p = arg;
    const ipi_canon *c = p->c;
    for (size_t i = p->from; i < p->to; i++) {
        const iprof_method *x = ipi_model_method(c->m, i);
        uint32_t d = x->sig_len ? (uint32_t)(ipi_canon_type(c, x->sig[0]) + 1) : 0;
        p->decl[i] = d;
        p->next[d]++;
    }
}

static void scatter_methods(void *arg)
{
    meth_part *p = arg;
    const ipi_canon *c = p->c;
    const iprof_model *m = c->m;
    for (size_t i = p->from; i < p->to; i++) {
        /* Each name a miss (interned apart from its method): fetched
         * ahead, its method first. */
        if (i + 16 < p->to)
            ipi_prefetch(ipi_model_method(m, i + 16));
        if (i + 8 < p->to)
            ipi_prefetch(ipi_model_method(m, i + 8)->name);
        uint32_t ref = m->methods[i];
        uint64_t prefix = name_prefix(ipi_model_method_at(m, ref)->name);
        p->meths[p->next[p->decl[i]]++] = (ipi_canon_meth){prefix, ref, (uint32_t)i};
    }
}

/* Each type's methods sorted, and those equal to the one before marked
 * while they are still in the cache (equal methods share their type). */
static void sort_types_methods(void *arg)
{
    meth_part *p = arg;
    for (size_t t = p->from; t < p->to; t++) {
        size_t first = t ? p->end[t - 1] : 0;
        sort_meths(p->c, p->meths + first, p->tmp, p->end[t] - first);
        for (size_t k = first; k < p->end[t]; k++)
            p->same[k] = k > first && cmp_meth(p->c, &p->meths[k - 1], &p->meths[k]) == 0;
    }
}

/* Run fn on both parts, hi on the second thread when threaded. */
static void run_parts(const ipi_canon *c, void (*fn)(void *), void *lo, void *hi,
                      size_t count)
{
    ipi_job_both(fn, lo, hi, c->threaded && count > IPI_JOB_MIN);
}

/* meths sorted, same[i] set when meths[i] equals meths[i - 1]; decl
 * room for a uint32_t per method, next 2 (types + 1) zeros. IPROF_OK or
 * IPROF_ENOMEM (the sorts' scratch, *tmp, sized by the type with the most
 * methods: a sort takes one type at a time; freed by the caller). */
static int list_methods(const ipi_canon *c, ipi_canon_meth *meths, uint32_t *decl,
                        uint32_t *next, uint8_t *same, size_t count, ipi_canon_meth **tmp,
                        size_t *tmp_size)
{
    size_t types = c->type_count + 1, h = count / 2, most = 0;
    meth_part lo = {c, meths, NULL, decl, next, NULL, NULL, 0, h};
    meth_part hi = {c, meths, NULL, decl, next + types, NULL, NULL, h, count};
    run_parts(c, count_decls, &lo, &hi, count);
    /* Each type's methods: the low half's, then the high half's. */
    uint32_t at = 0;
    for (size_t t = 0; t < types; t++) {
        uint32_t nlo = lo.next[t], nhi = hi.next[t];
        lo.next[t] = at;
        hi.next[t] = at + nlo;
        at += nlo + nhi;
        if (nlo + nhi > most)
            most = nlo + nhi;
    }
    /* Each part's sort scratch holds half of the largest type's methods. */
    size_t part = most / 2 + 1;
    *tmp_size = 2 * part * sizeof **tmp;
    if (!(*tmp = ipi_malloc(c->a, *tmp_size)))
        return IPROF_ENOMEM;
    run_parts(c, scatter_methods, &lo, &hi, count);
    /* hi.next[t] is now the end of type t's methods. Split the types
     * where the methods reach half. */
    size_t split = 0;
    while (split < types && hi.next[split] < h)
        split++;
    lo = (meth_part){c, meths, *tmp, NULL, NULL, hi.next, same, 0, split < types ? split + 1 : types};
    hi = (meth_part){c, meths, *tmp + part, NULL, NULL, hi.next, same, lo.to, types};
    run_parts(c, sort_types_methods, &lo, &hi, count);
    return IPROF_OK;
}

/* A half of numbering the methods (number_methods), a job: ranks of the
 * sorted methods [from, to), whose ids go on from `last`; then the model's
 * methods [from, to) into the dense id map (ids unique: no repeats),
 * counting those it leaves to the sparse map. */
typedef struct number_part {
    const ipi_canon *c;
    const ipi_canon_meth *meths;
    const uint8_t *same;
    uint32_t *rank;
    size_t from, to;
    uint32_t last;
    size_t sparse;
} number_part;

static void rank_methods(void *arg)
{
    number_part *p = arg;
    uint32_t n = p->last;
    for (size_t i = p->from; i < p->to; i++) {
        n += !p->same[i];
        p->rank[p->meths[i].index] = n;
    }
}

static void map_dense(void *arg)
{
    number_part *p = arg;
    const ipi_canon *c = p->c;
    p->sparse = 0;
    for (size_t i = p->from; i < p->to; i++) {
        if (i + 8 < p->to)
            ipi_prefetch(ipi_model_method(c->m, i + 8));
        int64_t id = ipi_model_method(c->m, i)->id;
        if (id >= 0 && (uint64_t)id < c->mmap.dense_cap)
            c->mmap.dense[id] = p->rank[i];
        else
            p->sparse++;
    }
}

/* Number the distinct methods of the sorted meths and keep only their
 * indexes, in place: c->order (4 bytes a method instead of 16 for the rest
 * of the walk, which may overlap sorting the entries). The sorted walk
 * only scatters each method's canonical id into rank (4 bytes a method,
 * by its place in the model); the id map is then filled in the model's
 * order, where methods and their ids lie in sequence: reading each method
 * in sorted order cost a cache miss or two per method. Both passes in
 * halves, one on a second thread when threaded, but for a model whose
 * method ids repeat (only an id's first method is what references mean)
 * and the ids beyond the dense map (its sparse part allocates). */
static int number_methods(ipi_canon *c, ipi_canon_meth *meths, const uint8_t *same,
                          uint32_t *rank, size_t count)
{
    const iprof_model *m = c->m;
    size_t h = count / 2;
    uint32_t first = 0; /* distinct methods among the first h (same[0] is 0) */
    for (size_t i = 0; i < h; i++)
        first += !same[i];
    number_part lo = {c, meths, same, rank, 0, h, 0, 0};
    number_part hi = {c, meths, same, rank, h, count, first, 0};
    run_parts(c, rank_methods, &lo, &hi, count);
    int repeats = !ipi_model_ids_unique(m, 0);
    if (!repeats)
        run_parts(c, map_dense, &lo, &hi, count);
    for (size_t i = 0; (repeats || lo.sparse || hi.sparse) && i < count; i++) {
        const iprof_method *x = ipi_model_method(m, i);
        if (repeats && ipi_model_method_by_id(m, x->id) != x)
            continue;
        if (x->id >= 0 && (uint64_t)x->id < c->mmap.dense_cap)
            c->mmap.dense[x->id] = rank[i];
        else if (ipi_idmap_put(&c->mmap.sparse, c->a, x->id, (void *)(uintptr_t)rank[i]))
            return IPROF_ENOMEM;
    }
    /* The first of each run of equal methods, its reference written at
     * byte 4 n, within items already read. */
    unsigned char *bytes = (unsigned char *)meths;
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        uint32_t ref = meths[i].ref;
        if (!same[i])
            memcpy(bytes + n++ * sizeof ref, &ref, sizeof ref);
    }
    size_t size = n * sizeof *c->order;
    void *order = ipi_realloc(c->a, meths, c->order_size, size);
    if (order)
        c->order_size = size;
    else
        order = meths; /* keeps its size */
    c->order = order;
    c->method_count = c->method_ids = n;
    return IPROF_OK;
}

static int order_methods(ipi_canon *c)
{
    const iprof_model *m = c->m;
    size_t count = m->method_count;
    if (!count)
        return IPROF_OK;
    if (count > UINT32_MAX || c->type_count >= UINT32_MAX)
        return IPROF_ELIMIT;
    size_t next_size = 2 * (c->type_count + 1) * sizeof(uint32_t);
    size_t sizes[4] = {count * sizeof(ipi_canon_meth), count * sizeof(uint32_t), count, 0};
    ipi_canon_meth *meths = ipi_malloc(c->a, sizes[0]);
    if (!meths)
        return IPROF_ENOMEM;
    c->order = (uint32_t *)(void *)meths; /* freed with c from here on */
    c->order_size = sizes[0];
    /* rank: each method's place in the sort, by its place in the model
     * (the declaring types' ids before that, in list_methods). */
    uint32_t *rank = ipi_malloc(c->a, sizes[1]);
    uint8_t *same = rank ? ipi_malloc(c->a, sizes[2]) : NULL;
    uint32_t *next = same ? ipi_malloc(c->a, next_size) : NULL;
    /* Dense for ids up to twice the methods (a gap costs 4 bytes). */
    int64_t max_id = ipi_model_max_id(m, 0);
    if (next && max_id >= 0 && (uint64_t)max_id < 2 * (uint64_t)count + 1024) {
        sizes[3] = ((size_t)max_id + 1) * sizeof *c->mmap.dense;
        if ((c->mmap.dense = ipi_malloc(c->a, sizes[3])))
            c->mmap.dense_cap = (size_t)max_id + 1;
    }
    ipi_canon_meth *tmp = NULL;
    size_t tmp_size = 0;
    int rc = !next || (sizes[3] && !c->mmap.dense) ? IPROF_ENOMEM : IPROF_OK;
    if (!rc) {
        void *blocks[4] = {meths, rank, same, c->mmap.dense};
        ipi_job_populate(blocks, sizes, 4, c->threaded && count > IPI_JOB_MIN);
        if (c->mmap.dense)
            memset(c->mmap.dense, 0, sizes[3]);
        memset(next, 0, next_size);
        rc = list_methods(c, meths, rank, next, same, count, &tmp, &tmp_size);
    }
    ipi_free(c->a, tmp, tmp_size);
    ipi_free(c->a, next, next_size);
    if (!rc)
        rc = number_methods(c, meths, same, rank, count);
    ipi_free(c->a, rank, sizes[1]);
    ipi_free(c->a, same, sizes[2]);
    return rc;
}

const iprof_method *ipi_canon_method(const ipi_canon *c, size_t i)
{
    return ipi_model_method_at(c->m, c->order[i]);
}

void ipi_canon_methods_done(ipi_canon *c)
{
    ipi_free(c->a, c->order, c->order_size);
    c->order = NULL;
    c->order_size = 0;
    c->method_count = 0;
}

/* Methods are walked in an order that is not the model's, each a miss
 * for its struct (two lines with a long signature), its name and the type
 * map's slots of its signature: fetched 16 and 8 methods ahead, the
 * second step reading what the first brought in. */
void ipi_canon_prefetch_method(const ipi_canon *c, size_t i)
{
    if (i + 16 < c->method_count) {
        const char *x = (const char *)ipi_canon_method(c, i + 16);
        ipi_prefetch(x);
        ipi_prefetch(x + 64);
    }
    if (i + 8 < c->method_count) {
        const iprof_method *x = ipi_canon_method(c, i + 8);
        ipi_prefetch(x->name);
        for (size_t k = 1; k < x->sig_len && k < 8; k++)
            if (x->sig[k] >= 0 && (uint64_t)x->sig[k] < c->tmap.dense_cap)
                ipi_prefetch(&c->tmap.dense[x->sig[k]]);
    }
}

void ipi_canon_sig_into(const ipi_canon *c, size_t i, int64_t *out)
{
    const iprof_method *x = ipi_canon_method(c, i);
    for (size_t k = 0; k < x->sig_len; k++)
        out[k] = ipi_canon_type(c, x->sig[k]);
}

const int64_t *ipi_canon_sig(ipi_canon *c, size_t i)
{
    const iprof_method *x = ipi_canon_method(c, i);
    if (ipi_grow_array(c->a, &c->sig, &c->sig_cap, x->sig_len + 1, sizeof *c->sig))
        return NULL;
    ipi_canon_sig_into(c, i, c->sig);
    return c->sig;
}

int ipi_canon_start(ipi_canon *c, const iprof_model *m, int threaded)
{
    memset(c, 0, sizeof *c);
    c->m = m;
    c->a = &m->alloc;
    c->threaded = threaded;
    c->slots[0].kind = c->slots[1].kind = -1;
    ipi_idmap_init(&c->tmap);
    ipi_idmap_init(&c->mmap.sparse);
    int rc = order_types(c);
    return rc ? rc : order_methods(c);
}
