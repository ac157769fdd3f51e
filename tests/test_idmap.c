/* Unit tests of the int64 -> pointer map (lib/common/idmap.c). */
#include "check.h"
#include "check_alloc.h"

#include "alloc.h"
#include "idmap.h"

static fail_alloc fa; /* counts across the file's tests; see fail_after() */
static const iprof_allocator failing = {fa_malloc, fa_realloc, fa_free, &fa};

/* Distinct non-NULL values to store. */
static char vals[4096];
#define V(i) ((void *)&vals[(i) % 4096])

static void test_basic(void)
{
    ipi_idmap m;
    ipi_idmap_init(&m);
    CHECK(ipi_idmap_get(&m, 0) == NULL); /* empty map, no table */
    CHECK(ipi_idmap_del(&m, 0) == NULL);
    CHECK_OK(ipi_idmap_put(&m, &failing, 5, V(1)));
    CHECK_OK(ipi_idmap_put(&m, &failing, -1, V(2)));
    CHECK_OK(ipi_idmap_put(&m, &failing, INT64_MIN, V(3)));
    CHECK_OK(ipi_idmap_put(&m, &failing, INT64_MAX, V(4)));
    CHECK_OK(ipi_idmap_put(&m, &failing, 0, V(5)));
    CHECK_EQ_INT(m.count, 5);
    CHECK(ipi_idmap_get(&m, 5) == V(1));
    CHECK(ipi_idmap_get(&m, -1) == V(2));
    CHECK(ipi_idmap_get(&m, INT64_MIN) == V(3));
    CHECK(ipi_idmap_get(&m, INT64_MAX) == V(4));
    CHECK(ipi_idmap_get(&m, 0) == V(5));
    CHECK(ipi_idmap_get(&m, 6) == NULL);
    /* put replaces */
    CHECK_OK(ipi_idmap_put(&m, &failing, 5, V(9)));
    CHECK_EQ_INT(m.count, 5);
    CHECK(ipi_idmap_get(&m, 5) == V(9));
    CHECK(ipi_idmap_del(&m, 5) == V(9));
    CHECK(ipi_idmap_del(&m, 5) == NULL);
    CHECK_EQ_INT(m.count, 4);
    ipi_idmap_clear(&m);
    CHECK_EQ_INT(m.count, 0);
    CHECK(ipi_idmap_get(&m, -1) == NULL);
    ipi_idmap_free(&m, &failing);
    CHECK(m.cap == 0 && m.keys == NULL && m.vals == NULL);
}

/* Many keys, including clustered ones, then delete half and check that
 * backward-shift deletion kept every other key reachable. */
static void test_many_and_delete(void)
{
    ipi_idmap m;
    ipi_idmap_init(&m);
    const int64_t n = 20000;
    for (int64_t i = 0; i < n; i++)
        CHECK_OK(ipi_idmap_put(&m, &failing, i * 7 - 5000, V(i)));
    CHECK_EQ_INT(m.count, n);
    CHECK(m.count * 2 <= m.cap); /* load at most one half */
    int ok = 1;
    for (int64_t i = 0; i < n; i++)
        ok &= ipi_idmap_get(&m, i * 7 - 5000) == V(i);
    CHECK(ok);
    for (int64_t i = 0; i < n; i += 2)
        ok &= ipi_idmap_del(&m, i * 7 - 5000) == V(i);
    CHECK(ok);
    CHECK_EQ_INT(m.count, n / 2);
    for (int64_t i = 0; i < n; i++)
        ok &= ipi_idmap_get(&m, i * 7 - 5000) == (i % 2 ? V(i) : NULL);
    CHECK(ok);
    /* Re-add; nothing stale comes back. */
    for (int64_t i = 0; i < n; i += 2)
        CHECK_OK(ipi_idmap_put(&m, &failing, i * 7 - 5000, V(i + 1)));
    for (int64_t i = 0; i < n; i++)
        ok &= ipi_idmap_get(&m, i * 7 - 5000) == (i % 2 ? V(i) : V(i + 1));
    CHECK(ok);
    ipi_idmap_free(&m, &failing);
}

