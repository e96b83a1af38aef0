/* SPDX-License-Identifier: MIT */
/*
 * reduce.c: axial_reduce_sum and axial_reduce_sum_shape.  A call is planned
 * (axial_reduce_plan_call: which of the ways below, on what pieces),
 * described once (AXIAL_VERBOSE), then run (axial_reduce_run), which alone
 * allocates and calls kernels.
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
 *     each output is still rounded once.  The buffer is count_out * 8 bytes;
 *     twice that where the first reduced group's first axis is cut into the
 *     order's cells (axial__wide_cell, float types): each cell's sums from
 *     the identity in the second half, then added to the first.
 *
 * Split (the same with or without an executor: it depends on dtype, shape
 * and arguments only, so the bits never depend on the threads):
 *   - a copy: line-aligned blocks;
 *   - one R group, many outputs: groups of whole `outer` rows, one `reduce`
 *     call each (each output is summed by one call, as without a split);
 *   - one R group whose reduced extent is longer than a chunk
 *     (axial__reduce_chunk: AXIAL_REDUCE_CHUNK bytes of rows for at most
 *     AXIAL_REDUCE_FEW outputs, at least AXIAL_REDUCE_CHUNK_ROWS rows for
 *     more of a float type): fixed chunks of the reduced extent, each summed
 *     from the identity, their partials added in chunk order (this also
 *     decides the plain call's bits); the chunks are the tasks, or, where
 *     column tiles apply (below), each tile walks its chunks;
 *   - one R group, more than AXIAL_REDUCE_FEW outputs, fewer than
 *     AXIAL_SPLIT_FEW_LINES `outer` rows and inner >= AXIAL_ORDER_LANES ([R, C]
 *     axis 0 with large C), where the table has reduce_cols (the float types
 *     of a SIMD ISA) and there is an executor: column tiles of whole 64-byte
 *     lines of a row (counted from the row's start; at least AXIAL_TILE_LINES
 *     lines wide, see axial__tiles), each task setting its
 *     tile of a wide (double) buffer to -0.0, summing its columns into it with
 *     reduce_cols (stride inner) and rounding them with reduce_finish.  From
 *     16 columns on the one summation order sums each column alone, from
 *     -0.0, so the bits are those of the plain call's `reduce`.  The buffer
 *     is 8 bytes per output, on the heap (AXIAL_E_NOMEM, nothing written);
 *   - several R groups: ranges of the rows of the kept group before the last
 *     R group, each task walking the odometer for its rows (disjoint parts
 *     of the wide buffer, each summed in the same order as by one task),
 *     each range at least AXIAL_WIDE_PIECE bytes of every slab (ReduceSum).
 *
 * axial_reduce_logsumexp(_ex) is the same planner over the table's
 * reduce_lse / reduce_lse_acc / reduce_lse_finish kernels (float dtypes
 * only), with a 16-byte wide state per output (axial_lse_acc, kernels.h):
 * the identity is the empty state, partial states merge with axial_lse_add
 * in the same fixed order as the sums' partials, and an axis of length 0
 * gives -inf.  Its column tiles (where the table has reduce_lse_cols) need
 * no buffer: each tile's kernel rounds its own columns, with the bits of the
 * whole-shape reduce_lse (kernels/kernels.h).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "order.h"

#define AXIAL_REDUCE_FLAGS (AXIAL_REDUCE_KEEP_DIMS | AXIAL_REDUCE_EMPTY_AXES_ALL)

/* Several reduced groups: a task's rows make one contiguous piece of every
 * slab (odometer index) of at least this many bytes.  Tasks of 64 KiB of
 * input spread over many slabs read short pieces far apart ({0, 2} of
 * [64, 2048, 64] f32: 1 KiB pieces of 64 slabs 512 KiB apart), much slower
 * than the plain call's whole slabs; pieces of 64 KiB come close to the
 * plain call on a 1-thread pool, and larger ones leave fewer tasks.
 * ReduceLogSumExp (an exp per term) keeps tasks of 64 KiB of input. */
#ifndef AXIAL_WIDE_PIECE
#define AXIAL_WIDE_PIECE ((size_t)64 << 10)
#endif

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

/* Which reduction: ReduceSum or ReduceLogSumExp, and its kernels. */
typedef struct {
    const char *fn, *op; /* "axial_reduce_sum", "reduce_sum" (for AXIAL_VERBOSE) */
    bool lse;
    size_t threshold; /* bytes of input from which it splits */
} axial_reduce_op;

/* The kernels of one op and dtype, and their AXIAL_ENTRY() indices. */
typedef struct {
    axial_reduce_kernel *reduce;
    axial_reduce_acc_kernel *acc;
    axial_reduce_finish_kernel *finish;
    unsigned e_reduce, e_acc, e_finish;
    size_t wide; /* bytes of wide state per output: 8, or 16 for the log semiring */
    bool lse;
    size_t threshold; /* the op's */
    axial_dtype dtype;
} axial_reduce_kernels;

