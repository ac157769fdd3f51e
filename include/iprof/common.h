/**
 * @file iprof/common.h
 * @brief Common definitions shared by every part of the API.
 *
 * Status codes, the allocator hook, error reports, profile kinds and the
 * format versions this library knows. Every other public header includes
 * this one; most programs include <iprof/iprof.h> instead.
 *
 * Everything declared here is thread-safe: the functions only read static
 * data or the report passed to them.
 */
#ifndef IPROF_COMMON_H
#define IPROF_COMMON_H

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
 * @threadsafety Thread-safe.
 */
IPROF_API const char *iprof_status_string(int status);

/**
 * @brief The version of the library running, "MAJOR.MINOR.PATCH".
 *
 * Compare with IPROF_VERSION_STRING (the headers compiled against) to
 * detect a header/library mismatch.
 * @return the version string, static storage: never free it.
 * @threadsafety Thread-safe.
 */
IPROF_API const char *iprof_version_string(void);

/**
 * @brief Whether this library reads and writes gzip-compressed profiles.
 *
 * It does when built with zlib (meson option zlib, on by default). Without
 * it, gzip input fails with IPROF_EIO and gzip output (IPROF_WRITE_GZIP, a
 * ".gz" path) fails with IPROF_EIO.
 * @return 1 with gzip support, 0 without.
 * @threadsafety Thread-safe.
 */
IPROF_API int iprof_gzip_supported(void);

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
 * see iprof_instanceof_key_name() for GraalVM's spelling.
 * @param kind an IPROF_KIND_* value.
 * @return the key (static storage: never free it), or NULL when @p kind is
 *         not in 0 .. IPROF_KIND_COUNT - 1.
 * @threadsafety Thread-safe.
 */
IPROF_API const char *iprof_kind_name(int kind);

/**
 * @brief The JSON key of an instanceof spelling.
 * @param spelling IPROF_INSTANCEOF_KEY_LOWER or IPROF_INSTANCEOF_KEY_CAMEL.
 * @return "instanceofProfiles" or "instanceOfProfiles" (static storage),
 *         NULL for any other value.
 * @threadsafety Thread-safe.
 */
IPROF_API const char *iprof_instanceof_key_name(int spelling);

/* ------------------------------------------------------------------------ */
/* Allocator                                                                */

/**
 * A user allocator. Every handle takes one at creation (NULL means libc's
 * malloc/realloc/free) and routes all of its allocations through it, so an
 * application can account, pool or fail allocations. The struct is copied
 * at creation; @c user is passed back untouched. All three functions are
 * required. They are called from the thread that calls into the handle;
 * an allocator shared by handles used in several threads must be
 * thread-safe itself.
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
 * The iprof_error_* accessors only read the report: they may be called
 * from any thread while the handle that owns it is not in use.
 */
typedef struct iprof_error iprof_error;

/** Severity of a report: an error made the operation fail or is a rule
 *  violation recorded in lenient mode; a warning does not invalidate the
 *  file (an unknown 0.x/1.x version, for instance). */
enum iprof_severity {
    IPROF_SEVERITY_ERROR = 0,  /**< an error: the file is invalid */
    IPROF_SEVERITY_WARNING = 1 /**< a warning: the file is still valid */
};

/**
 * @brief The status code of a report.
 * @param err a report (borrowed); NULL is allowed.
 * @return an IPROF_E* code; IPROF_OK for NULL.
 * @threadsafety Thread-safe while the handle owning @p err is not in use.
 */
IPROF_API int iprof_error_status(const iprof_error *err);
/**
 * @brief The severity of a report.
 * @param err a report (borrowed); NULL is allowed.
 * @return an enum iprof_severity value; IPROF_SEVERITY_ERROR for NULL.
 * @threadsafety Thread-safe while the handle owning @p err is not in use.
 */
IPROF_API int iprof_error_severity(const iprof_error *err);
/**
 * @brief The English message of a report.
 * @param err a report (borrowed); NULL is allowed.
 * @return the message, never NULL; "" when there is nothing to say or for
 *         NULL. Owned by the report: valid as long as the report is.
 * @threadsafety Thread-safe while the handle owning @p err is not in use.
 */
IPROF_API const char *iprof_error_message(const iprof_error *err);
/**
 * @brief The JSON path of the element the report is about.
 * @param err a report (borrowed); NULL is allowed.
 * @return the path ("types[3].name"), never NULL; "" for the whole
 *         document, a report without position (but a writer's about an
 *         element), or NULL. Owned by the report: valid as long as the
 *         report is.
 * @threadsafety Thread-safe while the handle owning @p err is not in use.
 */
