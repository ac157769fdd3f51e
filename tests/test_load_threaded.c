/*
 * Threaded model loads (IPROF_READ_THREADED) end to end, public API only:
 * every load must give what the same load gives without the flag. For each
 * corpus file (../shared/corpus, skipped when absent) and for generated and
 * embedded documents, the model written to memory gives the same bytes in
 * both modes, and for the corpus files and the generated document the
 * input's own bytes; from a path, a buffer, an fd and a read callback in
 * varied pieces. Failures too: strict-mode rule violations, versions
 * before 0.2.0, truncated input, syntax errors, a read callback failing, an
 * empty ctx: the same status, message, line, column, offset and path in
 * both modes, no model.
 */
#include <iprof/iprof.h>
#include <iprof/stream.h>

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include "check.h"
#include "check_api.h"

#define MAX_FILES 64

/* ---- loading and writing ------------------------------------------------ */

enum { SRC_PATH, SRC_BUFFER, SRC_FD, SRC_CALLBACK };
static const char *const src_names[] = {"path", "buffer", "fd", "callback"};

/* A read function handing out varied pieces (1 .. 5003 bytes), optionally
 * failing once `fail_at` bytes have been handed out. */
typedef struct pieces {
    const char *data;
    size_t len, pos, step, fail_at;
    size_t off_thread; /* calls from a thread other than the main one */
} pieces;

static pthread_t main_thread;

static int read_pieces(void *buf, size_t cap, size_t *len, void *p)
{
    pieces *s = p;
    if (!pthread_equal(pthread_self(), main_thread))
        s->off_thread++;
    if (s->fail_at && s->pos >= s->fail_at)
        return 5;
    size_t n = s->len - s->pos;
    if (n > s->step)
        n = s->step;
    if (n > cap)
        n = cap;
    memcpy(buf, s->data + s->pos, n);
    s->pos += n;
    *len = n;
    s->step = s->step * 7 % 5003 + 1;
    return 0;
}

/* The outcome of one load: status, error report, diagnostics, the model
 * written to memory. */
typedef struct outcome {
    int rc;
    int err_status;
    char message[512], path[256];
    uint64_t line, column, offset;
    size_t diags;
    char *out; /* malloc'd, NULL when the load or the write failed */
    size_t out_len;
    int write_rc;
} outcome;

typedef struct input {
    const char *path;  /* for SRC_PATH and SRC_FD */
    const char *data;  /* for SRC_BUFFER and SRC_CALLBACK */
    size_t len;
    size_t fail_at;    /* SRC_CALLBACK: the read function fails there */
} input;

static outcome load(const input *in, int src, unsigned flags, size_t chunk, unsigned wflags)
{
    outcome o;
    memset(&o, 0, sizeof o);
    iprof_read_options ro = IPROF_READ_OPTIONS_INIT;
    ro.flags = flags;
    ro.chunk_size = chunk;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &ro));
    if (!r) {
        o.rc = -1000;
        return o;
    }
    iprof_model *m = (iprof_model *)1;
    switch (src) {
    case SRC_PATH: o.rc = iprof_model_load(&m, r, SRC_PATH(in->path)); break;
    case SRC_BUFFER: o.rc = iprof_model_load(&m, r, SRC_BUFFER(in->data, in->len)); break;
    case SRC_FD: {
        int fd = open(in->path, O_RDONLY);
        CHECK(fd >= 0);
        o.rc = iprof_model_load(&m, r, SRC_FD(fd));
        if (fd >= 0)
            close(fd);
        break;
    }
    default: {
        pieces p = {in->data, in->len, 0, 1, in->fail_at, 0};
        o.rc = iprof_model_load(&m, r, SRC_CALLBACK(read_pieces, &p));
        CHECK_EQ_INT(p.off_thread, 0); /* the calling thread reads */
    }
    }
    const iprof_error *e = iprof_reader_error(r);
    if (o.rc) {
        CHECK(m == NULL);
        CHECK(e != NULL);
    }
    if (e) {
        o.err_status = err_info(e).status;
        snprintf(o.message, sizeof o.message, "%s", err_info(e).message);
        snprintf(o.path, sizeof o.path, "%s", err_info(e).path);
        o.line = err_info(e).line;
        o.column = err_info(e).column;
        o.offset = err_info(e).offset;
    }
    o.diags = read_result(r).diag_count;
    if (!o.rc && m) {
        iprof_write_options wo = IPROF_WRITE_OPTIONS_INIT;
        wo.flags = wflags;
        iprof_writer *w = NULL;
        CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &wo));
        o.write_rc = iprof_writer_write_model(w, m);
        if (!o.write_rc) {
            const void *data;
            CHECK_OK(iprof_writer_buffer(w, &data, &o.out_len));
            o.out = malloc(o.out_len ? o.out_len : 1);
            memcpy(o.out, data, o.out_len);
        }
        iprof_writer_free(w);
        iprof_model_free(m);
    }
    iprof_reader_free(r);
    return o;
}

