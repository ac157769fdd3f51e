/* The report of a failed model operation (lib/model/model_error.c): its status,
 * message and subject (kind, context, type and method ids), for the
 * mutation calls, merges and the canonical form; cleared by success. */
#include "check.h"
#include "check_api.h"

#include <iprof/edit.h>
#include <iprof/iprof.h>
#include <iprof/transform.h>

static void check_report(const iprof_model *m, int status, const char *message, int kind,
                         const char *context, const int64_t *type_id, const int64_t *method_id)
{
    const iprof_error *e = iprof_model_error(m);
    CHECK(e != NULL);
    if (!e)
        return;
    iprof_error_info i = IPROF_ERROR_INFO_INIT;
    CHECK_OK(iprof_error_get_info(e, &i));
    CHECK_EQ_INT(i.status, status);
    CHECK_EQ_STR(i.message, message);
    CHECK_EQ_INT(i.kind, kind);
    CHECK_EQ_STR(i.context, context);
    CHECK_EQ_INT(i.has_type_id, type_id != NULL);
    if (type_id)
        CHECK_EQ_INT(i.type_id, *type_id);
    CHECK_EQ_INT(i.has_method_id, method_id != NULL);
    if (method_id)
        CHECK_EQ_INT(i.method_id, *method_id);
    CHECK_EQ_INT(i.line, 0);
}

static iprof_model *small(void)
{
    iprof_model *m = NULL;
    static const int64_t sig[] = {0, 0};
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_OK(iprof_model_add_type(m, 0, "T", 1, NULL));
    CHECK_OK(iprof_model_add_method(m, 1, "m", 1, sig, 2, NULL));
    CHECK(iprof_model_error(m) == NULL);
    return m;
}

static void test_types_and_methods(void)
{
    iprof_model *m = small();
    const int64_t zero = 0, one = 1, four = 4, nine = 9;
    CHECK_EQ_INT(iprof_model_add_type(m, 0, "U", 1, NULL), IPROF_EINVAL);
    check_report(m, IPROF_EINVAL, "type id 0 is taken", -1, "", &zero, NULL);
    static const int64_t sig[] = {0, 9};
    CHECK_EQ_INT(iprof_model_add_method(m, 4, "n", 1, sig, 2, NULL), IPROF_EDANGLING);
    check_report(m, IPROF_EDANGLING,
                 "method 4: signature type id 9 (signature[1]) is not defined in the model", -1,
                 "", &nine, &four);
    CHECK_EQ_INT(iprof_model_add_method(m, 1, "n", 1, sig, 1, NULL), IPROF_EINVAL);
    check_report(m, IPROF_EINVAL, "method id 1 is taken", -1, "", NULL, &one);
    CHECK_EQ_INT(iprof_model_remove_type(m, 9), IPROF_ENOTFOUND);
    check_report(m, IPROF_ENOTFOUND, "no type with id 9", -1, "", &nine, NULL);
    CHECK_EQ_INT(iprof_model_remove_method(m, 4, 0), IPROF_ENOTFOUND);
    check_report(m, IPROF_ENOTFOUND, "no method with id 4", -1, "", NULL, &four);
    /* Names that are not UTF-8 (a stray continuation byte, an overlong
     * form, a surrogate, a cut sequence, above U+10FFFF) would make the
     * file unreadable: refused, the model unchanged. */
    static const char *const bad[] = {"\xff", "a\x80", "\xc0\xaf", "\xed\xa0\x80", "\xe2\x82",
                                      "\xf4\x90\x80\x80"};
    const int64_t five = 5;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_EQ_INT(iprof_model_add_type(m, 5, bad[i], strlen(bad[i]), NULL), IPROF_EINVAL);
        check_report(m, IPROF_EINVAL, "type 5: the name is not valid UTF-8", -1, "", &five,
                     NULL);
        CHECK_EQ_INT(iprof_model_add_method(m, 5, bad[i], strlen(bad[i]), sig, 1, NULL),
                     IPROF_EINVAL);
        check_report(m, IPROF_EINVAL, "method 5: the name is not valid UTF-8", -1, "", NULL,
                     &five);
        CHECK_EQ_INT(iprof_model_add_unknown(m, bad[i], strlen(bad[i]), "1", 1), IPROF_EINVAL);
        CHECK_EQ_STR(err_info(iprof_model_error(m)).message, "the key is not valid UTF-8");
    }
    CHECK_EQ_INT(iprof_model_type_count(m), 1);
    CHECK_EQ_INT(iprof_model_method_count(m), 1);
    CHECK_EQ_INT(iprof_model_unknown_count(m), 0);
    CHECK_OK(iprof_model_add_type(m, 5, "\xc3\xa9\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf", 10, NULL));
    /* Success clears it. */
    CHECK_OK(iprof_model_add_type(m, 9, "U", 1, NULL));
    CHECK(iprof_model_error(m) == NULL);
    iprof_model_free(m);
}

