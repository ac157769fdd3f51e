/*
 * The merge engine: a profile merged into a model as it is read
 * (iprof_model_merge_source), or a loaded model walked as the same stream
 * of elements (ipi_merge_model_stream, for iprof_model_merge). The load's
 * builder (load_builder.c) takes batches of events, filled by the load's
 * reader callbacks (model_load.c) or by the walk; here each batch is
 * remapped to dst's ids and combined into dst, on the builder's thread
 * when the read or the merge is threaded. No model of the input is built:
 * memory is dst's plus a few batches, the id maps and a journal.
 *
 * A batch goes in two passes. The first takes its types and methods into
 * dst (by name: merge.c's ipi_merge_type and ipi_merge_method) and rewrites its entries in place to
 * dst's ids, scaled counts and the hashes of dst's context nodes; the
 * second interns those contexts and combines the entries, fetching the
 * table slots of later entries ahead as the load does.
 *
 * A method or entry that refers to an id the input has not defined yet
 * (its section comes later in the file) waits in a deferred list, replayed
 * at the end; what still does not resolve then is dangling.
 *
 * All or nothing: before an entry dst had is changed, its records go to
 * the journal; on any failure, what the merge added is cut off and the
 * journalled records put back (journal.c).
 */
#include "hash.h"
#include "idpages.h"
#include "load_builder.h"
#include "journal.h"
#include "merge.h"
#include "merge_types.h"
#include "model.h"
#include "reader_internal.h"
#include "rules.h"
#include "scale.h"

/* ---- state -------------------------------------------------------------- */

/* stream_merge.mids: no method (yet), or one whose dst id is this very
 * value (left to mmap). */
#define NO_METHOD INT64_MIN

/* How many methods later the reading thread premaps a method. */
#define PREMAP_AHEAD 8

typedef struct stream_merge {
    iprof_model *dst;
    /* The input's version, unknown keys and instanceof spelling: a model
     * holding nothing else (side, when the input is read), or the source
     * model itself; combined into dst at the end. */
    iprof_model *side;
    const iprof_model *extras;
    ipi_scaler sc;
    ipi_idmap tmap;     /* input type id -> dst type */
    int64_t tmax, mmax; /* largest type/method id of dst (fresh ids) */
    const iprof_type **sig;
    size_t sig_cap;
    int64_t *ids;
    size_t ids_cap;
    ipi_event *ready; /* pass two: the batch's remapped entries, decoded once */
    size_t ready_cap;
    const iprof_context **ctxs; /* pass two: their contexts in dst */
    size_t ctxs_cap;
    ipi_batch *deferred[2], *deferred_tail[2]; /* methods, entries waiting for ids */
    int final;              /* replaying the deferred: nothing waits again */
    /* The reading thread's share. Once the types (then the methods) are
     * all applied, the type map (then the method map) no longer changes,
     * so the reading thread remaps each method's signature and key, and
     * each entry, as it puts them in a batch (on_put), and the merging
     * thread only looks up and combines. A method's premap is the merging
     * thread's instead (apply_batch) while it keeps up with the reading
     * thread (ipi_builder_behind): in a merge that finds most of its
     * input in dst, the reading thread is the slower one. Set by the
     * reading thread after draining the builder (on_section); read by it
     * alone. */
    ipi_builder *builder;
    int types_seen, methods_seen, types_final, methods_final;
    /* Once the types are final: what premap reads of them, so that a
     * method's key and signature read one small slot per type id instead
     * of tmap, a type and its name (merge_types.h). A premapped method
     * carries its signature as dst ids when dst's types are one to one
     * (types.by_id) and is matched by comparing ids, not by reading a
     * type per id (the merging thread's costliest misses). */
    ipi_merge_types types;
    /* Methods, then entries, put in the filling batch whose premap waits
     * (what it reads fetched when they were put: a method's slots in
     * types, an entry's slots in mids): premapped PREMAP_AHEAD elements
     * later, or all at once before the batch can be handed over
     * (on_flush) or the builder drained (on_section). Reading thread. */
    ipi_batch *pending_batch;
    size_t pending[PREMAP_AHEAD];
    size_t pending_count, pending_first;
    /* Input method id -> dst method, kept by the merging thread as it
     * takes the methods: the dst id itself in mids for the ids a file
     * numbers densely (an entry's frames are then remapped, dst_method,
     * with one small read each, not a map slot and the method), the dst
     * method in mmap for the others (idpages.h refuses them). */
    ipi_idpages mids;
    ipi_idmap mmap;
    /* The first entry that breaks a rule: reported (in dst's error) only
     * when no reference dangles, the more basic fault. */
    int rule_failed;
    ipi_journal j;
    ipi_merge_paths paths; /* counted by the merging thread; dst's at the end */
} stream_merge;

