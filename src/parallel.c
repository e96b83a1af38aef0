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
 * The thresholds (internal.h) come from timing the plain call against _ex
 * on a 2-thread axial_pool with the thresholds at 0 (tasks of AXIAL_GRAIN =
 * 64 KiB), f32, both on an idle host and on one busy with other work.  Below
 * a threshold the pool costs more than the second thread saves: each
 * parallel_for wakes and joins the workers, a fixed cost that small inputs
 * do not repay, and on an oversubscribed host a worker that does not get a
 * core in time makes the call wait a scheduler slice, whatever the
 * threshold.  The thresholds sit where both the idle and the busy runs
 * gained: CumSum and Roll split from 512 KiB, ReduceSum from 1 MiB (it only
 * reads, and from cache it is so fast that a pool pays only on larger inputs).
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
