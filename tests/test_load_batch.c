/* Unit tests of load batches (lib/model/load_batch.c): the size of each event,
 * encoding events of every kind (empty names, names with NUL bytes, empty
 * signatures, contexts deeper than the prefetch windows of 16 and 64
 * frames, records, events bigger than a default batch) and applying them
 * to a model: the model must hold exactly what the model's push functions
 * (the path loads took before batches) give for the same events, in order.
 * Also: applying stops at the first failing event, keeping the ones before;
 * allocation failures while applying leave a freeable model; nothing
 * leaks. */
#include "check.h"
#include "check_alloc.h"
#include "check_events.h"
#include "check_model.h"

#include <limits.h>
#include <stdint.h>

#include "load_batch.h"

#define TOO_BIG ((size_t)-1)
#define HEAD 32 /* bytes of an event's header */
#define KEY 8   /* a named event's key slot */

/* ---- events (check_events.h), put into a batch or pushed the old way ---- */

static event ev_version(const char *v, size_t len)
{
    event e = {VERSION, 0, v, len, NULL, 0, 0, NULL, 0, NULL, 0};
    return e;
}

static event ev_type(int64_t id, const char *name, size_t len)
{
    event e = {TYPE, id, name, len, NULL, 0, 0, NULL, 0, NULL, 0};
    return e;
}

static event ev_method(int64_t id, const char *name, size_t len, const int64_t *sig, size_t sl)
{
    event e = {METHOD, id, name, len, sig, sl, 0, NULL, 0, NULL, 0};
    return e;
}

static event ev_entry(int kind, const int64_t *frames, size_t fc, const int64_t *rec, size_t rc)
{
    event e = {ENTRY, 0, NULL, 0, NULL, 0, kind, frames, fc, rec, rc};
    return e;
}

/* A batch holding the events (sized to fit them all), its used bytes
 * checked against the sum of the event sizes. */
static ipi_batch *batch_of(const iprof_allocator *a, const event *evs, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += size_of(&evs[i]);
    ipi_batch *b = ipi_batch_new(a, total);
    CHECK(b != NULL);
    if (!b)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        size_t before = b->used;
        put(b, &evs[i]);
        CHECK_EQ_INT(b->used - before, size_of(&evs[i]));
        CHECK_EQ_INT(b->used % 8, 0);
    }
    CHECK_EQ_INT(b->used, total);
    return b;
}

/* The model the push functions give for the events. */
static iprof_model *reference(const event *evs, size_t n)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, NULL));
    for (size_t i = 0; i < n; i++)
        CHECK_OK(push(m, &evs[i]));
    return m;
}

/* ---- sizes -------------------------------------------------------------- */

