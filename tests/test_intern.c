/* Unit tests of string interning (lib/common/intern.c). */
#include "check.h"
#include "check_alloc.h"

#include "alloc.h"
#include "hash.h"
#include "intern.h"

static fail_alloc fa; /* counts across the file's tests; see fail_after() */
static const iprof_allocator failing = {fa_malloc, fa_realloc, fa_free, &fa};

typedef struct fixture {
    ipi_intern_table in;
} fixture;

static void setup(fixture *f)
{
    ipi_intern_init(&f->in, &failing);
}

static void teardown(fixture *f)
{
    ipi_intern_free(&f->in);
}

/* ipi_intern's string, NULL on failure. */
static const ipi_str *intern(ipi_intern_table *in, const char *s, size_t len)
{
    const ipi_str *out = NULL;
    return ipi_intern(in, s, len, &out) == IPROF_OK ? out : NULL;
}

static const ipi_str *intern_h(ipi_intern_table *in, const char *s, size_t len, uint64_t h)
{
    const ipi_str *out = NULL;
    return ipi_intern_hashed(in, s, len, h, &out) == IPROF_OK ? out : NULL;
}

static void test_same_pointer(void)
{
    fixture f;
    setup(&f);
    const ipi_str *a = intern(&f.in, "<init>", 6);
    char buf[] = "<init>xyz";
    const ipi_str *b = intern(&f.in, buf, 6); /* another copy, a prefix of a longer text */
    CHECK(a != NULL && a == b);
    CHECK_EQ_INT(a->len, 6);
    CHECK_EQ_STR(a->s, "<init>");
    CHECK(a->s != buf);
    CHECK(a->hash == ipi_str_hash_bytes("<init>", 6));
    CHECK(a->hash == (uint32_t)ipi_hash_bytes("<init>", 6)); /* its low 32 bits */
    CHECK_EQ_INT(sizeof(ipi_str), 8);                          /* the header */
    const ipi_str *c = intern(&f.in, "<init>x", 7);
    CHECK(c != NULL && c != a);
    CHECK_EQ_STR(c->s, "<init>x");
    CHECK_EQ_INT(f.in.tab.count, 2);
    teardown(&f);
}

static void test_empty_and_nul(void)
{
    fixture f;
    setup(&f);
    const ipi_str *e1 = intern(&f.in, "", 0);
    const ipi_str *e2 = intern(&f.in, "abc", 0);
    CHECK(e1 != NULL && e1 == e2);
    CHECK_EQ_INT(e1->len, 0);
    CHECK_EQ_STR(e1->s, "");
    /* Names may hold NUL bytes (from \u0000): compared by length. */
    const ipi_str *n1 = intern(&f.in, "a\0b", 3);
    const ipi_str *n2 = intern(&f.in, "a\0c", 3);
    const ipi_str *n3 = intern(&f.in, "a", 1);
    CHECK(n1 && n2 && n3 && n1 != n2 && n1 != n3 && n2 != n3);
    CHECK(n1 == intern(&f.in, "a\0b", 3));
    CHECK_EQ_INT(n1->len, 3);
    CHECK(memcmp(n1->s, "a\0b", 4) == 0);
    teardown(&f);
}

static void test_find(void)
{
    fixture f;
    setup(&f);
    CHECK(ipi_intern_find(&f.in, "x", 1) == NULL); /* empty table */
    const ipi_str *x = intern(&f.in, "java.lang.Object", 16);
    CHECK(ipi_intern_find(&f.in, "java.lang.Object", 16) == x);
    CHECK(ipi_intern_find(&f.in, "java.lang.Objec", 15) == NULL);
    CHECK(ipi_intern_find(&f.in, "java.lang.Objecu", 16) == NULL);
    CHECK_EQ_INT(f.in.tab.count, 1); /* find never adds */
    teardown(&f);
}

static void test_many(void)
{
    fixture f;
    setup(&f);
    enum { N = 3000 };
    static const ipi_str *got[N];
    char name[32];
    for (int i = 0; i < N; i++) {
        int n = snprintf(name, sizeof name, "Type%d$Lambda", i);
        got[i] = intern(&f.in, name, (size_t)n);
    }
    int ok = 1;
    for (int i = 0; i < N; i++) {
        int n = snprintf(name, sizeof name, "Type%d$Lambda", i);
        ok &= got[i] != NULL && intern(&f.in, name, (size_t)n) == got[i] &&
              ipi_intern_find(&f.in, name, (size_t)n) == got[i] &&
              strcmp(got[i]->s, name) == 0;
    }
    CHECK(ok);
    CHECK_EQ_INT(f.in.tab.count, N);
    teardown(&f);
}

