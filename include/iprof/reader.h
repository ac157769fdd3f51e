/**
 * @file iprof/reader.h
 * @brief The streaming reader.
 *
 * The reader scans an iprof document once, without building a tree, and
 * hands every element to a callback: the version, each type, each method
 * and each profile entry, with the context already parsed into frames and
 * the records as int64. It reads from a memory buffer, a path, a file
 * descriptor or a read callback; files are read in chunks, so a file
 * larger than memory can be scanned in bounded memory.
 *
 * gzip: every input that starts with the gzip magic (1f 8b) is inflated
 * as it is read, in chunks (bounded memory, as for plain input), so
 * .iprof.gz files read like .iprof files; concatenated gzip members read
 * as one document. Positions in reports are offsets, lines and columns
 * of the decompressed document. Corrupt or truncated gzip data fails the
 * read with IPROF_ESYNTAX (the message starts "corrupt gzip data" or
 * "truncated gzip data"); a library built without zlib
 * (iprof_gzip_supported() is 0) fails gzip input with IPROF_EIO and a
 * message saying so.
 *
 * It validates as it goes (see docs/api.md, "Validation"). In lenient mode
 * (the default) rule violations that leave the data representable are
 * recorded as diagnostics and the read goes on; in strict mode the first
 * one fails the read. Malformed JSON always fails.
 *
 * Threads: a reader is used by one thread at a time (calls on one reader
 * need external synchronisation); different readers may be used from
 * different threads at once. Callbacks run on the thread that called the
 * read.
 */
#ifndef IPROF_READER_H
#define IPROF_READER_H

#include <iprof/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A reader: its options, buffers, and the error and diagnostics of its
 *  last read. Opaque; created by iprof_reader_new(), freed by
 *  iprof_reader_free(). */
typedef struct iprof_reader iprof_reader;

/* ------------------------------------------------------------------------ */
/* Options                                                                  */

/** Fail on the first rule violation instead of recording it. */
#define IPROF_READ_STRICT 0x1u
/** Do not check that referenced type and method ids exist (faster scans,
 *  no id tables). */
#define IPROF_READ_NO_REFERENCES 0x2u

/** Model loads (iprof_model_load_*) and streaming merges
 *  (iprof_model_merge_buffer() and its path and fd forms) only: build the
 *  model, or merge into it, on a second thread while the calling thread
 *  reads, so a load or merge of a large file takes about as long as a scan
 *  of it rather than the sum of both. The calling thread still runs every read
 *  callback of the source. The allocator, if one is given, must be
 *  thread-safe: both threads may call it at once. Ignored by streaming
 *  reads (iprof_reader_read_*) and on builds without threads. */
#define IPROF_READ_THREADED 0x4u

/**
 * Model loads (iprof_model_load_*) only: salvage a damaged document. When
 * the read fails on the input (IPROF_ESYNTAX: malformed or truncated JSON
 * or gzip data; IPROF_ESCHEMA, IPROF_EVERSION, IPROF_EDANGLING,
 * IPROF_ELIMIT: an element the read refuses) after the "version" was
 * accepted, the load keeps every element read completely before that
 * point (an element cut in the middle is not kept) and returns IPROF_OK
 * with that model. The damage stays reported: iprof_reader_damage() (and
 * iprof_reader_error()) give the error with its offset, line, column and
 * JSON path; iprof_reader_kept_end() where the last complete element ends.
 * Damage before the version is accepted, I/O and memory failures and a
 * callback's stop still fail the load. What was kept may refer to types
 * or methods the damage cut off (references that wait for a later section
 * are never checked): iprof_model_drop_dangling() removes those, so that
 * a strict write accepts the model. With IPROF_READ_STRICT the first rule
 * violation counts as damage too, so a salvaged model holds only what a
 * strict read accepts. Streaming reads and merges ignore the flag.
 */
#define IPROF_READ_SALVAGE 0x8u

/** The version of iprof_read_options these headers define (2 added
 *  max_diagnostics; a version 1 struct is read without it). */
#define IPROF_READ_OPTIONS_VERSION 2

