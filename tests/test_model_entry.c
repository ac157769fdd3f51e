/* Unit tests of model entries: adding with each kind's combine semantics,
 * validation, lookup, removal and retain (lib/model/model_entry.c). */
#include "check.h"
#include "check_alloc.h"

#include <iprof/analysis.h>
#include <iprof/edit.h>
#include <iprof/iprof.h>
#include <iprof/transform.h>

#include "model.h"


/* ---- helpers ------------------------------------------------------------ */

/* Types 0..9 and methods 1..9 (signature [0]). */
static iprof_model *fixture(const iprof_allocator *a)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, a));
    static const int64_t sig[] = {0};
    char name[8];
    for (int i = 0; i < 10; i++) {
        int n = snprintf(name, sizeof name, "T%d", i);
        CHECK_OK(iprof_model_add_type(m, i, name, (size_t)n, NULL));
    }
    for (int i = 1; i < 10; i++) {
        int n = snprintf(name, sizeof name, "m%d", i);
        CHECK_OK(iprof_model_add_method(m, i, name, (size_t)n, sig, 1, NULL));
    }
    return m;
}

/* Whether the entry of kind with these frames has exactly these records. */
static int has_records(const iprof_model *m, int kind, const int64_t *frames, size_t fc,
                       const int64_t *want, size_t n)
{
    const iprof_entry *e = iprof_model_entry_find(m, kind, frames, fc);
    if (!e)
        return 0;
    size_t len;
    const int64_t *r = iprof_entry_records(e, &len);
    if (len != n || (n && memcmp(r, want, n * sizeof *want) != 0)) {
        fprintf(stderr, "   records:");
        for (size_t i = 0; i < len; i++)
            fprintf(stderr, " %" PRId64, r[i]);
        fprintf(stderr, "\n");
        return 0;
    }
    return 1;
}

#define N(a) (sizeof(a) / sizeof *(a))

/* ---- combining ---------------------------------------------------------- */

static void test_call_count_and_sampling(void)
{
    iprof_model *m = fixture(NULL);
    static const int64_t f[] = {3, 0, 1, 7};
    for (int kind = IPROF_KIND_CALL_COUNT; kind <= IPROF_KIND_SAMPLING;
         kind += IPROF_KIND_SAMPLING - IPROF_KIND_CALL_COUNT) {
        static const int64_t five[] = {5}, seven[] = {7}, twelve[] = {12};
        CHECK_OK(iprof_model_add_entry(m, kind, f, 2, five, 1));
        CHECK_OK(iprof_model_add_entry(m, kind, f, 2, seven, 1));
        CHECK(has_records(m, kind, f, 2, twelve, 1));
        CHECK_EQ_INT(iprof_model_entry_count(m, kind), 1);
        /* Saturation at INT64_MAX. */
        static const int64_t big[] = {INT64_MAX - 10}, max[] = {INT64_MAX};
        CHECK_OK(iprof_model_add_entry(m, kind, f, 2, big, 1));
        CHECK(has_records(m, kind, f, 2, max, 1));
        CHECK_OK(iprof_model_add_entry(m, kind, f, 2, max, 1));
        CHECK(has_records(m, kind, f, 2, max, 1));
        /* Counts above 2^53 stay exact. */
        static const int64_t g[] = {4, 0}, p53[] = {(int64_t)1 << 53}, one[] = {1},
                             sum[] = {((int64_t)1 << 53) + 1};
        CHECK_OK(iprof_model_add_entry(m, kind, g, 1, p53, 1));
        CHECK_OK(iprof_model_add_entry(m, kind, g, 1, one, 1));
        CHECK(has_records(m, kind, g, 1, sum, 1));
        CHECK_EQ_INT(iprof_model_entry_count(m, kind), 2);
    }
    /* Sampling contexts need not start at bci 0. */
    static const int64_t s[] = {3, 17}, one[] = {1};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, s, 1, one, 1));
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, s, 1, one, 1), IPROF_ESCHEMA);
    iprof_model_free(m);
}

