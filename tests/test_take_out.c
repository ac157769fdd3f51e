/* Taking things out with the 1.0 verbs (docs/api-1.0.md, 2.4): remove
 * (iprof_model_remove_unknown with a NULL key, iprof_model_remove_method
 * with and without IPROF_REMOVE_CASCADE), filter (the
 * predicates of iprof_filter_options, alone, as the 0.x retain calls they
 * replace, and in their step order) and prune (IPROF_PRUNE_DANGLING on
 * every file of tests/data against what dangles by its definition, and its
 * order before IPROF_PRUNE_METHODS). Exact outputs throughout. */
#include <iprof/analysis.h>
#include <iprof/edit.h>
#include <iprof/iprof.h>
#include <iprof/transform.h>

#include <dirent.h>
#include <stddef.h>

#include "check.h"
#include "check_api.h"
#include "check_model.h"
#include "model.h"

/* Every kind of 1.1.0; packages p (types 1, 2) and q (type 3). */
#define T_INT "{\"id\":0,\"name\":\"int\"}"
#define T_A "{\"id\":1,\"name\":\"p.A\"}"
#define T_B "{\"id\":2,\"name\":\"p.B\"}"
#define T_C "{\"id\":3,\"name\":\"q.C\"}"
#define M_A "{\"id\":1,\"name\":\"a\",\"signature\":[1,0]}"
#define M_B "{\"id\":2,\"name\":\"b\",\"signature\":[2,0]}"
#define M_C "{\"id\":3,\"name\":\"c\",\"signature\":[3,0]}"
#define CC1 "{\"ctx\":\"1:0\",\"records\":[10]}"
#define CC2 "{\"ctx\":\"2:0<1:5\",\"records\":[20]}"
#define CC3 "{\"ctx\":\"3:0\",\"records\":[30]}"
#define CC4 "{\"ctx\":\"2:0<2:1\",\"records\":[5]}"
#define COND "{\"ctx\":\"1:2\",\"records\":[4,0,7]}"
#define VI "{\"ctx\":\"1:3<3:9\",\"records\":[2,8]}"
#define MON "{\"ctx\":\"0:0\",\"records\":[1,9]}"
#define S1 "{\"ctx\":\"2:0\",\"records\":[4]}"
#define S2 "{\"ctx\":\"3:1<2:2\",\"records\":[6]}"
#define INST "{\"ctx\":\"3:4\",\"records\":[1,2]}"
#define DOC(types, methods, cc, cond, vi, mon, samp, inst)                                    \
    "{\"version\":\"1.1.0\",\"types\":[" types "],\"methods\":[" methods "],"                \
    "\"callCountProfiles\":[" cc "],\"conditionalProfiles\":[" cond "],"                      \
    "\"virtualInvokeProfiles\":[" vi "],\"monitorProfiles\":[" mon "],"                        \
    "\"samplingProfiles\":[" samp "],\"instanceofProfiles\":[" inst "]}"
#define ALL_T T_INT "," T_A "," T_B "," T_C
#define ALL_M M_A "," M_B "," M_C

static const char IN[] = DOC(ALL_T, ALL_M, CC1 "," CC2 "," CC3 "," CC4, COND, VI, MON,
                             S1 "," S2, INST);

static iprof_model *load_flags(const char *doc, size_t len, unsigned flags)
{
    iprof_read_options ro = IPROF_READ_OPTIONS_INIT;
    ro.flags = flags;
    iprof_reader *r = NULL;
    iprof_model *m = NULL;
    CHECK_OK(iprof_reader_new(&r, &ro));
    if (iprof_model_load(&m, r, SRC_BUFFER(doc, len)) != IPROF_OK)
        m = NULL;
    iprof_reader_free(r);
    return m;
}

static iprof_model *load(const char *doc)
{
    iprof_model *m = load_flags(doc, strlen(doc), 0);
    CHECK(m != NULL);
    return m;
}

/* Written as is (no reference checks). */
static char *text(const iprof_model *m)
{
    return model_text(m, IPROF_WRITE_NO_VALIDATE);
}

static void expect_text(const iprof_model *m, const char *want)
{
    char *t = text(m);
    CHECK_EQ_STR(t, want);
    free(t);
}

/* ---- predicates that say what they were shown ----------------------------- */

