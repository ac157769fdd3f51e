/* iprof export --format firefox: the Firefox Profiler's processed profile
 * format (../shared/spec/firefox-profiler-format.md; the type definitions
 * are src/types/profile.js of the Firefox Profiler), serialised as the
 * profiler saves it: meta.preprocessedProfileVersion 48, meta.version 29
 * (Gecko), one thread whose string table is serialised as "stringArray".
 *
 *   funcTable   one function per method: name "Type.name"
 *   frameTable  one frame per (method, bci): func, line = the bci
 *   stackTable  the stack tree: frame, prefix (the caller's stack, always
 *               a smaller index, null for a root), category
 *   samples     one sample per distinct stack with its count as weight
 *               (weightType "samples"), time = the sample's index in ms
 *   categories  one per top-level package of the declaring type ("java",
 *               "com", ...; "(default)" for a type without a package,
 *               "(unknown)" for a method the file does not define),
 *               sorted by name, each with the single subcategory "Other"
 *               (a profile without stacks has the one category "Other").
 */
#include <stdlib.h>
#include <string.h>

#include "stacks.h"

static const char *const colors[] = {
    "blue", "green", "orange", "purple", "yellow", "lightblue", "red", "brown", "magenta",
    "grey", "lightred", "darkgray",
};

typedef struct ff_work {
    char **packages;       /* distinct, sorted (malloc'd strings) */
    size_t package_count;
    size_t *func_cat;      /* func -> category */
    size_t *node_frame;    /* node -> frame */
    size_t *frame_node;    /* frame -> first node with it */
    size_t frame_count;
} ff_work;

