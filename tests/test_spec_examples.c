/*
 * The examples of the format document (docs: "The iprof File Format") as
 * complete documents: the EvenOrOddLength partial contexts and the Fib
 * profile snippets (call count, conditional, virtual invoke, monitor,
 * sampling). Checks the frames the reader delivers, the model's lookups,
 * readable descriptions, context sharing of caller suffixes, and that the
 * writer gives the same bytes back. Public API only.
 */
#include <iprof/iprof.h>
#include <iprof/stream.h>
#include <iprof/edit.h>

#include "check.h"
#include "check_api.h"

/* ---- recording reader callbacks ------------------------------------------ */

#define MAX_SEEN 64
typedef struct seen_entry {
    int kind;
    int64_t frames[2 * 64];
    size_t frame_count;
    int64_t records[64];
    size_t record_count;
} seen_entry;

typedef struct seen {
    char version[32];
    size_t types, methods;
    seen_entry e[MAX_SEEN];
    size_t n;
} seen;

static int rec_version(const char *v, size_t len, void *p)
{
    seen *s = p;
    snprintf(s->version, sizeof s->version, "%.*s", (int)len, v);
    return 0;
}

static int rec_type(int64_t id, const char *name, size_t len, void *p)
{
    (void)id;
    (void)name;
    (void)len;
    ((seen *)p)->types++;
    return 0;
}

static int rec_method(int64_t id, const char *name, size_t len, const int64_t *sig,
                      size_t sig_len, void *p)
{
    (void)id;
    (void)name;
    (void)len;
    (void)sig;
    (void)sig_len;
    ((seen *)p)->methods++;
    return 0;
}

static int rec_entry(int kind, const int64_t *f, size_t fc, const int64_t *r, size_t rc,
                     void *p)
{
    seen *s = p;
    if (s->n >= MAX_SEEN || fc > 64 || rc > 64)
        return 1;
    seen_entry *e = &s->e[s->n++];
    e->kind = kind;
    memcpy(e->frames, f, fc * 2 * sizeof *f);
    e->frame_count = fc;
    memcpy(e->records, r, rc * sizeof *r);
    e->record_count = rc;
    return 0;
}

static int read_all(const char *doc, seen *s, unsigned flags)
{
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.flags = flags;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    iprof_read_callbacks cb = IPROF_READ_CALLBACKS_INIT;
    cb.on_version = rec_version;
    cb.on_type = rec_type;
    cb.on_method = rec_method;
    cb.on_call_count = cb.on_conditional = cb.on_virtual_invoke = cb.on_monitor =
        cb.on_sampling = cb.on_instanceof = rec_entry;
    memset(s, 0, sizeof *s);
    int rc = iprof_reader_read(r, SRC_BUFFER(doc, strlen(doc)), &cb, s);
    if (rc) {
        const iprof_error *e = iprof_reader_error(r);
        fprintf(stderr, "   read failed: %s: %s path %s\n", iprof_status_string(rc),
                err_info(e).message, err_info(e).path);
    }
    CHECK_EQ_INT(read_result(r).diag_count, 0);
    iprof_reader_free(r);
    return rc;
}

static iprof_model *load(const char *doc)
{
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.flags = IPROF_READ_STRICT;
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    int rc = iprof_model_load(&m, r, SRC_BUFFER(doc, strlen(doc)));
    if (rc) {
        const iprof_error *e = iprof_reader_error(r);
        fprintf(stderr, "   load failed: %s: %s path %s\n", iprof_status_string(rc),
                err_info(e).message, err_info(e).path);
    }
    CHECK_OK(rc);
    iprof_reader_free(r);
    return m;
}

static void check_frames(const seen_entry *e, int kind, const int64_t *frames, size_t fc,
                         const int64_t *records, size_t rc)
{
    CHECK_EQ_INT(e->kind, kind);
    CHECK_EQ_INT(e->frame_count, fc);
    if (e->frame_count == fc)
        CHECK(memcmp(e->frames, frames, fc * 2 * sizeof *frames) == 0);
    CHECK_EQ_INT(e->record_count, rc);
    if (e->record_count == rc)
        CHECK(memcmp(e->records, records, rc * sizeof *records) == 0);
}

static const char *ctx_text(const iprof_context *c, char *buf, size_t size)
{
    if (!c)
        return "(null)";
    size_t n = iprof_context_format(c, buf, size);
    CHECK(n < size);
    CHECK_EQ_INT(strlen(buf), n);
    return buf;
}