typedef struct seen {
    check_text log;       /* what keep_entry, keep_method and keep_type saw */
    int64_t refuse_frame; /* keep_frame refuses frames of this method */
    size_t frames, zero_frames;
    int refuse_kind;          /* keep_entry refuses entries of this kind ... */
    int64_t refuse_callee;    /* ... whose callee is this method */
    int64_t refuse_method;    /* keep_method refuses this id */
    int64_t refuse_type;      /* keep_type refuses this id */
} seen;

static seen seen_none(void)
{
    seen s = {{NULL, 0, 0}, -1, 0, 0, -1, -1, -1, -1};
    tx_add(&s.log, "%s", "");
    return s;
}

static int64_t callee(const iprof_entry *e)
{
    return iprof_context_method_id(iprof_entry_context(e));
}

static int keep_frame(int64_t method_id, int64_t bci, void *payload)
{
    seen *s = payload;
    s->frames++;
    s->zero_frames += method_id == 0 && bci == 0;
    return method_id != s->refuse_frame;
}

static int keep_entry(const iprof_entry *e, void *payload)
{
    seen *s = payload;
    tx_add(&s->log, "E%d:%lld:%lld ", iprof_entry_kind(e), (long long)callee(e),
           (long long)iprof_entry_total(e));
    return !(iprof_entry_kind(e) == s->refuse_kind && callee(e) == s->refuse_callee);
}

static int keep_method(const iprof_method *x, void *payload)
{
    seen *s = payload;
    tx_add(&s->log, "M%lld ", (long long)iprof_method_id(x));
    return iprof_method_id(x) != s->refuse_method;
}

static int keep_type(const iprof_type *t, void *payload)
{
    seen *s = payload;
    tx_add(&s->log, "T%lld ", (long long)iprof_type_id(t));
    return iprof_type_id(t) != s->refuse_type;
}

/* IN, read strictly (so the model vouches for its references). */
static iprof_model *load_in(void)
{
    iprof_model *m = load_flags(IN, strlen(IN), IPROF_READ_STRICT);
    CHECK(m != NULL);
    return m;
}

/* The filter of IN with o (payload: s) and what it left. */
static iprof_model *filter_in(iprof_filter_options *o, seen *s, int expect)
{
    iprof_model *m = load_in();
    o->payload = s;
    CHECK_EQ_INT(iprof_model_filter(m, o), expect);
    return m;
}

/* ---- filter: each predicate alone ---------------------------------------- */

static void test_keep_frame(void)
{
    iprof_model *m = load_in();
    expect_text(m, IN); /* what the expectations below start from */
    iprof_model_free(m);
    seen s = seen_none();
    s.refuse_frame = 3;
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    o.keep_frame = keep_frame;
    m = filter_in(&o, &s, IPROF_OK);
    /* Every kind, callee or caller: 3:0, 1:3<3:9, 3:1<2:2 and 3:4 go;
     * types and methods stay. */
    expect_text(m, DOC(ALL_T, ALL_M, CC1 "," CC2 "," CC4, COND, "", MON, S1, ""));
    /* Frames shown up to the first refused one of each entry: 6 call
     * count, 1 conditional, 2 virtual invoke, the monitor's (0, 0), 2
     * sampling, 1 instanceof. */
    CHECK_EQ_INT(s.frames, 13);
    CHECK_EQ_INT(s.zero_frames, 1);
    free(s.log.s);
    iprof_model_free(m);
}

static void test_keep_entry(void)
{
    seen s = seen_none();
    s.refuse_kind = IPROF_KIND_CALL_COUNT;
    s.refuse_callee = 2;
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    o.keep_entry = keep_entry;
    iprof_model *m = filter_in(&o, &s, IPROF_OK);
    expect_text(m, DOC(ALL_T, ALL_M, CC1 "," CC3, COND, VI, MON, S1 "," S2, INST));
    /* Every entry of every kind once, in kind and file order. */
    CHECK_EQ_STR(s.log.s, "E0:1:10 E0:2:20 E0:3:30 E0:2:5 E1:1:7 E2:1:8 E3:0:9 E4:2:4 "
                          "E4:3:6 E5:3:2 ");
    free(s.log.s);
    iprof_model_free(m);
    /* Only the kinds kept so far are shown. */
    s = seen_none();
    o.kinds = IPROF_KIND_BIT(IPROF_KIND_SAMPLING);
    m = filter_in(&o, &s, IPROF_OK);
    CHECK_EQ_STR(s.log.s, "E4:2:4 E4:3:6 ");
    expect_text(m, DOC(ALL_T, ALL_M, "", "", "", "", S1 "," S2, ""));
    free(s.log.s);
    iprof_model_free(m);
}

