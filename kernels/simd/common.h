/* SPDX-License-Identifier: MIT */
/*
 * simd/common.h: what the vocabularies (simd/<isa>.h) and the algorithms (ops/<op>.h) share without
 * intrinsics: the element kinds.
 *
 * An algorithm takes its element kind as a parameter `int k` that is a compile-time constant after inlining
 * (every function it passes through is AXIAL_INLINE), so one body serves every dtype and the compiler emits
 * one straight copy per kind, with no run-time switch.  Signed and unsigned integers of one width share a
 * kind: wrapping addition gives the same bits.
 */
#ifndef AXIAL_SIMD_COMMON_H
#define AXIAL_SIMD_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels.h"

enum { AXK_F64, AXK_F32, AXK_F16, AXK_BF16, AXK_I8, AXK_I16, AXK_I32, AXK_I64 };

/* f32, f16, bf16 compute in f32 lanes; f64 in f64 lanes. */
AXIAL_INLINE int axk_float(int k) { return k <= AXK_BF16; }
/* bytes of one element in memory */
AXIAL_INLINE size_t axk_size(int k) {
    switch (k) {
    case AXK_F64: case AXK_I64: return 8;
    case AXK_F32: case AXK_I32: return 4;
    case AXK_I8: return 1;
    default: return 2;
    }
}
/* the expression for integer kind k's lane width (as a switch on k: I64 the default) */
#define AX_BY_KIND(k, e8, e16, e32, e64) \
    ((k) == AXK_I8 ? (e8) : (k) == AXK_I16 ? (e16) : (k) == AXK_I32 ? (e32) : (e64))
/* M(name, kind) for each float kind, for each kind; f_<name>(...) (made once a kind by M) for run-time kind k */
#define AX_EACH_FLOAT(M) M(f32, AXK_F32) M(f64, AXK_F64) M(f16, AXK_F16) M(bf16, AXK_BF16)
#define AX_EACH_KIND(M) M(i8, AXK_I8) M(i16, AXK_I16) M(i32, AXK_I32) M(i64, AXK_I64) AX_EACH_FLOAT(M)
#define AX_BY_FLOAT(k, f, ...) ((k) == AXK_F32 ? f##_f32(__VA_ARGS__) : (k) == AXK_F64 ? f##_f64(__VA_ARGS__) \
                                : (k) == AXK_F16 ? f##_f16(__VA_ARGS__) : f##_bf16(__VA_ARGS__))
#define AX_BY_ANY(k, f, ...) (axk_float(k) ? AX_BY_FLOAT(k, f, __VA_ARGS__) : AX_BY_KIND(k, f##_i8(__VA_ARGS__), \
                              f##_i16(__VA_ARGS__), f##_i32(__VA_ARGS__), f##_i64(__VA_ARGS__)))
AXIAL_INLINE const void *axk_at(int k, const void *p, size_t i) { return (const char *)p + i * axk_size(k); }
AXIAL_INLINE void *axk_at_mut(int k, void *p, size_t i) { return (char *)p + i * axk_size(k); }
/* bytes (a multiple of 8) of float kind k's -0.0 at buf */
AXIAL_INLINE void axk_fill_nz(int k, uint64_t *buf, size_t bytes) {
    const uint64_t pat = k == AXK_F64 ? 0x8000000000000000ull
                         : k == AXK_F32 ? 0x8000000080000000ull : 0x8000800080008000ull;
    for (size_t i = 0; i < bytes / 8; i++)
        buf[i] = pat;
}
/* n elements of es (2, 4, 8) bytes from s to d, ss and ds bytes apart, element by element, each in a register
 * of its width (the empty asm keeps GCC from making the loop a memcpy call or rep movs; a runtime es's stack
 * word read whole waits for the stores in flight). */
#define AXK_COPY_(T) { T v; memcpy(&v, sc, sizeof v); __asm__("" : "+r"(v)); memcpy(dc, &v, sizeof v); }
AXIAL_INLINE void axk_copy_s(void *d, size_t ds, const void *s, size_t ss, size_t n, size_t es) {
    for (size_t i = 0; i < n; i++) {
        char *dc = (char *)d + i * ds;
        const char *sc = (const char *)s + i * ss;
        if (es == 8) AXK_COPY_(uint64_t) else if (es == 4) AXK_COPY_(uint32_t) else AXK_COPY_(uint16_t)
    }
}
#define axk_copy(d, s, n, es) axk_copy_s(d, es, s, es, n, es)

/* Byte indices (pshufb) that broadcast the last element of e bytes (1, 2, 4, 8) in scan order of every 16-byte
 * lane: [rev][log2 e]; the x86 vocabularies broadcast the row to their vector. */
static const _Alignas(16) unsigned char axk_idx_end[2][4][16] = {
    {{15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15},
     {14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15},
     {12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15},
     {8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15}},
    {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1},
     {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3},
     {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7}}};
AXIAL_INLINE const void *axk_idx_end_row(int e, int rev) {
    return axk_idx_end[rev][e == 1 ? 0 : e == 2 ? 1 : e == 4 ? 2 : 3];
}

/* f64 sums -> f32 lanes that vf_st(k) rounds exactly once to kind k (the vocabulary's vf_narrow; for f16 and
 * bf16 its vf_narrow_odd). */
#define vf_narrow_for(k, lo, hi) ((k) == AXK_F32 ? vf_narrow(lo, hi) : vf_narrow_odd(lo, hi))

/* The kernels' names: AX_KN(cumsum, f32) is axial_cumsum_f32__<AX_ISA>. */
#define AX_KN(op, key) AXIAL_CAT(axial_##op##_##key##__, AX_ISA)
/* An op's entries in up to three lists L1() L2() L3(): a build that compiles the op's file once per list
 * (kernels/meson.build: its compile time) sets AX_PART to 1, 2 or 3; unset, AX_ENTRIES(L) defines them all. */
#define AX_ENTRIES(L) AXIAL_CAT(AX_PART_, AX_PART)(L)
#define AX_PART_AX_PART(L) L##1() L##2() L##3()
#define AX_PART_1(L) L##1()
#define AX_PART_2(L) L##2()
#define AX_PART_3(L) L##3()

#endif /* AXIAL_SIMD_COMMON_H */
