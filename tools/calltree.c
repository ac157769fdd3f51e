/* Native Image's call tree (calltree.h): the reachable methods of
 * call_tree_methods CSV files and the virtual call sites of
 * call_tree_invokes. The CSV reader is csv.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "calltree.h"
#include "csv.h"
#include "method_key.h"

/* The whole file, malloc'd; NULL after printing why. */
static char *read_all(const char *cmd, const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        report_plain(cmd, path, "%s", strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, fp);
        if (n < cap)
            break;
        char *b = realloc(buf, cap * 2);
        if (!b) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = b;
        cap *= 2;
    }
    int err = ferror(fp);
    fclose(fp);
    if (!buf || err) {
        report_plain(cmd, path, "%s", buf ? "read error" : "out of memory");
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* The CSV's parameter list ("int java.lang.String", "empty") as the key
 * holds it ("int,java.lang.String"); separators ' ' or ','. */
static char *csv_params(const char *p)
{
    sbuf b = {0};
    sb_str(&b, "");
    if (strcmp(p, "empty") == 0)
        return sb_take(&b);
    char tok[1024];
    while (*p) {
        size_t n = strcspn(p, " ,");
        if (n) {
            if (b.len)
                sb_str(&b, ",");
            if (n < sizeof tok) {
                memcpy(tok, p, n);
                tok[n] = '\0';
                key_type_name(&b, tok);
            } else {
                sb_add(&b, p, n);
            }
        }
        p += n + (p[n] != '\0');
    }
    return sb_take(&b);
}

/* One CSV file of the report: the columns a reader needs, by name. */
typedef struct table {
    const calltree_in *in;
    const char *path;
    const char *what;                /* "call_tree_methods", for messages */
    const char *all;                 /* every column GraalVM writes, for messages */
    const char *const *cols;         /* needed columns */
    size_t ncols;
    const char *const *optional;     /* columns used when present */
    size_t nopt;
    /* One row, fields[ncols + nopt] (NULL: an optional column absent): 0,
     * -1 when out of memory, or 1 after setting *msg (a literal). */
    int (*row)(const calltree_in *in, const char *const *fields, const char **msg);
} table;

static int csv_error(const char *file, size_t line, const char *msg)
{
    fprintf(stderr, "%s:%zu: %s\n", file, line, msg);
    return TOOL_EXIT_INVALID;
}

static size_t find_column(const csv_reader *r, const char *name)
{
    for (size_t i = 0; i < r->count; i++)
        if (strcmp(csv_field(r, i), name) == 0)
            return i;
    return (size_t)-1;
}

/* The header's columns into col[] ((size_t)-1: an optional one absent);
 * an exit code. */
static int read_header(const table *t, const char *file, csv_reader *r, size_t *col)
{
    int rc = csv_next(r);
    if (rc < 0)
        return csv_error(file, r->error_line, r->error);
    if (rc == 0)
        return csv_error(file, 1, "empty: no header line");
    for (size_t c = 0; c < t->ncols + t->nopt; c++) {
        int needed = c < t->ncols;
        col[c] = find_column(r, needed ? t->cols[c] : t->optional[c - t->ncols]);
        if (needed && col[c] == (size_t)-1) {
            fprintf(stderr, "%s:%zu: not a %s CSV: no column '%s' (GraalVM writes %s)\n", file,
                    r->record_line, t->what, t->cols[c], t->all);
            return TOOL_EXIT_INVALID;
        }
    }
    return TOOL_EXIT_OK;
}

enum { MAX_COLS = 8 };

/* One row: its field count and needed fields checked, then t->row. An
 * exit code. */
static int read_row(const table *t, const char *file, csv_reader *r, const size_t *col,
                    size_t columns)
{
    char msg[96];
    if (r->count != columns) {
        snprintf(msg, sizeof msg, "%zu fields, the header has %zu", r->count, columns);
        return csv_error(file, r->record_line, msg);
    }
    const char *fields[MAX_COLS];
    for (size_t c = 0; c < t->ncols + t->nopt; c++) {
        fields[c] = col[c] == (size_t)-1 ? NULL : csv_field(r, col[c]);
        if (c < t->ncols && !*fields[c]) {
            snprintf(msg, sizeof msg, "empty %s", t->cols[c]);
            return csv_error(file, r->record_line, msg);
        }
    }
    const char *why = NULL;
    int rc = t->row(t->in, fields, &why);
    if (rc > 0)
        return csv_error(file, r->record_line, why);
    if (rc < 0) {
        fprintf(stderr, "%s: out of memory\n", t->in->cmd);
        return TOOL_EXIT_USAGE;
    }
    return TOOL_EXIT_OK;
}

static int read_table(const table *t)
{
    size_t len;
    char *text = read_all(t->in->cmd, t->path, &len);
    if (!text)
        return TOOL_EXIT_USAGE;
    csv_reader r;
    csv_init(&r, text, len);
    size_t col[MAX_COLS];
    int code = read_header(t, t->path, &r, col), rc = 0;
    size_t columns = r.count;
    while (code == TOOL_EXIT_OK && (rc = csv_next(&r)) == 1)
        code = read_row(t, t->path, &r, col, columns);
    if (code == TOOL_EXIT_OK && rc < 0)
        code = strcmp(r.error, "out of memory") == 0
                   ? (fprintf(stderr, "%s: out of memory\n", t->in->cmd), TOOL_EXIT_USAGE)
                   : csv_error(t->path, r.error_line, r.error);
    csv_free(&r);
    free(text);
    return code;
}

static const char *const method_cols[] = {"Name", "Type", "Parameters", "Return"};
static const char *const method_opt[] = {"Id"};

static int method_row(const calltree_in *in, const char *const *f, const char **msg)
{
    (void)msg;
    char *params = csv_params(f[2]);
    int rc = params ? in->method(in->ctx, f[4], f[1], f[0], params, f[3]) : -1;
    free(params);
    return rc;
}

static const char *const invoke_cols[] = {"MethodId", "BytecodeIndexes", "IsDirect"};

/* A virtual call site: its bcis "7->3" as "7,3" (innermost first). */
static int invoke_row(const calltree_in *in, const char *const *f, const char **msg)
{
    if (strcmp(f[2], "true") == 0)
        return 0;
    if (strcmp(f[2], "false") != 0) {
        *msg = "IsDirect is neither true nor false";
        return 1;
    }
    sbuf b = {0};
    for (const char *p = f[1]; *p; p++) {
        if (p[0] == '-' && p[1] == '>') {
            sb_str(&b, ",");
            p++;
        } else if ((*p >= '0' && *p <= '9') || *p == '-') {
            sb_add(&b, p, 1);
        } else {
            free(b.s);
            *msg = "BytecodeIndexes is not a list of bcis like 7->3";
            return 1;
        }
    }
    char *bcis = sb_take(&b);
    int rc = bcis ? in->site(in->ctx, f[0], bcis) : -1;
    free(bcis);
    if (rc > 0)
        *msg = "MethodId names no method of call_tree_methods";
    return rc;
}

int calltree_read(const calltree_in *in)
{
    table t = {in, in->path, "call_tree_methods",
               "Id,Name,Type,Parameters,Return,Display,Flags,IsEntryPoint", method_cols, 4,
               method_opt, 1, method_row};
    int code = read_table(&t);
    if (code != TOOL_EXIT_OK || !in->invokes)
        return code;
    table v = {in, in->invokes, "call_tree_invokes", "Id,MethodId,BytecodeIndexes,TargetId,IsDirect",
               invoke_cols, 3, NULL, 0, invoke_row};
    return read_table(&v);
}

/* CALLTREE, or DIR/call_tree_methods.csv for a directory; malloc'd. */
char *calltree_path(const char *arg)
{
    struct stat st;
    const char *leaf = "/call_tree_methods.csv";
    int dir = stat(arg, &st) == 0 && S_ISDIR(st.st_mode);
    size_t n = strlen(arg) + (dir ? strlen(leaf) : 0) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s", arg, dir ? leaf : "");
    return p;
}

char *calltree_invokes_path(const char *methods)
{
    const char *slash = strrchr(methods, '/'), *base = slash ? slash + 1 : methods;
    const char *at = NULL, *needle = "call_tree_methods";
    for (const char *p = strstr(base, needle); p; p = strstr(p + 1, needle))
        at = p;
    if (!at)
        return NULL;
    size_t head = (size_t)(at - methods), n = strlen(methods) + 1;
    char *p = malloc(n);
    if (!p)
        return NULL;
    memcpy(p, methods, head);
    memcpy(p + head, "call_tree_invokes", strlen(needle));
    strcpy(p + head + strlen(needle), at + strlen(needle));
    struct stat st;
    if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
        return p;
    free(p);
    return NULL;
}
