/* iprof cat FILE [-o OUT] [--to VERSION] [--pretty] [--strict]
 *           [--drop-instanceof] [--drop-unknown]
 *
 * Loads the model and writes it back: by default the same version in
 * GraalVM's layout, so a file GraalVM wrote comes back byte for byte. A
 * leniently loaded model is written with IPROF_WRITE_NO_VALIDATE (the
 * copy keeps what the file holds); --strict reads strictly and writes with
 * the writer's checks. Output goes to stdout, or atomically to OUT. */
#include <stdio.h>
#include <string.h>

#include "outfile.h"
#include "post.h"

#define CMD "iprof cat"

enum { OPT_OUT = 1, OPT_TO, OPT_PRETTY, OPT_STRICT, OPT_DROP, OPT_IOF_KEY, OPT_DROP_UNKNOWN };

static const tool_opt cat_opts[] = {
    {"output", 'o', "OUT", OPT_OUT,
     "write to OUT atomically (a temporary file renamed\n"
     "into place); '-' is standard output", NULL},
    {"to", 0, "VERSION", OPT_TO, "write format version 0.2.0, 0.4.0, 1.0.0 or 1.1.0",
     "0.2.0 0.4.0 1.0.0 1.1.0"},
    {"pretty", 0, NULL, OPT_PRETTY, "indent the output, one element per line", NULL},
    {"strict", 0, NULL, OPT_STRICT,
     "read in strict mode and check the output's rules\n"
     "and references; otherwise the file is copied as\n"
     "it is, rule violations included", NULL},
    {"drop-instanceof", 0, NULL, OPT_DROP,
     "drop instanceof profiles when the output version has\n"
     "none (otherwise writing them fails)", NULL},
    TOOL_OPT_INSTANCEOF_KEY(OPT_IOF_KEY),
    {"drop-unknown", 0, NULL, OPT_DROP_UNKNOWN,
     "write without the keys of types, methods and entries\n"
     "that iprof does not read, saying so on stderr and with\n"
     "exit status 4 (without it, such input is refused;\n"
     "top-level keys are copied)", NULL},
    TOOL_OPT_END,
};

const tool_command cat_command = {
    .name = "cat",
    .synopsis = "FILE [-o OUT] [--to VERSION] [--pretty] [--strict]\n"
                "[--drop-instanceof] [--instanceof-key instanceof|instanceOf]\n"
                "[--drop-unknown]",
    .brief = "FILE [-o OUT] [--to VERSION] [--pretty] [--drop-instanceof]",
    .summary = "write a profile back, converted if asked",
    .about = "Read an iprof file and write it back: by default in the same version and\n"
             "GraalVM's own minified layout, to standard output.",
    .opts = cat_opts,
    .notes = "FILE '-' is standard input. Exit status: 0 on success, 1 if FILE is\n"
             "invalid or cannot be written as asked, 2 on usage or I/O errors, 4 if\n"
             "written without keys --drop-unknown dropped.",
    .run = cmd_cat,
};

typedef struct cat_args {
    const char *file, *out, *to;
    int pretty, strict, drop, iof_key, drop_unknown;
} cat_args;


/* 0 to go on; otherwise the exit code (help, version, usage error). */
static int parse(cat_args *c, int argc, char **argv, int *done)
{
    tool_args a;
    int opt;
    args_init(&a, CMD, argc, argv);
    *done = 1;
    while ((opt = args_next(&a, cat_opts)) != ARGS_END) {
        switch (opt) {
        case ARGS_ERROR: return TOOL_EXIT_USAGE;
        case TOOL_OPT_HELP: return command_help(&cat_command);
        case TOOL_OPT_VERSION: return print_version();
        case OPT_OUT: c->out = a.value; break;
        case OPT_TO: c->to = a.value; break;
        case OPT_PRETTY: c->pretty = 1; break;
        case OPT_STRICT: c->strict = 1; break;
        case OPT_DROP: c->drop = 1; break;
        case OPT_DROP_UNKNOWN: c->drop_unknown = 1; break;
        case OPT_IOF_KEY:
            if ((c->iof_key = parse_instanceof_key(CMD, a.value)) < 0)
                return TOOL_EXIT_USAGE;
            break;
        default:
            if (c->file)
                return usage_error(CMD, "only one FILE is allowed");
            c->file = a.value;
        }
    }
    if (!c->file)
        return usage_error(CMD, "no FILE given");
    if (c->to && !post_known_version(c->to))
        return usage_error(CMD, "unknown version '%s' (0.2.0, 0.4.0, 1.0.0 or 1.1.0)", c->to);
    *done = 0;
    return TOOL_EXIT_OK;
}

