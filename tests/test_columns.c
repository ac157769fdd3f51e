/*
 * Columns of a kind (iprof_model_get_columns; lib/model/model_columns.c):
 * exact values on a small model, the cache kept across calls and dropped
 * by every change to the kind's entries, versions and bad arguments,
 * allocation failure, threads racing to build, and on the corpus the same
 * records and frames as the per-entry accessors give.
 */
#include "check.h"
#include "check_api.h"
#include "check_alloc.h"

#include <pthread.h>

#include <iprof/analysis.h>
#include <iprof/edit.h>
#include <iprof/iprof.h>
#include <iprof/transform.h>

static iprof_model *sample(void)
{
    iprof_model *m = NULL;
    static const int64_t sig[] = {0, 0};
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_OK(iprof_model_add_type(m, 0, "T", 1, NULL));
    CHECK_OK(iprof_model_add_type(m, 5, "U", 1, NULL));
    CHECK_OK(iprof_model_add_method(m, 1, "m", 1, sig, 2, NULL));
    CHECK_OK(iprof_model_add_method(m, 2, "n", 1, sig, 2, NULL));
    static const int64_t f0[] = {1, 0}, f2[] = {1, 2, 2, 7}, f4[] = {1, 4, 2, 7, 1, 3};
    static const int64_t cond1[] = {3, 0, 5, 3, 1, 2}, cond2[] = {9, 0, 11};
    static const int64_t cond3[] = {4, 1, 40, 6, 0, 60, 8, 2, 80};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f0, 1, cond1, 6));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f2, 2, cond2, 3));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f4, 3, cond3, 9));
    static const int64_t cc[] = {7}, vi[] = {5, 9, 0, 1};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f0, 1, cc, 1));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_VIRTUAL_INVOKE, f4, 3, vi, 4));
    return m;
}

static iprof_columns columns_of(const iprof_model *m, int kind)
{
    iprof_columns c = IPROF_COLUMNS_INIT;
    CHECK_OK(iprof_model_get_columns(m, kind, &c));
    return c;
}

static void test_exact_values(void)
{
    iprof_model *m = sample();
    iprof_columns c = columns_of(m, IPROF_KIND_CONDITIONAL);
    CHECK_EQ_INT(c.version, IPROF_COLUMNS_VERSION);
    CHECK_EQ_INT(c.kind, IPROF_KIND_CONDITIONAL);
    CHECK_EQ_INT(c.count, 3);
    CHECK_EQ_INT(c.record_count, 18);
    static const int64_t records[] = {3, 0, 5, 3, 1, 2, 9, 0, 11, 4, 1, 40, 6, 0, 60, 8, 2, 80};
    CHECK(memcmp(c.records, records, sizeof records) == 0);
    static const uint64_t offsets[] = {0, 6, 9, 18};
    CHECK(memcmp(c.offsets, offsets, sizeof offsets) == 0);
    CHECK_EQ_INT(c.frame_count, 6);
    static const int64_t frames[] = {1, 0, 1, 2, 2, 7, 1, 4, 2, 7, 1, 3};
    CHECK(memcmp(c.frames, frames, sizeof frames) == 0);
    static const uint64_t frame_offsets[] = {0, 1, 3, 6};
    CHECK(memcmp(c.frame_offsets, frame_offsets, sizeof frame_offsets) == 0);
    for (size_t i = 0; i < 3; i++)
        CHECK(c.contexts[i] ==
              iprof_entry_context(iprof_model_entry_at(m, IPROF_KIND_CONDITIONAL, i)));
    /* A kind without entries: count 0, arrays not NULL. */
    c = columns_of(m, IPROF_KIND_SAMPLING);
    CHECK(c.count == 0 && c.record_count == 0 && c.frame_count == 0);
    CHECK(c.records && c.offsets && c.contexts && c.frames && c.frame_offsets);
    CHECK_EQ_INT(c.offsets[0], 0);
    CHECK_EQ_INT(c.frame_offsets[0], 0);
    iprof_model_free(m);
}

