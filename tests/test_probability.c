/* What a profile tells the compiler (lib/model/probability.c): branch
 * probabilities and receiver-type shares, against values worked out by
 * hand from GraalVM's formulas (docs/format.md) in IEEE double. */
#include "check.h"
#include "check_api.h"

#include <iprof/analysis.h>
#include <iprof/edit.h>
#include <iprof/iprof.h>

static iprof_model *model_with(int kind, const int64_t *records, size_t n)
{
    iprof_model *m = NULL;
    static const int64_t sig[] = {0, 0};
    static const int64_t frame[] = {1, 4};
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_OK(iprof_model_add_type(m, 0, "T", 1, NULL));
    for (int64_t t = 3; t <= 7; t++)
        CHECK_OK(iprof_model_add_type(m, t, "U", 1, NULL));
    CHECK_OK(iprof_model_add_method(m, 1, "m", 1, sig, 2, NULL));
    CHECK_OK(iprof_model_add_entry(m, kind, frame, 1, records, n));
    return m;
}

static const iprof_entry *only_entry(const iprof_model *m, int kind)
{
    return iprof_model_entry_at(m, kind, 0);
}

static void test_two_way_branch(void)
{
    static const int64_t r[] = {17, 0, 600, 21, 1, 400};
    iprof_model *m = model_with(IPROF_KIND_CONDITIONAL, r, 6);
    int64_t bcis[2];
    double p[2];
    size_t n = 99;
    CHECK_OK(iprof_entry_branch_probabilities(only_entry(m, IPROF_KIND_CONDITIONAL), bcis, p, 2, &n));
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(bcis[0], 17);
    CHECK_EQ_INT(bcis[1], 21);
    CHECK(p[0] == 0.6 && p[1] == 0.4);
    /* Too small: the triples needed, nothing written. */
    bcis[0] = 7;
    CHECK_EQ_INT(iprof_entry_branch_probabilities(only_entry(m, IPROF_KIND_CONDITIONAL), bcis, p, 1, &n),
                 IPROF_ELIMIT);
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(bcis[0], 7);
    CHECK_EQ_INT(iprof_entry_branch_probabilities(only_entry(m, IPROF_KIND_CONDITIONAL), NULL, NULL, 0, &n),
                 IPROF_ELIMIT);
    CHECK_EQ_INT(n, 2);
    iprof_model_free(m);
}

/* A switch: case 20 and an invalid-bci case share index 1; case 30 never
 * ran. Raw: 0.3, 0.35, 0.35, 0; the 0 becomes the extremely slow path's
 * 1 - 0.999999 and the others give up eps x (p - eps) / (1 - 3 eps). */
static void test_switch_shared_target(void)
{
    static const int64_t r[] = {10, 0, 30, 20, 1, 60, -5, 1, 10, 30, 2, 0};
    iprof_model *m = model_with(IPROF_KIND_CONDITIONAL, r, 12);
    int64_t bcis[4];
    double p[4];
    size_t n = 0;
    CHECK_OK(iprof_entry_branch_probabilities(only_entry(m, IPROF_KIND_CONDITIONAL), bcis, p, 4, &n));
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_INT(bcis[0], 10);
    CHECK_EQ_INT(bcis[1], 20);
    CHECK_EQ_INT(bcis[2], 30);
    CHECK(p[0] == 0.29999970000009996);
    CHECK(p[1] == 0.6999992999999);
    CHECK(p[2] == 1.0000000000287557e-06);
    CHECK(p[2] == IPROF_EXTREMELY_SLOW_PATH_PROBABILITY);
    iprof_model_free(m);
}

