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
 * The split paths' kernels (docs/API.md, "One summation order"; the
 * reference is tests/order_ref.c).  Entries may be NULL (the scalar table
 * leaves them NULL, a SIMD table fills its float ones): the planner then
 * does not split that way.  Each gives exactly the bits of the whole-shape
 * kernel of its ISA on the same elements, so a split never changes a result.
 *
 *   cumsum_seg(x, y, len, flags, carry): a segment of len elements of one
 *     line (inner == 1) starting at a chunk boundary of the line's scan
 *     order (AXIAL_SCAN_CHUNK elements; with REVERSE the segment's k = 0 is
 *     x[len - 1]), scanned from the chunk carry `carry`; AXIAL_SCAN_CONTINUE
 *     in flags: the segment does not start its line.  The whole-line kernel
 *     is cumsum_seg(line, n, flags, -0.0).
 *   scan_total(x, len, flags): the total S of one chunk of len elements
 *     (a multiple of 16), as cumsum_seg adds it to the next chunk's carry.
 *   cumsum_cols(x, y, n, ncols, stride, flags): columns [0, ncols) of an
 *     (n, stride) matrix (rows `stride` elements apart), each scanned alone.
 *   reduce_cols(x, acc, n, ncols, stride): acc[c] += column c of an
 *     (n, stride) matrix, for c < ncols, in the column order of inner >= 16.
 */
typedef void (*axial_cumsum_seg_fn)(const void *x, void *y, size_t len, unsigned flags,
                                    double carry);
typedef double (*axial_scan_total_fn)(const void *x, size_t len, unsigned flags);
typedef void (*axial_cumsum_cols_fn)(const void *x, void *y, size_t n, size_t ncols,
                                     size_t stride, unsigned flags);
typedef void (*axial_reduce_cols_fn)(const void *x, void *acc, size_t n, size_t ncols,
                                     size_t stride);

/* The one summation order's constants: the lanes of a virtual vector (and
 * the column count from which ReduceSum sums columns alone), the elements of
 * a scan chunk, and the internal flag of a segment that does not start its
 * line (above the public CumSum flags). */
#define AXIAL_ORDER_LANES 16
#define AXIAL_SCAN_CHUNK ((size_t)16384)
#define AXIAL_SCAN_CONTINUE 0x100u

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
    axial_cumsum_seg_fn cumsum_seg[AXIAL_NDTYPE];
    axial_scan_total_fn scan_total[AXIAL_NDTYPE];
    axial_cumsum_cols_fn cumsum_cols[AXIAL_NDTYPE];
    axial_reduce_cols_fn reduce_cols[AXIAL_NDTYPE];
};

/* The float dtypes, as X(name, DTYPE, arg): the split kernels' entries. */
#define AXIAL_FLOAT_DTYPES(X, arg)                                             \
    X(f32, AXIAL_F32, arg) X(f64, AXIAL_F64, arg) X(f16, AXIAL_F16, arg) X(bf16, AXIAL_BF16, arg)
#define AXIAL_DECLARE_SPLIT_KERNELS(name, DT, isa)                                           \
    void axial_cumsum_seg_##name##__##isa(const void *x, void *y, size_t len,              \
                                          unsigned flags, double carry);                   \
    double axial_scan_total_##name##__##isa(const void *x, size_t len, unsigned flags);    \
    void axial_cumsum_cols_##name##__##isa(const void *x, void *y, size_t n, size_t ncols, \
                                           size_t stride, unsigned flags);                 \
    void axial_reduce_cols_##name##__##isa(const void *x, void *acc, size_t n,             \
                                           size_t ncols, size_t stride);
#define AXIAL_CUMSUM_SEG_OF(name, DT, isa) [DT] = axial_cumsum_seg_##name##__##isa,
#define AXIAL_SCAN_TOTAL_OF(name, DT, isa) [DT] = axial_scan_total_##name##__##isa,
#define AXIAL_CUMSUM_COLS_OF(name, DT, isa) [DT] = axial_cumsum_cols_##name##__##isa,
#define AXIAL_REDUCE_COLS_OF(name, DT, isa) [DT] = axial_reduce_cols_##name##__##isa,

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
