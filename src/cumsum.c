/* SPDX-License-Identifier: MIT */
/*
 * cumsum.c: axial_cumsum and axial_cumsum_ex: checks, then kernel calls on
 * (outer, n, inner): the dimensions before the axis merge into `outer`,
 * those after into `inner`.
 *
 * Split (with an executor, above AXIAL_CUMSUM_THRESHOLD; a function of
 * dtype, shape and flags only, never of the executor):
 *   - many lines: the `outer` lines are independent, so the tasks are groups
 *     of whole lines (about AXIAL_GRAIN bytes each), each scanned by one
 *     kernel call as without a split;
 *   - fewer than AXIAL_SPLIT_FEW_LINES lines along the innermost axis
 *     (inner == 1), each longer than the chunks of a task: a blocked scan
 *     along the axis, on the scan chunks of the one summation order
 *     (AXIAL_SCAN_CHUNK elements, counted from the line's end with REVERSE).
 *     The tasks are groups of whole chunks (AXIAL_GRAIN bytes of input, or
 *     AXIAL_STREAM_TASK where the output streams).  Pass 1: a task whose
 *     group's carry is already known -- the group starts its line, or the
 *     group before it was scanned in this pass -- scans its group with
 *     cumsum_seg from that carry and hands the carry after it on (an atomic
 *     flag per group, release/acquire); any other task computes its chunks'
 *     totals S_h with scan_total (every chunk but a line's last).  Then,
 *     serially in double, the chunk carries R_0 = -0.0, R_{h+1} = R_h + S_h
 *     (a scanned group's carry out is that same sum: the kernel adds the
 *     same S_h in the same order); pass 2: the groups not yet scanned, with
 *     cumsum_seg from R at the group's first chunk (AXIAL_SCAN_CONTINUE
 *     unless the group starts its line).  The whole-line kernel computes the
 *     very same R_h and S_h in one pass (the order's definition), so the
 *     bits are those of the plain call whichever tasks scanned in pass 1.
 *     Run in index order (a 1-thread pool) every group scans in pass 1 and
 *     pass 2 is not called: one pass over memory, as the plain call; on T
 *     threads the first thread scans from the line's start while the others
 *     total the groups further on (pthreadpool hands each thread a
 *     contiguous range of tasks), so the extra pass covers only part of the
 *     line.  Pass 1 only reads the groups it does not scan, and each task
 *     writes only its own group, so in place (y == x) works.  The carries
 *     take 8 bytes per chunk and 9 per group of heap (AXIAL_E_NOMEM when
 *     that fails, nothing written).
 *   - fewer than AXIAL_SPLIT_FEW_LINES lines along an outer axis (inner > 1):
 *     column tiles of whole 64-byte lines of a row (counted from the row's
 *     start; at least AXIAL_TILE_LINES lines wide, see axial__tiles), each scanned alone by cumsum_cols with row stride `inner`; each
 *     column is summed on its own by the order, so again the plain call's bits.
 * axial_logcumsumexp(_ex) is this planner over the table's logcumsumexp and
 * logcumsumexp_cols kernels (from AXIAL_LSE_THRESHOLD): groups of lines and
 * column tiles as above, and the blocked scan where the table has
 * logcumsumexp_seg and lse_scan_total (the SIMD tables; kernels.h: the chunks' own states
 * T_h, carried as axial_lse_acc states R_0 = empty, R_{h+1} = R_h (+) T_h;
 * pass 1 scans the groups whose carry is known as above).
 * The axis splits need the split kernels (kernels/kernels.h); where the
 * active table has none (the scalar table, the integer dtypes), the lines
 * split above is the only one.  Without an executor the plain call runs the
 * whole-shape kernel: no allocation, no thread.
 */
#include <stdlib.h>

#include "internal.h"

#define AXIAL_CUMSUM_FLAGS (AXIAL_CUMSUM_EXCLUSIVE | AXIAL_CUMSUM_REVERSE)

/* Which scan: CumSum or LogCumSumExp. */
typedef struct {
    const char *fn, *op; /* "axial_cumsum", "cumsum" (for AXIAL_VERBOSE) */
    bool lse;
    size_t threshold; /* bytes of input from which it splits */
} axial_scan_op;

