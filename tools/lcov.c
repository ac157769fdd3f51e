/* LCOV tracefiles (lcov.h): one writer for iprof coverage and iprof fit. */
#include <string.h>

#include "lcov.h"
#include "tool.h"

void lcov_write(FILE *out, const lcov_fn *fns, size_t n)
{
    fputs("TN:\n", out);
    for (size_t i = 0; i < n;) {
        size_t j = i, ran = 0;
        for (; j < n && strcmp(fns[j].cls, fns[i].cls) == 0; j++)
            ran += fns[j].ran != 0;
        fputs("SF:", out);
        for (const char *s = fns[i].cls; *s; s++)
            putc(*s == '.' ? '/' : *s == '\n' ? ' ' : *s, out);
        fputs(".java\n", out);
        /* A line each: a name's control characters as '?'. */
        for (size_t k = i; k < j; k++) {
            fprintf(out, "FN:%zu,", fns[k].line);
            put_text(out, fns[k].name);
            fputc('\n', out);
        }
        for (size_t k = i; k < j; k++) {
            fprintf(out, "FNDA:%s,", fns[k].hits);
            put_text(out, fns[k].name);
            fputc('\n', out);
        }
        fprintf(out, "FNF:%zu\nFNH:%zu\n", j - i, ran);
        for (size_t k = i; k < j; k++)
            fprintf(out, "DA:%zu,%s\n", fns[k].line, fns[k].hits);
        fprintf(out, "LF:%zu\nLH:%zu\nend_of_record\n", j - i, ran);
        i = j;
    }
}
