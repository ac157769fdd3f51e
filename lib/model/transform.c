/*
 * Whole-model transformations (iprof/transform.h): the canonical form and
 * filtering.
 *
 * Canonicalize checks everything that could fail for a reason other than
 * memory first, then builds the canonical model as a new model (types,
 * methods and entries added in canonical order through the public
 * mutation calls, which combine duplicate entries), sorts and combines the
 * records of each entry, and finally swaps the contents of the two models,
 * so the caller's handle holds the result and any failure leaves it as it
 * was. Filtering uses the retain code (ipi_model_retain_*): one O(n) pass
 * per step.
 */
#include <iprof/edit.h>
#include <iprof/transform.h>
#include <iprof/analysis.h>

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "canon.h"
#include "model.h"
#include "rules.h"

/* ---- canonical form ----------------------------------------------------- */

/* Build n from the canonical order of c's model: what the order yields is
 * already distinct and combined, so it is appended as it comes. */
static int build(ipi_canon *c, iprof_model *n)
{
    for (size_t i = 0; i < c->type_count; i++) {
        const iprof_type *t = c->types[i];
        int rc = ipi_model_push_type(n, (int64_t)i, t->name->s, t->name->len, NULL);
        if (rc)
            return rc;
    }
    for (size_t i = 0; i < c->method_count; i++) {
        const iprof_method *x = ipi_canon_method(c, i);
        const int64_t *sig = ipi_canon_sig(c, i);
        int rc = sig ? ipi_model_push_method(n, (int64_t)i + 1, x->name->s, x->name->len, sig,
                                             x->sig_len, NULL)
                     : IPROF_ENOMEM;
        if (rc)
            return rc;
    }
    ipi_canon_methods_done(c);
    for (int kind = 0; kind < IPROF_KIND_COUNT; kind++) {
        int rc = ipi_canon_kind(c, kind);
        ipi_canon_entry e;
        while (!rc && (rc = ipi_canon_next(c, &e)) == 1)
            rc = ipi_model_push_entry_hashed(n, kind, e.frames, e.depth, NULL, e.records,
                                             e.record_count);
        if (rc)
            return rc;
    }
    return IPROF_OK;
}

/* Exchange the contents of two models with the same allocator, fixing the
 * pointers that each model's parts keep to its own allocator and arena. */
static void swap_contents(iprof_model *a, iprof_model *b)
{
    iprof_model t;
    memcpy(&t, a, sizeof t);
    memcpy(a, b, sizeof t);
    memcpy(b, &t, sizeof t);
    iprof_model *ms[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        iprof_model *m = ms[i];
        m->arena.alloc = &m->alloc;
        m->names.pool.alloc = &m->alloc;
        m->method_pool.alloc = &m->alloc;
        ipi_errbuf_clear(&m->error); /* its pointers point into the other model */
    }
}

/* The canonical place of unknown keys: all at the end, sorted by key, one
 * per key (the check made sure repeated keys hold equal values). */
static int cmp_unknown(const void *pa, const void *pb)
{
    const ipi_unknown *a = pa, *b = pb;
    size_t n = a->key_len < b->key_len ? a->key_len : b->key_len;
    int c = memcmp(a->key, b->key, n);
    return c ? c : (a->key_len > b->key_len) - (a->key_len < b->key_len);
}

static void canon_unknown(iprof_model *m)
{
    ipi_layout_extras *x = &m->extras;
    if (x->count > 1)
        qsort(x->items, x->count, sizeof *x->items, cmp_unknown);
    size_t kept = 0;
    for (size_t i = 0; i < x->count; i++) {
        if (kept && cmp_unknown(&x->items[kept - 1], &x->items[i]) == 0) {
            ipi_free(&m->alloc, (void *)x->items[i].key, x->items[i].size);
            continue;
        }
        x->items[kept] = x->items[i];
        x->items[kept++].after = IPI_AFTER_END;
    }
    x->count = kept;
}

