/* Unit tests of what a model keeps beyond the profile (lib/model/model_unknown.c):
 * unknown top-level keys with their place, the spelling of the instanceof
 * key, and how writes, merges and the canonical form treat them. */
#include "check.h"
#include "check_api.h"
#include "check_alloc.h"

#include <iprof/edit.h>
#include <iprof/iprof.h>
#include <iprof/stream.h>
#include <iprof/transform.h>

/* GraalVM 25's layout of 1.1.0 with two unknown keys holding ids. */
#define HEAD                                                                                \
    "{\"version\":\"1.1.0\",\"types\":[{\"id\":0,\"name\":\"int\"},{\"id\":1,\"name\":\"A\"}]," \
    "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[1,0]}],"                          \
    "\"callCountProfiles\":[{\"ctx\":\"1:0<1:-6\",\"records\":[3]}],"                       \
    "\"conditionalProfiles\":[{\"ctx\":\"1:2\",\"records\":[4,0,1,4,-5,0]}]"
#define TAIL                                                                                \
    ",\"monitorProfiles\":[],"                                                              \
    "\"samplingProfiles\":[{\"ctx\":\"1:1\",\"records\":[2]},{\"ctx\":\"1:1\",\"records\":[5]}]," \
    "\"instanceOfProfiles\":[{\"ctx\":\"1:3\",\"records\":[1,7]}]}"
#define CE "\"ceConditionalProfilesV2\":[{\"ctx\":\"1:2\",\"records\":[4,0,1]}]"
#define VIM "\"virtualInvokeMethodProfiles\":[{\"ctx\":\"1:5\",\"records\":[1,2]}]"

static const char doc_unknown[] = HEAD "," CE ",\"virtualInvokeProfiles\":[]," VIM TAIL;
static const char doc_plain[] = HEAD ",\"virtualInvokeProfiles\":[],\"x\":[]" TAIL;

static iprof_model *load_flags(const char *doc, unsigned flags)
{
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.flags = flags;
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(doc, strlen(doc))));
    iprof_reader_free(r);
    return m;
}

static iprof_model *load(const char *doc)
{
    return load_flags(doc, 0);
}

/* The model written with a target version (NULL: its own) and spelling. */
static char *write_as(const iprof_model *m, const char *version, int iof_key, unsigned flags)
{
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.format_version = version;
    o.instanceof_key = iof_key;
    o.flags = flags;
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &o));
    char *out = NULL;
    if (iprof_writer_write_model(w, m) == IPROF_OK) {
        const void *data;
        size_t len;
        CHECK_OK(iprof_writer_buffer(w, &data, &len));
        out = malloc(len + 1);
        memcpy(out, data, len);
        out[len] = '\0';
    }
    iprof_writer_free(w);
    return out;
}

static char *write_model(const iprof_model *m)
{
    return write_as(m, NULL, IPROF_INSTANCEOF_KEY_AUTO, 0);
}

static void check_unknown(const iprof_model *m, size_t i, const char *key, const char *json)
{
    const char *k = NULL, *j = NULL;
    size_t kl = 0, jl = 0;
    CHECK_OK(iprof_model_unknown_at(m, i, &k, &kl, &j, &jl));
    if (!k || !j)
        return;
    CHECK_EQ_STR(k, key);
    CHECK_EQ_INT(kl, strlen(key));
    CHECK_EQ_STR(j, json);
    CHECK_EQ_INT(jl, strlen(json));
}

