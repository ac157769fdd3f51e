/*
 * libiprof: common definitions shared by every part of the API.
 *
 * Status codes, the allocator hook, error reports, profile kinds and the
 * format versions this library knows. Every other public header includes
 * this one; most programs include <iprof/iprof.h> instead.
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
 *  default visibility, so only what carries this macro is exported. */
#if defined(IPROF_BUILDING) && defined(__GNUC__)
#define IPROF_API __attribute__((visibility("default")))
#else
#define IPROF_API
#endif

/**
 * Status codes. Every fallible call returns one: IPROF_OK (0) on success,
 * a negative value on failure. They are plain ints so that any FFI can
 * mirror them.
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

/** A short English description of a status code ("no memory", ...).
 *  Never NULL; unknown codes give "unknown status". Static storage. */
IPROF_API const char *iprof_status_string(int status);

/** The library version as "MAJOR.MINOR.PATCH" (static storage). Compare with
 *  the IPROF_VERSION_* macros to detect a header/library mismatch. */
IPROF_API const char *iprof_version_string(void);

/* ------------------------------------------------------------------------ */
/* Format versions                                                          */

/** File-format versions that libiprof reads and writes. 0.4.0 has the
 *  structure of 1.0.0 with another top-level key order; 1.1.0 adds
 *  instanceofProfiles. */
#define IPROF_FORMAT_0_4_0 "0.4.0"
#define IPROF_FORMAT_1_0_0 "1.0.0"
#define IPROF_FORMAT_1_1_0 "1.1.0"
/** The newest format version this library knows. */
#define IPROF_FORMAT_LATEST IPROF_FORMAT_1_1_0

/* ------------------------------------------------------------------------ */
/* Profile kinds                                                            */

/** The six kinds of profile entries, in a fixed numbering used by every
 *  entry callback and model accessor. */
enum iprof_kind {
    IPROF_KIND_CALL_COUNT = 0,     /**< callCountProfiles: [count] */
    IPROF_KIND_CONDITIONAL = 1,    /**< conditionalProfiles: [bci, index, count]* */
    IPROF_KIND_VIRTUAL_INVOKE = 2, /**< virtualInvokeProfiles: [type id, count]* */
    IPROF_KIND_MONITOR = 3,        /**< monitorProfiles: ctx "0:0", [type id, count]* */
    IPROF_KIND_SAMPLING = 4,       /**< samplingProfiles: [count] */
    IPROF_KIND_INSTANCEOF = 5      /**< instanceofProfiles (1.1.0): [type id, count]* */
};
/** Number of profile kinds; kinds are 0 .. IPROF_KIND_COUNT - 1. */
#define IPROF_KIND_COUNT 6

/** The JSON key of a kind ("callCountProfiles", ...), or NULL for an
 *  invalid kind. Static storage. */
IPROF_API const char *iprof_kind_name(int kind);

/* ------------------------------------------------------------------------ */
/* Allocator                                                                */

/**
 * A user allocator. Every handle takes one at creation (NULL means libc's
 * malloc/realloc/free) and routes all of its allocations through it, so an
 * application can account, pool or fail allocations. The struct is copied;
 * @c user is passed back untouched. @c realloc_fn gets the old size so that
 * pool allocators need not store it. All three functions are required.
 */
typedef struct iprof_allocator {
    void *(*malloc_fn)(size_t size, void *user);
    void *(*realloc_fn)(void *ptr, size_t old_size, size_t new_size, void *user);
    void (*free_fn)(void *ptr, size_t size, void *user);
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
 * freed or starts its next operation. Errors that have no input position
 * (an allocation failure, a writer misuse) report offset, line and column 0
 * and an empty path.
 */
typedef struct iprof_error iprof_error;

/** Severity of a report: an error made the operation fail or is a rule
 *  violation recorded in lenient mode; a warning does not invalidate the
 *  file (an unknown 0.x/1.x version, for instance). */
enum iprof_severity { IPROF_SEVERITY_ERROR = 0, IPROF_SEVERITY_WARNING = 1 };

IPROF_API int iprof_error_status(const iprof_error *err);
IPROF_API int iprof_error_severity(const iprof_error *err);
/** Never NULL; "" when there is nothing to say. */
IPROF_API const char *iprof_error_message(const iprof_error *err);
/** The JSON path of the element, "" for the document or no position. */
IPROF_API const char *iprof_error_path(const iprof_error *err);
IPROF_API uint64_t iprof_error_offset(const iprof_error *err);
IPROF_API uint64_t iprof_error_line(const iprof_error *err);
IPROF_API uint64_t iprof_error_column(const iprof_error *err);

#ifdef __cplusplus
}
#endif
#endif /* IPROF_COMMON_H */
