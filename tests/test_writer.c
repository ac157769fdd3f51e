/* The writer: exact bytes of minified and pretty documents in every
 * layout, escapes, int64 extremes, order violations, rule checks, strict
 * references, instanceof handling, callback and fd sinks, huge elements
 * and allocation failures. Path sinks are tested in test_sink.c. */
#include <iprof/iprof.h>
#include <iprof/stream.h>
#include <iprof/edit.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "check_api.h"

#define CHECK_DOC_N(w, lit, n)                                    \
    do {                                                          \
        const void *doc_d_ = NULL;                                \
        size_t doc_l_ = 0;                                        \
        CHECK_OK(iprof_writer_buffer((w), &doc_d_, &doc_l_));     \
        CHECK_EQ_MEM(doc_d_, doc_l_, (lit), (n));                 \
    } while (0)
#define CHECK_DOC(w, lit) CHECK_DOC_N(w, lit, strlen(lit))

/* Most documents here have entries without their methods: the reference
 * checks (the default) are left to the tests that ask for them with this
 * file's CHECKED (no flag of the library: mem_writer takes it off) and to
 * test_default_checks_references. */
#define CHECKED 0x80000000u
static iprof_writer *mem_writer(unsigned flags, const char *version)
{
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.flags = flags & CHECKED ? flags & ~CHECKED : flags | IPROF_WRITE_NO_REFERENCES;
    o.format_version = version;
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &o));
    return w;
}

/* A small document with one element of every kind. */
static const int64_t sig_m[] = {0, 0};
static const int64_t f_cc[] = {1, 0};
static const int64_t r_cc[] = {10};
static const int64_t f_cond[] = {1, 2, 1, 0};
static const int64_t r_cond[] = {-1, 0, 10, -1, 1, 0};
static const int64_t f_vi[] = {1, 3};
static const int64_t r_vi[] = {0, 7};
static const int64_t f_mon[] = {0, 0};
static const int64_t r_mon[] = {0, 5};
static const int64_t f_samp[] = {1, 5, 1, -1};
static const int64_t r_samp[] = {3};
static const int64_t f_inst[] = {1, 4};
static const int64_t r_inst[] = {0, 2, 0, 1};

static int write_kind(iprof_writer *w, int kind)
{
    switch (kind) {
    case IPROF_KIND_CALL_COUNT: return iprof_writer_entry(w, kind, f_cc, 1, r_cc, 1);
    case IPROF_KIND_CONDITIONAL: return iprof_writer_entry(w, kind, f_cond, 2, r_cond, 6);
    case IPROF_KIND_VIRTUAL_INVOKE: return iprof_writer_entry(w, kind, f_vi, 1, r_vi, 2);
    case IPROF_KIND_MONITOR: return iprof_writer_entry(w, kind, f_mon, 1, r_mon, 2);
    case IPROF_KIND_SAMPLING: return iprof_writer_entry(w, kind, f_samp, 2, r_samp, 1);
    default: return iprof_writer_entry(w, kind, f_inst, 1, r_inst, 4);
    }
}

/* begin, types int and boolean, method m, entries in the given kind
 * order, end. */
static void write_small(iprof_writer *w, const char *version, const int *kinds, size_t n)
{
    CHECK_OK(iprof_writer_begin(w, version));
    CHECK_OK(iprof_writer_type(w, 0, "int", 3));
    CHECK_OK(iprof_writer_type(w, 1, "boolean", 7));
    CHECK_OK(iprof_writer_method(w, 1, "m", 1, sig_m, 2));
    for (size_t i = 0; i < n; i++)
        CHECK_OK(write_kind(w, kinds[i]));
    CHECK_OK(iprof_writer_end(w));
}

static const int order_04[] = {IPROF_KIND_MONITOR, IPROF_KIND_VIRTUAL_INVOKE,
                               IPROF_KIND_CALL_COUNT, IPROF_KIND_CONDITIONAL,
                               IPROF_KIND_SAMPLING};
static const int order_1[] = {IPROF_KIND_CALL_COUNT, IPROF_KIND_CONDITIONAL,
                              IPROF_KIND_VIRTUAL_INVOKE, IPROF_KIND_MONITOR,
                              IPROF_KIND_SAMPLING, IPROF_KIND_INSTANCEOF};

#define T_TYPES "\"types\":[{\"id\":0,\"name\":\"int\"},{\"id\":1,\"name\":\"boolean\"}]"
#define T_METHODS "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}]"
#define T_CC "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[10]}]"
#define T_COND "\"conditionalProfiles\":[{\"ctx\":\"1:2<1:0\",\"records\":[-1,0,10,-1,1,0]}]"
#define T_VI "\"virtualInvokeProfiles\":[{\"ctx\":\"1:3\",\"records\":[0,7]}]"
#define T_MON "\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[0,5]}]"
#define T_SAMP "\"samplingProfiles\":[{\"ctx\":\"1:5<1:-1\",\"records\":[3]}]"
#define T_INST "\"instanceOfProfiles\":[{\"ctx\":\"1:4\",\"records\":[0,2,0,1]}]"

static void test_empty_documents(void)
{
    static const struct {
        const char *version, *expect;
    } cases[] = {
        {"0.4.0", "{\"version\":\"0.4.0\",\"types\":[],\"methods\":[],\"monitorProfiles\":[],"
                  "\"virtualInvokeProfiles\":[],\"callCountProfiles\":[],"
                  "\"conditionalProfiles\":[],\"samplingProfiles\":[]}"},
        {"1.0.0", "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"callCountProfiles\":[],"
                  "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                  "\"monitorProfiles\":[],\"samplingProfiles\":[]}"},
        {"1.1.0", "{\"version\":\"1.1.0\",\"types\":[],\"methods\":[],\"callCountProfiles\":[],"
                  "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                  "\"monitorProfiles\":[],\"samplingProfiles\":[],\"instanceOfProfiles\":[]}"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        iprof_writer *w = mem_writer(0, NULL);
        CHECK_OK(iprof_writer_begin(w, cases[i].version));
        CHECK_OK(iprof_writer_end(w));
        CHECK_DOC(w, cases[i].expect);
        CHECK(iprof_writer_error(w) == NULL);
        iprof_writer_free(w);
    }
}

/* Format 0.2.0: GraalVM's legacy layout, byte for byte as its files have
 * it (the corpus files come back identical): two-space indent, elements
 * "{ "id": 1, "typeName": "x" }" on their own lines, arrays "[ 1, 2 ]"
 * ("[  ]" empty), an empty line in an empty section, methodBciList frames
 * joined by ',', monitorsProfile one object, no newline at the end. */
#define L_HEAD                                                                            \
    "{\n  \"version\": \"0.2.0\",\n  \"types\": [\n"                                      \
    "    { \"id\": 0, \"typeName\": \"int\" },\n"                                         \
    "    { \"id\": 1, \"typeName\": \"boolean\" }\n  ],\n  \"methods\": [\n"              \
    "    { \"id\": 1, \"methodName\": \"m\", \"signature\": [ 0, 0 ] }\n  ],\n"

static void test_legacy_layout(void)
{
    static const int kinds[] = {IPROF_KIND_CALL_COUNT, IPROF_KIND_CONDITIONAL,
                                IPROF_KIND_VIRTUAL_INVOKE, IPROF_KIND_MONITOR};
    /* The pretty flag changes nothing: 0.2.0 has one layout. */
    for (unsigned pretty = 0; pretty < 2; pretty++) {
        iprof_writer *w = mem_writer(pretty ? IPROF_WRITE_PRETTY : 0, NULL);
        write_small(w, IPROF_FORMAT_0_2_0, kinds, 4);
        CHECK_DOC(w, L_HEAD
                  "  \"hotnessPoints\": [\n"
                  "    { \"methodBciList\": \"1:0\", \"records\": [ 10 ] }\n  ],\n"
                  "  \"conditionalPoints\": [\n"
                  "    { \"methodBciList\": \"1:2,1:0\", \"records\": [ -1, 0, 10, -1, 1, 0 ] }\n"
                  "  ],\n  \"invokePoints\": [\n"
                  "    { \"methodBciList\": \"1:3\", \"records\": [ 0, 7 ] }\n  ],\n"
                  "  \"monitorsProfile\": {\n    \"records\": [ 0, 5 ] \n  }\n}");
        iprof_writer_free(w);
    }
    iprof_writer *w = mem_writer(0, "0.2.0");
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\n  \"version\": \"0.2.0\",\n  \"types\": [\n\n  ],\n  \"methods\": [\n\n  ],\n"
                 "  \"hotnessPoints\": [\n\n  ],\n  \"conditionalPoints\": [\n\n  ],\n"
                 "  \"invokePoints\": [\n\n  ],\n"
                 "  \"monitorsProfile\": {\n    \"records\": [  ] \n  }\n}");
    iprof_writer_free(w);

    /* Empty arrays in elements; an unknown key where it is written. */
    static const int64_t one[] = {0, 0};
    w = mem_writer(0, "0.2.0");
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_OK(iprof_writer_method(w, 3, "n", 1, NULL, 0));
    CHECK_OK(iprof_writer_unknown(w, "x", 1, "{\"a\": 1}", 8));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_VIRTUAL_INVOKE, f_vi, 1, NULL, 0));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_MONITOR, one, 1, NULL, 0));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\n  \"version\": \"0.2.0\",\n  \"types\": [\n\n  ],\n  \"methods\": [\n"
                 "    { \"id\": 3, \"methodName\": \"n\", \"signature\": [  ] }\n  ],\n"
                 "  \"x\": {\"a\": 1},\n"
                 "  \"hotnessPoints\": [\n\n  ],\n  \"conditionalPoints\": [\n\n  ],\n"
                 "  \"invokePoints\": [\n    { \"methodBciList\": \"1:3\", \"records\": [  ] }\n"
                 "  ],\n  \"monitorsProfile\": {\n    \"records\": [  ] \n  }\n}");
    iprof_writer_free(w);

    /* What 0.2.0 cannot hold: sampling and instanceof entries, a second
     * monitor entry, an unknown key spelled like one of its sections. */
    static const int absent[] = {IPROF_KIND_SAMPLING, IPROF_KIND_INSTANCEOF};
    static const char *const absent_msg[] = {
        "samplingProfiles are not part of format version 0.2.0",
        "instanceOfProfiles are not part of format version 0.2.0"};
    for (size_t i = 0; i < 2; i++) {
        /* Dropping instanceof profiles does not drop sampling ones. */
        w = mem_writer(IPROF_WRITE_DROP_INSTANCEOF, "0.2.0");
        CHECK_OK(iprof_writer_begin(w, NULL));
        int rc = write_kind(w, absent[i]);
        CHECK_EQ_INT(rc, absent[i] == IPROF_KIND_SAMPLING ? IPROF_EVERSION : IPROF_OK);
        iprof_writer_free(w);
        w = mem_writer(0, "0.2.0");
        CHECK_OK(iprof_writer_begin(w, NULL));
        CHECK_EQ_INT(write_kind(w, absent[i]), IPROF_EVERSION);
        CHECK_EQ_STR(err_info(iprof_writer_error(w)).message, absent_msg[i]);
        iprof_writer_free(w);
    }
    w = mem_writer(0, "0.2.0");
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_OK(write_kind(w, IPROF_KIND_MONITOR));
    CHECK_EQ_INT(write_kind(w, IPROF_KIND_MONITOR), IPROF_EVERSION);
    CHECK_EQ_STR(err_info(iprof_writer_error(w)).message,
                 "monitorsProfile[1]: format 0.2.0 holds one monitor profile, not a second "
                 "monitor entry");
    iprof_writer_free(w);
    /* A monitor ctx other than 0:0, which only an unvalidated write lets
     * through, has no place either. */
    static const int64_t f_bad_mon[] = {1, 0};
    w = mem_writer(IPROF_WRITE_NO_VALIDATE, "0.2.0");
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_EQ_INT(iprof_writer_entry(w, IPROF_KIND_MONITOR, f_bad_mon, 1, r_mon, 2),
                 IPROF_EVERSION);
    CHECK_EQ_STR(err_info(iprof_writer_error(w)).message,
                 "monitorsProfile[0]: format 0.2.0 has no ctx for monitors, only the dummy "
                 "\"0:0\"");
    iprof_writer_free(w);
    w = mem_writer(0, "0.2.0");
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_EQ_INT(iprof_writer_unknown(w, "hotnessPoints", 13, "[]", 2), IPROF_EVERSION);
    CHECK_EQ_STR(err_info(iprof_writer_error(w)).message,
                 "the unknown key \"hotnessPoints\" is a section of format 0.2.0");
    iprof_writer_free(w);
    /* ... which a 1.x document writes as the unknown key it is there. */
    w = mem_writer(0, "1.0.0");
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_OK(iprof_writer_unknown(w, "hotnessPoints", 13, "[]", 2));
    iprof_writer_free(w);
    /* The 1.x keys are the library's own in 0.2.0 too. */
    w = mem_writer(0, "0.2.0");
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_EQ_INT(iprof_writer_unknown(w, "callCountProfiles", 17, "[]", 2), IPROF_EINVAL);
    iprof_writer_free(w);
    /* 0.2.x patches are written in the 0.2.0 layout. */
    w = mem_writer(0, "0.2.4");
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\n  \"version\": \"0.2.4\",\n  \"types\": [\n\n  ],\n  \"methods\": [\n\n  ],\n"
                 "  \"hotnessPoints\": [\n\n  ],\n  \"conditionalPoints\": [\n\n  ],\n"
                 "  \"invokePoints\": [\n\n  ],\n"
                 "  \"monitorsProfile\": {\n    \"records\": [  ] \n  }\n}");
    iprof_writer_free(w);
}

