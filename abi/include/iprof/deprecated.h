/**
 * @file iprof/deprecated.h
 * @brief Transitional: the 0.x functions that 1.0 replaces. Removed before
 *        1.0.0.
 *
 * Every function here goes before 1.0.0 (phase C of issue 34); what
 * replaces each is in docs/api-1.0.md, section 4 (the migration table), in
 * short:
 *   iprof_error_*                   iprof_error_get_info()
 *   iprof_gzip_supported            iprof_features() & IPROF_FEATURE_GZIP
 *   iprof_instanceof_key_name       IPROF_INSTANCEOF_KEY_LOWER_NAME, _CAMEL_NAME
 *   iprof_reader_read_*             iprof_reader_read() with an iprof_source
 *   iprof_reader_damage, _kept_end, _unread_count, _diag_count,
 *   _diag_dropped                   iprof_reader_get_result()
 *   iprof_model_load_*              iprof_model_load() with an iprof_source
 *   iprof_model_merge_buffer, _path, _fd, _callback
 *                                   iprof_model_merge_source()
 *   iprof_model_merge_with          iprof_model_merge(dst, src, opts)
 *   iprof_model_foreach_*           iprof_model_*_count() and iprof_model_*_at()
 *   iprof_model_retain_*            iprof_model_filter() with a predicate
 *   iprof_model_drop_method         iprof_model_remove_method(m, id, IPROF_REMOVE_CASCADE)
 *   iprof_model_clear_unknown       iprof_model_remove_unknown(m, NULL, 0)
 *   iprof_model_columns             iprof_model_get_columns()
 *   iprof_model_canonicalize_flags  iprof_model_canonicalize(m, flags)
 *   iprof_model_drop_dangling       iprof_model_prune(m, IPROF_PRUNE_DANGLING)
 *   iprof_writer_new_*              iprof_writer_new() with an iprof_sink
 *   iprof_diff_* but new, free, options_init and method_only_at
 *                                   iprof_diff_get_summary(), _get_kind(),
 *                                   _get_change()
 *   IPROF_WRITE_STRICT              nothing: its checks are the default
 *
 * Threads and ownership: as <iprof/iprof.h> says. Its exceptions:
 * iprof_model_columns() (exception (1) of <iprof/iprof.h>: the first call
 * for a kind allocates), and the model loads and streaming merges
 * (iprof_model_load_buffer(), iprof_model_load_path(),
 * iprof_model_load_fd(), iprof_model_load_callback(),
 * iprof_model_merge_buffer(), iprof_model_merge_path(),
 * iprof_model_merge_fd(): exception (2), IPROF_READ_THREADED).
 */
/* Included before the guard while <iprof/iprof.h> includes this header
 * (transitional, until phase C of issue 34). */
#include <iprof/iprof.h>

#ifndef IPROF_DEPRECATED_H
#define IPROF_DEPRECATED_H

#include <stddef.h>
#include <stdint.h>

#include <iprof/stream.h>
#include <iprof/edit.h>
#include <iprof/transform.h>
#include <iprof/diff.h>
#include <iprof/analysis.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Library and reports (replaced in <iprof/iprof.h>)                        */

/**
 * @brief Whether this library reads and writes gzip-compressed profiles.
 *
 * It does when built with zlib (meson option zlib, on by default). Without
 * it, gzip input fails with IPROF_EIO and gzip output (IPROF_WRITE_GZIP, a
 * ".gz" path) fails with IPROF_EIO.
 * @return 1 with gzip support, 0 without.
 */
IPROF_API int iprof_gzip_supported(void);

/**
 * @brief The JSON key of an instanceof spelling.
 * @param spelling IPROF_INSTANCEOF_KEY_LOWER or IPROF_INSTANCEOF_KEY_CAMEL.
 * @return "instanceofProfiles" or "instanceOfProfiles" (static storage),
 *         NULL for any other value.
 */
IPROF_API const char *iprof_instanceof_key_name(int spelling);

/**
 * @brief The status code of a report.
 * @param err a report (borrowed); NULL is allowed.
 * @return an IPROF_E* code; IPROF_OK for NULL.
 */
IPROF_API int iprof_error_status(const iprof_error *err);

/**
 * @brief The severity of a report.
 * @param err a report (borrowed); NULL is allowed.
 * @return an enum iprof_severity value; IPROF_SEVERITY_ERROR for NULL.
 */
IPROF_API int iprof_error_severity(const iprof_error *err);

/**
 * @brief The English message of a report.
 * @param err a report (borrowed); NULL is allowed.
 * @return the message, never NULL; "" when there is nothing to say or for
 *         NULL. Owned by the report: valid as long as the report is.
 */
IPROF_API const char *iprof_error_message(const iprof_error *err);

/**
 * @brief The JSON path of the element the report is about.
 * @param err a report (borrowed); NULL is allowed.
 * @return the path ("types[3].name"), never NULL; "" for the whole
 *         document, a report without position (but a writer's about an
 *         element), or NULL. Owned by the report: valid as long as the
 *         report is.
 */
IPROF_API const char *iprof_error_path(const iprof_error *err);

/**
 * @brief The byte offset of the report in the input.
 * @param err a report (borrowed); NULL is allowed.
 * @return the offset from 0; 0 without a position or for NULL.
 */
