/* Entries: per-kind arrays in file order, an index from context to the
 * first entry with it, and adding with the kind's combine semantics. */
#include <iprof/edit.h>

#include "model.h"

#include <iprof/analysis.h>

#include "hash.h"
#include "rules.h"

static int valid_kind(int kind)
{
    return kind >= 0 && kind < IPROF_KIND_COUNT;
}

void ipi_entries_free(iprof_model *m)
{
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        ipi_entry_list *l = &m->entries[k];
        ipi_free(&m->alloc, l->items, l->cap * sizeof *l->items);
        l->items = NULL;
        l->count = l->cap = 0;
    }
}

/* ---- appending ---------------------------------------------------------- */

/* IPROF_ELIMIT, said, when a kind holds as many entries as it may: the
 * entry index names an entry by its position + 1 in 32 bits. */
static int check_room(iprof_model *m, int kind)
{
    if (m->entries[kind].count < m->max_entries)
        return IPROF_OK;
    return ipi_model_fail(m, IPROF_ELIMIT, "%s: more than %zu entries", iprof_kind_name(kind),
                          m->max_entries);
}

/* Append a new entry; index it when the kind's index exists and it is the
 * first entry with its context. Everything is reserved before the list
 * changes. */
static int append_entry(iprof_model *m, int kind, const iprof_context *ctx,
                        const int64_t *records, size_t record_count)
{
    ipi_entry_list *l = &m->entries[kind];
    int rc = check_room(m, kind);
    if (rc)
        return rc;
    ipi_rtab *index = ipi_index_built(m, IPI_IX_ENTRIES + kind);
    int index_it = index && !ipi_find_entry_pos(m, kind, ctx);
    void *items = l->items;
    rc = ipi_grow(&m->alloc, &items, &l->cap, l->count + 1, sizeof *l->items);
    l->items = items;
    if (rc)
        return IPROF_ENOMEM;
    if (index_it && (rc = ipi_rtab_reserve(index, &m->alloc, 1)))
        return rc;
    int64_t *copy = ipi_arena_alloc(&m->arena, record_count * sizeof *records);
    if (!copy)
        return IPROF_ENOMEM;
    if (record_count)
        memcpy(copy, records, record_count * sizeof *records);
    ipi_model_changed(m, IPI_CHANGED_ENTRIES_ADDED, kind);
    iprof_entry *e = &l->items[l->count++];
    if (l->count * sizeof *e > l->ready)
        l->ready = ipi_map_ahead((char *)l->items, l->ready, l->count * sizeof *e,
                                 l->cap * sizeof *e);
    e->ctx = ctx;
    e->records = copy;
    e->record_count = (uint32_t)record_count;
    e->kind = kind;
    if (index_it)
        ipi_rtab_put(index, ipi_entry_hash(ctx), (uint32_t)l->count); /* position + 1 */
    return IPROF_OK;
}

int ipi_model_push_entry_hashed(iprof_model *m, int kind, const int64_t *frames,
                                size_t frame_count, const uint64_t *hs,
                                const int64_t *records, size_t record_count)
{
    if (!valid_kind(kind) || frame_count == 0)
        return IPROF_ESCHEMA; /* a ctx without frames has no node to stand for it */
    if (record_count > IPI_MAX_RECORDS)
        return IPROF_ELIMIT;
    const iprof_context *ctx;
    int rc = hs ? ipi_context_intern_hashed(m, frames, frame_count, hs, &ctx)
                : ipi_context_intern(m, frames, frame_count, &ctx);
    return rc ? rc : append_entry(m, kind, ctx, records, record_count);
}

/* ---- combining ---------------------------------------------------------- */

/* A small open-addressing table from a group's key (the values other than
 * the count: bci and index, or the type id) to its group position, so
 * combining is linear in the record count. Small tables live on the stack.
 *
 * Conditional triples meet by occurrence: the i-th triple of a (bci,
 * index) being added meets the i-th of the entry's, further ones are
 * appended, so that a repeat stays a record of its own (GraalVM counts
 * each record: docs/format.md). The entry's groups of one key are then
 * chained through next, and cur walks the chain as they are met. Pairs
 * meet the first group of their type, repeats of the input too. */
