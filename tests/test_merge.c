/* Unit tests of iprof_model_merge (lib/model/merge.c, merged as a stream
 * by lib/model/merge_stream.c): every test unthreaded, then again with
 * IPROF_MERGE_THREADED; and what only the threaded merge has. */
#include "check.h"
#include "check_api.h"
#include "check_alloc.h"
#include "check_alloc_mt.h"
#include "check_model.h"

#include <float.h>
#include <math.h>

#include <iprof/edit.h>
#include <iprof/iprof.h>

#include "model.h"


/* ---- helpers ------------------------------------------------------------ */

#define N(a) (sizeof(a) / sizeof *(a))

/* The flags of this file's merges: 0 on the first run of the tests,
 * IPROF_MERGE_THREADED on the second (main). */
static unsigned merge_flags;

/* src into dst with a weight, the default rounding and merge_flags. */
static int merge(iprof_model *dst, const iprof_model *src, double weight)
{
    iprof_merge_options o = IPROF_MERGE_OPTIONS_INIT;
    o.weight = weight;
    o.flags = merge_flags;
    return iprof_model_merge(dst, src, &o);
}

static const char *type_name_of(const iprof_model *m, int64_t id)
{
    const iprof_type *t = iprof_model_type_by_id(m, id);
    return t ? iprof_type_name(t, NULL) : "(none)";
}

static int has_records(const iprof_model *m, int kind, const int64_t *frames, size_t fc,
                       const int64_t *want, size_t n)
{
    const iprof_entry *e = iprof_model_entry_find(m, kind, frames, fc);
    if (!e) {
        fprintf(stderr, "   no entry\n");
        return 0;
    }
    size_t len;
    const int64_t *r = iprof_entry_records(e, &len);
    if (len != n || (n && memcmp(r, want, n * sizeof *want) != 0)) {
        fprintf(stderr, "   records:");
        for (size_t i = 0; i < len; i++)
            fprintf(stderr, " %" PRId64, r[i]);
        fprintf(stderr, "\n");
        return 0;
    }
    return 1;
}

/* A summary of a model to compare before and after a failed merge. */
typedef struct snapshot {
    size_t types, methods, contexts, entries[IPROF_KIND_COUNT];
    int64_t first_records[IPROF_KIND_COUNT][8];
    size_t first_len[IPROF_KIND_COUNT];
} snapshot;

static void take(const iprof_model *m, snapshot *s)
{
    memset(s, 0, sizeof *s);
    s->types = iprof_model_type_count(m);
    s->methods = iprof_model_method_count(m);
    s->contexts = iprof_model_context_count(m);
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        s->entries[k] = iprof_model_entry_count(m, k);
        const iprof_entry *e = iprof_model_entry_at(m, k, 0);
        if (e) {
            const int64_t *r = iprof_entry_records(e, &s->first_len[k]);
            for (size_t i = 0; i < s->first_len[k] && i < 8; i++)
                s->first_records[k][i] = r[i];
        }
    }
}

static int same(const snapshot *a, const snapshot *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/*
 * dst: types 0 void, 1 A, 2 B; methods 1 run(A), 2 go(B); call count 2:0
 * [5]; monitor [1, 1].
 */
static iprof_model *make_dst(const iprof_allocator *a)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, a));
    CHECK_OK(iprof_model_add_type(m, 0, "void", 4, NULL));
    CHECK_OK(iprof_model_add_type(m, 1, "A", 1, NULL));
    CHECK_OK(iprof_model_add_type(m, 2, "B", 1, NULL));
    static const int64_t s_run[] = {1, 0}, s_go[] = {2, 0};
    CHECK_OK(iprof_model_add_method(m, 1, "run", 3, s_run, 2, NULL));
    CHECK_OK(iprof_model_add_method(m, 2, "go", 2, s_go, 2, NULL));
    static const int64_t f[] = {2, 0}, five[] = {5}, mon[] = {0, 0}, m1[] = {1, 1};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f, 1, five, 1));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_MONITOR, mon, 1, m1, 2));
    return m;
}

/*
 * src: types 0 void, 5 C, 1 B, 2 D; methods 1 go(B), 2 x(C; void, D),
 * 7 run(B); entries in src ids.
 */
static iprof_model *make_src(void)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_OK(iprof_model_set_version(m, "1.0.0"));
    CHECK_OK(iprof_model_add_type(m, 0, "void", 4, NULL));
    CHECK_OK(iprof_model_add_type(m, 5, "C", 1, NULL));
    CHECK_OK(iprof_model_add_type(m, 1, "B", 1, NULL));
    CHECK_OK(iprof_model_add_type(m, 2, "D", 1, NULL));
    static const int64_t s_go[] = {1, 0}, s_x[] = {5, 0, 2}, s_run[] = {1, 0};
    CHECK_OK(iprof_model_add_method(m, 1, "go", 2, s_go, 2, NULL));
    CHECK_OK(iprof_model_add_method(m, 2, "x", 1, s_x, 3, NULL));
    CHECK_OK(iprof_model_add_method(m, 7, "run", 3, s_run, 2, NULL));
    static const int64_t cc[] = {1, 0}, ten[] = {10}, cc2[] = {7, 0, 2, 9}, three[] = {3};
    static const int64_t cf[] = {2, 3, 7, 4}, cr[] = {10, 0, 3, 20, 1, 5};
    static const int64_t vf[] = {1, 2}, vr[] = {2, 4, 0, 1};
    static const int64_t mon[] = {0, 0}, mr[] = {5, 3, 1, 2};
    static const int64_t sf[] = {2, -1, 1, 8, 7, 0}, sr[] = {11};
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, cc, 1, ten, 1));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, cc2, 2, three, 1));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, cf, 2, cr, N(cr)));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_VIRTUAL_INVOKE, vf, 1, vr, N(vr)));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_INSTANCEOF, vf, 1, vr, N(vr)));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_MONITOR, mon, 1, mr, N(mr)));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, sf, 3, sr, 1));
    return m;
}

/* ---- the merged version ------------------------------------------------- */

/* The highest version of the inputs: a new model takes its first input's,
 * a higher input raises it, a lower one leaves it. Equal versions spelled
 * differently (leading zeros) give the plainest spelling in either order,
 * so that the merge does not depend on the order of its inputs. */
