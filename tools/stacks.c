/* Stacks of a profile for the viewer subcommands: see stacks.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stacks.h"

int stacks_kind_arg(const char *value)
{
    if (strcmp(value, "sampling") == 0)
        return STACKS_SAMPLING;
    if (strcmp(value, "callcount") == 0)
        return STACKS_CALLCOUNT;
    return -1;
}

/* ---- the tree ------------------------------------------------------------ */

static uint64_t node_hash(size_t parent, int64_t method, int64_t bci)
{
    return hash_word((uint64_t)parent * 0x9e3779b97f4a7c15ULL ^ hash_word((uint64_t)method) ^
                     ((uint64_t)bci << 29));
}

static uint64_t node_hash_at(size_t i, const void *ctx)
{
    const stack_node *n = &((const stack_tree *)ctx)->nodes[i];
    return node_hash(n->parent, n->method, n->bci);
}

static uint64_t func_hash_at(size_t i, const void *ctx)
{
    return hash_word((uint64_t)((const stack_tree *)ctx)->funcs[i].method);
}

static int grow_nodes(stack_tree *t)
{
    if (t->count < t->cap)
        return 0;
    size_t cap = t->cap ? t->cap * 2 : 64;
    stack_node *n = realloc(t->nodes, cap * sizeof *n);
    if (!n)
        return -1;
    t->nodes = n;
    t->cap = cap;
    return 0;
}

/* The func index of a method; STACK_NONE when out of memory. */
static size_t func_of(stack_tree *t, int64_t method)
{
    if (index_table_reserve(&t->func_index, func_hash_at, t))
        return STACK_NONE;
    size_t s = index_first(&t->func_index, hash_word((uint64_t)method));
    for (; t->func_index.slots[s]; s = index_next(&t->func_index, s))
        if (t->funcs[t->func_index.slots[s] - 1].method == method)
            return t->func_index.slots[s] - 1;
    if (t->func_count == t->func_cap) {
        size_t cap = t->func_cap ? t->func_cap * 2 : 32;
        stack_func *f = realloc(t->funcs, cap * sizeof *f);
        if (!f)
            return STACK_NONE;
        t->funcs = f;
        t->func_cap = cap;
    }
    char *name = method_label(t->model, method);
    if (!name)
        return STACK_NONE;
    t->funcs[t->func_count].method = method;
    t->funcs[t->func_count].name = name;
    t->func_count++;
    index_put(&t->func_index, s);
    return t->func_count - 1;
}

/* The node of frame (method, bci) under @p parent; STACK_NONE when out
 * of memory. */
static size_t node_of(stack_tree *t, size_t parent, int64_t method, int64_t bci)
{
    if (index_table_reserve(&t->node_index, node_hash_at, t))
        return STACK_NONE;
    size_t s = index_first(&t->node_index, node_hash(parent, method, bci));
    for (; t->node_index.slots[s]; s = index_next(&t->node_index, s)) {
        const stack_node *n = &t->nodes[t->node_index.slots[s] - 1];
        if (n->parent == parent && n->method == method && n->bci == bci)
            return t->node_index.slots[s] - 1;
    }
    size_t func = func_of(t, method);
    if (func == STACK_NONE || grow_nodes(t))
        return STACK_NONE;
    stack_node *n = &t->nodes[t->count];
    n->parent = parent;
    n->method = method;
    n->bci = bci;
    n->func = func;
    n->self = 0;
    t->count++;
    index_put(&t->node_index, s);
    return t->count - 1;
}

