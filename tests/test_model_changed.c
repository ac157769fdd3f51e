/*
 * What a change to a model makes stale (ipi_model_changed, model_index.c):
 * its decision table flag by flag, then every kind of edit through the
 * public API, each followed by lookups that a stale index would answer
 * wrongly (a removed element, a position that moved), columns that must
 * show the change, and writes that must still refuse a reference an edit
 * left dangling.
 */
#include "check.h"
#include "check_api.h"

#include <iprof/analysis.h>
#include <iprof/edit.h>
#include <iprof/iprof.h>
#include <iprof/transform.h>

#include "model.h"

#define N(a) (sizeof(a) / sizeof *(a))

static const int64_t sig00[] = {0, 0};

/* Types 0 "T", 1 "A", 2 "A" (a second type of that name); methods 3 and 4
 * with the same key ("m", [0, 0]) and 5 "n" [1, 0]; call-count entries at
 * 3:0, 4:0, 5:0 (records 10, 20, 30) and a virtual invoke entry at 5:1
 * naming type 1. */
static iprof_model *sample(void)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_OK(iprof_model_add_type(m, 0, "T", 1, NULL));
    CHECK_OK(iprof_model_add_type(m, 1, "A", 1, NULL));
    CHECK_OK(iprof_model_add_type(m, 2, "A", 1, NULL));
    CHECK_OK(iprof_model_add_method(m, 3, "m", 1, sig00, 2, NULL));
    CHECK_OK(iprof_model_add_method(m, 4, "m", 1, sig00, 2, NULL));
    CHECK_OK(iprof_model_add_method(m, 5, "n", 1, (const int64_t[]){1, 0}, 2, NULL));
    for (int64_t i = 0; i < 3; i++)
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, (const int64_t[]){3 + i, 0}, 1,
                                       (const int64_t[]){10 * (i + 1)}, 1));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_VIRTUAL_INVOKE, (const int64_t[]){5, 1}, 1,
                                   (const int64_t[]){0, 7, 1, 2}, 4));
    return m;
}

/* Build every index and every kind's columns. */
static void build_all(iprof_model *m)
{
    CHECK_OK(iprof_model_build_indexes(m));
    CHECK(ipi_index_method_names(m, 0, NULL) != NULL);
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        iprof_columns c = IPROF_COLUMNS_INIT;
        CHECK_OK(iprof_model_get_columns(m, k, &c));
    }
}

/* Bits of what is built: index i at bit i, kind k's columns at bit
 * IPI_IX_COUNT + k. */
static unsigned long built(iprof_model *m)
{
    unsigned long b = 0;
    for (int i = 0; i < IPI_IX_COUNT; i++)
        b |= (unsigned long)(atomic_load(&m->index[i]) != NULL) << i;
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        b |= (unsigned long)(atomic_load(&m->columns[k]) != NULL) << (IPI_IX_COUNT + k);
    return b;
}

#define IX(i) (1ul << (i))
#define COL(k) (1ul << (IPI_IX_COUNT + (k)))
#define ALL ((1ul << (IPI_IX_COUNT + IPROF_KIND_COUNT)) - 1)

