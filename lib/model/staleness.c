/*
 * The per-entry distances of the staleness score (include/iprof/diff.h
 * defines them): the total variation distance between the outcome
 * distributions GraalVM derives from an entry of A and from the matching
 * entry of B. Successors are matched by bci, types by name.
 *
 * Outcomes are sorted by key (heap sort: no recursion, no allocation
 * beyond the scratch arrays, O(n log n) whatever the keys) and merged, so
 * hostile entries cannot make a distance quadratic.
 */
#include <math.h>

#include <iprof/analysis.h>

#include "model.h"
#include "staleness.h"

void ipi_stale_init(ipi_stale *s, const iprof_allocator *a, const iprof_model *ma,
                    const iprof_model *mb)
{
    memset(s, 0, sizeof *s);
    s->a = a;
    s->m[0] = ma;
    s->m[1] = mb;
    ipi_idmap_init(&s->b2a_types);
}

void ipi_stale_free(ipi_stale *s)
{
    ipi_idmap_free(&s->b2a_types, s->a);
    for (int i = 0; i < 2; i++)
        ipi_free(s->a, s->out[i], s->out_cap[i] * sizeof *s->out[i]);
    ipi_free(s->a, s->bcis, s->bcis_cap * sizeof *s->bcis);
    ipi_free(s->a, s->probs, s->probs_cap * sizeof *s->probs);
}

int ipi_stale_has_outcomes(int kind)
{
    return kind == IPROF_KIND_CONDITIONAL || kind == IPROF_KIND_VIRTUAL_INVOKE ||
           kind == IPROF_KIND_MONITOR || kind == IPROF_KIND_INSTANCEOF;
}

/* ---- B's types by A's names ------------------------------------------- */

/* b2a_types: every B type id whose (first) type has the name of an A type
 * -> the first such A type. Built on the first type distance. */
static int map_types(ipi_stale *s)
{
    const iprof_model *A = s->m[0], *B = s->m[1];
    ipi_rtab names; /* A's types by name: position + 1 */
    ipi_rtab_init(&names);
    int rc = ipi_rtab_reserve(&names, s->a, A->type_count);
    for (size_t i = 0; i < A->type_count && rc == IPROF_OK; i++)
        ipi_rtab_put(&names, A->types[i]->name->hash, (uint32_t)i + 1); /* reserved */
    for (size_t i = 0; i < B->type_count && rc == IPROF_OK; i++) {
        const iprof_type *y = B->types[i];
        if (ipi_model_type_by_id(B, y->id) != y)
            continue;
        uint32_t pos;
        const iprof_type *found = NULL, *x;
        /* The table probes in insertion order: the first match is A's
         * first type of that name. */
        ipi_rtab_for(&names, y->name->hash, pos) {
            x = A->types[pos - 1];
            if (ipi_str_equal(x->name, y->name)) {
                found = x;
                break;
            }
        }
        if (found)
            rc = ipi_idmap_put(&s->b2a_types, s->a, y->id, (void *)found);
    }
    ipi_rtab_free(&names, s->a);
    if (rc == IPROF_OK)
        s->types_mapped = 1;
    return rc;
}

/* The key in A's type ids of B's type id t; 0 when no A type matches it.
 * A type id that B does not define matches the same undefined id of A. */
static int b_type_key(const ipi_stale *s, int64_t t, int64_t *key)
{
    if (!ipi_model_type_by_id(s->m[1], t)) {
        *key = t;
        return ipi_model_type_by_id(s->m[0], t) == NULL;
    }
    const iprof_type *x = ipi_idmap_get(&s->b2a_types, t);
    if (!x)
        return 0;
    *key = x->id;
    return 1;
}

/* ---- outcome lists ------------------------------------------------------ */

static void swap_out(ipi_outcome *o, size_t i, size_t j)
{
    ipi_outcome t = o[i];
    o[i] = o[j];
    o[j] = t;
}

static void sift(ipi_outcome *o, size_t root, size_t n)
{
    for (size_t child; (child = 2 * root + 1) < n; root = child) {
        if (child + 1 < n && o[child].key < o[child + 1].key)
            child++;
        if (o[root].key >= o[child].key)
            return;
        swap_out(o, root, child);
    }
}

static void sort_outcomes(ipi_outcome *o, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        sift(o, i, n);
    for (size_t end = n; end-- > 1;) {
        swap_out(o, 0, end);
        sift(o, 0, end);
    }
}

/* The sum of the probabilities of the run of equal keys at *i (advanced). */
static double run_sum(const ipi_outcome *o, size_t n, size_t *i)
{
    int64_t key = o[*i].key;
    double p = 0;
    for (; *i < n && o[*i].key == key; ++*i)
        p += o[*i].p;
    return p;
}

/* sum over keys of |p_A(key) - p_B(key)|, both lists sorted. */
static double l1_sorted(const ipi_outcome *a, size_t na, const ipi_outcome *b, size_t nb)
{
    double sum = 0;
    size_t i = 0, j = 0;
    while (i < na || j < nb) {
        if (j == nb || (i < na && a[i].key < b[j].key))
            sum += fabs(run_sum(a, na, &i));
        else if (i == na || b[j].key < a[i].key)
            sum += fabs(run_sum(b, nb, &j));
        else
            sum += fabs(run_sum(a, na, &i) - run_sum(b, nb, &j));
    }
    return sum;
}

