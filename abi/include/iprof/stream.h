/**
 * @file iprof/stream.h
 * @brief Advanced: reading and writing element by element, without a
 *        model.
 *
 * What a program needs it for: files larger than memory, converters and
 * filters that work as they read. The reader hands every element to a
 * callback (iprof_read_callbacks): the version, each type, each method and
 * each profile entry, with the context already parsed into frames and the
 * records as int64; the writer writes a document element by element
 * (begin; types; methods; entries; end). <iprof/iprof.h> reads a whole
 * model and writes a whole model.
 *
 * Streaming order: types, then methods, then the entry kinds in the order
 * of the target version's layout (0.4.0: monitor, virtual invoke, call
 * count, conditional, sampling; 1.x: call count, conditional, virtual
 * invoke, monitor, sampling, instanceof). Skipped sections are written
 * empty. A call out of that order fails with IPROF_ESTATE.
 *
 * Threads and ownership: as <iprof/iprof.h> says. No exceptions of its
 * own: read callbacks run on the thread that called the read, and what
 * they are given is borrowed for the call.
 */
#ifndef IPROF_STREAM_H
#define IPROF_STREAM_H

#include <iprof/iprof.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Reading element by element                                               */

/*
 * Every callback returns 0 to go on; any other value stops the read, which
 * then returns IPROF_ESTOPPED. Pointers passed to a callback are valid only
 * during that call. Names, keys and the version are UTF-8, NUL-terminated,
 * and may contain NUL bytes (from \u0000), so their length is passed too.
 * The raw JSON text given to iprof_unknown_cb is not NUL-terminated.
 */

/** Called with the "version" string (@p len bytes plus a NUL; borrowed
 *  for the call). Return 0 to go on. */
typedef int (*iprof_version_cb)(const char *version, size_t len, void *payload);

/** Called for one element of "types": its id and name (@p name_len bytes
 *  plus a NUL; borrowed for the call). Return 0 to go on. */
typedef int (*iprof_type_cb)(int64_t id, const char *name, size_t name_len, void *payload);

/** Called for one element of "methods": its id, name (@p name_len bytes
 *  plus a NUL) and @p signature_len signature type ids (signature[0] is the
 *  declaring type, [1] the return type, then the parameter types); all
 *  borrowed for the call. Return 0 to go on. */
typedef int (*iprof_method_cb)(int64_t id, const char *name, size_t name_len,
                               const int64_t *signature, size_t signature_len,
                               void *payload);

/**
 * One profile entry of @p kind (an IPROF_KIND_*). @p frames holds
 * @p frame_count (method id, bci) pairs, interleaved: frames[2*i] is the
 * method id and frames[2*i+1] the bci of frame i; frame 0 is the callee
 * (the leftmost "id:bci" of the ctx text), the last frame the outermost
 * caller. @p records holds @p record_count numbers. All borrowed for the
 * call. Return 0 to go on.
 */
typedef int (*iprof_entry_cb)(int kind, const int64_t *frames, size_t frame_count,
                              const int64_t *records, size_t record_count,
                              void *payload);

/** Called for a top-level key this library does not know (@p key_len
 *  bytes plus a NUL), with the raw JSON text of its value (exactly the
 *  @p json_len bytes of the input, not NUL-terminated); borrowed for the
 *  call. The read also records a warning diagnostic for the key (path: the
 *  key). Return 0 to go on. */
typedef int (*iprof_unknown_cb)(const char *key, size_t key_len,
                                const char *json, size_t json_len, void *payload);

/** What a top-level key is, as iprof_key_cb reports it: an IPROF_KIND_*
 *  (0 .. IPROF_KIND_COUNT - 1) for a profile section, or one of these. */
enum iprof_section {
    IPROF_SECTION_TYPES = 6,   /**< "types" */
    IPROF_SECTION_METHODS = 7, /**< "methods" */
    IPROF_SECTION_VERSION = 8, /**< "version" */
    IPROF_SECTION_UNKNOWN = 9  /**< a key this library does not know (see on_unknown) */
};

