/* SPDX-License-Identifier: MIT */
/*
 * exp_probe_neon.c: the AdvSIMD exp probe (bench.h, exp_probe.c): SLEEF's
 * Sleef_expf4_u10advsimd (f32, and bf16 widened to f32) and
 * Sleef_expd2_u10advsimd (f64) over every input element, two independent
 * vectors per step so the loop is bound by exp's throughput rather than its
 * latency; each result is stored (the scans move that many bytes) or added
 * into two vector accumulators (the reductions), so none is optimised away.
 * bf16 results are rounded back to nearest even.  The tail (fewer than two
 * vectors) goes through a zero-padded vector of which only the live lanes are
 * kept.  aarch64 baseline, no flags.
 */
#ifndef __aarch64__
#error "AdvSIMD probe: aarch64 only"
#endif
#include <arm_neon.h>
#include <sleef.h>
#include <string.h>

#include "bench.h"

static float32x4_t bf16_load(const uint16_t *p) {
    return vreinterpretq_f32_u32(vshll_n_u16(vld1_u16(p), 16));
}

static void bf16_store(uint16_t *p, float32x4_t v) {
    uint32x4_t u = vreinterpretq_u32_f32(v);
    uint32x4_t odd = vandq_u32(vshrq_n_u32(u, 16), vdupq_n_u32(1));
    vst1_u16(p, vshrn_n_u32(vaddq_u32(u, vaddq_u32(odd, vdupq_n_u32(0x7fff))), 16));
}

static void run_f32(const float *x, float *y, size_t n, bool sum) {
    float32x4_t a0 = vdupq_n_f32(0), a1 = vdupq_n_f32(0);
    size_t i = 0;
    if (sum)
        for (; i + 8 <= n; i += 8) {
            a0 = vaddq_f32(a0, Sleef_expf4_u10advsimd(vld1q_f32(x + i)));
            a1 = vaddq_f32(a1, Sleef_expf4_u10advsimd(vld1q_f32(x + i + 4)));
        }
    else
        for (; i + 8 <= n; i += 8) {
            vst1q_f32(y + i, Sleef_expf4_u10advsimd(vld1q_f32(x + i)));
            vst1q_f32(y + i + 4, Sleef_expf4_u10advsimd(vld1q_f32(x + i + 4)));
        }
    float s = vaddvq_f32(vaddq_f32(a0, a1));
    for (; i < n; i += 4) {
        float b[4] = {0};
        size_t k = n - i < 4 ? n - i : 4;
        memcpy(b, x + i, k * sizeof *b);
        vst1q_f32(b, Sleef_expf4_u10advsimd(vld1q_f32(b)));
        if (sum)
            for (size_t j = 0; j < k; j++) s += b[j];
        else memcpy(y + i, b, k * sizeof *b);
    }
    if (sum) memcpy(y, &s, sizeof s);
}

static void run_f64(const double *x, double *y, size_t n, bool sum) {
    float64x2_t a0 = vdupq_n_f64(0), a1 = vdupq_n_f64(0);
    size_t i = 0;
    if (sum)
        for (; i + 4 <= n; i += 4) {
            a0 = vaddq_f64(a0, Sleef_expd2_u10advsimd(vld1q_f64(x + i)));
            a1 = vaddq_f64(a1, Sleef_expd2_u10advsimd(vld1q_f64(x + i + 2)));
        }
    else
        for (; i + 4 <= n; i += 4) {
            vst1q_f64(y + i, Sleef_expd2_u10advsimd(vld1q_f64(x + i)));
            vst1q_f64(y + i + 2, Sleef_expd2_u10advsimd(vld1q_f64(x + i + 2)));
        }
    double s = vaddvq_f64(vaddq_f64(a0, a1));
    for (; i < n; i += 2) {
        double b[2] = {0};
        size_t k = n - i < 2 ? n - i : 2;
        memcpy(b, x + i, k * sizeof *b);
        vst1q_f64(b, Sleef_expd2_u10advsimd(vld1q_f64(b)));
        if (sum)
            for (size_t j = 0; j < k; j++) s += b[j];
        else memcpy(y + i, b, k * sizeof *b);
    }
    if (sum) memcpy(y, &s, sizeof s);
}

static void run_bf16(const uint16_t *x, uint16_t *y, size_t n, bool sum) {
    float32x4_t a0 = vdupq_n_f32(0), a1 = vdupq_n_f32(0);
    size_t i = 0;
    if (sum)
        for (; i + 8 <= n; i += 8) {
            a0 = vaddq_f32(a0, Sleef_expf4_u10advsimd(bf16_load(x + i)));
            a1 = vaddq_f32(a1, Sleef_expf4_u10advsimd(bf16_load(x + i + 4)));
        }
    else
        for (; i + 8 <= n; i += 8) {
            bf16_store(y + i, Sleef_expf4_u10advsimd(bf16_load(x + i)));
            bf16_store(y + i + 4, Sleef_expf4_u10advsimd(bf16_load(x + i + 4)));
        }
    float s = vaddvq_f32(vaddq_f32(a0, a1));
    for (; i < n; i += 4) {
        uint16_t b[4] = {0};
        float f[4];
        size_t k = n - i < 4 ? n - i : 4;
        memcpy(b, x + i, k * sizeof *b);
        float32x4_t e = Sleef_expf4_u10advsimd(bf16_load(b));
        if (sum) {
            vst1q_f32(f, e);
            for (size_t j = 0; j < k; j++) s += f[j];
        } else {
            bf16_store(b, e);
            memcpy(y + i, b, k * sizeof *b);
        }
    }
    if (sum) {
        uint16_t b[4];
        bf16_store(b, vdupq_n_f32(s));
        memcpy(y, b, sizeof *b);
    }
}

void axb_exp_run_neon(axial_dtype dt, const void *x, void *y, size_t n, bool sum) {
    switch (dt) {
    case AXIAL_F32: run_f32(x, y, n, sum); break;
    case AXIAL_F64: run_f64(x, y, n, sum); break;
    case AXIAL_BF16: run_bf16(x, y, n, sum); break;
    default: break; /* exp_probe.c refuses other types */
    }
}
