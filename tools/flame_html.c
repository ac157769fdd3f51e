/* iprof flame --html: the page of tools/flame.html with the stacks as JSON
 * in place of its @IPROF_FLAME_DATA@ marker:
 *   {"title": T, "kind": "sampling"|"callcount", "unit": "samples"|"calls",
 *    "names": [frame name...], "stacks": [[count, name index...], ...]}
 * (stacks root first). Strings escape '<', '>' and '&', so no "</script>"
 * can end the script element early. */
#include <string.h>

#include "stacks.h"
#include "flame_html_template.h"

#define MARKER "@IPROF_FLAME_DATA@"

static void write_data(FILE *out, const stack_tree *t, const folded_line *lines, size_t n,
                       const char *title)
{
    fputs("{\"title\":", out);
    json_string(out, title);
    fprintf(out, ",\"kind\":\"%s\",\"unit\":\"%s\",\"names\":[",
            t->kind == IPROF_KIND_SAMPLING ? "sampling" : "callcount",
            t->kind == IPROF_KIND_SAMPLING ? "samples" : "calls");
    for (size_t i = 0; i < t->func_count; i++) {
        if (i)
            putc(',', out);
        json_string(out, t->funcs[i].name);
    }
    fputs("],\"stacks\":[", out);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%s[%llu", i ? ",\n" : "\n", (unsigned long long)lines[i].count);
        for (size_t d = 0; d < lines[i].depth; d++)
            fprintf(out, ",%zu", lines[i].path[d]);
        putc(']', out);
    }
    fputs("]}", out);
}

void flame_write_html(FILE *out, const stack_tree *t, const folded_line *lines, size_t n,
                      const char *title)
{
    const char *tpl = flame_html_template;
    const char *mark = strstr(tpl, MARKER);
    if (!mark) { /* cannot happen: the template is built in */
        fputs(tpl, out);
        return;
    }
    fwrite(tpl, 1, (size_t)(mark - tpl), out);
    write_data(out, t, lines, n, title);
    fputs(mark + strlen(MARKER), out);
}
