/* Interned strings live in the owner's arena; the table only indexes them. */
#include "intern.h"

#include <string.h>

#include "hash.h"

void ipi_intern_init(ipi_intern_table *in, ipi_arena *arena, const iprof_allocator *alloc)
{
    ipi_htab_init(&in->tab);
    in->arena = arena;
    in->alloc = alloc;
}

void ipi_intern_free(ipi_intern_table *in)
{
    ipi_htab_free(&in->tab, in->alloc);
}

static const ipi_str *lookup(const ipi_intern_table *in, const char *s, size_t len, uint64_t h)
{
    void *it;
    ipi_htab_for(&in->tab, h, it)
    {
        const ipi_str *str = it;
        if (str->len == len && memcmp(str->s, s, len) == 0)
            return str;
    }
    return NULL;
}

const ipi_str *ipi_intern_find(const ipi_intern_table *in, const char *s, size_t len)
{
    return lookup(in, s, len, ipi_str_hash_bytes(s, len));
}

const ipi_str *ipi_intern(ipi_intern_table *in, const char *s, size_t len)
{
    return ipi_intern_hashed(in, s, len, ipi_str_hash_bytes(s, len));
}

const ipi_str *ipi_intern_hashed(ipi_intern_table *in, const char *s, size_t len, uint64_t h)
{
    const ipi_str *found = lookup(in, s, len, h);
    if (found)
        return found;
    if (len > IPI_STR_MAX) /* callers refuse it first, with IPROF_ELIMIT */
        return NULL;
    if (ipi_htab_reserve(&in->tab, in->alloc, 1))
        return NULL;
    ipi_str *str = ipi_arena_alloc(in->arena, sizeof(ipi_str) + len + 1);
    if (!str)
        return NULL;
    str->len = (uint32_t)len;
    str->hash = (uint32_t)h; /* h is ipi_str_hash_bytes: 32 bits */
    if (len)
        memcpy(str->s, s, len);
    str->s[len] = '\0';
    ipi_htab_insert(&in->tab, in->alloc, h, str); /* cannot fail: reserved */
    return str;
}
