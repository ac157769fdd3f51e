/*
 * The model's internal layout, shared by every file of lib/model/ that
 * works on a model (model*.c: types, methods, lookups, contexts, entries,
 * loading, editing; merge*, canon.h, transform.c, diff.c, staleness.c,
 * totals.c, dangling.c, ...) and by the writer (lib/write/writer.c), which
 * reads these structs directly for speed. `grep -l model.h lib` lists them.
 *
 * Memory: everything a model stores per element lives in its arena (types,
 * entry records), but for the context nodes, the interned names and the
 * methods with their signatures, which have chunks of their own
 * (ipi_ctx_nodes, ipi_intern_table, method_pool: pool.h) so that each has
 * a 32-bit reference: the context and name tables keep 8-byte slots
 * (rtab.h), the method list 4-byte references. Outside the arena there
 * are only those chunks, the growable lists, the id indexes (idpos.h) and
 * the hash tables, all allocated through the model's allocator; a load
 * gives back the lists' growth slack at its end (ipi_model_shrink).
 *
 * Indexes hold the FIRST element per key only: a lenient read may deliver
 * duplicate type/method ids or duplicate contexts within a kind, and
 * lookups must return the first of them. Removal re-indexes the next
 * element with that key, if any.
 *
 * Types and methods by id: ipi_model_type_by_id / ipi_model_method_by_id
 * below, never the index itself. While the ids are base, base + 1, ... in
 * list order (real files, the generator, merges that add fresh ids) the
 * index holds no map and the lookup is the list position id - base; else
 * it maps ids to 4-byte positions (idpos.h).
 */
#ifndef IPI_MODEL_H
#define IPI_MODEL_H

#include <stdatomic.h>
#include <string.h>

#include <iprof/iprof.h>
#include <iprof/transform.h> /* the predicates of the retain code */

#include "alloc.h"
#include "arena.h"
#include "pool.h"
#include "error.h"
#include "idpos.h"
#include "intern.h"
#include "rtab.h"

/* 16 bytes. */
struct iprof_type {
    int64_t id;
    const ipi_str *name; /* interned */
};

/* 24 bytes + 8 per signature id, one block of m->method_pool. */
struct iprof_method {
    int64_t id;
    const ipi_str *name; /* interned */
    size_t sig_len;
    int64_t sig[]; /* declaring type, return type, parameter types */
};

/* 24 bytes. One node per distinct frame sequence; the node of "5:0<3:2"
 * points to the node of "3:2" as its parent, so callers are shared. Nodes
 * live in m->ctx_nodes. A bci is int64 in the format but fits int32 in
 * every profile GraalVM writes; one that does not (or is IPI_BCI_WIDE
 * itself) is stored as IPI_BCI_WIDE with its value in the method field of
 * the node's next slot, which its chunk keeps for it: read bcis through
 * ipi_ctx_bci. The depth fits 32 bits as the node count does. */
struct iprof_context {
    int64_t method;
    const iprof_context *parent; /* the caller's context, NULL at depth 1 */
    int32_t bci;                 /* or IPI_BCI_WIDE */
    uint32_t depth;
};

#define IPI_BCI_WIDE INT32_MIN

/* A frame's bci as stored in a node: itself, or IPI_BCI_WIDE. */
static inline int32_t ipi_bci_narrow(int64_t bci)
{
    return bci > INT32_MIN && bci <= INT32_MAX ? (int32_t)bci : IPI_BCI_WIDE;
}

/* A node's bci, exact. */
static inline int64_t ipi_ctx_bci(const iprof_context *c)
{
    return c->bci != IPI_BCI_WIDE ? c->bci : c[1].method;
}

/* The context nodes: chunks of IPI_CTX_CHUNK slots that never move (a
 * `const iprof_context *` stays valid, as the API promises), so each node
 * also has a 32-bit index, and the context table (m->contexts) stores
 * index + 1 in 8-byte slots. A node with a wide bci takes two slots of
 * one chunk. Nodes a failed merge created stay, unreachable. */
