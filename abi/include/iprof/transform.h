/**
 * @file iprof/transform.h
 * @brief Advanced: whole-model transformations: the canonical form,
 *        filtering and pruning.
 *
 * What a program needs it for: comparing or storing profiles in one form
 * whatever their ids and order, and cutting a profile down (by package,
 * kind, count or predicate, or to what its entries reference).
 *
 * They work on a model in place (a change: exclusive access to it). Bad
 * arguments change nothing; out of memory, the canonical form changes
 * nothing and a filter may be left with some of its steps done, each step
 * whole: no count a finished filter would keep is lost.
 *
 * Threads and ownership: as <iprof/iprof.h> says. No exceptions of its
 * own.
 */
#ifndef IPROF_TRANSFORM_H
#define IPROF_TRANSFORM_H

#include <iprof/iprof.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Canonical form                                                           */

/**
 * @brief Rewrite a model into its canonical form.
 *
 * Two models that hold the same profile (the same types, methods and
 * entries by name, whatever their ids and order) have the same canonical
 * form, so the writer then gives them the same bytes; diffs of canonical
 * files show changes of content only. The canonical form is:
 *
 * - Types: one per distinct name (types of equal names are combined),
 *   sorted by name (bytewise, a prefix before its extensions), with ids
 *   0 .. n-1 in that order.
 * - Methods: one per distinct key (declaring type name, name, return and
 *   parameter type names; methods of equal keys are combined), sorted by
 *   declaring type name, then name, then the return and parameter type
 *   names in order (shorter signature first on a common prefix), with ids
 *   1 .. n in that order (0 stays free for the monitor's "0:0" context,
 *   as in GraalVM's files).
 * - Entries of each kind: one per distinct context after renumbering
 *   (entries of equal contexts are combined as iprof_model_add_entry()
 *   does: counts summed, saturating), sorted by their frames from the
 *   callee outwards, each frame by (method id, bci) with the canonical
 *   method ids (so by method key, then bci), a context before its
 *   extensions by further callers.
 * - Records within an entry: conditional triples sorted by (bci, index),
 *   stably, none combined (GraalVM counts every record: a repeated
 *   (bci, index) stays, its occurrences in their order), except that the
 *   triples of a bci (other than -5) under several indexes put the index
 *   of its last one last, as GraalVM gives the bci that index's
 *   probability; so the canonical form tells the compiler what the model
 *   does (iprof_entry_branch_probabilities()). Virtual invoke, monitor
 *   and instanceof pairs sorted by type id (so by type name), a type's
 *   counts summed; call count and sampling entries hold one count.
 * - The version is kept. The section order is the writer's.
 *
 * iprof_model_canonicalize() is idempotent. Type, method, context and
 * entry pointers obtained before the call are invalid afterwards (the
 * model's contents are rebuilt); the model handle itself stays valid.
 *
 * Unknown top-level keys: ids inside their values cannot be renumbered, so
 * a key holding anything but [], {} or a scalar fails the call with
 * IPROF_ESCHEMA (model unchanged; iprof_model_error() names the key)
 * unless IPROF_CANONICAL_DROP_UNKNOWN. Kept keys go after every section,
 * sorted by key, one per key.
 *
 * @param model the model.
 * @param flags IPROF_CANONICAL_* flags, or 0.
 * @retval IPROF_OK the model is canonical.
 * @retval IPROF_EDANGLING a method signature, context or record refers to
 *         a type or method id the model does not define; unchanged.
 * @retval IPROF_ESCHEMA an entry breaks its kind's rules (a record count
 *         that is not a multiple of 3 or 2, a monitor context other than
 *         "0:0", ...), so its records cannot be grouped, or an unknown
 *         top-level key holds more than [], {} or a scalar (without
 *         IPROF_CANONICAL_DROP_UNKNOWN); unchanged.
 * @retval IPROF_EINVAL @p model is NULL or @p flags has an unknown flag.
 * @retval IPROF_ENOMEM allocation failed; unchanged.
 */
IPROF_API int iprof_model_canonicalize(iprof_model *model, unsigned int flags);

/** Canonical form option: drop the model's unknown top-level keys instead
 *  of failing on those that hold more than [], {} or a scalar. */
