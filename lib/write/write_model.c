/* The whole-model write: iprof_writer_write_model, its checks of the
 * model, its unknown keys, and the canonical write (IPROF_WRITE_CANONICAL)
 * with its formatting on two threads. */
#include <iprof/stream.h>

#include <limits.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "canon.h" /* the canonical order a canonical write walks */
#include "model.h" /* write_model reads the model directly where it pays */
#include "ctx.h"
#include "error.h"
#include "idmap.h"
#include "json.h"
#include "json_fmt.h"
#include "numfmt.h"
#include "rules.h"
#include "sink.h"
#include "version.h"
#include "writer_internal.h"

/* ------------------------------------------------------------------------ */
/* Whole model                                                              */

/* The entries of one kind against the model's id tables. */
static int check_kind_refs(iprof_writer *w, const iprof_model *m, int kind)
{
    const ipi_kind_layout *L = ipi_kind_layout_of(kind);
    const ipi_entry_list *l = &m->entries[kind];
    const char *key = ipi_writer_kind_key(w, kind);
    for (size_t i = 0; i < l->count; i++) {
        const iprof_entry *e = &l->items[i];
        size_t frame = 0;
        for (const iprof_context *c = e->ctx; L->checks_methods && c; c = c->parent, frame++)
            if (!ipi_model_method_by_id(m, c->method))
                return ipi_writer_fail_ctx_method(w, key, i, c->method, frame);
        for (size_t k = (size_t)L->type_slot; L->type_slot >= 0 && k < e->record_count;
             k += (size_t)L->group)
            if (!ipi_model_type_by_id(m, e->records[k]))
                return ipi_writer_fail_record_type(w, key, i, e->records[k], k);
    }
    return IPROF_OK;
}

/* What a strict read of the model's document would refuse beyond the entry
 * rules: duplicate ids, short signatures, ids not defined. Checked on the
 * model's own id tables, which is cheaper than the per-element tables of
 * a streaming write; the messages are the streaming checks'. */
static int check_model_refs(iprof_writer *w, const iprof_model *m)
{
    for (size_t i = 0; i < m->type_count; i++)
        if (ipi_model_type_by_id(m, m->types[i]->id) != m->types[i])
            return ipi_writer_fail_duplicate(w, "types", i, m->types[i]->id);
    for (size_t i = 0; i < m->method_count; i++) {
        const iprof_method *x = ipi_model_method(m, i);
        if (ipi_model_method_by_id(m, x->id) != x)
            return ipi_writer_fail_duplicate(w, "methods", i, x->id);
        if (x->sig_len < 2)
            return ipi_writer_fail_short_signature(w, i);
        for (size_t k = 0; k < x->sig_len; k++)
            if (!ipi_model_type_by_id(m, x->sig[k]))
                return ipi_writer_fail_signature_type(w, i, x->sig[k], k);
    }
    for (size_t s = 0; s < w->nlayout; s++) {
        int rc = check_kind_refs(w, m, w->layout[s]);
        if (rc)
            return rc;
    }
    return IPROF_OK;
}

/* The sequence index of the section an unknown key follows; -1 after the
 * version; INT_MAX when the target version lacks it (written last). */
static int anchor_seq(const iprof_writer *w, int after)
{
    switch (after) {
    case IPROF_SECTION_VERSION:
    case -1: return -1;
    case IPROF_SECTION_TYPES: return SEQ_TYPES;
    case IPROF_SECTION_METHODS: return SEQ_METHODS;
    default:
        if (after >= 0 && after < IPROF_KIND_COUNT && w->kind_pos[after] >= 0)
            return SEQ_ENTRIES + w->kind_pos[after];
        return INT_MAX;
    }
}

/* Write the model's unknown keys that follow sequence index `seq` (and,
 * with seq INT_MAX, those that follow nothing the version writes). */
