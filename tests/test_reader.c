/* Unit tests of the streaming reader's mechanics (lib/read/reader.c,
 * lib/read/source.c): callbacks, sources, chunking and restarts, positions,
 * limits, stopping, allocation failure. The validation rules have their
 * own suite (test_validation.c). */
#include "check.h"
#include "check_api.h"
#include "check_alloc.h"

#include <fcntl.h>
#include <stdarg.h>
#include <unistd.h>

#include <iprof/iprof.h>
#include <iprof/stream.h>

/* ------------------------------------------------------------------------ */
/* A recorder: every callback appends a line to a log.                      */

typedef struct log_buf {
    char text[1 << 16];
    size_t len;
    int stop_after; /* stop at this callback number (1-based), 0: never */
    int calls;
} log_buf;

static void logf_(log_buf *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(l->text + l->len, sizeof l->text - l->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        l->len += (size_t)n;
}

static int tick(log_buf *l)
{
    return l->stop_after && ++l->calls >= l->stop_after;
}

static int on_version(const char *v, size_t len, void *p)
{
    CHECK(v[len] == '\0');
    logf_(p, "V %.*s\n", (int)len, v);
    return tick(p);
}

static int on_type(int64_t id, const char *name, size_t len, void *p)
{
    CHECK(name[len] == '\0'); /* the promised C string */
    logf_(p, "T %lld %.*s\n", (long long)id, (int)len, name);
    return tick(p);
}

static void log_ints(log_buf *l, const int64_t *v, size_t n)
{
    logf_(l, "[");
    for (size_t i = 0; i < n; i++)
        logf_(l, i ? ",%lld" : "%lld", (long long)v[i]);
    logf_(l, "]");
}

static int on_method(int64_t id, const char *name, size_t len, const int64_t *sig, size_t n,
                     void *p)
{
    CHECK(name[len] == '\0');
    logf_(p, "M %lld %.*s ", (long long)id, (int)len, name);
    log_ints(p, sig, n);
    logf_(p, "\n");
    return tick(p);
}

static int on_entry(int kind, const int64_t *frames, size_t nf, const int64_t *rec, size_t nr,
                    void *p)
{
    logf_(p, "E%d ", kind);
    for (size_t i = 0; i < nf; i++)
        logf_(p, i ? "<%lld:%lld" : "%lld:%lld", (long long)frames[2 * i],
              (long long)frames[2 * i + 1]);
    logf_(p, " ");
    log_ints(p, rec, nr);
    logf_(p, "\n");
    return tick(p);
}

static int on_unknown(const char *key, size_t klen, const char *json, size_t jlen, void *p)
{
    CHECK(key[klen] == '\0');
    logf_(p, "U %.*s=%.*s\n", (int)klen, key, (int)jlen, json);
    return tick(p);
}

static iprof_read_callbacks all_callbacks(void)
{
    iprof_read_callbacks cb = IPROF_READ_CALLBACKS_INIT;
    cb.on_version = on_version;
    cb.on_type = on_type;
    cb.on_method = on_method;
    cb.on_call_count = cb.on_conditional = cb.on_virtual_invoke = on_entry;
    cb.on_monitor = cb.on_sampling = cb.on_instanceof = on_entry;
    cb.on_unknown = on_unknown;
    return cb;
}

static const char sample[] =
    "{\"version\":\"1.1.0\",\"types\":[{\"id\":0,\"name\":\"boolean\"},"
    "{\"name\":\"Fib\",\"id\":10},{\"id\":8,\"name\":\"void\"},{\"id\":4823,\"name\":\"caf\\u00e9\"}],"
    "\"x-tool\": {\"a\": [1, {\"b\": null}], \"c\": \"\\\"}\"},"
    "\"methods\":[{\"id\":19547,\"name\":\"main\",\"signature\":[10,8,4823]},"
    "{\"signature\":[10,8],\"id\":19551,\"name\":\"fibonacci\"}],\n"
    "\"callCountProfiles\":[{\"ctx\":\"19551:0\",\"records\":[1]},"
    "{\"ctx\":\"19551:0<19547:9\",\"records\":[23929230826]}],"
    "\"conditionalProfiles\":[{\"ctx\":\"19551:11\",\"records\":[20,0,10,-1,1,1]}],"
    "\"virtualInvokeProfiles\":[{\"records\":[10,2],\"ctx\":\"19551:-4<19547:2\"}],"
    "\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[10,1,8,9223372036854775807]}],"
    "\"samplingProfiles\":[],"
    "\"instanceofProfiles\":[{\"ctx\":\"19547:3\",\"records\":[4823,5]}]}";

static const char sample_log[] =
    "V 1.1.0\n"
    "T 0 boolean\n"
    "T 10 Fib\n"
    "T 8 void\n"
    "T 4823 caf\xc3\xa9\n"
    "U x-tool={\"a\": [1, {\"b\": null}], \"c\": \"\\\"}\"}\n"
    "M 19547 main [10,8,4823]\n"
    "M 19551 fibonacci [10,8]\n"
    "E0 19551:0 [1]\n"
    "E0 19551:0<19547:9 [23929230826]\n"
    "E1 19551:11 [20,0,10,-1,1,1]\n"
    "E2 19551:-4<19547:2 [10,2]\n"
    "E3 0:0 [10,1,8,9223372036854775807]\n"
    "E5 19547:3 [4823,5]\n";

static iprof_reader *new_reader(unsigned flags, size_t chunk)
{
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.flags = flags;
    o.chunk_size = chunk;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    return r;
}

/* on_key: every top-level key in input order, with what it is. */
static int stop_key(const char *key, size_t klen, int section, void *p)
{
    (void)key, (void)klen, (void)p;
    return section == IPROF_SECTION_METHODS;
}

static int on_key(const char *key, size_t klen, int section, void *p)
{
    CHECK(key[klen] == '\0');
    logf_(p, "%s%.*s=%d", ((log_buf *)p)->len ? " " : "", (int)klen, key, section);
    return 0;
}

static void test_keys(void)
{
    const char *doc = "{\"version\":\"1.1.0\",\"types\":[],\"methods\":[],\"x\":[1],"
                      "\"samplingProfiles\":[],\"instanceOfProfiles\":[],\"virtualInvokeMethodProfiles\":[]}";
    iprof_reader *r = new_reader(IPROF_READ_STRICT, 0);
    iprof_read_callbacks cb = IPROF_READ_CALLBACKS_INIT;
    cb.on_key = on_key;
    static log_buf l;
    memset(&l, 0, sizeof l);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(doc, strlen(doc)), &cb, &l));
    CHECK_EQ_STR(l.text, "version=8 types=6 methods=7 x=9 samplingProfiles=4 "
                         "instanceOfProfiles=5 virtualInvokeMethodProfiles=9");
    CHECK_EQ_INT(read_result(r).diag_count, 2);
    CHECK_EQ_STR(err_info(iprof_reader_diag(r, 1)).path, "virtualInvokeMethodProfiles");
    /* on_key stops the read. */
    cb.version = IPROF_READ_CALLBACKS_VERSION;
    cb.on_key = stop_key;
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(doc, strlen(doc)), &cb, &l), IPROF_ESTOPPED);
    CHECK_EQ_STR(err_info(iprof_reader_error(r)).message, "stopped by the on_key callback");
    iprof_reader_free(r);
}

