/* SPDX-License-Identifier: MIT */
/*
 * Scalar CumSum for every summable dtype: the reference the other ISAs are tested against, and the fallback;
 * plain loops, one term at a time, obviously correct rather than fast.  Over (outer, n, inner), a running sum
 * along j (from n-1 with AXIAL_CUMSUM_REVERSE); inclusive adds then stores, exclusive stores then adds (the
 * first output +0). Order: sequential, one accumulator per line or column, outside the SIMD kernels' one
 * summation order (docs/API.md section 7) but for its chunk grid: a float line is cut from its scan start into
 * chunks of AXIAL_SCAN_CHUNK, each scanned from the carry R of those before (R_0 = -0.0, R_{h+1} = R_h + S_h,
 * S_h the chunk's own sum from -0.0), so that shards on that grid (docs/API.md section 16) give the one call's
 * bits. Floats add in double, rounded once per output to nearest even: output j errs by at most u_out|S_j| +
 * (j-1) 2^-53 sum|x| (c <= 2 in docs/API.md's bound for j <= 2^29).  Integers add in their unsigned type and
 * wrap.  No FMA (-ffp-contract=off).  Columns go AXIAL_SCAN_BLOCK accumulators at a time, so rows are read and
 * written in order; in place (y == x) is safe.
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
