/*
 * What GraalVM's PGO tells the compiler from one entry: branch
 * probabilities of a conditional entry and receiver-type shares of a
 * type-profiling entry (include/iprof/analysis.h has the formulas).
 *
 * Records are grouped by key (branch index, type id) by sorting an index
 * permutation held in the caller's output array: no allocation, O(n log n)
 * whatever the keys, so hostile entries cannot make it quadratic.
 */
#include <iprof/analysis.h>

#include <math.h>

/* ---- sorting record numbers by key -------------------------------------- */

typedef struct keyed {
    const int64_t *records;
    size_t group; /* values per record */
    size_t slot;  /* the key's slot in a record */
    int then_first; /* ties on the key ordered by the record's first value */
} keyed;

/* Record a before record b: by key (and first value), then by position
 * (a stable order). */
static int before(const keyed *k, int64_t a, int64_t b)
{
    int64_t ka = k->records[(size_t)a * k->group + k->slot];
    int64_t kb = k->records[(size_t)b * k->group + k->slot];
    if (ka == kb && k->then_first) {
        ka = k->records[(size_t)a * k->group];
        kb = k->records[(size_t)b * k->group];
    }
    return ka != kb ? ka < kb : a < b;
}

static void sift_down(const keyed *k, int64_t *idx, size_t root, size_t n)
{
    for (size_t child; (child = 2 * root + 1) < n; root = child) {
        if (child + 1 < n && before(k, idx[child], idx[child + 1]))
            child++;
        if (!before(k, idx[root], idx[child]))
            return;
        int64_t t = idx[root];
        idx[root] = idx[child];
        idx[child] = t;
    }
}

/* idx[0..n) = 0..n-1 sorted by key (heap sort: no recursion, no memory). */
static void sort_by_key(const keyed *k, int64_t *idx, size_t n)
{
    for (size_t i = 0; i < n; i++)
        idx[i] = (int64_t)i;
    for (size_t i = n / 2; i-- > 0;)
        sift_down(k, idx, i, n);
    for (size_t end = n; end-- > 1;) {
        int64_t t = idx[0];
        idx[0] = idx[end];
        idx[end] = t;
        sift_down(k, idx, 0, end);
    }
}

/* The end of the group of equal keys starting at sorted position i. */
static size_t group_end(const keyed *k, const int64_t *idx, size_t i, size_t n)
{
    int64_t key = k->records[(size_t)idx[i] * k->group + k->slot];
    size_t j = i + 1;
    while (j < n && k->records[(size_t)idx[j] * k->group + k->slot] == key)
        j++;
    return j;
}

/* The exact sum of the counts (the last value of each group) of n groups:
 * GraalVM sums them as long, without saturating. */
static long double count_sum(const int64_t *r, size_t n, size_t group)
{
    long double total = 0;
    for (size_t i = 0; i < n; i++)
        total += r[group * i + group - 1];
    return total;
}

/* Checks shared by both functions: kind, argument and length rules. */
static int check_entry(const iprof_entry *e, int ok_kind, size_t group, size_t capacity,
                       const void *a, const void *b, size_t *count, size_t *n)
{
    if (!count)
        return IPROF_EINVAL;
    *count = 0;
    if (!e || !ok_kind || ((!a || !b) && capacity))
        return IPROF_EINVAL;
    size_t len = 0;
    iprof_entry_records(e, &len);
    if (len % group)
        return IPROF_ESCHEMA;
    *n = len / group;
    if (*n == 0)
        return IPROF_ENOTFOUND;
    if (capacity < *n) {
        *count = *n;
        return IPROF_ELIMIT;
    }
    return IPROF_OK;
}

/* ---- branch probabilities ----------------------------------------------- */

/* A record repeating an earlier one's bci and index: it counts with
 * that one, as the canonical form combines them, and yields no pair.
 * Marked NaN, which no probability is (each index has a record that is
 * not a repeat, and the total is positive), where any number could be
 * one (negative counts give probabilities outside [0, 1]). */
#define REPEAT NAN
#define IS_REPEAT(p) isnan(p)

/* Mark each record that repeats an earlier record's (bci, index) with
 * REPEAT in p, the others 0; idx is scratch. */
static void mark_repeats(const int64_t *r, int64_t *idx, double *p, size_t n)
{
    keyed k = {r, 3, 1, 1};
    sort_by_key(&k, idx, n);
    for (size_t i = 0; i < n; i++) {
        const int64_t *x = r + 3 * (size_t)idx[i], *y = i ? r + 3 * (size_t)idx[i - 1] : NULL;
        p[idx[i]] = y && x[0] == y[0] && x[1] == y[1] ? REPEAT : 0.0;
    }
}

/* 0 probabilities become the extremely slow path's; the others give up
 * that much in proportion, so the sum stays 1 (GraalVM's clamp). Repeats
 * are left out. */
static void clamp(double *p, size_t n)
{
    const double eps = IPROF_EXTREMELY_SLOW_PATH_PROBABILITY;
    size_t zeros = 0, all = 0;
    for (size_t i = 0; i < n; i++) {
        zeros += p[i] == 0.0;
        all += !IS_REPEAT(p[i]);
    }
    if (!zeros)
        return;
    double adjustment = (double)zeros * eps;
    double scale = 1 / (1 - (double)(all - zeros) * eps);
    for (size_t i = 0; i < n; i++)
        if (!IS_REPEAT(p[i]))
            p[i] = p[i] == 0.0 ? eps : p[i] - adjustment * (p[i] - eps) * scale;
}