IPROF_API uint64_t iprof_error_offset(const iprof_error *err);

/**
 * @brief The line of the report in the input.
 * @param err a report (borrowed); NULL is allowed.
 * @return the line, from 1; 0 without a position or for NULL.
 */
IPROF_API uint64_t iprof_error_line(const iprof_error *err);

/**
 * @brief The column of the report in the input, counted in bytes.
 * @param err a report (borrowed); NULL is allowed.
 * @return the column, from 1; 0 without a position or for NULL.
 */
IPROF_API uint64_t iprof_error_column(const iprof_error *err);

/*
 * What a model operation's report is about (iprof_model_error()): the
 * profile kind, the context and the type or method id involved, as far as
 * they apply. Reports of the reader and the writer have none of them.
 */

/**
 * @brief The profile kind a report is about.
 * @param err a report (borrowed); NULL is allowed.
 * @return an IPROF_KIND_* value, or -1 when the report names no kind.
 */
IPROF_API int iprof_error_kind(const iprof_error *err);

/**
 * @brief The context a report is about, as ctx text ("5:0<3:2").
 * @param err a report (borrowed); NULL is allowed.
 * @return the text, never NULL; "" when the report names no context. Owned
 *         by the report.
 */
IPROF_API const char *iprof_error_context(const iprof_error *err);

/**
 * @brief The type id a report is about.
 * @param err a report (borrowed); NULL is allowed.
 * @param[out] id receives the id (may be NULL).
 * @retval IPROF_OK the report names a type id.
 * @retval IPROF_ENOTFOUND it names none.
 */
IPROF_API int iprof_error_type_id(const iprof_error *err, int64_t *id);

/**
 * @brief The method id a report is about.
 * @param err a report (borrowed); NULL is allowed.
 * @param[out] id receives the id (may be NULL).
 * @retval IPROF_OK the report names a method id.
 * @retval IPROF_ENOTFOUND it names none.
 */
IPROF_API int iprof_error_method_id(const iprof_error *err, int64_t *id);

/* ------------------------------------------------------------------------ */
/* Reading (replaced in <iprof/iprof.h>, <iprof/stream.h>)                  */

/**
 * @brief Read a document held in memory.
 * @param reader the reader.
 * @param data the document (borrowed: not copied, must stay valid during
 *        the call); NULL only with @p len 0.
 * @param len its length in bytes.
 * @param callbacks the callbacks (borrowed for the call), or NULL to
 *        validate only.
 * @param payload passed to every callback as is.
 * @retval IPROF_OK the document was read (lenient mode: diagnostics may
 *         have been recorded; see iprof_reader_diag_count()).
 * @retval IPROF_ESYNTAX, IPROF_ESCHEMA, IPROF_EVERSION, IPROF_EDANGLING,
 *         IPROF_ELIMIT the document is invalid; iprof_reader_error() says
 *         where and why.
 * @retval IPROF_ESTOPPED a callback returned non-zero.
 * @retval IPROF_ENOMEM allocation failed.
 * @retval IPROF_EINVAL @p reader is NULL, @p data NULL with @p len > 0, or
 *         @p callbacks has an unknown version.
 */
IPROF_API int iprof_reader_read_buffer(iprof_reader *reader, const void *data, size_t len,
                                       const iprof_read_callbacks *callbacks, void *payload);

/**
 * @brief Read a file by path, chunk by chunk (chunk_size of the options).
 * @param reader the reader.
 * @param path the file's path, UTF-8 (borrowed for the call); on Windows
 *        converted to UTF-16 for the system (docs/api.md, "Files, paths
 *        and descriptors").
 * @param callbacks the callbacks (borrowed for the call), or NULL.
 * @param payload passed to every callback as is.
 * @return as iprof_reader_read_buffer(), and IPROF_EIO when the file cannot
 *         be opened or read; IPROF_EINVAL for a NULL @p path.
 */
IPROF_API int iprof_reader_read_path(iprof_reader *reader, const char *path,
                                     const iprof_read_callbacks *callbacks, void *payload);

/**
 * @brief Read from an open file descriptor up to end of file.
 * @param reader the reader.
 * @param fd a descriptor open for reading; borrowed: not closed. On
 *        Windows a C runtime descriptor (_open, _fileno, not a HANDLE), set
 *        to binary mode (_setmode) so that no CRLF translation happens.
 * @param callbacks the callbacks (borrowed for the call), or NULL.
 * @param payload passed to every callback as is.
 * @return as iprof_reader_read_buffer(), and IPROF_EIO when reading fails;
 *         IPROF_EINVAL for a negative @p fd.
 */
IPROF_API int iprof_reader_read_fd(iprof_reader *reader, int fd,
                                   const iprof_read_callbacks *callbacks, void *payload);

/**
 * @brief Read from a user read function.
 * @param reader the reader.
 * @param read_fn the read function (see iprof_read_fn).
 * @param read_payload passed to @p read_fn as is.
 * @param callbacks the callbacks (borrowed for the call), or NULL.
 * @param payload passed to every callback as is.
 * @return as iprof_reader_read_buffer(), and IPROF_EIO when @p read_fn
 *         fails; IPROF_EINVAL for a NULL @p read_fn.
 */
