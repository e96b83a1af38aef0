/* SPDX-License-Identifier: MIT */
/*
 * simd/neon.h: the AdvSIMD (NEON) vocabulary (simd/avx2.h says what a vocabulary is).  AdvSIMD is the aarch64
 * baseline: no flags.  Native vectors: vf (4 f32 lanes, one q register), vd (2 f64), vi (16 bytes). Tails go
 * through a stack buffer.  Conversions of the 16-bit float formats need no FP16/BF16 extension:
 *   f16 -> f32   FCVTL / FCVTL2: exact;   bf16 -> f32  USHLL #16: exact;
 *   f32 -> f16   FCVTN: nearest even (FPCR's default mode, the one the
 *                library assumes); f32 -> bf16: add 0x7fff + lsb to the bits, a NaN gets its quiet bit set
 *                instead;
 *   f64 -> f32   FCVTN (RNE), and FCVTXN rounds to odd, so that a second
 *                rounding to f16/bf16 gives exactly the once-rounded result.
 */
#ifndef AXIAL_SIMD_NEON_H
#define AXIAL_SIMD_NEON_H

#if !defined(__aarch64__) || !defined(__ARM_NEON)
#error "kernels/neon/ is for aarch64 (AdvSIMD)"
#endif

#include <arm_neon.h>
#include <math.h>

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

/* f16 (k) or bf16 lanes widened exactly */
AXIAL_INLINE float32x4_t ax_neon_widen16(int k, uint16x4_t h) {
    return k == AXK_F16 ? vcvt_f32_f16(vreinterpret_f16_u16(h)) : vreinterpretq_f32_u32(vshll_n_u16(h, 16));
}
AXIAL_INLINE vf vf_ld(int k, const void *p) {
    return k == AXK_F32 ? vld1q_f32((const float *)p) : ax_neon_widen16(k, vld1_u16((const uint16_t *)p));
}
AXIAL_INLINE uint32x4_t ax_neon_bf16r(vf v) { /* the rounded bits, in the lanes' top halves */
    const uint32x4_t u = vreinterpretq_u32_f32(v);
    const uint32x4_t lsb = vandq_u32(vshrq_n_u32(u, 16), vdupq_n_u32(1));
    const uint32x4_t r = vaddq_u32(u, vaddq_u32(lsb, vdupq_n_u32(0x7fff)));
    const uint32x4_t num = vceqq_f32(v, v); /* (not NaN: a select on it, no MVN) */
    return vbslq_u32(num, r, vorrq_u32(u, vdupq_n_u32(0x400000)));
}
AXIAL_INLINE uint16x4_t ax_neon_bf16(vf v) { return vshrn_n_u32(ax_neon_bf16r(v), 16); }
/* AdvSIMD has no non-temporal vector store that bypasses the caches as x86's do (STNP is a hint only): nt
 * stores plainly. */
/* f32 lanes rounded to nearest f16 (k) or bf16 */
AXIAL_INLINE uint16x4_t ax_neon_narrow16(int k, vf v) {
    return k == AXK_F16 ? vreinterpret_u16_f16(vcvt_f16_f32(v)) : ax_neon_bf16(v);
}
AXIAL_INLINE void vf_put(int k, void *p, vf v, int nt) {
    (void)nt, k == AXK_F32 ? vst1q_f32((float *)p, v) : vst1_u16((uint16_t *)p, ax_neon_narrow16(k, v));
}
AXIAL_INLINE void vf_st(int k, void *p, vf v) { vf_put(k, p, v, 0); }
/* Partial vectors: bytes < 16 at p to a vector's low bytes, zeros after, and back, by an 8-byte move and then
 * 4, 2 and 1 (never past the end, no stack copy: timed on AVX2, such a copy stalled on its store forward). */