static void test_brief_example(void)
{
    iprof_writer *w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_type(w, 0, "int", 3));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"}],\"methods\":[],"
                 "\"callCountProfiles\":[],\"conditionalProfiles\":[],"
                 "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    iprof_writer_free(w);

    /* The spec's method example. */
    w = mem_writer(0, NULL);
    static const int64_t sig[] = {10, 8, 4823};
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_method(w, 1, "main", 4, sig, 3));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_CALL_COUNT, (const int64_t[]){5, 0, 3, 2}, 2,
                                (const int64_t[]){1, 2, 3}, 3) == IPROF_ESCHEMA ? 0 : -1);
    iprof_writer_free(w);

    w = mem_writer(IPROF_WRITE_NO_VALIDATE, NULL);
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_method(w, 1, "main", 4, sig, 3));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_CALL_COUNT, (const int64_t[]){5, 0, 3, 2}, 2,
                                (const int64_t[]){1, 2, 3}, 3));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\"version\":\"1.0.0\",\"types\":[],"
                 "\"methods\":[{\"id\":1,\"name\":\"main\",\"signature\":[10,8,4823]}],"
                 "\"callCountProfiles\":[{\"ctx\":\"5:0<3:2\",\"records\":[1,2,3]}],"
                 "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                 "\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    iprof_writer_free(w);

    /* A lenient load of a 1.0.0 file with instanceof entries (a warning)
     * is copied as it is; checked writes refuse them. */
    static const char lenient[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
        "\"callCountProfiles\":[],\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
        "\"monitorProfiles\":[],\"samplingProfiles\":[],"
        "\"instanceofProfiles\":[{\"ctx\":\"1:4\",\"records\":[0,3]}]}";
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(lenient, strlen(lenient))));
    w = mem_writer(IPROF_WRITE_NO_VALIDATE, NULL);
    CHECK_OK(iprof_writer_write_model(w, m));
    CHECK_DOC(w, lenient);
    iprof_writer_free(w);
    w = mem_writer(0, NULL);
    CHECK_EQ_INT(iprof_writer_write_model(w, m), IPROF_EVERSION);
    iprof_writer_free(w);
    iprof_model_free(m);
    iprof_reader_free(r);
}

static void test_small_documents(void)
{
    iprof_writer *w = mem_writer(0, NULL);
    write_small(w, "0.4.0", order_04, 5);
    CHECK_DOC(w, "{\"version\":\"0.4.0\"," T_TYPES "," T_METHODS "," T_MON "," T_VI "," T_CC
                 "," T_COND "," T_SAMP "}");
    iprof_writer_free(w);

    w = mem_writer(0, NULL);
    write_small(w, "1.0.0", order_1, 5);
    CHECK_DOC(w, "{\"version\":\"1.0.0\"," T_TYPES "," T_METHODS "," T_CC "," T_COND "," T_VI
                 "," T_MON "," T_SAMP "}");
    iprof_writer_free(w);

    w = mem_writer(0, NULL);
    write_small(w, "1.1.0", order_1, 6);
    CHECK_DOC(w, "{\"version\":\"1.1.0\"," T_TYPES "," T_METHODS "," T_CC "," T_COND "," T_VI
                 "," T_MON "," T_SAMP "," T_INST "}");
    iprof_writer_free(w);

    /* Several elements per section. */
    w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_method(w, 1, "a", 1, sig_m, 2));
    CHECK_OK(iprof_writer_method(w, 2, "b", 1, sig_m, 1));
    CHECK_OK(iprof_writer_method(w, 3, "c", 1, NULL, 0));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_SAMPLING, f_samp, 1, r_samp, 1));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_SAMPLING, f_samp, 2, r_samp, 1));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\"version\":\"1.0.0\",\"types\":[],\"methods\":["
                 "{\"id\":1,\"name\":\"a\",\"signature\":[0,0]},"
                 "{\"id\":2,\"name\":\"b\",\"signature\":[0]},"
                 "{\"id\":3,\"name\":\"c\",\"signature\":[]}],"
                 "\"callCountProfiles\":[],\"conditionalProfiles\":[],"
                 "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":["
                 "{\"ctx\":\"1:5\",\"records\":[3]},{\"ctx\":\"1:5<1:-1\",\"records\":[3]}]}");
    iprof_writer_free(w);
}

static void test_pretty(void)
{
    iprof_writer *w = mem_writer(IPROF_WRITE_PRETTY, NULL);
    CHECK_OK(iprof_writer_begin(w, "1.1.0"));
    CHECK_OK(iprof_writer_type(w, 0, "boolean", 7));
    CHECK_OK(iprof_writer_type(w, 1, "byte", 4));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_CALL_COUNT, (const int64_t[]){1, 0, 2, 3}, 2,
                                (const int64_t[]){10}, 1));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_MONITOR, f_mon, 1, r_mon, 2));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\n"
                 "  \"version\": \"1.1.0\",\n"
                 "  \"types\": [\n"
                 "    {\"id\": 0, \"name\": \"boolean\"},\n"
                 "    {\"id\": 1, \"name\": \"byte\"}\n"
                 "  ],\n"
                 "  \"methods\": [],\n"
                 "  \"callCountProfiles\": [\n"
                 "    {\"ctx\": \"1:0<2:3\", \"records\": [10]}\n"
                 "  ],\n"
                 "  \"conditionalProfiles\": [],\n"
                 "  \"virtualInvokeProfiles\": [],\n"
                 "  \"monitorProfiles\": [\n"
                 "    {\"ctx\": \"0:0\", \"records\": [0, 5]}\n"
                 "  ],\n"
                 "  \"samplingProfiles\": [],\n"
                 "  \"instanceOfProfiles\": []\n"
                 "}\n");
    iprof_writer_free(w);

    w = mem_writer(IPROF_WRITE_PRETTY, NULL);
    write_small(w, "0.4.0", order_04, 5);
    CHECK_DOC(w, "{\n"
                 "  \"version\": \"0.4.0\",\n"
                 "  \"types\": [\n"
                 "    {\"id\": 0, \"name\": \"int\"},\n"
                 "    {\"id\": 1, \"name\": \"boolean\"}\n"
                 "  ],\n"
                 "  \"methods\": [\n"
                 "    {\"id\": 1, \"name\": \"m\", \"signature\": [0, 0]}\n"
                 "  ],\n"
                 "  \"monitorProfiles\": [\n"
                 "    {\"ctx\": \"0:0\", \"records\": [0, 5]}\n"
                 "  ],\n"
                 "  \"virtualInvokeProfiles\": [\n"
                 "    {\"ctx\": \"1:3\", \"records\": [0, 7]}\n"
                 "  ],\n"
                 "  \"callCountProfiles\": [\n"
                 "    {\"ctx\": \"1:0\", \"records\": [10]}\n"
                 "  ],\n"
                 "  \"conditionalProfiles\": [\n"
                 "    {\"ctx\": \"1:2<1:0\", \"records\": [-1, 0, 10, -1, 1, 0]}\n"
                 "  ],\n"
                 "  \"samplingProfiles\": [\n"
                 "    {\"ctx\": \"1:5<1:-1\", \"records\": [3]}\n"
                 "  ]\n"
                 "}\n");
    iprof_writer_free(w);

    w = mem_writer(IPROF_WRITE_PRETTY, NULL);
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\n  \"version\": \"1.0.0\",\n  \"types\": [],\n  \"methods\": [],\n"
                 "  \"callCountProfiles\": [],\n  \"conditionalProfiles\": [],\n"
                 "  \"virtualInvokeProfiles\": [],\n  \"monitorProfiles\": [],\n"
                 "  \"samplingProfiles\": []\n}\n");
    iprof_writer_free(w);
}

static void test_versions(void)
{
    /* NULL: the options' version, else the latest. */
    iprof_writer *w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\"version\":\"" IPROF_FORMAT_LATEST "\",\"types\":[],\"methods\":[],"
                 "\"callCountProfiles\":[],\"conditionalProfiles\":[],"
                 "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[],"
                 "\"instanceOfProfiles\":[]}");
    iprof_writer_free(w);

    char optver[8] = "0.4.0";
    w = mem_writer(0, optver);
    optver[0] = 'x'; /* the options' string was copied */
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\"version\":\"0.4.0\",\"types\":[],\"methods\":[],\"monitorProfiles\":[],"
                 "\"virtualInvokeProfiles\":[],\"callCountProfiles\":[],"
                 "\"conditionalProfiles\":[],\"samplingProfiles\":[]}");
    iprof_writer_free(w);

    /* An explicit version beats the options'. */
    w = mem_writer(0, "0.4.0");
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"callCountProfiles\":[],"
                 "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                 "\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    iprof_writer_free(w);

    /* Compatible versions take their major's layout. */
    static const struct {
        const char *v, *expect;
    } compat[] = {
        {"1.0.5", "{\"version\":\"1.0.5\",\"types\":[],\"methods\":[],\"callCountProfiles\":[],"
                  "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                  "\"monitorProfiles\":[],\"samplingProfiles\":[]}"},
        {"1.2.0", "{\"version\":\"1.2.0\",\"types\":[],\"methods\":[],\"callCountProfiles\":[],"
                  "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                  "\"monitorProfiles\":[],\"samplingProfiles\":[],\"instanceOfProfiles\":[]}"},
        {"0.5.0", "{\"version\":\"0.5.0\",\"types\":[],\"methods\":[],\"monitorProfiles\":[],"
                  "\"virtualInvokeProfiles\":[],\"callCountProfiles\":[],"
                  "\"conditionalProfiles\":[],\"samplingProfiles\":[]}"},
        {"0.3.0", "{\"version\":\"0.3.0\",\"types\":[],\"methods\":[],\"monitorProfiles\":[],"
                  "\"virtualInvokeProfiles\":[],\"callCountProfiles\":[],"
                  "\"conditionalProfiles\":[],\"samplingProfiles\":[]}"},
    };
    for (size_t i = 0; i < sizeof compat / sizeof compat[0]; i++) {
        w = mem_writer(0, NULL);
        CHECK_OK(iprof_writer_begin(w, compat[i].v));
        CHECK_OK(iprof_writer_end(w));
        CHECK_DOC(w, compat[i].expect);
        iprof_writer_free(w);
    }

    static const char *const bad[] = {"0.1.0", "0.0.1", "2.0.0", "10.1.0", "1.0",  "1.0.0.0",
                                      "",      "x",     "1.0.x", " 1.0.0", "1.0.0 ", "-1.0.0",
                                      "1..0",  "v1.0.0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        w = mem_writer(0, NULL);
        CHECK_EQ_INT(iprof_writer_begin(w, bad[i]), IPROF_EVERSION);
        CHECK_EQ_INT(err_info(iprof_writer_error(w)).status, IPROF_EVERSION);
        CHECK(strlen(err_info(iprof_writer_error(w)).message) > 0);
        /* failed: stays failed */
        CHECK_EQ_INT(iprof_writer_begin(w, "1.0.0"), IPROF_EVERSION);
        CHECK_EQ_INT(iprof_writer_end(w), IPROF_EVERSION);
        iprof_writer_free(w);
    }
    w = mem_writer(0, "3.0.0");
    CHECK_EQ_INT(iprof_writer_begin(w, NULL), IPROF_EVERSION);
    iprof_writer_free(w);
}