IPROF_API int iprof_reader_read_callback(iprof_reader *reader, iprof_read_fn read_fn,
                                         void *read_payload,
                                         const iprof_read_callbacks *callbacks,
                                         void *payload);

/**
 * @brief The damage a salvaging load (IPROF_READ_SALVAGE) stopped at.
 *
 * After a load that returned IPROF_OK: NULL when it read the whole input,
 * else the error that ended the read (the same report as
 * iprof_reader_error()); its offset is where the damage starts, in the
 * decompressed document for gzip input.
 * @param reader the reader; NULL gives NULL.
 * @return the report, or NULL: the last read was not salvaged. Owned by
 *         the reader: valid until its next read or its free.
 */
IPROF_API const iprof_error *iprof_reader_damage(const iprof_reader *reader);

/**
 * @brief Where the last complete element of the last read ends.
 *
 * The input offset (of the decompressed document for gzip input) just
 * past the last value the last read finished: an element of a section, a
 * section's closing bracket, the version or an unknown key's value, or
 * the document's closing brace; 0 before any. After a salvaged load, the
 * bytes from here on were not kept.
 * @param reader the reader; NULL gives 0.
 * @return the offset.
 */
IPROF_API uint64_t iprof_reader_kept_end(const iprof_reader *reader);

/**
 * @brief How many elements of the last read held keys it does not read.
 *
 * Keys that no type, method or entry has (`{"id":1,"name":"A","x":2}`)
 * are not read: each such element gets a warning, and the read counts the
 * elements it handed over that had them (an element a strict or
 * salvaging read refused is not counted). Unlike the warnings, the count
 * does not stop at max_diagnostics. A model loaded or merged by the read
 * adds it to iprof_model_unread_count().
 * @param reader the reader; NULL gives 0.
 * @param[out] first receives where the first of them was, as
 *        types[3], key "x" (owned by the reader: valid until its next read
 *        or its free), or NULL when there is none; may be NULL.
 * @return the number of such elements.
 */
IPROF_API size_t iprof_reader_unread_count(const iprof_reader *reader, const char **first);

/**
 * @brief The number of diagnostics of the last read.
 * @param reader the reader.
 * @return how many warnings and (lenient mode) rule violations the last
 *         read recorded; 0 for NULL.
 */
IPROF_API size_t iprof_reader_diag_count(const iprof_reader *reader);

/**
 * @brief The diagnostics of the last read that were not kept.
 *
 * A read keeps the first max_diagnostics (iprof_read_options) and counts
 * the rest here, by severity; a file is invalid when any kept or dropped
 * one is an error.
 * @param reader the reader; NULL gives 0.
 * @param severity IPROF_SEVERITY_ERROR or IPROF_SEVERITY_WARNING, or -1
 *        for both.
 * @return how many were dropped.
 */
IPROF_API size_t iprof_reader_diag_dropped(const iprof_reader *reader, int severity);

/* ------------------------------------------------------------------------ */
/* Loading and merging (replaced in <iprof/iprof.h>)                        */

/**
 * @brief Load a model from a document in memory.
 *
 * @p reader supplies the options (strictness, allocator) and keeps the error and diagnostics of the load. On failure *out is set to NULL and nothing is allocated.
 * @param[out] out receives the model, owned by the caller; NULL on failure.
 * @param reader the reader to read with (borrowed; must outlive nothing: the model does not keep it).
 * @param data the document (borrowed for the call).
 * @param len its length in bytes.
 * @return as iprof_reader_read_buffer(); iprof_reader_error() describes a failure.
 * @threadsafety Exception (2) of <iprof/iprof.h>: with IPROF_READ_THREADED a
 *         second thread builds the model and calls its allocator during the
 *         call; needs exclusive access to @p reader.
 */
IPROF_API int iprof_model_load_buffer(iprof_model **out, iprof_reader *reader,
                                      const void *data, size_t len);

/**
 * @brief Load a model from a file; see iprof_model_load_buffer().
 * @param[out] out receives the model, owned by the caller; NULL on failure.
 * @param reader the reader to read with (borrowed).
 * @param path the file's path, UTF-8 (borrowed for the call; docs/api.md,
 *        "Files, paths and descriptors").
 * @return as iprof_reader_read_path().
 * @threadsafety Exception (2) of <iprof/iprof.h>: with IPROF_READ_THREADED a
 *         second thread builds the model and calls its allocator during the
 *         call; needs exclusive access to @p reader.
 */
IPROF_API int iprof_model_load_path(iprof_model **out, iprof_reader *reader, const char *path);

/**
 * @brief Load a model from an open file descriptor (not closed); see iprof_model_load_buffer().
 * @param[out] out receives the model, owned by the caller; NULL on failure.
 * @param reader the reader to read with (borrowed).
 * @param fd a descriptor open for reading (borrowed: not closed); on
 *        Windows a C runtime descriptor (_open, _fileno), set to binary mode.
 * @return as iprof_reader_read_fd().
 * @threadsafety Exception (2) of <iprof/iprof.h>: with IPROF_READ_THREADED a
 *         second thread builds the model and calls its allocator during the
 *         call; needs exclusive access to @p reader.
 */
IPROF_API int iprof_model_load_fd(iprof_model **out, iprof_reader *reader, int fd);

