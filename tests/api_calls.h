/*
 * Short forms of the 1.0 calls for tests that read or write many small
 * documents: a source or sink declared on the spot, a merge with the default
 * options, a report read in one call. Each is the 1.0 function and nothing
 * else, so a test through them tests that function.
 */
#ifndef IPROF_TESTS_API_CALLS_H
#define IPROF_TESTS_API_CALLS_H

#include <stddef.h>

#include <iprof/iprof.h>
#include <iprof/stream.h>

static inline int api_load_buffer(iprof_model **out, iprof_reader *r, const void *d, size_t n)
{
    iprof_source s = IPROF_SOURCE_BUFFER_INIT(d, n);
    return iprof_model_load(out, r, &s);
}

static inline int api_load_path(iprof_model **out, iprof_reader *r, const char *path)
{
    iprof_source s = IPROF_SOURCE_PATH_INIT(path);
    return iprof_model_load(out, r, &s);
}

static inline int api_load_fd(iprof_model **out, iprof_reader *r, int fd)
{
    iprof_source s = IPROF_SOURCE_FD_INIT(fd);
    return iprof_model_load(out, r, &s);
}

static inline int api_load_callback(iprof_model **out, iprof_reader *r, iprof_read_fn fn, void *p)
{
    iprof_source s = IPROF_SOURCE_CALLBACK_INIT(fn, p);
    return iprof_model_load(out, r, &s);
}

static inline int api_merge_buffer(iprof_model *dst, iprof_reader *r, const void *d, size_t n,
                                   const iprof_merge_options *o)
{
    iprof_source s = IPROF_SOURCE_BUFFER_INIT(d, n);
    return iprof_model_merge_source(dst, r, &s, o);
}

static inline int api_merge_path(iprof_model *dst, iprof_reader *r, const char *path,
                                 const iprof_merge_options *o)
{
    iprof_source s = IPROF_SOURCE_PATH_INIT(path);
    return iprof_model_merge_source(dst, r, &s, o);
}

static inline int api_merge_fd(iprof_model *dst, iprof_reader *r, int fd,
                               const iprof_merge_options *o)
{
    iprof_source s = IPROF_SOURCE_FD_INIT(fd);
    return iprof_model_merge_source(dst, r, &s, o);
}

static inline int api_merge_callback(iprof_model *dst, iprof_reader *r, iprof_read_fn fn, void *p,
                                     const iprof_merge_options *o)
{
    iprof_source s = IPROF_SOURCE_CALLBACK_INIT(fn, p);
    return iprof_model_merge_source(dst, r, &s, o);
}

/* The model-into-model merge with a weight and the default rounding. */
static inline int api_merge(iprof_model *dst, const iprof_model *src, double weight)
{
    iprof_merge_options o = IPROF_MERGE_OPTIONS_INIT;
    o.weight = weight;
    return iprof_model_merge(dst, src, &o);
}

static inline int api_read_buffer(iprof_reader *r, const void *d, size_t n,
                                  const iprof_read_callbacks *cbs, void *payload)
{
    iprof_source s = IPROF_SOURCE_BUFFER_INIT(d, n);
    return iprof_reader_read(r, &s, cbs, payload);
}

static inline int api_read_path(iprof_reader *r, const char *path,
                                const iprof_read_callbacks *cbs, void *payload)
{
    iprof_source s = IPROF_SOURCE_PATH_INIT(path);
    return iprof_reader_read(r, &s, cbs, payload);
}

static inline int api_writer_buffer(iprof_writer **out, const iprof_write_options *o)
{
    iprof_sink s = IPROF_SINK_BUFFER_INIT;
    return iprof_writer_new(out, &s, o);
}

static inline int api_writer_path(iprof_writer **out, const char *path,
                                  const iprof_write_options *o)
{
    iprof_sink s = IPROF_SINK_PATH_INIT(path);
    return iprof_writer_new(out, &s, o);
}

static inline int api_writer_callback(iprof_writer **out, iprof_write_fn fn, void *p,
                                      const iprof_write_options *o)
{
    iprof_sink s = IPROF_SINK_CALLBACK_INIT(fn, p);
    return iprof_writer_new(out, &s, o);
}

/* What a report says (iprof_error_get_info); a failed call gives a status of
 * -1 and NULL strings, which every check on them catches. */
static inline iprof_error_info api_info(const iprof_error *e)
{
    iprof_error_info i = IPROF_ERROR_INFO_INIT;
    if (iprof_error_get_info(e, &i) != IPROF_OK) {
        i.status = -1;
        i.message = i.path = i.context = NULL;
    }
    return i;
}

/* What the reader's last read left (iprof_reader_get_result). */
static inline iprof_read_result api_result(const iprof_reader *r)
{
    iprof_read_result res = IPROF_READ_RESULT_INIT;
    if (iprof_reader_get_result(r, &res) != IPROF_OK)
        res.diag_count = (size_t)-1;
    return res;
}

#endif
