/* iprof filter [--keep-package P]... [--drop-package P]... [--min-count N]
 *              [--top-percent X] [--kinds K,...] [--canonical] [--pretty]
 *              [--instanceof-key K] [--drop-unknown] FILE [-o OUT]
 *
 * Makes a profile smaller with iprof_model_filter (see iprof/transform.h
 * for the exact semantics): entries are dropped by kind, by the package
 * of their callee's declaring type, by a minimum total count and by a
 * share of each kind's total; dropped packages lose their methods and
 * types. What the options do not name stays, referenced or not: --prune
 * (iprof_model_prune) removes the methods and types nothing refers to. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iprof/transform.h>

#include "files.h"
#include "outfile.h"
#include "post.h"

#define CMD "iprof filter"

enum {
    OPT_OUT = 1, OPT_KEEP, OPT_DROP_PKG, OPT_MIN, OPT_TOP, OPT_KINDS, OPT_CANONICAL, OPT_PRETTY,
    OPT_IOF_KEY, OPT_DROP_UNKNOWN, OPT_PRUNE, OPT_MAX_DEPTH
};

static const tool_opt filter_opts[] = {
    {"keep-package", 0, "P", OPT_KEEP,
     "keep the entries whose callee (the first frame of the\n"
     "context) is a method of package P (repeatable); its\n"
     "callers stay, whatever their package; with\n"
     "--keep-package given, other entries go", NULL},
    {"drop-package", 0, "P", OPT_DROP_PKG,
     "take package P out of the file (repeatable): its\n"
     "methods, every entry that mentions one of them in\n"
     "any frame, callee or caller, and its types (but those\n"
     "a remaining method or record names)\n"
     "A package matches a type named P or P.something; of\n"
     "all matching --keep-package and --drop-package, the\n"
     "longest decides (a method's package is its declaring\n"
     "type's)", NULL},
    {"min-count", 0, "N", OPT_MIN, "drop entries whose total count is below N", NULL},
    {"top-percent", 0, "X", OPT_TOP,
     "keep, per kind, the hottest entries that make X% of\n"
     "the kind's total count (entries tied with the last one\n"
     "needed are kept too); 0 < X <= 100", NULL},
    {"kinds", 0, "K,...", OPT_KINDS,
     "keep only these kinds: callcount, conditional,\n"
     "virtualinvoke, monitor, sampling, instanceof (or their\n"
     "JSON keys, callCountProfiles, ..., instanceOfProfiles)",
     "callcount conditional virtualinvoke monitor sampling instanceof"},
    {"prune", 0, NULL, OPT_PRUNE,
     "drop the entries whose total count is 0 or less, as\n"
     "--min-count 1 does, then, last, the methods no entry\n"
     "mentions and the types nothing mentions", NULL},
    {"max-depth", 0, "N", OPT_MAX_DEPTH,
     "cut every context to its N innermost frames (N >= 1),\n"
     "combining the entries of a kind that then coincide", NULL},
    {"canonical", 0, NULL, OPT_CANONICAL, "write the canonical form (see 'iprof convert')", NULL},
    {"pretty", 0, NULL, OPT_PRETTY, "indent the output, one element per line", NULL},
    TOOL_OPT_INSTANCEOF_KEY(OPT_IOF_KEY),
    TOOL_OPT_DROP_UNKNOWN(OPT_DROP_UNKNOWN),
    {"output", 'o', "OUT", OPT_OUT,
     "write to OUT atomically (a name ending in .gz is\n"
     "written gzip-compressed); '-' or none: standard output", NULL},
    TOOL_OPT_END,
};

const tool_command filter_command = {
    .name = "filter",
    .synopsis = "[--keep-package P]... [--drop-package P]... [--min-count N]\n"
                "[--top-percent X] [--kinds K,...] [--prune] [--max-depth N]\n"
                "[--canonical] [--pretty]\n"
                "[--instanceof-key K] [--drop-unknown] FILE [-o OUT]",
    .brief = "[--keep-package P]... [--drop-package P]... [--min-count N]\n"
             "[--top-percent X] [--kinds K,...] [--prune] [--max-depth N]\n"
             "FILE [-o OUT]",
    .summary = "a smaller profile",
    .about = "Make a profile smaller: drop entries, and the methods and types of\n"
             "dropped packages. Everything the options do not name stays, referenced\n"
             "or not (without options the profile is copied); --prune removes the\n"
             "methods and types nothing refers to.",
    .opts = filter_opts,
    .notes = "Monitor entries have no method and are not judged by package. The steps\n"
             "run in the order kinds, packages, --min-count (and --prune), --top-percent,\n"
             "--max-depth, then --prune's removal of the unreferenced. With --prune or\n"
             "--max-depth the bytes of FILE and of the output are reported on standard\n"
             "error (when both are files). FILE '-' is standard input; a\n"
             "gzip-compressed FILE is read transparently.\n"
             "Exit status: 0 on success, 1 if FILE is invalid or cannot be written as\n"
             "asked, 2 on usage or I/O errors, 4 if written without keys --drop-unknown\n"
             "dropped.",
    .run = cmd_filter,
};
static const struct {
    const char *name;
    int kind;
} kind_names[] = {
    {"callcount", IPROF_KIND_CALL_COUNT},        {"conditional", IPROF_KIND_CONDITIONAL},
    {"virtualinvoke", IPROF_KIND_VIRTUAL_INVOKE}, {"virtual", IPROF_KIND_VIRTUAL_INVOKE},
    {"monitor", IPROF_KIND_MONITOR},             {"sampling", IPROF_KIND_SAMPLING},
    {"instanceof", IPROF_KIND_INSTANCEOF},
};

/* The kind of a name of --kinds, or -1. */
static int kind_of(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof kind_names / sizeof kind_names[0]; i++)
        if (strlen(kind_names[i].name) == n && memcmp(kind_names[i].name, s, n) == 0)
            return kind_names[i].kind;
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        if (strlen(iprof_kind_name(k)) == n && memcmp(iprof_kind_name(k), s, n) == 0)
            return k;
    /* GraalVM's spelling of the instanceof key, as well as the document's. */
    const char *camel = IPROF_INSTANCEOF_KEY_CAMEL_NAME;
    return strlen(camel) == n && memcmp(camel, s, n) == 0 ? IPROF_KIND_INSTANCEOF : -1;
}