/** Called at each top-level key, in input order, before its value is read:
 *  the key as written (@p key_len bytes plus a NUL; borrowed for the call)
 *  and what it is (@p section: an IPROF_KIND_* or IPROF_SECTION_*). Both
 *  spellings of the instanceof key report IPROF_KIND_INSTANCEOF; the key
 *  says which one the file uses. Return 0 to go on. */
typedef int (*iprof_key_cb)(const char *key, size_t key_len, int section, void *payload);

/** The version of iprof_read_callbacks these headers define. */
#define IPROF_READ_CALLBACKS_VERSION 1

/**
 * The callbacks of one read. Any of them may be NULL. Entry callbacks are
 * per kind; one function may serve several kinds as it receives the kind.
 * Initialise with IPROF_READ_CALLBACKS_INIT (or memset to 0 and set
 * version).
 */
typedef struct iprof_read_callbacks {
    unsigned int version; /**< IPROF_READ_CALLBACKS_VERSION */
    iprof_version_cb on_version;       /**< the version string, or NULL */
    iprof_type_cb on_type;             /**< each type, or NULL */
    iprof_method_cb on_method;         /**< each method, or NULL */
    iprof_entry_cb on_call_count;      /**< each callCountProfiles entry, or NULL */
    iprof_entry_cb on_conditional;     /**< each conditionalProfiles entry, or NULL */
    iprof_entry_cb on_virtual_invoke;  /**< each virtualInvokeProfiles entry, or NULL */
    iprof_entry_cb on_monitor;         /**< each monitorProfiles entry, or NULL */
    iprof_entry_cb on_sampling;        /**< each samplingProfiles entry, or NULL */
    iprof_entry_cb on_instanceof;      /**< each instanceof(O)fProfiles entry, or NULL */
    iprof_unknown_cb on_unknown;       /**< each unknown top-level key, or NULL */
    iprof_key_cb on_key;               /**< each top-level key, or NULL */
} iprof_read_callbacks;

/** Initialiser of an iprof_read_callbacks with no callback set. */
#define IPROF_READ_CALLBACKS_INIT \
    {IPROF_READ_CALLBACKS_VERSION, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL}


/**
 * @brief Read a document from a source, element by element.
 *
 * Each kind reads as enum iprof_source_kind says.
 * @param reader the reader.
 * @param source where the bytes come from (borrowed for the call).
 * @param callbacks the callbacks (borrowed for the call), or NULL to
 *        validate only.
 * @param payload passed to every callback as is.
 * @retval IPROF_OK the document was read (lenient mode: diagnostics may
 *         have been recorded; see iprof_reader_get_result()).
 * @retval IPROF_ESYNTAX, IPROF_ESCHEMA, IPROF_EVERSION, IPROF_EDANGLING,
 *         IPROF_ELIMIT the document is invalid; iprof_reader_error() says
 *         where and why.
 * @retval IPROF_EIO a file that cannot be opened, a failed read or read
 *         function.
 * @retval IPROF_ESTOPPED a callback returned non-zero.
 * @retval IPROF_ENOMEM allocation failed.
 * @retval IPROF_EINVAL @p reader is NULL, @p callbacks has an unknown
 *         version, or @p source is NULL, has an unknown version or kind,
 *         or an invalid field of its kind (NULL path, negative fd, NULL
 *         read_fn, NULL data with len > 0); iprof_reader_error() says which.
 */
IPROF_API int iprof_reader_read(iprof_reader *reader, const iprof_source *source,
                                const iprof_read_callbacks *callbacks, void *payload);

/* ------------------------------------------------------------------------ */
/* Writing element by element                                               */

