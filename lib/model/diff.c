/*
 * Comparing two models (include/iprof/diff.h): methods matched by key
 * (name and signature type names), contexts by mapped frames, entries of a
 * kind by context; totals, overlaps and the top changes per kind.
 *
 * Every step is a pass over one model with hash lookups into the other:
 * linear in the sizes of both models. The scratch tables and the result
 * are allocated through the options' allocator (model A's by default);
 * B's lazy entry index, if it gets built, uses B's own allocator as every
 * const lookup does.
 */
#include <math.h>

#include <iprof/diff.h>

#include "model.h"
#include "rules.h"
#include "staleness.h"

#include "hash.h"

/* One kept change. */
typedef struct diff_change {
    const iprof_entry *e[2]; /* the entry of A and of B, NULL if absent */
    uint64_t count[2];
    double share[2];
    double delta;
    size_t order; /* A's entry index, then A's count + B's entry index */
} diff_change;

typedef struct diff_kind {
    size_t only[2], common[2];
    uint64_t total[2], common_total[2];
    diff_change *changes;
    size_t change_count, change_cap;
    double stale_sum, stale_weight; /* sum of m(e) d(e), sum of m(e) */
} diff_kind;

struct iprof_diff {
    iprof_allocator alloc;
    const iprof_model *m[2];
    const iprof_method **only_methods[2];
    size_t only_method_count[2], common_methods[2];
    diff_kind kinds[IPROF_KIND_COUNT];
};

/* ---- counts ------------------------------------------------------------- */

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* An entry's count for the diff: the count slots as iprof_entry_total()
 * reads them, but only the positive ones and in uint64, so that the
 * diff's totals and shares (iprof_diff_total) are of what ran and
 * clamp at UINT64_MAX, not INT64_MAX: the rule diff.h documents. */
static uint64_t count_of(const iprof_entry *e)
{
    const ipi_kind_layout *L = ipi_kind_layout_of(e->kind);
    uint64_t sum = 0;
    for (size_t i = (size_t)L->count_slot; i < e->record_count; i += (size_t)L->group)
        if (e->records[i] > 0)
            sum = add_sat(sum, (uint64_t)e->records[i]);
    return sum;
}

/* ---- method keys -------------------------------------------------------- */


/* Whether x of ma and y of mb have the same key (both resolve: checked by
 * the caller through method_key_hash). */
static int same_key(const iprof_model *ma, const iprof_method *x, const iprof_model *mb,
                    const iprof_method *y)
{
    if (x->sig_len != y->sig_len || !ipi_str_equal(x->name, y->name))
        return 0;
    for (size_t i = 0; i < x->sig_len; i++) {
        const iprof_type *tx = ipi_model_type_by_id(ma, x->sig[i]);
        const iprof_type *ty = ipi_model_type_by_id(mb, y->sig[i]);
        if (!ipi_str_equal(tx->name, ty->name))
            return 0;
    }
    return 1;
}

/* ---- the work ----------------------------------------------------------- */

typedef struct diff_work {
    iprof_diff *d;
    const iprof_allocator *a;
    ipi_rtab bkeys;          /* B's methods by key: position + 1 */
    unsigned char *bmatched; /* per B method index */
    ipi_idmap a2b;           /* A method id -> B method */
    int64_t *frames;
    size_t frames_cap;
    unsigned char *seen; /* per B entry index of the kind at hand */
    size_t seen_size;
    size_t top;
    ipi_stale stale;
    uint64_t *group[2]; /* per entry index: the counts of its context */
    size_t group_cap[2];
    size_t *match; /* per A entry index of the kind at hand: its B position (0: none) */
    size_t match_cap;
} diff_work;

static void work_free(diff_work *w, size_t bmethods)
{
    ipi_rtab_free(&w->bkeys, w->a);
    ipi_free(w->a, w->bmatched, bmethods);
    ipi_idmap_free(&w->a2b, w->a);
    ipi_free(w->a, w->frames, w->frames_cap * sizeof *w->frames);
    ipi_free(w->a, w->seen, w->seen_size);
    ipi_free(w->a, w->match, w->match_cap * sizeof *w->match);
    ipi_stale_free(&w->stale);
    for (int s = 0; s < 2; s++)
        ipi_free(w->a, w->group[s], w->group_cap[s] * sizeof(uint64_t));
}

