/* SPDX-License-Identifier: MIT */
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
#include <string.h>

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

/* The summable dtypes (all but BOOL), as X(name, DTYPE, arg): the SIMD
 * folders declare and tabulate their kernels with it. */
#define AXIAL_SUM_DTYPES(X, arg)                                               \
    X(f32, AXIAL_F32, arg) X(f64, AXIAL_F64, arg) X(f16, AXIAL_F16, arg)       \
    X(bf16, AXIAL_BF16, arg) X(i8, AXIAL_I8, arg) X(u8, AXIAL_U8, arg)         \
    X(i16, AXIAL_I16, arg) X(u16, AXIAL_U16, arg) X(i32, AXIAL_I32, arg)       \
    X(u32, AXIAL_U32, arg) X(i64, AXIAL_I64, arg) X(u64, AXIAL_U64, arg)

/* Declarations of one ISA's kernels: axial_<op>_<dtype>__<isa>. */
#define AXIAL_DECLARE_SUM_KERNELS(name, DT, isa)                                         \
    void axial_cumsum_##name##__##isa(const void *x, void *y, size_t outer, size_t n,   \
                                      size_t inner, unsigned flags);                    \
    void axial_reduce_##name##__##isa(const void *x, void *y, size_t outer, size_t n,   \
                                      size_t inner);                                    \
    void axial_reduce_acc_##name##__##isa(const void *x, void *acc, size_t outer,       \
                                          size_t n, size_t inner);                      \
    void axial_reduce_finish_##name##__##isa(const void *acc, void *y, size_t count);
#define AXIAL_DECLARE_ISA_KERNELS(isa)                                                   \
    AXIAL_SUM_DTYPES(AXIAL_DECLARE_SUM_KERNELS, isa)                                     \
    void axial_roll_b1__##isa(const void *x, void *y, size_t outer, size_t n, size_t s); \
    void axial_roll_b2__##isa(const void *x, void *y, size_t outer, size_t n, size_t s); \
    void axial_roll_b4__##isa(const void *x, void *y, size_t outer, size_t n, size_t s); \
    void axial_roll_b8__##isa(const void *x, void *y, size_t outer, size_t n, size_t s);

/* Table entries, for designated initialisers: .cumsum = {AXIAL_SUM_DTYPES(AXIAL_CUMSUM_OF, avx2)} */
#define AXIAL_CUMSUM_OF(name, DT, isa) [DT] = axial_cumsum_##name##__##isa,
#define AXIAL_REDUCE_OF(name, DT, isa) [DT] = axial_reduce_##name##__##isa,
#define AXIAL_REDUCE_ACC_OF(name, DT, isa) [DT] = axial_reduce_acc_##name##__##isa,
#define AXIAL_REDUCE_FINISH_OF(name, DT, isa) [DT] = axial_reduce_finish_##name##__##isa,
#define AXIAL_ROLL_OF(isa)                                                             \
    {axial_roll_b1__##isa, axial_roll_b2__##isa, axial_roll_b4__##isa, axial_roll_b8__##isa}

/* CumSum of an unsigned type: the kernel of the signed type of its width
 * (wrapping addition gives the same bits), under the unsigned name. */
#define AXIAL_CUMSUM_UNSIGNED_AS_SIGNED(name, signed_name, isa)                           \
    void axial_cumsum_##name##__##isa(const void *x, void *y, size_t outer, size_t n,     \
                                      size_t inner, unsigned flags) {                     \
        axial_cumsum_##signed_name##__##isa(x, y, outer, n, inner, flags);                \
    }
#define AXIAL_CUMSUM_UNSIGNED_KERNELS(isa)                                                 \
    AXIAL_CUMSUM_UNSIGNED_AS_SIGNED(u8, i8, isa)                                           \
    AXIAL_CUMSUM_UNSIGNED_AS_SIGNED(u16, i16, isa)                                         \
    AXIAL_CUMSUM_UNSIGNED_AS_SIGNED(u32, i32, isa)                                         \
    AXIAL_CUMSUM_UNSIGNED_AS_SIGNED(u64, i64, isa)

/* Roll's short copies, in every SIMD folder: two possibly overlapping moves of
 * W bytes cover len in [W, 2W]; memcpy of a constant size compiles to one load
 * and one store. */
#define AXIAL_ROLL_PAIR(W, d, s, len)                                                     \
    do {                                                                                  \
        char a_[W], b_[W];                                                                \
        memcpy(a_, s, W);                                                                 \
        memcpy(b_, (s) + (len) - (W), W);                                                 \
        memcpy(d, a_, W);                                                                 \
        memcpy((d) + (len) - (W), b_, W);                                                 \
    } while (0)

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