/* The decision table itself: what each flag drops, and nothing more. */
static void test_decision_table(void)
{
    static const struct {
        unsigned what;
        int kind;
        unsigned long dropped;
        int unchecked;
    } rows[] = {
        {IPI_CHANGED_TYPES_ADDED, -1, 0, 0}, /* no method unresolved: nothing */
        {IPI_CHANGED_TYPES_REMOVED, -1, IX(IPI_IX_TYPE_NAMES) | IX(IPI_IX_METHOD_NAMES), 0},
        {IPI_CHANGED_METHODS_REMOVED, -1, IX(IPI_IX_METHOD_KEYS) | IX(IPI_IX_METHOD_NAMES), 0},
        {IPI_CHANGED_ENTRIES_ADDED, 0, COL(0), 0},
        {IPI_CHANGED_RECORDS, 1, COL(1), 0},
        {IPI_CHANGED_ENTRIES_REMOVED, 4, IX(IPI_IX_ENTRIES + 4) | COL(4), 0},
        {IPI_CHANGED_UNCHECKED, -1, 0, 1},
        {IPI_CHANGED_TYPES_REMOVED | IPI_CHANGED_UNCHECKED, -1,
         IX(IPI_IX_TYPE_NAMES) | IX(IPI_IX_METHOD_NAMES), 1},
        {0, -1, 0, 0},
    };
    for (size_t i = 0; i < N(rows); i++) {
        iprof_model *m = sample();
        build_all(m);
        CHECK_EQ_INT(built(m), ALL);
        CHECK_EQ_INT(m->refs_checked, 1);
        ipi_model_changed(m, rows[i].what, rows[i].kind);
        if (built(m) != (ALL & ~rows[i].dropped))
            fprintf(stderr, "   row %zu\n", i);
        CHECK_EQ_INT(built(m), ALL & ~rows[i].dropped);
        CHECK_EQ_INT(m->refs_checked, !rows[i].unchecked);
        iprof_model_free(m);
    }
    /* Every kind at once. */
    static const unsigned per_kind[] = {IPI_CHANGED_ENTRIES_ADDED, IPI_CHANGED_RECORDS,
                                        IPI_CHANGED_ENTRIES_REMOVED};
    for (size_t i = 0; i < N(per_kind); i++) {
        iprof_model *m = sample();
        build_all(m);
        ipi_model_changed(m, per_kind[i], -1);
        unsigned long gone = 0;
        for (int k = 0; k < IPROF_KIND_COUNT; k++)
            gone |= COL(k) | (per_kind[i] == IPI_CHANGED_ENTRIES_REMOVED
                                  ? IX(IPI_IX_ENTRIES + k) : 0);
        CHECK_EQ_INT(built(m), ALL & ~gone);
        iprof_model_free(m);
    }
}

/* A type appended while a method of the names index lacks a signature
 * type: the index goes (it may now take that method), and its count of
 * unresolved methods with it. */
static void test_types_added_complete_a_method(void)
{
    iprof_model *m = sample();
    CHECK_OK(ipi_model_push_method(m, 6, "u", 1, (const int64_t[]){0, 9}, 2, NULL));
    CHECK(ipi_index_method_names(m, 0, NULL) != NULL);
    CHECK_EQ_INT(m->names_unresolved, 1);
    CHECK_OK(iprof_model_build_indexes(m));
    unsigned long before = built(m);
    CHECK_OK(iprof_model_add_type(m, 9, "N", 1, NULL));
    CHECK_EQ_INT(built(m), before & ~IX(IPI_IX_METHOD_NAMES));
    CHECK_EQ_INT(m->names_unresolved, 0);
    /* Rebuilt, it finds the method by its names. */
    const ipi_rtab *names = ipi_index_method_names(m, 0, NULL);
    CHECK_EQ_INT(m->names_unresolved, 0);
    const iprof_method *u = iprof_model_method_by_id(m, 6);
    const iprof_type *sig[] = {iprof_model_type_by_id(m, 0), iprof_model_type_by_id(m, 9)};
    int ok;
    uint64_t h = ipi_method_names_key(m, u, &ok);
    CHECK(ok && names && ipi_find_method_by_names(m, names, u->name, sig, 2, h) == u);
    iprof_model_free(m);
}

/* ---- lookups after each edit ------------------------------------------- */

static int64_t type_id_by_name(const iprof_model *m, const char *name)
{
    const iprof_type *t = iprof_model_type_by_name(m, name, strlen(name));
    return t ? iprof_type_id(t) : -1;
}

static int64_t method_id_by_key(const iprof_model *m)
{
    const iprof_method *x = iprof_model_method_find(m, "m", 1, sig00, 2);
    return x ? iprof_method_id(x) : -1;
}