IPROF_API int iprof_model_canonicalize(iprof_model *model, unsigned int flags)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    if (flags & ~(unsigned)IPROF_CANONICAL_DROP_UNKNOWN)
        return ipi_model_fail(model, IPROF_EINVAL, "unknown canonical flags 0x%x",
                              flags & ~(unsigned)IPROF_CANONICAL_DROP_UNKNOWN);
    int drop = (flags & IPROF_CANONICAL_DROP_UNKNOWN) != 0;
    int rc = drop ? IPROF_OK : ipi_unknown_check_combine(model, NULL);
    if (rc)
        return rc;
    rc = ipi_canon_check(model, model, 0);
    if (rc)
        return rc;
    iprof_model *n = NULL;
    if ((rc = iprof_model_new(&n, &model->alloc)))
        return ipi_model_fail(model, rc, "out of memory");
    ipi_canon c;
    rc = ipi_canon_start(&c, model, 0);
    if (!rc && (rc = iprof_model_set_version(n, model->version)) == IPROF_EVERSION)
        /* a version only a lenient read accepts: keep it */
        rc = ipi_model_store_version(n, model->version, strlen(model->version));
    if (!rc)
        rc = build(&c, n);
    ipi_canon_free(&c);
    if (rc != IPROF_OK)
        ipi_model_fail(model, IPROF_ENOMEM, "out of memory");
    if (rc == IPROF_OK) {
        int version_set = model->version_set, unchecked = !model->refs_checked;
        swap_contents(model, n);
        model->version_set = version_set;
        if (unchecked) /* short signatures are kept as they are */
            ipi_model_changed(model, IPI_CHANGED_UNCHECKED, -1);
        /* What the file held beyond the profile stays with the model. */
        ipi_layout_extras extras = model->extras;
        model->extras = n->extras;
        n->extras = extras;
        if (drop)
            ipi_unknown_free_all(model);
        canon_unknown(model);
    }
    iprof_model_free(n);
    /* Checked above: only memory can fail the build. */
    return rc == IPROF_OK || rc == IPROF_ENOMEM ? rc : IPROF_ENOMEM;
}

/* ---- filtering ---------------------------------------------------------- */

/* The bytes of a caller's iprof_filter_options of a version (1.x has
 * version 1; members appended later make version 2, whose callers' structs
 * this one must not read past), 0 for an unknown version. */
static size_t options_size(unsigned int version)
{
    return version == 1 ? sizeof(iprof_filter_options) : 0;
}

IPROF_API int iprof_filter_options_init(iprof_filter_options *opts, unsigned int version)
{
    size_t size = options_size(version);
    if (!opts || !size)
        return IPROF_EINVAL;
    memset(opts, 0, size);
    opts->version = version;
    return IPROF_OK;
}

static int keep_none(const iprof_entry *e, void *payload)
{
    (void)e, (void)payload;
    return 0;
}

typedef struct filter_state {
    const iprof_model *m;
    const iprof_filter_options *o;
    int64_t threshold; /* top percent: the kind's t */
    int keep_all, keep_nothing;
    int by_package; /* keep or drop packages given */
    const ipi_idmap *used; /* dropping packages: the types still named */
} filter_state;

/* The length of package p without a trailing '.'; whether it matches the
 * type name s[0..len). */
static int package_match(const char *p, const char *name, size_t name_len, size_t *plen)
{
    size_t n = strlen(p);
    if (n && p[n - 1] == '.')
        n--;
    *plen = n;
    if (n == 0)
        return 1;
    if (name_len < n || memcmp(name, p, n) != 0)
        return 0;
    return name_len == n || name[n] == '.';
}

IPROF_API int iprof_package_matches(const char *package, const char *type_name,
                                    size_t type_name_len)
{
    size_t plen;
    return package && (type_name || !type_name_len) &&
           package_match(package, type_name ? type_name : "", type_name_len, &plen);
}

/* What the packages say of a type: 1 keep, 0 drop, -1 nothing (the
 * longest matching package decides; drop on a tie). */
static int package_decision(const iprof_filter_options *o, const ipi_str *name)
{
    int best = -1;
    size_t best_len = 0, plen;
    for (size_t i = 0; i < o->keep_package_count; i++)
        if (package_match(o->keep_packages[i], name->s, name->len, &plen) &&
            (best < 0 || plen > best_len)) {
            best = 1;
            best_len = plen;
        }
    for (size_t i = 0; i < o->drop_package_count; i++)
        if (package_match(o->drop_packages[i], name->s, name->len, &plen) &&
            (best < 0 || plen >= best_len)) {
            best = 0;
            best_len = plen;
        }
    return best;
}