typedef struct group_slot {
    int64_t k0, k1;
    size_t pos;  /* first group with the key + 1, 0 = empty */
    size_t last; /* the key's last group so far (chaining) */
    size_t cur;  /* the next group to meet + 1, 0 = none left */
} group_slot;

#define GROUP_STACK_SLOTS 64

typedef struct group_table {
    group_slot *slots;
    size_t cap;
    size_t *next; /* by occurrence: next[i] = the next group of i's key + 1, or 0 */
    size_t next_cap;
    const iprof_allocator *alloc;
    group_slot stack[GROUP_STACK_SLOTS];
    size_t next_stack[GROUP_STACK_SLOTS];
} group_table;

static void gtab_free(group_table *t)
{
    if (t->slots && t->slots != t->stack)
        ipi_free(t->alloc, t->slots, t->cap * sizeof(group_slot));
    if (t->next && t->next != t->next_stack)
        ipi_free(t->alloc, t->next, t->next_cap * sizeof *t->next);
}

/* A table for `keys` keys; with `chained` groups chained by occurrence
 * (next holds one link per group). Sized for the keys, not for the stack:
 * most entries have a group or two, and a merge combines every entry it
 * meets (clearing 64 slots each was 3 % of a merge of a profile with
 * itself). */
static int gtab_init(group_table *t, const iprof_allocator *a, size_t keys, size_t chained)
{
    size_t cap = 4;
    while (cap < keys * 2) {
        if (cap > SIZE_MAX / 2 / sizeof(group_slot))
            return IPROF_ENOMEM;
        cap *= 2;
    }
    t->cap = cap;
    t->alloc = a;
    t->slots = cap <= GROUP_STACK_SLOTS ? t->stack : ipi_malloc(a, cap * sizeof(group_slot));
    t->next = NULL;
    t->next_cap = chained;
    if (chained <= GROUP_STACK_SLOTS)
        t->next = chained ? t->next_stack : NULL;
    else if (chained <= SIZE_MAX / sizeof *t->next)
        t->next = ipi_malloc(a, chained * sizeof *t->next);
    if (!t->slots || (chained && !t->next)) {
        gtab_free(t);
        return IPROF_ENOMEM;
    }
    memset(t->slots, 0, cap * sizeof(group_slot));
    return IPROF_OK;
}

/* The key of a group: every slot but the count (at most two of them). */
static void group_key(const ipi_kind_layout *L, const int64_t *g, int64_t *k0, int64_t *k1)
{
    int64_t k[2] = {0, 0};
    for (int s = 0, n = 0; s < L->group; s++)
        if (s != L->count_slot)
            k[n++] = g[s];
    *k0 = k[0];
    *k1 = k[1];
}

/* The slot of key (k0, k1): its entry, or the empty slot where it belongs. */
static group_slot *gtab_slot(group_table *t, int64_t k0, int64_t k1)
{
    size_t mask = t->cap - 1;
    size_t i = ipi_hash_combine(ipi_hash_i64(k0), (uint64_t)k1) & mask;
    while (t->slots[i].pos && (t->slots[i].k0 != k0 || t->slots[i].k1 != k1))
        i = (i + 1) & mask;
    return &t->slots[i];
}

/* Enter the group at g, position pos. Unchained, only a new key takes it
 * (returns 1); chained, every group joins its key's chain. */
static int gtab_add(group_table *t, const ipi_kind_layout *L, const int64_t *g, size_t pos)
{
    int64_t k0, k1;
    group_key(L, g, &k0, &k1);
    group_slot *s = gtab_slot(t, k0, k1);
    if (t->next)
        t->next[pos] = 0;
    if (s->pos) {
        if (t->next) {
            t->next[s->last] = pos + 1;
            s->last = pos;
        }
        return 0;
    }
    *s = (group_slot){k0, k1, pos + 1, pos, pos + 1};
    return 1;
}

/* The group that the input group g meets, SIZE_MAX when none: chained,
 * the next of its key not met yet; else its key's first. */
