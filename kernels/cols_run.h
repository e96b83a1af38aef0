/* SPDX-License-Identifier: MIT */
/*
 * cols_run.h: the body of cumsum_cols_run (kernels.h) for f32 and f64 in
 * plain C, the scalar ISA's (src/order.c; the SIMD ISAs' is ops/cumsum.h's).
 *
 * Order (docs/API.md, "One summation order", inner > 1): each column on its
 * own, sequentially in f64 from the carry acc[c] (a stream's running sum),
 * each output rounded once; exclusive writes the sum before the row (+0.0
 * on the first row of a line, unless AXIAL_SCAN_CONTINUE).  Vectors run
 * across columns, never along one, so the bits are the order's on every
 * ISA; there is no multiplication, so nothing can contract.  In place is
 * fine: each element is read before its output is written.
 */
#ifndef AXIAL_COLS_RUN_H
#define AXIAL_COLS_RUN_H

#define AXIAL_COLS_RUN_BODY(T)                                                            \
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;                              \
    const int rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;                                 \
    const int first = (flags & AXIAL_SCAN_CONTINUE) == 0;                                \
    for (size_t t = 0; t < n; t++) {                                                     \
        const size_t r = (rev ? n - 1 - t : t) * stride;                                 \
        const int zero = excl && t == 0 && first; /* the empty sum: +0.0 */              \
        for (size_t i = 0; i < ncols; i++) {                                             \
            const double before = acc[i];                                                \
            acc[i] += (double)((const T *)x)[r + i];                                     \
            ((T *)y)[r + i] = zero ? (T)0 : (T)(excl ? before : acc[i]);                 \
        }                                                                                \
    }

#endif /* AXIAL_COLS_RUN_H */
