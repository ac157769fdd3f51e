/**
 * @file iprof/analysis.h
 * @brief Advanced: what a profile tells the compiler (branch probabilities
 *        and receiver-type shares as GraalVM derives them from the
 *        records, entry totals, the hottest methods); bulk views of a
 *        kind's entries for bindings.
 *
 * Records are counts; Native Image's PGO turns them into probabilities
 * before it optimizes (PGOApplyProfilesPhase and PGOUtils in GraalVM's
 * sources). These functions compute the same numbers from one entry, so a
 * post-processor can see what a profile will do to the code, and a staleness
 * check can compare what matters. docs/format.md ("What the compiler is
 * told") gives the formulas.
 *
 * Every function here only reads the model; all but
 * iprof_model_method_totals() allocate nothing. The full count of an output is always
 * returned in @c *count; arrays that the computation also uses as scratch
 * space must be large enough (IPROF_ELIMIT otherwise), while
 * iprof_model_method_totals() fills what it is given with the hottest.
 * Counts are taken as they are: negative counts of a leniently loaded file
 * give negative shares.
 *
 * Columns (struct iprof_columns) give every entry of a kind at once as
 * arrays, for bindings that hand them to numpy or Rust slices.
 *
 * Threads and ownership: as <iprof/iprof.h> says. Its exceptions:
 * iprof_model_method_totals() and the first iprof_model_get_columns() of a
 * kind allocate through the model's allocator from a const call (exception
 * (1) of <iprof/iprof.h>).
 */
#ifndef IPROF_ANALYSIS_H
#define IPROF_ANALYSIS_H

#include <iprof/iprof.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** GraalVM's EXTREMELY_SLOW_PATH_PROBABILITY (1 - 0.999999): what a
 *  branch that never ran is given instead of 0, and the probability left
 *  for receiver types the profile did not record. */
#define IPROF_EXTREMELY_SLOW_PATH_PROBABILITY (1.0 - 0.999999)

/** The bci GraalVM writes for switch cases that share their target with
 *  another case: such a record adds its count to its index's successor and
 *  gets no probability of its own. */
#define IPROF_INVALID_BRANCH_BCI (-5)

/**
 * @brief The successor probabilities of a conditional entry, as GraalVM
 *        applies them.
 *
 * The records are (bci, index, count) triples, and every record counts,
 * one that repeats another's bci and index too (GraalVM writes them for
 * switch cases that share a target). Counts are summed per index and over
 * the entry; each record gets (the sum of its index) / (records with its
 * index x the entry's sum); probabilities that come out 0 become
 * IPROF_EXTREMELY_SLOW_PATH_PROBABILITY and the others are scaled down so
 * that they still add up to 1; each index then gets the sum of its
 * records' probabilities, and each bci other than IPROF_INVALID_BRANCH_BCI
 * the probability of the index of its last record (a bci under two
 * indexes takes the later one's). One (bci, probability) pair per such
 * bci, in the order of its first record: the probability GraalVM gives
 * the successor at that bci (PGOApplyProfilesPhase's
 * aggregatedProbabilities, bit for bit; docs/format.md has the formula and
 * its few differences). Indexes may be any int64 (GraalVM expects 0 and
 * up). Negative counts (which only a lenient read keeps) are used as they
 * are, as GraalVM's arithmetic would use them, so probabilities may then
 * fall outside [0, 1].
 *
 * @param entry a conditional entry (borrowed).
 * @param[out] bcis receives the successors' bcis; also used as scratch
 *        space, so it must hold at least one value per triple.
 * @param[out] probabilities receives their probabilities (same size).
 * @param capacity the size of both arrays, in values.
 * @param[out] count receives the number of pairs (set in every case; the
 *        number of triples when the arrays are too small).
 * @retval IPROF_OK the pairs are written.
 * @retval IPROF_ENOTFOUND the counts add up to 0: GraalVM applies no
 *         probabilities; *count is 0.
 * @retval IPROF_ELIMIT @p capacity is below the number of triples; nothing
 *         is written, *count is the number of triples.
 * @retval IPROF_ESCHEMA the record count is not a multiple of 3.
 * @retval IPROF_EINVAL a NULL argument (arrays may be NULL with capacity
 *         0), or an entry of another kind.
 */
