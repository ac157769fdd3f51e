/*
 * iprof_dump: a test helper that prints what the streaming reader delivers,
 * as one canonical JSON document, and drives the model merge and the
 * writer for the Python suites. Public API only.
 *
 * Usage:
 *   iprof_dump [--strict] [--chunk N] FILE
 *   iprof_dump [--strict] --merge [--stream] A B [--weight W] -o OUT
 *   iprof_dump [--strict] --roundtrip FILE -o OUT [--pretty] [--to V]
 *
 * Canonical form of the dump (one line, then "\n"):
 *   - minified: no whitespace at all between tokens;
 *   - keys of the top-level object in exactly this order:
 *       "version", "types", "methods", "callCountProfiles",
 *       "conditionalProfiles", "virtualInvokeProfiles", "monitorProfiles",
 *       "samplingProfiles", "instanceofProfiles", "unknown"
 *     every key is always present; "version" is null if the reader never
 *     called on_version;
 *   - "types":   [[id,"name"],...]               in delivery order
 *   - "methods": [[id,"name",[sig,...]],...]      in delivery order
 *   - each kind: [[[m0,b0,m1,b1,...],[r0,r1,...]],...] (frames interleaved
 *     as delivered: callee first), in delivery order;
 *   - "unknown": [["key","raw json text"],...]   the raw text of the value
 *     as a JSON string;
 *   - integers in plain decimal (int64, "-" for negatives, no "+", no
 *     leading zeros);
 *   - strings: '"' and '\\' escaped as \" and \\; bytes 0x00-0x1f as
 *     \u00XX with lowercase hex; everything else (including '/', 0x7f and
 *     UTF-8 bytes >= 0x80) written raw.
 * --chunk N sets the reader's chunk_size (bytes per read() from the file),
 * to exercise the sliding window with tiny reads.
 * Diagnostics of the read go to stderr, one per line:
 *   "diag: STATUS_STRING: message at LINE:COL (offset N) path PATH"
 *   ("warning:" instead of "diag:" for warnings).
 * On failure: "error: STATUS_STRING: message at LINE:COL (offset N) path PATH"
 * on stderr and exit status 1. Usage errors exit with status 2.
 */
#include <iprof/iprof.h>
#include <iprof/stream.h>

#include "check_api.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- growable byte buffer ---------------------------------------------- */

typedef struct sbuf {
    char *data;
    size_t len, cap;
} sbuf;

static void sb_reserve(sbuf *b, size_t extra)
{
    if (b->len + extra <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra)
        cap *= 2;
    char *nd = realloc(b->data, cap);
    if (!nd) {
        fprintf(stderr, "error: out of memory\n");
        exit(1);
    }
    b->data = nd;
    b->cap = cap;
}

static void sb_put(sbuf *b, const char *s, size_t n)
{
    if (n == 0)
        return; /* s may be NULL (an empty section) */
    sb_reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

static void sb_puts(sbuf *b, const char *s)
{
    sb_put(b, s, strlen(s));
}

static void sb_i64(sbuf *b, int64_t v)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%" PRId64, v);
    sb_put(b, tmp, (size_t)n);
}

static void sb_str(sbuf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    sb_put(b, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"') {
            sb_put(b, "\\\"", 2);
        } else if (c == '\\') {
            sb_put(b, "\\\\", 2);
        } else if (c < 0x20) {
            char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            sb_put(b, e, 6);
        } else {
            sb_put(b, (const char *)&c, 1);
        }
    }
    sb_put(b, "\"", 1);
}

static void sb_i64_array(sbuf *b, const int64_t *v, size_t n)
{
    sb_put(b, "[", 1);
    for (size_t i = 0; i < n; i++) {
        if (i)
            sb_put(b, ",", 1);
        sb_i64(b, v[i]);
    }
    sb_put(b, "]", 1);
}

/* Append a comma before every element but the first. */
static void sb_sep(sbuf *b)
{
    if (b->len)
        sb_put(b, ",", 1);
}

/* ---- dump state -------------------------------------------------------- */

typedef struct dump {
    int have_version;
    sbuf version;
    sbuf types;
    sbuf methods;
    sbuf kinds[IPROF_KIND_COUNT];
    sbuf unknown;
} dump;

