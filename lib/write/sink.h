/* Writer output: where the bytes of a document go.
 *
 * Four sinks: a path (atomic: a temporary file in the target's directory,
 * written, synced, renamed over the target, the directory synced; on any
 * failure the temporary file is removed and the target is untouched. A
 * symlink is followed to the file it finally names, which is the one
 * replaced, so links stay links; a character device, a FIFO or one of the
 * process's descriptors (/dev/stdout, /dev/fd/N) is written straight
 * through, and a directory, block device or socket refused), a
 * file descriptor (full writes, not closed), a growable memory buffer and
 * a write callback. The writer buffers its output and hands it to
 * ipi_sink_write() in large pieces; for the memory sink the writer formats
 * straight into the sink's buffer (ipi_sink_mem_reserve), so the bytes are
 * copied once. */
#ifndef IPI_SINK_H
#define IPI_SINK_H

#include <iprof/stream.h>

#include "error.h"
#include "gzip.h"
#include "replace.h"

enum ipi_sink_kind {
    IPI_SINK_PATH = 0,
    IPI_SINK_FD = 1,
    IPI_SINK_MEM = 2,
    IPI_SINK_CALLBACK = 3
};

typedef struct ipi_sink {
    int kind;
    const iprof_allocator *alloc; /* borrowed from the owner */
    /* path */
    char *path;     /* the target, NUL-terminated */
    size_t path_size;
    ipi_replace rep; /* the temporary file (rep.fd >= 0 once opened) */
    char *target;   /* the file the path finally names (symlinks followed) */
    size_t target_size;
    int through;    /* written straight to a device, FIFO or descriptor */
    int sync;       /* fsync file and directory on commit */
    int committed;  /* renamed into place */
    /* path (the temporary file) and fd */
    int fd;
    /* memory */
    char *mem;
    size_t mem_len, mem_cap;
    /* callback */
    iprof_write_fn fn;
    void *payload;
    /* gzip: every byte goes through the encoder first (ipi_sink_gzip). */
    ipi_gzout *gz;
} ipi_sink;

/* Set up a sink. Only the path sink allocates (a copy of the path):
 * 0 or IPROF_ENOMEM. Nothing is opened yet. */
int ipi_sink_init_path(ipi_sink *s, const iprof_allocator *a, const char *path, int sync);
void ipi_sink_init_fd(ipi_sink *s, const iprof_allocator *a, int fd);
void ipi_sink_init_mem(ipi_sink *s, const iprof_allocator *a);
void ipi_sink_init_callback(ipi_sink *s, const iprof_allocator *a, iprof_write_fn fn,
                            void *payload);

/* Compress everything written from now on with gzip (gzip.h). 0, or
 * IPROF_ENOMEM / IPROF_EIO (built without zlib) with the reason in *eb. */
int ipi_sink_gzip(ipi_sink *s, ipi_errbuf *eb);
/* Whether a path names a gzip file (ends in ".gz"). */
int ipi_sink_path_is_gzip(const char *path);
/* Whether a path sink's file is a gzip file: the file its symlinks finally
 * name ends in ".gz" (the name given when they cannot be followed; not a
 * descriptor path). */
int ipi_sink_target_is_gzip(ipi_sink *s);

/* Path sink: create the temporary file (no-op for other sinks and when it
 * is open). 0 or IPROF_EIO/IPROF_ENOMEM with the reason in *eb. */
int ipi_sink_open(ipi_sink *s, ipi_errbuf *eb);

/* Write all of data[0..len). 0, or IPROF_EIO (IPROF_ENOMEM for a memory
 * sink) with the reason in *eb. */
int ipi_sink_write(ipi_sink *s, const void *data, size_t len, ipi_errbuf *eb);

/* Memory sink: make its buffer hold at least need bytes (doubling).
 * 0 or IPROF_ENOMEM (then the buffer is intact). */
int ipi_sink_mem_reserve(ipi_sink *s, size_t need);

/* Finish the document: a gzip sink ends its stream; path sinks sync, close, rename into place and sync
 * the directory. 0 or IPROF_EIO with the reason in *eb (the target is then
 * untouched and the temporary file removed). */
int ipi_sink_commit(ipi_sink *s, ipi_errbuf *eb);

/* Release everything. An uncommitted path sink removes its temporary
 * file. The fd of an fd sink is not closed. */
void ipi_sink_close(ipi_sink *s);


#endif
