/* SPDX-License-Identifier: MIT */
/*
 * avx512.h: the AVX-512 F + VL + BW + DQ kernels' declarations and shared helpers.
 * Every file of kernels/avx512/ includes this first; it refuses to compile
 * without the ISA flags, and nothing outside kernels/avx512/ includes it.
 */
#ifndef AXIAL_AVX512_H
#define AXIAL_AVX512_H

#if !defined(AXIAL_AVX512_EMULATED) && (!defined(__AVX512F__) || !defined(__AVX512VL__) || \
                                     !defined(__AVX512BW__) || !defined(__AVX512DQ__))
#error "kernels/avx512/ must be built with -mavx512f -mavx512vl -mavx512bw -mavx512dq"
#endif

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels.h"

/* An empty asm operand that makes a vector opaque to the optimiser (kept in
 * a register; in memory in the emulated test build, whose vectors are
 * structs). */
#ifdef AXIAL_AVX512_EMULATED
#define AXIAL_AVX512_OPAQUE(v) "+m"(v)
#else
#define AXIAL_AVX512_OPAQUE(v) "+v"(v)
#endif

AXIAL_DECLARE_KERNELS(avx512)

/* ---- f16 / bf16 <-> f32, 16 lanes -----------------------------------------
 * Widening is exact.  Narrowing rounds once, to nearest even: vcvtps2ph with
 * an explicit rounding immediate, and for bf16 the usual add-0x7fff-plus-lsb
 * on the bits (a NaN skips that addition and gets its quiet bit set instead,
 * so no carry can turn it into an infinity). */
static inline __m512 axial_avx512_widen_f16(__m256i h) { return _mm512_cvtph_ps(h); }
static inline __m512 axial_avx512_load_f16(const uint16_t *p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)p));
}
static inline __m256i axial_avx512_f32_to_f16(__m512 v) {
    return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline __m512 axial_avx512_widen_bf16(__m256i h) {
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}
static inline __m512 axial_avx512_load_bf16(const uint16_t *p) {
    return axial_avx512_widen_bf16(_mm256_loadu_si256((const __m256i *)(const void *)p));
}
static inline __m256i axial_avx512_f32_to_bf16(__m512 v) {
    const __m512i u = _mm512_castps_si512(v);
    const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    const __m512i r = _mm512_add_epi32(u, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff)));
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    const __m512i q = _mm512_mask_or_epi32(r, nan, u, _mm512_set1_epi32(0x400000));
    return _mm512_cvtepi32_epi16(_mm512_srli_epi32(q, 16));
}

/* A mask of the low k lanes (0 <= k <= 64). */
static inline __mmask64 axial_avx512_mask64(size_t k) {
    return k >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << k) - 1);
}

#endif /* AXIAL_AVX512_H */