static const iprof_allocator *alloc_of(const stream_merge *s)
{
    return &s->dst->alloc;
}

static void state_free(stream_merge *s)
{
    const iprof_allocator *a = alloc_of(s);
    ipi_idmap_free(&s->tmap, a);
    ipi_idmap_free(&s->mmap, a);
    ipi_free(a, s->sig, s->sig_cap * sizeof *s->sig);
    ipi_free(a, s->ids, s->ids_cap * sizeof *s->ids);
    ipi_free(a, s->ready, s->ready_cap * sizeof *s->ready);
    ipi_free(a, s->ctxs, s->ctxs_cap * sizeof *s->ctxs);
    ipi_merge_types_free(&s->types, a);
    ipi_idpages_free(&s->mids, a);
    for (int i = 0; i < 2; i++)
        for (ipi_batch *b = s->deferred[i], *next; b; b = next) {
            next = b->next;
            ipi_batch_free(a, b);
        }
    ipi_journal_free(&s->j, s->dst);
    iprof_model_free(s->side);
}

/* ---- waiting for ids ---------------------------------------------------- */

/* Keep a method or entry whose ids the input defines later: appended to
 * the deferred list (methods 0, entries 1), in file order. */
static int defer(stream_merge *s, const ipi_event *e)
{
    int which = e->tag == IPI_EV_METHOD ? 0 : 1;
    size_t size = which == 0 ? ipi_batch_named_size(e->name_len, e->n)
                             : ipi_batch_entry_size(e->n, e->record_count);
    ipi_batch *tail = s->deferred_tail[which];
    if (size == (size_t)-1)
        return IPROF_ELIMIT; /* the reader's batch held it: cannot happen */
    if (!tail || tail->used + size > tail->cap) {
        ipi_batch *b = ipi_batch_new(alloc_of(s), size);
        if (!b)
            return IPROF_ENOMEM;
        if (tail)
            tail->next = b;
        else
            s->deferred[which] = b;
        s->deferred_tail[which] = tail = b;
    }
    if (which == 0)
        ipi_batch_put_method(tail, e->id, e->name, e->name_len, e->ids, e->n);
    else
        ipi_batch_put_entry(tail, e->tag, e->ids, e->n, e->records, e->record_count);
    return IPROF_OK;
}

/* An id the input did not define (by the end of the input). */
static int dangling(stream_merge *s, const ipi_event *e, int is_type, int64_t id)
{
    ipi_subject about = {e->tag < IPI_EV_VERSION ? e->tag : -1, NULL, 0,
                         is_type ? &id : NULL, is_type ? NULL : &id};
    if (e->tag < IPI_EV_VERSION) {
        about.frames = e->ids;
        about.frame_count = e->n;
    }
    const char *what = e->tag == IPI_EV_METHOD ? "method" : iprof_kind_name(e->tag);
    return ipi_model_fail_about(s->dst, IPROF_EDANGLING, &about,
                                "%s %s: %s id %lld is not defined in the profile merged from",
                                what, e->tag == IPI_EV_METHOD ? "signature" : "entry",
                                is_type ? "type" : "method", (long long)id);
}

/* ---- pass one: names and ids -------------------------------------------- */

static int take_type(stream_merge *s, const ipi_event *e)
{
    iprof_model *dst = s->dst;
    const ipi_str *name;
    const iprof_type *t;
    int rc = ipi_model_intern(dst, e->name_len ? e->name : "", e->name_len, e->hash, &name);
    if (rc || (rc = ipi_merge_type(dst, e->id, name, &s->tmax, &t)))
        return rc;
    if (ipi_idmap_get(&s->tmap, e->id)) /* a repeated input id means its first type */
        return IPROF_OK;
    return ipi_idmap_put(&s->tmap, alloc_of(s), e->id, (void *)t);
}

/* Whether the input has defined method id x (so far), with its dst id in
 * *out. */
static int dst_method(const stream_merge *s, int64_t x, int64_t *out)
{
    int64_t id = ipi_idpages_get(&s->mids, x);
    if (id != NO_METHOD) {
        *out = id;
        return 1;
    }
    const iprof_method *m = ipi_idmap_get(&s->mmap, x);
    if (m)
        *out = m->id;
    return m != NULL;
}

/* Input method id -> dst method m. IPROF_OK or IPROF_ENOMEM. */
static int note_method(stream_merge *s, int64_t id, const iprof_method *m)
{
    int kept = 0, rc = IPROF_OK;
    if (m->id != NO_METHOD) /* NO_METHOD is the pages' "none" */
        rc = ipi_idpages_put(&s->mids, alloc_of(s), id, m->id, &kept);
    return rc || kept ? rc : ipi_idmap_put(&s->mmap, alloc_of(s), id, (void *)m);
}

