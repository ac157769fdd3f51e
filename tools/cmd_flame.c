/* iprof flame FILE [--kind sampling|callcount] [--bci] [--html] [--title T]
 *                  [-o OUT]
 *
 * Folded stacks ("caller;...;callee count", one line per distinct stack,
 * sorted) for flamegraph.pl and inferno, or with --html one self-contained
 * interactive flame graph page (flame_html.c). Stacks are the sampling
 * profiles' ctx read caller first, or, when the file has no samples (or
 * with --kind callcount), the call-count contexts. */
#include <stdlib.h>
#include <string.h>

#include "stacks.h"

#define CMD "iprof flame"

enum { OPT_OUT = 1, OPT_KIND, OPT_BCI, OPT_HTML, OPT_TITLE };

static const tool_opt flame_opts[] = {
    {"kind", 0, "KIND", OPT_KIND,
     "sampling: the samplingProfiles (full stacks);\n"
     "callcount: the callCountProfiles contexts (inlining\n"
     "contexts); default: sampling if FILE has samples,\n"
     "else callcount", "sampling callcount"},
    {"bci", 0, NULL, OPT_BCI,
     "name frames 'Type.name:BCI' (default 'Type.name':\n"
     "call sites of one method merge)", NULL},
    {"html", 0, NULL, OPT_HTML,
     "write an HTML page: hover shows a frame's name and\n"
     "count, click zooms, the search box highlights", NULL},
    {"title", 0, "TEXT", OPT_TITLE,
     "the page's title (default: FILE's name without its\n"
     "directories)", NULL},
    {"output", 'o', "OUT", OPT_OUT,
     "write to OUT atomically (a temporary file renamed\n"
     "into place); '-' is standard output", NULL},
    TOOL_OPT_END,
};

const tool_command flame_command = {
    .name = "flame",
    .synopsis = "FILE [--kind sampling|callcount] [--bci] [--html]\n"
                "[--title TEXT] [-o OUT]",
    .brief = "FILE [--kind sampling|callcount] [--html] [-o OUT]",
    .summary = "folded stacks or an HTML flame graph",
    .about = "Print the stacks of a profile as folded lines for flamegraph.pl and inferno\n"
             "('caller;...;callee count', caller first, one line per distinct stack,\n"
             "sorted), or as one self-contained interactive flame graph page.",
    .opts = flame_opts,
    .notes = "Entries whose count is not positive are left out. FILE '-' is standard\n"
             "input. Exit status: 0 on success, 1 if FILE is invalid, 2 on usage or\n"
             "I/O errors.",
    .run = cmd_flame,
};
typedef struct flame_args {
    const char *file, *out, *title;
    int kind, bci, html;
} flame_args;

static int parse(flame_args *f, int argc, char **argv, int *done)
{
    tool_args a;
    int opt;
    args_init(&a, CMD, argc, argv);
    *done = 1;
    while ((opt = args_next(&a, flame_opts)) != ARGS_END) {
        switch (opt) {
        case ARGS_ERROR: return TOOL_EXIT_USAGE;
        case TOOL_OPT_HELP: return command_help(&flame_command);
        case TOOL_OPT_VERSION: return print_version();
        case OPT_OUT: f->out = a.value; break;
        case OPT_KIND:
            if ((f->kind = stacks_kind_arg(a.value)) < 0)
                return usage_error(CMD, "unknown kind '%s' (sampling or callcount)", a.value);
            break;
        case OPT_BCI: f->bci = 1; break;
        case OPT_HTML: f->html = 1; break;
        case OPT_TITLE: f->title = a.value; break;
        default:
            if (f->file)
                return usage_error(CMD, "only one FILE is allowed");
            f->file = a.value;
        }
    }
    if (!f->file)
        return usage_error(CMD, "no FILE given");
    *done = 0;
    return TOOL_EXIT_OK;
}

/* The file's name without its directories. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

static void write_folded(FILE *out, const folded_line *lines, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s %llu\n", lines[i].text, (unsigned long long)lines[i].count);
}

int cmd_flame(int argc, char **argv)
{
    flame_args f = {NULL, NULL, NULL, STACKS_AUTO, 0, 0};
    int done, code = parse(&f, argc, argv, &done);
    if (done)
        return code;
    if (outfile_check_report(CMD, f.out) != 0)
        return TOOL_EXIT_USAGE;
    progress_bar prog = {0};
    iprof_reader *reader = open_reader(CMD, 0);
    iprof_model *model = NULL;
    stack_tree tree;
    folded_line *lines = NULL;
    size_t nlines = 0;
    memset(&tree, 0, sizeof tree);
    code = reader ? progress_load_model(&prog, CMD ": reading", &model, reader, f.file)
                  : TOOL_EXIT_USAGE;
    if (code == TOOL_EXIT_OK &&
        (stacks_build(&tree, model, f.kind, &prog, CMD ": stacks") != 0 ||
         stacks_fold(&tree, f.bci, &lines, &nlines) != 0)) {
        progress_bar_end(&prog);
        fprintf(stderr, "%s: out of memory\n", CMD);
        code = TOOL_EXIT_USAGE;
    }
    progress_bar_end(&prog);
    outfile out;
    if (code == TOOL_EXIT_OK && outfile_open(&out, CMD, f.out) != 0)
        code = TOOL_EXIT_USAGE;
    else if (code == TOOL_EXIT_OK) {
        if (f.html)
            flame_write_html(out.fp, &tree, lines, nlines,
                             f.title ? f.title : base_name(display_name(f.file)));
        else
            write_folded(out.fp, lines, nlines);
        if (outfile_commit(&out, CMD) != 0)
            code = TOOL_EXIT_USAGE;
    }
    stacks_fold_free(lines, nlines);
    stacks_free(&tree);
    iprof_model_free(model);
    iprof_reader_free(reader);
    return code;
}
