/*
 * Hostile and broken input through the public API: documented limits
 * (docs/robustness.md) and damaged files. Every case asserts the exact
 * outcome, not only the absence of a crash.
 */
#include "check.h"
#include "check_api.h"

#include <unistd.h>

#include <iprof/iprof.h>
#include <iprof/stream.h>

static const char head[] = "{\"version\":\"1.1.0\",\"types\":[{\"id\":1,\"name\":\"T\"}],"
                           "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[1,1]}]";

/* head + extra + "}" in malloc'd memory. */
static char *doc_with(const char *extra, size_t *len)
{
    size_t hl = strlen(head), el = strlen(extra);
    char *d = malloc(hl + el + 2);
    memcpy(d, head, hl);
    memcpy(d + hl, extra, el);
    d[hl + el] = '}';
    d[hl + el + 1] = '\0';
    *len = hl + el + 1;
    return d;
}

static int read_status(const char *doc, size_t len, unsigned flags, const iprof_error **err,
                       iprof_reader **keep)
{
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.flags = flags;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    int rc = iprof_reader_read(r, SRC_BUFFER(doc, len), NULL, NULL);
    *err = iprof_reader_error(r);
    *keep = r;
    return rc;
}

static void expect(const char *extra, int status, const char *path)
{
    size_t len;
    char *d = doc_with(extra, &len);
    const iprof_error *e;
    iprof_reader *r;
    int rc = read_status(d, len, IPROF_READ_STRICT, &e, &r);
    CHECK_EQ_INT(rc, status);
    if (rc && path)
        CHECK_EQ_STR(err_info(e).path, path);
    iprof_reader_free(r);
    free(d);
}

/* The first record of the only call-count entry, after a model load. */
static int64_t loaded_count(const char *records, int *rc_out)
{
    char extra[256];
    snprintf(extra, sizeof extra, ",\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[%s]}]",
             records);
    size_t len;
    char *d = doc_with(extra, &len);
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    *rc_out = iprof_model_load(&m, r, SRC_BUFFER(d, len));
    int64_t v = 0;
    if (m)
        v = iprof_entry_records(iprof_model_entry_at(m, IPROF_KIND_CALL_COUNT, 0), NULL)[0];
    iprof_model_free(m);
    iprof_reader_free(r);
    free(d);
    return v;
}

static void test_numbers(void)
{
    int rc;
    CHECK(loaded_count("9223372036854775807", &rc) == INT64_MAX);
    CHECK_EQ_INT(rc, IPROF_OK);
    CHECK(loaded_count("-9223372036854775808", &rc) == INT64_MIN);
    CHECK_EQ_INT(rc, IPROF_OK);
    CHECK_EQ_INT(loaded_count("-0", &rc), 0);
    CHECK_EQ_INT(rc, IPROF_OK);
    CHECK_EQ_INT(loaded_count("1.0", &rc), 1);
    CHECK_EQ_INT(rc, IPROF_OK);
    CHECK_EQ_INT(loaded_count("1e3", &rc), 1000);
    CHECK_EQ_INT(rc, IPROF_OK);
    loaded_count("9223372036854775808", &rc);
    CHECK_EQ_INT(rc, IPROF_ELIMIT);
    loaded_count("-9223372036854775809", &rc);
    CHECK_EQ_INT(rc, IPROF_ELIMIT);
    loaded_count("1.5", &rc);
    CHECK_EQ_INT(rc, IPROF_ESCHEMA);
    expect(",\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[9223372036854775808]}]",
           IPROF_ELIMIT, "callCountProfiles[0].records[0]");
    /* Integral spellings in ids too. */
    expect(",\"x\":0,\"samplingProfiles\":[{\"ctx\":\"1:0\",\"records\":[2]}]", IPROF_OK, NULL);
    const char *ids = "{\"version\":\"1.0.0\",\"types\":[{\"id\":1.0e0,\"name\":\"T\"}],"
                      "\"methods\":[{\"id\":-0,\"name\":\"m\",\"signature\":[1e0,10e-1]}]}";
    const iprof_error *e;
    iprof_reader *r;
    CHECK_OK(read_status(ids, strlen(ids), IPROF_READ_STRICT, &e, &r));
    iprof_reader_free(r);
    /* A 10^5-digit number: a limit error in records, skipped in unknown keys. */
    size_t n = 100000;
    char *digits = malloc(n + 128);
    strcpy(digits, ",\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[");
    size_t at = strlen(digits);
    memset(digits + at, '9', n);
    strcpy(digits + at + n, "]}]");
    expect(digits, IPROF_ELIMIT, "callCountProfiles[0].records[0]");
    strcpy(digits, ",\"x\":[");
    memset(digits + 6, '9', n);
    strcpy(digits + 6 + n, "]");
    expect(digits, IPROF_OK, NULL);
    free(digits);
}

