/* SPDX-License-Identifier: MIT */
/*
 * test_guard.c: no kernel reads (or writes) outside its tensors, even by a
 * byte.  Each input and output sits flush against an inaccessible page
 * (PROT_NONE): in one call both end exactly at a guard page, in a second
 * call both start right after one.  A full-vector load or store of a tail,
 * or of the vector before the first element, faults here (the test binary
 * dies with SIGSEGV, which both drivers report as a failure; the handler
 * names the case first) where canaries could not see a read.  Each call is
 * also compared with the oracle, the input must be unchanged (unless in
 * place) and the 64 accessible bytes on the other side of each tensor must be
 * untouched.
 *
 * Lengths.  V is the widest vector (64 bytes, AVX-512) in elements of the
 * dtype: 64 for 1-byte types, 32, 16, 8; every kernel's tails are at most
 * two vectors plus one of its own width (NEON's 16 bytes, AVX2's 32 and
 * AVX-512's 64 are all covered).  For every summable dtype and every
 * L = 1 .. 2V+1:
 *   CumSum, all four flag sets, each also in place (y == x):
 *     a row [L], a long row [16V + L] (the unrolled loops, then the tail),
 *     columns [n, L] axis 0 (odd L: [2, n, L] axis 1), n = 1, 2, 3, 4, 5, 7, 9
 *     rotating, and short-row groups [L, m] axis 1, m = 2..17 rotating;
 *   ReduceSum: the same four layouts on axis 0 / 1, n rows [n, L] axis 1
 *     (the kernels sum 8 or 16 rows at a time), and three split
 *     reductions that run reduce_acc and reduce_finish (src/reduce.c: the
 *     reduced axes stay apart after merging): [2, L, m] axes {0, 2} (short
 *     rows, L outputs), [2, 3, L] axes {0, 2} (rows of L; also 16V + L) and
 *     [2, 3, m, L] axes {0, 2} (columns, 3L outputs);
 * and column widths past the register tiles, B + L for B = 8V, 64V, 4096 and
 * L = 1, V-1, V, V+1, 2V+1.  Roll, every element size (the dtype rotating
 * among those of that size): rows [B + L], B = 0, 4V, 16V, for every L (and
 * B = 16 KiB for five L), shifts 0, 1, n/2, n-1 and one at random, as one
 * row, as 3 rows [3, n] axis 1, both axes of [3, n] by (1, s), and in place.
 * Big calls (outputs of 4 MiB and more: the streaming-store paths, whose
 * tails are separate code; SIMD ISAs only, see big_cases): segment scans,
 * short-row sums, [R, 2] axis 0 and full sums (chunks of the reduced extent),
 * for the float types one long line and [R, C] axis 0 (CumSum's blocked scan
 * along the axis, CumSum's and ReduceSum's column tiles),
 * row rolls and 2-D rolls, all through the _ex forms on a 3-thread pool, so
 * that the ends of the split's tasks meet the guards too.
 * LogCumSumExp and ReduceLogSumExp, the four float dtypes, take the same
 * layouts as CumSum and ReduceSum (all four flag sets and in place for the
 * scan; the split reductions through reduce_lse_acc / reduce_lse_finish,
 * the column widths past the tiles), and the big calls of their planner's
 * split paths through the pool: groups of whole lines [R, 3] axis 1, one
 * long line, [R, C] axis 0 (one group), row groups [R, 2] axis 1, the fixed
 * chunks of the reduced extent ([R, 2] axis 0, a full reduction), and the
 * several-groups reduction [2, R, 3] axes {0, 2}.  Their reference is the
 * scalar ISA's kernels (the oracle tests check those), compared within
 * twice the accuracy bound of docs/API.md (each result is within the bound
 * of the exact value; the same bits where they agree).
 * AXIAL_TEST_SCALE < 1 (qemu) samples the long rows, wide columns, in-place
 * calls and big calls (ax_sample); the rest always runs.
 *
 * t_guard_selftest proves the guard itself: forked children that read or
 * write one byte past a tensor placed at a guard (or one before it) must
 * die of SIGSEGV, and a child that touches only the tensor must exit 0.
 * POSIX only (mmap / mprotect / fork); elsewhere both tests report a skip.
 */
#if defined(__unix__) || defined(__APPLE__)
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, sigaction */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#define AX_HAVE_MMAN 1
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "harness.h"
#include "oracle.h"
#include "tests.h"

#if AX_HAVE_MMAN

/* ---- guarded arenas ------------------------------------------------------------
 * [PROT_NONE page][ARENA bytes][PROT_NONE page]: a tensor is placed flush
 * against the upper guard (at_end) or the lower one. */
#define ARENA ((size_t)10 << 20) /* the big calls need 8 MiB + tails */
#define SIDE 64                  /* bytes checked on the accessible side */

typedef struct {
    unsigned char *base, *lo, *hi; /* lo..hi: the accessible bytes */
    size_t len;
} arena;

static bool arena_init(arena *a, size_t bytes) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = (bytes + page - 1) / page * page;
    a->len = body + 2 * page;
    void *m = mmap(NULL, a->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return false;
    a->base = m;
    if (mprotect(a->base, page, PROT_NONE) != 0 ||
        mprotect(a->base + a->len - page, page, PROT_NONE) != 0) {
        munmap(m, a->len);
        return false;
    }
    a->lo = a->base + page;
    a->hi = a->lo + body;
    return true;
}