#define IPI_CTX_CHUNK_SHIFT 12
#define IPI_CTX_CHUNK ((size_t)1 << IPI_CTX_CHUNK_SHIFT) /* 96 KiB */
/* Slots at most: their indexes + 1 must fit the table's 32-bit refs. */
#define IPI_CTX_MAX_SLOTS ((size_t)UINT32_MAX)

typedef struct ipi_ctx_nodes {
    iprof_context **chunks;
    size_t chunk_count, chunk_cap;
    size_t used; /* slots handed out: indexes 0 .. used - 1 */
    size_t max;  /* IPI_CTX_MAX_SLOTS; tests lower it to reach the limit */
    /* Whether a node with a negative method id was ever made (a failed
     * merge's undo leaves it set): while not, no context names one, and
     * the canonical check need not walk every entry's callers. */
    int negative;
} ipi_ctx_nodes;

/* The node at index i (< used). */
static inline const iprof_context *ipi_ctx_node(const ipi_ctx_nodes *n, size_t i)
{
    return &n->chunks[i >> IPI_CTX_CHUNK_SHIFT][i & (IPI_CTX_CHUNK - 1)];
}

/* 24 bytes; records live in the arena. */
struct iprof_entry {
    const iprof_context *ctx;
    int64_t *records;
    uint32_t record_count; /* the limit is checked on insertion */
    int32_t kind;
};

/* The entries of one kind in order. Their context index (IPI_IX_ENTRIES +
 * kind) holds position + 1: entries move when the array grows, so they
 * cannot be indexed by address. */
typedef struct ipi_entry_list {
    iprof_entry *items;
    size_t count, cap;
    size_t ready; /* bytes of items mapped ahead of appends (ipi_map_ahead; a hint) */
} ipi_entry_list;

/* Lookup tables that loading does not need, built on first use: by type
 * name, by method name and signature, and from context to entry per kind.
 * Skipping them makes loads faster and models smaller; see model_index.c.
 * A change to the model drops them through ipi_model_changed only. Each is
 * an ipi_rtab of 32-bit references: a type's position + 1, a method's
 * reference into method_pool (ipi_model_method_at), an entry's position
 * + 1; positions hold because a removal or reordering drops the index. */
enum {
    IPI_IX_TYPE_NAMES = 0,
    IPI_IX_METHOD_KEYS = 1,
    IPI_IX_METHOD_NAMES = 2, /* by name and signature type names (merge) */
    IPI_IX_ENTRIES = 3,      /* + kind */
    IPI_IX_COUNT = 3 + IPROF_KIND_COUNT
};

/* A top-level key the library does not interpret, kept with its raw JSON
 * so that writing the model back loses nothing (model_unknown.c). Key and
 * value live in one block of `size` bytes from the model's allocator, not
 * in the arena: a threaded load adds them on the reading thread while the
 * building thread owns the arena. */
typedef struct ipi_unknown {
    const char *key;
    size_t key_len;
    const char *json;
    size_t json_len;
    int after; /* the known section it followed: IPROF_KIND_* or IPROF_SECTION_*;
                  IPI_AFTER_END for keys added later (written last) */
    size_t size;
} ipi_unknown;

#define IPI_AFTER_END (-2)

/* What a model keeps of its file's layout beyond the profile: the unknown
 * keys in file order and the spelling of the instanceof key. */
typedef struct ipi_layout_extras {
    ipi_unknown *items;
    size_t count, cap;
    int instanceof_key; /* IPROF_INSTANCEOF_KEY_*; AUTO when none was read */
    /* Elements of the documents loaded or merged into the model that held
     * keys no element has: the reader does not read them, so the model
     * lacks them and a write refuses unless told to drop them
     * (IPROF_WRITE_DROP_UNKNOWN). The first one's place, for the error. */
    size_t unread;
    char unread_first[IPI_UNREAD_AT_MAX];
} ipi_layout_extras;

/* What the last streaming merge into a model took its fast paths for
 * (merge_stream.c): the input's methods and entries premapped (by the
 * reading thread, or a method by the merging thread when it kept up:
 * methods_premapped_late), and of those methods the ones matched by
 * dst's type ids;
 * when it built dst's names index, the methods the index's two-thread
 * fill took (ipi_index_method_names). A merge gives the same result
 * without them, only slower; tests read these to see the paths taken. */