/**
 * @brief Load a model from a read function; see iprof_model_load_buffer().
 * @param[out] out receives the model, owned by the caller; NULL on failure.
 * @param reader the reader to read with (borrowed).
 * @param read_fn the read function (see iprof_read_fn).
 * @param read_payload passed to @p read_fn as is.
 * @return as iprof_reader_read_callback().
 * @threadsafety Exception (2) of <iprof/iprof.h>: with IPROF_READ_THREADED a
 *         second thread builds the model and calls its allocator during the
 *         call; needs exclusive access to @p reader.
 */
IPROF_API int iprof_model_load_callback(iprof_model **out, iprof_reader *reader,
                                        iprof_read_fn read_fn, void *read_payload);

/**
 * @brief Merge with options: iprof_model_merge() with its weight in
 *        @p opts, and what to do with unknown top-level keys.
 *
 * Unknown keys: dst keeps its own and takes those of src it lacks when
 * every one holds [], {} or a scalar, and a key that both hold has equal
 * values; otherwise the merge fails with IPROF_ESCHEMA, dst unchanged,
 * and iprof_model_error(dst) names the key. IPROF_MERGE_DROP_UNKNOWN drops
 * them all instead. The instanceof spelling: dst's, else src's; GraalVM's
 * when they disagree.
 * @param dst the model merged into.
 * @param src the model merged from (borrowed for the call; only read).
 * @param opts the options (borrowed for the call); not NULL.
 * @retval IPROF_OK, IPROF_EDANGLING, IPROF_ENOMEM as iprof_model_merge().
 * @retval IPROF_ESCHEMA unknown keys that cannot be combined, or entries
 *         whose records cannot be grouped; dst unchanged.
 * @retval IPROF_EINVAL a NULL argument, dst == src, a bad weight, an
 *         unknown options version or flag.
 * On failure iprof_model_error(dst) says why.
 */
IPROF_API int iprof_model_merge_with(iprof_model *dst, const iprof_model *src,
                                     const iprof_merge_options *opts);

/**
 * @brief Merge a profile read from a buffer into @p dst without loading it
 *        as a model first.
 *
 * What iprof_model_merge_with() does with a loaded model, done as the
 * reader goes: each batch of types, methods and entries the reader
 * delivers is remapped to dst's ids and combined into dst at once, so
 * memory grows with dst and a few batches, not with the input. With
 * IPROF_READ_THREADED in the reader's flags, reading and merging run on
 * two threads. The result equals loading the input and merging the model
 * (the same dst, element for element), except that entries whose types or
 * methods the input defines only after them are merged at its end.
 *
 * The reader's options apply as for a load (strict or lenient, references
 * checked or not, limits); a merge refuses what iprof_model_merge() refuses
 * in any case: references that do not resolve within the input, entries
 * that break the format's rules, unknown keys that cannot be combined.
 *
 * All or nothing: on any failure, including running out of memory, dst
 * holds what it held before (element for element; memory it took for the
 * failed merge stays with it until it is freed).
 *
 * @param dst the model merged into.
 * @param reader the reader to read with (borrowed for the call).
 * @param data the profile's bytes (borrowed for the call; gzip-compressed
 *        when the library has zlib).
 * @param len bytes of @p data.
 * @param opts the merge options (borrowed), or NULL for the defaults
 *        (weight 1, IPROF_MERGE_OPTIONS_INIT).
 * @retval IPROF_OK success.
 * @retval IPROF_ESYNTAX and the reader's other statuses: the input could
 *         not be read; iprof_reader_error(reader) says where.
 * @retval IPROF_EDANGLING, IPROF_ESCHEMA, IPROF_ELIMIT, IPROF_ENOMEM: as
 *         iprof_model_merge_with().
 * @retval IPROF_EINVAL a NULL @p dst or @p reader, bad options.
 * On every failure iprof_model_error(dst) says why. A failure of the read
 * is reported by the reader as for a load, with the same status, and
 * copied into dst's error (message, offset, line, column, JSON path); when
 * merging failed instead, the reader reports IPROF_ESTOPPED with the
 * merge's message.
 * @threadsafety Exception (2) of <iprof/iprof.h>: with IPROF_READ_THREADED a
 *         second thread merges into @p dst and calls its allocator during the
 *         call; needs exclusive access to @p dst and @p reader.
 */
IPROF_API int iprof_model_merge_buffer(iprof_model *dst, iprof_reader *reader, const void *data,
                                       size_t len, const iprof_merge_options *opts);

/**
 * @brief Merge a profile file into @p dst as it is read; see
 *        iprof_model_merge_buffer().
 * @param dst the model merged into.
 * @param reader the reader to read with (borrowed for the call).
 * @param path the file's path, UTF-8 (borrowed for the call; docs/api.md,
 *        "Files, paths and descriptors").
 * @param opts the merge options, or NULL for the defaults.
 * @return as iprof_model_merge_buffer() and iprof_reader_read_path().
 * @threadsafety Exception (2) of <iprof/iprof.h>: with IPROF_READ_THREADED a
 *         second thread merges into @p dst and calls its allocator during the
 *         call; needs exclusive access to @p dst and @p reader.
 */
IPROF_API int iprof_model_merge_path(iprof_model *dst, iprof_reader *reader, const char *path,
                                     const iprof_merge_options *opts);

