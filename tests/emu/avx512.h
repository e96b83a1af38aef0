/* SPDX-License-Identifier: MIT */
/*
 * avx512.h: the AVX-512 kernels on a CPU with AVX2 only, for testing their
 * bits where no AVX-512 CPU is at hand (meson -Davx512_emulation=true).
 *
 * Included before anything else in every file of kernels/avx512/ (-include),
 * it maps the _mm512_* / masked _mm256_* / _mm_* intrinsics onto SIMDe's
 * portable versions (SIMDE_ENABLE_NATIVE_ALIASES), and defines here, lane by
 * lane, the ones SIMDe lacks.  Masked loads and stores touch only the lanes
 * of their mask, as the hardware's do (a tail at the end of a page must not
 * fault).  The horizontal reductions follow GCC's own order of operations,
 * and SLEEF's AVX-512 exp and log run as two halves of its AVX2 ones (the
 * log-space ops promise their bound on every ISA, not the same bits).
 * Speed means nothing here: only the bits are checked.
 */
#ifndef AXIAL_TESTS_EMU_AVX512_H
#define AXIAL_TESTS_EMU_AVX512_H

#define SIMDE_ENABLE_NATIVE_ALIASES
#define SIMDE_NO_INLINE /* compile time: every SIMDe function once, called */
#include <fenv.h>
#include <math.h>
#include <simde/x86/avx512.h>
#include <sleef.h>
#include <stdint.h>
#include <string.h>

#define AXIAL_AVX512_EMULATED 1
#define AXEMU static inline

/* ---- lane arrays ---------------------------------------------------------- */
typedef union { float f[16]; double d[8]; int8_t b[64]; uint8_t ub[64]; int16_t w[32];
                uint16_t uw[32]; int32_t i[16]; uint32_t u[16]; int64_t q[8]; uint64_t uq[8]; } axemu_z;
typedef union { float f[8]; double d[4]; int8_t b[32]; int16_t w[16]; uint16_t uw[16];
                int32_t i[8]; int64_t q[4]; } axemu_y;
typedef union { float f[4]; double d[2]; int8_t b[16]; uint8_t ub[16]; int16_t w[8];
                int32_t i[4]; int64_t q[2]; } axemu_x;

AXEMU axemu_z zps(simde__m512 v) { axemu_z z; simde_mm512_storeu_ps(z.f, v); return z; }
AXEMU axemu_z zpd(simde__m512d v) { axemu_z z; simde_mm512_storeu_pd(z.d, v); return z; }
AXEMU axemu_z zsi(simde__m512i v) { axemu_z z; simde_mm512_storeu_si512((void *)z.b, v); return z; }
AXEMU simde__m512 psz(axemu_z z) { return simde_mm512_loadu_ps(z.f); }
AXEMU simde__m512d pdz(axemu_z z) { return simde_mm512_loadu_pd(z.d); }
AXEMU simde__m512i siz(axemu_z z) { return simde_mm512_loadu_si512((const void *)z.b); }
AXEMU axemu_y yps(__m256 v) { axemu_y y; _mm256_storeu_ps(y.f, v); return y; }
AXEMU axemu_y ysi(__m256i v) { axemu_y y; _mm256_storeu_si256((__m256i *)(void *)y.b, v); return y; }
AXEMU __m256 psy(axemu_y y) { return _mm256_loadu_ps(y.f); }
AXEMU __m256i siy(axemu_y y) { return _mm256_loadu_si256((const __m256i *)(const void *)y.b); }
AXEMU axemu_x xsi(__m128i v) { axemu_x x; _mm_storeu_si128((__m128i *)(void *)x.b, v); return x; }
AXEMU __m128i six(axemu_x x) { return _mm_loadu_si128((const __m128i *)(const void *)x.b); }

/* ---- masked loads and stores: only the mask's lanes are touched ------------ */
#define AXEMU_MLOAD(name, V, Z, LANES, T, field, to, from)                      \
    AXEMU V name(V src, uint64_t k, const void *p) {                            \
        Z z = to(src);                                                          \
        for (int l = 0; l < LANES; l++)                                         \
            if ((k >> l) & 1) memcpy(&z.field[l], (const T *)p + l, sizeof(T)); \
        return from(z);                                                         \
    }