static void test_version(void)
{
    static const char *const cases[][3] = {
        /* dst (NULL: a new model), src, merged */
        {NULL, "0.4.0", "0.4.0"},  {NULL, "1.1.0", "1.1.0"},  {"0.4.0", "1.0.0", "1.0.0"},
        {"1.1.0", "1.0.0", "1.1.0"}, {"1.0.0", "1.0.5", "1.0.5"}, {"1.0.5", "1.0.0", "1.0.5"},
        {"01.0.0", "1.0.0", "1.0.0"}, {"1.0.0", "01.0.0", "1.0.0"}, {"1.00.0", "1.0.00", "1.0.00"},
        {"1.0.00", "1.00.0", "1.0.00"}, {"1.1.0", "01.1.00", "1.1.0"},
    };
    for (size_t i = 0; i < N(cases); i++) {
        iprof_model *dst, *src;
        CHECK_OK(iprof_model_new(&dst, NULL));
        CHECK_OK(iprof_model_new(&src, NULL));
        if (cases[i][0])
            CHECK_OK(iprof_model_set_version(dst, cases[i][0]));
        CHECK_OK(iprof_model_set_version(src, cases[i][1]));
        CHECK_OK(merge(dst, src, 1.0));
        CHECK_EQ_STR(iprof_model_version(dst), cases[i][2]);
        /* A second, new input (default version) changes nothing. */
        iprof_model *blank;
        CHECK_OK(iprof_model_new(&blank, NULL));
        CHECK_OK(merge(dst, blank, 1.0));
        CHECK_EQ_STR(iprof_model_version(dst), cases[i][2]);
        iprof_model_free(blank);
        iprof_model_free(src);
        iprof_model_free(dst);
    }
}

/* ---- union and remapping ------------------------------------------------ */

static void test_union_and_remap(void)
{
    iprof_model *dst = make_dst(NULL), *src = make_src();
    CHECK_OK(merge(dst, src, 1.0));
    /* dst is a new model, its version its default: it takes src's. */
    CHECK_EQ_STR(iprof_model_version(dst), "1.0.0");

    /* Types by name: void and B matched, C keeps its id, D's id 2 is taken
     * by B so it gets max + 1 = 6 (5 was just taken by C). */
    CHECK_EQ_INT(iprof_model_type_count(dst), 5);
    CHECK_EQ_STR(type_name_of(dst, 0), "void");
    CHECK_EQ_STR(type_name_of(dst, 1), "A");
    CHECK_EQ_STR(type_name_of(dst, 2), "B");
    CHECK_EQ_STR(type_name_of(dst, 5), "C");
    CHECK_EQ_STR(type_name_of(dst, 6), "D");
    CHECK_EQ_INT(iprof_type_id(iprof_model_type_at(dst, 3)), 5); /* appended in src order */
    CHECK_EQ_INT(iprof_type_id(iprof_model_type_at(dst, 4)), 6);

    /* Methods by (declaring type name, name, signature type names): go(B)
     * matched dst 2; x is new and its id 2 is taken: 3; run(B) is not
     * run(A): new, keeping id 7. */
    CHECK_EQ_INT(iprof_model_method_count(dst), 4);
    const iprof_method *x = iprof_model_method_by_id(dst, 3);
    CHECK(x != NULL);
    if (x) {
        size_t n;
        const int64_t *sig = iprof_method_signature(x, &n);
        CHECK_EQ_STR(iprof_method_name(x, NULL), "x");
        CHECK(n == 3 && sig[0] == 5 && sig[1] == 0 && sig[2] == 6);
    }
    const iprof_method *run = iprof_model_method_by_id(dst, 7);
    CHECK(run != NULL);
    char buf[64];
    iprof_model_method_describe(dst, run, buf, sizeof buf);
    CHECK_EQ_STR(buf, "B.run");
    iprof_model_method_describe(dst, iprof_model_method_by_id(dst, 1), buf, sizeof buf);
    CHECK_EQ_STR(buf, "A.run");

    /* Entries in dst ids. */
    static const int64_t f_go[] = {2, 0}, fifteen[] = {15};
    CHECK(has_records(dst, IPROF_KIND_CALL_COUNT, f_go, 1, fifteen, 1));
    static const int64_t f2[] = {7, 0, 3, 9}, three[] = {3};
    CHECK(has_records(dst, IPROF_KIND_CALL_COUNT, f2, 2, three, 1));
    CHECK_EQ_INT(iprof_model_entry_count(dst, IPROF_KIND_CALL_COUNT), 2);
    static const int64_t cf[] = {3, 3, 7, 4}, cr[] = {10, 0, 3, 20, 1, 5};
    CHECK(has_records(dst, IPROF_KIND_CONDITIONAL, cf, 2, cr, N(cr)));
    static const int64_t vf[] = {2, 2}, vr[] = {6, 4, 0, 1};
    CHECK(has_records(dst, IPROF_KIND_VIRTUAL_INVOKE, vf, 1, vr, N(vr)));
    CHECK(has_records(dst, IPROF_KIND_INSTANCEOF, vf, 1, vr, N(vr)));
    static const int64_t mon[] = {0, 0}, mr[] = {1, 1, 5, 3, 2, 2}; /* src B is dst 2 */
    CHECK(has_records(dst, IPROF_KIND_MONITOR, mon, 1, mr, N(mr)));
    static const int64_t sf[] = {3, -1, 2, 8, 7, 0}, sr[] = {11};
    CHECK(has_records(dst, IPROF_KIND_SAMPLING, sf, 3, sr, 1));

    /* src is untouched. */
    CHECK_EQ_INT(iprof_model_type_count(src), 4);
    CHECK_EQ_INT(iprof_model_method_count(src), 3);
    static const int64_t src_cc[] = {1, 0}, ten[] = {10};
    CHECK(has_records(src, IPROF_KIND_CALL_COUNT, src_cc, 1, ten, 1));

    /* Merging again adds nothing new and sums. */
    snapshot before;
    take(dst, &before);
    CHECK_OK(merge(dst, src, 1.0));
    CHECK_EQ_INT(iprof_model_type_count(dst), before.types);
    CHECK_EQ_INT(iprof_model_method_count(dst), before.methods);
    CHECK_EQ_INT(iprof_model_context_count(dst), before.contexts);
    static const int64_t twentyfive[] = {25}, cr2[] = {10, 0, 6, 20, 1, 10},
                         mr2[] = {1, 1, 5, 6, 2, 4};
    CHECK(has_records(dst, IPROF_KIND_CALL_COUNT, f_go, 1, twentyfive, 1));
    CHECK(has_records(dst, IPROF_KIND_CONDITIONAL, cf, 2, cr2, N(cr2)));
    CHECK(has_records(dst, IPROF_KIND_MONITOR, mon, 1, mr2, N(mr2)));
    iprof_model_free(dst);
    iprof_model_free(src);
}

