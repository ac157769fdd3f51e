/* The one merge engine (merge_stream.c), its checks and how a type or a
 * method of the source finds or becomes one of dst (merge.c); a loaded
 * model is merged as the stream of its elements. */
#ifndef IPI_MERGE_H
#define IPI_MERGE_H

#include "model.h"

/* Options valid (version, flags, a finite weight >= 0, a known rounding),
 * else IPROF_EINVAL with dst's error saying which. */
int ipi_merge_check_options(iprof_model *dst, const iprof_merge_options *opts);

/* dst's entries have whole record groups, so that they can be combined;
 * else IPROF_ESCHEMA naming the first that does not. */
int ipi_merge_check_groups(iprof_model *dst);

/* dst's first type named `name` (interned in dst), or a new one with the
 * source's id when dst does not use it, else with *max + 1 (*max kept up
 * to date). IPI_IX_TYPE_NAMES must be built. */
int ipi_merge_type(iprof_model *dst, int64_t id, const ipi_str *name, int64_t *max,
                   const iprof_type **out);

/* The same for a method: `name` from any model, its signature as n types
 * of dst, h its key (ipi_method_names_hash), ids scratch room for n ids. */
int ipi_merge_method(iprof_model *dst, int64_t id, const ipi_str *name,
                     const iprof_type *const *sig, size_t n, uint64_t h, int64_t *ids,
                     int64_t *max, const iprof_method **out);

/* The same when dst's types are one to one (ipi_types_one_to_one): name
 * interned in dst, the signature as n type ids of dst. */
int ipi_merge_method_ids(iprof_model *dst, int64_t id, const ipi_str *name, const int64_t *ids,
                         size_t n, uint64_t h, int64_t *max, const iprof_method **out);

/* The streaming merge (merge_stream.c) of a loaded model: src's types,
 * methods and entries, in its order, as the element stream a read would
 * give; then its version and unknown keys. src checked first (its
 * references resolve, its entries keep the rules, dst's groups are whole,
 * the unknown keys combine or are dropped), opts valid. All or nothing:
 * on failure dst is as it was, its error set unless out of memory. */
int ipi_merge_model_stream(iprof_model *dst, const iprof_model *src,
                           const iprof_merge_options *opts);

/* dst takes src's version when it is higher or dst never had one. */
int ipi_merge_version(iprof_model *dst, const iprof_model *src);

#endif
