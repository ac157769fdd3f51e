/*
 * Round trip and write.
 *
 *   bench_roundtrip mem FILE        load + write to a memory writer (timed),
 *                                   then check the bytes equal FILE
 *   bench_roundtrip file FILE OUT   load + write to OUT with a path writer
 *                                   (IPROF_WRITE_NO_SYNC), then check OUT
 *                                   equals FILE
 *   bench_roundtrip write FILE      load (not timed), then time writing the
 *                                   model to a callback that drops the bytes
 *   bench_roundtrip canonical FILE  load + canonical write (IPROF_WRITE_CANONICAL) to a
 *                                   callback that drops the bytes (timed:
 *                                   `iprof convert --canonical` without the
 *                                   file system), then check that the
 *                                   canonical form is idempotent (a second
 *                                   pass writes the same bytes, by FNV-1a)
 *
 * The checks are not timed; a difference exits with status 3.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iprof/iprof.h>
#include <iprof/transform.h>

#include "bench_common.h"

static iprof_model *load(const char *path, iprof_reader **reader)
{
    iprof_model *model;
    *reader = bench_reader_new();
    iprof_source src = IPROF_SOURCE_PATH_INIT(path);
    int rc = iprof_model_load(&model, *reader, &src);
    if (rc != IPROF_OK) {
        const iprof_error *e = iprof_reader_error(*reader);
        bench_die("%s: %s: %s", path, iprof_status_string(rc), bench_error_message(e));
    }
    return model;
}

/* A writer to the sink (exits on failure). */
static iprof_writer *writer_to(const iprof_sink *sink, const iprof_write_options *opts)
{
    iprof_writer *w;
    int rc = iprof_writer_new(&w, sink, opts);
    if (rc != IPROF_OK)
        bench_die("iprof_writer_new: %s", iprof_status_string(rc));
    return w;
}

static void write_failed(iprof_writer *w, int rc)
{
    const iprof_error *e = iprof_writer_error(w);
    bench_die("write: %s: %s", iprof_status_string(rc), bench_error_message(e));
}

/* Compare a file with memory, reading the file in chunks (no copy of it in
 * memory, so the RSS stays the task's). Returns the offset of the first
 * difference, or -1 if equal. */
static long long compare_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        bench_die("%s: cannot open", path);
    static char buf[1 << 16];
    size_t off = 0, n;
    long long diff = -1;
    while (diff < 0 && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (off + n > len || memcmp(buf, data + off, n) != 0) {
            for (size_t i = 0; i < n; i++)
                if (off + i >= len || buf[i] != data[off + i]) {
                    diff = (long long)(off + i);
                    break;
                }
        }
        off += n;
    }
    fclose(f);
    if (diff < 0 && off != len)
        diff = (long long)(off < len ? off : len);
    return diff;
}

/* Compare two files in chunks. */
static long long compare_files(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    if (!fa || !fb)
        bench_die("cannot open %s or %s", a, b);
    static char ba[1 << 16], bb[1 << 16];
    long long off = 0, diff = -1;
    for (;;) {
        size_t na = fread(ba, 1, sizeof ba, fa), nb = fread(bb, 1, sizeof bb, fb);
        size_t n = na < nb ? na : nb;
        if (memcmp(ba, bb, n) != 0) {
            for (size_t i = 0; i < n; i++)
                if (ba[i] != bb[i]) {
                    diff = off + (long long)i;
                    break;
                }
            break;
        }
        if (na != nb) {
            diff = off + (long long)n;
            break;
        }
        if (na == 0)
            break;
        off += (long long)n;
    }
    fclose(fa);
    fclose(fb);
    return diff;
}

static int drop(const void *data, size_t len, void *payload)
{
    (void)data;
    *(uint64_t *)payload += len;
    return 0;
}

/* Bytes written and their FNV-1a hash. */
typedef struct digest {
    uint64_t len, hash;
} digest;

static int digest_bytes(const void *data, size_t len, void *payload)
{
    digest *d = payload;
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        d->hash = (d->hash ^ p[i]) * UINT64_C(0x100000001b3);
    d->len += len;
    return 0;
}

