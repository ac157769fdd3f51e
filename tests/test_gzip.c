/* gzip input and output (lib/common/gzip.c and its hooks in the reader's source
 * and the writer's sink): every source reads a .iprof.gz made by Python's
 * gzip module like the plain file; reads go in bounded memory; error
 * positions are those of the decompressed document; corrupt, truncated and
 * trailing-garbage inputs fail with IPROF_ESYNTAX and a clear message;
 * concatenated members read as one document; gzip output (IPROF_WRITE_GZIP,
 * a ".gz" path; raw bytes too) reads back equal, is deterministic and atomic; allocation
 * failures are clean. Built without zlib, gzip input and output fail with
 * IPROF_EIO and say why. */
#include <iprof/iprof.h>
#include <iprof/stream.h>
#include <iprof/edit.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "check_api.h"
#include "alloc.h"
#include "gzip.h"

static char *data_path(const char *name)
{
    static char buf[4096];
    const char *src = getenv("IPROF_SOURCE_DIR");
    snprintf(buf, sizeof buf, "%s/tests/data/%s", src ? src : ".", name);
    return buf;
}

static char *slurp(const char *name, size_t *len)
{
    char *p = check_read_file(data_path(name), len);
    if (!p) {
        fprintf(stderr, "cannot read %s\n", data_path(name));
        exit(1);
    }
    return p;
}

/* The canonical minified bytes of a model, malloc'd. */
static char *dump(const iprof_model *m, size_t *len)
{
    iprof_writer *w = NULL;
    const void *d;
    char *out = NULL;
    *len = 0;
    if (iprof_writer_new(&w, SINK_BUFFER, NULL) == IPROF_OK &&
        iprof_writer_write_model(w, m) == IPROF_OK && iprof_writer_buffer(w, &d, len) == 0) {
        out = malloc(*len + 1);
        memcpy(out, d, *len);
    }
    iprof_writer_free(w);
    return out;
}

/* gzip bytes of data[0..len) through the library's encoder, malloc'd. */
typedef struct membuf {
    char *p;
    size_t len, cap;
} membuf;

static int mem_put(void *ctx, const void *data, size_t len)
{
    membuf *b = ctx;
    if (b->len + len > b->cap) {
        b->cap = (b->len + len) * 2;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->len, data, len);
    b->len += len;
    return 0;
}

static int mem_write_fn(const void *data, size_t len, void *payload)
{
    return mem_put(payload, data, len);
}

static membuf gz_of(const void *data, size_t len)
{
    membuf b = {NULL, 0, 0};
    ipi_gzout *g = NULL;
    iprof_allocator libc;
    ipi_allocator_init(&libc, NULL);
    CHECK_OK(ipi_gzout_new(&g, &libc));
    if (!g)
        return b;
    CHECK_OK(ipi_gzout_write(g, data, len, mem_put, &b));
    CHECK_OK(ipi_gzout_finish(g, mem_put, &b));
    ipi_gzout_free(g);
    return b;
}

static iprof_reader *reader_with_chunk(size_t chunk)
{
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.chunk_size = chunk;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    return r;
}

/* ---- reading ------------------------------------------------------------ */

typedef struct trickle {
    const char *p;
    size_t len, pos, step;
} trickle;

static int trickle_read(void *buf, size_t cap, size_t *len, void *payload)
{
    trickle *t = payload;
    size_t n = t->len - t->pos;
    if (n > t->step)
        n = t->step;
    if (n > cap)
        n = cap;
    memcpy(buf, t->p + t->pos, n);
    t->pos += n;
    *len = n;
    return 0;
}