static int model_unknowns(iprof_writer *w, const iprof_model *model, int seq)
{
    const ipi_layout_extras *x = &model->extras;
    for (size_t i = 0; i < x->count; i++) {
        const ipi_unknown *u = &x->items[i];
        if (anchor_seq(w, u->after) != seq)
            continue;
        int rc = seq == INT_MAX ? ipi_writer_close_through(w, SEQ_ENTRIES + (int)w->nlayout - 1)
                 : seq >= 0     ? ipi_writer_close_through(w, seq)
                                : IPROF_OK;
        if (rc || (rc = ipi_writer_write_unknown(w, u->key, u->key_len, u->json, u->json_len)))
            return ipi_writer_fail_rc(w, rc);
    }
    return IPROF_OK;
}

/* How many elements ahead write_model asks the cache for. */
#define PREFETCH_AHEAD 16

/* The start of a whole model's document: the version, the instanceof
 * key's spelling and whether the target version can hold the model. */
static int begin_model(iprof_writer *w, const iprof_model *model)
{
    int rc = iprof_writer_begin(w, w->opt_version ? w->opt_version : iprof_model_version(model));
    if (rc)
        return rc;
    if (!w->iof_opt && model->extras.instanceof_key)
        w->iof_key = ipi_instanceof_key_name(model->extras.instanceof_key);
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        if (w->kind_pos[k] >= 0 || !iprof_model_entry_count(model, k) ||
            (k == IPROF_KIND_INSTANCEOF && (w->flags & IPROF_WRITE_DROP_INSTANCEOF)))
            continue;
        /* Copying a lenient load as it is: a 1.0.0 file's instanceof
         * entries (kept with a warning) go last, as the file had them. */
        if (k == IPROF_KIND_INSTANCEOF && (w->flags & IPROF_WRITE_NO_VALIDATE) && w->lay->late_instanceof) {
            w->kind_pos[k] = (int)w->nlayout;
            w->layout[w->nlayout++] = k;
            continue;
        }
        return ipi_writer_fail(w, IPROF_EVERSION, "%s are not part of format version %s", ipi_writer_kind_key(w, k),
                    w->version);
    }
    return ipi_writer_unknowns_fit(w, model);
}

/* ---- the canonical form (IPROF_WRITE_CANONICAL) ---- */

static int cmp_unknown_key(const void *pa, const void *pb)
{
    const ipi_unknown *a = *(const ipi_unknown *const *)pa, *b = *(const ipi_unknown *const *)pb;
    size_t n = a->key_len < b->key_len ? a->key_len : b->key_len;
    int c = memcmp(a->key, b->key, n);
    return c ? c : (a->key_len > b->key_len) - (a->key_len < b->key_len);
}

/* The unknown keys where the canonical form has them: all at the end,
 * sorted by key, one per key. */
