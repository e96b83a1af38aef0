/* SPDX-License-Identifier: MIT */
/*
 * Scalar CumSum for every summable dtype: the reference the other ISAs are
 * tested against, and the fallback.  Plain loops, one term at a time, written
 * to be obviously correct rather than fast.
 *
 * Shape (outer, n, inner): for each o and i, a running sum over j = 0..n-1
 * (or n-1..0 with AXIAL_CUMSUM_REVERSE).  Inclusive: add, then store;
 * exclusive: store, then add (the first output is +0).
 *
 * Order: sequential, one accumulator per line or column.  The scalar ISA is
 * the sequential reference, outside the SIMD kernels' one summation order
 * (docs/API.md section 7, "One summation order"), except for that order's
 * chunk grid: a float line (inner == 1) is cut, from its scan start, into
 * chunks of AXIAL_SCAN_CHUNK elements, each scanned from the carry R of the
 * chunks before it (R_0 = -0.0, R_{h+1} = R_h + S_h, S_h the chunk's own sum
 * from -0.0), so that a line cut on that grid into shards (docs/API.md
 * section 16) gives the one call's bits.  Floats accumulate in double (f32,
 * f16, bf16 rounded once per output, to nearest even): the error of output j
 * is at most u_out*|S_j| + (j-1)*2^-53*sum|x|, so c <= 2 in the bound of
 * docs/API.md for j <= 2^29.  Integers add in the unsigned type of their
 * width and wrap.  Built with -ffp-contract=off: no FMA.
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