static int push_only(diff_work *w, int side, const iprof_method *x, size_t *cap)
{
    iprof_diff *d = w->d;
    void *p = (void *)d->only_methods[side];
    int rc = ipi_grow(w->a, &p, cap, d->only_method_count[side] + 1, sizeof(const iprof_method *));
    d->only_methods[side] = p;
    if (rc)
        return rc;
    d->only_methods[side][d->only_method_count[side]++] = x;
    return IPROF_OK;
}

static int match_methods(diff_work *w, size_t only_cap[2])
{
    iprof_diff *d = w->d;
    const iprof_model *A = d->m[0], *B = d->m[1];
    if (B->method_count) {
        w->bmatched = ipi_malloc(w->a, B->method_count);
        if (!w->bmatched)
            return IPROF_ENOMEM;
        memset(w->bmatched, 0, B->method_count);
    }
    int rc = ipi_rtab_reserve(&w->bkeys, w->a, B->method_count);
    if (rc)
        return rc;
    for (size_t i = 0; i < B->method_count; i++) {
        const iprof_method *y = ipi_model_method(B, i);
        int ok;
        uint64_t h = ipi_method_names_key(B, y, &ok);
        if (!ok)
            continue;
        uint32_t pos;
        int dup = 0;
        ipi_rtab_for(&w->bkeys, h, pos) {
            if (same_key(B, ipi_model_method(B, pos - 1), B, y)) {
                dup = 1;
                break;
            }
        }
        if (!dup)
            ipi_rtab_put(&w->bkeys, h, (uint32_t)i + 1); /* reserved */
    }
    for (size_t i = 0; i < A->method_count; i++) {
        const iprof_method *x = ipi_model_method(A, i);
        int ok;
        uint64_t h = ipi_method_names_key(A, x, &ok);
        size_t found = 0; /* B's position + 1 */
        if (ok) {
            uint32_t pos;
            ipi_rtab_for(&w->bkeys, h, pos) {
                if (same_key(A, x, B, ipi_model_method(B, pos - 1))) {
                    found = pos;
                    break;
                }
            }
        }
        /* A key's first method on each side match; a later one of A is
         * unmatched, as a later one of B is (symmetric: its ids then map
         * to no method of B, so no entry of B is matched twice). */
        if (!found || w->bmatched[found - 1]) {
            if (push_only(w, 0, x, &only_cap[0]))
                return IPROF_ENOMEM;
            continue;
        }
        d->common_methods[0]++;
        w->bmatched[found - 1] = 1;
        if (ipi_model_method_by_id(A, x->id) == x &&
            ipi_idmap_put(&w->a2b, w->a, x->id, ipi_model_method(B, found - 1)))
            return IPROF_ENOMEM;
    }
    for (size_t i = 0; i < B->method_count; i++) {
        if (w->bmatched[i])
            d->common_methods[1]++;
        else if (push_only(w, 1, ipi_model_method(B, i), &only_cap[1]))
            return IPROF_ENOMEM;
    }
    return IPROF_OK;
}

/* The position + 1 in B's entries of kind k of the entry matching A's
 * entry e, or 0. */
static size_t match_entry(diff_work *w, int k, const iprof_entry *e)
{
    const iprof_model *A = w->d->m[0], *B = w->d->m[1];
    size_t i = 0;
    for (const iprof_context *c = e->ctx; c; c = c->parent, i += 2) {
        int64_t id = c->method;
        /* A monitor ctx is the dummy "0:0": method 0 there is no method,
         * even in a model whose method 0 exists. */
        if (k != IPROF_KIND_MONITOR && ipi_model_method_by_id(A, id)) {
            const iprof_method *y = ipi_idmap_get(&w->a2b, id);
            if (!y)
                return 0;
            id = y->id;
        }
        w->frames[i] = id;
        w->frames[i + 1] = ipi_ctx_bci(c);
    }
    const iprof_context *bctx = ipi_context_lookup(B, w->frames, e->ctx->depth);
    return bctx ? ipi_find_entry_pos(B, k, bctx) : 0;
}

/* Whether change x ranks before change y. */
static int ranks_before(const diff_change *x, const diff_change *y)
{
    double ax = fabs(x->delta), ay = fabs(y->delta);
    if (ax != ay)
        return ax > ay;
    return x->order < y->order;
}

