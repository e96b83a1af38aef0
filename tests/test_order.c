/* SPDX-License-Identifier: MIT */
/*
 * test_order.c: every SIMD ISA's float CumSum and ReduceSum kernels give
 * exactly the bits of the one summation order (tests/order_ref.c), on random
 * kernel shapes that cover every path of the definition: lines shorter and
 * longer than a block and a scan chunk, rows and columns of ReduceSum with
 * inner below and above 16 (the periodic and the column orders), exclusive
 * and reverse, the split kernels (segments from a carry, chunk totals,
 * strided column tiles).  Values span many binades, so that a different
 * order almost surely gives different bits.  On the scalar ISA (which sums
 * sequentially and does not follow the order) the reference itself is
 * checked against the exact sum with the documented bound.
 *
 * White-box: calls the kernel table of the selected ISA directly.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "internal.h"
#include "kernels.h"
#include "oracle.h"
#include "order_ref.h"
#include "tests.h"

static const axial_dtype float_dtypes[] = {AXIAL_F32, AXIAL_F64, AXIAL_F16, AXIAL_BF16};

/* A value with a random sign and exponent in [-e, e] and a random mantissa,
 * representable in dt; now and then a special value when `specials`. */
static void fill(ax_t *t, axial_dtype dt, void *x, size_t count, int e, bool specials) {
    for (size_t k = 0; k < count; k++) {
        long double v = ldexpl((long double)(ax_rand(t) >> 11) / 9007199254740992.0L,
                               (int)ax_rand_range(t, -e, e));
        if (ax_rand(t) & 1)
            v = -v;
        if (specials && ax_rand_range(t, 0, 999) == 0) {
            const long double sp[] = {INFINITY, -INFINITY, NAN, -0.0L, 0.0L};
            v = sp[ax_rand_range(t, 0, 4)];
        }
        or_set_f(dt, x, k, v); /* rounds to dt */
    }
}

static bool same_all(ax_t *t, axial_dtype dt, const void *a, const void *b, size_t count,
                     const char *what) {
    for (size_t k = 0; k < count; k++) {
        if (!or_same(dt, a, k, b, k)) {
            char s1[96], s2[96];
            return AX_CHECK(t, false, "%s %s: element %zu is %s, the order gives %s", what,
                            ax_dtype_str(dt), k, or_str(s1, sizeof s1, dt, a, k),
                            or_str(s2, sizeof s2, dt, b, k));
        }
    }
    return AX_CHECK(t, true, "%s", what);
}

static size_t pick_n(ax_t *t) {
    switch (ax_rand_range(t, 0, 5)) {
    case 0: return (size_t)ax_rand_range(t, 1, 17);
    case 1: return (size_t)ax_rand_range(t, 1, 70);
    case 2: return (size_t)ax_rand_range(t, 60, 300);
    case 3: return (size_t)ax_rand_range(t, 1000, 3000);
    case 4: return 16 * (size_t)ax_rand_range(t, 1, 64) + (size_t)ax_rand_range(t, 0, 2);
    default: return AXIAL_SCAN_CHUNK * (size_t)ax_rand_range(t, 1, 2) +
                    (size_t)ax_rand_range(t, 0, 40) - 20;
    }
}

static size_t pick_inner(ax_t *t) {
    switch (ax_rand_range(t, 0, 3)) {
    case 0: return 1;
    case 1: return (size_t)ax_rand_range(t, 2, 15);
    case 2: return (size_t)ax_rand_range(t, 16, 40);
    default: return (size_t)ax_rand_range(t, 41, 300);
    }
}