static void test_escapes(void)
{
    static const char name[] = "a\"b\\c/d\b\f\n\r\t\x01\x1f\x7f\0z\xc3\xa9\xe2\x82\xac"
                               "\xf0\x9f\x98\x80 end";
    static const char expect[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"a\\\"b\\\\c/d\\b\\f\\n\\r\\t"
        "\\u0001\\u001f\x7f\\u0000z\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 end\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"\\u0000\\u001b\\\"\",\"signature\":[0]}],"
        "\"callCountProfiles\":[],\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
        "\"monitorProfiles\":[],\"samplingProfiles\":[]}";
    iprof_writer *w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_type(w, 0, name, sizeof name - 1));
    CHECK_OK(iprof_writer_method(w, 1, "\0\x1b\"", 3, sig_m, 1));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC_N(w, expect, sizeof expect - 1);
    iprof_writer_free(w);

    /* Every byte below 0x20. */
    char all[32];
    for (int i = 0; i < 32; i++)
        all[i] = (char)i;
    w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_type(w, 0, all, 32));
    CHECK_OK(iprof_writer_type(w, 1, NULL, 0));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\""
                 "\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r"
                 "\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018"
                 "\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f\"},{\"id\":1,\"name\":\"\"}],"
                 "\"methods\":[],\"callCountProfiles\":[],\"conditionalProfiles\":[],"
                 "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    iprof_writer_free(w);
}

/* Reference escaper for the randomized test. */
static size_t ref_escape(char *out, const unsigned char *s, size_t n)
{
    char *p = out;
    for (size_t i = 0; i < n; i++) {
        unsigned c = s[i];
        if (c == '"')
            p += sprintf(p, "\\\"");
        else if (c == '\\')
            p += sprintf(p, "\\\\");
        else if (c == '\b')
            p += sprintf(p, "\\b");
        else if (c == '\f')
            p += sprintf(p, "\\f");
        else if (c == '\n')
            p += sprintf(p, "\\n");
        else if (c == '\r')
            p += sprintf(p, "\\r");
        else if (c == '\t')
            p += sprintf(p, "\\t");
        else if (c < 0x20)
            p += sprintf(p, "\\u%04x", c);
        else
            *p++ = (char)c;
    }
    return (size_t)(p - out);
}

/* Escapable bytes at every position of the 8-byte words the escaper
 * scans, next to bytes that must pass (0x20, 0x7f, 0x80-0xff, '/'). */
static void test_escapes_random(void)
{
    /* Bytes >= 0x80 come as whole UTF-8 sequences (names must be valid
     * UTF-8): 0x80 stands for U+00E9, 0xff for U+20AC, 0xdc for U+1F600. */
    static const unsigned char alphabet[] = {'a', '"', '\\', 0, 0x1f, 0x20, 0x7f, 0x80, 0xff,
                                             '/', '\n', 0x21, 0x5b, 0x5d, 0xdc, 0x1b};
    unsigned seed = 12345;
    char expect[4096], name[320];
    for (int round = 0; round < 3000; round++) {
        size_t n = 0;
        for (int i = 0; i < round % 70; i++) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = (seed >> 16) % 64;
            /* mostly plain letters, so that whole plain words occur */
            unsigned char c = r < 40 ? (unsigned char)('a' + (int)(r % 26))
                                     : alphabet[r % sizeof alphabet];
            const char *seq = c == 0x80 ? "\xc3\xa9" : c == 0xff ? "\xe2\x82\xac"
                            : c == 0xdc ? "\xf0\x9f\x98\x80" : NULL;
            if (seq) {
                memcpy(name + n, seq, strlen(seq));
                n += strlen(seq);
            } else {
                name[n++] = (char)c;
            }
        }
        iprof_writer *w = mem_writer(0, NULL);
        CHECK_OK(iprof_writer_begin(w, "1.0.0"));
        CHECK_OK(iprof_writer_type(w, 0, name, n));
        const void *d;
        size_t l;
        CHECK_OK(iprof_writer_buffer(w, &d, &l));
        static const char head[] = "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"";
        size_t hl = sizeof head - 1;
        size_t el = ref_escape(expect, (const unsigned char *)name, n);
        expect[el++] = '"';
        expect[el++] = '}';
        CHECK(l == hl + el && memcmp(d, head, hl) == 0 &&
              memcmp((const char *)d + hl, expect, el) == 0);
        iprof_writer_free(w);
    }
}

/* A name (or unknown key) that is not UTF-8 is refused, even unchecked
 * (IPROF_WRITE_NO_VALIDATE): the document would not be JSON. */
static void test_names_must_be_utf8(void)
{
    static const int64_t sig[] = {0, 0};
    for (int unchecked = 0; unchecked < 2; unchecked++) {
        iprof_write_options o;
        CHECK_OK(iprof_write_options_init(&o, IPROF_WRITE_OPTIONS_VERSION));
        o.flags = unchecked ? IPROF_WRITE_NO_VALIDATE : 0;
        iprof_writer *w;
        CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &o));
        CHECK_OK(iprof_writer_begin(w, "1.0.0"));
        CHECK_EQ_INT(iprof_writer_type(w, 0, "A\xff", 2), IPROF_EINVAL);
        CHECK_EQ_STR(err_info(iprof_writer_error(w)).message,
                     "type 0: the name is not valid UTF-8");
        iprof_writer_free(w);
        CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &o));
        CHECK_OK(iprof_writer_begin(w, "1.0.0"));
        CHECK_OK(iprof_writer_type(w, 0, "\xc3\xa9", 2));
        CHECK_EQ_INT(iprof_writer_method(w, 1, "\xed\xa0\x80", 3, sig, 2), IPROF_EINVAL);
        CHECK_EQ_STR(err_info(iprof_writer_error(w)).message,
                     "method 1: the name is not valid UTF-8");
        iprof_writer_free(w);
        CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &o));
        CHECK_OK(iprof_writer_begin(w, "1.0.0"));
        CHECK_EQ_INT(iprof_writer_unknown(w, "x\xc0\xaf", 3, "1", 1), IPROF_EINVAL);
        CHECK_EQ_STR(err_info(iprof_writer_error(w)).message,
                     "unknown key: the key is not valid UTF-8");
        iprof_writer_free(w);
    }
}

static void test_int64_extremes(void)
{
    iprof_writer *w = mem_writer(0, NULL);
    const int64_t sig[] = {INT64_MIN, INT64_MAX, -1, 0};
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_type(w, INT64_MIN, "min", 3));
    CHECK_OK(iprof_writer_type(w, INT64_MAX, "max", 3));
    CHECK_OK(iprof_writer_type(w, -1, "", 0));
    CHECK_OK(iprof_writer_method(w, INT64_MAX, "m", 1, sig, 4));
    const int64_t fc[] = {INT64_MAX, 0, 0, INT64_MIN, 7, -1};
    const int64_t rc1[] = {INT64_MAX};
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_CALL_COUNT, fc, 3, rc1, 1));
    const int64_t fcond[] = {3, -4, 9, -6};
    const int64_t rcond[] = {INT64_MIN, INT64_MAX, INT64_MIN, -1, 0, 34303903801135};
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_CONDITIONAL, fcond, 2, rcond, 6));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\"version\":\"1.0.0\",\"types\":["
                 "{\"id\":-9223372036854775808,\"name\":\"min\"},"
                 "{\"id\":9223372036854775807,\"name\":\"max\"},{\"id\":-1,\"name\":\"\"}],"
                 "\"methods\":[{\"id\":9223372036854775807,\"name\":\"m\",\"signature\":"
                 "[-9223372036854775808,9223372036854775807,-1,0]}],"
                 "\"callCountProfiles\":[{\"ctx\":\"9223372036854775807:0<0:"
                 "-9223372036854775808<7:-1\",\"records\":[9223372036854775807]}],"
                 "\"conditionalProfiles\":[{\"ctx\":\"3:-4<9:-6\",\"records\":"
                 "[-9223372036854775808,9223372036854775807,-9223372036854775808,-1,0,"
                 "34303903801135]}],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
                 "\"samplingProfiles\":[]}");
    iprof_writer_free(w);
}

static void test_section_skipping(void)
{
    /* A later kind closes the sections in between, written empty. */
    iprof_writer *w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_MONITOR, f_mon, 1, r_mon, 2));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_MONITOR, f_mon, 1, r_mon, 2));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"callCountProfiles\":[],"
                 "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":"
                 "[{\"ctx\":\"0:0\",\"records\":[0,5]},{\"ctx\":\"0:0\",\"records\":[0,5]}],"
                 "\"samplingProfiles\":[]}");
    iprof_writer_free(w);

    /* Types then an entry: methods written empty. */
    w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_begin(w, "0.4.0"));
    CHECK_OK(iprof_writer_type(w, 0, "int", 3));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_CONDITIONAL, f_cond, 2, r_cond, 6));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\"version\":\"0.4.0\",\"types\":[{\"id\":0,\"name\":\"int\"}],"
                 "\"methods\":[],\"monitorProfiles\":[],\"virtualInvokeProfiles\":[],"
                 "\"callCountProfiles\":[]," T_COND ",\"samplingProfiles\":[]}");
    iprof_writer_free(w);
}

/* One order violation: run setup, then the bad call must give ESTATE and
 * every later call the same. */
typedef int (*step_fn)(iprof_writer *w);

static int s_begin(iprof_writer *w) { return iprof_writer_begin(w, "1.0.0"); }
static int s_begin04(iprof_writer *w) { return iprof_writer_begin(w, "0.4.0"); }
static int s_type(iprof_writer *w) { return iprof_writer_type(w, 5, "t", 1); }
static int s_method(iprof_writer *w) { return iprof_writer_method(w, 1, "m", 1, sig_m, 2); }
static int s_cc(iprof_writer *w) { return write_kind(w, IPROF_KIND_CALL_COUNT); }
static int s_cond(iprof_writer *w) { return write_kind(w, IPROF_KIND_CONDITIONAL); }
static int s_vi(iprof_writer *w) { return write_kind(w, IPROF_KIND_VIRTUAL_INVOKE); }
static int s_mon(iprof_writer *w) { return write_kind(w, IPROF_KIND_MONITOR); }
static int s_samp(iprof_writer *w) { return write_kind(w, IPROF_KIND_SAMPLING); }
static int s_end(iprof_writer *w) { return iprof_writer_end(w); }

