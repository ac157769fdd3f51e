/*
 * Reports in one call (docs/api-1.0.md, 2.5): iprof_error_get_info() and
 * iprof_reader_get_result() fill a struct with what the 0.x accessors
 * returned one value at a time. On real reports of each producer (a read's
 * error and diagnostics, a salvaging load's damage, a model operation's
 * subject, a writer's element), every field is checked against the value
 * the report must have. Then the cases that fill nothing: a NULL struct or
 * reader, an unknown version.
 */
#include <iprof/iprof.h>
#include <iprof/stream.h>
#include <iprof/edit.h>

#include "check.h"
#include "check_api.h"

/* What a report must say; NULL type_id or method_id: it names none. */
typedef struct want_info {
    int status, severity, kind;
    const char *message, *path, *context;
    uint64_t offset, line, column;
    const int64_t *type_id, *method_id;
} want_info;

/* Every field of the report's info: w's values exactly. */
static void check_info(const iprof_error *e, const want_info *w)
{
    iprof_error_info info = IPROF_ERROR_INFO_INIT;
    CHECK_OK(iprof_error_get_info(e, &info));
    CHECK_EQ_INT(info.version, IPROF_ERROR_INFO_VERSION);
    CHECK_EQ_INT(info.status, w->status);
    CHECK_EQ_INT(info.severity, w->severity);
    CHECK_EQ_INT(info.kind, w->kind);
    CHECK_EQ_STR(info.message, w->message);
    CHECK_EQ_STR(info.path, w->path);
    CHECK_EQ_STR(info.context, w->context);
    /* The very strings of the report, not copies: a second call gives the
     * same pointers. */
    iprof_error_info again = IPROF_ERROR_INFO_INIT;
    CHECK_OK(iprof_error_get_info(e, &again));
    CHECK(again.message == info.message);
    CHECK(again.path == info.path);
    CHECK(again.context == info.context);
    CHECK_EQ_INT(info.offset, w->offset);
    CHECK_EQ_INT(info.line, w->line);
    CHECK_EQ_INT(info.column, w->column);
    CHECK_EQ_INT(info.has_type_id, w->type_id != NULL);
    CHECK_EQ_INT(info.type_id, w->type_id ? *w->type_id : 0);
    CHECK_EQ_INT(info.has_method_id, w->method_id != NULL);
    CHECK_EQ_INT(info.method_id, w->method_id ? *w->method_id : 0);
}

/* What a read must leave; unread_first NULL: none. */
typedef struct want_result {
    size_t diag_count, dropped_errors, dropped_warnings, unread_count;
    const char *unread_first;
    const iprof_error *damage;
    uint64_t kept_end;
} want_result;

/* Every field of the reader's result: w's values exactly. */
static void check_result(const iprof_reader *r, const want_result *w)
{
    iprof_read_result res = IPROF_READ_RESULT_INIT;
    CHECK_OK(iprof_reader_get_result(r, &res));
    CHECK_EQ_INT(res.version, IPROF_READ_RESULT_VERSION);
    CHECK_EQ_INT(res.diag_count, w->diag_count);
    CHECK_EQ_INT(res.dropped_errors, w->dropped_errors);
    CHECK_EQ_INT(res.dropped_warnings, w->dropped_warnings);
    CHECK_EQ_INT(res.unread_count, w->unread_count);
    if (w->unread_first)
        CHECK_EQ_STR(res.unread_first, w->unread_first);
    else
        CHECK(res.unread_first == NULL);
    CHECK(res.damage == w->damage);
    CHECK_EQ_INT(res.kept_end, w->kept_end);
}

static iprof_reader *reader_with(unsigned flags, size_t max_diagnostics)
{
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.flags = flags;
    o.max_diagnostics = max_diagnostics;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    return r;
}

/* A read's error: its position (line 3, not the first) and JSON path. */
static void test_read_error(void)
{
    static const char doc[] = "{\"version\":\"1.0.0\",\n"
                              "\"types\":[{\"id\":0,\"name\":\"int\"},\n"
                              "  {\"id\":1,\"name\":5}]}";
    iprof_reader *r = reader_with(0, 0);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(doc, strlen(doc)), NULL, NULL), IPROF_ESCHEMA);
    check_info(iprof_reader_error(r),
               &(want_info){IPROF_ESCHEMA, IPROF_SEVERITY_ERROR, -1, "expected a string", "types[1].name", "",
                            69, 3, 18, NULL, NULL});
    check_result(r, &(want_result){0, 0, 0, 0, NULL, NULL, 50});
    iprof_reader_free(r);
}

/* A lenient read's diagnostics, warnings and errors, past the cap of 2:
 * the kept ones (two warnings) with their positions, the dropped ones
 * counted by severity (three undefined methods, two more unknown keys),
 * and the elements with keys the read does not read. */
