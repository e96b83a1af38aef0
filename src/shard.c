/* SPDX-License-Identifier: MIT */
/*
 * shard.c: a tensor cut along one axis into shards summarised apart
 * (axial_shard_*; docs/API.md, "Streams and shards").
 *
 * The cut runs along "units": the scan's elements in scan order (REVERSE:
 * from the far end) or the reduced group's rows (a cut at c of the cut axis
 * is unit c * rows, rows the units per index of the cut axis).  The order
 * groups units into cells of C units (the grid's cells): the scan chunks of
 * a float line (AXIAL_SCAN_CHUNK), ReduceSum's and ReduceLogSumExp's fixed
 * chunks of rows (axial__reduce_chunk), the cells of the cut axis's indices
 * of a reduction of several reduced groups (axial__wide_cell).  Each cell has
 * one partial per entry (a line, a column or an output): a CumSum chunk's
 * total S, a LogCumSumExp chunk's own state, a reduction chunk's wide sum.
 * The order folds the partials in cell order from the identity (R_0 = -0.0
 * or the empty state, R_{h+1} = R_h (+) P_h), so:
 *   - a summary holds the partials of the cells its units touch (a cell cut
 *     in two has a partial in both summaries, merged by (+) when they are
 *     combined: that is the only inexact step, and it happens only off the
 *     grid);
 *   - a summary that starts at unit 0 folds as it combines and keeps, per
 *     entry, R (the fold of its complete cells) and P (its last cell): two
 *     values per entry, whatever it covers;
 *   - a scan runs its shard from the carry at its first unit with the
 *     active ISA's segment kernel (the one call's own kernel), a reduction
 *     rounds R (+) P once with the finish kernel.
 * Where the order has no cells (float column scans: a sequential f64 chain
 * per column), the whole axis is one cell: the grid is 0, shards combine by
 * (+) of partial sums and stay within the accuracy bound.  Integers are
 * exact for any cut (grid 1).  Where a cell is whole, its partial is the
 * kernels' (the plain call's path on that cell); partial cells and
 * cell-less ops are summed here, element by element in f64 (or the log
 * semiring's state), or by that path on their part, within the bound.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "order.h"
#include "../kernels/scalar/convert.h"

#define AX_SH_HEAD 64

/* The resolved shards of one axial_shards. */
typedef struct {
    axial_op op;
    axial_dtype dtype;
    unsigned flags;
    int order;
    bool scan, lse, rev, exact;
    size_t rank, cut, esize;
    int64_t shape[AXIAL_MAX_RANK];
    uint64_t mask;  /* the scanned axis or the reduced axes, a bit each */
    size_t rows;    /* units per index of the cut axis */
    size_t units;   /* units along the whole cut: shape[cut] * rows */
    size_t cell;    /* units per cell (units: one cell, no grid) */
    int64_t grid;   /* the public grid along the cut axis */
    size_t nv, vs;  /* entries, bytes per value (8, or 16 for the log semiring) */
    /* scans: (outer, n, inner) of the whole tensor; reductions: the one
     * reduced group's (outer, rows of the group, inner) when chunked */
    size_t outer, inner;
    bool chunked;   /* a reduction in fixed chunks (cells = chunks) */
    bool wcells;    /* several reduced groups in cells of the cut axis's indices */
    bool reduced[AXIAL_MAX_RANK];
    size_t out_rank;
    int64_t out_shape[AXIAL_MAX_RANK];
} shard_plan;

static bool is_float(axial_dtype dt) {
    return dt == AXIAL_F32 || dt == AXIAL_F64 || dt == AXIAL_F16 || dt == AXIAL_BF16;
}