AXIAL_INLINE uint64_t ax_neon_ld_few(const unsigned char *b, size_t r) { /* r < 8 */
    uint64_t t = 0;
    size_t o = 0;
    if (r & 4)
        memcpy(&t, b, 4), o = 4; /* (little-endian: t's low bytes) */
    if (r & 2) {
        uint16_t v;
        memcpy(&v, b + o, 2);
        t |= (uint64_t)v << (8 * o), o += 2;
    }
    if (r & 1)
        t |= (uint64_t)b[o] << (8 * o);
    return t;
}
AXIAL_INLINE void ax_neon_st_few(unsigned char *b, uint64_t t, size_t r) {
    size_t o = 0;
    if (r & 4)
        memcpy(b, &t, 4), o = 4;
    if (r & 2) {
        const uint16_t v = (uint16_t)(t >> (8 * o));
        memcpy(b + o, &v, 2), o += 2;
    }
    if (r & 1)
        b[o] = (unsigned char)(t >> (8 * o));
}
AXIAL_INLINE uint8x16_t ax_neon_ld_bytes(const void *p, size_t bytes) {
    const unsigned char *b = (const unsigned char *)p;
    if (bytes >= 16)
        return vld1q_u8(b);
    if (bytes < 8)
        return vcombine_u8(vcreate_u8(ax_neon_ld_few(b, bytes)), vcreate_u8(0));
    uint64_t lo;
    memcpy(&lo, b, 8);
    return vcombine_u8(vcreate_u8(lo), vcreate_u8(ax_neon_ld_few(b + 8, bytes - 8)));
}
AXIAL_INLINE void ax_neon_st_bytes(void *p, uint8x16_t v, size_t bytes) {
    unsigned char *b = (unsigned char *)p;
    if (bytes >= 16) {
        vst1q_u8(b, v);
        return;
    }
    const uint64_t lo = vgetq_lane_u64(vreinterpretq_u64_u8(v), 0);
    if (bytes < 8) {
        ax_neon_st_few(b, lo, bytes);
        return;
    }
    memcpy(b, &lo, 8);
    ax_neon_st_few(b + 8, vgetq_lane_u64(vreinterpretq_u64_u8(v), 1), bytes - 8);
}
/* lanes [cnt, 4) of v set to fill */
AXIAL_INLINE vf vf_keep(vf v, size_t cnt, float fill) {
    const uint32x4_t idx = {0, 1, 2, 3};
    return vbslq_f32(vcltq_u32(idx, vdupq_n_u32((uint32_t)(cnt < 4 ? cnt : 4))), v, vdupq_n_f32(fill));
}
AXIAL_INLINE vf ax_neon_fill(vf v, size_t cnt, float fill) { /* after a partial load (zeros) */
    return fill == 0.0f && !signbit(fill) ? v : vf_keep(v, cnt, fill);
}
AXIAL_INLINE vf vf_ld_part(int k, const void *p, size_t cnt, float fill) {
    if (k == AXK_F32)
        return ax_neon_fill(vreinterpretq_f32_u8(ax_neon_ld_bytes(p, cnt * 4)), cnt, fill);
    return ax_neon_fill(ax_neon_widen16(k, vget_low_u16(vreinterpretq_u16_u8(ax_neon_ld_bytes(p, cnt * 2)))), cnt, fill);
}
AXIAL_INLINE void vf_st_part(int k, void *p, vf v, size_t cnt) {
    if (k == AXK_F32) {
        ax_neon_st_bytes(p, vreinterpretq_u8_f32(v), cnt * 4);
        return;
    }
    ax_neon_st_bytes(p, vcombine_u8(vreinterpret_u8_u16(ax_neon_narrow16(k, v)), vcreate_u8(0)), cnt * 2);
}

/* ---- f64 lanes ------------------------------------------------------------ */
AXIAL_INLINE vd vd_set1(double c) { return vdupq_n_f64(c); }
AXIAL_INLINE vd vd_add(vd a, vd b) { return vaddq_f64(a, b); }
AXIAL_INLINE vd vd_sub(vd a, vd b) { return vsubq_f64(a, b); }
AXIAL_INLINE vd vd_max(vd a, vd b) { return vmaxq_f64(a, b); }
AXIAL_INLINE vd vd_ld(const double *p) { return vld1q_f64(p); }
AXIAL_INLINE void vd_st(double *p, vd v) { vst1q_f64(p, v); }
AXIAL_INLINE void vd_put(double *p, vd v, int nt) { (void)nt, vst1q_f64(p, v); }
AXIAL_INLINE vd vd_ld_part(const double *p, size_t cnt, double fill) {
    const vd v = vreinterpretq_f64_u8(ax_neon_ld_bytes(p, cnt * 8));
    return cnt >= 2 || (fill == 0.0 && !signbit(fill)) ? v
           : cnt ? vsetq_lane_f64(fill, v, 1) : vdupq_n_f64(fill);
}
AXIAL_INLINE void vd_st_part(double *p, vd v, size_t cnt) { ax_neon_st_bytes(p, vreinterpretq_u8_f64(v), cnt * 8); }
AXIAL_INLINE vd vd_ld_h(int k, const void *p) { return (void)k, vcvt_f64_f32(vld1_f32(p)); } /* AX_ND f32 (k) */
AXIAL_INLINE void vd_put_h(int k, void *p, vd v, int nt) { (void)k, (void)nt, vst1_f32(p, vcvt_f32_f64(v)); }
/* cnt <= 2 f32 */
AXIAL_INLINE vd vd_ld_f32_part(const float *p, size_t cnt) {
    return vcvt_f64_f32(vget_low_f32(vreinterpretq_f32_u8(ax_neon_ld_bytes(p, cnt * 4))));
}
AXIAL_INLINE void vd_st_f32_part(float *p, vd v, size_t cnt) {
    ax_neon_st_bytes(p, vcombine_u8(vreinterpret_u8_f32(vcvt_f32_f64(v)), vcreate_u8(0)), cnt * 4);
}
AXIAL_INLINE vd vd_lo(vf v) { return vcvt_f64_f32(vget_low_f32(v)); }
AXIAL_INLINE vd vd_hi(vf v) { return vcvt_high_f64_f32(v); }
AXIAL_INLINE vf vf_narrow(vd lo, vd hi) { return vcvt_high_f32_f64(vcvt_f32_f64(lo), hi); }
AXIAL_INLINE vf vf_narrow_odd(vd lo, vd hi) { return vcvtx_high_f32_f64(vcvtx_f32_f64(lo), hi); }