static void test_every_source(void)
{
    if (!(iprof_features() & IPROF_FEATURE_GZIP))
        SKIP("built without zlib");
    size_t plen, glen, a = 0, b = 0;
    char *plain = slurp("graal-1.0.0.iprof", &plen);
    char *gz = slurp("graal-1.0.0.iprof.gz", &glen);
    CHECK(ipi_gzip_magic(gz, glen));
    iprof_reader *r = reader_with_chunk(0);
    iprof_model *mp = NULL, *mg = NULL;
    CHECK_OK(iprof_model_load(&mp, r, SRC_BUFFER(plain, plen)));
    char *want = dump(mp, &a);
    /* buffer */
    CHECK_OK(iprof_model_load(&mg, r, SRC_BUFFER(gz, glen)));
    char *got = mg ? dump(mg, &b) : NULL;
    CHECK(got && a == b && memcmp(want, got, a) == 0);
    CHECK_EQ_MEM(got, b, plain, plen); /* GraalVM layout: same bytes as the file */
    free(got);
    iprof_model_free(mg);
    /* path */
    mg = NULL;
    CHECK_OK(iprof_model_load(&mg, r, SRC_PATH(data_path("graal-1.0.0.iprof.gz"))));
    got = mg ? dump(mg, &b) : NULL;
    CHECK(got && a == b && memcmp(want, got, a) == 0);
    free(got);
    iprof_model_free(mg);
    /* fd */
    mg = NULL;
    int fd = open(data_path("graal-1.0.0.iprof.gz"), O_RDONLY);
    CHECK(fd >= 0);
    CHECK_OK(iprof_model_load(&mg, r, SRC_FD(fd)));
    close(fd);
    got = mg ? dump(mg, &b) : NULL;
    CHECK(got && a == b && memcmp(want, got, a) == 0);
    free(got);
    iprof_model_free(mg);
    /* callback, one byte at a time (the magic split over two reads) */
    for (size_t step = 1; step <= 7; step += 3) {
        trickle t = {gz, glen, 0, step};
        mg = NULL;
        CHECK_OK(iprof_model_load(&mg, r, SRC_CALLBACK(trickle_read, &t)));
        got = mg ? dump(mg, &b) : NULL;
        CHECK(got && a == b && memcmp(want, got, a) == 0);
        free(got);
        iprof_model_free(mg);
    }
    /* A one-byte input is not gzip: a plain syntax error. */
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER("\x1f", 1), NULL, NULL), IPROF_ESYNTAX);
    free(want);
    iprof_model_free(mp);
    iprof_reader_free(r);
    free(plain);
    free(gz);
}

/* A large generated document: many entries, so the gzip stream spans many
 * input chunks and the window slides many times. */
static char *big_document(size_t *len)
{
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_new(&m, NULL));
    CHECK_OK(iprof_model_add_type(m, 0, "int", 3, NULL));
    CHECK_OK(iprof_model_add_type(m, 1, "com.example.Big", 15, NULL));
    int64_t sig[2] = {1, 0};
    char name[32];
    for (int i = 1; i <= 400; i++) {
        snprintf(name, sizeof name, "method%d", i);
        CHECK_OK(iprof_model_add_method(m, i, name, strlen(name), sig, 2, NULL));
    }
    for (int i = 0; i < 20000; i++) {
        int64_t frames[4] = {1 + i % 400, 0, 1 + (i * 7) % 400, i};
        int64_t rec = i * 3 + 1;
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CALL_COUNT, frames, 2, &rec, 1));
        int64_t cond[6] = {i % 50, 0, i, i % 50, 1, i + 1};
        CHECK_OK(iprof_model_add_entry(m, IPROF_KIND_CONDITIONAL, frames, 2, cond, 6));
    }
    char *d = dump(m, len);
    iprof_model_free(m);
    return d;
}

/* Counting allocator: the peak of live bytes. */
typedef struct counter {
    size_t live, peak;
    long fail_at; /* fail the nth allocation (0-based); -1: never */
    long calls;
} counter;

static void *c_malloc(size_t n, void *u)
{
    counter *c = u;
    if (c->fail_at >= 0 && c->calls++ == c->fail_at)
        return NULL;
    void *p = malloc(n);
    if (p && (c->live += n) > c->peak)
        c->peak = c->live;
    return p;
}