static void test_keep_method_and_type(void)
{
    iprof_model *clean = load_in();
    CHECK_EQ_INT(clean->refs_checked, 1); /* a strict load vouches for its references */
    iprof_model_free(clean);
    seen s = seen_none();
    s.refuse_method = 2;
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    o.keep_method = keep_method;
    iprof_model *m = filter_in(&o, &s, IPROF_OK);
    /* The entries naming method 2 stay (they dangle: a strict write
     * refuses the model). */
    expect_text(m, DOC(ALL_T, M_A "," M_C, CC1 "," CC2 "," CC3 "," CC4, COND, VI, MON,
                      S1 "," S2, INST));
    CHECK_EQ_STR(s.log.s, "M1 M2 M3 ");
    char *strict = model_text(m, 0);
    CHECK_EQ_STR(strict, "(write failed)");
    free(strict);
    /* The model no longer vouches for its references (model.h:
     * refs_checked): the canonical form checks them and refuses. */
    CHECK_EQ_INT(m->refs_checked, 0);
    CHECK_EQ_INT(iprof_model_canonicalize(m, 0), IPROF_EDANGLING);
    free(s.log.s);
    iprof_model_free(m);

    s = seen_none();
    s.refuse_type = 3;
    o = (iprof_filter_options)IPROF_FILTER_OPTIONS_INIT;
    o.keep_type = keep_type;
    m = filter_in(&o, &s, IPROF_OK);
    expect_text(m, DOC(T_INT "," T_A "," T_B, ALL_M, CC1 "," CC2 "," CC3 "," CC4, COND, VI, MON,
                      S1 "," S2, INST));
    CHECK_EQ_STR(s.log.s, "T0 T1 T2 T3 ");
    CHECK_EQ_INT(m->refs_checked, 0);
    CHECK_EQ_INT(iprof_model_canonicalize(m, 0), IPROF_EDANGLING);
    free(s.log.s);
    iprof_model_free(m);
}

/* ---- filter: the steps in their order ------------------------------------ */

/* keep_frame (2) before keep_entry (3), which sees what packages (4) and
 * the minimum (5) then drop; keep_method (9) and keep_type (10) after the
 * dropped packages' methods and types (8) went. */
static void test_step_order(void)
{
    seen s = seen_none();
    s.refuse_frame = 3;
    s.refuse_kind = IPROF_KIND_CALL_COUNT;
    s.refuse_callee = 1;
    s.refuse_type = 3;
    const char *drop[] = {"p.B"};
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    o.keep_frame = keep_frame;
    o.keep_entry = keep_entry;
    o.keep_method = keep_method;
    o.keep_type = keep_type;
    o.drop_packages = drop;
    o.drop_package_count = 1;
    o.min_count = 6;
    iprof_model *m = filter_in(&o, &s, IPROF_OK);
    /* Not shown to keep_entry: 3:0, 1:3<3:9, 3:1<2:2, 3:4 (keep_frame).
     * Shown: 2:0<1:5 and 2:0<2:1 (then dropped by package p.B, the second
     * also below the minimum), 2:0 sampling (p.B, and 4 < 6). Method 2 and
     * type 2 (of p.B, then named by nothing) are gone before keep_method
     * and keep_type look. */
    CHECK_EQ_STR(s.log.s, "E0:1:10 E0:2:20 E0:2:5 E1:1:7 E3:0:9 E4:2:4 M1 M3 T0 T1 T3 ");
    expect_text(m, DOC(T_INT "," T_A, M_A "," M_C, "", COND, "", MON, "", ""));
    free(s.log.s);
    iprof_model_free(m);
}

/* The top percent sees only what keep_entry kept: the call counts are
 * 10, 20, 30, 5; with 30 refused, 40 % of 35 is reached by 20 alone (top
 * first would have kept only 30, then lost it). */
static void test_statistics_after_predicates(void)
{
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    o.kinds = IPROF_KIND_BIT(IPROF_KIND_CALL_COUNT);
    o.top_percent = 40;
    seen s = seen_none();
    iprof_model *m = filter_in(&o, &s, IPROF_OK);
    expect_text(m, DOC(ALL_T, ALL_M, CC3, "", "", "", "", ""));
    iprof_model_free(m);
    o.keep_entry = keep_entry;
    s.refuse_kind = IPROF_KIND_CALL_COUNT;
    s.refuse_callee = 3;
    m = filter_in(&o, &s, IPROF_OK);
    expect_text(m, DOC(ALL_T, ALL_M, CC2, "", "", "", "", ""));
    iprof_model_free(m);
    /* The minimum likewise: keep_frame takes 3:0 (30) out, the minimum
     * then the entries below 10. */
    o = (iprof_filter_options)IPROF_FILTER_OPTIONS_INIT;
    o.keep_frame = keep_frame;
    o.min_count = 10;
    s.refuse_frame = 3;
    s.frames = 0;
    m = filter_in(&o, &s, IPROF_OK);
    expect_text(m, DOC(ALL_T, ALL_M, CC1 "," CC2, "", "", "", "", ""));
    iprof_model_free(m);
    free(s.log.s);
}

