/* Jobs on a second thread; see job.h. */
#include "job.h"

#ifdef IPI_HAVE_THREADS
static void *run(void *job)
{
    ipi_job *j = job;
    j->fn(j->arg);
    return NULL;
}
#endif

int ipi_job_threads_available(void)
{
#ifdef IPI_HAVE_THREADS
    return 1;
#else
    return 0;
#endif
}

void ipi_job_start(ipi_job *job, void (*fn)(void *arg), void *arg, int threaded)
{
    job->fn = fn;
    job->arg = arg;
    job->running = 0;
#ifdef IPI_HAVE_THREADS
    if (threaded && pthread_create(&job->thread, NULL, run, job) == 0) {
        job->running = 1;
        return;
    }
#else
    (void)threaded;
#endif
    fn(arg); /* no thread: run it now */
}

void ipi_job_both(void (*fn)(void *arg), void *lo, void *hi, int threaded)
{
    ipi_job job;
    ipi_job_start(&job, fn, hi, threaded);
    fn(lo);
    ipi_job_wait(&job);
}

void ipi_job_wait(ipi_job *job)
{
#ifdef IPI_HAVE_THREADS
    if (job->running)
        pthread_join(job->thread, NULL);
#endif
    job->running = 0;
}