static void test_entries(void)
{
    iprof_model *m = small();
    const int64_t seven = 7, five = 5;
    static const int64_t dangling[] = {1, 0, 7, 2}, one[] = {3};
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, dangling, 2, one, 1),
                 IPROF_EDANGLING);
    check_report(m, IPROF_EDANGLING,
                 "callCountProfiles entry: method id 7 is not defined in the model",
                 IPROF_KIND_CALL_COUNT, "1:0<7:2", NULL, &seven);
    static const int64_t at3[] = {1, 3};
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, at3, 1, one, 1), IPROF_ESCHEMA);
    check_report(m, IPROF_ESCHEMA,
                 "callCountProfiles entry: ctx: a call-count ctx must start at bci 0",
                 IPROF_KIND_CALL_COUNT, "1:3", NULL, NULL);
    static const int64_t pairs[] = {0, 4, 5, 1};
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_INSTANCEOF, at3, 1, pairs, 4),
                 IPROF_EDANGLING);
    check_report(m, IPROF_EDANGLING,
                 "instanceofProfiles entry: type id 5 is not defined in the model",
                 IPROF_KIND_INSTANCEOF, "1:3", &five, NULL);
    CHECK_EQ_INT(iprof_model_add_entry(m, 9, at3, 1, one, 1), IPROF_EINVAL);
    check_report(m, IPROF_EINVAL, "invalid entry kind 9", -1, "", NULL, NULL);
    CHECK_EQ_INT(iprof_model_remove_entry(m, IPROF_KIND_SAMPLING, at3, 1), IPROF_ENOTFOUND);
    check_report(m, IPROF_ENOTFOUND, "no samplingProfiles entry with this context",
                 IPROF_KIND_SAMPLING, "1:3", NULL, NULL);
    /* A deep context is shown from the callee, as far as it fits. */
    int64_t deep[2 * 40];
    for (int i = 0; i < 40; i++) {
        deep[2 * i] = i == 39 ? 8 : 1;
        deep[2 * i + 1] = 1000000 + i;
    }
    CHECK_EQ_INT(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, deep, 40, one, 1),
                 IPROF_EDANGLING);
    const char *ctx = err_info(iprof_model_error(m)).context;
    CHECK(strncmp(ctx, "1:1000000<1:1000001<", 20) == 0 && strlen(ctx) < 192);
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, at3, 1, one, 1));
    CHECK(iprof_model_error(m) == NULL);
    iprof_model_free(m);
}

/* Merges and the canonical form of leniently loaded files: what breaks,
 * where. */
static void test_merge_and_canonical(void)
{
    static const char doc[] = "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
                              "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
                              "\"virtualInvokeProfiles\":[{\"ctx\":\"1:4<1:9\",\"records\":[0,1,3,2]}]}";
    iprof_reader *r = NULL;
    iprof_model *src = NULL, *dst = small();
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_OK(iprof_model_load(&src, r, SRC_BUFFER(doc, strlen(doc))));
    const int64_t three = 3;
    CHECK_EQ_INT(merge_weighted(dst, src, 1.0), IPROF_EDANGLING);
    check_report(dst, IPROF_EDANGLING,
                 "virtualInvokeProfiles entry: type id 3 is not defined in the model merged from",
                 IPROF_KIND_VIRTUAL_INVOKE, "1:4<1:9", &three, NULL);
    CHECK_EQ_INT(iprof_model_canonicalize(src, 0), IPROF_EDANGLING);
    check_report(src, IPROF_EDANGLING,
                 "virtualInvokeProfiles entry: type id 3 is not defined in the model",
                 IPROF_KIND_VIRTUAL_INVOKE, "1:4<1:9", &three, NULL);
    iprof_model_free(src);

    static const char odd[] = "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
                              "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
                              "\"conditionalProfiles\":[{\"ctx\":\"1:2\",\"records\":[1,0]}]}";
    CHECK_OK(iprof_model_load(&src, r, SRC_BUFFER(odd, strlen(odd))));
    CHECK_EQ_INT(iprof_model_canonicalize(src, 0), IPROF_ESCHEMA);
    check_report(src, IPROF_ESCHEMA,
                 "conditionalProfiles entry: records: records must be (bci, index, count) "
                 "triples, so its records cannot be grouped",
                 IPROF_KIND_CONDITIONAL, "1:2", NULL, NULL);
    CHECK_EQ_INT(merge_weighted(dst, src, 1.0), IPROF_ESCHEMA);
    CHECK_EQ_INT(err_info(iprof_model_error(dst)).kind, IPROF_KIND_CONDITIONAL);
    CHECK_EQ_INT(merge_weighted(dst, src, 0.0 / 0.0), IPROF_EINVAL);
    check_report(dst, IPROF_EINVAL, "weight nan: must be finite and >= 0", -1, "", NULL, NULL);
    iprof_model_free(src);
    iprof_model_free(dst);
    iprof_reader_free(r);
    /* Reports of the reader name no subject. */
    CHECK_EQ_INT(err_info(NULL).kind, -1);
    CHECK_EQ_STR(err_info(NULL).context, "");
    CHECK_EQ_INT(err_info(NULL).has_type_id, 0);
    CHECK_EQ_INT(err_info(NULL).has_method_id, 0);
}

int main(void)
{
    RUN(test_types_and_methods);
    RUN(test_entries);
    RUN(test_merge_and_canonical);
    return check_done();
}
