/*
 * libiprof: the writer.
 *
 * A writer produces one iprof document, either element by element
 * (begin; types; methods; entries; end) or from a whole model. By default
 * it writes GraalVM's own layout for the target version: minified, the
 * key order GraalVM uses, empty sections written. So reading a file that
 * GraalVM wrote and writing it back gives the same bytes.
 *
 * Streaming order: types, then methods, then the entry kinds in the order
 * of the target version's layout (0.4.0: monitor, virtual invoke, call
 * count, conditional, sampling; 1.x: call count, conditional, virtual
 * invoke, monitor, sampling, instanceof). Skipped sections are written
 * empty. A call out of that order fails with IPROF_ESTATE.
 *
 * Sinks: a path (atomic: written to a temporary file in the same
 * directory, synced, then renamed over the target; on any failure the
 * previous file is untouched), a file descriptor, a memory buffer or a
 * write callback.
 *
 * After any failure the writer is failed: every later call returns the
 * same status; free it (a path writer then removes its temporary file).
 */
#ifndef IPROF_WRITER_H
#define IPROF_WRITER_H

#include <iprof/common.h>
#include <iprof/model.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct iprof_writer iprof_writer;

/** Indent the output: one element per line. */
#define IPROF_WRITE_PRETTY 0x1u
/** Drop instanceof entries when the target version predates 1.1.0
 *  (otherwise writing them fails with IPROF_EVERSION). */
#define IPROF_WRITE_DROP_INSTANCEOF 0x2u
/** Also check that every referenced method and type id was written
 *  (IPROF_EDANGLING otherwise). */
#define IPROF_WRITE_STRICT 0x4u
/** Skip the record and context rule checks: write what is given as long as
 *  it can be written as JSON (for copying leniently loaded files). */
#define IPROF_WRITE_NO_VALIDATE 0x8u
/** Path sinks: skip fsync (faster, not durable across a crash). */
#define IPROF_WRITE_NO_SYNC 0x10u

#define IPROF_WRITE_OPTIONS_VERSION 1

/** Writer options. Initialise with IPROF_WRITE_OPTIONS_INIT or
 *  iprof_write_options_init(); zero fields mean "default". */
typedef struct iprof_write_options {
    unsigned int version;             /**< IPROF_WRITE_OPTIONS_VERSION */
    unsigned int flags;               /**< IPROF_WRITE_* */
    const char *format_version;       /**< target version; NULL: see begin/write_model */
    const iprof_allocator *allocator; /**< NULL: libc; copied */
    size_t buffer_size;               /**< output buffer bytes; 0: 256 KiB */
} iprof_write_options;

#define IPROF_WRITE_OPTIONS_INIT {IPROF_WRITE_OPTIONS_VERSION, 0, NULL, NULL, 0}

IPROF_API int iprof_write_options_init(iprof_write_options *opts, unsigned int version);

/** Write function of a callback sink: consume @p len bytes, return 0, or
 *  non-zero on failure (the write then fails with IPROF_EIO). */
typedef int (*iprof_write_fn)(const void *data, size_t len, void *payload);

/* ------------------------------------------------------------------------ */
/* Creating a writer: one per document                                      */

/** Write to @p path atomically; nothing is visible at @p path until
 *  iprof_writer_end() succeeds. */
IPROF_API int iprof_writer_new_path(iprof_writer **out, const char *path,
                                    const iprof_write_options *opts);
/** Write to an open file descriptor (not closed, not synced). */
IPROF_API int iprof_writer_new_fd(iprof_writer **out, int fd, const iprof_write_options *opts);
/** Write into memory; get the bytes with iprof_writer_buffer(). */
IPROF_API int iprof_writer_new_buffer(iprof_writer **out, const iprof_write_options *opts);
/** Write through a callback. */
IPROF_API int iprof_writer_new_callback(iprof_writer **out, iprof_write_fn write_fn,
                                        void *write_payload, const iprof_write_options *opts);

/** Free the writer. If end() did not succeed, a path writer removes its
 *  temporary file and the target is left as it was. NULL is a no-op. */
IPROF_API void iprof_writer_free(iprof_writer *writer);

/* ------------------------------------------------------------------------ */
/* Streaming                                                                */

/** Start the document. @p format_version NULL means the options' version,
 *  or IPROF_FORMAT_LATEST if that is NULL too. */
IPROF_API int iprof_writer_begin(iprof_writer *writer, const char *format_version);
IPROF_API int iprof_writer_type(iprof_writer *writer, int64_t id, const char *name,
                                size_t name_len);
IPROF_API int iprof_writer_method(iprof_writer *writer, int64_t id, const char *name,
                                  size_t name_len, const int64_t *signature,
                                  size_t signature_len);
/** One entry; frames interleaved (method id, bci), callee first. */
IPROF_API int iprof_writer_entry(iprof_writer *writer, int kind, const int64_t *frames,
                                 size_t frame_count, const int64_t *records,
                                 size_t record_count);
/** Close the document, flush and (path sink) sync and rename into place. */
IPROF_API int iprof_writer_end(iprof_writer *writer);

/* ------------------------------------------------------------------------ */
/* Whole model                                                              */

/** Write the whole model: begin, every element in model order, end. The
 *  version is the options' format_version, or the model's if NULL. */
IPROF_API int iprof_writer_write_model(iprof_writer *writer, const iprof_model *model);

/* ------------------------------------------------------------------------ */
/* Results                                                                  */

/** The error of the failed writer, or NULL. Owned by the writer. */
IPROF_API const iprof_error *iprof_writer_error(const iprof_writer *writer);

/** Memory sink: the bytes written so far (all of them after end()). Owned
 *  by the writer, valid until it is freed. IPROF_EINVAL for other sinks. */
IPROF_API int iprof_writer_buffer(const iprof_writer *writer, const void **data, size_t *len);

#ifdef __cplusplus
}
#endif
#endif /* IPROF_WRITER_H */