static const char *ctx_describe(const iprof_model *m, const iprof_context *c, char *buf,
                                size_t size)
{
    if (!c)
        return "(null)";
    size_t n = iprof_model_context_describe(m, c, buf, size);
    CHECK(n < size);
    CHECK_EQ_INT(strlen(buf), n);
    return buf;
}

static const iprof_entry *find(const iprof_model *m, int kind, const int64_t *frames,
                               size_t fc)
{
    return iprof_model_entry_find(m, kind, frames, fc);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the minimal file ---------------------------------------------------- */

static void test_minimal(void)
{
    const char *doc = "{\n  \"version\": \"1.1.0\",\n  \"types\": [],\n  \"methods\": []\n}";
    seen s;
    CHECK_OK(read_all(doc, &s, IPROF_READ_STRICT));
    CHECK_EQ_STR(s.version, "1.1.0");
    CHECK_EQ_INT(s.types, 0);
    CHECK_EQ_INT(s.methods, 0);
    CHECK_EQ_INT(s.n, 0);
    iprof_model *m = load(doc);
    if (!m)
        return;
    CHECK_EQ_STR(iprof_model_version(m), "1.1.0");
    CHECK_EQ_INT(iprof_model_type_count(m), 0);
    CHECK_EQ_INT(iprof_model_context_count(m), 0);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        CHECK_EQ_INT(iprof_model_entry_count(m, k), 0);
    /* Written back in GraalVM's layout: every section present, minified. */
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, NULL));
    CHECK_OK(iprof_writer_write_model(w, m));
    const void *out;
    size_t len;
    CHECK_OK(iprof_writer_buffer(w, &out, &len));
    const char *want = "{\"version\":\"1.1.0\",\"types\":[],\"methods\":[],\"callCountProfiles\":[],"
                       "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                       "\"monitorProfiles\":[],\"samplingProfiles\":[],\"instanceOfProfiles\":[]}";
    CHECK_EQ_MEM(out, len, want, strlen(want));
    iprof_writer_free(w);
    iprof_model_free(m);
}

/* ---- EvenOrOddLength ------------------------------------------------------ */

/* Ids as in the call graph of the document: main 1, printEvenOrOdd 2,
 * printEven 3, printOdd 4, print 5. Type ids are ours. */
static const char *const EOO =
    "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"void\"},"
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
    "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[]}";

