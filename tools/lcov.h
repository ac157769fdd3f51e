/* LCOV tracefiles for genhtml (iprof coverage --lcov, iprof fit --lcov).
 *
 * Profiles and call trees have no source lines, so each method gets a
 * synthetic line, its index in its class from 1. One record per class:
 * SF:<class name with '.' as '/'>.java; FN:<line>,<name> per method, then
 * FNDA:<hits>,<name> per method, FNF/FNH (methods, methods that ran),
 * DA:<line>,<hits> per method with LF/LH (the same numbers as lines, so
 * genhtml's line view shows method coverage too), end_of_record.
 *
 * Function names are "name(P1; P2): R", every method its own function:
 * the return type tells a bridge method from the one it bridges (both
 * have the same name and parameters), and the parameters are separated by
 * "; " because genhtml 1.x ends a name at its first ','. Methods that
 * still share a name in a class (equal signatures) get " #LINE", their
 * synthetic line, after the first. */
#ifndef IPROF_TOOL_LCOV_H
#define IPROF_TOOL_LCOV_H

#include <stddef.h>
#include <stdio.h>

#include "tool.h"

typedef struct lcov_fn {
    const char *cls;         /* the class, '.'-separated */
    const char *name;        /* "name(parameter types)", ','-separated */
    const char *ret;         /* the return type, or NULL when unknown */
    size_t line;             /* synthetic line: index in its class, from 1 */
    char hits[TOTAL_CHARS];  /* decimal */
    int ran;
} lcov_fn;

/* Write "TN:" and one record per run of methods with the same class; @p fns
 * is in the order to write (a class's methods together). 0, or -1 when out
 * of memory (nothing written). */
int lcov_write(FILE *out, const lcov_fn *fns, size_t n);

#endif /* IPROF_TOOL_LCOV_H */