static size_t gtab_meet(group_table *t, const ipi_kind_layout *L, const int64_t *g)
{
    int64_t k0, k1;
    group_key(L, g, &k0, &k1);
    group_slot *s = gtab_slot(t, k0, k1);
    if (!t->next)
        return s->pos ? s->pos - 1 : SIZE_MAX;
    if (!s->cur)
        return SIZE_MAX;
    size_t at = s->cur - 1;
    s->cur = t->next[at];
    return at;
}

/* Every chain walked from its start again. */
static void gtab_rewind(group_table *t)
{
    for (size_t i = 0; i < t->cap; i++)
        t->slots[i].cur = t->slots[i].pos;
}

/* The table of the `have` groups at out, and how many of the `add` input
 * groups at in will be new. Unchained, a new input key is entered at the
 * position it will take, so that its repeats meet it. */
static int plan_groups(group_table *t, const iprof_allocator *a, int kind, const int64_t *out,
                       size_t have, const int64_t *in, size_t add, size_t *fresh)
{
    const ipi_kind_layout *L = ipi_kind_layout_of(kind);
    size_t g = (size_t)L->group;
    int chained = kind == IPROF_KIND_CONDITIONAL;
    if (gtab_init(t, a, have + add, chained ? have : 0))
        return IPROF_ENOMEM;
    for (size_t i = 0; i < have; i++)
        gtab_add(t, L, out + i * g, i);
    *fresh = 0;
    for (size_t j = 0; j < add; j++) {
        if (chained)
            *fresh += gtab_meet(t, L, in + j * g) == SIZE_MAX;
        else
            *fresh += (size_t)gtab_add(t, L, in + j * g, have + *fresh);
    }
    if (chained)
        gtab_rewind(t);
    return IPROF_OK;
}

/* Sum the input groups into the result, as planned: a group that meets
 * none is copied to the next free position, else its count is added to
 * the group it meets. */
static void apply_groups(group_table *t, const ipi_kind_layout *L, int64_t *out, size_t next,
                         const int64_t *in, size_t in_groups)
{
    size_t g = (size_t)L->group, cs = (size_t)L->count_slot;
    for (size_t j = 0; j < in_groups; j++, in += g) {
        size_t pos = gtab_meet(t, L, in);
        if (pos == SIZE_MAX || pos == next) { /* unchained: a new key planned at next */
            memcpy(out + next * g, in, g * sizeof *in);
            next++;
        } else {
            out[pos * g + cs] = ipi_count_add(out[pos * g + cs], in[cs]);
        }
    }
}

/* ---- a valid bci's winning index ---------------------------------------- */

/* GraalVM gives a valid bci the probability of its last triple's index
 * (docs/format.md). Combining keeps the entry's triples and appends those
 * that meet none, so the bci's last triple, and what the compiler is told,
 * would depend on which side came first, and could contradict both sides
 * (an entry (10,1) and an input (10,0),(10,1) both say index 1; appending
 * (10,0) said 0). The combined bci takes the larger of the two sides'
 * winning indexes (the one side's where only one has the bci), the same
 * in any order: the last triple of that index moves to the end, behind the bci's
 * others, every other triple keeping its order (the i-th occurrence of a
 * (bci, index) stays the i-th). */
typedef struct bci_slot {
    int64_t bci, side[2], cur; /* side: the entry's and the input's winner */
    unsigned char used, has[2], moved;
} bci_slot;

typedef struct winners {
    bci_slot *slots; /* NULL: nothing to do (not conditional, or a side empty) */
    size_t cap, n;   /* n: triples of the result at most */
    unsigned char *move;
    int64_t *tmp;
    const iprof_allocator *alloc;
} winners;

static void winners_free(winners *w)
{
    if (!w->slots)
        return;
    ipi_free(w->alloc, w->slots, w->cap * sizeof *w->slots);
    ipi_free(w->alloc, w->move, w->n);
    ipi_free(w->alloc, w->tmp, 3 * w->n * sizeof *w->tmp);
    w->slots = NULL;
}

