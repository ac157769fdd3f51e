/* A PGO post-processor (docs/api.md, "Writing a post-processor"): take a
 * package out of a profile, weigh its samples down, show the hottest
 * methods and what the compiler will be told about each branch, and write
 * the result. Usage: postprocess IN OUT PACKAGE */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <iprof/iprof.h>
#include <iprof/analysis.h> /* iprof_model_method_totals, iprof_entry_branch_probabilities */
#include <iprof/edit.h>     /* iprof_model_scale, removing a method */
#include <iprof/transform.h> /* iprof_package_matches */

/* Report a failed model operation: what, and where. */
static int model_failed(const iprof_model *model, const char *what)
{
    iprof_error_info e = IPROF_ERROR_INFO_INIT;
    iprof_error_get_info(iprof_model_error(model), &e);
    fprintf(stderr, "%s: %s", what, e.message);
    if (*e.context)
        fprintf(stderr, " (context %s)", e.context);
    fputc('\n', stderr);
    return 1;
}

/* Take every method of a package out, with every entry that mentions it. */
static int drop_package(iprof_model *model, const char *package)
{
    size_t n = iprof_model_method_count(model), count = 0;
    int64_t *ids = malloc((n ? n : 1) * sizeof *ids);
    if (!ids)
        return 1;
    for (size_t i = 0; i < n; i++) {
        const iprof_method *m = iprof_model_method_at(model, i);
        size_t sig_len, len;
        const int64_t *sig = iprof_method_signature(m, &sig_len);
        const iprof_type *t = sig_len ? iprof_model_type_by_id(model, sig[0]) : NULL;
        const char *name = t ? iprof_type_name(t, &len) : NULL;
        if (name && iprof_package_matches(package, name, len))
            ids[count++] = iprof_method_id(m); /* removal moves methods: collect first */
    }
    int rc = 0;
    for (size_t i = 0; i < count && !rc; i++)
        if (iprof_model_remove_method(model, ids[i], IPROF_REMOVE_CASCADE) != IPROF_OK)
            rc = model_failed(model, "remove_method");
    free(ids);
    printf("dropped %zu methods of %s\n", count, package);
    return rc;
}

static void print_hottest(const iprof_model *model)
{
    int64_t ids[3], totals[3];
    size_t n;
    if (iprof_model_method_totals(model, IPROF_KIND_CALL_COUNT, ids, totals, 3, &n) != IPROF_OK)
        return;
    for (size_t i = 0; i < n && i < 3; i++) {
        char name[256];
        iprof_model_method_describe(model, iprof_model_method_by_id(model, ids[i]), name,
                                    sizeof name);
        printf("hot: %s %" PRId64 "\n", name, totals[i]);
    }
}

static void print_branches(const iprof_model *model)
{
    for (size_t i = 0; i < iprof_model_entry_count(model, IPROF_KIND_CONDITIONAL); i++) {
        const iprof_entry *e = iprof_model_entry_at(model, IPROF_KIND_CONDITIONAL, i);
        size_t len, n;
        iprof_entry_records(e, &len);
        int64_t *bcis = malloc((len / 3 + 1) * sizeof *bcis);
        double *p = malloc((len / 3 + 1) * sizeof *p);
        char where[256];
        iprof_model_context_describe(model, iprof_entry_context(e), where, sizeof where);
        if (bcis && p && iprof_entry_branch_probabilities(e, bcis, p, len / 3 + 1, &n) == IPROF_OK) {
            printf("branch at %s:", where);
            for (size_t k = 0; k < n; k++)
                printf(" %" PRId64 "=%.4f", bcis[k], p[k]);
            printf("\n");
        } else {
            printf("branch at %s: never ran\n", where);
        }
        free(bcis);
        free(p);
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: postprocess IN OUT PACKAGE\n");
        return 2;
    }
    iprof_reader *reader = NULL;
    iprof_model *model = NULL;
    iprof_writer *writer = NULL;
    int rc = 1;
    if (iprof_reader_new(&reader, NULL) != IPROF_OK)
        return 1;
    iprof_source in = IPROF_SOURCE_PATH_INIT(argv[1]);
    if (iprof_model_load(&model, reader, &in) != IPROF_OK) {
        iprof_error_info e = IPROF_ERROR_INFO_INIT;
        iprof_error_get_info(iprof_reader_error(reader), &e);
        fprintf(stderr, "%s:%" PRIu64 ":%" PRIu64 ": %s\n", argv[1], e.line, e.column,
                e.message);
        goto done;
    }
    if (drop_package(model, argv[3]))
        goto done;
    /* Samples of a noisy run count half, halves to even. */
    if (iprof_model_scale(model, IPROF_KIND_SAMPLING, 0.5, IPROF_ROUND_NEAREST_EVEN) != IPROF_OK) {
        model_failed(model, "scale");
        goto done;
    }
    print_hottest(model);
    print_branches(model);
    /* Written where asked: a symlink's target is replaced atomically. */
    iprof_sink out = IPROF_SINK_PATH_INIT(argv[2]);
    int status = iprof_writer_new(&writer, &out, NULL);
    if (status == IPROF_OK)
        status = iprof_writer_write_model(writer, model);
    if (status != IPROF_OK) {
        /* No writer: iprof_writer_new() failed before making one. */
        iprof_error_info e = IPROF_ERROR_INFO_INIT;
        iprof_error_get_info(writer ? iprof_writer_error(writer) : NULL, &e);
        fprintf(stderr, "%s: %s\n", argv[2], writer ? e.message : iprof_status_string(status));
        goto done;
    }
    rc = 0;
done:
    iprof_writer_free(writer);
    iprof_model_free(model);
    iprof_reader_free(reader);
    return rc;
}
