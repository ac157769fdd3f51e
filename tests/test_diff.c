/*
 * iprof_diff (include/iprof/diff.h) through the public API: exact values on
 * small hand-built models whose ids differ for the same names, empty
 * models, a model against itself, arguments, and allocation failure; every
 * field of the structs iprof_diff_get_* fill checked against what the two
 * models say by themselves (entry counts and totals, shares, ranks), on
 * those models and on a pair of corpus profiles.
 */
#include "check.h"
#include "check_api.h"
#include "check_alloc.h"

#include <math.h>

#include <iprof/analysis.h>
#include <iprof/diff.h>
#include <iprof/edit.h>
#include <iprof/iprof.h>
#include <iprof/transform.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void add_type(iprof_model *m, int64_t id, const char *name)
{
    CHECK_OK(iprof_model_add_type(m, id, name, strlen(name), NULL));
}

static void add_method(iprof_model *m, int64_t id, const char *name, const int64_t *sig,
                       size_t n)
{
    CHECK_OK(iprof_model_add_method(m, id, name, strlen(name), sig, n, NULL));
}

static void add_entry(iprof_model *m, int kind, const int64_t *frames, size_t nframes,
                      const int64_t *recs, size_t nrecs)
{
    CHECK_OK(iprof_model_add_entry(m, kind, frames, nframes, recs, nrecs));
}

/* A: types T, void, int; methods T.f(), T.g(int), T.onlyA(). */
static iprof_model *model_a(const iprof_allocator *alloc)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, alloc));
    add_type(m, 1, "T");
    add_type(m, 2, "void");
    add_type(m, 3, "int");
    const int64_t s0[] = {1, 2}, s1[] = {1, 2, 3};
    add_method(m, 10, "f", s0, 2);
    add_method(m, 11, "g", s1, 3);
    add_method(m, 12, "onlyA", s0, 2);
    const int64_t f0[] = {10, 0}, g0[] = {11, 0}, a0[] = {12, 0};
    const int64_t c100[] = {100}, c50[] = {50}, c30[] = {30}, c10[] = {10};
    add_entry(m, IPROF_KIND_CALL_COUNT, f0, 1, c100, 1);
    add_entry(m, IPROF_KIND_CALL_COUNT, g0, 1, c50, 1);
    add_entry(m, IPROF_KIND_CALL_COUNT, a0, 1, c50, 1);
    const int64_t deep[] = {11, 5, 10, 3}, f7[] = {10, 7};
    add_entry(m, IPROF_KIND_SAMPLING, deep, 2, c30, 1);
    add_entry(m, IPROF_KIND_SAMPLING, f7, 1, c10, 1);
    const int64_t cond[] = {5, 0, 6, 9, 1, 4};
    add_entry(m, IPROF_KIND_CONDITIONAL, f0, 1, cond, N(cond));
    const int64_t mon0[] = {0, 0}, mon[] = {3, 5, 1, 2};
    add_entry(m, IPROF_KIND_MONITOR, mon0, 1, mon, N(mon));
    return m;
}

/* B: the same names with other ids, plus T.onlyB() and T.f(int). */
static iprof_model *model_b(void)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, NULL));
    add_type(m, 7, "int");
    add_type(m, 8, "void");
    add_type(m, 9, "T");
    const int64_t s0[] = {9, 8}, s1[] = {9, 8, 7};
    add_method(m, 20, "g", s1, 3);
    add_method(m, 21, "f", s0, 2);
    add_method(m, 22, "onlyB", s0, 2);
    add_method(m, 23, "f", s1, 3);
    const int64_t f0[] = {21, 0}, g0[] = {20, 0}, b0[] = {22, 0};
    const int64_t c300[] = {300}, c100[] = {100}, c30[] = {30}, c10[] = {10};
    add_entry(m, IPROF_KIND_CALL_COUNT, f0, 1, c300, 1);
    add_entry(m, IPROF_KIND_CALL_COUNT, g0, 1, c100, 1);
    add_entry(m, IPROF_KIND_CALL_COUNT, b0, 1, c100, 1);
    const int64_t deep[] = {20, 5, 21, 3}, f8[] = {21, 8};
    add_entry(m, IPROF_KIND_SAMPLING, deep, 2, c30, 1);
    add_entry(m, IPROF_KIND_SAMPLING, f8, 1, c10, 1);
    const int64_t mon0[] = {0, 0}, mon[] = {7, 7};
    add_entry(m, IPROF_KIND_MONITOR, mon0, 1, mon, N(mon));
    return m;
}

/* The three fillers, each into a struct filled with a pattern first, so a
 * field a filler forgets shows; a failed call leaves the pattern, which no
 * check below accepts (counts of 0xabab..., a NaN-free but absurd double). */
static iprof_diff_summary summary(const iprof_diff *d)
{
    iprof_diff_summary s;
    memset(&s, 0xab, sizeof s);
    s.version = IPROF_DIFF_SUMMARY_VERSION;
    CHECK_OK(iprof_diff_get_summary(d, &s));
    return s;
}

static iprof_diff_kind_summary kind_of(const iprof_diff *d, int kind)
{
    iprof_diff_kind_summary k;
    memset(&k, 0xab, sizeof k);
    k.version = IPROF_DIFF_KIND_SUMMARY_VERSION;
    CHECK_OK(iprof_diff_get_kind(d, kind, &k));
    return k;
}

