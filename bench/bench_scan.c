/*
 * Streaming scan: read a file with iprof_reader_read from a path, every callback
 * set, no model. The callbacks fold what they see into a checksum so that
 * nothing is optimised away.
 *
 *   bench_scan [--no-refs] FILE
 *
 * --no-refs: IPROF_READ_NO_REFERENCES (no id tables).
 */
#include <stdio.h>
#include <string.h>

#include <iprof/iprof.h>
#include <iprof/stream.h>

#include "bench_common.h"

typedef struct tally {
    uint64_t sum;
    uint64_t types, methods, entries, records;
} tally;

static int on_version(const char *v, size_t len, void *p)
{
    tally *t = p;
    t->sum += len + (unsigned char)v[0];
    return 0;
}

static int on_type(int64_t id, const char *name, size_t len, void *p)
{
    tally *t = p;
    t->types++;
    t->sum += (uint64_t)id + len + (len ? (unsigned char)name[len - 1] : 0);
    return 0;
}

static int on_method(int64_t id, const char *name, size_t len, const int64_t *sig, size_t n,
                     void *p)
{
    tally *t = p;
    t->methods++;
    t->sum += (uint64_t)id + len + (len ? (unsigned char)name[0] : 0);
    for (size_t i = 0; i < n; i++)
        t->sum += (uint64_t)sig[i];
    return 0;
}

static int on_entry(int kind, const int64_t *frames, size_t nframes, const int64_t *rec,
                    size_t nrec, void *p)
{
    tally *t = p;
    t->entries++;
    t->records += nrec;
    t->sum += (uint64_t)kind;
    for (size_t i = 0; i < 2 * nframes; i++)
        t->sum += (uint64_t)frames[i];
    for (size_t i = 0; i < nrec; i++)
        t->sum += (uint64_t)rec[i];
    return 0;
}

static int on_unknown(const char *key, size_t klen, const char *json, size_t jlen, void *p)
{
    tally *t = p;
    (void)key;
    (void)json;
    t->sum += klen + jlen;
    return 0;
}

int main(int argc, char **argv)
{
    int no_refs = 0;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--no-refs"))
            no_refs = 1;
        else
            path = argv[i];
    }
    if (!path)
        bench_die("usage: bench_scan [--no-refs] FILE");
    int64_t size = bench_file_size(path);
    if (size < 0)
        return 1;

    double t0 = bench_now();
    iprof_read_options opts = IPROF_READ_OPTIONS_INIT;
    if (no_refs)
        opts.flags |= IPROF_READ_NO_REFERENCES;
    iprof_reader *reader;
    if (iprof_reader_new(&reader, &opts) != IPROF_OK)
        bench_die("iprof_reader_new failed");
    iprof_read_callbacks cb = IPROF_READ_CALLBACKS_INIT;
    cb.on_version = on_version;
    cb.on_type = on_type;
    cb.on_method = on_method;
    cb.on_call_count = on_entry;
    cb.on_conditional = on_entry;
    cb.on_virtual_invoke = on_entry;
    cb.on_monitor = on_entry;
    cb.on_sampling = on_entry;
    cb.on_instanceof = on_entry;
    cb.on_unknown = on_unknown;
    tally t;
    memset(&t, 0, sizeof t);
    iprof_source src = IPROF_SOURCE_PATH_INIT(path);
    int rc = iprof_reader_read(reader, &src, &cb, &t);
    if (rc != IPROF_OK) {
        const iprof_error *e = iprof_reader_error(reader);
        bench_die("%s: %s: %s (at %s)", path, iprof_status_string(rc),
                  bench_error_message(e), bench_error_path(e));
    }
    iprof_reader_free(reader);
    double t1 = bench_now();

    char extra[200];
    snprintf(extra, sizeof extra, "types=%llu methods=%llu entries=%llu records=%llu sum=%llu",
             (unsigned long long)t.types, (unsigned long long)t.methods,
             (unsigned long long)t.entries, (unsigned long long)t.records,
             (unsigned long long)t.sum);
    bench_result(no_refs ? "scan_norefs" : "scan", t1 - t0, (uint64_t)size, extra);
    return 0;
}