/* Offer a candidate to the kept changes of kind dk: a binary heap whose
 * root is the worst kept change while collecting (sorted at the end). */
static void offer(diff_work *w, diff_kind *dk, const diff_change *c)
{
    if (c->delta == 0 || w->top == 0)
        return;
    diff_change *h = dk->changes;
    size_t n = dk->change_count;
    if (n == w->top) {
        if (!ranks_before(c, &h[0]))
            return;
        /* Replace the root and sift down. */
        size_t i = 0;
        for (;;) {
            size_t l = 2 * i + 1, r = l + 1, worst = i;
            const diff_change *cur = worst == i ? c : &h[worst];
            if (l < n && ranks_before(cur, &h[l]))
                worst = l, cur = &h[l];
            if (r < n && ranks_before(cur, &h[r]))
                worst = r;
            if (worst == i)
                break;
            h[i] = h[worst];
            i = worst;
        }
        h[i] = *c;
        return;
    }
    size_t i = n;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!ranks_before(&h[p], c))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = *c;
    dk->change_count = n + 1;
}

static double share_of(uint64_t count, uint64_t total)
{
    return total ? (double)count / (double)total : 0.0;
}

/* Add a context of the union to its kind's staleness: weight m(e) = the
 * mean of its two count shares, distance d(e) as diff.h defines it, with
 * ea and eb the first entries of the context on each side (NULL where a
 * side lacks it). For count kinds m(e) d(e) = |share A - share B| / 2,
 * added as that (exact: 0 for equal shares). */
static int add_staleness(diff_work *w, int k, const iprof_entry *ea, const iprof_entry *eb,
                         double wa, double wb)
{
    diff_kind *dk = &w->d->kinds[k];
    double m = (wa + wb) / 2;
    if (m == 0)
        return IPROF_OK;
    double md = m;
    if (!ipi_stale_has_outcomes(k)) {
        md = fabs(wa - wb) / 2;
    } else if (ea && eb && wa > 0 && wb > 0) {
        double d;
        if (ipi_stale_distance(&w->stale, ea, eb, &d))
            return IPROF_ENOMEM;
        md = m * d;
    }
    dk->stale_sum += md;
    dk->stale_weight += m;
    return IPROF_OK;
}

/* group[p] = the summed counts of the entries of kind k of m whose
 * context is that of entry p, the first of them (0 at the others). */
static void group_counts(const iprof_model *m, int k, uint64_t *group)
{
    const ipi_entry_list *l = &m->entries[k];
    if (l->count)
        memset(group, 0, l->count * sizeof *group);
    for (size_t i = 0; i < l->count; i++) {
        size_t first = ipi_find_entry_pos(m, k, l->items[i].ctx) - 1;
        group[first] = add_sat(group[first], count_of(&l->items[i]));
    }
}

/* The staleness of kind k, by context: entries of one side with one
 * context count as one (GraalVM 25 writes some sampling contexts twice),
 * their counts added. */
static int kind_staleness(diff_work *w, int k)
{
    const iprof_model *A = w->d->m[0], *B = w->d->m[1];
    const ipi_entry_list *la = &A->entries[k], *lb = &B->entries[k];
    const diff_kind *dk = &w->d->kinds[k];
    size_t need = la->count > lb->count ? la->count : lb->count;
    if (ipi_grow_array(w->a, &w->group[0], &w->group_cap[0], need, sizeof(uint64_t)) ||
        ipi_grow_array(w->a, &w->group[1], &w->group_cap[1], need, sizeof(uint64_t)))
        return IPROF_ENOMEM;
    group_counts(A, k, w->group[0]);
    group_counts(B, k, w->group[1]);
    if (lb->count)
        memset(w->seen, 0, lb->count); /* sized by compare_kind */
    for (size_t i = 0; i < la->count; i++) {
        const iprof_entry *e = &la->items[i];
        if (ipi_find_entry_pos(A, k, e->ctx) != i + 1)
            continue; /* counted with the first of its context */
        size_t bpos = w->match[i]; /* matched by compare_kind */
        const iprof_entry *eb = bpos ? &lb->items[bpos - 1] : NULL;
        uint64_t cb = bpos ? w->group[1][bpos - 1] : 0;
        if (bpos)
            w->seen[bpos - 1] = 1;
        if (add_staleness(w, k, e, eb, share_of(w->group[0][i], dk->total[0]),
                          share_of(cb, dk->total[1])))
            return IPROF_ENOMEM;
    }
    for (size_t i = 0; i < lb->count; i++) {
        if (!w->seen[i] && w->group[1][i] &&
            add_staleness(w, k, NULL, &lb->items[i], 0, share_of(w->group[1][i], dk->total[1])))
            return IPROF_ENOMEM;
    }
    return IPROF_OK;
}