static axial_status plan_shards(const char *fn, const axial_shards *sh, shard_plan *p) {
    axial_status st;
    if (sh == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: shards is NULL", fn);
    memset(p, 0, sizeof *p);
    p->op = sh->op;
    p->dtype = sh->dtype;
    p->flags = sh->flags;
    p->scan = sh->op == AXIAL_OP_CUMSUM || sh->op == AXIAL_OP_LOGCUMSUMEXP;
    p->lse = sh->op == AXIAL_OP_LOGCUMSUMEXP || sh->op == AXIAL_OP_REDUCE_LOGSUMEXP;
    if (!p->scan && sh->op != AXIAL_OP_REDUCE_SUM && sh->op != AXIAL_OP_REDUCE_LOGSUMEXP)
        return axial__fail(AXIAL_E_ARGS, "%s: op %d is not one of AXIAL_OP_CUMSUM, "
                           "AXIAL_OP_LOGCUMSUMEXP, AXIAL_OP_REDUCE_SUM, AXIAL_OP_REDUCE_LOGSUMEXP",
                           fn, (int)sh->op);
    if ((st = p->lse ? axial__check_float_dtype(fn, sh->dtype, &p->esize)
                     : axial__check_dtype(fn, sh->dtype, false, &p->esize)) != AXIAL_OK)
        return st;
    p->exact = !is_float(sh->dtype);
    p->order = p->lse ? (axial_isa_active() == AXIAL_ISA_SCALAR ? AXIAL_ORDER_SCALAR
                                                                 : AXIAL_ORDER_SIMD)
                      : axial__order_active(sh->dtype);
    p->vs = p->lse ? sizeof(axial_lse_acc) : 8;
    size_t count;
    if ((st = axial__check_rank(fn, sh->rank, sh->shape, p->scan ? 1 : 0)) != AXIAL_OK ||
        (st = axial__check_shape(fn, sh->rank, sh->shape, p->esize, &count)) != AXIAL_OK)
        return st;
    p->rank = sh->rank;
    memcpy(p->shape, sh->shape, sh->rank * sizeof *sh->shape);
    if (sh->naxes > 0 && sh->axes == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: axes is NULL but naxes is %zu", fn, sh->naxes);
    if (p->scan) {
        if (sh->naxes != 1)
            return axial__fail(AXIAL_E_ARGS, "%s: a scan takes one axis, naxes is %zu", fn,
                               sh->naxes);
        if (sh->flags & ~(AXIAL_CUMSUM_EXCLUSIVE | AXIAL_CUMSUM_REVERSE))
            return axial__fail(AXIAL_E_ARGS, "%s: flags 0x%x have unknown bits", fn, sh->flags);
        if ((st = axial__norm_axis(fn, sh->axes[0], sh->rank, &p->cut)) != AXIAL_OK)
            return st;
        p->rev = (sh->flags & AXIAL_CUMSUM_REVERSE) != 0;
        p->mask = 1ull << p->cut;
        p->rows = 1;
        p->units = (size_t)p->shape[p->cut];
        p->outer = axial__product(p->shape, 0, p->cut);
        p->inner = axial__product(p->shape, p->cut + 1, p->rank);
        p->nv = p->outer * p->inner;
        const bool lines = p->inner == 1 && !p->exact;
        p->cell = lines ? AXIAL_SCAN_CHUNK : (p->units ? p->units : 1);
        p->grid = p->exact ? 1 : lines ? (int64_t)AXIAL_SCAN_CHUNK : 0;
        return AXIAL_OK;
    }
    if (sh->flags & ~(AXIAL_REDUCE_KEEP_DIMS | AXIAL_REDUCE_EMPTY_AXES_ALL))
        return axial__fail(AXIAL_E_ARGS, "%s: flags 0x%x have unknown bits", fn, sh->flags);
    for (size_t k = 0; k < p->rank; k++)
        p->reduced[k] = sh->naxes == 0 && (sh->flags & AXIAL_REDUCE_EMPTY_AXES_ALL);
    for (size_t a = 0; a < sh->naxes; a++) {
        size_t ax;
        if ((st = axial__norm_axis(fn, sh->axes[a], sh->rank, &ax)) != AXIAL_OK)
            return st;
        p->reduced[ax] = true;
    }
    size_t first = p->rank;
    for (size_t k = 0; k < p->rank; k++) {
        if (p->reduced[k]) {
            p->mask |= 1ull << k;
            if (first == p->rank || (p->shape[first] == 1 && p->shape[k] != 1))
                first = k;
        }
        if (!p->reduced[k])
            p->out_shape[p->out_rank++] = p->shape[k];
        else if (sh->flags & AXIAL_REDUCE_KEEP_DIMS)
            p->out_shape[p->out_rank++] = 1;
    }
    if (first == p->rank)
        return axial__fail(AXIAL_E_ARGS, "%s: no axis is reduced, so there is nothing to cut "
                           "(each piece is its own result)", fn);
    p->cut = first;
    p->nv = axial__product(p->out_shape, 0, p->out_rank);
    /* The planner's layout (src/reduce.c): size-1 dimensions dropped,
     * adjacent reduced or kept dimensions merged. */
    size_t g[AXIAL_MAX_RANK], ng = 0, nred = 0, gc = 0;
    bool r[AXIAL_MAX_RANK];
    for (size_t k = 0; k < p->rank; k++) {
        if (p->shape[k] == 1)
            continue;
        if (ng > 0 && r[ng - 1] == p->reduced[k]) {
            g[ng - 1] *= (size_t)p->shape[k];
        } else {
            g[ng] = (size_t)p->shape[k];
            r[ng] = p->reduced[k];
            nred += r[ng];
            ng++;
        }
        if (k == p->cut)
            gc = ng - 1;
    }
    if (nred == 0 && count > 0)
        return axial__fail(AXIAL_E_ARGS, "%s: every reduced axis has length 1, so the reduction "
                           "is a copy and there is nothing to cut (each piece is its own result)",
                           fn);
    const size_t d = (size_t)p->shape[p->cut];
    p->units = d;
    p->rows = 1;
    p->cell = d ? d : 1;
    p->grid = p->exact ? 1 : 0;
    if (nred == 1 && count > 0 && d > 1) {
        size_t outer = 1, inner = 1;
        for (size_t k = 0; k < gc; k++)
            outer *= g[k];
        for (size_t k = gc + 1; k < ng; k++)
            inner *= g[k];
        const size_t n = g[gc], row_bytes = inner * p->esize;
        p->outer = outer;
        p->inner = inner;
        p->rows = n / d;
        p->units = n;
        p->cell = n;
        /* the order's chunks; an axis of at most one chunk is one cell, but
         * its grid is still the chunks' (no cut inside it is on the grid) */
        const size_t chunk = axial__reduce_chunk(p->nv, row_bytes, !p->exact);
        if (chunk && !p->exact)
            p->grid = (int64_t)(chunk / axial__gcd(chunk, p->rows));
        if (chunk && n > chunk) {
            p->chunked = true;
            p->cell = chunk;
        }
    }
    if (nred > 1 && count > 0 && !p->exact) { /* the cut axis's cells (axial__wide_cell) */
        size_t red = 1;
        for (size_t k = 0; k < p->rank; k++)
            red *= p->reduced[k] ? (size_t)p->shape[k] : 1;
        p->grid = (int64_t)axial__wide_cell(red / d);
        if (d > (size_t)p->grid) {
            p->wcells = true;
            p->cell = (size_t)p->grid;
        }
    }
    return AXIAL_OK;
}

axial_status axial_shard_grid(const axial_shards *sh, int64_t *axis, int64_t *grid) {
    static const char fn[] = "axial_shard_grid";
    shard_plan p;
    axial_status st = plan_shards(fn, sh, &p);
    if (st != AXIAL_OK)
        return st;
    if (axis == NULL || grid == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: %s is NULL", fn, axis == NULL ? "axis" : "grid");
    *axis = (int64_t)p.cut;
    *grid = p.grid;
    return AXIAL_OK;
}

/* ---- values: identity, (+) ------------------------------------------------- */

static void v_identity(const shard_plan *p, unsigned char *v, size_t count) {
    for (size_t i = 0; i < count; i++, v += p->vs) {
        if (p->lse) {
            const axial_lse_acc e = AXIAL_LSE_EMPTY;
            memcpy(v, &e, sizeof e);
        } else if (p->exact) {
            memset(v, 0, 8);
        } else {
            const double z = -0.0;
            memcpy(v, &z, 8);
        }
    }
}

/* a = a (+) b, count values. */
static void v_add(const shard_plan *p, unsigned char *a, const unsigned char *b, size_t count) {
    for (size_t i = 0; i < count; i++, a += p->vs, b += p->vs) {
        if (p->lse) {
            axial_lse_acc x, y;
            memcpy(&x, a, sizeof x);
            memcpy(&y, b, sizeof y);
            axial_lse_add(&x, y.m, y.s);
            memcpy(a, &x, sizeof x);
        } else if (p->exact) {
            uint64_t x, y;
            memcpy(&x, a, 8);
            memcpy(&y, b, 8);
            x += y;
            memcpy(a, &x, 8);
        } else {
            double x, y;
            memcpy(&x, a, 8);
            memcpy(&y, b, 8);
            x += y;
            memcpy(a, &x, 8);
        }
    }
}

/* ---- the bytes ------------------------------------------------------------
 * Little-endian:
 *    0  "AXSH"
 *    4  u32 format (AXIAL_BYTES_FORMAT), 8 u32 AXIAL_VERSION of the writer
 *   12  u8 op, u8 dtype, u8 flags, u8 order
 *   16  u8 rank, u8 cut axis, u8 value bytes, 5 bytes 0
 *   24  u64 the axes (a bit each)
 *   32  u64 first unit, 40 u64 end unit (scan order), 48 u64 units per cell,
 *   56  u64 entries
 *   64  i64 shape[rank]
 *       values: from unit 0, R[entries] then P[entries]; else the touched
 *       cells' partials, cell after cell, entries within a cell
 *  end  u64 FNV-1a of every byte before it
 * Values: f64 (float sums), u64 (integer sums), or f64 m, f64 s (the log
 * semiring's state), as their bits.
 */
static size_t cells_touched(const shard_plan *p, uint64_t u0, uint64_t u1) {
    if (u1 <= u0)
        return 0;
    return (size_t)((u1 - 1) / p->cell - u0 / p->cell + 1);
}

/* The bytes of a summary of units [u0, u1); false where they pass PTRDIFF_MAX. */
static bool summary_bytes(const shard_plan *p, uint64_t u0, uint64_t u1, size_t *size) {
    const size_t nvals = u0 == 0 ? 2 : cells_touched(p, u0, u1);
    size_t per;
    return axial__bytes(nvals, p->nv, 0, &per) &&
           axial__bytes(per, p->vs, AX_SH_HEAD + 8 * p->rank + 8, size);
}
static axial_status too_big(const char *fn, const shard_plan *p, uint64_t u0, uint64_t u1) {
    return axial__fail(AXIAL_E_SHAPE, "%s: a summary of units [%llu, %llu): %zu entries of "
                       "%zu-byte values in %zu cells pass PTRDIFF_MAX bytes", fn,
                       (unsigned long long)u0, (unsigned long long)u1, p->nv, p->vs,
                       u0 == 0 ? (size_t)2 : cells_touched(p, u0, u1));
}

static void put_head(const shard_plan *p, unsigned char *b, uint64_t u0, uint64_t u1) {
    axial__put_head(b, "AXSH", AX_SH_HEAD, p->op, p->dtype, p->flags, p->order, p->rank, p->cut);
    b[18] = (unsigned char)p->vs;
    axial__put64(b + 24, p->mask);
    axial__put64(b + 32, u0);
    axial__put64(b + 40, u1);
    axial__put64(b + 48, p->cell);
    axial__put64(b + 56, p->nv);
    for (size_t d = 0; d < p->rank; d++)
        axial__put64(b + AX_SH_HEAD + 8 * d, (uint64_t)p->shape[d]);
}

static void seal(unsigned char *b, size_t size) {
    axial__put64(b + size - 8, axial__fnv1a(b, size - 8));
}

/* Reads and checks a summary's header; with p non-NULL, that it belongs to
 * those shards.  Fills q (the plan the bytes describe) from the bytes. */
static axial_status read_head(const char *fn, const char *name, const void *buf, size_t size,
                              shard_plan *q, uint64_t *u0, uint64_t *u1) {
    const unsigned char *b = buf;
    if (buf == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: %s is NULL", fn, name);
    if (size < AX_SH_HEAD + 8 || memcmp(b, "AXSH", 4) != 0)
        return axial__fail(AXIAL_E_ARGS, "%s: %s (%zu bytes) is not a shard summary", fn, name,
                           size);
    const unsigned format = (unsigned)(axial__get64(b + 4) & 0xffffffffu);
    if (format != AXIAL_BYTES_FORMAT)
        return axial__fail(AXIAL_E_ARGS, "%s: %s has format %u, this library reads %u", fn,
                           name, format, AXIAL_BYTES_FORMAT);
    const axial_status st = axial__check_writer(fn, name, b, 19);
    if (st != AXIAL_OK)
        return st;
    memset(q, 0, sizeof *q);
    q->op = (axial_op)b[12];
    q->dtype = (axial_dtype)b[13];
    q->flags = b[14];
    q->order = b[15];
    q->rank = b[16];
    q->cut = b[17];
    q->vs = b[18];
    q->mask = axial__get64(b + 24);
    *u0 = axial__get64(b + 32);
    *u1 = axial__get64(b + 40);
    q->cell = (size_t)axial__get64(b + 48);
    q->nv = (size_t)axial__get64(b + 56);
    q->lse = q->op == AXIAL_OP_LOGCUMSUMEXP || q->op == AXIAL_OP_REDUCE_LOGSUMEXP;
    q->exact = !is_float(q->dtype);
    if (q->rank > AXIAL_MAX_RANK || q->cell == 0 || *u1 < *u0 ||
        q->vs != (q->lse ? sizeof(axial_lse_acc) : 8u) || q->op < AXIAL_OP_CUMSUM ||
        q->op > AXIAL_OP_REDUCE_LOGSUMEXP)
        return axial__fail(AXIAL_E_ARGS, "%s: %s has an inconsistent header (corrupted)", fn,
                           name);
    if (size < AX_SH_HEAD + 8 * q->rank + 8)
        return axial__fail(AXIAL_E_ARGS, "%s: %s is truncated (%zu bytes)", fn, name, size);
    for (size_t d = 0; d < q->rank; d++)
        q->shape[d] = (int64_t)axial__get64(b + AX_SH_HEAD + 8 * d);
    size_t want;
    if (!summary_bytes(q, *u0, *u1, &want))
        return axial__fail(AXIAL_E_ARGS, "%s: %s has an inconsistent header (corrupted)", fn,
                           name);
    if (size != want)
        return axial__fail(AXIAL_E_ARGS, "%s: %s has %zu bytes, its header says %zu (%s)", fn,
                           name, size, want, size < want ? "truncated" : "trailing bytes");
    const uint64_t sum = axial__get64(b + size - 8);
    if (sum != axial__fnv1a(b, size - 8))
        return axial__fail(AXIAL_E_ARGS, "%s: %s's checksum 0x%016llx does not match its bytes "
                           "(corrupted)", fn, name, (unsigned long long)sum);
    return AXIAL_OK;
}

/* The two plans describe the same shards (op, dtype, flags, order, shape,
 * axes, cells, entries). */
static axial_status same_shards(const char *fn, const char *what, const shard_plan *a,
                                const shard_plan *b) {
    if (a->op != b->op || a->dtype != b->dtype || a->flags != b->flags)
        return axial__fail(AXIAL_E_ARGS, "%s: %s: op %d dtype %d flags 0x%x against op %d "
                           "dtype %d flags 0x%x", fn, what, (int)a->op, (int)a->dtype, a->flags,
                           (int)b->op, (int)b->dtype, b->flags);
    if (a->order != b->order)
        return axial__fail(AXIAL_E_ARGS, "%s: %s: made with the %s order, against the %s order "
                           "(the scalar ISA sums in its own order)", fn, what,
                           a->order == AXIAL_ORDER_SCALAR ? "scalar" : "SIMD",
                           b->order == AXIAL_ORDER_SCALAR ? "scalar" : "SIMD");
    bool shape_ok = a->rank == b->rank;
    for (size_t d = 0; shape_ok && d < a->rank; d++)
        shape_ok = a->shape[d] == b->shape[d];
    if (!shape_ok || a->mask != b->mask || a->cut != b->cut)
        return axial__fail(AXIAL_E_ARGS, "%s: %s: another shape or other axes (rank %zu "
                           "against %zu, axes 0x%llx against 0x%llx)", fn, what, a->rank,
                           b->rank, (unsigned long long)a->mask, (unsigned long long)b->mask);
    if (a->cell != b->cell || a->nv != b->nv)
        return axial__fail(AXIAL_E_ARGS, "%s: %s: %zu units per cell and %zu entries against "
                           "%zu and %zu", fn, what, a->cell, a->nv, b->cell, b->nv);
    return AXIAL_OK;
}

/* ---- summaries ------------------------------------------------------------ */

/* The piece's units [u0, u1) from its cut-axis range [start, start + len). */
static axial_status piece_units(const char *fn, const shard_plan *p, int64_t start, int64_t len,
                                uint64_t *u0, uint64_t *u1) {
    const int64_t d = p->shape[p->cut];
    if (start < 0 || len < 0 || start > d || len > d - start)
        return axial__fail(AXIAL_E_ARGS, "%s: the piece [%lld, %lld + %lld) is not inside "
                           "axis %zu of length %lld", fn, (long long)start, (long long)start,
                           (long long)len, p->cut, (long long)d);
    int64_t a = start, b = start + len;
    if (p->rev) { /* scan order runs from the far end */
        a = d - (start + len);
        b = d - start;
    }
    *u0 = (uint64_t)a * p->rows;
    *u1 = (uint64_t)b * p->rows;
    return AXIAL_OK;
}

/* The shards' plan and a piece's units: the common checks of the calls
 * that take a piece. */
static axial_status plan_piece(const char *fn, const axial_shards *sh, int64_t start,
                               int64_t len, shard_plan *p, uint64_t *u0, uint64_t *u1) {
    const axial_status st = plan_shards(fn, sh, p);
    return st != AXIAL_OK ? st : piece_units(fn, p, start, len, u0, u1);
}

/* The piece's shape (the cut axis len long) and element count. */
static size_t piece_shape(const shard_plan *p, int64_t len, int64_t *shape) {
    memcpy(shape, p->shape, p->rank * sizeof *shape);
    shape[p->cut] = len;
    return axial__product(shape, 0, p->rank);
}

/* An element as a double: one copy for the element loops below. */
static __attribute__((noinline)) double load_f(axial_dtype dt, const char *x, size_t i) {
    return axial__float_at(dt, x, i);
}

/* Adds element i of x (as the op takes it) into value a. */
static void add_elem(const shard_plan *p, unsigned char *a, const char *x, size_t i) {
    if (p->lse) {
        axial_lse_acc s;
        memcpy(&s, a, sizeof s);
        axial_lse_add(&s, load_f(p->dtype, x, i), 1.0);
        memcpy(a, &s, sizeof s);
    } else if (p->exact) {
        uint64_t s, v = 0;
        memcpy(&s, a, 8);
        switch (p->esize) {
        case 1: v = (uint64_t)(uint8_t)x[i]; break;
        case 2: { uint16_t t; memcpy(&t, x + 2 * i, 2); v = t; } break;
        case 4: { uint32_t t; memcpy(&t, x + 4 * i, 4); v = t; } break;
        default: memcpy(&v, x + 8 * i, 8); break;
        }
        s += v;
        memcpy(a, &s, 8);
    } else {
        double s;
        memcpy(&s, a, 8);
        s += load_f(p->dtype, x, i);
        memcpy(a, &s, 8);
    }
}

/* One cell for the whole piece (the ops without cells, the integers):
 * every element added, in memory order, to its entry's value. */
static void one_cell(const shard_plan *p, const char *x, const int64_t *pshape,
                     unsigned char *v) {
    v_identity(p, v, p->nv);
    const size_t count = axial__product(pshape, 0, p->rank);
    size_t idx[AXIAL_MAX_RANK] = {0};
    for (size_t i = 0; i < count; i++) {
        size_t entry = 0; /* the index over the dimensions not cut or reduced */
        for (size_t d = 0; d < p->rank; d++)
            if (!((p->mask >> d) & 1u))
                entry = entry * (size_t)pshape[d] + idx[d];
        add_elem(p, v + entry * p->vs, x, i);
        for (size_t d = p->rank; d-- > 0;) { /* odometer */
            if (++idx[d] < (size_t)pshape[d])
                break;
            idx[d] = 0;
        }
    }
}

/* Cell c of a float line o (scan units [a, b) of the whole line, the piece
 * holding [u0, u1)): a whole cell by the kernels (or, in the scalar order,
 * its f64 sum from -0.0, as the scalar kernel forms S), a part of one
 * element by element. */
static void line_cell(const shard_plan *p, const struct axial_kernels *kt, const char *x,
                      size_t plen, size_t o, uint64_t a, uint64_t b, uint64_t u0, uint64_t u1,
                      unsigned char *v) {
    const size_t es = p->esize;
    const uint64_t lo = a > u0 ? a : u0, hi = b < u1 ? b : u1;
    const size_t off = (size_t)(lo - u0), n = (size_t)(hi - lo);
    const char *line = x + o * plen * es;
    const char *at = line + (p->rev ? plen - off - n : off) * es; /* lowest address */
    /* the kernels total whole chunks only (kernels.h: scan_total takes whole
     * blocks); a line's last, shorter chunk is never anyone's carry */
    const bool whole = lo == a && hi == b && n == p->cell;
    if (whole && p->order == AXIAL_ORDER_SIMD) {
        if (p->lse) {
            const axial_lse_acc t = kt->lse_scan_total[p->dtype](
                at, n, p->flags | (a > 0 ? AXIAL_SCAN_CONTINUE : 0u)); /* (a line's first chunk: its head) */
            memcpy(v, &t, sizeof t);
        } else {
            const double t = kt->scan_total[p->dtype](at, n, p->flags);
            memcpy(v, &t, 8);
        }
        return;
    }
    v_identity(p, v, 1);
    for (size_t i = 0; i < n; i++) /* the scalar order adds in scan order */
        add_elem(p, v, at, p->rev ? n - 1 - i : i);
}

/* Cell c of a chunked reduction (units [a, b) of each outer index's rows),
 * every output: a whole chunk by reduce_acc from the identity (the planner's
 * own chunk partial), a part element by element. */
static void reduce_cell(const shard_plan *p, const struct axial_kernels *kt, const char *x,
                        size_t plen, uint64_t a, uint64_t b, uint64_t u0, uint64_t u1,
                        unsigned char *v) {
    const size_t es = p->esize;
    const uint64_t lo = a > u0 ? a : u0, hi = b < u1 ? b : u1;
    const size_t off = (size_t)(lo - u0), n = (size_t)(hi - lo);
    v_identity(p, v, p->nv);
    axial_reduce_acc_kernel *const acc =
        p->lse ? kt->reduce_lse_acc[p->dtype] : kt->reduce_acc[p->dtype];
    for (size_t o = 0; o < p->outer; o++) {
        const char *rows = x + (o * plen + off) * p->inner * es;
        unsigned char *vo = v + o * p->inner * p->vs;
        if (lo == a && hi == b) {
            acc(rows, vo, 1, n, p->inner);
            continue;
        }
        for (size_t r = 0; r < n; r++)
            for (size_t i = 0; i < p->inner; i++)
                add_elem(p, vo + i * p->vs, rows, r * p->inner + i);
    }
}

axial_status axial_shard_summary_size(const axial_shards *sh, int64_t start, int64_t len,
                                      size_t *size) {
    static const char fn[] = "axial_shard_summary_size";
    shard_plan p;
    uint64_t u0 = 0, u1 = 0; /* (set by piece_units when it succeeds) */
    const axial_status st = plan_piece(fn, sh, start, len, &p, &u0, &u1);
    if (st != AXIAL_OK)
        return st;
    if (size == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: size is NULL", fn);
    if (!summary_bytes(&p, u0, u1, size))
        return too_big(fn, &p, u0, u1);
    return AXIAL_OK;
}

/* A cell's values v (nv of them) go into the summary: a prefix summary folds
 * (R = R (+) P, then P = v; c is the cell's index from the first touched),
 * another stores them as cell c. */
static void emit_cell(const shard_plan *p, unsigned char *vals, bool prefix, size_t c,
                      size_t entry0, size_t count, const unsigned char *v) {
    const size_t vs = p->vs;
    if (!prefix) {
        memcpy(vals + (c * p->nv + entry0) * vs, v, count * vs);
        return;
    }
    unsigned char *R = vals + entry0 * vs, *P = vals + (p->nv + entry0) * vs;
    if (c > 0)
        v_add(p, R, P, count);
    memcpy(P, v, count * vs);
}

axial_status axial_shard_summarize(const axial_shards *sh, const void *x, int64_t start,
                                   int64_t len, void *summary, size_t cap) {
    static const char fn[] = "axial_shard_summarize";
    shard_plan p;
    uint64_t u0 = 0, u1 = 0; /* (set by piece_units when it succeeds) */
    const axial_status st = plan_piece(fn, sh, start, len, &p, &u0, &u1);
    if (st != AXIAL_OK)
        return st;
    int64_t pshape[AXIAL_MAX_RANK];
    const size_t count = piece_shape(&p, len, pshape);
    if (count > 0 && x == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: x is NULL for a piece of %zu elements", fn, count);
    if (summary == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: summary is NULL", fn);
    size_t size;
    if (!summary_bytes(&p, u0, u1, &size))
        return too_big(fn, &p, u0, u1);
    if (cap < size)
        return axial__fail(AXIAL_E_ARGS, "%s: cap %zu is below the summary's %zu bytes", fn, cap,
                           size);
    unsigned char *b = summary;
    put_head(&p, b, u0, u1);
    unsigned char *vals = b + AX_SH_HEAD + 8 * p.rank;
    const bool prefix = u0 == 0;
    const size_t ncells = cells_touched(&p, u0, u1);
    if (prefix)
        v_identity(&p, vals, 2 * p.nv);
    const struct axial_kernels *kt = axial__kernels();
    const uint64_t c0 = u0 / p.cell;
    const char *xc = x;
    if (p.scan && p.inner == 1 && !p.exact) {
        for (size_t o = 0; o < p.nv; o++)
            for (size_t c = 0; c < ncells; c++) {
                unsigned char v[sizeof(axial_lse_acc)];
                const uint64_t a = (c0 + c) * p.cell;
                const uint64_t e = a + p.cell < p.units ? a + p.cell : p.units;
                line_cell(&p, kt, xc, (size_t)(u1 - u0), o, a, e, u0, u1, v);
                emit_cell(&p, vals, prefix, c, o, 1, v);
            }
    } else if (!p.scan && (p.chunked || p.wcells)) { /* each cell's values in their place */
        for (size_t c = 0; c < ncells; c++) {
            const uint64_t a = (c0 + c) * p.cell;
            const uint64_t e = a + p.cell < p.units ? a + p.cell : p.units;
            unsigned char *v = vals + (prefix ? p.nv : c * p.nv) * p.vs;
            if (prefix && c > 0) /* (R (+) P, then P is this cell's) */
                v_add(&p, vals, v, p.nv);
            if (p.chunked)
                reduce_cell(&p, kt, xc, (size_t)(u1 - u0), a, e, u0, u1, v);
            else /* (several reduced groups: the cut axis's indices, by the plain call's path) */
                axial__reduce_wide_cell(p.lse, p.dtype, xc, p.rank, p.shape, p.reduced,
                                        (size_t)(u1 - u0), (size_t)((a > u0 ? a : u0) - u0),
                                        (size_t)((e < u1 ? e : u1) - u0), v, p.nv);
        }
    } else if (ncells == 1 && !p.scan && !p.exact) {
        /* the whole axis is one cell: the plain call's order on the piece */
        axial__reduce_wide_acc(p.lse, p.dtype, xc, p.rank, pshape, p.reduced,
                               prefix ? vals + p.nv * p.vs : vals, p.nv);
    } else if (ncells == 1 && p.exact) { /* integers: wrapping sums, by the kernels */
        bool cut[AXIAL_MAX_RANK];
        for (size_t d = 0; d < p.rank; d++)
            cut[d] = (p.mask >> d) & 1u;
        axial__reduce_wide_acc(false, p.dtype, xc, p.rank, pshape, cut,
                               prefix ? vals + p.nv * p.vs : vals, p.nv);
    } else if (ncells == 1) { /* float scans: sequential per column, as the order */
        one_cell(&p, xc, pshape, prefix ? vals + p.nv * p.vs : vals);
    }
    seal(b, size);
    return AXIAL_OK;
}

/* ---- combining ------------------------------------------------------------ */

axial_status axial_shard_combine(const void *a, size_t asize, const void *b, size_t bsize,
                                 void *out, size_t cap, size_t *size) {
    static const char fn[] = "axial_shard_combine";
    shard_plan qa, qb;
    uint64_t a0, a1, b0, b1;
    axial_status st = read_head(fn, "a", a, asize, &qa, &a0, &a1);
    if (st == AXIAL_OK)
        st = read_head(fn, "b", b, bsize, &qb, &b0, &b1);
    if (st == AXIAL_OK)
        st = same_shards(fn, "a and b belong to other shards", &qa, &qb);
    if (st != AXIAL_OK)
        return st;
    if (size == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: size is NULL", fn);
    if (a1 != b0)
        return axial__fail(AXIAL_E_ARGS,
                           "%s: a covers units [%llu, %llu) and b [%llu, %llu) of the scan "
                           "order: b must start where a ends (%s)", fn,
                           (unsigned long long)a0, (unsigned long long)a1,
                           (unsigned long long)b0, (unsigned long long)b1,
                           b0 > a1 ? "a gap" : "out of order");
    const shard_plan *p = &qa;
    size_t need;
    if (!summary_bytes(p, a0, b1, &need))
        return too_big(fn, p, a0, b1);
    if (out == NULL) {
        *size = need;
        return AXIAL_OK;
    }
    if (cap < need)
        return axial__fail(AXIAL_E_ARGS, "%s: cap %zu is below the combined %zu bytes", fn, cap,
                           need);
    if (out != a && (const char *)out < (const char *)a + asize &&
        (const char *)a < (const char *)out + cap)
        return axial__fail(AXIAL_E_OVERLAP, "%s: out overlaps a other than exactly", fn);
    if ((const char *)out < (const char *)b + bsize && (const char *)b < (const char *)out + cap)
        return axial__fail(AXIAL_E_OVERLAP, "%s: out overlaps b", fn);
    if (a0 == a1 || b0 == b1) { /* an empty piece adds nothing: the other one is the sum */
        if (a0 == a1)
            memmove(out, b, bsize);
        else if (out != a)
            memcpy(out, a, asize);
        unsigned char *o = out;
        axial__put64(o + 32, a0);
        axial__put64(o + 40, b1);
        seal(o, need);
        *size = need;
        return AXIAL_OK;
    }
    const size_t head = AX_SH_HEAD + 8 * p->rank, nv = p->nv, vs = p->vs;
    const unsigned char *bv = (const unsigned char *)b + head;
    unsigned char *ov = (unsigned char *)out + head;
    const size_t na = cells_touched(p, a0, a1), nb = cells_touched(p, b0, b1);
    /* b's first cell is a's last when the cut falls inside a cell */
    const bool shared = na > 0 && nb > 0 && b0 % p->cell != 0;
    if (out != a)
        memcpy(out, a, a0 == 0 ? head + 2 * nv * vs : head + na * nv * vs);
    if (a0 == 0) {
        unsigned char *R = ov, *P = ov + nv * vs;
        for (size_t c = 0; c < nb; c++) {
            const unsigned char *v = bv + c * nv * vs;
            if (c == 0 && shared) {
                v_add(p, P, v, nv);
                continue;
            }
            v_add(p, R, P, nv); /* (a empty: both are the identity) */
            memcpy(P, v, nv * vs);
        }
    } else {
        size_t c = 0, at = na;
        if (shared) {
            v_add(p, ov + (na - 1) * nv * vs, bv, nv);
            c = 1;
        }
        memcpy(ov + at * nv * vs, bv + c * nv * vs, (nb - c) * nv * vs);
    }
    unsigned char *o = out;
    axial__put64(o + 40, b1);
    seal(o, need);
    *size = need;
    return AXIAL_OK;
}

/* ---- scanning from a carry, finishing ---------------------------------------- */

/* The carry (per entry) at unit u0 from a summary of [0, u0): R (+) P. */
static axial_status carry_of(const char *fn, const shard_plan *p, uint64_t u0, const void *carry,
                             size_t carry_size, unsigned char *buf) {
    if (u0 == 0 && carry == NULL) {
        v_identity(p, buf, p->nv);
        return AXIAL_OK;
    }
    shard_plan q;
    uint64_t c0, c1;
    axial_status st = read_head(fn, "carry", carry, carry_size, &q, &c0, &c1);
    if (st == AXIAL_OK)
        st = same_shards(fn, "the carry belongs to other shards", p, &q);
    if (st != AXIAL_OK)
        return st;
    if (c0 != 0 || c1 != u0)
        return axial__fail(AXIAL_E_ARGS,
                           "%s: the carry covers units [%llu, %llu) of the scan order, the "
                           "piece starts at unit %llu: the carry must cover [0, %llu)", fn,
                           (unsigned long long)c0, (unsigned long long)c1,
                           (unsigned long long)u0, (unsigned long long)u0);
    const unsigned char *v = (const unsigned char *)carry + AX_SH_HEAD + 8 * q.rank;
    memcpy(buf, v, p->nv * p->vs);
    v_add(p, buf, v + p->nv * p->vs, p->nv);
    return AXIAL_OK;
}

/* LogCumSumExp from a state, element by element (the ops without cells and
 * the scalar ISA): y = the value of the state after (inclusive) or before
 * (exclusive) each term, rounded once. */
static void lse_run(const shard_plan *p, axial_lse_acc *st, const char *x, char *y, size_t n,
                    size_t stride, size_t ncols) {
    const bool excl = (p->flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    for (size_t t = 0; t < n; t++) {
        const size_t r = (p->rev ? n - 1 - t : t) * stride;
        for (size_t i = 0; i < ncols; i++) {
            double out;
            if (excl) {
                out = axial_lse_value(st[i]);
                axial_lse_add(&st[i], load_f(p->dtype, x, r + i), 1.0);
            } else {
                axial_lse_add(&st[i], load_f(p->dtype, x, r + i), 1.0);
                out = axial_lse_value(st[i]);
            }
            switch (p->dtype) {
            case AXIAL_F32: { const float f = (float)out; memcpy(y + 4 * (r + i), &f, 4); } break;
            case AXIAL_F64: memcpy(y + 8 * (r + i), &out, 8); break;
            case AXIAL_F16: { const uint16_t h = axial_double_to_f16(out); memcpy(y + 2 * (r + i), &h, 2); } break;
            default: { const uint16_t h = axial_double_to_bf16(out); memcpy(y + 2 * (r + i), &h, 2); } break;
            }
        }
    }
}

axial_status axial_shard_scan(const axial_shards *sh, const void *x, void *y, int64_t start,
                              int64_t len, const void *carry, size_t carry_size) {
    static const char fn[] = "axial_shard_scan";
    shard_plan p;
    uint64_t u0 = 0, u1 = 0; /* (set by piece_units when it succeeds) */
    axial_status st = plan_shards(fn, sh, &p);
    if (st == AXIAL_OK && !p.scan)
        st = axial__fail(AXIAL_E_ARGS, "%s: op %d is a reduction (axial_shard_finish)", fn,
                         (int)p.op);
    if (st == AXIAL_OK)
        st = piece_units(fn, &p, start, len, &u0, &u1);
    if (st != AXIAL_OK)
        return st;
    int64_t pshape[AXIAL_MAX_RANK];
    const size_t count = piece_shape(&p, len, pshape);
    if ((st = axial__check_buffers(fn, x, count * p.esize, y, count * p.esize, true)) != AXIAL_OK)
        return st;
    /* the carries: one value per entry, on the heap (nothing is written
     * before every check has passed) */
    size_t cbytes;
    if (!axial__bytes(p.nv, p.vs, 1, &cbytes))
        return axial__fail(AXIAL_E_SHAPE, "%s: %zu carries of %zu bytes pass PTRDIFF_MAX bytes",
                           fn, p.nv, p.vs);
    unsigned char *cv = malloc(cbytes);
    if (cv == NULL)
        return axial__fail(AXIAL_E_NOMEM, "%s: no memory for %zu carries", fn, p.nv);
    if ((st = carry_of(fn, &p, u0, carry, carry_size, cv)) != AXIAL_OK) {
        free(cv);
        return st;
    }
    free(cv);
    if (count == 0)
        return AXIAL_OK;
    if (u0 == 0) /* the first piece: the one call's own plan, on the piece */
        return p.lse ? axial_logcumsumexp(p.dtype, x, y, p.rank, pshape, (int64_t)p.cut, p.flags)
                     : axial_cumsum(p.dtype, x, y, p.rank, pshape, (int64_t)p.cut, p.flags);
    cv = malloc(cbytes);
    if (cv == NULL)
        return axial__fail(AXIAL_E_NOMEM, "%s: no memory for %zu carries", fn, p.nv);
    carry_of(fn, &p, u0, carry, carry_size, cv);
    const struct axial_kernels *kt = axial__kernels();
    const size_t plen = (size_t)len, es = p.esize;
    const char *xc = x;
    char *yc = y;
    const unsigned cont = u0 > 0 ? AXIAL_SCAN_CONTINUE : 0u;
    if (p.inner == 1 && !p.exact && p.order == AXIAL_ORDER_SIMD) {
        for (size_t o = 0; o < p.nv; o++) {
            const char *xo = xc + o * plen * es;
            char *yo = yc + o * plen * es;
            if (p.lse) {
                axial_lse_acc c;
                memcpy(&c, cv + o * p.vs, sizeof c);
                kt->logcumsumexp_seg[p.dtype](xo, yo, plen, p.flags | cont, c);
            } else {
                double c;
                memcpy(&c, cv + o * 8, 8);
                kt->cumsum_seg[p.dtype](xo, yo, plen, p.flags | cont, c);
            }
        }
    } else if (p.inner == 1 && !p.exact && !p.lse) { /* the scalar order */
        for (size_t o = 0; o < p.nv; o++) {
            axial_line_carry c;
            axial__line_carry_init(&c);
            memcpy(&c.R, cv + o * 8, 8);
            c.D = c.R;
            axial__line_scan(p.dtype, AXIAL_ORDER_SCALAR, p.flags, &c, xc + o * plen * es,
                             yc + o * plen * es, plen, 0, plen, u0);
        }
    } else if (p.lse) { /* columns, or lines on the scalar ISA */
        axial_lse_acc *stt = (axial_lse_acc *)(void *)cv;
        for (size_t o = 0; o < p.outer; o++)
            lse_run(&p, stt + o * p.inner, xc + o * plen * p.inner * es,
                    yc + o * plen * p.inner * es, plen, p.inner, p.inner);
    } else { /* columns and integers: running sums from the carry */
        for (size_t o = 0; o < p.outer; o++)
            axial__cols_scan(p.dtype, p.flags, cv + o * p.inner * 8, xc + o * plen * p.inner * es,
                             yc + o * plen * p.inner * es, plen, p.inner, p.inner, u0);
    }
    free(cv);
    return AXIAL_OK;
}

axial_status axial_shard_finish(const axial_shards *sh, const void *total, size_t total_size,
                                void *y) {
    static const char fn[] = "axial_shard_finish";
    shard_plan p, q;
    uint64_t c0, c1;
    axial_status st = plan_shards(fn, sh, &p);
    if (st == AXIAL_OK && p.scan)
        st = axial__fail(AXIAL_E_ARGS, "%s: op %d is a scan (axial_shard_scan)", fn, (int)p.op);
    if (st == AXIAL_OK)
        st = read_head(fn, "total", total, total_size, &q, &c0, &c1);
    if (st == AXIAL_OK)
        st = same_shards(fn, "the total belongs to other shards", &p, &q);
    if (st == AXIAL_OK && (c0 != 0 || c1 != p.units))
        st = axial__fail(AXIAL_E_ARGS, "%s: the total covers units [%llu, %llu), the axis has "
                         "%zu: combine every piece first", fn, (unsigned long long)c0,
                         (unsigned long long)c1, p.units);
    if (st == AXIAL_OK && p.nv > 0 && y == NULL)
        st = axial__fail(AXIAL_E_NULL, "%s: y is NULL for %zu outputs", fn, p.nv);
    if (st != AXIAL_OK)
        return st;
    if (p.nv == 0)
        return AXIAL_OK;
    if (axial__product(p.shape, 0, p.rank) == 0) { /* every sum is empty: +0, or -inf */
        if (!p.lse) {
            memset(y, 0, p.nv * p.esize);
            return AXIAL_OK;
        }
    }
    const unsigned char *v = (const unsigned char *)total + AX_SH_HEAD + 8 * p.rank;
    const struct axial_kernels *kt = axial__kernels();
    axial_reduce_finish_kernel *const fin =
        p.lse ? kt->reduce_lse_finish[p.dtype] : kt->reduce_finish[p.dtype];
    /* R (+) P, 64 outputs at a time on the stack */
    unsigned char buf[64 * sizeof(axial_lse_acc)];
    for (size_t i = 0; i < p.nv; i += 64) {
        const size_t m = p.nv - i < 64 ? p.nv - i : 64;
        memcpy(buf, v + i * p.vs, m * p.vs);
        v_add(&p, buf, v + (p.nv + i) * p.vs, m);
        fin(buf, (char *)y + i * p.esize, m);
    }
    return AXIAL_OK;
}
