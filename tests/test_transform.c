/* iprof_model_canonicalize and iprof_model_filter (iprof/transform.h):
 * exact canonical bytes of a hand-written profile, two differently ordered
 * and numbered files of one profile becoming byte-identical, idempotence,
 * duplicates combined, failures leaving the model unchanged, corpus files
 * canonicalizing and reloading equal by names; each filter option with
 * exact expected output, pruning, and option checks. */
#include <iprof/analysis.h>
#include <iprof/edit.h>
#include <iprof/iprof.h>
#include <iprof/transform.h>

#include <dirent.h>
#include <stddef.h>

#include "check.h"
#include "check_api.h"
#include "check_alloc.h"
#include "check_model.h"
#include "canon.h"
#include "model.h"

static iprof_model *load(const char *json)
{
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    int rc = iprof_model_load(&m, r, SRC_BUFFER(json, strlen(json)));
    if (rc)
        fprintf(stderr, "load: %s\n", err_info(iprof_reader_error(r)).message);
    CHECK_OK(rc);
    iprof_reader_free(r);
    return m;
}

/* The same, lenient. */
static char *text(const iprof_model *m)
{
    return model_text(m, IPROF_WRITE_NO_VALIDATE);
}

/* The canonical form of m written with flags (and, non-NULL, in version),
 * or "(status: message)". */
static char *canonical_text_in(const iprof_model *m, unsigned flags, const char *version)
{
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.flags = IPROF_WRITE_CANONICAL | flags;
    o.format_version = version;
    iprof_writer *w = NULL;
    const void *d;
    size_t n = 0;
    char *out = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &o));
    int rc = iprof_writer_write_model(w, m);
    if (rc == IPROF_OK && iprof_writer_buffer(w, &d, &n) == 0) {
        out = malloc(n + 1);
        memcpy(out, d, n);
        out[n] = '\0';
    } else {
        char buf[512];
        snprintf(buf, sizeof buf, "(%s: %s)", iprof_status_string(rc),
                 err_info(iprof_writer_error(w)).message);
        out = strdup(buf);
    }
    iprof_writer_free(w);
    return out;
}

static char *canonical_text(const iprof_model *m, unsigned flags)
{
    return canonical_text_in(m, flags, NULL);
}

/* A canonical write of m gives what canonicalizing m and writing it gives
 * (or fails as canonicalizing fails, with its message), and leaves m as it
 * was. Canonicalizes m. */
static void same_as_canonicalize(iprof_model *m)
{
    char *before = text(m), *got = canonical_text(m, IPROF_WRITE_NO_VALIDATE);
    char *unchanged = text(m);
    CHECK_EQ_STR(unchanged, before);
    /* Sorting on a second thread gives the same bytes. */
    char *threaded = canonical_text(m, IPROF_WRITE_NO_VALIDATE | IPROF_WRITE_THREADED);
    CHECK_EQ_STR(threaded, got);
    free(threaded);
    int rc = iprof_model_canonicalize(m, 0);
    char *want;
    if (rc == IPROF_OK) {
        want = text(m);
    } else {
        char buf[512];
        snprintf(buf, sizeof buf, "(%s: %s)", iprof_status_string(rc),
                 err_info(iprof_model_error(m)).message);
        want = strdup(buf);
    }
    CHECK_EQ_STR(got, want);
    free(before);
    free(got);
    free(unchanged);
    free(want);
}

/* ---- canonical form ----------------------------------------------------- */

/* One profile written twice: other ids, other orders, A's records in
 * other orders. */
static const char *const PROFILE_A =
    "{\"version\":\"1.1.0\",\"types\":[{\"id\":0,\"name\":\"int\"},{\"id\":1,\"name\":"
    "\"b.Beta\"},{\"id\":2,\"name\":\"a.Alpha\"},{\"id\":3,\"name\":\"void\"}],"
    "\"methods\":[{\"id\":1,\"name\":\"run\",\"signature\":[1,3]},{\"id\":2,\"name\":"
    "\"run\",\"signature\":[2,3,0]},{\"id\":3,\"name\":\"run\",\"signature\":[2,3]},"
    "{\"id\":4,\"name\":\"go\",\"signature\":[1,0]}],"
    "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[5]},{\"ctx\":\"2:0<1:3\","
    "\"records\":[7]},{\"ctx\":\"2:0\",\"records\":[2]}],"
    "\"conditionalProfiles\":[{\"ctx\":\"4:1\",\"records\":[9,1,4,3,0,6,3,1,1]}],"
    "\"virtualInvokeProfiles\":[{\"ctx\":\"4:5\",\"records\":[1,10,2,20]}],"
    "\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[1,3,2,4]}],"
    "\"samplingProfiles\":[{\"ctx\":\"3:2<4:4\",\"records\":[8]},{\"ctx\":\"3:2\","
    "\"records\":[1]}],\"instanceofProfiles\":[]}";
static const char *const PROFILE_B =
    "{\"version\":\"1.1.0\",\"types\":[{\"id\":7,\"name\":\"a.Alpha\"},{\"id\":3,\"name\":"
    "\"void\"},{\"id\":5,\"name\":\"b.Beta\"},{\"id\":9,\"name\":\"int\"}],"
    "\"methods\":[{\"id\":40,\"name\":\"go\",\"signature\":[5,9]},{\"id\":41,\"name\":"
    "\"run\",\"signature\":[7,3]},{\"id\":42,\"name\":\"run\",\"signature\":[5,3]},"
    "{\"id\":43,\"name\":\"run\",\"signature\":[7,3,9]}],"
    "\"callCountProfiles\":[{\"ctx\":\"43:0\",\"records\":[2]},{\"ctx\":\"42:0\","
    "\"records\":[5]},{\"ctx\":\"43:0<42:3\",\"records\":[7]}],"
    "\"conditionalProfiles\":[{\"ctx\":\"40:1\",\"records\":[3,0,6,9,1,4,3,1,1]}],"
    "\"virtualInvokeProfiles\":[{\"ctx\":\"40:5\",\"records\":[7,20,5,10]}],"
    "\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[7,4,5,3]}],"
    "\"samplingProfiles\":[{\"ctx\":\"41:2\",\"records\":[1]},{\"ctx\":\"41:2<40:4\","
    "\"records\":[8]}],\"instanceofProfiles\":[]}";
/* Types: a.Alpha 0, b.Beta 1, int 2, void 3. Methods: a.Alpha.run()void 1,
 * a.Alpha.run(int)void 2, b.Beta.go()int 3, b.Beta.run()void 4. */
static const char *const CANONICAL =
    "{\"version\":\"1.1.0\",\"types\":[{\"id\":0,\"name\":\"a.Alpha\"},{\"id\":1,\"name\":"
    "\"b.Beta\"},{\"id\":2,\"name\":\"int\"},{\"id\":3,\"name\":\"void\"}],"
    "\"methods\":[{\"id\":1,\"name\":\"run\",\"signature\":[0,3]},{\"id\":2,\"name\":"
    "\"run\",\"signature\":[0,3,2]},{\"id\":3,\"name\":\"go\",\"signature\":[1,2]},"
    "{\"id\":4,\"name\":\"run\",\"signature\":[1,3]}],"
    "\"callCountProfiles\":[{\"ctx\":\"2:0\",\"records\":[2]},{\"ctx\":\"2:0<4:3\","
    "\"records\":[7]},{\"ctx\":\"4:0\",\"records\":[5]}],"
    "\"conditionalProfiles\":[{\"ctx\":\"3:1\",\"records\":[3,0,6,3,1,1,9,1,4]}],"
    "\"virtualInvokeProfiles\":[{\"ctx\":\"3:5\",\"records\":[0,20,1,10]}],"
    "\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[0,4,1,3]}],"
    "\"samplingProfiles\":[{\"ctx\":\"1:2\",\"records\":[1]},{\"ctx\":\"1:2<3:4\","
    "\"records\":[8]}],\"instanceofProfiles\":[]}";

static void test_canonical_exact(void)
{
    iprof_model *a = load(PROFILE_A), *b = load(PROFILE_B);
    char *ca = canonical_text(a, 0), *cb = canonical_text(b, IPROF_WRITE_PRETTY);
    CHECK_EQ_STR(ca, CANONICAL);
    CHECK(strstr(cb, "\n  \"types\": [\n    {\"id\": 0, \"name\": \"a.Alpha\"}") != NULL);
    free(ca);
    free(cb);
    CHECK_OK(iprof_model_canonicalize(a, 0));
    CHECK_OK(iprof_model_canonicalize(b, 0));
    char *ta = text(a), *tb = text(b);
    CHECK_EQ_STR(ta, CANONICAL);
    CHECK_EQ_STR(tb, CANONICAL);
    /* Idempotent. */
    CHECK_OK(iprof_model_canonicalize(a, 0));
    char *ta2 = text(a);
    CHECK_EQ_STR(ta2, CANONICAL);
    /* The model is usable afterwards: lookups see the new ids. */
    const iprof_type *t = iprof_model_type_by_name(a, "int", 3);
    CHECK(t && iprof_type_id(t) == 2);
    int64_t frames[4] = {2, 0, 4, 3};
    const iprof_entry *e = iprof_model_entry_find(a, IPROF_KIND_CALL_COUNT, frames, 2);
    CHECK(e && iprof_entry_records(e, NULL)[0] == 7);
    CHECK_OK(iprof_model_add_type(a, 10, "z.Zeta", 6, NULL));
    free(ta);
    free(tb);
    free(ta2);
    iprof_model_free(a);
    iprof_model_free(b);
}

