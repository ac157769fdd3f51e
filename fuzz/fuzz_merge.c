/*
 * Fuzz the model-into-model merge (iprof_model_merge).
 *
 * Input layout: DOC1 0xFF W DOC2, where W selects the weight (W & 3: 0, 1,
 * 2, 0.5). Without a 0xFF byte the input is split in half and the weight
 * comes from the size. Both documents are loaded (lenient); if both load,
 * the second is merged into the first. For a weight >= 1 and a source
 * without negative counts, merged counts must not decrease: every entry of
 * dst before the merge is still found, each of its counts matched by one
 * at least as large. The result is written and must load again, equal.
 * When W & 4, dst's allocator starts failing (W >> 3) allocations into the
 * merge: the merge must then end OK or with IPROF_ENOMEM, leaving dst
 * consistent (it still writes and loads back equal).
 *
 * The streaming merge of DOC2 into another copy of DOC1 must agree: it
 * succeeds when the model merge does, with the same canonical bytes (the
 * entries' order may differ when DOC2 defines ids after using them), and
 * on any failure (a DOC2 that does not load included; the same injected
 * allocation failures) leaves its copy exactly as loaded.
 */
#include "fuzz_common.h"

static const double weights[4] = {0.0, 1.0, 2.0, 0.5};

/* Record layout of a kind: values per group, slot of the key (type id or
 * -1), slot of the count. Mirrors the format document. */
static void layout(int kind, size_t *group, int *key_slot, size_t *count_slot)
{
    switch (kind) {
    case IPROF_KIND_CONDITIONAL: *group = 3; *key_slot = 0; *count_slot = 2; break;
    case IPROF_KIND_VIRTUAL_INVOKE:
    case IPROF_KIND_MONITOR:
    case IPROF_KIND_INSTANCEOF: *group = 2; *key_slot = 0; *count_slot = 1; break;
    default: *group = 1; *key_slot = -1; *count_slot = 0; break;
    }
}

/* A copy of one entry before the merge. */
typedef struct saved_entry {
    int kind;
    int64_t *frames;
    size_t depth;
    int64_t *records;
    size_t nrec;
} saved_entry;

typedef struct saved {
    saved_entry *items;
    size_t count;
    int skip_kind[IPROF_KIND_COUNT]; /* contexts repeat within the kind */
} saved;

static void save(const iprof_model *m, saved *s)
{
    size_t total = 0;
    for (int k = 0; k < IPROF_KIND_COUNT; k++)
        total += iprof_model_entry_count(m, k);
    s->items = calloc(total ? total : 1, sizeof *s->items);
    FUZZ_ASSERT(s->items != NULL);
    s->count = 0;
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        s->skip_kind[k] = 0;
        size_t n = iprof_model_entry_count(m, k);
        for (size_t i = 0; i < n; i++) {
            const iprof_entry *e = iprof_model_entry_at(m, k, i);
            saved_entry *x = &s->items[s->count++];
            x->kind = k;
            x->frames = fuzz_frames(iprof_entry_context(e), &x->depth);
            if (iprof_model_entry_find(m, k, x->frames, x->depth) != e)
                s->skip_kind[k] = 1; /* a lenient load kept a repeated context */
            const int64_t *r = iprof_entry_records(e, &x->nrec);
            x->records = malloc(x->nrec ? x->nrec * sizeof *r : 1);
            FUZZ_ASSERT(x->records != NULL);
            if (x->nrec)
                memcpy(x->records, r, x->nrec * sizeof *r);
        }
    }
}

static void saved_free(saved *s)
{
    for (size_t i = 0; i < s->count; i++) {
        free(s->items[i].frames);
        free(s->items[i].records);
    }
    free(s->items);
}

