/* SPDX-License-Identifier: MIT */
/*
 * lse.c: AdvSIMD (NEON) LogCumSumExp and ReduceLogSumExp for F32, F64, F16 and
 * BF16 (kernels.h): logcumsumexp, reduce_lse, reduce_lse_acc, the column tiles
 * logcumsumexp_cols and reduce_lse_cols, and the chunk kernels
 * logcumsumexp_seg and lse_scan_total; reduce_lse_finish is the scalar one.
 * One body, lse-body.h, per dtype: f32 lanes for F32, F16, BF16 (widened
 * exactly, rounded once at the store), f64 lanes for F64; exp and log are
 * SLEEF's 1-ulp AdvSIMD functions.
 *
 * These ops are outside the one summation order (docs/API.md section 15: no
 * same-bits promise across ISAs).  The order here is this kernel's own and
 * does not depend on the thread count.  A state (m, s) has the value
 * m + log s, m the largest term seen, s = sum exp(term - m) kept in f64; f32
 * terms are summed in f32 only in trees of at most 16 terms.
 *
 * Reductions: per block of LSE_RB vectors (lines) or LSE_RBC rows (columns)
 * a max pass, s *= exp(m_old - m_new) in f64 only where a lane rose, then
 * exp(x - m), a pairwise tree, widened into s; lanes merge in lane order.
 * Scans: per vector, an in-register prefix of exp(x - m) and one log per
 * output; the base may rise by at most LSE_T_RISE inside a vector, else (and
 * for NaN, +inf, or a line of only -inf so far) the scalar step in double
 * takes the vector.  Lines run in chunks of AXIAL_SCAN_CHUNK, each from an
 * empty state, its outputs mixed with the carry (lse_mix).  Columns: lanes are
 * columns in strips of LSE_CW vectors; a tile cut on strip boundaries (or at
 * the row's end) gets the whole-shape call's bits.  Tails: a partial vector,
 * block or strip is padded with -inf, which adds nothing and raises no max.
 */
#include <math.h>
#include <sleef.h>

#include "neon.h"

#define LSE_RB 16     /* vectors a block of a line reduction (a power of 2) */
#define LSE_RBC 16    /* rows a block of a column reduction (a power of 2) */
#define LSE_CW 4      /* vectors (of columns) a strip */
#define LSE_T_RISE 4.0 /* the largest rise of the base inside one scan vector */

/* Error (the bound of docs/API.md section 15): y = M + log S with M a term
 * (exact) and S >= e^-4, since the base is within LSE_T_RISE of each output's
 * largest term (S >= 1 in the reductions and column scans); a relative error r
 * of S is an absolute error r of log S.  With u = 2^-24 (f32 lanes), r collects
 * 1 ulp per exp, the rounding of x - m inside exp (on average at most
 * (ln n + 4) u), the f32 trees and prefixes (<= 4u), s rounded to the lane type
 * before the log (u/2) and a chunk's mix with its carry (2u); the f64 sums,
 * rescales and carries add about n 2^-53.  Then the log (2u max(4, ln n)) and
 * the final rounding (1/2 ulp; f16 / bf16 1/2 ulp_T more): in sum below
 * ulp_T(y*) + u (2 ln n + 16); the same terms with 2^-53 for f64. */

/* LogCumSumExp's chunks (kernels.h, logcumsumexp_seg): a chunk's outputs
 * are those of the carry R followed by the chunk's own state (m, s):
 * ref + log(a + b s), ref = max(R.m, m), a = R.s exp(R.m - ref), b =
 * exp(m - ref), in double once per base m (mix.m), then in the lanes' type. */
typedef struct {
    double m, ref, a, b;
} lse_mix;
AXIAL_INLINE lse_mix lse_mix_of(axial_lse_acc R, double m) {
    const double ref = R.m > m ? R.m : m;
    return (lse_mix){m, ref, R.s * exp(R.m - ref), exp(m - ref)};
}
/* The value of R followed by the state st (the scalar step's outputs). */
AXIAL_INLINE double lse_val_from(axial_lse_acc R, axial_lse_acc st) {
    axial_lse_add(&R, st.m, st.s);
    return axial_lse_value(R);
}

/* ---- f32 lanes (f32, f16, bf16) ------------------------------------------- */
typedef struct {
    float64x2_t lo, hi; /* s of lanes 0, 1 and 2, 3 */
} axial_lse_s4;