static axial_reduce_kernels axial_reduce_kernels_of(const struct axial_kernels *kt,
                                                    const axial_reduce_op *op,
                                                    axial_dtype dtype) {
    if (op->lse)
        return (axial_reduce_kernels){kt->reduce_lse[dtype],
                                      kt->reduce_lse_acc[dtype],
                                      kt->reduce_lse_finish[dtype],
                                      AXIAL_ENTRY(reduce_lse) + dtype,
                                      AXIAL_ENTRY(reduce_lse_acc) + dtype,
                                      AXIAL_ENTRY(reduce_lse_finish) + dtype,
                                      sizeof(axial_lse_acc),
                                      true,
                                      op->threshold,
                                      dtype};
    return (axial_reduce_kernels){kt->reduce[dtype],
                                  kt->reduce_acc[dtype],
                                  kt->reduce_finish[dtype],
                                  AXIAL_ENTRY(reduce) + dtype,
                                  AXIAL_ENTRY(reduce_acc) + dtype,
                                  AXIAL_ENTRY(reduce_finish) + dtype,
                                  8,
                                  false,
                                  op->threshold,
                                  dtype};
}

static bool axial_is_float(axial_dtype dtype) {
    return dtype == AXIAL_F32 || dtype == AXIAL_F64 || dtype == AXIAL_F16 || dtype == AXIAL_BF16;
}

/* The identity of the wide accumulator: -0.0 for the float types (so that a
 * sum of only -0.0 terms is -0.0, as in one kernel call), 0 for integers. */
static __attribute__((noinline)) void axial_wide_zero(const axial_reduce_kernels *k,
                                                      void *accv, size_t count) {
    if (k->lse) {
        axial_lse_acc *a = accv;
        for (size_t i = 0; i < count; i++)
            a[i] = AXIAL_LSE_EMPTY;
        return;
    }
    const axial_dtype dtype = k->dtype;
    uint64_t *acc = accv;
    if (axial_is_float(dtype)) {
        double *d = (double *)(void *)acc;
        for (size_t k = 0; k < count; k++)
            d[k] = -0.0;
    } else {
        memset(acc, 0, count * 8);
    }
}

/* acc[k] += part[k] in the accumulator's type (double or wrapping uint64_t;
 * axial_lse_add for the log semiring). */
static void axial_wide_add(const axial_reduce_kernels *k, void *accv, const void *partv,
                           size_t count) {
    if (k->lse) {
        axial_lse_acc *a = accv;
        const axial_lse_acc *b = partv;
        for (size_t i = 0; i < count; i++)
            axial_lse_add(&a[i], b[i].m, b[i].s);
        return;
    }
    const axial_dtype dtype = k->dtype;
    uint64_t *acc = accv;
    const uint64_t *part = partv;
    if (axial_is_float(dtype)) {
        double *d = (double *)(void *)acc;
        const double *s = (const double *)(const void *)part;
        for (size_t k = 0; k < count; k++)
            d[k] += s[k];
    } else {
        for (size_t k = 0; k < count; k++)
            acc[k] += part[k];
    }
}

/* ---- the plan ---------------------------------------------------------------- */

/* How a call runs (see the top of the file): */
typedef enum {
    AXIAL_REDUCE_EMPTY,   /* no output */
    AXIAL_REDUCE_FILL,    /* a reduced axis of length 0: every sum is empty */
    AXIAL_REDUCE_COPY,    /* no reduced group */
    AXIAL_REDUCE_ROWS,    /* one reduced group: groups of whole rows, one `reduce` call each */
    AXIAL_REDUCE_CHUNKED, /* one reduced group, few outputs: fixed chunks */
    AXIAL_REDUCE_TILES,   /* one reduced group, few rows of many columns: column tiles */
    AXIAL_REDUCE_WIDE,    /* several reduced groups: a wide accumulator */
} axial_reduce_kind;

/* A call's plan: axial_reduce_plan_call fills it from the op, dtype, shape,
 * axes, flags, kernel table and whether an executor runs it,
 * axial_reduce_describe prints it (AXIAL_VERBOSE) and axial_reduce_run runs
 * it.  The shards' summary (axial__reduce_wide_acc) runs its layout
 * serially into an accumulator of theirs. */
typedef struct {
    axial_reduce_kind kind;
    const axial_reduce_op *op;
    const struct axial_kernels *kt;
    axial_reduce_kernels k;
    axial_dtype dtype;
    /* the call, as given (for AXIAL_VERBOSE) */
    size_t rank, naxes;
    const int64_t *shape, *axes;
    unsigned flags;
    const char *x;
    char *y;
    size_t esize, count_in, count_out;
    /* the groups (axial_reduce_layout): ng of them, g[d] long, r[d] reduced;
     * q: the reduced one (ROWS, CHUNKED, TILES) or the last reduced one
     * (WIDE), over (outer, n, inner) = (the groups before it, or only the
     * kept one right before it (WIDE); it; the group after it) */
    size_t ng, g[AXIAL_MAX_RANK];
    bool r[AXIAL_MAX_RANK];
    size_t q, outer, n, inner;
    /* WIDE: gr, the first reduced group, whose first dimension is the cut
     * axis (rest of gr's indices to one of the cut axis's); gr's indices in
     * cells of cellg (0: one cell) */
    size_t gr, rest, cellg;
    size_t ntasks, align; /* align: axial__unit_align of the rows (ROWS) */
    unsigned kflags; /* the reduce kernel's flags: axial__stream_flag of the output */
    /* CHUNKED (and TILES): chunks of `chunk` rows of the reduced extent, per
     * outer index (ROWS: one chunk of n) */
    size_t chunk, nchunks;
    /* TILES: `ntiles` per outer row over the `rowlines` 64-byte lines of a row */
    size_t rowlines, ntiles;
    /* WIDE: each group's stride in x and in the wide accumulator (the odometer) */
    size_t xstride[AXIAL_MAX_RANK], astride[AXIAL_MAX_RANK];
    /* WIDE, one task: up to nbatch slabs a reduce_acc call into `batch`
     * (axial_wide_batch; NULL: a call a slab) */
    size_t nbatch;
    void *batch;
    /* the runner's heap workspace: CHUNKED the total (count_out wide states)
     * and the partials (ntasks * inner, task-indexed), TILES the f64 sums
     * (outer * inner; twice that with chunks), WIDE the accumulator
     * (count_out wide states) */
    void *workspace;
} axial_reduce_plan;

