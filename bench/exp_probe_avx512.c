/* SPDX-License-Identifier: MIT */
/*
 * exp_probe_avx512.c: the AVX-512 exp probe (bench.h, exp_probe.c): SLEEF's
 * Sleef_expf16_u10avx512f (f32, and bf16 widened to f32) and
 * Sleef_expd8_u10avx512f (f64) over every input element, two independent
 * vectors per step so the loop is bound by exp's throughput rather than its
 * latency; each result is stored (the scans move that many bytes) or added
 * into two vector accumulators (the reductions), so none is optimised away.
 * bf16 results are rounded back to nearest even.  The tail (fewer than two
 * vectors) runs one masked vector at a time.  Built with the AVX-512
 * kernels' flags, run only where axial_isa_available() has AVX-512.
 */
#ifndef __AVX512F__
#error "build with -mavx512f -mavx512vl -mavx512bw -mavx512dq"
#endif
#include <immintrin.h>
#include <sleef.h>
#include <string.h>

#include "bench.h"

static __m512 bf16_load(const uint16_t *p, __mmask16 m) {
    __m256i h = _mm256_maskz_loadu_epi16(m, p);
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

static void bf16_store(uint16_t *p, __m512 v, __mmask16 m) {
    __m512i u = _mm512_castps_si512(v);
    __m512i odd = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    u = _mm512_srli_epi32(_mm512_add_epi32(u, _mm512_add_epi32(odd, _mm512_set1_epi32(0x7fff))),
                          16);
    _mm256_mask_storeu_epi16(p, m, _mm512_cvtepi32_epi16(u));
}

static void run_f32(const float *x, float *y, size_t n, bool sum) {
    __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps();
    size_t i = 0;
    if (sum)
        for (; i + 32 <= n; i += 32) {
            a0 = _mm512_add_ps(a0, Sleef_expf16_u10avx512f(_mm512_loadu_ps(x + i)));
            a1 = _mm512_add_ps(a1, Sleef_expf16_u10avx512f(_mm512_loadu_ps(x + i + 16)));
        }
    else
        for (; i + 32 <= n; i += 32) {
            _mm512_storeu_ps(y + i, Sleef_expf16_u10avx512f(_mm512_loadu_ps(x + i)));
            _mm512_storeu_ps(y + i + 16, Sleef_expf16_u10avx512f(_mm512_loadu_ps(x + i + 16)));
        }
    for (; i < n; i += 16) {
        __mmask16 m = (__mmask16)(n - i >= 16 ? 0xffffu : (1u << (n - i)) - 1);
        __m512 e = Sleef_expf16_u10avx512f(_mm512_maskz_loadu_ps(m, x + i));
        if (sum) a0 = _mm512_add_ps(a0, _mm512_maskz_mov_ps(m, e));
        else _mm512_mask_storeu_ps(y + i, m, e);
    }
    if (sum) {
        float s = _mm512_reduce_add_ps(_mm512_add_ps(a0, a1));
        memcpy(y, &s, sizeof s);
    }
}

static void run_f64(const double *x, double *y, size_t n, bool sum) {
    __m512d a0 = _mm512_setzero_pd(), a1 = _mm512_setzero_pd();
    size_t i = 0;
    if (sum)
        for (; i + 16 <= n; i += 16) {
            a0 = _mm512_add_pd(a0, Sleef_expd8_u10avx512f(_mm512_loadu_pd(x + i)));
            a1 = _mm512_add_pd(a1, Sleef_expd8_u10avx512f(_mm512_loadu_pd(x + i + 8)));
        }
    else
        for (; i + 16 <= n; i += 16) {
            _mm512_storeu_pd(y + i, Sleef_expd8_u10avx512f(_mm512_loadu_pd(x + i)));
            _mm512_storeu_pd(y + i + 8, Sleef_expd8_u10avx512f(_mm512_loadu_pd(x + i + 8)));
        }
    for (; i < n; i += 8) {
        __mmask8 m = (__mmask8)(n - i >= 8 ? 0xffu : (1u << (n - i)) - 1);
        __m512d e = Sleef_expd8_u10avx512f(_mm512_maskz_loadu_pd(m, x + i));
        if (sum) a0 = _mm512_add_pd(a0, _mm512_maskz_mov_pd(m, e));
        else _mm512_mask_storeu_pd(y + i, m, e);
    }
    if (sum) {
        double s = _mm512_reduce_add_pd(_mm512_add_pd(a0, a1));
        memcpy(y, &s, sizeof s);
    }
}

static void run_bf16(const uint16_t *x, uint16_t *y, size_t n, bool sum) {
    __m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps();
    size_t i = 0;
    if (sum)
        for (; i + 32 <= n; i += 32) {
            a0 = _mm512_add_ps(a0, Sleef_expf16_u10avx512f(bf16_load(x + i, 0xffff)));
            a1 = _mm512_add_ps(a1, Sleef_expf16_u10avx512f(bf16_load(x + i + 16, 0xffff)));
        }
    else
        for (; i + 32 <= n; i += 32) {
            bf16_store(y + i, Sleef_expf16_u10avx512f(bf16_load(x + i, 0xffff)), 0xffff);
            bf16_store(y + i + 16, Sleef_expf16_u10avx512f(bf16_load(x + i + 16, 0xffff)),
                       0xffff);
        }
    for (; i < n; i += 16) {
        __mmask16 m = (__mmask16)(n - i >= 16 ? 0xffffu : (1u << (n - i)) - 1);
        __m512 e = Sleef_expf16_u10avx512f(bf16_load(x + i, m));
        if (sum) a0 = _mm512_add_ps(a0, _mm512_maskz_mov_ps(m, e));
        else bf16_store(y + i, e, m);
    }
    if (sum) {
        __m512 s = _mm512_set1_ps(_mm512_reduce_add_ps(_mm512_add_ps(a0, a1)));
        bf16_store(y, s, 1);
    }
}

void axb_exp_run_avx512(axial_dtype dt, const void *x, void *y, size_t n, bool sum) {
    switch (dt) {
    case AXIAL_F32: run_f32(x, y, n, sum); break;
    case AXIAL_F64: run_f64(x, y, n, sum); break;
    case AXIAL_BF16: run_bf16(x, y, n, sum); break;
    default: break; /* exp_probe.c refuses other types */
    }
}
