/* SPDX-License-Identifier: MIT */
/*
 * simd/avx2.h: the AVX2 + FMA + F16C vocabulary.  With simd/avx512.h and simd/neon.h, the only kernel files
 * with intrinsics: the algorithms (ops/<op>.h) are written once over these names, and each ISA spells them
 * with its own instructions.  kernels/README.md lists the vocabulary and says how to extend it.
 *
 * Native vectors: vf (8 f32 lanes), vd (4 f64), vi (32 bytes of integer lanes).  Tails: AVX2 has no masked
 * moves for 8/16-bit lanes and vmaskmov stores are slow on AMD CPUs, so partial vectors go through a stack
 * buffer.  Narrowing rounds once, to nearest even: vcvtps2ph with an explicit rounding immediate, and for bf16
 * the add-0x7fff-plus-lsb on the bits (a NaN gets its quiet bit set instead, so the carry cannot turn it into
 * an infinity).
 */
#ifndef AXIAL_SIMD_AVX2_H
#define AXIAL_SIMD_AVX2_H

#if !defined(__AVX2__) || !defined(__FMA__) || !defined(__F16C__)
#error "kernels/avx2/ must be built with -mavx2 -mfma -mf16c"
#endif

#include <immintrin.h>
#include <math.h>

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

/* 8 elements of kind k (F32, F16, BF16), widened exactly to f32. */
AXIAL_INLINE vf vf_ld(int k, const void *p) {
    switch (k) {
    case AXK_F16: return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p));
    case AXK_BF16: /* each word to its dword's top half: a broadcast load (no shuffle uop) and an
                    * in-lane vpshufb, not a lane-crossing vpmovzxwd and a shift */
        return _mm256_castsi256_ps(_mm256_shuffle_epi8(
            _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)p)),
            _mm256_setr_epi8(-1, -1, 0, 1, -1, -1, 2, 3, -1, -1, 4, 5, -1, -1, 6, 7, -1, -1, 8, 9, -1,
                             -1, 10, 11, -1, -1, 12, 13, -1, -1, 14, 15)));
    default: return _mm256_loadu_ps((const float *)p);
    }
}
/* bf16 bits (to nearest even) in the low half of each dword; nan: NaN kept NaN (else no NaN). */
AXIAL_INLINE __m256i ax_avx2_bf16_bits(__m256 v, int nan) {
    const __m256i u = _mm256_castps_si256(v);
    const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    __m256i r = _mm256_add_epi32(u, _mm256_add_epi32(lsb, _mm256_set1_epi32(0x7fff)));
    if (nan)
        r = _mm256_blendv_epi8(r, _mm256_or_si256(u, _mm256_set1_epi32(0x400000)),
                               _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q)));
    return _mm256_srli_epi32(r, 16);
}
/* bf16 bits of 8 f32, rounded to nearest even, in the low 16 bytes. */
AXIAL_INLINE __m128i ax_avx2_bf16(vf v) {
    const __m256i r = ax_avx2_bf16_bits(v, 1);
    return _mm256_castsi256_si128(_mm256_permute4x64_epi64(_mm256_packus_epi32(r, r), 0x08));
}
/* 8 f32 lanes stored as kind k, rounded once to nearest even; nt: a streaming store to a 32-byte (F32) or
 * 16-byte (F16, BF16) aligned p. */
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
/* The lanes [0, cnt) of 32-bit (or, by pairs, 64-bit) lanes: a vmaskmov mask. */
AXIAL_INLINE __m256i ax_avx2_lanes(size_t cnt) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)cnt), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
/* The bytes [0, r) at p (r < 4) in the low bytes of a dword, one by one. */
AXIAL_INLINE uint32_t ax_avx2_ld_few(const unsigned char *b, size_t r) {
    return (r > 0 ? b[0] : 0u) | (r > 1 ? (uint32_t)b[1] << 8 : 0u) |
           (r > 2 ? (uint32_t)b[2] << 16 : 0u);
}
AXIAL_INLINE void ax_avx2_st_few(unsigned char *b, uint32_t t, size_t r) {
    if (r > 0)
        b[0] = (unsigned char)t;
    if (r > 1)
        b[1] = (unsigned char)(t >> 8);
    if (r > 2)
        b[2] = (unsigned char)(t >> 16);
}
/* bytes < 32 from p, zeros after: up to 8 bytes by scalar moves, more as whole dwords by vmaskmov (masked
 * lanes are not read: no fault past the end) and the last 1 to 3 bytes one by one. */
