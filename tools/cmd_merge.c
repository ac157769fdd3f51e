/* iprof merge [-o OUT] [--weight FILE=W]... [--pretty] FILE|DIR...
 *
 * Merges profiles as native-image-configure merge-pgo-profiles does
 * (iprof_model_merge: types by name, methods by key, counts summed),
 * streaming: each input is merged into the result as it is read
 * (iprof_model_merge_source), so memory grows with the merged result,
 * not with the inputs.
 * A DIR stands for its *.iprof and *.iprof.gz files (not recursive). The
 * result is written in canonical form (IPROF_WRITE_CANONICAL) and in
 * the highest format version of the inputs, so it is the same bytes for
 * any order of the inputs. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "outfile.h"
#include "post.h"

#define CMD "iprof merge"

enum { OPT_OUT = 1, OPT_WEIGHT, OPT_PRETTY, OPT_STRICT, OPT_IOF_KEY, OPT_DROP_UNKNOWN };

static const tool_opt merge_opts[] = {
    {"output", 'o', "OUT", OPT_OUT,
     "write to OUT atomically (a name ending in .gz is\n"
     "written gzip-compressed); '-' or none: standard output", NULL},
    {"weight", 'w', "FILE=W", OPT_WEIGHT,
     "multiply the counts of FILE by W (a number >= 0,\n"
     "rounded to the nearest integer count); FILE is an\n"
     "input as given, or a DIR for every file in it", NULL},
    {"pretty", 0, NULL, OPT_PRETTY, "indent the output, one element per line", NULL},
    {"strict", 0, NULL, OPT_STRICT, "read the inputs in strict mode", NULL},
    TOOL_OPT_INSTANCEOF_KEY(OPT_IOF_KEY),
    TOOL_OPT_DROP_UNKNOWN(OPT_DROP_UNKNOWN),
    TOOL_OPT_END,
};

const tool_command merge_command = {
    .name = "merge",
    .synopsis = "[-o OUT] [--weight FILE=W]... [--pretty] [--strict]\n"
                "[--instanceof-key K] [--drop-unknown] FILE|DIR...",
    .brief = "[-o OUT] [--weight FILE=W]... FILE|DIR...",
    .summary = "merge profiles (canonical, order-independent)",
    .about = "Merge profiles into one, as native-image-configure merge-pgo-profiles does:\n"
             "types by name, methods by name and signature, counts summed.",
    .opts = merge_opts,
    .notes = "A DIR stands for its *.iprof and *.iprof.gz files but OUT; FILE '-' is\n"
             "standard input; .gz inputs are read transparently. Each input is merged\n"
             "into the result as it is read (no copy of it is held). The result is\n"
             "written in canonical form (see 'iprof convert --canonical') and the highest\n"
             "format version of the inputs, so the same inputs in any order give the\n"
             "same bytes.\n"
             "\n"
             "Exit status: 0 on success, 1 if an input is invalid or cannot be merged,\n"
             "2 on usage or I/O errors, 4 if written without keys --drop-unknown dropped.",
    .run = cmd_merge,
};
typedef struct weight {
    const char *name; /* FILE of FILE=W, NUL-terminated copy */
    double w;
    int used;
} weight;

typedef struct input {
    char *path;       /* malloc'd */
    const char *from; /* the operand it came from (DIR for directory members) */
} input;

typedef struct merge_args {
    const char *out;
    int pretty, strict, drop_unknown, iof_key;
    size_t top_level_dropped; /* unknown top-level keys --drop-unknown dropped */
    weight *weights;
    size_t nweights;
    input *inputs;
    size_t ninputs, cap;
    const char *iof_from; /* the first input that brought instanceof entries */
} merge_args;

static void free_args(merge_args *m)
{
    for (size_t i = 0; i < m->nweights; i++)
        free((char *)m->weights[i].name);
    free(m->weights);
    for (size_t i = 0; i < m->ninputs; i++)
        free(m->inputs[i].path);
    free(m->inputs);
}

