/* The canonical order of a model's entries (its types' and methods' ids are
 * canon_methods.c's); see canon.h. */
#include "canon.h"

#include <iprof/analysis.h>
#include <stdlib.h>

#include "rules.h"

/* ---- comparisons -------------------------------------------------------- */

/* A frame's method in canonical ids (kinds whose contexts name methods). */
static int64_t frame_method(const ipi_canon_frames *f, const iprof_context *x)
{
    return f->mmap ? (int64_t)ipi_canon_ids_get(f->mmap, x->method) : x->method;
}

/* Entries by their frames in canonical ids, callee first; a context that
 * is a prefix of another first. */
static int cmp_entry(const ipi_canon_frames *f, const ipi_canon_ent *a, const ipi_canon_ent *b)
{
    if (a->method != b->method)
        return a->method < b->method ? -1 : 1;
    int r = ipi_canon_cmp_i64(a->bci, b->bci);
    if (r)
        return r;
    const iprof_context *x = a->callers, *y = b->callers;
    for (; x && y; x = x->parent, y = y->parent) {
        if (x == y)
            return 0; /* one node: the same callers from here on */
        if ((r = ipi_canon_cmp_i64(frame_method(f, x), frame_method(f, y))) || (r = ipi_canon_cmp_i64(ipi_ctx_bci(x), ipi_ctx_bci(y))))
            return r;
    }
    return x ? 1 : y ? -1 : 0;
}

/* cmp_entry's order for entries with flat frames (canon.h): a key orders
 * as its frame does, and one that ends (`more` clear) before one that
 * goes on with the same frame, as a prefix before its extensions. */
static int cmp_flat(const ipi_canon_frames *f, const ipi_canon_ent *a, const ipi_canon_ent *b)
{
    if (a->method != b->method)
        return a->method < b->method ? -1 : 1;
    if (a->bci != b->bci)
        return a->bci < b->bci ? -1 : 1;
    if (a->off == b->off)
        return 0;
    if (a->off == IPI_CANON_NO_CALLERS || b->off == IPI_CANON_NO_CALLERS)
        return a->off == IPI_CANON_NO_CALLERS ? -1 : 1;
    for (const uint64_t *p = f->keys + a->off, *q = f->keys + b->off;; p++, q++) {
        if (*p != *q)
            return *p < *q ? -1 : 1;
        if (!(*p & 1))
            return 0;
    }
}

/* Whether the walk's entries a and b have equal frames: their flat keys
 * compared when the kind has them. */
static int same_frames(const ipi_canon_frames *f, const ipi_canon_ent *a, const ipi_canon_ent *b)
{
    return (f->keys ? cmp_flat(f, a, b) : cmp_entry(f, a, b)) == 0;
}

IPI_CANON_DEFINE_SORT(sort_ents, ipi_canon_frames, ipi_canon_ent, cmp_entry)
IPI_CANON_DEFINE_SORT(sort_flat, ipi_canon_frames, ipi_canon_ent, cmp_flat)

/* Record groups: every slot but the count is the key, in slot order. The
 * layouts are (bci, index, count) and (type, count). */
static int cmp_pair(const void *pa, const void *pb)
{
    return ipi_canon_cmp_i64(*(const int64_t *)pa, *(const int64_t *)pb);
}

/* Conditional triples are sorted, never combined: GraalVM counts every
 * record, a repeat of a (bci, index) too (docs/format.md). Stable, so that
 * repeats keep their order (the i-th still meets the i-th in a merge). A
 * valid bci under several indexes is given its last record's index by
 * GraalVM: that index's records go last among the bci's, so the sort
 * keeps what GraalVM computes. */
typedef struct triple {
    int64_t v[3];
} triple;

typedef struct triple_order {
    int by_bci;     /* 1: by bci alone; 0: by index, `winner` last */
    int has_winner; /* the bci is valid: its winner's records go last */
    int64_t winner;
} triple_order;

static int cmp_triple(const triple_order *o, const triple *a, const triple *b)
{
    if (o->by_bci)
        return ipi_canon_cmp_i64(a->v[0], b->v[0]);
    int wa = o->has_winner && a->v[1] == o->winner, wb = o->has_winner && b->v[1] == o->winner;
    return wa != wb ? wa - wb : ipi_canon_cmp_i64(a->v[1], b->v[1]);
}

