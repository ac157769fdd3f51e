/* The per-entry distances of the staleness score (include/iprof/diff.h):
 * how far the branch probabilities or the type shares GraalVM derives from
 * one entry of model A moved in the matching entry of model B. Used by
 * diff.c while it compares the models. */
#ifndef IPI_STALENESS_H
#define IPI_STALENESS_H

#include <iprof/iprof.h>

#include "idmap.h"

/* A (key, value) outcome of one side: a successor bci or a type key, and
 * its probability. */
typedef struct ipi_outcome {
    int64_t key;
    double p;
} ipi_outcome;

typedef struct ipi_stale {
    const iprof_allocator *a;
    const iprof_model *m[2];
    ipi_idmap b2a_types; /* B type id -> the A type of the same name */
    int types_mapped;    /* b2a_types is built */
    ipi_outcome *out[2];
    size_t out_cap[2];
    int64_t *bcis; /* scratch of iprof_entry_branch_probabilities */
    double *probs;
    size_t bcis_cap, probs_cap;
} ipi_stale;

void ipi_stale_init(ipi_stale *s, const iprof_allocator *a, const iprof_model *ma,
                    const iprof_model *mb);
void ipi_stale_free(ipi_stale *s);

/* Whether the distance of entries of kind k is that of their outcome
 * distributions (conditional and type-profiling kinds); the others' is
 * that of their count shares, which diff.c computes. */
int ipi_stale_has_outcomes(int kind);

/* *d = the distance in [0, 1] between entry ea of A and eb of B (same
 * kind, one that ipi_stale_has_outcomes). 0 or IPROF_ENOMEM. */
int ipi_stale_distance(ipi_stale *s, const iprof_entry *ea, const iprof_entry *eb, double *d);

#endif
