/* iprof coverage [--json] [--lcov OUT] [--strict] [-o OUT] FILE
 *
 * Which methods of a profile ran, per class and per package, as a table,
 * as JSON, and as LCOV for genhtml.
 *
 * Which methods ran and their hits: coverage.h. A class's package is its
 * name up to the last '.' ("(default package)" without one).
 *
 * LCOV (lcov.h): one record per class, in name order, its methods in the
 * file order of the class's methods. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "lcov.h"
#include "outfile.h"

#define CMD "iprof coverage"

enum { OPT_JSON = 1, OPT_LCOV, OPT_STRICT, OPT_OUT };

static const tool_opt coverage_opts[] = {
    {"json", 0, NULL, OPT_JSON, "print the table as JSON (keys in docs/commands.md)", NULL},
    {"lcov", 0, "OUT", OPT_LCOV,
     "also write LCOV to OUT (atomically; '-': standard\n"
     "output instead of the table): one SF record per class\n"
     "(SF:com/foo/Bar.java), FN/FNDA per method with the\n"
     "method's index in its class as a synthetic line and\n"
     "'name(P1; P2): R' as its name", NULL},
    {"strict", 0, NULL, OPT_STRICT, "read with IPROF_READ_STRICT", NULL},
    {"output", 'o', "OUT", OPT_OUT, "write the table to OUT (atomically)", NULL},
    TOOL_OPT_END,
};

const tool_command coverage_command = {
    .name = "coverage",
    .synopsis = "[--json] [--lcov OUT] [--strict] [-o OUT] FILE",
    .brief = "[--json] [--lcov OUT] FILE",
    .summary = "which methods ran, per class and package",
    .about = "Which methods of a profile ran, per class and package.\n"
             "\n"
             "A method ran when an entry of any kind mentions it in its context\n"
             "(callee or caller; call-count entries only with a count above 0).\n"
             "Its hits are its call count, else its sample count, else 1 if it ran.\n"
             "A profile without call counts (sampled only) is not coverage: a warning\n"
             "says so, and --json's \"hasCallCounts\" is false.",
    .opts = coverage_opts,
    .notes = "FILE '-' is standard input. Exit status: 0 on success, 1 if the file\n"
             "is invalid, 2 on usage or I/O errors.",
    .run = cmd_coverage,
};

/* The package of a class: its name up to the last '.', length in *len;
 * NULL for the default package. */
static const char *package_of(const char *cls, size_t *len)
{
    const char *dot = strrchr(cls, '.');
    if (!dot || cls[0] == '?') {
        *len = 0;
        return NULL;
    }
    *len = (size_t)(dot - cls);
    return cls;
}

/* Packages in class order are not contiguous ("a.B" < "a.b.C" < "a.C"):
 * they are counted over the methods sorted by package. */
typedef struct pkg {
    const char *cls; /* a class of the package */
    size_t methods, ran;
} pkg;

/* By package name, the default package last. */
static int cmp_pkg_name(const char *x, const char *y)
{
    size_t la, lb;
    const char *pa = package_of(x, &la), *pb = package_of(y, &lb);
    if (!pa || !pb)
        return pa ? -1 : pb ? 1 : 0;
    int c = memcmp(pa, pb, la < lb ? la : lb);
    return c ? c : la < lb ? -1 : la > lb;
}

static int cmp_method_pkg(const void *a, const void *b)
{
    const cov_method *x = *(cov_method *const *)a, *y = *(cov_method *const *)b;
    return cmp_pkg_name(x->cls, y->cls);
}

static pkg *packages(const cov *c, size_t *count)
{
    pkg *p = malloc((c->n ? c->n : 1) * sizeof *p);
    cov_method **v = malloc((c->n ? c->n : 1) * sizeof *v);
    size_t n = 0;
    if (!p || !v) {
        free(p);
        free(v);
        return NULL;
    }
    if (c->n) {
        memcpy(v, c->by_class, c->n * sizeof *v);
        qsort(v, c->n, sizeof *v, cmp_method_pkg);
    }
    for (size_t i = 0; i < c->n; i++) {
        if (n == 0 || cmp_pkg_name(p[n - 1].cls, v[i]->cls) != 0) {
            p[n].cls = v[i]->cls;
            p[n].methods = p[n].ran = 0;
            n++;
        }
        p[n - 1].methods++;
        p[n - 1].ran += v[i]->ran != 0;
    }
    free(v);
    *count = n;
    return p;
}

