/*
 * iprof-gen: a deterministic generator of large, realistic .iprof files for
 * the benchmarks.
 *
 *   iprof-gen --size 100M [--version 1.0.0] [--seed 1] -o FILE [--quiet]
 *
 * Sizes take K, M, G suffixes (powers of 1000). The output is GraalVM's exact
 * minified layout for the version (0.4.0, 1.0.0 or 1.1.0: key order, element
 * key order, empty sections written, no whitespace, no trailing newline) and
 * is a valid file (`iprof validate --strict`). Same arguments, same bytes.
 *
 * Distributions. Every shape parameter comes from the real profiles of
 * ../shared/corpus, measured by bench/corpus_stats.py and pasted into
 * bench/gen_tables.h (regenerate with `python3 bench/corpus_stats.py --c`):
 * section sizes as entries per method, type and method name shapes and
 * lengths, signature lengths, id gaps, context depths per kind, bcis
 * (including the negative -1/-4/-6 at their rates), conditional triples per
 * entry (up to 76, i.e. 228 values), virtual invoke pairs, monitor pairs and
 * the count histograms (some above 2^31). Things the corpus does not show are
 * marked ASSUMPTION below (1.1.0 instanceof profiles, the sampling depth tail
 * up to 50 frames that the corpus README reports, the vocabulary of names).
 *
 * Structure. Instrumented profiles are inlining trees: one compilation root
 * per unit, callees inlined at call-site bcis. The generator grows one random
 * tree per unit (children per node chosen so that the ctx depth histogram of
 * call-count entries matches the corpus) and emits a call-count entry per
 * node and conditional / virtual invoke / instanceof entries at nodes at the
 * per-depth rates of the corpus; entries of all kinds thus share caller
 * chains as real files do. Contexts are unique within a kind by construction
 * (distinct roots, distinct call bcis per parent), (bci, index) pairs and
 * type ids are unique within one entry's records and methods are unique by
 * (declaring type, name, signature): a loaded and rewritten file gives the
 * same bytes.
 *
 * Seeds. Names, signatures and tree shapes of 90% of the types, methods and
 * units come from a stream that does not depend on --seed; ids (gaps), counts
 * and the other 10% do. Files of one size and different seeds are thus like
 * profiles of one application from different runs: mostly the same names
 * under other ids, the same contexts with other counts (what merge sees).
 *
 * Size. The number of methods drives everything. A counting pass (no output)
 * measures the bytes for an estimate, the estimate is corrected, and the file
 * is written; the result is within about 1% of the request. The counts
 * depend on the size only, not on the seed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_tables.h"

/* ------------------------------------------------------------------------ */
/* PRNG: splitmix64 to seed xoshiro256**                                    */

typedef struct rng {
    uint64_t s[4];
} rng;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t mix3(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t x = a;
    uint64_t h = splitmix64(&x);
    x = h ^ b;
    h = splitmix64(&x);
    x = h ^ c;
    return splitmix64(&x);
}

static void rng_seed(rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n); n > 0. The modulo bias is far below what matters here. */
static uint64_t rng_below(rng *r, uint64_t n)
{
    return rng_next(r) % n;
}