/* Whether every count of m's entries is >= 0. */
static int counts_non_negative(const iprof_model *m)
{
    for (int k = 0; k < IPROF_KIND_COUNT; k++) {
        size_t g, cs;
        int ks;
        layout(k, &g, &ks, &cs);
        size_t n = iprof_model_entry_count(m, k);
        for (size_t i = 0; i < n; i++) {
            size_t nrec;
            const int64_t *r = iprof_entry_records(iprof_model_entry_at(m, k, i), &nrec);
            for (size_t j = cs; j < nrec; j += g)
                if (r[j] < 0)
                    return 0;
        }
    }
    return 1;
}

/* Every saved entry is still in m, with no count smaller. */
static void check_not_decreased(const iprof_model *m, const saved *s)
{
    for (size_t i = 0; i < s->count; i++) {
        const saved_entry *x = &s->items[i];
        if (s->skip_kind[x->kind])
            continue;
        size_t g, cs;
        int ks;
        layout(x->kind, &g, &ks, &cs);
        if (x->nrec % g)
            continue; /* the merge refuses partial groups; never here */
        const iprof_entry *e = iprof_model_entry_find(m, x->kind, x->frames, x->depth);
        if (!e)
            FUZZ_FAIL("%s entry %zu lost by the merge", iprof_kind_name(x->kind), i);
        size_t nrec;
        const int64_t *r = iprof_entry_records(e, &nrec);
        for (size_t j = 0; j < x->nrec; j += g) {
            int found = 0;
            for (size_t t = 0; t + g <= nrec && !found; t += g) {
                if (ks >= 0 && (r[t + (size_t)ks] != x->records[j + (size_t)ks] ||
                                (g == 3 && r[t + 1] != x->records[j + 1])))
                    continue;
                found = r[t + cs] >= x->records[j + cs];
            }
            if (!found)
                FUZZ_FAIL("%s entry %zu: count %lld (records[%zu]) decreased or lost",
                          iprof_kind_name(x->kind), i, (long long)x->records[j + cs], j + cs);
        }
    }
}

static iprof_model *load(iprof_reader *r, const uint8_t *data, size_t size)
{
    iprof_model *m = NULL;
    int rc = iprof_model_load(&m, r, SRC_BUFFER(data, size));
    fuzz_touch_reader(r, rc);
    return rc == IPROF_OK ? m : NULL;
}

/* The canonical bytes of m (NULL with *rc when it has none). */
static uint8_t *canonical(const iprof_model *m, size_t *len, int *rc)
{
    uint8_t *out;
    *rc = fuzz_write_model(m, IPROF_WRITE_CANONICAL | IPROF_WRITE_NO_VALIDATE, &out, len);
    return out;
}

/* Merge DOC2 as it is read into a fresh copy of DOC1 and compare with the
 * model merge's outcome (merged: its status; want: dst after it). */
