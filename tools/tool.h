/*
 * The iprof command: declarations shared by its files.
 *
 *   main.c      the command table (tool_commands) and dispatch
 *   help.c      every --help, generated from the command table
 *   args.c      option parsing shared by the subcommands
 *   report.c    error lines, exit codes, reading inputs named by the user,
 *               method labels
 *   json_out.c  JSON strings and numbers of every JSON the command writes
 *   tables.c    the command's one hash table (index_table), and the
 *               pointer set and id -> total map of stats
 *   total.c     exact-or-clamped sums of int64 counts
 *   cmd_<name>.c  one subcommand each: validate, stats (stats_print.c: text
 *               and JSON), cat, flame and export (stacks.h), merge, convert
 *               and filter (post.h/post.c: their shared output), diff (the
 *               report of iprof_diff), coverage and fit (coverage.c: which
 *               methods ran; lcov.c: LCOV; fit's calltree.c on csv.c, and
 *               method_key.c), show, completion (the bash completion,
 *               generated from the command table),
 *               repair (IPROF_READ_SALVAGE)
 *   progress.c  the progress bar on stderr (progress.h)
 *
 * The tool uses the public API only (<iprof/iprof.h>, and in each file
 * the advanced headers it calls; its reports go through the library's
 * path writer: outfile.c), with its own few calls to the system in
 * files.c; it compiles no file of lib/. Every message is printed here,
 * never by the library.
 */
#ifndef IPROF_TOOL_H
#define IPROF_TOOL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <iprof/iprof.h>

/* Exit codes of every subcommand (TOOL_ prefixed: names beginning with E
 * and a capital letter belong to <errno.h>). */
enum tool_exit {
    TOOL_EXIT_OK = 0,      /* success: the job is done (--help and --version
                            * too), every input is valid */
    TOOL_EXIT_INVALID = 1, /* some input is not a valid profile (or cannot be written as asked) */
    TOOL_EXIT_USAGE = 2,   /* usage error, or an I/O or memory failure */
    /* 3: repair's "nothing salvaged, OUT not written" (cmd_repair.c) */
    TOOL_EXIT_DROPPED = 4  /* a profile was written, without keys that
                            * --drop-unknown dropped (iprof(1), KEYS IPROF
                            * DOES NOT READ) */
};

/* ---- args.c ------------------------------------------------------------ */

/* One option of a subcommand: how it is parsed, shown by --help and
 * completed by the shell (help.c). id > 0; the ids TOOL_OPT_HELP and
 * TOOL_OPT_VERSION are handled by the caller like any other. */
typedef struct tool_opt {
    const char *name;   /* long name without "--" */
    char short_name;    /* 0 if none */
    const char *arg;    /* the value's name in --help ("N", "OUT"); NULL: no value */
    int id;
    const char *help;   /* its --help text; each '\n' starts a continuation line */
    const char *values; /* the values the shell completes, space-separated; NULL:
                         * file names when arg is FILE, OUT or DIR, else none */
} tool_opt;

enum { TOOL_OPT_HELP = 1000, TOOL_OPT_VERSION = 1001 };

typedef struct tool_args {
    const char *cmd; /* "iprof validate", for messages */
    int argc;
    char **argv;
    int next;
    int operands_only; /* after "--" */
    const char *value; /* the option's value, or the operand */
} tool_args;

enum { ARGS_END = 0, ARGS_OPERAND = -1, ARGS_ERROR = -2 };

void args_init(tool_args *a, const char *cmd, int argc, char **argv);
/* The next option's id (value in a->value), ARGS_OPERAND (operand in
 * a->value), ARGS_END, or ARGS_ERROR after printing a usage error. The
 * option table ends with a zero entry; --help and --version are always
 * recognised. */
int args_next(tool_args *a, const tool_opt *opts);
/* Print "CMD: message" and the --help hint on stderr; returns TOOL_EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Print the version line on stdout; returns TOOL_EXIT_OK. */
int print_version(void);
/* The value of --instanceof-key (instanceof, instanceOf, or the whole key)
 * as an IPROF_INSTANCEOF_KEY_*; prints a usage error and returns -1 for
 * anything else. */
