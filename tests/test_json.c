/* Unit tests of the JSON lexer (lib/read/json.c). */
#include "check.h"

#include "alloc.h"
#include "json.h"

static int scan(const char *s, int *escaped, size_t *err_at)
{
    const char *after, *err = NULL, *why = NULL;
    int rc = ipi_json_scan_string(s, s + strlen(s), &after, escaped, &err, &why);
    if (rc == IPI_JSON_BAD)
        *err_at = (size_t)(err - s);
    return rc;
}

static void test_strings(void)
{
    int esc = -1;
    size_t at = 0;
    CHECK_EQ_INT(scan("\"abc\"", &esc, &at), IPI_JSON_OK);
    CHECK_EQ_INT(esc, 0);
    CHECK_EQ_INT(scan("\"a\\\"b\\\\c\\/\\b\\f\\n\\r\\t\"", &esc, &at), IPI_JSON_OK);
    CHECK_EQ_INT(esc, 1);
    CHECK_EQ_INT(scan("\"\\u00e9\\ud83d\\ude00\"", &esc, &at), IPI_JSON_OK);
    CHECK_EQ_INT(scan("\"caf\xc3\xa9 \xf0\x9f\x98\x80\"", &esc, &at), IPI_JSON_OK);
    CHECK_EQ_INT(esc, 0);
    /* Errors and where they are. */
    CHECK_EQ_INT(scan("\"ab\\x\"", &esc, &at), IPI_JSON_BAD);
    CHECK_EQ_INT(at, 3);
    CHECK_EQ_INT(scan("\"a\tb\"", &esc, &at), IPI_JSON_BAD);
    CHECK_EQ_INT(at, 2);
    CHECK_EQ_INT(scan("\"\\ud800x\"", &esc, &at), IPI_JSON_BAD);
    CHECK_EQ_INT(scan("\"\\ude00\"", &esc, &at), IPI_JSON_BAD);
    CHECK_EQ_INT(scan("\"\\u12G4\"", &esc, &at), IPI_JSON_BAD);
    CHECK_EQ_INT(scan("\"\xc0\x80\"", &esc, &at), IPI_JSON_BAD);         /* overlong */
    CHECK_EQ_INT(scan("\"\xe0\x80\x80\"", &esc, &at), IPI_JSON_BAD);     /* overlong */
    CHECK_EQ_INT(scan("\"\xed\xa0\x80\"", &esc, &at), IPI_JSON_BAD);     /* surrogate */
    CHECK_EQ_INT(scan("\"\xf4\x90\x80\x80\"", &esc, &at), IPI_JSON_BAD); /* > U+10FFFF */
    CHECK_EQ_INT(scan("\"\xff\"", &esc, &at), IPI_JSON_BAD);
    CHECK_EQ_INT(scan("\"x\x80\"", &esc, &at), IPI_JSON_BAD);
    CHECK_EQ_INT(at, 2);
    /* Every cut of a valid string asks for more. */
    const char *full = "\"a\\u00e9\\ud83d\\ude00\xc3\xa9\\n\"";
    for (size_t n = 1; n < strlen(full); n++) {
        const char *after, *err, *why;
        CHECK_EQ_INT(ipi_json_scan_string(full, full + n, &after, &esc, &err, &why), IPI_JSON_MORE);
    }
}

static void test_decode(void)
{
    char out[64];
    const char *raw = "a\\\"b\\\\c\\/\\n\\u00e9\\ud83d\\ude00\\u0000z";
    size_t n = ipi_json_decode(raw, strlen(raw), out);
    CHECK_EQ_MEM(out, n, "a\"b\\c/\n\xc3\xa9\xf0\x9f\x98\x80\0z", 15);
    CHECK_EQ_INT(out[n], 0);
}

static int parse(const char *s, int at_eof, int64_t *v, size_t *used)
{
    const char *after = NULL, *err = NULL;
    int rc = ipi_json_parse_int(s, s + strlen(s), at_eof, v, &after, &err);
    if (rc == IPI_JSON_OK)
        *used = (size_t)(after - s);
    return rc;
}