typedef struct {
    const struct axial_kernels *kt;
    axial_cumsum_fn scan; /* the table's cumsum or logcumsumexp entry */
    axial_dtype dtype;
    const char *x;
    char *y;
    size_t esize, outer, n, inner, line_bytes, ntasks;
    size_t align; /* lines per task boundary: axial__unit_align */
    unsigned flags;
    /* blocked scan: `nchunks` chunks per line in `ngroups` groups of `group`
     * chunks; carry[o * nchunks + h]: S_h after pass 1, R_h for pass 2
     * (LogCumSumExp: lcarry, the states T_h and R_h) */
    size_t nchunks, group, ngroups;
    double *carry;
    axial_lse_acc *lcarry;
    /* per group k (as the tasks): the carry after it (LogCumSumExp: glcarry)
     * and whether pass 1 scanned it (then pass 2 skips it) */
    double *gcarry;
    axial_lse_acc *glcarry;
    atomic_uchar *state;
    bool lse;
    /* column tiles: `ntiles` per line over the `rowlines` 64-byte lines of a
     * row, each scanned by `cols` (the table's cumsum_cols or logcumsumexp_cols) */
    size_t rowlines, ntiles;
    axial_cumsum_cols_fn cols;
} axial_cumsum_plan;

static void axial_cumsum_task(void *arg, size_t k) {
    const axial_cumsum_plan *p = arg;
    size_t b, e;
    axial__task_range_aligned(p->outer, p->ntasks, p->align, k, &b, &e);
    p->scan(p->x + b * p->line_bytes, p->y + b * p->line_bytes, e - b, p->n,
                            p->inner, p->flags);
}

/* ---- blocked scan along the innermost axis -------------------------------- */

/* Chunks [h0, h1) of a line, in scan order: their first element's offset
 * (the lowest address; with REVERSE chunk h covers [n - (h + 1)Q, n - hQ),
 * clamped at 0) and their length. */
static size_t axial_chunks_at(const axial_cumsum_plan *p, size_t h0, size_t h1, size_t *len) {
    const size_t lo = h0 * AXIAL_SCAN_CHUNK;
    const size_t hi = h1 * AXIAL_SCAN_CHUNK < p->n ? h1 * AXIAL_SCAN_CHUNK : p->n;
    *len = hi - lo;
    return p->flags & AXIAL_CUMSUM_REVERSE ? p->n - hi : lo;
}

/* Pass 1, task k = (line o, group g).  Where the group's carry is known
 * already -- it starts its line, or the group before it has been scanned
 * (its state AXIAL_GROUP_SCANNED, read with acquire) -- the task scans the
 * group from that carry with cumsum_seg, keeps the carry after it for the
 * next group and marks the group scanned (release): the very bits pass 2
 * would write, as the carries are the same additions in the same order.
 * Otherwise it computes S_h of the group's chunks, all but the line's last
 * chunk (whose total no carry needs), for the serial step and pass 2.  So a
 * run in index order (one thread, or the first thread's run of groups)
 * scans in one pass, while the other threads total the groups further on.
 * LogCumSumExp alike, with its states (logcumsumexp_seg returns the carry
 * after its segment too). */
static void axial_scan_total_task(void *arg, size_t k) {
    const axial_cumsum_plan *p = arg;
    const size_t o = k / p->ngroups, g = k % p->ngroups, h0 = g * p->group;
    const char *line = p->x + o * p->line_bytes;
    if (g == 0 || atomic_load_explicit(&p->state[k - 1], memory_order_acquire) != 0) {
        const size_t h1 = h0 + p->group < p->nchunks ? h0 + p->group : p->nchunks;
        size_t len;
        const size_t at = axial_chunks_at(p, h0, h1, &len) * p->esize + o * p->line_bytes;
        if (p->lse)
            p->glcarry[k] = p->kt->logcumsumexp_seg[p->dtype](
                p->x + at, p->y + at, len, p->flags, g == 0 ? AXIAL_LSE_EMPTY : p->glcarry[k - 1]);
        else
            p->gcarry[k] = p->kt->cumsum_seg[p->dtype](
                p->x + at, p->y + at, len, p->flags | (g > 0 ? AXIAL_SCAN_CONTINUE : 0u),
                g == 0 ? -0.0 : p->gcarry[k - 1]);
        atomic_store_explicit(&p->state[k], 1, memory_order_release);
        return;
    }
    const size_t h1 = h0 + p->group < p->nchunks - 1 ? h0 + p->group : p->nchunks - 1;
    for (size_t h = h0; h < h1; h++) {
        size_t len;
        const size_t at = axial_chunks_at(p, h, h + 1, &len);
        if (p->lse)
            p->lcarry[o * p->nchunks + h] =
                p->kt->lse_scan_total[p->dtype](line + at * p->esize, len, p->flags);
        else
            p->carry[o * p->nchunks + h] =
                p->kt->scan_total[p->dtype](line + at * p->esize, len, p->flags);
    }
}