AXIAL_INLINE axial_lse_s4 lse_s4_zero(void) {
    return (axial_lse_s4){vdupq_n_f64(0), vdupq_n_f64(0)};
}
AXIAL_INLINE axial_lse_s4 lse_s4_add(axial_lse_s4 a, float32x4_t v) {
    a.lo = vaddq_f64(a.lo, vcvt_f64_f32(vget_low_f32(v)));
    a.hi = vaddq_f64(a.hi, vcvt_high_f64_f32(v));
    return a;
}
/* s *= exp(mo - mn) in the lanes that rose (f64 difference and exp); the
 * others keep s (their exponent is 0 - 0). */
AXIAL_INLINE axial_lse_s4 lse_s4_rescale(axial_lse_s4 a, float32x4_t mo, float32x4_t mn,
                                         uint32x4_t rose) {
    const float32x4_t z = vdupq_n_f32(0);
    const float32x4_t o = vbslq_f32(rose, mo, z), n = vbslq_f32(rose, mn, z);
    a.lo = vmulq_f64(a.lo, Sleef_expd2_u10advsimd(vsubq_f64(vcvt_f64_f32(vget_low_f32(o)),
                                                            vcvt_f64_f32(vget_low_f32(n)))));
    a.hi = vmulq_f64(a.hi, Sleef_expd2_u10advsimd(vsubq_f64(vcvt_high_f64_f32(o),
                                                            vcvt_high_f64_f32(n))));
    return a;
}
AXIAL_INLINE void lse_s4_store(double *p, axial_lse_s4 a) {
    vst1q_f64(p, a.lo);
    vst1q_f64(p + 2, a.hi);
}
AXIAL_INLINE float32x4_t lse_s4_tov(axial_lse_s4 a) {
    return vcvt_high_f32_f64(vcvt_f32_f64(a.lo), a.hi);
}
/* inclusive prefix sum of 4 lanes: [e0, e0+e1, (e0+e1)+e2, (e0+e1)+(e2+e3)] */
AXIAL_INLINE float32x4_t lse_prefix_f32(float32x4_t e) {
    const float32x4_t z = vdupq_n_f32(0);
    e = vaddq_f32(e, vextq_f32(z, e, 3));
    return vaddq_f32(e, vextq_f32(z, e, 2));
}
AXIAL_INLINE float32x4_t lse_rev_f32(float32x4_t v) {
    v = vrev64q_f32(v);
    return vextq_f32(v, v, 2);
}

#define V float32x4_t
#define E float
#define L 4
#define MASK uint32x4_t
#define A axial_lse_s4
#define V_MAX vmaxq_f32
#define V_ADD vaddq_f32
#define V_MUL vmulq_f32
#define V_SUB vsubq_f32
#define V_DUP vdupq_n_f32
#define V_EXP Sleef_expf4_u10advsimd
#define V_LOG Sleef_logf4_u10advsimd
#define V_HMAX vmaxvq_f32
#define V_GT vcgtq_f32
#define V_LT vcltq_f32
#define V_EQ vceqq_f32
#define V_ABS vabsq_f32
#define V_SEL vbslq_f32
#define V_ANY(m) (vmaxvq_u32(m) != 0)
#define V_LANE0(v) vgetq_lane_f32(v, 0)
#define V_LAST(v) vgetq_lane_f32(v, 3)
#define V_PREFIX lse_prefix_f32
#define V_SHIFT1(p) vextq_f32(vdupq_n_f32(0), p, 3)
#define V_REV lse_rev_f32
#define V_STORE_E vst1q_f32
#define V_LOAD_E vld1q_f32
#define A_ZERO lse_s4_zero
#define A_ADD lse_s4_add
#define A_RESCALE lse_s4_rescale
#define A_STORE lse_s4_store
#define A_TOV lse_s4_tov

/* f32 */
#define LSE_NAME f32
#define LSE_T float
#define LSE_LOAD(p) vld1q_f32(p)
#define LSE_STORE(p, v) vst1q_f32(p, v)
#define LSE_NEGINF_T (-INFINITY)
#define LSE_STORE1(p, d) (*(p) = (float)(d))
#include "lse-body.h"
#undef LSE_NAME
#undef LSE_T
#undef LSE_LOAD
#undef LSE_STORE
#undef LSE_NEGINF_T
#undef LSE_STORE1