static int parse_kinds(const char *v, unsigned *mask)
{
    const char *p = v;
    for (;;) {
        size_t n = strcspn(p, ",");
        int k = kind_of(p, n);
        if (k < 0)
            return usage_error(CMD, "unknown kind '%.*s' in --kinds (callcount, conditional, "
                                    "virtualinvoke, monitor, sampling, instanceof)", (int)n, p);
        *mask |= IPROF_KIND_BIT(k);
        if (!p[n])
            return TOOL_EXIT_OK;
        p += n + 1;
    }
}

typedef struct filter_args {
    const char *file;
    post_output o;
    int canonical, drop_unknown, prune;
    iprof_filter_options f;
    const char **keep, **drop;
} filter_args;

static int push(const char ***list, size_t *n, const char *v)
{
    const char **nl = realloc(*list, (*n + 1) * sizeof *nl);
    if (!nl)
        return usage_error(CMD, "out of memory");
    nl[(*n)++] = v;
    *list = nl;
    return TOOL_EXIT_OK;
}

static int parse(filter_args *c, int argc, char **argv, int *done)
{
    tool_args a;
    int opt, code;
    char *end;
    *done = 1;
    args_init(&a, CMD, argc, argv);
    while ((opt = args_next(&a, filter_opts)) != ARGS_END) {
        switch (opt) {
        case ARGS_ERROR: return TOOL_EXIT_USAGE;
        case TOOL_OPT_HELP: return command_help(&filter_command);
        case TOOL_OPT_VERSION: return print_version();
        case OPT_OUT: c->o.path = a.value; break;
        case OPT_CANONICAL: c->canonical = 1; break;
        case OPT_PRETTY: c->o.pretty = 1; break;
        case OPT_DROP_UNKNOWN: c->drop_unknown = 1; break;
        case OPT_IOF_KEY:
            if ((c->o.iof_key = parse_instanceof_key(CMD, a.value)) < 0)
                return TOOL_EXIT_USAGE;
            break;
        case OPT_KEEP:
            if ((code = push(&c->keep, &c->f.keep_package_count, a.value)))
                return code;
            break;
        case OPT_DROP_PKG:
            if ((code = push(&c->drop, &c->f.drop_package_count, a.value)))
                return code;
            break;
        case OPT_MIN: {
            errno = 0;
            long long n = strtoll(a.value, &end, 10);
            if (!*a.value || *end || errno || n < 0)
                return usage_error(CMD, "bad --min-count '%s': an integer >= 0 is needed",
                                   a.value);
            c->f.min_count = (int64_t)n;
            break;
        }
        case OPT_TOP: {
            errno = 0;
            double x = strtod(a.value, &end);
            if (!*a.value || *end || errno || !isfinite(x) || x <= 0 || x > 100)
                return usage_error(CMD, "bad --top-percent '%s': a number in (0, 100] is "
                                        "needed", a.value);
            c->f.top_percent = x;
            break;
        }
        case OPT_KINDS:
            if ((code = parse_kinds(a.value, &c->f.kinds)))
                return code;
            break;
        case OPT_PRUNE: c->prune = 1; break;
        case OPT_MAX_DEPTH: {
            errno = 0;
            unsigned long long n = strtoull(a.value, &end, 10);
            if (!*a.value || *a.value == '-' || *end || errno || n < 1 || n > SIZE_MAX)
                return usage_error(CMD, "bad --max-depth '%s': an integer >= 1 is needed",
                                   a.value);
            c->f.max_depth = (size_t)n;
            break;
        }
        default:
            if (c->file)
                return usage_error(CMD, "only one FILE is allowed");
            c->file = a.value;
        }
    }
    if (!c->file)
        return usage_error(CMD, "no FILE given");
    c->f.keep_packages = c->keep;
    c->f.drop_packages = c->drop;
    if (c->prune && c->f.min_count < 1)
        c->f.min_count = 1; /* counts are >= 0: below 1 is 0 */
    *done = 0;
    return TOOL_EXIT_OK;
}

