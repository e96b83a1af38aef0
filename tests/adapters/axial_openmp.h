/* SPDX-License-Identifier: MIT */
/*
 * axial_openmp.h: an axial_executor on OpenMP, for hosts whose threads are
 * an OpenMP runtime (build the host with -fopenmp).
 *
 *     axial_executor ex = axial_openmp_executor();
 *     axial_cumsum_ex(AXIAL_F32, x, y, rank, shape, axis, 0, &ex);
 *
 * Each call is one parallel region over the tasks with a dynamic schedule
 * (axial's tasks are about equal, but threads may be busy elsewhere).
 * axial never calls parallel_for from inside its tasks, so no region nests.
 * Copy this header into the host; it needs omp.h and axial.h only.
 */
#ifndef AXIAL_OPENMP_H
#define AXIAL_OPENMP_H

#include <omp.h>

#include "axial.h"

static void axial_openmp_parallel_for(void *self, axial_task_fn fn, void *arg, size_t ntasks) {
    (void)self;
    /* a signed loop variable: OpenMP before 3.0 needs one; ntasks fits */
#pragma omp parallel for schedule(dynamic)
    for (long long i = 0; i < (long long)ntasks; i++)
        fn(arg, (size_t)i);
}

/* An executor on the OpenMP runtime's threads (omp_get_max_threads at this call). */
static inline axial_executor axial_openmp_executor(void) {
    axial_executor ex;
    ex.parallel_for = axial_openmp_parallel_for;
    ex.self = NULL;
    ex.concurrency = (size_t)omp_get_max_threads();
    return ex;
}

#endif /* AXIAL_OPENMP_H */
