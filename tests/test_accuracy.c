/* SPDX-License-Identifier: MIT */
/*
 * test_accuracy.c: the accuracy contract (docs/API.md, section 7) on general data.
 *
 * Inputs are k * 2^-24 (f32: |k| < 2^24) or k * 2^-40 (f64), so the exact
 * sums and prefixes are representable in long double (64-bit significand on
 * x86-64, 113 on aarch64) for every length used here; each output is
 * compared with that exact value.
 *   - ReduceSum f32 of 2^20 values in [0, 1): within 1 ulp of the exactly
 *     rounded sum (the measured target, at 2^20 so it also runs under qemu;
 *     *_spec_target run it at the target's 2^24);
 *   - every CumSum f32 prefix of the same data: relative error <= 2.5e-7;
 *   - signed data, strided axes, f32 and f64, both ops: |error| <=
 *     0.5 ulp(result) + C * eps * sum|x| with C = AX_ERR_C (the bound;
 *     docs/API.md, section 7, says why it holds);
 *   - cumsum of 2^24 + 4096 f32 ones ends at 2^24 + 4096 (a plain f32
 *     running sum sticks at 2^24);
 *   - cumsum of 4096 f16 / bf16 ones: every output is the once-rounded prefix;
 *   - at the targets' sizes (t_*_spec_target, t_cumsum_f32_ones_2p28): the same
 *     targets on 2^24 values, and cumsum of 2^28 ones in place ends at 2^28.
 *     AXIAL_TEST_BIG=0 (qemu runs) reports them as skipped.
 * Each target test notes the measured value (ax_note) on every ISA.
 * General data on every kernel shape: test_tolerance.c.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "oracle.h"
#include "tests.h"

#define AX_ERR_C 4.0L

/* ulp of the float nearest v */
static long double ulp_f32(long double v) {
    float f = (float)fabsl(v);
    return (long double)nextafterf(f, INFINITY) - (long double)f;
}

static float *uniform_f32(ax_t *t, size_t n, bool sign) {
    float *x = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++) {
        int64_t k = ax_rand_range(t, sign ? -(1 << 24) + 1 : 0, (1 << 24) - 1);
        x[i] = (float)ldexp((double)k, -24);
    }
    return x;
}

/* The ReduceSum target on n uniform [0, 1) f32 values: within 1 ulp of
 * the exactly rounded sum.  Returns x for more use (caller frees). */
static float *reduce_uniform(ax_t *t, size_t n, const char *label) {
    float *x = uniform_f32(t, n, false);
    long double exact = 0;
    for (size_t i = 0; i < n; i++) exact += x[i]; /* exact: multiples of 2^-24 below 2^24 */
    float y = -1;
    const int64_t shape[1] = {(int64_t)n}, ax[1] = {0};
    axial_status st = axial_reduce_sum(AXIAL_F32, x, &y, 1, shape, ax, 1, 0);
    long double err = fabsl((long double)y - (long double)(float)exact);
    AX_CHECK(t, st == AXIAL_OK && err <= ulp_f32(exact),
             "%s uniform f32: sum %.9g, exactly rounded %.9g, %Lg ulp apart", label, (double)y,
             (double)(float)exact, err / ulp_f32(exact));
    ax_note(t, "reduce_sum of %s uniform [0,1) f32: %Lg ulp from the exactly rounded sum "
            "(target <= 1)", label, err / ulp_f32(exact));
    return x;
}

/* The CumSum target on n uniform [0, 1) f32 values: every output within
 * relative error 2.5e-7 of the exact prefix. */
static void cumsum_uniform(ax_t *t, size_t n, const char *label) {
    float *x = uniform_f32(t, n, false), *y = malloc(n * sizeof *y);
    const int64_t shape[1] = {(int64_t)n};
    axial_status st = axial_cumsum(AXIAL_F32, x, y, 1, shape, 0, 0);
    AX_CHECK(t, st == AXIAL_OK, "cumsum f32 %s: %s", label, axial_status_name(st));
    long double exact = 0, worst = 0;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        exact += x[i];
        if (exact == 0) continue;
        long double rel = fabsl((long double)y[i] - exact) / exact;
        if (rel > worst) worst = rel, at = i;
    }
    AX_CHECK(t, worst <= 2.5e-7L, "cumsum f32 %s uniform: relative error %Lg at %zu > 2.5e-7",
             label, worst, at);
    ax_note(t, "cumsum of %s uniform [0,1) f32: worst relative error %.3Lg at %zu "
            "(target <= 2.5e-7)", label, worst, at);
    free(y);
    free(x);
}

