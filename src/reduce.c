/*
 * reduce.c: axial_reduce_sum and axial_reduce_sum_shape.
 *
 * Planning: dimensions of size 1 are dropped (reduced or kept, they do not
 * change the layout), then adjacent dimensions that are all reduced or all
 * kept merge into one group, so the tensor is an alternation of kept (K) and
 * reduced (R) groups.
 *   - no R group:          a copy (the identity of OpenVINO / noop_with_empty_axes);
 *   - one R group:         one `reduce` call on (outer, n, inner) = (K before, R, K after);
 *   - several R groups:    an 8-byte-per-output wide buffer (-0.0 for the
 *     float types, the identity of IEEE addition; 0 for integers), one
 *     `reduce_acc` call per index of the groups before the last K R [K] run,
 *     then `reduce_finish`.  Partial sums stay wide (double / uint64_t), so
 *     each output is still rounded once.  The buffer is count_out * 8 bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define AXIAL_REDUCE_FLAGS (AXIAL_REDUCE_KEEP_DIMS | AXIAL_REDUCE_EMPTY_AXES_ALL)

typedef struct {
    bool reduced[AXIAL_MAX_RANK];
    size_t out_rank;
    int64_t out_shape[AXIAL_MAX_RANK];
} axial_reduce_dims;

static axial_status axial_reduce_prepare(const char *fn, size_t rank, const int64_t *shape,
                                         const int64_t *axes, size_t naxes, unsigned flags,
                                         size_t elem_size, size_t *count,
                                         axial_reduce_dims *dims) {
    axial_status st;
    if ((st = axial__check_rank(fn, rank, shape, 0)) != AXIAL_OK ||
        (st = axial__check_shape(fn, rank, shape, elem_size, count)) != AXIAL_OK)
        return st;
    if (flags & ~AXIAL_REDUCE_FLAGS)
        return axial__fail(AXIAL_E_ARGS, "%s: flags 0x%x have unknown bits 0x%x", fn, flags,
                           flags & ~AXIAL_REDUCE_FLAGS);
    if (naxes > 0 && axes == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: axes is NULL but naxes is %zu", fn, naxes);
    for (size_t k = 0; k < rank; k++)
        dims->reduced[k] = naxes == 0 && (flags & AXIAL_REDUCE_EMPTY_AXES_ALL);
    for (size_t a = 0; a < naxes; a++) {
        size_t ax;
        if ((st = axial__norm_axis(fn, axes[a], rank, &ax)) != AXIAL_OK)
            return st;
        dims->reduced[ax] = true; /* a repeated axis counts once */
    }
    dims->out_rank = 0;
    for (size_t k = 0; k < rank; k++) {
        if (!dims->reduced[k])
            dims->out_shape[dims->out_rank++] = shape[k];
        else if (flags & AXIAL_REDUCE_KEEP_DIMS)
            dims->out_shape[dims->out_rank++] = 1;
    }
    return AXIAL_OK;
}

