/* SPDX-License-Identifier: MIT */
/*
 * cumsum.c: axial_cumsum and axial_cumsum_ex: checks, then kernel calls on
 * (outer, n, inner): the dimensions before the axis merge into `outer`,
 * those after into `inner`.  A call is planned (axial_scan_plan: which of
 * the ways below, on what pieces), described once (AXIAL_VERBOSE), then run
 * (axial_scan_run), which alone allocates and calls kernels.
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
 *     AXIAL_STREAM_TASK where the output streams).  Pass 1 scans the groups
 *     whose carry is known and totals others: with several lines, a task
 *     whose group starts its line, or follows a group already scanned (an
 *     atomic state per group, release/acquire), scans it with cumsum_seg
 *     from that carry, any other computes its chunks' totals S_h with
 *     scan_total (every chunk but a line's last); along one line, the first
 *     task to run is the front, scanning from the line's start, while the
 *     others total downwards from a point set by the executor's concurrency
 *     and the op's speed of totals against scans, until they meet the front
 *     (axial_scan_line_task).  Then, serially in double, the chunk carries
 *     R_0 = -0.0, R_{h+1} = R_h + S_h (a scanned group's carry out is that
 *     same sum: the kernel adds the same S_h in the same order); pass 2: the
 *     groups not yet scanned, each from R at its first chunk
 *     (AXIAL_SCAN_CONTINUE unless it starts its line), a line's untaken tail
 *     as one task from the carry after each group.  The whole-line kernel
 *     computes the very same R_h and S_h in one pass (the order's
 *     definition), so the bits are those of the plain call whichever task
 *     did what.  On one thread (or in index order) the front scans the whole
 *     line and pass 2 is not called: one pass over memory, as the plain call.
 *     Pass 1 only reads the groups it does not scan, and each task writes
 *     only its own groups, so in place (y == x) works.  The carries take 8
 *     bytes per chunk and 25 per group of heap (AXIAL_E_NOMEM when that
 *     fails, nothing written).
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
    /* how many times as fast as its scan kernel its total kernel runs, two
     * threads at once (the blocked scan along one line shares out its work by
     * it: axial_scan_line_task) */
    double total_speed;
} axial_scan_op;

/* How a call runs (axial_scan_plan): */
typedef enum {
    AXIAL_SCAN_EMPTY,   /* no element: nothing to do */
    AXIAL_SCAN_LINES,   /* groups of whole lines, one scan kernel call each */
    AXIAL_SCAN_BLOCKED, /* few long lines along the innermost axis: the blocked scan */
    AXIAL_SCAN_TILES,   /* few lines along an outer axis: column tiles */
} axial_scan_kind;

/* A call's plan: axial_scan_plan fills it from the op, dtype, shape, axis,
 * flags, kernel table and whether an executor runs it, axial_scan_describe
 * prints it (AXIAL_VERBOSE) and axial_scan_run runs it.  The fields after
 * `workspace` are the runner's. */