/* Pass 2, task k = (line o, group g): the group's chunks from R at its first
 * (nothing where pass 1 scanned the group). */
static void axial_cumsum_seg_task(void *arg, size_t k) {
    const axial_cumsum_plan *p = arg;
    if (atomic_load_explicit(&p->state[k], memory_order_relaxed) != 0)
        return;
    const size_t o = k / p->ngroups, g = k % p->ngroups, h0 = g * p->group;
    const size_t h1 = h0 + p->group < p->nchunks ? h0 + p->group : p->nchunks;
    size_t len;
    const size_t at = axial_chunks_at(p, h0, h1, &len) * p->esize + o * p->line_bytes;
    if (p->lse)
        (void)p->kt->logcumsumexp_seg[p->dtype](p->x + at, p->y + at, len, p->flags,
                                                p->lcarry[o * p->nchunks + h0]);
    else
        (void)p->kt->cumsum_seg[p->dtype](p->x + at, p->y + at, len,
                                          p->flags | (g > 0 ? AXIAL_SCAN_CONTINUE : 0u),
                                          p->carry[o * p->nchunks + h0]);
}

static axial_status axial_cumsum_blocked(axial_cumsum_plan *p, const axial_executor *exec,
                                         size_t rank, const int64_t *shape, int64_t axis) {
    const size_t count = p->outer * p->nchunks;
    /* the chunk carries, then per group its carry out and its state */
    const size_t bytes = (count + p->ntasks) * (p->lse ? sizeof *p->lcarry : sizeof *p->carry) +
                         p->ntasks * sizeof *p->state;
    void *mem = malloc(bytes);
    if (mem == NULL)
        return axial__fail(AXIAL_E_NOMEM, "%s: cannot allocate %zu bytes of chunk carries",
                           p->lse ? "axial_logcumsumexp" : "axial_cumsum", bytes);
    if (p->lse) {
        p->lcarry = mem;
        p->glcarry = p->lcarry + count;
        p->state = (atomic_uchar *)(void *)(p->glcarry + p->ntasks);
    } else {
        p->carry = mem;
        p->gcarry = p->carry + count;
        p->state = (atomic_uchar *)(void *)(p->gcarry + p->ntasks);
    }
    for (size_t k = 0; k < p->ntasks; k++)
        atomic_init(&p->state[k], 0);
    if (axial__verbose_on()) {
        char note[32];
        axial__verbose_cumsum(p->lse ? "logcumsumexp" : "cumsum", p->kt,
                              (p->lse ? AXIAL_ENTRY_LSE_SCAN_TOTAL : AXIAL_ENTRY_SCAN_TOTAL) + p->dtype,
                              (p->lse ? AXIAL_ENTRY_LOGCUMSUMEXP_SEG : AXIAL_ENTRY_CUMSUM_SEG) + p->dtype,
                              p->dtype, rank, shape, axis, p->flags & AXIAL_CUMSUM_FLAGS,
                              "%zu*%s(n=%zu)+%zu*%s(n<=%zu)%s", p->outer * (p->nchunks - 1),
                              p->lse ? "lse_scan_total" : "scan_total", AXIAL_SCAN_CHUNK, p->ntasks,
                              p->lse ? "logcumsumexp_seg" : "cumsum_seg",
                              p->group * AXIAL_SCAN_CHUNK, axial__tasks_note(note, p->ntasks));
    }
    axial__run(exec, p->ntasks, axial_scan_total_task, p);
    size_t pending = 0;
    for (size_t o = 0; o < p->outer; o++) { /* the carries, in chunk order */
        /* CumSum in double; LogCumSumExp R_0 empty, R_{h+1} = R_h (+) T_h, as
         * the whole-line kernels; a group scanned in pass 1 hands on its carry */
        double *c = p->lse ? NULL : p->carry + o * p->nchunks, R = -0.0;
        axial_lse_acc *lc = p->lse ? p->lcarry + o * p->nchunks : NULL, LR = AXIAL_LSE_EMPTY;
        for (size_t g = 0; g < p->ngroups; g++) {
            const size_t k = o * p->ngroups + g, h0 = g * p->group;
            if (atomic_load_explicit(&p->state[k], memory_order_acquire) != 0) {
                if (p->lse)
                    LR = p->glcarry[k];
                else
                    R = p->gcarry[k];
                continue;
            }
            pending++;
            const size_t h1 = h0 + p->group < p->nchunks ? h0 + p->group : p->nchunks;
            for (size_t h = h0; h < h1; h++) {
                if (p->lse) {
                    const axial_lse_acc T = lc[h];
                    lc[h] = LR;
                    if (h + 1 < p->nchunks)
                        axial_lse_add(&LR, T.m, T.s);
                } else {
                    const double S = c[h];
                    c[h] = R;
                    if (h + 1 < p->nchunks)
                        R += S;
                }
            }
        }
    }
    if (pending > 0)
        axial__run(exec, p->ntasks, axial_cumsum_seg_task, p);
    free(mem);
    return AXIAL_OK;
}