/* WIDE: each group's stride in x and in the wide accumulator (an odometer). */
static void axial_wide_strides(axial_reduce_plan *p) {
    size_t xs = 1, as = 1;
    for (size_t d = p->ng; d-- > 0;) {
        p->xstride[d] = xs;
        p->astride[d] = p->r[d] ? 0 : as;
        xs *= p->g[d];
        if (!p->r[d])
            as *= p->g[d];
    }
}

/* The groups of p->shape over `reduced` (dimensions of size 1 dropped,
 * adjacent ones alike merged), and the kind and (outer, n, inner) they make
 * without a split: COPY, ROWS, CHUNKED or WIDE.  Needs count_in > 0 and
 * count_out > 0. */
static void axial_reduce_layout(axial_reduce_plan *p, const bool *reduced) {
    size_t nreduced = 0, red = 1, cutlen = 1;
    p->ng = 0;
    for (size_t d = 0; d < p->rank; d++) {
        if (p->shape[d] == 1)
            continue;
        if (reduced[d])
            red *= (size_t)p->shape[d];
        if (p->ng > 0 && p->r[p->ng - 1] == reduced[d]) {
            p->g[p->ng - 1] *= (size_t)p->shape[d];
        } else {
            if (reduced[d] && nreduced == 0)
                p->gr = p->ng, cutlen = (size_t)p->shape[d];
            p->g[p->ng] = (size_t)p->shape[d];
            p->r[p->ng] = reduced[d];
            nreduced += reduced[d];
            p->ng++;
        }
    }
    p->outer = p->n = p->inner = p->ntasks = 1;
    if (nreduced == 0) {
        p->kind = AXIAL_REDUCE_COPY;
        return;
    }
    p->q = p->ng - 1;
    while (!p->r[p->q])
        p->q--;
    const size_t q = p->q;
    p->n = p->g[q];
    p->inner = q + 1 < p->ng ? p->g[q + 1] : 1; /* (groups alternate) */
    if (nreduced == 1) {
        for (size_t d = 0; d < q; d++)
            p->outer *= p->g[d];
        const size_t chunk = axial__reduce_chunk(p->count_out, p->inner * p->esize,
                                                 axial_is_float(p->dtype));
        p->kind = AXIAL_REDUCE_ROWS;
        p->chunk = p->n;
        p->nchunks = 1;
        if (chunk && p->n > chunk) {
            p->kind = AXIAL_REDUCE_CHUNKED;
            p->chunk = chunk;
            p->nchunks = (p->n - 1) / chunk + 1;
        }
        return;
    }
    /* several: the last reduced group has a kept group before it (groups
     * alternate and there is more than one reduced group) */
    p->kind = AXIAL_REDUCE_WIDE;
    p->outer = p->g[q - 1];
    p->rest = p->g[p->gr] / cutlen;
    p->cellg = axial__wide_cell(red / cutlen) * p->rest;
    if (!axial_is_float(p->dtype) || p->cellg >= p->g[p->gr])
        p->cellg = 0; /* (integers: the same sums in any order) */
    axial_wide_strides(p);
}

/* Column tiles, where a split of few `outer` rows of many columns takes them
 * (see the top of the file): p->kind TILES.  ReduceLogSumExp's tile kernel
 * rounds its outputs, so it takes no chunks. */
static bool axial_reduce_tiles(axial_reduce_plan *p, bool split) {
    const bool lse = p->op->lse;
    if (!(AXIAL_SPLIT_COLUMN_TILES && split && p->outer < AXIAL_SPLIT_FEW_LINES &&
          p->inner >= AXIAL_ORDER_LANES && p->count_out > AXIAL_REDUCE_FEW &&
          (lse ? p->nchunks == 1 && p->kt->reduce_lse_cols[p->dtype] != NULL
               : p->kt->reduce_cols[p->dtype] != NULL) &&
          p->count_in * p->esize >= p->op->threshold))
        return false;
    p->ntiles = axial__tiles(p->count_in * p->esize, p->outer, p->inner * p->esize,
                             lse ? AXIAL_LSE_TILE_LINES : AXIAL_TILE_LINES, AXIAL_REDUCE_TILE_MIN,
                             &p->rowlines);
    if (p->ntiles < 2)
        return false;
    p->kind = AXIAL_REDUCE_TILES;
    p->ntasks = p->outer * p->ntiles;
    return true;
}

/* Checks the call and plans it (see the top of the file).  `split`: an
 * executor runs it. */
