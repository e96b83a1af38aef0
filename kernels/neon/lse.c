/* SPDX-License-Identifier: MIT */
/*
 * lse.c: AdvSIMD (NEON) LogCumSumExp and ReduceLogSumExp for F32, F64, F16
 * and BF16, with SLEEF's AdvSIMD functions Sleef_expf4_u10advsimd,
 * Sleef_logf4_u10advsimd (f32 lanes) and Sleef_expd2_u10advsimd,
 * Sleef_logd2_u10advsimd (f64 lanes), 1.0-ulp variants.
 *
 *   logcumsumexp  (outer, n, inner, flags): y[o][j][i] = log sum_{k<=j} exp x[o][k][i]
 *   reduce_lse    (outer, n, inner):        y[o][i] = log sum_j exp x[o][j][i]
 *   reduce_lse_acc(outer, n, inner):        acc[o][i] (+)= those terms (kernels.h state)
 *   logcumsumexp_cols(n, ncols, stride, flags), reduce_lse_cols(n, ncols, stride):
 *     a column tile (columns [0, ncols) of an (n, stride) matrix; the
 *     planners' tiles along an outer axis)
 * reduce_lse_finish is left to the scalar table (it rounds the states).
 *
 * Compute types: f32 lanes (4 a vector) for f32, f16 and bf16 (the 16-bit
 * formats widen exactly, FCVTL / USHLL #16, and round once, RNE, at the
 * store; NaN kept); f64 lanes (2 a vector) for f64.  One body, lse-body.h,
 * is instantiated per dtype.  A state is (m, s): value m + log s, m the
 * largest term seen (the base of the exponentials), s = sum exp(term - m)
 * kept in f64 (f32 terms are summed in f32 only in short trees, at most 16
 * terms, then widened), so the error of s does not grow with n.
 *
 * ReduceLogSumExp, lines (inner == 1; also reduce_lse_acc on the planner's
 * chunks): per-lane states (m_l, s_l).  Blocks of LSE_RB vectors (16: 64 f32
 * or 32 f64 elements, in L1): a lane-max pass (FMAX keeps a NaN lane NaN);
 * where a lane's max rose, s_l *= exp(m_old - m_new) with the difference
 * and the exp in f64 (Sleef_expd2, only when some lane rose; lanes that did
 * not rise, or that were empty, get exp(0) = 1 or 0 -- never -inf - -inf);
 * then exp(x - m) over the block (base 0 in a lane still at -inf, whose
 * terms are then all -inf and give 0), a pairwise tree of the 16 vectors
 * (<= 16 terms a lane, error <= 4 ulp of the f32 sum), widened and added to
 * the f64 lane sums.  The tail of a line is one block padded with -inf.  At
 * the end the lanes merge in lane order with axial_lse_add (libm exp), into
 * an empty state (reduce_lse: y = M + log S in double, rounded once) or into
 * the caller's acc (reduce_lse_acc).  NaN / +inf lanes reach the state as
 * m = NaN / +inf (their s is garbage and ignored), where axial_lse_add gives
 * NaN precedence.
 * Columns (inner > 1): lanes are columns, in strips of LSE_CW vectors (16 f32
 * or 8 f64 columns); rows in blocks of LSE_RBC = 16 read in place (max pass,
 * rescale where a column rose, exp pass with a 4-level f32 tree, widened
 * and added); a partial block (the last n mod 16 rows, or a strip narrower
 * than 16 columns) is copied into one buffer padded with -inf.
 *
 * LogCumSumExp, lines: per vector of L consecutive terms (in scan order; with
 * REVERSE the vector is loaded from the end and its lanes reversed): block
 * max b (FMAXV, NaN-propagating).  Fast path, when b is neither NaN nor +inf
 * and the line is not already NaN / +inf: if b > m (a rise), s *= exp(m - b)
 * (scalar libm exp, once per rising vector) and m = b -- but only when
 * b - m0 <= LSE_T_RISE = 4, m0 the largest term of the vector's first output
 * (so every output's own maximum M_j is within 4 of the base); then
 * e = exp(x - m) (SLEEF; -inf terms give 0), an in-register inclusive prefix
 * p of e (2 steps of EXT + add), s_j = s + p_j (exclusive: p shifted by one
 * lane, so the first output uses s alone and is -inf on an empty line),
 * y_j = m + log(s_j) (SLEEF log; log 0 = -inf gives the -inf outputs of
 * leading -inf terms), and s += p_{L-1} in f64.  Fallback, per term, the
 * scalar oracle's step in double (libm exp): a vector with a NaN or +inf
 * term, a line already NaN or +inf (then every later output is NaN / +inf,
 * the NaN winning; no exp is computed), a line whose terms so far are all
 * -inf, and a rise of more than 4 inside one vector (a ramp with steps > 4/3
 * takes it on every vector: correct, slower).  The last n mod L terms are
 * one vector padded with -inf.  A line runs in chunks of AXIAL_SCAN_CHUNK =
 * 16384 terms from the scan's start (lcse_seg; kernels.h, logcumsumexp_seg:
 * the planner's split along a line), each from an empty state of its own
 * (lcse_chunk: its final state is its total, whatever came before), its
 * outputs those of the carry R (R_0 empty, R_{h+1} = R_h (+) T_h,
 * axial_lse_add) followed by that state: on the fast path ref + log(a + b
 * s_j), ref = max(R.m, m), a = R.s exp(R.m - ref), b = exp(m - ref) (lse_mix,
 * in double once per base, then a + b s_j in the lane type); the scalar step
 * outputs the merge of R and its state in double.  An empty carry takes an
 * instance without a and b (the same bits); a NaN or +inf carry runs the
 * chunk by the scalar step; an exclusive chunk's first output is R's value.
 * Columns: lanes are columns (strips of LSE_CW vectors); per row
 * M = max(m, x) (FMAX: NaN kept), s *= exp(m - M) in f64 where a column rose
 * (Sleef_expd2, only when some lane rose), s += exp(x - M) widened to f64,
 * y = M + log(s) (SLEEF log of s rounded to the lane type); NaN / +inf
 * columns output m itself, empty ones -inf.
 *
 * Column tiles: logcumsumexp_cols and reduce_lse_cols run the column path
 * above (lcse_cols_tile, lse_reduce_cols: the strip loops, with the column
 * count and the row stride as separate parameters) on their ncols columns;
 * the whole-shape kernels run the same functions with ncols = stride = inner
 * (stride 1, a single column, is a line in both: the line path).  The
 * decisions of the column path are per strip of LSE_CW * L columns (16 f32 /
 * f16 / bf16, 8 f64: 64, 32, 32, 64 bytes): whether to rescale (per vector
 * of the strip), and the padding of a partial strip or row block.  A tile
 * that starts on a 64-byte line of its row (a whole number of strips from
 * the row's start) and ends on one or at the row's end cuts the row into the
 * very strips of the whole-shape call, each read over the same rows in the
 * same order: the outputs are the same bits.  (Here those decisions do not even change a
 * lane's bits -- a lane that did not rise is multiplied by exp(0) = 1, a
 * padded lane is dropped -- so other cuts would give them too; the planner
 * cuts on lines all the same, as the other ISAs need.)
 *
 * Error (the bound: f32/f16/bf16 |y - y*| <= ulp_T(y*) + 4 u (|y*| + ln n + 4),
 * u = 2^-24; f64 2^-53 (4|y*| + 4 ln n + 16 + n)): the value is M + log S
 * with M a term (exact) and S >= e^-4 (the base is within LSE_T_RISE of the
 * output's largest term; S >= 1 in the reductions and the column scans).  A
 * relative error r of S is an absolute error r of log S.  r collects: the
 * exp of each term (1 ulp), the rounding of x - m inside exp (|x - m| u,
 * significant only for terms with exp(x - m) not negligible, i.e. on
 * average over the sum at most ln n + 4 u), the f32 trees / prefixes (<= 4u),
 * the f64 sums and rescales (n 2^-53: nothing for f32 and within the n term
 * for f64), the rescale factors of the line scans (libm, in double), and s rounded to the lane type before the log (u/2); a chunk's merge
 * with its carry (a, b, b s_j, a + b s_j in the lane type: 2u, relative to
 * a + b s_j >= e^-4), and the carries merged in double (2^-52 per chunk).  Then the
 * log's own error (1 ulp of |log S| <= max(4, ln n): 2u max(4, ln n)) and the
 * final addition M + log S, rounded once: 1/2 ulp of y (in the lane type; a
 * second rounding to f16/bf16 adds 1/2 ulp_T).  In sum below
 * ulp_T(y*) + u (2 ln n + 16) for f32 lanes; the same terms in f64 lanes
 * (2^-53) for f64.  The reductions merge in double (libm) and round once.
 * Built with -ffp-contract=off.  The order (blocks of 16 vectors, 4 lanes,
 * merged in lane order) is this kernel's own: results are not bit-identical
 * to the AVX2 / AVX-512 / scalar kernels (not required for these ops), and
 * they do not depend on threads (the planner fixes the chunks).
 */