static void test_buffer_callbacks(void)
{
    iprof_reader *r = new_reader(IPROF_READ_STRICT, 0);
    iprof_read_callbacks cb = all_callbacks();
    static log_buf l;
    memset(&l, 0, sizeof l);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(sample, strlen(sample)), &cb, &l));
    CHECK_EQ_STR(l.text, sample_log);
    CHECK(iprof_reader_error(r) == NULL);
    /* The unknown key is a warning, even in strict mode. */
    CHECK_EQ_INT(read_result(r).diag_count, 1);
    const iprof_error *w = iprof_reader_diag(r, 0);
    CHECK_EQ_INT(err_info(w).severity, IPROF_SEVERITY_WARNING);
    CHECK_EQ_STR(err_info(w).path, "x-tool");
    CHECK_EQ_STR(err_info(w).message,
                 "unknown top-level key \"x-tool\": not interpreted, kept as is by models");
    /* No callbacks at all: validation only. */
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(sample, strlen(sample)), NULL, NULL));
    iprof_reader_free(r);
}

/* A read callback handing out `step` bytes at a time. */
typedef struct trickle {
    const char *data;
    size_t len, pos, step;
    int fail_at; /* fail when pos reaches this, -1 never */
} trickle;

static int trickle_read(void *buf, size_t cap, size_t *len, void *payload)
{
    trickle *t = payload;
    if (t->fail_at >= 0 && t->pos >= (size_t)t->fail_at)
        return -1;
    size_t n = t->len - t->pos;
    if (n > t->step)
        n = t->step;
    if (n > cap)
        n = cap;
    memcpy(buf, t->data + t->pos, n);
    t->pos += n;
    *len = n;
    return 0;
}

static void test_chunked_equals_buffer(void)
{
    static const size_t chunks[] = {1, 2, 3, 5, 8, 13, 64, 4096};
    static const size_t steps[] = {1, 7, 100000};
    static log_buf l;
    iprof_read_callbacks cb = all_callbacks();
    for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {
        for (size_t s = 0; s < sizeof steps / sizeof *steps; s++) {
            iprof_reader *r = new_reader(IPROF_READ_STRICT, chunks[c]);
            trickle t = {sample, strlen(sample), 0, steps[s], -1};
            memset(&l, 0, sizeof l);
            CHECK_OK(iprof_reader_read(r, SRC_CALLBACK(trickle_read, &t), &cb, &l));
            CHECK_EQ_STR(l.text, sample_log);
            iprof_reader_free(r);
        }
    }
}

static void test_every_prefix_is_unexpected_end(void)
{
    iprof_reader *r = new_reader(0, 0);
    iprof_reader *rs = new_reader(0, 3);
    size_t len = strlen(sample);
    for (size_t n = 0; n < len; n++) {
        int rc = iprof_reader_read(r, SRC_BUFFER(sample, n), NULL, NULL);
        CHECK_EQ_INT(rc, IPROF_ESYNTAX);
        const iprof_error *e = iprof_reader_error(r);
        CHECK_EQ_STR(err_info(e).message, "unexpected end of input");
        CHECK_EQ_INT(err_info(e).offset, n);
        /* The same through a chunked source. */
        trickle t = {sample, n, 0, 5, -1};
        CHECK_EQ_INT(iprof_reader_read(rs, SRC_CALLBACK(trickle_read, &t), NULL, NULL), IPROF_ESYNTAX);
        CHECK_EQ_INT(err_info(iprof_reader_error(rs)).offset, n);
    }
    iprof_reader_free(r);
    iprof_reader_free(rs);
}

/* ------------------------------------------------------------------------ */
/* Format 0.2.0 (GraalVM's legacy layout): the callbacks see the 1.x        */
/* elements, frames innermost first as in 1.x, monitorsProfile as the monitor */
/* entry of ctx 0:0; the keys are its own, members in any order.            */

static const char legacy[] =
    "{\n  \"version\": \"0.2.0\",\n  \"types\": [\n"
    "    { \"id\": 0, \"typeName\": \"int\" },\n"
    "    { \"typeName\": \"Fib\", \"id\": 10 }\n  ],\n"
    "  \"x-tool\": [ 1 ],\n"
    "  \"methods\": [\n"
    "    { \"id\": 5, \"methodName\": \"fib\", \"signature\": [ 10, 0, 0 ] },\n"
    "    { \"signature\": [ 10, 0 ], \"methodName\": \"main\", \"id\": 3 }\n  ],\n"
    "  \"hotnessPoints\": [\n"
    "    { \"methodBciList\": \"5:0,3:4\", \"records\": [ 23929230826 ] },\n"
    "    { \"records\": [ 1 ], \"methodBciList\": \"3:0\" }\n  ],\n"
    "  \"conditionalPoints\": [\n"
    "    { \"methodBciList\": \"5:-1,3:-6\", \"records\": [ 20, 0, 3, -5, 0, 2 ] }\n  ],\n"
    "  \"invokePoints\": [\n"
    "    { \"methodBciList\": \"5:15\", \"records\": [ 10, 4, 0, 2 ] }\n  ],\n"
    "  \"monitorsProfile\": {\n    \"records\": [ 10, 1, 0, 3 ] \n  }\n}";

