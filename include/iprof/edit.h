/**
 * @file iprof/edit.h
 * @brief Advanced: changing a model element by element; what the file
 *        held beyond the profile.
 *
 * What a program needs it for: building a profile, or post-processing one
 * beyond what merge, filter and the canonical form do: adding and removing
 * types, methods, entries and unknown top-level keys, replacing or mapping
 * records, scaling counts, choosing the spelling of the instanceof key.
 * Every change is checked as a read would check it; a refused change
 * changes nothing.
 *
 * Threads and ownership: as <iprof/iprof.h> says (a change needs exclusive
 * access to the model; names, signatures, records, keys and JSON given to
 * the add_* and set_* functions are copied). No exceptions of its own.
 */
#ifndef IPROF_EDIT_H
#define IPROF_EDIT_H

#include <iprof/iprof.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Setting the version                                                      */

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
 */
IPROF_API int iprof_model_set_version(iprof_model *model, const char *version);

/* ------------------------------------------------------------------------ */
/* Types, methods and entries                                               */

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
 */
IPROF_API int iprof_model_add_method(iprof_model *model, int64_t id, const char *name,
                                     size_t name_len, const int64_t *signature,
                                     size_t signature_len, const iprof_method **out);

/** iprof_model_remove_method(): also remove every entry, of any kind,
 *  whose context names the method in any frame, leaving nothing that names
 *  it but unknown top-level keys (which the library cannot read). */
#define IPROF_REMOVE_CASCADE 0x1u

/**
 * @brief Remove a method by id.
 *
 * Without IPROF_REMOVE_CASCADE, entries whose contexts mention it are not
 * checked (they dangle: remove them first, or prune with
 * IPROF_PRUNE_DANGLING after); with it, they go too. The removed method
 * must not be used afterwards.
 * @param model the model.
 * @param id the method id.
 * @param flags IPROF_REMOVE_CASCADE, or 0.
 * @retval IPROF_OK success; pointers to the method (and with
 *         IPROF_REMOVE_CASCADE, entry pointers) are invalid afterwards.
 * @retval IPROF_ENOTFOUND no method has this id; unchanged.
 * @retval IPROF_EINVAL @p model is NULL or @p flags has an unknown flag.
 */
IPROF_API int iprof_model_remove_method(iprof_model *model, int64_t id, unsigned int flags);

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
 * @retval IPROF_ELIMIT more than 4,294,967,295 records, a context past the
 *         model's count of context nodes, or a new entry of a kind that
 *         holds 4,294,967,294 already (iprof_model_entry_count()); nothing
 *         changes.
 * @retval IPROF_EINVAL a bad kind, no frames or a NULL argument.
 * @retval IPROF_ENOMEM allocation failed.
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
 */
IPROF_API int iprof_model_remove_entry(iprof_model *model, int kind, const int64_t *frames,
                                       size_t frame_count);

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
 */
IPROF_API size_t iprof_model_unknown_count(const iprof_model *model);

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
 */
IPROF_API int iprof_model_add_unknown(iprof_model *model, const char *key, size_t key_len,
                                      const char *json, size_t json_len);

/**
 * @brief Remove every unknown top-level key named @p key, or, with a NULL
 *        @p key, every unknown top-level key.
 * @param model the model.
 * @param key the key, @p key_len bytes (borrowed for the call), or NULL
 *        (with a @p key_len of 0) for every key.
 * @param key_len its length.
 * @retval IPROF_OK removed (with a NULL @p key also when the model kept
 *         none); pointers from iprof_model_unknown_at() are invalid
 *         afterwards.
 * @retval IPROF_ENOTFOUND the model keeps no key named @p key.
 * @retval IPROF_EINVAL a NULL @p model, or a NULL @p key with a non-zero
 *         @p key_len.
 */
IPROF_API int iprof_model_remove_unknown(iprof_model *model, const char *key, size_t key_len);

/**
 * @brief The spelling of the instanceof key the model was read with.
 * @param model the model.
 * @return IPROF_INSTANCEOF_KEY_LOWER ("instanceofProfiles") or
 *         IPROF_INSTANCEOF_KEY_CAMEL ("instanceOfProfiles") when the file
 *         had the section, else IPROF_INSTANCEOF_KEY_AUTO (the writer then
 *         uses GraalVM's CAMEL spelling). A merge takes the spelling of its
 *         inputs, and CAMEL when they disagree.
 */
IPROF_API int iprof_model_instanceof_key(const iprof_model *model);

/**
 * @brief Set the spelling the writer uses for this model by default.
 * @param model the model.
 * @param spelling an enum iprof_instanceof_key value.
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL a NULL model or an unknown value.
 */
IPROF_API int iprof_model_set_instanceof_key(iprof_model *model, int spelling);

#ifdef __cplusplus
}
#endif

#endif /* IPROF_EDIT_H */