static int compare_kind(diff_work *w, int k)
{
    iprof_diff *d = w->d;
    diff_kind *dk = &d->kinds[k];
    const ipi_entry_list *la = &d->m[0]->entries[k], *lb = &d->m[1]->entries[k];

    if (lb->count > w->seen_size) {
        ipi_free(w->a, w->seen, w->seen_size);
        w->seen_size = 0;
        w->seen = ipi_malloc(w->a, lb->count);
        if (!w->seen)
            return IPROF_ENOMEM;
        w->seen_size = lb->count;
    }
    if (lb->count)
        memset(w->seen, 0, lb->count);
    size_t keep = w->top < la->count + lb->count ? w->top : la->count + lb->count;
    if (keep) {
        dk->changes = ipi_malloc(w->a, keep * sizeof *dk->changes);
        if (!dk->changes)
            return IPROF_ENOMEM;
        dk->change_cap = keep;
    }

    /* Pass 1: the totals, which the shares need. */
    for (size_t i = 0; i < la->count; i++)
        dk->total[0] = add_sat(dk->total[0], count_of(&la->items[i]));
    for (size_t i = 0; i < lb->count; i++)
        dk->total[1] = add_sat(dk->total[1], count_of(&lb->items[i]));

    /* Pass 2: A's entries against B, each match kept for the staleness. */
    if (ipi_grow_array(w->a, &w->match, &w->match_cap, la->count, sizeof *w->match))
        return IPROF_ENOMEM;
    for (size_t i = 0; i < la->count; i++) {
        const iprof_entry *e = &la->items[i];
        if (2 * (size_t)e->ctx->depth > w->frames_cap) {
            void *p = w->frames;
            int rc = ipi_grow(w->a, &p, &w->frames_cap, 2 * (size_t)e->ctx->depth,
                              sizeof *w->frames);
            w->frames = p;
            if (rc)
                return rc;
        }
        size_t bpos = w->match[i] = match_entry(w, k, e);
        diff_change c;
        memset(&c, 0, sizeof c);
        c.e[0] = e;
        c.count[0] = count_of(e);
        c.order = i;
        if (bpos && !w->seen[bpos - 1]) {
            w->seen[bpos - 1] = 1;
            c.e[1] = &lb->items[bpos - 1];
            c.count[1] = count_of(c.e[1]);
            dk->common[0]++;
            dk->common_total[0] = add_sat(dk->common_total[0], c.count[0]);
        } else { /* no match, or a second A entry with that context: unmatched,
                  * as a second B entry is (diff.h) */
            dk->only[0]++;
        }
        c.share[0] = share_of(c.count[0], dk->total[0]);
        c.share[1] = share_of(c.count[1], dk->total[1]);
        c.delta = c.share[1] - c.share[0];
        offer(w, dk, &c);
    }
    /* Pass 3: B's entries A lacks. */
    for (size_t i = 0; i < lb->count; i++) {
        uint64_t cnt = count_of(&lb->items[i]);
        if (w->seen[i]) {
            dk->common[1]++;
            dk->common_total[1] = add_sat(dk->common_total[1], cnt);
            continue;
        }
        dk->only[1]++;
        diff_change c;
        memset(&c, 0, sizeof c);
        c.e[1] = &lb->items[i];
        c.count[1] = cnt;
        c.order = la->count + i;
        c.share[1] = share_of(cnt, dk->total[1]);
        c.delta = c.share[1];
        offer(w, dk, &c);
    }
    int rc = kind_staleness(w, k);
    if (rc)
        return rc;
    /* Heap to ranking: repeatedly move the worst to the end. */
    for (size_t n = dk->change_count; n > 1; n--) {
        diff_change *h = dk->changes, worst = h[0], last = h[n - 1];
        size_t i = 0, m = n - 1;
        for (;;) {
            size_t l = 2 * i + 1, r = l + 1, c = i;
            const diff_change *cur = &last;
            if (l < m && ranks_before(cur, &h[l]))
                c = l, cur = &h[l];
            if (r < m && ranks_before(cur, &h[r]))
                c = r;
            if (c == i)
                break;
            h[i] = h[c];
            i = c;
        }
        h[i] = last;
        h[n - 1] = worst;
    }
    return IPROF_OK;
}