/* With max_depth, the entries that would break the cut are checked before
 * anything changes, over what the predicates keep: a refused entry is not
 * cut, so not refused. */
static void test_predicates_before_the_cut_check(void)
{
    static const char broken[] =
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
        "\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[0,0]},"
        "{\"id\":2,\"name\":\"b\",\"signature\":[0,0]}],"
        "\"callCountProfiles\":[{\"ctx\":\"1:0<2:5\",\"records\":[1]},"
        "{\"ctx\":\"2:0\",\"records\":[9]}],"
        "\"conditionalProfiles\":[{\"ctx\":\"1:3<2:5\",\"records\":[3,0,5,1]}],"
        "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[]}";
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    o.max_depth = 1;
    iprof_model *m = load(broken);
    CHECK_EQ_INT(iprof_model_filter(m, &o), IPROF_ESCHEMA);
    expect_text(m, broken);
    iprof_model_free(m);
    seen s = seen_none();
    o.payload = &s;
    o.keep_entry = keep_entry;
    s.refuse_kind = IPROF_KIND_CONDITIONAL;
    s.refuse_callee = 1;
    m = load(broken);
    CHECK_OK(iprof_model_filter(m, &o));
    expect_text(m, "{\"version\":\"1.0.0\",\"types\":[{\"id\":0,\"name\":\"T\"}],"
                  "\"methods\":[{\"id\":1,\"name\":\"a\",\"signature\":[0,0]},"
                  "{\"id\":2,\"name\":\"b\",\"signature\":[0,0]}],"
                  "\"callCountProfiles\":[{\"ctx\":\"1:0\",\"records\":[1]},"
                  "{\"ctx\":\"2:0\",\"records\":[9]}],"
                  "\"conditionalProfiles\":[],"
                  "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[]}");
    iprof_model_free(m);
    /* keep_frame the same (frame 2:5 refused: both deep entries go). */
    o.keep_entry = NULL;
    o.keep_frame = keep_frame;
    s.refuse_frame = 2;
    m = load(broken);
    CHECK_OK(iprof_model_filter(m, &o));
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CONDITIONAL), 0);
    CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 0);
    iprof_model_free(m);
    free(s.log.s);
}

/* ---- filter: each predicate as the 0.x retain call it replaces ------------ */

/* keep_entry for 0.x retain_entries(m, kind, ...): the other kinds pass. */
typedef struct one_kind {
    int kind;
    seen *s;
} one_kind;

static int keep_entry_of_kind(const iprof_entry *e, void *payload)
{
    const one_kind *k = payload;
    return iprof_entry_kind(e) != k->kind || keep_entry(e, k->s);
}

/* Model a after one call, b after another: the same model, the expected
 * text, and the same verdict of a strict write. */
static void check_same(iprof_model *a, iprof_model *b, const char *want)
{
    CHECK_EQ_INT(model_diff(a, b), 0);
    expect_text(a, want);
    expect_text(b, want);
    char *sa = model_text(a, 0), *sb = model_text(b, 0);
    CHECK_EQ_STR(sa, sb);
    free(sa);
    free(sb);
    /* Both vouch for their references or neither: the canonical form
     * (which checks them only then) gives the same. */
    CHECK_EQ_INT(iprof_model_canonicalize(a, 0), iprof_model_canonicalize(b, 0));
    sa = text(a), sb = text(b);
    CHECK_EQ_STR(sa, sb);
    free(sa);
    free(sb);
    iprof_model_free(a);
    iprof_model_free(b);
}

/* Each predicate alone gives what its 0.x retain call gave (the texts
 * below were those of both, when phase A compared them). */