IPI_CANON_DEFINE_SORT(sort_triple_run, triple_order, triple, cmp_triple)

/* n triples at r in canonical order; tmp holds n / 2 triples. */
static void sort_triples(int64_t *r, size_t n, int64_t *tmp)
{
    triple *t = (triple *)r;
    triple_order o = {1, 0, 0};
    sort_triple_run(&o, t, (triple *)tmp, n);
    o.by_bci = 0;
    for (size_t i = 0, end; i < n; i = end) {
        for (end = i + 1; end < n && t[end].v[0] == t[i].v[0]; end++)
            ;
        o.has_winner = t[i].v[0] != IPROF_INVALID_BRANCH_BCI;
        o.winner = t[end - 1].v[1]; /* the bci's last record, still in input order */
        sort_triple_run(&o, t + i, (triple *)tmp, end - i);
    }
}

/* Values of scratch sort_records needs for count records. */
static size_t sort_scratch(size_t count)
{
    return count / 2 + 3;
}

/* Sort the groups of records (and sum the pairs with equal types) with
 * sort_scratch(count) values at tmp; returns the new record count. */
static size_t sort_records(int kind, int64_t *r, size_t count, int64_t *tmp)
{
    const ipi_kind_layout *L = ipi_kind_layout_of(kind);
    size_t g = (size_t)L->group;
    if (g == 1 || count <= g)
        return count;
    if (g == 3) {
        sort_triples(r, count / 3, tmp);
        return count;
    }
    qsort(r, count / g, g * sizeof *r, cmp_pair);
    size_t out = 0, cs = (size_t)L->count_slot;
    for (size_t i = 0; i < count; i += g) {
        if (out && cmp_pair(r + out - g, r + i) == 0) {
            r[out - g + cs] = ipi_count_add(r[out - g + cs], r[i + cs]);
            continue;
        }
        if (out != i)
            memmove(r + out, r + i, g * sizeof *r);
        out += g;
    }
    return out;
}

/* ---- checks ------------------------------------------------------------- */

/* The first rule the canonical form needs that entry e of a kind breaks,
 * or IPI_RULE_OK; its callers are walked for a negative method id only
 * when the model has made such a node (ipi_ctx_nodes.negative): a cache
 * miss or more per entry otherwise. */
static int entry_rule(int kind, const iprof_entry *e, int negative)
{
    int64_t fr[2];
    /* The rules need the frames only for the first frame's bci (call
     * count) and the monitor's exact "0:0"; give them the callee frame
     * and the depth through a short copy. */
    fr[0] = e->ctx->method;
    fr[1] = ipi_ctx_bci(e->ctx);
    int rule = ipi_rule_check_entry(kind, fr, 1, e->records, e->record_count);
    if (rule == IPI_RULE_OK && kind == IPROF_KIND_MONITOR && e->ctx->depth != 1)
        rule = IPI_RULE_MONITOR_CTX;
    if (rule == IPI_RULE_OK && negative)
        for (const iprof_context *x = e->ctx; x; x = x->parent)
            if (x->method < 0)
                rule = IPI_RULE_NEGATIVE_METHOD;
    return rule;
}

/* The entries [from, to) of a kind checked for their rules: the first
 * that breaks one at bad (to: none). A job: reads only. */
typedef struct rule_scan {
    const ipi_entry_list *l;
    int kind, negative;
    size_t from, to, bad;
    int rule;
} rule_scan;

static void scan_rules(void *arg)
{
    rule_scan *r = arg;
    for (r->bad = r->from; r->bad < r->to; r->bad++)
        if ((r->rule = entry_rule(r->kind, &r->l->items[r->bad], r->negative)) != IPI_RULE_OK)
            return;
}

