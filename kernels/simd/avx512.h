/* SPDX-License-Identifier: MIT */
/*
 * simd/avx512.h: the AVX-512 F + VL + BW + DQ vocabulary (simd/avx2.h says what a vocabulary is).  Native
 * vectors: vf (16 f32 lanes, one zmm), vd (8 f64), vi (64 bytes).  Tails are masked loads and stores: nothing
 * outside the tensor is touched, and the missing lanes get the fill. Narrowing rounds once, to nearest even
 * (vcvtps2ph with an explicit rounding immediate; bf16 by add-0x7fff-plus-lsb on the bits, a NaN gets its
 * quiet bit instead); f64 -> f32 to odd is one conversion toward zero with the sticky bit or-ed in where
 * inexact.
 */
#ifndef AXIAL_SIMD_AVX512_H
#define AXIAL_SIMD_AVX512_H

#if !defined(AXIAL_AVX512_EMULATED) && (!defined(__AVX512F__) || !defined(__AVX512VL__) || \
                                     !defined(__AVX512BW__) || !defined(__AVX512DQ__))
#error "kernels/avx512/ must be built with -mavx512f -mavx512vl -mavx512bw -mavx512dq"
#endif

#include <immintrin.h>

#define AX_ISA avx512
#include "simd/common.h"

AXIAL_DECLARE_KERNELS(avx512)

/* An empty asm operand that makes a vector opaque to the optimiser (kept in a register; in memory in the
 * emulated test build, whose vectors are structs). */
#ifdef AXIAL_AVX512_EMULATED
#define AX_OPAQUE(v) "+m"(v)
#else
#define AX_OPAQUE(v) "+v"(v)
#endif

#define AX_VB 64
#define AX_NF 16
#define AX_ND 8
typedef __m512 vf;
typedef __m512d vd;
typedef __m512i vi;

/* A mask of the low k lanes (0 <= k <= 64). */
AXIAL_INLINE __mmask64 ax_mask(size_t k) { return k >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << k) - 1); }

/* ---- f32 lanes ------------------------------------------------------------ */
AXIAL_INLINE vf vf_set1(float c) { return _mm512_set1_ps(c); }
AXIAL_INLINE vf vf_add(vf a, vf b) { return _mm512_add_ps(a, b); }
AXIAL_INLINE vf vf_sub(vf a, vf b) { return _mm512_sub_ps(a, b); }
AXIAL_INLINE vf vf_max(vf a, vf b) { return _mm512_max_ps(a, b); }

/* bf16: each word to the high half of its dword by one vpermw, and back by another (zero-extension and shift,
 * shift and vpmovdw: Zen 4 1.15x the time of a bf16 CumSum line, 1.3x a ReduceSum in cache, timed) */
AXIAL_INLINE vf ax_avx512_widen(int k, __m256i h) {
    if (k == AXK_F16)
        return _mm512_cvtph_ps(h);
    const __m512i idx = _mm512_set_epi16(15, 0, 14, 0, 13, 0, 12, 0, 11, 0, 10, 0, 9, 0, 8, 0, 7,
                                         0, 6, 0, 5, 0, 4, 0, 3, 0, 2, 0, 1, 0, 0, 0);
    return _mm512_castsi512_ps(_mm512_maskz_permutexvar_epi16(0xAAAAAAAAu, idx, _mm512_castsi256_si512(h)));
}
/* 16 elements of kind k (F32, F16, BF16), widened exactly to f32. */
AXIAL_INLINE vf vf_ld(int k, const void *p) {
    if (k == AXK_F32)
        return _mm512_loadu_ps(p);
    return ax_avx512_widen(k, _mm256_loadu_si256((const __m256i *)p));
}
/* bf16 of a and b (16 lanes each, rounded in the high halves), a's in the low 256 bits */
AXIAL_INLINE __m512i ax_avx512_bf16x2(vf a, vf b) {
    __m512i q[2];
    for (int h = 0; h < 2; h++) {
        const vf v = h ? b : a;
        const __m512i u = _mm512_castps_si512(v);
        const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
        const __m512i r = _mm512_add_epi32(u, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff)));
        const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
        q[h] = _mm512_mask_or_epi32(r, nan, u, _mm512_set1_epi32(0x400000));
    }
    const __m512i odd = _mm512_set_epi16(63, 61, 59, 57, 55, 53, 51, 49, 47, 45, 43, 41, 39, 37, 35,
                                         33, 31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
    return _mm512_permutex2var_epi16(q[0], odd, q[1]);
}
AXIAL_INLINE __m256i ax_avx512_narrow(int k, vf v) {
    if (k == AXK_F16)
        return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    return _mm512_castsi512_si256(ax_avx512_bf16x2(v, v));
}
/* 16 f32 lanes stored as kind k, rounded once; nt: streaming, p aligned to the store's size (64 bytes for F32,
 * 32 for F16/BF16). */
AXIAL_INLINE void vf_put(int k, void *p, vf v, int nt) {
    if (k == AXK_F32) {
        if (nt)
            _mm512_stream_ps((float *)p, v);
        else
            _mm512_storeu_ps(p, v);
        return;
    }
    const __m256i h = ax_avx512_narrow(k, v);
    if (nt)
        _mm256_stream_si256((__m256i *)p, h);
    else
        _mm256_storeu_si256((__m256i *)p, h);
}
AXIAL_INLINE void vf_st(int k, void *p, vf v) { vf_put(k, p, v, 0); }
/* Half a vector of f16/bf16 (cnt 8, a constant where the narrow columns go a row at a time) moves as 16 bytes,
 * unmasked: the masked store of a conversion split into several uops and held those rows to 1.34x the time of
 * 16-byte moves. */
AXIAL_INLINE vf vf_ld_part(int k, const void *p, size_t cnt, float fill) {
    const __mmask16 m = (__mmask16)ax_mask(cnt);
    if (k == AXK_F32)
        return _mm512_mask_loadu_ps(_mm512_set1_ps(fill), m, p);
    if (cnt == AX_NF / 2) {
        const __m128i h = _mm_loadu_si128((const __m128i *)p);
        const __m256 lo = k == AXK_F16 ? _mm256_cvtph_ps(h)
                                       : _mm256_castsi256_ps(_mm256_slli_epi32(
                                             _mm256_cvtepu16_epi32(h), 16));
        return _mm512_insertf32x8(_mm512_set1_ps(fill), lo, 0);
    }
    const vf w = ax_avx512_widen(k, _mm256_maskz_loadu_epi16(m, p));
    return _mm512_mask_blend_ps(m, _mm512_set1_ps(fill), w);
}
AXIAL_INLINE void vf_st_part(int k, void *p, vf v, size_t cnt) {
    const __mmask16 m = (__mmask16)ax_mask(cnt);
    if (k == AXK_F32)
        _mm512_mask_storeu_ps(p, m, v);
    else if (cnt == AX_NF / 2)
        _mm_storeu_si128((__m128i *)p,
                         k == AXK_F16 ? _mm256_cvtps_ph(_mm512_castps512_ps256(v),
                                                        _MM_FROUND_TO_NEAREST_INT |
                                                            _MM_FROUND_NO_EXC)
                                      : _mm256_castsi256_si128(ax_avx512_narrow(k, v)));
    else
        _mm256_mask_storeu_epi16(p, m, ax_avx512_narrow(k, v));
}