#define AXEMU_MSTORE(name, V, Z, LANES, T, field, to)                           \
    AXEMU void name(void *p, uint64_t k, V a) {                                 \
        Z z = to(a);                                                            \
        for (int l = 0; l < LANES; l++)                                         \
            if ((k >> l) & 1) memcpy((T *)p + l, &z.field[l], sizeof(T));       \
    }
AXEMU_MLOAD(axemu_mload_ps, simde__m512, axemu_z, 16, float, f, zps, psz)
AXEMU_MLOAD(axemu_mload_pd, simde__m512d, axemu_z, 8, double, d, zpd, pdz)
AXEMU_MLOAD(axemu_mload_epi8, simde__m512i, axemu_z, 64, int8_t, b, zsi, siz)
AXEMU_MLOAD(axemu_mload_epi16, simde__m512i, axemu_z, 32, int16_t, w, zsi, siz)
AXEMU_MLOAD(axemu_mload_epi32, simde__m512i, axemu_z, 16, int32_t, i, zsi, siz)
AXEMU_MLOAD(axemu_mload_epi64, simde__m512i, axemu_z, 8, int64_t, q, zsi, siz)
AXEMU_MLOAD(axemu_mload256_ps, __m256, axemu_y, 8, float, f, yps, psy)
AXEMU_MLOAD(axemu_mload256_epi16, __m256i, axemu_y, 16, int16_t, w, ysi, siy)
AXEMU_MLOAD(axemu_mload128_epi8, __m128i, axemu_x, 16, int8_t, b, xsi, six)
AXEMU_MLOAD(axemu_mload128_epi16, __m128i, axemu_x, 8, int16_t, w, xsi, six)
AXEMU_MSTORE(axemu_mstore_ps, simde__m512, axemu_z, 16, float, f, zps)
AXEMU_MSTORE(axemu_mstore_pd, simde__m512d, axemu_z, 8, double, d, zpd)
AXEMU_MSTORE(axemu_mstore_epi8, simde__m512i, axemu_z, 64, int8_t, b, zsi)
AXEMU_MSTORE(axemu_mstore_epi16, simde__m512i, axemu_z, 32, int16_t, w, zsi)
AXEMU_MSTORE(axemu_mstore_epi32, simde__m512i, axemu_z, 16, int32_t, i, zsi)
AXEMU_MSTORE(axemu_mstore_epi64, simde__m512i, axemu_z, 8, int64_t, q, zsi)
AXEMU_MSTORE(axemu_mstore256_ps, __m256, axemu_y, 8, float, f, yps)
AXEMU_MSTORE(axemu_mstore256_epi16, __m256i, axemu_y, 16, int16_t, w, ysi)
AXEMU_MSTORE(axemu_mstore128_epi16, __m128i, axemu_x, 8, int16_t, w, xsi)

