/* Unit tests of the model: version, types, methods, lookups, description,
 * contexts, loading, and allocation failure (lib/model*.c). */
#include "check.h"
#include "check_api.h"
#include "check_alloc.h"

#include <fcntl.h>
#include <unistd.h>

#include <iprof/edit.h>
#include <iprof/iprof.h>
#include <iprof/transform.h>

#include "model.h"


/* ---- helpers ------------------------------------------------------------ */

static const char *describe(const iprof_model *m, const iprof_method *x)
{
    static char buf[256];
    iprof_model_method_describe(m, x, buf, sizeof buf);
    return buf;
}

static const char *ctx_describe(const iprof_model *m, const iprof_context *c)
{
    static char buf[512];
    iprof_model_context_describe(m, c, buf, sizeof buf);
    return buf;
}

static const char *ctx_text(const iprof_context *c)
{
    static char buf[512];
    iprof_context_format(c, buf, sizeof buf);
    return buf;
}

static const char *name_of(const iprof_type *t)
{
    return t ? iprof_type_name(t, NULL) : "(none)";
}

/* Every indexed lookup agrees with the lists: what a model must satisfy
 * after any call, failed or not. */
static int consistent(const iprof_model *m)
{
    int ok = 1;
    for (size_t i = 0; i < iprof_model_type_count(m); i++) {
        const iprof_type *t = iprof_model_type_at(m, i);
        size_t len;
        const char *name = iprof_type_name(t, &len);
        const iprof_type *byid = iprof_model_type_by_id(m, iprof_type_id(t));
        const iprof_type *byname = iprof_model_type_by_name(m, name, len);
        ok &= byid != NULL && iprof_type_id(byid) == iprof_type_id(t);
        ok &= byname != NULL && iprof_type_name(byname, NULL) == name;
    }
    for (size_t i = 0; i < iprof_model_method_count(m); i++) {
        const iprof_method *x = iprof_model_method_at(m, i);
        size_t len, sl;
        const char *name = iprof_method_name(x, &len);
        const int64_t *sig = iprof_method_signature(x, &sl);
        ok &= iprof_model_method_by_id(m, iprof_method_id(x)) != NULL;
        const iprof_method *f = iprof_model_method_find(m, name, len, sig, sl);
        ok &= f != NULL && iprof_method_name(f, NULL) == name;
    }
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        for (size_t i = 0; i < iprof_model_entry_count(m, k); i++) {
            const iprof_entry *e = iprof_model_entry_at(m, k, i);
            int64_t frames[2 * 64];
            size_t n = iprof_context_frames(iprof_entry_context(e), frames, 64);
            const iprof_entry *f = n <= 64 ? iprof_model_entry_find(m, k, frames, n) : e;
            ok &= f != NULL && iprof_entry_context(f) == iprof_entry_context(e);
        }
    return ok;
}

/* The types and methods of the EvenOrOddLength example of the format
 * document: main 1, printEvenOrOdd 2, printEven 3, printOdd 4, print 5. */
static void add_eoo_types_methods(iprof_model *m)
{
    static const int64_t s_main[] = {3, 0, 2}, s_peoo[] = {3, 0, 1}, s_pe[] = {3, 0},
                         s_print[] = {3, 0, 1};
    CHECK_OK(iprof_model_add_type(m, 0, "void", 4, NULL));
    CHECK_OK(iprof_model_add_type(m, 1, "java.lang.String", 16, NULL));
    CHECK_OK(iprof_model_add_type(m, 2, "[Ljava.lang.String;", 19, NULL));
    CHECK_OK(iprof_model_add_type(m, 3, "EvenOrOddLength", 15, NULL));
    CHECK_OK(iprof_model_add_method(m, 1, "main", 4, s_main, 3, NULL));
    CHECK_OK(iprof_model_add_method(m, 2, "printEvenOrOdd", 14, s_peoo, 3, NULL));
    CHECK_OK(iprof_model_add_method(m, 3, "printEven", 9, s_pe, 2, NULL));
    CHECK_OK(iprof_model_add_method(m, 4, "printOdd", 8, s_pe, 2, NULL));
    CHECK_OK(iprof_model_add_method(m, 5, "print", 5, s_print, 3, NULL));
}

/* ---- creation and version ----------------------------------------------- */

static void test_new_and_version(void)
{
    iprof_model *m = (iprof_model *)1;
    CHECK_EQ_INT(iprof_model_new(NULL, NULL), IPROF_EINVAL);
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK(m != NULL);
    CHECK_EQ_STR(iprof_model_version(m), "1.1.0");
    CHECK_EQ_INT(iprof_model_type_count(m), 0);
    CHECK_EQ_INT(iprof_model_method_count(m), 0);
    CHECK_EQ_INT(iprof_model_context_count(m), 0);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        CHECK_EQ_INT(iprof_model_entry_count(m, k), 0);
    CHECK_EQ_INT(iprof_model_entry_count(m, -1), 0);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_COUNT), 0);
    CHECK(iprof_model_type_at(m, 0) == NULL);
    CHECK(iprof_model_method_at(m, 0) == NULL);

    CHECK_OK(iprof_model_set_version(m, "1.0.0"));
    CHECK_EQ_STR(iprof_model_version(m), "1.0.0");
    CHECK_OK(iprof_model_set_version(m, "0.4.0"));
    CHECK_EQ_STR(iprof_model_version(m), "0.4.0");
    CHECK_OK(iprof_model_set_version(m, "1.7.2")); /* another 1.x: same structure */
    CHECK_EQ_STR(iprof_model_version(m), "1.7.2");
    CHECK_OK(iprof_model_set_version(m, IPROF_FORMAT_0_2_0)); /* the legacy layout */
    CHECK_EQ_STR(iprof_model_version(m), "0.2.0");
    CHECK_OK(iprof_model_set_version(m, "0.3.0"));
    CHECK_EQ_STR(iprof_model_version(m), "0.3.0");
    static const char *const bad[] = {"2.0.0", "0.1.0", "0.0.1", "1.0", "1.0.0.0", "",
                                      "v1.0.0", "1.0.0 ", "1..0", "-1.0.0", "10.0.0"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_EQ_INT(iprof_model_set_version(m, bad[i]), IPROF_EVERSION);
        CHECK_EQ_STR(iprof_model_version(m), "0.3.0"); /* unchanged */
    }
    CHECK_EQ_INT(iprof_model_set_version(m, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_set_version(NULL, "1.0.0"), IPROF_EINVAL);
    iprof_model_free(m);
    iprof_model_free(NULL);
}