static void arena_free(arena *a) { munmap(a->base, a->len); }

static unsigned char *place(const arena *a, size_t bytes, bool at_end) {
    return at_end ? a->hi - bytes : a->lo;
}

/* The accessible bytes next to a tensor on its non-guarded side. */
static unsigned char *side_of(const arena *a, unsigned char *p, size_t bytes, bool at_end,
                              size_t *len) {
    if (at_end) {
        *len = (size_t)(p - a->lo) < SIDE ? (size_t)(p - a->lo) : SIDE;
        return p - *len;
    }
    *len = (size_t)(a->hi - (p + bytes)) < SIDE ? (size_t)(a->hi - (p + bytes)) : SIDE;
    return p + bytes;
}

static bool all_are(const unsigned char *p, size_t n, unsigned char v) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != v) return false;
    return true;
}

/* ---- one case --------------------------------------------------------------- */

typedef struct {
    ax_op op;
    axial_dtype dt;
    size_t rank;
    int64_t shape[4];
    int64_t axis;   /* cumsum */
    unsigned flags; /* scans (0 for the reductions) */
    size_t naxes;   /* reduce, roll */
    int64_t axes[2];
    int64_t shift[2]; /* roll: one per axis */
    bool inplace;
    bool big; /* tiled data, and the scalar kernels as the reference (see big_cases) */
} gcase;

/* The case in flight, named on stderr if it faults (ax_fault_watch; then the
 * default action ends the process, and the driver reports the crash). */
static char current[320];

typedef struct {
    arena ax, ay;
    unsigned char *src, *want; /* ARENA bytes each: the input and the oracle's output */
    long calls;
} guard_ctx;

/* The accuracy bound of the log-space ops (docs/API.md) for a result near
 * |v| of n terms: f32/f16/bf16 ulp_T(v) + 4 * 2^-24 (|v| + ln n + 4), f64
 * 2^-53 (4 |v| + 4 ln n + 16 + n). */
static double lse_bound(axial_dtype dt, double v, double n) {
    const double a = fabs(v), ln = log(n > 1 ? n : 1);
    if (dt == AXIAL_F64) return ldexp(4 * a + 4 * ln + 16 + n, -53);
    const int p = ax_dtype_fmt(dt).p, emin = ax_dtype_fmt(dt).emin;
    int e = a == 0 ? emin : ilogb(a);
    if (e < emin) e = emin;
    return ldexp(1.0, e - p + 1) + ldexp(4 * (a + ln + 4), -24);
}

/* got against the scalar ISA's want: both within the bound of the exact
 * value, so within twice the bound at the larger of them (plus the bound
 * itself) of each other; NaN and infinities exactly. */
static void lse_compare(ax_t *t, axial_dtype dt, const void *got, const void *want, size_t count,
                        double n, const char *what) {
    for (size_t i = 0; i < count; i++) {
        const double a = (double)or_get_f(dt, got, i), b = (double)or_get_f(dt, want, i);
        bool ok;
        if (isnan(a) || isnan(b) || isinf(a) || isinf(b))
            ok = (isnan(a) && isnan(b)) || a == b;
        else {
            const double mx = fmax(fabs(a), fabs(b));
            ok = fabs(a - b) <= 2 * lse_bound(dt, mx + lse_bound(dt, mx, n), n);
        }
        if (!ok) {
            AX_CHECK(t, false, "%s: output %zu is %.17g, the scalar kernels' %.17g (%g terms)",
                     what, i, a, b, n);
            return;
        }
    }
    AX_CHECK(t, true, "%s", what);
}

static void describe(ax_t *t, const gcase *c, bool at_end) {
    char sh[96];
    int len = snprintf(current, sizeof current, "%s %s %s", ax_op_name(c->op), ax_dtype_str(c->dt),
                       ax_shape_str(sh, sizeof sh, c->rank, c->shape));
    if (ax_op_scan(c->op))
        len += snprintf(current + len, sizeof current - (size_t)len, " axis %lld flags %u",
                        (long long)c->axis, c->flags);
    else
        for (size_t a = 0; a < c->naxes; a++) {
            len += snprintf(current + len, sizeof current - (size_t)len, " axis %lld",
                            (long long)c->axes[a]);
            if (c->op == AX_OP_ROLL)
                len += snprintf(current + len, sizeof current - (size_t)len, " shift %lld",
                                (long long)c->shift[a]);
        }
    snprintf(current + len, sizeof current - (size_t)len, "%s, tensors %s a guard page (isa %s)",
             c->inplace ? " in place" : "", at_end ? "ending at" : "starting after",
             axial_isa_name(t->isa));
}

/* The big calls run split, through axial_*_ex on a pool of 3 threads (their
 * tasks' blocks end inside the tensors too: the split paths' tails). */
static const axial_executor *guard_exec;
static const axial_executor *exec_of(const gcase *c) { return c->big ? guard_exec : NULL; }

/* The case as a call (a shift per axis). */
static ax_call case_call(const gcase *c) {
    return (ax_call){c->op,    c->dt,   c->rank,  c->shape, c->axis,
                     c->flags, c->axes, c->naxes, c->shift, c->naxes};
}

