/* Context interning: one node per distinct frame sequence, keyed by
 * (method, bci, parent node), so equal caller suffixes share one node and
 * comparing two contexts is comparing two pointers.
 *
 * A node's hash covers its frame and all of its caller frames (the frame
 * sequence itself), not its parent's address. So the hashes of all the
 * nodes of a context are known before the first lookup, and their table
 * slots are fetched together: a deep context costs about one wait on
 * memory instead of one per frame.
 *
 * Nodes are 24 bytes in chunks of their own (ipi_ctx_nodes in model.h),
 * the table keeps 32 hash bits and a 32-bit node reference per slot: 8
 * bytes where a pointer table takes 16. */
#include "model.h"

#include "ctx.h"
#include "hash.h"
#include "numfmt.h"

#define CONTEXT_SEED 0x51ed27c3a0b1d2e4ULL
#define PREFETCH_FRAMES 64

/* The hash of a node from its caller's (CONTEXT_SEED for the outermost). */
static uint64_t context_hash(uint64_t caller, int64_t method, int64_t bci)
{
    return ipi_hash_combine(ipi_hash_combine(caller, (uint64_t)method), (uint64_t)bci);
}

/* The hashes of the outermost n of count nodes: hs[k] for the k-th node
 * from the outermost caller. */
static void outer_hashes(const int64_t *frames, size_t count, size_t n, uint64_t *hs)
{
    uint64_t h = CONTEXT_SEED;
    for (size_t k = 0; k < n; k++) {
        size_t i = count - 1 - k;
        h = hs[k] = context_hash(h, frames[2 * i], frames[2 * i + 1]);
    }
}

/* Hashes of the outermost min(count, PREFETCH_FRAMES) nodes into hs, their
 * slots prefetched. */
static size_t hash_ahead(const iprof_model *m, const int64_t *frames, size_t count,
                         uint64_t hs[PREFETCH_FRAMES])
{
    size_t n = count < PREFETCH_FRAMES ? count : PREFETCH_FRAMES;
    outer_hashes(frames, count, n, hs);
    ipi_context_prefetch(m, hs, n);
    return n;
}

void ipi_context_init(iprof_model *m)
{
    memset(&m->ctx_nodes, 0, sizeof m->ctx_nodes);
    m->ctx_nodes.max = IPI_CTX_MAX_SLOTS;
    ipi_rtab_init(&m->contexts);
}

void ipi_context_free(iprof_model *m)
{
    ipi_ctx_nodes *n = &m->ctx_nodes;
    for (size_t i = 0; i < n->chunk_count; i++)
        ipi_free(&m->alloc, n->chunks[i], IPI_CTX_CHUNK * sizeof *n->chunks[i]);
    ipi_free(&m->alloc, n->chunks, n->chunk_cap * sizeof *n->chunks);
    ipi_rtab_free(&m->contexts, &m->alloc);
    ipi_context_init(m);
}

static int too_many(iprof_model *m, size_t max)
{
    return ipi_model_fail(m, IPROF_ELIMIT,
                          "more than %zu context nodes: the model numbers them with 32 bits",
                          max);
}

/* The index of `slots` (1, or 2 for a wide bci) free slots of one chunk,
 * into *at; the chunk is allocated if new. Nothing changes on failure. */
static int take_slots(iprof_model *m, size_t slots, size_t *at)
{
    ipi_ctx_nodes *n = &m->ctx_nodes;
    size_t i = n->used;
    if ((i & (IPI_CTX_CHUNK - 1)) + slots > IPI_CTX_CHUNK)
        i = (i | (IPI_CTX_CHUNK - 1)) + 1; /* a pair never spans two chunks */
    if (i + slots > n->max)
        return too_many(m, n->max);
    size_t chunk = (i + slots - 1) >> IPI_CTX_CHUNK_SHIFT;
    if (chunk >= n->chunk_count) {
        if (ipi_grow_array(&m->alloc, &n->chunks, &n->chunk_cap, chunk + 1, sizeof *n->chunks))
            return IPROF_ENOMEM;
        /* Mapped whole: at most the last chunk's end stays unused. */
        n->chunks[chunk] = ipi_malloc_whole(&m->alloc, IPI_CTX_CHUNK * sizeof *n->chunks[chunk]);
        if (!n->chunks[chunk])
            return IPROF_ENOMEM;
        n->chunk_count = chunk + 1;
    }
    n->used = i + slots;
    *at = i;
    return IPROF_OK;
}

