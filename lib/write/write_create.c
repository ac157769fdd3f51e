/* The writer's options and creation: the options struct's versions, the
 * allocation of a writer and its buffer, its sinks (path, fd, buffer,
 * callback, gzip) and its release. */
#include <iprof/stream.h>

#include <limits.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "canon.h" /* the canonical order a canonical write walks */
#include "model.h" /* write_model reads the model directly where it pays */
#include "ctx.h"
#include "error.h"
#include "idmap.h"
#include "json.h"
#include "json_fmt.h"
#include "numfmt.h"
#include "rules.h"
#include "sink.h"
#include "version.h"
#include "writer_internal.h"

/* ------------------------------------------------------------------------ */
/* Options and creation                                                     */

/* The size of each version of iprof_write_options (1.x has version 1;
 * members appended later make version 2, whose callers' structs this one
 * must not read past), 0 for an unknown version. */
static size_t write_options_size(unsigned int version)
{
    return version == 1 ? sizeof(iprof_write_options) : 0;
}

IPROF_API int iprof_write_options_init(iprof_write_options *opts, unsigned int version)
{
    if (!opts || !write_options_size(version))
        return IPROF_EINVAL;
    memset(opts, 0, write_options_size(version));
    opts->version = version;
    return IPROF_OK;
}

/* Allocate a writer with its output buffer; the caller sets up the sink
 * (a memory sink takes over the buffer). */
static int writer_create(iprof_writer **out, const iprof_write_options *opts, int mem)
{
    static const iprof_write_options defaults = IPROF_WRITE_OPTIONS_INIT;
    if (!opts)
        opts = &defaults;
    if (!write_options_size(opts->version) || (opts->flags & ~ALL_FLAGS))
        return IPROF_EINVAL;
    int iof = opts->instanceof_key;
    if (iof < IPROF_INSTANCEOF_KEY_AUTO || iof > IPROF_INSTANCEOF_KEY_CAMEL)
        return IPROF_EINVAL;
    iprof_allocator a;
    ipi_allocator_init(&a, opts->allocator);
    iprof_writer *w = ipi_malloc(&a, sizeof *w);
    if (!w)
        return IPROF_ENOMEM;
    memset(w, 0, sizeof *w);
    w->alloc = a;
    ipi_errbuf_clear(&w->err);
    ipi_idmap_init(&w->type_ids);
    ipi_idmap_init(&w->method_ids);
    w->flags = opts->flags;
    /* Until begin chooses the document's (0.2.0's, or this one). */
    w->lay = ipi_write_layout_of(0, (opts->flags & IPROF_WRITE_PRETTY) != 0);
    w->state = ST_INIT;
    w->iof_opt = iof;
    w->check_refs = !(opts->flags & (IPROF_WRITE_NO_VALIDATE | IPROF_WRITE_NO_REFERENCES));
    if (opts->format_version) {
        size_t n = strlen(opts->format_version) + 1;
        w->opt_version = ipi_malloc(&w->alloc, n);
        if (!w->opt_version) {
            ipi_free(&w->alloc, w, sizeof *w);
            return IPROF_ENOMEM;
        }
        memcpy(w->opt_version, opts->format_version, n);
        w->opt_version_size = n;
    }
    if (!mem) {
        size_t size = opts->buffer_size ? opts->buffer_size : DEFAULT_BUFFER_SIZE;
        w->buf = ipi_malloc(&w->alloc, size);
        if (!w->buf) {
            ipi_free(&w->alloc, w->opt_version, w->opt_version_size);
            ipi_free(&w->alloc, w, sizeof *w);
            return IPROF_ENOMEM;
        }
        w->cap = size;
    }
    *out = w;
    return IPROF_OK;
}

IPROF_API void iprof_writer_free(iprof_writer *w)
{
    if (!w)
        return;
    if (!w->direct)
        ipi_free(&w->alloc, w->buf, w->cap);
    ipi_sink_close(&w->sink);
    ipi_free(&w->alloc, w->opt_version, w->opt_version_size);
    ipi_idmap_free(&w->type_ids, &w->alloc);
    ipi_idmap_free(&w->method_ids, &w->alloc);
    ipi_free(&w->alloc, w->scratch, w->scratch_cap * sizeof *w->scratch);
    iprof_allocator a = w->alloc;
    ipi_free(&a, w, sizeof *w);
}

/* Turn on gzip for the sink. Without zlib the writer is created failed:
 * its first call returns IPROF_EIO with the reason. */
static void setup_gzip(iprof_writer *w)
{
    int rc = ipi_sink_gzip(&w->sink, &w->err);
    if (rc)
        w->status = rc;
}

/* Each kind's field that no writer can use; the sink itself is checked. */
static int sink_usable(const iprof_sink *sink)
{
    switch (sink->kind) {
    case IPROF_SINK_BUFFER: return 1;
    case IPROF_SINK_PATH: return sink->path && *sink->path;
    case IPROF_SINK_FD: return sink->fd >= 0;
    case IPROF_SINK_CALLBACK: return sink->write_fn != NULL;
    default: return 0;
    }
}

/* A memory sink: the writer formats straight into its buffer, unless it
 * compresses (then formatted into w->buf, compressed into the sink). */
static int new_buffer(iprof_writer **out, const iprof_write_options *opts)
{
    iprof_writer *w;
    int gz = opts && (opts->flags & IPROF_WRITE_GZIP);
    int rc = writer_create(&w, opts, !gz);
    if (rc)
        return rc;
    ipi_sink_init_mem(&w->sink, &w->alloc);
    if (gz) {
        setup_gzip(w);
        *out = w;
        return IPROF_OK;
    }
    w->direct = 1;
    size_t size = opts && opts->buffer_size ? opts->buffer_size : DEFAULT_MEM_SIZE;
    if (ipi_sink_mem_reserve(&w->sink, size)) {
        iprof_writer_free(w);
        return IPROF_ENOMEM;
    }
    w->buf = w->sink.mem;
    w->cap = w->sink.mem_cap;
    *out = w;
    return IPROF_OK;
}

IPROF_API int iprof_writer_new(iprof_writer **out, const iprof_sink *sink,
                               const iprof_write_options *opts)
{
    if (!out)
        return IPROF_EINVAL;
    *out = NULL;
    if (!sink || sink->version < 1 || sink->version > IPROF_SINK_VERSION || !sink_usable(sink))
        return IPROF_EINVAL;
    if (sink->kind == IPROF_SINK_BUFFER)
        return new_buffer(out, opts);
    iprof_writer *w;
    int rc = writer_create(&w, opts, 0);
    if (rc)
        return rc;
    int gz = (w->flags & IPROF_WRITE_GZIP) != 0;
    switch (sink->kind) {
    case IPROF_SINK_PATH:
        if (ipi_sink_init_path(&w->sink, &w->alloc, sink->path,
                               (w->flags & IPROF_WRITE_NO_SYNC) == 0)) {
            iprof_writer_free(w);
            return IPROF_ENOMEM;
        }
        /* The file written is the one the links name: its name says gzip. */
        gz = gz || ipi_sink_target_is_gzip(&w->sink);
        break;
    case IPROF_SINK_FD: ipi_sink_init_fd(&w->sink, &w->alloc, sink->fd); break;
    default: ipi_sink_init_callback(&w->sink, &w->alloc, sink->write_fn, sink->write_payload);
    }
    if (gz)
        setup_gzip(w);
    *out = w;
    return IPROF_OK;
}
