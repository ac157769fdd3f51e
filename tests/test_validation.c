/*
 * Validation through the public API: every rule of the format broken once,
 * in a small inline document, with the exact status, path, byte offset,
 * line and column of the report, in strict mode (the read fails and
 * iprof_reader_error describes the violation) and in lenient mode (the read
 * succeeds and the violation is the one diagnostic), or fatal in both.
 *
 * Expected offsets are not hard-coded numbers: each case names an anchor,
 * a substring that occurs exactly once in its document, with a '|' marking
 * the expected byte; line and column are computed from the offset here.
 *
 * Conventions (the reader's spec): the offset of a rule violation is the
 * start of the offending JSON value: the '"' of a ctx or version string,
 * the '[' of a records/signature array for a length rule, the first digit
 * or '-' of a number for a bad or dangling id, the '"' of the ctx for a
 * dangling method id of a ctx. Syntax errors: the offending byte, or the
 * input length at an unexpected end. Lines and columns start at 1, columns
 * count bytes.
 */
#include <iprof/iprof.h>
#include <iprof/stream.h>

#include "check.h"
#include "check_api.h"

enum mode {
    RULE,  /* strict: read fails; lenient: read succeeds with one error diagnostic */
    FATAL, /* both modes fail with the same report */
    WARN,  /* both modes succeed with one warning diagnostic */
    CLEAN  /* both modes succeed without any diagnostic */
};

typedef struct vcase {
    const char *name;
    enum mode mode;
    int status;
    const char *path;   /* NULL: not checked */
    const char *anchor; /* NULL: offset not checked; "$": end of input */
    const char *msg_sub; /* NULL: message not checked */
    const char *doc;
} vcase;

/* Offset of the '|' of anchor within doc (anchor without its '|' must occur
 * exactly once). */
static int anchor_offset(const char *doc, const char *anchor, size_t *off)
{
    if (!strcmp(anchor, "$")) {
        *off = strlen(doc);
        return 0;
    }
    char buf[512];
    const char *bar = strchr(anchor, '|');
    if (!bar || strlen(anchor) >= sizeof buf) {
        fprintf(stderr, "bad anchor %s\n", anchor);
        return -1;
    }
    size_t pre = (size_t)(bar - anchor);
    memcpy(buf, anchor, pre);
    strcpy(buf + pre, bar + 1);
    const char *p = strstr(doc, buf);
    if (!p || strstr(p + 1, buf)) {
        fprintf(stderr, "anchor %s not found exactly once\n", anchor);
        return -1;
    }
    *off = (size_t)(p - doc) + pre;
    return 0;
}

static void line_col(const char *doc, size_t off, uint64_t *line, uint64_t *col)
{
    uint64_t l = 1;
    size_t start = 0;
    for (size_t i = 0; i < off && doc[i]; i++)
        if (doc[i] == '\n') {
            l++;
            start = i + 1;
        }
    *line = l;
    *col = (uint64_t)(off - start) + 1;
}

static void check_report(const vcase *c, const iprof_error *e, const char *what)
{
    fprintf(stderr, "   [%s] %s\n", c->name, what);
    CHECK(e != NULL);
    if (!e)
        return;
    CHECK_EQ_STR(iprof_status_string(err_info(e).status), iprof_status_string(c->status));
    CHECK_EQ_INT(err_info(e).status, c->status);
    if (c->path)
        CHECK_EQ_STR(err_info(e).path, c->path);
    if (c->anchor) {
        size_t off;
        if (anchor_offset(c->doc, c->anchor, &off) == 0) {
            uint64_t line, col;
            line_col(c->doc, off, &line, &col);
            CHECK_EQ_INT(err_info(e).offset, off);
            CHECK_EQ_INT(err_info(e).line, line);
            CHECK_EQ_INT(err_info(e).column, col);
        } else {
            CHECK(!"bad anchor");
        }
    }
    if (c->msg_sub) {
        const char *m = err_info(e).message;
        if (!strstr(m, c->msg_sub))
            fprintf(stderr, "   message \"%s\" lacks \"%s\"\n", m, c->msg_sub);
        CHECK(strstr(m, c->msg_sub) != NULL);
    }
    if (c->mode == WARN)
        CHECK_EQ_INT(err_info(e).severity, IPROF_SEVERITY_WARNING);
    else
        CHECK_EQ_INT(err_info(e).severity, IPROF_SEVERITY_ERROR);
}

static void dump_diags(const iprof_reader *r)
{
    size_t n = read_result(r).diag_count;
    for (size_t i = 0; i < n && i < 10; i++) {
        const iprof_error *e = iprof_reader_diag(r, i);
        fprintf(stderr, "   diag %zu: %s: %s path %s offset %" PRIu64 "\n", i,
                iprof_status_string(err_info(e).status), err_info(e).message,
                err_info(e).path, err_info(e).offset);
    }
}

static iprof_reader *new_reader(int strict)
{
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    iprof_reader *r = NULL;
    if (strict)
        o.flags |= IPROF_READ_STRICT;
    CHECK_OK(iprof_reader_new(&r, &o));
    return r;
}

/* A read function handing out the document a few bytes at a time. */
typedef struct drip {
    const char *data;
    size_t len, pos, step;
} drip;

static int read_drip(void *buf, size_t cap, size_t *len, void *p)
{
    drip *d = p;
    size_t n = d->len - d->pos;
    if (n > d->step)
        n = d->step;
    if (n > cap)
        n = cap;
    memcpy(buf, d->data + d->pos, n);
    d->pos += n;
    *len = n;
    return 0;
}

static int same_report(const iprof_error *a, const iprof_error *b)
{
    if (!a || !b)
        return a == b;
    return err_info(a).status == err_info(b).status &&
           err_info(a).severity == err_info(b).severity &&
           err_info(a).offset == err_info(b).offset &&
           err_info(a).line == err_info(b).line &&
           err_info(a).column == err_info(b).column &&
           !strcmp(err_info(a).path, err_info(b).path) &&
           !strcmp(err_info(a).message, err_info(b).message);
}

/* The same read in pieces of 1, 2, 3 and 7 bytes (chunk_size 1..7) gives
 * the same result, error and diagnostics as the read from memory. */
static void check_chunked(const vcase *c, int strict)
{
    size_t len = strlen(c->doc);
    iprof_reader *ref = new_reader(strict);
    int want = iprof_reader_read(ref, SRC_BUFFER(c->doc, len), NULL, NULL);
    static const size_t steps[] = {1, 2, 3, 7};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        iprof_read_options o = IPROF_READ_OPTIONS_INIT;
        o.flags = strict ? IPROF_READ_STRICT : 0;
        o.chunk_size = steps[i];
        iprof_reader *r = NULL;
        CHECK_OK(iprof_reader_new(&r, &o));
        drip d = {c->doc, len, 0, steps[i]};
        int rc = iprof_reader_read(r, SRC_CALLBACK(read_drip, &d), NULL, NULL);
        int ok = rc == want && same_report(iprof_reader_error(r), iprof_reader_error(ref)) &&
                 read_result(r).diag_count == read_result(ref).diag_count;
        for (size_t k = 0; ok && k < read_result(r).diag_count; k++)
            ok = same_report(iprof_reader_diag(r, k), iprof_reader_diag(ref, k));
        if (!ok) {
            const iprof_error *e = iprof_reader_error(r);
            fprintf(stderr, "   [%s] %s read in %zu-byte pieces differs from the memory read: "
                            "rc %d vs %d; error %s offset %" PRIu64 " %" PRIu64 ":%" PRIu64 " path %s\n",
                    c->name, strict ? "strict" : "lenient", steps[i], rc, want,
                    e ? err_info(e).message : "-", e ? err_info(e).offset : 0,
                    e ? err_info(e).line : 0, e ? err_info(e).column : 0,
                    e ? err_info(e).path : "-");
        }
        CHECK(ok);
        iprof_reader_free(r);
    }
    iprof_reader_free(ref);
}