static void test_user_allocator(void)
{
    fail_alloc fa = {.fail_at = 0};
    iprof_allocator a = {fa_malloc, fa_realloc, fa_free, &fa};
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, &a));
    CHECK_EQ_INT(fa.live_blocks, 1); /* just the model struct */
    add_eoo_types_methods(m);
    CHECK(fa.live_blocks > 1);
    iprof_model_free(m);
    CHECK_EQ_INT(fa.live_blocks, 0);
    CHECK_EQ_INT(fa.live_bytes, 0);
    /* The very first allocation failing. */
    fa.fail_at = 1;
    fa.count = 0;
    m = (iprof_model *)1;
    CHECK_EQ_INT(iprof_model_new(&m, &a), IPROF_ENOMEM);
    CHECK(m == NULL);
    CHECK_EQ_INT(fa.live_blocks, 0);
}

/* ---- types -------------------------------------------------------------- */

static void test_types(void)
{
    iprof_model *m;
    CHECK_OK(iprof_model_new(&m, NULL));
    const iprof_type *t0 = NULL, *fib = NULL, *neg = NULL, *arr = NULL;
    CHECK_OK(iprof_model_add_type(m, 0, "boolean", 7, &t0));
    CHECK_OK(iprof_model_add_type(m, 10, "Fib", 3, &fib));
    CHECK_OK(iprof_model_add_type(m, -1, "", 0, &neg));
    CHECK_OK(iprof_model_add_type(m, 4823, "[Ljava.lang.String;xyz", 19, &arr));
    CHECK_EQ_INT(iprof_model_type_count(m), 4);
    CHECK(iprof_model_type_at(m, 0) == t0);
    CHECK(iprof_model_type_at(m, 1) == fib);
    CHECK(iprof_model_type_at(m, 2) == neg);
    CHECK(iprof_model_type_at(m, 3) == arr);
    CHECK(iprof_model_type_at(m, 4) == NULL);
    CHECK(iprof_model_type_by_id(m, 10) == fib);
    CHECK(iprof_model_type_by_id(m, -1) == neg);
    CHECK(iprof_model_type_by_id(m, 11) == NULL);
    CHECK_EQ_INT(iprof_type_id(arr), 4823);
    size_t len = 99;
    CHECK_EQ_STR(iprof_type_name(arr, &len), "[Ljava.lang.String;");
    CHECK_EQ_INT(len, 19);
    CHECK_EQ_STR(iprof_type_name(neg, &len), "");
    CHECK_EQ_INT(len, 0);
    CHECK(iprof_model_type_by_name(m, "Fib", 3) == fib);
    CHECK(iprof_model_type_by_name(m, "Fibonacci", 3) == fib); /* by length */
    CHECK(iprof_model_type_by_name(m, "Fi", 2) == NULL);
    CHECK(iprof_model_type_by_name(m, "", 0) == neg);
    CHECK(iprof_model_type_by_name(m, "[Ljava.lang.String;", 19) == arr);

    /* A taken id fails and changes nothing. */
    CHECK_EQ_INT(iprof_model_add_type(m, 10, "Other", 5, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_type_count(m), 4);
    CHECK(iprof_model_type_by_name(m, "Other", 5) == NULL);
    CHECK_EQ_INT(iprof_model_add_type(m, 12, NULL, 3, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_add_type(NULL, 12, "x", 1, NULL), IPROF_EINVAL);
    /* NULL with length 0 is the empty name (model.h). */
    const iprof_type *empty = NULL;
    CHECK_OK(iprof_model_add_type(m, 13, NULL, 0, &empty));
    size_t elen = 99;
    CHECK(empty && strcmp(iprof_type_name(empty, &elen), "") == 0 && elen == 0);
    CHECK_OK(iprof_model_remove_type(m, 13));

    /* A repeated name is allowed; the name lookup gives the first, and the
     * two share one interned copy. */
    const iprof_type *fib2 = NULL;
    CHECK_OK(iprof_model_add_type(m, 11, "Fib", 3, &fib2));
    CHECK(fib2 != NULL && fib2 != fib);
    CHECK(iprof_model_type_by_name(m, "Fib", 3) == fib);
    CHECK(iprof_type_name(fib2, NULL) == iprof_type_name(fib, NULL));

    /* Names with NUL bytes are compared by length. */
    const iprof_type *nul = NULL;
    CHECK_OK(iprof_model_add_type(m, 20, "a\0b", 3, &nul));
    CHECK(iprof_model_type_by_name(m, "a\0b", 3) == nul);
    CHECK(iprof_model_type_by_name(m, "a", 1) == NULL);
    CHECK(iprof_type_name(nul, &len) != NULL && len == 3);
    CHECK(consistent(m));
    iprof_model_free(m);
}

/* ---- methods ------------------------------------------------------------ */

static void test_methods(void)
{
    iprof_model *m;
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_OK(iprof_model_add_type(m, 8, "void", 4, NULL));
    CHECK_OK(iprof_model_add_type(m, 10, "Fib", 3, NULL));
    CHECK_OK(iprof_model_add_type(m, 4823, "[Ljava.lang.String;", 19, NULL));
    static const int64_t s_main[] = {10, 8, 4823}, s_fibo[] = {10, 8};
    const iprof_method *mn = NULL, *fibo = NULL, *cl = NULL;
    CHECK_OK(iprof_model_add_method(m, 19547, "main", 4, s_main, 3, &mn));
    CHECK_OK(iprof_model_add_method(m, 19551, "fibonacci", 9, s_fibo, 2, &fibo));
    CHECK_OK(iprof_model_add_method(m, 3, "<clinit>", 8, NULL, 0, &cl));
    CHECK_EQ_INT(iprof_model_method_count(m), 3);
    CHECK(iprof_model_method_at(m, 0) == mn);
    CHECK(iprof_model_method_at(m, 2) == cl);
    CHECK(iprof_model_method_at(m, 3) == NULL);
    CHECK(iprof_model_method_by_id(m, 19551) == fibo);
    CHECK(iprof_model_method_by_id(m, 19550) == NULL);
    CHECK_EQ_INT(iprof_method_id(mn), 19547);
    size_t len = 0;
    CHECK_EQ_STR(iprof_method_name(fibo, &len), "fibonacci");
    CHECK_EQ_INT(len, 9);
    const int64_t *sig = iprof_method_signature(mn, &len);
    CHECK_EQ_INT(len, 3);
    CHECK(sig && sig[0] == 10 && sig[1] == 8 && sig[2] == 4823);
    CHECK(sig != s_main); /* copied */
    iprof_method_signature(cl, &len);
    CHECK_EQ_INT(len, 0);

    CHECK(iprof_model_method_find(m, "main", 4, s_main, 3) == mn);
    CHECK(iprof_model_method_find(m, "main", 4, s_main, 2) == NULL);
    CHECK(iprof_model_method_find(m, "fibonacci", 9, s_fibo, 2) == fibo);
    CHECK(iprof_model_method_find(m, "fibonacc", 8, s_fibo, 2) == NULL);
    CHECK(iprof_model_method_find(m, "nothere", 7, s_fibo, 2) == NULL);
    CHECK(iprof_model_method_find(m, "<clinit>", 8, NULL, 0) == cl);

    /* Failures change nothing. */
    static const int64_t s_bad[] = {10, 9};
    CHECK_EQ_INT(iprof_model_add_method(m, 19547, "other", 5, s_fibo, 2, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_add_method(m, 7, "other", 5, s_bad, 2, NULL), IPROF_EDANGLING);
    CHECK_EQ_INT(iprof_model_add_method(m, 7, "other", 5, NULL, 2, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_method_count(m), 3);
    CHECK(iprof_model_method_by_id(m, 7) == NULL);

    /* Same name and signature under another id: find gives the first; one
     * copy of the name. */
    const iprof_method *mn2 = NULL;
    CHECK_OK(iprof_model_add_method(m, 19600, "main", 4, s_main, 3, &mn2));
    CHECK(iprof_model_method_find(m, "main", 4, s_main, 3) == mn);
    CHECK(iprof_method_name(mn2, NULL) == iprof_method_name(mn, NULL));
    CHECK(consistent(m));

    /* Description. */
    CHECK_EQ_STR(describe(m, mn), "Fib.main");
    CHECK_EQ_STR(describe(m, cl), "<clinit>");
    char buf[8];
    memset(buf, 'x', sizeof buf);
    CHECK_EQ_INT(iprof_model_method_describe(m, fibo, buf, 5), strlen("Fib.fibonacci"));
    CHECK_EQ_STR(buf, "Fib.");
    CHECK_EQ_INT(buf[5], 'x');
    CHECK_EQ_INT(iprof_model_method_describe(m, fibo, NULL, 0), 13);
    CHECK_EQ_INT(iprof_model_method_describe(m, fibo, buf, 1), 13);
    CHECK_EQ_STR(buf, "");
    /* Its declaring type removed: printed by id. */
    CHECK_OK(iprof_model_remove_type(m, 10));
    CHECK_EQ_STR(describe(m, mn), "?10.main");
    iprof_model_free(m);
}

/* ---- removal, retain, iteration ----------------------------------------- */

static int keep_even_type(const iprof_type *t, void *payload)
{
    (*(int *)payload)++;
    return iprof_type_id(t) % 2 == 0;
}

static int keep_odd(const iprof_method *x, void *payload)
{
    (void)payload;
    return strstr(iprof_method_name(x, NULL), "Odd") != NULL;
}

static void test_remove_and_retain(void)
{
    iprof_model *m;
    CHECK_OK(iprof_model_new(&m, NULL));
    add_eoo_types_methods(m);
    CHECK_OK(iprof_model_add_type(m, 6, "six", 3, NULL));
    CHECK_OK(iprof_model_add_type(m, 7, "seven", 5, NULL));

    CHECK_EQ_INT(iprof_model_remove_type(m, 42), IPROF_ENOTFOUND);
    CHECK_EQ_INT(iprof_model_remove_type(NULL, 1), IPROF_EINVAL);
    CHECK_OK(iprof_model_remove_type(m, 1)); /* java.lang.String */
    CHECK_EQ_INT(iprof_model_type_count(m), 5);
    CHECK_EQ_INT(iprof_type_id(iprof_model_type_at(m, 0)), 0);
    CHECK_EQ_INT(iprof_type_id(iprof_model_type_at(m, 1)), 2); /* order kept */
    CHECK(iprof_model_type_by_id(m, 1) == NULL);
    CHECK(iprof_model_type_by_name(m, "java.lang.String", 16) == NULL);
    CHECK_EQ_INT(iprof_model_remove_type(m, 1), IPROF_ENOTFOUND);
    /* The id is free again. */
    CHECK_OK(iprof_model_add_type(m, 1, "java.lang.String", 16, NULL));
    CHECK_EQ_INT(iprof_type_id(iprof_model_type_at(m, 5)), 1);

    int calls = 0;
    iprof_filter_options fo = IPROF_FILTER_OPTIONS_INIT;
    fo.keep_type = keep_even_type;
    fo.payload = &calls;
    CHECK_OK(iprof_model_filter(m, &fo));
    CHECK_EQ_INT(calls, 6);
    CHECK_EQ_INT(iprof_model_type_count(m), 3); /* 0 void, 2 String[], 6 six */
    CHECK_EQ_STR(name_of(iprof_model_type_at(m, 0)), "void");
    CHECK_EQ_STR(name_of(iprof_model_type_at(m, 1)), "[Ljava.lang.String;");
    CHECK_EQ_STR(name_of(iprof_model_type_at(m, 2)), "six");
    CHECK(iprof_model_type_by_id(m, 3) == NULL);
    CHECK(iprof_model_type_by_id(m, 7) == NULL);
    CHECK(iprof_model_type_by_name(m, "seven", 5) == NULL);
    CHECK(iprof_model_type_by_name(m, "six", 3) == iprof_model_type_at(m, 2));
    CHECK_EQ_INT(iprof_model_filter(NULL, &fo), IPROF_EINVAL);
    CHECK(consistent(m));

    CHECK_OK(iprof_model_add_type(m, 100, "hundred", 7, NULL));
    CHECK_EQ_INT(iprof_model_type_count(m), 4);
    CHECK_EQ_INT(iprof_type_id(iprof_model_type_at(m, 3)), 100);
    CHECK(iprof_model_type_at(m, 4) == NULL);

    /* Methods. */
    CHECK_EQ_INT(iprof_model_remove_method(m, 9, 0), IPROF_ENOTFOUND);
    CHECK_OK(iprof_model_remove_method(m, 3, 0)); /* printEven */
    CHECK_EQ_INT(iprof_model_method_count(m), 4);
    CHECK_EQ_INT(iprof_method_id(iprof_model_method_at(m, 2)), 4);
    CHECK(iprof_model_method_by_id(m, 3) == NULL);
    static const int64_t s_pe[] = {3, 0};
    CHECK(iprof_model_method_find(m, "printEven", 9, s_pe, 2) == NULL);
    CHECK(iprof_model_method_find(m, "printOdd", 8, s_pe, 2) == iprof_model_method_at(m, 2));
    iprof_filter_options mo = IPROF_FILTER_OPTIONS_INIT;
    mo.keep_method = keep_odd;
    CHECK_OK(iprof_model_filter(m, &mo));
    CHECK_EQ_INT(iprof_model_method_count(m), 2); /* printEvenOrOdd, printOdd */
    CHECK_EQ_STR(iprof_method_name(iprof_model_method_at(m, 0), NULL), "printEvenOrOdd");
    CHECK_EQ_STR(iprof_method_name(iprof_model_method_at(m, 1), NULL), "printOdd");
    CHECK(iprof_model_method_by_id(m, 1) == NULL);
    CHECK(iprof_model_method_by_id(m, 5) == NULL);
    CHECK(iprof_model_method_by_id(m, 4) == iprof_model_method_at(m, 1));
    CHECK(iprof_model_method_at(m, 2) == NULL);
    CHECK(consistent(m));
    iprof_model_free(m);
}

/* ---- contexts ----------------------------------------------------------- */

static void test_contexts(void)
{
    iprof_model *m;
    CHECK_OK(iprof_model_new(&m, NULL));
    add_eoo_types_methods(m);
    static const int64_t f1[] = {5, 0, 3, 2, 2, 2, 1, 3}, f2[] = {5, 0, 4, 2},
                         f3[] = {2, 0, 1, 3}, f4[] = {5, 0}, one[] = {1};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f1, 4, one, 1));
    /* Nodes: 1:3, 2:2<1:3, 3:2<2:2<1:3, 5:0<3:2<2:2<1:3. */
    CHECK_EQ_INT(iprof_model_context_count(m), 4);
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f2, 2, one, 1));
    CHECK_EQ_INT(iprof_model_context_count(m), 6);
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f3, 2, one, 1));
    CHECK_EQ_INT(iprof_model_context_count(m), 7); /* shares 1:3 */
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, f4, 1, one, 1));
    CHECK_EQ_INT(iprof_model_context_count(m), 8);
    /* The same context in another kind is the same node. */
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, f2, 2, one, 1));
    CHECK_EQ_INT(iprof_model_context_count(m), 8);

    const iprof_context *c1 = iprof_entry_context(iprof_model_entry_at(m, 0, 0));
    const iprof_context *c2 = iprof_entry_context(iprof_model_entry_at(m, 0, 1));
    const iprof_context *c3 = iprof_entry_context(iprof_model_entry_at(m, 0, 2));
    CHECK(iprof_entry_context(iprof_model_entry_at(m, IPROF_KIND_SAMPLING, 1)) == c2);
    CHECK_EQ_INT(iprof_context_depth(c1), 4);
    CHECK_EQ_INT(iprof_context_depth(c3), 2);
    CHECK_EQ_INT(iprof_context_method_id(c1), 5);
    CHECK_EQ_INT(iprof_context_bci(c1), 0);
    const iprof_context *root = iprof_context_caller(iprof_context_caller(iprof_context_caller(c1)));
    CHECK(root != NULL && root == iprof_context_caller(c3));
    CHECK_EQ_INT(iprof_context_depth(root), 1);
    CHECK(iprof_context_caller(root) == NULL);
    CHECK_EQ_STR(ctx_text(root), "1:3");
    CHECK_EQ_STR(ctx_text(c1), "5:0<3:2<2:2<1:3");
    CHECK_EQ_STR(ctx_text(iprof_context_caller(c1)), "3:2<2:2<1:3");
    CHECK_EQ_STR(ctx_describe(m, c1),
                 "EvenOrOddLength.print:0 < EvenOrOddLength.printEven:2 < "
                 "EvenOrOddLength.printEvenOrOdd:2 < EvenOrOddLength.main:3");
    CHECK_EQ_STR(ctx_describe(m, c2), "EvenOrOddLength.print:0 < EvenOrOddLength.printOdd:2");

    int64_t fr[8] = {-9, -9, -9, -9, -9, -9, -9, -9};
    CHECK_EQ_INT(iprof_context_frames(c1, fr, 2), 4);
    CHECK(fr[0] == 5 && fr[1] == 0 && fr[2] == 3 && fr[3] == 2 && fr[4] == -9);
    CHECK_EQ_INT(iprof_context_frames(c1, fr, 4), 4);
    CHECK(memcmp(fr, f1, sizeof f1) == 0);
    CHECK_EQ_INT(iprof_context_frames(c1, NULL, 0), 4);

    /* snprintf convention. */
    char buf[16];
    memset(buf, 'x', sizeof buf);
    CHECK_EQ_INT(iprof_context_format(c1, buf, 6), 15);
    CHECK_EQ_STR(buf, "5:0<3");
    CHECK_EQ_INT(iprof_context_format(c1, NULL, 0), 15);
    CHECK_EQ_INT(iprof_model_context_describe(m, c2, buf, 10), 52);
    CHECK_EQ_STR(buf, "EvenOrOdd");

    /* Unknown methods print by id; negative and huge bcis print as is. */
    static const int64_t mon[] = {0, 0}, recs[] = {3, 7};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_MONITOR, mon, 1, recs, 2));
    const iprof_context *c0 = iprof_entry_context(iprof_model_entry_at(m, IPROF_KIND_MONITOR, 0));
    CHECK_EQ_STR(ctx_describe(m, c0), "?0:0");
    static const int64_t neg[] = {2, -4, 1, INT64_MAX};
    static const int64_t cond[] = {-1, 0, 5};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, neg, 2, cond, 3));
    const iprof_context *cn =
        iprof_entry_context(iprof_model_entry_at(m, IPROF_KIND_CONDITIONAL, 0));
    CHECK_EQ_STR(ctx_text(cn), "2:-4<1:9223372036854775807");
    CHECK_OK(iprof_model_remove_method(m, 1, 0));
    CHECK_EQ_STR(ctx_describe(m, cn),
                 "EvenOrOddLength.printEvenOrOdd:-4 < ?1:9223372036854775807");
    CHECK(consistent(m));
    iprof_model_free(m);
}

