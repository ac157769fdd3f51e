/*
 * Salvaging damaged profiles: IPROF_READ_SALVAGE model loads keep every
 * element complete before the damage (truncation, a garbage byte, a rule a
 * strict read refuses, truncated gzip data) from every source, threaded or
 * not, and report it (iprof_reader_get_result: damage, kept_end);
 * iprof_model_prune(IPROF_PRUNE_DANGLING) removes what the damage left
 * dangling. The
 * property: at every truncation point of a small real profile (cut from a
 * corpus file inside the test), at every element boundary +-2 bytes of a
 * whole corpus file, and with a garbage byte at many places, the salvaged
 * model writes strictly, reads back strictly, and is a subset of the
 * original. Corpus parts skip, saying so, without IPROF_CORPUS_DIR.
 */
#include <iprof/iprof.h>
#include <iprof/transform.h>

#include <fcntl.h>
#include <unistd.h>

#include "check.h"
#include "check_api.h"
#include "check_alloc.h"

/* tests/data/graal-1.0.0.iprof */
static const char DOC[] =
    "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"},{\"id\":1,\"name\":\"A\"}],"
    "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[1,0]},{\"id\":2,\"name\":\"n\","
    "\"signature\":[1,0,1]}],\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[3]},"
    "{\"ctx\":\"2:0<1:4\",\"records\":[23929230826]}],\"conditionalProfiles\":[{\"ctx\":"
    "\"1:5\",\"records\":[9,0,2,-1,1,1]}],\"virtualInvokeProfiles\":[{\"ctx\":\"2:7<1:4\","
    "\"records\":[1,3]}],\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[1,2]}],"
    "\"samplingProfiles\":[{\"ctx\":\"2:3<1:-1\",\"records\":[4]}]}";

static iprof_reader *reader_with(unsigned flags, const iprof_allocator *a)
{
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.flags = flags;
    o.allocator = a;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    return r;
}

/* "types methods cc cond vi mon samp iof" counts of a model. */
static void counts(const iprof_model *m, char *out, size_t cap)
{
    int n = snprintf(out, cap, "%zu %zu", iprof_model_type_count(m), iprof_model_method_count(m));
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        n += snprintf(out + n, cap - (size_t)n, " %zu", iprof_model_entry_count(m, k));
}

/* The model written strictly, or NULL with *rc the failure. malloc'd. */
static char *write_strict(const iprof_model *m, size_t *len, int *rc)
{
    iprof_writer *w = NULL;
    const void *d;
    char *out = NULL;
    *rc = iprof_writer_new(&w, SINK_BUFFER, NULL);
    if (*rc == IPROF_OK)
        *rc = iprof_writer_write_model(w, m);
    if (*rc == IPROF_OK && iprof_writer_buffer(w, &d, len) == IPROF_OK) {
        out = malloc(*len + 1);
        memcpy(out, d, *len);
        out[*len] = '\0';
    }
    iprof_writer_free(w);
    return out;
}

/* ---- the flag on a hand-written document ------------------------------ */

static int read_chunks(void *buf, size_t cap, size_t *len, void *payload)
{
    const char **p = payload; /* [0] next byte, [1] end */
    size_t n = (size_t)(p[1] - p[0]);
    if (n > 7)
        n = 7; /* small reads: elements span refills */
    if (n > cap)
        n = cap;
    memcpy(buf, p[0], n);
    p[0] += n;
    *len = n;
    return 0;
}

/* Load DOC cut to `len` bytes through source `how` (0 buffer, 1 path, 2 fd,
 * 3 callback). */
static int load_cut(iprof_model **m, iprof_reader *r, size_t len, int how)
{
    if (how == 0)
        return iprof_model_load(m, r, SRC_BUFFER(DOC, len));
    if (how == 3) {
        const char *p[2] = {DOC, DOC + len};
        return iprof_model_load(m, r, SRC_CALLBACK(read_chunks, p));
    }
    char path[] = "/tmp/test_salvage_XXXXXX";
    int fd = check_mkstemp(path);
    CHECK(fd >= 0);
    CHECK_EQ_INT(write(fd, DOC, len), (long long)len);
    lseek(fd, 0, SEEK_SET);
    int rc = how == 1 ? iprof_model_load(m, r, SRC_PATH(path)) : iprof_model_load(m, r, SRC_FD(fd));
    close(fd);
    unlink(path);
    return rc;
}

static void test_truncated_every_source(void)
{
    static const unsigned modes[] = {0, IPROF_READ_STRICT, IPROF_READ_THREADED,
                                     IPROF_READ_STRICT | IPROF_READ_THREADED};
    for (size_t mode = 0; mode < 4; mode++)
        for (int how = 0; how < 4; how++) {
            iprof_reader *r = reader_with(IPROF_READ_SALVAGE | modes[mode], NULL);
            iprof_model *m = NULL;
            char c[128];
            /* Cut inside the monitor entry's records. */
            CHECK_OK(load_cut(&m, r, 420, how));
            const iprof_error *d = read_result(r).damage;
            CHECK(d != NULL && d == iprof_reader_error(r));
            CHECK_EQ_INT(err_info(d).status, IPROF_ESYNTAX);
            CHECK_EQ_INT(err_info(d).offset, 420);
            CHECK_EQ_INT(err_info(d).line, 1);
            CHECK_EQ_INT(err_info(d).column, 421);
            CHECK_EQ_STR(err_info(d).path, "monitorProfiles[0].records[0]");
            CHECK_EQ_STR(err_info(d).message, "unexpected end of input");
            CHECK_EQ_INT(read_result(r).kept_end, 375); /* after virtualInvokeProfiles' ] */
            counts(m, c, sizeof c);
            CHECK_EQ_STR(c, "2 2 2 1 1 0 0 0");
            CHECK_EQ_STR(iprof_model_version(m), "1.0.0");
            size_t len;
            int rc;
            char *out = write_strict(m, &len, &rc);
            CHECK_OK(rc);
            CHECK_EQ_STR(out, "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"},"
                              "{\"id\":1,\"name\":\"A\"}],\"methods\":[{\"id\":1,\"name\":\"m\","
                              "\"signature\":[1,0]},{\"id\":2,\"name\":\"n\",\"signature\":[1,0,"
                              "1]}],\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[3]},{"
                              "\"ctx\":\"2:0<1:4\",\"records\":[23929230826]}],"
                              "\"conditionalProfiles\":[{\"ctx\":\"1:5\",\"records\":[9,0,2,-1,1,"
                              "1]}],\"virtualInvokeProfiles\":[{\"ctx\":\"2:7<1:4\",\"records\":"
                              "[1,3]}],\"monitorProfiles\":[],\"samplingProfiles\":[]}");
            free(out);
            iprof_model_free(m);
            /* Cut inside the second callCount entry: the first is kept. */
            m = NULL;
            CHECK_OK(load_cut(&m, r, 230, how));
            counts(m, c, sizeof c);
            CHECK_EQ_STR(c, "2 2 1 0 0 0 0 0");
            CHECK_EQ_INT(read_result(r).kept_end, 209);
            CHECK_EQ_STR(err_info(read_result(r).damage).path, "callCountProfiles[1]");
            iprof_model_free(m);
            /* The whole document: nothing damaged. */
            m = NULL;
            CHECK_OK(load_cut(&m, r, sizeof DOC - 1, how));
            CHECK(read_result(r).damage == NULL);
            CHECK(iprof_reader_error(r) == NULL);
            CHECK_EQ_INT(read_result(r).kept_end, sizeof DOC - 1);
            counts(m, c, sizeof c);
            CHECK_EQ_STR(c, "2 2 2 1 1 1 1 0");
            iprof_model_free(m);
            iprof_reader_free(r);
        }
}