static void test_sizes(void)
{
    CHECK_EQ_INT(IPI_BATCH_SIZE, 131072);
    /* Named events: header, 8 bytes per signature id, a key slot, the name
     * padded to 8. */
    CHECK_EQ_INT(ipi_batch_named_size(0, 0), HEAD + KEY);
    CHECK_EQ_INT(ipi_batch_named_size(1, 0), HEAD + KEY + 8);
    CHECK_EQ_INT(ipi_batch_named_size(7, 0), HEAD + KEY + 8);
    CHECK_EQ_INT(ipi_batch_named_size(8, 0), HEAD + KEY + 8);
    CHECK_EQ_INT(ipi_batch_named_size(9, 0), HEAD + KEY + 16);
    CHECK_EQ_INT(ipi_batch_named_size(0, 1), HEAD + KEY + 8);
    CHECK_EQ_INT(ipi_batch_named_size(3, 2), HEAD + KEY + 16 + 8);
    CHECK_EQ_INT(ipi_batch_named_size(16, 5), HEAD + KEY + 40 + 16);
    CHECK_EQ_INT(ipi_batch_named_size(200000, 0), HEAD + KEY + 200000);
    /* Entries: header, 16 bytes of frame and 8 of node hash per frame, 8
     * per record. */
    CHECK_EQ_INT(ipi_batch_entry_size(0, 0), HEAD);
    CHECK_EQ_INT(ipi_batch_entry_size(1, 0), HEAD + 24);
    CHECK_EQ_INT(ipi_batch_entry_size(1, 1), HEAD + 32);
    CHECK_EQ_INT(ipi_batch_entry_size(2, 3), HEAD + 48 + 24);
    CHECK_EQ_INT(ipi_batch_entry_size(300, 0), HEAD + 7200);
    CHECK_EQ_INT(ipi_batch_entry_size(1, 20000), HEAD + 24 + 160000);

    /* The limits: 2^32 - 1 signature ids or frames at most... */
    if (SIZE_MAX > UINT32_MAX) {
        CHECK_EQ_INT(ipi_batch_named_size(0, UINT32_MAX), HEAD + KEY + (size_t)UINT32_MAX * 8);
        CHECK(ipi_batch_named_size(0, (size_t)UINT32_MAX + 1) == TOO_BIG);
        CHECK_EQ_INT(ipi_batch_entry_size(UINT32_MAX, 0), HEAD + (size_t)UINT32_MAX * 24);
        CHECK(ipi_batch_entry_size((size_t)UINT32_MAX + 1, 0) == TOO_BIG);
    }
    /* ... names of 2^32 - 1 bytes at most (an interned string's 32-bit
     * length), and sizes below SIZE_MAX / 2. */
    if (SIZE_MAX > UINT32_MAX) {
        CHECK_EQ_INT(ipi_batch_named_size(UINT32_MAX, 0), HEAD + KEY + ((size_t)UINT32_MAX + 1));
        CHECK(ipi_batch_named_size((size_t)UINT32_MAX + 1, 0) == TOO_BIG);
        CHECK(ipi_batch_named_size(UINT32_MAX, UINT32_MAX) != TOO_BIG);
    }
    CHECK(ipi_batch_named_size(SIZE_MAX, 0) == TOO_BIG);
    CHECK(ipi_batch_named_size(SIZE_MAX - 7, 0) == TOO_BIG);
    CHECK(ipi_batch_named_size(SIZE_MAX, SIZE_MAX) == TOO_BIG);
    size_t recs = (SIZE_MAX / 2 - HEAD) / 8; /* entries have no key slot */
    CHECK_EQ_INT(ipi_batch_entry_size(0, recs), HEAD + recs * 8);
    CHECK(ipi_batch_entry_size(0, recs + 1) == TOO_BIG);
    CHECK(ipi_batch_entry_size(1, recs) == TOO_BIG);
    CHECK(ipi_batch_entry_size(1, recs - 3) != TOO_BIG);
    CHECK(ipi_batch_entry_size(0, SIZE_MAX) == TOO_BIG);
    CHECK(ipi_batch_entry_size(SIZE_MAX, 0) == TOO_BIG);
    CHECK(ipi_batch_entry_size(SIZE_MAX, SIZE_MAX) == TOO_BIG);
    /* Whatever is not too big is a multiple of 8 and does not overflow. */
    for (size_t n = 0; n < 40; n++)
        for (size_t k = 0; k < 5; k++) {
            CHECK_EQ_INT(ipi_batch_named_size(n, k) % 8, 0);
            CHECK(ipi_batch_named_size(n, k) >= HEAD + KEY + n + 8 * k);
            CHECK(ipi_batch_named_size(n, k) < HEAD + KEY + n + 8 * k + 8);
        }
}

/* ---- batches ------------------------------------------------------------ */