/* ---- loading ------------------------------------------------------------ */

static const char *const EOO =
    "{\"types\":[{\"id\":0,\"name\":\"void\"},"
    "{\"id\":1,\"name\":\"java.lang.String\"},{\"id\":2,\"name\":\"[Ljava.lang.String;\"},"
    "{\"id\":3,\"name\":\"EvenOrOddLength\"}],"
    "\"methods\":[{\"id\":1,\"name\":\"main\",\"signature\":[3,0,2]},"
    "{\"id\":2,\"name\":\"printEvenOrOdd\",\"signature\":[3,0,1]},"
    "{\"id\":3,\"name\":\"printEven\",\"signature\":[3,0]},"
    "{\"id\":4,\"name\":\"printOdd\",\"signature\":[3,0]},"
    "{\"id\":5,\"name\":\"print\",\"signature\":[3,0,1]}],"
    "\"callCountProfiles\":[{\"ctx\":\"2:0<1:3\",\"records\":[1]},"
    "{\"ctx\":\"5:0<3:2<2:2<1:3\",\"records\":[1]},"
    "{\"ctx\":\"5:0<4:2\",\"records\":[2]},"
    "{\"ctx\":\"5:0\",\"records\":[3]}],"
    "\"conditionalProfiles\":[{\"ctx\":\"2:9<1:3\",\"records\":[9,0,1,15,1,0]}],"
    "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[],"
    "\"version\":\"1.0.0\"}"; /* the version may come last */

