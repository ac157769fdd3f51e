/* iprof: check, summarise and convert GraalVM Native Image PGO profiles
 * (.iprof files) with libiprof. See README.md, "The iprof command". */
#include <string.h>

#include "tool.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"validate", cmd_validate},
    {"stats", cmd_stats},
    {"cat", cmd_cat},
    {"flame", cmd_flame},
    {"export", cmd_export},
    {"merge", cmd_merge},
    {"convert", cmd_convert},
    {"filter", cmd_filter},
    {"diff", cmd_diff},
    {"coverage", cmd_coverage},
    {"show", cmd_show},
    {"fit", cmd_fit},
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: iprof COMMAND [OPTION]... FILE...\n"
            "Check, summarise and convert GraalVM Native Image PGO profiles (.iprof).\n"
            "\n"
            "Commands:\n"
            "  validate [--strict] FILE...   check files against the format's rules\n"
            "  stats [--json] FILE           counts, totals, contexts, hottest methods\n"
            "  cat FILE [-o OUT] [--to VERSION] [--pretty] [--drop-instanceof]\n"
            "                                write a profile back, converted if asked\n"
            "  flame FILE [--kind sampling|callcount] [--html] [-o OUT]\n"
            "                                folded stacks or an HTML flame graph\n"
            "  export --format speedscope|firefox FILE [-o OUT]\n"
            "                                the stacks for speedscope or the Firefox Profiler\n"
            "  merge [-o OUT] [--weight FILE=W]... FILE|DIR...\n"
            "                                merge profiles (canonical, order-independent)\n"
            "  convert [--to VERSION] [--canonical] FILE [-o OUT]\n"
            "                                another version, or the canonical form\n"
            "  filter [--keep-package P]... [--drop-package P]... [--min-count N]\n"
            "         [--top-percent X] [--kinds K,...] FILE [-o OUT]\n"
            "                                a smaller profile\n"
            "  diff [--json] [--top N] A B   what A and B lack of each other, overlap,\n"
            "                                biggest changes: is profile A stale?\n"
            "  coverage [--json] [--lcov OUT] FILE\n"
            "                                which methods ran, per class and package\n"
            "  show [--json] FILE METHOD     what the compiler is told about a method:\n"
            "                                branch probabilities, receiver type shares\n"
            "  fit [--json] [--lcov OUT] [--top N] PROFILE CALLTREE\n"
            "                                how well a profile fits a build's call tree\n"
            "\n"
            "Options:\n"
            "  --help       show this help and exit\n"
            "  --version    show the version and exit\n"
            "\n"
            "Run 'iprof COMMAND --help' for the options of a command. FILE '-' is\n"
            "standard input; .iprof.gz files are read transparently. Exit status:\n"
            "0 on success, 1 if a file is invalid, 2 on usage or I/O errors.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return TOOL_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return finish_stdout("iprof", TOOL_EXIT_OK);
    }
    if (strcmp(cmd, "--version") == 0)
        return finish_stdout("iprof", print_version());
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return finish_stdout("iprof", commands[i].run(argc - 1, argv + 1));
    if (cmd[0] == '-')
        return usage_error("iprof", "unknown option '%s'", cmd);
    return usage_error("iprof", "unknown command '%s'", cmd);
}