static int write_failed(const cat_args *c, iprof_writer *w, int rc)
{
    const char *msg = error_info(w ? iprof_writer_error(w) : NULL).message;
    if (!*msg)
        msg = iprof_status_string(rc);
    const char *name = post_about_model(rc)       ? display_name(c->file)
                       : outfile_is_stdout(c->out) ? "<stdout>"
                                                   : c->out;
    char buf[4096];
    report_plain(CMD, name, "%s", name_once(buf, sizeof buf, msg, name));
    return exit_code_of(rc);
}

static int write_model(const cat_args *c, const iprof_model *model)
{
    iprof_write_options opts = IPROF_WRITE_OPTIONS_INIT;
    iprof_writer *w = NULL;
    opts.format_version = c->to;
    opts.instanceof_key = c->iof_key;
    opts.flags = (c->pretty ? IPROF_WRITE_PRETTY : 0u) |
                 (c->drop ? IPROF_WRITE_DROP_INSTANCEOF : 0u) |
                 (c->drop_unknown ? IPROF_WRITE_DROP_UNKNOWN : 0u) |
                 (c->strict ? 0u : IPROF_WRITE_NO_VALIDATE); /* strict: every check */
    fflush(stdout);
    iprof_sink sink = outfile_sink(c->out);
    int rc = iprof_writer_new(&w, &sink, &opts);
    if (rc == IPROF_OK)
        rc = iprof_writer_write_model(w, model);
    int code = rc == IPROF_OK ? TOOL_EXIT_OK : write_failed(c, w, rc);
    iprof_writer_free(w);
    return code;
}

/* Writing instanceof profiles in a version without them would lose them
 * (a 1.0.0 file that has them anyway, or --to 1.0.0): refuse unless asked,
 * before any byte is written. */
static int check_instanceof(const cat_args *c, const iprof_model *model)
{
    const char *target = c->to ? c->to : iprof_model_version(model);
    if (c->drop || post_version_has_instanceof(target) ||
        iprof_model_entry_count(model, IPROF_KIND_INSTANCEOF) == 0)
        return TOOL_EXIT_OK;
    report_plain(CMD, display_name(c->file),
                 "has instanceof profiles, which version %s cannot hold "
                 "(use --drop-instanceof to drop them, or --to 1.1.0)", target);
    return TOOL_EXIT_INVALID;
}

int cmd_cat(int argc, char **argv)
{
    cat_args c = {NULL, NULL, NULL, 0, 0, 0, 0, 0};
    int done, code = parse(&c, argc, argv, &done);
    if (done)
        return code;
    iprof_reader *reader = open_reader(CMD, c.strict);
    iprof_model *model = NULL;
    code = reader ? load_model(&model, reader, c.file) : TOOL_EXIT_USAGE;
    if (code == TOOL_EXIT_OK)
        code = check_instanceof(&c, model);
    if (code == TOOL_EXIT_OK)
        code = post_check_legacy(CMD, c.file, c.to ? c.to : iprof_model_version(model), model);
    if (code == TOOL_EXIT_OK)
        code = post_check_unread(CMD, display_name(c.file), c.drop_unknown, model);
    if (code == TOOL_EXIT_OK)
        code = write_model(&c, model);
    if (code == TOOL_EXIT_OK && c.drop_unknown)
        code = post_dropped(CMD, display_name(c.file), model, 0);
    iprof_model_free(model);
    iprof_reader_free(reader);
    return code;
}