static int take_method(stream_merge *s, const ipi_event *e)
{
    uint64_t h = *e->key;
    int by_id = e->premapped && s->types.by_id; /* dst's type ids, the key computed */
    s->paths.methods_premapped += e->premapped != 0;
    s->paths.methods_by_id += by_id;
    if (!by_id && (ipi_grow_array(alloc_of(s), &s->sig, &s->sig_cap, e->n, sizeof *s->sig) ||
                   ipi_grow_array(alloc_of(s), &s->ids, &s->ids_cap, e->n, sizeof *s->ids)))
        return IPROF_ENOMEM;
    if (e->premapped && !by_id) { /* dst's types, the key computed */
        for (size_t i = 0; i < e->n; i++)
            s->sig[i] = (const iprof_type *)(uintptr_t)e->ids[i];
    } else if (!by_id) {
        for (size_t i = 0; i < e->n; i++)
            if (!(s->sig[i] = ipi_idmap_get(&s->tmap, e->ids[i])))
                return s->final ? dangling(s, e, 1, e->ids[i]) : defer(s, e);
        h = ipi_method_names_hash_of(e->hash, s->sig, e->n);
    }
    const ipi_str *name;
    const iprof_method *m;
    int rc = ipi_model_intern(s->dst, e->name_len ? e->name : "", e->name_len, e->hash, &name);
    rc = rc      ? rc
             : by_id ? ipi_merge_method_ids(s->dst, e->id, name, e->ids, e->n, h, &s->mmax, &m)
                     : ipi_merge_method(s->dst, e->id, name, s->sig, e->n, h, s->ids, &s->mmax, &m);
    if (rc)
        return rc;
    int64_t had;
    if (dst_method(s, e->id, &had)) /* a repeated input id means its first method */
        return IPROF_OK;
    return note_method(s, e->id, m);
}

/* The first id of an entry the input has not defined (so far): 1 with
 * *is_type and *id set, else 0. */
static int unresolved(const stream_merge *s, const ipi_kind_layout *L, const ipi_event *e,
                      int *is_type, int64_t *id)
{
    int64_t dst;
    *is_type = 0;
    for (size_t i = 0; L->checks_methods && i < e->n; i++)
        if (!dst_method(s, (*id = e->ids[2 * i]), &dst))
            return 1;
    *is_type = 1;
    for (size_t i = (size_t)L->type_slot; L->type_slot >= 0 && i < e->record_count;
         i += (size_t)L->group)
        if (!ipi_idmap_get(&s->tmap, (*id = e->records[i])))
            return 1;
    return 0;
}

/* Whether the entry keeps its kind's rules; the first that does not is
 * remembered (in dst's error) for the end. */
static int entry_rules_hold(stream_merge *s, const ipi_event *e)
{
    int rule = ipi_rule_check_entry(e->tag, e->ids, e->n, e->records, e->record_count);
    if (rule == IPI_RULE_OK)
        return 1;
    if (!s->rule_failed)
        s->rule_failed = ipi_model_fail_about(
            s->dst, IPROF_ESCHEMA, &(ipi_subject){e->tag, e->ids, e->n, NULL, NULL},
            "%s entry: %s: %s, so its records cannot be grouped", iprof_kind_name(e->tag),
            ipi_rule_is_ctx(rule) ? "ctx" : "records", ipi_rule_message(rule));
    return 0;
}

/* An entry whose ids resolve, in dst's ids and scaled counts, with the
 * hashes of its context in dst's ids. Reads only the maps and the scaler:
 * the reading thread does it too (premap_entry). */
static void remap_in_place(const stream_merge *s, const ipi_kind_layout *L, ipi_event *e)
{
    for (size_t i = 0; L->checks_methods && i < e->n; i++)
        dst_method(s, e->ids[2 * i], &e->ids[2 * i]); /* resolves: checked */
    size_t g = (size_t)L->group;
    for (size_t i = 0; i < e->record_count; i += g) {
        int64_t *r = e->records + i;
        if (L->type_slot >= 0)
            r[L->type_slot] = ((const iprof_type *)ipi_idmap_get(&s->tmap, r[L->type_slot]))->id;
        r[L->count_slot] = ipi_scale(&s->sc, r[L->count_slot]);
    }
    if (L->checks_methods)
        ipi_context_hashes(e->ids, e->n, e->hashes);
}

/* Check an entry and rewrite it in place in dst's terms (unless the
 * reading thread did). *ready: it is to be combined in pass two (not
 * deferred, not refused). */