static void test_even_or_odd(void)
{
    seen s;
    CHECK_OK(read_all(EOO, &s, IPROF_READ_STRICT));
    CHECK_EQ_STR(s.version, "1.0.0");
    CHECK_EQ_INT(s.types, 4);
    CHECK_EQ_INT(s.methods, 5);
    CHECK_EQ_INT(s.n, 5);
    if (s.n == 5) {
        static const int64_t f0[] = {2, 0, 1, 3}, f1[] = {5, 0, 3, 2, 2, 2, 1, 3},
                             f2[] = {5, 0, 4, 2}, f3[] = {5, 0}, f4[] = {2, 9, 1, 3};
        static const int64_t one[] = {1}, two[] = {2}, three[] = {3},
                             cond[] = {9, 0, 1, 15, 1, 0};
        check_frames(&s.e[0], IPROF_KIND_CALL_COUNT, f0, 2, one, 1);
        check_frames(&s.e[1], IPROF_KIND_CALL_COUNT, f1, 4, one, 1);
        check_frames(&s.e[2], IPROF_KIND_CALL_COUNT, f2, 2, two, 1);
        check_frames(&s.e[3], IPROF_KIND_CALL_COUNT, f3, 1, three, 1);
        check_frames(&s.e[4], IPROF_KIND_CONDITIONAL, f4, 2, cond, 6);
    }

    iprof_model *m = load(EOO);
    if (!m)
        return;
    char buf[512], buf2[512];
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 4);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CONDITIONAL), 1);

    /* "5:0<3:2<2:2<1:3": the beginning of print, inlined into printEven at
     * bci 2, into printEvenOrOdd at 2, into main at 3. */
    static const int64_t deep[] = {5, 0, 3, 2, 2, 2, 1, 3};
    const iprof_entry *e = find(m, IPROF_KIND_CALL_COUNT, deep, 4);
    CHECK(e != NULL);
    if (!e)
        goto out;
    const iprof_context *c = iprof_entry_context(e);
    CHECK_EQ_INT(iprof_entry_kind(e), IPROF_KIND_CALL_COUNT);
    CHECK_EQ_INT(iprof_context_depth(c), 4);
    CHECK_EQ_INT(iprof_context_method_id(c), 5);
    CHECK_EQ_INT(iprof_context_bci(c), 0);
    CHECK_EQ_STR(ctx_text(c, buf, sizeof buf), "5:0<3:2<2:2<1:3");
    CHECK_EQ_STR(ctx_describe(m, c, buf, sizeof buf),
                 "EvenOrOddLength.print:0 < EvenOrOddLength.printEven:2 < "
                 "EvenOrOddLength.printEvenOrOdd:2 < EvenOrOddLength.main:3");
    int64_t fr[8];
    CHECK_EQ_INT(iprof_context_frames(c, fr, 4), 4);
    CHECK(memcmp(fr, deep, sizeof deep) == 0);
    /* max_frames smaller than the depth: copies that many, returns depth. */
    memset(fr, 0x55, sizeof fr);
    CHECK_EQ_INT(iprof_context_frames(c, fr, 2), 4);
    CHECK(memcmp(fr, deep, 4 * sizeof *fr) == 0);
    CHECK_EQ_INT(fr[4], 0x5555555555555555LL);

    /* The caller chain. */
    const iprof_context *c1 = iprof_context_caller(c);
    const iprof_context *c2 = c1 ? iprof_context_caller(c1) : NULL;
    const iprof_context *c3 = c2 ? iprof_context_caller(c2) : NULL;
    CHECK_EQ_STR(ctx_text(c1, buf, sizeof buf), "3:2<2:2<1:3");
    CHECK_EQ_STR(ctx_text(c2, buf, sizeof buf), "2:2<1:3");
    CHECK_EQ_STR(ctx_text(c3, buf, sizeof buf), "1:3");
    CHECK(c3 && iprof_context_caller(c3) == NULL);
    CHECK(c3 && iprof_context_depth(c3) == 1);

    /* Sharing: "2:0<1:3" and "2:9<1:3" have the very node "1:3" as caller. */
    static const int64_t pe0[] = {2, 0, 1, 3}, pe9[] = {2, 9, 1, 3}, odd[] = {5, 0, 4, 2},
                         root[] = {5, 0};
    const iprof_entry *e0 = find(m, IPROF_KIND_CALL_COUNT, pe0, 2);
    const iprof_entry *e9 = find(m, IPROF_KIND_CONDITIONAL, pe9, 2);
    CHECK(e0 && e9);
    if (e0 && e9) {
        CHECK(iprof_context_caller(iprof_entry_context(e0)) == c3);
        CHECK(iprof_context_caller(iprof_entry_context(e9)) == c3);
        CHECK(iprof_entry_context(e0) != c2); /* 2:0<1:3 is not 2:2<1:3 */
        CHECK_EQ_STR(ctx_describe(m, iprof_entry_context(e9), buf, sizeof buf),
                     "EvenOrOddLength.printEvenOrOdd:9 < EvenOrOddLength.main:3");
        size_t len;
        const int64_t *r = iprof_entry_records(e9, &len);
        CHECK_EQ_INT(len, 6);
        CHECK(r && r[0] == 9 && r[3] == 15 && r[5] == 0);
    }
    /* Not found under the other kind. */
    CHECK(find(m, IPROF_KIND_CONDITIONAL, pe0, 2) == NULL);
    CHECK(find(m, IPROF_KIND_CALL_COUNT, pe9, 2) == NULL);
    /* A prefix of an entry's context is not an entry. */
    CHECK(find(m, IPROF_KIND_CALL_COUNT, deep, 3) == NULL);
    const iprof_entry *eo = find(m, IPROF_KIND_CALL_COUNT, odd, 2);
    const iprof_entry *er = find(m, IPROF_KIND_CALL_COUNT, root, 1);
    CHECK(eo && er);
    if (eo && er) {
        CHECK_EQ_STR(ctx_describe(m, iprof_entry_context(eo), buf, sizeof buf),
                     "EvenOrOddLength.print:0 < EvenOrOddLength.printOdd:2");
        CHECK_EQ_STR(ctx_describe(m, iprof_entry_context(er), buf2, sizeof buf2),
                     "EvenOrOddLength.print:0");
        CHECK(iprof_context_caller(iprof_entry_context(er)) == NULL);
        CHECK_EQ_INT(iprof_entry_records(eo, NULL)[0], 2);
        CHECK_EQ_INT(iprof_entry_records(er, NULL)[0], 3);
    }
    /* Distinct frame sequences incl. caller suffixes: 1:3, 2:0<1:3, 2:2<1:3,
     * 3:2<2:2<1:3, 5:0<3:2<2:2<1:3, 4:2, 5:0<4:2, 5:0, 2:9<1:3. */
    CHECK_EQ_INT(iprof_model_context_count(m), 9);

    /* describe and format follow snprintf: full length, truncated, NUL. */
    memset(buf, 'x', sizeof buf);
    size_t full = iprof_model_context_describe(m, c, buf, 10);
    CHECK_EQ_INT(full, strlen("EvenOrOddLength.print:0 < EvenOrOddLength.printEven:2 < "
                              "EvenOrOddLength.printEvenOrOdd:2 < EvenOrOddLength.main:3"));
    CHECK_EQ_MEM(buf, strlen(buf), "EvenOrOdd", 9); /* 9 chars and the NUL */
    CHECK_EQ_INT(iprof_model_context_describe(m, c, NULL, 0), full);
    CHECK_EQ_INT(iprof_context_format(c, buf, 4), strlen("5:0<3:2<2:2<1:3"));
    CHECK_EQ_STR(buf, "5:0");
    CHECK_EQ_INT(iprof_context_format(c, NULL, 0), strlen("5:0<3:2<2:2<1:3"));

    /* Method lookups and description. */
    const iprof_method *pm = iprof_model_method_by_id(m, 2);
    CHECK(pm != NULL);
    if (pm) {
        size_t nl;
        CHECK_EQ_STR(iprof_method_name(pm, &nl), "printEvenOrOdd");
        CHECK_EQ_INT(nl, 14);
        CHECK_EQ_INT(iprof_model_method_describe(m, pm, buf, sizeof buf),
                     strlen("EvenOrOddLength.printEvenOrOdd"));
        CHECK_EQ_STR(buf, "EvenOrOddLength.printEvenOrOdd");
        static const int64_t sig[] = {3, 0, 1};
        CHECK(iprof_model_method_find(m, "printEvenOrOdd", 14, sig, 3) == pm);
        CHECK(iprof_model_method_find(m, "printEvenOrOdd", 14, sig, 2) == NULL);
        static const int64_t psig[] = {3, 0, 1};
        const iprof_method *pr = iprof_model_method_find(m, "print", 5, psig, 3);
        CHECK(pr && iprof_method_id(pr) == 5);
    }
    /* The writer gives the document back byte for byte. */
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, NULL));
    CHECK_OK(iprof_writer_write_model(w, m));
    const void *out;
    size_t len;
    CHECK_OK(iprof_writer_buffer(w, &out, &len));
    CHECK_EQ_MEM(out, len, EOO, strlen(EOO));
    iprof_writer_free(w);