static int on_version(const char *v, size_t len, void *payload)
{
    dump *d = payload;
    d->version.len = 0;
    sb_str(&d->version, v, len);
    d->have_version = 1;
    return 0;
}

static int on_type(int64_t id, const char *name, size_t name_len, void *payload)
{
    dump *d = payload;
    sb_sep(&d->types);
    sb_put(&d->types, "[", 1);
    sb_i64(&d->types, id);
    sb_put(&d->types, ",", 1);
    sb_str(&d->types, name, name_len);
    sb_put(&d->types, "]", 1);
    return 0;
}

static int on_method(int64_t id, const char *name, size_t name_len, const int64_t *sig,
                     size_t sig_len, void *payload)
{
    dump *d = payload;
    sb_sep(&d->methods);
    sb_put(&d->methods, "[", 1);
    sb_i64(&d->methods, id);
    sb_put(&d->methods, ",", 1);
    sb_str(&d->methods, name, name_len);
    sb_put(&d->methods, ",", 1);
    sb_i64_array(&d->methods, sig, sig_len);
    sb_put(&d->methods, "]", 1);
    return 0;
}

static int on_entry(int kind, const int64_t *frames, size_t frame_count,
                    const int64_t *records, size_t record_count, void *payload)
{
    dump *d = payload;
    if (kind < 0 || kind >= IPROF_KIND_COUNT) {
        fprintf(stderr, "iprof_dump: entry callback got invalid kind %d\n", kind);
        return 1;
    }
    sbuf *b = &d->kinds[kind];
    sb_sep(b);
    sb_put(b, "[", 1);
    sb_i64_array(b, frames, frame_count * 2);
    sb_put(b, ",", 1);
    sb_i64_array(b, records, record_count);
    sb_put(b, "]", 1);
    return 0;
}

/* Each per-kind callback checks that the reader passes the right kind. */
static int check_kind(int expected, int kind)
{
    if (kind != expected) {
        fprintf(stderr, "iprof_dump: callback of kind %d got kind %d\n", expected, kind);
        return 1;
    }
    return 0;
}

#define KIND_CB(fname, K)                                                                 \
    static int fname(int kind, const int64_t *f, size_t fc, const int64_t *r, size_t rc, \
                     void *p)                                                             \
    {                                                                                     \
        if (check_kind(K, kind))                                                          \
            return 1;                                                                     \
        return on_entry(kind, f, fc, r, rc, p);                                           \
    }
KIND_CB(on_cc, IPROF_KIND_CALL_COUNT)
KIND_CB(on_cond, IPROF_KIND_CONDITIONAL)
KIND_CB(on_vi, IPROF_KIND_VIRTUAL_INVOKE)
KIND_CB(on_mon, IPROF_KIND_MONITOR)
KIND_CB(on_samp, IPROF_KIND_SAMPLING)
KIND_CB(on_inst, IPROF_KIND_INSTANCEOF)

static int on_unknown(const char *key, size_t key_len, const char *json, size_t json_len,
                      void *payload)
{
    dump *d = payload;
    sb_sep(&d->unknown);
    sb_put(&d->unknown, "[", 1);
    sb_str(&d->unknown, key, key_len);
    sb_put(&d->unknown, ",", 1);
    sb_str(&d->unknown, json, json_len);
    sb_put(&d->unknown, "]", 1);
    return 0;
}

/* ---- reports ----------------------------------------------------------- */

static void print_report(const char *prefix, const iprof_error *e, int status)
{
    if (!e) {
        fprintf(stderr, "%s: %s: (no error report) at 0:0 (offset 0) path \n", prefix,
                iprof_status_string(status));
        return;
    }
    fprintf(stderr, "%s: %s: %s at %" PRIu64 ":%" PRIu64 " (offset %" PRIu64 ") path %s\n",
            prefix, iprof_status_string(err_info(e).status), err_info(e).message,
            err_info(e).line, err_info(e).column, err_info(e).offset,
            err_info(e).path);
}

static void print_diags(const iprof_reader *r)
{
    size_t n = read_result(r).diag_count;
    for (size_t i = 0; i < n; i++) {
        const iprof_error *e = iprof_reader_diag(r, i);
        print_report(err_info(e).severity == IPROF_SEVERITY_WARNING ? "warning" : "diag",
                     e, 0);
    }
}

