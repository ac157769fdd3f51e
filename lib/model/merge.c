/*
 * Merging one model into another, as native-image-configure
 * merge-pgo-profiles does: types by name, methods by (declaring type name,
 * name, signature type names), entries remapped to dst ids and combined.
 *
 * What can be checked is checked before dst changes; from then on a
 * journal (journal.c) puts dst back on any failure, out of memory
 * included, so a merge either succeeds or leaves dst as it was.
 * Every step is a pass over src with hash lookups: linear in input size.
 */
#include <float.h>

#include "journal.h"
#include "merge.h"
#include "model.h"

#include "hash.h"
#include "rules.h"
#include "scale.h"
#include "version.h"

/* ---- state -------------------------------------------------------------- */

typedef struct merge_state {
    iprof_model *dst;
    const iprof_model *src;
    const iprof_allocator *a; /* dst's: the scratch belongs to this call */
    ipi_idmap tmap;           /* src type id -> dst type */
    ipi_idmap mmap;           /* src method id -> dst method */
    int64_t *buf;             /* frames or signature ids */
    size_t buf_cap;
    int64_t *recs;
    size_t recs_cap;
    const iprof_type **sig; /* dst types of a signature */
    size_t sig_cap;
    ipi_scaler sc;
} merge_state;

static void state_free(merge_state *s)
{
    ipi_idmap_free(&s->tmap, s->a);
    ipi_idmap_free(&s->mmap, s->a);
    ipi_free(s->a, s->buf, s->buf_cap * sizeof *s->buf);
    ipi_free(s->a, s->recs, s->recs_cap * sizeof *s->recs);
    ipi_free(s->a, s->sig, s->sig_cap * sizeof *s->sig);
}

/* The frames of a context into s->buf, callee first. */
static int load_frames(merge_state *s, const iprof_context *ctx)
{
    if (ipi_grow_array(s->a, &s->buf, &s->buf_cap, 2 * (size_t)ctx->depth, sizeof *s->buf))
        return IPROF_ENOMEM;
    size_t i = 0;
    for (const iprof_context *c = ctx; c; c = c->parent, i += 2) {
        s->buf[i] = c->method;
        s->buf[i + 1] = ipi_ctx_bci(c);
    }
    return IPROF_OK;
}

/* ---- checks before any change ------------------------------------------- */

static int check_methods(iprof_model *dst, const iprof_model *src)
{
    for (size_t i = 0; i < src->method_count; i++) {
        const iprof_method *x = ipi_model_method(src, i);
        int rc = ipi_method_check_sig(dst, src, x->id, x->sig, x->sig_len,
                                      "the model merged from");
        if (rc)
            return rc;
    }
    return IPROF_OK;
}

/* src entries must resolve within src (checked first: a dangling
 * reference is the more basic fault) and follow the rules; dst entries
 * must have whole groups so that they can be combined. Failures name the
 * entry in dst's error. */
static int check_entries(merge_state *s)
{
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        const ipi_entry_list *l = &s->src->entries[k];
        for (size_t i = 0; i < l->count; i++) {
            int rc = ipi_entry_check_refs(s->dst, s->src, &l->items[i], "the model merged from");
            if (rc)
                return rc;
        }
    }
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        const ipi_entry_list *l = &s->src->entries[k];
        for (size_t i = 0; i < l->count; i++) {
            const iprof_entry *e = &l->items[i];
            if (load_frames(s, e->ctx))
                return IPROF_ENOMEM;
            int rule = ipi_rule_check_entry(k, s->buf, e->ctx->depth, e->records, e->record_count);
            if (rule != IPI_RULE_OK)
                return ipi_entry_fail_rule(s->dst, e, rule, 1);
        }
    }
    return ipi_merge_check_groups(s->dst);
}

int ipi_merge_check_groups(iprof_model *dst)
{
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        const ipi_entry_list *d = &dst->entries[k];
        size_t g = (size_t)ipi_kind_layout_of(k)->group;
        for (size_t i = 0; i < d->count; i++)
            if (d->items[i].record_count % g != 0)
                return ipi_entry_fail_rule(dst, &d->items[i],
                                           g == 3 ? IPI_RULE_RECORDS_TRIPLES : IPI_RULE_RECORDS_PAIRS, 1);
    }
    return IPROF_OK;
}

/* ---- ids ---------------------------------------------------------------- */

/* The src id if dst does not use it, else one above the largest id (kept
 * up to date in *max as ids are taken). A type's (is_type) or method's
 * name says which element found no free id. */