out:
    iprof_model_free(m);
}

/* ---- Fib ---------------------------------------------------------------- */

static const int64_t MON[] = {9,    4,  10,   1, 579,  9, 619,  10, 1213, 1, 1972, 1,
                              2284, 2,  2337, 1, 2612, 2, 3474, 3,  3654, 61, 3807, 3,
                              3820, 7,  4060, 2, 4127, 3, 4725, 6};
static const char *const SAMPLE1 =
    "11823:38<12811:1<12810:33<12855:25<19551:17<19547:9<19529:10<6305:105<5998:67<5941:0<"
    "5903:50<2684:23<2685:1";
static const char *const SAMPLE2 =
    "22500:23<22353:65<22210:15<22187:246<22032:20<22030:1<22027:22<11795:68<11793:12<43854:2";

/* Methods named in the document, the rest "mNNN" of type Fib. */
typedef struct mdef {
    int64_t id;
    const char *name;
    int64_t sig[3];
    int sig_len;
} mdef;
static const mdef FIB_METHODS[] = {
    {2684, "m2684", {10, 8}, 2},
    {2685, "m2685", {10, 8}, 2},
    {3236, "valueOf", {2280, 2280, 9}, 3},
    {4669, "print", {4668, 8, 2280}, 3},
    {5903, "m5903", {10, 8}, 2},
    {5941, "m5941", {10, 8}, 2},
    {5998, "m5998", {10, 8}, 2},
    {6305, "m6305", {10, 8}, 2},
    {6882, "m6882", {10, 8}, 2},
    {6886, "m6886", {10, 8}, 2},
    {11793, "m11793", {10, 8}, 2},
    {11795, "m11795", {10, 8}, 2},
    {11823, "sleep", {11800, 8, 5}, 3},
    {12810, "sleepNanos", {12800, 8, 5}, 3},
    {12811, "sleepNanos0", {12800, 8, 5}, 3},
    {12855, "sleep", {12800, 8, 5}, 3},
    {19529, "m19529", {10, 8}, 2},
    {19547, "main", {10, 8, 4823}, 3},
    {19551, "fibonacci", {10, 8}, 2},
    {22027, "m22027", {10, 8}, 2},
    {22030, "m22030", {10, 8}, 2},
    {22032, "m22032", {10, 8}, 2},
    {22187, "m22187", {10, 8}, 2},
    {22210, "m22210", {10, 8}, 2},
    {22353, "m22353", {10, 8}, 2},
    {22500, "m22500", {10, 8}, 2},
    {43854, "m43854", {10, 8}, 2},
};