static void test_conditional(void)
{
    iprof_model *m = fixture(NULL);
    static const int64_t f[] = {2, 11};
    static const int64_t a[] = {20, 0, 10, 53, 1, 1};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f, 1, a, N(a)));
    const iprof_entry *e = iprof_model_entry_find(m, IPROF_KIND_CONDITIONAL, f, 1);
    const int64_t *before = iprof_entry_records(e, NULL);
    /* Only matches: summed in place. */
    static const int64_t b[] = {53, 1, 4, 20, 0, 5};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f, 1, b, N(b)));
    static const int64_t ab[] = {20, 0, 15, 53, 1, 5};
    CHECK(has_records(m, IPROF_KIND_CONDITIONAL, f, 1, ab, N(ab)));
    CHECK(iprof_entry_records(iprof_model_entry_find(m, IPROF_KIND_CONDITIONAL, f, 1), NULL) ==
          before);
    /* Same bci, another index: a new triple, appended in input order; a
     * key repeated within the input is a record of its own, as GraalVM
     * counts it: its second occurrence meets none of the entry's. Both
     * sides give bci 20 index 0 (its last triple's), so (20, 0) goes
     * behind the appended (20, 2). */
    static const int64_t c[] = {99, 3, 1, 20, 2, 3, 20, 0, 1, 99, 3, 6, -1, 0, 2};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f, 1, c, N(c)));
    static const int64_t abc[] = {53, 1, 5, 99, 3, 1, 20, 2, 3, 99, 3, 6, -1, 0, 2, 20, 0, 16};
    CHECK(has_records(m, IPROF_KIND_CONDITIONAL, f, 1, abc, N(abc)));
    /* Index and bci are both part of the key: (1, 20) is not (20, 1). */
    static const int64_t d[] = {1, 20, 9};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f, 1, d, N(d)));
    size_t len;
    iprof_entry_records(iprof_model_entry_find(m, IPROF_KIND_CONDITIONAL, f, 1), &len);
    CHECK_EQ_INT(len, 21);
    /* Saturation of one triple's count. */
    static const int64_t big[] = {53, 1, INT64_MAX};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f, 1, big, N(big)));
    const int64_t *r = iprof_entry_records(iprof_model_entry_find(m, IPROF_KIND_CONDITIONAL, f, 1), &len);
    CHECK_EQ_INT(len, 21);
    CHECK(r[2] == INT64_MAX && r[17] == 16);
    /* Empty records are allowed and combine with anything. */
    static const int64_t g[] = {2, 40};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, g, 1, NULL, 0));
    CHECK(has_records(m, IPROF_KIND_CONDITIONAL, g, 1, NULL, 0));
    CHECK(iprof_entry_records(iprof_model_entry_find(m, IPROF_KIND_CONDITIONAL, g, 1), NULL) != NULL);
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, g, 1, a, N(a)));
    CHECK(has_records(m, IPROF_KIND_CONDITIONAL, g, 1, a, N(a)));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, g, 1, NULL, 0));
    CHECK(has_records(m, IPROF_KIND_CONDITIONAL, g, 1, a, N(a)));
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CONDITIONAL), 2);
    /* A new entry keeps a key repeated in its records, as a load keeps a
     * file's; adding to it, the i-th occurrence of a key meets the i-th,
     * and occurrences beyond the entry's are appended. */
    static const int64_t h[] = {2, 41}, twice[] = {5, 0, 1, 5, 0, 2}, more[] = {5, 0, 10};
    static const int64_t summed[] = {5, 0, 11, 5, 0, 2};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, h, 1, twice, N(twice)));
    CHECK(has_records(m, IPROF_KIND_CONDITIONAL, h, 1, twice, N(twice)));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, h, 1, more, N(more)));
    CHECK(has_records(m, IPROF_KIND_CONDITIONAL, h, 1, summed, N(summed)));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, h, 1, twice, N(twice)));
    static const int64_t doubled[] = {5, 0, 12, 5, 0, 4};
    CHECK(has_records(m, IPROF_KIND_CONDITIONAL, h, 1, doubled, N(doubled)));
    static const int64_t thrice[] = {7, 1, 9, 5, 0, 1, 5, 0, 1, 5, 0, 1, 7, 1, 8};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, h, 1, thrice, N(thrice)));
    static const int64_t tripled[] = {5, 0, 13, 5, 0, 5, 7, 1, 9, 5, 0, 1, 7, 1, 8};
    CHECK(has_records(m, IPROF_KIND_CONDITIONAL, h, 1, tripled, N(tripled)));
    iprof_model_free(m);
}

/* GraalVM gives a valid bci its last triple's index. Combining takes the
 * larger of the two sides' winners, whichever side came first: an entry
 * (10,1) and an input (10,0),(10,1) both say index 1, and so does their
 * sum (appending (10,0) said 0: never taken); sides that disagree give the
 * larger index in either order. */