/* ---- f64 lanes ------------------------------------------------------------ */
AXIAL_INLINE vd vd_set1(double c) { return _mm512_set1_pd(c); }
AXIAL_INLINE vd vd_add(vd a, vd b) { return _mm512_add_pd(a, b); }
AXIAL_INLINE vd vd_sub(vd a, vd b) { return _mm512_sub_pd(a, b); }
AXIAL_INLINE vd vd_max(vd a, vd b) { return _mm512_max_pd(a, b); }
AXIAL_INLINE vd vd_ld(const double *p) { return _mm512_loadu_pd(p); }
AXIAL_INLINE void vd_st(double *p, vd v) { _mm512_storeu_pd(p, v); }
AXIAL_INLINE void vd_put(double *p, vd v, int nt) {
    if (nt)
        _mm512_stream_pd(p, v);
    else
        _mm512_storeu_pd(p, v);
}
AXIAL_INLINE vd vd_ld_part(const double *p, size_t cnt, double fill) {
    return _mm512_mask_loadu_pd(_mm512_set1_pd(fill), (__mmask8)ax_mask(cnt), p);
}
AXIAL_INLINE void vd_st_part(double *p, vd v, size_t cnt) { _mm512_mask_storeu_pd(p, (__mmask8)ax_mask(cnt), v); }
/* cnt <= 8 f32 by a 32-byte masked move (a 64-byte one would span two lines) */
AXIAL_INLINE vd vd_ld_f32_part(const float *p, size_t cnt) {
    return _mm512_cvtps_pd(_mm256_maskz_loadu_ps((__mmask8)ax_mask(cnt), p));
}
AXIAL_INLINE void vd_st_f32_part(float *p, vd v, size_t cnt) {
    _mm256_mask_storeu_ps(p, (__mmask8)ax_mask(cnt), _mm512_cvtpd_ps(v));
}
AXIAL_INLINE vd vd_lo(vf v) { return _mm512_cvtps_pd(_mm512_castps512_ps256(v)); }
AXIAL_INLINE vd vd_hi(vf v) {
    return _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)));
}
AXIAL_INLINE vf vf_narrow(vd lo, vd hi) {
    return _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)), _mm512_cvtpd_ps(hi), 1);
}
/* f64 -> f32 rounded to odd: toward zero, the lsb set where inexact (a NaN stays NaN; beyond FLT_MAX gives
 * FLT_MAX, odd, which a narrower RNE still rounds to inf). */
AXIAL_INLINE __m256 ax_avx512_odd8(vd d) {
    const __m256 t = _mm512_cvt_roundpd_ps(d, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __mmask8 inexact = _mm512_cmp_pd_mask(_mm512_cvtps_pd(t), d, _CMP_NEQ_UQ);
    return _mm256_castsi256_ps(_mm256_mask_or_epi32(_mm256_castps_si256(t), inexact,
                                                    _mm256_castps_si256(t),
                                                    _mm256_set1_epi32(1)));
}
AXIAL_INLINE vf vf_narrow_odd(vd lo, vd hi) {
    return _mm512_insertf32x8(_mm512_castps256_ps512(ax_avx512_odd8(lo)), ax_avx512_odd8(hi), 1);
}
/* AX_ND f32 or f16 as f64, and stored from f64 rounded once (f16: through f32 rounded to odd) */
AXIAL_INLINE vd vd_ld_h(int k, const void *p) {
    return _mm512_cvtps_pd(k == AXK_F32 ? _mm256_loadu_ps(p) : _mm256_cvtph_ps(_mm_loadu_si128(p)));
}
AXIAL_INLINE void vd_put_h(int k, void *p, vd v, int nt) {
    const __m128i h = _mm256_cvtps_ph(ax_avx512_odd8(v), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); /* (f16) */
    if (k == AXK_F32)
        nt ? _mm256_stream_ps(p, _mm512_cvtpd_ps(v)) : _mm256_storeu_ps(p, _mm512_cvtpd_ps(v));
    else
        nt ? _mm_stream_si128(p, h) : _mm_storeu_si128(p, h);
}

/* ---- integer lanes -------------------------------------------------------- */
AXIAL_INLINE vi vi_zero(void) { return _mm512_setzero_si512(); }
AXIAL_INLINE vi vi_ld(const void *p) { return _mm512_loadu_si512(p); }
AXIAL_INLINE void vi_st(void *p, vi v) { _mm512_storeu_si512(p, v); }
/* nt: a streaming store to an aligned p; else a plain one */
AXIAL_INLINE void vi_put(void *p, vi v, int nt) { nt ? _mm512_stream_si512((__m512i *)p, v) : vi_st(p, v); }
AXIAL_INLINE vi vi_ld_part(const void *p, size_t bytes) { return _mm512_maskz_loadu_epi8(ax_mask(bytes), p); }
AXIAL_INLINE void vi_st_part(void *p, vi v, size_t bytes) { _mm512_mask_storeu_epi8(p, ax_mask(bytes), v); }
/* f (add, sub) over integer kind k's lanes */
#define AX_AVX512_W(k, f, a, b) AX_BY_KIND(k, f##_epi8(a, b), f##_epi16(a, b), f##_epi32(a, b), f##_epi64(a, b))
AXIAL_INLINE vi vi_add(int k, vi a, vi b) { return AX_AVX512_W(k, _mm512_add, a, b); }
AXIAL_INLINE vi vi_sub(int k, vi a, vi b) { return AX_AVX512_W(k, _mm512_sub, a, b); }
AXIAL_INLINE vi vi_set1(int k, int64_t c) {
    return AX_BY_KIND(k, _mm512_set1_epi8((char)c), _mm512_set1_epi16((short)c), _mm512_set1_epi32((int)c),
                      _mm512_set1_epi64(c));
}

AXIAL_INLINE void ax_stream_fence(void) { _mm_sfence(); }

/* ---- lse ---------------------------------------------------------------- */
/* Lane masks, NaN-propagating max, in-register scans and SLEEF's 1-ulp exp/log, for the log-space ops
 * (ops/lse.h).  (The emulated build's SLEEF AVX-512 names come from tests/emu/avx512.h.) */
#include <sleef.h>
typedef __mmask16 vf_mask;
typedef __mmask8 vd_mask;
AXIAL_INLINE vf vf_mul(vf a, vf b) { return _mm512_mul_ps(a, b); }
AXIAL_INLINE vf vf_exp(vf a) { return Sleef_expf16_u10avx512f(a); }
AXIAL_INLINE vf vf_log(vf a) { return Sleef_logf16_u10avx512f(a); }
AXIAL_INLINE vf_mask vf_gt(vf a, vf b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
AXIAL_INLINE vf_mask vf_bad(vf a) { return _mm512_cmp_ps_mask(a, _mm512_set1_ps(INFINITY), _CMP_NLT_UQ); }
AXIAL_INLINE int vf_any(vf_mask m) { return m != 0; }
AXIAL_INLINE vf vf_sel(vf_mask m, vf t, vf f) { return _mm512_mask_blend_ps(m, f, t); }
AXIAL_INLINE vf vf_maxn(vf a, vf b) {
    return _mm512_mask_mov_ps(_mm512_max_ps(a, b), _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q), a);
}
/* lane l moved to lane l + sh, zeros below */
#define AX_VF_UP(v, sh)                                                                     \
    _mm512_castsi512_ps(                                                                    \
        _mm512_alignr_epi32(_mm512_castps_si512(v), _mm512_setzero_si512(), 16 - (sh)))
AXIAL_INLINE vf vf_scan(vf e) {
    e = _mm512_add_ps(e, AX_VF_UP(e, 1));
    e = _mm512_add_ps(e, AX_VF_UP(e, 2));
    e = _mm512_add_ps(e, AX_VF_UP(e, 4));
    return _mm512_add_ps(e, AX_VF_UP(e, 8));
}
AXIAL_INLINE vf vf_up1(vf v) { return AX_VF_UP(v, 1); }
AXIAL_INLINE vf vf_rev(vf v) {
    return _mm512_permutexvar_ps(
        _mm512_set_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), v);
}
AXIAL_INLINE float vf_first(vf v) { return _mm512_cvtss_f32(v); }
AXIAL_INLINE float vf_last(vf v) { return _mm_cvtss_f32(_mm_permute_ps(_mm512_extractf32x4_ps(v, 3), 0xff)); }
AXIAL_INLINE vd vd_mul(vd a, vd b) { return _mm512_mul_pd(a, b); }
AXIAL_INLINE vd vd_exp(vd a) { return Sleef_expd8_u10avx512f(a); }
AXIAL_INLINE vd vd_log(vd a) { return Sleef_logd8_u10avx512f(a); }
AXIAL_INLINE vd_mask vd_gt(vd a, vd b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
AXIAL_INLINE vd_mask vd_bad(vd a) { return _mm512_cmp_pd_mask(a, _mm512_set1_pd(INFINITY), _CMP_NLT_UQ); }
AXIAL_INLINE int vd_any(vd_mask m) { return m != 0; }
AXIAL_INLINE vd vd_sel(vd_mask m, vd t, vd f) { return _mm512_mask_blend_pd(m, f, t); }
AXIAL_INLINE vd vd_maxn(vd a, vd b) {
    return _mm512_mask_mov_pd(_mm512_max_pd(a, b), _mm512_cmp_pd_mask(a, a, _CMP_UNORD_Q), a);
}
#define AX_VD_UP(v, sh)                                                                     \
    _mm512_castsi512_pd(                                                                    \
        _mm512_alignr_epi64(_mm512_castpd_si512(v), _mm512_setzero_si512(), 8 - (sh)))
AXIAL_INLINE vd vd_scan(vd e) {
    e = _mm512_add_pd(e, AX_VD_UP(e, 1));
    e = _mm512_add_pd(e, AX_VD_UP(e, 2));
    return _mm512_add_pd(e, AX_VD_UP(e, 4));
}
AXIAL_INLINE vd vd_up1(vd v) { return AX_VD_UP(v, 1); }
AXIAL_INLINE vd vd_rev(vd v) { return _mm512_permutexvar_pd(_mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7), v); }
AXIAL_INLINE double vd_hmax(vd v) { return _mm512_reduce_max_pd(v); }
AXIAL_INLINE double vd_hsum(vd v) { return _mm512_reduce_add_pd(v); }
AXIAL_INLINE double vd_first(vd v) { return _mm512_cvtsd_f64(v); }
AXIAL_INLINE double vd_last(vd v) {
    return _mm_cvtsd_f64(_mm_unpackhi_pd(_mm512_extractf64x2_pd(v, 3), _mm512_extractf64x2_pd(v, 3)));
}

