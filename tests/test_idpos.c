/* Unit tests of the id -> list position index (lib/common/idpos.c): the
 * bitmap while ids come in increasing order, the map of 4-byte positions
 * once they do not, and lookups that always give the FIRST position. */
#include "check.h"
#include "check_alloc.h"

#include "alloc.h"
#include "idpos.h"

static fail_alloc fa;
static const iprof_allocator failing = {fa_malloc, fa_realloc, fa_free, &fa};

/* A list of ids as the model keeps types or methods, with its index. */
#define CAP 5000
typedef struct list {
    int64_t ids[CAP];
    size_t n;
    ipi_idpos x;
} list;

static int64_t id_at(const void *l, size_t i)
{
    return ((const int64_t *)l)[i];
}

static int push(list *l, int64_t id)
{
    int rc = ipi_idpos_reserve(&l->x, &failing, l->n, id);
    if (rc)
        return rc;
    ipi_idpos_put_reserved(&l->x, l->n, id);
    l->ids[l->n++] = id;
    return IPROF_OK;
}

/* The index's answer for id: its position, or -1. */
static long long pos_of(const list *l, int64_t id)
{
    uint64_t p = ipi_idpos_get(&l->x, id);
    return p < l->n ? (long long)p : -1;
}

/* Whether every id of the list and its neighbours gives its first
 * position (found by a scan), and the ids not in it -1. */
static int agrees(const list *l)
{
    int ok = 1;
    for (size_t i = 0; i < l->n; i++)
        for (int64_t d = -1; d <= 1; d++) {
            int64_t id = l->ids[i];
            if ((d < 0 && id == INT64_MIN) || (d > 0 && id == INT64_MAX))
                continue;
            id += d;
            long long want = -1;
            for (size_t j = 0; j < l->n && want < 0; j++)
                if (l->ids[j] == id)
                    want = (long long)j;
            if (pos_of(l, id) != want && ok) { /* the first disagreement */
                fprintf(stderr, "id %lld: position %lld, want %lld\n", (long long)id,
                        pos_of(l, id), want);
                ok = 0;
            }
        }
    return ok;
}

static void remove_at(list *l, size_t pos)
{
    int64_t id = l->ids[pos];
    memmove(&l->ids[pos], &l->ids[pos + 1], (l->n - pos - 1) * sizeof *l->ids);
    l->n--;
    ipi_idpos_removed(&l->x, l->n, pos, id, id_at, l->ids);
}

static list *new_list(void)
{
    list *l = calloc(1, sizeof *l);
    if (l)
        ipi_idpos_init(&l->x);
    return l;
}

static void free_list(list *l)
{
    ipi_idpos_free(&l->x, &failing);
    free(l);
}

/* Increasing ids with gaps, as files number them: no map, and under a
 * byte per id. */
static void test_in_order(void)
{
    list *l = new_list();
    CHECK(pos_of(l, 0) == -1); /* empty: nothing allocated */
    for (int64_t i = 0; i < 3000; i++)
        CHECK_OK(push(l, 100 + i + i / 10)); /* a gap every 10 ids */
    CHECK_EQ_INT(l->x.mapped, 0);
    CHECK(agrees(l));
    CHECK_EQ_INT(pos_of(l, 100), 0);
    CHECK_EQ_INT(pos_of(l, 111), 10);
    CHECK_EQ_INT(pos_of(l, 110), -1); /* a gap */
    CHECK_EQ_INT(pos_of(l, 99), -1);
    CHECK_EQ_INT(ipi_idpos_max(&l->x, l->n), 100 + 2999 + 299);
    CHECK_EQ_INT(ipi_idpos_distinct(&l->x, l->n), 3000);
    CHECK(ipi_idpos_bytes(&l->x) < 3000);
    ipi_idpos_shrink(&l->x, &failing);
    CHECK_EQ_INT(ipi_idpos_bytes(&l->x), 52 * 12); /* 3299 ids: 52 words */
    CHECK(agrees(l));
    free_list(l);
    CHECK_EQ_INT(fa.live_blocks, 0);
}

/* An id out of order turns the index into a map holding every position
 * before it; lookups go on giving the first. */