static void run_case(const vcase *c)
{
    check_chunked(c, 1);
    check_chunked(c, 0);
    size_t len = strlen(c->doc);
    for (int strict = 1; strict >= 0; strict--) {
        iprof_reader *r = new_reader(strict);
        if (!r)
            return;
        int rc = iprof_reader_read(r, SRC_BUFFER(c->doc, len), NULL, NULL);
        int expect_fail = c->mode == FATAL || (c->mode == RULE && strict);
        char what[64];
        snprintf(what, sizeof what, "%s read", strict ? "strict" : "lenient");
        if (expect_fail) {
            if (rc != c->status)
                fprintf(stderr, "   [%s] %s returned %d (%s)\n", c->name, what, rc,
                        iprof_status_string(rc));
            CHECK_EQ_INT(rc, c->status);
            check_report(c, iprof_reader_error(r), what);
        } else {
            if (rc != IPROF_OK) {
                fprintf(stderr, "   [%s] %s failed: %s\n", c->name, what,
                        iprof_status_string(rc));
                const iprof_error *e = iprof_reader_error(r);
                if (e)
                    fprintf(stderr, "   error: %s path %s offset %" PRIu64 "\n",
                            err_info(e).message, err_info(e).path,
                            err_info(e).offset);
            }
            CHECK_EQ_INT(rc, IPROF_OK);
            CHECK(iprof_reader_error(r) == NULL);
            size_t want = c->mode == CLEAN ? 0 : 1;
            if (read_result(r).diag_count != want) {
                fprintf(stderr, "   [%s] %s: %zu diagnostics, want %zu\n", c->name, what,
                        read_result(r).diag_count, want);
                dump_diags(r);
            }
            CHECK_EQ_INT(read_result(r).diag_count, want);
            if (want && read_result(r).diag_count >= 1)
                check_report(c, iprof_reader_diag(r, 0), what);
            CHECK(iprof_reader_diag(r, read_result(r).diag_count) == NULL);
        }

        /* The model loader reports through the same reader. */
        iprof_model *m = (iprof_model *)1;
        rc = iprof_model_load(&m, r, SRC_BUFFER(c->doc, len));
        snprintf(what, sizeof what, "%s model load", strict ? "strict" : "lenient");
        if (expect_fail) {
            CHECK_EQ_INT(rc, c->status);
            CHECK(m == NULL);
            check_report(c, iprof_reader_error(r), what);
        } else {
            /* Warnings, clean files and rule violations load ("the data
             * stay representable, so the lenient model keeps them"). */
            CHECK_EQ_INT(rc, IPROF_OK);
            CHECK(m != NULL && m != (iprof_model *)1);
            if (c->mode == CLEAN)
                CHECK_EQ_INT(read_result(r).diag_count, 0);
            else if (read_result(r).diag_count >= 1)
                check_report(c, iprof_reader_diag(r, 0), what);
        }
        if (rc == IPROF_OK && m != (iprof_model *)1)
            iprof_model_free(m);
        iprof_reader_free(r);
    }
}

/* ---- documents --------------------------------------------------------- */

/* Three types (0 int, 1 A, 2 B) and two methods (1 A.m()int, 2 A.n(B)int),
 * pretty enough to have several lines. */
#define HEAD_V(v)                                                                        \
    "{\"version\":\"" v "\",\n"                                                          \
    "\"types\":[{\"id\":0,\"name\":\"int\"},{\"id\":1,\"name\":\"A\"},\n"                \
    "  {\"id\":2,\"name\":\"B\"}],\n"                                                    \
    "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[1,0]},\n"                      \
    "  {\"id\":2,\"name\":\"n\",\"signature\":[1,0,2]}]"
#define HEAD HEAD_V("1.1.0")

/* A 0.2.0 document with type 0 and method 1 (its signature [0, 0]). */
#define LEGACY_HEAD                                                                      \
    "{\"version\": \"0.2.0\", \"types\": [{ \"id\": 0, \"typeName\": \"int\" }], "      \
    "\"methods\": [{ \"id\": 1, \"methodName\": \"m\", \"signature\": [ 0, 0 ] }]"