static void test_round_trip(void)
{
    unsigned flags[] = {0, IPROF_READ_THREADED, IPROF_READ_STRICT};
    for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++) {
        iprof_model *m = load_flags(doc_unknown, flags[f]);
        CHECK_EQ_INT(iprof_model_unknown_count(m), 2);
        check_unknown(m, 0, "ceConditionalProfilesV2", "[{\"ctx\":\"1:2\",\"records\":[4,0,1]}]");
        check_unknown(m, 1, "virtualInvokeMethodProfiles",
                      "[{\"ctx\":\"1:5\",\"records\":[1,2]}]");
        CHECK_EQ_INT(iprof_model_instanceof_key(m), IPROF_INSTANCEOF_KEY_CAMEL);
        CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_INSTANCEOF), 1);
        CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_SAMPLING), 2); /* repeated ctx kept */
        char *out = write_model(m);
        CHECK_EQ_STR(out, doc_unknown);
        free(out);
        iprof_model_free(m);
    }
    const char *k, *j;
    iprof_model *m = load(doc_plain);
    CHECK_EQ_INT(iprof_model_unknown_at(m, 1, &k, NULL, &j, NULL), IPROF_ENOTFOUND);
    CHECK_EQ_INT(iprof_model_unknown_at(m, 0, NULL, NULL, &j, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_unknown_count(NULL), 0);
    iprof_model_free(m);
}

/* Either spelling reads as the instanceof kind and is written back as
 * read; the write option converts; a new model gets GraalVM's. */
static void test_spellings(void)
{
    static const char lower[] = HEAD ",\"virtualInvokeProfiles\":[]" TAIL;
    char camel[sizeof lower];
    memcpy(camel, lower, sizeof lower);
    char *at = strstr(camel, "instanceOfProfiles");
    CHECK(at != NULL);
    char doc_lower[sizeof lower];
    memcpy(doc_lower, lower, sizeof lower);
    doc_lower[at - camel + 8] = 'o';

    iprof_model *m = load(doc_lower);
    CHECK_EQ_INT(iprof_model_instanceof_key(m), IPROF_INSTANCEOF_KEY_LOWER);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_INSTANCEOF), 1);
    char *out = write_model(m);
    CHECK_EQ_STR(out, doc_lower);
    free(out);
    out = write_as(m, NULL, IPROF_INSTANCEOF_KEY_CAMEL, 0);
    CHECK_EQ_STR(out, camel);
    free(out);
    CHECK_OK(iprof_model_set_instanceof_key(m, IPROF_INSTANCEOF_KEY_CAMEL));
    out = write_model(m);
    CHECK_EQ_STR(out, camel);
    free(out);
    CHECK_EQ_INT(iprof_model_set_instanceof_key(m, 3), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_set_instanceof_key(NULL, 1), IPROF_EINVAL);
    iprof_model_free(m);

    m = load(camel);
    out = write_as(m, NULL, IPROF_INSTANCEOF_KEY_LOWER, 0);
    CHECK_EQ_STR(out, doc_lower);
    free(out);
    iprof_model_free(m);

    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_EQ_INT(iprof_model_instanceof_key(m), IPROF_INSTANCEOF_KEY_AUTO);
    out = write_model(m);
    CHECK_EQ_STR(out, "{\"version\":\"1.1.0\",\"types\":[],\"methods\":[],\"callCountProfiles\":[],"
                      "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
                      "\"samplingProfiles\":[],\"instanceOfProfiles\":[]}");
    free(out);
    iprof_model_free(m);

    CHECK_EQ_STR(IPROF_INSTANCEOF_KEY_LOWER_NAME, "instanceofProfiles");
    CHECK_EQ_STR(IPROF_INSTANCEOF_KEY_CAMEL_NAME, "instanceOfProfiles");

    /* Writer options: an unknown spelling is refused; version 1 structs
     * have no such field. */
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    iprof_writer *w = NULL;
    o.instanceof_key = 7;
    CHECK_EQ_INT(iprof_writer_new(&w, SINK_BUFFER, &o), IPROF_EINVAL);
    CHECK(w == NULL);
}

/* Keys keep their place when the version changes; a key that followed a
 * section the target lacks goes last. */
