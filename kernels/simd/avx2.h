/* SPDX-License-Identifier: MIT */
/*
 * simd/avx2.h: the AVX2 + FMA + F16C vocabulary.  With simd/avx512.h and
 * simd/neon.h, the only kernel files with intrinsics: the algorithms
 * (ops/<op>.h) are written once over these names, and each ISA spells them
 * with its own instructions.  kernels/README.md lists the vocabulary and
 * says how to extend it.
 *
 * Native vectors: vf (8 f32 lanes), vd (4 f64), vi (32 bytes of integer
 * lanes).  Tails: AVX2 has no masked moves for 8/16-bit lanes and vmaskmov
 * stores are slow on AMD CPUs, so partial vectors go through a stack
 * buffer.  Narrowing rounds once, to nearest even: vcvtps2ph with an
 * explicit rounding immediate, and for bf16 the add-0x7fff-plus-lsb on the
 * bits (a NaN gets its quiet bit set instead, so the carry cannot turn it
 * into an infinity).
 */
#ifndef AXIAL_SIMD_AVX2_H
#define AXIAL_SIMD_AVX2_H

#if !defined(__AVX2__) || !defined(__FMA__) || !defined(__F16C__)
#error "kernels/avx2/ must be built with -mavx2 -mfma -mf16c"
#endif

#include <immintrin.h>

#define AX_ISA avx2
#include "simd/common.h"

AXIAL_DECLARE_KERNELS(avx2)

#define AX_VB 32 /* bytes of a native vector */
#define AX_NF 8  /* f32 lanes */
#define AX_ND 4  /* f64 lanes */
typedef __m256 vf;
typedef __m256d vd;
typedef __m256i vi;

/* ---- f32 lanes ------------------------------------------------------------ */
AXIAL_INLINE vf vf_set1(float c) { return _mm256_set1_ps(c); }
AXIAL_INLINE vf vf_add(vf a, vf b) { return _mm256_add_ps(a, b); }
AXIAL_INLINE vf vf_sub(vf a, vf b) { return _mm256_sub_ps(a, b); }
AXIAL_INLINE vf vf_max(vf a, vf b) { return _mm256_max_ps(a, b); }
AXIAL_INLINE vf vf_min(vf a, vf b) { return _mm256_min_ps(a, b); }

/* 8 elements of kind k (F32, F16, BF16), widened exactly to f32. */
AXIAL_INLINE vf vf_ld(int k, const void *p) {
    switch (k) {
    case AXK_F16: return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p));
    case AXK_BF16:
        return _mm256_castsi256_ps(
            _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p)), 16));
    default: return _mm256_loadu_ps((const float *)p);
    }
}
/* bf16 bits of 8 f32, rounded to nearest even, in the low 16 bytes. */
AXIAL_INLINE __m128i ax_avx2_bf16(vf v) {
    const __m256i u = _mm256_castps_si256(v);
    const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    __m256i r = _mm256_add_epi32(u, _mm256_add_epi32(lsb, _mm256_set1_epi32(0x7fff)));
    const __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    r = _mm256_blendv_epi8(r, _mm256_or_si256(u, _mm256_set1_epi32(0x400000)), nan);
    r = _mm256_srli_epi32(r, 16);
    const __m256i p = _mm256_packus_epi32(r, r); /* per 128-bit lane */
    return _mm256_castsi256_si128(_mm256_permute4x64_epi64(p, 0x08));
}
/* 8 f32 lanes stored as kind k, rounded once to nearest even; nt: a
 * streaming store to a 32-byte (F32) or 16-byte (F16, BF16) aligned p. */
AXIAL_INLINE void vf_put(int k, void *p, vf v, int nt) {
    switch (k) {
    case AXK_F16: {
        const __m128i h = _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        if (nt)
            _mm_stream_si128((__m128i *)p, h);
        else
            _mm_storeu_si128((__m128i *)p, h);
        break;
    }
    case AXK_BF16:
        if (nt)
            _mm_stream_si128((__m128i *)p, ax_avx2_bf16(v));
        else
            _mm_storeu_si128((__m128i *)p, ax_avx2_bf16(v));
        break;
    default:
        if (nt)
            _mm256_stream_ps((float *)p, v);
        else
            _mm256_storeu_ps((float *)p, v);
    }
}
AXIAL_INLINE void vf_st(int k, void *p, vf v) { vf_put(k, p, v, 0); }
/* cnt < 8 elements: lanes [0, cnt) from p, the others `fill`. */
AXIAL_INLINE vf vf_ld_part(int k, const void *p, size_t cnt, float fill) {
    _Alignas(32) float buf[8];
    _mm256_store_ps(buf, _mm256_set1_ps(fill));
    if (k == AXK_F32) {
        memcpy(buf, p, cnt * 4);
        return _mm256_load_ps(buf);
    }
    uint16_t h[8];
    memcpy(h, p, cnt * 2);
    const vf v = vf_ld(k, h);
    const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 keep = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32((int)cnt), idx));
    return _mm256_blendv_ps(_mm256_load_ps(buf), v, keep);
}
/* lanes [0, cnt) to p, cnt < 8 */
AXIAL_INLINE void vf_st_part(int k, void *p, vf v, size_t cnt) {
    _Alignas(32) float buf[8];
    vf_st(k, buf, v);
    memcpy(p, buf, cnt * axk_size(k));
}

