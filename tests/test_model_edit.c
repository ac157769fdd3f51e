/* Editing records (lib/model/model_edit.c, lib/model/scale.c): replacing an entry's,
 * rewriting a kind's with a function, scaling counts with each rounding. */
#include "check.h"
#include "check_api.h"

#include <iprof/edit.h>
#include <iprof/iprof.h>

static iprof_model *sample(void)
{
    iprof_model *m = NULL;
    static const int64_t sig[] = {0, 0};
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_OK(iprof_model_add_type(m, 0, "T", 1, NULL));
    CHECK_OK(iprof_model_add_type(m, 5, "U", 1, NULL));
    CHECK_OK(iprof_model_add_method(m, 1, "m", 1, sig, 2, NULL));
    static const int64_t f0[] = {1, 0}, f2[] = {1, 2}, f4[] = {1, 4};
    static const int64_t cc[] = {7}, cond[] = {3, 0, 5, 3, 1, 2}, vi[] = {5, 9, 0, 1};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f0, 1, cc, 1));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f2, 1, cond, 6));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_VIRTUAL_INVOKE, f4, 1, vi, 4));
    return m;
}

static const int64_t *records_of(const iprof_model *m, int kind, size_t *n)
{
    return iprof_entry_records(iprof_model_entry_at(m, kind, 0), n);
}

static void test_set_entry_records(void)
{
    iprof_model *m = sample();
    static const int64_t f4[] = {1, 4}, f9[] = {1, 9};
    static const int64_t more[] = {5, 1, 0, 2, 5, 3};
    size_t n;
    CHECK_OK(iprof_model_set_entry_records(m, IPROF_KIND_VIRTUAL_INVOKE, f4, 1, more, 6));
    const int64_t *r = records_of(m, IPROF_KIND_VIRTUAL_INVOKE, &n);
    CHECK(n == 6 && memcmp(r, more, sizeof more) == 0);
    /* The rules and references of add; nothing changes on failure. */
    static const int64_t odd[] = {5, 1, 0}, dangling[] = {6, 1};
    CHECK_EQ_INT(iprof_model_set_entry_records(m, IPROF_KIND_VIRTUAL_INVOKE, f4, 1, odd, 3),
                 IPROF_ESCHEMA);
    CHECK_EQ_STR(err_info(iprof_model_error(m)).message,
                 "virtualInvokeProfiles entry: records: records must be (type id, count) pairs");
    CHECK_EQ_INT(iprof_model_set_entry_records(m, IPROF_KIND_VIRTUAL_INVOKE, f4, 1, dangling, 2),
                 IPROF_EDANGLING);
    CHECK_EQ_INT(iprof_model_set_entry_records(m, IPROF_KIND_VIRTUAL_INVOKE, f9, 1, more, 6),
                 IPROF_ENOTFOUND);
    CHECK_EQ_STR(err_info(iprof_model_error(m)).context, "1:9");
    r = records_of(m, IPROF_KIND_VIRTUAL_INVOKE, &n);
    CHECK(n == 6 && memcmp(r, more, sizeof more) == 0);
    CHECK_EQ_INT(iprof_model_set_entry_records(m, 7, f4, 1, more, 6), IPROF_EINVAL);
    /* No entry there: not found, even where a new entry would break a
     * ctx rule (a call count at bci 9). */
    static const int64_t f9cc[] = {1, 9}, one[] = {1};
    CHECK_EQ_INT(iprof_model_set_entry_records(m, IPROF_KIND_CALL_COUNT, f9cc, 1, one, 1),
                 IPROF_ENOTFOUND);
    /* Fewer records reuse the entry's space: setting again and again
     * does not grow the model. */
    static const int64_t two[] = {5, 2};
    CHECK_OK(iprof_model_set_entry_records(m, IPROF_KIND_VIRTUAL_INVOKE, f4, 1, two, 2));
    const int64_t *before = records_of(m, IPROF_KIND_VIRTUAL_INVOKE, &n);
    CHECK_OK(iprof_model_set_entry_records(m, IPROF_KIND_VIRTUAL_INVOKE, f4, 1, two, 2));
    CHECK(records_of(m, IPROF_KIND_VIRTUAL_INVOKE, &n) == before && n == 2);
    iprof_model_free(m);
}

static int no_change(const iprof_entry *e, int64_t *r, size_t n, void *payload)
{
    (void)e, (void)r, (void)n, (void)payload;
    return 0;
}

/* map_records checks what it changes, the records: a context that names
 * a removed method (the caller's business) does not fail it. */
static void test_map_checks_records_only(void)
{
    iprof_model *m = sample();
    CHECK_OK(iprof_model_remove_method(m, 1, 0)); /* entries still name it */
    CHECK_OK(iprof_model_map_records(m, IPROF_KIND_CONDITIONAL, no_change, NULL));
    static const int64_t f2[] = {1, 2}, cond[] = {3, 0, 1};
    CHECK_OK(iprof_model_set_entry_records(m, IPROF_KIND_CONDITIONAL, f2, 1, cond, 3));
    iprof_model_free(m);
}

/* Double every count of a conditional entry; stop at a given call. */
static int twice(const iprof_entry *e, int64_t *r, size_t n, void *payload)
{
    int *calls = payload;
    (void)e;
    for (size_t i = 2; i < n; i += 3)
        r[i] *= 2;
    return ++*calls == 99;
}

static int retype(const iprof_entry *e, int64_t *r, size_t n, void *payload)
{
    (void)e, (void)payload;
    if (n)
        r[0] = 6; /* not a type of the model */
    return 0;
}