/* The case's element counts, input and output. */
static void case_size(const gcase *c, size_t *count, size_t *ocount) {
    size_t orank;
    int64_t oshape[4];
    *count = *ocount = or_count(c->rank, c->shape);
    if (ax_op_reduce(c->op)) {
        or_reduce(c->dt, NULL, NULL, c->rank, c->shape, c->axes, c->naxes, false, false, &orank,
                  oshape);
        *ocount = or_count(orank, oshape);
    }
}

/* The case's input (g->src) and its reference output (g->want), made once
 * for all its placements and the in-place call: false if they cannot be. */
static bool prepare_case(ax_t *t, guard_ctx *g, const gcase *c) {
    const size_t es = ax_dtype_size(c->dt);
    size_t count, ocount, orank;
    int64_t oshape[4];
    describe(t, c, true);
    case_size(c, &count, &ocount);
    if (!AX_CHECK(t, count * es <= ARENA && ocount * es <= ARENA, "%s: larger than the arena",
                  current))
        return false;
    const size_t xb = count * es;
    if (c->big) { /* 4096 random elements, repeated: ax_fill is slow per element */
        const size_t tile = count < 4096 ? count : 4096;
        ax_fill(t, c->dt, g->src, tile, FILL_EXACT);
        for (size_t done = tile * es; done < xb;) {
            const size_t len = done < xb - done ? done : xb - done;
            memcpy(g->src + done, g->src, len);
            done += len;
        }
    } else {
        ax_fill(t, c->dt, g->src, count, FILL_EXACT);
    }
    if (ax_op_lse(c->op) || c->big) {
        /* the reference: the scalar kernels on src -> want (the big calls:
         * exact data, every ISA gives the same bits; the scalar ones are
         * checked against the oracle by every other test), far faster than
         * the oracle. */
        axial_isa_select(AXIAL_ISA_SCALAR);
        const ax_call call = case_call(c);
        const axial_status st = ax_call_plain(&call, g->src, g->want);
        axial_isa_select(t->isa);
        return AX_CHECK(t, st == AXIAL_OK, "%s: the scalar reference: %s", current,
                        axial_status_name(st));
    }
    if (c->op == AX_OP_CUMSUM)
        or_cumsum(c->dt, g->src, g->want, c->rank, c->shape,
                  (size_t)(c->axis < 0 ? c->axis + (int64_t)c->rank : c->axis),
                  c->flags & AXIAL_CUMSUM_EXCLUSIVE, c->flags & AXIAL_CUMSUM_REVERSE);
    else if (c->op == AX_OP_REDUCE)
        or_reduce(c->dt, g->src, g->want, c->rank, c->shape, c->axes, c->naxes, false, false,
                  &orank, oshape);
    else
        or_roll(c->dt, g->src, g->want, c->rank, c->shape, c->shift, c->naxes, c->axes,
                c->naxes);
    return true;
}

/* One call of the prepared case, its tensors at the guards (at_end or
 * after the lower one), checked against g->want. */
static void run_case(ax_t *t, guard_ctx *g, const gcase *c, bool at_end) {
    const size_t es = ax_dtype_size(c->dt);
    size_t count, ocount;
    describe(t, c, at_end);
    case_size(c, &count, &ocount);
    const size_t xb = count * es, yb = ocount * es;
    unsigned char *y = place(&g->ay, yb, at_end);
    unsigned char *x = c->inplace ? y : place(&g->ax, xb, at_end);
    size_t xsl = 0, ysl;
    unsigned char *xside = c->inplace ? x : side_of(&g->ax, x, xb, at_end, &xsl);
    unsigned char *yside = side_of(&g->ay, y, yb, at_end, &ysl);
    memcpy(x, g->src, xb);
    if (!c->inplace) {
        memset(y, 0x5a, yb);
        memset(xside, 0xa5, xsl);
    }
    memset(yside, 0xa5, ysl);
    const ax_call call = case_call(c);
    const axial_status st = ax_call_ex(&call, x, y, exec_of(c));
    g->calls++;
    if (!AX_CHECK(t, st == AXIAL_OK, "%s: %s (%s)", current, axial_status_name(st),
                  axial_last_error()))
        return;
    if (ax_op_lse(c->op)) {
        const int64_t a = c->axis < 0 ? c->axis + (int64_t)c->rank : c->axis;
        const double n = c->op == AX_OP_LCSE ? (double)c->shape[a]
                                          : ocount ? (double)count / (double)ocount : 1;
        if (memcmp(y, g->want, yb) == 0)
            AX_CHECK(t, true, "%s", current);
        else
            lse_compare(t, c->dt, y, g->want, ocount, n, current);
    } else if (!c->big || memcmp(y, g->want, yb) != 0) /* exact data: bitwise equal */
        ax_compare(t, c->dt, y, g->want, ocount, current);
    else
        AX_CHECK(t, true, "%s", current);
    if (!c->inplace) {
        AX_CHECK(t, memcmp(x, g->src, xb) == 0, "%s: the input was changed", current);
        AX_CHECK(t, all_are(xside, xsl, 0xa5), "%s: the bytes beside x were written", current);
    }
    AX_CHECK(t, all_are(yside, ysl, 0xa5), "%s: the bytes beside y were written", current);
}

/* Both placements; and in place too when `also_inplace` (cumsum, roll;
 * sampled: under AXIAL_TEST_SCALE < 1 only some). */