/* ---- f64 lanes ------------------------------------------------------------ */
AXIAL_INLINE vd vd_set1(double c) { return _mm256_set1_pd(c); }
AXIAL_INLINE vd vd_add(vd a, vd b) { return _mm256_add_pd(a, b); }
AXIAL_INLINE vd vd_sub(vd a, vd b) { return _mm256_sub_pd(a, b); }
AXIAL_INLINE vd vd_max(vd a, vd b) { return _mm256_max_pd(a, b); }
AXIAL_INLINE vd vd_min(vd a, vd b) { return _mm256_min_pd(a, b); }
AXIAL_INLINE vd vd_ld(const double *p) { return _mm256_loadu_pd(p); }
AXIAL_INLINE void vd_st(double *p, vd v) { _mm256_storeu_pd(p, v); }
AXIAL_INLINE void vd_put(double *p, vd v, int nt) {
    if (nt)
        _mm256_stream_pd(p, v);
    else
        _mm256_storeu_pd(p, v);
}
AXIAL_INLINE vd vd_ld_part(const double *p, size_t cnt, double fill) {
    _Alignas(32) double buf[4];
    _mm256_store_pd(buf, _mm256_set1_pd(fill));
    memcpy(buf, p, cnt * 8);
    return _mm256_load_pd(buf);
}
AXIAL_INLINE void vd_st_part(double *p, vd v, size_t cnt) {
    _Alignas(32) double buf[4];
    _mm256_store_pd(buf, v);
    memcpy(p, buf, cnt * 8);
}
/* f32 lanes [0, 4) and [4, 8) widened (exact). */
AXIAL_INLINE vd vd_lo(vf v) { return _mm256_cvtps_pd(_mm256_castps256_ps128(v)); }
AXIAL_INLINE vd vd_hi(vf v) { return _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)); }
/* f64 -> f32, round to nearest even: lanes of lo, then of hi. */
AXIAL_INLINE vf vf_narrow(vd lo, vd hi) {
    return _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
}
/* f64 -> f32 rounded to odd: RNE, then where that was inexact and gave an
 * even significand, a step to the odd neighbour on the exact value's side.
 * A later RNE to f16/bf16 then rounds as if straight from f64.  NaN stays
 * NaN; overflow steps back to FLT_MAX (odd), which still rounds to inf in
 * f16/bf16; underflow to 0 steps to the smallest subnormal. */
AXIAL_INLINE __m128 ax_avx2_odd4(vd d) {
    const __m128 f = _mm256_cvtpd_ps(d);
    const __m256d back = _mm256_cvtps_pd(f);
    const __m256d abs = _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_MAX));
    const __m256d inexact = _mm256_cmp_pd(back, d, _CMP_NEQ_OQ);
    const __m256d away =
        _mm256_cmp_pd(_mm256_and_pd(back, abs), _mm256_and_pd(d, abs), _CMP_GT_OQ);
    const __m256i pick = _mm256_setr_epi32(0, 2, 4, 6, 0, 0, 0, 0);
    const __m128i inex32 = _mm256_castsi256_si128(
        _mm256_permutevar8x32_epi32(_mm256_castpd_si256(inexact), pick));
    const __m128i away32 = _mm256_castsi256_si128(
        _mm256_permutevar8x32_epi32(_mm256_castpd_si256(away), pick));
    const __m128i bits = _mm_castps_si128(f);
    const __m128i one = _mm_set1_epi32(1);
    const __m128i even = _mm_cmpeq_epi32(_mm_and_si128(bits, one), _mm_setzero_si128());
    const __m128i delta = _mm_and_si128(_mm_and_si128(inex32, even), _mm_or_si128(away32, one));
    return _mm_castsi128_ps(_mm_add_epi32(bits, delta));
}
AXIAL_INLINE vf vf_narrow_odd(vd lo, vd hi) {
    return _mm256_set_m128(ax_avx2_odd4(hi), ax_avx2_odd4(lo));
}
/* f64 sums -> f32 lanes that vf_st(k) rounds exactly once to kind k. */
AXIAL_INLINE vf vf_narrow_for(int k, vd lo, vd hi) {
    return k == AXK_F32 ? vf_narrow(lo, hi) : vf_narrow_odd(lo, hi);
}

