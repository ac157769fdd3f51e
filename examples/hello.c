/* Load an .iprof file and print what it holds (the README's example). */
#include <inttypes.h>
#include <stdio.h>

#include <iprof/iprof.h>

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "examples/fib.iprof";
    iprof_reader *reader = NULL;
    iprof_model *model = NULL;
    if (iprof_reader_new(&reader, NULL) != IPROF_OK)
        return 1;
    iprof_source source = IPROF_SOURCE_PATH_INIT(path);
    if (iprof_model_load(&model, reader, &source) != IPROF_OK) {
        iprof_error_info err = IPROF_ERROR_INFO_INIT;
        iprof_error_get_info(iprof_reader_error(reader), &err);
        fprintf(stderr, "%s:%" PRIu64 ":%" PRIu64 ": %s\n", path, err.line, err.column,
                err.message);
        iprof_reader_free(reader);
        return 1;
    }
    printf("version %s: %zu types, %zu methods\n", iprof_model_version(model),
           iprof_model_type_count(model), iprof_model_method_count(model));
    for (int kind = 0; kind < IPROF_KIND_COUNT; kind++)
        printf("%-22s %zu\n", iprof_kind_name(kind), iprof_model_entry_count(model, kind));

    /* The call-count entry with the largest count. */
    const iprof_entry *hottest = NULL;
    int64_t best = -1;
    for (size_t i = 0; i < iprof_model_entry_count(model, IPROF_KIND_CALL_COUNT); i++) {
        const iprof_entry *e = iprof_model_entry_at(model, IPROF_KIND_CALL_COUNT, i);
        size_t n;
        const int64_t *records = iprof_entry_records(e, &n);
        if (n > 0 && records[0] > best) {
            best = records[0];
            hottest = e;
        }
    }
    if (hottest) {
        char text[512];
        iprof_model_context_describe(model, iprof_entry_context(hottest), text, sizeof text);
        printf("hottest call count: %" PRId64 " at %s\n", best, text);
    }
    iprof_model_free(model);
    iprof_reader_free(reader);
    return 0;
}