static void report(const char *what, const outcome *o)
{
    fprintf(stderr, "   %s: %s (%d): %s at %" PRIu64 ":%" PRIu64 " (offset %" PRIu64 ") path %s\n",
            what, iprof_status_string(o->rc), o->err_status, o->message, o->line, o->column,
            o->offset, o->path);
}

/* Threaded and unthreaded outcomes must be the same in every respect. */
static void check_same(const char *what, const outcome *a, const outcome *b)
{
    int same = a->rc == b->rc && a->err_status == b->err_status && a->line == b->line &&
               a->column == b->column && a->offset == b->offset &&
               strcmp(a->message, b->message) == 0 && strcmp(a->path, b->path) == 0 &&
               a->diags == b->diags && a->write_rc == b->write_rc &&
               (a->out != NULL) == (b->out != NULL) && a->out_len == b->out_len &&
               (!a->out || memcmp(a->out, b->out, a->out_len) == 0);
    if (!same) {
        fprintf(stderr, "   %s: threaded and unthreaded loads differ\n", what);
        report("unthreaded", a);
        report("threaded  ", b);
        fprintf(stderr, "   diags %zu / %zu, write %d / %d, out %zu / %zu bytes\n", a->diags,
                b->diags, a->write_rc, b->write_rc, a->out_len, b->out_len);
    }
    CHECK_EQ_INT(a->rc, b->rc);
    CHECK_EQ_INT(a->err_status, b->err_status);
    CHECK_EQ_STR(a->message, b->message);
    CHECK_EQ_STR(a->path, b->path);
    CHECK_EQ_INT(a->line, b->line);
    CHECK_EQ_INT(a->column, b->column);
    CHECK_EQ_INT(a->offset, b->offset);
    CHECK_EQ_INT(a->diags, b->diags);
    CHECK_EQ_INT(a->write_rc, b->write_rc);
    CHECK(same);
}

static void drop(outcome *o)
{
    free(o->out);
    o->out = NULL;
}

/* Load in = both ways from src; the outcomes must agree. Returns the
 * threaded one (the caller drops it); with `want`, its bytes must be
 * those. */
static outcome both(const char *what, const input *in, int src, unsigned flags, size_t chunk,
                    unsigned wflags, const char *want, size_t want_len)
{
    outcome a = load(in, src, flags, chunk, wflags);
    outcome b = load(in, src, flags | IPROF_READ_THREADED, chunk, wflags);
    char label[512];
    snprintf(label, sizeof label, "%s (%s%s)", what, src_names[src],
             flags & IPROF_READ_STRICT ? ", strict" : "");
    check_same(label, &a, &b);
    if (want) {
        if (!b.out || b.out_len != want_len || memcmp(b.out, want, want_len) != 0) {
            fprintf(stderr, "   %s: the written model is not the input (%zu vs %zu bytes, "
                            "write status %d)\n",
                    label, b.out_len, want_len, b.write_rc);
            report("threaded", &b);
        }
        CHECK(b.out && b.out_len == want_len && memcmp(b.out, want, want_len) == 0);
    }
    drop(&a);
    return b;
}

/* ---- corpus ------------------------------------------------------------- */

