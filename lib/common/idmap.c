/* The two id maps of idmap.h, one body (idmap_impl.h) for both. */
#include "idmap.h"

#include <string.h>

#include "alloc.h"
#include "hash.h"

#define IDMAP ipi_idmap
#define IDMAP_VAL void *
#define IDMAP_FN(name) ipi_idmap_##name
#include "idmap_impl.h"
#undef IDMAP
#undef IDMAP_VAL
#undef IDMAP_FN

#define IDMAP ipi_idmap32
#define IDMAP_VAL uint32_t
#define IDMAP_FN(name) ipi_idmap32_##name
#include "idmap_impl.h"