static void test_new_free(void)
{
    fail_alloc fa = {.fail_at = LONG_MAX}; /* counts calls, never fails */
    iprof_allocator a = fail_hook(&fa);
    ipi_batch *b = ipi_batch_new(&a, 0);
    CHECK(b != NULL);
    if (b) {
        CHECK_EQ_INT(b->cap, IPI_BATCH_SIZE);
        CHECK_EQ_INT(b->used, 0);
        CHECK(b->next == NULL);
        CHECK_EQ_INT((uintptr_t)b->data % 8, 0);
        CHECK_EQ_INT(fa.live_bytes, (long long)(sizeof *b + IPI_BATCH_SIZE));
    }
    ipi_batch_free(&a, b);
    CHECK_EQ_INT(fa.live_bytes, 0);
    b = ipi_batch_new(&a, IPI_BATCH_SIZE - 1);
    CHECK(b && b->cap == IPI_BATCH_SIZE);
    ipi_batch_free(&a, b);
    b = ipi_batch_new(&a, IPI_BATCH_SIZE + 1);
    CHECK(b && b->cap == IPI_BATCH_SIZE + 1);
    ipi_batch_free(&a, b);
    /* Sizes that cannot be allocated fail without calling the allocator. */
    long calls = fa.count;
    CHECK_EQ_INT(calls, 3);
    CHECK(ipi_batch_new(&a, SIZE_MAX) == NULL);
    CHECK(ipi_batch_new(&a, SIZE_MAX - sizeof(ipi_batch) + 1) == NULL);
    CHECK_EQ_INT(fa.count, calls);
    /* Out of memory. */
    fail_after(&fa, 0);
    CHECK(ipi_batch_new(&a, 0) == NULL);
    CHECK(fa.failed);
    fail_after(&fa, -1);
    ipi_batch_free(&a, NULL);
    CHECK_EQ_INT(fa.live_bytes, 0);
    CHECK_EQ_INT(fa.live_blocks, 0);
}

/* ---- every kind of event ------------------------------------------------ */

static const int64_t sig_main[] = {2, 0, 2}, sig_one[] = {1};
static const int64_t f_a[] = {1, 0}, f_b[] = {3, 7, 1, 0}, f_c[] = {4, -1, 3, 7, 1, 0},
                     f_d[] = {5, 2, 1, 0};
static const int64_t r_cc[] = {120}, r_cond[] = {0, 1, 30, 4, 0, 12}, r_vi[] = {2, 40, 1, 2},
                     r_mon[] = {2, 9}, r_samp[] = {77}, r_inst[] = {1, 3, 2, 0};