int ipi_canon_check(iprof_model *report, const iprof_model *m, int threaded)
{
    /* A model that vouches for its references (a clean load, checked
     * edits) needs only the entry rules checked: on two threads, each
     * half of a kind, the first fault of the first half reported first. */
    int refs = !m->refs_checked;
    for (size_t i = 0; refs && i < m->method_count; i++) {
        const iprof_method *x = ipi_model_method(m, i);
        int rc = ipi_method_check_sig(report, m, x->id, x->sig, x->sig_len, "the model");
        if (rc)
            return rc;
    }
    for (int kind = 0; kind < IPROF_KIND_COUNT; kind++) {
        const ipi_entry_list *l = &m->entries[kind];
        if (!refs) {
            size_t n = l->count;
            int neg = m->ctx_nodes.negative;
            rule_scan lo = {l, kind, neg, 0, n / 2, 0, IPI_RULE_OK};
            rule_scan hi = {l, kind, neg, n / 2, n, 0, IPI_RULE_OK};
            ipi_job_both(scan_rules, &lo, &hi, threaded && n > IPI_JOB_MIN);
            const rule_scan *r = lo.bad < lo.to ? &lo : hi.bad < hi.to ? &hi : NULL;
            if (r)
                return ipi_entry_fail_rule(report, &l->items[r->bad], r->rule, 1);
            continue;
        }
        for (size_t i = 0; i < l->count; i++) {
            const iprof_entry *e = &l->items[i];
            int rule = entry_rule(kind, e, m->ctx_nodes.negative);
            if (rule != IPI_RULE_OK)
                return ipi_entry_fail_rule(report, e, rule, 1);
            int rc = ipi_entry_check_refs(report, m, e, "the model");
            if (rc)
                return rc;
        }
    }
    return IPROF_OK;
}

/* Free a slot's bucket bounds once it is sorted. */
static void drop_buckets(const ipi_canon *c, ipi_canon_slot *s)
{
    ipi_free(c->a, s->buckets, s->buckets_cap * sizeof *s->buckets);
    s->buckets = NULL;
    s->buckets_cap = 0;
}

/* Free a slot's flat frames once its walk is over. */
static void drop_keys(const ipi_canon *c, ipi_canon_slot *s)
{
    ipi_free(c->a, s->keys, s->keys_cap * sizeof *s->keys);
    s->keys = NULL;
    s->keys_cap = 0;
    s->frames.keys = NULL;
}

void ipi_canon_free(ipi_canon *c)
{
    for (int i = 0; i < 2; i++) {
        ipi_canon_slot *s = &c->slots[i];
        ipi_job_wait(&s->job);
        ipi_free(c->a, s->ents, s->ents_cap * sizeof *s->ents);
        ipi_free(c->a, s->tmp, s->tmp_cap * sizeof *s->tmp);
        drop_keys(c, s);
        drop_buckets(c, s);
    }
    ipi_idmap_free(&c->tmap, c->a);
    ipi_idmap_free(&c->mmap.sparse, c->a);
    ipi_free(c->a, c->mmap.dense, c->mmap.dense_cap * sizeof *c->mmap.dense);
    ipi_free(c->a, c->types, c->m->type_count * sizeof *c->types);
    ipi_canon_methods_done(c);
    ipi_free(c->a, c->sig, c->sig_cap * sizeof *c->sig);
    ipi_free(c->a, c->fr, c->fr_cap * sizeof *c->fr);
    ipi_free(c->a, c->recs, c->recs_cap * sizeof *c->recs);
}

/* Room for need items of `size` bytes at *arr (holding *cap): kept when
 * it has it, else exactly need: doubling could hold twice a kind's
 * entries while the next kind sorts, the canonical write's peak (a merge
 * of four 100 MB files peaked 2.5 MiB lower). The old items are not
 * kept. Its pages are mapped by whoever fills it (the sort's job,
 * sort_slot; both threads, flatten), not here on the calling thread. */
static int fit_array(const iprof_allocator *a, void *arr, size_t *cap, size_t need, size_t size)
{
    void *p;
    memcpy(&p, arr, sizeof p);
    if (*cap >= need)
        return IPROF_OK;
    ipi_free(a, p, *cap * size);
    p = ipi_malloc(a, need * size);
    *cap = p ? need : 0;
    memcpy(arr, &p, sizeof p);
    return p ? IPROF_OK : IPROF_ENOMEM;
}

/* ---- flat frames (ipi_canon_frames) -------------------------------------- */

/* A caller frame as a flat key, `more` when callers follow; 0 when out
 * of the keys' range. */
static uint64_t frame_key(int64_t method, int64_t bci, int more)
{
    if (method < 0 || method >= INT32_MAX || bci < INT32_MIN || bci > INT32_MAX)
        return 0;
    return ((uint64_t)method + 1) << 33 | (uint64_t)(bci - (int64_t)INT32_MIN) << 1 |
           (uint64_t)more;
}

