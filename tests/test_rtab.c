/* Unit tests of the table of 32-bit references with caller-side probing
 * (lib/common/rtab.c). The references index an array of items here, as
 * the model's context nodes are indexed. */
#include "check.h"
#include "check_alloc.h"

#include "alloc.h"
#include "rtab.h"

static fail_alloc fa; /* counts across the file's tests; see fail_after() */
static const iprof_allocator failing = {fa_malloc, fa_realloc, fa_free, &fa};

enum { N = 5000 };
static int keys[N + 1]; /* by reference; 0 unused */

/* The reference of the item with this key among hash h's, or 0. */
static uint32_t find(const ipi_rtab *t, uint64_t h, int key)
{
    uint32_t ref;
    ipi_rtab_for(t, h, ref)
    {
        if (keys[ref] == key)
            return ref;
    }
    return 0;
}

static int count_matches(const ipi_rtab *t, uint64_t h, int key)
{
    uint32_t ref;
    int n = 0;
    ipi_rtab_for(t, h, ref)
    {
        n += keys[ref] == key;
    }
    return n;
}

static int put(ipi_rtab *t, uint64_t h, uint32_t ref)
{
    int rc = ipi_rtab_reserve(t, &failing, 1);
    if (!rc)
        ipi_rtab_put(t, h, ref);
    return rc;
}

static void test_empty(void)
{
    ipi_rtab t;
    ipi_rtab_init(&t);
    CHECK_EQ_INT(find(&t, 42, 1), 0); /* no table yet: the loop runs zero times */
    CHECK_EQ_INT(ipi_rtab_remove(&t, 42, 1), 0);
    ipi_rtab_free(&t, &failing);
}

/* Hashes collide in groups of 10 (so probing must compare keys), and
 * differ only above bit 32 in pairs of groups: the table keeps the low
 * 32 bits, so those reach the caller's comparison too. */
static uint64_t hash_of(int i)
{
    return (uint64_t)(i / 20) * 0x9e3779b9u + ((uint64_t)(i / 10 % 2) << 40);
}

static void test_insert_find(void)
{
    ipi_rtab t;
    ipi_rtab_init(&t);
    for (int i = 1; i <= N; i++) {
        keys[i] = i * 3;
        CHECK_OK(put(&t, hash_of(i), (uint32_t)i));
    }
    CHECK_EQ_INT(t.count, N);
    CHECK(t.count <= t.cap / 4 * 3); /* load at most 3/4 */
    CHECK_EQ_INT(sizeof(ipi_rtab_slot), 8);
    int ok = 1;
    for (int i = 1; i <= N; i++)
        ok &= find(&t, hash_of(i), i * 3) == (uint32_t)i;
    CHECK(ok);
    /* A group's 10 and the other half's 10 share the low 32 bits. */
    CHECK_EQ_INT(count_matches(&t, hash_of(40), 40 * 3), 1);
    int seen = 0;
    uint32_t ref;
    ipi_rtab_for(&t, hash_of(40), ref)
    {
        seen++;
    }
    CHECK_EQ_INT(seen, 20);
    CHECK_EQ_INT(find(&t, 12345, 3), 0);
    ipi_rtab_free(&t, &failing);
}

static void test_reserve_and_failure(void)
{
    ipi_rtab t;
    ipi_rtab_init(&t);
    fail_after(&fa, 0); /* the slot array fails */
    CHECK_EQ_INT(ipi_rtab_reserve(&t, &failing, 100), IPROF_ENOMEM);
    CHECK_EQ_INT(t.cap, 0);
    fail_after(&fa, -1);
    CHECK_OK(ipi_rtab_reserve(&t, &failing, 100));
    size_t cap = t.cap;
    CHECK(cap / 4 * 3 >= 100);
    fail_after(&fa, 0); /* within the reservation nothing allocates */
    for (int i = 1; i <= 100; i++) {
        keys[i] = i;
        ipi_rtab_put(&t, (uint64_t)i, (uint32_t)i);
    }
    CHECK_EQ_INT(t.cap, cap);
    /* Growing past it fails cleanly and keeps the contents. */
    int i = 101;
    while (t.count + 1 <= t.cap / 4 * 3) {
        keys[i] = i;
        CHECK_OK(put(&t, 5, (uint32_t)i++));
    }
    size_t count = t.count;
    CHECK_EQ_INT(put(&t, 5, (uint32_t)i), IPROF_ENOMEM);
    CHECK_EQ_INT(t.count, count);
    CHECK_EQ_INT(find(&t, 42, 42), 42);
    fail_after(&fa, -1);
    /* References are 32 bits, 0 excepted: 2^32 - 1 fit, no more. */
    CHECK_EQ_INT(ipi_rtab_reserve(&t, &failing, (size_t)UINT32_MAX - t.count + 1),
                 IPROF_ELIMIT);
    CHECK_EQ_INT(ipi_rtab_reserve(&t, &failing, SIZE_MAX), IPROF_ELIMIT);
    CHECK_EQ_INT(t.cap, cap);
    ipi_rtab_free(&t, &failing);
    CHECK_EQ_INT(fa.live_blocks, 0);
}

/* Growing rehashes from the kept 32 bits: every reference stays findable
 * through each doubling. */
