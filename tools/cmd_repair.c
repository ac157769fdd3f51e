/* iprof repair [--json] [--drop-unknown] FILE -o OUT
 *
 * Salvages a damaged profile (a truncated file from a killed instrumented
 * run, a garbage byte in the middle): reads FILE strictly with
 * IPROF_READ_SALVAGE, keeping every element complete before the damage,
 * drops what refers to types or methods the damage cut off
 * (iprof_model_prune with IPROF_PRUNE_DANGLING), and writes the rest, in
 * FILE's version, to OUT, which a strict read accepts. The report says where the damage
 * starts and what was kept, dropped and lost. Keys of elements that iprof
 * does not read are refused unless --drop-unknown (iprof(1), KEYS IPROF
 * DOES NOT READ). Exit 0: FILE was intact (OUT is a strict copy); 1:
 * damaged, repaired with losses; 4: not damaged, but OUT lacks the keys
 * --drop-unknown dropped; 3: OUT not written (nothing to salvage: the
 * damage comes before the version; or keys iprof does not read without
 * --drop-unknown); 2: usage, I/O or memory errors. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include <iprof/transform.h>

#include "files.h"
#include "outfile.h"
#include "post.h"

#define CMD "iprof repair"

enum { EXIT_NOTHING = 3 };
enum { OPT_OUT = 1, OPT_JSON, OPT_DROP_UNKNOWN };

static const tool_opt repair_opts[] = {
    {"output", 'o', "OUT", OPT_OUT,
     "write to OUT atomically (required; '-': standard\n"
     "output; OUT may be FILE itself)", NULL},
    {"json", 0, NULL, OPT_JSON, "the report as JSON", NULL},
    {"drop-unknown", 0, NULL, OPT_DROP_UNKNOWN,
     "write without the keys of types, methods and entries\n"
     "that iprof does not read, saying so in the report and\n"
     "with exit status 4 (1 if damaged); without it, such\n"
     "input is refused (exit status 3)", NULL},
    TOOL_OPT_END,
};

const tool_command repair_command = {
    .name = "repair",
    .synopsis = "[--json] [--drop-unknown] FILE -o OUT",
    .brief = "[--json] FILE -o OUT",
    .summary = "salvage a truncated or damaged profile",
    .about = "Salvage a damaged profile: keep every element complete before the\n"
             "damage (truncation, malformed JSON, an element a strict read refuses),\n"
             "drop what refers to types or methods the damage cut off, and write the\n"
             "rest to OUT in FILE's version; a strict read accepts OUT.",
    .opts = repair_opts,
    .notes = "The report (on standard output, on standard error when OUT is standard\n"
             "output) says where the damage starts, what was kept per section, what\n"
             "was dropped as dangling per kind, and the bytes lost: the input's size\n"
             "minus the end of the last complete element (unknown for gzip input and\n"
             "pipes). FILE '-' is standard input; a gzip-compressed FILE is read\n"
             "transparently. Exit status: 0 if FILE was intact (OUT is a strict copy),\n"
             "1 if it was damaged and OUT holds what was salvaged, 4 if it was not\n"
             "damaged but OUT lacks the keys --drop-unknown dropped, 3 if OUT is not\n"
             "written (nothing could be salvaged: the damage comes before the\n"
             "version; or FILE has keys iprof does not read and --drop-unknown was not\n"
             "given), 2 on usage or I/O errors.",
    .run = cmd_repair,
};

typedef struct repair_report {
    const char *file;              /* display name */
    const iprof_error *damage;     /* NULL: intact */
    uint64_t kept_end;
    int64_t input_bytes;           /* -1: unknown */
    const iprof_model *model;      /* what is written */
    size_t dropped_methods;
    size_t dropped[IPROF_KIND_COUNT];
    size_t unread;                 /* elements whose unread keys are not in OUT */
    const char *unread_first;      /* the first of them, or NULL */
} repair_report;

/* The size of the document FILE holds: a regular file's size (standard
 * input's too) unless it is gzip-compressed (its decompressed size is not
 * known); -1 if unknown. */
static int64_t input_size(const char *file)
{
    int is_stdin = strcmp(file, "-") == 0;
    FILE *f = is_stdin ? NULL : files_open(file, "rb");
    if (!is_stdin && !f)
        return -1;
    int fd = is_stdin ? 0 : fileno(f);
    unsigned char magic[2] = {0, 0};
    int64_t size = files_fd_size(fd);
    if (size >= 0 && files_fd_peek(fd, magic, 2) == 2 && magic[0] == 0x1f && magic[1] == 0x8b)
        size = -1;
    if (f)
        fclose(f);
    return size;
}

