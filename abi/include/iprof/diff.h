/**
 * @file iprof/diff.h
 * @brief Advanced: comparing two profiles: what each lacks, overlap,
 *        biggest changes, staleness.
 *
 * What a program needs it for: asking whether a profile is stale for a
 * workload, or what changed between two runs.
 *
 * iprof_diff_new() compares model A with model B and keeps the answer in
 * an opaque iprof_diff result, read through index-based accessors that
 * take and return only scalars and opaque pointers (easy to bind from any
 * FFI). It answers "is my profile stale?": which methods and contexts one
 * profile has and the other lacks, how much of each profile's count mass
 * sits on contexts the other also has, and which entries changed most.
 *
 * Matching. Ids differ between files, so nothing is matched by id. Types
 * are matched by name and methods by their key, as iprof_model_merge()
 * does: the method name and the names of its signature types (declaring
 * type, return type, parameter types). A method of a model whose
 * signature names a type id that model does not define has no key and
 * matches nothing. A context of A matches a context of B when both have
 * the same depth and, frame by frame, the same bci and matching methods; a
 * frame's method id that is not a method of A (a dangling id kept by a
 * lenient read) matches the same id in B, and so does the monitor
 * profiles' dummy "0:0", whatever method 0 is. Entries of the same kind are matched by their contexts. Where a
 * model holds several methods with one key or several entries of one kind
 * with one context (possible after a lenient read), the first one in file
 * order is matched; the others count as unmatched.
 *
 * Counts. The count of an entry is the sum of the counts in its records:
 * the single count of call-count and sampling entries, the third number of
 * every conditional triple, the second number of every virtual invoke,
 * monitor and instanceof pair. Negative counts (which a lenient read may
 * keep) count as 0; sums saturate at UINT64_MAX.
 *
 * Definitions, per kind K and side S (A or B, the other side being O):
 *  - total(S, K): the sum of the counts of S's entries of kind K;
 *  - common_total(S, K): the same sum over the entries of S whose context
 *    O also has an entry of kind K for;
 *  - overlap(S, K) = common_total(S, K) / total(S, K): the share of S's
 *    count mass covered by O. overlap(A, K) near 1 means B exercised what
 *    A recorded; near 0, that A is stale for B's workload;
 *  - share(S, e) = count of e in S / total(S, K) (0 when S lacks e or
 *    total(S, K) is 0): the entry's normalised count;
 *  - delta(e) = share(B, e) - share(A, e);
 *  - relative(e) = delta(e) / share(A, e); 0 when both shares are 0;
 *    INFINITY when share(A, e) is 0 and share(B, e) is not.
 * The changes of a kind are the entries of either side (matched as above)
 * with a non-zero delta, ranked by |delta| descending; ties keep A's file
 * order, then B's for entries only B has. The first
 * iprof_diff_options::top of them are kept.
 *
 * Staleness: one number in 0 .. 1 saying how far B's hot behaviour moved
 * from A's, in what GraalVM's PGO uses (iprof_diff_summary.staleness: 0 when
 * the profiles tell the compiler the same, 1 when they have nothing in
 * common). Per kind K, over the union of the contexts of both sides' entries
 * (matched as above; a context one side lacks has share 0 there). Here the
 * entries of a side with one context count as one, their counts added
 * (GraalVM 25 writes some sampling contexts twice), and the first of them
 * in file order gives the probabilities or shares:
 *  - weight m(e) = (share(A, e) + share(B, e)) / 2: hot entries of either
 *    side weigh, cold ones hardly, so count noise on cold entries does
 *    not matter;
 *  - distance d(e) in 0 .. 1:
 *    - call counts and sampling: d(e) = |delta(e)| / (share(A, e) +
 *      share(B, e)), so that m(e) d(e) = |delta(e)| / 2 and the kind's
 *      staleness is the total variation distance between A's and B's
 *      normalised counts (hotness moving between methods and contexts);
 *    - conditional: the total variation distance (half the sum of the
 *      absolute differences) between A's and B's successor
 *      probabilities as iprof_entry_branch_probabilities() derives them,
 *      successors matched by bci (one probability per bci; the result
 *      capped at 1). A branch flipped from always taken to
 *      never taken gives 1 - 2 x IPROF_EXTREMELY_SLOW_PATH_PROBABILITY;
 *    - virtual invoke, instanceof and monitor: the total variation
 *      distance between the type profiles GraalVM builds
 *      (iprof_entry_type_shares()), types matched by name: (1 - eps) x
 *      half the sum over types of |count(A, t) / count(A, e) - count(B,
 *      t) / count(B, e)|, eps = IPROF_EXTREMELY_SLOW_PATH_PROBABILITY
 *      being the not-recorded probability both sides get. A type id a
 *      model does not define matches the same undefined id in the other;
 *    - d(e) = 1 when one side lacks e, when its count there is 0 and, for
 *      the kinds with probabilities, when a side gives none (its counts
 *      add up to 0 or fewer, a record count that is not a whole number
 *      of records);
 *  - staleness(K) = sum of m(e) d(e) / sum of m(e), over the entries with
 *    m(e) > 0 (iprof_diff_kind_summary.staleness). It is undefined (-1.0) when
 *    neither side has count mass of K, and 1 when only one side has.
 * The staleness is the mean of staleness(K) over the kinds where it is
 * defined (every kind counts the same: their counts are not comparable),
 * and 0 when none is (two profiles without counts). Each part is
 * symmetric, so swapping A and B gives the same score. Shares are
 * relative, so a profile compared with a copy of itself whose counts are
 * all multiplied by one factor scores 0 (exactly, while the counts stay
 * below 2^53).
 *
 * Threads and ownership: as <iprof/iprof.h> says. Its exceptions:
 * iprof_diff_new() only reads both models, but may build B's lookup index
 * as iprof_model_entry_find() does (exception (1) of <iprof/iprof.h>), so
 * several diffs of the same models may run at once; a result keeps both
 * models until iprof_diff_free(): they must outlive it and must not change
 * while it is used (its accessors return their methods and entries).
 */