/* A failed intern returns NULL and leaves the table as it was. */
static void test_failure(void)
{
    fixture f;
    setup(&f);
    const ipi_str *a = intern(&f.in, "a", 1);
    CHECK(a != NULL);
    /* A first intern allocates three blocks (the table's slots, the chunk
     * list, a chunk): fail each in turn. */
    for (long k = 0; k < 3; k++) {
        fixture g;
        setup(&g);
        fail_after(&fa, k);
        CHECK(intern(&g.in, "b", 1) == NULL);
        CHECK_EQ_INT(g.in.tab.count, 0);
        CHECK(ipi_intern_find(&g.in, "b", 1) == NULL);
        fail_after(&fa, -1);
        const ipi_str *t = intern(&g.in, "b", 1);
        CHECK(t != NULL && t == ipi_intern_find(&g.in, "b", 1));
        CHECK_EQ_INT(g.in.tab.count, 1);
        teardown(&g);
    }
    fail_after(&fa, 0);
    CHECK(intern(&f.in, "a", 1) == a); /* present: no allocation needed */
    fail_after(&fa, -1);
    teardown(&f);
}

/* Strings stay where they were interned while the table grows through
 * many chunks: the pointers handed out are never moved. */
static void test_stable_pointers(void)
{
    fixture f;
    setup(&f);
    enum { N = 200000 };
    const ipi_str *first = intern(&f.in, "java.lang.String", 16);
    CHECK(first != NULL);
    char name[48];
    size_t bytes = 0;
    int ok = 1;
    for (int i = 0; i < N; i++) {
        int n = snprintf(name, sizeof name, "com.example.Type%d$$Lambda", i);
        ok &= intern(&f.in, name, (size_t)n) != NULL;
        bytes += (8 + (size_t)n + 1 + 7) & ~(size_t)7;
    }
    CHECK(ok);
    /* 4, 8, ... 512 KiB, then 1 MiB chunks: more than ten. */
    CHECK(bytes > 6 * IPI_POOL_CHUNK_MAX);
    CHECK(f.in.pool.chunk_count > 10);
    CHECK_EQ_INT(f.in.pool.size, IPI_POOL_CHUNK_MAX);
    CHECK(intern(&f.in, "java.lang.String", 16) == first);
    CHECK(ipi_intern_find(&f.in, "java.lang.String", 16) == first);
    CHECK_EQ_STR(first->s, "java.lang.String");
    for (int i = 0; i < N; i += 997) {
        int n = snprintf(name, sizeof name, "com.example.Type%d$$Lambda", i);
        const ipi_str *x = ipi_intern_find(&f.in, name, (size_t)n);
        ok &= x != NULL && x->len == (uint32_t)n && memcmp(x->s, name, (size_t)n + 1) == 0;
    }
    CHECK(ok);
    CHECK_EQ_INT(f.in.tab.count, N + 1);
    /* Every reference names its string: each slot's tag is its hash. */
    uint32_t ref;
    size_t seen = 0;
    ipi_intern_each(&f.in, ref)
    {
        const ipi_str *x = ipi_intern_at(&f.in, ref);
        ok &= x->hash == (uint32_t)ipi_str_hash_bytes(x->s, x->len) &&
              ipi_intern_find(&f.in, x->s, x->len) == x;
        seen++;
    }
    CHECK(ok);
    CHECK_EQ_INT(seen, N + 1);
    teardown(&f);
}

/* A string that needs a whole largest chunk fills a shared one; one byte
 * more gets a chunk of its own, and the shared chunk being filled stays
 * the one later strings go to. */