static const vcase cases[] = {
    /* ---- clean documents: no diagnostics at all ---- */
    {"clean all kinds", CLEAN, 0, NULL, NULL, NULL,
     HEAD ",\n\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[5]},"
          "{\"ctx\":\"2:0<1:3\",\"records\":[9223372036854775807]}],\n"
          "\"conditionalProfiles\":[{\"ctx\":\"1:-1\",\"records\":[-1,0,3,7,1,-9223372036854775808]}],\n"
          "\"virtualInvokeProfiles\":[{\"ctx\":\"2:4<1:-6\",\"records\":[1,99,2,0]}],\n"
          "\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[0,5,2,77]}],\n"
          "\"samplingProfiles\":[{\"ctx\":\"2:7<1:3<2:1<1:0\",\"records\":[0]}],\n"
          "\"instanceofProfiles\":[{\"ctx\":\"1:2\",\"records\":[]}]}"},
    {"clean: profiles and methods before types", CLEAN, 0, NULL, NULL, NULL,
     "{\"callCountProfiles\":[{\"records\":[1],\"ctx\":\"2:0<1:3\"}],"
     "\"virtualInvokeProfiles\":[{\"ctx\":\"1:3\",\"records\":[2,1]}],"
     "\"methods\":[{\"signature\":[1,0,2],\"name\":\"n\",\"id\":2},"
     "{\"id\":1,\"name\":\"m\",\"signature\":[1,0]}],"
     "\"types\":[{\"name\":\"B\",\"id\":2},{\"id\":0,\"name\":\"int\"},{\"id\":1,\"name\":\"A\"}],"
     "\"version\":\"1.0.0\"}"},
    {"clean: empty 0.4.0", CLEAN, 0, NULL, NULL, NULL,
     "{\"version\":\"0.4.0\",\"types\":[],\"methods\":[],\"monitorProfiles\":[],"
     "\"virtualInvokeProfiles\":[],\"callCountProfiles\":[],\"conditionalProfiles\":[],"
     "\"samplingProfiles\":[]}"},
    {"clean: monitor 0:0 without method 0 is not dangling", CLEAN, 0, NULL, NULL, NULL,
     HEAD ",\n\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[1,3]}]}"},
    {"clean: a count equal to no type id is not a reference", CLEAN, 0, NULL, NULL, NULL,
     HEAD ",\n\"virtualInvokeProfiles\":[{\"ctx\":\"1:0\",\"records\":[1,12345]}],"
          "\"instanceofProfiles\":[{\"ctx\":\"1:0\",\"records\":[2,54321]}]}"},

    /* ---- context rules ---- */
    {"callCount ctx must start at bci 0", RULE, IPROF_ESCHEMA, "callCountProfiles[1].ctx",
     "\"ctx\":|\"2:3<1:4\"", NULL,
     HEAD ",\n\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[1]},\n"
          "  {\"ctx\":\"2:3<1:4\",\"records\":[1]}]}"},
    {"monitor ctx must be 0:0 (1:0)", RULE, IPROF_ESCHEMA, "monitorProfiles[0].ctx",
     "|\"1:0\"", NULL, HEAD ",\n\"monitorProfiles\":[{\"ctx\":\"1:0\",\"records\":[1,5]}]}"},
    {"monitor ctx must be 0:0 (0:0<1:0)", RULE, IPROF_ESCHEMA, "monitorProfiles[0].ctx",
     "|\"0:0<1:0\"", NULL,
     HEAD ",\n\"monitorProfiles\":[{\"ctx\":\"0:0<1:0\",\"records\":[1,5]}]}"},
    /* The schema spells these zeros exactly (^0:0$, ^[0-9]+:0(<...)*$). */
    {"monitor ctx must be 0:0 (00:0)", RULE, IPROF_ESCHEMA, "monitorProfiles[0].ctx",
     "|\"00:0\"", "a monitor ctx must be \"0:0\"",
     HEAD ",\n\"monitorProfiles\":[{\"ctx\":\"00:0\",\"records\":[1,5]}]}"},
    {"monitor ctx must be 0:0 (0:-0)", RULE, IPROF_ESCHEMA, "monitorProfiles[0].ctx",
     "|\"0:-0\"", "a monitor ctx must be \"0:0\"",
     HEAD ",\n\"monitorProfiles\":[{\"ctx\":\"0:-0\",\"records\":[1,5]}]}"},
    {"callCount first bci written 0 (1:00)", RULE, IPROF_ESCHEMA, "callCountProfiles[0].ctx",
     "|\"1:00\"", "a call-count ctx must start at bci 0, written \"0\"",
     HEAD ",\n\"callCountProfiles\":[{\"ctx\":\"1:00\",\"records\":[1]}]}"},
    {"callCount first bci written 0 (2:-0<1:4)", RULE, IPROF_ESCHEMA, "callCountProfiles[0].ctx",
     "|\"2:-0<1:4\"", "a call-count ctx must start at bci 0, written \"0\"",
     HEAD ",\n\"callCountProfiles\":[{\"ctx\":\"2:-0<1:4\",\"records\":[1]}]}"},
    {"clean: other numbers may have leading zeros", CLEAN, 0, NULL, NULL, NULL,
     HEAD ",\n\"callCountProfiles\":[{\"ctx\":\"01:0<2:00\",\"records\":[1]}],"
          "\"samplingProfiles\":[{\"ctx\":\"1:-0\",\"records\":[1]}]}"},

    /* ---- records length rules: offset of the '[' ---- */
    {"callCount records hold one value", RULE, IPROF_ESCHEMA,
     "callCountProfiles[0].records", "\"records\":|[1,2]", NULL,
     HEAD ",\n\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[1,2]}]}"},
    {"callCount records empty", RULE, IPROF_ESCHEMA, "callCountProfiles[1].records",
     "\"records\":|[]", NULL,
     HEAD ",\n\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[1]},{\"ctx\":\"2:0\",\"records\":[]}]}"},
    {"sampling records hold one value", RULE, IPROF_ESCHEMA, "samplingProfiles[0].records",
     "\"records\":|[3,4]", NULL,
     HEAD ",\n\"samplingProfiles\":[{\"ctx\":\"2:5<1:3\",\"records\":[3,4]}]}"},
    {"conditional records multiple of 3", RULE, IPROF_ESCHEMA,
     "conditionalProfiles[2].records", "\"records\":|[3,0,7,1]", NULL,
     HEAD ",\n\"conditionalProfiles\":[{\"ctx\":\"1:1\",\"records\":[]},\n"
          "{\"ctx\":\"1:2\",\"records\":[3,0,7]},\n"
          "{\"ctx\":\"1:3\",\"records\":[3,0,7,1]}]}"},
    {"virtualInvoke records multiple of 2", RULE, IPROF_ESCHEMA,
     "virtualInvokeProfiles[0].records", "\"records\":|[1,5,2]", NULL,
     HEAD ",\n\"virtualInvokeProfiles\":[{\"ctx\":\"1:4\",\"records\":[1,5,2]}]}"},
    {"monitor records multiple of 2", RULE, IPROF_ESCHEMA, "monitorProfiles[0].records",
     "\"records\":|[1]", NULL, HEAD ",\n\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[1]}]}"},
    {"instanceof records multiple of 2", RULE, IPROF_ESCHEMA, "instanceofProfiles[1].records",
     "\"records\":|[2,1,1]", NULL,
     HEAD ",\n\"instanceofProfiles\":[{\"ctx\":\"1:4\",\"records\":[2,1]},\n"
          "{\"ctx\":\"1:5\",\"records\":[2,1,1]}]}"},

    /* ---- id uniqueness: the number of the second occurrence ---- */
    {"type ids unique", RULE, IPROF_ESCHEMA, "types[1].id", "{\"id\":|0,\"name\":\"X\"", NULL,
     "{\"version\":\"1.0.0\",\n\"types\":[{\"id\":0,\"name\":\"int\"},\n"
     "{\"id\":0,\"name\":\"X\"}],\n\"methods\":[]}"},
    {"method ids unique", RULE, IPROF_ESCHEMA, "methods[1].id", "{\"id\":|7,\"name\":\"b\"", NULL,
     "{\"version\":\"1.0.0\",\n\"types\":[{\"id\":0,\"name\":\"int\"}],\n"
     "\"methods\":[{\"id\":7,\"name\":\"a\",\"signature\":[0,0]},\n"
     "  {\"id\":7,\"name\":\"b\",\"signature\":[0,0]}]}"},

    /* ---- references ---- */
    {"dangling method id in a ctx (caller frame)", RULE, IPROF_EDANGLING,
     "conditionalProfiles[0].ctx", "|\"1:5<9:3\"", NULL,
     HEAD ",\n\"conditionalProfiles\":[{\"ctx\":\"1:5<9:3\",\"records\":[1,0,1]}]}"},
    {"dangling method id in a callCount ctx", RULE, IPROF_EDANGLING,
     "callCountProfiles[1].ctx", "|\"3:0\"", NULL,
     HEAD ",\n\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[1]},{\"ctx\":\"3:0\",\"records\":[2]}]}"},
    {"dangling method id in a sampling ctx", RULE, IPROF_EDANGLING, "samplingProfiles[0].ctx",
     "|\"2:1<1:2<2:3<1:4<0:5\"", NULL,
     HEAD ",\n\"samplingProfiles\":[{\"ctx\":\"2:1<1:2<2:3<1:4<0:5\",\"records\":[1]}]}"},
    {"dangling method id, profiles before methods", RULE, IPROF_EDANGLING,
     "virtualInvokeProfiles[0].ctx", "|\"4:2\"", NULL,
     "{\"version\":\"1.0.0\",\"virtualInvokeProfiles\":[{\"ctx\":\"4:2\",\"records\":[0,1]}],\n"
     "\"types\":[{\"id\":0,\"name\":\"int\"}],\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}]}"},
    {"dangling type id in a signature", RULE, IPROF_EDANGLING, "methods[1].signature[2]",
     "\"signature\":[1,0,|5]", NULL,
     "{\"version\":\"1.1.0\",\n\"types\":[{\"id\":0,\"name\":\"int\"},{\"id\":1,\"name\":\"A\"}],\n"
     "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[1,0]},\n"
     "  {\"id\":2,\"name\":\"n\",\"signature\":[1,0,5]}]}"},
    {"dangling declaring type id in a signature", RULE, IPROF_EDANGLING,
     "methods[0].signature[0]", "\"signature\":[|-3,", NULL,
     "{\"version\":\"1.1.0\",\"types\":[{\"id\":0,\"name\":\"int\"}],"
     "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[-3,0]}]}"},
    {"dangling type id in virtualInvoke records", RULE, IPROF_EDANGLING,
     "virtualInvokeProfiles[2].records[4]", "\"records\":[1,3,2,4,|7,1]", NULL,
     HEAD ",\n\"virtualInvokeProfiles\":[{\"ctx\":\"1:1\",\"records\":[]},\n"
          "{\"ctx\":\"1:2\",\"records\":[0,1]},\n"
          "{\"ctx\":\"1:3\",\"records\":[1,3,2,4,7,1]}]}"},
    {"dangling type id in monitor records", RULE, IPROF_EDANGLING, "monitorProfiles[0].records[2]",
     "\"records\":[1,3,|-9223372036854775808,4]", NULL,
     HEAD ",\n\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[1,3,-9223372036854775808,4]}]}"},
    {"dangling type id in instanceof records", RULE, IPROF_EDANGLING,
     "instanceofProfiles[0].records[0]", "\"records\":[|3,1]", NULL,
     HEAD ",\n\"instanceofProfiles\":[{\"ctx\":\"2:8\",\"records\":[3,1]}]}"},

    /* ---- int64 range: fatal in both modes ---- */
    {"type id above int64", FATAL, IPROF_ELIMIT, "types[0].id", "\"id\":|9223372036854775808",
     NULL, "{\"version\":\"1.0.0\",\"types\":[{\"id\":9223372036854775808,\"name\":\"x\"}],\"methods\":[]}"},
    {"method id below int64", FATAL, IPROF_ELIMIT, "methods[0].id",
     "\"id\":|-9223372036854775809", NULL,
     "{\"version\":\"1.0.0\",\"types\":[],\n\"methods\":[{\"id\":-9223372036854775809,\"name\":\"x\",\"signature\":[]}]}"},
    {"record above int64", FATAL, IPROF_ELIMIT, "callCountProfiles[0].records[0]",
     "\"records\":[|99999999999999999999]", NULL,
     HEAD ",\n\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[99999999999999999999]}]}"},
    {"signature id above int64", FATAL, IPROF_ELIMIT, "methods[0].signature[1]",
     "[0,|9223372036854775808]", NULL,
     "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"}],\n"
     "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,9223372036854775808]}]}"},
    {"ctx bci above int64", FATAL, IPROF_ELIMIT, "conditionalProfiles[0].ctx", NULL, NULL,
     HEAD ",\n\"conditionalProfiles\":[{\"ctx\":\"1:9223372036854775808\",\"records\":[]}]}"},

    /* ---- versions ---- */
    {"instanceofProfiles in a 1.0.0 file", RULE, IPROF_EVERSION, "instanceofProfiles",
     "\"instanceofProfiles\":|[", NULL,
     HEAD_V("1.0.0") ",\n\"instanceofProfiles\":[{\"ctx\":\"1:0\",\"records\":[1,1]}]}"},
    {"instanceofProfiles in a 0.4.0 file", RULE, IPROF_EVERSION, "instanceofProfiles",
     "\"instanceofProfiles\":|[", NULL, HEAD_V("0.4.0") ",\"instanceofProfiles\":[]}"},
    {"version 0.1.0 is unsupported", FATAL, IPROF_EVERSION, "version", "\"version\":|\"0.1.0\"",
     "predates 0.2.0", "{\"version\":\"0.1.0\",\"types\":[],\"methods\":[]}"},
    {"version 0.2.0 reads cleanly", CLEAN, IPROF_OK, NULL, NULL, NULL,
     "{\"version\":\"0.2.0\",\"types\":[],\"methods\":[]}"},
    {"version 0.2.1 loads with a warning, as 0.2.0", WARN, IPROF_EVERSION, "version",
     "\"version\": |\"0.2.1\"", "read as 0.2.0",
     "{\"version\": \"0.2.1\", \"types\": [{ \"id\": 0, \"typeName\": \"int\" }],"
     " \"methods\": []}"},

    /* ---- the legacy 0.2.0 layout ---- */
    {"0.2.0: the version after a section", FATAL, IPROF_EVERSION, "version",
     "\"version\": |\"0.2.0\"", "first key",
     "{\"types\": [],\n\"version\": \"0.2.0\", \"methods\": []}"},
    {"0.2.0: the version after an unknown key", FATAL, IPROF_EVERSION, "version",
     "\"version\": |\"0.2.0\"", "first key",
     "{\"x\": 1, \"version\": \"0.2.0\", \"types\": [], \"methods\": []}"},
    {"0.2.0: a 1.x section key", FATAL, IPROF_ESCHEMA, "callCountProfiles", "|\"callCountProfiles\"",
     "\"callCountProfiles\" is not a key of format 0.2.0",
     "{\"version\": \"0.2.0\", \"types\": [], \"methods\": [],\n\"callCountProfiles\": []}"},
    {"0.2.0: samplingProfiles", FATAL, IPROF_ESCHEMA, "samplingProfiles", "|\"samplingProfiles\"",
     "not a key of format 0.2.0",
     "{\"version\": \"0.2.0\", \"types\": [], \"methods\": [], \"samplingProfiles\": []}"},
    {"0.2.0: a type spelled \"name\"", FATAL, IPROF_ESCHEMA, "types[0]", "[|{ \"id\"",
     "type is missing \"typeName\"",
     "{\"version\": \"0.2.0\", \"types\": [{ \"id\": 0, \"name\": \"int\" }], "
     "\"methods\": []}"},
    {"0.2.0: a method spelled \"name\"", FATAL, IPROF_ESCHEMA, "methods[0]", "[|{ \"id\": 1",
     "method is missing \"methodName\"",
     "{\"version\": \"0.2.0\", \"types\": [{ \"id\": 0, \"typeName\": \"int\" }], "
     "\"methods\": [{ \"id\": 1, \"name\": \"m\", \"signature\": [ 0, 0 ] }]}"},
    {"0.2.0: an entry spelled \"ctx\"", FATAL, IPROF_ESCHEMA, "hotnessPoints[0]", "[|{ \"ctx\"",
     "entry is missing \"methodBciList\"",
     LEGACY_HEAD ", \"hotnessPoints\": [{ \"ctx\": \"1:0\", \"records\": [ 1 ] }]}"},
    {"0.2.0: frames joined by '<'", FATAL, IPROF_ESCHEMA, "conditionalPoints[0].methodBciList",
     "\"methodBciList\": |\"1:3<1:0\"", "joined by ','",
     LEGACY_HEAD ", \"conditionalPoints\": [{ \"methodBciList\": \"1:3<1:0\", "
     "\"records\": [ 5, 0, 1 ] }]}"},
    {"0.2.0: a hotness point not at bci 0", RULE, IPROF_ESCHEMA, "hotnessPoints[0].methodBciList",
     "\"methodBciList\": |\"1:2\"", "start at bci 0",
     LEGACY_HEAD ", \"hotnessPoints\": [{ \"methodBciList\": \"1:2\", \"records\": [ 1 ] }]}"},
    {"0.2.0: conditional records not in triples", RULE, IPROF_ESCHEMA,
     "conditionalPoints[0].records", "\"records\": |[ 5, 0 ]", "triples",
     LEGACY_HEAD ", \"conditionalPoints\": [{ \"methodBciList\": \"1:3\", "
     "\"records\": [ 5, 0 ] }]}"},
    {"0.2.0: an undefined type in invokePoints", RULE, IPROF_EDANGLING,
     "invokePoints[0].records[0]", "[ |7, 1 ]", NULL,
     LEGACY_HEAD ", \"invokePoints\": [{ \"methodBciList\": \"1:3\", \"records\": [ 7, 1 ] }]}"},
    {"0.2.0: monitorsProfile as an array", FATAL, IPROF_ESCHEMA, "monitorsProfile",
     "\"monitorsProfile\": |[]", "expected an object", LEGACY_HEAD ", \"monitorsProfile\": []}"},
    {"0.2.0: monitorsProfile without records", FATAL, IPROF_ESCHEMA, "monitorsProfile",
     "\"monitorsProfile\": |{}", "missing \"records\"", LEGACY_HEAD ", \"monitorsProfile\": {}}"},
    {"0.2.0: monitor records not in pairs", RULE, IPROF_ESCHEMA, "monitorsProfile.records",
     "\"records\": |[ 0 ]", "pairs", LEGACY_HEAD ", \"monitorsProfile\": { \"records\": [ 0 ] }}"},
    {"0.2.0: an undefined monitor type", RULE, IPROF_EDANGLING, "monitorsProfile.records[2]",
     "[ 0, 1, |9, 1 ]", NULL,
     LEGACY_HEAD ", \"monitorsProfile\": { \"records\": [ 0, 1, 9, 1 ] }}"},
    {"0.2.0: 1.x keys are unknown in 1.x files", WARN, IPROF_ESCHEMA, "hotnessPoints",
     "|\"hotnessPoints\"", "unknown top-level key",
     "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"hotnessPoints\":[]}"},
    {"version 2.0.0 is unsupported", FATAL, IPROF_EVERSION, "version", "\"version\": |\"2.0.0\"",
     "2.0.0", "{\"types\":[],\n\"methods\":[],\n\"version\": \"2.0.0\"}"},
    {"version 01.0.0 loads with a warning, as 1.0.0", WARN, IPROF_EVERSION, "version",
     "\"version\":|\"01.0.0\"", "format version 01.0.0 is spelled with leading zeros, read as 1.0.0",
     "{\"version\":\"01.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"}],\"methods\":[]}"},
    {"version 0.4.00 loads with a warning, as 0.4.0", WARN, IPROF_EVERSION, "version",
     "\"version\":|\"0.4.00\"", "read as 0.4.0",
     "{\"version\":\"0.4.00\",\"types\":[{\"id\":0,\"name\":\"int\"}],\"methods\":[]}"},
    {"version 1.0.5 loads with a warning", WARN, IPROF_EVERSION, "version",
     "\"version\":|\"1.0.5\"", "1.0.5",
     "{\"version\":\"1.0.5\",\"types\":[{\"id\":0,\"name\":\"int\"}],\"methods\":[]}"},

    /* ---- schema: missing keys and wrong JSON types are fatal ---- */
    {"missing types", FATAL, IPROF_ESCHEMA, NULL, NULL, "types",
     "{\"version\":\"1.0.0\",\"methods\":[]}"},
    {"missing methods", FATAL, IPROF_ESCHEMA, NULL, NULL, "methods",
     "{\"version\":\"1.0.0\",\"types\":[]}"},
    {"missing version", FATAL, IPROF_ESCHEMA, NULL, NULL, "version",
     "{\"types\":[],\"methods\":[],\"callCountProfiles\":[]}"},
    {"type id as string", FATAL, IPROF_ESCHEMA, "types[1].id", "\"id\":|\"1\"", NULL,
     "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"},\n{\"id\":\"1\",\"name\":\"A\"}],\"methods\":[]}"},
    {"records as object", FATAL, IPROF_ESCHEMA, "callCountProfiles[0].records",
     "\"records\":|{}", NULL,
     HEAD ",\n\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":{}}]}"},
    {"types as object", FATAL, IPROF_ESCHEMA, "types", "\"types\":|{}", NULL,
     "{\"version\":\"1.0.0\",\"types\":{},\"methods\":[]}"},
    {"version as number", FATAL, IPROF_ESCHEMA, "version", "\"version\":|1", NULL,
     "{\"version\":1,\"types\":[],\"methods\":[]}"},
    {"ctx syntax: trailing <", FATAL, IPROF_ESCHEMA, "callCountProfiles[0].ctx", "|\"1:0<\"", NULL,
     HEAD ",\n\"callCountProfiles\":[{\"ctx\":\"1:0<\",\"records\":[1]}]}"},
    {"ctx syntax: a:0", FATAL, IPROF_ESCHEMA, "conditionalProfiles[0].ctx", "|\"a:0\"", NULL,
     HEAD ",\n\"conditionalProfiles\":[{\"ctx\":\"a:0\",\"records\":[]}]}"},
    {"ctx syntax: -1:0", FATAL, IPROF_ESCHEMA, "samplingProfiles[0].ctx", "|\"-1:0\"", NULL,
     HEAD ",\n\"samplingProfiles\":[{\"ctx\":\"-1:0\",\"records\":[1]}]}"},
    {"signature shorter than 2 type ids", RULE, IPROF_ESCHEMA, "methods[1].signature",
     "\"signature\":|[1]", NULL,
     "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"},{\"id\":1,\"name\":\"A\"}],\n"
     "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[1,0]},{\"id\":2,\"name\":\"n\",\"signature\":[1]}]}"},

    /* ---- more fatal errors (docs/api.md, "Validation") ---- */
    {"document not an object", FATAL, IPROF_ESCHEMA, NULL, NULL, NULL, "[1,2]"},
    {"duplicate top-level key", FATAL, IPROF_ESCHEMA, NULL, NULL, NULL,
     "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"types\":[]}"},
    {"key repeated inside an element", FATAL, IPROF_ESCHEMA, NULL, NULL, NULL,
     "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"a\",\"id\":0}],\"methods\":[]}"},
    {"missing name in a type", FATAL, IPROF_ESCHEMA, NULL, NULL, NULL,
     "{\"version\":\"1.0.0\",\"types\":[{\"id\":0}],\"methods\":[]}"},
    {"missing records in an entry", FATAL, IPROF_ESCHEMA, NULL, NULL, NULL,
     HEAD ",\n\"callCountProfiles\":[{\"ctx\":\"1:0\"}]}"},
    {"missing ctx in an entry", FATAL, IPROF_ESCHEMA, NULL, NULL, NULL,
     HEAD ",\n\"samplingProfiles\":[{\"records\":[1]}]}"},
    {"ctx as number", FATAL, IPROF_ESCHEMA, "callCountProfiles[0].ctx", "\"ctx\":|10,", NULL,
     HEAD ",\n\"callCountProfiles\":[{\"ctx\":10,\"records\":[1]}]}"},
    {"record as string", FATAL, IPROF_ESCHEMA, "conditionalProfiles[0].records[1]",
     "[1,|\"0\",", NULL,
     HEAD ",\n\"conditionalProfiles\":[{\"ctx\":\"1:0\",\"records\":[1,\"0\",3]}]}"},
    {"non-integral id", FATAL, IPROF_ESCHEMA, "types[0].id", "\"id\":|1.5", NULL,
     "{\"version\":\"1.0.0\",\"types\":[{\"id\":1.5,\"name\":\"a\"}],\"methods\":[]}"},
    {"integral 1e19 outside int64", FATAL, IPROF_ELIMIT, "samplingProfiles[0].records[0]",
     "\"records\":[|1e19]", NULL,
     HEAD ",\n\"samplingProfiles\":[{\"ctx\":\"1:0\",\"records\":[1e19]}]}"},
    {"ctx method id above int64", FATAL, IPROF_ELIMIT, "callCountProfiles[0].ctx", NULL, NULL,
     HEAD ",\n\"callCountProfiles\":[{\"ctx\":\"9223372036854775808:0\",\"records\":[1]}]}"},
    {"malformed version 1.0", FATAL, IPROF_EVERSION, "version", "\"version\":|\"1.0\"", NULL,
     "{\"version\":\"1.0\",\"types\":[],\"methods\":[]}"},
    {"version 1.2.0 loads with a warning, instanceof allowed", WARN, IPROF_EVERSION, "version",
     "\"version\":|\"1.2.0\"", "1.2.0",
     "{\"version\":\"1.2.0\",\"types\":[],\"methods\":[],\"instanceofProfiles\":[]}"},
    {"version 0.5.0 loads with a warning", WARN, IPROF_EVERSION, "version", NULL, "0.5.0",
     "{\"version\":\"0.5.0\",\"types\":[],\"methods\":[]}"},
    {"clean: integral spellings 1.0, 1e1, -0", CLEAN, 0, NULL, NULL, NULL,
     "{\"version\":\"1.0.0\",\"types\":[{\"id\":-0,\"name\":\"a\"},{\"id\":1.0,\"name\":\"b\"}],"
     "\"methods\":[{\"id\":2e0,\"name\":\"m\",\"signature\":[1E0,0.0]}],"
     "\"callCountProfiles\":[{\"ctx\":\"2:0\",\"records\":[1e1]}]}"},
    {"unknown key: a warning naming it", WARN, IPROF_ESCHEMA, "ceConditionalProfilesV2",
     "|\"ceConditionalProfilesV2\"", "unknown top-level key \"ceConditionalProfilesV2\"",
     "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"ceConditionalProfilesV2\":[{}]}"},
    {"GraalVM's instanceOfProfiles is the instanceof section", CLEAN, 0, NULL, NULL, NULL,
     HEAD_V("1.1.0") ",\"instanceOfProfiles\":[{\"ctx\":\"1:0\",\"records\":[1,1]}]}"},
    {"instanceOfProfiles in a 1.0.0 file", RULE, IPROF_EVERSION, "instanceOfProfiles",
     "\"instanceOfProfiles\":|[", "instanceOfProfiles requires format 1.1.0",
     HEAD_V("1.0.0") ",\"instanceOfProfiles\":[]}"},
    {"both instanceof spellings", FATAL, IPROF_ESCHEMA, "instanceOfProfiles",
     "|\"instanceOfProfiles\"", "both instanceofProfiles and instanceOfProfiles",
     HEAD_V("1.1.0") ",\"instanceofProfiles\":[],\"instanceOfProfiles\":[]}"},
    {"an entry of instanceOfProfiles is named with its spelling", RULE, IPROF_ESCHEMA,
     "instanceOfProfiles[0].records", NULL, NULL,
     HEAD_V("1.1.0") ",\"instanceOfProfiles\":[{\"ctx\":\"1:0\",\"records\":[1]}]}"},
    {"syntax: invalid escape", FATAL, IPROF_ESYNTAX, NULL, NULL, NULL,
     "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"a\\x\"}],\"methods\":[]}"},
    {"syntax: lone high surrogate", FATAL, IPROF_ESYNTAX, NULL, NULL, NULL,
     "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"a\\ud800\"}],\"methods\":[]}"},
    {"syntax: lone low surrogate", FATAL, IPROF_ESYNTAX, NULL, NULL, NULL,
     "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"\\udc00a\"}],\"methods\":[]}"},
    {"syntax: raw control character in a string", FATAL, IPROF_ESYNTAX, NULL, "\"a|\t", NULL,
     "{\"version\":\"1.0.0\",\n\"types\":[{\"id\":0,\"name\":\"a\tb\"}],\"methods\":[]}"},
    {"syntax: leading zero", FATAL, IPROF_ESYNTAX, NULL, NULL, NULL,
     "{\"version\":\"1.0.0\",\"types\":[{\"id\":01,\"name\":\"a\"}],\"methods\":[]}"},

    /* ---- JSON syntax: the offending byte, or the input length ---- */
    {"syntax: trailing comma", FATAL, IPROF_ESYNTAX, NULL, "[],|}", NULL,
     "{\"version\":\"1.0.0\",\n\"types\":[],\n\"methods\":[],}"},
    {"syntax: unexpected end", FATAL, IPROF_ESYNTAX, NULL, "$", NULL,
     "{\"version\":\"1.0.0\",\n\"types\":[{\"id\":0,"},
    {"syntax: missing colon", FATAL, IPROF_ESYNTAX, NULL, "\"types\" |[", NULL,
     "{\"version\":\"1.0.0\",\n  \"types\" [],\"methods\":[]}"},
    {"syntax: bad literal", FATAL, IPROF_ESYNTAX, NULL, NULL, NULL,
     "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"x\":tru}"},
    {"syntax: garbage after document", FATAL, IPROF_ESYNTAX, NULL, "]}\n|x", NULL,
     "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[]}\nx"},
    {"syntax: empty input", FATAL, IPROF_ESYNTAX, NULL, "$", NULL, ""},
};

