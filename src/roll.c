/* SPDX-License-Identifier: MIT */
/*
 * roll.c: axial_roll.  A call is planned (axial_roll_plan_call), described
 * once (AXIAL_VERBOSE), then run (axial_roll_run), which alone allocates and
 * calls kernels.
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
 *   - for groups further out, output index i comes from input index
 *     (i - S) mod D (axial_roll_in_row, once per run of rows).
 * In place (y == x) goes through a copy of x: a roll is a permutation that
 * cannot be streamed in place in general.
 *
 * Split: blocks of the flattened output (about AXIAL_GRAIN bytes, inner
 * boundaries on 64-byte lines of y): whole rows inside a block go to the
 * kernel in runs, the parts of rows at a block's ends are copied.  In place,
 * the copy of x is itself split into blocks and finished before the roll
 * starts.  Roll moves elements, so no split changes a bit.  The plain call
 * (no executor) is one block: the kernel calls of the unsplit roll, so that
 * its kernel sees the whole output.
 *
 * Streaming: an output of AXIAL_STREAM_BYTES or more is written with
 * non-temporal stores (kernels.h), whoever writes it: a split call passes
 * AXIAL_KERNEL_STREAM to every run and part of at least AXIAL_GRAIN bytes
 * (the parts then go through the kernel as a shift-0 copy, since memcpy
 * streams only above a threshold that scales with the last-level cache:
 * never, on a machine with hundreds of MiB of it), and makes at most one
 * task per AXIAL_STREAM_TASK bytes (each such call ends with an sfence).
 * Smaller pieces store plainly, as memcpy does.  Blocks never share a
 * 64-byte line, so streaming and plain stores never meet in one line across
 * tasks.
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

/* A call's plan: axial_roll_plan_call fills it from the dtype, shape,
 * shifts, axes, kernel table and whether an executor runs it,
 * axial_roll_describe prints it (AXIAL_VERBOSE) and axial_roll_run runs it. */
typedef struct {
    bool empty; /* no element: nothing to do */
    /* the call, as given (for AXIAL_VERBOSE) */
    axial_dtype dtype;
    size_t rank, nshift, naxes;
    const int64_t *shape, *shift_arg, *axes;
    const struct axial_kernels *kt;
    axial_roll_kernel *kernel;
    const char *x; /* in place: the copy of x (the runner's) */
    char *y;
    size_t esize, count, ng, n, shift, row_bytes;
    unsigned flags; /* AXIAL_KERNEL_STREAM when the whole output streams */
    axial_roll_group g[AXIAL_MAX_RANK + 1];
    axial_lines lines;
    void *copy; /* in place (y == x): the runner's copy of x */
} axial_roll_plan;

/* The input row of output row r: every group before the last maps its index
 * i to (i - S) mod D.  `rows` is the row count of groups [0, ng-1). */
static size_t axial_roll_in_row(const axial_roll_plan *p, size_t r) {
    size_t in = 0, scale = 1;
    for (size_t k = p->ng - 1; k-- > 0;) {
        const size_t D = p->g[k].size, S = p->g[k].shift, i = r % D;
        r /= D;
        in += (i >= S ? i - S : i + D - S) * scale;
        scale *= D;
    }
    return in;
}

/* The kernel flags of a piece of `bytes` bytes of the output: small pieces
 * store plainly (no sfence for a few bytes). */
static unsigned axial_roll_flags(const axial_roll_plan *p, size_t bytes) {
    return bytes >= AXIAL_GRAIN ? p->flags : 0u;
}

/* dst = src, `count` elements: memcpy, or a streaming piece through the
 * kernel (shift 0: one copy). */
static void axial_roll_copy(const axial_roll_plan *p, char *dst, const char *src, size_t count) {
    const unsigned flags = axial_roll_flags(p, count * p->esize);
    if (flags)
        p->kernel(src, dst, 1, count, 0, flags);
    else
        memcpy(dst, src, count * p->esize);
}

/* Output elements [c, c1) of one row: y[i] = x[(i - shift) mod n]. */
static void axial_roll_part(const axial_roll_plan *p, const char *xr, char *yr, size_t c,
                            size_t c1) {
    const size_t n = p->n, s = p->shift, es = p->esize;
    if (c < s) { /* from the row's end */
        const size_t e = c1 < s ? c1 : s;
        axial_roll_copy(p, yr + c * es, xr + (n - s + c) * es, e - c);
        c = e;
    }
    if (c < c1)
        axial_roll_copy(p, yr + c * es, xr + (c - s) * es, c1 - c);
}

/*
 * Output elements [b, e) (a block of the flattened output).  Whole rows go to
 * the kernel in runs whose input rows are contiguous too: within the group
 * before the last, output rows [S, D) come from input rows [0, D-S) and
 * [0, S) from [D-S, D) (so one task over everything makes the kernel calls of
 * an unsplit roll: one per run).  A block that starts or ends inside a row
 * copies that part of the row (axial_roll_part).
 */