/* Into an empty model a merge is a copy with the same ids. */
static void test_into_empty(void)
{
    iprof_model *dst = NULL, *src = make_src();
    CHECK_OK(iprof_model_new(&dst, NULL));
    CHECK_OK(merge(dst, src, 1.0));
    CHECK_EQ_INT(iprof_model_type_count(dst), 4);
    CHECK_EQ_INT(iprof_model_method_count(dst), 3);
    CHECK_EQ_INT(iprof_model_context_count(dst), iprof_model_context_count(src));
    for (size_t i = 0; i < 4; i++)
        CHECK_EQ_INT(iprof_type_id(iprof_model_type_at(dst, i)),
                     iprof_type_id(iprof_model_type_at(src, i)));
    for (size_t i = 0; i < 3; i++)
        CHECK_EQ_INT(iprof_method_id(iprof_model_method_at(dst, i)),
                     iprof_method_id(iprof_model_method_at(src, i)));
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        CHECK_EQ_INT(iprof_model_entry_count(dst, k), iprof_model_entry_count(src, k));
        for (size_t i = 0; i < iprof_model_entry_count(src, k); i++) {
            char a[128], b[128];
            const iprof_entry *es = iprof_model_entry_at(src, k, i);
            const iprof_entry *ed = iprof_model_entry_at(dst, k, i);
            iprof_context_format(iprof_entry_context(es), a, sizeof a);
            iprof_context_format(iprof_entry_context(ed), b, sizeof b);
            CHECK_EQ_STR(a, b);
            size_t ls, ld;
            const int64_t *rs = iprof_entry_records(es, &ls), *rd = iprof_entry_records(ed, &ld);
            CHECK(ls == ld && memcmp(rs, rd, ls * sizeof *rs) == 0);
        }
    }
    /* NULL options are the defaults (weight 1): every count doubles. */
    CHECK_OK(iprof_model_merge(dst, src, NULL));
    size_t calls = iprof_model_entry_count(src, IPROF_KIND_CALL_COUNT);
    CHECK(calls > 0);
    for (size_t i = 0; i < calls; i++) {
        size_t ls, ld;
        const int64_t *rs = iprof_entry_records(iprof_model_entry_at(src, IPROF_KIND_CALL_COUNT, i), &ls);
        const int64_t *rd = iprof_entry_records(iprof_model_entry_at(dst, IPROF_KIND_CALL_COUNT, i), &ld);
        CHECK(ls == 1 && ld == 1 && rd[0] == 2 * rs[0]);
    }
    iprof_model_free(dst);
    iprof_model_free(src);
}

/* Types repeated by name in dst: methods still match by names. */
static void test_match_by_names(void)
{
    iprof_model *dst = NULL, *src = NULL;
    CHECK_OK(iprof_model_new(&dst, NULL));
    CHECK_OK(iprof_model_new(&src, NULL));
    CHECK_OK(iprof_model_add_type(dst, 1, "A", 1, NULL));
    CHECK_OK(iprof_model_add_type(dst, 2, "A", 1, NULL));
    static const int64_t s2[] = {2}, s9[] = {9};
    CHECK_OK(iprof_model_add_method(dst, 5, "m", 1, s2, 1, NULL));
    CHECK_OK(iprof_model_add_type(src, 9, "A", 1, NULL));
    CHECK_OK(iprof_model_add_method(src, 3, "m", 1, s9, 1, NULL));
    static const int64_t f[] = {3, 0}, one[] = {1};
    CHECK_OK(iprof_model_add_entry(src, IPROF_KIND_CALL_COUNT, f, 1, one, 1));
    CHECK_OK(merge(dst, src, 1.0));
    CHECK_EQ_INT(iprof_model_type_count(dst), 2);
    CHECK_EQ_INT(iprof_model_method_count(dst), 1);
    static const int64_t fd[] = {5, 0};
    CHECK(has_records(dst, IPROF_KIND_CALL_COUNT, fd, 1, one, 1));
    iprof_model_free(dst);
    iprof_model_free(src);
}

/* ---- weights ------------------------------------------------------------ */

/* A src with one entry per kind holding counts; merged into an empty dst
 * with a weight, the dst records are the scaled counts. */
static iprof_model *counts_src(const int64_t *counts, size_t n)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_OK(iprof_model_add_type(m, 40, "T", 1, NULL));
    static const int64_t sig[] = {40};
    CHECK_OK(iprof_model_add_method(m, 1, "m", 1, sig, 1, NULL));
    for (size_t i = 0; i < n; i++) {
        int64_t f[] = {1, 0}, cc[] = {counts[i]}, cond[] = {7, (int64_t)i, counts[i]},
                vi[] = {40, counts[i]};
        f[1] = 0;
        int64_t sf[] = {1, (int64_t)i};
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, sf, 1, cc, 1));
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, f, 1, cond, 3));
        int64_t vf[] = {1, 100 + (int64_t)i};
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_VIRTUAL_INVOKE, vf, 1, vi, 2));
    }
    return m;
}