IPROF_API const char *iprof_error_path(const iprof_error *err);
/**
 * @brief The byte offset of the report in the input.
 * @param err a report (borrowed); NULL is allowed.
 * @return the offset from 0; 0 without a position or for NULL.
 * @threadsafety Thread-safe while the handle owning @p err is not in use.
 */
IPROF_API uint64_t iprof_error_offset(const iprof_error *err);
/**
 * @brief The line of the report in the input.
 * @param err a report (borrowed); NULL is allowed.
 * @return the line, from 1; 0 without a position or for NULL.
 * @threadsafety Thread-safe while the handle owning @p err is not in use.
 */
IPROF_API uint64_t iprof_error_line(const iprof_error *err);
/**
 * @brief The column of the report in the input, counted in bytes.
 * @param err a report (borrowed); NULL is allowed.
 * @return the column, from 1; 0 without a position or for NULL.
 * @threadsafety Thread-safe while the handle owning @p err is not in use.
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
 * @threadsafety Thread-safe while the handle owning @p err is not in use.
 */
IPROF_API int iprof_error_kind(const iprof_error *err);
/**
 * @brief The context a report is about, as ctx text ("5:0<3:2").
 * @param err a report (borrowed); NULL is allowed.
 * @return the text, never NULL; "" when the report names no context. Owned
 *         by the report.
 * @threadsafety Thread-safe while the handle owning @p err is not in use.
 */
IPROF_API const char *iprof_error_context(const iprof_error *err);
/**
 * @brief The type id a report is about.
 * @param err a report (borrowed); NULL is allowed.
 * @param[out] id receives the id (may be NULL).
 * @retval IPROF_OK the report names a type id.
 * @retval IPROF_ENOTFOUND it names none.
 * @threadsafety Thread-safe while the handle owning @p err is not in use.
 */
IPROF_API int iprof_error_type_id(const iprof_error *err, int64_t *id);
/**
 * @brief The method id a report is about.
 * @param err a report (borrowed); NULL is allowed.
 * @param[out] id receives the id (may be NULL).
 * @retval IPROF_OK the report names a method id.
 * @retval IPROF_ENOTFOUND it names none.
 * @threadsafety Thread-safe while the handle owning @p err is not in use.
 */
IPROF_API int iprof_error_method_id(const iprof_error *err, int64_t *id);

/* ------------------------------------------------------------------------ */
/* 1.0: <iprof/iprof.h> */
/* What this build can do, the instanceof spellings as macros and a report
 * in one call; they replace iprof_gzip_supported(),
 * iprof_instanceof_key_name() and the eleven iprof_error_* accessors,
 * which stay until 1.0 (docs/api-1.0.md, 2.5 and 2.7). */

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
 * @threadsafety Thread-safe.
 */
IPROF_API unsigned int iprof_features(void);

/** The document's and the schema's spelling of the instanceof key
 *  (IPROF_INSTANCEOF_KEY_LOWER); iprof_kind_name(IPROF_KIND_INSTANCEOF)
 *  returns it too. */
#define IPROF_INSTANCEOF_KEY_LOWER_NAME "instanceofProfiles"
/** GraalVM's spelling of the instanceof key (IPROF_INSTANCEOF_KEY_CAMEL). */
#define IPROF_INSTANCEOF_KEY_CAMEL_NAME "instanceOfProfiles"

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
 * iprof_reader_damage(), iprof_model_error(), iprof_writer_error(). A
 * NULL report is a report of nothing: status IPROF_OK, severity
 * IPROF_SEVERITY_ERROR, kind -1, "" strings, zero positions and no ids.
 * @param err a report (borrowed); NULL is allowed.
 * @param[out] out the struct to fill; its version must be set
 *        (IPROF_ERROR_INFO_INIT does).
 * @retval IPROF_OK @p out is filled.
 * @retval IPROF_EINVAL @p out is NULL or its version unknown to this
 *         library; @p out is unchanged.
 * @threadsafety Thread-safe while the handle owning @p err is not in use.
 */
IPROF_API int iprof_error_get_info(const iprof_error *err, iprof_error_info *out);

#ifdef __cplusplus
}
#endif
#endif /* IPROF_COMMON_H */
