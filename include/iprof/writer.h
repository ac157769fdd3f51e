/**
 * @file iprof/writer.h
 * @brief The streaming and whole-model writer.
 *
 * A writer produces one iprof document, either element by element
 * (begin; types; methods; entries; end) or from a whole model. By default
 * it writes GraalVM's own layout for the target version: minified, the
 * key order GraalVM uses, empty sections written. So reading a file that
 * GraalVM wrote and writing it back gives the same bytes.
 *
 * By default it writes nothing a strict read would refuse: entries follow
 * their kind's rules, every referenced type and method id was written,
 * ids are unique, signatures hold the declaring and return types (a whole
 * model that a clean load or checked edits vouch for is not checked
 * again). IPROF_WRITE_NO_REFERENCES keeps the entry rules only,
 * IPROF_WRITE_NO_VALIDATE no check at all (for copying lenient models).
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
 * write callback. Output is gzip-compressed for a path ending in ".gz"
 * and for any sink with IPROF_WRITE_GZIP.
 *
 * After any failure the writer is failed: every later call returns the
 * same status; free it (a path writer then removes its temporary file).
 *
 * Threads: a writer is used by one thread at a time (calls on one writer
 * need external synchronisation); different writers may be used from
 * different threads at once.
 */
#ifndef IPROF_WRITER_H
#define IPROF_WRITER_H

#include <iprof/common.h>
#include <iprof/model.h>

#ifdef __cplusplus
extern "C" {
#endif

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
/** Check what a strict read checks beyond the entry rules: every
 *  referenced method and type id was written (IPROF_EDANGLING otherwise),
 *  ids are unique and signatures hold at least the declaring and return
 *  types (IPROF_ESCHEMA otherwise). This is the default now (a writer does
 *  not produce what a strict read refuses); the flag stays for source
 *  compatibility and overrides IPROF_WRITE_NO_REFERENCES. */
#define IPROF_WRITE_STRICT 0x4u
/** Skip every check: write what is given as long as it can be written as
 *  JSON (for copying leniently loaded files). */
#define IPROF_WRITE_NO_VALIDATE 0x8u
/** Path sinks: skip fsync (faster, not durable across a crash). */
#define IPROF_WRITE_NO_SYNC 0x10u
/** Compress the output with gzip, for any sink (a path sink whose name
 *  ends in ".gz" does so without the flag). The gzip header carries no
 *  name and time 0, so equal documents give equal bytes. A library built
 *  without zlib (iprof_gzip_supported() is 0) creates the writer failed:
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

/** The version of iprof_write_options these headers define (2 added
 *  instanceof_key; a version 1 struct is read without it). */
#define IPROF_WRITE_OPTIONS_VERSION 2

/** Writer options. Initialise with IPROF_WRITE_OPTIONS_INIT or
 *  iprof_write_options_init(); zero fields mean "default". */
typedef struct iprof_write_options {
    unsigned int version;             /**< IPROF_WRITE_OPTIONS_VERSION */
    unsigned int flags;               /**< IPROF_WRITE_* */
    const char *format_version;       /**< target version; NULL: see begin/write_model */
    const iprof_allocator *allocator; /**< NULL: libc; copied */
    size_t buffer_size;               /**< output buffer bytes; 0: 256 KiB */
    /** The key of the instanceof section (version 2): an enum
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
 * @threadsafety Thread-safe.
 */
IPROF_API int iprof_write_options_init(iprof_write_options *opts, unsigned int version);

/** Write function of a callback sink: consume @p len bytes of @p data
 *  (borrowed for the call), return 0, or non-zero on failure (the write
 *  then fails with IPROF_EIO). */
typedef int (*iprof_write_fn)(const void *data, size_t len, void *payload);

/* ------------------------------------------------------------------------ */
/* Creating a writer: one per document                                      */

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
 * @threadsafety Thread-safe.
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
 * @threadsafety Thread-safe.
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
 * @threadsafety Thread-safe.
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
 * @threadsafety Thread-safe.
 */
IPROF_API int iprof_writer_new_callback(iprof_writer **out, iprof_write_fn write_fn,
                                        void *write_payload, const iprof_write_options *opts);

/**
 * @brief Free a writer.
 *
 * If iprof_writer_end() did not succeed, a path writer removes its
 * temporary file and the target is left as it was.
 * @param writer the writer, or NULL (a no-op). Invalid afterwards, and so
 *        are its error and buffer.
 * @threadsafety Needs exclusive access to @p writer.
 */
IPROF_API void iprof_writer_free(iprof_writer *writer);

/* ------------------------------------------------------------------------ */
/* Streaming                                                                */

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
 * @threadsafety Needs exclusive access to @p writer.
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
 * @threadsafety Needs exclusive access to @p writer.
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
 * @threadsafety Needs exclusive access to @p writer.
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
 * @threadsafety Needs exclusive access to @p writer.
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
 * @threadsafety Needs exclusive access to @p writer.
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
 * @threadsafety Needs exclusive access to @p writer.
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
 * iprof_writer_new_path() says), gzip-compressed with IPROF_WRITE_GZIP or
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
 * @threadsafety Needs exclusive access to @p writer.
 */
IPROF_API int iprof_writer_raw(iprof_writer *writer, const void *data, size_t len);

/* ------------------------------------------------------------------------ */
/* Whole model                                                              */

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
 * @threadsafety Needs exclusive access to @p writer; @p model may be
 *         read by other threads at the same time, not changed.
 */
IPROF_API int iprof_writer_write_model(iprof_writer *writer, const iprof_model *model);

/* ------------------------------------------------------------------------ */
/* Results                                                                  */

/**
 * @brief The error of a failed writer.
 * @param writer the writer.
 * @return the report, or NULL if the writer has not failed. Owned by the
 *         writer: valid until it is freed.
 * @threadsafety Reads @p writer: not during a call that changes it.
 */
IPROF_API const iprof_error *iprof_writer_error(const iprof_writer *writer);

/**
 * @brief The bytes of a memory writer.
 * @param writer a writer made by iprof_writer_new_buffer().
 * @param[out] data receives the bytes written so far (all of them after
 *        iprof_writer_end()). Owned by the writer: valid until it is freed
 *        or writes more.
 * @param[out] len receives their count.
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL a NULL argument or a writer with another sink.
 * @threadsafety Reads @p writer: not during a call that changes it.
 */
IPROF_API int iprof_writer_buffer(const iprof_writer *writer, const void **data, size_t *len);

/* 1.0: <iprof/iprof.h> */

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
 * Each kind writes as its 0.x function did (iprof_writer_new_buffer(),
 * _path(), _fd(), _callback()); see enum iprof_sink_kind.
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
 * @threadsafety Thread-safe.
 */
IPROF_API int iprof_writer_new(iprof_writer **out, const iprof_sink *sink,
                               const iprof_write_options *opts);

#ifdef __cplusplus
}
#endif
#endif /* IPROF_WRITER_H */