/* The scaled count of counts[i] in dst, seen through every kind. */
static int scaled_ok(const iprof_model *dst, size_t i, int64_t want)
{
    int64_t sf[] = {1, (int64_t)i}, vf[] = {1, 100 + (int64_t)i}, f[] = {1, 0};
    const iprof_entry *es = iprof_model_entry_find(dst, IPROF_KIND_SAMPLING, sf, 1);
    const iprof_entry *ev = iprof_model_entry_find(dst, IPROF_KIND_VIRTUAL_INVOKE, vf, 1);
    const iprof_entry *ec = iprof_model_entry_find(dst, IPROF_KIND_CONDITIONAL, f, 1);
    if (!es || !ev || !ec)
        return 0;
    const int64_t *rs = iprof_entry_records(es, NULL), *rv = iprof_entry_records(ev, NULL),
                  *rc = iprof_entry_records(ec, NULL);
    int ok = rs[0] == want && rv[0] == 40 && rv[1] == want && rc[3 * i] == 7 &&
             rc[3 * i + 1] == (int64_t)i && rc[3 * i + 2] == want;
    if (!ok)
        fprintf(stderr, "   count %zu: sampling %" PRId64 " vi %" PRId64 " cond %" PRId64
                        " want %" PRId64 "\n",
                i, rs[0], rv[1], rc[3 * i + 2], want);
    return ok;
}

static void check_weight(double w, const int64_t *counts, const int64_t *want, size_t n)
{
    iprof_model *src = counts_src(counts, n), *dst = NULL;
    CHECK_OK(iprof_model_new(&dst, NULL));
    CHECK_OK(merge(dst, src, w));
    for (size_t i = 0; i < n; i++)
        CHECK(scaled_ok(dst, i, want[i]));
    iprof_model_free(dst);
    iprof_model_free(src);
}

static void test_weights(void)
{
    const int64_t p60 = (int64_t)1 << 60;
    /* Integral: exact in integers, also above 2^53; saturating. */
    static int64_t c2[] = {0, 1, 7, 0, 0, INT64_MAX};
    static int64_t w2[] = {0, 2, 14, 0, 0, INT64_MAX};
    c2[3] = p60 + 1, w2[3] = 2 * p60 + 2;
    c2[4] = INT64_MAX / 2 + 1, w2[4] = INT64_MAX;
    check_weight(2.0, c2, w2, N(c2));
    static int64_t c1[] = {0, 0, 12345};
    c1[0] = p60 + 1, c1[1] = INT64_MAX;
    check_weight(1.0, c1, c1, N(c1));
    static int64_t c3[] = {3, 0};
    static int64_t w3[] = {9, INT64_MAX};
    c3[1] = ((int64_t)1 << 62);
    check_weight(3.0, c3, w3, N(c3));
    static const int64_t c0[] = {5, INT64_MAX}, w0[] = {0, 0};
    check_weight(0.0, c0, w0, N(c0));
    /* Non-integral: rounded to nearest, halves away from zero. */
    static const int64_t ch[] = {0, 1, 3, 4, 5, 1000001, INT64_MAX};
    static const int64_t wh[] = {0, 1, 2, 2, 3, 500001, (int64_t)1 << 62};
    check_weight(0.5, ch, wh, N(ch));
    static const int64_t cq[] = {1, 2, 3, 10};
    static const int64_t wq[] = {0, 1, 1, 3}; /* 0.25, 0.5, 0.75, 2.5 */
    check_weight(0.25, cq, wq, N(cq));
    static const int64_t cs[] = {2, INT64_MAX, (int64_t)1 << 62};
    static const int64_t ws[] = {5, INT64_MAX, INT64_MAX};
    check_weight(2.5, cs, ws, N(cs));
    static const int64_t cb[] = {0, 1};
    static const int64_t wb[] = {0, INT64_MAX};
    check_weight(1e300, cb, wb, N(cb));
}

/* ---- failures ----------------------------------------------------------- */

static void test_invalid(void)
{
    iprof_model *dst = make_dst(NULL), *src = make_src();
    snapshot before, after;
    take(dst, &before);
    CHECK_EQ_INT(merge(dst, dst, 1.0), IPROF_EINVAL);
    CHECK_EQ_INT(merge(NULL, src, 1.0), IPROF_EINVAL);
    CHECK_EQ_INT(merge(dst, NULL, 1.0), IPROF_EINVAL);
    CHECK_EQ_INT(merge(dst, src, -1.0), IPROF_EINVAL);
    CHECK_EQ_INT(merge(dst, src, -0.001), IPROF_EINVAL);
    CHECK_EQ_INT(merge(dst, src, NAN), IPROF_EINVAL);
    CHECK_EQ_INT(merge(dst, src, INFINITY), IPROF_EINVAL);
    CHECK_EQ_INT(merge(dst, src, -INFINITY), IPROF_EINVAL);
    iprof_merge_options o = IPROF_MERGE_OPTIONS_INIT;
    o.flags = IPROF_MERGE_THREADED | 0x4u;
    CHECK_EQ_INT(iprof_model_merge(dst, src, &o), IPROF_EINVAL);
    CHECK_EQ_STR(err_info(iprof_model_error(dst)).message, "merge options: unknown flags 0x4");
    take(dst, &after);
    CHECK(same(&before, &after));
    iprof_model_free(dst);
    iprof_model_free(src);
}

/* A src whose references do not resolve within it: EDANGLING, dst as it
 * was. Such a src comes from a lenient load; ipi_model_push_* store like
 * the loader does. */
static void test_dangling_src(void)
{
    static const char *const said[] = {
        "method 50: signature type id 77 (signature[1]) is not defined in the model merged from",
        "callCountProfiles entry: method id 99 is not defined in the model merged from",
        "virtualInvokeProfiles entry: type id 88 is not defined in the model merged from",
        "monitorProfiles entry: type id 88 is not defined in the model merged from"};
    /* unchecked: as a lenient load leaves the model (refs_checked clear),
     * the checks before the merge name the fault; else a src that claims
     * its references resolve is still refused, at the merge's end. */
    for (int variant = 0; variant < 8; variant++) {
        int unchecked = variant >= 4;
        iprof_model *dst = make_dst(NULL), *src = make_src();
        static const int64_t sig[] = {1, 77}, f[] = {99, 0}, one[] = {1}, vf[] = {1, 5},
                             vr[] = {88, 1}, mon[] = {0, 0};
        if (variant % 4 == 0)
            CHECK_OK(ipi_model_push_method(src, 50, "bad", 3, sig, 2, NULL));
        else if (variant % 4 == 1)
            CHECK_OK(ipi_model_push_entry_hashed(src, IPROF_KIND_CALL_COUNT, f, 1, NULL, one, 1));
        else if (variant % 4 == 2)
            CHECK_OK(ipi_model_push_entry_hashed(src, IPROF_KIND_VIRTUAL_INVOKE, vf, 1, NULL, vr, 2));
        else
            CHECK_OK(ipi_model_push_entry_hashed(src, IPROF_KIND_MONITOR, mon, 1, NULL, vr, 2));
        if (unchecked)
            ipi_model_changed(src, IPI_CHANGED_UNCHECKED, -1);
        snapshot before, after;
        take(dst, &before);
        CHECK_EQ_INT(merge(dst, src, 1.0), IPROF_EDANGLING);
        if (unchecked)
            CHECK_EQ_STR(err_info(iprof_model_error(dst)).message, said[variant % 4]);
        take(dst, &after);
        CHECK(same(&before, &after));
        iprof_model_free(dst);
        iprof_model_free(src);
    }
}