static void test_order_violations(void)
{
    static const struct {
        const char *what;
        step_fn steps[6]; /* the last non-NULL one must fail with ESTATE */
    } cases[] = {
        {"type before begin", {s_type}},
        {"method before begin", {s_method}},
        {"entry before begin", {s_cc}},
        {"end before begin", {s_end}},
        {"begin twice", {s_begin, s_begin}},
        {"type after method", {s_begin, s_method, s_type}},
        {"type after entry", {s_begin, s_cc, s_type}},
        {"method after entry", {s_begin, s_cc, s_method}},
        {"call count after conditional (1.0.0)", {s_begin, s_cond, s_cc}},
        {"virtual invoke after monitor (1.0.0)", {s_begin, s_mon, s_vi}},
        {"sampling then call count", {s_begin, s_samp, s_cc}},
        {"monitor after call count (0.4.0)", {s_begin04, s_cc, s_mon}},
        {"virtual invoke after conditional (0.4.0)", {s_begin04, s_cond, s_vi}},
        {"type after end", {s_begin, s_end, s_type}},
        {"method after end", {s_begin, s_end, s_method}},
        {"entry after end", {s_begin, s_end, s_samp}},
        {"end after end", {s_begin, s_end, s_end}},
        {"begin after end", {s_begin, s_end, s_begin}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        iprof_writer *w = mem_writer(0, NULL);
        size_t n = 0;
        while (n < 6 && cases[i].steps[n])
            n++;
        for (size_t s = 0; s + 1 < n; s++)
            CHECK_OK(cases[i].steps[s](w));
        int rc = cases[i].steps[n - 1](w);
        if (rc != IPROF_ESTATE)
            fprintf(stderr, "case: %s\n", cases[i].what);
        CHECK_EQ_INT(rc, IPROF_ESTATE);
        const iprof_error *e = iprof_writer_error(w);
        CHECK(e != NULL);
        CHECK_EQ_INT(err_info(e).status, IPROF_ESTATE);
        CHECK(strlen(err_info(e).message) > 0);
        CHECK_EQ_INT(err_info(e).offset, 0);
        /* Sticky: every call now returns the same status. */
        CHECK_EQ_INT(s_type(w), IPROF_ESTATE);
        CHECK_EQ_INT(s_method(w), IPROF_ESTATE);
        CHECK_EQ_INT(s_samp(w), IPROF_ESTATE);
        CHECK_EQ_INT(s_begin(w), IPROF_ESTATE);
        CHECK_EQ_INT(s_end(w), IPROF_ESTATE);
        iprof_writer_free(w);
    }
    /* The message says where the writer stood. */
    iprof_writer *b = mem_writer(0, NULL);
    CHECK_OK(s_begin(b));
    CHECK_EQ_INT(s_begin(b), IPROF_ESTATE);
    CHECK_EQ_STR(err_info(iprof_writer_error(b)).message, "begin called after begin");
    iprof_writer_free(b);

    /* Same-kind entries and the in-order sequence are fine. */
    iprof_writer *w = mem_writer(0, NULL);
    CHECK_OK(s_begin(w));
    CHECK_OK(s_type(w));
    CHECK_OK(s_type(w));
    CHECK_OK(s_method(w));
    CHECK_OK(s_method(w));
    CHECK_OK(s_cc(w));
    CHECK_OK(s_cc(w));
    CHECK_OK(s_samp(w));
    CHECK_OK(s_samp(w));
    CHECK_OK(s_end(w));
    CHECK(iprof_writer_error(w) == NULL);
    iprof_writer_free(w);
}

static void test_rules(void)
{
    static const struct {
        int kind;
        int64_t frames[4];
        size_t nframes;
        int64_t records[4];
        size_t nrecords;
        int no_validate_ok; /* whether NO_VALIDATE writes it */
        const char *msg_part;
    } cases[] = {
        {IPROF_KIND_CALL_COUNT, {1, 0}, 0, {1}, 1, 0, "frame"},
        {IPROF_KIND_SAMPLING, {-1, 0}, 1, {1}, 1, 0, "negative"},
        {IPROF_KIND_CONDITIONAL, {1, 0, -5, 0}, 2, {1, 2, 3}, 3, 0, "negative"},
        {IPROF_KIND_CALL_COUNT, {1, 3}, 1, {1}, 1, 1, "bci 0"},
        {IPROF_KIND_CALL_COUNT, {1, 0}, 1, {1, 2}, 2, 1, "one value"},
        {IPROF_KIND_CALL_COUNT, {1, 0}, 1, {0}, 0, 1, "one value"},
        {IPROF_KIND_SAMPLING, {1, 0}, 1, {1, 2}, 2, 1, "one value"},
        {IPROF_KIND_CONDITIONAL, {1, 0}, 1, {1, 2}, 2, 1, "triples"},
        {IPROF_KIND_VIRTUAL_INVOKE, {1, 0}, 1, {1, 2, 3}, 3, 1, "pairs"},
        {IPROF_KIND_MONITOR, {0, 1}, 1, {1, 2}, 2, 1, "0:0"},
        {IPROF_KIND_MONITOR, {1, 0}, 1, {1, 2}, 2, 1, "0:0"},
        {IPROF_KIND_MONITOR, {0, 0, 0, 0}, 2, {1, 2}, 2, 1, "0:0"},
        {IPROF_KIND_MONITOR, {0, 0}, 1, {1}, 1, 1, "pairs"},
        {IPROF_KIND_INSTANCEOF, {1, 0}, 1, {1}, 1, 1, "pairs"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        iprof_writer *w = mem_writer(0, NULL);
        CHECK_OK(iprof_writer_begin(w, "1.1.0"));
        int rc = iprof_writer_entry(w, cases[i].kind, cases[i].frames, cases[i].nframes,
                                    cases[i].records, cases[i].nrecords);
        CHECK_EQ_INT(rc, IPROF_ESCHEMA);
        const iprof_error *e = iprof_writer_error(w);
        const char *msg = err_info(e).message;
        /* The key as written: GraalVM's spelling for instanceof by default. */
        const char *key = cases[i].kind == IPROF_KIND_INSTANCEOF
                              ? IPROF_INSTANCEOF_KEY_CAMEL_NAME
                              : iprof_kind_name(cases[i].kind);
        if (!strstr(msg, cases[i].msg_part) || !strstr(msg, key)) {
            fprintf(stderr, "case %zu: message \"%s\"\n", i, msg);
            CHECK(0);
        }
        CHECK(strncmp(err_info(e).path, key, strlen(key)) == 0);
        CHECK_EQ_INT(iprof_writer_end(w), IPROF_ESCHEMA);
        iprof_writer_free(w);

        w = mem_writer(IPROF_WRITE_NO_VALIDATE, NULL);
        CHECK_OK(iprof_writer_begin(w, "1.1.0"));
        rc = iprof_writer_entry(w, cases[i].kind, cases[i].frames, cases[i].nframes,
                                cases[i].records, cases[i].nrecords);
        CHECK_EQ_INT(rc, cases[i].no_validate_ok ? IPROF_OK : IPROF_ESCHEMA);
        iprof_writer_free(w);
    }

    /* The element index is in the message and the path. */
    iprof_writer *w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(write_kind(w, IPROF_KIND_CONDITIONAL));
    CHECK_OK(write_kind(w, IPROF_KIND_CONDITIONAL));
    CHECK_EQ_INT(iprof_writer_entry(w, IPROF_KIND_CONDITIONAL, f_cond, 2, r_cond, 5),
                 IPROF_ESCHEMA);
    CHECK_EQ_STR(err_info(iprof_writer_error(w)).path, "conditionalProfiles[2]");
    CHECK(strstr(err_info(iprof_writer_error(w)).message, "conditionalProfiles[2]") != NULL);
    iprof_writer_free(w);

    /* NO_VALIDATE output of rule-breaking entries. */
    w = mem_writer(IPROF_WRITE_NO_VALIDATE, NULL);
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_CALL_COUNT, (const int64_t[]){4, -1}, 1, NULL, 0));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_MONITOR, (const int64_t[]){2, 2}, 1,
                                (const int64_t[]){1, 2, 3}, 3));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"callCountProfiles\":"
                 "[{\"ctx\":\"4:-1\",\"records\":[]}],\"conditionalProfiles\":[],"
                 "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[{\"ctx\":\"2:2\","
                 "\"records\":[1,2,3]}],\"samplingProfiles\":[]}");
    iprof_writer_free(w);
}

static void test_instanceof(void)
{
    static const char *const old[] = {"1.0.0", "0.4.0", "1.0.7"};
    for (size_t i = 0; i < 3; i++) {
        iprof_writer *w = mem_writer(0, NULL);
        CHECK_OK(iprof_writer_begin(w, old[i]));
        CHECK_EQ_INT(write_kind(w, IPROF_KIND_INSTANCEOF), IPROF_EVERSION);
        CHECK(strstr(err_info(iprof_writer_error(w)).message, "instanceOfProfiles") != NULL);
        CHECK_EQ_INT(iprof_writer_end(w), IPROF_EVERSION);
        iprof_writer_free(w);
    }

    /* DROP_INSTANCEOF: skipped silently, wherever they come. */
    iprof_writer *a = mem_writer(IPROF_WRITE_DROP_INSTANCEOF, NULL);
    iprof_writer *b = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_begin(a, "1.0.0"));
    CHECK_OK(write_kind(a, IPROF_KIND_INSTANCEOF));
    CHECK_OK(iprof_writer_type(a, 0, "int", 3));
    CHECK_OK(write_kind(a, IPROF_KIND_INSTANCEOF));
    CHECK_OK(write_kind(a, IPROF_KIND_VIRTUAL_INVOKE));
    CHECK_OK(write_kind(a, IPROF_KIND_INSTANCEOF));
    CHECK_OK(iprof_writer_end(a));
    CHECK_OK(iprof_writer_begin(b, "1.0.0"));
    CHECK_OK(iprof_writer_type(b, 0, "int", 3));
    CHECK_OK(write_kind(b, IPROF_KIND_VIRTUAL_INVOKE));
    CHECK_OK(iprof_writer_end(b));
    const void *da, *db;
    size_t la, lb;
    CHECK_OK(iprof_writer_buffer(a, &da, &la));
    CHECK_OK(iprof_writer_buffer(b, &db, &lb));
    CHECK_EQ_MEM(da, la, db, lb);
    iprof_writer_free(a);
    iprof_writer_free(b);

    /* Still ESTATE when dropped before begin. */
    a = mem_writer(IPROF_WRITE_DROP_INSTANCEOF, "1.0.0");
    CHECK_EQ_INT(write_kind(a, IPROF_KIND_INSTANCEOF), IPROF_ESTATE);
    iprof_writer_free(a);

    /* 1.1.0 writes them; DROP has no effect there. */
    a = mem_writer(IPROF_WRITE_DROP_INSTANCEOF, NULL);
    CHECK_OK(iprof_writer_begin(a, "1.1.0"));
    CHECK_OK(write_kind(a, IPROF_KIND_INSTANCEOF));
    CHECK_OK(iprof_writer_end(a));
    CHECK_DOC(a, "{\"version\":\"1.1.0\",\"types\":[],\"methods\":[],\"callCountProfiles\":[],"
                 "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                 "\"monitorProfiles\":[],\"samplingProfiles\":[]," T_INST "}");
    iprof_writer_free(a);
}

