/*
 * kernels.h: the kernel signatures, one typedef per op family, and the
 * per-ISA tables.
 *
 * The planner (src/) reduces every N-D call to contiguous shapes:
 *   scan      (outer, n, inner): y[o][j][i] = sum of x[o][0..j][i]  (flags: exclusive/reverse)
 *   reduce    (outer, n, inner): y[o][i]    = sum over j of x[o][j][i]
 *   reduce_acc(outer, n, inner): acc[o][i] += sum over j of x[o][j][i]   (wide accumulator)
 *   reduce_finish(count):        y[k] = acc[k] rounded to the element type
 *   roll      (outer, n, shift): y[o][(j + shift) mod n] = x[o][j]       (0 <= shift < n)
 * so a kernel loops over its shape itself: no indirect call per row, and no
 * N-D logic in any kernel.  Kernels trust their arguments (all checking is in
 * src/): n >= 1, outer and inner >= 1, pointers valid for the whole shape.
 *
 * The wide accumulator of reduce_acc / reduce_finish is 8 bytes per output:
 * double for the float types (F32, F64, F16, BF16), uint64_t for the integer
 * types (the low bits of a wrapping uint64_t sum are the wrapped sum).
 *
 * A scan may be called in place (y == x): a kernel reads x[o][j][i] before
 * it writes y[o][j][i] and never reads an element after writing it.
 */
#ifndef AXIAL_KERNELS_H
#define AXIAL_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "axial.h"

#define AXIAL_NDTYPE 14 /* dtype enum values are 1..13; slot 0 is unused */
#define AXIAL_NROLL 4   /* roll kernels by element size: 1, 2, 4, 8 bytes */

typedef void (*axial_cumsum_fn)(const void *x, void *y, size_t outer, size_t n,
                                size_t inner, unsigned flags);
typedef void (*axial_reduce_fn)(const void *x, void *y, size_t outer, size_t n,
                                size_t inner);
typedef void (*axial_reduce_acc_fn)(const void *x, void *acc, size_t outer, size_t n,
                                    size_t inner);
typedef void (*axial_reduce_finish_fn)(const void *acc, void *y, size_t count);
typedef void (*axial_roll_fn)(const void *x, void *y, size_t outer, size_t n,
                              size_t shift);

/*
 * One table per ISA.  An ISA's table may leave entries NULL: dispatch starts
 * from the scalar table and overrides only the entries an ISA provides.
 */
struct axial_kernels {
    axial_cumsum_fn cumsum[AXIAL_NDTYPE];
    axial_reduce_fn reduce[AXIAL_NDTYPE];
    axial_reduce_acc_fn reduce_acc[AXIAL_NDTYPE];
    axial_reduce_finish_fn reduce_finish[AXIAL_NDTYPE];
    axial_roll_fn roll[AXIAL_NROLL]; /* index log2(element size) */
};

extern const struct axial_kernels axial_kernels__scalar;
#ifdef AXIAL_HAVE_AVX2
extern const struct axial_kernels axial_kernels__avx2;
#endif
#ifdef AXIAL_HAVE_AVX512
extern const struct axial_kernels axial_kernels__avx512;
#endif
#ifdef AXIAL_HAVE_NEON
extern const struct axial_kernels axial_kernels__neon;
#endif

#endif /* AXIAL_KERNELS_H */
