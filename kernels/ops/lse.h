/* SPDX-License-Identifier: MIT */
/*
 * ops/lse.h: LogCumSumExp and ReduceLogSumExp (kernels.h, "log semiring") for F32, F16, BF16 (f32 lanes:
 * widened exactly, rounded once at the store) and F64, written once over simd/<isa>.h: the whole-shape
 * entries, column tiles, line chunks and streams.  The body is included twice, once per lane type; exp and log
 * are SLEEF's 1-ulp ones. Order (docs/API.md section 15; bits differ between ISAs, never with the thread
 * count): a state (m, s) is m + log s, m a reference, s the sum of exp(term - m) in f64; lane-type sums only
 * within a tree of LSE_RB or LSE_RC terms, a vector's prefix or a block of LSE_SB rows.  Terms may lie up to
 * LSE_LAG above m; one beyond takes m = itself + LSE_LAG (s rescaled in f64). An empty lane has m = -MAX, s =
 * 0.
 *  - Reductions: lanes are a line's vector positions or columns; per block a max, the rescale past m +
 *    LSE_LAG, the exps by a tree into s; a line's lanes merge in a fixed order.  A NaN or +inf makes s NaN,
 *    and only that line or column is rescanned for its special value.
 *  - Scans take every reference from terms at or before the output (the streams).  Lines: chunks of
 *    AXIAL_SCAN_CHUNK from empty states, outputs mixed with the carry R (lse_mix); the first LSE_HEAD terms
 *    term by term (lse_row), then vectors: exps below m, prefixes from the chunk's S, logs (LSE_BLK vectors at
 *    once where none rises); at a lane above m + LSE_LAG m moves, the lanes from it prefixed from the new m
 *    (lse_vec_at); a NaN or +inf hands the chunk's rest to the scalar step.  No choice looks at R.  Columns:
 *    blocks of LSE_SB rows, each exp added to the block's lane-type sum f, outputs m + log(S + f) (S: s in the
 *    lane type); a rise folds f into s (lse_crow); NaN or +inf stay in m for good.
 * Error: an output's s_j lies in [e^-LSE_LAG, n e^LSE_LAG], so a relative error r of s_j is an absolute error
 * r of y: each exp 1 ulp plus the rounding of x - m, the lane-type sums a few u, the mix 2u, the log 2u max(2,
 * ln n), the final rounding half an ulp: below ulp_T(y*) + 4u(|y*| + ln n + 4) with u = 2^-24 for
 * f32/f16/bf16; f64 adds the n additions and rescales of s. Tails: -inf past the end.  In place (y == x): each
 * block loads before it stores.
 */
#ifndef AXIAL_OPS_LSE_H
#define AXIAL_OPS_LSE_H

#include <float.h>
#include <math.h>
#include <string.h>

#include "scalar/convert.h"

#define LSE_RB 16      /* vectors of a line-reduction block: a tree of depth 4 */
#ifndef LSE_RC
#define LSE_RC 8       /* rows of a column-reduction block (a window's block and the next fit L1) */
#endif
#define LSE_BLK 8      /* vectors of a line-scan block */
#define LSE_SB 8       /* rows of a column-scan block */
#define LSE_HEAD (LN > 8 ? LN : 8) /* a line's first terms, term by term (lse_row): whole vectors */
#define LSE_SL (512 / LSE_HEAD) /* lines whose heads go at a time as columns (their stack copy: 512 terms) */
#define LSE_W 2048     /* bytes of lane type of a column window (their states on the stack) */
#define LSE_LAG 2.0    /* a reference's headroom: terms up to it above, a new one so far above its term */
#define LSE_PF_MIN ((size_t)4 << 20) /* column walks over more bytes prefetch the next block */
/* k unknown to the compiler from here: one copy of a rarely hot function for every dtype of a lane type, not
 * one a dtype (AXIAL_NOCLONE: nor for other constants) */
#define LSE_ANY_KIND(k) __asm__("" : "+r"(k))

AXIAL_INLINE double lse_ld1(int k, const void *x, size_t i) {
    const uint16_t *h = (const uint16_t *)x;
    return k == AXK_F64 ? ((const double *)x)[i] : k == AXK_F32 ? (double)((const float *)x)[i]
         : k == AXK_F16 ? axial_f16_to_double(h[i]) : axial_bf16_to_double(h[i]);
}
AXIAL_INLINE void lse_st1(int k, void *y, size_t i, double v) {
    if (k == AXK_F64) ((double *)y)[i] = v;
    else if (k == AXK_F32) ((float *)y)[i] = (float)v;
    else ((uint16_t *)y)[i] = k == AXK_F16 ? axial_double_to_f16(v) : axial_double_to_bf16(v);
}

/* The state of n terms `stride` apart whose vector sum came out NaN: they hold a NaN or a +inf. */
static axial_lse_acc lse_rescan(int k, const void *x, size_t n, size_t stride) {
    for (size_t j = 0; j < n; j++)
        if (isnan(lse_ld1(k, x, j * stride)))
            return (axial_lse_acc){NAN, 1.0};
    return (axial_lse_acc){INFINITY, 1.0};
}

/* A chunk's outputs with the carry R: ref + log(a + b s_j), computed in double once per reference m of the
 * chunk. */
typedef struct { double ref, a, b; } lse_mix;
AXIAL_INLINE lse_mix lse_mix_of(axial_lse_acc R, double m) {
    if (R.m == -INFINITY) /* no carry: a + b s_j is s_j exactly */
        return (lse_mix){m, 0.0, 1.0};
    const double ref = R.m > m ? R.m : m;
    return (lse_mix){ref, R.s * exp(R.m - ref), exp(m - ref)};
}

/* Scan-order terms [t0, t1) of a chunk of n (element j = rev ? n-1-t : t) by the scalar step; outputs (with
 * emit) those of R followed by *st. */
AXIAL_NOCLONE void lse_scan_scalar(int k, const void *x, void *y, size_t n, size_t t0, size_t t1,
                            int excl, int rev, axial_lse_acc *st, axial_lse_acc R, int emit) {
    LSE_ANY_KIND(k);
    for (size_t t = t0; t < t1; t++) {
        const size_t j = rev ? n - 1 - t : t;
        const double v = lse_ld1(k, x, j); /* (before its output: in place) */
        axial_lse_acc o = R;
        if (emit && excl) {
            axial_lse_add(&o, st->m, st->s);
            lse_st1(k, y, j, axial_lse_value(o));
        }
        AXIAL_LSE_STEP(double, exp, st->m, st->s, v);
        if (emit && !excl) {
            axial_lse_add(&o, st->m, st->s);
            lse_st1(k, y, j, axial_lse_value(o));
        }
    }
}