static int64_t add_sat(int64_t a, int64_t b)
{
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* Stacks' sums: of positive counts, so two of INT64_MAX still fit. */
static uint64_t add_sat_u(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Add the stack of one entry. 0, or -1 when out of memory. */
static int add_entry(stack_tree *t, const iprof_entry *e, int64_t **frames, size_t *frames_cap)
{
    size_t n;
    const int64_t *rec = iprof_entry_records(e, &n);
    int64_t count = 0;
    int positive = 1;
    for (size_t i = 0; i < n; i++) {
        if (rec[i] < 0)
            positive = 0;
        count = add_sat(count, rec[i] < 0 ? 0 : rec[i]);
    }
    if (!positive || count <= 0) {
        t->skipped++;
        return 0;
    }
    const iprof_context *ctx = iprof_entry_context(e);
    size_t depth = iprof_context_depth(ctx);
    if (depth > *frames_cap) {
        int64_t *f = realloc(*frames, depth * 2 * sizeof *f);
        if (!f)
            return -1;
        *frames = f;
        *frames_cap = depth;
    }
    iprof_context_frames(ctx, *frames, depth);
    size_t node = STACK_NONE;
    for (size_t i = depth; i-- > 0;) { /* callee first: walk from the caller */
        node = node_of(t, node, (*frames)[2 * i], (*frames)[2 * i + 1]);
        if (node == STACK_NONE)
            return -1;
    }
    t->nodes[node].self = add_sat_u(t->nodes[node].self, (uint64_t)count);
    total_add(&t->total, count);
    t->stacks++;
    return 0;
}

int stacks_build(stack_tree *t, const iprof_model *model, int which, progress_bar *p,
                 const char *label)
{
    memset(t, 0, sizeof *t);
    t->model = model;
    if (which == STACKS_AUTO)
        which = iprof_model_entry_count(model, IPROF_KIND_SAMPLING) ? STACKS_SAMPLING
                                                                     : STACKS_CALLCOUNT;
    t->kind = which == STACKS_SAMPLING ? IPROF_KIND_SAMPLING : IPROF_KIND_CALL_COUNT;
    size_t n = iprof_model_entry_count(model, t->kind), frames_cap = 0;
    int64_t *frames = NULL;
    int rc = 0;
    progress_bar_start(p, label, n);
    for (size_t i = 0; i < n && rc == 0; i++) {
        rc = add_entry(t, iprof_model_entry_at(model, t->kind, i), &frames, &frames_cap);
        if ((i & 1023) == 0)
            progress_bar_update(p, i);
    }
    free(frames);
    return rc;
}

void stacks_free(stack_tree *t)
{
    for (size_t i = 0; i < t->func_count; i++)
        free(t->funcs[i].name);
    free(t->funcs);
    index_table_free(&t->func_index);
    free(t->nodes);
    index_table_free(&t->node_index);
    memset(t, 0, sizeof *t);
}

size_t stacks_path(const stack_tree *t, size_t i, size_t *path)
{
    size_t depth = 0;
    for (size_t j = i; j != STACK_NONE; j = t->nodes[j].parent)
        depth++;
    size_t k = depth;
    for (size_t j = i; j != STACK_NONE; j = t->nodes[j].parent)
        path[--k] = j;
    return depth;
}

/* ---- folded lines -------------------------------------------------------- */

static int by_text(const void *pa, const void *pb)
{
    const folded_line *a = pa, *b = pb;
    return strcmp(a->text, b->text);
}

/* Append a frame name to buf (sanitised). */
static size_t put_name(char *buf, const char *name, int bci, int64_t bci_value)
{
    size_t len = 0;
    for (const unsigned char *s = (const unsigned char *)name; *s; s++) {
        unsigned char c = *s;
        buf[len++] = (char)(c == ';' ? ',' : c < 0x20 || c == 0x7f ? ' ' : c);
    }
    if (bci)
        len += (size_t)sprintf(buf + len, ":%lld", (long long)bci_value);
    return len;
}

int stacks_fold(const stack_tree *t, int bci, folded_line **out, size_t *count)
{
    size_t nlines = 0;
    for (size_t i = 0; i < t->count; i++)
        nlines += t->nodes[i].self > 0;
    *out = NULL;
    *count = 0;
    folded_line *lines = calloc(nlines ? nlines : 1, sizeof *lines);
    size_t *path = malloc((t->count ? t->count : 1) * sizeof *path);
    if (!lines || !path)
        goto oom;
    size_t k = 0;
    for (size_t i = 0; i < t->count; i++) {
        if (t->nodes[i].self == 0)
            continue;
        folded_line *l = &lines[k++];
        l->depth = stacks_path(t, i, path);
        l->count = t->nodes[i].self;
        size_t len = 0;
        for (size_t d = 0; d < l->depth; d++)
            len += strlen(t->funcs[t->nodes[path[d]].func].name) + 1 + (bci ? 21 : 0);
        l->text = malloc(len + 1);
        l->path = malloc(l->depth * sizeof *l->path);
        if (!l->text || !l->path)
            goto oom;
        len = 0;
        for (size_t d = 0; d < l->depth; d++) {
            const stack_node *n = &t->nodes[path[d]];
            if (d)
                l->text[len++] = ';';
            len += put_name(l->text + len, t->funcs[n->func].name, bci, n->bci);
            l->path[d] = n->func;
        }
        l->text[len] = '\0';
    }
    if (nlines > 1)
        qsort(lines, nlines, sizeof *lines, by_text);
    /* Sum identical lines (distinct bcis merge when bcis are not shown). */
    size_t w = 0;
    for (size_t r = 0; r < nlines; r++) {
        if (w && strcmp(lines[w - 1].text, lines[r].text) == 0) {
            lines[w - 1].count = add_sat_u(lines[w - 1].count, lines[r].count);
            free(lines[r].text);
            free(lines[r].path);
        } else {
            lines[w++] = lines[r];
        }
    }
    free(path);
    *out = lines;
    *count = w;
    return 0;
oom:
    free(path);
    stacks_fold_free(lines, nlines);
    return -1;
}

void stacks_fold_free(folded_line *lines, size_t count)
{
    if (!lines)
        return;
    for (size_t i = 0; i < count; i++) {
        free(lines[i].text);
        free(lines[i].path);
    }
    free(lines);
}
