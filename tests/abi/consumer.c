/*
 * A consumer of libiprof, built by tests/abi/test_consumers.py
 *   - against the installed library (pkg-config), linked dynamically and
 *     statically;
 *   - against the headers of the ABI baseline (abi/include) and a library
 *     with the baseline's symbols: the "old binary" that must keep running
 *     against the new library.
 * So it uses only what the baseline has. It builds a profile through the
 * model, writes it, reads it back with the streaming reader and a model
 * load, and checks what comes out. Prints "consumer: ok" and exits 0.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <iprof/iprof.h>
#include <iprof/edit.h>
#include <iprof/stream.h>

static int failures;
#define CHECK(cond)                                                           \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "consumer: %s:%d: check failed: %s\n", __FILE__,  \
                    __LINE__, #cond);                                         \
            failures++;                                                       \
        }                                                                     \
    } while (0)

struct counts {
    int types, methods, entries;
    char version[16];
};

static int on_version(const char *version, size_t len, void *payload)
{
    struct counts *c = payload;
    if (len < sizeof c->version)
        memcpy(c->version, version, len + 1);
    return 0;
}

static int on_type(int64_t id, const char *name, size_t name_len, void *payload)
{
    (void)id, (void)name, (void)name_len;
    ((struct counts *)payload)->types++;
    return 0;
}

static int on_method(int64_t id, const char *name, size_t name_len, const int64_t *signature,
                     size_t signature_len, void *payload)
{
    (void)id, (void)name, (void)name_len, (void)signature, (void)signature_len;
    ((struct counts *)payload)->methods++;
    return 0;
}

static int on_entry(int kind, const int64_t *frames, size_t frame_count,
                    const int64_t *records, size_t record_count, void *payload)
{
    (void)kind, (void)frames, (void)frame_count, (void)records, (void)record_count;
    ((struct counts *)payload)->entries++;
    return 0;
}

int main(void)
{
    printf("consumer: compiled against %s, running with libiprof %s\n", IPROF_VERSION_STRING,
           iprof_version_string());
    CHECK(strcmp(iprof_status_string(IPROF_OK), "") != 0);
    CHECK(strcmp(iprof_kind_name(IPROF_KIND_CALL_COUNT), "callCountProfiles") == 0);
    CHECK(iprof_kind_name(IPROF_KIND_COUNT) == NULL);

    /* A model built through the API. */
    iprof_model *model = NULL;
    CHECK(iprof_model_new(&model, NULL) == IPROF_OK);
    if (!model)
        return 1;
    CHECK(iprof_model_add_type(model, 0, "int", 3, NULL) == IPROF_OK);
    CHECK(iprof_model_add_type(model, 1, "Main", 4, NULL) == IPROF_OK);
    CHECK(iprof_model_add_type(model, 0, "again", 5, NULL) == IPROF_EINVAL);
    const int64_t sig[] = {1, 0};
    CHECK(iprof_model_add_method(model, 7, "run", 3, sig, 2, NULL) == IPROF_OK);
    const int64_t frames[] = {7, 0};
    const int64_t count[] = {41};
    const int64_t more[] = {1};
    CHECK(iprof_model_add_entry(model, IPROF_KIND_CALL_COUNT, frames, 1, count, 1) == IPROF_OK);
    CHECK(iprof_model_add_entry(model, IPROF_KIND_CALL_COUNT, frames, 1, more, 1) == IPROF_OK);
    const iprof_entry *e = iprof_model_entry_find(model, IPROF_KIND_CALL_COUNT, frames, 1);
    size_t n = 0;
    CHECK(e != NULL && iprof_entry_records(e, &n)[0] == 42 && n == 1);
    if (e) {
        char text[64];
        CHECK(iprof_model_context_describe(model, iprof_entry_context(e), text, sizeof text) > 0);
        CHECK(strcmp(text, "Main.run:0") == 0);
    }
    CHECK(iprof_model_remove_type(model, 99) == IPROF_ENOTFOUND);

    /* Written to memory with options of the baseline's struct version. */
    iprof_write_options wopts = IPROF_WRITE_OPTIONS_INIT;
    wopts.format_version = IPROF_FORMAT_1_0_0;
    iprof_writer *writer = NULL;
    const iprof_sink sink = IPROF_SINK_BUFFER_INIT;
    CHECK(iprof_writer_new(&writer, &sink, &wopts) == IPROF_OK);
    CHECK(iprof_writer_write_model(writer, model) == IPROF_OK);
    const void *data = NULL;
    size_t len = 0;
    CHECK(iprof_writer_buffer(writer, &data, &len) == IPROF_OK && len > 0);

    /* Read back, streaming, with options and callbacks of the baseline's versions. */
    iprof_read_options ropts;
    CHECK(iprof_read_options_init(&ropts, IPROF_READ_OPTIONS_VERSION) == IPROF_OK);
    ropts.flags = IPROF_READ_STRICT;
    iprof_reader *reader = NULL;
    CHECK(iprof_reader_new(&reader, &ropts) == IPROF_OK);
    if (!reader || !writer)
        return 1;
    iprof_read_callbacks cb = IPROF_READ_CALLBACKS_INIT;
    cb.on_version = on_version;
    cb.on_type = on_type;
    cb.on_method = on_method;
    cb.on_call_count = on_entry;
    struct counts c = {0, 0, 0, ""};
    const iprof_source src = IPROF_SOURCE_BUFFER_INIT(data, len);
    CHECK(iprof_reader_read(reader, &src, &cb, &c) == IPROF_OK);
    CHECK(c.types == 2 && c.methods == 1 && c.entries == 1);
    CHECK(strcmp(c.version, "1.0.0") == 0);

    /* Loaded as a model. */
    iprof_model *back = NULL;
    CHECK(iprof_model_load(&back, reader, &src) == IPROF_OK);
    if (back) {
        CHECK(strcmp(iprof_model_version(back), "1.0.0") == 0);
        CHECK(iprof_model_type_count(back) == 2 && iprof_model_method_count(back) == 1);
        const iprof_method *m = iprof_model_method_by_id(back, 7);
        size_t name_len = 0;
        CHECK(m && strcmp(iprof_method_name(m, &name_len), "run") == 0 && name_len == 3);
        iprof_model_free(back);
    }

    /* A damaged document: an error with a position. */
    static const char bad[] = "{\"version\": \"1.0.0\", \"types\": [}";
    const iprof_source bad_src = IPROF_SOURCE_BUFFER_INIT(bad, sizeof bad - 1);
    CHECK(iprof_reader_read(reader, &bad_src, NULL, NULL) == IPROF_ESYNTAX);
    iprof_error_info info = IPROF_ERROR_INFO_INIT;
    CHECK(iprof_error_get_info(iprof_reader_error(reader), &info) == IPROF_OK);
    CHECK(info.status == IPROF_ESYNTAX && info.line == 1 && info.column == 32);

    iprof_reader_free(reader);
    iprof_writer_free(writer);
    iprof_model_free(model);
    if (failures)
        return 1;
    printf("consumer: ok\n");
    return 0;
}