AXIAL_INLINE __m256i ax_avx2_ld_bytes(const void *p, size_t bytes) {
    const unsigned char *b = (const unsigned char *)p;
    if (bytes <= 8) {
        uint64_t t;
        if (bytes == 8) {
            memcpy(&t, b, 8);
        } else if (bytes >= 4) {
            uint32_t lo;
            memcpy(&lo, b, 4);
            t = lo | (uint64_t)ax_avx2_ld_few(b + 4, bytes - 4) << 32;
        } else {
            t = ax_avx2_ld_few(b, bytes);
        }
        return _mm256_set_m128i(_mm_setzero_si128(), _mm_cvtsi64_si128((long long)t));
    }
    const size_t d = bytes / 4, r = bytes % 4;
    __m256i v = _mm256_maskload_epi32((const int *)p, ax_avx2_lanes(d));
    if (r) {
        const __m256i at = _mm256_cmpeq_epi32(_mm256_set1_epi32((int)d),
                                              _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        v = _mm256_blendv_epi8(v, _mm256_set1_epi32((int)ax_avx2_ld_few(b + 4 * d, r)), at);
    }
    return v;
}
AXIAL_INLINE void ax_avx2_st_bytes(void *p, __m256i v, size_t bytes) {
    unsigned char *b = (unsigned char *)p;
    if (bytes <= 8) {
        const uint64_t t = (uint64_t)_mm_cvtsi128_si64(_mm256_castsi256_si128(v));
        if (bytes == 8) {
            memcpy(b, &t, 8);
        } else if (bytes >= 4) {
            const uint32_t lo = (uint32_t)t;
            memcpy(b, &lo, 4);
            ax_avx2_st_few(b + 4, (uint32_t)(t >> 32), bytes - 4);
        } else {
            ax_avx2_st_few(b, (uint32_t)t, bytes);
        }
        return;
    }
    const size_t d = bytes / 4, r = bytes % 4;
    _mm256_maskstore_epi32((int *)p, ax_avx2_lanes(d), v);
    if (r)
        ax_avx2_st_few(b + 4 * d, (uint32_t)_mm256_cvtsi256_si32(_mm256_permutevar8x32_epi32(
                                      v, _mm256_set1_epi32((int)d))),
                       r);
}
/* cnt < 8 elements: lanes [0, cnt) from p, the others `fill`. */
AXIAL_INLINE vf vf_ld_part(int k, const void *p, size_t cnt, float fill) {
    const __m256i m = ax_avx2_lanes(cnt);
    vf v;
    if (k == AXK_F32)
        v = _mm256_maskload_ps((const float *)p, m);
    else if (k == AXK_F16)
        v = _mm256_cvtph_ps(_mm256_castsi256_si128(ax_avx2_ld_bytes(p, cnt * 2)));
    else
        v = _mm256_castsi256_ps(_mm256_slli_epi32(
            _mm256_cvtepu16_epi32(_mm256_castsi256_si128(ax_avx2_ld_bytes(p, cnt * 2))), 16));
    if (fill == 0.0f && !signbit(fill)) /* the lanes past cnt are +0.0 already */
        return v;
    return _mm256_blendv_ps(_mm256_set1_ps(fill), v, _mm256_castsi256_ps(m));
}
/* lanes [0, cnt) to p, cnt < 8 */
AXIAL_INLINE void vf_st_part(int k, void *p, vf v, size_t cnt) {
    if (k == AXK_F32)
        _mm256_maskstore_ps((float *)p, ax_avx2_lanes(cnt), v);
    else
        ax_avx2_st_bytes(p,
                         _mm256_castsi128_si256(
                             k == AXK_F16 ? _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT |
                                                                   _MM_FROUND_NO_EXC)
                                          : ax_avx2_bf16(v)),
                         cnt * 2);
}

/* ---- f64 lanes ------------------------------------------------------------ */
AXIAL_INLINE vd vd_set1(double c) { return _mm256_set1_pd(c); }
AXIAL_INLINE vd vd_add(vd a, vd b) { return _mm256_add_pd(a, b); }
AXIAL_INLINE vd vd_sub(vd a, vd b) { return _mm256_sub_pd(a, b); }
AXIAL_INLINE vd vd_max(vd a, vd b) { return _mm256_max_pd(a, b); }
AXIAL_INLINE vd vd_ld(const double *p) { return _mm256_loadu_pd(p); }
AXIAL_INLINE void vd_st(double *p, vd v) { _mm256_storeu_pd(p, v); }
AXIAL_INLINE void vd_put(double *p, vd v, int nt) {
    if (nt)
        _mm256_stream_pd(p, v);
    else
        _mm256_storeu_pd(p, v);
}
AXIAL_INLINE vd vd_ld_part(const double *p, size_t cnt, double fill) {
    const __m256i m = ax_avx2_lanes(2 * cnt);
    return _mm256_blendv_pd(_mm256_set1_pd(fill), _mm256_maskload_pd(p, m), _mm256_castsi256_pd(m));
}
AXIAL_INLINE void vd_st_part(double *p, vd v, size_t cnt) { _mm256_maskstore_pd(p, ax_avx2_lanes(2 * cnt), v); }
/* AX_ND f32 (k) as f64, and stored from f64 rounded */
AXIAL_INLINE vd vd_ld_h(int k, const void *p) { return (void)k, _mm256_cvtps_pd(_mm_loadu_ps(p)); }
AXIAL_INLINE void vd_put_h(int k, void *p, vd v, int nt) {
    (void)k, nt ? _mm_stream_ps(p, _mm256_cvtpd_ps(v)) : _mm_storeu_ps(p, _mm256_cvtpd_ps(v));
}
/* cnt <= 4 f32 */
AXIAL_INLINE vd vd_ld_f32_part(const float *p, size_t cnt) {
    return _mm256_cvtps_pd(_mm_maskload_ps(p, _mm256_castsi256_si128(ax_avx2_lanes(cnt))));
}
AXIAL_INLINE void vd_st_f32_part(float *p, vd v, size_t cnt) {
    _mm_maskstore_ps(p, _mm256_castsi256_si128(ax_avx2_lanes(cnt)), _mm256_cvtpd_ps(v));
}
/* f32 lanes [0, 4) and [4, 8) widened (exact). */
AXIAL_INLINE vd vd_lo(vf v) { return _mm256_cvtps_pd(_mm256_castps256_ps128(v)); }
AXIAL_INLINE vd vd_hi(vf v) { return _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)); }
/* f64 -> f32, round to nearest even: lanes of lo, then of hi. */
AXIAL_INLINE vf vf_narrow(vd lo, vd hi) { return _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo)); }
/* f64 -> f32 rounded to odd: RNE, one step toward zero where that went away from zero (the truncation), then
 * the lsb set where inexact.  A later RNE to f16/bf16 then rounds as if straight from f64.  NaN stays NaN;
 * overflow steps back to FLT_MAX (odd), which still rounds to inf in f16/bf16; underflow to 0 becomes the
 * smallest subnormal. */
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
    const __m128i trunc = _mm_add_epi32(_mm_castps_si128(f), away32); /* -1 where away */
    return _mm_castsi128_ps(_mm_or_si128(trunc, _mm_and_si128(inex32, _mm_set1_epi32(1))));
}
AXIAL_INLINE vf vf_narrow_odd(vd lo, vd hi) { return _mm256_set_m128(ax_avx2_odd4(hi), ax_avx2_odd4(lo)); }

