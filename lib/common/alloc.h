/* Allocation through the user's iprof_allocator (libc by default). */
#ifndef IPI_ALLOC_H
#define IPI_ALLOC_H

#include <string.h>

#include <iprof/iprof.h>

/* Copy *user into *dst, or libc's functions when user is NULL. */
void ipi_allocator_init(iprof_allocator *dst, const iprof_allocator *user);

static inline void *ipi_malloc(const iprof_allocator *a, size_t size)
{
    return a->malloc_fn(size ? size : 1, a->user);
}

static inline void *ipi_realloc(const iprof_allocator *a, void *p, size_t old_size,
                                size_t new_size)
{
    return a->realloc_fn(p, old_size, new_size ? new_size : 1, a->user);
}

static inline void ipi_free(const iprof_allocator *a, void *p, size_t size)
{
    if (p)
        a->free_fn(p, size, a->user);
}

/* ipi_malloc for a block the caller writes whole right away (a sort's
 * arrays, a map filled at once), or a small one it fills over time (a
 * chunk of context nodes, 96 KiB): its pages are mapped in one call
 * (ipi_mem_populate) instead of faulting in one by one. Not for large
 * blocks filled over time, whose unused end would take memory:
 * ipi_map_ahead maps those as they fill. */
void *ipi_malloc_whole(const iprof_allocator *a, size_t size);

/* Zero len bytes at p, memory just obtained that the caller will use whole
 * (a table's new slots): its pages are mapped in one call first, as
 * ipi_malloc_whole's are. */
void ipi_clear_new(void *p, size_t len);

/* For a bump allocator filling a block of `size` bytes, `used` of them
 * so far: the block's pages mapped (ipi_mem_populate) up to `used` and a
 * step of 256 KiB beyond, from `ready`, up to where they were mapped
 * before; returns where they are mapped now. A page fault per 4 KiB costs
 * a load of a 100 MB profile a fifth of its time on a virtual machine;
 * mapping a block whole at once would leave the end of the last one
 * taking memory unused (docs/performance.md, "Pages mapped ahead"). */
size_t ipi_map_ahead(char *block, size_t ready, size_t used, size_t size);

/* Grow *p (an array of *cap elements of elem_size bytes) to hold at least
 * need elements, doubling. Returns 0 or IPROF_ENOMEM (then *p is intact). */
int ipi_grow(const iprof_allocator *a, void **p, size_t *cap, size_t need, size_t elem_size);

/* Give back the room of *p beyond count elements (the growth slack, once
 * an array is complete), in one realloc. Nothing fails: when the
 * allocator cannot shrink the block, the larger one stays. */
void ipi_shrink(const iprof_allocator *a, void **p, size_t *cap, size_t count, size_t elem_size);

/* The same for a typed array: arr is the address of the array's pointer
 * (an `int64_t **`, a `T **`), read and written as a pointer without
 * casting it to `void **`. */
static inline int ipi_grow_array(const iprof_allocator *a, void *arr, size_t *cap, size_t need,
                                 size_t elem_size)
{
    void *p;
    memcpy(&p, arr, sizeof p);
    int rc = ipi_grow(a, &p, cap, need, elem_size);
    memcpy(arr, &p, sizeof p);
    return rc;
}

static inline void ipi_shrink_array(const iprof_allocator *a, void *arr, size_t *cap,
                                    size_t count, size_t elem_size)
{
    void *p;
    memcpy(&p, arr, sizeof p);
    ipi_shrink(a, &p, cap, count, elem_size);
    memcpy(arr, &p, sizeof p);
}

#endif