static void test_canonical_combines_duplicates(void)
{
    /* Type "T" twice, method T.m()T twice (ids 1 and 2), entries on both,
     * a record key twice inside one entry (two records, as GraalVM counts
     * them: kept, in their order). */
    iprof_model *m = load(
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"},{\"id\":1,\"name\":\"T\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]},{\"id\":2,\"name\":\"m\","
        "\"signature\":[1,1]}],"
        "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[3]},{\"ctx\":\"2:0\","
        "\"records\":[4]}],"
        "\"conditionalProfiles\":[{\"ctx\":\"1:2\",\"records\":[5,0,1,5,0,2]},{\"ctx\":\"2:2\","
        "\"records\":[5,1,7]}],"
        "\"virtualInvokeProfiles\":[{\"ctx\":\"2:1\",\"records\":[0,1,1,2]}],"
        "\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    char *c = canonical_text(m, 0);
    CHECK_OK(iprof_model_canonicalize(m, 0));
    char *t = text(m);
    CHECK_EQ_STR(c, t);
    free(c);
    CHECK_EQ_STR(t,
                 "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
                 "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
                 "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[7]}],"
                 "\"conditionalProfiles\":[{\"ctx\":\"1:2\",\"records\":[5,0,1,5,0,2,5,1,7]}],"
                 "\"virtualInvokeProfiles\":[{\"ctx\":\"1:1\",\"records\":[0,3]}],"
                 "\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    free(t);
    iprof_model_free(m);
}

/* A model large enough for the threaded sorts (thousands of methods and
 * entries of a kind), in a scrambled order: ids that are not the
 * canonical ones, names sharing their first 8 bytes, methods differing
 * only in their signature, repeats of a method under another id, entries
 * tying on their callee. The canonical write, threaded or not, is what
 * canonicalizing and writing gives. `sparse` spreads the method ids
 * (the canonical order then maps them through a hash table, not an
 * array). */
enum { TYPES = 300, METHODS = 24000 };

/* The id of the i-th method added: a permutation of 1..METHODS, spread
 * over 64 bits when sparse. */
static int64_t method_id(int i, int sparse)
{
    int64_t id = (int64_t)(((long)i * 7919) % METHODS) + 1;
    return sparse ? id * INT64_C(1000000007) : id;
}

/* The large model, through allocator a (NULL: libc). */
static iprof_model *large_model(int sparse, const iprof_allocator *a)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, a));
    CHECK_OK(iprof_model_set_version(m, "1.1.0"));
    char name[64];
    for (int i = 0; i < TYPES; i++) {
        int id = (i * 37) % TYPES; /* a permutation of 0..TYPES-1 */
        int len = snprintf(name, sizeof name, "pkg.Type%03d", (i * 101) % TYPES);
        CHECK_OK(iprof_model_add_type(m, id, name, (size_t)len, NULL));
    }
    for (int i = 0; i < METHODS; i++) {
        int64_t id = method_id(i, sparse);
        /* Every 5th method repeats the one before under its own id. */
        int k = i % 5 == 4 ? i - 1 : i;
        int len = snprintf(name, sizeof name, "methodName%d", (k * 13) % 97);
        int64_t sig[4] = {(k * 31) % TYPES, (k * 17) % TYPES, k % 3, (k / 97) % TYPES};
        CHECK_OK(iprof_model_add_method(m, id, name, (size_t)len, sig, 2 + (size_t)(k % 3), NULL));
    }
    for (int i = 0; i < 3 * METHODS; i++) {
        int64_t fr[6] = {method_id((int)(((int64_t)i * 104729) % METHODS), sparse), 0,
                         method_id((i * 7) % METHODS, sparse), i % 11,
                         method_id((i * 3) % METHODS, sparse), i % 5};
        int64_t count = i % 1000;
        size_t depth = 1 + (size_t)(i % 3);
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, fr, depth, &count, 1));
        if (i % 4 == 0) {
            int64_t rec[6] = {i % 9, 1, count, i % 9, 0, count + 1};
            fr[1] = i % 13;
            CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, fr, 2, rec, 6));
        }
        if (i % 3 == 0) {
            int64_t rec[4] = {(i * 5) % TYPES, count, (i * 11) % TYPES, 2};
            fr[1] = i % 7;
            CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_VIRTUAL_INVOKE, fr, 1, rec, 4));
        }
    }
    return m;
}

static void check_canonical_large(int sparse)
{
    iprof_model *m = large_model(sparse, NULL);
    CHECK(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT) > 4096);
    char *plain = canonical_text(m, 0), *threaded = canonical_text(m, IPROF_WRITE_THREADED);
    CHECK_EQ_STR(threaded, plain);
    /* Without IPROF_WRITE_CANONICAL the flag is ignored: the model's order. */
    char *as_is = text(m);
    char *as_is_threaded = model_text(m, IPROF_WRITE_NO_VALIDATE | IPROF_WRITE_THREADED);
    CHECK(strcmp(as_is, as_is_threaded) == 0 && strcmp(as_is, plain) != 0);
    free(as_is);
    free(as_is_threaded);
    CHECK_OK(iprof_model_canonicalize(m, 0));
    char *want = text(m);
    CHECK_EQ_STR(plain, want);
    /* Distinct methods only (every 5th was a repeat), with ids 1..n. */
    CHECK_EQ_INT((int)iprof_model_method_count(m), METHODS / 5 * 4);
    char *again = canonical_text(m, IPROF_WRITE_THREADED);
    CHECK_EQ_STR(again, want);
    free(plain);
    free(threaded);
    free(want);
    free(again);
    iprof_model_free(m);
}

static void test_canonical_large_threaded(void)
{
    check_canonical_large(0);
    check_canonical_large(1);
}

/* Appends what a writer gives to a growing string. */
typedef struct grow {
    char *p;
    size_t len, cap;
} grow;

static int grow_put(const void *data, size_t len, void *payload)
{
    grow *g = payload;
    if (g->len + len + 1 > g->cap) {
        g->cap = (g->len + len + 1) * 2;
        g->p = realloc(g->p, g->cap);
        CHECK(g->p != NULL);
    }
    memcpy(g->p + g->len, data, len);
    g->len += len;
    g->p[g->len] = '\0';
    return 0;
}

/* The canonical form written through a callback with a small buffer, so
 * that formatted parts go to the sink between flushes. */
static char *canonical_through_callback(const iprof_model *m, unsigned flags)
{
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.flags = IPROF_WRITE_CANONICAL | flags;
    o.buffer_size = 4096;
    grow g = {NULL, 0, 0};
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_CALLBACK(grow_put, &g), &o));
    CHECK_OK(iprof_writer_write_model(w, m));
    iprof_writer_free(w);
    return g.p;
}

/* The canonical form of m written plain, threaded and threaded through
 * a callback sink: the same bytes; then m canonicalized, whose text is
 * those bytes too. */
static void check_canonical_forms(iprof_model *m)
{
    char *plain = canonical_text(m, 0), *threaded = canonical_text(m, IPROF_WRITE_THREADED);
    char *called = canonical_through_callback(m, IPROF_WRITE_THREADED);
    CHECK(strcmp(plain, threaded) == 0);
    CHECK(strcmp(plain, called) == 0);
    /* Pretty, and in GraalVM's 0.2.0 layout: the parts format as the
     * writer does. */
    static const unsigned pretty = IPROF_WRITE_PRETTY | IPROF_WRITE_DROP_INSTANCEOF;
    for (int legacy = 0; legacy < 2; legacy++) {
        const char *v = legacy ? "0.2.0" : NULL;
        char *one = canonical_text_in(m, pretty, v);
        char *two = canonical_text_in(m, pretty | IPROF_WRITE_THREADED, v);
        CHECK(one[0] == '{' && strcmp(one, two) == 0); /* written, not refused */
        CHECK(!legacy || strstr(one, "\"methodName\"") != NULL);
        free(one);
        free(two);
    }
    CHECK_OK(iprof_model_canonicalize(m, 0));
    char *want = text(m);
    CHECK(strcmp(plain, want) == 0);
    free(plain);
    free(threaded);
    free(called);
    free(want);
}

/* A leniently read kind large enough for the threaded sorts, with entries
 * repeating a context (combined) and an entry of 90,000 records, beside a
 * kind as large. Threaded or not, the bytes canonicalizing gives. */
static void test_canonical_threaded_walk_repeats(void)
{
    enum { N = 9000 };
    size_t cap = (size_t)N * 64 + 2000000, len = 0;
    char *doc = malloc(cap);
    len += (size_t)snprintf(doc + len, cap - len,
                            "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
                            "\"methods\":[");
    for (int i = 0; i < N; i++)
        len += (size_t)snprintf(doc + len, cap - len,
                                "%s{\"id\":%d,\"name\":\"m%d\",\"signature\":[0,0]}", i ? "," : "",
                                i + 1, (i * 7919) % N);
    len += (size_t)snprintf(doc + len, cap - len, "],\"callCountProfiles\":[");
    for (int i = 0; i < N; i++) {
        /* Every 97th entry and the 4095th to 4097th repeat a context. */
        int j = i % 97 == 96 || (i >= 4095 && i <= 4097) ? i / 2 : i; /* the context of j */
        len += (size_t)snprintf(doc + len, cap - len, "%s{\"ctx\":\"%d:0<%d:%d\",\"records\":[%d]}",
                                i ? "," : "", j + 1, (j * 31) % N + 1, j % 5, i);
    }
    len += (size_t)snprintf(doc + len, cap - len, "],\"conditionalProfiles\":[");
    for (int i = 0; i < 5000; i++) {
        len += (size_t)snprintf(doc + len, cap - len, "%s{\"ctx\":\"%d:%d\",\"records\":[",
                                i ? "," : "", i + 1, i % 9);
        int groups = i == 2500 ? 30000 : 1; /* 90000 records: more than a chunk */
        for (int g = 0; g < groups; g++)
            len += (size_t)snprintf(doc + len, cap - len, "%s%d,%d,%d", g ? "," : "", g, g % 2, i);
        len += (size_t)snprintf(doc + len, cap - len, "]}");
    }
    len += (size_t)snprintf(doc + len, cap - len,
                            "],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
                            "\"samplingProfiles\":[]}");
    CHECK(len < cap);
    iprof_model *m = load(doc);
    CHECK_EQ_INT((int)iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), N); /* repeats kept */
    check_canonical_forms(m);
    CHECK(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT) < N); /* combined */
    free(doc);
    iprof_model_free(m);
}

/* Sections long enough for a threaded canonical write to format ranges of
 * them on its second thread (8192 elements a range, 1 MiB a buffer). The
 * calling thread writes [0, 8192), a job the next range, which stops at
 * the first element it leaves to the calling thread; that one goes on
 * from there for 8192 elements, and so on. Placed so that each range
 * meets one: a run of entries with one context across the first range's
 * end (the job starts after it) and another in the job's range, a
 * context 70 frames deep, 300 records; methods with long names filling
 * the job's buffer; a range the job does whole. The calling thread's own
 * ranges hold 90,000 records, a name of 5,000 bytes and a signature of
 * 300 ids. Threaded or not, through a memory or a callback sink: the
 * bytes canonicalizing gives. (One kind has entries: no sort runs beside
 * the writing, which would hold the parts back, so the ranges are these.) */
static void test_canonical_threaded_parts(void)
{
    enum { N = 45000, RUN1 = 8191, RUN2 = 8998, DEEP = 17996, WIDE = 26996, HUGE = 100 };
    size_t cap = (size_t)N * 260 + 4000000, len = 0;
    char *doc = malloc(cap);
    len += (size_t)snprintf(doc + len, cap - len,
                            "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
                            "\"methods\":[");
    char pad[141];
    memset(pad, 'p', sizeof pad - 1);
    pad[sizeof pad - 1] = '\0';
    /* Names sort as i ("m" and 5 digits), those of the first job's range
     * 140 bytes longer; ids scrambled. */
    for (int i = 0; i < N; i++)
        len += (size_t)snprintf(doc + len, cap - len,
                                "%s{\"id\":%d,\"name\":\"m%05d%s\",\"signature\":[0,0]}",
                                i ? "," : "", (int)((i * 7919L) % N) + 1, i,
                                i >= 8192 && i < 2 * 8192 ? pad : "");
    len += (size_t)snprintf(doc + len, cap - len, ",{\"id\":%d,\"name\":\"z", N + 1);
    memset(doc + len, 'z', 5000);
    len += 5000;
    len += (size_t)snprintf(doc + len, cap - len,
                            "\",\"signature\":[0,0]},{\"id\":%d,\"name\":\"y\",\"signature\":[0",
                            N + 2);
    for (int k = 1; k < 300; k++)
        len += (size_t)snprintf(doc + len, cap - len, ",0");
    len += (size_t)snprintf(doc + len, cap - len, "]}],\"conditionalProfiles\":[");
    /* An entry per method, in canonical order: the i-th method's is at
     * i + 2 for each run of three before it. */
    for (int i = 0; i < N; i++) {
        int id = (int)((i * 7919L) % N) + 1;
        int repeats = i == RUN1 || i == RUN2 ? 3 : 1;
        int groups = i == HUGE ? 30000 : i == WIDE ? 100 : 1;
        for (int r = 0; r < repeats; r++) {
            len += (size_t)snprintf(doc + len, cap - len, "%s{\"ctx\":\"%d:0", i || r ? "," : "",
                                    id);
            for (int d = 1; i == DEEP && d < 70; d++)
                len += (size_t)snprintf(doc + len, cap - len, "<%d:%d", d, d);
            len += (size_t)snprintf(doc + len, cap - len, "\",\"records\":[");
            for (int g = 0; g < groups; g++)
                len += (size_t)snprintf(doc + len, cap - len, "%s%d,%d,%d", g ? "," : "",
                                        groups - g, g % 2, i + r);
            len += (size_t)snprintf(doc + len, cap - len, "]}");
        }
        CHECK(len + 1000000 < cap);
    }
    len += (size_t)snprintf(doc + len, cap - len, "]}");
    CHECK(len < cap);
    iprof_model *m = load(doc);
    check_canonical_forms(m);
    CHECK_EQ_INT((int)iprof_model_entry_count(m, IPROF_KIND_CONDITIONAL), N);
    free(doc);
    iprof_model_free(m);
}