static void *c_realloc(void *p, size_t o, size_t n, void *u)
{
    counter *c = u;
    if (c->fail_at >= 0 && c->calls++ == c->fail_at)
        return NULL;
    void *q = realloc(p, n);
    if (q) {
        c->live = c->live - o + n;
        if (c->live > c->peak)
            c->peak = c->live;
    }
    return q;
}

static void c_free(void *p, size_t n, void *u)
{
    counter *c = u;
    c->live -= n;
    free(p);
}

static void test_bounded_memory(void)
{
    if (!(iprof_features() & IPROF_FEATURE_GZIP))
        SKIP("built without zlib");
    size_t len;
    char *doc = big_document(&len);
    membuf gz = gz_of(doc, len);
    CHECK(len > 2000000);
    CHECK(gz.len > 3 * 65536); /* many raw chunks */
    counter c = {0, 0, -1, 0};
    iprof_allocator a = {c_malloc, c_realloc, c_free, &c};
    iprof_read_options o = IPROF_READ_OPTIONS_INIT;
    o.allocator = &a;
    o.chunk_size = 65536;
    iprof_reader *r = NULL;
    CHECK_OK(iprof_reader_new(&r, &o));
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(gz.p, gz.len), NULL, NULL));
    /* Window (one chunk and a bit), the raw chunk, zlib's ~45 KB state,
     * the id sets: far below the 2 MB document. */
    fprintf(stderr, "peak %zu bytes for a %zu-byte document (%zu compressed)\n", c.peak, len,
            gz.len);
    CHECK(c.peak < 400000);
    iprof_reader_free(r);
    CHECK_EQ_INT(c.live, 0);
    free(gz.p);
    free(doc);
}

static void test_positions_are_decompressed(void)
{
    if (!(iprof_features() & IPROF_FEATURE_GZIP))
        SKIP("built without zlib");
    size_t len;
    char *doc = slurp("syntax-error.iprof", &len);
    membuf gz = gz_of(doc, len);
    iprof_reader *r = reader_with_chunk(0);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(doc, len), NULL, NULL), IPROF_ESYNTAX);
    const iprof_error *e = iprof_reader_error(r);
    uint64_t line = err_info(e).line, col = err_info(e).column, off = err_info(e).offset;
    char msg[256];
    snprintf(msg, sizeof msg, "%s", err_info(e).message);
    CHECK_EQ_INT(line, 5);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(gz.p, gz.len), NULL, NULL), IPROF_ESYNTAX);
    e = iprof_reader_error(r);
    CHECK_EQ_INT(err_info(e).line, line);
    CHECK_EQ_INT(err_info(e).column, col);
    CHECK_EQ_INT(err_info(e).offset, off);
    CHECK_EQ_STR(err_info(e).message, msg);
    iprof_reader_free(r);
    free(gz.p);
    free(doc);
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_corrupt_and_truncated(void)
{
    if (!(iprof_features() & IPROF_FEATURE_GZIP))
        SKIP("built without zlib");
    size_t glen;
    char *gz = slurp("graal-1.0.0.iprof.gz", &glen);
    iprof_reader *r = reader_with_chunk(0);
    /* A flipped byte in the deflate data or the CRC. */
    size_t spots[] = {12, glen / 2, glen - 6};
    for (size_t i = 0; i < sizeof spots / sizeof spots[0]; i++) {
        char *bad = malloc(glen);
        memcpy(bad, gz, glen);
        bad[spots[i]] ^= 0x55;
        int rc = iprof_reader_read(r, SRC_BUFFER(bad, glen), NULL, NULL);
        /* A flip may also make the JSON wrong before the CRC is met. */
        if (rc == IPROF_ESYNTAX && !starts_with(err_info(iprof_reader_error(r)).message,
                                                "corrupt gzip data"))
            fprintf(stderr, "flip at %zu: %s\n", spots[i],
                    err_info(iprof_reader_error(r)).message);
        CHECK(rc == IPROF_ESYNTAX || rc == IPROF_ESCHEMA);
        free(bad);
    }
    /* The CRC: corrupt for sure. */
    gz[glen - 8] ^= 1;
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(gz, glen), NULL, NULL), IPROF_ESYNTAX);
    CHECK_EQ_STR(err_info(iprof_reader_error(r)).message,
                 "corrupt gzip data: incorrect data check");
    gz[glen - 8] ^= 1;
    /* Truncated anywhere after the magic. */
    for (size_t cut = 2; cut < glen; cut += (cut < 20 ? 1 : 37)) {
        int rc = iprof_reader_read(r, SRC_BUFFER(gz, cut), NULL, NULL);
        CHECK_EQ_INT(rc, IPROF_ESYNTAX);
        const char *m = err_info(iprof_reader_error(r)).message;
        if (!starts_with(m, "truncated gzip data") && !starts_with(m, "corrupt gzip data"))
            fprintf(stderr, "cut at %zu: %s\n", cut, m);
        CHECK(starts_with(m, "truncated gzip data") || starts_with(m, "corrupt gzip data"));
    }
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(gz, glen - 1), NULL, NULL), IPROF_ESYNTAX);
    CHECK_EQ_STR(err_info(iprof_reader_error(r)).message,
                 "truncated gzip data: the compressed input ends inside a member");
    /* Garbage after a complete member. */
    char *tail = malloc(glen + 4);
    memcpy(tail, gz, glen);
    memcpy(tail + glen, "junk", 4);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(tail, glen + 4), NULL, NULL), IPROF_ESYNTAX);
    CHECK(starts_with(err_info(iprof_reader_error(r)).message,
                      "corrupt gzip data after the first member"));
    free(tail);
    iprof_reader_free(r);
    free(gz);
}

