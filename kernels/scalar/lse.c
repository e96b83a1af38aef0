/* SPDX-License-Identifier: MIT */
/*
 * Scalar LogCumSumExp and ReduceLogSumExp for the float dtypes: the reference the other ISAs are tested
 * against, and the fallback; plain loops, one term at a time.  Each output keeps a state (m, s) (kernels.h,
 * axial_lse_acc): the value m + log(s), m the largest term so far, s the sum of exp(term - m); a term v: v >
 * m: s = s exp(m - v) + 1, m = v; else s += exp(v - m). Order: sequential along the axis (from the far end
 * with REVERSE), one state per line or column, no chunks: the log-space ops share only the bound across ISAs
 * (docs/API.md section 15).  Special values come first: a NaN term makes the state NaN for good, else +inf
 * makes it +inf, -inf terms are skipped, the first finite term sets m.  The value is rounded once. Precision:
 * a double state (long double for F64) with libm's exp and log; each exp term in (0, 1], s in [1, n]: for
 * f32/f16/bf16 the double value errs by less than 2^-50 (|y| + ln n) for n < 2^30; for f64 the x86-64 long
 * double gives 2^-60 (|y| + n), and where long double is double (or quad) the bound's n term still holds.  No
 * FMA (-ffp-contract=off). reduce_lse_acc adds each term v as the state (v, 1) with axial_lse_add (F64 too);
 * reduce_lse_finish rounds axial_lse_value().
 */
#include <math.h>

#include "scalar.h"

/* name, T, state type A, exp, log, LOAD (T -> double), STORE (double -> T) */
#define AXIAL_LSE_TYPES(X)                                                                  \
    X(f32, float, double, exp, log, AXIAL_F32_TO_D, AXIAL_TO_F32)                           \
    X(f64, double, long double, expl, logl, AXIAL_ID, AXIAL_ID)                              \
    X(f16, uint16_t, double, exp, log, axial_f16_to_double, axial_double_to_f16)            \
    X(bf16, uint16_t, double, exp, log, axial_bf16_to_double, axial_double_to_bf16)

#define AXIAL_LSE_BLOCK 64

/* mode: 0 inclusive scan, 1 exclusive scan, 2 reduce (the value after the last term); one copy for the three
 * (GCC would clone it for the reduce's constants) */
#define AXIAL_DEFINE_LSE(name, T, A, EXP, LOG, LOAD, STORE)                                   \
    AXIAL_NOCLONE void axial_lse_lines_##name(const T *x, T *y, size_t outer, size_t n,     \
                                              size_t inner, int mode, int reverse) {        \
        for (size_t o = 0; o < outer; o++) {                                                \
            for (size_t i0 = 0; i0 < inner; i0 += AXIAL_LSE_BLOCK) {                        \
                const size_t nb = inner - i0 < AXIAL_LSE_BLOCK ? inner - i0 : AXIAL_LSE_BLOCK; \
                A m[AXIAL_LSE_BLOCK], s[AXIAL_LSE_BLOCK];                                   \
                for (size_t b = 0; b < nb; b++)                                             \
                    m[b] = -(A)INFINITY, s[b] = 0;                                          \
                for (size_t t = 0; t < n; t++) {                                            \
                    const size_t j = reverse ? n - 1 - t : t;                               \
                    const size_t base = (o * n + j) * inner + i0;                           \
                    for (size_t b = 0; b < nb; b++) {                                       \
                        const A v = (A)LOAD(x[base + b]);                                   \
                        if (mode == 1)                                                      \
                            y[base + b] = STORE(AXIAL_LSE_VALUE(m[b], s[b], LOG));          \
                        AXIAL_LSE_STEP(A, EXP, m[b], s[b], v);                              \
                        if (mode == 0)                                                      \
                            y[base + b] = STORE(AXIAL_LSE_VALUE(m[b], s[b], LOG));          \
                    }                                                                       \
                }                                                                           \
                for (size_t b = 0; mode == 2 && b < nb; b++)                                \
                    y[o * inner + i0 + b] = STORE(AXIAL_LSE_VALUE(m[b], s[b], LOG));        \
            }                                                                               \
        }                                                                                   \
    }                                                                                       \
    void axial_logcumsumexp_##name##__scalar(const void *x, void *y, size_t outer,          \
                                             size_t n, size_t inner, unsigned flags) {      \
        axial_lse_lines_##name((const T *)x, (T *)y, outer, n, inner,                       \
                               (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0,                       \
                               (flags & AXIAL_CUMSUM_REVERSE) != 0);                        \
    }                                                                                       \
    void axial_reduce_lse_##name##__scalar(const void *x, void *y, size_t outer, size_t n,  \
                                           size_t inner, unsigned flags) {                  \
        (void)flags;                                                                        \
        axial_lse_lines_##name((const T *)x, (T *)y, outer, n, inner, 2, 0);                \
    }                                                                                       \
                                                                                            \
    void axial_reduce_lse_acc_##name##__scalar(const void *xv, void *accv, size_t outer,    \
                                               size_t n, size_t inner) {                    \
        const T *x = (const T *)xv;                                                         \
        axial_lse_acc *acc = (axial_lse_acc *)accv;                                         \
        for (size_t o = 0; o < outer; o++)                                                  \
            for (size_t j = 0; j < n; j++)                                                  \
                for (size_t i = 0; i < inner; i++) {                                        \
                    /* a term v is the state (v, 1) */                                      \
                    axial_lse_add(&acc[o * inner + i],                                      \
                                  (double)LOAD(x[(o * n + j) * inner + i]), 1.0);            \
                }                                                                           \
    }                                                                                       \
                                                                                            \
    void axial_reduce_lse_finish_##name##__scalar(const void *accv, void *yv, size_t count) { \
        const axial_lse_acc *acc = (const axial_lse_acc *)accv;                             \
        T *y = (T *)yv;                                                                     \
        for (size_t k = 0; k < count; k++)                                                  \
            y[k] = STORE(axial_lse_value(acc[k]));                                          \
    }
AXIAL_LSE_TYPES(AXIAL_DEFINE_LSE)
