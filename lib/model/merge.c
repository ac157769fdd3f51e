/*
 * Merging one model into another, as native-image-configure
 * merge-pgo-profiles does: types by name, methods by (declaring type name,
 * name, signature type names), entries remapped to dst ids and combined.
 *
 * One engine does it, the streaming merge (merge_stream.c): a loaded
 * model goes in as the stream of its elements (ipi_merge_model_stream).
 * Here: the checks before dst changes (options, a source model's
 * references and rules, dst's groups) and the steps both inputs share,
 * how a type or method of the source finds or becomes one of dst.
 */
#include <float.h>

#include "merge.h"
#include "model.h"

#include "hash.h"
#include "rules.h"
#include "scale.h"
#include "version.h"

/* ---- checks before any change ------------------------------------------- */

/* src's methods and entries must resolve within src: checked first, a
 * dangling reference being the more basic fault. Failures name the method
 * or entry in dst's error. */
static int check_refs(iprof_model *dst, const iprof_model *src)
{
    for (size_t i = 0; i < src->method_count; i++) {
        const iprof_method *x = ipi_model_method(src, i);
        int rc = ipi_method_check_sig(dst, src, x->id, x->sig, x->sig_len,
                                      "the model merged from");
        if (rc)
            return rc;
    }
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        const ipi_entry_list *l = &src->entries[k];
        for (size_t i = 0; i < l->count; i++) {
            int rc = ipi_entry_check_refs(dst, src, &l->items[i], "the model merged from");
            if (rc)
                return rc;
        }
    }
    return IPROF_OK;
}

/* src entries must follow the rules; dst entries must have whole groups
 * so that they can be combined. Failures name the entry in dst's error. */
static int check_entries(iprof_model *dst, const iprof_model *src)
{
    int64_t *buf = NULL;
    size_t cap = 0;
    int rc = IPROF_OK;
    for (int k = 0; !rc && k < IPROF_KIND_COUNT; k++) {
        const ipi_entry_list *l = &src->entries[k];
        for (size_t i = 0; !rc && i < l->count; i++) {
            const iprof_entry *e = &l->items[i];
            if ((rc = ipi_context_frames_into(&dst->alloc, e->ctx, &buf, &cap)))
                break;
            int rule = ipi_rule_check_entry(k, buf, e->ctx->depth, e->records, e->record_count);
            if (rule != IPI_RULE_OK)
                rc = ipi_entry_fail_rule(dst, e, rule, 1);
        }
    }
    ipi_free(&dst->alloc, buf, cap * sizeof *buf);
    return rc ? rc : ipi_merge_check_groups(dst);
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
    /* The id index alone says whether an id is taken: the type or method
     * it names would be two more cache misses. */
    if (is_type ? ipi_idpos_get(&dst->type_ids, want) < dst->type_count
                : ipi_idpos_get(&dst->method_ids, want) < dst->method_count) {
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
    const ipi_rtab *index = ipi_index_method_names(dst, 0, NULL);
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
    const ipi_rtab *index = ipi_index_method_names(dst, 0, NULL);
    if (!index)
        return IPROF_ENOMEM;
    const iprof_method *d = ipi_find_method_by_ids(dst, index, name, ids, n, h);
    if (d) {
        *out = d;
        return IPROF_OK;
    }
    return add_method(dst, id, name, ids, n, h, max, out);
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
    const unsigned known = IPROF_MERGE_DROP_UNKNOWN | IPROF_MERGE_THREADED;
    if (opts->flags & ~known)
        return ipi_model_fail(dst, IPROF_EINVAL, "merge options: unknown flags 0x%x",
                              opts->flags & ~known);
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

IPROF_API int iprof_model_merge(iprof_model *dst, const iprof_model *src,
                                const iprof_merge_options *opts)
{
    const iprof_merge_options defaults = IPROF_MERGE_OPTIONS_INIT;
    if (!opts)
        opts = &defaults;
    if (!dst)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&dst->error);
    if (!src || dst == src)
        return ipi_model_fail(dst, IPROF_EINVAL, "the source is NULL or the destination itself");
    int rc = ipi_merge_check_options(dst, opts);
    if (rc)
        return rc;
    /* What can be checked is, before dst changes, so that the reports
     * name the model merged from: its unknown keys (dropped with the
     * flag), references and rules. */
    rc = ipi_unknown_check_combine(dst, src);
    if (rc && !(opts->flags & IPROF_MERGE_DROP_UNKNOWN))
        return rc;
    ipi_errbuf_clear(&dst->error);
    /* A src that vouches for its references (model.h: refs_checked, a
     * clean load) resolves them all; only its rules are checked. */
    rc = src->refs_checked ? IPROF_OK : check_refs(dst, src);
    if (!rc)
        rc = check_entries(dst, src);
    if (!rc)
        rc = ipi_merge_model_stream(dst, src, opts);
    if (rc && (!dst->error.set || dst->error.err.status != rc))
        ipi_model_fail(dst, rc, "%s",
                       rc == IPROF_ENOMEM ? "out of memory" : iprof_status_string(rc));
    return rc;
}