#define IPROF_CANONICAL_DROP_UNKNOWN 0x1u

/* ------------------------------------------------------------------------ */
/* Filtering                                                                */

/** A predicate over types (iprof_filter_options.keep_type): return
 *  non-zero to keep the type, 0 to drop it. */
typedef int (*iprof_model_type_pred)(const iprof_type *type, void *payload);

/** A predicate over methods (iprof_filter_options.keep_method): non-zero keeps
 *  the method. */
typedef int (*iprof_model_method_pred)(const iprof_method *method, void *payload);

/** A predicate over entries (iprof_filter_options.keep_entry): non-zero keeps
 *  the entry. */
typedef int (*iprof_model_entry_pred)(const iprof_entry *entry, void *payload);

/** A predicate over one frame of a context (iprof_filter_options.keep_frame):
 *  return non-zero to keep it. */
typedef int (*iprof_frame_pred)(int64_t method_id, int64_t bci, void *payload);

/** The version of iprof_filter_options these headers define. */
#define IPROF_FILTER_OPTIONS_VERSION 1

/** The bit of a kind in iprof_filter_options.kinds: 1u << kind. */
#define IPROF_KIND_BIT(kind) (1u << (unsigned)(kind))

/**
 * Options of iprof_model_filter(). Initialise with
 * IPROF_FILTER_OPTIONS_INIT or iprof_filter_options_init() and set what
 * you need; zero fields mean "no such filter".
 *
 * Packages. A package P matches a type whose name is P or starts with P
 * followed by '.' ("com.foo" matches "com.foo.Bar" and
 * "com.foo.impl.Baz$1", not "com.foobar.X" or "com.foo$X"); a trailing '.'
 * of P is ignored and the empty package matches every type
 * (iprof_package_matches()). A method is in the package decided for the
 * declaring type (signature[0]) of its signature: of all keep and drop
 * packages matching that type, the longest decides (a keep and a drop of
 * the same package: drop).
 *
 * Drop packages mean gone from the file: an entry is dropped when any
 * frame of its context, callee or caller, is a method of a dropped
 * package, the methods of dropped packages are removed, and so are the
 * types of dropped packages that no remaining method's signature and no
 * remaining record names (those stay: they would dangle); both even when
 * the model keeps unknown keys. Keep packages judge the callee
 * frame only (the method the profile data belong to): with keep packages,
 * an entry is dropped unless its callee is a method of a kept package; its
 * callers stay whatever their package, as the context the data were seen
 * in. Monitor entries (context "0:0", no method) and frames whose method
 * or declaring type is unknown are not judged by packages.
 *
 * Predicates (NULL: none) judge what the criteria cannot name: each
 * returns non-zero to keep what it is shown, 0 to drop it, gets
 * @c payload, and must not change the model. A predicate may be shown an
 * element more than once (with @c max_depth, a model whose entries break
 * their kind's record layout is checked before anything changes) and must
 * then answer the same. They run in the filter's order of steps (see
 * iprof_model_filter()); to judge the entries of one kind only, a
 * @c keep_entry returns non-zero for the entries of the others (whose
 * iprof_entry_kind() differs). A method or type that @c keep_method or
 * @c keep_type refuses leaves what names it (entries, signatures, records)
 * in place: iprof_model_prune() with IPROF_PRUNE_DANGLING removes those.
 */