/* The input's bytes after the last complete element (input_bytes >= 0). */
static uint64_t bytes_lost(const repair_report *r)
{
    return (uint64_t)r->input_bytes > r->kept_end ? (uint64_t)r->input_bytes - r->kept_end : 0;
}

static void print_text(FILE *out, const repair_report *r)
{
    const iprof_model *m = r->model;
    iprof_error_info d = error_info(r->damage);
    fprintf(out, "%s: ", r->file);
    if (r->damage)
        fprintf(out, "damaged at offset %" PRIu64 " (line %" PRIu64 ", column %" PRIu64
                     ", %s): %s\n",
                d.offset, d.line, d.column, *d.path ? d.path : "-", d.message);
    else if (r->unread)
        fprintf(out, "not damaged; keys dropped (--drop-unknown)\n");
    else
        fprintf(out, "intact\n");
    fprintf(out, "kept: version %s, %zu types, %zu methods", iprof_model_version(m),
            iprof_model_type_count(m), iprof_model_method_count(m));
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        fprintf(out, ", %zu %s", iprof_model_entry_count(m, k), iprof_kind_name(k));
    fprintf(out, "\ndropped (dangling): %zu methods", r->dropped_methods);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        fprintf(out, ", %zu %s", r->dropped[k], iprof_kind_name(k));
    if (r->unread)
        fprintf(out, "\ndropped (keys iprof does not read): %zu element%s (the first: %s)",
                r->unread, r->unread == 1 ? "" : "s", r->unread_first);
    fprintf(out, "\nlast complete element ends at offset %" PRIu64, r->kept_end);
    if (r->input_bytes >= 0)
        fprintf(out, "; bytes lost: %" PRIu64 " of %" PRId64, bytes_lost(r), r->input_bytes);
    fputc('\n', out);
}

static void print_json(FILE *out, const repair_report *r)
{
    const iprof_model *m = r->model;
    iprof_error_info d = error_info(r->damage);
    fprintf(out, "{\"file\": ");
    json_string(out, r->file);
    fprintf(out, ", \"intact\": %s, \"damage\": ", r->damage || r->unread ? "false" : "true");
    if (r->damage) {
        fprintf(out, "{\"status\": ");
        json_string(out, iprof_status_string(d.status));
        fprintf(out, ", \"offset\": %" PRIu64 ", \"line\": %" PRIu64 ", \"column\": %" PRIu64
                     ", \"path\": ",
                d.offset, d.line, d.column);
        json_string(out, d.path);
        fprintf(out, ", \"message\": ");
        json_string(out, d.message);
        fputc('}', out);
    } else {
        fprintf(out, "null");
    }
    fprintf(out, ", \"kept_end\": %" PRIu64, r->kept_end);
    if (r->input_bytes >= 0)
        fprintf(out, ", \"input_bytes\": %" PRId64 ", \"bytes_lost\": %" PRIu64, r->input_bytes,
                bytes_lost(r));
    else
        fprintf(out, ", \"input_bytes\": null, \"bytes_lost\": null");
    fprintf(out, ", \"version\": ");
    json_string(out, iprof_model_version(m));
    fprintf(out, ", \"kept\": {\"types\": %zu, \"methods\": %zu", iprof_model_type_count(m),
            iprof_model_method_count(m));
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        fprintf(out, ", \"%s\": %zu", iprof_kind_name(k), iprof_model_entry_count(m, k));
    fprintf(out, "}, \"dropped\": {\"methods\": %zu", r->dropped_methods);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        fprintf(out, ", \"%s\": %zu", iprof_kind_name(k), r->dropped[k]);
    fprintf(out, "}, \"unread_dropped\": %zu, \"unread_first\": ", r->unread);
    if (r->unread_first)
        json_string(out, r->unread_first);
    else
        fprintf(out, "null");
    fprintf(out, "}\n");
}

/* A strict, salvaging reader (threaded: the tool's allocator is libc's). */
static iprof_reader *salvaging_reader(void)
{
    iprof_read_options opts = IPROF_READ_OPTIONS_INIT;
    iprof_reader *reader = NULL;
    opts.flags = IPROF_READ_STRICT | IPROF_READ_SALVAGE | IPROF_READ_THREADED;
    int rc = iprof_reader_new(&reader, &opts);
    if (rc != IPROF_OK)
        fprintf(stderr, "%s: cannot create a reader: %s\n", CMD, iprof_status_string(rc));
    return reader;
}

