/*
 * Building a model with the public streaming reader. The reader validates;
 * the callbacks here only store, keeping the file's order and any
 * duplicates a lenient read lets through, so writing the model back gives
 * the file's bytes.
 */
#include "model.h"
#include "reader_internal.h"

typedef struct loader {
    iprof_model *m;
    int status; /* why a callback stopped the read */
} loader;

/* Record a failure and ask the reader to stop. */
static int keep_going(loader *l, int rc)
{
    l->status = rc;
    return rc != IPROF_OK;
}

static int on_version(const char *version, size_t len, void *payload)
{
    loader *l = payload;
    return keep_going(l, ipi_model_store_version(l->m, version, len));
}

static int on_type(int64_t id, const char *name, size_t name_len, void *payload)
{
    loader *l = payload;
    return keep_going(l, ipi_model_push_type(l->m, id, name, name_len, NULL));
}

static int on_method(int64_t id, const char *name, size_t name_len, const int64_t *signature,
                     size_t signature_len, void *payload)
{
    loader *l = payload;
    return keep_going(l, ipi_model_push_method(l->m, id, name, name_len, signature,
                                               signature_len, NULL));
}

static int on_entry(int kind, const int64_t *frames, size_t frame_count,
                    const int64_t *records, size_t record_count, void *payload)
{
    loader *l = payload;
    return keep_going(l, ipi_model_push_entry(l->m, kind, frames, frame_count, records,
                                              record_count));
}

static const iprof_read_callbacks load_callbacks = {
    IPROF_READ_CALLBACKS_VERSION, on_version, on_type, on_method,
    on_entry, on_entry, on_entry, on_entry, on_entry, on_entry, NULL,
};

/* Where to read from: one of the reader's four sources. */
enum { SRC_BUFFER, SRC_PATH, SRC_FD, SRC_CALLBACK };

typedef struct load_source {
    int type;
    const void *data;
    size_t len;
    const char *path;
    int fd;
    iprof_read_fn fn;
    void *fn_payload;
} load_source;

static int read_into(iprof_reader *r, const load_source *src, loader *l)
{
    switch (src->type) {
    case SRC_BUFFER:
        return iprof_reader_read_buffer(r, src->data, src->len, &load_callbacks, l);
    case SRC_PATH: return iprof_reader_read_path(r, src->path, &load_callbacks, l);
    case SRC_FD: return iprof_reader_read_fd(r, src->fd, &load_callbacks, l);
    default:
        return iprof_reader_read_callback(r, src->fn, src->fn_payload, &load_callbacks, l);
    }
}

static int load(iprof_model **out, iprof_reader *reader, const load_source *src)
{
    if (!out)
        return IPROF_EINVAL;
    *out = NULL;
    if (!reader)
        return IPROF_EINVAL;
    iprof_model *m;
    int rc = iprof_model_new(&m, ipi_reader_allocator(reader));
    if (rc) {
        ipi_reader_fail(reader, rc, "out of memory creating the model");
        return rc;
    }
    loader l = {m, IPROF_OK};
    rc = read_into(reader, src, &l);
    if (rc == IPROF_ESTOPPED && l.status) {
        rc = l.status; /* our callback stopped it: report why */
        ipi_reader_replace_error(reader, rc, rc == IPROF_ENOMEM
                                                 ? "out of memory building the model"
                                                 : iprof_status_string(rc));
    }
    if (rc) {
        iprof_model_free(m);
        return rc;
    }
    *out = m;
    return IPROF_OK;
}

IPROF_API int iprof_model_load_buffer(iprof_model **out, iprof_reader *reader,
                                      const void *data, size_t len)
{
    load_source src = {SRC_BUFFER, data, len, NULL, -1, NULL, NULL};
    return load(out, reader, &src);
}

IPROF_API int iprof_model_load_path(iprof_model **out, iprof_reader *reader, const char *path)
{
    load_source src = {SRC_PATH, NULL, 0, path, -1, NULL, NULL};
    return load(out, reader, &src);
}

IPROF_API int iprof_model_load_fd(iprof_model **out, iprof_reader *reader, int fd)
{
    load_source src = {SRC_FD, NULL, 0, NULL, fd, NULL, NULL};
    return load(out, reader, &src);
}

IPROF_API int iprof_model_load_callback(iprof_model **out, iprof_reader *reader,
                                        iprof_read_fn read_fn, void *read_payload)
{
    load_source src = {SRC_CALLBACK, NULL, 0, NULL, -1, read_fn, read_payload};
    return load(out, reader, &src);
}