static const char legacy_log[] =
    "V 0.2.0\n"
    "T 0 int\n"
    "T 10 Fib\n"
    "U x-tool=[ 1 ]\n"
    "M 5 fib [10,0,0]\n"
    "M 3 main [10,0]\n"
    "E0 5:0<3:4 [23929230826]\n"
    "E0 3:0 [1]\n"
    "E1 5:-1<3:-6 [20,0,3,-5,0,2]\n"
    "E2 5:15 [10,4,0,2]\n"
    "E3 0:0 [10,1,0,3]\n";

static void test_legacy(void)
{
    iprof_read_callbacks cb = all_callbacks();
    static log_buf l;
    static const size_t chunks[] = {0, 1, 3, 7, 64};
    for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {
        iprof_reader *r = new_reader(IPROF_READ_STRICT, chunks[c]);
        trickle t = {legacy, strlen(legacy), 0, chunks[c] ? chunks[c] : 100000, -1};
        memset(&l, 0, sizeof l);
        CHECK_OK(iprof_reader_read(r, SRC_CALLBACK(trickle_read, &t), &cb, &l));
        CHECK_EQ_STR(l.text, legacy_log);
        CHECK_EQ_INT(read_result(r).diag_count, 1); /* the unknown key */
        CHECK_EQ_STR(err_info(iprof_reader_diag(r, 0)).path, "x-tool");
        iprof_reader_free(r);
    }
    /* on_key: the 0.2.0 keys with the kinds they hold. */
    iprof_reader *r = new_reader(0, 0);
    iprof_read_callbacks kc = IPROF_READ_CALLBACKS_INIT;
    kc.on_key = on_key;
    memset(&l, 0, sizeof l);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(legacy, strlen(legacy)), &kc, &l));
    CHECK_EQ_STR(l.text, "version=8 types=6 x-tool=9 methods=7 hotnessPoints=0 "
                         "conditionalPoints=1 invokePoints=2 monitorsProfile=3");
    /* Empty monitor records are no entry; "records": [] of a point is one. */
    static const char empty[] =
        "{\"version\":\"0.2.0\",\"types\":[],\"methods\":[],"
        "\"invokePoints\":[{\"methodBciList\":\"0:1\",\"records\":[]}],"
        "\"monitorsProfile\":{\"records\":[]}}";
    memset(&l, 0, sizeof l);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(empty, strlen(empty)), &cb, &l));
    CHECK_EQ_STR(l.text, "V 0.2.0\nE2 0:1 []\n");
    /* Every prefix ends unexpectedly, at its end. */
    for (size_t n = 0; n < strlen(legacy); n++) {
        CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(legacy, n), NULL, NULL), IPROF_ESYNTAX);
        CHECK_EQ_INT(err_info(iprof_reader_error(r)).offset, n);
    }
    /* A report names the keys as the file spells them. */
    static const char bad[] =
        "{\"version\":\"0.2.0\",\"types\":[],\"methods\":[],\n"
        "\"hotnessPoints\":[{\"methodBciList\":\"5:0;3:4\",\"records\":[1]}]}";
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(bad, strlen(bad)), NULL, NULL), IPROF_ESCHEMA);
    const iprof_error *e = iprof_reader_error(r);
    CHECK_EQ_STR(err_info(e).path, "hotnessPoints[0].methodBciList");
    CHECK_EQ_STR(err_info(e).message, "invalid methodBciList \"5:0;3:4\" at character 4: "
                                         "expected method:bci pairs joined by ','");
    CHECK_EQ_INT(err_info(e).line, 2);
    CHECK_EQ_INT(err_info(e).column, 35);
    iprof_reader_free(r);
}

static void test_positions(void)
{
    const char *doc = "{\n  \"version\": \"1.0.0\",\n  \"types\": [\n    {\"id\": 1, \"name\": x}\n  ]}";
    iprof_reader *r = new_reader(0, 4);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(doc, strlen(doc)), NULL, NULL), IPROF_ESYNTAX);
    const iprof_error *e = iprof_reader_error(r);
    CHECK_EQ_INT(err_info(e).line, 4);
    CHECK_EQ_INT(err_info(e).column, 23);
    CHECK_EQ_INT(err_info(e).offset, strchr(doc, 'x') - doc);
    CHECK_EQ_STR(err_info(e).path, "types[0].name");
    /* The same with a chunked source, where early lines left the window. */
    trickle t = {doc, strlen(doc), 0, 3, -1};
    CHECK_EQ_INT(iprof_reader_read(r, SRC_CALLBACK(trickle_read, &t), NULL, NULL), IPROF_ESYNTAX);
    e = iprof_reader_error(r);
    CHECK_EQ_INT(err_info(e).line, 4);
    CHECK_EQ_INT(err_info(e).column, 23);
    CHECK_EQ_STR(err_info(e).path, "types[0].name");
    iprof_reader_free(r);
}

static void expect_doc(const char *doc, int status, const char *path, const char *msg)
{
    iprof_reader *r = new_reader(0, 0);
    int rc = iprof_reader_read(r, SRC_BUFFER(doc, strlen(doc)), NULL, NULL);
    CHECK_EQ_INT(rc, status);
    if (rc != IPROF_OK) {
        CHECK_EQ_STR(err_info(iprof_reader_error(r)).path, path);
        CHECK_EQ_STR(err_info(iprof_reader_error(r)).message, msg);
    }
    iprof_reader_free(r);
}