/* Damage met after the whole text came out (a bad CRC, garbage after the
 * member): the error sits at the end of the text, whatever the read sizes
 * and sources, and a lenient read keeps everything before it. */
static void test_damage_after_the_text(void)
{
    if (!(iprof_features() & IPROF_FEATURE_GZIP))
        SKIP("built without zlib");
    size_t len;
    char *doc = big_document(&len);
    membuf gz = gz_of(doc, len);
    char *bad = malloc(gz.len + 7);
    memcpy(bad, gz.p, gz.len);
    for (int variant = 0; variant < 2; variant++) {
        size_t blen = gz.len;
        const char *want = "corrupt gzip data: incorrect data check";
        if (variant == 0) {
            bad[gz.len - 8] ^= 1; /* the CRC */
        } else {
            memcpy(bad, gz.p, gz.len);
            memcpy(bad + gz.len, "garbage", 7);
            blen += 7;
            want = "corrupt gzip data after the first member: incorrect header check";
        }
        static const size_t chunks[] = {1, 7, 4096, 65536, (size_t)1 << 20, (size_t)1 << 26};
        for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {
            iprof_reader *r = reader_with_chunk(chunks[c]);
            trickle t = {bad, blen, 0, chunks[c] < 4096 ? 4096 : chunks[c]};
            int rc = c % 2 ? iprof_reader_read(r, SRC_CALLBACK(trickle_read, &t), NULL, NULL)
                           : iprof_reader_read(r, SRC_BUFFER(bad, blen), NULL, NULL);
            CHECK_EQ_INT(rc, IPROF_ESYNTAX);
            const iprof_error *e = iprof_reader_error(r);
            CHECK_EQ_STR(err_info(e).message, want);
            CHECK_EQ_INT(err_info(e).offset, len);
            iprof_reader_free(r);
        }
    }
    /* One byte per read: the magic is still seen, plain text still read. */
    iprof_reader *r = reader_with_chunk(1);
    CHECK_OK(iprof_reader_read(r, SRC_BUFFER(gz.p, gz.len), NULL, NULL));
    CHECK_OK(iprof_reader_read(r, SRC_PATH(data_path("graal-1.0.0.iprof.gz")), NULL, NULL));
    CHECK_OK(iprof_reader_read(r, SRC_PATH(data_path("graal-1.0.0.iprof")), NULL, NULL));
    iprof_reader_free(r);
    free(bad);
    free(gz.p);
    free(doc);
}

