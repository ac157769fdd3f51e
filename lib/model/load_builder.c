/* Applying load batches, inline or on a second thread; see load_builder.h.
 *
 * Threaded, the two threads share one mutex and one condition variable:
 * the reader queues full batches and takes applied ones back for reuse, the
 * builder takes queued batches in order. At most MAX_BATCHES exist, so a
 * reader running ahead waits instead of buffering the file. */
#include "load_builder.h"

#include "alloc.h"

#ifdef IPI_HAVE_THREADS
#include <pthread.h>
#endif

/* One being filled, one being applied, two queued: enough to absorb the
 * jitter between the threads. */
#define MAX_BATCHES 4

struct ipi_builder {
    const iprof_allocator *alloc;
    ipi_apply_fn apply;
    void *payload;
    ipi_batch *filling; /* owned by the reading thread */
    int behind;         /* reading thread: ipi_builder_behind */
    int failed;         /* reading thread: the failure reserve returned */
    int status;         /* threaded: the builder's first failure (lock) */
#ifdef IPI_HAVE_THREADS
    int want_thread; /* asked for; started when the first batch is full */
    int threaded;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    /* Under lock: */
    ipi_batch *queue, *queue_tail; /* full batches, in file order */
    ipi_batch *spare;              /* applied batches, to reuse */
    size_t batches;                /* in existence, filling included */
    int cancel;                    /* skip the rest */
    int ended;                     /* the reader queues no more */
    int applying;                  /* the thread holds a batch */
#endif
};

static const iprof_allocator *alloc_of(const ipi_builder *b)
{
    return b->alloc;
}

/* A batch of at least `size` bytes replacing `old` (reused when big
 * enough); NULL when out of memory (old is then freed). */
static ipi_batch *fit(const ipi_builder *b, ipi_batch *old, size_t size)
{
    if (old && old->cap >= size) {
        old->used = 0;
        return old;
    }
    ipi_batch_free(alloc_of(b), old);
    return ipi_batch_new(alloc_of(b), size);
}

#ifdef IPI_HAVE_THREADS

/* Apply queued batches in order until the reader has ended and the queue
 * is empty. After a failure or a cancel, batches are only recycled. */
static void *build_thread(void *arg)
{
    ipi_builder *b = arg;
    pthread_mutex_lock(&b->lock);
    for (;;) {
        while (!b->queue && !b->ended)
            pthread_cond_wait(&b->changed, &b->lock);
        ipi_batch *x = b->queue;
        if (!x)
            break;
        b->queue = x->next;
        int skip = b->status || b->cancel;
        b->applying = 1;
        pthread_mutex_unlock(&b->lock);
        int rc = skip ? IPROF_OK : b->apply(x, b->payload);
        pthread_mutex_lock(&b->lock);
        b->applying = 0;
        if (rc && !b->status)
            b->status = rc;
        x->next = b->spare;
        b->spare = x;
        pthread_cond_signal(&b->changed);
    }
    pthread_mutex_unlock(&b->lock);
    return NULL;
}

/* Queue the filled batch (lock held). */
static void enqueue(ipi_builder *b, ipi_batch *x)
{
    x->next = NULL;
    if (b->queue)
        b->queue_tail->next = x;
    else
        b->queue = x;
    b->queue_tail = x;
    pthread_cond_signal(&b->changed);
}

/* Hand the filled batch over and take one to fill: a spare one, a new one
 * while fewer than MAX_BATCHES exist, or wait for one. */
static ipi_batch *swap_threaded(ipi_builder *b, size_t size, int *status)
{
    pthread_mutex_lock(&b->lock);
    if (b->status) { /* the builder failed: keep the batch, stop reading */
        *status = b->status;
        pthread_mutex_unlock(&b->lock);
        return NULL;
    }
    b->behind = b->queue != NULL;
    enqueue(b, b->filling);
    b->filling = NULL;
    while (!b->spare && b->batches >= MAX_BATCHES)
        pthread_cond_wait(&b->changed, &b->lock);
    ipi_batch *x = b->spare;
    if (x)
        b->spare = x->next;
    else
        b->batches++;
    pthread_mutex_unlock(&b->lock);
    b->filling = fit(b, x, size);
    if (!b->filling) {
        pthread_mutex_lock(&b->lock);
        b->batches--;
        pthread_mutex_unlock(&b->lock);
        *status = IPROF_ENOMEM;
    }
    return b->filling;
}

static int start_thread(ipi_builder *b)
{
    if (pthread_mutex_init(&b->lock, NULL))
        return 0;
    if (pthread_cond_init(&b->changed, NULL)) {
        pthread_mutex_destroy(&b->lock);
        return 0;
    }
    b->queue = b->queue_tail = b->spare = NULL;
    b->batches = 1;
    b->cancel = 0;
    b->ended = 0;
    b->applying = 0;
    if (pthread_create(&b->thread, NULL, build_thread, b)) {
        pthread_cond_destroy(&b->changed);
        pthread_mutex_destroy(&b->lock);
        return 0;
    }
    return 1;
}

/* Queue the filled batch and wait until the thread has applied everything
 * (lock not held); the reading thread keeps filling `filling`. */
