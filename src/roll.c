/*
 * roll.c: axial_roll.
 *
 * Planning: every axis gets a total shift in [0, d) (repeated axes add,
 * modulo d, with no int64 overflow).  Walking the dimensions outward-in,
 * a dimension with shift 0 merges into the group before it as its inner
 * block: a group (D, S) followed by an unshifted block I is the rotation of
 * D*I contiguous elements by S*I.  Size-1 dimensions vanish.  What is left
 * is a short list of groups, each rolled or (only the first) unrolled:
 *   - the innermost group is the row the kernel rotates: (n, shift);
 *   - the group before it splits into at most two runs of whole rows that
 *     move as blocks: [0, D-S) -> [S, D) and [D-S, D) -> [0, S): one kernel
 *     call (outer = run length) each;
 *   - groups further out are walked index by index (an odometer), each index
 *     i going to (i + S) mod D.
 * In place (y == x) goes through a copy of x: a roll is a permutation that
 * cannot be streamed in place in general.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct {
    size_t size, shift; /* 0 <= shift < size */
} axial_roll_group;

/* (a mod d) in [0, d) for any int64 a, d > 0. */
static uint64_t axial_mod(int64_t a, uint64_t d) {
    const uint64_t m = (uint64_t)(a < 0 ? -(a + 1) : a) % d; /* -(a+1) cannot overflow */
    if (a >= 0)
        return m;
    /* a = -(m' + 1) with m' = -(a+1): a mod d = d - 1 - (m' mod d) */
    return d - 1 - m;
}

/* Rolls the groups from `level` inward; x and y point at the same block. */
static void axial_roll_groups(axial_roll_fn kernel, const char *x, char *y, size_t esize,
                              const axial_roll_group *g, const size_t *stride, size_t ng,
                              size_t level) {
    const size_t last = ng - 1;
    if (level == last) { /* one group only */
        kernel(x, y, 1, g[last].size, g[last].shift);
        return;
    }
    const size_t D = g[level].size, S = g[level].shift, blk = stride[level] * esize;
    if (level + 1 == last) {
        /* Runs of whole rows: [0, D-S) moves to [S, D), [D-S, D) to [0, S). */
        kernel(x, y + S * blk, D - S, g[last].size, g[last].shift);
        if (S > 0)
            kernel(x + (D - S) * blk, y, S, g[last].size, g[last].shift);
        return;
    }
    for (size_t i = 0; i < D; i++) {
        const size_t j = i + S < D ? i + S : i + S - D;
        axial_roll_groups(kernel, x + i * blk, y + j * blk, esize, g, stride, ng, level + 1);
    }
}

axial_status axial_roll(axial_dtype dtype, const void *x, void *y, size_t rank,
                        const int64_t *shape, const int64_t *shift, size_t nshift,
                        const int64_t *axes, size_t naxes) {
    static const char fn[] = "axial_roll";
    size_t esize, count;
    axial_status st;
    if ((st = axial__check_dtype(fn, dtype, true, &esize)) != AXIAL_OK ||
        (st = axial__check_rank(fn, rank, shape, naxes == 0 ? 0 : 1)) != AXIAL_OK ||
        (st = axial__check_shape(fn, rank, shape, esize, &count)) != AXIAL_OK)
        return st;
    if (nshift == 0)
        return axial__fail(AXIAL_E_ARGS, "axial_roll: nshift is 0 (naxes is %zu)", naxes);
    if (shift == NULL)
        return axial__fail(AXIAL_E_NULL, "axial_roll: shift is NULL but nshift is %zu", nshift);
    if (naxes > 0 && axes == NULL)
        return axial__fail(AXIAL_E_NULL, "axial_roll: axes is NULL but naxes is %zu", naxes);
    if (naxes == 0 ? nshift != 1 : (nshift != naxes && nshift != 1))
        return axial__fail(AXIAL_E_ARGS,
                           "axial_roll: nshift %zu does not match naxes %zu (needs %s)", nshift,
                           naxes, naxes == 0 ? "nshift 1" : "nshift == naxes or nshift 1");
    /* Total shift per dimension; the flat roll is one dimension of `count`. */
    size_t nd = rank, dim[AXIAL_MAX_RANK + 1], sh[AXIAL_MAX_RANK + 1];
    for (size_t k = 0; k < rank; k++) {
        dim[k] = (size_t)shape[k];
        sh[k] = 0;
    }
    for (size_t a = 0; a < naxes; a++) {
        size_t k;
        if ((st = axial__norm_axis(fn, axes[a], rank, &k)) != AXIAL_OK)
            return st;
        if (dim[k] > 0) {
            const uint64_t s = axial_mod(shift[nshift == 1 ? 0 : a], dim[k]);
            sh[k] = (size_t)(((uint64_t)sh[k] + s) % dim[k]); /* both < dim < 2^63 */
        }
    }
    if ((st = axial__check_buffers(fn, x, count * esize, y, count * esize, true)) != AXIAL_OK)
        return st;
    if (count == 0) {
        if (axial__verbose_on())
            axial__verbose_roll(NULL, AXIAL_ENTRY_NONE, dtype, rank, shape, shift, nshift, axes,
                                naxes, 0, 0, 0, 0, 0, 0);
        return AXIAL_OK;
    }
    if (naxes == 0) {
        nd = 1;
        dim[0] = count;
        sh[0] = (size_t)axial_mod(shift[0], count);
    }

    axial_roll_group g[AXIAL_MAX_RANK + 1];
    size_t ng = 0;
    for (size_t k = 0; k < nd; k++) {
        if (dim[k] == 1)
            continue;
        if (ng > 0 && sh[k] == 0) { /* unshifted: the inner block of the group before */
            g[ng - 1].size *= dim[k];
            g[ng - 1].shift *= dim[k];
        } else {
            g[ng].size = dim[k];
            g[ng].shift = sh[k];
            ng++;
        }
    }
    if (ng == 0) { /* every dimension is 1: a single element */
        g[0].size = 1;
        g[0].shift = 0;
        ng = 1;
    }
    size_t stride[AXIAL_MAX_RANK + 1], s = 1;
    for (size_t k = ng; k-- > 0;) {
        stride[k] = s;
        s *= g[k].size;
    }

    const void *src = x;
    void *copy = NULL;
    if (x == y) {
        copy = malloc(count * esize);
        if (copy == NULL)
            return axial__fail(AXIAL_E_NOMEM,
                               "axial_roll: cannot allocate %zu bytes for an in-place roll",
                               count * esize);
        memcpy(copy, x, count * esize);
        src = copy;
    }
    const struct axial_kernels *kt = axial__kernels();
    axial_roll_fn kernel = kt->roll[axial__log2_size(esize)];
    if (axial__verbose_on()) { /* the calls axial_roll_groups makes */
        size_t reps = 1;
        for (size_t k = 0; k + 2 < ng; k++)
            reps *= g[k].size;
        axial__verbose_roll(kt, AXIAL_ENTRY_ROLL + axial__log2_size(esize), dtype, rank, shape,
                            shift, nshift, axes, naxes, copy ? count * esize : 0, reps,
                            ng > 1 ? g[ng - 2].size : 1, ng > 1 ? g[ng - 2].shift : 0,
                            g[ng - 1].size, g[ng - 1].shift);
    }
    axial_roll_groups(kernel, (const char *)src, (char *)y, esize, g, stride, ng, 0);
    free(copy);
    return AXIAL_OK;
}
