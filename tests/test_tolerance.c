/* SPDX-License-Identifier: MIT */
/*
 * test_tolerance.c: the float kernels on general data (random signs,
 * significands and exponents over a wide range, and uniform [0, 1)), on the
 * kernel shapes of cases.c (rows, short rows, columns, 3-D reductions, scans
 * with every flag) and on long axes; every output against the error bound of
 * docs/API.md (section 7) around the oracle's exact value.
 *
 * Notation: an output is the sum of m terms x_i; S is its exact value (the
 * oracle's long-double sum), M = sum |x_i|, u = 2^-24, ulp_F(S) the spacing
 * of the output format F at |S| (subnormal spacing below the normal range).
 *
 * The reference.  The oracle sums in long double (64-bit significand on
 * x86-64, 113 on aarch64).  For the f16, bf16 and uniform [0, 1) data here
 * every partial sum fits, so S is exact; for general f32 data on the longest
 * axes and for f64 it may not, and the reference then errs by at most
 * m * LDBL_EPSILON * M.  That term, `ref` below, is added to every bound (it
 * is 2^-39 of the f32 bound and 2^-10 of the f64 bound on x86-64).
 *
 * A lemma for the final rounding.  If a kernel's unrounded result s has
 * |s - S| <= d and y = RN_F(s), then |y - S| <= 0.5 ulp_F(S) + 1.5 d.
 * (y is the nearest format value to s, so |y - s| <= |RN_F(S) - s| <=
 * 0.5 ulp_F(S) + d, whence 0.5 ulp_F(S) + 2d; the sharper 1.5 d: within one
 * binade |y - s| <= 0.5 ulp_F(S) directly, and when s crosses up into the
 * next binade 2^k > |S|, either y = 2^k (|y - S| <= d) or |s| > 2^k + ulp_F(S),
 * so d > ulp_F(S) and |y - S| <= d + ulp_F(S) < 0.5 ulp_F(S) + 1.5 d.)
 *
 * f32.  The contract: |y - S| <= c u M with a constant c that docs/API.md (section 7)
 * derives: c <= 4 for ReduceSum and c <= 7 for CumSum (scalar:
 * sums in f64, c <= 2; SIMD: each term passes a few f32 roundings in trees or
 * block scans, each costing at most u times the sum of |x| below it, then the
 * blocks combine in f64 at m * 2^-53 M, then one rounding to f32).  The test
 * allows
 *     |y - S| <= 0.5 ulp_f32(S) + C u M + ref,   C = 4 (ReduceSum), 6 (CumSum),
 * i.e. the contract's bound with the final rounding on top (0.5 ulp(S) <= u |S|
 * <= u M, so at most c = 5 and c = 7 in the plain form).
 *
 * f16 / bf16.  The contract: widened exactly to f32, accumulated in f32 (or better)
 * with the f32 bound above, then rounded once to the format: the
 * accumulated f32 value s has d <= (C + 1) u M (C u M for the summation,
 * u M for its own rounding to f32), and the lemma gives
 *     |y - S| <= 0.5 ulp_F(S) + 1.5 (C + 1) u M + ref.
 * (The ulp term dominates: ulp_F is 2^13 (f16) or 2^16 (bf16) times u
 * relative, so this mostly checks the single rounding; a double rounding
 * through a wrong intermediate is off by up to a whole ulp_F.)
 *
 * f64.  The contract does not bound it (plain f64 sums, several accumulators
 * allowed).  Every evaluation of a sum of m terms as a tree of m - 1 f64
 * additions -- sequential, k accumulators ((m/k + log2 k) levels), pairwise,
 * a SIMD scan with a carry -- errs by at most gamma_{m-1} M <= m 2^-53 M
 * (m < 2^26), so
 *     |y - S| <= 0.5 ulp_f64(S) + m 2^-53 M + ref.
 * It rejects what is not such a tree: a reverse scan as total - prefix, an
 * exclusive one as inclusive - x, lost or repeated terms.
 *
 * f32 drift.  A plain f32 running sum (what numpy does) breaks the f32 bound
 * on uniform [0, 1) data once m is a few thousand (its error grows like
 * m^1.5 u M / m): the long rows and columns below (up to 10^5 terms) catch
 * it.  Each test notes its worst error as a fraction of the bound.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "harness.h"
#include "oracle.h"
#include "tests.h"

/* C per op (docs/API.md, "Accuracy of the float sums"): ReduceSum c = 4 with
 * the final rounding on top; CumSum c = 7 in the plain form along the
 * innermost axis (5 f32 roundings in a block, the carry's rounding to f32,
 * the final addition), i.e. C = 6 with the rounding on top.  Set by each test. */
static long double ax_err_c = 4.0L;
#define AX_ERR_C ax_err_c