/**
 * @brief Merge a profile read from a file descriptor (not closed) into
 *        @p dst; see iprof_model_merge_buffer().
 * @param dst the model merged into.
 * @param reader the reader to read with (borrowed for the call).
 * @param fd a descriptor open for reading (borrowed: not closed); on
 *        Windows a C runtime descriptor (_open, _fileno), set to binary mode.
 * @param opts the merge options, or NULL for the defaults.
 * @return as iprof_model_merge_buffer() and iprof_reader_read_fd().
 * @threadsafety Exception (2) of <iprof/iprof.h>: with IPROF_READ_THREADED a
 *         second thread merges into @p dst and calls its allocator during the
 *         call; needs exclusive access to @p dst and @p reader.
 */
IPROF_API int iprof_model_merge_fd(iprof_model *dst, iprof_reader *reader, int fd,
                                   const iprof_merge_options *opts);

/**
 * @brief Merge a profile delivered by a read function into @p dst; see
 *        iprof_model_merge_buffer().
 * @param dst the model merged into.
 * @param reader the reader to read with (borrowed for the call).
 * @param read_fn the read function (see iprof_read_fn).
 * @param read_payload passed to @p read_fn as is.
 * @param opts the merge options, or NULL for the defaults.
 * @return as iprof_model_merge_buffer() and iprof_reader_read_callback().
 */
IPROF_API int iprof_model_merge_callback(iprof_model *dst, iprof_reader *reader,
                                         iprof_read_fn read_fn, void *read_payload,
                                         const iprof_merge_options *opts);

/* ------------------------------------------------------------------------ */
/* Iteration by callback                                                    */

/* Callbacks return 0 to go on, anything else to stop (the call then returns
 * IPROF_ESTOPPED). The model must not be changed from inside them. */
/** Called with a type of the model (borrowed) by iprof_model_foreach_type():
 *  return 0 to go on, non-zero to stop. */
typedef int (*iprof_model_type_cb)(const iprof_type *type, void *payload);

/** Called with a method of the model (borrowed) by
 *  iprof_model_foreach_method(): return 0 to go on, non-zero to stop. */
typedef int (*iprof_model_method_cb)(const iprof_method *method, void *payload);

/** Called with an entry of the model (borrowed) by
 *  iprof_model_foreach_entry(): return 0 to go on, non-zero to stop. */
typedef int (*iprof_model_entry_cb)(const iprof_entry *entry, void *payload);

/**
 * @brief Call @p cb for every type, in file order.
 * @param model the model (borrowed).
 * @param cb the callback; it must not change the model.
 * @param payload passed to @p cb as is.
 * @retval IPROF_OK every type was visited.
 * @retval IPROF_ESTOPPED @p cb returned non-zero.
 * @retval IPROF_EINVAL a NULL argument.
 */
IPROF_API int iprof_model_foreach_type(const iprof_model *model, iprof_model_type_cb cb,
                                       void *payload);

/**
 * @brief Call @p cb for every method, in file order.
 * @param model the model (borrowed).
 * @param cb the callback; it must not change the model.
 * @param payload passed to @p cb as is.
 * @retval IPROF_OK every method was visited.
 * @retval IPROF_ESTOPPED @p cb returned non-zero.
 * @retval IPROF_EINVAL a NULL argument.
 */
IPROF_API int iprof_model_foreach_method(const iprof_model *model, iprof_model_method_cb cb,
                                         void *payload);

/**
 * @brief Call @p cb for every entry of a kind, in file order.
 * @param model the model (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @param cb the callback; it must not change the model.
 * @param payload passed to @p cb as is.
 * @retval IPROF_OK every entry was visited.
 * @retval IPROF_ESTOPPED @p cb returned non-zero.
 * @retval IPROF_EINVAL a NULL argument or an invalid kind.
 */
IPROF_API int iprof_model_foreach_entry(const iprof_model *model, int kind,
                                        iprof_model_entry_cb cb, void *payload);

/* ------------------------------------------------------------------------ */
/* Editing (replaced in <iprof/edit.h>, <iprof/transform.h>)                */

/**
 * @brief Keep only the entries of a kind for which @p keep returns non-zero, in one O(n) pass.
 *
 * iprof_model_filter() with a @c keep_entry that passes the other kinds
 * does the same, and replaces this call in 1.0.
 * @param model the model.
 * @param kind an IPROF_KIND_* value.
 * @param keep the predicate; it must not change the model.
 * @param payload passed to @p keep as is.
 * @retval IPROF_OK success; entry pointers of @p kind are invalid afterwards.
 * @retval IPROF_EINVAL a NULL argument or an invalid kind.
 */
IPROF_API int iprof_model_retain_entries(iprof_model *model, int kind,
                                         iprof_model_entry_pred keep, void *payload);

/**
 * @brief Keep only the entries every frame of whose context passes
 *        @p keep: an entry that mentions a refused frame anywhere, as the
 *        callee or as a caller, goes.
 *
 * Monitor entries show their dummy frame (0, 0). With every kind, this is
 * iprof_model_filter() with @c keep_frame, which replaces it in 1.0.
 * @param model the model.
 * @param kind an IPROF_KIND_* value, or -1 for every kind.
 * @param keep the predicate; it must not change the model.
 * @param payload passed to @p keep as is.
 * @retval IPROF_OK success; entry pointers of changed kinds are invalid
 *         afterwards.
 * @retval IPROF_EINVAL a NULL argument or a bad kind.
 */