/* Each entry kind delivered to its own callback with the right kind, frames
 * and records, and the unknown key with its raw text, in a clean read. */
typedef struct seen {
    int kinds[IPROF_KIND_COUNT];
    int unknown;
    int wrong;
} seen;

static int seen_entry(int kind, const int64_t *f, size_t fc, const int64_t *r, size_t rc,
                      void *p)
{
    seen *s = p;
    (void)f;
    (void)r;
    if (kind < 0 || kind >= IPROF_KIND_COUNT || fc == 0) {
        s->wrong++;
        return 0;
    }
    (void)rc;
    s->kinds[kind]++;
    return 0;
}

static int seen_unknown(const char *k, size_t kl, const char *j, size_t jl, void *p)
{
    seen *s = p;
    if (kl == 5 && !memcmp(k, "extra", 5) && jl == 13 && !memcmp(j, "{\"a\":[1,2.5]}", 13))
        s->unknown++;
    else
        s->wrong++;
    return 0;
}

static void test_clean_callbacks(void)
{
    const char *doc = cases[0].doc;
    char buf[4096];
    /* Insert an unknown key at the start. */
    snprintf(buf, sizeof buf, "{\"extra\":{\"a\":[1,2.5]},%s", doc + 1);
    iprof_reader *r = new_reader(1);
    seen s;
    memset(&s, 0, sizeof s);
    iprof_read_callbacks cb = IPROF_READ_CALLBACKS_INIT;
    cb.on_call_count = cb.on_conditional = cb.on_virtual_invoke = cb.on_monitor =
        cb.on_sampling = cb.on_instanceof = seen_entry;
    cb.on_unknown = seen_unknown;
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(buf, strlen(buf)), &cb, &s));
    CHECK_EQ_INT(s.kinds[IPROF_KIND_CALL_COUNT], 2);
    CHECK_EQ_INT(s.kinds[IPROF_KIND_CONDITIONAL], 1);
    CHECK_EQ_INT(s.kinds[IPROF_KIND_VIRTUAL_INVOKE], 1);
    CHECK_EQ_INT(s.kinds[IPROF_KIND_MONITOR], 1);
    CHECK_EQ_INT(s.kinds[IPROF_KIND_SAMPLING], 1);
    CHECK_EQ_INT(s.kinds[IPROF_KIND_INSTANCEOF], 1);
    CHECK_EQ_INT(s.unknown, 1);
    CHECK_EQ_INT(s.wrong, 0);
    iprof_reader_free(r);
}

