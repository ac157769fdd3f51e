/* Maps from int64 ids to values, used for type and method ids: ipi_idmap
 * to non-NULL pointers, ipi_idmap32 to non-zero 32-bit values (the model's
 * positions + 1, see idpos.h: half the bytes). Real files number their ids
 * densely from 0, so small non-negative ids live in a direct array (one
 * load, no hashing, 8 or 4 bytes per id) and only the others in an
 * open-addressing hash part. An id below dense_cap is only ever in the
 * array: growing the array moves such ids out of the hash. Both are one
 * body (idmap_decl.h, idmap_impl.h) written once for either value type. */
#ifndef IPI_IDMAP_H
#define IPI_IDMAP_H

#include <iprof/iprof.h>

typedef struct ipi_idmap ipi_idmap;
typedef struct ipi_idmap32 ipi_idmap32;

#define IDMAP ipi_idmap
#define IDMAP_VAL void *
#define IDMAP_FN(name) ipi_idmap_##name
#include "idmap_decl.h"
#undef IDMAP
#undef IDMAP_VAL
#undef IDMAP_FN

#define IDMAP ipi_idmap32
#define IDMAP_VAL uint32_t
#define IDMAP_FN(name) ipi_idmap32_##name
#include "idmap_decl.h"
#undef IDMAP
#undef IDMAP_VAL
#undef IDMAP_FN

#endif
