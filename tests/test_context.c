/* Unit tests of the context nodes (lib/model/model_context.c): bcis that
 * do not fit the node's 32 bits, exact through every path; node handles
 * that stay put while the chunks grow; the node limit, refused cleanly
 * by adds, merges and loads; the merge journal taking nodes out again;
 * the names' and the methods' limits (their 32-bit references), refused
 * the same way. */
#include "check.h"
#include "check_api.h"
#include "check_model.h"

#include <stdio.h>
#include <stdlib.h>

#include <iprof/edit.h>
#include <iprof/iprof.h>
#include <iprof/transform.h>

#include "load_builder.h"
#include "model.h"

/* ---- helpers ------------------------------------------------------------ */

/* Wide bcis (beyond int32, and INT32_MIN, the node's mark for them) in
 * callers and callees, next to narrow ones at the edges of int32; a bci of
 * 2^32 beside 0, which it would alias if it were cut to 32 bits. GraalVM's
 * layout, so a write gives it back byte for byte. */
#define WIDE_TYPES_METHODS                                                                   \
    "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"void\"},{\"id\":1,\"name\":\"A\"}]," \
    "\"methods\":[{\"id\":1,\"name\":\"main\",\"signature\":[1,0]},"                          \
    "{\"id\":2,\"name\":\"run\",\"signature\":[1,0]},"                                        \
    "{\"id\":3,\"name\":\"walk\",\"signature\":[1,0]}],"
#define WIDE_CALL_COUNT "\"callCountProfiles\":[{\"ctx\":\"2:0<1:2147483648\",\"records\":[5]}],"
#define WIDE_CONDITIONAL                                                                   \
    "{\"ctx\":\"2:-2147483648<1:2147483647\",\"records\":[1,0,2]},"                         \
    "{\"ctx\":\"2:-2147483649<1:2147483647\",\"records\":[1,0,3]},"                         \
    "{\"ctx\":\"2:2147483647<1:9223372036854775807\",\"records\":[1,0,4]},"                 \
    "{\"ctx\":\"2:-9223372036854775808<1:-2147483647\",\"records\":[1,0,6]},"               \
    "{\"ctx\":\"2:4294967296<1:0\",\"records\":[1,0,7]},"                                   \
    "{\"ctx\":\"2:0<1:0\",\"records\":[1,0,8]}"
#define WIDE_REST "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[]}"

static const char *const WIDE = WIDE_TYPES_METHODS WIDE_CALL_COUNT
    "\"conditionalProfiles\":[" WIDE_CONDITIONAL "]," WIDE_REST;
/* The same with a context repeated within its kind: a lenient read keeps
 * both entries, on one node. */
static const char *const WIDE_REPEATED = WIDE_TYPES_METHODS WIDE_CALL_COUNT
    "\"conditionalProfiles\":[" WIDE_CONDITIONAL
    ",{\"ctx\":\"2:4294967296<1:0\",\"records\":[1,0,9]}]," WIDE_REST;

/* The conditional entries' frames, callee first, and their first count. */
static const struct {
    int64_t frames[4];
    int64_t count;
} wide_cond[] = {
    {{2, INT32_MIN, 1, INT32_MAX}, 2},
    {{2, (int64_t)INT32_MIN - 1, 1, INT32_MAX}, 3},
    {{2, INT32_MAX, 1, INT64_MAX}, 4},
    {{2, INT64_MIN, 1, -(int64_t)INT32_MAX}, 6},
    {{2, (int64_t)1 << 32, 1, 0}, 7},
    {{2, 0, 1, 0}, 8},
};
#define WIDE_COND_COUNT (sizeof wide_cond / sizeof *wide_cond)
/* Nodes: 7 contexts over 5 distinct callers; of them 6 with a wide bci
 * (2147483648, -2147483648, -2147483649, INT64_MAX, INT64_MIN, 2^32),
 * each in two slots. */
#define WIDE_NODES 12
#define WIDE_SLOTS 18

