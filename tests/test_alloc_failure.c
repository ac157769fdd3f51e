/*
 * Allocation failure, SQLite style: through the allocator hook, fail the
 * Nth allocation for N = 1, 2, ... across a full load, merge and write of a
 * real corpus file, until a run needs no failure. Every run must report
 * IPROF_ENOMEM from the call that hit the failure, free every byte, and
 * leave its handles freeable; the run that succeeds must produce the same
 * bytes as a run with the plain allocator.
 */
#include <limits.h>

#include "check.h"
#include "check_api.h"
#include "check_alloc.h"

#include <iprof/iprof.h>


/* One full job: load the file twice, merge, write to memory. Returns the
 * first failing status (or IPROF_OK) and copies the output on success. */
static int job(const char *path, fail_alloc *c, char **out, size_t *out_len)
{
    iprof_allocator a = fail_hook(c);
    iprof_read_options ro = IPROF_READ_OPTIONS_INIT;
    ro.allocator = &a;
    ro.chunk_size = 64 * 1024;
    iprof_write_options wo = IPROF_WRITE_OPTIONS_INIT;
    wo.allocator = &a;
    iprof_reader *r = NULL;
    iprof_model *m1 = NULL, *m2 = NULL;
    iprof_writer *w = NULL;
    int rc = iprof_reader_new(&r, &ro);
    if (!rc)
        rc = iprof_model_load(&m1, r, SRC_PATH(path));
    if (!rc)
        rc = iprof_model_load(&m2, r, SRC_PATH(path));
    iprof_merge_options mo = IPROF_MERGE_OPTIONS_INIT;
    mo.weight = 2.0;
    if (!rc)
        rc = iprof_model_merge(m1, m2, &mo);
    if (!rc)
        rc = iprof_writer_new(&w, SINK_BUFFER, &wo);
    if (!rc)
        rc = iprof_writer_write_model(w, m1);
    if (!rc) {
        const void *data;
        CHECK_OK(iprof_writer_buffer(w, &data, out_len));
        *out = malloc(*out_len);
        memcpy(*out, data, *out_len);
    }
    /* A failed load reports the same status in the reader's error. */
    if (rc && r && iprof_reader_error(r) && rc != err_info(iprof_reader_error(r)).status) {
        fprintf(stderr, "rc %d, reader error %d: %s\n", rc,
                err_info(iprof_reader_error(r)).status, err_info(iprof_reader_error(r)).message);
        CHECK(0);
    }
    iprof_writer_free(w);
    iprof_model_free(m2);
    iprof_model_free(m1);
    iprof_reader_free(r);
    return rc;
}

/* Fail each allocation of a full job on the file at path in turn. */
static void fail_each_allocation(const char *path)
{
    fail_alloc plain = {.fail_at = LONG_MAX}; /* counts calls, never fails */
    char *want = NULL;
    size_t want_len = 0;
    CHECK_OK(job(path, &plain, &want, &want_len));
    CHECK_EQ_INT(plain.live_bytes, 0);
    long total = plain.count;
    fprintf(stderr, "%ld allocations in a full job\n", total);
    CHECK(total > 10);
    for (long n = 1; n <= total; n++) {
        fail_alloc c = {.fail_at = n};
        char *got = NULL;
        size_t got_len = 0;
        int rc = job(path, &c, &got, &got_len);
        if (c.failed_hard) { /* a failed shrink changes nothing: the else branch */
            if (rc != IPROF_ENOMEM)
                fprintf(stderr, "allocation %ld: status %d\n", n, rc);
            CHECK_EQ_INT(rc, IPROF_ENOMEM);
        } else {
            CHECK_OK(rc);
            CHECK_EQ_MEM(got, got_len, want, want_len);
        }
        if (c.live_bytes != 0)
            fprintf(stderr, "allocation %ld: %lld bytes leaked\n", n, c.live_bytes);
        CHECK_EQ_INT(c.live_bytes, 0);
        free(got);
    }
    free(want);
}

static void test_fail_each_allocation(void)
{
    const char *dir = check_corpus_dir();
    if (!dir)
        SKIP("../shared/corpus is absent");
    char path[4096];
    snprintf(path, sizeof path, "%s/elide-cli-types-only-0.4.0.iprof", dir);
    fail_each_allocation(path);
}

/* The 0.2.0 layout (its monitor object, its frames) read, merged and
 * written back in it, from the hand-written test file. */
static void test_fail_each_allocation_legacy(void)
{
    const char *src = getenv("IPROF_SOURCE_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/legacy-0.2.0.iprof", src ? src : ".");
    fail_each_allocation(path);
}

int main(void)
{
    RUN(test_fail_each_allocation);
    RUN(test_fail_each_allocation_legacy);
    return check_done();
}