/* Everything the reordering needs, before the entry changes: `have`
 * triples with `add` more, `n` of them in the result at most. */
static int winners_init(winners *w, const iprof_allocator *a, int kind, size_t have, size_t add,
                        size_t n)
{
    memset(w, 0, sizeof *w);
    if (kind != IPROF_KIND_CONDITIONAL || !have || !add)
        return IPROF_OK;
    size_t cap = 16;
    while (cap < 2 * (have + add)) {
        if (cap > SIZE_MAX / 4 / sizeof(bci_slot))
            return IPROF_ENOMEM;
        cap *= 2;
    }
    if (n > SIZE_MAX / 3 / sizeof(int64_t))
        return IPROF_ENOMEM;
    w->alloc = a;
    w->cap = cap;
    w->n = n;
    w->slots = ipi_malloc(a, cap * sizeof *w->slots);
    w->move = ipi_malloc(a, n);
    w->tmp = ipi_malloc(a, 3 * n * sizeof *w->tmp);
    if (!w->slots || !w->move || !w->tmp) {
        if (w->slots)
            ipi_free(a, w->slots, cap * sizeof *w->slots);
        if (w->move)
            ipi_free(a, w->move, n);
        if (w->tmp)
            ipi_free(a, w->tmp, 3 * n * sizeof *w->tmp);
        w->slots = NULL;
        return IPROF_ENOMEM;
    }
    return IPROF_OK;
}

static bci_slot *bci_at(winners *w, int64_t bci)
{
    size_t mask = w->cap - 1, i = (size_t)ipi_hash_i64(bci) & mask;
    while (w->slots[i].used && w->slots[i].bci != bci)
        i = (i + 1) & mask;
    bci_slot *s = &w->slots[i];
    if (!s->used)
        *s = (bci_slot){.bci = bci, .used = 1};
    return s;
}

/* Note each valid bci's last index of the n triples at r on `side`. */
static void note_side(winners *w, int side, const int64_t *r, size_t n)
{
    for (size_t j = 0; j < n; j++, r += 3) {
        if (r[0] == IPROF_INVALID_BRANCH_BCI)
            continue;
        bci_slot *s = bci_at(w, r[0]);
        s->side[side] = r[1];
        s->has[side] = 1;
    }
}

/* The n result triples at out (the entry's `have` first, as they were)
 * combined from the `add` input triples at in: give each valid bci its
 * winner last. */
static void winners_apply(winners *w, int64_t *out, size_t have, size_t n, const int64_t *in,
                          size_t add)
{
    if (!w->slots)
        return;
    memset(w->slots, 0, w->cap * sizeof *w->slots);
    note_side(w, 0, out, have);
    note_side(w, 1, in, add);
    for (size_t j = 0; j < n; j++)
        if (out[3 * j] != IPROF_INVALID_BRANCH_BCI)
            bci_at(w, out[3 * j])->cur = out[3 * j + 1];
    size_t moved = 0;
    for (size_t j = n; j-- > 0;) {
        w->move[j] = 0;
        if (out[3 * j] == IPROF_INVALID_BRANCH_BCI)
            continue;
        bci_slot *s = bci_at(w, out[3 * j]);
        int64_t want = !s->has[0]                ? s->side[1]
                       : !s->has[1]              ? s->side[0]
                       : s->side[0] > s->side[1] ? s->side[0]
                                                 : s->side[1];
        if (s->cur != want && !s->moved && out[3 * j + 1] == want) {
            w->move[j] = 1;
            s->moved = 1;
            moved++;
        }
    }
    if (!moved)
        return;
    size_t keep = 0, t = 0;
    for (size_t j = 0; j < n; j++) {
        int64_t *dst = w->move[j] ? w->tmp + 3 * t++ : out + 3 * keep++;
        memmove(dst, out + 3 * j, 3 * sizeof *out);
    }
    memcpy(out + 3 * keep, w->tmp, 3 * t * sizeof *out);
}

/*
 * Combine records into an existing entry. Counting new groups first means
 * one arena block when the entry grows, and an in-place sum (no arena
 * block) when it does not; the tables (and, for conditional entries, the
 * winners' scratch) are allocated before anything changes.
 */
