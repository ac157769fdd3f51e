/* iprof_source and iprof_sink (docs/api.md, "Sources and sinks"): every
 * kind through iprof_reader_read, iprof_model_load, iprof_model_merge_source
 * and iprof_writer_new gives exactly what the 0.x function of that kind gave
 * (the same events, model, bytes and report, held here as literal values),
 * and every field no call can use is IPROF_EINVAL with the reason, before
 * anything is made or changed. */
#include "check.h"
#include "check_api.h"
#include "check_model.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <io.h>
#define open _open
#define close _close
#else
#include <unistd.h>
#endif

#include <iprof/iprof.h>
#include <iprof/stream.h>
#include <iprof/edit.h>

/* ---- inputs ------------------------------------------------------------- */

/* A document, as bytes and as a file. */
typedef struct doc {
    const char *name;
    char path[4096];
    char *data;
    size_t len;
} doc;

static int doc_open(doc *d, const char *name)
{
    const char *src = getenv("IPROF_SOURCE_DIR");
    d->name = name;
    snprintf(d->path, sizeof d->path, "%s/tests/data/%s", src ? src : ".", name);
    d->data = check_read_file(d->path, &d->len);
    return d->data != NULL;
}

/* A read function handing out a buffer 7 bytes at a time. */
typedef struct feed {
    const char *data;
    size_t len, pos;
} feed;

static int feed_read(void *buf, size_t capacity, size_t *len, void *payload)
{
    feed *f = payload;
    size_t n = f->len - f->pos;
    if (n > capacity)
        n = capacity;
    if (n > 7)
        n = 7;
    memcpy(buf, f->data + f->pos, n);
    f->pos += n;
    *len = n;
    return 0;
}

static int failing_read(void *buf, size_t capacity, size_t *len, void *payload)
{
    (void)buf, (void)capacity, (void)len, (void)payload;
    return 1;
}

/* How one input is given: a kind, and what the 0.x call of that kind takes.
 * The descriptor is opened afresh for each call (a read consumes it). */
typedef struct input {
    int kind;
    const doc *d;
    int fd;
    feed f;
    iprof_read_fn fn; /* feed_read unless a failure is wanted */
} input;

static void input_start(input *in, int kind, const doc *d, iprof_read_fn fn)
{
    memset(in, 0, sizeof *in);
    in->kind = kind;
    in->d = d;
    in->fd = kind == IPROF_SOURCE_FD ? open(d->path, O_RDONLY) : -1;
    in->f = (feed){d->data, d->len, 0};
    in->fn = fn ? fn : feed_read;
}

static void input_end(input *in)
{
    if (in->fd >= 0)
        close(in->fd);
}

static iprof_source source_of(input *in)
{
    iprof_source s = IPROF_SOURCE_BUFFER_INIT(in->d->data, in->d->len);
    if (in->kind == IPROF_SOURCE_PATH) {
        iprof_source p = IPROF_SOURCE_PATH_INIT(in->d->path);
        s = p;
    } else if (in->kind == IPROF_SOURCE_FD) {
        iprof_source f = IPROF_SOURCE_FD_INIT(in->fd);
        s = f;
    } else if (in->kind == IPROF_SOURCE_CALLBACK) {
        iprof_source c = IPROF_SOURCE_CALLBACK_INIT(in->fn, &in->f);
        s = c;
    }
    return s;
}

/* ---- what a read leaves ------------------------------------------------- */

/* Every event of a read, as text. */
static int rec_version(const char *v, size_t len, void *p)
{
    tx_add(p, "V%.*s;", (int)len, v);
    return 0;
}

static int rec_type(int64_t id, const char *name, size_t len, void *p)
{
    tx_add(p, "T%lld %.*s;", (long long)id, (int)len, name);
    return 0;
}

static int rec_method(int64_t id, const char *name, size_t len, const int64_t *sig, size_t n,
                      void *p)
{
    tx_add(p, "M%lld %.*s", (long long)id, (int)len, name);
    for (size_t i = 0; i < n; i++)
        tx_add(p, " %lld", (long long)sig[i]);
    tx_add(p, ";");
    return 0;
}

static int rec_entry(int kind, const int64_t *frames, size_t nf, const int64_t *records,
                     size_t nr, void *p)
{
    tx_add(p, "E%d", kind);
    for (size_t i = 0; i < nf; i++)
        tx_add(p, " %lld:%lld", (long long)frames[2 * i], (long long)frames[2 * i + 1]);
    for (size_t i = 0; i < nr; i++)
        tx_add(p, " %lld", (long long)records[i]);
    tx_add(p, ";");
    return 0;
}

static int rec_unknown(const char *key, size_t kl, const char *json, size_t jl, void *p)
{
    tx_add(p, "U%.*s=%.*s;", (int)kl, key, (int)jl, json);
    return 0;
}