static void test_concatenated_members(void)
{
    if (!(iprof_features() & IPROF_FEATURE_GZIP))
        SKIP("built without zlib");
    size_t plen;
    char *plain = slurp("graal-1.0.0.iprof", &plen);
    membuf a = gz_of(plain, 100), b = gz_of(plain + 100, plen - 100);
    char *both = malloc(a.len + b.len);
    memcpy(both, a.p, a.len);
    memcpy(both + a.len, b.p, b.len);
    iprof_reader *r = reader_with_chunk(0);
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(both, a.len + b.len)));
    size_t n;
    char *d = m ? dump(m, &n) : NULL;
    CHECK_EQ_MEM(d, d ? n : 0, plain, plen);
    free(d);
    iprof_model_free(m);
    iprof_reader_free(r);
    free(both);
    free(a.p);
    free(b.p);
    free(plain);
}

/* ---- writing ------------------------------------------------------------ */

static void test_write_buffer_and_callback(void)
{
    if (!(iprof_features() & IPROF_FEATURE_GZIP))
        SKIP("built without zlib");
    size_t plen;
    char *plain = slurp("graal-1.0.0.iprof", &plen);
    iprof_reader *r = reader_with_chunk(0);
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(plain, plen)));
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.flags = IPROF_WRITE_GZIP;
    const void *d1 = NULL, *d2 = NULL;
    size_t n1 = 0, n2 = 0;
    iprof_writer *w1 = NULL, *w2 = NULL;
    CHECK_OK(iprof_writer_new(&w1, SINK_BUFFER, &o));
    CHECK_OK(iprof_writer_write_model(w1, m));
    CHECK_OK(iprof_writer_buffer(w1, &d1, &n1));
    CHECK(ipi_gzip_magic(d1, n1));
    /* Deterministic. */
    CHECK_OK(iprof_writer_new(&w2, SINK_BUFFER, &o));
    CHECK_OK(iprof_writer_write_model(w2, m));
    CHECK_OK(iprof_writer_buffer(w2, &d2, &n2));
    CHECK_EQ_MEM(d1, n1, d2, n2);
    /* Reads back as the plain file. */
    iprof_model *back = NULL;
    CHECK_OK(iprof_model_load(&back, r, SRC_BUFFER(d1, n1)));
    size_t bl;
    char *bd = back ? dump(back, &bl) : NULL;
    CHECK_EQ_MEM(bd, bd ? bl : 0, plain, plen);
    free(bd);
    iprof_model_free(back);
    /* A callback sink with a tiny buffer: the same bytes. */
    membuf cb = {NULL, 0, 0};
    iprof_writer *w3 = NULL;
    o.buffer_size = 16;
    CHECK_OK(iprof_writer_new(&w3, SINK_CALLBACK(mem_write_fn, &cb), &o));
    CHECK_OK(iprof_writer_write_model(w3, m));
    CHECK_EQ_MEM(cb.p, cb.len, d1, n1);
    iprof_writer_free(w3);
    free(cb.p);
    /* Raw bytes (iprof_writer_raw), the file's own, compress the same. */
    iprof_writer *w4 = NULL;
    const void *d4 = NULL;
    size_t n4 = 0;
    CHECK_OK(iprof_writer_new(&w4, SINK_BUFFER, &o));
    CHECK_OK(iprof_writer_raw(w4, plain, plen / 2));
    CHECK_OK(iprof_writer_raw(w4, plain + plen / 2, plen - plen / 2));
    CHECK_OK(iprof_writer_end(w4));
    CHECK_OK(iprof_writer_buffer(w4, &d4, &n4));
    CHECK_EQ_MEM(d4, n4, d1, n1);
    iprof_writer_free(w4);
    iprof_writer_free(w1);
    iprof_writer_free(w2);
    iprof_model_free(m);
    iprof_reader_free(r);
    free(plain);
}