static void test_without_flag_fails(void)
{
    iprof_reader *r = reader_with(0, NULL);
    iprof_model *m = (iprof_model *)1;
    CHECK_EQ_INT(iprof_model_load(&m, r, SRC_BUFFER(DOC, 420)), IPROF_ESYNTAX);
    CHECK(m == NULL);
    CHECK(read_result(r).damage == NULL);
    CHECK_EQ_INT(err_info(iprof_reader_error(r)).offset, 420);
    CHECK_EQ_INT(read_result(r).kept_end, 375); /* streaming reads know it too */
    iprof_reader_free(r);
    /* The flag is checked like the others; a NULL reader has no result. */
    iprof_read_result res = IPROF_READ_RESULT_INIT;
    CHECK_EQ_INT(iprof_reader_get_result(NULL, &res), IPROF_EINVAL);
    CHECK(res.damage == NULL);
    CHECK_EQ_INT(res.kept_end, 0);
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.flags = 0x10u;
    CHECK_EQ_INT(iprof_reader_new(&r, &o), IPROF_EINVAL);
}

static void test_before_version(void)
{
    static const char *docs[] = {
        "", "{", "{\"versi", "{\"version\":\"1.0", "{\"version\":\"7.0.0\",\"types\":[]",
        "{\"types\":[{\"id\":0,\"name\":\"int\"}],\"version\"", "[1,2]"};
    iprof_reader *r = reader_with(IPROF_READ_SALVAGE, NULL);
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        iprof_model *m = (iprof_model *)1;
        int rc = iprof_model_load(&m, r, SRC_BUFFER(docs[i], strlen(docs[i])));
        CHECK(rc != IPROF_OK);
        CHECK(m == NULL);
        CHECK(read_result(r).damage == NULL);
        CHECK(iprof_reader_error(r) != NULL);
    }
    iprof_reader_free(r);
}