static int load_doc(iprof_model **m, const char *doc, unsigned flags)
{
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.flags = flags;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    int rc = iprof_model_load(m, r, SRC_BUFFER(doc, strlen(doc)));
    iprof_reader_free(r);
    return rc;
}

static void test_load_example(void)
{
    iprof_model *m = NULL;
    CHECK_OK(load_doc(&m, EOO, IPROF_READ_STRICT));
    if (!m)
        return;
    CHECK_EQ_STR(iprof_model_version(m), "1.0.0");
    CHECK_EQ_INT(iprof_model_type_count(m), 4);
    CHECK_EQ_INT(iprof_model_method_count(m), 5);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 4);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CONDITIONAL), 1);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_SAMPLING), 0);
    /* 1:3, 2:0<1:3, 2:2<1:3, 3:2<.., 5:0<3:2<.., 4:2, 5:0<4:2, 5:0, 2:9<1:3 */
    CHECK_EQ_INT(iprof_model_context_count(m), 9);
    static const int64_t f[] = {5, 0, 3, 2, 2, 2, 1, 3}, c[] = {2, 9, 1, 3};
    const iprof_entry *e = iprof_model_entry_find(m, IPROF_KIND_CALL_COUNT, f, 4);
    CHECK(e == iprof_model_entry_at(m, IPROF_KIND_CALL_COUNT, 1));
    const iprof_entry *ec = iprof_model_entry_find(m, IPROF_KIND_CONDITIONAL, c, 2);
    CHECK(ec != NULL);
    size_t n = 0;
    const int64_t *r = iprof_entry_records(ec, &n);
    CHECK_EQ_INT(n, 6);
    CHECK(r && r[0] == 9 && r[3] == 15 && r[5] == 0);
    CHECK(iprof_model_entry_find(m, IPROF_KIND_CONDITIONAL, f, 4) == NULL);
    CHECK_EQ_STR(ctx_describe(m, iprof_entry_context(ec)),
                 "EvenOrOddLength.printEvenOrOdd:9 < EvenOrOddLength.main:3");
    /* 2:0<1:3 and 2:9<1:3 share their caller. */
    CHECK(iprof_context_caller(iprof_entry_context(ec)) ==
          iprof_context_caller(iprof_entry_context(iprof_model_entry_at(m, 0, 0))));
    CHECK(consistent(m));
    iprof_model_free(m);
}