/**
 * Reader options. Initialise with IPROF_READ_OPTIONS_INIT or
 * iprof_read_options_init() and then set what you need; zero fields mean
 * "default". The version field lets the struct grow compatibly.
 */
typedef struct iprof_read_options {
    unsigned int version;             /**< IPROF_READ_OPTIONS_VERSION */
    unsigned int flags;               /**< IPROF_READ_* */
    const iprof_allocator *allocator; /**< NULL: libc; copied */
    size_t chunk_size;                /**< bytes per read() from a file; 0: 256 KiB */
    size_t max_element_size;          /**< largest single element in bytes; 0: 1 GiB */
    size_t max_depth;                 /**< JSON nesting limit in skipped values; 0: none */
    /** Diagnostics kept per read (version 2); 0: 10000, SIZE_MAX: all.
     *  The rest are only counted (iprof_reader_diag_dropped()), so a file
     *  with a violation in every element cannot make a lenient read's
     *  memory grow with it. */
    size_t max_diagnostics;
} iprof_read_options;

/** Initialiser of an iprof_read_options with every default. */
#define IPROF_READ_OPTIONS_INIT {IPROF_READ_OPTIONS_VERSION, 0, NULL, 0, 0, 0, 0}

/**
 * @brief Fill reader options with the defaults of an options version.
 *
 * For FFI users who cannot use IPROF_READ_OPTIONS_INIT.
 * @param[out] opts the options to fill (caller-owned; not kept).
 * @param version IPROF_READ_OPTIONS_VERSION of the caller's headers.
 * @retval IPROF_OK @p opts is filled.
 * @retval IPROF_EINVAL @p opts is NULL or @p version unknown to this library.
 * @threadsafety Thread-safe.
 */
IPROF_API int iprof_read_options_init(iprof_read_options *opts, unsigned int version);

/* ------------------------------------------------------------------------ */
/* Callbacks                                                                */

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

/** The version of iprof_read_callbacks these headers define (2 added
 *  on_key; a version 1 struct is read without it). */
#define IPROF_READ_CALLBACKS_VERSION 2

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
    iprof_key_cb on_key;               /**< each top-level key (version 2), or NULL */
} iprof_read_callbacks;

/** Initialiser of an iprof_read_callbacks with no callback set. */
#define IPROF_READ_CALLBACKS_INIT \
    {IPROF_READ_CALLBACKS_VERSION, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL}

/** Read function of a callback source: fill up to @p capacity bytes of
 *  @p buf (owned by the reader, valid for the call), store the count in
 *  @p *len (0 means end of input) and return 0, or return non-zero on
 *  failure (the read fails with IPROF_EIO). */
typedef int (*iprof_read_fn)(void *buf, size_t capacity, size_t *len, void *payload);

/* ------------------------------------------------------------------------ */
/* Reader                                                                   */

/**
 * @brief Create a reader.
 *
 * A reader can be used for many reads, one at a time.
 * @param[out] out receives the new reader, owned by the caller (free it
 *        with iprof_reader_free()); set to NULL on failure.
 * @param opts options, or NULL for the defaults; copied (the allocator
 *        struct too), not kept.
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL @p out is NULL or @p opts has an unknown version.
 * @retval IPROF_ENOMEM allocation failed.
 * @threadsafety Thread-safe.
 */
IPROF_API int iprof_reader_new(iprof_reader **out, const iprof_read_options *opts);

/**
 * @brief Free a reader and everything it owns (its error and diagnostics).
 * @param reader the reader, or NULL (a no-op). Invalid afterwards, and so
 *        are the reports it returned.
 * @threadsafety Needs exclusive access to @p reader.
 */
IPROF_API void iprof_reader_free(iprof_reader *reader);

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
 * @threadsafety Needs exclusive access to @p reader.
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
 * @threadsafety Needs exclusive access to @p reader.
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
 * @threadsafety Needs exclusive access to @p reader.
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
 * @threadsafety Needs exclusive access to @p reader.
 */
IPROF_API int iprof_reader_read_callback(iprof_reader *reader, iprof_read_fn read_fn,
                                         void *read_payload,
                                         const iprof_read_callbacks *callbacks,
                                         void *payload);