/* A garbage byte, and an element a strict read refuses (a duplicate id):
 * what comes before is kept, nothing after. */
static void test_corruption(void)
{
    char doc[sizeof DOC];
    memcpy(doc, DOC, sizeof DOC);
    doc[250] = '\x01'; /* in the second callCount entry's records */
    iprof_reader *r = reader_with(IPROF_READ_SALVAGE | IPROF_READ_STRICT, NULL);
    iprof_model *m = NULL;
    char c[128];
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(doc, sizeof doc - 1)));
    CHECK_EQ_INT(err_info(read_result(r).damage).offset, 250);
    CHECK_EQ_INT(err_info(read_result(r).damage).status, IPROF_ESYNTAX);
    counts(m, c, sizeof c);
    CHECK_EQ_STR(c, "2 2 1 0 0 0 0 0");
    iprof_model_free(m);
    static const char dup[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"},{\"id\":0,\"name\":\"B\"},"
        "{\"id\":1,\"name\":\"A\"}],\"methods\":[],\"callCountProfiles\":[]}";
    m = NULL;
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(dup, sizeof dup - 1)));
    CHECK_EQ_INT(err_info(read_result(r).damage).status, IPROF_ESCHEMA);
    CHECK_EQ_STR(err_info(read_result(r).damage).path, "types[1].id");
    counts(m, c, sizeof c);
    CHECK_EQ_STR(c, "1 0 0 0 0 0 0 0");
    iprof_model_free(m);
    iprof_reader_free(r);
    /* Lenient: the duplicate is a diagnostic, not damage. */
    r = reader_with(IPROF_READ_SALVAGE, NULL);
    m = NULL;
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(dup, sizeof dup - 1)));
    CHECK(read_result(r).damage == NULL);
    CHECK_EQ_INT(read_result(r).diag_count, 1);
    iprof_model_free(m);
    iprof_reader_free(r);
}

/* References that wait for a later section are never checked when the
 * damage comes first: the writer refuses them until they are dropped. */
/* iprof_model_prune(IPROF_PRUNE_DANGLING) with what it took out: the
 * methods and the entries of each kind, counted before minus after. */
