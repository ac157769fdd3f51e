/* iprof fit [--json] [--lcov OUT] [--top N] [--strict] [-o OUT] PROFILE CALLTREE
 *
 * How well a profile fits a build: the build's reachable methods come from
 * Native Image's call tree report (-H:+PrintAnalysisCallTree
 * -H:PrintAnalysisCallTreeType=CSV: reports/call_tree_methods_*.csv, or the
 * reports directory, whose call_tree_methods.csv links to the latest).
 *
 * Methods are matched by a key "Type.name(param,...):Return" written the
 * same way for the call tree's rows (calltree.h) and the profile's
 * signatures (method_key.h, where the return type's place in the key is
 * explained). A profile method "has data" (ran) as iprof coverage defines
 * it (coverage.h).
 *
 * Relevance and applicability follow GraalVM's -H:+PGOPrintProfileQuality
 * (PGOApplyProfilesPhase.ProfileQuality in oracle/graal) as far as a call
 * tree allows: relevance is the share of the profile's entries that a build
 * keeps (every method of the entry's context reachable); applicability the
 * share of reachable methods with profile data (GraalVM counts lookups per
 * branch, invoke and instanceof of compiled code, which a call tree does
 * not list). With call_tree_invokes beside the methods file, the virtual
 * call sites (GraalVM's invoke lookups) are counted too: a site is
 * profiled when a virtual invoke entry's frames end, from the innermost,
 * in its bcis at its method. docs/iprof.1 says so too. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "calltree.h"
#include "coverage.h"
#include "lcov.h"
#include "method_key.h"
#include "outfile.h"

#define CMD "iprof fit"
#define TOP_DEFAULT 20
#define TOP_DEFAULT_TEXT "20" /* TOP_DEFAULT in --help */

enum { OPT_JSON = 1, OPT_LCOV, OPT_TOP, OPT_STRICT, OPT_OUT };

static const tool_opt fit_opts[] = {
    {"json", 0, NULL, OPT_JSON, "print everything as JSON (keys in docs/commands.md)", NULL},
    {"lcov", 0, "OUT", OPT_LCOV,
     "also write LCOV of the reachable methods to OUT (atomically;\n"
     "'-': standard output instead of the report), those never\n"
     "run with 0 hits, for genhtml", NULL},
    {"top", 0, "N", OPT_TOP,
     "list at most N methods of each kind (default " TOP_DEFAULT_TEXT "; 0: all)", NULL},
    {"strict", 0, NULL, OPT_STRICT, "read PROFILE with IPROF_READ_STRICT", NULL},
    {"output", 'o', "OUT", OPT_OUT, "write the report to OUT (atomically)", NULL},
    TOOL_OPT_END,
};

const tool_command fit_command = {
    .name = "fit",
    .synopsis = "[--json] [--lcov OUT] [--top N] [--strict] [-o OUT] PROFILE CALLTREE",
    .brief = "[--json] [--lcov OUT] [--top N] PROFILE CALLTREE",
    .summary = "how well a profile fits a build's call tree",
    .about = "How well a profile fits a build: the build's reachable methods (CALLTREE,\n"
             "Native Image's call_tree_methods CSV from -H:+PrintAnalysisCallTree\n"
             "-H:PrintAnalysisCallTreeType=CSV, or the reports directory holding\n"
             "call_tree_methods.csv) against the methods PROFILE has data for.\n"
             "\n"
             "Prints the reachable methods never run, the profiled methods no longer\n"
             "reachable, and, as in -H:+PGOPrintProfileQuality, relevance (entries whose\n"
             "methods are all reachable) and applicability (reachable methods with data);\n"
             "with the call_tree_invokes CSV beside CALLTREE, the virtual call sites\n"
             "the profile has receiver types for.",
    .opts = fit_opts,
    .notes = "PROFILE '-' is standard input. Exit status: 0 on success, 1 if PROFILE is\n"
             "invalid or CALLTREE malformed, 2 on usage or I/O errors.",
    .run = cmd_fit,
};