static iprof_diff_change change(const iprof_diff *d, int kind, size_t i)
{
    iprof_diff_change c;
    memset(&c, 0xab, sizeof c);
    c.version = IPROF_DIFF_CHANGE_VERSION;
    CHECK_OK(iprof_diff_get_change(d, kind, i, &c));
    return c;
}

/* A change's context as text: A's entry, else B's, in its own model. */
static void check_describe(const iprof_diff *d, const iprof_model *a, const iprof_model *b,
                           int kind, size_t i, const char *want)
{
    iprof_diff_change c = change(d, kind, i);
    int side = c.entry[IPROF_DIFF_A] ? IPROF_DIFF_A : IPROF_DIFF_B;
    char buf[256] = "(none)";
    size_t n = 0;
    if (c.entry[side])
        n = iprof_model_context_describe(side == IPROF_DIFF_A ? a : b,
                                         iprof_entry_context(c.entry[side]), buf, sizeof buf);
    CHECK_EQ_STR(buf, want);
    CHECK_EQ_INT(n, strlen(want));
}

static const char *method_name(const iprof_method *x)
{
    return x ? iprof_method_name(x, NULL) : "(null)";
}

/* ---- every field against the models ------------------------------------- */

static int same_double(double x, double y)
{
    return memcmp(&x, &y, sizeof x) == 0;
}

#define CHECK_SAME_DOUBLE(x, y) CHECK(same_double((x), (y)))

/* What a side's model says of a kind by itself: its entry count and the sum
 * of its entry totals (iprof_entry_total, the count mass the diff weighs). */
static uint64_t kind_total(const iprof_model *m, int kind)
{
    uint64_t t = 0;
    for (size_t i = 0; i < iprof_model_entry_count(m, kind); i++)
        t += (uint64_t)iprof_entry_total(iprof_model_entry_at(m, kind, i));
    return t;
}

/* Every field of every struct d gives, checked against what the models a
 * and b (A and B of d) say by themselves and against the relations the
 * fields have with each other (docs/api.md, "Comparing"): counts that add
 * up to the models' counts, totals that are the sums of the entry totals,
 * overlaps, shares, deltas and relative changes as their formulas, the
 * changes ranked by |delta| and no more than top. */
static void check_structs(const iprof_diff *d, const iprof_model *a, const iprof_model *b,
                          size_t top)
{
    const iprof_model *side_model[2] = {a, b};
    iprof_diff_summary s = summary(d);
    CHECK_EQ_INT(s.version, IPROF_DIFF_SUMMARY_VERSION);
    for (int side = IPROF_DIFF_A; side <= IPROF_DIFF_B; side++) {
        CHECK_EQ_INT(s.method_only_count[side] + s.method_common_count[side],
                     iprof_model_method_count(side_model[side]));
        CHECK(iprof_diff_method_only_at(d, side, s.method_only_count[side]) == NULL);
        if (s.method_only_count[side] > 0)
            CHECK(iprof_diff_method_only_at(d, side, s.method_only_count[side] - 1) != NULL);
    }
    CHECK((s.staleness >= 0.0 && s.staleness <= 1.0) || s.staleness == -1.0);
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        iprof_diff_kind_summary ks = kind_of(d, k);
        CHECK_EQ_INT(ks.version, IPROF_DIFF_KIND_SUMMARY_VERSION);
        for (int side = IPROF_DIFF_A; side <= IPROF_DIFF_B; side++) {
            const iprof_model *m = side_model[side];
            CHECK_EQ_INT(ks.context_only_count[side] + ks.context_common_count[side],
                         iprof_model_entry_count(m, k));
            CHECK(ks.total[side] == kind_total(m, k));
            CHECK(ks.common_total[side] <= ks.total[side]);
            if (ks.total[side] == 0)
                CHECK_SAME_DOUBLE(ks.overlap[side], -1.0);
            else
                CHECK_SAME_DOUBLE(ks.overlap[side],
                                  (double)ks.common_total[side] / (double)ks.total[side]);
        }
        CHECK((ks.staleness >= 0.0 && ks.staleness <= 1.0) || ks.staleness == -1.0);
        CHECK(ks.change_count <= ks.context_only_count[0] + ks.context_only_count[1] +
                                     ks.context_common_count[0]);
        CHECK(ks.change_count <= top);
        double last = INFINITY;
        for (size_t i = 0; i < ks.change_count; i++) {
            iprof_diff_change c = change(d, k, i);
            CHECK_EQ_INT(c.version, IPROF_DIFF_CHANGE_VERSION);
            CHECK(c.entry[0] != NULL || c.entry[1] != NULL);
            for (int side = IPROF_DIFF_A; side <= IPROF_DIFF_B; side++) {
                const iprof_entry *e = c.entry[side];
                CHECK(!e || iprof_entry_kind(e) == k);
                CHECK(c.value[side] == (e ? (uint64_t)iprof_entry_total(e) : 0));
                double share = ks.total[side] ? (double)c.value[side] / (double)ks.total[side]
                                              : 0.0;
                CHECK_SAME_DOUBLE(c.share[side], share);
            }
            CHECK_SAME_DOUBLE(c.delta, c.share[IPROF_DIFF_B] - c.share[IPROF_DIFF_A]);
            CHECK(c.delta != 0.0);
            if (c.share[IPROF_DIFF_A] == 0.0)
                CHECK(isinf(c.relative) && c.relative > 0);
            else
                CHECK_SAME_DOUBLE(c.relative, c.delta / c.share[IPROF_DIFF_A]);
            CHECK(fabs(c.delta) <= last);
            last = fabs(c.delta);
        }
        /* Past the last change: not found, out unchanged. */
        iprof_diff_change c, before;
        memset(&c, 0xab, sizeof c);
        c.version = IPROF_DIFF_CHANGE_VERSION;
        before = c;
        CHECK_EQ_INT(iprof_diff_get_change(d, k, ks.change_count, &c), IPROF_ENOTFOUND);
        CHECK(memcmp(&c, &before, sizeof c) == 0);
    }
}

