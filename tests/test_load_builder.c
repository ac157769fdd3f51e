/* Unit tests of the load builder (lib/model/load_builder.c): the batches the
 * reading side fills are applied inline or on a second thread, and both
 * give exactly the model the push functions give for the same event
 * stream (many batches of it, events bigger than a batch among them). A
 * cancel discards what was not applied; a failure of the builder (no
 * memory, from a failing allocator) is returned by a later reserve or by
 * finish; a reserve that cannot be represented fails with IPROF_ELIMIT;
 * the thread starts only once a first batch is full; the reading side
 * learns whether the applier is behind (ipi_builder_behind); nothing
 * leaks. The
 * allocator is the thread-safe one of check_alloc_mt.h
 * (both threads allocate in threaded mode). */
#include "check.h"
#include "check_alloc_mt.h"
#include "check_events.h"
#include "check_model.h"

#include <stdint.h>
#include <time.h>

#include "load_builder.h"

#define TOO_BIG ((size_t)-1)

/* ---- event streams ------------------------------------------------------- */


/* A stream: the version, `types` types, `methods` methods, `entries`
 * entries, in that order; `big` adds events bigger than a batch (a type
 * name, a signature, two entries in a row). `uniform` streams are methods
 * only, each of UNIFORM_SIZE bytes. */
typedef struct stream {
    size_t types, methods, entries;
    int big;
    int uniform;
} stream;

#define UNIFORM_SIZE 64                              /* header 32, 2 ids, key slot, 7-byte name */
#define PER_BATCH (IPI_BATCH_SIZE / UNIFORM_SIZE)    /* 2048 */

static size_t stream_len(const stream *s)
{
    return s->uniform ? s->methods : 1 + s->types + s->methods + s->entries;
}

#define BIG_SIG 20000
#define BIG_RECS 20000
#define BIG_NAME 200000

/* Event i of s, in buffers that stay valid until the next call. */
static event gen(const stream *s, size_t i)
{
    static char name[64], big_name[BIG_NAME];
    static int64_t sig[8], big_sig[BIG_SIG], frames[2 * 400], recs[BIG_RECS];
    static int init;
    if (!init) {
        for (size_t k = 0; k < BIG_NAME; k++)
            big_name[k] = (char)(k % 251); /* NUL bytes included */
        for (size_t k = 0; k < BIG_SIG; k++)
            big_sig[k] = (int64_t)(k % 2000);
        init = 1;
    }
    event e;
    memset(&e, 0, sizeof e);
    if (s->uniform) {
        e.what = METHOD;
        e.id = (int64_t)i + 1;
        e.name_len = (size_t)snprintf(name, 8, "m%06zu", i % 1000000);
        e.name = name;
        sig[0] = (int64_t)(i % 3);
        sig[1] = (int64_t)(i % 5);
        e.sig = sig;
        e.sig_len = 2;
        return e;
    }
    if (i == 0) {
        e.what = VERSION;
        e.name = "1.0.0";
        e.name_len = 5;
        return e;
    }
    i--;
    if (i < s->types) {
        e.what = TYPE;
        e.id = (int64_t)i;
        if (s->big && i == 10) {
            e.name = big_name;
            e.name_len = BIG_NAME;
            return e;
        }
        e.name_len = (size_t)snprintf(name, 64, "pkg%zu.T%zu", i % 17, i);
        if (i % 100 == 3)
            name[3] = '\0'; /* a NUL inside */
        if (i % 250 == 7)
            e.name_len = 0;
        e.name = name;
        return e;
    }
    i -= s->types;
    if (i < s->methods) {
        e.what = METHOD;
        e.id = (int64_t)i + 1;
        e.name_len = (size_t)snprintf(name, 64, "m%zu", i % 5000); /* names repeat */
        e.name = name;
        e.sig = sig;
        if (s->big && i == 1000) {
            e.sig = big_sig;
            e.sig_len = BIG_SIG;
            return e;
        }
        e.sig_len = i % 97 == 0 ? 0 : 2 + i % 3;
        for (size_t k = 0; k < e.sig_len; k++)
            sig[k] = (int64_t)((i + k * 31) % (s->types ? s->types : 1));
        return e;
    }
    i -= s->methods;
    e.what = ENTRY;
    e.kind = (int)(i % IPROF_KIND_COUNT);
    size_t depth = 1 + (i * 7) % 40;
    if (i % 500 == 17)
        depth = 70;
    if (i % 1500 == 29)
        depth = 400;
    for (size_t k = 0; k < depth; k++) {
        /* Shared callers: the outer frames depend on the depth only. */
        size_t from_outer = depth - 1 - k;
        frames[2 * k] = (int64_t)(from_outer % 23 + 1);
        frames[2 * k + 1] = (int64_t)(from_outer * 3 % 11);
    }
    frames[0] = (int64_t)(i % 300 + 1); /* the callee varies */
    e.frames = frames;
    e.frame_count = depth;
    e.record_count = i % 5;
    if (s->big && (i == 500 || i == 501))
        e.record_count = i == 500 ? BIG_RECS : BIG_RECS - 3000;
    for (size_t k = 0; k < e.record_count; k++)
        recs[k] = (int64_t)(i * 5 + k);
    e.records = recs;
    return e;
}