typedef struct iprof_filter_options {
    unsigned int version;               /**< IPROF_FILTER_OPTIONS_VERSION */
    unsigned int kinds;                 /**< IPROF_KIND_BIT()s of the kinds to keep; 0: all */
    const char *const *keep_packages;   /**< packages whose entries are kept (borrowed for the call) */
    size_t keep_package_count;          /**< the number of @c keep_packages */
    const char *const *drop_packages;   /**< packages whose entries are dropped (borrowed for the call) */
    size_t drop_package_count;          /**< the number of @c drop_packages */
    int64_t min_count;                  /**< drop entries whose total is below this; <= 0: no minimum */
    double top_percent;                 /**< keep the hottest entries making this % of each kind; 0: all */
    /** Cut every context to its @c max_depth innermost frames
     *  (the callee and its nearest callers), after the other steps;
     *  entries of a kind whose cut contexts coincide are combined, as
     *  iprof_model_add_entry() combines, the first in place. 0: no cut. */
    size_t max_depth;
    /** An entry of a kind kept so far with a frame of its context, callee
     *  or caller, that this refuses goes (monitor entries show their dummy
     *  frame (0, 0)). */
    iprof_frame_pred keep_frame;
    /** An entry of a kind kept so far that this refuses goes. */
    iprof_model_entry_pred keep_entry;
    /** A method this refuses goes; the entries naming it
     *  stay. */
    iprof_model_method_pred keep_method;
    /** A type this refuses goes; the signatures and records
     *  naming it stay. */
    iprof_model_type_pred keep_type;
    /** Passed to every predicate as is. */
    void *payload;
} iprof_filter_options;

/** Initialiser of an iprof_filter_options that filters nothing. */
#define IPROF_FILTER_OPTIONS_INIT \
    {IPROF_FILTER_OPTIONS_VERSION, 0, NULL, 0, NULL, 0, 0, 0.0, 0, NULL, NULL, NULL, NULL, NULL}

/**
 * @brief Fill filter options with the defaults of an options version.
 *
 * For FFI users who cannot use IPROF_FILTER_OPTIONS_INIT.
 * @param[out] opts the options to fill (caller-owned; not kept).
 * @param version IPROF_FILTER_OPTIONS_VERSION of the caller's headers.
 * @retval IPROF_OK @p opts is filled.
 * @retval IPROF_EINVAL @p opts is NULL or @p version unknown to this library.
 */
IPROF_API int iprof_filter_options_init(iprof_filter_options *opts, unsigned int version);

/**
 * @brief Whether a type is in a package, as filters match them.
 *
 * @p package matches a type named @p package or starting with it followed
 * by '.' ("com.foo" matches "com.foo.Bar" and "com.foo.impl.Baz$1", not
 * "com.foobar.X" or "com.foo$X"); a trailing '.' of @p package is ignored
 * and the empty package matches every type.
 * @param package the package (NUL-terminated).
 * @param type_name the type's name, @p type_name_len bytes.
 * @param type_name_len its length.
 * @return 1 when it matches, 0 otherwise (also for NULL arguments).
 */
IPROF_API int iprof_package_matches(const char *package, const char *type_name,
                                    size_t type_name_len);

/**
 * @brief Drop entries from a model, and the methods and types of dropped
 *        packages: a smaller profile.
 *
 * The steps, in this order, each on what the previous ones kept:
 *
 * 1. Kinds: with @c kinds non-zero, the entries of every other kind are
 *    dropped.
 * 2. Frames: with @c keep_frame, an entry goes when the predicate refuses
 *    any frame of its context.
 * 3. Entries: with @c keep_entry, an entry the predicate refuses goes.
 *    (Predicates come first so that the minimum and the top percent see
 *    what the caller kept.)
 * 4. Packages: entries are kept or dropped by the declaring type of their
 *    callee frame's method (see iprof_filter_options).
 * 5. Minimum: with @c min_count > 0, entries whose total count is below
 *    it are dropped. The total of an entry is the sum of its counts by
 *    its kind's meaning: the count of a call count or sampling entry, the
 *    counts (every third record) of a conditional entry, the counts
 *    (every second record) of a virtual invoke, monitor or instanceof
 *    entry; sums saturate at the int64 range.
 * 6. Top percent: with @c top_percent X > 0, per kind: let T be the sum
 *    of the positive entry totals; order the entries by total, highest
 *    first, and let t be the total of the first entry at which the
 *    running sum reaches X% of T; entries with a total of at least t are
 *    kept (so entries tied at t are all kept, whatever their order), the
 *    rest dropped. X >= 100 keeps every entry with a positive total; a
 *    kind whose T is 0 loses all its entries.
 * 7. Max depth: with @c max_depth, contexts are cut (see
 *    iprof_filter_options).
 * 8. Dropped packages: their methods are removed (no remaining entry
 *    names them), then their types that no remaining method's signature
 *    and no remaining record (virtual invoke, monitor, instanceof type
 *    ids) mentions.
 * 9. Methods: with @c keep_method, a method the predicate refuses goes
 *    (the entries naming it stay).
 * 10. Types: with @c keep_type, a type the predicate refuses goes (the
 *    signatures and records naming it stay).
 *
 * Everything else stays, whether anything refers to it or not: a method
 * whose entries all went, a type only such methods named, a file of
 * types only (with no options the model is unchanged). Removing the
 * unreferenced is iprof_model_prune()'s job; call it afterwards for that.
 *
 * The order of what remains is kept; ids are not changed (call
 * iprof_model_canonicalize() for that). Pointers to removed elements,
 * and entry pointers of changed kinds, are invalid afterwards.
 *
 * @param model the model.
 * @param opts the options (borrowed for the call), or NULL: no filter
 *        (the model is unchanged).
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL @p model is NULL, @p opts has an unknown version,
 *         a NULL package list with a non-zero count, a NULL package,
 *         @c kinds with bits beyond the kinds, or a @c top_percent that is
 *         negative or not a number; the model is unchanged.
 * @retval IPROF_ESCHEMA with @c max_depth, an entry the filters before
 *         the cut keep, in a kind to cut, has records that are not whole
 *         (bci, index, count) triples or (type, count) pairs (a lenient
 *         load keeps such entries), so entries cannot be combined; checked
 *         first, the model is unchanged.
 * @retval IPROF_ENOMEM allocation failed (the model may be partly
 *         filtered, still consistent).
 */