/* ---- integer lanes (k: AXK_I8 .. AXK_I64; wrapping) ----------------------- */
AXIAL_INLINE vi vi_zero(void) { return _mm256_setzero_si256(); }
AXIAL_INLINE vi vi_ld(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
AXIAL_INLINE void vi_st(void *p, vi v) { _mm256_storeu_si256((__m256i *)p, v); }
/* nt: a streaming store to an aligned p; else a plain one */
AXIAL_INLINE void vi_put(void *p, vi v, int nt) { nt ? _mm256_stream_si256((__m256i *)p, v) : vi_st(p, v); }
AXIAL_INLINE vi vi_ld_part(const void *p, size_t bytes) { return ax_avx2_ld_bytes(p, bytes); }
AXIAL_INLINE void vi_st_part(void *p, vi v, size_t bytes) { ax_avx2_st_bytes(p, v, bytes); }
/* f (add, sub, cmpgt) over integer kind k's lanes */
#define AX_AVX2_W(k, f, a, b) AX_BY_KIND(k, f##_epi8(a, b), f##_epi16(a, b), f##_epi32(a, b), f##_epi64(a, b))
AXIAL_INLINE vi vi_add(int k, vi a, vi b) { return AX_AVX2_W(k, _mm256_add, a, b); }
AXIAL_INLINE vi vi_sub(int k, vi a, vi b) { return AX_AVX2_W(k, _mm256_sub, a, b); }
AXIAL_INLINE vi vi_set1(int k, int64_t c) {
    return AX_BY_KIND(k, _mm256_set1_epi8((char)c), _mm256_set1_epi16((short)c), _mm256_set1_epi32((int)c),
                      _mm256_set1_epi64x(c));
}

/* ---- memory ordering ------------------------------------------------------ */
/* After streaming stores, before the call returns. */
AXIAL_INLINE void ax_stream_fence(void) { _mm_sfence(); }

/* ---- lse ---------------------------------------------------------------- */
/* Lane masks (all-ones lanes), NaN-propagating max, in-register scans and SLEEF's 1-ulp exp/log, for the
 * log-space ops (ops/lse.h). */
#include <sleef.h>
typedef __m256 vf_mask;
typedef __m256d vd_mask;
AXIAL_INLINE vf vf_mul(vf a, vf b) { return _mm256_mul_ps(a, b); }
AXIAL_INLINE vf vf_exp(vf a) { return Sleef_expf8_u10avx2(a); }
AXIAL_INLINE vf vf_log(vf a) { return Sleef_logf8_u10avx2(a); }
AXIAL_INLINE vf_mask vf_gt(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
/* lanes that are NaN or +inf */
AXIAL_INLINE vf_mask vf_bad(vf a) { return _mm256_cmp_ps(a, _mm256_set1_ps(INFINITY), _CMP_NLT_UQ); }
AXIAL_INLINE int vf_any(vf_mask m) { return _mm256_movemask_ps(m) != 0; }
AXIAL_INLINE vf vf_sel(vf_mask m, vf t, vf f) { return _mm256_blendv_ps(f, t, m); }
/* max keeping a NaN of either operand (vmaxps returns b when one is NaN) */
AXIAL_INLINE vf vf_maxn(vf a, vf b) {
    return _mm256_blendv_ps(_mm256_max_ps(a, b), a, _mm256_cmp_ps(a, a, _CMP_UNORD_Q));
}
/* inclusive prefix sum: in-quad steps, then the low quad's total */
AXIAL_INLINE vf vf_scan(vf e) {
    e = _mm256_add_ps(e, _mm256_castsi256_ps(_mm256_slli_si256(_mm256_castps_si256(e), 4)));
    e = _mm256_add_ps(e, _mm256_castsi256_ps(_mm256_slli_si256(_mm256_castps_si256(e), 8)));
    const __m256 t = _mm256_permute_ps(e, 0xff);
    return _mm256_add_ps(e, _mm256_permute2f128_ps(t, t, 0x08));
}
/* lanes moved up by one, lane 0 = 0 */
AXIAL_INLINE vf vf_up1(vf v) {
    return _mm256_blend_ps(_mm256_permutevar8x32_ps(v, _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6)),
                           _mm256_setzero_ps(), 0x01);
}
AXIAL_INLINE vf vf_rev(vf v) { return _mm256_permutevar8x32_ps(v, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0)); }
AXIAL_INLINE float vf_first(vf v) { return _mm256_cvtss_f32(v); }
AXIAL_INLINE float vf_last(vf v) { return _mm_cvtss_f32(_mm_permute_ps(_mm256_extractf128_ps(v, 1), 0xff)); }
AXIAL_INLINE vd vd_mul(vd a, vd b) { return _mm256_mul_pd(a, b); }
AXIAL_INLINE vd vd_exp(vd a) { return Sleef_expd4_u10avx2(a); }
AXIAL_INLINE vd vd_log(vd a) { return Sleef_logd4_u10avx2(a); }
AXIAL_INLINE vd_mask vd_gt(vd a, vd b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
AXIAL_INLINE vd_mask vd_bad(vd a) { return _mm256_cmp_pd(a, _mm256_set1_pd(INFINITY), _CMP_NLT_UQ); }
AXIAL_INLINE int vd_any(vd_mask m) { return _mm256_movemask_pd(m) != 0; }
AXIAL_INLINE vd vd_sel(vd_mask m, vd t, vd f) { return _mm256_blendv_pd(f, t, m); }
AXIAL_INLINE vd vd_maxn(vd a, vd b) {
    return _mm256_blendv_pd(_mm256_max_pd(a, b), a, _mm256_cmp_pd(a, a, _CMP_UNORD_Q));
}
AXIAL_INLINE vd vd_scan(vd e) {
    const __m256d z = _mm256_setzero_pd();
    e = _mm256_add_pd(e, _mm256_blend_pd(_mm256_permute4x64_pd(e, 0x90), z, 0x1));
    return _mm256_add_pd(e, _mm256_blend_pd(_mm256_permute4x64_pd(e, 0x40), z, 0x3));
}
AXIAL_INLINE vd vd_up1(vd v) { return _mm256_blend_pd(_mm256_permute4x64_pd(v, 0x90), _mm256_setzero_pd(), 0x1); }
AXIAL_INLINE vd vd_rev(vd v) { return _mm256_permute4x64_pd(v, 0x1b); }
AXIAL_INLINE double vd_hmax(vd v) {
    const __m128d h = _mm_max_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_max_sd(h, _mm_unpackhi_pd(h, h)));
}
/* (l0 + l2) + (l1 + l3) */
AXIAL_INLINE double vd_hsum(vd v) {
    const __m128d h = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
}
AXIAL_INLINE double vd_first(vd v) { return _mm256_cvtsd_f64(v); }
AXIAL_INLINE double vd_last(vd v) { return _mm256_cvtsd_f64(_mm256_permute4x64_pd(v, 0xff)); }