static int canonical_unknowns(iprof_writer *w, const iprof_model *model)
{
    size_t n = model->extras.count;
    if (!n)
        return IPROF_OK;
    const ipi_unknown **keys = ipi_malloc(&w->alloc, n * sizeof *keys);
    if (!keys)
        return ipi_writer_fail(w, IPROF_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        keys[i] = &model->extras.items[i];
    qsort(keys, n, sizeof *keys, cmp_unknown_key);
    int rc = ipi_writer_close_through(w, SEQ_ENTRIES + (int)w->nlayout - 1);
    for (size_t i = 0; !rc && i < n; i++)
        if (i == 0 || cmp_unknown_key(&keys[i - 1], &keys[i]) != 0)
            rc = ipi_writer_write_unknown(w, keys[i]->key, keys[i]->key_len, keys[i]->json,
                               keys[i]->json_len);
    ipi_free(&w->alloc, keys, n * sizeof *keys);
    return rc ? ipi_writer_fail_rc(w, rc) : IPROF_OK;
}

/* Whether the model has a canonical form, in the words canonicalizing it
 * would use: the checks write to a report model, copied to the writer. */
static int check_canonical(iprof_writer *w, const iprof_model *model)
{
    iprof_model *report;
    if (iprof_model_new(&report, &w->alloc))
        return ipi_writer_fail(w, IPROF_ENOMEM, "out of memory");
    int rc = ipi_unknown_check_keys(report, model);
    if (!rc)
        rc = ipi_canon_check(report, model, (w->flags & IPROF_WRITE_THREADED) != 0);
    if (rc) {
        ipi_errbuf_copy(&w->err, iprof_model_error(report));
        w->status = rc;
    }
    iprof_model_free(report);
    return rc;
}

static int fail_canon(iprof_writer *w, int rc)
{
    return ipi_writer_fail(w, rc, rc == IPROF_ENOMEM ? "out of memory" : "too many entries of a kind");
}

/* ---- formatting on two threads (IPROF_WRITE_THREADED) ---- */

/* A section of a canonical write is cut in ranges of PART_ELEMS elements:
 * while the calling thread writes one, a job formats the next into a part
 * (a buffer of PART_BYTES), which the calling thread then passes on. The
 * job takes small elements only, in order, and stops at the first it
 * cannot take (too large, breaking a rule, the buffer full): the calling
 * thread goes on from there, so the bytes are those of one thread. */
#define PART_ELEMS 8192
#define PART_BYTES ((size_t)1 << 20)
#define PART_VALUES 256 /* signature ids or records */
#define PART_FRAMES 64

typedef struct part {
    iprof_writer w; /* formatting state only: w.part set, its own buffer */
    const ipi_canon *c;
    int kind;              /* entries of the kind being walked; -1: methods */
    size_t from, to, done; /* the range; how many of it were formatted */
    ipi_job job;
    int64_t vals[PART_VALUES];
    int64_t fr[2 * PART_FRAMES];
} part;

/* Method i or entry i into the part: 1, or 0 (nothing written) when it is
 * the calling thread's. Room is not checked first: the part's make_room
 * fails, and the element is cut off. */
static int part_method(part *p, size_t i)
{
    ipi_canon_prefetch_method(p->c, i);
    const iprof_method *x = ipi_canon_method(p->c, i);
    if (x->sig_len > PART_VALUES)
        return 0;
    ipi_canon_sig_into(p->c, i, p->vals);
    size_t pos = p->w.pos;
    if (ipi_writer_write_method(&p->w, (int64_t)i + 1, x->name->s, x->name->len, p->vals, x->sig_len)) {
        p->w.pos = pos;
        return 0;
    }
    return 1;
}

static int part_entry(part *p, size_t i)
{
    ipi_canon_entry e;
    if (!ipi_canon_entry_at(p->c, i, p->fr, PART_FRAMES, p->vals, PART_VALUES, &e) ||
        ipi_rule_check_entry(p->kind, e.frames, e.depth, e.records, e.record_count) !=
            IPI_RULE_OK)
        return 0;
    size_t pos = p->w.pos;
    if (ipi_writer_write_entry(&p->w, e.frames, e.depth, e.records, e.record_count)) {
        p->w.pos = pos;
        return 0;
    }
    return 1;
}

/* The job: only reads the canonical order and writes its own part. */
static void format_part(void *arg)
{
    part *p = arg;
    size_t i = p->from;
    while (i < p->to && (p->kind < 0 ? part_method(p, i) : part_entry(p, i)))
        i++;
    p->done = i - p->from;
}

static void start_part(const iprof_writer *w, part *p, int kind, size_t from, size_t to)
{
    p->w.pos = 0;
    p->w.count = 1; /* never a section's first element: a separator first */
    p->w.lay = w->lay;
    p->kind = kind;
    p->from = from;
    p->to = to;
    p->done = 0;
    ipi_job_start(&p->job, format_part, p, 1);
}

/* Pass the bytes of a part that has run on. */
static int put_part(iprof_writer *w, part *p)
{
    size_t n = p->w.pos;
    w->count += p->done;
    if (!n)
        return IPROF_OK;
    if (w->direct) {
        ENSURE(w, n);
        memcpy(w->buf + w->pos, p->w.buf, n);
        w->pos += n;
        return IPROF_OK;
    }
    int rc = ipi_writer_flush(w);
    return rc ? rc : ipi_sink_write(&w->sink, p->w.buf, n, &w->err);
}

/* A part for a threaded write, NULL otherwise or when out of memory (the
 * write then goes on one thread). */
static part *new_part(iprof_writer *w, const ipi_canon *c)
{
    if (!(w->flags & IPROF_WRITE_THREADED))
        return NULL;
    part *p = ipi_malloc(&w->alloc, sizeof *p);
    char *buf = p ? ipi_malloc(&w->alloc, PART_BYTES) : NULL;
    if (!buf) {
        ipi_free(&w->alloc, p, sizeof *p);
        return NULL;
    }
    memset(p, 0, sizeof *p);
    p->w.part = 1;
    p->w.buf = buf;
    p->w.cap = PART_BYTES;
    p->c = c;
    return p;
}

static void free_part(iprof_writer *w, part *p)
{
    if (!p)
        return;
    ipi_free(&w->alloc, p->w.buf, PART_BYTES);
    ipi_free(&w->alloc, p, sizeof *p);
}

/* Methods [from, to) on the calling thread. */
static int write_methods(iprof_writer *w, ipi_canon *c, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        /* The order is not the model's: fetch the methods ahead. */
        ipi_canon_prefetch_method(c, i);
        const iprof_method *x = ipi_canon_method(c, i);
        const int64_t *sig = ipi_canon_sig(c, i);
        if (!sig)
            return ipi_writer_fail(w, IPROF_ENOMEM, "out of memory");
        int rc = ipi_writer_method_valid(w, (int64_t)i + 1, x->name->s, x->name->len, sig,
                                         x->sig_len);
        if (rc)
            return rc;
    }
    return IPROF_OK;
}

