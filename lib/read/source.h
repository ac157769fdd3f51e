/* Reader input: a sliding window over a buffer, a file descriptor or a
 * read callback (or, for gzip, over the inflated bytes of any of them). The reader parses inside [data, data + len); when an
 * element runs past the end it asks for a refill that keeps the element's
 * bytes and appends more input. A memory buffer is one window with eof set. */
#ifndef IPI_SOURCE_H
#define IPI_SOURCE_H

#include <iprof/stream.h>

#include "gzip.h"

typedef struct ipi_source {
    const char *data; /* window */
    size_t len;       /* bytes in the window */
    uint64_t base;    /* input offset of data[0] */
    int eof;          /* no input beyond the window */

    int fd;                  /* >= 0 for fd sources */
    iprof_read_fn read_fn;   /* for callback sources */
    void *read_payload;
    char **buf;              /* the reader's reusable window buffer */
    size_t *cap;
    size_t chunk;            /* bytes to read at a time */
    size_t max_window;       /* largest window (max element size + chunk) */
    const iprof_allocator *alloc;
    int err_no;              /* errno of a failed read(), 0 otherwise */

    /* gzip (gzip.h): a stream source looks at its first two bytes; on the
     * gzip magic its reads go through gz. A gzip memory buffer becomes a
     * stream source reading mem. */
    const char *mem;         /* raw bytes of a gzip memory buffer, or NULL */
    size_t mem_len, mem_pos;
    int sniffed;             /* the first bytes were checked */
    int held;                /* sniff() kept held_byte for the next read */
    char held_byte;
    ipi_gzin *gz;            /* the decoder, or NULL */
    const char *message;     /* why a gzip read failed (static or gz's), or NULL */
    int deferred;            /* a failure met after this refill's bytes: the
                              * next refill's (those bytes are read first) */
} ipi_source;

void ipi_source_init_buffer(ipi_source *s, const void *data, size_t len);
/* fd >= 0 or read_fn != NULL. */
void ipi_source_init_stream(ipi_source *s, int fd, iprof_read_fn read_fn, void *read_payload,
                            char **buf, size_t *cap, size_t chunk, size_t max_window,
                            const iprof_allocator *alloc);

/* Read the gzip document data[0..len) through the window buffer. */
void ipi_source_init_gzip_buffer(ipi_source *s, const void *data, size_t len, char **buf,
                                 size_t *cap, size_t chunk, size_t max_window,
                                 const iprof_allocator *alloc);
/* Release the gzip decoder, if any. */
void ipi_source_close(ipi_source *s);

/* Drop data[0, keep_from), keep the rest at the window's start and read
 * more. 0, IPROF_EIO (err_no set for fd errors), IPROF_ENOMEM or
 * IPROF_ELIMIT (an element larger than max_window); for gzip input also
 * IPROF_ESYNTAX (corrupt or truncated) and IPROF_EIO without zlib, with
 * the reason in message. A failure after some bytes were read is
 * returned by the next refill, so that the reader gets every byte before
 * it (a truncated gzip member hands over what it inflated). */
int ipi_source_refill(ipi_source *s, size_t keep_from);

#endif