int parse_instanceof_key(const char *cmd, const char *value);
/* The options every writing command shares, as tool_opt initialisers. */
#define TOOL_OPT_INSTANCEOF_KEY(ID)                                                          \
    {"instanceof-key", 0, "K", (ID),                                                        \
     "write the instanceof section as instanceofProfiles\n"                                 \
     "(K instanceof, the document's) or instanceOfProfiles\n"                               \
     "(instanceOf, GraalVM's; the whole keys work too);\n"                                  \
     "default: as the input spells it, else instanceOf",                                    \
     "instanceof instanceOf"}
#define TOOL_OPT_DROP_UNKNOWN(ID)                                                            \
    {"drop-unknown", 0, NULL, (ID),                                                         \
     "drop what iprof cannot keep, saying so on stderr and\n"                              \
     "with exit status 4: keys of types, methods and entries\n"                             \
     "that it does not read (without it, such input is\n"                                   \
     "refused), and top-level keys (which may hold ids that\n"                              \
     "merging or the canonical form would fail on)",                                         \
     NULL}
#define TOOL_OPT_END {NULL, 0, NULL, 0, NULL, NULL}

/* ---- help.c ------------------------------------------------------------ */

/* What the shell completes for a command's operands. */
enum { TOOL_OPERANDS_FILES = 0, TOOL_OPERANDS_NONE = 1, TOOL_OPERANDS_WORDS = 2 };

/* One subcommand: the table its --help, `iprof --help` and the shell
 * completion (`iprof completion bash`) are all generated from. */
typedef struct tool_command {
    const char *name;
    const char *synopsis; /* after "Usage: iprof NAME "; '\n' continues it */
    const char *brief;    /* the synopsis in `iprof --help`; '\n' continues it */
    const char *summary;  /* its line(s) in `iprof --help`; '\n' continues them */
    const char *about;    /* the text after the usage lines */
    const tool_opt *opts; /* ends with TOOL_OPT_END; --help and --version are added */
    const char *notes;    /* the text after the options, or NULL */
    int operands;         /* TOOL_OPERANDS_* */
    const char *words;    /* the operands completed for TOOL_OPERANDS_WORDS */
    int (*run)(int argc, char **argv);
} tool_command;

/* Every subcommand, in the order of `iprof --help` (main.c). */
extern const tool_command *const tool_commands[];
extern const size_t tool_command_count;

/* Print the command's --help on stdout; returns TOOL_EXIT_OK. */
int command_help(const tool_command *c);
/* Print the usage of `iprof` itself, with the list of commands. */
void commands_usage(FILE *out);
/* The options --help and --version every command has (args.c). */
extern const tool_opt tool_common_opts[];

/* ---- report.c ---------------------------------------------------------- */

/* How a FILE operand is named in messages: "<stdin>" for "-". */
const char *display_name(const char *file);
/* FILE as the library's input: standard input for "-", else its path
 * (borrowed: FILE must outlive the source). */
iprof_source input_source(const char *file);
/* What a report says (iprof_error_get_info); a NULL report says nothing:
 * "" strings, no position, status IPROF_OK. */
iprof_error_info error_info(const iprof_error *err);
/* What the reader's last read left besides its error
 * (iprof_reader_get_result): diagnostics kept and dropped, keys not read,
 * a salvaged load's damage and where its last complete element ends. */
iprof_read_result read_result(const iprof_reader *reader);
/* A method as people read it (iprof_model_method_describe), "?ID" for an
 * id the model does not define; malloc'd, NULL when out of memory. */
char *method_label(const iprof_model *model, int64_t id);
/* A name's "\u0000" in the first len bytes of s becomes '?', so that the
 * C string is not cut there (JSON output escapes the other control
 * characters). Returns s. */
char *no_nul(char *s, size_t len);
/* Write s on a line of text: control characters (tab, newline, ...)
 * as '?'. */
void put_text(FILE *out, const char *s);
/* @p msg, printed after "NAME: ", without its own mention of @p name
 * (" NAME" or " \"NAME\"" before a ':' or the end), so that a file is
 * named once: "x: cannot open: ..." where the library says "cannot open
 * x: ...", "next to it" where it says "next to \"x\"". Into @p buf (@p
 * cap bytes); @p msg itself when it has no such mention or @p buf is too
 * small. */
