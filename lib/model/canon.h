/* The canonical order of a model (iprof/transform.h): types by name with
 * ids 0..n-1, methods by (declaring type, name, signature) with ids 1..n,
 * the entries of each kind by their frames in those ids (callee first),
 * entries with equal frames combined and records sorted by key (pairs of
 * one type summed; conditional triples never combined, see canon.c).
 *
 * Computed beside the model, which it does not change: canonicalize builds
 * a new model in this order (transform.c) and a canonical write writes the
 * model in it (writer.c), so the two give the same bytes by construction
 * and the write needs no second model. */
#ifndef IPI_CANON_H
#define IPI_CANON_H

#include <stdatomic.h>

#include "job.h"
#include "model.h"

/* A method in the sort: 16 bytes, so that sorting millions stays in
 * budget. Methods are sorted a declaring type at a time (a counting sort
 * on it first), so the sort compares only the name and the rest of the
 * signature; most comparisons end at the prefix, without touching the
 * method, and the others reach it through ref, not through the model's
 * list of references (one cache miss fewer). */
typedef struct ipi_canon_meth {
    uint64_t prefix; /* the name's first 8 bytes, big-endian */
    uint32_t ref;    /* the method (ipi_model_method_at) */
    uint32_t index;  /* its place in the model's methods */
} ipi_canon_meth;

/* An entry in the sort: its callee frame in canonical ids and its
 * callers, inline (ties on the callee are common: no detour through the
 * entry). 24 bytes: two kinds are held at once when sorting is threaded.
 * A canonical method id fits 32 bits (ELIMIT otherwise), as does a
 * monitor's method, which has a canonical form only as 0 ("0:0"). */
typedef struct ipi_canon_ent {
    int64_t bci;
    union {
        const iprof_context *callers; /* the caller nodes */
        size_t off; /* with flat frames: the callers' keys at keys + off,
                     * or IPI_CANON_NO_CALLERS */
    };
    uint32_t method;
    uint32_t index; /* in the kind's entries */
} ipi_canon_ent;

#define IPI_CANON_NO_CALLERS SIZE_MAX

/* Model method id -> canonical id (0: none). Half the size of an idmap
 * when the ids are dense, as loads and merges make them: 4 bytes an id. */
typedef struct ipi_canon_ids {
    uint32_t *dense; /* dense[id] for 0 <= id < dense_cap */
    size_t dense_cap;
    ipi_idmap sparse; /* the other ids, as canonical id cast to a pointer */
} ipi_canon_ids;

static inline uint32_t ipi_canon_ids_get(const ipi_canon_ids *ids, int64_t id)
{
    if (id >= 0 && (uint64_t)id < (uint64_t)ids->dense_cap)
        return ids->dense[id];
    return (uint32_t)(uintptr_t)ipi_idmap_get(&ids->sparse, id);
}

/* What comparing entries of a kind reads: the method map, when the kind's
 * contexts name methods, and the callers' frames as flat keys when the
 * kind has them.
 *
 * Flat frames: a caller frame (canonical method m, bci b) is the key
 * (m + 1) << 33 | (b + 2^31) << 1 | more, `more` set when more callers
 * follow; an entry's callers are its keys from the callee's caller out
 * (no key at all when it has none). They are made for the kind being
 * walked once it is sorted, walking the context nodes in the model's
 * order (allocation order: few misses), so that the walk in sorted order
 * reads one short run of keys per entry, for its frames and for the check
 * for a repeat, instead of a chain of nodes, each a cache miss. 8 bytes a
 * caller, held by one kind at a time, so that a merge stays within 64
 * MiB beside its result: the first kind's sort makes its keys before
 * sorting (no kind is walked yet) and compares them; each later kind's
 * sort walks nodes, its keys made for the walk once the kind before has
 * given its own up. A kind with a frame out of the keys' range (a bci
 * beyond 32 bits, a method id beyond 31) keeps walking nodes. */
typedef struct ipi_canon_frames {
    const ipi_canon_ids *mmap; /* NULL: the kind's frames are kept as they are */
    const uint64_t *keys;      /* NULL: no flat frames, callers are nodes */
} ipi_canon_frames;