/* A callback that takes `left` bytes, then fails, counting the calls
 * made after it failed. */
typedef struct limited {
    size_t left;
    int failed, calls_after;
} limited;

static int limited_put(const void *data, size_t len, void *payload)
{
    (void)data;
    limited *l = payload;
    if (l->failed) {
        l->calls_after++;
        return 7;
    }
    if (len > l->left) {
        l->failed = 1;
        return 7;
    }
    l->left -= len;
    return 0;
}

/* A threaded canonical write whose sink fails part of the way (before,
 * at and after the passing on of a formatted range) fails with IPROF_EIO
 * naming the callback, takes nothing more, and leaves no thread behind. */
static void test_canonical_threaded_sink_failure(void)
{
    iprof_model *m = large_model(0, NULL);
    char *want = canonical_text(m, IPROF_WRITE_THREADED);
    size_t total = strlen(want);
    for (size_t k = 1; k < 8; k++) {
        limited l = {total * k / 8, 0, 0};
        iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
        o.flags = IPROF_WRITE_CANONICAL | IPROF_WRITE_THREADED;
        o.buffer_size = 4096;
        iprof_writer *w = NULL;
        CHECK_OK(iprof_writer_new(&w, SINK_CALLBACK(limited_put, &l), &o));
        CHECK_EQ_INT(iprof_writer_write_model(w, m), IPROF_EIO);
        CHECK(strstr(err_info(iprof_writer_error(w)).message, "write callback failed") != NULL);
        CHECK_EQ_INT(iprof_writer_write_model(w, m), IPROF_EIO); /* sticky */
        iprof_writer_free(w);
        CHECK(l.failed && l.calls_after == 0);
    }
    free(want);
    iprof_model_free(m);
}

/* Names in byte order, a prefix before the names it starts. */
static int cmp_bytes(const char *a, size_t na, const char *b, size_t nb)
{
    int c = memcmp(a, b, na < nb ? na : nb);
    return c ? c : (na > nb) - (na < nb);
}

/* Types enough for the threaded type sort, whose names tie on their
 * first 16 bytes (the sort's inline key) and differ later, one a prefix
 * of the others, one with a NUL byte, some repeated under other ids: the
 * canonical types are every distinct name once, in byte order, with ids
 * 0..n-1 (checked against the names themselves), threaded or not. */
static void test_canonical_type_order(void)
{
    enum { NTYPES = 6000 };
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_OK(iprof_model_set_version(m, "1.0.0"));
    char name[80];
    for (int i = 0; i < NTYPES; i++) {
        int k = (int)((i * 7919L) % NTYPES);
        int len = snprintf(name, sizeof name, "com.example.long.pkg.T%05d", k % 5000);
        CHECK_OK(iprof_model_add_type(m, i, name, (size_t)len, NULL)); /* 1000 repeats */
    }
    static const char nul[] = "com.example.long.pkg.T\0x";
    CHECK_OK(iprof_model_add_type(m, NTYPES, nul, sizeof nul - 1, NULL));
    CHECK_OK(iprof_model_add_type(m, NTYPES + 1, "com.example.long.pkg.T", 22, NULL));
    CHECK_OK(iprof_model_add_type(m, NTYPES + 2, "com.example.long.pkg", 20, NULL));
    int64_t sig[2] = {NTYPES, NTYPES + 1};
    CHECK_OK(iprof_model_add_method(m, 1, "f", 1, sig, 2, NULL));
    check_canonical_forms(m);
    CHECK_EQ_INT((int)iprof_model_type_count(m), 5000 + 3);
    const char *prev = NULL;
    size_t prev_len = 0;
    for (size_t i = 0; i < iprof_model_type_count(m); i++) {
        const iprof_type *t = iprof_model_type_at(m, i);
        size_t len;
        const char *n = iprof_type_name(t, &len);
        CHECK_EQ_INT((int)iprof_type_id(t), (int)i);
        CHECK(!prev || cmp_bytes(prev, prev_len, n, len) < 0);
        prev = n;
        prev_len = len;
    }
    size_t len;
    const char *first = iprof_type_name(iprof_model_type_at(m, 0), &len);
    CHECK(len == 20 && memcmp(first, "com.example.long.pkg", 20) == 0);
    const char *third = iprof_type_name(iprof_model_type_at(m, 2), &len);
    CHECK(len == sizeof nul - 1 && memcmp(third, nul, len) == 0);
    iprof_model_free(m);
}

/* A threaded canonical write failing at each of its allocations fails
 * with IPROF_ENOMEM (or, where it can do without, writes the bytes all
 * the same), leaves the model as it was, waits for its second thread and
 * leaks nothing; the one that completes writes the bytes. */
static void test_canonical_threaded_alloc_failure(void)
{
    fail_alloc fa = {.fail_at = 0};
    iprof_allocator a = fail_hook(&fa);
    iprof_model *m = large_model(0, &a);
    char *want = canonical_text(m, IPROF_WRITE_THREADED), *before = text(m);
    long live_blocks = fa.live_blocks, live_bytes = fa.live_bytes;
    int completed = 0, failures = 0;
    for (long n = 1; n < 200 && !completed; n++) {
        fa.fail_at = fa.count + n;
        char *got = canonical_text(m, IPROF_WRITE_THREADED);
        completed = !fa.failed;
        fa.fail_at = 0;
        fa.failed = 0;
        if (got[0] == '(') { /* failed */
            failures++;
            CHECK_EQ_STR(got, "(out of memory: out of memory)");
        } else { /* a failure it can do without: shrinking a buffer */
            CHECK(strcmp(got, want) == 0);
        }
        CHECK_EQ_INT(fa.live_blocks, live_blocks);
        CHECK_EQ_INT(fa.live_bytes, live_bytes);
        char *after = text(m);
        CHECK_EQ_STR(after, before);
        free(after);
        free(got);
    }
    CHECK(completed);
    CHECK(failures > 5); /* the sorts' scratch, the maps, the slots */
    free(want);
    free(before);
    iprof_model_free(m);
    CHECK_EQ_INT(fa.live_blocks, 0);
}

/* A leniently read file that repeats a method id: references mean the
 * first method of the id, in the canonical write as in canonicalize. */
static void test_canonical_repeated_method_id(void)
{
    iprof_model *m = load(
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"z\",\"signature\":[0,0]},{\"id\":1,\"name\":\"a\","
        "\"signature\":[0,0]},{\"id\":2,\"name\":\"m\",\"signature\":[0,0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"1:0<2:3\",\"records\":[3]}],"
        "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
        "\"samplingProfiles\":[]}");
    char *c = canonical_text(m, IPROF_WRITE_NO_VALIDATE);
    CHECK_EQ_STR(c, "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
                    "\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[0,0]},{\"id\":2,"
                    "\"name\":\"m\",\"signature\":[0,0]},{\"id\":3,\"name\":\"z\",\"signature\":"
                    "[0,0]}],\"callCountProfiles\":[{\"ctx\":\"3:0<2:3\",\"records\":[3]}],"
                    "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
                    "\"samplingProfiles\":[]}");
    free(c);
    same_as_canonicalize(m);
    iprof_model_free(m);
}

/* Two ids of one method (a lenient read keeps both): contexts whose
 * callers differ only in which of the two they name are one context in
 * the canonical form, their records combined; the nodes differ, so the
 * walk cannot take equal nodes for equal frames here. */
