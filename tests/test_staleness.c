/*
 * The staleness score of iprof_diff (include/iprof/diff.h) through the
 * public API: exact values on small hand-built models whose ids differ for
 * the same names. Identical and scaled profiles score 0, disjoint ones 1;
 * a flipped branch, moved receiver shares and a cold new entry give the
 * values of the formula; allocation failure leaks nothing.
 */
#include "check.h"
#include "check_alloc.h"

#include <math.h>

#include <iprof/analysis.h>
#include <iprof/diff.h>
#include <iprof/edit.h>
#include <iprof/iprof.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define EPS IPROF_EXTREMELY_SLOW_PATH_PROBABILITY

static const int CC = IPROF_KIND_CALL_COUNT, CO = IPROF_KIND_CONDITIONAL,
                 VI = IPROF_KIND_VIRTUAL_INVOKE, IO = IPROF_KIND_INSTANCEOF;

static void add_type(iprof_model *m, int64_t id, const char *name)
{
    CHECK_OK(iprof_model_add_type(m, id, name, strlen(name), NULL));
}

static void add_method(iprof_model *m, int64_t id, const char *name, const int64_t *sig,
                       size_t n)
{
    CHECK_OK(iprof_model_add_method(m, id, name, strlen(name), sig, n, NULL));
}

static void add_entry(iprof_model *m, int kind, int64_t method, int64_t bci,
                      const int64_t *recs, size_t nrecs)
{
    const int64_t frame[] = {method, bci};
    CHECK_OK(iprof_model_add_entry(m, kind, frame, 1, recs, nrecs));
}

/* The records of one side of a test profile. */
typedef struct profile {
    int64_t calls_f, calls_g;
    int64_t cond_f[6], cond_g[6];
    int64_t cats, dogs, cows; /* receivers of T.f:2 */
} profile;

/* The base profile: f 300 and g 100 calls; f:0 branches 60/20 (bci 5 /
 * bci 9), g:0 10/10; f:2 receivers 75 Cat, 25 Dog. */
static const profile BASE = {300, 100, {5, 0, 60, 9, 1, 20}, {3, 0, 10, 7, 1, 10}, 75, 25, 0};

/* A model of p. The ids depend on @p shift, the names do not: the score
 * must match by name. The method prefix renames every method (disjoint
 * profiles). */
static iprof_model *build(const profile *p, int64_t shift, const char *prefix)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, NULL));
    const char *types[] = {"T", "void", "Cat", "Dog", "Cow"};
    for (int i = 4; i >= 0; i--) /* reversed: other ids, other file order */
        add_type(m, 1 + i + shift, types[i]);
    const int64_t sig[] = {1 + shift, 2 + shift};
    char f[32], g[32];
    snprintf(f, sizeof f, "%sf", prefix);
    snprintf(g, sizeof g, "%sg", prefix);
    add_method(m, 10 + shift, f, sig, 2);
    add_method(m, 11 + shift, g, sig, 2);
    const int64_t cf[] = {p->calls_f}, cg[] = {p->calls_g};
    add_entry(m, CC, 10 + shift, 0, cf, 1);
    add_entry(m, CC, 11 + shift, 0, cg, 1);
    add_entry(m, CO, 10 + shift, 0, p->cond_f, 6);
    add_entry(m, CO, 11 + shift, 0, p->cond_g, 6);
    int64_t recv[6];
    size_t n = 0;
    const int64_t counts[] = {p->cats, p->dogs, p->cows};
    for (int i = 0; i < 3; i++) {
        if (counts[i]) {
            recv[n++] = 3 + i + shift;
            recv[n++] = counts[i];
        }
    }
    add_entry(m, VI, 10 + shift, 2, recv, n);
    return m;
}

/* staleness and staleness(K) of a diff (iprof_diff_get_summary and
 * iprof_diff_get_kind); NAN when the call fails, which no check accepts. */
static double stale(const iprof_diff *d)
{
    iprof_diff_summary s = IPROF_DIFF_SUMMARY_INIT;
    return iprof_diff_get_summary(d, &s) == IPROF_OK ? s.staleness : NAN;
}

static double stale_kind(const iprof_diff *d, int kind)
{
    iprof_diff_kind_summary k = IPROF_DIFF_KIND_SUMMARY_INIT;
    return iprof_diff_get_kind(d, kind, &k) == IPROF_OK ? k.staleness : NAN;
}