/* Load FILE, salvaging; report a failure. TOOL_EXIT_OK or the exit code. */
static int salvage(iprof_model **model, iprof_reader *reader, const char *file)
{
    iprof_source src = input_source(file);
    int rc = iprof_model_load(model, reader, &src);
    if (rc == IPROF_OK) {
        report_read_warnings(file, reader);
        return TOOL_EXIT_OK;
    }
    report_read(file, reader, rc); /* the diagnostics and the error */
    int code = exit_code_of(rc);
    if (code != TOOL_EXIT_INVALID)
        return code;
    report_plain(CMD, display_name(file),
                 "nothing to salvage: the damage comes before the version is read");
    return EXIT_NOTHING;
}

/* Drop what refers to the undefined (types or methods the damage cut off);
 * what went is the counts before minus after. */
static int prune_dangling(iprof_model *model, repair_report *r)
{
    size_t methods = iprof_model_method_count(model), entries[IPROF_KIND_COUNT];
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        entries[k] = iprof_model_entry_count(model, k);
    int rc = iprof_model_prune(model, IPROF_PRUNE_DANGLING);
    if (rc != IPROF_OK)
        return rc;
    r->dropped_methods = methods - iprof_model_method_count(model);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        r->dropped[k] = entries[k] - iprof_model_entry_count(model, k);
    return IPROF_OK;
}

static int run(const char *file, const char *out_path, int json, int drop_unknown)
{
    iprof_reader *reader = salvaging_reader();
    if (!reader)
        return TOOL_EXIT_USAGE;
    iprof_model *model = NULL;
    repair_report r;
    memset(&r, 0, sizeof r);
    int code = salvage(&model, reader, file);
    if (code == TOOL_EXIT_OK) {
        int rc = prune_dangling(model, &r);
        if (rc != IPROF_OK) {
            report_plain(CMD, display_name(file), "%s", iprof_status_string(rc));
            code = exit_code_of(rc);
        }
    }
    /* Keys iprof does not read: refused, as by every command that writes
     * a profile (OUT not written), or dropped and said in the report. */
    post_output o = {out_path, NULL, 0, 0, 0, 0, NULL, drop_unknown, display_name(file)};
    if (code == TOOL_EXIT_OK && post_check_unread(CMD, display_name(file), drop_unknown, model))
        code = EXIT_NOTHING;
    progress_bar bar;
    memset(&bar, 0, sizeof bar);
    /* Measured before the output is written: it may replace the input. */
    r.input_bytes = input_size(file);
    /* The report goes where the profile does not. */
    FILE *out = outfile_shares_stdout(out_path) ? stderr : stdout;
    if (code == TOOL_EXIT_OK)
        code = post_write(CMD, &o, model, &bar);
    if (code == TOOL_EXIT_OK) {
        r.file = display_name(file);
        iprof_read_result rr = read_result(reader);
        r.damage = rr.damage;
        r.kept_end = rr.kept_end;
        r.model = model;
        r.unread = iprof_model_unread_count(model, &r.unread_first);
        if (json)
            print_json(out, &r);
        else
            print_text(out, &r);
        code = finish_stdout(CMD, r.damage ? TOOL_EXIT_INVALID
                                  : r.unread ? TOOL_EXIT_DROPPED : TOOL_EXIT_OK);
    }
    iprof_model_free(model);
    iprof_reader_free(reader);
    return code;
}

int cmd_repair(int argc, char **argv)
{
    tool_args a;
    const char *file = NULL, *out = NULL;
    int json = 0, drop_unknown = 0, opt;
    args_init(&a, CMD, argc, argv);
    while ((opt = args_next(&a, repair_opts)) != ARGS_END) {
        switch (opt) {
        case ARGS_ERROR: return TOOL_EXIT_USAGE;
        case TOOL_OPT_HELP: return command_help(&repair_command);
        case TOOL_OPT_VERSION: return print_version();
        case OPT_OUT: out = a.value; break;
        case OPT_JSON: json = 1; break;
        case OPT_DROP_UNKNOWN: drop_unknown = 1; break;
        default:
            if (file)
                return usage_error(CMD, "only one FILE is allowed");
            file = a.value;
        }
    }
    if (!file)
        return usage_error(CMD, "no FILE given");
    if (!out)
        return usage_error(CMD, "no OUT given: -o OUT is required ('-': standard output)");
    return run(file, out, json, drop_unknown);
}
