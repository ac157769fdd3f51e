/*
 * Threads: the library has no global state, so separate handles work at
 * once from separate threads, and a loaded model that nobody mutates can
 * be read from many threads at once. Compares every concurrent result with
 * the single-threaded one. Public API only.
 *
 * Documents: a generated 1.1.0 document (always) and, when the corpus
 * folder is present, jsonata-cli-0.4.0.iprof.
 */
#include <iprof/iprof.h>
#include <iprof/stream.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>

#include "check.h"
#include "check_api.h"

#define NTHREADS 4
#define ROUNDS 3

/* check.h's counters are not thread-safe: threads only compute results;
 * the main thread checks them. */

/* ---- FNV-1a fingerprints ------------------------------------------------- */

static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static uint64_t fnv_i64(uint64_t h, int64_t v)
{
    return fnv(h, &v, sizeof v);
}

#define FNV0 0xcbf29ce484222325ULL

/* ---- generated document --------------------------------------------------- */

#define GEN_TYPES 300
#define GEN_METHODS 900

static uint64_t rnd(uint64_t *x)
{
    *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
    return *x >> 33;
}

/* GraalVM 1.1.0 layout, minified: written back byte for byte. */
static char *gen_doc(size_t *len)
{
    check_text t = {0};
    uint64_t x = 12345;
#define RND() rnd(&x)
    tx_add(&t, "{\"version\":\"1.1.0\",\"types\":[");
    for (int i = 0; i < GEN_TYPES; i++)
        tx_add(&t, "%s{\"id\":%d,\"name\":\"pkg%d.T%d%s\"}", i ? "," : "", i * 3, i % 7, i,
               i % 11 == 0 ? "$\\\"q" : "");
    tx_add(&t, "],\"methods\":[");
    for (int i = 0; i < GEN_METHODS; i++) {
        int np = (int)(RND() % 4);
        tx_add(&t, "%s{\"id\":%d,\"name\":\"m%d\",\"signature\":[%d,%d", i ? "," : "", i + 1,
               i % 50, (int)(RND() % GEN_TYPES) * 3, (int)(RND() % GEN_TYPES) * 3);
        for (int j = 0; j < np; j++)
            tx_add(&t, ",%d", (int)(RND() % GEN_TYPES) * 3);
        tx_add(&t, "]}");
    }
    tx_add(&t, "]");
    static const char *const keys[] = {"callCountProfiles", "conditionalProfiles",
                                       "virtualInvokeProfiles", "monitorProfiles",
                                       "samplingProfiles", "instanceofProfiles"};
    for (int k = 0; k < 6; k++) {
        tx_add(&t, ",\"%s\":[", keys[k]);
        int count = k == 3 ? 1 : 400;
        for (int e = 0; e < count; e++) {
            tx_add(&t, "%s{\"ctx\":\"", e ? "," : "");
            if (k == 3) {
                tx_add(&t, "0:0");
            } else {
                /* Distinct contexts: the entry number is encoded in the
                 * first frame's bci (or, for call counts, in its method). */
                int depth = 1 + (int)(RND() % (k == 4 ? 20 : 5));
                int first = k == 0 ? 1 + e : 1 + (int)(RND() % GEN_METHODS);
                tx_add(&t, "%d:%d", first, k == 0 ? 0 : e);
                for (int d = 1; d < depth; d++)
                    tx_add(&t, "<%d:%d", 1 + (int)((e + d * 13) % 40), d % 3 == 0 ? -1 : d * 5);
            }
            tx_add(&t, "\",\"records\":[");
            if (k == 0 || k == 4) {
                tx_add(&t, "%llu", (unsigned long long)RND() * 1000ULL);
            } else if (k == 1) {
                int n = (int)(RND() % 4);
                for (int j = 0; j < n; j++)
                    tx_add(&t, "%s%d,%d,%llu", j ? "," : "", (int)(RND() % 100) - 1, j,
                           (unsigned long long)RND());
            } else {
                int n = k == 3 ? 50 : (int)(RND() % 5);
                for (int j = 0; j < n; j++)
                    tx_add(&t, "%s%d,%llu", j ? "," : "", ((j * 37 + e) % GEN_TYPES) * 3,
                           (unsigned long long)RND() % 100000);
            }
            tx_add(&t, "]}");
        }
        tx_add(&t, "]");
    }
    tx_add(&t, "}");
#undef RND
    *len = t.len;
    return t.s;
}