static void test_deep_nesting(void)
{
    size_t depth = 1000000;
    char *x = malloc(2 * depth + 16);
    strcpy(x, ",\"x\":");
    memset(x + 5, '[', depth);
    memset(x + 5 + depth, ']', depth);
    x[5 + 2 * depth] = '\0';
    expect(x, IPROF_OK, NULL);
    x[5 + 2 * depth - 1] = '}'; /* mismatched close */
    expect(x, IPROF_ESYNTAX, "x");
    free(x);
}

static void test_huge_ids_and_bcis(void)
{
    const char *doc = "{\"version\":\"1.0.0\",\"types\":[{\"id\":4294967296,\"name\":\"T\"}],"
                      "\"methods\":[{\"id\":4294967297,\"name\":\"m\",\"signature\":[4294967296,4294967296]},"
                      "{\"id\":1,\"name\":\"n\",\"signature\":[4294967296,4294967296]}],"
                      "\"callCountProfiles\":[{\"ctx\":\"4294967297:0<1:2147483648\",\"records\":[1]}],"
                      "\"conditionalProfiles\":[{\"ctx\":\"1:-2147483649\",\"records\":[-3000000000,0,1]}],"
                      "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[]}";
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.flags = IPROF_READ_STRICT;
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(doc, strlen(doc))));
    if (m) {
        const iprof_entry *e = iprof_model_entry_at(m, IPROF_KIND_CALL_COUNT, 0);
        const iprof_context *c = iprof_entry_context(e);
        CHECK(iprof_context_method_id(c) == 4294967297LL);
        CHECK(iprof_context_bci(iprof_context_caller(c)) == 2147483648LL);
        CHECK(iprof_model_method_by_id(m, 4294967297LL) != NULL);
        /* Written back byte for byte. */
        iprof_writer *w = NULL;
        CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, NULL));
        CHECK_OK(iprof_writer_write_model(w, m));
        const void *out;
        size_t len;
        CHECK_OK(iprof_writer_buffer(w, &out, &len));
        CHECK_EQ_MEM(out, len, doc, strlen(doc));
        iprof_writer_free(w);
    }
    iprof_model_free(m);
    iprof_reader_free(r);
}

static void test_long_context(void)
{
    size_t frames = 100000;
    size_t cap = frames * 12 + 256;
    char *x = malloc(cap);
    size_t n = (size_t)snprintf(x, cap, ",\"samplingProfiles\":[{\"ctx\":\"");
    for (size_t i = 0; i < frames; i++)
        n += (size_t)snprintf(x + n, cap - n, i ? "<1:%zu" : "1:%zu", i);
    n += (size_t)snprintf(x + n, cap - n, "\",\"records\":[7]}]");
    size_t len;
    char *d = doc_with(x, &len);
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(d, len)));
    if (m) {
        const iprof_entry *e = iprof_model_entry_at(m, IPROF_KIND_SAMPLING, 0);
        const iprof_context *c = iprof_entry_context(e);
        CHECK_EQ_INT(iprof_context_depth(c), frames);
        CHECK_EQ_INT(iprof_context_bci(c), 0);
        size_t need = iprof_context_format(c, NULL, 0);
        char *text = malloc(need + 1);
        CHECK_EQ_INT(iprof_context_format(c, text, need + 1), need);
        const char *ctx_in = strstr(x, "\"ctx\":\"") + 7;
        CHECK_EQ_MEM(text, need, ctx_in, (size_t)(strchr(ctx_in, '"') - ctx_in));
        free(text);
    }
    iprof_model_free(m);
    iprof_reader_free(r);
    free(d);
    free(x);
}

static void test_huge_name(void)
{
    size_t n = (size_t)100 << 20;
    char *d = malloc(n + 256);
    CHECK(d != NULL);
    if (!d)
        return;
    size_t at = (size_t)sprintf(d, "{\"version\":\"1.0.0\",\"types\":[{\"id\":1,\"name\":\"");
    memset(d + at, 'N', n);
    at += n;
    at += (size_t)sprintf(d + at, "\"}],\"methods\":[]}");
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(d, at)));
    if (m) {
        size_t len = 0;
        const char *name = iprof_type_name(iprof_model_type_by_id(m, 1), &len);
        CHECK_EQ_INT(len, n);
        CHECK(name[0] == 'N' && name[n - 1] == 'N' && name[n] == '\0');
    }
    iprof_model_free(m);
    /* Over a smaller element limit it is refused. */
    iprof_reader_free(r);
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.max_element_size = (size_t)10 << 20;
    CHECK_OK(iprof_reader_new(&r, &o));
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(d, at), NULL, NULL), IPROF_ELIMIT);
    CHECK_EQ_STR(err_info(iprof_reader_error(r)).path, "types[0]");
    iprof_reader_free(r);
    free(d);
}