/* ---- column tiles along an outer axis --------------------------------------- */

static void axial_cumsum_cols_task(void *arg, size_t k) {
    const axial_cumsum_plan *p = arg;
    size_t c0, c1;
    const size_t o = axial__tile_cols(p->rowlines, p->ntiles, k, p->esize, p->inner, &c0, &c1);
    const size_t at = o * p->line_bytes + c0 * p->esize;
    p->cols(p->x + at, p->y + at, p->n, c1 - c0, p->inner, p->flags);
}

static axial_status axial_scan_ex(const axial_scan_op *op, axial_dtype dtype, const void *x,
                                  void *y, size_t rank, const int64_t *shape, int64_t axis,
                                  unsigned flags, const axial_executor *exec) {
    const char *fn = op->fn;
    size_t esize, count, ax;
    axial_status st;
    if ((st = axial__check_exec(fn, exec)) != AXIAL_OK ||
        (st = op->lse ? axial__check_float_dtype(fn, dtype, &esize)
                      : axial__check_dtype(fn, dtype, false, &esize)) != AXIAL_OK ||
        (st = axial__check_rank(fn, rank, shape, 1)) != AXIAL_OK ||
        (st = axial__check_shape(fn, rank, shape, esize, &count)) != AXIAL_OK ||
        (st = axial__norm_axis(fn, axis, rank, &ax)) != AXIAL_OK)
        return st;
    if (flags & ~AXIAL_CUMSUM_FLAGS)
        return axial__fail(AXIAL_E_ARGS, "%s: flags 0x%x have unknown bits 0x%x", fn, flags,
                           flags & ~AXIAL_CUMSUM_FLAGS);
    if ((st = axial__check_buffers(fn, x, count * esize, y, count * esize, true)) != AXIAL_OK)
        return st;
    if (count == 0) {
        if (axial__verbose_on())
            axial__verbose_cumsum(op->op, NULL, AXIAL_ENTRY_NONE, AXIAL_ENTRY_NONE, dtype, rank, shape,
                                  axis, flags, "empty");
        return AXIAL_OK;
    }
    const struct axial_kernels *kt = axial__kernels();
    axial_cumsum_plan p = {kt,    op->lse ? kt->logcumsumexp[dtype] : kt->cumsum[dtype],
                           dtype, (const char *)x, (char *)y, esize, 1, (size_t)shape[ax],
                           1, 0, 1, 1, flags, 0, 1, 1, NULL, NULL, NULL, NULL, NULL, op->lse,
                           0, 1, NULL};
    p.outer = axial__product(shape, 0, ax);
    p.inner = axial__product(shape, ax + 1, rank);
    if (!op->lse) /* (the log-space scans never stream) */
        p.flags |= axial__stream_flag(count * esize);
    p.line_bytes = p.n * p.inner * esize;
    p.ntasks = axial__ntasks(p.outer, p.line_bytes, op->threshold);
    if (p.flags & AXIAL_KERNEL_STREAM)
        p.ntasks = axial__stream_tasks(p.ntasks, count * esize);
    /* Few lines: split each line (only with an executor; the plain call stays
     * one kernel call per line, with the same bits). */
    p.cols = op->lse ? kt->logcumsumexp_cols[dtype] : kt->cumsum_cols[dtype];
    if (exec != NULL && p.outer < AXIAL_SPLIT_FEW_LINES && count * esize >= op->threshold) {
        if (p.inner == 1 && (op->lse ? kt->logcumsumexp_seg[dtype] && kt->lse_scan_total[dtype]
                                     : AXIAL_SPLIT_SCAN_BLOCKS && kt->cumsum_seg[dtype] &&
                                           kt->scan_total[dtype])) {
            const size_t chunk_bytes = AXIAL_SCAN_CHUNK * esize;
            /* a streaming output's tasks write AXIAL_STREAM_TASK bytes (one
             * fence each, as axial__stream_tasks) */
            const size_t grain = p.flags & AXIAL_KERNEL_STREAM ? AXIAL_STREAM_TASK : AXIAL_GRAIN;
            p.group = chunk_bytes >= grain ? 1 : grain / chunk_bytes;
            p.nchunks = (p.n - 1) / AXIAL_SCAN_CHUNK + 1;
            p.ngroups = (p.nchunks - 1) / p.group + 1;
            if (p.ngroups >= 2) {
                p.ntasks = p.outer * p.ngroups;
                return axial_cumsum_blocked(&p, exec, rank, shape, axis);
            }
        } else if (AXIAL_SPLIT_COLUMN_TILES && p.inner > 1 && p.cols != NULL) {
            p.ntiles = axial__tiles(count * esize, p.outer, p.inner * esize,
                                    op->lse ? AXIAL_LSE_TILE_LINES : AXIAL_TILE_LINES,
                                    AXIAL_SCAN_TILE_MIN, &p.rowlines);
            if (p.ntiles >= 2) {
                p.ntasks = p.outer * p.ntiles;
                if (axial__verbose_on()) {
                    char note[32];
                    axial__verbose_cumsum(op->op, kt,
                                          (op->lse ? AXIAL_ENTRY_LOGCUMSUMEXP_COLS
                                                   : AXIAL_ENTRY_CUMSUM_COLS) + dtype,
                                          AXIAL_ENTRY_NONE, dtype, rank, shape, axis, flags,
                                          "%zu*%s(n=%zu,ncols<=%zu,stride=%zu)%s", p.ntasks,
                                          op->lse ? "logcumsumexp_cols" : "cumsum_cols", p.n,
                                          axial__tile_max_cols(p.rowlines, p.ntiles, esize, p.inner), p.inner,
                                          axial__tasks_note(note, p.ntasks));
                }
                axial__run(exec, p.ntasks, axial_cumsum_cols_task, &p);
                return AXIAL_OK;
            }
        }
    }
    if (exec == NULL) /* groups of whole lines change no bit: the plain call is one call */
        p.ntasks = 1;
    p.align = axial__unit_align(p.outer, p.ntasks, p.line_bytes, p.line_bytes);
    if (axial__verbose_on()) {
        char note[32];
        axial__verbose_cumsum(op->op, kt,
                              (op->lse ? AXIAL_ENTRY_LOGCUMSUMEXP : AXIAL_ENTRY_CUMSUM) + dtype,
                              AXIAL_ENTRY_NONE, dtype, rank, shape, axis, flags, "scan(outer=%zu,n=%zu,inner=%zu)%s", p.outer,
                              p.n, p.inner, axial__tasks_note(note, p.ntasks));
    }
    axial__run(exec, p.ntasks, axial_cumsum_task, &p);
    return AXIAL_OK;
}