static const iprof_context *find_node(const iprof_model *m, int64_t method, int64_t bci,
                                      const iprof_context *parent, uint64_t h)
{
    int32_t narrow = ipi_bci_narrow(bci);
    uint32_t ref;
    ipi_rtab_for(&m->contexts, h, ref)
    {
        const iprof_context *c = ipi_ctx_node(&m->ctx_nodes, ref - 1);
        if (c->method == method && c->bci == narrow && c->parent == parent &&
            (narrow != IPI_BCI_WIDE || c[1].method == bci))
            return c;
    }
    return NULL;
}

static int new_node(iprof_model *m, int64_t method, int64_t bci, const iprof_context *parent,
                    uint64_t h, const iprof_context **out)
{
    int rc = ipi_rtab_reserve(&m->contexts, &m->alloc, 1);
    if (rc) /* ELIMIT only past 2^32 - 1 nodes, which take_slots refuses first */
        return rc == IPROF_ELIMIT ? too_many(m, IPI_CTX_MAX_SLOTS) : rc;
    ipi_ctx_log *log = m->ctx_log; /* a merge's journal: room before the node exists */
    if (log && (!log->last || log->last->count == IPI_CTX_LOG_BLOCK)) {
        ipi_ctx_log_block *b = ipi_arena_alloc(log->arena, sizeof *b);
        if (!b)
            return IPROF_ENOMEM;
        b->prev = log->last;
        b->count = 0;
        log->last = b;
    }
    int32_t narrow = ipi_bci_narrow(bci);
    size_t at = 0;
    if ((rc = take_slots(m, narrow == IPI_BCI_WIDE ? 2 : 1, &at)))
        return rc;
    iprof_context *c = &m->ctx_nodes.chunks[at >> IPI_CTX_CHUNK_SHIFT][at & (IPI_CTX_CHUNK - 1)];
    c->method = method;
    m->ctx_nodes.negative |= method < 0;
    c->parent = parent;
    c->bci = narrow;
    c->depth = parent ? parent->depth + 1 : 1;
    if (narrow == IPI_BCI_WIDE)
        c[1] = (iprof_context){.method = bci}; /* ipi_ctx_bci reads it there */
    uint32_t ref = (uint32_t)(at + 1);
    if (log)
        log->last->items[log->last->count++] = (ipi_rtab_slot){(uint32_t)h, ref};
    ipi_rtab_put(&m->contexts, h, ref); /* reserved: cannot fail */
    *out = c;
    return IPROF_OK;
}

/* Walk from the outermost caller (the last frame) to the callee, so each
 * node's parent exists before the node is looked up. The hashes of the
 * first `known` nodes from the outermost are given in hs. */
static int intern_walk(iprof_model *m, const int64_t *frames, size_t count, const uint64_t *hs,
                       size_t known, const iprof_context **out)
{
    const iprof_context *node = NULL;
    uint64_t h = CONTEXT_SEED;
    int fresh = 0; /* once a node is new, its callees cannot exist yet */
    for (size_t i = count, k = 0; i-- > 0; k++) {
        int64_t method = frames[2 * i], bci = frames[2 * i + 1];
        h = k < known ? hs[k] : context_hash(h, method, bci);
        const iprof_context *c = fresh ? NULL : find_node(m, method, bci, node, h);
        if (!c) {
            int rc = new_node(m, method, bci, node, h, &c);
            if (rc)
                return rc;
            fresh = 1;
        }
        node = c;
    }
    *out = node;
    return IPROF_OK;
}

int ipi_context_intern(iprof_model *m, const int64_t *frames, size_t count,
                       const iprof_context **out)
{
    uint64_t hs[PREFETCH_FRAMES];
    size_t known = hash_ahead(m, frames, count, hs);
    return intern_walk(m, frames, count, hs, known, out);
}

int ipi_context_intern_hashed(iprof_model *m, const int64_t *frames, size_t count,
                              const uint64_t *hs, const iprof_context **out)
{
    return intern_walk(m, frames, count, hs, count, out);
}

void ipi_context_hashes(const int64_t *frames, size_t count, uint64_t *hs)
{
    outer_hashes(frames, count, count, hs);
}

void ipi_context_prefetch(const iprof_model *m, const uint64_t *hs, size_t count)
{
    for (size_t k = 0; k < count; k++)
        ipi_rtab_prefetch(&m->contexts, hs[k]);
}

/* The second step ahead of a lookup: a node whose home slot already names
 * this hash is most likely the one the lookup will compare. */