/* Put events [from, to) of s as a load does: reserve, then put. Returns
 * the index of the first event not put (to when all were); *status is set
 * by a failing reserve. */
static size_t feed(ipi_builder *b, const stream *s, size_t from, size_t to, int *status)
{
    for (size_t i = from; i < to; i++) {
        event e = gen(s, i);
        ipi_batch *x = ipi_builder_reserve(b, size_of(&e), status);
        if (!x)
            return i;
        size_t before = x->used;
        put(x, &e);
        if (x->used - before != size_of(&e) || x->used > x->cap) {
            CHECK(0);
            return i;
        }
    }
    return to;
}

/* The model the push functions give for the first n events of s. */
static iprof_model *reference(const stream *s, size_t n)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, NULL));
    for (size_t i = 0; i < n; i++) {
        event e = gen(s, i);
        CHECK_OK(push(m, &e));
    }
    return m;
}

/* The builder's work in a load: the events into the model. */
static int apply_to_model(ipi_batch *batch, void *model)
{
    return ipi_batch_apply(model, batch);
}

static ipi_builder *builder_for(iprof_model *m, int threaded)
{
    return ipi_builder_start(&m->alloc, apply_to_model, m, threaded);
}

/* A model built from all of s through a builder; NULL if anything failed. */
static iprof_model *build(const stream *s, int threaded, const iprof_allocator *a)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, a));
    ipi_builder *b = builder_for(m, threaded);
    CHECK(b != NULL);
    if (!b) {
        iprof_model_free(m);
        return NULL;
    }
    int st = IPROF_OK;
    size_t n = stream_len(s);
    CHECK_EQ_INT(feed(b, s, 0, n, &st), n);
    CHECK_OK(st);
    CHECK_OK(ipi_builder_finish(b, 0));
    return m;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* What most tests start from: a model on a counting allocator (nothing
 * failing yet) and a builder for it. The rig must not move: the allocator
 * points at its counters. */
typedef struct rig {
    mt_alloc ca;
    iprof_allocator a;
    iprof_model *m;
    ipi_builder *b;
} rig;

static void rig_start(rig *r, int threaded)
{
    mt_init(&r->ca, MT_FAIL_NONE, 0);
    r->a = mt_hook(&r->ca);
    r->m = NULL;
    CHECK_OK(iprof_model_new(&r->m, &r->a));
    r->b = builder_for(r->m, threaded);
    CHECK(r->b != NULL);
}

/* Free the model (its builder finished) and check that nothing the
 * allocator gave is left. */
static void rig_end(rig *r)
{
    iprof_model_free(r->m);
    CHECK_EQ_INT(atomic_load(&r->ca.live_bytes), 0);
    CHECK_EQ_INT(atomic_load(&r->ca.live_blocks), 0);
}

/* From the next allocation on, fail as asked (mode, the next call + skip). */
static void rig_fail(rig *r, int mode, long skip)
{
    r->ca.fail_at = atomic_load(&r->ca.count) + 1 + skip;
    r->ca.mode = mode;
}

/* ---- inline and threaded give the same model ------------------------------ */