/* ---- the methods of both sides ----------------------------------------- */

typedef struct fit_method {
    char *key;  /* "Type.name(param,...):Return", normalised */
    char *cls;  /* its Type */
    char *name; /* "name(param,...)" */
    size_t order;
    int reachable, ran;
    const cov_method *prof; /* a profile method with this key (one that ran first) */
    size_t line;            /* LCOV: index in its class among the reachable */
} fit_method;

typedef struct fit {
    const char *profile, *calltree; /* display names */
    fit_method *m;
    size_t n, cap;
    str_map keys; /* key -> index in m */
    size_t *of_prof; /* profile method (cov order) -> index in m */
    cov cov;
    size_t reachable, reachable_ran, profiled, unreachable;
    uint64_t entries, relevant;
    /* Virtual call sites (with a call_tree_invokes file): "METHOD:BCIS",
     * METHOD an index in m, BCIS innermost first ("7,3"). */
    int have_sites;
    const char *invokes; /* the call_tree_invokes file, or NULL */
    str_map ids;   /* the call tree's method Ids -> index in m */
    char **sites;  /* the call tree's sites, malloc'd */
    size_t nsites, sites_cap, sites_profiled;
} fit;

/* Room for one more method: 0, or -1 when out of memory. */
static int fit_grow(fit *f)
{
    if (f->n < f->cap)
        return 0;
    size_t cap = f->cap ? 2 * f->cap : 64;
    fit_method *m = realloc(f->m, cap * sizeof *m);
    if (!m)
        return -1;
    f->m = m;
    f->cap = cap;
    return 0;
}

/* The method of @p key, added if new: the three strings (malloc'd) are
 * kept by a new method and freed otherwise. Its index, or (size_t)-1 when
 * out of memory. */
static size_t fit_add(fit *f, char *key, char *cls, char *name)
{
    const size_t *at = str_map_get(&f->keys, key);
    if (!at && fit_grow(f) == 0 && str_map_put(&f->keys, key, f->n) == 0) {
        fit_method *m = &f->m[f->n];
        memset(m, 0, sizeof *m);
        m->key = key;
        m->cls = cls;
        m->name = name;
        m->order = f->n;
        return f->n++;
    }
    free(key);
    free(cls);
    free(name);
    return at ? *at : (size_t)-1;
}

/* The method Type.name(params):ret, added if new; @p params is the key's
 * parameter list ("int,java.lang.String"). Its index, or (size_t)-1 when
 * out of memory. */
static size_t add_method(fit *f, const char *type, const char *name, const char *params,
                         const char *ret)
{
    method_key_parts k;
    if (method_key(type, name, params, ret, &k) != 0)
        return (size_t)-1;
    return fit_add(f, k.key, k.cls, k.name);
}

/* calltree_in.method: a reachable method. */
static int add_reachable(void *ctx, const char *id, const char *type, const char *name,
                         const char *params, const char *ret)
{
    fit *f = ctx;
    size_t i = add_method(f, type, name, params, ret);
    if (i == (size_t)-1 || (id && str_map_put(&f->ids, id, i) != 0))
        return -1;
    f->m[i].reachable = 1;
    return 0;
}

/* A site's key "METHOD:BCIS"; malloc'd, NULL when out of memory. */
static char *site_key(size_t method, const char *bcis)
{
    size_t n = strlen(bcis) + 24;
    char *k = malloc(n);
    if (k)
        snprintf(k, n, "%zu:%s", method, bcis);
    return k;
}

