/* Load events in blocks, applied with the lookups of later events
 * prefetched; see load_batch.h. */
#include "load_batch.h"

#include <stddef.h>

#include "alloc.h"
#include "hash.h"

/* An event: this header, then
 *   version, type: a key slot (8 bytes), the name's bytes;
 *   method:        n signature ids (int64), a key slot, the name's bytes;
 *   entry:         2n frame values (int64), n node hashes (from the
 *                  outermost caller), then `len` records (int64);
 * padded to 8 bytes. */
typedef struct ev {
    uint32_t tag; /* EV_* or an entry kind (0 .. IPROF_KIND_COUNT - 1), | PREMAPPED */
    uint32_t n;   /* signature ids or frames */
    uint64_t len; /* name bytes or records */
    uint64_t hash; /* of the name */
    int64_t id;
} ev;

enum { EV_VERSION = IPI_EV_VERSION, EV_TYPE = IPI_EV_TYPE, EV_METHOD = IPI_EV_METHOD };
#define PREMAPPED UINT32_C(0x80000000)

/* How far ahead the applier looks: slots of the events this far ahead are
 * fetched, and the strings and nodes of those half as far ahead, by which
 * time their slots have arrived. */
#define AHEAD_SLOTS 8
#define AHEAD_ITEMS 4
/* Contexts deeper than this have only their outermost nodes prefetched. */
#define AHEAD_FRAMES 16

#define PAD8(n) (((n) + 7u) & ~(size_t)7u)

ipi_batch *ipi_batch_new(const iprof_allocator *a, size_t cap)
{
    if (cap < IPI_BATCH_SIZE)
        cap = IPI_BATCH_SIZE;
    if (cap > SIZE_MAX - sizeof(ipi_batch))
        return NULL;
    ipi_batch *b = ipi_malloc(a, sizeof *b + cap);
    if (!b)
        return NULL;
    b->next = NULL;
    b->used = 0;
    b->cap = cap;
    return b;
}

void ipi_batch_free(const iprof_allocator *a, ipi_batch *b)
{
    if (b)
        ipi_free(a, b, sizeof *b + b->cap);
}

/* ---- sizes and encoding ------------------------------------------------- */

#define TOO_BIG ((size_t)-1)

size_t ipi_batch_named_size(size_t name_len, size_t sig_len)
{
    size_t room = SIZE_MAX / 2 - sizeof(ev) - 8; /* the key slot */
    if (sig_len > UINT32_MAX || name_len > room || name_len > IPI_STR_MAX ||
        sig_len > (room - name_len) / 8)
        return TOO_BIG;
    return sizeof(ev) + sig_len * 8 + 8 + PAD8(name_len);
}

size_t ipi_batch_entry_size(size_t frame_count, size_t record_count)
{
    size_t room = (SIZE_MAX / 2 - sizeof(ev)) / 8;
    if (frame_count > UINT32_MAX || record_count > room || frame_count > (room - record_count) / 3)
        return TOO_BIG;
    return sizeof(ev) + (frame_count * 3 + record_count) * 8;
}

static unsigned char *put_head(ipi_batch *b, uint32_t tag, size_t n, size_t len, uint64_t hash,
                               int64_t id, size_t size)
{
    unsigned char *p = b->data + b->used;
    ev e = {tag, (uint32_t)n, len, hash, id};
    memcpy(p, &e, sizeof e);
    b->used += size;
    return p + sizeof e;
}

static void put_named(ipi_batch *b, uint32_t tag, int64_t id, const char *name, size_t len,
                      uint64_t hash, const int64_t *sig, size_t sig_len)
{
    size_t size = ipi_batch_named_size(len, sig_len);
    unsigned char *p = put_head(b, tag, sig_len, len, hash, id, size);
    if (sig_len)
        memcpy(p, sig, sig_len * 8);
    memset(p + sig_len * 8, 0, 8); /* the key slot */
    if (len)
        memcpy(p + sig_len * 8 + 8, name, len);
}

void ipi_batch_put_version(ipi_batch *b, const char *version, size_t len)
{
    put_named(b, EV_VERSION, 0, version, len, ipi_str_hash_bytes(version, len), NULL, 0);
}