static void test_every_kind(void)
{
    static char long_name[1000];
    for (size_t i = 0; i < sizeof long_name; i++)
        long_name[i] = (char)('a' + i % 26);
    static int64_t long_sig[300];
    for (size_t i = 0; i < 300; i++)
        long_sig[i] = (int64_t)i * 3 - 100;
    const event evs[] = {
        ev_version("1.0.0", 5),
        ev_type(0, "", 0),                 /* empty name */
        ev_type(1, "a\0b", 3),             /* NUL inside */
        ev_type(2, "java.lang.String", 16),
        ev_type(1, "dup", 3),              /* duplicate id: kept, not the first */
        ev_type(4, "a", 1),                /* a prefix of "a\0b": another name */
        ev_type(5, "\0", 1),
        ev_type(6, "java.lang.String", 16), /* the same name again */
        ev_method(1, "main", 4, sig_main, 3),
        ev_method(2, "", 0, NULL, 0),       /* empty name, no signature */
        ev_method(3, "x\0\0y", 4, sig_one, 1),
        ev_method(4, long_name, sizeof long_name, long_sig, 300),
        ev_method(5, "main", 4, sig_main, 3), /* the same key again */
        ev_method(-9, "neg", 3, NULL, 0),
        ev_entry(IPROF_KIND_CALL_COUNT, f_a, 1, r_cc, 1),
        ev_entry(IPROF_KIND_CONDITIONAL, f_b, 2, r_cond, 6),
        ev_entry(IPROF_KIND_VIRTUAL_INVOKE, f_c, 3, r_vi, 4),
        ev_entry(IPROF_KIND_MONITOR, f_a, 1, r_mon, 2),
        ev_entry(IPROF_KIND_SAMPLING, f_d, 2, r_samp, 1),
        ev_entry(IPROF_KIND_INSTANCEOF, f_c, 3, r_inst, 4),
        ev_entry(IPROF_KIND_CALL_COUNT, f_a, 1, NULL, 0), /* same ctx again, no records */
        ev_entry(IPROF_KIND_VIRTUAL_INVOKE, f_b, 2, NULL, 0),
        ev_version("0.4.0", 5), /* the last version wins */
    };
    size_t n = sizeof evs / sizeof evs[0];
    fail_alloc fa = {0};
    iprof_allocator a = fail_hook(&fa);
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, &a));
    ipi_batch *b = batch_of(&a, evs, n);
    if (!m || !b)
        return;
    CHECK_EQ_INT(b->cap, IPI_BATCH_SIZE);
    CHECK_OK(ipi_batch_apply(m, b));

    /* Exactly these, in order. */
    CHECK_EQ_STR(iprof_model_version(m), "0.4.0");
    CHECK_EQ_INT(iprof_model_type_count(m), 7);
    static const struct {
        int64_t id;
        const char *name;
        size_t len;
    } types[] = {{0, "", 0}, {1, "a\0b", 3}, {2, "java.lang.String", 16}, {1, "dup", 3},
                 {4, "a", 1}, {5, "\0", 1}, {6, "java.lang.String", 16}};
    for (size_t i = 0; i < 7; i++) {
        const iprof_type *t = iprof_model_type_at(m, i);
        size_t len = 99;
        const char *name = t ? iprof_type_name(t, &len) : "";
        CHECK(t != NULL);
        CHECK_EQ_INT(t ? iprof_type_id(t) : -1, types[i].id);
        CHECK_EQ_MEM(name, len, types[i].name, types[i].len);
        CHECK_EQ_INT(name[len], '\0');
    }
    CHECK(iprof_model_type_by_id(m, 1) == iprof_model_type_at(m, 1));
    CHECK(iprof_model_type_by_name(m, "a\0b", 3) == iprof_model_type_at(m, 1));
    CHECK(iprof_model_type_by_name(m, "a", 1) == iprof_model_type_at(m, 4));
    CHECK(iprof_model_type_by_name(m, "\0", 1) == iprof_model_type_at(m, 5));
    CHECK(iprof_model_type_by_name(m, "", 0) == iprof_model_type_at(m, 0));
    /* Names are interned: equal names are one string. */
    CHECK(iprof_type_name(iprof_model_type_at(m, 2), NULL) ==
          iprof_type_name(iprof_model_type_at(m, 6), NULL));

    CHECK_EQ_INT(iprof_model_method_count(m), 6);
    const iprof_method *x = iprof_model_method_at(m, 0);
    size_t len, sl;
    CHECK_EQ_INT(iprof_method_id(x), 1);
    CHECK_EQ_STR(iprof_method_name(x, &len), "main");
    const int64_t *sig = iprof_method_signature(x, &sl);
    CHECK_EQ_MEM(sig, sl * 8, sig_main, sizeof sig_main);
    x = iprof_model_method_at(m, 1);
    CHECK_EQ_INT(iprof_method_id(x), 2);
    const char *name = iprof_method_name(x, &len);
    CHECK_EQ_MEM(name, len, "", 0);
    iprof_method_signature(x, &sl);
    CHECK_EQ_INT(sl, 0);
    x = iprof_model_method_at(m, 2);
    name = iprof_method_name(x, &len);
    CHECK_EQ_MEM(name, len, "x\0\0y", 4);
    sig = iprof_method_signature(x, &sl);
    CHECK_EQ_MEM(sig, sl * 8, sig_one, sizeof sig_one);
    x = iprof_model_method_at(m, 3);
    name = iprof_method_name(x, &len);
    CHECK_EQ_MEM(name, len, long_name, sizeof long_name);
    sig = iprof_method_signature(x, &sl);
    CHECK_EQ_MEM(sig, sl * 8, long_sig, sizeof long_sig);
    CHECK_EQ_INT(iprof_method_id(iprof_model_method_at(m, 4)), 5);
    CHECK_EQ_INT(iprof_method_id(iprof_model_method_at(m, 5)), -9);
    CHECK(iprof_model_method_find(m, "main", 4, sig_main, 3) == iprof_model_method_at(m, 0));
    CHECK(iprof_model_method_find(m, "x\0\0y", 4, sig_one, 1) == iprof_model_method_at(m, 2));

    /* Nodes: 1:0, 3:7<1:0, 4:-1<3:7<1:0, 5:2<1:0. */
    CHECK_EQ_INT(iprof_model_context_count(m), 4);
    static const size_t counts[IPROF_KIND_COUNT] = {2, 1, 2, 1, 1, 1};
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        CHECK_EQ_INT(iprof_model_entry_count(m, k), counts[k]);
    char text[128];
    const iprof_entry *e = iprof_model_entry_at(m, IPROF_KIND_VIRTUAL_INVOKE, 0);
    iprof_context_format(iprof_entry_context(e), text, sizeof text);
    CHECK_EQ_STR(text, "4:-1<3:7<1:0");
    size_t rl;
    const int64_t *rec = iprof_entry_records(e, &rl);
    CHECK_EQ_MEM(rec, rl * 8, r_vi, sizeof r_vi);
    e = iprof_model_entry_at(m, IPROF_KIND_CONDITIONAL, 0);
    rec = iprof_entry_records(e, &rl);
    CHECK_EQ_MEM(rec, rl * 8, r_cond, sizeof r_cond);
    /* The instanceof entry shares the virtual invoke entry's node. */
    CHECK(iprof_entry_context(iprof_model_entry_at(m, IPROF_KIND_INSTANCEOF, 0)) ==
          iprof_entry_context(e = iprof_model_entry_at(m, IPROF_KIND_VIRTUAL_INVOKE, 0)));
    /* A repeated context is a second entry that lookups do not return. */
    const iprof_entry *c0 = iprof_model_entry_at(m, IPROF_KIND_CALL_COUNT, 0),
                      *c1 = iprof_model_entry_at(m, IPROF_KIND_CALL_COUNT, 1);
    CHECK(iprof_entry_context(c0) == iprof_entry_context(c1));
    CHECK(iprof_model_entry_find(m, IPROF_KIND_CALL_COUNT, f_a, 1) == c0);
    iprof_entry_records(c1, &rl);
    CHECK_EQ_INT(rl, 0);

    /* The same as the push functions give. */
    iprof_model *ref = reference(evs, n);
    CHECK_EQ_INT(model_diff(m, ref), 0);
    iprof_model_free(ref);

    /* Applying the batch again appends the same again: nodes are shared. */
    CHECK_OK(ipi_batch_apply(m, b));
    CHECK_EQ_INT(iprof_model_type_count(m), 14);
    CHECK_EQ_INT(iprof_model_method_count(m), 12);
    CHECK_EQ_INT(iprof_model_context_count(m), 4);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 4);
    CHECK(iprof_model_type_by_id(m, 1) == iprof_model_type_at(m, 1));
    ref = reference(evs, n);
    for (size_t i = 0; i < n; i++)
        CHECK_OK(push(ref, &evs[i]));
    CHECK_EQ_INT(model_diff(m, ref), 0);
    iprof_model_free(ref);

    ipi_batch_free(&a, b);
    iprof_model_free(m);
    CHECK_EQ_INT(fa.live_bytes, 0);
    CHECK_EQ_INT(fa.live_blocks, 0);
}