static double score(const iprof_model *a, const iprof_model *b, double kinds[IPROF_KIND_COUNT])
{
    iprof_diff *d = NULL;
    CHECK_OK(iprof_diff_new(&d, a, b, NULL));
    double s = stale(d);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        kinds[k] = stale_kind(d, k);
    iprof_diff_free(d);
    /* Symmetric: the other way round gives the same numbers. */
    CHECK_OK(iprof_diff_new(&d, b, a, NULL));
    CHECK(stale(d) == s);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        CHECK(stale_kind(d, k) == kinds[k]);
    iprof_diff_free(d);
    return s;
}

/* The kinds without entries in these models are undefined. */
static void check_unused_kinds(const double kinds[IPROF_KIND_COUNT])
{
    CHECK(kinds[IPROF_KIND_MONITOR] == -1.0);
    CHECK(kinds[IPROF_KIND_SAMPLING] == -1.0);
    CHECK(kinds[IO] == -1.0);
}

static void test_identical_and_scaled(void)
{
    iprof_model *a = build(&BASE, 0, ""), *b = build(&BASE, 100, "");
    double k[IPROF_KIND_COUNT];
    CHECK(score(a, a, k) == 0.0);
    CHECK(k[CC] == 0.0 && k[CO] == 0.0 && k[VI] == 0.0);
    check_unused_kinds(k);
    CHECK(score(a, b, k) == 0.0); /* other ids, same names */
    CHECK(k[CC] == 0.0 && k[CO] == 0.0 && k[VI] == 0.0);
    /* Every count times 7: the same hotness, probabilities and shares. */
    CHECK_OK(iprof_model_scale(b, -1, 7.0, IPROF_ROUND_NEAREST_AWAY));
    CHECK(score(a, b, k) == 0.0);
    CHECK(k[CC] == 0.0 && k[CO] == 0.0 && k[VI] == 0.0);
    /* Kinds scaled by different factors are still the same profile. */
    CHECK_OK(iprof_model_scale(b, CO, 3.0, IPROF_ROUND_NEAREST_AWAY));
    CHECK(score(a, b, k) == 0.0);
    iprof_model_free(a);
    iprof_model_free(b);
}

static void test_disjoint_and_empty(void)
{
    iprof_model *a = build(&BASE, 0, ""), *b = build(&BASE, 0, "other_");
    iprof_model *e1 = NULL, *e2 = NULL;
    CHECK_OK(iprof_model_new(&e1, NULL));
    CHECK_OK(iprof_model_new(&e2, NULL));
    double k[IPROF_KIND_COUNT];
    CHECK(score(a, b, k) == 1.0); /* no method in common */
    CHECK(k[CC] == 1.0 && k[CO] == 1.0 && k[VI] == 1.0);
    check_unused_kinds(k);
    CHECK(score(a, e1, k) == 1.0); /* nothing of A is in an empty profile */
    CHECK(k[CC] == 1.0 && k[CO] == 1.0 && k[VI] == 1.0);
    check_unused_kinds(k);
    CHECK(score(e1, e2, k) == 0.0); /* no counts at all: nothing moved */
    for (int i = 0; i < IPROF_KIND_COUNT; i++)
        CHECK(k[i] == -1.0);
    iprof_model_free(a);
    iprof_model_free(b);
    iprof_model_free(e1);
    iprof_model_free(e2);
}

