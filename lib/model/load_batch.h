/* Batches of load events: what the reader delivered (version, types,
 * methods, entries), copied into one block with the hashes the model will
 * need, then applied to the model in one go.
 *
 * Why: applying one element at a time, every name and context lookup waits
 * on memory twice (the hash table slot, then the string or node it names).
 * A batch lets the applier see elements ahead and fetch their slots and
 * candidates before it gets to them. It is also the unit a threaded load
 * hands from the reading thread to the building thread (model_load.c), so
 * hashing happens on the reading side. */
#ifndef IPI_LOAD_BATCH_H
#define IPI_LOAD_BATCH_H

#include "model.h"

typedef struct ipi_batch ipi_batch;
struct ipi_batch {
    ipi_batch *next; /* for the loader's queues */
    size_t used;     /* bytes of events in data */
    size_t cap;      /* bytes of data */
    _Alignas(8) unsigned char data[];
};

/* Bytes a batch of default size holds: big enough to amortise a hand-over
 * between threads, small enough to stay in a core's L2 cache. */
#define IPI_BATCH_SIZE ((size_t)128 * 1024)

/* A batch with room for cap bytes of events (at least IPI_BATCH_SIZE);
 * NULL when out of memory. */
ipi_batch *ipi_batch_new(const iprof_allocator *a, size_t cap);
void ipi_batch_free(const iprof_allocator *a, ipi_batch *b);

/* The bytes each event takes, (size_t)-1 when it cannot be represented
 * (lengths above 2^32 - 1 elements, sizes that overflow). */
size_t ipi_batch_named_size(size_t name_len, size_t sig_len);
size_t ipi_batch_entry_size(size_t frame_count, size_t record_count);

/* Append one event; the caller made sure it fits (used + size <= cap). */
void ipi_batch_put_version(ipi_batch *b, const char *version, size_t len);
void ipi_batch_put_type(ipi_batch *b, int64_t id, const char *name, size_t name_len);
void ipi_batch_put_method(ipi_batch *b, int64_t id, const char *name, size_t name_len,
                          const int64_t *sig, size_t sig_len);
/* kind must be 0 .. IPROF_KIND_COUNT - 1 (other values would read back as
 * another event). */
void ipi_batch_put_entry(ipi_batch *b, int kind, const int64_t *frames, size_t frame_count,
                         const int64_t *records, size_t record_count);

/* What a walk of a loaded model puts (merge_stream.c): a type or method
 * named by an interned string, its hash known; an entry without its node
 * hashes, for an applier that rewrites its frames and then hashes them. */
void ipi_batch_put_type_hashed(ipi_batch *b, const ipi_str *name, int64_t id);
void ipi_batch_put_method_hashed(ipi_batch *b, const ipi_str *name, int64_t id,
                                 const int64_t *sig, size_t sig_len);
void ipi_batch_put_entry_unhashed(ipi_batch *b, int kind, const int64_t *frames,
                                  size_t frame_count, const int64_t *records, size_t record_count);

/* One event of a batch, seen in place (its arrays point into the batch,
 * so an applier may rewrite them): a version, a type, a method or an
 * entry of kind tag. */
enum { IPI_EV_VERSION = 0x100, IPI_EV_TYPE, IPI_EV_METHOD };

typedef struct ipi_event {
    int tag;          /* IPI_EV_* or an entry kind */
    int premapped;    /* marked by ipi_batch_mark_premapped */
    int64_t id;       /* type, method */
    const char *name; /* version, type, method: name_len bytes */
    size_t name_len;
    uint64_t hash;    /* of the name */
    uint64_t *key;    /* version, type, method: a slot of 8 bytes for the
                         applier's use (0 as put) */
    int64_t *ids;     /* method: signature ids; entry: 2 * n frame values */
    size_t n;         /* signature ids or frames */
    uint64_t *hashes; /* entry: the n node hashes (ipi_context_hashes) */
    int64_t *records; /* entry */
    size_t record_count;
} ipi_event;

/* The event at byte `at` of b (at < b->used) in *e; the byte after it. */
size_t ipi_batch_event_at(ipi_batch *b, size_t at, ipi_event *e);
/* Flag the event at byte `at` as rewritten by the reading thread (a
 * streaming merge's remap): the applier then takes it as it is. Loads
 * never set it. */
void ipi_batch_mark_premapped(ipi_batch *b, size_t at);

/* Apply every event of b to m in order, as the model's push functions
 * would. IPROF_OK, or the first failure (the events before it stay in m). */
int ipi_batch_apply(iprof_model *m, const ipi_batch *b);

#endif
