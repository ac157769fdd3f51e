/*
 * Fuzz load -> write -> load.
 *
 * The input is loaded as a model (lenient). If it loads, it is written
 * (IPROF_WRITE_NO_VALIDATE, memory writer) minified and pretty; both
 * outputs must load again and give a model equal to the first (version,
 * types, methods, entries of every kind with their contexts and records,
 * in order). Writing the reloaded model again must give the same bytes.
 * A model that loads strictly must also write with the default checks
 * (rule and reference checks) and load back strictly, equal.
 * What a strict salvaging load keeps (IPROF_READ_SALVAGE), once
 * iprof_model_prune(IPROF_PRUNE_DANGLING) has run, must write strictly and
 * load back strictly, equal (iprof repair's promise); where the input loads strictly
 * as it is, the salvaged model is that model and no damage is reported.
 */
#include <iprof/transform.h>

#include "fuzz_common.h"

static iprof_model *load(iprof_reader *r, const uint8_t *data, size_t size)
{
    iprof_model *m = NULL;
    int rc = iprof_model_load(&m, r, SRC_BUFFER(data, size));
    fuzz_touch_reader(r, rc);
    if (rc != IPROF_OK) {
        FUZZ_ASSERT(m == NULL);
        return NULL;
    }
    FUZZ_ASSERT(m != NULL);
    return m;
}

/* Write m with flags, reload the output and compare. A model the writer
 * refuses for a documented reason (its version) is skipped. */
static void roundtrip(iprof_reader *r, const iprof_model *m, unsigned flags)
{
    uint8_t *out;
    size_t out_len;
    int rc = fuzz_write_model(m, flags, &out, &out_len);
    if (rc == IPROF_EVERSION)
        return; /* a version the writer refuses (legacy, future) or instanceof
                   entries in a pre-1.1.0 model: documented */
    if (rc != IPROF_OK)
        FUZZ_FAIL("writing a loaded model (flags %#x): %s", flags, iprof_status_string(rc));
    iprof_model *m2 = NULL;
    rc = iprof_model_load(&m2, r, SRC_BUFFER(out, out_len));
    if (rc != IPROF_OK) {
        const iprof_error *e = iprof_reader_error(r);
        FUZZ_FAIL("reloading written output (flags %#x): %s: %s at %llu (%s)\n%.*s", flags,
                  iprof_status_string(rc), e ? err_info(e).message : "",
                  e ? (unsigned long long)err_info(e).offset : 0ull,
                  e ? err_info(e).path : "", (int)(out_len > 2000 ? 2000 : out_len),
                  (const char *)out);
    }
    fuzz_assert_models_equal(m, m2);
    /* Writing is a function of the model: the same bytes again. */
    uint8_t *again;
    size_t again_len;
    rc = fuzz_write_model(m2, flags, &again, &again_len);
    if (rc != IPROF_OK)
        FUZZ_FAIL("writing the reloaded model: %s", iprof_status_string(rc));
    if (again_len != out_len || memcmp(again, out, out_len) != 0)
        FUZZ_FAIL("writing the reloaded model gives other bytes (flags %#x)", flags);
    free(again);
    iprof_model_free(m2);
    free(out);
}

/* The salvage of the input, checked with the strict reader `strict` and
 * against `whole`, the strict load of the input (NULL if it failed). */
static void salvage(iprof_reader *strict, const iprof_model *whole, const uint8_t *data,
                    size_t size)
{
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.flags = IPROF_READ_STRICT | IPROF_READ_SALVAGE;
    iprof_reader *r = NULL;
    if (iprof_reader_new(&r, &o) != IPROF_OK)
        FUZZ_FAIL("iprof_reader_new");
    iprof_model *m = NULL;
    int rc = iprof_model_load(&m, r, SRC_BUFFER(data, size));
    const iprof_error *damage = read_result(r).damage;
    if (rc != IPROF_OK) {
        FUZZ_ASSERT(m == NULL);
        fuzz_touch_error(iprof_reader_error(r));
    } else if (damage) {
        /* A salvaged load reports its damage as the reader's error too. */
        FUZZ_ASSERT(iprof_reader_error(r) != NULL);
        fuzz_touch_error(damage);
    }
    if (whole) {
        if (!m || read_result(r).damage != NULL)
            FUZZ_FAIL("salvaging an input that loads strictly: %s",
                      m ? "damage reported" : "failed");
        fuzz_assert_models_equal(whole, m);
    }
    if (m) {
        rc = iprof_model_prune(m, IPROF_PRUNE_DANGLING);
        if (rc != IPROF_OK)
            FUZZ_FAIL("iprof_model_prune(IPROF_PRUNE_DANGLING): %s", iprof_status_string(rc));
        roundtrip(strict, m, 0);
        iprof_model_free(m);
    }
    iprof_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    iprof_reader *r = NULL;
    if (iprof_reader_new(&r, NULL) != IPROF_OK)
        FUZZ_FAIL("iprof_reader_new");
    iprof_model *m = load(r, data, size);
    /* Allocation failure from the n-th allocation on (n from the last
     * byte): the load fails with IPROF_ENOMEM or ends as without it. */
    if (size) {
        fuzz_failing fa;
        fuzz_failing_init(&fa, data[size - 1] % 64u);
        iprof_read_options fo = IPROF_READ_OPTIONS_INIT;
        fo.allocator = &fa.a;
        iprof_reader *fr = NULL;
        int rc = iprof_reader_new(&fr, &fo);
        if (rc == IPROF_OK) {
            iprof_model *fm = NULL;
            rc = iprof_model_load(&fm, fr, SRC_BUFFER(data, size));
            fuzz_touch_reader(fr, rc); /* the error is set even when the model
                                          could not be created, before any read */
            if (rc == IPROF_OK) {
                FUZZ_ASSERT(m != NULL);
                fuzz_assert_models_equal(m, fm);
            } else if (rc != IPROF_ENOMEM && m) {
                FUZZ_FAIL("load with failing allocations: %s", iprof_status_string(rc));
            }
            iprof_model_free(fm);
            iprof_reader_free(fr);
        } else {
            FUZZ_ASSERT(rc == IPROF_ENOMEM);
        }
    }
    if (m) {
        roundtrip(r, m, IPROF_WRITE_NO_VALIDATE);
        roundtrip(r, m, IPROF_WRITE_NO_VALIDATE | IPROF_WRITE_PRETTY);
        iprof_model_free(m);
    }
    /* What loads strictly also writes with validation and reference checks. */
    iprof_reader *strict = NULL;
    iprof_read_options so = IPROF_READ_OPTIONS_INIT;
    so.flags = IPROF_READ_STRICT;
    if (iprof_reader_new(&strict, &so) != IPROF_OK)
        FUZZ_FAIL("iprof_reader_new");
    m = load(strict, data, size);
    if (m)
        roundtrip(strict, m, 0);
    salvage(strict, m, data, size);
    iprof_model_free(m);
    iprof_reader_free(strict);
    iprof_reader_free(r);
    return 0;
}