const char *name_once(char *buf, size_t cap, const char *msg, const char *name);
/* Print one report as "FILE:LINE:COL: PATH: [warning: ]message" on stderr
 * ("FILE: message" without a position, naming FILE once). */
void report_error(const char *file, const iprof_error *err);
/* Print the diagnostics of the reader's last read, then its error if
 * @p status is a failure. The warnings about keys iprof does not read
 * are summed up in report_unread's line; `iprof validate`, whose job is
 * to list them, gives @p list_unread. */
void report_read(const char *file, const iprof_reader *reader, int status);
void report_read_listing(const char *file, const iprof_reader *reader, int status,
                         int list_unread);
/* report_read() of a command's input, then report_repair_hint(). */
void report_load(const char *file, const iprof_reader *reader, int status);
/* For damaged or cut-short input (IPROF_ESYNTAX inside an element past
 * the version, where repair has something to save) a line with the
 * 'iprof repair' command that saves what comes before the damage. */
void report_repair_hint(const char *file, const iprof_reader *reader, int status);
/* After a read that succeeded: how many of its elements had keys iprof
 * does not read (report_unread) and how many rule violations a lenient
 * read went past, one line each on stderr, so that nothing a command
 * writes or shows from a file hides what it left out or what was wrong
 * with it. Unknown top-level keys are kept: those stay with
 * `iprof validate`. */
void report_read_warnings(const char *file, const iprof_reader *reader);
/* The one line every command prints after a read whose elements had keys
 * iprof does not read: their exact number (iprof_read_result's
 * unread_count, which the diagnostics cap does not stop) and the first;
 * nothing when there are none. */
void report_unread(const char *file, const iprof_reader *reader);
/* The errors and warnings of the reader's last read, those past its cap
 * included. */
