/* SPDX-License-Identifier: MIT */
/*
 * types.h: how the scalar kernels load, accumulate and store each dtype.
 *
 * For each dtype: the storage type T, the accumulator type A, LOAD (T -> A), STORE (A -> T) and the wide
 * accumulator type W of reduce_acc (8 bytes, see kernels.h).
 *   floats:   A = W = double; the one rounding happens in STORE.
 *   integers: A = the unsigned type of the same width, W = uint64_t: sums wrap modulo 2^bits without signed
 *             overflow.  Converting the unsigned result back to a signed type is modular on every compiler
 *             axial supports (GCC and Clang define it so).
 *
 * AXIAL_SCALAR_TYPES(X) calls X(name, DTYPE, T, A, W, LOAD, STORE) once per summable dtype; a wide sum is
 * loaded as (W)LOAD(v) and stored as STORE((A)w), which for integers keeps exactly the low bits.
 */
#ifndef AXIAL_SCALAR_TYPES_H
#define AXIAL_SCALAR_TYPES_H

#include "convert.h"

/* Where every sum starts: -0.0 for floats, the identity of IEEE addition (x + -0.0 == x for every x, -0.0
 * included), so that a sum is exactly the IEEE sum of its terms (a sum of -0.0 terms is -0.0, as in
 * numpy.cumsum); 0 for integers.  An empty sum is +0 (written by the callers, never from here). */
#define AXIAL_SUM_START(A) _Generic((A)0, double: -0.0, float: -0.0f, default: (A)0)

#define AXIAL_ID(v) (v)
#define AXIAL_TO_F32(a) ((float)(a))
#define AXIAL_F32_TO_D(v) ((double)(v))
#define AXIAL_U8(v) ((uint8_t)(v))
#define AXIAL_U16(v) ((uint16_t)(v))
#define AXIAL_U32(v) ((uint32_t)(v))
#define AXIAL_U64(v) ((uint64_t)(v))
#define AXIAL_I8(a) ((int8_t)(a))
#define AXIAL_I16(a) ((int16_t)(a))
#define AXIAL_I32(a) ((int32_t)(a))
#define AXIAL_I64(a) ((int64_t)(a))

#define AXIAL_SCALAR_TYPES(X)                                                  \
    X(f32, AXIAL_F32, float, double, double, AXIAL_F32_TO_D, AXIAL_TO_F32)                        \
    X(f64, AXIAL_F64, double, double, double, AXIAL_ID, AXIAL_ID)                                 \
    X(f16, AXIAL_F16, uint16_t, double, double, axial_f16_to_double, axial_double_to_f16)         \
    X(bf16, AXIAL_BF16, uint16_t, double, double, axial_bf16_to_double, axial_double_to_bf16)      \
    X(i8, AXIAL_I8, int8_t, uint8_t, uint64_t, AXIAL_U8, AXIAL_I8)                                 \
    X(u8, AXIAL_U8, uint8_t, uint8_t, uint64_t, AXIAL_U8, AXIAL_U8)                                \
    X(i16, AXIAL_I16, int16_t, uint16_t, uint64_t, AXIAL_U16, AXIAL_I16)                            \
    X(u16, AXIAL_U16, uint16_t, uint16_t, uint64_t, AXIAL_U16, AXIAL_U16)                           \
    X(i32, AXIAL_I32, int32_t, uint32_t, uint64_t, AXIAL_U32, AXIAL_I32)                            \
    X(u32, AXIAL_U32, uint32_t, uint32_t, uint64_t, AXIAL_U32, AXIAL_U32)                           \
    X(i64, AXIAL_I64, int64_t, uint64_t, uint64_t, AXIAL_U64, AXIAL_I64)                            \
    X(u64, AXIAL_U64, uint64_t, uint64_t, uint64_t, AXIAL_U64, AXIAL_U64)

#endif /* AXIAL_SCALAR_TYPES_H */