static int prune_dangling(iprof_model *m, size_t *methods, size_t entries[IPROF_KIND_COUNT])
{
    size_t before[IPROF_KIND_COUNT];
    size_t methods_before = iprof_model_method_count(m);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        before[k] = iprof_model_entry_count(m, k);
    int rc = iprof_model_prune(m, IPROF_PRUNE_DANGLING);
    *methods = methods_before - iprof_model_method_count(m);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        entries[k] = before[k] - iprof_model_entry_count(m, k);
    return rc;
}

static void test_dangling(void)
{
    static const char doc[] =
        "{\"version\":\"1.0.0\",\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[3]},"
        "{\"ctx\":\"2:0<1:4\",\"records\":[5]},{\"ctx\":\"3:0\",\"records\":[7]}],"
        "\"virtualInvokeProfiles\":[{\"ctx\":\"1:2\",\"records\":[0,1,7,2]},{\"ctx\":\"1:3\","
        "\"records\":[0,1]}],\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[1,9]}],"
        "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[1,0]},{\"id\":3,\"name\":"
        "\"q\",\"signature\":[1,9]}],\"types\":[{\"id\":0,\"name\":\"int\"},{\"id\":1,"
        "\"name\":\"A\"},{\"id\":5,\"na";
    iprof_reader *r = reader_with(IPROF_READ_SALVAGE | IPROF_READ_STRICT, NULL);
    iprof_model *m = NULL;
    char c[128];
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(doc, sizeof doc - 1)));
    CHECK_EQ_STR(err_info(read_result(r).damage).path, "types[2]");
    counts(m, c, sizeof c);
    CHECK_EQ_STR(c, "2 2 3 0 2 1 0 0");
    size_t len = 0;
    int rc;
    char *out = write_strict(m, &len, &rc);
    CHECK(out == NULL);
    CHECK_EQ_INT(rc, IPROF_EDANGLING);
    size_t methods = 99, entries[IPROF_KIND_COUNT];
    CHECK_OK(prune_dangling(m, &methods, entries));
    CHECK_EQ_INT(methods, 1);                                /* q: type 9 */
    CHECK_EQ_INT(entries[IPROF_KIND_CALL_COUNT], 2);         /* methods 2 and 3 */
    CHECK_EQ_INT(entries[IPROF_KIND_VIRTUAL_INVOKE], 1);     /* type 7 */
    CHECK_EQ_INT(entries[IPROF_KIND_MONITOR], 0);            /* the dummy frame stays */
    CHECK_EQ_INT(entries[IPROF_KIND_CONDITIONAL] + entries[IPROF_KIND_SAMPLING] +
                     entries[IPROF_KIND_INSTANCEOF], 0);
    out = write_strict(m, &len, &rc);
    CHECK_OK(rc);
    CHECK_EQ_STR(out, "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"int\"},{\"id\":1,"
                      "\"name\":\"A\"}],\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[1,"
                      "0]}],\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[3]}],"
                      "\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[{\"ctx\":\"1:3\","
                      "\"records\":[0,1]}],\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[1,"
                      "9]}],\"samplingProfiles\":[]}");
    free(out);
    /* Nothing more dangles. */
    CHECK_OK(iprof_model_prune(m, IPROF_PRUNE_DANGLING));
    CHECK_OK(prune_dangling(m, &methods, entries));
    CHECK_EQ_INT(methods, 0);
    CHECK_EQ_INT(entries[IPROF_KIND_CALL_COUNT], 0);
    CHECK_EQ_INT(iprof_model_prune(NULL, IPROF_PRUNE_DANGLING), IPROF_EINVAL);
    iprof_model_free(m);
    iprof_reader_free(r);
}