/* The SIMD ISA's kernels against the reference. */
static void order_simd(ax_t *t) {
    const struct axial_kernels *kt = axial__kernels();
    const double scale = ax_scale();
    const int cases = (int)(60 * scale) + 8;
    for (size_t d = 0; d < 4; d++) {
        const axial_dtype dt = float_dtypes[d];
        const size_t es = ax_dtype_size(dt);
        const bool have_split = kt->cumsum_seg[dt] && kt->scan_total[dt] && kt->cumsum_cols[dt] &&
                                kt->reduce_cols[dt];
        if (!AX_CHECK(t, have_split, "%s: the split kernels (cumsum_seg, scan_total, "
                                     "cumsum_cols, reduce_cols) are missing", ax_dtype_str(dt)))
            continue;
        for (int c = 0; c < cases && t->fails == 0; c++) {
            size_t n = pick_n(t), inner = pick_inner(t);
            /* Mostly a few outer slices; now and then many, so that the kernels'
             * loops over 4 or 8 rows (or lines) per step run whole. */
            size_t outer = (size_t)(c % 3 == 2 ? ax_rand_range(t, 4, 41) : ax_rand_range(t, 1, 3));
            while (outer * n * inner > ((size_t)1 << 18) && n > 1)
                n /= 2;
            const size_t count = outer * n * inner;
            const int e = dt == AXIAL_F16 ? 6 : dt == AXIAL_BF16 ? 30 : 40;
            void *x = malloc(count * es), *y = malloc(count * es), *r = malloc(count * es);
            double *acc = malloc(outer * inner * sizeof *acc),
                   *racc = malloc(outer * inner * sizeof *racc);
            fill(t, dt, x, count, e, c % 5 == 4);
            char what[160];
            const unsigned flags = (unsigned)ax_rand_range(t, 0, 3);

            snprintf(what, sizeof what, "cumsum(outer=%zu,n=%zu,inner=%zu,flags=%u)", outer, n,
                     inner, flags);
            kt->cumsum[dt](x, y, outer, n, inner, flags);
            ax_ref_cumsum(dt, x, r, outer, n, inner, flags);
            same_all(t, dt, y, r, count, what);
            memcpy(y, x, count * es); /* in place */
            kt->cumsum[dt](y, y, outer, n, inner, flags);
            snprintf(what, sizeof what, "in-place cumsum(outer=%zu,n=%zu,inner=%zu,flags=%u)",
                     outer, n, inner, flags);
            same_all(t, dt, y, r, count, what);

            snprintf(what, sizeof what, "reduce(outer=%zu,n=%zu,inner=%zu)", outer, n, inner);
            kt->reduce[dt](x, y, outer, n, inner, 0);
            ax_ref_reduce(dt, x, r, outer, n, inner);
            same_all(t, dt, y, r, outer * inner, what);

            for (size_t k = 0; k < outer * inner; k++)
                acc[k] = racc[k] = ldexp((double)(ax_rand(t) >> 11), -50) - 1.0;
            kt->reduce_acc[dt](x, acc, outer, n, inner);
            ax_ref_reduce_acc(dt, x, racc, outer, n, inner);
            snprintf(what, sizeof what, "reduce_acc(outer=%zu,n=%zu,inner=%zu)", outer, n, inner);
            same_all(t, AXIAL_F64, acc, racc, outer * inner, what);

            /* Split kernels: a column tile at an offset, with the row stride. */
            if (inner > 1) {
                const size_t c0 = (size_t)ax_rand_range(t, 0, (int64_t)inner - 1);
                const size_t w = (size_t)ax_rand_range(t, 1, (int64_t)(inner - c0));
                memcpy(y, x, count * es);
                memcpy(r, x, count * es);
                kt->cumsum_cols[dt]((const char *)x + c0 * es, (char *)y + c0 * es, n, w, inner,
                                    flags);
                ax_ref_cumsum_cols(dt, (const char *)x + c0 * es, (char *)r + c0 * es, n, w,
                                   inner, flags);
                snprintf(what, sizeof what, "cumsum_cols(n=%zu,ncols=%zu,stride=%zu,flags=%u)",
                         n, w, inner, flags);
                same_all(t, dt, y, r, n * inner, what);
                for (size_t k = 0; k < w; k++)
                    acc[k] = racc[k] = -0.0;
                kt->reduce_cols[dt]((const char *)x + c0 * es, acc, n, w, inner);
                ax_ref_reduce_cols(dt, (const char *)x + c0 * es, racc, n, w, inner);
                snprintf(what, sizeof what, "reduce_cols(n=%zu,ncols=%zu,stride=%zu)", n, w,
                         inner);
                same_all(t, AXIAL_F64, acc, racc, w, what);
            } else {
                /* A segment of the line from a carry, and a chunk total. */
                const size_t len = n * outer;
                const double carry = ldexp((double)(ax_rand(t) >> 11), -40) - 4096.0;
                const unsigned f = flags | (c & 1 ? AXIAL_SCAN_CONTINUE : 0u);
                kt->cumsum_seg[dt](x, y, len, f, carry);
                ax_ref_cumsum_seg(dt, x, r, len, f, carry);
                snprintf(what, sizeof what, "cumsum_seg(len=%zu,flags=0x%x,carry=%a)", len, f,
                         carry);
                same_all(t, dt, y, r, len, what);
                /* Whole chunks: the carry after them (the split's next group
                 * starts from it), as the reference and as the chunk totals
                 * added in order. */
                const size_t lc = len / AXIAL_SCAN_CHUNK * AXIAL_SCAN_CHUNK;
                if (lc > 0) {
                    const double c1 = kt->cumsum_seg[dt](x, y, lc, f, carry);
                    const double c2 = ax_ref_cumsum_seg(dt, x, r, lc, f, carry);
                    double c3 = carry;
                    for (size_t h = 0; h < lc; h += AXIAL_SCAN_CHUNK)
                        c3 += kt->scan_total[dt](
                            (const char *)x + (flags & AXIAL_CUMSUM_REVERSE ? lc - h - AXIAL_SCAN_CHUNK : h) * es,
                            AXIAL_SCAN_CHUNK, flags);
                    snprintf(what, sizeof what, "cumsum_seg(len=%zu,flags=0x%x) carry out", lc, f);
                    same_all(t, AXIAL_F64, &c1, &c2, 1, what);
                    same_all(t, AXIAL_F64, &c1, &c3, 1, what);
                }
                const size_t tl = len / 16 * 16 < AXIAL_SCAN_CHUNK ? len / 16 * 16
                                                                  : AXIAL_SCAN_CHUNK;
                if (tl > 0) {
                    const double s1 = kt->scan_total[dt](x, tl, flags);
                    const double s2 = ax_ref_scan_total(dt, x, tl, flags);
                    snprintf(what, sizeof what, "scan_total(len=%zu,flags=%u)", tl, flags);
                    same_all(t, AXIAL_F64, &s1, &s2, 1, what);
                }
            }
            free(x);
            free(y);
            free(r);
            free(acc);
            free(racc);
        }
    }
}