/* ---- public ------------------------------------------------------------- */

IPROF_API int iprof_diff_options_init(iprof_diff_options *opts, unsigned int version)
{
    if (!opts || version == 0 || version > IPROF_DIFF_OPTIONS_VERSION)
        return IPROF_EINVAL;
    iprof_diff_options def = IPROF_DIFF_OPTIONS_INIT;
    *opts = def;
    return IPROF_OK;
}

IPROF_API void iprof_diff_free(iprof_diff *d)
{
    if (!d)
        return;
    iprof_allocator a = d->alloc;
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        ipi_free(&a, d->kinds[k].changes, d->kinds[k].change_cap * sizeof(diff_change));
    for (int s = 0; s < 2; s++)
        ipi_free(&a, d->only_methods[s], d->only_method_count[s] * sizeof(const iprof_method *));
    ipi_free(&a, d, sizeof *d);
}

/* Shrink the only-method arrays to their counts, so that free knows their
 * sizes without keeping the capacities. */
static int trim_only(iprof_diff *d, size_t cap[2])
{
    for (int s = 0; s < 2; s++) {
        size_t n = d->only_method_count[s];
        if (cap[s] == n)
            continue;
        if (n == 0) {
            ipi_free(&d->alloc, d->only_methods[s], cap[s] * sizeof(const iprof_method *));
            d->only_methods[s] = NULL;
            cap[s] = 0;
            continue;
        }
        void *p = ipi_realloc(&d->alloc, (void *)d->only_methods[s],
                              cap[s] * sizeof(const iprof_method *),
                              n * sizeof(const iprof_method *));
        if (!p)
            return IPROF_ENOMEM;
        d->only_methods[s] = p;
        cap[s] = n;
    }
    return IPROF_OK;
}

IPROF_API int iprof_diff_new(iprof_diff **out, const iprof_model *a, const iprof_model *b,
                   const iprof_diff_options *opts)
{
    if (out)
        *out = NULL;
    if (!out || !a || !b)
        return IPROF_EINVAL;
    iprof_diff_options o = IPROF_DIFF_OPTIONS_INIT;
    if (opts) {
        if (opts->version == 0 || opts->version > IPROF_DIFF_OPTIONS_VERSION || opts->flags != 0)
            return IPROF_EINVAL;
        o = *opts;
    }
    iprof_allocator alloc;
    if (o.allocator)
        ipi_allocator_init(&alloc, o.allocator);
    else
        alloc = a->alloc;
    iprof_diff *d = ipi_malloc(&alloc, sizeof *d);
    if (!d)
        return IPROF_ENOMEM;
    memset(d, 0, sizeof *d);
    d->alloc = alloc;
    d->m[0] = a;
    d->m[1] = b;

    diff_work w;
    memset(&w, 0, sizeof w);
    w.d = d;
    w.a = &d->alloc;
    w.top = o.top ? o.top : IPROF_DIFF_DEFAULT_TOP;
    ipi_rtab_init(&w.bkeys);
    ipi_idmap_init(&w.a2b);
    ipi_stale_init(&w.stale, w.a, a, b);
    size_t only_cap[2] = {0, 0};
    int rc = match_methods(&w, only_cap);
    if (rc == IPROF_OK)
        rc = trim_only(d, only_cap);
    for (int k = 0; k < IPROF_KIND_COUNT && rc == IPROF_OK; k++)
        rc = compare_kind(&w, k);
    work_free(&w, b->method_count);
    if (rc != IPROF_OK) {
        /* only_methods may still have their grown capacities. */
        for (int s = 0; s < 2; s++) {
            ipi_free(w.a, d->only_methods[s], only_cap[s] * sizeof(const iprof_method *));
            d->only_methods[s] = NULL;
            d->only_method_count[s] = 0;
        }
        iprof_diff_free(d);
        return rc;
    }
    *out = d;
    return IPROF_OK;
}

