/* SPDX-License-Identifier: MIT */
/*
 * Scalar ReduceSum for every summable dtype: the reference the other ISAs are tested against, and the
 * fallback; plain loops, one term at a time. reduce: y[o][i] = sum_j x[o][j][i]; reduce_acc: acc[o][i] += it
 * (the 8-byte accumulator of kernels.h); reduce_finish: y[k] = acc[k] rounded. Order: sequential over j, one
 * accumulator per output, outside the SIMD kernels' one summation order (docs/API.md section 7).  Floats add
 * in double and round once per output to nearest even: the f32/f16/bf16 error is at most u_out|S| + (n-1)
 * 2^-53 sum|x| (c <= 2 for n <= 2^29), also across the planner's reduce_acc calls, whose partial sums stay in
 * double.  Integers wrap: reduce in their unsigned type, reduce_acc in uint64_t (the same low bits). No FMA
 * (-ffp-contract=off).  Columns go AXIAL_REDUCE_BLOCK accumulators at a time, so x is read row by row.
 */
#include "scalar.h"

#define AXIAL_REDUCE_BLOCK 64

#define AXIAL_DEFINE_REDUCE(name, DT, T, A, W, LOAD, STORE)                                        \
    void axial_reduce_##name##__scalar(const void *xv, void *yv, size_t outer, size_t n,      \
                                       size_t inner, unsigned flags) {                        \
        (void)flags; /* stores plainly: AXIAL_KERNEL_STREAM changes nothing here */           \
        const T *x = (const T *)xv;                                                           \
        T *y = (T *)yv;                                                                       \
        for (size_t o = 0; o < outer; o++) {                                                  \
            for (size_t i0 = 0; i0 < inner; i0 += AXIAL_REDUCE_BLOCK) {                       \
                const size_t nb = inner - i0 < AXIAL_REDUCE_BLOCK ? inner - i0                \
                                                                  : AXIAL_REDUCE_BLOCK;       \
                A acc[AXIAL_REDUCE_BLOCK];                                                    \
                for (size_t b = 0; b < nb; b++)                                               \
                    acc[b] = AXIAL_SUM_START(A);                                              \
                for (size_t j = 0; j < n; j++) {                                              \
                    const T *row = x + (o * n + j) * inner + i0;                              \
                    for (size_t b = 0; b < nb; b++)                                           \
                        acc[b] = (A)(acc[b] + LOAD(row[b]));                                  \
                }                                                                             \
                for (size_t b = 0; b < nb; b++)                                               \
                    y[o * inner + i0 + b] = STORE(acc[b]);                                    \
            }                                                                                 \
        }                                                                                     \
    }                                                                                         \
                                                                                              \
    void axial_reduce_acc_##name##__scalar(const void *xv, void *accv, size_t outer, size_t n, \
                                           size_t inner) {                                    \
        const T *x = (const T *)xv;                                                           \
        W *acc = (W *)accv;                                                                   \
        for (size_t o = 0; o < outer; o++)                                                    \
            for (size_t j = 0; j < n; j++)                                                    \
                for (size_t i = 0; i < inner; i++)                                            \
                    acc[o * inner + i] += (W)LOAD(x[(o * n + j) * inner + i]);                \
    }                                                                                         \
                                                                                              \
    void axial_reduce_finish_##name##__scalar(const void *accv, void *yv, size_t count) {     \
        const W *acc = (const W *)accv;                                                       \
        T *y = (T *)yv;                                                                       \
        for (size_t k = 0; k < count; k++)                                                    \
            y[k] = STORE((A)acc[k]);                                                          \
    }
AXIAL_SCALAR_TYPES(AXIAL_DEFINE_REDUCE)