static void check_streaming(iprof_reader *r, fuzz_failing *fa, const uint8_t *a, size_t alen,
                            const uint8_t *b, size_t blen, double weight, int fail_at,
                            int merged, const iprof_model *want)
{
    iprof_model *dst = load(r, a, alen), *orig = load(r, a, alen);
    FUZZ_ASSERT(dst && orig);
    iprof_merge_options mo = IPROF_MERGE_OPTIONS_INIT;
    mo.weight = weight;
    if (fail_at >= 0)
        fa->limit = fa->count + (size_t)fail_at;
    int rc = iprof_model_merge_source(dst, r, SRC_BUFFER(b, blen), &mo);
    fa->limit = SIZE_MAX;
    if (rc == IPROF_OK && merged == IPROF_OK) {
        size_t l1, l2;
        int r1, r2;
        uint8_t *c1 = canonical(want, &l1, &r1), *c2 = canonical(dst, &l2, &r2);
        if (r1 != r2 || l1 != l2 || (l1 && memcmp(c1, c2, l1) != 0))
            FUZZ_FAIL("streaming merge differs from load + merge (%s, %s)",
                      iprof_status_string(r1), iprof_status_string(r2));
        free(c1);
        free(c2);
    } else if (rc == IPROF_OK) {
        /* Only an injected failure may fail the model merge alone. */
        if (!(merged == IPROF_ENOMEM && fail_at >= 0))
            FUZZ_FAIL("streaming merge succeeded, load + merge: %s", iprof_status_string(merged));
    } else {
        if (merged == IPROF_OK && !(rc == IPROF_ENOMEM && fail_at >= 0))
            FUZZ_FAIL("streaming merge: %s, load + merge succeeded", iprof_status_string(rc));
        FUZZ_ASSERT(iprof_model_error(dst) != NULL);
        fuzz_assert_models_equal(dst, orig); /* all or nothing */
    }
    iprof_model_free(dst);
    iprof_model_free(orig);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    const uint8_t *sep = memchr(data, 0xFF, size);
    const uint8_t *a = data, *b;
    size_t alen, blen;
    double weight;
    int fail_at = -1; /* allocations into the merge before they fail */
    if (sep && (size_t)(sep - data) + 1 < size) {
        alen = (size_t)(sep - data);
        weight = weights[sep[1] & 3];
        if (sep[1] & 4)
            fail_at = sep[1] >> 3;
        b = sep + 2;
        blen = size - alen - 2;
    } else {
        alen = size / 2;
        b = data + alen;
        blen = size - alen;
        weight = weights[size & 3];
    }
    fuzz_failing fa;
    fuzz_failing_init(&fa, SIZE_MAX);
    iprof_read_options ro = IPROF_READ_OPTIONS_INIT;
    ro.allocator = &fa.a; /* the models take the reader's allocator */
    iprof_reader *r = NULL;
    if (iprof_reader_new(&r, &ro) != IPROF_OK)
        FUZZ_FAIL("iprof_reader_new");
    iprof_model *dst = load(r, a, alen);
    iprof_model *src = dst ? load(r, b, blen) : NULL;
    if (dst && !src) /* DOC2 does not load: streaming it must fail, changing nothing */
        check_streaming(r, &fa, a, alen, b, blen, weight, -1, IPROF_ESYNTAX, NULL);
    if (dst && src) {
        saved before;
        save(dst, &before);
        int check = weight >= 1 && counts_non_negative(src);
        if (fail_at >= 0)
            fa.limit = fa.count + (size_t)fail_at;
        iprof_merge_options mo = IPROF_MERGE_OPTIONS_INIT;
        mo.weight = weight;
        int rc = iprof_model_merge(dst, src, &mo);
        fa.limit = SIZE_MAX;
        check_streaming(r, &fa, a, alen, b, blen, weight, fail_at, rc, dst);
        if (rc == IPROF_OK && check)
            check_not_decreased(dst, &before);
        if (rc != IPROF_OK && rc != IPROF_EDANGLING && rc != IPROF_ESCHEMA &&
            !(rc == IPROF_ENOMEM && fail_at >= 0))
            FUZZ_FAIL("merge: %s", iprof_status_string(rc));
        saved_free(&before);
        /* The merged (or partly merged) model writes and loads back equal. */
        if (rc == IPROF_OK || rc == IPROF_ENOMEM) {
            uint8_t *out;
            size_t out_len;
            rc = fuzz_write_model(dst, IPROF_WRITE_NO_VALIDATE, &out, &out_len);
            if (rc != IPROF_OK && rc != IPROF_EVERSION)
                FUZZ_FAIL("writing the merged model: %s", iprof_status_string(rc));
            if (rc == IPROF_OK) {
                iprof_model *back = NULL;
                rc = iprof_model_load(&back, r, SRC_BUFFER(out, out_len));
                if (rc != IPROF_OK)
                    FUZZ_FAIL("reloading the merged model: %s", iprof_status_string(rc));
                fuzz_assert_models_equal(dst, back);
                iprof_model_free(back);
                free(out);
            }
        }
    }
    iprof_model_free(src);
    iprof_model_free(dst);
    iprof_reader_free(r);
    return 0;
}
