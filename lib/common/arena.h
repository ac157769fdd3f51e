/* A bump allocator: many small allocations, freed all at once. The model
 * keeps names, contexts and records here, so freeing a model is a handful
 * of free() calls whatever its size. */
#ifndef IPI_ARENA_H
#define IPI_ARENA_H

#include <iprof/iprof.h>

typedef struct ipi_arena_chunk ipi_arena_chunk;

typedef struct ipi_arena {
    const iprof_allocator *alloc; /* borrowed from the owner */
    ipi_arena_chunk *head;        /* current chunk, linked to older ones */
    char *cur, *end;              /* free space in head */
    size_t ready;                 /* head's bytes mapped (ipi_map_ahead) */
    size_t next_size;             /* size of the next chunk */
    size_t total;                 /* bytes obtained from the allocator */
} ipi_arena;

void ipi_arena_init(ipi_arena *arena, const iprof_allocator *alloc);
void ipi_arena_free(ipi_arena *arena);

/* 8-byte aligned memory, or NULL when the allocator fails. */
void *ipi_arena_alloc(ipi_arena *arena, size_t size);

/* A NUL-terminated copy of s[0..len). */
char *ipi_arena_strdup(ipi_arena *arena, const char *s, size_t len);

#endif