static void run_both(ax_t *t, guard_ctx *g, gcase c, bool also_inplace) {
    also_inplace = also_inplace && ax_sample(t, 1.0);
    if (!prepare_case(t, g, &c)) return;
    for (int k = 0; k < (also_inplace ? 2 : 1); k++) {
        c.inplace = k == 1;
        run_case(t, g, &c, true);
        run_case(t, g, &c, false);
    }
}

static gcase shape_case(ax_op op, axial_dtype dt, size_t rank, const int64_t *shape) {
    gcase c;
    memset(&c, 0, sizeof c);
    c.op = op;
    c.dt = dt;
    c.rank = rank;
    for (size_t k = 0; k < rank; k++) c.shape[k] = shape[k];
    return c;
}

static ax_op scan_op = AX_OP_CUMSUM, reduce_op = AX_OP_REDUCE; /* or the log-space ones */

static void cumsum_all_flags(ax_t *t, guard_ctx *g, axial_dtype dt, size_t rank,
                             const int64_t *shape, int64_t axis) {
    gcase c = shape_case(scan_op, dt, rank, shape);
    c.axis = axis;
    for (unsigned f = 0; f < 4; f++) {
        c.flags = f;
        run_both(t, g, c, true);
    }
}

static void reduce_axes(ax_t *t, guard_ctx *g, axial_dtype dt, size_t rank, const int64_t *shape,
                        int64_t a0, int64_t a1, size_t naxes) {
    gcase c = shape_case(reduce_op, dt, rank, shape);
    c.naxes = naxes;
    c.axes[0] = a0;
    c.axes[1] = a1;
    run_both(t, g, c, false);
}

static const int64_t col_rows[] = {1, 2, 3, 4, 5, 7, 9};

/* The four layouts of length / width L, both ops. */
static void sum_layouts(ax_t *t, guard_ctx *g, axial_dtype dt, int64_t L, int64_t V,
                        bool long_too) {
    const int64_t n = col_rows[L % 7], m = 2 + L % 16;
    const int64_t row[1] = {L}, lrow[1] = {16 * V + L}, shortr[2] = {L, m};
    const int64_t col2[2] = {n, L}, col3[3] = {2, n, L};
    cumsum_all_flags(t, g, dt, 1, row, 0);
    if (long_too) cumsum_all_flags(t, g, dt, 1, lrow, 0);
    if (L % 2) cumsum_all_flags(t, g, dt, 3, col3, 1);
    else cumsum_all_flags(t, g, dt, 2, col2, 0);
    cumsum_all_flags(t, g, dt, 2, shortr, 1);

    reduce_axes(t, g, dt, 1, row, 0, 0, 1);
    if (long_too) reduce_axes(t, g, dt, 1, lrow, 0, 0, 1);
    if (L % 2) reduce_axes(t, g, dt, 3, col3, 1, 0, 1);
    else reduce_axes(t, g, dt, 2, col2, 0, 0, 1);
    reduce_axes(t, g, dt, 2, shortr, 1, 0, 1);
    reduce_axes(t, g, dt, 2, col2, 1, 0, 1); /* n rows of L: the row groups' tails */
    /* split reductions: reduce_acc (rows = L of m / 3 of L / columns), reduce_finish */
    const int64_t s_short[3] = {2, L, m}, s_rows[3] = {2, 3, L}, s_lrows[3] = {2, 3, 16 * V + L};
    const int64_t s_cols[4] = {2, 3, m, L};
    reduce_axes(t, g, dt, 3, s_short, 0, 2, 2);
    reduce_axes(t, g, dt, 3, s_rows, 0, -1, 2);
    if (long_too) reduce_axes(t, g, dt, 3, s_lrows, 2, 0, 2);
    reduce_axes(t, g, dt, 4, s_cols, 0, 2, 2);
}

static void roll_row(ax_t *t, guard_ctx *g, axial_dtype dt, int64_t n) {
    const int64_t shifts[5] = {0, 1, n / 2, n - 1, ax_rand_range(t, 0, n - 1)};
    const int64_t row[1] = {n}, rows[2] = {3, n};
    for (int s = 0; s < 5; s++) {
        gcase c = shape_case(AX_OP_ROLL, dt, 1, row);
        c.naxes = 1;
        c.shift[0] = shifts[s];
        run_both(t, g, c, s == 4);
        c = shape_case(AX_OP_ROLL, dt, 2, rows);
        c.naxes = 1;
        c.axes[0] = 1;
        c.shift[0] = shifts[s];
        run_both(t, g, c, false);
    }
    gcase c = shape_case(AX_OP_ROLL, dt, 2, rows);
    c.naxes = 2;
    c.axes[0] = 0;
    c.axes[1] = 1;
    c.shift[0] = 1;
    c.shift[1] = shifts[4];
    run_both(t, g, c, false);
}

/* Big calls: outputs of 4 MiB and more, where the SIMD kernels stream their
 * stores (AVX-512 segment scans and short-row sums, both rolls), with tails
 * at the guard: segment scans [R, 3] axis 1 and short-row sums [R, 2] axis 1
 * for each kernel family (signed and unsigned share kernels), a row roll per
 * element size.  The scalar kernels have no such paths (they are the
 * reference here): not run for them. */