static void test_conditional_winner_any_order(void)
{
    static const int64_t one[] = {10, 1, 1, 20, 2, 3}, two[] = {10, 0, 0, 10, 1, 1, 20, 2, 3};
    static const int64_t sum12[] = {20, 2, 6, 10, 0, 0, 10, 1, 2};
    static const int64_t sum21[] = {10, 0, 0, 10, 1, 2, 20, 2, 6};
    static const int64_t up[] = {10, 0, 5, 10, 1, 7}, down[] = {10, 1, 2, 10, 0, 3};
    static const int64_t both[] = {10, 0, 8, 10, 1, 9};
    static const int64_t f[] = {3, 4};
    const int64_t *sides[4][2] = {{one, two}, {two, one}, {up, down}, {down, up}};
    const size_t len[4][2] = {{6, 9}, {9, 6}, {6, 6}, {6, 6}};
    const int64_t *want[4] = {sum12, sum21, both, both};
    double p10[4] = {0, 0, 0, 0};
    for (int c = 0; c < 4; c++) {
        iprof_model *m = fixture(NULL);
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f, 1, sides[c][0], len[c][0]));
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f, 1, sides[c][1], len[c][1]));
        CHECK(has_records(m, IPROF_KIND_CONDITIONAL, f, 1, want[c], c < 2 ? 9 : 6));
        int64_t bcis[3];
        double p[3];
        size_t n = 0;
        CHECK_OK(iprof_entry_branch_probabilities(
            iprof_model_entry_find(m, IPROF_KIND_CONDITIONAL, f, 1), bcis, p, 3, &n));
        CHECK_EQ_INT(n, c < 2 ? 2 : 1);
        p10[c] = bcis[0] == 10 ? p[0] : p[1];
        iprof_model_free(m);
    }
    CHECK(p10[0] == p10[1] && p10[0] > 0.2499 && p10[0] < 0.25);
    CHECK(p10[2] == p10[3] && p10[2] == 9.0 / 17);
}

static void test_pairs(void)
{
    iprof_model *m = fixture(NULL);
    static const int kinds[] = {IPROF_KIND_VIRTUAL_INVOKE, IPROF_KIND_INSTANCEOF,
                                IPROF_KIND_MONITOR};
    for (size_t k = 0; k < N(kinds); k++) {
        int kind = kinds[k];
        static const int64_t fv[] = {6, 3, 1, 4}, fm[] = {0, 0};
        const int64_t *f = kind == IPROF_KIND_MONITOR ? fm : fv;
        size_t fc = kind == IPROF_KIND_MONITOR ? 1 : 2;
        static const int64_t a[] = {1, 10, 2, 20};
        static const int64_t b[] = {2, 5, 3, 7, 1, 1, 3, 1, 9, INT64_MAX};
        static const int64_t ab[] = {1, 11, 2, 25, 3, 8, 9, INT64_MAX};
        CHECK_OK(iprof_model_add_entry(m, kind, f, fc, a, N(a)));
        CHECK(has_records(m, kind, f, fc, a, N(a)));
        CHECK_OK(iprof_model_add_entry(m, kind, f, fc, b, N(b)));
        CHECK(has_records(m, kind, f, fc, ab, N(ab)));
        static const int64_t c[] = {9, 1, 2, 1};
        static const int64_t abc[] = {1, 11, 2, 26, 3, 8, 9, INT64_MAX};
        CHECK_OK(iprof_model_add_entry(m, kind, f, fc, c, N(c)));
        CHECK(has_records(m, kind, f, fc, abc, N(abc)));
        CHECK_EQ_INT(iprof_model_entry_count(m, kind), 1);
    }
    /* The monitor's ctx is the dummy 0:0, whatever the model's methods. */
    static const int64_t f1[] = {1, 0}, p[] = {1, 1};
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_MONITOR, f1, 1, p, 2), IPROF_ESCHEMA);
    iprof_model_free(m);
}