static iprof_model *load_doc(const char *doc, unsigned flags, int expect)
{
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.flags = flags;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    iprof_model *m = NULL;
    CHECK_EQ_INT(iprof_model_load(&m, r, SRC_BUFFER(doc, strlen(doc))), expect);
    iprof_reader_free(r);
    return m;
}

/* The model minified in GraalVM's layout, malloc'd; a lenient write
 * (a lenient read's repeated contexts are no model a strict write takes). */
static char *text_of(const iprof_model *m)
{
    return model_text(m, IPROF_WRITE_NO_VALIDATE);
}

/* Merge src into dst, or with streaming, the document doc (src's text)
 * as it is read. */
static int merge_into(iprof_model *dst, const iprof_model *src, const char *doc, int streaming)
{
    if (!streaming)
        return merge_weighted(dst, src, 1.0);
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    int rc = iprof_model_merge_source(dst, r, SRC_BUFFER(doc, strlen(doc)), NULL);
    iprof_reader_free(r);
    return rc;
}

static const char *ctx_text(const iprof_context *c)
{
    static char buf[256];
    iprof_context_format(c, buf, sizeof buf);
    return buf;
}

/* Every conditional entry of WIDE found by its frames, each frame exact
 * through the accessors, its first count times `times`. */
static int wide_entries_ok(const iprof_model *m, int64_t times)
{
    int ok = 1;
    for (size_t i = 0; i < WIDE_COND_COUNT; i++) {
        const int64_t *f = wide_cond[i].frames;
        const iprof_entry *e = iprof_model_entry_find(m, IPROF_KIND_CONDITIONAL, f, 2);
        const iprof_context *c = e ? iprof_entry_context(e) : NULL;
        ok &= c != NULL && iprof_entry_records(e, NULL)[2] == wide_cond[i].count * times;
        ok &= iprof_context_method_id(c) == f[0] && iprof_context_bci(c) == f[1];
        ok &= iprof_context_depth(c) == 2 && iprof_context_bci(iprof_context_caller(c)) == f[3];
        int64_t got[4] = {0};
        ok &= iprof_context_frames(c, got, 2) == 2 && memcmp(got, f, sizeof got) == 0;
    }
    return ok;
}

/* ---- bcis beyond 32 bits ------------------------------------------------ */

static void check_wide_model(const iprof_model *m, const char *doc)
{
    CHECK_EQ_INT(iprof_model_context_count(m), WIDE_NODES);
    CHECK_EQ_INT(m->ctx_nodes.used, WIDE_SLOTS);
    CHECK(wide_entries_ok(m, 1));
    const iprof_context *cc = iprof_entry_context(iprof_model_entry_at(m, 0, 0));
    CHECK_EQ_INT(iprof_context_bci(iprof_context_caller(cc)), (int64_t)INT32_MAX + 1);
    const iprof_context *c = iprof_entry_context(iprof_model_entry_at(m, 1, 4));
    CHECK_EQ_STR(ctx_text(c), "2:4294967296<1:0");
    /* 2^32 and 0 share their low 32 bits: two nodes, one caller. */
    const iprof_context *z = iprof_entry_context(iprof_model_entry_at(m, 1, 5));
    CHECK(z != c && iprof_context_caller(z) == iprof_context_caller(c));
    CHECK_EQ_STR(ctx_text(z), "2:0<1:0");
    char buf[128];
    iprof_model_context_describe(m, c, buf, sizeof buf);
    CHECK_EQ_STR(buf, "A.run:4294967296 < A.main:0");
    c = iprof_entry_context(iprof_model_entry_at(m, 1, 3));
    CHECK_EQ_STR(ctx_text(c), "2:-9223372036854775808<1:-2147483647");
    CHECK_EQ_INT(c->bci, IPI_BCI_WIDE); /* stored beside the node */
    CHECK_EQ_INT(iprof_context_caller(c)->bci, -INT32_MAX); /* in the node */
    char *out = text_of(m);
    CHECK_EQ_STR(out, doc);
    free(out);
}

/* Strict, lenient (with a repeated context) and threaded reads keep every
 * bci exact, and the model writes them back byte for byte. */
