/* SPDX-License-Identifier: MIT */
/*
 * avx2.h: the AVX2 + FMA + F16C kernels' declarations and shared helpers.
 * Every file of kernels/avx2/ includes this first; it refuses to compile
 * without the ISA flags, and nothing outside kernels/avx2/ includes it.
 */
#ifndef AXIAL_AVX2_H
#define AXIAL_AVX2_H

#if !defined(__AVX2__) || !defined(__FMA__) || !defined(__F16C__)
#error "kernels/avx2/ must be built with -mavx2 -mfma -mf16c"
#endif

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels.h"

AXIAL_DECLARE_KERNELS(avx2)

/* ---- f16 / bf16 <-> f32, 8 lanes ------------------------------------------
 * Widening is exact.  Narrowing rounds once, to nearest even: F16C's
 * vcvtps2ph with an explicit rounding immediate, and for bf16 the usual
 * add-0x7fff-plus-lsb on the bits (NaN kept NaN by setting the quiet bit
 * first, so the carry cannot turn it into an infinity). */
static inline __m256 axial_avx2_load_f16(const uint16_t *p) {
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)p));
}
static inline __m128i axial_avx2_f32_to_f16(__m256 v) {
    return _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline __m256 axial_avx2_widen_bf16(__m128i h) {
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}
static inline __m256 axial_avx2_load_bf16(const uint16_t *p) {
    return axial_avx2_widen_bf16(_mm_loadu_si128((const __m128i *)(const void *)p));
}
static inline __m128i axial_avx2_f32_to_bf16(__m256 v) {
    const __m256i u = _mm256_castps_si256(v);
    const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    __m256i r = _mm256_add_epi32(u, _mm256_add_epi32(lsb, _mm256_set1_epi32(0x7fff)));
    const __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    r = _mm256_blendv_epi8(r, _mm256_or_si256(u, _mm256_set1_epi32(0x400000)), nan);
    r = _mm256_srli_epi32(r, 16);
    /* pack the 8 low halves in order: packus works per 128-bit lane */
    const __m256i p = _mm256_packus_epi32(r, r);
    return _mm256_castsi256_si128(_mm256_permute4x64_epi64(p, 0x08));
}

#endif /* AXIAL_AVX2_H */
