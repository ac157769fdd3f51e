/*
 * iprof_diff (include/iprof/diff.h) through the public API: exact values on
 * small hand-built models whose ids differ for the same names, empty
 * models, a model against itself, arguments, and allocation failure.
 */
#include "check.h"
#include "check_alloc.h"

#include <math.h>

#include <iprof/iprof.h>

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

static void check_describe(const iprof_diff *d, int kind, size_t i, const char *want)
{
    char buf[256];
    size_t n = iprof_diff_change_describe(d, kind, i, buf, sizeof buf);
    CHECK_EQ_STR(buf, want);
    CHECK_EQ_INT(n, strlen(want));
}

static const char *method_name(const iprof_method *x)
{
    return x ? iprof_method_name(x, NULL) : "(null)";
}

static void test_values(void)
{
    iprof_model *a = model_a(NULL), *b = model_b();
    iprof_diff *d = NULL;
    CHECK_OK(iprof_diff_new(&d, a, b, NULL));
    CHECK(d != NULL);

    /* Methods by names, not ids. */
    CHECK_EQ_INT(iprof_diff_method_only_count(d, IPROF_DIFF_A), 1);
    CHECK_EQ_STR(method_name(iprof_diff_method_only_at(d, IPROF_DIFF_A, 0)), "onlyA");
    CHECK(iprof_diff_method_only_at(d, IPROF_DIFF_A, 1) == NULL);
    CHECK_EQ_INT(iprof_diff_method_only_count(d, IPROF_DIFF_B), 2);
    CHECK_EQ_STR(method_name(iprof_diff_method_only_at(d, IPROF_DIFF_B, 0)), "onlyB");
    const iprof_method *f_int = iprof_diff_method_only_at(d, IPROF_DIFF_B, 1);
    CHECK_EQ_STR(method_name(f_int), "f");
    CHECK_EQ_INT(f_int ? iprof_method_id(f_int) : -1, 23);
    CHECK_EQ_INT(iprof_diff_method_common_count(d, IPROF_DIFF_A), 2);
    CHECK_EQ_INT(iprof_diff_method_common_count(d, IPROF_DIFF_B), 2);

    /* Call counts: A 100/50/50 (f, g, onlyA), B 300/100/100 (f, g, onlyB). */
    const int cc = IPROF_KIND_CALL_COUNT;
    CHECK_EQ_INT(iprof_diff_context_only_count(d, IPROF_DIFF_A, cc), 1);
    CHECK_EQ_INT(iprof_diff_context_only_count(d, IPROF_DIFF_B, cc), 1);
    CHECK_EQ_INT(iprof_diff_context_common_count(d, IPROF_DIFF_A, cc), 2);
    CHECK_EQ_INT(iprof_diff_context_common_count(d, IPROF_DIFF_B, cc), 2);
    CHECK_EQ_INT(iprof_diff_total(d, IPROF_DIFF_A, cc), 200);
    CHECK_EQ_INT(iprof_diff_total(d, IPROF_DIFF_B, cc), 500);
    CHECK_EQ_INT(iprof_diff_common_total(d, IPROF_DIFF_A, cc), 150);
    CHECK_EQ_INT(iprof_diff_common_total(d, IPROF_DIFF_B, cc), 400);
    CHECK(iprof_diff_overlap(d, IPROF_DIFF_A, cc) == 0.75);
    CHECK(iprof_diff_overlap(d, IPROF_DIFF_B, cc) == 0.8);
    /* Ranked by |delta|: onlyA -0.25, onlyB +0.2, f +0.1, g -0.05. */
    CHECK_EQ_INT(iprof_diff_change_count(d, cc), 4);
    check_describe(d, cc, 0, "T.onlyA:0");
    check_describe(d, cc, 1, "T.onlyB:0");
    check_describe(d, cc, 2, "T.f:0");
    check_describe(d, cc, 3, "T.g:0");
    CHECK(iprof_diff_change_delta(d, cc, 0) == -0.25);
    CHECK(iprof_diff_change_relative(d, cc, 0) == -1.0);
    CHECK(iprof_diff_change_entry(d, cc, 0, IPROF_DIFF_A) != NULL);
    CHECK(iprof_diff_change_entry(d, cc, 0, IPROF_DIFF_B) == NULL);
    CHECK_EQ_INT(iprof_diff_change_value(d, cc, 0, IPROF_DIFF_A), 50);
    CHECK_EQ_INT(iprof_diff_change_value(d, cc, 0, IPROF_DIFF_B), 0);
    CHECK(iprof_diff_change_delta(d, cc, 1) == 0.2);
    CHECK(isinf(iprof_diff_change_relative(d, cc, 1)));
    CHECK(iprof_diff_change_entry(d, cc, 1, IPROF_DIFF_A) == NULL);
    CHECK(iprof_diff_change_share(d, cc, 2, IPROF_DIFF_A) == 0.5);
    CHECK(iprof_diff_change_share(d, cc, 2, IPROF_DIFF_B) == 0.6);
    CHECK(iprof_diff_change_delta(d, cc, 2) == 0.6 - 0.5);
    CHECK(iprof_diff_change_relative(d, cc, 2) == (0.6 - 0.5) / 0.5);
    CHECK_EQ_INT(iprof_diff_change_value(d, cc, 2, IPROF_DIFF_B), 300);
    const iprof_entry *fb = iprof_diff_change_entry(d, cc, 2, IPROF_DIFF_B);
    CHECK(fb && iprof_context_method_id(iprof_entry_context(fb)) == 21);
    CHECK(iprof_diff_change_delta(d, cc, 3) == 0.2 - 0.25);
    /* Out of range. */
    CHECK(iprof_diff_change_entry(d, cc, 4, IPROF_DIFF_A) == NULL);
    CHECK(iprof_diff_change_delta(d, cc, 4) == 0.0);
    CHECK_EQ_INT(iprof_diff_change_describe(d, cc, 4, NULL, 0), 0);

    /* Sampling: the two-frame context matches through the method keys. */
    const int sp = IPROF_KIND_SAMPLING;
    CHECK_EQ_INT(iprof_diff_context_common_count(d, IPROF_DIFF_A, sp), 1);
    CHECK_EQ_INT(iprof_diff_context_only_count(d, IPROF_DIFF_A, sp), 1);
    CHECK_EQ_INT(iprof_diff_context_only_count(d, IPROF_DIFF_B, sp), 1);
    CHECK(iprof_diff_overlap(d, IPROF_DIFF_A, sp) == 0.75);
    CHECK(iprof_diff_overlap(d, IPROF_DIFF_B, sp) == 0.75);
    CHECK_EQ_INT(iprof_diff_change_count(d, sp), 2); /* the common one did not change */
    check_describe(d, sp, 0, "T.f:7");               /* a tie: A's first */
    check_describe(d, sp, 1, "T.f:8");

    /* Conditional: counts are the third numbers; B has none. */
    const int co = IPROF_KIND_CONDITIONAL;
    CHECK_EQ_INT(iprof_diff_total(d, IPROF_DIFF_A, co), 10);
    CHECK(iprof_diff_overlap(d, IPROF_DIFF_A, co) == 0.0);
    CHECK(iprof_diff_overlap(d, IPROF_DIFF_B, co) == -1.0);
    CHECK_EQ_INT(iprof_diff_change_count(d, co), 1);
    CHECK(iprof_diff_change_delta(d, co, 0) == -1.0);

    /* Monitor: the dummy 0:0 context matches by its raw id; counts are
     * the second number of each pair. */
    const int mo = IPROF_KIND_MONITOR;
    CHECK_EQ_INT(iprof_diff_context_common_count(d, IPROF_DIFF_A, mo), 1);
    CHECK_EQ_INT(iprof_diff_total(d, IPROF_DIFF_A, mo), 7);
    CHECK_EQ_INT(iprof_diff_total(d, IPROF_DIFF_B, mo), 7);
    CHECK(iprof_diff_overlap(d, IPROF_DIFF_A, mo) == 1.0);
    CHECK_EQ_INT(iprof_diff_change_count(d, mo), 0);

    /* Kinds without entries; bad sides and kinds. */
    CHECK(iprof_diff_overlap(d, IPROF_DIFF_A, IPROF_KIND_INSTANCEOF) == -1.0);
    CHECK_EQ_INT(iprof_diff_total(d, 2, cc), 0);
    CHECK_EQ_INT(iprof_diff_total(d, IPROF_DIFF_A, IPROF_KIND_COUNT), 0);
    CHECK(iprof_diff_overlap(d, -1, cc) == -1.0);
    CHECK_EQ_INT(iprof_diff_change_count(d, -1), 0);
    CHECK_EQ_INT(iprof_diff_method_only_count(d, 5), 0);
    iprof_diff_free(d);

    /* top: only the biggest changes are kept, in the same order. */
    iprof_diff_options o = IPROF_DIFF_OPTIONS_INIT;
    o.top = 1;
    CHECK_OK(iprof_diff_new(&d, a, b, &o));
    CHECK_EQ_INT(iprof_diff_change_count(d, cc), 1);
    check_describe(d, cc, 0, "T.onlyA:0");
    iprof_diff_free(d);
    o.top = 3;
    CHECK_OK(iprof_diff_new(&d, a, b, &o));
    CHECK_EQ_INT(iprof_diff_change_count(d, cc), 3);
    check_describe(d, cc, 2, "T.f:0");
    iprof_diff_free(d);

    /* The other way round: the sides swap. */
    CHECK_OK(iprof_diff_new(&d, b, a, NULL));
    CHECK_EQ_INT(iprof_diff_method_only_count(d, IPROF_DIFF_A), 2);
    CHECK_EQ_INT(iprof_diff_method_only_count(d, IPROF_DIFF_B), 1);
    CHECK(iprof_diff_overlap(d, IPROF_DIFF_A, cc) == 0.8);
    CHECK(iprof_diff_overlap(d, IPROF_DIFF_B, cc) == 0.75);
    check_describe(d, cc, 0, "T.onlyA:0");
    CHECK(iprof_diff_change_delta(d, cc, 0) == 0.25);
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
        CHECK_EQ_INT(iprof_diff_change_count(d, k), 0);
        CHECK_EQ_INT(iprof_diff_context_only_count(d, IPROF_DIFF_A, k), 0);
        CHECK_EQ_INT(iprof_diff_context_only_count(d, IPROF_DIFF_B, k), 0);
        double o = iprof_diff_overlap(d, IPROF_DIFF_A, k);
        CHECK(o == 1.0 || (o == -1.0 && iprof_diff_total(d, IPROF_DIFF_A, k) == 0));
    }
    CHECK_EQ_INT(iprof_diff_method_only_count(d, IPROF_DIFF_A), 0);
    CHECK_EQ_INT(iprof_diff_method_common_count(d, IPROF_DIFF_B), 3);
    iprof_diff_free(d);

    CHECK_OK(iprof_diff_new(&d, e1, e2, NULL));
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        CHECK(iprof_diff_overlap(d, IPROF_DIFF_A, k) == -1.0);
        CHECK_EQ_INT(iprof_diff_change_count(d, k), 0);
    }
    CHECK_EQ_INT(iprof_diff_method_only_count(d, IPROF_DIFF_A), 0);
    iprof_diff_free(d);

    /* Empty against full: everything of the full side is its own. */
    CHECK_OK(iprof_diff_new(&d, e1, a, NULL));
    CHECK_EQ_INT(iprof_diff_method_only_count(d, IPROF_DIFF_B), 3);
    CHECK_EQ_INT(iprof_diff_context_only_count(d, IPROF_DIFF_B, IPROF_KIND_CALL_COUNT), 3);
    CHECK(iprof_diff_overlap(d, IPROF_DIFF_B, IPROF_KIND_CALL_COUNT) == 0.0);
    CHECK_EQ_INT(iprof_diff_change_count(d, IPROF_KIND_CALL_COUNT), 3);
    CHECK(iprof_diff_change_delta(d, IPROF_KIND_CALL_COUNT, 0) == 0.5);
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
    CHECK_OK(iprof_model_merge(b, a, 1.0));
    CHECK_OK(iprof_model_canonicalize(b));
    CHECK_EQ_STR(iprof_method_name(iprof_model_method_by_id(b, 2), NULL), "zz");
    iprof_diff *d = NULL;
    CHECK_OK(iprof_diff_new(&d, a, b, NULL));
    CHECK_EQ_INT(iprof_diff_context_common_count(d, IPROF_DIFF_A, IPROF_KIND_MONITOR), 1);
    CHECK_EQ_INT(iprof_diff_context_only_count(d, IPROF_DIFF_B, IPROF_KIND_MONITOR), 0);
    CHECK(iprof_diff_overlap(d, IPROF_DIFF_A, IPROF_KIND_MONITOR) == 1.0);
    CHECK(iprof_diff_staleness_kind(d, IPROF_KIND_MONITOR) == 0.0);
    CHECK(iprof_diff_staleness(d) == 0.0);
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
    CHECK_OK(iprof_model_load_buffer(&a, r, doc, strlen(doc)));
    iprof_diff *d = NULL;
    CHECK_OK(iprof_diff_new(&d, a, a, NULL));
    for (int side = IPROF_DIFF_A; side <= IPROF_DIFF_B; side++) {
        CHECK_EQ_INT(iprof_diff_context_only_count(d, side, IPROF_KIND_SAMPLING), 1);
        CHECK_EQ_INT(iprof_diff_context_common_count(d, side, IPROF_KIND_SAMPLING), 2);
        CHECK_EQ_INT(iprof_diff_common_total(d, side, IPROF_KIND_SAMPLING), 50);
        CHECK(iprof_diff_overlap(d, side, IPROF_KIND_SAMPLING) == 50.0 / 62.0);
    }
    CHECK(iprof_diff_staleness(d) == 0.0);
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
    CHECK_OK(iprof_model_load_buffer(&m, r, doc, strlen(doc)));
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
        CHECK_EQ_INT(iprof_diff_method_common_count(d, two), 1);
        CHECK_EQ_INT(iprof_diff_method_common_count(d, one), 1);
        CHECK_EQ_INT(iprof_diff_method_only_count(d, two), 1);
        CHECK_EQ_INT(iprof_diff_method_only_count(d, one), 0);
        const iprof_method *x = iprof_diff_method_only_at(d, two, 0);
        CHECK_EQ_INT(x ? iprof_method_id(x) : -1, 2);
        CHECK_EQ_INT(iprof_diff_context_only_count(d, two, IPROF_KIND_CALL_COUNT), 1);
        CHECK_EQ_INT(iprof_diff_context_common_count(d, one, IPROF_KIND_CALL_COUNT), 1);
        CHECK(iprof_diff_staleness(d) == 0.5);
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
    /* Accessors take NULL. */
    CHECK_EQ_INT(iprof_diff_total(NULL, 0, 0), 0);
    CHECK(iprof_diff_overlap(NULL, 0, 0) == -1.0);
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
        CHECK_EQ_INT(iprof_diff_change_count(d, IPROF_KIND_CALL_COUNT), 2);
        CHECK(iprof_diff_overlap(d, IPROF_DIFF_A, IPROF_KIND_CALL_COUNT) == 0.75);
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
    return check_done();
}
