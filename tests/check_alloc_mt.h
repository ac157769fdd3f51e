/*
 * A thread-safe failing allocator for loads with IPROF_READ_THREADED, where
 * the reading and the building thread allocate at once: the counters are
 * atomic. It fails the Nth call (MT_FAIL_ONLY) or the Nth and every call
 * after it (MT_FAIL_FROM), optionally counting and failing only the calls
 * of threads other than one (to fail the builder thread alone), and counts
 * what is live so a test can check that nothing leaks.
 */
#ifndef IPROF_TESTS_CHECK_ALLOC_MT_H
#define IPROF_TESTS_CHECK_ALLOC_MT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include <iprof/iprof.h>

#include "check.h"

enum { MT_FAIL_NONE, MT_FAIL_ONLY, MT_FAIL_FROM };

typedef struct mt_alloc {
    int mode;             /* MT_FAIL_* */
    long fail_at;         /* 1-based call number */
    int spare_thread;     /* calls of `spared` neither count nor fail */
    pthread_t spared;
    atomic_long count;    /* calls counted */
    atomic_int failed;    /* whether a call has failed */
    atomic_int failed_hard; /* one the library must report: not a shrinking realloc */
    atomic_long live_blocks;
    atomic_llong live_bytes;
} mt_alloc;

/* Reset *a to count (and fail) as asked. */
static inline void mt_init(mt_alloc *a, int mode, long fail_at)
{
    a->mode = mode;
    a->fail_at = fail_at;
    a->spare_thread = 0;
    atomic_init(&a->count, 0);
    atomic_init(&a->failed, 0);
    atomic_init(&a->failed_hard, 0);
    atomic_init(&a->live_blocks, 0);
    atomic_init(&a->live_bytes, 0);
}

/* Calls made from the current thread will neither count nor fail. */
static inline void mt_spare_this_thread(mt_alloc *a)
{
    a->spared = pthread_self();
    a->spare_thread = 1;
}

static inline int mt_fail(mt_alloc *a)
{
    if (a->spare_thread && pthread_equal(pthread_self(), a->spared))
        return 0;
    long n = atomic_fetch_add(&a->count, 1) + 1;
    int fail = a->mode == MT_FAIL_ONLY ? n == a->fail_at
             : a->mode == MT_FAIL_FROM ? n >= a->fail_at
                                       : 0;
    if (fail)
        atomic_store(&a->failed, 1);
    return fail;
}

static inline void *mt_malloc(size_t size, void *user)
{
    mt_alloc *a = user;
    if (mt_fail(a)) {
        atomic_store(&a->failed_hard, 1);
        return NULL;
    }
    void *p = malloc(size);
    if (p) {
        atomic_fetch_add(&a->live_blocks, 1);
        atomic_fetch_add(&a->live_bytes, (long long)size);
    }
    return p;
}

static inline void *mt_realloc(void *p, size_t old_size, size_t new_size, void *user)
{
    mt_alloc *a = user;
    if (mt_fail(a)) {
        if (new_size >= old_size)
            atomic_store(&a->failed_hard, 1);
        return NULL;
    }
    void *np = realloc(p, new_size);
    if (np) {
        if (!p)
            atomic_fetch_add(&a->live_blocks, 1);
        atomic_fetch_add(&a->live_bytes, (long long)new_size - (long long)old_size);
    }
    return np;
}

static inline void mt_free(void *p, size_t size, void *user)
{
    mt_alloc *a = user;
    if (p) {
        atomic_fetch_sub(&a->live_blocks, 1);
        atomic_fetch_sub(&a->live_bytes, (long long)size);
    }
    free(p);
}

/* The allocator hook over a. */
static inline iprof_allocator mt_hook(mt_alloc *a)
{
    iprof_allocator h = {mt_malloc, mt_realloc, mt_free, a};
    return h;
}

/* ---- allocation-failure sweeps -------------------------------------------- */

/* Count a's calls from here on and fail the Nth (MT_FAIL_ONLY) or the Nth
 * and every later one (MT_FAIL_FROM): a run arms its allocator once its
 * setup is done, so that only the operation under test fails. */
static inline void mt_arm(mt_alloc *a, int mode, long n)
{
    a->mode = mode;
    a->fail_at = n;
    atomic_store(&a->count, 0);
}

/* How a run of a sweep ended, from its allocator. */
enum { MT_RUN_CLEAN, MT_RUN_RECOVERED, MT_RUN_ENOMEM };

/* MT_RUN_CLEAN when no call failed, MT_RUN_ENOMEM when one did that the
 * library must report (the run must end with IPROF_ENOMEM), else
 * MT_RUN_RECOVERED (only a shrinking realloc failed: as if none had). */
static inline int mt_outcome(mt_alloc *a)
{
    return atomic_load(&a->failed_hard) ? MT_RUN_ENOMEM
           : atomic_load(&a->failed)    ? MT_RUN_RECOVERED
                                        : MT_RUN_CLEAN;
}

/* Check that run n freed every byte a handed out. */
static inline void mt_check_freed(mt_alloc *a, long n)
{
    long long bytes = atomic_load(&a->live_bytes);
    long blocks = atomic_load(&a->live_blocks);
    if (bytes || blocks)
        fprintf(stderr, "   allocation %ld: %lld bytes in %ld blocks leaked\n", n, bytes, blocks);
    CHECK_EQ_INT(bytes, 0);
    CHECK_EQ_INT(blocks, 0);
}

/* Fail each allocation of an operation in turn: run(n, arg) for N = 1, 2,
 * ... until a run meets no failure. A run sets its operation up, arms its
 * allocator at N (mt_arm), runs it, checks the result (IPROF_ENOMEM and
 * nothing changed, or what a run without failures gives) and that nothing
 * leaked (mt_check_freed), and returns its mt_outcome. At least 10 runs
 * must end out of memory; returns how many did. */
static inline int mt_sweep(const char *what, int (*run)(long n, void *arg), void *arg)
{
    long n = 1;
    int how = MT_RUN_ENOMEM, enomem = 0;
    for (; how != MT_RUN_CLEAN && n < 100000; n++)
        enomem += (how = run(n, arg)) == MT_RUN_ENOMEM;
    CHECK(how == MT_RUN_CLEAN);
    CHECK(enomem >= 10);
    fprintf(stderr, "   %s: %ld runs, %d out of memory\n", what, n - 1, enomem);
    return enomem;
}

#endif
