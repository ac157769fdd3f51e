/* LCOV tracefiles for genhtml (iprof coverage --lcov, iprof fit --lcov).
 *
 * Profiles and call trees have no source lines, so each method gets a
 * synthetic line, its index in its class from 1. One record per class:
 * SF:<class name with '.' as '/'>.java; FN:<line>,<name> per method, then
 * FNDA:<hits>,<name> per method, FNF/FNH (methods, methods that ran),
 * DA:<line>,<hits> per method with LF/LH (the same numbers as lines, so
 * genhtml's line view shows method coverage too), end_of_record. */
#ifndef IPROF_TOOL_LCOV_H
#define IPROF_TOOL_LCOV_H

#include <stddef.h>
#include <stdio.h>

#include "tool.h"

typedef struct lcov_fn {
    const char *cls;         /* the class, '.'-separated */
    const char *name;        /* "name(parameter types)" */
    size_t line;             /* synthetic line: index in its class, from 1 */
    char hits[TOTAL_CHARS];  /* decimal */
    int ran;
} lcov_fn;

/* Write "TN:" and one record per run of methods with the same class; @p fns
 * is in the order to write (a class's methods together). */
void lcov_write(FILE *out, const lcov_fn *fns, size_t n);

#endif /* IPROF_TOOL_LCOV_H */
