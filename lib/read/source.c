/* Windowed input. The window grows geometrically only while one element
 * does not fit, so memory stays bounded by the largest element. */
#include "source.h"

#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "platform.h"

void ipi_source_init_buffer(ipi_source *s, const void *data, size_t len)
{
    memset(s, 0, sizeof *s);
    s->data = data ? data : "";
    s->len = data ? len : 0;
    s->eof = 1;
    s->fd = -1;
}

void ipi_source_init_stream(ipi_source *s, int fd, iprof_read_fn read_fn, void *read_payload,
                            char **buf, size_t *cap, size_t chunk, size_t max_window,
                            const iprof_allocator *alloc)
{
    memset(s, 0, sizeof *s);
    s->fd = fd;
    if (fd >= 0)
        ipi_fd_binary(fd); /* Windows: no CRLF, no ^Z as the end */
    s->read_fn = read_fn;
    s->read_payload = read_payload;
    s->buf = buf;
    s->cap = cap;
    s->chunk = chunk;
    s->max_window = max_window;
    s->alloc = alloc;
    s->data = *buf ? *buf : "";
}

void ipi_source_init_gzip_buffer(ipi_source *s, const void *data, size_t len, char **buf,
                                 size_t *cap, size_t chunk, size_t max_window,
                                 const iprof_allocator *alloc)
{
    ipi_source_init_stream(s, -1, NULL, NULL, buf, cap, chunk, max_window, alloc);
    s->mem = data;
    s->mem_len = len;
}

void ipi_source_close(ipi_source *s)
{
    ipi_gzin_free(s->gz);
    s->gz = NULL;
}

/* One raw read into buf[0, room); sets *got (0 at end of input). */
static int read_raw(ipi_source *s, char *buf, size_t room, size_t *got)
{
    if (s->held && room) { /* the byte sniff() had no room for */
        buf[0] = s->held_byte;
        s->held = 0;
        *got = 1;
        return IPROF_OK;
    }
    if (s->mem) {
        size_t n = s->mem_len - s->mem_pos < room ? s->mem_len - s->mem_pos : room;
        memcpy(buf, s->mem + s->mem_pos, n);
        s->mem_pos += n;
        *got = n;
        return IPROF_OK;
    }
    if (s->fd >= 0) {
        ptrdiff_t n = ipi_fd_read(s->fd, buf, room);
        if (n < 0) {
            s->err_no = errno;
            return IPROF_EIO;
        }
        *got = (size_t)n;
        return IPROF_OK;
    }
    *got = 0;
    if (s->read_fn(buf, room, got, s->read_payload) != 0 || *got > room)
        return IPROF_EIO;
    return IPROF_OK;
}

static int raw_for_gzip(void *ctx, char *buf, size_t room, size_t *got)
{
    return read_raw(ctx, buf, room, got);
}

/* The first read: whatever the input holds, or on the gzip magic the
 * start of its inflated bytes. */
static int sniff(ipi_source *s, char *buf, size_t room, size_t *got)
{
    s->sniffed = 1;
    size_t have = 0;
    int rc;
    /* Two bytes decide; a callback may hand them over one at a time, and a
     * window of one byte (chunk_size 1) holds the second back. */
    char head[2];
    char *to = room < 2 ? head : buf;
    size_t want = room < 2 ? 2 : room;
    do {
        size_t n = 0;
        if ((rc = read_raw(s, to + have, want - have, &n)))
            return rc;
        if (n == 0)
            break;
        have += n;
    } while (have < 2);
    if (!ipi_gzip_magic(to, have)) {
        if (to == head) {
            *got = have < room ? have : room;
            memcpy(buf, head, *got);
            s->held = have > *got;
            s->held_byte = head[1];
            return IPROF_OK;
        }
        *got = have;
        return IPROF_OK;
    }
    if (!ipi_gzip_available()) {
        s->message = IPI_GZIP_UNSUPPORTED;
        return IPROF_EIO;
    }
    if ((rc = ipi_gzin_new(&s->gz, s->alloc, s->chunk, to, have))) {
        s->message = "out of memory setting up gzip decompression";
        return rc;
    }
    return IPROF_OK; /* *got stays 0: the caller reads again, inflating */
}

/* One read into buf[0, room); sets *got (0 at end of input). */
static int read_some(ipi_source *s, char *buf, size_t room, size_t *got)
{
    *got = 0;
    if (!s->sniffed) {
        int rc = sniff(s, buf, room, got);
        if (rc || !s->gz)
            return rc;
    }
    if (!s->gz)
        return read_raw(s, buf, room, got);
    int rc = ipi_gzin_read(s->gz, buf, room, got, raw_for_gzip, s);
    if (rc == IPROF_ESYNTAX || rc == IPROF_ENOMEM)
        s->message = ipi_gzin_message(s->gz);
    return rc;
}

/* Make room for `need` bytes in the window buffer. */
static int ensure_capacity(ipi_source *s, size_t need)
{
    if (need <= *s->cap)
        return IPROF_OK;
    if (need > s->max_window)
        return IPROF_ELIMIT;
    size_t ncap = *s->cap ? *s->cap : s->chunk;
    while (ncap < need)
        ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
    if (ncap > s->max_window)
        ncap = s->max_window;
    char *nb = *s->buf ? ipi_realloc(s->alloc, *s->buf, *s->cap, ncap)
                       : ipi_malloc(s->alloc, ncap);
    if (!nb)
        return IPROF_ENOMEM;
    *s->buf = nb;
    *s->cap = ncap;
    return IPROF_OK;
}

int ipi_source_refill(ipi_source *s, size_t keep_from)
{
    if (s->eof)
        return IPROF_OK;
    size_t kept = s->len - keep_from;
    if (keep_from && kept)
        memmove(*s->buf, s->data + keep_from, kept);
    s->base += keep_from;
    s->len = kept;
    s->data = *s->buf ? *s->buf : "";
    if (s->deferred)
        return s->deferred;
    /* Grow when the kept element fills over half the window: doubling keeps
     * re-scanning of a large element linear overall. */
    size_t need = kept + s->chunk;
    if (kept > *s->cap / 2 && need < kept * 2)
        need = kept * 2;
    int rc = ensure_capacity(s, need);
    if (rc == IPROF_ELIMIT && kept + 1 <= s->max_window)
        rc = ensure_capacity(s, s->max_window);
    if (rc)
        return rc;
    s->data = *s->buf;
    /* Fill the window: fewer, larger reads. */
    while (s->len < *s->cap) {
        size_t got;
        rc = read_some(s, *s->buf + s->len, *s->cap - s->len, &got);
        if (rc && s->len > kept) { /* give the reader what came first */
            s->deferred = rc;
            return IPROF_OK;
        }
        if (rc)
            return rc;
        if (got == 0) {
            s->eof = 1;
            break;
        }
        s->len += got;
    }
    return IPROF_OK;
}
