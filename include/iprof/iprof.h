/**
 * @file iprof/iprof.h
 * @brief libiprof, the core: read a GraalVM Native Image PGO profile
 * (.iprof files, format versions 0.2.0, 0.4.0, 1.0.0 and 1.1.0), look at
 * it, merge profiles and write one.
 *
 * This header is what a program needs to read, look at, merge and write
 * profiles. The advanced layer sits in five headers, each including this
 * one and each saying what a program needs it for:
 *   <iprof/stream.h>     reading and writing element by element
 *   <iprof/edit.h>       changing a model element by element
 *   <iprof/transform.h>  the canonical form, filtering and pruning
 *   <iprof/diff.h>       comparing two profiles, staleness
 *   <iprof/analysis.h>   what the compiler is told; bulk views
 * A program includes the ones it uses; this header includes none of them.
 *
 * Conventions: functions are iprof_<object>_<verb>; a handle a function
 * creates comes back through its first parameter
 * (iprof_reader_new(&reader, opts)), every other out parameter (a length,
 * a count, an id, a caller's array or buffer and its size) comes after the
 * inputs (iprof_entry_records(entry, &len)); handles are opaque and
 * created and freed by the library; callbacks take a trailing
 * void *payload; fallible calls return an int status (IPROF_OK or a
 * negative IPROF_E* code).
 *
 * Threads. The library has no global state and no locks. A function that
 * takes a handle as const only reads it: any number of threads may make
 * such calls on one handle at once, while no thread is in a call that
 * takes it non-const, which needs exclusive access. Elements (types,
 * methods, contexts, entries) and reports belong to the handle they came
 * from and count as it. Different handles are independent; functions
 * without a handle are thread-safe. Callbacks run on the calling thread
 * and must not change the handle that calls them. Exceptions, and the
 * only functions whose documentation has a "Thread safety" paragraph:
 * (1) the first lookup by name, key or context
 * (iprof_model_type_by_name(), iprof_model_method_find(),
 * iprof_model_entry_find(), and iprof_diff_new(), which looks up B's
 * entries), the first iprof_model_get_columns() of a kind and
 * iprof_model_method_totals() allocate through the model's allocator from
 * a const call, so a model read by several threads needs a thread-safe
 * allocator (libc's is) unless iprof_model_build_indexes() ran first (then
 * only columns and method totals allocate); (2) IPROF_READ_THREADED,
 * IPROF_MERGE_THREADED and IPROF_WRITE_THREADED run a second thread inside
 * the call (model loads and merges: iprof_model_load(), iprof_model_merge(),
 * iprof_model_merge_source(); canonical writes of a model:
 * iprof_writer_write_model()), and a load's or merge's second thread calls
 * the allocator.
 *
 * Ownership. A handle a function creates comes back through its first
 * parameter and belongs to the caller, who frees it with its *_free
 * (which accepts NULL). Every other pointer the library returns is
 * borrowed from the handle it came from: types, methods and contexts until
 * the model is freed or canonicalized or the element removed; entries,
 * their records and a kind's columns until the entries of that kind
 * change; names and signatures as their element; a reader's reports and
 * results until its next read or its free; a model's report until its
 * next reporting operation, its unread and unknown-key texts until it is
 * freed or the key removed; a writer's report and buffer until it is freed
 * (the buffer: or writes more). Pointers passed in are borrowed for the
 * call. Exceptions: kept beyond the call are a writer's file descriptor
 * (until iprof_writer_free()), iprof_write_options.format_version (until
 * begin or write_model) and a diff's two models (until iprof_diff_free(),
 * unchanged); copied are allocators, options, a writer's path, and the
 * names, signatures, records, keys and JSON given to the add_* and set_*
 * functions.
 */
#ifndef IPROF_IPROF_H
#define IPROF_IPROF_H

#include <stddef.h>
#include <stdint.h>

#include <iprof/version.h>