static void test_branch_flipped(void)
{
    /* f:0 goes 20/60 instead of 60/20: probabilities 0.75/0.25 become
     * 0.25/0.75, a distance of 0.5, on an entry of weight 0.8 (80 of the
     * kind's 100 counts on both sides); g:0 did not change. */
    profile p = BASE;
    p.cond_f[2] = 20;
    p.cond_f[5] = 60;
    iprof_model *a = build(&BASE, 0, ""), *b = build(&p, 50, "");
    double k[IPROF_KIND_COUNT];
    double s = score(a, b, k);
    CHECK(k[CC] == 0.0);
    CHECK(k[CO] == (0.8 * 0.5 + 0.2 * 0.0) / (0.8 + 0.2));
    CHECK(k[CO] == 0.4);
    CHECK(k[VI] == 0.0);
    CHECK(s == (0.0 + 0.4 + 0.0) / 3);
    iprof_model_free(b);

    /* Always taken -> never taken: GraalVM's probabilities (1 - eps, eps)
     * and (eps, 1 - eps), as iprof_entry_branch_probabilities gives them. */
    const int64_t always[] = {5, 0, 80, 9, 1, 0}, never[] = {5, 0, 0, 9, 1, 80};
    memcpy(p.cond_f, always, sizeof always);
    iprof_model *b_always = build(&p, 50, "");
    memcpy(p.cond_f, never, sizeof never);
    iprof_model *b_never = build(&p, 0, "");
    const iprof_entry *e[2] = {iprof_model_entry_at(b_always, CO, 0),
                               iprof_model_entry_at(b_never, CO, 0)};
    int64_t bcis[2][2];
    double pr[2][2];
    for (int i = 0; i < 2; i++) {
        size_t n = 0;
        CHECK_OK(iprof_entry_branch_probabilities(e[i], bcis[i], pr[i], 2, &n));
        CHECK_EQ_INT(n, 2);
        CHECK(bcis[i][0] == 5 && bcis[i][1] == 9);
    }
    CHECK(pr[0][0] == 1.0 - EPS && pr[0][1] == EPS);
    double dist = (fabs(pr[0][0] - pr[1][0]) + fabs(pr[0][1] - pr[1][1])) / 2;
    CHECK(fabs(dist - (1 - 2 * EPS)) < 1e-15);
    score(b_always, b_never, k);
    CHECK(k[CO] == (0.8 * dist + 0.2 * 0.0) / (0.8 + 0.2));
    iprof_model_free(b_always);
    iprof_model_free(b_never);
    iprof_model_free(a);
}

static void test_receivers_moved(void)
{
    iprof_model *a = build(&BASE, 0, "");
    double k[IPROF_KIND_COUNT];
    /* 75 Cat / 25 Dog -> 50 Cat / 150 Dog: shares 0.75/0.25 -> 0.25/0.75. */
    profile p = BASE;
    p.cats = 50;
    p.dogs = 150;
    iprof_model *b = build(&p, 20, "");
    double s = score(a, b, k);
    CHECK(k[VI] == (1.0 - EPS) * ((0.5 + 0.5) / 2));
    CHECK(k[CC] == 0.0 && k[CO] == 0.0);
    CHECK(s == (0.0 + 0.0 + (1.0 - EPS) * 0.5) / 3);
    iprof_model_free(b);
    /* Types match by name: B's Cow has A's Cat id. 75 Cat / 25 Dog ->
     * 75 Cat / 25 Cow moves a quarter of the receivers. */
    p = BASE;
    p.dogs = 0;
    p.cows = 25;
    b = build(&p, -2, "");
    score(a, b, k);
    CHECK(k[VI] == (1.0 - EPS) * ((0.0 + 0.25 + 0.25) / 2));
    /* A type name A lacks adds its whole share: instanceof at f:4 saw
     * Cat in A and Horse in B. */
    add_type(b, 77, "Horse");
    const int64_t cat[] = {3, 10}, horse[] = {77, 10};
    add_entry(a, IO, 10, 4, cat, 2);
    add_entry(b, IO, 8, 4, horse, 2);
    s = score(a, b, k);
    CHECK(k[IO] == (1.0 - EPS) * ((0.0 + 1.0 + 1.0) / 2));
    CHECK(s == (0.0 + 0.0 + k[VI] + k[IO]) / 4);
    iprof_model_free(b);
    iprof_model_free(a);
}

static void test_cold_noise(void)
{
    /* A new method called once next to 400 calls: weight 1/802 (its share
     * 1/401 on B's side only) and distance 1; f and g keep their calls,
     * so their shares move by (300/400 - 300/401) and (100/400 - 100/401). */
    iprof_model *a = build(&BASE, 0, ""), *b = build(&BASE, 0, "");
    const int64_t sig[] = {1, 2}, one[] = {1};
    add_method(b, 12, "cold", sig, 2);
    add_entry(b, CC, 12, 0, one, 1);
    iprof_diff *d = NULL;
    CHECK_OK(iprof_diff_new(&d, a, b, NULL));
    double f = fabs(300.0 / 401.0 - 300.0 / 400.0) / 2;
    double g = fabs(100.0 / 401.0 - 100.0 / 400.0) / 2;
    double c = (1.0 / 401.0) / 2;
    double wf = (300.0 / 400.0 + 300.0 / 401.0) / 2, wg = (100.0 / 400.0 + 100.0 / 401.0) / 2;
    CHECK(stale_kind(d, CC) == (f + g + c) / (wf + wg + c));
    CHECK(stale_kind(d, CC) < 0.0025);
    CHECK(stale(d) == stale_kind(d, CC) / 3);
    iprof_diff_free(d);
    iprof_model_free(a);
    iprof_model_free(b);
}