IPROF_API int iprof_entry_branch_probabilities(const iprof_entry *entry, int64_t *bcis,
                                               double *probabilities, size_t capacity,
                                               size_t *count);

/**
 * @brief The receiver-type shares of a virtual invoke, instanceof or
 *        monitor entry, as GraalVM builds a type profile from it.
 *
 * The records are (type id, count) pairs; counts of one type are summed.
 * Each type gets (1 - not recorded) x its count / the entry's total (a
 * total below 1 counts as 1), and the probability of types the profile did
 * not see, @p not_recorded, is IPROF_EXTREMELY_SLOW_PATH_PROBABILITY: what
 * GraalVM computes for a site that analysis gave no type profile of its
 * own. Types come highest share first, ties by ascending type id.
 *
 * @param entry a virtual invoke, instanceof or monitor entry (borrowed).
 * @param[out] types receives the type ids; also scratch space: it must
 *        hold at least one value per pair.
 * @param[out] shares receives their shares (same size).
 * @param capacity the size of both arrays, in values.
 * @param[out] count receives the number of types (set in every case; the
 *        number of pairs when the arrays are too small).
 * @param[out] not_recorded receives the probability left for other types;
 *        may be NULL.
 * @retval IPROF_OK the shares are written.
 * @retval IPROF_ENOTFOUND the entry has no pairs; *count is 0.
 * @retval IPROF_ELIMIT @p capacity is below the number of pairs.
 * @retval IPROF_ESCHEMA the record count is odd.
 * @retval IPROF_EINVAL a NULL argument, or an entry of another kind.
 */
IPROF_API int iprof_entry_type_shares(const iprof_entry *entry, int64_t *types, double *shares,
                                      size_t capacity, size_t *count, double *not_recorded);

/**
 * @brief The total count of an entry: the sum of its records' count slots
 *        (call count and sampling: the value; conditional: every third
 *        value; virtual invoke, monitor, instanceof: every second),
 *        saturating at the int64 limits.
 * @param entry the entry (borrowed); NULL gives 0.
 * @return the total.
 */
IPROF_API int64_t iprof_entry_total(const iprof_entry *entry);

/**
 * @brief Totals per callee method, hottest first: for each method that is
 *        the callee (frame 0) of entries of @p kind, the sum of their
 *        totals (iprof_entry_total(), saturating).
 *
 * With IPROF_KIND_CALL_COUNT this is "the hottest methods by call count"
 * of `iprof stats`; a @p capacity of N gives the N hottest. Ties are
 * ordered by ascending method id. Monitor entries all count for method 0
 * (their dummy "0:0" context).
 *
 * @param model the model (borrowed; only read).
 * @param kind an IPROF_KIND_* value.
 * @param[out] method_ids receives the method ids of the hottest
 *        @p capacity methods (may be NULL with capacity 0).
 * @param[out] totals receives their totals (same size).
 * @param capacity the size of both arrays.
 * @param[out] count receives the number of methods in all (may exceed
 *        @p capacity: the arrays then hold the hottest).
 * @retval IPROF_OK success.
 * @retval IPROF_ENOMEM the working memory (16 bytes per entry, from the
 *         model's allocator, freed before returning) could not be had.
 * @retval IPROF_EINVAL a NULL model or count, NULL arrays with a
 *         capacity, or a bad kind.
 * @threadsafety Exception (1) of <iprof/iprof.h>: reads @p model, but allocates
 *         its scratch space through the model's allocator.
 */
IPROF_API int iprof_model_method_totals(const iprof_model *model, int kind, int64_t *method_ids,
                                        int64_t *totals, size_t capacity, size_t *count);

/* ------------------------------------------------------------------------ */
/* Columns: every entry of a kind at once                                   */

/** The version of iprof_columns these headers define. */
#define IPROF_COLUMNS_VERSION 1

/**
 * The entries of one kind as columns, filled by iprof_model_get_columns():
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
 * @threadsafety Exception (1) of <iprof/iprof.h>: reads @p model, but the first
 *         call for a kind builds its columns through the model's allocator.
 */
IPROF_API int iprof_model_get_columns(const iprof_model *model, int kind, iprof_columns *out);

#ifdef __cplusplus
}
#endif

#endif /* IPROF_ANALYSIS_H */