static void test_strict(void)
{
    /* A complete, consistent document passes. */
    iprof_writer *w = mem_writer(CHECKED, NULL);
    write_small(w, "1.1.0", order_1, 6);
    CHECK(iprof_writer_error(w) == NULL);
    iprof_writer_free(w);

    /* Duplicates. */
    w = mem_writer(CHECKED, NULL);
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_type(w, 0, "int", 3));
    CHECK_EQ_INT(iprof_writer_type(w, 0, "long", 4), IPROF_ESCHEMA);
    CHECK(strstr(err_info(iprof_writer_error(w)).message, "duplicate") != NULL);
    CHECK_EQ_STR(err_info(iprof_writer_error(w)).path, "types[1]");
    iprof_writer_free(w);

    w = mem_writer(CHECKED, NULL);
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_type(w, 0, "int", 3));
    CHECK_OK(iprof_writer_method(w, 7, "a", 1, sig_m, 2));
    CHECK_EQ_INT(iprof_writer_method(w, 7, "b", 1, sig_m, 2), IPROF_ESCHEMA);
    CHECK(strstr(err_info(iprof_writer_error(w)).message, "duplicate") != NULL);
    iprof_writer_free(w);

    /* Without STRICT duplicates and dangling references are written. */
    w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_type(w, 0, "int", 3));
    CHECK_OK(iprof_writer_type(w, 0, "int", 3));
    CHECK_OK(iprof_writer_method(w, 7, "a", 1, (const int64_t[]){99}, 1));
    CHECK_OK(iprof_writer_method(w, 7, "a", 1, sig_m, 2));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_VIRTUAL_INVOKE, (const int64_t[]){42, 1}, 1,
                                (const int64_t[]){99, 1}, 2));
    CHECK_OK(iprof_writer_end(w));
    iprof_writer_free(w);

    /* Dangling references. */
    static const struct {
        int kind;
        int64_t frames[4];
        size_t nframes;
        int64_t records[6];
        size_t nrecords;
        int expect;
    } cases[] = {
        {IPROF_KIND_CALL_COUNT, {2, 0}, 1, {1}, 1, IPROF_EDANGLING},
        {IPROF_KIND_CALL_COUNT, {1, 0, 2, 5}, 2, {1}, 1, IPROF_EDANGLING},
        {IPROF_KIND_CONDITIONAL, {2, 1}, 1, {0, 0, 1}, 3, IPROF_EDANGLING},
        {IPROF_KIND_CONDITIONAL, {1, 1}, 1, {5, 5, 1}, 3, IPROF_OK}, /* no type slot */
        {IPROF_KIND_SAMPLING, {1, 1, 3, 3}, 2, {1}, 1, IPROF_EDANGLING},
        {IPROF_KIND_VIRTUAL_INVOKE, {1, 1}, 1, {0, 1, 9, 1}, 4, IPROF_EDANGLING},
        {IPROF_KIND_VIRTUAL_INVOKE, {1, 1}, 1, {0, 9}, 2, IPROF_OK}, /* count slot */
        {IPROF_KIND_VIRTUAL_INVOKE, {9, 1}, 1, {0, 9}, 2, IPROF_EDANGLING},
        {IPROF_KIND_MONITOR, {0, 0}, 1, {0, 1}, 2, IPROF_OK}, /* dummy 0:0 */
        {IPROF_KIND_MONITOR, {0, 0}, 1, {0, 1, 3, 1}, 4, IPROF_EDANGLING},
        {IPROF_KIND_INSTANCEOF, {1, 1}, 1, {1, 1, 4, 4}, 4, IPROF_EDANGLING},
        {IPROF_KIND_INSTANCEOF, {1, 1}, 1, {1, 1, 0, 4}, 4, IPROF_OK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        w = mem_writer(CHECKED, NULL);
        CHECK_OK(iprof_writer_begin(w, "1.1.0"));
        CHECK_OK(iprof_writer_type(w, 0, "int", 3));
        CHECK_OK(iprof_writer_type(w, 1, "boolean", 7));
        CHECK_OK(iprof_writer_method(w, 1, "m", 1, sig_m, 2));
        int rc = iprof_writer_entry(w, cases[i].kind, cases[i].frames, cases[i].nframes,
                                    cases[i].records, cases[i].nrecords);
        if (rc != cases[i].expect)
            fprintf(stderr, "strict case %zu\n", i);
        CHECK_EQ_INT(rc, cases[i].expect);
        if (rc) {
            CHECK(strstr(err_info(iprof_writer_error(w)).message, "not written") != NULL);
            CHECK_EQ_INT(iprof_writer_end(w), rc);
        } else {
            CHECK_OK(iprof_writer_end(w));
        }
        iprof_writer_free(w);
    }

    /* Signature references. */
    w = mem_writer(CHECKED, NULL);
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_type(w, 0, "int", 3));
    CHECK_EQ_INT(iprof_writer_method(w, 1, "m", 1, (const int64_t[]){0, 3}, 2),
                 IPROF_EDANGLING);
    CHECK(strstr(err_info(iprof_writer_error(w)).message, "signature") != NULL);
    CHECK_EQ_STR(err_info(iprof_writer_error(w)).path, "methods[0]");
    iprof_writer_free(w);

    /* NO_VALIDATE checks nothing, references included (the 0.x STRICT
     * flag, which overrode it, went in 1.0 and is refused now). */
    w = mem_writer(CHECKED | IPROF_WRITE_NO_VALIDATE, NULL);
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_CALL_COUNT, f_cc, 1, r_cc, 1));
    iprof_writer_free(w);
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.flags = 0x4u; /* 0.x's IPROF_WRITE_STRICT: never reused */
    w = NULL;
    CHECK_EQ_INT(iprof_writer_new(&w, SINK_BUFFER, &o), IPROF_EINVAL);
    CHECK(w == NULL);
}

static void test_invalid_arguments(void)
{
    iprof_write_options o;
    CHECK_OK(iprof_write_options_init(&o, IPROF_WRITE_OPTIONS_VERSION));
    CHECK_EQ_INT(o.version, IPROF_WRITE_OPTIONS_VERSION);
    CHECK_EQ_INT(o.flags, 0);
    CHECK(o.format_version == NULL && o.allocator == NULL && o.buffer_size == 0);
    CHECK_EQ_INT(iprof_write_options_init(&o, 99), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_write_options_init(NULL, IPROF_WRITE_OPTIONS_VERSION), IPROF_EINVAL);

    iprof_writer *w = (iprof_writer *)&o;
    CHECK_EQ_INT(iprof_writer_new(NULL, SINK_BUFFER, NULL), IPROF_EINVAL);
    o.version = 99;
    CHECK_EQ_INT(iprof_writer_new(&w, SINK_BUFFER, &o), IPROF_EINVAL);
    CHECK(w == NULL);
    o.version = 0; /* every options struct: version 1 .. the headers' */
    CHECK_EQ_INT(iprof_writer_new(&w, SINK_BUFFER, &o), IPROF_EINVAL);
    o.version = IPROF_WRITE_OPTIONS_VERSION;
    o.flags = 0x8000;
    CHECK_EQ_INT(iprof_writer_new(&w, SINK_BUFFER, &o), IPROF_EINVAL);
    o.flags = 0;
    CHECK_EQ_INT(iprof_writer_new(&w, SINK_FD(-1), &o), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_writer_new(&w, SINK_PATH(NULL), &o), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_writer_new(&w, SINK_PATH(""), &o), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_writer_new(&w, SINK_CALLBACK(NULL, NULL), &o), IPROF_EINVAL);
    CHECK(w == NULL);

    CHECK_EQ_INT(iprof_writer_begin(NULL, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_writer_type(NULL, 0, "", 0), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_writer_method(NULL, 0, "", 0, NULL, 0), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_writer_entry(NULL, 0, f_cc, 1, r_cc, 1), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_writer_end(NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_writer_write_model(NULL, NULL), IPROF_EINVAL);
    CHECK(iprof_writer_error(NULL) == NULL);
    const void *d;
    size_t l;
    CHECK_EQ_INT(iprof_writer_buffer(NULL, &d, &l), IPROF_EINVAL);
    iprof_writer_free(NULL);

    static const int bad_kinds[] = {-1, IPROF_KIND_COUNT, 1000};
    for (size_t i = 0; i < 3; i++) {
        w = mem_writer(0, NULL);
        CHECK_OK(iprof_writer_begin(w, NULL));
        CHECK_EQ_INT(iprof_writer_entry(w, bad_kinds[i], f_cc, 1, r_cc, 1), IPROF_EINVAL);
        CHECK_EQ_INT(iprof_writer_end(w), IPROF_EINVAL);
        iprof_writer_free(w);
    }
    w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_EQ_INT(iprof_writer_type(w, 0, NULL, 1), IPROF_EINVAL);
    iprof_writer_free(w);
    w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_EQ_INT(iprof_writer_method(w, 0, "m", 1, NULL, 2), IPROF_EINVAL);
    iprof_writer_free(w);
    w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_EQ_INT(iprof_writer_entry(w, 0, NULL, 1, r_cc, 1), IPROF_EINVAL);
    iprof_writer_free(w);
    w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_EQ_INT(iprof_writer_entry(w, 0, f_cc, 1, NULL, 1), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_writer_buffer(w, NULL, &l), IPROF_EINVAL);
    iprof_writer_free(w);
    w = mem_writer(0, NULL);
    CHECK_EQ_INT(iprof_writer_write_model(w, NULL), IPROF_EINVAL);
    iprof_writer_free(w);
}

/* ------------------------------------------------------------------------ */
/* Callback sink                                                            */

typedef struct collect {
    char *data;
    size_t len, cap;
    int calls;
    int fail_at; /* fail this call (1-based); 0: never */
    size_t max_chunk;
} collect;

static int collect_fn(const void *data, size_t len, void *payload)
{
    collect *c = payload;
    c->calls++;
    if (c->fail_at && c->calls == c->fail_at)
        return 42;
    if (len > c->max_chunk)
        c->max_chunk = len;
    if (c->len + len > c->cap) {
        size_t ncap = (c->len + len) * 2;
        char *nd = realloc(c->data, ncap);
        if (!nd)
            return -1;
        c->data = nd;
        c->cap = ncap;
    }
    memcpy(c->data + c->len, data, len);
    c->len += len;
    return 0;
}

/* A document with many elements, for sinks and buffering. */
static int write_many(iprof_writer *w, int n)
{
    int rc = iprof_writer_begin(w, "1.0.0");
    char name[64];
    for (int i = 0; !rc && i < n; i++) {
        int len = snprintf(name, sizeof name, "java.lang.Type%d\t\"%d\"", i, i);
        rc = iprof_writer_type(w, i, name, (size_t)len);
    }
    for (int i = 0; !rc && i < n; i++) {
        int64_t sig[3] = {i, (i + 1) % n, (i + 2) % n};
        rc = iprof_writer_method(w, i, "method", 6, sig, 3);
    }
    for (int i = 0; !rc && i < n; i++) {
        int64_t fr[4] = {i, 0, (i + 1) % n, i - 5};
        int64_t rec[1] = {(int64_t)i * 1000003};
        rc = iprof_writer_entry(w, IPROF_KIND_CALL_COUNT, fr, 2, rec, 1);
    }
    for (int i = 0; !rc && i < n; i++) {
        int64_t fr[2] = {i, i};
        int64_t rec[4] = {i % n, 10, (i + 3) % n, 20};
        rc = iprof_writer_entry(w, IPROF_KIND_VIRTUAL_INVOKE, fr, 1, rec, 4);
    }
    if (!rc)
        rc = iprof_writer_end(w);
    return rc;
}

static void test_callback_sink(void)
{
    iprof_writer *m = mem_writer(0, NULL);
    CHECK_OK(write_many(m, 3000));
    const void *md;
    size_t ml;
    CHECK_OK(iprof_writer_buffer(m, &md, &ml));
    CHECK(ml > 100000);

    static const size_t sizes[] = {1, 7, 64, 4096, 0};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        collect c = {0};
        iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
        o.buffer_size = sizes[i];
        iprof_writer *w = NULL;
        CHECK_OK(iprof_writer_new(&w, SINK_CALLBACK(collect_fn, &c), &o));
        CHECK_OK(write_many(w, 3000));
        CHECK_EQ_MEM(c.data, c.len, md, ml);
        CHECK(c.calls > 1);
        if (sizes[i] == 0) /* the default 256 KiB buffer, flushed when full */
            CHECK(c.max_chunk <= 256 * 1024 && c.max_chunk > 200 * 1024);
        if (sizes[i] >= 4096)
            CHECK(c.max_chunk <= sizes[i]);
        const void *d;
        size_t l;
        CHECK_EQ_INT(iprof_writer_buffer(w, &d, &l), IPROF_EINVAL);
        iprof_writer_free(w);
        free(c.data);
    }

    /* A callback that fails midway. */
    collect c = {0};
    c.fail_at = 3;
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.buffer_size = 4096;
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_CALLBACK(collect_fn, &c), &o));
    CHECK_EQ_INT(write_many(w, 3000), IPROF_EIO);
    CHECK_EQ_INT(c.calls, 3);
    const iprof_error *e = iprof_writer_error(w);
    CHECK_EQ_INT(err_info(e).status, IPROF_EIO);
    CHECK(strstr(err_info(e).message, "callback") != NULL);
    CHECK_EQ_INT(iprof_writer_type(w, 1, "x", 1), IPROF_EIO);
    CHECK_EQ_INT(iprof_writer_end(w), IPROF_EIO);
    CHECK_EQ_INT(c.calls, 3);
    iprof_writer_free(w);
    free(c.data);

    /* Failing on the final flush (at end). */
    c = (collect){0};
    c.fail_at = 1;
    CHECK_OK(iprof_writer_new(&w, SINK_CALLBACK(collect_fn, &c), NULL));
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_EQ_INT(iprof_writer_end(w), IPROF_EIO);
    iprof_writer_free(w);
    free(c.data);
    iprof_writer_free(m);
}

/* ------------------------------------------------------------------------ */
/* fd sink                                                                  */