#undef _mm512_mask_loadu_ps
#define _mm512_mask_loadu_ps(s, k, p) axemu_mload_ps((s), (k), (p))
#undef _mm512_mask_loadu_pd
#define _mm512_mask_loadu_pd(s, k, p) axemu_mload_pd((s), (k), (p))
#undef _mm512_maskz_loadu_ps
#define _mm512_maskz_loadu_ps(k, p) axemu_mload_ps(simde_mm512_setzero_ps(), (k), (p))
#undef _mm512_maskz_loadu_pd
#define _mm512_maskz_loadu_pd(k, p) axemu_mload_pd(simde_mm512_setzero_pd(), (k), (p))
#undef _mm512_maskz_loadu_epi8
#define _mm512_maskz_loadu_epi8(k, p) axemu_mload_epi8(simde_mm512_setzero_si512(), (k), (p))
#undef _mm512_maskz_loadu_epi16
#define _mm512_maskz_loadu_epi16(k, p) axemu_mload_epi16(simde_mm512_setzero_si512(), (k), (p))
#undef _mm512_maskz_loadu_epi32
#define _mm512_maskz_loadu_epi32(k, p) axemu_mload_epi32(simde_mm512_setzero_si512(), (k), (p))
#undef _mm512_maskz_loadu_epi64
#define _mm512_maskz_loadu_epi64(k, p) axemu_mload_epi64(simde_mm512_setzero_si512(), (k), (p))
#undef _mm256_mask_loadu_ps
#define _mm256_mask_loadu_ps(s, k, p) axemu_mload256_ps((s), (k), (p))
#undef _mm256_maskz_loadu_ps
#define _mm256_maskz_loadu_ps(k, p) axemu_mload256_ps(_mm256_setzero_ps(), (k), (p))
#undef _mm256_mask_loadu_epi16
#define _mm256_mask_loadu_epi16(s, k, p) axemu_mload256_epi16((s), (k), (p))
#undef _mm256_maskz_loadu_epi16
#define _mm256_maskz_loadu_epi16(k, p) axemu_mload256_epi16(_mm256_setzero_si256(), (k), (p))
#undef _mm_mask_loadu_epi16
#define _mm_mask_loadu_epi16(s, k, p) axemu_mload128_epi16((s), (k), (p))
#undef _mm_maskz_loadu_epi8
#define _mm_maskz_loadu_epi8(k, p) axemu_mload128_epi8(_mm_setzero_si128(), (k), (p))
#undef _mm512_mask_storeu_ps
#define _mm512_mask_storeu_ps(p, k, a) axemu_mstore_ps((p), (k), (a))
#undef _mm512_mask_storeu_pd
#define _mm512_mask_storeu_pd(p, k, a) axemu_mstore_pd((p), (k), (a))
#undef _mm512_mask_storeu_epi8
#define _mm512_mask_storeu_epi8(p, k, a) axemu_mstore_epi8((p), (k), (a))
#undef _mm512_mask_storeu_epi16
#define _mm512_mask_storeu_epi16(p, k, a) axemu_mstore_epi16((p), (k), (a))
#undef _mm512_mask_storeu_epi32
#define _mm512_mask_storeu_epi32(p, k, a) axemu_mstore_epi32((p), (k), (a))
#undef _mm512_mask_storeu_epi64
#define _mm512_mask_storeu_epi64(p, k, a) axemu_mstore_epi64((p), (k), (a))
#undef _mm256_mask_storeu_ps
#define _mm256_mask_storeu_ps(p, k, a) axemu_mstore256_ps((p), (k), (a))
#undef _mm256_mask_storeu_epi16
#define _mm256_mask_storeu_epi16(p, k, a) axemu_mstore256_epi16((p), (k), (a))
#undef _mm_mask_storeu_epi16
#define _mm_mask_storeu_epi16(p, k, a) axemu_mstore128_epi16((p), (k), (a))

/* Truncating 64-bit stores of the mask's lanes. */
AXEMU void axemu_cvtepi64_storeu_epi32(void *p, uint64_t k, simde__m512i a) {
    axemu_z z = zsi(a);
    for (int l = 0; l < 8; l++)
        if ((k >> l) & 1) { int32_t v = (int32_t)z.q[l]; memcpy((int32_t *)p + l, &v, 4); }
}
AXEMU void axemu_cvtepi64_storeu_epi8(void *p, uint64_t k, simde__m512i a) {
    axemu_z z = zsi(a);
    for (int l = 0; l < 8; l++)
        if ((k >> l) & 1) ((int8_t *)p)[l] = (int8_t)z.q[l];
}
#undef _mm512_mask_cvtepi64_storeu_epi32
#define _mm512_mask_cvtepi64_storeu_epi32(p, k, a) axemu_cvtepi64_storeu_epi32((p), (k), (a))
#undef _mm512_mask_cvtepi64_storeu_epi8
#define _mm512_mask_cvtepi64_storeu_epi8(p, k, a) axemu_cvtepi64_storeu_epi8((p), (k), (a))