/* The first record of the call-count entry at method:0, -1 if none. */
static int64_t cc_at(const iprof_model *m, int64_t method)
{
    const iprof_entry *e =
        iprof_model_entry_find(m, IPROF_KIND_CALL_COUNT, (const int64_t[]){method, 0}, 1);
    return e ? iprof_entry_records(e, NULL)[0] : -1;
}

/* The call-count column's records, as one number per entry. */
static void check_cc_column(const iprof_model *m, const int64_t *want, size_t n)
{
    iprof_columns c = IPROF_COLUMNS_INIT;
    CHECK_OK(iprof_model_get_columns(m, IPROF_KIND_CALL_COUNT, &c));
    CHECK_EQ_INT(c.count, n);
    CHECK_EQ_INT(c.record_count, n);
    for (size_t i = 0; i < n && i < c.record_count; i++)
        CHECK_EQ_INT(c.records[i], want[i]);
}

static int not_type_1(const iprof_type *t, void *payload)
{
    (void)payload;
    return iprof_type_id(t) != 1;
}

static int not_method_3(const iprof_method *x, void *payload)
{
    (void)payload;
    return iprof_method_id(x) != 3;
}

/* Call count entries not at method 3 (entries of other kinds stay). */
static int not_at_method_3(const iprof_entry *e, void *payload)
{
    (void)payload;
    return iprof_entry_kind(e) != IPROF_KIND_CALL_COUNT ||
           iprof_context_method_id(iprof_entry_context(e)) != 3;
}

/* iprof_model_filter with one predicate. */
static int filter_types(iprof_model *m, iprof_model_type_pred keep)
{
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    o.keep_type = keep;
    return iprof_model_filter(m, &o);
}

static int filter_methods(iprof_model *m, iprof_model_method_pred keep)
{
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    o.keep_method = keep;
    return iprof_model_filter(m, &o);
}

static int filter_entries(iprof_model *m, iprof_model_entry_pred keep)
{
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    o.keep_entry = keep;
    return iprof_model_filter(m, &o);
}

/* Removing the first type of a name: the name finds the second. */
static void test_types_removed(void)
{
    for (int retain = 0; retain < 2; retain++) {
        iprof_model *m = sample();
        build_all(m);
        CHECK_EQ_INT(type_id_by_name(m, "A"), 1);
        if (retain)
            CHECK_OK(filter_types(m, not_type_1));
        else
            CHECK_OK(iprof_model_remove_type(m, 1));
        CHECK_EQ_INT(type_id_by_name(m, "A"), 2);
        CHECK_EQ_INT(type_id_by_name(m, "T"), 0);
        CHECK_EQ_INT(m->refs_checked, 0); /* method 5 and a record name type 1 */
        iprof_model_free(m);
    }
}

/* Removing the first method of a key: the key finds the second. */
static void test_methods_removed(void)
{
    for (int how = 0; how < 3; how++) {
        iprof_model *m = sample();
        build_all(m);
        CHECK_EQ_INT(method_id_by_key(m), 3);
        if (how == 0)
            CHECK_OK(iprof_model_remove_method(m, 3, 0));
        else if (how == 1)
            CHECK_OK(filter_methods(m, not_method_3));
        else
            CHECK_OK(iprof_model_remove_method(m, 3, IPROF_REMOVE_CASCADE)); /* its entry first */
        CHECK_EQ_INT(method_id_by_key(m), 4);
        CHECK_EQ_INT(iprof_model_method_count(m), 2);
        /* Only the cascade took the entry naming it: what was checked
         * stays so there alone. */
        CHECK_EQ_INT(m->refs_checked, how == 2);
        CHECK_EQ_INT(cc_at(m, 3), how == 2 ? -1 : 10);
        CHECK_EQ_INT(cc_at(m, 5), 30);
        iprof_model_free(m);
    }
}

