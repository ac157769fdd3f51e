/* iprof diff [--json] [--top N] [--fail-above X] [--strict] [-o OUT] A B
 *
 * Compares two profiles with iprof_diff (include/iprof/diff.h): the
 * staleness score, the methods and contexts per kind that one has and the
 * other lacks, the count mass per kind and its overlap, and the entries
 * whose normalised counts changed most. The report is the output: exit 0
 * when the comparison ran, 1 when an input is not a valid profile or the
 * score is above --fail-above (a CI gate; the report is still written and
 * stderr says "staleness ... is above"), 2 on usage, I/O or memory
 * errors. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <iprof/diff.h>

#include "outfile.h"
#include "progress.h"
#include "stacks.h"
#include "tool.h"

#define CMD "iprof diff"

enum { OPT_JSON = 1, OPT_TOP, OPT_FAIL_ABOVE, OPT_STRICT, OPT_OUT };

static const tool_opt diff_opts[] = {
    {"json", 0, NULL, OPT_JSON, "print the report as JSON (keys in docs/commands.md)", NULL},
    {"top", 0, "N", OPT_TOP,
     "changed entries per kind and method names listed per\n"
     "side (default 10)", NULL},
    {"fail-above", 0, "X", OPT_FAIL_ABOVE,
     "exit 1 when the staleness is above X (0 to 1), with\n"
     "\"iprof diff: staleness S is above X\" on stderr; the\n"
     "report is written all the same", NULL},
    {"strict", 0, NULL, OPT_STRICT, "read with IPROF_READ_STRICT", NULL},
    {"output", 'o', "OUT", OPT_OUT,
     "write the report to OUT (atomically) instead of\n"
     "standard output", NULL},
    TOOL_OPT_END,
};

const tool_command diff_command = {
    .name = "diff",
    .synopsis = "[--json] [--top N] [--fail-above X] [--strict] [-o OUT] A B",
    .brief = "[--json] [--top N] [--fail-above X] A B",
    .summary = "staleness score, what A and B lack of each\n"
               "other, overlap, biggest changes: is A stale?",
    .about = "Compare profile A with profile B: is A stale for the workload of B?\n"
             "\n"
             "Methods are matched by name and signature type names, contexts by\n"
             "their frames' methods and bcis (never by ids, which differ between\n"
             "files). The report starts with the staleness: a score from 0 (the\n"
             "profiles tell GraalVM the same) to 1 (nothing in common), the mean\n"
             "over the kinds with counts of the count-weighted distances between\n"
             "A's and B's call-count and sample shares, branch probabilities and\n"
             "receiver-type shares (formula: man iprof, docs/api.md). It lists the\n"
             "methods only one side has, per kind the contexts only one side has,\n"
             "the total counts and the overlaps (the share of A's count that sits\n"
             "on contexts B also has, and the other way round), and the entries\n"
             "whose share of their kind's total count changed most (delta = share\n"
             "in B - share in A; relative = delta / share in A).",
    .opts = diff_opts,
    .notes = "A or B '-' is standard input (not both). Exit status: 0 when the\n"
             "comparison ran (and the staleness is not above --fail-above), 1 if\n"
             "an input is invalid (no report) or the staleness is above X, 2 on\n"
             "usage or I/O errors.",
    .run = cmd_diff,
};
/* "Type.name(param, ...)": the method with its parameter types, so that
 * overloads are told apart. malloc'd; NULL when out of memory. */
static char *method_text(const iprof_model *m, const iprof_method *x)
{
    size_t n = iprof_model_method_describe(m, x, NULL, 0), len = n + 3;
    size_t sig_len;
    const int64_t *sig = iprof_method_signature(x, &sig_len);
    for (size_t i = 2; i < sig_len; i++) {
        const iprof_type *t = iprof_model_type_by_id(m, sig[i]);
        len += (t ? strlen(iprof_type_name(t, NULL)) : 24) + 2;
    }
    char *s = malloc(len);
    if (!s)
        return NULL;
    no_nul(s, iprof_model_method_describe(m, x, s, n + 1));
    size_t at = n;
    s[at++] = '(';
    for (size_t i = 2; i < sig_len; i++) {
        const iprof_type *t = iprof_model_type_by_id(m, sig[i]);
        if (i > 2)
            at += (size_t)snprintf(s + at, len - at, ", ");
        if (t)
            at += (size_t)snprintf(s + at, len - at, "%s", iprof_type_name(t, NULL));
        else
            at += (size_t)snprintf(s + at, len - at, "?%" PRId64, sig[i]);
    }
    snprintf(s + at, len - at, ")");
    return s;
}