/* The top-level package of a method's declaring type (malloc'd). */
static char *package_of(const iprof_model *model, int64_t method)
{
    const iprof_method *m = iprof_model_method_by_id(model, method);
    size_t n = 0, len = 0;
    const int64_t *sig = m ? iprof_method_signature(m, &n) : NULL;
    const iprof_type *type = n ? iprof_model_type_by_id(model, sig[0]) : NULL;
    const char *name = type ? iprof_type_name(type, &len) : NULL;
    if (name && len && name[0] == '[') { /* an array: its element type */
        while (len && name[0] == '[')
            name++, len--;
        if (len && name[0] == 'L')
            name++, len--;
    }
    const char *dot = name ? memchr(name, '.', len) : NULL;
    const char *text = !m ? "(unknown)" : !dot || dot == name ? "(default)" : name;
    size_t tlen = dot && dot != name ? (size_t)(dot - name) : strlen(text);
    char *s = malloc(tlen + 1);
    if (s) {
        memcpy(s, text, tlen);
        s[tlen] = '\0';
    }
    return s;
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void work_free(ff_work *w)
{
    for (size_t i = 0; i < w->package_count; i++)
        free(w->packages[i]);
    free(w->packages);
    free(w->func_cat);
    free(w->node_frame);
    free(w->frame_node);
}

static int categories(ff_work *w, const stack_tree *t)
{
    char **names = calloc(t->func_count ? t->func_count : 1, sizeof *names);
    w->func_cat = malloc((t->func_count ? t->func_count : 1) * sizeof *w->func_cat);
    w->packages = calloc(t->func_count ? t->func_count : 1, sizeof *w->packages);
    if (!names || !w->func_cat || !w->packages) {
        free(names);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < t->func_count && rc == 0; i++)
        if (!(names[i] = package_of(t->model, t->funcs[i].method)))
            rc = -1;
    if (rc == 0) {
        /* The distinct names, sorted; then each func's index among them. */
        memcpy(w->packages, names, t->func_count * sizeof *names);
        if (t->func_count > 1)
            qsort(w->packages, t->func_count, sizeof *w->packages, by_string);
        size_t k = 0;
        for (size_t i = 0; i < t->func_count; i++)
            if (k == 0 || strcmp(w->packages[k - 1], w->packages[i]) != 0)
                w->packages[k++] = w->packages[i];
        w->package_count = k;
        for (size_t i = 0; i < t->func_count; i++) {
            char **hit = bsearch(&names[i], w->packages, k, sizeof *w->packages, by_string);
            w->func_cat[i] = (size_t)(hit - w->packages);
        }
        /* Keep one copy of each distinct name. */
        for (size_t i = 0; i < t->func_count; i++)
            if (names[i] != w->packages[w->func_cat[i]])
                free(names[i]);
    } else {
        for (size_t i = 0; i < t->func_count; i++)
            free(names[i]);
        memset(w->packages, 0, t->func_count * sizeof *w->packages);
    }
    free(names);
    return rc;
}

/* Frames: one per distinct (method, bci), numbered in order of first use. */
static uint64_t frame_hash(const stack_node *node)
{
    return hash_word((uint64_t)node->method * 0x9e3779b97f4a7c15ULL ^ (uint64_t)node->bci);
}

typedef struct frame_ctx {
    const ff_work *w;
    const stack_tree *t;
} frame_ctx;

static uint64_t frame_hash_at(size_t frame, const void *ctx)
{
    const frame_ctx *c = ctx;
    return frame_hash(&c->t->nodes[c->w->frame_node[frame]]);
}

static int frames(ff_work *w, const stack_tree *t)
{
    size_t n = t->count ? t->count : 1;
    index_table index = {NULL, 0, 0};
    frame_ctx ctx = {w, t};
    w->node_frame = malloc(n * sizeof *w->node_frame);
    w->frame_node = malloc(n * sizeof *w->frame_node);
    if (!w->node_frame || !w->frame_node)
        return -1;
    for (size_t i = 0; i < t->count; i++) {
        const stack_node *node = &t->nodes[i];
        if (index_table_reserve(&index, frame_hash_at, &ctx)) {
            index_table_free(&index);
            return -1;
        }
        size_t s = index_first(&index, frame_hash(node));
        for (; index.slots[s]; s = index_next(&index, s)) {
            const stack_node *o = &t->nodes[w->frame_node[index.slots[s] - 1]];
            if (o->method == node->method && o->bci == node->bci)
                break;
        }
        if (!index.slots[s]) {
            w->frame_node[w->frame_count++] = i;
            index_put(&index, s);
        }
        w->node_frame[i] = index.slots[s] - 1;
    }
    index_table_free(&index);
    return 0;
}

/* A JSON array of @p n copies of a literal. */
static void repeat(FILE *out, const char *key, const char *value, size_t n)
{
    fprintf(out, "\"%s\":[", key);
    for (size_t i = 0; i < n; i++)
        fprintf(out, i ? ",%s" : "%s", value);
    fputs("],", out);
}

static void write_meta(FILE *out, const ff_work *w, const char *name)
{
    fputs("\"meta\":{\"version\":29,\"preprocessedProfileVersion\":48,\"interval\":1,"
          "\"startTime\":0,\"processType\":0,\"stackwalk\":0,\"debug\":false,"
          "\"product\":", out);
    json_string(out, name);
    fprintf(out, ",\"importedFrom\":\"iprof (libiprof) %s\",\"categories\":[",
            iprof_version_string());
    for (size_t i = 0; i < w->package_count; i++) {
        fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
        json_string(out, w->packages[i]);
        fprintf(out, ",\"color\":\"%s\",\"subcategories\":[\"Other\"]}",
                colors[i % (sizeof colors / sizeof colors[0])]);
    }
    if (!w->package_count) /* no stacks: the profiler still wants a category */
        fputs("{\"name\":\"Other\",\"color\":\"grey\",\"subcategories\":[\"Other\"]}", out);
    fputs("],\"markerSchema\":[],\"sampleUnits\":null,\"symbolicated\":true,"
          "\"symbolicationNotSupported\":true,\"usesOnlyOneStackType\":true,"
          "\"doesNotUseFrameImplementation\":true,\"sourceCodeIsNotOnSearchfox\":true,"
          "\"initialVisibleThreads\":[0],\"initialSelectedThreads\":[0],"
          "\"keepProfileThreadOrder\":true},\n", out);
}

static void write_thread(FILE *out, const stack_tree *t, const ff_work *w, const char *name)
{
    size_t nf = t->func_count, nfr = w->frame_count, ns = t->count, nsamples = 0;
    for (size_t i = 0; i < ns; i++)
        nsamples += t->nodes[i].self != 0;
    fprintf(out, "\"threads\":[{\"name\":\"%s\",\"processType\":\"default\",\"processName\":",
            t->kind == IPROF_KIND_SAMPLING ? "Samples" : "Call counts");
    json_string(out, name);
    fprintf(out, ",\"pid\":\"0\",\"tid\":0,\"isMainThread\":true,\"processStartupTime\":0,"
                 "\"processShutdownTime\":%zu,\"registerTime\":0,\"unregisterTime\":null,"
                 "\"pausedRanges\":[],\n", nsamples);
    fputs("\"markers\":{\"data\":[],\"name\":[],\"startTime\":[],\"endTime\":[],\"phase\":[],"
          "\"category\":[],\"length\":0},\n", out);
    /* samples */
    fputs("\"samples\":{\"stack\":[", out);
    size_t k = 0;
    for (size_t i = 0; i < ns; i++)
        if (t->nodes[i].self != 0)
            fprintf(out, k++ ? ",%zu" : "%zu", i);
    fputs("],\"time\":[", out);
    for (size_t i = 0; i < nsamples; i++)
        fprintf(out, i ? ",%zu" : "%zu", i);
    fputs("],\"weight\":[", out);
    k = 0;
    for (size_t i = 0; i < ns; i++)
        if (t->nodes[i].self != 0)
            fprintf(out, k++ ? ",%llu" : "%llu", (unsigned long long)t->nodes[i].self);
    fprintf(out, "],\"weightType\":\"samples\",\"length\":%zu},\n", nsamples);
    /* stackTable */
    fputs("\"stackTable\":{\"frame\":[", out);
    for (size_t i = 0; i < ns; i++)
        fprintf(out, i ? ",%zu" : "%zu", w->node_frame[i]);
    fputs("],\"category\":[", out);
    for (size_t i = 0; i < ns; i++)
        fprintf(out, i ? ",%zu" : "%zu", w->func_cat[t->nodes[i].func]);
    fputs("],", out);
    repeat(out, "subcategory", "0", ns);
    fputs("\"prefix\":[", out);
    for (size_t i = 0; i < ns; i++) {
        if (i)
            putc(',', out);
        if (t->nodes[i].parent == STACK_NONE)
            fputs("null", out);
        else
            fprintf(out, "%zu", t->nodes[i].parent);
    }
    fprintf(out, "],\"length\":%zu},\n", ns);
    /* frameTable */
    fputs("\"frameTable\":{", out);
    repeat(out, "address", "-1", nfr);
    repeat(out, "inlineDepth", "0", nfr);
    fputs("\"category\":[", out);
    for (size_t i = 0; i < nfr; i++)
        fprintf(out, i ? ",%zu" : "%zu", w->func_cat[t->nodes[w->frame_node[i]].func]);
    fputs("],", out);
    repeat(out, "subcategory", "0", nfr);
    fputs("\"func\":[", out);
    for (size_t i = 0; i < nfr; i++)
        fprintf(out, i ? ",%zu" : "%zu", t->nodes[w->frame_node[i]].func);
    fputs("],", out);
    repeat(out, "nativeSymbol", "null", nfr);
    repeat(out, "innerWindowID", "null", nfr);
    repeat(out, "implementation", "null", nfr);
    fputs("\"line\":[", out);
    for (size_t i = 0; i < nfr; i++)
        fprintf(out, i ? ",%lld" : "%lld", (long long)t->nodes[w->frame_node[i]].bci);
    fputs("],", out);
    repeat(out, "column", "null", nfr);
    fprintf(out, "\"length\":%zu},\n", nfr);
    /* funcTable */
    fputs("\"funcTable\":{\"name\":[", out);
    for (size_t i = 0; i < nf; i++)
        fprintf(out, i ? ",%zu" : "%zu", i);
    fputs("],", out);
    repeat(out, "isJS", "false", nf);
    repeat(out, "relevantForJS", "false", nf);
    repeat(out, "resource", "-1", nf);
    repeat(out, "fileName", "null", nf);
    repeat(out, "lineNumber", "null", nf);
    repeat(out, "columnNumber", "null", nf);
    fprintf(out, "\"length\":%zu},\n", nf);
    fputs("\"resourceTable\":{\"lib\":[],\"name\":[],\"host\":[],\"type\":[],\"length\":0},\n"
          "\"nativeSymbols\":{\"libIndex\":[],\"address\":[],\"name\":[],\"functionSize\":[],"
          "\"length\":0},\n", out);
    /* The string table: the function names, index = func index. */
    fputs("\"stringArray\":[", out);
    for (size_t i = 0; i < nf; i++) {
        fputs(i ? ",\n" : "\n", out);
        json_string(out, t->funcs[i].name);
    }
    fputs("]}]", out);
}

int export_firefox(FILE *out, const stack_tree *t, const char *name)
{
    ff_work w;
    memset(&w, 0, sizeof w);
    if (categories(&w, t) != 0 || frames(&w, t) != 0) {
        work_free(&w);
        return -1;
    }
    putc('{', out);
    write_meta(out, &w, name);
    fputs("\"libs\":[],\"pages\":[],\"counters\":[],\n", out);
    write_thread(out, t, &w, name);
    fputs("}\n", out);
    work_free(&w);
    return 0;
}
