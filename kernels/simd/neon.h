/* SPDX-License-Identifier: MIT */
/*
 * simd/neon.h: the AdvSIMD (NEON) vocabulary (simd/avx2.h says what a
 * vocabulary is).  AdvSIMD is the aarch64 baseline: no flags.  Native
 * vectors: vf (4 f32 lanes, one q register), vd (2 f64), vi (16 bytes).
 * Tails go through a stack buffer.  Conversions of the 16-bit float formats
 * need no FP16/BF16 extension:
 *   f16 -> f32   FCVTL / FCVTL2: exact;   bf16 -> f32  USHLL #16: exact;
 *   f32 -> f16   FCVTN: nearest even (FPCR's default mode, the one the
 *                library assumes); f32 -> bf16: add 0x7fff + lsb to the
 *                bits, a NaN gets its quiet bit set instead;
 *   f64 -> f32   FCVTN (RNE), and FCVTXN rounds to odd, so that a second
 *                rounding to f16/bf16 gives exactly the once-rounded result.
 */
#ifndef AXIAL_SIMD_NEON_H
#define AXIAL_SIMD_NEON_H

#if !defined(__aarch64__) || !defined(__ARM_NEON)
#error "kernels/neon/ is for aarch64 (AdvSIMD)"
#endif

#include <arm_neon.h>

#define AX_ISA neon
#include "simd/common.h"

AXIAL_DECLARE_KERNELS(neon)

#define AX_VB 16
#define AX_NF 4
#define AX_ND 2
typedef float32x4_t vf;
typedef float64x2_t vd;
typedef uint8x16_t vi;

/* ---- f32 lanes ------------------------------------------------------------ */
AXIAL_INLINE vf vf_set1(float c) { return vdupq_n_f32(c); }
AXIAL_INLINE vf vf_add(vf a, vf b) { return vaddq_f32(a, b); }
AXIAL_INLINE vf vf_sub(vf a, vf b) { return vsubq_f32(a, b); }
AXIAL_INLINE vf vf_max(vf a, vf b) { return vmaxq_f32(a, b); }
AXIAL_INLINE vf vf_min(vf a, vf b) { return vminq_f32(a, b); }

AXIAL_INLINE vf vf_ld(int k, const void *p) {
    switch (k) {
    case AXK_F16: return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16((const uint16_t *)p)));
    case AXK_BF16: return vreinterpretq_f32_u32(vshll_n_u16(vld1_u16((const uint16_t *)p), 16));
    default: return vld1q_f32((const float *)p);
    }
}
AXIAL_INLINE uint16x4_t ax_neon_bf16(vf v) {
    const uint32x4_t u = vreinterpretq_u32_f32(v);
    const uint32x4_t lsb = vandq_u32(vshrq_n_u32(u, 16), vdupq_n_u32(1));
    const uint32x4_t r = vaddq_u32(u, vaddq_u32(lsb, vdupq_n_u32(0x7fff)));
    const uint32x4_t nan = vmvnq_u32(vceqq_f32(v, v));
    return vshrn_n_u32(vbslq_u32(nan, vorrq_u32(u, vdupq_n_u32(0x400000)), r), 16);
}
/* AdvSIMD has no non-temporal vector store that bypasses the caches as x86's
 * do (STNP is a hint only): nt stores plainly. */
AXIAL_INLINE void vf_put(int k, void *p, vf v, int nt) {
    (void)nt;
    switch (k) {
    case AXK_F16: vst1_u16((uint16_t *)p, vreinterpret_u16_f16(vcvt_f16_f32(v))); break;
    case AXK_BF16: vst1_u16((uint16_t *)p, ax_neon_bf16(v)); break;
    default: vst1q_f32((float *)p, v);
    }
}
AXIAL_INLINE void vf_st(int k, void *p, vf v) { vf_put(k, p, v, 0); }
AXIAL_INLINE vf vf_ld_part(int k, const void *p, size_t cnt, float fill) {
    if (k == AXK_F32) {
        float buf[4] = {fill, fill, fill, fill};
        memcpy(buf, p, cnt * 4);
        return vld1q_f32(buf);
    }
    uint16_t h[4] = {0};
    memcpy(h, p, cnt * 2);
    const uint32x4_t idx = {0, 1, 2, 3};
    return vbslq_f32(vcltq_u32(idx, vdupq_n_u32((uint32_t)cnt)), vf_ld(k, h), vdupq_n_f32(fill));
}
AXIAL_INLINE void vf_st_part(int k, void *p, vf v, size_t cnt) {
    float buf[4];
    vf_st(k, buf, v);
    memcpy(p, buf, cnt * axk_size(k));
}

