/* SPDX-License-Identifier: MIT */
/*
 * cumsum.c: axial_cumsum and axial_cumsum_ex: checks, then kernel calls on
 * (outer, n, inner): the dimensions before the axis merge into `outer`,
 * those after into `inner`.
 *
 * Split: the `outer` lines are independent, so the tasks are groups of whole
 * lines (about AXIAL_GRAIN bytes each); every line is still scanned by one
 * kernel call in the same order, so the bits are those of a single call.
 * Not split (yet): a single line (outer == 1), however long -- along the
 * innermost axis that needs a blocked scan with a carry-in, along an outer
 * axis column tiles that need a strided kernel.
 */
#include "internal.h"

#define AXIAL_CUMSUM_FLAGS (AXIAL_CUMSUM_EXCLUSIVE | AXIAL_CUMSUM_REVERSE)

typedef struct {
    axial_cumsum_fn kernel;
    const char *x;
    char *y;
    size_t outer, n, inner, line_bytes, ntasks;
    unsigned flags;
} axial_cumsum_plan;

static void axial_cumsum_task(void *arg, size_t k) {
    const axial_cumsum_plan *p = arg;
    size_t b, e;
    axial__task_range(p->outer, p->ntasks, k, &b, &e);
    p->kernel(p->x + b * p->line_bytes, p->y + b * p->line_bytes, e - b, p->n, p->inner,
              p->flags);
}

axial_status axial_cumsum_ex(axial_dtype dtype, const void *x, void *y, size_t rank,
                             const int64_t *shape, int64_t axis, unsigned flags,
                             const axial_executor *exec) {
    static const char fn[] = "axial_cumsum";
    size_t esize, count, ax;
    axial_status st;
    if ((st = axial__check_exec(fn, exec)) != AXIAL_OK ||
        (st = axial__check_dtype(fn, dtype, false, &esize)) != AXIAL_OK ||
        (st = axial__check_rank(fn, rank, shape, 1)) != AXIAL_OK ||
        (st = axial__check_shape(fn, rank, shape, esize, &count)) != AXIAL_OK ||
        (st = axial__norm_axis(fn, axis, rank, &ax)) != AXIAL_OK)
        return st;
    if (flags & ~AXIAL_CUMSUM_FLAGS)
        return axial__fail(AXIAL_E_ARGS, "axial_cumsum: flags 0x%x have unknown bits 0x%x", flags,
                           flags & ~AXIAL_CUMSUM_FLAGS);
    if ((st = axial__check_buffers(fn, x, count * esize, y, count * esize, true)) != AXIAL_OK)
        return st;
    if (count == 0) {
        if (axial__verbose_on())
            axial__verbose_cumsum(NULL, AXIAL_ENTRY_NONE, dtype, rank, shape, axis, flags,
                                  "empty");
        return AXIAL_OK;
    }
    const struct axial_kernels *kt = axial__kernels();
    axial_cumsum_plan p;
    p.kernel = kt->cumsum[dtype];
    p.x = (const char *)x;
    p.y = (char *)y;
    p.outer = axial__product(shape, 0, ax);
    p.n = (size_t)shape[ax];
    p.inner = axial__product(shape, ax + 1, rank);
    p.line_bytes = p.n * p.inner * esize;
    p.flags = flags;
    p.ntasks = axial__ntasks(p.outer, p.line_bytes, AXIAL_CUMSUM_THRESHOLD);
    if (axial__verbose_on()) {
        char note[32];
        axial__verbose_cumsum(kt, AXIAL_ENTRY_CUMSUM + dtype, dtype, rank, shape, axis, flags,
                              "scan(outer=%zu,n=%zu,inner=%zu)%s", p.outer, p.n, p.inner,
                              axial__tasks_note(note, p.ntasks));
    }
    axial__run(exec, p.ntasks, axial_cumsum_task, &p);
    return AXIAL_OK;
}

axial_status axial_cumsum(axial_dtype dtype, const void *x, void *y, size_t rank,
                          const int64_t *shape, int64_t axis, unsigned flags) {
    return axial_cumsum_ex(dtype, x, y, rank, shape, axis, flags, NULL);
}