/* Entries that break the rules (lenient loads keep them): ESCHEMA, dst as
 * it was. Unchecked: as a lenient load leaves the model (refs_checked
 * clear), the checks before the merge name the fault in src's ids; else a
 * src that claims to keep the rules is still refused, at the merge's end. */
static void test_schema(void)
{
    static const char *const said[] = {
        "callCountProfiles entry: ctx: a call-count ctx must start at bci 0, so its records "
        "cannot be grouped",
        "conditionalProfiles entry: records: records must be (bci, index, count) triples, so "
        "its records cannot be grouped",
        "conditionalProfiles entry: records: records must be (bci, index, count) triples, so "
        "its records cannot be grouped"};
    for (int variant = 0; variant < 6; variant++) {
        int unchecked = variant >= 3;
        iprof_model *dst = make_dst(NULL), *src = make_src();
        static const int64_t f[] = {1, 4}, two[] = {1, 2}, pf[] = {2, 0};
        if (variant % 3 == 0) /* a call count not at bci 0 */
            CHECK_OK(ipi_model_push_entry_hashed(src, IPROF_KIND_CALL_COUNT, f, 1, NULL, two, 1));
        else if (variant % 3 == 1) /* conditional records not in triples */
            CHECK_OK(ipi_model_push_entry_hashed(src, IPROF_KIND_CONDITIONAL, f, 1, NULL, two, 2));
        else /* a dst entry that cannot be combined */
            CHECK_OK(ipi_model_push_entry_hashed(dst, IPROF_KIND_CONDITIONAL, pf, 1, NULL, two, 2));
        if (unchecked)
            ipi_model_changed(src, IPI_CHANGED_UNCHECKED, -1);
        snapshot before, after;
        take(dst, &before);
        CHECK_EQ_INT(merge(dst, src, 1.0), IPROF_ESCHEMA);
        if (unchecked)
            CHECK_EQ_STR(err_info(iprof_model_error(dst)).message, said[variant % 3]);
        take(dst, &after);
        CHECK(same(&before, &after));
        iprof_model_free(dst);
        iprof_model_free(src);
    }
}

/* A src entry that keeps the rules in src's ids but not in dst's: a
 * leniently loaded dst holds the method as id -3, which no context may
 * name. ESCHEMA, reported as the streaming merge reports it, dst as it
 * was. */
static void test_rule_broken_in_dst_ids(void)
{
    iprof_model *dst = make_dst(NULL), *src = NULL;
    static const int64_t sig[] = {1, 0}, f[] = {4, 0}, seven[] = {7};
    CHECK_OK(ipi_model_push_method(dst, -3, "neg", 3, sig, 2, NULL));
    CHECK_OK(iprof_model_new(&src, NULL));
    CHECK_OK(iprof_model_add_type(src, 0, "void", 4, NULL));
    CHECK_OK(iprof_model_add_type(src, 1, "A", 1, NULL));
    CHECK_OK(iprof_model_add_method(src, 4, "neg", 3, sig, 2, NULL));
    CHECK_OK(iprof_model_add_entry(src, IPROF_KIND_CALL_COUNT, f, 1, seven, 1));
    snapshot before, after;
    take(dst, &before);
    CHECK_EQ_INT(merge(dst, src, 1.0), IPROF_ESCHEMA);
    CHECK_EQ_STR(err_info(iprof_model_error(dst)).message,
                 "callCountProfiles entry: ctx: a method id in a ctx must not be negative, so "
                 "its records cannot be grouped");
    take(dst, &after);
    CHECK(same(&before, &after));
    iprof_model_free(dst);
    iprof_model_free(src);
}

/* dst keeps its by-names method index from merge to merge. A leniently
 * loaded dst whose method signature does not resolve cannot be matched
 * until a later merge adds the missing type; then it must be. */
static void test_names_index_across_merges(void)
{
    const char *lenient = "{\"version\":\"1.0.0\",\"types\":[{\"id\":1,\"name\":\"A\"}],"
                          "\"methods\":[{\"id\":5,\"name\":\"m\",\"signature\":[1,9]}]}";
    iprof_reader *r = NULL;
    iprof_model *dst = NULL, *empty = NULL, *src = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_OK(iprof_model_load(&dst, r, SRC_BUFFER(lenient, strlen(lenient))));
    iprof_reader_free(r);
    CHECK_OK(iprof_model_new(&empty, NULL));
    CHECK_OK(iprof_model_new(&src, NULL));
    if (!dst || !empty || !src)
        goto out;
    CHECK_OK(merge(dst, empty, 1.0)); /* builds the index */
    CHECK_EQ_INT(dst->names_unresolved, 1);
    CHECK_OK(iprof_model_add_type(src, 1, "A", 1, NULL));
    CHECK_OK(iprof_model_add_type(src, 9, "B", 1, NULL));
    static const int64_t sig[] = {1, 9};
    CHECK_OK(iprof_model_add_method(src, 3, "m", 1, sig, 2, NULL));
    static const int64_t f[] = {3, 0}, one[] = {4};
    CHECK_OK(iprof_model_add_entry(src, IPROF_KIND_CALL_COUNT, f, 1, one, 1));
    CHECK_OK(merge(dst, src, 1.0));
    /* B took the free id 9, which completes method 5: it matched. */
    CHECK_EQ_INT(iprof_model_type_count(dst), 2);
    CHECK_EQ_INT(iprof_model_method_count(dst), 1);
    static const int64_t f5[] = {5, 0};
    const iprof_entry *e = iprof_model_entry_find(dst, IPROF_KIND_CALL_COUNT, f5, 1);
    CHECK(e != NULL && iprof_entry_records(e, NULL)[0] == 4);
    /* Merging again finds everything through the kept index. */
    CHECK_OK(merge(dst, src, 2.0));
    CHECK_EQ_INT(iprof_model_method_count(dst), 1);
    CHECK(iprof_entry_records(iprof_model_entry_find(dst, IPROF_KIND_CALL_COUNT, f5, 1), NULL)[0] == 12);
    CHECK(atomic_load(&dst->index[IPI_IX_METHOD_NAMES]) != NULL);
    /* Removing a method drops the index; the next merge rebuilds it and adds
     * the method back under its src id. */
    CHECK_OK(iprof_model_remove_entry(dst, IPROF_KIND_CALL_COUNT, f5, 1));
    CHECK_OK(iprof_model_remove_method(dst, 5, 0));
    CHECK(atomic_load(&dst->index[IPI_IX_METHOD_NAMES]) == NULL);
    CHECK_OK(merge(dst, src, 1.0));
    CHECK_EQ_INT(iprof_model_method_count(dst), 1);
    CHECK(iprof_model_method_by_id(dst, 3) != NULL);
out:
    iprof_model_free(src);
    iprof_model_free(empty);
    iprof_model_free(dst);
}