static int add_input(merge_args *m, const char *path, const char *from)
{
    if (m->ninputs == m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 16;
        input *n = realloc(m->inputs, ncap * sizeof *n);
        if (!n)
            return -1;
        m->inputs = n;
        m->cap = ncap;
    }
    char *p = strdup(path);
    if (!p)
        return -1;
    m->inputs[m->ninputs++] = (input){p, from};
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcmp(s + n - k, suffix) == 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.iprof and *.iprof.gz regular files of DIR, by name. */
static int add_dir(merge_args *m, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        report_plain(CMD, dir, "cannot read the directory: %s", strerror(errno));
        return TOOL_EXIT_USAGE;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    int code = TOOL_EXIT_OK;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' ||
            !(ends_with(e->d_name, ".iprof") || ends_with(e->d_name, ".iprof.gz")))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) {
                code = TOOL_EXIT_USAGE;
                break;
            }
            names = nn;
        }
        if (!(names[n] = strdup(e->d_name))) {
            code = TOOL_EXIT_USAGE;
            break;
        }
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    size_t dl = strlen(dir);
    int slash = dl && dir[dl - 1] == '/';
    size_t found = 0;
    for (size_t i = 0; i < n; i++) {
        char *path = malloc(dl + strlen(names[i]) + 2);
        struct stat st;
        if (!path) {
            code = TOOL_EXIT_USAGE;
        } else {
            sprintf(path, "%s%s%s", dir, slash ? "" : "/", names[i]);
            if (code == TOOL_EXIT_OK && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                if (add_input(m, path, dir))
                    code = TOOL_EXIT_USAGE;
                found++;
            }
        }
        free(path);
        free(names[i]);
    }
    free(names);
    if (code != TOOL_EXIT_OK)
        report_plain(CMD, dir, "out of memory");
    else if (!found) {
        report_plain(CMD, dir, "no *.iprof or *.iprof.gz file in the directory");
        code = TOOL_EXIT_USAGE;
    }
    return code;
}

static int add_weight(merge_args *m, const char *spec)
{
    const char *eq = strrchr(spec, '=');
    if (!eq || eq == spec)
        return usage_error(CMD, "--weight needs FILE=W, not '%s'", spec);
    char *end;
    errno = 0;
    double w = strtod(eq + 1, &end);
    /* A decimal number: strtod also reads hexadecimal ("0x10"). */
    if (!eq[1] || *end || errno || !isfinite(w) || w < 0 ||
        strspn(eq + 1, "0123456789.eE+-") != strlen(eq + 1))
        return usage_error(CMD, "bad weight '%s': a number >= 0 is needed", eq + 1);
    weight *n = realloc(m->weights, (m->nweights + 1) * sizeof *n);
    if (!n)
        return usage_error(CMD, "out of memory");
    m->weights = n;
    char *name = malloc((size_t)(eq - spec) + 1);
    if (!name)
        return usage_error(CMD, "out of memory");
    memcpy(name, spec, (size_t)(eq - spec));
    name[eq - spec] = '\0';
    m->weights[m->nweights++] = (weight){name, w, 0};
    return TOOL_EXIT_OK;
}

/* The weight of an input: one naming it exactly, else one naming its
 * directory, else 1 (the last --weight of a name wins). */
static double weight_of(merge_args *m, const input *in)
{
    weight *best = NULL;
    for (size_t i = 0; i < m->nweights; i++)
        if (strcmp(m->weights[i].name, in->path) == 0)
            best = &m->weights[i];
    for (size_t i = 0; !best && i < m->nweights; i++)
        if (strcmp(m->weights[i].name, in->from) == 0)
            best = &m->weights[i];
    for (size_t i = 0; i < m->nweights; i++)
        if (strcmp(m->weights[i].name, in->path) == 0 ||
            strcmp(m->weights[i].name, in->from) == 0)
            m->weights[i].used = 1;
    return best ? best->w : 1.0;
}

/* OUT found in a DIR operand is last run's result: merging it again would
 * count its inputs twice, so it is left out (named on stderr). A FILE
 * operand naming OUT is merged, as asked. */