/* The structs, with every diff the tests below check value by value. */
static void test_structs(void)
{
    iprof_model *a = model_a(NULL), *b = model_b(), *e = NULL;
    CHECK_OK(iprof_model_new(&e, NULL));
    iprof_diff_options top1 = IPROF_DIFF_OPTIONS_INIT;
    top1.top = 1;
    const struct {
        const iprof_model *a, *b;
        const iprof_diff_options *o;
    } pairs[] = {{a, b, NULL}, {b, a, NULL}, {a, b, &top1}, {a, a, NULL}, {e, e, NULL},
                 {e, a, NULL}, {a, e, NULL}};
    for (size_t p = 0; p < N(pairs); p++) {
        iprof_diff *d = NULL;
        CHECK_OK(iprof_diff_new(&d, pairs[p].a, pairs[p].b, pairs[p].o));
        if (d)
            check_structs(d, pairs[p].a, pairs[p].b,
                          pairs[p].o ? pairs[p].o->top : IPROF_DIFF_DEFAULT_TOP);
        iprof_diff_free(d);
    }

    /* A few values by hand (A against B), as test_values has them. */
    iprof_diff *d = NULL;
    CHECK_OK(iprof_diff_new(&d, a, b, NULL));
    iprof_diff_summary s = IPROF_DIFF_SUMMARY_INIT;
    CHECK_OK(iprof_diff_get_summary(d, &s));
    CHECK_EQ_INT(s.method_only_count[IPROF_DIFF_A], 1);
    CHECK_EQ_INT(s.method_only_count[IPROF_DIFF_B], 2);
    CHECK_EQ_INT(s.method_common_count[IPROF_DIFF_B], 2);
    CHECK(s.staleness > 0 && s.staleness < 1);
    iprof_diff_kind_summary ks = IPROF_DIFF_KIND_SUMMARY_INIT;
    CHECK_OK(iprof_diff_get_kind(d, IPROF_KIND_CALL_COUNT, &ks));
    CHECK_EQ_INT(ks.context_only_count[IPROF_DIFF_B], 1);
    CHECK_EQ_INT(ks.total[IPROF_DIFF_A], 200);
    CHECK_EQ_INT(ks.total[IPROF_DIFF_B], 500);
    CHECK_EQ_INT(ks.common_total[IPROF_DIFF_B], 400);
    CHECK(ks.overlap[IPROF_DIFF_A] == 0.75);
    CHECK(ks.overlap[IPROF_DIFF_B] == 0.8);
    CHECK_EQ_INT(ks.change_count, 4);
    CHECK_OK(iprof_diff_get_kind(d, IPROF_KIND_CONDITIONAL, &ks));
    CHECK(ks.overlap[IPROF_DIFF_B] == -1.0);
    CHECK(ks.staleness == 1.0); /* only A has count mass */
    CHECK_OK(iprof_diff_get_kind(d, IPROF_KIND_INSTANCEOF, &ks));
    CHECK(ks.staleness == -1.0);
    iprof_diff_change c = IPROF_DIFF_CHANGE_INIT;
    CHECK_OK(iprof_diff_get_change(d, IPROF_KIND_CALL_COUNT, 1, &c)); /* onlyB */
    CHECK(c.entry[IPROF_DIFF_A] == NULL && c.entry[IPROF_DIFF_B] != NULL);
    CHECK_EQ_INT(c.value[IPROF_DIFF_B], 100);
    CHECK(c.share[IPROF_DIFF_B] == 0.2 && c.delta == 0.2);
    CHECK(isinf(c.relative));
    CHECK_OK(iprof_diff_get_change(d, IPROF_KIND_CALL_COUNT, 2, &c)); /* f */
    CHECK_EQ_INT(c.value[IPROF_DIFF_A], 100);
    CHECK_EQ_INT(c.value[IPROF_DIFF_B], 300);
    CHECK(c.relative == (0.6 - 0.5) / 0.5);
    iprof_diff_free(d);
    iprof_model_free(e);
    iprof_model_free(a);
    iprof_model_free(b);
}

/* Each failure is IPROF_EINVAL (or IPROF_ENOTFOUND for an index) and
 * leaves out as it was, byte for byte. */
