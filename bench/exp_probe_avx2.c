/* SPDX-License-Identifier: MIT */
/*
 * exp_probe_avx2.c: the AVX2 exp probe (bench.h, exp_probe.c): SLEEF's
 * Sleef_expf8_u10avx2 (f32, and bf16 widened to f32) and Sleef_expd4_u10avx2
 * (f64) over every input element, two independent vectors per step so the
 * loop is bound by exp's throughput rather than its latency; each result is
 * stored (the scans move that many bytes) or added into two vector
 * accumulators (the reductions), so none is optimised away.  bf16 results are
 * rounded back to nearest even.  The tail (fewer than two vectors) goes
 * through a zero-padded vector of which only the live lanes are kept.  Built
 * with the AVX2 kernels' flags, run only where axial_isa_available() has AVX2.
 */
#ifndef __AVX2__
#error "build with -mavx2 -mfma -mf16c"
#endif
#include <immintrin.h>
#include <sleef.h>
#include <string.h>

#include "bench.h"

static float hsum_ps(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

static double hsum_pd(__m256d v) {
    __m128d s = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
}

static __m256 bf16_load(const uint16_t *p) {
    __m128i h = _mm_loadu_si128((const __m128i *)(const void *)p);
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}

static void bf16_store(uint16_t *p, __m256 v) {
    __m256i u = _mm256_castps_si256(v);
    __m256i odd = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    u = _mm256_srli_epi32(_mm256_add_epi32(u, _mm256_add_epi32(odd, _mm256_set1_epi32(0x7fff))),
                          16);
    __m128i w = _mm_packus_epi32(_mm256_castsi256_si128(u), _mm256_extracti128_si256(u, 1));
    _mm_storeu_si128((__m128i *)(void *)p, w);
}

static void run_f32(const float *x, float *y, size_t n, bool sum) {
    __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
    size_t i = 0;
    if (sum)
        for (; i + 16 <= n; i += 16) {
            a0 = _mm256_add_ps(a0, Sleef_expf8_u10avx2(_mm256_loadu_ps(x + i)));
            a1 = _mm256_add_ps(a1, Sleef_expf8_u10avx2(_mm256_loadu_ps(x + i + 8)));
        }
    else
        for (; i + 16 <= n; i += 16) {
            _mm256_storeu_ps(y + i, Sleef_expf8_u10avx2(_mm256_loadu_ps(x + i)));
            _mm256_storeu_ps(y + i + 8, Sleef_expf8_u10avx2(_mm256_loadu_ps(x + i + 8)));
        }
    float s = hsum_ps(_mm256_add_ps(a0, a1));
    for (; i < n; i += 8) {
        float b[8] = {0};
        size_t k = n - i < 8 ? n - i : 8;
        memcpy(b, x + i, k * sizeof *b);
        _mm256_storeu_ps(b, Sleef_expf8_u10avx2(_mm256_loadu_ps(b)));
        if (sum)
            for (size_t j = 0; j < k; j++) s += b[j];
        else memcpy(y + i, b, k * sizeof *b);
    }
    if (sum) memcpy(y, &s, sizeof s);
}

static void run_f64(const double *x, double *y, size_t n, bool sum) {
    __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd();
    size_t i = 0;
    if (sum)
        for (; i + 8 <= n; i += 8) {
            a0 = _mm256_add_pd(a0, Sleef_expd4_u10avx2(_mm256_loadu_pd(x + i)));
            a1 = _mm256_add_pd(a1, Sleef_expd4_u10avx2(_mm256_loadu_pd(x + i + 4)));
        }
    else
        for (; i + 8 <= n; i += 8) {
            _mm256_storeu_pd(y + i, Sleef_expd4_u10avx2(_mm256_loadu_pd(x + i)));
            _mm256_storeu_pd(y + i + 4, Sleef_expd4_u10avx2(_mm256_loadu_pd(x + i + 4)));
        }
    double s = hsum_pd(_mm256_add_pd(a0, a1));
    for (; i < n; i += 4) {
        double b[4] = {0};
        size_t k = n - i < 4 ? n - i : 4;
        memcpy(b, x + i, k * sizeof *b);
        _mm256_storeu_pd(b, Sleef_expd4_u10avx2(_mm256_loadu_pd(b)));
        if (sum)
            for (size_t j = 0; j < k; j++) s += b[j];
        else memcpy(y + i, b, k * sizeof *b);
    }
    if (sum) memcpy(y, &s, sizeof s);
}

static void run_bf16(const uint16_t *x, uint16_t *y, size_t n, bool sum) {
    __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
    size_t i = 0;
    if (sum)
        for (; i + 16 <= n; i += 16) {
            a0 = _mm256_add_ps(a0, Sleef_expf8_u10avx2(bf16_load(x + i)));
            a1 = _mm256_add_ps(a1, Sleef_expf8_u10avx2(bf16_load(x + i + 8)));
        }
    else
        for (; i + 16 <= n; i += 16) {
            bf16_store(y + i, Sleef_expf8_u10avx2(bf16_load(x + i)));
            bf16_store(y + i + 8, Sleef_expf8_u10avx2(bf16_load(x + i + 8)));
        }
    float s = hsum_ps(_mm256_add_ps(a0, a1));
    for (; i < n; i += 8) {
        uint16_t b[8] = {0};
        float f[8];
        size_t k = n - i < 8 ? n - i : 8;
        memcpy(b, x + i, k * sizeof *b);
        __m256 e = Sleef_expf8_u10avx2(bf16_load(b));
        if (sum) {
            _mm256_storeu_ps(f, e);
            for (size_t j = 0; j < k; j++) s += f[j];
        } else {
            bf16_store(b, e);
            memcpy(y + i, b, k * sizeof *b);
        }
    }
    if (sum) {
        uint16_t b[8];
        bf16_store(b, _mm256_set1_ps(s));
        memcpy(y, b, sizeof *b);
    }
}

void axb_exp_run_avx2(axial_dtype dt, const void *x, void *y, size_t n, bool sum) {
    switch (dt) {
    case AXIAL_F32: run_f32(x, y, n, sum); break;
    case AXIAL_F64: run_f64(x, y, n, sum); break;
    case AXIAL_BF16: run_bf16(x, y, n, sum); break;
    default: break; /* exp_probe.c refuses other types */
    }
}