/* ---- work of one thread: own handles -------------------------------------- */

typedef struct job {
    const char *data;
    size_t len;
    const char *path; /* NULL: read data from memory */
    /* results */
    int rc;
    uint64_t out_hash;
    size_t out_len;
    uint64_t stream_hash;
    size_t entries[IPROF_KIND_COUNT];
} job;

static int count_entry(int kind, const int64_t *f, size_t fc, const int64_t *r, size_t rc,
                       void *p)
{
    job *j = p;
    if (kind < 0 || kind >= IPROF_KIND_COUNT)
        return 1;
    j->entries[kind]++;
    j->stream_hash = fnv_i64(j->stream_hash, kind);
    j->stream_hash = fnv(j->stream_hash, f, fc * 2 * sizeof *f);
    j->stream_hash = fnv(j->stream_hash, r, rc * sizeof *r);
    return 0;
}

static int count_type(int64_t id, const char *name, size_t len, void *p)
{
    job *j = p;
    j->stream_hash = fnv(fnv_i64(j->stream_hash, id), name, len);
    return 0;
}

static void *work(void *arg)
{
    job *j = arg;
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    iprof_writer *w = NULL;
    j->stream_hash = FNV0;
    memset(j->entries, 0, sizeof j->entries);
    j->rc = iprof_reader_new(&r, NULL);
    if (j->rc)
        return NULL;
    iprof_read_callbacks cb = IPROF_READ_CALLBACKS_INIT;
    cb.on_type = count_type;
    cb.on_call_count = cb.on_conditional = cb.on_virtual_invoke = cb.on_monitor =
        cb.on_sampling = cb.on_instanceof = count_entry;
    j->rc = j->path ? iprof_reader_read(r, SRC_PATH(j->path), &cb, j)
                    : iprof_reader_read(r, SRC_BUFFER(j->data, j->len), &cb, j);
    if (j->rc)
        goto done;
    j->rc = j->path ? iprof_model_load(&m, r, SRC_PATH(j->path))
                    : iprof_model_load(&m, r, SRC_BUFFER(j->data, j->len));
    if (j->rc)
        goto done;
    j->rc = iprof_writer_new(&w, SINK_BUFFER, NULL);
    if (j->rc)
        goto done;
    j->rc = iprof_writer_write_model(w, m);
    if (j->rc)
        goto done;
    const void *out;
    j->rc = iprof_writer_buffer(w, &out, &j->out_len);
    if (j->rc)
        goto done;
    j->out_hash = fnv(FNV0, out, j->out_len);
done:
    iprof_writer_free(w);
    iprof_model_free(m);
    iprof_reader_free(r);
    return NULL;
}

static void check_same_job(const job *a, const job *b)
{
    CHECK_EQ_INT(a->rc, b->rc);
    CHECK_EQ_INT(a->out_len, b->out_len);
    CHECK(a->out_hash == b->out_hash);
    CHECK(a->stream_hash == b->stream_hash);
    CHECK(memcmp(a->entries, b->entries, sizeof a->entries) == 0);
}

static char *gen_data;
static size_t gen_len;
static char corpus_path[4096];

static void test_own_handles(void)
{
    job base[2];
    memset(base, 0, sizeof base);
    base[0].data = gen_data;
    base[0].len = gen_len;
    int have_corpus = corpus_path[0] != '\0';
    if (have_corpus)
        base[1].path = corpus_path;
    else {
        fprintf(stderr, "   corpus folder absent: generated document only\n");
        base[1] = base[0];
    }
    work(&base[0]);
    work(&base[1]);
    CHECK_OK(base[0].rc);
    CHECK_OK(base[1].rc);
    /* The generated document is in GraalVM's layout: same bytes back. */
    CHECK_EQ_INT(base[0].out_len, gen_len);
    CHECK(base[0].out_hash == fnv(FNV0, gen_data, gen_len));
    CHECK_EQ_INT(base[0].entries[IPROF_KIND_CALL_COUNT], 400);
    CHECK_EQ_INT(base[0].entries[IPROF_KIND_MONITOR], 1);
    CHECK_EQ_INT(base[0].entries[IPROF_KIND_INSTANCEOF], 400);

    for (int round = 0; round < ROUNDS; round++) {
        pthread_t th[NTHREADS];
        job jobs[NTHREADS];
        for (int i = 0; i < NTHREADS; i++) {
            jobs[i] = base[i % 2];
            jobs[i].rc = -1000;
            CHECK_EQ_INT(pthread_create(&th[i], NULL, work, &jobs[i]), 0);
        }
        for (int i = 0; i < NTHREADS; i++)
            CHECK_EQ_INT(pthread_join(th[i], NULL), 0);
        for (int i = 0; i < NTHREADS; i++)
            check_same_job(&jobs[i], &base[i % 2]);
    }
}