/* calltree_in.site: a virtual call site, kept until the profile is read. */
static int add_site(void *ctx, const char *method_id, const char *bcis)
{
    fit *f = ctx;
    const size_t *m = str_map_get(&f->ids, method_id);
    if (!m)
        return 1;
    if (f->nsites == f->sites_cap) {
        size_t cap = f->sites_cap ? 2 * f->sites_cap : 64;
        char **v = realloc(f->sites, cap * sizeof *v);
        if (!v)
            return -1;
        f->sites = v;
        f->sites_cap = cap;
    }
    char *k = site_key(*m, bcis);
    if (!k)
        return -1;
    f->sites[f->nsites++] = k;
    return 0;
}

/* ---- the profile -------------------------------------------------------- */

/* The name of type @p at of a signature: "?ID" for an id without a type,
 * "?" past the signature's end (a lenient read keeps short ones). */
static const char *type_name(const iprof_model *model, const int64_t *sig, size_t sig_len,
                             size_t at, char *buf, size_t size)
{
    if (at >= sig_len)
        return "?";
    int64_t id = sig[at];
    const iprof_type *t = iprof_model_type_by_id(model, id);
    if (t)
        return iprof_type_name(t, NULL);
    snprintf(buf, size, "?%lld", (long long)id);
    return buf;
}

/* The profile's methods into the table, each with its coverage. */
static int add_profile(fit *f, const iprof_model *model)
{
    f->of_prof = malloc((f->cov.n ? f->cov.n : 1) * sizeof *f->of_prof);
    if (!f->of_prof)
        return -1;
    for (size_t i = 0; i < f->cov.n; i++) {
        const cov_method *cm = &f->cov.m[i];
        size_t sig_len;
        const int64_t *sig = iprof_method_signature(cm->x, &sig_len);
        char b0[24], b1[24], bp[24];
        sbuf params = {0};
        sb_str(&params, "");
        for (size_t k = 2; k < sig_len; k++) {
            if (k > 2)
                sb_str(&params, ",");
            key_type_name(&params, type_name(model, sig, sig_len, k, bp, sizeof bp));
        }
        char *p = sb_take(&params);
        size_t at = p ? add_method(f, type_name(model, sig, sig_len, 0, b0, sizeof b0),
                                   iprof_method_name(cm->x, NULL), p,
                                   type_name(model, sig, sig_len, 1, b1, sizeof b1))
                      : (size_t)-1;
        free(p);
        if (at == (size_t)-1)
            return -1;
        fit_method *m = &f->m[at];
        if (!m->prof || (cm->ran && !m->ran))
            m->prof = cm;
        m->ran |= cm->ran;
        f->of_prof[i] = at;
    }
    return 0;
}

/* Relevance: the entries whose context's methods are all reachable. */
static void count_relevant(fit *f, const iprof_model *model)
{
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        size_t n = iprof_model_entry_count(model, k);
        for (size_t i = 0; i < n; i++) {
            const iprof_entry *e = iprof_model_entry_at(model, k, i);
            int keep = 1;
            for (const iprof_context *c = iprof_entry_context(e); c && keep;
                 c = iprof_context_caller(c)) {
                const cov_method *m = cov_find(&f->cov, iprof_context_method_id(c));
                keep = m && f->m[f->of_prof[m->order]].reachable;
            }
            f->entries++;
            f->relevant += keep != 0;
        }
    }
}

/* The sites the profile has receiver types for: each virtual invoke
 * entry "m0:b0<m1:b1<...<mk:bk" stands for the sites "mj:b0,...,bj" (bci
 * b0 of a method inlined ... at bci bj of mj, the method compiled). */
static int profiled_sites(fit *f, const iprof_model *model, str_map *set)
{
    size_t n = iprof_model_entry_count(model, IPROF_KIND_VIRTUAL_INVOKE);
    for (size_t i = 0; i < n; i++) {
        const iprof_entry *e = iprof_model_entry_at(model, IPROF_KIND_VIRTUAL_INVOKE, i);
        sbuf bcis = {0};
        for (const iprof_context *c = iprof_entry_context(e); c; c = iprof_context_caller(c)) {
            char num[24];
            snprintf(num, sizeof num, "%s%lld", bcis.len ? "," : "",
                     (long long)iprof_context_bci(c));
            sb_str(&bcis, num);
            const cov_method *m = cov_find(&f->cov, iprof_context_method_id(c));
            char *k = m && !bcis.oom ? site_key(f->of_prof[m->order], bcis.s) : NULL;
            int rc = k ? str_map_put(set, k, 0) : 0;
            free(k);
            if ((m && !k) || rc != 0) {
                free(bcis.s);
                return -1;
            }
        }
        free(bcis.s);
    }
    return 0;
}