/* ---- cumsum ---- */
/* The order's virtual block of 16 elements (ops/cumsum.h): blk is 16 f32 lanes in two ymm (a: k 0..7, b: k
 * 8..15), blkd 16 f64 lanes in four ymm (q[i]: k quad i).  A quad is a 128-bit half (blk) or a ymm (blkd).
 * Reverse loads a block from its lowest address as usual, so its lanes hold k in falling order and every shift
 * below runs the other way: reversing costs no shuffle.  The broadcasts of the carries come from memory (a
 * load port, not the shuffle port that the network keeps busy). */
/* bf16 blocks (il, a constant after inlining) keep their quads interleaved, a = [q0|q2], b = [q1|q3] (reverse:
 * [q2|q0], [q3|q1]): one load and two in-lane unpacks in, one pack out (the normal layout's widening and
 * vpermq: bf16 lines 1.05x the time, timed) */
typedef struct { __m256 a, b; int il; } blk;
typedef struct { __m256d q[4]; } blkd;

/* In each quad, every lane takes the lane `l` (1, 2) earlier in k order; lanes from before the quad's start
 * take z's. */
AXIAL_INLINE __m256 ax_cs_qup(__m256 v, int l, __m256 z, int rev) {
    const __m256i u = _mm256_castps_si256(v), f = _mm256_castps_si256(z);
    if (rev)
        return _mm256_castsi256_ps(l == 1 ? _mm256_alignr_epi8(f, u, 4) : _mm256_alignr_epi8(f, u, 8));
    return _mm256_castsi256_ps(l == 1 ? _mm256_alignr_epi8(u, f, 12) : _mm256_alignr_epi8(u, f, 8));
}
/* The k-first quad's lanes moved to the k-later quad, z's into the k-first. */
AXIAL_INLINE __m256 ax_cs_qnext(__m256 v, __m256 z, int rev) {
    return rev ? _mm256_permute2f128_ps(v, z, 0x21) : _mm256_permute2f128_ps(v, z, 0x02);
}
/* One lane on in k order across the ymm, prev's k-last lane coming in. */
AXIAL_INLINE __m256 ax_cs_up1(__m256 v, __m256 prev, int rev) {
    const __m256i u = _mm256_castps_si256(v);
    if (rev)
        return _mm256_castsi256_ps(
            _mm256_alignr_epi8(_mm256_castps_si256(_mm256_permute2f128_ps(v, prev, 0x21)), u, 4));
    return _mm256_castsi256_ps(
        _mm256_alignr_epi8(u, _mm256_castps_si256(_mm256_permute2f128_ps(v, prev, 0x03)), 12));
}
AXIAL_INLINE blk blk_ld(int k, const void *p, int rev) {
    const char *c = (const char *)p;
    const size_t h = 8 * axk_size(k);
    if (k == AXK_BF16) {
        const __m256i v = _mm256_loadu_si256((const __m256i *)p), z = _mm256_setzero_si256();
        const __m256 lo = _mm256_castsi256_ps(_mm256_unpacklo_epi16(z, v));
        const __m256 hi = _mm256_castsi256_ps(_mm256_unpackhi_epi16(z, v));
        return (blk){rev ? hi : lo, rev ? lo : hi, 1};
    }
    return (blk){vf_ld(k, c + (rev ? h : 0)), vf_ld(k, c + (rev ? 0 : h)), 0};
}
AXIAL_INLINE void blk_st(int k, void *p, blk v, int rev, int nt) {
    char *c = (char *)p;
    const size_t h = 8 * axk_size(k);
    if (k == AXK_BF16) { /* (interleaved: one pack; the NaN fix-up only where there is a NaN) */
        const __m256 lo = rev ? v.b : v.a, hi = rev ? v.a : v.b;
        const __m256 un = _mm256_cmp_ps(lo, hi, _CMP_UNORD_Q);
        const int nan = !_mm256_testz_ps(un, un);
        const __m256i w = _mm256_packus_epi32(ax_avx2_bf16_bits(lo, nan), ax_avx2_bf16_bits(hi, nan));
        if (nt)
            _mm256_stream_si256((__m256i *)p, w);
        else
            _mm256_storeu_si256((__m256i *)p, w);
        return;
    }
    vf_put(k, c + (rev ? h : 0), v.a, nt);
    vf_put(k, c + (rev ? 0 : h), v.b, nt);
}
/* In-quad inclusive scans: s_i = a_i + a_{i-2}, a_i = v_i + v_{i-1}. */
AXIAL_INLINE blk blk_qscan(blk v, int rev) {
    const __m256 z = _mm256_set1_ps(-0.0f);
    v.a = _mm256_add_ps(v.a, ax_cs_qup(v.a, 1, z, rev));
    v.b = _mm256_add_ps(v.b, ax_cs_qup(v.b, 1, z, rev));
    v.a = _mm256_add_ps(v.a, ax_cs_qup(v.a, 2, z, rev));
    v.b = _mm256_add_ps(v.b, ax_cs_qup(v.b, 2, z, rev));
    return v;
}
/* s + E: E_0 = -0, E_1 = T0, E_2 = T1 + T0, E_3 = (T2 + T1) + T0 from the quad totals (forward bA = [T0|T1],
 * bB = [T2|T3]; EA = [-0|T0], u = [T1|T2], EB = (u + bA) + EA). */