static int combine(iprof_model *m, iprof_entry *e, const int64_t *records, size_t record_count)
{
    const ipi_kind_layout *L = ipi_kind_layout_of(e->kind);
    size_t g = (size_t)L->group, have = e->record_count / g, add = record_count / g, fresh;
    if (e->record_count % g)
        return IPROF_ESCHEMA; /* a leniently loaded entry that cannot be combined */
    group_table t;
    if (plan_groups(&t, &m->alloc, e->kind, e->records, have, records, add, &fresh))
        return IPROF_ENOMEM;
    int64_t *out = e->records;
    int rc = IPROF_OK;
    winners w = {0};
    if (fresh && (have + fresh) * g > IPI_MAX_RECORDS)
        rc = IPROF_ELIMIT;
    else if (winners_init(&w, &m->alloc, e->kind, have, add, have + fresh) ||
             (fresh && !(out = ipi_arena_alloc(&m->arena, (have + fresh) * g * sizeof *out))))
        rc = IPROF_ENOMEM;
    if (rc == IPROF_OK) {
        ipi_model_changed(m, IPI_CHANGED_RECORDS, e->kind);
        if (out != e->records)
            memcpy(out, e->records, have * g * sizeof *out);
        apply_groups(&t, L, out, have, records, add);
        winners_apply(&w, out, have, have + fresh, records, add);
        e->records = out;
        e->record_count = (uint32_t)((have + fresh) * g);
    }
    winners_free(&w);
    gtab_free(&t);
    return rc;
}

int ipi_records_combine(const iprof_allocator *a, int kind, int64_t *out, size_t *count,
                        const int64_t *add, size_t add_count)
{
    const ipi_kind_layout *L = ipi_kind_layout_of(kind);
    size_t g = (size_t)L->group, have = *count / g, more = add_count / g, fresh;
    if (*count % g)
        return IPROF_ESCHEMA;
    group_table t;
    if (plan_groups(&t, a, kind, out, have, add, more, &fresh))
        return IPROF_ENOMEM;
    winners w;
    if (winners_init(&w, a, kind, have, more, have + fresh)) {
        gtab_free(&t);
        return IPROF_ENOMEM;
    }
    apply_groups(&t, L, out, have, add, more);
    winners_apply(&w, out, have, have + fresh, add, more);
    *count = (have + fresh) * g;
    winners_free(&w);
    gtab_free(&t);
    return IPROF_OK;
}

/* ---- adding ------------------------------------------------------------- */

/* The first reference of an entry (ctx method ids where the kind checks
 * them, record type slots) that m does not define: 1 with *is_type and
 * *id set, 0 when all resolve. */
static int missing_ref(const iprof_model *m, int kind, const int64_t *frames, size_t nframes,
                       const int64_t *records, size_t nrecords, int *is_type, int64_t *id)
{
    const ipi_kind_layout *L = ipi_kind_layout_of(kind);
    *is_type = 0;
    for (size_t i = 0; L->checks_methods && i < nframes; i++)
        if (!ipi_model_method_by_id(m, (*id = frames[2 * i])))
            return 1;
    *is_type = 1;
    for (size_t i = (size_t)L->type_slot; L->type_slot >= 0 && i < nrecords;
         i += (size_t)L->group)
        if (!ipi_model_type_by_id(m, (*id = records[i])))
            return 1;
    return 0;
}

/* missing_ref for an entry of m, its whole context walked (frames past
 * the 16 a report shows are checked too). */
static int entry_missing_ref(const iprof_model *m, const iprof_entry *e, int *is_type,
                             int64_t *id)
{
    const ipi_kind_layout *L = ipi_kind_layout_of(e->kind);
    *is_type = 0;
    for (const iprof_context *c = e->ctx; L->checks_methods && c; c = c->parent)
        if (!ipi_model_method_by_id(m, (*id = c->method)))
            return 1;
    return missing_ref(m, e->kind, NULL, 0, e->records, e->record_count, is_type, id);
}