static void test_struct_failures(void)
{
    iprof_model *a = model_a(NULL), *b = model_b();
    iprof_diff *d = NULL;
    CHECK_OK(iprof_diff_new(&d, a, b, NULL));
    const unsigned int versions[] = {0, 2, 99};

    iprof_diff_summary s, s0;
    memset(&s, 0xab, sizeof s);
    s.version = IPROF_DIFF_SUMMARY_VERSION;
    s0 = s;
    CHECK_EQ_INT(iprof_diff_get_summary(NULL, &s), IPROF_EINVAL);
    CHECK(memcmp(&s, &s0, sizeof s) == 0);
    CHECK_EQ_INT(iprof_diff_get_summary(d, NULL), IPROF_EINVAL);
    for (size_t v = 0; v < N(versions); v++) {
        s.version = versions[v];
        s0 = s;
        CHECK_EQ_INT(iprof_diff_get_summary(d, &s), IPROF_EINVAL);
        CHECK(memcmp(&s, &s0, sizeof s) == 0);
    }

    const int kinds[] = {-1, IPROF_KIND_COUNT, 1000};
    iprof_diff_kind_summary ks, ks0;
    memset(&ks, 0xab, sizeof ks);
    ks.version = IPROF_DIFF_KIND_SUMMARY_VERSION;
    ks0 = ks;
    CHECK_EQ_INT(iprof_diff_get_kind(NULL, IPROF_KIND_CALL_COUNT, &ks), IPROF_EINVAL);
    CHECK(memcmp(&ks, &ks0, sizeof ks) == 0);
    CHECK_EQ_INT(iprof_diff_get_kind(d, IPROF_KIND_CALL_COUNT, NULL), IPROF_EINVAL);
    for (size_t k = 0; k < N(kinds); k++) {
        CHECK_EQ_INT(iprof_diff_get_kind(d, kinds[k], &ks), IPROF_EINVAL);
        CHECK(memcmp(&ks, &ks0, sizeof ks) == 0);
    }
    for (size_t v = 0; v < N(versions); v++) {
        ks.version = versions[v];
        ks0 = ks;
        CHECK_EQ_INT(iprof_diff_get_kind(d, IPROF_KIND_CALL_COUNT, &ks), IPROF_EINVAL);
        CHECK(memcmp(&ks, &ks0, sizeof ks) == 0);
    }

    iprof_diff_change c, c0;
    memset(&c, 0xab, sizeof c);
    c.version = IPROF_DIFF_CHANGE_VERSION;
    c0 = c;
    CHECK_EQ_INT(iprof_diff_get_change(NULL, IPROF_KIND_CALL_COUNT, 0, &c), IPROF_EINVAL);
    CHECK(memcmp(&c, &c0, sizeof c) == 0);
    CHECK_EQ_INT(iprof_diff_get_change(d, IPROF_KIND_CALL_COUNT, 0, NULL), IPROF_EINVAL);
    for (size_t k = 0; k < N(kinds); k++) {
        CHECK_EQ_INT(iprof_diff_get_change(d, kinds[k], 0, &c), IPROF_EINVAL);
        CHECK(memcmp(&c, &c0, sizeof c) == 0);
    }
    /* 4 call-count changes, none of instanceof; an index far out. */
    CHECK_EQ_INT(iprof_diff_get_change(d, IPROF_KIND_CALL_COUNT, 4, &c), IPROF_ENOTFOUND);
    CHECK_EQ_INT(iprof_diff_get_change(d, IPROF_KIND_INSTANCEOF, 0, &c), IPROF_ENOTFOUND);
    CHECK_EQ_INT(iprof_diff_get_change(d, IPROF_KIND_CALL_COUNT, (size_t)-1, &c),
                 IPROF_ENOTFOUND);
    CHECK(memcmp(&c, &c0, sizeof c) == 0);
    for (size_t v = 0; v < N(versions); v++) {
        c.version = versions[v];
        c0 = c;
        CHECK_EQ_INT(iprof_diff_get_change(d, IPROF_KIND_CALL_COUNT, 0, &c), IPROF_EINVAL);
        CHECK(memcmp(&c, &c0, sizeof c) == 0);
        /* The version is checked before the index. */
        CHECK_EQ_INT(iprof_diff_get_change(d, IPROF_KIND_CALL_COUNT, 4, &c), IPROF_EINVAL);
    }
    iprof_diff_free(d);
    iprof_model_free(a);
    iprof_model_free(b);
}

/* Two real profiles of different programs, both ways, with every change
 * kept: thousands of values checked against the models. */
static void test_structs_corpus(void)
{
    const char *dir = check_corpus_dir();
    if (!dir)
        SKIP("corpus folder (IPROF_CORPUS_DIR) absent");
    static const char *files[] = {"jsonata-cli-0.4.0.iprof", "assorted-benchmarks-0.4.0.iprof"};
    iprof_reader *r = NULL;
    iprof_model *m[2] = {NULL, NULL};
    CHECK_OK(iprof_reader_new(&r, NULL));
    for (int f = 0; f < 2; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        CHECK_OK(iprof_model_load(&m[f], r, SRC_PATH(path)));
    }
    iprof_diff_options o = IPROF_DIFF_OPTIONS_INIT;
    o.top = (size_t)-1;
    for (int swap = 0; swap < 2 && m[0] && m[1]; swap++) {
        iprof_diff *d = NULL;
        CHECK_OK(iprof_diff_new(&d, m[swap], m[1 - swap], &o));
        if (!d)
            continue;
        check_structs(d, m[swap], m[1 - swap], (size_t)-1);
        size_t changes = 0;
        for (int k = 0; k < IPROF_KIND_COUNT; k++)
            changes += kind_of(d, k).change_count;
        CHECK(changes > 1000); /* the comparison did cover something */
        iprof_diff_free(d);
    }
    iprof_model_free(m[0]);
    iprof_model_free(m[1]);
    iprof_reader_free(r);
}

