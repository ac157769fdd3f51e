/* An open-addressing hash map from int64 ids to non-NULL pointers. Used
 * for type and method ids in the model and as id sets in the reader. */
#ifndef IPI_IDMAP_H
#define IPI_IDMAP_H

#include <iprof/common.h>

typedef struct ipi_idmap {
    int64_t *keys;
    void **vals; /* NULL marks an empty slot */
    size_t cap;  /* power of two, or 0 */
    size_t count;
} ipi_idmap;

void ipi_idmap_init(ipi_idmap *m);
void ipi_idmap_free(ipi_idmap *m, const iprof_allocator *a);
void *ipi_idmap_get(const ipi_idmap *m, int64_t key);
/* Insert or replace; val must not be NULL. 0 or IPROF_ENOMEM. */
int ipi_idmap_put(ipi_idmap *m, const iprof_allocator *a, int64_t key, void *val);
/* Make room for n more keys up front (one rehash instead of many). */
int ipi_idmap_reserve(ipi_idmap *m, const iprof_allocator *a, size_t n);
/* Remove key; returns the old value or NULL. */
void *ipi_idmap_del(ipi_idmap *m, int64_t key);
void ipi_idmap_clear(ipi_idmap *m);

#endif
