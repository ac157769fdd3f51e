/* Status strings, reports read through iprof_error_get_info, the fixed-size error holder of a handle
 * (ipi_errbuf) and the growable diagnostics list (ipi_diags). */
#include <iprof/iprof.h>

#include "alloc.h"
#include "check.h"
#include "check_api.h"
#include "error.h"

static void test_status_strings(void)
{
    static const struct {
        int status;
        const char *text;
    } cases[] = {
        {IPROF_OK, "ok"},
        {IPROF_ENOMEM, "out of memory"},
        {IPROF_EIO, "input/output error"},
        {IPROF_ESYNTAX, "JSON syntax error"},
        {IPROF_ESCHEMA, "schema violation"},
        {IPROF_EVERSION, "unsupported format version"},
        {IPROF_EDANGLING, "dangling reference"},
        {IPROF_ELIMIT, "limit exceeded"},
        {IPROF_EINVAL, "invalid argument"},
        {IPROF_ESTOPPED, "stopped by a callback"},
        {IPROF_ESTATE, "call out of order"},
        {IPROF_ENOTFOUND, "not found"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_EQ_STR(iprof_status_string(cases[i].status), cases[i].text);
    /* Every code from 0 down to the last has its own text. */
    for (int s = IPROF_OK; s >= IPROF_ENOTFOUND; s--) {
        CHECK(strcmp(iprof_status_string(s), "unknown status") != 0);
        for (int t = s - 1; t >= IPROF_ENOTFOUND; t--)
            CHECK(strcmp(iprof_status_string(s), iprof_status_string(t)) != 0);
    }
    static const int unknown[] = {1, 42, IPROF_ENOTFOUND - 1, -1000, INT32_MIN, INT32_MAX};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        CHECK_EQ_STR(iprof_status_string(unknown[i]), "unknown status");
}

static void test_kind_names(void)
{
    static const char *const names[IPROF_KIND_COUNT] = {
        "callCountProfiles", "conditionalProfiles", "virtualInvokeProfiles",
        "monitorProfiles",   "samplingProfiles",    "instanceofProfiles"};
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        CHECK_EQ_STR(iprof_kind_name(k), names[k]);
    CHECK(iprof_kind_name(-1) == NULL);
    CHECK(iprof_kind_name(IPROF_KIND_COUNT) == NULL);
    /* The two instanceof spellings as macros: the document's is the kind's
     * name. */
    CHECK_EQ_STR(IPROF_INSTANCEOF_KEY_LOWER_NAME, "instanceofProfiles");
    CHECK_EQ_STR(IPROF_INSTANCEOF_KEY_CAMEL_NAME, "instanceOfProfiles");
    CHECK_EQ_STR(iprof_kind_name(IPROF_KIND_INSTANCEOF), IPROF_INSTANCEOF_KEY_LOWER_NAME);
}

static void test_accessors_on_null(void)
{
    CHECK_EQ_INT(err_info(NULL).status, IPROF_OK);
    CHECK_EQ_INT(err_info(NULL).severity, IPROF_SEVERITY_ERROR);
    CHECK_EQ_STR(err_info(NULL).message, "");
    CHECK_EQ_STR(err_info(NULL).path, "");
    CHECK_EQ_INT(err_info(NULL).offset, 0);
    CHECK_EQ_INT(err_info(NULL).line, 0);
    CHECK_EQ_INT(err_info(NULL).column, 0);

    CHECK_EQ_STR(err_info(NULL).context, "");
    CHECK_EQ_INT(err_info(NULL).kind, -1);

    /* A report whose strings are NULL still gives "", and a subject's
     * fields are filled only when the report has one (kind, type_id and
     * method_id here hold values that are not meant). */
    iprof_error e = {IPROF_ESYNTAX, IPROF_SEVERITY_WARNING, 10, 2, 3, NULL, NULL, NULL, 0, 0, 0, 0, 0, 0};
    e.kind = 3;
    e.type_id = 5;
    e.method_id = 6;
    iprof_error_info info = IPROF_ERROR_INFO_INIT;
    CHECK_OK(iprof_error_get_info(&e, &info));
    CHECK_EQ_INT(info.status, IPROF_ESYNTAX);
    CHECK_EQ_INT(info.severity, IPROF_SEVERITY_WARNING);
    CHECK_EQ_STR(info.message, "");
    CHECK_EQ_STR(info.path, "");
    CHECK_EQ_STR(info.context, "");
    CHECK_EQ_INT(info.offset, 10);
    CHECK_EQ_INT(info.line, 2);
    CHECK_EQ_INT(info.column, 3);
    CHECK_EQ_INT(info.kind, -1);
    CHECK_EQ_INT(info.has_type_id, 0);
    CHECK_EQ_INT(info.type_id, 0);
    CHECK_EQ_INT(info.has_method_id, 0);
    CHECK_EQ_INT(info.method_id, 0);
    e.has_kind = e.has_type = e.has_method = 1;
    CHECK_OK(iprof_error_get_info(&e, &info));
    CHECK_EQ_INT(info.kind, 3);
    CHECK_EQ_INT(info.has_type_id, 1);
    CHECK_EQ_INT(info.type_id, 5);
    CHECK_EQ_INT(info.has_method_id, 1);
    CHECK_EQ_INT(info.method_id, 6);
}

static void test_errbuf(void)
{
    ipi_errbuf eb;
    ipi_errbuf_clear(&eb);
    CHECK(ipi_errbuf_get(&eb) == NULL);
    CHECK_EQ_INT(ipi_errbuf_set(&eb, IPROF_EIO, "cannot %s \"%s\": %d", "open", "a.iprof", 5),
                 IPROF_EIO);
    const iprof_error *e = ipi_errbuf_get(&eb);
    CHECK(e != NULL);
    CHECK_EQ_INT(err_info(e).status, IPROF_EIO);
    CHECK_EQ_INT(err_info(e).severity, IPROF_SEVERITY_ERROR);
    CHECK_EQ_STR(err_info(e).message, "cannot open \"a.iprof\": 5");
    CHECK_EQ_STR(err_info(e).path, "");
    CHECK_EQ_INT(err_info(e).offset, 0);
    CHECK_EQ_INT(err_info(e).line, 0);
    CHECK_EQ_INT(err_info(e).column, 0);

    /* A new error replaces the old one, path included. */
    snprintf(eb.path, sizeof eb.path, "types[3]");
    eb.err.offset = 99;
    CHECK_EQ_STR(err_info(ipi_errbuf_get(&eb)).path, "types[3]");
    CHECK_EQ_INT(ipi_errbuf_set(&eb, IPROF_ESTATE, "second"), IPROF_ESTATE);
    e = ipi_errbuf_get(&eb);
    CHECK_EQ_STR(err_info(e).message, "second");
    CHECK_EQ_STR(err_info(e).path, "");
    CHECK_EQ_INT(err_info(e).offset, 0);

    /* Long messages are truncated, NUL-terminated. */
    char big[1000];
    memset(big, 'm', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ipi_errbuf_set(&eb, IPROF_ELIMIT, "%s", big);
    CHECK_EQ_INT(strlen(err_info(ipi_errbuf_get(&eb)).message), IPI_MESSAGE_MAX - 1);

    ipi_errbuf_clear(&eb);
    CHECK(ipi_errbuf_get(&eb) == NULL);
    CHECK_EQ_STR(eb.err.message, "");
}

/* An allocator that counts live bytes and can fail the Nth allocation. */
typedef struct counting {
    long n, fail_at;
    long live;
} counting;

static void *c_malloc(size_t size, void *user)
{
    counting *c = user;
    if (c->n++ == c->fail_at)
        return NULL;
    c->live += (long)size;
    return malloc(size);
}

static void *c_realloc(void *p, size_t old_size, size_t new_size, void *user)
{
    counting *c = user;
    if (c->n++ == c->fail_at)
        return NULL;
    void *np = realloc(p, new_size);
    if (np)
        c->live += (long)new_size - (long)old_size;
    return np;
}

static void c_free(void *p, size_t size, void *user)
{
    counting *c = user;
    c->live -= (long)size;
    free(p);
}

static void test_diags(void)
{
    counting cnt = {0, -1, 0};
    iprof_allocator user = {c_malloc, c_realloc, c_free, &cnt};
    iprof_allocator a;
    ipi_allocator_init(&a, &user);

    ipi_diags d;
    ipi_diags_init(&d, &a);
    CHECK_EQ_INT(d.count, 0);
    char msg[64], path[64];
    /* Growth well past the first capacity. */
    for (int i = 0; i < 1000; i++) {
        snprintf(msg, sizeof msg, "problem %d", i);
        snprintf(path, sizeof path, "methods[%d].signature[1]", i);
        iprof_error e = {IPROF_EDANGLING, i % 2, (uint64_t)i * 10, (uint64_t)i + 1, 7,
                         msg, path, NULL, 0, 0, 0, 0, 0, 0};
        CHECK_OK(ipi_diags_add(&d, &e));
        /* the caller's strings are copied */
        msg[0] = path[0] = 'X';
    }
    CHECK_EQ_INT(d.count, 1000);
    CHECK(d.cap >= 1000);
    int bad = 0;
    for (int i = 0; i < 1000; i++) {
        const iprof_error *e = &d.items[i];
        snprintf(msg, sizeof msg, "problem %d", i);
        snprintf(path, sizeof path, "methods[%d].signature[1]", i);
        if (strcmp(err_info(e).message, msg) || strcmp(err_info(e).path, path) ||
            err_info(e).status != IPROF_EDANGLING || err_info(e).severity != i % 2 ||
            err_info(e).offset != (uint64_t)i * 10 || err_info(e).line != (uint64_t)i + 1 ||
            err_info(e).column != 7)
            bad++;
    }
    CHECK_EQ_INT(bad, 0);

    /* NULL strings become "". */
    iprof_error n = {IPROF_ESCHEMA, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0, 0, 0, 0, 0};
    CHECK_OK(ipi_diags_add(&d, &n));
    CHECK_EQ_STR(d.items[1000].message, "");
    CHECK_EQ_STR(d.items[1000].path, "");

    ipi_diags_clear(&d);
    CHECK_EQ_INT(d.count, 0);
    CHECK_OK(ipi_diags_add(&d, &n));
    CHECK_EQ_INT(d.count, 1);
    ipi_diags_free(&d);
    CHECK_EQ_INT(d.count, 0);
    CHECK_EQ_INT(cnt.live, 0);

    /* Allocation failures: ENOMEM, nothing leaks after free. */
    for (long f = 0; f < 40; f++) {
        cnt = (counting){0, f, 0};
        ipi_diags_init(&d, &a);
        int rc = IPROF_OK;
        for (int i = 0; i < 20 && !rc; i++) {
            iprof_error e = {IPROF_ESCHEMA, 0, 0, 0, 0, "m", "p", NULL, 0, 0, 0, 0, 0, 0};
            rc = ipi_diags_add(&d, &e);
        }
        CHECK(rc == IPROF_OK || rc == IPROF_ENOMEM);
        ipi_diags_free(&d);
        CHECK_EQ_INT(cnt.live, 0);
    }
}

int main(void)
{
    RUN(test_status_strings);
    RUN(test_kind_names);
    RUN(test_accessors_on_null);
    RUN(test_errbuf);
    RUN(test_diags);
    return check_done();
}