static void test_out_of_order(void)
{
    list *l = new_list();
    for (int64_t i = 0; i < 200; i++)
        CHECK_OK(push(l, i * 2));
    CHECK_EQ_INT(l->x.mapped, 0);
    CHECK_OK(push(l, 7)); /* below the last */
    CHECK_EQ_INT(l->x.mapped, 1);
    CHECK_EQ_INT(pos_of(l, 7), 200);
    CHECK_EQ_INT(pos_of(l, 398), 199);
    CHECK_OK(push(l, 1000));
    CHECK(agrees(l));
    CHECK_EQ_INT(ipi_idpos_max(&l->x, l->n), 1000);
    /* Removing the one out of order: lookups still right (the map stays). */
    remove_at(l, 200);
    CHECK_EQ_INT(pos_of(l, 7), -1);
    CHECK_EQ_INT(pos_of(l, 1000), 200);
    CHECK(agrees(l));
    free_list(l);
}

/* A repeated id: the map, the first position wins; removing the first
 * makes the next holder's position the answer. */
static void test_duplicate(void)
{
    list *l = new_list();
    CHECK_OK(push(l, 5));
    CHECK_OK(push(l, 6));
    CHECK_OK(push(l, 6));
    CHECK_EQ_INT(l->x.mapped, 1);
    CHECK_OK(push(l, 8));
    CHECK_OK(push(l, 5));
    CHECK_EQ_INT(pos_of(l, 6), 1);
    CHECK_EQ_INT(pos_of(l, 5), 0);
    CHECK_EQ_INT(pos_of(l, 8), 3);
    CHECK_EQ_INT(ipi_idpos_distinct(&l->x, l->n), 3);
    CHECK(agrees(l));
    remove_at(l, 1); /* the first 6 */
    CHECK_EQ_INT(pos_of(l, 6), 1);
    CHECK_EQ_INT(pos_of(l, 5), 0); /* not the later 5 */
    CHECK(agrees(l));
    remove_at(l, 0); /* the first 5 */
    CHECK_EQ_INT(pos_of(l, 5), 2);
    CHECK_EQ_INT(pos_of(l, 8), 1);
    CHECK(agrees(l));
    free_list(l);
}

/* Removal keeps the order: the bitmap stays, positions shift. */
static void test_remove(void)
{
    list *l = new_list();
    for (int64_t i = 0; i < 1000; i++)
        CHECK_OK(push(l, i + (i > 500 ? 40 : 0)));
    remove_at(l, 300);
    CHECK_EQ_INT(l->x.mapped, 0);
    CHECK_EQ_INT(pos_of(l, 300), -1);
    CHECK_EQ_INT(pos_of(l, 301), 300);
    CHECK_EQ_INT(pos_of(l, 999 + 40), 998);
    remove_at(l, l->n - 1); /* the last: the next push may reuse its id */
    CHECK_EQ_INT(ipi_idpos_max(&l->x, l->n), 998 + 40);
    CHECK_OK(push(l, 999 + 40));
    CHECK_EQ_INT(l->x.mapped, 0);
    remove_at(l, 0);
    CHECK_EQ_INT(pos_of(l, 0), -1);
    CHECK_EQ_INT(pos_of(l, 1), 0);
    CHECK(agrees(l));
    /* The last goes, and the ids appended after it land in the words it
     * left: their ranks must count what came in between. */
    free_list(l);
    l = new_list();
    for (int64_t i = 0; i < 64; i++)
        CHECK_OK(push(l, i));
    CHECK_OK(push(l, 200));
    remove_at(l, 64);
    CHECK_OK(push(l, 100));
    CHECK_OK(push(l, 130));
    CHECK_OK(push(l, 300));
    CHECK_EQ_INT(l->x.mapped, 0);
    CHECK_EQ_INT(pos_of(l, 130), 65);
    CHECK_EQ_INT(pos_of(l, 300), 66);
    CHECK(agrees(l));
    /* The same after a filter that drops the last ids. */
    for (int64_t i = 400; i < 600; i++)
        CHECK_OK(push(l, i));
    size_t j = 0;
    for (size_t i = 0; i < l->n; i++)
        if (l->ids[i] < 150)
            l->ids[j++] = l->ids[i];
    l->n = j;
    ipi_idpos_rebuild(&l->x, l->n, id_at, l->ids);
    CHECK_OK(push(l, 160));
    CHECK_OK(push(l, 500));
    CHECK_EQ_INT(pos_of(l, 500), 67);
    CHECK(agrees(l));
    while (l->n)
        remove_at(l, l->n / 2);
    CHECK_EQ_INT(ipi_idpos_max(&l->x, 0), INT64_MIN);
    CHECK_OK(push(l, -50)); /* empty again: a new base */
    CHECK_OK(push(l, -49));
    CHECK_EQ_INT(l->x.mapped, 0);
    CHECK(agrees(l));
    free_list(l);
}