/* What iprof_diff_get_*() say: the summary, one kind, one change. The
 * arguments are the command's own (a diff, a kind below IPROF_KIND_COUNT,
 * an index below the kind's change_count), so the calls do not fail. */
static iprof_diff_summary summary_of(const iprof_diff *d)
{
    iprof_diff_summary s = IPROF_DIFF_SUMMARY_INIT;
    iprof_diff_get_summary(d, &s);
    return s;
}

static iprof_diff_kind_summary kind_summary(const iprof_diff *d, int kind)
{
    iprof_diff_kind_summary k = IPROF_DIFF_KIND_SUMMARY_INIT;
    iprof_diff_get_kind(d, kind, &k);
    return k;
}

static iprof_diff_change change_of(const iprof_diff *d, int kind, size_t i)
{
    iprof_diff_change c = IPROF_DIFF_CHANGE_INIT;
    iprof_diff_get_change(d, kind, i, &c);
    return c;
}

/* The change's context as its side's model describes it: A's entry, else
 * B's (the side that has it). malloc'd; NULL when out of memory. */
static char *change_text(const iprof_model *m[2], const iprof_diff_change *c)
{
    int side = c->entry[IPROF_DIFF_A] ? IPROF_DIFF_A : IPROF_DIFF_B;
    const iprof_context *ctx = iprof_entry_context(c->entry[side]);
    size_t n = iprof_model_context_describe(m[side], ctx, NULL, 0);
    char *s = malloc(n + 1);
    if (s)
        iprof_model_context_describe(m[side], ctx, s, n + 1);
    return s;
}

/* A share as a percentage; an overlap of -1 (no mass) as "-". */
static const char *percent(double v, char *buf, size_t size)
{
    if (v < 0)
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.2f%%", v * 100.0);
    return buf;
}

static int print_text(FILE *out, const iprof_diff *d, const iprof_model *m[2],
                      const char *name[2], size_t top)
{
    iprof_diff_summary sum = summary_of(d);
    fprintf(out, "A: %s\nB: %s\n", name[0], name[1]);
    fprintf(out, "Staleness: %.6f (0: the same hot behaviour, 1: nothing in common)\n\n",
            sum.staleness);
    fprintf(out, "Methods: %zu of A in B, %zu only in A, %zu only in B\n",
            sum.method_common_count[IPROF_DIFF_A], sum.method_only_count[IPROF_DIFF_A],
            sum.method_only_count[IPROF_DIFF_B]);
    for (int s = 0; s < 2; s++) {
        size_t n = sum.method_only_count[s];
        for (size_t i = 0; i < n && i < top; i++) {
            char *t = method_text(m[s], iprof_diff_method_only_at(d, s, i));
            if (!t)
                return -1;
            fprintf(out, "  only in %c: ", s ? 'B' : 'A');
            put_text(out, t);
            fputc('\n', out);
            free(t);
        }
        if (n > top)
            fprintf(out, "  only in %c: ... %zu more\n", s ? 'B' : 'A', n - top);
    }
    fprintf(out, "\n%-28s %8s %8s %8s %20s %20s %9s %9s %9s\n", "Kind", "A only", "B only",
            "common", "total A", "total B", "overlap A", "overlap B", "staleness");
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        char oa[32], ob[32], st[32];
        iprof_diff_kind_summary ks = kind_summary(d, k);
        if (ks.staleness < 0)
            snprintf(st, sizeof st, "-");
        else
            snprintf(st, sizeof st, "%.4f", ks.staleness);
        fprintf(out, "%-28s %8zu %8zu %8zu %20" PRIu64 " %20" PRIu64 " %9s %9s %9s\n",
                iprof_kind_name(k), ks.context_only_count[IPROF_DIFF_A],
                ks.context_only_count[IPROF_DIFF_B], ks.context_common_count[IPROF_DIFF_A],
                ks.total[IPROF_DIFF_A], ks.total[IPROF_DIFF_B],
                percent(ks.overlap[IPROF_DIFF_A], oa, sizeof oa),
                percent(ks.overlap[IPROF_DIFF_B], ob, sizeof ob), st);
    }
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        size_t n = kind_summary(d, k).change_count;
        if (!n)
            continue;
        fprintf(out, "\nBiggest changes in %s (share of the kind's total count):\n"
                     "  %9s  %8s -> %-8s %9s  %s\n",
                iprof_kind_name(k), "delta", "A", "B", "relative", "counts A -> B, context");
        for (size_t i = 0; i < n; i++) {
            iprof_diff_change c = change_of(d, k, i);
            char *t = change_text(m, &c);
            if (!t)
                return -1;
            char sa[32], sb[32], rel[32];
            if (isinf(c.relative))
                snprintf(rel, sizeof rel, "new");
            else
                snprintf(rel, sizeof rel, "%+.1f%%", c.relative * 100.0);
            fprintf(out, "  %+8.3f%%  %8s -> %-8s %9s  %" PRIu64 " -> %" PRIu64 "  %s\n",
                    c.delta * 100.0, percent(c.share[IPROF_DIFF_A], sa, sizeof sa),
                    percent(c.share[IPROF_DIFF_B], sb, sizeof sb), rel, c.value[IPROF_DIFF_A],
                    c.value[IPROF_DIFF_B], t);
            free(t);
        }
    }
    return 0;
}