axial_status axial_reduce_sum_shape(size_t rank, const int64_t *shape, const int64_t *axes,
                                    size_t naxes, unsigned flags, size_t *out_rank,
                                    int64_t *out_shape) {
    static const char fn[] = "axial_reduce_sum_shape";
    axial_reduce_dims dims;
    size_t count;
    axial_status st = axial_reduce_prepare(fn, rank, shape, axes, naxes, flags, 1, &count, &dims);
    if (st != AXIAL_OK)
        return st;
    if (out_rank == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: out_rank is NULL", fn);
    if (dims.out_rank > 0 && out_shape == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: out_shape is NULL for an output of rank %zu", fn,
                           dims.out_rank);
    *out_rank = dims.out_rank;
    for (size_t k = 0; k < dims.out_rank; k++)
        out_shape[k] = dims.out_shape[k];
    return AXIAL_OK;
}

/* Several reduced groups: accumulate into a wide buffer, then round once. */
static axial_status axial_reduce_wide(const struct axial_kernels *kt, axial_dtype dtype,
                                      const char *x, void *y, size_t esize, size_t ng,
                                      const size_t *g, const bool *r, size_t count_out) {
    /* The last reduced group q has a kept group before it (groups alternate
     * and there is more than one reduced group) and at most one after it. */
    size_t q = ng - 1;
    while (!r[q])
        q--;
    const size_t inner = q + 1 < ng ? g[q + 1] : 1;
    const size_t rows = g[q - 1];
    size_t xstride[AXIAL_MAX_RANK], astride[AXIAL_MAX_RANK];
    size_t xs = 1, as = 1;
    for (size_t k = ng; k-- > 0;) {
        xstride[k] = xs;
        astride[k] = r[k] ? 0 : as;
        xs *= g[k];
        if (!r[k])
            as *= g[k];
    }
    uint64_t *acc = calloc(count_out, 8);
    if (acc == NULL)
        return axial__fail(AXIAL_E_NOMEM,
                           "axial_reduce_sum: cannot allocate the %zu-byte accumulator",
                           count_out * 8);
    if (dtype == AXIAL_F32 || dtype == AXIAL_F64 || dtype == AXIAL_F16 || dtype == AXIAL_BF16) {
        double *dacc = (double *)(void *)acc;
        for (size_t k = 0; k < count_out; k++)
            dacc[k] = -0.0; /* so that a sum of only -0.0 terms is -0.0, as in one call */
    }
    /* Odometer over groups 0 .. q-2; each step is one (rows, n, inner) call. */
    size_t idx[AXIAL_MAX_RANK] = {0};
    size_t xoff = 0, aoff = 0;
    for (;;) {
        kt->reduce_acc[dtype](x + xoff * esize, acc + aoff, rows, g[q], inner);
        size_t k = q - 1;
        while (k-- > 0) {
            if (++idx[k] < g[k]) {
                xoff += xstride[k];
                aoff += astride[k];
                break;
            }
            xoff -= (g[k] - 1) * xstride[k];
            aoff -= (g[k] - 1) * astride[k];
            idx[k] = 0;
        }
        if (k == (size_t)-1)
            break;
    }
    kt->reduce_finish[dtype](acc, y, count_out);
    free(acc);
    return AXIAL_OK;
}

axial_status axial_reduce_sum(axial_dtype dtype, const void *x, void *y, size_t rank,
                              const int64_t *shape, const int64_t *axes, size_t naxes,
                              unsigned flags) {
    static const char fn[] = "axial_reduce_sum";
    axial_reduce_dims dims;
    size_t esize, count_in;
    axial_status st;
    if ((st = axial__check_dtype(fn, dtype, false, &esize)) != AXIAL_OK ||
        (st = axial_reduce_prepare(fn, rank, shape, axes, naxes, flags, esize, &count_in,
                                   &dims)) != AXIAL_OK)
        return st;
    /* The output's dimensions are a subset of the input's (or 1s): no overflow. */
    const size_t count_out = axial__product(dims.out_shape, 0, dims.out_rank);
    if ((st = axial__check_buffers(fn, x, count_in * esize, y, count_out * esize, false)) !=
        AXIAL_OK)
        return st;
    if (count_out == 0) {
        if (axial__verbose_on())
            axial__verbose_reduce(NULL, AXIAL_ENTRY_NONE, AXIAL_ENTRY_NONE, dtype, rank, shape,
                                  axes, naxes, flags, "empty");
        return AXIAL_OK;
    }
    if (count_in == 0) { /* a reduced axis of length 0: every sum is empty */
        if (axial__verbose_on())
            axial__verbose_reduce(NULL, AXIAL_ENTRY_NONE, AXIAL_ENTRY_NONE, dtype, rank, shape,
                                  axes, naxes, flags, "zero-fill(count=%zu)", count_out);
        memset(y, 0, count_out * esize); /* +0 in every dtype is all-zero bits */
        return AXIAL_OK;
    }

    size_t g[AXIAL_MAX_RANK], ng = 0, nreduced = 0;
    bool r[AXIAL_MAX_RANK];
    for (size_t k = 0; k < rank; k++) {
        if (shape[k] == 1)
            continue;
        if (ng > 0 && r[ng - 1] == dims.reduced[k]) {
            g[ng - 1] *= (size_t)shape[k];
        } else {
            g[ng] = (size_t)shape[k];
            r[ng] = dims.reduced[k];
            nreduced += r[ng];
            ng++;
        }
    }
    const struct axial_kernels *kt = axial__kernels();
    if (nreduced == 0) {
        if (axial__verbose_on())
            axial__verbose_reduce(NULL, AXIAL_ENTRY_NONE, AXIAL_ENTRY_NONE, dtype, rank, shape,
                                  axes, naxes, flags, "copy(count=%zu)", count_in);
        memcpy(y, x, count_in * esize);
        return AXIAL_OK;
    }
    if (nreduced == 1) {
        size_t q = 0;
        while (!r[q])
            q++;
        size_t outer = 1, inner = 1;
        for (size_t k = 0; k < q; k++)
            outer *= g[k];
        for (size_t k = q + 1; k < ng; k++)
            inner *= g[k];
        if (axial__verbose_on())
            axial__verbose_reduce(kt, AXIAL_ENTRY_REDUCE + dtype, AXIAL_ENTRY_NONE, dtype, rank,
                                  shape, axes, naxes, flags, "reduce(outer=%zu,n=%zu,inner=%zu)",
                                  outer, g[q], inner);
        kt->reduce[dtype](x, y, outer, g[q], inner);
        return AXIAL_OK;
    }
    if (axial__verbose_on()) { /* the calls axial_reduce_wide makes */
        size_t q = ng - 1, calls = 1;
        while (!r[q])
            q--;
        for (size_t k = 0; k + 1 < q; k++)
            calls *= g[k];
        axial__verbose_reduce(kt, AXIAL_ENTRY_REDUCE_ACC + dtype, AXIAL_ENTRY_REDUCE_FINISH + dtype,
                              dtype, rank, shape, axes, naxes, flags,
                              "%zu*reduce_acc(outer=%zu,n=%zu,inner=%zu)+reduce_finish(count=%zu)",
                              calls, g[q - 1], g[q], q + 1 < ng ? g[q + 1] : 1, count_out);
    }
    return axial_reduce_wide(kt, dtype, (const char *)x, y, esize, ng, g, r, count_out);
}
