/* SPDX-License-Identifier: MIT */
/*
 * Scalar Roll: rotate each of `outer` contiguous rows of n elements right by `shift` (0 <= shift < n): y[o][(j
 * + shift) mod n] = x[o][j].  The reference the other ISAs are tested against, and the fallback: two plain
 * loops per row, the part that moves right without wrapping, then the part that wraps to the front.
 *
 * Roll only moves bytes, so there is no summation order and every ISA gives the same bits; kernels are per
 * element size (b1, b2, b4, b8) and serve every dtype, BOOL included.  x and y never overlap here (the planner
 * copies in-place rolls through a buffer).
 */
#include "scalar.h"

#define AXIAL_DEFINE_ROLL(bytes, T)                                                    \
    void axial_roll_b##bytes##__scalar(const void *xv, void *yv, size_t outer, size_t n, \
                                       size_t shift, unsigned flags) {                  \
        (void)flags; /* never streams */                                                \
        const T *x = (const T *)xv;                                                     \
        T *y = (T *)yv;                                                                 \
        for (size_t o = 0; o < outer; o++) {                                            \
            const T *xr = x + o * n;                                                    \
            T *yr = y + o * n;                                                          \
            for (size_t j = 0; j < n - shift; j++)                                      \
                yr[j + shift] = xr[j];                                                  \
            for (size_t j = n - shift; j < n; j++)                                      \
                yr[j + shift - n] = xr[j];                                              \
        }                                                                               \
    }
AXIAL_DEFINE_ROLL(1, uint8_t)
AXIAL_DEFINE_ROLL(2, uint16_t)
AXIAL_DEFINE_ROLL(4, uint32_t)
AXIAL_DEFINE_ROLL(8, uint64_t)