static void big_cases(ax_t *t, guard_ctx *g) {
    /* all natively; a quarter at qemu's AXIAL_TEST_SCALE=0.5 */
    const double frac = ax_scale() >= 1.0 ? 1.0 : 0.5;
    static const axial_dtype fams[8] = {AXIAL_F32, AXIAL_F64, AXIAL_F16, AXIAL_BF16,
                                        AXIAL_I8,  AXIAL_U16, AXIAL_I32, AXIAL_U64};
    static const axial_dtype by_size[4] = {AXIAL_U8, AXIAL_I16, AXIAL_F32, AXIAL_I64};
    for (size_t d = 0; d < 8; d++) {
        const axial_dtype dt = fams[d];
        const int64_t es = (int64_t)ax_dtype_size(dt), V = 64 / es, big = ((int64_t)4 << 20) / es;
        const int64_t segs[2] = {big / 3 + ax_rand_range(t, 1, 2 * V + 1), 3};
        const int64_t pairs[2] = {big + ax_rand_range(t, 1, 2 * V + 1), 2};
        gcase c = shape_case(AX_OP_CUMSUM, dt, 2, segs);
        c.big = true;
        c.axis = 1;
        c.flags = (unsigned)d % 4;
        if (ax_sample(t, frac)) run_both(t, g, c, false);
        c = shape_case(AX_OP_REDUCE, dt, 2, pairs);
        c.big = true;
        c.naxes = 1;
        c.axes[0] = 1;
        if (ax_sample(t, frac)) run_both(t, g, c, false);
        c.axes[0] = 0; /* [R, 2] axis 0: chunks of the reduced extent */
        if (ax_sample(t, frac)) run_both(t, g, c, false);
        const int64_t flat[1] = {pairs[0] * 2 - 1};
        c = shape_case(AX_OP_REDUCE, dt, 1, flat); /* a full reduction: chunks */
        c.big = true;
        c.naxes = 1;
        if (ax_sample(t, frac)) run_both(t, g, c, false);
        if (d >= 4)
            continue;
        /* few lines, split along them where the ISA has the split kernels
         * (src/cumsum.c, src/reduce.c): one long line (a blocked scan),
         * [R, C] axis 0 (column tiles: rows of 2 to 16 KiB make 2 to 4 tiles
         * of at least AXIAL_TILE_LINES lines, the last one ending in a
         * partial 64-byte line) */
        const int64_t C = V * ax_rand_range(t, 32, 260) + ax_rand_range(t, 1, V - 1);
        const int64_t line[1] = {big + ax_rand_range(t, 1, 2 * V + 1)}, cols[2] = {big / C, C};
        c = shape_case(AX_OP_CUMSUM, dt, 1, line);
        c.big = true;
        c.flags = (unsigned)ax_rand_range(t, 0, 3);
        if (ax_sample(t, frac)) run_both(t, g, c, false);
        c = shape_case(AX_OP_CUMSUM, dt, 2, cols);
        c.big = true;
        c.flags = (unsigned)ax_rand_range(t, 0, 3);
        if (ax_sample(t, frac)) run_both(t, g, c, false);
        c = shape_case(AX_OP_REDUCE, dt, 2, cols);
        c.big = true;
        c.naxes = 1;
        if (ax_sample(t, frac)) run_both(t, g, c, false);
    }
    for (int s = 0; s < 4; s++) {
        const int64_t n = ((int64_t)4 << 20 >> s) + ax_rand_range(t, 1, (128 >> s) + 1);
        const int64_t row[1] = {n};
        gcase c = shape_case(AX_OP_ROLL, by_size[s], 1, row);
        c.big = true;
        c.naxes = 1;
        c.shift[0] = ax_rand_range(t, 1, n - 1);
        if (ax_sample(t, frac)) run_both(t, g, c, false);
        const int64_t rows[2] = {7, n / 7}; /* both axes: runs of rows and parts of rows */
        c = shape_case(AX_OP_ROLL, by_size[s], 2, rows);
        c.big = true;
        c.naxes = 2;
        c.axes[1] = 1;
        c.shift[0] = 3;
        c.shift[1] = ax_rand_range(t, 1, rows[1] - 1);
        if (ax_sample(t, frac)) run_both(t, g, c, false);
    }
}

/* Big calls of the log-space ops: the split paths of their planners (see the
 * top of the file), outputs or inputs of 4 MiB, through the pool. */