IPROF_API int iprof_entry_branch_probabilities(const iprof_entry *entry, int64_t *bcis,
                                               double *probabilities, size_t capacity,
                                               size_t *count)
{
    size_t n = 0;
    int rc = check_entry(entry, entry && iprof_entry_kind(entry) == IPROF_KIND_CONDITIONAL, 3,
                         capacity, bcis, probabilities, count, &n);
    if (rc)
        return rc;
    const int64_t *r = iprof_entry_records(entry, NULL);
    long double total = count_sum(r, n, 3);
    if (total <= 0)
        return IPROF_ENOTFOUND;
    mark_repeats(r, bcis, probabilities, n);
    keyed k = {r, 3, 1, 0};
    sort_by_key(&k, bcis, n);
    /* Each record: its index's sum / (records with the index x total),
     * a repeat counting with the record it repeats. */
    for (size_t i = 0, end; i < n; i = end) {
        end = group_end(&k, bcis, i, n);
        long double sum = 0;
        size_t records = 0;
        for (size_t j = i; j < end; j++) {
            sum += r[3 * (size_t)bcis[j] + 2];
            records += !IS_REPEAT(probabilities[bcis[j]]);
        }
        double p = (double)sum / (double)((long double)records * total);
        for (size_t j = i; j < end; j++)
            if (!IS_REPEAT(probabilities[bcis[j]]))
                probabilities[bcis[j]] = p;
    }
    clamp(probabilities, n);
    /* The records of an index share the sum of their probabilities,
     * added in record order (the sort kept it within a group). */
    for (size_t i = 0, end; i < n; i = end) {
        end = group_end(&k, bcis, i, n);
        double shared = 0;
        for (size_t j = i; j < end; j++)
            if (!IS_REPEAT(probabilities[bcis[j]]))
                shared += probabilities[bcis[j]];
        for (size_t j = i; j < end; j++)
            if (!IS_REPEAT(probabilities[bcis[j]]))
                probabilities[bcis[j]] = shared;
    }
    /* One pair per record with a valid bci, in record order, but for
     * repeats. */
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        if (r[3 * i] == IPROF_INVALID_BRANCH_BCI || IS_REPEAT(probabilities[i]))
            continue;
        bcis[out] = r[3 * i];
        probabilities[out++] = probabilities[i];
    }
    *count = out;
    return IPROF_OK;
}

/* ---- type shares -------------------------------------------------------- */

/* Highest share first, ties by ascending type id. */
static int share_before(const int64_t *types, const double *shares, size_t a, size_t b)
{
    return shares[a] != shares[b] ? shares[a] > shares[b] : types[a] < types[b];
}

static void swap_pair(int64_t *types, double *shares, size_t a, size_t b)
{
    int64_t t = types[a];
    types[a] = types[b];
    types[b] = t;
    double s = shares[a];
    shares[a] = shares[b];
    shares[b] = s;
}

static void sift_shares(int64_t *types, double *shares, size_t root, size_t n)
{
    for (size_t child; (child = 2 * root + 1) < n; root = child) {
        /* A heap with the last in order on top: sorted ascending by
         * "comes later", so the result comes out in share order. */
        if (child + 1 < n && share_before(types, shares, child, child + 1))
            child++;
        if (!share_before(types, shares, root, child))
            return;
        swap_pair(types, shares, root, child);
    }
}

/* Heap sort (types are distinct, so the order is total). */
static void sort_shares(int64_t *types, double *shares, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_shares(types, shares, i, n);
    for (size_t end = n; end-- > 1;) {
        swap_pair(types, shares, 0, end);
        sift_shares(types, shares, 0, end);
    }
}

IPROF_API int iprof_entry_type_shares(const iprof_entry *entry, int64_t *types, double *shares,
                                      size_t capacity, size_t *count, double *not_recorded)
{
    int kind = entry ? iprof_entry_kind(entry) : -1;
    int ok_kind = kind == IPROF_KIND_VIRTUAL_INVOKE || kind == IPROF_KIND_INSTANCEOF ||
                  kind == IPROF_KIND_MONITOR;
    size_t n = 0;
    int rc = check_entry(entry, ok_kind, 2, capacity, types, shares, count, &n);
    if (not_recorded)
        *not_recorded = IPROF_EXTREMELY_SLOW_PATH_PROBABILITY;
    if (rc)
        return rc;
    const int64_t *r = iprof_entry_records(entry, NULL);
    long double total = count_sum(r, n, 2);
    if (total < 1)
        total = 1;
    keyed k = {r, 2, 0, 0};
    sort_by_key(&k, types, n);
    /* One output per type; position g <= the group's first sorted
     * position, so writing it never overwrites an index still needed. */
    size_t g = 0;
    for (size_t i = 0, end; i < n; i = end, g++) {
        end = group_end(&k, types, i, n);
        long double sum = 0;
        for (size_t j = i; j < end; j++)
            sum += r[2 * (size_t)types[j] + 1];
        int64_t type = r[2 * (size_t)types[i]];
        /* In double, in GraalVM's order of operations. */
        shares[g] = (1.0 - IPROF_EXTREMELY_SLOW_PATH_PROBABILITY) * (double)sum / (double)total;
        types[g] = type;
    }
    sort_shares(types, shares, g);
    *count = g;
    return IPROF_OK;
}