static void test_diagnostics_and_unread(void)
{
    static const char doc[] =
        "{\"version\":\"1.0.5\",\"types\":[{\"id\":0,\"name\":\"int\",\"x\":1}],"
        "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0],\"y\":2}],"
        "\"callCountProfiles\":[{\"ctx\":\"7:0\",\"records\":[1]},{\"ctx\":\"8:0\",\"records\":[2]},"
        "{\"ctx\":\"9:0\",\"records\":[4]},{\"ctx\":\"1:0\",\"records\":[3],\"z\":3}]}";
    iprof_reader *r = reader_with(0, 2);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(doc, strlen(doc)), NULL, NULL));
    CHECK(iprof_reader_error(r) == NULL);
    check_info(iprof_reader_error(r), &(want_info){IPROF_OK, IPROF_SEVERITY_ERROR, -1, "", "",
                                                   "", 0, 0, 0, NULL, NULL});
    check_result(r, &(want_result){2, 3, 2, 3, "types[0], key \"x\"", NULL, 253});
    check_info(iprof_reader_diag(r, 0),
               &(want_info){IPROF_EVERSION, IPROF_SEVERITY_WARNING, -1,
                            "unknown format version 1.0.5, read as 1.x", "version", "", 11, 1,
                            12, NULL, NULL});
    check_info(iprof_reader_diag(r, 1),
               &(want_info){IPROF_ESCHEMA, IPROF_SEVERITY_WARNING, -1,
                            "unknown key \"x\" in a type: not read, so a model does not hold it",
                            "types[0]", "", 49, 1, 50, NULL, NULL});
    /* Past the kept ones: no report, which says nothing. */
    CHECK(iprof_reader_diag(r, 2) == NULL);
    check_info(iprof_reader_diag(r, 2), &(want_info){IPROF_OK, IPROF_SEVERITY_ERROR, -1, "",
                                                     "", "", 0, 0, 0, NULL, NULL});
    /* A clean read after it leaves nothing. */
    static const char clean[] = "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[]}";
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(clean, strlen(clean)), NULL, NULL));
    check_result(r, &(want_result){0, 0, 0, 0, NULL, NULL, strlen(clean)});
    iprof_reader_free(r);
}

/* A salvaging load cut inside its second call-count entry: the damage is
 * the reader's error, and the read ends past the first entry. */
static void test_salvage(void)
{
    static const char doc[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[3]},{\"ctx\":\"1:0\",\"rec";
    iprof_reader *r = reader_with(IPROF_READ_SALVAGE, 0);
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(doc, strlen(doc))));
    const iprof_error *damage = iprof_reader_error(r);
    CHECK(damage != NULL);
    check_result(r, &(want_result){0, 0, 0, 0, NULL, damage, 149});
    check_info(damage, &(want_info){IPROF_ESYNTAX, IPROF_SEVERITY_ERROR, -1,
                                    "unexpected end of input", "callCountProfiles[1]", "", 167,
                                    1, 168, NULL, NULL});
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 1);
    iprof_model_free(m);
    /* The same cut without the flag fails: the error is no damage. */
    iprof_reader_free(r);
    r = reader_with(0, 0);
    m = NULL;
    CHECK_EQ_INT(iprof_model_load(&m, r, SRC_BUFFER(doc, strlen(doc))), IPROF_ESYNTAX);
    check_result(r, &(want_result){0, 0, 0, 0, NULL, NULL, 149});
    iprof_reader_free(r);
}

/* A model operation's report names what it is about: the type and method
 * ids of a signature, the kind, context and method or type id of an
 * entry. */
static void test_model_error(void)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_OK(iprof_model_add_type(m, 0, "T", 1, NULL));
    static const int64_t sig[] = {0, 9};
    CHECK_EQ_INT(iprof_model_add_method(m, 4, "n", 1, sig, 2, NULL), IPROF_EDANGLING);
    const int64_t four = 4, nine = 9, seven = 7;
    check_info(iprof_model_error(m),
               &(want_info){IPROF_EDANGLING, IPROF_SEVERITY_ERROR, -1,
                            "method 4: signature type id 9 (signature[1]) is not defined in the "
                            "model",
                            "", "", 0, 0, 0, &nine, &four});
    static const int64_t ok_sig[] = {0, 0};
    CHECK_OK(iprof_model_add_method(m, 1, "m", 1, ok_sig, 2, NULL));
    static const int64_t at[] = {7, 2, 1, 5}, one[] = {1}, pairs[] = {9, 1};
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, at, 2, one, 1), IPROF_EDANGLING);
    check_info(iprof_model_error(m),
               &(want_info){IPROF_EDANGLING, IPROF_SEVERITY_ERROR, IPROF_KIND_SAMPLING,
                            "samplingProfiles entry: method id 7 is not defined in the model", "",
                            "7:2<1:5", 0, 0, 0, NULL, &seven});
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_INSTANCEOF, at + 2, 1, pairs, 2),
                 IPROF_EDANGLING);
    check_info(iprof_model_error(m),
               &(want_info){IPROF_EDANGLING, IPROF_SEVERITY_ERROR, IPROF_KIND_INSTANCEOF,
                            "instanceofProfiles entry: type id 9 is not defined in the model", "",
                            "1:5", 0, 0, 0, &nine, NULL});
    /* Success clears it: a report of nothing. */
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, at + 2, 1, one, 1));
    check_info(iprof_model_error(m), &(want_info){IPROF_OK, IPROF_SEVERITY_ERROR, -1, "", "",
                                                  "", 0, 0, 0, NULL, NULL});
    iprof_model_free(m);
}