static void test_large(void)
{
    fixture f;
    setup(&f);
    const ipi_str *a = intern(&f.in, "a", 1);
    CHECK(a != NULL);
    size_t shared = f.in.pool.cur, size = f.in.pool.size, used = f.in.pool.used;
    CHECK_EQ_INT(size, 4096);
    size_t fit = IPI_POOL_CHUNK_MAX - 8 - 8 - 1; /* chunk size, header, NUL */
    char *big = malloc(fit + 1);
    CHECK(big != NULL);
    if (!big)
        return;
    memset(big, 'x', fit + 1);
    big[3] = '\0'; /* names may hold NUL bytes */
    const ipi_str *own = intern(&f.in, big, fit + 1);
    CHECK(own != NULL);
    CHECK_EQ_INT(f.in.pool.chunk_count, 2);
    CHECK_EQ_INT(f.in.pool.cur, shared); /* still filling the first chunk */
    CHECK_EQ_INT(f.in.pool.used, used);
    CHECK_EQ_INT(f.in.pool.bytes, 4096 + 8 + IPI_POOL_CHUNK_MAX); /* size, then 1 MiB */
    const ipi_str *b = intern(&f.in, "b", 1);
    CHECK(b != NULL && (const char *)b == (const char *)a + 16); /* after a, same chunk */
    const ipi_str *whole = intern(&f.in, big, fit);
    CHECK(whole != NULL && whole != own);
    CHECK_EQ_INT(f.in.pool.chunk_count, 3);
    CHECK_EQ_INT(f.in.pool.size, IPI_POOL_CHUNK_MAX); /* exactly full */
    CHECK_EQ_INT(f.in.pool.used, IPI_POOL_CHUNK_MAX);
    CHECK_EQ_INT(f.in.pool.cur, 2);
    CHECK(ipi_intern_find(&f.in, big, fit + 1) == own);
    CHECK(ipi_intern_find(&f.in, big, fit) == whole);
    CHECK_EQ_INT(own->len, fit + 1);
    CHECK(memcmp(own->s, big, fit + 1) == 0 && own->s[fit + 1] == '\0');
    CHECK(memcmp(whole->s, big, fit) == 0 && whole->s[fit] == '\0');
    const ipi_str *c = intern(&f.in, "c", 1); /* the full chunk: a new one */
    CHECK(c != NULL);
    CHECK_EQ_INT(f.in.pool.chunk_count, 4);
    CHECK(ipi_intern_find(&f.in, "a", 1) == a && ipi_intern_find(&f.in, "c", 1) == c);
    free(big);
    teardown(&f);
}

/* Strings whose 32-bit hashes are equal (the table keeps no other bits)
 * are told apart by their bytes. */
static void test_collisions(void)
{
    fixture f;
    setup(&f);
    const uint64_t h = 0x9e3779b9u;
    const ipi_str *x = intern_h(&f.in, "alpha", 5, h);
    const ipi_str *y = intern_h(&f.in, "beta", 4, h);
    const ipi_str *z = intern_h(&f.in, "alphb", 5, h);
    const ipi_str *e = intern_h(&f.in, "", 0, h);
    CHECK(x && y && z && e && x != y && x != z && y != z && e != x);
    CHECK(intern_h(&f.in, "alpha", 5, h) == x);
    CHECK(intern_h(&f.in, "beta", 4, h) == y);
    CHECK(intern_h(&f.in, "alphb", 5, h) == z);
    CHECK(intern_h(&f.in, "", 0, h) == e);
    CHECK_EQ_STR(z->s, "alphb");
    CHECK(x->hash == (uint32_t)h && y->hash == (uint32_t)h);
    CHECK_EQ_INT(f.in.tab.count, 4);
    teardown(&f);
}

/* Past max_chunks chunks a new string is refused with IPROF_ELIMIT, and
 * nothing changes; strings already there are still found. */
static void test_limit(void)
{
    fixture f;
    setup(&f);
    f.in.pool.max_chunks = 2; /* 4 KiB, then 8 KiB */
    char name[32];
    int i = 0, rc = IPROF_OK;
    const ipi_str *out = NULL;
    while (rc == IPROF_OK && i < 100000) {
        int n = snprintf(name, sizeof name, "Name%08d", i++);
        rc = ipi_intern(&f.in, name, (size_t)n, &out);
    }
    CHECK_EQ_INT(rc, IPROF_ELIMIT);
    CHECK_EQ_INT(f.in.pool.chunk_count, 2);
    CHECK_EQ_INT(f.in.pool.bytes, 4096 + 8192);
    size_t count = f.in.tab.count;
    CHECK_EQ_INT(count, (size_t)i - 1);
    CHECK_EQ_INT(count, (4096 - 8) / 24 + (8192 - 8) / 24); /* 24 bytes a name */
    CHECK(ipi_intern_find(&f.in, name, strlen(name)) == NULL);
    CHECK_EQ_INT(ipi_intern(&f.in, "Name00000000", 12, &out), IPROF_OK); /* present */
    CHECK(out != NULL && ipi_intern_find(&f.in, "Name00000000", 12) == out);
    CHECK_EQ_INT(ipi_intern(&f.in, name, strlen(name), &out), IPROF_ELIMIT);
    CHECK_EQ_INT(f.in.tab.count, count);
    teardown(&f);
}

int main(void)
{
    RUN(test_same_pointer);
    RUN(test_empty_and_nul);
    RUN(test_find);
    RUN(test_many);
    RUN(test_failure);
    RUN(test_stable_pointers);
    RUN(test_large);
    RUN(test_collisions);
    RUN(test_limit);
    return check_done();
}