/* The decision for a method's declaring type; UNJUDGED when the method
 * or its type is unknown. */
#define UNJUDGED (-2)
static int method_decision(const filter_state *st, int64_t id)
{
    const iprof_method *x = ipi_model_method_by_id(st->m, id);
    const iprof_type *t = x && x->sig_len ? ipi_model_type_by_id(st->m, x->sig[0]) : NULL;
    return t ? package_decision(st->o, t->name) : UNJUDGED;
}

/* Dropped when any frame's method is in a dropped package (gone from the
 * file means gone from every context); with keep packages, also when the
 * callee is not in one (callers elsewhere stay: they are the context). */
static int keep_by_package(const iprof_entry *e, void *payload)
{
    const filter_state *st = payload;
    if (e->kind == IPROF_KIND_MONITOR)
        return 1;
    for (const iprof_context *c = e->ctx; c; c = c->parent)
        if (method_decision(st, c->method) == 0)
            return 0;
    if (st->o->keep_package_count == 0)
        return 1;
    int callee = method_decision(st, e->ctx->method);
    return callee == 1 || callee == UNJUDGED;
}

static int keep_undropped_method(const iprof_method *x, void *payload)
{
    const filter_state *st = payload;
    return method_decision(st, x->id) != 0;
}

static int keep_min_count(const iprof_entry *e, void *payload)
{
    const filter_state *st = payload;
    return iprof_entry_total(e) >= st->o->min_count;
}

static int keep_top(const iprof_entry *e, void *payload)
{
    const filter_state *st = payload;
    if (st->keep_nothing)
        return 0;
    return iprof_entry_total(e) >= st->threshold;
}

/* Counts from the largest down. */
static int cmp_desc(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return (a < b) - (a > b);
}

/* Whether an entry passes the filters that come before the top percent
 * (the predicates, packages, minimum count). */
static int before_top(const iprof_entry *e, filter_state *st)
{
    const iprof_filter_options *o = st->o;
    return (!o->keep_frame || ipi_entry_frames_pass(e, o->keep_frame, o->payload)) &&
           (!o->keep_entry || o->keep_entry(e, o->payload)) &&
           (!st->by_package || keep_by_package(e, st)) &&
           (o->min_count <= 0 || keep_min_count(e, st));
}

/* The top percent's threshold of a kind into st, over its entries (or,
 * with `ahead`, over those that will pass the filters before it). */
static int top_threshold(iprof_model *m, filter_state *st, int kind, int ahead)
{
    const ipi_entry_list *l = &m->entries[kind];
    int64_t *tot = ipi_malloc(&m->alloc, (l->count ? l->count : 1) * sizeof *tot);
    if (!tot)
        return IPROF_ENOMEM;
    long double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < l->count; i++) {
        if (ahead && !before_top(&l->items[i], st))
            continue;
        tot[n] = iprof_entry_total(&l->items[i]);
        if (tot[n] > 0)
            sum += (long double)tot[n];
        n++;
    }
    qsort(tot, n, sizeof *tot, cmp_desc);
    long double pct = st->o->top_percent >= 100 ? 100.0L : (long double)st->o->top_percent;
    long double target = sum * pct / 100.0L, run = 0;
    st->keep_nothing = sum == 0;
    st->threshold = INT64_MAX;
    for (size_t i = 0; i < n && !st->keep_nothing && tot[i] > 0; i++) {
        run += (long double)tot[i];
        st->threshold = tot[i];
        if (run >= target)
            break;
    }
    ipi_free(&m->alloc, tot, (l->count ? l->count : 1) * sizeof *tot);
    return IPROF_OK;
}

static int filter_top(iprof_model *m, filter_state *st, int kind)
{
    if (!m->entries[kind].count)
        return IPROF_OK;
    int rc = top_threshold(m, st, kind, 0);
    return rc ? rc : ipi_model_retain_entries(m, kind, keep_top, st);
}

static int keep_marked_method(const iprof_method *x, void *payload)
{
    return ipi_idmap_get(payload, x->id) != NULL;
}

