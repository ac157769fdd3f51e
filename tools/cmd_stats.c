/* iprof stats [--json] [--strict] FILE
 *
 * Loads the model and prints: version, types, methods, diagnostics of the
 * load, distinct contexts used by entries (contexts are interned, so a set
 * of context pointers counts them) and their largest depth, entries and
 * total count per kind, and the STATS_TOP hottest methods by call count
 * (callCount records summed per callee, frame 0 of the ctx). */
#include <stdlib.h>
#include <string.h>

#include "progress.h"
#include "tool.h"

#define CMD "iprof stats"

enum { OPT_JSON = 1, OPT_STRICT };

static const tool_opt stats_opts[] = {
    {"json", 0, NULL, OPT_JSON, "print one JSON object (keys in docs/commands.md)", NULL},
    {"strict", 0, NULL, OPT_STRICT, "load in strict mode (fail on the first rule violation)",
     NULL},
    TOOL_OPT_END,
};

const tool_command stats_command = {
    .name = "stats",
    .synopsis = "[--json] [--strict] FILE",
    .brief = "[--json] FILE",
    .summary = "counts, totals, contexts, hottest methods",
    .about = "Summarise an iprof file: version, types, methods, distinct contexts and\n"
             "their largest depth, entries and total count per profile kind, and the\n"
             "10 hottest methods by call count.",
    .opts = stats_opts,
    .notes = "FILE '-' is standard input. Problems are reported like 'iprof validate'\n"
             "does. Exit status: 0 on success, 1 if FILE is invalid, 2 on usage or\n"
             "I/O errors.",
    .run = cmd_stats,
};
/* Slot of the count in each group of records, and the group size. */
static void count_layout(int kind, size_t *group, size_t *slot)
{
    *group = kind == IPROF_KIND_CONDITIONAL ? 3
             : kind == IPROF_KIND_CALL_COUNT || kind == IPROF_KIND_SAMPLING ? 1 : 2;
    *slot = *group - 1;
}

typedef struct stats_work {
    stats *st;
    ptr_set contexts;
    id_map calls;
    int kind;
    int oom;
} stats_work;

/* Non-zero when out of memory. */
static int visit_entry(stats_work *w, const iprof_entry *e)
{
    size_t n, group, slot;
    const int64_t *rec = iprof_entry_records(e, &n);
    const iprof_context *ctx = iprof_entry_context(e);
    count_layout(w->kind, &group, &slot);
    for (size_t i = slot; i < n; i += group)
        total_add(&w->st->totals[w->kind], rec[i]);
    size_t depth = iprof_context_depth(ctx);
    if (depth > w->st->max_depth)
        w->st->max_depth = depth;
    if (ptr_set_add(&w->contexts, ctx))
        return w->oom = 1;
    if (w->kind == IPROF_KIND_CALL_COUNT)
        for (size_t i = 0; i < n; i++)
            if (id_map_add(&w->calls, iprof_context_method_id(ctx), rec[i]))
                return w->oom = 1;
    return 0;
}

/* Hottest first; equal totals by ascending id. */
static int hotter(const void *pa, const void *pb)
{
    const id_total *a = pa, *b = pb;
    int c = total_cmp(&b->total, &a->total);
    return c ? c : (a->id > b->id) - (a->id < b->id);
}

/* Keep the STATS_TOP hottest callees, with names. Sorts the map's items
 * in place: the map is only freed after this. */
static int pick_top(stats *st, const iprof_model *model, id_map *calls)
{
    size_t n = calls->index.count;
    if (n > 1)
        qsort(calls->items, n, sizeof *calls->items, hotter);
    for (size_t i = 0; i < n && i < STATS_TOP; i++) {
        stats_method *m = &st->top[st->top_count];
        m->id = calls->items[i].id;
        m->calls = calls->items[i].total;
        if (!(m->name = method_label(model, m->id)))
            return -1;
        st->top_count++;
    }
    return 0;
}

static int compute(stats *st, const iprof_model *model, const iprof_reader *reader)
{
    stats_work w = {st, {NULL, 0, {NULL, 0, 0}}, {NULL, 0, {NULL, 0, 0}}, 0, 0};
    st->version = iprof_model_version(model);
    st->model = model;
    st->types = iprof_model_type_count(model);
    st->methods = iprof_model_method_count(model);
    size_t errors, warnings;
    count_diagnostics(reader, &errors, &warnings);
    st->diagnostics = errors + warnings;
    for (w.kind = 0; w.kind < IPROF_KIND_COUNT && !w.oom; w.kind++) {
        st->entries[w.kind] = iprof_model_entry_count(model, w.kind);
        for (size_t i = 0; i < st->entries[w.kind]; i++)
            if (visit_entry(&w, iprof_model_entry_at(model, w.kind, i)))
                break;
    }
    st->contexts = w.contexts.index.count;
    int rc = w.oom ? -1 : pick_top(st, model, &w.calls);
    ptr_set_free(&w.contexts);
    id_map_free(&w.calls);
    return rc;
}

static int run(const char *file, int json, int strict)
{
    iprof_reader *reader = open_reader(CMD, strict);
    iprof_model *model = NULL;
    stats st;
    memset(&st, 0, sizeof st);
    st.file = display_name(file);
    progress_bar bar = {0};
    int code = reader ? progress_load_model(&bar, CMD ": reading", &model, reader, file)
                      : TOOL_EXIT_USAGE;
    progress_bar_end(&bar);
    if (code == TOOL_EXIT_OK && compute(&st, model, reader) != 0) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        code = TOOL_EXIT_USAGE;
    }
    if (code == TOOL_EXIT_OK)
        (json ? stats_print_json : stats_print_text)(stdout, &st);
    for (size_t i = 0; i < st.top_count; i++)
        free(st.top[i].name);
    iprof_model_free(model);
    iprof_reader_free(reader);
    return code;
}

int cmd_stats(int argc, char **argv)
{
    tool_args a;
    const char *file = NULL;
    int json = 0, strict = 0, opt;
    args_init(&a, CMD, argc, argv);
    while ((opt = args_next(&a, stats_opts)) != ARGS_END) {
        switch (opt) {
        case ARGS_ERROR: return TOOL_EXIT_USAGE;
        case TOOL_OPT_HELP: return command_help(&stats_command);
        case TOOL_OPT_VERSION: return print_version();
        case OPT_JSON: json = 1; break;
        case OPT_STRICT: strict = 1; break;
        default:
            if (file)
                return usage_error(CMD, "only one FILE is allowed");
            file = a.value;
        }
    }
    if (!file)
        return usage_error(CMD, "no FILE given");
    return run(file, json, strict);
}
