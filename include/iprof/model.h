/**
 * @file iprof/model.h
 * @brief The in-memory model of a profile: lookups, mutation, merge.
 *
 * A model holds the types, methods and profile entries of one profile.
 * Everything lives in arenas owned by the model: names are interned (one
 * copy per distinct string) and contexts are interned (one node per
 * distinct frame sequence, callers shared, so "5:0<3:2" and "4:7<3:2" share
 * the node of "3:2").
 *
 * Lifetimes. Type, method and context pointers stay valid until the model
 * is freed (a removed type or method must not be used after its removal).
 * Entry pointers and the index order of entries of one kind are valid until
 * the next change to entries of that kind.
 *
 * Threads. A model that nobody mutates may be read from any number of
 * threads at once. Mutation needs exclusive access. Accessors of types,
 * methods, contexts and entries only read the model they belong to. One
 * thing happens behind a reader's back: the first lookup by name
 * (iprof_model_type_by_name()), by method key (iprof_model_method_find())
 * or by context (iprof_model_entry_find()) builds that lookup's index,
 * through the model's allocator (threads that race publish one index and
 * free the others). So readers of one model on several threads call the
 * allocator concurrently, which must then be thread-safe (libc's is),
 * unless iprof_model_build_indexes() has built every index before the
 * model is shared: then no reader allocates, but for the first
 * iprof_model_columns() of a kind, which builds and publishes the kind's
 * columns the same way.
 */
#ifndef IPROF_MODEL_H
#define IPROF_MODEL_H

#include <iprof/common.h>
#include <iprof/reader.h>

