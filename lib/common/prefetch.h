/* A hint to the cache, for the lookups that fetch ahead. */
#ifndef IPI_PREFETCH_H
#define IPI_PREFETCH_H

/* Ask the cache for the line at p (a hint: p may be anything, even NULL). */
static inline void ipi_prefetch(const void *p)
{
#if defined(__GNUC__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

#endif