/* Streaming stores: plain stores (the bits are the same). */
#undef _mm512_stream_si512
#define _mm512_stream_si512(p, v) simde_mm512_storeu_si512((void *)(p), (v))
#undef _mm512_stream_ps
#define _mm512_stream_ps(p, v) simde_mm512_storeu_ps((void *)(p), (v))
#undef _mm512_stream_pd
#define _mm512_stream_pd(p, v) simde_mm512_storeu_pd((void *)(p), (v))

/* ---- conversions ------------------------------------------------------------ */
AXEMU simde__m512 axemu_cvtph_ps(__m256i h) {
    axemu_z z;
    _mm256_storeu_ps(z.f, _mm256_cvtph_ps(_mm256_castsi256_si128(h)));
    _mm256_storeu_ps(z.f + 8, _mm256_cvtph_ps(_mm256_extracti128_si256(h, 1)));
    return psz(z);
}
#undef _mm512_cvtph_ps
#define _mm512_cvtph_ps(h) axemu_cvtph_ps(h)
AXEMU __m256 axemu_half_ps(simde__m512 v, int hi) { axemu_z z = zps(v); return _mm256_loadu_ps(z.f + 8 * hi); }
AXEMU __m256d axemu_half_pd(simde__m512d v, int hi) { axemu_z z = zpd(v); return _mm256_loadu_pd(z.d + 4 * hi); }
#undef _mm512_cvtps_ph
#define _mm512_cvtps_ph(v, imm)                                                      \
    _mm256_set_m128i(_mm256_cvtps_ph(axemu_half_ps((v), 1), (imm)),                  \
                     _mm256_cvtps_ph(axemu_half_ps((v), 0), (imm)))
#undef _mm512_extractf32x8_ps
#define _mm512_extractf32x8_ps(v, imm) axemu_half_ps((v), (imm) & 1)
AXEMU __m128d axemu_extractf64x2(simde__m512d v, int q) { axemu_z z = zpd(v); return _mm_loadu_pd(z.d + 2 * q); }
#undef _mm512_extractf64x2_pd
#define _mm512_extractf64x2_pd(v, imm) axemu_extractf64x2((v), (imm) & 3)
AXEMU simde__m512 axemu_zext256(__m256 v) { axemu_z z; memset(&z, 0, sizeof z); _mm256_storeu_ps(z.f, v); return psz(z); }
#undef _mm512_zextps256_ps512
#define _mm512_zextps256_ps512(v) axemu_zext256(v)
AXEMU float axemu_cvtss(simde__m512 v) { return zps(v).f[0]; }
AXEMU double axemu_cvtsd(simde__m512d v) { return zpd(v).d[0]; }
#undef _mm512_cvtss_f32
#define _mm512_cvtss_f32(v) axemu_cvtss(v)
#undef _mm512_cvtsd_f64
#define _mm512_cvtsd_f64(v) axemu_cvtsd(v)
AXEMU simde__m512d axemu_cvtps_pd(__m256 v) {
    axemu_y y = yps(v); axemu_z z;
    for (int l = 0; l < 8; l++) z.d[l] = (double)y.f[l];
    return pdz(z);
}
#undef _mm512_cvtps_pd
#define _mm512_cvtps_pd(v) axemu_cvtps_pd(v)
/* double -> float in the rounding mode r (an _MM_FROUND_* direction, or the current one). */
AXEMU __m256 axemu_cvtpd_ps_r(simde__m512d v, int r) {
    axemu_z z = zpd(v); axemu_y y;
    const int old = fegetround();
    switch (r & 7) {
    case 0: fesetround(FE_TONEAREST); break;
    case 1: fesetround(FE_DOWNWARD); break;
    case 2: fesetround(FE_UPWARD); break;
    case 3: fesetround(FE_TOWARDZERO); break;
    default: break; /* _MM_FROUND_CUR_DIRECTION */
    }
    for (int l = 0; l < 8; l++) { volatile double d = z.d[l]; y.f[l] = (float)d; }
    fesetround(old);
    return psy(y);
}
#undef _mm512_cvtpd_ps
#define _mm512_cvtpd_ps(v) axemu_cvtpd_ps_r((v), 4)
#undef _mm512_cvt_roundpd_ps
#define _mm512_cvt_roundpd_ps(v, r) axemu_cvtpd_ps_r((v), (r))
#define AXEMU_WIDEN(name, SRC, toS, sfield, S, DLANES, dfield, D)                   \
    AXEMU simde__m512i name(SRC v) {                                                \
        S s = toS(v); axemu_z z;                                                    \
        for (int l = 0; l < DLANES; l++) z.dfield[l] = (D)s.sfield[l];              \
        return siz(z);                                                              \
    }