void ipi_batch_put_type(ipi_batch *b, int64_t id, const char *name, size_t name_len)
{
    put_named(b, EV_TYPE, id, name, name_len, ipi_str_hash_bytes(name, name_len), NULL, 0);
}

void ipi_batch_put_method(ipi_batch *b, int64_t id, const char *name, size_t name_len,
                          const int64_t *sig, size_t sig_len)
{
    put_named(b, EV_METHOD, id, name, name_len, ipi_str_hash_bytes(name, name_len), sig, sig_len);
}

void ipi_batch_put_type_hashed(ipi_batch *b, const ipi_str *name, int64_t id)
{
    put_named(b, EV_TYPE, id, name->s, name->len, name->hash, NULL, 0);
}

void ipi_batch_put_method_hashed(ipi_batch *b, const ipi_str *name, int64_t id,
                                 const int64_t *sig, size_t sig_len)
{
    put_named(b, EV_METHOD, id, name->s, name->len, name->hash, sig, sig_len);
}

static void put_entry(ipi_batch *b, int kind, const int64_t *frames, size_t frame_count,
                      const int64_t *records, size_t record_count, int hashed)
{
    size_t size = ipi_batch_entry_size(frame_count, record_count);
    unsigned char *p = put_head(b, (uint32_t)kind, frame_count, record_count, 0, 0, size);
    memcpy(p, frames, frame_count * 16);
    if (hashed)
        ipi_context_hashes(frames, frame_count, (uint64_t *)(void *)(p + frame_count * 16));
    if (record_count)
        memcpy(p + frame_count * 24, records, record_count * 8);
}

void ipi_batch_put_entry(ipi_batch *b, int kind, const int64_t *frames, size_t frame_count,
                         const int64_t *records, size_t record_count)
{
    put_entry(b, kind, frames, frame_count, records, record_count, 1);
}

void ipi_batch_put_entry_unhashed(ipi_batch *b, int kind, const int64_t *frames,
                                  size_t frame_count, const int64_t *records, size_t record_count)
{
    put_entry(b, kind, frames, frame_count, records, record_count, 0);
}

/* ---- applying ----------------------------------------------------------- */

/* The header at p, its tag without the PREMAPPED flag (loads never set
 * it; ipi_batch_event_at reports it). */
static ev head_of(const unsigned char *p)
{
    ev e;
    memcpy(&e, p, sizeof e);
    e.tag &= ~PREMAPPED;
    return e;
}

static size_t size_of(const ev *e)
{
    return e->tag >= EV_VERSION ? sizeof(ev) + (size_t)e->n * 8 + 8 + PAD8(e->len)
                                : sizeof(ev) + ((size_t)e->n * 3 + e->len) * 8;
}

static const uint64_t *hashes_of(const unsigned char *p, const ev *e)
{
    return (const uint64_t *)(const void *)(p + sizeof *e + (size_t)e->n * 16);
}

/* Step one of looking ahead: the table slots of the event at p. */
static void fetch_slots(const iprof_model *m, const unsigned char *p, const ev *e)
{
    if (e->tag >= EV_VERSION)
        ipi_intern_prefetch(&m->names, e->hash);
    else
        ipi_context_prefetch(m, hashes_of(p, e), e->n < AHEAD_FRAMES ? e->n : AHEAD_FRAMES);
}

/* Step two: the strings and nodes those slots name. */
static void fetch_items(const iprof_model *m, const unsigned char *p, const ev *e)
{
    if (e->tag >= EV_VERSION)
        ipi_intern_prefetch_str(&m->names, e->hash);
    else
        ipi_context_prefetch_nodes(m, hashes_of(p, e),
                                   e->n < AHEAD_FRAMES ? e->n : AHEAD_FRAMES);
}

