/* Stacks of a profile for the viewer subcommands (flame, export).
 *
 *   stacks.c           the stack tree, frame names,
 *                      folded lines, JSON strings
 *   cmd_flame.c        iprof flame (folded stacks), flame_html.c (--html)
 *   cmd_export.c       iprof export, export_speedscope.c, export_firefox.c
 *   outfile.c          atomic output files (progress bar: progress.c)
 *
 * A stack is an entry's ctx read caller first (ctx text is callee first).
 * The stack tree interns stacks by prefix: node i's parent is a node
 * created before it, so parent < i (the Firefox stack table's rule). */
#ifndef IPROF_TOOL_STACKS_H
#define IPROF_TOOL_STACKS_H

#include "outfile.h"
#include "progress.h"
#include "tool.h"

#define STACK_NONE ((size_t)-1)

/* Which entries are stacks: auto = sampling if the file has any, else
 * call counts. */
enum { STACKS_AUTO = 0, STACKS_SAMPLING, STACKS_CALLCOUNT };

typedef struct stack_node {
    size_t parent; /* STACK_NONE for a root frame */
    int64_t method, bci;
    size_t func;   /* index of the method's name (stack_tree.funcs) */
    uint64_t self; /* the counts of the stacks ending here (saturating at UINT64_MAX) */
} stack_node;

typedef struct stack_func {
    int64_t method;
    char *name;    /* "Type.name" (malloc'd), "?ID" for an unknown method */
} stack_func;

typedef struct stack_tree {
    const iprof_model *model;
    int kind;                  /* IPROF_KIND_SAMPLING or IPROF_KIND_CALL_COUNT */
    stack_node *nodes;
    size_t count, cap;
    index_table node_index;    /* (parent, method, bci) -> node */
    stack_func *funcs;         /* one per method, in order of first use */
    size_t func_count, func_cap;
    index_table func_index;    /* method id -> func */
    tool_total total;          /* sum of the counts used */
    size_t stacks;             /* entries used */
    size_t skipped;            /* entries left out: count <= 0 */
} stack_tree;

/* Parse a --kind value; -1 if unknown. */
int stacks_kind_arg(const char *value);

/* Build the tree of the entries of @p which (STACKS_*). 0, or -1 when out
 * of memory. */
int stacks_build(stack_tree *t, const iprof_model *model, int which, progress_bar *p,
                 const char *label);
void stacks_free(stack_tree *t);
/* The frames of node @p i, root first, into @p path (t->count entries at
 * most); returns the depth. */
size_t stacks_path(const stack_tree *t, size_t i, size_t *path);

/* A folded line: the frame names root first and the summed count. */
typedef struct folded_line {
    char *text;      /* "a;b;c" (malloc'd) */
    size_t *path;    /* the nodes' func indices, root first (malloc'd) */
    size_t depth;
    uint64_t count; /* saturating at UINT64_MAX */
} folded_line;

/* The folded lines of @p t: frame names (":bci" appended if @p bci),
 * ';' in names written as ',' and control characters as ' ', identical
 * lines summed, sorted by text. 0, or -1 when out of memory. */
int stacks_fold(const stack_tree *t, int bci, folded_line **out, size_t *count);
void stacks_fold_free(folded_line *lines, size_t count);

/* ---- flame_html.c --------------------------------------------------------- */

/* The flame graph page of @p lines (from stacks_fold of @p t). */
void flame_write_html(FILE *out, const stack_tree *t, const folded_line *lines, size_t n,
                      const char *title);

/* ---- export_speedscope.c, export_firefox.c --------------------------------- */

/* Write @p t as a speedscope file / a Firefox Profiler processed profile;
 * @p name is the profile's name (the input file's). 0, or -1 when out of
 * memory (before anything is written). */
int export_speedscope(FILE *out, const stack_tree *t, const char *name);
int export_firefox(FILE *out, const stack_tree *t, const char *name);

#endif /* IPROF_TOOL_STACKS_H */