static void test_versions(void)
{
    static const char doc[] = HEAD ",\"virtualInvokeProfiles\":[]" TAIL;
    char with_last[sizeof doc + 32];
    snprintf(with_last, sizeof with_last, "%.*s,\"z\":1}", (int)(sizeof doc - 2), doc);
    iprof_model *m = load(with_last);
    char *out = write_as(m, "1.0.0", 0, IPROF_WRITE_DROP_INSTANCEOF);
    CHECK(out && strstr(out, "\"samplingProfiles\":[{\"ctx\":\"1:1\",\"records\":[2]},"
                             "{\"ctx\":\"1:1\",\"records\":[5]}],\"z\":1}") != NULL);
    free(out);
    iprof_model_free(m);

    m = load(doc_unknown);
    out = write_as(m, "0.4.0", 0, IPROF_WRITE_DROP_INSTANCEOF);
    CHECK(out && strstr(out, "\"virtualInvokeProfiles\":[]," VIM ",\"callCountProfiles\"") != NULL);
    CHECK(out && strstr(out, "\"conditionalProfiles\":[{\"ctx\":\"1:2\",\"records\":[4,0,1,4,-5,0]}]," CE
                             ",\"samplingProfiles\"") != NULL);
    free(out);
    iprof_model_free(m);

    /* Before "version": written right after it. */
    m = load("{\"x\":{},\"version\":\"1.0.0\",\"types\":[],\"methods\":[]}");
    out = write_model(m);
    CHECK_EQ_STR(out, "{\"version\":\"1.0.0\",\"x\":{},\"types\":[],\"methods\":[],"
                      "\"callCountProfiles\":[],\"conditionalProfiles\":[],"
                      "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    free(out);
    out = write_as(m, NULL, 0, IPROF_WRITE_PRETTY);
    CHECK_EQ_STR(out, "{\n  \"version\": \"1.0.0\",\n  \"x\": {},\n  \"types\": [],\n"
                      "  \"methods\": [],\n  \"callCountProfiles\": [],\n"
                      "  \"conditionalProfiles\": [],\n  \"virtualInvokeProfiles\": [],\n"
                      "  \"monitorProfiles\": [],\n  \"samplingProfiles\": []\n}\n");
    free(out);
    iprof_model_free(m);
}

static void test_add_remove(void)
{
    iprof_model *m;
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_EQ_INT(iprof_model_add_unknown(m, "types", 5, "[]", 2), IPROF_EINVAL);
    CHECK_EQ_STR(err_info(iprof_model_error(m)).message,
                 "\"types\" is a key the library interprets, not an unknown one");
    /* Keys are counted, not NUL-terminated: messages show key_len bytes. */
    static const char unterminated[5] = {'t', 'y', 'p', 'e', 's'};
    CHECK_EQ_INT(iprof_model_add_unknown(m, unterminated, 5, "[]", 2), IPROF_EINVAL);
    CHECK_EQ_STR(err_info(iprof_model_error(m)).message,
                 "\"types\" is a key the library interprets, not an unknown one");
    CHECK_EQ_INT(iprof_model_add_unknown(m, "instanceOfProfiles", 18, "[]", 2), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_add_unknown(m, "instanceofProfiles", 18, "[]", 2), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_add_unknown(m, "k", 1, "[1,", 3), IPROF_ESYNTAX);
    CHECK_EQ_STR(err_info(iprof_model_error(m)).message,
                 "the value of \"k\" is not one JSON value");
    CHECK_EQ_INT(iprof_model_add_unknown(m, "k", 1, "1 2", 3), IPROF_ESYNTAX);
    CHECK_EQ_INT(iprof_model_add_unknown(m, "k", 1, " ", 1), IPROF_ESYNTAX);
    CHECK_EQ_INT(iprof_model_add_unknown(m, NULL, 1, "1", 1), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_unknown_count(m), 0);
    CHECK_OK(iprof_model_add_unknown(m, "k\"q", 3, " {\"a\":[1.5e3]} ", 15));
    CHECK(iprof_model_error(m) == NULL);
    CHECK_OK(iprof_model_add_unknown(m, "z", 1, "null", 4));
    char *out = write_as(m, "1.0.0", 0, 0);
    CHECK_EQ_STR(out, "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"callCountProfiles\":[],"
                      "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                      "\"monitorProfiles\":[],\"samplingProfiles\":[],"
                      "\"k\\\"q\": {\"a\":[1.5e3]} ,\"z\":null}");
    free(out);
    CHECK_OK(iprof_model_remove_unknown(m, "k\"q", 3));
    CHECK_EQ_INT(iprof_model_remove_unknown(m, "k\"q", 3), IPROF_ENOTFOUND);
    CHECK_EQ_INT(iprof_model_unknown_count(m), 1);
    /* No key: every key goes, and never IPROF_ENOTFOUND. */
    CHECK_OK(iprof_model_remove_unknown(m, NULL, 0));
    CHECK_EQ_INT(iprof_model_unknown_count(m), 0);
    CHECK_OK(iprof_model_remove_unknown(m, NULL, 0));
    CHECK_EQ_INT(iprof_model_remove_unknown(NULL, NULL, 0), IPROF_EINVAL);
    iprof_model_free(m);
}

/* Merges refuse keys that may hold ids, name them, change nothing; with
 * the flag they drop them; plain values combine. */
static void test_merge(void)
{
    iprof_model *dst, *src = load(doc_unknown);
    CHECK_OK(iprof_model_new(&dst, NULL));
    CHECK_EQ_INT(merge_weighted(dst, src, 1.0), IPROF_ESCHEMA);
    CHECK_EQ_STR(err_info(iprof_model_error(dst)).message,
                 "unknown key \"ceConditionalProfilesV2\" of the model merged from holds data "
                 "whose ids cannot be renumbered or combined");
    CHECK_EQ_INT(iprof_model_type_count(dst), 0);
    CHECK_EQ_INT(iprof_model_instanceof_key(dst), IPROF_INSTANCEOF_KEY_AUTO);

    iprof_merge_options o = IPROF_MERGE_OPTIONS_INIT;
    o.flags = IPROF_MERGE_DROP_UNKNOWN;
    CHECK_OK(iprof_model_merge(dst, src, &o));
    CHECK(iprof_model_error(dst) == NULL);
    CHECK_EQ_INT(iprof_model_unknown_count(dst), 0);
    CHECK_EQ_INT(iprof_model_type_count(dst), 2);
    CHECK_EQ_INT(iprof_model_instanceof_key(dst), IPROF_INSTANCEOF_KEY_CAMEL);
    /* dst's own non-plain keys refuse a merge too. */
    iprof_model *empty;
    CHECK_OK(iprof_model_new(&empty, NULL));
    CHECK_EQ_INT(merge_weighted(src, empty, 1.0), IPROF_ESCHEMA);
    CHECK_EQ_STR(err_info(iprof_model_error(src)).message,
                 "unknown key \"ceConditionalProfilesV2\" of the model merged into holds data "
                 "whose ids cannot be renumbered or combined");
    iprof_model_free(dst);

    /* Plain keys: taken when absent, kept when equal, refused when not. */
    CHECK_OK(iprof_model_new(&dst, NULL));
    iprof_model *plain = load(doc_plain);
    CHECK_OK(merge_weighted(dst, plain, 2.0));
    CHECK_OK(merge_weighted(dst, plain, 1.0));
    CHECK_EQ_INT(iprof_model_unknown_count(dst), 1);
    check_unknown(dst, 0, "x", "[]");
    CHECK_OK(iprof_model_add_unknown(empty, "x", 1, "1", 1));
    CHECK_EQ_INT(merge_weighted(dst, empty, 1.0), IPROF_ESCHEMA);
    CHECK_EQ_STR(err_info(iprof_model_error(dst)).message,
                 "unknown key \"x\" has different values in the two models");
    CHECK_OK(iprof_model_remove_unknown(empty, "x", 1));

    /* Spellings: the first one met, GraalVM's when inputs disagree. */
    CHECK_OK(iprof_model_set_instanceof_key(empty, IPROF_INSTANCEOF_KEY_LOWER));
    CHECK_OK(merge_weighted(dst, empty, 1.0));
    CHECK_EQ_INT(iprof_model_instanceof_key(dst), IPROF_INSTANCEOF_KEY_CAMEL);
    iprof_model *lower;
    CHECK_OK(iprof_model_new(&lower, NULL));
    CHECK_OK(merge_weighted(lower, empty, 1.0));
    CHECK_EQ_INT(iprof_model_instanceof_key(lower), IPROF_INSTANCEOF_KEY_LOWER);
    iprof_model_free(lower);

    /* Arguments. */
    o = (iprof_merge_options)IPROF_MERGE_OPTIONS_INIT;
    o.weight = -1;
    CHECK_EQ_INT(iprof_model_merge(dst, plain, &o), IPROF_EINVAL);
    CHECK_EQ_STR(err_info(iprof_model_error(dst)).message, "weight -1: must be finite and >= 0");
    o.weight = 1;
    o.flags = 0x10;
    CHECK_EQ_INT(iprof_model_merge(dst, plain, &o), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_merge(NULL, plain, NULL), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_merge(dst, dst, &o), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_merge_options_init(&o, 0), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_merge_options_init(&o, 2), IPROF_EINVAL);
    CHECK_OK(iprof_merge_options_init(&o, IPROF_MERGE_OPTIONS_VERSION));
    CHECK(o.weight == 1.0 && o.flags == 0);
    iprof_model_free(plain);
    iprof_model_free(empty);

    /* A merge that drops dst's keys and then fails keeps them: the drop
     * comes last. Here no id above INT64_MAX is free for a new type. */
    iprof_model_free(dst);
    dst = load(doc_unknown);
    size_t keys = iprof_model_unknown_count(dst);
    CHECK(keys > 0);
    CHECK_OK(iprof_model_add_type(dst, INT64_MAX, "Zzz", 3, NULL));
    iprof_model *fresh;
    CHECK_OK(iprof_model_new(&fresh, NULL));
    CHECK_OK(iprof_model_add_type(fresh, 0, "brand.New", 9, NULL));
    o = (iprof_merge_options)IPROF_MERGE_OPTIONS_INIT;
    o.flags = IPROF_MERGE_DROP_UNKNOWN;
    CHECK_EQ_INT(iprof_model_merge(dst, fresh, &o), IPROF_ELIMIT);
    CHECK_EQ_INT(iprof_model_unknown_count(dst), keys);
    CHECK_EQ_STR(err_info(iprof_model_error(dst)).message,
                 "type \"brand.New\" (id 0 of the source): that id is taken and none above "
                 "9223372036854775807 is free in the model merged into");
    CHECK_EQ_INT(err_info(iprof_model_error(dst)).has_type_id, 1);
    CHECK_EQ_INT(err_info(iprof_model_error(dst)).type_id, 0);
    iprof_model_free(fresh);
    iprof_model_free(src);
    iprof_model_free(dst);
}

/* IPROF_WRITE_CANONICAL fails where canonicalizing fails, and writes
 * plain keys where the canonical form has them. */
static void test_canonical_write(void)
{
    iprof_model *m = load(doc_unknown);
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.flags = IPROF_WRITE_CANONICAL;
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &o));
    CHECK_EQ_INT(iprof_writer_write_model(w, m), IPROF_ESCHEMA);
    CHECK_EQ_STR(err_info(iprof_writer_error(w)).message,
                 "unknown key \"ceConditionalProfilesV2\" of the model holds data whose ids "
                 "cannot be renumbered or combined");
    iprof_writer_free(w);
    CHECK(iprof_model_error(m) == NULL); /* the model is only read */
    iprof_model_free(m);
    m = load("{\"z\":\"s\",\"version\":\"1.0.0\",\"types\":[],\"b\":[ ],\"methods\":[],\"z\":\"s\"}");
    char *out = write_as(m, NULL, IPROF_INSTANCEOF_KEY_AUTO, IPROF_WRITE_CANONICAL);
    CHECK_EQ_STR(out, "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"callCountProfiles\":[],"
                      "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                      "\"monitorProfiles\":[],\"samplingProfiles\":[],\"b\":[ ],\"z\":\"s\"}");
    free(out);
    CHECK_EQ_INT(iprof_model_unknown_count(m), 3); /* unchanged */
    iprof_model_free(m);
}