static const iprof_read_callbacks recorder = {
    IPROF_READ_CALLBACKS_VERSION, rec_version, rec_type, rec_method, rec_entry, rec_entry,
    rec_entry, rec_entry, rec_entry, rec_entry, rec_unknown, NULL};

/* A reader's report as text: status, message, position, diagnostics. */
static void report_of(check_text *t, int rc, const iprof_reader *r)
{
    tx_add(t, "rc %d", rc);
    const iprof_error *e = iprof_reader_error(r);
    if (e)
        tx_add(t, " [%d %s @%llu %zu:%zu %s]", err_info(e).status, err_info(e).message,
               (unsigned long long)err_info(e).offset, err_info(e).line,
               err_info(e).column, err_info(e).path);
    tx_add(t, " diags %zu", read_result(r).diag_count);
    for (size_t i = 0; i < read_result(r).diag_count; i++)
        tx_add(t, " (%s)", err_info(iprof_reader_diag(r, i)).message);
}

static iprof_reader *reader_with(unsigned int flags)
{
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.flags = flags;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    return r;
}

static const char *const kind_names[] = {"buffer", "path", "fd", "callback"};

/* The documents read: valid, gzip, a lenient read's salvage, a syntax
 * error, a reference that does not resolve. */
static const char *const docs[] = {"graal-1.0.0.iprof", "graal-1.0.0.iprof.gz",
                                   "repair-truncated.iprof", "syntax-error.iprof",
                                   "repair-dangling.iprof", "graalvm25-unknown.iprof"};
#define NDOCS (sizeof docs / sizeof *docs)

static int open_docs(doc *d)
{
    for (size_t i = 0; i < NDOCS; i++)
        if (!doc_open(&d[i], docs[i]))
            return 0;
    return 1;
}

static void close_docs(doc *d)
{
    for (size_t i = 0; i < NDOCS; i++)
        free(d[i].data);
}

/* One read, load or merge of doc d given as a source of kind, as text: its
 * events or model, a line break, and the reports. */
enum { READ, LOAD, MERGE };

static char *run(int what, int kind, const doc *d, const doc *into, unsigned flags,
                 iprof_read_fn fn)
{
    check_text t = {0};
    iprof_reader *r = reader_with(flags);
    input in;
    input_start(&in, kind, d, fn);
    iprof_source s = source_of(&in);
    int rc;
    if (what == READ) {
        rc = iprof_reader_read(r, &s, &recorder, &t);
        tx_add(&t, "\n");
    } else if (what == LOAD) {
        iprof_model *m = NULL;
        rc = iprof_model_load(&m, r, &s);
        char *text = m ? model_text(m, 0) : NULL;
        tx_add(&t, "%s\n", text ? text : "(no model)");
        free(text);
        iprof_model_free(m);
    } else {
        iprof_model *dst = NULL;
        CHECK_OK(iprof_model_load(&dst, r, SRC_BUFFER(into->data, into->len)));
        iprof_merge_options o = IPROF_MERGE_OPTIONS_INIT;
        o.weight = 3;
        rc = iprof_model_merge_source(dst, r, &s, &o);
        char *text = model_text(dst, 0);
        const iprof_error *e = iprof_model_error(dst);
        tx_add(&t, "%s\ndst error: %s\n", text, e ? err_info(e).message : "none");
        free(text);
        iprof_model_free(dst);
    }
    report_of(&t, rc, r);
    input_end(&in);
    iprof_reader_free(r);
    return t.s;
}

/* FNV-1a of n bytes: a transcript's fingerprint. */
static uint64_t fnv64(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3u;
    return h;
}

/* What run() must give for one document: the transcript before its last
 * line break (events, or the model written, and the merge's dst error) by
 * length and fingerprint, and the reports after it, word for word. */
typedef struct expected {
    size_t len;
    uint64_t hash;
    const char *report;
} expected;

/* The values the 0.x calls of each kind gave (phase A compared them with
 * these sources, kind by kind), one per document of docs[] in order.
 * Every kind gives the same, except a failing read function, which only the
 * callback kind calls. */