static int keep_marked_type(const iprof_type *t, void *payload)
{
    return ipi_idmap_get(payload, t->id) != NULL;
}

/* Mark in `used` the types that the methods' signatures and the entries'
 * records (virtual invoke, monitor, instanceof type ids) mention. */
static int mark_used_types(const iprof_model *m, ipi_idmap *used)
{
    int rc = IPROF_OK;
    for (size_t i = 0; i < m->method_count && !rc; i++) {
        const iprof_method *x = ipi_model_method(m, i);
        for (size_t k = 0; k < x->sig_len && !rc; k++)
            rc = ipi_idmap_put(used, &m->alloc, x->sig[k], (void *)1);
    }
    for (int kind = 0; kind < IPROF_KIND_COUNT && !rc; kind++) {
        const ipi_kind_layout *L = ipi_kind_layout_of(kind);
        const ipi_entry_list *l = &m->entries[kind];
        if (L->type_slot < 0)
            continue;
        for (size_t i = 0; i < l->count && !rc; i++) {
            const iprof_entry *e = &l->items[i];
            for (size_t k = (size_t)L->type_slot; k < e->record_count && !rc;
                 k += (size_t)L->group)
                rc = ipi_idmap_put(used, &m->alloc, e->records[k], (void *)1);
        }
    }
    return rc;
}

/* Remove the methods no entry mentions, then the types nothing mentions:
 * nothing refers to what goes, so what was checked stays so. */
static int prune_unreferenced(iprof_model *m, unsigned what)
{
    for (size_t i = 0; i < m->extras.count; i++)
        if (!ipi_unknown_is_plain(&m->extras.items[i]))
            return IPROF_OK; /* it may name what would go: keep everything */
    ipi_idmap used;
    ipi_idmap_init(&used);
    int rc = IPROF_OK;
    for (int kind = 0; kind < IPROF_KIND_COUNT && !rc && (what & IPROF_PRUNE_METHODS); kind++) {
        if (kind == IPROF_KIND_MONITOR)
            continue; /* its "0:0" names no method */
        const ipi_entry_list *l = &m->entries[kind];
        for (size_t i = 0; i < l->count && !rc; i++)
            for (const iprof_context *x = l->items[i].ctx; x && !rc; x = x->parent)
                rc = ipi_idmap_put(&used, &m->alloc, x->method, (void *)1);
    }
    if (!rc && (what & IPROF_PRUNE_METHODS))
        rc = ipi_model_retain_methods(m, keep_marked_method, &used, 0);
    ipi_idmap_clear(&used);
    if (!rc && (what & IPROF_PRUNE_TYPES))
        rc = mark_used_types(m, &used);
    if (!rc && (what & IPROF_PRUNE_TYPES))
        rc = ipi_model_retain_types(m, keep_marked_type, &used, 0);
    ipi_idmap_free(&used, &m->alloc);
    return rc;
}

static int keep_undropped_or_used_type(const iprof_type *t, void *payload)
{
    const filter_state *st = payload;
    return package_decision(st->o, t->name) != 0 || ipi_idmap_get(st->used, t->id) != NULL;
}

/* Take the dropped packages out: their methods (the entries naming them
 * are gone), then their types that no remaining method's signature and no
 * remaining record names (others stay: they would dangle). What the
 * options do not name stays, referenced or not: that is pruning's job.
 * Done even when an unknown key holds ids, as asked; nothing left refers
 * to what goes, so what was checked stays so. */
static int drop_packages(iprof_model *m, filter_state *st)
{
    ipi_idmap used;
    ipi_idmap_init(&used);
    st->used = &used;
    int rc = ipi_model_retain_methods(m, keep_undropped_method, st, 0);
    if (!rc)
        rc = mark_used_types(m, &used);
    if (!rc)
        rc = ipi_model_retain_types(m, keep_undropped_or_used_type, st, 0);
    ipi_idmap_free(&used, &m->alloc);
    st->used = NULL;
    return rc;
}

