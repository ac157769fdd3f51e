/* iprof stats output: human text and JSON (stable keys, documented in
 * docs/commands.md and docs/api.md). */
#include <string.h>

#include <iprof/edit.h>

#include "tool.h"

void stats_print_text(FILE *out, const stats *st)
{
    char buf[TOTAL_CHARS];
    fprintf(out, "file:        %s\n", st->file);
    fprintf(out, "version:     %s\n", st->version);
    fprintf(out, "types:       %zu\n", st->types);
    fprintf(out, "methods:     %zu\n", st->methods);
    fprintf(out, "contexts:    %zu distinct, max depth %zu\n", st->contexts, st->max_depth);
    fprintf(out, "diagnostics: %zu\n", st->diagnostics);
    fprintf(out, "\n%-22s %10s %21s\n", "profiles", "entries", "total count");
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        fprintf(out, "%-22s %10zu %21s\n", iprof_kind_name(k), st->entries[k],
                total_format(&st->totals[k], buf));
    size_t n = iprof_model_unknown_count(st->model);
    if (n)
        fprintf(out, "\nunknown top-level keys, kept as they are:\n");
    for (size_t i = 0; i < n; i++) {
        const char *key, *json;
        size_t json_len;
        iprof_model_unknown_at(st->model, i, &key, NULL, &json, &json_len);
        fprintf(out, "  %-30s %10zu bytes\n", key, json_len);
    }
    fprintf(out, "\nhottest methods by call count:\n");
    if (st->top_count == 0)
        fprintf(out, "  (none)\n");
    int width = 0;
    for (size_t i = 0; i < st->top_count; i++) {
        int w = (int)strlen(total_format(&st->top[i].calls, buf));
        width = w > width ? w : width;
    }
    for (size_t i = 0; i < st->top_count; i++) {
        fprintf(out, "  %*s  ", width, total_format(&st->top[i].calls, buf));
        put_text(out, st->top[i].name);
        fprintf(out, " (id %lld)\n", (long long)st->top[i].id);
    }
}

static void json_kinds(FILE *out, const char *key, const stats *st, int totals)
{
    char buf[TOTAL_CHARS];
    fprintf(out, "  \"%s\": {\n", key);
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        fprintf(out, "    \"%s\": ", iprof_kind_name(k));
        if (totals)
            fputs(total_format(&st->totals[k], buf), out);
        else
            fprintf(out, "%zu", st->entries[k]);
        fputs(k + 1 < IPROF_KIND_COUNT ? ",\n" : "\n", out);
    }
    fputs("  },\n", out);
}

/* The file's spelling of the instanceof key and its unknown keys. */
static void json_layout(FILE *out, const stats *st)
{
    int spelling = iprof_model_instanceof_key(st->model);
    const char *iof = spelling == IPROF_INSTANCEOF_KEY_LOWER   ? IPROF_INSTANCEOF_KEY_LOWER_NAME
                      : spelling == IPROF_INSTANCEOF_KEY_CAMEL ? IPROF_INSTANCEOF_KEY_CAMEL_NAME
                                                               : NULL;
    fputs("  \"instanceofKey\": ", out);
    if (iof)
        json_string(out, iof);
    else
        fputs("null", out);
    fputs(",\n  \"unknownKeys\": [", out);
    size_t n = iprof_model_unknown_count(st->model);
    for (size_t i = 0; i < n; i++) {
        const char *key, *json;
        size_t json_len;
        iprof_model_unknown_at(st->model, i, &key, NULL, &json, &json_len);
        fputs(i ? ",\n    {\"key\": " : "\n    {\"key\": ", out);
        json_string(out, key);
        fprintf(out, ", \"bytes\": %zu}", json_len);
    }
    fputs(n ? "\n  ],\n" : "],\n", out);
}

static void json_top(FILE *out, const stats *st)
{
    char buf[TOTAL_CHARS];
    fputs("  \"hottestMethods\": [", out);
    for (size_t i = 0; i < st->top_count; i++) {
        fprintf(out, "%s\n    {\"id\": %lld, \"name\": ", i ? "," : "",
                (long long)st->top[i].id);
        json_string(out, st->top[i].name);
        fprintf(out, ", \"callCount\": %s}", total_format(&st->top[i].calls, buf));
    }
    fputs(st->top_count ? "\n  ]\n" : "]\n", out);
}

void stats_print_json(FILE *out, const stats *st)
{
    fputs("{\n  \"file\": ", out);
    json_string(out, st->file);
    fputs(",\n  \"version\": ", out);
    json_string(out, st->version);
    fprintf(out, ",\n  \"types\": %zu,\n  \"methods\": %zu,\n", st->types, st->methods);
    fprintf(out, "  \"contexts\": %zu,\n  \"maxContextDepth\": %zu,\n", st->contexts,
            st->max_depth);
    fprintf(out, "  \"diagnostics\": %zu,\n", st->diagnostics);
    json_kinds(out, "entries", st, 0);
    json_kinds(out, "totals", st, 1);
    json_layout(out, st);
    json_top(out, st);
    fputs("}\n", out);
}