typedef union { uint8_t ub[16]; } axemu_x8;
AXEMU_WIDEN(axemu_cvtepu16_epi32, __m256i, ysi, uw, axemu_y, 16, u, uint32_t)
AXEMU_WIDEN(axemu_cvtepu8_epi32, __m128i, xsi, ub, axemu_x, 16, u, uint32_t)
AXEMU simde__m512i axemu_cvtepu32_epi64(__m256i v) {
    axemu_y y = ysi(v); axemu_z z;
    for (int l = 0; l < 8; l++) z.uq[l] = (uint32_t)y.i[l];
    return siz(z);
}
#undef _mm512_cvtepu16_epi32
#define _mm512_cvtepu16_epi32(v) axemu_cvtepu16_epi32(v)
#undef _mm512_cvtepu8_epi32
#define _mm512_cvtepu8_epi32(v) axemu_cvtepu8_epi32(v)
#undef _mm512_cvtepu32_epi64
#define _mm512_cvtepu32_epi64(v) axemu_cvtepu32_epi64(v)
AXEMU __m256i axemu_cvtepi32_epi16(simde__m512i v) {
    axemu_z z = zsi(v); axemu_y y;
    for (int l = 0; l < 16; l++) y.w[l] = (int16_t)z.i[l];
    return siy(y);
}
AXEMU __m128i axemu_cvtepi64_epi16(simde__m512i v) {
    axemu_z z = zsi(v); axemu_x x;
    for (int l = 0; l < 8; l++) x.w[l] = (int16_t)z.q[l];
    return six(x);
}
AXEMU __m128i axemu_cvtepi64_epi8(simde__m512i v) {
    axemu_z z = zsi(v); axemu_x x;
    memset(&x, 0, sizeof x);
    for (int l = 0; l < 8; l++) x.b[l] = (int8_t)z.q[l];
    return six(x);
}
#undef _mm512_cvtepi32_epi16
#define _mm512_cvtepi32_epi16(v) axemu_cvtepi32_epi16(v)
#undef _mm512_cvtepi64_epi16
#define _mm512_cvtepi64_epi16(v) axemu_cvtepi64_epi16(v)
#undef _mm512_cvtepi64_epi8
#define _mm512_cvtepi64_epi8(v) axemu_cvtepi64_epi8(v)