static void test_each_predicate_as_retain(void)
{
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    seen s = seen_none();
    s.refuse_kind = IPROF_KIND_SAMPLING;
    s.refuse_callee = 3;
    one_kind k = {IPROF_KIND_SAMPLING, &s};
    iprof_model *m = load_in();
    o.keep_entry = keep_entry_of_kind;
    o.payload = &k;
    CHECK_OK(iprof_model_filter(m, &o));
    expect_text(m, DOC(ALL_T, ALL_M, CC1 "," CC2 "," CC3 "," CC4, COND, VI, MON, S1, INST));
    iprof_model_free(m);

    o = (iprof_filter_options)IPROF_FILTER_OPTIONS_INIT;
    o.payload = &s;
    s.refuse_frame = 2;
    m = load_in();
    o.keep_frame = keep_frame;
    CHECK_OK(iprof_model_filter(m, &o));
    expect_text(m, DOC(ALL_T, ALL_M, CC1 "," CC3, COND, VI, MON, "", INST));
    iprof_model_free(m);

    o = (iprof_filter_options)IPROF_FILTER_OPTIONS_INIT;
    o.payload = &s;
    s.refuse_method = 1;
    m = load_in();
    o.keep_method = keep_method;
    CHECK_OK(iprof_model_filter(m, &o));
    expect_text(m, DOC(ALL_T, M_B "," M_C, CC1 "," CC2 "," CC3 "," CC4, COND, VI, MON,
                       S1 "," S2, INST));
    iprof_model_free(m);

    o = (iprof_filter_options)IPROF_FILTER_OPTIONS_INIT;
    o.payload = &s;
    s.refuse_type = 0;
    m = load_in();
    o.keep_type = keep_type;
    CHECK_OK(iprof_model_filter(m, &o));
    expect_text(m, DOC(T_A "," T_B "," T_C, ALL_M, CC1 "," CC2 "," CC3 "," CC4, COND, VI, MON,
                       S1 "," S2, INST));
    iprof_model_free(m);
    free(s.log.s);
}

/* ---- filter options versions ---------------------------------------------- */

/* 1.0 has version 1 only (every struct restarted there): init zeroes it
 * whole, and any other version is refused, changing nothing. */
static void test_options_versions(void)
{
    CHECK_EQ_INT(IPROF_FILTER_OPTIONS_VERSION, 1);
    union {
        iprof_filter_options o;
        unsigned char bytes[sizeof(iprof_filter_options)];
    } z;
    memset(&z, 0xAB, sizeof z);
    CHECK_OK(iprof_filter_options_init(&z.o, 1));
    CHECK_EQ_INT(z.o.version, 1);
    size_t zero = 0;
    for (size_t i = sizeof z.o.version; i < sizeof z; i++)
        zero += z.bytes[i] == 0;
    CHECK_EQ_INT(zero, sizeof z - sizeof z.o.version); /* the whole struct */
    CHECK(z.o.keep_frame == NULL && z.o.keep_entry == NULL && z.o.keep_method == NULL &&
          z.o.keep_type == NULL && z.o.payload == NULL && z.o.max_depth == 0);
    CHECK_EQ_INT(iprof_filter_options_init(&z.o, 2), IPROF_EINVAL);
    CHECK_EQ_INT(iprof_filter_options_init(&z.o, 0), IPROF_EINVAL);
    iprof_model *m;
    iprof_filter_options bad = IPROF_FILTER_OPTIONS_INIT;
    bad.version = 2;
    m = load_in();
    CHECK_EQ_INT(iprof_model_filter(m, &bad), IPROF_EINVAL);
    CHECK_EQ_STR(err_info(iprof_model_error(m)).message, "filter options: unknown version 2");
    expect_text(m, IN);
    iprof_model_free(m);
}

/* ---- prune --------------------------------------------------------------- */

static size_t total_entries(const iprof_model *m, size_t counts[IPROF_KIND_COUNT])
{
    size_t n = 0;
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        n += counts[k] = iprof_model_entry_count(m, k);
    return n;
}

/* Whether a type or method id is defined in m. */
static int has_type(const iprof_model *m, int64_t id)
{
    return iprof_model_type_by_id(m, id) != NULL;
}

/* What IPROF_PRUNE_DANGLING should take out of m, computed here from the
 * definition (docs/api-1.0.md, 2.4) and not by the library: methods whose
 * signature names an undefined type; then entries with a frame naming a
 * method not left (a monitor's dummy frame 0:0 aside) or a record naming
 * an undefined type (the type ids of virtual invoke, monitor and
 * instanceof records, every second number). */