/* The walk's entries up to index `to` (a run start) on the calling
 * thread. */
static int write_entries(iprof_writer *w, ipi_canon *c, int kind, size_t to)
{
    while (c->next < to) {
        ipi_canon_entry e;
        int rc = ipi_canon_next(c, &e); /* not 0: to is at most the count */
        if (rc != 1)
            return ipi_writer_fail(w, rc, rc == IPROF_ENOMEM ? "out of memory" : "too many records");
        if ((rc = iprof_writer_entry(w, kind, e.frames, e.depth, e.records, e.record_count)))
            return rc;
    }
    return IPROF_OK;
}

/* The n methods (kind -1) or the n entries of the kind being walked, a
 * part formatting each next range when there is one. */
static int write_split(iprof_writer *w, ipi_canon *c, part *p, int kind, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t a = !p || n - i <= PART_ELEMS ? n : i + PART_ELEMS;
        if (kind >= 0)
            a = ipi_canon_run_start(c, a);
        /* While a sort runs on the second thread, the calling thread
         * writes alone: a part sharing the sort's core would keep it
         * waiting. */
        int split = a < n && !ipi_canon_sorting(c);
        if (split)
            start_part(w, p, kind, a, n - a <= PART_ELEMS ? n : a + PART_ELEMS);
        int rc = kind < 0 ? write_methods(w, c, i, a) : write_entries(w, c, kind, a);
        if (split) {
            ipi_job_wait(&p->job); /* even after a failure: the job reads c */
            if (!rc && (rc = put_part(w, p)))
                rc = ipi_writer_fail_rc(w, rc);
        }
        if (rc)
            return rc;
        i = split ? a + p->done : a;
        if (kind >= 0)
            ipi_canon_skip(c, i);
    }
    return IPROF_OK;
}

/* Whether a kind's entries may be formatted by a part: the kind has a
 * section of its own (not 0.2.0's one monitor object, not dropped). */
static int kind_splits(const iprof_writer *w, int kind)
{
    return w->kind_pos[kind] >= 0 && !(w->lay->monitor_object && kind == IPROF_KIND_MONITOR);
}