/* The scalar ISA: the reference's sums meet the bound |err| <= c u sum|x| +
 * half an ulp, c = 8 (the order's constants are at most 6, docs/API.md);
 * f64 sums in f64, so its bound also has n u sum|x|. */
static void order_reference_bound(ax_t *t) {
    for (size_t d = 0; d < 4; d++) {
        const axial_dtype dt = float_dtypes[d];
        const size_t es = ax_dtype_size(dt);
        const long double u = dt == AXIAL_F64 ? ldexpl(1, -53) : ldexpl(1, -24);
        for (int c = 0; c < ax_iters(20); c++) {
            const size_t n = pick_n(t), inner = pick_inner(t);
            const size_t count = n * inner;
            void *x = malloc(count * es), *y = malloc(count * es);
            fill(t, dt, x, count, dt == AXIAL_F16 ? 4 : 20, false);
            const unsigned flags = (unsigned)ax_rand_range(t, 0, 3);
            ax_ref_cumsum(dt, x, y, 1, n, inner, flags);
            size_t worst = 0;
            long double worst_ratio = 0;
            for (size_t col = 0; col < inner; col++) {
                long double s = 0, m = 0;
                for (size_t tt = 0; tt < n; tt++) {
                    const size_t j = flags & AXIAL_CUMSUM_REVERSE ? n - 1 - tt : tt;
                    const long double v = or_get_f(dt, x, j * inner + col);
                    if (!(flags & AXIAL_CUMSUM_EXCLUSIVE)) {
                        s += v;
                        m += fabsl(v);
                    }
                    const long double out = or_get_f(dt, y, j * inner + col);
                    long double ulp = fabsl(s) * (dt == AXIAL_F16 ? ldexpl(1, -10)
                                                  : dt == AXIAL_BF16 ? ldexpl(1, -7)
                                                                     : 2 * u);
                    if (dt == AXIAL_F16 && ulp < ldexpl(1, -24))
                        ulp = ldexpl(1, -24);
                    const long double bound = (8 + (dt == AXIAL_F64 ? (long double)n : 0)) * u * m + ulp + 1e-300L;
                    const long double ratio = fabsl(out - s) / bound;
                    if (ratio > worst_ratio) {
                        worst_ratio = ratio;
                        worst = j * inner + col;
                    }
                    if (flags & AXIAL_CUMSUM_EXCLUSIVE) {
                        s += v;
                        m += fabsl(v);
                    }
                }
            }
            AX_CHECK(t, worst_ratio <= 1, "reference cumsum %s n=%zu inner=%zu flags=%u: "
                     "element %zu errs by %.3Lg of the bound", ax_dtype_str(dt), n, inner, flags,
                     worst, worst_ratio);
            ax_ref_reduce(dt, x, y, 1, n, inner);
            worst_ratio = 0;
            for (size_t col = 0; col < inner; col++) {
                long double s = 0, m = 0;
                for (size_t j = 0; j < n; j++) {
                    const long double v = or_get_f(dt, x, j * inner + col);
                    s += v;
                    m += fabsl(v);
                }
                const long double out = or_get_f(dt, y, col);
                long double ulp = fabsl(s) * (dt == AXIAL_F16 ? ldexpl(1, -10)
                                              : dt == AXIAL_BF16 ? ldexpl(1, -7)
                                                                 : 2 * u);
                if (dt == AXIAL_F16 && ulp < ldexpl(1, -24))
                    ulp = ldexpl(1, -24);
                const long double ratio =
                fabsl(out - s) / ((8 + (dt == AXIAL_F64 ? (long double)n : 0)) * u * m + ulp + 1e-300L);
                if (ratio > worst_ratio)
                    worst_ratio = ratio;
            }
            AX_CHECK(t, worst_ratio <= 1, "reference reduce %s n=%zu inner=%zu: errs by %.3Lg "
                     "of the bound", ax_dtype_str(dt), n, inner, worst_ratio);
            free(x);
            free(y);
        }
    }
}

void t_order_kernels(ax_t *t) {
    if (t->isa == AXIAL_ISA_SCALAR)
        order_reference_bound(t);
    else
        order_simd(t);
}
