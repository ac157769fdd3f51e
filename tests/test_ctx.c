/* ctx text: parsing ("5:0<3:2", callee first) into interleaved frames and
 * printing back; negative bcis, int64 extremes, range and syntax errors
 * with the byte index of the problem, frame buffer growth, 10^5 frames,
 * allocation failure. */
#include <iprof/iprof.h>

#include "alloc.h"
#include "check.h"
#include "ctx.h"

static iprof_allocator libc_alloc;

/* Parse s; returns the status, frames in *out (caller frees with cap). */
static int parse(const char *s, int64_t **frames, size_t *cap, size_t *count, size_t *err_at)
{
    return ipi_ctx_parse(s, strlen(s), frames, cap, count, err_at, &libc_alloc);
}

static void free_frames(int64_t *frames, size_t cap)
{
    ipi_free(&libc_alloc, frames, cap * 2 * sizeof *frames);
}

static void test_parse_good(void)
{
    static const struct {
        const char *s;
        size_t n;
        int64_t f[8];
        const char *canonical; /* the printed form, NULL: same as s */
    } cases[] = {
        {"0:0", 1, {0, 0}, NULL},
        {"5:0<3:2", 2, {5, 0, 3, 2}, NULL},
        {"5:0<3:2<2:2<1:3", 4, {5, 0, 3, 2, 2, 2, 1, 3}, NULL},
        {"7:-1", 1, {7, -1}, NULL},
        {"1:-4<2:-6", 2, {1, -4, 2, -6}, NULL},
        {"19547:11<19551:9", 2, {19547, 11, 19551, 9}, NULL},
        {"9223372036854775807:9223372036854775807", 1, {INT64_MAX, INT64_MAX}, NULL},
        {"0:-9223372036854775808", 1, {0, INT64_MIN}, NULL},
        {"007:-0<00:010", 2, {7, 0, 0, 10}, "7:0<0:10"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t *frames = NULL;
        size_t cap = 0, count = 99, err = 99;
        int rc = parse(cases[i].s, &frames, &cap, &count, &err);
        if (rc)
            fprintf(stderr, "failed to parse \"%s\"\n", cases[i].s);
        CHECK_EQ_INT(rc, IPI_CTX_OK);
        CHECK_EQ_INT(count, cases[i].n);
        CHECK(cap >= count);
        for (size_t k = 0; k < 2 * cases[i].n && k < 2 * count; k++)
            CHECK_EQ_INT(frames[k], cases[i].f[k]);
        /* printed back */
        char out[IPI_CTX_MAX_CHARS(4)];
        size_t len = ipi_ctx_format(out, frames, count);
        const char *want = cases[i].canonical ? cases[i].canonical : cases[i].s;
        CHECK_EQ_MEM(out, len, want, strlen(want));
        free_frames(frames, cap);
    }
}

static void test_parse_errors(void)
{
    static const struct {
        const char *s;
        int rc;
        size_t at;
    } cases[] = {
        {"", IPI_CTX_SYNTAX, 0},
        {"5", IPI_CTX_SYNTAX, 1},
        {"5:", IPI_CTX_SYNTAX, 2},
        {"5:-", IPI_CTX_SYNTAX, 2}, /* the start of the bad number */
        {":0", IPI_CTX_SYNTAX, 0},
        {"-5:0", IPI_CTX_SYNTAX, 0}, /* method ids are unsigned */
        {"+5:0", IPI_CTX_SYNTAX, 0},
        {"5:+0", IPI_CTX_SYNTAX, 2},
        {"5:0<", IPI_CTX_SYNTAX, 4},
        {"5:0<<3:2", IPI_CTX_SYNTAX, 4},
        {"5:0x", IPI_CTX_SYNTAX, 3},
        {"5:0 ", IPI_CTX_SYNTAX, 3},
        {" 5:0", IPI_CTX_SYNTAX, 0},
        {"5:0,3:2", IPI_CTX_SYNTAX, 3}, /* the legacy separator */
        {"5:0<3", IPI_CTX_SYNTAX, 5},
        {"5:0<3:2:1", IPI_CTX_SYNTAX, 7},
        {"5;0", IPI_CTX_SYNTAX, 1},
        {"a:0", IPI_CTX_SYNTAX, 0},
        {"5:1.5", IPI_CTX_SYNTAX, 3},
        {"9223372036854775808:0", IPI_CTX_RANGE, 18},
        {"1:9223372036854775808", IPI_CTX_RANGE, 20},
        {"1:-9223372036854775809", IPI_CTX_RANGE, 21},
        {"1:0<99999999999999999999:0", IPI_CTX_RANGE, 22},
        {"1:0<2:-99999999999999999999", IPI_CTX_RANGE, 25},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t *frames = NULL;
        size_t cap = 0, count = 0, err = 12345;
        int rc = parse(cases[i].s, &frames, &cap, &count, &err);
        if (rc != cases[i].rc || err != cases[i].at)
            fprintf(stderr, "case \"%s\": rc %d at %zu\n", cases[i].s, rc, err);
        CHECK_EQ_INT(rc, cases[i].rc);
        CHECK_EQ_INT(err, cases[i].at);
        free_frames(frames, cap);
    }
    /* The length bounds the text. */
    int64_t *frames = NULL;
    size_t cap = 0, count = 0, err = 0;
    CHECK_EQ_INT(ipi_ctx_parse("5:0<3:2", 3, &frames, &cap, &count, &err, &libc_alloc),
                 IPI_CTX_OK);
    CHECK_EQ_INT(count, 1);
    CHECK_EQ_INT(ipi_ctx_parse("5:0<3:2", 4, &frames, &cap, &count, &err, &libc_alloc),
                 IPI_CTX_SYNTAX);
    CHECK_EQ_INT(err, 4);
    CHECK_EQ_INT(ipi_ctx_parse("5:0\0003:2", 5, &frames, &cap, &count, &err, &libc_alloc),
                 IPI_CTX_SYNTAX);
    CHECK_EQ_INT(err, 3);
    free_frames(frames, cap);
}

/* 0.2.0's methodBciList: the same frames joined by ',' (innermost first,
 * as in 1.x), printed back with ','; '<' is not its separator. */
static void test_legacy(void)
{
    int64_t *frames = NULL;
    size_t cap = 0, count = 0, err = 0;
    static const char text[] = "40159:0,40315:20,4710:-6";
    CHECK_EQ_INT(ipi_ctx_parse_sep(text, strlen(text), ',', &frames, &cap, &count, &err,
                                   &libc_alloc),
                 IPI_CTX_OK);
    CHECK_EQ_INT(count, 3);
    static const int64_t want[] = {40159, 0, 40315, 20, 4710, -6};
    for (size_t k = 0; k < 6 && k < 2 * count; k++)
        CHECK_EQ_INT(frames[k], want[k]);
    char out[IPI_CTX_MAX_CHARS(3)];
    size_t len = ipi_ctx_format_sep(out, frames, count, ',');
    CHECK_EQ_MEM(out, len, text, strlen(text));
    len = ipi_ctx_format_sep(out, frames, count, '<');
    CHECK_EQ_MEM(out, len, "40159:0<40315:20<4710:-6", 24);
    CHECK_EQ_INT(ipi_ctx_parse_sep("5:0<3:2", 7, ',', &frames, &cap, &count, &err, &libc_alloc),
                 IPI_CTX_SYNTAX);
    CHECK_EQ_INT(err, 3);
    CHECK_EQ_INT(ipi_ctx_parse_sep("5:0,", 4, ',', &frames, &cap, &count, &err, &libc_alloc),
                 IPI_CTX_SYNTAX);
    CHECK_EQ_INT(err, 4);
    CHECK_EQ_INT(ipi_ctx_parse_sep("-5:0", 4, ',', &frames, &cap, &count, &err, &libc_alloc),
                 IPI_CTX_SYNTAX);
    CHECK_EQ_INT(err, 0);
    free_frames(frames, cap);
}

static void test_growth(void)
{
    /* Past the first capacity (8 frames), reusing one buffer. */
    int64_t *frames = NULL;
    size_t cap = 0;
    char text[4096];
    for (size_t n = 1; n <= 40; n++) {
        char *p = text;
        for (size_t i = 0; i < n; i++)
            p += sprintf(p, "%s%zu:%d", i ? "<" : "", i * 7, (int)i - 3);
        size_t count = 0, err = 0;
        size_t before = cap;
        CHECK_EQ_INT(ipi_ctx_parse(text, (size_t)(p - text), &frames, &cap, &count, &err,
                                   &libc_alloc),
                     IPI_CTX_OK);
        CHECK_EQ_INT(count, n);
        CHECK(cap >= n && cap >= before);
        int bad = 0;
        for (size_t i = 0; i < n; i++)
            if (frames[2 * i] != (int64_t)(i * 7) || frames[2 * i + 1] != (int64_t)i - 3)
                bad++;
        CHECK_EQ_INT(bad, 0);
        char out[IPI_CTX_MAX_CHARS(40)];
        size_t len = ipi_ctx_format(out, frames, count);
        CHECK_EQ_MEM(out, len, text, (size_t)(p - text));
    }
    free_frames(frames, cap);
}

static void test_many_frames(void)
{
    const size_t n = 100000;
    size_t size = IPI_CTX_MAX_CHARS(n);
    char *text = malloc(size);
    int64_t *in = malloc(n * 2 * sizeof *in);
    if (!text || !in) {
        free(text);
        free(in);
        SKIP("no memory");
    }
    for (size_t i = 0; i < n; i++) {
        in[2 * i] = (int64_t)(i * 2654435761u % 1000000007u);
        in[2 * i + 1] = i % 3 == 0 ? -(int64_t)i : i % 3 == 1 ? INT64_MIN : INT64_MAX;
    }
    in[0] = INT64_MAX;
    size_t len = ipi_ctx_format(text, in, n);
    CHECK(len <= size);
    int64_t *frames = NULL;
    size_t cap = 0, count = 0, err = 0;
    CHECK_EQ_INT(ipi_ctx_parse(text, len, &frames, &cap, &count, &err, &libc_alloc), IPI_CTX_OK);
    CHECK_EQ_INT(count, n);
    CHECK(count == n && memcmp(frames, in, n * 2 * sizeof *in) == 0);
    free_frames(frames, cap);

    /* The worst case really fits the bound. */
    for (size_t i = 0; i < 2 * n; i++)
        in[i] = INT64_MIN;
    for (size_t i = 0; i < n; i++)
        in[2 * i] = INT64_MAX;
    len = ipi_ctx_format(text, in, n);
    CHECK(len <= size);
    CHECK_EQ_INT(len, n * (19 + 1 + 20) + (n - 1));
    free(text);
    free(in);
}

/* Allocation failure while growing: IPROF_ENOMEM, the buffer intact. */
static long fail_after;
static void *f_malloc(size_t size, void *user)
{
    (void)user;
    return fail_after-- > 0 ? malloc(size) : NULL;
}
static void *f_realloc(void *p, size_t old_size, size_t new_size, void *user)
{
    (void)user;
    (void)old_size;
    return fail_after-- > 0 ? realloc(p, new_size) : NULL;
}
static void f_free(void *p, size_t size, void *user)
{
    (void)user;
    (void)size;
    free(p);
}

static void test_alloc_failure(void)
{
    iprof_allocator user = {f_malloc, f_realloc, f_free, NULL};
    char text[2048];
    char *p = text;
    for (int i = 0; i < 100; i++)
        p += sprintf(p, "%s%d:%d", i ? "<" : "", i, i);
    for (long allowed = 0; allowed < 8; allowed++) {
        fail_after = allowed;
        int64_t *frames = NULL;
        size_t cap = 0, count = 0, err = 0;
        int rc = ipi_ctx_parse(text, (size_t)(p - text), &frames, &cap, &count, &err, &user);
        CHECK(rc == IPROF_ENOMEM || rc == IPI_CTX_OK);
        if (rc == IPI_CTX_OK)
            CHECK_EQ_INT(count, 100);
        else
            CHECK(cap < 100);
        free(frames);
    }
}

int main(void)
{
    ipi_allocator_init(&libc_alloc, NULL);
    RUN(test_parse_good);
    RUN(test_parse_errors);
    RUN(test_legacy);
    RUN(test_growth);
    RUN(test_many_frames);
    RUN(test_alloc_failure);
    return check_done();
}