/* The columns of a kind (model_columns.c), built on first use. */
typedef struct ipi_columns ipi_columns;

typedef struct ipi_merge_paths {
    size_t methods_premapped, methods_by_id, entries_premapped;
    size_t methods_premapped_late; /* of methods_premapped, by the merging thread */
    size_t names_by_halves;
} ipi_merge_paths;

struct iprof_model {
    iprof_allocator alloc; /* the user's, copied */
    ipi_arena arena;
    ipi_intern_table names; /* type and method names, version: own chunks, 32-bit refs */
    const char *version;    /* static default or interned */
    int version_set;        /* read or set (a new model's default is not) */
    /* What a strict read asks is known to hold: ids unique, references
     * resolved, signatures of 2+ ids. Set by a new model, kept by a clean
     * load, cleared by ipi_model_changed(IPI_CHANGED_UNCHECKED) after a
     * call that may break it, so that writing a model that holds it needs
     * no check (write_model.c). */
    int refs_checked;

    iprof_type **types;
    size_t type_count, type_cap;
    /* The methods in order, as 32-bit references into method_pool (4
     * bytes each where pointers take 8): read them through
     * ipi_model_method(m, i). */
    uint32_t *methods;
    size_t method_count, method_cap;
    ipi_pool method_pool; /* the method structs, in chunks that never move */

    ipi_idpos type_ids;    /* id -> position of the first type with it */
    ipi_idpos method_ids;  /* id -> position of the first method with it */
    ipi_ctx_nodes ctx_nodes; /* the context nodes (model_context.c) */
    ipi_rtab contexts;       /* node hash -> node index + 1 */
    /* While a merge runs: every context node it creates, so that a
     * failure can take them out again (journal.c). */
    struct ipi_ctx_log *ctx_log;

    ipi_entry_list entries[IPROF_KIND_COUNT];
    /* The lazy indexes: NULL until built. Atomic because const lookups
     * from several threads may race to build one (model_index.c). */
    ipi_rtab *_Atomic index[IPI_IX_COUNT];
    /* Methods left out of IPI_IX_METHOD_NAMES because a signature type id
     * did not resolve when it was built or kept up (0 while it is not
     * built); while there are any, a new type may complete one, so adding
     * a type drops that index (ipi_model_changed). */
    size_t names_unresolved;
    /* iprof_model_get_columns() of each kind: NULL until asked for, dropped
     * when the kind's entries change (ipi_model_changed). Atomic for the
     * same reason as index[]. */
    ipi_columns *_Atomic columns[IPROF_KIND_COUNT];

    ipi_layout_extras extras;
    size_t max_entries; /* of one kind: IPI_MAX_ENTRIES; lowered by tests */
    ipi_merge_paths merge_paths; /* of the last streaming merge into it */
    ipi_errbuf error; /* the last failed operation's report (iprof_model_error) */
};

/* Record counts above this fail with IPROF_ELIMIT (iprof_entry stores a
 * 32-bit count to stay small). */
#define IPI_MAX_RECORDS ((size_t)UINT32_MAX)
/* The most entries of one kind (iprof_model.max_entries): the entry index
 * names an entry by its position + 1 in 32 bits. One more fails with
 * IPROF_ELIMIT. */
#define IPI_MAX_ENTRIES ((size_t)UINT32_MAX - 1)

/* ---- model.c ------------------------------------------------------------ */

/* The first type or method with this id, or NULL: O(1), one subtraction
 * while the ids are in order. */
static inline iprof_type *ipi_model_type_by_id(const iprof_model *m, int64_t id)
{
    uint64_t i = ipi_idpos_get(&m->type_ids, id);
    return i < m->type_count ? m->types[i] : NULL;
}

/* The method a reference into method_pool names (m->methods[i] is
 * one). */
static inline iprof_method *ipi_model_method_at(const iprof_model *m, uint32_t ref)
{
    return (iprof_method *)ipi_pool_at(&m->method_pool, ref);
}

/* The method at position i (< method_count). */
static inline iprof_method *ipi_model_method(const iprof_model *m, size_t i)
{
    return ipi_model_method_at(m, m->methods[i]);
}

