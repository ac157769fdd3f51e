/*
 * The 1.0 API's value arguments in test-sized form: a source or sink of one
 * kind as a compound literal of the header's own *_INIT macro (borrowed for
 * the full expression that takes it, which is all a source or sink must
 * live), and a report or a read's result as a struct value, so that a check
 * reads one field of what iprof_error_get_info() or iprof_reader_get_result()
 * filled, and a merge with a weight. Nothing here re-implements a function
 * of the library: each call goes through the entry point the test names.
 */
#ifndef IPROF_TESTS_CHECK_API_H
#define IPROF_TESTS_CHECK_API_H

#include <iprof/iprof.h>
#include <iprof/stream.h>

#define SRC_BUFFER(data, len) (&(iprof_source)IPROF_SOURCE_BUFFER_INIT((data), (len)))
#define SRC_PATH(path) (&(iprof_source)IPROF_SOURCE_PATH_INIT((path)))
#define SRC_FD(fd) (&(iprof_source)IPROF_SOURCE_FD_INIT((fd)))
#define SRC_CALLBACK(fn, payload) (&(iprof_source)IPROF_SOURCE_CALLBACK_INIT((fn), (payload)))

#define SINK_BUFFER (&(iprof_sink)IPROF_SINK_BUFFER_INIT)
#define SINK_PATH(path) (&(iprof_sink)IPROF_SINK_PATH_INIT((path)))
#define SINK_FD(fd) (&(iprof_sink)IPROF_SINK_FD_INIT((fd)))
#define SINK_CALLBACK(fn, payload) (&(iprof_sink)IPROF_SINK_CALLBACK_INIT((fn), (payload)))

/* The report's fields. A refused call (it cannot be, with our version)
 * gives a status no check expects and a message saying so. */
static inline iprof_error_info err_info(const iprof_error *err)
{
    iprof_error_info info = IPROF_ERROR_INFO_INIT;
    if (iprof_error_get_info(err, &info) != IPROF_OK) {
        info.status = -1000;
        info.message = "(iprof_error_get_info failed)";
        info.path = "";
        info.context = "";
    }
    return info;
}

/* What the reader's last read left. A refused call gives counts no check
 * expects. */
static inline iprof_read_result read_result(const iprof_reader *reader)
{
    iprof_read_result res = IPROF_READ_RESULT_INIT;
    if (iprof_reader_get_result(reader, &res) != IPROF_OK) {
        res.diag_count = (size_t)-1;
        res.dropped_errors = (size_t)-1;
        res.dropped_warnings = (size_t)-1;
        res.unread_count = (size_t)-1;
        res.kept_end = (uint64_t)-1;
    }
    return res;
}

/* The model-into-model merge with a weight and the default rounding. */
static inline int merge_weighted(iprof_model *dst, const iprof_model *src, double weight)
{
    iprof_merge_options o = IPROF_MERGE_OPTIONS_INIT;
    o.weight = weight;
    return iprof_model_merge(dst, src, &o);
}

#endif