static size_t dangling_of(const iprof_model *m, size_t entries[IPROF_KIND_COUNT])
{
    size_t methods = 0, nm = iprof_model_method_count(m);
    int64_t *left = calloc(nm ? nm : 1, sizeof *left);
    size_t nleft = 0;
    for (size_t i = 0; i < nm; i++) {
        const iprof_method *x = iprof_model_method_at(m, i);
        size_t n = 0;
        const int64_t *sig = iprof_method_signature(x, &n);
        int ok = 1;
        for (size_t j = 0; j < n; j++)
            ok &= has_type(m, sig[j]);
        if (ok && left)
            left[nleft++] = iprof_method_id(x);
        methods += !ok;
    }
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        entries[k] = 0;
        int typed = k == IPROF_KIND_VIRTUAL_INVOKE || k == IPROF_KIND_MONITOR ||
                    k == IPROF_KIND_INSTANCEOF;
        for (size_t i = 0; i < iprof_model_entry_count(m, k); i++) {
            const iprof_entry *e = iprof_model_entry_at(m, k, i);
            int ok = 1;
            if (k != IPROF_KIND_MONITOR)
                for (const iprof_context *c = iprof_entry_context(e); c && ok;
                     c = iprof_context_caller(c)) {
                    int found = 0;
                    for (size_t j = 0; j < nleft && !found; j++)
                        found = left[j] == iprof_context_method_id(c);
                    ok = found;
                }
            size_t n = 0;
            const int64_t *r = iprof_entry_records(e, &n);
            for (size_t j = 0; typed && ok && j < n; j += 2)
                ok = has_type(m, r[j]);
            entries[k] += !ok;
        }
    }
    free(left);
    return methods;
}

/* IPROF_PRUNE_DANGLING on a file: what went equals what dangled, counted
 * as differences of counts (the way iprof repair reports it), and nothing
 * dangles afterwards. Returns what went (methods and entries), or
 * (size_t)-1 when the file does not load. */
static size_t prune_dangling_of_file(const char *path)
{
    size_t len = 0;
    char *doc = check_read_file(path, &len);
    CHECK(doc != NULL);
    iprof_model *m = doc ? load_flags(doc, len, IPROF_READ_SALVAGE) : NULL;
    free(doc);
    if (!m)
        return (size_t)-1;
    size_t entries[IPROF_KIND_COUNT];
    size_t methods = dangling_of(m, entries);
    size_t before[IPROF_KIND_COUNT], after[IPROF_KIND_COUNT];
    size_t methods_before = iprof_model_method_count(m);
    total_entries(m, before);
    CHECK_OK(iprof_model_prune(m, IPROF_PRUNE_DANGLING));
    total_entries(m, after);
    size_t gone = methods;
    CHECK_EQ_INT(methods_before - iprof_model_method_count(m), methods);
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        CHECK_EQ_INT(before[k] - after[k], entries[k]);
        gone += entries[k];
    }
    /* Nothing dangles afterwards, and a second prune takes nothing. */
    size_t rest = dangling_of(m, entries);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        rest += entries[k];
    CHECK_EQ_INT(rest, 0);
    methods_before = iprof_model_method_count(m);
    CHECK_OK(iprof_model_prune(m, IPROF_PRUNE_DANGLING));
    CHECK_EQ_INT(iprof_model_method_count(m), methods_before);
    CHECK_EQ_INT(total_entries(m, before), total_entries(m, after));
    iprof_model_free(m);
    return gone;
}

static void test_prune_dangling_on_files(void)
{
    const char *src = getenv("IPROF_SOURCE_DIR");
    if (!src)
        SKIP("IPROF_SOURCE_DIR is not set");
    char dir[2048], path[4096];
    snprintf(dir, sizeof dir, "%s/tests/data", src);
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    size_t files = 0, loaded = 0, gone = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 6, ".iprof") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t g = prune_dangling_of_file(path);
        files++;
        if (g != (size_t)-1) {
            loaded++;
            gone += g;
        }
    }
    if (d)
        closedir(d);
    fprintf(stderr, "   %zu files, %zu loaded, %zu methods and entries dangled\n", files, loaded,
            gone);
    CHECK(files > 0);
    CHECK(loaded > 0);
    CHECK(gone > 0); /* some file had something dangling */
    /* The documented one (tests/data/README.md): a method naming type 9,
     * entries naming methods 2 and 3 and type 7. */
    snprintf(path, sizeof path, "%s/repair-dangling.iprof", dir);
    size_t len = 0;
    char *doc = check_read_file(path, &len);
    iprof_model *m = doc ? load_flags(doc, len, IPROF_READ_SALVAGE) : NULL;
    free(doc);
    CHECK(m != NULL);
    size_t methods_before = iprof_model_method_count(m), entries[IPROF_KIND_COUNT];
    total_entries(m, entries);
    if (m)
        CHECK_OK(iprof_model_prune(m, IPROF_PRUNE_DANGLING));
    CHECK_EQ_INT(methods_before - iprof_model_method_count(m), 1);
    CHECK_EQ_INT(iprof_model_method_by_id(m, 2) == NULL && iprof_model_method_by_id(m, 3) == NULL, 1);
    size_t after[IPROF_KIND_COUNT];
    size_t went = 0;
    total_entries(m, after);
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        went += entries[k] - after[k];
    CHECK_EQ_INT(went, 3);
    iprof_model_free(m);
    CHECK_EQ_INT(prune_dangling_of_file(path), 4);
}