static const expected read_lenient[NDOCS] = {
    {131, 0xf326314da4f2ae64u,
     "rc 0 diags 0"},
    {131, 0xf326314da4f2ae64u,
     "rc 0 diags 0"},
    {106, 0xef6e78ec67ea5f5au,
     "rc -3 [-3 unexpected end of input @420 1:421 monitorProfiles[0].records[0]] "
     "diags 0"},
    {14, 0x1081abb294a14d66u,
     "rc -3 [-3 expected a value after ',' @69 5:3 types[1]] diags 0"},
    {105, 0x15ed89e86f6bcfe0u,
     "rc -3 [-3 unexpected end of input @419 1:420 types[2]] diags 0"},
    {543, 0xb4f881bd73100501u,
     "rc 0 diags 2 (unknown top-level key \"ceConditionalProfilesV2\": not interpreted, "
     "kept as is by models) (unknown top-level key \"virtualInvokeMethodProfiles\": "
     "not interpreted, kept as is by models)"},
};
static const expected read_lenient_failing[NDOCS] = {
    {131, 0xf326314da4f2ae64u,
     "rc 0 diags 0"},
    {131, 0xf326314da4f2ae64u,
     "rc 0 diags 0"},
    {106, 0xef6e78ec67ea5f5au,
     "rc -3 [-3 unexpected end of input @420 1:421 monitorProfiles[0].records[0]] "
     "diags 0"},
    {14, 0x1081abb294a14d66u,
     "rc -3 [-3 expected a value after ',' @69 5:3 types[1]] diags 0"},
    {105, 0x15ed89e86f6bcfe0u,
     "rc -3 [-3 unexpected end of input @419 1:420 types[2]] diags 0"},
    {543, 0xb4f881bd73100501u,
     "rc 0 diags 2 (unknown top-level key \"ceConditionalProfilesV2\": not interpreted, "
     "kept as is by models) (unknown top-level key \"virtualInvokeMethodProfiles\": "
     "not interpreted, kept as is by models)"},
};
static const expected read_lenient_failing_callback = {
    0, 0xcbf29ce484222325u, "rc -2 [-2 the read callback failed @0 1:1 ] diags 0"};
static const expected read_strict[NDOCS] = {
    {131, 0xf326314da4f2ae64u,
     "rc 0 diags 0"},
    {131, 0xf326314da4f2ae64u,
     "rc 0 diags 0"},
    {106, 0xef6e78ec67ea5f5au,
     "rc -3 [-3 unexpected end of input @420 1:421 monitorProfiles[0].records[0]] "
     "diags 0"},
    {14, 0x1081abb294a14d66u,
     "rc -3 [-3 expected a value after ',' @69 5:3 types[1]] diags 0"},
    {105, 0x15ed89e86f6bcfe0u,
     "rc -3 [-3 unexpected end of input @419 1:420 types[2]] diags 0"},
    {543, 0xb4f881bd73100501u,
     "rc 0 diags 2 (unknown top-level key \"ceConditionalProfilesV2\": not interpreted, "
     "kept as is by models) (unknown top-level key \"virtualInvokeMethodProfiles\": "
     "not interpreted, kept as is by models)"},
};
static const expected load_lenient[NDOCS] = {
    {480, 0x5d7130c70eef26bdu,
     "rc 0 diags 0"},
    {480, 0x5d7130c70eef26bdu,
     "rc 0 diags 0"},
    {10, 0x0bb44f448a0c76d8u,
     "rc -3 [-3 unexpected end of input @420 1:421 monitorProfiles[0].records[0]] "
     "diags 0"},
    {10, 0x0bb44f448a0c76d8u,
     "rc -3 [-3 expected a value after ',' @69 5:3 types[1]] diags 0"},
    {10, 0x0bb44f448a0c76d8u,
     "rc -3 [-3 unexpected end of input @419 1:420 types[2]] diags 0"},
    {1170, 0x07bcc33825485a5fu,
     "rc 0 diags 2 (unknown top-level key \"ceConditionalProfilesV2\": not interpreted, "
     "kept as is by models) (unknown top-level key \"virtualInvokeMethodProfiles\": "
     "not interpreted, kept as is by models)"},
};
static const expected load_strict[NDOCS] = {
    {480, 0x5d7130c70eef26bdu,
     "rc 0 diags 0"},
    {480, 0x5d7130c70eef26bdu,
     "rc 0 diags 0"},
    {10, 0x0bb44f448a0c76d8u,
     "rc -3 [-3 unexpected end of input @420 1:421 monitorProfiles[0].records[0]] "
     "diags 0"},
    {10, 0x0bb44f448a0c76d8u,
     "rc -3 [-3 expected a value after ',' @69 5:3 types[1]] diags 0"},
    {10, 0x0bb44f448a0c76d8u,
     "rc -3 [-3 unexpected end of input @419 1:420 types[2]] diags 0"},
    {1170, 0x07bcc33825485a5fu,
     "rc 0 diags 2 (unknown top-level key \"ceConditionalProfilesV2\": not interpreted, "
     "kept as is by models) (unknown top-level key \"virtualInvokeMethodProfiles\": "
     "not interpreted, kept as is by models)"},
};
static const expected merge_lenient[NDOCS] = {
    {499, 0x76eb6292864214abu,
     "rc 0 diags 0"},
    {499, 0x76eb6292864214abu,
     "rc 0 diags 0"},
    {515, 0xb4ba0e0b972c4017u,
     "rc -3 [-3 unexpected end of input @420 1:421 monitorProfiles[0].records[0]] "
     "diags 0"},
    {518, 0xebd5d5adbbf170e4u,
     "rc -3 [-3 expected a value after ',' @69 5:3 types[1]] diags 0"},
    {515, 0xb4ba0e0b972c4017u,
     "rc -3 [-3 unexpected end of input @419 1:420 types[2]] diags 0"},
    {608, 0x5d277cf1ba371993u,
     "rc -4 [-9 unknown key \"ceConditionalProfilesV2\" of the model merged from holds "
     "data whose ids cannot be renumbered or combined @0 0:0 ] diags 2 (unknown top-level "
     "key \"ceConditionalProfilesV2\": not interpreted, kept as is by models) (unknown "
     "top-level key \"virtualInvokeMethodProfiles\": not interpreted, kept as is by "
     "models)"},
};
static const expected merge_strict_failing[NDOCS] = {
    {499, 0x76eb6292864214abu,
     "rc 0 diags 0"},
    {499, 0x76eb6292864214abu,
     "rc 0 diags 0"},
    {515, 0xb4ba0e0b972c4017u,
     "rc -3 [-3 unexpected end of input @420 1:421 monitorProfiles[0].records[0]] "
     "diags 0"},
    {518, 0xebd5d5adbbf170e4u,
     "rc -3 [-3 expected a value after ',' @69 5:3 types[1]] diags 0"},
    {515, 0xb4ba0e0b972c4017u,
     "rc -3 [-3 unexpected end of input @419 1:420 types[2]] diags 0"},
    {608, 0x5d277cf1ba371993u,
     "rc -4 [-9 unknown key \"ceConditionalProfilesV2\" of the model merged from holds "
     "data whose ids cannot be renumbered or combined @0 0:0 ] diags 2 (unknown top-level "
     "key \"ceConditionalProfilesV2\": not interpreted, kept as is by models) (unknown "
     "top-level key \"virtualInvokeMethodProfiles\": not interpreted, kept as is by "
     "models)"},
};
static const expected merge_strict_failing_callback = {
    516, 0x94ba802d115ecbc1u, "rc -2 [-2 the read callback failed @0 1:1 ] diags 0"};