static void axial_roll_task(void *arg, size_t k) {
    const axial_roll_plan *p = arg;
    size_t e, e1;
    axial__lines_range(&p->lines, k, &e, &e1);
    const size_t n = p->n;
    while (e < e1) {
        const size_t r = e / n, c = e % n;
        if (c != 0 || e1 - e < n) {
            const size_t c1 = e1 - e < n - c ? c + (e1 - e) : n;
            axial_roll_part(p, p->x + axial_roll_in_row(p, r) * p->row_bytes,
                            p->y + r * p->row_bytes, c, c1);
            e += c1 - c;
            continue;
        }
        size_t run = (e1 - e) / n, in = 0;
        if (p->ng >= 2) {
            const size_t D = p->g[p->ng - 2].size, S = p->g[p->ng - 2].shift, j = r % D;
            const size_t left = j >= S ? D - j : S - j;
            if (run > left)
                run = left;
            in = axial_roll_in_row(p, r);
        }
        p->kernel(p->x + in * p->row_bytes, p->y + r * p->row_bytes, run, n, p->shift,
                  axial_roll_flags(p, run * p->row_bytes));
        e += run * n;
    }
}

/* Checks the call and plans it (see the top of the file).  `split`: an
 * executor runs it. */
static axial_status axial_roll_plan_call(axial_dtype dtype, const void *x, void *y, size_t rank,
                                         const int64_t *shape, const int64_t *shift,
                                         size_t nshift, const int64_t *axes, size_t naxes,
                                         bool split, axial_roll_plan *p) {
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
    p->empty = count == 0;
    p->dtype = dtype;
    p->rank = rank;
    p->nshift = nshift;
    p->naxes = naxes;
    p->shape = shape;
    p->shift_arg = shift;
    p->axes = axes;
    p->x = x;
    p->y = y;
    p->esize = esize;
    p->count = count;
    p->copy = NULL;
    if (p->empty)
        return AXIAL_OK;
    if (naxes == 0) {
        nd = 1;
        dim[0] = count;
        sh[0] = (size_t)axial_mod(shift[0], count);
    }
    axial_roll_group *g = p->g;
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
    p->kt = axial__kernels();
    p->kernel = p->kt->roll[axial__log2_size(esize)];
    p->ng = ng;
    p->n = g[ng - 1].size;
    p->shift = g[ng - 1].shift;
    p->row_bytes = p->n * esize;
    p->flags = axial__stream_flag(count * esize);
    axial__lines_plan(&p->lines, y, esize, count, AXIAL_ROLL_THRESHOLD);
    p->lines.ntasks = split ? axial__stream_tasks(p->lines.ntasks, count * esize) : 1;
    return AXIAL_OK;
}

/* The plan's AXIAL_VERBOSE line: the calls one task over everything makes. */
static void axial_roll_describe(const axial_roll_plan *p) {
    if (p->empty) {
        axial__verbose_roll(NULL, AXIAL_ENTRY_NONE, p->dtype, p->rank, p->shape, p->shift_arg,
                            p->nshift, p->axes, p->naxes, 0, 0, 0, 0, 0, 0, 0);
        return;
    }
    const axial_roll_group *g = p->g;
    const size_t ng = p->ng;
    size_t reps = 1;
    for (size_t k = 0; k + 2 < ng; k++)
        reps *= g[k].size;
    axial__verbose_roll(p->kt, AXIAL_ENTRY(roll) + axial__log2_size(p->esize), p->dtype, p->rank,
                        p->shape, p->shift_arg, p->nshift, p->axes, p->naxes,
                        p->copy ? p->count * p->esize : 0, reps, ng > 1 ? g[ng - 2].size : 1,
                        ng > 1 ? g[ng - 2].shift : 0, g[ng - 1].size, g[ng - 1].shift,
                        p->lines.ntasks);
}

/* Runs a plan on exec (NULL: the calling thread). */
static axial_status axial_roll_run(axial_roll_plan *p, const axial_executor *exec) {
    if (!p->empty && p->x == p->y) {
        p->copy = malloc(p->count * p->esize);
        if (p->copy == NULL)
            return axial__fail(AXIAL_E_NOMEM,
                               "axial_roll: cannot allocate %zu bytes for an in-place roll",
                               p->count * p->esize);
        axial__copy(exec, p->copy, p->x, p->count * p->esize);
        p->x = p->copy;
    }
    if (axial__verbose_on())
        axial_roll_describe(p);
    if (!p->empty)
        axial__run(exec, p->lines.ntasks, axial_roll_task, p);
    free(p->copy);
    return AXIAL_OK;
}

axial_status axial_roll_ex(axial_dtype dtype, const void *x, void *y, size_t rank,
                           const int64_t *shape, const int64_t *shift, size_t nshift,
                           const int64_t *axes, size_t naxes, const axial_executor *exec) {
    axial_roll_plan p;
    axial_status st;
    if ((st = axial__check_exec("axial_roll", exec)) != AXIAL_OK ||
        (st = axial_roll_plan_call(dtype, x, y, rank, shape, shift, nshift, axes, naxes,
                                   exec != NULL, &p)) != AXIAL_OK)
        return st;
    return axial_roll_run(&p, exec);
}

axial_status axial_roll(axial_dtype dtype, const void *x, void *y, size_t rank,
                        const int64_t *shape, const int64_t *shift, size_t nshift,
                        const int64_t *axes, size_t naxes) {
    return axial_roll_ex(dtype, x, y, rank, shape, shift, nshift, axes, naxes, NULL);
}