#ifndef IPROF_DIFF_H
#define IPROF_DIFF_H

#include <iprof/iprof.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The result of comparing two models. Opaque; created by
 *  iprof_diff_new(), freed by iprof_diff_free(). */
typedef struct iprof_diff iprof_diff;

/** The two sides of a comparison, passed as int to the accessors. */
enum iprof_diff_side {
    IPROF_DIFF_A = 0, /**< the first model given to iprof_diff_new() */
    IPROF_DIFF_B = 1  /**< the second model given to iprof_diff_new() */
};

/** The version of iprof_diff_options these headers define. */
#define IPROF_DIFF_OPTIONS_VERSION 1

/** The number of changed entries kept per kind when
 *  iprof_diff_options::top is 0. */
#define IPROF_DIFF_DEFAULT_TOP 10

/**
 * Options of iprof_diff_new(). Initialise with IPROF_DIFF_OPTIONS_INIT or
 * iprof_diff_options_init() and then set what you need; zero fields mean
 * "default". The version field lets the struct grow compatibly.
 */
typedef struct iprof_diff_options {
    unsigned int version;             /**< IPROF_DIFF_OPTIONS_VERSION */
    unsigned int flags;               /**< reserved: must be 0 */
    const iprof_allocator *allocator; /**< for the result and the work of
                                           iprof_diff_new(); NULL: model A's
                                           allocator; copied */
    size_t top; /**< changed entries kept per kind; 0: IPROF_DIFF_DEFAULT_TOP */
} iprof_diff_options;

/** Initialiser of an iprof_diff_options with every default. */
#define IPROF_DIFF_OPTIONS_INIT {IPROF_DIFF_OPTIONS_VERSION, 0, NULL, 0}