/* Doc d as each kind of source: the transcript equals w[d]; with fn, the
 * callback kind's equals *failed. Without zlib the gzip document is
 * skipped (its read is IPROF_EUNSUPPORTED, tested in test_gzip). */
static void same_for_every_kind(int what, unsigned flags, iprof_read_fn fn,
                                const expected w[NDOCS], const expected *failed)
{
    doc d[NDOCS];
    if (!open_docs(d)) {
        close_docs(d);
        SKIP("tests/data is not there (IPROF_SOURCE_DIR)");
    }
    for (size_t i = 0; i < NDOCS; i++) {
        if (i == 1 && !(iprof_features() & IPROF_FEATURE_GZIP))
            continue;
        for (int k = IPROF_SOURCE_BUFFER; k <= IPROF_SOURCE_CALLBACK; k++) {
            const expected *x = fn && k == IPROF_SOURCE_CALLBACK ? failed : &w[i];
            char *a = run(what, k, &d[i], &d[0], flags, fn);
            char *nl = a ? strrchr(a, '\n') : NULL;
            CHECK(nl != NULL);
            if (!nl) {
                free(a);
                continue;
            }
            size_t len = (size_t)(nl - a);
            uint64_t h = fnv64(a, len);
            if (len != x->len || h != x->hash || strcmp(nl + 1, x->report) != 0)
                fprintf(stderr, "   %s as %s: %zu bytes, 0x%016llx:\n   %.300s\n", d[i].name,
                        kind_names[k], len, (unsigned long long)h, a);
            CHECK_EQ_INT(len, x->len);
            CHECK(h == x->hash);
            CHECK_EQ_STR(nl + 1, x->report);
            free(a);
        }
    }
    close_docs(d);
}

static void test_read_every_kind(void)
{
    same_for_every_kind(READ, 0, NULL, read_lenient, NULL);
    same_for_every_kind(READ, IPROF_READ_STRICT, NULL, read_strict, NULL);
    same_for_every_kind(READ, 0, failing_read, read_lenient_failing,
                        &read_lenient_failing_callback);
}

static void test_load_every_kind(void)
{
    same_for_every_kind(LOAD, 0, NULL, load_lenient, NULL);
    same_for_every_kind(LOAD, IPROF_READ_STRICT, NULL, load_strict, NULL);
}

static void test_merge_every_kind(void)
{
    same_for_every_kind(MERGE, 0, NULL, merge_lenient, NULL);
    same_for_every_kind(MERGE, IPROF_READ_STRICT, failing_read, merge_strict_failing,
                        &merge_strict_failing_callback);
}