/* Sites of the call tree the profile has receiver types for. */
static int count_sites(fit *f, const iprof_model *model)
{
    str_map set = {0};
    if (profiled_sites(f, model, &set) != 0) {
        str_map_free(&set);
        return -1;
    }
    for (size_t i = 0; i < f->nsites; i++)
        f->sites_profiled += str_map_get(&set, f->sites[i]) != NULL;
    str_map_free(&set);
    return 0;
}

static void count(fit *f)
{
    for (size_t i = 0; i < f->n; i++) {
        const fit_method *m = &f->m[i];
        f->reachable += m->reachable != 0;
        f->reachable_ran += m->reachable && m->ran;
        f->profiled += m->ran != 0;
        f->unreachable += m->ran && !m->reachable;
    }
}

/* ---- lists -------------------------------------------------------------- */

static int cmp_key(const void *a, const void *b)
{
    return strcmp((*(fit_method *const *)a)->key, (*(fit_method *const *)b)->key);
}

/* Hottest first: calls, then samples, then key. */
static int cmp_hot(const void *a, const void *b)
{
    const fit_method *x = *(fit_method *const *)a, *y = *(fit_method *const *)b;
    int c = total_cmp(&y->prof->calls, &x->prof->calls);
    if (!c)
        c = total_cmp(&y->prof->samples, &x->prof->samples);
    return c ? c : strcmp(x->key, y->key);
}

static int cmp_class(const void *a, const void *b)
{
    const fit_method *x = *(fit_method *const *)a, *y = *(fit_method *const *)b;
    int c = strcmp(x->cls, y->cls);
    return c ? c : x->order < y->order ? -1 : x->order > y->order;
}

enum { LIST_NOT_RUN, LIST_UNREACHABLE, LIST_REACHABLE };

/* The methods of a list, sorted; NULL when out of memory. */
static fit_method **list(const fit *f, int which, size_t *count)
{
    fit_method **v = malloc((f->n ? f->n : 1) * sizeof *v);
    size_t n = 0;
    if (!v)
        return NULL;
    for (size_t i = 0; i < f->n; i++) {
        fit_method *m = &f->m[i];
        if (which == LIST_NOT_RUN ? m->reachable && !m->ran
            : which == LIST_UNREACHABLE ? m->ran && !m->reachable
                                        : m->reachable)
            v[n++] = m;
    }
    if (n)
        qsort(v, n, sizeof *v,
              which == LIST_NOT_RUN ? cmp_key : which == LIST_UNREACHABLE ? cmp_hot : cmp_class);
    *count = n;
    return v;
}

static double pct(uint64_t part, uint64_t all)
{
    /* 0 without data, as GraalVM's getProfileRelevance/Applicability */
    return all ? 100.0 * (double)part / (double)all : 0.0;
}

/* ---- output ------------------------------------------------------------- */

typedef struct fit_args {
    const char *profile, *calltree, *out, *lcov;
    size_t top;
    int json, strict;
} fit_args;

static void print_capped(FILE *out, fit_method **v, size_t n, size_t top, int hits)
{
    size_t shown = top && top < n ? top : n;
    for (size_t i = 0; i < shown; i++) {
        char b[TOTAL_CHARS];
        if (hits)
            fprintf(out, "  %12s  %s\n", cov_hits(v[i]->prof, b), v[i]->key);
        else
            fprintf(out, "  %s\n", v[i]->key);
    }
    if (shown < n)
        fprintf(out, "  ... and %zu more (--top 0 lists all)\n", n - shown);
}