/* Prefetch rows [r, r + rows) of a column walk (from the far end with rev) at element i: rows far apart whose
 * lines the hardware meets out of order. */
AXIAL_INLINE void lse_pf(int k, const void *x, size_t n, size_t r, size_t rows, size_t i,
                         size_t stride, int rev) {
    for (size_t q = r; q < r + rows && q < n; q++)
        __builtin_prefetch(axk_at(k, x, (rev ? n - 1 - q : q) * stride + i), 0, 3);
}

/* ---- the body, once per lane type: its names, for f64 lanes (LSE_D 1), else f32 ----
 * LKX: a memory op (of f32 lanes: by kind); LW: columns of a window; LH: f64 halves of a vector, HALF(v, h)
 * one; TOV(a): an lse_acc in the lane type. */
#define LSE_PICK(d, f) AXIAL_CAT(LSE_PICK_, LSE_D)(d, f)
#define LSE_PICK_0(d, f) f
#define LSE_PICK_1(d, f) d
#define LV LSE_PICK(vd, vf)
#define LMASK LSE_PICK(vd_mask, vf_mask)
#define LE LSE_PICK(double, float)
#define LN LSE_PICK(AX_ND, AX_NF)
#define LMAX LSE_PICK(DBL_MAX, FLT_MAX)
#define LX(op) LSE_PICK(vd_##op, vf_##op)
#define LKX(op, k, ...) LSE_PICK(LSE_KXD, LSE_KXF)(op, k, __VA_ARGS__)
#define LSE_KXD(op, k, ...) vd_##op(__VA_ARGS__)
#define LSE_KXF(op, k, ...) vf_##op(k, __VA_ARGS__)
#define LF(name) LSE_PICK(name##_d, name##_f)
#define LK LSE_PICK(AXK_F64, AXK_F32)
#define LW (LSE_W / sizeof(LE))
#define LH LSE_PICK(1, 2)
#define HALF(v, h) LSE_PICK((v), ((h) ? vd_hi(v) : vd_lo(v)))
#define TOV(a) LSE_PICK((a).h[0], vf_narrow((a).h[0], (a).h[1]))
#define LSE_D 0
#include "ops/lse.h"
#undef LSE_D
#define LSE_D 1
#include "ops/lse.h"
#undef LSE_D

/* The entries of one dtype: key, kind, lane-type suffix (f or d), and the kind the walks take (f16 and bf16:
 * one copy for both, their kind a value: they differ from f32 only in loads and stores). */
AXIAL_INLINE int lse_kind(int k) { LSE_ANY_KIND(k); return k; }
#define AX_LSE_ENTRIES(key, K, P, KS)                                                            \
    void AX_KN(logcumsumexp, key)(const void *x, void *y, size_t outer, size_t n, size_t inner, \
                                  unsigned flags) {                                           \
        lse_scan_##P(KS, x, y, outer, n, inner, inner, flags);                                  \
    }                                                                                          \
    void AX_KN(logcumsumexp_cols, key)(const void *x, void *y, size_t n, size_t ncols,         \
                                       size_t stride, unsigned flags) {                       \
        lse_scan_##P(KS, x, y, 1, n, ncols, stride, flags);                                     \
    }                                                                                          \
    void AX_KN(reduce_lse, key)(const void *x, void *y, size_t outer, size_t n, size_t inner,  \
                                unsigned flags) {                                             \
        (void)flags; /* never streams */                                                       \
        lse_reduce_##P(KS, x, y, NULL, outer, n, inner, inner, NULL);                           \
    }                                                                                          \
    void AX_KN(reduce_lse_acc, key)(const void *x, void *acc, size_t outer, size_t n,          \
                                    size_t inner) {                                           \
        lse_reduce_##P(KS, x, NULL, (axial_lse_acc *)acc, outer, n, inner, inner, NULL);        \
    }                                                                                          \
    void AX_KN(reduce_lse_cols, key)(const void *x, void *y, size_t n, size_t ncols,           \
                                     size_t stride) {                                         \
        lse_reduce_##P(KS, x, y, NULL, 1, n, ncols, stride, NULL);                              \
    }                                                                                          \
    void AX_KN(reduce_lse_run, key)(const void *x, double *ls, axial_lse_acc *acc, size_t n,   \
                                    size_t ncols, size_t stride) {                            \
        lse_reduce_##P(KS, x, NULL, acc, 1, n, ncols, stride, ls);                              \
    }                                                                                          \
    axial_lse_acc AX_KN(logcumsumexp_seg, key)(const void *x, void *y, size_t len,             \
                                               unsigned flags, axial_lse_acc carry) {         \
        axial_lse_line st = {carry, -(K == AXK_F64 ? DBL_MAX : FLT_MAX), 0, {0}};               \
        return lse_run_##P(KS, x, y, len, flags, &st,                                          \
                           flags & AXIAL_SCAN_CONTINUE ? AXIAL_SCAN_CHUNK : 0);               \
    }                                                                                          \
    axial_lse_acc AX_KN(lse_scan_total, key)(const void *x, size_t len, unsigned flags) {     \
        return AX_KN(logcumsumexp_seg, key)(x, NULL, len, flags, AXIAL_LSE_EMPTY);             \
    }                                                                                          \
    void AX_KN(logcumsumexp_run, key)(const void *x, void *y, size_t len, unsigned flags,      \
                                      axial_lse_line *st, uint64_t pos) {                     \
        lse_run_##P(KS, x, y, len, flags, st, pos);                                            \
    }                                                                                          \
    void AX_KN(logcumsumexp_cols_run, key)(const void *x, void *y, size_t n, size_t ncols,     \
                                           unsigned flags, double *ls, uint64_t pos) {        \
        lse_scols_##P(KS, x, y, n, ncols, ncols, (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0,         \
                      (flags & AXIAL_CUMSUM_REVERSE) != 0, ls, pos);                          \
    }
AX_LSE_ENTRIES(f32, AXK_F32, f, AXK_F32)
AX_LSE_ENTRIES(f16, AXK_F16, f, lse_kind(AXK_F16))
AX_LSE_ENTRIES(bf16, AXK_BF16, f, lse_kind(AXK_BF16))
AX_LSE_ENTRIES(f64, AXK_F64, d, AXK_F64)

#elif defined(LSE_D) /* the body */

/* s of the lanes of one vector, in f64 */
typedef struct {
    vd h[LH];
} LF(lse_acc);