/* What each kind reads, checked on its own (a 0.x function and its
 * wrapper could agree on something wrong): the events of the valid
 * document are the same through every kind, gzip or not; a directory and
 * a missing file are IPROF_EIO with the 0.x words. */
static void test_kinds_read_the_document(void)
{
    doc d[NDOCS];
    if (!open_docs(d)) {
        close_docs(d);
        SKIP("tests/data is not there (IPROF_SOURCE_DIR)");
    }
    char *first = run(READ, IPROF_SOURCE_BUFFER, &d[0], NULL, 0, NULL);
    CHECK(first && strstr(first, "V1.0.0;") == first);
    CHECK(first && strstr(first, "rc 0 diags 0") != NULL);
    for (size_t i = 0; i < ((iprof_features() & IPROF_FEATURE_GZIP) ? 2u : 1u); i++)
        for (int k = IPROF_SOURCE_BUFFER; k <= IPROF_SOURCE_CALLBACK; k++) {
            char *t = run(READ, k, &d[i], NULL, 0, NULL);
            CHECK_EQ_STR(t, first);
            free(t);
        }
    free(first);

    iprof_reader *r = reader_with(0);
    const char *dir = getenv("IPROF_SOURCE_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data", dir ? dir : ".");
    iprof_source s = IPROF_SOURCE_PATH_INIT(path);
    CHECK_EQ_INT(iprof_reader_read(r, &s, NULL, NULL), IPROF_EIO);
    char want[4200];
    snprintf(want, sizeof want, "cannot read %s: it is a directory", path);
    CHECK_EQ_STR(err_info(iprof_reader_error(r)).message, want);
    snprintf(path, sizeof path, "%s/tests/data/no-such-file.iprof", dir ? dir : ".");
    CHECK_EQ_INT(iprof_reader_read(r, &s, NULL, NULL), IPROF_EIO);
    snprintf(want, sizeof want, "cannot open %s: No such file or directory", path);
    CHECK_EQ_STR(err_info(iprof_reader_error(r)).message, want);
    iprof_reader_free(r);
    close_docs(d);
}

/* ---- invalid sources ---------------------------------------------------- */

/* Counts the reader's allocations, so that a refused load is seen to make
 * nothing. */
typedef struct counter {
    size_t allocs;
} counter;

static void *count_malloc(size_t n, void *user)
{
    ((counter *)user)->allocs++;
    return malloc(n);
}

static void *count_realloc(void *p, size_t old, size_t n, void *user)
{
    (void)old;
    ((counter *)user)->allocs++;
    return realloc(p, n);
}

static void count_free(void *p, size_t n, void *user)
{
    (void)n, (void)user;
    free(p);
}

typedef struct bad_source {
    iprof_source s;
    int null;            /* pass NULL instead of &s */
    const char *message; /* the reader's error */
} bad_source;

static int bad_sources(bad_source *out, const char *data)
{
    const iprof_source buffer = IPROF_SOURCE_BUFFER_INIT(data, 5);
    const iprof_source null_buffer = IPROF_SOURCE_BUFFER_INIT(NULL, 5);
    const iprof_source null_path = IPROF_SOURCE_PATH_INIT(NULL);
    const iprof_source bad_fd = IPROF_SOURCE_FD_INIT(-1);
    const iprof_source bad_fd2 = IPROF_SOURCE_FD_INIT(-7);
    const iprof_source null_fn = IPROF_SOURCE_CALLBACK_INIT(NULL, NULL);
    int n = 0;
    out[n++] = (bad_source){buffer, 1, "NULL source"};
    out[n] = (bad_source){buffer, 0, "unsupported iprof_source version 0"};
    out[n++].s.version = 0;
    out[n] = (bad_source){buffer, 0, "unsupported iprof_source version 2"};
    out[n++].s.version = IPROF_SOURCE_VERSION + 1;
    out[n] = (bad_source){buffer, 0, "unknown iprof_source kind 4"};
    out[n++].s.kind = 4;
    out[n] = (bad_source){buffer, 0, "unknown iprof_source kind -1"};
    out[n++].s.kind = -1;
    out[n++] = (bad_source){null_buffer, 0, "NULL buffer of 5 bytes"};
    out[n++] = (bad_source){null_path, 0, "NULL path"};
    out[n++] = (bad_source){bad_fd, 0, "invalid file descriptor -1"};
    out[n++] = (bad_source){bad_fd2, 0, "invalid file descriptor -7"};
    out[n++] = (bad_source){null_fn, 0, "NULL read function"};
    return n;
}