static void test_branch_refusals(void)
{
    static const int64_t zero[] = {3, 0, 0, 5, 1, 0};
    iprof_model *m = model_with(IPROF_KIND_CONDITIONAL, zero, 6);
    int64_t bcis[4];
    double p[4];
    size_t n = 9;
    CHECK_EQ_INT(iprof_entry_branch_probabilities(only_entry(m, IPROF_KIND_CONDITIONAL), bcis, p, 4, &n),
                 IPROF_ENOTFOUND);
    CHECK_EQ_INT(n, 0);
    CHECK_EQ_INT(iprof_entry_branch_probabilities(NULL, bcis, p, 4, &n), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_entry_branch_probabilities(only_entry(m, IPROF_KIND_CONDITIONAL), bcis, p, 4, NULL),
                 IPROF_EINVAL);
    CHECK_EQ_INT(iprof_entry_branch_probabilities(only_entry(m, IPROF_KIND_CONDITIONAL), NULL, p, 4, &n),
                 IPROF_EINVAL);
    iprof_model_free(m);
    static const int64_t vi[] = {3, 1};
    m = model_with(IPROF_KIND_VIRTUAL_INVOKE, vi, 2);
    CHECK_EQ_INT(iprof_entry_branch_probabilities(only_entry(m, IPROF_KIND_VIRTUAL_INVOKE), bcis, p, 4, &n),
                 IPROF_EINVAL);
    iprof_model_free(m);

    /* A record count that is not a multiple of 3 (a lenient load keeps it). */
    static const char doc[] = "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
                              "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
                              "\"conditionalProfiles\":[{\"ctx\":\"1:2\",\"records\":[1,0,5,2]}]}";
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(doc, strlen(doc))));
    CHECK_EQ_INT(iprof_entry_branch_probabilities(only_entry(m, IPROF_KIND_CONDITIONAL), bcis, p, 4, &n),
                 IPROF_ESCHEMA);
    iprof_model_free(m);
    iprof_reader_free(r);
}

/* Every record counts, as in GraalVM's PGOApplyProfilesPhase: index 0's
 * three records (two repeating (3, 0)) share its sum 11 (11/39 each),
 * case 30 never ran and is clamped among 5 records, and bci 3 gets the
 * sum of its index's three probabilities, once. Worked out from
 * docs/format.md in double. */
static void test_repeated_records(void)
{
#define DOC(R)                                                                              \
    "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],\"methods\":[{\"id\":1,"   \
    "\"name\":\"m\",\"signature\":[0,0]}],\"conditionalProfiles\":[{\"ctx\":\"1:4\","        \
    "\"records\":[" R "]}]}"
    static const char *const docs[2] = {DOC("3,0,5,7,1,2,3,0,6,30,2,0,3,0,0"),
                                         DOC("3,0,11,7,1,2,30,2,0")};
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    int64_t bcis[2][5];
    double p[2][5];
    size_t n[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        iprof_model *m = NULL;
        CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(docs[i], strlen(docs[i]))));
        CHECK_OK(iprof_entry_branch_probabilities(only_entry(m, IPROF_KIND_CONDITIONAL), bcis[i],
                                                  p[i], 5, &n[i]));
        iprof_model_free(m);
    }
    CHECK_EQ_INT(n[0], 3);
    CHECK_EQ_INT(bcis[0][0], 3);
    CHECK_EQ_INT(bcis[0][1], 7);
    CHECK_EQ_INT(bcis[0][2], 30);
    CHECK(p[0][0] == 0.8461529999996154);
    CHECK(p[0][1] == 0.15384600000038462);
    CHECK(p[0][2] == 1.0000000000287557e-06);
    /* Folding the repeats into one record changes what GraalVM computes:
     * the clamp counts 3 records, not 5. */
    CHECK_EQ_INT(n[1], 3);
    CHECK(p[1][0] == 0.8461529999993077);
    CHECK(p[1][1] == 0.15384600000069232);
    CHECK(p[1][2] == 1.0000000000287557e-06);

    /* A probability of exactly -1 (a negative count of a lenient read) is
     * a pair like any other; a negative total is not 0, so GraalVM
     * applies it. */
    static const char *const neg[2] = {DOC("10,0,-1,20,1,2"), DOC("10,0,-3,20,1,1")};
#undef DOC
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(neg[0], strlen(neg[0]))));
    CHECK_OK(iprof_entry_branch_probabilities(only_entry(m, IPROF_KIND_CONDITIONAL), bcis[0], p[0],
                                              5, &n[0]));
    CHECK_EQ_INT(n[0], 2);
    CHECK_EQ_INT(bcis[0][0], 10);
    CHECK_EQ_INT(bcis[0][1], 20);
    CHECK(p[0][0] == -1.0 && p[0][1] == 2.0);
    iprof_model_free(m);
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(neg[1], strlen(neg[1]))));
    CHECK_OK(iprof_entry_branch_probabilities(only_entry(m, IPROF_KIND_CONDITIONAL), bcis[0], p[0],
                                              5, &n[0]));
    CHECK_EQ_INT(n[0], 2);
    CHECK(p[0][0] == 1.5 && p[0][1] == -0.5);
    iprof_model_free(m);
    iprof_reader_free(r);
}