static void test_document_shapes(void)
{
    expect_doc("", IPROF_ESYNTAX, "", "unexpected end of input");
    expect_doc("   \n ", IPROF_ESYNTAX, "", "unexpected end of input");
    expect_doc("[1, 2]", IPROF_ESCHEMA, "", "an iprof document must be a JSON object");
    expect_doc("nul", IPROF_ESYNTAX, "", "unexpected end of input");
    expect_doc("nulx", IPROF_ESYNTAX, "", "invalid literal");
    expect_doc("{}", IPROF_ESCHEMA, "", "the document is missing \"version\"");
    expect_doc("{\"version\":\"1.0.0\",\"methods\":[]}", IPROF_ESCHEMA, "",
               "the document is missing \"types\"");
    expect_doc("{\"version\":\"1.0.0\",\"types\":[],\"methods\":[]} x", IPROF_ESYNTAX, "",
               "unexpected data after the document");
    expect_doc("\xEF\xBB\xBF{\"version\":\"1.0.0\",\"types\":[],\"methods\":[]}", IPROF_OK, "", "");
    expect_doc("{\"version\":\"1.0.0\",\"types\":[],\"types\":[],\"methods\":[]}", IPROF_ESCHEMA,
               "types", "duplicate key \"types\"");
    expect_doc("{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],}", IPROF_ESYNTAX, "",
               "expected a key");
    expect_doc("{\"version\":\"1.0.0\",\"types\":[{\"id\":1,\"name\":\"a\"},],\"methods\":[]}",
               IPROF_ESYNTAX, "types[1]", "expected a value after ','");
    expect_doc("{\"version\":\"1.0.0\",\"types\":{},\"methods\":[]}", IPROF_ESCHEMA, "types",
               "expected an array");
    expect_doc("{\"version\":\"1.0.0\",\"types\":[{\"id\":\"1\",\"name\":\"a\"}],\"methods\":[]}",
               IPROF_ESCHEMA, "types[0].id", "expected an integer");
    expect_doc("{\"version\":\"1.0.0\",\"types\":[{\"id\":1.5,\"name\":\"a\"}],\"methods\":[]}",
               IPROF_ESCHEMA, "types[0].id", "expected an integer, not a fraction");
    expect_doc("{\"version\":\"1.0.0\",\"types\":[{\"id\":1e3,\"name\":\"a\"}],\"methods\":[]}",
               IPROF_OK, "", "");
    expect_doc("{\"version\":\"1.0.0\",\"types\":[{\"id\":1,\"id\":2,\"name\":\"a\"}],\"methods\":[]}",
               IPROF_ESCHEMA, "types[0]", "duplicate key \"id\"");
    expect_doc("{\"version\":\"1.0.0\",\"types\":[{\"id\":1}],\"methods\":[]}", IPROF_ESCHEMA,
               "types[0]", "type is missing \"name\"");
    expect_doc("{\"version\":\"1.0.0\",\"types\":[{\"id\":1,\"name\":\"a\",\"extra\":[{}]}],\"methods\":[]}",
               IPROF_OK, "", "");
    expect_doc("{\"version\":\"1.0.0\",\"types\":[{\"id\":1,\"name\":\"a\\u0000b\"}],\"methods\":[]}",
               IPROF_OK, "", "");
    expect_doc("{\"version\":\"1.0.0\",\"types\":[{\"id\":1,\"name\":\"a\xff\"}],\"methods\":[]}",
               IPROF_ESYNTAX, "types[0].name", "invalid UTF-8 in string");
    expect_doc("{\"version\":\"1.0.0\",\"types\":[{\"id\":1,\"name\":\"a\"}],\"methods\":[],"
               "\"callCountProfiles\":[{\"ctx\":\"1:0<\",\"records\":[1]}]}",
               IPROF_ESCHEMA, "callCountProfiles[0].ctx",
               "invalid ctx \"1:0<\" at character 5: expected method:bci pairs joined by '<'");
    expect_doc("{\"version\":\"1.0.0\",\"x\":[1,2,}", IPROF_ESYNTAX, "x", "expected a JSON value");
    expect_doc("{\"ver\\u0073ion\":\"1.0.0\",\"types\":[],\"methods\":[]}", IPROF_OK, "", "");
    expect_doc("{\"version\":\"abc\",\"types\":[],\"methods\":[]}", IPROF_EVERSION, "version",
               "malformed format version \"abc\"");
}

static void test_unknown_keys_and_escaped_member_keys(void)
{
    const char *doc = "{\"z\\u00e9\" : [ 1 , \"]\" ] ,\"version\":\"1.0.0\",\"types\":[{\"\\u0069d\":3,"
                      "\"name\":\"A\"}],\"methods\":[],\"n\":null}";
    iprof_reader *r = new_reader(IPROF_READ_STRICT, 0);
    iprof_read_callbacks cb = all_callbacks();
    static log_buf l;
    memset(&l, 0, sizeof l);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(doc, strlen(doc)), &cb, &l));
    CHECK_EQ_STR(l.text, "U z\xc3\xa9=[ 1 , \"]\" ]\nV 1.0.0\nT 3 A\nU n=null\n");
    iprof_reader_free(r);
}

/* Keys no element has are not read, so a model lacks them: each element
 * with any says so once, as a warning at its first such key (also in
 * strict mode, which they do not fail, and however the input is cut into
 * chunks, which restarts elements), in the 1.x and the 0.2.0 layouts. */