/* A writer's report about an element names it by its path, without a
 * position. */
static void test_writer_error(void)
{
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &o));
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_type(w, 0, "int", 3));
    CHECK_EQ_INT(iprof_writer_type(w, 0, "long", 4), IPROF_ESCHEMA);
    check_info(iprof_writer_error(w), &(want_info){IPROF_ESCHEMA, IPROF_SEVERITY_ERROR, -1,
                                                   "types[1]: duplicate type id 0", "types[1]",
                                                   "", 0, 0, 0, NULL, NULL});
    iprof_writer_free(w);
}

/* The calls fill every field, whatever the struct held; they fill
 * nothing for a NULL struct or reader or a version they do not know. */
static void test_null_and_versions(void)
{
    iprof_error_info info;
    memset(&info, 0xA5, sizeof info);
    info.version = IPROF_ERROR_INFO_VERSION;
    CHECK_OK(iprof_error_get_info(NULL, &info));
    CHECK_EQ_INT(info.version, IPROF_ERROR_INFO_VERSION);
    CHECK_EQ_INT(info.status, IPROF_OK);
    CHECK_EQ_INT(info.severity, IPROF_SEVERITY_ERROR);
    CHECK_EQ_INT(info.kind, -1);
    CHECK_EQ_STR(info.message, "");
    CHECK_EQ_STR(info.path, "");
    CHECK_EQ_STR(info.context, "");
    CHECK_EQ_INT(info.offset, 0);
    CHECK_EQ_INT(info.line, 0);
    CHECK_EQ_INT(info.column, 0);
    CHECK_EQ_INT(info.has_type_id, 0);
    CHECK_EQ_INT(info.has_method_id, 0);
    CHECK_EQ_INT(info.type_id, 0);
    CHECK_EQ_INT(info.method_id, 0);

    iprof_read_result res;
    memset(&res, 0xA5, sizeof res);
    res.version = IPROF_READ_RESULT_VERSION;
    iprof_reader *r = reader_with(0, 0);
    CHECK_OK(iprof_reader_get_result(r, &res)); /* before any read */
    CHECK_EQ_INT(res.version, IPROF_READ_RESULT_VERSION);
    CHECK_EQ_INT(res.diag_count, 0);
    CHECK_EQ_INT(res.dropped_errors, 0);
    CHECK_EQ_INT(res.dropped_warnings, 0);
    CHECK_EQ_INT(res.unread_count, 0);
    CHECK(res.unread_first == NULL);
    CHECK(res.damage == NULL);
    CHECK_EQ_INT(res.kept_end, 0);

    /* Refused: out unchanged, byte for byte. */
    static const char doc[] = "{\"version\":\"1.0.0\",\"types\":[1]}";
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(doc, strlen(doc)), NULL, NULL), IPROF_ESCHEMA);
    const iprof_error *e = iprof_reader_error(r);
    static const unsigned int versions[] = {0, 2, 0xA5A5A5A5u};
    for (size_t i = 0; i < sizeof versions / sizeof *versions; i++) {
        iprof_error_info before, after;
        memset(&before, 0xA5, sizeof before);
        before.version = versions[i];
        memcpy(&after, &before, sizeof after);
        CHECK_EQ_INT(iprof_error_get_info(e, &after), IPROF_EINVAL);
        CHECK(memcmp(&before, &after, sizeof before) == 0);
        CHECK_EQ_INT(iprof_error_get_info(NULL, &after), IPROF_EINVAL);
        CHECK(memcmp(&before, &after, sizeof before) == 0);
        iprof_read_result rbefore, rafter;
        memset(&rbefore, 0xA5, sizeof rbefore);
        rbefore.version = versions[i];
        memcpy(&rafter, &rbefore, sizeof rafter);
        CHECK_EQ_INT(iprof_reader_get_result(r, &rafter), IPROF_EINVAL);
        CHECK(memcmp(&rbefore, &rafter, sizeof rbefore) == 0);
    }
    CHECK_EQ_INT(iprof_error_get_info(e, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_error_get_info(NULL, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_reader_get_result(r, NULL), IPROF_EINVAL);
    /* A NULL reader is no reader: refused. */
    iprof_read_result rbefore = IPROF_READ_RESULT_INIT, rafter;
    rbefore.diag_count = 77;
    memcpy(&rafter, &rbefore, sizeof rafter);
    CHECK_EQ_INT(iprof_reader_get_result(NULL, &rafter), IPROF_EINVAL);
    CHECK(memcmp(&rbefore, &rafter, sizeof rbefore) == 0);
    iprof_reader_free(r);
}

int main(void)
{
    RUN(test_read_error);
    RUN(test_diagnostics_and_unread);
    RUN(test_salvage);
    RUN(test_model_error);
    RUN(test_writer_error);
    RUN(test_null_and_versions);
    return check_done();
}
