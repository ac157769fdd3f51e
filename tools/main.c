/* iprof: check, summarise and convert GraalVM Native Image PGO profiles
 * (.iprof files) with libiprof. See docs/commands.md. */
#include <string.h>

#include "tool.h"

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#include <stdlib.h>
#include <windows.h>
#include <shellapi.h>

/* The arguments as UTF-8, the library's encoding of paths: the C runtime's
 * argv is in the ANSI code page, which cannot spell every file name. Kept
 * for the life of the process; argv when the conversion fails. */
static char **utf8_argv(int *argc, char **argv)
{
    int n = 0;
    wchar_t **w = CommandLineToArgvW(GetCommandLineW(), &n);
    char **out = w && n == *argc ? calloc((size_t)n + 1, sizeof *out) : NULL;
    for (int i = 0; out && i < n; i++) {
        int len = WideCharToMultiByte(CP_UTF8, 0, w[i], -1, NULL, 0, NULL, NULL);
        out[i] = len > 0 ? malloc((size_t)len) : NULL;
        if (!out[i] || !WideCharToMultiByte(CP_UTF8, 0, w[i], -1, out[i], len, NULL, NULL))
            out = NULL; /* a few bytes left behind, once, in a failing process */
    }
    if (w)
        LocalFree(w);
    return out ? out : argv;
}
#endif

/* Every subcommand, in the order of `iprof --help`. */
const tool_command *const tool_commands[] = {
    &validate_command, &stats_command, &cat_command,      &flame_command,
    &export_command,   &merge_command, &convert_command,  &filter_command,
    &diff_command,     &coverage_command, &show_command,  &fit_command,
    &repair_command,   &completion_command,
};
const size_t tool_command_count = sizeof tool_commands / sizeof tool_commands[0];

int main(int argc, char **argv)
{
#ifdef _WIN32
    /* Profiles pass through standard input and output byte for byte: no
     * CRLF (elsewhere nothing to do). */
    _setmode(0, _O_BINARY);
    _setmode(1, _O_BINARY);
    argv = utf8_argv(&argc, argv);
#endif
    if (argc < 2) {
        commands_usage(stderr);
        return TOOL_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        commands_usage(stdout);
        return finish_stdout("iprof", TOOL_EXIT_OK);
    }
    if (strcmp(cmd, "--version") == 0)
        return finish_stdout("iprof", print_version());
    for (size_t i = 0; i < tool_command_count; i++)
        if (strcmp(cmd, tool_commands[i]->name) == 0)
            return finish_stdout("iprof", tool_commands[i]->run(argc - 1, argv + 1));
    if (cmd[0] == '-')
        return usage_error("iprof", "unknown option '%s'", cmd);
    return usage_error("iprof", "unknown command '%s'", cmd);
}
