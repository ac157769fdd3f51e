/* Unit tests of the streaming merge (lib/model/merge_stream.c):
 * iprof_model_merge_{buffer,path,fd,callback} give what loading the input
 * and iprof_model_merge() give, and leave dst as it was on every
 * failure. */
#include "check.h"
#include "check_api.h"
#include "check_alloc.h"
#include "check_alloc_mt.h"
#include "check_model.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <iprof/iprof.h>

#include "model.h" /* merge_paths: which fast paths a merge took */

/* dst: types 0 A, 1 B, 2 C; methods 10 A.f(B), 11 A.g(C); entries. */
static const char DST[] =
    "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"A\"},{\"id\":1,\"name\":\"B\"},"
    "{\"id\":2,\"name\":\"C\"}],\"methods\":[{\"id\":10,\"name\":\"f\",\"signature\":[0,1]},"
    "{\"id\":11,\"name\":\"g\",\"signature\":[0,2]}],"
    "\"callCountProfiles\":[{\"ctx\":\"10:0\",\"records\":[5]},{\"ctx\":\"11:3<10:1\",\"records\":[7]}],"
    "\"conditionalProfiles\":[{\"ctx\":\"10:4\",\"records\":[8,0,1,9,1,2]}],"
    "\"virtualInvokeProfiles\":[{\"ctx\":\"10:2\",\"records\":[1,4]}],"
    "\"monitorProfiles\":[],\"samplingProfiles\":[{\"ctx\":\"11:0\",\"records\":[3]}]}";

/* src: other ids for the same names, a new type D and a new method, an
 * entry combining with dst's, new entries and groups. */
static const char SRC[] =
    "{\"version\":\"1.1.0\",\"types\":[{\"id\":5,\"name\":\"C\"},{\"id\":6,\"name\":\"A\"},"
    "{\"id\":7,\"name\":\"B\"},{\"id\":0,\"name\":\"D\"}],"
    "\"methods\":[{\"id\":20,\"name\":\"f\",\"signature\":[6,7]},"
    "{\"id\":10,\"name\":\"h\",\"signature\":[0,5]}],"
    "\"callCountProfiles\":[{\"ctx\":\"20:0\",\"records\":[3]},{\"ctx\":\"10:0<20:1\",\"records\":[4]}],"
    "\"conditionalProfiles\":[{\"ctx\":\"20:4\",\"records\":[8,0,2,12,1,1]}],"
    "\"virtualInvokeProfiles\":[{\"ctx\":\"20:2\",\"records\":[6,3,0,2]}],"
    "\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[7,1]}],"
    "\"samplingProfiles\":[{\"ctx\":\"10:9<20:0\",\"records\":[11]}],"
    "\"instanceOfProfiles\":[{\"ctx\":\"20:6\",\"records\":[0,5]}]}";

/* The same as SRC with the profile sections before types and methods,
 * and methods before types: every reference comes before its definition. */
static const char SRC_BACKWARDS[] =
    "{\"version\":\"1.1.0\","
    "\"callCountProfiles\":[{\"ctx\":\"20:0\",\"records\":[3]},{\"ctx\":\"10:0<20:1\",\"records\":[4]}],"
    "\"conditionalProfiles\":[{\"ctx\":\"20:4\",\"records\":[8,0,2,12,1,1]}],"
    "\"virtualInvokeProfiles\":[{\"ctx\":\"20:2\",\"records\":[6,3,0,2]}],"
    "\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[7,1]}],"
    "\"samplingProfiles\":[{\"ctx\":\"10:9<20:0\",\"records\":[11]}],"
    "\"instanceOfProfiles\":[{\"ctx\":\"20:6\",\"records\":[0,5]}],"
    "\"methods\":[{\"id\":20,\"name\":\"f\",\"signature\":[6,7]},"
    "{\"id\":10,\"name\":\"h\",\"signature\":[0,5]}],"
    "\"types\":[{\"id\":5,\"name\":\"C\"},{\"id\":6,\"name\":\"A\"},"
    "{\"id\":7,\"name\":\"B\"},{\"id\":0,\"name\":\"D\"}]}";

static iprof_reader *reader_with(unsigned flags, const iprof_allocator *a)
{
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.flags = flags;
    o.allocator = a;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    return r;
}

static iprof_model *load_text(const char *text, size_t len, unsigned flags,
                              const iprof_allocator *a)
{
    iprof_reader *r = reader_with(flags, a);
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(text, len)));
    iprof_reader_free(r);
    return m;
}

/* dst loaded from DST merged with src the old way: load, then merge. */
static iprof_model *merged_by_model(const char *src, size_t len, unsigned flags,
                                    const iprof_merge_options *opts)
{
    iprof_model *dst = load_text(DST, sizeof DST - 1, 0, NULL);
    iprof_model *m = load_text(src, len, flags, NULL);
    CHECK_OK(iprof_model_merge(dst, m, opts));
    iprof_model_free(m);
    return dst;
}

/* ---- the same result as load + merge ------------------------------------ */