/* Fail with `status`, naming a reference that does not resolve. */
static int fail_ref(iprof_model *report, int kind, const int64_t *frames, size_t nframes,
                    int is_type, int64_t id, const char *whose)
{
    ipi_subject about = {kind, frames, nframes, is_type ? &id : NULL, is_type ? NULL : &id};
    return ipi_model_fail_about(report, IPROF_EDANGLING, &about,
                                "%s entry: %s id %lld is not defined in %s", iprof_kind_name(kind),
                                is_type ? "type" : "method", (long long)id, whose);
}

/* Every check of add_entry that needs no change to the model; failures
 * say what and where in the model's report. */
int ipi_entry_check_new(iprof_model *m, int kind, const int64_t *frames, size_t frame_count,
                        const int64_t *records, size_t record_count)
{
    if (!valid_kind(kind))
        return ipi_model_fail(m, IPROF_EINVAL, "invalid entry kind %d", kind);
    if (!frames || frame_count == 0 || frame_count > SIZE_MAX / 2 / sizeof *frames ||
        (!records && record_count))
        return ipi_model_fail_about(m, IPROF_EINVAL, &(ipi_subject){kind, NULL, 0, NULL, NULL},
                                    "%s entry: no frames, or NULL records",
                                    iprof_kind_name(kind));
    ipi_subject about = {kind, frames, frame_count, NULL, NULL};
    int rule = ipi_rule_check_entry(kind, frames, frame_count, records, record_count);
    if (rule != IPI_RULE_OK)
        return ipi_model_fail_about(m, IPROF_ESCHEMA, &about, "%s entry: %s: %s",
                                    iprof_kind_name(kind), ipi_rule_is_ctx(rule) ? "ctx" : "records",
                                    ipi_rule_message(rule));
    int is_type;
    int64_t id;
    if (missing_ref(m, kind, frames, frame_count, records, record_count, &is_type, &id))
        return fail_ref(m, kind, frames, frame_count, is_type, id, "the model");
    if (record_count > IPI_MAX_RECORDS)
        return ipi_model_fail_about(m, IPROF_ELIMIT, &about, "%s entry: more than %zu records",
                                    iprof_kind_name(kind), (size_t)IPI_MAX_RECORDS);
    return IPROF_OK;
}

/* An existing entry's frames, callee side first, as many as fit in buf
 * (16 frames: enough to say where it is). */
static size_t entry_frames(const iprof_entry *e, int64_t buf[32])
{
    size_t n = 0;
    for (const iprof_context *c = e->ctx; c && n < 16; c = c->parent, n++) {
        buf[2 * n] = c->method;
        buf[2 * n + 1] = ipi_ctx_bci(c);
    }
    return n;
}

int ipi_entry_check_refs(iprof_model *report, const iprof_model *m, const iprof_entry *e,
                         const char *whose)
{
    int is_type;
    int64_t id, frames[32]; /* for the report only: filled on failure */
    if (!entry_missing_ref(m, e, &is_type, &id))
        return IPROF_OK;
    return fail_ref(report, e->kind, frames, entry_frames(e, frames), is_type, id, whose);
}

int ipi_entry_refs_ok(const iprof_model *m, const iprof_entry *e)
{
    int is_type;
    int64_t id;
    return !entry_missing_ref(m, e, &is_type, &id);
}

int ipi_entry_check_type_refs(iprof_model *report, const iprof_model *m, const iprof_entry *e,
                              const char *whose)
{
    int64_t frames[32];
    int is_type;
    int64_t id;
    if (!missing_ref(m, e->kind, NULL, 0, e->records, e->record_count, &is_type, &id))
        return IPROF_OK;
    return fail_ref(report, e->kind, frames, entry_frames(e, frames), is_type, id, whose);
}

int ipi_entry_fail_rule(iprof_model *report, const iprof_entry *e, int rule, int grouping)
{
    int64_t frames[32];
    size_t n = entry_frames(e, frames);
    ipi_subject about = {e->kind, frames, n, NULL, NULL};
    return ipi_model_fail_about(report, IPROF_ESCHEMA, &about, "%s entry: %s: %s%s",
                                iprof_kind_name(e->kind), ipi_rule_is_ctx(rule) ? "ctx" : "records",
                                ipi_rule_message(rule),
                                grouping ? ", so its records cannot be grouped" : "");
}

