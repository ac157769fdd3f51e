/* LCOV tracefiles (lcov.h): one writer for iprof coverage and iprof fit. */
#include <stdlib.h>
#include <string.h>

#include "lcov.h"
#include "method_key.h"
#include "tool.h"

/* A function name as lcov.h says: ',' as "; ", control characters as '?'
 * (a line each), ": R" after. */
static void fn_text(sbuf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == ',')
            sb_str(b, "; ");
        else
            sb_add(b, (unsigned char)*s < 0x20 || *s == 0x7f ? "?" : s, 1);
    }
}

static char *fn_name(const lcov_fn *f)
{
    sbuf b = {0};
    fn_text(&b, f->name);
    if (f->ret) {
        sb_str(&b, ": ");
        fn_text(&b, f->ret);
    }
    return sb_take(&b);
}

typedef struct named {
    char *name;
    size_t at; /* index in fns */
} named;

static int cmp_named(const void *pa, const void *pb)
{
    const named *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* Make the names of one class distinct: of equal names the first (in
 * file order) stays, the others get " #LINE"; again until none are equal
 * (a suffix could meet a name that ends so). 0, or -1 out of memory. */
static int distinct(named *v, size_t n, const lcov_fn *fns)
{
    for (int again = 1; again;) {
        again = 0;
        qsort(v, n, sizeof *v, cmp_named);
        for (size_t i = 1; i < n; i++) {
            if (strcmp(v[i - 1].name, v[i].name) != 0)
                continue;
            size_t k = i; /* v[i-1] keeps its name */
            for (; k < n && strcmp(v[i - 1].name, v[k].name) == 0; k++) {
                char *s = malloc(strlen(v[k].name) + 24);
                if (!s)
                    return -1;
                sprintf(s, "%s #%zu", v[k].name, fns[v[k].at].line);
                free(v[k].name);
                v[k].name = s;
            }
            i = k;
            again = 1;
        }
    }
    return 0;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

int lcov_write(FILE *out, const lcov_fn *fns, size_t n)
{
    char **names = calloc(n ? n : 1, sizeof *names);
    named *v = malloc((n ? n : 1) * sizeof *v);
    int rc = names && v ? 0 : -1;
    for (size_t i = 0; i < n && !rc; i++)
        rc = (names[i] = fn_name(&fns[i])) ? 0 : -1;
    for (size_t i = 0; i < n && !rc;) {
        size_t j = i;
        for (; j < n && strcmp(fns[j].cls, fns[i].cls) == 0; j++)
            v[j - i] = (named){names[j], j};
        rc = distinct(v, j - i, fns);
        for (size_t k = 0; k < j - i; k++)
            names[v[k].at] = v[k].name; /* renamed or not, owned by names */
        i = j;
    }
    free(v);
    if (rc) {
        if (names)
            free_names(names, n);
        return -1;
    }
    fputs("TN:\n", out);
    for (size_t i = 0; i < n;) {
        size_t j = i, ran = 0;
        for (; j < n && strcmp(fns[j].cls, fns[i].cls) == 0; j++)
            ran += fns[j].ran != 0;
        fputs("SF:", out);
        for (const char *s = fns[i].cls; *s; s++)
            putc(*s == '.' ? '/' : *s == '\n' ? ' ' : *s, out);
        fputs(".java\n", out);
        for (size_t k = i; k < j; k++)
            fprintf(out, "FN:%zu,%s\n", fns[k].line, names[k]);
        for (size_t k = i; k < j; k++)
            fprintf(out, "FNDA:%s,%s\n", fns[k].hits, names[k]);
        fprintf(out, "FNF:%zu\nFNH:%zu\n", j - i, ran);
        for (size_t k = i; k < j; k++)
            fprintf(out, "DA:%zu,%s\n", fns[k].line, fns[k].hits);
        fprintf(out, "LF:%zu\nLH:%zu\nend_of_record\n", j - i, ran);
        i = j;
    }
    free_names(names, n);
    return 0;
}