/* A bci under two indexes: GraalVM's map from bci to probability takes
 * the later record's index; one pair per bci, in the order of its first
 * record. Index 0: 3/4; index 1 (two records): 1/8 each, 1/4 together. */
static void test_later_index_wins(void)
{
    static const int64_t fwd[] = {10, 0, 3, 10, 1, 1, 20, 1, 0};
    static const int64_t rev[] = {10, 1, 1, 10, 0, 3, 20, 1, 0};
    int64_t bcis[3];
    double p[3];
    size_t n = 0;
    iprof_model *m = model_with(IPROF_KIND_CONDITIONAL, fwd, 9);
    CHECK_OK(iprof_entry_branch_probabilities(only_entry(m, IPROF_KIND_CONDITIONAL), bcis, p, 3, &n));
    CHECK_EQ_INT(n, 2);
    CHECK(bcis[0] == 10 && p[0] == 0.25);
    CHECK(bcis[1] == 20 && p[1] == 0.25);
    iprof_model_free(m);
    m = model_with(IPROF_KIND_CONDITIONAL, rev, 9);
    CHECK_OK(iprof_entry_branch_probabilities(only_entry(m, IPROF_KIND_CONDITIONAL), bcis, p, 3, &n));
    CHECK_EQ_INT(n, 2);
    CHECK(bcis[0] == 10 && p[0] == 0.75);
    CHECK(bcis[1] == 20 && p[1] == 0.25);
    iprof_model_free(m);
}

/* Context 20306:8 of jsonata-cli (java.util.regex.Pattern.escape): a
 * switch of 33 successors, 76 records, 43 of them bci -5 (cases sharing
 * a target), one count of 1. Index 2 has 14 records, index 1 has 9 and
 * index 32 (bci 8) 23, all clamped record by record. */
static void test_corpus_switch(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/jsonata-cli-0.4.0.iprof", check_corpus_dir());
    FILE *f = fopen(path, "rb");
    if (!f) {
        SKIP("jsonata-cli-0.4.0.iprof absent (IPROF_CORPUS_DIR)");
        return;
    }
    fclose(f);
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_OK(iprof_model_load(&m, r, SRC_PATH(path)));
    iprof_reader_free(r);
    static const int64_t frame[] = {20306, 8};
    const iprof_entry *e = iprof_model_entry_find(m, IPROF_KIND_CONDITIONAL, frame, 1);
    size_t len = 0;
    iprof_entry_records(e, &len);
    CHECK_EQ_INT(len, 228);
    int64_t bcis[76];
    double p[76];
    size_t n = 0;
    CHECK_OK(iprof_entry_branch_probabilities(e, bcis, p, 76, &n));
    CHECK_EQ_INT(n, 33);
    const double eps = 1.0000000000287557e-06;
    int ok = n == 33;
    for (size_t i = 0; ok && i < n; i++) {
        double want = bcis[i] == 1316 ? 0.9999379999999981
                      : bcis[i] == 329 ? 9.000000000258801e-06
                      : bcis[i] == 8   ? 2.300000000066138e-05
                                       : eps;
        ok = p[i] == want;
    }
    CHECK(ok);
    CHECK(bcis[0] == 324 && bcis[1] == 329 && bcis[2] == 1316 && bcis[5] == 8 && bcis[32] == 1292);
    iprof_model_free(m);
}

/* Many indexes, most of them repeated: grouping sorts, so this is fast,
 * and every group's records share its sum. */