static char *fib_doc(void)
{
    check_text t = {0};
    tx_add(&t, "{\"version\":\"1.0.0\",\"types\":[");
    static const struct {
        int64_t id;
        const char *name;
    } named[] = {{0, "boolean"},
                 {1, "byte"},
                 {2, "short"},
                 {5, "long"},
                 {8, "void"},
                 {9, "java.lang.Object"},
                 {10, "Fib"},
                 {629, "java.lang.System"},
                 {1322, "java.lang.Integer"},
                 {2280, "java.lang.String"},
                 {3660, "java.lang.StringBuilder"},
                 {4668, "java.io.PrintStream"},
                 {4823, "[Ljava.lang.String;"},
                 {11800, "com.oracle.svm.core.thread.PlatformThreads"},
                 {12800, "java.lang.Thread"}};
    for (size_t i = 0; i < N(named); i++)
        tx_add(&t, "%s{\"id\":%" PRId64 ",\"name\":\"%s\"}", i ? "," : "", named[i].id,
               named[i].name);
    /* Monitor type ids not named above. */
    for (size_t i = 4; i < N(MON); i += 2)
        tx_add(&t, ",{\"id\":%" PRId64 ",\"name\":\"T%" PRId64 "\"}", MON[i], MON[i]);
    tx_add(&t, "],\"methods\":[");
    for (size_t i = 0; i < N(FIB_METHODS); i++) {
        const mdef *d = &FIB_METHODS[i];
        tx_add(&t, "%s{\"id\":%" PRId64 ",\"name\":\"%s\",\"signature\":[", i ? "," : "", d->id,
               d->name);
        for (int j = 0; j < d->sig_len; j++)
            tx_add(&t, "%s%" PRId64, j ? "," : "", d->sig[j]);
        tx_add(&t, "]}");
    }
    tx_add(&t, "],\"callCountProfiles\":[{\"ctx\":\"19551:0\",\"records\":[1]},"
               "{\"ctx\":\"4669:0<19551:34\",\"records\":[10]}],"
               "\"conditionalProfiles\":[{\"ctx\":\"19551:11\",\"records\":[20,0,10,53,1,1]}],"
               "\"virtualInvokeProfiles\":[{\"ctx\":\"3236:11<4669:2<19551:34\",\"records\":[2280,10]},"
               "{\"ctx\":\"6886:9<6882:23\",\"records\":[1322,2,2280,60,3660,56]}],"
               "\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[");
    for (size_t i = 0; i < N(MON); i++)
        tx_add(&t, "%s%" PRId64, i ? "," : "", MON[i]);
    tx_add(&t, "]}],\"samplingProfiles\":[{\"ctx\":\"%s\",\"records\":[10]},"
               "{\"ctx\":\"%s\",\"records\":[1]}]}",
           SAMPLE1, SAMPLE2);
    return t.s;
}

/* Parse ctx text here, independently of the library. */
static size_t parse_ctx(const char *s, int64_t *frames)
{
    size_t n = 0;
    while (*s) {
        char *end;
        frames[2 * n] = strtoll(s, &end, 10);
        frames[2 * n + 1] = strtoll(end + 1, &end, 10);
        n++;
        s = *end ? end + 1 : end;
    }
    return n;
}