#include <math.h>
#include <sleef.h>

#include "neon.h"

#define LSE_RB 16     /* vectors a block of a line reduction (a power of 2) */
#define LSE_RBC 16    /* rows a block of a column reduction (a power of 2) */
#define LSE_CW 4      /* vectors (of columns) a strip */
#define LSE_T_RISE 4.0 /* the largest rise of the base inside one scan vector */

/* LogCumSumExp's chunks (kernels.h, logcumsumexp_seg): a chunk's outputs
 * are those of the carry R followed by the chunk's own state (m, s):
 * ref + log(a + b s), ref = max(R.m, m), a = R.s exp(R.m - ref), b =
 * exp(m - ref), in double once per base m (mix.m), then in the lanes' type. */
typedef struct {
    double m, ref, a, b;
} lse_mix;
AXIAL_NEON_INLINE lse_mix lse_mix_of(axial_lse_acc R, double m) {
    const double ref = R.m > m ? R.m : m;
    return (lse_mix){m, ref, R.s * exp(R.m - ref), exp(m - ref)};
}
/* The value of R followed by the state st (the scalar step's outputs). */
AXIAL_NEON_INLINE double lse_val_from(axial_lse_acc R, axial_lse_acc st) {
    axial_lse_add(&R, st.m, st.s);
    return axial_lse_value(R);
}