static digest write_digest(const iprof_model *model)
{
    digest d = {0, UINT64_C(0xcbf29ce484222325)};
    iprof_sink sink = IPROF_SINK_CALLBACK_INIT(digest_bytes, &d);
    iprof_writer *w = writer_to(&sink, NULL);
    int rc;
    if ((rc = iprof_writer_write_model(w, model)) != IPROF_OK)
        write_failed(w, rc);
    iprof_writer_free(w);
    return d;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        bench_die("usage: bench_roundtrip mem|file|write|canonical FILE [OUT]");
    const char *mode = argv[1], *path = argv[2];
    int64_t size = bench_file_size(path);
    if (size < 0)
        return 1;
    iprof_reader *reader = NULL;
    iprof_writer *w;
    int rc;
    char extra[128];

    if (!strcmp(mode, "mem")) {
        double t0 = bench_now(), c0 = bench_cpu();
        iprof_model *model = load(path, &reader);
        iprof_sink sink = IPROF_SINK_BUFFER_INIT;
        w = writer_to(&sink, NULL);
        if ((rc = iprof_writer_write_model(w, model)) != IPROF_OK)
            write_failed(w, rc);
        const void *data;
        size_t len;
        iprof_writer_buffer(w, &data, &len);
        double t1 = bench_now(), c1 = bench_cpu();
        long long diff = compare_file(path, data, len);
        snprintf(extra, sizeof extra, "cpu_s=%.6f out_bytes=%zu identical=%s", c1 - c0, len,
                 diff < 0 ? "yes" : "no");
        bench_result("roundtrip_mem", t1 - t0, (uint64_t)size, extra);
        if (diff >= 0) {
            fprintf(stderr, "round trip differs from %s at byte %lld\n", path, diff);
            return 3;
        }
        iprof_writer_free(w);
        iprof_model_free(model);
    } else if (!strcmp(mode, "file") && argc == 4) {
        const char *outp = argv[3];
        iprof_write_options wo = IPROF_WRITE_OPTIONS_INIT;
        wo.flags = IPROF_WRITE_NO_SYNC;
        double t0 = bench_now(), c0 = bench_cpu();
        iprof_model *model = load(path, &reader);
        iprof_sink sink = IPROF_SINK_PATH_INIT(outp);
        w = writer_to(&sink, &wo);
        if ((rc = iprof_writer_write_model(w, model)) != IPROF_OK)
            write_failed(w, rc);
        iprof_writer_free(w);
        double t1 = bench_now(), c1 = bench_cpu();
        long long diff = compare_files(path, outp);
        snprintf(extra, sizeof extra, "cpu_s=%.6f identical=%s", c1 - c0,
                 diff < 0 ? "yes" : "no");
        bench_result("roundtrip_file", t1 - t0, (uint64_t)size, extra);
        remove(outp);
        if (diff >= 0) {
            fprintf(stderr, "round trip file differs from %s at byte %lld\n", path, diff);
            return 3;
        }
        iprof_model_free(model);
    } else if (!strcmp(mode, "write")) {
        iprof_model *model = load(path, &reader);
        uint64_t written = 0;
        double t0 = bench_now();
        iprof_sink sink = IPROF_SINK_CALLBACK_INIT(drop, &written);
        w = writer_to(&sink, NULL);
        if ((rc = iprof_writer_write_model(w, model)) != IPROF_OK)
            write_failed(w, rc);
        iprof_writer_free(w);
        double t1 = bench_now();
        snprintf(extra, sizeof extra, "out_bytes=%llu", (unsigned long long)written);
        bench_result("write", t1 - t0, written, extra);
        if (written != (uint64_t)size) {
            fprintf(stderr, "wrote %llu bytes, the input has %lld\n", (unsigned long long)written,
                    (long long)size);
            return 3;
        }
        iprof_model_free(model);
    } else if (!strcmp(mode, "canonical")) {
        uint64_t written = 0;
        iprof_write_options wo = IPROF_WRITE_OPTIONS_INIT;
        /* As `iprof convert --canonical` writes. */
        wo.flags = IPROF_WRITE_CANONICAL | IPROF_WRITE_THREADED;
        double t0 = bench_now();
        iprof_model *model = load(path, &reader);
        double tw = bench_now();
        iprof_sink sink = IPROF_SINK_CALLBACK_INIT(drop, &written);
        w = writer_to(&sink, &wo);
        if ((rc = iprof_writer_write_model(w, model)) != IPROF_OK)
            write_failed(w, rc);
        iprof_writer_free(w);
        double t1 = bench_now();
        /* What was written is what canonicalizing gives, and a second
         * canonicalize changes nothing. */
        digest first = {0, 0}, second = {0, 0};
        if (iprof_model_canonicalize(model, 0) == IPROF_OK)
            first = write_digest(model);
        if (iprof_model_canonicalize(model, 0) == IPROF_OK)
            second = write_digest(model);
        int again = first.len == written && second.len == first.len && second.hash == first.hash;
        snprintf(extra, sizeof extra, "write_s=%.6f out_bytes=%llu idempotent=%s", t1 - tw,
                 (unsigned long long)written, again ? "yes" : "no");
        bench_result("canonical", t1 - t0, (uint64_t)size, extra);
        if (!again)
            return 3;
        iprof_model_free(model);
    } else {
        bench_die("usage: bench_roundtrip mem|file|write|canonical FILE [OUT]");
    }
    iprof_reader_free(reader);
    return 0;
}