static void test_canonical_repeated_method_callers(void)
{
    iprof_model *m = load(
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[0,0]},{\"id\":2,\"name\":\"a\","
        "\"signature\":[0,0]},{\"id\":3,\"name\":\"m\",\"signature\":[0,0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"3:0<1:5\",\"records\":[3]},"
        "{\"ctx\":\"3:0<3:5\",\"records\":[1]},{\"ctx\":\"3:0<2:5\",\"records\":[4]}],"
        "\"conditionalProfiles\":[{\"ctx\":\"3:7<2:1<3:2\",\"records\":[7,0,2]},"
        "{\"ctx\":\"3:7<1:1<3:2\",\"records\":[7,0,5,8,1,1]}],"
        "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    char *c = canonical_text(m, 0);
    CHECK_EQ_STR(c, "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
                    "\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[0,0]},{\"id\":2,"
                    "\"name\":\"m\",\"signature\":[0,0]}],\"callCountProfiles\":[{\"ctx\":"
                    "\"2:0<1:5\",\"records\":[7]},{\"ctx\":\"2:0<2:5\",\"records\":[1]}],"
                    "\"conditionalProfiles\":[{\"ctx\":\"2:7<1:1<2:2\",\"records\":[7,0,7,8,1,1]}],"
                    "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    free(c);
    same_as_canonicalize(m);
    iprof_model_free(m);
}

/* Callers in order: none first, a caller list before its extensions,
 * bcis as signed numbers at both ends of 32 bits. callCount's frames fit
 * the walk's flat keys; conditional's have a caller bci beyond 32 bits,
 * so that kind walks the nodes: both give the same order. */
static void test_canonical_caller_order(void)
{
    iprof_model *m = load(
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
        "\"methods\":[{\"id\":7,\"name\":\"m\",\"signature\":[0,0]},{\"id\":9,\"name\":\"a\","
        "\"signature\":[0,0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"7:0<9:6\",\"records\":[1]},"
        "{\"ctx\":\"7:0<9:5<9:1\",\"records\":[2]},{\"ctx\":\"7:0\",\"records\":[3]},"
        "{\"ctx\":\"7:0<9:5\",\"records\":[4]},{\"ctx\":\"7:0<9:-1\",\"records\":[5]},"
        "{\"ctx\":\"9:0<7:2147483647\",\"records\":[6]},"
        "{\"ctx\":\"9:0<7:-2147483648\",\"records\":[7]},"
        "{\"ctx\":\"7:0<9:5<9:1<7:4\",\"records\":[8]}],"
        "\"conditionalProfiles\":[{\"ctx\":\"7:1<9:4294967296\",\"records\":[0,0,1]},"
        "{\"ctx\":\"7:1<9:5\",\"records\":[0,0,2]},{\"ctx\":\"7:1\",\"records\":[0,0,3]},"
        "{\"ctx\":\"7:1<9:5<9:1\",\"records\":[0,0,4]},"
        "{\"ctx\":\"7:1<9:-2147483649\",\"records\":[0,0,5]}],"
        "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    char *c = canonical_text(m, 0);
    CHECK_EQ_STR(c, "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
                    "\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[0,0]},{\"id\":2,"
                    "\"name\":\"m\",\"signature\":[0,0]}],\"callCountProfiles\":["
                    "{\"ctx\":\"1:0<2:-2147483648\",\"records\":[7]},"
                    "{\"ctx\":\"1:0<2:2147483647\",\"records\":[6]},"
                    "{\"ctx\":\"2:0\",\"records\":[3]},{\"ctx\":\"2:0<1:-1\",\"records\":[5]},"
                    "{\"ctx\":\"2:0<1:5\",\"records\":[4]},"
                    "{\"ctx\":\"2:0<1:5<1:1\",\"records\":[2]},"
                    "{\"ctx\":\"2:0<1:5<1:1<2:4\",\"records\":[8]},"
                    "{\"ctx\":\"2:0<1:6\",\"records\":[1]}],\"conditionalProfiles\":["
                    "{\"ctx\":\"2:1\",\"records\":[0,0,3]},"
                    "{\"ctx\":\"2:1<1:-2147483649\",\"records\":[0,0,5]},"
                    "{\"ctx\":\"2:1<1:5\",\"records\":[0,0,2]},"
                    "{\"ctx\":\"2:1<1:5<1:1\",\"records\":[0,0,4]},"
                    "{\"ctx\":\"2:1<1:4294967296\",\"records\":[0,0,1]}],"
                    "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    free(c);
    same_as_canonicalize(m);
    iprof_model_free(m);
}

/* m's canonical text is want, on one thread and two, and what
 * canonicalizing gives; frees m. */
static void check_canonical_text(iprof_model *m, const char *want)
{
    char *c = canonical_text(m, 0), *t = canonical_text(m, IPROF_WRITE_THREADED);
    CHECK_EQ_STR(c, want);
    CHECK_EQ_STR(t, want);
    free(c);
    free(t);
    same_as_canonicalize(m);
    iprof_model_free(m);
}

/* Which sorts compare flat frames: the first kind's (no kind walked holds
 * keys), unless a frame is out of its keys' range; then the next kind's,
 * while the first walks nodes; a kind sorting while a walked kind holds
 * keys compares nodes, its keys made for its walk. The order and the
 * exact text are the same whichever way a kind sorts. */
static void test_canonical_flat_sort(void)
{
    iprof_model *m = load(
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
        "\"methods\":[{\"id\":7,\"name\":\"m\",\"signature\":[0,0]},{\"id\":9,\"name\":\"a\","
        "\"signature\":[0,0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"7:0<9:4294967296\",\"records\":[1]},"
        "{\"ctx\":\"7:0<9:5\",\"records\":[2]},{\"ctx\":\"7:0\",\"records\":[3]}],"
        "\"conditionalProfiles\":[{\"ctx\":\"7:1<9:5<7:2\",\"records\":[0,0,1]},"
        "{\"ctx\":\"7:1<9:5\",\"records\":[0,0,2]},{\"ctx\":\"7:1\",\"records\":[0,0,3]},"
        "{\"ctx\":\"7:1<9:5<7:1\",\"records\":[0,0,4]},"
        "{\"ctx\":\"7:1<9:-1\",\"records\":[0,0,5]},{\"ctx\":\"9:1<7:3\",\"records\":[0,0,6]}],"
        "\"virtualInvokeProfiles\":[{\"ctx\":\"7:2<9:3\",\"records\":[0,1]},"
        "{\"ctx\":\"7:2<7:3\",\"records\":[0,2]}],"
        "\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    for (int threaded = 0; threaded < 2; threaded++) {
        ipi_canon c;
        CHECK_OK(ipi_canon_start(&c, m, threaded));
        CHECK_OK(ipi_canon_presort(&c, IPROF_KIND_CALL_COUNT));
        CHECK_OK(ipi_canon_kind(&c, IPROF_KIND_CALL_COUNT));
        CHECK(c.walk->flat_sort && !c.walk->frames.keys && !c.walk->keys); /* 2^32 */
        CHECK_OK(ipi_canon_presort(&c, IPROF_KIND_CONDITIONAL));
        CHECK_OK(ipi_canon_kind(&c, IPROF_KIND_CONDITIONAL));
        CHECK(c.walk->flat_sort && c.walk->frames.keys);
        CHECK_OK(ipi_canon_presort(&c, IPROF_KIND_VIRTUAL_INVOKE));
        CHECK_OK(ipi_canon_kind(&c, IPROF_KIND_VIRTUAL_INVOKE));
        CHECK(!c.walk->flat_sort && c.walk->frames.keys);
        ipi_canon_free(&c);
    }
    static const char want[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[0,0]},{\"id\":2,"
        "\"name\":\"m\",\"signature\":[0,0]}],\"callCountProfiles\":["
        "{\"ctx\":\"2:0\",\"records\":[3]},{\"ctx\":\"2:0<1:5\",\"records\":[2]},"
        "{\"ctx\":\"2:0<1:4294967296\",\"records\":[1]}],\"conditionalProfiles\":["
        "{\"ctx\":\"1:1<2:3\",\"records\":[0,0,6]},{\"ctx\":\"2:1\",\"records\":[0,0,3]},"
        "{\"ctx\":\"2:1<1:-1\",\"records\":[0,0,5]},{\"ctx\":\"2:1<1:5\",\"records\":[0,0,2]},"
        "{\"ctx\":\"2:1<1:5<2:1\",\"records\":[0,0,4]},"
        "{\"ctx\":\"2:1<1:5<2:2\",\"records\":[0,0,1]}],\"virtualInvokeProfiles\":["
        "{\"ctx\":\"2:2<1:3\",\"records\":[0,1]},{\"ctx\":\"2:2<2:3\",\"records\":[0,2]}],"
        "\"monitorProfiles\":[],\"samplingProfiles\":[]}";
    check_canonical_text(m, want);
}

/* Frames a before frames b in canonical order (callee first, a prefix
 * before its extensions): the reference the sorts are checked against. */
static int frames_before(const int64_t *a, size_t da, const int64_t *b, size_t db)
{
    for (size_t i = 0; i < 2 * da && i < 2 * db; i++)
        if (a[i] != b[i])
            return a[i] < b[i];
    return da < db;
}

/* A kind of more than 65536 entries sorts in buckets by method (2^16 of
 * them, four method ids each here), then each bucket: the walk gives
 * every entry once, each after the one before, on one thread or two, in
 * flat frames and in nodes. */
static void test_canonical_buckets(void)
{
    enum { N = 140000, E = 100000 };
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_OK(iprof_model_add_type(m, 0, "T", 1, NULL));
    for (int i = 0; i < N; i++) {
        char name[16];
        int len = snprintf(name, sizeof name, "m%06ld", ((long)(N - 1 - i) * 7919) % N);
        int64_t sig[2] = {0, 0};
        CHECK_OK(iprof_model_add_method(m, i + 1, name, (size_t)len, sig, 2, NULL));
    }
    for (int j = 0; j < E; j++) {
        int64_t fr[4] = {((int64_t)j * 104729) % N + 1, 0, ((int64_t)j * 13) % N + 1, j % 5};
        int64_t count = j;
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, fr, 1 + (size_t)(j % 2), &count, 1));
        fr[1] = j % 3;
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, fr, 1 + (size_t)(j % 2),
                                       (int64_t[]){0, 0, count}, 3));
    }
    size_t want = iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT);
    CHECK(want > 65536);
    for (int threaded = 0; threaded < 2; threaded++) {
        ipi_canon c;
        CHECK_OK(ipi_canon_start(&c, m, threaded));
        CHECK_OK(ipi_canon_presort(&c, IPROF_KIND_CALL_COUNT));
        CHECK(c.slots[0].buckets != NULL && c.slots[0].shift == 2);
        for (int kind = 0; kind < 2; kind++) {
            if (kind)
                CHECK_OK(ipi_canon_presort(&c, IPROF_KIND_CONDITIONAL));
            CHECK_OK(ipi_canon_kind(&c, kind));
            CHECK(kind ? !c.walk->flat_sort : c.walk->flat_sort && c.walk->frames.keys);
            int64_t prev[4];
            size_t prev_depth = 0, walked = 0, ordered = 0;
            ipi_canon_entry e;
            while (ipi_canon_next(&c, &e) == 1) {
                ordered += !walked || frames_before(prev, prev_depth, e.frames, e.depth);
                walked++;
                memcpy(prev, e.frames, 2 * e.depth * sizeof *prev);
                prev_depth = e.depth;
            }
            CHECK_EQ_INT((int)walked, (int)want);
            CHECK_EQ_INT((int)ordered, (int)want);
        }
        ipi_canon_free(&c);
    }
    char *plain = canonical_text(m, 0), *two = canonical_text(m, IPROF_WRITE_THREADED);
    CHECK_EQ_STR(two, plain);
    free(plain);
    free(two);
    iprof_model_free(m);
}

/* A kind whose entries have no callers has no flat frames (nothing to
 * chase): its walk, fetching entries ahead, reads their nodes. 40
 * conditional entries "1:i", listed backwards. */
static void test_canonical_no_callers(void)
{
    char doc[4096], want[4096];
    size_t len = (size_t)snprintf(doc, sizeof doc,
                                  "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
                                  "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
                                  "\"callCountProfiles\":[],\"conditionalProfiles\":[");
    size_t wlen = (size_t)snprintf(want, sizeof want, "%.*s", (int)len, doc);
    for (int i = 0; i < 40; i++) {
        len += (size_t)snprintf(doc + len, sizeof doc - len,
                                "%s{\"ctx\":\"1:%d\",\"records\":[0,0,%d]}", i ? "," : "",
                                39 - i, 39 - i + 1);
        wlen += (size_t)snprintf(want + wlen, sizeof want - wlen,
                                 "%s{\"ctx\":\"1:%d\",\"records\":[0,0,%d]}", i ? "," : "", i,
                                 i + 1);
    }
    static const char tail[] = "],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
                               "\"samplingProfiles\":[]}";
    snprintf(doc + len, sizeof doc - len, "%s", tail);
    snprintf(want + wlen, sizeof want - wlen, "%s", tail);
    iprof_model *m = load(doc);
    check_canonical_text(m, want);
}

/* A model of n call-count entries "1:0<1:i", but for entry one_at, whose
 * records hold two values, and entry bci_at, whose ctx starts at bci 5
 * (SIZE_MAX: none): two rules broken, told apart by their messages. */
static iprof_model *load_call_counts(size_t n, size_t one_at, size_t bci_at)
{
    size_t cap = 200 + n * 48, len = 0;
    char *json = malloc(cap);
    len += (size_t)snprintf(json + len, cap - len,
                            "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
                            "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
                            "\"callCountProfiles\":[");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(json + len, cap - len,
                                "%s{\"ctx\":\"1:%d<1:%zu\",\"records\":[%s]}", i ? "," : "",
                                i == bci_at ? 5 : 0, i, i == one_at ? "1,2" : "1");
    snprintf(json + len, cap - len,
             "],\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
             "\"samplingProfiles\":[]}");
    iprof_model *m = load(json);
    free(json);
    /* The read does not vouch for a profile that breaks a rule: the checks
     * would then go through every reference, on one thread. Vouched for
     * here, as a clean read's model is, only the rules are checked. */
    m->refs_checked = 1;
    return m;
}