static void skip_output(merge_args *m)
{
    struct stat out, st;
    if (outfile_is_stdout(m->out) || stat(m->out, &out) != 0)
        return;
    size_t kept = 0;
    for (size_t i = 0; i < m->ninputs; i++) {
        input *in = &m->inputs[i];
        if (strcmp(in->from, in->path) != 0 && /* a DIR's member */
            stat(in->path, &st) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino) {
            fprintf(stderr, "%s: %s: not merged: it is the output (-o)\n", CMD, in->path);
            free(in->path);
            continue;
        }
        m->inputs[kept++] = *in;
    }
    m->ninputs = kept;
}

static int parse(merge_args *m, int argc, char **argv, int *done)
{
    tool_args a;
    int opt, stdin_seen = 0, code;
    *done = 1;
    args_init(&a, CMD, argc, argv);
    while ((opt = args_next(&a, merge_opts)) != ARGS_END) {
        switch (opt) {
        case ARGS_ERROR: return TOOL_EXIT_USAGE;
        case TOOL_OPT_HELP: return command_help(&merge_command);
        case TOOL_OPT_VERSION: return print_version();
        case OPT_OUT: m->out = a.value; break;
        case OPT_PRETTY: m->pretty = 1; break;
        case OPT_STRICT: m->strict = 1; break;
        case OPT_DROP_UNKNOWN: m->drop_unknown = 1; break;
        case OPT_IOF_KEY:
            if ((m->iof_key = parse_instanceof_key(CMD, a.value)) < 0)
                return TOOL_EXIT_USAGE;
            break;
        case OPT_WEIGHT:
            if ((code = add_weight(m, a.value)))
                return code;
            break;
        default: {
            struct stat st;
            if (strcmp(a.value, "-") == 0) {
                if (stdin_seen++)
                    return usage_error(CMD, "standard input ('-') can be read only once");
            } else if (stat(a.value, &st) == 0 && S_ISDIR(st.st_mode)) {
                if ((code = add_dir(m, a.value)))
                    return code;
                break;
            }
            if (add_input(m, a.value, a.value))
                return usage_error(CMD, "out of memory");
        }
        }
    }
    if (!m->ninputs)
        return usage_error(CMD, "no FILE or DIR given");
    skip_output(m);
    if (!m->ninputs)
        return usage_error(CMD, "no input left: the only file is the output (-o)");
    for (size_t i = 0; i < m->ninputs; i++)
        weight_of(m, &m->inputs[i]);
    for (size_t i = 0; i < m->nweights; i++)
        if (!m->weights[i].used)
            return usage_error(CMD, "--weight names no input: '%s'", m->weights[i].name);
    *done = 0;
    return TOOL_EXIT_OK;
}

/* Why the merge of an input failed (not its read: progress.c said that). */
static void report_merge_failure(const input *in, const iprof_model *acc, int rc,
                                 const iprof_reader *reader)
{
    if (rc == IPROF_EDANGLING) {
        /* The merge names the first reference still unresolved at the end;
         * the lenient read kept where each one is. */
        size_t n = read_result(reader).diag_count, shown = 0;
        for (size_t i = 0; i < n && shown < 3; i++) {
            const iprof_error *d = iprof_reader_diag(reader, i);
            if (error_info(d).status == IPROF_EDANGLING) {
                report_error(in->path, d);
                shown++;
            }
        }
    }
    const char *msg = error_info(iprof_model_error(acc)).message;
    if (rc == IPROF_EDANGLING)
        report_plain(CMD, display_name(in->path),
                     "refers to types or methods it does not define (%s); cannot merge it", msg);
    else
        report_plain(CMD, display_name(in->path), "cannot merge: %s%s", msg,
                     post_unknown_hint(acc));
}

/* With --drop-unknown each input is loaded, so that the keys it drops can
 * be named, and then merged. */
static int merge_loaded(merge_args *m, const input *in, iprof_reader *reader, iprof_model *acc,
                        progress_bar *bar, const char *label)
{
    iprof_model *src = NULL;
    int code = progress_load_model(bar, label, &src, reader, in->path);
    if (code != TOOL_EXIT_OK)
        return code;
    m->top_level_dropped += post_drop_unknown(CMD, display_name(in->path), src);
    iprof_merge_options opts = IPROF_MERGE_OPTIONS_INIT;
    opts.weight = weight_of(m, in);
    opts.flags = IPROF_MERGE_THREADED;
    int rc = iprof_model_merge(acc, src, &opts);
    if (rc != IPROF_OK) {
        progress_bar_end(bar);
        report_merge_failure(in, acc, rc, reader);
    }
    iprof_model_free(src);
    return exit_code_of(rc);
}

