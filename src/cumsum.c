/*
 * cumsum.c: axial_cumsum: checks, then one kernel call on (outer, n, inner):
 * the dimensions before the axis merge into `outer`, those after into `inner`.
 */
#include "internal.h"

#define AXIAL_CUMSUM_FLAGS (AXIAL_CUMSUM_EXCLUSIVE | AXIAL_CUMSUM_REVERSE)

axial_status axial_cumsum(axial_dtype dtype, const void *x, void *y, size_t rank,
                          const int64_t *shape, int64_t axis, unsigned flags) {
    static const char fn[] = "axial_cumsum";
    size_t esize, count, ax;
    axial_status st;
    if ((st = axial__check_dtype(fn, dtype, false, &esize)) != AXIAL_OK ||
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
    const size_t outer = axial__product(shape, 0, ax);
    const size_t inner = axial__product(shape, ax + 1, rank);
    const struct axial_kernels *kt = axial__kernels();
    if (axial__verbose_on())
        axial__verbose_cumsum(kt, AXIAL_ENTRY_CUMSUM + dtype, dtype, rank, shape, axis, flags,
                              "scan(outer=%zu,n=%zu,inner=%zu)", outer, (size_t)shape[ax], inner);
    kt->cumsum[dtype](x, y, outer, (size_t)shape[ax], inner, flags);
    return AXIAL_OK;
}