/* ---- integer lanes -------------------------------------------------------- */
AXIAL_INLINE vi vi_zero(void) { return vdupq_n_u8(0); }
AXIAL_INLINE vi vi_ld(const void *p) { return vld1q_u8((const uint8_t *)p); }
AXIAL_INLINE void vi_st(void *p, vi v) { vst1q_u8((uint8_t *)p, v); }
AXIAL_INLINE void vi_put(void *p, vi v, int nt) { (void)nt, vst1q_u8((uint8_t *)p, v); }
AXIAL_INLINE vi vi_ld_part(const void *p, size_t bytes) { return ax_neon_ld_bytes(p, bytes); }
AXIAL_INLINE void vi_st_part(void *p, vi v, size_t bytes) { ax_neon_st_bytes(p, v, bytes); }
/* f (vaddq, vsubq, vpaddq) over integer kind k's lanes */
#define AX_NEON_W(k, f, a, b)                                                                            \
    AX_BY_KIND(k, f##_u8(a, b), vreinterpretq_u8_u16(f##_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b))), \
               vreinterpretq_u8_u32(f##_u32(vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(b))),          \
               vreinterpretq_u8_u64(f##_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b))))
/* lanes of kind k added, scheduled freely (in-register networks) */
AXIAL_INLINE vi ax_neon_add(int k, vi a, vi b) { return AX_NEON_W(k, vaddq, a, b); }
/* vi_add: the wider adds name their lanes in an asm: through vreinterpretq, GCC 12 kept a loop's sums in other
 * registers than the adds' results, a move per sum and iteration (a 4-sum i32 reduction: 13 instructions a 64
 * bytes, not 9; llvm-mca neoverse-n1 4.05 cycles, not 2.05). */
AXIAL_INLINE vi vi_add(int k, vi a, vi b) {
    vi r;
    switch (k) {
    case AXK_I8: return vaddq_u8(a, b);
    case AXK_I16: __asm__("add %0.8h, %1.8h, %2.8h" : "=w"(r) : "w"(a), "w"(b)); return r;
    case AXK_I32: __asm__("add %0.4s, %1.4s, %2.4s" : "=w"(r) : "w"(a), "w"(b)); return r;
    default: __asm__("add %0.2d, %1.2d, %2.2d" : "=w"(r) : "w"(a), "w"(b)); return r;
    }
}
AXIAL_INLINE vi vi_sub(int k, vi a, vi b) { return AX_NEON_W(k, vsubq, a, b); }
AXIAL_INLINE vi vi_set1(int k, int64_t c) {
    return AX_BY_KIND(k, vdupq_n_u8((uint8_t)c), vreinterpretq_u8_u16(vdupq_n_u16((uint16_t)c)),
                      vreinterpretq_u8_u32(vdupq_n_u32((uint32_t)c)), vreinterpretq_u8_u64(vdupq_n_u64((uint64_t)c)));
}

AXIAL_INLINE void ax_stream_fence(void) {}

/* ---- lse ---------------------------------------------------------------- */
/* Lane masks, NaN-propagating max (FMAX), in-register scans and SLEEF's 1-ulp AdvSIMD exp/log, for the
 * log-space ops (ops/lse.h). */
#include <sleef.h>
typedef uint32x4_t vf_mask;
typedef uint64x2_t vd_mask;
AXIAL_INLINE vf vf_mul(vf a, vf b) { return vmulq_f32(a, b); }
AXIAL_INLINE vf vf_exp(vf a) { return Sleef_expf4_u10advsimd(a); }
AXIAL_INLINE vf vf_log(vf a) { return Sleef_logf4_u10advsimd(a); }
AXIAL_INLINE vf_mask vf_gt(vf a, vf b) { return vcgtq_f32(a, b); }
AXIAL_INLINE vf_mask vf_bad(vf a) { return vmvnq_u32(vcltq_f32(a, vdupq_n_f32(INFINITY))); }
AXIAL_INLINE int vf_any(vf_mask m) { return vmaxvq_u32(m) != 0; }
AXIAL_INLINE vf vf_sel(vf_mask m, vf t, vf f) { return vbslq_f32(m, t, f); }
AXIAL_INLINE vf vf_maxn(vf a, vf b) { return vmaxq_f32(a, b); }
AXIAL_INLINE vf vf_scan(vf e) {
    const vf z = vdupq_n_f32(0);
    e = vaddq_f32(e, vextq_f32(z, e, 3));
    return vaddq_f32(e, vextq_f32(z, e, 2));
}
AXIAL_INLINE vf vf_up1(vf v) { return vextq_f32(vdupq_n_f32(0), v, 3); }
AXIAL_INLINE vf vf_rev(vf v) {
    v = vrev64q_f32(v);
    return vextq_f32(v, v, 2);
}
AXIAL_INLINE float vf_first(vf v) { return vgetq_lane_f32(v, 0); }
AXIAL_INLINE float vf_last(vf v) { return vgetq_lane_f32(v, 3); }
AXIAL_INLINE vd vd_mul(vd a, vd b) { return vmulq_f64(a, b); }
AXIAL_INLINE vd vd_exp(vd a) { return Sleef_expd2_u10advsimd(a); }
AXIAL_INLINE vd vd_log(vd a) { return Sleef_logd2_u10advsimd(a); }
AXIAL_INLINE vd_mask vd_gt(vd a, vd b) { return vcgtq_f64(a, b); }
AXIAL_INLINE vd_mask vd_bad(vd a) {
    return vreinterpretq_u64_u32(vmvnq_u32(vreinterpretq_u32_u64(vcltq_f64(a, vdupq_n_f64(INFINITY)))));
}
AXIAL_INLINE int vd_any(vd_mask m) { return vmaxvq_u32(vreinterpretq_u32_u64(m)) != 0; }
AXIAL_INLINE vd vd_sel(vd_mask m, vd t, vd f) { return vbslq_f64(m, t, f); }
AXIAL_INLINE vd vd_maxn(vd a, vd b) { return vmaxq_f64(a, b); }
AXIAL_INLINE vd vd_scan(vd e) { return vaddq_f64(e, vextq_f64(vdupq_n_f64(0), e, 1)); }
AXIAL_INLINE vd vd_up1(vd v) { return vextq_f64(vdupq_n_f64(0), v, 1); }
AXIAL_INLINE vd vd_rev(vd v) { return vextq_f64(v, v, 1); }
AXIAL_INLINE double vd_hmax(vd v) { return vmaxvq_f64(v); }
AXIAL_INLINE double vd_hsum(vd v) { return vgetq_lane_f64(v, 0) + vgetq_lane_f64(v, 1); }
AXIAL_INLINE double vd_first(vd v) { return vgetq_lane_f64(v, 0); }
AXIAL_INLINE double vd_last(vd v) { return vgetq_lane_f64(v, 1); }

/* ---- cumsum ---- */
/* The order's virtual block of 16 (ops/cumsum.h): blk is four q registers of f32, q[i] k-quad i; blkd eight of
 * f64, h[2q], h[2q + 1] k-quad q. Reverse takes k-quad i from memory quad 3 - i (pair 7 - j) and keeps each
 * register's lanes in memory order, so every in-quad move runs the other way: register renaming does the rest.
 * */
typedef struct { float32x4_t q[4]; } blk;
typedef struct { float64x2_t h[8]; } blkd;

/* 8 lanes at p (f16, bf16: one 16-byte move, SHLL2 / FCVTL2, stores UZP2 / FCVTN2: lines modelled 0.92x the
 * cycles of a move a quad; reduce's column tiles and periodic runs through AX_VF_LD2: bf16 [256, 256] axis 0
 * n1 1.12x -> 1.02x) */
#define AX_VF_LD2 1
AXIAL_INLINE void vf_ld2(int k, const void *p, vf *lo, vf *hi) {
    const uint16x8_t h = vld1q_u16((const uint16_t *)p);
    *lo = k == AXK_F32 ? vld1q_f32((const float *)p) : ax_neon_widen16(k, vget_low_u16(h));
    *hi = k == AXK_F32 ? vld1q_f32((const float *)p + 4) : k == AXK_F16 ? vcvt_high_f32_f16(vreinterpretq_f16_u16(h))
                                                                       : vreinterpretq_f32_u32(vshll_high_n_u16(h, 16));
}
AXIAL_INLINE void ax_neon_put8(int k, void *p, vf lo, vf hi, int nt) {
    if (k == AXK_F32)
        vf_put(k, p, lo, nt), vf_put(k, (float *)p + 4, hi, nt);
    else
        vst1q_u16((uint16_t *)p, k == AXK_F16 ? vreinterpretq_u16_f16(vcvt_high_f16_f32(vcvt_f16_f32(lo), hi))
                                              : vuzpq_u16(vreinterpretq_u16_u32(ax_neon_bf16r(lo)),
                                                          vreinterpretq_u16_u32(ax_neon_bf16r(hi))).val[1]);
}
AXIAL_INLINE blk blk_ld(int k, const void *p, int rev) {
    blk r;
    for (int i = 0; i < 4; i += 2) /* (reverse: memory quads 2 - i, 3 - i) */
        vf_ld2(k, (const char *)p + (size_t)(rev ? 2 - i : i) * 4 * axk_size(k), &r.q[i + rev], &r.q[i + 1 - rev]);
    return r;
}
AXIAL_INLINE void blk_st(int k, void *p, blk v, int rev, int nt) {
    for (int i = 0; i < 4; i += 2)
        ax_neon_put8(k, (char *)p + (size_t)(rev ? 2 - i : i) * 4 * axk_size(k), v.q[i + rev], v.q[i + 1 - rev], nt);
}
/* In a quad, every lane takes the lane `l` earlier in k order, z's coming in. */
AXIAL_INLINE float32x4_t ax_cs_qup(float32x4_t v, int l, float32x4_t z, int rev) {
    if (rev)
        return l == 1 ? vextq_f32(v, z, 1) : vextq_f32(v, z, 2);
    return l == 1 ? vextq_f32(z, v, 3) : vextq_f32(z, v, 2);
}
AXIAL_INLINE blk blk_qscan(blk v, int rev) {
    const float32x4_t z = vdupq_n_f32(-0.0f);
    for (int i = 0; i < 4; i++) {
        const float32x4_t a = vaddq_f32(v.q[i], ax_cs_qup(v.q[i], 1, z, rev));
        v.q[i] = vaddq_f32(a, ax_cs_qup(a, 2, z, rev));
    }
    return v;
}
AXIAL_INLINE float32x4_t ax_cs_qlast(float32x4_t s, int rev) {
    return rev ? vdupq_laneq_f32(s, 0) : vdupq_laneq_f32(s, 3);
}
/* Quad 1 + T0, quad 2 + (T1 + T0), quad 3 + ((T2 + T1) + T0). */
AXIAL_INLINE blk blk_qoffs(blk s, int rev) {
    const float32x4_t T0 = ax_cs_qlast(s.q[0], rev), T1 = ax_cs_qlast(s.q[1], rev),
                      T2 = ax_cs_qlast(s.q[2], rev);
    s.q[1] = vaddq_f32(s.q[1], T0);
    s.q[2] = vaddq_f32(s.q[2], vaddq_f32(T1, T0));
    s.q[3] = vaddq_f32(s.q[3], vaddq_f32(vaddq_f32(T2, T1), T0));
    return s;
}
/* Two rows of 8 in the block (k order): quad 1 + T0, quad 3 + T2. */
AXIAL_INLINE blk blk_qoffs8(blk s, int rev) {
    s.q[1] = vaddq_f32(s.q[1], ax_cs_qlast(s.q[0], rev));
    s.q[3] = vaddq_f32(s.q[3], ax_cs_qlast(s.q[2], rev));
    return s;
}
AXIAL_INLINE blk blk_qexcl(blk s, int rev) {
    for (int i = 0; i < 4; i++)
        s.q[i] = ax_cs_qup(s.q[i], 1, vdupq_n_f32(0.0f), rev);
    return s;
}
AXIAL_INLINE blk blk_up1(blk p, int rev) {
    const float32x4_t z = vdupq_n_f32(-0.0f);
    for (int i = 3; i >= 0; i--) {
        const float32x4_t f = i ? p.q[i - 1] : z;
        p.q[i] = rev ? vextq_f32(p.q[i], f, 1) : vextq_f32(f, p.q[i], 3);
    }
    return p;
}
AXIAL_INLINE double blk_total(blk p, int rev) {
    return (double)(rev ? vgetq_lane_f32(p.q[3], 0) : vgetq_lane_f32(p.q[3], 3));
}
AXIAL_INLINE blk blk_addc(float c, blk e) {
    const float32x4_t d = vdupq_n_f32(c);
    for (int i = 0; i < 4; i++)
        e.q[i] = vaddq_f32(d, e.q[i]);
    return e;
}

AXIAL_INLINE blkd blkd_ld(int k, const void *p, int rev) {
    (void)k;
    blkd r;
    for (int j = 0; j < 8; j++)
        r.h[j] = vld1q_f64((const double *)p + 2 * (rev ? 7 - j : j));
    return r;
}
AXIAL_INLINE void blkd_st(int k, void *p, blkd v, int rev, int nt) {
    (void)k, (void)nt;
    for (int j = 0; j < 8; j++)
        vst1q_f64((double *)p + 2 * (rev ? 7 - j : j), v.h[j]);
}
/* The pair one lane on in k order, f's k-last lane coming in. */
AXIAL_INLINE float64x2_t ax_cs_dup1(float64x2_t v, float64x2_t f, int rev) {
    return rev ? vextq_f64(v, f, 1) : vextq_f64(f, v, 1);
}
AXIAL_INLINE blkd blkd_qscan(blkd v, int rev) {
    const float64x2_t z = vdupq_n_f64(-0.0);
    for (int q = 0; q < 4; q++) {
        const float64x2_t x0 = v.h[2 * q], x1 = v.h[2 * q + 1];
        const float64x2_t a0 = vaddq_f64(x0, ax_cs_dup1(x0, z, rev));
        const float64x2_t a1 = vaddq_f64(x1, ax_cs_dup1(x1, x0, rev));
        v.h[2 * q] = vaddq_f64(a0, z);
        v.h[2 * q + 1] = vaddq_f64(a1, a0);
    }
    return v;
}
AXIAL_INLINE blkd blkd_qoffs(blkd s, int rev) {
    float64x2_t T[3];
    for (int q = 0; q < 3; q++)
        T[q] = rev ? vdupq_laneq_f64(s.h[2 * q + 1], 0) : vdupq_laneq_f64(s.h[2 * q + 1], 1);
    const float64x2_t E2 = vaddq_f64(T[1], T[0]), E3 = vaddq_f64(vaddq_f64(T[2], T[1]), T[0]);
    for (int j = 0; j < 2; j++) {
        s.h[2 + j] = vaddq_f64(s.h[2 + j], T[0]);
        s.h[4 + j] = vaddq_f64(s.h[4 + j], E2);
        s.h[6 + j] = vaddq_f64(s.h[6 + j], E3);
    }
    return s;
}
AXIAL_INLINE blkd blkd_qexcl(blkd s, int rev) {
    const float64x2_t z = vdupq_n_f64(0.0);
    for (int q = 0; q < 4; q++) {
        s.h[2 * q + 1] = ax_cs_dup1(s.h[2 * q + 1], s.h[2 * q], rev);
        s.h[2 * q] = ax_cs_dup1(s.h[2 * q], z, rev);
    }
    return s;
}
AXIAL_INLINE blkd blkd_up1(blkd p, int rev) {
    for (int j = 7; j >= 0; j--)
        p.h[j] = ax_cs_dup1(p.h[j], j ? p.h[j - 1] : vdupq_n_f64(-0.0), rev);
    return p;
}
AXIAL_INLINE double blkd_total(blkd p, int rev) { return rev ? vgetq_lane_f64(p.h[7], 0) : vgetq_lane_f64(p.h[7], 1); }
AXIAL_INLINE blkd blkd_addc(double c, blkd e) {
    const float64x2_t d = vdupq_n_f64(c);
    for (int j = 0; j < 8; j++)
        e.h[j] = vaddq_f64(d, e.h[j]);
    return e;
}

/* Integer lanes of kind k: "up" moves lanes toward higher k (forward: higher addresses; reverse: lower). */
AXIAL_INLINE vi vi_and(vi a, vi b) { return vandq_u8(a, b); }
AXIAL_INLINE vi vi_cmpgt(int k, vi a, vi b) {
#define AX_NEON_GT_(w, sw) vreinterpretq_u8_##w(vcgtq_##sw(vreinterpretq_##sw##_u8(a), vreinterpretq_##sw##_u8(b)))
    return AX_BY_KIND(k, vcgtq_s8(vreinterpretq_s8_u8(a), vreinterpretq_s8_u8(b)), AX_NEON_GT_(u16, s16),
                      AX_NEON_GT_(u32, s32), AX_NEON_GT_(u64, s64));
}
/* Up by d lanes (d * size in 1, 2, 4, 8 bytes), f's k-last lanes coming in. */
AXIAL_INLINE vi vi_up(int k, vi v, vi f, int d, int rev) {
    switch (d * (int)axk_size(k)) {
    case 1: return rev ? vextq_u8(v, f, 1) : vextq_u8(f, v, 15);
    case 2: return rev ? vextq_u8(v, f, 2) : vextq_u8(f, v, 14);
    case 4: return rev ? vextq_u8(v, f, 4) : vextq_u8(f, v, 12);
    default: return rev ? vextq_u8(v, f, 8) : vextq_u8(f, v, 8);
    }
}
AXIAL_INLINE vi vi_last(int k, vi s, int rev) {
    const uint16x8_t h = vreinterpretq_u16_u8(s);
    const uint32x4_t w = vreinterpretq_u32_u8(s);
    const uint64x2_t d = vreinterpretq_u64_u8(s);
    return AX_BY_KIND(k, rev ? vdupq_laneq_u8(s, 0) : vdupq_laneq_u8(s, 15),
                      vreinterpretq_u8_u16(rev ? vdupq_laneq_u16(h, 0) : vdupq_laneq_u16(h, 7)),
                      vreinterpretq_u8_u32(rev ? vdupq_laneq_u32(w, 0) : vdupq_laneq_u32(w, 3)),
                      vreinterpretq_u8_u64(rev ? vdupq_laneq_u64(d, 0) : vdupq_laneq_u64(d, 1)));
}
AXIAL_INLINE vi vi_scan(int k, vi v, int rev) {
    for (int d = 1; d * (int)axk_size(k) < 16; d *= 2)
        v = ax_neon_add(k, v, vi_up(k, v, vi_zero(), d, rev));
    return v;
}

/* Override (cumsum): integer lines 4 vectors a step by LD4/ST4 (lane i of q[j]: element 4i + j), one lane scan
 * for the four (wrapping: the same bits); modelled 1.41x fewer cycles (neoverse-n1). */
#define AX_CS_ILINE4 1
/* M(w, T, to_u8, from_u8, ...) for kind k's lanes: their suffix, vector type and reinterpretations */
#define AX_NEON_BY_W(k, M, ...)                                                                   \
    do {                                                                                          \
        if (axk_size(k) == 1) M(u8, uint8x16, , , __VA_ARGS__);                                   \
        else if (axk_size(k) == 2) M(u16, uint16x8, vreinterpretq_u8_u16, vreinterpretq_u16_u8, __VA_ARGS__); \
        else if (axk_size(k) == 4) M(u32, uint32x4, vreinterpretq_u8_u32, vreinterpretq_u32_u8, __VA_ARGS__); \
        else M(u64, uint64x2, vreinterpretq_u8_u64, vreinterpretq_u64_u8, __VA_ARGS__);          \
    } while (0)
/* q[0 .. N) = LDN (N = 2, 3, 4) at p: lane i of q[j] element N i + j; STN the inverse */
#define AX_NEON_LDN_(w, T, RU, RW, N, p, q)                                                       \
    do {                                                                                          \
        const T##x##N##_t t_ = vld##N##q_##w((const void *)(p));                                  \
        for (int j_ = 0; j_ < N; j_++) (q)[j_] = RU(t_.val[j_]);                                  \
    } while (0)
#define AX_NEON_STN_(w, T, RU, RW, N, p, o)                                                       \
    do {                                                                                          \
        T##x##N##_t t_;                                                                           \
        for (int j_ = 0; j_ < N; j_++) t_.val[j_] = RW((o)[j_]);                                  \
        vst##N##q_##w((void *)(p), t_);                                                           \
    } while (0)
#define AX_NEON_LDN(N, k, p, q) AX_NEON_BY_W(k, AX_NEON_LDN_, N, p, q)
#define AX_NEON_STN(N, k, p, o) AX_NEON_BY_W(k, AX_NEON_STN_, N, p, o)
/* The 4 vectors at x to y, scanned from the end where rev; carry: the sum before them (every lane); returns
 * the sum after them. */
AXIAL_INLINE vi vi_line4(int k, const void *x, void *y, vi carry, int excl, int rev) {
    vi q[4], a[4], o[4];
    AX_NEON_LDN(4, k, x, q);
    const int f = rev ? 3 : 0, d = rev ? -1 : 1; /* the quad's first, and the step */
    a[f] = q[f];
    for (int j = 1; j < 4; j++)
        a[f + d * j] = ax_neon_add(k, a[f + d * (j - 1)], q[f + d * j]);
    const vi tot = a[3 - f], t = vi_scan(k, tot, rev);
    const vi base = ax_neon_add(k, carry, vi_sub(k, t, tot)); /* the sum before each quad */
    for (int j = 0; j < 4; j++)
        o[j] = !excl ? ax_neon_add(k, base, a[j]) : j == f ? base : ax_neon_add(k, base, a[j - d]);
    AX_NEON_STN(4, k, y, o);
    const uint64x2_t w = vreinterpretq_u64_u8(tot); /* 8-byte lanes: the last of t is both lanes' sum (ADDP) */
    return ax_neon_add(k, carry, axk_size(k) == 8 ? vreinterpretq_u8_u64(vpaddq_u64(w, w)) : vi_last(k, t, rev));
}
/* Override (cumsum): integer lines (c NULL) or columns (c: their carries) of n = 2..4, W rows a step by
 * LDn/STn (lane i of t[j]: row i's element j); lines 4-10x fewer instructions than the segmented scan, their
 * sums by plain adds (GCC puts those, not vi_add's asm, straight into STn's registers: a move less). */
#define AX_CS_ILINES 1
AXIAL_INLINE void vi_lines(int k, const void *x, void *y, size_t n, vi *c, int excl, int rev) {
    vi t[4], o[4], s = vi_zero();
    if (n == 2) AX_NEON_LDN(2, k, x, t); else if (n == 3) AX_NEON_LDN(3, k, x, t); else AX_NEON_LDN(4, k, x, t);
    for (size_t i = 0; i < n; i++) {
        const size_t j = rev ? n - 1 - i : i;
        const vi before = s, p = c ? vi_add(k, c[j], vi_scan(k, t[j], rev)) : vi_zero();
        s = i ? ax_neon_add(k, s, t[j]) : t[j];
        o[j] = c ? excl ? vi_sub(k, p, t[j]) : p : excl ? before : s;
        if (c) c[j] = vi_last(k, p, rev); /* the column's sum after the step */
    }
    if (n == 2) AX_NEON_STN(2, k, y, o); else if (n == 3) AX_NEON_STN(3, k, y, o); else AX_NEON_STN(4, k, y, o);
}

/* Override (cumsum): four f32 (f16, bf16; two f64) lines of 3 by LD3/ST3, out1 = x1 + x0, out2 = (x1 + x2) +
 * x0 (reverse: the mirror) as the quad network adds them; 1 instruction an element, not 19. */
#define AX_CS_LINES3 1
AXIAL_INLINE float32x4x3_t ax_neon_ld3f(int k, const void *p) { /* LD3 of f32, f16 or bf16 (widened) */
    if (k == AXK_F32)
        return vld3q_f32((const float *)p);
    const uint16x4x3_t h = vld3_u16((const uint16_t *)p);
    return (float32x4x3_t){{ax_neon_widen16(k, h.val[0]), ax_neon_widen16(k, h.val[1]), ax_neon_widen16(k, h.val[2])}};
}
/* o = the scan of the lines of 3 in t (T lanes, add, zero: the exclusive first) */
#define AX_NEON_SCAN3(T, add, zero, t, o)                                                         \
    { const int f = rev ? 2 : 0; /* the lines' first element in scan order */                   \
      const T a = t.val[f], b = t.val[1], c = t.val[2 - f], s1 = add(b, a), s2 = add(add(b, c), a); \
      o.val[f] = excl ? zero : a, o.val[1] = excl ? a : s1, o.val[2 - f] = excl ? s1 : s2; }
AXIAL_INLINE void vf_lines3(int k, const void *x, void *y, int excl, int rev) {
    if (k == AXK_F64) { /* two lines a step */
        float64x2x3_t o, t = vld3q_f64((const double *)x);
        AX_NEON_SCAN3(float64x2_t, vaddq_f64, vdupq_n_f64(0.0), t, o)
        vst3q_f64((double *)y, o);
        return;
    }
    float32x4x3_t o, t = ax_neon_ld3f(k, x);
    AX_NEON_SCAN3(float32x4_t, vaddq_f32, vdupq_n_f32(0.0f), t, o)
    if (k == AXK_F32)
        vst3q_f32((float *)y, o);
    else
        vst3_u16((uint16_t *)y, (uint16x4x3_t){{ax_neon_narrow16(k, o.val[0]), ax_neon_narrow16(k, o.val[1]),
                                               ax_neon_narrow16(k, o.val[2])}});
}

/* Override (reduce): four f32 (f16, bf16) rows of 3 by LD3, in f64 as (x0 + x2) + x1 as the row's halves fold
 * (lo: rows 0, 1; hi: 2, 3); 1.4 instructions an f32 element, not 5.1. */
#define AX_RED_ROWS3 1
AXIAL_INLINE void vf_rows3(int k, const void *p, vd *lo, vd *hi) {
    const float32x4x3_t t = ax_neon_ld3f(k, p);
    *lo = vaddq_f64(vaddq_f64(vcvt_f64_f32(vget_low_f32(t.val[0])), vcvt_f64_f32(vget_low_f32(t.val[2]))),
                    vcvt_f64_f32(vget_low_f32(t.val[1])));
    *hi = vaddq_f64(vaddq_f64(vcvt_high_f64_f32(t.val[0]), vcvt_high_f64_f32(t.val[2])),
                    vcvt_high_f64_f32(t.val[1]));
}

/* Override (reduce): integer rows of n <= 4 vectors (8, 16), L rows a step (ADDP, LD3, UADDLV): 10-50x fewer
 * instructions an element than a row at a time, counted. */
AXIAL_INLINE vi vi_addp(int k, vi a, vi b) { return AX_NEON_W(k, vpaddq, a, b); }
AXIAL_INLINE vi vi_ld2h(const void *p, const void *q) { return vcombine_u8(vld1_u8(p), vld1_u8(q)); }
AXIAL_INLINE uint64_t vi_hsum(int k, vi v) {
    return AX_BY_KIND(k, vaddlvq_u8(v), vaddlvq_u16(vreinterpretq_u16_u8(v)), vaddlvq_u32(vreinterpretq_u32_u8(v)),
                      vaddvq_u64(vreinterpretq_u64_u8(v)));
}
#define AX_RED_INT_ROWS3 1
AXIAL_INLINE vi vi_rows3(int k, const void *p) { /* LD3: lane r of each register an element of row r */
    vi t[3];
    AX_NEON_LDN(3, k, p, t);
    return vi_add(k, vi_add(k, t[0], t[1]), t[2]);
}
#define AX_RED_INT_ACC 1 /* (reduce_acc: i8 [64, 16, 64] over {0, 2}: a group 32 cycles, not 57, n1; 21, not 32, v1; modelled) */
AXIAL_INLINE void vi_acc(int k, uint64_t *acc, vi v) { /* acc[0 .. 16 / size) += v's lanes zero-extended (zips with 0) */
    vi w[8] = {v};
    for (int j = k, m = 1; j != AXK_I64; j++, m *= 2) /* (from the last: w[i] is read before w[2i + 1] and w[2i] are set) */
        for (int i = m; i-- > 0;) w[2 * i + 1] = AX_NEON_W(j, vzip2q, w[i], vi_zero()), w[2 * i] = AX_NEON_W(j, vzip1q, w[i], vi_zero());
    for (size_t i = 0; i < 8 / axk_size(k); i++) vst1q_u64(acc + 2 * i, vaddq_u64(vld1q_u64(acc + 2 * i), vreinterpretq_u64_u8(w[i])));
}

/* ---- roll ---- */
/* TBL: bytes of one register, or of a pair (rows of 32 bytes; TBL of four registers is three uops on Neoverse
 * N1, so rows of 64 take the select). */
#define AX_ROLL_UNITS 9
#define AX_ROLL_LINE 16 /* no streaming: stores aligned to the vector */
#define AX_ROLL_NT 0 /* the cores stop allocating on runs of full-line writes */
#define AX_ROLL_RUNMAX 0 /* rows are copies with 64-byte steps */
/* Override: copies align their stores to 16 (no q store splits a line) only from 256 bytes, as the NEON
 * kernels did; shorter ones skip the head. */
#define AX_ROLL_ALIGN_FROM 256
/* bytes of a where m's byte is set (m's bytes 0 or 0xff), else of b */
AXIAL_INLINE vi vi_sel8(vi m, vi a, vi b) { return vbslq_u8(m, a, b); }
/* the bytes of a by an index from ax_roll_index (ops/roll.h) */
AXIAL_INLINE vi vi_tbl(vi a, vi idx, int u) { return (void)u, vqtbl1q_u8(a, idx); }
/* the bytes of the 32 at p by idx (LD1 of two registers feeds TBL's pair) */
AXIAL_INLINE vi vi_tbl2(const void *p, vi idx) { return vqtbl2q_u8(vld1q_u8_x2(p), idx); }

/* ---- reduce ---- */
#define AX_OPAQUE(v) "+w"(v) /* an asm operand that keeps v in a register */
AXIAL_INLINE vd vd_keep(vd v, size_t cnt, double fill) {
    const uint64x2_t idx = {0, 1};
    return vbslq_f64(vcltq_u64(idx, vdupq_n_u64(cnt)), v, vdupq_n_f64(fill));
}
/* (a, b) as blocks of 2q lanes (q = 1): a0 + a1, b0 + b1 (FADDP) */
AXIAL_INLINE vd vd_halves_add(size_t q, vd a, vd b) { return (void)q, vpaddq_f64(a, b); }
AXIAL_INLINE vf vf_pairs_add(vf a, vf b) { return vpaddq_f32(a, b); }
#define AX_RED_PIECE 8 /* trees over half super-rows: whole ones need 40 registers, and spill */
#define AX_RED_IN_ORDER 0 /* GCC pairs the loads (ldp): 0.68 -> 0.55 instructions per f32 summed */
#define AX_RED_ROWS_V 1 /* (bf16 rows of 4 without the select of lanes past the row: 0.87x n1, 0.88x v1, modelled) */

#endif /* AXIAL_SIMD_NEON_H */