static double rng_unit(rng *r)
{
    return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

static int rng_chance(rng *r, double p)
{
    return rng_unit(r) < p;
}

/* Geometric count with the given mean, capped. */
static unsigned rng_geometric(rng *r, double mean, unsigned cap)
{
    double p = mean / (1.0 + mean);
    unsigned k = 0;
    while (k < cap && rng_unit(r) < p)
        k++;
    return k;
}

/* ------------------------------------------------------------------------ */
/* Histograms                                                               */

#define DIST_MAX 80
typedef struct dist {
    uint64_t cum[DIST_MAX];
    size_t n;
} dist;

static void dist_init(dist *d, const uint32_t *w, size_t n)
{
    uint64_t c = 0;
    d->n = n;
    for (size_t i = 0; i < n; i++) {
        c += w[i];
        d->cum[i] = c;
    }
}

static size_t dist_pick(const dist *d, rng *r)
{
    uint64_t x = rng_below(r, d->cum[d->n - 1]);
    size_t i = 0;
    while (d->cum[i] <= x)
        i++;
    return i;
}

/* A value from a log2 bucket: 0 for bucket 0, else [2^(k-1), 2^k). */
static int64_t log2_value(rng *r, size_t k)
{
    if (k == 0)
        return 0;
    uint64_t lo = 1ull << (k - 1);
    return (int64_t)(lo + rng_below(r, lo));
}

/* ------------------------------------------------------------------------ */
/* Output: a buffer flushed to a FILE, or only counted                      */

typedef struct out {
    FILE *f; /* NULL: count only */
    char *buf;
    size_t len, cap;
    uint64_t total;
    int failed;
} out;

static void out_flush(out *o)
{
    if (o->f && o->len && fwrite(o->buf, 1, o->len, o->f) != o->len)
        o->failed = 1;
    o->total += o->len;
    o->len = 0;
}

static void out_mem(out *o, const char *s, size_t n)
{
    if (o->len + n > o->cap)
        out_flush(o);
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

#define OUT_LIT(o, s) out_mem((o), (s), sizeof(s) - 1)

static void out_char(out *o, char c)
{
    if (o->len + 1 > o->cap)
        out_flush(o);
    o->buf[o->len++] = c;
}

static void out_i64(out *o, int64_t v)
{
    char tmp[24];
    char *p = tmp + sizeof tmp;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    out_mem(o, p, (size_t)(tmp + sizeof tmp - p));
}

/* ------------------------------------------------------------------------ */
/* Name vocabulary (ASSUMPTION: ordinary Java-like words; the corpus gives   */
/* the shapes and lengths, not the words)                                    */

static const char *const ROOTS[] = {"com", "org", "java", "jdk", "sun", "io", "net", "kotlin",
                                    "scala", "javax", "dev", "app"};
static const char *const PKG[] = {
    "util", "internal", "core", "impl", "lang", "api", "io", "nio", "text", "time", "net",
    "security", "concurrent", "function", "stream", "reflect", "invoke", "graal", "svm",
    "jdk", "runtime", "compiler", "nodes", "phases", "common", "spi", "cache", "http",
    "json", "parser", "model", "config", "server", "client", "data", "format", "regex",
    "math", "atomic", "locks", "charset", "channels", "file", "zip", "jar", "misc",
    "access", "collect", "base", "truffle", "host", "polyglot", "engine", "debug",
    "metrics", "logging", "event", "plugin", "codec", "buffer", "handler", "service",
    "support", "tools"};
static const char *const WORDS[] = {
    "Abstract", "Array", "List", "Map", "Hash", "Tree", "Node", "Entry", "Set", "Queue",
    "Buffer", "Stream", "Reader", "Writer", "Input", "Output", "Byte", "Char", "String",
    "Builder", "Factory", "Provider", "Service", "Manager", "Handler", "Context", "Config",
    "Value", "Object", "Class", "Method", "Field", "Type", "Info", "Support", "Util",
    "Helper", "Access", "Impl", "Base", "Default", "Simple", "Concurrent", "Linked",
    "Weak", "Soft", "Reference", "Thread", "Local", "Lock", "Atomic", "Long", "Integer",
    "Double", "Float", "Short", "Boolean", "Number", "Decimal", "Format", "Parser",
    "Pattern", "Matcher", "Result", "Exception", "Error", "Iterator", "Spliterator",
    "Collector", "Function", "Consumer", "Supplier", "Predicate", "Operator", "Key",
    "Cache", "Pool", "Executor", "Task", "Future", "Signal", "Event", "Listener",
    "Channel", "Socket", "File", "Path", "Url", "Uri", "Charset", "Decoder", "Encoder",
    "Zone", "Date", "Time", "Instant", "Duration", "Period", "Locale", "Resource",
    "Bundle", "Loader", "Graph", "Phase", "Plugin", "Visitor", "Scope", "Frame", "Code",
    "Data", "Header", "Body", "Request", "Response", "Session", "Token", "Lexer", "Scanner",
    "Compiler", "Generator", "Registry", "Table", "Index", "Record", "Snapshot", "View"};
static const char *const VERBS[] = {
    "get", "set", "is", "has", "add", "remove", "put", "create", "make", "build", "read",
    "write", "parse", "format", "to", "from", "compute", "find", "check", "update", "load",
    "store", "init", "apply", "accept", "visit", "handle", "process", "copy", "compare",
    "contains", "index", "resolve", "register", "lookup", "encode", "decode", "append",
    "insert", "clear", "close", "open", "flush", "run", "call", "emit", "push", "pop",
    "peek", "next", "hash", "equals", "convert", "match", "scan", "ensure", "allocate"};
/* ASSUMPTION: the most common plain method names of Java code (the corpus
 * gives how often the top names occur, METHOD_NAMES). */
static const char *const TOP_NAMES[] = {"toString", "hashCode", "get", "equals", "remove",
                                        "apply", "append", "accept"};
static const char *const PRIMS[] = {"boolean", "byte", "short", "char", "int",
                                    "float", "long", "double", "void", "java.lang.Object"};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

typedef struct sbuf {
    char s[512];
    size_t n;
} sbuf;

static void sb_add(sbuf *b, const char *s)
{
    size_t l = strlen(s);
    if (b->n + l >= sizeof b->s - 1)
        l = sizeof b->s - 1 - b->n;
    memcpy(b->s + b->n, s, l);
    b->n += l;
    b->s[b->n] = 0;
}

static void sb_char(sbuf *b, char c)
{
    if (b->n < sizeof b->s - 1) {
        b->s[b->n++] = c;
        b->s[b->n] = 0;
    }
}

static void sb_hex(sbuf *b, uint64_t v, int digits)
{
    static const char hex[] = "0123456789abcdef";
    for (int i = digits - 1; i >= 0; i--)
        sb_char(b, hex[(v >> (4 * i)) & 15]);
}

static void sb_dec(sbuf *b, uint64_t v)
{
    char tmp[24];
    snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v);
    sb_add(b, tmp);
}

#define PICK(r, a) ((a)[rng_below((r), COUNT_OF(a))])

/* package.Class of about `len` characters */
static void gen_class_name(sbuf *b, rng *r, size_t len)
{
    sbuf cls = {{0}, 0};
    unsigned words = 1 + (unsigned)rng_below(r, 3);
    for (unsigned i = 0; i < words; i++)
        sb_add(&cls, PICK(r, WORDS));
    sb_add(b, PICK(r, ROOTS));
    for (int seg = 0; seg < 9 && b->n + 1 + cls.n + 4 < len; seg++) {
        sb_char(b, '.');
        sb_add(b, PICK(r, PKG));
    }
    sb_char(b, '.');
    sb_add(b, cls.s);
    while (b->n + 4 < len)
        sb_add(b, PICK(r, WORDS));
}

/* ------------------------------------------------------------------------ */
/* Hash sets of 64-bit keys (0 is never stored)                             */

typedef struct hset {
    uint64_t *slot;
    size_t mask;
} hset;

static int hset_init(hset *h, size_t expected)
{
    size_t cap = 16;
    while (cap < expected * 2)
        cap *= 2;
    h->slot = calloc(cap, sizeof *h->slot);
    h->mask = cap - 1;
    return h->slot ? 0 : -1;
}

/* Insert; returns 0 if the key was already there. */
static int hset_add(hset *h, uint64_t key)
{
    if (!key)
        key = 1;
    size_t i = (size_t)(key * 0x9e3779b97f4a7c15ull >> 20) & h->mask;
    while (h->slot[i]) {
        if (h->slot[i] == key)
            return 0;
        i = (i + 1) & h->mask;
    }
    h->slot[i] = key;
    return 1;
}

static uint64_t hash_bytes(const char *s, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t hash_u64(uint64_t h, uint64_t v)
{
    uint64_t x = h ^ v;
    return splitmix64(&x);
}

/* ------------------------------------------------------------------------ */
/* The generator                                                            */

enum { K_CC, K_COND, K_VI, K_MON, K_SAMP, K_INST };
#define MAX_DEPTH 19       /* instrumented ctx depth of the corpus */
#define SAMP_MAX_DEPTH 50  /* ASSUMPTION: the corpus README reports up to 51 */
#define SHARED_FRACTION 0.9
#define NAME_SEED 0x1b0f5eedull
#define UNIT_NODE_CAP 4096

typedef struct gen {
    uint64_t seed;
    int version; /* 0: 0.4.0, 1: 1.0.0, 2: 1.1.0 */
    uint64_t ntypes, nmethods, nunits, nsamp, nhot;
    int64_t *type_id;
    int64_t *method_id;
    uint32_t *hot; /* method indices used in contexts */
    int prim_name[10];  /* type index i < 10 is named PRIMS[prim_name[i]] */
    uint64_t prim_index[10]; /* the type index named PRIMS[p] */
    uint64_t void_index; /* the type index named "void" */
    uint64_t entries[6];
    /* distributions */
    dist type_shape, type_len[5], array_dims, array_elem, method_shape, method_len, sig_len,
        gap_types, gap_methods, bci_cc_caller, bci_cond_first, bci_vi_first, bci_samp_first,
        bci_samp_caller, depth_samp, count_cc, count_samp, cond_triples, cond_target,
        cond_target_neg, cond_delta, cond_count, vi_pairs, count_vi, mon_pairs, count_mon,
        neg_caller, neg_cond_first;
    double mu[MAX_DEPTH + 2];      /* children per node at depth d (1-based) */
    double cond_per[MAX_DEPTH + 2]; /* conditional entries per node at depth d */
    double vi_per[MAX_DEPTH + 2];
    /* sampling: base stacks */
    size_t nbase;
    uint32_t *base_m;
    int64_t *base_b;
} gen;

static void gen_dists(gen *g)
{
    dist_init(&g->type_shape, TYPE_SHAPE, COUNT_OF(TYPE_SHAPE));
    dist_init(&g->type_len[0], TYPE_LEN_PLAIN, 16);
    dist_init(&g->type_len[1], TYPE_LEN_INNER, 16);
    dist_init(&g->type_len[2], TYPE_LEN_ARRAY, 16);
    dist_init(&g->type_len[3], TYPE_LEN_LAMBDA, 16);
    dist_init(&g->type_len[4], TYPE_LEN_HIDDEN, 16);
    dist_init(&g->array_dims, ARRAY_DIMS, COUNT_OF(ARRAY_DIMS));
    dist_init(&g->array_elem, ARRAY_ELEM, COUNT_OF(ARRAY_ELEM));
    dist_init(&g->method_shape, METHOD_SHAPE, COUNT_OF(METHOD_SHAPE));
    dist_init(&g->method_len, METHOD_LEN, COUNT_OF(METHOD_LEN));
    dist_init(&g->sig_len, SIG_LEN, COUNT_OF(SIG_LEN));
    dist_init(&g->gap_types, GAP_TYPES, COUNT_OF(GAP_TYPES));
    dist_init(&g->gap_methods, GAP_METHODS, COUNT_OF(GAP_METHODS));
    dist_init(&g->bci_cc_caller, BCI_CC_CALLER, 16);
    dist_init(&g->bci_cond_first, BCI_COND_FIRST, 16);
    dist_init(&g->bci_vi_first, BCI_VI_FIRST, 16);
    dist_init(&g->bci_samp_first, BCI_SAMP_FIRST, 16);
    dist_init(&g->bci_samp_caller, BCI_SAMP_CALLER, 16);
    dist_init(&g->depth_samp, DEPTH_SAMP, 64);
    dist_init(&g->count_cc, COUNT_CC, 64);
    dist_init(&g->count_samp, COUNT_SAMP, 64);
    dist_init(&g->cond_triples, COND_TRIPLES, COUNT_OF(COND_TRIPLES));
    dist_init(&g->cond_target, COND_TARGET, COUNT_OF(COND_TARGET));
    dist_init(&g->cond_target_neg, COND_TARGET_NEG, COUNT_OF(COND_TARGET_NEG));
    dist_init(&g->cond_delta, COND_DELTA, COUNT_OF(COND_DELTA));
    dist_init(&g->cond_count, COND_COUNT, 64);
    dist_init(&g->vi_pairs, VI_PAIRS, COUNT_OF(VI_PAIRS));
    dist_init(&g->count_vi, COUNT_VI, 64);
    dist_init(&g->mon_pairs, MON_PAIRS, 64);
    dist_init(&g->count_mon, COUNT_MON, 64);
    /* negatives: index 0 = not negative (total minus the negatives), then
     * -1, -4, -6, other (taken as -1) */
    uint32_t nc[5], nf[5];
    memcpy(nc, NEG_CC_CALLER, sizeof nc);
    memcpy(nf, NEG_COND_FIRST, sizeof nf);
    nc[0] -= nc[1] + nc[2] + nc[3] + nc[4];
    nf[0] -= nf[1] + nf[2] + nf[3] + nf[4];
    dist_init(&g->neg_caller, nc, 5);
    dist_init(&g->neg_cond_first, nf, 5);
    for (int d = 1; d <= MAX_DEPTH; d++) {
        double here = DEPTH_CC[d] ? DEPTH_CC[d] : 1;
        g->mu[d] = d < MAX_DEPTH ? DEPTH_CC[d + 1] / here : 0.0;
        g->cond_per[d] = DEPTH_COND[d] / here;
        g->vi_per[d] = DEPTH_VI[d] / here;
    }
}

static int64_t neg_value(size_t i)
{
    static const int64_t v[5] = {0, -1, -4, -6, -1};
    return v[i];
}

/* Sizes from the number of methods (corpus ratios). */
static void gen_sizes(gen *g, uint64_t nmethods)
{
    g->nmethods = nmethods < 64 ? 64 : nmethods;
    g->ntypes = g->nmethods * RATIO_PER_MMETHOD[0] / 1000000 + 10;
    uint64_t ncc = g->nmethods * RATIO_PER_MMETHOD[1] / 1000000;
    uint64_t depth_total = 0;
    for (int d = 1; d <= MAX_DEPTH; d++)
        depth_total += DEPTH_CC[d];
    g->nunits = ncc * DEPTH_CC[1] / depth_total + 1;
    g->nsamp = g->nmethods * RATIO_PER_MMETHOD[4] / 1000000 + 1;
}

static int gen_ids(gen *g)
{
    rng r;
    free(g->type_id);
    free(g->method_id);
    free(g->hot);
    g->type_id = malloc(g->ntypes * sizeof *g->type_id);
    g->method_id = malloc(g->nmethods * sizeof *g->method_id);
    g->hot = malloc(g->nmethods * sizeof *g->hot);
    if (!g->type_id || !g->method_id || !g->hot)
        return -1;
    rng_seed(&r, mix3(g->seed, 1, 0));
    /* primitives and java.lang.Object take ids 0..9 in a per-file order */
    for (int i = 0; i < 10; i++)
        g->prim_name[i] = i;
    for (int i = 9; i > 0; i--) {
        int j = (int)rng_below(&r, (uint64_t)i + 1);
        int t = g->prim_name[i];
        g->prim_name[i] = g->prim_name[j];
        g->prim_name[j] = t;
    }
    for (int i = 0; i < 10; i++)
        g->prim_index[g->prim_name[i]] = (uint64_t)i;
    g->void_index = g->prim_index[8];
    int64_t id = 0;
    for (uint64_t i = 0; i < g->ntypes; i++) {
        g->type_id[i] = id;
        size_t gap = dist_pick(&g->gap_types, &r);
        id += i < 9 ? 1 : log2_value(&r, gap ? gap : 1);
    }
    id = 1;
    for (uint64_t i = 0; i < g->nmethods; i++) {
        g->method_id[i] = id;
        size_t gap = dist_pick(&g->gap_methods, &r);
        id += log2_value(&r, gap ? gap : 1);
    }
    /* hot methods: the same indices for every seed */
    double frac = METHODS_IN_CTX / 1e6;
    if (frac * (double)g->nmethods < 1.5 * (double)g->nunits)
        frac = 1.5 * (double)g->nunits / (double)g->nmethods;
    g->nhot = 0;
    for (uint64_t i = 0; i < g->nmethods; i++) {
        uint64_t h = mix3(NAME_SEED, 2, i);
        if ((double)(h >> 11) * (1.0 / 9007199254740992.0) < frac)
            g->hot[g->nhot++] = (uint32_t)i;
    }
    while (g->nhot < g->nunits + 1 && g->nhot < g->nmethods)
        g->hot[g->nhot] = (uint32_t)g->nhot, g->nhot++; /* tiny files only */
    /* sampling base stacks (whole thread stacks shared by many samples) */
    g->nbase = g->nsamp / 20 + 2;
    free(g->base_m);
    free(g->base_b);
    g->base_m = malloc(g->nbase * SAMP_MAX_DEPTH * sizeof *g->base_m);
    g->base_b = malloc(g->nbase * SAMP_MAX_DEPTH * sizeof *g->base_b);
    if (!g->base_m || !g->base_b)
        return -1;
    for (size_t i = 0; i < g->nbase * SAMP_MAX_DEPTH; i++) {
        g->base_m[i] = g->hot[rng_below(&r, g->nhot)];
        g->base_b[i] = log2_value(&r, dist_pick(&g->bci_samp_caller, &r));
    }
    return 0;
}

/* The element stream of index i: shared across seeds for most elements. */
static void element_rng(const gen *g, rng *r, uint64_t stream, uint64_t i)
{
    rng pick;
    rng_seed(&pick, mix3(g->seed, stream + 100, i));
    if (rng_chance(&pick, SHARED_FRACTION))
        rng_seed(r, mix3(NAME_SEED, stream, i));
    else
        rng_seed(r, mix3(g->seed, stream, i));
}

/* ---- types ---- */

static void type_name(const gen *g, rng *r, uint64_t idx, sbuf *b)
{
    b->n = 0;
    b->s[0] = 0;
    if (idx < 10) {
        sb_add(b, PRIMS[g->prim_name[idx]]);
        return;
    }
    size_t shape = dist_pick(&g->type_shape, r);
    size_t len = dist_pick(&g->type_len[shape], r) * 8 + (size_t)rng_below(r, 8);
    switch (shape) {
    case 0: /* plain */
        gen_class_name(b, r, len);
        break;
    case 1: /* inner: Outer$Inner or Outer$1 */
        gen_class_name(b, r, len > 20 ? len * 2 / 3 : len);
        sb_char(b, '$');
        if (rng_chance(r, 0.3))
            sb_dec(b, 1 + rng_below(r, 12));
        else
            do
                sb_add(b, PICK(r, WORDS));
            while (b->n < len);
        break;
    case 2: { /* array */
        size_t dims = dist_pick(&g->array_dims, r);
        if (!dims)
            dims = 1;
        for (size_t i = 0; i < dims; i++)
            sb_char(b, '[');
        if (dist_pick(&g->array_elem, r) == 0) {
            sb_char(b, "ZBCSIJFD"[rng_below(r, 8)]);
        } else {
            sb_char(b, 'L');
            gen_class_name(b, r, len > dims + 2 ? len - dims - 2 : 8);
            sb_char(b, ';');
        }
        break;
    }
    case 3: /* lambda: Outer$$Lambda$123/0x... or Outer$$Lambda/0x... */
        gen_class_name(b, r, len > 40 ? len - 30 : 12);
        sb_add(b, "$$Lambda");
        if (rng_chance(r, 0.5)) {
            sb_char(b, '$');
            sb_dec(b, rng_below(r, 2000));
        }
        sb_add(b, "/0x");
        sb_hex(b, 0x800000000ull + (rng_next(r) & 0xffffffffull), 16);
        break;
    default: /* hidden class */
        sb_add(b, "java.lang.invoke.LambdaForm$");
        sb_add(b, rng_chance(r, 0.5) ? "MH" : "DMH");
        sb_add(b, "/0x");
        sb_hex(b, 0x300000000ull + (rng_next(r) & 0xffffffffull), 16);
        break;
    }
}

static int write_types(gen *g, out *o)
{
    hset names;
    sbuf b;
    rng r;
    if (hset_init(&names, g->ntypes))
        return -1;
    OUT_LIT(o, "\"types\":[");
    for (uint64_t i = 0; i < g->ntypes; i++) {
        element_rng(g, &r, 10, i);
        type_name(g, &r, i, &b);
        /* keep names unique: a repeat becomes an anonymous inner class */
        for (unsigned k = 1; !hset_add(&names, hash_bytes(b.s, b.n, 0xcbf29ce484222325ull)); k++) {
            sb_char(&b, '$');
            sb_dec(&b, k);
        }
        if (i)
            out_char(o, ',');
        OUT_LIT(o, "{\"id\":");
        out_i64(o, g->type_id[i]);
        OUT_LIT(o, ",\"name\":\"");
        out_mem(o, b.s, b.n);
        OUT_LIT(o, "\"}");
    }
    out_char(o, ']');
    free(names.slot);
    return 0;
}

/* ---- methods ---- */

/* Name k of the pool: its length and words depend on k only. */
static void pool_name(const gen *g, uint64_t k, sbuf *b)
{
    rng r;
    rng_seed(&r, mix3(NAME_SEED, 20, k));
    size_t len = dist_pick(&g->method_len, &r);
    if (len < 8) { /* short names: pronounceable words of that length */
        static const char cons[] = "bcdfghklmnprstvwxz", vow[] = "aeiou";
        for (size_t i = 0; i < (len ? len : 1); i++)
            sb_char(b, i % 2 ? vow[rng_below(&r, 5)] : cons[rng_below(&r, 18)]);
        return;
    }
    sb_add(b, PICK(&r, VERBS));
    while (b->n + 3 < len)
        sb_add(b, PICK(&r, WORDS));
}

static void method_name(const gen *g, rng *r, sbuf *b, size_t *shape_out)
{
    b->n = 0;
    b->s[0] = 0;
    size_t shape = dist_pick(&g->method_shape, r);
    *shape_out = shape;
    if (shape == 1) {
        sb_add(b, "<init>");
        return;
    }
    if (shape == 2) {
        sb_add(b, "<clinit>");
        return;
    }
    /* Plain names by popularity (METHOD_NAMES: shares of the top 10, 100,
     * 1000 names and the distinct names per method; <init> and <clinit> are
     * the top two). */
    double init_share = (double)(METHOD_SHAPE[1] + METHOD_SHAPE[2]) /
                        (double)(METHOD_SHAPE[0] + METHOD_SHAPE[1] + METHOD_SHAPE[2] +
                                 METHOD_SHAPE[3] + METHOD_SHAPE[4]);
    double plain_share = 1.0 - init_share;
    double top10 = (METHOD_NAMES[1] / 1e6 - init_share) / plain_share;
    double top100 = (METHOD_NAMES[2] / 1e6 - init_share) / plain_share;
    double top1000 = (METHOD_NAMES[3] / 1e6 - init_share) / plain_share;
    double u = rng_unit(r);
    uint64_t k;
    if (u < top10) {
        sb_add(b, TOP_NAMES[rng_below(r, COUNT_OF(TOP_NAMES))]);
        k = 0;
    } else {
        if (u < top100)
            k = 8 + rng_below(r, 90);
        else if (u < top1000)
            k = 98 + rng_below(r, 900);
        else /* the long tail: a pool large enough for the distinct-name ratio */
            k = 998 + rng_below(r, g->nmethods * 6 / 5 + 1);
        pool_name(g, k, b);
    }
    if (shape == 3) { /* lambda$name$N */
        sbuf l = {{0}, 0};
        sb_add(&l, "lambda$");
        sb_add(&l, b->s);
        sb_char(&l, '$');
        sb_dec(&l, rng_below(r, 12));
        *b = l;
    } else if (shape == 4) { /* mangled: access$000, name$1, name%1 */
        switch (rng_below(r, 3)) {
        case 0:
            b->n = 0;
            sb_add(b, "access$");
            sb_dec(b, 100 + rng_below(r, 900));
            break;
        case 1:
            sb_char(b, '$');
            sb_dec(b, rng_below(r, 10));
            break;
        default:
            sb_char(b, '%');
            sb_dec(b, 1 + rng_below(r, 3));
            break;
        }
    }
}

static uint64_t sig_type(const gen *g, rng *r, int ret)
{
    /* ASSUMPTION: half of the return types are void; parameters are
     * primitives or java.lang.Object 45% of the time, else any type. */
    if (ret && rng_chance(r, 0.5))
        return g->void_index;
    if (rng_chance(r, 0.45)) /* by name, so that seeds agree on signatures */
        return g->prim_index[rng_below(r, 10)];
    return 10 + rng_below(r, g->ntypes - 10);
}

static int write_methods(gen *g, out *o)
{
    hset seen;
    sbuf b;
    rng r;
    uint64_t sig[40];
    if (hset_init(&seen, g->nmethods))
        return -1;
    OUT_LIT(o, "\"methods\":[");
    for (uint64_t i = 0; i < g->nmethods; i++) {
        size_t shape, n;
        element_rng(g, &r, 11, i);
        uint64_t decl = 10 + rng_below(&r, g->ntypes - 10);
        for (int attempt = 0;; attempt++) {
            method_name(g, &r, &b, &shape);
            n = dist_pick(&g->sig_len, &r);
            if (n < 2)
                n = 2;
            if (attempt > 4)
                n += (size_t)attempt; /* a longer signature is always new */
            if (n > COUNT_OF(sig))
                n = COUNT_OF(sig);
            sig[0] = decl;
            sig[1] = shape == 1 || shape == 2 ? g->void_index : sig_type(g, &r, 1);
            if (shape == 2)
                n = 2;
            for (size_t j = 2; j < n; j++)
                sig[j] = sig_type(g, &r, 0);
            uint64_t h = hash_bytes(b.s, b.n, 0xcbf29ce484222325ull);
            for (size_t j = 0; j < n; j++)
                h = hash_u64(h, sig[j]);
            if (hset_add(&seen, h))
                break;
        }
        if (i)
            out_char(o, ',');
        OUT_LIT(o, "{\"id\":");
        out_i64(o, g->method_id[i]);
        OUT_LIT(o, ",\"name\":\"");
        out_mem(o, b.s, b.n);
        OUT_LIT(o, "\",\"signature\":[");
        for (size_t j = 0; j < n; j++) {
            if (j)
                out_char(o, ',');
            out_i64(o, g->type_id[sig[j]]);
        }
        OUT_LIT(o, "]}");
    }
    out_char(o, ']');
    free(seen.slot);
    return 0;
}

/* ---- entries ---- */

typedef struct emit {
    gen *g;
    out *o;
    int kind;
    int first; /* no comma before the next entry */
    rng counts; /* seed-dependent: counts only */
    uint64_t nodes;
    /* the path from the root: method index and call bci into it */
    uint32_t pm[MAX_DEPTH + 1];
    int64_t pb[MAX_DEPTH + 1];
} emit;

static void entry_open(emit *e, size_t depth, uint32_t method, int64_t bci)
{
    out *o = e->o;
    if (!e->first)
        out_char(o, ',');
    e->first = 0;
    e->g->entries[e->kind]++;
    OUT_LIT(o, "{\"ctx\":\"");
    out_i64(o, e->g->method_id[method]);
    out_char(o, ':');
    out_i64(o, bci);
    for (size_t j = depth; j > 0; j--) {
        out_char(o, '<');
        out_i64(o, e->g->method_id[e->pm[j - 1]]);
        out_char(o, ':');
        out_i64(o, e->pb[j]);
    }
    OUT_LIT(o, "\",\"records\":[");
}

static void entry_close(emit *e)
{
    OUT_LIT(e->o, "]}");
}

/* k sorted distinct bcis from a log2 histogram. */
static size_t distinct_bcis(rng *r, const dist *d, size_t k, int64_t *v)
{
    for (size_t i = 0; i < k; i++)
        v[i] = log2_value(r, dist_pick(d, r));
    for (size_t i = 1; i < k; i++) { /* insertion sort, k is small */
        int64_t x = v[i];
        size_t j = i;
        while (j > 0 && v[j - 1] > x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
    for (size_t i = 1; i < k; i++)
        if (v[i] <= v[i - 1])
            v[i] = v[i - 1] + 1;
    return k;
}

/* Replace some bcis by the negative ones at the corpus rates, keeping them
 * distinct (one of each negative value at most). */
static void negatives(rng *r, const dist *neg, int64_t *v, size_t k)
{
    int used[5] = {0};
    for (size_t i = 0; i < k; i++) {
        size_t n = dist_pick(neg, r);
        int64_t nv = neg_value(n);
        if (n && !used[nv == -1 ? 1 : nv == -4 ? 2 : 3]) {
            used[nv == -1 ? 1 : nv == -4 ? 2 : 3] = 1;
            v[i] = nv;
        }
    }
}

#define MAX_AT_NODE 24

static void pairs_records(emit *e, rng *s, const dist *pairs, const dist *counts, int write)
{
    uint64_t types[16];
    size_t n = dist_pick(pairs, s);
    if (n == 0)
        n = 1;
    if (n > e->g->ntypes - 10)
        n = (size_t)(e->g->ntypes - 10);
    for (size_t i = 0; i < n; i++) {
        uint64_t t;
        int dup;
        do { /* receivers: not primitives, distinct within the entry */
            t = 10 + rng_below(s, e->g->ntypes - 10);
            dup = 0;
            for (size_t j = 0; j < i; j++)
                dup |= types[j] == t;
        } while (dup);
        types[i] = t;
    }
    if (!write)
        return;
    for (size_t i = 0; i < n; i++) {
        if (i)
            out_char(e->o, ',');
        out_i64(e->o, e->g->type_id[types[i]]);
        out_char(e->o, ',');
        out_i64(e->o, log2_value(&e->counts, dist_pick(counts, &e->counts)));
    }
}

static void cond_records(emit *e, rng *s, int64_t bci, int write)
{
    int64_t target[80];
    size_t n = dist_pick(&e->g->cond_triples, s);
    if (n == 0)
        n = 2;
    for (size_t i = 0; i < n; i++) {
        size_t where = dist_pick(&e->g->cond_target, s);
        int64_t base = bci < 0 ? 0 : bci;
        int64_t delta = log2_value(s, dist_pick(&e->g->cond_delta, s));
        if (where == 0)
            target[i] = base + (delta ? delta : 1);
        else if (where == 1)
            target[i] = base > delta ? base - delta : 0;
        else {
            static const int64_t negs[4] = {-1, -4, -5, -1};
            target[i] = negs[dist_pick(&e->g->cond_target_neg, s)];
        }
    }
    if (!write)
        return;
    for (size_t i = 0; i < n; i++) {
        if (i)
            out_char(e->o, ',');
        out_i64(e->o, target[i]);
        out_char(e->o, ',');
        out_i64(e->o, (int64_t)i);
        out_char(e->o, ',');
        out_i64(e->o, log2_value(&e->counts, dist_pick(&e->g->cond_count, &e->counts)));
    }
}

/* One node of an inlining tree at `depth` (0 = root). Draws the same
 * structure from `s` whatever the kind, and writes the entries of e->kind. */
static void tree_node(emit *e, rng *s, size_t depth)
{
    gen *g = e->g;
    size_t d1 = depth + 1; /* ctx depth of this node's entries */
    uint32_t m = e->pm[depth];
    int64_t bcis[MAX_AT_NODE];
    e->nodes++;

    if (e->kind == K_CC) {
        entry_open(e, depth, m, 0);
        out_i64(e->o, log2_value(&e->counts, dist_pick(&g->count_cc, &e->counts)));
        entry_close(e);
    }
    /* conditionals */
    size_t k = rng_geometric(s, g->cond_per[d1], MAX_AT_NODE);
    distinct_bcis(s, &g->bci_cond_first, k, bcis);
    negatives(s, &g->neg_cond_first, bcis, k);
    for (size_t i = 0; i < k; i++) {
        if (e->kind == K_COND)
            entry_open(e, depth, m, bcis[i]);
        cond_records(e, s, bcis[i], e->kind == K_COND);
        if (e->kind == K_COND)
            entry_close(e);
    }
    /* virtual invokes, and instanceof checks (ASSUMPTION: at the rates and
     * with the records of virtual invokes; no public 1.1.0 file exists) */
    for (int kind = K_VI; kind <= K_INST; kind += K_INST - K_VI) {
        k = rng_geometric(s, g->vi_per[d1], MAX_AT_NODE);
        distinct_bcis(s, &g->bci_vi_first, k, bcis);
        for (size_t i = 0; i < k; i++) {
            int w = e->kind == kind;
            if (w)
                entry_open(e, depth, m, bcis[i]);
            pairs_records(e, s, &g->vi_pairs, &g->count_vi, w);
            if (w)
                entry_close(e);
        }
    }
    /* inlined callees */
    if (d1 >= MAX_DEPTH || e->nodes >= UNIT_NODE_CAP)
        return;
    k = rng_geometric(s, g->mu[d1], MAX_AT_NODE);
    distinct_bcis(s, &g->bci_cc_caller, k, bcis);
    negatives(s, &g->neg_caller, bcis, k);
    uint32_t callee[MAX_AT_NODE];
    for (size_t i = 0; i < k; i++) {
        /* skewed: some methods are inlined everywhere */
        double u = rng_unit(s);
        callee[i] = g->hot[(uint64_t)(u * u * (double)g->nhot) % g->nhot];
    }
    for (size_t i = 0; i < k; i++) {
        e->pm[depth + 1] = callee[i];
        e->pb[depth + 1] = bcis[i];
        tree_node(e, s, depth + 1);
    }
}

static void write_tree_kind(gen *g, out *o, int kind)
{
    emit e;
    memset(&e, 0, sizeof e);
    e.g = g;
    e.o = o;
    e.kind = kind;
    e.first = 1;
    for (uint64_t u = 0; u < g->nunits; u++) {
        rng s;
        element_rng(g, &s, 30, u);
        rng_seed(&e.counts, mix3(g->seed, 31 + (uint64_t)kind, u));
        e.nodes = 0;
        e.pm[0] = g->hot[u]; /* distinct roots */
        e.pb[0] = 0;
        tree_node(&e, &s, 0);
    }
}

static void write_monitor(gen *g, out *o)
{
    rng r;
    uint64_t t[64];
    rng_seed(&r, mix3(g->seed, 40, 0));
    size_t n = dist_pick(&g->mon_pairs, &r);
    if (n == 0)
        n = 1;
    if (n > g->ntypes - 10)
        n = (size_t)(g->ntypes - 10);
    /* distinct type indices, ascending like the corpus */
    for (size_t i = 0; i < n; i++) {
        int dup;
        do {
            t[i] = 10 + rng_below(&r, g->ntypes - 10);
            dup = 0;
            for (size_t j = 0; j < i; j++)
                dup |= t[j] == t[i];
        } while (dup);
    }
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && t[j - 1] > t[j]; j--) {
            uint64_t x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    OUT_LIT(o, "{\"ctx\":\"0:0\",\"records\":[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            out_char(o, ',');
        out_i64(o, g->type_id[t[i]]);
        out_char(o, ',');
        out_i64(o, log2_value(&r, dist_pick(&g->count_mon, &r)));
    }
    OUT_LIT(o, "]}");
    g->entries[K_MON]++;
}

static int write_sampling(gen *g, out *o)
{
    hset seen;
    uint32_t fm[SAMP_MAX_DEPTH];
    int64_t fb[SAMP_MAX_DEPTH];
    if (hset_init(&seen, g->nsamp))
        return -1;
    int first = 1;
    for (uint64_t j = 0; j < g->nsamp; j++) {
        rng r;
        rng_seed(&r, mix3(g->seed, 50, j));
        size_t depth = 0;
        for (int attempt = 0; attempt < 20; attempt++) {
            depth = dist_pick(&g->depth_samp, &r);
            if (rng_chance(&r, 0.03)) /* ASSUMPTION: the tail to 50 frames */
                depth = 39 + (size_t)rng_below(&r, SAMP_MAX_DEPTH - 38);
            if (depth < 2)
                depth = 2;
            size_t base = (size_t)rng_below(&r, g->nbase);
            size_t fresh = 1 + (size_t)rng_below(&r, 6);
            if (fresh >= depth)
                fresh = depth - 1;
            /* callee first: fresh frames on top of the bottom of a thread stack */
            for (size_t i = 0; i < fresh; i++) {
                fm[i] = g->hot[rng_below(&r, g->nhot)];
                fb[i] = log2_value(&r, dist_pick(i ? &g->bci_samp_caller : &g->bci_samp_first, &r));
            }
            for (size_t i = fresh; i < depth; i++) {
                size_t at = base * SAMP_MAX_DEPTH + (SAMP_MAX_DEPTH - depth + i);
                fm[i] = g->base_m[at];
                fb[i] = g->base_b[at];
            }
            uint64_t h = 0x5a5a;
            for (size_t i = 0; i < depth; i++)
                h = hash_u64(hash_u64(h, fm[i]), (uint64_t)fb[i]);
            if (hset_add(&seen, h))
                break;
            depth = 0;
        }
        if (!depth)
            continue;
        if (!first)
            out_char(o, ',');
        first = 0;
        g->entries[K_SAMP]++;
        OUT_LIT(o, "{\"ctx\":\"");
        for (size_t i = 0; i < depth; i++) {
            if (i)
                out_char(o, '<');
            out_i64(o, g->method_id[fm[i]]);
            out_char(o, ':');
            out_i64(o, fb[i]);
        }
        OUT_LIT(o, "\",\"records\":[");
        out_i64(o, log2_value(&r, dist_pick(&g->count_samp, &r)));
        OUT_LIT(o, "]}");
    }
    free(seen.slot);
    return 0;
}

static const char *const KIND_KEY[6] = {"callCountProfiles", "conditionalProfiles",
                                        "virtualInvokeProfiles", "monitorProfiles",
                                        "samplingProfiles", "instanceofProfiles"};

static int write_section(gen *g, out *o, int kind)
{
    out_char(o, ',');
    out_char(o, '"');
    out_mem(o, KIND_KEY[kind], strlen(KIND_KEY[kind]));
    OUT_LIT(o, "\":[");
    switch (kind) {
    case K_MON:
        write_monitor(g, o);
        break;
    case K_SAMP:
        if (write_sampling(g, o))
            return -1;
        break;
    default:
        write_tree_kind(g, o, kind);
        break;
    }
    out_char(o, ']');
    return 0;
}

static int generate(gen *g, out *o)
{
    static const int order04[] = {K_MON, K_VI, K_CC, K_COND, K_SAMP};
    static const int order10[] = {K_CC, K_COND, K_VI, K_MON, K_SAMP, K_INST};
    static const char *const vtext[] = {"0.4.0", "1.0.0", "1.1.0"};
    memset(g->entries, 0, sizeof g->entries);
    if (gen_ids(g))
        return -1;
    OUT_LIT(o, "{\"version\":\"");
    out_mem(o, vtext[g->version], 5);
    OUT_LIT(o, "\",");
    if (write_types(g, o))
        return -1;
    out_char(o, ',');
    if (write_methods(g, o))
        return -1;
    const int *order = g->version == 0 ? order04 : order10;
    size_t n = g->version == 0 ? 5 : g->version == 1 ? 5 : 6;
    for (size_t i = 0; i < n; i++)
        if (write_section(g, o, order[i]))
            return -1;
    out_char(o, '}');
    out_flush(o);
    return o->failed ? -1 : 0;
}

/* ------------------------------------------------------------------------ */

static int parse_size(const char *s, uint64_t *out_size)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || v <= 0)
        return -1;
    switch (*end) {
    case 'k': case 'K': v *= 1e3; end++; break;
    case 'm': case 'M': v *= 1e6; end++; break;
    case 'g': case 'G': v *= 1e9; end++; break;
    default: break;
    }
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end)
        return -1;
    *out_size = (uint64_t)v;
    return 0;
}

static void usage(FILE *f)
{
    fputs("usage: iprof-gen --size SIZE [--version 0.4.0|1.0.0|1.1.0] [--seed N] -o FILE [--quiet]\n"
          "  SIZE: bytes with an optional K, M or G suffix (powers of 1000), 10K .. 4G\n",
          f);
}

int main(int argc, char **argv)
{
    uint64_t size = 0, seed = 1;
    const char *path = NULL, *version = "1.0.0";
    int quiet = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--size") && v) {
            if (parse_size(v, &size)) {
                fprintf(stderr, "iprof-gen: bad size '%s'\n", v);
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--version") && v) {
            version = v;
            i++;
        } else if (!strcmp(a, "--seed") && v) {
            seed = strtoull(v, NULL, 0);
            i++;
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && v) {
            path = v;
            i++;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            quiet = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (!size || !path) {
        usage(stderr);
        return 2;
    }
    if (size < 10000 || size > 4000000000ull) {
        fprintf(stderr, "iprof-gen: size must be within 10K .. 4G\n");
        return 2;
    }
    gen g;
    memset(&g, 0, sizeof g);
    g.seed = seed;
    if (!strcmp(version, "0.4.0"))
        g.version = 0;
    else if (!strcmp(version, "1.0.0"))
        g.version = 1;
    else if (!strcmp(version, "1.1.0"))
        g.version = 2;
    else {
        fprintf(stderr, "iprof-gen: version must be 0.4.0, 1.0.0 or 1.1.0\n");
        return 2;
    }
    gen_dists(&g);

    out o;
    memset(&o, 0, sizeof o);
    o.cap = 1u << 20;
    o.buf = malloc(o.cap);
    if (!o.buf)
        return 1;
    /* size: count the bytes of an estimate, correct it twice, then write.
     * The counting passes use seed 1, so that files of one size have the
     * same element counts whatever their seed (their indices then line up,
     * which makes names shared across seeds). */
    uint64_t m = size / 95;
    g.seed = 1;
    for (int pass = 0; pass < 2; pass++) {
        gen_sizes(&g, m);
        o.total = 0;
        o.f = NULL;
        if (generate(&g, &o)) {
            fprintf(stderr, "iprof-gen: out of memory\n");
            return 1;
        }
        double ratio = (double)size / (double)o.total;
        m = (uint64_t)((double)g.nmethods * ratio);
        if (ratio > 0.998 && ratio < 1.002)
            break;
    }
    gen_sizes(&g, m);
    g.seed = seed;

    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp)
        return 1;
    snprintf(tmp, plen + 16, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        fprintf(stderr, "iprof-gen: %s: %s\n", tmp, strerror(errno));
        return 1;
    }
    o.f = f;
    o.total = 0;
    o.failed = 0;
    int rc = generate(&g, &o);
    if (fclose(f) != 0)
        rc = -1;
    if (rc || rename(tmp, path) != 0) {
        fprintf(stderr, "iprof-gen: writing %s failed: %s\n", path, strerror(errno));
        remove(tmp);
        return 1;
    }
    if (!quiet)
        fprintf(stderr,
                "iprof-gen: %s: %llu bytes, version %s, seed %llu: %llu types, %llu methods, "
                "entries: %llu call count, %llu conditional, %llu virtual invoke, %llu monitor, "
                "%llu sampling, %llu instanceof\n",
                path, (unsigned long long)o.total, version, (unsigned long long)seed,
                (unsigned long long)g.ntypes, (unsigned long long)g.nmethods,
                (unsigned long long)g.entries[K_CC], (unsigned long long)g.entries[K_COND],
                (unsigned long long)g.entries[K_VI], (unsigned long long)g.entries[K_MON],
                (unsigned long long)g.entries[K_SAMP], (unsigned long long)g.entries[K_INST]);
    free(tmp);
    free(o.buf);
    free(g.type_id);
    free(g.method_id);
    free(g.hot);
    free(g.base_m);
    free(g.base_b);
    return 0;
}