AXIAL_INLINE blk blk_qoffs(blk s, int rev) {
    const __m256 z = _mm256_set1_ps(-0.0f);
    const __m256 bA = rev ? _mm256_shuffle_ps(s.a, s.a, 0x00) : _mm256_shuffle_ps(s.a, s.a, 0xFF);
    const __m256 bB = rev ? _mm256_shuffle_ps(s.b, s.b, 0x00) : _mm256_shuffle_ps(s.b, s.b, 0xFF);
    const __m256 EA = ax_cs_qnext(bA, z, rev);
    const __m256 u = rev ? _mm256_permute2f128_ps(bB, bA, 0x21) : _mm256_permute2f128_ps(bA, bB, 0x21);
    if (s.il) { /* Z1 = [-0|T1]: a + (Z1 + EA), b + ((bA + Z1) + EA) */
        const __m256 Z1 = ax_cs_qnext(bB, z, rev);
        return (blk){_mm256_add_ps(s.a, _mm256_add_ps(Z1, EA)),
                     _mm256_add_ps(s.b, _mm256_add_ps(_mm256_add_ps(bA, Z1), EA)), 1};
    }
    return (blk){_mm256_add_ps(s.a, EA), _mm256_add_ps(s.b, _mm256_add_ps(_mm256_add_ps(u, bA), EA)), 0};
}
/* Two rows of 8 in the block (k order): quad 1 + T0, quad 3 + T2. */
AXIAL_INLINE __m256 ax_cs_qoffs8(__m256 v, int rev) {
    const __m256 z = _mm256_set1_ps(-0.0f);
    const __m256 b = rev ? _mm256_shuffle_ps(v, v, 0x00) : _mm256_shuffle_ps(v, v, 0xFF);
    return _mm256_add_ps(v, ax_cs_qnext(b, z, rev));
}
AXIAL_INLINE blk blk_qoffs8(blk s, int rev) {
    if (s.il) /* rows q0 q1 and q2 q3: b + a's quad totals */
        return (blk){s.a, _mm256_add_ps(s.b, rev ? _mm256_shuffle_ps(s.a, s.a, 0x00)
                                                 : _mm256_shuffle_ps(s.a, s.a, 0xFF)), 1};
    return (blk){ax_cs_qoffs8(s.a, rev), ax_cs_qoffs8(s.b, rev), 0};
}
/* Every quad one lane on, +0.0 into its first lane (lines of 4, exclusive). */
AXIAL_INLINE blk blk_qexcl(blk s, int rev) {
    const __m256 z = _mm256_setzero_ps();
    return (blk){ax_cs_qup(s.a, 1, z, rev), ax_cs_qup(s.b, 1, z, rev), s.il};
}
/* The block one lane on in k order, -0.0 into k = 0 (exclusive). */
AXIAL_INLINE blk blk_up1(blk p, int rev) {
    const __m256 z = _mm256_set1_ps(-0.0f);
    if (p.il) /* b's quads take a's last lanes; a's low quad -0.0, its high one b's low quad's */
        return (blk){ax_cs_qup(p.a, 1, ax_cs_qnext(p.b, z, rev), rev),
                     ax_cs_qup(p.b, 1, p.a, rev), 1};
    return (blk){ax_cs_up1(p.a, z, rev), ax_cs_up1(p.b, p.a, rev), 0};
}
/* p_15 as f64: reverse lane 0 of b; forward lane 7, read back from a stack copy (a store and a load instead of
 * two shuffle-port uops). */