/* Removing the first entry moves the others: each context still finds
 * its own records, in the index and in the columns. */
static void test_entries_removed(void)
{
    for (int retain = 0; retain < 2; retain++) {
        iprof_model *m = sample();
        build_all(m);
        CHECK_EQ_INT(cc_at(m, 5), 30);
        check_cc_column(m, (const int64_t[]){10, 20, 30}, 3);
        if (retain)
            CHECK_OK(filter_entries(m, not_at_method_3));
        else
            CHECK_OK(iprof_model_remove_entry(m, IPROF_KIND_CALL_COUNT,
                                              (const int64_t[]){3, 0}, 1));
        CHECK_EQ_INT(cc_at(m, 3), -1);
        CHECK_EQ_INT(cc_at(m, 4), 20);
        CHECK_EQ_INT(cc_at(m, 5), 30);
        check_cc_column(m, (const int64_t[]){20, 30}, 2);
        /* Appended after the removal, the next one is indexed where it is. */
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, (const int64_t[]){3, 0}, 1,
                                       (const int64_t[]){40}, 1));
        CHECK_EQ_INT(cc_at(m, 3), 40);
        check_cc_column(m, (const int64_t[]){20, 30, 40}, 3);
        CHECK_EQ_INT(m->refs_checked, 1);
        iprof_model_free(m);
    }
}

/* Records set, mapped, scaled, combined and entries appended: the index
 * holds, the columns show the new values. */
static int plus_one(const iprof_entry *e, int64_t *records, size_t n, void *payload)
{
    (void)e, (void)payload;
    for (size_t i = 0; i < n; i++)
        records[i]++;
    return 0;
}

static void test_records_changed(void)
{
    iprof_model *m = sample();
    build_all(m);
    const int CC = IPROF_KIND_CALL_COUNT;
    CHECK_OK(iprof_model_set_entry_records(m, CC, (const int64_t[]){4, 0}, 1,
                                           (const int64_t[]){21}, 1));
    CHECK_EQ_INT(cc_at(m, 4), 21);
    check_cc_column(m, (const int64_t[]){10, 21, 30}, 3);
    CHECK_OK(iprof_model_map_records(m, CC, plus_one, NULL));
    check_cc_column(m, (const int64_t[]){11, 22, 31}, 3);
    CHECK_OK(iprof_model_scale(m, CC, 2.0, IPROF_ROUND_NEAREST_AWAY));
    check_cc_column(m, (const int64_t[]){22, 44, 62}, 3);
    CHECK_OK(iprof_model_add_entry(m, CC, (const int64_t[]){5, 0}, 1, (const int64_t[]){8}, 1));
    CHECK_EQ_INT(cc_at(m, 5), 70);
    check_cc_column(m, (const int64_t[]){22, 44, 70}, 3);
    CHECK_OK(iprof_model_add_entry(m, CC, (const int64_t[]){5, 0, 3, 2}, 2,
                                   (const int64_t[]){9}, 1));
    check_cc_column(m, (const int64_t[]){22, 44, 70, 9}, 4);
    CHECK_EQ_INT(iprof_entry_records(iprof_model_entry_find(m, CC, (const int64_t[]){5, 0, 3, 2},
                                                            2), NULL)[0], 9);
    CHECK_EQ_INT(m->refs_checked, 1);
    iprof_model_free(m);
}

/* The filter's depth cut replaces a kind's list: the deep entries fold
 * into their callees' contexts, which find the sums. */
static void test_entries_cut(void)
{
    iprof_model *m = sample();
    const int CC = IPROF_KIND_CALL_COUNT;
    CHECK_OK(iprof_model_add_entry(m, CC, (const int64_t[]){4, 0, 3, 2}, 2,
                                   (const int64_t[]){5}, 1));
    build_all(m);
    CHECK_EQ_INT(cc_at(m, 4), 20);
    check_cc_column(m, (const int64_t[]){10, 20, 30, 5}, 4);
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    o.max_depth = 1;
    CHECK_OK(iprof_model_filter(m, &o));
    CHECK_EQ_INT(cc_at(m, 4), 25);
    CHECK_EQ_INT(cc_at(m, 5), 30);
    check_cc_column(m, (const int64_t[]){10, 25, 30}, 3);
    iprof_model_free(m);
}