/* f16 */
AXIAL_INLINE void lse_store1_f16(uint16_t *p, double d) {
    const float64x2_t v = vdupq_n_f64(d);
    *p = vget_lane_u16(axial_neon_f64x2_to_f16(v, v), 0);
}
#define LSE_NAME f16
#define LSE_T uint16_t
#define LSE_LOAD(p) axial_neon_load4_f16(p)
#define LSE_STORE(p, v) vst1_u16(p, axial_neon_f32_to_f16(v))
#define LSE_NEGINF_T ((uint16_t)0xfc00)
#define LSE_STORE1(p, d) lse_store1_f16(p, d)
#include "lse-body.h"
#undef LSE_NAME
#undef LSE_T
#undef LSE_LOAD
#undef LSE_STORE
#undef LSE_NEGINF_T
#undef LSE_STORE1

/* bf16 */
AXIAL_INLINE void lse_store1_bf16(uint16_t *p, double d) {
    const float64x2_t v = vdupq_n_f64(d);
    *p = vget_lane_u16(axial_neon_f64x2_to_bf16(v, v), 0);
}
#define LSE_NAME bf16
#define LSE_T uint16_t
#define LSE_LOAD(p) axial_neon_load4_bf16(p)
#define LSE_STORE(p, v) vst1_u16(p, axial_neon_f32_to_bf16(v))
#define LSE_NEGINF_T ((uint16_t)0xff80)
#define LSE_STORE1(p, d) lse_store1_bf16(p, d)
#include "lse-body.h"
#undef LSE_NAME
#undef LSE_T
#undef LSE_LOAD
#undef LSE_STORE
#undef LSE_NEGINF_T
#undef LSE_STORE1

#undef V
#undef E
#undef L
#undef MASK
#undef A
#undef V_MAX
#undef V_ADD
#undef V_MUL
#undef V_SUB
#undef V_DUP
#undef V_EXP
#undef V_LOG
#undef V_HMAX
#undef V_GT
#undef V_LT
#undef V_EQ
#undef V_ABS
#undef V_SEL
#undef V_ANY
#undef V_LANE0
#undef V_LAST
#undef V_PREFIX
#undef V_SHIFT1
#undef V_REV
#undef V_STORE_E
#undef V_LOAD_E
#undef A_ZERO
#undef A_ADD
#undef A_RESCALE
#undef A_STORE
#undef A_TOV

/* ---- f64 lanes (f64) ------------------------------------------------------ */
AXIAL_INLINE float64x2_t lse_d2_zero(void) {
    return vdupq_n_f64(0);
}
AXIAL_INLINE float64x2_t lse_d2_rescale(float64x2_t a, float64x2_t mo, float64x2_t mn,
                                        uint64x2_t rose) {
    const float64x2_t z = vdupq_n_f64(0);
    return vmulq_f64(a, Sleef_expd2_u10advsimd(
                            vsubq_f64(vbslq_f64(rose, mo, z), vbslq_f64(rose, mn, z))));
}
AXIAL_INLINE float64x2_t lse_prefix_f64(float64x2_t e) {
    return vaddq_f64(e, vextq_f64(vdupq_n_f64(0), e, 1));
}

#define V float64x2_t
#define E double
#define L 2
#define MASK uint64x2_t
#define A float64x2_t
#define V_MAX vmaxq_f64
#define V_ADD vaddq_f64
#define V_MUL vmulq_f64
#define V_SUB vsubq_f64
#define V_DUP vdupq_n_f64
#define V_EXP Sleef_expd2_u10advsimd
#define V_LOG Sleef_logd2_u10advsimd
#define V_HMAX vmaxvq_f64
#define V_GT vcgtq_f64
#define V_LT vcltq_f64
#define V_EQ vceqq_f64
#define V_ABS vabsq_f64
#define V_SEL vbslq_f64
#define V_ANY(m) (vmaxvq_u32(vreinterpretq_u32_u64(m)) != 0)
#define V_LANE0(v) vgetq_lane_f64(v, 0)
#define V_LAST(v) vgetq_lane_f64(v, 1)
#define V_PREFIX lse_prefix_f64
#define V_SHIFT1(p) vextq_f64(vdupq_n_f64(0), p, 1)
#define V_REV(v) vextq_f64(v, v, 1)
#define V_STORE_E vst1q_f64
#define V_LOAD_E vld1q_f64
#define A_ZERO lse_d2_zero
#define A_ADD vaddq_f64
#define A_RESCALE lse_d2_rescale
#define A_STORE vst1q_f64
#define A_TOV(a) (a)

#define LSE_NAME f64
#define LSE_T double
#define LSE_LOAD(p) vld1q_f64(p)
#define LSE_STORE(p, v) vst1q_f64(p, v)
#define LSE_NEGINF_T (-(double)INFINITY)
#define LSE_STORE1(p, d) (*(p) = (d))
#include "lse-body.h"