static void test_invalid_sources(void)
{
    static const char data[] = "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[]}";
    bad_source bad[16];
    int n = bad_sources(bad, data);
    counter c = {0};
    iprof_allocator a = {count_malloc, count_realloc, count_free, &c};
    iprof_read_options ro = IPROF_READ_OPTIONS_INIT;
    ro.allocator = &a;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &ro));
    iprof_model *dst = NULL;
    CHECK_OK(iprof_model_load(&dst, r, SRC_BUFFER(data, strlen(data))));
    CHECK_OK(iprof_model_add_type(dst, 4, "T", 1, NULL));
    char *before = model_text(dst, 0);
    for (int i = 0; i < n; i++) {
        const iprof_source *s = bad[i].null ? NULL : &bad[i].s;
        fprintf(stderr, "   %s\n", bad[i].message);
        /* A read: no callback called, the reason in the report, a
         * previous failure's diagnostics gone. */
        check_text t = {0};
        tx_add(&t, "%s", "");
        CHECK_EQ_INT(iprof_reader_read(r, s, &recorder, &t), IPROF_EINVAL);
        CHECK_EQ_STR(t.s, "");
        free(t.s);
        CHECK_EQ_STR(err_info(iprof_reader_error(r)).message, bad[i].message);
        CHECK_EQ_INT(err_info(iprof_reader_error(r)).status, IPROF_EINVAL);
        CHECK_EQ_INT(read_result(r).diag_count, 0);

        /* A load: no model, nothing allocated. */
        iprof_model *m = dst; /* not NULL: the call must clear it */
        size_t allocs = c.allocs;
        CHECK_EQ_INT(iprof_model_load(&m, r, s), IPROF_EINVAL);
        CHECK(m == NULL);
        CHECK_EQ_INT(c.allocs, allocs);
        CHECK_EQ_STR(err_info(iprof_reader_error(r)).message, bad[i].message);

        /* A merge: dst as it was, its report and the reader's say why. */
        CHECK_EQ_INT(iprof_model_merge_source(dst, r, s, NULL), IPROF_EINVAL);
        char *after = model_text(dst, 0);
        CHECK_EQ_STR(after, before);
        free(after);
        CHECK_EQ_STR(err_info(iprof_model_error(dst)).message, bad[i].message);
        CHECK_EQ_STR(err_info(iprof_reader_error(r)).message, bad[i].message);
    }
    /* NULL reader or out: EINVAL, nothing else to say it with. */
    iprof_source ok = IPROF_SOURCE_BUFFER_INIT(data, strlen(data));
    iprof_model *m = dst;
    CHECK_EQ_INT(iprof_reader_read(NULL, &ok, NULL, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_load(&m, NULL, &ok), IPROF_EINVAL);
    CHECK(m == NULL);
    CHECK_EQ_INT(iprof_model_load(NULL, r, &ok), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_merge_source(NULL, r, &ok, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_merge_source(dst, NULL, &ok, NULL), IPROF_EINVAL);
    CHECK_EQ_STR(err_info(iprof_model_error(dst)).message, "the reader is NULL");
    /* A bad callbacks version is found before the source, as in 0.x. */
    iprof_read_callbacks cb = IPROF_READ_CALLBACKS_INIT;
    cb.version = 0;
    CHECK_EQ_INT(iprof_reader_read(r, NULL, &cb, NULL), IPROF_EINVAL);
    CHECK_EQ_STR(err_info(iprof_reader_error(r)).message,
                 "unsupported iprof_read_callbacks version 0");
    /* The fields of other kinds are ignored. */
    ok.path = NULL;
    ok.fd = -5;
    ok.read_fn = NULL;
    CHECK_OK(iprof_model_load(&m, r, &ok));
    CHECK_EQ_INT(iprof_model_type_count(m), 0);
    iprof_model_free(m);
    iprof_source path = IPROF_SOURCE_PATH_INIT("/nonexistent/dir/x.iprof");
    path.data = NULL;
    path.len = 99;
    CHECK_EQ_INT(iprof_model_load(&m, r, &path), IPROF_EIO);
    free(before);
    iprof_model_free(dst);
    iprof_reader_free(r);
}

/* ---- sinks -------------------------------------------------------------- */

typedef struct collected {
    char *data;
    size_t len;
} collected;

static int collect(const void *data, size_t len, void *payload)
{
    collected *c = payload;
    char *n = realloc(c->data, c->len + len + 1);
    if (!n)
        return 1;
    memcpy(n + c->len, data, len);
    c->data = n;
    c->len += len;
    return 0;
}

static int refuse(const void *data, size_t len, void *payload)
{
    (void)data, (void)len, (void)payload;
    return 1;
}

/* Append n bytes that may hold NULs. */
static void tx_bytes(check_text *t, const void *bytes, size_t n)
{
    size_t at = t->len;
    tx_add(t, "%*s", (int)n, "");
    if (n)
        memcpy(t->s + at, bytes, n);
}

/* The bytes a writer into a sink of this kind gives for model m, with the
 * status of each step. */
static char *write_with(int kind, const iprof_model *m, unsigned flags,
                        iprof_write_fn fn, const char *name, size_t *len)
{
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.flags = flags;
    char dir[] = "/tmp/iprof-sink-XXXXXX";
    if (!check_mkdtemp(dir))
        return NULL;
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    collected c = {NULL, 0};
    int fd = kind == IPROF_SINK_FD ? open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
    iprof_writer *w = NULL;
    iprof_sink s = IPROF_SINK_BUFFER_INIT;
    iprof_sink p = IPROF_SINK_PATH_INIT(path), f = IPROF_SINK_FD_INIT(fd),
               cb = IPROF_SINK_CALLBACK_INIT(fn, &c);
    int rc = iprof_writer_new(&w, kind == IPROF_SINK_PATH ? &p
                                  : kind == IPROF_SINK_FD ? &f
                                  : kind == IPROF_SINK_CALLBACK ? &cb
                                                                 : &s,
                              &o);
    CHECK_OK(rc);
    check_text t = {0};
    int wrc = iprof_writer_write_model(w, m);
    const iprof_error *e = iprof_writer_error(w);
    tx_add(&t, "write %d %s\n", wrc, e ? err_info(e).message : "");
    if (fd >= 0)
        close(fd);
    if (kind == IPROF_SINK_BUFFER) {
        const void *d = NULL;
        size_t n = 0;
        CHECK_OK(iprof_writer_buffer(w, &d, &n));
        tx_bytes(&t, d, n);
    }
    iprof_writer_free(w);
    if (kind == IPROF_SINK_PATH || kind == IPROF_SINK_FD) {
        size_t n = 0;
        char *file = check_read_file(path, &n);
        if (file) {
            tx_add(&t, "file %zu:", n);
            tx_bytes(&t, file, n);
            free(file);
        }
        remove(path);
    } else if (kind == IPROF_SINK_CALLBACK) {
        tx_bytes(&t, c.data, c.len);
        free(c.data);
    }
    rmdir(dir); /* remove() leaves a directory on Windows */
    *len = t.len;
    return t.s;
}

/* The bytes written, without the status line and the file's length. */
static const char *payload(const char *t, size_t len, size_t *n)
{
    const char *p = memchr(t, '\n', len);
    p = p ? p + 1 : t + len;
    if ((size_t)(t + len - p) >= 5 && memcmp(p, "file ", 5) == 0) {
        const char *colon = memchr(p, ':', (size_t)(t + len - p));
        p = colon ? colon + 1 : t + len;
    }
    *n = (size_t)(t + len - p);
    return p;
}

static void test_writers_every_kind(void)
{
    doc d;
    if (!doc_open(&d, "graal-1.0.0.iprof"))
        SKIP("tests/data is not there (IPROF_SOURCE_DIR)");
    iprof_model *m = NULL;
    iprof_reader *r = reader_with(0);
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(d.data, d.len)));
    /* Each kind's transcript (status line, file length, bytes) by length
     * and fingerprint: the values the 0.x constructor of each kind gave
     * (phase A compared them byte for byte). A path and a descriptor add
     * "file N:"; a refusing write function stops the write. */
    static const struct {
        int kind;
        unsigned flags;
        int fail;
        size_t len;
        uint64_t hash;
    } writes[] = {
        {IPROF_SINK_BUFFER, 0, 0, 489, 0xbfbc795395ba70aau},
        {IPROF_SINK_BUFFER, IPROF_WRITE_PRETTY, 0, 638, 0xeceb2689576372e8u},
        {IPROF_SINK_PATH, 0, 0, 498, 0xb9c90b6b358410f6u},
        {IPROF_SINK_PATH, IPROF_WRITE_PRETTY, 0, 647, 0x3308a8290241cddbu},
        {IPROF_SINK_FD, 0, 0, 498, 0xb9c90b6b358410f6u},
        {IPROF_SINK_FD, IPROF_WRITE_PRETTY, 0, 647, 0x3308a8290241cddbu},
        {IPROF_SINK_CALLBACK, 0, 0, 489, 0xbfbc795395ba70aau},
        {IPROF_SINK_CALLBACK, 0, 1, 48, 0xaadb2fe3017c817cu},
        {IPROF_SINK_CALLBACK, IPROF_WRITE_PRETTY, 0, 638, 0xeceb2689576372e8u},
        {IPROF_SINK_CALLBACK, IPROF_WRITE_PRETTY, 1, 48, 0xaadb2fe3017c817cu},
    };
    for (size_t i = 0; i < sizeof writes / sizeof *writes; i++) {
        size_t len = 0;
        char *a = write_with(writes[i].kind, m, writes[i].flags, writes[i].fail ? refuse : collect,
                             "out.iprof", &len);
        fprintf(stderr, "   %s, flags %u%s: %zu bytes\n", kind_names[writes[i].kind],
                writes[i].flags, writes[i].fail ? ", refused" : "", len);
        CHECK(a != NULL);
        CHECK_EQ_INT(len, writes[i].len);
        CHECK(a && fnv64(a, len) == writes[i].hash);
        /* Something was written, or the refusal reported. */
        CHECK(a && (strstr(a, "write 0 ") == a) == !writes[i].fail);
        free(a);
    }
    /* gzip: zlib's bytes are zlib's, so every kind writes the same bytes as
     * the buffer, and they are gzip's; a path ending in ".gz" is gzip
     * without the flag, as in 0.x. */
    if (iprof_features() & IPROF_FEATURE_GZIP) {
        size_t blen = 0, bn = 0;
        char *b = write_with(IPROF_SINK_BUFFER, m, IPROF_WRITE_GZIP, collect, "out.iprof", &blen);
        const char *bytes = b ? payload(b, blen, &bn) : NULL;
        CHECK(b && strstr(b, "write 0 ") == b);
        CHECK(bytes && bn > 20 && (unsigned char)bytes[0] == 0x1f &&
              (unsigned char)bytes[1] == 0x8b);
        for (int k = IPROF_SINK_PATH; k <= IPROF_SINK_CALLBACK + 1; k++) {
            size_t alen = 0, an = 0;
            char *a = k <= IPROF_SINK_CALLBACK
                          ? write_with(k, m, IPROF_WRITE_GZIP, collect, "out.iprof", &alen)
                          : write_with(IPROF_SINK_PATH, m, 0, collect, "out.iprof.gz", &alen);
            const char *got = a ? payload(a, alen, &an) : NULL;
            CHECK(a && strstr(a, "write 0 ") == a);
            if (got && bytes)
                CHECK_EQ_MEM(got, an, bytes, bn);
            free(a);
        }
        free(b);
    }
    iprof_model_free(m);
    iprof_reader_free(r);
    free(d.data);
}