static axial_status axial_reduce_plan_call(const axial_reduce_op *op, axial_dtype dtype,
                                           const void *x, void *y, size_t rank,
                                           const int64_t *shape, const int64_t *axes,
                                           size_t naxes, unsigned flags, bool split,
                                           axial_reduce_plan *p) {
    const char *fn = op->fn;
    axial_reduce_dims dims;
    size_t esize, count_in;
    axial_status st;
    if ((st = op->lse ? axial__check_float_dtype(fn, dtype, &esize)
                      : axial__check_dtype(fn, dtype, false, &esize)) != AXIAL_OK ||
        (st = axial_reduce_prepare(fn, rank, shape, axes, naxes, flags, esize, &count_in,
                                   &dims)) != AXIAL_OK)
        return st;
    /* The output's dimensions are a subset of the input's (or 1s): no overflow. */
    const size_t count_out = axial__product(dims.out_shape, 0, dims.out_rank);
    if ((st = axial__check_buffers(fn, x, count_in * esize, y, count_out * esize, false)) !=
        AXIAL_OK)
        return st;
    p->kind = AXIAL_REDUCE_EMPTY;
    p->op = op;
    p->kt = NULL;
    p->dtype = dtype;
    p->rank = rank;
    p->naxes = naxes;
    p->shape = shape;
    p->axes = axes;
    p->flags = flags;
    p->x = x;
    p->y = y;
    p->esize = esize;
    p->count_in = count_in;
    p->count_out = count_out;
    p->ntasks = 1;
    p->workspace = p->batch = NULL;
    if (count_out == 0)
        return AXIAL_OK;
    const struct axial_kernels *kt = p->kt = axial__kernels();
    p->k = axial_reduce_kernels_of(kt, op, dtype);
    if (count_in == 0) {
        p->kind = AXIAL_REDUCE_FILL;
        return AXIAL_OK;
    }
    axial_reduce_layout(p, dims.reduced);
    const size_t row_bytes = p->inner * esize;
    switch (p->kind) {
    case AXIAL_REDUCE_CHUNKED:
        if (!axial_reduce_tiles(p, split) && split && count_in * esize >= op->threshold)
            p->ntasks = p->outer * p->nchunks;
        break;
    case AXIAL_REDUCE_ROWS:
        p->kflags = axial__stream_flag(count_out * esize);
        p->ntasks = axial__stream_tasks(axial__ntasks(p->outer, p->n * row_bytes, op->threshold),
                                        count_out * esize);
        if (axial_reduce_tiles(p, split))
            break;
        if (!split) /* groups of rows change no bit: the plain call is one call, */
            p->ntasks = 1; /* (the kernel streams a large output itself) */
        p->align = axial__unit_align(p->outer, p->ntasks, p->n * row_bytes, row_bytes);
        break;
    case AXIAL_REDUCE_WIDE: {
        /* Each output's terms are added in odometer order whatever the row
         * ranges, so the plain call runs all rows as one task: per odometer
         * index, one kernel call over every row (many calls of a few rows
         * each, reading slabs far apart, are much slower than whole-slab
         * calls); a split's tasks take pieces of at least AXIAL_WIDE_PIECE
         * bytes of each slab (lse: compute-bound, any piece). */
        if (!split)
            break;
        p->ntasks = axial__ntasks(p->outer, count_in / p->outer * esize, op->threshold);
        const size_t pieces = p->outer * p->n * p->inner * esize / AXIAL_WIDE_PIECE;
        if (!op->lse && p->ntasks > pieces)
            p->ntasks = pieces > 1 ? pieces : 1;
        break;
    }
    default:
        break;
    }
    return AXIAL_OK;
}

/* ---- the tasks ------------------------------------------------------------------- */

static void axial_reduce_rows_task(void *arg, size_t k) {
    const axial_reduce_plan *p = arg;
    size_t b, e;
    axial__task_range_aligned(p->outer, p->ntasks, p->align, k, &b, &e);
    p->k.reduce(p->x + b * p->n * p->inner * p->esize, p->y + b * p->inner * p->esize, e - b,
                p->n, p->inner, p->kflags);
}

/* Task k = (outer row o, tile j): columns [c0, c1) of row o, chunk by
 * chunk from -0.0 into their part of the workspace's second half, added in
 * chunk order into their part of the f64 sums (-0.0 + P == P: one chunk
 * gives the plain call's sums), then rounded to y. */
static void axial_reduce_cols_task(void *arg, size_t k) {
    const axial_reduce_plan *p = arg;
    size_t c0, c1;
    const size_t o = axial__tile_cols(p->rowlines, p->ntiles, k, p->esize, p->inner, &c0, &c1);
    double *acc = (double *)p->workspace + o * p->inner + c0, *part = acc + p->count_out;
    const size_t w = c1 - c0;
    axial_wide_zero(&p->k, acc, w);
    for (size_t j0 = 0; j0 < p->n; j0 += p->chunk) {
        axial_wide_zero(&p->k, part, w);
        p->kt->reduce_cols[p->dtype](p->x + ((o * p->n + j0) * p->inner + c0) * p->esize, part,
                                     p->n - j0 < p->chunk ? p->n - j0 : p->chunk, w, p->inner);
        axial_wide_add(&p->k, acc, part, w);
    }
    p->k.finish(acc, p->y + (o * p->inner + c0) * p->esize, w);
}

/* The same tile of ReduceLogSumExp: reduce_lse_cols writes its outputs. */
static void axial_reduce_lse_cols_task(void *arg, size_t k) {
    const axial_reduce_plan *p = arg;
    size_t c0, c1;
    const size_t o = axial__tile_cols(p->rowlines, p->ntiles, k, p->esize, p->inner, &c0, &c1);
    p->kt->reduce_lse_cols[p->dtype](p->x + (o * p->n * p->inner + c0) * p->esize,
                                     p->y + (o * p->inner + c0) * p->esize, p->n, c1 - c0,
                                     p->inner);
}