/* A score, or null when it is undefined (-1). */
static void json_score(FILE *out, double v)
{
    if (v < 0)
        fputs("null", out);
    else
        json_double(out, v);
}

static int print_json(FILE *out, const iprof_diff *d, const iprof_model *m[2],
                      const char *name[2], double fail_above)
{
    static const char side_name[2] = {'a', 'b'};
    iprof_diff_summary sum = summary_of(d);
    fputs("{\"a\": ", out);
    json_string(out, name[0]);
    fputs(", \"b\": ", out);
    json_string(out, name[1]);
    fputs(",\n \"staleness\": ", out);
    json_double(out, sum.staleness);
    fputs(", \"fail_above\": ", out);
    json_score(out, fail_above);
    fputs(",\n \"methods\": {", out);
    for (int s = 0; s < 2; s++)
        fprintf(out, "\"common_%c\": %zu, \"only_%c\": %zu, ", side_name[s],
                sum.method_common_count[s], side_name[s], sum.method_only_count[s]);
    for (int s = 0; s < 2; s++) {
        fprintf(out, "%s\n  \"only_%c_names\": [", s ? "," : "", side_name[s]);
        size_t n = sum.method_only_count[s];
        for (size_t i = 0; i < n; i++) {
            char *t = method_text(m[s], iprof_diff_method_only_at(d, s, i));
            if (!t)
                return -1;
            fputs(i ? ", " : "", out);
            json_string(out, t);
            free(t);
        }
        fputs("]", out);
    }
    fputs("},\n \"kinds\": {", out);
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        iprof_diff_kind_summary ks = kind_summary(d, k);
        fprintf(out, "%s\n  ", k ? "," : "");
        json_string(out, iprof_kind_name(k));
        fputs(": {", out);
        for (int s = 0; s < 2; s++) {
            fprintf(out, "\"entries_%c\": %zu, \"only_%c\": %zu, \"common_%c\": %zu, "
                         "\"total_%c\": %" PRIu64 ", \"common_total_%c\": %" PRIu64
                         ", \"overlap_%c\": ",
                    side_name[s], iprof_model_entry_count(m[s], k), side_name[s],
                    ks.context_only_count[s], side_name[s], ks.context_common_count[s],
                    side_name[s], ks.total[s], side_name[s], ks.common_total[s], side_name[s]);
            double o = ks.overlap[s];
            if (o < 0)
                fputs("null", out);
            else
                json_double(out, o);
            fputs(", ", out);
        }
        fputs("\"staleness\": ", out);
        json_score(out, ks.staleness);
        fputs(", \"changes\": [", out);
        size_t n = ks.change_count;
        for (size_t i = 0; i < n; i++) {
            iprof_diff_change c = change_of(d, k, i);
            char *t = change_text(m, &c);
            if (!t)
                return -1;
            fprintf(out, "%s\n    {\"context\": ", i ? "," : "");
            json_string(out, t);
            free(t);
            fprintf(out, ", \"count_a\": %" PRIu64 ", \"count_b\": %" PRIu64 ", \"share_a\": ",
                    c.value[IPROF_DIFF_A], c.value[IPROF_DIFF_B]);
            json_double(out, c.share[IPROF_DIFF_A]);
            fputs(", \"share_b\": ", out);
            json_double(out, c.share[IPROF_DIFF_B]);
            fputs(", \"delta\": ", out);
            json_double(out, c.delta);
            fputs(", \"relative\": ", out);
            json_double(out, c.relative);
            fputs("}", out);
        }
        fputs(n ? "]}" : "]}", out);
    }
    fputs("}}\n", out);
    return 0;
}

typedef struct diff_args {
    const char *file[2];
    const char *out;
    int json, strict;
    size_t top;
    double fail_above; /* -1: not given */
} diff_args;