static void test_duplicates(void)
{
    expect(",\"types\":[]", IPROF_ESCHEMA, "types");
    const char *dup = "{\"version\":\"1.0.0\",\"types\":[{\"id\":1,\"name\":\"A\"},{\"id\":1,\"name\":\"B\"}],"
                      "\"methods\":[{\"id\":5,\"name\":\"m\",\"signature\":[1,1]},"
                      "{\"id\":5,\"name\":\"n\",\"signature\":[1,1]}]}";
    const iprof_error *e;
    iprof_reader *r;
    CHECK_EQ_INT(read_status(dup, strlen(dup), IPROF_READ_STRICT, &e, &r), IPROF_ESCHEMA);
    CHECK_EQ_STR(err_info(e).path, "types[1].id");
    iprof_reader_free(r);
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(dup, strlen(dup))));
    CHECK_EQ_INT(read_result(r).diag_count, 2);
    CHECK_EQ_STR(err_info(iprof_reader_diag(r, 1)).path, "methods[1].id");
    if (m) {
        CHECK_EQ_INT(iprof_model_type_count(m), 2);
        CHECK_EQ_STR(iprof_type_name(iprof_model_type_by_id(m, 1), NULL), "A");
        CHECK_EQ_STR(iprof_method_name(iprof_model_method_by_id(m, 5), NULL), "m");
    }
    iprof_model_free(m);
    iprof_reader_free(r);
}

static void test_damaged_files(void)
{
    const iprof_error *e;
    iprof_reader *r;
    CHECK_EQ_INT(read_status("", 0, 0, &e, &r), IPROF_ESYNTAX);
    CHECK_EQ_INT(err_info(e).offset, 0);
    iprof_reader_free(r);
    static const char nul[] = "{\"version\":\"1.0.0\",\0\"types\":[],\"methods\":[]}";
    CHECK_EQ_INT(read_status(nul, sizeof nul - 1, 0, &e, &r), IPROF_ESYNTAX);
    CHECK_EQ_INT(err_info(e).offset, 19);
    iprof_reader_free(r);
    static const char bad_utf8[] = "{\"version\":\"1.0.0\",\"types\":[{\"id\":1,\"name\":\"A\xc3\x28\"}],\"methods\":[]}";
    CHECK_EQ_INT(read_status(bad_utf8, sizeof bad_utf8 - 1, 0, &e, &r), IPROF_ESYNTAX);
    CHECK_EQ_STR(err_info(e).message, "invalid UTF-8 in string");
    CHECK_EQ_INT(err_info(e).offset, 45);
    iprof_reader_free(r);
    static const char bom[] = "\xEF\xBB\xBF{\"version\":\"1.0.0\",\"types\":[],\"methods\":[]}";
    CHECK_OK(read_status(bom, sizeof bom - 1, IPROF_READ_STRICT, &e, &r));
    iprof_reader_free(r);
    CHECK_OK(iprof_reader_new(&r, NULL));
    iprof_model *m = (iprof_model *)r; /* must be overwritten with NULL */
    CHECK_EQ_INT(iprof_model_load(&m, r, SRC_PATH("/")), IPROF_EIO);
    CHECK(m == NULL);
    iprof_reader_free(r);
}

/* Every 1/200th prefix of a corpus file fails with an unexpected end and
 * yields no model. */
static void test_truncated_corpus(void)
{
    const char *dir = check_corpus_dir();
    if (!dir)
        SKIP("../shared/corpus is absent");
    char path[4096];
    snprintf(path, sizeof path, "%s/jsonata-cli-0.4.0.iprof", dir);
    size_t len = 0;
    char *data = check_read_file(path, &len);
    CHECK(data != NULL);
    if (!data)
        return;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    for (int i = 0; i < 200; i++) {
        size_t cut = len / 200 * (size_t)i + (size_t)i % 7;
        iprof_model *m = (iprof_model *)r;
        CHECK_EQ_INT(iprof_model_load(&m, r, SRC_BUFFER(data, cut)), IPROF_ESYNTAX);
        CHECK(m == NULL);
        CHECK_EQ_STR(err_info(iprof_reader_error(r)).message, "unexpected end of input");
        CHECK_EQ_INT(err_info(iprof_reader_error(r)).offset, cut);
    }
    iprof_reader_free(r);
    free(data);
}

int main(void)
{
    RUN(test_numbers);
    RUN(test_deep_nesting);
    RUN(test_huge_ids_and_bcis);
    RUN(test_long_context);
    RUN(test_huge_name);
    RUN(test_duplicates);
    RUN(test_damaged_files);
    RUN(test_truncated_corpus);
    return check_done();
}