static void test_reserve(void)
{
    ipi_idmap m;
    ipi_idmap_init(&m);
    CHECK_OK(ipi_idmap_reserve(&m, &failing, 1000));
    size_t cap = m.cap;
    CHECK(cap >= 2000);
    /* No allocation while within the reservation (ids beyond any dense
     * array go to the reserved hash part). */
    fail_after(&fa, 0);
    for (int64_t i = 0; i < 1000; i++)
        ipi_idmap_put_reserved(&m, i * 1000003, V(i));
    CHECK_EQ_INT(m.cap, cap);
    CHECK_EQ_INT(m.count, 1000);
    CHECK(ipi_idmap_get(&m, 999 * 1000003) == V(999));
    fail_after(&fa, -1);
    CHECK_EQ_INT(ipi_idmap_reserve(&m, &failing, SIZE_MAX / 2), IPROF_ENOMEM);
    ipi_idmap_free(&m, &failing);
}

/* Small non-negative ids live in the dense array; growing it moves the
 * ids it now covers out of the hash part, and sparse ids never grow it. */
static void test_dense(void)
{
    ipi_idmap m;
    ipi_idmap_init(&m);
    fail_after(&fa, -1);
    CHECK_OK(ipi_idmap_put(&m, &failing, 1000, V(1))); /* too far for 1 id: hash */
    CHECK_EQ_INT(m.dense_cap, 0);
    CHECK_EQ_INT(m.hash_count, 1);
    for (int64_t i = 0; i < 400; i++)
        CHECK_OK(ipi_idmap_put(&m, &failing, i, V(i + 2)));
    CHECK_EQ_INT(m.dense_cap, 486); /* 64 grown by halves, as far as keys need */
    CHECK_EQ_INT(m.hash_count, 1);
    CHECK_OK(ipi_idmap_put(&m, &failing, 900, V(3)));
    CHECK_EQ_INT(m.dense_cap, 1093); /* and then takes over 1000 */
    CHECK_EQ_INT(m.hash_count, 0);
    CHECK_EQ_INT(m.count, 402);
    CHECK(ipi_idmap_get(&m, 1000) == V(1));
    CHECK(ipi_idmap_get(&m, 399) == V(401));
    CHECK(ipi_idmap_get(&m, 400) == NULL);
    CHECK_OK(ipi_idmap_put(&m, &failing, (int64_t)1 << 40, V(7)));
    CHECK_EQ_INT(m.hash_count, 1);
    CHECK(ipi_idmap_del(&m, 1000) == V(1));
    CHECK(ipi_idmap_get(&m, 1000) == NULL);
    CHECK_EQ_INT(m.count, 402);
    ipi_idmap_free(&m, &failing);
    /* A failed dense growth is reported, and the map is unchanged. */
    ipi_idmap_init(&m);
    fail_after(&fa, 0);
    CHECK_EQ_INT(ipi_idmap_reserve_key(&m, &failing, 3), IPROF_ENOMEM);
    CHECK_EQ_INT(m.count, 0);
    CHECK_EQ_INT(m.dense_cap, 0);
    fail_after(&fa, -1);
    ipi_idmap_free(&m, &failing);
}

static void test_failure_keeps_map(void)
{
    ipi_idmap m;
    ipi_idmap_init(&m);
    fail_after(&fa, 0);
    CHECK_EQ_INT(ipi_idmap_put(&m, &failing, 1, V(1)), IPROF_ENOMEM);
    CHECK_EQ_INT(m.count, 0);
    fail_after(&fa, -1);
    int64_t i = 0;
    while (m.count * 2 + 2 <= (m.cap ? m.cap : 16)) {
        CHECK_OK(ipi_idmap_put(&m, &failing, i, V(i)));
        i++;
    }
    /* The next put must grow: fail the first or the second array. */
    for (long k = 0; k < 2; k++) {
        fail_after(&fa, k);
        CHECK_EQ_INT(ipi_idmap_put(&m, &failing, 99999, V(1)), IPROF_ENOMEM);
        CHECK_EQ_INT(m.count, (size_t)i);
        CHECK(ipi_idmap_get(&m, 99999) == NULL);
        CHECK(ipi_idmap_get(&m, 0) == V(0));
    }
    fail_after(&fa, -1);
    CHECK_OK(ipi_idmap_put(&m, &failing, 99999, V(1)));
    CHECK(ipi_idmap_get(&m, 99999) == V(1));
    ipi_idmap_free(&m, &failing);
}