static void test_values(void)
{
    iprof_model *a = model_a(NULL), *b = model_b();
    iprof_diff *d = NULL;
    CHECK_OK(iprof_diff_new(&d, a, b, NULL));
    CHECK(d != NULL);

    /* Methods by names, not ids. */
    CHECK_EQ_INT(summary(d).method_only_count[IPROF_DIFF_A], 1);
    CHECK_EQ_STR(method_name(iprof_diff_method_only_at(d, IPROF_DIFF_A, 0)), "onlyA");
    CHECK(iprof_diff_method_only_at(d, IPROF_DIFF_A, 1) == NULL);
    CHECK_EQ_INT(summary(d).method_only_count[IPROF_DIFF_B], 2);
    CHECK_EQ_STR(method_name(iprof_diff_method_only_at(d, IPROF_DIFF_B, 0)), "onlyB");
    const iprof_method *f_int = iprof_diff_method_only_at(d, IPROF_DIFF_B, 1);
    CHECK_EQ_STR(method_name(f_int), "f");
    CHECK_EQ_INT(f_int ? iprof_method_id(f_int) : -1, 23);
    CHECK_EQ_INT(summary(d).method_common_count[IPROF_DIFF_A], 2);
    CHECK_EQ_INT(summary(d).method_common_count[IPROF_DIFF_B], 2);

    /* Call counts: A 100/50/50 (f, g, onlyA), B 300/100/100 (f, g, onlyB). */
    const int cc = IPROF_KIND_CALL_COUNT;
    CHECK_EQ_INT(kind_of(d, cc).context_only_count[IPROF_DIFF_A], 1);
    CHECK_EQ_INT(kind_of(d, cc).context_only_count[IPROF_DIFF_B], 1);
    CHECK_EQ_INT(kind_of(d, cc).context_common_count[IPROF_DIFF_A], 2);
    CHECK_EQ_INT(kind_of(d, cc).context_common_count[IPROF_DIFF_B], 2);
    CHECK_EQ_INT(kind_of(d, cc).total[IPROF_DIFF_A], 200);
    CHECK_EQ_INT(kind_of(d, cc).total[IPROF_DIFF_B], 500);
    CHECK_EQ_INT(kind_of(d, cc).common_total[IPROF_DIFF_A], 150);
    CHECK_EQ_INT(kind_of(d, cc).common_total[IPROF_DIFF_B], 400);
    CHECK(kind_of(d, cc).overlap[IPROF_DIFF_A] == 0.75);
    CHECK(kind_of(d, cc).overlap[IPROF_DIFF_B] == 0.8);
    /* Ranked by |delta|: onlyA -0.25, onlyB +0.2, f +0.1, g -0.05. */
    CHECK_EQ_INT(kind_of(d, cc).change_count, 4);
    check_describe(d, a, b, cc, 0, "T.onlyA:0");
    check_describe(d, a, b, cc, 1, "T.onlyB:0");
    check_describe(d, a, b, cc, 2, "T.f:0");
    check_describe(d, a, b, cc, 3, "T.g:0");
    CHECK(change(d, cc, 0).delta == -0.25);
    CHECK(change(d, cc, 0).relative == -1.0);
    CHECK(change(d, cc, 0).entry[IPROF_DIFF_A] != NULL);
    CHECK(change(d, cc, 0).entry[IPROF_DIFF_B] == NULL);
    CHECK_EQ_INT(change(d, cc, 0).value[IPROF_DIFF_A], 50);
    CHECK_EQ_INT(change(d, cc, 0).value[IPROF_DIFF_B], 0);
    CHECK(change(d, cc, 1).delta == 0.2);
    CHECK(isinf(change(d, cc, 1).relative));
    CHECK(change(d, cc, 1).entry[IPROF_DIFF_A] == NULL);
    CHECK(change(d, cc, 2).share[IPROF_DIFF_A] == 0.5);
    CHECK(change(d, cc, 2).share[IPROF_DIFF_B] == 0.6);
    CHECK(change(d, cc, 2).delta == 0.6 - 0.5);
    CHECK(change(d, cc, 2).relative == (0.6 - 0.5) / 0.5);
    CHECK_EQ_INT(change(d, cc, 2).value[IPROF_DIFF_B], 300);
    const iprof_entry *fb = change(d, cc, 2).entry[IPROF_DIFF_B];
    CHECK(fb && iprof_context_method_id(iprof_entry_context(fb)) == 21);
    CHECK(change(d, cc, 3).delta == 0.2 - 0.25);
    /* Out of range: not found, nothing filled. */
    iprof_diff_change past = IPROF_DIFF_CHANGE_INIT;
    CHECK_EQ_INT(iprof_diff_get_change(d, cc, 4, &past), IPROF_ENOTFOUND);
    CHECK(past.entry[IPROF_DIFF_A] == NULL && past.delta == 0.0);

    /* Sampling: the two-frame context matches through the method keys. */
    const int sp = IPROF_KIND_SAMPLING;
    CHECK_EQ_INT(kind_of(d, sp).context_common_count[IPROF_DIFF_A], 1);
    CHECK_EQ_INT(kind_of(d, sp).context_only_count[IPROF_DIFF_A], 1);
    CHECK_EQ_INT(kind_of(d, sp).context_only_count[IPROF_DIFF_B], 1);
    CHECK(kind_of(d, sp).overlap[IPROF_DIFF_A] == 0.75);
    CHECK(kind_of(d, sp).overlap[IPROF_DIFF_B] == 0.75);
    CHECK_EQ_INT(kind_of(d, sp).change_count, 2); /* the common one did not change */
    check_describe(d, a, b, sp, 0, "T.f:7");               /* a tie: A's first */
    check_describe(d, a, b, sp, 1, "T.f:8");

    /* Conditional: counts are the third numbers; B has none. */
    const int co = IPROF_KIND_CONDITIONAL;
    CHECK_EQ_INT(kind_of(d, co).total[IPROF_DIFF_A], 10);
    CHECK(kind_of(d, co).overlap[IPROF_DIFF_A] == 0.0);
    CHECK(kind_of(d, co).overlap[IPROF_DIFF_B] == -1.0);
    CHECK_EQ_INT(kind_of(d, co).change_count, 1);
    CHECK(change(d, co, 0).delta == -1.0);

    /* Monitor: the dummy 0:0 context matches by its raw id; counts are
     * the second number of each pair. */
    const int mo = IPROF_KIND_MONITOR;
    CHECK_EQ_INT(kind_of(d, mo).context_common_count[IPROF_DIFF_A], 1);
    CHECK_EQ_INT(kind_of(d, mo).total[IPROF_DIFF_A], 7);
    CHECK_EQ_INT(kind_of(d, mo).total[IPROF_DIFF_B], 7);
    CHECK(kind_of(d, mo).overlap[IPROF_DIFF_A] == 1.0);
    CHECK_EQ_INT(kind_of(d, mo).change_count, 0);

    /* Kinds without entries; bad kinds and sides. */
    CHECK(kind_of(d, IPROF_KIND_INSTANCEOF).overlap[IPROF_DIFF_A] == -1.0);
    iprof_diff_kind_summary bad = IPROF_DIFF_KIND_SUMMARY_INIT;
    CHECK_EQ_INT(iprof_diff_get_kind(d, IPROF_KIND_COUNT, &bad), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_diff_get_kind(d, -1, &bad), IPROF_EINVAL);
    CHECK(iprof_diff_method_only_at(d, 5, 0) == NULL);
    iprof_diff_free(d);

    /* top: only the biggest changes are kept, in the same order. */
    iprof_diff_options o = IPROF_DIFF_OPTIONS_INIT;
    o.top = 1;
    CHECK_OK(iprof_diff_new(&d, a, b, &o));
    CHECK_EQ_INT(kind_of(d, cc).change_count, 1);
    check_describe(d, a, b, cc, 0, "T.onlyA:0");
    iprof_diff_free(d);
    o.top = 3;
    CHECK_OK(iprof_diff_new(&d, a, b, &o));
    CHECK_EQ_INT(kind_of(d, cc).change_count, 3);
    check_describe(d, a, b, cc, 2, "T.f:0");
    iprof_diff_free(d);

    /* The other way round: the sides swap. */
    CHECK_OK(iprof_diff_new(&d, b, a, NULL));
    CHECK_EQ_INT(summary(d).method_only_count[IPROF_DIFF_A], 2);
    CHECK_EQ_INT(summary(d).method_only_count[IPROF_DIFF_B], 1);
    CHECK(kind_of(d, cc).overlap[IPROF_DIFF_A] == 0.8);
    CHECK(kind_of(d, cc).overlap[IPROF_DIFF_B] == 0.75);
    check_describe(d, b, a, cc, 0, "T.onlyA:0");
    CHECK(change(d, cc, 0).delta == 0.25);
    iprof_diff_free(d);
    iprof_model_free(a);
    iprof_model_free(b);
}