/* Many groups: the combine table leaves the stack. */
static void test_many_groups(void)
{
    iprof_model *m = fixture(NULL);
    CHECK_OK(iprof_model_add_type(m, 1000, "T1000", 5, NULL));
    static const int64_t f[] = {5, 2};
    int64_t a[2 * 100], b[2 * 100], want[2 * 150];
    /* a: types 0..9 and 1000 only exist, so use conditional triples
     * instead for volume: bci i, index i % 3. */
    int64_t ca[3 * 100], cb[3 * 100], cw[3 * 150];
    for (int i = 0; i < 100; i++) {
        ca[3 * i] = i, ca[3 * i + 1] = i % 3, ca[3 * i + 2] = i;
        cb[3 * i] = i + 50, cb[3 * i + 1] = (i + 50) % 3, cb[3 * i + 2] = 1000;
    }
    for (int i = 0; i < 150; i++) {
        cw[3 * i] = i, cw[3 * i + 1] = i % 3;
        cw[3 * i + 2] = (i < 100 ? i : 0) + (i >= 50 ? 1000 : 0);
    }
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f, 1, ca, N(ca)));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f, 1, cb, N(cb)));
    CHECK(has_records(m, IPROF_KIND_CONDITIONAL, f, 1, cw, N(cw)));
    /* Pairs with a repeated type: 100 pairs of types 0..9 fold into 10. */
    for (int i = 0; i < 100; i++) {
        a[2 * i] = i % 10, a[2 * i + 1] = 1;
        b[2 * i] = (i % 10 == 9) ? 1000 : i % 10, b[2 * i + 1] = 2;
    }
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_VIRTUAL_INVOKE, f, 1, a, N(a)));
    const iprof_entry *e = iprof_model_entry_find(m, IPROF_KIND_VIRTUAL_INVOKE, f, 1);
    size_t len;
    iprof_entry_records(e, &len);
    CHECK_EQ_INT(len, 200); /* a new entry keeps its records as given */
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_VIRTUAL_INVOKE, f, 1, b, N(b)));
    /* The first of each repeated type takes the sums; type 1000 is new. */
    for (int i = 0; i < 100; i++)
        want[2 * i] = i % 10, want[2 * i + 1] = 1;
    for (int t = 0; t < 9; t++)
        want[2 * t + 1] += 20;
    want[200] = 1000, want[201] = 20;
    CHECK(has_records(m, IPROF_KIND_VIRTUAL_INVOKE, f, 1, want, 202));
    iprof_model_free(m);
}

/* ---- validation --------------------------------------------------------- */

static void test_rejections(void)
{
    iprof_model *m = fixture(NULL);
    static const int64_t f[] = {2, 0, 1, 3}, one[] = {1}, pair[] = {1, 5};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f, 2, one, 1));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_VIRTUAL_INVOKE, f, 2, pair, 2));
    size_t ctxs = iprof_model_context_count(m);

    CHECK_EQ_INT(iprof_model_add_entry(NULL, 0, f, 2, one, 1), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_add_entry(m, -1, f, 2, one, 1), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_COUNT, f, 2, one, 1), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_add_entry(m, 0, NULL, 2, one, 1), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_add_entry(m, 0, f, 0, one, 1), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_add_entry(m, 0, f, 2, NULL, 1), IPROF_EINVAL);

    static const int64_t bci1[] = {2, 1}, negm[] = {-2, 0}, two[] = {1, 2};
    static const int64_t f_new[] = {4, 0, 9, 9}, f_bad[] = {4, 0, 99, 9}, pair_bad[] = {77, 1};
    CHECK_EQ_INT(iprof_model_add_entry(m, 0, bci1, 1, one, 1), IPROF_ESCHEMA);
    CHECK_EQ_INT(iprof_model_add_entry(m, 0, negm, 1, one, 1), IPROF_ESCHEMA);
    CHECK_EQ_INT(iprof_model_add_entry(m, 0, f, 2, two, 2), IPROF_ESCHEMA);
    CHECK_EQ_INT(iprof_model_add_entry(m, 0, f, 2, NULL, 0), IPROF_ESCHEMA);
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, f, 2, two, 2), IPROF_ESCHEMA);
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f, 2, two, 2), IPROF_ESCHEMA);
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_VIRTUAL_INVOKE, f, 2, one, 1), IPROF_ESCHEMA);
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_INSTANCEOF, f, 2, one, 1), IPROF_ESCHEMA);
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_MONITOR, f, 2, pair, 2), IPROF_ESCHEMA);
    CHECK_EQ_INT(iprof_model_add_entry(m, 0, f_bad, 2, one, 1), IPROF_EDANGLING);
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, f_bad, 2, one, 1),
                 IPROF_EDANGLING);
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_VIRTUAL_INVOKE, f, 2, pair_bad, 2),
                 IPROF_EDANGLING);
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_INSTANCEOF, f_new, 2, pair_bad, 2),
                 IPROF_EDANGLING);
    static const int64_t fm[] = {0, 0};
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_MONITOR, fm, 1, pair_bad, 2),
                 IPROF_EDANGLING);
    /* Conditional records hold bcis, not type ids: no reference check. */
    static const int64_t tri[] = {77, 0, 1};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f, 2, tri, 3));

    /* None of the failures changed anything. */
    CHECK_EQ_INT(iprof_model_context_count(m), ctxs);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 1);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_VIRTUAL_INVOKE), 1);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_INSTANCEOF), 0);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_MONITOR), 0);
    CHECK(has_records(m, IPROF_KIND_CALL_COUNT, f, 2, one, 1));
    CHECK(has_records(m, IPROF_KIND_VIRTUAL_INVOKE, f, 2, pair, 2));
    iprof_model_free(m);
}