static inline iprof_method *ipi_model_method_by_id(const iprof_model *m, int64_t id)
{
    uint64_t i = ipi_idpos_get(&m->method_ids, id);
    return i < m->method_count ? ipi_model_method(m, i) : NULL;
}

/* Whether no type (types != 0) or method id of m is held twice. */
static inline int ipi_model_ids_unique(const iprof_model *m, int types)
{
    return types ? ipi_idpos_distinct(&m->type_ids, m->type_count) == m->type_count
                 : ipi_idpos_distinct(&m->method_ids, m->method_count) == m->method_count;
}

/* Give back the growth slack of the type, method and entry lists and of
 * the id indexes, once a load is complete (one realloc each; the larger
 * block stays when that fails: nothing fails). */
void ipi_model_shrink(iprof_model *m);
/* Keep only the first `types` types and `methods` methods (undoing the
 * appends of a failed merge: journal.c). Never allocates. */
void ipi_model_truncate(iprof_model *m, size_t types, size_t methods);

/* Append a type or method without checking ids or references (load keeps
 * duplicates as they come); indexes it if it is the first with its keys.
 * IPROF_ELIMIT for a name over IPI_STR_MAX bytes or a list already of
 * IPI_IDPOS_MAX elements, IPROF_ENOMEM. */
int ipi_model_push_type(iprof_model *m, int64_t id, const char *name, size_t name_len,
                        const iprof_type **out);
int ipi_model_push_method(iprof_model *m, int64_t id, const char *name, size_t name_len,
                          const int64_t *sig, size_t sig_len, const iprof_method **out);
/* The same with the name already interned in m->names (the loader interns
 * ahead with prefetching). */
int ipi_model_push_type_str(iprof_model *m, int64_t id, const ipi_str *name,
                            const iprof_type **out);
int ipi_model_push_method_str(iprof_model *m, int64_t id, const ipi_str *name,
                              const int64_t *sig, size_t sig_len, const iprof_method **out);
/* The same for a merge that has just probed IPI_IX_METHOD_NAMES (built)
 * for the method's key @p names_key and found nothing: the index takes
 * the method without a second probe. */
int ipi_model_push_method_new_key(iprof_model *m, int64_t id, const ipi_str *name,
                                  const int64_t *sig, size_t sig_len, uint64_t names_key,
                                  const iprof_method **out);
/* The retain code: keep the types, methods or entries of a kind for
 * which keep() returns non-zero, in one pass: the work of
 * iprof_model_filter's predicates (transform.c). Types and methods say
 * `also` changed beyond the removal: IPI_CHANGED_UNCHECKED as the filter
 * does (references to what goes may remain), or 0 from a caller that knows
 * nothing refers to what goes (ipi_model_changed). */
int ipi_model_retain_types(iprof_model *m, iprof_model_type_pred keep, void *payload,
                           unsigned also);
int ipi_model_retain_methods(iprof_model *m, iprof_model_method_pred keep, void *payload,
                             unsigned also);
int ipi_model_retain_entries(iprof_model *m, int kind, iprof_model_entry_pred keep,
                             void *payload);
/* The entries of a kind (-1: every kind) whose every frame passes keep
 * (model_entry.c). */
int ipi_model_retain_entries_by_frame(iprof_model *m, int kind, iprof_frame_pred keep,
                                      void *payload);
/* Whether every frame of e's context, callee to outermost caller, passes
 * keep (a monitor entry shows its dummy (0, 0)). */
int ipi_entry_frames_pass(const iprof_entry *e, iprof_frame_pred keep, void *payload);
int ipi_model_remove_method(iprof_model *m, int64_t id, unsigned also);
/* iprof_model_remove_method (flags 0) and iprof_model_drop_method
 * (IPROF_REMOVE_CASCADE: also every entry naming the method in any frame);
 * unknown flags: IPROF_EINVAL. 1.0's iprof_model_remove_method(m, id, flags). */
int ipi_model_remove_method_flags(iprof_model *m, int64_t id, unsigned int flags);
/* iprof_model_drop_dangling, which iprof_model_prune(IPROF_PRUNE_DANGLING)
 * runs too (dangling.c). */