static void test_same_models(void)
{
    stream s = {2000, 200000, 30000, 1, 0};
    size_t total = 0;
    for (size_t i = 0; i < stream_len(&s); i++) {
        event e = gen(&s, i);
        total += size_of(&e);
    }
    fprintf(stderr, "   %zu events, %zu bytes: about %zu batches\n", stream_len(&s), total,
            total / IPI_BATCH_SIZE);
    CHECK(total > 100 * IPI_BATCH_SIZE);
    double t0 = now();
    iprof_model *ref = reference(&s, stream_len(&s));
    double t1 = now();
    mt_alloc ca;
    mt_init(&ca, MT_FAIL_NONE, 0);
    iprof_allocator a = mt_hook(&ca);
    iprof_model *in = build(&s, 0, &a);
    double t2 = now();
    iprof_model *th = build(&s, 1, &a);
    double t3 = now();
    fprintf(stderr, "   push %.3f s, inline %.3f s, threaded %.3f s\n", t1 - t0, t2 - t1, t3 - t2);
    CHECK(in && th);
    if (in && th) {
        CHECK_EQ_INT(iprof_model_type_count(in), 2000);
        CHECK_EQ_INT(iprof_model_method_count(in), 200000);
        size_t ne = 0;
        for (int k = 0; k < IPROF_KIND_COUNT; k++)
            ne += iprof_model_entry_count(th, k);
        CHECK_EQ_INT(ne, 30000);
        CHECK_EQ_STR(iprof_model_version(th), "1.0.0");
        CHECK_EQ_INT(model_diff(in, ref), 0);
        CHECK_EQ_INT(model_diff(th, ref), 0);
        CHECK_EQ_INT(model_diff(th, in), 0);
    }
    iprof_model_free(in);
    iprof_model_free(th);
    iprof_model_free(ref);
    CHECK_EQ_INT(atomic_load(&ca.live_bytes), 0);
    CHECK_EQ_INT(atomic_load(&ca.live_blocks), 0);
}

/* Big events first, last and in a row; a stream that is one big event. */
static void test_big_events(void)
{
    stream streams[] = {
        {20, 1200, 600, 1, 0}, /* big type name, signature, two entries */
        {11, 0, 0, 1, 0},      /* ends with the big type name */
    };
    for (size_t k = 0; k < 2; k++) {
        iprof_model *ref = reference(&streams[k], stream_len(&streams[k]));
        for (int threaded = 0; threaded < 2; threaded++) {
            mt_alloc ca;
            mt_init(&ca, MT_FAIL_NONE, 0);
            iprof_allocator a = mt_hook(&ca);
            iprof_model *m = build(&streams[k], threaded, &a);
            if (m)
                CHECK_EQ_INT(model_diff(m, ref), 0);
            iprof_model_free(m);
            CHECK_EQ_INT(atomic_load(&ca.live_bytes), 0);
        }
        iprof_model_free(ref);
    }
    /* The first event bigger than a batch. */
    static int64_t recs[BIG_RECS];
    static const int64_t frame[] = {1, 2};
    for (int threaded = 0; threaded < 2; threaded++) {
        iprof_model *m = NULL;
        CHECK_OK(iprof_model_new(&m, NULL));
        ipi_builder *b = builder_for(m, threaded);
        int st = IPROF_OK;
        size_t size = ipi_batch_entry_size(1, BIG_RECS);
        ipi_batch *x = ipi_builder_reserve(b, size, &st);
        CHECK(x != NULL);
        if (x) {
            CHECK(x->cap >= size);
            CHECK_EQ_INT(x->used, 0);
            ipi_batch_put_entry(x, IPROF_KIND_MONITOR, frame, 1, recs, BIG_RECS);
        }
        CHECK_OK(ipi_builder_finish(b, 0));
        CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_MONITOR), 1);
        iprof_model_free(m);
    }
}

/* Threaded, the thread starts only once the first batch is full: a build
 * of less than a batch happens on the calling thread (no allocation made
 * elsewhere), a bigger one mostly on the builder thread. */
