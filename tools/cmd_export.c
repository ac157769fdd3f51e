/* iprof export --format speedscope|firefox FILE [--kind sampling|callcount]
 *              [-o OUT]
 *
 * The stacks of a profile (stacks.c: the sampling profiles, or the
 * call-count contexts of a file without samples) for profile viewers:
 * speedscope's file format (export_speedscope.c) or the Firefox Profiler's
 * processed profile format (export_firefox.c). */
#include <string.h>

#include "stacks.h"

#define CMD "iprof export"

enum { OPT_OUT = 1, OPT_FORMAT, OPT_KIND };
enum { FORMAT_NONE, FORMAT_SPEEDSCOPE, FORMAT_FIREFOX };

static const tool_opt export_opts[] = {
    {"format", 'f', "FMT", OPT_FORMAT,
     "speedscope: one sampled profile, a frame per method;\n"
     "firefox: one thread, a function per method, a frame\n"
     "per method and bci (the bci as the line), a category\n"
     "per top-level package", "speedscope firefox"},
    {"kind", 0, "KIND", OPT_KIND,
     "sampling: the samplingProfiles (full stacks);\n"
     "callcount: the callCountProfiles contexts; default:\n"
     "sampling if FILE has samples, else callcount", "sampling callcount"},
    {"output", 'o', "OUT", OPT_OUT,
     "write to OUT atomically (a temporary file renamed\n"
     "into place); '-' is standard output", NULL},
    TOOL_OPT_END,
};

const tool_command export_command = {
    .name = "export",
    .synopsis = "--format speedscope|firefox FILE [--kind KIND] [-o OUT]",
    .brief = "--format speedscope|firefox FILE [-o OUT]",
    .summary = "the stacks for speedscope or the Firefox Profiler",
    .about = "Write the stacks of a profile in a profile viewer's format: speedscope's\n"
             "file format (open it in speedscope) or the Firefox Profiler's processed\n"
             "profile format (load it in profiler.firefox.com).",
    .opts = export_opts,
    .notes = "Each distinct stack is one sample weighted by its count; entries whose\n"
             "count is not positive are left out. FILE '-' is standard input. Exit\n"
             "status: 0 on success, 1 if FILE is invalid, 2 on usage or I/O errors.",
    .run = cmd_export,
};
typedef struct export_args {
    const char *file, *out;
    int format, kind;
} export_args;

static int parse(export_args *x, int argc, char **argv, int *done)
{
    tool_args a;
    int opt;
    args_init(&a, CMD, argc, argv);
    *done = 1;
    while ((opt = args_next(&a, export_opts)) != ARGS_END) {
        switch (opt) {
        case ARGS_ERROR: return TOOL_EXIT_USAGE;
        case TOOL_OPT_HELP: return command_help(&export_command);
        case TOOL_OPT_VERSION: return print_version();
        case OPT_OUT: x->out = a.value; break;
        case OPT_FORMAT:
            if (strcmp(a.value, "speedscope") == 0)
                x->format = FORMAT_SPEEDSCOPE;
            else if (strcmp(a.value, "firefox") == 0)
                x->format = FORMAT_FIREFOX;
            else
                return usage_error(CMD, "unknown format '%s' (speedscope or firefox)", a.value);
            break;
        case OPT_KIND:
            if ((x->kind = stacks_kind_arg(a.value)) < 0)
                return usage_error(CMD, "unknown kind '%s' (sampling or callcount)", a.value);
            break;
        default:
            if (x->file)
                return usage_error(CMD, "only one FILE is allowed");
            x->file = a.value;
        }
    }
    if (!x->file)
        return usage_error(CMD, "no FILE given");
    if (x->format == FORMAT_NONE)
        return usage_error(CMD, "no --format given (speedscope or firefox)");
    *done = 0;
    return TOOL_EXIT_OK;
}

int cmd_export(int argc, char **argv)
{
    export_args x = {NULL, NULL, FORMAT_NONE, STACKS_AUTO};
    int done, code = parse(&x, argc, argv, &done);
    if (done)
        return code;
    if (outfile_check_report(CMD, x.out) != 0)
        return TOOL_EXIT_USAGE;
    progress_bar prog = {0};
    iprof_reader *reader = open_reader(CMD, 0);
    iprof_model *model = NULL;
    stack_tree tree;
    memset(&tree, 0, sizeof tree);
    code = reader ? progress_load_model(&prog, CMD ": reading", &model, reader, x.file)
                  : TOOL_EXIT_USAGE;
    if (code == TOOL_EXIT_OK && stacks_build(&tree, model, x.kind, &prog, CMD ": stacks") != 0) {
        progress_bar_end(&prog);
        fprintf(stderr, "%s: out of memory\n", CMD);
        code = TOOL_EXIT_USAGE;
    }
    progress_bar_end(&prog);
    outfile out;
    if (code == TOOL_EXIT_OK && outfile_open(&out, CMD, x.out) != 0)
        code = TOOL_EXIT_USAGE;
    else if (code == TOOL_EXIT_OK) {
        const char *name = display_name(x.file);
        int rc = x.format == FORMAT_SPEEDSCOPE ? export_speedscope(out.fp, &tree, name)
                                               : export_firefox(out.fp, &tree, name);
        if (rc != 0) {
            fprintf(stderr, "%s: out of memory\n", CMD);
            outfile_abort(&out);
            code = TOOL_EXIT_USAGE;
        } else if (outfile_commit(&out, CMD) != 0) {
            code = TOOL_EXIT_USAGE;
        }
    }
    stacks_free(&tree);
    iprof_model_free(model);
    iprof_reader_free(reader);
    return code;
}