static void test_canonicalize(void)
{
    iprof_model *m = load(doc_unknown);
    CHECK_EQ_INT(iprof_model_canonicalize(m, 0), IPROF_ESCHEMA);
    CHECK_EQ_STR(err_info(iprof_model_error(m)).message,
                 "unknown key \"ceConditionalProfilesV2\" of the model holds data whose ids "
                 "cannot be renumbered or combined");
    char *out = write_model(m);
    CHECK_EQ_STR(out, doc_unknown); /* unchanged */
    free(out);
    CHECK_EQ_INT(iprof_model_canonicalize(m, 4), IPROF_EINVAL);
    CHECK_OK(iprof_model_canonicalize(m, IPROF_CANONICAL_DROP_UNKNOWN));
    CHECK(iprof_model_error(m) == NULL);
    CHECK_EQ_INT(iprof_model_unknown_count(m), 0);
    CHECK_EQ_INT(iprof_model_instanceof_key(m), IPROF_INSTANCEOF_KEY_CAMEL);
    iprof_model_free(m);

    /* Plain keys: sorted, last, one per key. */
    m = load("{\"z\":\"s\",\"version\":\"1.0.0\",\"types\":[],\"b\":[ ],\"methods\":[],\"z\":\"s\"}");
    CHECK_OK(iprof_model_canonicalize(m, 0));
    out = write_model(m);
    CHECK_EQ_STR(out, "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"callCountProfiles\":[],"
                      "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                      "\"monitorProfiles\":[],\"samplingProfiles\":[],\"b\":[ ],\"z\":\"s\"}");
    free(out);
    iprof_model_free(m);
    m = load("{\"z\":1,\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"z\":2}");
    CHECK_EQ_INT(iprof_model_canonicalize(m, 0), IPROF_ESCHEMA);
    CHECK_EQ_STR(err_info(iprof_model_error(m)).message,
                 "unknown key \"z\" of the model occurs twice with different values");
    iprof_model_free(m);
}