/* The sorted entries of one kind. Sorting may run as a job on a second
 * thread (ipi_canon_presort) while the caller writes what comes before. */
typedef struct ipi_canon_slot {
    int kind; /* sorted, or being sorted; -1: none */
    const iprof_entry *items;
    ipi_canon_frames frames;
    ipi_canon_ent *ents, *tmp;
    size_t count, ents_cap, tmp_cap;
    /* A large kind of canonical method ids sorts in buckets by method
     * first (canon.c, place_entries): their bounds, NULL when it does not;
     * a method's bucket is its id >> shift. */
    uint32_t *buckets;
    size_t buckets_cap;
    unsigned shift;
    uint64_t *keys; /* flat frames (frames.keys when the kind has them) */
    size_t keys_cap;
    int flat_sort; /* keys made (or tried) by the sort itself */
    ipi_job job;
    atomic_int sorted; /* set by the sort as it ends */
} ipi_canon_slot;

/* One entry of the canonical form: frames and records in canonical ids,
 * valid until the next ipi_canon_next. */
typedef struct ipi_canon_entry {
    const int64_t *frames; /* interleaved, callee first */
    size_t depth;
    const int64_t *records;
    size_t record_count;
} ipi_canon_entry;

typedef struct ipi_canon {
    const iprof_model *m;
    const iprof_allocator *a;
    int threaded; /* sorts may run on a second thread */
    ipi_idmap tmap; /* model type id -> canonical id + 1 */
    ipi_canon_ids mmap; /* model method id -> canonical id */
    /* The distinct types in order: type i has canonical id i. */
    const iprof_type **types;
    size_t type_count;
    /* The distinct methods in order: method i has canonical id i + 1 and
     * is ipi_model_method_at(m, order[i]) (a reference, not a place in
     * the model's list: the walk in this order reads one line fewer per
     * method). */
    uint32_t *order;
    size_t order_size; /* bytes held at order */
    size_t method_count;
    size_t method_ids; /* canonical method ids are 1..method_ids (kept
                        * once the order is freed) */
    int64_t *sig; /* ipi_canon_sig's answer */
    size_t sig_cap;
    /* The kind being walked by ipi_canon_next, in one of two slots: the
     * other may be sorting the next kind meanwhile. */
    ipi_canon_slot slots[2];
    ipi_canon_slot *walk; /* NULL before the first ipi_canon_kind */
    size_t next;
    int64_t *fr;
    size_t fr_cap;
    int64_t *recs;
    size_t recs_cap;
} ipi_canon;

/* Whether m has a canonical form: every reference resolves and every
 * entry's records can be grouped; report's error names what does not
 * (the first in the model's order). With `threaded`, a second thread
 * checks half of the rules. */
int ipi_canon_check(iprof_model *report, const iprof_model *m, int threaded);

/* The order of m's types and methods (m checked); IPROF_OK, IPROF_ENOMEM
 * or IPROF_ELIMIT (2^32 methods or types). With `threaded`, sorts run on
 * a second thread beside the calling one (same results); only the calling
 * thread allocates. ipi_canon_free frees what it took, whatever happened,
 * and waits for any sort still running. */
int ipi_canon_start(ipi_canon *c, const iprof_model *m, int threaded);
void ipi_canon_free(ipi_canon *c);

/* Method i of the canonical order (its id is i + 1), and its signature in
 * canonical type ids (valid until the next call; NULL when out of
 * memory). */
const iprof_method *ipi_canon_method(const ipi_canon *c, size_t i);
const int64_t *ipi_canon_sig(ipi_canon *c, size_t i);
/* The same signature into out (room for the method's sig_len ids):
 * reads only, so a job may call it while the calling thread walks. */
void ipi_canon_sig_into(const ipi_canon *c, size_t i, int64_t *out);
/* Ask the cache for the methods after method i (a hint, for loops over
 * the methods). */
void ipi_canon_prefetch_method(const ipi_canon *c, size_t i);
/* Free the order of the methods once they have been walked: the entries
 * need only the id map, and a merge of many files has millions. */
void ipi_canon_methods_done(ipi_canon *c);