#ifdef __cplusplus
extern "C" {
#endif

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

/* ------------------------------------------------------------------------ */
/* Creating and loading                                                     */

/**
 * @brief Create an empty model of format version IPROF_FORMAT_LATEST.
 * @param[out] out receives the model, owned by the caller (free it with iprof_model_free()); NULL on failure.
 * @param allocator the allocator for everything the model holds, or NULL for libc; copied.
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL @p out is NULL.
 * @retval IPROF_ENOMEM allocation failed.
 * @threadsafety Thread-safe.
 */
IPROF_API int iprof_model_new(iprof_model **out, const iprof_allocator *allocator);

/**
 * @brief Free a model and everything it owns.
 * @param model the model, or NULL (a no-op). Every type, method, context, entry and string obtained from it becomes invalid.
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API void iprof_model_free(iprof_model *model);

/**
 * @brief Load a model from a document in memory.
 *
 * @p reader supplies the options (strictness, allocator) and keeps the error and diagnostics of the load. On failure *out is set to NULL and nothing is allocated.
 * @param[out] out receives the model, owned by the caller; NULL on failure.
 * @param reader the reader to read with (borrowed; must outlive nothing: the model does not keep it).
 * @param data the document (borrowed for the call).
 * @param len its length in bytes.
 * @return as iprof_reader_read_buffer(); iprof_reader_error() describes a failure.
 * @threadsafety Needs exclusive access to @p reader.
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
 * @threadsafety Needs exclusive access to @p reader.
 */
IPROF_API int iprof_model_load_path(iprof_model **out, iprof_reader *reader, const char *path);
/**
 * @brief Load a model from an open file descriptor (not closed); see iprof_model_load_buffer().
 * @param[out] out receives the model, owned by the caller; NULL on failure.
 * @param reader the reader to read with (borrowed).
 * @param fd a descriptor open for reading (borrowed: not closed); on
 *        Windows a C runtime descriptor (_open, _fileno), set to binary mode.
 * @return as iprof_reader_read_fd().
 * @threadsafety Needs exclusive access to @p reader.
 */
IPROF_API int iprof_model_load_fd(iprof_model **out, iprof_reader *reader, int fd);
/**
 * @brief Load a model from a read function; see iprof_model_load_buffer().
 * @param[out] out receives the model, owned by the caller; NULL on failure.
 * @param reader the reader to read with (borrowed).
 * @param read_fn the read function (see iprof_read_fn).
 * @param read_payload passed to @p read_fn as is.
 * @return as iprof_reader_read_callback().
 * @threadsafety Needs exclusive access to @p reader.
 */
IPROF_API int iprof_model_load_callback(iprof_model **out, iprof_reader *reader,
                                        iprof_read_fn read_fn, void *read_payload);

/**
 * @brief The format version of the model ("1.0.0").
 * @param model the model (borrowed).
 * @return the version string, owned by the model: valid until it is freed or its version is set.
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
 */
IPROF_API const char *iprof_model_version(const iprof_model *model);

/**
 * @brief Change the format version recorded in the model.
 * @param model the model.
 * @param version MAJOR.MINOR.PATCH of a version the writer writes (copied):
 *        0.2.x (GraalVM's legacy layout, IPROF_FORMAT_0_2_0), another 0.x
 *        from 0.3 on, or 1.x.
 * @retval IPROF_OK success.
 * @retval IPROF_EVERSION a version before 0.2, from 2.0 on, or malformed.
 * @retval IPROF_EINVAL a NULL argument.
 * @retval IPROF_ENOMEM allocation failed.
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API int iprof_model_set_version(iprof_model *model, const char *version);

/* ------------------------------------------------------------------------ */
/* Types                                                                    */

/**
 * @brief Build every lookup index now, so that later lookups never
 *        allocate (and never call the model's allocator).
 *
 * Lookups by name, method key and context otherwise build their index on
 * first use. Call this before reading one model from several threads when
 * its allocator is not thread-safe. Indexes stay built until a change that
 * invalidates them (a removal, a retain). Columns are not indexes:
 * iprof_model_columns() still allocates on its first call for a kind.
 * @param model the model.
 * @retval IPROF_OK every index is built.
 * @retval IPROF_ENOMEM an index could not be built (lookups still work,
 *         by scanning).
 * @retval IPROF_EINVAL @p model is NULL.
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API int iprof_model_build_indexes(iprof_model *model);

/**
 * @brief The number of types.
 * @param model the model (borrowed).
 * @return the count.
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
 */
IPROF_API size_t iprof_model_type_count(const iprof_model *model);
/**
 * @brief The type at an index, in file order.
 * @param model the model (borrowed).
 * @param index 0 .. iprof_model_type_count() - 1.
 * @return the type (owned by the model), or NULL if out of range.
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
 */
IPROF_API const iprof_type *iprof_model_type_at(const iprof_model *model, size_t index);
/**
 * @brief Look up a type by id, in O(1).
 * @param model the model (borrowed).
 * @param id the type id.
 * @return the type (owned by the model), or NULL if absent.
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
 */
IPROF_API const iprof_type *iprof_model_type_by_id(const iprof_model *model, int64_t id);
/**
 * @brief Look up a type by name, in O(1).
 * @param model the model (borrowed).
 * @param name @p name_len bytes (borrowed for the call).
 * @param name_len the length of @p name.
 * @return the first type of that name if a file repeats a name (owned by the model), or NULL.
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
 */
IPROF_API const iprof_type *iprof_model_type_by_name(const iprof_model *model,
                                                     const char *name, size_t name_len);

/**
 * @brief The id of a type.
 * @param type a type of a model (borrowed).
 * @return its id.
 * @threadsafety Reads the model the object belongs to: any number of threads at once, while nobody changes it.
 */
IPROF_API int64_t iprof_type_id(const iprof_type *type);
/**
 * @brief The name of a type.
 * @param type a type of a model (borrowed).
 * @param[out] len receives the name's length if not NULL.
 * @return the interned name, NUL-terminated (it may contain NUL bytes: use @p len); owned by the model.
 * @threadsafety Reads the model the object belongs to: any number of threads at once, while nobody changes it.
 */
IPROF_API const char *iprof_type_name(const iprof_type *type, size_t *len);

/* ------------------------------------------------------------------------ */
/* Methods                                                                  */

/**
 * @brief The number of methods.
 * @param model the model (borrowed).
 * @return the count.
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
 */
IPROF_API size_t iprof_model_method_count(const iprof_model *model);
/**
 * @brief The method at an index, in file order.
 * @param model the model (borrowed).
 * @param index 0 .. iprof_model_method_count() - 1.
 * @return the method (owned by the model), or NULL if out of range.
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
 */
IPROF_API const iprof_method *iprof_model_method_at(const iprof_model *model, size_t index);
/**
 * @brief Look up a method by id, in O(1).
 * @param model the model (borrowed).
 * @param id the method id.
 * @return the method (owned by the model), or NULL if absent.
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
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
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
 */
IPROF_API const iprof_method *iprof_model_method_find(const iprof_model *model,
                                                      const char *name, size_t name_len,
                                                      const int64_t *signature,
                                                      size_t signature_len);

/**
 * @brief The id of a method.
 * @param method a method of a model (borrowed).
 * @return its id.
 * @threadsafety Reads the model the object belongs to: any number of threads at once, while nobody changes it.
 */
IPROF_API int64_t iprof_method_id(const iprof_method *method);
/**
 * @brief The name of a method.
 * @param method a method of a model (borrowed).
 * @param[out] len receives the name's length if not NULL.
 * @return the interned name, NUL-terminated; owned by the model.
 * @threadsafety Reads the model the object belongs to: any number of threads at once, while nobody changes it.
 */
IPROF_API const char *iprof_method_name(const iprof_method *method, size_t *len);
/**
 * @brief The signature type ids of a method.
 * @param method a method of a model (borrowed).
 * @param[out] len receives the number of ids if not NULL.
 * @return the ids (declaring type, return type, parameters), owned by the model.
 * @threadsafety Reads the model the object belongs to: any number of threads at once, while nobody changes it.
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
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
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
 * @threadsafety Reads the model the object belongs to: any number of threads at once, while nobody changes it.
 */
IPROF_API size_t iprof_context_depth(const iprof_context *ctx);
/**
 * @brief The method id of the first (callee) frame.
 * @param ctx a context of a model (borrowed).
 * @return the method id.
 * @threadsafety Reads the model the object belongs to: any number of threads at once, while nobody changes it.
 */
IPROF_API int64_t iprof_context_method_id(const iprof_context *ctx);
/**
 * @brief The bci of the first (callee) frame.
 * @param ctx a context of a model (borrowed).
 * @return the bci.
 * @threadsafety Reads the model the object belongs to: any number of threads at once, while nobody changes it.
 */
IPROF_API int64_t iprof_context_bci(const iprof_context *ctx);
/**
 * @brief The context without its first frame (the caller's).
 * @param ctx a context of a model (borrowed).
 * @return the caller's context (owned by the model), NULL for depth 1.
 * @threadsafety Reads the model the object belongs to: any number of threads at once, while nobody changes it.
 */
IPROF_API const iprof_context *iprof_context_caller(const iprof_context *ctx);
/**
 * @brief Copy the frames of a context.
 * @param ctx a context of a model (borrowed).
 * @param[out] frames receives up to @p max_frames frames, interleaved (method id, bci), callee first: 2 * @p max_frames numbers (caller-owned).
 * @param max_frames the capacity of @p frames in frames.
 * @return the depth (more than @p max_frames if truncated).
 * @threadsafety Reads the model the object belongs to: any number of threads at once, while nobody changes it.
 */
IPROF_API size_t iprof_context_frames(const iprof_context *ctx, int64_t *frames,
                                      size_t max_frames);
/**
 * @brief The ctx text of a context ("5:0<3:2").
 * @param ctx a context of a model (borrowed).
 * @param[out] buf receives the text, NUL-terminated and truncated to @p size bytes (caller-owned).
 * @param size the size of @p buf.
 * @return the full length of the text (snprintf convention).
 * @threadsafety Reads the model the object belongs to: any number of threads at once, while nobody changes it.
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
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
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
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
 */
IPROF_API size_t iprof_model_context_count(const iprof_model *model);

/* ------------------------------------------------------------------------ */
/* Entries                                                                  */

/**
 * @brief The number of entries of a kind.
 * @param model the model (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @return the count, 0 for an invalid kind.
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
 */
IPROF_API size_t iprof_model_entry_count(const iprof_model *model, int kind);
/**
 * @brief The entry at an index of a kind, in file order.
 * @param model the model (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @param index 0 .. iprof_model_entry_count() - 1.
 * @return the entry (owned by the model; valid until entries of @p kind change), or NULL if out of range.
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
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
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
 */
IPROF_API const iprof_entry *iprof_model_entry_find(const iprof_model *model, int kind,
                                                    const int64_t *frames,
                                                    size_t frame_count);

/**
 * @brief The kind of an entry.
 * @param entry an entry of a model (borrowed).
 * @return its IPROF_KIND_* value.
 * @threadsafety Reads the model the object belongs to: any number of threads at once, while nobody changes it.
 */
IPROF_API int iprof_entry_kind(const iprof_entry *entry);
/**
 * @brief The context of an entry.
 * @param entry an entry of a model (borrowed).
 * @return the interned context, owned by the model (valid until it is freed).
 * @threadsafety Reads the model the object belongs to: any number of threads at once, while nobody changes it.
 */
IPROF_API const iprof_context *iprof_entry_context(const iprof_entry *entry);
/**
 * @brief The records of an entry.
 * @param entry an entry of a model (borrowed).
 * @param[out] len receives the number of records if not NULL.
 * @return the records, owned by the model (valid as long as @p entry).
 * @threadsafety Reads the model the object belongs to: any number of threads at once, while nobody changes it.
 */
IPROF_API const int64_t *iprof_entry_records(const iprof_entry *entry, size_t *len);

/* ------------------------------------------------------------------------ */
/* Columns: every entry of a kind at once                                   */

/** The version of iprof_columns these headers define. */
#define IPROF_COLUMNS_VERSION 1

/**
 * The entries of one kind as columns, filled by iprof_model_get_columns()
 * (or the 0.x iprof_model_columns(), the same call under its old name):
 * every record in one buffer with offsets, and each entry's context, as
 * the context node and as its frames in one buffer with offsets. Entry i
 * is the entry iprof_model_entry_at(model, kind, i). Set version (the
 * IPROF_COLUMNS_INIT macro does) before the call; the library fills the
 * members of that version.
 *
 * Lifetime: the arrays belong to the model. They are built on the first
 * call for a kind and kept, so later calls cost nothing; they stay valid
 * until the next change to entries of the kind (as entry pointers do) or
 * until the model is freed, whichever comes first. A change to the kind's
 * entries frees them; the next call builds them again.
 */
typedef struct iprof_columns {
    unsigned int version;          /**< IPROF_COLUMNS_VERSION; set by the caller */
    int kind;                      /**< the kind (IPROF_KIND_*) */
    size_t count;                  /**< the number of entries */
    size_t record_count;           /**< the number of records of all entries */
    const int64_t *records;        /**< record_count records, entry after entry, each entry's in order */
    const uint64_t *offsets;       /**< count + 1 offsets: entry i's records are records[offsets[i]] up to, not including, records[offsets[i + 1]]; offsets[count] = record_count */
    const iprof_context *const *contexts; /**< count contexts: entry i's */
    size_t frame_count;            /**< the number of frames of all entries' contexts */
    const int64_t *frames;         /**< 2 * frame_count numbers: each entry's frames as (method id, bci) pairs, callee first, entry after entry */
    const uint64_t *frame_offsets; /**< count + 1 offsets in frames (pairs): entry i's frames are pairs frame_offsets[i] up to, not including, frame_offsets[i + 1] */
} iprof_columns;

/** Initialiser of an iprof_columns: this version, nothing filled. */
#define IPROF_COLUMNS_INIT {IPROF_COLUMNS_VERSION, 0, 0, 0, NULL, NULL, NULL, 0, NULL, NULL}

/**
 * @brief The 0.x name of iprof_model_get_columns() (see there), which it
 *        calls; it goes in 1.0.
 * @param model the model (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @param[in,out] out its version set by the caller; receives the columns.
 * @return as iprof_model_get_columns().
 * @threadsafety As iprof_model_get_columns().
 */
IPROF_API int iprof_model_columns(const iprof_model *model, int kind, iprof_columns *out);

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

/** A predicate over types (iprof_model_retain_types()): return non-zero to
 *  keep the type, 0 to drop it. The same function type as
 *  iprof_model_type_cb, whose meaning (non-zero stops) differs: code
 *  written with the old name for retain still compiles. */
typedef int (*iprof_model_type_pred)(const iprof_type *type, void *payload);
/** A predicate over methods (iprof_model_retain_methods()): non-zero keeps
 *  the method. */
typedef int (*iprof_model_method_pred)(const iprof_method *method, void *payload);
/** A predicate over entries (iprof_model_retain_entries()): non-zero keeps
 *  the entry. */
typedef int (*iprof_model_entry_pred)(const iprof_entry *entry, void *payload);

/**
 * @brief Call @p cb for every type, in file order.
 * @param model the model (borrowed).
 * @param cb the callback; it must not change the model.
 * @param payload passed to @p cb as is.
 * @retval IPROF_OK every type was visited.
 * @retval IPROF_ESTOPPED @p cb returned non-zero.
 * @retval IPROF_EINVAL a NULL argument.
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
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
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
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
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it.
 */
IPROF_API int iprof_model_foreach_entry(const iprof_model *model, int kind,
                                        iprof_model_entry_cb cb, void *payload);

/* ------------------------------------------------------------------------ */
/* Mutation                                                                 */

/**
 * @brief Add a type.
 * @param model the model.
 * @param id the new type's id.
 * @param name @p name_len bytes (copied, interned); NULL only with a
 *        @p name_len of 0 (the empty name).
 * @param name_len the length of @p name.
 * @param[out] out receives the new type (owned by the model) if not NULL.
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL the id is taken, a NULL argument, or a name that is
 *         not valid UTF-8 (it could not be written).
 * @retval IPROF_ELIMIT a name longer than 4294967295 bytes, or a model that
 *         holds 4294967294 types already.
 * @retval IPROF_ENOMEM allocation failed.
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API int iprof_model_add_type(iprof_model *model, int64_t id, const char *name,
                                   size_t name_len, const iprof_type **out);
/**
 * @brief Remove a type by id.
 *
 * References to it from methods or records are not checked: remove those first. The removed type must not be used afterwards.
 * @param model the model.
 * @param id the type id.
 * @retval IPROF_OK success.
 * @retval IPROF_ENOTFOUND no such type.
 * @retval IPROF_EINVAL @p model is NULL.
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API int iprof_model_remove_type(iprof_model *model, int64_t id);

/**
 * @brief Add a method.
 * @param model the model.
 * @param id the new method's id.
 * @param name @p name_len bytes (copied, interned); NULL only with a
 *        @p name_len of 0 (the empty name).
 * @param name_len the length of @p name.
 * @param signature declaring type id, return type id, parameter type ids (copied).
 * @param signature_len the number of ids.
 * @param[out] out receives the new method (owned by the model) if not NULL.
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL the id is taken, a NULL argument, or a name that is
 *         not valid UTF-8 (it could not be written).
 * @retval IPROF_EDANGLING a signature type id is not a type of the model.
 * @retval IPROF_ELIMIT a name longer than 4294967295 bytes, or a model that
 *         holds 4294967294 methods already.
 * @retval IPROF_ENOMEM allocation failed.
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API int iprof_model_add_method(iprof_model *model, int64_t id, const char *name,
                                     size_t name_len, const int64_t *signature,
                                     size_t signature_len, const iprof_method **out);
/**
 * @brief Remove a method by id.
 *
 * Entries whose contexts mention it are not checked: remove those first. The removed method must not be used afterwards.
 * @param model the model.
 * @param id the method id.
 * @retval IPROF_OK success.
 * @retval IPROF_ENOTFOUND no such method.
 * @retval IPROF_EINVAL @p model is NULL.
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API int iprof_model_remove_method(iprof_model *model, int64_t id);

/**
 * Add an entry of @p kind. If an entry of that kind with that context
 * exists, the records are combined by the kind's meaning: call count and
 * sampling counts are summed; conditional triples are matched by
 * (bci, index) and occurrence, the i-th triple of a (bci, index) given
 * meeting the i-th of the entry's, and their counts summed (a repeated
 * triple is a record of its own to GraalVM: see
 * iprof_entry_branch_probabilities()); virtual invoke, monitor and
 * instanceof pairs are matched by type id and their counts summed (into
 * the first match when the entry or the input repeats a type). Triples
 * and pairs that meet none are appended in their order; then a valid bci
 * that both sides have gets the larger of their winning indexes (GraalVM
 * gives a bci its last triple's index): the last triple of that index
 * moves behind the bci's others, so the result does not depend on which
 * side came first. A new entry keeps
 * its records as given, repeated keys too (as a load keeps a file's; the
 * canonical form combines repeated types, never triples). Sums saturate
 * at INT64_MAX (and at INT64_MIN: counts may be negative). Saturation makes
 * sums depend on their order only when a sum passes the int64 range and
 * counts of both signs meet in it (GraalVM writes no negative counts).
 *
 * Fails, changing nothing, with IPROF_ESCHEMA when the records or the
 * context break the kind's rules, IPROF_EDANGLING when a method id of the
 * context (other than the monitor's dummy 0:0) or a type id of the records
 * is not in the model, IPROF_EINVAL for a bad kind or no frames.
 *
 * @param model the model.
 * @param kind an IPROF_KIND_* value.
 * @param frames @p frame_count (method id, bci) pairs, callee first
 *        (copied; the context is interned).
 * @param frame_count the number of frames.
 * @param records @p record_count numbers (copied).
 * @param record_count the number of records.
 * @retval IPROF_OK success; entry pointers of @p kind are invalid
 *         afterwards.
 * @retval IPROF_ESCHEMA the records or the context break the kind's rules.
 * @retval IPROF_EDANGLING an id that is not in the model.
 * @retval IPROF_EINVAL a bad kind, no frames or a NULL argument.
 * @retval IPROF_ENOMEM allocation failed.
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API int iprof_model_add_entry(iprof_model *model, int kind, const int64_t *frames,
                                    size_t frame_count, const int64_t *records,
                                    size_t record_count);
/**
 * @brief Remove the entry of a kind with a context.
 * @param model the model.
 * @param kind an IPROF_KIND_* value.
 * @param frames @p frame_count (method id, bci) pairs, callee first (borrowed for the call).
 * @param frame_count the number of frames.
 * @retval IPROF_OK success; entry pointers of @p kind are invalid afterwards.
 * @retval IPROF_ENOTFOUND no such entry.
 * @retval IPROF_EINVAL a NULL argument or an invalid kind.
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API int iprof_model_remove_entry(iprof_model *model, int kind, const int64_t *frames,
                                       size_t frame_count);

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
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API int iprof_model_retain_entries(iprof_model *model, int kind,
                                         iprof_model_entry_pred keep, void *payload);
/** A predicate over one frame of a context: return non-zero to keep it. */
typedef int (*iprof_frame_pred)(int64_t method_id, int64_t bci, void *payload);

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
 * @threadsafety Needs exclusive access to @p model.
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
 * @threadsafety Needs exclusive access to @p model.
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
 * @threadsafety Needs exclusive access to @p model.
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
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API int iprof_model_retain_types(iprof_model *model, iprof_model_type_pred keep,
                                       void *payload);

/* ------------------------------------------------------------------------ */
/* Editing records                                                          */

/**
 * @brief Replace the records of an entry.
 *
 * The entry of @p kind with this context (the first, if a lenient load
 * kept several) gets @p records instead of its own, under the rules of
 * iprof_model_add_entry(): the kind's record layout and context rules
 * (IPROF_ESCHEMA) and defined type ids (IPROF_EDANGLING). Nothing changes
 * on failure; iprof_model_error() says why.
 * @param model the model.
 * @param kind an IPROF_KIND_* value.
 * @param frames @p frame_count (method id, bci) pairs, callee first
 *        (borrowed for the call).
 * @param frame_count the number of frames.
 * @param records the new records (copied).
 * @param record_count their number.
 * @retval IPROF_OK success; pointers to the entry's old records are
 *         invalid afterwards.
 * @retval IPROF_ENOTFOUND no entry of that kind has this context.
 * @retval IPROF_ESCHEMA, IPROF_EDANGLING, IPROF_ELIMIT as for add.
 * @retval IPROF_EINVAL a NULL argument or a bad kind.
 * @retval IPROF_ENOMEM allocation failed.
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API int iprof_model_set_entry_records(iprof_model *model, int kind, const int64_t *frames,
                                            size_t frame_count, const int64_t *records,
                                            size_t record_count);

/** Called by iprof_model_map_records() with an entry (borrowed, read
 *  only) and a writable copy of its @p record_count records: change them
 *  in place and return 0, or non-zero to stop (nothing is changed then). */
typedef int (*iprof_records_fn)(const iprof_entry *entry, int64_t *records, size_t record_count,
                                void *payload);

/**
 * @brief Rewrite the records of every entry of a kind with a function.
 *
 * @p fn sees each entry in order with a copy of its records and edits the
 * copy (the number of records stays). Once every call returned 0, the new
 * records are checked like iprof_model_set_entry_records() checks them and
 * only then stored, so a stop or a failed check changes nothing.
 * @param model the model.
 * @param kind an IPROF_KIND_* value.
 * @param fn the function; it must not change the model.
 * @param payload passed to @p fn as is.
 * @retval IPROF_OK every entry was rewritten.
 * @retval IPROF_ESTOPPED @p fn returned non-zero; unchanged.
 * @retval IPROF_ESCHEMA, IPROF_EDANGLING new records break the kind's
 *         rules or name an undefined type; unchanged, iprof_model_error()
 *         names the entry.
 * @retval IPROF_EINVAL a NULL argument or a bad kind.
 * @retval IPROF_ENOMEM the copies (8 bytes per record of the kind) could
 *         not be allocated.
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API int iprof_model_map_records(iprof_model *model, int kind, iprof_records_fn fn,
                                      void *payload);

/**
 * @brief Multiply the counts of a model, or of one kind, by a weight.
 *
 * The count slot of every record (call count and sampling: the value;
 * conditional: every third; virtual invoke, monitor, instanceof: every
 * second) is multiplied by @p weight and rounded as @p rounding says,
 * saturating at the int64 range; whole-number weights are exact. Ids,
 * bcis and indexes are not touched.
 * @param model the model.
 * @param kind an IPROF_KIND_* value, or -1 for every kind.
 * @param weight finite and >= 0.
 * @param rounding an enum iprof_rounding value.
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL a NULL model, a bad kind, weight or rounding
 *         (iprof_model_error() says which); unchanged.
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API int iprof_model_scale(iprof_model *model, int kind, double weight, int rounding);

/* ------------------------------------------------------------------------ */
/* What the file held beyond the profile                                    */

/**
 * @brief The number of unknown top-level keys the model keeps.
 *
 * A loaded model keeps every top-level key the library does not interpret
 * (a fork's "ceConditionalProfilesV2", GraalVM's unpublished
 * "virtualInvokeMethodProfiles") with its raw JSON and its place among the
 * keys, and the writer puts them back there, so writing a model loses
 * nothing. Merges and the canonical form, which renumber ids, keep only
 * values that hold no ids ([], {}, or a scalar equal wherever the key
 * occurs) and otherwise fail unless asked to drop unknown keys
 * (IPROF_MERGE_DROP_UNKNOWN, IPROF_CANONICAL_DROP_UNKNOWN); filters and
 * version changes keep them.
 * @param model the model; NULL gives 0.
 * @return the number of unknown keys, in file order.
 * @threadsafety Reads @p model only.
 */
IPROF_API size_t iprof_model_unknown_count(const iprof_model *model);
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
 * @threadsafety Reads @p model only.
 */
IPROF_API size_t iprof_model_unread_count(const iprof_model *model, const char **first);
/**
 * @brief One unknown top-level key and its raw JSON value.
 * @param model the model.
 * @param index 0 .. iprof_model_unknown_count() - 1.
 * @param[out] key receives the key (UTF-8, NUL-terminated, owned by the
 *        model: valid until the key is removed or the model freed).
 * @param[out] key_len receives its length in bytes, or NULL.
 * @param[out] json receives the value exactly as the file held it
 *        (NUL-terminated; same lifetime).
 * @param[out] json_len receives its length in bytes, or NULL.
 * @retval IPROF_OK success.
 * @retval IPROF_ENOTFOUND @p index is out of range.
 * @retval IPROF_EINVAL a NULL @p model, @p key or @p json.
 * @threadsafety Reads @p model only.
 */
IPROF_API int iprof_model_unknown_at(const iprof_model *model, size_t index, const char **key,
                                     size_t *key_len, const char **json, size_t *json_len);
/**
 * @brief Add an unknown top-level key; it is written after every section.
 * @param model the model.
 * @param key the key, @p key_len bytes of UTF-8 (copied).
 * @param key_len its length.
 * @param json its value: exactly one JSON value, whitespace around it
 *        allowed (copied, written as given).
 * @param json_len its length.
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL a NULL argument, a key the library interprets
 *         ("version", "types", a profile section in either spelling), or a
 *         key that is not valid UTF-8.
 * @retval IPROF_ESYNTAX @p json is not one JSON value.
 * @retval IPROF_ENOMEM allocation failed.
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API int iprof_model_add_unknown(iprof_model *model, const char *key, size_t key_len,
                                      const char *json, size_t json_len);
/**
 * @brief Remove every unknown top-level key named @p key, or, with a NULL
 *        @p key, every unknown top-level key.
 * @param model the model.
 * @param key the key, @p key_len bytes (borrowed for the call), or NULL
 *        (with a @p key_len of 0) for every key, as
 *        iprof_model_clear_unknown() does.
 * @param key_len its length.
 * @retval IPROF_OK removed (with a NULL @p key also when the model kept
 *         none); pointers from iprof_model_unknown_at() are invalid
 *         afterwards.
 * @retval IPROF_ENOTFOUND the model keeps no key named @p key.
 * @retval IPROF_EINVAL a NULL @p model, or a NULL @p key with a non-zero
 *         @p key_len.
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API int iprof_model_remove_unknown(iprof_model *model, const char *key, size_t key_len);
/**
 * @brief Remove every unknown top-level key: iprof_model_remove_unknown()
 *        with a NULL key, which replaces this call in 1.0 (this one leaves
 *        the model's error as it was).
 * @param model the model, or NULL (a no-op).
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API void iprof_model_clear_unknown(iprof_model *model);

/**
 * @brief The spelling of the instanceof key the model was read with.
 * @param model the model.
 * @return IPROF_INSTANCEOF_KEY_LOWER ("instanceofProfiles") or
 *         IPROF_INSTANCEOF_KEY_CAMEL ("instanceOfProfiles") when the file
 *         had the section, else IPROF_INSTANCEOF_KEY_AUTO (the writer then
 *         uses GraalVM's CAMEL spelling). A merge takes the spelling of its
 *         inputs, and CAMEL when they disagree.
 * @threadsafety Reads @p model only.
 */
IPROF_API int iprof_model_instanceof_key(const iprof_model *model);
/**
 * @brief Set the spelling the writer uses for this model by default.
 * @param model the model.
 * @param spelling an enum iprof_instanceof_key value.
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL a NULL model or an unknown value.
 * @threadsafety Needs exclusive access to @p model.
 */
IPROF_API int iprof_model_set_instanceof_key(iprof_model *model, int spelling);

/**
 * @brief The report of the model operation that failed last.
 *
 * Merges, the canonical form and iprof_model_add_unknown() say here why
 * they failed (which unknown key could not be combined, which argument was
 * wrong). Positions are 0 and the path empty.
 * @param model the model.
 * @return the report, or NULL when the last such operation succeeded (or
 *         none ran). Owned by the model: valid until its next operation.
 * @threadsafety Reads @p model only.
 */
IPROF_API const iprof_error *iprof_model_error(const iprof_model *model);

/* ------------------------------------------------------------------------ */
/* Merge                                                                    */

/**
 * Merge @p src into @p dst, as native-image-configure merge-pgo-profiles
 * does. Types are matched by name and methods by (declaring type name,
 * name, signature type names); what dst lacks is added, keeping the src id
 * when dst does not use it and taking max id + 1 otherwise. Entries are
 * remapped to dst ids and added with iprof_model_add_entry semantics, their
 * counts multiplied by @p weight first (rounded to the nearest integer,
 * halves away from zero, saturating; integral weights are exact;
 * iprof_model_merge_with() chooses another rounding). @p weight must be
 * finite and >= 0.
 *
 * The merged model has the highest format version of its inputs: src's
 * version when dst is a new model whose version was never read or set,
 * or when src's is higher (so merging files one by one into a new model
 * gives the highest version among them, as `iprof merge` writes).
 *
 * Fails with IPROF_EDANGLING, changing nothing, if src has references that
 * do not resolve within src, and with IPROF_ESCHEMA if either model keeps
 * unknown top-level keys that cannot be combined (see
 * iprof_model_merge_with()). dst and src must be different models;
 * iprof_model_error(dst) says why a merge failed.
 *
 * @param dst the model merged into.
 * @param src the model merged from (borrowed for the call; only read).
 * @param weight the factor for src's counts, finite and >= 0.
 * @retval IPROF_OK success.
 * @retval IPROF_EDANGLING src has unresolved references; dst unchanged.
 * @retval IPROF_EINVAL a NULL argument, dst == src, or a bad weight.
 * @retval IPROF_ENOMEM allocation failed; dst unchanged (every failure
 *         of a merge leaves dst as it was).
 * @threadsafety Needs exclusive access to @p dst; @p src may be read by
 *         other threads at the same time, not changed.
 */
IPROF_API int iprof_model_merge(iprof_model *dst, const iprof_model *src, double weight);

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

/** The version of iprof_merge_options these headers define. */
#define IPROF_MERGE_OPTIONS_VERSION 1

/** Options of iprof_model_merge_with(). Initialise with
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
 * @threadsafety Thread-safe.
 */
IPROF_API int iprof_merge_options_init(iprof_merge_options *opts, unsigned int version);

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
 * @threadsafety As iprof_model_merge().
 */
IPROF_API int iprof_model_merge_with(iprof_model *dst, const iprof_model *src,
                                     const iprof_merge_options *opts);

/* ------------------------------------------------------------------------ */
/* Streaming merge                                                          */

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
 * @threadsafety Needs exclusive access to @p dst and @p reader.
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
 * @threadsafety Needs exclusive access to @p dst and @p reader.
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
 * @threadsafety Needs exclusive access to @p dst and @p reader.
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
 * @threadsafety Needs exclusive access to @p dst and @p reader.
 */
IPROF_API int iprof_model_merge_callback(iprof_model *dst, iprof_reader *reader,
                                         iprof_read_fn read_fn, void *read_payload,
                                         const iprof_merge_options *opts);

/* ------------------------------------------------------------------------ */
/* 1.0: <iprof/edit.h> */

/** The flag of 1.0's iprof_model_remove_method(model, id, flags): also
 *  remove every entry, of any kind, whose context names the method in any
 *  frame, leaving nothing that names it but unknown top-level keys. In 0.x
 *  iprof_model_drop_method() is that cascade. */
#define IPROF_REMOVE_CASCADE 0x1u

/* ------------------------------------------------------------------------ */
/* 1.0: <iprof/analysis.h> */

/**
 * @brief Every entry of a kind as columns (see iprof_columns), built on the
 *        first call for the kind and kept by the model.
 *
 * Built in one pass over the kind's entries (a copy of their records and
 * the frames of their contexts, through the model's allocator) and kept
 * until entries of the kind change, so bindings can hand the buffers out
 * without copying (Python: memoryviews for numpy; Rust: slices; Java:
 * MemorySegments). Like the model's lookup indexes, the first call on a
 * model that several threads read may run on any of them: threads that
 * race build one view each, publish one and free the others.
 * @param model the model (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @param[in,out] out its version set by the caller (1 .. IPROF_COLUMNS_VERSION); receives the columns, which the model owns (valid until entries of @p kind change or the model is freed).
 * @retval IPROF_OK @p out is filled (count 0 and empty arrays, not NULL, for a kind without entries).
 * @retval IPROF_EINVAL a NULL argument, an invalid kind or an unknown version; @p out is unchanged.
 * @retval IPROF_ENOMEM out of memory; @p out is unchanged and the model too.
 * @threadsafety Reads @p model: any number of threads at once, while nobody changes it (the first call allocates through the model's allocator, as the lazy indexes do).
 */
IPROF_API int iprof_model_get_columns(const iprof_model *model, int kind, iprof_columns *out);

#ifdef __cplusplus
}
#endif
#endif /* IPROF_MODEL_H */