static int print_text(FILE *out, const fit *f, size_t top)
{
    size_t nr, nu;
    fit_method **not_run = list(f, LIST_NOT_RUN, &nr), **gone = list(f, LIST_UNREACHABLE, &nu);
    if (!not_run || !gone) {
        free(not_run);
        free(gone);
        return -1;
    }
    fprintf(out, "%s against %s\n", f->profile, f->calltree);
    fprintf(out, "reachable methods:       %zu, %zu run (%.2f%%), %zu never run\n", f->reachable,
            f->reachable_ran, pct(f->reachable_ran, f->reachable), nr);
    fprintf(out, "profiled methods:        %zu, %zu reachable, %zu no longer reachable\n",
            f->profiled, f->profiled - f->unreachable, f->unreachable);
    fprintf(out, "profile relevance:       %.2f%% (%llu of %llu entries on reachable methods)\n",
            pct(f->relevant, f->entries), (unsigned long long)f->relevant,
            (unsigned long long)f->entries);
    fprintf(out, "profile applicability:   %.2f%% (%zu of %zu reachable methods have data)\n",
            pct(f->reachable_ran, f->reachable), f->reachable_ran, f->reachable);
    if (f->have_sites)
        fprintf(out, "virtual call sites:      %.2f%% (%zu of %zu have receiver types)\n",
                pct(f->sites_profiled, f->nsites), f->sites_profiled, f->nsites);
    fprintf(out, "\nreachable but never run (%zu):\n", nr);
    print_capped(out, not_run, nr, top, 0);
    fprintf(out, "\nprofiled but no longer reachable (%zu), by call count, then samples:\n", nu);
    print_capped(out, gone, nu, top, 1);
    free(not_run);
    free(gone);
    return 0;
}

static int print_json(FILE *out, const fit *f)
{
    size_t nr, nu;
    fit_method **not_run = list(f, LIST_NOT_RUN, &nr), **gone = list(f, LIST_UNREACHABLE, &nu);
    if (!not_run || !gone) {
        free(not_run);
        free(gone);
        return -1;
    }
    fputs("{\"profile\": ", out);
    json_string(out, f->profile);
    fputs(", \"callTree\": ", out);
    json_string(out, f->calltree);
    fputs(", \"callTreeInvokes\": ", out);
    if (f->invokes)
        json_string(out, f->invokes);
    else
        fputs("null", out);
    fprintf(out, ", \"hasCallCounts\": %s,\n \"reachable\": %zu, \"reachableRun\": %zu, "
            "\"reachableNotRun\": %zu, \"profiled\": %zu, \"profiledReachable\": %zu, "
            "\"profiledUnreachable\": %zu,\n \"entries\": %llu, \"relevantEntries\": %llu, "
            "\"relevance\": ", f->cov.call_counts ? "true" : "false", f->reachable,
            f->reachable_ran, nr, f->profiled, f->profiled - f->unreachable, f->unreachable,
            (unsigned long long)f->entries, (unsigned long long)f->relevant);
    json_double(out, pct(f->relevant, f->entries));
    fputs(", \"applicability\": ", out);
    json_double(out, pct(f->reachable_ran, f->reachable));
    if (f->have_sites) {
        fprintf(out, ",\n \"virtualCallSites\": %zu, \"profiledVirtualCallSites\": %zu, "
                "\"virtualCallApplicability\": ", f->nsites, f->sites_profiled);
        json_double(out, pct(f->sites_profiled, f->nsites));
    } else {
        fputs(",\n \"virtualCallSites\": null, \"profiledVirtualCallSites\": null, "
              "\"virtualCallApplicability\": null", out);
    }
    fputs(",\n \"notRun\": [", out);
    for (size_t i = 0; i < nr; i++) {
        fputs(i ? ",\n  " : "\n  ", out);
        json_string(out, not_run[i]->key);
    }
    fputs("],\n \"unreachable\": [", out);
    for (size_t i = 0; i < nu; i++) {
        char b1[TOTAL_CHARS], b2[TOTAL_CHARS], b3[TOTAL_CHARS];
        fputs(i ? ",\n  {\"method\": " : "\n  {\"method\": ", out);
        json_string(out, gone[i]->key);
        fprintf(out, ", \"hits\": %s, \"calls\": %s, \"samples\": %s}",
                cov_hits(gone[i]->prof, b1), total_format(&gone[i]->prof->calls, b2),
                total_format(&gone[i]->prof->samples, b3));
    }
    fputs("]}\n", out);
    free(not_run);
    free(gone);
    return 0;
}