/* A model of n methods over types "T0".."T9" (ids times type_stride),
 * method i named "m<i % 7>" with a signature of 2 + i % 3 types, under
 * ids from first_id on. */
static iprof_model *many_methods(int n, int64_t type_stride, int64_t first_id)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, NULL));
    char name[16];
    for (int t = 0; t < 10; t++) {
        int len = snprintf(name, sizeof name, "T%d", t);
        CHECK_OK(iprof_model_add_type(m, (9 - t) * type_stride, name, (size_t)len, NULL));
    }
    for (int i = 0; i < n; i++) {
        int len = snprintf(name, sizeof name, "m%d", i % 7);
        int64_t sig[4] = {(i % 10) * type_stride, (i / 10 % 10) * type_stride,
                          (i / 100 % 10) * type_stride, 3 * type_stride};
        size_t sig_len = 2 + (size_t)(i % 3);
        CHECK_OK(iprof_model_add_method(m, first_id + i, name, (size_t)len, sig, sig_len, NULL));
    }
    return m;
}

/* dst's names index built over hundreds of methods at once (on the first
 * merge into it), with dense and with sparse type ids: a src naming the
 * same methods under other ids adds none. */
static void test_names_index_of_a_large_dst(void)
{
    static const int64_t strides[] = {1, INT64_C(1000000007)};
    for (int k = 0; k < 2; k++) {
        iprof_model *dst = many_methods(700, strides[k], 1);
        iprof_model *src = many_methods(700, 1, 5000);
        size_t before = iprof_model_method_count(dst);
        CHECK(before > 600); /* distinct (name, signature) pairs */
        CHECK_OK(merge(dst, src, 1.0));
        CHECK_EQ_INT(iprof_model_method_count(dst), before);
        CHECK_EQ_INT(iprof_model_type_count(dst), 10);
        iprof_model_free(dst);
        iprof_model_free(src);
    }
}

/* A src larger than the batches a model is merged in (128 KiB): 10000
 * types with long names, 3000 methods with an entry each, and one entry
 * of 20000 records (160 KB, more than a batch). Merged into an empty model
 * it gives src; merged again with weight 2, every count triples. */
static void test_larger_than_a_batch(void)
{
    iprof_model *src = NULL, *dst = NULL;
    CHECK_OK(iprof_model_new(&src, NULL));
    CHECK_OK(iprof_model_new(&dst, NULL));
    char name[80];
    enum { BIG = 20000 }; /* records of one entry: a pair per type */
    for (int64_t i = 0; i < BIG / 2; i++) {
        int len = snprintf(name, sizeof name, "org.example.generated.Type%05lld",
                           (long long)i);
        CHECK_OK(iprof_model_add_type(src, 2 * i + 1, name, (size_t)len, NULL));
    }
    for (int64_t i = 0; i < 3000; i++) {
        int64_t sig[] = {2 * i + 1, 1};
        int len = snprintf(name, sizeof name, "method%05lld", (long long)i);
        CHECK_OK(iprof_model_add_method(src, 3 * i + 2, name, (size_t)len, sig, 2, NULL));
        int64_t f[] = {3 * i + 2, 0}, count[] = {i + 1};
        CHECK_OK(iprof_model_add_entry(src, IPROF_KIND_CALL_COUNT, f, 1, count, 1));
    }
    int64_t *recs = malloc(BIG * sizeof *recs);
    CHECK(recs != NULL);
    for (int64_t i = 0; i < BIG; i += 2) {
        recs[i] = i + 1; /* type 2 * (i / 2) + 1 */
        recs[i + 1] = i + 7;
    }
    static const int64_t vf[] = {2, 5};
    CHECK_OK(iprof_model_add_entry(src, IPROF_KIND_VIRTUAL_INVOKE, vf, 1, recs, BIG));
    CHECK_OK(merge(dst, src, 1.0));
    CHECK_EQ_INT(model_diff(dst, src), 0);
    CHECK_OK(merge(dst, src, 2.0));
    CHECK_EQ_INT(iprof_model_type_count(dst), BIG / 2);
    CHECK_EQ_INT(iprof_model_method_count(dst), 3000);
    int ok = 1;
    for (int64_t i = 0; i < 3000; i++) {
        int64_t f[] = {3 * i + 2, 0}, want[] = {3 * (i + 1)};
        ok &= has_records(dst, IPROF_KIND_CALL_COUNT, f, 1, want, 1);
    }
    CHECK(ok);
    for (int64_t i = 1; i < BIG; i += 2)
        recs[i] *= 3;
    CHECK(has_records(dst, IPROF_KIND_VIRTUAL_INVOKE, vf, 1, recs, BIG));
    free(recs);
    iprof_model_free(dst);
    iprof_model_free(src);
}

