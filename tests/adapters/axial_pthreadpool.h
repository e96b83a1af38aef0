/* SPDX-License-Identifier: MIT */
/*
 * axial_pthreadpool.h: an axial_executor on a host's own pthreadpool (the
 * pool of XNNPACK, PyTorch and others), so that axial runs on the threads
 * the host already has instead of starting a second pool.
 *
 *     pthreadpool_t pool = pthreadpool_create(0);          // the host's pool
 *     axial_executor ex = axial_pthreadpool_executor(pool);
 *     axial_reduce_sum_ex(AXIAL_F32, x, y, rank, shape, axes, naxes, 0, &ex);
 *
 * axial_task_fn has the signature of pthreadpool's 1-D task, so the task is
 * handed over as it is.  pthreadpool serialises calls from several threads on
 * one pool and runs the caller's thread too; flags 0 (never
 * PTHREADPOOL_FLAG_DISABLE_DENORMALS: it changes float results).
 * Copy this header into the host; it needs pthreadpool.h and axial.h only.
 */
#ifndef AXIAL_PTHREADPOOL_H
#define AXIAL_PTHREADPOOL_H

#include <pthreadpool.h>

#include "axial.h"

static void axial_pthreadpool_parallel_for(void *self, axial_task_fn fn, void *arg,
                                           size_t ntasks) {
    pthreadpool_parallelize_1d((pthreadpool_t)self, fn, arg, ntasks, 0);
}

/* The executor of `pool` (valid while the pool lives). */
static inline axial_executor axial_pthreadpool_executor(pthreadpool_t pool) {
    axial_executor ex;
    ex.parallel_for = axial_pthreadpool_parallel_for;
    ex.self = pool;
    ex.concurrency = pthreadpool_get_threads_count(pool);
    return ex;
}

#endif /* AXIAL_PTHREADPOOL_H */