static void big_lse_cases(ax_t *t, guard_ctx *g) {
    const double frac = ax_scale() >= 1.0 ? 1.0 : 0.5;
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        const axial_dtype dt = ax_float_types[d];
        const int64_t es = (int64_t)ax_dtype_size(dt), V = 64 / es, big = ((int64_t)4 << 20) / es;
        const int64_t segs[2] = {big / 3 + ax_rand_range(t, 1, 2 * V + 1), 3};
        const int64_t pairs[2] = {big / 2 + ax_rand_range(t, 1, 2 * V + 1), 2};
        /* rows of 2 to 16 KiB: 2 to 4 column tiles, the last ending in a partial line */
        const int64_t C = V * ax_rand_range(t, 32, 260) + ax_rand_range(t, 1, V - 1);
        const int64_t line[1] = {big + ax_rand_range(t, 1, 2 * V + 1)}, cols[2] = {big / C, C};
        const int64_t flat[1] = {big + ax_rand_range(t, 1, 2 * V + 1)};
        const int64_t wide[3] = {2, big / 6 + ax_rand_range(t, 1, V), 3};
        gcase c = shape_case(AX_OP_LCSE, dt, 2, segs); /* groups of whole lines */
        c.big = true;
        c.axis = 1;
        c.flags = (unsigned)d % 4;
        if (ax_sample(t, frac)) run_both(t, g, c, false);
        c = shape_case(AX_OP_LCSE, dt, 1, line); /* one long line */
        c.big = true;
        c.flags = (unsigned)ax_rand_range(t, 0, 3);
        if (ax_sample(t, frac)) run_both(t, g, c, false);
        c = shape_case(AX_OP_LCSE, dt, 2, cols); /* [R, C] axis 0: column tiles */
        c.big = true;
        c.flags = (unsigned)ax_rand_range(t, 0, 3);
        if (ax_sample(t, frac)) run_both(t, g, c, false);
        c = shape_case(AX_OP_RLSE, dt, 2, cols); /* the same, reduced */
        c.big = true;
        c.naxes = 1;
        if (ax_sample(t, frac)) run_both(t, g, c, false);
        c = shape_case(AX_OP_RLSE, dt, 2, pairs); /* row groups */
        c.big = true;
        c.naxes = 1;
        c.axes[0] = 1;
        if (ax_sample(t, frac)) run_both(t, g, c, false);
        c.axes[0] = 0; /* [R, 2] axis 0: chunks of the reduced extent */
        if (ax_sample(t, frac)) run_both(t, g, c, false);
        c = shape_case(AX_OP_RLSE, dt, 1, flat); /* a full reduction: chunks */
        c.big = true;
        c.naxes = 1;
        if (ax_sample(t, frac)) run_both(t, g, c, false);
        c = shape_case(AX_OP_RLSE, dt, 3, wide); /* several groups: the wide states */
        c.big = true;
        c.naxes = 2;
        c.axes[1] = 2;
        if (ax_sample(t, frac)) run_both(t, g, c, false);
    }
}

/* The layouts of the sums for the log-space ops, the float dtypes. */
static void lse_cases(ax_t *t, guard_ctx *g) {
    scan_op = AX_OP_LCSE;
    reduce_op = AX_OP_RLSE;
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        const axial_dtype dt = ax_float_types[d];
        const int64_t V = 64 / (int64_t)ax_dtype_size(dt);
        for (int64_t L = 1; L <= 2 * V + 1; L++) sum_layouts(t, g, dt, L, V, ax_sample(t, 0.5));
        const int64_t bases[3] = {8 * V, 64 * V, 4096}, tails[3] = {1, V, 2 * V + 1};
        for (int b = 0; b < 3; b++) {
            if (b == 2 && bases[2] == bases[1]) continue;
            for (int k = 0; k < 3; k++) {
                if (!ax_sample(t, 0.5)) continue;
                const int64_t w = bases[b] + tails[k], col[2] = {3, w};
                cumsum_all_flags(t, g, dt, 2, col, 0);
                reduce_axes(t, g, dt, 2, col, 0, 0, 1);
            }
        }
    }
    scan_op = AX_OP_CUMSUM;
    reduce_op = AX_OP_REDUCE;
    if (t->isa != AXIAL_ISA_SCALAR) big_lse_cases(t, g);
}

static void guard_cases(ax_t *t, guard_ctx *g) {
    /* every summable dtype, L = 1 .. 2V+1 */
    for (size_t d = 0; d < AX_N_SUM_TYPES; d++) {
        const axial_dtype dt = ax_sum_types[d];
        const int64_t V = 64 / (int64_t)ax_dtype_size(dt);
        for (int64_t L = 1; L <= 2 * V + 1; L++) sum_layouts(t, g, dt, L, V, ax_sample(t, 1.0));
        /* columns past the register tiles */
        const int64_t bases[3] = {8 * V, 64 * V, 4096}, tails[5] = {1, V - 1, V, V + 1, 2 * V + 1};
        for (int b = 0; b < 3; b++) {
            if (b == 2 && bases[2] == bases[1]) continue;
            for (int k = 0; k < 5; k++) {
                if (!ax_sample(t, 1.0)) continue;
                const int64_t w = bases[b] + tails[k], col[2] = {3, w};
                cumsum_all_flags(t, g, dt, 2, col, 0);
                reduce_axes(t, g, dt, 2, col, 0, 0, 1);
            }
        }
    }
    /* roll, every element size */
    static const axial_dtype by_size[4][3] = {{AXIAL_U8, AXIAL_I8, AXIAL_BOOL},
                                              {AXIAL_I16, AXIAL_F16, AXIAL_U16},
                                              {AXIAL_F32, AXIAL_U32, AXIAL_I32},
                                              {AXIAL_I64, AXIAL_F64, AXIAL_U64}};
    for (int s = 0; s < 4; s++) {
        const int64_t es = (int64_t)1 << s, V = 64 / es;
        for (int64_t L = 1; L <= 2 * V + 1; L++) {
            const axial_dtype dt = by_size[s][L % 3];
            roll_row(t, g, dt, L);
            if (ax_sample(t, 1.0)) roll_row(t, g, dt, 4 * V + L);
            if (ax_sample(t, 1.0)) roll_row(t, g, dt, 16 * V + L);
        }
        const int64_t tails[5] = {1, V - 1, V, V + 1, 2 * V + 1};
        for (int k = 0; k < 5; k++)
            if (ax_sample(t, 1.0)) roll_row(t, g, by_size[s][k % 3], (16384 >> s) + tails[k]);
    }
    if (t->isa != AXIAL_ISA_SCALAR) big_cases(t, g);
    lse_cases(t, g);
}