static void test_self_and_empty(void)
{
    iprof_model *a = model_a(NULL), *e1 = NULL, *e2 = NULL;
    CHECK_OK(iprof_model_new(&e1, NULL));
    CHECK_OK(iprof_model_new(&e2, NULL));
    iprof_diff *d = NULL;
    CHECK_OK(iprof_diff_new(&d, a, a, NULL));
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        CHECK_EQ_INT(kind_of(d, k).change_count, 0);
        CHECK_EQ_INT(kind_of(d, k).context_only_count[IPROF_DIFF_A], 0);
        CHECK_EQ_INT(kind_of(d, k).context_only_count[IPROF_DIFF_B], 0);
        double o = kind_of(d, k).overlap[IPROF_DIFF_A];
        CHECK(o == 1.0 || (o == -1.0 && kind_of(d, k).total[IPROF_DIFF_A] == 0));
    }
    CHECK_EQ_INT(summary(d).method_only_count[IPROF_DIFF_A], 0);
    CHECK_EQ_INT(summary(d).method_common_count[IPROF_DIFF_B], 3);
    iprof_diff_free(d);

    CHECK_OK(iprof_diff_new(&d, e1, e2, NULL));
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        CHECK(kind_of(d, k).overlap[IPROF_DIFF_A] == -1.0);
        CHECK_EQ_INT(kind_of(d, k).change_count, 0);
    }
    CHECK_EQ_INT(summary(d).method_only_count[IPROF_DIFF_A], 0);
    iprof_diff_free(d);

    /* Empty against full: everything of the full side is its own. */
    CHECK_OK(iprof_diff_new(&d, e1, a, NULL));
    CHECK_EQ_INT(summary(d).method_only_count[IPROF_DIFF_B], 3);
    CHECK_EQ_INT(kind_of(d, IPROF_KIND_CALL_COUNT).context_only_count[IPROF_DIFF_B], 3);
    CHECK(kind_of(d, IPROF_KIND_CALL_COUNT).overlap[IPROF_DIFF_B] == 0.0);
    CHECK_EQ_INT(kind_of(d, IPROF_KIND_CALL_COUNT).change_count, 3);
    CHECK(change(d, IPROF_KIND_CALL_COUNT, 0).delta == 0.5);
    iprof_diff_free(d);
    iprof_model_free(e1);
    iprof_model_free(e2);
    iprof_model_free(a);
}

