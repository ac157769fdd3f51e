/*
 * libiprof: the in-memory model of a profile.
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
 * threads at once: no accessor writes to the model. Mutation needs
 * exclusive access.
 */
#ifndef IPROF_MODEL_H
#define IPROF_MODEL_H

#include <iprof/common.h>
#include <iprof/reader.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct iprof_model iprof_model;
typedef struct iprof_type iprof_type;
typedef struct iprof_method iprof_method;
typedef struct iprof_context iprof_context;
typedef struct iprof_entry iprof_entry;

/* ------------------------------------------------------------------------ */
/* Creating and loading                                                     */

/** Create an empty model of format version IPROF_FORMAT_LATEST.
 *  @p allocator may be NULL (libc). */
IPROF_API int iprof_model_new(iprof_model **out, const iprof_allocator *allocator);

/** Free a model and everything it owns. NULL is a no-op. */
IPROF_API void iprof_model_free(iprof_model *model);

/*
 * Load a model with @p reader, which supplies the options (strictness,
 * allocator) and keeps the error and diagnostics of the load. On failure
 * *out is set to NULL and nothing is allocated.
 */
IPROF_API int iprof_model_load_buffer(iprof_model **out, iprof_reader *reader,
                                      const void *data, size_t len);
IPROF_API int iprof_model_load_path(iprof_model **out, iprof_reader *reader, const char *path);
IPROF_API int iprof_model_load_fd(iprof_model **out, iprof_reader *reader, int fd);
IPROF_API int iprof_model_load_callback(iprof_model **out, iprof_reader *reader,
                                        iprof_read_fn read_fn, void *read_payload);

/** The format version of the model ("1.0.0"). Owned by the model. */
IPROF_API const char *iprof_model_version(const iprof_model *model);

/** Change the format version recorded in the model. It must look like
 *  MAJOR.MINOR.PATCH with the structure of 0.4.0/1.x (IPROF_EVERSION
 *  otherwise). */
IPROF_API int iprof_model_set_version(iprof_model *model, const char *version);

/* ------------------------------------------------------------------------ */
/* Types                                                                    */

IPROF_API size_t iprof_model_type_count(const iprof_model *model);
/** Type at @p index (file order), or NULL if out of range. */
IPROF_API const iprof_type *iprof_model_type_at(const iprof_model *model, size_t index);
/** O(1) lookup by id; NULL if absent. */
IPROF_API const iprof_type *iprof_model_type_by_id(const iprof_model *model, int64_t id);
/** O(1) lookup by name; the first such type if a file repeats a name. */
IPROF_API const iprof_type *iprof_model_type_by_name(const iprof_model *model,
                                                     const char *name, size_t name_len);

IPROF_API int64_t iprof_type_id(const iprof_type *type);
/** The interned name, NUL-terminated; its length in @p *len if not NULL. */
IPROF_API const char *iprof_type_name(const iprof_type *type, size_t *len);

/* ------------------------------------------------------------------------ */
/* Methods                                                                  */

IPROF_API size_t iprof_model_method_count(const iprof_model *model);
IPROF_API const iprof_method *iprof_model_method_at(const iprof_model *model, size_t index);
IPROF_API const iprof_method *iprof_model_method_by_id(const iprof_model *model, int64_t id);
/** O(1) lookup by name and signature (declaring type id, return type id,
 *  parameter type ids). */
IPROF_API const iprof_method *iprof_model_method_find(const iprof_model *model,
                                                      const char *name, size_t name_len,
                                                      const int64_t *signature,
                                                      size_t signature_len);

IPROF_API int64_t iprof_method_id(const iprof_method *method);
IPROF_API const char *iprof_method_name(const iprof_method *method, size_t *len);
/** The signature type ids; the count in @p *len if not NULL. */
IPROF_API const int64_t *iprof_method_signature(const iprof_method *method, size_t *len);

/** Readable name "Type.name" into @p buf (NUL-terminated, truncated to
 *  @p size). Returns the full length (snprintf convention). An unknown
 *  declaring type prints as "?<id>"; a method with an empty signature as
 *  just its name. */
IPROF_API size_t iprof_model_method_describe(const iprof_model *model,
                                             const iprof_method *method,
                                             char *buf, size_t size);

/* ------------------------------------------------------------------------ */
/* Contexts                                                                 */

/** Number of frames (>= 1). */
IPROF_API size_t iprof_context_depth(const iprof_context *ctx);
/** Method id and bci of the first (callee) frame. */
IPROF_API int64_t iprof_context_method_id(const iprof_context *ctx);
IPROF_API int64_t iprof_context_bci(const iprof_context *ctx);
/** The context without its first frame (the caller's), NULL for depth 1. */
IPROF_API const iprof_context *iprof_context_caller(const iprof_context *ctx);
/** Copy up to @p max_frames frames, interleaved (method id, bci), callee
 *  first, into @p frames. Returns the depth. */
IPROF_API size_t iprof_context_frames(const iprof_context *ctx, int64_t *frames,
                                      size_t max_frames);
/** The ctx text ("5:0<3:2") into @p buf; snprintf convention. */
IPROF_API size_t iprof_context_format(const iprof_context *ctx, char *buf, size_t size);
/** Readable text ("Fib.fibonacci:11 < Fib.main:9") into @p buf; snprintf
 *  convention. A method id without a method prints as "?<id>". */
IPROF_API size_t iprof_model_context_describe(const iprof_model *model,
                                              const iprof_context *ctx,
                                              char *buf, size_t size);
/** Number of interned context nodes (distinct frame sequences, including
 *  caller suffixes). */