static void test_fd_sink(void)
{
    char path[] = "/tmp/iprof_test_writer_XXXXXX";
    int fd = check_mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    CHECK(write(fd, "prefix:", 7) == 7);
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.buffer_size = 100;
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_FD(fd), &o));
    CHECK_OK(write_many(w, 500));
    iprof_writer_free(w);
    /* not closed */
    CHECK(write(fd, ":suffix", 7) == 7);
    close(fd);

    iprof_writer *m = mem_writer(0, NULL);
    CHECK_OK(write_many(m, 500));
    const void *md;
    size_t ml;
    CHECK_OK(iprof_writer_buffer(m, &md, &ml));
    size_t fl = 0;
    char *fdata = check_read_file(path, &fl);
    CHECK(fdata != NULL);
    if (fdata) {
        CHECK(fl == ml + 14);
        CHECK(fl >= 14 && memcmp(fdata, "prefix:", 7) == 0);
        CHECK(fl >= 14 && memcmp(fdata + fl - 7, ":suffix", 7) == 0);
        CHECK(fl >= 14 && memcmp(fdata + 7, md, ml) == 0);
    }
    free(fdata);
    unlink(path);
    iprof_writer_free(m);

    /* A pipe (partial writes possible) read back completely. */
    int p[2];
    CHECK_OK(check_pipe(p));
    /* A small document fits the pipe buffer. */
    CHECK_OK(iprof_writer_new(&w, SINK_FD(p[1]), NULL));
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_end(w));
    iprof_writer_free(w);
    close(p[1]);
    char buf[512];
    ssize_t got = read(p[0], buf, sizeof buf);
    close(p[0]);
    static const char empty10[] =
        "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"callCountProfiles\":[],"
        "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
        "\"samplingProfiles\":[]}";
    CHECK_EQ_MEM(buf, got > 0 ? (size_t)got : 0, empty10, sizeof empty10 - 1);

    /* /dev/full: ENOSPC becomes IPROF_EIO with the reason. */
    fd = open("/dev/full", O_WRONLY);
    if (fd < 0) {
        SKIP("no /dev/full");
    }
    CHECK_OK(iprof_writer_new(&w, SINK_FD(fd), &o));
    CHECK_EQ_INT(write_many(w, 100), IPROF_EIO);
    const iprof_error *e = iprof_writer_error(w);
    CHECK_EQ_INT(err_info(e).status, IPROF_EIO);
    CHECK(strstr(err_info(e).message, "file descriptor") != NULL);
    CHECK(strstr(err_info(e).message, "space") != NULL); /* "No space left on device" */
    CHECK_EQ_INT(iprof_writer_end(w), IPROF_EIO);
    iprof_writer_free(w);
    /* Even a tiny document fails at end's flush. */
    CHECK_OK(iprof_writer_new(&w, SINK_FD(fd), NULL));
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_EQ_INT(iprof_writer_end(w), IPROF_EIO);
    iprof_writer_free(w);
    close(fd);
}

/* ------------------------------------------------------------------------ */
/* Huge elements (the chunked paths)                                        */

static void test_huge_elements(void)
{
    const size_t nlen = 100003, nvals = 100001, nframes = 5003;
    char *name = malloc(nlen);
    int64_t *vals = malloc(nvals * sizeof *vals);
    int64_t *frames = malloc(nframes * 2 * sizeof *frames);
    /* expected output: at most 6 bytes per name byte, 22 per value, 42 per frame */
    size_t cap = nlen * 6 + nvals * 22 * 2 + nframes * 42 + 4096;
    char *expect = malloc(cap);
    if (!name || !vals || !frames || !expect) {
        free(name);
        free(vals);
        free(frames);
        free(expect);
        SKIP("no memory");
    }
    for (size_t i = 0; i < nlen; i++)
        name[i] = (char)(i % 7 == 0 ? '\n' : i % 5 == 0 ? '\x02' : 'a' + (int)(i % 26));
    for (size_t i = 0; i < nvals; i++)
        vals[i] = (i & 1) ? INT64_MIN + (int64_t)i : (int64_t)i * 12345678901LL;
    for (size_t i = 0; i < nframes; i++) {
        frames[2 * i] = (int64_t)i;
        frames[2 * i + 1] = -(int64_t)i;
    }
    for (int pretty = 0; pretty < 2; pretty++) {
        /* Build the expected text. */
        char *p = expect;
        p += sprintf(p, pretty ? "{\n  \"version\": \"1.0.0\",\n  \"types\": [\n    "
                                 "{\"id\": 1, \"name\": \""
                               : "{\"version\":\"1.0.0\",\"types\":[{\"id\":1,\"name\":\"");
        for (size_t i = 0; i < nlen; i++) {
            if (name[i] == '\n')
                p += sprintf(p, "\\n");
            else if (name[i] == '\x02')
                p += sprintf(p, "\\u0002");
            else
                *p++ = name[i];
        }
        p += sprintf(p, pretty ? "\"}\n  ],\n  \"methods\": [\n    {\"id\": 2, \"name\": \"m\", "
                                 "\"signature\": ["
                               : "\"}],\"methods\":[{\"id\":2,\"name\":\"m\",\"signature\":[");
        for (size_t i = 0; i < nvals; i++)
            p += sprintf(p, "%s%" PRId64, i ? (pretty ? ", " : ",") : "", vals[i]);
        p += sprintf(p, pretty ? "]}\n  ],\n  \"callCountProfiles\": [],\n"
                                 "  \"conditionalProfiles\": [],\n"
                                 "  \"virtualInvokeProfiles\": [],\n  \"monitorProfiles\": [],\n"
                                 "  \"samplingProfiles\": [\n    {\"ctx\": \""
                               : "]}],\"callCountProfiles\":[],\"conditionalProfiles\":[],"
                                 "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
                                 "\"samplingProfiles\":[{\"ctx\":\"");
        for (size_t i = 0; i < nframes; i++)
            p += sprintf(p, "%s%" PRId64 ":%" PRId64, i ? "<" : "", frames[2 * i],
                         frames[2 * i + 1]);
        p += sprintf(p, pretty ? "\", \"records\": [" : "\",\"records\":[");
        p += sprintf(p, "%" PRId64, vals[1]);
        p += sprintf(p, pretty ? "]},\n    {\"ctx\": \"1:2\", \"records\": [" :
                                 "]},{\"ctx\":\"1:2\",\"records\":[");
        for (size_t i = 0; i < nvals; i++)
            p += sprintf(p, "%s%" PRId64, i ? (pretty ? ", " : ",") : "", vals[i]);
        p += sprintf(p, pretty ? "]}\n  ]\n}\n" : "]}]}");
        size_t elen = (size_t)(p - expect);

        static const size_t sizes[] = {0, 1, 1000};
        for (size_t s = 0; s < 4; s++) {
            iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
            o.flags = pretty ? IPROF_WRITE_PRETTY | IPROF_WRITE_NO_VALIDATE
                             : IPROF_WRITE_NO_VALIDATE;
            iprof_writer *w = NULL;
            collect c = {0};
            if (s == 3) {
                CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &o));
            } else {
                o.buffer_size = sizes[s];
                CHECK_OK(iprof_writer_new(&w, SINK_CALLBACK(collect_fn, &c), &o));
            }
            CHECK_OK(iprof_writer_begin(w, "1.0.0"));
            CHECK_OK(iprof_writer_type(w, 1, name, nlen));
            CHECK_OK(iprof_writer_method(w, 2, "m", 1, vals, nvals));
            CHECK_OK(iprof_writer_entry(w, IPROF_KIND_SAMPLING, frames, nframes, vals + 1, 1));
            CHECK_OK(iprof_writer_entry(w, IPROF_KIND_SAMPLING, (const int64_t[]){1, 2}, 1,
                                        vals, nvals));
            CHECK_OK(iprof_writer_end(w));
            if (s == 3) {
                CHECK_DOC_N(w, expect, elen);
            } else {
                CHECK_EQ_MEM(c.data, c.len, expect, elen);
            }
            iprof_writer_free(w);
            free(c.data);
        }
    }
    free(name);
    free(vals);
    free(frames);
    free(expect);
}

/* ------------------------------------------------------------------------ */
/* Memory sink and allocation failures                                      */

static void test_memory_sink(void)
{
    /* The bytes so far are visible before end. */
    iprof_writer *w = mem_writer(0, NULL);
    const void *d = NULL;
    size_t l = 99;
    CHECK_OK(iprof_writer_buffer(w, &d, &l));
    CHECK_EQ_INT(l, 0);
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_type(w, 3, "x", 1));
    CHECK_OK(iprof_writer_buffer(w, &d, &l));
    CHECK_EQ_MEM(d, l, "{\"version\":\"1.0.0\",\"types\":[{\"id\":3,\"name\":\"x\"}",
                 strlen("{\"version\":\"1.0.0\",\"types\":[{\"id\":3,\"name\":\"x\"}"));
    iprof_writer_free(w);

    /* Growth from a tiny initial buffer. */
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.buffer_size = 1;
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &o));
    CHECK_OK(write_many(w, 2000));
    iprof_writer *m = mem_writer(0, NULL);
    CHECK_OK(write_many(m, 2000));
    const void *md;
    size_t ml;
    CHECK_OK(iprof_writer_buffer(w, &d, &l));
    CHECK_OK(iprof_writer_buffer(m, &md, &ml));
    CHECK_EQ_MEM(d, l, md, ml);
    /* still valid after a later failure */
    CHECK_EQ_INT(iprof_writer_end(w), IPROF_ESTATE);
    CHECK_OK(iprof_writer_buffer(w, &d, &l));
    CHECK_EQ_MEM(d, l, md, ml);
    iprof_writer_free(w);
    iprof_writer_free(m);
}

/* Raw bytes (a report) instead of a document: through the sink as they
 * are, committed by end; no document call after them, none before. */
static void test_raw_bytes(void)
{
    iprof_writer *w = mem_writer(0, NULL);
    const void *d;
    size_t l;
    CHECK_OK(iprof_writer_raw(w, NULL, 0));
    CHECK_OK(iprof_writer_raw(w, "a,b\n", 4));
    CHECK_OK(iprof_writer_raw(w, "1,2\n", 4));
    CHECK_EQ_INT(iprof_writer_begin(w, NULL), IPROF_ESTATE);
    CHECK_EQ_STR(err_info(iprof_writer_error(w)).message, "begin called after raw bytes");
    iprof_writer_free(w);

    w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_raw(w, "x", 1));
    CHECK_EQ_INT(iprof_writer_entry(w, IPROF_KIND_CALL_COUNT, (const int64_t[]){1, 0}, 1,
                                    (const int64_t[]){1}, 1), IPROF_ESTATE);
    iprof_writer_free(w);
    w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_raw(w, "x", 1));
    CHECK_EQ_INT(iprof_writer_unknown(w, "k", 1, "1", 1), IPROF_ESTATE);
    iprof_writer_free(w);
    w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_raw(w, "x", 1));
    CHECK_EQ_INT(iprof_writer_type(w, 1, "t", 1), IPROF_ESTATE);
    iprof_writer_free(w);

    w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_EQ_INT(iprof_writer_raw(w, "x", 1), IPROF_ESTATE);
    CHECK_EQ_STR(err_info(iprof_writer_error(w)).message, "raw bytes written after begin");
    iprof_writer_free(w);
    w = mem_writer(0, NULL);
    CHECK_EQ_INT(iprof_writer_raw(w, NULL, 1), IPROF_EINVAL);
    iprof_writer_free(w);
    CHECK_EQ_INT(iprof_writer_raw(NULL, "x", 1), IPROF_EINVAL);

    /* Through a small buffer, many times its size, to a callback. */
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.buffer_size = 7;
    char big[5000];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (char)('a' + i % 26);
    iprof_writer *m = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &o));
    CHECK_OK(iprof_writer_raw(w, big, sizeof big));
    CHECK_OK(iprof_writer_raw(m, big, sizeof big));
    CHECK_OK(iprof_writer_end(w));
    CHECK_OK(iprof_writer_end(m));
    CHECK_OK(iprof_writer_buffer(w, &d, &l));
    CHECK_EQ_MEM(d, l, big, sizeof big);
    CHECK_OK(iprof_writer_buffer(m, &d, &l));
    CHECK_EQ_MEM(d, l, big, sizeof big);
    CHECK_EQ_INT(iprof_writer_raw(m, "x", 1), IPROF_ESTATE);
    iprof_writer_free(w);
    iprof_writer_free(m);

    /* A path: nothing there until end; an empty report is an empty file;
     * a target that cannot be written fails at the first call. */
    char dir[] = "/tmp/iprof_test_raw_XXXXXX";
    CHECK(check_mkdtemp(dir) != NULL);
    char path[64], missing[80];
    snprintf(path, sizeof path, "%s/r.txt", dir);
    snprintf(missing, sizeof missing, "%s/no/r.txt", dir);
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(path), NULL));
    CHECK_OK(iprof_writer_raw(w, "report\n", 7));
    FILE *f = fopen(path, "rb");
    CHECK(f == NULL);
    CHECK_OK(iprof_writer_end(w));
    iprof_writer_free(w);
    char *text = check_read_file(path, &l);
    CHECK_EQ_MEM(text, l, "report\n", 7);
    free(text);
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(path), NULL));
    CHECK_OK(iprof_writer_raw(w, NULL, 0));
    CHECK_OK(iprof_writer_end(w));
    iprof_writer_free(w);
    text = check_read_file(path, &l);
    CHECK_EQ_INT(l, 0);
    free(text);
    remove(path);
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(missing), NULL));
    CHECK_EQ_INT(iprof_writer_raw(w, NULL, 0), IPROF_EIO);
    iprof_writer_free(w);
    CHECK_EQ_INT(rmdir(dir), 0);
}

