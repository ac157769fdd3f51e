/* Context interning: one node per distinct frame sequence, keyed by
 * (method, bci, parent node), so equal caller suffixes share one node and
 * comparing two contexts is comparing two pointers. */
#include "model.h"

#include "ctx.h"
#include "hash.h"
#include "numfmt.h"

static uint64_t context_hash(int64_t method, int64_t bci, const iprof_context *parent)
{
    uint64_t h = ipi_hash_combine(ipi_hash_i64(method), (uint64_t)bci);
    return ipi_hash_combine(h, (uint64_t)(uintptr_t)parent);
}

static const iprof_context *find_node(const iprof_model *m, int64_t method, int64_t bci,
                                      const iprof_context *parent, uint64_t h)
{
    void *it;
    ipi_htab_for(&m->contexts, h, it)
    {
        const iprof_context *c = it;
        if (c->method == method && c->bci == bci && c->parent == parent)
            return c;
    }
    return NULL;
}

static const iprof_context *new_node(iprof_model *m, int64_t method, int64_t bci,
                                     const iprof_context *parent, uint64_t h)
{
    if (ipi_htab_reserve(&m->contexts, &m->alloc, 1))
        return NULL;
    iprof_context *c = ipi_arena_alloc(&m->arena, sizeof *c);
    if (!c)
        return NULL;
    c->method = method;
    c->bci = bci;
    c->parent = parent;
    c->depth = parent ? parent->depth + 1 : 1;
    ipi_htab_insert(&m->contexts, &m->alloc, h, c); /* reserved: cannot fail */
    return c;
}

/* Walk from the outermost caller (the last frame) to the callee, so each
 * node's parent exists before the node is looked up. */
const iprof_context *ipi_context_intern(iprof_model *m, const int64_t *frames, size_t count)
{
    const iprof_context *node = NULL;
    int fresh = 0; /* once a node is new, its callees cannot exist yet */
    for (size_t i = count; i-- > 0;) {
        int64_t method = frames[2 * i], bci = frames[2 * i + 1];
        uint64_t h = context_hash(method, bci, node);
        const iprof_context *c = fresh ? NULL : find_node(m, method, bci, node, h);
        if (!c) {
            c = new_node(m, method, bci, node, h);
            if (!c)
                return NULL;
            fresh = 1;
        }
        node = c;
    }
    return node;
}

const iprof_context *ipi_context_lookup(const iprof_model *m, const int64_t *frames,
                                        size_t count)
{
    const iprof_context *node = NULL;
    for (size_t i = count; i-- > 0;) {
        int64_t method = frames[2 * i], bci = frames[2 * i + 1];
        node = find_node(m, method, bci, node, context_hash(method, bci, node));
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
    return ctx ? ctx->bci : 0;
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
        frames[2 * i + 1] = c->bci;
    }
    return ctx->depth;
}

IPROF_API size_t iprof_context_format(const iprof_context *ctx, char *buf, size_t size)
{
    ipi_sbuf out = {buf, buf ? size : 0, 0};
    char frame[IPI_CTX_MAX_CHARS(1)];
    for (const iprof_context *c = ctx; c; c = c->parent) {
        int64_t f[2] = {c->method, c->bci};
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
        ipi_sbuf_put(&out, num, ipi_fmt_i64(num, c->bci));
    }
    return ipi_sbuf_finish(&out);
}