typedef struct chunks {
    const char *p;
    size_t left, step;
} chunks;

static int read_chunks(void *buf, size_t size, size_t *len, void *payload)
{
    chunks *c = payload;
    size_t n = c->left < c->step ? c->left : c->step;
    n = n < size ? n : size;
    memcpy(buf, c->p, n);
    c->p += n;
    c->left -= n;
    *len = n;
    return 0;
}

static char *temp_file(const char *text, size_t len)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/iprof-merge-stream-XXXXXX");
    int fd = check_mkstemp(path);
    CHECK(fd >= 0);
    CHECK((size_t)write(fd, text, len) == len);
    close(fd);
    return path;
}

/* Every source, unthreaded and threaded, with the given options: dst
 * equals load + merge, with `methods` methods and `entries` entries of
 * src premapped (merge_paths: the entries by the reading thread's hooks,
 * the methods by whichever thread keeps up, on one thread all late). */
static void same_as_model(const char *src, size_t len, const iprof_merge_options *opts,
                          size_t methods, size_t entries)
{
    iprof_model *want = merged_by_model(src, len, 0, opts);
    const char *path = temp_file(src, len);
    for (int threaded = 0; threaded < 2; threaded++)
        for (int how = 0; how < 4; how++) {
            iprof_reader *r = reader_with(threaded ? IPROF_READ_THREADED : 0, NULL);
            iprof_model *dst = load_text(DST, sizeof DST - 1, 0, NULL);
            int rc;
            if (how == 0) {
                rc = iprof_model_merge_source(dst, r, SRC_BUFFER(src, len), opts);
            } else if (how == 1) {
                rc = iprof_model_merge_source(dst, r, SRC_PATH(path), opts);
            } else if (how == 2) {
                int fd = open(path, O_RDONLY);
                rc = iprof_model_merge_source(dst, r, SRC_FD(fd), opts);
                close(fd);
            } else {
                chunks c = {src, len, 7};
                rc = iprof_model_merge_source(dst, r, SRC_CALLBACK(read_chunks, &c), opts);
            }
            CHECK_OK(rc);
            CHECK_EQ_INT(model_diff(dst, want), 0);
            CHECK_EQ_INT((long long)dst->merge_paths.methods_premapped, (long long)methods);
            CHECK_EQ_INT((long long)dst->merge_paths.methods_by_id, (long long)methods);
            CHECK_EQ_INT((long long)dst->merge_paths.entries_premapped, (long long)entries);
            /* On one thread the merging side premaps every method (the
             * builder is never behind), threaded whichever keeps up. */
            if (!threaded)
                CHECK_EQ_INT((long long)dst->merge_paths.methods_premapped_late,
                             (long long)methods);
            iprof_model_free(dst);
            iprof_reader_free(r);
        }
    unlink(path);
    iprof_model_free(want);
}

static void test_same_as_model(void)
{
    iprof_merge_options opts = IPROF_MERGE_OPTIONS_INIT;
    same_as_model(SRC, sizeof SRC - 1, &opts, 2, 7);
    opts.weight = 2.5;
    opts.rounding = IPROF_ROUND_NEAREST_EVEN;
    same_as_model(SRC, sizeof SRC - 1, &opts, 2, 7);
    /* Every reference before its definition: the merging thread waits
     * for the ids and maps them itself. */
    same_as_model(SRC_BACKWARDS, sizeof SRC_BACKWARDS - 1, &opts, 0, 0);
}

/* A leniently loaded dst, src merged into it as the model merge merges
 * it, with `methods` methods in the end. */
static void merge_into_lenient(const char *dst, size_t dst_len, const char *src, size_t len,
                               size_t methods)
{
    iprof_model *want = load_text(dst, dst_len, 0, NULL);
    iprof_model *m = load_text(src, len, 0, NULL);
    CHECK_OK(merge_weighted(want, m, 1.0));
    for (int threaded = 0; threaded < 2; threaded++) {
        iprof_model *got = load_text(dst, dst_len, 0, NULL);
        iprof_reader *r = reader_with(threaded ? IPROF_READ_THREADED : 0, NULL);
        CHECK_OK(iprof_model_merge_source(got, r, SRC_BUFFER(src, len), NULL));
        CHECK_EQ_INT(model_diff(got, want), 0);
        CHECK_EQ_INT(iprof_model_method_count(got), methods);
        /* Premapped (by either thread), as dst's types, not ids. */
        CHECK_EQ_INT((long long)got->merge_paths.methods_premapped, 2);
        CHECK_EQ_INT((long long)got->merge_paths.methods_by_id, 0);
        iprof_reader_free(r);
        iprof_model_free(got);
    }
    iprof_model_free(m);
    iprof_model_free(want);
}

/* Leniently loaded dsts whose types are not one to one: the input's
 * methods are keyed by the names they matched, not by dst type ids (as
 * the merge matches them when dst's types are one to one). The input's
 * type ids dense or sparse (premapped through merge_types' arrays or its
 * table of sparse ids). */
