/* Unit tests of the pointer hash table with caller-side probing
 * (lib/common/htab.c). */
#include "check.h"
#include "check_alloc.h"

#include "alloc.h"
#include "htab.h"

static fail_alloc fa; /* counts across the file's tests; see fail_after() */
static const iprof_allocator failing = {fa_malloc, fa_realloc, fa_free, &fa};

typedef struct item {
    int key;
    int val;
} item;

/* All items with hash h and this key, counted. */
static int count_matches(const ipi_htab *t, uint64_t h, int key)
{
    void *it;
    int n = 0;
    ipi_htab_for(t, h, it)
    {
        if (((item *)it)->key == key)
            n++;
    }
    return n;
}

static item *find(const ipi_htab *t, uint64_t h, int key)
{
    void *it;
    ipi_htab_for(t, h, it)
    {
        if (((item *)it)->key == key)
            return it;
    }
    return NULL;
}

static void test_empty(void)
{
    ipi_htab t;
    ipi_htab_init(&t);
    CHECK(find(&t, 42, 1) == NULL); /* no table yet: the loop runs zero times */
    ipi_htab_free(&t, &failing);
}

static void test_insert_find(void)
{
    enum { N = 5000 };
    static item items[N];
    ipi_htab t;
    ipi_htab_init(&t);
    long long before = fa.live_bytes;
    /* Hashes collide in groups of 10, so probing must compare keys. The
     * table grows in its block: the allocator always holds cap slots. */
    int sized = 1;
    for (int i = 0; i < N; i++) {
        items[i] = (item){i, i * 3};
        CHECK_OK(ipi_htab_insert(&t, &failing, (uint64_t)(i / 10) * 0x9e3779b97f4a7c15ULL,
                                 &items[i]));
        sized &= fa.live_bytes - before == (long long)(t.cap * sizeof(ipi_htab_slot));
    }
    CHECK(sized);
    CHECK_EQ_INT(t.count, N);
    CHECK(t.count <= t.cap / 4 * 3); /* load at most 3/4 */
    int ok = 1;
    for (int i = 0; i < N; i++) {
        item *f = find(&t, (uint64_t)(i / 10) * 0x9e3779b97f4a7c15ULL, i);
        ok &= f == &items[i] && f->val == i * 3;
    }
    CHECK(ok);
    CHECK(find(&t, 12345, 3) == NULL);
    ipi_htab_free(&t, &failing);
    CHECK_EQ_INT(fa.live_bytes, before);
}

/* No duplicate check: the same item twice is two slots. */
static void test_duplicates(void)
{
    ipi_htab t;
    ipi_htab_init(&t);
    item a = {7, 0}, b = {7, 1};
    CHECK_OK(ipi_htab_insert(&t, &failing, 99, &a));
    CHECK_OK(ipi_htab_insert(&t, &failing, 99, &b));
    CHECK_OK(ipi_htab_insert(&t, &failing, 99, &a));
    CHECK_EQ_INT(count_matches(&t, 99, 7), 3);
    CHECK_EQ_INT(count_matches(&t, 98, 7), 0); /* other hash: filtered out */
    ipi_htab_free(&t, &failing);
}

static void test_reserve_and_failure(void)
{
    ipi_htab t;
    ipi_htab_init(&t);
    fail_after(&fa, 0);
    item x = {1, 1};
    CHECK_EQ_INT(ipi_htab_insert(&t, &failing, 1, &x), IPROF_ENOMEM);
    CHECK_EQ_INT(t.count, 0);
    fail_after(&fa, 0); /* the slot array fails */
    CHECK_EQ_INT(ipi_htab_reserve(&t, &failing, 100), IPROF_ENOMEM);
    CHECK_EQ_INT(t.cap, 0);
    fail_after(&fa, -1);
    CHECK_OK(ipi_htab_reserve(&t, &failing, 100));
    size_t cap = t.cap;
    CHECK(cap / 4 * 3 >= 100); /* load stays at most 3/4 */
    static item many[100];
    fail_after(&fa, 0); /* within the reservation nothing allocates */
    for (int i = 0; i < 100; i++) {
        many[i] = (item){i, i};
        CHECK_OK(ipi_htab_insert(&t, &failing, (uint64_t)i, &many[i]));
    }
    CHECK_EQ_INT(t.cap, cap);
    /* Growing past it fails cleanly and keeps the contents. */
    while (t.count + 1 <= t.cap / 4 * 3)
        CHECK_OK(ipi_htab_insert(&t, &failing, 5, &x));
    size_t count = t.count;
    CHECK_EQ_INT(ipi_htab_insert(&t, &failing, 5, &x), IPROF_ENOMEM);
    CHECK_EQ_INT(t.count, count);
    CHECK(find(&t, 42, 42) == &many[42]);
    fail_after(&fa, -1);
    CHECK_EQ_INT(ipi_htab_reserve(&t, &failing, SIZE_MAX / 2), IPROF_ENOMEM);
    ipi_htab_free(&t, &failing);
}