/* A share of the work of flattening a slot's frames: its entries [from,
 * to) in the model's order, then its sorted entries [from, to). Jobs:
 * they write only their own share. */
typedef struct flat_part {
    ipi_canon_slot *s;
    size_t from, to;
    size_t keys;   /* the keys of its entries: their callers */
    uint64_t *at;  /* where they go */
    uint32_t *off; /* by entry: where its keys start */
    int ok;        /* every frame in range */
} flat_part;

static void count_keys(void *arg)
{
    flat_part *p = arg;
    const iprof_entry *items = p->s->items;
    p->keys = 0;
    for (size_t i = p->from; i < p->to; i++) {
        if (i + 8 < p->to)
            ipi_prefetch(items[i + 8].ctx);
        p->keys += items[i].ctx->depth - 1;
    }
}

/* The keys of callers x and those after it at *k, *k moved past them; 0
 * when a frame is out of range. */
static int put_keys(const ipi_canon_slot *s, const iprof_context *x, uint64_t **k)
{
    for (; x; x = x->parent)
        if (!(*(*k)++ = frame_key(frame_method(&s->frames, x), ipi_ctx_bci(x), x->parent != NULL)))
            return 0;
    return 1;
}

/* In the model's order the nodes lie about as they were allocated: few
 * misses, where the sorted order would take one per node. */
static void fill_keys(void *arg)
{
    flat_part *p = arg;
    const ipi_canon_slot *s = p->s;
    uint64_t *k = p->at;
    p->ok = 0;
    for (size_t i = p->from; i < p->to; i++) {
        const iprof_context *x = s->items[i].ctx->parent;
        p->off[i] = x ? (uint32_t)(k - s->keys) : UINT32_MAX;
        if (!put_keys(s, x, &k))
            return;
    }
    p->ok = 1;
}

/* A sort's share of flattening (flat_sort): the slot's entries listed
 * (entry i at at[i], or i) with their callers' keys made in the model's
 * order, frames.keys set; 0 when a frame is out of range (the entries are
 * then to be listed anew). */
static int list_flat(ipi_canon_slot *s, const uint32_t *at)
{
    uint64_t *k = s->keys;
    for (size_t i = 0; i < s->count; i++) {
        if (i + 8 < s->count)
            ipi_prefetch(s->items[i + 8].ctx);
        const iprof_entry *e = &s->items[i];
        const iprof_context *x = e->ctx->parent;
        s->ents[at ? at[i] : i] = (ipi_canon_ent){.bci = ipi_ctx_bci(e->ctx),
                                     .off = x ? (size_t)(k - s->keys) : IPI_CANON_NO_CALLERS,
                                     .method = (uint32_t)frame_method(&s->frames, e->ctx),
                                     .index = (uint32_t)i};
        if (!put_keys(s, x, &k))
            return 0;
    }
    s->frames.keys = s->keys;
    return 1;
}

static void set_offsets(void *arg)
{
    flat_part *p = arg;
    ipi_canon_ent *ents = p->s->ents;
    for (size_t j = p->from; j < p->to; j++) {
        uint32_t off = p->off[ents[j].index];
        ents[j].off = off == UINT32_MAX ? IPI_CANON_NO_CALLERS : off;
    }
}

/* The number of keys of a slot's entries (both threads when threaded),
 * 0 when they have none or too many to flatten. */
static size_t count_all_keys(const ipi_canon *c, const ipi_canon_slot *s, flat_part *lo,
                             flat_part *hi)
{
    size_t n = s->count, h = n / 2;
    *lo = (flat_part){(ipi_canon_slot *)s, 0, h, 0, NULL, NULL, 0};
    *hi = (flat_part){(ipi_canon_slot *)s, h, n, 0, NULL, NULL, 0};
    ipi_job_both(count_keys, lo, hi, c->threaded && n > IPI_JOB_MIN);
    size_t keys = lo->keys + hi->keys;
    return keys < UINT32_MAX ? keys : 0;
}

/* Room for the flat frames a sort makes itself (flat_sort), when there
 * are callers and memory: else the sort walks nodes. */