static int parse(diff_args *c, int argc, char **argv, int *done)
{
    tool_args a;
    int opt, files = 0;
    *done = 0;
    c->top = IPROF_DIFF_DEFAULT_TOP;
    c->fail_above = -1;
    args_init(&a, CMD, argc, argv);
    while ((opt = args_next(&a, diff_opts)) != ARGS_END) {
        switch (opt) {
        case ARGS_ERROR: *done = 1; return TOOL_EXIT_USAGE;
        case TOOL_OPT_HELP: *done = 1; return command_help(&diff_command);
        case TOOL_OPT_VERSION: *done = 1; return print_version();
        case OPT_JSON: c->json = 1; break;
        case OPT_STRICT: c->strict = 1; break;
        case OPT_OUT: c->out = a.value; break;
        case OPT_TOP: {
            char *end;
            unsigned long long v = strtoull(a.value, &end, 10);
            if (!*a.value || *end || a.value[0] == '-' || v == 0 || v > 1000000) {
                *done = 1;
                return usage_error(CMD, "--top wants a number from 1 to 1000000, not '%s'",
                                   a.value);
            }
            c->top = (size_t)v;
            break;
        }
        case OPT_FAIL_ABOVE: {
            char *end;
            double v = strtod(a.value, &end);
            if (!*a.value || *end || !(v >= 0 && v <= 1)) {
                *done = 1;
                return usage_error(CMD, "--fail-above wants a number from 0 to 1, not '%s'",
                                   a.value);
            }
            c->fail_above = v;
            break;
        }
        default:
            if (files == 2) {
                *done = 1;
                return usage_error(CMD, "too many files: '%s'", a.value);
            }
            c->file[files++] = a.value;
            break;
        }
    }
    *done = 1;
    if (files < 2)
        return usage_error(CMD, files ? "no file B given" : "no files A and B given");
    if (strcmp(c->file[0], "-") == 0 && strcmp(c->file[1], "-") == 0)
        return usage_error(CMD, "A and B cannot both be standard input");
    *done = 0;
    return TOOL_EXIT_OK;
}

/* The CI gate: TOOL_EXIT_INVALID, saying so on stderr, when the score is
 * above the threshold (none: -1). */
static int gate(const iprof_diff *d, double fail_above)
{
    double s = summary_of(d).staleness;
    if (fail_above < 0 || !(s > fail_above))
        return TOOL_EXIT_OK;
    fprintf(stderr, "%s: staleness %.9g is above %.9g\n", CMD, s, fail_above);
    return TOOL_EXIT_INVALID;
}

int cmd_diff(int argc, char **argv)
{
    diff_args c;
    memset(&c, 0, sizeof c);
    int done, code = parse(&c, argc, argv, &done);
    if (done)
        return code;
    if (outfile_check_report(CMD, c.out) != 0)
        return TOOL_EXIT_USAGE;
    iprof_reader *reader = open_reader(CMD, c.strict);
    if (!reader)
        return TOOL_EXIT_USAGE;
    iprof_model *m[2] = {NULL, NULL};
    const char *name[2] = {display_name(c.file[0]), display_name(c.file[1])};
    progress_bar bar = {0};
    code = progress_load_model(&bar, CMD ": reading A", &m[0], reader, c.file[0]);
    if (code == TOOL_EXIT_OK)
        code = progress_load_model(&bar, CMD ": reading B", &m[1], reader, c.file[1]);
    iprof_diff *d = NULL;
    if (code == TOOL_EXIT_OK) {
        progress_bar_start(&bar, CMD ": comparing", 0);
        iprof_diff_options o = IPROF_DIFF_OPTIONS_INIT;
        o.top = c.top;
        int rc = iprof_diff_new(&d, m[0], m[1], &o);
        if (rc != IPROF_OK) {
            fprintf(stderr, "%s: %s\n", CMD, iprof_status_string(rc));
            code = TOOL_EXIT_USAGE;
        }
    }
    progress_bar_end(&bar);
    if (code == TOOL_EXIT_OK) {
        outfile of;
        if (outfile_open(&of, CMD, c.out) != 0) {
            code = TOOL_EXIT_USAGE;
        } else {
            const iprof_model *cm[2] = {m[0], m[1]};
            int rc = c.json ? print_json(of.fp, d, cm, name, c.fail_above)
                            : print_text(of.fp, d, cm, name, c.top);
            if (rc != 0) {
                fprintf(stderr, "%s: out of memory\n", CMD);
                outfile_abort(&of);
                code = TOOL_EXIT_USAGE;
            } else if (outfile_commit(&of, CMD) != 0) {
                code = TOOL_EXIT_USAGE;
            } else {
                code = gate(d, c.fail_above);
            }
        }
    }
    iprof_diff_free(d);
    iprof_model_free(m[0]);
    iprof_model_free(m[1]);
    iprof_reader_free(reader);
    return code;
}