IPROF_API int iprof_model_filter(iprof_model *model, const iprof_filter_options *opts);

/* ------------------------------------------------------------------------ */
/* Pruning                                                                  */

/** iprof_model_prune(): remove the methods no entry mentions in any frame. */
#define IPROF_PRUNE_METHODS 0x1u

/** iprof_model_prune(): remove the types no method signature and no
 *  record (virtual invoke, monitor, instanceof type ids) mentions. */
#define IPROF_PRUNE_TYPES 0x2u

/** iprof_model_prune(): remove the methods whose signature names a type
 *  the model does not define, then the entries whose context names a
 *  method it does not define (monitor entries' dummy frame excepted) or
 *  whose records name an undefined type; before IPROF_PRUNE_METHODS and
 *  IPROF_PRUNE_TYPES. What a salvaging load (IPROF_READ_SALVAGE) kept of a
 *  damaged file may refer to what the damage cut off; afterwards no
 *  reference dangles, and the order of what remains is kept. */
#define IPROF_PRUNE_DANGLING 0x4u

/**
 * @brief Remove what the references make useless: what refers to the
 *        undefined (IPROF_PRUNE_DANGLING), then the methods nothing
 *        refers to, then the types nothing refers to (so that types only
 *        removed methods used go too).
 *
 * What IPROF_PRUNE_DANGLING removed is the method count and the entry
 * count of each kind before the call minus after. The unreferenced
 * (IPROF_PRUNE_METHODS, IPROF_PRUNE_TYPES) are not removed while the
 * model keeps an unknown top-level key that may hold ids (anything but
 * [], {} or a scalar), which could name what would go; IPROF_PRUNE_DANGLING
 * is done all the same (what it removes refers to the undefined).
 * iprof_model_filter() removes only what its options name: call this
 * after it for a profile without the unreferenced (`iprof filter --prune`
 * does).
 * @param model the model.
 * @param what IPROF_PRUNE_METHODS, IPROF_PRUNE_TYPES, IPROF_PRUNE_DANGLING,
 *        or any of them together.
 * @retval IPROF_OK success; pointers to removed types and methods, and
 *         entry pointers of changed kinds, are invalid afterwards.
 * @retval IPROF_EINVAL a NULL model or an unknown flag; unchanged.
 * @retval IPROF_ENOMEM allocation failed; unchanged, or, with
 *         IPROF_PRUNE_DANGLING, with what dangled gone (still consistent).
 */
IPROF_API int iprof_model_prune(iprof_model *model, unsigned int what);

#ifdef __cplusplus
}
#endif

#endif /* IPROF_TRANSFORM_H */
