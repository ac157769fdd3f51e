/* --help of every subcommand and of `iprof` itself, generated from the
 * command table (tool_command, tool_opt): what a command parses, what its
 * help lists and what the shell completes (cmd_completion.c) cannot drift
 * apart. */
#include <string.h>

#include "tool.h"

/* The column of the commands' summaries in `iprof --help`. */
#define SUMMARY_COLUMN 32

/* Print text, each '\n' followed by `indent` spaces. */
static void put_indented(FILE *out, const char *text, int indent)
{
    for (const char *p = text; *p; p++) {
        fputc(*p, out);
        if (*p == '\n' && p[1])
            fprintf(out, "%*s", indent, "");
    }
}

/* "-o, --output OUT" or "--to VERSION": the option as --help shows it. */
static int opt_label(const tool_opt *o, char *buf, size_t size)
{
    char shortname[8] = "";
    if (o->short_name)
        snprintf(shortname, sizeof shortname, "-%c, ", o->short_name);
    return snprintf(buf, size, "%s--%s%s%s", shortname, o->name, o->arg ? " " : "",
                    o->arg ? o->arg : "");
}

static int label_width(const tool_opt *opts, int width)
{
    char buf[128];
    for (const tool_opt *o = opts; o->name; o++) {
        int n = opt_label(o, buf, sizeof buf);
        if (n > width)
            width = n;
    }
    return width;
}

static void print_opts(const tool_opt *opts, int width)
{
    char buf[128];
    for (const tool_opt *o = opts; o->name; o++) {
        opt_label(o, buf, sizeof buf);
        printf("  %-*s  ", width, buf);
        put_indented(stdout, o->help, width + 4);
        putchar('\n');
    }
}

int command_help(const tool_command *c)
{
    int indent = (int)strlen("Usage: iprof  ") + (int)strlen(c->name);
    printf("Usage: iprof %s ", c->name);
    put_indented(stdout, c->synopsis, indent);
    printf("\n%s\n\n", c->about);
    int width = label_width(tool_common_opts, label_width(c->opts, 0));
    print_opts(c->opts, width);
    print_opts(tool_common_opts, width);
    if (c->notes)
        printf("\n%s\n", c->notes);
    return TOOL_EXIT_OK;
}

void commands_usage(FILE *out)
{
    fputs("Usage: iprof COMMAND [OPTION]... FILE...\n"
          "Check, summarise and convert GraalVM Native Image PGO profiles (.iprof).\n"
          "\n"
          "Commands:\n",
          out);
    for (size_t i = 0; i < tool_command_count; i++) {
        const tool_command *c = tool_commands[i];
        fprintf(out, "  %s ", c->name);
        put_indented(out, c->brief, 3 + (int)strlen(c->name));
        /* The summary goes beside a one-line synopsis that leaves room. */
        int used = 3 + (int)strlen(c->name) + (int)strlen(c->brief);
        if (!strchr(c->brief, '\n') && used < SUMMARY_COLUMN - 1)
            fprintf(out, "%*s", SUMMARY_COLUMN - used, "");
        else
            fprintf(out, "\n%*s", SUMMARY_COLUMN, "");
        put_indented(out, c->summary, SUMMARY_COLUMN);
        fputc('\n', out);
    }
    fputs("\n"
          "Options:\n"
          "  --help       show this help and exit\n"
          "  --version    show the version and exit\n"
          "\n"
          "Run 'iprof COMMAND --help' for the options of a command. FILE '-' is\n"
          "standard input; .iprof.gz files are read transparently. Exit status:\n"
          "0 on success, 1 if a file is invalid, 2 on usage or I/O errors, 3 if\n"
          "repair wrote nothing, 4 if a profile was written without keys\n"
          "--drop-unknown dropped (iprof(1), EXIT STATUS).\n",
          out);
}