/* ---- cumsum ---- */
/* The order's virtual block of 16 (ops/cumsum.h): blk is one zmm of f32, a quad per 128-bit lane; blkd two zmm
 * of f64 (a: k 0..7, b: k 8..15), a quad per 256-bit half.  Reverse keeps the memory layout (k-lane i is
 * memory lane 15 - i) and mirrors every shift and mask: no lane reversal.  Quad scans are masked adds of
 * in-lane shifts (lane 0 of a quad is left as it is, so -0.0 stays -0.0). */
typedef __m512 blk;
typedef struct { __m512d a, b; } blkd;

AXIAL_INLINE blk blk_ld(int k, const void *p, int rev) {
    (void)rev;
    return vf_ld(k, p);
}
AXIAL_INLINE void blk_st(int k, void *p, blk v, int rev, int nt) {
    (void)rev;
    vf_put(k, p, v, nt);
}
AXIAL_INLINE __m512 ax_cs_bsl(__m512 v, int b, int rev) {
    const __m512i u = _mm512_castps_si512(v);
    if (rev)
        return _mm512_castsi512_ps(b == 4 ? _mm512_bsrli_epi128(u, 4) : _mm512_bsrli_epi128(u, 8));
    return _mm512_castsi512_ps(b == 4 ? _mm512_bslli_epi128(u, 4) : _mm512_bslli_epi128(u, 8));
}
AXIAL_INLINE blk blk_qscan(blk v, int rev) {
    const blk a = _mm512_mask_add_ps(v, rev ? 0x7777 : 0xEEEE, v, ax_cs_bsl(v, 4, rev));
    return _mm512_mask_add_ps(a, rev ? 0x3333 : 0xCCCC, a, ax_cs_bsl(a, 8, rev));
}
/* s + ((u + w) + z): u = [-0, T0, T1, T2], w = [-0, -0, T0, T1], z = [-0, -0, -0, T0] by quads (T_q: quad q's
 * k-last lane). */