/**
 * @brief The error of the last failed read.
 * @param reader the reader.
 * @return the report, or NULL if the last read succeeded (or none was
 *         made); after a salvaging load that returned IPROF_OK, the damage
 *         (iprof_reader_damage()). Owned by the reader: valid until its
 *         next read or its free.
 * @threadsafety Reads @p reader: not during a call that changes it.
 */
IPROF_API const iprof_error *iprof_reader_error(const iprof_reader *reader);

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
 * @threadsafety Reads @p reader: not during a call that changes it.
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
 * @threadsafety Reads @p reader: not during a call that changes it.
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
 * @threadsafety Reads @p reader: not during a call that changes it.
 */
IPROF_API size_t iprof_reader_unread_count(const iprof_reader *reader, const char **first);

/**
 * @brief The number of diagnostics of the last read.
 * @param reader the reader.
 * @return how many warnings and (lenient mode) rule violations the last
 *         read recorded; 0 for NULL.
 * @threadsafety Reads @p reader: not during a call that changes it.
 */
IPROF_API size_t iprof_reader_diag_count(const iprof_reader *reader);

/**
 * @brief A diagnostic of the last read, in input order.
 * @param reader the reader.
 * @param index 0 .. iprof_reader_diag_count() - 1.
 * @return the report, or NULL if @p index is out of range. Owned by the
 *         reader: valid until its next read or its free.
 * @threadsafety Reads @p reader: not during a call that changes it.
 */
IPROF_API const iprof_error *iprof_reader_diag(const iprof_reader *reader, size_t index);

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
 * @threadsafety Reads @p reader: not during a call that changes it.
 */
IPROF_API size_t iprof_reader_diag_dropped(const iprof_reader *reader, int severity);

/* ------------------------------------------------------------------------ */
/* 1.0: <iprof/iprof.h> */
/* What a read leaves besides its error, in one call; it replaces
 * iprof_reader_diag_count(), iprof_reader_diag_dropped(),
 * iprof_reader_unread_count(), iprof_reader_damage() and
 * iprof_reader_kept_end(), which stay until 1.0 (docs/api-1.0.md, 2.5). */

/** The version of iprof_read_result these headers define. */
#define IPROF_READ_RESULT_VERSION 1

/**
 * What the last read left besides its error, filled by
 * iprof_reader_get_result(): the values of the five accessors it replaces.
 * The pointers are the reader's, valid until its next read or its free.
 */
typedef struct iprof_read_result {
    unsigned int version;       /**< set by the caller: IPROF_READ_RESULT_VERSION */
    size_t diag_count;          /**< diagnostics kept: iprof_reader_diag(r, 0 .. diag_count-1) */
    size_t dropped_errors;      /**< diagnostics past max_diagnostics: errors */
    size_t dropped_warnings;    /**< and warnings */
    size_t unread_count;        /**< elements holding keys the read did not read */
    const char *unread_first;   /**< where the first was (types[3], key "x"), or NULL */
    const iprof_error *damage;  /**< a salvaging load's damage, or NULL */
    uint64_t kept_end;          /**< offset past the last complete element read */
} iprof_read_result;

/** Initialiser of an iprof_read_result: the version, then zeros and NULLs. */
#define IPROF_READ_RESULT_INIT {IPROF_READ_RESULT_VERSION, 0, 0, 0, 0, NULL, NULL, 0}

/**
 * @brief What the last read left besides its error, in one call.
 *
 * The diagnostics kept and dropped, the elements with keys the read does
 * not read, a salvaging load's damage and where the last complete element
 * ends; before any read, all zero and NULL. The report of the read itself
 * is iprof_reader_error().
 * @param reader the reader.
 * @param[out] out the struct to fill; its version must be set
 *        (IPROF_READ_RESULT_INIT does).
 * @retval IPROF_OK @p out is filled.
 * @retval IPROF_EINVAL @p reader or @p out is NULL, or the version of
 *         @p out is unknown to this library; @p out is unchanged.
 * @threadsafety Reads @p reader: not during a call that changes it.
 */
IPROF_API int iprof_reader_get_result(const iprof_reader *reader, iprof_read_result *out);

#ifdef __cplusplus
}
#endif
#endif /* IPROF_READER_H */