/* Otherwise each input streams into the result (no model of it exists),
 * read on one thread and merged on another. */
static int merge_streamed(merge_args *m, const input *in, iprof_reader *reader, iprof_model *acc,
                          progress_bar *bar, const char *label)
{
    iprof_merge_options opts = IPROF_MERGE_OPTIONS_INIT;
    opts.weight = weight_of(m, in);
    int read_failed;
    int rc = progress_merge_model(bar, label, acc, reader, in->path, &opts, &read_failed);
    if (rc != IPROF_OK && !read_failed)
        report_merge_failure(in, acc, rc, reader);
    return exit_code_of(rc);
}

static int merge_all(merge_args *m, iprof_model *acc, progress_bar *bar)
{
    iprof_reader *reader = open_reader(CMD, m->strict);
    if (!reader)
        return TOOL_EXIT_USAGE;
    char label[300];
    int code = TOOL_EXIT_OK;
    for (size_t i = 0; i < m->ninputs && code == TOOL_EXIT_OK; i++) {
        const input *in = &m->inputs[i];
        snprintf(label, sizeof label, "%s: merging %s (%zu/%zu)", CMD, display_name(in->path),
                 i + 1, m->ninputs);
        size_t iof = iprof_model_entry_count(acc, IPROF_KIND_INSTANCEOF);
        code = m->drop_unknown ? merge_loaded(m, in, reader, acc, bar, label)
                               : merge_streamed(m, in, reader, acc, bar, label);
        if (!m->iof_from && iprof_model_entry_count(acc, IPROF_KIND_INSTANCEOF) > iof)
            m->iof_from = in->path;
        /* Keys the result cannot hold: refused at the first input that
         * has them, naming it, not after every other input. */
        if (code == TOOL_EXIT_OK && !m->drop_unknown) {
            progress_bar_end(bar);
            code = post_check_unread(CMD, display_name(in->path), 0, acc);
        }
    }
    iprof_reader_free(reader);
    return code; /* the merged model has the highest input version */
}

/* Instanceof entries that the result's version (the highest of the
 * inputs') has no place for: refused, naming the input they came from (a
 * lenient read keeps them in a version without them). */
static int check_instanceof(const merge_args *m, const iprof_model *acc)
{
    const char *v = iprof_model_version(acc);
    if (!m->iof_from || post_version_has_instanceof(v))
        return TOOL_EXIT_OK;
    report_plain(CMD, display_name(m->iof_from),
                 "has instanceof profiles, which version %s (the highest of the inputs) cannot "
                 "hold ('iprof convert --to 1.1.0' it first)", v);
    return TOOL_EXIT_INVALID;
}

int cmd_merge(int argc, char **argv)
{
    merge_args m;
    memset(&m, 0, sizeof m);
    int done, code = parse(&m, argc, argv, &done);
    if (done) {
        free_args(&m);
        return code;
    }
    progress_bar bar;
    memset(&bar, 0, sizeof bar);
    iprof_model *acc = NULL;
    if (iprof_model_new(&acc, NULL) != IPROF_OK) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        free_args(&m);
        return TOOL_EXIT_USAGE;
    }
    code = merge_all(&m, acc, &bar);
    if (code == TOOL_EXIT_OK) {
        /* Written in canonical form: the result is not copied to sort it. */
        post_output o = {m.out,    NULL, m.pretty,       0,         0,
                         m.iof_key, "<merged>", m.drop_unknown, "<merged>"};
        /* Without --drop-unknown every input was checked as it came. */
        code = check_instanceof(&m, acc);
        if (code == TOOL_EXIT_OK)
            code = post_write(CMD, &o, acc, &bar);
    }
    progress_bar_end(&bar);
    if (code == TOOL_EXIT_OK)
        code = post_dropped(CMD, m.out && strcmp(m.out, "-") != 0 ? m.out : "<stdout>", acc,
                            m.top_level_dropped);
    iprof_model_free(acc);
    free_args(&m);
    return code;
}
