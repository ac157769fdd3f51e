/* String interning: one copy per distinct string, so equal names compare
 * by pointer and a file's thousands of "<init>" cost one copy.
 *
 * The strings live in a pool of the table's own (pool.h): chunks that
 * never move (so the `const ipi_str *` handed out stay valid: types,
 * methods and the API's names point at them), each string named by a
 * 32-bit reference, which the table indexes on ipi_rtab: 8-byte slots
 * where a hash and a pointer would take 16. */
#ifndef IPI_INTERN_H
#define IPI_INTERN_H

#include <string.h>

#include "hash.h"
#include "pool.h"
#include "rtab.h"

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
    ipi_rtab tab;  /* references of the strings by hash */
    ipi_pool pool; /* the strings */
} ipi_intern_table;

void ipi_intern_init(ipi_intern_table *in, const iprof_allocator *alloc);
void ipi_intern_free(ipi_intern_table *in);

/* The string a reference names. */
static inline const ipi_str *ipi_intern_at(const ipi_intern_table *in, uint32_t ref)
{
    return (const ipi_str *)ipi_pool_at(&in->pool, ref);
}

/* The interned copy of s[0..len) into *out, created if new: IPROF_OK,
 * IPROF_ENOMEM, or IPROF_ELIMIT past the pool's max_chunks (the callers say
 * so in the model's error: ipi_model_intern). Nothing changes on failure. */
int ipi_intern(ipi_intern_table *in, const char *s, size_t len, const ipi_str **out);
/* The same with h = ipi_str_hash_bytes(s, len) computed by the caller (the
 * loader hashes names ahead, on the reading thread). */
int ipi_intern_hashed(ipi_intern_table *in, const char *s, size_t len, uint64_t h,
                      const ipi_str **out);
/* Prefetch ahead of ipi_intern_hashed: first the home slot of h, then (a
 * step later, once that slot is cached) the string it names if its tag is
 * h's, the string the lookup will most likely compare. */
static inline void ipi_intern_prefetch(const ipi_intern_table *in, uint64_t h)
{
    ipi_rtab_prefetch(&in->tab, h);
}

static inline void ipi_intern_prefetch_str(const ipi_intern_table *in, uint64_t h)
{
    if (in->tab.cap) {
        const ipi_rtab_slot *slot = ipi_rtab_home(&in->tab, h);
        if (slot->ref && slot->tag == (uint32_t)h)
            ipi_prefetch(ipi_intern_at(in, slot->ref));
    }
}

/* The interned copy if present, else NULL. */
const ipi_str *ipi_intern_find(const ipi_intern_table *in, const char *s, size_t len);

/* Visit every interned string: `ipi_intern_each(in, ref) use(ipi_intern_at(in, ref));`
 * (order unspecified). */
#define ipi_intern_each(in, ref)                                                            \
    for (size_t ipi_k_ = 0; ipi_k_ < (in)->tab.cap; ipi_k_++)                               \
        if (((ref) = (in)->tab.slots[ipi_k_].ref) != 0)

#endif