AXIAL_INLINE double blk_total(blk p, int rev) {
    if (rev)
        return (double)_mm256_cvtss_f32(p.b);
    _Alignas(32) float buf[8];
    _mm256_store_ps(buf, p.b);
    double t;
    __asm__("vcvtss2sd %1, %0, %0" : "=x"(t) : "m"(buf[7]));
    return t;
}
AXIAL_INLINE blk blk_addc(float c, blk e) {
    __m256 d;
    __asm__("vbroadcastss %1, %0" : "=x"(d) : "m"(c));
    return (blk){_mm256_add_ps(d, e.a), _mm256_add_ps(d, e.b), e.il};
}
/* scan_total: t[0 .. 8) the totals of the 8 blocks at p in memory order, the network's p_15 = T3 + ((T2 + T1)
 * + T0), T_q = (v3 + v2) + (v1 + v0), alone: pairs by even/odd in-lane shuffles, the k-later operand first
 * (half the network's shuffles: AVX2 f32 lines split in two 0.9x the time). */
#define AX_CS_TOTALS8
AXIAL_INLINE __m256 ax_cs_pairs(__m256 a, __m256 b, int rev) { /* a's pairs, b's, in each half */
    const __m256 e = _mm256_shuffle_ps(a, b, 0x88), o = _mm256_shuffle_ps(a, b, 0xDD);
    return rev ? _mm256_add_ps(e, o) : _mm256_add_ps(o, e);
}
AXIAL_INLINE void cs_totals8(int k, const char *p, double *t, int rev) {
    const size_t h = 8 * axk_size(k);
    __m256 q[4]; /* memory blocks 2j, 2j + 1: their quads [M0 M2 M0' M2' | M1 M3 M1' M3'] */
    for (int j = 0; j < 4; j++, p += 4 * h)
        q[j] = ax_cs_pairs(ax_cs_pairs(vf_ld(k, p), vf_ld(k, p + h), rev),
                           ax_cs_pairs(vf_ld(k, p + 2 * h), vf_ld(k, p + 3 * h), rev), rev);
    for (int i = 0; i < 2; i++) { /* quad r of memory blocks 4i .. 4i + 3: lanes of w (r 0, 1), x (2, 3) */
        const __m256 w = _mm256_shuffle_ps(q[2 * i], q[2 * i + 1], 0x88), x = _mm256_shuffle_ps(q[2 * i], q[2 * i + 1], 0xDD);
        const __m128 m0 = _mm256_castps256_ps128(w), m1 = _mm256_extractf128_ps(w, 1);
        const __m128 m2 = _mm256_castps256_ps128(x), m3 = _mm256_extractf128_ps(x, 1);
        _mm256_store_pd(t + 4 * i, _mm256_cvtps_pd(rev ? _mm_add_ps(m0, _mm_add_ps(_mm_add_ps(m1, m2), m3))
                                                       : _mm_add_ps(m3, _mm_add_ps(_mm_add_ps(m2, m1), m0))));
    }
}

AXIAL_INLINE blkd blkd_ld(int k, const void *p, int rev) {
    (void)k;
    blkd r;
    for (int i = 0; i < 4; i++)
        r.q[i] = _mm256_loadu_pd((const double *)p + (rev ? 12 - 4 * i : 4 * i));
    return r;
}
AXIAL_INLINE void blkd_st(int k, void *p, blkd v, int rev, int nt) {
    (void)k;
    for (int i = 0; i < 4; i++)
        vd_put((double *)p + (rev ? 12 - 4 * i : 4 * i), v.q[i], nt);
}
/* One lane on in a quad: a vpermpd and a blend of `z` (a blend runs on any vector port, a second shuffle would
 * not). */