static void test_fib(void)
{
    char *doc = fib_doc();
    seen s;
    CHECK_OK(read_all(doc, &s, IPROF_READ_STRICT));
    CHECK_EQ_INT(s.types, 15 + 14);
    CHECK_EQ_INT(s.methods, N(FIB_METHODS));
    CHECK_EQ_INT(s.n, 8);
    int64_t sf1[64], sf2[64];
    size_t sn1 = parse_ctx(SAMPLE1, sf1), sn2 = parse_ctx(SAMPLE2, sf2);
    CHECK_EQ_INT(sn1, 13);
    CHECK_EQ_INT(sn2, 10);
    static const int64_t cc1[] = {19551, 0}, cc2[] = {4669, 0, 19551, 34}, cd[] = {19551, 11},
                         vi1[] = {3236, 11, 4669, 2, 19551, 34}, vi2[] = {6886, 9, 6882, 23},
                         mon[] = {0, 0};
    static const int64_t r1[] = {1}, r10[] = {10}, rc[] = {20, 0, 10, 53, 1, 1},
                         rv1[] = {2280, 10}, rv2[] = {1322, 2, 2280, 60, 3660, 56};
    if (s.n == 8) {
        check_frames(&s.e[0], IPROF_KIND_CALL_COUNT, cc1, 1, r1, 1);
        check_frames(&s.e[1], IPROF_KIND_CALL_COUNT, cc2, 2, r10, 1);
        check_frames(&s.e[2], IPROF_KIND_CONDITIONAL, cd, 1, rc, 6);
        check_frames(&s.e[3], IPROF_KIND_VIRTUAL_INVOKE, vi1, 3, rv1, 2);
        check_frames(&s.e[4], IPROF_KIND_VIRTUAL_INVOKE, vi2, 2, rv2, 6);
        check_frames(&s.e[5], IPROF_KIND_MONITOR, mon, 1, MON, N(MON));
        check_frames(&s.e[6], IPROF_KIND_SAMPLING, sf1, sn1, r10, 1);
        check_frames(&s.e[7], IPROF_KIND_SAMPLING, sf2, sn2, r1, 1);
    }

    iprof_model *m = load(doc);
    if (!m) {
        free(doc);
        return;
    }
    char buf[1024];
    /* Types and methods. */
    const iprof_type *fib = iprof_model_type_by_name(m, "Fib", 3);
    CHECK(fib && iprof_type_id(fib) == 10);
    CHECK(iprof_model_type_by_id(m, 10) == fib);
    const iprof_type *arr = iprof_model_type_by_id(m, 4823);
    CHECK(arr != NULL);
    if (arr) {
        size_t l;
        CHECK_EQ_STR(iprof_type_name(arr, &l), "[Ljava.lang.String;");
        CHECK_EQ_INT(l, 19);
    }
    CHECK(iprof_model_type_by_id(m, 4824) == NULL);
    CHECK(iprof_model_type_by_name(m, "Fi", 2) == NULL);
    const iprof_method *fibo = iprof_model_method_by_id(m, 19551);
    CHECK(fibo != NULL);
    if (fibo) {
        size_t l;
        const int64_t *sig = iprof_method_signature(fibo, &l);
        CHECK_EQ_INT(l, 2);
        CHECK(sig && sig[0] == 10 && sig[1] == 8);
        CHECK_EQ_STR(iprof_method_name(fibo, NULL), "fibonacci");
        iprof_model_method_describe(m, fibo, buf, sizeof buf);
        CHECK_EQ_STR(buf, "Fib.fibonacci");
    }
    static const int64_t main_sig[] = {10, 8, 4823};
    const iprof_method *mn = iprof_model_method_find(m, "main", 4, main_sig, 3);
    CHECK(mn && iprof_method_id(mn) == 19547);
    /* Two methods named sleep, told apart by the signature. */
    static const int64_t ts[] = {12800, 8, 5}, ps[] = {11800, 8, 5};
    const iprof_method *sl1 = iprof_model_method_find(m, "sleep", 5, ts, 3);
    const iprof_method *sl2 = iprof_model_method_find(m, "sleep", 5, ps, 3);
    CHECK(sl1 && iprof_method_id(sl1) == 12855);
    CHECK(sl2 && iprof_method_id(sl2) == 11823);
    if (sl2) {
        iprof_model_method_describe(m, sl2, buf, sizeof buf);
        CHECK_EQ_STR(buf, "com.oracle.svm.core.thread.PlatformThreads.sleep");
    }

    /* Entries. */
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 2);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CONDITIONAL), 1);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_VIRTUAL_INVOKE), 2);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_MONITOR), 1);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_SAMPLING), 2);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_INSTANCEOF), 0);
    const iprof_entry *ecc = find(m, IPROF_KIND_CALL_COUNT, cc2, 2);
    const iprof_entry *evi = find(m, IPROF_KIND_VIRTUAL_INVOKE, vi1, 3);
    const iprof_entry *ecd = find(m, IPROF_KIND_CONDITIONAL, cd, 1);
    const iprof_entry *emo = find(m, IPROF_KIND_MONITOR, mon, 1);
    const iprof_entry *es1 = find(m, IPROF_KIND_SAMPLING, sf1, sn1);
    CHECK(ecc && evi && ecd && emo && es1);
    if (ecc && evi && ecd && emo && es1) {
        CHECK(iprof_model_entry_at(m, IPROF_KIND_CALL_COUNT, 1) == ecc);
        CHECK(iprof_model_entry_at(m, IPROF_KIND_CALL_COUNT, 2) == NULL);
        const iprof_context *cc = iprof_entry_context(ecc), *vc = iprof_entry_context(evi);
        /* "4669:0<19551:34" and "3236:11<4669:2<19551:34" share "19551:34". */
        const iprof_context *shared = iprof_context_caller(cc);
        CHECK(shared != NULL);
        CHECK(iprof_context_caller(iprof_context_caller(vc)) == shared);
        CHECK_EQ_STR(ctx_text(shared, buf, sizeof buf), "19551:34");
        /* ...but "4669:2<19551:34" is not "4669:0<19551:34". */
        CHECK(iprof_context_caller(vc) != cc);
        CHECK_EQ_STR(ctx_describe(m, cc, buf, sizeof buf),
                     "java.io.PrintStream.print:0 < Fib.fibonacci:34");
        CHECK_EQ_STR(ctx_describe(m, vc, buf, sizeof buf),
                     "java.lang.String.valueOf:11 < java.io.PrintStream.print:2 < "
                     "Fib.fibonacci:34");
        CHECK_EQ_STR(ctx_describe(m, iprof_entry_context(ecd), buf, sizeof buf),
                     "Fib.fibonacci:11");
        /* The monitor's dummy 0:0: no method 0. */
        CHECK_EQ_STR(ctx_describe(m, iprof_entry_context(emo), buf, sizeof buf), "?0:0");
        CHECK_EQ_STR(ctx_text(iprof_entry_context(emo), buf, sizeof buf), "0:0");
        size_t l;
        const int64_t *r = iprof_entry_records(emo, &l);
        CHECK_EQ_INT(l, N(MON));
        CHECK(r && memcmp(r, MON, sizeof MON) == 0);
        r = iprof_entry_records(ecd, &l);
        CHECK_EQ_INT(l, 6);
        CHECK(r && memcmp(r, rc, sizeof rc) == 0);
        /* The long sampling context: text, depth and the shared caller
         * "19547:9<...": a suffix, so a node of its own. */
        const iprof_context *sc = iprof_entry_context(es1);
        CHECK_EQ_INT(iprof_context_depth(sc), 13);
        CHECK_EQ_STR(ctx_text(sc, buf, sizeof buf), SAMPLE1);
        const iprof_context *sfib = sc;
        for (int i = 0; i < 4 && sfib; i++)
            sfib = iprof_context_caller(sfib);
        CHECK(sfib && iprof_context_method_id(sfib) == 19551 && iprof_context_bci(sfib) == 17);
        CHECK_EQ_STR(ctx_describe(m, sc, buf, sizeof buf),
                     "com.oracle.svm.core.thread.PlatformThreads.sleep:38 < "
                     "java.lang.Thread.sleepNanos0:1 < java.lang.Thread.sleepNanos:33 < "
                     "java.lang.Thread.sleep:25 < Fib.fibonacci:17 < Fib.main:9 < Fib.m19529:10 < "
                     "Fib.m6305:105 < Fib.m5998:67 < Fib.m5941:0 < Fib.m5903:50 < Fib.m2684:23 < "
                     "Fib.m2685:1");
    }
    /* Contexts: 19551:0 | 4669:0<19551:34, 19551:34 | 19551:11 |
     * 3236:11<4669:2<19551:34, 4669:2<19551:34 | 6886:9<6882:23, 6882:23 | 0:0 |
     * 13 + 10 sampling suffixes. */
    CHECK_EQ_INT(iprof_model_context_count(m), 1 + 2 + 1 + 2 + 2 + 1 + 13 + 10);

    /* Combining by kind (iprof_model_add_entry) with the document's values. */
    static const int64_t more_cond[] = {20, 0, 5, 99, 2, 3};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, cd, 1, more_cond, 6));
    ecd = find(m, IPROF_KIND_CONDITIONAL, cd, 1);
    if (ecd) {
        size_t l;
        const int64_t *r = iprof_entry_records(ecd, &l);
        static const int64_t want[] = {20, 0, 15, 53, 1, 1, 99, 2, 3};
        CHECK_EQ_INT(l, 9);
        CHECK(l == 9 && memcmp(r, want, sizeof want) == 0);
    }
    static const int64_t more_vi[] = {1322, 1, 2280, 5};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_VIRTUAL_INVOKE, vi1, 3, more_vi, 4));
    evi = find(m, IPROF_KIND_VIRTUAL_INVOKE, vi1, 3);
    if (evi) {
        size_t l;
        const int64_t *r = iprof_entry_records(evi, &l);
        static const int64_t want[] = {2280, 15, 1322, 1};
        CHECK_EQ_INT(l, 4);
        CHECK(l == 4 && memcmp(r, want, sizeof want) == 0);
    }
    static const int64_t more_cc[] = {INT64_MAX};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, cc2, 2, more_cc, 1));
    ecc = find(m, IPROF_KIND_CALL_COUNT, cc2, 2);
    CHECK(ecc && iprof_entry_records(ecc, NULL)[0] == INT64_MAX);
    /* A new context reuses the interned suffix "19551:34". */
    size_t before = iprof_model_context_count(m);
    static const int64_t fresh[] = {3236, 0, 19551, 34}, one[] = {1};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, fresh, 2, one, 1));
    CHECK_EQ_INT(iprof_model_context_count(m), before + 1);
    iprof_model_free(m);

    /* The whole document written back is byte-identical (it is in GraalVM's
     * 1.0.0 layout). */
    m = load(doc);
    if (m) {
        iprof_writer *w = NULL;
        CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, NULL));
        CHECK_OK(iprof_writer_write_model(w, m));
        const void *out;
        size_t len;
        CHECK_OK(iprof_writer_buffer(w, &out, &len));
        CHECK_EQ_MEM(out, len, doc, strlen(doc));
        iprof_writer_free(w);
        iprof_model_free(m);
    }
    free(doc);
}