static void test_growth(void)
{
    ipi_rtab t;
    ipi_rtab_init(&t);
    long long before = fa.live_bytes;
    int ok = 1, sized = 1; /* grown in its block: the allocator holds cap slots */
    for (int i = 1; i <= N; i++) {
        keys[i] = i;
        size_t cap = t.cap;
        CHECK_OK(put(&t, (uint64_t)i * 0x9e3779b97f4a7c15u, (uint32_t)i));
        sized &= fa.live_bytes - before == (long long)(t.cap * sizeof(ipi_rtab_slot));
        if (t.cap != cap)
            for (int j = 1; j <= i; j++)
                ok &= find(&t, (uint64_t)j * 0x9e3779b97f4a7c15u, j) == (uint32_t)j;
    }
    CHECK(ok);
    CHECK(sized);
    CHECK_EQ_INT(t.cap, 8192);
    ipi_rtab_free(&t, &failing);
    CHECK_EQ_INT(fa.live_bytes, before);
}

/* Removal keeps every other reference findable: colliding hashes (runs
 * that wrap around the table's end) removed in a scrambled order, each
 * step checked against what should be left. */
static void test_remove(void)
{
    enum { M = 200 };
    int present[M + 1];
    ipi_rtab t;
    ipi_rtab_init(&t);
    for (int i = 1; i <= M; i++) {
        keys[i] = i;
        present[i] = 1;
        /* Seven hashes at the top of a 512-slot table (bits above 32
         * ignored): the run wraps. */
        CHECK_OK(put(&t, ((uint64_t)i << 32) + (uint64_t)(i % 7) + 500, (uint32_t)i));
    }
    CHECK_EQ_INT(t.cap, 512);
    CHECK_EQ_INT(ipi_rtab_remove(&t, 0, 1), 0); /* wrong hash: not found */
    uint64_t x = 12345;
    for (int step = 0; step < M; step++) {
        int i;
        do { /* a present reference, picked pseudo-randomly */
            x = x * 6364136223846793005u + 1442695040888963407u;
            i = (int)((x >> 33) % M) + 1;
        } while (!present[i]);
        CHECK_EQ_INT(ipi_rtab_remove(&t, (uint64_t)(i % 7) + 500, (uint32_t)i), 1);
        present[i] = 0;
        CHECK_EQ_INT(t.count, (size_t)(M - step - 1));
        int ok = 1;
        for (int j = 1; j <= M; j++)
            ok &= (find(&t, (uint64_t)(j % 7) + 500, j) != 0) == present[j];
        CHECK(ok);
    }
    CHECK_EQ_INT(ipi_rtab_remove(&t, 500, 7), 0);
    ipi_rtab_free(&t, &failing);
}

/* No duplicate check: the same reference twice is two slots. */
static void test_duplicates(void)
{
    ipi_rtab t;
    ipi_rtab_init(&t);
    keys[1] = 41;
    CHECK_OK(put(&t, 9, 1));
    CHECK_OK(put(&t, 9, 1));
    CHECK_EQ_INT(t.count, 2);
    CHECK_EQ_INT(count_matches(&t, 9, 41), 2);
    CHECK_EQ_INT(ipi_rtab_remove(&t, 9, 1), 1); /* one at a time */
    CHECK_EQ_INT(count_matches(&t, 9, 41), 1);
    ipi_rtab_free(&t, &failing);
}

/* The candidate a lookup compares first (what the merge fetches ahead):
 * the first reference with the hash's 32 bits along the probe sequence,
 * within the probes given, never one of other bits. */
static void test_candidate(void)
{
    ipi_rtab t;
    ipi_rtab_init(&t);
    CHECK_EQ_INT(ipi_rtab_candidate(&t, 3, 4), 0); /* no table yet */
    /* Five hashes with the same home slot in 16: they sit in slots 3..7. */
    for (uint32_t i = 0; i < 5; i++)
        CHECK_OK(put(&t, 3 + 16 * (uint64_t)i, i + 1));
    CHECK_EQ_INT(t.cap, 16);
    CHECK_EQ_INT(ipi_rtab_candidate(&t, 3, 4), 1);
    CHECK_EQ_INT(ipi_rtab_candidate(&t, 3 + 48, 4), 4); /* the fourth slot */
    CHECK_EQ_INT(ipi_rtab_candidate(&t, 3 + 64, 4), 0); /* the fifth: beyond 4 */
    CHECK_EQ_INT(ipi_rtab_candidate(&t, 3 + 64, 5), 5);
    CHECK_EQ_INT(ipi_rtab_candidate(&t, 3 + 80, 16), 0); /* stops at the empty slot 8 */
    CHECK_EQ_INT(ipi_rtab_candidate(&t, 9, 4), 0);       /* an empty home slot */
    /* Bits above 32 are not kept: the same low bits are a candidate. */
    CHECK_EQ_INT(ipi_rtab_candidate(&t, ((uint64_t)7 << 32) + 3 + 16, 4), 2);
    /* The same hash twice: the earlier reference, as a lookup meets it first. */
    CHECK_OK(put(&t, 3 + 16, 6));
    CHECK_EQ_INT(ipi_rtab_candidate(&t, 3 + 16, 4), 2);
    ipi_rtab_free(&t, &failing);
}

int main(void)
{
    RUN(test_empty);
    RUN(test_insert_find);
    RUN(test_reserve_and_failure);
    RUN(test_growth);
    RUN(test_remove);
    RUN(test_duplicates);
    RUN(test_candidate);
    return check_done();
}