/* Every reachable method by class; those never run with 0 hits. */
static int print_lcov(FILE *out, const fit *f)
{
    size_t n = 0;
    fit_method **v = list(f, LIST_REACHABLE, &n);
    lcov_fn *fns = malloc((n ? n : 1) * sizeof *fns);
    if (!v || !fns) {
        free(v);
        free(fns);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        fns[i].cls = v[i]->cls;
        fns[i].name = v[i]->name;
        /* The key is "Type.name(params):Return", cls and name as written. */
        fns[i].ret = v[i]->key + strlen(v[i]->cls) + 1 + strlen(v[i]->name) + 1;
        fns[i].line = i && strcmp(v[i - 1]->cls, v[i]->cls) == 0 ? fns[i - 1].line + 1 : 1;
        fns[i].ran = v[i]->ran;
        const char *h = v[i]->ran ? cov_hits(v[i]->prof, fns[i].hits) : "0";
        if (h != fns[i].hits)
            snprintf(fns[i].hits, sizeof fns[i].hits, "%s", h);
    }
    int rc = lcov_write(out, fns, n);
    free(fns);
    free(v);
    return rc;
}

enum { WRITE_LCOV, WRITE_TEXT, WRITE_JSON };

static int write_to(const char *path, const fit *f, int which, size_t top)
{
    outfile of;
    if (outfile_open(&of, CMD, path) != 0)
        return -1;
    int rc = which == WRITE_LCOV ? print_lcov(of.fp, f)
             : which == WRITE_TEXT ? print_text(of.fp, f, top) : print_json(of.fp, f);
    if (rc != 0) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        outfile_abort(&of);
        return -1;
    }
    return outfile_commit(&of, CMD);
}

/* ---- the command -------------------------------------------------------- */

static int parse_top(const char *s, size_t *top)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *end || *s == '-' || errno || v > SIZE_MAX)
        return usage_error(CMD, "--top: '%s' is not a count", s);
    *top = (size_t)v;
    return TOOL_EXIT_OK;
}

static int parse(fit_args *a, int argc, char **argv, int *done)
{
    tool_args t;
    int opt;
    *done = 1;
    a->top = TOP_DEFAULT;
    args_init(&t, CMD, argc, argv);
    while ((opt = args_next(&t, fit_opts)) != ARGS_END) {
        switch (opt) {
        case ARGS_ERROR: return TOOL_EXIT_USAGE;
        case TOOL_OPT_HELP: return command_help(&fit_command);
        case TOOL_OPT_VERSION: return print_version();
        case OPT_JSON: a->json = 1; break;
        case OPT_STRICT: a->strict = 1; break;
        case OPT_OUT: a->out = t.value; break;
        case OPT_LCOV: a->lcov = t.value; break;
        case OPT_TOP:
            if (parse_top(t.value, &a->top) != TOOL_EXIT_OK)
                return TOOL_EXIT_USAGE;
            break;
        default:
            if (a->calltree)
                return usage_error(CMD, "too many operands: '%s'", t.value);
            if (a->profile)
                a->calltree = t.value;
            else
                a->profile = t.value;
            break;
        }
    }
    if (!a->calltree)
        return usage_error(CMD, a->profile ? "no CALLTREE given" : "no PROFILE and CALLTREE given");
    if (strcmp(a->calltree, "-") == 0)
        return usage_error(CMD, "CALLTREE cannot be standard input (PROFILE can)");
    if (a->lcov && a->out && outfile_is_stdout(a->lcov) && outfile_is_stdout(a->out))
        return usage_error(CMD, "--lcov - and -o - both want standard output");
    /* One file would get the report and lose the tracefile. */
    if (a->lcov && a->out && outfile_same(a->lcov, a->out))
        return usage_error(CMD, "--lcov %s and -o %s name the same file", a->lcov, a->out);
    *done = 0;
    return TOOL_EXIT_OK;
}