static int remap_entry(stream_merge *s, ipi_event *e, int *ready)
{
    const ipi_kind_layout *L = ipi_kind_layout_of(e->tag);
    *ready = 0;
    int is_type;
    int64_t id;
    if (!e->premapped && unresolved(s, L, e, &is_type, &id))
        return s->final ? dangling(s, e, is_type, id) : defer(s, e);
    if (!e->premapped && !entry_rules_hold(s, e))
        return IPROF_OK; /* skipped: the merge fails at the end */
    if (e->record_count > IPI_MAX_RECORDS)
        return ipi_model_fail_about(s->dst, IPROF_ELIMIT,
                                    &(ipi_subject){e->tag, e->ids, e->n, NULL, NULL},
                                    "%s entry: more than %zu records", iprof_kind_name(e->tag),
                                    (size_t)IPI_MAX_RECORDS);
    if (!e->premapped)
        remap_in_place(s, L, e);
    else
        s->paths.entries_premapped++;
    /* In dst's ids the entry may break a rule it kept in the input's (a
     * leniently loaded dst with a negative method id): refused, as adding
     * it to dst would be. */
    if (!entry_rules_hold(s, e))
        return IPROF_OK;
    *ready = 1;
    return IPROF_OK;
}

/* ---- premapping a method ------------------------------------------------ */

/* A method whose signature types are all mapped: its signature as dst's
 * type ids when dst's types are one to one (types.by_id), else as dst's
 * types (pointers in the id slots: a leniently loaded dst may repeat an
 * id, so an id would not say which type the name matched) and its key in
 * the key slot (ipi_method_names_hash_of's, with no array of types to
 * build). Through s->types (built when the types are final), else
 * through tmap. 1 when premapped. On the reading thread (put_method), or on the merging
 * thread when that one has time to spare (apply_batch); the same either
 * way. */
#define PREMAP_SIG 32 /* longer signatures (none in real files) take tmap */

static int premap_signature(const stream_merge *s, ipi_event *e)
{
    uint64_t h = ipi_hash_combine(e->hash, (uint64_t)e->n);
    int64_t dst[PREMAP_SIG];
    size_t i = 0;
    for (uint64_t v; i < e->n && e->n <= PREMAP_SIG &&
                     ipi_merge_types_get(&s->types, e->ids[i], &v, &dst[i]);
         i++)
        h = ipi_hash_combine(h, v);
    if (i == e->n) {
        memcpy(e->ids, dst, e->n * sizeof *dst);
    } else { /* a type mapped after s->types was built (a deferred method's), a
              * name hashing to 0, or a signature longer than PREMAP_SIG */
        h = ipi_hash_combine(e->hash, (uint64_t)e->n);
        for (i = 0; i < e->n; i++)
            if (!ipi_idmap_get(&s->tmap, e->ids[i]))
                return 0; /* for the merging thread to defer, or to refuse */
        for (i = 0; i < e->n; i++) {
            const iprof_type *t = ipi_idmap_get(&s->tmap, e->ids[i]);
            e->ids[i] = s->types.by_id ? t->id : (int64_t)(uintptr_t)t;
            h = ipi_hash_combine(h, t->name->hash);
        }
    }
    *e->key = h;
    return 1;
}

/* Fetch the slots of a method's signature types in s->types: its key
 * and ids a few methods later then read them from the cache. */
static void prefetch_method_types(const stream_merge *s, const ipi_event *e)
{
    for (size_t i = 0; i < e->n; i++)
        ipi_merge_types_prefetch(&s->types, e->ids[i]);
}

/* ---- pass two: combining ------------------------------------------------ */

/* How far ahead pass two fetches context slots, and (half as far) the
 * nodes they name; contexts deeper than AHEAD_FRAMES only in part. */
#define AHEAD_SLOTS 8
#define AHEAD_ITEMS 4
#define AHEAD_FRAMES 16

static void fetch_ahead(const stream_merge *s, size_t i, size_t n, int nodes)
{
    if (i >= n)
        return;
    const ipi_event *e = &s->ready[i];
    size_t k = e->n < AHEAD_FRAMES ? e->n : AHEAD_FRAMES;
    if (nodes)
        ipi_context_prefetch_nodes(s->dst, e->hashes, k);
    else
        ipi_context_prefetch(s->dst, e->hashes, k);
}

/* Pass two: the contexts of the batch's remapped entries first (their
 * nodes fetched ahead from the hashes), then the entries, the slots of
 * their contexts in dst's entry indexes fetched ahead (a context is known
 * only once interned). */