/* A filter (retain) and undoing appends (a failed merge). */
static void test_rebuild_and_truncate(void)
{
    for (int mapped = 0; mapped < 2; mapped++) {
        list *l = new_list();
        if (mapped)
            CHECK_OK(push(l, 4000)); /* first, so that the rest is out of order */
        for (int64_t i = 0; i < 500; i++)
            CHECK_OK(push(l, i * 3));
        CHECK_EQ_INT(l->x.mapped, mapped);
        size_t j = 0;
        for (size_t i = 0; i < l->n; i++)
            if (l->ids[i] % 2 == 0)
                l->ids[j++] = l->ids[i];
        l->n = j;
        ipi_idpos_rebuild(&l->x, l->n, id_at, l->ids);
        CHECK_EQ_INT(pos_of(l, 3), -1);
        CHECK_EQ_INT(pos_of(l, 6), 1 + mapped);
        CHECK(agrees(l));
        size_t keep = l->n;
        for (int64_t i = 0; i < 100; i++)
            CHECK_OK(push(l, 5000 + i));
        CHECK(agrees(l));
        ipi_idpos_truncate(&l->x, l->n, keep, id_at, l->ids);
        l->n = keep;
        CHECK_EQ_INT(pos_of(l, 5000), -1);
        CHECK_EQ_INT(ipi_idpos_max(&l->x, l->n), mapped ? 4000 : 1494);
        CHECK(agrees(l));
        CHECK_OK(push(l, 7000));
        CHECK_EQ_INT(pos_of(l, 7000), (long long)keep);
        CHECK(agrees(l));
        free_list(l);
    }
}

/* The extreme ids: in order across the whole range (too sparse for a
 * bitmap: the map), and at either end in order (the bitmap). */
static void test_extremes(void)
{
    list *l = new_list();
    CHECK_OK(push(l, INT64_MIN));
    CHECK_OK(push(l, INT64_MIN + 1));
    CHECK_EQ_INT(l->x.mapped, 0);
    CHECK_EQ_INT(pos_of(l, INT64_MIN + 1), 1);
    CHECK_EQ_INT(pos_of(l, INT64_MAX), -1);
    CHECK_OK(push(l, INT64_MAX));
    CHECK_EQ_INT(l->x.mapped, 1);
    CHECK_EQ_INT(pos_of(l, INT64_MIN), 0);
    CHECK_EQ_INT(pos_of(l, INT64_MAX), 2);
    CHECK_EQ_INT(ipi_idpos_max(&l->x, l->n), INT64_MAX);
    CHECK(agrees(l));
    free_list(l);

    l = new_list();
    CHECK_OK(push(l, INT64_MAX - 1));
    CHECK_OK(push(l, INT64_MAX));
    CHECK_EQ_INT(l->x.mapped, 0);
    CHECK_EQ_INT(pos_of(l, INT64_MAX), 1);
    CHECK_EQ_INT(pos_of(l, INT64_MIN), -1); /* past the top: wraps, not found */
    CHECK_EQ_INT(pos_of(l, INT64_MIN + 1), -1);
    CHECK_EQ_INT(ipi_idpos_max(&l->x, l->n), INT64_MAX);
    CHECK_OK(push(l, INT64_MIN)); /* not above the last: the map */
    CHECK_EQ_INT(l->x.mapped, 1);
    CHECK_EQ_INT(pos_of(l, INT64_MIN), 2);
    CHECK(agrees(l));
    free_list(l);
}

/* Out of memory while turning into a map or growing: the index answers
 * as before and the next push succeeds. */