/* Start sorting the entries of a kind (a job: on the second thread when
 * threaded), for a later ipi_canon_kind of it; the slot it takes must not
 * be the one being walked. IPROF_OK, IPROF_ENOMEM or IPROF_ELIMIT (2^32
 * entries of a kind). */
int ipi_canon_presort(ipi_canon *c, int kind);
/* The entries of a kind in order (presorted, or sorted now), for
 * ipi_canon_next to walk. IPROF_OK, IPROF_ENOMEM or IPROF_ELIMIT. */
int ipi_canon_kind(ipi_canon *c, int kind);
/* The next entry of the kind: 1 with *out, 0 after the last, or a
 * failure status (IPROF_ENOMEM, IPROF_ELIMIT). */
int ipi_canon_next(ipi_canon *c, ipi_canon_entry *out);

/* Walking the kind in two ranges at once (a job formats one while the
 * calling thread walks the one before). The walk's position is c->next;
 * ipi_canon_next called below a run start never goes past it.
 *
 * ipi_canon_run_start: the first index >= i where a run of equal frames
 * starts (i itself unless entry i - 1 has its frames), or the entry
 * count. */
size_t ipi_canon_run_start(const ipi_canon *c, size_t i);
/* Entry i when it stands alone: no next entry with equal frames (i must
 * be a run start), depth <= max_depth and records <= max_records. Then 1,
 * *out with its frames at fr and its sorted records at recs; else 0 (for
 * ipi_canon_next to take). Reads only: a job may call it. */
int ipi_canon_entry_at(const ipi_canon *c, size_t i, int64_t *fr, size_t max_depth,
                       int64_t *recs, size_t max_records, ipi_canon_entry *out);
/* Go on from entry i (a run start), those before it taken. */
void ipi_canon_skip(ipi_canon *c, size_t i);
/* Whether a presort is still running (on the second thread): a job
 * started now would share its core. */
int ipi_canon_sorting(const ipi_canon *c);

/* ---- shared by canon.c and canon_methods.c ------------------------------ */

static inline int ipi_canon_cmp_i64(int64_t a, int64_t b)
{
    return a < b ? -1 : a > b;
}

/* A type's canonical id from its id in the model (canon_methods.c). */
int64_t ipi_canon_type(const ipi_canon *c, int64_t old);

/* A stable merge sort of n items of a type, with their comparison inlined
 * and items moved by assignment: qsort's calls through a pointer and byte
 * copies cost as much as the comparisons here. tmp holds n / 2 items;
 * name_merge merges the sorted halves a[0, h) and a[h, n). */
#define IPI_CANON_DEFINE_SORT(name, Ctx, T, cmp)                                    \
    static void name##_merge(const Ctx *c, T *a, T *tmp, size_t h, size_t n)       \
    {                                                                               \
        if (h == 0 || h == n || cmp(c, &a[h - 1], &a[h]) <= 0)                      \
            return; /* already in order */                                          \
        memcpy(tmp, a, h * sizeof *a);                                              \
        size_t i = 0, j = h, k = 0;                                                 \
        while (i < h && j < n)                                                      \
            a[k++] = cmp(c, &a[j], &tmp[i]) < 0 ? a[j++] : tmp[i++];                \
        while (i < h)                                                               \
            a[k++] = tmp[i++];                                                      \
    }                                                                               \
    static void name(const Ctx *c, T *a, T *tmp, size_t n)                         \
    {                                                                               \
        if (n <= 16) { /* insertion sort */                                         \
            for (size_t i = 1; i < n; i++) {                                        \
                T x = a[i];                                                         \
                size_t j = i;                                                       \
                for (; j > 0 && cmp(c, &a[j - 1], &x) > 0; j--)                     \
                    a[j] = a[j - 1];                                                \
                a[j] = x;                                                           \
            }                                                                       \
            return;                                                                 \
        }                                                                           \
        size_t h = n / 2;                                                           \
        name(c, a, tmp, h);                                                         \
        name(c, a + h, tmp, n - h);                                                 \
        name##_merge(c, a, tmp, h, n);                                              \
    }

#endif
