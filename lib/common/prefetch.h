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

/* Load a byte at p (valid memory) now, the value unused: a demand load,
 * which the CPU completes where it may drop a prefetch. Measured where a
 * prefetch did not bring the line in time (canon.c: the entries of a
 * canonical walk); elsewhere a load ahead only stalls sooner. */
static inline void ipi_touch(const void *p)
{
    (void)*(const volatile unsigned char *)p;
}

#endif