static void test_wide_bcis_load(void)
{
    iprof_model *m = load_doc(WIDE, IPROF_READ_STRICT, IPROF_OK);
    if (m)
        check_wide_model(m, WIDE);
    iprof_model_free(m);
    m = load_doc(WIDE, IPROF_READ_THREADED, IPROF_OK);
    if (m)
        check_wide_model(m, WIDE);
    iprof_model_free(m);
    m = load_doc(WIDE_REPEATED, 0, IPROF_OK);
    if (m) {
        check_wide_model(m, WIDE_REPEATED);
        CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CONDITIONAL), 7);
        CHECK(iprof_entry_context(iprof_model_entry_at(m, 1, 6)) ==
              iprof_entry_context(iprof_model_entry_at(m, 1, 4)));
    }
    iprof_model_free(m);
}

/* Merges (of models, and streaming), the canonical form and the context
 * cut meet the wide bcis as they are. */
static void test_wide_bcis_transform(void)
{
    iprof_model *a = load_doc(WIDE, IPROF_READ_STRICT, IPROF_OK);
    iprof_model *b = load_doc(WIDE, IPROF_READ_STRICT, IPROF_OK);
    if (!a || !b) {
        iprof_model_free(a);
        iprof_model_free(b);
        return;
    }
    CHECK_OK(merge_weighted(a, b, 1.0));
    CHECK_EQ_INT(iprof_model_context_count(a), WIDE_NODES);
    CHECK(wide_entries_ok(a, 2));
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_OK(iprof_model_merge_source(a, r, SRC_BUFFER(WIDE, strlen(WIDE)), NULL));
    iprof_reader_free(r);
    CHECK_EQ_INT(iprof_model_context_count(a), WIDE_NODES);
    CHECK(wide_entries_ok(a, 3));
    CHECK_OK(iprof_model_canonicalize(a, 0));
    CHECK(wide_entries_ok(a, 3));

    /* Cut to the callee frame: six contexts of one frame each, 2^32 and 0
     * among them. */
    iprof_filter_options fo = IPROF_FILTER_OPTIONS_INIT;
    fo.max_depth = 1;
    CHECK_OK(iprof_model_filter(b, &fo));
    CHECK_EQ_INT(iprof_model_entry_count(b, IPROF_KIND_CONDITIONAL), 6);
    for (size_t i = 0; i < WIDE_COND_COUNT; i++) {
        const iprof_entry *e =
            iprof_model_entry_find(b, IPROF_KIND_CONDITIONAL, wide_cond[i].frames, 1);
        CHECK(e != NULL && iprof_context_depth(iprof_entry_context(e)) == 1);
        CHECK(e != NULL && iprof_context_bci(iprof_entry_context(e)) == wide_cond[i].frames[1]);
        CHECK(e != NULL && iprof_entry_records(e, NULL)[2] == wide_cond[i].count);
    }
    iprof_model_free(a);
    iprof_model_free(b);
}

/* Two one-frame contexts of method 2 whose hashes share the 32 bits the
 * table keeps: bcis from `base` on, found by sorting (birthday: about 8
 * pairs among 2^18). 0 when none. */
typedef struct tagged {
    uint32_t tag;
    int64_t bci;
} tagged;

static int by_tag(const void *a, const void *b)
{
    const tagged *x = a, *y = b;
    return x->tag < y->tag ? -1 : x->tag > y->tag ? 1 : (x->bci > y->bci) - (x->bci < y->bci);
}

static int colliding_bcis(int64_t base, int64_t out[2])
{
    enum { TRIES = 1 << 18 };
    tagged *t = malloc(TRIES * sizeof *t);
    for (int64_t i = 0; i < TRIES; i++) {
        const int64_t f[2] = {2, base + i};
        uint64_t h;
        ipi_context_hashes(f, 1, &h);
        t[i] = (tagged){(uint32_t)h, base + i};
    }
    qsort(t, TRIES, sizeof *t, by_tag);
    int found = 0;
    for (size_t i = 1; i < TRIES && !found; i++)
        if (t[i].tag == t[i - 1].tag) {
            out[0] = t[i - 1].bci;
            out[1] = t[i].bci;
            found = 1;
        }
    free(t);
    return found;
}