AXIAL_INLINE blk blk_qoffs(blk s, int rev) {
    const __m512 z = _mm512_set1_ps(-0.0f);
    const __m512i iu = rev ? _mm512_setr_epi32(4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12, 0, 0, 0, 0)
                           : _mm512_setr_epi32(0, 0, 0, 0, 3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11);
    const __m512i iw = rev ? _mm512_setr_epi32(8, 8, 8, 8, 12, 12, 12, 12, 0, 0, 0, 0, 0, 0, 0, 0)
                           : _mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 7, 7, 7, 7);
    const __m512 u = _mm512_mask_permutexvar_ps(z, rev ? 0x0FFF : 0xFFF0, iu, s);
    const __m512 w = _mm512_mask_permutexvar_ps(z, rev ? 0x00FF : 0xFF00, iw, s);
    const __m512 t = _mm512_mask_permutexvar_ps(z, rev ? 0x000F : 0xF000,
                                                _mm512_set1_epi32(rev ? 12 : 3), s);
    return _mm512_add_ps(s, _mm512_add_ps(_mm512_add_ps(u, w), t));
}
/* Two rows of 8 in the block (k order): quad 1 + T0, quad 3 + T2. */
AXIAL_INLINE blk blk_qoffs8(blk s, int rev) {
    const __m512i i = rev ? _mm512_setr_epi32(4, 4, 4, 4, 0, 0, 0, 0, 12, 12, 12, 12, 0, 0, 0, 0)
                          : _mm512_setr_epi32(0, 0, 0, 0, 3, 3, 3, 3, 0, 0, 0, 0, 11, 11, 11, 11);
    return _mm512_mask_add_ps(s, rev ? 0x0F0F : 0xF0F0, s, _mm512_permutexvar_ps(i, s));
}
AXIAL_INLINE blk blk_qexcl(blk s, int rev) {
    const __m512i u = _mm512_castps_si512(s);
    return _mm512_castsi512_ps(rev ? _mm512_bsrli_epi128(u, 4) : _mm512_bslli_epi128(u, 4));
}
AXIAL_INLINE blk blk_up1(blk p, int rev) {
    const __m512i u = _mm512_castps_si512(p), z = _mm512_castps_si512(_mm512_set1_ps(-0.0f));
    return _mm512_castsi512_ps(rev ? _mm512_alignr_epi32(z, u, 1) : _mm512_alignr_epi32(u, z, 15));
}
AXIAL_INLINE double blk_total(blk p, int rev) {
    if (rev)
        return (double)_mm512_cvtss_f32(p);
    return (double)_mm_cvtss_f32(_mm_permute_ps(_mm512_extractf32x4_ps(p, 3), 3));
}
AXIAL_INLINE blk blk_addc(float c, blk e) { return _mm512_add_ps(_mm512_set1_ps(c), e); }

AXIAL_INLINE blkd blkd_ld(int k, const void *p, int rev) {
    (void)k;
    const double *d = (const double *)p;
    return (blkd){_mm512_loadu_pd(d + (rev ? 8 : 0)), _mm512_loadu_pd(d + (rev ? 0 : 8))};
}
AXIAL_INLINE void blkd_st(int k, void *p, blkd v, int rev, int nt) {
    (void)k;
    double *d = (double *)p;
    vd_put(d + (rev ? 8 : 0), v.a, nt);
    vd_put(d + (rev ? 0 : 8), v.b, nt);
}
AXIAL_INLINE __m512d ax_cs_dqscan(__m512d v, int rev) {
    const __m512d a = rev ? _mm512_mask_add_pd(v, 0x77, v, _mm512_permutex_pd(v, 0xF9))
                          : _mm512_mask_add_pd(v, 0xEE, v, _mm512_permutex_pd(v, 0x90));
    return rev ? _mm512_mask_add_pd(a, 0x33, a, _mm512_permutex_pd(a, 0xFE))
               : _mm512_mask_add_pd(a, 0xCC, a, _mm512_permutex_pd(a, 0x40));
}
AXIAL_INLINE blkd blkd_qscan(blkd v, int rev) { return (blkd){ax_cs_dqscan(v.a, rev), ax_cs_dqscan(v.b, rev)}; }
/* Quad 1 + T0; quad 2 + (T1 + T0); quad 3 + ((T2 + T1) + T0), as s.b + ([T1, T2] + [T0, T1]) + [-0, T0] (quads
 * in k order; reverse keeps them in the high, then the low half of each vector): three shuffles and three
 * adds. */
AXIAL_INLINE blkd blkd_qoffs(blkd s, int rev) {
    const __m512d e = _mm512_mask_permutexvar_pd(_mm512_set1_pd(-0.0), rev ? 0x0F : 0xF0,
                                                 _mm512_set1_epi64(rev ? 4 : 3), s.a);
    const __m512i iu = rev ? _mm512_setr_epi64(12, 12, 12, 12, 0, 0, 0, 0)
                           : _mm512_setr_epi64(7, 7, 7, 7, 11, 11, 11, 11);
    const __m512i iw = rev ? _mm512_setr_epi64(0, 0, 0, 0, 4, 4, 4, 4)
                           : _mm512_setr_epi64(3, 3, 3, 3, 7, 7, 7, 7);
    const __m512d u = _mm512_permutex2var_pd(s.a, iu, s.b), w = _mm512_permutexvar_pd(iw, s.a);
    return (blkd){_mm512_add_pd(s.a, e), _mm512_add_pd(s.b, _mm512_add_pd(_mm512_add_pd(u, w), e))};
}
AXIAL_INLINE blkd blkd_qexcl(blkd s, int rev) {
    s.a = rev ? _mm512_maskz_mov_pd(0x77, _mm512_permutex_pd(s.a, 0xF9))
              : _mm512_maskz_mov_pd(0xEE, _mm512_permutex_pd(s.a, 0x90));
    s.b = rev ? _mm512_maskz_mov_pd(0x77, _mm512_permutex_pd(s.b, 0xF9))
              : _mm512_maskz_mov_pd(0xEE, _mm512_permutex_pd(s.b, 0x90));
    return s;
}
AXIAL_INLINE blkd blkd_up1(blkd p, int rev) {
    const __m512i a = _mm512_castpd_si512(p.a), b = _mm512_castpd_si512(p.b),
                  z = _mm512_castpd_si512(_mm512_set1_pd(-0.0));
    if (rev)
        return (blkd){_mm512_castsi512_pd(_mm512_alignr_epi64(z, a, 1)),
                      _mm512_castsi512_pd(_mm512_alignr_epi64(a, b, 1))};
    return (blkd){_mm512_castsi512_pd(_mm512_alignr_epi64(a, z, 7)),
                  _mm512_castsi512_pd(_mm512_alignr_epi64(b, a, 7))};
}
AXIAL_INLINE double blkd_total(blkd p, int rev) {
    if (rev)
        return _mm512_cvtsd_f64(p.b);
    return _mm512_cvtsd_f64(_mm512_permutexvar_pd(_mm512_set1_epi64(7), p.b)); /* (one shuffle) */
}
AXIAL_INLINE blkd blkd_addc(double c, blkd e) {
    const __m512d d = _mm512_set1_pd(c);
    return (blkd){_mm512_add_pd(d, e.a), _mm512_add_pd(d, e.b)};
}

/* Integer lanes of kind k: "up" moves lanes toward higher k (forward: higher addresses; reverse: lower). */
AXIAL_INLINE vi vi_and(vi a, vi b) { return _mm512_and_si512(a, b); }
AXIAL_INLINE vi vi_cmpgt(int k, vi a, vi b) { /* (SIMDe has no cmpgt of epi16) */
    return AX_BY_KIND(k, _mm512_movm_epi8(_mm512_cmpgt_epi8_mask(a, b)), _mm512_movm_epi16(~_mm512_cmple_epi16_mask(a, b)),
                      _mm512_movm_epi32(_mm512_cmpgt_epi32_mask(a, b)), _mm512_movm_epi64(_mm512_cmpgt_epi64_mask(a, b)));
}
/* Up by d lanes (d * size in 1, 2, 4, 8, 16, 32 bytes), f's k-last lanes in: whole 128-bit lanes by valignd,
 * then bytes inside them by vpalignr. */
