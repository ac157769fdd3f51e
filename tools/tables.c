/* Two small open-addressing hash tables for stats: a set of pointers and
 * a map from int64 id to a total. Both grow at half load. */
#include <stdlib.h>

#include "tool.h"

static size_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    return (size_t)x;
}

static size_t ptr_slot(const ptr_set *s, const void *p)
{
    size_t i = mix((uint64_t)(uintptr_t)p) & (s->cap - 1);
    while (s->slots[i] && s->slots[i] != p)
        i = (i + 1) & (s->cap - 1);
    return i;
}

static int ptr_grow(ptr_set *s)
{
    ptr_set n = {NULL, s->cap ? s->cap * 2 : 64, 0};
    n.slots = calloc(n.cap, sizeof *n.slots);
    if (!n.slots)
        return -1;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slots[i])
            n.slots[ptr_slot(&n, s->slots[i])] = s->slots[i];
    n.count = s->count;
    free(s->slots);
    *s = n;
    return 0;
}

int ptr_set_add(ptr_set *s, const void *p)
{
    if (2 * (s->count + 1) > s->cap && ptr_grow(s))
        return -1;
    size_t i = ptr_slot(s, p);
    if (!s->slots[i]) {
        s->slots[i] = p;
        s->count++;
    }
    return 0;
}

void ptr_set_free(ptr_set *s)
{
    free(s->slots);
    s->slots = NULL;
    s->cap = s->count = 0;
}

static size_t id_slot(const id_map *m, int64_t id)
{
    size_t i = mix((uint64_t)id) & (m->cap - 1);
    while (m->slots[i].used && m->slots[i].id != id)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static int id_grow(id_map *m)
{
    id_map n = {NULL, m->cap ? m->cap * 2 : 64, 0};
    n.slots = calloc(n.cap, sizeof *n.slots);
    if (!n.slots)
        return -1;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].used)
            n.slots[id_slot(&n, m->slots[i].id)] = m->slots[i];
    n.count = m->count;
    free(m->slots);
    *m = n;
    return 0;
}

int id_map_add(id_map *m, int64_t id, int64_t v)
{
    if (2 * (m->count + 1) > m->cap && id_grow(m))
        return -1;
    id_total *slot = &m->slots[id_slot(m, id)];
    if (!slot->used) {
        slot->used = 1;
        slot->id = id;
        m->count++;
    }
    total_add(&slot->total, v);
    return 0;
}

void id_map_free(id_map *m)
{
    free(m->slots);
    m->slots = NULL;
    m->cap = m->count = 0;
}