/* The canonical form's checks run on two threads for a threaded write,
 * each half of a kind: the fault reported is still the first in the
 * model's order, whichever half finds one first. */
static void test_canonical_check_threaded(void)
{
    static const char one[] = "records must hold exactly one value";
    static const char bci[] = "a call-count ctx must start at bci 0";
    const size_t none = SIZE_MAX;
    const struct {
        size_t one_at, bci_at;
        const char *want; /* NULL: the write succeeds */
    } cases[] = {{3000, 8000, one}, {8000, 3000, bci}, {none, 8000, bci},
                 {8000, none, one}, {none, none, NULL}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        iprof_model *m = load_call_counts(10000, cases[i].one_at, cases[i].bci_at);
        char *c = canonical_text(m, IPROF_WRITE_THREADED);
        if (cases[i].want)
            CHECK(strstr(c, cases[i].want) != NULL);
        else
            CHECK(strncmp(c, "{\"version\":", 11) == 0);
        free(c);
        same_as_canonicalize(m);
        iprof_model_free(m);
    }
}

/* A context whose caller names a negative method id has no canonical
 * form. Files cannot hold one (ctx method ids are digits), so it is made
 * here through the loader's own push; the check walks the callers only
 * when the model has made such a node, and must still find it, with the
 * references vouched for (the rules on two threads) or not. */
static void test_canonical_negative_caller(void)
{
    static const char *const json =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"1:0<1:4\",\"records\":[2]}]}";
    static const int64_t frames[] = {1, 0, -2, 3}, count[] = {5};
    for (int unchecked = 0; unchecked < 2; unchecked++) {
        iprof_model *m = load(json);
        CHECK(!m->ctx_nodes.negative);
        char *c = canonical_text(m, IPROF_WRITE_THREADED);
        CHECK(strncmp(c, "{\"version\":", 11) == 0);
        free(c);
        CHECK_OK(ipi_model_push_entry_hashed(m, IPROF_KIND_CALL_COUNT, frames, 2, NULL, count, 1));
        CHECK(m->ctx_nodes.negative);
        if (unchecked)
            ipi_model_changed(m, IPI_CHANGED_UNCHECKED, -1);
        for (int threaded = 0; threaded < 2; threaded++) {
            c = canonical_text(m, threaded ? IPROF_WRITE_THREADED : 0);
            CHECK(strstr(c, "a method id in a ctx must not be negative") != NULL);
            free(c);
        }
        iprof_model_free(m);
    }
}

/* The branch probabilities of every conditional entry of a and b are
 * the same, bit for bit, bci by bci (entries in the same order; the
 * pairs in the order of each bci's first record, which sorting changes). */
static void check_same_probabilities(const iprof_model *a, const iprof_model *b)
{
    size_t n = iprof_model_entry_count(a, IPROF_KIND_CONDITIONAL);
    CHECK_EQ_INT(iprof_model_entry_count(b, IPROF_KIND_CONDITIONAL), n);
    for (size_t i = 0; i < n; i++) {
        const iprof_entry *e[2] = {iprof_model_entry_at(a, IPROF_KIND_CONDITIONAL, i),
                                   iprof_model_entry_at(b, IPROF_KIND_CONDITIONAL, i)};
        int64_t bcis[2][400];
        double p[2][400];
        size_t got[2] = {0, 0};
        for (int k = 0; k < 2; k++)
            CHECK_OK(iprof_entry_branch_probabilities(e[k], bcis[k], p[k], 400, &got[k]));
        CHECK_EQ_INT(got[1], got[0]);
        int same = got[0] == got[1];
        for (size_t j = 0; same && j < got[0]; j++) {
            size_t k = 0;
            while (k < got[1] && bcis[1][k] != bcis[0][j])
                k++;
            same = k < got[1] && p[0][j] == p[1][k];
        }
        CHECK(same);
    }
}

/* Conditional records are sorted, never combined: a repeated (bci,
 * index) stays a record of its own in its order, and a bci under two
 * indexes keeps the index GraalVM gives it (its last record's) last, so
 * the canonical form tells the compiler what the file tells it. An entry
 * of 300 triples takes the walk's path, the small one a part's. */
static void test_canonical_keeps_graalvm_view(void)
{
    check_text t = {0};
    tx_add(&t, "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
               "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
               "\"conditionalProfiles\":[{\"ctx\":\"1:2\",\"records\":"
               "[3,1,1,-5,0,3,3,0,6,-5,0,2,9,1,4]},{\"ctx\":\"1:3\",\"records\":[");
    /* bci 40 + i % 7 under index i % 5: bcis under several indexes, keys
     * repeated, zeros among the counts. */
    for (int i = 299; i >= 0; i--)
        tx_add(&t, "%s%d,%d,%d", i == 299 ? "" : ",", i % 3 ? 40 + i % 7 : -5, i % 5,
               i % 4 ? i : 0);
    tx_add(&t, "]}],\"virtualInvokeProfiles\":[],\"callCountProfiles\":[],"
               "\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    iprof_model *file = load(t.s), *m = load(t.s);
    same_as_canonicalize(m); /* canonicalizes m */
    check_same_probabilities(file, m);
    int64_t frames[2] = {1, 2};
    static const int64_t want[] = {-5, 0, 3, -5, 0, 2, 3, 1, 1, 3, 0, 6, 9, 1, 4};
    size_t len = 0;
    const int64_t *r =
        iprof_entry_records(iprof_model_entry_find(m, IPROF_KIND_CONDITIONAL, frames, 1), &len);
    CHECK_EQ_INT(len, 15);
    CHECK(r && memcmp(r, want, sizeof want) == 0);
    frames[1] = 3;
    iprof_entry_records(iprof_model_entry_find(m, IPROF_KIND_CONDITIONAL, frames, 1), &len);
    CHECK_EQ_INT(len, 900);
    /* Idempotent. */
    char *once = text(m);
    CHECK_OK(iprof_model_canonicalize(m, 0));
    char *twice = text(m);
    CHECK_EQ_STR(twice, once);
    free(once);
    free(twice);
    /* A merge with itself doubles every count, record by record: the
     * same probabilities. */
    iprof_model *copy = load(t.s);
    free(t.s);
    CHECK_OK(merge_weighted(file, copy, 1.0));
    check_same_probabilities(file, m);
    iprof_model_free(copy);
    iprof_model_free(file);
    iprof_model_free(m);
}

static void test_canonical_failures_leave_model(void)
{
    const char *dangling =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"1:0<9:1\",\"records\":[3]}],"
        "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
        "\"samplingProfiles\":[]}";
    const char *broken =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
        "\"callCountProfiles\":[],"
        "\"conditionalProfiles\":[{\"ctx\":\"1:0\",\"records\":[1,2,3,4]}],"
        "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[]}";
    iprof_model *m = load(dangling);
    same_as_canonicalize(m);
    iprof_model_free(m);
    m = load(broken);
    same_as_canonicalize(m);
    iprof_model_free(m);
    m = load(dangling);
    char *before = text(m);
    CHECK_EQ_INT(iprof_model_canonicalize(m, 0), IPROF_EDANGLING);
    char *after = text(m);
    CHECK_EQ_STR(after, before);
    free(before);
    free(after);
    iprof_model_free(m);
    m = load(broken);
    before = text(m);
    CHECK_EQ_INT(iprof_model_canonicalize(m, 0), IPROF_ESCHEMA);
    after = text(m);
    CHECK_EQ_STR(after, before);
    free(before);
    free(after);
    iprof_model_free(m);
    CHECK_EQ_INT(iprof_model_canonicalize(NULL, 0), IPROF_EINVAL);
}

/* A by-names digest of a model: one line per type name, method key and
 * entry (kind, ctx by method keys, records with type names, groups
 * sorted), sorted; "\n"-joined, malloc'd. */
typedef struct strlist {
    char **s;
    size_t n, cap;
} strlist;

static void sl_add(strlist *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->s = realloc(l->s, l->cap * sizeof *l->s);
    }
    l->s[l->n++] = strdup(s);
}

static int cmp_strp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void method_key(const iprof_model *m, int64_t id, char *buf, size_t size)
{
    const iprof_method *x = iprof_model_method_by_id(m, id);
    if (!x) {
        snprintf(buf, size, "?%lld", (long long)id);
        return;
    }
    size_t n, len = 0;
    const int64_t *sig = iprof_method_signature(x, &n);
    len += (size_t)snprintf(buf + len, size - len, "%s(", iprof_method_name(x, NULL));
    for (size_t i = 0; i < n && len < size; i++) {
        const iprof_type *t = iprof_model_type_by_id(m, sig[i]);
        len += (size_t)snprintf(buf + len, size - len, "%s,", t ? iprof_type_name(t, NULL) : "?");
    }
    if (len < size)
        snprintf(buf + len, size - len, ")");
}

static char *digest(const iprof_model *m)
{
    strlist l = {NULL, 0, 0};
    char line[8192], part[4096];
    for (size_t i = 0; i < iprof_model_type_count(m); i++) {
        snprintf(line, sizeof line, "T %s", iprof_type_name(iprof_model_type_at(m, i), NULL));
        sl_add(&l, line);
    }
    for (size_t i = 0; i < iprof_model_method_count(m); i++) {
        method_key(m, iprof_method_id(iprof_model_method_at(m, i)), part, sizeof part);
        snprintf(line, sizeof line, "M %s", part);
        sl_add(&l, line);
    }
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        size_t group = k == IPROF_KIND_CONDITIONAL ? 3 : (k == 0 || k == 4) ? 1 : 2;
        for (size_t i = 0; i < iprof_model_entry_count(m, k); i++) {
            const iprof_entry *e = iprof_model_entry_at(m, k, i);
            size_t len = (size_t)snprintf(line, sizeof line, "E%d", k);
            int64_t fr[2 * 64];
            size_t d = iprof_context_frames(iprof_entry_context(e), fr, 64);
            for (size_t f = 0; f < d && f < 64 && len < sizeof line; f++) {
                if (k == IPROF_KIND_MONITOR)
                    snprintf(part, sizeof part, "%lld", (long long)fr[2 * f]);
                else
                    method_key(m, fr[2 * f], part, sizeof part);
                len += (size_t)snprintf(line + len, sizeof line - len, " %s:%lld", part,
                                        (long long)fr[2 * f + 1]);
            }
            size_t rn;
            const int64_t *r = iprof_entry_records(e, &rn);
            /* Groups by key, counts of equal keys summed (canonical form
             * combines them). */
            strlist groups = {NULL, 0, 0};
            for (size_t g = 0; g + group <= rn; g += group) {
                if (group == 2) {
                    const iprof_type *t = iprof_model_type_by_id(m, r[g]);
                    snprintf(part, sizeof part, "%s=%020lld", t ? iprof_type_name(t, NULL) : "?",
                             (long long)r[g + 1]);
                } else if (group == 3) {
                    snprintf(part, sizeof part, "%020lld/%020lld=%020lld", (long long)r[g],
                             (long long)r[g + 1], (long long)r[g + 2]);
                } else {
                    snprintf(part, sizeof part, "=%020lld", (long long)r[g]);
                }
                sl_add(&groups, part);
            }
            qsort(groups.s, groups.n, sizeof *groups.s, cmp_strp);
            for (size_t g = 0; g < groups.n; g++) {
                char *eq = strrchr(groups.s[g], '=');
                long long sum = strtoll(eq + 1, NULL, 10);
                while (g + 1 < groups.n) {
                    char *eq2 = strrchr(groups.s[g + 1], '=');
                    if (eq2 - groups.s[g + 1] != eq - groups.s[g] ||
                        memcmp(groups.s[g], groups.s[g + 1], (size_t)(eq - groups.s[g])) != 0)
                        break;
                    sum += strtoll(eq2 + 1, NULL, 10);
                    free(groups.s[g + 1]);
                    memmove(groups.s + g + 1, groups.s + g + 2, (groups.n - g - 2) * sizeof *groups.s);
                    groups.n--;
                }
                if (len < sizeof line)
                    len += (size_t)snprintf(line + len, sizeof line - len, " %.*s=%lld",
                                            (int)(eq - groups.s[g]), groups.s[g], sum);
                free(groups.s[g]);
            }
            free(groups.s);
            sl_add(&l, line);
        }
    }
    qsort(l.s, l.n, sizeof *l.s, cmp_strp);
    size_t total = 1;
    for (size_t i = 0; i < l.n; i++)
        total += strlen(l.s[i]) + 1;
    char *out = malloc(total), *p = out;
    for (size_t i = 0; i < l.n; i++) {
        size_t n = strlen(l.s[i]);
        memcpy(p, l.s[i], n);
        p[n] = '\n';
        p += n + 1;
        free(l.s[i]);
    }
    *p = '\0';
    free(l.s);
    return out;
}