/* A model of 20000 methods named prefix + (i % 15000), all of signature
 * (T, T): methods i and i + 15000 share a key. */
static iprof_model *load_named_methods(const char *prefix)
{
    size_t cap = 64 + 20000 * 80, len = 0;
    char *doc = malloc(cap);
    len += (size_t)snprintf(doc, cap, "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,"
                                      "\"name\":\"T\"}],\"methods\":[");
    for (size_t i = 0; i < 20000; i++)
        len += (size_t)snprintf(doc + len, cap - len,
                                "%s{\"id\":%zu,\"name\":\"%s%zu\",\"signature\":[0,0]}",
                                i ? "," : "", i + 1, prefix, i % 15000);
    snprintf(doc + len, cap - len, "],\"callCountProfiles\":[],\"conditionalProfiles\":[],"
                                   "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
                                   "\"samplingProfiles\":[]}");
    iprof_model *m = NULL;
    CHECK_OK(load_doc(&m, doc, 0));
    free(doc);
    return m;
}

/* The names index filled on two threads (each half of the table, a probe
 * that would cross into the other half left for the calling thread)
 * indexes what one thread does: each key once, its first method. Names
 * are varied until probes did cross, so that the hand-over is tried.
 * The halves took every method whose slot lies in its home's half (the
 * calling thread, the others), so a fill that fell back to one thread
 * fails the count. */
static void test_names_index_threaded(void)
{
    size_t crossed = 0;
    for (char p = 'a'; p <= 'z' && !crossed; p++) {
        char prefix[2] = {p, 0};
        iprof_model *one = load_named_methods(prefix), *two = load_named_methods(prefix);
        size_t halves1 = 1, halves2 = 0, again = 1;
        const ipi_rtab *t1 = ipi_index_method_names(one, 0, &halves1),
                       *t2 = ipi_index_method_names(two, 1, &halves2);
        CHECK(t1 && t2);
        if (!t1 || !t2)
            break;
        CHECK(ipi_index_method_names(two, 1, &again) == t2); /* built: no fill */
        CHECK_EQ_INT((long long)again, 0);
        CHECK_EQ_INT((long long)halves1, 0);
        CHECK_EQ_INT((long long)t1->count, 15000);
        CHECK_EQ_INT((long long)t2->count, 15000);
        for (size_t i = 0; i < t2->cap; i++) {
            size_t home = t2->slots[i].tag & (t2->cap - 1);
            crossed += t2->slots[i].ref && (home < t2->cap / 2) != (i < t2->cap / 2);
        }
        CHECK_EQ_INT((long long)halves2, 15000 - (long long)crossed);
        const iprof_type *sig[2] = {iprof_model_type_at(two, 0), iprof_model_type_at(two, 0)};
        for (size_t i = 0; i < 20000; i++) {
            const iprof_method *x = iprof_model_method_at(two, i);
            int ok;
            uint64_t h = ipi_method_names_key(two, x, &ok);
            const iprof_method *f = ipi_find_method_by_names(two, t2, x->name, sig, 2, h);
            CHECK(f && f->id == (int64_t)(i % 15000) + 1);
        }
        iprof_model_free(one);
        iprof_model_free(two);
    }
    CHECK(crossed > 0);
}

/* The lookup indexes by name, method key and context are built on first
 * use (lib/model/model_index.c): a load builds none; when one cannot be built for
 * lack of memory the lookup scans and still answers; once built, adds keep
 * it current and removals rebuild it. */
