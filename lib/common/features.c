/* What this build of the library can do (iprof_features): the optional
 * parts meson found, each asked of the module that has it. */
#include <iprof/iprof.h>

#include "gzip.h"
#include "job.h"

IPROF_API unsigned int iprof_features(void)
{
    unsigned int f = 0;
    if (ipi_gzip_available())
        f |= IPROF_FEATURE_GZIP;
    if (ipi_job_threads_available())
        f |= IPROF_FEATURE_THREADS;
    return f;
}

