/* A pool of variable-size blocks in chunks that never move, each block
 * named by a 32-bit reference: (chunk number, offset in the chunk / 8).
 * Chunks hold at most IPI_POOL_CHUNK_MAX bytes, so the offset takes
 * IPI_POOL_OFF_BITS bits and the chunk number the other
 * IPI_POOL_CHUNK_BITS; a block too large for a chunk gets a chunk of its
 * own. Each chunk starts with its size, so no block sits at offset 0 of
 * chunk 0 and no reference is 0 (rtab.h's empty slot). Shared chunks
 * start at 4 KiB and double up to IPI_POOL_CHUNK_MAX, so a small owner
 * obtains little. The interned names (intern.h) and the model's methods
 * live in pools; blocks are freed all at once. */
#ifndef IPI_POOL_H
#define IPI_POOL_H

#include <iprof/iprof.h>

/* Offsets in 8-byte units within a chunk, and chunk numbers: 32 bits. */
#define IPI_POOL_OFF_BITS 17
#define IPI_POOL_CHUNK_BITS (32 - IPI_POOL_OFF_BITS)
/* The largest shared chunk (1 MiB): every 8-byte offset in it fits. */
#define IPI_POOL_CHUNK_MAX ((size_t)8 << IPI_POOL_OFF_BITS)
/* The most chunks a pool numbers (32,768: 32 GiB in shared chunks). */
#define IPI_POOL_MAX_CHUNKS ((size_t)1 << IPI_POOL_CHUNK_BITS)

typedef struct ipi_pool {
    char **chunks; /* chunk i: its size (size_t), then blocks */
    size_t chunk_count, chunk_cap;
    size_t max_chunks;            /* IPI_POOL_MAX_CHUNKS; lowered by tests */
    size_t cur;                   /* the shared chunk being filled, if size */
    size_t used, size;            /* bytes of it used, obtained (0: none yet) */
    size_t ready;                 /* bytes of it mapped (ipi_map_ahead) */
    size_t bytes;                 /* bytes of every chunk, obtained */
    const iprof_allocator *alloc; /* borrowed */
} ipi_pool;

void ipi_pool_init(ipi_pool *p, const iprof_allocator *alloc);
void ipi_pool_free(ipi_pool *p);

/* 8-byte aligned room for `size` bytes into *at, its reference into *ref:
 * IPROF_OK, IPROF_ENOMEM, or IPROF_ELIMIT past max_chunks chunks. Nothing
 * changes on failure. */
int ipi_pool_alloc(ipi_pool *p, size_t size, void **at, uint32_t *ref);

/* The block a reference names. */
static inline void *ipi_pool_at(const ipi_pool *p, uint32_t ref)
{
    return p->chunks[ref >> IPI_POOL_OFF_BITS] +
           ((size_t)(ref & ((1u << IPI_POOL_OFF_BITS) - 1)) << 3);
}

#endif