static void test_lazy_indexes(void)
{
    fail_alloc fa = {.fail_at = 0};
    iprof_allocator a = {fa_malloc, fa_realloc, fa_free, &fa};
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.allocator = &a;
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(EOO, strlen(EOO))));
    iprof_reader_free(r);
    if (!m)
        return;
    for (int i = 0; i < IPI_IX_COUNT; i++)
        CHECK(atomic_load(&m->index[i]) == NULL);
    /* The next allocation fails before each lookup: the lookups scan. */
    fa.fail_at = fa.count + 1;
    const iprof_type *t = iprof_model_type_by_name(m, "EvenOrOddLength", 15);
    CHECK(t != NULL && iprof_type_id(t) == 3);
    static const int64_t sig[] = {3, 0};
    fa.fail_at = fa.count + 1;
    const iprof_method *x = iprof_model_method_find(m, "printEven", 9, sig, 2);
    CHECK(x != NULL && iprof_method_id(x) == 3);
    static const int64_t f[] = {5, 0, 3, 2, 2, 2, 1, 3};
    fa.fail_at = fa.count + 1;
    CHECK(iprof_model_entry_find(m, IPROF_KIND_CALL_COUNT, f, 4) ==
          iprof_model_entry_at(m, IPROF_KIND_CALL_COUNT, 1));
    CHECK(atomic_load(&m->index[IPI_IX_TYPE_NAMES]) == NULL);
    CHECK(atomic_load(&m->index[IPI_IX_METHOD_KEYS]) == NULL);
    CHECK(atomic_load(&m->index[IPI_IX_ENTRIES + IPROF_KIND_CALL_COUNT]) == NULL);
    /* A mutation that needs an index reports the failure instead. */
    static const int64_t rec[] = {1};
    fa.fail_at = fa.count + 1;
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f, 4, rec, 1), IPROF_ENOMEM);
    CHECK_EQ_INT(iprof_entry_records(iprof_model_entry_at(m, IPROF_KIND_CALL_COUNT, 1), NULL)[0], 1);
    fa.fail_at = 0;
    /* Built on first use, then kept current by adds. */
    CHECK(iprof_model_type_by_name(m, "EvenOrOddLength", 15) == t);
    CHECK(atomic_load(&m->index[IPI_IX_TYPE_NAMES]) != NULL);
    CHECK_OK(iprof_model_add_type(m, 77, "Later", 5, NULL));
    CHECK(iprof_model_type_by_name(m, "Later", 5) == iprof_model_type_by_id(m, 77));
    CHECK(iprof_model_method_find(m, "printEven", 9, sig, 2) == x);
    static const int64_t sig2[] = {77, 0};
    CHECK_OK(iprof_model_add_method(m, 78, "fresh", 5, sig2, 2, NULL));
    CHECK(iprof_model_method_find(m, "fresh", 5, sig2, 2) == iprof_model_method_by_id(m, 78));
    /* Removal drops the index; the next lookup rebuilds it without the type. */
    CHECK_OK(iprof_model_remove_method(m, 78, 0));
    CHECK_OK(iprof_model_remove_type(m, 77));
    CHECK(atomic_load(&m->index[IPI_IX_TYPE_NAMES]) == NULL);
    CHECK(iprof_model_type_by_name(m, "Later", 5) == NULL);
    CHECK(iprof_model_method_find(m, "fresh", 5, sig2, 2) == NULL);
    CHECK(iprof_model_type_by_name(m, "EvenOrOddLength", 15) == t);
    CHECK(consistent(m));
    iprof_model_free(m);
    CHECK_EQ_INT(fa.live_blocks, 0);
}

/* A lenient read delivers repeated ids and contexts: the model keeps them
 * all, in order, and lookups give the first. */
static void test_load_duplicates(void)
{
    static const char *const doc =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":1,\"name\":\"A\"},{\"id\":1,\"name\":\"B\"},"
        "{\"id\":2,\"name\":\"A\"}],"
        "\"methods\":[{\"id\":5,\"name\":\"m\",\"signature\":[1]},"
        "{\"id\":5,\"name\":\"n\",\"signature\":[1]}],"
        "\"callCountProfiles\":[{\"ctx\":\"5:0\",\"records\":[1]},"
        "{\"ctx\":\"5:0\",\"records\":[2]}],"
        "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
        "\"samplingProfiles\":[]}";
    iprof_model *m = NULL;
    CHECK_OK(load_doc(&m, doc, 0));
    if (!m)
        return;
    CHECK_EQ_INT(iprof_model_type_count(m), 3);
    CHECK_EQ_INT(iprof_model_method_count(m), 2);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 2);
    CHECK_EQ_INT(iprof_model_context_count(m), 1);
    CHECK_EQ_STR(name_of(iprof_model_type_by_id(m, 1)), "A");
    CHECK(iprof_model_type_by_name(m, "A", 1) == iprof_model_type_at(m, 0));
    CHECK(iprof_model_type_by_name(m, "B", 1) == iprof_model_type_at(m, 1));
    CHECK_EQ_STR(iprof_method_name(iprof_model_method_by_id(m, 5), NULL), "m");
    static const int64_t f[] = {5, 0};
    const iprof_entry *e = iprof_model_entry_find(m, IPROF_KIND_CALL_COUNT, f, 1);
    CHECK(e == iprof_model_entry_at(m, IPROF_KIND_CALL_COUNT, 0));
    CHECK(iprof_entry_records(e, NULL)[0] == 1);
    CHECK(consistent(m));

    /* Removing the first makes the next one with the key visible. */
    CHECK_OK(iprof_model_remove_type(m, 1));
    CHECK_EQ_STR(name_of(iprof_model_type_by_id(m, 1)), "B");
    CHECK(iprof_model_type_by_name(m, "A", 1) == iprof_model_type_by_id(m, 2));
    CHECK_OK(iprof_model_remove_method(m, 5, 0));
    CHECK_EQ_STR(iprof_method_name(iprof_model_method_by_id(m, 5), NULL), "n");
    CHECK_OK(iprof_model_remove_entry(m, IPROF_KIND_CALL_COUNT, f, 1));
    e = iprof_model_entry_find(m, IPROF_KIND_CALL_COUNT, f, 1);
    CHECK(e != NULL && iprof_entry_records(e, NULL)[0] == 2);
    CHECK_OK(iprof_model_remove_entry(m, IPROF_KIND_CALL_COUNT, f, 1));
    CHECK(iprof_model_entry_find(m, IPROF_KIND_CALL_COUNT, f, 1) == NULL);
    CHECK_EQ_INT(iprof_model_remove_entry(m, IPROF_KIND_CALL_COUNT, f, 1), IPROF_ENOTFOUND);
    CHECK(consistent(m));
    iprof_model_free(m);
}

/* Ids by position: in increasing order (gaps allowed) no map is built;
 * an id out of order or repeated builds one, and lookups still return the
 * first holder; removal shifts positions; the extreme ids work. */