static int combine_ready(stream_merge *s, size_t n)
{
    iprof_model *dst = s->dst;
    if (ipi_grow_array(alloc_of(s), &s->ctxs, &s->ctxs_cap, n, sizeof *s->ctxs))
        return IPROF_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        fetch_ahead(s, i + AHEAD_SLOTS, n, 0);
        fetch_ahead(s, i + AHEAD_ITEMS, n, 1);
        const ipi_event *e = &s->ready[i];
        int rc = ipi_context_intern_hashed(dst, e->ids, e->n, e->hashes, &s->ctxs[i]);
        if (rc)
            return rc;
    }
    for (size_t i = 0; i < n; i++) {
        if (i + AHEAD_SLOTS < n) {
            const ipi_rtab *t = ipi_index_built(dst, IPI_IX_ENTRIES + s->ready[i + AHEAD_SLOTS].tag);
            if (t)
                ipi_rtab_prefetch(t, ipi_entry_hash(s->ctxs[i + AHEAD_SLOTS]));
        }
        const ipi_event *e = &s->ready[i];
        int rc = ipi_entry_merge_at(dst, e->tag, s->ctxs[i], e->records, e->record_count,
                                    ipi_journal_entry, &s->j);
        if (rc)
            return rc;
    }
    return IPROF_OK;
}

/* Pass one's look ahead: the events AHEAD_SLOTS on, decoded once into a
 * ring of RING, with the name slots of their types and methods fetched;
 * the strings those slots hold fetched AHEAD_ITEMS on (names are what
 * pass one waits for; entries wait in pass two). */
#define AHEAD_TYPES 12 /* a method's slots in s->types, when it premaps */
#define RING 16        /* more than AHEAD_TYPES; a power of two */

static void fetch_names(const stream_merge *s, const ipi_event *e, int strings)
{
    if (e->tag != IPI_EV_TYPE && e->tag != IPI_EV_METHOD)
        return;
    /* A premapped method's key is known: its index slot too, then the
     * method the slot names. */
    const ipi_rtab *index = e->premapped ? ipi_index_built(s->dst, IPI_IX_METHOD_NAMES) : NULL;
    if (strings) {
        ipi_intern_prefetch_str(&s->dst->names, e->hash);
        uint32_t ref = index ? ipi_rtab_candidate(index, *e->key, 4) : 0;
        if (ref)
            ipi_prefetch(ipi_model_method_at(s->dst, ref));
    } else {
        ipi_intern_prefetch(&s->dst->names, e->hash);
        if (index)
            ipi_rtab_prefetch(index, *e->key);
    }
}

/* ipi_apply_fn: one batch of the input into dst. */
static int apply_batch(ipi_batch *b, void *payload)
{
    stream_merge *s = payload;
    ipi_event ring[RING];
    size_t n = 0, decoded = 0, at = 0;
    int late = ipi_merge_types_any(&s->types); /* methods the reading thread left */
    for (size_t i = 0;; i++) {
        while (decoded <= i + AHEAD_TYPES && at < b->used) {
            ipi_event *x = &ring[decoded++ % RING];
            at = ipi_batch_event_at(b, at, x);
            if (late && x->tag == IPI_EV_METHOD && !x->premapped)
                prefetch_method_types(s, x);
        }
        if (i == decoded)
            break;
        for (size_t k = i ? i + AHEAD_SLOTS : 0; k <= i + AHEAD_SLOTS && k < decoded; k++) {
            ipi_event *x = &ring[k % RING];
            if (late && x->tag == IPI_EV_METHOD && !x->premapped &&
                (x->premapped = premap_signature(s, x)))
                s->paths.methods_premapped_late++;
            fetch_names(s, x, 0);
        }
        for (size_t k = i ? i + AHEAD_ITEMS : 0; k <= i + AHEAD_ITEMS && k < decoded; k++)
            fetch_names(s, &ring[k % RING], 1);
        ipi_event *e = &ring[i % RING];
        int rc, ready = 0;
        if (e->tag == IPI_EV_VERSION)
            rc = ipi_model_store_version(s->side, e->name, e->name_len);
        else if (e->tag == IPI_EV_TYPE)
            rc = take_type(s, e);
        else if (e->tag == IPI_EV_METHOD)
            rc = take_method(s, e);
        else
            rc = remap_entry(s, e, &ready);
        if (!rc && ready &&
            ipi_grow_array(alloc_of(s), &s->ready, &s->ready_cap, n + 1, sizeof *s->ready))
            rc = IPROF_ENOMEM;
        if (rc)
            return rc;
        if (ready)
            s->ready[n++] = *e;
    }
    return combine_ready(s, n);
}

/* ---- the reading thread's share ---------------------------------------- */

static void premap_method(const stream_merge *s, ipi_batch *b, size_t at, ipi_event *e)
{
    if (premap_signature(s, e))
        ipi_batch_mark_premapped(b, at);
}

/* An entry whose ids all resolve and that keeps its rules: remapped. The
 * others stay as read, for the merging thread to defer or refuse. */
static void premap_entry(const stream_merge *s, ipi_batch *b, size_t at, ipi_event *e)
{
    const ipi_kind_layout *L = ipi_kind_layout_of(e->tag);
    int is_type;
    int64_t id;
    if (unresolved(s, L, e, &is_type, &id) || e->record_count > IPI_MAX_RECORDS ||
        ipi_rule_check_entry(e->tag, e->ids, e->n, e->records, e->record_count) != IPI_RULE_OK)
        return;
    remap_in_place(s, L, e);
    ipi_batch_mark_premapped(b, at);
}