typedef struct failing_alloc {
    long count;     /* allocations so far */
    long fail_at;   /* fail this allocation (0-based); -1: never */
    long failures;
    size_t live;    /* bytes outstanding */
    long live_blocks;
    int bad_size;   /* a free or realloc with a wrong size */
} failing_alloc;

/* Each block carries its size in a header to check the sizes passed back. */
#define HDR 16

static void *fa_malloc(size_t size, void *user)
{
    failing_alloc *fa = user;
    if (fa->count++ == fa->fail_at) {
        fa->failures++;
        return NULL;
    }
    char *p = malloc(size + HDR);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    fa->live += size;
    fa->live_blocks++;
    return p + HDR;
}

static void *fa_realloc(void *ptr, size_t old_size, size_t new_size, void *user)
{
    failing_alloc *fa = user;
    if (!ptr)
        return fa_malloc(new_size, user);
    char *base = (char *)ptr - HDR;
    size_t stored;
    memcpy(&stored, base, sizeof stored);
    if (stored != old_size)
        fa->bad_size = 1;
    if (fa->count++ == fa->fail_at) {
        fa->failures++;
        return NULL;
    }
    char *np = realloc(base, new_size + HDR);
    if (!np)
        return NULL;
    memcpy(np, &new_size, sizeof new_size);
    fa->live += new_size - stored;
    return np + HDR;
}

static void fa_free(void *ptr, size_t size, void *user)
{
    failing_alloc *fa = user;
    if (!ptr)
        return;
    char *base = (char *)ptr - HDR;
    size_t stored;
    memcpy(&stored, base, sizeof stored);
    if (stored != size)
        fa->bad_size = 1;
    fa->live -= stored;
    fa->live_blocks--;
    free(base);
}

static void test_allocation_failures(void)
{
    static const unsigned flag_sets[] = {0, IPROF_WRITE_PRETTY, IPROF_WRITE_NO_REFERENCES};
    for (size_t f = 0; f < sizeof flag_sets / sizeof flag_sets[0]; f++) {
        long n;
        int done = 0;
        for (n = 0; n < 100000 && !done; n++) {
            failing_alloc fa = {0, n, 0, 0, 0, 0};
            iprof_allocator a = {fa_malloc, fa_realloc, fa_free, &fa};
            iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
            o.allocator = &a;
            o.flags = flag_sets[f];
            o.buffer_size = 64;
            o.format_version = "1.0.0";
            iprof_writer *w = NULL;
            int rc = iprof_writer_new(&w, SINK_BUFFER, &o);
            if (rc == IPROF_OK) {
                rc = write_many(w, 300);
                if (rc == IPROF_OK) {
                    CHECK(fa.failures == 0);
                } else {
                    CHECK_EQ_INT(rc, IPROF_ENOMEM);
                    CHECK_EQ_INT(err_info(iprof_writer_error(w)).status, IPROF_ENOMEM);
                    CHECK_EQ_INT(iprof_writer_end(w), IPROF_ENOMEM);
                }
                iprof_writer_free(w);
            } else {
                CHECK_EQ_INT(rc, IPROF_ENOMEM);
                CHECK(w == NULL);
            }
            if (rc != IPROF_OK && rc != IPROF_ENOMEM)
                fprintf(stderr, "alloc failure %ld: status %d\n", n, rc);
            CHECK_EQ_INT(fa.live, 0);
            CHECK_EQ_INT(fa.live_blocks, 0);
            CHECK_EQ_INT(fa.bad_size, 0);
            if (fa.failures == 0)
                done = 1;
            else
                CHECK_EQ_INT(rc, IPROF_ENOMEM);
        }
        CHECK(done);
        CHECK(n > 5); /* the loop did reach several allocations */
    }

    /* Allocation failure in the other sinks' creation. */
    for (long n = 0; n < 10; n++) {
        failing_alloc fa = {0, n, 0, 0, 0, 0};
        iprof_allocator a = {fa_malloc, fa_realloc, fa_free, &fa};
        iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
        o.allocator = &a;
        o.format_version = "1.1.0";
        o.buffer_size = 64; /* elements larger than the buffer grow it */
        collect c = {0};
        iprof_writer *w = NULL;
        static char huge[10000];
        memset(huge, 'h', sizeof huge);
        int rc = iprof_writer_new(&w, SINK_CALLBACK(collect_fn, &c), &o);
        if (!rc) {
            rc = iprof_writer_begin(w, NULL);
            if (!rc)
                rc = iprof_writer_type(w, 1, huge, sizeof huge);
            if (!rc)
                rc = iprof_writer_end(w);
            iprof_writer_free(w);
        }
        CHECK(rc == IPROF_OK || rc == IPROF_ENOMEM);
        CHECK_EQ_INT(fa.live, 0);
        free(c.data);
        fa = (failing_alloc){0, n, 0, 0, 0, 0};
        rc = iprof_writer_new(&w, SINK_PATH("/tmp/iprof_test_writer_never_created"), &o);
        CHECK(rc == IPROF_OK || rc == IPROF_ENOMEM);
        iprof_writer_free(w);
        CHECK_EQ_INT(fa.live, 0);
    }
}

/* ------------------------------------------------------------------------ */
/* Whole model                                                              */

/* A model holding the small document (all kinds), version v. */
static iprof_model *small_model(const char *v, int with_instanceof)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, NULL));
    if (!m)
        return NULL;
    if (v)
        CHECK_OK(iprof_model_set_version(m, v));
    CHECK_OK(iprof_model_add_type(m, 0, "int", 3, NULL));
    CHECK_OK(iprof_model_add_type(m, 1, "boolean", 7, NULL));
    CHECK_OK(iprof_model_add_method(m, 1, "m", 1, sig_m, 2, NULL));
    /* Added in an order unlike any layout: the writer sorts by layout. */
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, f_samp, 2, r_samp, 1));
    if (with_instanceof)
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_INSTANCEOF, f_inst, 1, r_inst, 4));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_MONITOR, f_mon, 1, r_mon, 2));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f_cond, 2, r_cond, 6));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_VIRTUAL_INVOKE, f_vi, 1, r_vi, 2));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f_cc, 1, r_cc, 1));
    return m;
}

static void test_write_model(void)
{
    /* The model's version: the latest by default. */
    iprof_model *m = small_model(NULL, 1);
    iprof_writer *w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_write_model(w, m));
    CHECK_DOC(w, "{\"version\":\"1.1.0\"," T_TYPES "," T_METHODS "," T_CC "," T_COND "," T_VI
                 "," T_MON "," T_SAMP "," T_INST "}");
    /* Once per writer. */
    CHECK_EQ_INT(iprof_writer_write_model(w, m), IPROF_ESTATE);
    iprof_writer_free(w);

    /* options.format_version wins over the model's. */
    w = mem_writer(IPROF_WRITE_DROP_INSTANCEOF, "0.4.0");
    CHECK_OK(iprof_writer_write_model(w, m));
    CHECK_DOC(w, "{\"version\":\"0.4.0\"," T_TYPES "," T_METHODS "," T_MON "," T_VI "," T_CC
                 "," T_COND "," T_SAMP "}");
    iprof_writer_free(w);

    /* Instanceof entries that the version cannot hold. */
    w = mem_writer(0, "1.0.0");
    CHECK_EQ_INT(iprof_writer_write_model(w, m), IPROF_EVERSION);
    CHECK(strstr(err_info(iprof_writer_error(w)).message, "instanceOfProfiles") != NULL);
    iprof_writer_free(w);

    /* After begin: out of order. */
    w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_EQ_INT(iprof_writer_write_model(w, m), IPROF_ESTATE);
    iprof_writer_free(w);

    /* Pretty and strict. */
    iprof_writer *a = mem_writer(IPROF_WRITE_PRETTY | CHECKED, NULL);
    iprof_writer *b = mem_writer(IPROF_WRITE_PRETTY, NULL);
    CHECK_OK(iprof_writer_write_model(a, m));
    write_small(b, "1.1.0", order_1, 6);
    const void *da, *db;
    size_t la, lb;
    CHECK_OK(iprof_writer_buffer(a, &da, &la));
    CHECK_OK(iprof_writer_buffer(b, &db, &lb));
    CHECK_EQ_MEM(da, la, db, lb);
    iprof_writer_free(a);
    iprof_writer_free(b);
    iprof_model_free(m);

    /* The model's own version, 0.4.0 and 1.0.0 layouts. */
    m = small_model("0.4.0", 0);
    w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_write_model(w, m));
    CHECK_DOC(w, "{\"version\":\"0.4.0\"," T_TYPES "," T_METHODS "," T_MON "," T_VI "," T_CC
                 "," T_COND "," T_SAMP "}");
    iprof_writer_free(w);
    iprof_model_free(m);
    m = small_model("1.0.0", 0);
    w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_write_model(w, m));
    CHECK_DOC(w, "{\"version\":\"1.0.0\"," T_TYPES "," T_METHODS "," T_CC "," T_COND "," T_VI
                 "," T_MON "," T_SAMP "}");
    iprof_writer_free(w);
    iprof_model_free(m);

    /* An empty model; deep contexts (the scratch buffer grows). */
    CHECK_OK(iprof_model_new(&m, NULL));
    w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_write_model(w, m));
    CHECK_DOC(w, "{\"version\":\"1.1.0\",\"types\":[],\"methods\":[],\"callCountProfiles\":[],"
                 "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                 "\"monitorProfiles\":[],\"samplingProfiles\":[],\"instanceOfProfiles\":[]}");
    iprof_writer_free(w);
    CHECK_OK(iprof_model_add_type(m, 0, "int", 3, NULL));
    CHECK_OK(iprof_model_add_method(m, 1, "m", 1, sig_m, 2, NULL));
    int64_t deep[2 * 50];
    for (int depth = 1; depth <= 50; depth += 7) {
        for (int i = 0; i < depth; i++) {
            deep[2 * i] = 1;
            deep[2 * i + 1] = depth - i - 1;
        }
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, deep, (size_t)depth, r_samp, 1));
    }
    w = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_write_model(w, m));
    b = mem_writer(0, NULL);
    CHECK_OK(iprof_writer_begin(b, NULL));
    CHECK_OK(iprof_writer_type(b, 0, "int", 3));
    CHECK_OK(iprof_writer_method(b, 1, "m", 1, sig_m, 2));
    for (int depth = 1; depth <= 50; depth += 7) {
        for (int i = 0; i < depth; i++) {
            deep[2 * i] = 1;
            deep[2 * i + 1] = depth - i - 1;
        }
        CHECK_OK(iprof_writer_entry(b, IPROF_KIND_SAMPLING, deep, (size_t)depth, r_samp, 1));
    }
    CHECK_OK(iprof_writer_end(b));
    CHECK_OK(iprof_writer_buffer(w, &da, &la));
    CHECK_OK(iprof_writer_buffer(b, &db, &lb));
    CHECK_EQ_MEM(da, la, db, lb);
    iprof_writer_free(w);
    iprof_writer_free(b);
    iprof_model_free(m);
}

/* ------------------------------------------------------------------------ */
/* Round trips of the real files                                            */

typedef struct relay {
    iprof_writer *w;
    int rc;
} relay;