/* Removal keeps every other item findable: items with colliding hashes
 * (runs that wrap around the table's end) removed in a scrambled order,
 * each step checked against what should be left. */
static void test_remove(void)
{
    enum { N = 200 };
    static item items[N];
    int present[N];
    ipi_htab t;
    ipi_htab_init(&t);
    for (int i = 0; i < N; i++) {
        items[i] = (item){i, i};
        present[i] = 1;
        /* Seven hashes at the top of a 512-slot table: the run wraps. */
        CHECK_OK(ipi_htab_insert(&t, &failing, (uint64_t)(i % 7) + 500, &items[i]));
    }
    CHECK_EQ_INT(ipi_htab_remove(&t, 0, &items[0]), 0); /* wrong hash: not found */
    uint64_t x = 12345;
    for (int step = 0; step < N; step++) {
        int i;
        do { /* a present item, picked pseudo-randomly */
            x = x * 6364136223846793005u + 1442695040888963407u;
            i = (int)((x >> 33) % N);
        } while (!present[i]);
        CHECK_EQ_INT(ipi_htab_remove(&t, (uint64_t)(i % 7) + 500, &items[i]), 1);
        present[i] = 0;
        CHECK_EQ_INT(t.count, (size_t)(N - step - 1));
        int ok = 1;
        for (int j = 0; j < N; j++)
            ok &= (find(&t, (uint64_t)(j % 7) + 500, j) != NULL) == present[j];
        CHECK(ok);
    }
    CHECK_EQ_INT(ipi_htab_remove(&t, 500, &items[0]), 0);
    ipi_htab_free(&t, &failing);
}

/* The candidate a lookup compares first (what ipi_htab_prefetch_item
 * fetches): the first item with the hash along the probe sequence, within
 * the probes given, never one of another hash. */
static void test_candidate(void)
{
    ipi_htab t;
    ipi_htab_init(&t);
    CHECK(ipi_htab_candidate(&t, 3, 4) == NULL); /* no table yet */
    /* Five hashes with the same home slot in 16: they sit in slots 3..7. */
    static item items[6];
    for (int i = 0; i < 5; i++) {
        items[i] = (item){i, 0};
        CHECK_OK(ipi_htab_insert(&t, &failing, 3 + 16 * (uint64_t)i, &items[i]));
    }
    CHECK_EQ_INT(t.cap, 16);
    CHECK(ipi_htab_candidate(&t, 3, 4) == &items[0]);
    CHECK(ipi_htab_candidate(&t, 3 + 48, 4) == &items[3]); /* the fourth slot */
    CHECK(ipi_htab_candidate(&t, 3 + 64, 4) == NULL);      /* the fifth: beyond 4 */
    CHECK(ipi_htab_candidate(&t, 3 + 64, 5) == &items[4]);
    CHECK(ipi_htab_candidate(&t, 3 + 80, 16) == NULL); /* stops at the empty slot 8 */
    CHECK(ipi_htab_candidate(&t, 9, 4) == NULL);       /* an empty home slot */
    /* The same hash twice: the earlier item, as a lookup meets it first. */
    items[5] = (item){5, 0};
    CHECK_OK(ipi_htab_insert(&t, &failing, 3 + 16, &items[5]));
    CHECK(ipi_htab_candidate(&t, 3 + 16, 4) == &items[1]);
    ipi_htab_prefetch_item(&t, 3); /* a hint: nothing to see, nothing read out of bounds */
    ipi_htab_prefetch_item(&t, 15);
    ipi_htab_free(&t, &failing);
}

int main(void)
{
    RUN(test_empty);
    RUN(test_insert_find);
    RUN(test_duplicates);
    RUN(test_reserve_and_failure);
    RUN(test_remove);
    RUN(test_candidate);
    return check_done();
}
