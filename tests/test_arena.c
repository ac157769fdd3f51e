/* Unit tests of the bump allocator (lib/common/arena.c), and of
 * ipi_map_ahead (alloc.c), which it and the pool use to map their pages
 * ahead of their bump pointers (the pool's own tests are the names' and
 * methods', through intern and the model). */
#include "check.h"

#include "alloc.h"
#include "arena.h"
#include "pool.h"

/* Counts live blocks and bytes; fails every allocation from fail_at on
 * (0: never). */
typedef struct counting {
    long calls, fail_at, live_blocks;
    size_t live_bytes;
} counting;

static void *c_malloc(size_t size, void *user)
{
    counting *c = user;
    if (c->fail_at && ++c->calls >= c->fail_at)
        return NULL;
    c->live_blocks++;
    c->live_bytes += size;
    return malloc(size);
}

static void *c_realloc(void *p, size_t old_size, size_t new_size, void *user)
{
    counting *c = user;
    if (c->fail_at && ++c->calls >= c->fail_at)
        return NULL;
    void *np = realloc(p, new_size);
    if (np)
        c->live_bytes += new_size - old_size;
    return np;
}

static void c_free(void *p, size_t size, void *user)
{
    counting *c = user;
    c->live_blocks--;
    c->live_bytes -= size;
    free(p);
}

static void test_alignment_and_contents(void)
{
    counting c = {0, 0, 0, 0};
    iprof_allocator a = {c_malloc, c_realloc, c_free, &c};
    ipi_arena ar;
    ipi_arena_init(&ar, &a);
    CHECK_EQ_INT(ar.total, 0);
    CHECK_EQ_INT(c.live_blocks, 0); /* init allocates nothing */
    char *prev = NULL;
    for (size_t i = 1; i <= 1000; i++) {
        char *p = ipi_arena_alloc(&ar, i % 37);
        CHECK(p != NULL);
        CHECK_EQ_INT((uintptr_t)p % 8, 0);
        memset(p, (int)(i & 0xff), i % 37);
        if (prev && i % 37 > 1)
            CHECK(p != prev);
        prev = p;
    }
    CHECK(ar.total > 0);
    CHECK_EQ_INT(c.live_bytes, ar.total);
    ipi_arena_free(&ar);
    CHECK_EQ_INT(c.live_blocks, 0);
    CHECK_EQ_INT(c.live_bytes, 0);
    CHECK_EQ_INT(ar.total, 0);
}

static void test_values_survive(void)
{
    ipi_arena ar;
    iprof_allocator a;
    ipi_allocator_init(&a, NULL);
    ipi_arena_init(&ar, &a);
    int64_t *ptrs[500];
    for (int i = 0; i < 500; i++) {
        ptrs[i] = ipi_arena_alloc(&ar, (size_t)(i % 50 + 1) * sizeof(int64_t));
        for (int j = 0; j <= i % 50; j++)
            ptrs[i][j] = (int64_t)i * 1000 + j;
    }
    int ok = 1;
    for (int i = 0; i < 500; i++)
        for (int j = 0; j <= i % 50; j++)
            ok &= ptrs[i][j] == (int64_t)i * 1000 + j;
    CHECK(ok);
    ipi_arena_free(&ar);
}

static void test_big_blocks(void)
{
    counting c = {0, 0, 0, 0};
    iprof_allocator a = {c_malloc, c_realloc, c_free, &c};
    ipi_arena ar;
    ipi_arena_init(&ar, &a);
    char *small = ipi_arena_alloc(&ar, 16);
    CHECK(small != NULL);
    /* A request far above the chunk size gets a chunk of its own ... */
    char *big = ipi_arena_alloc(&ar, (size_t)1 << 20);
    CHECK(big != NULL);
    memset(big, 1, (size_t)1 << 20);
    CHECK(ar.total >= ((size_t)1 << 20));
    /* ... and the current chunk keeps serving small requests. */
    char *small2 = ipi_arena_alloc(&ar, 16);
    CHECK(small2 == small + 16);
    ipi_arena_free(&ar);
    CHECK_EQ_INT(c.live_blocks, 0);
    CHECK_EQ_INT(c.live_bytes, 0);
}

static void test_zero_size(void)
{
    iprof_allocator a;
    ipi_allocator_init(&a, NULL);
    ipi_arena ar;
    ipi_arena_init(&ar, &a);
    char *p = ipi_arena_alloc(&ar, 0);
    char *q = ipi_arena_alloc(&ar, 0);
    CHECK(p != NULL && q != NULL && p != q); /* distinct, like malloc(0) */
    ipi_arena_free(&ar);
    ipi_arena_free(&ar); /* freeing twice is harmless */
}