static void test_write_path(void)
{
    if (!(iprof_features() & IPROF_FEATURE_GZIP))
        SKIP("built without zlib");
    CHECK_POSIX_ONLY("symbolic links made with symlink()");
    char dir[] = "/tmp/iprof_test_gzip_XXXXXX";
    CHECK(check_mkdtemp(dir) != NULL);
    char path[300], plainpath[300];
    snprintf(path, sizeof path, "%s/out.iprof.gz", dir);
    snprintf(plainpath, sizeof plainpath, "%s/out.iprof", dir);
    size_t plen;
    char *plain = slurp("graal-1.0.0.iprof", &plen);
    iprof_reader *r = reader_with_chunk(0);
    iprof_model *m = NULL;
    CHECK_OK(iprof_model_load(&m, r, SRC_BUFFER(plain, plen)));
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.flags = IPROF_WRITE_NO_SYNC;
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(path), &o));
    CHECK_OK(iprof_writer_begin(w, NULL));
    struct stat st;
    CHECK(stat(path, &st) != 0); /* atomic: nothing before end */
    iprof_writer_free(w); /* abandoned: nothing left behind */
    CHECK(stat(path, &st) != 0);
    w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(path), &o));
    CHECK_OK(iprof_writer_write_model(w, m));
    iprof_writer_free(w);
    size_t glen = 0;
    char *g = check_read_file(path, &glen);
    CHECK(g && ipi_gzip_magic(g, glen));
    /* The plain name stays plain. */
    w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_PATH(plainpath), &o));
    CHECK_OK(iprof_writer_write_model(w, m));
    iprof_writer_free(w);
    size_t ql = 0;
    char *q = check_read_file(plainpath, &ql);
    CHECK_EQ_MEM(q, q ? ql : 0, plain, plen);
    iprof_model *back = NULL;
    CHECK_OK(iprof_model_load(&back, r, SRC_PATH(path)));
    size_t bl;
    char *bd = back ? dump(back, &bl) : NULL;
    CHECK_EQ_MEM(bd, bd ? bl : 0, plain, plen);
    /* Only the two outputs in the directory: no temporary file. */
    DIR *dd = opendir(dir);
    int files = 0;
    struct dirent *de;
    while (dd && (de = readdir(dd)))
        files += de->d_name[0] != '.';
    if (dd)
        closedir(dd);
    CHECK_EQ_INT(files, 2);
    /* Through links, the name of the file written decides: a plain name
     * linking to a .gz file gets gzip, a .gz name linking to a plain file
     * gets text. */
    char l1[320], l2[320];
    snprintf(l1, sizeof l1, "%s/to-gz.iprof", dir);
    snprintf(l2, sizeof l2, "%s/to-plain.iprof.gz", dir);
    CHECK_OK(check_symlink("out.iprof.gz", l1));
    CHECK_OK(check_symlink("out.iprof", l2));
    for (int i = 0; i < 2; i++) {
        w = NULL;
        CHECK_OK(iprof_writer_new(&w, SINK_PATH(i ? l2 : l1), &o));
        CHECK_OK(iprof_writer_write_model(w, m));
        iprof_writer_free(w);
    }
    free(g);
    g = check_read_file(path, &glen);
    CHECK(g && ipi_gzip_magic(g, glen));
    free(q);
    q = check_read_file(plainpath, &ql);
    CHECK_EQ_MEM(q, q ? ql : 0, plain, plen);
    unlink(l1);
    unlink(l2);
    unlink(path);
    unlink(plainpath);
    rmdir(dir);
    free(bd);
    free(q);
    free(g);
    iprof_model_free(back);
    iprof_model_free(m);
    iprof_reader_free(r);
    free(plain);
}