/* Chunk t = (o, c) of a chunked reduction into part (inner wide states). */
static void axial_reduce_chunk(const axial_reduce_plan *p, size_t t, void *part) {
    const size_t o = t / p->nchunks, c = t % p->nchunks;
    const size_t j0 = c * p->chunk, len = p->n - j0 < p->chunk ? p->n - j0 : p->chunk;
    axial_wide_zero(&p->k, part, p->inner);
    p->k.acc(p->x + (o * p->n + j0) * p->inner * p->esize, part, 1, len, p->inner);
}

static void axial_reduce_chunk_task(void *arg, size_t t) {
    const axial_reduce_plan *p = arg;
    axial_reduce_chunk(p, t, (char *)p->workspace + (p->count_out + t * p->inner) * p->k.wide);
}

/* Every chunk in order (part: room for inner wide states), each added to
 * tot (outer * inner wide states) as it is done: the additions of the
 * split, in the same order. */
static void axial_reduce_chunks_into(const axial_reduce_plan *p, char *tot, void *part) {
    for (size_t t = 0; t < p->outer * p->nchunks; t++) {
        axial_reduce_chunk(p, t, part);
        axial_wide_add(&p->k, tot + t / p->nchunks * p->inner * p->k.wide, part, p->inner);
    }
}

/* Several reduced groups, one task: the odometer's innermost group is a
 * reduced one, and its consecutive indices hold consecutive slabs of all the
 * rows of the kept group after it.  One reduce_acc call over up to
 * AXIAL_WIDE_BATCH wide states' worth of those slabs, from the identity,
 * then each slab's sums added to the accumulator in index order, makes the
 * same additions as a call per slab wherever reduce_acc adds each output's
 * sum once (the float kernels of the SIMD ISAs, which have reduce_cols,
 * for inner < 16: kernels/kernels.h) or every order gives the same sums
 * (integers).  Slabs of a few rows cost a kernel call each otherwise ({0, 2}
 * of [256, 4, 16] f32: 256 calls of 4 rows; slabs of 16 outputs or more
 * gain nothing from it).  Returns the slabs a call (1: no batching). */
#ifndef AXIAL_WIDE_BATCH
#define AXIAL_WIDE_BATCH ((size_t)1024)
#endif
#ifndef AXIAL_WIDE_BATCH_BELOW
#define AXIAL_WIDE_BATCH_BELOW ((size_t)16)
#endif
static size_t axial_wide_batch(const axial_reduce_plan *p) {
    const size_t w = p->outer * p->inner;
    if (p->op->lse || p->ntasks > 1 || w >= AXIAL_WIDE_BATCH_BELOW ||
        (axial_is_float(p->dtype) && (p->inner >= 16 || p->kt->reduce_cols[p->dtype] == NULL)))
        return 1;
    return AXIAL_WIDE_BATCH / w;
}

/* Rows [b, e) of the kept group before the last reduced one, for every index
 * of the groups before it (an odometer; the first reduced group's indices
 * [lo, hi) only), into the wide accumulator acc: each output's terms are
 * added in the same order as by one task over all rows. */
static void axial_wide_rows(const axial_reduce_plan *p, size_t b, size_t e, size_t lo,
                            size_t hi, char *acc) {
    const size_t q = p->q, n = p->n, inner = p->inner, gr = p->gr;
    size_t idx[AXIAL_MAX_RANK] = {0}, end[AXIAL_MAX_RANK];
    for (size_t d = 0; d + 1 < q; d++)
        end[d] = p->g[d];
    idx[gr] = lo, end[gr] = hi;
    size_t xoff = b * n * inner + lo * p->xstride[gr], aoff = b * inner;
    const size_t d0 = q - 2, w = (e - b) * inner, wide = p->k.wide; /* d0: reduced */
    const size_t per = p->batch && e - b == p->outer ? p->nbatch : 1;
    for (;;) {
        if (per > 1) { /* (axial_wide_batch) */
            const size_t m = end[d0] - idx[d0] < per ? end[d0] - idx[d0] : per;
            axial_wide_zero(&p->k, p->batch, m * w);
            p->k.acc(p->x + xoff * p->esize, p->batch, m * (e - b), n, inner);
            for (size_t l = 0; l < m; l++)
                axial_wide_add(&p->k, acc + aoff * wide, (char *)p->batch + l * w * wide, w);
            idx[d0] += m - 1;
            xoff += (m - 1) * p->xstride[d0];
        } else {
            p->k.acc(p->x + xoff * p->esize, acc + aoff * wide, e - b, n, inner);
        }
        size_t d = q - 1;
        while (d-- > 0) {
            if (++idx[d] < end[d]) {
                xoff += p->xstride[d];
                aoff += p->astride[d];
                break;
            }
            const size_t first = d == gr ? lo : 0;
            xoff -= (end[d] - 1 - first) * p->xstride[d];
            aoff -= (end[d] - 1 - first) * p->astride[d];
            idx[d] = first;
        }
        if (d == (size_t)-1)
            break;
    }
}

/* A cell's end for the outputs of rows [b, e) (every index of the kept
 * groups before them): R (+)= P (fold), and P back to the identity. */