AXIAL_INLINE LV LF(lse_ld)(int k, const void *p) { return (void)k, LKX(ld, k, p); }
AXIAL_INLINE void LF(lse_st)(int k, void *p, LV v) { (void)k, LKX(st, k, p, v); }
/* cnt <= LN elements, -inf past them */
AXIAL_INLINE LV LF(lse_ldc)(int k, const void *p, size_t cnt) {
    return cnt == LN ? LF(lse_ld)(k, p) : LKX(ld_part, k, p, cnt, -INFINITY);
}
AXIAL_INLINE void LF(lse_stc)(int k, void *p, LV v, size_t cnt) {
    cnt == LN ? LF(lse_st)(k, p, v) : LKX(st_part, k, p, v, cnt);
}
AXIAL_INLINE void LF(lse_acc_add)(LF(lse_acc) *a, LV e) {
    for (int h = 0; h < LH; h++)
        a->h[h] = vd_add(a->h[h], HALF(e, h));
}
/* s *= exp(mo - mn) per lane (1 where mo == mn; 0 for an empty lane), whose factor is in [0, 1]: f32 lanes
 * skip it where no lane has s > 0 (an empty state's first block: s stays 0, or NaN), two f64 exps saved
 * (ReduceLogSumExp f32 rows of 3 to 8 0.67-0.80x the time; f64 lanes, one exp, gain on AVX-512 and rows of 5+,
 * but AVX2 rows of 2-3 take 1.1-1.2x: timed) */
AXIAL_INLINE void LF(lse_acc_rescale)(LF(lse_acc) *a, LV mo, LV mn) {
    int any = LH == 1;
    for (int h = 0; !any && h < LH; h++)
        any = vd_any(vd_gt(a->h[h], vd_set1(0)));
    for (int h = 0; any && h < LH; h++)
        a->h[h] = vd_mul(a->h[h], vd_exp(vd_sub(HALF(mo, h), HALF(mn, h))));
}

/* ---- ReduceLogSumExp ------------------------------------------------------ */

/* ng empty lane states */
AXIAL_INLINE void LF(lse_empty)(LV *m, LF(lse_acc) *s, size_t ng) {
    for (size_t g = 0; g < ng; g++) {
        m[g] = LX(set1)(-LMAX);
        for (int h = 0; h < LH; h++)
            s[g].h[h] = vd_set1(0);
    }
}

/* Rows [0, nr) (nr <= rb, a constant power of 2) at p, `rs` bytes apart, cnt lanes each, into the lane states
 * (m, s). */
AXIAL_INLINE void LF(lse_red_block)(int k, const char *p, size_t rs, size_t nr, size_t cnt,
                                    int rb, LV *m, LF(lse_acc) *s) {
    const LV ninf = LX(set1)(-INFINITY);
    LV b[4] = {ninf, ninf, ninf, ninf};
    for (size_t r = 0; r < nr; r++) /* four max chains */
        b[r & 3] = LX(max)(b[r & 3], LF(lse_ldc)(k, p + r * rs, cnt));
    const LV mx = LX(max)(LX(max)(b[0], b[1]), LX(max)(b[2], b[3]));
    const LMASK up = LX(gt)(mx, LX(add)(*m, LX(set1)(LSE_LAG)));
    if (LX(any)(up)) { /* (+inf: m = +inf, and s turns NaN below) */
        const LV nm = LX(sel)(up, LX(add)(mx, LX(set1)(LSE_LAG)), *m);
        LF(lse_acc_rescale)(s, *m, nm);
        *m = nm;
    }
    LV e[LSE_RB];
    for (size_t r = 0; r < nr; r++)
        e[r] = LX(exp)(LX(sub)(LF(lse_ldc)(k, p + r * rs, cnt), *m));
    for (size_t r = nr; r < (size_t)rb; r++)
        e[r] = LX(set1)(0);
    for (int w = rb / 2; w > 0; w /= 2)
        for (int r = 0; r < w; r++)
            e[r] = LX(add)(e[r], e[r + w]);
    LF(lse_acc_add)(s, e[0]);
}

/* ng lane states from a stream's ls (kernels.h, reduce_lse_run: m at ls[i], s at ls[C + i]) into m, s, or
 * (out) back. */
AXIAL_NOINLINE void LF(lse_lanes)(double *ls, LV *m, LF(lse_acc) *s, size_t ng, size_t C, int out) {
    for (size_t g = 0; g < ng; g++) {
        LF(lse_acc) t;
        for (int h = 0; h < LH; h++) {
            double *p = ls + g * LN + h * AX_ND;
            out ? (vd_st(p, HALF(m[g], h)), vd_st(p + C, s[g].h[h]))
                : (void)(t.h[h] = vd_ld(p), s[g].h[h] = vd_ld(p + C));
        }
        if (!out)
            m[g] = TOV(t);
    }
}

/* The state of a line of n terms: lanes are positions j mod LN, from a stream's lanes ls (else empty); without
 * fin only whole blocks, back to ls. */
static axial_lse_acc LF(lse_line)(int k, const char *x, size_t n, double *ls, int fin) {
    const size_t es = axk_size(k), full = n / LN;
    LV m;
    LF(lse_acc) s;
    ls ? LF(lse_lanes)(ls, &m, &s, 1, 16, 0) : LF(lse_empty)(&m, &s, 1);
    size_t r = 0;
    for (; r + LSE_RB <= full; r += LSE_RB) /* (whole blocks: a constant row count) */
        LF(lse_red_block)(k, x + r * LN * es, LN * es, LSE_RB, LN, LSE_RB, &m, &s);
    if (!fin)
        return LF(lse_lanes)(ls, &m, &s, 1, 16, 1), AXIAL_LSE_EMPTY;
    if (r < full)
        LF(lse_red_block)(k, x + r * LN * es, LN * es, full - r, LN, LSE_RB, &m, &s);
    if (n % LN)
        LF(lse_red_block)(k, x + full * LN * es, 0, 1, n % LN, LSE_RB, &m, &s);
    /* M = the largest m of a non-empty lane; S = sum of s_l exp(m_l - M) */
    vd mm = vd_set1(-INFINITY), tot = vd_set1(0);
    for (int h = 0; h < LH; h++) {
        mm = vd_max(mm, vd_sel(vd_gt(s.h[h], vd_set1(0)), HALF(m, h), vd_set1(-INFINITY)));
        tot = vd_add(tot, s.h[h]);
    }
    if (isnan(vd_hsum(tot))) /* (a stream flags a NaN seen in ls[0]) */
        return ls ? (axial_lse_acc){isnan(ls[0]) ? NAN : INFINITY, 1.0} : lse_rescan(k, x, n, 1);
    const double M = vd_hmax(mm);
    if (M == -INFINITY)
        return AXIAL_LSE_EMPTY;
    vd S = vd_set1(0);
    for (int h = 0; h < LH; h++)
        S = vd_add(S, vd_mul(s.h[h], vd_exp(vd_sub(HALF(m, h), vd_set1(M)))));
    return (axial_lse_acc){M, vd_hsum(S)};
}

