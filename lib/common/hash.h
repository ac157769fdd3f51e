/* Hash functions for the id maps and intern tables: fast, not
 * cryptographic. Multiply-xorshift mixing in the style of wyhash/murmur. */
#ifndef IPI_HASH_H
#define IPI_HASH_H

#include <stdint.h>
#include <string.h>

static inline uint64_t ipi_hash_mix(uint64_t x)
{
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ULL;
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ULL;
    x ^= x >> 32;
    return x;
}

static inline uint64_t ipi_hash_i64(int64_t v)
{
    return ipi_hash_mix((uint64_t)v + 0x9e3779b97f4a7c15ULL);
}

/* Combine a running hash with one more 64-bit value. */
static inline uint64_t ipi_hash_combine(uint64_t h, uint64_t v)
{
    return ipi_hash_mix(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

static inline uint64_t ipi_hash_bytes(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t h = 0x243f6a8885a308d3ULL ^ (len * 0x9e3779b97f4a7c15ULL);
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 29;
        p += 8;
        len -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, p, len);
    h = (h ^ w) * 0x100000001b3ULL;
    return ipi_hash_mix(h);
}

#endif
