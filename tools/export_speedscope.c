/* iprof export --format speedscope: one "sampled" profile of speedscope's
 * file format (https://www.speedscope.app/file-format-schema.json).
 * shared.frames has one frame per method, named "Type.name" (speedscope
 * groups samples by frame, so the samples of one method at different
 * bcis add up). samples[i] is a stack as frame indices, root first, and
 * weights[i] its count: one sample per distinct stack, in the order of
 * the tree. unit "none", startValue 0, endValue the total. */
#include <stdlib.h>

#include "stacks.h"

int export_speedscope(FILE *out, const stack_tree *t, const char *name)
{
    char total[TOTAL_CHARS];
    size_t *path = malloc((t->count ? t->count : 1) * sizeof *path);
    if (!path)
        return -1;
    fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"name\":", out);
    json_string(out, name);
    fprintf(out, ",\"exporter\":\"iprof (libiprof) %s\",\"activeProfileIndex\":0,"
                 "\"shared\":{\"frames\":[", iprof_version_string());
    for (size_t i = 0; i < t->func_count; i++) {
        fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
        json_string(out, t->funcs[i].name);
        putc('}', out);
    }
    fputs("]},\"profiles\":[{\"type\":\"sampled\",\"name\":", out);
    json_string(out, name);
    fprintf(out, ",\"unit\":\"none\",\"startValue\":0,\"endValue\":%s,\"samples\":[",
            total_format(&t->total, total));
    int first = 1;
    for (size_t i = 0; i < t->count; i++) {
        if (t->nodes[i].self == 0)
            continue;
        size_t depth = stacks_path(t, i, path);
        fputs(first ? "\n[" : ",\n[", out);
        for (size_t d = 0; d < depth; d++)
            fprintf(out, d ? ",%zu" : "%zu", t->nodes[path[d]].func);
        putc(']', out);
        first = 0;
    }
    free(path);
    fputs("],\"weights\":[", out);
    first = 1;
    for (size_t i = 0; i < t->count; i++) {
        if (t->nodes[i].self == 0)
            continue;
        fprintf(out, first ? "%llu" : ",%llu", (unsigned long long)t->nodes[i].self);
        first = 0;
    }
    fputs("]}]}\n", out);
    return 0;
}