/* ---- what --prune and --max-depth saved ---- */

/* The size of FILE ("-": standard input) when it is a regular file, else -1. */
static long long file_bytes(const char *file)
{
    if (strcmp(file, "-") == 0)
        return files_fd_size(0);
    FILE *f = files_open(file, "rb");
    long long size = f ? files_fd_size(fileno(f)) : -1;
    if (f)
        fclose(f);
    return size;
}

/* Whether a regular file starts with gzip's magic (read without moving
 * a shared offset: standard input may be the file). */
static int gzip_file(const char *file)
{
    int owned = strcmp(file, "-") != 0;
    FILE *f = owned ? files_open(file, "rb") : NULL;
    unsigned char m[2] = {0, 0};
    int64_t n = !owned ? files_fd_peek(0, m, 2) : f ? (int64_t)fread(m, 1, 2, f) : -1;
    if (f)
        fclose(f);
    return n == 2 && m[0] == 0x1f && m[1] == 0x8b;
}

/* Where the output starts: 0 for a file, the offset of standard output
 * (by any name) when it is a regular file, else -1. */
static long long output_offset(const post_output *o)
{
    if (!outfile_shares_stdout(o->path))
        return 0;
    int64_t size = files_fd_size(1);
    if (size < 0)
        return -1;
    if (files_fd_appends(1)) /* written at the end, wherever the offset is */
        return (long long)size;
    off_t at = lseek(1, 0, SEEK_CUR);
    return at < 0 ? -1 : (long long)at;
}

static void report_sizes(const char *file, long long before, long long start,
                         const post_output *o)
{
    long long after = -1;
    if (start >= 0 && !outfile_shares_stdout(o->path)) {
        after = file_bytes(o->path);
    } else if (start >= 0) {
        off_t at = lseek(1, 0, SEEK_CUR);
        after = at < 0 ? -1 : (long long)at - start;
    }
    if (before <= 0 || after < 0)
        return; /* a pipe on either side: nothing to compare */
    /* Compressed bytes against text would say nothing of what was cut. */
    if (gzip_file(file) != (!outfile_shares_stdout(o->path) && gzip_file(o->path)))
        return;
    report_plain(CMD, display_name(file), "%lld -> %lld bytes (%+.1f%%)", before, after,
                 100.0 * ((double)after - (double)before) / (double)before);
}

int cmd_filter(int argc, char **argv)
{
    filter_args c;
    memset(&c, 0, sizeof c);
    iprof_filter_options init = IPROF_FILTER_OPTIONS_INIT;
    c.f = init;
    c.o.lenient = 1;
    int done, code = parse(&c, argc, argv, &done);
    if (done) {
        free(c.keep);
        free(c.drop);
        return code;
    }
    progress_bar bar;
    memset(&bar, 0, sizeof bar);
    char label[300];
    snprintf(label, sizeof label, "%s: reading %s", CMD, display_name(c.file));
    iprof_reader *reader = open_reader(CMD, 0);
    iprof_model *model = NULL;
    code = reader ? progress_load_model(&bar, label, &model, reader, c.file) : TOOL_EXIT_USAGE;
    if (code == TOOL_EXIT_OK)
        code = post_check_unread(CMD, display_name(c.file), c.drop_unknown, model);
    size_t top_level_dropped = 0;
    if (code == TOOL_EXIT_OK && c.drop_unknown) /* first: then pruning is free to go on */
        top_level_dropped = post_drop_unknown(CMD, display_name(c.file), model);
    c.o.drop_unknown = c.drop_unknown;
    c.o.input = display_name(c.file);
    if (code == TOOL_EXIT_OK) {
        progress_bar_start(&bar, CMD ": filtering", 0);
        int rc = iprof_model_filter(model, &c.f);
        if (rc == IPROF_OK && c.prune)
            rc = iprof_model_prune(model, IPROF_PRUNE_METHODS | IPROF_PRUNE_TYPES);
        progress_bar_end(&bar);
        if (rc != IPROF_OK)
            report_plain(CMD, display_name(c.file), "cannot filter: %s",
                         iprof_status_string(rc));
        code = exit_code_of(rc);
    }
    if (c.canonical) /* written so: the model is not changed, nor copied */
        c.o.canonical = display_name(c.file);
    long long before = file_bytes(c.file), start = output_offset(&c.o);
    if (code == TOOL_EXIT_OK)
        code = post_write(CMD, &c.o, model, &bar);
    if (code == TOOL_EXIT_OK && (c.prune || c.f.max_depth))
        report_sizes(c.file, before, start, &c.o);
    progress_bar_end(&bar);
    if (code == TOOL_EXIT_OK)
        code = post_dropped(CMD, display_name(c.file), model, top_level_dropped);
    iprof_model_free(model);
    iprof_reader_free(reader);
    free(c.keep);
    free(c.drop);
    return code;
}
