/* String interning: one arena copy per distinct string, so equal names
 * compare by pointer and a file's thousands of "<init>" cost one copy. */
#ifndef IPI_INTERN_H
#define IPI_INTERN_H

#include <string.h>

#include "arena.h"
#include "hash.h"
#include "htab.h"

/* 8 bytes of header: 32-bit length and content hash. */
typedef struct ipi_str {
    uint32_t len;  /* IPI_STR_MAX at most */
    uint32_t hash; /* ipi_str_hash_bytes of the text */
    char s[];      /* NUL-terminated; may contain NUL bytes */
} ipi_str;

/* The longest string a table interns: longer names are refused with
 * IPROF_ELIMIT by the callers (model.c, load_batch.c). */
#define IPI_STR_MAX ((size_t)UINT32_MAX)

/* The content hash of a string, the same in every model: the low 32 bits
 * of ipi_hash_bytes, what an ipi_str keeps. Tables and the method keys
 * built from names take it zero-extended, so every hash of names computed
 * from bytes (the loader's, lookups by name) must come from here. */
static inline uint64_t ipi_str_hash_bytes(const char *s, size_t len)
{
    return (uint32_t)ipi_hash_bytes(s, len);
}

/* Whether two interned strings, of the same table or of two (two models),
 * hold the same bytes: their content hashes decide most pairs. */
static inline int ipi_str_equal(const ipi_str *a, const ipi_str *b)
{
    return a == b || (a->len == b->len && a->hash == b->hash && memcmp(a->s, b->s, a->len) == 0);
}

typedef struct ipi_intern_table {
    ipi_htab tab;
    ipi_arena *arena;             /* borrowed */
    const iprof_allocator *alloc; /* borrowed */
} ipi_intern_table;

void ipi_intern_init(ipi_intern_table *in, ipi_arena *arena, const iprof_allocator *alloc);
void ipi_intern_free(ipi_intern_table *in);
/* The interned copy of s[0..len), created if new; NULL on no memory. */
const ipi_str *ipi_intern(ipi_intern_table *in, const char *s, size_t len);
/* The same with h = ipi_str_hash_bytes(s, len) computed by the caller (the
 * loader hashes names ahead, on the reading thread). */
const ipi_str *ipi_intern_hashed(ipi_intern_table *in, const char *s, size_t len, uint64_t h);
/* Prefetch ahead of ipi_intern_hashed: first the home slot of h, then (a
 * step later, once that slot is cached) the string it names if its hash
 * is h, the string the lookup will most likely compare. */
static inline void ipi_intern_prefetch(const ipi_intern_table *in, uint64_t h)
{
    ipi_htab_prefetch(&in->tab, h);
}

static inline void ipi_intern_prefetch_str(const ipi_intern_table *in, uint64_t h)
{
    if (in->tab.cap) {
        const ipi_htab_slot *slot = &in->tab.slots[h & (in->tab.cap - 1)];
        if (slot->hash == h)
            ipi_prefetch(slot->item);
    }
}

/* The interned copy if present, else NULL. */
const ipi_str *ipi_intern_find(const ipi_intern_table *in, const char *s, size_t len);

#endif