static void test_unknown_member_keys_warned(void)
{
    const char *doc = "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"A\"},{\"id\":1,"
                      "\"x\\u0041\":[1,{\"a\":2}],\"name\":\"B\",\"extra\":1,\"more\":null}],"
                      "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0],\"ctx\":1}],"
                      "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[1],\"note\":\"x\"}]}";
    static const char *const want[][3] = {
        {"types[1]", "1:57", "unknown key \"x\\u0041\" (and 2 more) in a type: not read, so a "
                             "model does not hold it"},
        {"methods[0]", "1:162", "unknown key \"ctx\" in a method: not read, so a model does not hold it"},
        {"callCountProfiles[0]", "1:220", "unknown key \"note\" in an entry: not read, so a model "
                                          "does not hold it"},
    };
    static const size_t chunks[] = {0, 1, 2, 7, 64};
    for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {
        iprof_reader *r = new_reader(IPROF_READ_STRICT, chunks[c]);
        trickle t = {doc, strlen(doc), 0, 3, -1};
        CHECK_OK(chunks[c] ? iprof_reader_read(r, SRC_CALLBACK(trickle_read, &t), NULL, NULL)
                           : iprof_reader_read(r, SRC_BUFFER(doc, strlen(doc)), NULL, NULL));
        CHECK_EQ_INT(read_result(r).diag_count, 3);
        for (size_t i = 0; i < 3 && i < read_result(r).diag_count; i++) {
            const iprof_error *w = iprof_reader_diag(r, i);
            char at[32];
            snprintf(at, sizeof at, "%llu:%llu", (unsigned long long)err_info(w).line,
                     (unsigned long long)err_info(w).column);
            CHECK_EQ_INT(err_info(w).severity, IPROF_SEVERITY_WARNING);
            CHECK_EQ_INT(err_info(w).status, IPROF_ESCHEMA);
            CHECK_EQ_STR(err_info(w).path, want[i][0]);
            CHECK_EQ_STR(at, want[i][1]);
            CHECK_EQ_STR(err_info(w).message, want[i][2]);
        }
        iprof_reader_free(r);
    }
    const char *old = "{\"version\":\"0.2.0\",\"types\":[{\"id\":0,\"typeName\":\"A\","
                         "\"name\":\"A\"}],\"methods\":[]}";
    iprof_reader *r = new_reader(0, 0);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(old, strlen(old)), NULL, NULL));
    CHECK_EQ_INT(read_result(r).diag_count, 1);
    CHECK_EQ_STR(err_info(iprof_reader_diag(r, 0)).message,
                 "unknown key \"name\" in a type: not read, so a model does not hold it");
    iprof_reader_free(r);
}

static void test_stop(void)
{
    iprof_reader *r = new_reader(0, 0);
    iprof_read_callbacks cb = all_callbacks();
    static log_buf l;
    memset(&l, 0, sizeof l);
    l.stop_after = 3; /* version, type 0, type 10 */
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(sample, strlen(sample)), &cb, &l), IPROF_ESTOPPED);
    CHECK_EQ_STR(l.text, "V 1.1.0\nT 0 boolean\nT 10 Fib\n");
    CHECK_EQ_STR(err_info(iprof_reader_error(r)).path, "types[1]");
    CHECK_EQ_STR(err_info(iprof_reader_error(r)).message, "stopped by the on_type callback");
    iprof_reader_free(r);
}

static void test_fd_and_path_sources(void)
{
    char path[] = "/tmp/iprof-test-reader-XXXXXX";
    int fd = check_mkstemp(path);
    CHECK(fd >= 0);
    CHECK_EQ_INT(write(fd, sample, strlen(sample)), (long long)strlen(sample));
    close(fd);
    iprof_reader *r = new_reader(IPROF_READ_STRICT, 16);
    iprof_read_callbacks cb = all_callbacks();
    static log_buf l;
    memset(&l, 0, sizeof l);
    CHECK_OK(iprof_reader_read(r, SRC_PATH(path), &cb, &l));
    CHECK_EQ_STR(l.text, sample_log);
    fd = open(path, O_RDONLY);
    memset(&l, 0, sizeof l);
    CHECK_OK(iprof_reader_read(r, SRC_FD(fd), &cb, &l));
    CHECK_EQ_STR(l.text, sample_log);
    close(fd);
    unlink(path);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_PATH(path), NULL, NULL), IPROF_EIO);
    CHECK(strstr(err_info(iprof_reader_error(r)).message, path) != NULL);
    CHECK(strstr(err_info(iprof_reader_error(r)).message, "No such file") != NULL);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_PATH("/tmp"), NULL, NULL), IPROF_EIO);
    CHECK_EQ_STR(err_info(iprof_reader_error(r)).message, "cannot read /tmp: it is a directory");
    CHECK_EQ_INT(iprof_reader_read(r, SRC_FD(-1), NULL, NULL), IPROF_EINVAL);
    /* A failing read callback. */
    trickle t = {sample, strlen(sample), 0, 10, 40};
    CHECK_EQ_INT(iprof_reader_read(r, SRC_CALLBACK(trickle_read, &t), NULL, NULL), IPROF_EIO);
    CHECK_EQ_STR(err_info(iprof_reader_error(r)).message, "the read callback failed");
    iprof_reader_free(r);
}