/* A kind full (m->max_entries lowered; the real limit is 2^32 - 2, what
 * the entry index's 32-bit positions hold): a new entry fails with
 * IPROF_ELIMIT, says so and makes no context node; combining with an
 * entry it has, and other kinds, go on. */
static void test_entry_limit(void)
{
    iprof_model *m = fixture(NULL);
    m->max_entries = 2;
    static const int64_t f1[] = {1, 0}, f2[] = {2, 0}, f3[] = {3, 0, 1, 4}, one[] = {1};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f1, 1, one, 1));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f2, 1, one, 1));
    size_t ctxs = iprof_model_context_count(m);
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f3, 2, one, 1), IPROF_ELIMIT);
    iprof_error_info e = IPROF_ERROR_INFO_INIT;
    CHECK_OK(iprof_error_get_info(iprof_model_error(m), &e));
    CHECK_EQ_STR(e.message, "callCountProfiles: more than 2 entries");
    CHECK_EQ_INT(iprof_model_context_count(m), ctxs);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 2);
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f2, 1, one, 1));
    static const int64_t two[] = {2};
    CHECK(has_records(m, IPROF_KIND_CALL_COUNT, f2, 1, two, 1));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, f3, 2, one, 1));
    iprof_model_free(m);
}

/* ---- lookup, access, iteration ------------------------------------------ */

static void test_find_and_access(void)
{
    iprof_model *m = fixture(NULL);
    static const int64_t f1[] = {1, 0}, f2[] = {2, 0, 1, 4}, f3[] = {3, 0, 2, 0, 1, 4},
                         one[] = {1}, two[] = {2}, three[] = {3};
    CHECK_OK(iprof_model_add_entry(m, 0, f1, 1, one, 1));
    CHECK_OK(iprof_model_add_entry(m, 0, f2, 2, two, 1));
    CHECK_OK(iprof_model_add_entry(m, 0, f3, 3, three, 1));
    CHECK_EQ_INT(iprof_model_entry_count(m, 0), 3);
    const iprof_entry *e2 = iprof_model_entry_at(m, 0, 1);
    CHECK(iprof_model_entry_find(m, 0, f2, 2) == e2);
    CHECK_EQ_INT(iprof_entry_kind(e2), IPROF_KIND_CALL_COUNT);
    size_t len = 0;
    CHECK(iprof_entry_records(e2, &len)[0] == 2 && len == 1);
    CHECK_EQ_INT(iprof_context_depth(iprof_entry_context(e2)), 2);
    CHECK(iprof_model_entry_at(m, 0, 3) == NULL);
    CHECK(iprof_model_entry_at(m, 7, 0) == NULL);
    /* Contexts that exist as nodes but have no entry of the kind asked. */
    static const int64_t f2c[] = {2, 0, 1, 4};
    CHECK(iprof_model_entry_find(m, IPROF_KIND_SAMPLING, f2c, 2) == NULL);
    static const int64_t f4[] = {1, 4};
    CHECK(iprof_model_entry_find(m, 0, f4, 1) == NULL);
    static const int64_t f5[] = {9, 9, 9, 9};
    CHECK(iprof_model_entry_find(m, 0, f5, 2) == NULL);
    CHECK(iprof_model_entry_find(m, 0, f1, 0) == NULL);
    CHECK(iprof_model_entry_find(m, 0, NULL, 1) == NULL);
    CHECK(iprof_model_entry_find(m, -1, f1, 1) == NULL);

    /* Many entries: the index grows and every one is found. */
    int64_t f[2] = {5, 0};
    int ok = 1;
    for (int64_t i = 0; i < 3000; i++) {
        f[1] = i - 1000;
        ok &= iprof_model_add_entry(m, IPROF_KIND_SAMPLING, f, 1, one, 1) == IPROF_OK;
    }
    for (int64_t i = 0; i < 3000; i++) {
        f[1] = i - 1000;
        ok &= iprof_model_entry_find(m, IPROF_KIND_SAMPLING, f, 1) ==
              iprof_model_entry_at(m, IPROF_KIND_SAMPLING, (size_t)i);
    }
    CHECK(ok);
    iprof_model_free(m);
}