static size_t list_corpus(const char *dir, char names[][256])
{
    DIR *d = opendir(dir);
    size_t n = 0;
    if (!d)
        return 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL && n < MAX_FILES) {
        size_t l = strlen(de->d_name);
        if (l > 6 && l < 256 && !strcmp(de->d_name + l - 6, ".iprof"))
            snprintf(names[n++], 256, "%s", de->d_name);
    }
    closedir(d);
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char tmp[256];
            memcpy(tmp, names[j], 256);
            memcpy(names[j], names[j - 1], 256);
            memcpy(names[j - 1], tmp, 256);
        }
    return n;
}

static void test_corpus(void)
{
    const char *dir = check_corpus_dir();
    if (!dir)
        SKIP("corpus folder (IPROF_CORPUS_DIR) absent");
    static char names[MAX_FILES][256];
    size_t n = list_corpus(dir, names);
    CHECK(n >= 7);
    size_t legacy = 0, modern = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        fprintf(stderr, "   %s\n", names[i]);
        size_t len = 0;
        char *orig = check_read_file(path, &len);
        CHECK(orig != NULL);
        if (!orig)
            continue;
        input in = {path, orig, len, 0};
        /* 0.2.0 (the legacy layout) goes the same way as the others. */
        if (strstr(names[i], "0.2.0"))
            legacy++;
        modern++;
        /* The dangling-reference file writes only without validation. */
        int dangling = strstr(names[i], "elidemin") != NULL;
        unsigned wflags = dangling ? IPROF_WRITE_NO_VALIDATE : 0;
        outcome o = both(names[i], &in, SRC_PATH, 0, 0, wflags, orig, len);
        CHECK_OK(o.rc);
        CHECK_EQ_INT(o.diags > 0, dangling);
        drop(&o);
        /* Strict: the dangling file fails, in both modes at the same place. */
        o = both(names[i], &in, SRC_PATH, IPROF_READ_STRICT, 0, wflags, dangling ? NULL : orig,
                 len);
        CHECK_EQ_INT(o.rc != IPROF_OK, dangling);
        drop(&o);
        free(orig);
    }
    CHECK(legacy >= 1);
    CHECK(modern >= 5);
}

/* Every source and small chunks, on one file. */
static void test_corpus_sources(void)
{
    const char *dir = check_corpus_dir();
    if (!dir)
        SKIP("corpus folder (IPROF_CORPUS_DIR) absent");
    char path[4096];
    snprintf(path, sizeof path, "%s/jsonata-cli-0.4.0.iprof", dir);
    size_t len = 0;
    char *orig = check_read_file(path, &len);
    CHECK(orig != NULL);
    if (!orig)
        return;
    input in = {path, orig, len, 0};
    for (int src = SRC_PATH; src <= SRC_CALLBACK; src++) {
        outcome o = both("jsonata-cli-0.4.0.iprof", &in, src, 0, src == SRC_FD ? 4093 : 0, 0,
                         orig, len);
        CHECK_OK(o.rc);
        drop(&o);
    }
    free(orig);
}

/* ---- generated documents ------------------------------------------------ */

static uint64_t rnd(uint64_t *x)
{
    *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
    return *x >> 33;
}

#define GEN_TYPES 1500
#define GEN_METHODS 20000
#define GEN_ENTRIES 1500 /* per kind but monitors */

/* GraalVM's 1.1.0 layout, minified, so that the model writes back the same
 * bytes (with GraalVM 25's instanceOfProfiles and two unknown top-level
 * keys, one bigger than a batch): many batches of events, names with
 * escapes (NUL included),
 * contexts from 1 to 300 frames deep, an entry and a
 * signature bigger than a batch (128 KiB). With `bad_at`, the entry of
 * that number (in the conditional profiles) names a method that does not
 * exist: a violation that strict reads refuse. */