/* Loads and merges under allocation failure: every failure is clean. */
static void test_alloc_failure(void)
{
    int done = 0;
    for (long n = 1; n < 400 && !done; n++) {
        fail_alloc f = {.fail_at = n};
        iprof_allocator a = fail_hook(&f);
        iprof_read_options o = IPROF_READ_OPTIONS_INIT;
        o.allocator = &a;
        iprof_reader *r = NULL;
        iprof_model *m = NULL, *dst = NULL;
        if (iprof_reader_new(&r, &o) == IPROF_OK &&
            iprof_model_load(&m, r, SRC_BUFFER(doc_plain, strlen(doc_plain))) == IPROF_OK &&
            iprof_model_new(&dst, &a) == IPROF_OK && merge_weighted(dst, m, 1.0) == IPROF_OK &&
            iprof_model_add_unknown(dst, "y", 1, "[]", 2) == IPROF_OK) {
            done = 1;
            CHECK_EQ_INT(iprof_model_unknown_count(dst), 2);
        }
        iprof_model_free(dst);
        iprof_model_free(m);
        iprof_reader_free(r);
        CHECK_EQ_INT(f.live_blocks, 0);
    }
    CHECK(done);
}

/* Keys of elements are not read (the reader warns): the model counts the
 * elements that had them, over loads and merges, and a write refuses to
 * lose them unless told to drop them, before any byte. */
