/* Which methods of a profile ran, and their hits: the analysis behind
 * iprof coverage, shared with iprof fit (what a profile has data for).
 *
 * A method ran when an entry of any kind mentions it in a frame of its
 * context (as the callee or as a caller); a call-count entry counts only
 * with a count above 0. Its hits: its call count (the callCountProfiles
 * entries it is the callee of), else its sample count (samplingProfiles,
 * as the callee), else 1 when it ran, else 0. Its class is the name of its
 * declaring type ("?ID" for an id without a type). */
#ifndef IPROF_TOOL_COVERAGE_H
#define IPROF_TOOL_COVERAGE_H

#include "progress.h"
#include "tool.h"

/* One method of the profile. */
typedef struct cov_method {
    const iprof_method *x;
    int64_t id;
    size_t order;        /* file order */
    const char *cls;     /* declaring type name, or clsbuf */
    char clsbuf[24];     /* "?ID" */
    char *cls_copy;      /* a name holding NULs, with '?' for them (malloc'd) */
    char *name;          /* "name(param, ...)", malloc'd */
    const char *ret;     /* return type name, retbuf ("?ID"), or NULL (none) */
    char retbuf[24];
    tool_total calls, samples;
    int ran;
    size_t line; /* index in its class, from 1 */
} cov_method;

typedef struct cov {
    const char *file;
    cov_method *m;
    size_t n;
    cov_method **by_id;    /* sorted by id, for frame lookups */
    cov_method **by_class; /* sorted by class, then file order */
    size_t ran;
    int call_counts; /* the profile has call counts (else: sampled only) */
} cov;

/* Fill @p c (zeroed, c->file set by the caller) from @p model, showing
 * progress under @p label. 0, or -1 when out of memory (cov_free still
 * frees what was made). */
int cov_compute(cov *c, const iprof_model *model, progress_bar *bar, const char *label);
void cov_free(cov *c);
/* The first method with this id, or NULL. */
cov_method *cov_find(const cov *c, int64_t id);
/* Hits as text into buf (TOTAL_CHARS bytes): calls, else samples, else 1
 * if it ran, else 0; returns buf or a literal. */
const char *cov_hits(const cov_method *m, char *buf);

#endif /* IPROF_TOOL_COVERAGE_H */