/* Stream pushes and shard summaries and scans with every piece flush
 * against a guard (alternately at its end and at its start), input and
 * output: pieces of 1 .. 2V+1 elements along lines of 16384 + 3V (a chunk
 * boundary inside), and along columns; the outputs put together must be the
 * one call's bytes. */
static void stream_guard_cases(ax_t *t, guard_ctx *g) {
    static const axial_dtype dts[] = {AXIAL_F32, AXIAL_F64, AXIAL_F16, AXIAL_BF16, AXIAL_I8,
                                      AXIAL_I64};
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
        const axial_dtype dt = dts[d];
        const size_t es = ax_dtype_size(dt);
        const int64_t V = 64 / (int64_t)es;
        for (int layout = 0; layout < 2; layout++)
            for (unsigned flags = 0; flags < 4; flags++) {
                if (!ax_sample(t, 0.5)) continue; /* (qemu and valgrind sample a fraction) */
                const int64_t n = layout ? 3 * V + 5 : 16384 + 3 * V, cols = layout ? V + 3 : 1;
                const int64_t whole[2] = {n, cols};
                const size_t count = (size_t)(n * cols);
                ax_fill(t, dt, g->src, count, FILL_GENERAL);
                if (axial_cumsum(dt, g->src, g->want, 2, whole, 0, flags) != AXIAL_OK) continue;
                axial_stream *s = NULL;
                if (!AX_CHECK(t, axial_stream_create(AXIAL_OP_CUMSUM, dt, 2, whole, 0, flags, &s) ==
                                     AXIAL_OK, "stream_create: %s", axial_last_error()))
                    continue;
                unsigned char *got = malloc(count * es + 1);
                const bool rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
                int64_t done = 0, L = 1;
                bool at_end = true, ok = true;
                while (done < n) {
                    const int64_t len = n - done < L ? n - done : L;
                    const int64_t a = rev ? n - done - len : done; /* REVERSE: from the far end */
                    const size_t bytes = (size_t)(len * cols) * es;
                    unsigned char *px = place(&g->ax, bytes, at_end), *py = place(&g->ay, bytes, at_end);
                    memcpy(px, g->src + (size_t)(a * cols) * es, bytes);
                    const int64_t ps[2] = {len, cols};
                    snprintf(current, sizeof current, "stream push %s [%lld, %lld) of [%lld, %lld] flags %u %s",
                             ax_dtype_str(dt), (long long)a, (long long)(a + len), (long long)n,
                             (long long)cols, flags, at_end ? "at the end guard" : "at the start guard");
                    ok = ok && axial_stream_push(s, dt, px, py, 2, ps) == AXIAL_OK;
                    memcpy(got + (size_t)(a * cols) * es, py, bytes);
                    g->calls++;
                    done += len;
                    L = L % (2 * V + 1) + 1;
                    at_end = !at_end;
                }
                AX_CHECK(t, ok && memcmp(got, g->want, count * es) == 0,
                         "stream of %s [%lld, %lld] flags %u at the guards: %s", ax_dtype_str(dt),
                         (long long)n, (long long)cols, flags,
                         ok ? "not the one call's bytes" : axial_last_error());
                axial_stream_destroy(s);
                /* shards: two pieces on the grid (lines) or one (columns), at the guards */
                const int64_t axes[1] = {0};
                const axial_shards sh = {AXIAL_OP_CUMSUM, dt, 2, whole, axes, 1, flags};
                int64_t cut, grid;
                axial_shard_grid(&sh, &cut, &grid);
                const int64_t c1 = layout || grid != 16384 ? n : (rev ? n - 16384 : 16384);
                unsigned char sum[2][2048];
                size_t z[2] = {0, 0};
                const int64_t lo[2] = {0, c1}, hi[2] = {c1, n};
                for (int k = 0; k < 2; k++) { /* in scan order: REVERSE starts at the far piece */
                    const int i = rev ? 1 - k : k;
                    const size_t bytes = (size_t)((hi[i] - lo[i]) * cols) * es;
                    unsigned char *px = place(&g->ax, bytes, k == 0), *py = place(&g->ay, bytes, k == 0);
                    memcpy(px, g->src + (size_t)(lo[i] * cols) * es, bytes);
                    snprintf(current, sizeof current, "shard [%lld, %lld) of %s [%lld, %lld] flags %u",
                             (long long)lo[i], (long long)hi[i], ax_dtype_str(dt), (long long)n,
                             (long long)cols, flags);
                    axial_shard_summary_size(&sh, lo[i], hi[i] - lo[i], &z[k]);
                    AX_CHECK(t, z[k] <= sizeof sum[k] &&
                                axial_shard_summarize(&sh, px, lo[i], hi[i] - lo[i], sum[k], sizeof sum[k]) == AXIAL_OK &&
                                axial_shard_scan(&sh, px, py, lo[i], hi[i] - lo[i], k ? sum[0] : NULL, k ? z[0] : 0) == AXIAL_OK &&
                                memcmp(py, g->want + (size_t)(lo[i] * cols) * es, bytes) == 0,
                             "%s at the guards: %s", current, axial_last_error());
                    g->calls += 2;
                }
                free(got);
            }
    }
}

