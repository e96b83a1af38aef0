/* SPDX-License-Identifier: MIT */
/*
 * simd/avx512.h: the AVX-512 F + VL + BW + DQ vocabulary (simd/avx2.h says
 * what a vocabulary is).  Native vectors: vf (16 f32 lanes, one zmm), vd
 * (8 f64), vi (64 bytes).  Tails are masked loads and stores: nothing
 * outside the tensor is touched, and the missing lanes get the fill.
 * Narrowing rounds once, to nearest even (vcvtps2ph with an explicit
 * rounding immediate; bf16 by add-0x7fff-plus-lsb on the bits, a NaN gets
 * its quiet bit instead); f64 -> f32 to odd is one conversion toward zero
 * with the sticky bit or-ed in where inexact.
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

/* An empty asm operand that makes a vector opaque to the optimiser (kept in
 * a register; in memory in the emulated test build, whose vectors are
 * structs). */
#ifdef AXIAL_AVX512_EMULATED
#define AXIAL_AVX512_OPAQUE(v) "+m"(v)
#else
#define AXIAL_AVX512_OPAQUE(v) "+v"(v)
#endif

#define AX_VB 64
#define AX_NF 16
#define AX_ND 8
typedef __m512 vf;
typedef __m512d vd;
typedef __m512i vi;

/* A mask of the low k lanes (0 <= k <= 64). */
AXIAL_INLINE __mmask64 ax_mask(size_t k) {
    return k >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << k) - 1);
}

/* ---- f32 lanes ------------------------------------------------------------ */
AXIAL_INLINE vf vf_set1(float c) { return _mm512_set1_ps(c); }
AXIAL_INLINE vf vf_add(vf a, vf b) { return _mm512_add_ps(a, b); }
AXIAL_INLINE vf vf_sub(vf a, vf b) { return _mm512_sub_ps(a, b); }
AXIAL_INLINE vf vf_max(vf a, vf b) { return _mm512_max_ps(a, b); }
AXIAL_INLINE vf vf_min(vf a, vf b) { return _mm512_min_ps(a, b); }

AXIAL_INLINE vf ax_avx512_widen(int k, __m256i h) {
    if (k == AXK_F16)
        return _mm512_cvtph_ps(h);
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}
/* 16 elements of kind k (F32, F16, BF16), widened exactly to f32. */
AXIAL_INLINE vf vf_ld(int k, const void *p) {
    if (k == AXK_F32)
        return _mm512_loadu_ps(p);
    return ax_avx512_widen(k, _mm256_loadu_si256((const __m256i *)p));
}
AXIAL_INLINE __m256i ax_avx512_narrow(int k, vf v) {
    if (k == AXK_F16)
        return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m512i u = _mm512_castps_si512(v);
    const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    const __m512i r = _mm512_add_epi32(u, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff)));
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    const __m512i q = _mm512_mask_or_epi32(r, nan, u, _mm512_set1_epi32(0x400000));
    return _mm512_cvtepi32_epi16(_mm512_srli_epi32(q, 16));
}
/* 16 f32 lanes stored as kind k, rounded once; nt: streaming, p aligned to
 * the store's size (64 bytes for F32, 32 for F16/BF16). */
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
AXIAL_INLINE vf vf_ld_part(int k, const void *p, size_t cnt, float fill) {
    const __mmask16 m = (__mmask16)ax_mask(cnt);
    if (k == AXK_F32)
        return _mm512_mask_loadu_ps(_mm512_set1_ps(fill), m, p);
    const vf w = ax_avx512_widen(k, _mm256_maskz_loadu_epi16(m, p));
    return _mm512_mask_blend_ps(m, _mm512_set1_ps(fill), w);
}
AXIAL_INLINE void vf_st_part(int k, void *p, vf v, size_t cnt) {
    const __mmask16 m = (__mmask16)ax_mask(cnt);
    if (k == AXK_F32)
        _mm512_mask_storeu_ps(p, m, v);
    else
        _mm256_mask_storeu_epi16(p, m, ax_avx512_narrow(k, v));
}