#define DOC_UNREAD                                                                          \
    "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"},{\"id\":1,\"name\":\"A\","  \
    "\"x\\u0041\":[1]}],\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[1,0],\"k\":2}]," \
    "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[3],\"note\":\"n\"}],"             \
    "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"       \
    "\"samplingProfiles\":[]}"

/* A source giving 3 bytes a call, so that elements restart. */
typedef struct trickle {
    const char *doc;
    size_t at;
} trickle;

static int trickle_read(void *buf, size_t cap, size_t *len, void *payload)
{
    trickle *t = payload;
    size_t n = strlen(t->doc + t->at);
    *len = n < 3 ? n : 3;
    *len = *len < cap ? *len : cap;
    memcpy(buf, t->doc + t->at, *len);
    t->at += *len;
    return 0;
}

/* A count and its first place (at, "unset" if not set) are as wanted. */
static void check_count_at(size_t got, const char *at, size_t want, const char *first)
{
    CHECK_EQ_INT(got, want);
    if (first)
        CHECK_EQ_STR(at ? at : "(null)", first);
    else
        CHECK(at == NULL);
}

static void check_unread(const iprof_model *m, size_t want, const char *first)
{
    const char *at = "unset";
    size_t got = iprof_model_unread_count(m, &at);
    check_count_at(got, at, want, first);
}

static void test_unread_element_keys(void)
{
    static const char doc[] = DOC_UNREAD;
    static const char first[] = "types[1], key \"x\\u0041\"";
    iprof_model *m = load(doc), *plain = load(doc_plain);
    check_unread(m, 3, first);
    check_unread(plain, 0, NULL);
    CHECK_EQ_INT(iprof_model_unread_count(NULL, NULL), 0);

    /* A write refuses, before any byte, naming the first. */
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, NULL));
    CHECK_EQ_INT(iprof_writer_write_model(w, m), IPROF_ESCHEMA);
    CHECK_EQ_STR(err_info(iprof_writer_error(w)).message,
                 "3 elements of the model's input held keys it does not keep (the first: "
                 "types[1], key \"x\\u0041\"); writing would lose them "
                 "(IPROF_WRITE_DROP_UNKNOWN writes without them)");
    const void *data = NULL;
    size_t len = 1;
    CHECK_OK(iprof_writer_buffer(w, &data, &len));
    CHECK_EQ_INT(len, 0);
    iprof_writer_free(w);
    /* A misuse of the writer is said first. */
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, NULL));
    CHECK_OK(iprof_writer_begin(w, NULL));
    CHECK_EQ_INT(iprof_writer_write_model(w, m), IPROF_ESTATE);
    CHECK_EQ_STR(err_info(iprof_writer_error(w)).message, "write_model called after begin");
    iprof_writer_free(w);
    CHECK(write_as(m, NULL, IPROF_INSTANCEOF_KEY_AUTO, IPROF_WRITE_CANONICAL) == NULL);
    char *out = write_as(m, NULL, IPROF_INSTANCEOF_KEY_AUTO, IPROF_WRITE_DROP_UNKNOWN);
    CHECK_EQ_STR(out ? out : "(null)",
                 "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"},{\"id\":1,"
                 "\"name\":\"A\"}],\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[1,0]}],"
                 "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[3]}],"
                 "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
                 "\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    free(out);

    /* Merges add their source's count; the first stays the first met. */
    iprof_model *dst;
    CHECK_OK(iprof_model_new(&dst, NULL));
    CHECK_OK(merge_weighted(dst, plain, 1.0));
    check_unread(dst, 0, NULL);
    CHECK_OK(merge_weighted(dst, m, 1.0));
    check_unread(dst, 3, first);
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    static const char doc2[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\",\"y\":1}],\"methods\":[],"
        "\"callCountProfiles\":[],\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
        "\"monitorProfiles\":[],\"samplingProfiles\":[]}";
    CHECK_OK(iprof_model_merge_source(dst, r, SRC_BUFFER(doc2, strlen(doc2)), NULL));
    check_unread(dst, 4, first);
    /* A failed merge adds nothing. */
    static const char bad[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\",\"y\":1}],\"methods\":[";
    CHECK_EQ_INT(iprof_model_merge_source(dst, r, SRC_BUFFER(bad, strlen(bad)), NULL), IPROF_ESYNTAX);
    check_unread(dst, 4, first);
    iprof_model *fresh;
    CHECK_OK(iprof_model_new(&fresh, NULL));
    CHECK_OK(iprof_model_merge_source(fresh, r, SRC_BUFFER(doc2, strlen(doc2)), NULL));
    check_unread(fresh, 1, "types[0], key \"y\"");
    iprof_model_free(fresh);
    /* The canonical form keeps the count. */
    CHECK_OK(iprof_model_canonicalize(dst, 0));
    check_unread(dst, 4, first);
    iprof_model_free(dst);

    /* An element a salvaging strict read refuses is not counted: the
     * model does not hold it at all. */
    static const char damaged[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\",\"x\":1}],"
        "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],\"callCountProfiles\":"
        "[{\"ctx\":\"1:0\",\"records\":[5]},{\"ctx\":\"1:0\",\"records\":[5,6],\"z\":3}]}";
    iprof_read_options so = IPROF_READ_OPTIONS_INIT;
    so.flags = IPROF_READ_STRICT | IPROF_READ_SALVAGE;
    iprof_reader *salvager = NULL;
    CHECK_OK(iprof_reader_new(&salvager, &so));
    iprof_model *kept = NULL;
    CHECK_OK(iprof_model_load(&kept, salvager, SRC_BUFFER(damaged, strlen(damaged))));
    CHECK(read_result(salvager).damage != NULL);
    CHECK_EQ_INT(iprof_model_entry_count(kept, IPROF_KIND_CALL_COUNT), 1);
    check_unread(kept, 1, "types[0], key \"x\"");
    iprof_model_free(kept);
    iprof_reader_free(salvager);

    /* Counted once per element however the input is cut (restarts). */
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.chunk_size = 1;
    iprof_reader *small = NULL;
    CHECK_OK(iprof_reader_new(&small, &o));
    iprof_model *chunked = NULL;
    trickle t = {doc, 0};
    CHECK_OK(iprof_model_load(&chunked, small, SRC_CALLBACK(trickle_read, &t)));
    check_unread(chunked, 3, first);
    iprof_model_free(chunked);
    iprof_reader_free(small);
    iprof_reader_free(r);
    iprof_model_free(plain);
    iprof_model_free(m);
}

static void check_reader_unread(const iprof_reader *r, size_t want, const char *first)
{
    iprof_read_result res = IPROF_READ_RESULT_INIT;
    res.unread_first = "unset";
    CHECK_OK(iprof_reader_get_result(r, &res));
    check_count_at(res.unread_count, res.unread_first, want, first);
}

/* The reader's own count: a streaming read (no model) has it too, past
 * the diagnostics cap, and each read starts it again. */
static void test_reader_unread_count(void)
{
    static const char doc[] = DOC_UNREAD;
    static const char first[] = "types[1], key \"x\\u0041\"";
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.max_diagnostics = 2;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    check_reader_unread(r, 0, NULL);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(doc, strlen(doc)), NULL, NULL));
    check_reader_unread(r, 3, first);
    CHECK_EQ_INT(read_result(r).diag_count, 2);
    CHECK_EQ_INT(read_result(r).dropped_warnings, 1);
    CHECK_EQ_INT(read_result(r).dropped_errors, 0);
    CHECK_EQ_INT(read_result(r).unread_count, 3);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(doc_plain, strlen(doc_plain)), NULL, NULL));
    check_reader_unread(r, 0, NULL);
    /* A load's count is the model's. */
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(doc, strlen(doc))));
    check_reader_unread(r, 3, first);
    check_unread(m, 3, first);
    iprof_model_free(m);
    iprof_reader_free(r);
    iprof_read_result res = IPROF_READ_RESULT_INIT;
    CHECK_EQ_INT(iprof_reader_get_result(NULL, &res), IPROF_EINVAL);
    CHECK_EQ_INT(res.unread_count, 0);
}

int main(void)
{
    RUN(test_round_trip);
    RUN(test_spellings);
    RUN(test_versions);
    RUN(test_add_remove);
    RUN(test_merge);
    RUN(test_canonicalize);
    RUN(test_canonical_write);
    RUN(test_alloc_failure);
    RUN(test_unread_element_keys);
    RUN(test_reader_unread_count);
    return check_done();
}
