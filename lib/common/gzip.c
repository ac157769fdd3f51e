/* gzip through zlib: streaming inflate for the reader, deflate for the
 * writer. Without zlib (IPI_HAVE_ZLIB undefined) only the magic check is
 * real and every coder fails with IPROF_EIO. */
#include "gzip.h"

#include <stdio.h>
#include <string.h>

#include "alloc.h"

int ipi_gzip_magic(const void *data, size_t len)
{
    const unsigned char *p = data;
    return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

#ifdef IPI_HAVE_ZLIB

#include <zlib.h>

int ipi_gzip_available(void)
{
    return 1;
}

/* zlib frees without a size; the allocator wants one, so each block
 * carries its size in a header (16 bytes keep the alignment). */
#define ZHDR 16

static voidpf z_alloc(voidpf opaque, uInt items, uInt size)
{
    const iprof_allocator *a = opaque;
    size_t n = (size_t)items * size;
    if (size && n / size != items)
        return Z_NULL;
    char *p = ipi_malloc(a, n + ZHDR);
    if (!p)
        return Z_NULL;
    memcpy(p, &n, sizeof n);
    return p + ZHDR;
}

static void z_free(voidpf opaque, voidpf address)
{
    if (!address)
        return;
    char *p = (char *)address - ZHDR;
    size_t n;
    memcpy(&n, p, sizeof n);
    ipi_free(opaque, p, n + ZHDR);
}

/* ---- inflating -------------------------------------------------------- */

struct ipi_gzin {
    z_stream z;
    const iprof_allocator *alloc;
    unsigned char *in; /* raw input chunk */
    size_t in_cap;
    int raw_eof;     /* raw() said end of input */
    int member_done; /* the current member ended: a new one or the end follows */
    int done;        /* the stream ended for good */
    unsigned members;
    int pending;     /* a failure met after bytes handed over: the next read's */
    char msg[160];
};

int ipi_gzin_new(ipi_gzin **out, const iprof_allocator *a, size_t chunk, const void *prefix,
                 size_t prefix_len)
{
    *out = NULL;
    if (chunk < 4096)
        chunk = 4096;
    if (chunk > ((size_t)1 << 30))
        chunk = (size_t)1 << 30;
    if (chunk < prefix_len)
        chunk = prefix_len;
    ipi_gzin *g = ipi_malloc(a, sizeof *g);
    if (!g)
        return IPROF_ENOMEM;
    memset(g, 0, sizeof *g);
    g->alloc = a;
    g->in = ipi_malloc(a, chunk);
    if (!g->in) {
        ipi_free(a, g, sizeof *g);
        return IPROF_ENOMEM;
    }
    g->in_cap = chunk;
    g->z.zalloc = z_alloc;
    g->z.zfree = z_free;
    g->z.opaque = (voidpf)a;
    if (inflateInit2(&g->z, 16 + MAX_WBITS) != Z_OK) { /* gzip only */
        ipi_free(a, g->in, g->in_cap);
        ipi_free(a, g, sizeof *g);
        return IPROF_ENOMEM;
    }
    if (prefix_len)
        memcpy(g->in, prefix, prefix_len);
    g->z.next_in = g->in;
    g->z.avail_in = (uInt)prefix_len;
    *out = g;
    return IPROF_OK;
}

static int gz_fail(ipi_gzin *g, int status, const char *fmt, const char *detail)
{
    snprintf(g->msg, sizeof g->msg, fmt, detail);
    return status;
}

/* Refill the raw input when it is used up. */
static int pull(ipi_gzin *g, ipi_gz_raw_read raw, void *ctx)
{
    if (g->z.avail_in || g->raw_eof)
        return IPROF_OK;
    size_t got = 0;
    size_t room = g->in_cap > UINT32_MAX ? UINT32_MAX : g->in_cap;
    int rc = raw(ctx, (char *)g->in, room, &got);
    if (rc)
        return rc;
    if (got == 0)
        g->raw_eof = 1;
    g->z.next_in = g->in;
    g->z.avail_in = (uInt)got;
    return IPROF_OK;
}

static int inflate_some(ipi_gzin *g, char *out, size_t room, size_t *got, ipi_gz_raw_read raw,
                        void *ctx)
{
    while (!g->done && *got < room) {
        int rc = pull(g, raw, ctx);
        if (rc)
            return rc;
        if (g->member_done) {
            if (!g->z.avail_in && g->raw_eof) {
                g->done = 1;
                break;
            }
            if (!g->z.avail_in)
                continue;
            /* Another member follows (gzip -d reads concatenations). */
            if (inflateReset(&g->z) != Z_OK)
                return gz_fail(g, IPROF_ESYNTAX, "corrupt gzip data%s", "");
            g->member_done = 0;
        }
        if (!g->z.avail_in && g->raw_eof) {
            return gz_fail(g, IPROF_ESYNTAX,
                           "truncated gzip data: the compressed input ends inside a "
                           "member%s", "");
        }
        g->z.next_out = (Bytef *)out + *got;
        g->z.avail_out = (uInt)(room - *got);
        int zr = inflate(&g->z, Z_NO_FLUSH);
        *got = room - g->z.avail_out;
        switch (zr) {
        case Z_OK:
            break;
        case Z_STREAM_END:
            g->member_done = 1;
            g->members++;
            break;
        case Z_BUF_ERROR: /* no progress possible: needs input (pulled next) */
            break;
        case Z_MEM_ERROR:
            return gz_fail(g, IPROF_ENOMEM, "out of memory inflating gzip data%s", "");
        default:
            if (g->members)
                return gz_fail(g, IPROF_ESYNTAX, "corrupt gzip data after the first member: %s",
                               g->z.msg ? g->z.msg : "invalid data");
            return gz_fail(g, IPROF_ESYNTAX, "corrupt gzip data: %s",
                           g->z.msg ? g->z.msg : "invalid data");
        }
    }
    return IPROF_OK;
}

int ipi_gzin_read(ipi_gzin *g, char *out, size_t room, size_t *got, ipi_gz_raw_read raw,
                  void *ctx)
{
    *got = 0;
    if (g->pending)
        return g->pending;
    if (room > UINT32_MAX)
        room = UINT32_MAX;
    int rc = inflate_some(g, out, room, got, raw, ctx);
    /* Damage (corrupt or truncated data, a failed raw read) met after some
     * bytes came out: hand those over, fail on the next call, so that the
     * error sits where the good text ends whatever the read sizes. */
    if (rc && *got) {
        g->pending = rc;
        return IPROF_OK;
    }
    return rc;
}

const char *ipi_gzin_message(const ipi_gzin *g)
{
    return g ? g->msg : "";
}

void ipi_gzin_free(ipi_gzin *g)
{
    if (!g)
        return;
    inflateEnd(&g->z);
    ipi_free(g->alloc, g->in, g->in_cap);
    ipi_free(g->alloc, g, sizeof *g);
}

/* ---- deflating -------------------------------------------------------- */

#define OUT_CHUNK ((size_t)64 * 1024)

struct ipi_gzout {
    z_stream z;
    const iprof_allocator *alloc;
    unsigned char out[OUT_CHUNK];
};

int ipi_gzout_new(ipi_gzout **out, const iprof_allocator *a)
{
    *out = NULL;
    ipi_gzout *g = ipi_malloc(a, sizeof *g);
    if (!g)
        return IPROF_ENOMEM;
    memset(&g->z, 0, sizeof g->z);
    g->alloc = a;
    g->z.zalloc = z_alloc;
    g->z.zfree = z_free;
    g->z.opaque = (voidpf)a;
    /* 16 + MAX_WBITS: a gzip wrapper; zlib's own header has no name and
     * time 0, so the bytes depend on the input only. */
    if (deflateInit2(&g->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK) {
        ipi_free(a, g, sizeof *g);
        return IPROF_ENOMEM;
    }
    *out = g;
    return IPROF_OK;
}

static int pump(ipi_gzout *g, int flush, ipi_gz_raw_write raw, void *ctx)
{
    for (;;) {
        g->z.next_out = g->out;
        g->z.avail_out = (uInt)OUT_CHUNK;
        int zr = deflate(&g->z, flush);
        if (zr == Z_STREAM_ERROR)
            return IPROF_EINVAL;
        size_t n = OUT_CHUNK - g->z.avail_out;
        if (n) {
            int rc = raw(ctx, g->out, n);
            if (rc)
                return rc;
        }
        if (flush == Z_FINISH ? zr == Z_STREAM_END : g->z.avail_out != 0)
            return IPROF_OK;
        if (zr == Z_BUF_ERROR && n == 0)
            return IPROF_OK;
    }
}

int ipi_gzout_write(ipi_gzout *g, const void *data, size_t len, ipi_gz_raw_write raw,
                    void *ctx)
{
    const unsigned char *p = data;
    while (len) {
        size_t n = len > UINT32_MAX ? UINT32_MAX : len;
        g->z.next_in = (Bytef *)(uintptr_t)p;
        g->z.avail_in = (uInt)n;
        int rc = pump(g, Z_NO_FLUSH, raw, ctx);
        if (rc)
            return rc;
        p += n;
        len -= n;
    }
    return IPROF_OK;
}

int ipi_gzout_finish(ipi_gzout *g, ipi_gz_raw_write raw, void *ctx)
{
    g->z.next_in = Z_NULL;
    g->z.avail_in = 0;
    return pump(g, Z_FINISH, raw, ctx);
}

void ipi_gzout_free(ipi_gzout *g)
{
    if (!g)
        return;
    deflateEnd(&g->z);
    ipi_free(g->alloc, g, sizeof *g);
}

#else /* no zlib */

int ipi_gzip_available(void)
{
    return 0;
}

int ipi_gzin_new(ipi_gzin **out, const iprof_allocator *a, size_t chunk, const void *prefix,
                 size_t prefix_len)
{
    (void)a, (void)chunk, (void)prefix, (void)prefix_len;
    *out = NULL;
    return IPROF_EIO;
}

int ipi_gzin_read(ipi_gzin *g, char *out, size_t room, size_t *got, ipi_gz_raw_read raw,
                  void *ctx)
{
    (void)g, (void)out, (void)room, (void)raw, (void)ctx;
    *got = 0;
    return IPROF_EIO;
}

const char *ipi_gzin_message(const ipi_gzin *g)
{
    (void)g;
    return IPI_GZIP_UNSUPPORTED;
}

void ipi_gzin_free(ipi_gzin *g)
{
    (void)g;
}

int ipi_gzout_new(ipi_gzout **out, const iprof_allocator *a)
{
    (void)a;
    *out = NULL;
    return IPROF_EIO;
}

int ipi_gzout_write(ipi_gzout *g, const void *data, size_t len, ipi_gz_raw_write raw,
                    void *ctx)
{
    (void)g, (void)data, (void)len, (void)raw, (void)ctx;
    return IPROF_EIO;
}

int ipi_gzout_finish(ipi_gzout *g, ipi_gz_raw_write raw, void *ctx)
{
    (void)g, (void)raw, (void)ctx;
    return IPROF_EIO;
}

void ipi_gzout_free(ipi_gzout *g)
{
    (void)g;
}

#endif