static int drain_threaded(ipi_builder *b)
{
    pthread_mutex_lock(&b->lock);
    if (b->filling->used) {
        ipi_batch *x = b->filling;
        enqueue(b, x);
        while (b->queue || b->applying)
            pthread_cond_wait(&b->changed, &b->lock);
        /* x is applied: it came back as a spare; fill it again. */
        for (ipi_batch **p = &b->spare; *p; p = &(*p)->next)
            if (*p == x) {
                *p = x->next;
                break;
            }
        x->used = 0;
        x->next = NULL;
    }
    while (b->queue || b->applying)
        pthread_cond_wait(&b->changed, &b->lock);
    int rc = b->status;
    pthread_mutex_unlock(&b->lock);
    return rc;
}

/* Queue the last batch, tell the thread the read has ended, wait for it,
 * free every batch. */
static int finish_threaded(ipi_builder *b, int cancel)
{
    ipi_batch *x = b->filling;
    b->filling = NULL;
    pthread_mutex_lock(&b->lock);
    if (x && x->used && !cancel) {
        enqueue(b, x);
    } else if (x) {
        x->next = b->spare;
        b->spare = x;
    }
    b->cancel = cancel;
    b->ended = 1;
    pthread_cond_signal(&b->changed);
    pthread_mutex_unlock(&b->lock);
    pthread_join(b->thread, NULL);
    for (ipi_batch *s = b->spare, *next; s; s = next) {
        next = s->next;
        ipi_batch_free(alloc_of(b), s);
    }
    pthread_cond_destroy(&b->changed);
    pthread_mutex_destroy(&b->lock);
    return b->status;
}

#endif /* IPI_HAVE_THREADS */

ipi_builder *ipi_builder_start(const iprof_allocator *a, ipi_apply_fn apply, void *payload,
                               int threaded)
{
    ipi_builder *b = ipi_malloc(a, sizeof *b);
    if (!b)
        return NULL;
    b->alloc = a;
    b->apply = apply;
    b->payload = payload;
    b->failed = IPROF_OK;
    b->status = IPROF_OK;
    b->behind = 0;
    b->filling = ipi_batch_new(a, IPI_BATCH_SIZE);
    if (!b->filling) {
        ipi_free(a, b, sizeof *b);
        return NULL;
    }
#ifdef IPI_HAVE_THREADS
    b->want_thread = threaded;
    b->threaded = 0;
#else
    (void)threaded;
#endif
    return b;
}

/* A failure of reserve: remembered, so every later call returns it too
 * instead of going on with a batch that failed or is gone. */
static ipi_batch *failed(ipi_builder *b, int rc, int *status)
{
    b->failed = rc;
    *status = rc;
    return NULL;
}

/* Whether ipi_builder_reserve(b, size) would give the current batch (it
 * has room), not hand it over. */
static int fits(const ipi_builder *b, size_t size)
{
    const ipi_batch *x = b->filling;
    return !b->failed && x && x->used + size <= x->cap;
}

ipi_batch *ipi_builder_room(ipi_builder *b, size_t size, const ipi_load_hooks *hooks,
                            int *status)
{
    if (hooks && hooks->on_flush && !fits(b, size))
        hooks->on_flush(hooks->payload);
    return ipi_builder_reserve(b, size, status);
}

int ipi_builder_behind(const ipi_builder *b)
{
    return b->behind;
}

ipi_batch *ipi_builder_reserve(ipi_builder *b, size_t size, int *status)
{
    if (b->failed) {
        *status = b->failed;
        return NULL;
    }
    if (size == (size_t)-1) { /* this event only: the builder can go on */
        *status = IPROF_ELIMIT;
        return NULL;
    }
    ipi_batch *x = b->filling;
    if (x && x->used + size <= x->cap)
        return x;
#ifdef IPI_HAVE_THREADS
    /* A load that fits in one batch never starts a thread: for small
     * inputs it would cost more than it saves. */
    if (b->want_thread && !b->threaded) {
        b->want_thread = 0;
        b->threaded = start_thread(b); /* on failure: inline */
    }
    if (b->threaded) {
        int rc = IPROF_OK;
        x = swap_threaded(b, size, &rc);
        return x ? x : failed(b, rc, status);
    }
#endif
    int rc = x && x->used ? b->apply(x, b->payload) : IPROF_OK;
    if (rc)
        return failed(b, rc, status);
    b->filling = fit(b, x, size);
    return b->filling ? b->filling : failed(b, IPROF_ENOMEM, status);
}

int ipi_builder_drain(ipi_builder *b)
{
    if (b->failed)
        return b->failed;
    int rc;
#ifdef IPI_HAVE_THREADS
    if (b->threaded) {
        rc = drain_threaded(b);
    } else
#endif
    {
        rc = b->filling->used ? b->apply(b->filling, b->payload) : IPROF_OK;
        b->filling->used = 0;
    }
    if (rc)
        failed(b, rc, &rc);
    return rc;
}

int ipi_builder_finish(ipi_builder *b, int cancel)
{
    int rc = b->failed;
#ifdef IPI_HAVE_THREADS
    if (b->threaded) {
        int built = finish_threaded(b, cancel || rc);
        ipi_free(alloc_of(b), b, sizeof *b);
        return rc ? rc : built;
    }
#endif
    if (!rc && !cancel && b->filling && b->filling->used)
        rc = b->apply(b->filling, b->payload);
    ipi_batch_free(alloc_of(b), b->filling);
    ipi_free(alloc_of(b), b, sizeof *b);
    return rc;
}