IPROF_API int iprof_model_retain_entries_by_frame(iprof_model *model, int kind,
                                                  iprof_frame_pred keep, void *payload);

/**
 * @brief Remove a method and every entry, of any kind, whose context
 *        mentions it in any frame.
 *
 * Unlike iprof_model_remove_method(), which leaves the entries that refer
 * to the method dangling, this leaves nothing that names it (but for
 * unknown top-level keys, which the library cannot read). In 1.0 it is
 * iprof_model_remove_method() with IPROF_REMOVE_CASCADE.
 * @param model the model.
 * @param id the method id.
 * @retval IPROF_OK success; pointers to the method and entry pointers are
 *         invalid afterwards.
 * @retval IPROF_ENOTFOUND no method has this id; unchanged.
 * @retval IPROF_EINVAL @p model is NULL.
 */
IPROF_API int iprof_model_drop_method(iprof_model *model, int64_t id);

/**
 * @brief Keep only the methods for which @p keep returns non-zero
 *        (iprof_model_filter()'s @c keep_method, which replaces it in 1.0).
 * @param model the model.
 * @param keep the predicate; it must not change the model.
 * @param payload passed to @p keep as is.
 * @retval IPROF_OK success; removed methods must not be used afterwards.
 * @retval IPROF_EINVAL a NULL argument.
 * @retval IPROF_ENOMEM allocation failed.
 */
IPROF_API int iprof_model_retain_methods(iprof_model *model, iprof_model_method_pred keep,
                                         void *payload);

/**
 * @brief Keep only the types for which @p keep returns non-zero
 *        (iprof_model_filter()'s @c keep_type, which replaces it in 1.0).
 * @param model the model.
 * @param keep the predicate; it must not change the model.
 * @param payload passed to @p keep as is.
 * @retval IPROF_OK success; removed types must not be used afterwards.
 * @retval IPROF_EINVAL a NULL argument.
 * @retval IPROF_ENOMEM allocation failed.
 */
IPROF_API int iprof_model_retain_types(iprof_model *model, iprof_model_type_pred keep,
                                       void *payload);

/**
 * @brief Remove every unknown top-level key: iprof_model_remove_unknown()
 *        with a NULL key, which replaces this call in 1.0 (this one leaves
 *        the model's error as it was).
 * @param model the model, or NULL (a no-op).
 */
IPROF_API void iprof_model_clear_unknown(iprof_model *model);

/**
 * @brief iprof_model_canonicalize() with flags (IPROF_CANONICAL_*).
 *
 * Unknown top-level keys: ids inside their values cannot be renumbered, so
 * a key holding anything but [], {} or a scalar fails the call with
 * IPROF_ESCHEMA (model unchanged; iprof_model_error() names the key)
 * unless IPROF_CANONICAL_DROP_UNKNOWN. Kept keys go after every section,
 * sorted by key, one per key.
 * @param model the model.
 * @param flags IPROF_CANONICAL_* flags, or 0.
 * @retval IPROF_EINVAL a NULL model or an unknown flag.
 * @return otherwise as iprof_model_canonicalize(); iprof_model_error()
 *         says why it failed.
 */
IPROF_API int iprof_model_canonicalize_flags(iprof_model *model, unsigned int flags);

/**
 * @brief Remove what refers to types or methods the model does not define:
 *        methods whose signature names an undefined type, then entries
 *        whose context names an undefined method (monitor entries' dummy
 *        frame excepted) or whose records name an undefined type.
 *
 * What a salvaging load (IPROF_READ_SALVAGE) kept of a damaged file may
 * refer to what the damage cut off; afterwards no reference dangles. The
 * order of what remains is kept.
 * @param model the model.
 * @param[out] methods receives how many methods went, or NULL.
 * @param[out] entries receives how many entries of each kind went
 *        (indexed by IPROF_KIND_*), or NULL.
 * @retval IPROF_OK success; pointers to removed methods, and entry
 *         pointers of changed kinds, are invalid afterwards.
 * @retval IPROF_EINVAL @p model is NULL.
 * @retval IPROF_ENOMEM allocation failed (the model may be partly
 *         cleaned, still consistent; the counts are then partial).
 */
IPROF_API int iprof_model_drop_dangling(iprof_model *model, size_t *methods,
                                        size_t entries[IPROF_KIND_COUNT]);

/* ------------------------------------------------------------------------ */
/* Columns (replaced in <iprof/analysis.h>)                                 */

/**
 * @brief The 0.x name of iprof_model_get_columns() (see there), which it
 *        calls; it goes in 1.0.
 * @param model the model (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @param[in,out] out its version set by the caller; receives the columns.
 * @return as iprof_model_get_columns().
 * @threadsafety Exception (1) of <iprof/iprof.h>: as iprof_model_get_columns().
 */
IPROF_API int iprof_model_columns(const iprof_model *model, int kind, iprof_columns *out);

/* ------------------------------------------------------------------------ */
/* Writing (replaced in <iprof/iprof.h>)                                    */