static const axial_scan_op axial_op_cumsum = {"axial_cumsum", "cumsum", false,
                                              AXIAL_CUMSUM_THRESHOLD};
static const axial_scan_op axial_op_logcumsumexp = {"axial_logcumsumexp", "logcumsumexp", true,
                                                    AXIAL_LSE_THRESHOLD};

axial_status axial_cumsum_ex(axial_dtype dtype, const void *x, void *y, size_t rank,
                             const int64_t *shape, int64_t axis, unsigned flags,
                             const axial_executor *exec) {
    return axial_scan_ex(&axial_op_cumsum, dtype, x, y, rank, shape, axis, flags, exec);
}

axial_status axial_cumsum(axial_dtype dtype, const void *x, void *y, size_t rank,
                          const int64_t *shape, int64_t axis, unsigned flags) {
    return axial_scan_ex(&axial_op_cumsum, dtype, x, y, rank, shape, axis, flags, NULL);
}

axial_status axial_logcumsumexp_ex(axial_dtype dtype, const void *x, void *y, size_t rank,
                                   const int64_t *shape, int64_t axis, unsigned flags,
                                   const axial_executor *exec) {
    return axial_scan_ex(&axial_op_logcumsumexp, dtype, x, y, rank, shape, axis, flags, exec);
}

axial_status axial_logcumsumexp(axial_dtype dtype, const void *x, void *y, size_t rank,
                                const int64_t *shape, int64_t axis, unsigned flags) {
    return axial_scan_ex(&axial_op_logcumsumexp, dtype, x, y, rank, shape, axis, flags, NULL);
}