static void room_for_keys(const ipi_canon *c, ipi_canon_slot *s)
{
    flat_part lo, hi;
    size_t keys = count_all_keys(c, s, &lo, &hi);
    if (!keys || fit_array(c->a, &s->keys, &s->keys_cap, keys, sizeof *s->keys))
        drop_keys(c, s);
}

/* Give the sorted slot flat frames when they fit (in range, fewer than
 * 2^32 keys, memory to hold them); else it keeps walking nodes. On two
 * threads when threaded: each pass split in halves. */
static void flatten(const ipi_canon *c, ipi_canon_slot *s)
{
    size_t n = s->count;
    int threaded = c->threaded && n > IPI_JOB_MIN;
    flat_part lo, hi;
    size_t keys = count_all_keys(c, s, &lo, &hi);
    if (!keys) /* no callers at all: nothing to chase */
        return;
    uint32_t *off = ipi_malloc_whole(c->a, n * sizeof *off);
    if (!off || fit_array(c->a, &s->keys, &s->keys_cap, keys, sizeof *s->keys)) {
        ipi_free(c->a, off, n * sizeof *off);
        return;
    }
    lo.off = hi.off = off;
    lo.at = s->keys;
    hi.at = s->keys + lo.keys;
    void *block = s->keys;
    size_t size = keys * sizeof *s->keys;
    ipi_job_populate(&block, &size, 1, threaded);
    ipi_job_both(fill_keys, &lo, &hi, threaded);
    if (lo.ok && hi.ok) { /* the sort is done: the callers' nodes give way */
        ipi_job_both(set_offsets, &lo, &hi, threaded);
        s->frames.keys = s->keys;
    } else {
        drop_keys(c, s);
    }
    ipi_free(c->a, off, n * sizeof *off);
}

/* ---- entries ------------------------------------------------------------ */

/* Sorting a large kind by method first: a counting sort into 2^16
 * buckets by the top bits of the canonical method id, then each bucket
 * sorted (a few methods' entries): two passes instead of the 18 merge
 * passes of 200 000 entries, most of whose comparisons end at the method.
 * The counting sort places each entry as it is listed, in the model's
 * order (so a bucket holds its entries by index, as a stable sort leaves
 * them): no second array of entries, and no chain of moves, each waiting
 * for the miss before. */
#define BUCKET_BITS 16
#define BUCKETS ((size_t)1 << BUCKET_BITS)
#define BUCKET_MIN 65536 /* entries: fewer sort at once */

/* Where each entry of the slot goes: at[i], with bounds[b] .. bounds[b +
 * 1] bucket b. at holds the slot's count (in the sort's scratch), next
 * BUCKETS. */
static void place_entries(const ipi_canon_slot *s, uint32_t *at, uint32_t *bounds,
                          uint32_t *next)
{
    memset(bounds, 0, (BUCKETS + 1) * sizeof *bounds);
    for (size_t i = 0; i < s->count; i++) {
        if (i + 8 < s->count)
            ipi_prefetch(s->items[i + 8].ctx);
        at[i] = (uint32_t)frame_method(&s->frames, s->items[i].ctx) >> s->shift;
        bounds[at[i] + 1]++;
    }
    for (size_t b = 0; b < BUCKETS; b++) {
        bounds[b + 1] += bounds[b];
        next[b] = bounds[b];
    }
    for (size_t i = 0; i < s->count; i++)
        at[i] = next[at[i]]++;
}

/* List a slot's entries and sort them, on flat frames when the presort
 * made room for them and every frame is in range (a job: reads the model
 * and the maps, writes the slot, allocates nothing). */