/**
 * @brief Fill diff options with the defaults of an options version.
 *
 * For FFI users who cannot use IPROF_DIFF_OPTIONS_INIT.
 * @param[out] opts the options to fill (caller-owned; not kept).
 * @param version IPROF_DIFF_OPTIONS_VERSION of the caller's headers.
 * @retval IPROF_OK @p opts is filled.
 * @retval IPROF_EINVAL @p opts is NULL or @p version unknown to this library.
 */
IPROF_API int iprof_diff_options_init(iprof_diff_options *opts, unsigned int version);

/**
 * @brief Compare model @p a with model @p b.
 *
 * Runs in time linear in the sizes of both models (hash lookups), plus
 * O(n log top) for the ranking of changes. See the file comment for what
 * is matched and computed.
 * @param[out] out receives the result, owned by the caller (free it with
 *        iprof_diff_free()); NULL on failure.
 * @param a model A (borrowed: must outlive the result, unchanged).
 * @param b model B (borrowed: must outlive the result, unchanged); may be
 *        the same model as @p a.
 * @param opts the options (borrowed for the call), or NULL for defaults.
 * @retval IPROF_OK success.
 * @retval IPROF_EINVAL a NULL @p out, @p a or @p b, an unknown options
 *         version or non-zero flags.
 * @retval IPROF_ENOMEM allocation failed; nothing is left allocated.
 * @threadsafety Exception (1) of <iprof/iprof.h>: reads @p a and @p b, but the
 *         lookup of B's entries may build B's index through B's allocator (as
 *         iprof_model_entry_find()).
 */
IPROF_API int iprof_diff_new(iprof_diff **out, const iprof_model *a, const iprof_model *b,
                             const iprof_diff_options *opts);

/**
 * @brief Free a result.
 * @param diff the result, or NULL (a no-op). The models are not touched.
 */
IPROF_API void iprof_diff_free(iprof_diff *diff);

/* ------------------------------------------------------------------------ */
/* Methods                                                                  */

/**
 * @brief A method of one side whose key the other side lacks.
 * @param diff the result (borrowed).
 * @param side IPROF_DIFF_A or IPROF_DIFF_B.
 * @param index 0 .. iprof_diff_summary.method_only_count[side] - 1; in the
 *        side's file order.
 * @return the method, owned by that side's model; NULL if out of range.
 */
IPROF_API const iprof_method *iprof_diff_method_only_at(const iprof_diff *diff, int side,
                                                        size_t index);

/* ------------------------------------------------------------------------ */
/* Results in three calls: each fills a caller's versioned struct. */

/** The version of iprof_diff_summary these headers define. */
#define IPROF_DIFF_SUMMARY_VERSION 1

/**
 * What a comparison found over both models, filled by
 * iprof_diff_get_summary(). Arrays are indexed by enum iprof_diff_side.
 */
typedef struct iprof_diff_summary {
    unsigned int version;          /**< set by the caller: IPROF_DIFF_SUMMARY_VERSION */
    size_t method_only_count[2];   /**< methods of the side the other lacks
                                        (iprof_diff_method_only_at() lists them) */
    size_t method_common_count[2]; /**< methods of the side matched in the other */
    double staleness;              /**< the staleness score, 0 .. 1 (file comment) */
} iprof_diff_summary;

/** Initialiser of an iprof_diff_summary: the version, then zeros. */
#define IPROF_DIFF_SUMMARY_INIT {IPROF_DIFF_SUMMARY_VERSION, {0, 0}, {0, 0}, 0.0}

/** The version of iprof_diff_kind_summary these headers define. */
#define IPROF_DIFF_KIND_SUMMARY_VERSION 1

/**
 * What a comparison found for one kind of entry, filled by
 * iprof_diff_get_kind(). Arrays are indexed by enum iprof_diff_side; the
 * definitions are those of the file comment.
 */