/* ---- lane moves ------------------------------------------------------------- */
/* alignr: (a:b) as one 2*LANES-lane value, shifted right by imm lanes, low half. */
AXEMU simde__m512i axemu_alignr32(simde__m512i a, simde__m512i b, int imm) {
    axemu_z za = zsi(a), zb = zsi(b), r; int32_t t[32];
    memcpy(t, zb.i, 64); memcpy(t + 16, za.i, 64);
    for (int l = 0; l < 16; l++) r.i[l] = t[l + (imm & 15)];
    return siz(r);
}
AXEMU simde__m512i axemu_alignr64(simde__m512i a, simde__m512i b, int imm) {
    axemu_z za = zsi(a), zb = zsi(b), r; int64_t t[16];
    memcpy(t, zb.q, 64); memcpy(t + 8, za.q, 64);
    for (int l = 0; l < 8; l++) r.q[l] = t[l + (imm & 7)];
    return siz(r);
}
/* alignr_epi8: per 128-bit lane, (a:b) shifted right by imm bytes. */
AXEMU simde__m512i axemu_alignr8(simde__m512i a, simde__m512i b, int imm) {
    axemu_z za = zsi(a), zb = zsi(b), r;
    for (int q = 0; q < 4; q++) {
        uint8_t t[32];
        memcpy(t, zb.ub + 16 * q, 16); memcpy(t + 16, za.ub + 16 * q, 16);
        for (int l = 0; l < 16; l++) r.ub[16 * q + l] = (l + imm < 32) ? t[l + imm] : 0;
    }
    return siz(r);
}
#undef _mm512_alignr_epi32
#define _mm512_alignr_epi32(a, b, imm) axemu_alignr32((a), (b), (imm))
#undef _mm512_alignr_epi64
#define _mm512_alignr_epi64(a, b, imm) axemu_alignr64((a), (b), (imm))
#undef _mm512_alignr_epi8
#define _mm512_alignr_epi8(a, b, imm) axemu_alignr8((a), (b), (imm))
AXEMU simde__m512i axemu_bslli(simde__m512i a, int imm) {
    axemu_z z = zsi(a), r;
    for (int q = 0; q < 4; q++)
        for (int l = 0; l < 16; l++) r.ub[16 * q + l] = (imm <= 15 && l >= imm) ? z.ub[16 * q + l - imm] : 0;
    return siz(r);
}
AXEMU simde__m512i axemu_bsrli(simde__m512i a, int imm) {
    axemu_z z = zsi(a), r;
    for (int q = 0; q < 4; q++)
        for (int l = 0; l < 16; l++) r.ub[16 * q + l] = (l + imm <= 15) ? z.ub[16 * q + l + imm] : 0;
    return siz(r);
}
#undef _mm512_bslli_epi128
#define _mm512_bslli_epi128(a, imm) axemu_bslli((a), (imm))
#undef _mm512_bsrli_epi128
#define _mm512_bsrli_epi128(a, imm) axemu_bsrli((a), (imm))
/* shuffle_{f32x4,f64x2,i64x2}: 128-bit lanes 0, 1 of a and 2, 3 of b, by imm's 2-bit fields. */
AXEMU axemu_z axemu_shuf128(axemu_z a, axemu_z b, int imm) {
    axemu_z r;
    for (int q = 0; q < 4; q++) {
        const axemu_z *s = q < 2 ? &a : &b;
        memcpy(r.ub + 16 * q, s->ub + 16 * ((imm >> (2 * q)) & 3), 16);
    }
    return r;
}
#undef _mm512_shuffle_f32x4
#define _mm512_shuffle_f32x4(a, b, imm) psz(axemu_shuf128(zps(a), zps(b), (imm)))
#undef _mm512_shuffle_f64x2
#define _mm512_shuffle_f64x2(a, b, imm) pdz(axemu_shuf128(zpd(a), zpd(b), (imm)))
#undef _mm512_shuffle_i64x2
#define _mm512_shuffle_i64x2(a, b, imm) siz(axemu_shuf128(zsi(a), zsi(b), (imm)))
/* permutex_pd: in each 256-bit half, lane l takes lane (imm >> 2l) & 3 of that half. */
AXEMU simde__m512d axemu_permutex_pd(simde__m512d a, int imm) {
    axemu_z z = zpd(a), r;
    for (int h = 0; h < 2; h++)
        for (int l = 0; l < 4; l++) r.d[4 * h + l] = z.d[4 * h + ((imm >> (2 * l)) & 3)];
    return pdz(r);
}
#undef _mm512_permutex_pd
#define _mm512_permutex_pd(a, imm) axemu_permutex_pd((a), (imm))
/* expand: the low lanes of a, in order, into the mask's lanes. */
AXEMU simde__m512 axemu_expand_ps(simde__m512 src, uint64_t k, simde__m512 a) {
    axemu_z s = zps(src), z = zps(a); int j = 0;
    for (int l = 0; l < 16; l++) if ((k >> l) & 1) s.f[l] = z.f[j++];
    return psz(s);
}
AXEMU simde__m512i axemu_expand_epi32(uint64_t k, simde__m512i a) {
    axemu_z z = zsi(a), r; int j = 0;
    for (int l = 0; l < 16; l++) r.i[l] = ((k >> l) & 1) ? z.i[j++] : 0;
    return siz(r);
}
AXEMU simde__m512i axemu_expand_epi64(uint64_t k, simde__m512i a) {
    axemu_z z = zsi(a), r; int j = 0;
    for (int l = 0; l < 8; l++) r.q[l] = ((k >> l) & 1) ? z.q[j++] : 0;
    return siz(r);
}
#undef _mm512_mask_expand_ps
#define _mm512_mask_expand_ps(s, k, a) axemu_expand_ps((s), (k), (a))
#undef _mm512_maskz_expand_epi32
#define _mm512_maskz_expand_epi32(k, a) axemu_expand_epi32((k), (a))
#undef _mm512_maskz_expand_epi64
#define _mm512_maskz_expand_epi64(k, a) axemu_expand_epi64((k), (a))
AXEMU __m256i axemu_mask_or256(__m256i src, uint64_t k, __m256i a, __m256i b) {
    axemu_y s = ysi(src), x = ysi(a), y = ysi(b);
    for (int l = 0; l < 8; l++) if ((k >> l) & 1) s.i[l] = x.i[l] | y.i[l];
    return siy(s);
}
#undef _mm256_mask_or_epi32
#define _mm256_mask_or_epi32(s, k, a, b) axemu_mask_or256((s), (k), (a), (b))