/* v moved q 32-bit lanes up (down: rev), f's lanes filling in */
AXIAL_INLINE vi ax_avx512_up32(vi v, vi f, int q, int rev) {
    switch (q) {
    case 1: return rev ? _mm512_alignr_epi32(f, v, 1) : _mm512_alignr_epi32(v, f, 15);
    case 2: return rev ? _mm512_alignr_epi32(f, v, 2) : _mm512_alignr_epi32(v, f, 14);
    case 4: return rev ? _mm512_alignr_epi32(f, v, 4) : _mm512_alignr_epi32(v, f, 12);
    default: return rev ? _mm512_alignr_epi32(f, v, 8) : _mm512_alignr_epi32(v, f, 8);
    }
}
AXIAL_INLINE vi vi_up(int k, vi v, vi f, int d, int rev) {
    const int b = d * (int)axk_size(k);
    if (b % 4 == 0)
        return ax_avx512_up32(v, f, b / 4, rev);
    const vi t = ax_avx512_up32(v, f, 4, rev); /* the neighbouring 128 bits */
    return b == 1 ? (rev ? _mm512_alignr_epi8(t, v, 1) : _mm512_alignr_epi8(v, t, 15))
                  : (rev ? _mm512_alignr_epi8(t, v, 2) : _mm512_alignr_epi8(v, t, 14));
}
AXIAL_INLINE vi ax_cs_idx_end(int e, int rev) {
    return _mm512_broadcast_i32x4(_mm_load_si128((const __m128i *)axk_idx_end_row(e, rev)));
}
/* v's last 16 bytes (k order) in every 16 bytes (ops/cumsum.h's flat run) */
AXIAL_INLINE vi vi_row16(vi v, int rev) { return rev ? _mm512_shuffle_i64x2(v, v, 0x00) : _mm512_shuffle_i64x2(v, v, 0xFF); }
AXIAL_INLINE vi vi_last(int k, vi s, int rev) {
    if (axk_size(k) == 8)
        return _mm512_permutexvar_epi64(_mm512_set1_epi64(rev ? 0 : 7), s);
    const vi d = _mm512_permutexvar_epi32(_mm512_set1_epi32(rev ? 0 : 15), s);
    return axk_size(k) == 4 ? d : _mm512_shuffle_epi8(d, ax_cs_idx_end((int)axk_size(k), rev));
}
/* Inclusive scan in k order: in-lane steps, then the lanes' totals across. */
AXIAL_INLINE vi vi_scan(int k, vi v, int rev) {
    const int e = (int)axk_size(k);
    const vi z = vi_zero();
    if (e >= 4) { /* whole 32-bit lanes move across the vector: one valignd a level */
        for (int q = e / 4; q < 16; q *= 2)
            v = vi_add(k, v, ax_avx512_up32(v, z, q, rev));
        return v;
    }
    for (int b = e; b < 16; b *= 2) {
        const vi t = rev ? (b == 1 ? _mm512_bsrli_epi128(v, 1) : b == 2 ? _mm512_bsrli_epi128(v, 2)
                            : b == 4 ? _mm512_bsrli_epi128(v, 4) : _mm512_bsrli_epi128(v, 8))
                         : (b == 1 ? _mm512_bslli_epi128(v, 1) : b == 2 ? _mm512_bslli_epi128(v, 2)
                            : b == 4 ? _mm512_bslli_epi128(v, 4) : _mm512_bslli_epi128(v, 8));
        v = vi_add(k, v, t);
    }
    vi t = _mm512_shuffle_epi8(v, ax_cs_idx_end(e, rev)); /* each lane's total */
    const vi t1 = rev ? _mm512_alignr_epi32(z, t, 4) : _mm512_alignr_epi32(t, z, 12);
    t = vi_add(k, t, t1);
    const vi t2 = rev ? _mm512_alignr_epi32(z, t, 8) : _mm512_alignr_epi32(t, z, 8);
    return vi_add(k, vi_add(k, v, t1), t2);
}

/* Override (ops/cumsum.h): a line's last r < 16 elements as the block at p (r at its k-first end, the rest
 * -0.0) by masked moves, not a stack copy (whose stores do not forward: 1.9x on lines of 40). */
#define AX_BLK_PART 1
AXIAL_INLINE __mmask16 ax_cs_part(size_t r, int rev) {
    return rev ? (__mmask16)(0xffffu << (16 - r)) : (__mmask16)((1u << r) - 1);
}
AXIAL_INLINE blk blk_ld_part(int k, const void *p, size_t r, int rev) {
    const __mmask16 m = ax_cs_part(r, rev);
    if (k == AXK_F32)
        return _mm512_mask_loadu_ps(_mm512_set1_ps(-0.0f), m, p);
    return _mm512_mask_blend_ps(m, _mm512_set1_ps(-0.0f), ax_avx512_widen(k, _mm256_maskz_loadu_epi16(m, p)));
}
AXIAL_INLINE void blk_st_part(int k, void *p, blk v, size_t r, int rev) {
    const __mmask16 m = ax_cs_part(r, rev);
    if (k == AXK_F32)
        _mm512_mask_storeu_ps(p, m, v);
    else
        _mm256_mask_storeu_epi16(p, m, ax_avx512_narrow(k, v));
}
AXIAL_INLINE blkd blkd_ld_part(const void *p, size_t r, int rev) {
    const unsigned m = ax_cs_part(r, rev);
    const __m512d z = _mm512_set1_pd(-0.0);
    const __m512d lo = _mm512_mask_loadu_pd(z, (__mmask8)m, p),
                  hi = _mm512_mask_loadu_pd(z, (__mmask8)(m >> 8), (const double *)p + 8);
    return rev ? (blkd){hi, lo} : (blkd){lo, hi};
}
AXIAL_INLINE void blkd_st_part(void *p, blkd v, size_t r, int rev) {
    const unsigned m = ax_cs_part(r, rev);
    _mm512_mask_storeu_pd(p, (__mmask8)m, rev ? v.b : v.a);
    _mm512_mask_storeu_pd((double *)p + 8, (__mmask8)(m >> 8), rev ? v.a : v.b);
}

/* Override (ops/cumsum.h): f32, f16, bf16 lines of n < 16, 16 / P to a vector in groups of P lanes (P the
 * power of two >= n, expanded, mirrored in reverse; the block's levels in a group): 5-150x a line at a time (n
 * 2-12). */