static void axial_wide_fold(const axial_reduce_plan *p, size_t b, size_t e, char *R, char *P,
                            bool fold) {
    const size_t w = p->k.wide, cnt = (e - b) * p->inner;
    size_t idx[AXIAL_MAX_RANK] = {0}, aoff = b * p->inner;
    for (;;) {
        if (fold)
            axial_wide_add(&p->k, R + aoff * w, P + aoff * w, cnt);
        axial_wide_zero(&p->k, P + aoff * w, cnt);
        size_t d = p->q - 1;
        while (d-- > 0) {
            if (p->r[d])
                continue;
            if (++idx[d] < p->g[d]) {
                aoff += p->astride[d];
                break;
            }
            aoff -= (p->g[d] - 1) * p->astride[d];
            idx[d] = 0;
        }
        if (d == (size_t)-1)
            break;
    }
}

/* The outputs of rows [b, e) in the order's cells: each cell's terms into P
 * from the identity, then added to R (the workspace: R, then P). */
static void axial_wide_task(void *arg, size_t k) {
    const axial_reduce_plan *p = arg;
    size_t b, e;
    axial__task_range(p->outer, p->ntasks, k, &b, &e);
    const size_t len = p->g[p->gr];
    if (p->cellg == 0) {
        axial_wide_rows(p, b, e, 0, len, p->workspace);
        return;
    }
    char *R = p->workspace, *P = R + p->count_out * p->k.wide;
    axial_wide_fold(p, b, e, R, P, false);
    for (size_t lo = 0; lo < len; lo += p->cellg) {
        axial_wide_rows(p, b, e, lo, len - lo < p->cellg ? len : lo + p->cellg, P);
        axial_wide_fold(p, b, e, R, P, true);
    }
}

/* Every output of the log semiring over no term: -inf, through the finish
 * kernel (its rounding of the empty state), 64 outputs at a time. */
static void axial_fill_empty(const axial_reduce_kernels *k, char *y, size_t esize,
                             size_t count) {
    axial_lse_acc empty[64];
    axial_wide_zero(k, empty, 64);
    for (size_t i = 0; i < count; i += 64)
        k->finish(empty, y + i * esize, count - i < 64 ? count - i : 64);
}

/* ---- describe, run ----------------------------------------------------------------- */

/* WIDE: the reduce_acc calls of the plan (one a slab per task, or
 * axial_wide_batch's slabs a call within each cell), *rows those of the
 * first call. */
static size_t axial_wide_calls(const axial_reduce_plan *p, size_t *rows) {
    const size_t d0 = p->q - 2, per = p->nbatch > 1 ? p->nbatch : 1, len = p->g[p->gr];
    const size_t cell = p->cellg ? p->cellg : len, full = len / cell;
    size_t calls = 0;
    for (size_t c = 0; c < 2; c++) { /* the full cells, then a last partial one */
        const size_t r = c ? len % cell : cell, m = c ? 1 : full;
        if (r == 0 || m == 0)
            continue;
        size_t k = 1;
        for (size_t d = 0; d < d0; d++)
            k *= d == p->gr ? r : p->g[d];
        const size_t r0 = d0 == p->gr ? r : p->g[d0];
        calls += m * k * ((r0 - 1) / per + 1);
        if (c == 0 || full == 0)
            *rows = (r0 < per ? r0 : per) * p->outer;
    }
    return calls;
}

/* The plan's AXIAL_VERBOSE line: the kernel calls it makes. */
static void axial_reduce_describe(const axial_reduce_plan *p) {
    const bool lse = p->op->lse;
    const char *acc = lse ? "reduce_lse_acc" : "reduce_acc";
    const char *finish = lse ? "reduce_lse_finish" : "reduce_finish";
    const size_t maxcols = p->kind == AXIAL_REDUCE_TILES
                               ? axial__tile_max_cols(p->rowlines, p->ntiles, p->esize, p->inner)
                               : 0;
    char note[32];
    axial__tasks_note(note, p->ntasks);
#define AXIAL_REDUCE_LINE(kt, e1, e2, ...)                                                        \
    axial__verbose_reduce(p->op->op, kt, e1, e2, p->dtype, p->rank, p->shape, p->axes, p->naxes, \
                          p->flags, __VA_ARGS__)
    switch (p->kind) {
    case AXIAL_REDUCE_EMPTY:
        AXIAL_REDUCE_LINE(NULL, AXIAL_ENTRY_NONE, AXIAL_ENTRY_NONE, "empty");
        break;
    case AXIAL_REDUCE_FILL:
        AXIAL_REDUCE_LINE(lse ? p->kt : NULL, lse ? p->k.e_finish : AXIAL_ENTRY_NONE,
                          AXIAL_ENTRY_NONE,
                          lse ? "fill-neg-inf(count=%zu)" : "zero-fill(count=%zu)", p->count_out);
        break;
    case AXIAL_REDUCE_COPY:
        AXIAL_REDUCE_LINE(NULL, AXIAL_ENTRY_NONE, AXIAL_ENTRY_NONE, "copy(count=%zu)",
                          p->count_in);
        break;
    case AXIAL_REDUCE_ROWS:
        AXIAL_REDUCE_LINE(p->kt, p->k.e_reduce, AXIAL_ENTRY_NONE,
                          "%s(outer=%zu,n=%zu,inner=%zu)%s", lse ? "reduce_lse" : "reduce",
                          p->outer, p->n, p->inner, note);
        break;
    case AXIAL_REDUCE_CHUNKED:
        AXIAL_REDUCE_LINE(p->kt, p->k.e_acc, p->k.e_finish,
                          "%zu*%s(outer=1,n<=%zu,inner=%zu)+%s(count=%zu)",
                          p->outer * p->nchunks, acc, p->chunk, p->inner, finish, p->count_out);
        break;
    case AXIAL_REDUCE_TILES:
        if (lse)
            AXIAL_REDUCE_LINE(p->kt, AXIAL_ENTRY(reduce_lse_cols) + p->dtype, AXIAL_ENTRY_NONE,
                              "%zu*reduce_lse_cols(n=%zu,ncols<=%zu,stride=%zu)%s", p->ntasks,
                              p->n, maxcols, p->inner, note);
        else
            AXIAL_REDUCE_LINE(p->kt, AXIAL_ENTRY(reduce_cols) + p->dtype,
                              AXIAL_ENTRY(reduce_finish) + p->dtype,
                              "%zu*(reduce_cols(n=%zu,ncols<=%zu,stride=%zu)+reduce_finish)%s",
                              p->ntasks, p->n, maxcols, p->inner, note);
        break;
    case AXIAL_REDUCE_WIDE: {
        size_t rows = p->outer;
        const size_t calls = axial_wide_calls(p, &rows);
        AXIAL_REDUCE_LINE(p->kt, p->k.e_acc, p->k.e_finish,
                          "%zu*%s(outer=%zu,n=%zu,inner=%zu)+%s(count=%zu)", calls, acc, rows,
                          p->n, p->inner, finish, p->count_out);
        break;
    }
    }
#undef AXIAL_REDUCE_LINE
}