/* Contexts whose hashes agree in the table's 32 bits are told apart by
 * their frames: narrow bcis in the node, wide ones beside it. */
static void test_tag_collisions(void)
{
    static const int64_t bases[] = {0, (int64_t)1 << 40};
    for (size_t k = 0; k < 2; k++) {
        int64_t b[2] = {0, 0};
        CHECK(colliding_bcis(bases[k], b));
        iprof_model *m;
        CHECK_OK(iprof_model_new(&m, NULL));
        const int64_t f0[2] = {2, b[0]}, f1[2] = {2, b[1]};
        const iprof_context *c0 = NULL, *c1 = NULL;
        CHECK_OK(ipi_context_intern(m, f0, 1, &c0));
        CHECK(ipi_context_lookup(m, f1, 1) == NULL);
        CHECK_OK(ipi_context_intern(m, f1, 1, &c1));
        CHECK(c0 != NULL && c1 != NULL && c0 != c1);
        CHECK(ipi_context_lookup(m, f0, 1) == c0 && ipi_context_lookup(m, f1, 1) == c1);
        CHECK_EQ_INT(iprof_context_bci(c0), b[0]);
        CHECK_EQ_INT(iprof_context_bci(c1), b[1]);
        CHECK_EQ_INT(iprof_model_context_count(m), 2);
        iprof_model_free(m);
    }
}

/* ---- chunks ------------------------------------------------------------- */

static const iprof_context *intern2(iprof_model *m, int64_t m0, int64_t b0, int64_t m1,
                                    int64_t b1)
{
    const int64_t f[4] = {m0, b0, m1, b1};
    const iprof_context *c = NULL;
    CHECK_OK(ipi_context_intern(m, f, 2, &c));
    return c;
}

/* Handles stay valid and unchanged while the nodes grow over several
 * chunks; a wide node that would straddle two chunks starts the next. */
static void test_chunk_growth(void)
{
    enum { N = 3 * IPI_CTX_CHUNK + 100 };
    iprof_model *m;
    CHECK_OK(iprof_model_new(&m, NULL));
    static const iprof_context *first[N];
    /* One caller, then callees up to the last slot but one of chunk 0. */
    size_t n = 0;
    while (m->ctx_nodes.used < IPI_CTX_CHUNK - 1) {
        first[n] = intern2(m, (int64_t)n, (int64_t)n % 7, 1, 0);
        n++;
    }
    CHECK_EQ_INT(n, IPI_CTX_CHUNK - 2);
    const iprof_context *w = intern2(m, 9, INT64_MIN + 5, 1, 0);
    CHECK(w == ipi_ctx_node(&m->ctx_nodes, IPI_CTX_CHUNK)); /* chunk 1's first slot */
    CHECK_EQ_INT(m->ctx_nodes.used, IPI_CTX_CHUNK + 2);
    CHECK_EQ_INT(iprof_context_bci(w), INT64_MIN + 5);
    const iprof_context *caller = iprof_context_caller(first[0]);
    for (; n < N; n++)
        first[n] = intern2(m, (int64_t)n, (int64_t)n % 7 - 3, 1, 0);
    CHECK(m->ctx_nodes.chunk_count >= 4);
    int ok = 1;
    for (size_t i = 0; i < IPI_CTX_CHUNK - 2; i++) {
        const int64_t f[4] = {(int64_t)i, (int64_t)i % 7, 1, 0};
        const iprof_context *c = ipi_context_lookup(m, f, 2);
        ok &= c == first[i] && iprof_context_caller(c) == caller;
        ok &= iprof_context_method_id(c) == (int64_t)i && iprof_context_bci(c) == (int64_t)i % 7;
    }
    CHECK(ok);
    ok = 1;
    for (size_t i = IPI_CTX_CHUNK - 2; i < N; i++) {
        const int64_t f[4] = {(int64_t)i, (int64_t)i % 7 - 3, 1, 0};
        const iprof_context *c = ipi_context_lookup(m, f, 2);
        ok &= c == first[i] && intern2(m, (int64_t)i, (int64_t)i % 7 - 3, 1, 0) == c;
        ok &= iprof_context_bci(c) == (int64_t)i % 7 - 3 && iprof_context_depth(c) == 2;
    }
    CHECK(ok);
    CHECK(intern2(m, 9, INT64_MIN + 5, 1, 0) == w);
    CHECK_EQ_INT(iprof_context_bci(w), INT64_MIN + 5);
    CHECK_EQ_INT(iprof_model_context_count(m), N + 2); /* + the caller and the wide one */
    iprof_model_free(m);
}

