/* SPDX-License-Identifier: MIT */
/*
 * pool.c: the built-in pool, an axial_executor on pthreadpool (the pool
 * XNNPACK and PyTorch use), for hosts that have no pool of their own.
 *
 * pthreadpool_parallelize_1d already serialises calls from several threads
 * on one pool and runs the task on the caller too.  The pool's tasks pass
 * through a trampoline that adds an acquire at the start and a release at
 * the end of each task, matched by the submitter: pthreadpool (a library
 * built without ThreadSanitizer) orders them with its own atomics, and these
 * make the same order visible to ThreadSanitizer.  Denormals are left as
 * they are (never PTHREADPOOL_FLAG_DISABLE_DENORMALS: it changes float sums).
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <pthread.h>
#include <pthreadpool.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

struct axial_pool {
    pthreadpool_t pp;
    axial_executor exec;
};

typedef struct {
    axial_task_fn fn;
    void *arg;
    atomic_size_t ready, done;
} axial_pool_call;

static void axial_pool_task(void *ctx, size_t i) {
    axial_pool_call *c = ctx;
    (void)atomic_load_explicit(&c->ready, memory_order_acquire);
    c->fn(c->arg, i);
    atomic_fetch_add_explicit(&c->done, 1, memory_order_release);
}

static void axial_pool_parallel_for(void *self, axial_task_fn fn, void *arg, size_t ntasks) {
    axial_pool *pool = self;
    axial_pool_call c = {fn, arg, 0, 0};
    atomic_store_explicit(&c.ready, 1, memory_order_release);
    pthreadpool_parallelize_1d(pool->pp, axial_pool_task, &c, ntasks, 0);
    (void)atomic_load_explicit(&c.done, memory_order_acquire);
}

/* The CPUs this process may run on. */
static size_t axial_cpus(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (size_t)CPU_COUNT(&set);
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (size_t)n : 1;
}

axial_status axial_pool_create(size_t nthreads, axial_pool **pool) {
    if (pool == NULL)
        return axial__fail(AXIAL_E_NULL, "axial_pool_create: pool is NULL");
    *pool = NULL;
    const size_t want = nthreads == 0 ? axial_cpus() : nthreads;
    axial_pool *p = malloc(sizeof *p);
    if (p == NULL)
        return axial__fail(AXIAL_E_NOMEM, "axial_pool_create: cannot allocate the pool");
    p->pp = pthreadpool_create(want);
    if (p->pp == NULL) {
        free(p);
        return axial__fail(AXIAL_E_NOMEM, "axial_pool_create: cannot start %zu threads", want);
    }
    p->exec.parallel_for = axial_pool_parallel_for;
    p->exec.self = p;
    p->exec.concurrency = pthreadpool_get_threads_count(p->pp);
    *pool = p;
    return AXIAL_OK;
}

void axial_pool_destroy(axial_pool *pool) {
    if (pool == NULL)
        return;
    pthreadpool_destroy(pool->pp);
    free(pool);
}

const axial_executor *axial_pool_executor(axial_pool *pool) {
    return pool == NULL ? NULL : &pool->exec;
}