static void test_cases(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int before = check_failures;
        run_case(&cases[i]);
        if (check_failures != before)
            fprintf(stderr, "FAILED case: %s\n", cases[i].name);
    }
}

static const vcase *find_case(const char *name)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(cases[i].name, name))
            return &cases[i];
    abort();
}

/* A reader is reusable: the error and diagnostics of one read are gone
 * after the next. */
static void test_reuse(void)
{
    iprof_reader *r = new_reader(0);
    const char *bad = find_case("monitor ctx must be 0:0 (1:0)")->doc;
    const char *good = find_case("clean: empty 0.4.0")->doc;
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(bad, strlen(bad)), NULL, NULL));
    CHECK_EQ_INT(read_result(r).diag_count, 1);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(good, strlen(good)), NULL, NULL));
    CHECK_EQ_INT(read_result(r).diag_count, 0);
    CHECK(iprof_reader_error(r) == NULL);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER("{", 1), NULL, NULL), IPROF_ESYNTAX);
    CHECK(iprof_reader_error(r) != NULL);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(good, strlen(good)), NULL, NULL));
    CHECK(iprof_reader_error(r) == NULL);
    iprof_reader_free(r);
}

/* Several violations in one lenient read: all reported, in input order. */
static void test_many_in_order(void)
{
    const char *doc =
        HEAD ",\n\"callCountProfiles\":[{\"ctx\":\"1:4\",\"records\":[1]},{\"ctx\":\"8:0\",\"records\":[1]}],\n"
             "\"virtualInvokeProfiles\":[{\"ctx\":\"1:0\",\"records\":[1,1,9,1]}]}";
    iprof_reader *r = new_reader(0);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(doc, strlen(doc)), NULL, NULL));
    CHECK_EQ_INT(read_result(r).diag_count, 3);
    if (read_result(r).diag_count == 3) {
        CHECK_EQ_STR(err_info(iprof_reader_diag(r, 0)).path, "callCountProfiles[0].ctx");
        CHECK_EQ_INT(err_info(iprof_reader_diag(r, 0)).status, IPROF_ESCHEMA);
        CHECK_EQ_STR(err_info(iprof_reader_diag(r, 1)).path, "callCountProfiles[1].ctx");
        CHECK_EQ_INT(err_info(iprof_reader_diag(r, 1)).status, IPROF_EDANGLING);
        CHECK_EQ_STR(err_info(iprof_reader_diag(r, 2)).path,
                     "virtualInvokeProfiles[0].records[2]");
        CHECK_EQ_INT(err_info(iprof_reader_diag(r, 2)).status, IPROF_EDANGLING);
        CHECK(err_info(iprof_reader_diag(r, 0)).offset <
              err_info(iprof_reader_diag(r, 1)).offset);
        CHECK(err_info(iprof_reader_diag(r, 1)).offset <
              err_info(iprof_reader_diag(r, 2)).offset);
    } else {
        dump_diags(r);
    }
    iprof_reader_free(r);
    /* Strict: the first one fails the read. */
    r = new_reader(1);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(doc, strlen(doc)), NULL, NULL), IPROF_ESCHEMA);
    CHECK_EQ_STR(err_info(iprof_reader_error(r)).path, "callCountProfiles[0].ctx");
    iprof_reader_free(r);
}