static int pick_id(iprof_model *dst, int is_type, const ipi_str *name, int64_t want,
                   int64_t *max, int64_t *out)
{
    if (is_type ? (const void *)ipi_model_type_by_id(dst, want)
                : (const void *)ipi_model_method_by_id(dst, want)) {
        if (*max == INT64_MAX) {
            ipi_subject about = {-1, NULL, 0, is_type ? &want : NULL, is_type ? NULL : &want};
            return ipi_model_fail_about(dst, IPROF_ELIMIT, &about,
                                        "%s \"%.*s%s\" (id %lld of the source): that id is "
                                        "taken and none above %lld is free in the model "
                                        "merged into",
                                        is_type ? "type" : "method",
                                        ipi_excerpt(name->s, name->len, 64), name->s,
                                        IPI_CUT(name->len, 64), (long long)want,
                                        (long long)INT64_MAX);
        }
        want = *max + 1;
    }
    if (want > *max)
        *max = want;
    *out = want;
    return IPROF_OK;
}

/* ---- types -------------------------------------------------------------- */

int ipi_merge_type(iprof_model *dst, int64_t id, const ipi_str *name, int64_t *max,
                   const iprof_type **out)
{
    const iprof_type *dt = ipi_find_type_by_name(dst, name);
    if (!dt) {
        int rc = pick_id(dst, 1, name, id, max, &id);
        if (!rc)
            rc = ipi_model_push_type_str(dst, id, name, &dt);
        if (rc)
            return rc;
    }
    *out = dt;
    return IPROF_OK;
}

static int merge_types(merge_state *s)
{
    iprof_model *dst = s->dst;
    int64_t max = ipi_model_max_id(dst, 1);
    /* Matching by name needs dst's name index; build it now, where a
     * failure can still be reported, rather than in the lookups. */
    if (ipi_idmap_reserve(&s->tmap, s->a, s->src->type_count) ||
        !ipi_index_get(dst, IPI_IX_TYPE_NAMES))
        return IPROF_ENOMEM;
    for (size_t i = 0; i < s->src->type_count; i++) {
        const iprof_type *t = s->src->types[i], *dt;
        /* Interned names hash by content: src's hash serves dst's tables. */
        const ipi_str *name;
        int rc = ipi_model_intern(dst, t->name->s, t->name->len, t->name->hash, &name);
        if (rc || (rc = ipi_merge_type(dst, t->id, name, &max, &dt)))
            return rc;
        if (!ipi_idmap_get(&s->tmap, t->id)) /* a repeated src id means its first type */
            ipi_idmap_put_reserved(&s->tmap, t->id, (void *)dt); /* reserved */
    }
    return IPROF_OK;
}

/* ---- methods ------------------------------------------------------------ */

/* Methods are keyed by names, not ids: the method name and the names of
 * the signature's types. dst keeps an index by those keys
 * (IPI_IX_METHOD_NAMES) from merge to merge, so a merge costs time in
 * proportion to src, not to the profile it grows. */

/* A new method of dst: the source's id when dst does not use it, else
 * *max + 1; `name` interned in dst, h its key, absent from the index. */
static int add_method(iprof_model *dst, int64_t id, const ipi_str *name, const int64_t *ids,
                      size_t n, uint64_t h, int64_t *max, const iprof_method **out)
{
    int rc = pick_id(dst, 0, name, id, max, &id);
    return rc ? rc : ipi_model_push_method_new_key(dst, id, name, ids, n, h, out);
}

int ipi_merge_method(iprof_model *dst, int64_t id, const ipi_str *name,
                     const iprof_type *const *sig, size_t n, uint64_t h, int64_t *ids,
                     int64_t *max, const iprof_method **out)
{
    /* Fetched each time: adding a method may (rarely) drop the index. */
    const ipi_htab *index = ipi_index_method_names(dst, 0, NULL);
    if (!index)
        return IPROF_ENOMEM;
    const iprof_method *d = ipi_find_method_by_names(dst, index, name, sig, n, h);
    if (d) {
        *out = d;
        return IPROF_OK;
    }
    for (size_t j = 0; j < n; j++)
        ids[j] = sig[j]->id;
    /* Interned names hash by content, so name's hash serves dst's table;
     * the index takes the method without a second probe. */
    const ipi_str *mine;
    int rc = ipi_model_intern(dst, name->s, name->len, name->hash, &mine);
    return rc ? rc : add_method(dst, id, mine, ids, n, h, max, out);
}

int ipi_merge_method_ids(iprof_model *dst, int64_t id, const ipi_str *name, const int64_t *ids,
                         size_t n, uint64_t h, int64_t *max, const iprof_method **out)
{
    const ipi_htab *index = ipi_index_method_names(dst, 0, NULL);
    if (!index)
        return IPROF_ENOMEM;
    const iprof_method *d = ipi_find_method_by_ids(index, name, ids, n, h);
    if (d) {
        *out = d;
        return IPROF_OK;
    }
    return add_method(dst, id, name, ids, n, h, max, out);
}