static void test_thread_starts_lazily(void)
{
    static const size_t lens[] = {1, PER_BATCH, PER_BATCH + 1, 10 * PER_BATCH};
    for (size_t j = 0; j < 4; j++) {
        stream s = {0, lens[j], 0, 0, 1};
        mt_alloc ca;
        mt_init(&ca, MT_FAIL_NONE, 0);
        mt_spare_this_thread(&ca); /* count the other threads' calls only */
        iprof_allocator a = mt_hook(&ca);
        iprof_model *m = build(&s, 1, &a);
        long others = atomic_load(&ca.count);
        if (lens[j] <= PER_BATCH)
            CHECK_EQ_INT(others, 0);
        else
            CHECK(others > 0);
        CHECK_EQ_INT(m ? iprof_model_method_count(m) : 0, lens[j]);
        iprof_model_free(m);
        CHECK_EQ_INT(atomic_load(&ca.live_bytes), 0);
    }
}

/* ---- whether the applying thread is behind -------------------------- */

/* An applier held at a gate: each batch waits until the test opens it. */
typedef struct gate {
    atomic_int open;
    atomic_int applied;
} gate;

static int apply_at_gate(ipi_batch *batch, void *payload)
{
    gate *g = payload;
    (void)batch;
    while (!atomic_load(&g->open))
        ; /* the test thread holds the gate only while it hands two over */
    atomic_fetch_add(&g->applied, 1);
    return IPROF_OK;
}

/* Reserve a whole batch (the current one when it is empty, else the
 * current one is handed over first) and fill it. */
static void fill(ipi_builder *b)
{
    int st = IPROF_OK;
    ipi_batch *x = ipi_builder_reserve(b, IPI_BATCH_SIZE, &st);
    CHECK(x != NULL);
    if (x)
        x->used = x->cap;
}

/* ipi_builder_behind: threaded, 1 when a batch still waited at the last
 * hand-over (the applier is held at its first batch while two more go
 * in), 0 once the applier has caught up (after a drain); on one thread,
 * always 0. */
static void test_behind(void)
{
    for (int threaded = 0; threaded < 2; threaded++) {
        mt_alloc ca;
        mt_init(&ca, MT_FAIL_NONE, 0);
        iprof_allocator a = mt_hook(&ca);
        gate g;
        atomic_init(&g.open, !threaded);
        atomic_init(&g.applied, 0);
        ipi_builder *b = ipi_builder_start(&a, apply_at_gate, &g, threaded);
        CHECK(b != NULL);
        if (!b)
            continue;
        CHECK_EQ_INT(ipi_builder_behind(b), 0);
        fill(b);      /* the first batch */
        fill(b);      /* hands the first over: nothing before it */
        CHECK_EQ_INT(ipi_builder_behind(b), 0);
        fill(b);      /* the second: the first may still wait */
        fill(b);      /* the third: the second waits, the applier holds the first */
        CHECK_EQ_INT(ipi_builder_behind(b), threaded);
        atomic_store(&g.open, 1);
        CHECK_OK(ipi_builder_drain(b)); /* hands the fourth over and waits */
        CHECK_EQ_INT(atomic_load(&g.applied), 4);
        fill(b); /* the drained batch again */
        fill(b); /* hands it over: nothing waits */
        CHECK_EQ_INT(ipi_builder_behind(b), 0);
        CHECK_OK(ipi_builder_finish(b, 0));
        CHECK_EQ_INT(atomic_load(&g.applied), 6);
        CHECK_EQ_INT(atomic_load(&ca.live_bytes), 0);
    }
}

/* ---- empty builds, cancel ----------------------------------------------- */

static void test_empty_and_cancel(void)
{
    stream s = {30, 40, 50, 0, 0}; /* well under a batch */
    for (int threaded = 0; threaded < 2; threaded++)
        for (int cancel = 0; cancel < 2; cancel++) {
            mt_alloc ca;
            mt_init(&ca, MT_FAIL_NONE, 0);
            iprof_allocator a = mt_hook(&ca);
            /* Nothing at all. */
            iprof_model *m = NULL;
            CHECK_OK(iprof_model_new(&m, &a));
            ipi_builder *b = builder_for(m, threaded);
            CHECK(b != NULL);
            CHECK_OK(ipi_builder_finish(b, cancel));
            CHECK_EQ_STR(iprof_model_version(m), "1.1.0");
            CHECK_EQ_INT(iprof_model_type_count(m), 0);
            CHECK_EQ_INT(iprof_model_context_count(m), 0);
            iprof_model_free(m);
            /* Less than a batch: all of it, or (cancel) none of it. */
            CHECK_OK(iprof_model_new(&m, &a));
            b = builder_for(m, threaded);
            int st = IPROF_OK;
            CHECK_EQ_INT(feed(b, &s, 0, stream_len(&s), &st), stream_len(&s));
            CHECK_OK(ipi_builder_finish(b, cancel));
            CHECK_EQ_INT(iprof_model_type_count(m), cancel ? 0 : 30);
            CHECK_EQ_INT(iprof_model_method_count(m), cancel ? 0 : 40);
            CHECK_EQ_INT(iprof_model_context_count(m) > 0, !cancel);
            CHECK_EQ_STR(iprof_model_version(m), cancel ? "1.1.0" : "1.0.0");
            if (!cancel) {
                iprof_model *ref = reference(&s, stream_len(&s));
                CHECK_EQ_INT(model_diff(m, ref), 0);
                iprof_model_free(ref);
            }
            iprof_model_free(m);
            CHECK_EQ_INT(atomic_load(&ca.live_bytes), 0);
        }
}

