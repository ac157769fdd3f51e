/* iprof validate [--strict] FILE...
 *
 * Reads each file once with the streaming reader (no model) and reports
 * every diagnostic and the fatal error on stderr, one line each:
 *   FILE:LINE:COL: PATH: message
 *   FILE:LINE:COL: PATH: warning: message
 * (PATH "-" for the whole document or no position; 0:0 for no position),
 * then a verdict per file on stdout:
 *   FILE: valid | FILE: valid (N warnings) | FILE: invalid (N errors[, M warnings])
 *   | FILE: unreadable
 * Exit: 0 all valid, 1 some file invalid, 2 usage error or unreadable file. */
#include <string.h>

#include <iprof/stream.h>

#include "tool.h"

#define CMD "iprof validate"

enum { OPT_STRICT = 1 };

static const tool_opt validate_opts[] = {
    {"strict", 0, NULL, OPT_STRICT, "stop at the first rule violation (IPROF_READ_STRICT)", NULL},
    TOOL_OPT_END,
};

const tool_command validate_command = {
    .name = "validate",
    .synopsis = "[--strict] FILE...",
    .brief = "[--strict] FILE...",
    .summary = "check files against the format's rules",
    .about = "Check iprof files against the format and its rules.\n"
             "\n"
             "Every problem is printed on stderr as\n"
             "  FILE:LINE:COL: PATH: message\n"
             "  FILE:LINE:COL: PATH: warning: message\n"
             "(PATH is the JSON path of the element, '-' for the whole document;\n"
             "'FILE: message' when there is no position, as for a file that cannot\n"
             "be opened). A verdict per file goes to stdout:\n"
             "'FILE: valid', 'FILE: invalid (...)' or 'FILE: unreadable'.",
    .opts = validate_opts,
    .notes = "FILE '-' is standard input. Exit status: 0 if every file is valid,\n"
             "1 if some file is invalid, 2 on usage errors or unreadable files.",
    .run = cmd_validate,
};
static const char *plural(size_t n, const char *word)
{
    static char buf[64];
    snprintf(buf, sizeof buf, "%zu %s%s", n, word, n == 1 ? "" : "s");
    return buf;
}

/* Print the verdict of one file on stdout; returns its exit code. */
static int verdict(const char *file, const iprof_reader *reader, int status)
{
    size_t errors, warnings;
    count_diagnostics(reader, &errors, &warnings);
    errors += status != IPROF_OK;
    const char *name = display_name(file);
    if (exit_code_of(status) == TOOL_EXIT_USAGE) {
        printf("%s: unreadable\n", name);
        return TOOL_EXIT_USAGE;
    }
    if (errors == 0) {
        if (warnings)
            printf("%s: valid (%s)\n", name, plural(warnings, "warning"));
        else
            printf("%s: valid\n", name);
        return TOOL_EXIT_OK;
    }
    printf("%s: invalid (%s", name, plural(errors, "error"));
    printf(warnings ? ", %s)\n" : ")\n", plural(warnings, "warning"));
    return TOOL_EXIT_INVALID;
}

static int validate_one(iprof_reader *reader, const char *file)
{
    iprof_source src = input_source(file);
    int rc = iprof_reader_read(reader, &src, NULL, NULL);
    fflush(stdout); /* keep stdout and stderr in order on a terminal */
    report_read_listing(file, reader, rc, 1);
    report_repair_hint(file, reader, rc);
    iprof_read_result r = read_result(reader);
    size_t dropped = r.dropped_errors + r.dropped_warnings;
    if (dropped)
        fprintf(stderr, "%s: %zu more diagnostics not shown\n", display_name(file), dropped);
    report_unread(file, reader); /* the exact number, past the cap too */
    return verdict(file, reader, rc);
}

int cmd_validate(int argc, char **argv)
{
    tool_args a;
    int strict = 0, opt, have_file = 0;
    args_init(&a, CMD, argc, argv);
    while ((opt = args_next(&a, validate_opts)) != ARGS_END) {
        switch (opt) {
        case ARGS_ERROR: return TOOL_EXIT_USAGE;
        case TOOL_OPT_HELP: return command_help(&validate_command);
        case TOOL_OPT_VERSION: return print_version();
        case OPT_STRICT: strict = 1; break;
        default: have_file = 1; break;
        }
    }
    if (!have_file)
        return usage_error(CMD, "no FILE given");
    iprof_reader *reader = open_reader(CMD, strict);
    if (!reader)
        return TOOL_EXIT_USAGE;
    int code = TOOL_EXIT_OK;
    args_init(&a, CMD, argc, argv);
    while ((opt = args_next(&a, validate_opts)) != ARGS_END) {
        if (opt != ARGS_OPERAND)
            continue;
        int c = validate_one(reader, a.value);
        code = c > code ? c : code;
    }
    iprof_reader_free(reader);
    return code;
}
