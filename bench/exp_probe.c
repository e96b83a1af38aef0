/* SPDX-License-Identifier: MIT */
/*
 * exp_probe.c: the exp probes of the log-space ops, the ceiling of a kernel
 * that computes one exp per element, as the bandwidth probe is
 * the ceiling of one that only moves its bytes.  One probe per ISA, named
 * exp_{isa}, over the same elements as the case:
 *   exp_scalar   libm expf (f32, and bf16 through float) / exp (f64) in a
 *                plain loop (bench/ is built without -ffast-math, so the
 *                compiler cannot swap in a vector exp);
 *   exp_avx2, exp_avx512, exp_neon   SLEEF's ISA-suffixed u10 exp
 *                (exp_probe_<isa>.c, built with that ISA's flags).
 * LogCumSumExp: y[i] = exp(x[i]) stored in the element type (the scan's
 * bytes); ReduceLogSumExp: the exps summed, the sum stored to y[0].  A probe
 * runs only where axial_isa_available() has its ISA (else the benchmark is
 * skipped with a message), and only on the f32, f64 and bf16 cases of the
 * log-space ops.  Before timing, prepare() runs the probe on 37 values
 * (both modes, the vector tail included) against libm: a probe that does not
 * compute exp is skipped, never timed.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

static float bf16_f(uint16_t b) {
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint16_t f_bf16(float f) { /* nearest even; exp of finite input: no NaN */
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

static void run_scalar(axial_dtype dt, const void *xv, void *yv, size_t n, bool sum) {
    size_t i = 0;
    if (dt == AXIAL_F64) {
        const double *x = xv;
        double *y = yv, s0 = 0, s1 = 0;
        if (!sum) {
            for (; i < n; i++) y[i] = exp(x[i]);
            return;
        }
        for (; i + 2 <= n; i += 2) s0 += exp(x[i]), s1 += exp(x[i + 1]);
        for (; i < n; i++) s0 += exp(x[i]);
        s0 += s1;
        memcpy(y, &s0, sizeof s0);
    } else if (dt == AXIAL_F32) {
        const float *x = xv;
        float *y = yv, s0 = 0, s1 = 0;
        if (!sum) {
            for (; i < n; i++) y[i] = expf(x[i]);
            return;
        }
        for (; i + 2 <= n; i += 2) s0 += expf(x[i]), s1 += expf(x[i + 1]);
        for (; i < n; i++) s0 += expf(x[i]);
        s0 += s1;
        memcpy(y, &s0, sizeof s0);
    } else {
        const uint16_t *x = xv;
        uint16_t *y = yv;
        float s0 = 0, s1 = 0;
        if (!sum) {
            for (; i < n; i++) y[i] = f_bf16(expf(bf16_f(x[i])));
            return;
        }
        for (; i + 2 <= n; i += 2) s0 += expf(bf16_f(x[i])), s1 += expf(bf16_f(x[i + 1]));
        for (; i < n; i++) s0 += expf(bf16_f(x[i]));
        y[0] = f_bf16(s0 + s1);
    }
}

typedef void (*exp_loop)(axial_dtype dt, const void *x, void *y, size_t n, bool sum);

/* One probe: its ISA and its loop (NULL: not built here). */
typedef struct {
    axial_isa isa;
    exp_loop loop;
} exp_probe;

static const exp_probe probes[] = {
    {AXIAL_ISA_SCALAR, run_scalar},
#ifdef AXB_HAVE_EXP_AVX2
    {AXIAL_ISA_AVX2, axb_exp_run_avx2},
#else
    {AXIAL_ISA_AVX2, NULL},
#endif
#ifdef AXB_HAVE_EXP_AVX512
    {AXIAL_ISA_AVX512, axb_exp_run_avx512},
#else
    {AXIAL_ISA_AVX512, NULL},
#endif
#ifdef AXB_HAVE_EXP_NEON
    {AXIAL_ISA_NEON, axb_exp_run_neon},
#else
    {AXIAL_ISA_NEON, NULL},
#endif
};

static double load(axial_dtype dt, const void *p, size_t i) {
    if (dt == AXIAL_F64) return ((const double *)p)[i];
    if (dt == AXIAL_F32) return ((const float *)p)[i];
    return bf16_f(((const uint16_t *)p)[i]);
}

static void store(axial_dtype dt, void *p, size_t i, double v) {
    if (dt == AXIAL_F64) ((double *)p)[i] = v;
    else if (dt == AXIAL_F32) ((float *)p)[i] = (float)v;
    else ((uint16_t *)p)[i] = f_bf16((float)v);
}

/* The probe on 37 values in [-4, 4] against libm's exp, stored and summed. */
static bool self_check(const exp_probe *p, axial_dtype dt, char *why, size_t cap) {
    enum { N = 37 };
    double x[N], y[N], ref[N], sum = 0; /* wide enough for every type */
    const double tol = dt == AXIAL_F64 ? 1e-14 : dt == AXIAL_F32 ? 1e-5 : 8e-3;
    for (size_t i = 0; i < N; i++) store(dt, x, i, (double)i * 0.21875 - 4);
    for (size_t i = 0; i < N; i++) ref[i] = exp(load(dt, x, i)), sum += ref[i];
    memset(y, 0, sizeof y);
    p->loop(dt, x, y, N, false);
    for (size_t i = 0; i <= N; i++) {
        if (i == N) { /* the sum */
            memset(y, 0, sizeof y);
            p->loop(dt, x, y, N, true);
        }
        double want = i < N ? ref[i] : sum, got = load(dt, y, i < N ? i : 0);
        if (!(fabs(got - want) <= tol * want)) {
            snprintf(why, cap, "exp_%s: self-check failed on %s %s (got %g, libm %g)",
                     axial_isa_name(p->isa), ax_dtype_str(dt),
                     i < N ? "element" : "sum", got, want);
            return false;
        }
    }
    return true;
}

static bool prepare(const exp_probe *p, const axb_case *c, void **ctx, char *why, size_t cap) {
    *ctx = (void *)p;
    const char *name = axial_isa_name(p->isa);
    if (!ax_op_lse(c->op)) {
        snprintf(why, cap, "exp_%s: no such operation (the exp probe is for the log-space ops)",
                 name);
        return false;
    }
    if (c->dtype != AXIAL_F32 && c->dtype != AXIAL_F64 && c->dtype != AXIAL_BF16) {
        snprintf(why, cap, "exp_%s: no %s probe", name, ax_dtype_str(c->dtype));
        return false;
    }
    unsigned avail = axial_isa_available();
    if (!p->loop || !(avail & (1u << p->isa))) {
        snprintf(why, cap, "exp_%s: %s is not available on this CPU/build (available mask 0x%x)",
                 name, name, avail);
        return false;
    }
    return self_check(p, c->dtype, why, cap);
}

static void run(void *ctx, const axb_case *c, const void *x, void *y) {
    const exp_probe *p = ctx;
    p->loop(c->dtype, x, y, axb_count(c), ax_op_reduce(c->op));
}

#define AXB_EXP_PEER(ISA, K)                                                              \
    static bool prepare_##ISA(const axb_case *c, void **ctx, char *why, size_t cap) {     \
        return prepare(&probes[K], c, ctx, why, cap);                                     \
    }                                                                                     \
    const axb_peer axb_exp_##ISA = {"exp_" #ISA, prepare_##ISA, run, NULL, NULL};
AXB_EXP_PEER(scalar, 0)
AXB_EXP_PEER(avx2, 1)
AXB_EXP_PEER(avx512, 2)
AXB_EXP_PEER(neon, 3)