static void test_canonical_corpus(void)
{
    const char *dir = check_corpus_dir();
    if (!dir)
        SKIP("IPROF_CORPUS_DIR is absent");
    DIR *d = opendir(dir);
    struct dirent *de;
    int files = 0;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    while (d && (de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n < 6 || strcmp(de->d_name + n - 6, ".iprof") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        iprof_model *m = NULL, *back = NULL;
        if (iprof_model_load(&m, r, SRC_PATH(path)) != IPROF_OK)
            continue; /* legacy files */
        char *want = digest(m);
        /* The canonical write is what canonicalizing and writing gives. */
        iprof_model *twin = NULL;
        CHECK_OK(iprof_model_load(&twin, r, SRC_PATH(path)));
        if (twin)
            same_as_canonicalize(twin);
        iprof_model_free(twin);
        int rc = iprof_model_canonicalize(m, 0);
        if (rc == IPROF_EDANGLING || rc == IPROF_ESCHEMA) {
            fprintf(stderr, "%s: not canonicalizable (%s), as documented\n", de->d_name,
                    iprof_status_string(rc));
            iprof_model_free(m);
            free(want);
            continue;
        }
        CHECK_OK(rc);
        files++;
        char *t1 = text(m);
        CHECK_OK(iprof_model_load(&back, r, SRC_BUFFER(t1, strlen(t1))));
        char *got = back ? digest(back) : strdup("");
        if (strcmp(got, want) != 0) {
            fprintf(stderr, "%s: differs by names after canonicalize\n", de->d_name);
            const char *dump_dir = getenv("IPROF_TEST_DUMP_DIR");
            if (dump_dir) {
                char p1[4200];
                snprintf(p1, sizeof p1, "%s/%s.want", dump_dir, de->d_name);
                FILE *f = fopen(p1, "w");
                if (f) { fputs(want, f); fclose(f); }
                snprintf(p1, sizeof p1, "%s/%s.got", dump_dir, de->d_name);
                f = fopen(p1, "w");
                if (f) { fputs(got, f); fclose(f); }
            }
        }
        CHECK(strcmp(got, want) == 0);
        CHECK(back && iprof_model_canonicalize(back, 0) == IPROF_OK);
        char *t2 = back ? text(back) : strdup("");
        CHECK(strcmp(t1, t2) == 0); /* idempotent through a reload */
        fprintf(stderr, "%s: ok (%zu bytes canonical)\n", de->d_name, strlen(t1));
        free(t1);
        free(t2);
        free(got);
        free(want);
        iprof_model_free(back);
        iprof_model_free(m);
    }
    if (d)
        closedir(d);
    iprof_reader_free(r);
    CHECK(files > 0);
}

/* ---- filter ------------------------------------------------------------- */

/* Packages com.a (with com.a.inner), com.ab, org.x; every kind. */
static const char *const FILTER_IN =
    "{\"version\":\"1.1.0\",\"types\":[{\"id\":0,\"name\":\"int\"},{\"id\":1,\"name\":"
    "\"com.a.A\"},{\"id\":2,\"name\":\"com.a.inner.I\"},{\"id\":3,\"name\":\"com.ab.B\"},"
    "{\"id\":4,\"name\":\"org.x.X\"},{\"id\":5,\"name\":\"java.lang.Object\"}],"
    "\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[1,0]},{\"id\":2,\"name\":\"i\","
    "\"signature\":[2,0]},{\"id\":3,\"name\":\"b\",\"signature\":[3,0]},{\"id\":4,\"name\":"
    "\"x\",\"signature\":[4,0,5]}],"
    "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[50]},{\"ctx\":\"2:0<1:1\","
    "\"records\":[30]},{\"ctx\":\"3:0\",\"records\":[10]},{\"ctx\":\"4:0<3:2\",\"records\":"
    "[10]}],"
    "\"conditionalProfiles\":[{\"ctx\":\"1:3\",\"records\":[3,0,2,3,1,1]}],"
    "\"virtualInvokeProfiles\":[{\"ctx\":\"4:5\",\"records\":[5,6]}],"
    "\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[1,9]}],"
    "\"samplingProfiles\":[{\"ctx\":\"2:1\",\"records\":[4]}],"
    "\"instanceofProfiles\":[{\"ctx\":\"3:7\",\"records\":[4,1]}]}";

static char *filtered(const iprof_filter_options *o, int expect)
{
    iprof_model *m = load(FILTER_IN);
    CHECK_EQ_INT(iprof_model_filter(m, o), expect);
    char *t = text(m);
    iprof_model_free(m);
    return t;
}

#define HEAD "{\"version\":\"1.1.0\","
#define T_INT "{\"id\":0,\"name\":\"int\"}"
#define T_A "{\"id\":1,\"name\":\"com.a.A\"}"
#define T_I "{\"id\":2,\"name\":\"com.a.inner.I\"}"
#define T_B "{\"id\":3,\"name\":\"com.ab.B\"}"
#define T_X "{\"id\":4,\"name\":\"org.x.X\"}"
#define T_O "{\"id\":5,\"name\":\"java.lang.Object\"}"
#define M_A "{\"id\":1,\"name\":\"a\",\"signature\":[1,0]}"
#define M_I "{\"id\":2,\"name\":\"i\",\"signature\":[2,0]}"
#define M_B "{\"id\":3,\"name\":\"b\",\"signature\":[3,0]}"
#define M_X "{\"id\":4,\"name\":\"x\",\"signature\":[4,0,5]}"
#define MON "\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[1,9]}],"
/* Every type and method of FILTER_IN: what a filter that drops no package
 * keeps, whatever refers to them (pruning is iprof_model_prune()'s job). */
#define ALL_TM "\"types\":[" T_INT "," T_A "," T_I "," T_B "," T_X "," T_O "]," \
               "\"methods\":[" M_A "," M_I "," M_B "," M_X "],"

static void test_filter_nothing_changes(void)
{
    char *t = filtered(NULL, IPROF_OK);
    CHECK_EQ_STR(t, FILTER_IN);
    free(t);
    /* Without options nothing goes, not even what nothing refers to: a
     * types-only file, a method no entry mentions. */
    static const char *const unused =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"},"
        "{\"id\":1,\"name\":\"p.A\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[1,0]}],"
        "\"callCountProfiles\":[],\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
        "\"monitorProfiles\":[],\"samplingProfiles\":[]}";
    iprof_model *m = load(unused);
    CHECK_OK(iprof_model_filter(m, NULL));
    t = text(m);
    CHECK_EQ_STR(t, unused);
    free(t);
    iprof_model_free(m);
}

static void test_filter_keep_package(void)
{
    const char *keep[] = {"com.a."};
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    o.keep_packages = keep;
    o.keep_package_count = 1;
    char *t = filtered(&o, IPROF_OK);
    /* The entries of com.a and com.a.inner stay; com.ab is not com.a; the
     * monitor stays. Keep packages judge entries: every method and type
     * stays, whether a remaining entry names it or not. */
    CHECK_EQ_STR(t, HEAD ALL_TM
                 "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[50]},{\"ctx\":\"2:0<1:1\","
                 "\"records\":[30]}],"
                 "\"conditionalProfiles\":[{\"ctx\":\"1:3\",\"records\":[3,0,2,3,1,1]}],"
                 "\"virtualInvokeProfiles\":[]," MON
                 "\"samplingProfiles\":[{\"ctx\":\"2:1\",\"records\":[4]}],"
                 "\"instanceofProfiles\":[]}");
    free(t);
}

static void test_filter_drop_and_longest_match(void)
{
    const char *keep[] = {"com"};
    const char *drop[] = {"com.a", "org"};
    const char *keep2[] = {"com.a.inner"};
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    o.drop_packages = drop;
    o.drop_package_count = 1;
    /* Drop com.a (com.a.inner with it): com.ab and org stay. */
    char *t = filtered(&o, IPROF_OK);
    CHECK_EQ_STR(t, HEAD "\"types\":[" T_INT "," T_A "," T_B "," T_X "," T_O "],"
                 "\"methods\":[" M_B "," M_X "],"
                 "\"callCountProfiles\":[{\"ctx\":\"3:0\",\"records\":[10]},{\"ctx\":\"4:0<3:2\","
                 "\"records\":[10]}],"
                 "\"conditionalProfiles\":[],"
                 "\"virtualInvokeProfiles\":[{\"ctx\":\"4:5\",\"records\":[5,6]}],"
                 "\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[1,9]}],"
                 "\"samplingProfiles\":[],"
                 "\"instanceofProfiles\":[{\"ctx\":\"3:7\",\"records\":[4,1]}]}");
    free(t);
    /* keep com, drop com.a and org, keep com.a.inner: the longest wins. */
    o.keep_packages = keep;
    o.keep_package_count = 1;
    o.drop_package_count = 2;
    iprof_model *m = load(FILTER_IN);
    CHECK_OK(iprof_model_filter(m, &o));
    o.keep_packages = keep2; /* a second pass cannot bring entries back */
    o.drop_package_count = 0;
    CHECK_OK(iprof_model_filter(m, &o));
    t = text(m);
    /* The first pass took com.a.A.a, com.a.inner.I.i and org.x.X.x with
     * com.a.inner.I (nothing named it); com.a.A (the monitor's record) and
     * org.x.X (instanceof's) stay. The second drops no package. */
    CHECK_EQ_STR(t, HEAD "\"types\":[" T_INT "," T_A "," T_B "," T_X "," T_O "],"
                 "\"methods\":[" M_B "],"
                 "\"callCountProfiles\":[],\"conditionalProfiles\":[],"
                 "\"virtualInvokeProfiles\":[]," MON "\"samplingProfiles\":[],"
                 "\"instanceofProfiles\":[]}");
    free(t);
    iprof_model_free(m);
    const char *keep3[] = {"com", "com.a.inner"};
    o.keep_packages = keep3;
    o.keep_package_count = 2;
    o.drop_packages = drop;
    o.drop_package_count = 1;
    t = filtered(&o, IPROF_OK);
    /* com.ab kept (com), com.a dropped, com.a.inner kept (longest), org's
     * entries dropped (keep packages given, none matches) but not its
     * method x (keep packages judge entries only). A dropped package is
     * gone from the file: com.a.A.a goes, and with it 2:0<1:1, whose
     * callee is kept but whose caller is com.a.A.a; its type com.a.A
     * stays, the monitor's record names it. */
    CHECK_EQ_STR(t, HEAD "\"types\":[" T_INT "," T_A "," T_I "," T_B "," T_X "," T_O "],"
                 "\"methods\":[" M_I "," M_B "," M_X "],"
                 "\"callCountProfiles\":[{\"ctx\":\"3:0\",\"records\":[10]}],"
                 "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[]," MON
                 "\"samplingProfiles\":[{\"ctx\":\"2:1\",\"records\":[4]}],"
                 "\"instanceofProfiles\":[{\"ctx\":\"3:7\",\"records\":[4,1]}]}");
    free(t);
}

static void test_filter_min_count(void)
{
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    o.min_count = 5;
    char *t = filtered(&o, IPROF_OK);
    /* Totals: call counts 50 30 10 10, conditional 2+1 = 3, virtual 6,
     * monitor 9, sampling 4, instanceof 1. */
    CHECK_EQ_STR(t, HEAD "\"types\":[" T_INT "," T_A "," T_I "," T_B "," T_X "," T_O "],"
                 "\"methods\":[" M_A "," M_I "," M_B "," M_X "],"
                 "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[50]},{\"ctx\":\"2:0<1:1\","
                 "\"records\":[30]},{\"ctx\":\"3:0\",\"records\":[10]},{\"ctx\":\"4:0<3:2\","
                 "\"records\":[10]}],"
                 "\"conditionalProfiles\":[],"
                 "\"virtualInvokeProfiles\":[{\"ctx\":\"4:5\",\"records\":[5,6]}]," MON
                 "\"samplingProfiles\":[],\"instanceofProfiles\":[]}");
    free(t);
    o.min_count = 11;
    t = filtered(&o, IPROF_OK);
    CHECK_EQ_STR(t, HEAD ALL_TM
                 "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[50]},{\"ctx\":\"2:0<1:1\","
                 "\"records\":[30]}],"
                 "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                 "\"monitorProfiles\":[],\"samplingProfiles\":[],\"instanceofProfiles\":[]}");
    free(t);
}

static void test_filter_top_percent(void)
{
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    o.kinds = IPROF_KIND_BIT(IPROF_KIND_CALL_COUNT);
    /* Call counts 50 30 10 10 (T = 100): 50% needs 50 alone. */
    o.top_percent = 50;
    char *t = filtered(&o, IPROF_OK);
    CHECK_EQ_STR(t, HEAD ALL_TM
                 "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[50]}],"
                 "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                 "\"monitorProfiles\":[],\"samplingProfiles\":[],\"instanceofProfiles\":[]}");
    free(t);
    /* 80.5% needs 50, 30 and a 10: both 10s are kept (tied). */
    o.top_percent = 80.5;
    t = filtered(&o, IPROF_OK);
    CHECK_EQ_STR(t, HEAD "\"types\":[" T_INT "," T_A "," T_I "," T_B "," T_X "," T_O "],"
                 "\"methods\":[" M_A "," M_I "," M_B "," M_X "],"
                 "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[50]},{\"ctx\":\"2:0<1:1\","
                 "\"records\":[30]},{\"ctx\":\"3:0\",\"records\":[10]},{\"ctx\":\"4:0<3:2\","
                 "\"records\":[10]}],"
                 "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                 "\"monitorProfiles\":[],\"samplingProfiles\":[],\"instanceofProfiles\":[]}");
    free(t);
    /* 80% exactly: 50 + 30. */
    o.top_percent = 80;
    t = filtered(&o, IPROF_OK);
    CHECK_EQ_STR(t, HEAD ALL_TM
                 "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[50]},{\"ctx\":\"2:0<1:1\","
                 "\"records\":[30]}],"
                 "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                 "\"monitorProfiles\":[],\"samplingProfiles\":[],\"instanceofProfiles\":[]}");
    free(t);
    /* A zero-count entry never survives; 100% keeps all positive ones. */
    iprof_model *m = load("{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
                          "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]},"
                          "{\"id\":2,\"name\":\"n\",\"signature\":[0,0]}],"
                          "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[0]},"
                          "{\"ctx\":\"2:0\",\"records\":[1]}],\"conditionalProfiles\":[],"
                          "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
                          "\"samplingProfiles\":[]}");
    iprof_filter_options all = IPROF_FILTER_OPTIONS_INIT;
    all.top_percent = 100;
    CHECK_OK(iprof_model_filter(m, &all));
    t = text(m);
    CHECK_EQ_STR(t, "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
                    "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]},"
                    "{\"id\":2,\"name\":\"n\",\"signature\":[0,0]}],"
                    "\"callCountProfiles\":[{\"ctx\":\"2:0\",\"records\":[1]}],"
                    "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                    "\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    free(t);
    iprof_model_free(m);
}

/* A filter removes what its options name and what would then dangle,
 * nothing else: dropping package p takes p's methods, the entries naming
 * them in any frame, and p's types that nothing left names; a method and
 * types outside p that nothing names stay (pruning removes them), and so
 * do p's types that a kept signature or record names. */
static void test_filter_keeps_what_it_does_not_name(void)
{
    static const char *const doc =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"},"
        "{\"id\":1,\"name\":\"p.A\"},{\"id\":2,\"name\":\"p.Arg\"},{\"id\":3,\"name\":\"p.Recv\"},"
        "{\"id\":4,\"name\":\"q.B\"},{\"id\":5,\"name\":\"r.Unused\"},"
        "{\"id\":6,\"name\":\"p.sub.Gone\"},{\"id\":7,\"name\":\"q.Only\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[1,0]},"
        "{\"id\":2,\"name\":\"b\",\"signature\":[4,0,2]},"
        "{\"id\":3,\"name\":\"c\",\"signature\":[7,0]},"
        "{\"id\":4,\"name\":\"d\",\"signature\":[1,0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"2:0\",\"records\":[5]},"
        "{\"ctx\":\"2:0<1:3\",\"records\":[2]},{\"ctx\":\"1:0\",\"records\":[1]}],"
        "\"conditionalProfiles\":[],"
        "\"virtualInvokeProfiles\":[{\"ctx\":\"2:4\",\"records\":[3,7]}],"
        "\"monitorProfiles\":[],\"samplingProfiles\":[]}";
    static const char *const tail =
        "\"callCountProfiles\":[{\"ctx\":\"2:0\",\"records\":[5]}],"
        "\"conditionalProfiles\":[],"
        "\"virtualInvokeProfiles\":[{\"ctx\":\"2:4\",\"records\":[3,7]}],"
        "\"monitorProfiles\":[],\"samplingProfiles\":[]}";
    const char *drop[] = {"p"};
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    o.drop_packages = drop;
    o.drop_package_count = 1;
    iprof_model *m = load(doc);
    CHECK_OK(iprof_model_filter(m, &o));
    char *t = text(m), want[1024];
    snprintf(want, sizeof want, "%s%s",
             "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"},"
             "{\"id\":2,\"name\":\"p.Arg\"},{\"id\":3,\"name\":\"p.Recv\"},"
             "{\"id\":4,\"name\":\"q.B\"},{\"id\":5,\"name\":\"r.Unused\"},"
             "{\"id\":7,\"name\":\"q.Only\"}],"
             "\"methods\":[{\"id\":2,\"name\":\"b\",\"signature\":[4,0,2]},"
             "{\"id\":3,\"name\":\"c\",\"signature\":[7,0]}],", tail);
    CHECK_EQ_STR(t, want);
    free(t);
    /* Pruning then takes what nothing names: c, then q.Only and r.Unused. */
    CHECK_OK(iprof_model_prune(m, IPROF_PRUNE_METHODS | IPROF_PRUNE_TYPES));
    t = text(m);
    snprintf(want, sizeof want, "%s%s",
             "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"},"
             "{\"id\":2,\"name\":\"p.Arg\"},{\"id\":3,\"name\":\"p.Recv\"},"
             "{\"id\":4,\"name\":\"q.B\"}],"
             "\"methods\":[{\"id\":2,\"name\":\"b\",\"signature\":[4,0,2]}],", tail);
    CHECK_EQ_STR(t, want);
    free(t);
    iprof_model_free(m);
}