void t_guard_pages(ax_t *t) {
    guard_ctx g;
    memset(&g, 0, sizeof g);
    if (!arena_init(&g.ax, ARENA)) {
        ax_skip(t, "mmap/mprotect failed");
        return;
    }
    if (!arena_init(&g.ay, ARENA)) {
        arena_free(&g.ax);
        ax_skip(t, "mmap/mprotect failed");
        return;
    }
    g.src = malloc(ARENA);
    g.want = malloc(ARENA + 8);
    axial_pool *pool = NULL;
    if (!AX_CHECK(t, axial_pool_create(3, &pool) == AXIAL_OK, "axial_pool_create(3): %s",
                  axial_last_error()))
        pool = NULL;
    guard_exec = axial_pool_executor(pool);
    ax_fault_watch("# guard_pages: fault outside the tensors in ", current);
    guard_cases(t, &g);
    stream_guard_cases(t, &g);
    ax_fault_unwatch();
    guard_exec = NULL;
    axial_pool_destroy(pool);
    ax_note(t, "%ld calls", g.calls);
    free(g.src);
    free(g.want);
    arena_free(&g.ax);
    arena_free(&g.ay);
}

/* ---- the guard works ---------------------------------------------------------- */

enum probe { TOUCH_ONLY, READ_AFTER, WRITE_AFTER, READ_BEFORE, WRITE_BEFORE };
static const char *const probe_names[] = {"only the tensor", "read one byte past the end",
                                          "write one byte past the end",
                                          "read one byte before the start",
                                          "write one byte before the start"};

/* A child touches every byte of a tensor of `bytes` placed at a guard, says
 * so through the pipe, then does `probe`; returns the wait status (-1 when
 * fork failed). */
static int probe_child(const arena *a, size_t bytes, enum probe probe, bool *reached) {
    const bool at_end = probe == READ_AFTER || probe == WRITE_AFTER || probe == TOUCH_ONLY;
    volatile unsigned char *p = place(a, bytes, at_end);
    int fd[2];
    if (pipe(fd) != 0) return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core); /* the crash is expected: no core file */
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        const int devnull = open("/dev/null", O_WRONLY); /* qemu-user reports the crash there */
        if (devnull >= 0) dup2(devnull, 2);
        close(fd[0]);
        unsigned char s = 0;
        for (size_t i = 0; i < bytes; i++) {
            s = (unsigned char)(s + p[i]);
            p[i] = s;
        }
        if (write(fd[1], "k", 1) != 1) _exit(3);
        switch (probe) {
        case READ_AFTER: s = (unsigned char)(s + p[bytes]); break;
        case WRITE_AFTER: p[bytes] = s; break;
        case READ_BEFORE: s = (unsigned char)(s + p[-1]); break;
        case WRITE_BEFORE: p[-1] = s; break;
        default: break;
        }
        (void)s;
        _exit(0); /* reached: the guard did not fault */
    }
    close(fd[1]);
    char k = 0;
    *reached = read(fd[0], &k, 1) == 1 && k == 'k';
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

/* macOS reports some PROT_NONE accesses as SIGBUS */
#if defined(__APPLE__)
#define AX_BUS(status) (WTERMSIG(status) == SIGBUS)
#else
#define AX_BUS(status) 0
#endif

void t_guard_selftest(ax_t *t) {
    arena a;
    if (!arena_init(&a, 3 * 4096)) {
        ax_skip(t, "mmap/mprotect failed");
        return;
    }
    static const size_t sizes[] = {1, 63, 64, 4095, 4096, 4097};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes && !t->skipped; s++)
        for (int pr = TOUCH_ONLY; pr <= WRITE_BEFORE; pr++) {
            bool reached = false;
            int status = probe_child(&a, sizes[s], (enum probe)pr, &reached);
            if (status == -1) {
                ax_skip(t, "fork/pipe failed: %s", strerror(errno));
                break;
            }
            AX_CHECK(t, reached, "%zu-byte tensor, %s: the child died before its probe "
                     "(status 0x%x)", sizes[s], probe_names[pr], (unsigned)status);
            if (pr == TOUCH_ONLY)
                AX_CHECK(t, WIFEXITED(status) && WEXITSTATUS(status) == 0,
                         "%zu-byte tensor, %s: the child did not exit 0 (status 0x%x)",
                         sizes[s], probe_names[pr], (unsigned)status);
            else
                AX_CHECK(t, WIFSIGNALED(status) && (WTERMSIG(status) == SIGSEGV || AX_BUS(status)),
                         "%zu-byte tensor, %s: the child %s %d, not of SIGSEGV", sizes[s],
                         probe_names[pr], WIFSIGNALED(status) ? "died of signal" : "exited",
                         WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        }
    arena_free(&a);
}

#else

void t_guard_pages(ax_t *t) { ax_skip(t, "no mmap/mprotect on this platform"); }
void t_guard_selftest(ax_t *t) { ax_skip(t, "no fork/mmap on this platform"); }

#endif