/* DANGLING first: a method that only a dangling entry named is then
 * unreferenced, and METHODS takes it; an unknown key that may hold ids
 * holds METHODS and TYPES back, not DANGLING. */
static void test_prune_order_and_unknown_keys(void)
{
    static const int64_t sig[] = {1, 0}, gone_sig[] = {5, 0};
    static const int64_t f_dangling[] = {9, 0, 2, 1}, f_a[] = {1, 0}, f_gone[] = {3, 4};
    static const int64_t one[] = {1};
    for (int with_key = 0; with_key < 2; with_key++) {
        iprof_model *m = NULL;
        CHECK_OK(iprof_model_new(&m, NULL));
        CHECK_OK(iprof_model_add_type(m, 0, "int", 3, NULL));
        CHECK_OK(iprof_model_add_type(m, 1, "p.A", 3, NULL));
        CHECK_OK(iprof_model_add_type(m, 5, "p.Gone", 6, NULL));
        CHECK_OK(iprof_model_add_method(m, 1, "a", 1, sig, 2, NULL));
        CHECK_OK(iprof_model_add_method(m, 2, "b", 1, sig, 2, NULL));
        CHECK_OK(iprof_model_add_method(m, 3, "g", 1, gone_sig, 2, NULL));
        CHECK_OK(iprof_model_add_method(m, 9, "n", 1, sig, 2, NULL));
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f_dangling, 2, one, 1));
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, f_a, 1, one, 1));
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_SAMPLING, f_gone, 1, one, 1));
        /* Method 9 and type 5 go without their entries and methods: those
         * dangle. */
        CHECK_OK(iprof_model_remove_method(m, 9, 0));
        CHECK_OK(iprof_model_remove_type(m, 5));
        if (with_key)
            CHECK_OK(iprof_model_add_unknown(m, "ids", 3, "[2]", 3));
        CHECK_OK(iprof_model_prune(m, IPROF_PRUNE_DANGLING | IPROF_PRUNE_METHODS |
                                          IPROF_PRUNE_TYPES));
        /* Gone: method 3 (type 5), the entries naming 9 and 3; then (no
         * key) method 2, which only the entry naming 9 named. Type p.A
         * stays (method a's signature); nothing else was unreferenced. */
        CHECK_EQ_INT(iprof_model_method_count(m), with_key ? 2 : 1);
        CHECK(iprof_model_method_by_id(m, 1) != NULL);
        CHECK_EQ_INT(iprof_model_method_by_id(m, 2) != NULL, with_key);
        CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_CALL_COUNT), 1);
        CHECK_EQ_INT(iprof_model_entry_count(m, IPROF_KIND_SAMPLING), 0);
        CHECK_EQ_INT(iprof_model_type_count(m), 2);
        iprof_model_free(m);
    }
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_EQ_INT(iprof_model_prune(m, 8), IPROF_EINVAL);
    CHECK_EQ_STR(err_info(iprof_model_error(m)).message, "unknown prune flags 0x8");
    CHECK_OK(iprof_model_prune(m, IPROF_PRUNE_DANGLING));
    CHECK(iprof_model_error(m) == NULL);
    CHECK_EQ_INT(iprof_model_prune(NULL, IPROF_PRUNE_DANGLING), IPROF_EINVAL);
    iprof_model_free(m);
}

/* ---- remove -------------------------------------------------------------- */

