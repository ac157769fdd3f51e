/* iprof show [--json] [--strict] [-o OUT] FILE METHOD
 *
 * What the compiler will be told about METHOD (every overload of
 * Type.name): per context whose callee frame is the method, the call
 * count, the samples, the successor probabilities of its branches and the
 * receiver-type and instanceof shares, as GraalVM derives them
 * (include/iprof/analysis.h). */
#include <stdlib.h>
#include <string.h>

#include <iprof/analysis.h>

#include "outfile.h"
#include "progress.h"
#include "stacks.h"
#include "tool.h"

#define CMD "iprof show"

enum { OPT_OUT = 1, OPT_JSON, OPT_STRICT };

static const tool_opt show_opts[] = {
    {"json", 0, NULL, OPT_JSON, "print one JSON object instead of text", NULL},
    {"strict", 0, NULL, OPT_STRICT, "read FILE in strict mode", NULL},
    {"output", 'o', "OUT", OPT_OUT,
     "write to OUT (atomically for a file); '-' or none:\n"
     "standard output", NULL},
    TOOL_OPT_END,
};

const tool_command show_command = {
    .name = "show",
    .synopsis = "[--json] [--strict] [-o OUT] FILE METHOD",
    .brief = "[--json] FILE METHOD",
    .summary = "what the compiler is told about a method:\n"
               "branch probabilities, receiver type shares",
    .about = "What the compiler is told about METHOD (Type.name, every overload): for\n"
             "each context whose callee is the method, its call count and samples, the\n"
             "probability GraalVM gives each successor of its branches, and the shares\n"
             "of receiver types and instanceof types, as GraalVM derives them from the\n"
             "counts.",
    .opts = show_opts,
    .notes = "Exit status: 0 on success, 1 if FILE is invalid or has no such method, 2 on\n"
             "usage or I/O errors.",
    .run = cmd_show,
};
/* The kinds the compiler reads at a position of the method itself (monitor
 * entries have no method), in the order shown. */
static const int shown_kinds[] = {IPROF_KIND_CALL_COUNT, IPROF_KIND_SAMPLING,
                                  IPROF_KIND_CONDITIONAL, IPROF_KIND_VIRTUAL_INVOKE,
                                  IPROF_KIND_INSTANCEOF};
#define NKINDS (sizeof shown_kinds / sizeof shown_kinds[0])

typedef struct show {
    const iprof_model *model;
    FILE *out;
    int json;
    int64_t *ids;   /* scratch for bcis and type ids */
    double *probs;  /* scratch for probabilities and shares */
    size_t cap;
} show;

static int grow(show *s, size_t n)
{
    if (n <= s->cap)
        return 0;
    int64_t *ids = realloc(s->ids, n * sizeof *ids);
    if (ids)
        s->ids = ids;
    double *probs = realloc(s->probs, n * sizeof *probs);
    if (probs)
        s->probs = probs;
    if (!ids || !probs)
        return -1;
    s->cap = n;
    return 0;
}

static const char *type_name(const iprof_model *m, int64_t id, char *buf, size_t size)
{
    const iprof_type *t = iprof_model_type_by_id(m, id);
    if (t)
        return iprof_type_name(t, NULL);
    snprintf(buf, size, "?%lld", (long long)id);
    return buf;
}

/* One entry's derived numbers: a text line, or a JSON object in the
 * context's "entries" (a context may hold several of one kind). */
static void entry_open(show *s, int kind, int first)
{
    if (s->json)
        fprintf(s->out, "%s{\"kind\": \"%s\"", first ? "" : ", ", iprof_kind_name(kind));
}

static int show_counts(show *s, int kind, const iprof_entry *e)
{
    size_t len;
    const int64_t *r = iprof_entry_records(e, &len);
    long long count = len ? (long long)r[0] : 0;
    if (s->json)
        fprintf(s->out, ", \"count\": %lld}", count);
    else
        fprintf(s->out, "    %-15s %lld\n", kind == IPROF_KIND_CALL_COUNT ? "call count" : "samples",
                count);
    return 0;
}

static int show_branches(show *s, const iprof_entry *e)
{
    size_t len, n = 0;
    iprof_entry_records(e, &len);
    if (grow(s, len / 3 + 1))
        return -1;
    int rc = iprof_entry_branch_probabilities(e, s->ids, s->probs, s->cap, &n);
    if (s->json)
        fputs(rc ? ", \"branches\": null}" : ", \"branches\": [", s->out);
    else
        fprintf(s->out, "    %-15s %s", "branches", rc ? "no counts: GraalVM applies none\n" : "");
    for (size_t i = 0; !rc && i < n; i++) {
        if (s->json)
        {
            fprintf(s->out, "%s{\"bci\": %lld, \"probability\": ", i ? ", " : "",
                    (long long)s->ids[i]);
            json_double(s->out, s->probs[i]);
            fputc('}', s->out);
        }
        else
            fprintf(s->out, "%sbci %lld: %.9g", i ? ", " : "", (long long)s->ids[i], s->probs[i]);
    }
    if (!rc)
        fputs(s->json ? "]}" : "\n", s->out);
    return 0;
}