static void fit_free(fit *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->m[i].key);
        free(f->m[i].cls);
        free(f->m[i].name);
    }
    free(f->m);
    free(f->of_prof);
    for (size_t i = 0; i < f->nsites; i++)
        free(f->sites[i]);
    free(f->sites);
    str_map_free(&f->ids);
    str_map_free(&f->keys);
    cov_free(&f->cov);
}

static int analyse(fit *f, const iprof_model *model, progress_bar *bar)
{
    f->cov.file = f->profile;
    if (cov_compute(&f->cov, model, bar, CMD ": counting") != 0 || add_profile(f, model) != 0) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        return TOOL_EXIT_USAGE;
    }
    if (count_sites(f, model) != 0) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        return TOOL_EXIT_USAGE;
    }
    count_relevant(f, model);
    count(f);
    f->cov.call_counts = iprof_model_entry_count(model, IPROF_KIND_CALL_COUNT) > 0;
    if (!f->cov.call_counts)
        report_plain(CMD, f->profile, "warning: no call counts (sampled only?): methods "
                                      "that ran but were not sampled count as never run");
    return TOOL_EXIT_OK;
}

int cmd_fit(int argc, char **argv)
{
    fit_args a;
    memset(&a, 0, sizeof a);
    int done, code = parse(&a, argc, argv, &done);
    if (done)
        return code;
    if (outfile_check_report(CMD, a.out) != 0 || outfile_check_report(CMD, a.lcov) != 0)
        return TOOL_EXIT_USAGE;
    fit f;
    memset(&f, 0, sizeof f);
    f.profile = display_name(a.profile);
    char *path = calltree_path(a.calltree);
    if (!path) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        return TOOL_EXIT_USAGE;
    }
    f.calltree = path;
    char *invokes = calltree_invokes_path(path);
    f.have_sites = invokes != NULL;
    f.invokes = invokes;
    calltree_in in = {CMD, path, invokes, add_reachable, add_site, &f};
    code = calltree_read(&in);
    iprof_reader *reader = code == TOOL_EXIT_OK ? open_reader(CMD, a.strict) : NULL;
    if (code == TOOL_EXIT_OK && !reader)
        code = TOOL_EXIT_USAGE;
    iprof_model *model = NULL;
    progress_bar bar = {0};
    if (code == TOOL_EXIT_OK)
        code = progress_load_model(&bar, CMD ": reading", &model, reader, a.profile);
    if (code == TOOL_EXIT_OK)
        code = analyse(&f, model, &bar);
    progress_bar_end(&bar);
    if (code == TOOL_EXIT_OK && a.lcov && write_to(a.lcov, &f, WRITE_LCOV, a.top) != 0)
        code = TOOL_EXIT_USAGE;
    if (code == TOOL_EXIT_OK && !(a.lcov && outfile_shares_stdout(a.lcov) && !a.out) &&
        write_to(a.out, &f, a.json ? WRITE_JSON : WRITE_TEXT, a.top) != 0)
        code = TOOL_EXIT_USAGE;
    fit_free(&f);
    iprof_model_free(model);
    iprof_reader_free(reader);
    free(invokes);
    free(path);
    return code;
}