/** Check what a strict read checks beyond the entry rules: every
 *  referenced method and type id was written (IPROF_EDANGLING otherwise),
 *  ids are unique and signatures hold at least the declaring and return
 *  types (IPROF_ESCHEMA otherwise). This is the default now (a writer does
 *  not produce what a strict read refuses); the flag stays for source
 *  compatibility and overrides IPROF_WRITE_NO_REFERENCES. */
#define IPROF_WRITE_STRICT 0x4u

/**
 * @brief Create a writer to a path, atomically: iprof_writer_new() with
 *        an IPROF_SINK_PATH sink, which says how the file is replaced
 *        (symlinks, devices, descriptor paths, ".gz").
 * @param[out] out receives the writer, owned by the caller (free it with
 *        iprof_writer_free()); NULL on failure.
 * @param path the target, UTF-8 (copied); on Windows converted to UTF-16
 *        for the system (docs/api.md, "Files, paths and descriptors").
 * @param opts options, or NULL for the defaults; copied (the allocator
 *        struct too; format_version must stay valid until begin or
 *        write_model), not kept.
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL a NULL argument or an unknown options version.
 * @retval IPROF_ENOMEM allocation failed.
 */
IPROF_API int iprof_writer_new_path(iprof_writer **out, const char *path,
                                    const iprof_write_options *opts);

/**
 * @brief Create a writer to an open file descriptor.
 * @param[out] out receives the writer, owned by the caller; NULL on failure.
 * @param fd a descriptor open for writing (on Windows a C runtime
 *        descriptor, set to binary mode); borrowed: not closed, not
 *        synced; must stay open until the writer is freed.
 * @param opts options, or NULL for the defaults; copied (the allocator
 *        struct too; format_version must stay valid until begin or
 *        write_model), not kept.
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL a NULL argument or an unknown options version.
 * @retval IPROF_ENOMEM allocation failed.
 */
IPROF_API int iprof_writer_new_fd(iprof_writer **out, int fd, const iprof_write_options *opts);

/**
 * @brief Create a writer into memory; get the bytes with iprof_writer_buffer().
 * @param[out] out receives the writer, owned by the caller; NULL on failure.
 * @param opts options, or NULL for the defaults; copied (the allocator
 *        struct too; format_version must stay valid until begin or
 *        write_model), not kept.
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL a NULL argument or an unknown options version.
 * @retval IPROF_ENOMEM allocation failed.
 */
IPROF_API int iprof_writer_new_buffer(iprof_writer **out, const iprof_write_options *opts);

/**
 * @brief Create a writer through a write function.
 * @param[out] out receives the writer, owned by the caller; NULL on failure.
 * @param write_fn the write function (see iprof_write_fn), called from the
 *        writer's calls.
 * @param write_payload passed to @p write_fn as is.
 * @param opts options, or NULL for the defaults; copied (the allocator
 *        struct too; format_version must stay valid until begin or
 *        write_model), not kept.
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL a NULL argument or an unknown options version.
 * @retval IPROF_ENOMEM allocation failed.
 */
IPROF_API int iprof_writer_new_callback(iprof_writer **out, iprof_write_fn write_fn,
                                        void *write_payload, const iprof_write_options *opts);

/* ------------------------------------------------------------------------ */
/* Diff results (replaced in <iprof/diff.h>)                                */

/**
 * @brief The number of methods of one side whose key the other side lacks.
 * @param diff the result (borrowed).
 * @param side IPROF_DIFF_A or IPROF_DIFF_B.
 * @return the count; 0 for an invalid side.
 */
IPROF_API size_t iprof_diff_method_only_count(const iprof_diff *diff, int side);

/**
 * @brief The number of methods of one side whose key the other side has.
 *
 * Methods of a side are counted one by one, so with duplicate keys the
 * counts of the two sides may differ.
 * @param diff the result (borrowed).
 * @param side IPROF_DIFF_A or IPROF_DIFF_B.
 * @return the count; 0 for an invalid side.
 */
IPROF_API size_t iprof_diff_method_common_count(const iprof_diff *diff, int side);

/**
 * @brief The number of entries of a kind of one side whose context the
 *        other side has no entry of that kind for.
 * @param diff the result (borrowed).
 * @param side IPROF_DIFF_A or IPROF_DIFF_B.
 * @param kind an IPROF_KIND_* value.
 * @return the count; 0 for an invalid side or kind.
 */
IPROF_API size_t iprof_diff_context_only_count(const iprof_diff *diff, int side, int kind);

/**
 * @brief The number of entries of a kind of one side whose context the
 *        other side also has an entry of that kind for.
 * @param diff the result (borrowed).
 * @param side IPROF_DIFF_A or IPROF_DIFF_B.
 * @param kind an IPROF_KIND_* value.
 * @return the count; 0 for an invalid side or kind.
 */
IPROF_API size_t iprof_diff_context_common_count(const iprof_diff *diff, int side, int kind);

/**
 * @brief total(side, kind): the count mass of one side's entries of a kind.
 * @param diff the result (borrowed).
 * @param side IPROF_DIFF_A or IPROF_DIFF_B.
 * @param kind an IPROF_KIND_* value.
 * @return the sum of the entry counts (saturating); 0 for an invalid side or kind.
 */
IPROF_API uint64_t iprof_diff_total(const iprof_diff *diff, int side, int kind);