int ipi_model_drop_dangling(iprof_model *m, size_t *methods, size_t entries[IPROF_KIND_COUNT]);
/* The largest type (types != 0) or method id of m, INT64_MIN if none
 * (where a merge's fresh ids start; what an id map is sized for). */
int64_t ipi_model_max_id(const iprof_model *m, int types);
/* Store a version string as given (no validation). */
int ipi_model_store_version(iprof_model *m, const char *version, size_t len);
/* ipi_intern_hashed into m's names (h = ipi_str_hash_bytes(s, len)), the
 * names' 32-bit limit (IPROF_ELIMIT) said in m's error. */
int ipi_model_intern(iprof_model *m, const char *s, size_t len, uint64_t h, const ipi_str **out);

/* Fail with IPROF_EDANGLING in report's error when a signature type id of
 * method id is not defined in m, naming both ids. */
int ipi_method_check_sig(iprof_model *report, const iprof_model *m, int64_t id,
                         const int64_t *sig, size_t sig_len, const char *whose);
/* The first signature slot whose type id m does not define, or sig_len. */
size_t ipi_method_sig_missing(const iprof_model *m, const int64_t *sig, size_t sig_len);

/* The key hash of the method table: interned name and signature ids. */
uint64_t ipi_method_hash(const ipi_str *name, const int64_t *sig, size_t sig_len);

/* ---- model_unknown.c ---------------------------------------------------- */

/* Append an unknown key as read (no checks), following section `after`. */
int ipi_unknown_push(iprof_model *m, const char *key, size_t key_len, const char *json,
                     size_t json_len, int after);
void ipi_unknown_free_all(iprof_model *m);
/* Free the unknown keys after the first count (undoing pushes). */
void ipi_unknown_truncate(iprof_model *m, size_t count);
/* Whether a top-level key is one the library interprets ("version",
 * "types", "methods", a profile section in either spelling). */
int ipi_is_known_key(const char *key, size_t len);
/* Whether a value says nothing that renumbering ids or combining files
 * could make wrong: [], {} or a scalar (after trimming whitespace). */
int ipi_unknown_is_plain(const ipi_unknown *u);
/* For canonicalize and merge (src may be NULL): refuse, with m's error
 * naming the key, an unknown key holding more than a plain value, or a
 * plain value that differs between m and src (or within one model).
 * Changes nothing but m's error. */
int ipi_unknown_check_combine(iprof_model *m, const iprof_model *src);
/* The same for m's keys alone (what its canonical form would combine),
 * failing in report's error. */
int ipi_unknown_check_keys(iprof_model *report, const iprof_model *m);
/* Take the spelling of src's instanceof key, and src's unknown keys that m
 * lacks (after a successful check); with drop, remove m's instead. */
int ipi_unknown_take(iprof_model *m, const iprof_model *src, int drop);
/* Count more elements whose unknown keys m lacks (ipi_layout_extras), the
 * first at `first` when m had none yet. */
void ipi_unknown_note_unread(iprof_model *m, size_t count, const char *first);

/* ---- model_error.c ------------------------------------------------------ */

/* What a failed model operation is about: any of a kind (-1: none), a
 * context's frames, a type id and a method id (NULL: none). */
typedef struct ipi_subject {
    int kind;
    const int64_t *frames;
    size_t frame_count;
    const int64_t *type_id;
    const int64_t *method_id;
} ipi_subject;