static void test_strdup(void)
{
    iprof_allocator a;
    ipi_allocator_init(&a, NULL);
    ipi_arena ar;
    ipi_arena_init(&ar, &a);
    char *s = ipi_arena_strdup(&ar, "hello world", 5);
    CHECK_EQ_STR(s, "hello");
    char *e = ipi_arena_strdup(&ar, NULL, 0);
    CHECK_EQ_STR(e, "");
    char *z = ipi_arena_strdup(&ar, "a\0b", 3);
    CHECK(z && z[0] == 'a' && z[1] == '\0' && z[2] == 'b' && z[3] == '\0');
    CHECK(ipi_arena_strdup(&ar, "x", SIZE_MAX) == NULL);
    ipi_arena_free(&ar);
}

static void test_failure(void)
{
    counting c = {0, 1, 0, 0};
    iprof_allocator a = {c_malloc, c_realloc, c_free, &c};
    ipi_arena ar;
    ipi_arena_init(&ar, &a);
    CHECK(ipi_arena_alloc(&ar, 8) == NULL);
    CHECK(ipi_arena_strdup(&ar, "abc", 3) == NULL);
    CHECK(ipi_arena_alloc(&ar, SIZE_MAX - 4) == NULL);
    CHECK_EQ_INT(ar.total, 0);
    /* It recovers when memory comes back. */
    c.fail_at = 0;
    char *p = ipi_arena_alloc(&ar, 8);
    CHECK(p != NULL);
    /* A failure with a current chunk keeps the chunk usable. */
    c.fail_at = c.calls + 1;
    CHECK(ipi_arena_alloc(&ar, (size_t)1 << 22) == NULL);
    CHECK(ipi_arena_alloc(&ar, 8) == p + 8);
    ipi_arena_free(&ar);
    CHECK_EQ_INT(c.live_blocks, 0);
    CHECK_EQ_INT(c.live_bytes, 0);
}

/* ipi_map_ahead maps from where the block was mapped up to past `used`,
 * in steps of 256 KiB, never past the block's end, and nothing when used
 * is within what was mapped already. */
static void test_map_ahead(void)
{
    static char block[600 * 1024];
    const size_t step = 256 * 1024, size = sizeof block;
    CHECK_EQ_INT(ipi_map_ahead(block, 0, 1, size), step);
    CHECK_EQ_INT(ipi_map_ahead(block, 0, step, size), step);
    CHECK_EQ_INT(ipi_map_ahead(block, 0, step + 1, size), 2 * step);
    CHECK_EQ_INT(ipi_map_ahead(block, step, 3 * step - 8, size), size);
    CHECK_EQ_INT(ipi_map_ahead(block, step, 100, size), step); /* mapped already */
    CHECK_EQ_INT(ipi_map_ahead(block, 0, size + 100, size), size);
    CHECK_EQ_INT(ipi_map_ahead(block, size, size + 100, size), size);
    CHECK_EQ_INT(ipi_map_ahead(block, 0, 10, 1000), 1000); /* a block smaller than a step */
}

/* The arena keeps its head chunk mapped past its bump pointer: `ready`
 * covers every byte handed out of the head and stays within it; a new
 * chunk starts it again. */
static void test_arena_ready(void)
{
    ipi_arena ar;
    iprof_allocator a;
    ipi_allocator_init(&a, NULL);
    ipi_arena_init(&ar, &a);
    const ipi_arena_chunk *head = NULL;
    size_t chunks = 0;
    for (int i = 0; i < 20000; i++) {
        CHECK(ipi_arena_alloc(&ar, 200) != NULL);
        if (ar.head != head) {
            head = ar.head;
            chunks++;
        }
        size_t used = (size_t)(ar.cur - (char *)ar.head), size = (size_t)(ar.end - (char *)ar.head);
        if (ar.ready < used || ar.ready > size) {
            CHECK(ar.ready >= used && ar.ready <= size);
            break;
        }
    }
    CHECK(chunks >= 3); /* 4 MB in chunks from 16 KiB doubling */
    ipi_arena_free(&ar);
}

/* The pool too: `ready` covers what its shared chunk handed out. */
static void test_pool_ready(void)
{
    iprof_allocator a;
    ipi_allocator_init(&a, NULL);
    ipi_pool p;
    ipi_pool_init(&p, &a);
    size_t chunks = 0, last = SIZE_MAX;
    for (int i = 0; i < 40000; i++) {
        void *at;
        uint32_t ref;
        CHECK_OK(ipi_pool_alloc(&p, 100, &at, &ref));
        if (p.cur != last) {
            last = p.cur;
            chunks++;
        }
        if (p.ready < p.used || p.ready > p.size) {
            CHECK(p.ready >= p.used && p.ready <= p.size);
            break;
        }
    }
    CHECK(chunks >= 3);
    ipi_pool_free(&p);
}

int main(void)
{
    RUN(test_alignment_and_contents);
    RUN(test_values_survive);
    RUN(test_big_blocks);
    RUN(test_zero_size);
    RUN(test_strdup);
    RUN(test_failure);
    RUN(test_map_ahead);
    RUN(test_arena_ready);
    RUN(test_pool_ready);
    return check_done();
}