/**
 * @brief common_total(side, kind): the count mass of one side's entries of
 *        a kind whose context the other side also has.
 * @param diff the result (borrowed).
 * @param side IPROF_DIFF_A or IPROF_DIFF_B.
 * @param kind an IPROF_KIND_* value.
 * @return the sum of those entry counts (saturating); 0 for an invalid side or kind.
 */
IPROF_API uint64_t iprof_diff_common_total(const iprof_diff *diff, int side, int kind);

/**
 * @brief overlap(side, kind): the share of one side's count mass of a kind
 *        that sits on contexts the other side also has.
 * @param diff the result (borrowed).
 * @param side IPROF_DIFF_A or IPROF_DIFF_B.
 * @param kind an IPROF_KIND_* value.
 * @return common_total / total, in 0 .. 1; -1.0 when total is 0 (no count
 *         mass: the share is undefined) or for an invalid side or kind.
 */
IPROF_API double iprof_diff_overlap(const iprof_diff *diff, int side, int kind);

/**
 * @brief The number of changed entries kept for a kind.
 * @param diff the result (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @return at most iprof_diff_options::top; 0 for an invalid kind.
 */
IPROF_API size_t iprof_diff_change_count(const iprof_diff *diff, int kind);

/**
 * @brief The entry of one side of a changed entry.
 * @param diff the result (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @param index 0 .. iprof_diff_change_count() - 1, biggest |delta| first.
 * @param side IPROF_DIFF_A or IPROF_DIFF_B.
 * @return the entry, owned by that side's model; NULL when that side has
 *         no entry with this context or an argument is out of range.
 */
IPROF_API const iprof_entry *iprof_diff_change_entry(const iprof_diff *diff, int kind,
                                                     size_t index, int side);

/**
 * @brief The count of one side of a changed entry.
 * @param diff the result (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @param index 0 .. iprof_diff_change_count() - 1.
 * @param side IPROF_DIFF_A or IPROF_DIFF_B.
 * @return the entry's count on that side (see the file comment); 0 when
 *         that side lacks the entry or an argument is out of range.
 */
IPROF_API uint64_t iprof_diff_change_value(const iprof_diff *diff, int kind, size_t index,
                                           int side);

/**
 * @brief share(side, e): the normalised count of one side of a changed entry.
 * @param diff the result (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @param index 0 .. iprof_diff_change_count() - 1.
 * @param side IPROF_DIFF_A or IPROF_DIFF_B.
 * @return count / total(side, kind), in 0 .. 1; 0 when that side lacks the
 *         entry or an argument is out of range.
 */
IPROF_API double iprof_diff_change_share(const iprof_diff *diff, int kind, size_t index,
                                         int side);

/**
 * @brief delta(e) = share(B, e) - share(A, e) of a changed entry.
 * @param diff the result (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @param index 0 .. iprof_diff_change_count() - 1.
 * @return the difference, in -1 .. 1, never 0 for a kept change; 0 when
 *         an argument is out of range.
 */
IPROF_API double iprof_diff_change_delta(const iprof_diff *diff, int kind, size_t index);

/**
 * @brief relative(e) = delta(e) / share(A, e) of a changed entry.
 * @param diff the result (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @param index 0 .. iprof_diff_change_count() - 1.
 * @return the relative change (-1 when B lacks the entry); INFINITY when
 *         share(A, e) is 0 (A lacks the entry or its count is 0); 0 when
 *         an argument is out of range.
 */
IPROF_API double iprof_diff_change_relative(const iprof_diff *diff, int kind, size_t index);

/**
 * @brief A readable text of the context of a changed entry
 *        ("Fib.fibonacci:11 < Fib.main:9"), as iprof_model_context_describe()
 *        prints it from model A, or from model B when A lacks the entry.
 * @param diff the result (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @param index 0 .. iprof_diff_change_count() - 1.
 * @param[out] buf receives the text, NUL-terminated and truncated to
 *        @p size bytes (caller-owned; may be NULL if @p size is 0).
 * @param size the size of @p buf.
 * @return the full length of the text (snprintf convention); 0 (and an
 *         empty @p buf) when an argument is out of range.
 */
IPROF_API size_t iprof_diff_change_describe(const iprof_diff *diff, int kind, size_t index,
                                            char *buf, size_t size);

/**
 * @brief How far B's hot behaviour moved from A's: the staleness score
 *        defined in the file comment.
 *
 * A CI gate compares the profile it is about to use (A) with one of the
 * current build (B) and fails above a threshold (`iprof diff
 * --fail-above X A B`).
 * @param diff the result (borrowed).
 * @return the score in 0 .. 1 (0: the same probabilities, shares and
 *         hotness; 1: nothing in common); -1.0 for a NULL @p diff.
 */
IPROF_API double iprof_diff_staleness(const iprof_diff *diff);

/**
 * @brief staleness(K): the part of the staleness score of one kind.
 * @param diff the result (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @return the kind's score in 0 .. 1; -1.0 when neither side has count
 *         mass of @p kind (the kind does not count in
 *         iprof_diff_staleness()) or for an invalid kind.
 */
IPROF_API double iprof_diff_staleness_kind(const iprof_diff *diff, int kind);

#ifdef __cplusplus
}
#endif

#endif /* IPROF_DEPRECATED_H */
