/*
 * Allocation failure in threaded loads (IPROF_READ_THREADED), where the
 * reading thread and the building thread both allocate: through a
 * thread-safe allocator (check_alloc_mt.h), fail the Nth allocation (only
 * it, or it and every later one) of a threaded load for N = 1, 2, ...
 * until a load needs no failure. Every load must end with IPROF_ENOMEM
 * (also in the reader's error) or IPROF_OK, free every byte, and the load
 * that succeeds must write the bytes of an unthreaded load. On a corpus
 * file (skipped, saying so, when the corpus is absent) and on a generated
 * document of a few dozen batches.
 */
#include <iprof/iprof.h>

#include "check.h"
#include "check_api.h"
#include "check_alloc_mt.h"

/* The model of a load, written to malloc'd memory; NULL if the write
 * failed. */
static char *write_model(const iprof_model *m, size_t *len)
{
    iprof_write_options wo = IPROF_WRITE_OPTIONS_INIT;
    wo.flags = IPROF_WRITE_NO_VALIDATE;
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &wo));
    char *out = NULL;
    if (w && iprof_writer_write_model(w, m) == IPROF_OK) {
        const void *data;
        CHECK_OK(iprof_writer_buffer(w, &data, len));
        out = malloc(*len ? *len : 1);
        memcpy(out, data, *len);
    }
    iprof_writer_free(w);
    return out;
}

/* One load of data (a path when path is set) through a; the written model
 * when it succeeds. *in_builder (unless NULL) is set when the load failed
 * in the building thread, as the reader's message says. */
static int load(const char *path, const char *data, size_t len, unsigned flags,
                iprof_allocator *a, char **out, size_t *out_len, int *in_builder)
{
    iprof_read_options ro = IPROF_READ_OPTIONS_INIT;
    ro.flags = flags;
    ro.allocator = a;
    ro.chunk_size = 64 * 1024;
    iprof_reader *r = NULL;
    int rc = iprof_reader_new(&r, &ro);
    iprof_model *m = (iprof_model *)1;
    *out = NULL;
    if (!rc) {
        rc = path ? iprof_model_load(&m, r, SRC_PATH(path)) : iprof_model_load(&m, r, SRC_BUFFER(data, len));
        if (rc) {
            CHECK(m == NULL);
            const iprof_error *e = iprof_reader_error(r);
            CHECK(e != NULL);
            if (e && err_info(e).status != rc) {
                fprintf(stderr, "   status %d, reader error %d: %s\n", rc, err_info(e).status,
                        err_info(e).message);
                CHECK(0);
            }
            if (in_builder && e)
                *in_builder = !strcmp(err_info(e).message, "out of memory building the model");
        } else {
            *out = write_model(m, out_len);
            CHECK(*out != NULL);
            iprof_model_free(m);
        }
    }
    iprof_reader_free(r);
    return rc;
}

/* A threaded load whose Nth allocation fails (only it, or every one from
 * it on): IPROF_ENOMEM (also in the reader's error), or IPROF_OK and the
 * bytes of an unthreaded load; every byte freed. */
typedef struct load_sweep {
    const char *path, *data;
    size_t len;
    const char *want;
    size_t want_len;
    int mode;         /* MT_FAIL_ONLY or MT_FAIL_FROM */
    int builder_msgs; /* failures the building thread reported */
} load_sweep;

static int load_failing(long n, void *arg)
{
    load_sweep *w = arg;
    mt_alloc c;
    mt_init(&c, w->mode, n);
    iprof_allocator a = mt_hook(&c);
    char *got = NULL;
    size_t got_len = 0;
    int in_builder = 0;
    int rc = load(w->path, w->data, w->len, IPROF_READ_THREADED, &a, &got, &got_len, &in_builder);
    w->builder_msgs += in_builder;
    int how = mt_outcome(&c);
    if (how == MT_RUN_ENOMEM) { /* a failure to report; a failed shrink is as if none */
        if (rc != IPROF_ENOMEM)
            fprintf(stderr, "   allocation %ld: status %d\n", n, rc);
        CHECK_EQ_INT(rc, IPROF_ENOMEM);
    } else {
        CHECK_OK(rc);
        CHECK(got && got_len == w->want_len && memcmp(got, w->want, w->want_len) == 0);
    }
    mt_check_freed(&c, n);
    free(got);
    return how;
}