/* ---- the node limit ----------------------------------------------------- */

static void check_limit_message(const iprof_error *e, size_t max)
{
    char want[128];
    snprintf(want, sizeof want, "more than %zu context nodes: the model numbers them with 32 bits",
             max);
    CHECK(e != NULL);
    if (e) {
        CHECK_EQ_INT(err_info(e).status, IPROF_ELIMIT);
        CHECK_EQ_STR(err_info(e).message, want);
    }
}

/* Adding past the limit fails with IPROF_ELIMIT and a message saying so;
 * a wide node needs room for two slots. */
static void test_limit_add(void)
{
    iprof_model *m = load_doc(WIDE, IPROF_READ_STRICT, IPROF_OK);
    if (!m)
        return;
    m->ctx_nodes.max = WIDE_SLOTS + 2;
    static const int64_t f1[] = {2, 5, 1, 5}, f2[] = {3, 5, 1, 6}, f3[] = {2, 6, 1, 5},
                         f4[] = {3, (int64_t)1 << 40, 1, 5}, f5[] = {3, 7, 1, 5},
                         rec[] = {1, 0, 1};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f1, 2, rec, 3));
    CHECK_EQ_INT(iprof_model_context_count(m), WIDE_NODES + 2);
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f2, 2, rec, 3), IPROF_ELIMIT);
    check_limit_message(iprof_model_error(m), WIDE_SLOTS + 2);
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f3, 2, rec, 3), IPROF_ELIMIT);
    CHECK_EQ_INT(iprof_model_context_count(m), WIDE_NODES + 2);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CONDITIONAL), WIDE_COND_COUNT + 1);
    m->ctx_nodes.max++; /* one slot: not enough for a wide bci */
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f4, 2, rec, 3), IPROF_ELIMIT);
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f5, 2, rec, 3));
    CHECK_EQ_INT(iprof_model_context_count(m), WIDE_NODES + 3);
    CHECK(wide_entries_ok(m, 1));
    iprof_model_free(m);
}

/* A document of WIDE's types and methods and n conditional entries of
 * distinct contexts "3:i<2:i/2<1:0" (so about 1.5 n new nodes). */
static char *many_contexts(size_t n)
{
    size_t cap = 400 + n * 64, len = 0;
    char *doc = malloc(cap);
    len += (size_t)snprintf(doc, cap, "%s\"callCountProfiles\":[],\"conditionalProfiles\":[",
                            WIDE_TYPES_METHODS);
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(doc + len, cap - len,
                                "%s{\"ctx\":\"3:%zu<2:%zu<1:0\",\"records\":[1,0,1]}",
                                i ? "," : "", i, i / 2);
    snprintf(doc + len, cap - len, "],%s", WIDE_REST);
    return doc;
}

/* A merge that runs into the limit puts dst back: the nodes it created
 * leave the table (many: the journal's removals must keep the table
 * whole), dst writes as before; with room, the same merge succeeds. */