/* ---- f64 lanes ------------------------------------------------------------ */
AXIAL_INLINE vd vd_set1(double c) { return _mm512_set1_pd(c); }
AXIAL_INLINE vd vd_add(vd a, vd b) { return _mm512_add_pd(a, b); }
AXIAL_INLINE vd vd_sub(vd a, vd b) { return _mm512_sub_pd(a, b); }
AXIAL_INLINE vd vd_max(vd a, vd b) { return _mm512_max_pd(a, b); }
AXIAL_INLINE vd vd_min(vd a, vd b) { return _mm512_min_pd(a, b); }
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
AXIAL_INLINE void vd_st_part(double *p, vd v, size_t cnt) {
    _mm512_mask_storeu_pd(p, (__mmask8)ax_mask(cnt), v);
}
AXIAL_INLINE vd vd_lo(vf v) { return _mm512_cvtps_pd(_mm512_castps512_ps256(v)); }
AXIAL_INLINE vd vd_hi(vf v) {
    return _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)));
}
AXIAL_INLINE vf vf_narrow(vd lo, vd hi) {
    return _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)), _mm512_cvtpd_ps(hi), 1);
}
/* f64 -> f32 rounded to odd: toward zero, the lsb set where inexact (a NaN
 * stays NaN; beyond FLT_MAX gives FLT_MAX, odd, which a narrower RNE still
 * rounds to inf). */
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
AXIAL_INLINE vf vf_narrow_for(int k, vd lo, vd hi) {
    return k == AXK_F32 ? vf_narrow(lo, hi) : vf_narrow_odd(lo, hi);
}

/* ---- integer lanes -------------------------------------------------------- */
AXIAL_INLINE vi vi_zero(void) { return _mm512_setzero_si512(); }
AXIAL_INLINE vi vi_ld(const void *p) { return _mm512_loadu_si512(p); }
AXIAL_INLINE void vi_st(void *p, vi v) { _mm512_storeu_si512(p, v); }
AXIAL_INLINE void vi_put_aligned(void *p, vi v, int nt) {
    if (nt)
        _mm512_stream_si512((__m512i *)p, v);
    else
        _mm512_store_si512(p, v);
}
AXIAL_INLINE vi vi_ld_part(const void *p, size_t bytes) {
    return _mm512_maskz_loadu_epi8(ax_mask(bytes), p);
}
AXIAL_INLINE void vi_st_part(void *p, vi v, size_t bytes) {
    _mm512_mask_storeu_epi8(p, ax_mask(bytes), v);
}
AXIAL_INLINE vi vi_add(int k, vi a, vi b) {
    switch (k) {
    case AXK_I8: return _mm512_add_epi8(a, b);
    case AXK_I16: return _mm512_add_epi16(a, b);
    case AXK_I32: return _mm512_add_epi32(a, b);
    default: return _mm512_add_epi64(a, b);
    }
}
AXIAL_INLINE vi vi_sub(int k, vi a, vi b) {
    switch (k) {
    case AXK_I8: return _mm512_sub_epi8(a, b);
    case AXK_I16: return _mm512_sub_epi16(a, b);
    case AXK_I32: return _mm512_sub_epi32(a, b);
    default: return _mm512_sub_epi64(a, b);
    }
}
AXIAL_INLINE vi vi_set1(int k, int64_t c) {
    switch (k) {
    case AXK_I8: return _mm512_set1_epi8((char)c);
    case AXK_I16: return _mm512_set1_epi16((short)c);
    case AXK_I32: return _mm512_set1_epi32((int)c);
    default: return _mm512_set1_epi64(c);
    }
}

AXIAL_INLINE void ax_stream_fence(void) { _mm_sfence(); }

/* ---- reduce ---- */
/* v, computed at this point (an empty volatile asm: no code, but GCC keeps
 * such statements in order) */
AXIAL_INLINE vf vf_opaque(vf v) {
    __asm__ volatile("" : AXIAL_AVX512_OPAQUE(v));
    return v;
}
AXIAL_INLINE vd vd_opaque(vd v) {
    __asm__ volatile("" : AXIAL_AVX512_OPAQUE(v));
    return v;
}
AXIAL_INLINE vf vf_keep(vf v, size_t cnt, float fill) {
    return _mm512_mask_blend_ps((__mmask16)ax_mask(cnt), _mm512_set1_ps(fill), v);
}
AXIAL_INLINE vd vd_keep(vd v, size_t cnt, double fill) {
    return _mm512_mask_blend_pd((__mmask8)ax_mask(cnt), _mm512_set1_pd(fill), v);
}
/* (a, b) as blocks of 2q lanes: each block's first q lanes plus its last q,
 * in block order (q = 1, 2, 4: one halving of packed rows of 2q lanes) */
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
/* rows of n elements packed q lanes apart (n < q): lane l is element
 * (l / q) * n + l % q of v where l % q < n, else -0.0 (one permute) */
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
#define AX_RED_SPREAD 1 /* rows of 3, 5, 6, 7 packed by a permute: 2.7x on rows of 3 */
#define AX_RED_PF_SHORT 1 /* rows of up to 2 KiB prefetch per group: without it they wait on memory */
#define AX_RED_PF_LONG 1  /* f32/f16/bf16 rows from 2 KiB prefetch themselves: likewise */

#endif /* AXIAL_SIMD_AVX512_H */