/* ---- integer lanes (k: AXK_I8 .. AXK_I64; wrapping) ----------------------- */
AXIAL_INLINE vi vi_zero(void) { return _mm256_setzero_si256(); }
AXIAL_INLINE vi vi_ld(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
AXIAL_INLINE void vi_st(void *p, vi v) { _mm256_storeu_si256((__m256i *)p, v); }
/* a store to a 32-byte aligned p, streaming or plain */
AXIAL_INLINE void vi_put_aligned(void *p, vi v, int nt) {
    if (nt)
        _mm256_stream_si256((__m256i *)p, v);
    else
        _mm256_store_si256((__m256i *)p, v);
}
AXIAL_INLINE vi vi_ld_part(const void *p, size_t bytes) {
    _Alignas(32) unsigned char buf[32] = {0};
    memcpy(buf, p, bytes);
    return _mm256_load_si256((const __m256i *)(const void *)buf);
}
AXIAL_INLINE void vi_st_part(void *p, vi v, size_t bytes) {
    _Alignas(32) unsigned char buf[32];
    _mm256_store_si256((__m256i *)(void *)buf, v);
    memcpy(p, buf, bytes);
}
AXIAL_INLINE vi vi_add(int k, vi a, vi b) {
    switch (k) {
    case AXK_I8: return _mm256_add_epi8(a, b);
    case AXK_I16: return _mm256_add_epi16(a, b);
    case AXK_I32: return _mm256_add_epi32(a, b);
    default: return _mm256_add_epi64(a, b);
    }
}
AXIAL_INLINE vi vi_sub(int k, vi a, vi b) {
    switch (k) {
    case AXK_I8: return _mm256_sub_epi8(a, b);
    case AXK_I16: return _mm256_sub_epi16(a, b);
    case AXK_I32: return _mm256_sub_epi32(a, b);
    default: return _mm256_sub_epi64(a, b);
    }
}
AXIAL_INLINE vi vi_set1(int k, int64_t c) {
    switch (k) {
    case AXK_I8: return _mm256_set1_epi8((char)c);
    case AXK_I16: return _mm256_set1_epi16((short)c);
    case AXK_I32: return _mm256_set1_epi32((int)c);
    default: return _mm256_set1_epi64x(c);
    }
}

/* ---- memory ordering ------------------------------------------------------ */
/* After streaming stores, before the call returns. */
AXIAL_INLINE void ax_stream_fence(void) { _mm_sfence(); }

/* ---- reduce ---- */
/* v, computed at this point (an empty volatile asm: no code, but GCC keeps
 * such statements in order) */
AXIAL_INLINE vf vf_opaque(vf v) {
    __asm__ volatile("" : "+x"(v));
    return v;
}
AXIAL_INLINE vd vd_opaque(vd v) {
    __asm__ volatile("" : "+x"(v));
    return v;
}
/* v with its lanes >= cnt replaced by fill */
AXIAL_INLINE vf vf_keep(vf v, size_t cnt, float fill) {
    const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 m = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32((int)cnt), idx));
    return _mm256_blendv_ps(_mm256_set1_ps(fill), v, m);
}
AXIAL_INLINE vd vd_keep(vd v, size_t cnt, double fill) {
    const __m256i idx = _mm256_setr_epi64x(0, 1, 2, 3);
    const __m256d m = _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)cnt), idx));
    return _mm256_blendv_pd(_mm256_set1_pd(fill), v, m);
}
/* (a, b) as blocks of 2q lanes: each block's first q lanes plus its last q,
 * in block order (q = 1, 2: one halving of packed rows of 2q lanes) */
AXIAL_INLINE vd vd_halves_add(size_t q, vd a, vd b) {
    if (q == 1)
        return _mm256_permute4x64_pd(_mm256_hadd_pd(a, b), 0xd8);
    return _mm256_add_pd(_mm256_permute2f128_pd(a, b, 0x20), _mm256_permute2f128_pd(a, b, 0x31));
}
/* the sums of adjacent lanes: a0+a1, a2+a3, .., then b's */
AXIAL_INLINE vf vf_pairs_add(vf a, vf b) {
    const __m256 h = _mm256_add_ps(_mm256_shuffle_ps(a, b, 0x88), _mm256_shuffle_ps(a, b, 0xdd));
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(h), 0xd8));
}
#define AX_RED_PF_SHORT 1 /* short rows prefetch per group: without it they wait on memory */
#define AX_RED_PF_COLS 1  /* column blocks >= 2 MiB prefetch the next group's row lines */

#endif /* AXIAL_SIMD_AVX2_H */
