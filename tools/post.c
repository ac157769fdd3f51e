/* Output of the post-processing subcommands: merge, convert, filter. */
#include <stdio.h>
#include <string.h>

#include <iprof/edit.h>

#include "outfile.h"
#include "post.h"

int post_known_version(const char *v)
{
    return strcmp(v, IPROF_FORMAT_0_2_0) == 0 || strcmp(v, IPROF_FORMAT_0_4_0) == 0 ||
           strcmp(v, IPROF_FORMAT_1_0_0) == 0 || strcmp(v, IPROF_FORMAT_1_1_0) == 0;
}

int post_version_has_instanceof(const char *version)
{
    unsigned long major = 0, minor = 0;
    return sscanf(version, "%lu.%lu", &major, &minor) == 2 && major == 1 && minor >= 1;
}

int post_check_instanceof(const char *cmd, const char *file, const post_output *o,
                          const iprof_model *model)
{
    const char *target = o->to ? o->to : iprof_model_version(model);
    if (o->drop || post_version_has_instanceof(target) ||
        iprof_model_entry_count(model, IPROF_KIND_INSTANCEOF) == 0)
        return TOOL_EXIT_OK;
    report_plain(cmd, display_name(file),
                 "has instanceof profiles, which version %s cannot hold "
                 "(use --drop-instanceof to drop them, or --to 1.1.0)", target);
    return TOOL_EXIT_INVALID;
}

int post_check_legacy(const char *cmd, const char *file, const char *target,
                      const iprof_model *model)
{
    if (strncmp(target, "0.2.", 4) != 0 ||
        iprof_model_entry_count(model, IPROF_KIND_SAMPLING) == 0)
        return TOOL_EXIT_OK;
    report_plain(cmd, display_name(file),
                 "has sampling profiles, which version %s cannot hold (write 1.x)", target);
    return TOOL_EXIT_INVALID;
}

/* Why a model has no canonical form, from the check's report. */
static void report_not_canonical(const char *cmd, const char *name, int rc,
                                 const iprof_error *err)
{
    const char *msg = error_info(err).message;
    if (strstr(msg, "unknown key")) /* the library's message names the key */
        report_plain(cmd, name, "cannot be put in canonical form: %s%s", msg,
                     " (--drop-unknown drops them)");
    else if (rc == IPROF_EDANGLING)
        report_plain(cmd, name, "cannot be put in canonical form: it refers to types or "
                                "methods it does not define");
    else
        report_plain(cmd, name, "cannot be put in canonical form: an entry breaks its "
                                "kind's rules (read it with 'iprof validate')");
}

int post_about_model(int rc)
{
    return rc == IPROF_ESCHEMA || rc == IPROF_EVERSION || rc == IPROF_EDANGLING ||
           rc == IPROF_ELIMIT;
}

int post_write(const char *cmd, const post_output *o, const iprof_model *model,
               progress_bar *bar)
{
    char label[128]; /* borrowed by the bar until progress_bar_end below */
    snprintf(label, sizeof label, "%s: writing", cmd);
    progress_bar_start(bar, label, 0);
    iprof_write_options opts = IPROF_WRITE_OPTIONS_INIT;
    iprof_writer *w = NULL;
    opts.format_version = o->to;
    opts.instanceof_key = o->iof_key;
    opts.flags = (o->pretty ? IPROF_WRITE_PRETTY : 0u) |
                 (o->drop ? IPROF_WRITE_DROP_INSTANCEOF : 0u) |
                 (o->lenient ? IPROF_WRITE_NO_VALIDATE : 0u) |
                 (o->canonical ? IPROF_WRITE_CANONICAL | IPROF_WRITE_THREADED : 0u) |
                 (o->drop_unknown ? IPROF_WRITE_DROP_UNKNOWN : 0u);
    fflush(stdout);
    iprof_sink sink = outfile_sink(o->path);
    int rc = iprof_writer_new(&w, &sink, &opts);
    if (rc == IPROF_OK)
        rc = iprof_writer_write_model(w, model);
    progress_bar_end(bar);
    const iprof_error *err = w ? iprof_writer_error(w) : NULL;
    if (rc != IPROF_OK && o->canonical && (rc == IPROF_EDANGLING || rc == IPROF_ESCHEMA)) {
        report_not_canonical(cmd, o->canonical, rc, err);
    } else if (rc != IPROF_OK) {
        const char *msg = error_info(err).message;
        if (!*msg)
            msg = iprof_status_string(rc);
        const char *out = outfile_is_stdout(o->path) ? "<stdout>" : o->path;
        const char *name = o->input && post_about_model(rc) ? o->input : out;
        char buf[4096];
        report_plain(cmd, name, "%s", name_once(buf, sizeof buf, msg, name));
    }
    iprof_writer_free(w);
    return exit_code_of(rc);
}

int post_check_unread(const char *cmd, const char *name, int drop, const iprof_model *model)
{
    size_t n = iprof_model_unread_count(model, NULL);
    if (!n || drop)
        return TOOL_EXIT_OK;
    report_plain(cmd, name,
                 "refused: the output would lack the keys of %zu element%s that iprof does "
                 "not read (--drop-unknown writes without them)",
                 n, n == 1 ? "" : "s");
    return TOOL_EXIT_INVALID;
}

size_t post_drop_unknown(const char *cmd, const char *name, iprof_model *model)
{
    const char *key, *json;
    size_t json_len, i;
    for (i = 0; iprof_model_unknown_at(model, i, &key, NULL, &json, &json_len) == 0; i++)
        report_plain(cmd, name, "dropped unknown key \"%s\" (%zu bytes)", key, json_len);
    iprof_model_remove_unknown(model, NULL, 0); /* every key */
    return i;
}

int post_dropped(const char *cmd, const char *name, const iprof_model *model,
                 size_t top_level_dropped)
{
    size_t n = iprof_model_unread_count(model, NULL);
    if (n)
        report_plain(cmd, name, "written without the keys of %zu element%s that iprof does "
                     "not read (--drop-unknown)", n, n == 1 ? "" : "s");
    return n || top_level_dropped ? TOOL_EXIT_DROPPED : TOOL_EXIT_OK;
}

const char *post_unknown_hint(const iprof_model *model)
{
    return strstr(error_info(iprof_model_error(model)).message, "unknown key")
               ? " (--drop-unknown drops them)"
               : "";
}

