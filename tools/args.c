/* Option parsing for the subcommands: long options ("--to 1.0.0",
 * "--to=1.0.0"), short options with a value ("-o OUT", "-oOUT"), options
 * and operands in any order, "--" ends the options, "-" is an operand. */
#include <stdarg.h>
#include <string.h>

#include "tool.h"

const tool_opt tool_common_opts[] = {
    {"help", 'h', NULL, TOOL_OPT_HELP, "show this help and exit", NULL},
    {"version", 0, NULL, TOOL_OPT_VERSION, "show the version and exit", NULL},
    TOOL_OPT_END,
};

void args_init(tool_args *a, const char *cmd, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->argc = argc;
    a->argv = argv;
    a->next = 1;
}

int usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s --help' for more information.\n", cmd);
    return TOOL_EXIT_USAGE;
}

int print_version(void)
{
    printf("iprof (libiprof) %s\n", iprof_version_string());
    return TOOL_EXIT_OK;
}

static const tool_opt *find_long(const tool_opt *opts, const char *name, size_t len)
{
    for (int t = 0; t < 2; t++)
        for (const tool_opt *o = t ? tool_common_opts : opts; o->name; o++)
            if (strlen(o->name) == len && memcmp(o->name, name, len) == 0)
                return o;
    return NULL;
}

static const tool_opt *find_short(const tool_opt *opts, char c)
{
    for (int t = 0; t < 2; t++)
        for (const tool_opt *o = t ? tool_common_opts : opts; o->name; o++)
            if (o->short_name == c)
                return o;
    return NULL;
}

/* The value of an option that needs one: inline or the next argument. */
static int take_value(tool_args *a, const tool_opt *o, const char *inline_value,
                      const char *spelled)
{
    if (inline_value) {
        a->value = inline_value;
        return o->id;
    }
    if (a->next >= a->argc)
        return usage_error(a->cmd, "option '%s' needs a value", spelled), ARGS_ERROR;
    a->value = a->argv[a->next++];
    return o->id;
}

/* take_value, and a file name is never empty ("-o ''" names no file). */
static int take_option(tool_args *a, const tool_opt *o, const char *inline_value,
                       const char *spelled)
{
    int id = take_value(a, o, inline_value, spelled);
    if (id != ARGS_ERROR && !*a->value &&
        (!strcmp(o->arg, "OUT") || !strcmp(o->arg, "FILE") || !strcmp(o->arg, "DIR")))
        return usage_error(a->cmd, "option '%s' needs a file name, not ''", spelled), ARGS_ERROR;
    return id;
}

static int parse_long(tool_args *a, const tool_opt *opts, const char *arg)
{
    const char *name = arg + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const tool_opt *o = find_long(opts, name, len);
    if (!o)
        return usage_error(a->cmd, "unknown option '%.*s'", (int)(len + 2), arg), ARGS_ERROR;
    if (o->arg)
        return take_option(a, o, eq ? eq + 1 : NULL, arg);
    if (eq)
        return usage_error(a->cmd, "option '--%s' takes no value", o->name), ARGS_ERROR;
    a->value = NULL;
    return o->id;
}

static int parse_short(tool_args *a, const tool_opt *opts, const char *arg)
{
    const tool_opt *o = find_short(opts, arg[1]);
    if (!o)
        return usage_error(a->cmd, "unknown option '%s'", arg), ARGS_ERROR;
    if (o->arg)
        return take_option(a, o, arg[2] ? arg + 2 : NULL, arg);
    if (arg[2])
        return usage_error(a->cmd, "unknown option '%s'", arg), ARGS_ERROR;
    a->value = NULL;
    return o->id;
}

int args_next(tool_args *a, const tool_opt *opts)
{
    while (a->next < a->argc) {
        const char *arg = a->argv[a->next++];
        if (a->operands_only || arg[0] != '-' || arg[1] == '\0') {
            a->value = arg;
            return ARGS_OPERAND;
        }
        if (strcmp(arg, "--") == 0) {
            a->operands_only = 1;
            continue;
        }
        return arg[1] == '-' ? parse_long(a, opts, arg) : parse_short(a, opts, arg);
    }
    return ARGS_END;
}

int parse_instanceof_key(const char *cmd, const char *value)
{
    if (strcmp(value, "instanceof") == 0 || strcmp(value, "instanceofProfiles") == 0)
        return IPROF_INSTANCEOF_KEY_LOWER;
    if (strcmp(value, "instanceOf") == 0 || strcmp(value, "instanceOfProfiles") == 0)
        return IPROF_INSTANCEOF_KEY_CAMEL;
    usage_error(cmd, "--instanceof-key: '%s' is neither instanceof nor instanceOf", value);
    return -1;
}