static void test_lenient_dst(void)
{
    static const char dense[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":5,\"name\":\"B\"},{\"id\":6,\"name\":\"A\"}],"
        "\"methods\":[{\"id\":7,\"name\":\"f\",\"signature\":[5,5]},"
        "{\"id\":8,\"name\":\"f\",\"signature\":[6,6]}],"
        "\"callCountProfiles\":[{\"ctx\":\"7:0\",\"records\":[2]},{\"ctx\":\"8:0\",\"records\":[3]}]}";
    static const char sparse[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":5000000005,\"name\":\"B\"},"
        "{\"id\":6000000006,\"name\":\"A\"}],"
        "\"methods\":[{\"id\":7,\"name\":\"f\",\"signature\":[5000000005,5000000005]},"
        "{\"id\":8,\"name\":\"f\",\"signature\":[6000000006,6000000006]}],"
        "\"callCountProfiles\":[{\"ctx\":\"7:0\",\"records\":[2]},{\"ctx\":\"8:0\",\"records\":[3]}]}";
    /* Type id 0 repeated under another name: f(B, B) is new (dst's f is
     * f(A, A): id 0's first type), f(A, A) adds to dst's. */
    static const char same_id[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"A\"},{\"id\":0,\"name\":\"B\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"f\",\"signature\":[0,0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[1]}]}";
    /* Name A under two ids: the input's A is dst's first (id 0), and its
     * f(A, A) still adds to dst's f(1, 1), which has the same names; by
     * id, 0 is not 1 and f(A, A) would be new. */
    static const char same_name[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"A\"},{\"id\":1,\"name\":\"A\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"f\",\"signature\":[1,1]}],"
        "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[1]}]}";
    merge_into_lenient(same_id, sizeof same_id - 1, dense, sizeof dense - 1, 2);
    merge_into_lenient(same_name, sizeof same_name - 1, dense, sizeof dense - 1, 2);
    merge_into_lenient(same_id, sizeof same_id - 1, sparse, sizeof sparse - 1, 2);
    merge_into_lenient(same_name, sizeof same_name - 1, sparse, sizeof sparse - 1, 2);
}

/* What the merge gives, value by value (not only "as merge_with"). */
static void test_values(void)
{
    iprof_model *dst = load_text(DST, sizeof DST - 1, 0, NULL);
    iprof_reader *r = reader_with(0, NULL);
    CHECK_OK(iprof_model_merge_source(dst, r, SRC_BUFFER(SRC, sizeof SRC - 1), NULL));
    if (iprof_model_error(dst))
        fprintf(stderr, "   %s\n", err_info(iprof_model_error(dst)).message);
    CHECK_EQ_STR(iprof_model_version(dst), "1.1.0");
    CHECK_EQ_INT(iprof_model_type_count(dst), 4);
    /* D keeps no id 0 (dst's A has it): max + 1 = 3. */
    CHECK_EQ_INT(iprof_type_id(iprof_model_type_by_name(dst, "D", 1)), 3);
    /* h(D, C): its src id 10 is dst's f, so 12. */
    CHECK_EQ_INT(iprof_model_method_count(dst), 3);
    CHECK_EQ_INT(iprof_method_id(iprof_model_method_at(dst, 2)), 12);
    size_t n;
    static const int64_t f0[] = {10, 0}, cond[] = {10, 4}, virt[] = {10, 2}, h0[] = {12, 0, 10, 1};
    const int64_t *rec = iprof_entry_records(iprof_model_entry_find(dst, 0, f0, 1), &n);
    CHECK(n == 1 && rec[0] == 8);
    rec = iprof_entry_records(iprof_model_entry_find(dst, 0, h0, 2), &n);
    CHECK(n == 1 && rec[0] == 4);
    rec = iprof_entry_records(iprof_model_entry_find(dst, 1, cond, 1), &n);
    static const int64_t cond_want[] = {8, 0, 3, 9, 1, 2, 12, 1, 1};
    CHECK_EQ_MEM(rec, n * sizeof *rec, cond_want, sizeof cond_want);
    /* src type 6 is A (dst 0) with 3, type 0 is D (dst 3) with 2. */
    rec = iprof_entry_records(iprof_model_entry_find(dst, 2, virt, 1), &n);
    static const int64_t virt_want[] = {1, 4, 0, 3, 3, 2};
    CHECK_EQ_MEM(rec, n * sizeof *rec, virt_want, sizeof virt_want);
    CHECK_EQ_INT(iprof_model_entry_count(dst, IPROF_KIND_INSTANCEOF), 1);
    iprof_reader_free(r);
    iprof_model_free(dst);
}

/* Input method ids that the merge's paged map refuses (negative, beyond
 * its range, too sparse for it) beside a dense one: each still maps to
 * its dst method, in entries' frames too. */
static void test_far_ids(void)
{
    static const char src[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":5,\"name\":\"C\"},{\"id\":6,\"name\":\"A\"},"
        "{\"id\":7,\"name\":\"B\"},{\"id\":0,\"name\":\"D\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"f\",\"signature\":[6,7]},"
        "{\"id\":-3,\"name\":\"g\",\"signature\":[6,5]},"
        "{\"id\":1099511627776,\"name\":\"h\",\"signature\":[0,5]},"
        "{\"id\":30000,\"name\":\"k\",\"signature\":[6,6]}],"
        "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[2]},"
        "{\"ctx\":\"1099511627776:0\",\"records\":[3]},"
        "{\"ctx\":\"30000:0<1099511627776:1\",\"records\":[4]}]}";
    for (int threaded = 0; threaded < 2; threaded++) {
        iprof_model *dst = load_text(DST, sizeof DST - 1, 0, NULL);
        iprof_reader *r = reader_with(threaded ? IPROF_READ_THREADED : 0, NULL);
        CHECK_OK(iprof_model_merge_source(dst, r, SRC_BUFFER(src, sizeof src - 1), NULL));
        CHECK_EQ_INT(iprof_model_method_count(dst), 4); /* f and g were dst's */
        CHECK_EQ_INT(iprof_method_id(iprof_model_method_at(dst, 2)), 1099511627776);
        CHECK_EQ_INT(iprof_method_id(iprof_model_method_at(dst, 3)), 30000);
        static const int64_t f0[] = {10, 0}, h0[] = {1099511627776, 0},
                             kh[] = {30000, 0, 1099511627776, 1};
        size_t n = 0;
        const int64_t *rec = iprof_entry_records(iprof_model_entry_find(dst, 0, f0, 1), &n);
        CHECK(n == 1 && rec[0] == 7);
        rec = iprof_entry_records(iprof_model_entry_find(dst, 0, h0, 1), &n);
        CHECK(n == 1 && rec[0] == 3);
        rec = iprof_entry_records(iprof_model_entry_find(dst, 0, kh, 2), &n);
        CHECK(n == 1 && rec[0] == 4);
        CHECK_EQ_INT(iprof_model_entry_count(dst, 0), 4);
        iprof_reader_free(r);
        iprof_model_free(dst);
    }
}

/* ---- all or nothing ------------------------------------------------------ */

/* A failed merge: status rc, dst equal to a fresh DST, an error report. */
static void check_unchanged(iprof_model *dst, int rc, int want)
{
    CHECK_EQ_INT(rc, want);
    iprof_model *fresh = load_text(DST, sizeof DST - 1, 0, NULL);
    CHECK_EQ_INT(model_diff(dst, fresh), 0);
    CHECK(iprof_model_error(dst) != NULL);
    iprof_model_free(fresh);
}

/* Every prefix of SRC fails (it is not a whole document) and changes
 * nothing, threaded or not; the model's report is the reader's. */
static void test_truncated(void)
{
    for (int threaded = 0; threaded < 2; threaded++)
        for (size_t cut = 0; cut < sizeof SRC - 1; cut++) {
            iprof_reader *r = reader_with(threaded ? IPROF_READ_THREADED : 0, NULL);
            iprof_model *dst = load_text(DST, sizeof DST - 1, 0, NULL);
            int rc = iprof_model_merge_source(dst, r, SRC_BUFFER(SRC, cut), NULL);
            CHECK(rc != IPROF_OK);
            check_unchanged(dst, rc, rc);
            const iprof_error *me = iprof_model_error(dst), *re = iprof_reader_error(r);
            CHECK(me && re);
            if (me && re) {
                CHECK_EQ_STR(err_info(me).message, err_info(re).message);
                CHECK_EQ_INT(err_info(me).offset, err_info(re).offset);
            }
            iprof_model_free(dst);
            iprof_reader_free(r);
        }
}

/* A kind full (dst->max_entries lowered; the real limit is 2^32 - 2, what
 * the entry index's 32-bit positions hold): a merge that would add one
 * more entry fails with IPROF_ELIMIT, says so and changes nothing, read
 * on one thread or two or merged as a model; one that only combines
 * entries goes through. */
static void test_entry_limit(void)
{
    for (int how = 0; how < 3; how++) {
        iprof_model *dst = load_text(DST, sizeof DST - 1, 0, NULL);
        dst->max_entries = 2; /* DST's call counts */
        int rc;
        if (how < 2) {
            iprof_reader *r = reader_with(how ? IPROF_READ_THREADED : 0, NULL);
            rc = iprof_model_merge_source(dst, r, SRC_BUFFER(SRC, sizeof SRC - 1), NULL);
            iprof_reader_free(r);
        } else {
            iprof_model *src = load_text(SRC, sizeof SRC - 1, 0, NULL);
            rc = iprof_model_merge(dst, src, NULL);
            iprof_model_free(src);
        }
        check_unchanged(dst, rc, IPROF_ELIMIT);
        CHECK_EQ_STR(err_info(iprof_model_error(dst)).message,
                     "callCountProfiles: more than 2 entries");
        /* One that only combines goes through: f's call count, 5 + 3. */
        static const char more[] =
            "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"A\"},"
            "{\"id\":1,\"name\":\"B\"}],\"methods\":[{\"id\":10,\"name\":\"f\","
            "\"signature\":[0,1]}],\"callCountProfiles\":[{\"ctx\":\"10:0\",\"records\":[3]}]}";
        iprof_reader *r = reader_with(how == 1 ? IPROF_READ_THREADED : 0, NULL);
        CHECK_OK(iprof_model_merge_source(dst, r, SRC_BUFFER(more, sizeof more - 1), NULL));
        iprof_reader_free(r);
        CHECK_EQ_INT(iprof_model_entry_count(dst, IPROF_KIND_CALL_COUNT), 2);
        CHECK_EQ_INT(iprof_entry_records(iprof_model_entry_at(dst, IPROF_KIND_CALL_COUNT, 0),
                                         NULL)[0], 8);
        iprof_model_free(dst);
    }
}

static void expect_failure(const char *text, unsigned flags, int want, const char *message)
{
    iprof_reader *r = reader_with(flags, NULL);
    iprof_model *dst = load_text(DST, sizeof DST - 1, 0, NULL);
    check_unchanged(dst, iprof_model_merge_source(dst, r, SRC_BUFFER(text, strlen(text)), NULL), want);
    const iprof_error *e = iprof_model_error(dst);
    if (e && message)
        CHECK_EQ_STR(err_info(e).message, message);
    iprof_model_free(dst);
    iprof_reader_free(r);
}

static void test_refused(void)
{
    /* A dangling method, met at the end (the reader does not check). */
    expect_failure("{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"X\"}],"
                   "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
                   "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[1]},"
                   "{\"ctx\":\"9:0\",\"records\":[1]}]}",
                   IPROF_READ_NO_REFERENCES, IPROF_EDANGLING,
                   "callCountProfiles entry: method id 9 is not defined in the profile merged from");
    /* A signature type that never comes. */
    expect_failure("{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"X\"}],"
                   "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,4]}]}",
                   IPROF_READ_NO_REFERENCES, IPROF_EDANGLING,
                   "method signature: type id 4 is not defined in the profile merged from");
    /* Records a lenient read lets through but a merge cannot group, after
     * an entry that combines with dst's. */
    expect_failure("{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"A\"},"
                   "{\"id\":1,\"name\":\"B\"}],"
                   "\"methods\":[{\"id\":10,\"name\":\"f\",\"signature\":[0,1]}],"
                   "\"callCountProfiles\":[{\"ctx\":\"10:0\",\"records\":[1]}],"
                   "\"conditionalProfiles\":[{\"ctx\":\"10:4\",\"records\":[8,1]}]}",
                   0, IPROF_ESCHEMA, NULL);
    /* A read that fails after an entry that breaks a rule: the read's
     * error, with its position, is the one reported. */
    {
        /* The broken entry, then more than a batch of good ones (so that the
         * broken one is applied before the read fails), then the cut. */
        check_text t = {0};
        tx_add(&t, "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"A\"}],"
                   "\"methods\":[{\"id\":1,\"name\":\"m\",\"signature\":[0,0]}],"
                   "\"conditionalProfiles\":[{\"ctx\":\"1:4\",\"records\":[8,1]}");
        for (int i = 0; i < 5000; i++)
            tx_add(&t, ",{\"ctx\":\"1:%d\",\"records\":[%d,0,1]}", i + 5, i);
        for (int threaded = 0; threaded < 2; threaded++) {
            iprof_reader *r = reader_with(threaded ? IPROF_READ_THREADED : 0, NULL);
            iprof_model *dst = load_text(DST, sizeof DST - 1, 0, NULL);
            check_unchanged(dst, iprof_model_merge_source(dst, r, SRC_BUFFER(t.s, t.len), NULL), IPROF_ESYNTAX);
            const iprof_error *me = iprof_model_error(dst), *re = iprof_reader_error(r);
            CHECK(me && re && err_info(re).status == IPROF_ESYNTAX);
            if (me && re) {
                CHECK_EQ_STR(err_info(me).message, err_info(re).message);
                CHECK_EQ_INT(err_info(me).offset, t.len);
            }
            iprof_model_free(dst);
            iprof_reader_free(r);
        }
        free(t.s);
    }
    /* An unknown key that cannot be combined. */
    expect_failure("{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"extra\":{\"a\":1}}", 0,
                   IPROF_ESCHEMA, NULL);
    /* Bad options and arguments. */
    iprof_model *dst = load_text(DST, sizeof DST - 1, 0, NULL);
    iprof_reader *r = reader_with(0, NULL);
    iprof_merge_options opts = IPROF_MERGE_OPTIONS_INIT;
    opts.weight = -1;
    check_unchanged(dst, iprof_model_merge_source(dst, r, SRC_BUFFER(SRC, sizeof SRC - 1), &opts),
                    IPROF_EINVAL);
    CHECK_EQ_STR(err_info(iprof_model_error(dst)).message, "weight -1: must be finite and >= 0");
    check_unchanged(dst, iprof_model_merge_source(dst, NULL, SRC_BUFFER(SRC, sizeof SRC - 1), NULL),
                    IPROF_EINVAL);
    CHECK_EQ_INT(iprof_model_merge_source(NULL, r, SRC_BUFFER(SRC, sizeof SRC - 1), NULL), IPROF_EINVAL);
    check_unchanged(dst, iprof_model_merge_source(dst, r, SRC_PATH("/nonexistent/x.iprof"), NULL),
                    IPROF_EIO);
    /* After the failures, a good merge still works. */
    CHECK_OK(iprof_model_merge_source(dst, r, SRC_BUFFER(SRC, sizeof SRC - 1), NULL));
    CHECK(iprof_model_error(dst) == NULL);
    iprof_reader_free(r);
    iprof_model_free(dst);
}

/* Every allocation of the merge fails in turn (the model's allocator and
 * the reader's are one): IPROF_ENOMEM, dst unchanged, nothing leaked. */
static void test_alloc_failure(void)
{
    int completed = 0;
    long n;
    for (n = 1; n < 100000 && !completed; n++) {
        fail_alloc fa = {.fail_at = 0};
        iprof_allocator a = fail_hook(&fa);
        iprof_reader *r = reader_with(0, &a);
        iprof_model *dst = load_text(DST, sizeof DST - 1, 0, &a);
        fa.fail_at = n;
        int rc = iprof_model_merge_source(dst, r, SRC_BUFFER(SRC_BACKWARDS, sizeof SRC_BACKWARDS - 1), NULL);
        fa.fail_at = 0;
        completed = !fa.failed;
        if (fa.failed_hard) /* not a refused shrink, which changes nothing */
            check_unchanged(dst, rc, IPROF_ENOMEM);
        else
            CHECK_OK(rc);
        iprof_model_free(dst);
        iprof_reader_free(r);
        CHECK_EQ_INT(fa.live_blocks, 0);
        CHECK_EQ_INT(fa.live_bytes, 0);
    }
    CHECK(completed);
    fprintf(stderr, "   %ld allocations failed in turn\n", n - 2);
}

/* A document of several batches whose names partly match DST's: types
 * A, B, C and new ones, methods f(A, B) and new ones, entries on both. */
static char *many_batches(size_t *len)
{
    check_text t = {0};
    tx_add(&t, "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"B\"},"
               "{\"id\":1,\"name\":\"A\"}");
    for (int i = 2; i < 300; i++)
        tx_add(&t, ",{\"id\":%d,\"name\":\"T%d\"}", i, i);
    tx_add(&t, "],\"methods\":[{\"id\":1,\"name\":\"f\",\"signature\":[1,0]}");
    for (int i = 2; i < 4000; i++)
        tx_add(&t, ",{\"id\":%d,\"name\":\"m%d\",\"signature\":[%d,%d]}", i, i % 700, i % 300,
               (i * 7) % 300);
    tx_add(&t, "],\"callCountProfiles\":[");
    for (int i = 0; i < 6000; i++) {
        tx_add(&t, "%s{\"ctx\":\"%d:0", i ? "," : "", 1 + i % 3999);
        for (int d = 1; d < 1 + i % 9; d++)
            tx_add(&t, "<%d:%d", 1 + d * 13, d);
        tx_add(&t, "\",\"records\":[%d]}", i);
    }
    tx_add(&t, "],\"virtualInvokeProfiles\":[{\"ctx\":\"1:2\",\"records\":[0,5,7,1]}],"
               "\"conditionalProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    *len = t.len;
    return t.s;
}

/* A profile of 300 types (ids spaced by `stride`, numbered from `base`)
 * and the methods m<first> .. m<last> with two-type signatures, one
 * call-count entry each. */
static char *methods_text(int64_t stride, int64_t base, int first, int last, size_t *len)
{
    check_text t = {0};
    tx_add(&t, "{\"version\":\"1.0.0\",\"types\":[");
    for (int i = 0; i < 300; i++)
        tx_add(&t, "%s{\"id\":%lld,\"name\":\"T%d\"}", i ? "," : "",
               (long long)(base + i * stride), i);
    tx_add(&t, "],\"methods\":[");
    for (int i = first; i <= last; i++)
        tx_add(&t, "%s{\"id\":%d,\"name\":\"m%d\",\"signature\":[%lld,%lld]}",
               i > first ? "," : "", i, i, (long long)(base + (i % 300) * stride),
               (long long)(base + ((i * 7) % 300) * stride));
    tx_add(&t, "],\"callCountProfiles\":[");
    for (int i = first; i <= last; i++)
        tx_add(&t, "%s{\"ctx\":\"%d:0\",\"records\":[%d]}", i > first ? "," : "", i, i);
    tx_add(&t, "]}");
    *len = t.len;
    return t.s;
}

/* A dst of 6,000 methods, large enough for its names index to be keyed
 * on two threads by a threaded merge, its type ids dense or sparse (keys
 * through an array of type name hashes, or through the types): the
 * input's 3,000 methods of the same names and signatures add to them,
 * its 3,000 others are new, threaded or not, as the model merge has it.
 * Every method and entry of the input is premapped (merge_paths: an
 * entry by the reading thread's hooks, a method by whichever thread keeps
 * up), its methods matched by dst's type ids (dst's types are one to one)
 * whether the input's type ids are dense or sparse (merge_types' arrays,
 * or its table of sparse ids); a threaded merge fills dst's names index
 * on two threads. */
static void test_large_dst(void)
{
    static const int64_t strides[][2] = {{1, 1}, {INT64_C(1000000007), 1},
                                         {1, INT64_C(1000000007)}};
    for (int k = 0; k < 3; k++) {
        size_t dlen, slen;
        char *dtext = methods_text(strides[k][0], 0, 1, 6000, &dlen);
        char *stext = methods_text(strides[k][1], 500, 3001, 9000, &slen);
        iprof_model *want = load_text(dtext, dlen, 0, NULL);
        iprof_model *src = load_text(stext, slen, 0, NULL);
        CHECK_OK(merge_weighted(want, src, 1.0));
        CHECK_EQ_INT(iprof_model_method_count(want), 9000);
        /* What the names index's two-thread fill takes of dst's methods. */
        iprof_model *keyed = load_text(dtext, dlen, 0, NULL);
        size_t halves = 0;
        CHECK(ipi_index_method_names(keyed, 1, &halves) != NULL);
        CHECK(halves > 5000 && halves <= 6000);
        iprof_model_free(keyed);
        for (int threaded = 0; threaded < 2; threaded++) {
            iprof_model *got = load_text(dtext, dlen, 0, NULL);
            iprof_reader *r = reader_with(threaded ? IPROF_READ_THREADED : 0, NULL);
            CHECK_OK(iprof_model_merge_source(got, r, SRC_BUFFER(stext, slen), NULL));
            CHECK_EQ_INT(iprof_model_method_count(got), 9000);
            CHECK_EQ_INT(iprof_model_entry_count(got, IPROF_KIND_CALL_COUNT), 9000);
            CHECK_EQ_INT(model_diff(got, want), 0);
            CHECK_EQ_INT((long long)got->merge_paths.methods_premapped, 6000);
            CHECK_EQ_INT((long long)got->merge_paths.methods_by_id, 6000);
            if (!threaded)
                CHECK_EQ_INT((long long)got->merge_paths.methods_premapped_late, 6000);
            CHECK_EQ_INT((long long)got->merge_paths.entries_premapped, 6000);
            CHECK_EQ_INT((long long)got->merge_paths.names_by_halves,
                         threaded ? (long long)halves : 0);
            iprof_reader_free(r);
            iprof_model_free(got);
        }
        iprof_model_free(src);
        iprof_model_free(want);
        free(dtext);
        free(stext);
    }
}

/* A merge that fails at its very end (an unknown key it cannot combine,
 * met after every entry is applied) into a dst of 6,000 methods: the
 * input's 3,000 entries that combine with dst's are put back, over
 * several of the journal's arena chunks, and its 3,000 new contexts leave
 * the table, over several blocks of the context log; threaded or not.
 * Then the same input without the key merges as the model merge has it. */
static void test_large_undo(void)
{
    size_t dlen, slen;
    char *dtext = methods_text(1, 0, 1, 6000, &dlen);
    char *stext = methods_text(1, 500, 3001, 9000, &slen);
    check_text bad = {0};
    tx_add(&bad, "%.*s,\"extra\":{\"a\":1}}", (int)(slen - 1), stext);
    iprof_model *want = load_text(dtext, dlen, 0, NULL);
    iprof_model *src = load_text(stext, slen, 0, NULL);
    CHECK_OK(merge_weighted(want, src, 1.0));
    for (int threaded = 0; threaded < 2; threaded++) {
        iprof_model *dst = load_text(dtext, dlen, 0, NULL);
        iprof_model *fresh = load_text(dtext, dlen, 0, NULL);
        iprof_reader *r = reader_with(threaded ? IPROF_READ_THREADED : 0, NULL);
        CHECK_EQ_INT(iprof_model_merge_source(dst, r, SRC_BUFFER(bad.s, bad.len), NULL),
                     IPROF_ESCHEMA);
        CHECK_EQ_INT(model_diff(dst, fresh), 0);
        CHECK_EQ_INT(iprof_model_context_count(dst), 6000);
        CHECK_EQ_INT(iprof_model_method_count(dst), 6000);
        CHECK_EQ_INT(iprof_model_entry_count(dst, IPROF_KIND_CALL_COUNT), 6000);
        CHECK_OK(iprof_model_merge_source(dst, r, SRC_BUFFER(stext, slen), NULL));
        CHECK_EQ_INT(model_diff(dst, want), 0);
        CHECK_EQ_INT(iprof_model_context_count(dst), 9000);
        /* The appends mapped the list's pages ahead of them. */
        const ipi_entry_list *l = &dst->entries[IPROF_KIND_CALL_COUNT];
        CHECK(l->ready >= l->count * sizeof *l->items && l->ready <= l->cap * sizeof *l->items);
        iprof_reader_free(r);
        iprof_model_free(fresh);
        iprof_model_free(dst);
    }
    iprof_model_free(src);
    iprof_model_free(want);
    free(bad.s);
    free(dtext);
    free(stext);
}

/* Threaded, the reading thread and the merging thread both allocate: fail
 * the Nth allocation (only it, or every one from it on) for N = 1, 2, ...
 * until a merge needs no failure. Each ends with IPROF_ENOMEM and dst as it
 * was, or IPROF_OK and what an unthreaded merge gives; nothing leaks. */
typedef struct threaded_sweep {
    const char *doc;
    size_t len;
    const iprof_model *want;
    int mode; /* MT_FAIL_ONLY or MT_FAIL_FROM */
} threaded_sweep;

static int merge_failing(long n, void *arg)
{
    const threaded_sweep *w = arg;
    mt_alloc c;
    mt_init(&c, MT_FAIL_NONE, 0);
    iprof_allocator a = mt_hook(&c);
    iprof_reader *r = reader_with(IPROF_READ_THREADED, &a);
    iprof_model *dst = load_text(DST, sizeof DST - 1, 0, &a);
    mt_arm(&c, w->mode, n); /* from the merge on, counting what is live from the start */
    int rc = iprof_model_merge_source(dst, r, SRC_BUFFER(w->doc, w->len), NULL);
    int how = mt_outcome(&c);
    c.mode = MT_FAIL_NONE;
    if (how == MT_RUN_ENOMEM) {
        check_unchanged(dst, rc, IPROF_ENOMEM);
    } else {
        CHECK_OK(rc);
        CHECK_EQ_INT(model_diff(dst, w->want), 0);
    }
    iprof_model_free(dst);
    iprof_reader_free(r);
    mt_check_freed(&c, n);
    return how;
}

static void test_alloc_failure_threaded(void)
{
    size_t len;
    char *doc = many_batches(&len);
    iprof_model *want = load_text(DST, sizeof DST - 1, 0, NULL);
    iprof_reader *plain = reader_with(0, NULL);
    CHECK_OK(iprof_model_merge_source(want, plain, SRC_BUFFER(doc, len), NULL));
    if (iprof_model_error(want))
        fprintf(stderr, "   %s\n", err_info(iprof_model_error(want)).message);
    iprof_reader_free(plain);
    for (int mode = MT_FAIL_ONLY; mode <= MT_FAIL_FROM; mode++) {
        threaded_sweep w = {doc, len, want, mode};
        mt_sweep(mode == MT_FAIL_ONLY ? "fail only the Nth" : "fail from the Nth on", merge_failing,
                 &w);
    }
    iprof_model_free(want);
    free(doc);
}

/* ---- real profiles ------------------------------------------------------ */

static void test_corpus(void)
{
    const char *dir = check_corpus_dir();
    if (!dir)
        SKIP("IPROF_CORPUS_DIR is not set or has no README.md");
    static const char *names[] = {"jsonata-cli-0.4.0.iprof", "assorted-benchmarks-0.4.0.iprof"};
    char path[2][4096];
    for (int i = 0; i < 2; i++)
        snprintf(path[i], sizeof path[i], "%s/%s", dir, names[i]);
    iprof_reader *r = reader_with(IPROF_READ_THREADED, NULL);
    iprof_model *a = NULL, *b = NULL, *want = NULL, *got = NULL;
    CHECK_OK(iprof_model_load(&a, r, SRC_PATH(path[0])));
    CHECK_OK(iprof_model_load(&b, r, SRC_PATH(path[1])));
    CHECK_OK(iprof_model_load(&want, r, SRC_PATH(path[0])));
    CHECK_OK(iprof_model_load(&got, r, SRC_PATH(path[0])));
    if (!a || !b || !want || !got)
        goto out;
    iprof_merge_options opts = IPROF_MERGE_OPTIONS_INIT;
    opts.weight = 0.5;
    CHECK_OK(iprof_model_merge(want, b, &opts));
    CHECK_OK(merge_weighted(want, a, 3.0));
    CHECK_OK(iprof_model_merge_source(got, r, SRC_PATH(path[1]), &opts));
    opts.weight = 3.0;
    CHECK_OK(iprof_model_merge_source(got, r, SRC_PATH(path[0]), &opts));
    CHECK_EQ_INT(model_diff(got, want), 0);
out:
    iprof_model_free(a);
    iprof_model_free(b);
    iprof_model_free(want);
    iprof_model_free(got);
    iprof_reader_free(r);
}

int main(void)
{
    RUN(test_same_as_model);
    RUN(test_values);
    RUN(test_far_ids);
    RUN(test_lenient_dst);
    RUN(test_large_dst);
    RUN(test_large_undo);
    RUN(test_truncated);
    RUN(test_refused);
    RUN(test_entry_limit);
    RUN(test_alloc_failure);
    RUN(test_alloc_failure_threaded);
    RUN(test_corpus);
    return check_done();
}
