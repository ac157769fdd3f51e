/* Jobs on a second thread; see job.h. */
#include "job.h"

#include "platform.h"

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

typedef struct populate_part {
    void *const *blocks;
    const size_t *sizes;
    size_t n;
    int second;
} populate_part;

static void populate_half(void *arg)
{
    const populate_part *p = arg;
    for (size_t i = 0; i < p->n; i++) {
        size_t h = p->sizes[i] / 2;
        if (p->blocks[i])
            ipi_mem_populate((char *)p->blocks[i] + (p->second ? h : 0),
                             p->second ? p->sizes[i] - h : h);
    }
}

void ipi_job_populate(void *const *blocks, const size_t *sizes, size_t n, int threaded)
{
    populate_part lo = {blocks, sizes, n, 0}, hi = {blocks, sizes, n, 1};
    ipi_job_both(populate_half, &lo, &hi, threaded);
}

void ipi_job_wait(ipi_job *job)
{
#ifdef IPI_HAVE_THREADS
    if (job->running)
        pthread_join(job->thread, NULL);
#endif
    job->running = 0;
}