/* Over several batches: inline, exactly the full batches applied so far
 * stay (a batch is applied when the next event does not fit); threaded, a
 * prefix of them, whatever the builder thread got to before the cancel. */
static void test_cancel_many(void)
{
    CHECK_EQ_INT(PER_BATCH, 2048);
    stream s = {0, 10000, 0, 0, 1};
    event e0 = gen(&s, 0);
    CHECK_EQ_INT(size_of(&e0), UNIFORM_SIZE);
    iprof_model *ref = reference(&s, stream_len(&s));
    static const size_t lens[] = {PER_BATCH, PER_BATCH + 1, 3 * PER_BATCH, 10000};
    for (size_t j = 0; j < 4; j++) {
        size_t n = lens[j];
        for (int threaded = 0; threaded < 2; threaded++) {
            rig r;
            rig_start(&r, threaded);
            int st = IPROF_OK;
            CHECK_EQ_INT(feed(r.b, &s, 0, n, &st), n);
            CHECK_OK(ipi_builder_finish(r.b, 1));
            size_t applied = PER_BATCH * ((n - 1) / PER_BATCH);
            size_t got = iprof_model_method_count(r.m);
            if (!threaded) {
                CHECK_EQ_INT(got, applied);
            } else {
                CHECK(got <= applied);
                CHECK_EQ_INT(got % PER_BATCH, 0);
            }
            /* In order, from the first. */
            for (size_t i = 0; i < got; i++)
                if (iprof_method_id(iprof_model_method_at(r.m, i)) != (int64_t)i + 1) {
                    CHECK(0);
                    break;
                }
            rig_end(&r);
        }
    }
    iprof_model_free(ref);
}

/* ---- failures ----------------------------------------------------------- */

/* An event that cannot be represented: IPROF_ELIMIT, the builder goes on. */
static void test_too_big(void)
{
    stream s = {10, 3000, 0, 0, 0};
    for (int threaded = 0; threaded < 2; threaded++)
        for (int cancel = 0; cancel < 2; cancel++) {
            rig r;
            rig_start(&r, threaded);
            ipi_builder *b = r.b;
            int st = IPROF_OK;
            CHECK(ipi_builder_reserve(b, TOO_BIG, &st) == NULL);
            CHECK_EQ_INT(st, IPROF_ELIMIT);
            CHECK(ipi_builder_reserve(b, ipi_batch_named_size(SIZE_MAX, 0), &st) == NULL);
            CHECK_EQ_INT(st, IPROF_ELIMIT);
            st = IPROF_OK;
            size_t n = stream_len(&s);
            CHECK_EQ_INT(feed(b, &s, 0, n, &st), n);
            CHECK_OK(st);
            CHECK(ipi_builder_reserve(b, ipi_batch_entry_size(SIZE_MAX, 1), &st) == NULL);
            CHECK_EQ_INT(st, IPROF_ELIMIT);
            CHECK_OK(ipi_builder_finish(b, cancel));
            if (!cancel) {
                iprof_model *ref = reference(&s, n);
                CHECK_EQ_INT(model_diff(r.m, ref), 0);
                iprof_model_free(ref);
            }
            rig_end(&r);
        }
}

/* Inline, the model's first allocation after the start failing: the
 * reserve that applies the first full batch returns it, exactly at the
 * first event that does not fit; finish returns it again. */