static void test_limits(void)
{
    /* An element larger than max_element_size (streamed sources). */
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.chunk_size = 16;
    o.max_element_size = 64;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    char doc[512];
    snprintf(doc, sizeof doc, "{\"version\":\"1.0.0\",\"types\":[{\"id\":1,\"name\":\"%0200d\"}],\"methods\":[]}", 7);
    trickle t = {doc, strlen(doc), 0, 1000, -1};
    CHECK_EQ_INT(iprof_reader_read(r, SRC_CALLBACK(trickle_read, &t), NULL, NULL), IPROF_ELIMIT);
    iprof_reader_free(r);
    /* The same report from memory and from streams of any chunk size: at
     * the element, with its path (not a field a restart left), also when
     * the element holds an error past the limit ("x", an unknown key's
     * "[1,]") that a read from memory would reach first. */
    for (int variant = 0; variant < 3; variant++) {
        size_t n = 150000, cap = 3 * n + 200, len = 0;
        char *sig = malloc(cap);
        const char *head = variant == 2 ? "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"u\":"
                                        : "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":"
                                          "\"int\"}],\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":";
        size_t start = variant == 2 ? strlen(head) : strlen(head) - strlen("{\"id\":1,\"name\":\"m\",\"signature\":");
        len += (size_t)snprintf(sig + len, cap - len, "%s[", head);
        for (size_t i = 0; i < n; i++)
            len += (size_t)snprintf(sig + len, cap - len, i ? ",0" : "0");
        len += (size_t)snprintf(sig + len, cap - len, "%s", variant == 0   ? "]}]}"
                                                            : variant == 1 ? ",\"x\"]}]}"
                                                                           : ",]}");
        iprof_read_options lo = IPROF_READ_OPTIONS_INIT;
        lo.max_element_size = 100000;
        static const size_t chunks[] = {0, 4096, 65536};
        for (int how = 0; how < 4; how++) {
            lo.chunk_size = how ? chunks[how - 1] : 0;
            CHECK_OK(iprof_reader_new(&r, &lo));
            trickle ts = {sig, len, 0, 65536, -1};
            int rc = how ? iprof_reader_read(r, SRC_CALLBACK(trickle_read, &ts), NULL, NULL)
                         : iprof_reader_read(r, SRC_BUFFER(sig, len), NULL, NULL);
            CHECK_EQ_INT(rc, IPROF_ELIMIT);
            const iprof_error *e = iprof_reader_error(r);
            CHECK_EQ_INT(err_info(e).offset, start);
            CHECK_EQ_STR(err_info(e).path, variant == 2 ? "u" : "methods[0]");
            CHECK_EQ_STR(err_info(e).message, "an element is larger than the limit of 100000 bytes");
            iprof_reader_free(r);
        }
        free(sig);
    }
    /* 10^6 nested arrays in an unknown key, streamed in small chunks. */
    size_t depth = 1000000;
    const char *head = "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"deep\":";
    size_t hl = strlen(head), total = hl + 2 * depth + 1;
    char *big = malloc(total + 1);
    memcpy(big, head, hl);
    memset(big + hl, '[', depth);
    memset(big + hl + depth, ']', depth);
    big[total - 1] = '}';
    big[total] = '\0';
    r = new_reader(0, 4096);
    trickle t2 = {big, total, 0, 65536, -1};
    CHECK_OK(iprof_reader_read(r, SRC_CALLBACK(trickle_read, &t2), NULL, NULL));
    iprof_reader_free(r);
    o.chunk_size = 0;
    o.max_element_size = 0;
    o.max_depth = 100;
    CHECK_OK(iprof_reader_new(&r, &o));
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(big, total), NULL, NULL), IPROF_ELIMIT);
    CHECK_EQ_INT(err_info(iprof_reader_error(r)).offset, hl + 100);
    iprof_reader_free(r);
    free(big);
}

/* Messages and paths quote long input cut at a character, marked "...":
 * never half of a UTF-8 sequence. */
static void test_quotes_cut_whole(void)
{
    char e30[128] = "", u100[256] = "", doc[1024];
    for (int i = 0; i < 40; i++)
        strcat(e30, "\xc3\xa9"); /* é */
    for (int i = 0; i < 100; i++)
        strcat(u100, "\xc3\xbc"); /* ü */
    snprintf(doc, sizeof doc, "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"%s\":1,"
             "\"samplingProfiles\":[{\"ctx\":\"1:0<1%s\",\"records\":[1]}]}", u100, e30);
    iprof_reader *r = new_reader(0, 0);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(doc, strlen(doc)), NULL, NULL), IPROF_ESCHEMA);
    char want[512] = "invalid ctx \"1:0<1";
    for (int i = 0; i < 29; i++) /* 5 + 58 bytes: the 30th would pass 64 */
        strcat(want, "\xc3\xa9");
    strcat(want, "...\" at character 6: expected method:bci pairs joined by '<'");
    CHECK_EQ_STR(err_info(iprof_reader_error(r)).message, want);
    /* The unknown key's warning and its path. */
    CHECK_EQ_INT(read_result(r).diag_count, 1);
    const iprof_error *d = iprof_reader_diag(r, 0);
    snprintf(want, sizeof want, "unknown top-level key \"%.64s...\": not interpreted, kept as is "
             "by models", u100);
    CHECK_EQ_STR(err_info(d).message, want);
    snprintf(want, sizeof want, "%.190s", u100); /* 95 of them: the 96th would pass 191 */
    CHECK_EQ_STR(err_info(d).path, want);
    iprof_reader_free(r);
}

/* A recursive ctx naming an undefined method twice is one diagnostic for
 * it, whether the methods come before or after the entries. */
static void test_recursive_dangling_once(void)
{
    static const char *const docs[] = {
        "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],"
        "\"callCountProfiles\":[{\"ctx\":\"7:0<8:1<7:3\",\"records\":[1]}]}",
        "{\"version\":\"1.0.0\",\"callCountProfiles\":[{\"ctx\":\"7:0<8:1<7:3\","
        "\"records\":[1]}],\"types\":[],\"methods\":[]}"};
    for (int i = 0; i < 2; i++) {
        iprof_reader *r = new_reader(0, 0);
        CHECK_OK(iprof_reader_read(r, SRC_BUFFER(docs[i], strlen(docs[i])), NULL, NULL));
        CHECK_EQ_INT(read_result(r).diag_count, 2);
        CHECK_EQ_STR(err_info(iprof_reader_diag(r, 0)).message, "method id 7 is not defined");
        CHECK_EQ_STR(err_info(iprof_reader_diag(r, 1)).message, "method id 8 is not defined");
        iprof_reader_free(r);
    }
}

