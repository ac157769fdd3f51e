/*
 * libiprof: the streaming reader.
 *
 * The reader scans an iprof document once, without building a tree, and
 * hands every element to a callback: the version, each type, each method
 * and each profile entry, with the context already parsed into frames and
 * the records as int64. It reads from a memory buffer, a path, a file
 * descriptor or a read callback; files are read in chunks, so a file
 * larger than memory can be scanned in bounded memory.
 *
 * It validates as it goes (see docs/api.md, "Validation"). In lenient mode
 * (the default) rule violations that leave the data representable are
 * recorded as diagnostics and the read goes on; in strict mode the first
 * one fails the read. Malformed JSON always fails.
 */
#ifndef IPROF_READER_H
#define IPROF_READER_H

#include <iprof/common.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct iprof_reader iprof_reader;

/* ------------------------------------------------------------------------ */
/* Options                                                                  */

/** Fail on the first rule violation instead of recording it. */
#define IPROF_READ_STRICT 0x1u
/** Do not check that referenced type and method ids exist (faster scans,
 *  no id tables). */
#define IPROF_READ_NO_REFERENCES 0x2u

#define IPROF_READ_OPTIONS_VERSION 1

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
} iprof_read_options;

#define IPROF_READ_OPTIONS_INIT {IPROF_READ_OPTIONS_VERSION, 0, NULL, 0, 0, 0}

/** Fill @p opts with defaults for the given options version. Returns
 *  IPROF_EINVAL for an unknown version. For FFI users who cannot use the
 *  macro. */
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

/** The "version" string. */
typedef int (*iprof_version_cb)(const char *version, size_t len, void *payload);
/** One element of "types". */
typedef int (*iprof_type_cb)(int64_t id, const char *name, size_t name_len, void *payload);
/** One element of "methods"; signature[0] is the declaring type, [1] the
 *  return type, then the parameter types. */
typedef int (*iprof_method_cb)(int64_t id, const char *name, size_t name_len,
                               const int64_t *signature, size_t signature_len,
                               void *payload);
/**
 * One profile entry of @p kind (an IPROF_KIND_*). @p frames holds
 * @p frame_count (method id, bci) pairs, interleaved: frames[2*i] is the
 * method id and frames[2*i+1] the bci of frame i; frame 0 is the callee
 * (the leftmost "id:bci" of the ctx text), the last frame the outermost
 * caller.
 */
typedef int (*iprof_entry_cb)(int kind, const int64_t *frames, size_t frame_count,
                              const int64_t *records, size_t record_count,
                              void *payload);
/** A top-level key this library does not know, with the raw JSON text of
 *  its value (exactly the bytes of the input). */
typedef int (*iprof_unknown_cb)(const char *key, size_t key_len,
                                const char *json, size_t json_len, void *payload);

#define IPROF_READ_CALLBACKS_VERSION 1

/**
 * The callbacks of one read. Any of them may be NULL. Entry callbacks are
 * per kind; one function may serve several kinds as it receives the kind.
 * Initialise with IPROF_READ_CALLBACKS_INIT (or memset to 0 and set
 * version).
 */
typedef struct iprof_read_callbacks {
    unsigned int version; /**< IPROF_READ_CALLBACKS_VERSION */
    iprof_version_cb on_version;
    iprof_type_cb on_type;
    iprof_method_cb on_method;
    iprof_entry_cb on_call_count;
    iprof_entry_cb on_conditional;
    iprof_entry_cb on_virtual_invoke;
    iprof_entry_cb on_monitor;
    iprof_entry_cb on_sampling;
    iprof_entry_cb on_instanceof;
    iprof_unknown_cb on_unknown;
} iprof_read_callbacks;

#define IPROF_READ_CALLBACKS_INIT \
    {IPROF_READ_CALLBACKS_VERSION, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL}

/** Read function of a callback source: fill up to @p capacity bytes of
 *  @p buf, store the count in @p *len (0 means end of input) and return 0,
 *  or return non-zero on failure (the read fails with IPROF_EIO). */
typedef int (*iprof_read_fn)(void *buf, size_t capacity, size_t *len, void *payload);

/* ------------------------------------------------------------------------ */
/* Reader                                                                   */

/** Create a reader. @p opts may be NULL for defaults. A reader can be used
 *  for many reads, one at a time; different readers can be used from
 *  different threads at once. */
IPROF_API int iprof_reader_new(iprof_reader **out, const iprof_read_options *opts);

/** Free a reader and everything it owns (its error and diagnostics). NULL
 *  is a no-op. */
IPROF_API void iprof_reader_free(iprof_reader *reader);

/** Read a document held in memory. @p data is not copied and must stay
 *  valid during the call. @p callbacks may be NULL (validate only). */
IPROF_API int iprof_reader_read_buffer(iprof_reader *reader, const void *data, size_t len,
                                       const iprof_read_callbacks *callbacks, void *payload);

/** Read a file by path, chunk by chunk. */
IPROF_API int iprof_reader_read_path(iprof_reader *reader, const char *path,
                                     const iprof_read_callbacks *callbacks, void *payload);

/** Read from an open file descriptor up to end of file. The descriptor is
 *  not closed. */
IPROF_API int iprof_reader_read_fd(iprof_reader *reader, int fd,
                                   const iprof_read_callbacks *callbacks, void *payload);

/** Read from a user read function (see iprof_read_fn). */
IPROF_API int iprof_reader_read_callback(iprof_reader *reader, iprof_read_fn read_fn,
                                         void *read_payload,
                                         const iprof_read_callbacks *callbacks,
                                         void *payload);

/** The error of the last failed read, or NULL if the last read succeeded.
 *  Owned by the reader, valid until its next read or its free. */
IPROF_API const iprof_error *iprof_reader_error(const iprof_reader *reader);

/** Number of diagnostics (warnings and, in lenient mode, rule violations)
 *  recorded by the last read, in input order. */
IPROF_API size_t iprof_reader_diag_count(const iprof_reader *reader);

/** Diagnostic @p index of the last read, or NULL if out of range. Owned by
 *  the reader, valid until its next read or its free. */
IPROF_API const iprof_error *iprof_reader_diag(const iprof_reader *reader, size_t index);

#ifdef __cplusplus
}
#endif
#endif /* IPROF_READER_H */