static void sort_slot(void *arg)
{
    ipi_canon_slot *s = arg;
    /* The slot's arrays mapped here, on the second thread when threaded:
     * the calling thread is the one the canonical write waits for. */
    ipi_mem_populate(s->ents, s->count * sizeof *s->ents);
    ipi_mem_populate(s->tmp, s->tmp_cap * sizeof *s->tmp);
    if (s->keys)
        ipi_mem_populate(s->keys, s->keys_cap * sizeof *s->keys);
    uint32_t *at = NULL, *bounds = s->buckets;
    if (bounds) {
        at = (uint32_t *)(void *)s->tmp; /* 4 bytes an entry; it has 12 */
        place_entries(s, at, bounds, bounds + BUCKETS + 1);
    }
    int flat = s->keys && list_flat(s, at);
    if (!flat)
        for (size_t i = 0; i < s->count; i++) {
            const iprof_entry *e = &s->items[i];
            s->ents[at ? at[i] : i] =
                (ipi_canon_ent){.bci = ipi_ctx_bci(e->ctx),
                                .callers = e->ctx->parent,
                                .method = (uint32_t)frame_method(&s->frames, e->ctx),
                                .index = (uint32_t)i};
        }
    void (*sort)(const ipi_canon_frames *, ipi_canon_ent *, ipi_canon_ent *, size_t) =
        flat ? sort_flat : sort_ents;
    if (!bounds)
        sort(&s->frames, s->ents, s->tmp, s->count);
    for (size_t b = 0; bounds && b < BUCKETS; b++)
        if (bounds[b + 1] - bounds[b] > 1)
            sort(&s->frames, s->ents + bounds[b], s->tmp, bounds[b + 1] - bounds[b]);
    atomic_store_explicit(&s->sorted, 1, memory_order_release);
}

/* Bucket bounds for a large kind whose frames name canonical method ids
 * (ids 0..method_ids): else, or without the memory, one sort. */
static void room_for_buckets(const ipi_canon *c, ipi_canon_slot *s)
{
    unsigned shift = 0;
    while ((c->method_ids >> shift) >= BUCKETS)
        shift++;
    s->shift = shift;
    if (!s->frames.mmap || s->count < BUCKET_MIN ||
        fit_array(c->a, &s->buckets, &s->buckets_cap, 2 * BUCKETS + 1, sizeof *s->buckets))
        drop_buckets(c, s);
}

/* The slot not being walked: the one a presort takes. */
static ipi_canon_slot *spare_slot(ipi_canon *c)
{
    return &c->slots[c->walk == &c->slots[0]];
}

int ipi_canon_presort(ipi_canon *c, int kind)
{
    ipi_canon_slot *s = spare_slot(c);
    ipi_job_wait(&s->job);
    const ipi_entry_list *l = &c->m->entries[kind];
    s->kind = -1;
    if (l->count > UINT32_MAX)
        return IPROF_ELIMIT;
    s->count = l->count;
    s->frames.mmap = ipi_kind_layout_of(kind)->checks_methods ? &c->mmap : NULL;
    room_for_buckets(c, s);
    if (fit_array(c->a, &s->ents, &s->ents_cap, l->count, sizeof *s->ents) ||
        fit_array(c->a, &s->tmp, &s->tmp_cap, l->count / 2 + 1, sizeof *s->tmp))
        return IPROF_ENOMEM;
    s->kind = kind;
    s->items = l->items;
    s->frames.keys = NULL; /* set by the sort when it made flat frames */
    /* Flat frames for the sort too when no other kind holds keys (the
     * first kind: nothing is walked yet); else they come for the walk. */
    s->flat_sort = !c->slots[s == &c->slots[0]].keys;
    if (s->flat_sort)
        room_for_keys(c, s);
    atomic_store_explicit(&s->sorted, 0, memory_order_relaxed);
    ipi_job_start(&s->job, sort_slot, s, c->threaded && l->count > IPI_JOB_MIN);
    return IPROF_OK;
}

int ipi_canon_kind(ipi_canon *c, int kind)
{
    ipi_canon_slot *s = c->slots[0].kind == kind ? &c->slots[0]
                        : c->slots[1].kind == kind ? &c->slots[1]
                                                   : NULL;
    if (!s) {
        int rc = ipi_canon_presort(c, kind);
        if (rc)
            return rc;
        s = spare_slot(c);
    }
    ipi_job_wait(&s->job);
    /* The walk needs the sorted entries only: their buffer goes now, so
     * that the next kind's sort takes its place. */
    ipi_free(c->a, s->tmp, s->tmp_cap * sizeof *s->tmp);
    s->tmp = NULL;
    s->tmp_cap = 0;
    drop_buckets(c, s);
    /* So do the last walk's flat frames, before this one's are made:
     * the next kind's sort holds no keys, so that two kinds' never add
     * up (a merge's memory is the result and 64 MiB). */
    if (c->walk && c->walk != s)
        drop_keys(c, c->walk);
    if (!s->flat_sort)
        flatten(c, s);
    else if (!s->frames.keys) /* a frame out of range: the sort walked nodes */
        drop_keys(c, s);
    c->walk = s;
    c->next = 0;
    return IPROF_OK;
}