/* Premap the oldest waiting method or entry. */
static void premap_first(stream_merge *s)
{
    ipi_batch *b = s->pending_batch;
    size_t at = s->pending[s->pending_first];
    ipi_event e;
    ipi_batch_event_at(b, at, &e);
    if (e.tag == IPI_EV_METHOD)
        premap_method(s, b, at, &e);
    else
        premap_entry(s, b, at, &e);
    s->pending_first = (s->pending_first + 1) % PREMAP_AHEAD;
    s->pending_count--;
}

/* The element put at `at` of b waits to be premapped PREMAP_AHEAD
 * elements later. */
static void wait_premap(stream_merge *s, ipi_batch *b, size_t at)
{
    s->pending_batch = b; /* the same while elements wait: on_flush ran before a hand-over */
    if (s->pending_count == PREMAP_AHEAD)
        premap_first(s);
    s->pending[(s->pending_first + s->pending_count++) % PREMAP_AHEAD] = at;
}

/* ipi_load_hooks.on_flush, and before the builder is drained: every
 * waiting method premapped. */
static void on_flush(void *payload)
{
    stream_merge *s = payload;
    while (s->pending_count)
        premap_first(s);
    s->pending_first = 0;
}

/* A method put at `at` of b: premapped PREMAP_AHEAD methods later, its
 * type slots fetched now (they miss: s->types holds 8 to 24 bytes an
 * input type id, a megabyte or more). */
static void put_method(stream_merge *s, ipi_batch *b, size_t at, ipi_event *e)
{
    if (!ipi_merge_types_any(&s->types)) {
        premap_method(s, b, at, e);
        return;
    }
    prefetch_method_types(s, e);
    wait_premap(s, b, at);
}

/* An entry put at `at` of b: premapped PREMAP_AHEAD elements later, the
 * slots of its frames' methods in mids fetched now (they miss: mids is 8
 * bytes an input method id, and an entry's methods are anywhere in it). */
static void put_entry(stream_merge *s, ipi_batch *b, size_t at, const ipi_event *e)
{
    if (ipi_kind_layout_of(e->tag)->checks_methods)
        for (size_t i = 0; i < e->n && i < AHEAD_FRAMES; i++)
            ipi_idpages_prefetch(&s->mids, e->ids[2 * i]);
    wait_premap(s, b, at);
}

/* ipi_load_hooks.on_put, on the reading thread. */
static void on_put(void *payload, ipi_batch *b, size_t at)
{
    stream_merge *s = payload;
    if (!s->types_final)
        return;
    ipi_event e;
    ipi_batch_event_at(b, at, &e);
    if (e.tag == IPI_EV_METHOD && !s->methods_final &&
        (ipi_builder_behind(s->builder) || !ipi_merge_types_any(&s->types)))
        put_method(s, b, at, &e);
    else if (e.tag < IPI_EV_VERSION && s->methods_final)
        put_entry(s, b, at, &e);
}

/* ipi_load_hooks.on_section, on the reading thread: when the methods
 * section starts after the types section, or the first profile section
 * after both, wait until what came before is applied. */
static int on_section(void *payload, int section)
{
    stream_merge *s = payload;
    int rc = IPROF_OK;
    on_flush(s); /* a drain hands the filling batch over */
    if (section == IPROF_SECTION_TYPES) {
        s->types_seen = 1;
    } else if (section == IPROF_SECTION_METHODS) {
        s->methods_seen = 1;
        if (s->types_seen && !s->types_final && !(rc = ipi_builder_drain(s->builder)) &&
            !(rc = ipi_merge_types_build(&s->types, &s->tmap, s->dst, alloc_of(s))))
            s->types_final = 1;
    } else if (section < IPROF_KIND_COUNT && s->types_seen && s->methods_seen &&
               !s->methods_final && !(rc = ipi_builder_drain(s->builder))) {
        s->types_final = s->methods_final = 1;
    }
    return rc;
}

/* What the thread that reads or walks the input does beside filling
 * batches. */
static ipi_load_hooks hooks_of(stream_merge *s)
{
    return (ipi_load_hooks){s, on_section, on_put, on_flush};
}

/* ---- the merge ---------------------------------------------------------- */

/* After the read: the deferred methods, then the deferred entries (whose
 * methods may be among those), now with every id the input defines known;
 * then what the input says beyond its elements (version, unknown keys). */
