/* iprof convert [--to VERSION] [--pretty] [--canonical] [--drop-instanceof]
 *               [--instanceof-key K] [--drop-unknown] [--strict] FILE [-o OUT]
 *
 * Writes a profile in another format version and/or in canonical form
 * (iprof_model_canonicalize: sorted by names, ids renumbered densely), so
 * that two files of the same profile become byte-identical and diffs of
 * them readable. Going down to a version without instanceof profiles
 * drops them only with --drop-instanceof. */
#include <string.h>

#include "post.h"

#define CMD "iprof convert"

enum { OPT_OUT = 1, OPT_TO, OPT_PRETTY, OPT_CANONICAL, OPT_DROP, OPT_STRICT, OPT_IOF_KEY,
       OPT_DROP_UNKNOWN };

static const tool_opt convert_opts[] = {
    {"to", 0, "VERSION", OPT_TO,
     "write format version 0.2.0, 0.4.0, 1.0.0 or 1.1.0\n"
     "(default: the version of FILE); 0.2.0 is GraalVM's\n"
     "legacy layout, without sampling and instanceof\n"
     "profiles", "0.2.0 0.4.0 1.0.0 1.1.0"},
    {"canonical", 0, NULL, OPT_CANONICAL,
     "write the canonical form: types sorted by name with\n"
     "ids 0..n-1, methods sorted by (declaring type, name,\n"
     "signature type names) with ids 1..n, entries sorted\n"
     "by context, records by key, duplicates combined; two\n"
     "files of the same profile then have the same bytes", NULL},
    {"pretty", 0, NULL, OPT_PRETTY, "indent the output, one element per line", NULL},
    {"drop-instanceof", 0, NULL, OPT_DROP,
     "drop instanceof profiles when the output version has\n"
     "none (otherwise converting fails)", NULL},
    TOOL_OPT_INSTANCEOF_KEY(OPT_IOF_KEY),
    TOOL_OPT_DROP_UNKNOWN(OPT_DROP_UNKNOWN),
    {"strict", 0, NULL, OPT_STRICT, "read FILE in strict mode and check the output's rules",
     NULL},
    {"output", 'o', "OUT", OPT_OUT,
     "write to OUT atomically (a name ending in .gz is\n"
     "written gzip-compressed); '-' or none: standard output", NULL},
    TOOL_OPT_END,
};

const tool_command convert_command = {
    .name = "convert",
    .synopsis = "[--to VERSION] [--pretty] [--canonical] [--drop-instanceof]\n"
                "[--instanceof-key K] [--drop-unknown] [--strict] FILE\n"
                "[-o OUT]",
    .brief = "[--to VERSION] [--canonical] FILE [-o OUT]",
    .summary = "another version, or the canonical form",
    .about = "Write a profile in another format version or in canonical form.",
    .opts = convert_opts,
    .notes = "FILE '-' is standard input; a gzip-compressed FILE is read transparently.\n"
             "Exit status: 0 on success, 1 if FILE is invalid or cannot be written as\n"
             "asked, 2 on usage or I/O errors, 4 if written without keys --drop-unknown\n"
             "dropped.",
    .run = cmd_convert,
};
int cmd_convert(int argc, char **argv)
{
    tool_args a;
    const char *file = NULL;
    post_output o = {NULL, NULL, 0, 0, 1, 0, NULL, 0, NULL};
    int canonical = 0, strict = 0, drop_unknown = 0, opt;
    args_init(&a, CMD, argc, argv);
    while ((opt = args_next(&a, convert_opts)) != ARGS_END) {
        switch (opt) {
        case ARGS_ERROR: return TOOL_EXIT_USAGE;
        case TOOL_OPT_HELP: return command_help(&convert_command);
        case TOOL_OPT_VERSION: return print_version();
        case OPT_OUT: o.path = a.value; break;
        case OPT_TO: o.to = a.value; break;
        case OPT_PRETTY: o.pretty = 1; break;
        case OPT_CANONICAL: canonical = 1; break;
        case OPT_DROP: o.drop = 1; break;
        case OPT_STRICT: strict = 1; break;
        case OPT_DROP_UNKNOWN: drop_unknown = 1; break;
        case OPT_IOF_KEY:
            if ((o.iof_key = parse_instanceof_key(CMD, a.value)) < 0)
                return TOOL_EXIT_USAGE;
            break;
        default:
            if (file)
                return usage_error(CMD, "only one FILE is allowed");
            file = a.value;
        }
    }
    if (!file)
        return usage_error(CMD, "no FILE given");
    if (o.to && !post_known_version(o.to))
        return usage_error(CMD, "unknown version '%s' (0.2.0, 0.4.0, 1.0.0 or 1.1.0)", o.to);
    o.lenient = !strict;
    progress_bar bar;
    memset(&bar, 0, sizeof bar);
    char label[300];
    snprintf(label, sizeof label, "%s: reading %s", CMD, display_name(file));
    iprof_reader *reader = open_reader(CMD, strict);
    iprof_model *model = NULL;
    int code = reader ? progress_load_model(&bar, label, &model, reader, file) : TOOL_EXIT_USAGE;
    if (code == TOOL_EXIT_OK)
        code = post_check_instanceof(CMD, file, &o, model);
    if (code == TOOL_EXIT_OK)
        code = post_check_legacy(CMD, file, o.to ? o.to : iprof_model_version(model), model);
    if (code == TOOL_EXIT_OK)
        code = post_check_unread(CMD, display_name(file), drop_unknown, model);
    size_t top_level_dropped = 0;
    if (code == TOOL_EXIT_OK && drop_unknown)
        top_level_dropped = post_drop_unknown(CMD, display_name(file), model);
    o.drop_unknown = drop_unknown;
    o.input = display_name(file);
    if (canonical) /* written so: the model is not changed, nor copied */
        o.canonical = display_name(file);
    if (code == TOOL_EXIT_OK)
        code = post_write(CMD, &o, model, &bar);
    progress_bar_end(&bar);
    if (code == TOOL_EXIT_OK)
        code = post_dropped(CMD, display_name(file), model, top_level_dropped);
    iprof_model_free(model);
    iprof_reader_free(reader);
    return code;
}