/* ---- compares and classes ----------------------------------------------------- */
#undef _mm512_mask_cmp_ps_mask
#define _mm512_mask_cmp_ps_mask(k, a, b, imm) ((simde__mmask16)((k) & simde_mm512_cmp_ps_mask((a), (b), (imm))))
#undef _mm512_mask_cmp_pd_mask
#define _mm512_mask_cmp_pd_mask(k, a, b, imm) ((simde__mmask8)((k) & simde_mm512_cmp_pd_mask((a), (b), (imm))))
/* fpclass: imm bits 0 QNaN, 1 +0, 2 -0, 3 +inf, 4 -inf, 5 denormal, 6 finite negative, 7 SNaN. */
AXEMU int axemu_class(double v, int is_snan, int denormal, int imm) {
    int c = 0;
    if (isnan(v)) c = is_snan ? 0x80 : 0x01;
    else if (v == 0) c = signbit(v) ? 0x04 : 0x02;
    else if (isinf(v)) c = v > 0 ? 0x08 : 0x10;
    else c = (denormal ? 0x20 : 0) | (v < 0 ? 0x40 : 0);
    return (c & imm) != 0;
}
AXEMU simde__mmask16 axemu_fpclass_ps(simde__m512 a, int imm) {
    axemu_z z = zps(a); simde__mmask16 m = 0;
    for (int l = 0; l < 16; l++) {
        const uint32_t u = z.u[l];
        const int snan = isnan(z.f[l]) && !((u >> 22) & 1), den = fpclassify(z.f[l]) == FP_SUBNORMAL;
        m |= (simde__mmask16)(axemu_class(z.f[l], snan, den, imm) << l);
    }
    return m;
}
AXEMU simde__mmask8 axemu_fpclass_pd(simde__m512d a, int imm) {
    axemu_z z = zpd(a); simde__mmask8 m = 0;
    for (int l = 0; l < 8; l++) {
        const uint64_t u = z.uq[l];
        const int snan = isnan(z.d[l]) && !((u >> 51) & 1), den = fpclassify(z.d[l]) == FP_SUBNORMAL;
        m |= (simde__mmask8)(axemu_class(z.d[l], snan, den, imm) << l);
    }
    return m;
}
#undef _mm512_fpclass_ps_mask
#define _mm512_fpclass_ps_mask(a, imm) axemu_fpclass_ps((a), (imm))
#undef _mm512_fpclass_pd_mask
#define _mm512_fpclass_pd_mask(a, imm) axemu_fpclass_pd((a), (imm))