static void test_allocation_failures(void)
{
    if (!(iprof_features() & IPROF_FEATURE_GZIP))
        SKIP("built without zlib");
    size_t glen;
    char *gz = slurp("graal-1.0.0.iprof.gz", &glen);
    int done = 0;
    for (long n = 0; n < 200 && !done; n++) {
        counter c = {0, 0, n, 0};
        iprof_allocator a = {c_malloc, c_realloc, c_free, &c};
        iprof_read_options o = IPROF_READ_OPTIONS_INIT;
        o.allocator = &a;
        iprof_reader *r = NULL;
        if (iprof_reader_new(&r, &o) != IPROF_OK)
            continue;
        iprof_model *m = NULL;
        int rc = iprof_model_load(&m, r, SRC_BUFFER(gz, glen));
        CHECK(rc == IPROF_OK || rc == IPROF_ENOMEM);
        done = rc == IPROF_OK;
        iprof_model_free(m);
        iprof_reader_free(r);
        CHECK_EQ_INT(c.live, 0);
        /* Writing gzip with the same failing allocator. */
        counter c2 = {0, 0, n, 0};
        iprof_allocator a2 = {c_malloc, c_realloc, c_free, &c2};
        iprof_write_options wo = IPROF_WRITE_OPTIONS_INIT;
        wo.allocator = &a2;
        wo.flags = IPROF_WRITE_GZIP;
        iprof_writer *w = NULL;
        if (iprof_writer_new(&w, SINK_BUFFER, &wo) == IPROF_OK) {
            rc = iprof_writer_begin(w, NULL);
            if (rc == IPROF_OK)
                rc = iprof_writer_end(w);
            CHECK(rc == IPROF_OK || rc == IPROF_ENOMEM);
            iprof_writer_free(w);
        }
        CHECK_EQ_INT(c2.live, 0);
    }
    CHECK(done);
    free(gz);
}

static void test_without_zlib(void)
{
    if (iprof_features() & IPROF_FEATURE_GZIP)
        SKIP("built with zlib");
    size_t glen;
    char *gz = slurp("graal-1.0.0.iprof.gz", &glen);
    iprof_reader *r = reader_with_chunk(0);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_BUFFER(gz, glen), NULL, NULL), IPROF_EIO);
    CHECK_EQ_STR(err_info(iprof_reader_error(r)).message, IPI_GZIP_UNSUPPORTED);
    CHECK_EQ_INT(iprof_reader_read(r, SRC_PATH(data_path("graal-1.0.0.iprof.gz")), NULL, NULL),
                 IPROF_EIO);
    CHECK_EQ_STR(err_info(iprof_reader_error(r)).message, IPI_GZIP_UNSUPPORTED);
    iprof_write_options o = IPROF_WRITE_OPTIONS_INIT;
    o.flags = IPROF_WRITE_GZIP;
    iprof_writer *w = NULL;
    CHECK_OK(iprof_writer_new(&w, SINK_BUFFER, &o));
    CHECK_EQ_INT(iprof_writer_begin(w, NULL), IPROF_EIO);
    CHECK_EQ_STR(err_info(iprof_writer_error(w)).message, IPI_GZIP_UNSUPPORTED_OUT);
    iprof_writer_free(w);
    iprof_reader_free(r);
    free(gz);
}

int main(void)
{
    RUN(test_every_source);
    RUN(test_bounded_memory);
    RUN(test_positions_are_decompressed);
    RUN(test_corrupt_and_truncated);
    RUN(test_damage_after_the_text);
    RUN(test_concatenated_members);
    RUN(test_write_buffer_and_callback);
    RUN(test_write_path);
    RUN(test_allocation_failures);
    RUN(test_without_zlib);
    return check_done();
}