/* An empty batch changes nothing. */
static void test_empty(void)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, NULL));
    ipi_batch *b = ipi_batch_new(&m->alloc, 0);
    CHECK_OK(ipi_batch_apply(m, b));
    CHECK_EQ_STR(iprof_model_version(m), "1.1.0");
    CHECK_EQ_INT(iprof_model_type_count(m), 0);
    CHECK_EQ_INT(iprof_model_method_count(m), 0);
    CHECK_EQ_INT(iprof_model_context_count(m), 0);
    /* A version event with an empty string. */
    ipi_batch_put_version(b, "", 0);
    CHECK_EQ_INT(b->used, HEAD + KEY);
    CHECK_OK(ipi_batch_apply(m, b));
    CHECK_EQ_STR(iprof_model_version(m), "");
    ipi_batch_free(&m->alloc, b);
    iprof_model_free(m);
}

/* ---- deep contexts ------------------------------------------------------ */

#define CHAIN 1000

/* The context of depth d: the outermost d nodes of one chain, node k from
 * the outermost being (k % 50 + 1, k); callee first. With `variant`, the
 * callee frame is replaced by (999, d), a node of its own. */
static void chain_frames(int64_t *frames, size_t d, int variant)
{
    for (size_t k = 0; k < d; k++) {
        size_t i = d - 1 - k; /* callee first: the outermost is last */
        frames[2 * i] = (int64_t)(k % 50 + 1);
        frames[2 * i + 1] = (int64_t)k;
    }
    if (variant) {
        frames[0] = 999;
        frames[1] = (int64_t)d;
    }
}