/* The records of an entry in canonical type ids, at out. */
static void map_records(const ipi_canon *c, const ipi_kind_layout *L, const iprof_entry *e,
                        int64_t *out)
{
    if (e->record_count)
        memcpy(out, e->records, e->record_count * sizeof *out);
    if (L->type_slot >= 0)
        for (size_t k = (size_t)L->type_slot; k < e->record_count; k += (size_t)L->group)
            out[k] = ipi_canon_type(c, out[k]);
}

/* The walk loads its entries ENTRY_AHEAD ahead, ENTRY_BATCH at a time. */
#define ENTRY_AHEAD 16
#define ENTRY_BATCH 8

/* Entries are walked in sorted order, not the model's: each a miss for
 * the entry, its context nodes, its records and the id map slot of each
 * caller's method. Fetched 16, 8 and 4 entries ahead, each step reading
 * what the step before brought in. The entries themselves are loaded, not
 * prefetched, eight at a time: with a prefetch three quarters of
 * ipi_canon_next's time was its wait for the entry (the CPU did not keep
 * the prefetch), and a load holds up what follows it until it is done, so
 * eight issued together wait once where eight apart wait eight times
 * (docs/performance.md, "The canonical walk's entries loaded ahead"). */
static void prefetch_entry(const ipi_canon *c, size_t i)
{
    const ipi_canon_slot *s = c->walk;
    const ipi_canon_ent *ents = s->ents;
    if (i % ENTRY_BATCH == 0)
        for (size_t k = i + ENTRY_AHEAD; k < i + ENTRY_AHEAD + ENTRY_BATCH && k < s->count; k++)
            ipi_touch(&s->items[ents[k].index].record_count);
    if (s->frames.keys) { /* the entry's keys, then its records */
        if (i + 16 < s->count && ents[i + 16].off != IPI_CANON_NO_CALLERS)
            ipi_prefetch(s->frames.keys + ents[i + 16].off);
        if (i + 8 < s->count)
            ipi_prefetch(s->items[ents[i + 8].index].records);
        return;
    }
    if (i + 16 < s->count)
        ipi_prefetch(ents[i + 16].callers);
    if (i + 8 < s->count) {
        const iprof_entry *e = &s->items[ents[i + 8].index];
        const iprof_context *p = ents[i + 8].callers;
        ipi_prefetch(e->ctx);
        ipi_prefetch(e->records);
        if (p)
            ipi_prefetch(p->parent);
    }
    const ipi_canon_ids *mmap = s->frames.mmap;
    const iprof_context *p = i + 4 < s->count ? ents[i + 4].callers : NULL;
    for (int d = 0; p && d < 2 && mmap; d++, p = p->parent)
        if (p->method >= 0 && (uint64_t)p->method < mmap->dense_cap)
            ipi_prefetch(&mmap->dense[p->method]);
}

/* The depth of the walk's entry x (e in the model). */
static size_t ent_depth(const ipi_canon *c, const ipi_canon_ent *x, const iprof_entry *e)
{
    const uint64_t *k = c->walk->frames.keys;
    if (!k)
        return e->ctx->depth;
    size_t d = 1;
    if (x->off != IPI_CANON_NO_CALLERS)
        for (k += x->off, d++; *k & 1; k++)
            d++;
    return d;
}

/* The frames of the walk's entry x (e in the model) in canonical ids,
 * callee first, at fr. */
static void canon_frames(const ipi_canon *c, const ipi_canon_ent *x, const iprof_entry *e,
                         int64_t *fr)
{
    const ipi_canon_frames *f = &c->walk->frames;
    if (f->keys) {
        fr[0] = x->method;
        fr[1] = x->bci;
        if (x->off == IPI_CANON_NO_CALLERS)
            return;
        size_t d = 1;
        for (const uint64_t *k = f->keys + x->off;; k++, d++) { /* frame_key's inverse */
            fr[2 * d] = (int64_t)(*k >> 33) - 1;
            fr[2 * d + 1] = (int64_t)(uint32_t)(*k >> 1) + INT32_MIN;
            if (!(*k & 1))
                return;
        }
    }
    size_t d = 0;
    for (const iprof_context *p = e->ctx; p; p = p->parent, d++) {
        fr[2 * d] = frame_method(f, p);
        fr[2 * d + 1] = ipi_ctx_bci(p);
    }
}