static void test_zero_counts(void)
{
    /* A branch that never ran on one side gives no probabilities there:
     * distance 1, but with its weight, 0 on that side. */
    profile p = BASE;
    const int64_t zero[] = {3, 0, 0, 7, 1, 0};
    memcpy(p.cond_g, zero, sizeof zero);
    iprof_model *a = build(&BASE, 0, ""), *b = build(&p, 0, "");
    double k[IPROF_KIND_COUNT];
    score(a, b, k);
    /* A: f 80, g 20 of 100; B: f 80 of 80. */
    double mf = (0.8 + 1.0) / 2, mg = (0.2 + 0.0) / 2;
    CHECK(k[CO] == (mf * 0.0 + mg * 1.0) / (mf + mg));
    iprof_model_free(a);
    iprof_model_free(b);
}

static void test_arguments(void)
{
    iprof_diff_summary s = IPROF_DIFF_SUMMARY_INIT;
    iprof_diff_kind_summary k = IPROF_DIFF_KIND_SUMMARY_INIT;
    CHECK_EQ_INT(iprof_diff_get_summary(NULL, &s), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_diff_get_kind(NULL, CC, &k), IPROF_EINVAL);
    iprof_model *a = build(&BASE, 0, "");
    iprof_diff *d = NULL;
    CHECK_OK(iprof_diff_new(&d, a, a, NULL));
    CHECK_EQ_INT(iprof_diff_get_kind(d, -1, &k), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_diff_get_kind(d, IPROF_KIND_COUNT, &k), IPROF_EINVAL);
    CHECK(k.staleness == 0.0); /* unchanged on failure */
    /* A profile against itself: nothing is stale. */
    CHECK(stale(d) == 0.0);
    CHECK(stale_kind(d, CC) == 0.0);
    iprof_diff_free(d);
    iprof_model_free(a);
}

static void test_alloc_failure(void)
{
    profile p = BASE;
    p.cats = 50;
    p.dogs = 150;
    p.cond_f[2] = 20;
    iprof_model *a = build(&BASE, 0, ""), *b = build(&p, 40, "");
    double k[IPROF_KIND_COUNT];
    double want = score(a, b, k);
    CHECK(want > 0.0 && want < 1.0);
    fail_alloc f = {0};
    iprof_allocator al = fail_hook(&f);
    iprof_diff_options o = IPROF_DIFF_OPTIONS_INIT;
    o.allocator = &al;
    long n;
    int rc = IPROF_ENOMEM;
    for (n = 1; n < 1000 && rc != IPROF_OK; n++) {
        f.fail_at = n;
        f.count = 0;
        f.failed = 0;
        iprof_diff *d = (iprof_diff *)&d;
        rc = iprof_diff_new(&d, a, b, &o);
        if (rc != IPROF_OK) {
            CHECK_EQ_INT(rc, IPROF_ENOMEM);
            CHECK(d == NULL);
            CHECK_EQ_INT(f.live_blocks, 0);
            continue;
        }
        CHECK(stale(d) == want);
        iprof_diff_free(d);
        CHECK_EQ_INT(f.live_bytes, 0);
    }
    CHECK_EQ_INT(rc, IPROF_OK);
    fprintf(stderr, "   %ld allocation failures checked\n", n - 2);
    iprof_model_free(a);
    iprof_model_free(b);
}

int main(void)
{
    RUN(test_identical_and_scaled);
    RUN(test_disjoint_and_empty);
    RUN(test_branch_flipped);
    RUN(test_receivers_moved);
    RUN(test_cold_noise);
    RUN(test_zero_counts);
    RUN(test_arguments);
    RUN(test_alloc_failure);
    return check_done();
}
