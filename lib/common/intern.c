/* Interned strings live in the table's own chunks (intern.h says why);
 * shared chunks start small and double up to IPI_STR_CHUNK_MAX, so a
 * small model obtains little and a large one a chunk per MiB of names. */
#include "intern.h"

#include <string.h>

#include "alloc.h"
#include "hash.h"

#define FIRST_CHUNK ((size_t)4096)
#define HEADER sizeof(size_t) /* a chunk's size, at its start */

void ipi_intern_init(ipi_intern_table *in, const iprof_allocator *alloc)
{
    memset(in, 0, sizeof *in);
    ipi_rtab_init(&in->tab);
    in->max_chunks = IPI_STR_MAX_CHUNKS;
    in->alloc = alloc;
}

void ipi_intern_free(ipi_intern_table *in)
{
    for (size_t i = 0; i < in->chunk_count; i++) {
        size_t size;
        memcpy(&size, in->chunks[i], sizeof size);
        ipi_free(in->alloc, in->chunks[i], size);
    }
    ipi_free(in->alloc, in->chunks, in->chunk_cap * sizeof *in->chunks);
    ipi_rtab_free(&in->tab, in->alloc);
    ipi_intern_init(in, in->alloc);
}

static const ipi_str *lookup(const ipi_intern_table *in, const char *s, size_t len, uint64_t h)
{
    uint32_t ref;
    ipi_rtab_for(&in->tab, h, ref)
    {
        const ipi_str *str = ipi_intern_at(in, ref);
        if (str->len == len && memcmp(str->s, s, len) == 0)
            return str;
    }
    return NULL;
}

const ipi_str *ipi_intern_find(const ipi_intern_table *in, const char *s, size_t len)
{
    return lookup(in, s, len, ipi_str_hash_bytes(s, len));
}

int ipi_intern(ipi_intern_table *in, const char *s, size_t len, const ipi_str **out)
{
    return ipi_intern_hashed(in, s, len, ipi_str_hash_bytes(s, len), out);
}

/* A new chunk of `size` bytes, numbered chunk_count, into *at. */
static int new_chunk(ipi_intern_table *in, size_t size, size_t *at)
{
    if (in->chunk_count >= in->max_chunks)
        return IPROF_ELIMIT;
    if (ipi_grow_array(in->alloc, &in->chunks, &in->chunk_cap, in->chunk_count + 1,
                       sizeof *in->chunks))
        return IPROF_ENOMEM;
    char *c = ipi_malloc(in->alloc, size);
    if (!c)
        return IPROF_ENOMEM;
    memcpy(c, &size, sizeof size);
    *at = in->chunk_count;
    in->chunks[in->chunk_count++] = c;
    in->bytes += size;
    return IPROF_OK;
}

/* Room for `need` bytes (a multiple of 8): its place and reference.
 * Nothing changes on failure. */
static int take(ipi_intern_table *in, size_t need, ipi_str **at, uint32_t *ref)
{
    size_t chunk, off;
    if (in->size && need <= in->size - in->used) { /* size 0: no shared chunk yet */
        chunk = in->cur;
        off = in->used;
        in->used += need;
    } else if (HEADER + need > IPI_STR_CHUNK_MAX) { /* a chunk of its own */
        if (need > SIZE_MAX - HEADER)
            return IPROF_ENOMEM;
        int rc = new_chunk(in, HEADER + need, &chunk);
        if (rc)
            return rc;
        off = HEADER;
    } else {
        size_t size = in->size ? in->size : FIRST_CHUNK / 2;
        do
            size *= 2;
        while (size < HEADER + need);
        if (size > IPI_STR_CHUNK_MAX)
            size = IPI_STR_CHUNK_MAX;
        int rc = new_chunk(in, size, &chunk);
        if (rc)
            return rc;
        in->cur = chunk;
        in->size = size;
        off = HEADER;
        in->used = HEADER + need;
    }
    *at = (ipi_str *)(void *)(in->chunks[chunk] + off);
    *ref = (uint32_t)(chunk << IPI_STR_OFF_BITS | off >> 3);
    return IPROF_OK;
}

int ipi_intern_hashed(ipi_intern_table *in, const char *s, size_t len, uint64_t h,
                      const ipi_str **out)
{
    const ipi_str *found = lookup(in, s, len, h);
    if (found) {
        *out = found;
        return IPROF_OK;
    }
    if (len > IPI_STR_MAX) /* callers refuse it first, with their own message */
        return IPROF_ELIMIT;
    int rc = ipi_rtab_reserve(&in->tab, in->alloc, 1);
    ipi_str *str;
    uint32_t ref;
    if (rc || (rc = take(in, (sizeof(ipi_str) + len + 1 + 7) & ~(size_t)7, &str, &ref)))
        return rc;
    str->len = (uint32_t)len;
    str->hash = (uint32_t)h; /* h is ipi_str_hash_bytes: 32 bits */
    if (len)
        memcpy(str->s, s, len);
    str->s[len] = '\0';
    ipi_rtab_put(&in->tab, h, ref); /* cannot fail: reserved */
    *out = str;
    return IPROF_OK;
}