static int r_version(const char *v, size_t len, void *payload)
{
    relay *r = payload;
    char buf[64];
    snprintf(buf, sizeof buf, "%.*s", (int)len, v);
    return r->rc = iprof_writer_begin(r->w, buf);
}
static int r_type(int64_t id, const char *name, size_t len, void *payload)
{
    relay *r = payload;
    return r->rc = iprof_writer_type(r->w, id, name, len);
}
static int r_method(int64_t id, const char *name, size_t len, const int64_t *sig,
                    size_t sig_len, void *payload)
{
    relay *r = payload;
    return r->rc = iprof_writer_method(r->w, id, name, len, sig, sig_len);
}
static int r_entry(int kind, const int64_t *frames, size_t frame_count, const int64_t *records,
                   size_t record_count, void *payload)
{
    relay *r = payload;
    return r->rc = iprof_writer_entry(r->w, kind, frames, frame_count, records, record_count);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_corpus_roundtrip(void)
{
    const char *dir = check_corpus_dir();
    if (!dir)
        SKIP("corpus folder absent");
    static const char *const files[] = {
        "jsonata-cli-0.4.0.iprof",          "assorted-benchmarks-0.4.0.iprof",
        "elide-cli-types-only-0.4.0.iprof", "elide-serve-types-only-0.4.0.iprof",
        "elidemin-jspy-placeholders-1.0.0.iprof"};
    double bytes = 0, seconds = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        size_t len = 0;
        char *data = check_read_file(path, &len);
        if (!data) {
            fprintf(stderr, "cannot read %s\n", path);
            CHECK(0);
            continue;
        }
        iprof_reader *rd = NULL;
        CHECK_OK(iprof_reader_new(&rd, NULL));

        /* Streaming: reader callbacks straight into the writer. */
        relay r = {mem_writer(0, NULL), 0};
        iprof_read_callbacks cb = IPROF_READ_CALLBACKS_INIT;
        cb.on_version = r_version;
        cb.on_type = r_type;
        cb.on_method = r_method;
        cb.on_call_count = cb.on_conditional = cb.on_virtual_invoke = cb.on_monitor =
            cb.on_sampling = cb.on_instanceof = r_entry;
        CHECK_OK(iprof_reader_read(rd, SRC_BUFFER(data, len), &cb, &r));
        CHECK_OK(r.rc);
        CHECK_OK(iprof_writer_end(r.w));
        const void *d;
        size_t l;
        CHECK_OK(iprof_writer_buffer(r.w, &d, &l));
        if (l != len || memcmp(d, data, len))
            fprintf(stderr, "streaming round trip of %s differs\n", files[i]);
        CHECK_EQ_MEM(d, l, data, len);
        iprof_writer_free(r.w);

        /* Whole model. */
        iprof_model *m = NULL;
        CHECK_OK(iprof_model_load(&m, rd, SRC_BUFFER(data, len)));
        if (m) {
            iprof_writer *w = mem_writer(0, NULL);
            double t0 = now_seconds();
            CHECK_OK(iprof_writer_write_model(w, m));
            seconds += now_seconds() - t0;
            CHECK_OK(iprof_writer_buffer(w, &d, &l));
            bytes += (double)l;
            if (l != len || memcmp(d, data, len))
                fprintf(stderr, "model round trip of %s differs\n", files[i]);
            CHECK_EQ_MEM(d, l, data, len);
            iprof_writer_free(w);
            iprof_model_free(m);
        }
        iprof_reader_free(rd);
        free(data);
    }
    if (seconds > 0)
        fprintf(stderr, "write_model: %.1f MB in %.3f s = %.0f MB/s\n", bytes / 1e6, seconds,
                bytes / 1e6 / seconds);
}

/* The default checks refuse a signature a strict read would refuse. */
static void test_strict_short_signature(void)
{
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &o));
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_type(w, 1, "T", 1));
    static const int64_t one[] = {1};
    CHECK_EQ_INT(iprof_writer_method(w, 2, "m", 1, one, 1), IPROF_ESCHEMA);
    CHECK_EQ_STR(err_info(iprof_writer_error(w)).message,
                 "methods[0]: signature must hold the declaring and return type ids");
    iprof_writer_free(w);
    /* Without the flag too: the default refuses what a strict read
     * refuses. A lenient model's copy is written with NO_VALIDATE (or
     * NO_REFERENCES, which keeps only the entry rules). */
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, NULL));
    CHECK_OK(iprof_writer_begin(w, "1.0.0"));
    CHECK_OK(iprof_writer_type(w, 1, "T", 1));
    CHECK_EQ_INT(iprof_writer_method(w, 2, "m", 1, one, 1), IPROF_ESCHEMA);
    iprof_writer_free(w);
    static const unsigned lax[] = {IPROF_WRITE_NO_VALIDATE, IPROF_WRITE_NO_REFERENCES};
    for (size_t i = 0; i < 2; i++) {
        o.flags = lax[i];
        CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &o));
        CHECK_OK(iprof_writer_begin(w, "1.0.0"));
        CHECK_OK(iprof_writer_type(w, 1, "T", 1));
        CHECK_OK(iprof_writer_method(w, 2, "m", 1, one, 1));
        iprof_writer_free(w);
    }
}

/* The default writer refuses what a strict read refuses, streaming and
 * from a model (checked on the model's own id tables, same messages). */
static void test_default_checks_references(void)
{
    static const char *const docs[][2] = {
        {"{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"},{\"id\":0,\"name\":\"U\"}],"
         "\"methods\":[]}", "types[1]: duplicate type id 0"},
        {"{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
         "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0]}]}",
         "methods[0]: signature must hold the declaring and return type ids"},
        {"{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
         "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,3]}]}",
         "methods[0]: signature type id 3 (signature[1]) was not written"},
        {"{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
         "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
         "\"samplingProfiles\":[{\"ctx\":\"1:3<8:1\",\"records\":[1]}]}",
         "samplingProfiles[0].ctx: method id 8 (frame 1) was not written"},
        {"{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
         "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
         "\"virtualInvokeProfiles\":[{\"ctx\":\"1:3\",\"records\":[0,1,9,1]}]}",
         "virtualInvokeProfiles[0].records: type id 9 (records[2]) was not written"},
    };
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    /* A clean load vouches for its references (no check pass) until an
     * edit may break them: removing a method its entries still name. */
    static const char clean[] = "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
                                "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
                                "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[1]}]}";
    iprof_model *cm = NULL;
    CHECK_OK(iprof_model_load(&cm, r, SRC_BUFFER(clean, strlen(clean))));
    iprof_writer *cw = NULL;
    CHECK_OK(iprof_writer_new(&cw, SINK_BUFFER, NULL));
    CHECK_OK(iprof_writer_write_model(cw, cm));
    iprof_writer_free(cw);
    CHECK_OK(iprof_model_remove_method(cm, 1, 0));
    CHECK_OK(iprof_writer_new(&cw, SINK_BUFFER, NULL));
    CHECK_EQ_INT(iprof_writer_write_model(cw, cm), IPROF_EDANGLING);
    CHECK_EQ_STR(err_info(iprof_writer_error(cw)).message,
                 "callCountProfiles[0].ctx: method id 1 (frame 0) was not written");
    iprof_writer_free(cw);
    iprof_model_free(cm);
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        iprof_model *m = NULL;
        CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(docs[i][0], strlen(docs[i][0]))));
        iprof_writer *w = NULL;
        CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, NULL));
        CHECK(iprof_writer_write_model(w, m) != IPROF_OK);
        CHECK_EQ_STR(err_info(iprof_writer_error(w)).message, docs[i][1]);
        iprof_writer_free(w);
        iprof_model_free(m);
    }
    iprof_reader_free(r);
}

/* iprof_writer_unknown: the key right where the document is, the open
 * section closed first; earlier sections can no longer be written. */
static void test_unknown_keys(void)
{
    iprof_writer *w = mem_writer(0, "1.0.0");
    CHECK_EQ_INT(iprof_writer_unknown(w, "a", 1, "1", 1), IPROF_ESTATE); /* before begin */
    iprof_writer_free(w);

    w = mem_writer(0, "1.0.0");
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_OK(iprof_writer_unknown(w, "a", 1, "{\"b\": [1, 2.5]}", 15));
    CHECK_OK(iprof_writer_type(w, 0, "int", 3));
    CHECK_OK(iprof_writer_unknown(w, "c\n", 2, "[]", 2));
    CHECK_EQ_INT(iprof_writer_type(w, 1, "A", 1), IPROF_ESTATE);
    iprof_writer_free(w);

    w = mem_writer(0, "1.0.0");
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_OK(iprof_writer_type(w, 0, "int", 3));
    CHECK_OK(iprof_writer_unknown(w, "c", 1, "[]", 2));
    CHECK_OK(iprof_writer_method(w, 1, "m", 1, sig_m, 2));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_VIRTUAL_INVOKE, f_vi, 1, r_vi, 2));
    CHECK_OK(iprof_writer_unknown(w, "d", 1, "null", 4));
    CHECK_OK(iprof_writer_unknown(w, "e", 1, "\"x\"", 3));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"}],\"c\":[],"
                 "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
                 "\"callCountProfiles\":[],\"conditionalProfiles\":[],"
                 "\"virtualInvokeProfiles\":[{\"ctx\":\"1:3\",\"records\":[0,7]}],\"d\":null,"
                 "\"e\":\"x\",\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    iprof_writer_free(w);

    /* An entry of the section an unknown key closed, or of an earlier one. */
    w = mem_writer(0, "1.0.0");
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_CONDITIONAL, f_cond, 2, r_cond, 6));
    CHECK_OK(iprof_writer_unknown(w, "x", 1, "1", 1));
    CHECK_EQ_INT(iprof_writer_entry(w, IPROF_KIND_CONDITIONAL, f_cond, 2, r_cond, 6),
                 IPROF_ESTATE);
    CHECK_EQ_STR(err_info(iprof_writer_error(w)).message,
                 "conditionalProfiles entry after an unknown key: version 1.0.0 writes them before");
    iprof_writer_free(w);

    /* Keys the library writes itself, values that are not one JSON value. */
    static const char *const known[] = {"version", "types", "methods", "callCountProfiles",
                                        "instanceofProfiles", "instanceOfProfiles"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        w = mem_writer(0, "1.1.0");
        CHECK_OK(iprof_writer_begin(w, NULL));
        CHECK_EQ_INT(iprof_writer_unknown(w, known[i], strlen(known[i]), "[]", 2), IPROF_EINVAL);
        iprof_writer_free(w);
    }
    static const char *const bad[] = {"", "[", "1 2", "{\"a\"}", "tru"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        w = mem_writer(0, "1.1.0");
        CHECK_OK(iprof_writer_begin(w, NULL));
        CHECK_EQ_INT(iprof_writer_unknown(w, "k", 1, bad[i], strlen(bad[i])), IPROF_ESYNTAX);
        CHECK_EQ_STR(err_info(iprof_writer_error(w)).message,
                     "the value of \"k\" is not one JSON value");
        iprof_writer_free(w);
    }
    CHECK_EQ_INT(iprof_writer_unknown(NULL, "k", 1, "1", 1), IPROF_EINVAL);

    /* Pretty, and the instanceof key chosen by the options. */
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.flags = IPROF_WRITE_PRETTY | IPROF_WRITE_NO_REFERENCES;
    o.instanceof_key = IPROF_INSTANCEOF_KEY_LOWER;
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &o));
    CHECK_OK(iprof_writer_begin(w, "1.1.0"));
    CHECK_OK(iprof_writer_entry(w, IPROF_KIND_SAMPLING, f_samp, 2, r_samp, 1));
    CHECK_OK(iprof_writer_unknown(w, "k", 1, "[1]", 3));
    CHECK_OK(iprof_writer_end(w));
    CHECK_DOC(w, "{\n  \"version\": \"1.1.0\",\n  \"types\": [],\n  \"methods\": [],\n"
                 "  \"callCountProfiles\": [],\n  \"conditionalProfiles\": [],\n"
                 "  \"virtualInvokeProfiles\": [],\n  \"monitorProfiles\": [],\n"
                 "  \"samplingProfiles\": [\n    {\"ctx\": \"1:5<1:-1\", \"records\": [3]}\n  ],\n"
                 "  \"k\": [1],\n  \"instanceofProfiles\": []\n}\n");
    iprof_writer_free(w);
}

int main(void)
{
    RUN(test_default_checks_references);
    RUN(test_unknown_keys);
    RUN(test_strict_short_signature);
    RUN(test_empty_documents);
    RUN(test_brief_example);
    RUN(test_legacy_layout);
    RUN(test_small_documents);
    RUN(test_pretty);
    RUN(test_versions);
    RUN(test_escapes);
    RUN(test_escapes_random);
    RUN(test_names_must_be_utf8);
    RUN(test_int64_extremes);
    RUN(test_section_skipping);
    RUN(test_order_violations);
    RUN(test_rules);
    RUN(test_instanceof);
    RUN(test_strict);
    RUN(test_invalid_arguments);
    RUN(test_callback_sink);
    RUN(test_fd_sink);
    RUN(test_huge_elements);
    RUN(test_memory_sink);
    RUN(test_raw_bytes);
    RUN(test_allocation_failures);
    RUN(test_write_model);
    RUN(test_corpus_roundtrip);
    return check_done();
}
