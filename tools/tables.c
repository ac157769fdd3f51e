/* The command's one hash table (index_table: probing over indices into an
 * array its user owns) and the small tables built on it: a set of pointers
 * and a map from int64 id to a total (stats), a map from strings to
 * indices (fit). */
#include <stdlib.h>
#include <string.h>

#include "tool.h"

uint64_t hash_word(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    x ^= x >> 33;
    return x;
}

int index_table_reserve(index_table *t, uint64_t (*hash_of)(size_t i, const void *ctx),
                        const void *ctx)
{
    if (2 * (t->count + 1) <= t->cap)
        return 0;
    size_t cap = t->cap ? t->cap * 2 : 64;
    size_t *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < t->count; i++) {
        size_t s = (size_t)hash_of(i, ctx) & (cap - 1);
        while (slots[s])
            s = (s + 1) & (cap - 1);
        slots[s] = i + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return 0;
}

void index_table_free(index_table *t)
{
    free(t->slots);
    t->slots = NULL;
    t->cap = t->count = 0;
}

/* Grow an array of *cap items of `size` bytes to hold one more. */
static int grow_items(void *items_ptr, size_t *cap, size_t count, size_t size)
{
    void *items;
    memcpy(&items, items_ptr, sizeof items);
    if (count < *cap)
        return 0;
    size_t n = *cap ? *cap * 2 : 32;
    void *p = realloc(items, n * size);
    if (!p)
        return -1;
    memcpy(items_ptr, &p, sizeof p);
    *cap = n;
    return 0;
}

static uint64_t ptr_hash(size_t i, const void *ctx)
{
    const ptr_set *s = ctx;
    return hash_word((uint64_t)(uintptr_t)s->items[i]);
}

int ptr_set_add(ptr_set *s, const void *p)
{
    if (index_table_reserve(&s->index, ptr_hash, s))
        return -1;
    size_t at = index_first(&s->index, hash_word((uint64_t)(uintptr_t)p));
    for (; s->index.slots[at]; at = index_next(&s->index, at))
        if (s->items[s->index.slots[at] - 1] == p)
            return 0;
    if (grow_items(&s->items, &s->cap, s->index.count, sizeof *s->items))
        return -1;
    s->items[s->index.count] = p;
    index_put(&s->index, at);
    return 0;
}

void ptr_set_free(ptr_set *s)
{
    free(s->items);
    s->items = NULL;
    s->cap = 0;
    index_table_free(&s->index);
}

static uint64_t id_hash(size_t i, const void *ctx)
{
    const id_map *m = ctx;
    return hash_word((uint64_t)m->items[i].id);
}

int id_map_add(id_map *m, int64_t id, int64_t v)
{
    if (index_table_reserve(&m->index, id_hash, m))
        return -1;
    size_t at = index_first(&m->index, hash_word((uint64_t)id));
    for (; m->index.slots[at]; at = index_next(&m->index, at)) {
        id_total *item = &m->items[m->index.slots[at] - 1];
        if (item->id == id) {
            total_add(&item->total, v);
            return 0;
        }
    }
    if (grow_items(&m->items, &m->cap, m->index.count, sizeof *m->items))
        return -1;
    id_total *item = &m->items[m->index.count];
    item->id = id;
    item->total = (tool_total){0, 0, 0, 0};
    total_add(&item->total, v);
    index_put(&m->index, at);
    return 0;
}

void id_map_free(id_map *m)
{
    free(m->items);
    m->items = NULL;
    m->cap = 0;
    index_table_free(&m->index);
}

static uint64_t str_hash(const char *s)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    return hash_word(h);
}

static uint64_t str_item_hash(size_t i, const void *ctx)
{
    return ((const str_map *)ctx)->items[i].hash;
}

/* The slot of @p key, or the empty slot where it would go. */
static size_t str_slot(const str_map *m, const char *key, uint64_t h)
{
    size_t s = index_first(&m->index, h);
    for (; m->index.slots[s]; s = index_next(&m->index, s)) {
        const str_item *it = &m->items[m->index.slots[s] - 1];
        if (it->hash == h && strcmp(it->key, key) == 0)
            break;
    }
    return s;
}

const size_t *str_map_get(const str_map *m, const char *key)
{
    if (!m->index.cap)
        return NULL;
    size_t s = str_slot(m, key, str_hash(key));
    return m->index.slots[s] ? &m->items[m->index.slots[s] - 1].value : NULL;
}

int str_map_put(str_map *m, const char *key, size_t value)
{
    if (index_table_reserve(&m->index, str_item_hash, m))
        return -1;
    uint64_t h = str_hash(key);
    size_t s = str_slot(m, key, h);
    if (m->index.slots[s])
        return 0;
    char *copy = malloc(strlen(key) + 1);
    if (!copy || grow_items(&m->items, &m->cap, m->index.count, sizeof *m->items)) {
        free(copy);
        return -1;
    }
    strcpy(copy, key);
    m->items[m->index.count] = (str_item){copy, h, value};
    index_put(&m->index, s);
    return 0;
}

void str_map_free(str_map *m)
{
    for (size_t i = 0; i < m->index.count; i++)
        free(m->items[i].key);
    free(m->items);
    m->items = NULL;
    m->cap = 0;
    index_table_free(&m->index);
}