AXIAL_INLINE __m256d ax_cs_dup1(__m256d v, __m256d z, int rev) {
    return rev ? _mm256_blend_pd(_mm256_permute4x64_pd(v, 0xF9), z, 0x8)
               : _mm256_blend_pd(_mm256_permute4x64_pd(v, 0x90), z, 0x1);
}
AXIAL_INLINE blkd blkd_qscan(blkd v, int rev) {
    const __m256d z = _mm256_set1_pd(-0.0);
    for (int i = 0; i < 4; i++) {
        const __m256d a = _mm256_add_pd(v.q[i], ax_cs_dup1(v.q[i], z, rev));
        v.q[i] = _mm256_add_pd(a, rev ? _mm256_permute2f128_pd(a, z, 0x21)
                                      : _mm256_permute2f128_pd(a, z, 0x02));
    }
    return v;
}
AXIAL_INLINE blkd blkd_qoffs(blkd s, int rev) {
    __m256d T[3];
    for (int i = 0; i < 3; i++)
        T[i] = rev ? _mm256_permute4x64_pd(s.q[i], 0x00) : _mm256_permute4x64_pd(s.q[i], 0xFF);
    s.q[1] = _mm256_add_pd(s.q[1], T[0]);
    s.q[2] = _mm256_add_pd(s.q[2], _mm256_add_pd(T[1], T[0]));
    s.q[3] = _mm256_add_pd(s.q[3], _mm256_add_pd(_mm256_add_pd(T[2], T[1]), T[0]));
    return s;
}
AXIAL_INLINE blkd blkd_qexcl(blkd s, int rev) {
    for (int i = 0; i < 4; i++)
        s.q[i] = ax_cs_dup1(s.q[i], _mm256_setzero_pd(), rev);
    return s;
}
AXIAL_INLINE __m256d ax_cs_dshift1(__m256d v, __m256d fill, int rev) {
    const __m256i u = _mm256_castpd_si256(v);
    if (rev)
        return _mm256_castsi256_pd(_mm256_alignr_epi8(
            _mm256_castpd_si256(_mm256_permute2f128_pd(v, fill, 0x21)), u, 8));
    return _mm256_castsi256_pd(_mm256_alignr_epi8(
        u, _mm256_castpd_si256(_mm256_permute2f128_pd(v, fill, 0x03)), 8));
}
AXIAL_INLINE blkd blkd_up1(blkd p, int rev) {
    for (int i = 3; i > 0; i--)
        p.q[i] = ax_cs_dshift1(p.q[i], p.q[i - 1], rev);
    p.q[0] = ax_cs_dshift1(p.q[0], _mm256_set1_pd(-0.0), rev);
    return p;
}
AXIAL_INLINE double blkd_total(blkd p, int rev) {
    if (rev)
        return _mm256_cvtsd_f64(p.q[3]);
    _Alignas(32) double buf[4];
    _mm256_store_pd(buf, p.q[3]);
    double t;
    __asm__("vmovsd %1, %0" : "=x"(t) : "m"(buf[3]));
    return t;
}
AXIAL_INLINE blkd blkd_addc(double c, blkd e) {
    __m256d d;
    __asm__("vbroadcastsd %1, %0" : "=x"(d) : "m"(c));
    for (int i = 0; i < 4; i++)
        e.q[i] = _mm256_add_pd(d, e.q[i]);
    return e;
}

/* Integer lanes of kind k: "up" moves lanes toward higher k (forward: higher addresses; reverse: lower), zeros
 * or a given vector's lanes coming in. */
AXIAL_INLINE vi vi_and(vi a, vi b) { return _mm256_and_si256(a, b); }
AXIAL_INLINE vi vi_cmpgt(int k, vi a, vi b) { return AX_AVX2_W(k, _mm256_cmpgt, a, b); }
/* vpshufb indices broadcasting the k-last element of each 128-bit half. */
AXIAL_INLINE vi ax_cs_idx_end(int e, int rev) {
    return _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)axk_idx_end_row(e, rev)));
}
/* The whole vector up by d lanes (d * size in 1, 2, 4, 8, 16 bytes), f's k-last lanes coming in. */
AXIAL_INLINE vi vi_up(int k, vi v, vi f, int d, int rev) {
    const int b = d * (int)axk_size(k);
    if (!rev) {
        const __m256i t = _mm256_permute2x128_si256(v, f, 0x03); /* [f.hi | v.lo] */
        switch (b) {
        case 1: return _mm256_alignr_epi8(v, t, 15);
        case 2: return _mm256_alignr_epi8(v, t, 14);
        case 4: return _mm256_alignr_epi8(v, t, 12);
        case 8: return _mm256_alignr_epi8(v, t, 8);
        default: return t;
        }
    }
    const __m256i t = _mm256_permute2x128_si256(v, f, 0x21); /* [v.hi | f.lo] */
    switch (b) {
    case 1: return _mm256_alignr_epi8(t, v, 1);
    case 2: return _mm256_alignr_epi8(t, v, 2);
    case 4: return _mm256_alignr_epi8(t, v, 4);
    case 8: return _mm256_alignr_epi8(t, v, 8);
    default: return t;
    }
}
/* The k-last lane in every lane. */
AXIAL_INLINE vi vi_last(int k, vi s, int rev) {
    const int e = (int)axk_size(k);
    if (e == 8)
        return rev ? _mm256_permute4x64_epi64(s, 0x00) : _mm256_permute4x64_epi64(s, 0xFF);
    const __m256i d = _mm256_permutevar8x32_epi32(s, _mm256_set1_epi32(rev ? 0 : 7));
    return e == 4 ? d : _mm256_shuffle_epi8(d, ax_cs_idx_end(e, rev));
}
/* Inclusive scan of one vector in k order: in-half steps, then one across. */
AXIAL_INLINE vi vi_scan(int k, vi v, int rev) {
    const int e = (int)axk_size(k);
    for (int b = e; b < 16; b *= 2) {
        const vi t = rev ? (b == 1 ? _mm256_srli_si256(v, 1) : b == 2 ? _mm256_srli_si256(v, 2)
                            : b == 4 ? _mm256_srli_si256(v, 4) : _mm256_srli_si256(v, 8))
                         : (b == 1 ? _mm256_slli_si256(v, 1) : b == 2 ? _mm256_slli_si256(v, 2)
                            : b == 4 ? _mm256_slli_si256(v, 4) : _mm256_slli_si256(v, 8));
        v = vi_add(k, v, t);
    }
    if (e == 8)
        return vi_add(k, v, rev ? _mm256_blend_epi32(_mm256_permute4x64_epi64(v, 0xAA), vi_zero(), 0xF0)
                                : _mm256_blend_epi32(_mm256_permute4x64_epi64(v, 0x55), vi_zero(), 0x0F));
    const __m256i t = rev ? _mm256_permute2x128_si256(v, v, 0x81) : _mm256_permute2x128_si256(v, v, 0x08);
    return vi_add(k, v, _mm256_shuffle_epi8(t, ax_cs_idx_end(e, rev)));
}