static void test_failure(void)
{
    list *l = new_list();
    for (int64_t i = 0; i < 100; i++)
        CHECK_OK(push(l, i));
    fa.count = 0;
    fa.fail_at = 1;
    CHECK_EQ_INT(push(l, 3), IPROF_ENOMEM);
    CHECK_EQ_INT(l->x.mapped, 0);
    CHECK(agrees(l));
    fa.count = 0;
    fa.fail_at = 1;
    CHECK_EQ_INT(push(l, 100000), IPROF_ENOMEM); /* the bitmap's growth */
    CHECK(agrees(l));
    fa.fail_at = 0;
    CHECK_OK(push(l, 3));
    CHECK_EQ_INT(pos_of(l, 3), 3);
    CHECK(agrees(l));
    /* Too many positions for 32 bits. */
    CHECK_EQ_INT(ipi_idpos_reserve(&l->x, &failing, IPI_IDPOS_MAX, 1), IPROF_ELIMIT);
    free_list(l);

    /* A shrink the allocator refuses keeps the larger block, and works. */
    l = new_list();
    for (int64_t i = 0; i < 1100; i++)
        CHECK_OK(push(l, i));
    CHECK(l->x.word_cap > l->x.words);
    fa.count = 0;
    fa.fail_at = 1;
    ipi_idpos_shrink(&l->x, &failing);
    fa.fail_at = 0;
    CHECK_EQ_INT(l->x.block_size, (long long)fa.live_bytes);
    CHECK_EQ_INT(ipi_idpos_bytes(&l->x), l->x.block_size);
    CHECK(agrees(l));
    for (int64_t i = 1100; i < 2000; i++)
        CHECK_OK(push(l, i));
    CHECK(agrees(l));
    ipi_idpos_shrink(&l->x, &failing);
    CHECK_EQ_INT(ipi_idpos_bytes(&l->x), 32 * 12); /* 2000 ids: 32 words */
    CHECK(agrees(l));
    free_list(l);
    CHECK_EQ_INT(fa.live_blocks, 0);
}

static uint64_t rnd(uint64_t *r)
{
    *r = *r * 6364136223846793005u + 1442695040888963407u;
    return *r >> 33;
}

/* Random edits against the scan: appends mostly in order with gaps (now
 * and then one out of order or repeated), removals anywhere, filters and
 * truncations, every answer checked after each step. Fixed seeds. */
static void test_random(void)
{
    for (uint64_t seed = 1; seed <= 40; seed++) {
        uint64_t r = seed * 0x9E3779B97F4A7C15u;
        list *l = new_list();
        int ok = 1;
        int64_t next = (int64_t)(rnd(&r) % 200) - 100;
        for (int step = 0; step < 300 && ok; step++) {
            uint64_t op = rnd(&r) % 100;
            if (op < 70 && l->n < CAP) {
                int64_t id = next;
                if (rnd(&r) % 50 == 0 && l->n) /* out of order or repeated */
                    id = l->ids[rnd(&r) % l->n] - (int64_t)(rnd(&r) % 2);
                else
                    next += 1 + (int64_t)(rnd(&r) % (rnd(&r) % 8 == 0 ? 200 : 3));
                ok &= push(l, id) == IPROF_OK;
            } else if (op < 90 && l->n) {
                remove_at(l, (size_t)(rnd(&r) % l->n));
            } else if (op < 95) {
                size_t j = 0;
                uint64_t drop = rnd(&r) % 4;
                for (size_t i = 0; i < l->n; i++)
                    if ((uint64_t)l->ids[i] % 4 != drop)
                        l->ids[j++] = l->ids[i];
                l->n = j;
                ipi_idpos_rebuild(&l->x, l->n, id_at, l->ids);
            } else if (l->n) {
                size_t keep = (size_t)(rnd(&r) % l->n);
                ipi_idpos_truncate(&l->x, l->n, keep, id_at, l->ids);
                l->n = keep;
            }
            ok &= agrees(l);
            int64_t max = INT64_MIN;
            for (size_t i = 0; i < l->n; i++)
                max = l->ids[i] > max ? l->ids[i] : max;
            ok &= ipi_idpos_max(&l->x, l->n) == max;
        }
        if (!ok)
            fprintf(stderr, "seed %llu\n", (unsigned long long)seed);
        CHECK(ok);
        free_list(l);
    }
    CHECK_EQ_INT(fa.live_blocks, 0);
}

int main(void)
{
    RUN(test_in_order);
    RUN(test_out_of_order);
    RUN(test_duplicate);
    RUN(test_remove);
    RUN(test_rebuild_and_truncate);
    RUN(test_extremes);
    RUN(test_failure);
    RUN(test_random);
    return check_done();
}
