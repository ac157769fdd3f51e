/* Chunks that never move, blocks named by 32-bit references (pool.h). */
#include "pool.h"

#include <string.h>

#include "alloc.h"

#define FIRST_CHUNK ((size_t)4096)
#define HEADER sizeof(size_t) /* a chunk's size, at its start */

void ipi_pool_init(ipi_pool *p, const iprof_allocator *alloc)
{
    memset(p, 0, sizeof *p);
    p->max_chunks = IPI_POOL_MAX_CHUNKS;
    p->alloc = alloc;
}

void ipi_pool_free(ipi_pool *p)
{
    for (size_t i = 0; i < p->chunk_count; i++) {
        size_t size;
        memcpy(&size, p->chunks[i], sizeof size);
        ipi_free(p->alloc, p->chunks[i], size);
    }
    ipi_free(p->alloc, p->chunks, p->chunk_cap * sizeof *p->chunks);
    size_t max = p->max_chunks;
    ipi_pool_init(p, p->alloc);
    p->max_chunks = max;
}

/* A new chunk of `size` bytes, numbered chunk_count, into *at. */
static int new_chunk(ipi_pool *p, size_t size, size_t *at)
{
    if (p->chunk_count >= p->max_chunks)
        return IPROF_ELIMIT;
    if (ipi_grow_array(p->alloc, &p->chunks, &p->chunk_cap, p->chunk_count + 1,
                       sizeof *p->chunks))
        return IPROF_ENOMEM;
    char *c = ipi_malloc(p->alloc, size);
    if (!c)
        return IPROF_ENOMEM;
    memcpy(c, &size, sizeof size);
    *at = p->chunk_count;
    p->chunks[p->chunk_count++] = c;
    p->bytes += size;
    return IPROF_OK;
}

int ipi_pool_alloc(ipi_pool *p, size_t size, void **at, uint32_t *ref)
{
    if (size > SIZE_MAX - HEADER - 7)
        return IPROF_ENOMEM;
    size_t need = (size + 7) & ~(size_t)7, chunk, off;
    if (p->size && need <= p->size - p->used) {
        chunk = p->cur;
        off = p->used;
        p->used += need;
        if (p->used > p->ready)
            p->ready = ipi_map_ahead(p->chunks[chunk], p->ready, p->used, p->size);
    } else if (HEADER + need > IPI_POOL_CHUNK_MAX) { /* a chunk of its own */
        int rc = new_chunk(p, HEADER + need, &chunk);
        if (rc)
            return rc;
        off = HEADER;
    } else {
        size_t csize = p->size ? p->size : FIRST_CHUNK / 2;
        do
            csize *= 2;
        while (csize < HEADER + need);
        if (csize > IPI_POOL_CHUNK_MAX)
            csize = IPI_POOL_CHUNK_MAX;
        int rc = new_chunk(p, csize, &chunk);
        if (rc)
            return rc;
        p->cur = chunk;
        p->size = csize;
        off = HEADER;
        p->used = HEADER + need;
        p->ready = ipi_map_ahead(p->chunks[chunk], 0, p->used, csize);
    }
    *at = p->chunks[chunk] + off;
    *ref = (uint32_t)(chunk << IPI_POOL_OFF_BITS | off >> 3);
    return IPROF_OK;
}