void count_diagnostics(const iprof_reader *reader, size_t *errors, size_t *warnings);
/* Print a failure without a position: "iprof CMD: NAME: message". */
void report_plain(const char *cmd, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The exit code of a failed library call: TOOL_EXIT_USAGE for I/O, memory
 * and argument failures, TOOL_EXIT_INVALID for everything about the data. */
int exit_code_of(int status);
/* A reader with IPROF_READ_THREADED, and IPROF_READ_STRICT if @p strict;
 * NULL after printing why. */
iprof_reader *open_reader(const char *cmd, int strict);
/* Load a model from FILE ("-": stdin). On failure prints the diagnostics
 * and error and returns the exit code; on success prints nothing. */
int load_model(iprof_model **out, iprof_reader *reader, const char *file);
/* Flush stdout; on a write error print it and return TOOL_EXIT_USAGE. */
int finish_stdout(const char *cmd, int code);

/* ---- json_out.c -------------------------------------------------------- */

/* Write @p s as a JSON string, quotes included; control characters, '<',
 * '>' and '&' as \u escapes so that the text is safe inside an HTML
 * <script>. */
void json_string(FILE *out, const char *s);
/* Write @p v as a JSON number in the fewest significant digits (up to 17)
 * that read back as the same double; null for infinities and NaN. */
void json_double(FILE *out, double v);

/* ---- total.c ----------------------------------------------------------- */

/* The exact sum of int64 counts, kept as a positive and a negative part of
 * 128 bits each (a carry word over a low word); shown clamped. */
typedef struct tool_total {
    uint64_t pos, neg, pos_hi, neg_hi;
} tool_total;

void total_add(tool_total *t, int64_t v);
/* <0, 0, >0 like strcmp, by value. */
int total_cmp(const tool_total *a, const tool_total *b);
/* Decimal text into buf (at least TOTAL_CHARS bytes); returns buf. */
#define TOTAL_CHARS 24
const char *total_format(const tool_total *t, char *buf);

/* ---- tables.c ---------------------------------------------------------- */

/* The command's one hash table: open addressing over the indices of an
 * array its user owns (slot value index + 1; 0 is empty), grown at half
 * load. The user hashes and compares its keys; the table only probes:
 *
 *     if (index_table_reserve(&t, hash_of, ctx)) -> out of memory
 *     for (s = index_first(&t, h); t.slots[s]; s = index_next(&t, s))
 *         if (items[t.slots[s] - 1] has the key) -> found
 *     items[t.count] = the new item; index_put(&t, s);
 */
typedef struct index_table {
    size_t *slots;
    size_t cap;   /* slots, a power of two */
    size_t count; /* indices held: 0 .. count-1 */
} index_table;

/* A 64-bit mix (murmur3's finaliser) for keys and combinations of keys. */
uint64_t hash_word(uint64_t x);
/* Make room for index count; growing re-places every index i by
 * hash_of(i, ctx). 0, or -1 when out of memory (nothing changed). */
int index_table_reserve(index_table *t, uint64_t (*hash_of)(size_t i, const void *ctx),
                        const void *ctx);
static inline size_t index_first(const index_table *t, uint64_t h)
{
    return (size_t)h & (t->cap - 1);
}
static inline size_t index_next(const index_table *t, size_t s)
{
    return (s + 1) & (t->cap - 1);
}
/* Put index t->count into the empty slot s found by probing. */
static inline void index_put(index_table *t, size_t s)
{
    t->slots[s] = ++t->count;
}
void index_table_free(index_table *t);

/* A set of pointers (distinct contexts); index.count is its size. */
typedef struct ptr_set {
    const void **items;
    size_t cap;
    index_table index;
} ptr_set;

/* 0, or -1 when out of memory. */
int ptr_set_add(ptr_set *s, const void *p);
void ptr_set_free(ptr_set *s);

/* A map from method id to a total (call counts per callee): items[0 ..
 * index.count) in order of first use. */
typedef struct id_total {
    int64_t id;
    tool_total total;
} id_total;

typedef struct id_map {
    id_total *items;
    size_t cap;
    index_table index;
} id_map;

/* Add @p v to the total of @p id. 0, or -1 when out of memory. */
int id_map_add(id_map *m, int64_t id, int64_t v);
void id_map_free(id_map *m);

/* A map from strings (copied) to indices (iprof fit's call tree ids and
 * call sites). */
typedef struct str_item {
    char *key;
    uint64_t hash;
    size_t value;
} str_item;

typedef struct str_map {
    str_item *items;
    size_t cap;
    index_table index;
} str_map;

/* The value of @p key, or NULL. */
const size_t *str_map_get(const str_map *m, const char *key);
/* Map @p key to @p value (a key already there keeps its value). 0, or -1
 * when out of memory. */
int str_map_put(str_map *m, const char *key, size_t value);
void str_map_free(str_map *m);

/* ---- subcommands ------------------------------------------------------- */

int cmd_validate(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_cat(int argc, char **argv);
int cmd_flame(int argc, char **argv);    /* see stacks.h */
int cmd_export(int argc, char **argv);   /* see stacks.h */
int cmd_merge(int argc, char **argv);    /* see post.h */
int cmd_convert(int argc, char **argv);  /* see post.h */
int cmd_filter(int argc, char **argv);   /* see post.h */
int cmd_diff(int argc, char **argv);     /* iprof_diff (diff.h) */
int cmd_coverage(int argc, char **argv);
int cmd_show(int argc, char **argv);     /* <iprof/analysis.h> */
int cmd_repair(int argc, char **argv);   /* IPROF_READ_SALVAGE */
int cmd_fit(int argc, char **argv);      /* coverage.h, csv.h, lcov.h */
int cmd_completion(int argc, char **argv); /* generated from tool_commands */

extern const tool_command validate_command, stats_command, cat_command, flame_command,
    export_command, merge_command, convert_command, filter_command, diff_command,
    coverage_command, show_command, fit_command, repair_command,
    completion_command;

/* ---- stats ------------------------------------------------------------- */

#define STATS_TOP 10

typedef struct stats_method {
    int64_t id;
    tool_total calls;
    char *name; /* malloc'd readable name */
} stats_method;

typedef struct stats {
    const char *file; /* display name */
    const char *version;
    size_t types, methods, diagnostics;
    size_t contexts, max_depth;
    size_t entries[IPROF_KIND_COUNT];
    tool_total totals[IPROF_KIND_COUNT];
    stats_method top[STATS_TOP];
    size_t top_count;
    const iprof_model *model; /* borrowed: its unknown keys and instanceof spelling */
} stats;

void stats_print_text(FILE *out, const stats *st);
void stats_print_json(FILE *out, const stats *st);

#endif /* IPROF_TOOL_H */