/* Unknown ids describe as "?<id>": a lenient load of dangling references. */
static void test_describe_unknown(void)
{
    const char *doc = "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"}],"
                      "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[7,0]},"
                      "{\"id\":2,\"name\":\"<init>\",\"signature\":[0,0]}],"
                      "\"callCountProfiles\":[{\"ctx\":\"2:0<9:4<1:-1\",\"records\":[1]}]}";
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(doc, strlen(doc))));
    CHECK_EQ_INT(read_result(r).diag_count, 2);
    iprof_reader_free(r);
    if (!m)
        return;
    char buf[256];
    const iprof_method *m1 = iprof_model_method_by_id(m, 1);
    CHECK(m1 != NULL);
    if (m1) {
        iprof_model_method_describe(m, m1, buf, sizeof buf);
        CHECK_EQ_STR(buf, "?7.m");
    }
    const iprof_entry *e = iprof_model_entry_at(m, IPROF_KIND_CALL_COUNT, 0);
    CHECK(e != NULL);
    if (e)
        CHECK_EQ_STR(ctx_describe(m, iprof_entry_context(e), buf, sizeof buf),
                     "int.<init>:0 < ?9:4 < ?7.m:-1");
    iprof_model_free(m);
}

int main(void)
{
    RUN(test_minimal);
    RUN(test_even_or_odd);
    RUN(test_fib);
    RUN(test_describe_unknown);
    return check_done();
}