static char *gen_doc(size_t *len, long bad_at)
{
    check_text t = {0};
    uint64_t x = 4242;
#define RND() rnd(&x)
    tx_add(&t, "{\"version\":\"1.1.0\",\"types\":[");
    for (int i = 0; i < GEN_TYPES; i++)
        tx_add(&t, "%s{\"id\":%d,\"name\":\"pkg%d.T%d%s\"}", i ? "," : "", i, i % 13, i,
               i % 11 == 0 ? "$\\\"q" : i % 17 == 0 ? "\\u0000x" : "");
    tx_add(&t, "],\"methods\":[");
    for (int i = 0; i < GEN_METHODS; i++) {
        tx_add(&t, "%s{\"id\":%d,\"name\":\"m%d%s\",\"signature\":[", i ? "," : "", i + 1,
               i % 700, i % 301 == 0 ? "\\\\" : "");
        if (i == 777) {
            /* 17000 ids: 136000 bytes as an event */
            for (int j = 0; j < 17000; j++)
                tx_add(&t, "%s%d", j ? "," : "", j % GEN_TYPES);
        } else {
            int np = 2 + (int)(RND() % 4);
            for (int j = 0; j < np; j++)
                tx_add(&t, "%s%d", j ? "," : "", (int)(RND() % GEN_TYPES));
        }
        tx_add(&t, "]}");
    }
    tx_add(&t, "]");
    static const char *const keys[] = {"callCountProfiles", "conditionalProfiles",
                                       "virtualInvokeProfiles", "monitorProfiles",
                                       "samplingProfiles", "instanceOfProfiles"};
    for (int k = 0; k < 6; k++) {
        tx_add(&t, ",\"%s\":[", keys[k]);
        int count = k == 3 ? 1 : GEN_ENTRIES;
        for (int e = 0; e < count; e++) {
            tx_add(&t, "%s{\"ctx\":\"", e ? "," : "");
            if (k == 3) { /* the one monitor entry */
                tx_add(&t, "0:0\",\"records\":[3,100,7,2]}");
                continue;
            }
            int depth = 1 + (int)(RND() % (k == 4 ? 70 : 8));
            if (e % 400 == 13)
                depth = 300;
            /* Distinct contexts per kind: the entry number is in the first
             * frame's bci (for call counts, in its method). */
            int first = k == 0 ? 1 + e : 1 + (int)(RND() % GEN_METHODS);
            if (k == 1 && e == bad_at)
                first = GEN_METHODS + 5;
            tx_add(&t, "%d:%d", first, k == 0 ? 0 : e);
            for (int d = 1; d < depth; d++)
                tx_add(&t, "<%d:%d", 1 + (int)((depth - d) * 13 % 40), d % 3 == 0 ? -1 : d * 5);
            tx_add(&t, "\",\"records\":[");
            if (k == 0 || k == 4) {
                tx_add(&t, "%llu", (unsigned long long)RND() * 1000ULL);
            } else if (k == 1) {
                int n = (int)(RND() % 4);
                for (int j = 0; j < n; j++)
                    tx_add(&t, "%s%d,%d,%llu", j ? "," : "", (int)(RND() % 100) - 1, j,
                           (unsigned long long)RND());
            } else {
                /* The first instanceof entry: 10000 pairs, 160000 bytes as
                 * an event. */
                int n = k == 5 && e == 0 ? 10000 : (int)(RND() % 5);
                for (int j = 0; j < n; j++)
                    tx_add(&t, "%s%d,%llu", j ? "," : "", (j * 37 + e) % GEN_TYPES,
                           (unsigned long long)RND() % 100000);
            }
            tx_add(&t, "]}");
        }
        tx_add(&t, "]");
        /* Keys the library keeps as they are, arriving while the builder
         * thread works: one larger than a batch, one empty. */
        if (k == 1) {
            tx_add(&t, ",\"ceConditionalProfilesV2\":[");
            for (int e = 0; e < 6000; e++)
                tx_add(&t, "%s{\"ctx\":\"%d:%d\",\"records\":[1,0,%d]}", e ? "," : "",
                       1 + e % GEN_METHODS, e, e);
            tx_add(&t, "]");
        } else if (k == 4) {
            tx_add(&t, ",\"virtualInvokeMethodProfiles\":[]");
        }
    }
    tx_add(&t, "}");
#undef RND
    *len = t.len;
    return t.s;
}

static char *gen_data;
static size_t gen_len;

