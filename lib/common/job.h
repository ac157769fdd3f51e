/* A job: a function run on a second thread while the caller goes on, or
 * on the calling thread when threads were not asked for, are not built
 * in, or cannot be started. Either way ipi_job_wait returns once it has
 * run, so callers get the same result and need no second path.
 *
 * A job must not call the user's allocator or callbacks: those are only
 * called from the thread that called into the library. */
#ifndef IPI_JOB_H
#define IPI_JOB_H

#include <stddef.h>

#ifdef IPI_HAVE_THREADS
#include <pthread.h>
#endif

typedef struct ipi_job {
    void (*fn)(void *arg);
    void *arg;
    int running; /* on its own thread, not yet waited for */
#ifdef IPI_HAVE_THREADS
    pthread_t thread;
#endif
} ipi_job;

/* Start fn(arg): on a second thread when `threaded`, else (or when the
 * thread cannot be created) right here, before returning. */
void ipi_job_start(ipi_job *job, void (*fn)(void *arg), void *arg, int threaded);
/* Return once the job has run; nothing for a job that was never started
 * (a zeroed ipi_job) or was already waited for. */
void ipi_job_wait(ipi_job *job);

/* 1 when jobs can run on a second thread (a build with POSIX threads),
 * 0 when every job runs on the calling thread. */
int ipi_job_threads_available(void);

/* Work on fewer items than this stays on the calling thread: starting a
 * thread would cost more than it saves. */
#define IPI_JOB_MIN 4096

/* fn(lo) here and fn(hi) as a job beside it (threaded), both done on
 * return: a pass split in two parts. */
void ipi_job_both(void (*fn)(void *arg), void *lo, void *hi, int threaded);

/* Map the n blocks the caller is about to write whole (ipi_mem_populate;
 * NULL blocks skipped), the first half of each here and the second as a
 * job beside it (threaded): the first touch of a sort's arrays costs some
 * 0.35 ms a MiB on the virtual machine of docs/performance.md, time the
 * second thread would otherwise spend waiting. */
void ipi_job_populate(void *const *blocks, const size_t *sizes, size_t n, int threaded);

#endif