/* The monitor's "0:0" names no method, even where method 0 exists: it
 * matches "0:0" in the other model whatever method 0 is there. */
static void test_monitor_dummy_ctx(void)
{
    iprof_model *a = NULL, *b = NULL;
    CHECK_OK(iprof_model_new(&a, NULL));
    add_type(a, 0, "T");
    const int64_t sig[] = {0};
    add_method(a, 0, "zz", sig, 1);
    add_method(a, 1, "m", sig, 1);
    const int64_t mon0[] = {0, 0}, mon[] = {0, 3}, m0[] = {1, 0}, one[] = {1};
    add_entry(a, IPROF_KIND_MONITOR, mon0, 1, mon, N(mon));
    add_entry(a, IPROF_KIND_CALL_COUNT, m0, 1, one, 1);
    /* b: the same profile, its methods renumbered (m 1, zz 2). */
    CHECK_OK(iprof_model_new(&b, NULL));
    CHECK_OK(merge_weighted(b, a, 1.0));
    CHECK_OK(iprof_model_canonicalize(b, 0));
    CHECK_EQ_STR(iprof_method_name(iprof_model_method_by_id(b, 2), NULL), "zz");
    iprof_diff *d = NULL;
    CHECK_OK(iprof_diff_new(&d, a, b, NULL));
    CHECK_EQ_INT(kind_of(d, IPROF_KIND_MONITOR).context_common_count[IPROF_DIFF_A], 1);
    CHECK_EQ_INT(kind_of(d, IPROF_KIND_MONITOR).context_only_count[IPROF_DIFF_B], 0);
    CHECK(kind_of(d, IPROF_KIND_MONITOR).overlap[IPROF_DIFF_A] == 1.0);
    CHECK(kind_of(d, IPROF_KIND_MONITOR).staleness == 0.0);
    CHECK(summary(d).staleness == 0.0);
    iprof_diff_free(d);
    iprof_model_free(a);
    iprof_model_free(b);
}

/* A context repeated in a file (sampling, as GraalVM 25 writes it): the
 * first entry is matched, the second counts as unmatched on either side,
 * so a profile against itself is symmetric. */
static void test_repeated_context(void)
{
    static const char doc[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
        "\"samplingProfiles\":[{\"ctx\":\"1:2\",\"records\":[30]},"
        "{\"ctx\":\"1:3\",\"records\":[20]},{\"ctx\":\"1:2\",\"records\":[12]}]}";
    iprof_reader *r = NULL;
    iprof_model *a = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_OK(iprof_model_load(&a, r, SRC_BUFFER(doc, strlen(doc))));
    iprof_diff *d = NULL;
    CHECK_OK(iprof_diff_new(&d, a, a, NULL));
    for (int side = IPROF_DIFF_A; side <= IPROF_DIFF_B; side++) {
        CHECK_EQ_INT(kind_of(d, IPROF_KIND_SAMPLING).context_only_count[side], 1);
        CHECK_EQ_INT(kind_of(d, IPROF_KIND_SAMPLING).context_common_count[side], 2);
        CHECK_EQ_INT(kind_of(d, IPROF_KIND_SAMPLING).common_total[side], 50);
        CHECK(kind_of(d, IPROF_KIND_SAMPLING).overlap[side] == 50.0 / 62.0);
    }
    CHECK(summary(d).staleness == 0.0);
    iprof_diff_free(d);
    iprof_model_free(a);
    iprof_reader_free(r);
}

/* Two methods of one key in A, one in B: the first of each side match and
 * A's second is A's only, as a second of B would be B's; swapping A and B
 * mirrors every count and keeps the staleness: (0.25 + 0.25) / 1 = 0.5. */
static iprof_model *load_doc(iprof_reader *r, const char *doc)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(doc, strlen(doc))));
    return m;
}

static void test_repeated_method_key(void)
{
#define TYPES "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"void\"},{\"id\":1,\"name\":\"Foo\"}],"
    static const char doc_a[] =
        TYPES "\"methods\":[{\"id\":1,\"name\":\"bar\",\"signature\":[1,0]},"
        "{\"id\":2,\"name\":\"bar\",\"signature\":[1,0]}],\"callCountProfiles\":"
        "[{\"ctx\":\"1:0\",\"records\":[10]},{\"ctx\":\"2:0\",\"records\":[10]}]}";
    static const char doc_b[] =
        TYPES "\"methods\":[{\"id\":1,\"name\":\"bar\",\"signature\":[1,0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[20]}]}";
#undef TYPES
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    iprof_model *a = load_doc(r, doc_a), *b = load_doc(r, doc_b);
    for (int swap = 0; swap < 2 && a && b; swap++) {
        iprof_diff *d = NULL;
        CHECK_OK(iprof_diff_new(&d, swap ? b : a, swap ? a : b, NULL));
        int two = swap ? IPROF_DIFF_B : IPROF_DIFF_A, one = swap ? IPROF_DIFF_A : IPROF_DIFF_B;
        CHECK_EQ_INT(summary(d).method_common_count[two], 1);
        CHECK_EQ_INT(summary(d).method_common_count[one], 1);
        CHECK_EQ_INT(summary(d).method_only_count[two], 1);
        CHECK_EQ_INT(summary(d).method_only_count[one], 0);
        const iprof_method *x = iprof_diff_method_only_at(d, two, 0);
        CHECK_EQ_INT(x ? iprof_method_id(x) : -1, 2);
        CHECK_EQ_INT(kind_of(d, IPROF_KIND_CALL_COUNT).context_only_count[two], 1);
        CHECK_EQ_INT(kind_of(d, IPROF_KIND_CALL_COUNT).context_common_count[one], 1);
        CHECK(summary(d).staleness == 0.5);
        iprof_diff_free(d);
    }
    iprof_model_free(a);
    iprof_model_free(b);
    iprof_reader_free(r);
}