static int finish(stream_merge *s, int drop)
{
    s->final = 1;
    for (int which = 0; which < 2; which++)
        for (ipi_batch *b = s->deferred[which]; b; b = b->next) {
            int rc = apply_batch(b, s);
            if (rc)
                return rc;
        }
    if (s->rule_failed)
        return s->rule_failed;
    int rc = ipi_unknown_check_combine(s->dst, s->extras);
    if (rc && !drop)
        return rc;
    ipi_errbuf_clear(&s->dst->error);
    rc = ipi_merge_version(s->dst, s->extras);
    return rc ? rc : ipi_unknown_take(s->dst, s->extras, drop);
}

/* src: the model merged from, or NULL for an input that is read (its
 * extras then go to a side model). */
static int start(stream_merge *s, iprof_model *dst, const iprof_model *src,
                 const iprof_merge_options *opts, int threaded)
{
    memset(s, 0, sizeof *s);
    s->dst = dst;
    ipi_idmap_init(&s->tmap);
    ipi_idmap_init(&s->mmap);
    ipi_idpages_init(&s->mids, NO_METHOD);
    ipi_scaler_init(&s->sc, opts->weight, opts->rounding);
    s->tmax = ipi_model_max_id(dst, 1);
    s->mmax = ipi_model_max_id(dst, 0);
    int rc = ipi_journal_start(&s->j, dst);
    if (!rc && !src)
        rc = iprof_model_new(&s->side, &dst->alloc);
    s->extras = src ? src : s->side;
    /* The lookups of every batch need these; built here, they cannot fail
     * half-way through one (the names index on two threads when the read
     * is: the reading thread has nothing to do yet). */
    if (!rc && (!ipi_index_get(dst, IPI_IX_TYPE_NAMES) ||
                !ipi_index_method_names(dst, threaded, &s->paths.names_by_halves)))
        rc = IPROF_ENOMEM;
    for (int k = 0; !rc && k < IPROF_KIND_COUNT; k++)
        if (!ipi_index_get(dst, IPI_IX_ENTRIES + k))
            rc = IPROF_ENOMEM;
    return rc;
}

static int merge_source(iprof_model *dst, iprof_reader *reader, const iprof_source *src,
                        const iprof_merge_options *opts)
{
    iprof_merge_options defaults = IPROF_MERGE_OPTIONS_INIT;
    if (!dst)
        return IPROF_EINVAL;
    ipi_errbuf_clear(&dst->error);
    if (!reader)
        return ipi_model_fail(dst, IPROF_EINVAL, "the reader is NULL");
    opts = opts ? opts : &defaults;
    int rc = ipi_merge_check_options(dst, opts);
    if (rc)
        return rc;
    rc = ipi_merge_check_groups(dst);
    if (rc)
        return rc;
    /* A source no read can use: the reader says why, and dst with it. */
    rc = ipi_reader_check_source(reader, src);
    if (rc) {
        ipi_errbuf_copy(&dst->error, iprof_reader_error(reader));
        return rc;
    }
    stream_merge s;
    int threaded = (ipi_reader_flags(reader) & IPROF_READ_THREADED) != 0 ||
                   (opts->flags & IPROF_MERGE_THREADED) != 0;
    rc = start(&s, dst, NULL, opts, threaded);
    ipi_builder *b = rc ? NULL : ipi_builder_start(&dst->alloc, apply_batch, &s, threaded);
    if (!rc && !b)
        rc = IPROF_ENOMEM;
    int ran = !rc, read_failed = 0;
    if (ran) {
        s.builder = b;
        const ipi_load_hooks hooks = hooks_of(&s);
        rc = ipi_load_run(reader, src, b, s.side, 1, &hooks);
        /* A failed build leaves the reader's status at IPROF_ESTOPPED (or
         * none), so an equal status means the read failed: its report then
         * goes to dst too, over a rule failure met before. */
        const iprof_error *re = iprof_reader_error(reader);
        read_failed = rc && re && re->status == rc;
        if (read_failed)
            ipi_errbuf_copy(&dst->error, re);
    }
    if (!rc)
        rc = finish(&s, (opts->flags & IPROF_MERGE_DROP_UNKNOWN) != 0);
    if (!rc && !ipi_reader_vouches(reader))
        ipi_model_changed(dst, IPI_CHANGED_UNCHECKED, -1);
    if (rc) {
        if (!dst->error.set || dst->error.err.status != rc)
            ipi_model_fail(dst, rc, "%s",
                           rc == IPROF_ENOMEM ? "out of memory" : iprof_status_string(rc));
        /* The reader says the merge stopped it, not "a callback". */
        if (ran && !read_failed)
            ipi_reader_replace_error(reader, IPROF_ESTOPPED, dst->error.message);
        ipi_journal_undo(&s.j, dst);
    }
    dst->merge_paths = s.paths;
    state_free(&s);
    return rc;
}

/* ---- a loaded model as the input ---------------------------------------- */