/* ---- many threads reading one model --------------------------------------- */

typedef struct reading {
    const iprof_model *m;
    uint64_t hash;
    size_t mismatches; /* lookups that did not give back the element */
} reading;

static int fe_type(const iprof_type *t, void *p)
{
    reading *r = p;
    size_t len;
    const char *name = iprof_type_name(t, &len);
    r->hash = fnv(fnv_i64(r->hash, iprof_type_id(t)), name, len);
    return 0;
}

static int fe_entry(const iprof_entry *e, void *p)
{
    reading *r = p;
    r->hash = fnv_i64(r->hash, (int64_t)(uintptr_t)e);
    return 0;
}

static void *read_model(void *arg)
{
    reading *r = arg;
    const iprof_model *m = r->m;
    char buf[4096];
    int64_t frames[2 * 256];
    r->hash = FNV0;
    r->mismatches = 0;
    r->hash = fnv(r->hash, iprof_model_version(m), strlen(iprof_model_version(m)));
    size_t nt = iprof_model_type_count(m);
    for (size_t i = 0; i < nt; i++) {
        const iprof_type *t = iprof_model_type_at(m, i);
        size_t len;
        const char *name = iprof_type_name(t, &len);
        if (iprof_model_type_by_id(m, iprof_type_id(t)) != t)
            r->mismatches++;
        const iprof_type *byname = iprof_model_type_by_name(m, name, len);
        if (!byname || strcmp(iprof_type_name(byname, NULL), name) != 0)
            r->mismatches++;
        r->hash = fnv(fnv_i64(r->hash, iprof_type_id(t)), name, len);
    }
    /* A second walk over the types, as a caller iterating by index does. */
    for (size_t i = 0; i < nt; i++)
        if (fe_type(iprof_model_type_at(m, i), r) != 0)
            r->mismatches++;
    size_t nm = iprof_model_method_count(m);
    for (size_t i = 0; i < nm; i++) {
        const iprof_method *me = iprof_model_method_at(m, i);
        size_t len, sl;
        const char *name = iprof_method_name(me, &len);
        const int64_t *sig = iprof_method_signature(me, &sl);
        if (iprof_model_method_by_id(m, iprof_method_id(me)) != me)
            r->mismatches++;
        const iprof_method *found = iprof_model_method_find(m, name, len, sig, sl);
        if (!found || iprof_method_id(found) != iprof_method_id(me))
            r->mismatches++;
        size_t dl = iprof_model_method_describe(m, me, buf, sizeof buf);
        r->hash = fnv(r->hash, buf, dl < sizeof buf ? dl : sizeof buf - 1);
    }
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        size_t ne = iprof_model_entry_count(m, k);
        for (size_t i = 0; i < ne; i++) {
            const iprof_entry *e = iprof_model_entry_at(m, k, i);
            const iprof_context *c = iprof_entry_context(e);
            size_t depth = iprof_context_frames(c, frames, 256);
            if (depth > 256)
                depth = 256;
            if (iprof_model_entry_find(m, k, frames, depth) != e)
                r->mismatches++;
            size_t dl = iprof_model_context_describe(m, c, buf, sizeof buf);
            r->hash = fnv(r->hash, buf, dl < sizeof buf ? dl : sizeof buf - 1);
            dl = iprof_context_format(c, buf, sizeof buf);
            r->hash = fnv(r->hash, buf, dl < sizeof buf ? dl : sizeof buf - 1);
            size_t rl;
            const int64_t *rec = iprof_entry_records(e, &rl);
            r->hash = fnv(r->hash, rec, rl * sizeof *rec);
            for (const iprof_context *cc = c; cc; cc = iprof_context_caller(cc))
                r->hash = fnv_i64(fnv_i64(r->hash, iprof_context_method_id(cc)),
                                  iprof_context_bci(cc));
        }
        for (size_t i = 0; i < ne; i++)
            if (fe_entry(iprof_model_entry_at(m, k, i), r) != 0)
                r->mismatches++;
    }
    r->hash = fnv_i64(r->hash, (int64_t)iprof_model_context_count(m));
    return NULL;
}