/* The options' fault in m's error, or IPROF_OK. */
static int check_options(iprof_model *m, const iprof_filter_options *o)
{
    if ((o->keep_package_count && !o->keep_packages) ||
        (o->drop_package_count && !o->drop_packages))
        return ipi_model_fail(m, IPROF_EINVAL, "filter options: a package list is NULL");
    for (size_t i = 0; i < o->keep_package_count; i++)
        if (!o->keep_packages[i])
            return ipi_model_fail(m, IPROF_EINVAL, "filter options: keep_packages[%zu] is NULL", i);
    for (size_t i = 0; i < o->drop_package_count; i++)
        if (!o->drop_packages[i])
            return ipi_model_fail(m, IPROF_EINVAL, "filter options: drop_packages[%zu] is NULL", i);
    if (o->kinds >> IPROF_KIND_COUNT)
        return ipi_model_fail(m, IPROF_EINVAL, "filter options: kinds 0x%x has bits of no kind",
                              o->kinds);
    if (isnan(o->top_percent) || o->top_percent < 0)
        return ipi_model_fail(m, IPROF_EINVAL, "filter options: top_percent must be >= 0");
    return IPROF_OK;
}

/* ---- cutting contexts --------------------------------------------------- */

static int no_journal(void *payload, int kind, size_t pos)
{
    (void)payload, (void)kind, (void)pos;
    return IPROF_OK;
}

/* Cut the contexts of a kind's entries to their innermost `depth` frames,
 * combining the entries that then coincide: the entries are moved out and
 * added back, each at its cut context. All or nothing: out of memory, the
 * kind gets its old entries back (their records are in the arena, which
 * adding the new ones left alone). */
static int needs_cut(const iprof_model *m, int kind, size_t depth)
{
    const ipi_entry_list *l = &m->entries[kind];
    for (size_t i = 0; i < l->count; i++)
        if (l->items[i].ctx->depth > depth)
            return 1;
    return 0;
}

/* A kind that will be cut must have whole groups in every entry to combine
 * them (a lenient load may keep others). Checked before the filter changes
 * anything, over the entries the filters before the cut will keep. */
static int check_cuts(iprof_model *m, filter_state *st, size_t depth)
{
    unsigned kinds = st->o->kinds;
    for (int kind = 0; depth && kind < IPROF_KIND_COUNT; kind++) {
        size_t g = (size_t)ipi_kind_layout_of(kind)->group;
        const ipi_entry_list *l = &m->entries[kind];
        size_t i = 0;
        while (i < l->count && l->items[i].record_count % g == 0)
            i++;
        if (i == l->count || (kinds && !(kinds & IPROF_KIND_BIT(kind))))
            continue; /* the usual case: nothing to refuse */
        int rc = st->o->top_percent > 0 ? top_threshold(m, st, kind, 1) : IPROF_OK;
        if (rc)
            return rc;
        const iprof_entry *bad = NULL;
        size_t deepest = 0;
        for (i = 0; i < l->count; i++) {
            const iprof_entry *e = &l->items[i];
            if (!before_top(e, st) || (st->o->top_percent > 0 && !keep_top(e, st)))
                continue;
            deepest = e->ctx->depth > deepest ? e->ctx->depth : deepest;
            bad = bad || e->record_count % g == 0 ? bad : e;
        }
        if (bad && deepest > depth)
            return ipi_entry_fail_rule(m, bad, g == 3 ? IPI_RULE_RECORDS_TRIPLES
                                                      : IPI_RULE_RECORDS_PAIRS, 1);
    }
    return IPROF_OK;
}