/* iprof_model_merge's input: src's types, methods and entries handed to
 * a builder in src's order, as a read hands them (model_load.c), with the
 * read's hooks: the walking thread premaps what it puts as a reading
 * thread does, and with IPROF_MERGE_THREADED the batches are merged on a
 * second thread while it walks on. */
typedef struct model_walk {
    stream_merge *s;
    ipi_load_hooks hooks;
    int status;      /* why the builder gave no batch */
    int64_t *frames; /* an entry's frames, callee first */
    size_t frames_cap;
} model_walk;

/* Room for an event of `size` bytes (NULL: w->status says why). */
static ipi_batch *walk_room(model_walk *w, size_t size)
{
    return ipi_builder_room(w->s->builder, size, &w->hooks, &w->status);
}

static int walk_types(model_walk *w, const iprof_model *src)
{
    int rc = on_section(w->s, IPROF_SECTION_TYPES);
    for (size_t i = 0; !rc && i < src->type_count; i++) {
        const iprof_type *t = src->types[i];
        ipi_batch *b = walk_room(w, ipi_batch_named_size(t->name->len, 0));
        if (!b)
            return w->status;
        size_t at = b->used;
        ipi_batch_put_type_hashed(b, t->name, t->id);
        on_put(w->s, b, at);
    }
    return rc;
}

static int walk_methods(model_walk *w, const iprof_model *src)
{
    int rc = on_section(w->s, IPROF_SECTION_METHODS);
    for (size_t i = 0; !rc && i < src->method_count; i++) {
        const iprof_method *x = ipi_model_method(src, i);
        ipi_batch *b = walk_room(w, ipi_batch_named_size(x->name->len, x->sig_len));
        if (!b)
            return w->status;
        size_t at = b->used;
        ipi_batch_put_method_hashed(b, x->name, x->id, x->sig, x->sig_len);
        on_put(w->s, b, at);
    }
    return rc;
}

static int walk_entries(model_walk *w, const iprof_model *src, int k)
{
    const ipi_entry_list *l = &src->entries[k];
    /* Frames whose method ids are remapped are hashed after (pass one,
     * or the premap). */
    int remapped = ipi_kind_layout_of(k)->checks_methods;
    int rc = on_section(w->s, k);
    for (size_t i = 0; !rc && i < l->count; i++) {
        const iprof_entry *e = &l->items[i];
        size_t n = e->ctx->depth;
        if (ipi_context_frames_into(alloc_of(w->s), e->ctx, &w->frames, &w->frames_cap))
            return IPROF_ENOMEM;
        ipi_batch *b = walk_room(w, ipi_batch_entry_size(n, e->record_count));
        if (!b)
            return w->status;
        size_t at = b->used;
        if (remapped)
            ipi_batch_put_entry_unhashed(b, k, w->frames, n, e->records, e->record_count);
        else
            ipi_batch_put_entry(b, k, w->frames, n, e->records, e->record_count);
        on_put(w->s, b, at);
    }
    return rc;
}

/* Walk src into the builder and finish it: IPROF_OK or the first
 * failure, the walk's or the merge's. */
static int walk_model(model_walk *w, const iprof_model *src)
{
    int rc = walk_types(w, src);
    if (!rc)
        rc = walk_methods(w, src);
    for (int k = 0; !rc && k < IPROF_KIND_COUNT; k++)
        rc = walk_entries(w, src, k);
    if (!rc)
        on_flush(w->s);
    int built = ipi_builder_finish(w->s->builder, rc != IPROF_OK);
    w->s->builder = NULL;
    return rc ? rc : built;
}

int ipi_merge_model_stream(iprof_model *dst, const iprof_model *src,
                           const iprof_merge_options *opts)
{
    stream_merge s;
    int threaded = (opts->flags & IPROF_MERGE_THREADED) != 0;
    int rc = start(&s, dst, src, opts, threaded);
    model_walk w = {&s, hooks_of(&s), IPROF_OK, NULL, 0};
    if (!rc && !(s.builder = ipi_builder_start(alloc_of(&s), apply_batch, &s, threaded)))
        rc = IPROF_ENOMEM;
    if (!rc)
        rc = walk_model(&w, src);
    if (!rc)
        rc = finish(&s, (opts->flags & IPROF_MERGE_DROP_UNKNOWN) != 0);
    if (!rc && !src->refs_checked) /* src's methods come as they are */
        ipi_model_changed(dst, IPI_CHANGED_UNCHECKED, -1);
    if (rc)
        ipi_journal_undo(&s.j, dst);
    ipi_free(alloc_of(&s), w.frames, w.frames_cap * sizeof *w.frames);
    state_free(&s);
    return rc;
}

IPROF_API int iprof_model_merge_source(iprof_model *dst, iprof_reader *reader,
                                       const iprof_source *source,
                                       const iprof_merge_options *opts)
{
    return merge_source(dst, reader, source, opts);
}
