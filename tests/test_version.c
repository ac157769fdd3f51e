/* Library version and format versions: parsing, classification, and each
 * version's entry-section layout. */
#include <iprof/iprof.h>
#include <iprof/stream.h>

#include "check.h"
#include "job.h"
#include "rules.h"
#include "version.h"

static void test_library_version(void)
{
    CHECK_EQ_STR(iprof_version_string(), IPROF_VERSION_STRING);
    char buf[64];
    snprintf(buf, sizeof buf, "%d.%d.%d", IPROF_VERSION_MAJOR, IPROF_VERSION_MINOR,
             IPROF_VERSION_PATCH);
    CHECK_EQ_STR(iprof_version_string(), buf);
    CHECK_EQ_INT(IPROF_VERSION_NUMBER,
                 IPROF_VERSION_MAJOR * 10000 + IPROF_VERSION_MINOR * 100 + IPROF_VERSION_PATCH);
    CHECK(iprof_version_string() == iprof_version_string()); /* static storage */
}

#ifdef IPI_HAVE_THREADS
static void note_thread(void *arg)
{
    *(pthread_t *)arg = pthread_self();
}
#endif

/* What this build can do: gzip when meson found zlib, threads when it
 * found POSIX threads (lib/meson.build's IPI_HAVE_ZLIB and
 * IPI_HAVE_THREADS, which the internal tests are compiled with too), no
 * other bit. */
static void test_features(void)
{
    CHECK_EQ_INT(IPROF_FEATURE_GZIP, 0x1);
    CHECK_EQ_INT(IPROF_FEATURE_THREADS, 0x2);
    unsigned int want = 0;
#ifdef IPI_HAVE_ZLIB
    want |= IPROF_FEATURE_GZIP;
#endif
#ifdef IPI_HAVE_THREADS
    want |= IPROF_FEATURE_THREADS;
    /* And it means what it says: a threaded job runs on another thread. */
    pthread_t ran = pthread_self();
    ipi_job job;
    ipi_job_start(&job, note_thread, &ran, 1);
    ipi_job_wait(&job);
    CHECK(!pthread_equal(ran, pthread_self()));
#endif
    CHECK_EQ_INT(iprof_features(), want);
    fprintf(stderr, "features: gzip %d, threads %d\n",
            (iprof_features() & IPROF_FEATURE_GZIP) != 0,
            (iprof_features() & IPROF_FEATURE_THREADS) != 0);
}

static int parse(const char *s, ipi_fmtver *v)
{
    return ipi_version_parse(s, strlen(s), v);
}