static void test_limit_merge(void)
{
    enum { N = 6000 };
    char *doc = many_contexts(N);
    iprof_model *src = load_doc(doc, IPROF_READ_STRICT, IPROF_OK);
    iprof_model *dst = load_doc(WIDE, IPROF_READ_STRICT, IPROF_OK);
    if (!src || !dst)
        goto done;
    /* New to dst: all of src's nodes but "1:0" and "2:0<1:0". */
    size_t created = iprof_model_context_count(src) - 2;
    CHECK_EQ_INT(created, N + N / 2 - 1);
    char *before = text_of(dst);
    for (int streaming = 0; streaming < 2; streaming++) {
        dst->ctx_nodes.max = WIDE_SLOTS + N; /* fails after N new nodes */
        int rc = merge_into(dst, src, doc, streaming);
        CHECK_EQ_INT(rc, IPROF_ELIMIT);
        check_limit_message(iprof_model_error(dst), WIDE_SLOTS + N);
        CHECK_EQ_INT(iprof_model_context_count(dst), WIDE_NODES);
        CHECK(wide_entries_ok(dst, 1));
        static const int64_t f[] = {2, 0, 1, 0}; /* a node of dst's, beside the forgotten */
        CHECK(ipi_context_lookup(dst, f, 2) != NULL);
        static const int64_t g[] = {3, 0, 2, 0, 1, 0}; /* the first the merge created */
        CHECK(ipi_context_lookup(dst, g, 3) == NULL);
        char *after = text_of(dst);
        CHECK_EQ_STR(after, before);
        free(after);
    }
    /* The failed merges' nodes stay in their chunks, unreachable. */
    dst->ctx_nodes.max = IPI_CTX_MAX_SLOTS;
    CHECK_OK(merge_weighted(dst, src, 1.0));
    CHECK_EQ_INT(iprof_model_context_count(dst), WIDE_NODES + created);
    int ok = 1;
    for (size_t i = 0; i < N; i++) {
        const int64_t f[] = {3, (int64_t)i, 2, (int64_t)i / 2, 1, 0};
        const iprof_entry *e = iprof_model_entry_find(dst, IPROF_KIND_CONDITIONAL, f, 3);
        ok &= e != NULL && iprof_context_bci(iprof_context_caller(iprof_entry_context(e))) ==
                               (int64_t)i / 2;
    }
    CHECK(ok);
    CHECK(wide_entries_ok(dst, 1));
    free(before);
done:
    iprof_model_free(src);
    iprof_model_free(dst);
    free(doc);
}

static int apply(ipi_batch *batch, void *payload)
{
    return ipi_batch_apply(payload, batch);
}

/* A load that runs into the limit (as model_load.c loads, the limit
 * lowered) fails with IPROF_ELIMIT and the model's message in the
 * reader's error, inline and on the builder's thread. */
static void test_limit_load(void)
{
    enum { N = 20000 };
    char *doc = many_contexts(N);
    for (int threaded = 0; threaded < 2; threaded++) {
        iprof_reader *r = NULL;
        CHECK_OK(iprof_reader_new(&r, NULL));
        iprof_model *m;
        CHECK_OK(iprof_model_new(&m, NULL));
        m->ctx_nodes.max = N;
        ipi_builder *b = ipi_builder_start(&m->alloc, apply, m, threaded);
        CHECK(b != NULL);
        iprof_source src = IPROF_SOURCE_BUFFER_INIT(doc, strlen(doc));
        if (b)
            CHECK_EQ_INT(ipi_load_run(r, &src, b, m, 0, NULL), IPROF_ELIMIT);
        check_limit_message(iprof_reader_error(r), N);
        CHECK(iprof_model_context_count(m) <= N && iprof_model_context_count(m) > N / 2);
        iprof_model_free(m);
        iprof_reader_free(r);
    }
    free(doc);
}

/* ---- the names' limit --------------------------------------------------- */

static void check_names_message(const iprof_error *e, size_t max)
{
    char want[160];
    snprintf(want, sizeof want,
             "more than %zu chunks of names (of up to 1024 KiB each): the model refers to names "
             "with 32 bits",
             max);
    CHECK(e != NULL);
    if (e) {
        CHECK_EQ_INT(err_info(e).status, IPROF_ELIMIT);
        CHECK_EQ_STR(err_info(e).message, want);
    }
}

/* A document of n types named "Type%06zu" (ids 0 .. n - 1), no methods. */
static char *many_names(size_t n)
{
    size_t cap = 200 + n * 40, len = 0;
    char *doc = malloc(cap);
    len += (size_t)snprintf(doc, cap, "{\"version\":\"1.0.0\",\"types\":[");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(doc + len, cap - len, "%s{\"id\":%zu,\"name\":\"Type%06zu\"}",
                                i ? "," : "", i, i);
    snprintf(doc + len, cap - len,
             "],\"methods\":[],\"callCountProfiles\":[],\"conditionalProfiles\":[],%s",
             WIDE_REST);
    return doc;
}

