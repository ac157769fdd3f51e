/* Native Image's call tree report as iprof fit reads it: the
 * call_tree_methods CSV that -H:+PrintAnalysisCallTree
 * -H:PrintAnalysisCallTreeType=CSV writes under reports/ (GraalVM for JDK
 * 23 / 24.1 and later: Id,Name,Type,Parameters,Return,Display,Flags,
 * IsEntryPoint; oracle/graal's CallTreePrinter.java and
 * docs/reference-manual/native-image/StaticAnalysisReports.md). Columns
 * are found by name in the header, so added or moved columns do no harm;
 * Parameters is space-separated (GraalVM drops the commas of "int, long")
 * and "empty" for none. */
#ifndef IPROF_TOOL_CALLTREE_H
#define IPROF_TOOL_CALLTREE_H

#include "tool.h"

typedef struct calltree_in {
    const char *cmd;     /* for messages */
    const char *path;    /* the call_tree_methods CSV file */
    const char *invokes; /* its call_tree_invokes CSV file, or NULL */
    /* Per method row: its Id (NULL without an Id column), declaring type,
     * name, parameter list written as a method key holds it (method_key.h)
     * and return type. 0, or -1 when out of memory. */
    int (*method)(void *ctx, const char *id, const char *type, const char *name,
                  const char *params, const char *ret);
    /* Per virtual call site (an invoke row with IsDirect false): the Id of
     * the method it is in and its bcis, innermost first, as "7,3" (GraalVM's
     * "7->3": bci 7 of a method inlined at bci 3). 0, -1 when out of
     * memory, 1 when no method has that Id. */
    int (*site)(void *ctx, const char *method_id, const char *bcis);
    void *ctx;
} calltree_in;

/* Read in->path, calling in->method per row, then in->invokes if any,
 * calling in->site per virtual call site. An exit code: malformed input is
 * reported as "FILE:LINE: message" (TOOL_EXIT_INVALID); I/O and memory
 * failures as TOOL_EXIT_USAGE. Columns are found by name in each header:
 * Name, Type, Parameters, Return (and Id when present); MethodId,
 * BytecodeIndexes, IsDirect. */
int calltree_read(const calltree_in *in);
/* @p arg, or arg/call_tree_methods.csv when it is a directory (GraalVM's
 * link to the latest call_tree_methods_*.csv); malloc'd, NULL when out of
 * memory. */
char *calltree_path(const char *arg);
/* The call_tree_invokes file beside @p methods (its name with the last
 * "call_tree_methods" of its file name replaced), malloc'd; NULL when
 * there is none (or out of memory: the sites are then not counted). */
char *calltree_invokes_path(const char *methods);

#endif /* IPROF_TOOL_CALLTREE_H */