/* Pruning and dropping packages remove only what nothing names: the
 * lookups see them gone, and what was checked stays so. */
static void test_prune_and_drop_packages(void)
{
    iprof_model *m = sample();
    CHECK_OK(iprof_model_add_type(m, 7, "p.Q", 3, NULL));
    CHECK_OK(iprof_model_add_method(m, 8, "q", 1, (const int64_t[]){7, 0}, 2, NULL));
    CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, (const int64_t[]){8, 0}, 1,
                                   (const int64_t[]){1}, 1));
    CHECK_OK(iprof_model_remove_entry(m, IPROF_KIND_CALL_COUNT, (const int64_t[]){3, 0}, 1));
    build_all(m);
    CHECK_EQ_INT(method_id_by_key(m), 3);
    CHECK_OK(iprof_model_prune(m, IPROF_PRUNE_METHODS | IPROF_PRUNE_TYPES));
    CHECK_EQ_INT(method_id_by_key(m), 4); /* 3 named by nothing: gone */
    CHECK_EQ_INT(type_id_by_name(m, "A"), 1); /* 1 named by method 5, 2 by nothing */
    CHECK_EQ_INT(iprof_model_type_count(m), 3);
    CHECK_EQ_INT(m->refs_checked, 1);
    iprof_filter_options o = IPROF_FILTER_OPTIONS_INIT;
    static const char *const drop[] = {"p"};
    o.drop_packages = drop;
    o.drop_package_count = 1;
    CHECK_EQ_INT(type_id_by_name(m, "p.Q"), 7);
    CHECK_OK(iprof_model_filter(m, &o));
    CHECK_EQ_INT(type_id_by_name(m, "p.Q"), -1);
    CHECK(iprof_model_method_by_id(m, 8) == NULL);
    CHECK_EQ_INT(cc_at(m, 8), -1);
    CHECK_EQ_INT(m->refs_checked, 1);
    iprof_model_free(m);
}

/* ---- a failed merge put back ---------------------------------------------- */

/* A failed merge appended a type, a method and an entry and combined
 * into entries: put back, lookups and columns show the model as it was,
 * and a later merge adds the type and method again. */