static int show_types(show *s, int kind, const iprof_entry *e)
{
    size_t len, n = 0;
    iprof_entry_records(e, &len);
    if (grow(s, len / 2 + 1))
        return -1;
    double other = 0;
    int rc = iprof_entry_type_shares(e, s->ids, s->probs, s->cap, &n, &other);
    if (s->json)
        fputs(", \"types\": [", s->out);
    else
        fprintf(s->out, "    %-15s ", kind == IPROF_KIND_INSTANCEOF ? "instanceof" : "receiver types");
    char buf[32];
    for (size_t i = 0; !rc && i < n; i++) {
        const char *name = type_name(s->model, s->ids[i], buf, sizeof buf);
        if (s->json) {
            fprintf(s->out, "%s{\"id\": %lld, \"name\": ", i ? ", " : "", (long long)s->ids[i]);
            json_string(s->out, name);
            fputs(", \"share\": ", s->out);
            json_double(s->out, s->probs[i]);
            fputc('}', s->out);
        } else {
            fputs(i ? ", " : "", s->out);
            put_text(s->out, name);
            fprintf(s->out, " %.9g", s->probs[i]);
        }
    }
    if (s->json)
    {
        fputs("], \"notRecorded\": ", s->out);
        json_double(s->out, other);
        fputc('}', s->out);
    }
    else
        fprintf(s->out, "%snot recorded %.9g\n", n ? ", " : "", other);
    return 0;
}

static int show_entry(show *s, int kind, const iprof_entry *e, int first)
{
    entry_open(s, kind, first);
    switch (kind) {
    case IPROF_KIND_CALL_COUNT:
    case IPROF_KIND_SAMPLING: return show_counts(s, kind, e);
    case IPROF_KIND_CONDITIONAL: return show_branches(s, e);
    default: return show_types(s, kind, e);
    }
}

/* An entry of the method, with where it goes in the output: its
 * context's rank (first seen, kind and file order), its kind's rank, its
 * index. */
typedef struct item {
    const iprof_entry *entry;
    size_t ctx_rank, kind_rank, index;
} item;

static int cmp_item(const void *pa, const void *pb)
{
    const item *a = pa, *b = pb;
    if (a->ctx_rank != b->ctx_rank)
        return a->ctx_rank < b->ctx_rank ? -1 : 1;
    if (a->kind_rank != b->kind_rank)
        return a->kind_rank < b->kind_rank ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* The entries whose callee is method id, grouped by context (contexts are
 * interned: equal contexts are equal pointers). */
static int items_of(const iprof_model *m, int64_t id, item **out, size_t *count)
{
    size_t n = 0, cap = 0, nctx = 0;
    item *list = NULL;
    for (size_t k = 0; k < NKINDS; k++) {
        size_t total = iprof_model_entry_count(m, shown_kinds[k]);
        for (size_t i = 0; i < total; i++) {
            const iprof_entry *e = iprof_model_entry_at(m, shown_kinds[k], i);
            const iprof_context *c = iprof_entry_context(e);
            if (iprof_context_method_id(c) != id)
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                item *nl = realloc(list, cap * sizeof *nl);
                if (!nl) {
                    free(list);
                    return -1;
                }
                list = nl;
            }
            size_t same = 0;
            while (same < n && iprof_entry_context(list[same].entry) != c)
                same++;
            size_t rank = same < n ? list[same].ctx_rank : nctx++;
            list[n] = (item){e, rank, k, i};
            n++;
        }
    }
    if (n)
        qsort(list, n, sizeof *list, cmp_item);
    *out = list;
    *count = n;
    return 0;
}

static void context_header(show *s, const iprof_context *ctx, int first)
{
    char frames[4096], describe[4096];
    iprof_context_format(ctx, frames, sizeof frames);
    size_t len = iprof_model_context_describe(s->model, ctx, describe, sizeof describe);
    no_nul(describe, len < sizeof describe ? len : sizeof describe - 1);
    if (s->json) {
        fputs(first ? "\n      {\"context\": " : "]},\n      {\"context\": ", s->out);
        json_string(s->out, frames);
        fputs(", \"frames\": ", s->out);
        json_string(s->out, describe);
        fputs(", \"entries\": [", s->out);
    } else {
        fputs("  ", s->out);
        put_text(s->out, describe);
        fprintf(s->out, "  (%s)\n", frames);
    }
}