static void test_id_index(void)
{
    iprof_model *m;
    CHECK_OK(iprof_model_new(&m, NULL));
    static const int64_t sig[] = {INT64_MIN, INT64_MAX};
    CHECK_OK(iprof_model_add_type(m, INT64_MIN, "min", 3, NULL));
    CHECK_OK(iprof_model_add_type(m, INT64_MAX, "max", 3, NULL));
    CHECK_EQ_INT(m->type_ids.mapped, 1); /* too far apart for a bitmap */
    CHECK_EQ_STR(name_of(iprof_model_type_by_id(m, INT64_MIN)), "min");
    CHECK_EQ_STR(name_of(iprof_model_type_by_id(m, INT64_MAX)), "max");
    CHECK(iprof_model_type_by_id(m, 0) == NULL);
    for (int64_t id = 10; id < 20; id += 2)
        CHECK_OK(iprof_model_add_method(m, id, "f", 1, sig, 2, NULL));
    CHECK_OK(iprof_model_add_method(m, 1000, "top", 3, sig, 2, NULL));
    CHECK_EQ_INT(m->method_ids.mapped, 0); /* increasing: no map */
    CHECK_EQ_INT(ipi_model_max_id(m, 0), 1000);
    CHECK(iprof_model_method_by_id(m, 14) == iprof_model_method_at(m, 2));
    CHECK(iprof_model_method_by_id(m, 13) == NULL);
    CHECK(iprof_model_method_by_id(m, INT64_MIN) == NULL);
    CHECK_EQ_STR(iprof_method_name(iprof_model_method_by_id(m, 1000), NULL), "top");
    CHECK(iprof_model_method_by_id(m, INT64_MAX) == NULL);
    CHECK_OK(iprof_model_remove_method(m, 12, 0));
    CHECK_EQ_INT(m->method_ids.mapped, 0);
    CHECK(iprof_model_method_by_id(m, 12) == NULL);
    CHECK(iprof_model_method_by_id(m, 14) == iprof_model_method_at(m, 1));
    CHECK(iprof_model_method_by_id(m, 1000) == iprof_model_method_at(m, 4));
    CHECK_OK(iprof_model_add_method(m, 12, "back", 4, sig, 2, NULL)); /* out of order */
    CHECK_EQ_INT(m->method_ids.mapped, 1);
    CHECK(iprof_model_method_by_id(m, 12) == iprof_model_method_at(m, 5));
    CHECK(iprof_model_method_by_id(m, 16) == iprof_model_method_at(m, 2));
    CHECK_OK(iprof_model_remove_method(m, 10, 0));
    CHECK(iprof_model_method_by_id(m, 12) == iprof_model_method_at(m, 4));
    CHECK(iprof_model_method_by_id(m, 10) == NULL);
    CHECK(consistent(m));
    /* Names over 4 GiB - 1 (an interned string's 32-bit length) are refused
     * before a byte of them is read, naming the limit. */
    if (SIZE_MAX > UINT32_MAX) {
        size_t huge = (size_t)UINT32_MAX + 1;
        CHECK_EQ_INT(iprof_model_add_type(m, 99, "x", huge, NULL), IPROF_ELIMIT);
        CHECK_EQ_STR(err_info(iprof_model_error(m)).message,
                     "type 99: the name is longer than the limit of 4294967295 bytes");
        CHECK_EQ_INT(iprof_model_add_method(m, 99, "x", huge, sig, 2, NULL), IPROF_ELIMIT);
        CHECK_EQ_STR(err_info(iprof_model_error(m)).message,
                     "method 99: the name is longer than the limit of 4294967295 bytes");
        CHECK(iprof_model_type_by_id(m, 99) == NULL && iprof_model_method_by_id(m, 99) == NULL);
    }
    iprof_model_free(m);

    /* A duplicate from a lenient load: the map, the first holder. */
    static const char *const doc =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"A\"},{\"id\":1,\"name\":\"B\"},"
        "{\"id\":3,\"name\":\"C\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,1]},"
        "{\"id\":2,\"name\":\"n\",\"signature\":[0,1]},"
        "{\"id\":2,\"name\":\"o\",\"signature\":[0,1]}],"
        "\"callCountProfiles\":[],"
        "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
        "\"samplingProfiles\":[]}";
    m = NULL;
    CHECK_OK(load_doc(&m, doc, 0));
    if (!m)
        return;
    CHECK_EQ_INT(m->type_ids.mapped, 0);
    CHECK_EQ_INT(m->method_ids.mapped, 1);
    CHECK_EQ_STR(name_of(iprof_model_type_by_id(m, 3)), "C");
    CHECK(iprof_model_type_by_id(m, 2) == NULL);
    CHECK_EQ_STR(iprof_method_name(iprof_model_method_by_id(m, 2), NULL), "n");
    CHECK_OK(iprof_model_remove_method(m, 2, 0));
    CHECK_EQ_STR(iprof_method_name(iprof_model_method_by_id(m, 2), NULL), "o");
    CHECK(consistent(m));
    iprof_model_free(m);
}

static void test_load_errors(void)
{
    iprof_model *m = (iprof_model *)1;
    CHECK(load_doc(&m, "{\"version\":\"1.0.0\",\"types\":[", 0) != IPROF_OK);
    CHECK(m == NULL);
    m = (iprof_model *)1;
    CHECK_EQ_INT(load_doc(&m, "{\"version\":\"3.0.0\",\"types\":[],\"methods\":[]}", 0),
                 IPROF_EVERSION);
    CHECK(m == NULL);
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_EQ_INT(iprof_model_load(NULL, r, SRC_BUFFER("{}", 2)), IPROF_EINVAL);
    m = (iprof_model *)1;
    CHECK_EQ_INT(iprof_model_load(&m, NULL, SRC_BUFFER("{}", 2)), IPROF_EINVAL);
    CHECK(m == NULL);
    m = (iprof_model *)1;
    CHECK(iprof_model_load(&m, r, SRC_PATH("/nonexistent/x.iprof")) != IPROF_OK);
    CHECK(m == NULL);
    iprof_reader_free(r);
}

/* The same document through every source gives the same model. */
static int read_in_pieces(void *buf, size_t capacity, size_t *len, void *payload)
{
    const char **p = payload;
    size_t n = strlen(*p);
    n = n < 7 ? n : 7;
    n = n < capacity ? n : capacity;
    memcpy(buf, *p, n);
    *p += n;
    *len = n;
    return 0;
}

static void test_load_sources(void)
{
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    iprof_model *m = NULL;
    const char *p = EOO;
    CHECK_OK(iprof_model_load(&m, r, SRC_CALLBACK(read_in_pieces, &p)));
    CHECK_EQ_INT(iprof_model_context_count(m), 9);
    iprof_model_free(m);

    char path[] = "/tmp/test_model_XXXXXX";
    int fd = check_mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) {
        CHECK_EQ_INT(write(fd, EOO, strlen(EOO)), (long long)strlen(EOO));
        CHECK_OK(iprof_model_load(&m, r, SRC_PATH(path)));
        CHECK_EQ_INT(iprof_model_method_count(m), 5);
        iprof_model_free(m);
        lseek(fd, 0, SEEK_SET);
        CHECK_OK(iprof_model_load(&m, r, SRC_FD(fd)));
        CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 4);
        iprof_model_free(m);
        close(fd);
        unlink(path);
    }
    iprof_reader_free(r);
}

