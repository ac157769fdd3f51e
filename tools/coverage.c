/* Which methods of a profile ran and their hits (coverage.h): used by
 * iprof coverage and iprof fit. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"

static int cmp_id(const void *a, const void *b)
{
    const cov_method *x = *(cov_method *const *)a, *y = *(cov_method *const *)b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_class(const void *a, const void *b)
{
    const cov_method *x = *(cov_method *const *)a, *y = *(cov_method *const *)b;
    int c = strcmp(x->cls, y->cls);
    if (c)
        return c;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* The first method with this id, or NULL. */
cov_method *cov_find(const cov *c, int64_t id)
{
    size_t lo = 0, hi = c->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->by_id[mid]->id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->n && c->by_id[lo]->id == id ? c->by_id[lo] : NULL;
}

static char *method_name(const iprof_model *model, const iprof_method *x)
{
    size_t sig_len, len = 3;
    const int64_t *sig = iprof_method_signature(x, &sig_len);
    const char *name = iprof_method_name(x, NULL);
    len += strlen(name);
    for (size_t i = 2; i < sig_len; i++) {
        const iprof_type *t = iprof_model_type_by_id(model, sig[i]);
        len += (t ? strlen(iprof_type_name(t, NULL)) : 24) + 1;
    }
    char *s = malloc(len);
    if (!s)
        return NULL;
    size_t at = (size_t)snprintf(s, len, "%s(", name);
    for (size_t i = 2; i < sig_len; i++) {
        const iprof_type *t = iprof_model_type_by_id(model, sig[i]);
        if (i > 2)
            s[at++] = ',';
        if (t)
            at += (size_t)snprintf(s + at, len - at, "%s", iprof_type_name(t, NULL));
        else
            at += (size_t)snprintf(s + at, len - at, "?%" PRId64, sig[i]);
    }
    snprintf(s + at, len - at, ")");
    return s;
}

void cov_free(cov *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->m[i].name);
        free(c->m[i].cls_copy);
    }
    free(c->m);
    free(c->by_id);
    free(c->by_class);
}

static int64_t entry_count(const iprof_entry *e)
{
    size_t n;
    const int64_t *r = iprof_entry_records(e, &n);
    return n ? r[0] : 0;
}

int cov_compute(cov *c, const iprof_model *model, progress_bar *bar, const char *label)
{
    c->n = iprof_model_method_count(model);
    if (c->n) {
        c->m = calloc(c->n, sizeof *c->m);
        c->by_id = malloc(c->n * sizeof *c->by_id);
        c->by_class = malloc(c->n * sizeof *c->by_class);
        if (!c->m || !c->by_id || !c->by_class)
            return -1;
    }
    for (size_t i = 0; i < c->n; i++) {
        cov_method *m = &c->m[i];
        m->x = iprof_model_method_at(model, i);
        m->id = iprof_method_id(m->x);
        m->order = i;
        size_t sig_len;
        const int64_t *sig = iprof_method_signature(m->x, &sig_len);
        const iprof_type *t = sig_len ? iprof_model_type_by_id(model, sig[0]) : NULL;
        size_t cls_len;
        if (t) {
            m->cls = iprof_type_name(t, &cls_len);
            /* Classes are compared and printed as C strings: a NUL would
             * cut "a\u0000b" to "a" and join it with class "a". */
            if (memchr(m->cls, '\0', cls_len)) {
                m->cls_copy = malloc(cls_len + 1);
                if (!m->cls_copy)
                    return -1;
                memcpy(m->cls_copy, m->cls, cls_len + 1);
                m->cls = no_nul(m->cls_copy, cls_len);
            }
        } else {
            snprintf(m->clsbuf, sizeof m->clsbuf, "?%" PRId64, sig_len ? sig[0] : 0);
            m->cls = m->clsbuf;
        }
        const iprof_type *r = sig_len > 1 ? iprof_model_type_by_id(model, sig[1]) : NULL;
        if (r) {
            m->ret = iprof_type_name(r, NULL);
        } else if (sig_len > 1) {
            snprintf(m->retbuf, sizeof m->retbuf, "?%" PRId64, sig[1]);
            m->ret = m->retbuf;
        }
        m->name = method_name(model, m->x);
        if (!m->name)
            return -1;
        c->by_id[i] = c->by_class[i] = m;
    }
    if (c->n) {
        qsort(c->by_id, c->n, sizeof *c->by_id, cmp_id);
        qsort(c->by_class, c->n, sizeof *c->by_class, cmp_class);
    }
    uint64_t units = 0, done = 0;
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        units += iprof_model_entry_count(model, k);
    progress_bar_start(bar, label, units);
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        size_t n = iprof_model_entry_count(model, k);
        for (size_t i = 0; i < n; i++, done++) {
            if ((done & 0xffff) == 0)
                progress_bar_update(bar, done);
            const iprof_entry *e = iprof_model_entry_at(model, k, i);
            const iprof_context *ctx = iprof_entry_context(e);
            cov_method *callee = cov_find(c, iprof_context_method_id(ctx));
            if (k == IPROF_KIND_CALL_COUNT) {
                int64_t v = entry_count(e);
                if (v <= 0)
                    continue;
                if (callee)
                    total_add(&callee->calls, v);
            } else if (k == IPROF_KIND_SAMPLING && callee) {
                int64_t v = entry_count(e);
                if (v > 0)
                    total_add(&callee->samples, v);
            }
            for (const iprof_context *f = ctx; f; f = iprof_context_caller(f)) {
                cov_method *m = f == ctx ? callee : cov_find(c, iprof_context_method_id(f));
                if (m)
                    m->ran = 1;
            }
        }
    }
    for (size_t i = 0; i < c->n; i++)
        c->ran += c->m[i].ran != 0;
    /* Lines: the index in the class. */
    for (size_t i = 0; i < c->n; i++) {
        cov_method *m = c->by_class[i];
        m->line = i && strcmp(c->by_class[i - 1]->cls, m->cls) == 0 ? c->by_class[i - 1]->line + 1 : 1;
    }
    return 0;
}

/* Hits as text: calls, else samples, else 1 if it ran. */
const char *cov_hits(const cov_method *m, char *buf)
{
    tool_total zero = {0, 0, 0, 0};
    if (total_cmp(&m->calls, &zero) > 0)
        return total_format(&m->calls, buf);
    if (total_cmp(&m->samples, &zero) > 0)
        return total_format(&m->samples, buf);
    return m->ran ? "1" : "0";
}