static int write_canonical_elements(iprof_writer *w, ipi_canon *c, part *p)
{
    int rc;
    /* The first kind sorts (threaded: on the second thread) while the
     * types and methods are written, each next kind while one is. */
    if (w->nlayout && (rc = ipi_canon_presort(c, w->layout[0])))
        return fail_canon(w, rc);
    for (size_t i = 0; i < c->type_count; i++) {
        /* In name order, not the model's: each type and its name a miss,
         * fetched ahead as the plain write fetches them. */
        if (i + PREFETCH_AHEAD < c->type_count)
            ipi_prefetch(c->types[i + PREFETCH_AHEAD]);
        if (i + PREFETCH_AHEAD / 2 < c->type_count)
            ipi_prefetch(c->types[i + PREFETCH_AHEAD / 2]->name);
        const ipi_str *name = c->types[i]->name;
        if ((rc = ipi_writer_type_valid(w, (int64_t)i, name->s, name->len)))
            return rc;
    }
    if ((rc = write_split(w, c, p, -1, c->method_count)))
        return rc;
    ipi_canon_methods_done(c);
    for (size_t s = 0; s < w->nlayout; s++) {
        int kind = w->layout[s];
        if ((rc = ipi_canon_kind(c, kind)) ||
            (s + 1 < w->nlayout && (rc = ipi_canon_presort(c, w->layout[s + 1]))))
            return fail_canon(w, rc);
        size_t n = iprof_model_entry_count(c->m, kind);
        if ((rc = write_split(w, c, kind_splits(w, kind) ? p : NULL, kind, n)))
            return rc;
    }
    return IPROF_OK;
}

/* What canonicalizing the model and writing it would give. The canonical
 * model's ids are unique and resolve; of the reference checks only the
 * signatures' length is left to make. */
static int write_canonical(iprof_writer *w, const iprof_model *model)
{
    int rc = check_canonical(w, model);
    if (rc || (rc = begin_model(w, model)))
        return rc;
    ipi_canon c;
    if ((rc = ipi_canon_start(&c, model, (w->flags & IPROF_WRITE_THREADED) != 0))) {
        ipi_canon_free(&c);
        return ipi_writer_fail(w, rc, rc == IPROF_ENOMEM ? "out of memory" : "too many methods or types");
    }
    /* Signatures of 2+ ids; a model that vouches for its references
     * (model.h: refs_checked) has them. */
    for (size_t i = 0; w->check_refs && !model->refs_checked && i < c.method_count; i++)
        if (ipi_canon_method(&c, i)->sig_len < 2) {
            ipi_canon_free(&c);
            return ipi_writer_fail_short_signature(w, i);
        }
    w->check_refs = 0; /* no per-element id tables */
    part *p = new_part(w, &c);
    rc = write_canonical_elements(w, &c, p);
    free_part(w, p);
    ipi_canon_free(&c);
    if (rc || (rc = canonical_unknowns(w, model)))
        return rc;
    return iprof_writer_end(w);
}