/**
 * @brief Start the document.
 * @param writer the writer.
 * @param format_version the target version (borrowed for the call):
 *        IPROF_FORMAT_0_2_0 (GraalVM's legacy layout: keys typeName,
 *        methodName, hotnessPoints, conditionalPoints, invokePoints,
 *        methodBciList, one monitorsProfile object; no sampling or
 *        instanceof section), _0_4_0, _1_0_0 or _1_1_0; another 0.x (x >= 3)
 *        or 1.x version is written in the layout of the nearest of those
 *        (0.4.0, 1.0.0; 1.1.0 from 1.1 on), as files of such versions are
 *        read; NULL means the options' version, or IPROF_FORMAT_LATEST if
 *        that is NULL too.
 * @retval IPROF_OK success.
 * @retval IPROF_EVERSION a version this writer cannot write.
 * @retval IPROF_ESTATE a call out of the streaming order (see above).
 * @retval IPROF_EIO the sink failed.
 * @retval IPROF_ENOMEM allocation failed.
 * @retval IPROF_EINVAL @p writer is NULL or an argument is invalid.
 * @return after a failure, every later call returns the same status;
 *         iprof_writer_error() describes it.
 */
IPROF_API int iprof_writer_begin(iprof_writer *writer, const char *format_version);

/**
 * @brief Write one type.
 * @param writer the writer.
 * @param id the type id.
 * @param name its name, @p name_len bytes of UTF-8 (borrowed for the call;
 *        may contain NUL bytes).
 * @param name_len the length of @p name.
 * @retval IPROF_OK success.
 * @retval IPROF_ESTATE a call out of the streaming order (see above).
 * @retval IPROF_EIO the sink failed.
 * @retval IPROF_ENOMEM allocation failed.
 * @retval IPROF_EINVAL @p writer is NULL or an argument is invalid (a name
 *         that is not valid UTF-8, even with IPROF_WRITE_NO_VALIDATE).
 * @return after a failure, every later call returns the same status;
 *         iprof_writer_error() describes it.
 */
IPROF_API int iprof_writer_type(iprof_writer *writer, int64_t id, const char *name,
                                size_t name_len);

/**
 * @brief Write one method.
 * @param writer the writer.
 * @param id the method id.
 * @param name its name, @p name_len bytes of UTF-8 (borrowed for the call).
 * @param name_len the length of @p name.
 * @param signature @p signature_len type ids: declaring type, return type,
 *        parameter types (borrowed for the call).
 * @param signature_len the number of ids in @p signature.
 * @retval IPROF_OK success.
 * @retval IPROF_EDANGLING a type id that was not written (checked by
 *         default; not with IPROF_WRITE_NO_REFERENCES or
 *         IPROF_WRITE_NO_VALIDATE).
 * @retval IPROF_ESTATE a call out of the streaming order (see above).
 * @retval IPROF_EIO the sink failed.
 * @retval IPROF_ENOMEM allocation failed.
 * @retval IPROF_EINVAL @p writer is NULL or an argument is invalid (a name
 *         that is not valid UTF-8, even with IPROF_WRITE_NO_VALIDATE).
 * @return after a failure, every later call returns the same status;
 *         iprof_writer_error() describes it.
 */
IPROF_API int iprof_writer_method(iprof_writer *writer, int64_t id, const char *name,
                                  size_t name_len, const int64_t *signature,
                                  size_t signature_len);

/**
 * @brief Write one profile entry.
 * @param writer the writer.
 * @param kind an IPROF_KIND_* value.
 * @param frames @p frame_count (method id, bci) pairs, interleaved, callee
 *        first (borrowed for the call).
 * @param frame_count the number of frames.
 * @param records @p record_count numbers (borrowed for the call).
 * @param record_count the number of records.
 * @retval IPROF_OK success.
 * @retval IPROF_ESCHEMA the records or the context break the kind's rules
 *         (not checked with IPROF_WRITE_NO_VALIDATE).
 * @retval IPROF_EVERSION an entry of a kind the version lacks: instanceof
 *         before 1.1.0 (dropped instead with IPROF_WRITE_DROP_INSTANCEOF),
 *         sampling in 0.2.0; or a second monitor entry in 0.2.0, whose
 *         monitorsProfile holds one.
 * @retval IPROF_EDANGLING a method or type id that was not written
 *         (checked by default; not with IPROF_WRITE_NO_REFERENCES or
 *         IPROF_WRITE_NO_VALIDATE).
 * @retval IPROF_ESTATE a call out of the streaming order (see above).
 * @retval IPROF_EIO the sink failed.
 * @retval IPROF_ENOMEM allocation failed.
 * @retval IPROF_EINVAL @p writer is NULL or an argument is invalid.
 * @return after a failure, every later call returns the same status;
 *         iprof_writer_error() describes it.
 */