static int merge_methods(merge_state *s)
{
    int64_t max = ipi_model_max_id(s->dst, 0);
    /* Built even when src has no methods: dst keeps it from merge to merge. */
    if (ipi_idmap_reserve(&s->mmap, s->a, s->src->method_count) ||
        !ipi_index_method_names(s->dst, 0, NULL))
        return IPROF_ENOMEM;
    for (size_t i = 0; i < s->src->method_count; i++) {
        const iprof_method *x = ipi_model_method(s->src, i), *d;
        if (ipi_grow_array(s->a, &s->sig, &s->sig_cap, x->sig_len, sizeof *s->sig) ||
            ipi_grow_array(s->a, &s->buf, &s->buf_cap, x->sig_len, sizeof *s->buf))
            return IPROF_ENOMEM;
        for (size_t j = 0; j < x->sig_len; j++) /* resolves: checked up front */
            s->sig[j] = ipi_idmap_get(&s->tmap, x->sig[j]);
        uint64_t h = ipi_method_names_hash(x->name, s->sig, x->sig_len);
        int rc =
            ipi_merge_method(s->dst, x->id, x->name, s->sig, x->sig_len, h, s->buf, &max, &d);
        if (rc)
            return rc;
        if (!ipi_idmap_get(&s->mmap, x->id))
            ipi_idmap_put_reserved(&s->mmap, x->id, (void *)d); /* reserved */
    }
    return IPROF_OK;
}

/* ---- entries ------------------------------------------------------------ */

/* One src entry in dst ids, counts scaled, in s->buf and s->recs. */
static int remap_entry(merge_state *s, const iprof_entry *e)
{
    const ipi_kind_layout *L = ipi_kind_layout_of(e->kind);
    if (load_frames(s, e->ctx) ||
        ipi_grow_array(s->a, &s->recs, &s->recs_cap, e->record_count, sizeof *s->recs))
        return IPROF_ENOMEM;
    if (L->checks_methods)
        for (size_t i = 0; i < e->ctx->depth; i++)
            s->buf[2 * i] = ((const iprof_method *)ipi_idmap_get(&s->mmap, s->buf[2 * i]))->id;
    size_t g = (size_t)L->group;
    for (size_t i = 0; i < e->record_count; i += g) {
        memcpy(s->recs + i, e->records + i, g * sizeof *s->recs);
        if (L->type_slot >= 0) {
            const iprof_type *t = ipi_idmap_get(&s->tmap, e->records[i + (size_t)L->type_slot]);
            s->recs[i + (size_t)L->type_slot] = t->id;
        }
        s->recs[i + (size_t)L->count_slot] = ipi_scale(&s->sc, e->records[i + (size_t)L->count_slot]);
    }
    return IPROF_OK;
}

/* Each src entry added to dst as iprof_model_add_entry() adds, the
 * records of a dst entry journalled before they change. */
static int merge_entries(merge_state *s, ipi_journal *j)
{
    iprof_model *dst = s->dst;
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        const ipi_entry_list *l = &s->src->entries[k];
        if (l->count && !ipi_index_get(dst, IPI_IX_ENTRIES + k))
            return IPROF_ENOMEM;
        for (size_t i = 0; i < l->count; i++) {
            const iprof_entry *e = &l->items[i];
            size_t depth = e->ctx->depth;
            int rc = remap_entry(s, e);
            /* In dst's ids the entry may break a rule (a leniently loaded
             * dst with a negative method id): refused, as add_entry does. */
            if (!rc)
                rc = ipi_entry_check_new(dst, k, s->buf, depth, s->recs, e->record_count);
            const iprof_context *ctx = NULL;
            if (!rc)
                rc = ipi_context_intern(dst, s->buf, depth, &ctx);
            if (!rc)
                rc = ipi_entry_merge_at(dst, k, ctx, s->recs, e->record_count, ipi_journal_entry,
                                        j);
            if (rc)
                return rc;
        }
    }
    return IPROF_OK;
}

/* ---- merge -------------------------------------------------------------- */

/* The merged model has the highest version of its inputs: src's when dst
 * never had one of its own (a new model), or when src's is higher. Equal
 * versions spelled differently ("01.0.0", "1.0.0") give the shorter
 * spelling, then the lower in byte order, so that the merge does not
 * depend on the order of its inputs. A version that does not parse stays
 * as it is. */