static void test_load_corpus(void)
{
    const char *dir = check_corpus_dir();
    if (!dir)
        SKIP("IPROF_CORPUS_DIR is not set or has no README.md");
    char path[4096];
    snprintf(path, sizeof path, "%s/jsonata-cli-0.4.0.iprof", dir);
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_load(&m, r, SRC_PATH(path)));
    iprof_reader_free(r);
    if (!m)
        return;
    CHECK_EQ_STR(iprof_model_version(m), "0.4.0");
    CHECK_EQ_INT(iprof_model_type_count(m), 5299);
    CHECK_EQ_INT(iprof_model_method_count(m), 43276);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 8785);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CONDITIONAL), 6560);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_VIRTUAL_INVOKE), 508);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_MONITOR), 1);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_SAMPLING), 161);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_INSTANCEOF), 0);
    CHECK(consistent(m));
    iprof_model_free(m);
}

/* ---- allocation failure ------------------------------------------------- */

/* Build a model call by call; stop at the first failure. Every call must
 * return IPROF_OK, or IPROF_ENOMEM exactly when an allocation failed. */
static int build_steps(iprof_model *m, fail_alloc *fa)
{
    static const int64_t sig[] = {3, 0, 1}, f1[] = {5, 0, 3, 2, 2, 2, 1, 3}, f2[] = {2, 9, 1, 3},
                         one[] = {1}, cond[] = {9, 0, 1, 15, 1, 0}, more[] = {9, 1, 4, 7, 0, 1},
                         vi[] = {1, 2, 0, 3}, mon[] = {0, 0};
    char name[32];
    int rc = IPROF_OK;
    for (int i = 0; i < 40 && !rc; i++) {
        int n = snprintf(name, sizeof name, "T%d", i);
        rc = iprof_model_add_type(m, i, name, (size_t)n, NULL);
    }
    for (int i = 1; i < 60 && !rc; i++) {
        int n = snprintf(name, sizeof name, "m%d", i % 17);
        rc = iprof_model_add_method(m, i, name, (size_t)n, sig, 1 + (size_t)i % 3, NULL);
    }
    if (!rc)
        rc = iprof_model_set_version(m, "1.0.0");
    for (int i = 0; i < 30 && !rc; i++) {
        int64_t f[] = {1 + i % 50, 0, 2, i, 3, 1};
        rc = iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f, 1 + (size_t)i % 3, one, 1);
    }
    if (!rc)
        rc = iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f1, 4, one, 1);
    if (!rc)
        rc = iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f2, 2, cond, 6);
    if (!rc)
        rc = iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f2, 2, more, 6); /* grows */
    if (!rc)
        rc = iprof_model_add_entry(m, IPROF_KIND_VIRTUAL_INVOKE, f2, 2, vi, 4);
    if (!rc)
        rc = iprof_model_add_entry(m, IPROF_KIND_MONITOR, mon, 1, vi, 4);
    if (!rc)
        rc = iprof_model_remove_type(m, 39);
    if (!rc)
        rc = iprof_model_remove_method(m, 59, 0);
    if (!rc)
        rc = iprof_model_remove_entry(m, IPROF_KIND_CALL_COUNT, f1, 4);
    CHECK(fa->failed_hard ? rc == IPROF_ENOMEM : rc == IPROF_OK);
    return rc;
}

static void test_alloc_failure_build(void)
{
    int completed = 0;
    long n;
    for (n = 1; n < 10000 && !completed; n++) {
        fail_alloc fa = {.fail_at = n};
        iprof_allocator a = {fa_malloc, fa_realloc, fa_free, &fa};
        iprof_model *m = NULL;
        int rc = iprof_model_new(&m, &a);
        CHECK(fa.failed_hard ? rc == IPROF_ENOMEM && m == NULL : rc == IPROF_OK);
        if (m) {
            rc = build_steps(m, &fa);
            CHECK(consistent(m));
            completed = !fa.failed;
            if (completed) {
                CHECK_EQ_INT(iprof_model_type_count(m), 39);
                CHECK_EQ_INT(iprof_model_method_count(m), 58);
                CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CONDITIONAL), 1);
            }
            iprof_model_free(m);
        }
        CHECK_EQ_INT(fa.live_blocks, 0);
        CHECK_EQ_INT(fa.live_bytes, 0);
    }
    CHECK(completed);
    fprintf(stderr, "   %ld allocations failed in turn\n", n - 2);
}

static void test_alloc_failure_load(void)
{
    int completed = 0, shrinks = 0;
    long n;
    for (n = 1; n < 10000 && !completed; n++) {
        fail_alloc fa = {.fail_at = 0};
        iprof_allocator a = {fa_malloc, fa_realloc, fa_free, &fa};
        iprof_read_options o = IPROF_READ_OPTIONS_INIT;
        o.allocator = &a;
        o.flags = IPROF_READ_STRICT;
        iprof_reader *r = NULL;
        CHECK_OK(iprof_reader_new(&r, &o));
        fa.fail_at = n; /* the count starts with the load */
        iprof_model *m = (iprof_model *)1;
        int rc = iprof_model_load(&m, r, SRC_BUFFER(EOO, strlen(EOO)));
        if (fa.failed_hard) {
            CHECK_EQ_INT(rc, IPROF_ENOMEM);
            CHECK(m == NULL);
            /* The reader says why, whichever allocation failed (the first
             * is the model itself, before any reading). */
            CHECK_EQ_INT(err_info(iprof_reader_error(r)).status, IPROF_ENOMEM);
        } else {
            CHECK_OK(rc);
            CHECK_EQ_INT(iprof_model_context_count(m), 9);
            shrinks += fa.failed; /* the end of the load gives back slack: may fail */
            completed = !fa.failed;
            /* The model allocates with the reader's allocator. */
            long live = fa.live_blocks;
            iprof_model_free(m);
            CHECK(fa.live_blocks < live);
            m = NULL;
        }
        iprof_reader_free(r);
        CHECK_EQ_INT(fa.live_blocks, 0);
        CHECK_EQ_INT(fa.live_bytes, 0);
    }
    CHECK(completed);
    /* The type and method lists, their id bitmaps, the two kinds of entries. */
    CHECK_EQ_INT(shrinks, 6);
    fprintf(stderr, "   %ld allocations failed in turn (%d of them giving back slack)\n", n - 2, shrinks);
}

int main(void)
{
    RUN(test_new_and_version);
    RUN(test_user_allocator);
    RUN(test_types);
    RUN(test_methods);
    RUN(test_remove_and_retain);
    RUN(test_contexts);
    RUN(test_load_example);
    RUN(test_lazy_indexes);
    RUN(test_names_index_threaded);
    RUN(test_load_duplicates);
    RUN(test_id_index);
    RUN(test_load_errors);
    RUN(test_load_sources);
    RUN(test_load_corpus);
    RUN(test_alloc_failure_build);
    RUN(test_alloc_failure_load);
    return check_done();
}
