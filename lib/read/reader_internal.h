/* What other modules of the library (the model loader) may ask of a reader
 * beyond the public API. */
#ifndef IPI_READER_INTERNAL_H
#define IPI_READER_INTERNAL_H

#include <iprof/stream.h>

/* The reader's allocator; models loaded through it use the same one. */
const iprof_allocator *ipi_reader_allocator(const iprof_reader *r);

/* The IPROF_READ_* flags the reader was created with. */
unsigned ipi_reader_flags(const iprof_reader *r);

/* When a callback of the library stopped the read because of its own
 * failure (say, no memory): report that status and message instead of
 * "stopped by a callback", keeping the position and path. After a read
 * that succeeded, set it as the reader's error (no position). */
void ipi_reader_replace_error(iprof_reader *r, int status, const char *message);

/* After a load's read failed with `status`: whether the load may keep
 * what came before (IPROF_READ_SALVAGE, a status saying the input is
 * damaged, the version accepted before the damage). */
int ipi_reader_salvageable(const iprof_reader *r, int status);

/* The load kept what came before the read's error: from now on
 * iprof_reader_get_result() reports it as the damage. */
void ipi_reader_set_salvaged(iprof_reader *r);

/* A load that fails before it reads (the model cannot even be created):
 * the reader's error and diagnostics describe this failure, not the last
 * read. */
void ipi_reader_fail(iprof_reader *r, int status, const char *message);

/* Begin a read of src and check the source alone (iprof_reader_read's
 * checks): IPROF_OK, or IPROF_EINVAL with the reason in the reader's
 * error. Lets a load or a merge refuse a bad source before it sets
 * anything up. */
int ipi_reader_check_source(iprof_reader *r, const iprof_source *src);

#endif