/* Interning past the names' chunks fails with IPROF_ELIMIT and a message
 * saying so, from every add that takes a name; names already there are
 * still taken. */
static void test_names_limit_add(void)
{
    iprof_model *m;
    CHECK_OK(iprof_model_new(&m, NULL));
    m->names.pool.max_chunks = 1; /* 4 KiB, its size first: 170 names of 24 bytes */
    char name[32];
    int rc = IPROF_OK;
    int64_t id = 0;
    while (rc == IPROF_OK && id < 1000) {
        int n = snprintf(name, sizeof name, "Type%06lld", (long long)id);
        rc = iprof_model_add_type(m, id++, name, (size_t)n, NULL);
    }
    CHECK_EQ_INT(rc, IPROF_ELIMIT);
    check_names_message(iprof_model_error(m), 1);
    CHECK_EQ_INT(iprof_model_type_count(m), 170);
    CHECK_EQ_INT(id, 171);
    static const int64_t sig[] = {0};
    CHECK_EQ_INT(iprof_model_add_method(m, 1, "run", 3, sig, 1, NULL), IPROF_ELIMIT);
    check_names_message(iprof_model_error(m), 1);
    CHECK_EQ_INT(iprof_model_method_count(m), 0);
    CHECK_EQ_INT(iprof_model_set_version(m, "1.1.0"), IPROF_ELIMIT);
    check_names_message(iprof_model_error(m), 1);
    CHECK_EQ_STR(iprof_model_version(m), IPROF_FORMAT_LATEST);
    CHECK_OK(iprof_model_add_method(m, 1, "Type000003", 10, sig, 1, NULL)); /* present */
    CHECK_EQ_INT(iprof_model_method_count(m), 1);
    iprof_model_free(m);
}

/* A load or a merge that runs into the names' limit fails with
 * IPROF_ELIMIT and the message; a failed merge leaves dst as it was. */
static void test_names_limit_load_merge(void)
{
    enum { N = 2000 }; /* 48 KiB of names: 4 + 8 + 16 + 32 KiB chunks */
    char *doc = many_names(N);
    for (int threaded = 0; threaded < 2; threaded++) {
        iprof_reader *r = NULL;
        CHECK_OK(iprof_reader_new(&r, NULL));
        iprof_model *m;
        CHECK_OK(iprof_model_new(&m, NULL));
        m->names.pool.max_chunks = 3;
        ipi_builder *b = ipi_builder_start(&m->alloc, apply, m, threaded);
        CHECK(b != NULL);
        iprof_source src = IPROF_SOURCE_BUFFER_INIT(doc, strlen(doc));
        if (b)
            CHECK_EQ_INT(ipi_load_run(r, &src, b, m, 0, NULL), IPROF_ELIMIT);
        check_names_message(iprof_reader_error(r), 3);
        CHECK_EQ_INT(m->names.pool.chunk_count, 3);
        iprof_model_free(m);
        iprof_reader_free(r);
    }
    iprof_model *src = load_doc(doc, IPROF_READ_STRICT, IPROF_OK);
    iprof_model *dst = load_doc(WIDE, IPROF_READ_STRICT, IPROF_OK);
    if (!src || !dst)
        goto done;
    CHECK_EQ_INT(iprof_model_type_count(src), N);
    char *before = text_of(dst);
    for (int streaming = 0; streaming < 2; streaming++) {
        dst->names.pool.max_chunks = dst->names.pool.chunk_count; /* the first new name fails */
        int rc = merge_into(dst, src, doc, streaming);
        CHECK_EQ_INT(rc, IPROF_ELIMIT);
        check_names_message(iprof_model_error(dst), dst->names.pool.max_chunks);
        char *after = text_of(dst);
        CHECK_EQ_STR(after, before);
        free(after);
    }
    dst->names.pool.max_chunks = IPI_POOL_MAX_CHUNKS;
    CHECK_OK(merge_weighted(dst, src, 1.0));
    CHECK_EQ_INT(iprof_model_type_count(dst), 2 + N);
    const iprof_type *t = iprof_model_type_by_name(dst, "Type001999", 10);
    const ipi_str *s = ipi_intern_find(&dst->names, "Type001999", 10);
    CHECK(t != NULL && s != NULL && iprof_type_name(t, NULL) == s->s);
    CHECK_EQ_INT(iprof_type_id(t), 2001); /* ids 0 and 1 taken: each id moves up by 2 */
    free(before);
done:
    iprof_model_free(src);
    iprof_model_free(dst);
    free(doc);
}