void ipi_context_prefetch_nodes(const iprof_model *m, const uint64_t *hs, size_t count)
{
    const ipi_rtab *t = &m->contexts;
    if (!t->cap)
        return;
    for (size_t k = 0; k < count; k++) {
        const ipi_rtab_slot *slot = ipi_rtab_home(t, hs[k]);
        if (slot->tag == (uint32_t)hs[k] && slot->ref)
            ipi_prefetch(ipi_ctx_node(&m->ctx_nodes, slot->ref - 1));
    }
}

const iprof_context *ipi_context_lookup(const iprof_model *m, const int64_t *frames,
                                        size_t count)
{
    const iprof_context *node = NULL;
    uint64_t h = CONTEXT_SEED;
    for (size_t i = count; i-- > 0;) {
        int64_t method = frames[2 * i], bci = frames[2 * i + 1];
        h = context_hash(h, method, bci);
        node = find_node(m, method, bci, node, h);
        if (!node)
            return NULL;
    }
    return node;
}

IPROF_API size_t iprof_model_context_count(const iprof_model *model)
{
    return model ? model->contexts.count : 0;
}

IPROF_API size_t iprof_context_depth(const iprof_context *ctx)
{
    return ctx ? ctx->depth : 0;
}

IPROF_API int64_t iprof_context_method_id(const iprof_context *ctx)
{
    return ctx ? ctx->method : 0;
}

IPROF_API int64_t iprof_context_bci(const iprof_context *ctx)
{
    return ctx ? ipi_ctx_bci(ctx) : 0;
}

IPROF_API const iprof_context *iprof_context_caller(const iprof_context *ctx)
{
    return ctx ? ctx->parent : NULL;
}

IPROF_API size_t iprof_context_frames(const iprof_context *ctx, int64_t *frames,
                                      size_t max_frames)
{
    if (!ctx)
        return 0;
    size_t i = 0;
    for (const iprof_context *c = ctx; c && i < max_frames && frames; c = c->parent, i++) {
        frames[2 * i] = c->method;
        frames[2 * i + 1] = ipi_ctx_bci(c);
    }
    return ctx->depth;
}

int ipi_context_frames_into(const iprof_allocator *a, const iprof_context *ctx, int64_t **buf,
                            size_t *cap)
{
    if (ipi_grow_array(a, buf, cap, 2 * (size_t)ctx->depth, sizeof **buf))
        return IPROF_ENOMEM;
    iprof_context_frames(ctx, *buf, ctx->depth);
    return IPROF_OK;
}

IPROF_API size_t iprof_context_format(const iprof_context *ctx, char *buf, size_t size)
{
    ipi_sbuf out = {buf, buf ? size : 0, 0};
    char frame[IPI_CTX_MAX_CHARS(1)];
    for (const iprof_context *c = ctx; c; c = c->parent) {
        int64_t f[2] = {c->method, ipi_ctx_bci(c)};
        if (c != ctx)
            ipi_sbuf_put(&out, "<", 1);
        ipi_sbuf_put(&out, frame, ipi_ctx_format(frame, f, 1));
    }
    return ipi_sbuf_finish(&out);
}

IPROF_API size_t iprof_model_context_describe(const iprof_model *model,
                                              const iprof_context *ctx,
                                              char *buf, size_t size)
{
    ipi_sbuf out = {buf, buf ? size : 0, 0};
    char num[IPI_I64_MAX_CHARS];
    for (const iprof_context *c = ctx; c; c = c->parent) {
        if (c != ctx)
            ipi_sbuf_put(&out, " < ", 3);
        const iprof_method *method = iprof_model_method_by_id(model, c->method);
        if (method) {
            ipi_describe_method(model, method, &out);
        } else {
            ipi_sbuf_put(&out, "?", 1);
            ipi_sbuf_put(&out, num, ipi_fmt_i64(num, c->method));
        }
        ipi_sbuf_put(&out, ":", 1);
        ipi_sbuf_put(&out, num, ipi_fmt_i64(num, ipi_ctx_bci(c)));
    }
    return ipi_sbuf_finish(&out);
}

void ipi_context_forget(iprof_model *m, ipi_ctx_log *log)
{
    for (const ipi_ctx_log_block *b = log->last; b; b = b->prev)
        for (size_t i = b->count; i-- > 0;)
            ipi_rtab_remove(&m->contexts, b->items[i].tag, b->items[i].ref);
    log->last = NULL;
}
