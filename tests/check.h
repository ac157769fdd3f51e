/*
 * A minimal test harness: CHECK macros that record failures with file and
 * line and go on, RUN() to run one test function, and check_done() to
 * print the summary and give main() its exit code (77 = skipped, as meson
 * expects).
 */
#ifndef IPROF_TESTS_CHECK_H
#define IPROF_TESTS_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;
static int check_count;
static int check_tests_run;
static int check_tests_skipped;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        check_count++;                                                                \
        if (!(cond)) {                                                                \
            check_failures++;                                                         \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                             \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                  \
    do {                                                                                    \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);                     \
        check_count++;                                                                      \
        if (check_a_ != check_b_) {                                                         \
            check_failures++;                                                               \
            fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__, #a, \
                    #b, check_a_, check_b_);                                                \
        }                                                                                   \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                                    \
    do {                                                                                      \
        const char *check_a_ = (a), *check_b_ = (b);                                          \
        check_count++;                                                                        \
        if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_) != 0) {                     \
            check_failures++;                                                                 \
            fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", __FILE__, __LINE__, \
                    #a, #b, check_a_ ? check_a_ : "(null)", check_b_ ? check_b_ : "(null)");  \
        }                                                                                     \
    } while (0)

/* Compare n bytes (for buffers that are not NUL-terminated). */
#define CHECK_EQ_MEM(a, alen, b, blen)                                                     \
    do {                                                                                   \
        size_t check_al_ = (alen), check_bl_ = (blen);                                     \
        check_count++;                                                                     \
        if (check_al_ != check_bl_ || memcmp((a), (b), check_al_) != 0) {                  \
            check_failures++;                                                              \
            fprintf(stderr, "%s:%d: %s == %s failed: \"%.*s\" != \"%.*s\"\n", __FILE__,     \
                    __LINE__, #a, #b, (int)(check_al_ > 200 ? 200 : check_al_),            \
                    (const char *)(a), (int)(check_bl_ > 200 ? 200 : check_bl_),           \
                    (const char *)(b));                                                    \
        }                                                                                  \
    } while (0)

/* An iprof call that must return IPROF_OK. */
#define CHECK_OK(expr) CHECK_EQ_INT((expr), 0)

#define RUN(fn)                                     \
    do {                                            \
        fprintf(stderr, "-- %s\n", #fn);            \
        check_tests_run++;                          \
        fn();                                       \
    } while (0)

/* Call from a test that cannot run; it still counts as run. */
#define SKIP(why)                                                      \
    do {                                                               \
        fprintf(stderr, "SKIP %s: %s\n", __func__, (why));             \
        check_tests_skipped++;                                         \
        return;                                                        \
    } while (0)

/* What the tests need of the system, on POSIX and Windows alike (the
 * Windows suite: mingw-w64 under wine64, docs/architecture.md). mingw's
 * mkstemp opens its file denying any other open (_SH_DENYRW), which the
 * library's own open of the path would meet; CHECK_POSIX_ONLY skips, saying
 * why, a test of what Windows does not have (symbolic links as the tests
 * make them, fork, /dev/fd, file size limits). */
#ifdef _WIN32
#include <direct.h>
#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <process.h>
#include <sys/stat.h>
/* mingw's _mktemp makes 26 names per template and process, from the pid:
 * with wine's small, reused pids a test's leftovers from an earlier run
 * would exhaust them. Names from the pid and a counter, until one is new. */
static inline int check_temp_name(char *tmpl, int dir)
{
    static unsigned next; /* the tests make their names on one thread */
    size_t n = strlen(tmpl);
    if (n < 6 || strcmp(tmpl + n - 6, "XXXXXX") != 0)
        return -1;
    unsigned base = (unsigned)_getpid() * 40503u;
    for (int tries = 0; tries < 1 << 16; tries++) {
        snprintf(tmpl + n - 6, 7, "%06x", (base + next++) & 0xffffffu);
        int rc = dir ? _mkdir(tmpl)
                     : _open(tmpl, _O_RDWR | _O_CREAT | _O_EXCL | _O_BINARY, _S_IREAD | _S_IWRITE);
        if (rc >= 0 || errno != EEXIST)
            return rc;
    }
    return -1;
}
static inline int check_mkstemp(char *tmpl)
{
    return check_temp_name(tmpl, 0);
}
static inline char *check_mkdtemp(char *tmpl)
{
    return check_temp_name(tmpl, 1) == 0 ? tmpl : NULL;
}
static inline int check_pipe(int fds[2])
{
    return _pipe(fds, 1 << 16, _O_BINARY);
}
static inline int check_symlink(const char *to, const char *at)
{
    (void)to, (void)at; /* not reached: the tests that link say CHECK_POSIX_ONLY */
    return -1;
}
#define CHECK_POSIX_ONLY(why) SKIP("POSIX only (" why ")")
#else
#define check_symlink symlink
#define check_mkstemp mkstemp
#define check_mkdtemp mkdtemp
#define check_pipe pipe
#define CHECK_POSIX_ONLY(why) ((void)0)
#endif

static inline int check_done(void)
{
    fprintf(stderr, "%d checks, %d failed, %d tests, %d skipped\n", check_count, check_failures,
            check_tests_run, check_tests_skipped);
    if (check_failures)
        return 1;
    if (check_tests_run > 0 && check_tests_skipped == check_tests_run)
        return 77;
    return 0;
}

/* The folder of real profiles (../shared/corpus), from IPROF_CORPUS_DIR;
 * NULL when it is absent. */
static inline const char *check_corpus_dir(void)
{
    const char *d = getenv("IPROF_CORPUS_DIR");
    if (!d || !*d)
        return NULL;
    FILE *f;
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/README.md", d);
    f = fopen(probe, "rb");
    if (!f)
        return NULL;
    fclose(f);
    return d;
}

/* Read a whole file into malloc'd memory; NULL on failure. */
static inline char *check_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        *len = n;
    return buf;
}

/* A growable text buffer for building test documents: tx_add() appends
 * printf-style. Aborts on out-of-memory (tests only). */
typedef struct check_text {
    char *s;
    size_t len, cap;
} check_text;

#include <stdarg.h>

static inline void tx_add(check_text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static inline void tx_add(check_text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            abort();
        if (t->s && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap ? t->cap * 2 : 4096;
        while (cap <= t->len + (size_t)n)
            cap *= 2;
        char *ns = realloc(t->s, cap);
        if (!ns)
            abort();
        t->s = ns;
        t->cap = cap;
    }
}

#endif