static int apply_one(iprof_model *m, const unsigned char *p, const ev *e)
{
    const unsigned char *body = p + sizeof *e;
    if (e->tag < EV_VERSION) {
        const int64_t *frames = (const int64_t *)(const void *)body;
        const int64_t *records = (const int64_t *)(const void *)(body + (size_t)e->n * 24);
        return ipi_model_push_entry_hashed(m, (int)e->tag, frames, e->n, hashes_of(p, e),
                                           records, e->len);
    }
    const int64_t *sig = (const int64_t *)(const void *)body;
    const char *name = (const char *)body + (size_t)e->n * 8 + 8;
    if (e->tag == EV_VERSION)
        return ipi_model_store_version(m, name, e->len);
    const ipi_str *s;
    int rc = ipi_model_intern(m, e->len ? name : "", e->len, e->hash, &s);
    if (rc)
        return rc;
    if (e->tag == EV_TYPE)
        return ipi_model_push_type_str(m, e->id, s, NULL);
    return ipi_model_push_method_str(m, e->id, s, sig, e->n, NULL);
}

size_t ipi_batch_event_at(ipi_batch *b, size_t at, ipi_event *out)
{
    /* The header's fields read one by one from the batch: copying it
     * whole to the stack and reading it back stalls on store forwarding,
     * and a streaming merge decodes each event several times. */
    unsigned char *p = b->data + at, *body = p + sizeof(ev);
    uint32_t raw, n;
    uint64_t len;
    memcpy(&raw, p + offsetof(ev, tag), sizeof raw);
    memcpy(&n, p + offsetof(ev, n), sizeof n);
    memcpy(&len, p + offsetof(ev, len), sizeof len);
    uint32_t tag = raw & ~PREMAPPED;
    out->tag = (int)tag;
    out->premapped = (raw & PREMAPPED) != 0;
    out->n = n;
    out->ids = (int64_t *)(void *)body;
    if (tag >= EV_VERSION) {
        memcpy(&out->id, p + offsetof(ev, id), sizeof out->id);
        memcpy(&out->hash, p + offsetof(ev, hash), sizeof out->hash);
        out->key = (uint64_t *)(void *)(body + (size_t)n * 8);
        out->name = (const char *)body + (size_t)n * 8 + 8;
        out->name_len = len;
        out->hashes = NULL;
        out->records = NULL;
        out->record_count = 0;
        return at + sizeof(ev) + (size_t)n * 8 + 8 + PAD8(len);
    }
    out->id = 0;
    out->hash = 0;
    out->key = NULL;
    out->name = NULL;
    out->name_len = 0;
    out->hashes = (uint64_t *)(void *)(body + (size_t)n * 16);
    out->records = (int64_t *)(void *)(body + (size_t)n * 24);
    out->record_count = len;
    return at + sizeof(ev) + ((size_t)n * 3 + len) * 8;
}

void ipi_batch_mark_premapped(ipi_batch *b, size_t at)
{
    uint32_t tag;
    memcpy(&tag, b->data + at, sizeof tag);
    tag |= PREMAPPED;
    memcpy(b->data + at, &tag, sizeof tag);
}

/* A cursor running ahead of the applier over the same events. */
typedef struct ahead {
    const unsigned char *p, *end;
} ahead;

static const unsigned char *advance(ahead *a, ev *e)
{
    if (a->p >= a->end)
        return NULL;
    const unsigned char *at = a->p;
    *e = head_of(at);
    a->p += size_of(e);
    return at;
}

int ipi_batch_apply(iprof_model *m, const ipi_batch *b)
{
    const unsigned char *p = b->data, *end = b->data + b->used;
    ahead slots = {p, end}, items = {p, end};
    ev e;
    const unsigned char *q;
    for (int i = 0; i < AHEAD_SLOTS && (q = advance(&slots, &e)); i++)
        fetch_slots(m, q, &e);
    for (int i = 0; i < AHEAD_ITEMS && (q = advance(&items, &e)); i++)
        fetch_items(m, q, &e);
    while (p < end) {
        if ((q = advance(&slots, &e)))
            fetch_slots(m, q, &e);
        if ((q = advance(&items, &e)))
            fetch_items(m, q, &e);
        e = head_of(p);
        int rc = apply_one(m, p, &e);
        if (rc)
            return rc;
        p += size_of(&e);
    }
    return IPROF_OK;
}