static double pct(size_t ran, size_t all)
{
    return all ? 100.0 * (double)ran / (double)all : 0.0;
}

static void print_pkg_name(FILE *out, const char *cls, int json)
{
    size_t len;
    const char *p = package_of(cls, &len);
    if (json) {
        char *s = malloc(len + 1);
        if (s) {
            memcpy(s, p ? p : "", len);
            s[len] = '\0';
            json_string(out, s);
            free(s);
        }
    } else if (p) {
        fprintf(out, "%-50.*s", (int)len, p);
    } else {
        fprintf(out, "%-50s", "(default package)");
    }
}

static int print_table(FILE *out, const cov *c)
{
    size_t np;
    pkg *p = packages(c, &np);
    if (!p)
        return -1;
    fprintf(out, "%s: %zu of %zu methods ran (%.2f%%)\n\n", c->file, c->ran, c->n,
            pct(c->ran, c->n));
    fprintf(out, "%-50s %8s %8s %9s\n", "Package", "Methods", "Ran", "Coverage");
    for (size_t i = 0; i < np; i++) {
        print_pkg_name(out, p[i].cls, 0);
        fprintf(out, " %8zu %8zu %8.2f%%\n", p[i].methods, p[i].ran,
                pct(p[i].ran, p[i].methods));
    }
    fprintf(out, "\n%-50s %8s %8s %9s\n", "Class", "Methods", "Ran", "Coverage");
    for (size_t i = 0; i < c->n;) {
        size_t j = i, ran = 0;
        for (; j < c->n && strcmp(c->by_class[j]->cls, c->by_class[i]->cls) == 0; j++)
            ran += c->by_class[j]->ran != 0;
        fprintf(out, "%-50s %8zu %8zu %8.2f%%\n", c->by_class[i]->cls, j - i, ran,
                pct(ran, j - i));
        i = j;
    }
    free(p);
    return 0;
}

static int print_json(FILE *out, const cov *c)
{
    size_t np;
    pkg *p = packages(c, &np);
    if (!p)
        return -1;
    fputs("{\"file\": ", out);
    json_string(out, c->file);
    fprintf(out, ", \"methods\": %zu, \"ran\": %zu, \"hasCallCounts\": %s,\n \"packages\": [", c->n,
            c->ran, c->call_counts ? "true" : "false");
    for (size_t i = 0; i < np; i++) {
        fprintf(out, "%s\n  {\"name\": ", i ? "," : "");
        print_pkg_name(out, p[i].cls, 1);
        fprintf(out, ", \"methods\": %zu, \"ran\": %zu}", p[i].methods, p[i].ran);
    }
    fputs("],\n \"classes\": [", out);
    for (size_t i = 0; i < c->n;) {
        size_t j = i, ran = 0;
        for (; j < c->n && strcmp(c->by_class[j]->cls, c->by_class[i]->cls) == 0; j++)
            ran += c->by_class[j]->ran != 0;
        fprintf(out, "%s\n  {\"name\": ", i ? "," : "");
        json_string(out, c->by_class[i]->cls);
        fputs(", \"package\": ", out);
        print_pkg_name(out, c->by_class[i]->cls, 1);
        fprintf(out, ", \"methods\": %zu, \"ran\": %zu, \"functions\": [", j - i, ran);
        for (size_t k = i; k < j; k++) {
            const cov_method *m = c->by_class[k];
            char b1[TOTAL_CHARS], b2[TOTAL_CHARS], b3[TOTAL_CHARS];
            fputs(k > i ? ", {\"name\": " : "{\"name\": ", out);
            json_string(out, m->name);
            fprintf(out, ", \"line\": %zu, \"ran\": %s, \"hits\": %s, \"calls\": %s, \"samples\": %s}",
                    m->line, m->ran ? "true" : "false", cov_hits(m, b1), total_format(&m->calls, b2),
                    total_format(&m->samples, b3));
        }
        fputs("]}", out);
        i = j;
    }
    fputs("]}\n", out);
    free(p);
    return 0;
}

