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
    const char *path;    /* the CSV file */
    const char *display; /* its name in messages */
    /* Called per row with the row's declaring type, name, parameter list
     * written as a method key holds it (method_key.h) and return type; 0,
     * or -1 when out of memory. */
    int (*add)(void *ctx, const char *type, const char *name, const char *params,
               const char *ret);
    void *ctx;
} calltree_in;

/* Read the file, calling in->add per method. An exit code: malformed
 * input is reported as "FILE:LINE: message" (TOOL_EXIT_INVALID); I/O and
 * memory failures as TOOL_EXIT_USAGE. */
int calltree_read(const calltree_in *in);
/* @p arg, or arg/call_tree_methods.csv when it is a directory (GraalVM's
 * link to the latest call_tree_methods_*.csv); malloc'd, NULL when out of
 * memory. */
char *calltree_path(const char *arg);

#endif /* IPROF_TOOL_CALLTREE_H */