/* ---- f32 lanes (f32, f16, bf16) ------------------------------------------- */
typedef struct {
    float64x2_t lo, hi; /* s of lanes 0, 1 and 2, 3 */
} axial_lse_s4;

AXIAL_NEON_INLINE axial_lse_s4 lse_s4_zero(void) {
    return (axial_lse_s4){vdupq_n_f64(0), vdupq_n_f64(0)};
}
AXIAL_NEON_INLINE axial_lse_s4 lse_s4_add(axial_lse_s4 a, float32x4_t v) {
    a.lo = vaddq_f64(a.lo, vcvt_f64_f32(vget_low_f32(v)));
    a.hi = vaddq_f64(a.hi, vcvt_high_f64_f32(v));
    return a;
}
/* s *= exp(mo - mn) in the lanes that rose (f64 difference and exp); the
 * others keep s (their exponent is 0 - 0). */
AXIAL_NEON_INLINE axial_lse_s4 lse_s4_rescale(axial_lse_s4 a, float32x4_t mo, float32x4_t mn,
                                              uint32x4_t rose) {
    const float32x4_t z = vdupq_n_f32(0);
    const float32x4_t o = vbslq_f32(rose, mo, z), n = vbslq_f32(rose, mn, z);
    a.lo = vmulq_f64(a.lo, Sleef_expd2_u10advsimd(vsubq_f64(vcvt_f64_f32(vget_low_f32(o)),
                                                            vcvt_f64_f32(vget_low_f32(n)))));
    a.hi = vmulq_f64(a.hi, Sleef_expd2_u10advsimd(vsubq_f64(vcvt_high_f64_f32(o),
                                                            vcvt_high_f64_f32(n))));
    return a;
}
AXIAL_NEON_INLINE void lse_s4_store(double *p, axial_lse_s4 a) {
    vst1q_f64(p, a.lo);
    vst1q_f64(p + 2, a.hi);
}
AXIAL_NEON_INLINE float32x4_t lse_s4_tov(axial_lse_s4 a) {
    return vcvt_high_f32_f64(vcvt_f32_f64(a.lo), a.hi);
}
/* inclusive prefix sum of 4 lanes: [e0, e0+e1, (e0+e1)+e2, (e0+e1)+(e2+e3)] */
AXIAL_NEON_INLINE float32x4_t lse_prefix_f32(float32x4_t e) {
    const float32x4_t z = vdupq_n_f32(0);
    e = vaddq_f32(e, vextq_f32(z, e, 3));
    return vaddq_f32(e, vextq_f32(z, e, 2));
}
AXIAL_NEON_INLINE float32x4_t lse_rev_f32(float32x4_t v) {
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
AXIAL_NEON_INLINE void lse_store1_f16(uint16_t *p, double d) {
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
AXIAL_NEON_INLINE void lse_store1_bf16(uint16_t *p, double d) {
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
AXIAL_NEON_INLINE float64x2_t lse_d2_zero(void) {
    return vdupq_n_f64(0);
}
AXIAL_NEON_INLINE float64x2_t lse_d2_rescale(float64x2_t a, float64x2_t mo, float64x2_t mn,
                                             uint64x2_t rose) {
    const float64x2_t z = vdupq_n_f64(0);
    return vmulq_f64(a, Sleef_expd2_u10advsimd(
                            vsubq_f64(vbslq_f64(rose, mo, z), vbslq_f64(rose, mn, z))));
}
AXIAL_NEON_INLINE float64x2_t lse_prefix_f64(float64x2_t e) {
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