static void test_generated(void)
{
    fprintf(stderr, "   generated document: %zu bytes\n", gen_len);
    input in = {NULL, gen_data, gen_len, 0};
    for (int strict = 0; strict < 2; strict++)
        for (int src = SRC_BUFFER; src <= SRC_CALLBACK; src += SRC_CALLBACK - SRC_BUFFER) {
            outcome o = both("generated", &in, src, strict ? IPROF_READ_STRICT : 0, 0, 0,
                             gen_data, gen_len);
            CHECK_OK(o.rc);
            CHECK_EQ_INT(o.diags, 2); /* the warnings of the two unknown keys */
            drop(&o);
        }
    /* A file source too, with small chunks. */
    char path[4200];
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/test_load_threaded_%ld.iprof", tmp && *tmp ? tmp : "/tmp",
             (long)getpid());
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ_INT(fwrite(gen_data, 1, gen_len, f), gen_len);
        fclose(f);
        input pin = {path, NULL, 0, 0};
        outcome o = both("generated", &pin, SRC_PATH, 0, 1000, 0, gen_data, gen_len);
        CHECK_OK(o.rc);
        drop(&o);
        o = both("generated", &pin, SRC_FD, 0, 65536, 0, gen_data, gen_len);
        CHECK_OK(o.rc);
        drop(&o);
        unlink(path);
    }
    /* Repeated threaded loads give the same bytes every time. */
    for (int i = 0; i < 4; i++) {
        outcome o = load(&in, SRC_BUFFER, IPROF_READ_THREADED, 0, 0);
        CHECK_OK(o.rc);
        CHECK(o.out && o.out_len == gen_len && memcmp(o.out, gen_data, gen_len) == 0);
        drop(&o);
    }
}

/* A strict failure deep into the file (after many batches were handed to
 * the builder thread): the same error in both modes. Lenient, the same
 * document loads in both modes with the same diagnostics and bytes. */
static void test_strict_failure(void)
{
    static const long bad[] = {0, 900, GEN_ENTRIES - 1};
    for (size_t i = 0; i < 3; i++) {
        size_t len;
        char *doc = gen_doc(&len, bad[i]);
        input in = {NULL, doc, len, 0};
        for (int src = SRC_BUFFER; src <= SRC_CALLBACK; src += SRC_CALLBACK - SRC_BUFFER) {
            outcome o = both("dangling method", &in, src, IPROF_READ_STRICT, 0, 0, NULL, 0);
            CHECK(o.rc != IPROF_OK);
            CHECK(o.line == 1 && o.column > 1);
            char want[64];
            snprintf(want, sizeof want, "conditionalProfiles[%ld]", bad[i]);
            CHECK(strncmp(o.path, want, strlen(want)) == 0);
            if (i == 1)
                report("strict failure", &o);
            drop(&o);
            if (i == 1) {
                o = both("dangling method", &in, src, 0, 0, IPROF_WRITE_NO_VALIDATE, doc, len);
                CHECK_OK(o.rc);
                CHECK_EQ_INT(o.diags, 3);
                drop(&o);
            }
        }
        free(doc);
    }
}

/* Input cut short, and a read callback that fails, at many places: the
 * same failure in both modes. */
static void test_truncated(void)
{
    static const size_t cuts[] = {0, 1, 2, 10, 27, 100, 1000, 65536, 131072, 131073, 500000};
    size_t ncuts = sizeof cuts / sizeof cuts[0];
    for (size_t i = 0; i < ncuts + 12; i++) {
        size_t cut = i < ncuts ? cuts[i]
                   : i < ncuts + 8 ? gen_len / 8 * (i - ncuts) + 7 * i
                   : gen_len - (i - ncuts - 8) - 1; /* the last 4 bytes */
        if (cut >= gen_len)
            continue;
        input in = {NULL, gen_data, cut, 0};
        char what[64];
        snprintf(what, sizeof what, "cut at %zu", cut);
        int src = i % 2 ? SRC_CALLBACK : SRC_BUFFER;
        outcome o = both(what, &in, src, 0, 0, 0, NULL, 0);
        CHECK(o.rc != IPROF_OK);
        CHECK(o.out == NULL);
        drop(&o);
        if (i % 3)
            continue;
        /* The read function failing there instead. */
        input fin = {NULL, gen_data, gen_len, cut ? cut : 1};
        snprintf(what, sizeof what, "read failure at %zu", cut);
        o = both(what, &fin, SRC_CALLBACK, 0, 0, 0, NULL, 0);
        CHECK(o.rc != IPROF_OK);
        drop(&o);
    }
}

/* ---- embedded documents ------------------------------------------------- */