/* ---- roll ---- */
#define AX_ROLL_UNITS 5 /* vpshufb (bytes in 16-byte lanes), vpermd */
#define AX_ROLL_LINE 64 /* stores aligned to cache lines where they stream */
#define AX_ROLL_NT 1
#define AX_ROLL_RUNMAX ((size_t)16 << 10) /* in-cache rows copied without peeling */
/* Override: stores in address order (GCC shuffles them): in-cache rolls up to 12% faster on Rocket Lake. */
#define AX_ROLL_INORDER 1
/* bytes of a where m's byte is set (m's bytes 0 or 0xff), else of b */
AXIAL_INLINE vi vi_sel8(vi m, vi a, vi b) { return _mm256_blendv_epi8(b, a, m); }
/* the bytes of a by an index from ax_roll_index (ops/roll.h), in units of u */
AXIAL_INLINE vi vi_tbl(vi a, vi idx, int u) {
    return u == 1 ? _mm256_shuffle_epi8(a, idx) : _mm256_permutevar8x32_epi32(a, idx);
}

/* ---- reduce ---- */
#define AX_OPAQUE(v) "+x"(v) /* an asm operand that keeps v in a register */
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
/* (a, b) as blocks of 2q lanes: each block's first q lanes plus its last q, in block order (q = 1, 2: one
 * halving of packed rows of 2q lanes) */
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
#define AX_RED_INT_WIDE 1 /* (reduce: integer rows AX_VB / 8 a step, ops/reduce.h) */
AXIAL_INLINE vi vi_wide(int k, vi v) { /* zero-extended lanes: 8-byte sums (vpsadbw, or pairs) */
    v = k == AXK_I16 ? _mm256_add_epi32(_mm256_and_si256(v, _mm256_set1_epi32(0xffff)), _mm256_srli_epi32(v, 16)) : v;
    return k == AXK_I8 ? _mm256_sad_epu8(v, vi_zero()) : k == AXK_I64 ? v
        : _mm256_add_epi64(_mm256_and_si256(v, _mm256_set1_epi64x(0xffffffff)), _mm256_srli_epi64(v, 32)); }
AXIAL_INLINE uint64_t vi_hsum(int k, vi v) { /* vi_wide's sums folded */
    v = vi_wide(k, v);
    const __m128i q = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return (uint64_t)_mm_cvtsi128_si64(_mm_add_epi64(q, _mm_unpackhi_epi64(q, q)));
}
/* Override (reduce): integer short rows, L rows a step (ops/reduce.h): 10x faster, timed */
AXIAL_INLINE vi vi_addp(int k, vi a, vi b) { /* a's adjacent lanes added, then b's (bytes: pairs in words, packed) */
#define AX_PAIRS(v) _mm256_and_si256(_mm256_add_epi16(v, _mm256_srli_epi16(v, 8)), _mm256_set1_epi16(0xff))
    return _mm256_permute4x64_epi64(k == AXK_I8 ? _mm256_packus_epi16(AX_PAIRS(a), AX_PAIRS(b)) : k == AXK_I16 ? _mm256_hadd_epi16(a, b) : k == AXK_I32 ? _mm256_hadd_epi32(a, b)
                                    : _mm256_add_epi64(_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b)), 0xd8);
#undef AX_PAIRS
}
AXIAL_INLINE vi vi_ld2h(const void *p, const void *q) { return _mm256_loadu2_m128i(q, p); } /* p, then q */
#define AX_RED_PF_SHORT 1 /* short rows prefetch per group: without it they wait on memory */

#endif /* AXIAL_SIMD_AVX2_H */