static void test_map_records(void)
{
    iprof_model *m = sample();
    int calls = 0;
    size_t n;
    CHECK_OK(iprof_model_map_records(m, IPROF_KIND_CONDITIONAL, twice, &calls));
    CHECK_EQ_INT(calls, 1);
    static const int64_t want[] = {3, 0, 10, 3, 1, 4};
    const int64_t *r = records_of(m, IPROF_KIND_CONDITIONAL, &n);
    CHECK(n == 6 && memcmp(r, want, sizeof want) == 0);
    /* A stop, and records that break a reference: nothing changes. */
    calls = 98;
    CHECK_EQ_INT(iprof_model_map_records(m, IPROF_KIND_CONDITIONAL, twice, &calls),
                 IPROF_ESTOPPED);
    r = records_of(m, IPROF_KIND_CONDITIONAL, &n);
    CHECK(memcmp(r, want, sizeof want) == 0);
    CHECK_EQ_INT(iprof_model_map_records(m, IPROF_KIND_VIRTUAL_INVOKE, retype, NULL),
                 IPROF_EDANGLING);
    CHECK_EQ_STR(err_info(iprof_model_error(m)).message,
                 "virtualInvokeProfiles entry: type id 6 is not defined in the model");
    r = records_of(m, IPROF_KIND_VIRTUAL_INVOKE, &n);
    CHECK_EQ_INT(r[0], 5);
    CHECK_EQ_INT(iprof_model_map_records(m, IPROF_KIND_VIRTUAL_INVOKE, NULL, NULL), IPROF_EINVAL);
    iprof_model_free(m);
}

/* Each rounding on the halves and thirds of 7, 5, 2, 9 and 1. */
static void test_scale(void)
{
    static const struct {
        int kind;
        double w;
        int rounding;
        int64_t cc, cond1, cond2, vi1, vi2;
    } cases[] = {
        {-1, 2.0, IPROF_ROUND_FLOOR, 14, 10, 4, 18, 2},
        {-1, 0.5, IPROF_ROUND_NEAREST_AWAY, 4, 3, 1, 5, 1},  /* 3.5 2.5 1 4.5 .5 */
        {-1, 0.5, IPROF_ROUND_NEAREST_EVEN, 4, 2, 1, 4, 0},
        {-1, 0.5, IPROF_ROUND_FLOOR, 3, 2, 1, 4, 0},
        {IPROF_KIND_VIRTUAL_INVOKE, 0.5, IPROF_ROUND_FLOOR, 7, 5, 2, 4, 0},
        {-1, 0.0, IPROF_ROUND_FLOOR, 0, 0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        iprof_model *m = sample();
        CHECK_OK(iprof_model_scale(m, cases[i].kind, cases[i].w, cases[i].rounding));
        size_t n;
        const int64_t *cc = records_of(m, IPROF_KIND_CALL_COUNT, &n);
        const int64_t *cond = records_of(m, IPROF_KIND_CONDITIONAL, &n);
        const int64_t *vi = records_of(m, IPROF_KIND_VIRTUAL_INVOKE, &n);
        CHECK_EQ_INT(cc[0], cases[i].cc);
        CHECK_EQ_INT(cond[2], cases[i].cond1);
        CHECK_EQ_INT(cond[5], cases[i].cond2);
        CHECK_EQ_INT(vi[1], cases[i].vi1);
        CHECK_EQ_INT(vi[3], cases[i].vi2);
        /* Keys are not scaled. */
        CHECK(cond[0] == 3 && cond[1] == 0 && cond[4] == 1 && vi[0] == 5 && vi[2] == 0);
        iprof_model_free(m);
    }
    /* Saturation, and refusals. */
    iprof_model *m = sample();
    CHECK_OK(iprof_model_scale(m, IPROF_KIND_CALL_COUNT, 1e300, IPROF_ROUND_FLOOR));
    size_t n;
    CHECK_EQ_INT(records_of(m, IPROF_KIND_CALL_COUNT, &n)[0], INT64_MAX);
    CHECK_EQ_INT(iprof_model_scale(m, -1, -1.0, 0), IPROF_EINVAL);
    CHECK_EQ_STR(err_info(iprof_model_error(m)).message, "weight negative: must be finite and >= 0");
    CHECK_EQ_INT(iprof_model_scale(m, -1, 1.0 / 0.0, 0), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_scale(m, -1, 1.0, 3), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_scale(m, 6, 1.0, 0), IPROF_EINVAL);
    iprof_model_free(m);
}

/* Merges round as their options say; the default is halves away. */
static void test_merge_rounding(void)
{
    static const int rounding[] = {IPROF_ROUND_NEAREST_AWAY, IPROF_ROUND_NEAREST_EVEN,
                                   IPROF_ROUND_FLOOR};
    static const int64_t want[] = {4, 4, 3}; /* 7 x 0.5 */
    for (size_t i = 0; i < 3; i++) {
        iprof_model *dst, *src = sample();
        CHECK_OK(iprof_model_new(&dst, NULL));
        iprof_merge_options o = IPROF_MERGE_OPTIONS_INIT;
        o.weight = 0.5;
        o.rounding = rounding[i];
        CHECK_OK(iprof_model_merge(dst, src, &o));
        size_t n;
        CHECK_EQ_INT(records_of(dst, IPROF_KIND_CALL_COUNT, &n)[0], want[i]);
        o.rounding = 9;
        CHECK_EQ_INT(iprof_model_merge(dst, src, &o), IPROF_EINVAL);
        iprof_model_free(dst);
        iprof_model_free(src);
    }
}

int main(void)
{
    RUN(test_set_entry_records);
    RUN(test_map_records);
    RUN(test_map_checks_records_only);
    RUN(test_scale);
    RUN(test_merge_rounding);
    return check_done();
}