static int show_method(show *s, const iprof_method *x, int first_method)
{
    char name[4096];
    size_t len = iprof_model_method_describe(s->model, x, name, sizeof name);
    no_nul(name, len < sizeof name ? len : sizeof name - 1);
    item *items;
    size_t n;
    if (items_of(s->model, iprof_method_id(x), &items, &n))
        return -1;
    size_t nctx = n ? items[n - 1].ctx_rank + 1 : 0;
    if (s->json) {
        fprintf(s->out, "%s\n    {\"id\": %lld, \"name\": ", first_method ? "" : ",",
                (long long)iprof_method_id(x));
        json_string(s->out, name);
        fputs(", \"contexts\": [", s->out);
    } else {
        fputs(first_method ? "" : "\n", s->out);
        put_text(s->out, name);
        fprintf(s->out, " (id %lld): %zu context%s\n", (long long)iprof_method_id(x), nctx,
                nctx == 1 ? "" : "s");
    }
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        int new_ctx = i == 0 || items[i].ctx_rank != items[i - 1].ctx_rank;
        if (new_ctx)
            context_header(s, iprof_entry_context(items[i].entry), i == 0);
        rc = show_entry(s, shown_kinds[items[i].kind_rank], items[i].entry, new_ctx);
    }
    if (s->json)
        fputs(n ? "]}\n    ]}" : "]}", s->out);
    free(items);
    return rc;
}

/* Whether "Type.name" (len bytes) is @p want, all of it. A NUL, which no
 * argument can hold, is matched by the '?' reports show for it: "a?b" is
 * the method "a\u0000b", and "a" is not. */
static int same_name(const char *name, const char *want, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (name[i] != want[i] && !(name[i] == '\0' && want[i] == '?'))
            return 0;
    return 1;
}

/* Whether method x is "Type.name" (what iprof_model_method_describe says). */
static int matches(const iprof_model *m, const iprof_method *x, const char *want, size_t want_len)
{
    char name[4096];
    size_t len = iprof_model_method_describe(m, x, name, sizeof name);
    if (len != want_len)
        return 0;
    if (len < sizeof name)
        return same_name(name, want, len);
    char *big = malloc(len + 1); /* a longer name than the stack buffer takes */
    int same = big && iprof_model_method_describe(m, x, big, len + 1) == len &&
               same_name(big, want, len);
    free(big);
    return same;
}

/* 1 when methods were shown, 0 when none is named so (nothing printed),
 * -1 when out of memory. */
static int show_all(show *s, const char *file, const char *method)
{
    size_t count = iprof_model_method_count(s->model), found = 0, len = strlen(method);
    for (size_t i = 0; i < count && !found; i++)
        found = (size_t)matches(s->model, iprof_model_method_at(s->model, i), method, len);
    if (!found)
        return 0;
    found = 0;
    if (s->json) {
        fputs("{\n  \"file\": ", s->out);
        json_string(s->out, display_name(file));
        fputs(",\n  \"methods\": [", s->out);
    }
    for (size_t i = 0; i < count; i++) {
        const iprof_method *x = iprof_model_method_at(s->model, i);
        if (matches(s->model, x, method, len) && show_method(s, x, found++ == 0))
            return -1;
    }
    if (s->json)
        fputs(found ? "\n  ]\n}\n" : "]\n}\n", s->out);
    return (int)(found > 0);
}

int cmd_show(int argc, char **argv)
{
    tool_args a;
    const char *file = NULL, *method = NULL, *out = NULL;
    int json = 0, strict = 0, opt;
    args_init(&a, CMD, argc, argv);
    while ((opt = args_next(&a, show_opts)) != ARGS_END) {
        switch (opt) {
        case ARGS_ERROR: return TOOL_EXIT_USAGE;
        case TOOL_OPT_HELP: return command_help(&show_command);
        case TOOL_OPT_VERSION: return print_version();
        case OPT_OUT: out = a.value; break;
        case OPT_JSON: json = 1; break;
        case OPT_STRICT: strict = 1; break;
        default:
            if (method)
                return usage_error(CMD, "give one FILE and one METHOD");
            *(file ? &method : &file) = a.value;
        }
    }
    if (!method)
        return usage_error(CMD, file ? "no METHOD given" : "no FILE and METHOD given");
    if (outfile_check_report(CMD, out) != 0)
        return TOOL_EXIT_USAGE;
    iprof_reader *reader = open_reader(CMD, strict);
    iprof_model *model = NULL;
    progress_bar bar = {0};
    int code = reader ? progress_load_model(&bar, CMD ": reading", &model, reader, file)
                      : TOOL_EXIT_USAGE;
    progress_bar_end(&bar);
    outfile o;
    if (code == TOOL_EXIT_OK && outfile_open(&o, CMD, out) != 0)
        code = TOOL_EXIT_USAGE;
    if (code == TOOL_EXIT_OK) {
        show s = {model, o.fp, json, NULL, NULL, 0};
        int rc = show_all(&s, file, method);
        free(s.ids);
        free(s.probs);
        if (rc < 0) {
            outfile_abort(&o);
            fprintf(stderr, "%s: out of memory\n", CMD);
            code = TOOL_EXIT_USAGE;
        } else if (rc == 0) {
            outfile_abort(&o);
            report_plain(CMD, display_name(file), "has no method %s", method);
            code = TOOL_EXIT_INVALID;
        } else if (outfile_commit(&o, CMD) != 0) {
            code = TOOL_EXIT_USAGE;
        }
    }
    iprof_model_free(model);
    iprof_reader_free(reader);
    return code;
}
