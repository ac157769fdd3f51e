/* Bump allocation in growing chunks. */
#include "arena.h"

#include <string.h>

#include "alloc.h"

struct ipi_arena_chunk {
    ipi_arena_chunk *prev;
    size_t size; /* whole chunk, header included */
};

#define ARENA_FIRST_CHUNK ((size_t)16 * 1024)
#define ARENA_MAX_CHUNK ((size_t)4 * 1024 * 1024)
#define ALIGN_UP(n) (((n) + 7u) & ~(size_t)7u)
#define HEADER ALIGN_UP(sizeof(ipi_arena_chunk))

void ipi_arena_init(ipi_arena *arena, const iprof_allocator *alloc)
{
    memset(arena, 0, sizeof *arena);
    arena->alloc = alloc;
    arena->next_size = ARENA_FIRST_CHUNK;
}

void ipi_arena_free(ipi_arena *arena)
{
    ipi_arena_chunk *c = arena->head;
    while (c) {
        ipi_arena_chunk *prev = c->prev;
        ipi_free(arena->alloc, c, c->size);
        c = prev;
    }
    arena->head = NULL;
    arena->cur = arena->end = NULL;
    arena->total = 0;
}

/* Slow path: a new chunk. Big requests get a chunk of their own, put
 * behind the current one so the current one's free space is not lost. */
static void *arena_alloc_chunk(ipi_arena *arena, size_t size)
{
    if (size > SIZE_MAX - HEADER)
        return NULL;
    int own = size > arena->next_size / 4;
    size_t csize = own ? HEADER + size : arena->next_size;
    ipi_arena_chunk *c = ipi_malloc(arena->alloc, csize);
    if (!c)
        return NULL;
    c->size = csize;
    arena->total += csize;
    char *mem = (char *)c + HEADER;
    if (own && arena->head) {
        c->prev = arena->head->prev;
        arena->head->prev = c;
        return mem;
    }
    c->prev = arena->head;
    arena->head = c;
    arena->cur = mem + size;
    arena->end = (char *)c + csize;
    arena->ready = ipi_map_ahead((char *)c, 0, (size_t)(arena->cur - (char *)c), csize);
    if (!own && arena->next_size < ARENA_MAX_CHUNK)
        arena->next_size *= 2;
    return mem;
}

void *ipi_arena_alloc(ipi_arena *arena, size_t size)
{
    size = ALIGN_UP(size ? size : 1);
    if ((size_t)(arena->end - arena->cur) >= size) {
        void *p = arena->cur;
        arena->cur += size;
        char *head = (char *)arena->head;
        if ((size_t)(arena->cur - head) > arena->ready)
            arena->ready = ipi_map_ahead(head, arena->ready, (size_t)(arena->cur - head),
                                         (size_t)(arena->end - head));
        return p;
    }
    return arena_alloc_chunk(arena, size);
}

char *ipi_arena_strdup(ipi_arena *arena, const char *s, size_t len)
{
    if (len == SIZE_MAX)
        return NULL;
    char *p = ipi_arena_alloc(arena, len + 1);
    if (!p)
        return NULL;
    if (len)
        memcpy(p, s, len);
    p[len] = '\0';
    return p;
}