int ipi_merge_version(iprof_model *dst, const iprof_model *src)
{
    ipi_fmtver d, s;
    if (!src->version_set ||
        ipi_version_parse(src->version, strlen(src->version), &s) != IPROF_OK)
        return IPROF_OK;
    int higher = !dst->version_set;
    if (!higher && ipi_version_parse(dst->version, strlen(dst->version), &d) == IPROF_OK) {
        size_t sl = strlen(src->version), dl = strlen(dst->version);
        higher = s.major != d.major   ? s.major > d.major
                 : s.minor != d.minor ? s.minor > d.minor
                 : s.patch != d.patch ? s.patch > d.patch
                 : sl != dl           ? sl < dl
                                      : strcmp(src->version, dst->version) < 0;
    }
    return higher ? ipi_model_store_version(dst, src->version, strlen(src->version)) : IPROF_OK;
}

IPROF_API int iprof_merge_options_init(iprof_merge_options *opts, unsigned int version)
{
    if (!opts || version == 0 || version > IPROF_MERGE_OPTIONS_VERSION)
        return IPROF_EINVAL;
    memset(opts, 0, sizeof *opts);
    opts->version = version;
    opts->weight = 1.0;
    return IPROF_OK;
}

int ipi_merge_check_options(iprof_model *dst, const iprof_merge_options *opts)
{
    if (!opts || opts->version == 0 || opts->version > IPROF_MERGE_OPTIONS_VERSION)
        return ipi_model_fail(dst, IPROF_EINVAL, "merge options: NULL or unknown version");
    if (opts->flags & ~(unsigned)IPROF_MERGE_DROP_UNKNOWN)
        return ipi_model_fail(dst, IPROF_EINVAL, "merge options: unknown flags 0x%x",
                              opts->flags & ~(unsigned)IPROF_MERGE_DROP_UNKNOWN);
    double weight = opts->weight;
    if (weight != weight) /* NaN: printf may spell it "-nan" */
        return ipi_model_fail(dst, IPROF_EINVAL, "weight nan: must be finite and >= 0");
    if (!(weight >= 0) || weight > DBL_MAX)
        return ipi_model_fail(dst, IPROF_EINVAL, "weight %g: must be finite and >= 0", weight);
    if (opts->rounding < IPROF_ROUND_NEAREST_AWAY || opts->rounding > IPROF_ROUND_FLOOR)
        return ipi_model_fail(dst, IPROF_EINVAL, "merge options: unknown rounding %d",
                              opts->rounding);
    return IPROF_OK;
}

IPROF_API int iprof_model_merge(iprof_model *dst, const iprof_model *src, double weight)
{
    iprof_merge_options opts = IPROF_MERGE_OPTIONS_INIT;
    opts.weight = weight;
    return iprof_model_merge_with(dst, src, &opts);
}

IPROF_API int iprof_model_merge_with(iprof_model *dst, const iprof_model *src,
                                     const iprof_merge_options *opts)
{
    if (!dst)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&dst->error);
    if (!src || dst == src)
        return ipi_model_fail(dst, IPROF_EINVAL, "the source is NULL or the destination itself");
    int rc = ipi_merge_check_options(dst, opts);
    if (rc)
        return rc;
    int drop = (opts->flags & IPROF_MERGE_DROP_UNKNOWN) != 0;
    /* A check only: dst's keys are dropped once the merge is certain. */
    rc = ipi_unknown_check_combine(dst, src);
    if (rc && !drop)
        return rc;
    ipi_errbuf_clear(&dst->error);
    merge_state s;
    memset(&s, 0, sizeof s);
    s.dst = dst;
    s.src = src;
    s.a = &dst->alloc;
    ipi_scaler_init(&s.sc, opts->weight, opts->rounding);
    ipi_idmap_init(&s.tmap);
    ipi_idmap_init(&s.mmap);
    rc = check_methods(dst, src);
    if (!rc)
        rc = check_entries(&s);
    /* From here dst changes: a journal puts it back on any failure. */
    ipi_journal j;
    int journalled = !rc;
    if (journalled)
        rc = ipi_journal_start(&j, dst);
    if (!rc)
        rc = merge_types(&s);
    if (!rc)
        rc = merge_methods(&s);
    if (!rc)
        rc = merge_entries(&s, &j);
    if (!rc)
        rc = ipi_merge_version(dst, src);
    /* Last: dropping dst's keys cannot be undone, and nothing fails after. */
    if (!rc)
        rc = ipi_unknown_take(dst, src, drop);
    if (!rc && !src->refs_checked) /* src's methods come as they are */
        ipi_model_changed(dst, IPI_CHANGED_UNCHECKED, -1);
    if (rc && journalled)
        ipi_journal_undo(&j, dst);
    if (journalled)
        ipi_journal_free(&j, dst);
    state_free(&s);
    if (rc && (!dst->error.set || dst->error.err.status != rc))
        ipi_model_fail(dst, rc, "%s",
                       rc == IPROF_ENOMEM ? "out of memory" : iprof_status_string(rc));
    return rc;
}
