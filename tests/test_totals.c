/* Entry totals and totals per callee method (lib/model/totals.c). */
#include "check.h"
#include "check_api.h"

#include <iprof/analysis.h>
#include <iprof/edit.h>
#include <iprof/iprof.h>

static const iprof_entry *add(iprof_model *m, int kind, const int64_t *frames, size_t nf,
                              const int64_t *records, size_t nr)
{
    CHECK_OK(iprof_model_add_entry(m, kind, frames, nf, records, nr));
    return iprof_model_entry_find(m, kind, frames, nf);
}

static iprof_model *sample(void)
{
    iprof_model *m = NULL;
    static const int64_t sig[] = {0, 0};
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_OK(iprof_model_add_type(m, 0, "T", 1, NULL));
    CHECK_OK(iprof_model_add_type(m, 9, "U", 1, NULL));
    for (int64_t id = 1; id <= 3; id++)
        CHECK_OK(iprof_model_add_method(m, id, "m", 1, sig, 2, NULL));
    static const int64_t f1[] = {1, 0}, f1b[] = {1, 0, 2, 3}, f2[] = {2, 0}, f3[] = {3, 0},
                         f3b[] = {3, 0, 1, 1};
    static const int64_t ten[] = {10}, five[] = {5}, fifteen[] = {15}, max[] = {INT64_MAX};
    add(m, IPROF_KIND_CALL_COUNT, f1, 1, ten, 1);
    add(m, IPROF_KIND_CALL_COUNT, f1b, 2, five, 1);
    add(m, IPROF_KIND_CALL_COUNT, f2, 1, fifteen, 1);
    add(m, IPROF_KIND_CALL_COUNT, f3, 1, max, 1);
    add(m, IPROF_KIND_CALL_COUNT, f3b, 2, five, 1);
    return m;
}

static void test_entry_total(void)
{
    iprof_model *m = sample();
    static const int64_t fc[] = {2, 7}, cond[] = {7, 0, 40, 9, 1, -2};
    static const int64_t fv[] = {2, 8}, vi[] = {9, 3, 0, 4};
    static const int64_t fm[] = {0, 0}, mon[] = {9, 6};
    CHECK_EQ_INT(iprof_entry_total(add(m, IPROF_KIND_CONDITIONAL, fc, 1, cond, 6)), 38);
    CHECK_EQ_INT(iprof_entry_total(add(m, IPROF_KIND_VIRTUAL_INVOKE, fv, 1, vi, 4)), 7);
    CHECK_EQ_INT(iprof_entry_total(add(m, IPROF_KIND_MONITOR, fm, 1, mon, 2)), 6);
    CHECK_EQ_INT(iprof_entry_total(iprof_model_entry_at(m, IPROF_KIND_CALL_COUNT, 3)), INT64_MAX);
    CHECK_EQ_INT(iprof_entry_total(NULL), 0);
    iprof_model_free(m);
}

static void test_method_totals(void)
{
    iprof_model *m = sample();
    int64_t ids[4] = {0}, totals[4] = {0};
    size_t n = 0;
    CHECK_OK(iprof_model_method_totals(m, IPROF_KIND_CALL_COUNT, ids, totals, 4, &n));
    CHECK_EQ_INT(n, 3);
    /* 3 saturates; 1 and 2 tie at 15, by id. */
    CHECK(ids[0] == 3 && totals[0] == INT64_MAX);
    CHECK(ids[1] == 1 && totals[1] == 15);
    CHECK(ids[2] == 2 && totals[2] == 15);
    /* A hot list of 2. */
    int64_t top[2], topt[2];
    CHECK_OK(iprof_model_method_totals(m, IPROF_KIND_CALL_COUNT, top, topt, 2, &n));
    CHECK(n == 3 && top[0] == 3 && top[1] == 1);
    CHECK_OK(iprof_model_method_totals(m, IPROF_KIND_CALL_COUNT, NULL, NULL, 0, &n));
    CHECK_EQ_INT(n, 3);
    /* No entries of a kind; monitors count for method 0. */
    CHECK_OK(iprof_model_method_totals(m, IPROF_KIND_SAMPLING, ids, totals, 4, &n));
    CHECK_EQ_INT(n, 0);
    static const int64_t fm[] = {0, 0}, mon[] = {9, 6, 0, 1};
    add(m, IPROF_KIND_MONITOR, fm, 1, mon, 4);
    CHECK_OK(iprof_model_method_totals(m, IPROF_KIND_MONITOR, ids, totals, 4, &n));
    CHECK(n == 1 && ids[0] == 0 && totals[0] == 7);
    CHECK_EQ_INT(iprof_model_method_totals(m, 6, ids, totals, 4, &n), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_method_totals(m, 0, NULL, totals, 4, &n), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_method_totals(NULL, 0, ids, totals, 4, &n), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_method_totals(m, 0, ids, totals, 4, NULL), IPROF_EINVAL);
    iprof_model_free(m);
}

/* What iprof stats lists, on a real profile: the same order. */
static void test_corpus(void)
{
    const char *dir = check_corpus_dir();
    if (!dir)
        SKIP("corpus folder absent");
    char path[4096];
    snprintf(path, sizeof path, "%s/jsonata-cli-0.4.0.iprof", dir);
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_OK(iprof_model_load(&m, r, SRC_PATH(path)));
    size_t n = 0;
    CHECK_OK(iprof_model_method_totals(m, IPROF_KIND_CALL_COUNT, NULL, NULL, 0, &n));
    int64_t *ids = malloc(n * sizeof *ids), *totals = malloc(n * sizeof *totals);
    CHECK_OK(iprof_model_method_totals(m, IPROF_KIND_CALL_COUNT, ids, totals, n, &n));
    /* Sorted, and adding up to the kind's total. */
    int64_t sum = 0;
    int sorted = 1;
    for (size_t i = 0; i < n; i++) {
        sum += totals[i];
        sorted &= i == 0 || totals[i - 1] > totals[i] ||
                  (totals[i - 1] == totals[i] && ids[i - 1] < ids[i]);
    }
    int64_t want = 0;
    for (size_t i = 0; i < iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT); i++)
        want += iprof_entry_total(iprof_model_entry_at(m, IPROF_KIND_CALL_COUNT, i));
    CHECK(sorted);
    CHECK_EQ_INT(sum, want);
    free(ids);
    free(totals);
    iprof_model_free(m);
    iprof_reader_free(r);
}

int main(void)
{
    RUN(test_entry_total);
    RUN(test_method_totals);
    RUN(test_corpus);
    return check_done();
}