static void test_merge_undone(void)
{
    iprof_model *dst = sample(), *src = sample(), *again = NULL;
    const int CC = IPROF_KIND_CALL_COUNT;
    static const int64_t k11[] = {1, 1}, z90[] = {9, 0};
    /* dst's method -6 matches src's 6, whose entry, of the last kind,
     * then breaks a rule in dst's ids: the merge fails after everything
     * else. src's conditional entry sits at a context dst had (5:1). */
    CHECK_OK(ipi_model_push_method(dst, -6, "k", 1, k11, 2, NULL));
    CHECK_OK(iprof_model_add_type(src, 9, "Z", 1, NULL));
    CHECK_OK(iprof_model_add_method(src, 7, "z", 1, z90, 2, NULL));
    CHECK_OK(iprof_model_add_method(src, 6, "k", 1, k11, 2, NULL));
    CHECK_OK(iprof_model_add_entry(src, CC, (const int64_t[]){7, 0, 5, 1}, 2,
                                   (const int64_t[]){6}, 1));
    CHECK_OK(iprof_model_add_entry(src, IPROF_KIND_CONDITIONAL, (const int64_t[]){5, 1}, 1,
                                   (const int64_t[]){0, 0, 4}, 3));
    CHECK_OK(iprof_model_add_entry(src, IPROF_KIND_SAMPLING, (const int64_t[]){6, 0}, 1,
                                   (const int64_t[]){1}, 1));
    build_all(dst);
    int checked = dst->refs_checked;
    CHECK_EQ_INT(merge_weighted(dst, src, 1.0), IPROF_ESCHEMA);
    CHECK_EQ_INT(cc_at(dst, 3), 10);
    CHECK(iprof_model_entry_find(dst, CC, (const int64_t[]){7, 0, 5, 1}, 2) == NULL);
    CHECK(iprof_model_entry_find(dst, IPROF_KIND_CONDITIONAL, (const int64_t[]){5, 1}, 1) ==
          NULL);
    check_cc_column(dst, (const int64_t[]){10, 20, 30}, 3);
    CHECK_EQ_INT(type_id_by_name(dst, "Z"), -1);
    CHECK(iprof_model_method_find(dst, "z", 1, z90, 2) == NULL);
    CHECK_EQ_INT(type_id_by_name(dst, "A"), 1);
    CHECK_EQ_INT(method_id_by_key(dst), 3);
    CHECK_EQ_INT(dst->refs_checked, checked);
    /* Merged again without the failing entry: Z and z come back. */
    CHECK_OK(iprof_model_new(&again, NULL));
    CHECK_OK(iprof_model_add_type(again, 0, "T", 1, NULL));
    CHECK_OK(iprof_model_add_type(again, 9, "Z", 1, NULL));
    CHECK_OK(iprof_model_add_method(again, 7, "z", 1, z90, 2, NULL));
    CHECK_OK(iprof_model_add_entry(again, CC, (const int64_t[]){7, 0}, 1, (const int64_t[]){2},
                                   1));
    CHECK_OK(merge_weighted(dst, again, 1.0));
    CHECK_EQ_INT(iprof_model_type_count(dst), 4);
    CHECK_EQ_INT(iprof_model_method_count(dst), 5);
    CHECK_EQ_INT(type_id_by_name(dst, "Z"), 9);
    const iprof_method *z = iprof_model_method_find(dst, "z", 1, z90, 2);
    CHECK(z != NULL && iprof_method_id(z) == 7);
    CHECK_EQ_INT(cc_at(dst, 7), 2);
    check_cc_column(dst, (const int64_t[]){10, 20, 30, 2}, 4);
    iprof_model_free(again);
    iprof_model_free(src);
    iprof_model_free(dst);
}

/* A failed merge that built dst's names index and added nothing kept the
 * index: its count of unresolved methods must stay with it, or a type
 * added later that completes the method leaves the index without it and
 * the next merge adds the method a second time (the journal used to put
 * back the count from before the index existed). */