static void test_invalid_sinks(void)
{
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    const iprof_sink buffer = IPROF_SINK_BUFFER_INIT;
    iprof_sink bad[8];
    int n = 0;
    bad[n] = buffer;
    bad[n++].version = 0;
    bad[n] = buffer;
    bad[n++].version = IPROF_SINK_VERSION + 1;
    bad[n] = buffer;
    bad[n++].kind = 4;
    bad[n] = buffer;
    bad[n++].kind = -1;
    const iprof_sink null_path = IPROF_SINK_PATH_INIT(NULL), empty = IPROF_SINK_PATH_INIT(""),
                     fd = IPROF_SINK_FD_INIT(-1), fn = IPROF_SINK_CALLBACK_INIT(NULL, NULL);
    bad[n++] = null_path;
    bad[n++] = empty;
    bad[n++] = fd;
    bad[n++] = fn;
    counter c = {0};
    iprof_allocator a = {count_malloc, count_realloc, count_free, &c};
    o.allocator = &a;
    for (int i = 0; i < n; i++) {
        iprof_writer *w = (iprof_writer *)&c; /* not NULL: the call must clear it */
        CHECK_EQ_INT(iprof_writer_new(&w, &bad[i], &o), IPROF_EINVAL);
        CHECK(w == NULL);
        CHECK_EQ_INT(c.allocs, 0);
    }
    iprof_writer *w = (iprof_writer *)&c;
    CHECK_EQ_INT(iprof_writer_new(&w, NULL, &o), IPROF_EINVAL);
    CHECK(w == NULL);
    CHECK_EQ_INT(iprof_writer_new(NULL, &buffer, &o), IPROF_EINVAL);
    CHECK_EQ_INT(c.allocs, 0);
    /* The fields of other kinds are ignored; the options are still checked. */
    iprof_sink ok = buffer;
    ok.path = NULL;
    ok.fd = -3;
    ok.write_fn = NULL;
    CHECK_OK(iprof_writer_new(&w, &ok, &o));
    CHECK(w != NULL);
    CHECK(c.allocs > 0);
    iprof_writer_free(w);
    o.version = 0;
    CHECK_EQ_INT(iprof_writer_new(&w, &ok, &o), IPROF_EINVAL);
    CHECK(w == NULL);
}

int main(void)
{
    RUN(test_read_every_kind);
    RUN(test_load_every_kind);
    RUN(test_merge_every_kind);
    RUN(test_kinds_read_the_document);
    RUN(test_invalid_sources);
    RUN(test_writers_every_kind);
    RUN(test_invalid_sinks);
    return check_done();
}