static void test_remove_unknown_all(void)
{
    static const char doc[] =
        "{\"version\":\"1.0.0\",\"types\":[],\"x\":[1],\"methods\":[],\"y\":{},"
        "\"callCountProfiles\":[],\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
        "\"monitorProfiles\":[],\"samplingProfiles\":[],\"x\":2}";
    static const char none[] =
        "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],"
        "\"callCountProfiles\":[],\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],"
        "\"monitorProfiles\":[],\"samplingProfiles\":[]}";
    iprof_model *m = load(doc);
    CHECK_EQ_INT(iprof_model_unknown_count(m), 3);
    /* A NULL key with a length is a mistake: nothing goes. */
    CHECK_EQ_INT(iprof_model_remove_unknown(m, NULL, 1), IPROF_EINVAL);
    CHECK_EQ_STR(err_info(iprof_model_error(m)).message, "the key is NULL with a length of 1");
    CHECK_EQ_INT(iprof_model_unknown_count(m), 3);
    CHECK_OK(iprof_model_remove_unknown(m, NULL, 0));
    CHECK(iprof_model_error(m) == NULL);
    CHECK_EQ_INT(iprof_model_unknown_count(m), 0);
    expect_text(m, none);
    /* None left: still IPROF_OK (a named key: IPROF_ENOTFOUND). */
    CHECK_OK(iprof_model_remove_unknown(m, NULL, 0));
    CHECK_EQ_INT(iprof_model_remove_unknown(m, "x", 1), IPROF_ENOTFOUND);
    iprof_model_free(m);
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_OK(iprof_model_remove_unknown(m, NULL, 0));
    CHECK_EQ_INT(iprof_model_unknown_count(m), 0);
    /* A key added to an emptied model goes the same way. */
    CHECK_OK(iprof_model_add_unknown(m, "k", 1, "[]", 2));
    CHECK_OK(iprof_model_remove_unknown(m, NULL, 0));
    CHECK_EQ_INT(iprof_model_unknown_count(m), 0);
    iprof_model_free(m);
    CHECK_EQ_INT(iprof_model_remove_unknown(NULL, NULL, 0), IPROF_EINVAL);
}

/* ipi_model_remove_method_flags is both 0.x calls, and 1.0's
 * iprof_model_remove_method(m, id, flags). */
static void test_remove_method_flags(void)
{
    CHECK_EQ_INT(IPROF_REMOVE_CASCADE, 1);
    iprof_model *a = load_in(), *b = load_in();
    CHECK_OK(iprof_model_remove_method(a, 2, 0));
    CHECK_OK(ipi_model_remove_method_flags(b, 2, 0));
    /* The entries naming it stay, dangling: a strict write refuses. */
    check_same(a, b, DOC(ALL_T, M_A "," M_C, CC1 "," CC2 "," CC3 "," CC4, COND, VI, MON,
                         S1 "," S2, INST));
    a = load_in(), b = load_in();
    CHECK_OK(iprof_model_remove_method(a, 2, IPROF_REMOVE_CASCADE));
    CHECK_OK(ipi_model_remove_method_flags(b, 2, IPROF_REMOVE_CASCADE));
    check_same(a, b, DOC(ALL_T, M_A "," M_C, CC1 "," CC3, COND, VI, MON, "", INST));
    a = load_in();
    CHECK_EQ_INT(ipi_model_remove_method_flags(a, 2, 2), IPROF_EINVAL);
    CHECK_EQ_STR(err_info(iprof_model_error(a)).message, "unknown remove flags 0x2");
    CHECK_EQ_INT(ipi_model_remove_method_flags(a, 7, IPROF_REMOVE_CASCADE), IPROF_ENOTFOUND);
    CHECK_EQ_INT(ipi_model_remove_method_flags(a, 7, 0), IPROF_ENOTFOUND);
    CHECK_EQ_INT(iprof_model_remove_method(a, 7, IPROF_REMOVE_CASCADE), IPROF_ENOTFOUND);
    expect_text(a, IN);
    iprof_model_free(a);
    CHECK_EQ_INT(ipi_model_remove_method_flags(NULL, 1, 0), IPROF_EINVAL);
}

int main(void)
{
    RUN(test_keep_frame);
    RUN(test_keep_entry);
    RUN(test_keep_method_and_type);
    RUN(test_step_order);
    RUN(test_statistics_after_predicates);
    RUN(test_predicates_before_the_cut_check);
    RUN(test_each_predicate_as_retain);
    RUN(test_options_versions);
    RUN(test_prune_dangling_on_files);
    RUN(test_prune_order_and_unknown_keys);
    RUN(test_remove_unknown_all);
    RUN(test_remove_method_flags);
    return check_done();
}
