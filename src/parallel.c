/* SPDX-License-Identifier: MIT */
/*
 * parallel.c: the one mechanism every op uses to run its tasks, on the
 * host's executor or on the calling thread.
 *
 * An op first decides, from dtype, shape and arguments only, how many tasks
 * its work makes (axial__ntasks) and which part of the kernel shape each
 * covers (axial__task_range): never from the executor, its concurrency or
 * the machine, so every executor computes exactly the same kernel calls and
 * the bits cannot change.  axial__run then hands the tasks to parallel_for,
 * or runs them in index order when there is no executor or a single task
 * (below the op's threshold), without calling parallel_for at all.
 *
 * The thresholds (internal.h), measured roughly: medians of 101 calls, f32,
 * the plain call against _ex on a 2-thread axial_pool with the thresholds
 * at 0 (tasks of AXIAL_GRAIN = 64 KiB), on the 2-core AVX-512 development
 * VM, shared with other workloads: once quiet (load average 0.2) and once
 * while builds ran (load 8-12; a call whose second thread did not get a core
 * in time took ~20 ms, a scheduler slice: what a pool costs on an
 * oversubscribed host, whatever the threshold).  Time of _ex / plain:
 *
 *     input               128 KiB  256 KiB  512 KiB  1 MiB   2 MiB   4 MiB
 *     cumsum [R,256] quiet  0.55     0.53     0.52    0.52    0.51    0.51
 *                    load  (20 ms)  (20 ms)   0.57    0.54    0.53    0.54
 *     reduce [R,256] quiet  1.00     0.86     0.74    0.57    0.56    0.62
 *                    load   2.20     1.60     1.26    0.80    0.66    0.65
 *     reduce [n]     quiet  0.86     0.76     0.66    0.58    0.58    0.67
 *                    load   2.25     1.43     1.09    0.78    0.70    0.66
 *     roll [n]       quiet (1 task)  0.98     0.78    0.62    0.56    0.46
 *                    load  (1 task)  1.07     0.67    0.62    0.58    0.56
 *
 * (plain, quiet, 1 MiB: cumsum 55 us, reduce 8 us, roll 14 us).  With tasks
 * of 2 KiB, quiet, a 2-thread call cost 1.65x (cumsum) to 3.9x (reduce) the
 * plain one at 4 KiB: the pool's parallel_for costs ~0.3-0.4 us when its
 * threads are awake.  Chosen where both runs gain: CumSum and Roll split from
 * 512 KiB, ReduceSum (which only reads, at ~130 GB/s from cache) from 1 MiB.
 */
#include <string.h>

#include "internal.h"

axial_status axial__check_exec(const char *fn, const axial_executor *exec) {
    if (exec == NULL)
        return AXIAL_OK;
    if (exec->parallel_for == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: exec->parallel_for is NULL", fn);
    if (exec->concurrency == 0)
        return axial__fail(AXIAL_E_ARGS, "%s: exec->concurrency is 0 (needs >= 1)", fn);
    return AXIAL_OK;
}

void axial__run(const axial_executor *exec, size_t ntasks, axial_task_fn fn, void *arg) {
    if (exec != NULL && ntasks > 1) {
        exec->parallel_for(exec->self, fn, arg, ntasks);
        return;
    }
    for (size_t k = 0; k < ntasks; k++)
        fn(arg, k);
}

size_t axial__ntasks(size_t units, size_t unit_bytes, size_t threshold) {
    if (units <= 1)
        return 1;
    /* units * unit_bytes is at most the tensor's byte size: no overflow */
    const size_t bytes = units * unit_bytes;
    if (bytes < threshold)
        return 1;
    const size_t n = bytes / AXIAL_GRAIN;
    return n < 1 ? 1 : n > units ? units : n;
}

void axial__task_range(size_t units, size_t ntasks, size_t k, size_t *begin, size_t *end) {
    const size_t q = units / ntasks, r = units % ntasks;
    *begin = k * q + (k < r ? k : r);
    *end = *begin + q + (k < r);
}

size_t axial__unit_align(size_t units, size_t ntasks, size_t in_bytes, size_t out_bytes) {
    size_t a = 1;
    while (a < 64 && ((a * in_bytes) % 64 != 0 || (a * out_bytes) % 64 != 0))
        a *= 2;
    return units / a >= ntasks ? a : 1;
}

void axial__task_range_aligned(size_t units, size_t ntasks, size_t align, size_t k,
                               size_t *begin, size_t *end) {
    axial__task_range(units / align, ntasks, k, begin, end);
    *begin *= align;
    *end = k + 1 == ntasks ? units : *end * align;
}

size_t axial__tile_cols(size_t rowlines, size_t ntiles, size_t k, size_t esize, size_t inner,
                        size_t *c0, size_t *c1) {
    size_t b, e;
    axial__task_range(rowlines, ntiles, k % ntiles, &b, &e);
    const size_t per_line = 64 / esize;
    *c0 = b * per_line;
    *c1 = e * per_line < inner ? e * per_line : inner;
    return k / ntiles;
}

void axial__lines_plan(axial_lines *l, const void *dst, size_t esize, size_t count,
                       size_t threshold) {
    const size_t head_bytes = (size_t)(-(uintptr_t)dst & 63);
    l->count = count;
    l->line = 64 / esize;
    /* an element pointer that is not a multiple of esize cannot line up */
    l->head = head_bytes % esize == 0 ? head_bytes / esize : 0;
    if (l->head > count)
        l->head = count;
    l->ntasks = axial__ntasks((count - l->head) / l->line, 64, threshold);
}

void axial__lines_range(const axial_lines *l, size_t k, size_t *begin, size_t *end) {
    size_t b, e;
    axial__task_range((l->count - l->head) / l->line, l->ntasks, k, &b, &e);
    *begin = k == 0 ? 0 : l->head + b * l->line;
    *end = k + 1 == l->ntasks ? l->count : l->head + e * l->line;
}

typedef struct {
    char *dst;
    const char *src;
    axial_lines lines;
} axial_copy_plan;

static void axial_copy_task(void *arg, size_t k) {
    const axial_copy_plan *p = arg;
    size_t b, e;
    axial__lines_range(&p->lines, k, &b, &e);
    memcpy(p->dst + b, p->src + b, e - b);
}

void axial__copy(const axial_executor *exec, void *dst, const void *src, size_t bytes) {
    axial_copy_plan p = {(char *)dst, (const char *)src, {0, 0, 0, 1}};
    axial__lines_plan(&p.lines, dst, 1, bytes, AXIAL_ROLL_THRESHOLD);
    axial__run(exec, p.lines.ntasks, axial_copy_task, &p);
}