/* Runs a plan on exec (NULL: the calling thread). */
static axial_status axial_reduce_run(axial_reduce_plan *p, const axial_executor *exec) {
    /* the workspace, on the heap (nothing written when it fails) */
    size_t bytes = 0;
    if (p->kind == AXIAL_REDUCE_CHUNKED && (p->ntasks > 1 || p->count_out > AXIAL_REDUCE_FEW))
        bytes = (p->count_out + p->ntasks * p->inner) * p->k.wide; /* the total, the partials */
    else if (p->kind == AXIAL_REDUCE_TILES && !p->op->lse) /* the sums (and a chunk's) */
        bytes = 2 * p->count_out * sizeof(double);
    else if (p->kind == AXIAL_REDUCE_WIDE) { /* R (and P, with cells), and the batch */
        p->nbatch = axial_wide_batch(p);
        bytes = ((p->cellg ? 2 : 1) * p->count_out +
                 (p->nbatch > 1 ? p->nbatch * p->outer * p->inner : 0)) * p->k.wide;
    }
    if (bytes > 0 && (p->workspace = malloc(bytes)) == NULL)
        return p->kind == AXIAL_REDUCE_CHUNKED
                   ? axial__fail(AXIAL_E_NOMEM, "%s: cannot allocate %zu bytes of partial sums",
                                 p->op->fn, bytes)
                   : axial__fail(AXIAL_E_NOMEM, "%s: cannot allocate the %zu-byte accumulator",
                                 p->op->fn, bytes);
    if (axial__verbose_on())
        axial_reduce_describe(p);
    switch (p->kind) {
    case AXIAL_REDUCE_EMPTY:
        break;
    case AXIAL_REDUCE_FILL:
        if (p->op->lse)
            axial_fill_empty(&p->k, p->y, p->esize, p->count_out);
        else
            memset(p->y, 0, p->count_out * p->esize); /* +0 in every dtype is all-zero bits */
        break;
    case AXIAL_REDUCE_COPY:
        axial__copy(exec, p->y, p->x, p->count_in * p->esize);
        break;
    case AXIAL_REDUCE_ROWS:
        axial__run(exec, p->ntasks, axial_reduce_rows_task, p);
        break;
    case AXIAL_REDUCE_CHUNKED: {
        /* the chunks' partials added in chunk order (from the identity), then
         * rounded once: with a split, each chunk a task into its own partials */
        axial_lse_acc few[2 * AXIAL_REDUCE_FEW]; /* (few outputs, no split: no allocation) */
        char *tot = p->workspace ? p->workspace : (char *)few;
        char *parts = tot + p->count_out * p->k.wide;
        axial_wide_zero(&p->k, tot, p->count_out);
        if (p->ntasks == 1) {
            axial_reduce_chunks_into(p, tot, parts);
        } else {
            axial__run(exec, p->ntasks, axial_reduce_chunk_task, p);
            const size_t w = p->inner * p->k.wide;
            for (size_t t = 0; t < p->ntasks; t++)
                axial_wide_add(&p->k, tot + t / p->nchunks * w, parts + t * w, p->inner);
        }
        p->k.finish(tot, p->y, p->count_out);
        break;
    }
    case AXIAL_REDUCE_TILES:
        axial__run(exec, p->ntasks, p->op->lse ? axial_reduce_lse_cols_task : axial_reduce_cols_task,
                   p);
        break;
    case AXIAL_REDUCE_WIDE:
        if (p->nbatch > 1)
            p->batch = (char *)p->workspace + (p->cellg ? 2 : 1) * p->count_out * p->k.wide;
        axial_wide_zero(&p->k, p->workspace, p->count_out);
        axial__run(exec, p->ntasks, axial_wide_task, p);
        p->k.finish(p->workspace, p->y, p->count_out);
        break;
    }
    free(p->workspace);
    return AXIAL_OK;
}