static void test_gzip_truncated(void)
{
    if (!(iprof_features() & IPROF_FEATURE_GZIP))
        SKIP("built without zlib");
    const char *src = getenv("IPROF_SOURCE_DIR");
    if (!src)
        SKIP("IPROF_SOURCE_DIR is not set");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/data/graal-1.0.0.iprof.gz", src);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f)
        return;
    unsigned char gz[4096];
    size_t n = fread(gz, 1, sizeof gz, f);
    fclose(f);
    iprof_reader *r = reader_with(IPROF_READ_SALVAGE | IPROF_READ_STRICT, NULL);
    iprof_model *m = NULL;
    char c[128];
    /* The deflate stream cut before its end: what was inflated is read. */
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(gz, 200)));
    const iprof_error *d = read_result(r).damage;
    CHECK(d != NULL);
    CHECK(strncmp(err_info(d).message, "truncated gzip data", 19) == 0);
    CHECK_EQ_INT(err_info(d).status, IPROF_ESYNTAX);
    counts(m, c, sizeof c);
    CHECK_EQ_STR(c, "2 2 2 1 0 0 0 0");
    iprof_model_free(m);
    /* Only the trailer missing: every element is kept, the damage stays. */
    m = NULL;
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(gz, n - 4)));
    CHECK(read_result(r).damage != NULL);
    CHECK_EQ_INT(err_info(read_result(r).damage).offset, sizeof DOC - 1);
    counts(m, c, sizeof c);
    CHECK_EQ_STR(c, "2 2 2 1 1 1 1 0");
    iprof_model_free(m);
    iprof_reader_free(r);
}

/* Every allocation failure of a salvaging load: ENOMEM with nothing
 * kept and nothing leaked, or the salvaged model. */
static void test_alloc_failure(void)
{
    for (unsigned threaded = 0; threaded < 2; threaded++)
        for (long n = 1;; n++) {
            fail_alloc fa = {0};
            fa.fail_at = n;
            iprof_allocator a = fail_hook(&fa);
            iprof_read_options o = IPROF_READ_OPTIONS_INIT;
            o.flags = IPROF_READ_SALVAGE | (threaded ? IPROF_READ_THREADED : 0);
            o.allocator = &a;
            iprof_reader *r = NULL;
            if (iprof_reader_new(&r, &o) != IPROF_OK) {
                CHECK_EQ_INT(fa.live_blocks, 0);
                continue;
            }
            iprof_model *m = NULL;
            int rc = iprof_model_load(&m, r, SRC_BUFFER(DOC, 420));
            if (rc == IPROF_OK) {
                char c[128];
                counts(m, c, sizeof c);
                CHECK_EQ_STR(c, "2 2 2 1 1 0 0 0");
                CHECK(read_result(r).damage != NULL);
            } else {
                CHECK_EQ_INT(rc, IPROF_ENOMEM);
                CHECK(m == NULL);
                CHECK(read_result(r).damage == NULL);
            }
            iprof_model_free(m);
            iprof_reader_free(r);
            CHECK_EQ_INT(fa.live_blocks, 0);
            if (!fa.failed)
                break;
        }
}

/* ---- the property on real profiles ------------------------------------ */

/* Whether every type, method and entry of `part` is in `whole` with the
 * same names and records. */
static int is_subset(const iprof_model *part, const iprof_model *whole)
{
    for (size_t i = 0; i < iprof_model_type_count(part); i++) {
        const iprof_type *t = iprof_model_type_at(part, i);
        const iprof_type *o = iprof_model_type_by_id(whole, iprof_type_id(t));
        size_t a, b;
        if (!o)
            return 0;
        const char *na = iprof_type_name(t, &a), *nb = iprof_type_name(o, &b);
        if (a != b || memcmp(na, nb, a))
            return 0;
    }
    for (size_t i = 0; i < iprof_model_method_count(part); i++) {
        const iprof_method *x = iprof_model_method_at(part, i);
        const iprof_method *o = iprof_model_method_by_id(whole, iprof_method_id(x));
        size_t a, b, sa, sb;
        if (!o)
            return 0;
        const char *na = iprof_method_name(x, &a), *nb = iprof_method_name(o, &b);
        const int64_t *ga = iprof_method_signature(x, &sa), *gb = iprof_method_signature(o, &sb);
        if (a != b || memcmp(na, nb, a) || sa != sb || memcmp(ga, gb, sa * sizeof *ga))
            return 0;
    }
    int64_t frames[2 * 512];
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        for (size_t i = 0; i < iprof_model_entry_count(part, k); i++) {
            const iprof_entry *e = iprof_model_entry_at(part, k, i);
            size_t n = iprof_context_frames(iprof_entry_context(e), frames, 512);
            if (n > 512)
                return 0;
            const iprof_entry *o = iprof_model_entry_find(whole, k, frames, n);
            size_t ra, rb;
            if (!o)
                return 0;
            const int64_t *a = iprof_entry_records(e, &ra), *b = iprof_entry_records(o, &rb);
            if (ra != rb || memcmp(a, b, ra * sizeof *a))
                return 0;
        }
    return 1;
}