/* Set the model's error report; returns status. */
int ipi_model_fail(iprof_model *m, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The same with its subject recorded for iprof_error_kind() and friends. */
int ipi_model_fail_about(iprof_model *m, int status, const ipi_subject *about, const char *fmt,
                         ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* ---- model_context.c ---------------------------------------------------- */

/* Context nodes created while m->ctx_log is set: their table slots (hash
 * bits and index + 1), in blocks taken from the log's arena (a merge's
 * journal), newest last. Blocks never move: a merge that creates millions
 * of nodes does not copy its log as it grows. */
#define IPI_CTX_LOG_BLOCK 1024

typedef struct ipi_ctx_log_block {
    struct ipi_ctx_log_block *prev;
    size_t count;
    ipi_rtab_slot items[IPI_CTX_LOG_BLOCK];
} ipi_ctx_log_block;

typedef struct ipi_ctx_log {
    ipi_arena *arena; /* borrowed */
    ipi_ctx_log_block *last;
} ipi_ctx_log;

/* A new model's empty nodes and table; freeing them (for model.c). */
void ipi_context_init(iprof_model *m);
void ipi_context_free(iprof_model *m);

/* Take the logged nodes out of m's context table, newest first (they stay
 * in their chunks, unreachable); the log is then empty (its blocks stay in
 * its arena). */
void ipi_context_forget(iprof_model *m, ipi_ctx_log *log);

/* A context's frames, callee first, into *buf, grown (through a) to hold
 * them: the scratch of the passes that read a model's entries as frames. */
int ipi_context_frames_into(const iprof_allocator *a, const iprof_context *ctx, int64_t **buf,
                            size_t *cap);

/* The interned node of these frames (interleaved, callee first), created
 * with its missing caller suffixes, into *out. IPROF_ENOMEM, or
 * IPROF_ELIMIT (reported in m's error) past IPI_CTX_MAX_SLOTS nodes; the
 * nodes created before the failure stay interned. */
int ipi_context_intern(iprof_model *m, const int64_t *frames, size_t count,
                       const iprof_context **out);
/* The same with the hashes of its nodes known (ipi_context_hashes). */
int ipi_context_intern_hashed(iprof_model *m, const int64_t *frames, size_t count,
                              const uint64_t *hs, const iprof_context **out);
/* hs[k] = the hash of the k-th node from the outermost caller (count of
 * them); pure, so the reading thread can compute them. */
void ipi_context_hashes(const int64_t *frames, size_t count, uint64_t *hs);
/* Prefetch the table slots of these hashes, and in a second step ahead,
 * the nodes those slots point to. */
void ipi_context_prefetch(const iprof_model *m, const uint64_t *hs, size_t count);
void ipi_context_prefetch_nodes(const iprof_model *m, const uint64_t *hs, size_t count);
/* The node if it exists, else NULL. Never writes. */
const iprof_context *ipi_context_lookup(const iprof_model *m, const int64_t *frames,
                                        size_t count);

/* ---- model_index.c ------------------------------------------------------ */

/* The index, built now if it was not (safe from concurrent const callers);
 * NULL only when out of memory. */
const ipi_rtab *ipi_index_get(const iprof_model *m, int which);
/* For mutation: the index if it has been built, else NULL. */
ipi_rtab *ipi_index_built(iprof_model *m, int which);
/* Free every index and the columns (iprof_model_free). */
void ipi_index_free_all(iprof_model *m);

/* What a change to a model did, for ipi_model_changed. Appending through
 * ipi_model_push_type*, ipi_model_push_method* and the entry appends
 * keeps every index current (each indexes what it appends), so appending
 * says only what else may go stale (for methods: nothing). */
enum {
    /* Types appended (by ipi_model_push_type*): a method left out of the
     * names index for a missing signature type may resolve now. */
    IPI_CHANGED_TYPES_ADDED = 1u << 0,
    /* Types removed or reordered (remove, retain, a merge undone): the
     * type name and method names indexes go. */
    IPI_CHANGED_TYPES_REMOVED = 1u << 1,
    /* Methods removed or reordered: the method key and names indexes go. */
    IPI_CHANGED_METHODS_REMOVED = 1u << 2,
    /* Entries of the kind appended (and indexed as they came): its
     * columns go. */
    IPI_CHANGED_ENTRIES_ADDED = 1u << 3,
    /* Records of the kind's entries changed in place (set, map, scale,
     * combined, put back): its columns go. */
    IPI_CHANGED_RECORDS = 1u << 4,
    /* Entries of the kind removed or reordered, or its list replaced:
     * the entry index holds positions, it goes with the columns. */
    IPI_CHANGED_ENTRIES_REMOVED = 1u << 5,
    /* The model may now hold what a strict read refuses (a reference to
     * an undefined id, a short signature): refs_checked is cleared, so a
     * write checks the whole model again. Left out when the caller knows
     * nothing refers to what it removed (drop_method, prune, filter). */
    IPI_CHANGED_UNCHECKED = 1u << 6,
};

/* Say what changed in m: the one place that decides which lazy indexes,
 * columns and the refs_checked mark go stale (model_index.c). kind: the
 * entry kind the ENTRIES and RECORDS flags are about, -1 for every kind
 * (ignored by the others). Every change to a model calls this rather than
 * dropping an index or the columns, or clearing the mark, itself. */
void ipi_model_changed(iprof_model *m, unsigned what, int kind);

/* Keys of the indexes. */
uint64_t ipi_entry_hash(const iprof_context *ctx);
/* First type with this interned name, first method with this key, entry
 * position + 1 of the first entry of a kind with ctx (0 if none): through
 * the index, or by a scan when the index cannot be built. */
const iprof_type *ipi_find_type_by_name(const iprof_model *m, const ipi_str *name);
const iprof_method *ipi_find_method_by_key(const iprof_model *m, const ipi_str *name,
                                           const int64_t *sig, size_t sig_len, uint64_t h);
size_t ipi_find_entry_pos(const iprof_model *m, int kind, const iprof_context *ctx);

/* Methods keyed by names, the same in any model: the method name and the
 * names of its signature's types. ipi_method_names_hash takes the types of
 * m (the signature resolved to type structs). */
uint64_t ipi_method_names_hash(const ipi_str *name, const iprof_type *const *sig, size_t n);
/* The same from the name's content hash (its bytes not interned yet). */
uint64_t ipi_method_names_hash_of(uint64_t name_hash, const iprof_type *const *sig, size_t n);
/* The same for a method of m, its signature resolved through m's types;
 * 0 in *ok when a signature type id does not resolve (a leniently loaded
 * model): such a method has no key and cannot be matched. */
uint64_t ipi_method_names_key(const iprof_model *m, const iprof_method *x, int *ok);
/* The first method of m named `name` (any model's string) whose signature
 * types have the names of sig's types (types of m, so interned in m); via
 * IPI_IX_METHOD_NAMES, which the caller must have built. */
const iprof_method *ipi_find_method_by_names(const iprof_model *m, const ipi_rtab *index,
                                             const ipi_str *name,
                                             const iprof_type *const *sig, size_t n,
                                             uint64_t h);
/* Whether m's types pair names and ids one to one (no name or id used
 * twice): then a signature type matches by name exactly when it matches
 * by id (0 as well when its names index cannot be built). */
int ipi_types_one_to_one(const iprof_model *m);
/* ipi_find_method_by_names for such an m, name interned in m and the
 * signature as n type ids of m: ids compared, no type read. */
const iprof_method *ipi_find_method_by_ids(const iprof_model *m, const ipi_rtab *index,
                                           const ipi_str *name, const int64_t *sig, size_t n,
                                           uint64_t h);
/* IPI_IX_METHOD_NAMES, built now if needed (a mutation-side index: only
 * merge uses it; with `threaded`, its keys computed and its table filled
 * on two threads); NULL when out of memory. *by_halves (may be NULL): the
 * methods the two threads' halves of the table took, 0 when the index
 * was built before or on one thread (tests read it to see the path). */
const ipi_rtab *ipi_index_method_names(iprof_model *m, int threaded, size_t *by_halves);
/* Keep IPI_IX_METHOD_NAMES current after the method at reference ref
 * (into method_pool) was appended to m (no allocation: the caller
 * reserved one slot). */
int ipi_index_reserve_method_names(iprof_model *m);
void ipi_index_add_method_names(iprof_model *m, uint32_t ref);
/* The same when the method's key h is known to be absent from the index. */
void ipi_index_put_method_names(iprof_model *m, uint32_t ref, uint64_t h);

/* ---- model_columns.c ---------------------------------------------------- */

/* Free the kind's columns, if built. Only ipi_model_changed and
 * ipi_index_free_all call this: a change to the kind's entries says so
 * through ipi_model_changed. */
void ipi_columns_drop(iprof_model *m, int kind);

/* ---- model_entry.c ------------------------------------------------------ */

/* Append an entry as it comes (load): no checks, no combining; a repeated
 * context is kept as a second entry that lookups do not return. hs: the
 * hashes of its context's nodes (as ipi_context_hashes gives them), or
 * NULL to compute them here. */
int ipi_model_push_entry_hashed(iprof_model *m, int kind, const int64_t *frames,
                                size_t frame_count, const uint64_t *hs,
                                const int64_t *records, size_t record_count);
/* Check that every reference of the entry resolves in m (ctx method ids
 * for kinds that check them, record type ids); else fail with
 * IPROF_EDANGLING in report's error, which names the entry and the missing
 * id (`whose`: "the model merged from", ...). */
int ipi_entry_check_refs(iprof_model *report, const iprof_model *m, const iprof_entry *e,
                         const char *whose);
/* Whether every reference of the entry resolves in m (the same checks,
 * without a report). */
int ipi_entry_refs_ok(const iprof_model *m, const iprof_entry *e);
/* What adding these records at this context would break (kind, frames,
 * rules, references, size), in m's error; IPROF_OK when nothing. */
int ipi_entry_check_new(iprof_model *m, int kind, const int64_t *frames, size_t frame_count,
                        const int64_t *records, size_t record_count);
/* The same for the type ids of e's records alone (its context unchanged). */
int ipi_entry_check_type_refs(iprof_model *report, const iprof_model *m, const iprof_entry *e,
                              const char *whose);
/* Fail with IPROF_ESCHEMA in report's error: e breaks rule (an IPI_RULE_*);
 * grouping: say that its records cannot be grouped (merge, canonical). */
int ipi_entry_fail_rule(iprof_model *report, const iprof_entry *e, int rule, int grouping);
void ipi_entries_free(iprof_model *m);
/* Combine add_count records into the *count records at out (room for
 * *count + add_count), as adding them to an entry of the kind with those
 * records would; *count becomes the combined count. IPROF_ESCHEMA when the
 * records at out are not whole groups. */
int ipi_records_combine(const iprof_allocator *a, int kind, int64_t *out, size_t *count,
                        const int64_t *add, size_t add_count);
/* For the merges and the context cut: add these records (in m's ids,
 * valid, within the limit) at ctx, interned in m, combining them with the
 * kind's first entry there. Before an existing entry changes, before(payload, kind, its
 * position) runs and may refuse with a status (a journal that cannot
 * grow). The kind's entry index must be built. */
typedef int (*ipi_entry_hook)(void *payload, int kind, size_t pos);
int ipi_entry_merge_at(iprof_model *m, int kind, const iprof_context *ctx,
                       const int64_t *records, size_t record_count, ipi_entry_hook before,
                       void *payload);

/* Remove element pos of an array of *count elements of size bytes, keeping
 * the order (memmove, so typed arrays need no cast to void **). */
static inline void ipi_array_remove(void *items, size_t *count, size_t pos, size_t size)
{
    char *p = items;
    memmove(p + pos * size, p + (pos + 1) * size, (*count - pos - 1) * size);
    (*count)--;
}

/* ---- bounded text output (snprintf convention) -------------------------- */

typedef struct ipi_sbuf {
    char *buf;
    size_t size; /* bytes of buf, NUL included */
    size_t len;  /* full length of the text so far */
} ipi_sbuf;

static inline void ipi_sbuf_put(ipi_sbuf *b, const char *s, size_t n)
{
    size_t room = b->size ? b->size - 1 : 0;
    if (b->len < room) {
        size_t k = room - b->len < n ? room - b->len : n;
        if (k)
            memcpy(b->buf + b->len, s, k);
    }
    b->len += n;
}

/* NUL-terminate (if size > 0) and return the full length. */
static inline size_t ipi_sbuf_finish(ipi_sbuf *b)
{
    if (b->size)
        b->buf[b->len < b->size - 1 ? b->len : b->size - 1] = '\0';
    return b->len;
}

/* "Type.name" of a method (model.c). */
void ipi_describe_method(const iprof_model *m, const iprof_method *method, ipi_sbuf *out);

#endif