IPROF_API int iprof_model_add_entry(iprof_model *model, int kind, const int64_t *frames,
                                    size_t frame_count, const int64_t *records,
                                    size_t record_count)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    int rc = ipi_entry_check_new(model, kind, frames, frame_count, records, record_count);
    if (rc)
        return rc;
    ipi_entry_list *l = &model->entries[kind];
    /* Adding keeps the kind's index from now on (a loaded model has none). */
    if (!ipi_index_get(model, IPI_IX_ENTRIES + kind))
        return IPROF_ENOMEM;
    /* Look up before interning: combining must not create context nodes,
     * and a failed combine must leave the model as it was. */
    const iprof_context *ctx = ipi_context_lookup(model, frames, frame_count);
    size_t pos = ctx ? ipi_find_entry_pos(model, kind, ctx) : 0;
    if (pos)
        return combine(model, &l->items[pos - 1], records, record_count);
    if ((rc = check_room(model, kind))) /* before a context node is made */
        return rc;
    rc = ctx ? IPROF_OK : ipi_context_intern(model, frames, frame_count, &ctx);
    return rc ? rc : append_entry(model, kind, ctx, records, record_count);
}

int ipi_entry_merge_at(iprof_model *m, int kind, const iprof_context *ctx,
                       const int64_t *records, size_t record_count, ipi_entry_hook before,
                       void *payload)
{
    size_t pos = ipi_find_entry_pos(m, kind, ctx);
    if (!pos)
        return append_entry(m, kind, ctx, records, record_count);
    int rc = before(payload, kind, pos - 1);
    return rc ? rc : combine(m, &m->entries[kind].items[pos - 1], records, record_count);
}

/* ---- lookup and access -------------------------------------------------- */

static size_t find_pos(const iprof_model *m, int kind, const int64_t *frames, size_t n)
{
    if (!m || !valid_kind(kind) || !frames || n == 0)
        return 0;
    const iprof_context *ctx = ipi_context_lookup(m, frames, n);
    return ctx ? ipi_find_entry_pos(m, kind, ctx) : 0;
}

IPROF_API const iprof_entry *iprof_model_entry_find(const iprof_model *model, int kind,
                                                    const int64_t *frames,
                                                    size_t frame_count)
{
    size_t pos = find_pos(model, kind, frames, frame_count);
    return pos ? &model->entries[kind].items[pos - 1] : NULL;
}

IPROF_API size_t iprof_model_entry_count(const iprof_model *model, int kind)
{
    return model && valid_kind(kind) ? model->entries[kind].count : 0;
}

IPROF_API const iprof_entry *iprof_model_entry_at(const iprof_model *model, int kind,
                                                  size_t index)
{
    if (!model || !valid_kind(kind) || index >= model->entries[kind].count)
        return NULL;
    return &model->entries[kind].items[index];
}

IPROF_API int iprof_entry_kind(const iprof_entry *entry)
{
    return entry ? entry->kind : -1;
}

IPROF_API const iprof_context *iprof_entry_context(const iprof_entry *entry)
{
    return entry ? entry->ctx : NULL;
}

IPROF_API const int64_t *iprof_entry_records(const iprof_entry *entry, size_t *len)
{
    if (len)
        *len = entry ? entry->record_count : 0;
    return entry ? entry->records : NULL;
}

/* ---- removal ------------------------------------------------------------ */

int ipi_entry_frames_pass(const iprof_entry *e, iprof_frame_pred keep, void *payload)
{
    for (const iprof_context *c = e->ctx; c; c = c->parent)
        if (!keep(c->method, ipi_ctx_bci(c), payload))
            return 0;
    return 1;
}

typedef struct by_frame {
    iprof_frame_pred keep;
    void *payload;
} by_frame;