/* Sized up front, the dense array takes every id in one allocation; ids
 * too sparse for it leave it alone; ids already in the hash part move. */
static void test_size_for(void)
{
    ipi_idmap m;
    ipi_idmap_init(&m);
    CHECK_OK(ipi_idmap_put(&m, &failing, 700, V(700))); /* in the hash part */
    CHECK_OK(ipi_idmap_size_for(&m, &failing, 999, 1000));
    CHECK_EQ_INT(m.dense_cap, 1000);
    CHECK_EQ_INT(m.hash_count, 0);
    CHECK(ipi_idmap_get(&m, 700) == V(700));
    fail_after(&fa, 0); /* from now on every allocation fails */
    for (int64_t i = 0; i < 1000; i++)
        ipi_idmap_put_reserved(&m, i, V(i));
    fail_after(&fa, -1);
    CHECK_EQ_INT(m.count, 1000);
    CHECK_EQ_INT(m.dense_cap, 1000);
    int ok = 1;
    for (int64_t i = 0; i < 1000; i++)
        ok &= ipi_idmap_get(&m, i) == V(i);
    CHECK(ok);
    ipi_idmap_free(&m, &failing);
    /* Too sparse (a million slots for ten ids): no dense array. */
    ipi_idmap_init(&m);
    CHECK_OK(ipi_idmap_size_for(&m, &failing, 1000000, 10));
    CHECK_EQ_INT(m.dense_cap, 0);
    CHECK_OK(ipi_idmap_size_for(&m, &failing, -5, 10));
    CHECK_EQ_INT(m.dense_cap, 0);
    ipi_idmap_free(&m, &failing);
}

/* The largest key: from either part, after deletions, with negative and
 * extreme keys; INT64_MIN when empty. */
static void test_max_key(void)
{
    ipi_idmap m;
    ipi_idmap_init(&m);
    CHECK_EQ_INT(ipi_idmap_max_key(&m), INT64_MIN);
    CHECK_OK(ipi_idmap_put(&m, &failing, -7, V(1)));
    CHECK_EQ_INT(ipi_idmap_max_key(&m), -7);
    CHECK_OK(ipi_idmap_size_for(&m, &failing, 999, 1000));
    for (int64_t i = 0; i < 600; i++)
        CHECK_OK(ipi_idmap_put(&m, &failing, i, V(i)));
    CHECK(m.dense_cap == 1000);
    CHECK_EQ_INT(ipi_idmap_max_key(&m), 599); /* the dense part's top is empty */
    CHECK_OK(ipi_idmap_put(&m, &failing, 5000000, V(2))); /* hash part, above */
    CHECK_EQ_INT(ipi_idmap_max_key(&m), 5000000);
    CHECK(ipi_idmap_del(&m, 5000000) == V(2));
    CHECK_OK(ipi_idmap_put(&m, &failing, 1000, V(3))); /* just past the dense part */
    CHECK_EQ_INT(ipi_idmap_max_key(&m), 1000);
    CHECK(ipi_idmap_del(&m, 1000) == V(3));
    CHECK(ipi_idmap_del(&m, 599) == V(599));
    CHECK_EQ_INT(ipi_idmap_max_key(&m), 598);
    CHECK_OK(ipi_idmap_put(&m, &failing, INT64_MAX, V(4)));
    CHECK_EQ_INT(ipi_idmap_max_key(&m), INT64_MAX);
    ipi_idmap_clear(&m);
    CHECK_EQ_INT(ipi_idmap_max_key(&m), INT64_MIN);
    CHECK_OK(ipi_idmap_put(&m, &failing, INT64_MIN, V(5)));
    CHECK_EQ_INT(ipi_idmap_max_key(&m), INT64_MIN);
    CHECK_OK(ipi_idmap_put(&m, &failing, 0, V(6)));
    CHECK_EQ_INT(ipi_idmap_max_key(&m), 0);
    ipi_idmap_free(&m, &failing);
}

int main(void)
{
    RUN(test_basic);
    RUN(test_many_and_delete);
    RUN(test_reserve);
    RUN(test_dense);
    RUN(test_failure_keeps_map);
    RUN(test_size_for);
    RUN(test_max_key);
    return check_done();
}