static void shared_model(const char *what, const iprof_model *m)
{
    fprintf(stderr, "   %s\n", what);
    reading base = {m, 0, 0};
    read_model(&base);
    CHECK_EQ_INT(base.mismatches, 0);
    for (int round = 0; round < ROUNDS; round++) {
        pthread_t th[NTHREADS];
        reading rs[NTHREADS];
        for (int i = 0; i < NTHREADS; i++) {
            rs[i].m = m;
            CHECK_EQ_INT(pthread_create(&th[i], NULL, read_model, &rs[i]), 0);
        }
        for (int i = 0; i < NTHREADS; i++)
            CHECK_EQ_INT(pthread_join(th[i], NULL), 0);
        for (int i = 0; i < NTHREADS; i++) {
            CHECK(rs[i].hash == base.hash);
            CHECK_EQ_INT(rs[i].mismatches, 0);
        }
    }
}

static void test_shared_model(void)
{
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(gen_data, gen_len)));
    if (m) {
        shared_model("generated document", m);
        iprof_model_free(m);
    }
    m = NULL;
    if (corpus_path[0]) {
        CHECK_OK(iprof_model_load(&m, r, SRC_PATH(corpus_path)));
        if (m) {
            shared_model(corpus_path, m);
            iprof_model_free(m);
        }
    }
    iprof_reader_free(r);
}

/* An allocator that is not thread-safe: a plain counter of its calls. */
static long plain_calls;
static void *plain_malloc(size_t n, void *u)
{
    (void)u;
    plain_calls++;
    return malloc(n);
}
static void *plain_realloc(void *p, size_t o, size_t n, void *u)
{
    (void)o, (void)u;
    plain_calls++;
    return realloc(p, n);
}
static void plain_free(void *p, size_t n, void *u)
{
    (void)n, (void)u;
    plain_calls++;
    free(p);
}

/* The contract of model.h: after iprof_model_build_indexes(), readers on
 * several threads never call the model's allocator, so it need not be
 * thread-safe. Without the call, the first lookups build indexes. */
static void test_prebuilt_indexes(void)
{
    iprof_allocator a = {plain_malloc, plain_realloc, plain_free, NULL};
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.allocator = &a;
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(gen_data, gen_len)));
    if (!m) {
        iprof_reader_free(r);
        return;
    }
    long before = plain_calls;
    size_t len;
    const char *name = iprof_type_name(iprof_model_type_at(m, 0), &len);
    CHECK(iprof_model_type_by_name(m, name, len) != NULL); /* builds the names index */
    CHECK(plain_calls > before);
    CHECK_OK(iprof_model_build_indexes(m));
    before = plain_calls;
    shared_model("prebuilt indexes, allocator not thread-safe", m);
    CHECK_EQ_INT(plain_calls, before);
    CHECK_EQ_INT(iprof_model_build_indexes(NULL), IPROF_EINVAL);
    iprof_model_free(m);
    iprof_reader_free(r);
}

/* Several threads writing models to their own buffers while others load. */
static void *write_many(void *arg)
{
    job *j = arg;
    for (int i = 0; i < 3 && j->rc == 0; i++)
        work(j);
    return NULL;
}

static void test_mixed(void)
{
    job jobs[NTHREADS];
    pthread_t th[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].data = gen_data;
        jobs[i].len = gen_len;
        CHECK_EQ_INT(pthread_create(&th[i], NULL, write_many, &jobs[i]), 0);
    }
    for (int i = 0; i < NTHREADS; i++)
        CHECK_EQ_INT(pthread_join(th[i], NULL), 0);
    for (int i = 0; i < NTHREADS; i++) {
        CHECK_OK(jobs[i].rc);
        CHECK(jobs[i].out_hash == fnv(FNV0, gen_data, gen_len));
    }
}

int main(void)
{
    gen_data = gen_doc(&gen_len);
    const char *dir = check_corpus_dir();
    if (dir)
        snprintf(corpus_path, sizeof corpus_path, "%s/jsonata-cli-0.4.0.iprof", dir);
    RUN(test_own_handles);
    RUN(test_shared_model);
    RUN(test_prebuilt_indexes);
    RUN(test_mixed);
    free(gen_data);
    return check_done();
}