static void test_arguments(void)
{
    iprof_model *m = sample();
    iprof_columns c = IPROF_COLUMNS_INIT;
    CHECK_EQ_INT(iprof_model_get_columns(NULL, 0, &c), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_get_columns(m, 0, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_get_columns(m, -1, &c), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_get_columns(m, IPROF_KIND_COUNT, &c), IPROF_EINVAL);
    /* Unknown versions are refused, out unchanged. */
    c.version = 0;
    CHECK_EQ_INT(iprof_model_get_columns(m, 0, &c), IPROF_EINVAL);
    c.version = IPROF_COLUMNS_VERSION + 1;
    CHECK_EQ_INT(iprof_model_get_columns(m, 0, &c), IPROF_EINVAL);
    CHECK(c.count == 0 && c.records == NULL && c.version == IPROF_COLUMNS_VERSION + 1);
    iprof_model_free(m);
}

/* The sum of every record of a kind through the per-entry accessors. */
static int64_t sum_by_entry(const iprof_model *m, int kind)
{
    uint64_t s = 0;
    for (size_t i = 0; i < iprof_model_entry_count(m, kind); i++) {
        size_t n;
        const int64_t *r = iprof_entry_records(iprof_model_entry_at(m, kind, i), &n);
        for (size_t j = 0; j < n; j++)
            s += (uint64_t)r[j];
    }
    return (int64_t)s;
}

static int64_t sum_columns(const iprof_columns *c)
{
    uint64_t s = 0;
    for (size_t j = 0; j < c->record_count; j++)
        s += (uint64_t)c->records[j];
    return (int64_t)s;
}

static void test_cached_and_dropped(void)
{
    iprof_model *m = sample();
    const int K = IPROF_KIND_CONDITIONAL;
    iprof_columns a = columns_of(m, K), b = columns_of(m, K);
    /* Kept: the second call hands out the same arrays. */
    CHECK(a.records == b.records && a.frames == b.frames && a.offsets == b.offsets);
    CHECK_EQ_INT(sum_columns(&a), 14 + 20 + 201);
    /* A change to another kind keeps them. */
    static const int64_t f2[] = {1, 2, 2, 7}, f20[] = {2, 0}, cc[] = {3};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f20, 1, cc, 1));
    b = columns_of(m, K);
    CHECK(b.records == a.records);
    /* Each change to the kind's entries shows in the next call. */
    static const int64_t f0[] = {1, 0}, more[] = {3, 0, 100}; /* combined: 5 -> 105 */
    CHECK_OK(iprof_model_add_entry(m, K, f0, 1, more, 3));
    b = columns_of(m, K);
    CHECK_EQ_INT(sum_columns(&b), 335);
    CHECK_EQ_INT(b.records[2], 105);
    static const int64_t fresh[] = {1, 1, 1}, f9[] = {2, 9};
    CHECK_OK(iprof_model_add_entry(m, K, f9, 1, fresh, 3));
    b = columns_of(m, K);
    CHECK_EQ_INT(b.count, 4);
    CHECK_EQ_INT(b.offsets[4], 21);
    CHECK_EQ_INT(b.frame_offsets[4], 7);
    CHECK_EQ_INT(b.frames[12], 2);
    CHECK_EQ_INT(b.frames[13], 9);
    static const int64_t set[] = {9, 0, 1000};
    CHECK_OK(iprof_model_set_entry_records(m, K, f2, 2, set, 3));
    b = columns_of(m, K);
    CHECK_EQ_INT(b.records[8], 1000);
    CHECK_EQ_INT(sum_columns(&b), sum_by_entry(m, K));
    CHECK_OK(iprof_model_scale(m, K, 2.0, IPROF_ROUND_NEAREST_AWAY));
    b = columns_of(m, K);
    CHECK_EQ_INT(b.records[8], 2000);
    CHECK_EQ_INT(sum_columns(&b), sum_by_entry(m, K));
    CHECK_OK(iprof_model_remove_entry(m, K, f0, 1));
    b = columns_of(m, K);
    CHECK_EQ_INT(b.count, 3);
    CHECK_EQ_INT(b.records[0], 9);
    CHECK_EQ_INT(sum_columns(&b), sum_by_entry(m, K));
    /* A merge into the model (combining its entries). */
    iprof_model *src = sample();
    CHECK_OK(merge_weighted(m, src, 1.0));
    b = columns_of(m, K);
    CHECK_EQ_INT(b.count, iprof_model_entry_count(m, K));
    CHECK_EQ_INT(sum_columns(&b), sum_by_entry(m, K));
    /* 2,394 before (the records set and doubled), then src's 14 at f0,
     * 11 combined at f2, 180 at f4. */
    CHECK_EQ_INT(sum_columns(&b), 2394 + 14 + 11 + 180);
    /* The canonical form replaces every entry. */
    CHECK_OK(iprof_model_canonicalize(m, 0));
    b = columns_of(m, K);
    CHECK_EQ_INT(b.count, iprof_model_entry_count(m, K));
    CHECK_EQ_INT(sum_columns(&b), sum_by_entry(m, K));
    iprof_model_free(src);
    iprof_model_free(m);
}

static int double_counts(const iprof_entry *entry, int64_t *records, size_t record_count,
                         void *payload)
{
    (void)entry;
    (void)payload;
    for (size_t i = 2; i < record_count; i += 3)
        records[i] *= 2;
    return 0;
}