/* IPROF_READ_NO_REFERENCES turns off only the reference checks (and, as
 * the reader keeps no id tables then, id uniqueness). */
static void test_no_references(void)
{
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.flags = IPROF_READ_STRICT | IPROF_READ_NO_REFERENCES;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const vcase *c = &cases[i];
        int rc = iprof_reader_read(r, SRC_BUFFER(c->doc, strlen(c->doc)), NULL, NULL);
        if (c->mode == RULE && c->status == IPROF_EDANGLING) {
            if (rc)
                fprintf(stderr, "   [%s] NO_REFERENCES read failed\n", c->name);
            CHECK_EQ_INT(rc, IPROF_OK);
        } else if (strstr(c->name, "ids unique")) {
            /* "no id tables": uniqueness is not checked either. */
        } else if (c->mode == RULE || c->mode == FATAL) {
            CHECK_EQ_INT(rc, c->status);
        }
    }
    iprof_reader_free(r);
}

/* The elidemin-jspy corpus file: one placeholder type and method (id -1,
 * empty signature), so every reference dangles. Counts computed with
 * python's json module: methods[0].signature is shorter than 2 (one ESCHEMA
 * diagnostic); one EDANGLING per dangling reference: 38,879 distinct
 * method ids per ctx in the frames of 12,284 entry contexts (all but the
 * monitor's 0:0; 38,890 frames, a recursive ctx naming an id more than
 * once reports it once; a ctx with several missing ids gives several
 * diagnostics, all with the ctx's path and offset), and 387 type ids in
 * virtualInvoke (369) and monitor (18) records: 39,266 EDANGLING
 * diagnostics. */