typedef struct iprof_diff_kind_summary {
    unsigned int version;           /**< set by the caller: IPROF_DIFF_KIND_SUMMARY_VERSION */
    size_t context_only_count[2];   /**< entries of the side the other has no
                                         entry of the kind for */
    size_t context_common_count[2]; /**< entries of the side matched in the other */
    uint64_t total[2];              /**< total(S, K) */
    uint64_t common_total[2];       /**< common_total(S, K) */
    double overlap[2];              /**< overlap(S, K); -1.0 where total(S, K) is 0 */
    double staleness;               /**< staleness(K), 0 .. 1; -1.0 when neither side
                                         has count mass of the kind */
    size_t change_count;            /**< changes kept for the kind (at most
                                         iprof_diff_options::top), biggest |delta| first */
} iprof_diff_kind_summary;

/** Initialiser of an iprof_diff_kind_summary: the version, then zeros. */
#define IPROF_DIFF_KIND_SUMMARY_INIT \
    {IPROF_DIFF_KIND_SUMMARY_VERSION, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0.0, 0.0}, 0.0, 0}

/** The version of iprof_diff_change these headers define. */
#define IPROF_DIFF_CHANGE_VERSION 1

/**
 * One kept change of a kind, filled by iprof_diff_get_change(). Arrays are
 * indexed by enum iprof_diff_side; the definitions are those of the file
 * comment.
 */
typedef struct iprof_diff_change {
    unsigned int version;        /**< set by the caller: IPROF_DIFF_CHANGE_VERSION */
    const iprof_entry *entry[2]; /**< the side's entry (borrowed from its model);
                                      NULL on the side that lacks it */
    uint64_t value[2];           /**< the entry's count on the side; 0 where it lacks it */
    double share[2];             /**< share(S, e) */
    double delta;                /**< delta(e), in -1 .. 1, never 0 */
    double relative;             /**< relative(e): -1 when B lacks the entry,
                                      INFINITY when share(A, e) is 0 */
} iprof_diff_change;

/** Initialiser of an iprof_diff_change: the version, then zeros and NULLs. */
#define IPROF_DIFF_CHANGE_INIT \
    {IPROF_DIFF_CHANGE_VERSION, {NULL, NULL}, {0, 0}, {0.0, 0.0}, 0.0, 0.0}

/**
 * @brief Fill @p out with what the comparison found over both models.
 * @param diff the result (borrowed).
 * @param[in,out] out caller-owned; its version set by the caller
 *        (IPROF_DIFF_SUMMARY_INIT does).
 * @retval IPROF_OK @p out is filled.
 * @retval IPROF_EINVAL @p diff or @p out is NULL, or @p out's version is
 *         unknown to this library; @p out is unchanged.
 */
IPROF_API int iprof_diff_get_summary(const iprof_diff *diff, iprof_diff_summary *out);

/**
 * @brief Fill @p out with what the comparison found for one kind of entry.
 * @param diff the result (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @param[in,out] out caller-owned; its version set by the caller
 *        (IPROF_DIFF_KIND_SUMMARY_INIT does).
 * @retval IPROF_OK @p out is filled.
 * @retval IPROF_EINVAL @p diff or @p out is NULL, @p kind is not a kind, or
 *         @p out's version is unknown to this library; @p out is unchanged.
 */
IPROF_API int iprof_diff_get_kind(const iprof_diff *diff, int kind,
                                  iprof_diff_kind_summary *out);

/**
 * @brief Fill @p out with one kept change of a kind.
 * @param diff the result (borrowed).
 * @param kind an IPROF_KIND_* value.
 * @param index 0 .. iprof_diff_kind_summary::change_count - 1, biggest
 *        |delta| first.
 * @param[in,out] out caller-owned; its version set by the caller
 *        (IPROF_DIFF_CHANGE_INIT does).
 * @retval IPROF_OK @p out is filled.
 * @retval IPROF_EINVAL @p diff or @p out is NULL, @p kind is not a kind, or
 *         @p out's version is unknown to this library; @p out is unchanged.
 * @retval IPROF_ENOTFOUND @p index is not below the kind's change count;
 *         @p out is unchanged.
 */
IPROF_API int iprof_diff_get_change(const iprof_diff *diff, int kind, size_t index,
                                    iprof_diff_change *out);

#ifdef __cplusplus
}
#endif

#endif /* IPROF_DIFF_H */