static const char *const embedded[] = {
    /* empty */
    "{\"version\":\"1.1.0\",\"types\":[],\"methods\":[],\"callCountProfiles\":[],"
    "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
    "\"samplingProfiles\":[],\"instanceofProfiles\":[]}",
    /* one of each */
    "{\"version\":\"1.1.0\",\"types\":[{\"id\":0,\"name\":\"void\"},{\"id\":1,\"name\":\"\"}],"
    "\"methods\":[{\"id\":1,\"name\":\"main\",\"signature\":[0,0,1]},"
    "{\"id\":2,\"name\":\"\",\"signature\":[1,1]}],"
    "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[5]}],"
    "\"conditionalProfiles\":[{\"ctx\":\"2:3<1:0\",\"records\":[-1,0,7]}],"
    "\"virtualInvokeProfiles\":[{\"ctx\":\"2:4<1:0\",\"records\":[1,3]}],"
    "\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[0,2]}],"
    "\"samplingProfiles\":[{\"ctx\":\"2:3<1:0\",\"records\":[99]}],"
    "\"instanceofProfiles\":[{\"ctx\":\"1:8\",\"records\":[]}]}",
    /* duplicates, which lenient reads keep */
    "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"void\"},{\"id\":0,\"name\":\"void\"}],"
    "\"methods\":[{\"id\":1,\"name\":\"main\",\"signature\":[0,0]},"
    "{\"id\":1,\"name\":\"main\",\"signature\":[0,0]}],"
    "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[5]},{\"ctx\":\"1:0\",\"records\":[6]}],"
    "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
    "\"samplingProfiles\":[]}",
    /* an empty ctx */
    "{\"version\":\"1.1.0\",\"types\":[{\"id\":0,\"name\":\"void\"}],"
    "\"methods\":[{\"id\":1,\"name\":\"main\",\"signature\":[0,0]}],"
    "\"callCountProfiles\":[{\"ctx\":\"\",\"records\":[5]}],"
    "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
    "\"samplingProfiles\":[],\"instanceofProfiles\":[]}",
    /* a syntax error after a few elements */
    "{\"version\":\"1.1.0\",\"types\":[{\"id\":0,\"name\":\"void\"}],"
    "\"methods\":[{\"id\":1,\"name\":\"main\",\"signature\":[0,0]},}",
    /* not even JSON */
    "",
    "{",
    "{\"version\":\"1.1.0\"}",
    /* empty names and an empty signature: lenient only */
    "{\"version\":\"1.1.0\",\"types\":[{\"id\":0,\"name\":\"\"}],"
    "\"methods\":[{\"id\":1,\"name\":\"\",\"signature\":[]}],"
    "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[5]}],"
    "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
    "\"samplingProfiles\":[],\"instanceofProfiles\":[]}",
    /* a 0.2.0 document (GraalVM's legacy layout) and a version older still */
    "{\n  \"version\": \"0.2.0\",\n  \"types\": [\n    { \"id\": 0, \"typeName\": \"void\" }\n  ],\n"
    "  \"methods\": [\n    { \"id\": 1, \"methodName\": \"main\", \"signature\": [ 0, 0 ] }\n  ],\n"
    "  \"hotnessPoints\": [\n    { \"methodBciList\": \"1:0\", \"records\": [ 5 ] }\n  ],\n"
    "  \"conditionalPoints\": [\n\n  ],\n  \"invokePoints\": [\n\n  ],\n"
    "  \"monitorsProfile\": {\n    \"records\": [ 0, 2 ] \n  }\n}",
    "{\"version\":\"0.1.0\",\"types\":[],\"methods\":[]}",
};