static void test_deep_contexts(void)
{
    /* Around the prefetch windows (16 frames ahead of the applier, 64 in
     * the model's own hashing) and far beyond. */
    static const size_t depths[] = {1, 2, 15, 16, 17, 31, 63, 64, 65, 66, 100, 127, 128, 129,
                                    300, 999, CHAIN};
    size_t nd = sizeof depths / sizeof depths[0];
    static int64_t frames[2 * sizeof depths / sizeof depths[0]][2 * CHAIN];
    static int64_t recs[64];
    event evs[2 * sizeof depths / sizeof depths[0]];
    size_t n = 0;
    /* Deepest first, so every shallower context is found, not created. */
    for (size_t j = nd; j-- > 0;) {
        for (int variant = 0; variant < 2; variant++) {
            chain_frames(frames[n], depths[j], variant);
            recs[n] = (int64_t)(depths[j] * 10 + (size_t)variant);
            evs[n] = ev_entry((int)(n % IPROF_KIND_COUNT), frames[n], depths[j], &recs[n], 1);
            n++;
        }
    }
    fail_alloc fa = {0};
    iprof_allocator a = fail_hook(&fa);
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, &a));
    ipi_batch *b = batch_of(&a, evs, n);
    if (!m || !b)
        return;
    CHECK_OK(ipi_batch_apply(m, b));
    /* The chain's nodes, and one more per variant. */
    CHECK_EQ_INT(iprof_model_context_count(m), CHAIN + nd);
    size_t total = 0;
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        total += iprof_model_entry_count(m, k);
    CHECK_EQ_INT(total, n);
    size_t pos[IPROF_KIND_COUNT] = {0};
    for (size_t i = 0; i < n; i++) {
        int k = (int)(i % IPROF_KIND_COUNT);
        const iprof_entry *e = iprof_model_entry_at(m, k, pos[k]++);
        const iprof_context *c = e ? iprof_entry_context(e) : NULL;
        CHECK(c != NULL);
        if (!c)
            continue;
        CHECK_EQ_INT(iprof_context_depth(c), evs[i].frame_count);
        CHECK(c == ipi_context_lookup(m, evs[i].frames, evs[i].frame_count));
        CHECK(iprof_model_entry_find(m, k, evs[i].frames, evs[i].frame_count) == e);
        static int64_t got[2 * CHAIN];
        CHECK_EQ_INT(iprof_context_frames(c, got, CHAIN), evs[i].frame_count);
        CHECK_EQ_MEM(got, evs[i].frame_count * 16, evs[i].frames, evs[i].frame_count * 16);
        size_t rl;
        const int64_t *r = iprof_entry_records(e, &rl);
        CHECK(rl == 1 && r[0] == recs[i]);
    }
    iprof_model *ref = reference(evs, n);
    CHECK_EQ_INT(model_diff(m, ref), 0);

    /* Batched and unbatched nodes are the same nodes: pushing the contexts
     * the old way onto the batch-built model (and batching them onto the
     * model built the old way) adds entries, not nodes. */
    for (size_t i = 0; i < n; i++)
        CHECK_OK(push(m, &evs[i]));
    CHECK_OK(ipi_batch_apply(ref, b));
    CHECK_EQ_INT(iprof_model_context_count(m), CHAIN + nd);
    CHECK_EQ_INT(iprof_model_context_count(ref), CHAIN + nd);
    CHECK_EQ_INT(model_diff(m, ref), 0);
    iprof_model_free(ref);

    ipi_batch_free(&a, b);
    iprof_model_free(m);
    CHECK_EQ_INT(fa.live_bytes, 0);
}

/* Many small events in one batch, every name and context repeating: the
 * lookahead runs over events whose slots were just filled by events
 * before them. */