#define AX_CS_SHORT 1
AXIAL_INLINE void cs_short(int k, const char *x, char *y, size_t lines, size_t n, int excl,
                           int rev, int nt) {
    const size_t es = axk_size(k), P = n <= 2 ? 2 : n <= 4 ? 4 : n <= 8 ? 8 : 16, L = 16 / P; /* (n 1: a copy) */
    const __m512 negz = _mm512_set1_ps(-0.0f);
    __mmask16 mexp = 0, starts = 0;
    int32_t idx[16];
    for (size_t l = 0; l < 16; l++) {
        const size_t g = l / P * P, i = l % P;
        mexp |= (__mmask16)((i < n) << l);
        starts |= (__mmask16)((i == 0) << l);
        idx[l] = (int32_t)(g + ((n - 1 - i) & (P - 1)));
    }
    const __m512i ridx = _mm512_loadu_si512(idx);
    const __mmask16 m1 = P == 2 ? 0xAAAA : 0xEEEE, m2 = P >= 4 ? 0xCCCC : 0;
    nt = nt && k == AXK_F32 && n == P && ((uintptr_t)y & 63) == 0;
    for (size_t r = 0; r < lines; r += L) {
        const size_t cnt = lines - r < L ? lines - r : L, elems = cnt * n;
        vf v = elems == 16 ? vf_ld(k, x + r * n * es) : vf_ld_part(k, x + r * n * es, elems, -0.0f);
        if (n != P)
            v = _mm512_mask_expand_ps(negz, mexp, v);
        if (rev)
            v = _mm512_permutexvar_ps(ridx, v);
        vf p = v;
        if (P == 16) {
            p = blk_qoffs(blk_qscan(v, 0), 0);
        } else {
            p = _mm512_mask_add_ps(p, m1, p, ax_cs_bsl(p, 4, 0));
            if (m2)
                p = _mm512_mask_add_ps(p, m2, p, ax_cs_bsl(p, 8, 0));
            if (P == 8)
                p = blk_qoffs8(p, 0);
        }
        vf o = excl ? _mm512_maskz_mov_ps((__mmask16)~starts, blk_up1(p, 0)) : p;
        if (rev)
            o = _mm512_permutexvar_ps(ridx, o);
        if (n != P)
            o = _mm512_maskz_compress_ps(mexp, o);
        if (elems == 16)
            vf_put(k, y + r * n * es, o, nt);
        else
            vf_st_part(k, y + r * n * es, o, elems);
    }
}

/* Override (ops/cumsum.h): the carries [D, S] in one xmm, one addition per block for both chains; with
 * cs_step4, model (llvm-mca, f32 lines) 9.4 -> 7.4 cycles a block on znver4, 10.6 -> 6.6 on sapphirerapids. */
#define AX_CS_CARRY
typedef __m128d cs_carry;
AXIAL_INLINE cs_carry cs_carry_of(double D, double S) { return _mm_setr_pd(D, S); }
AXIAL_INLINE double cs_d(cs_carry c) { return _mm_cvtsd_f64(c); }
AXIAL_INLINE double cs_s(cs_carry c) { return _mm_cvtsd_f64(_mm_unpackhi_pd(c, c)); }
AXIAL_INLINE float cs_dc(cs_carry c) { return _mm_cvtss_f32(_mm_cvtpd_ps(c)); }
AXIAL_INLINE cs_carry cs_add(cs_carry c, double t) { return _mm_add_pd(c, _mm_set1_pd(t)); }

/* Override (ops/cumsum.h): four f32 blocks a step share one scan of their quad totals (E for all four),
 * carries through memory (t and (C)D broadcast loads, not shuffles); forward F32 takes the first level's
 * neighbours from a masked load one element off (one shuffle less). */
#define AX_CS_STEP4
AXIAL_INLINE blk ax_cs_qscan_mem(int k, blk v, const char *p, int rev) {
    if (k != AXK_F32)
        return blk_qscan(v, rev);
    const __m512 l = rev ? _mm512_maskz_loadu_ps(0x7777, p + 4)
                         : _mm512_maskz_loadu_ps(0xEEEE, (const void *)((uintptr_t)p - 4));
    const blk a = _mm512_mask_add_ps(v, rev ? 0x7777 : 0xEEEE, v, l);
    return _mm512_mask_add_ps(a, rev ? 0x3333 : 0xCCCC, a, ax_cs_bsl(a, 8, rev));
}
AXIAL_INLINE cs_carry cs_step4(int k, const char *xb, char *yb, cs_carry c, int out, int excl,
                               int rev, int nt) {
    const size_t bb = 16 * axk_size(k);
    const __m512 z = _mm512_set1_ps(-0.0f);
    blk s[4];
    _Pragma("GCC unroll 4") for (int u = 0; u < 4; u++) {
        const char *p = xb + (size_t)(rev ? 3 - u : u) * bb;
        s[u] = ax_cs_qscan_mem(k, blk_ld(k, p, rev), p, rev);
    }
    const __m512i gi = rev ? _mm512_setr_epi32(12, 8, 4, 0, 28, 24, 20, 16, 0, 0, 0, 0, 0, 0, 0, 0)
                           : _mm512_setr_epi32(3, 7, 11, 15, 19, 23, 27, 31, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m512 T = _mm512_shuffle_f32x4(_mm512_permutex2var_ps(s[0], gi, s[1]),
                                          _mm512_permutex2var_ps(s[2], gi, s[3]),
                                          _MM_SHUFFLE(1, 0, 1, 0));
    const __m512 Q = blk_qscan(T, 0); /* T of block u in lanes 4u .. 4u+3, k order */
    _Alignas(32) double t[4];
    _mm256_store_pd(t, _mm256_cvtps_pd(_mm512_castps512_ps128(_mm512_permutexvar_ps(
                           _mm512_setr_epi32(3, 7, 11, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
                           _mm512_add_ps(T, ax_cs_bsl(Q, 4, 0))))));
    __asm__("" : "+m"(t));
    float dc[4];
    _Pragma("GCC unroll 4") for (int u = 0; u < 4; u++) {
        _mm_store_ss(&dc[u], _mm_cvtpd_ps(c));
        c = _mm_add_pd(c, _mm_set1_pd(t[u]));
    }
    __asm__("" : "+m"(dc));
    if (!out)
        return c;
    _Pragma("GCC unroll 4") for (int u = 0; u < 4; u++) {
        const int q = 4 * u;
        const __m512i ei =
            rev ? _mm512_setr_epi32(q + 2, q + 2, q + 2, q + 2, q + 1, q + 1, q + 1, q + 1, q, q, q,
                                    q, 0, 0, 0, 0)
                : _mm512_setr_epi32(0, 0, 0, 0, q, q, q, q, q + 1, q + 1, q + 1, q + 1, q + 2, q + 2,
                                    q + 2, q + 2);
        const blk p = _mm512_add_ps(s[u], _mm512_mask_permutexvar_ps(z, rev ? 0x0FFF : 0xFFF0, ei, Q));
        s[u] = _mm512_add_ps(_mm512_set1_ps(dc[u]), excl ? blk_up1(p, rev) : p);
        if (k != AXK_BF16)
            blk_st(k, yb + (size_t)(rev ? 3 - u : u) * bb, s[u], rev, nt);
    }
    for (int u = 0; k == AXK_BF16 && u < 4; u += 2) { /* two blocks a store (Zen 4: 1.07x, timed) */
        const __m512i h = rev ? ax_avx512_bf16x2(s[3 - u], s[2 - u]) : ax_avx512_bf16x2(s[u], s[u + 1]);
        if (nt && ((uintptr_t)yb & 63) == 0) /* (nt: 32-byte aligned, a block's need) */
            _mm512_stream_si512((void *)(yb + (size_t)u * bb), h);
        else
            _mm512_storeu_si512(yb + (size_t)u * bb, h);
    }
    return c;
}

/* ---- roll ---- */
#define AX_ROLL_UNITS 7 /* vpshufb (bytes in 16-byte lanes), vpermw, vpermd */
#define AX_ROLL_LINE 64 /* stores aligned to cache lines */
#define AX_ROLL_NT 1
#define AX_ROLL_RUNMAX ((size_t)16 << 10) /* in-cache rows copied without peeling */
/* Override: stores in address order (GCC shuffles them): in-cache rolls up to 12% faster on Rocket Lake. */
#define AX_ROLL_INORDER 1
/* Override: in-cache rows over 512 bytes move by 32-byte halves: a 64-byte unaligned store always splits a
 * line, a 32-byte one half the time (faster on Zen 5). */
#define AX_ROLL_HALF_FROM 512
/* bytes of a where m's byte is set (m's bytes 0 or 0xff), else of b */
AXIAL_INLINE vi vi_sel8(vi m, vi a, vi b) { return _mm512_ternarylogic_epi64(m, a, b, 0xca); }
/* the bytes of a by an index from ax_roll_index (ops/roll.h), in units of u */
AXIAL_INLINE vi vi_tbl(vi a, vi idx, int u) {
    return u == 1   ? _mm512_shuffle_epi8(a, idx)
           : u == 2 ? _mm512_permutexvar_epi16(idx, a)
                    : _mm512_permutexvar_epi32(idx, a);
}

/* ---- reduce ---- */
AXIAL_INLINE vf vf_keep(vf v, size_t cnt, float fill) {
    return _mm512_mask_blend_ps((__mmask16)ax_mask(cnt), _mm512_set1_ps(fill), v);
}
AXIAL_INLINE vd vd_keep(vd v, size_t cnt, double fill) {
    return _mm512_mask_blend_pd((__mmask8)ax_mask(cnt), _mm512_set1_pd(fill), v);
}
/* (a, b) as blocks of 2q lanes: each block's first q lanes plus its last q, in block order (q = 1, 2, 4: one
 * halving of packed rows of 2q lanes) */
AXIAL_INLINE vd vd_halves_add(size_t q, vd a, vd b) {
    if (q == 4)
        return _mm512_add_pd(_mm512_shuffle_f64x2(a, b, 0x44), _mm512_shuffle_f64x2(a, b, 0xee));
    const __m512i lo = q == 1 ? _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14)
                              : _mm512_setr_epi64(0, 1, 4, 5, 8, 9, 12, 13);
    const __m512i hi = q == 1 ? _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15)
                              : _mm512_setr_epi64(2, 3, 6, 7, 10, 11, 14, 15);
    return _mm512_add_pd(_mm512_permutex2var_pd(a, lo, b), _mm512_permutex2var_pd(a, hi, b));
}
AXIAL_INLINE vf vf_pairs_add(vf a, vf b) {
    const __m512i ev = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i od = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    return _mm512_add_ps(_mm512_permutex2var_ps(a, ev, b), _mm512_permutex2var_ps(a, od, b));
}
/* rows of n elements packed q lanes apart (n < q): lane l is element (l / q) * n + l % q of v where l % q < n,
 * else -0.0 (one permute) */