static axial_status axial_reduce_ex(const axial_reduce_op *op, axial_dtype dtype,
                                    const void *x, void *y, size_t rank, const int64_t *shape,
                                    const int64_t *axes, size_t naxes, unsigned flags,
                                    const axial_executor *exec) {
    axial_reduce_plan p;
    axial_status st;
    if ((st = axial__check_exec(op->fn, exec)) != AXIAL_OK ||
        (st = axial_reduce_plan_call(op, dtype, x, y, rank, shape, axes, naxes, flags,
                                     exec != NULL, &p)) != AXIAL_OK)
        return st;
    return axial_reduce_run(&p, exec);
}

/* A plan of the shards' (src/shard.c) over x of `shape`, acc (count_out
 * wide accumulators) set to the identity; its layout where x has terms. */
static bool axial_shard_plan(axial_reduce_plan *p, bool lse, axial_dtype dtype, const void *x,
                             size_t rank, const int64_t *shape, const bool *reduced, void *acc,
                             size_t count_out) {
    static const axial_reduce_op ops[2] = {{"axial_shard_summarize", "shard", false, 0},
                                           {"axial_shard_summarize", "shard", true, 0}};
    p->op = &ops[lse];
    p->batch = NULL; /* (a call a slab) */
    p->dtype = dtype;
    p->k = axial_reduce_kernels_of(axial__kernels(), p->op, dtype);
    p->rank = rank;
    p->shape = shape;
    p->x = x;
    p->esize = axial__dtype_size(dtype);
    p->count_in = axial__product(shape, 0, rank);
    p->count_out = count_out;
    axial_wide_zero(&p->k, acc, count_out);
    if (p->count_in == 0 || count_out == 0)
        return false;
    axial_reduce_layout(p, reduced);
    return true;
}

/* The shards' summary of a piece without cells (src/shard.c): the wide
 * accumulators (count_out of them, from the identity) of the whole
 * tensor's reduction over `reduced`, in the plain call's order (one reduced
 * group: one reduce_acc call, or its fixed chunks; several: the odometer),
 * so that a piece that is the whole axis has the plain call's bits. */
axial_status axial__reduce_wide_acc(bool lse, axial_dtype dtype, const void *x, size_t rank,
                                    const int64_t *shape, const bool *reduced, void *acc,
                                    size_t count_out) {
    axial_reduce_plan p;
    if (!axial_shard_plan(&p, lse, dtype, x, rank, shape, reduced, acc, count_out))
        return AXIAL_OK;
    switch (p.kind) {
    case AXIAL_REDUCE_COPY: /* every reduced dimension is 1 here: each term alone */
        p.k.acc(x, acc, 1, 1, p.count_in);
        break;
    case AXIAL_REDUCE_CHUNKED: { /* (not reached from the shards, which cut chunked */
        axial_lse_acc part[AXIAL_REDUCE_FEW]; /* extents into cells; kept for few outputs) */
        axial_reduce_chunks_into(&p, acc, part);
        break;
    }
    case AXIAL_REDUCE_WIDE: /* (a piece of one cell: the shards have no others) */
        axial_wide_rows(&p, 0, p.outer, 0, p.g[p.gr], acc);
        break;
    default: /* ROWS */
        p.k.acc(x, acc, p.outer, p.n, p.inner);
        break;
    }
    return AXIAL_OK;
}

void axial__reduce_wide_cell(bool lse, axial_dtype dtype, const void *x, size_t rank,
                             const int64_t *shape, const bool *reduced, size_t len, size_t lo,
                             size_t hi, void *acc, size_t count_out) {
    axial_reduce_plan p; /* (the whole tensor's groups: WIDE) */
    if (!axial_shard_plan(&p, lse, dtype, x, rank, shape, reduced, acc, count_out))
        return;
    p.g[p.gr] = len * p.rest; /* the piece's strides */
    axial_wide_strides(&p);
    axial_wide_rows(&p, 0, p.outer, lo * p.rest, hi * p.rest, acc);
}

static const axial_reduce_op axial_op_sum = {"axial_reduce_sum", "reduce_sum", false,
                                           AXIAL_REDUCE_THRESHOLD};
static const axial_reduce_op axial_op_lse = {"axial_reduce_logsumexp", "reduce_logsumexp", true,
                                           AXIAL_LSE_THRESHOLD};

axial_status axial_reduce_sum_ex(axial_dtype dtype, const void *x, void *y, size_t rank,
                                 const int64_t *shape, const int64_t *axes, size_t naxes,
                                 unsigned flags, const axial_executor *exec) {
    return axial_reduce_ex(&axial_op_sum, dtype, x, y, rank, shape, axes, naxes, flags, exec);
}

axial_status axial_reduce_sum(axial_dtype dtype, const void *x, void *y, size_t rank,
                              const int64_t *shape, const int64_t *axes, size_t naxes,
                              unsigned flags) {
    return axial_reduce_ex(&axial_op_sum, dtype, x, y, rank, shape, axes, naxes, flags, NULL);
}

axial_status axial_reduce_logsumexp_ex(axial_dtype dtype, const void *x, void *y, size_t rank,
                                       const int64_t *shape, const int64_t *axes, size_t naxes,
                                       unsigned flags, const axial_executor *exec) {
    return axial_reduce_ex(&axial_op_lse, dtype, x, y, rank, shape, axes, naxes, flags, exec);
}

axial_status axial_reduce_logsumexp(axial_dtype dtype, const void *x, void *y, size_t rank,
                                    const int64_t *shape, const int64_t *axes, size_t naxes,
                                    unsigned flags) {
    return axial_reduce_ex(&axial_op_lse, dtype, x, y, rank, shape, axes, naxes, flags, NULL);
}