static void test_alloc_failure(void)
{
    int completed = 0;
    long n;
    iprof_model *src = make_src();
    for (n = 1; n < 10000 && !completed; n++) {
        fail_alloc fa = {.fail_at = 0};
        iprof_allocator a = {fa_malloc, fa_realloc, fa_free, &fa};
        iprof_model *dst = make_dst(&a);
        fa.fail_at = n;
        int rc = merge(dst, src, 2.0);
        CHECK(fa.failed_hard ? rc == IPROF_ENOMEM : rc == IPROF_OK);
        completed = !fa.failed;
        fa.fail_at = 0;
        if (!completed) { /* all or nothing: dst is as it was */
            iprof_model *fresh = make_dst(NULL);
            CHECK_EQ_INT(model_diff(dst, fresh), 0);
            iprof_model_free(fresh);
        }
        /* And consistent: the lookups find every element. */
        int ok = 1;
        for (size_t i = 0; i < iprof_model_type_count(dst); i++) {
            const iprof_type *t = iprof_model_type_at(dst, i);
            ok &= iprof_model_type_by_id(dst, iprof_type_id(t)) == t;
        }
        for (int k = 0; k < IPROF_KIND_COUNT; k++)
            for (size_t i = 0; i < iprof_model_entry_count(dst, k); i++) {
                const iprof_entry *e = iprof_model_entry_at(dst, k, i);
                int64_t fr[8];
                size_t d = iprof_context_frames(iprof_entry_context(e), fr, 4);
                ok &= iprof_model_entry_find(dst, k, fr, d) == e;
            }
        CHECK(ok);
        if (completed) {
            static const int64_t f_go[] = {2, 0}, twentyfive[] = {25};
            CHECK(has_records(dst, IPROF_KIND_CALL_COUNT, f_go, 1, twentyfive, 1));
            CHECK_EQ_INT(iprof_model_method_count(dst), 4);
        }
        iprof_model_free(dst);
        CHECK_EQ_INT(fa.live_blocks, 0);
        CHECK_EQ_INT(fa.live_bytes, 0);
    }
    iprof_model_free(src);
    CHECK(completed);
    fprintf(stderr, "   %ld allocations failed in turn\n", n - 2);
}

/* ---- on two threads ----------------------------------------------------- */

/* A src of several batches (128 KiB each), so that a threaded merge hands
 * batches to its second thread: 3,000 types with long names, 2,000
 * methods, a call count for each, receiver types for one in three, and
 * sampled stacks three frames deep. batches_src(1000) shares 2,000 of its
 * types, and methods whose names and signature types agree, with
 * batches_src(0). */
static iprof_model *batches_src(int shift)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, NULL));
    char name[96];
    for (int i = 0; i < 3000; i++) {
        int len = snprintf(name, sizeof name, "org.example.threaded.generated.Type%05d",
                           i + shift);
        CHECK_OK(iprof_model_add_type(m, i, name, (size_t)len, NULL));
    }
    for (int i = 0; i < 2000; i++) {
        int64_t sig[] = {i % 3000, (i * 7) % 3000};
        int len = snprintf(name, sizeof name, "method%d", (i + shift) % 2000);
        CHECK_OK(iprof_model_add_method(m, i + 1, name, (size_t)len, sig, 2, NULL));
    }
    for (int i = 0; i < 2000; i++) {
        int64_t f[] = {i + 1, 0}, count[] = {i + 1};
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f, 1, count, 1));
        int64_t vf[] = {i + 1, 3}, vr[] = {i % 3000, 2 + i, (i * 11) % 3000, 1};
        if (i % 3 == 0)
            CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_VIRTUAL_INVOKE, vf, 1, vr, 4));
        int64_t sf[] = {i + 1, 4, (i * 13) % 2000 + 1, 9, (i * 17) % 2000 + 1, 2};
        int64_t sr[] = {i % 5 + 1};
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, sf, 3, sr, 1));
    }
    return m;
}

/* The flag takes effect: threaded, a merge of several batches allocates on
 * a second thread too, unthreaded on the calling one alone; the two give
 * the same model, merged into an empty model or into another. */
static void test_second_thread(void)
{
    iprof_model *a = batches_src(0), *b = batches_src(1000);
    iprof_model *got[2] = {NULL, NULL};
    for (int threaded = 0; threaded < 2; threaded++) {
        mt_alloc c;
        mt_init(&c, MT_FAIL_NONE, 0);
        iprof_allocator al = mt_hook(&c);
        mt_spare_this_thread(&c); /* count the other threads' calls only */
        CHECK_OK(iprof_model_new(&got[threaded], &al));
        iprof_merge_options o = IPROF_MERGE_OPTIONS_INIT;
        o.flags = threaded ? IPROF_MERGE_THREADED : 0;
        CHECK_OK(iprof_model_merge(got[threaded], a, &o));
        long others = atomic_load(&c.count);
        if (threaded)
            CHECK(others > 10);
        else
            CHECK_EQ_INT(others, 0);
        CHECK_EQ_INT(model_diff(got[threaded], a), 0);
        iprof_model_free(got[threaded]);
        CHECK_EQ_INT(atomic_load(&c.live_bytes), 0);
    }
    for (int threaded = 0; threaded < 2; threaded++) {
        got[threaded] = batches_src(0);
        iprof_merge_options o = IPROF_MERGE_OPTIONS_INIT;
        o.flags = threaded ? IPROF_MERGE_THREADED : 0;
        o.weight = 0.5;
        CHECK_OK(iprof_model_merge(got[threaded], b, &o));
    }
    CHECK_EQ_INT(model_diff(got[0], got[1]), 0);
    /* b's types 0..1999 are a's 1000..2999; b's method 1 ("method1000",
     * signature b's 0 and 7) is a's method 1001 ("method1000", signature
     * a's 1000 and 7007 % 3000 = 1007 = b's 7): matched, so a's count 1001
     * takes b's 1 times 0.5, rounded away from zero. Method 1000 of b
     * ("method999", b's types 999 and 993, a's 1999 and 1993) is a's 2000
     * ("method1999"): no match, a new method. */
    CHECK_EQ_INT(iprof_model_type_count(got[1]), 4000);
    int64_t f[] = {1001, 0};
    const iprof_entry *e = iprof_model_entry_find(got[1], IPROF_KIND_CALL_COUNT, f, 1);
    CHECK(e != NULL);
    if (e)
        CHECK_EQ_INT(iprof_entry_records(e, NULL)[0], 1001 + 1);
    iprof_model_free(got[0]);
    iprof_model_free(got[1]);
    iprof_model_free(a);
    iprof_model_free(b);
}