#define ELIDEMIN_DANGLING 39266
static void test_elidemin(void)
{
    const char *dir = check_corpus_dir();
    if (!dir)
        SKIP("corpus folder (IPROF_CORPUS_DIR) absent");
    char path[4096];
    snprintf(path, sizeof path, "%s/elidemin-jspy-placeholders-1.0.0.iprof", dir);
    size_t len = 0;
    char *data = check_read_file(path, &len);
    CHECK(data != NULL);
    if (!data)
        return;
    iprof_reader *r = new_reader(0);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(data, len), NULL, NULL));
    size_t n = read_result(r).diag_count, dangling = 0, schema = 0, other = 0;
    const iprof_error *first_dangling = NULL;
    for (size_t i = 0; i < n; i++) {
        const iprof_error *e = iprof_reader_diag(r, i);
        if (err_info(e).status == IPROF_EDANGLING) {
            if (!first_dangling)
                first_dangling = e;
            dangling++;
        } else if (err_info(e).status == IPROF_ESCHEMA) {
            schema++;
        } else {
            other++;
        }
    }
    fprintf(stderr, "   elidemin: %zu diagnostics, %zu dangling, %zu schema\n", n, dangling,
            schema);
    /* The first 10000 are kept (the default max_diagnostics), the rest
     * counted, all errors. */
    CHECK_EQ_INT(n, 10000);
    CHECK_EQ_INT(dangling + read_result(r).dropped_errors, ELIDEMIN_DANGLING);
    CHECK_EQ_INT(read_result(r).dropped_warnings, 0);
    CHECK_EQ_INT(read_result(r).dropped_errors, ELIDEMIN_DANGLING + 1 - 10000);
    CHECK_EQ_INT(schema, 1);
    CHECK_EQ_INT(other, 0);
    if (n > 0) {
        const iprof_error *e = iprof_reader_diag(r, 0);
        CHECK_EQ_INT(err_info(e).status, IPROF_ESCHEMA);
        CHECK_EQ_STR(err_info(e).path, "methods[0].signature");
        /* {"version":"1.0.0","types":[{"id":-1,"name":""}],"methods":[{"id":-1,"name":"","signature":[] */
        CHECK_EQ_INT(err_info(e).offset, 91);
    }
    CHECK(first_dangling != NULL);
    if (first_dangling) {
        CHECK_EQ_STR(err_info(first_dangling).path, "callCountProfiles[0].ctx");
        /* ..."signature":[]}],"callCountProfiles":[{"ctx":"1666:0" */
        const char *p = strstr(data, "\"callCountProfiles\":[{\"ctx\":");
        CHECK(p != NULL);
        if (p) {
            size_t off = (size_t)(p - data) + strlen("\"callCountProfiles\":[{\"ctx\":");
            CHECK_EQ_INT(err_info(first_dangling).offset, off);
            CHECK_EQ_INT(err_info(first_dangling).line, 1);
            CHECK_EQ_INT(err_info(first_dangling).column, off + 1);
        }
    }
    /* The model loads too, with the same diagnostics. */
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(data, len)));
    CHECK(m != NULL);
    CHECK_EQ_INT(read_result(r).diag_count, n);
    if (m) {
        CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 6683);
        CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CONDITIONAL), 5232);
        CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_VIRTUAL_INVOKE), 369);
        CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_MONITOR), 1);
        CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_SAMPLING), 0);
    }
    iprof_model_free(m);
    iprof_reader_free(r);

    r = new_reader(1);
    int rc = iprof_reader_read(r, SRC_BUFFER(data, len), NULL, NULL);
    CHECK_EQ_INT(rc, IPROF_ESCHEMA);
    CHECK_EQ_STR(err_info(iprof_reader_error(r)).path, "methods[0].signature");
    /* With the signature rule met, strict fails on the first dangling ctx. */
    char *copy = malloc(len + 8);
    CHECK(copy != NULL);
    if (copy) {
        const char *sig = strstr(data, "\"signature\":[]");
        size_t at = (size_t)(sig - data) + strlen("\"signature\":[");
        memcpy(copy, data, at);
        memcpy(copy + at, "-1,-1", 5);
        memcpy(copy + at + 5, data + at, len - at);
        rc = iprof_reader_read(r, SRC_BUFFER(copy, len + 5), NULL, NULL);
        CHECK_EQ_INT(rc, IPROF_EDANGLING);
        CHECK_EQ_STR(err_info(iprof_reader_error(r)).path, "callCountProfiles[0].ctx");
        free(copy);
    }
    iprof_reader_free(r);
    free(data);
}