/* ---- the methods' references --------------------------------------------- */

/* Methods live in a pool of 32-bit references: past its chunks an add
 * fails with IPROF_ELIMIT and a message saying so; the structs handed out
 * stay put while the pool grows through many chunks. */
static void test_methods_pool(void)
{
    iprof_model *m;
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_OK(iprof_model_add_type(m, 0, "void", 4, NULL));
    CHECK_OK(iprof_model_add_type(m, 1, "A", 1, NULL));
    m->method_pool.max_chunks = 1; /* 4 KiB, its size first: 102 methods of 40 bytes */
    static const int64_t sig[] = {1, 0};
    const iprof_method *first = NULL;
    CHECK_OK(iprof_model_add_method(m, 1, "run", 3, sig, 2, &first));
    int rc = IPROF_OK;
    int64_t id = 2;
    while (rc == IPROF_OK && id < 1000)
        rc = iprof_model_add_method(m, id++, "run", 3, sig, 2, NULL);
    CHECK_EQ_INT(rc, IPROF_ELIMIT);
    CHECK_EQ_INT(iprof_model_method_count(m), 102);
    const iprof_error *e = iprof_model_error(m);
    CHECK(e != NULL);
    if (e)
        CHECK_EQ_STR(err_info(e).message, "more than 1 chunks of methods (of up to 1024 KiB "
                                             "each): the model refers to methods with 32 bits");
    m->method_pool.max_chunks = IPI_POOL_MAX_CHUNKS;
    enum { N = 100000 }; /* 4 MiB of methods: chunks up to 1 MiB */
    int ok = 1;
    for (int64_t i = 0; i < N; i++)
        ok &= iprof_model_add_method(m, 1000 + i, "walk", 4, sig, 2, NULL) == IPROF_OK;
    CHECK(ok);
    CHECK(m->method_pool.chunk_count > 6);
    CHECK(iprof_model_method_by_id(m, 1) == first);
    CHECK(iprof_model_method_at(m, 0) == first);
    CHECK_EQ_INT(iprof_method_id(first), 1);
    for (size_t i = 102; i < 102 + N; i += 101) {
        const iprof_method *x = iprof_model_method_at(m, i);
        size_t len;
        ok &= x != NULL && iprof_method_id(x) == 1000 + (int64_t)i - 102 &&
              iprof_model_method_by_id(m, iprof_method_id(x)) == x &&
              iprof_method_signature(x, &len)[0] == 1 && len == 2;
    }
    CHECK(ok);
    CHECK_OK(iprof_model_remove_method(m, 1, 0)); /* the list moves, the structs do not */
    const iprof_method *second = iprof_model_method_by_id(m, 2);
    CHECK(second != NULL && iprof_model_method_at(m, 0) == second);
    CHECK_EQ_INT(iprof_model_method_count(m), 101 + N);
    CHECK(iprof_model_method_by_id(m, 1) == NULL);
    iprof_model_free(m);
}

int main(void)
{
    RUN(test_wide_bcis_load);
    RUN(test_wide_bcis_transform);
    RUN(test_tag_collisions);
    RUN(test_chunk_growth);
    RUN(test_limit_add);
    RUN(test_limit_merge);
    RUN(test_limit_load);
    RUN(test_names_limit_add);
    RUN(test_names_limit_load_merge);
    RUN(test_methods_pool);
    return check_done();
}
