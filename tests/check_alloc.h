/*
 * A test allocator for the iprof_allocator hook: it fails allocations on
 * purpose (the Nth one, or every one from the Nth on) and counts what is
 * live, so a test can check that a failure is reported as IPROF_ENOMEM and
 * that nothing leaks. One fail_alloc per allocator; see fail_hook().
 */
#ifndef IPROF_TESTS_CHECK_ALLOC_H
#define IPROF_TESTS_CHECK_ALLOC_H

#include <stdlib.h>

#include <iprof/iprof.h>

typedef struct fail_alloc {
    long count;     /* calls counted since fail_at was set */
    long fail_at;   /* fail call number fail_at (1-based); 0: none */
    long countdown; /* 0: off; k + 1: fail after k more calls, then always */
    int failed;     /* whether a call has failed */
    /* Whether a call failed that the library must report: any but a
     * realloc to a smaller size (giving back growth slack), which a load
     * rides out keeping the larger block. */
    int failed_hard;
    long live_blocks;
    long long live_bytes;
} fail_alloc;

static inline int fa_fail(fail_alloc *f)
{
    if (f->countdown) {
        if (f->countdown == 1) {
            f->failed = 1;
            return 1;
        }
        f->countdown--;
    }
    if (f->fail_at && ++f->count == f->fail_at) {
        f->failed = 1;
        return 1;
    }
    return 0;
}

static inline void *fa_malloc(size_t size, void *user)
{
    fail_alloc *f = user;
    if (fa_fail(f)) {
        f->failed_hard = 1;
        return NULL;
    }
    void *p = malloc(size);
    if (p) {
        f->live_blocks++;
        f->live_bytes += (long long)size;
    }
    return p;
}

static inline void *fa_realloc(void *p, size_t old_size, size_t new_size, void *user)
{
    fail_alloc *f = user;
    if (fa_fail(f)) {
        f->failed_hard |= new_size >= old_size;
        return NULL;
    }
    void *np = realloc(p, new_size);
    if (np)
        f->live_bytes += (long long)new_size - (long long)old_size;
    return np;
}

static inline void fa_free(void *p, size_t size, void *user)
{
    fail_alloc *f = user;
    if (p) {
        f->live_blocks--;
        f->live_bytes -= (long long)size;
    }
    free(p);
}

/* The allocator hook over f. */
static inline iprof_allocator fail_hook(fail_alloc *f)
{
    iprof_allocator a = {fa_malloc, fa_realloc, fa_free, f};
    return a;
}

/* Fail the call after `left` more successful ones, and every call after
 * it; left < 0: never fail again. */
static inline void fail_after(fail_alloc *f, long left)
{
    f->countdown = left < 0 ? 0 : left + 1;
}

#endif