void t_reduce_f32_accuracy(ax_t *t) {
    axial_status st;
    float *x = reduce_uniform(t, (size_t)1 << 20, "2^20");

    /* signed data over strided and contiguous axes, f32 and f64 */
    const int64_t m = 3, len = 40000;
    float *xs = uniform_f32(t, (size_t)(m * len), true);
    const int64_t rows[2] = {m, len}, cols[2] = {len, m}, a0[1] = {0}, a1[1] = {1};
    float yo[3];
    for (int layout = 0; layout < 2; layout++) {
        st = axial_reduce_sum(AXIAL_F32, xs, yo, 2, layout ? cols : rows, layout ? a0 : a1, 1, 0);
        AX_CHECK(t, st == AXIAL_OK, "signed f32 layout %d: %s", layout, axial_status_name(st));
        for (int64_t r = 0; r < m; r++) {
            long double ex = 0, mag = 0;
            for (int64_t j = 0; j < len; j++) {
                float v = layout ? xs[j * m + r] : xs[r * len + j];
                ex += v;
                mag += fabsl((long double)v);
            }
            long double bound = 0.5L * ulp_f32(ex) + AX_ERR_C * ldexpl(mag, -24);
            long double e = fabsl((long double)yo[r] - ex);
            AX_CHECK(t, e <= bound, "signed f32 sum layout %d row %lld: error %Lg > bound %Lg",
                     layout, (long long)r, e, bound);
        }
    }
    double *xd = malloc((size_t)(m * len) * sizeof *xd), yd[3];
    for (int64_t i = 0; i < m * len; i++)
        xd[i] = ldexp((double)ax_rand_range(t, -((int64_t)1 << 40) + 1, ((int64_t)1 << 40) - 1), -40);
    for (int layout = 0; layout < 2; layout++) {
        st = axial_reduce_sum(AXIAL_F64, xd, yd, 2, layout ? cols : rows, layout ? a0 : a1, 1, 0);
        for (int64_t r = 0; r < m; r++) {
            long double ex = 0, mag = 0;
            for (int64_t j = 0; j < len; j++) {
                double v = layout ? xd[j * m + r] : xd[r * len + j];
                ex += v;
                mag += fabsl((long double)v);
            }
            long double bound = ldexpl(fabsl(ex), -53) + AX_ERR_C * ldexpl(mag, -53);
            long double e = fabsl((long double)yd[r] - ex);
            AX_CHECK(t, st == AXIAL_OK && e <= bound,
                     "signed f64 sum layout %d row %lld: error %Lg > bound %Lg", layout,
                     (long long)r, e, bound);
        }
    }
    free(xd);
    free(xs);
    free(x);
}

void t_cumsum_f32_accuracy(ax_t *t) {
    axial_status st;
    cumsum_uniform(t, (size_t)1 << 20, "2^20");

    /* signed data along a strided axis, both directions, f32 and f64 */
    const int64_t m = 3, len = 30000, cols[2] = {len, m};
    float *xs = uniform_f32(t, (size_t)(m * len), true), *ys = malloc((size_t)(m * len) * 4);
    for (unsigned flags = 0; flags < 4; flags++) {
        st = axial_cumsum(AXIAL_F32, xs, ys, 2, cols, 0, flags);
        AX_CHECK(t, st == AXIAL_OK, "signed f32 cumsum flags %u: %s", flags, axial_status_name(st));
        for (int64_t r = 0; r < m; r++) {
            long double ex = 0, mag = 0;
            int bad = 0;
            for (int64_t s = 0; s < len && !bad; s++) {
                int64_t j = (flags & 2) ? len - 1 - s : s;
                if (flags & 1) { /* exclusive: the output before adding */
                    long double bound = 0.5L * ulp_f32(ex) + AX_ERR_C * ldexpl(mag, -24);
                    bad = fabsl((long double)ys[j * m + r] - ex) > bound;
                }
                ex += xs[j * m + r];
                mag += fabsl((long double)xs[j * m + r]);
                if (!(flags & 1)) {
                    long double bound = 0.5L * ulp_f32(ex) + AX_ERR_C * ldexpl(mag, -24);
                    bad = fabsl((long double)ys[j * m + r] - ex) > bound;
                }
                if (bad)
                    AX_CHECK(t, false, "signed f32 cumsum flags %u column %lld step %lld: "
                             "%.9g vs exact %.12Lg (sum|x| %Lg)", flags, (long long)r,
                             (long long)s, (double)ys[j * m + r], ex, mag);
            }
            AX_CHECK(t, !bad, "signed f32 cumsum flags %u column %lld", flags, (long long)r);
        }
    }
    free(ys);
    free(xs);
}