/* Allocation failure with both threads allocating: fail only the Nth call,
 * or it and every later one, or only the Nth of the merging thread's
 * calls, for N = 1, 2, ... until a merge needs no failure. Each merge ends
 * with IPROF_ENOMEM and dst as it was, or IPROF_OK and what an unthreaded
 * merge gives; no byte leaks. */
typedef struct threaded_sweep {
    const iprof_model *src, *want, *fresh;
    int which; /* 0: only the Nth, 1: from the Nth on, 2: only the merging thread's Nth */
} threaded_sweep;

static int merge_failing(long n, void *arg)
{
    const threaded_sweep *w = arg;
    mt_alloc c;
    mt_init(&c, MT_FAIL_NONE, 0);
    iprof_allocator al = mt_hook(&c);
    iprof_model *dst = NULL;
    CHECK_OK(iprof_model_new(&dst, &al));
    CHECK_OK(iprof_model_merge(dst, w->fresh, NULL)); /* a copy of fresh */
    iprof_merge_options o = IPROF_MERGE_OPTIONS_INIT;
    o.weight = 2.0;
    o.flags = IPROF_MERGE_THREADED;
    mt_arm(&c, w->which == 1 ? MT_FAIL_FROM : MT_FAIL_ONLY, n);
    if (w->which == 2)
        mt_spare_this_thread(&c);
    int rc = iprof_model_merge(dst, w->src, &o);
    int how = mt_outcome(&c);
    c.mode = MT_FAIL_NONE;
    c.spare_thread = 0;
    if (how == MT_RUN_ENOMEM) {
        CHECK_EQ_INT(rc, IPROF_ENOMEM);
        CHECK_EQ_INT(model_diff(dst, w->fresh), 0);
    } else {
        CHECK_OK(rc);
        CHECK_EQ_INT(model_diff(dst, w->want), 0);
    }
    iprof_model_free(dst);
    mt_check_freed(&c, n);
    return how;
}

static void test_alloc_failure_threaded(void)
{
    iprof_model *src = batches_src(1000), *want = batches_src(0), *fresh = batches_src(0);
    iprof_merge_options o = IPROF_MERGE_OPTIONS_INIT;
    o.weight = 2.0;
    CHECK_OK(iprof_model_merge(want, src, &o)); /* unthreaded */
    static const char *const how[] = {"fail only the Nth", "fail from the Nth on",
                                      "fail only the merging thread's Nth"};
    for (int which = 0; which < 3; which++) {
        threaded_sweep w = {src, want, fresh, which};
        mt_sweep(how[which], merge_failing, &w);
    }
    iprof_model_free(src);
    iprof_model_free(want);
    iprof_model_free(fresh);
}

/* ---- real profiles ------------------------------------------------------ */

static iprof_model *load_corpus(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, NULL));
    CHECK_OK(iprof_model_load(&m, r, SRC_PATH(path)));
    iprof_reader_free(r);
    return m;
}

static void test_corpus(void)
{
    const char *dir = check_corpus_dir();
    if (!dir)
        SKIP("IPROF_CORPUS_DIR is not set or has no README.md");
    iprof_model *a = load_corpus(dir, "jsonata-cli-0.4.0.iprof");
    iprof_model *b = load_corpus(dir, "assorted-benchmarks-0.4.0.iprof");
    iprof_model *dst = NULL;
    CHECK_OK(iprof_model_new(&dst, NULL));
    if (!a || !b || !dst)
        goto out;
    CHECK_OK(merge(dst, a, 1.0));
    CHECK_EQ_INT(iprof_model_type_count(dst), 5299);
    CHECK_EQ_INT(iprof_model_method_count(dst), 43276);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        CHECK_EQ_INT(iprof_model_entry_count(dst, k), iprof_model_entry_count(a, k));
    /* Merging the same profile again doubles every count and adds nothing. */
    CHECK_OK(merge(dst, a, 1.0));
    CHECK_EQ_INT(iprof_model_type_count(dst), 5299);
    CHECK_EQ_INT(iprof_model_method_count(dst), 43276);
    int ok = 1;
    for (size_t i = 0; i < iprof_model_entry_count(a, IPROF_KIND_CALL_COUNT); i++) {
        const int64_t *ra = iprof_entry_records(iprof_model_entry_at(a, 0, i), NULL);
        const int64_t *rd = iprof_entry_records(iprof_model_entry_at(dst, 0, i), NULL);
        ok &= rd[0] == 2 * ra[0];
    }
    CHECK(ok);
    /* Two different profiles: the union of names. */
    CHECK_OK(merge(dst, b, 0.5));
    CHECK(iprof_model_type_count(dst) >= 5299 && iprof_model_type_count(dst) < 5299 + 5079);
    for (size_t i = 0; i < iprof_model_type_count(b); i++) {
        size_t len;
        const char *name = iprof_type_name(iprof_model_type_at(b, i), &len);
        ok &= iprof_model_type_by_name(dst, name, len) != NULL;
    }
    CHECK(ok);
out:
    iprof_model_free(dst);
    iprof_model_free(a);
    iprof_model_free(b);
}

/* Every test of the merge itself, with merge_flags as set. */
static void run_all(void)
{
    RUN(test_version);
    RUN(test_union_and_remap);
    RUN(test_into_empty);
    RUN(test_match_by_names);
    RUN(test_weights);
    RUN(test_invalid);
    RUN(test_dangling_src);
    RUN(test_schema);
    RUN(test_rule_broken_in_dst_ids);
    RUN(test_names_index_across_merges);
    RUN(test_names_index_of_a_large_dst);
    RUN(test_larger_than_a_batch);
    RUN(test_alloc_failure);
    RUN(test_corpus);
}

int main(void)
{
    for (int run = 0; run < 2; run++) {
        merge_flags = run ? IPROF_MERGE_THREADED : 0;
        fprintf(stderr, "-- %s\n", run ? "IPROF_MERGE_THREADED" : "unthreaded");
        run_all();
    }
    RUN(test_second_thread);
    RUN(test_alloc_failure_threaded);
    return check_done();
}