static void test_inline_failure_exact(void)
{
    stream s = {0, 3 * PER_BATCH, 0, 0, 1};
    for (int cancel = 0; cancel < 2; cancel++) {
        rig r;
        rig_start(&r, 0);
        rig_fail(&r, MT_FAIL_FROM, 0);
        int st = IPROF_OK;
        CHECK_EQ_INT(feed(r.b, &s, 0, stream_len(&s), &st), PER_BATCH);
        CHECK_EQ_INT(st, IPROF_ENOMEM);
        CHECK_EQ_INT(ipi_builder_finish(r.b, cancel), IPROF_ENOMEM);
        CHECK_EQ_INT(iprof_model_method_count(r.m), 0);
        rig_end(&r);
    }
    /* The last batch failing: finish reports it. */
    stream small = {0, 100, 0, 0, 1};
    for (int threaded = 0; threaded < 2; threaded++) {
        rig r;
        rig_start(&r, threaded);
        int st = IPROF_OK;
        CHECK_EQ_INT(feed(r.b, &small, 0, 100, &st), 100);
        CHECK_OK(st);
        rig_fail(&r, MT_FAIL_FROM, 0);
        CHECK_EQ_INT(ipi_builder_finish(r.b, 0), IPROF_ENOMEM);
        r.ca.mode = MT_FAIL_NONE;
        rig_end(&r);
    }
}

/* Threaded, every allocation of the builder thread failing (the reading
 * thread's own never fail): the failure reaches the reading side at a
 * batch boundary within the batches that can exist at once. The builder
 * fails on batch 1, queued at the first swap; swaps 2 and 3 take new
 * batches, swap 4 waits for batch 1 to come back (the failure is recorded
 * by then), so the fifth swap at the latest returns it. finish returns it
 * too. */
static void test_threaded_failure_reaches_reader(void)
{
    stream s = {0, 100 * PER_BATCH, 0, 0, 1};
    for (int cancel = 0; cancel < 2; cancel++) {
        rig r;
        rig_start(&r, 1);
        mt_spare_this_thread(&r.ca); /* only the builder thread's calls fail */
        rig_fail(&r, MT_FAIL_FROM, 0);
        ipi_builder *b = r.b;
        int st = IPROF_OK;
        size_t put_n = feed(b, &s, 0, stream_len(&s), &st);
        CHECK_EQ_INT(st, IPROF_ENOMEM);
        CHECK(put_n >= 2 * PER_BATCH); /* batch 1 is queued at the first swap */
        CHECK(put_n <= 5 * PER_BATCH);
        CHECK_EQ_INT(put_n % PER_BATCH, 0);
        CHECK_EQ_INT(ipi_builder_finish(b, cancel), IPROF_ENOMEM);
        CHECK(atomic_load(&r.ca.failed));
        CHECK_EQ_INT(iprof_model_method_count(r.m), 0);
        rig_end(&r);
    }
}

/* After a failing reserve, every later reserve fails with the same status
 * and hands out no batch, and finish returns it. Inline, one allocation
 * failing once during the first apply once let a later reserve apply that
 * batch a second time and forget the failure. With a batch allocation
 * failing at a swap (an event larger than a batch, so the builder thread,
 * applying an empty batch, allocates nothing meanwhile), the next reserve
 * once queued the missing batch and crashed. */
static void test_failure_is_sticky(void)
{
    stream s = {0, 8 * PER_BATCH, 0, 0, 1};
    for (int threaded = 0; threaded < 2; threaded++) {
        for (int big = 0; big < 2; big++) {
            if (threaded && !big)
                continue; /* which thread allocates first would be a race */
            rig r;
            rig_start(&r, threaded);
            rig_fail(&r, MT_FAIL_ONLY, 0);
            ipi_builder *b = r.b;
            int st = IPROF_OK;
            if (big) {
                CHECK(ipi_builder_reserve(b, IPI_BATCH_SIZE + 1000, &st) == NULL);
            } else {
                CHECK_EQ_INT(feed(b, &s, 0, stream_len(&s), &st), PER_BATCH);
            }
            CHECK_EQ_INT(st, IPROF_ENOMEM);
            CHECK(atomic_load(&r.ca.failed));
            for (int again = 0; again < 3; again++) { /* the failure stays */
                int st2 = IPROF_OK;
                CHECK(ipi_builder_reserve(b, 100, &st2) == NULL);
                CHECK_EQ_INT(st2, IPROF_ENOMEM);
                CHECK(ipi_builder_reserve(b, IPI_BATCH_SIZE * 2, &st2) == NULL);
                CHECK_EQ_INT(st2, IPROF_ENOMEM);
            }
            CHECK_EQ_INT(ipi_builder_finish(b, 0), IPROF_ENOMEM);
            CHECK(iprof_model_method_count(r.m) < PER_BATCH); /* nothing twice */
            rig_end(&r);
        }
    }
}