static int fail_reader(const iprof_reader *r, int rc)
{
    print_report("error", iprof_reader_error(r), rc);
    return 1;
}

static int fail_writer(const iprof_writer *w, int rc)
{
    print_report("error", w ? iprof_writer_error(w) : NULL, rc);
    return 1;
}

static size_t chunk_size;

static iprof_reader *make_reader(int strict)
{
    iprof_read_options opts = IPROF_READ_OPTIONS_INIT;
    iprof_reader *r = NULL;
    opts.chunk_size = chunk_size;
    if (strict)
        opts.flags |= IPROF_READ_STRICT;
    int rc = iprof_reader_new(&r, &opts);
    if (rc) {
        fprintf(stderr, "error: %s: cannot create reader at 0:0 (offset 0) path \n",
                iprof_status_string(rc));
        exit(1);
    }
    return r;
}

/* ---- modes ------------------------------------------------------------- */

static int do_dump(const char *path, int strict)
{
    iprof_reader *r = make_reader(strict);
    dump d;
    memset(&d, 0, sizeof d);
    iprof_read_callbacks cb = IPROF_READ_CALLBACKS_INIT;
    cb.on_version = on_version;
    cb.on_type = on_type;
    cb.on_method = on_method;
    cb.on_call_count = on_cc;
    cb.on_conditional = on_cond;
    cb.on_virtual_invoke = on_vi;
    cb.on_monitor = on_mon;
    cb.on_sampling = on_samp;
    cb.on_instanceof = on_inst;
    cb.on_unknown = on_unknown;
    int rc = iprof_reader_read(r, SRC_PATH(path), &cb, &d);
    print_diags(r);
    if (rc) {
        fail_reader(r, rc);
        iprof_reader_free(r);
        return 1;
    }
    iprof_reader_free(r);

    sbuf out = {0};
    sb_puts(&out, "{\"version\":");
    if (d.have_version)
        sb_put(&out, d.version.data, d.version.len);
    else
        sb_puts(&out, "null");
    sb_puts(&out, ",\"types\":[");
    sb_put(&out, d.types.data, d.types.len);
    sb_puts(&out, "],\"methods\":[");
    sb_put(&out, d.methods.data, d.methods.len);
    sb_puts(&out, "]");
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        sb_puts(&out, ",\"");
        sb_puts(&out, iprof_kind_name(k));
        sb_puts(&out, "\":[");
        sb_put(&out, d.kinds[k].data, d.kinds[k].len);
        sb_puts(&out, "]");
    }
    sb_puts(&out, ",\"unknown\":[");
    sb_put(&out, d.unknown.data, d.unknown.len);
    sb_puts(&out, "]}\n");
    int ok = fwrite(out.data, 1, out.len, stdout) == out.len && fflush(stdout) == 0;
    free(out.data);
    free(d.version.data);
    free(d.types.data);
    free(d.methods.data);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        free(d.kinds[k].data);
    free(d.unknown.data);
    if (!ok) {
        fprintf(stderr, "error: input/output error: cannot write stdout at 0:0 (offset 0) path \n");
        return 1;
    }
    return 0;
}

static iprof_model *load(iprof_reader *r, const char *path)
{
    iprof_model *m = NULL;
    int rc = iprof_model_load(&m, r, SRC_PATH(path));
    print_diags(r);
    if (rc) {
        fail_reader(r, rc);
        return NULL;
    }
    return m;
}

static int write_model(const iprof_model *m, const char *out, unsigned flags, const char *to)
{
    iprof_write_options wo = IPROF_WRITE_OPTIONS_INIT;
    wo.flags = flags | IPROF_WRITE_NO_SYNC;
    wo.format_version = to;
    iprof_writer *w = NULL;
    int rc = iprof_writer_new(&w, SINK_PATH(out), &wo);
    if (rc) {
        fail_writer(w, rc);
        iprof_writer_free(w);
        return 1;
    }
    rc = iprof_writer_write_model(w, m);
    if (rc) {
        fail_writer(w, rc);
        iprof_writer_free(w);
        return 1;
    }
    iprof_writer_free(w);
    return 0;
}