static void fail_each(const char *what, const char *path, const char *data, size_t len)
{
    char *want = NULL;
    size_t want_len = 0;
    mt_alloc plain;
    mt_init(&plain, MT_FAIL_NONE, 0);
    iprof_allocator pa = mt_hook(&plain);
    CHECK_OK(load(path, data, len, 0, &pa, &want, &want_len, NULL));
    long unthreaded = atomic_load(&plain.count);
    mt_init(&plain, MT_FAIL_NONE, 0);
    char *got = NULL;
    size_t got_len = 0;
    CHECK_OK(load(path, data, len, IPROF_READ_THREADED, &pa, &got, &got_len, NULL));
    CHECK(want && got && got_len == want_len && memcmp(got, want, want_len) == 0);
    free(got);
    fprintf(stderr, "   %s: %ld allocations unthreaded, %ld threaded\n", what, unthreaded,
            (long)atomic_load(&plain.count));
    CHECK_EQ_INT(atomic_load(&plain.live_bytes), 0);

    /* The flag takes effect: threaded, the model is built (so allocates) on
     * another thread; unthreaded, everything happens on this one. */
    for (int threaded = 0; threaded < 2; threaded++) {
        mt_init(&plain, MT_FAIL_NONE, 0);
        mt_spare_this_thread(&plain); /* count the other threads' calls only */
        CHECK_OK(load(path, data, len, threaded ? IPROF_READ_THREADED : 0, &pa, &got, &got_len, NULL));
        CHECK(got && got_len == want_len && memcmp(got, want, want_len) == 0);
        free(got);
        long others = atomic_load(&plain.count);
        if (threaded)
            CHECK(others > 10);
        else
            CHECK_EQ_INT(others, 0);
    }
    /* A document that fits in one batch is built without a thread. */
    static const char small[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"void\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"main\",\"signature\":[0,0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[5]}],"
        "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
        "\"samplingProfiles\":[]}";
    mt_init(&plain, MT_FAIL_NONE, 0);
    mt_spare_this_thread(&plain);
    CHECK_OK(load(NULL, small, sizeof small - 1, IPROF_READ_THREADED, &pa, &got, &got_len, NULL));
    CHECK(got && got_len == sizeof small - 1 && memcmp(got, small, got_len) == 0);
    free(got);
    CHECK_EQ_INT(atomic_load(&plain.count), 0);

    for (int mode = MT_FAIL_ONLY; mode <= MT_FAIL_FROM; mode++) {
        load_sweep w = {path, data, len, want, want_len, mode, 0};
        char label[300];
        snprintf(label, sizeof label, "%s, fail %s", what,
                 mode == MT_FAIL_ONLY ? "only the Nth" : "from the Nth on");
        mt_sweep(label, load_failing, &w);
        fprintf(stderr, "   (%d of them in the builder)\n", w.builder_msgs);
        CHECK(w.builder_msgs >= 1);
    }
    free(want);
}

static void test_corpus_file(void)
{
    const char *dir = check_corpus_dir();
    if (!dir)
        SKIP("corpus folder (IPROF_CORPUS_DIR) absent");
    char path[4096];
    snprintf(path, sizeof path, "%s/elidemin-jspy-placeholders-1.0.0.iprof", dir);
    fail_each("elidemin-jspy-placeholders-1.0.0.iprof", path, NULL, 0);
}

/* About 40 batches of events: methods with repeating names, entries with
 * shared callers. */
static void test_generated(void)
{
    check_text t = {0};
    tx_add(&t, "{\"version\":\"1.0.0\",\"types\":[");
    for (int i = 0; i < 500; i++)
        tx_add(&t, "%s{\"id\":%d,\"name\":\"T%d\"}", i ? "," : "", i, i);
    tx_add(&t, "],\"methods\":[");
    for (int i = 0; i < 30000; i++)
        tx_add(&t, "%s{\"id\":%d,\"name\":\"m%d\",\"signature\":[%d,%d]}", i ? "," : "", i + 1,
               i % 900, i % 500, (i * 7) % 500);
    tx_add(&t, "],\"callCountProfiles\":[");
    for (int i = 0; i < 20000; i++) {
        tx_add(&t, "%s{\"ctx\":\"%d:%d", i ? "," : "", 1 + i % 30000, i / 30000);
        for (int d = 1; d < 1 + i % 12; d++)
            tx_add(&t, "<%d:%d", 1 + d * 17, d);
        tx_add(&t, "\",\"records\":[%d]}", i);
    }
    tx_add(&t, "],\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
               "\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    fail_each("generated", NULL, t.s, t.len);
    free(t.s);
}

int main(void)
{
    RUN(test_corpus_file);
    RUN(test_generated);
    return check_done();
}