/* Columns [0, ncols) of an (n, stride) matrix: windows of LW columns, each walked in blocks of LSE_RC rows
 * across its width (lanes: columns) from a stream's lanes ls (else empty); acc == NULL: y[c] = the value, else
 * acc[c] (+)= the state; neither: the lanes back to ls. */
static void LF(lse_red_cols)(int k, const char *x, void *y, axial_lse_acc *acc, size_t n,
                             size_t ncols, size_t stride, double *ls) {
    const size_t es = axk_size(k), C = (ncols + 15) & ~(size_t)15;
    const int pf = n * stride * es > LSE_PF_MIN;
    for (size_t c0 = 0; c0 < ncols; c0 += LW) {
        const size_t cw = ncols - c0 < LW ? ncols - c0 : LW, ng = (cw + LN - 1) / LN;
        LV m[LW / LN];
        LF(lse_acc) s[LW / LN];
        ls ? LF(lse_lanes)(ls + c0, m, s, ng, C, 0) : LF(lse_empty)(m, s, ng);
        for (size_t r = 0; r < n; r += LSE_RC) {
            const size_t nr = n - r < LSE_RC ? n - r : LSE_RC;
            for (size_t g = 0; g < ng; g++) {
                const size_t cnt = cw - g * LN < LN ? cw - g * LN : LN;
                const char *p = x + (r * stride + c0 + g * LN) * es;
                const int part = nr < LSE_RC || cnt < LN;
                LV t[LSE_RC]; /* a partial block, -inf past its rows and lanes (exp: +0) */
                for (size_t q = 0; part && q < LSE_RC; q++)
                    t[q] = q < nr ? LF(lse_ldc)(k, p + q * stride * es, cnt) : LX(set1)(-INFINITY);
                if (pf)
                    lse_pf(k, x, n, r + LSE_RC, LSE_RC, c0 + g * LN, stride, 0);
                LF(lse_red_block)(part ? LK : k, part ? (char *)t : p,
                                  part ? sizeof(LV) : stride * es, LSE_RC, LN, LSE_RC, &m[g], &s[g]);
            }
        }
        if (!y && !acc) {
            LF(lse_lanes)(ls + c0, m, s, ng, C, 1);
            continue;
        }
        for (size_t g = 0; g < ng; g++) {
            double ms[2 * LN], *ss = ms + LN;
            LF(lse_lanes)(ms, &m[g], &s[g], 1, LN, 1);
            /* an output is its state's value as reduce_lse_finish gives it (libm's log in double), so that a
             * call gives the bits of its shards' states merged and finished */
            for (size_t l = 0; l < LN && g * LN + l < cw; l++) {
                const size_t c = c0 + g * LN + l;
                axial_lse_acc st = {ms[l], ss[l]};
                if (isnan(ss[l]))
                    st = ls ? (axial_lse_acc){isnan(ls[c]) ? NAN : INFINITY, 1.0}
                            : lse_rescan(k, x + c * es, n, stride);
                else if (!(ss[l] > 0))
                    st.m = -INFINITY; /* empty: only -inf terms */
                if (acc)
                    axial_lse_add(&acc[c], st.m, st.s);
                else
                    lse_st1(k, y, c, axial_lse_value(st));
            }
        }
    }
}

/* Columns [0, ncols) of each of the outer (n, stride) blocks (the whole-shape entries: ncols = stride = inner;
 * a tile: outer = 1); y and acc hold ncols outputs per block.  stride 1 is a line. */
static void LF(lse_reduce)(int k, const void *x, void *y, axial_lse_acc *acc, size_t outer,
                           size_t n, size_t ncols, size_t stride, double *ls) {
    __asm__("" : "+r"(ls)); /* (one copy of the walks for calls and streams: no clone for NULL) */
    for (size_t o = 0; o < outer; o++) {
        const char *xo = axk_at(k, x, o * n * stride);
        if (stride > 1) {
            LF(lse_red_cols)(k, xo, y ? axk_at_mut(k, y, o * ncols) : NULL,
                             acc ? acc + o * ncols : NULL, n, ncols, stride, ls);
            continue;
        }
        const axial_lse_acc st = LF(lse_line)(k, xo, n, ls, y || acc);
        if (acc)
            axial_lse_add(&acc[o], st.m, st.s);
        else if (y)
            lse_st1(k, y, o, axial_lse_value(st));
    }
}

/* m + log r, or m where m is NaN or +inf */
AXIAL_INLINE LV LF(lse_out)(LV m, LV r) { return LX(sel)(LX(bad)(m), m, LX(add)(m, LX(log)(r))); }

/* One term of each lane into (m, s), its output to y: one exp, of v below the running max (s += e) or of the
 * old max below a new one (s = s e + 1). */
AXIAL_INLINE void LF(lse_row)(int k, void *y, LV v, size_t cnt, int excl, LV *m, LF(lse_acc) *s) {
    if (excl)
        LF(lse_stc)(k, y, LF(lse_out)(*m, TOV(*s)), cnt);
    const LMASK up = LX(gt)(v, *m);
    const LV nm = LX(maxn)(v, *m), one = LX(set1)(1);
    const LV e = LX(exp)(LX(sel)(up, LX(sub)(*m, v), LX(sub)(v, *m)));
    const LV a = LX(sel)(up, e, one), b = LX(sel)(up, one, e);
    for (int h = 0; h < LH; h++)
        s->h[h] = vd_add(vd_mul(s->h[h], HALF(a, h)), HALF(b, h));
    *m = nm;
    if (!excl)
        LF(lse_stc)(k, y, LF(lse_out)(nm, TOV(*s)), cnt);
}

/* ---- LogCumSumExp along a line -------------------------------------------- */

/* The chunk's state: reference m (-MAX while empty), S (0 while empty). */
typedef struct {
    LE m;
    double S;
    lse_mix mx;
} LF(lse_cs);

AXIAL_INLINE axial_lse_acc LF(lse_canon)(const LF(lse_cs) *c) {
    return c->S == 0 ? AXIAL_LSE_EMPTY : (axial_lse_acc){(double)c->m, c->S};
}
/* a + b s_j of a vector's prefix p (excl: shifted), from S (not added); the outputs are ref + log of it
 * (lse_o). */
