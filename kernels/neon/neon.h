/* SPDX-License-Identifier: MIT */
/*
 * neon.h: the AdvSIMD (NEON) kernels' declarations and shared helpers.
 * AdvSIMD is the aarch64 baseline, so kernels/neon/ needs no extra flags;
 * every file of kernels/neon/ includes this first, and nothing outside
 * kernels/neon/ includes it.
 *
 * Conversions of the 16-bit float formats (all in AdvSIMD, no FP16/BF16
 * extension needed):
 *   f16 -> f32   FCVTL / FCVTL2 (vcvt_f32_f16, vcvt_high_f32_f16): exact.
 *   bf16 -> f32  USHLL #16 (the bf16 bits are the top half of an f32): exact.
 *   f32 -> f16   FCVTN: rounds to nearest even (FPCR's default mode, the one
 *                the whole library assumes); NaN stays NaN, overflow gives inf.
 *   f32 -> bf16  add 0x7fff + lsb to the bits, keep the top half (RNE); a NaN
 *                gets its quiet bit set instead, so the carry cannot make it inf.
 *   f64 -> f32   FCVTN (RNE).
 *   f64 -> f16 / bf16 with ONE rounding: FCVTXN (round to odd) to f32, then
 *                f32 -> f16/bf16 RNE.  Rounding to odd keeps a sticky bit 13+
 *                (f16) / 16+ (bf16) places below the last kept bit, so the
 *                second rounding gives exactly the once-rounded result.
 */
#ifndef AXIAL_NEON_H
#define AXIAL_NEON_H

#if !defined(__aarch64__) || !defined(__ARM_NEON)
#error "kernels/neon/ is for aarch64 (AdvSIMD)"
#endif

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels.h"

AXIAL_DECLARE_KERNELS(neon)

/* ---- f16 ------------------------------------------------------------------ */
AXIAL_INLINE float32x4_t axial_neon_f16_lo(uint16x8_t h) {
    return vcvt_f32_f16(vreinterpret_f16_u16(vget_low_u16(h)));
}
AXIAL_INLINE float32x4_t axial_neon_f16_hi(uint16x8_t h) {
    return vcvt_high_f32_f16(vreinterpretq_f16_u16(h));
}
AXIAL_INLINE float32x4_t axial_neon_load4_f16(const uint16_t *p) {
    return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(p)));
}
AXIAL_INLINE uint16x4_t axial_neon_f32_to_f16(float32x4_t v) {
    return vreinterpret_u16_f16(vcvt_f16_f32(v));
}
/* 8 f32 -> 8 f16 in one register (FCVTN + FCVTN2). */
AXIAL_INLINE uint16x8_t axial_neon_f32x2_to_f16(float32x4_t lo, float32x4_t hi) {
    return vreinterpretq_u16_f16(vcvt_high_f16_f32(vcvt_f16_f32(lo), hi));
}

/* ---- bf16 ----------------------------------------------------------------- */
AXIAL_INLINE float32x4_t axial_neon_bf16_lo(uint16x8_t h) {
    return vreinterpretq_f32_u32(vshll_n_u16(vget_low_u16(h), 16));
}
AXIAL_INLINE float32x4_t axial_neon_bf16_hi(uint16x8_t h) {
    return vreinterpretq_f32_u32(vshll_high_n_u16(h, 16));
}
AXIAL_INLINE float32x4_t axial_neon_load4_bf16(const uint16_t *p) {
    return vreinterpretq_f32_u32(vshll_n_u16(vld1_u16(p), 16));
}
/* The rounded bits, still in the top halves of 32-bit lanes. */
AXIAL_INLINE uint32x4_t axial_neon_bf16_round_bits(float32x4_t v) {
    const uint32x4_t u = vreinterpretq_u32_f32(v);
    const uint32x4_t lsb = vandq_u32(vshrq_n_u32(u, 16), vdupq_n_u32(1));
    const uint32x4_t r = vaddq_u32(u, vaddq_u32(lsb, vdupq_n_u32(0x7fff)));
    const uint32x4_t nan = vmvnq_u32(vceqq_f32(v, v)); /* all ones where v is NaN */
    return vbslq_u32(nan, vorrq_u32(u, vdupq_n_u32(0x400000)), r);
}
AXIAL_INLINE uint16x4_t axial_neon_f32_to_bf16(float32x4_t v) {
    return vshrn_n_u32(axial_neon_bf16_round_bits(v), 16);
}
AXIAL_INLINE uint16x8_t axial_neon_f32x2_to_bf16(float32x4_t lo, float32x4_t hi) {
    return vshrn_high_n_u32(vshrn_n_u32(axial_neon_bf16_round_bits(lo), 16),
                            axial_neon_bf16_round_bits(hi), 16);
}

/* ---- f64 -> narrow, one rounding ------------------------------------------ */
/* Four f64 (two registers) -> four f32, RNE. */
AXIAL_INLINE float32x4_t axial_neon_f64x2_to_f32(float64x2_t lo, float64x2_t hi) {
    return vcvt_high_f32_f64(vcvt_f32_f64(lo), hi);
}
/* Four f64 -> four f32 rounded to odd (for a second, exact, rounding). */
AXIAL_INLINE float32x4_t axial_neon_f64x2_to_f32_odd(float64x2_t lo, float64x2_t hi) {
    return vcvtx_high_f32_f64(vcvtx_f32_f64(lo), hi);
}
AXIAL_INLINE uint16x4_t axial_neon_f64x2_to_f16(float64x2_t lo, float64x2_t hi) {
    return axial_neon_f32_to_f16(axial_neon_f64x2_to_f32_odd(lo, hi));
}
AXIAL_INLINE uint16x4_t axial_neon_f64x2_to_bf16(float64x2_t lo, float64x2_t hi) {
    return axial_neon_f32_to_bf16(axial_neon_f64x2_to_f32_odd(lo, hi));
}

#endif /* AXIAL_NEON_H */