static int all_frames_pass(const iprof_entry *e, void *payload)
{
    const by_frame *b = payload;
    return ipi_entry_frames_pass(e, b->keep, b->payload);
}

int ipi_model_retain_entries_by_frame(iprof_model *model, int kind, iprof_frame_pred keep,
                                      void *payload)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    if (kind < -1 || kind >= IPROF_KIND_COUNT || !keep)
        return ipi_model_fail(model, IPROF_EINVAL, "invalid kind %d, or no predicate", kind);
    by_frame b = {keep, payload};
    for (int k = kind < 0 ? 0 : kind; k < (kind < 0 ? IPROF_KIND_COUNT : kind + 1); k++) {
        int rc = ipi_model_retain_entries(model, k, all_frames_pass, &b);
        if (rc)
            return rc;
    }
    return IPROF_OK;
}

static int not_the_method(int64_t method_id, int64_t bci, void *payload)
{
    (void)bci;
    return method_id != *(const int64_t *)payload;
}

/* Every kind whose contexts name methods: a monitor's "0:0" is a dummy. */
static const int method_kinds[] = {IPROF_KIND_CALL_COUNT, IPROF_KIND_CONDITIONAL,
                                   IPROF_KIND_VIRTUAL_INVOKE, IPROF_KIND_SAMPLING,
                                   IPROF_KIND_INSTANCEOF};

int ipi_model_remove_method_flags(iprof_model *model, int64_t id, unsigned int flags)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    if (flags & ~IPROF_REMOVE_CASCADE)
        return ipi_model_fail(model, IPROF_EINVAL, "unknown remove flags 0x%x",
                              flags & ~IPROF_REMOVE_CASCADE);
    if (!(flags & IPROF_REMOVE_CASCADE))
        return ipi_model_remove_method(model, id, IPI_CHANGED_UNCHECKED); /* entries may name it */
    if (!ipi_model_method_by_id(model, id))
        return ipi_model_fail_about(model, IPROF_ENOTFOUND, &(ipi_subject){-1, NULL, 0, NULL, &id},
                                    "no method with id %lld", (long long)id);
    int rc = IPROF_OK;
    for (size_t k = 0; !rc && k < sizeof method_kinds / sizeof method_kinds[0]; k++)
        rc = ipi_model_retain_entries_by_frame(model, method_kinds[k], not_the_method, &id);
    /* Nothing names it any more: what was checked stays so. */
    return rc ? rc : ipi_model_remove_method(model, id, 0);
}

IPROF_API int iprof_model_remove_entry(iprof_model *model, int kind, const int64_t *frames,
                                       size_t frame_count)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    if (!valid_kind(kind) || !frames || frame_count == 0)
        return ipi_model_fail(model, IPROF_EINVAL, "invalid kind %d, or no frames", kind);
    size_t pos = find_pos(model, kind, frames, frame_count);
    if (!pos)
        return ipi_model_fail_about(model, IPROF_ENOTFOUND,
                                    &(ipi_subject){kind, frames, frame_count, NULL, NULL},
                                    "no %s entry with this context", iprof_kind_name(kind));
    ipi_entry_list *l = &model->entries[kind];
    ipi_array_remove(l->items, &l->count, pos - 1, sizeof *l->items);
    ipi_model_changed(model, IPI_CHANGED_ENTRIES_REMOVED, kind);
    return IPROF_OK;
}

int ipi_model_retain_entries(iprof_model *model, int kind, iprof_model_entry_pred keep,
                             void *payload)
{
    if (!model)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&model->error);
    if (!valid_kind(kind) || !keep)
        return ipi_model_fail(model, IPROF_EINVAL, "invalid kind %d, or no predicate", kind);
    ipi_entry_list *l = &model->entries[kind];
    size_t j = 0;
    for (size_t i = 0; i < l->count; i++)
        if (keep(&l->items[i], payload))
            l->items[j++] = l->items[i];
    if (j == l->count)
        return IPROF_OK;
    l->count = j;
    ipi_model_changed(model, IPI_CHANGED_ENTRIES_REMOVED, kind);
    return IPROF_OK;
}