static void test_filter_kinds(void)
{
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    o.kinds = IPROF_KIND_BIT(IPROF_KIND_VIRTUAL_INVOKE) | IPROF_KIND_BIT(IPROF_KIND_MONITOR);
    char *t = filtered(&o, IPROF_OK);
    CHECK_EQ_STR(t, HEAD ALL_TM
                 "\"callCountProfiles\":[],\"conditionalProfiles\":[],"
                 "\"virtualInvokeProfiles\":[{\"ctx\":\"4:5\",\"records\":[5,6]}]," MON
                 "\"samplingProfiles\":[],\"instanceofProfiles\":[]}");
    free(t);
}

/* --max-depth: contexts cut to their innermost frames, entries that then
 * coincide combined (the first in place), per kind; depth 0 cuts nothing. */
static void test_filter_max_depth(void)
{
    static const char *const doc =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[0,0]},"
        "{\"id\":2,\"name\":\"b\",\"signature\":[0,0]},{\"id\":3,\"name\":\"c\","
        "\"signature\":[0,0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"1:0<2:5<3:1\",\"records\":[4]},"
        "{\"ctx\":\"2:0\",\"records\":[1]},{\"ctx\":\"1:0<2:5<1:9\",\"records\":[6]},"
        "{\"ctx\":\"1:0<3:2\",\"records\":[2]}],"
        "\"conditionalProfiles\":[{\"ctx\":\"1:3<2:5\",\"records\":[3,0,1,3,1,2]},"
        "{\"ctx\":\"1:3<3:4\",\"records\":[3,1,5,9,0,1]}],"
        "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[0,7]}],"
        "\"samplingProfiles\":[{\"ctx\":\"3:7<2:1<1:1\",\"records\":[5]}]}";
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    o.max_depth = 2;
    iprof_model *m = load(doc);
    CHECK_OK(iprof_model_filter(m, &o));
    char *t = text(m);
    CHECK_EQ_STR(t, "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
                    "\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[0,0]},"
                    "{\"id\":2,\"name\":\"b\",\"signature\":[0,0]},{\"id\":3,\"name\":\"c\","
                    "\"signature\":[0,0]}],"
                    "\"callCountProfiles\":[{\"ctx\":\"1:0<2:5\",\"records\":[10]},"
                    "{\"ctx\":\"2:0\",\"records\":[1]},{\"ctx\":\"1:0<3:2\",\"records\":[2]}],"
                    "\"conditionalProfiles\":[{\"ctx\":\"1:3<2:5\",\"records\":[3,0,1,3,1,2]},"
                    "{\"ctx\":\"1:3<3:4\",\"records\":[3,1,5,9,0,1]}],"
                    "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[{\"ctx\":\"0:0\","
                    "\"records\":[0,7]}],"
                    "\"samplingProfiles\":[{\"ctx\":\"3:7<2:1\",\"records\":[5]}]}");
    free(t);
    iprof_model_free(m);
    /* Depth 1: the conditional entries become one, their groups combined. */
    o.max_depth = 1;
    m = load(doc);
    CHECK_OK(iprof_model_filter(m, &o));
    t = text(m);
    CHECK(strstr(t, "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[12]},"
                    "{\"ctx\":\"2:0\",\"records\":[1]}]") != NULL);
    CHECK(strstr(t, "\"conditionalProfiles\":[{\"ctx\":\"1:3\",\"records\":[3,0,1,3,1,7,9,0,1]}]") !=
          NULL);
    CHECK(strstr(t, "\"samplingProfiles\":[{\"ctx\":\"3:7\",\"records\":[5]}]") != NULL);
    free(t);
    iprof_model_free(m);
    /* Deep enough: nothing changes. */
    o.max_depth = 3;
    m = load(doc);
    char *before = text(m);
    CHECK_OK(iprof_model_filter(m, &o));
    t = text(m);
    CHECK_EQ_STR(t, before);
    free(t);
    free(before);
    iprof_model_free(m);
    /* A kind to cut with an entry of no whole triples (kept by a lenient
     * load) fails before anything changes, the other filters too; a kind
     * that `kinds` drops, or an entry an earlier filter drops, is not cut,
     * so not refused. */
    static const char *const broken =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[0,0]},"
        "{\"id\":2,\"name\":\"b\",\"signature\":[0,0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"1:0<2:5\",\"records\":[1]},"
        "{\"ctx\":\"2:0\",\"records\":[9]}],"
        "\"conditionalProfiles\":[{\"ctx\":\"1:3<2:5\",\"records\":[3,0,5,1]}],"
        "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[]}";
    o.max_depth = 1;
    o.min_count = 2;
    m = load(broken);
    before = text(m);
    CHECK_EQ_INT(iprof_model_filter(m, &o), IPROF_ESCHEMA);
    CHECK_EQ_STR(err_info(iprof_model_error(m)).message,
                 "conditionalProfiles entry: records: records must be (bci, index, count) "
                 "triples, so its records cannot be grouped");
    t = text(m);
    CHECK_EQ_STR(t, before);
    free(t);
    free(before);
    o.top_percent = 50; /* keeps it too (5 of 5 in its kind) */
    CHECK_EQ_INT(iprof_model_filter(m, &o), IPROF_ESCHEMA);
    o.min_count = 6; /* drops it: its total is 5 */
    CHECK_OK(iprof_model_filter(m, &o));
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CONDITIONAL), 0);
    iprof_model_free(m);
    m = load(broken);
    o.min_count = 2;
    o.top_percent = 0;
    o.kinds = IPROF_KIND_BIT(IPROF_KIND_CALL_COUNT);
    CHECK_OK(iprof_model_filter(m, &o));
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 1);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CONDITIONAL), 0);
    iprof_model_free(m);
}

