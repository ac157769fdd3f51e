/* Native Image's call tree (calltree.h): the reachable methods of
 * call_tree_methods CSV files. The CSV reader is csv.c. */
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

enum { COL_NAME, COL_TYPE, COL_PARAMS, COL_RETURN, COLS };
static const char *const col_names[COLS] = {"Name", "Type", "Parameters", "Return"};

static int csv_error(const char *file, size_t line, const char *msg)
{
    fprintf(stderr, "%s:%zu: %s\n", file, line, msg);
    return TOOL_EXIT_INVALID;
}

/* The header's columns into col[]; an exit code. */
static int read_header(const char *file, csv_reader *r, size_t col[COLS])
{
    int rc = csv_next(r);
    if (rc < 0)
        return csv_error(file, r->error_line, r->error);
    if (rc == 0)
        return csv_error(file, 1, "empty: no header line");
    for (int c = 0; c < COLS; c++) {
        col[c] = (size_t)-1;
        for (size_t i = 0; i < r->count; i++)
            if (strcmp(csv_field(r, i), col_names[c]) == 0)
                col[c] = i;
        if (col[c] == (size_t)-1) {
            fprintf(stderr, "%s:%zu: not a call_tree_methods CSV: no column '%s' (GraalVM "
                    "writes Id,Name,Type,Parameters,Return,Display,Flags,IsEntryPoint)\n",
                    file, r->record_line, col_names[c]);
            return TOOL_EXIT_INVALID;
        }
    }
    return TOOL_EXIT_OK;
}

/* One row: its columns checked, the method added. An exit code. */
static int row(const calltree_in *in, csv_reader *r, const size_t col[COLS], size_t columns)
{
    char msg[96];
    if (r->count != columns) {
        snprintf(msg, sizeof msg, "%zu fields, the header has %zu", r->count, columns);
        return csv_error(in->display, r->record_line, msg);
    }
    for (int c = 0; c < COLS; c++)
        if (!*csv_field(r, col[c])) {
            snprintf(msg, sizeof msg, "empty %s", col_names[c]);
            return csv_error(in->display, r->record_line, msg);
        }
    char *params = csv_params(csv_field(r, col[COL_PARAMS]));
    int rc = params ? in->add(in->ctx, csv_field(r, col[COL_TYPE]), csv_field(r, col[COL_NAME]),
                              params, csv_field(r, col[COL_RETURN]))
                    : -1;
    free(params);
    if (rc != 0) {
        fprintf(stderr, "%s: out of memory\n", in->cmd);
        return TOOL_EXIT_USAGE;
    }
    return TOOL_EXIT_OK;
}

int calltree_read(const calltree_in *in)
{
    size_t len;
    char *text = read_all(in->cmd, in->path, &len);
    if (!text)
        return TOOL_EXIT_USAGE;
    csv_reader r;
    csv_init(&r, text, len);
    size_t col[COLS];
    int code = read_header(in->display, &r, col), rc = 0;
    size_t columns = r.count;
    while (code == TOOL_EXIT_OK && (rc = csv_next(&r)) == 1)
        code = row(in, &r, col, columns);
    if (code == TOOL_EXIT_OK && rc < 0)
        code = strcmp(r.error, "out of memory") == 0
                   ? (fprintf(stderr, "%s: out of memory\n", in->cmd), TOOL_EXIT_USAGE)
                   : csv_error(in->display, r.error_line, r.error);
    csv_free(&r);
    free(text);
    return code;
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