static void test_many_events(void)
{
    enum { N = 6000 };
    static event evs[N];
    static char names[N][16];
    static int64_t frames[N][2 * 20];
    static int64_t sigs[N][4];
    static int64_t recs[N][3];
    for (size_t i = 0; i < N; i++) {
        size_t len = (size_t)snprintf(names[i], sizeof names[i], "n%zu", i % 37);
        if (i % 5 == 0)
            names[i][1] = '\0'; /* "n\0..." */
        switch (i % 3) {
        case 0: evs[i] = ev_type((int64_t)(i % 101), names[i], len); break;
        case 1:
            for (size_t j = 0; j < 4; j++)
                sigs[i][j] = (int64_t)((i + j) % 7);
            evs[i] = ev_method((int64_t)(i % 89), names[i], len, sigs[i], i % 5);
            break;
        default: {
            size_t d = 1 + i % 20;
            for (size_t j = 0; j < d; j++) {
                frames[i][2 * j] = (int64_t)((i / 3 + j) % 11);
                frames[i][2 * j + 1] = (int64_t)(j % 3);
            }
            for (size_t j = 0; j < 3; j++)
                recs[i][j] = (int64_t)(i * 3 + j);
            evs[i] = ev_entry((int)(i % IPROF_KIND_COUNT), frames[i], d, recs[i], i % 4);
        }
        }
    }
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, NULL));
    ipi_batch *b = batch_of(&m->alloc, evs, N);
    if (!b)
        return;
    CHECK(b->cap > IPI_BATCH_SIZE); /* one batch for all */
    CHECK_OK(ipi_batch_apply(m, b));
    CHECK_EQ_INT(iprof_model_type_count(m), N / 3);
    CHECK_EQ_INT(iprof_model_method_count(m), N / 3);
    iprof_model *ref = reference(evs, N);
    CHECK_EQ_INT(model_diff(m, ref), 0);
    iprof_model_free(ref);
    ipi_batch_free(&m->alloc, b);
    iprof_model_free(m);
}

/* ---- events bigger than a batch ----------------------------------------- */

static void test_big_events(void)
{
    enum { RECS = 20000, SIG = 20000, NAME = 200000 };
    int64_t *recs = malloc(RECS * sizeof *recs), *sig = malloc(SIG * sizeof *sig);
    char *name = malloc(NAME);
    for (size_t i = 0; i < RECS; i++)
        recs[i] = (int64_t)(i * 2 % 1000) - 3;
    for (size_t i = 0; i < SIG; i++)
        sig[i] = (int64_t)i;
    for (size_t i = 0; i < NAME; i++)
        name[i] = (char)(i % 251); /* includes NUL bytes */
    const event evs[] = {
        ev_entry(IPROF_KIND_MONITOR, f_c, 3, recs, RECS),
        ev_method(7, name, 1000, sig, SIG),
        ev_type(8, name, NAME),
    };
    fail_alloc fa = {0};
    iprof_allocator a = fail_hook(&fa);
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, &a));
    for (size_t i = 0; i < 3; i++) {
        size_t size = size_of(&evs[i]);
        CHECK(size > IPI_BATCH_SIZE);
        /* A batch of exactly the event's size. */
        ipi_batch *b = ipi_batch_new(&a, size);
        CHECK(b != NULL);
        if (!b)
            continue;
        CHECK_EQ_INT(b->cap, size);
        put(b, &evs[i]);
        CHECK_EQ_INT(b->used, size);
        CHECK_OK(ipi_batch_apply(m, b));
        ipi_batch_free(&a, b);
    }
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_MONITOR), 1);
    size_t rl = 0, sl = 0, nl = 0;
    const int64_t *r = iprof_entry_records(iprof_model_entry_at(m, IPROF_KIND_MONITOR, 0), &rl);
    CHECK_EQ_MEM(r, rl * 8, recs, RECS * 8);
    const int64_t *s = iprof_method_signature(iprof_model_method_at(m, 0), &sl);
    CHECK_EQ_MEM(s, sl * 8, sig, SIG * 8);
    const char *n = iprof_type_name(iprof_model_type_at(m, 0), &nl);
    CHECK_EQ_MEM(n, nl, name, NAME);
    iprof_model *ref = reference(evs, 3);
    CHECK_EQ_INT(model_diff(m, ref), 0);
    iprof_model_free(ref);
    iprof_model_free(m);
    CHECK_EQ_INT(fa.live_bytes, 0);
    free(recs);
    free(sig);
    free(name);
}

/* ---- failures ----------------------------------------------------------- */