AXIAL_INLINE vf vf_spread(vf v, size_t n, size_t q) {
    const __m512i l = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i in = _mm512_and_si512(l, _mm512_set1_epi32((int)q - 1));
    const __m512i row = _mm512_srlv_epi32(l, _mm512_set1_epi32(__builtin_ctzll(q)));
    const __m512i idx = _mm512_add_epi32(_mm512_mullo_epi32(row, _mm512_set1_epi32((int)n)), in);
    const unsigned m = ((1u << n) - 1) * (0xffffu / ((1u << q) - 1)); /* l % q < n */
    return _mm512_mask_permutexvar_ps(_mm512_set1_ps(-0.0f), (__mmask16)m, idx, v);
}
AXIAL_INLINE vd vd_spread(vd v, size_t n, size_t q) {
    const __m512i l = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    const __m512i in = _mm512_and_si512(l, _mm512_set1_epi64((long long)q - 1));
    const __m512i row = _mm512_srlv_epi64(l, _mm512_set1_epi64(__builtin_ctzll(q)));
    const __m512i idx = _mm512_add_epi64(_mm512_mullo_epi64(row, _mm512_set1_epi64((long long)n)), in);
    const unsigned m = ((1u << n) - 1) * (0xffu / ((1u << q) - 1));
    return _mm512_mask_permutexvar_pd(_mm512_set1_pd(-0.0), (__mmask8)m, idx, v);
}
/* Eight rows of 8 f64 lanes, r[i] row i, folded in halves to one lane each (lane i: row i): the default's adds
 * in its order, by in-lane shuffles that keep their operands (no index vectors, no register copies); the rows
 * are taken even then odd so that the last level's unpacks land in row order (in: 8-byte integer lanes,
 * vi_fold8). */
#define AX_F8_ADD(a, b) (in ? _mm512_castsi512_pd(_mm512_add_epi64(_mm512_castpd_si512(a), _mm512_castpd_si512(b))) : _mm512_add_pd(a, b))
AXIAL_INLINE vd ax_fold8(const vd *r, int in) {
    const vd w[8] = {r[0], r[2], r[4], r[6], r[1], r[3], r[5], r[7]};
    vd u[4], v[2];
    _Pragma("GCC unroll 4") for (int i = 0; i < 4; i++) /* rows of 4: lanes p + p+4 */
        u[i] = AX_F8_ADD(_mm512_shuffle_f64x2(w[2 * i], w[2 * i + 1], 0x44), _mm512_shuffle_f64x2(w[2 * i], w[2 * i + 1], 0xee));
    _Pragma("GCC unroll 2") for (int i = 0; i < 2; i++) /* rows of 2: lanes p + p+2 */
        v[i] = AX_F8_ADD(_mm512_shuffle_f64x2(u[2 * i], u[2 * i + 1], 0x88), _mm512_shuffle_f64x2(u[2 * i], u[2 * i + 1], 0xdd));
    return AX_F8_ADD(_mm512_unpacklo_pd(v[0], v[1]), _mm512_unpackhi_pd(v[0], v[1]));
}
#undef AX_F8_ADD
AXIAL_INLINE vd vd_fold8(const vd *r) { return ax_fold8(r, 0); }
AXIAL_INLINE vi vi_fold8(const vi *r) { /* (reduce: the wide integer groups of 8 rows; vi_addp's vpermt2q tree spilled) */
    vd d[8];
    _Pragma("GCC unroll 8") for (int i = 0; i < 8; i++) d[i] = _mm512_castsi512_pd(r[i]);
    return _mm512_castpd_si512(ax_fold8(d, 1));
}
#define AX_RED_INT_WIDE 1 /* (reduce: integer rows AX_VB / 8 a step, ops/reduce.h) */
AXIAL_INLINE vi vi_wide(int k, vi v) { /* zero-extended lanes: 8-byte sums (vpsadbw, or pairs) */
    v = k == AXK_I16 ? _mm512_add_epi32(_mm512_and_si512(v, _mm512_set1_epi32(0xffff)), _mm512_srli_epi32(v, 16)) : v;
    return k == AXK_I8 ? _mm512_sad_epu8(v, vi_zero()) : k == AXK_I64 ? v
        : _mm512_add_epi64(_mm512_and_si512(v, _mm512_set1_epi64(0xffffffff)), _mm512_srli_epi64(v, 32)); }