/* ---- removal and retain ------------------------------------------------- */

/* Sampling entries of at least 10, counted (the other kinds stay). */
static int keep_big(const iprof_entry *e, void *payload)
{
    if (iprof_entry_kind(e) != IPROF_KIND_SAMPLING)
        return 1;
    ++*(int *)payload;
    return iprof_entry_records(e, NULL)[0] >= 10;
}

static void test_remove_and_retain(void)
{
    iprof_model *m = fixture(NULL);
    int64_t f[2] = {7, 0};
    for (int64_t i = 0; i < 20; i++) {
        f[1] = i;
        int64_t r[] = {i};
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, f, 1, r, 1));
    }
    f[1] = 3;
    CHECK_EQ_INT(iprof_model_remove_entry(m, IPROF_KIND_CALL_COUNT, f, 1), IPROF_ENOTFOUND);
    CHECK_EQ_INT(iprof_model_remove_entry(m, -1, f, 1), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_remove_entry(m, IPROF_KIND_SAMPLING, f, 0), IPROF_EINVAL);
    CHECK_OK(iprof_model_remove_entry(m, IPROF_KIND_SAMPLING, f, 1));
    CHECK_EQ_INT(iprof_model_remove_entry(m, IPROF_KIND_SAMPLING, f, 1), IPROF_ENOTFOUND);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_SAMPLING), 19);
    CHECK(iprof_entry_records(iprof_model_entry_at(m, IPROF_KIND_SAMPLING, 3), NULL)[0] == 4);
    int ok = 1;
    for (int64_t i = 0; i < 20; i++) {
        f[1] = i;
        const iprof_entry *e = iprof_model_entry_find(m, IPROF_KIND_SAMPLING, f, 1);
        ok &= i == 3 ? e == NULL : e != NULL && iprof_entry_records(e, NULL)[0] == i;
    }
    CHECK(ok);
    /* The context node stays: contexts are never freed. */
    size_t ctxs = iprof_model_context_count(m);
    CHECK_EQ_INT(ctxs, 20);
    /* Re-adding goes to the end. */
    f[1] = 3;
    static const int64_t hundred[] = {100};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, f, 1, hundred, 1));
    CHECK(iprof_model_entry_find(m, IPROF_KIND_SAMPLING, f, 1) ==
          iprof_model_entry_at(m, IPROF_KIND_SAMPLING, 19));
    CHECK_EQ_INT(iprof_model_context_count(m), ctxs);

    int calls = 0;
    iprof_filter_options fo = IPROF_FILTER_OPTIONS_INIT;
    fo.keep_entry = keep_big;
    fo.payload = &calls;
    CHECK_OK(iprof_model_filter(m, &fo));
    CHECK_EQ_INT(calls, 20);
    /* Filtering again keeps all 11. */
    calls = 0;
    CHECK_OK(iprof_model_filter(m, &fo));
    CHECK_EQ_INT(calls, 11);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_SAMPLING), 11); /* 10..19, 100 */
    for (size_t i = 0; i < 11; i++) {
        const iprof_entry *e = iprof_model_entry_at(m, IPROF_KIND_SAMPLING, i);
        int64_t want = i < 10 ? (int64_t)i + 10 : 100;
        ok &= iprof_entry_records(e, NULL)[0] == want;
        int64_t fr[2];
        iprof_context_frames(iprof_entry_context(e), fr, 1);
        ok &= iprof_model_entry_find(m, IPROF_KIND_SAMPLING, fr, 1) == e;
    }
    CHECK(ok);
    f[1] = 5;
    CHECK(iprof_model_entry_find(m, IPROF_KIND_SAMPLING, f, 1) == NULL);
    CHECK_EQ_INT(iprof_model_filter(NULL, &fo), IPROF_EINVAL);
    fo.kinds = IPROF_KIND_BIT(IPROF_KIND_COUNT);
    CHECK_EQ_INT(iprof_model_filter(m, &fo), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_SAMPLING), 11);
    iprof_model_free(m);
}

/* ---- loading keeps duplicates ------------------------------------------- */