static int cut_kind(iprof_model *m, int kind, size_t depth)
{
    ipi_entry_list old = m->entries[kind];
    if (!needs_cut(m, kind, depth))
        return IPROF_OK;
    int64_t *frames = ipi_malloc(&m->alloc, 2 * depth * sizeof *frames);
    if (!frames)
        return IPROF_ENOMEM;
    memset(&m->entries[kind], 0, sizeof m->entries[kind]);
    ipi_model_changed(m, IPI_CHANGED_ENTRIES_REMOVED, kind);
    int rc = ipi_index_get(m, IPI_IX_ENTRIES + kind) ? IPROF_OK : IPROF_ENOMEM;
    for (size_t i = 0; !rc && i < old.count; i++) {
        const iprof_entry *e = &old.items[i];
        size_t d = 0;
        for (const iprof_context *x = e->ctx; x && d < depth; x = x->parent, d++) {
            frames[2 * d] = x->method;
            frames[2 * d + 1] = ipi_ctx_bci(x);
        }
        const iprof_context *ctx = e->ctx;
        if (e->ctx->depth > depth)
            rc = ipi_context_intern(m, frames, d, &ctx);
        if (!rc)
            rc = ipi_entry_merge_at(m, kind, ctx, e->records, e->record_count, no_journal, NULL);
    }
    ipi_free(&m->alloc, frames, 2 * depth * sizeof *frames);
    ipi_entry_list done = rc ? m->entries[kind] : old; /* the list to free */
    if (rc) {
        m->entries[kind] = old;
        ipi_model_changed(m, IPI_CHANGED_ENTRIES_REMOVED, kind); /* it indexed the new list */
    }
    ipi_free(&m->alloc, done.items, done.cap * sizeof *done.items);
    return rc;
}

/* Steps 9 and 10: the predicates over methods and types. What names
 * what goes stays: unchecked. */
static int filter_methods_types(iprof_model *m, const iprof_filter_options *o)
{
    int rc = o->keep_method ? ipi_model_retain_methods(m, o->keep_method, o->payload,
                                                       IPI_CHANGED_UNCHECKED)
                            : IPROF_OK;
    if (!rc && o->keep_type)
        rc = ipi_model_retain_types(m, o->keep_type, o->payload, IPI_CHANGED_UNCHECKED);
    return rc;
}

IPROF_API int iprof_model_filter(iprof_model *model, const iprof_filter_options *opts)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    /* The caller's struct as this version's, what its version lacks zero. */
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    size_t size = opts ? options_size(opts->version) : sizeof o;
    if (!size)
        return ipi_model_fail(model, IPROF_EINVAL, "filter options: unknown version %u",
                              opts->version);
    if (opts)
        memcpy(&o, opts, size);
    int by_package = o.keep_package_count || o.drop_package_count;
    filter_state st = {model, &o, 0, 0, 0, by_package, NULL};
    int rc = check_options(model, &o);
    if (!rc)
        rc = check_cuts(model, &st, o.max_depth);
    if (rc)
        return rc;
    for (int kind = 0; kind < IPROF_KIND_COUNT && !rc; kind++) {
        if (o.kinds && !(o.kinds & IPROF_KIND_BIT(kind))) {
            rc = ipi_model_retain_entries(model, kind, keep_none, NULL);
            continue;
        }
        if (o.keep_frame)
            rc = ipi_model_retain_entries_by_frame(model, kind, o.keep_frame, o.payload);
        if (!rc && o.keep_entry)
            rc = ipi_model_retain_entries(model, kind, o.keep_entry, o.payload);
        if (!rc && by_package)
            rc = ipi_model_retain_entries(model, kind, keep_by_package, &st);
        if (!rc && o.min_count > 0)
            rc = ipi_model_retain_entries(model, kind, keep_min_count, &st);
        if (!rc && o.top_percent > 0)
            rc = filter_top(model, &st, kind);
    }
    for (int kind = 0; o.max_depth && kind < IPROF_KIND_COUNT && !rc; kind++)
        rc = cut_kind(model, kind, o.max_depth);
    if (!rc && o.drop_package_count)
        rc = drop_packages(model, &st);
    return rc ? rc : filter_methods_types(model, &o);
}

IPROF_API int iprof_model_prune(iprof_model *model, unsigned int what)
{
    const unsigned all = IPROF_PRUNE_METHODS | IPROF_PRUNE_TYPES | IPROF_PRUNE_DANGLING;
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    if (what & ~all)
        return ipi_model_fail(model, IPROF_EINVAL, "unknown prune flags 0x%x", what & ~all);
    /* What dangles first: the methods only dangling entries named are
     * then unreferenced. */
    int rc = what & IPROF_PRUNE_DANGLING ? ipi_model_drop_dangling(model, NULL, NULL) : IPROF_OK;
    if (!rc && (what & (IPROF_PRUNE_METHODS | IPROF_PRUNE_TYPES)))
        rc = prune_unreferenced(model, what);
    return rc;
}