IPROF_API int iprof_writer_write_model(iprof_writer *w, const iprof_model *model)
{
    if (!w)
        return IPROF_EINVAL;
    if (w->status)
        return w->status;
    if (!model)
        return ipi_writer_fail(w, IPROF_EINVAL, "the model is NULL");
    if (w->state != ST_INIT) /* before the checks below: a misuse first */
        return ipi_writer_fail(w, IPROF_ESTATE, "write_model called %s", ipi_writer_state_name(w));
    /* The model lacks keys its input had: writing it would lose them. */
    const char *first;
    size_t unread = iprof_model_unread_count(model, &first);
    if (unread && !(w->flags & IPROF_WRITE_DROP_UNKNOWN))
        return ipi_writer_fail(w, IPROF_ESCHEMA,
                    "%zu element%s of the model's input held keys it does not keep (the "
                    "first: %s); writing would lose them (IPROF_WRITE_DROP_UNKNOWN writes "
                    "without them)",
                    unread, unread == 1 ? "" : "s", first);
    if (w->flags & IPROF_WRITE_CANONICAL)
        return write_canonical(w, model);
    int rc = begin_model(w, model);
    if (rc)
        return rc;
    if (w->check_refs) {
        /* A model that vouches for its references (a clean load, checked
         * edits) needs no pass; others are checked as a whole. */
        if (!model->refs_checked && (rc = check_model_refs(w, model)))
            return rc;
        w->check_refs = 0; /* no per-element id tables */
    }
    if ((rc = model_unknowns(w, model, -1)))
        return rc;
    size_t n = iprof_model_type_count(model);
    for (size_t i = 0; i < n; i++) {
        if (i + PREFETCH_AHEAD < n)
            ipi_prefetch(model->types[i + PREFETCH_AHEAD]);
        if (i + PREFETCH_AHEAD / 2 < n)
            ipi_prefetch(model->types[i + PREFETCH_AHEAD / 2]->name);
        const iprof_type *t = iprof_model_type_at(model, i);
        size_t len = 0;
        const char *name = iprof_type_name(t, &len);
        if ((rc = ipi_writer_type_valid(w, iprof_type_id(t), name, len)))
            return rc;
    }
    if ((rc = model_unknowns(w, model, SEQ_TYPES)))
        return rc;
    n = iprof_model_method_count(model);
    for (size_t i = 0; i < n; i++) {
        /* Methods and their interned names lie apart (two pools):
         * fetch a few ahead so the formatting does not wait on memory. */
        if (i + PREFETCH_AHEAD < n)
            ipi_prefetch(ipi_model_method(model, i + PREFETCH_AHEAD));
        if (i + PREFETCH_AHEAD / 2 < n)
            ipi_prefetch(ipi_model_method(model, i + PREFETCH_AHEAD / 2)->name);
        const iprof_method *m = iprof_model_method_at(model, i);
        size_t len = 0, sig_len = 0;
        const char *name = iprof_method_name(m, &len);
        const int64_t *sig = iprof_method_signature(m, &sig_len);
        if ((rc = ipi_writer_method_valid(w, iprof_method_id(m), name, len, sig, sig_len)))
            return rc;
    }
    if ((rc = model_unknowns(w, model, SEQ_METHODS)))
        return rc;
    for (size_t s = 0; s < w->nlayout; s++) {
        int kind = w->layout[s];
        n = iprof_model_entry_count(model, kind);
        const iprof_entry *items = model->entries[kind].items;
        for (size_t i = 0; i < n; i++) {
            if (i + PREFETCH_AHEAD < n) {
                ipi_prefetch(items[i + PREFETCH_AHEAD].ctx);
                ipi_prefetch(items[i + PREFETCH_AHEAD].records);
            }
            const iprof_entry *e = iprof_model_entry_at(model, kind, i);
            const iprof_context *ctx = iprof_entry_context(e);
            size_t depth = ctx ? iprof_context_depth(ctx) : 0;
            if (depth > SIZE_MAX / 2 / sizeof *w->scratch)
                return ipi_writer_fail(w, IPROF_ENOMEM, "out of memory");
            if (ipi_grow(&w->alloc, (void **)&w->scratch, &w->scratch_cap, depth * 2,
                         sizeof *w->scratch))
                return ipi_writer_fail(w, IPROF_ENOMEM, "out of memory");
            if (depth)
                iprof_context_frames(ctx, w->scratch, depth);
            size_t rlen = 0;
            const int64_t *rec = iprof_entry_records(e, &rlen);
            if ((rc = iprof_writer_entry(w, kind, w->scratch, depth, rec, rlen)))
                return rc;
        }
        if ((rc = model_unknowns(w, model, SEQ_ENTRIES + (int)s)))
            return rc;
    }
    if ((rc = model_unknowns(w, model, INT_MAX)))
        return rc;
    return iprof_writer_end(w);
}