/* The spacing of format dt at |v|. */
static long double ulp_fmt(axial_dtype dt, long double v) {
    const int p = ax_dtype_fmt(dt).p, emin = ax_dtype_fmt(dt).emin;
    static long double pow2[2400]; /* 2^(k - 1200), filled once: ldexpl is slow */
    if (pow2[0] == 0)
        for (int k = 0; k < 2400; k++) pow2[k] = ldexpl(1.0L, k - 1200);
    long double a = fabsl(v);
    int e = a == 0 ? emin : ilogbl(a);
    return pow2[(e < emin ? emin : e) - p + 1 + 1200];
}

#define AX_U 5.9604644775390625e-8L       /* 2^-24 */
#define AX_U64 1.1102230246251565404e-16L /* 2^-53 */

static long double err_bound(axial_dtype dt, long double exact, long double mag, size_t terms) {
    long double ref = (long double)terms * LDBL_EPSILON * mag;
    long double half_ulp = 0.5L * ulp_fmt(dt, exact);
    switch (dt) {
    case AXIAL_F32: return half_ulp + AX_ERR_C * AX_U * mag + ref;
    case AXIAL_F64: return half_ulp + (long double)terms * AX_U64 * mag + ref;
    default: return half_ulp + 1.5L * (AX_ERR_C + 1) * AX_U * mag + ref;
    }
}

/* The worst error / bound seen by the current test (noted at its end). */
static struct {
    double ratio;
    char what[400];
} worst;

/* Every output within its bound; the first failure per call is reported. */
static void tol_compare(ax_t *t, axial_dtype dt, const void *got, const long double *exact,
                        const long double *mag, const size_t *terms, size_t all_terms,
                        size_t count, const char *what) {
    for (size_t k = 0; k < count; k++) {
        long double y = or_get_f(dt, got, k);
        size_t m = terms ? terms[k] : all_terms;
        long double bound = err_bound(dt, exact[k], mag[k], m);
        long double err = fabsl(y - exact[k]);
        if (!(err <= bound)) { /* NaN too */
            AX_CHECK(t, false,
                     "%s: element %zu of %zu is %.17Lg, exact %.21Lg: error %.3Lg > bound %.3Lg "
                     "(%zu terms, sum|x| %.6Lg)",
                     what, k, count, y, exact[k], err, bound, m, mag[k]);
            return;
        }
        double r = bound > 0 ? (double)(err / bound) : 0.0;
        if (r > worst.ratio) {
            worst.ratio = r;
            snprintf(worst.what, sizeof worst.what, "%s, element %zu", what, k);
        }
    }
    AX_CHECK(t, true, "%s", what);
}

void ax_tol_cumsum(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape,
                       int64_t axis, unsigned flags, enum fill mode, bool inplace) {
    ax_err_c = 6.0L; /* CumSum's constant (also when test_selftest.c calls it) */
    size_t count = or_count(rank, shape);
    io_case io;
    io_begin(t, &io, dt, count, count, mode, inplace);
    long double *exact = malloc(count * sizeof *exact), *mag = malloc(count * sizeof *mag);
    size_t *terms = malloc(count * sizeof *terms);
    size_t norm = (size_t)(axis < 0 ? axis + (int64_t)rank : axis);
    or_cumsum_exact(dt, io.x.p, exact, mag, terms, rank, shape, norm, flags & 1, flags & 2);
    io_ready(&io);
    char sh[160], what[320];
    snprintf(what, sizeof what, "cumsum %s %s axis %lld flags %u%s (misalign %zu/%zu)",
             ax_dtype_str(dt), ax_shape_str(sh, sizeof sh, rank, shape), (long long)axis,
             flags, inplace ? " in place" : "", io.x.misalign, io.y.misalign);
    axial_status st = axial_cumsum(dt, io.src, io.y.p, rank, shape, axis, flags);
    if (io_called(t, &io, st, what))
        tol_compare(t, dt, io.y.p, exact, mag, terms, 0, count, what);
    free(exact);
    free(mag);
    free(terms);
    io_free(&io);
}

static void tol_reduce(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape,
                       const int64_t *axes, size_t naxes, unsigned flags, enum fill mode) {
    size_t count = or_count(rank, shape), orank;
    bool keep = flags & AXIAL_REDUCE_KEEP_DIMS, all = flags & AXIAL_REDUCE_EMPTY_AXES_ALL;
    int64_t oshape[AXIAL_MAX_RANK];
    or_reduce(dt, NULL, NULL, rank, shape, axes, naxes, keep, all, &orank, oshape);
    size_t ocount = or_count(orank, oshape);
    io_case io;
    io_begin(t, &io, dt, count, ocount, mode, false);
    long double *exact = malloc((ocount + 1) * sizeof *exact);
    long double *mag = malloc((ocount + 1) * sizeof *mag);
    size_t terms = or_reduce_exact(dt, io.x.p, exact, mag, rank, shape, axes, naxes, keep, all,
                                   &orank, oshape);
    char sh[160], ax[160], what[400];
    snprintf(what, sizeof what, "reduce_sum %s %s axes %s flags %u", ax_dtype_str(dt),
             ax_shape_str(sh, sizeof sh, rank, shape), ax_shape_str(ax, sizeof ax, naxes, axes),
             flags);
    io_ready(&io);
    axial_status st = axial_reduce_sum(dt, io.x.p, io.y.p, rank, shape, axes, naxes, flags);
    if (io_called(t, &io, st, what))
        tol_compare(t, dt, io.y.p, exact, mag, NULL, terms, ocount, what);
    free(exact);
    free(mag);
    io_free(&io);
}