static void test_failed_merge_keeps_names_count(void)
{
    const char *lenient = "{\"version\":\"1.0.0\",\"types\":[{\"id\":1,\"name\":\"A\"}],"
                          "\"methods\":[{\"id\":5,\"name\":\"m\",\"signature\":[1,9]}]}";
    for (int stream = 0; stream < 2; stream++) {
        iprof_reader *r = NULL;
        iprof_model *dst = NULL, *src = NULL, *bad = NULL;
        CHECK_OK(iprof_reader_new(&r, NULL));
        CHECK_OK(iprof_model_load(&dst, r, SRC_BUFFER(lenient, strlen(lenient))));
        if (!dst)
            return;
        CHECK(atomic_load(&dst->index[IPI_IX_METHOD_NAMES]) == NULL);
        if (stream) {
            CHECK_EQ_INT(iprof_model_merge_source(dst, r, SRC_BUFFER("{\"types\":[}", 11), NULL),
                         IPROF_ESYNTAX);
        } else {
            /* bad's method matches dst's -6 (nothing added), whose id
             * then breaks a rule in bad's entry: the merge fails after the
             * methods matched. */
            static const int64_t k11[] = {1, 1};
            CHECK_OK(ipi_model_push_method(dst, -6, "k", 1, k11, 2, NULL));
            CHECK_OK(iprof_model_new(&bad, NULL));
            CHECK_OK(iprof_model_add_type(bad, 1, "A", 1, NULL));
            CHECK_OK(iprof_model_add_method(bad, 6, "k", 1, k11, 2, NULL));
            CHECK_OK(iprof_model_add_entry(bad, IPROF_KIND_CALL_COUNT, (const int64_t[]){6, 0},
                                           1, (const int64_t[]){1}, 1));
            CHECK_EQ_INT(merge_weighted(dst, bad, 1.0), IPROF_ESCHEMA);
        }
        CHECK_EQ_INT(iprof_model_type_count(dst), 1);
        CHECK_EQ_INT(iprof_model_method_count(dst), 2 - stream);
        /* The index the merge built stays, with its count. */
        CHECK(atomic_load(&dst->index[IPI_IX_METHOD_NAMES]) != NULL);
        CHECK_EQ_INT(dst->names_unresolved, 1);
        CHECK_OK(iprof_model_add_type(dst, 9, "B", 1, NULL));
        CHECK_OK(iprof_model_new(&src, NULL));
        CHECK_OK(iprof_model_add_type(src, 1, "A", 1, NULL));
        CHECK_OK(iprof_model_add_type(src, 9, "B", 1, NULL));
        CHECK_OK(iprof_model_add_method(src, 3, "m", 1, (const int64_t[]){1, 9}, 2, NULL));
        CHECK_OK(merge_weighted(dst, src, 1.0));
        CHECK_EQ_INT(iprof_model_method_count(dst), 2 - stream); /* src's m is dst's 5 */
        CHECK(iprof_model_method_by_id(dst, 5) != NULL);
        iprof_model_free(bad);
        iprof_model_free(src);
        iprof_model_free(dst);
        iprof_reader_free(r);
    }
}

/* ---- refs_checked and the writer ---------------------------------------- */

static int write_status(const iprof_model *m)
{
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, NULL)); /* checks references */
    int rc = iprof_writer_write_model(w, m);
    iprof_writer_free(w);
    return rc;
}

/* Each edit that may leave a reference dangling makes the next write
 * check the model again, which then refuses it. */
static void test_writes_refuse_what_an_edit_left_dangling(void)
{
    for (int how = 0; how < 5; how++) {
        iprof_model *m = sample();
        CHECK_EQ_INT(m->refs_checked, 1);
        CHECK_OK(write_status(m));
        switch (how) {
        case 0: CHECK_OK(iprof_model_remove_type(m, 1)); break; /* method 5's, a record's */
        case 1: CHECK_OK(filter_types(m, not_type_1)); break;
        case 2: CHECK_OK(iprof_model_remove_method(m, 3, 0)); break; /* entry 3:0's */
        case 3: CHECK_OK(filter_methods(m, not_method_3)); break;
        default:
            CHECK_OK(iprof_model_add_method(m, 6, "s", 1, sig00, 1, NULL)); /* short */
            break;
        }
        CHECK_EQ_INT(m->refs_checked, 0);
        int rc = write_status(m);
        if (rc != (how == 4 ? IPROF_ESCHEMA : IPROF_EDANGLING))
            fprintf(stderr, "   edit %d: %d\n", how, rc);
        CHECK_EQ_INT(rc, how == 4 ? IPROF_ESCHEMA : IPROF_EDANGLING);
        iprof_model_free(m);
    }
}

int main(void)
{
    RUN(test_decision_table);
    RUN(test_types_added_complete_a_method);
    RUN(test_types_removed);
    RUN(test_methods_removed);
    RUN(test_entries_removed);
    RUN(test_records_changed);
    RUN(test_entries_cut);
    RUN(test_prune_and_drop_packages);
    RUN(test_merge_undone);
    RUN(test_failed_merge_keeps_names_count);
    RUN(test_writes_refuse_what_an_edit_left_dangling);
    return check_done();
}
