/* String interning: one arena copy per distinct string, so equal names
 * compare by pointer and a file's thousands of "<init>" cost one copy. */
#ifndef IPI_INTERN_H
#define IPI_INTERN_H

#include "arena.h"
#include "htab.h"

typedef struct ipi_str {
    size_t len;
    uint64_t hash;
    char s[]; /* NUL-terminated; may contain NUL bytes */
} ipi_str;

typedef struct ipi_intern_table {
    ipi_htab tab;
    ipi_arena *arena;             /* borrowed */
    const iprof_allocator *alloc; /* borrowed */
} ipi_intern_table;

void ipi_intern_init(ipi_intern_table *in, ipi_arena *arena, const iprof_allocator *alloc);
void ipi_intern_free(ipi_intern_table *in);
/* The interned copy of s[0..len), created if new; NULL on no memory. */
const ipi_str *ipi_intern(ipi_intern_table *in, const char *s, size_t len);
/* The interned copy if present, else NULL. */
const ipi_str *ipi_intern_find(const ipi_intern_table *in, const char *s, size_t len);

#endif