static void note_worst(ax_t *t, const char *op, axial_dtype dt) {
    if (worst.ratio > 0)
        ax_note(t, "%s %s: worst error %.3f of the bound (%s)", op, ax_dtype_str(dt),
                worst.ratio, worst.what);
    worst.ratio = 0;
}

/* Long axes: f16 stays under 4097 terms (the data are below 8, so no sum
 * reaches f16's 65504). */
static int64_t cap_len(axial_dtype dt, int64_t n) {
    return dt == AXIAL_F16 && n > 4096 ? 4096 : n;
}

static const enum fill tol_modes[2] = {FILL_GENERAL, FILL_UNIFORM01};

void t_cumsum_tolerance(ax_t *t) {
    static const int64_t longs[] = {4097, 30011, 100003};
    static const int64_t widths[] = {1, 3, 8, 17, 64};
    worst.ratio = 0;
    ax_err_c = 6.0L;
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        axial_dtype dt = ax_float_types[d];
        for (int m = 0; m < 2; m++) {
            cumsum_rows(t, dt, tol_modes[m], ax_tol_cumsum, 0.1, FLAGS_ONE);
            cumsum_short_rows(t, dt, tol_modes[m], ax_tol_cumsum, 0.05, FLAGS_ONE);
            cumsum_columns(t, dt, tol_modes[m], ax_tol_cumsum, 0.1, FLAGS_ONE);
            for (unsigned flags = 0; flags < 4; flags++) {
                for (size_t l = 0; l < sizeof longs / sizeof *longs; l++) {
                    int64_t row[2] = {2, cap_len(dt, longs[l])};
                    if (ax_sample(t, 0.5))
                        ax_tol_cumsum(t, dt, 1, row + 1, 0, flags, tol_modes[m], flags == 1);
                }
                int64_t w = widths[ax_rand(t) % 5], col[2] = {cap_len(dt, 20000), w};
                int64_t mid[3] = {2, cap_len(dt, 5000), w};
                if (ax_sample(t, 0.5)) ax_tol_cumsum(t, dt, 2, col, 0, flags, tol_modes[m], false);
                if (ax_sample(t, 0.5)) ax_tol_cumsum(t, dt, 3, mid, 1, flags, tol_modes[m], false);
            }
        }
        note_worst(t, "cumsum", dt);
    }
}

void t_reduce_tolerance(ax_t *t) {
    ax_err_c = 4.0L;
    static const int64_t longs[] = {4097, 100003, 1000003};
    static const int64_t widths[] = {1, 2, 4, 16, 33};
    worst.ratio = 0;
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        axial_dtype dt = ax_float_types[d];
        for (int m = 0; m < 2; m++) {
            reduce_rows(t, dt, tol_modes[m], tol_reduce, 0.2);
            reduce_short_rows(t, dt, tol_modes[m], tol_reduce, 0.1);
            reduce_columns(t, dt, tol_modes[m], tol_reduce, 0.2);
            reduce_3d(t, dt, tol_modes[m], tol_reduce, 0.05);
            const int64_t a0[1] = {0}, a02[2] = {0, 2}, a1[1] = {1};
            for (size_t l = 0; l < sizeof longs / sizeof *longs; l++) {
                int64_t row[2] = {2, cap_len(dt, longs[l])};
                if (ax_sample(t, 1.0)) tol_reduce(t, dt, 1, row + 1, a0, 1, 0, tol_modes[m]);
                if (longs[l] < 200000 && ax_sample(t, 1.0))
                    tol_reduce(t, dt, 2, row, a1, 1, 0, tol_modes[m]);
            }
            for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
                int64_t col[2] = {cap_len(dt, 30000), widths[w]};
                if (ax_sample(t, 1.0)) tol_reduce(t, dt, 2, col, a0, 1, 0, tol_modes[m]);
            }
            int64_t cube[3] = {64, 3, cap_len(dt, 257)};
            if (ax_sample(t, 1.0)) tol_reduce(t, dt, 3, cube, a02, 2, 0, tol_modes[m]);
        }
        note_worst(t, "reduce_sum", dt);
    }
}