#define AX_RED_INT_STW 1 /* (reduce: wide groups' outputs narrowed straight to y: u8 rows of 13 0.83x, i32 of 40 0.92x, timed) */
AXIAL_INLINE void vi_stw(int k, void *p, vi v) { /* the low bytes of v's 8-byte lanes as k's lanes (vpmovq*) */
    AX_BY_KIND(k, _mm_storel_epi64(p, _mm512_cvtepi64_epi8(v)), _mm_storeu_si128(p, _mm512_cvtepi64_epi16(v)),
               _mm256_storeu_si256(p, _mm512_cvtepi64_epi32(v)), vi_st(p, v)); }
AXIAL_INLINE uint64_t vi_hsum(int k, vi v) { /* vi_wide's sums folded */
    v = vi_wide(k, v);
    const __m256i h = _mm256_add_epi64(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
    const __m128i q = _mm_add_epi64(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    return (uint64_t)_mm_cvtsi128_si64(_mm_add_epi64(q, _mm_unpackhi_epi64(q, q)));
}
/* Override (reduce): integer short rows, L rows a step (ops/reduce.h): 3-10x faster, timed */
AXIAL_INLINE vi vi_addp(int k, vi a, vi b) { /* a's adjacent lanes added, then b's */
#define AX_PAIRS(v, w) _mm512_and_si512(_mm512_add_epi##w(v, _mm512_srli_epi##w(v, w / 2)), _mm512_set1_epi##w((1 << w / 2) - 1))
    if (k == AXK_I8 || k == AXK_I16) /* pairs in lanes of twice the width, packed, quarters in order (no vpermt2b) */
        return _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), k == AXK_I8 ? _mm512_packus_epi16(AX_PAIRS(a, 16), AX_PAIRS(b, 16)) : _mm512_packus_epi32(AX_PAIRS(a, 32), AX_PAIRS(b, 32)));
#undef AX_PAIRS
    const vi ev = k == AXK_I32 ? _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30)
                               : _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), od = vi_add(k, ev, vi_set1(k, 1));
    return k == AXK_I32 ? _mm512_add_epi32(_mm512_permutex2var_epi32(a, ev, b), _mm512_permutex2var_epi32(a, od, b))
                        : _mm512_add_epi64(_mm512_permutex2var_epi64(a, ev, b), _mm512_permutex2var_epi64(a, od, b));
}
/* Override (reduce): L integer rows of 3 at p: each quarter of the rows (16- to 64-bit lanes) one permute of
 * its 3 L / 4 elements to 4 lanes a row (the 4th zero), then vi_addp twice; bytes as 16-bit lanes, half the
 * rows each */
#define AX_RED_INT_ROWS3 1
AXIAL_INLINE vi ax_rows3(int k, const vi *s) {
    static const uint8_t io[32] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                                   23, 24, 25, 26, 27, 28, 29, 30, 31}; /* lane l: l */
    const vi l = AX_BY_KIND(k, vi_zero(), _mm512_cvtepu8_epi16(_mm256_loadu_si256((const void *)io)),
                            _mm512_cvtepu8_epi32(_mm_loadu_si128((const void *)io)), _mm512_cvtepu8_epi64(_mm_loadl_epi64((const void *)io)));
    const vi r = AX_BY_KIND(k, l, _mm512_srli_epi16(l, 2), _mm512_srli_epi32(l, 2), _mm512_srli_epi64(l, 2));
    const vi t = vi_add(k, vi_add(k, vi_add(k, r, r), r), vi_and(l, vi_set1(k, 3))); /* 3 (l / 4) + l % 4 */
    const int L = (int)(AX_VB / axk_size(k));
    vi q[4];
    for (int j = 0; j < 4; j++) { /* rows j L / 4 ..: from s[v] and s[v + 1] */
        const int e = 3 * j * L / 4, v = e / L;
        const vi i = vi_add(k, t, vi_set1(k, e - v * L)), a = s[v], b = s[v < 2 ? v + 1 : 2];
        q[j] = AX_BY_KIND(k, vi_zero(), _mm512_maskz_permutex2var_epi16(0x77777777u, a, i, b),
                          _mm512_maskz_permutex2var_epi32(0x7777, a, i, b), _mm512_maskz_permutex2var_epi64(0x77, a, i, b));
    }
    return vi_addp(k, vi_addp(k, q[0], q[1]), vi_addp(k, q[2], q[3]));
}
AXIAL_INLINE vi vi_rows3(int k, const void *p) {
    const vi s[3] = {vi_ld(p), vi_ld((const char *)p + 64), vi_ld((const char *)p + 128)};
    vi w[6]; /* (bytes: the 6 halves of s widened; the sums of each 32 rows truncated back) */
    for (int i = 0; k == AXK_I8 && i < 6; i++)
        w[i] = _mm512_cvtepu8_epi16(i % 2 ? _mm512_extracti64x4_epi64(s[i / 2], 1) : _mm512_castsi512_si256(s[i / 2]));
    return k != AXK_I8 ? ax_rows3(k, s) : _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi16_epi8(ax_rows3(AXK_I16, w))),
                                                             _mm512_cvtepi16_epi8(ax_rows3(AXK_I16, w + 3)), 1);
}
#define AX_RED_INT_QUARTERS 1 /* (reduce: byte rows of up to a quarter of a vector, 4 a vector) */
AXIAL_INLINE vi vi_ld4q(const void *p, size_t s) { /* quarters from p, p + s, p + 2 s, p + 3 s bytes */
    const char *c = p;
    return _mm512_inserti32x4(_mm512_inserti32x4(_mm512_inserti32x4(_mm512_castsi128_si512(_mm_loadu_si128((const void *)c)),
        _mm_loadu_si128((const void *)(c + s)), 1), _mm_loadu_si128((const void *)(c + 2 * s)), 2), _mm_loadu_si128((const void *)(c + 3 * s)), 3);
}
AXIAL_INLINE vi vi_ld2h(const void *p, const void *q) { return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256(p)), _mm256_loadu_si256(q), 1); }
#define AX_RED_FOLD8 1 /* (rd_fold_rows of 8 rows) */
#define AX_RED_SPREAD 1 /* rows of 3, 5, 6, 7 packed by a permute: 2.7x on rows of 3 */
#define AX_RED_PF_SHORT 1 /* rows of up to 2 KiB prefetch per group: without it they wait on memory */
#define AX_RED_PF_LONG 1  /* f32/f16/bf16 rows from 2 KiB prefetch themselves: likewise */
#define AX_RED_COL_REGS 1 /* column tiles of 4 vectors: sums in registers down all rows */

#endif /* AXIAL_SIMD_AVX512_H */