/* The cut under allocation failure: every failure is IPROF_ENOMEM, the
 * model stays consistent (it writes and frees), nothing leaks, and no
 * count is lost: the kind is cut or as it was (its counts sum to 11
 * either way). */
static void test_filter_max_depth_alloc_failure(void)
{
    static const char *const doc =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[0,0]},"
        "{\"id\":2,\"name\":\"b\",\"signature\":[0,0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"1:0<2:5<1:1\",\"records\":[4]},"
        "{\"ctx\":\"1:0<2:5<2:2\",\"records\":[6]},{\"ctx\":\"2:0<1:7<1:8\",\"records\":[1]}],"
        "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
        "\"samplingProfiles\":[]}";
    int completed = 0;
    for (long n = 1; n < 1000 && !completed; n++) {
        fail_alloc fa = {.fail_at = 0};
        iprof_allocator a = fail_hook(&fa);
        iprof_read_options ro = IPROF_READ_OPTIONS_INIT;
        ro.allocator = &a;
        iprof_reader *r = NULL;
        iprof_model *m = NULL;
        CHECK_OK(iprof_reader_new(&r, &ro));
        CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(doc, strlen(doc))));
        iprof_reader_free(r);
        iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
        o.max_depth = 2;
        fa.fail_at = fa.count + n;
        int rc = iprof_model_filter(m, &o);
        completed = !fa.failed;
        fa.fail_at = 0;
        CHECK(fa.failed_hard ? rc == IPROF_ENOMEM : rc == IPROF_OK);
        size_t n_entries = iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT);
        if (completed)
            CHECK_EQ_INT(n_entries, 2);
        CHECK(n_entries == 2 || n_entries == 3);
        int64_t sum = 0;
        for (size_t i = 0; i < n_entries; i++) {
            size_t k;
            sum += iprof_entry_records(iprof_model_entry_at(m, IPROF_KIND_CALL_COUNT, i), &k)[0];
        }
        CHECK_EQ_INT(sum, 11);
        free(text(m));
        iprof_model_free(m);
        CHECK_EQ_INT(fa.live_blocks, 0);
        CHECK_EQ_INT(fa.live_bytes, 0);
    }
    CHECK(completed);
}

static void test_filter_bad_options(void)
{
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    char *before = filtered(NULL, IPROF_OK);
    o.version = 99;
    char *t = filtered(&o, IPROF_EINVAL);
    CHECK_EQ_STR(t, before);
    free(t);
    o.version = IPROF_FILTER_OPTIONS_VERSION;
    o.keep_package_count = 1; /* NULL list */
    free(filtered(&o, IPROF_EINVAL));
    o.keep_package_count = 0;
    o.kinds = 1u << IPROF_KIND_COUNT;
    free(filtered(&o, IPROF_EINVAL));
    o.kinds = 0;
    o.top_percent = -1;
    free(filtered(&o, IPROF_EINVAL));
    CHECK_EQ_INT(iprof_model_filter(NULL, NULL), IPROF_EINVAL);
    iprof_filter_options z;
    CHECK_OK(iprof_filter_options_init(&z, IPROF_FILTER_OPTIONS_VERSION));
    CHECK_EQ_INT(z.version, IPROF_FILTER_OPTIONS_VERSION);
    CHECK_EQ_INT(z.kinds, 0);
    CHECK_EQ_INT(iprof_filter_options_init(&z, IPROF_FILTER_OPTIONS_VERSION + 1), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_filter_options_init(NULL, 1), IPROF_EINVAL);
    free(before);
}

/* iprof_package_matches and iprof_model_prune on their own. */
static void test_packages_and_prune(void)
{
    CHECK(iprof_package_matches("com.foo", "com.foo.Bar", 11));
    CHECK(iprof_package_matches("com.foo.", "com.foo.impl.Baz$1", 18));
    CHECK(iprof_package_matches("com.foo", "com.foo", 7));
    CHECK(!iprof_package_matches("com.foo", "com.foobar.X", 12));
    CHECK(!iprof_package_matches("com.foo", "com.foo$X", 9));
    CHECK(iprof_package_matches("", "Main", 4));
    CHECK(!iprof_package_matches("com.foo", "com.foo.Bar", 6)); /* counted, not terminated */
    CHECK(!iprof_package_matches(NULL, "x", 1));
    static const char doc[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"},"
        "{\"id\":1,\"name\":\"A\"},{\"id\":2,\"name\":\"Unused\"},{\"id\":3,\"name\":\"B\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[1,0]},"
        "{\"id\":2,\"name\":\"b\",\"signature\":[3,0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[1]}]}";
    iprof_model *m = load(doc);
    CHECK_OK(iprof_model_prune(m, IPROF_PRUNE_TYPES));
    CHECK_EQ_INT(iprof_model_type_count(m), 3); /* Unused goes; b keeps B */
    CHECK(iprof_model_type_by_id(m, 2) == NULL);
    CHECK_OK(iprof_model_prune(m, IPROF_PRUNE_METHODS));
    CHECK_EQ_INT(iprof_model_method_count(m), 1); /* b goes, B stays */
    CHECK_EQ_INT(iprof_model_type_count(m), 3);
    CHECK_OK(iprof_model_prune(m, IPROF_PRUNE_METHODS | IPROF_PRUNE_TYPES));
    CHECK_EQ_INT(iprof_model_type_count(m), 2); /* int, A */
    CHECK_EQ_INT(iprof_model_prune(m, 8), IPROF_EINVAL);
    /* Held back by an unknown key that may hold ids. */
    CHECK_OK(iprof_model_add_unknown(m, "ids", 3, "[7]", 3));
    CHECK_OK(iprof_model_remove_entry(m, IPROF_KIND_CALL_COUNT, (const int64_t[]){1, 0}, 1));
    CHECK_OK(iprof_model_prune(m, IPROF_PRUNE_METHODS | IPROF_PRUNE_TYPES));
    CHECK_EQ_INT(iprof_model_method_count(m), 1);
    iprof_model_free(m);
}

/* A drop package takes its methods and unnamed types out even when an
 * unknown key holds pruning back. */
static void test_drop_package_removes_methods(void)
{
    static const char doc[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"},"
        "{\"id\":1,\"name\":\"p.A\"},{\"id\":2,\"name\":\"q.B\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[1,0]},"
        "{\"id\":2,\"name\":\"b\",\"signature\":[2,0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"2:0<1:4\",\"records\":[1]},"
        "{\"ctx\":\"2:0\",\"records\":[2]}],\"x\":[1]}";
    iprof_model *m = load(doc);
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    const char *drop[] = {"p"};
    o.drop_packages = drop;
    o.drop_package_count = 1;
    CHECK_OK(iprof_model_filter(m, &o));
    char *t = text(m);
    CHECK_EQ_STR(t, "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"},"
                    "{\"id\":2,\"name\":\"q.B\"}],"
                    "\"methods\":[{\"id\":2,\"name\":\"b\",\"signature\":[2,0]}],"
                    "\"callCountProfiles\":[{\"ctx\":\"2:0\",\"records\":[2]}],\"x\":[1],"
                    "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                    "\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    free(t);
    iprof_model_free(m);
}

int main(void)
{
    RUN(test_canonical_exact);
    RUN(test_packages_and_prune);
    RUN(test_drop_package_removes_methods);
    RUN(test_canonical_combines_duplicates);
    RUN(test_canonical_keeps_graalvm_view);
    RUN(test_canonical_failures_leave_model);
    RUN(test_canonical_corpus);
    RUN(test_canonical_large_threaded);
    RUN(test_canonical_repeated_method_id);
    RUN(test_canonical_repeated_method_callers);
    RUN(test_canonical_caller_order);
    RUN(test_canonical_check_threaded);
    RUN(test_canonical_negative_caller);
    RUN(test_canonical_no_callers);
    RUN(test_canonical_flat_sort);
    RUN(test_canonical_buckets);
    RUN(test_canonical_threaded_alloc_failure);
    RUN(test_canonical_threaded_walk_repeats);
    RUN(test_canonical_threaded_parts);
    RUN(test_canonical_type_order);
    RUN(test_canonical_threaded_sink_failure);
    RUN(test_filter_nothing_changes);
    RUN(test_filter_keeps_what_it_does_not_name);
    RUN(test_filter_keep_package);
    RUN(test_filter_drop_and_longest_match);
    RUN(test_filter_min_count);
    RUN(test_filter_top_percent);
    RUN(test_filter_kinds);
    RUN(test_filter_max_depth);
    RUN(test_filter_max_depth_alloc_failure);
    RUN(test_filter_bad_options);
    return check_done();
}