static int do_roundtrip(const char *in, const char *out, int strict, int pretty, const char *to)
{
    iprof_reader *r = make_reader(strict);
    iprof_model *m = load(r, in);
    iprof_reader_free(r);
    if (!m)
        return 1;
    int rc = write_model(m, out, pretty ? IPROF_WRITE_PRETTY : 0, to);
    iprof_model_free(m);
    return rc;
}

/* B merged into A: loaded and merged (iprof_model_merge), or with
 * `stream` merged as it is read (iprof_model_merge_source), threaded. */
static int do_merge(const char *a, const char *b, double weight, const char *out, int strict,
                    int stream)
{
    iprof_reader *r = make_reader(strict);
    iprof_model *ma = load(r, a), *mb = NULL;
    int rc = IPROF_OK;
    if (ma && stream) {
        iprof_read_options opts = IPROF_READ_OPTIONS_INIT;
        iprof_reader *t = NULL;
        opts.chunk_size = chunk_size;
        opts.flags = IPROF_READ_THREADED | (strict ? IPROF_READ_STRICT : 0u);
        iprof_merge_options mo = IPROF_MERGE_OPTIONS_INIT;
        mo.weight = weight;
        rc = iprof_reader_new(&t, &opts);
        if (!rc)
            rc = iprof_model_merge_source(ma, t, SRC_PATH(b), &mo);
        iprof_reader_free(t);
    } else if (ma && (mb = load(r, b))) {
        iprof_merge_options mo = IPROF_MERGE_OPTIONS_INIT;
        mo.weight = weight;
        rc = iprof_model_merge(ma, mb, &mo);
    }
    iprof_reader_free(r);
    if (!ma || (!stream && !mb)) {
        iprof_model_free(ma);
        return 1;
    }
    if (rc) {
        fprintf(stderr, "error: %s: %s failed at 0:0 (offset 0) path \n", iprof_status_string(rc),
                stream ? "iprof_model_merge_source" : "iprof_model_merge");
        iprof_model_free(ma);
        iprof_model_free(mb);
        return 1;
    }
    rc = write_model(ma, out, 0, NULL);
    iprof_model_free(ma);
    iprof_model_free(mb);
    return rc;
}

static int usage(void)
{
    fprintf(stderr, "usage: iprof_dump [--strict] [--chunk N] FILE\n"
                    "       iprof_dump [--strict] --merge [--stream] A B [--weight W] -o OUT\n"
                    "       iprof_dump [--strict] --roundtrip FILE -o OUT [--pretty] [--to V]\n");
    return 2;
}

int main(int argc, char **argv)
{
    int strict = 0, pretty = 0, merge = 0, roundtrip = 0, stream = 0;
    const char *out = NULL, *to = NULL;
    const char *pos[3] = {NULL, NULL, NULL};
    int npos = 0;
    double weight = 1.0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--strict"))
            strict = 1;
        else if (!strcmp(a, "--pretty"))
            pretty = 1;
        else if (!strcmp(a, "--merge"))
            merge = 1;
        else if (!strcmp(a, "--stream"))
            stream = 1;
        else if (!strcmp(a, "--roundtrip"))
            roundtrip = 1;
        else if (!strcmp(a, "-o") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(a, "--chunk") && i + 1 < argc) {
            char *end;
            chunk_size = (size_t)strtoul(argv[++i], &end, 10);
            if (*end || !chunk_size)
                return usage();
        } else if (!strcmp(a, "--to") && i + 1 < argc)
            to = argv[++i];
        else if (!strcmp(a, "--weight") && i + 1 < argc) {
            char *end;
            errno = 0;
            weight = strtod(argv[++i], &end);
            if (errno || *end)
                return usage();
        } else if (a[0] == '-' && a[1] == '-')
            return usage();
        else if (npos < 3)
            pos[npos++] = a;
        else
            return usage();
    }
    if (merge && roundtrip)
        return usage();
    if (merge) {
        if (npos != 2 || !out)
            return usage();
        return do_merge(pos[0], pos[1], weight, out, strict, stream);
    }
    if (roundtrip) {
        if (npos != 1 || !out)
            return usage();
        return do_roundtrip(pos[0], out, strict, pretty, to);
    }
    if (npos != 1 || out)
        return usage();
    return do_dump(pos[0], strict);
}