/* One build with allocation `at` failing (mode MT_FAIL_ONLY or _FROM;
 * spare: only the builder thread's allocations count). Returns the status
 * (first failing reserve, else finish), checks the model against ref when
 * it succeeds, and that nothing leaks. Sets *failed. */
static int build_failing(const stream *s, int threaded, int mode, long at, int spare,
                         const iprof_model *ref, int *failed)
{
    mt_alloc ca;
    mt_init(&ca, MT_FAIL_NONE, 0);
    if (spare)
        mt_spare_this_thread(&ca);
    iprof_allocator a = mt_hook(&ca);
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, &a));
    atomic_store(&ca.count, 0); /* count from the builder's start */
    ca.mode = mode;
    ca.fail_at = at;
    int rc = IPROF_OK;
    ipi_builder *b = builder_for(m, threaded);
    if (!b) {
        rc = IPROF_ENOMEM;
    } else {
        size_t n = stream_len(s);
        size_t got = feed(b, s, 0, n, &rc);
        int built = ipi_builder_finish(b, got != n);
        if (got == n)
            CHECK_OK(rc);
        else
            CHECK(rc != IPROF_OK);
        if (!rc)
            rc = built;
    }
    *failed = atomic_load(&ca.failed);
    if (atomic_load(&ca.failed_hard)) /* not a refused shrink, which changes nothing */
        CHECK_EQ_INT(rc, IPROF_ENOMEM);
    else {
        CHECK_OK(rc);
        CHECK_EQ_INT(model_diff(m, ref), 0);
    }
    iprof_model_free(m);
    if (atomic_load(&ca.live_bytes) != 0)
        fprintf(stderr, "   threaded %d mode %d at %ld: %lld bytes leaked\n", threaded, mode,
                at, (long long)atomic_load(&ca.live_bytes));
    CHECK_EQ_INT(atomic_load(&ca.live_bytes), 0);
    CHECK_EQ_INT(atomic_load(&ca.live_blocks), 0);
    return rc;
}

/* Fail allocation N (only it, or it and every later one) for N = 1, 2, ...
 * until a build needs no failure: inline, threaded, and threaded failing
 * the builder thread only. */
static void test_fail_each_allocation(void)
{
    stream s = {50, 7000, 600, 0, 0}; /* about 5 batches */
    iprof_model *ref = reference(&s, stream_len(&s));
    static const char *const what[] = {"inline", "threaded", "threaded, builder thread only"};
    for (int variant = 0; variant < 3; variant++)
        for (int mode = MT_FAIL_ONLY; mode <= MT_FAIL_FROM; mode++) {
            long at = 1;
            int failed = 1, enomem = 0;
            for (; failed && at < 100000; at++) {
                int rc = build_failing(&s, variant > 0, mode, at, variant == 2, ref, &failed);
                enomem += rc == IPROF_ENOMEM;
            }
            CHECK(!failed);
            fprintf(stderr, "   %s, fail %s: %ld runs, %d out of memory\n", what[variant],
                    mode == MT_FAIL_ONLY ? "only the Nth" : "from the Nth on", at - 1, enomem);
            CHECK(enomem > 10);
        }
    iprof_model_free(ref);
}

int main(void)
{
    RUN(test_same_models);
    RUN(test_big_events);
    RUN(test_thread_starts_lazily);
    RUN(test_behind);
    RUN(test_empty_and_cancel);
    RUN(test_cancel_many);
    RUN(test_too_big);
    RUN(test_inline_failure_exact);
    RUN(test_threaded_failure_reaches_reader);
    RUN(test_failure_is_sticky);
    RUN(test_fail_each_allocation);
    return check_done();
}