static void test_arguments(void)
{
    iprof_model *a = NULL;
    CHECK_OK(iprof_model_new(&a, NULL));
    iprof_diff *d = (iprof_diff *)&d;
    CHECK_EQ_INT(iprof_diff_new(&d, NULL, a, NULL), IPROF_EINVAL);
    CHECK(d == NULL);
    CHECK_EQ_INT(iprof_diff_new(&d, a, NULL, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_diff_new(NULL, a, a, NULL), IPROF_EINVAL);
    iprof_diff_options o = IPROF_DIFF_OPTIONS_INIT;
    o.version = 99;
    CHECK_EQ_INT(iprof_diff_new(&d, a, a, &o), IPROF_EINVAL);
    o.version = IPROF_DIFF_OPTIONS_VERSION;
    o.flags = 1;
    CHECK_EQ_INT(iprof_diff_new(&d, a, a, &o), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_diff_options_init(&o, 99), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_diff_options_init(NULL, IPROF_DIFF_OPTIONS_VERSION), IPROF_EINVAL);
    memset(&o, 0xff, sizeof o);
    CHECK_OK(iprof_diff_options_init(&o, IPROF_DIFF_OPTIONS_VERSION));
    CHECK_EQ_INT(o.version, IPROF_DIFF_OPTIONS_VERSION);
    CHECK_EQ_INT(o.flags, 0);
    CHECK(o.allocator == NULL);
    CHECK_EQ_INT(o.top, 0);
    iprof_diff_free(NULL);
    /* The fillers refuse NULL; method_only_at takes it. */
    iprof_diff_kind_summary k = IPROF_DIFF_KIND_SUMMARY_INIT;
    CHECK_EQ_INT(iprof_diff_get_kind(NULL, 0, &k), IPROF_EINVAL);
    CHECK(k.overlap[0] == 0.0);
    CHECK(iprof_diff_method_only_at(NULL, 0, 0) == NULL);
    iprof_model_free(a);
}

/* ---- allocation failure ---------------------------------------------------- */

static void test_alloc_failure(void)
{
    iprof_model *a = model_a(NULL), *b = model_b();
    fail_alloc f = {0};
    iprof_allocator al = fail_hook(&f);
    iprof_diff_options o = IPROF_DIFF_OPTIONS_INIT;
    o.allocator = &al;
    o.top = 2;
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
            CHECK(f.failed);
            CHECK(d == NULL);
            CHECK_EQ_INT(f.live_bytes, 0);
            CHECK_EQ_INT(f.live_blocks, 0);
            continue;
        }
        CHECK(!f.failed); /* the run that succeeds needed no failure */
        CHECK_EQ_INT(kind_of(d, IPROF_KIND_CALL_COUNT).change_count, 2);
        CHECK(kind_of(d, IPROF_KIND_CALL_COUNT).overlap[IPROF_DIFF_A] == 0.75);
        CHECK(f.live_bytes > 0);
        iprof_diff_free(d);
        CHECK_EQ_INT(f.live_bytes, 0);
        CHECK_EQ_INT(f.live_blocks, 0);
    }
    CHECK_EQ_INT(rc, IPROF_OK);
    CHECK(n > 5); /* it did allocate through the options' allocator */
    fprintf(stderr, "   %ld allocation failures checked\n", n - 2);

    /* Without an allocator in the options model A's is used. */
    fail_alloc fa = {0};
    iprof_allocator ala = fail_hook(&fa);
    iprof_model *a2 = model_a(&ala);
    long long before = fa.live_bytes;
    fail_after(&fa, 0); /* every allocation from A's allocator fails now */
    iprof_diff *d = NULL;
    CHECK_EQ_INT(iprof_diff_new(&d, a2, b, NULL), IPROF_ENOMEM);
    fail_after(&fa, -1);
    CHECK_OK(iprof_diff_new(&d, a2, b, NULL));
    CHECK(fa.live_bytes > before);
    iprof_diff_free(d);
    CHECK_EQ_INT(fa.live_bytes, before);
    iprof_model_free(a2);
    CHECK_EQ_INT(fa.live_bytes, 0);
    iprof_model_free(a);
    iprof_model_free(b);
}

int main(void)
{
    RUN(test_values);
    RUN(test_self_and_empty);
    RUN(test_monitor_dummy_ctx);
    RUN(test_repeated_context);
    RUN(test_repeated_method_key);
    RUN(test_arguments);
    RUN(test_alloc_failure);
    RUN(test_structs);
    RUN(test_struct_failures);
    RUN(test_structs_corpus);
    return check_done();
}