AXIAL_INLINE LV LF(lse_r)(const LF(lse_cs) *c, LV p, int excl) {
    const LV sj = LX(add)(LX(set1)((LE)c->S), excl ? LX(up1)(p) : p);
    return LX(add)(LX(set1)((LE)c->mx.a), LX(mul)(LX(set1)((LE)c->mx.b), sj));
}
AXIAL_INLINE LV LF(lse_o)(const LF(lse_cs) *c, LV r) { return LX(add)(LX(set1)((LE)c->mx.ref), LX(log)(r)); }

/* lanes [lo, LN) */
AXIAL_INLINE LMASK LF(lse_ge)(size_t lo) {
    static const LE iota[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    return LX(gt)(LKX(ld, LK, iota), LX(set1)((LE)lo - (LE)0.5));
}

/* Scan-order terms [t, t + LN) of a chunk of n (fewer at the end: -inf past them).  At each lane above m +
 * LSE_LAG, m = that term + LSE_LAG (S rescaled in double), so an output depends on no later term: one exp
 * (each lane below its m), a prefix per m from its S (the other lanes 0: the bits of a vector per m), one log.
 * At a NaN or +inf term the scalar step takes the rest of the chunk (returns 1). */
AXIAL_NOCLONE int LF(lse_vec_at)(int k, const char *x, char *y, size_t n, size_t t, int excl, int rev,
                           LF(lse_cs) *c, axial_lse_acc R, int emit) {
    LSE_ANY_KIND(k);
    const size_t es = axk_size(k), cnt = n - t < LN ? n - t : LN, at = rev ? n - t - cnt : t;
    _Alignas(64) LE a[LN], p[LN];
    _Alignas(64) unsigned char buf[AX_VB] = {0};
    for (size_t l = 0; cnt < LN && rev && l < LN; l++) /* (a partial vector backwards) */
        a[l] = l < cnt ? (LE)lse_ld1(k, x, n - 1 - t - l) : (LE)-INFINITY;
    LV v = cnt < LN && rev ? LKX(ld, LK, a) : LF(lse_ldc)(k, x + at * es, cnt), mv = LX(set1)(c->m);
    v = rev && cnt == LN ? LX(rev)(v) : v;
    LKX(st, LK, a, v);
    const int look = LX(any)(LX(bad)(v)) || LX(any)(LX(gt)(v, LX(set1)(c->m + (LE)LSE_LAG)));
    size_t up[LN + 1], nu = 0, j = look ? 0 : LN; /* the lanes that rise, then j: LN or a NaN or +inf's */
    for (LE m = c->m; j < LN && a[j] < INFINITY; j++)
        if (a[j] > m + (LE)LSE_LAG)
            up[nu++] = j, m = a[j] + (LE)LSE_LAG, mv = LX(sel)(LF(lse_ge)(j), LX(set1)(m), mv);
    up[nu] = j;
    const LV e = LX(exp)(LX(sub)(v, mv));
    LV r = e, ref = e;
    for (size_t i = 0;; i++) { /* the lanes of each m: prefixes from j0, outputs from w */
        const size_t j0 = i ? up[i - 1] : 0, w = i ? j0 + (size_t)excl : 0;
        const LV pv = LX(scan)(LX(sel)(LF(lse_ge)(j0), e, LX(set1)(0)));
        r = LX(sel)(LF(lse_ge)(w), LF(lse_r)(c, pv, excl), r);
        ref = LX(sel)(LF(lse_ge)(w), LX(set1)((LE)c->mx.ref), ref);
        c->S += up[i] == LN ? (double)LX(last)(pv)
                : up[i] > j0 ? (LKX(st, LK, p, pv), (double)p[up[i] - 1]) : 0.0;
        if (i == nu)
            break;
        const LE nm = a[up[i]] + (LE)LSE_LAG;
        c->S *= exp((double)c->m - (double)nm);
        c->m = nm;
        c->mx = lse_mix_of(R, (double)nm);
    }
    const LV u = LX(add)(ref, LX(log)(r));
    if (emit && j == LN && (cnt == LN || !rev)) { /* the outputs of lanes [0, j) */
        LF(lse_stc)(k, y + at * es, rev ? LX(rev)(u) : u, cnt);
    } else if (emit) {
        LF(lse_st)(k, buf, u);
        for (size_t l = 0; l < j && l < cnt; l++)
            axk_copy(y + (rev ? n - 1 - t - l : t + l) * es, buf + l * es, 1, es);
    }
    if (j == LN)
        return 0;
    axial_lse_acc st = LF(lse_canon)(c);
    lse_scan_scalar(k, x, y, n, t + j, n, excl, rev, &st, R, emit);
    c->m = (LE)st.m, c->S = st.s;
    return 1;
}

/* nq terms of cnt lines (lanes) into (m, s) by lse_row, term q at xp + q rs, its outputs at yp + q rs (yp
 * NULL: none). */
AXIAL_NOINLINE void LF(lse_hrows)(int k, const char *xp, char *yp, ptrdiff_t rs, size_t nq,
                                  size_t cnt, int excl, LV *m, LF(lse_acc) *s) {
    char d[8];
    for (size_t q = 0; q < nq; q++)
        LF(lse_row)(k, yp ? yp + (ptrdiff_t)q * rs : d, LF(lse_ldc)(k, xp + (ptrdiff_t)q * rs, cnt),
                    cnt, excl, m, s);
}

/* Scan-order terms [q0, q1) of a line's first LSE_HEAD (of n at x), term by term as lse_scan takes the heads
 * of many lines (lane 0), from c and back. */
static void LF(lse_head)(int k, const char *x, char *y, size_t n, size_t q0, size_t q1,
                         int excl, int rev, LF(lse_cs) *c, int emit) {
    const size_t es = axk_size(k), j0 = rev ? n - 1 - q0 : q0;
    LV m = LX(set1)(c->m);
    LF(lse_acc) s;
    for (int h = 0; h < LH; h++)
        s.h[h] = vd_set1(c->S);
    LF(lse_hrows)(k, x + j0 * es, emit ? y + j0 * es : NULL, rev ? -(ptrdiff_t)es : (ptrdiff_t)es,
                  q1 - q0, 1, excl, &m, &s);
    c->m = LX(first)(m);
    c->S = c->m < INFINITY ? vd_first(s.h[0]) : 1.0;
    c->mx = lse_mix_of(AXIAL_LSE_EMPTY, (double)c->m);
}

/* nb <= LSE_BLK whole vectors at scan position t of a chunk of n as one block where none rises above m +
 * LSE_LAG and none is NaN or +inf (returns 1; else 0, *g those before the first that does): all exps,
 * prefixes, logs (SLEEF overlaps). */
AXIAL_INLINE int LF(lse_blk)(int k, const char *x, char *y, size_t n, size_t t, size_t nb,
                            int excl, int rev, LF(lse_cs) *c, int emit, size_t *g) {
    const size_t es = axk_size(k);
    LV v[LSE_BLK], e[LSE_BLK], b = LX(set1)(-INFINITY);
    int bad = 0;
    for (size_t q = 0; q < nb; q++) {
        LV u = LF(lse_ld)(k, x + (rev ? n - t - (q + 1) * LN : t + q * LN) * es);
        v[q] = rev ? LX(rev)(u) : u;
        bad |= LX(any)(LX(bad)(v[q]));
        b = LX(max)(b, v[q]);
    }
    const LV thr = LX(set1)(c->m + (LE)LSE_LAG);
    for (*g = 0; (bad || LX(any)(LX(gt)(b, thr))) && *g < nb; ++*g) /* (only where one would not do) */
        if (LX(any)(LX(bad)(v[*g])) || LX(any)(LX(gt)(v[*g], thr)))
            return 0;
    for (size_t q = 0; q < nb; q++)
        e[q] = LX(exp)(LX(sub)(v[q], LX(set1)(c->m)));
    for (size_t q = 0; q < nb; q++) {
        const LV p = LX(scan)(e[q]);
        e[q] = LF(lse_r)(c, p, excl);
        c->S += (double)LX(last)(p);
    }
    for (size_t q = 0; emit && q < nb; q++) {
        const LV o = LF(lse_o)(c, e[q]);
        LF(lse_st)(k, y + (rev ? n - t - (q + 1) * LN : t + q * LN) * es, rev ? LX(rev)(o) : o);
    }
    return 1;
}

/* Scan-order terms [t, n) of a chunk of n <= AXIAL_SCAN_CHUNK from (m, S) (terms [0, t): a head's, else t = 0
 * and empty); with emit the outputs are *R's followed by it.  Returns the final state, the same bits with or
 * without emit, whatever *R.  (No struct by value: GCC read one whole from narrower stores, a stall.) */
AXIAL_INLINE axial_lse_acc LF(lse_chunk_in)(int k, const void *xv, void *yv, size_t n, size_t t,
                                            int excl, int rev, const axial_lse_acc *R, LE m,
                                            double S, int emit, int own) {
    const char *x = (const char *)xv;
    char *y = (char *)yv;
    LF(lse_cs) c = {m, S, lse_mix_of(*R, (double)m)};
    if (!(c.m < INFINITY) || (emit && (isnan(R->m) || R->m == INFINITY))) {
        axial_lse_acc st = LF(lse_canon)(&c); /* every output R's, or the scalar step's */
        lse_scan_scalar(k, x, y, n, t, n, excl, rev, &st, *R, emit);
        return st;
    }
    for (size_t lim = LSE_BLK, g = 0; t < n;) { /* lim: the vectors a block may take */
        if (n - t >= LN) { /* up to lim whole vectors as one block; else those before a rise */
            const size_t nb = (n - t) / LN < lim ? (n - t) / LN : lim;
            if (own && nb == LSE_BLK ? LF(lse_blk)(k, x, y, n, t, LSE_BLK, excl, rev, &c, emit, &g)
                                     : LF(lse_blk)(k, x, y, n, t, nb, excl, rev, &c, emit, &g)) {
                t += nb * LN, lim = LSE_BLK;
                continue;
            }
            if ((lim = g) > 0)
                continue;
        }
        if (LF(lse_vec_at)(k, x, y, n, t, excl, rev, &c, *R, emit)) /* a rise, or the end */
            return (axial_lse_acc){(double)c.m, c.S};
        t += LN, lim = LSE_BLK;
    }
    return LF(lse_canon)(&c);
}

/* lse_chunk_in for the lane type's own kind (f32, f64) and for the others (f16 and bf16, their kind a value):
 * two copies of the walk, not three. */
#define LSE_CHUNK_ARGS const void *x, void *y, size_t n, size_t t, int excl, int rev, \
                       const axial_lse_acc *R, LE m, double S, int emit
AXIAL_NOCLONE axial_lse_acc LF(lse_chunk_own)(LSE_CHUNK_ARGS) {
    return LF(lse_chunk_in)(LK, x, y, n, t, excl, rev, R, m, S, emit, 1); /* (blocks unrolled) */
}
AXIAL_NOCLONE axial_lse_acc LF(lse_chunk_any)(int k, LSE_CHUNK_ARGS) {
    return LF(lse_chunk_in)(k, x, y, n, t, excl, rev, R, m, S, emit, 0);
}
AXIAL_INLINE axial_lse_acc LF(lse_chunk)(int k, LSE_CHUNK_ARGS) {
    return LSE_D || k == LK ? LF(lse_chunk_own)(x, y, n, t, excl, rev, R, m, S, emit)
                            : LF(lse_chunk_any)(k, x, y, n, t, excl, rev, R, m, S, emit);
}
#undef LSE_CHUNK_ARGS

/* A line's scan positions [pos, pos + len) in the piece x (REVERSE: from x[len - 1]) into y (NULL: none), from
 * the state st and back (kernels.h, axial_lse_line): the head, whole vectors by the chunk walk, the scalar
 * step where a chunk takes it, a vector begun through lse_vec_at from the state before it (its outputs depend
 * on no later term), its terms kept; each chunk's total into st->R as it ends.  The one line walk of a call
 * (after its head), a segment, a chunk's total and a stream's push. */
AXIAL_NOCLONE axial_lse_acc LF(lse_run)(int k, const char *x, char *y, size_t len, unsigned flags,
                                  axial_lse_line *st, uint64_t pos) {
    const int emit = y != NULL;
    LSE_ANY_KIND(k);
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const int rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    const size_t es = axk_size(k);
    LF(lse_cs) c = {(LE)st->m, st->S, lse_mix_of(st->R, st->m)};
    for (size_t i = 0; i < len;) {
        const size_t q = (size_t)(pos % AXIAL_SCAN_CHUNK), hv = q % LN;
        size_t take = len - i < AXIAL_SCAN_CHUNK - q ? len - i : AXIAL_SCAN_CHUNK - q;
        if (pos < LSE_HEAD) {
            take = take < LSE_HEAD - pos ? take : LSE_HEAD - (size_t)pos;
            LF(lse_head)(k, x, y, len, i, i + take, excl, rev, &c, emit);
        } else if (!(c.m < INFINITY) || isnan(st->R.m) || st->R.m == INFINITY) {
            axial_lse_acc a = LF(lse_canon)(&c); /* the scalar step to the chunk's end */
            lse_scan_scalar(k, x, y, len, i, i + take, excl, rev, &a, st->R, emit);
            c.m = (LE)a.m, c.S = a.s;
        } else if (hv == 0 && take >= LN) {
            take -= take % LN;
            const size_t at = rev ? len - i - take : i; /* (the part's lowest address) */
            char *ya = emit ? y + at * es : NULL;
            const axial_lse_acc T =
                LF(lse_chunk)(k, x + at * es, ya, take, 0, excl, rev, &st->R, c.m, c.S, emit);
            c.m = T.m == -INFINITY ? (LE)-LMAX : (LE)T.m, c.S = T.s;
            c.mx = lse_mix_of(st->R, (double)c.m);
        } else { /* the vector's terms in scan order (a head is whole vectors) */
            take = take < LN - hv ? take : LN - hv;
            _Alignas(64) char b[AX_VB] = {0}, o[AX_VB] = {0};
            memcpy(b, st->held, hv * es);
            for (size_t l = 0; l < take; l++)
                axk_copy(b + (hv + l) * es, x + (rev ? len - 1 - i - l : i + l) * es, 1, es);
            LF(lse_cs) d = c;
            const int sc = LF(lse_vec_at)(k, b, o, hv + take, 0, excl, 0, &d, st->R, 1);
            for (size_t l = 0; emit && l < take; l++)
                axk_copy(y + (rev ? len - 1 - i - l : i + l) * es, o + (hv + l) * es, 1, es);
            if (sc || hv + take == LN)
                c = d;
            else
                memcpy(st->held + hv * es, b + hv * es, take * es);
        }
        if (emit && excl && q == 0) /* (ref + log a would underflow far above R) */
            lse_st1(k, y, rev ? len - 1 - i : i, axial_lse_value(st->R));
        i += take;
        pos += take;
        if (pos % AXIAL_SCAN_CHUNK == 0) { /* the chunk ends: R (+)= its total */
            const axial_lse_acc T = c.m < INFINITY && !(isnan(st->R.m) || st->R.m == INFINITY)
                                        ? LF(lse_canon)(&c) : (axial_lse_acc){(double)c.m, c.S};
            axial_lse_add(&st->R, T.m, T.s);
            c = (LF(lse_cs)){(LE)-LMAX, 0, lse_mix_of(st->R, -LMAX)};
        }
    }
    st->m = (double)c.m;
    st->S = c.S;
    return st->R;
}

/* ---- LogCumSumExp along columns ------------------------------------------- */

/* A group of columns' state (lanes: columns): the reference m, s the f64 sum of the blocks ended (and of a
 * fold), f the block's own running sum in the lane type; its outputs take S, the lane-type s (TOV(s), kept by
 * the block). */
typedef struct {
    LV m;
    LF(lse_acc) s;
    LV f;
} LF(lse_col);

/* One row v of a group into its state, its outputs to y: a lane above m + LSE_LAG folds its f into s and takes
 * m = v + LSE_LAG (s rescaled in f64); a NaN or +inf term makes m NaN or +inf for good.  Where no lane rises,
 * no term is NaN or +inf and m is finite, these are the fast block's bits. */
AXIAL_INLINE void LF(lse_crow)(int k, void *y, LV v, size_t cnt, int excl, LF(lse_col) *c,
                               LV *S) {
    if (excl)
        LF(lse_stc)(k, y, LF(lse_out)(c->m, LX(add)(*S, c->f)), cnt);
    const LMASK up = LX(gt)(v, LX(add)(c->m, LX(set1)((LE)LSE_LAG)));
    if (LX(any)(up)) {
        const LV z = LX(set1)(0), nm = LX(sel)(up, LX(add)(v, LX(set1)((LE)LSE_LAG)), c->m);
        LF(lse_acc_add)(&c->s, LX(sel)(up, c->f, z));
        LF(lse_acc_rescale)(&c->s, c->m, nm);
        c->f = LX(sel)(up, z, c->f);
        *S = TOV(c->s); /* (the lanes without a rise: s * 1 + 0, the same) */
        c->m = nm;
    }
    c->m = LX(sel)(LX(bad)(v), LX(maxn)(v, c->m), c->m);
    c->f = LX(add)(c->f, LX(exp)(LX(sub)(v, c->m)));
    if (!excl)
        LF(lse_stc)(k, y, LF(lse_out)(c->m, LX(add)(*S, c->f)), cnt);
}

/* Rows v[0, nr) of a group, the outputs of row q at yp + q rs. */
AXIAL_NOINLINE void LF(lse_crows)(int k, char *yp, ptrdiff_t rs, const LV *v, size_t nr,
                                  size_t cnt, int excl, LF(lse_col) *c, LV *S) {
    LSE_ANY_KIND(k);
    for (size_t q = 0; q < nr; q++)
        LF(lse_crow)(k, yp + (ptrdiff_t)q * rs, v[q], cnt, excl, c, S);
}

/* Rows [t, t + nr) in scan order of one group of cnt columns at x + i, rows `stride` elements apart, within
 * one block of LSE_SB rows (b0: the row begins one; the block ends after them where be).  A whole block
 * without a rise above m + LSE_LAG, a NaN or +inf (in m or a term) goes as one: all exps, the running sums,
 * all logs; else row by row (lse_crow). */
static void LF(lse_cblock)(int k, const void *x, void *y, size_t n, size_t t, size_t nr,
                           size_t i, size_t stride, size_t cnt, int excl, int rev, int b0,
                           int be, LF(lse_col) *c) {
    const size_t es = axk_size(k);
    const ptrdiff_t rs = (ptrdiff_t)(stride * es) * (rev ? -1 : 1); /* a row, in scan order */
    const char *xp = (const char *)x + ((rev ? n - 1 - t : t) * stride + i) * es;
    char *yp = (char *)y + (xp - (const char *)x);
    LV v[LSE_SB], b = LX(set1)(-INFINITY), sum = c->m, S = TOV(c->s);
    for (size_t q = 0; q < nr; q++) {
        v[q] = LF(lse_ldc)(k, xp + (ptrdiff_t)q * rs, cnt);
        sum = LX(add)(sum, v[q]); /* NaN or +inf if a term or m is (or if it overflows) */
        b = LX(max)(b, v[q]);
    }
    if (b0 && nr == LSE_SB && !LX(any)(LX(bad)(sum)) &&
        !LX(any)(LX(gt)(b, LX(add)(c->m, LX(set1)((LE)LSE_LAG))))) {
        LV e[LSE_SB], f = c->f;
        for (size_t q = 0; q < LSE_SB; q++)
            e[q] = LX(exp)(LX(sub)(v[q], c->m));
        for (size_t q = 0; q < LSE_SB; q++) {
            const LV g = LX(add)(f, e[q]);
            e[q] = LX(add)(S, excl ? f : g);
            f = g;
        }
        for (size_t q = 0; q < LSE_SB; q++)
            LF(lse_stc)(k, yp + (ptrdiff_t)q * rs, LX(add)(c->m, LX(log)(e[q])), cnt);
        c->f = f;
    } else {
        LF(lse_crows)(k, yp, rs, v, nr, cnt, excl, c, &S);
    }
    if (be) { /* the block ends: s (+)= f, the next block from it */
        LF(lse_acc_add)(&c->s, c->f);
        c->f = LX(set1)(0);
    }
}

/* Rows [0, n) of columns [0, ncols) of an (n, stride) block, the rows being a stream's from scan position pos
 * (the one call: 0), from the columns' states: ls NULL, empty; else a stream's (kernels.h,
 * logcumsumexp_cols_run), and back to it. */
static void LF(lse_scols)(int k, const void *x, void *y, size_t n, size_t ncols, size_t stride,
                          int excl, int rev, double *ls, uint64_t pos) {
    const size_t es = axk_size(k), C = (ncols + 15) & ~(size_t)15;
    const int pf = n * stride * es > LSE_PF_MIN;
    for (size_t c0 = 0; c0 < ncols; c0 += LW) {
        const size_t cw = ncols - c0 < LW ? ncols - c0 : LW, ng = (cw + LN - 1) / LN;
        LF(lse_col) c[LW / LN];
        for (size_t g = 0; g < ng; g++) {
            LF(lse_acc) t; /* (S: TOV(s), not read) */
            if (ls) {
                LF(lse_lanes)(ls + c0 + g * LN, &c[g].m, &c[g].s, 1, C, 0);
                LF(lse_lanes)(ls + 2 * C + c0 + g * LN, &c[g].f, &t, 1, C, 0);
            } else {
                LF(lse_empty)(&c[g].m, &c[g].s, 1);
                c[g].f = LX(set1)(0);
            }
        }
        for (size_t t = 0, nr; t < n; t += nr) {
            const size_t in = (size_t)((pos + t) % LSE_SB), left = n - t;
            nr = LSE_SB - in < left ? LSE_SB - in : left;
            for (size_t g = 0; g < ng; g++) {
                const size_t i = c0 + g * LN, cnt = cw - g * LN < LN ? cw - g * LN : LN;
                if (pf) {
                    lse_pf(k, x, n, t + LSE_SB, LSE_SB, i, stride, rev);
                    if (y != x)
                        lse_pf(k, y, n, t + LSE_SB, LSE_SB, i, stride, rev);
                }
                LF(lse_cblock)(k, x, y, n, t, nr, i, stride, cnt, excl, rev, in == 0,
                               in + nr == LSE_SB, &c[g]);
            }
        }
        for (size_t g = 0; ls && g < ng; g++) {
            LF(lse_acc) t;
            for (int h = 0; h < LH; h++)
                t.h[h] = HALF(TOV(c[g].s), h);
            LF(lse_lanes)(ls + c0 + g * LN, &c[g].m, &c[g].s, 1, C, 1);
            LF(lse_lanes)(ls + 2 * C + c0 + g * LN, &c[g].f, &t, 1, C, 1);
        }
    }
}

/* Columns [0, ncols) of each of the outer (n, stride) blocks, y laid out as x; stride 1 is a line (its chunks
 * from an empty carry).  Lines shorter than a column block go LSE_SL at a time as the columns of a stack copy,
 * term by term (lse_row), each lane on its own: a line's bits are its own. */
static void LF(lse_scan)(int k, const void *x, void *y, size_t outer, size_t n, size_t ncols,
                         size_t stride, unsigned flags) {
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const int rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    const size_t es = LSE_D ? 8 : k == AXK_F32 ? 4 : 2; /* (axk_size, bounded for the compiler) */
    if (stride == 1) { /* lines: their heads LSE_SL at a time, then each its own way */
        const size_t h = n < LSE_HEAD ? n : LSE_HEAD, b = rev ? n - h : 0;
        _Alignas(64) char t[LSE_HEAD * LSE_SL * sizeof(LE)];
        _Alignas(64) LE hm[LSE_SL];
        _Alignas(64) double hs[LSE_SL];
        memset(t, 0, h * LSE_SL * es); /* (the lanes past the lines: read, not used) */
        for (size_t o = 0; o < outer; o += LSE_SL) {
            const size_t cw = outer - o < LSE_SL ? outer - o : LSE_SL;
            for (size_t l = 0; l < cw; l++)
                axk_copy_s(t + l * es, LSE_SL * es, (const char *)x + ((o + l) * n + b) * es, es, h, es);
            for (size_t g = 0; g < cw; g += LN) {
                const size_t cnt = cw - g < LN ? cw - g : LN;
                const ptrdiff_t rs = (ptrdiff_t)(LSE_SL * es);
                char *r = t + ((rev ? h - 1 : 0) * LSE_SL + g) * es;
                LV m;
                LF(lse_acc) s;
                LF(lse_empty)(&m, &s, 1);
                LF(lse_hrows)(k, r, r, rev ? -rs : rs, h, cnt, excl, &m, &s);
                LKX(st, LK, hm + g, m);
                for (int hh = 0; hh < LH; hh++)
                    vd_st(hs + g + hh * AX_ND, s.h[hh]);
            }
            for (size_t l = 0; l < cw; l++)
                axk_copy_s((char *)y + ((o + l) * n + b) * es, es, t + l * es, LSE_SL * es, h, es);
            for (size_t l = 0; l < cw && n > h; l++) { /* the rest from the head's state */
                axial_lse_line st = {AXIAL_LSE_EMPTY, hm[l], hm[l] < INFINITY ? hs[l] : 1.0, {0}};
                const size_t at = (o + l) * n + (rev ? 0 : h);
                if (n <= AXIAL_SCAN_CHUNK) /* (one chunk: its walk alone) */
                    LF(lse_chunk)(k, axk_at(k, x, (o + l) * n), axk_at_mut(k, y, (o + l) * n), n,
                                  h, excl, rev, &st.R, hm[l], st.S, 1);
                else
                    LF(lse_run)(k, axk_at(k, x, at), axk_at_mut(k, y, at), n - h, flags, &st, h);
            }
        }
        return;
    }
    for (size_t o = 0; o < outer; o++)
        LF(lse_scols)(k, axk_at(k, x, o * n * stride), axk_at_mut(k, y, o * n * stride), n, ncols,
                      stride, excl, rev, NULL, 0);
}

#endif /* AXIAL_OPS_LSE_H / the body */