static void test_push_duplicates(void)
{
    iprof_model *m = fixture(NULL);
    static const int64_t f[] = {2, 5}, a[] = {1, 0, 3}, b[] = {1, 0, 4};
    CHECK_OK(ipi_model_push_entry_hashed(m, IPROF_KIND_CONDITIONAL, f, 1, NULL, a, 3));
    CHECK_OK(ipi_model_push_entry_hashed(m, IPROF_KIND_CONDITIONAL, f, 1, NULL, b, 3));
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CONDITIONAL), 2);
    CHECK(has_records(m, IPROF_KIND_CONDITIONAL, f, 1, a, 3)); /* the first */
    /* Adding combines into the first. */
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f, 1, b, 3));
    static const int64_t ab[] = {1, 0, 7};
    CHECK(has_records(m, IPROF_KIND_CONDITIONAL, f, 1, ab, 3));
    CHECK(iprof_entry_records(iprof_model_entry_at(m, IPROF_KIND_CONDITIONAL, 1), NULL)[2] == 4);
    /* Loading does not check references. */
    static const int64_t dangling[] = {4242, 0};
    CHECK_OK(ipi_model_push_entry_hashed(m, IPROF_KIND_CALL_COUNT, dangling, 1, NULL, a, 1));
    CHECK_EQ_INT(ipi_model_push_entry_hashed(m, IPROF_KIND_CALL_COUNT, dangling, 0, NULL, a, 1),
                 IPROF_ESCHEMA);
    /* A leniently loaded entry without whole groups cannot be combined. */
    static const int64_t g[] = {3, 5}, partial[] = {1, 0};
    CHECK_OK(ipi_model_push_entry_hashed(m, IPROF_KIND_CONDITIONAL, g, 1, NULL, partial, 2));
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, g, 1, a, 3), IPROF_ESCHEMA);
    CHECK(has_records(m, IPROF_KIND_CONDITIONAL, g, 1, partial, 2));
    iprof_model_free(m);
}

/* ---- allocation failure ------------------------------------------------- */

static int entry_steps(iprof_model *m, fail_alloc *fa)
{
    int64_t big[3 * 60], f[] = {1, 0, 2, 3};
    for (int i = 0; i < 60; i++)
        big[3 * i] = i, big[3 * i + 1] = 0, big[3 * i + 2] = i;
    static const int64_t vi[] = {1, 1, 2, 2}, vi2[] = {2, 1, 3, 4}, one[] = {1};
    int rc = IPROF_OK;
    for (int64_t i = 0; i < 40 && !rc; i++) {
        int64_t g[] = {1 + i % 9, 0, 1 + i % 7, i};
        rc = iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, g, 2, one, 1);
    }
    if (!rc)
        rc = iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f, 2, big, 90);
    if (!rc) /* combine with heap table and growth */
        rc = iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f, 2, big + 30, 150);
    if (!rc)
        rc = iprof_model_add_entry(m, IPROF_KIND_VIRTUAL_INVOKE, f, 2, vi, 4);
    if (!rc)
        rc = iprof_model_add_entry(m, IPROF_KIND_VIRTUAL_INVOKE, f, 2, vi2, 4);
    CHECK(fa->failed_hard ? rc == IPROF_ENOMEM : rc == IPROF_OK);
    return rc;
}

static void test_alloc_failure(void)
{
    int completed = 0;
    long n;
    for (n = 1; n < 10000 && !completed; n++) {
        fail_alloc fa = {.fail_at = 0};
        iprof_allocator a = {fa_malloc, fa_realloc, fa_free, &fa};
        iprof_model *m = fixture(&a);
        fa.fail_at = n;
        entry_steps(m, &fa);
        completed = !fa.failed;
        /* Whatever failed, every entry is still found. */
        int ok = 1;
        for (int k = 0; k < IPROF_KIND_COUNT; k++)
            for (size_t i = 0; i < iprof_model_entry_count(m, k); i++) {
                const iprof_entry *e = iprof_model_entry_at(m, k, i);
                int64_t fr[8];
                size_t d = iprof_context_frames(iprof_entry_context(e), fr, 4);
                ok &= iprof_model_entry_find(m, k, fr, d) == e;
            }
        CHECK(ok);
        if (completed) {
            static const int64_t f[] = {1, 0, 2, 3}, vw[] = {1, 1, 2, 3, 3, 4};
            CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 40);
            CHECK(has_records(m, IPROF_KIND_VIRTUAL_INVOKE, f, 2, vw, 6));
            size_t len;
            const int64_t *r = iprof_entry_records(
                iprof_model_entry_find(m, IPROF_KIND_CONDITIONAL, f, 2), &len);
            CHECK_EQ_INT(len, 180);
            CHECK(r[3 * 20 + 2] == 40 && r[3 * 59 + 2] == 59);
        }
        iprof_model_free(m);
        CHECK_EQ_INT(fa.live_blocks, 0);
        CHECK_EQ_INT(fa.live_bytes, 0);
    }
    CHECK(completed);
    fprintf(stderr, "   %ld allocations failed in turn\n", n - 2);
}