static int reserve(ipi_stale *s, int side, size_t n)
{
    return ipi_grow_array(s->a, &s->out[side], &s->out_cap[side], n, sizeof(ipi_outcome));
}

/* ---- branches ----------------------------------------------------------- */

/* Side's successor probabilities into out[side]; *n = 0 when GraalVM
 * applies none (counts adding up to 0, a broken record count). */
static int branch_outcomes(ipi_stale *s, int side, const iprof_entry *e, size_t *n)
{
    size_t triples = e->record_count / 3;
    *n = 0;
    if (ipi_grow_array(s->a, &s->bcis, &s->bcis_cap, triples, sizeof *s->bcis) ||
        ipi_grow_array(s->a, &s->probs, &s->probs_cap, triples, sizeof *s->probs))
        return IPROF_ENOMEM;
    size_t cap = s->bcis_cap < s->probs_cap ? s->bcis_cap : s->probs_cap, count = 0;
    if (iprof_entry_branch_probabilities(e, s->bcis, s->probs, cap, &count) != IPROF_OK)
        return IPROF_OK;
    if (reserve(s, side, count))
        return IPROF_ENOMEM;
    for (size_t i = 0; i < count; i++) {
        s->out[side][i].key = s->bcis[i];
        s->out[side][i].p = s->probs[i];
    }
    *n = count;
    return IPROF_OK;
}

static int branch_distance(ipi_stale *s, const iprof_entry *ea, const iprof_entry *eb, double *d)
{
    size_t n[2];
    const iprof_entry *e[2] = {ea, eb};
    *d = 1.0;
    for (int side = 0; side < 2; side++) {
        if (branch_outcomes(s, side, e[side], &n[side]))
            return IPROF_ENOMEM;
        if (n[side] == 0)
            return IPROF_OK;
        sort_outcomes(s->out[side], n[side]);
    }
    *d = fmin(1.0, l1_sorted(s->out[0], n[0], s->out[1], n[1]) / 2);
    return IPROF_OK;
}

/* ---- types -------------------------------------------------------------- */

/* The sum of the positive counts (negative ones count as 0, as in the
 * diff's totals), saturating. */
static uint64_t positive_total(const iprof_entry *e)
{
    uint64_t sum = 0;
    for (size_t i = 1; i < e->record_count; i += 2) {
        uint64_t c = e->records[i] > 0 ? (uint64_t)e->records[i] : 0;
        sum = sum > UINT64_MAX - c ? UINT64_MAX : sum + c;
    }
    return sum;
}

/* Side's recorded types and count / total into out[side] (*n of them);
 * B's types that A lacks go to *unmatched instead: they add their whole
 * share to the distance. *ok = 0 when the side gives no type profile
 * (counts adding up to 0, an odd record count). */
static int type_outcomes(ipi_stale *s, int side, const iprof_entry *e, size_t *n,
                         double *unmatched, int *ok)
{
    *n = 0;
    uint64_t total = e->record_count % 2 ? 0 : positive_total(e);
    *ok = total > 0;
    if (!*ok)
        return IPROF_OK;
    if (reserve(s, side, e->record_count / 2))
        return IPROF_ENOMEM;
    for (size_t i = 0; i < e->record_count; i += 2) {
        if (e->records[i + 1] <= 0)
            continue;
        double p = (double)e->records[i + 1] / (double)total;
        int64_t key = e->records[i];
        if (side == 1 && !b_type_key(s, e->records[i], &key)) {
            *unmatched += p;
            continue;
        }
        s->out[side][*n].key = key;
        s->out[side][(*n)++].p = p;
    }
    return IPROF_OK;
}

static int type_distance(ipi_stale *s, const iprof_entry *ea, const iprof_entry *eb, double *d)
{
    if (!s->types_mapped && map_types(s))
        return IPROF_ENOMEM;
    size_t n[2];
    double unmatched = 0;
    const iprof_entry *e[2] = {ea, eb};
    *d = 1.0;
    for (int side = 0; side < 2; side++) {
        int ok;
        if (type_outcomes(s, side, e[side], &n[side], &unmatched, &ok))
            return IPROF_ENOMEM;
        if (!ok)
            return IPROF_OK;
        sort_outcomes(s->out[side], n[side]);
    }
    /* GraalVM gives both sides the same not-recorded probability eps and
     * the recorded types (1 - eps) x their count share. */
    double l1 = unmatched + l1_sorted(s->out[0], n[0], s->out[1], n[1]);
    *d = fmin(1.0, (1.0 - IPROF_EXTREMELY_SLOW_PATH_PROBABILITY) * (l1 / 2));
    return IPROF_OK;
}

int ipi_stale_distance(ipi_stale *s, const iprof_entry *ea, const iprof_entry *eb, double *d)
{
    if (ea->kind == IPROF_KIND_CONDITIONAL)
        return branch_distance(s, ea, eb, d);
    return type_distance(s, ea, eb, d);
}