/* ---- f64 lanes ------------------------------------------------------------ */
AXIAL_INLINE vd vd_set1(double c) { return vdupq_n_f64(c); }
AXIAL_INLINE vd vd_add(vd a, vd b) { return vaddq_f64(a, b); }
AXIAL_INLINE vd vd_sub(vd a, vd b) { return vsubq_f64(a, b); }
AXIAL_INLINE vd vd_max(vd a, vd b) { return vmaxq_f64(a, b); }
AXIAL_INLINE vd vd_min(vd a, vd b) { return vminq_f64(a, b); }
AXIAL_INLINE vd vd_ld(const double *p) { return vld1q_f64(p); }
AXIAL_INLINE void vd_st(double *p, vd v) { vst1q_f64(p, v); }
AXIAL_INLINE void vd_put(double *p, vd v, int nt) {
    (void)nt;
    vst1q_f64(p, v);
}
AXIAL_INLINE vd vd_ld_part(const double *p, size_t cnt, double fill) {
    double buf[2] = {fill, fill};
    memcpy(buf, p, cnt * 8);
    return vld1q_f64(buf);
}
AXIAL_INLINE void vd_st_part(double *p, vd v, size_t cnt) {
    double buf[2];
    vst1q_f64(buf, v);
    memcpy(p, buf, cnt * 8);
}
AXIAL_INLINE vd vd_lo(vf v) { return vcvt_f64_f32(vget_low_f32(v)); }
AXIAL_INLINE vd vd_hi(vf v) { return vcvt_high_f64_f32(v); }
AXIAL_INLINE vf vf_narrow(vd lo, vd hi) { return vcvt_high_f32_f64(vcvt_f32_f64(lo), hi); }
AXIAL_INLINE vf vf_narrow_odd(vd lo, vd hi) { return vcvtx_high_f32_f64(vcvtx_f32_f64(lo), hi); }
AXIAL_INLINE vf vf_narrow_for(int k, vd lo, vd hi) {
    return k == AXK_F32 ? vf_narrow(lo, hi) : vf_narrow_odd(lo, hi);
}

/* ---- integer lanes -------------------------------------------------------- */
AXIAL_INLINE vi vi_zero(void) { return vdupq_n_u8(0); }
AXIAL_INLINE vi vi_ld(const void *p) { return vld1q_u8((const uint8_t *)p); }
AXIAL_INLINE void vi_st(void *p, vi v) { vst1q_u8((uint8_t *)p, v); }
AXIAL_INLINE void vi_put_aligned(void *p, vi v, int nt) {
    (void)nt;
    vst1q_u8((uint8_t *)p, v);
}
AXIAL_INLINE vi vi_ld_part(const void *p, size_t bytes) {
    uint8_t buf[16] = {0};
    memcpy(buf, p, bytes);
    return vld1q_u8(buf);
}
AXIAL_INLINE void vi_st_part(void *p, vi v, size_t bytes) {
    uint8_t buf[16];
    vst1q_u8(buf, v);
    memcpy(p, buf, bytes);
}
AXIAL_INLINE vi vi_add(int k, vi a, vi b) {
    switch (k) {
    case AXK_I8: return vaddq_u8(a, b);
    case AXK_I16: return vreinterpretq_u8_u16(vaddq_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b)));
    case AXK_I32: return vreinterpretq_u8_u32(vaddq_u32(vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(b)));
    default: return vreinterpretq_u8_u64(vaddq_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b)));
    }
}
AXIAL_INLINE vi vi_sub(int k, vi a, vi b) {
    switch (k) {
    case AXK_I8: return vsubq_u8(a, b);
    case AXK_I16: return vreinterpretq_u8_u16(vsubq_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b)));
    case AXK_I32: return vreinterpretq_u8_u32(vsubq_u32(vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(b)));
    default: return vreinterpretq_u8_u64(vsubq_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b)));
    }
}
AXIAL_INLINE vi vi_set1(int k, int64_t c) {
    switch (k) {
    case AXK_I8: return vdupq_n_u8((uint8_t)c);
    case AXK_I16: return vreinterpretq_u8_u16(vdupq_n_u16((uint16_t)c));
    case AXK_I32: return vreinterpretq_u8_u32(vdupq_n_u32((uint32_t)c));
    default: return vreinterpretq_u8_u64(vdupq_n_u64((uint64_t)c));
    }
}

AXIAL_INLINE void ax_stream_fence(void) {}

/* ---- reduce ---- */
/* v, computed at this point (an empty volatile asm: no code, but GCC keeps
 * such statements in order) */
AXIAL_INLINE vf vf_opaque(vf v) {
    __asm__ volatile("" : "+w"(v));
    return v;
}
AXIAL_INLINE vd vd_opaque(vd v) {
    __asm__ volatile("" : "+w"(v));
    return v;
}
AXIAL_INLINE vf vf_keep(vf v, size_t cnt, float fill) {
    const uint32x4_t idx = {0, 1, 2, 3};
    return vbslq_f32(vcltq_u32(idx, vdupq_n_u32((uint32_t)(cnt < 4 ? cnt : 4))), v, vdupq_n_f32(fill));
}
AXIAL_INLINE vd vd_keep(vd v, size_t cnt, double fill) {
    const uint64x2_t idx = {0, 1};
    return vbslq_f64(vcltq_u64(idx, vdupq_n_u64(cnt)), v, vdupq_n_f64(fill));
}
/* (a, b) as blocks of 2q lanes (q = 1): a0 + a1, b0 + b1 (FADDP) */
AXIAL_INLINE vd vd_halves_add(size_t q, vd a, vd b) {
    (void)q;
    return vpaddq_f64(a, b);
}
AXIAL_INLINE vf vf_pairs_add(vf a, vf b) { return vpaddq_f32(a, b); }
#define AX_RED_PIECE 8 /* trees over half super-rows: whole ones need 40 registers, and spill */

#endif /* AXIAL_SIMD_NEON_H */