static int print_lcov(FILE *out, const cov *c)
{
    lcov_fn *fns = malloc((c->n ? c->n : 1) * sizeof *fns);
    if (!fns)
        return -1;
    for (size_t i = 0; i < c->n; i++) {
        const cov_method *m = c->by_class[i];
        fns[i].cls = m->cls;
        fns[i].name = m->name;
        fns[i].ret = m->ret;
        fns[i].line = m->line;
        fns[i].ran = m->ran;
        const char *h = cov_hits(m, fns[i].hits);
        if (h != fns[i].hits)
            snprintf(fns[i].hits, sizeof fns[i].hits, "%s", h);
    }
    int rc = lcov_write(out, fns, c->n);
    free(fns);
    return rc;
}

typedef struct cov_args {
    const char *file, *out, *lcov;
    int json, strict;
} cov_args;

static int parse(cov_args *c, int argc, char **argv, int *done)
{
    tool_args a;
    int opt;
    *done = 1;
    args_init(&a, CMD, argc, argv);
    while ((opt = args_next(&a, coverage_opts)) != ARGS_END) {
        switch (opt) {
        case ARGS_ERROR: return TOOL_EXIT_USAGE;
        case TOOL_OPT_HELP: return command_help(&coverage_command);
        case TOOL_OPT_VERSION: return print_version();
        case OPT_JSON: c->json = 1; break;
        case OPT_STRICT: c->strict = 1; break;
        case OPT_OUT: c->out = a.value; break;
        case OPT_LCOV: c->lcov = a.value; break;
        default:
            if (c->file)
                return usage_error(CMD, "too many files: '%s'", a.value);
            c->file = a.value;
            break;
        }
    }
    if (!c->file)
        return usage_error(CMD, "no FILE given");
    if (c->lcov && c->out && outfile_is_stdout(c->lcov) && outfile_is_stdout(c->out))
        return usage_error(CMD, "--lcov - and -o - both want standard output");
    /* One file would get the report and lose the tracefile. */
    if (c->lcov && c->out && outfile_same(c->lcov, c->out))
        return usage_error(CMD, "--lcov %s and -o %s name the same file", c->lcov, c->out);
    *done = 0;
    return TOOL_EXIT_OK;
}

/* Write with @p fn into OUT atomically; 0 or -1 after printing why. */
static int write_to(const char *path, const cov *c, int which)
{
    outfile of;
    if (outfile_open(&of, CMD, path) != 0)
        return -1;
    int rc = which == 0 ? print_lcov(of.fp, c)
             : which == 1 ? print_table(of.fp, c) : print_json(of.fp, c);
    if (rc != 0) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        outfile_abort(&of);
        return -1;
    }
    return outfile_commit(&of, CMD);
}

int cmd_coverage(int argc, char **argv)
{
    cov_args a;
    memset(&a, 0, sizeof a);
    int done, code = parse(&a, argc, argv, &done);
    if (done)
        return code;
    if (outfile_check_report(CMD, a.out) != 0 || outfile_check_report(CMD, a.lcov) != 0)
        return TOOL_EXIT_USAGE;
    iprof_reader *reader = open_reader(CMD, a.strict);
    if (!reader)
        return TOOL_EXIT_USAGE;
    iprof_model *model = NULL;
    progress_bar bar = {0};
    cov c;
    memset(&c, 0, sizeof c);
    c.file = display_name(a.file);
    code = progress_load_model(&bar, CMD ": reading", &model, reader, a.file);
    if (code == TOOL_EXIT_OK && cov_compute(&c, model, &bar, CMD ": counting") != 0) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        code = TOOL_EXIT_USAGE;
    }
    progress_bar_end(&bar);
    /* Without call counts (a sampling-only profile, GraalVM's
     * -H:+PGOSampling without instrumentation) a method "ran" when it was
     * sampled or sits in a sampled stack: not coverage. */
    c.call_counts = code == TOOL_EXIT_OK &&
                    iprof_model_entry_count(model, IPROF_KIND_CALL_COUNT) > 0;
    if (code == TOOL_EXIT_OK && !c.call_counts)
        report_plain(CMD, c.file, "warning: no call counts (sampled only?): methods "
                                  "that ran but were not sampled count as not run");
    if (code == TOOL_EXIT_OK && a.lcov && write_to(a.lcov, &c, 0) != 0)
        code = TOOL_EXIT_USAGE;
    if (code == TOOL_EXIT_OK && !(a.lcov && outfile_shares_stdout(a.lcov) && !a.out) &&
        write_to(a.out, &c, a.json ? 2 : 1) != 0)
        code = TOOL_EXIT_USAGE;
    cov_free(&c);
    iprof_model_free(model);
    iprof_reader_free(reader);
    return code;
}