static size_t total_elements(const iprof_model *m)
{
    size_t n = iprof_model_type_count(m) + iprof_model_method_count(m);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        n += iprof_model_entry_count(m, k);
    return n;
}

typedef struct prop {
    iprof_reader *salvage, *strict;
    const iprof_model *whole;
    size_t loads, salvaged, refused;
    int failed; /* stop reporting after the first failure */
} prop;

/* Salvage data[0, len): refused only before the version; else, once the
 * dangling is dropped, written strictly, read back strictly, a subset of
 * the whole. The elements kept, or 0. */
static size_t check_salvage(prop *p, const char *data, size_t len)
{
    iprof_model *m = NULL;
    p->loads++;
    int rc = iprof_model_load(&m, p->salvage, SRC_BUFFER(data, len));
    if (rc != IPROF_OK) {
        p->refused++;
        return 0;
    }
    if (read_result(p->salvage).damage)
        p->salvaged++;
    size_t kept = 0, out_len = 0;
    CHECK_OK(iprof_model_prune(m, IPROF_PRUNE_DANGLING));
    char *out = write_strict(m, &out_len, &rc);
    int ok = rc == IPROF_OK;
    iprof_model *back = NULL;
    if (ok)
        ok = iprof_model_load(&back, p->strict, SRC_BUFFER(out, out_len)) == IPROF_OK;
    ok = ok && is_subset(m, p->whole) && total_elements(back) == total_elements(m);
    if (!ok && !p->failed) {
        p->failed = 1;
        fprintf(stderr, "salvage of %zu bytes: write %d, subset %d\n", len, rc,
                is_subset(m, p->whole));
    }
    CHECK(ok);
    kept = total_elements(m);
    free(out);
    iprof_model_free(back);
    iprof_model_free(m);
    return kept;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    *len = fread(buf, 1, (size_t)n, f);
    fclose(f);
    return buf;
}

/* Keeps the first entries of each kind: payload is the number left to
 * keep, per kind. */
static int keep_first_entries(const iprof_entry *e, void *payload)
{
    size_t *left = (size_t *)payload + iprof_entry_kind(e);
    if (*left == 0)
        return 0;
    --*left;
    return 1;
}

/* A small real profile: the first entries of each kind of a corpus model
 * and the methods and types they need. */
static iprof_model *cut_model(iprof_model *m, size_t entries)
{
    size_t left[IPROF_KIND_COUNT];
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        left[k] = entries;
    iprof_filter_options fo = IPROF_FILTER_OPTIONS_INIT;
    fo.keep_entry = keep_first_entries;
    fo.payload = left;
    CHECK_OK(iprof_model_filter(m, &fo));
    CHECK_OK(iprof_model_prune(m, IPROF_PRUNE_METHODS | IPROF_PRUNE_TYPES));
    return m;
}

#define CORPUS_FILE "jsonata-cli-0.4.0.iprof"

static iprof_model *load_corpus(char **data, size_t *len)
{
    const char *dir = getenv("IPROF_CORPUS_DIR");
    char path[1024];
    if (!dir)
        return NULL;
    snprintf(path, sizeof path, "%s/%s", dir, CORPUS_FILE);
    *data = read_file(path, len);
    if (!*data)
        return NULL;
    iprof_reader *r = reader_with(IPROF_READ_STRICT, NULL);
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(*data, *len)));
    iprof_reader_free(r);
    return m;
}

