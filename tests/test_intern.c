/* Unit tests of string interning (lib/common/intern.c). */
#include "check.h"
#include "check_alloc.h"

#include "alloc.h"
#include "hash.h"
#include "intern.h"

static fail_alloc fa; /* counts across the file's tests; see fail_after() */
static const iprof_allocator failing = {fa_malloc, fa_realloc, fa_free, &fa};

typedef struct fixture {
    ipi_arena arena;
    ipi_intern_table in;
} fixture;

static void setup(fixture *f)
{
    ipi_arena_init(&f->arena, &failing);
    ipi_intern_init(&f->in, &f->arena, &failing);
}

static void teardown(fixture *f)
{
    ipi_intern_free(&f->in);
    ipi_arena_free(&f->arena);
}

static void test_same_pointer(void)
{
    fixture f;
    setup(&f);
    const ipi_str *a = ipi_intern(&f.in, "<init>", 6);
    char buf[] = "<init>xyz";
    const ipi_str *b = ipi_intern(&f.in, buf, 6); /* another copy, a prefix of a longer text */
    CHECK(a != NULL && a == b);
    CHECK_EQ_INT(a->len, 6);
    CHECK_EQ_STR(a->s, "<init>");
    CHECK(a->s != buf);
    CHECK(a->hash == ipi_str_hash_bytes("<init>", 6));
    CHECK(a->hash == (uint32_t)ipi_hash_bytes("<init>", 6)); /* its low 32 bits */
    CHECK_EQ_INT(sizeof(ipi_str), 8);                          /* the header */
    const ipi_str *c = ipi_intern(&f.in, "<init>x", 7);
    CHECK(c != NULL && c != a);
    CHECK_EQ_STR(c->s, "<init>x");
    CHECK_EQ_INT(f.in.tab.count, 2);
    teardown(&f);
}

static void test_empty_and_nul(void)
{
    fixture f;
    setup(&f);
    const ipi_str *e1 = ipi_intern(&f.in, "", 0);
    const ipi_str *e2 = ipi_intern(&f.in, "abc", 0);
    CHECK(e1 != NULL && e1 == e2);
    CHECK_EQ_INT(e1->len, 0);
    CHECK_EQ_STR(e1->s, "");
    /* Names may hold NUL bytes (from \u0000): compared by length. */
    const ipi_str *n1 = ipi_intern(&f.in, "a\0b", 3);
    const ipi_str *n2 = ipi_intern(&f.in, "a\0c", 3);
    const ipi_str *n3 = ipi_intern(&f.in, "a", 1);
    CHECK(n1 && n2 && n3 && n1 != n2 && n1 != n3 && n2 != n3);
    CHECK(n1 == ipi_intern(&f.in, "a\0b", 3));
    CHECK_EQ_INT(n1->len, 3);
    CHECK(memcmp(n1->s, "a\0b", 4) == 0);
    teardown(&f);
}

static void test_find(void)
{
    fixture f;
    setup(&f);
    CHECK(ipi_intern_find(&f.in, "x", 1) == NULL); /* empty table */
    const ipi_str *x = ipi_intern(&f.in, "java.lang.Object", 16);
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
        got[i] = ipi_intern(&f.in, name, (size_t)n);
    }
    int ok = 1;
    for (int i = 0; i < N; i++) {
        int n = snprintf(name, sizeof name, "Type%d$Lambda", i);
        ok &= got[i] != NULL && ipi_intern(&f.in, name, (size_t)n) == got[i] &&
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
    const ipi_str *a = ipi_intern(&f.in, "a", 1);
    CHECK(a != NULL);
    /* A first intern allocates two blocks (the table's slots, an arena
     * chunk): fail each in turn. */
    for (long k = 0; k < 2; k++) {
        fixture g;
        setup(&g);
        fail_after(&fa, k);
        CHECK(ipi_intern(&g.in, "b", 1) == NULL);
        CHECK_EQ_INT(g.in.tab.count, 0);
        CHECK(ipi_intern_find(&g.in, "b", 1) == NULL);
        fail_after(&fa, -1);
        const ipi_str *t = ipi_intern(&g.in, "b", 1);
        CHECK(t != NULL && t == ipi_intern_find(&g.in, "b", 1));
        CHECK_EQ_INT(g.in.tab.count, 1);
        teardown(&g);
    }
    fail_after(&fa, 0);
    CHECK(ipi_intern(&f.in, "a", 1) == a); /* present: no allocation needed */
    fail_after(&fa, -1);
    teardown(&f);
}

int main(void)
{
    RUN(test_same_pointer);
    RUN(test_empty_and_nul);
    RUN(test_find);
    RUN(test_many);
    RUN(test_failure);
    return check_done();
}