static int bad_side(int side)
{
    return side != IPROF_DIFF_A && side != IPROF_DIFF_B;
}

static int bad_kind(int kind)
{
    return kind < 0 || kind >= IPROF_KIND_COUNT;
}

IPROF_API const iprof_method *iprof_diff_method_only_at(const iprof_diff *d, int side, size_t index)
{
    if (!d || bad_side(side) || index >= d->only_method_count[side])
        return NULL;
    return d->only_methods[side][index];
}

/* The computed values of the struct fillers (iprof_diff_get_*). */
static double overlap_of(const diff_kind *dk, int side)
{
    if (dk->total[side] == 0)
        return -1.0;
    return (double)dk->common_total[side] / (double)dk->total[side];
}

static double relative_of(const diff_change *c)
{
    if (c->share[0] == 0)
        return c->share[1] == 0 ? 0.0 : INFINITY;
    return c->delta / c->share[0];
}

static double staleness_of_kind(const diff_kind *dk)
{
    return dk->stale_weight == 0 ? -1.0 : fmin(1.0, dk->stale_sum / dk->stale_weight);
}

static double staleness_of(const iprof_diff *d)
{
    double sum = 0;
    int kinds = 0;
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        double s = staleness_of_kind(&d->kinds[k]);
        if (s >= 0) {
            sum += s;
            kinds++;
        }
    }
    return kinds ? sum / kinds : 0.0;
}

static const diff_change *change_at(const iprof_diff *d, int kind, size_t index)
{
    if (!d || bad_kind(kind) || index >= d->kinds[kind].change_count)
        return NULL;
    return &d->kinds[kind].changes[index];
}

/* ---- the results in three calls ----------------------------------------- */

/* Each fills a local copy and assigns it at the end, so that out is
 * unchanged on every failure. */

IPROF_API int iprof_diff_get_summary(const iprof_diff *d, iprof_diff_summary *out)
{
    if (!d || !out || out->version != IPROF_DIFF_SUMMARY_VERSION)
        return IPROF_EINVAL;
    iprof_diff_summary s = IPROF_DIFF_SUMMARY_INIT;
    for (int side = 0; side < 2; side++) {
        s.method_only_count[side] = d->only_method_count[side];
        s.method_common_count[side] = d->common_methods[side];
    }
    s.staleness = staleness_of(d);
    *out = s;
    return IPROF_OK;
}

IPROF_API int iprof_diff_get_kind(const iprof_diff *d, int kind, iprof_diff_kind_summary *out)
{
    if (!d || !out || bad_kind(kind) || out->version != IPROF_DIFF_KIND_SUMMARY_VERSION)
        return IPROF_EINVAL;
    const diff_kind *dk = &d->kinds[kind];
    iprof_diff_kind_summary s = IPROF_DIFF_KIND_SUMMARY_INIT;
    for (int side = 0; side < 2; side++) {
        s.context_only_count[side] = dk->only[side];
        s.context_common_count[side] = dk->common[side];
        s.total[side] = dk->total[side];
        s.common_total[side] = dk->common_total[side];
        s.overlap[side] = overlap_of(dk, side);
    }
    s.staleness = staleness_of_kind(dk);
    s.change_count = dk->change_count;
    *out = s;
    return IPROF_OK;
}

IPROF_API int iprof_diff_get_change(const iprof_diff *d, int kind, size_t index,
                                    iprof_diff_change *out)
{
    if (!d || !out || bad_kind(kind) || out->version != IPROF_DIFF_CHANGE_VERSION)
        return IPROF_EINVAL;
    const diff_change *c = change_at(d, kind, index);
    if (!c)
        return IPROF_ENOTFOUND;
    iprof_diff_change s = IPROF_DIFF_CHANGE_INIT;
    for (int side = 0; side < 2; side++) {
        s.entry[side] = c->e[side];
        s.value[side] = c->count[side];
        s.share[side] = c->share[side];
    }
    s.delta = c->delta;
    s.relative = relative_of(c);
    *out = s;
    return IPROF_OK;
}