static void test_embedded(void)
{
    for (size_t i = 0; i < sizeof embedded / sizeof embedded[0]; i++) {
        input in = {NULL, embedded[i], strlen(embedded[i]), 0};
        char what[64];
        snprintf(what, sizeof what, "embedded document %zu", i);
        for (int strict = 0; strict < 2; strict++)
            for (int src = SRC_BUFFER; src <= SRC_CALLBACK; src += SRC_CALLBACK - SRC_BUFFER) {
                /* Documents 0 and 1 are in GraalVM's layout: same bytes. */
                outcome o = both(what, &in, src, strict ? IPROF_READ_STRICT : 0, 0,
                                 IPROF_WRITE_NO_VALIDATE, i < 2 ? in.data : NULL, in.len);
                if (i < 2)
                    CHECK_OK(o.rc);
                if (i == 2)
                    CHECK_EQ_INT(o.rc != IPROF_OK, strict);
                if (i == 3 || i == 4 || i == 5 || i == 6)
                    CHECK(o.rc != IPROF_OK);
                if (i == 2 && !strict) {
                    CHECK_EQ_INT(o.rc, IPROF_OK);
                    CHECK(o.out && strstr(o.out, "{\"ctx\":\"1:0\",\"records\":[6]}") != NULL);
                }
                if (i == 3 && !strict)
                    report("empty ctx", &o);
                if (i == 8) {
                    CHECK_EQ_INT(o.rc != IPROF_OK, strict);
                    if (!strict)
                        CHECK(o.out && o.out_len == in.len && !memcmp(o.out, in.data, in.len));
                }
                drop(&o);
            }
    }
}

/* ---- streaming reads ignore the flag ------------------------------------ */

typedef struct tally {
    size_t types, methods, entries[IPROF_KIND_COUNT], off_thread;
    uint64_t sum;
} tally;

static void tally_at(tally *t, int64_t v)
{
    t->sum = t->sum * 31 + (uint64_t)v;
    if (!pthread_equal(pthread_self(), main_thread))
        t->off_thread++;
}

static int t_type(int64_t id, const char *name, size_t len, void *p)
{
    tally *t = p;
    t->types++;
    tally_at(t, id + (int64_t)len + (len ? name[0] : 0));
    return 0;
}

static int t_method(int64_t id, const char *name, size_t len, const int64_t *sig, size_t sl,
                    void *p)
{
    tally *t = p;
    t->methods++;
    tally_at(t, id + (int64_t)len + (len ? name[0] : 0) + (int64_t)sl + (sl ? sig[0] : 0));
    return 0;
}

static int t_entry(int kind, const int64_t *f, size_t fc, const int64_t *r, size_t rc, void *p)
{
    tally *t = p;
    t->entries[kind]++;
    tally_at(t, kind + (int64_t)fc + f[0] + f[2 * fc - 1] + (int64_t)rc + (rc ? r[rc - 1] : 0));
    return 0;
}

static void test_streaming(void)
{
    iprof_read_callbacks cb = IPROF_READ_CALLBACKS_INIT;
    cb.on_type = t_type;
    cb.on_method = t_method;
    cb.on_call_count = cb.on_conditional = cb.on_virtual_invoke = cb.on_monitor =
        cb.on_sampling = cb.on_instanceof = t_entry;
    tally got[2];
    for (int threaded = 0; threaded < 2; threaded++) {
        iprof_read_options ro = IPROF_READ_OPTIONS_INIT;
        ro.flags = threaded ? IPROF_READ_THREADED : 0;
        iprof_reader *r = NULL;
        CHECK_OK(iprof_reader_new(&r, &ro));
        memset(&got[threaded], 0, sizeof got[threaded]);
        CHECK_OK(iprof_reader_read(r, SRC_BUFFER(gen_data, gen_len), &cb, &got[threaded]));
        iprof_reader_free(r);
    }
    CHECK_EQ_INT(got[0].types, GEN_TYPES);
    CHECK_EQ_INT(got[0].methods, GEN_METHODS);
    CHECK_EQ_INT(got[0].entries[IPROF_KIND_MONITOR], 1);
    CHECK_EQ_INT(got[0].entries[IPROF_KIND_CALL_COUNT], GEN_ENTRIES);
    CHECK(memcmp(&got[0], &got[1], sizeof got[0]) == 0);
    CHECK_EQ_INT(got[1].off_thread, 0);
}

int main(void)
{
    main_thread = pthread_self();
    gen_data = gen_doc(&gen_len, -1);
    RUN(test_corpus);
    RUN(test_corpus_sources);
    RUN(test_generated);
    RUN(test_strict_failure);
    RUN(test_truncated);
    RUN(test_embedded);
    RUN(test_streaming);
    free(gen_data);
    return check_done();
}