/* ---- horizontal reductions, in GCC's order (avx512fintrin.h) -------------------- */
AXEMU double axemu_reduce_add_pd(simde__m512d a) {
    const __m256d t3 = _mm256_add_pd(axemu_half_pd(a, 1), axemu_half_pd(a, 0));
    const __m128d t6 = _mm_add_pd(_mm256_extractf128_pd(t3, 1), _mm256_castpd256_pd128(t3));
    return t6[0] + t6[1];
}
AXEMU double axemu_reduce_max_pd(simde__m512d a) {
    const __m256d t3 = _mm256_max_pd(axemu_half_pd(a, 1), axemu_half_pd(a, 0));
    const __m128d t6 = _mm_max_pd(_mm256_extractf128_pd(t3, 1), _mm256_castpd256_pd128(t3));
    const __m128d t7 = _mm_shuffle_pd(t6, t6, 1);
    return _mm_max_pd(t6, t7)[0];
}
AXEMU float axemu_reduce_max_ps(simde__m512 a) {
    const __m256 t3 = _mm256_max_ps(axemu_half_ps(a, 1), axemu_half_ps(a, 0));
    const __m128 t6 = _mm_max_ps(_mm256_extractf128_ps(t3, 1), _mm256_castps256_ps128(t3));
    const __m128 t7 = _mm_shuffle_ps(t6, t6, _MM_SHUFFLE(1, 0, 3, 2));
    const __m128 t8 = _mm_max_ps(t6, t7);
    const __m128 t9 = _mm_shuffle_ps(t8, t8, _MM_SHUFFLE(0, 1, 0, 1));
    return _mm_max_ps(t8, t9)[0];
}
AXEMU int axemu_reduce_add_epi32(simde__m512i a) {
    axemu_z z = zsi(a); uint32_t s = 0;
    for (int l = 0; l < 16; l++) s += z.u[l];
    return (int)s;
}
#undef _mm512_reduce_add_pd
#define _mm512_reduce_add_pd(a) axemu_reduce_add_pd(a)
#undef _mm512_reduce_max_pd
#define _mm512_reduce_max_pd(a) axemu_reduce_max_pd(a)
#undef _mm512_reduce_max_ps
#define _mm512_reduce_max_ps(a) axemu_reduce_max_ps(a)
#undef _mm512_reduce_add_epi32
#define _mm512_reduce_add_epi32(a) axemu_reduce_add_epi32(a)

/* ---- SIMDe 0.7 spells this alias with four arguments ------------------------------ */
#undef _mm512_madd_epi16
#define _mm512_madd_epi16(a, b) simde_mm512_madd_epi16(a, b)

/* ---- SLEEF: the AVX-512 entry points as two halves of the AVX2 ones ---------------- */
#define AXEMU_SLEEF_PS(name, f8)                                                           \
    AXEMU simde__m512 name(simde__m512 x) {                                                \
        axemu_z z; _mm256_storeu_ps(z.f, f8(axemu_half_ps(x, 0)));                         \
        _mm256_storeu_ps(z.f + 8, f8(axemu_half_ps(x, 1))); return psz(z);                 \
    }
#define AXEMU_SLEEF_PD(name, f4)                                                           \
    AXEMU simde__m512d name(simde__m512d x) {                                              \
        axemu_z z; _mm256_storeu_pd(z.d, f4(axemu_half_pd(x, 0)));                         \
        _mm256_storeu_pd(z.d + 4, f4(axemu_half_pd(x, 1))); return pdz(z);                 \
    }
AXEMU_SLEEF_PS(Sleef_expf16_u10avx512f, Sleef_expf8_u10avx2)
AXEMU_SLEEF_PS(Sleef_logf16_u10avx512f, Sleef_logf8_u10avx2)
AXEMU_SLEEF_PD(Sleef_expd8_u10avx512f, Sleef_expd4_u10avx2)
AXEMU_SLEEF_PD(Sleef_logd8_u10avx512f, Sleef_logd4_u10avx2)

#endif /* AXIAL_TESTS_EMU_AVX512_H */