static void test_many_records(void)
{
    enum { N = 60000 };
    check_text t = {0};
    tx_add(&t, "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
               "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
               "\"conditionalProfiles\":[{\"ctx\":\"1:2\",\"records\":[");
    for (size_t i = 0; i < N; i++)
        tx_add(&t, "%s%zu,%zu,1", i ? "," : "", i, (i * 7919) % 1000);
    tx_add(&t, "]}]}");
    iprof_reader *reader = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&reader, NULL));
    CHECK_OK(iprof_model_load(&m, reader, SRC_BUFFER(t.s, t.len)));
    iprof_reader_free(reader);
    free(t.s);
    static int64_t bcis[N];
    static double p[N];
    size_t n = 0;
    CHECK_OK(iprof_entry_branch_probabilities(only_entry(m, IPROF_KIND_CONDITIONAL), bcis, p, N, &n));
    CHECK_EQ_INT(n, N);
    /* 60 records per index, each index 60/60000 of the total. */
    int ok = 1;
    for (size_t i = 0; i < N; i++)
        ok &= bcis[i] == (int64_t)i && p[i] > 0.000999999 && p[i] < 0.001000001;
    CHECK(ok);
    iprof_model_free(m);
}

static void test_type_shares(void)
{
    static const int64_t r[] = {6, 400, 5, 600, 5, 0};
    iprof_model *m = model_with(IPROF_KIND_VIRTUAL_INVOKE, r, 6);
    int64_t types[3];
    double s[3], other = 0;
    size_t n = 0;
    CHECK_OK(iprof_entry_type_shares(only_entry(m, IPROF_KIND_VIRTUAL_INVOKE), types, s, 3, &n, &other));
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(types[0], 5);
    CHECK_EQ_INT(types[1], 6);
    CHECK(s[0] == 0.5999994000000001 && s[1] == 0.3999996);
    CHECK(other == IPROF_EXTREMELY_SLOW_PATH_PROBABILITY);
    CHECK_EQ_INT(iprof_entry_type_shares(only_entry(m, IPROF_KIND_VIRTUAL_INVOKE), types, s, 2, &n, NULL),
                 IPROF_ELIMIT);
    CHECK_EQ_INT(n, 3);
    iprof_model_free(m);

    /* Ties by type id; instanceof and monitor entries too. */
    static const int64_t tie[] = {7, 10, 3, 10};
    m = model_with(IPROF_KIND_INSTANCEOF, tie, 4);
    CHECK_OK(iprof_entry_type_shares(only_entry(m, IPROF_KIND_INSTANCEOF), types, s, 3, &n, NULL));
    CHECK_EQ_INT(n, 2);
    CHECK(types[0] == 3 && types[1] == 7 && s[0] == 0.49999950000000004 && s[1] == s[0]);
    iprof_model_free(m);

    /* A total below 1 counts as 1; no pairs: not found; other kinds refused. */
    static const int64_t none[] = {4, 0};
    m = model_with(IPROF_KIND_VIRTUAL_INVOKE, none, 2);
    CHECK_OK(iprof_entry_type_shares(only_entry(m, IPROF_KIND_VIRTUAL_INVOKE), types, s, 3, &n, NULL));
    CHECK(n == 1 && types[0] == 4 && s[0] == 0.0);
    iprof_model_free(m);
    m = model_with(IPROF_KIND_VIRTUAL_INVOKE, none, 0);
    CHECK_EQ_INT(iprof_entry_type_shares(only_entry(m, IPROF_KIND_VIRTUAL_INVOKE), types, s, 3, &n, NULL),
                 IPROF_ENOTFOUND);
    iprof_model_free(m);
    static const int64_t cc[] = {5};
    static const int64_t f0[] = {1, 0};
    CHECK_OK(iprof_model_new(&m, NULL));
    static const int64_t sig[] = {0, 0};
    CHECK_OK(iprof_model_add_type(m, 0, "T", 1, NULL));
    CHECK_OK(iprof_model_add_method(m, 1, "m", 1, sig, 2, NULL));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f0, 1, cc, 1));
    CHECK_EQ_INT(iprof_entry_type_shares(only_entry(m, IPROF_KIND_CALL_COUNT), types, s, 3, &n, NULL),
                 IPROF_EINVAL);
    iprof_model_free(m);
}

int main(void)
{
    RUN(test_two_way_branch);
    RUN(test_switch_shared_target);
    RUN(test_branch_refusals);
    RUN(test_many_records);
    RUN(test_repeated_records);
    RUN(test_later_index_wins);
    RUN(test_corpus_switch);
    RUN(test_type_shares);
    return check_done();
}
