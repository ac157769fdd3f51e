/* gzip: recognising it, inflating the reader's input and deflating the
 * writer's output, in bounded memory (one input chunk plus zlib's state).
 *
 * The reader's source (source.c) looks at the first two bytes of every
 * input; on the gzip magic (1f 8b) it pulls its bytes through an ipi_gzin,
 * so the parser only ever sees the decompressed stream and every position
 * it reports is an offset into that stream. Concatenated gzip members are
 * read as one stream, as gzip -d does. The writer's sink (sink.c) pushes
 * its bytes through an ipi_gzout when gzip output is asked for.
 *
 * Failures: the raw input or output failing keeps its own status (the
 * caller's read or write function said so); corrupt or truncated gzip
 * data is IPROF_ESYNTAX (the input is malformed, like bad JSON); a library
 * built without zlib (-Dzlib=disabled) fails on gzip with IPROF_EIO
 * ("cannot read this input"). zlib's memory goes through the handle's
 * allocator. */
#ifndef IPI_GZIP_H
#define IPI_GZIP_H

#include <iprof/iprof.h>

/* 1 if data[0..len) starts with the gzip magic, else 0. */
int ipi_gzip_magic(const void *data, size_t len);
/* 1 when built with zlib. */
int ipi_gzip_available(void);

/* The message of a gzip failure without zlib. */
#define IPI_GZIP_UNSUPPORTED                                                               \
    "the input is gzip-compressed, but this libiprof was built without zlib "             \
    "(meson option zlib)"
#define IPI_GZIP_UNSUPPORTED_OUT                                                           \
    "gzip output needs zlib, but this libiprof was built without it (meson option zlib)"

/* ---- inflating -------------------------------------------------------- */

typedef struct ipi_gzin ipi_gzin;

/* Read up to room raw (compressed) bytes into buf; *got = 0 at the end.
 * 0, or a status (kept as the read's status). */
typedef int (*ipi_gz_raw_read)(void *ctx, char *buf, size_t room, size_t *got);

/* A decoder whose first raw bytes are prefix[0..prefix_len) (already read
 * by the caller while sniffing), then whatever raw() returns, chunk bytes
 * at a time. 0, IPROF_ENOMEM, or IPROF_EIO without zlib. */
int ipi_gzin_new(ipi_gzin **out, const iprof_allocator *a, size_t chunk, const void *prefix,
                 size_t prefix_len);
/* Up to room decompressed bytes into out; *got = 0 once the last member
 * has ended and the raw input with it. 0; the status of raw(); or
 * IPROF_ESYNTAX / IPROF_ENOMEM with ipi_gzin_message() saying why. */
int ipi_gzin_read(ipi_gzin *g, char *out, size_t room, size_t *got, ipi_gz_raw_read raw,
                  void *ctx);
/* The reason of the last IPROF_ESYNTAX / IPROF_ENOMEM ("" if none). */
const char *ipi_gzin_message(const ipi_gzin *g);
void ipi_gzin_free(ipi_gzin *g);

/* ---- deflating -------------------------------------------------------- */

typedef struct ipi_gzout ipi_gzout;

/* Write all of data[0..len) compressed bytes; 0 or a status (kept). */
typedef int (*ipi_gz_raw_write)(void *ctx, const void *data, size_t len);

/* An encoder (zlib's default level, a gzip header without name or time,
 * so equal input gives equal bytes). 0, IPROF_ENOMEM, or IPROF_EIO
 * without zlib. */
int ipi_gzout_new(ipi_gzout **out, const iprof_allocator *a);
/* Compress data[0..len), handing full output chunks to raw(). */
int ipi_gzout_write(ipi_gzout *g, const void *data, size_t len, ipi_gz_raw_write raw,
                    void *ctx);
/* End the stream: the rest of the output and the gzip trailer. */
int ipi_gzout_finish(ipi_gzout *g, ipi_gz_raw_write raw, void *ctx);
void ipi_gzout_free(ipi_gzout *g);

#endif