/* The first failing event stops the batch; the events before it stay. */
static void test_stops_at_failure(void)
{
    static const int64_t one[] = {1};
    for (int bad = 0; bad < 2; bad++) {
        const event evs[] = {
            ev_type(1, "T", 1),
            ev_method(2, "m", 1, one, 1),
            ev_entry(IPROF_KIND_CALL_COUNT, f_a, 1, r_cc, 1),
            /* no frames, or a kind that does not exist */
            bad ? ev_entry(IPROF_KIND_COUNT, f_a, 1, r_cc, 1)
                : ev_entry(IPROF_KIND_SAMPLING, f_a, 0, r_cc, 1),
            ev_type(3, "U", 1),
            ev_entry(IPROF_KIND_SAMPLING, f_b, 2, r_samp, 1),
        };
        iprof_model *m = NULL;
        CHECK_OK(iprof_model_new(&m, NULL));
        ipi_batch *b = batch_of(&m->alloc, evs, 6);
        CHECK_EQ_INT(ipi_batch_apply(m, b), IPROF_ESCHEMA);
        CHECK_EQ_INT(iprof_model_type_count(m), 1);
        CHECK_EQ_INT(iprof_model_method_count(m), 1);
        CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 1);
        CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_SAMPLING), 0);
        CHECK_EQ_INT(iprof_model_context_count(m), 1);
        iprof_model *ref = reference(evs, 3);
        CHECK_EQ_INT(model_diff(m, ref), 0);
        iprof_model_free(ref);
        ipi_batch_free(&m->alloc, b);
        iprof_model_free(m);
    }
}

/* Fail the model's Nth allocation while applying, for every N: the apply
 * reports IPROF_ENOMEM, the model stays freeable, nothing leaks; the run
 * without a failure gives the push functions' model. */
static void test_alloc_failure(void)
{
    static int64_t deep[2 * 70];
    chain_frames(deep, 70, 0);
    const event evs[] = {
        ev_version("1.0.0", 5),
        ev_type(0, "", 0),
        ev_type(1, "a\0b", 3),
        ev_type(2, "java.lang.String", 16),
        ev_method(1, "main", 4, sig_main, 3),
        ev_method(2, "", 0, NULL, 0),
        ev_entry(IPROF_KIND_CALL_COUNT, f_a, 1, r_cc, 1),
        ev_entry(IPROF_KIND_CONDITIONAL, f_b, 2, r_cond, 6),
        ev_entry(IPROF_KIND_VIRTUAL_INVOKE, deep, 70, r_vi, 4),
        ev_entry(IPROF_KIND_INSTANCEOF, f_c, 3, r_inst, 4),
    };
    size_t n = sizeof evs / sizeof evs[0];
    iprof_model *ref = reference(evs, n);
    ipi_batch *b = batch_of(&ref->alloc, evs, n); /* the batch is not the model's */
    int done = 0;
    for (long at = 1; at < 10000 && !done; at++) {
        fail_alloc fa = {0};
        iprof_allocator a = fail_hook(&fa);
        iprof_model *m = NULL;
        CHECK_OK(iprof_model_new(&m, &a));
        fa.count = 0;
        fa.fail_at = at;
        int rc = ipi_batch_apply(m, b);
        if (fa.failed_hard) {
            CHECK_EQ_INT(rc, IPROF_ENOMEM);
        } else { /* nothing failed, or a shrink the model rides out */
            CHECK_OK(rc);
            CHECK_EQ_INT(model_diff(m, ref), 0);
            done = !fa.failed;
            if (done)
                fprintf(stderr, "   %ld allocations applying the batch\n", at - 1);
        }
        /* Whatever was applied can still be read and freed. */
        CHECK(iprof_model_type_count(m) <= 3);
        iprof_model_free(m);
        CHECK_EQ_INT(fa.live_bytes, 0);
        CHECK_EQ_INT(fa.live_blocks, 0);
    }
    CHECK(done);
    ipi_batch_free(&ref->alloc, b);
    iprof_model_free(ref);
}

int main(void)
{
    RUN(test_sizes);
    RUN(test_new_free);
    RUN(test_every_kind);
    RUN(test_empty);
    RUN(test_deep_contexts);
    RUN(test_many_events);
    RUN(test_big_events);
    RUN(test_stops_at_failure);
    RUN(test_alloc_failure);
    return check_done();
}
