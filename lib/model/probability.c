/*
 * What GraalVM's PGO tells the compiler from one entry: branch
 * probabilities of a conditional entry and receiver-type shares of a
 * type-profiling entry (include/iprof/analysis.h has the formulas).
 *
 * Records are grouped by key (branch index, bci, type id) by sorting an index
 * permutation held in the caller's output array: no allocation, O(n log n)
 * whatever the keys, so hostile entries cannot make it quadratic.
 */
#include <iprof/analysis.h>

/* ---- sorting record numbers by key -------------------------------------- */

typedef struct keyed {
    const int64_t *records;
    size_t group; /* values per record */
    size_t slot;  /* the key's slot in a record */
} keyed;

/* Record a before record b: by key, then by position (a stable order). */
static int before(const keyed *k, int64_t a, int64_t b)
{
    int64_t ka = k->records[(size_t)a * k->group + k->slot];
    int64_t kb = k->records[(size_t)b * k->group + k->slot];
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

/* GraalVM's clampProbabilities over all n records: 0 probabilities become
 * the extremely slow path's, the others give up that much in proportion,
 * so the sum stays 1. In double, in GraalVM's order of operations. */
static void clamp(double *p, size_t n)
{
    const double eps = IPROF_EXTREMELY_SLOW_PATH_PROBABILITY;
    size_t zeros = 0;
    for (size_t i = 0; i < n; i++)
        zeros += p[i] == 0.0;
    if (!zeros)
        return;
    double adjustment = (double)zeros * eps;
    double scale = 1 / (1 - (double)(n - zeros) * eps);
    for (size_t i = 0; i < n; i++)
        p[i] = p[i] == 0.0 ? eps : p[i] - adjustment * (p[i] - eps) * scale;
}

/* Heap sort of distinct int64 values, ascending. */
static void sift_i64(int64_t *v, size_t root, size_t n)
{
    for (size_t child; (child = 2 * root + 1) < n; root = child) {
        if (child + 1 < n && v[child] < v[child + 1])
            child++;
        if (v[root] >= v[child])
            return;
        int64_t t = v[root];
        v[root] = v[child];
        v[child] = t;
    }
}

static void sort_i64(int64_t *v, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_i64(v, i, n);
    for (size_t end = n; end-- > 1;) {
        int64_t t = v[0];
        v[0] = v[end];
        v[end] = t;
        sift_i64(v, 0, end);
    }
}

/*
 * GraalVM's aggregatedProbabilities, step by step (docs/format.md, "What
 * the compiler is told"): every record counts, repeats of a (bci, index)
 * included. probabilities[i] is record i's number throughout; bcis holds
 * record numbers sorted by index, then by bci, then (bci's first record,
 * last record) pairs, then the result.
 */
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
    if (total == 0)
        return IPROF_ENOTFOUND; /* GraalVM's "sum == 0": no profile applied */
    /* distributeConditionalProbabilities: record i with index k gets
     * S[k] / (n[k] x T), both integers converted to double, then
     * clampProbabilities. The sort keeps record order within an index. */
    keyed k = {r, 3, 1};
    sort_by_key(&k, bcis, n);
    for (size_t i = 0, end; i < n; i = end) {
        end = group_end(&k, bcis, i, n);
        long double sum = 0;
        for (size_t j = i; j < end; j++)
            sum += r[3 * (size_t)bcis[j] + 2];
        double p = (double)sum / (double)((long double)(end - i) * total);
        for (size_t j = i; j < end; j++)
            probabilities[bcis[j]] = p;
    }
    clamp(probabilities, n);
    /* aggregatedProbabilitiesByKey: each index's records' probabilities
     * added in record order, the sum given to every one of them. */
    for (size_t i = 0, end; i < n; i = end) {
        end = group_end(&k, bcis, i, n);
        double shared = probabilities[bcis[i]];
        for (size_t j = i + 1; j < end; j++)
            shared += probabilities[bcis[j]];
        for (size_t j = i; j < end; j++)
            probabilities[bcis[j]] = shared;
    }
    /* aggregatedProbabilitiesPerSuccessor: a map from each valid bci to
     * the number of its last record (a later put wins). Packed as (first
     * record << 32 | last record), g <= the group's start: written behind
     * what is still to be read. Record numbers fit 31 bits (an entry holds
     * fewer than 2^32 values). */
    keyed b = {r, 3, 0};
    sort_by_key(&b, bcis, n);
    size_t g = 0;
    for (size_t i = 0, end; i < n; i = end) {
        end = group_end(&b, bcis, i, n);
        if (r[3 * (size_t)bcis[i]] != IPROF_INVALID_BRANCH_BCI)
            bcis[g++] = (int64_t)((uint64_t)bcis[i] << 32 | (uint64_t)bcis[end - 1]);
    }
    /* In the order of each bci's first record. The k-th smallest first
     * record is at least k, and so is its last: writing pair k never
     * overwrites a probability still to be read. */
    sort_i64(bcis, g);
    for (size_t i = 0; i < g; i++) {
        size_t first = (size_t)((uint64_t)bcis[i] >> 32), last = (size_t)(bcis[i] & 0xffffffff);
        bcis[i] = r[3 * first];
        probabilities[i] = probabilities[last];
    }
    *count = g;
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
    keyed k = {r, 2, 0};
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
