/* SPDX-License-Identifier: MIT */
/*
 * Scalar reference CumSum for every summable dtype: the oracle and the fallback.
 *
 * Shape (outer, n, inner): for each o and i, a running sum over j = 0..n-1
 * (or n-1..0 with AXIAL_CUMSUM_REVERSE).  Inclusive: add, then store;
 * exclusive: store, then add (the first output is 0).
 *
 * Order of summation: sequential along the axis, one accumulator per (o, i),
 * so every output is the plain running sum; except that a float line (inner
 * == 1) is cut, from its scan start, into chunks of AXIAL_SCAN_CHUNK (16384)
 * elements, as the SIMD order's: the chunk's running sum starts from the
 * carry R of the chunks before it, and R grows by the chunk's own sum from
 * -0.0 (R_0 = -0.0, R_{h+1} = R_h + S_h).  So a line has a grid where it can
 * be cut into shards summarised apart (docs/API.md, "Streams and shards");
 * the bound below is unchanged (every output is still an f64 sum rounded
 * once).
 * Numerics: floats (f32, f16, bf16, f64) accumulate in double and are rounded
 * once per output (RNE), so for f32/f16/bf16 the error of output j is at most
 * u_out*|S_j| + (j-1)*2^-53*sum|x| <= (1 + j*2^-29) * 2^-24 * sum|x|: c <= 2 for
 * any j <= 2^29 (see docs/API.md, Accuracy).  f64 is a plain double running sum.
 * Integers accumulate in the unsigned type of their width and wrap.
 * This file is built with -ffp-contract=off: no FMA, plain IEEE additions.
 *
 * Columns (inner > 1) are walked in blocks of AXIAL_SCAN_BLOCK accumulators, so
 * every row of x and y is read and written in order, with unit stride.
 * In place (y == x) is safe: each element is read before it is written.
 */
#include "scalar.h"

#define AXIAL_SCAN_BLOCK 64

/* A float line in chunks (above): one pass, D the running sum, S the chunk's. */
#define AXIAL_SCALAR_LINE(T, LOAD, STORE)                                                 \
    do {                                                                                 \
        double R = -0.0;                                                                 \
        for (size_t h = 0; h < n; h += AXIAL_SCAN_CHUNK) {                               \
            const size_t hend = n - h < AXIAL_SCAN_CHUNK ? n : h + AXIAL_SCAN_CHUNK;     \
            double D = R, S = -0.0;                                                      \
            for (size_t t = h; t < hend; t++) {                                          \
                const size_t j = o * n + (reverse ? n - 1 - t : t);                      \
                const double v = LOAD(x[j]);                                             \
                if (exclusive) {                                                         \
                    y[j] = STORE(t ? D : 0.0); /* empty: +0 */                           \
                    D += v;                                                              \
                } else {                                                                 \
                    D += v;                                                              \
                    y[j] = STORE(D);                                                     \
                }                                                                        \
                S += v;                                                                  \
            }                                                                            \
            R += S;                                                                      \
        }                                                                                \
    } while (0)

#define AXIAL_DEFINE_CUMSUM(name, DT, T, A, W, LOAD, STORE)                                    \
    void axial_cumsum_##name##__scalar(const void *xv, void *yv, size_t outer, size_t n, \
                                       size_t inner, unsigned flags) {                   \
        const T *x = (const T *)xv;                                                      \
        T *y = (T *)yv;                                                                  \
        const int exclusive = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;                     \
        const int reverse = (flags & AXIAL_CUMSUM_REVERSE) != 0;                         \
        for (size_t o = 0; o < outer; o++) {                                             \
            if (inner == 1 && (DT == AXIAL_F32 || DT == AXIAL_F64 || DT == AXIAL_F16 ||  \
                               DT == AXIAL_BF16)) {                                      \
                AXIAL_SCALAR_LINE(T, LOAD, STORE);                                       \
                continue;                                                                \
            }                                                                            \
            for (size_t i0 = 0; i0 < inner; i0 += AXIAL_SCAN_BLOCK) {                    \
                const size_t nb = inner - i0 < AXIAL_SCAN_BLOCK ? inner - i0             \
                                                                : AXIAL_SCAN_BLOCK;      \
                A acc[AXIAL_SCAN_BLOCK];                                                 \
                for (size_t b = 0; b < nb; b++)                                          \
                    acc[b] = AXIAL_SUM_START(A);                                         \
                for (size_t t = 0; t < n; t++) {                                         \
                    const size_t j = reverse ? n - 1 - t : t;                            \
                    const size_t base = (o * n + j) * inner + i0;                        \
                    for (size_t b = 0; b < nb; b++) {                                    \
                        const A v = LOAD(x[base + b]);                                   \
                        if (exclusive) {                                                 \
                            y[base + b] = STORE(t ? acc[b] : (A)0); /* empty: +0 */     \
                            acc[b] = (A)(acc[b] + v);                                    \
                        } else {                                                         \
                            acc[b] = (A)(acc[b] + v);                                    \
                            y[base + b] = STORE(acc[b]);                                 \
                        }                                                                \
                    }                                                                    \
                }                                                                        \
            }                                                                            \
        }                                                                                \
    }
AXIAL_SCALAR_TYPES(AXIAL_DEFINE_CUMSUM)