void t_cumsum_f32_ones_past_2p24(ax_t *t) {
    size_t n = ((size_t)1 << 24) + 4096;
    float *y = malloc(n * sizeof *y);
    for (size_t i = 0; i < n; i++) y[i] = 1.0f;
    const int64_t shape[1] = {(int64_t)n};
    axial_status st = axial_cumsum(AXIAL_F32, y, y, 1, shape, 0, 0); /* in place */
    AX_CHECK(t, st == AXIAL_OK, "status %s", axial_status_name(st));
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (y[i] != (float)(int64_t)(i + 1)) bad = i;
    AX_CHECK(t, bad == n, "cumsum of 2^24+4096 ones: y[%zu] = %.9g, want %.9g", bad,
             bad < n ? (double)y[bad] : 0.0, (double)(float)(int64_t)(bad + 1));
    AX_CHECK(t, y[n - 1] == 16781312.0f, "last = %.9g, want 16781312", (double)y[n - 1]);
    free(y);
}

void t_cumsum_f16_ones(ax_t *t) {
    enum { N = 4096 };
    static const axial_dtype types[2] = {AXIAL_F16, AXIAL_BF16};
    static const uint16_t one[2] = {0x3c00, 0x3f80}, last[2] = {0x6c00, 0x4580};
    uint16_t *x = malloc(N * 2), *y = malloc(N * 2);
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < N; i++) x[i] = one[k];
        const int64_t shape[1] = {N};
        axial_status st = axial_cumsum(types[k], x, y, 1, shape, 0, 0);
        AX_CHECK(t, st == AXIAL_OK, "%s: %s", ax_dtype_str(types[k]), axial_status_name(st));
        int bad = -1;
        for (int i = 0; i < N && bad < 0; i++) {
            uint16_t want = k ? or_round_bf16(i + 1) : or_round_f16(i + 1);
            if (y[i] != want) bad = i;
        }
        AX_CHECK(t, bad < 0, "%s cumsum of ones: y[%d] = 0x%04x, want 0x%04x",
                 ax_dtype_str(types[k]), bad, bad >= 0 ? y[bad] : 0,
                 bad >= 0 ? (k ? or_round_bf16(bad + 1) : or_round_f16(bad + 1)) : 0);
        AX_CHECK(t, y[N - 1] == last[k], "%s: last = 0x%04x, want 0x%04x (4096)",
                 ax_dtype_str(types[k]), y[N - 1], last[k]);
    }
    free(x);
    free(y);
}

/* ---- the measured targets at full size (docs/API.md, section 7) -------------------- */

/* AXIAL_TEST_BIG=0 (qemu runs): reported as skipped, never as passed. */
static bool big_or_skip(ax_t *t) {
    if (!ax_big())
        ax_skip(t, "AXIAL_TEST_BIG=0: full-size accuracy target not run here");
    return ax_big();
}

void t_reduce_f32_spec_target(ax_t *t) {
    if (big_or_skip(t)) free(reduce_uniform(t, (size_t)1 << 24, "2^24"));
}

void t_cumsum_f32_spec_target(ax_t *t) {
    if (big_or_skip(t)) cumsum_uniform(t, (size_t)1 << 24, "2^24");
}

/* cumsum of 2^28 f32 ones, in place (1 GiB), ends at exactly 2^28; every
 * output within the bound 0.5 ulp + 4 * 2^-24 * (i + 1) of i + 1. */
void t_cumsum_f32_ones_2p28(ax_t *t) {
    if (!big_or_skip(t)) return;
    const size_t n = (size_t)1 << 28;
    float *y = malloc(n * sizeof *y);
    if (!y) {
        ax_skip(t, "cannot allocate the 1 GiB this test needs");
        return;
    }
    for (size_t i = 0; i < n; i++) y[i] = 1.0f;
    const int64_t shape[1] = {(int64_t)n};
    axial_status st = axial_cumsum(AXIAL_F32, y, y, 1, shape, 0, 0);
    AX_CHECK(t, st == AXIAL_OK, "status %s", axial_status_name(st));
    size_t off = 0, bad = n; /* outputs not exactly rounded; the first out of bound */
    for (size_t i = 0; i < n; i++) {
        double exact = (double)(i + 1);
        if (y[i] == (float)exact) continue;
        off++;
        double bound = 0.5 * (double)ulp_f32(exact) + 4.0 * 0x1p-24 * exact;
        if (bad == n && !(fabs((double)y[i] - exact) <= bound)) bad = i;
    }
    AX_CHECK(t, bad == n, "cumsum of 2^28 ones: y[%zu] = %.9g, exact %.9g, out of bound", bad,
             bad < n ? (double)y[bad] : 0.0, (double)(bad + 1));
    AX_CHECK(t, y[n - 1] == 268435456.0f, "last = %.9g, want 2^28 = 268435456",
             (double)y[n - 1]);
    ax_note(t, "cumsum of 2^28 f32 ones: last %.9g (target 268435456), %zu outputs not "
            "exactly rounded", (double)y[n - 1], off);
    free(y);
}