/* Conditional entries: those whose context is method 1 alone; others stay. */
static int keep_first_ctx_method_1(const iprof_entry *e, void *payload)
{
    (void)payload;
    if (iprof_entry_kind(e) != IPROF_KIND_CONDITIONAL)
        return 1;
    return iprof_context_method_id(iprof_entry_context(e)) == 1 &&
           iprof_context_depth(iprof_entry_context(e)) == 1;
}

static void test_dropped_by_map_and_retain(void)
{
    iprof_model *m = sample();
    const int K = IPROF_KIND_CONDITIONAL;
    iprof_columns b = columns_of(m, K);
    CHECK_OK(iprof_model_map_records(m, K, double_counts, NULL));
    b = columns_of(m, K);
    CHECK_EQ_INT(sum_columns(&b), 235 + 5 + 2 + 11 + 40 + 60 + 80);
    iprof_filter_options fo = IPROF_FILTER_OPTIONS_INIT;
    fo.keep_entry = keep_first_ctx_method_1;
    CHECK_OK(iprof_model_filter(m, &fo));
    b = columns_of(m, K);
    CHECK_EQ_INT(b.count, 1);
    CHECK_EQ_INT(b.record_count, 6);
    CHECK_EQ_INT(sum_columns(&b), 3 + 0 + 10 + 3 + 1 + 4);
    iprof_model_free(m);
}

static void test_alloc_failure(void)
{
    fail_alloc fa = {0};
    iprof_allocator a = fail_hook(&fa);
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, &a));
    static const int64_t sig[] = {0, 0}, f[] = {1, 3}, r[] = {3, 0, 5};
    CHECK_OK(iprof_model_add_type(m, 0, "T", 1, NULL));
    CHECK_OK(iprof_model_add_method(m, 1, "m", 1, sig, 2, NULL));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f, 1, r, 3));
    long blocks = fa.live_blocks;
    fa.count = 0;
    fa.fail_at = 1;
    iprof_columns c = IPROF_COLUMNS_INIT;
    CHECK_EQ_INT(iprof_model_get_columns(m, IPROF_KIND_CONDITIONAL, &c), IPROF_ENOMEM);
    CHECK(c.records == NULL && c.count == 0);
    CHECK_EQ_INT(fa.live_blocks, blocks);
    fa.fail_at = 0;
    CHECK_OK(iprof_model_get_columns(m, IPROF_KIND_CONDITIONAL, &c));
    CHECK_EQ_INT(c.records[2], 5);
    CHECK_EQ_INT(fa.live_blocks, blocks + 1);
    /* Dropped by a change, freed with the model: nothing leaks. */
    CHECK_OK(iprof_model_scale(m, IPROF_KIND_CONDITIONAL, 3.0, IPROF_ROUND_NEAREST_AWAY));
    CHECK_EQ_INT(fa.live_blocks, blocks);
    CHECK_OK(iprof_model_get_columns(m, IPROF_KIND_CONDITIONAL, &c));
    CHECK_EQ_INT(c.records[2], 15);
    iprof_model_free(m);
    CHECK_EQ_INT(fa.live_blocks, 0);
}

typedef struct race {
    const iprof_model *m;
    iprof_columns c;
    int rc;
} race;

static void *race_one(void *p)
{
    race *r = p;
    r->c = (iprof_columns)IPROF_COLUMNS_INIT;
    r->rc = iprof_model_get_columns(r->m, IPROF_KIND_CONDITIONAL, &r->c);
    return NULL;
}

static void test_threads(void)
{
    for (int round = 0; round < 20; round++) {
        iprof_model *m = sample();
        race rs[4];
        pthread_t th[4];
        for (int i = 0; i < 4; i++) {
            rs[i].m = m;
            CHECK_OK(pthread_create(&th[i], NULL, race_one, &rs[i]));
        }
        for (int i = 0; i < 4; i++)
            pthread_join(th[i], NULL);
        for (int i = 0; i < 4; i++) {
            CHECK_OK(rs[i].rc);
            CHECK(rs[i].c.records == rs[0].c.records); /* one published, the rest freed */
        }
        iprof_model_free(m);
    }
}

/* Every kind of every corpus file: the columns hold what the per-entry
 * accessors give, entry by entry. */