static void prop_open(prop *p, const iprof_model *whole)
{
    memset(p, 0, sizeof *p);
    p->salvage = reader_with(IPROF_READ_SALVAGE | IPROF_READ_STRICT, NULL);
    p->strict = reader_with(IPROF_READ_STRICT, NULL);
    p->whole = whole;
}

static void prop_close(prop *p)
{
    iprof_reader_free(p->salvage);
    iprof_reader_free(p->strict);
}

/* Every truncation point and a garbage byte every 7 bytes of a small
 * profile cut from a corpus file: kept elements never decrease as the
 * input grows, and the whole input keeps everything. */
static void test_every_truncation(void)
{
    char *data = NULL;
    size_t len = 0;
    iprof_model *m = load_corpus(&data, &len);
    free(data);
    if (!m)
        SKIP("IPROF_CORPUS_DIR is not set or lacks " CORPUS_FILE);
    cut_model(m, 30);
    int rc;
    size_t n = 0;
    char *small = write_strict(m, &n, &rc);
    CHECK_OK(rc);
    CHECK(n > 15000 && n < 60000);
    fprintf(stderr, "small profile: %zu bytes, %zu elements\n", n, total_elements(m));
    prop p;
    prop_open(&p, m);
    size_t last = 0;
    for (size_t cut = 0; cut <= n && !p.failed; cut++) {
        size_t kept = check_salvage(&p, small, cut);
        CHECK(kept >= last);
        last = kept;
    }
    CHECK_EQ_INT(last, total_elements(m));
    CHECK(read_result(p.salvage).damage == NULL);
    CHECK(p.refused > 0 && p.refused < 30); /* only before the version */
    CHECK_EQ_INT(p.salvaged, n + 1 - p.refused - 1);
    char *bad = malloc(n);
    for (size_t at = 0; at < n && !p.failed; at += 7) {
        memcpy(bad, small, n);
        bad[at] = '\x01';
        check_salvage(&p, bad, n);
    }
    fprintf(stderr, "%zu loads, %zu salvaged, %zu refused\n", p.loads, p.salvaged, p.refused);
    free(bad);
    free(small);
    prop_close(&p);
    iprof_model_free(m);
}

/* A whole corpus file cut at element boundaries (a '}' followed by ',' or
 * ']') +-2 bytes, every so many boundaries so as to cover the file. */
static void test_element_boundaries(void)
{
    char *data = NULL;
    size_t len = 0;
    iprof_model *m = load_corpus(&data, &len);
    if (!m) {
        free(data);
        SKIP("IPROF_CORPUS_DIR is not set or lacks " CORPUS_FILE);
    }
    size_t boundaries = 0;
    for (size_t i = 0; i + 1 < len; i++)
        boundaries += data[i] == '}' && (data[i + 1] == ',' || data[i + 1] == ']');
    size_t stride = boundaries / 40 + 1, seen = 0;
    prop p;
    prop_open(&p, m);
    for (size_t i = 0; i + 1 < len && !p.failed; i++) {
        if (!(data[i] == '}' && (data[i + 1] == ',' || data[i + 1] == ']')) || seen++ % stride)
            continue;
        for (size_t d = 0; d < 5; d++)
            if (i + d >= 1 && i + d - 1 <= len)
                check_salvage(&p, data, i + d - 1); /* cut ending at i-2 .. i+2 */
    }
    fprintf(stderr, "%zu boundaries, every %zu: %zu loads\n", boundaries, stride, p.loads);
    CHECK(p.loads >= 150);
    CHECK_EQ_INT(p.refused, 0);
    CHECK_EQ_INT(p.salvaged, p.loads);
    prop_close(&p);
    iprof_model_free(m);
    free(data);
}

int main(void)
{
    RUN(test_truncated_every_source);
    RUN(test_without_flag_fails);
    RUN(test_before_version);
    RUN(test_corruption);
    RUN(test_dangling);
    RUN(test_gzip_truncated);
    RUN(test_alloc_failure);
    RUN(test_every_truncation);
    RUN(test_element_boundaries);
    return check_done();
}