static void test_parse(void)
{
    static const struct {
        const char *s;
        int64_t major, minor, patch;
    } good[] = {
        {"0.4.0", 0, 4, 0},
        {"1.0.0", 1, 0, 0},
        {"1.1.0", 1, 1, 0},
        {"10.20.30", 10, 20, 30},
        {"01.002.0003", 1, 2, 3},
        {"123456789012345678.0.1", 123456789012345678, 0, 1},
        {"0.0.0", 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        ipi_fmtver v = {-1, -1, -1};
        CHECK_OK(parse(good[i].s, &v));
        CHECK_EQ_INT(v.major, good[i].major);
        CHECK_EQ_INT(v.minor, good[i].minor);
        CHECK_EQ_INT(v.patch, good[i].patch);
    }
    static const char *const bad[] = {
        "",      "1",     "1.0",     "1.0.",    ".1.0",   "1..0",  "1.0.0.",
        "1.0.0.0", "a.b.c", "1.0.x", " 1.0.0", "1.0.0 ", "-1.0.0", "1.-1.0",
        "+1.0.0", "1,0,0", "v1.0.0", "9223372036854775808.0.0",
        "99999999999999999999.0.0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ipi_fmtver v;
        if (parse(bad[i], &v) != IPROF_EVERSION)
            fprintf(stderr, "accepted \"%s\"\n", bad[i]);
        CHECK_EQ_INT(parse(bad[i], &v), IPROF_EVERSION);
    }
    /* The length bounds the text: no NUL needed, nothing after it read. */
    ipi_fmtver v;
    CHECK_OK(ipi_version_parse("1.0.0garbage", 5, &v));
    CHECK_EQ_INT(v.major, 1);
    CHECK_EQ_INT(ipi_version_parse("1.0.0", 4, &v), IPROF_EVERSION);
    CHECK_EQ_INT(ipi_version_parse("1.0\0.0", 6, &v), IPROF_EVERSION);
}

static void test_classify(void)
{
    static const struct {
        const char *s;
        int cls;
        int instanceof;
    } cases[] = {
        {"0.4.0", IPI_VERSION_KNOWN, 0},   {"1.0.0", IPI_VERSION_KNOWN, 0},
        {"1.1.0", IPI_VERSION_KNOWN, 1},   {"0.3.0", IPI_VERSION_COMPAT, 0},
        {"0.4.1", IPI_VERSION_COMPAT, 0},  {"0.5.0", IPI_VERSION_COMPAT, 0},
        {"0.99.7", IPI_VERSION_COMPAT, 0}, {"1.0.5", IPI_VERSION_COMPAT, 0},
        {"1.1.1", IPI_VERSION_COMPAT, 1},  {"1.2.0", IPI_VERSION_COMPAT, 1},
        {"1.99.0", IPI_VERSION_COMPAT, 1}, {"0.2.0", IPI_VERSION_KNOWN, 0},
        {"0.2.9", IPI_VERSION_LEGACY_02, 0}, {"0.2.1", IPI_VERSION_LEGACY_02, 0},
        {"0.1.0", IPI_VERSION_LEGACY, 0},  {"0.1.9", IPI_VERSION_LEGACY, 0},
        {"0.0.0", IPI_VERSION_LEGACY, 0},  {"2.0.0", IPI_VERSION_FUTURE, 0},
        {"3.1.0", IPI_VERSION_FUTURE, 0},  {"100.0.0", IPI_VERSION_FUTURE, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ipi_fmtver v;
        CHECK_OK(parse(cases[i].s, &v));
        if (ipi_version_classify(&v) != cases[i].cls)
            fprintf(stderr, "classify %s\n", cases[i].s);
        CHECK_EQ_INT(ipi_version_classify(&v), cases[i].cls);
        CHECK_EQ_INT(ipi_version_has_instanceof(&v) != 0, cases[i].instanceof);
    }
    /* The public version macros are known versions. */
    static const char *const pub[] = {IPROF_FORMAT_0_2_0, IPROF_FORMAT_0_4_0,
                                      IPROF_FORMAT_1_0_0, IPROF_FORMAT_1_1_0,
                                      IPROF_FORMAT_LATEST};
    for (size_t i = 0; i < 5; i++) {
        ipi_fmtver v;
        CHECK_OK(parse(pub[i], &v));
        CHECK_EQ_INT(ipi_version_classify(&v), IPI_VERSION_KNOWN);
    }
    CHECK_EQ_STR(IPROF_FORMAT_LATEST, "1.1.0");
    CHECK_EQ_STR(IPROF_FORMAT_0_2_0, "0.2.0");
    /* The legacy layout is 0.2.x, and only that. */
    static const struct {
        const char *s;
        int legacy;
    } lay[] = {{"0.2.0", 1}, {"0.2.7", 1}, {"0.1.0", 0}, {"0.3.0", 0}, {"0.4.0", 0},
               {"1.2.0", 0}, {"2.2.0", 0}};
    for (size_t i = 0; i < sizeof lay / sizeof lay[0]; i++) {
        ipi_fmtver v;
        CHECK_OK(parse(lay[i].s, &v));
        CHECK_EQ_INT(ipi_version_is_legacy(&v), lay[i].legacy);
    }
}

/* The 0.2.0 keys of the kinds, and how a key of a 0.2.0 document reads. */
static void test_legacy_keys(void)
{
    CHECK_EQ_STR(ipi_legacy_kind_key(IPROF_KIND_CALL_COUNT), "hotnessPoints");
    CHECK_EQ_STR(ipi_legacy_kind_key(IPROF_KIND_CONDITIONAL), "conditionalPoints");
    CHECK_EQ_STR(ipi_legacy_kind_key(IPROF_KIND_VIRTUAL_INVOKE), "invokePoints");
    CHECK_EQ_STR(ipi_legacy_kind_key(IPROF_KIND_MONITOR), "monitorsProfile");
    CHECK(ipi_legacy_kind_key(IPROF_KIND_SAMPLING) == NULL);
    CHECK(ipi_legacy_kind_key(IPROF_KIND_INSTANCEOF) == NULL);
    CHECK(ipi_legacy_kind_key(-1) == NULL);
    CHECK(ipi_legacy_kind_key(IPROF_KIND_COUNT) == NULL);
    static const struct {
        const char *key;
        int sec;
    } cases[] = {
        {"hotnessPoints", IPROF_KIND_CALL_COUNT},
        {"conditionalPoints", IPROF_KIND_CONDITIONAL},
        {"invokePoints", IPROF_KIND_VIRTUAL_INVOKE},
        {"monitorsProfile", IPROF_KIND_MONITOR},
        {"version", IPROF_SECTION_VERSION},
        {"types", IPROF_SECTION_TYPES},
        {"methods", IPROF_SECTION_METHODS},
        {"callCountProfiles", IPI_SECTION_MODERN},
        {"monitorProfiles", IPI_SECTION_MODERN},
        {"samplingProfiles", IPI_SECTION_MODERN},
        {"instanceOfProfiles", IPI_SECTION_MODERN},
        {"instanceofProfiles", IPI_SECTION_MODERN},
        {"hotnessPoint", IPROF_SECTION_UNKNOWN},
        {"monitorsProfiles", IPROF_SECTION_UNKNOWN},
        {"x", IPROF_SECTION_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_EQ_INT(ipi_legacy_section_of(cases[i].key, strlen(cases[i].key)), cases[i].sec);
    /* A 1.x document reads the 0.2.0 keys as unknown ones. */
    CHECK_EQ_INT(ipi_section_of("hotnessPoints", 13), IPROF_SECTION_UNKNOWN);
    CHECK_EQ_INT(ipi_section_of("monitorsProfile", 15), IPROF_SECTION_UNKNOWN);
}

static void check_layout(const char *s, const int *expect, size_t n)
{
    ipi_fmtver v;
    CHECK_OK(parse(s, &v));
    int kinds[IPROF_KIND_COUNT] = {-1, -1, -1, -1, -1, -1};
    size_t got = ipi_version_layout(&v, kinds);
    CHECK_EQ_INT(got, n);
    for (size_t i = 0; i < n && i < got; i++)
        CHECK_EQ_INT(kinds[i], expect[i]);
}

static void test_layout(void)
{
    static const int v04[] = {IPROF_KIND_MONITOR, IPROF_KIND_VIRTUAL_INVOKE,
                              IPROF_KIND_CALL_COUNT, IPROF_KIND_CONDITIONAL,
                              IPROF_KIND_SAMPLING};
    static const int v10[] = {IPROF_KIND_CALL_COUNT, IPROF_KIND_CONDITIONAL,
                              IPROF_KIND_VIRTUAL_INVOKE, IPROF_KIND_MONITOR,
                              IPROF_KIND_SAMPLING, IPROF_KIND_INSTANCEOF};
    check_layout("0.4.0", v04, 5);
    check_layout("0.3.0", v04, 5);
    check_layout("0.5.2", v04, 5);
    check_layout("1.0.0", v10, 5);
    check_layout("1.0.9", v10, 5);
    check_layout("1.1.0", v10, 6);
    check_layout("1.4.0", v10, 6);
    static const int v02[] = {IPROF_KIND_CALL_COUNT, IPROF_KIND_CONDITIONAL,
                              IPROF_KIND_VIRTUAL_INVOKE, IPROF_KIND_MONITOR};
    check_layout("0.2.0", v02, 4);
    check_layout("0.2.3", v02, 4);

    /* Every layout lists each kind at most once. */
    static const char *const all[] = {"0.2.0", "0.4.0", "1.0.0", "1.1.0"};
    for (size_t i = 0; i < 4; i++) {
        ipi_fmtver v;
        CHECK_OK(parse(all[i], &v));
        int kinds[IPROF_KIND_COUNT];
        size_t n = ipi_version_layout(&v, kinds);
        int seen[IPROF_KIND_COUNT] = {0};
        for (size_t k = 0; k < n; k++) {
            CHECK(kinds[k] >= 0 && kinds[k] < IPROF_KIND_COUNT);
            if (kinds[k] >= 0 && kinds[k] < IPROF_KIND_COUNT)
                CHECK_EQ_INT(seen[kinds[k]]++, 0);
        }
    }
}

int main(void)
{
    RUN(test_library_version);
    RUN(test_features);
    RUN(test_parse);
    RUN(test_classify);
    RUN(test_layout);
    RUN(test_legacy_keys);
    return check_done();
}