IPROF_API int iprof_writer_entry(iprof_writer *writer, int kind, const int64_t *frames,
                                 size_t frame_count, const int64_t *records,
                                 size_t record_count);

/**
 * @brief Close the document and flush it; a path sink syncs and renames
 *        it into place.
 * @param writer the writer.
 * @retval IPROF_OK the document is complete.
 * @retval IPROF_ESTATE a call out of the streaming order (see above).
 * @retval IPROF_EIO the sink failed.
 * @retval IPROF_ENOMEM allocation failed.
 * @retval IPROF_EINVAL @p writer is NULL or an argument is invalid.
 * @return after a failure, every later call returns the same status;
 *         iprof_writer_error() describes it.
 */
IPROF_API int iprof_writer_end(iprof_writer *writer);

/**
 * @brief Write a top-level key this library does not interpret, with its
 *        raw JSON value, where the document is.
 *
 * The open section, if any, is closed first (sections before it that were
 * skipped are written empty), and the key follows it; right after begin it
 * follows "version". Elements of that section or earlier ones can no
 * longer be written. iprof_writer_write_model() uses this to put a model's
 * unknown keys back where the file had them.
 * @param writer the writer.
 * @param key the key, @p key_len bytes of UTF-8 (borrowed; escaped as
 *        needed). A key the library interprets ("types", a profile section
 *        in either spelling, ...) is refused with IPROF_EINVAL.
 * @param key_len its length.
 * @param json exactly one JSON value (borrowed; written byte for byte);
 *        IPROF_ESYNTAX if it is not.
 * @param json_len its length.
 * @retval IPROF_OK success.
 * @retval IPROF_ESYNTAX @p json is not one JSON value.
 * @retval IPROF_EVERSION in format 0.2.0, a key spelled like one of its
 *         sections ("hotnessPoints", ...).
 * @retval IPROF_ESTATE before begin or after end.
 * @retval IPROF_EIO the sink failed.
 * @retval IPROF_ENOMEM allocation failed.
 * @retval IPROF_EINVAL a NULL argument, a known key or a key that is not
 *         valid UTF-8.
 * @return after a failure, every later call returns the same status;
 *         iprof_writer_error() describes it.
 */
IPROF_API int iprof_writer_unknown(iprof_writer *writer, const char *key, size_t key_len,
                                   const char *json, size_t json_len);

/**
 * @brief Write bytes that are not a profile (a report, say) through the
 *        writer's sink, instead of a document.
 *
 * They land where and as a document would: a path writer's go to its
 * temporary file and are renamed into place by iprof_writer_end() (through
 * symlinks, devices and the process's descriptors written in place, as
 * IPROF_SINK_PATH says), gzip-compressed with IPROF_WRITE_GZIP or
 * a ".gz" target. The first call opens the sink (a path writer creates its
 * temporary file then, so that a target that cannot be written fails
 * here; @p len may be 0 for that); then only more raw bytes and
 * iprof_writer_end() may follow. The bytes are not checked.
 * @param writer the writer, before iprof_writer_begin().
 * @param data @p len bytes (borrowed for the call); may be NULL if @p len
 *        is 0.
 * @param len the number of bytes.
 * @retval IPROF_OK success.
 * @retval IPROF_ESTATE after iprof_writer_begin() or iprof_writer_end().
 * @retval IPROF_EIO the sink failed.
 * @retval IPROF_ENOMEM allocation failed.
 * @retval IPROF_EINVAL @p writer is NULL, or @p data is NULL with a
 *         non-zero @p len.
 * @return after a failure, every later call returns the same status;
 *         iprof_writer_error() describes it.
 */
IPROF_API int iprof_writer_raw(iprof_writer *writer, const void *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* IPROF_STREAM_H */