int ipi_canon_next(ipi_canon *c, ipi_canon_entry *out)
{
    const ipi_canon_slot *s = c->walk;
    if (!s || c->next >= s->count)
        return 0;
    const ipi_kind_layout *L = ipi_kind_layout_of(s->kind);
    const iprof_entry *items = s->items;
    const ipi_canon_ent *ents = s->ents;
    prefetch_entry(c, c->next);
    size_t first = c->next, end = first + 1, most = 0;
    size_t total = items[ents[first].index].record_count;
    /* Entries with equal frames (repeats a lenient read kept) become one. */
    while (end < s->count && same_frames(&s->frames, &ents[first], &ents[end])) {
        size_t k = items[ents[end++].index].record_count;
        total += k;
        most = k > most ? k : most;
    }
    c->next = end;
    if (total > IPI_MAX_RECORDS)
        return IPROF_ELIMIT;
    /* The combined records, room for those of the entry being added, then
     * the sort's scratch. */
    if (ipi_grow_array(c->a, &c->recs, &c->recs_cap, total + most + sort_scratch(total),
                       sizeof *c->recs))
        return IPROF_ENOMEM;
    const iprof_entry *head = &items[ents[first].index];
    size_t count = head->record_count;
    map_records(c, L, head, c->recs);
    for (size_t i = first + 1; i < end; i++) {
        const iprof_entry *e = &items[ents[i].index];
        map_records(c, L, e, c->recs + total);
        int rc = ipi_records_combine(c->a, s->kind, c->recs, &count, c->recs + total,
                                     e->record_count);
        if (rc)
            return rc;
    }
    size_t depth = ent_depth(c, &ents[first], head);
    if (ipi_grow_array(c->a, &c->fr, &c->fr_cap, 2 * depth, sizeof *c->fr))
        return IPROF_ENOMEM;
    canon_frames(c, &ents[first], head, c->fr);
    *out = (ipi_canon_entry){c->fr, depth, c->recs,
                             sort_records(s->kind, c->recs, count, c->recs + total + most)};
    return 1;
}

size_t ipi_canon_run_start(const ipi_canon *c, size_t i)
{
    const ipi_canon_slot *s = c->walk;
    while (i > 0 && i < s->count && same_frames(&s->frames, &s->ents[i - 1], &s->ents[i]))
        i++;
    return i < s->count ? i : s->count;
}

/* The sort's scratch of an entry taken here (on the stack of a job): a
 * larger one is left to ipi_canon_next. */
#define ENTRY_AT_SCRATCH 256

int ipi_canon_entry_at(const ipi_canon *c, size_t i, int64_t *fr, size_t max_depth,
                       int64_t *recs, size_t max_records, ipi_canon_entry *out)
{
    const ipi_canon_slot *s = c->walk;
    const ipi_canon_ent *ents = s->ents;
    prefetch_entry(c, i);
    const iprof_entry *e = &s->items[ents[i].index];
    size_t depth = ent_depth(c, &ents[i], e);
    int64_t tmp[ENTRY_AT_SCRATCH];
    if (depth > max_depth || e->record_count > max_records ||
        sort_scratch(e->record_count) > ENTRY_AT_SCRATCH ||
        (i + 1 < s->count && same_frames(&s->frames, &ents[i], &ents[i + 1])))
        return 0;
    map_records(c, ipi_kind_layout_of(s->kind), e, recs);
    canon_frames(c, &ents[i], e, fr);
    *out = (ipi_canon_entry){fr, depth, recs, sort_records(s->kind, recs, e->record_count, tmp)};
    return 1;
}

void ipi_canon_skip(ipi_canon *c, size_t i)
{
    c->next = i;
}

int ipi_canon_sorting(const ipi_canon *c)
{
    for (int i = 0; i < 2; i++)
        if (c->slots[i].job.running &&
            !atomic_load_explicit(&c->slots[i].sorted, memory_order_acquire))
            return 1;
    return 0;
}
