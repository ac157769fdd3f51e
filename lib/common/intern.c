/* Interned strings live in the table's own pool (intern.h says why). */
#include "intern.h"

#include <string.h>

#include "hash.h"

void ipi_intern_init(ipi_intern_table *in, const iprof_allocator *alloc)
{
    ipi_rtab_init(&in->tab);
    ipi_pool_init(&in->pool, alloc);
}

void ipi_intern_free(ipi_intern_table *in)
{
    ipi_rtab_free(&in->tab, in->pool.alloc);
    ipi_pool_free(&in->pool);
}

static const ipi_str *lookup(const ipi_intern_table *in, const char *s, size_t len, uint64_t h)
{
    uint32_t ref;
    ipi_rtab_for(&in->tab, h, ref)
    {
        const ipi_str *str = ipi_intern_at(in, ref);
        if (str->len == len && memcmp(str->s, s, len) == 0)
            return str;
    }
    return NULL;
}

const ipi_str *ipi_intern_find(const ipi_intern_table *in, const char *s, size_t len)
{
    return lookup(in, s, len, ipi_str_hash_bytes(s, len));
}

int ipi_intern(ipi_intern_table *in, const char *s, size_t len, const ipi_str **out)
{
    return ipi_intern_hashed(in, s, len, ipi_str_hash_bytes(s, len), out);
}

int ipi_intern_hashed(ipi_intern_table *in, const char *s, size_t len, uint64_t h,
                      const ipi_str **out)
{
    const ipi_str *found = lookup(in, s, len, h);
    if (found) {
        *out = found;
        return IPROF_OK;
    }
    if (len > IPI_STR_MAX) /* callers refuse it first, with their own message */
        return IPROF_ELIMIT;
    int rc = ipi_rtab_reserve(&in->tab, in->pool.alloc, 1);
    void *at;
    uint32_t ref;
    if (rc || (rc = ipi_pool_alloc(&in->pool, sizeof(ipi_str) + len + 1, &at, &ref)))
        return rc;
    ipi_str *str = at;
    str->len = (uint32_t)len;
    str->hash = (uint32_t)h; /* h is ipi_str_hash_bytes: 32 bits */
    if (len)
        memcpy(str->s, s, len);
    str->s[len] = '\0';
    ipi_rtab_put(&in->tab, h, ref); /* cannot fail: reserved */
    *out = str;
    return IPROF_OK;
}