/* Lenient models keep what breaks the rules: duplicate ids (lookups find
 * the first), bad record lengths, a bad monitor ctx. */
static void test_lenient_model_keeps(void)
{
    const char *doc =
        "{\"version\":\"1.1.0\",\"types\":[{\"id\":0,\"name\":\"int\"},{\"id\":0,\"name\":\"X\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[0,0]},{\"id\":1,\"name\":\"b\",\"signature\":[0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[1,2]}],"
        "\"conditionalProfiles\":[{\"ctx\":\"1:3\",\"records\":[1,2,3,4]}],"
        "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[{\"ctx\":\"1:0\",\"records\":[0,1]}],"
        "\"samplingProfiles\":[],\"instanceofProfiles\":[]}";
    iprof_reader *r = new_reader(0);
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(doc, strlen(doc))));
    /* types[1].id, methods[1].id, methods[1].signature, three entries. */
    CHECK_EQ_INT(read_result(r).diag_count, 6);
    iprof_reader_free(r);
    if (!m)
        return;
    CHECK_EQ_INT(iprof_model_type_count(m), 2);
    CHECK_EQ_INT(iprof_model_method_count(m), 2);
    const iprof_type *t = iprof_model_type_by_id(m, 0);
    CHECK(t && !strcmp(iprof_type_name(t, NULL), "int"));
    CHECK(t == iprof_model_type_at(m, 0));
    const iprof_method *me = iprof_model_method_by_id(m, 1);
    CHECK(me && !strcmp(iprof_method_name(me, NULL), "a"));
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 1);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CONDITIONAL), 1);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_MONITOR), 1);
    size_t n = 0;
    const iprof_entry *e = iprof_model_entry_at(m, IPROF_KIND_CONDITIONAL, 0);
    CHECK(e && iprof_entry_records(e, &n) && n == 4);
    /* Written back as it is with IPROF_WRITE_NO_VALIDATE: same bytes. */
    iprof_write_options wo = IPROF_WRITE_OPTIONS_INIT;
    wo.flags = IPROF_WRITE_NO_VALIDATE;
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &wo));
    CHECK_OK(iprof_writer_write_model(w, m));
    const void *out = NULL;
    size_t len = 0;
    CHECK_OK(iprof_writer_buffer(w, &out, &len));
    CHECK_EQ_MEM(out, len, doc, strlen(doc));
    iprof_writer_free(w);
    /* ...and refused by the default writer, which checks the rules. */
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, NULL));
    CHECK_EQ_INT(iprof_writer_write_model(w, m), IPROF_ESCHEMA);
    iprof_writer_free(w);
    iprof_model_free(m);
}

/* Fatal conditions that need options or sources. */
static int stop_at_second(int64_t id, const char *name, size_t len, void *p)
{
    (void)id;
    (void)name;
    (void)len;
    return ++*(int *)p == 2;
}

static int failing_read(void *buf, size_t cap, size_t *len, void *p)
{
    (void)buf;
    (void)cap;
    (void)p;
    *len = 0;
    return -1;
}

static void test_fatal_other(void)
{
    const char *doc = "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"a\"},"
                      "{\"id\":1,\"name\":\"b\"},{\"id\":2,\"name\":\"c\"}],\"methods\":[],"
                      "\"u\":[[[[[[1]]]]]]}";
    iprof_reader *r = new_reader(0);
    int calls = 0;
    iprof_read_callbacks cb = IPROF_READ_CALLBACKS_INIT;
    cb.on_type = stop_at_second;
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(doc, strlen(doc)), &cb, &calls), IPROF_ESTOPPED);
    CHECK_EQ_INT(calls, 2);
    CHECK_EQ_INT(err_info(iprof_reader_error(r)).status, IPROF_ESTOPPED);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_CALLBACK(failing_read, NULL), NULL, NULL), IPROF_EIO);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_PATH("/nonexistent/dir/x.iprof"), NULL, NULL), IPROF_EIO);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(doc, strlen(doc)), NULL, NULL));
    iprof_reader_free(r);

    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.max_depth = 3;
    CHECK_OK(iprof_reader_new(&r, &o));
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(doc, strlen(doc)), NULL, NULL), IPROF_ELIMIT);
    iprof_reader_free(r);
    o.max_depth = 0;
    o.max_element_size = 16;
    CHECK_OK(iprof_reader_new(&r, &o));
    const char *big = "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"a-rather-long-type-name\"}],"
                      "\"methods\":[]}";
    /* docs/api.md: "an element larger than opts.max_element_size fails
     * with IPROF_ELIMIT" - from memory too. */
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(big, strlen(big)), NULL, NULL), IPROF_ELIMIT);
    iprof_reader_free(r);
    /* From a file in small chunks: the element cannot fit the window. */
    o.chunk_size = 8;
    CHECK_OK(iprof_reader_new(&r, &o));
    {
        const char *tmp = getenv("TMPDIR");
        char path[512];
        snprintf(path, sizeof path, "%s/test_validation_%ld.iprof", tmp && *tmp ? tmp : "/tmp",
                 (long)rand());
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL);
        if (f) {
            fputs(big, f);
            fclose(f);
            CHECK_EQ_INT(iprof_reader_read(r, SRC_PATH(path), NULL, NULL), IPROF_ELIMIT);
            remove(path);
        }
    }
    iprof_reader_free(r);
    /* Bad options. */
    o = (iprof_read_options)IPROF_READ_OPTIONS_INIT;
    o.version = 99;
    r = NULL;
    CHECK_EQ_INT(iprof_reader_new(&r, &o), IPROF_EINVAL);
    CHECK(r == NULL);
}

int main(void)
{
    RUN(test_cases);
    RUN(test_clean_callbacks);
    RUN(test_reuse);
    RUN(test_many_in_order);
    RUN(test_no_references);
    RUN(test_elidemin);
    RUN(test_lenient_model_keeps);
    RUN(test_fatal_other);
    return check_done();
}