static void compare_with_entries(const iprof_model *m, int kind)
{
    iprof_columns c = columns_of(m, kind);
    size_t n = iprof_model_entry_count(m, kind);
    CHECK_EQ_INT(c.count, n);
    int same = 1;
    int64_t fr[2 * 64];
    for (size_t i = 0; i < n && same; i++) {
        const iprof_entry *e = iprof_model_entry_at(m, kind, i);
        size_t len;
        const int64_t *r = iprof_entry_records(e, &len);
        same = c.offsets[i + 1] - c.offsets[i] == len &&
               (len == 0 || memcmp(c.records + c.offsets[i], r, len * sizeof *r) == 0);
        size_t depth = iprof_context_frames(iprof_entry_context(e), fr, 64);
        same = same && c.contexts[i] == iprof_entry_context(e) &&
               c.frame_offsets[i + 1] - c.frame_offsets[i] == depth &&
               (depth > 64 ||
                memcmp(c.frames + 2 * c.frame_offsets[i], fr, 2 * depth * sizeof *fr) == 0);
    }
    CHECK(same);
    CHECK_EQ_INT(sum_columns(&c), sum_by_entry(m, kind));
}

static void test_corpus(void)
{
    const char *dir = check_corpus_dir();
    if (!dir)
        SKIP("corpus folder (IPROF_CORPUS_DIR) absent");
    static const char *files[] = {"jsonata-cli-0.4.0.iprof", "assorted-benchmarks-0.4.0.iprof",
                                  "elidemin-jspy-placeholders-1.0.0.iprof"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, files[f]);
        iprof_reader *reader = NULL;
        iprof_model *m = NULL;
        CHECK_OK(iprof_reader_new(&reader, NULL));
        CHECK_OK(iprof_model_load(&m, reader, SRC_PATH(path)));
        for (int k = 0; m && k < IPROF_KIND_COUNT; k++)
            compare_with_entries(m, k);
        if (m && f == 0) {
            /* Python's json over the same file: per kind, the sum of every
             * record, the number of records and of ctx frames. */
            static const int64_t want[][3] = {{29253155013, 8785, 31789},
                                              {23871476887, 40545, 20841},
                                              {192601011, 1144, 1363},
                                              {115997104, 32, 1},
                                              {1071, 161, 3950}};
            for (int k = 0; k < 5; k++) {
                iprof_columns c = columns_of(m, k);
                CHECK_EQ_INT(sum_columns(&c), want[k][0]);
                CHECK_EQ_INT(c.record_count, want[k][1]);
                CHECK_EQ_INT(c.frame_count, want[k][2]);
            }
        }
        iprof_model_free(m);
        iprof_reader_free(reader);
    }
}

/* Every kind, asked twice: the view of its entries, built once (the second
 * call gives the same arrays), and the refusals. */
static void test_every_kind(void)
{
    iprof_model *m = sample();
    for (int kind = 0; kind < IPROF_KIND_COUNT; kind++) {
        iprof_columns g = IPROF_COLUMNS_INIT, c = IPROF_COLUMNS_INIT;
        CHECK_OK(iprof_model_get_columns(m, kind, &g));
        CHECK_OK(iprof_model_get_columns(m, kind, &c));
        CHECK_EQ_INT(g.version, c.version);
        CHECK_EQ_INT(g.kind, kind);
        CHECK_EQ_INT(c.kind, kind);
        CHECK_EQ_INT(g.count, c.count);
        CHECK_EQ_INT(g.count, iprof_model_entry_count(m, kind));
        CHECK_EQ_INT(g.record_count, c.record_count);
        CHECK_EQ_INT(g.frame_count, c.frame_count);
        CHECK(g.records == c.records && g.offsets == c.offsets && g.contexts == c.contexts &&
              g.frames == c.frames && g.frame_offsets == c.frame_offsets);
    }
    iprof_columns g = IPROF_COLUMNS_INIT;
    CHECK_OK(iprof_model_get_columns(m, IPROF_KIND_CONDITIONAL, &g));
    CHECK_EQ_INT(g.count, 3);
    CHECK_EQ_INT(g.record_count, 18);
    CHECK_EQ_INT(g.frame_count, 6);
    CHECK_EQ_INT(iprof_model_get_columns(NULL, 0, &g), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_get_columns(m, 0, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_get_columns(m, IPROF_KIND_COUNT, &g), IPROF_EINVAL);
    g.version = IPROF_COLUMNS_VERSION + 1;
    CHECK_EQ_INT(iprof_model_get_columns(m, 0, &g), IPROF_EINVAL);
    iprof_model_free(m);
}

int main(void)
{
    RUN(test_exact_values);
    RUN(test_arguments);
    RUN(test_cached_and_dropped);
    RUN(test_dropped_by_map_and_retain);
    RUN(test_alloc_failure);
    RUN(test_threads);
    RUN(test_corpus);
    RUN(test_every_kind);
    return check_done();
}