/* ---- dropping by frame -------------------------------------------------- */

static int not_bci_4(int64_t method_id, int64_t bci, void *payload)
{
    (*(int *)payload)++;
    (void)method_id;
    return bci != 4;
}

/* One kind's entries judged frame by frame, callee first, up to the first
 * refused frame (docs/api-1.0.md, 2.4: a keep_entry over the frames). */
static int call_count_frames_pass(const iprof_entry *e, void *payload)
{
    if (iprof_entry_kind(e) != IPROF_KIND_CALL_COUNT)
        return 1;
    for (const iprof_context *c = iprof_entry_context(e); c; c = iprof_context_caller(c))
        if (!not_bci_4(iprof_context_method_id(c), iprof_context_bci(c), payload))
            return 0;
    return 1;
}

static void test_frame_filter_and_drop_method(void)
{
    iprof_model *m;
    static const int64_t sig[] = {0, 0};
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_OK(iprof_model_add_type(m, 0, "T", 1, NULL));
    for (int64_t id = 1; id <= 3; id++)
        CHECK_OK(iprof_model_add_method(m, id, "m", 1, sig, 2, NULL));
    static const int64_t a[] = {2, 0, 1, 4}, b[] = {2, 0}, c[] = {3, 0, 2, 1, 1, 5};
    static const int64_t s1[] = {2, 9, 3, 4}, one[] = {1};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, a, 2, one, 1));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, b, 1, one, 1));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, c, 3, one, 1));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, s1, 2, one, 1));
    /* Any frame at bci 4, callee or caller, takes its entry out. */
    int calls = 0;
    iprof_filter_options fo = IPROF_FILTER_OPTIONS_INIT;
    fo.keep_entry = call_count_frames_pass;
    fo.payload = &calls;
    CHECK_OK(iprof_model_filter(m, &fo));
    CHECK_EQ_INT(calls, 6); /* a stops at its second frame; b: 1; c: all 3 pass */
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 2);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_SAMPLING), 1); /* other kinds untouched */
    /* Drop method 2: c mentions it as a caller, b and s1 as the callee. */
    CHECK_OK(iprof_model_remove_method(m, 2, IPROF_REMOVE_CASCADE));
    CHECK(iprof_model_method_by_id(m, 2) == NULL);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 0);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_SAMPLING), 0);
    CHECK_EQ_INT(iprof_model_method_count(m), 2);
    CHECK_EQ_INT(iprof_model_remove_method(m, 2, IPROF_REMOVE_CASCADE), IPROF_ENOTFOUND);
    /* A monitor's "0:0" is a dummy: dropping a method 0 leaves it. */
    CHECK_OK(iprof_model_add_method(m, 0, "zero", 4, sig, 2, NULL));
    static const int64_t mon[] = {0, 0}, mr[] = {0, 3};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_MONITOR, mon, 1, mr, 2));
    CHECK_OK(iprof_model_remove_method(m, 0, IPROF_REMOVE_CASCADE));
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_MONITOR), 1);
    /* Every kind, by keep_frame: the monitor's dummy frame (0, 0) is shown
     * to the predicate too, and passes. */
    iprof_filter_options ff = IPROF_FILTER_OPTIONS_INIT;
    ff.keep_frame = not_bci_4;
    ff.payload = &calls;
    calls = 0;
    CHECK_OK(iprof_model_filter(m, &ff));
    CHECK_EQ_INT(calls, 1);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_MONITOR), 1);
    iprof_model_free(m);
}

int main(void)
{
    RUN(test_call_count_and_sampling);
    RUN(test_frame_filter_and_drop_method);
    RUN(test_conditional);
    RUN(test_conditional_winner_any_order);
    RUN(test_pairs);
    RUN(test_many_groups);
    RUN(test_rejections);
    RUN(test_entry_limit);
    RUN(test_find_and_access);
    RUN(test_remove_and_retain);
    RUN(test_push_duplicates);
    RUN(test_alloc_failure);
    return check_done();
}
