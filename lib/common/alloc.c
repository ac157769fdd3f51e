/* The default allocator and array growth. */
#include "alloc.h"

#include <stdlib.h>

#include "platform.h"

static void *libc_malloc(size_t size, void *user)
{
    (void)user;
    return malloc(size);
}

static void *libc_realloc(void *p, size_t old_size, size_t new_size, void *user)
{
    (void)old_size;
    (void)user;
    return realloc(p, new_size);
}

static void libc_free(void *p, size_t size, void *user)
{
    (void)size;
    (void)user;
    free(p);
}

void ipi_allocator_init(iprof_allocator *dst, const iprof_allocator *user)
{
    if (user && user->malloc_fn && user->realloc_fn && user->free_fn) {
        *dst = *user;
        return;
    }
    dst->malloc_fn = libc_malloc;
    dst->realloc_fn = libc_realloc;
    dst->free_fn = libc_free;
    dst->user = NULL;
}

void *ipi_malloc_whole(const iprof_allocator *a, size_t size)
{
    void *p = ipi_malloc(a, size);
    if (p)
        ipi_mem_populate(p, size);
    return p;
}

void ipi_clear_new(void *p, size_t len)
{
    ipi_mem_populate(p, len);
    memset(p, 0, len);
}

#define MAP_STEP ((size_t)256 * 1024)

size_t ipi_map_ahead(char *block, size_t ready, size_t used, size_t size)
{
    while (ready < used && ready < size) {
        size_t step = size - ready < MAP_STEP ? size - ready : MAP_STEP;
        ipi_mem_populate(block + ready, step);
        ready += step;
    }
    return ready;
}

int ipi_grow(const iprof_allocator *a, void **p, size_t *cap, size_t need, size_t elem_size)
{
    if (need <= *cap)
        return IPROF_OK;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return IPROF_ENOMEM;
        ncap *= 2;
    }
    if (ncap > SIZE_MAX / elem_size)
        return IPROF_ENOMEM;
    void *np = *p ? ipi_realloc(a, *p, *cap * elem_size, ncap * elem_size)
                  : ipi_malloc(a, ncap * elem_size);
    if (!np)
        return IPROF_ENOMEM;
    *p = np;
    *cap = ncap;
    return IPROF_OK;
}

void ipi_shrink(const iprof_allocator *a, void **p, size_t *cap, size_t count, size_t elem_size)
{
    if (!*p || count >= *cap)
        return;
    if (!count) {
        ipi_free(a, *p, *cap * elem_size);
        *p = NULL;
        *cap = 0;
        return;
    }
    void *np = ipi_realloc(a, *p, *cap * elem_size, count * elem_size);
    if (!np)
        return; /* the larger block stays: a load must not fail for this */
    *p = np;
    *cap = count;
}