static void test_deferred_checks(void)
{
    /* Entries before methods: references wait for the methods. */
    const char *ok = "{\"callCountProfiles\":[{\"ctx\":\"7:0\",\"records\":[1]}],\"version\":\"1.0.0\","
                     "\"types\":[{\"id\":1,\"name\":\"A\"}],\"methods\":[{\"id\":7,\"name\":\"m\",\"signature\":[1,1]}]}";
    const char *bad = "{\"callCountProfiles\":[{\"ctx\":\"7:0\",\"records\":[1]}],\"version\":\"1.0.0\","
                      "\"types\":[],\"methods\":[]}";
    iprof_reader *r = new_reader(0, 0);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(ok, strlen(ok)), NULL, NULL));
    CHECK_EQ_INT(read_result(r).diag_count, 0);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(bad, strlen(bad)), NULL, NULL));
    CHECK_EQ_INT(read_result(r).diag_count, 1);
    const iprof_error *d = iprof_reader_diag(r, 0);
    CHECK_EQ_INT(err_info(d).status, IPROF_EDANGLING);
    CHECK_EQ_STR(err_info(d).path, "callCountProfiles[0].ctx");
    CHECK_EQ_INT(err_info(d).offset, 29);
    CHECK_EQ_STR(err_info(d).message, "method id 7 is not defined");
    CHECK(iprof_reader_diag(r, 1) == NULL);
    iprof_reader_free(r);
    r = new_reader(IPROF_READ_STRICT, 0);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(bad, strlen(bad)), NULL, NULL), IPROF_EDANGLING);
    CHECK_EQ_INT(err_info(iprof_reader_error(r)).offset, 29);
    /* instanceofProfiles before a 1.0.0 version. */
    const char *iof = "{\"types\":[],\"methods\":[],\"instanceofProfiles\":[],\"version\":\"1.0.0\"}";
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(iof, strlen(iof)), NULL, NULL), IPROF_EVERSION);
    CHECK_EQ_STR(err_info(iprof_reader_error(r)).path, "instanceofProfiles");
    CHECK_EQ_INT(err_info(iprof_reader_error(r)).offset, 46);
    iprof_reader_free(r);
    /* No reference checks: neither dangling ids nor repeats are reported. */
    const char *dup = "{\"version\":\"1.0.0\",\"types\":[{\"id\":1,\"name\":\"A\"},{\"id\":1,\"name\":\"B\"}],"
                      "\"methods\":[],\"callCountProfiles\":[{\"ctx\":\"7:0\",\"records\":[1]}]}";
    r = new_reader(IPROF_READ_STRICT | IPROF_READ_NO_REFERENCES, 0);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(dup, strlen(dup)), NULL, NULL));
    iprof_reader_free(r);
}

static void test_reuse_and_arguments(void)
{
    const char *bad = "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"callCountProfiles\":[{\"ctx\":\"7:0\",\"records\":[1]}]}";
    iprof_reader *r = new_reader(0, 0);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(bad, strlen(bad)), NULL, NULL));
    CHECK_EQ_INT(read_result(r).diag_count, 1);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(sample, strlen(sample)), NULL, NULL));
    CHECK_EQ_INT(read_result(r).diag_count, 1); /* the warning of "x-tool" alone */
    CHECK(iprof_reader_error(r) == NULL);
    iprof_read_callbacks cb = all_callbacks();
    cb.version = 99;
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(sample, strlen(sample)), &cb, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(NULL, 5), NULL, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_PATH(NULL), NULL, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_CALLBACK(NULL, NULL), NULL, NULL), IPROF_EINVAL);
    iprof_reader_free(r);
    iprof_reader_free(NULL);
    iprof_read_options o;
    CHECK_EQ_INT(iprof_read_options_init(&o, IPROF_READ_OPTIONS_VERSION + 1), IPROF_EINVAL);
    CHECK_OK(iprof_read_options_init(&o, IPROF_READ_OPTIONS_VERSION));
    o.version = 7;
    CHECK_EQ_INT(iprof_reader_new(&r, &o), IPROF_EINVAL);
    CHECK(r == NULL);
    /* One rule for every options struct: version 1 .. the headers', no
     * unknown flag. */
    o.version = 0;
    CHECK_EQ_INT(iprof_reader_new(&r, &o), IPROF_EINVAL);
    o.version = IPROF_READ_OPTIONS_VERSION;
    o.flags = 0x100;
    CHECK_EQ_INT(iprof_reader_new(&r, &o), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_read_options_init(&o, 0), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_reader_new(NULL, NULL), IPROF_EINVAL);
    CHECK(iprof_reader_error(NULL) == NULL);
    iprof_read_result res = IPROF_READ_RESULT_INIT;
    CHECK_EQ_INT(iprof_reader_get_result(NULL, &res), IPROF_EINVAL);
}


static void test_allocation_failure(void)
{
    /* Violations (diagnostics), pending references and a small window. */
    const char *doc = "{\"callCountProfiles\":[{\"ctx\":\"7:0<8:1<9:2<10:3<11:4<12:5<13:6<14:7<15:8\",\"records\":[1,2]}],"
                      "\"version\":\"1.0.5\",\"types\":[],\"methods\":[],\"u\":{\"k\\u00e9y\":[[[[1]]]]}}";
    int succeeded = 0;
    for (long n = 1; n < 200 && !succeeded; n++) {
        fail_alloc f = {.fail_at = n};
        iprof_allocator a = fail_hook(&f);
        iprof_read_options o = IPROF_READ_OPTIONS_INIT;
        o.allocator = &a;
        o.chunk_size = 8;
        iprof_reader *r = NULL;
        int rc = iprof_reader_new(&r, &o);
        if (rc == IPROF_OK) {
            trickle t = {doc, strlen(doc), 0, 5, -1};
            rc = iprof_reader_read(r, SRC_CALLBACK(trickle_read, &t), NULL, NULL);
            if (rc == IPROF_OK) {
                succeeded = 1;
                CHECK_EQ_INT(read_result(r).diag_count, 12); /* 2 warnings, records, 9 refs */
            }
            iprof_reader_free(r);
        }
        CHECK(rc == IPROF_OK || rc == IPROF_ENOMEM);
        CHECK_EQ_INT(f.live_bytes, 0);
    }
    CHECK(succeeded);
    /* 0.2.0: its monitor object is the first entry, so its one frame
     * ("0:0") is the reader's first frame buffer. */
    static const char legacy_doc[] =
        "{\"version\":\"0.2.0\",\"types\":[{\"id\":4,\"typeName\":\"A\"}],\"methods\":[],"
        "\"monitorsProfile\":{\"records\":[4,1]}}";
    static log_buf l;
    iprof_read_callbacks cb = all_callbacks();
    succeeded = 0;
    for (long n = 1; n < 100 && !succeeded; n++) {
        fail_alloc f = {.fail_at = n};
        iprof_allocator a = fail_hook(&f);
        iprof_read_options o = IPROF_READ_OPTIONS_INIT;
        o.allocator = &a;
        iprof_reader *r = NULL;
        int rc = iprof_reader_new(&r, &o);
        memset(&l, 0, sizeof l);
        if (rc == IPROF_OK) {
            rc = iprof_reader_read(r, SRC_BUFFER(legacy_doc, strlen(legacy_doc)), &cb, &l);
            if (rc == IPROF_OK) {
                succeeded = 1;
                CHECK_EQ_STR(l.text, "V 0.2.0\nT 4 A\nE3 0:0 [4,1]\n");
            } else {
                CHECK_EQ_STR(err_info(iprof_reader_error(r)).message, "out of memory");
            }
            iprof_reader_free(r);
        }
        CHECK(rc == IPROF_OK || rc == IPROF_ENOMEM);
        CHECK_EQ_INT(f.live_bytes, 0);
    }
    CHECK(succeeded);
}