typedef struct {
    axial_scan_kind kind;
    const axial_scan_op *op;
    const struct axial_kernels *kt;
    axial_dtype dtype;
    /* the call, as given (for AXIAL_VERBOSE) */
    size_t rank;
    const int64_t *shape;
    int64_t axis;
    const char *x;
    char *y;
    size_t esize, outer, n, inner, line_bytes, ntasks;
    size_t align; /* lines per task boundary: axial__unit_align */
    unsigned flags; /* the kernels' flags: the call's, and AXIAL_KERNEL_STREAM */
    axial_cumsum_kernel *scan; /* lines: the table's cumsum or logcumsumexp entry */
    /* blocked scan: `nchunks` chunks per line in `ngroups` groups of `group` chunks */
    size_t nchunks, group, ngroups;
    /* column tiles: `ntiles` per line over the `rowlines` 64-byte lines of a
     * row, each scanned by `cols` (the table's cumsum_cols or logcumsumexp_cols) */
    size_t rowlines, ntiles;
    axial_cumsum_cols_kernel *cols;

    /* workspace of the blocked scan (axial_scan_blocked_workspace), on the
     * heap: carry[o * nchunks + h]: S_h after pass 1, R_h for pass 2
     * (LogCumSumExp: lcarry, the states T_h and R_h); per group k (as the
     * tasks) the carry after it (gcarry, glcarry) and whether pass 1
     * scanned it (then pass 2 skips it) */
    void *workspace;
    double *carry, *gcarry;
    axial_lse_acc *lcarry, *glcarry;
    atomic_uchar *state;
    /* one line (axial_scan_line_task): the front's flag, the flag set where
     * the totals met the front, the totals' cursor (from back0 down); pass 2:
     * task j scans the groups [run[2j], run[2j + 1]) */
    atomic_uchar *front, *met;
    atomic_size_t *back;
    size_t back0, *run;
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

/* The states of a group (p->state): nobody has taken it yet; taken (pass 1,
 * work under way); scanned in pass 1 (its carry out in gcarry / glcarry);
 * totalled in pass 1 (its chunks' totals in carry / lcarry).  After the
 * serial step a group left untaken whose carry is not known (it follows
 * other untaken groups of its line) is AXIAL_GROUP_CHAINED: pass 2 scans it
 * from the carry out of the group before it, in the same run. */
enum { AXIAL_GROUP_FREE, AXIAL_GROUP_TAKEN, AXIAL_GROUP_SCANNED, AXIAL_GROUP_TOTALLED,
       AXIAL_GROUP_CHAINED };

/* Scans group k (line o, group g) from the carry *d (CumSum) or *l
 * (LogCumSumExp) -- ignored where the group starts its line -- and keeps the
 * carry after it in gcarry[k] / glcarry[k] and in *d / *l. */
static void axial_group_scan(const axial_cumsum_plan *p, size_t k, double *d, axial_lse_acc *l) {
    const size_t o = k / p->ngroups, g = k % p->ngroups, h0 = g * p->group;
    const size_t h1 = h0 + p->group < p->nchunks ? h0 + p->group : p->nchunks;
    size_t len;
    const size_t at = axial_chunks_at(p, h0, h1, &len) * p->esize + o * p->line_bytes;
    if (p->op->lse)
        *l = p->glcarry[k] = p->kt->logcumsumexp_seg[p->dtype](
            p->x + at, p->y + at, len, p->flags | (g > 0 ? AXIAL_SCAN_CONTINUE : 0u),
            g == 0 ? AXIAL_LSE_EMPTY : *l);
    else
        *d = p->gcarry[k] = p->kt->cumsum_seg[p->dtype](
            p->x + at, p->y + at, len, p->flags | (g > 0 ? AXIAL_SCAN_CONTINUE : 0u),
            g == 0 ? -0.0 : *d);
}

/* Group k's chunk totals S_h (LogCumSumExp: T_h), all but the line's last
 * chunk (whose total no carry needs), for the serial step. */
static void axial_group_total(const axial_cumsum_plan *p, size_t k) {
    const size_t o = k / p->ngroups, h0 = (k % p->ngroups) * p->group;
    const size_t h1 = h0 + p->group < p->nchunks - 1 ? h0 + p->group : p->nchunks - 1;
    const char *line = p->x + o * p->line_bytes;
    for (size_t h = h0; h < h1; h++) {
        size_t len;
        const size_t at = axial_chunks_at(p, h, h + 1, &len) * p->esize;
        if (p->op->lse)
            p->lcarry[o * p->nchunks + h] = p->kt->lse_scan_total[p->dtype](
                line + at, len, p->flags | (h > 0 ? AXIAL_SCAN_CONTINUE : 0u));
        else
            p->carry[o * p->nchunks + h] = p->kt->scan_total[p->dtype](line + at, len, p->flags);
    }
}

/* Pass 1 along several lines, task k = (line o, group g).  Where the group's
 * carry is known already -- it starts its line, or the group before it has
 * been scanned (AXIAL_GROUP_SCANNED, read with acquire) -- the task scans the
 * group from that carry with cumsum_seg, keeping the carry after it for the
 * next group: the very bits pass 2 would write, as the carries are the same
 * additions in the same order.  Otherwise it totals the group.  So each
 * thread's run of tasks (pthreadpool hands each a contiguous range) scans
 * from every line start it holds, and totals the rest.  LogCumSumExp alike,
 * with its states (logcumsumexp_seg returns the carry after its segment too). */
static void axial_scan_total_task(void *arg, size_t k) {
    const axial_cumsum_plan *p = arg;
    const size_t g = k % p->ngroups;
    if (g == 0 ||
        atomic_load_explicit(&p->state[k - 1], memory_order_acquire) == AXIAL_GROUP_SCANNED) {
        double d = -0.0;
        axial_lse_acc l = AXIAL_LSE_EMPTY;
        if (g > 0 && p->op->lse)
            l = p->glcarry[k - 1];
        else if (g > 0)
            d = p->gcarry[k - 1];
        axial_group_scan(p, k, &d, &l);
        atomic_store_explicit(&p->state[k], AXIAL_GROUP_SCANNED, memory_order_release);
        return;
    }
    axial_group_total(p, k);
    atomic_store_explicit(&p->state[k], AXIAL_GROUP_TOTALLED, memory_order_release);
}

/* Pass 1 along one line (outer == 1): the task that runs first is the front:
 * it scans the groups from the line's start, each from the carry after the
 * one before, until it reaches a group another task has taken.  Every other
 * task totals groups downwards from group p->back0 - 1 until it reaches one
 * the front has taken.  Each group is taken once (compare-and-swap on its
 * state), so [0, back0) ends up scanned by the front or totalled, with no
 * gap, and [back0, ngroups) untaken, unless the front got there first (on one
 * thread it scans the whole line in one pass).  back0 is where the work
 * balances: with T = concurrency tasks and totals r times as fast as scans
 * (the op's total_speed), the front scans a fraction f of the line while
 * T - 1 tasks total from m = back0 / ngroups down to it,
 * f = m / (1 + r (T - 1)); what is left -- the totalled groups and the
 * untaken tail -- is T equal shares for pass 2, the tail (one task) one of
 * them, 1 - m = (1 - f) / T: so m = (T - 1) q / (T q - 1), q = 1 + r (T - 1)
 * (3/5 of the line for r = 2, T = 2).  The totals go down from m so that
 * they meet the front wherever it has got to.  Which task does what
 * changes the work, never a bit: every carry is the same additions in the
 * same order. */
static void axial_scan_line_task(void *arg, size_t k) {
    const axial_cumsum_plan *p = arg;
    (void)k;
    if (!atomic_exchange_explicit(p->front, 1, memory_order_relaxed)) {
        double d = -0.0;
        axial_lse_acc l = AXIAL_LSE_EMPTY;
        for (size_t g = 0; g < p->ngroups; g++) {
            unsigned char free = AXIAL_GROUP_FREE;
            if (!atomic_compare_exchange_strong_explicit(&p->state[g], &free, AXIAL_GROUP_TAKEN,
                                                         memory_order_relaxed,
                                                         memory_order_relaxed))
                return;
            axial_group_scan(p, g, &d, &l);
            atomic_store_explicit(&p->state[g], AXIAL_GROUP_SCANNED, memory_order_release);
        }
        return;
    }
    while (!atomic_load_explicit(p->met, memory_order_relaxed)) {
        /* a fetched index is always tried, so the taken groups leave no gap */
        const size_t b = atomic_fetch_sub_explicit(p->back, 1, memory_order_relaxed);
        if (b <= 1 || b > p->back0) /* (group 0 is the front's; past 0 it wraps) */
            return;
        unsigned char free = AXIAL_GROUP_FREE;
        if (!atomic_compare_exchange_strong_explicit(&p->state[b - 1], &free, AXIAL_GROUP_TAKEN,
                                                     memory_order_relaxed, memory_order_relaxed)) {
            atomic_store_explicit(p->met, 1, memory_order_relaxed);
            return;
        }
        axial_group_total(p, b - 1);
        atomic_store_explicit(&p->state[b - 1], AXIAL_GROUP_TOTALLED, memory_order_release);
    }
}

/* Pass 2, task j: the groups [run[2j], run[2j + 1]) that pass 1 left, in
 * order, the first from R at its first chunk (or its line's start), each next
 * one from the carry after the group before it, as the whole-line kernel
 * would: one group, or the untaken tail of a line (task 0, see
 * axial_cumsum_runs). */
static void axial_cumsum_run_task(void *arg, size_t j) {
    const axial_cumsum_plan *p = arg;
    double d = -0.0;
    axial_lse_acc l = AXIAL_LSE_EMPTY;
    for (size_t k = p->run[2 * j]; k < p->run[2 * j + 1]; k++) {
        if (k == p->run[2 * j] && k % p->ngroups != 0) { /* its carry R */
            const size_t h = (k / p->ngroups) * p->nchunks + (k % p->ngroups) * p->group;
            if (p->op->lse)
                l = p->lcarry[h];
            else
                d = p->carry[h];
        }
        axial_group_scan(p, k, &d, &l);
    }
}

/* The serial step, line by line in chunk order: CumSum's R_0 = -0.0,
 * R_{h+1} = R_h + S_h in double (LogCumSumExp: R_0 empty,
 * R_{h+1} = R_h (+) T_h), as the whole-line kernels; a scanned group hands on
 * its carry as it came (the same additions).  The first untaken group of a
 * line gets its R too; the untaken ones after it are AXIAL_GROUP_CHAINED.
 * Then the tasks of pass 2 into run[]: first each untaken tail (one task,
 * as its carries come only from scanning it: pthreadpool's first thread
 * starts it while the others share out the rest), then every totalled group
 * alone (any thread may take any of them).  Returns the number of tasks. */
static size_t axial_cumsum_runs(axial_cumsum_plan *p) {
    for (size_t o = 0; o < p->outer; o++) {
        double *c = p->op->lse ? NULL : p->carry + o * p->nchunks, R = -0.0;
        axial_lse_acc *lc = p->op->lse ? p->lcarry + o * p->nchunks : NULL, LR = AXIAL_LSE_EMPTY;
        bool known = true;
        for (size_t g = 0; g < p->ngroups; g++) {
            const size_t k = o * p->ngroups + g, h0 = g * p->group;
            const int s = atomic_load_explicit(&p->state[k], memory_order_acquire);
            if (s == AXIAL_GROUP_SCANNED) {
                if (p->op->lse)
                    LR = p->glcarry[k];
                else
                    R = p->gcarry[k];
                known = true;
                continue;
            }
            if (s != AXIAL_GROUP_TOTALLED) { /* untaken: R at its start only */
                if (!known)
                    atomic_store_explicit(&p->state[k], AXIAL_GROUP_CHAINED, memory_order_relaxed);
                else if (p->op->lse)
                    lc[h0] = LR;
                else
                    c[h0] = R;
                known = false;
                continue;
            }
            const size_t h1 = h0 + p->group < p->nchunks ? h0 + p->group : p->nchunks;
            for (size_t h = h0; h < h1; h++) {
                if (p->op->lse) {
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
    const size_t count = p->outer * p->ngroups;
    size_t tasks = 0;
    for (int pass = 0; pass < 2; pass++) /* the tails, then the single groups */
        for (size_t k = 0; k < count; k++) {
            const int s = atomic_load_explicit(&p->state[k], memory_order_relaxed);
            if (s == AXIAL_GROUP_SCANNED || s == AXIAL_GROUP_CHAINED)
                continue;
            size_t e = k + 1;
            while (e < count &&
                   atomic_load_explicit(&p->state[e], memory_order_relaxed) == AXIAL_GROUP_CHAINED)
                e++;
            if ((pass == 0) == (e > k + 1)) {
                p->run[2 * tasks] = k;
                p->run[2 * tasks++ + 1] = e;
            }
        }
    return tasks;
}

/* The blocked scan's workspace, on the heap: the chunk carries and per group
 * its carry out, the runs of pass 2, the totals' cursor, per group its state,
 * the front's and the meeting flags; and where the totals start along one
 * line (axial_scan_line_task: T only shares out the work, never a bit). */
static axial_status axial_scan_blocked_workspace(axial_cumsum_plan *p, size_t concurrency) {
    const size_t count = p->outer * p->nchunks;
    const size_t csize = p->op->lse ? sizeof *p->lcarry : sizeof *p->carry;
    const size_t bytes = (count + p->ntasks) * csize + 2 * p->ntasks * sizeof *p->run +
                         sizeof *p->back + p->ntasks + 2;
    char *mem = p->workspace = malloc(bytes);
    if (mem == NULL)
        return axial__fail(AXIAL_E_NOMEM, "%s: cannot allocate %zu bytes of chunk carries",
                           p->op->fn, bytes);
    if (p->op->lse) {
        p->lcarry = (axial_lse_acc *)(void *)mem;
        p->glcarry = p->lcarry + count;
    } else {
        p->carry = (double *)(void *)mem;
        p->gcarry = p->carry + count;
    }
    p->run = (size_t *)(void *)(mem + (count + p->ntasks) * csize);
    p->back = (atomic_size_t *)(void *)(p->run + 2 * p->ntasks);
    p->state = (atomic_uchar *)(void *)(p->back + 1);
    p->front = p->state + p->ntasks;
    p->met = p->front + 1;
    for (size_t k = 0; k < p->ntasks + 2; k++)
        atomic_init(&p->state[k], 0);
    const double T = (double)concurrency, q = 1.0 + p->op->total_speed * (T - 1.0);
    p->back0 = p->outer == 1 && concurrency > 1
                   ? (size_t)((double)p->ngroups * (T - 1.0) * q / (T * q - 1.0))
                   : 0;
    atomic_init(p->back, p->back0);
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

/* ---- plan, describe, run ---------------------------------------------------- */

/* Checks the call and fills *p: which of the ways above it runs (see the top
 * of the file), with what kernels on what pieces.  `split`: an executor runs
 * it (the axis splits are only taken then; groups of lines change no bit). */
static axial_status axial_scan_plan(const axial_scan_op *op, axial_dtype dtype, const void *x,
                                    void *y, size_t rank, const int64_t *shape, int64_t axis,
                                    unsigned flags, bool split, axial_cumsum_plan *p) {
    const char *fn = op->fn;
    size_t esize, count, ax;
    axial_status st;
    if ((st = op->lse ? axial__check_float_dtype(fn, dtype, &esize)
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
    *p = (axial_cumsum_plan){.kind = AXIAL_SCAN_EMPTY, .op = op, .dtype = dtype, .rank = rank,
                             .shape = shape, .axis = axis, .x = x, .y = y, .esize = esize,
                             .flags = flags};
    if (count == 0)
        return AXIAL_OK;
    const struct axial_kernels *kt = p->kt = axial__kernels();
    p->outer = axial__product(shape, 0, ax);
    p->n = (size_t)shape[ax];
    p->inner = axial__product(shape, ax + 1, rank);
    p->line_bytes = p->n * p->inner * esize;
    if (!op->lse) /* (the log-space scans never stream) */
        p->flags |= axial__stream_flag(count * esize);
    p->ntasks = axial__ntasks(p->outer, p->line_bytes, op->threshold);
    if (p->flags & AXIAL_KERNEL_STREAM)
        p->ntasks = axial__stream_tasks(p->ntasks, count * esize);
    /* Few lines: split each line (only with an executor; the plain call stays
     * one kernel call per line, with the same bits). */
    p->cols = op->lse ? kt->logcumsumexp_cols[dtype] : kt->cumsum_cols[dtype];
    if (split && p->outer < AXIAL_SPLIT_FEW_LINES && count * esize >= op->threshold) {
        if (p->inner == 1 && (op->lse ? kt->logcumsumexp_seg[dtype] && kt->lse_scan_total[dtype]
                                      : AXIAL_SPLIT_SCAN_BLOCKS && kt->cumsum_seg[dtype] &&
                                            kt->scan_total[dtype])) {
            const size_t chunk_bytes = AXIAL_SCAN_CHUNK * esize;
            /* a streaming output's tasks write AXIAL_STREAM_TASK bytes (one
             * fence each, as axial__stream_tasks) */
            const size_t grain = p->flags & AXIAL_KERNEL_STREAM ? AXIAL_STREAM_TASK : AXIAL_GRAIN;
            p->group = chunk_bytes >= grain ? 1 : grain / chunk_bytes;
            p->nchunks = (p->n - 1) / AXIAL_SCAN_CHUNK + 1;
            p->ngroups = (p->nchunks - 1) / p->group + 1;
            if (p->ngroups >= 2) {
                p->kind = AXIAL_SCAN_BLOCKED;
                p->ntasks = p->outer * p->ngroups;
                return AXIAL_OK;
            }
        } else if (AXIAL_SPLIT_COLUMN_TILES && p->inner > 1 && p->cols != NULL) {
            p->ntiles = axial__tiles(count * esize, p->outer, p->inner * esize,
                                     op->lse ? AXIAL_LSE_TILE_LINES : AXIAL_TILE_LINES,
                                     AXIAL_SCAN_TILE_MIN, &p->rowlines);
            if (p->ntiles >= 2) {
                p->kind = AXIAL_SCAN_TILES;
                p->ntasks = p->outer * p->ntiles;
                return AXIAL_OK;
            }
        }
    }
    p->kind = AXIAL_SCAN_LINES;
    p->scan = op->lse ? kt->logcumsumexp[dtype] : kt->cumsum[dtype];
    if (!split) /* groups of whole lines change no bit: the plain call is one call */
        p->ntasks = 1;
    p->align = axial__unit_align(p->outer, p->ntasks, p->line_bytes, p->line_bytes);
    return AXIAL_OK;
}

/* The plan's AXIAL_VERBOSE line: the kernel calls it makes. */
static void axial_scan_describe(const axial_cumsum_plan *p) {
    const bool lse = p->op->lse;
    const axial_dtype dt = p->dtype;
    const unsigned flags = p->flags & AXIAL_CUMSUM_FLAGS;
    char note[32];
    axial__tasks_note(note, p->ntasks);
    switch (p->kind) {
    case AXIAL_SCAN_EMPTY:
        axial__verbose_cumsum(p->op->op, NULL, AXIAL_ENTRY_NONE, AXIAL_ENTRY_NONE, dt, p->rank,
                              p->shape, p->axis, flags, "empty");
        break;
    case AXIAL_SCAN_LINES:
        axial__verbose_cumsum(p->op->op, p->kt,
                              (lse ? AXIAL_ENTRY(logcumsumexp) : AXIAL_ENTRY(cumsum)) + dt,
                              AXIAL_ENTRY_NONE, dt, p->rank, p->shape, p->axis, flags,
                              "scan(outer=%zu,n=%zu,inner=%zu)%s", p->outer, p->n, p->inner,
                              note);
        break;
    case AXIAL_SCAN_BLOCKED:
        axial__verbose_cumsum(p->op->op, p->kt,
                              (lse ? AXIAL_ENTRY(lse_scan_total) : AXIAL_ENTRY(scan_total)) + dt,
                              (lse ? AXIAL_ENTRY(logcumsumexp_seg) : AXIAL_ENTRY(cumsum_seg)) + dt,
                              dt, p->rank, p->shape, p->axis, flags,
                              "%zu*%s(n=%zu)+%zu*%s(n<=%zu)%s", p->outer * (p->nchunks - 1),
                              lse ? "lse_scan_total" : "scan_total", AXIAL_SCAN_CHUNK, p->ntasks,
                              lse ? "logcumsumexp_seg" : "cumsum_seg",
                              p->group * AXIAL_SCAN_CHUNK, note);
        break;
    case AXIAL_SCAN_TILES:
        axial__verbose_cumsum(p->op->op, p->kt,
                              (lse ? AXIAL_ENTRY(logcumsumexp_cols) : AXIAL_ENTRY(cumsum_cols)) + dt,
                              AXIAL_ENTRY_NONE, dt, p->rank, p->shape, p->axis, flags,
                              "%zu*%s(n=%zu,ncols<=%zu,stride=%zu)%s", p->ntasks,
                              lse ? "logcumsumexp_cols" : "cumsum_cols", p->n,
                              axial__tile_max_cols(p->rowlines, p->ntiles, p->esize, p->inner),
                              p->inner, note);
        break;
    }
}

/* Runs a plan on exec (NULL: the calling thread). */
static axial_status axial_scan_run(axial_cumsum_plan *p, const axial_executor *exec) {
    axial_status st;
    if (p->kind == AXIAL_SCAN_BLOCKED &&
        (st = axial_scan_blocked_workspace(p, exec->concurrency)) != AXIAL_OK)
        return st;
    if (axial__verbose_on())
        axial_scan_describe(p);
    switch (p->kind) {
    case AXIAL_SCAN_EMPTY:
        break;
    case AXIAL_SCAN_LINES:
        axial__run(exec, p->ntasks, axial_cumsum_task, p);
        break;
    case AXIAL_SCAN_BLOCKED: {
        axial__run(exec, p->ntasks, p->outer == 1 ? axial_scan_line_task : axial_scan_total_task,
                   p);
        const size_t tasks = axial_cumsum_runs(p);
        if (tasks > 0)
            axial__run(exec, tasks, axial_cumsum_run_task, p);
        free(p->workspace);
        break;
    }
    case AXIAL_SCAN_TILES:
        axial__run(exec, p->ntasks, axial_cumsum_cols_task, p);
        break;
    }
    return AXIAL_OK;
}

static axial_status axial_scan_ex(const axial_scan_op *op, axial_dtype dtype, const void *x,
                                  void *y, size_t rank, const int64_t *shape, int64_t axis,
                                  unsigned flags, const axial_executor *exec) {
    axial_cumsum_plan p;
    axial_status st;
    if ((st = axial__check_exec(op->fn, exec)) != AXIAL_OK ||
        (st = axial_scan_plan(op, dtype, x, y, rank, shape, axis, flags, exec != NULL, &p)) !=
            AXIAL_OK)
        return st;
    return axial_scan_run(&p, exec);
}

/* total_speed, from timing f32: CumSum 2 (on AVX2 its totals skip the
 * prefix network: 2.9 times as fast as the scan in cache on one thread, 1.7
 * from memory, where a total only reads and a scan also writes),
 * LogCumSumExp 2.6 (a total spends an exp per element, a scan an exp and a
 * log).  It only shares out the work: it never changes a bit. */
static const axial_scan_op axial_op_cumsum = {"axial_cumsum", "cumsum", false,
                                              AXIAL_CUMSUM_THRESHOLD, 2.0};
static const axial_scan_op axial_op_logcumsumexp = {"axial_logcumsumexp", "logcumsumexp", true,
                                                    AXIAL_LSE_THRESHOLD, 2.6};

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