#ifdef __cplusplus
extern "C" {
#endif

/** IPROF_API marks every exported symbol. The library is built with hidden
 *  default visibility, so only what carries this macro is exported. On
 *  Windows the DLL's export list (iprof.def, made from libiprof.map) says
 *  the same and callers link through the import library, so the macro is
 *  empty there. */
#if defined(IPROF_BUILDING) && defined(__GNUC__) && !defined(_WIN32)
#define IPROF_API __attribute__((visibility("default")))
#else
#define IPROF_API
#endif

/* ------------------------------------------------------------------------ */
/* Status and version                                                       */

/**
 * Status codes. Every fallible call returns one: IPROF_OK (0) on success,
 * a negative value on failure. They are plain ints so that any FFI can
 * mirror them; existing values never change (docs/abi.md).
 */
enum iprof_status {
    IPROF_OK = 0,         /**< success */
    IPROF_ENOMEM = -1,    /**< an allocation failed */
    IPROF_EIO = -2,       /**< reading or writing the file, fd or callback failed */
    IPROF_ESYNTAX = -3,   /**< the input is not well-formed JSON */
    IPROF_ESCHEMA = -4,   /**< the JSON does not follow the iprof schema or its rules */
    IPROF_EVERSION = -5,  /**< unsupported or mismatched format version */
    IPROF_EDANGLING = -6, /**< a method or type id is referenced but not defined */
    IPROF_ELIMIT = -7,    /**< a value exceeds a limit (int64 range, size limits) */
    IPROF_EINVAL = -8,    /**< invalid argument */
    IPROF_ESTOPPED = -9,  /**< a callback asked to stop */
    IPROF_ESTATE = -10,   /**< call out of order (for example a writer after end) */
    IPROF_ENOTFOUND = -11 /**< the requested element does not exist */
};

/**
 * @brief A short English description of a status code ("out of memory", ...).
 * @param status an IPROF_* status code; any int is accepted.
 * @return the description, never NULL; "unknown status" for a code that is
 *         not an enum iprof_status value. Static storage: never free it.
 */
IPROF_API const char *iprof_status_string(int status);

/**
 * @brief The version of the library running, "MAJOR.MINOR.PATCH".
 *
 * Compare with IPROF_VERSION_STRING (the headers compiled against) to
 * detect a header/library mismatch.
 * @return the version string, static storage: never free it.
 */
IPROF_API const char *iprof_version_string(void);

/* What this build can do, and the instanceof key's two spellings. */

/** iprof_features(): gzip input and output (a build with zlib, meson
 *  option zlib). */
#define IPROF_FEATURE_GZIP 0x1u
/** iprof_features(): IPROF_READ_THREADED and IPROF_WRITE_THREADED use a
 *  second thread (a build with POSIX threads); without it they are
 *  accepted and the work runs on the calling thread. */
#define IPROF_FEATURE_THREADS 0x2u

/**
 * @brief What this build of the library can do.
 *
 * A binding that offers gzip or a threaded flag asks here whether it does
 * anything; bits this library does not know are never set.
 * @return the IPROF_FEATURE_* bits of this build.
 */
IPROF_API unsigned int iprof_features(void);

/** The document's and the schema's spelling of the instanceof key
 *  (IPROF_INSTANCEOF_KEY_LOWER); iprof_kind_name(IPROF_KIND_INSTANCEOF)
 *  returns it too. */
#define IPROF_INSTANCEOF_KEY_LOWER_NAME "instanceofProfiles"
/** GraalVM's spelling of the instanceof key (IPROF_INSTANCEOF_KEY_CAMEL). */
#define IPROF_INSTANCEOF_KEY_CAMEL_NAME "instanceOfProfiles"

/* ------------------------------------------------------------------------ */
/* Format versions                                                          */

/** File-format version 0.2.0, GraalVM's legacy layout of 2022 (keys
 *  typeName, methodName, hotnessPoints, conditionalPoints, invokePoints,
 *  monitorsProfile): read into the 1.x model and written back in its own
 *  layout; no sampling or instanceof profiles. */
#define IPROF_FORMAT_0_2_0 "0.2.0"

/** File-format version 0.4.0: the structure of 1.0.0 with another
 *  top-level key order. */
#define IPROF_FORMAT_0_4_0 "0.4.0"

/** File-format version 1.0.0. */
#define IPROF_FORMAT_1_0_0 "1.0.0"

/** File-format version 1.1.0: 1.0.0 plus instanceofProfiles. */
#define IPROF_FORMAT_1_1_0 "1.1.0"

/** The newest format version this library knows (it may change in a
 *  later release). */
#define IPROF_FORMAT_LATEST IPROF_FORMAT_1_1_0

/* ------------------------------------------------------------------------ */
/* Profile kinds                                                            */

/** The six kinds of profile entries, in a fixed numbering used by every
 *  entry callback and model accessor (they are passed as int). */
enum iprof_kind {
    IPROF_KIND_CALL_COUNT = 0,     /**< callCountProfiles: [count] */
    IPROF_KIND_CONDITIONAL = 1,    /**< conditionalProfiles: [bci, index, count]* */
    IPROF_KIND_VIRTUAL_INVOKE = 2, /**< virtualInvokeProfiles: [type id, count]* */
    IPROF_KIND_MONITOR = 3,        /**< monitorProfiles: ctx "0:0", [type id, count]* */
    IPROF_KIND_SAMPLING = 4,       /**< samplingProfiles: [count] */
    IPROF_KIND_INSTANCEOF = 5      /**< instanceofProfiles or instanceOfProfiles (1.1.0): [type id, count]* */
};

/** Number of profile kinds; kinds are 0 .. IPROF_KIND_COUNT - 1. */
#define IPROF_KIND_COUNT 6

/**
 * The two spellings of the instanceof section's key. The published
 * document and schema say "instanceofProfiles"; GraalVM 25 writes and
 * reads "instanceOfProfiles" (capital O). The reader takes either (both in
 * one file is an error); a model remembers which one it read, and the
 * writer's iprof_write_options.instanceof_key chooses what is written.
 */
enum iprof_instanceof_key {
    IPROF_INSTANCEOF_KEY_AUTO = 0,  /**< writer: the model's spelling, else GraalVM's */
    IPROF_INSTANCEOF_KEY_LOWER = 1, /**< "instanceofProfiles": the document's */
    IPROF_INSTANCEOF_KEY_CAMEL = 2  /**< "instanceOfProfiles": GraalVM's */
};

/**
 * @brief The JSON key of a profile kind ("callCountProfiles", ...).
 *
 * For IPROF_KIND_INSTANCEOF this is the document's "instanceofProfiles";
 * IPROF_INSTANCEOF_KEY_CAMEL_NAME is GraalVM's spelling.
 * @param kind an IPROF_KIND_* value.
 * @return the key (static storage: never free it), or NULL when @p kind is
 *         not in 0 .. IPROF_KIND_COUNT - 1.
 */
IPROF_API const char *iprof_kind_name(int kind);

/* ------------------------------------------------------------------------ */
/* Allocator                                                                */

/**
 * A user allocator. Every handle takes one at creation (NULL means libc's
 * malloc/realloc/free) and routes all of its allocations through it, so an
 * application can account, pool or fail allocations. The struct is copied
 * at creation; @c user is passed back untouched. All three functions are
 * required. They are called from the thread that calls into the handle;
 * an allocator shared by handles used in several threads must be
 * thread-safe itself. On Linux the library may ask the system to map the
 * pages of a block it got, shortly before writing them
 * (madvise(MADV_POPULATE_WRITE) on whole pages inside the block, never
 * outside it): a block must be ordinary writable memory, as malloc's is.
 */
typedef struct iprof_allocator {
    /** Allocate @c size bytes (never 0); return NULL on failure. */
    void *(*malloc_fn)(size_t size, void *user);
    /** Resize @c ptr from @c old_size to @c new_size bytes (both non-zero),
     *  returning the new block or NULL (the old block then stays valid).
     *  @c old_size lets pool allocators do without storing sizes. */
    void *(*realloc_fn)(void *ptr, size_t old_size, size_t new_size, void *user);
    /** Free @c ptr, a block of @c size bytes from this allocator. */
    void (*free_fn)(void *ptr, size_t size, void *user);
    /** Passed to the three functions as is; not touched by the library. */
    void *user;
} iprof_allocator;

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */

/**
 * An error or diagnostic report: a status code, an English message and the
 * position in the input (byte offset from 0, line and column from 1,
 * columns counted in bytes) with the JSON path of the element
 * ("methods[12].signature[1]", "conditionalProfiles[3].ctx"). Reports are
 * owned by the handle that produced them and live until that handle is
 * freed or starts its next operation. A read's I/O error reports where the
 * parser stood, or line 1, column 1 (docs/api.md). Errors that have no input
 * position (a path that cannot be opened, an allocation failure, a writer
 * misuse) report offset, line and column 0 and an empty path, except a
 * writer's report about an element, which names it by its path. Opaque.
 *
 * iprof_error_get_info() reads everything it says in one call.
 */
typedef struct iprof_error iprof_error;

/** Severity of a report: an error made the operation fail or is a rule
 *  violation recorded in lenient mode; a warning does not invalidate the
 *  file (an unknown 0.x/1.x version, for instance). */
enum iprof_severity {
    IPROF_SEVERITY_ERROR = 0,  /**< an error: the file is invalid */
    IPROF_SEVERITY_WARNING = 1 /**< a warning: the file is still valid */
};

/** The version of iprof_error_info these headers define. */
#define IPROF_ERROR_INFO_VERSION 1

/**
 * Everything a report says, filled by iprof_error_get_info(): the values
 * the iprof_error_* accessors return, in one struct. The strings are the
 * report's (valid as long as it is) and never NULL.
 */
typedef struct iprof_error_info {
    unsigned int version;  /**< set by the caller: IPROF_ERROR_INFO_VERSION */
    int status;            /**< IPROF_E* (IPROF_OK for a NULL report) */
    int severity;          /**< enum iprof_severity */
    int kind;              /**< IPROF_KIND_* the report is about, or -1 */
    const char *message;   /**< English, "" when there is nothing to say */
    const char *path;      /**< JSON path ("types[3].name"), "" when none */
    const char *context;   /**< ctx text ("5:0<3:2") the report is about, "" when none */
    uint64_t offset;       /**< from 0; 0 without a position */
    uint64_t line;         /**< from 1; 0 without a position */
    uint64_t column;       /**< from 1, in bytes; 0 without a position */
    int has_type_id;       /**< 1 when type_id is meaningful, else 0 */
    int has_method_id;     /**< 1 when method_id is meaningful, else 0 */
    int64_t type_id;       /**< the type id the report is about (has_type_id), else 0 */
    int64_t method_id;     /**< the method id the report is about (has_method_id), else 0 */
} iprof_error_info;

/** Initialiser of an iprof_error_info: the version, then zeros, NULLs and
 *  kind -1. */
#define IPROF_ERROR_INFO_INIT \
    {IPROF_ERROR_INFO_VERSION, 0, 0, -1, NULL, NULL, NULL, 0, 0, 0, 0, 0, 0, 0}

/**
 * @brief Everything a report says, in one call.
 *
 * Any report is accepted: iprof_reader_error(), iprof_reader_diag(),
 * iprof_read_result.damage, iprof_model_error(), iprof_writer_error(). A
 * NULL report is a report of nothing: status IPROF_OK, severity
 * IPROF_SEVERITY_ERROR, kind -1, "" strings, zero positions and no ids.
 * @param err a report (borrowed); NULL is allowed.
 * @param[out] out the struct to fill; its version must be set
 *        (IPROF_ERROR_INFO_INIT does).
 * @retval IPROF_OK @p out is filled.
 * @retval IPROF_EINVAL @p out is NULL or its version unknown to this
 *         library; @p out is unchanged.
 */
IPROF_API int iprof_error_get_info(const iprof_error *err, iprof_error_info *out);

/* ------------------------------------------------------------------------ */
/* Reader                                                                   */

/*
 * The reader scans an iprof document once, without building a tree; a
 * model load (or a streaming read, <iprof/stream.h>) goes through one. It
 * reads from a memory buffer, a path, a file descriptor or a read
 * callback; files are read in chunks, so a file larger than memory can be
 * scanned in bounded memory.
 *
 * gzip: every input that starts with the gzip magic (1f 8b) is inflated
 * as it is read, in chunks (bounded memory, as for plain input), so
 * .iprof.gz files read like .iprof files; concatenated gzip members read
 * as one document. Positions in reports are offsets, lines and columns
 * of the decompressed document. Corrupt or truncated gzip data fails the
 * read with IPROF_ESYNTAX (the message starts "corrupt gzip data" or
 * "truncated gzip data"); a library built without zlib
 * (iprof_features() without IPROF_FEATURE_GZIP) fails gzip input with IPROF_EIO and a
 * message saying so.
 *
 * It validates as it goes (see docs/api.md, "Validation"). In lenient mode
 * (the default) rule violations that leave the data representable are
 * recorded as diagnostics and the read goes on; in strict mode the first
 * one fails the read. Malformed JSON always fails.
 */

/** A reader: its options, buffers, and the error and diagnostics of its
 *  last read. Opaque; created by iprof_reader_new(), freed by
 *  iprof_reader_free(). */
typedef struct iprof_reader iprof_reader;

/** Fail on the first rule violation instead of recording it. */
#define IPROF_READ_STRICT 0x1u

/** Do not check that referenced type and method ids exist (faster scans,
 *  no id tables). */
#define IPROF_READ_NO_REFERENCES 0x2u

/** Model loads (iprof_model_load()) and streaming merges
 *  (iprof_model_merge_source()) only: build the
 *  model, or merge into it, on a second thread while the calling thread
 *  reads, so a load or merge of a large file takes about as long as a scan
 *  of it rather than the sum of both. The calling thread still runs every read
 *  callback of the source. The allocator, if one is given, must be
 *  thread-safe: both threads may call it at once. Ignored by streaming
 *  reads (iprof_reader_read()) and on builds without threads. */
#define IPROF_READ_THREADED 0x4u

/**
 * Model loads (iprof_model_load()) only: salvage a damaged document. When
 * the read fails on the input (IPROF_ESYNTAX: malformed or truncated JSON
 * or gzip data; IPROF_ESCHEMA, IPROF_EVERSION, IPROF_EDANGLING,
 * IPROF_ELIMIT: an element the read refuses) after the "version" was
 * accepted, the load keeps every element read completely before that
 * point (an element cut in the middle is not kept) and returns IPROF_OK
 * with that model. The damage stays reported: iprof_reader_get_result()'s
 * damage (and iprof_reader_error()) give the error with its offset, line,
 * column and JSON path, its kept_end where the last complete element ends.
 * Damage before the version is accepted, I/O and memory failures and a
 * callback's stop still fail the load. What was kept may refer to types
 * or methods the damage cut off (references that wait for a later section
 * are never checked): iprof_model_prune() with IPROF_PRUNE_DANGLING
 * (<iprof/transform.h>) removes those, so that
 * a strict write accepts the model. With IPROF_READ_STRICT the first rule
 * violation counts as damage too, so a salvaged model holds only what a
 * strict read accepts. Streaming reads and merges ignore the flag.
 */
#define IPROF_READ_SALVAGE 0x8u

/** The version of iprof_read_options these headers define. */
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
    /** Diagnostics kept per read; 0: 10000, SIZE_MAX: all.
     *  The rest are only counted (iprof_reader_get_result()), so a file
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
 */
IPROF_API int iprof_read_options_init(iprof_read_options *opts, unsigned int version);

/** Read function of a callback source: fill up to @p capacity bytes of
 *  @p buf (owned by the reader, valid for the call), store the count in
 *  @p *len (0 means end of input) and return 0, or return non-zero on
 *  failure (the read fails with IPROF_EIO). */
typedef int (*iprof_read_fn)(void *buf, size_t capacity, size_t *len, void *payload);

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
 */
IPROF_API int iprof_reader_new(iprof_reader **out, const iprof_read_options *opts);

/**
 * @brief Free a reader and everything it owns (its error and diagnostics).
 * @param reader the reader, or NULL (a no-op). Invalid afterwards, and so
 *        are the reports it returned.
 */
IPROF_API void iprof_reader_free(iprof_reader *reader);

/**
 * @brief The error of the last failed read.
 * @param reader the reader.
 * @return the report, or NULL if the last read succeeded (or none was
 *         made); after a salvaging load that returned IPROF_OK, the damage
 *         (iprof_read_result.damage). Owned by the reader: valid until its
 *         next read or its free.
 */
IPROF_API const iprof_error *iprof_reader_error(const iprof_reader *reader);

/**
 * @brief A diagnostic of the last read, in input order.
 * @param reader the reader.
 * @param index 0 .. iprof_read_result.diag_count - 1.
 * @return the report, or NULL if @p index is out of range. Owned by the
 *         reader: valid until its next read or its free.
 */
IPROF_API const iprof_error *iprof_reader_diag(const iprof_reader *reader, size_t index);



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
 */
IPROF_API int iprof_reader_get_result(const iprof_reader *reader, iprof_read_result *out);

/** Where the bytes of a read come from (iprof_source.kind). Every kind
 *  recognises gzip input by its first bytes (when the library has zlib). */
enum iprof_source_kind {
    /** data, len: a document in memory, borrowed for the call; data NULL
     *  only with len 0. */
    IPROF_SOURCE_BUFFER = 0,
    /** path: a file, opened and read chunk by chunk (the reader's
     *  chunk_size), closed by the call. UTF-8; on Windows converted to
     *  UTF-16 for the system (docs/api.md, "Files, paths and descriptors").
     *  A file that cannot be opened, or a directory, is IPROF_EIO. */
    IPROF_SOURCE_PATH = 1,
    /** fd: a descriptor open for reading, read to its end, borrowed: not
     *  closed. On Windows a C runtime descriptor (_open, _fileno, not a
     *  HANDLE), set to binary mode (_setmode) so that no CRLF translation
     *  happens. A failed read is IPROF_EIO. */
    IPROF_SOURCE_FD = 2,
    /** read_fn, read_payload: a read function (see iprof_read_fn); its
     *  failure is IPROF_EIO. */
    IPROF_SOURCE_CALLBACK = 3
};

/** The version of iprof_source these headers define. */
#define IPROF_SOURCE_VERSION 1

/** The input of iprof_model_load(), iprof_model_merge_source() and
 *  iprof_reader_read(): a kind and that kind's fields (the others are
 *  ignored). Borrowed for the call, with what it points to: nothing is
 *  opened before the call, and the call closes what it opened (a path's
 *  file), never what it was given (a descriptor). */
typedef struct iprof_source {
    unsigned int version;  /**< IPROF_SOURCE_VERSION */
    int kind;              /**< enum iprof_source_kind */
    const void *data;      /**< BUFFER: the document; NULL only with len 0 */
    size_t len;            /**< BUFFER: its length in bytes */
    const char *path;      /**< PATH: NUL-terminated UTF-8 */
    int fd;                /**< FD: open for reading */
    iprof_read_fn read_fn; /**< CALLBACK: fills the reader's buffer */
    void *read_payload;    /**< CALLBACK: passed to read_fn as is */
} iprof_source;

/** Initialiser of an iprof_source reading @p data, @p len bytes. */
#define IPROF_SOURCE_BUFFER_INIT(data, len) \
    {IPROF_SOURCE_VERSION, IPROF_SOURCE_BUFFER, (data), (len), NULL, -1, NULL, NULL}
/** Initialiser of an iprof_source reading the file at @p path. */
#define IPROF_SOURCE_PATH_INIT(path) \
    {IPROF_SOURCE_VERSION, IPROF_SOURCE_PATH, NULL, 0, (path), -1, NULL, NULL}
/** Initialiser of an iprof_source reading descriptor @p fd. */
#define IPROF_SOURCE_FD_INIT(fd) \
    {IPROF_SOURCE_VERSION, IPROF_SOURCE_FD, NULL, 0, NULL, (fd), NULL, NULL}
/** Initialiser of an iprof_source reading through @p read_fn. */
#define IPROF_SOURCE_CALLBACK_INIT(read_fn, read_payload) \
    {IPROF_SOURCE_VERSION, IPROF_SOURCE_CALLBACK, NULL, 0, NULL, -1, (read_fn), (read_payload)}

/* ------------------------------------------------------------------------ */
/* Model                                                                    */

/*
 * A model holds the types, methods and profile entries of one profile.
 * Everything lives in arenas owned by the model: names are interned (one
 * copy per distinct string) and contexts are interned (one node per
 * distinct frame sequence, callers shared, so "5:0<3:2" and "4:7<3:2" share
 * the node of "3:2"). Entry pointers and the index order of entries of one
 * kind are valid until the next change to entries of that kind.
 */

/** A profile in memory. Opaque; created by iprof_model_new() or a load,
 *  freed by iprof_model_free(). */
typedef struct iprof_model iprof_model;

/** A type of a model (id and name). Opaque; owned by the model. */
typedef struct iprof_type iprof_type;

/** A method of a model (id, name, signature). Opaque; owned by the model. */
typedef struct iprof_method iprof_method;

/** An interned context: a sequence of (method id, bci) frames. Opaque;
 *  owned by the model. */
typedef struct iprof_context iprof_context;

/** A profile entry: kind, context and records. Opaque; owned by the model. */
typedef struct iprof_entry iprof_entry;

/**
 * @brief Create an empty model of format version IPROF_FORMAT_LATEST.
 * @param[out] out receives the model, owned by the caller (free it with iprof_model_free()); NULL on failure.
 * @param allocator the allocator for everything the model holds, or NULL for libc; copied.
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL @p out is NULL.
 * @retval IPROF_ENOMEM allocation failed.
 */
IPROF_API int iprof_model_new(iprof_model **out, const iprof_allocator *allocator);

/**
 * @brief Free a model and everything it owns.
 * @param model the model, or NULL (a no-op). Every type, method, context, entry and string obtained from it becomes invalid.
 */
IPROF_API void iprof_model_free(iprof_model *model);

/**
 * @brief The format version of the model ("1.0.0").
 * @param model the model (borrowed).
 * @return the version string, owned by the model: valid until it is freed or its version is set.
 */
IPROF_API const char *iprof_model_version(const iprof_model *model);

/**
 * @brief Build every lookup index now, so that later lookups never
 *        allocate (and never call the model's allocator).
 *
 * Lookups by name, method key and context otherwise build their index on
 * first use. Call this before reading one model from several threads when
 * its allocator is not thread-safe. Indexes stay built until a change that
 * invalidates them (a removal, a retain). Columns are not indexes:
 * iprof_model_get_columns() still allocates on its first call for a kind.
 * @param model the model.
 * @retval IPROF_OK every index is built.
 * @retval IPROF_ENOMEM an index could not be built (lookups still work,
 *         by scanning).
 * @retval IPROF_EINVAL @p model is NULL.
 */
IPROF_API int iprof_model_build_indexes(iprof_model *model);

/**
 * @brief How many elements of the model's input held keys it lacks.
 *
 * Keys that no type, method or entry has (`{"id":1,"name":"A","x":2}`)
 * are not read: the reader warns at each such element and the model does
 * not hold them. The model counts those elements, over every document
 * loaded or merged into it (a merge adds its source's count), so that
 * writing it does not lose them unnoticed: iprof_writer_write_model()
 * fails unless given IPROF_WRITE_DROP_UNKNOWN.
 * @param model the model; NULL gives 0.
 * @param[out] first receives where the first of them was, as
 *        types[3], key "x" (owned by the model, valid until it is
 *        freed), or NULL when there is none; may be NULL.
 * @return the number of such elements (saturating at SIZE_MAX).
 */
IPROF_API size_t iprof_model_unread_count(const iprof_model *model, const char **first);

/**
 * @brief The report of the model operation that failed last.
 *
 * The calls that change a model (iprof_model_set_version(), the merges,
 * the edits of <iprof/edit.h>, the transforms of <iprof/transform.h>)
 * clear it when they start and say here why they failed (which unknown
 * key could not be combined, which id or argument was wrong), with the
 * kind, context and ids it is about. Positions are 0 and the path empty.
 * @param model the model.
 * @return the report, or NULL when the last such operation succeeded (or
 *         none ran). Owned by the model: valid until its next operation.
 */
IPROF_API const iprof_error *iprof_model_error(const iprof_model *model);


/**
 * @brief Load a model from a source.
 *
 * Each kind reads as enum iprof_source_kind says. @p reader
 * supplies the options (strictness, allocator) and keeps the error and
 * diagnostics of the load. On failure *out is set to NULL and no model is
 * left.
 * @param[out] out receives the model, owned by the caller; NULL on failure.
 * @param reader the reader to read with (borrowed; the model does not
 *        keep it).
 * @param source where the bytes come from (borrowed for the call).
 * @return as iprof_reader_read(); iprof_reader_error() describes a failure.
 * @retval IPROF_EINVAL @p out or @p reader is NULL, or @p source is NULL
 *         or invalid (as iprof_reader_read() says): no model is created.
 * @threadsafety Exception (2) of <iprof/iprof.h>: with IPROF_READ_THREADED a
 *         second thread builds the model and calls its allocator during the
 *         call; needs exclusive access to @p reader.
 */
IPROF_API int iprof_model_load(iprof_model **out, iprof_reader *reader,
                               const iprof_source *source);

/* ------------------------------------------------------------------------ */
/* Types                                                                    */

/**
 * @brief The number of types.
 * @param model the model (borrowed).
 * @return the count.
 */
IPROF_API size_t iprof_model_type_count(const iprof_model *model);

/**
 * @brief The type at an index, in file order.
 * @param model the model (borrowed).
 * @param index 0 .. iprof_model_type_count() - 1.
 * @return the type (owned by the model), or NULL if out of range.
 */
IPROF_API const iprof_type *iprof_model_type_at(const iprof_model *model, size_t index);

/**
 * @brief Look up a type by id, in O(1).
 * @param model the model (borrowed).
 * @param id the type id.
 * @return the type (owned by the model), or NULL if absent.
 */
IPROF_API const iprof_type *iprof_model_type_by_id(const iprof_model *model, int64_t id);

/**
 * @brief Look up a type by name, in O(1).
 * @param model the model (borrowed).
 * @param name @p name_len bytes (borrowed for the call).
 * @param name_len the length of @p name.
 * @return the first type of that name if a file repeats a name (owned by the model), or NULL.
 * @threadsafety Exception (1) of <iprof/iprof.h>: the first lookup by name
 *         builds the index through the model's allocator, unless
 *         iprof_model_build_indexes() ran.
 */
IPROF_API const iprof_type *iprof_model_type_by_name(const iprof_model *model,
                                                     const char *name, size_t name_len);

/**
 * @brief The id of a type.
 * @param type a type of a model (borrowed).
 * @return its id.
 */
IPROF_API int64_t iprof_type_id(const iprof_type *type);

/**
 * @brief The name of a type.
 * @param type a type of a model (borrowed).
 * @param[out] len receives the name's length if not NULL.
 * @return the interned name, NUL-terminated (it may contain NUL bytes: use @p len); owned by the model.
 */
IPROF_API const char *iprof_type_name(const iprof_type *type, size_t *len);

/* ------------------------------------------------------------------------ */
/* Methods                                                                  */

/**
 * @brief The number of methods.
 * @param model the model (borrowed).
 * @return the count.
 */
IPROF_API size_t iprof_model_method_count(const iprof_model *model);

/**
 * @brief The method at an index, in file order.
 * @param model the model (borrowed).
 * @param index 0 .. iprof_model_method_count() - 1.
 * @return the method (owned by the model), or NULL if out of range.
 */
IPROF_API const iprof_method *iprof_model_method_at(const iprof_model *model, size_t index);

/**
 * @brief Look up a method by id, in O(1).
 * @param model the model (borrowed).
 * @param id the method id.
 * @return the method (owned by the model), or NULL if absent.
 */
IPROF_API const iprof_method *iprof_model_method_by_id(const iprof_model *model, int64_t id);

/**
 * @brief Look up a method by name and signature, in O(1).
 * @param model the model (borrowed).
 * @param name @p name_len bytes (borrowed for the call).
 * @param name_len the length of @p name.
 * @param signature declaring type id, return type id, parameter type ids (borrowed for the call).
 * @param signature_len the number of ids.
 * @return the method (owned by the model), or NULL if absent.
 * @threadsafety Exception (1) of <iprof/iprof.h>: the first lookup by key
 *         builds the index through the model's allocator, unless
 *         iprof_model_build_indexes() ran.
 */
IPROF_API const iprof_method *iprof_model_method_find(const iprof_model *model,
                                                      const char *name, size_t name_len,
                                                      const int64_t *signature,
                                                      size_t signature_len);

/**
 * @brief The id of a method.
 * @param method a method of a model (borrowed).
 * @return its id.
 */
IPROF_API int64_t iprof_method_id(const iprof_method *method);

/**
 * @brief The name of a method.
 * @param method a method of a model (borrowed).
 * @param[out] len receives the name's length if not NULL.
 * @return the interned name, NUL-terminated; owned by the model.
 */
IPROF_API const char *iprof_method_name(const iprof_method *method, size_t *len);

/**
 * @brief The signature type ids of a method.
 * @param method a method of a model (borrowed).
 * @param[out] len receives the number of ids if not NULL.
 * @return the ids (declaring type, return type, parameters), owned by the model.
 */
IPROF_API const int64_t *iprof_method_signature(const iprof_method *method, size_t *len);

/**
 * @brief A readable name of a method, "Type.name".
 *
 * An unknown declaring type prints as "?<id>"; a method with an empty signature as just its name.
 * @param model the model (borrowed).
 * @param method a method of @p model (borrowed).
 * @param[out] buf receives the text, NUL-terminated and truncated to @p size bytes (caller-owned; may be NULL if @p size is 0).
 * @param size the size of @p buf.
 * @return the full length of the text (snprintf convention).
 */
IPROF_API size_t iprof_model_method_describe(const iprof_model *model,
                                             const iprof_method *method,
                                             char *buf, size_t size);

/* ------------------------------------------------------------------------ */
/* Contexts                                                                 */

/**
 * @brief The number of frames of a context.
 * @param ctx a context of a model (borrowed).
 * @return its depth, at least 1.
 */
IPROF_API size_t iprof_context_depth(const iprof_context *ctx);

/**
 * @brief The method id of the first (callee) frame.
 * @param ctx a context of a model (borrowed).
 * @return the method id.
 */
IPROF_API int64_t iprof_context_method_id(const iprof_context *ctx);

/**
 * @brief The bci of the first (callee) frame.
 * @param ctx a context of a model (borrowed).
 * @return the bci.
 */
IPROF_API int64_t iprof_context_bci(const iprof_context *ctx);

/**
 * @brief The context without its first frame (the caller's).
 * @param ctx a context of a model (borrowed).
 * @return the caller's context (owned by the model), NULL for depth 1.
 */
IPROF_API const iprof_context *iprof_context_caller(const iprof_context *ctx);

/**
 * @brief Copy the frames of a context.
 * @param ctx a context of a model (borrowed).
 * @param[out] frames receives up to @p max_frames frames, interleaved (method id, bci), callee first: 2 * @p max_frames numbers (caller-owned).
 * @param max_frames the capacity of @p frames in frames.
 * @return the depth (more than @p max_frames if truncated).
 */
IPROF_API size_t iprof_context_frames(const iprof_context *ctx, int64_t *frames,
                                      size_t max_frames);

/**
 * @brief The ctx text of a context ("5:0<3:2").
 * @param ctx a context of a model (borrowed).
 * @param[out] buf receives the text, NUL-terminated and truncated to @p size bytes (caller-owned).
 * @param size the size of @p buf.
 * @return the full length of the text (snprintf convention).
 */
IPROF_API size_t iprof_context_format(const iprof_context *ctx, char *buf, size_t size);

/**
 * @brief A readable text of a context ("Fib.fibonacci:11 < Fib.main:9").
 *
 * A method id without a method prints as "?<id>".
 * @param model the model (borrowed).
 * @param ctx a context of @p model (borrowed).
 * @param[out] buf receives the text, NUL-terminated and truncated to @p size bytes (caller-owned).
 * @param size the size of @p buf.
 * @return the full length of the text (snprintf convention).
 */
IPROF_API size_t iprof_model_context_describe(const iprof_model *model,
                                              const iprof_context *ctx,
                                              char *buf, size_t size);

/**
 * @brief The number of interned context nodes (distinct frame sequences, including caller suffixes).
 *
 * At most 4,294,967,295 (a node whose bci does not fit 32 bits counts
 * twice): an operation that would need more fails with IPROF_ELIMIT.
 * @param model the model (borrowed).
 * @return the count.
 */
IPROF_API size_t iprof_model_context_count(const iprof_model *model);

/* ------------------------------------------------------------------------ */
/* Entries                                                                  */

/**
 * @brief The number of entries of a kind.
 *
 * At most 4,294,967,294: a load, add or merge that would need more fails
 * with IPROF_ELIMIT ("... more than ... entries").
 * @param model the model (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @return the count, 0 for an invalid kind.
 */
IPROF_API size_t iprof_model_entry_count(const iprof_model *model, int kind);

/**
 * @brief The entry at an index of a kind, in file order.
 * @param model the model (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @param index 0 .. iprof_model_entry_count() - 1.
 * @return the entry (owned by the model; valid until entries of @p kind change), or NULL if out of range.
 */
IPROF_API const iprof_entry *iprof_model_entry_at(const iprof_model *model, int kind,
                                                  size_t index);

/**
 * @brief Look up the entry of a kind with a context, in O(1).
 * @param model the model (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @param frames @p frame_count (method id, bci) pairs, callee first (borrowed for the call).
 * @param frame_count the number of frames.
 * @return the entry (owned by the model; valid until entries of @p kind change), or NULL if absent.
 * @threadsafety Exception (1) of <iprof/iprof.h>: the first lookup of a kind
 *         builds the index through the model's allocator, unless
 *         iprof_model_build_indexes() ran.
 */
IPROF_API const iprof_entry *iprof_model_entry_find(const iprof_model *model, int kind,
                                                    const int64_t *frames,
                                                    size_t frame_count);

/**
 * @brief The kind of an entry.
 * @param entry an entry of a model (borrowed).
 * @return its IPROF_KIND_* value.
 */
IPROF_API int iprof_entry_kind(const iprof_entry *entry);

/**
 * @brief The context of an entry.
 * @param entry an entry of a model (borrowed).
 * @return the interned context, owned by the model (valid until it is freed).
 */
IPROF_API const iprof_context *iprof_entry_context(const iprof_entry *entry);

/**
 * @brief The records of an entry.
 * @param entry an entry of a model (borrowed).
 * @param[out] len receives the number of records if not NULL.
 * @return the records, owned by the model (valid as long as @p entry).
 */
IPROF_API const int64_t *iprof_entry_records(const iprof_entry *entry, size_t *len);

/* ------------------------------------------------------------------------ */
/* Merge                                                                    */

/** How a count multiplied by a weight that is not a whole number is
 *  rounded to an integer (iprof_merge_options.rounding,
 *  iprof_model_scale()). Whole-number weights are exact. */
enum iprof_rounding {
    IPROF_ROUND_NEAREST_AWAY = 0, /**< to the nearest, halves away from zero (the default) */
    IPROF_ROUND_NEAREST_EVEN = 1, /**< to the nearest, halves to even */
    IPROF_ROUND_FLOOR = 2         /**< down, towards negative infinity */
};

/** Merge option: drop the unknown top-level keys of both models instead of
 *  failing on those that cannot be combined. */
#define IPROF_MERGE_DROP_UNKNOWN 0x1u
/** Merge option: merge on a second thread while the calling thread walks
 *  the source model (iprof_model_merge()) or reads the source
 *  (iprof_model_merge_source(), as IPROF_READ_THREADED in the reader's
 *  flags does). The result is the same, element for element. */
#define IPROF_MERGE_THREADED 0x2u

/** The version of iprof_merge_options these headers define. */
#define IPROF_MERGE_OPTIONS_VERSION 1

/** Options of iprof_model_merge() and iprof_model_merge_source(). Initialise
 *  with
 *  IPROF_MERGE_OPTIONS_INIT or iprof_merge_options_init(): unlike the
 *  other fields, weight defaults to 1.0, not 0. */
typedef struct iprof_merge_options {
    unsigned int version; /**< IPROF_MERGE_OPTIONS_VERSION */
    unsigned int flags;   /**< IPROF_MERGE_* */
    double weight;        /**< factor for src's counts, finite and >= 0 */
    int rounding;         /**< enum iprof_rounding of scaled counts */
} iprof_merge_options;

/** Initialiser of an iprof_merge_options: no flags, weight 1, halves
 *  rounded away from zero. */
#define IPROF_MERGE_OPTIONS_INIT {IPROF_MERGE_OPTIONS_VERSION, 0, 1.0, IPROF_ROUND_NEAREST_AWAY}

/**
 * @brief Fill merge options with the defaults of an options version.
 * @param[out] opts the options to fill (caller-owned; not kept).
 * @param version IPROF_MERGE_OPTIONS_VERSION of the caller's headers.
 * @retval IPROF_OK @p opts is filled (weight 1.0).
 * @retval IPROF_EINVAL @p opts is NULL or @p version unknown.
 */
IPROF_API int iprof_merge_options_init(iprof_merge_options *opts, unsigned int version);

/**
 * @brief Merge @p src into @p dst, as native-image-configure
 *        merge-pgo-profiles does.
 *
 * Types are matched by name and methods by (declaring type name, name,
 * signature type names); what dst lacks is added, keeping the src id when
 * dst does not use it and taking max id + 1 otherwise. Entries are
 * remapped to dst ids and added with iprof_model_add_entry() semantics,
 * their counts multiplied by the options' weight first (rounded as their
 * rounding says, saturating; whole-number weights are exact).
 *
 * The merged model has the highest format version of its inputs: src's
 * version when dst is a new model whose version was never read or set,
 * or when src's is higher (so merging files one by one into a new model
 * gives the highest version among them, as `iprof merge` writes).
 *
 * Unknown top-level keys: dst keeps its own and takes those of src it
 * lacks when every one holds [], {} or a scalar, and a key that both hold
 * has equal values; otherwise the merge fails with IPROF_ESCHEMA and
 * iprof_model_error(dst) names the key. IPROF_MERGE_DROP_UNKNOWN drops
 * them all instead. The instanceof spelling: dst's, else src's; GraalVM's
 * when they disagree.
 *
 * All or nothing: on any failure, including running out of memory, dst
 * holds what it held before (element for element).
 *
 * @param dst the model merged into.
 * @param src the model merged from (borrowed for the call; only read);
 *        not dst.
 * @param opts the options (borrowed for the call), or NULL for the
 *        defaults (IPROF_MERGE_OPTIONS_INIT: weight 1).
 * @retval IPROF_OK success.
 * @retval IPROF_EDANGLING src has references that do not resolve within
 *         src; dst unchanged.
 * @retval IPROF_ESCHEMA unknown keys that cannot be combined, or entries
 *         whose records cannot be grouped; dst unchanged.
 * @retval IPROF_EINVAL a NULL argument, dst == src, a bad weight, an
 *         unknown options version or flag.
 * @retval IPROF_ENOMEM allocation failed; dst unchanged.
 * On failure iprof_model_error(dst) says why.
 * @threadsafety Exception (2) of <iprof/iprof.h>: with IPROF_MERGE_THREADED
 *         a second thread merges during the call and calls dst's
 *         allocator; needs exclusive access to @p dst, and @p src must not
 *         change during the call.
 */
IPROF_API int iprof_model_merge(iprof_model *dst, const iprof_model *src,
                                const iprof_merge_options *opts);

/**
 * @brief Merge a profile into @p dst as it is read from a source, without
 *        loading it as a model first.
 *
 * What iprof_model_merge() does with a loaded model, done as the reader
 * goes: each batch of types, methods and entries the reader delivers is
 * remapped to dst's ids and combined into dst at once, so memory grows
 * with dst and a few batches, not with the input. With IPROF_READ_THREADED
 * in the reader's flags, or IPROF_MERGE_THREADED in the options, reading
 * and merging run on two threads. The
 * result equals loading the input and merging the model (the same dst,
 * element for element), except that entries whose types or methods the
 * input defines only after them are merged at its end.
 *
 * Each kind of source reads as enum iprof_source_kind says. The reader's
 * options apply as for a load (strict or lenient, references checked or
 * not, limits); a merge refuses what iprof_model_merge() refuses in any
 * case: references that do not resolve within the input, entries that
 * break the format's rules, unknown keys that cannot be combined.
 *
 * All or nothing: on any failure, including running out of memory, dst
 * holds what it held before (element for element; memory it took for the
 * failed merge stays with it until it is freed).
 * @param dst the model merged into.
 * @param reader the reader to read with (borrowed for the call).
 * @param source where the bytes come from (borrowed for the call).
 * @param opts the merge options (borrowed), or NULL for the defaults
 *        (weight 1, IPROF_MERGE_OPTIONS_INIT).
 * @retval IPROF_OK success.
 * @retval IPROF_ESYNTAX and the reader's other statuses: the input could
 *         not be read; iprof_reader_error(reader) says where.
 * @retval IPROF_EDANGLING, IPROF_ESCHEMA, IPROF_ELIMIT, IPROF_ENOMEM: as
 *         iprof_model_merge().
 * @retval IPROF_EINVAL a NULL @p dst or @p reader, bad options, or a NULL
 *         or invalid @p source: the reader's error and iprof_model_error(dst)
 *         say which field; dst is untouched.
 * On every failure iprof_model_error(dst) says why. A failure of the read
 * is reported by the reader as for a load, with the same status, and
 * copied into dst's error (message, offset, line, column, JSON path); when
 * merging failed instead, the reader reports IPROF_ESTOPPED with the
 * merge's message.
 * @threadsafety Exception (2) of <iprof/iprof.h>: with IPROF_READ_THREADED
 *         (or IPROF_MERGE_THREADED) a second thread merges while the
 *         calling one reads ahead, and calls dst's allocator during the
 *         call; needs exclusive access to @p dst and @p reader.
 */
IPROF_API int iprof_model_merge_source(iprof_model *dst, iprof_reader *reader,
                                       const iprof_source *source,
                                       const iprof_merge_options *opts);

/* ------------------------------------------------------------------------ */
/* Writer                                                                   */

/*
 * A writer produces one iprof document, from a whole model (here) or
 * element by element (<iprof/stream.h>). By default it writes GraalVM's
 * own layout for the target version: minified, the key order GraalVM
 * uses, empty sections written. So reading a file that GraalVM wrote and
 * writing it back gives the same bytes.
 *
 * By default it writes nothing a strict read would refuse: entries follow
 * their kind's rules, every referenced type and method id was written,
 * ids are unique, signatures hold the declaring and return types (a whole
 * model that a clean load or checked edits vouch for is not checked
 * again). IPROF_WRITE_NO_REFERENCES keeps the entry rules only,
 * IPROF_WRITE_NO_VALIDATE no check at all (for copying lenient models).
 *
 * Sinks: a path (atomic: written to a temporary file in the same
 * directory, synced, then renamed over the target; on any failure the
 * previous file is untouched), a file descriptor, a memory buffer or a
 * write callback. Output is gzip-compressed for a path ending in ".gz"
 * and for any sink with IPROF_WRITE_GZIP.
 *
 * After any failure the writer is failed: every later call returns the
 * same status; free it (a path writer then removes its temporary file).
 */

/** A writer of one document: its sink, options, state and error. Opaque;
 *  created by the iprof_writer_new_* functions, freed by
 *  iprof_writer_free(). */
typedef struct iprof_writer iprof_writer;

/** Indent the output: one element per line. (Format 0.2.0 has one
 *  layout, GraalVM's indented one, which the flag does not change.) */
#define IPROF_WRITE_PRETTY 0x1u

/** Drop instanceof entries when the target version predates 1.1.0
 *  (otherwise writing them fails with IPROF_EVERSION). */
#define IPROF_WRITE_DROP_INSTANCEOF 0x2u

/** Skip every check: write what is given as long as it can be written as
 *  JSON (for copying leniently loaded files). */
#define IPROF_WRITE_NO_VALIDATE 0x8u

/** Path sinks: skip fsync (faster, not durable across a crash). */
#define IPROF_WRITE_NO_SYNC 0x10u

/** Compress the output with gzip, for any sink (a path sink whose name
 *  ends in ".gz" does so without the flag). The gzip header carries no
 *  name and time 0, so equal documents give equal bytes. A library built
 *  without zlib (iprof_features() without IPROF_FEATURE_GZIP) creates the writer failed:
 *  its first call returns IPROF_EIO. For a memory writer,
 *  iprof_writer_buffer() returns the compressed bytes. */
#define IPROF_WRITE_GZIP 0x20u

/** Check the entry rules only, not the references, unique ids and
 *  signature lengths (as IPROF_READ_NO_REFERENCES reads): for streaming a
 *  document whose entries refer to types and methods written elsewhere,
 *  without the writer's id tables. */
#define IPROF_WRITE_NO_REFERENCES 0x40u

/** iprof_writer_write_model() writes the model's canonical form (see
 *  iprof_model_canonicalize()): the bytes that canonicalizing the model and
 *  writing it would give, without changing the model or building a second
 *  one. A model that has no canonical form fails the write with the
 *  status and message canonicalizing it would give (IPROF_EDANGLING,
 *  IPROF_ESCHEMA); so does, with IPROF_ESCHEMA, a method whose signature
 *  lacks the declaring or return type, which canonicalizing keeps but no
 *  strict read accepts. Streaming writes ignore the flag. */
#define IPROF_WRITE_CANONICAL 0x80u

/** With IPROF_WRITE_CANONICAL: sort and format on a second thread beside
 *  the calling one (the methods in two halves, each kind's entries while
 *  what comes before it is written, and, while no sort runs, every other
 *  range of 8192 methods or entries formatted into a 1 MiB buffer while
 *  the calling thread writes the range before), so a canonical write of a
 *  large model takes less wall time. The output is the same bytes. Only the calling thread
 *  calls the allocator and the sink; the second thread only reads the
 *  model, which must not change during the write (as always). Ignored
 *  without IPROF_WRITE_CANONICAL and on builds without threads. */
#define IPROF_WRITE_THREADED 0x100u

/** iprof_writer_write_model() writes a model whose input held elements
 *  with keys the library does not read (iprof_model_unread_count()),
 *  without them. Otherwise that write fails with IPROF_ESCHEMA before any
 *  byte is written, naming the first such key, as it would lose them. */
#define IPROF_WRITE_DROP_UNKNOWN 0x200u

/** The version of iprof_write_options these headers define. */
#define IPROF_WRITE_OPTIONS_VERSION 1

/** Writer options. Initialise with IPROF_WRITE_OPTIONS_INIT or
 *  iprof_write_options_init(); zero fields mean "default". */
typedef struct iprof_write_options {
    unsigned int version;             /**< IPROF_WRITE_OPTIONS_VERSION */
    unsigned int flags;               /**< IPROF_WRITE_* */
    const char *format_version;       /**< target version; NULL: see begin/write_model */
    const iprof_allocator *allocator; /**< NULL: libc; copied */
    size_t buffer_size;               /**< output buffer bytes; 0: 256 KiB */
    /** The key of the instanceof section: an enum
     *  iprof_instanceof_key value. AUTO (0): for a whole model, the
     *  spelling it was read with; otherwise GraalVM's "instanceOfProfiles".
     *  Any other value makes writer creation fail with IPROF_EINVAL. */
    int instanceof_key;
} iprof_write_options;

/** Initialiser of an iprof_write_options with every default. */
#define IPROF_WRITE_OPTIONS_INIT {IPROF_WRITE_OPTIONS_VERSION, 0, NULL, NULL, 0, 0}

/**
 * @brief Fill writer options with the defaults of an options version.
 *
 * For FFI users who cannot use IPROF_WRITE_OPTIONS_INIT.
 * @param[out] opts the options to fill (caller-owned; not kept).
 * @param version IPROF_WRITE_OPTIONS_VERSION of the caller's headers.
 * @retval IPROF_OK @p opts is filled.
 * @retval IPROF_EINVAL @p opts is NULL or @p version unknown to this library.
 */
IPROF_API int iprof_write_options_init(iprof_write_options *opts, unsigned int version);

/** Write function of a callback sink: consume @p len bytes of @p data
 *  (borrowed for the call), return 0, or non-zero on failure (the write
 *  then fails with IPROF_EIO). */
typedef int (*iprof_write_fn)(const void *data, size_t len, void *payload);

/**
 * @brief Free a writer.
 *
 * If iprof_writer_end() did not succeed, a path writer removes its
 * temporary file and the target is left as it was.
 * @param writer the writer, or NULL (a no-op). Invalid afterwards, and so
 *        are its error and buffer.
 */
IPROF_API void iprof_writer_free(iprof_writer *writer);

/**
 * @brief Write a whole model: begin, every element in model order, the
 *        model's unknown top-level keys after the section each followed in
 *        its file (keys added later, or following a section the target
 *        version lacks, after the last section), end. The instanceof key is
 *        the options' instanceof_key, else the model's, else GraalVM's.
 * @param writer a writer on which nothing was written yet.
 * @param model the model (borrowed for the call; only read).
 * @retval IPROF_OK the document is complete.
 * @retval IPROF_EVERSION, IPROF_ESCHEMA, IPROF_EDANGLING as for the
 *         streaming calls. The version is the options' format_version,
 *         or the model's if NULL. IPROF_ESCHEMA also, before any byte is
 *         written, for a model whose input held element keys it lacks
 *         (iprof_model_unread_count()) unless IPROF_WRITE_DROP_UNKNOWN.
 * @retval IPROF_ESTATE a call out of the streaming order (see above).
 * @retval IPROF_EIO the sink failed.
 * @retval IPROF_ENOMEM allocation failed.
 * @retval IPROF_EINVAL @p writer is NULL or an argument is invalid.
 * @return after a failure, every later call returns the same status;
 *         iprof_writer_error() describes it.
 * @threadsafety Exception (2) of <iprof/iprof.h>: with IPROF_WRITE_CANONICAL |
 *         IPROF_WRITE_THREADED a second thread reads @p model during the call.
 */
IPROF_API int iprof_writer_write_model(iprof_writer *writer, const iprof_model *model);

/**
 * @brief The error of a failed writer.
 * @param writer the writer.
 * @return the report, or NULL if the writer has not failed. Owned by the
 *         writer: valid until it is freed.
 */
IPROF_API const iprof_error *iprof_writer_error(const iprof_writer *writer);

/**
 * @brief The bytes of a memory writer.
 * @param writer a writer to an IPROF_SINK_BUFFER sink.
 * @param[out] data receives the bytes written so far (all of them after
 *        iprof_writer_end()). Owned by the writer: valid until it is freed
 *        or writes more.
 * @param[out] len receives their count.
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL a NULL argument or a writer with another sink.
 */
IPROF_API int iprof_writer_buffer(const iprof_writer *writer, const void **data, size_t *len);


/** Where a writer's bytes go (iprof_sink.kind). */
enum iprof_sink_kind {
    /** Memory: iprof_writer_buffer() gives the bytes. */
    IPROF_SINK_BUFFER = 0,
    /**
     * path: a file, replaced atomically. Nothing is visible at the path
     * until iprof_writer_end() succeeds: the document goes to a temporary
     * file in the same directory, synced (unless IPROF_WRITE_NO_SYNC) and
     * renamed over the path; IPROF_EIO from a later call when that fails.
     * A path ending in ".gz" is written gzip-compressed, as with
     * IPROF_WRITE_GZIP; through symlinks, the name of the file they finally
     * name decides (a link "p.iprof" to "p.iprof.gz" gets gzip, a link
     * "p.gz" to "p.iprof" text).
     *
     * The temporary file has no name until then where the system allows
     * (Linux's O_TMPFILE), so a process killed mid-write leaves nothing
     * behind; elsewhere it is ".iprof-PID-N.tmp". A file that exists must
     * be writable by the caller, as for a plain open() (a read-only file is
     * refused with IPROF_EIO, "Permission denied"); its replacement keeps
     * its mode and, where the caller may set them, its owner and group.
     *
     * A symlink (or a chain of them) is followed to the file it finally
     * names: that file is replaced, in its own directory and keeping its
     * mode, and the links stay links (a dangling link gets its target
     * created). What is not a regular file is not replaced: a character
     * device or a FIFO is opened and written in place, and a path naming
     * one of the process's descriptors (/dev/stdout, /dev/stderr,
     * /dev/fd/N, /proc/self/fd/N) is written through that descriptor, at
     * its offset, which stays open; such writes are visible as they
     * happen, not atomic. A directory, a block device, a socket or a
     * symlink loop fails with IPROF_EIO and a message saying so.
     *
     * The path is UTF-8, not empty, copied; on Windows converted to UTF-16
     * for the system (docs/api.md, "Files, paths and descriptors").
     */
    IPROF_SINK_PATH = 1,
    /** fd: a descriptor open for writing (on Windows a C runtime
     *  descriptor, set to binary mode); written, not synced, not closed;
     *  must stay open until the writer is freed. */
    IPROF_SINK_FD = 2,
    /** write_fn, write_payload: a write function (see iprof_write_fn),
     *  called from the writer's calls. */
    IPROF_SINK_CALLBACK = 3
};

/** The version of iprof_sink these headers define. */
#define IPROF_SINK_VERSION 1

/** The output of iprof_writer_new(): a kind and that kind's fields (the
 *  others are ignored). Read by iprof_writer_new() only (the path is
 *  copied); not kept. */
typedef struct iprof_sink {
    unsigned int version;    /**< IPROF_SINK_VERSION */
    int kind;                /**< enum iprof_sink_kind */
    const char *path;        /**< PATH: NUL-terminated UTF-8, copied */
    int fd;                  /**< FD: open for writing */
    iprof_write_fn write_fn; /**< CALLBACK: takes the bytes */
    void *write_payload;     /**< CALLBACK: passed to write_fn as is */
} iprof_sink;

/** Initialiser of an iprof_sink into memory. */
#define IPROF_SINK_BUFFER_INIT {IPROF_SINK_VERSION, IPROF_SINK_BUFFER, NULL, -1, NULL, NULL}
/** Initialiser of an iprof_sink to the file at @p path. */
#define IPROF_SINK_PATH_INIT(path) {IPROF_SINK_VERSION, IPROF_SINK_PATH, (path), -1, NULL, NULL}
/** Initialiser of an iprof_sink to descriptor @p fd. */
#define IPROF_SINK_FD_INIT(fd) {IPROF_SINK_VERSION, IPROF_SINK_FD, NULL, (fd), NULL, NULL}
/** Initialiser of an iprof_sink through @p write_fn. */
#define IPROF_SINK_CALLBACK_INIT(write_fn, write_payload) \
    {IPROF_SINK_VERSION, IPROF_SINK_CALLBACK, NULL, -1, (write_fn), (write_payload)}

/**
 * @brief Create a writer to a sink.
 *
 * Each kind writes as enum iprof_sink_kind says.
 * @param[out] out receives the writer, owned by the caller (free it with
 *        iprof_writer_free()); NULL on failure.
 * @param sink where the bytes go (read by this call only).
 * @param opts options, or NULL for the defaults; copied (the allocator
 *        struct too; format_version must stay valid until begin or
 *        write_model), not kept.
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL @p out or @p sink is NULL, @p sink has an unknown
 *         version or kind or an invalid field of its kind (a NULL or empty
 *         path, a negative fd, a NULL write_fn), or @p opts an unknown
 *         version or flag.
 * @retval IPROF_ENOMEM allocation failed.
 */
IPROF_API int iprof_writer_new(iprof_writer **out, const iprof_sink *sink,
                               const iprof_write_options *opts);

#ifdef __cplusplus
}
#endif

#endif /* IPROF_IPROF_H */