IPROF_API size_t iprof_model_context_count(const iprof_model *model);

/* ------------------------------------------------------------------------ */
/* Entries                                                                  */

/** Number of entries of @p kind (0 for an invalid kind). */
IPROF_API size_t iprof_model_entry_count(const iprof_model *model, int kind);
/** Entry @p index of @p kind in file order, NULL if out of range. */
IPROF_API const iprof_entry *iprof_model_entry_at(const iprof_model *model, int kind,
                                                  size_t index);
/** O(1) lookup of the entry of @p kind whose context has these frames
 *  (interleaved, callee first); NULL if absent. */
IPROF_API const iprof_entry *iprof_model_entry_find(const iprof_model *model, int kind,
                                                    const int64_t *frames,
                                                    size_t frame_count);

IPROF_API int iprof_entry_kind(const iprof_entry *entry);
IPROF_API const iprof_context *iprof_entry_context(const iprof_entry *entry);
/** The records; the count in @p *len if not NULL. */
IPROF_API const int64_t *iprof_entry_records(const iprof_entry *entry, size_t *len);

/* ------------------------------------------------------------------------ */
/* Iteration by callback                                                    */

/* Callbacks return 0 to go on, anything else to stop (the call then returns
 * IPROF_ESTOPPED). The model must not be changed from inside them. */
typedef int (*iprof_model_type_cb)(const iprof_type *type, void *payload);
typedef int (*iprof_model_method_cb)(const iprof_method *method, void *payload);
typedef int (*iprof_model_entry_cb)(const iprof_entry *entry, void *payload);

IPROF_API int iprof_model_foreach_type(const iprof_model *model, iprof_model_type_cb cb,
                                       void *payload);
IPROF_API int iprof_model_foreach_method(const iprof_model *model, iprof_model_method_cb cb,
                                         void *payload);
IPROF_API int iprof_model_foreach_entry(const iprof_model *model, int kind,
                                        iprof_model_entry_cb cb, void *payload);

/* ------------------------------------------------------------------------ */
/* Mutation                                                                 */

/** Add a type. IPROF_EINVAL if the id is taken. @p out may be NULL. */
IPROF_API int iprof_model_add_type(iprof_model *model, int64_t id, const char *name,
                                   size_t name_len, const iprof_type **out);
/** Remove a type by id (IPROF_ENOTFOUND if absent). References to it from
 *  methods or records are not checked: remove those first. */
IPROF_API int iprof_model_remove_type(iprof_model *model, int64_t id);

/** Add a method. IPROF_EINVAL if the id is taken, IPROF_EDANGLING if a
 *  signature type id is not a type of the model. */
IPROF_API int iprof_model_add_method(iprof_model *model, int64_t id, const char *name,
                                     size_t name_len, const int64_t *signature,
                                     size_t signature_len, const iprof_method **out);
/** Remove a method by id (IPROF_ENOTFOUND if absent). Entries whose
 *  contexts mention it are not checked: remove those first. */
IPROF_API int iprof_model_remove_method(iprof_model *model, int64_t id);

/**
 * Add an entry of @p kind. If an entry of that kind with that context
 * exists, the records are combined by the kind's meaning: call count and
 * sampling counts are summed; conditional triples are matched by
 * (bci, index) and their counts summed; virtual invoke, monitor and
 * instanceof pairs are matched by type id and their counts summed. New
 * triples and pairs are appended. Sums saturate at INT64_MAX.
 *
 * Fails, changing nothing, with IPROF_ESCHEMA when the records or the
 * context break the kind's rules, IPROF_EDANGLING when a method id of the
 * context (other than the monitor's dummy 0:0) or a type id of the records
 * is not in the model, IPROF_EINVAL for a bad kind or no frames.
 */
IPROF_API int iprof_model_add_entry(iprof_model *model, int kind, const int64_t *frames,
                                    size_t frame_count, const int64_t *records,
                                    size_t record_count);
/** Remove the entry of @p kind with this context (IPROF_ENOTFOUND). */
IPROF_API int iprof_model_remove_entry(iprof_model *model, int kind, const int64_t *frames,
                                       size_t frame_count);

/** Keep only the entries of @p kind for which @p keep returns non-zero, in
 *  one O(n) pass. */
IPROF_API int iprof_model_retain_entries(iprof_model *model, int kind,
                                         iprof_model_entry_cb keep, void *payload);
/** Keep only the methods for which @p keep returns non-zero. */
IPROF_API int iprof_model_retain_methods(iprof_model *model, iprof_model_method_cb keep,
                                         void *payload);
/** Keep only the types for which @p keep returns non-zero. */
IPROF_API int iprof_model_retain_types(iprof_model *model, iprof_model_type_cb keep,
                                       void *payload);

/* ------------------------------------------------------------------------ */
/* Merge                                                                    */

/**
 * Merge @p src into @p dst, as native-image-configure merge-pgo-profiles
 * does. Types are matched by name and methods by (declaring type name,
 * name, signature type names); what dst lacks is added, keeping the src id
 * when dst does not use it and taking max id + 1 otherwise. Entries are
 * remapped to dst ids and added with iprof_model_add_entry semantics, their
 * counts multiplied by @p weight first (rounded to nearest, saturating;
 * integral weights are exact). @p weight must be finite and >= 0.
 *
 * Fails with IPROF_EDANGLING, changing nothing, if src has references that
 * do not resolve within src. dst and src must be different models.
 */
IPROF_API int iprof_model_merge(iprof_model *dst, const iprof_model *src, double weight);

#ifdef __cplusplus
}
#endif
#endif /* IPROF_MODEL_H */