static void test_integers(void)
{
    int64_t v = 0;
    size_t used = 0;
    CHECK_EQ_INT(parse("0", 1, &v, &used), IPI_JSON_OK);
    CHECK_EQ_INT(v, 0);
    CHECK_EQ_INT(parse("-0", 1, &v, &used), IPI_JSON_OK);
    CHECK_EQ_INT(v, 0);
    CHECK_EQ_INT(parse("23929230826,", 1, &v, &used), IPI_JSON_OK);
    CHECK_EQ_INT(v, 23929230826LL);
    CHECK_EQ_INT(used, 11);
    CHECK_EQ_INT(parse("9223372036854775807", 1, &v, &used), IPI_JSON_OK);
    CHECK(v == INT64_MAX);
    CHECK_EQ_INT(parse("-9223372036854775808", 1, &v, &used), IPI_JSON_OK);
    CHECK(v == INT64_MIN);
    CHECK_EQ_INT(parse("9223372036854775808", 1, &v, &used), IPI_JSON_RANGE);
    CHECK_EQ_INT(parse("-9223372036854775809", 1, &v, &used), IPI_JSON_RANGE);
    CHECK_EQ_INT(parse("18446744073709551616", 1, &v, &used), IPI_JSON_RANGE);
    /* Integral numbers in other spellings (JSON Schema's "integer"). */
    CHECK_EQ_INT(parse("1.0", 1, &v, &used), IPI_JSON_OK);
    CHECK_EQ_INT(v, 1);
    CHECK_EQ_INT(parse("1e3", 1, &v, &used), IPI_JSON_OK);
    CHECK_EQ_INT(v, 1000);
    CHECK_EQ_INT(parse("1.50E+1", 1, &v, &used), IPI_JSON_OK);
    CHECK_EQ_INT(v, 15);
    CHECK_EQ_INT(parse("-2500e-2", 1, &v, &used), IPI_JSON_OK);
    CHECK_EQ_INT(v, -25);
    CHECK_EQ_INT(parse("0.0e999999999999", 1, &v, &used), IPI_JSON_OK);
    CHECK_EQ_INT(v, 0);
    CHECK_EQ_INT(parse("92233720368547758.07e2", 1, &v, &used), IPI_JSON_OK);
    CHECK(v == INT64_MAX);
    CHECK_EQ_INT(parse("9.223372036854775808e18", 1, &v, &used), IPI_JSON_RANGE);
    CHECK_EQ_INT(parse("-9.223372036854775808e18", 1, &v, &used), IPI_JSON_OK);
    CHECK(v == INT64_MIN);
    CHECK_EQ_INT(parse("1e999999999999", 1, &v, &used), IPI_JSON_RANGE);
    CHECK_EQ_INT(parse("15e-1", 1, &v, &used), IPI_JSON_FRACTION);
    CHECK_EQ_INT(parse("0.5", 1, &v, &used), IPI_JSON_FRACTION);
    CHECK_EQ_INT(parse("1e-999999999999", 1, &v, &used), IPI_JSON_FRACTION);
    /* Syntax. */
    CHECK_EQ_INT(parse("01", 1, &v, &used), IPI_JSON_BAD);
    CHECK_EQ_INT(parse("1.]", 1, &v, &used), IPI_JSON_BAD);
    CHECK_EQ_INT(parse("1.", 1, &v, &used), IPI_JSON_MORE); /* cut: unexpected end */
    CHECK_EQ_INT(parse("1.e3", 1, &v, &used), IPI_JSON_BAD);
    CHECK_EQ_INT(parse("1e,", 1, &v, &used), IPI_JSON_BAD);
    CHECK_EQ_INT(parse("-", 1, &v, &used), IPI_JSON_MORE);
    CHECK_EQ_INT(parse("+1", 1, &v, &used), IPI_JSON_BAD);
    CHECK_EQ_INT(parse(".5", 1, &v, &used), IPI_JSON_BAD);
    /* A number touching the window end may go on. */
    CHECK_EQ_INT(parse("123", 0, &v, &used), IPI_JSON_MORE);
    CHECK_EQ_INT(parse("1.5e", 0, &v, &used), IPI_JSON_MORE);
    CHECK_EQ_INT(parse("123]", 0, &v, &used), IPI_JSON_OK);
    CHECK_EQ_INT(v, 123);
    /* 10^5 digits. */
    size_t n = 100000;
    char *big = malloc(n + 1);
    memset(big, '7', n);
    big[n] = '\0';
    CHECK_EQ_INT(parse(big, 1, &v, &used), IPI_JSON_RANGE);
    free(big);
}

static int skip(ipi_json_stack *st, const char *s, size_t *at)
{
    const char *after = NULL, *err = NULL, *why = NULL;
    int rc = ipi_json_skip_value(st, s, s + strlen(s), 1, &after, &err, &why);
    *at = rc == IPI_JSON_OK ? (size_t)(after - s) : err ? (size_t)(err - s) : (size_t)-1;
    return rc;
}

static void test_skip(void)
{
    iprof_allocator a;
    ipi_allocator_init(&a, NULL);
    ipi_json_stack st = {NULL, 0, &a, 0};
    size_t at;
    CHECK_EQ_INT(skip(&st, "{\"a\": [1, 2.5e-3, true, false, null, {\"b\": {}}, []]} x", &at), IPI_JSON_OK);
    CHECK_EQ_INT(at, 52);
    CHECK_EQ_INT(skip(&st, "\"str\"", &at), IPI_JSON_OK);
    CHECK_EQ_INT(at, 5);
    CHECK_EQ_INT(skip(&st, "-12", &at), IPI_JSON_OK);
    CHECK_EQ_INT(skip(&st, "[1,]", &at), IPI_JSON_BAD);
    CHECK_EQ_INT(at, 3);
    CHECK_EQ_INT(skip(&st, "{\"a\" 1}", &at), IPI_JSON_BAD);
    CHECK_EQ_INT(at, 5);
    CHECK_EQ_INT(skip(&st, "[1 2]", &at), IPI_JSON_BAD);
    CHECK_EQ_INT(at, 3);
    CHECK_EQ_INT(skip(&st, "[tru]", &at), IPI_JSON_BAD);
    CHECK_EQ_INT(at, 4);
    CHECK_EQ_INT(skip(&st, "{]", &at), IPI_JSON_BAD);
    CHECK_EQ_INT(skip(&st, "[}", &at), IPI_JSON_BAD);
    CHECK_EQ_INT(skip(&st, "[1", &at), IPI_JSON_MORE);
    /* 10^6 levels: a bit each, no recursion. */
    size_t depth = 1000000;
    char *deep = malloc(2 * depth + 1);
    memset(deep, '[', depth);
    memset(deep + depth, ']', depth);
    deep[2 * depth] = '\0';
    CHECK_EQ_INT(skip(&st, deep, &at), IPI_JSON_OK);
    CHECK_EQ_INT(at, 2 * depth);
    st.max_depth = 1000;
    CHECK_EQ_INT(skip(&st, deep, &at), IPI_JSON_DEPTH);
    CHECK_EQ_INT(at, 1000);
    free(deep);
    ipi_json_stack_free(&st);
}

int main(void)
{
    RUN(test_strings);
    RUN(test_decode);
    RUN(test_integers);
    RUN(test_skip);
    return check_done();
}