/* Integers of every length from 1 to 19 digits, both signs, in records
 * and ids: the 8-digits-at-once fast path against the values printed by
 * printf. */
static int64_t got_records[64];
static size_t got_count;

static int keep_records(int kind, const int64_t *frames, size_t nf, const int64_t *rec,
                        size_t nr, void *p)
{
    (void)kind;
    (void)frames;
    (void)nf;
    (void)p;
    got_count = nr < 64 ? nr : 64;
    memcpy(got_records, rec, got_count * sizeof *rec);
    return 0;
}

static void test_every_digit_count(void)
{
    int64_t want[64];
    size_t n = 0;
    int64_t v = 7;
    for (int digits = 1; digits <= 19; digits++) {
        want[n++] = v;
        want[n++] = -v;
        if (digits < 19)
            v = v * 10 + digits % 10;
    }
    want[n++] = 9999999;
    want[n++] = 10000000;
    want[n++] = 99999999;
    want[n++] = 100000000;
    char doc[4096];
    size_t len = (size_t)snprintf(doc, sizeof doc, "{\"version\":\"1.0.0\",\"types\":[],"
                                  "\"methods\":[],\"conditionalProfiles\":[{\"ctx\":\"1:0\","
                                  "\"records\":[");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(doc + len, sizeof doc - len, i ? ",%lld" : "%lld",
                                (long long)want[i]);
    len += (size_t)snprintf(doc + len, sizeof doc - len, ",0]}]}");
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.flags = IPROF_READ_NO_REFERENCES;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    iprof_read_callbacks cb = IPROF_READ_CALLBACKS_INIT;
    cb.on_conditional = keep_records;
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(doc, len), &cb, NULL));
    CHECK_EQ_INT(got_count, n + 1);
    for (size_t i = 0; i < n && i < got_count; i++)
        if (got_records[i] != want[i])
            CHECK_EQ_INT(got_records[i], want[i]);
    iprof_reader_free(r);
}

/* Diagnostics past max_diagnostics are counted, not kept; version 1
 * option structs keep the default. */
static void test_diagnostics_cap(void)
{
    check_text t = {0};
    tx_add(&t, "{\"version\":\"1.0.5\",\"types\":[],\"methods\":[],\"callCountProfiles\":[");
    for (int i = 0; i < 30; i++)
        tx_add(&t, "%s{\"ctx\":\"%d:0\",\"records\":[1]}", i ? "," : "", i + 1);
    tx_add(&t, "]}");
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.max_diagnostics = 5;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(t.s, t.len), NULL, NULL));
    CHECK_EQ_INT(read_result(r).diag_count, 5); /* the version warning and 4 of 30 */
    CHECK_EQ_INT(read_result(r).dropped_errors, 26);
    CHECK_EQ_INT(read_result(r).dropped_warnings, 0);
    /* A model loaded past the cap is not vouched for: its write checks. */
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(t.s, t.len)));
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, NULL));
    CHECK_EQ_INT(iprof_writer_write_model(w, m), IPROF_EDANGLING);
    iprof_writer_free(w);
    iprof_model_free(m);
    iprof_reader_free(r);
    /* Each read starts counting again. */
    static const char clean[] = "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[]}";
    CHECK_OK(iprof_reader_new(&r, &o));
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(t.s, t.len), NULL, NULL));
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(clean, strlen(clean)), NULL, NULL));
    CHECK_EQ_INT(read_result(r).dropped_errors, 0);
    CHECK_EQ_INT(read_result(r).dropped_warnings, 0);
    iprof_reader_free(r);
    /* Version 1 structs: the default cap of 10000. */
    CHECK_OK(iprof_read_options_init(&o, 1));
    CHECK_OK(iprof_reader_new(&r, &o));
    iprof_reader_free(r);
    /* No reader, no result (and out untouched). */
    iprof_read_result none = IPROF_READ_RESULT_INIT;
    none.dropped_errors = 7;
    CHECK_EQ_INT(iprof_reader_get_result(NULL, &none), IPROF_EINVAL);
    CHECK_EQ_INT(none.dropped_errors, 7);
    free(t.s);
}

int main(void)
{
    RUN(test_buffer_callbacks);
    RUN(test_keys);
    RUN(test_diagnostics_cap);
    RUN(test_chunked_equals_buffer);
    RUN(test_every_prefix_is_unexpected_end);
    RUN(test_legacy);
    RUN(test_positions);
    RUN(test_document_shapes);
    RUN(test_unknown_keys_and_escaped_member_keys);
    RUN(test_unknown_member_keys_warned);
    RUN(test_stop);
    RUN(test_fd_and_path_sources);
    RUN(test_limits);
    RUN(test_quotes_cut_whole);
    RUN(test_recursive_dangling_once);
    RUN(test_deferred_checks);
    RUN(test_reuse_and_arguments);
    RUN(test_allocation_failure);
    RUN(test_every_digit_count);
    return check_done();
}
