/* SPDX-License-Identifier: MIT */
/*
 * ops/lse.h: LogCumSumExp and ReduceLogSumExp (kernels.h, "log semiring")
 * for F32, F16, BF16 (f32 lanes: widened exactly, rounded once at the
 * store) and F64 (f64 lanes), written once over the vocabulary of
 * simd/<isa>.h: logcumsumexp, reduce_lse, reduce_lse_acc, the column tiles
 * logcumsumexp_cols and reduce_lse_cols, the line chunks logcumsumexp_seg and
 * lse_scan_total, and reduce_lse_run (streams: the reductions' lane states).
 * The body below is included twice, once per lane type (L* names: f32 lanes
 * vf_*, f64 lanes vd_*); exp and log are SLEEF's 1-ulp vector functions.
 *
 * Order (outside the one summation order: docs/API.md section 15; the bits
 * differ between ISAs, never with the thread count): a state (m, s) has the
 * value m + log s, m a reference (a term, or a term + LSE_LAG), s the sum of
 * exp(term - m) in f64; exps are summed in the lane type only in trees of
 * LSE_RB or LSE_RC terms (reductions) or in-register prefixes of one vector and runs
 * of LSE_SB rows (scans).  An empty lane has m = -MAX and s = 0, so that
 * -inf - -inf never happens.
 *  - Reductions: lanes are positions of a line (vectors in a row) or
 *    columns; per block (LSE_RB vectors of a line, LSE_RC rows) a max, then, where it exceeds m by
 *    more than LSE_LAG, m = max + LSE_LAG and s *= exp(m_old - m) in f64 (so
 *    a slow ramp rescales rarely), then the block's exps by a tree into s.
 *    A line's lanes merge in a fixed order (vd_hsum).  A NaN or +inf term
 *    makes s NaN (exp(NaN), exp(inf - inf)), and only such a line or column
 *    is rescanned for its special value.
 *  - Line scans: chunks of AXIAL_SCAN_CHUNK (kernels.h), each from its own
 *    empty state, outputs mixed with the carry R of the earlier chunks:
 *    ref + log(a + b s_j) (lse_mix; a = 0, b = 1 without a carry: the same
 *    bits as m + log s_j).  Blocks of LSE_BLK vectors take the block max B
 *    as reference when every output's own largest term lies within
 *    LSE_RISE of it (the first output's suffices: later ones only grow),
 *    then run all exps, then the prefixes (s_j = (lane)S + prefix, S += the
 *    vector's total in f64), then all logs, so that the SLEEF calls overlap.
 *    Other vectors go one at a time with the same rule; in f32 lanes a
 *    rise up to LSE_WIDE takes the vector in f64 (lse_wide); a steeper rise
 *    (f64 lanes: any beyond LSE_RISE), a NaN or +inf term, a NaN or +inf
 *    carry, or an exclusive output with no term of the chunk after its
 *    first vector take the scalar step in double (the oracle's).  None of
 *    these choices looks at R, so a chunk's final state (its total) is the
 *    same with or without outputs.
 *  - Lines of 2..LSE_SB-1 terms: lanes are lines, term by term (lse_row,
 *    lane-type exps); no choice spans lanes, so a line's bits are its own.
 *  - Column scans: lanes are columns; per block of LSE_SB rows in scan
 *    order, lanes whose block max rises (within LSE_RISE of their first
 *    output's largest term) take it as reference at once, then exps, the
 *    running f32 sum after (lane)s, logs, s += the block's sum in f64; other
 *    blocks, and those where m plus the rows' sum is NaN or +inf (a NaN or
 *    +inf term, in this block or before, or an overflow), row by row with a
 *    NaN-keeping max and y = m where m is not finite.
 * Error: every output has s_j >= e^-LSE_RISE (reductions: s >= e^-LSE_LAG)
 * relative to its reference, so a relative error r of s_j is an absolute
 * error r of y: each exp 1 ulp plus the rounding of x - m (on average about
 * (ln n + 2) u over s), the lane-type sums a few u, s_j rounded to the lane
 * type u/2, the mix with a carry 2u, the log 2u max(2, ln n), and the final
 * rounding half an ulp (short lines: up to LSE_SB - 2 lane-type rescales
 * of u each, for the sums' few u): with u = 2^-24 below ulp_T(y*) +
 * 4u(|y*| + ln n + 4) for f32/f16/bf16, and with u = 2^-53 plus the n
 * additions of s for f64.
 * Tails: a partial vector is read and written through masked moves or a
 * small buffer (vf_ld_part, -inf in the lanes past the end: they add nothing
 * and raise no max).  In place (y == x) is safe: every block loads its
 * terms before it stores their outputs.
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
#define LSE_SL 64      /* lines of fewer than LSE_SB terms scanned at a time as columns */
#define LSE_W 2048     /* bytes of lane type of a column window (their states on the stack) */
#define LSE_RISE 2.0   /* the largest rise of a scan reference above an output's own largest term */
#define LSE_WIDE 600.0 /* f32 lanes: the largest such rise of a vector computed in f64 */
#define LSE_LAG 2.0    /* a reduction reference's headroom above its terms */
#define LSE_PF_MIN ((size_t)4 << 20) /* column walks over more bytes prefetch the next block */

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

/* The oracle's step: one term into a canonical state (kernels.h). */
static void lse_step(axial_lse_acc *a, double v) {
    if (isnan(a->m) || v == -INFINITY)
        return;
    if (isnan(v) || v == INFINITY || a->m == -INFINITY) {
        if (a->m != INFINITY || isnan(v))
            a->m = v, a->s = 1;
    } else if (a->m == INFINITY) {
        return;
    } else if (v > a->m) {
        a->s = a->s * exp(a->m - v) + 1;
        a->m = v;
    } else {
        a->s += exp(v - a->m);
    }
}

/* The state of n terms `stride` apart whose vector sum came out NaN: they hold a NaN or a +inf. */
static axial_lse_acc lse_rescan(int k, const void *x, size_t n, size_t stride) {
    for (size_t j = 0; j < n; j++)
        if (isnan(lse_ld1(k, x, j * stride)))
            return (axial_lse_acc){NAN, 1.0};
    return (axial_lse_acc){INFINITY, 1.0};
}

/* A chunk's outputs with the carry R: ref + log(a + b s_j), computed in
 * double once per reference m of the chunk. */
typedef struct {
    double ref, a, b;
} lse_mix;
AXIAL_INLINE lse_mix lse_mix_of(axial_lse_acc R, double m) {
    if (R.m == -INFINITY) /* no carry: a + b s_j is s_j exactly */
        return (lse_mix){m, 0.0, 1.0};
    const double ref = R.m > m ? R.m : m;
    return (lse_mix){ref, R.s * exp(R.m - ref), exp(m - ref)};
}

/* Scan-order terms [t0, t1) of a chunk of n (element j = rev ? n-1-t : t)
 * by the scalar step; outputs (with emit) those of R followed by *st. */
static void lse_scan_scalar(int k, const void *x, void *y, size_t n, size_t t0, size_t t1,
                            int excl, int rev, axial_lse_acc *st, axial_lse_acc R, int emit) {
    for (size_t t = t0; t < t1; t++) {
        const size_t j = rev ? n - 1 - t : t;
        const double v = lse_ld1(k, x, j); /* (before its output: in place) */
        axial_lse_acc o = R;
        if (emit && excl) {
            axial_lse_add(&o, st->m, st->s);
            lse_st1(k, y, j, axial_lse_value(o));
        }
        lse_step(st, v);
        if (emit && !excl) {
            axial_lse_add(&o, st->m, st->s);
            lse_st1(k, y, j, axial_lse_value(o));
        }
    }
}

/* Prefetch rows [r, r + rows) of a column walk (from the far end with rev)
 * at element i: rows far apart whose lines the hardware meets out of order. */
AXIAL_INLINE void lse_pf(int k, const void *x, size_t n, size_t r, size_t rows, size_t i,
                         size_t stride, int rev) {
    for (size_t q = r; q < r + rows && q < n; q++)
        __builtin_prefetch(axk_at(k, x, (rev ? n - 1 - q : q) * stride + i), 0, 3);
}

/* ---- the body, once per lane type ---------------------------------------- */
#define LSE_D 0
#include "ops/lse.h"
#undef LSE_D
#define LSE_D 1
#include "ops/lse.h"
#undef LSE_D

/* The entries of one dtype: key, kind, lane-type suffix (f or d). */
#define AX_LSE_ENTRIES(key, K, P)                                                              \
    void AX_KN(logcumsumexp, key)(const void *x, void *y, size_t outer, size_t n, size_t inner, \
                                  unsigned flags) {                                           \
        lse_scan_##P(K, x, y, outer, n, inner, inner, flags);                                  \
    }                                                                                          \
    void AX_KN(logcumsumexp_cols, key)(const void *x, void *y, size_t n, size_t ncols,         \
                                       size_t stride, unsigned flags) {                       \
        lse_scan_##P(K, x, y, 1, n, ncols, stride, flags);                                     \
    }                                                                                          \
    void AX_KN(reduce_lse, key)(const void *x, void *y, size_t outer, size_t n, size_t inner,  \
                                unsigned flags) {                                             \
        (void)flags; /* never streams */                                                       \
        lse_reduce_##P(K, x, y, NULL, outer, n, inner, inner, NULL);                           \
    }                                                                                          \
    void AX_KN(reduce_lse_acc, key)(const void *x, void *acc, size_t outer, size_t n,          \
                                    size_t inner) {                                           \
        lse_reduce_##P(K, x, NULL, (axial_lse_acc *)acc, outer, n, inner, inner, NULL);        \
    }                                                                                          \
    void AX_KN(reduce_lse_cols, key)(const void *x, void *y, size_t n, size_t ncols,           \
                                     size_t stride) {                                         \
        lse_reduce_##P(K, x, y, NULL, 1, n, ncols, stride, NULL);                              \
    }                                                                                          \
    void AX_KN(reduce_lse_run, key)(const void *x, double *ls, axial_lse_acc *acc, size_t n,   \
                                    size_t ncols, size_t stride) {                            \
        lse_reduce_##P(K, x, NULL, acc, 1, n, ncols, stride, ls);                              \
    }                                                                                          \
    axial_lse_acc AX_KN(logcumsumexp_seg, key)(const void *x, void *y, size_t len,             \
                                               unsigned flags, axial_lse_acc carry) {         \
        return lse_seg_##P(K, x, y, len, flags, carry);                                        \
    }                                                                                          \
    axial_lse_acc AX_KN(lse_scan_total, key)(const void *x, size_t len, unsigned flags) {     \
        return lse_chunk_##P(K, x, NULL, len, (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0,            \
                             (flags & AXIAL_CUMSUM_REVERSE) != 0, AXIAL_LSE_EMPTY, 0);         \
    }
AX_LSE_ENTRIES(f32, AXK_F32, f)
AX_LSE_ENTRIES(f16, AXK_F16, f)
AX_LSE_ENTRIES(bf16, AXK_BF16, f)
AX_LSE_ENTRIES(f64, AXK_F64, d)

#elif defined(LSE_D) /* the body */

#if LSE_D
#define LV vd
#define LMASK vd_mask
#define LE double
#define LN AX_ND
#define LMAX DBL_MAX
#define LX(op) vd_##op
#define LKX(op, k, ...) vd_##op(__VA_ARGS__) /* (memory ops: f32 lanes take the kind) */
#define LF(name) name##_d
#define LW (LSE_W / 8) /* columns of a window */
#define LH 1 /* f64 halves of a vector */
#define HALF(v, h) (v)
#define TOV(a) ((a).h[0])
#else
#define LV vf
#define LMASK vf_mask
#define LE float
#define LN AX_NF
#define LMAX FLT_MAX
#define LX(op) vf_##op
#define LKX(op, k, ...) vf_##op(k, __VA_ARGS__)
#define LF(name) name##_f
#define LW (LSE_W / 4)
#define LH 2
#define HALF(v, h) ((h) ? vd_hi(v) : vd_lo(v))
#define TOV(a) vf_narrow((a).h[0], (a).h[1])
#endif

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
    if (cnt == LN)
        LF(lse_st)(k, p, v);
    else
        LKX(st_part, k, p, v, cnt);
}
AXIAL_INLINE void LF(lse_acc_add)(LF(lse_acc) *a, LV e) {
    for (int h = 0; h < LH; h++)
        a->h[h] = vd_add(a->h[h], HALF(e, h));
}
/* s *= exp(mo - mn) per lane (1 where mo == mn; 0 for an empty lane) */
AXIAL_INLINE void LF(lse_acc_rescale)(LF(lse_acc) *a, LV mo, LV mn) {
    for (int h = 0; h < LH; h++)
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

/* Rows [0, nr) (nr <= rb, a constant power of 2) at p, `rs` bytes apart,
 * cnt lanes each, into the lane states (m, s). */
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

/* ng lane states from a stream's ls (kernels.h, reduce_lse_run: m at ls[i],
 * s at ls[C + i]) into m, s, or (out) back. */
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

/* The state of a line of n terms: lanes are positions j mod LN, from a
 * stream's lanes ls (else empty); without fin only whole blocks, back to ls. */
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

/* Columns [0, ncols) of an (n, stride) matrix: windows of LW columns,
 * each walked in blocks of LSE_RC rows across its width (lanes: columns)
 * from a stream's lanes ls (else empty); acc == NULL: y[c] = the value, else
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
                LF(lse_red_block)(part ? (LSE_D ? AXK_F64 : AXK_F32) : k, part ? (char *)t : p,
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
            /* an output is its state's value as reduce_lse_finish gives it
             * (libm's log in double), so that a call gives the bits of its
             * shards' states merged and finished */
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

/* Columns [0, ncols) of each of the outer (n, stride) blocks (the
 * whole-shape entries: ncols = stride = inner; a tile: outer = 1); y and
 * acc hold ncols outputs per block.  stride 1 is a line. */
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
/* The rise of B above the largest term of the first output whose terms are
 * the state and x0 (excl: the state alone). */
AXIAL_INLINE double LF(lse_rise_of)(const LF(lse_cs) *c, LE B, LE x0, size_t t, int excl) {
    double P = c->m > x0 ? c->m : x0;
    if (excl && c->S == 0)
        P = t > 0 ? -INFINITY : x0; /* outputs with no term of the chunk (not its first) */
    else if (excl)
        P = c->m;
    return (double)B - P;
}
/* B as the reference */
AXIAL_INLINE void LF(lse_take)(LF(lse_cs) *c, LE B, axial_lse_acc R) {
    c->S = c->S == 0 ? 0 : c->S * exp((double)c->m - (double)B);
    c->m = B;
    c->mx = lse_mix_of(R, (double)B);
}
/* Take B as the reference, if every output from the one whose terms are
 * the state and x0 (excl: the state alone) stays within LSE_RISE of it. */
AXIAL_INLINE int LF(lse_rise)(LF(lse_cs) *c, LE B, LE x0, size_t t, int excl, axial_lse_acc R) {
    if (LF(lse_rise_of)(c, B, x0, t, excl) > LSE_RISE)
        return 0;
    LF(lse_take)(c, B, R);
    return 1;
}
/* Outputs of s_j (excl: shifted) from a vector's prefix p; S += its total. */
AXIAL_INLINE LV LF(lse_sj)(LF(lse_cs) *c, LV p, int excl) {
    const LV sj = LX(add)(LX(set1)((LE)c->S), excl ? LX(up1)(p) : p);
    c->S += (double)LX(last)(p);
    return LX(add)(LX(set1)((LE)c->mx.a), LX(mul)(LX(set1)((LE)c->mx.b), sj));
}

#if !LSE_D
/* f32 lanes v whose rise above the first output's largest term lies
 * beyond LSE_RISE (within LSE_WIDE: f64 keeps the relative precision of
 * terms down to e^-LSE_WIDE), B taken as reference: exps, the prefixes (the
 * upper half's from the lower half's total) and logs in f64, each output
 * rounded once; S += the vector's total.  Returns the outputs. */
AXIAL_INLINE vf LF(lse_wide)(int k, LF(lse_cs) *c, vf v, int excl, int emit) {
    const vd m = vd_set1((double)c->m), S = vd_set1(c->S);
    const vd a0 = vd_scan(vd_exp(vd_sub(vd_lo(v), m))), a1 = vd_scan(vd_exp(vd_sub(vd_hi(v), m)));
    const double T0 = vd_last(a0);
    const vd p0 = excl ? vd_up1(a0) : a0, p1 = vd_add(excl ? vd_up1(a1) : a1, vd_set1(T0));
    const vd a = vd_set1(c->mx.a), b = vd_set1(c->mx.b), ref = vd_set1(c->mx.ref);
    c->S += vd_last(a1) + T0;
    if (!emit)
        return v;
    return vf_narrow_for(k, vd_add(ref, vd_log(vd_add(a, vd_mul(b, vd_add(S, p0))))),
                         vd_add(ref, vd_log(vd_add(a, vd_mul(b, vd_add(S, p1))))));
}
#endif

/* Scan-order terms [t, t + LN) (fewer at the end) one vector at a time;
 * returns 1 when the chunk is done (the scalar step took the rest). */
AXIAL_INLINE int LF(lse_vec)(int k, const char *x, char *y, size_t n, size_t t, int excl, int rev,
                             LF(lse_cs) *c, axial_lse_acc R, int emit) {
    const size_t es = axk_size(k), cnt = n - t < LN ? n - t : LN;
    _Alignas(64) unsigned char buf[AX_VB];
    const size_t at = rev ? n - t - cnt : t;
    LV v;
    if (cnt == LN || !rev) {
        v = LF(lse_ldc)(k, x + at * es, cnt);
        v = rev ? LX(rev)(v) : v;
    } else {
        LF(lse_st)(k, buf, LX(set1)(-INFINITY)); /* scan order, -inf after the end */
        for (size_t l = 0; l < cnt; l++)
            axk_copy(buf + l * es, x + (n - 1 - t - l) * es, 1, es);
        v = LF(lse_ld)(k, buf);
    }
    axial_lse_acc st;
    if (LX(any)(LX(bad)(v))) { /* NaN or +inf: the rest of the chunk */
        st = LF(lse_canon)(c);
        lse_scan_scalar(k, x, y, n, t, n, excl, rev, &st, R, emit);
        c->m = (LE)st.m, c->S = st.s;
        return 1;
    }
    LV o;
    if (LX(any)(LX(gt)(v, LX(set1)(c->m)))) {
        const LE B = LX(hmax)(v);
        const double rise = LF(lse_rise_of)(c, B, LX(first)(v), t, excl);
#if !LSE_D
        if (rise > LSE_RISE && rise <= LSE_WIDE) { /* the vector in f64 */
            LF(lse_take)(c, B, R);
            o = LF(lse_wide)(k, c, v, excl, emit);
            if (!emit)
                return 0;
            goto store;
        }
#endif
        if (rise > LSE_RISE) {
            st = LF(lse_canon)(c);
            lse_scan_scalar(k, x, y, n, t, t + cnt, excl, rev, &st, R, emit);
            c->m = st.m == -INFINITY ? (LE)-LMAX : (LE)st.m, c->S = st.s;
            c->mx = lse_mix_of(R, (double)c->m);
            return 0;
        }
        LF(lse_take)(c, B, R);
    }
    const LV p = LX(scan)(LX(exp)(LX(sub)(v, LX(set1)(c->m))));
    const LV s = LF(lse_sj)(c, p, excl);
    if (!emit)
        return 0;
    o = LX(add)(LX(set1)((LE)c->mx.ref), LX(log)(s));
#if !LSE_D
store:
#endif
    if (cnt == LN || !rev) {
        LF(lse_stc)(k, y + at * es, rev ? LX(rev)(o) : o, cnt);
    } else {
        LF(lse_st)(k, buf, o);
        for (size_t l = 0; l < cnt; l++)
            axk_copy(y + (n - 1 - t - l) * es, buf + l * es, 1, es);
    }
    return 0;
}

/* One chunk of n <= AXIAL_SCAN_CHUNK terms from an empty state (REVERSE:
 * from x[n - 1]); with emit its outputs are those of R followed by it.
 * Returns its final state, the same bits with or without emit, whatever R. */
AXIAL_NOINLINE axial_lse_acc LF(lse_chunk)(int k, const void *xv, void *yv, size_t n, int excl,
                                           int rev, axial_lse_acc R, int emit) {
    const char *x = (const char *)xv;
    char *y = (char *)yv;
    const size_t es = axk_size(k);
    LF(lse_cs) c = {(LE)-LMAX, 0, lse_mix_of(R, -LMAX)};
    if (emit && (isnan(R.m) || R.m == INFINITY)) { /* every output is R's */
        axial_lse_acc st = AXIAL_LSE_EMPTY;
        lse_scan_scalar(k, x, y, n, 0, n, excl, rev, &st, R, emit);
        return st;
    }
    size_t t = 0;
    while (t < n) {
        size_t nv = 1;
        if (n - t >= LSE_BLK * LN) {
            LV v[LSE_BLK], b = LX(set1)(-INFINITY);
            int bad = 0;
            for (int q = 0; q < LSE_BLK; q++) {
                const LV u = LF(lse_ld)(k, x + (rev ? n - t - (q + 1) * LN : t + q * LN) * es);
                v[q] = rev ? LX(rev)(u) : u;
                bad |= LX(any)(LX(bad)(v[q]));
                b = LX(max)(b, v[q]);
            }
            if (!bad && LX(any)(LX(gt)(b, LX(set1)(c.m))))
                bad = !LF(lse_rise)(&c, LX(hmax)(b), LX(first)(v[0]), t, excl, R);
            if (!bad) {
                LV e[LSE_BLK];
                for (int q = 0; q < LSE_BLK; q++)
                    e[q] = LX(exp)(LX(sub)(v[q], LX(set1)(c.m)));
                for (int q = 0; q < LSE_BLK; q++)
                    e[q] = LF(lse_sj)(&c, LX(scan)(e[q]), excl);
                if (emit) {
                    const LV ref = LX(set1)((LE)c.mx.ref);
                    for (int q = 0; q < LSE_BLK; q++) {
                        const LV o = LX(add)(ref, LX(log)(e[q]));
                        LF(lse_st)(k, y + (rev ? n - t - (q + 1) * LN : t + q * LN) * es,
                                   rev ? LX(rev)(o) : o);
                    }
                }
                t += LSE_BLK * LN;
                continue;
            }
            nv = LSE_BLK;
        }
        for (size_t q = 0; q < nv; q++, t += LN)
            if (LF(lse_vec)(k, x, y, n, t, excl, rev, &c, R, emit))
                return (axial_lse_acc){(double)c.m, c.S};
    }
    return LF(lse_canon)(&c);
}

/* A segment of a line from a chunk boundary of its scan order, from the
 * carry R: chunk by chunk, R (+)= each whole chunk's total.  An exclusive
 * chunk's first output is R's value (ref + log a would underflow for a
 * chunk far above its carry). */
static axial_lse_acc LF(lse_seg)(int k, const void *x, void *y, size_t len, unsigned flags,
                                 axial_lse_acc R) {
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const int rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    for (size_t c0 = 0; c0 < len; c0 += AXIAL_SCAN_CHUNK) {
        const size_t kk = len - c0 < AXIAL_SCAN_CHUNK ? len - c0 : AXIAL_SCAN_CHUNK;
        const size_t lo = rev ? len - c0 - kk : c0;
        const void *xc = axk_at(k, x, lo);
        void *yc = axk_at_mut(k, y, lo);
        const axial_lse_acc T = LF(lse_chunk)(k, xc, yc, kk, excl, rev, R, 1);
        if (excl)
            lse_st1(k, yc, rev ? kk - 1 : 0, axial_lse_value(R));
        if (kk == AXIAL_SCAN_CHUNK)
            axial_lse_add(&R, T.m, T.s);
    }
    return R;
}

/* ---- LogCumSumExp along columns ------------------------------------------- */

/* y = m where m is NaN or +inf, else m + log s */
AXIAL_INLINE LV LF(lse_out)(LV m, const LF(lse_acc) *s) {
    return LX(sel)(LX(bad)(m), m, LX(add)(m, LX(log)(TOV(*s))));
}

/* One term of each lane into (m, s), its output to y: one exp, of v below
 * the running max (s += e) or of the old max below a new one (s = s e + 1;
 * wide: that exp in f64, for the many rescales of a long column). */
AXIAL_INLINE void LF(lse_row)(int k, void *y, LV v, size_t cnt, int excl, LV *m, LF(lse_acc) *s,
                              int wide) {
    if (excl)
        LF(lse_stc)(k, y, LF(lse_out)(*m, s), cnt);
    const LMASK up = LX(gt)(v, *m);
    const LV nm = LX(maxn)(v, *m), one = LX(set1)(1);
    const LV e = LX(exp)(wide ? LX(sub)(v, nm) : LX(sel)(up, LX(sub)(*m, v), LX(sub)(v, *m)));
    const LV a = wide ? one : LX(sel)(up, e, one), b = wide ? e : LX(sel)(up, one, e);
    if (wide && LX(any)(up))
        LF(lse_acc_rescale)(s, *m, nm);
    for (int h = 0; h < LH; h++)
        s->h[h] = vd_add(wide ? s->h[h] : vd_mul(s->h[h], HALF(a, h)), HALF(b, h));
    *m = nm;
    if (!excl)
        LF(lse_stc)(k, y, LF(lse_out)(nm, s), cnt);
}

/* Rows [t, t + LSE_SB) in scan order (fewer at the end) of one group of cnt
 * columns at x + i, rows `stride` elements apart. */
static void LF(lse_cblock)(int k, const void *x, void *y, size_t n, size_t t, size_t i,
                           size_t stride, size_t cnt, int excl, int rev, LV *mp,
                           LF(lse_acc) *s) {
    const size_t nr = n - t < LSE_SB ? n - t : LSE_SB, es = axk_size(k);
    const ptrdiff_t rs = (ptrdiff_t)(stride * es) * (rev ? -1 : 1); /* a row, in scan order */
    const char *xp = (const char *)x + ((rev ? n - 1 - t : t) * stride + i) * es;
    char *yp = (char *)y + (xp - (const char *)x);
    LV v[LSE_SB], m = *mp, b = LX(set1)(-INFINITY), sum = m, S = TOV(*s), zero = LX(set1)(0);
    for (size_t q = 0; q < nr; q++) {
        v[q] = LF(lse_ldc)(k, xp + (ptrdiff_t)q * rs, cnt);
        sum = LX(add)(sum, v[q]); /* NaN or +inf if a term or m is (or if it overflows) */
        b = LX(max)(b, v[q]);
    }
    int bad = nr < LSE_SB || LX(any)(LX(bad)(sum));
    const LMASK up = LX(gt)(b, m);
    if (!bad && LX(any)(up)) {
        /* each lane's first output's own largest term (excl, empty: x0) */
        const LV P = excl ? LX(sel)(LX(gt)(S, zero), m, v[0]) : LX(max)(m, v[0]);
        if (LX(any)(LX(gt)(LX(sel)(up, LX(sub)(b, P), zero), LX(set1)(LSE_RISE)))) {
            bad = 1;
        } else {
            const LV nm = LX(sel)(up, b, m);
            if (t > 0) /* (from the empty state s stays 0) */
                LF(lse_acc_rescale)(s, m, nm);
            m = nm;
            S = TOV(*s);
        }
    }
    if (!bad) {
        LV e[LSE_SB], f = zero;
        for (size_t q = 0; q < nr; q++)
            e[q] = LX(exp)(LX(sub)(v[q], m));
        for (size_t q = 0; q < nr; q++) {
            const LV g = LX(add)(f, e[q]);
            e[q] = LX(add)(S, excl ? f : g);
            f = g;
        }
        for (size_t q = 0; q < nr; q++)
            LF(lse_stc)(k, yp + (ptrdiff_t)q * rs, LX(add)(m, LX(log)(e[q])), cnt);
        LF(lse_acc_add)(s, f);
    } else {
        for (size_t q = 0; q < nr; q++) /* row by row */
            LF(lse_row)(k, yp + (ptrdiff_t)q * rs, v[q], cnt, excl, &m, s, 1);
    }
    *mp = m;
}

/* Columns [0, ncols) of each of the outer (n, stride) blocks, y laid out as
 * x; stride 1 is a line (its chunks from an empty carry).  Lines shorter
 * than a column block go LSE_SL at a time as the columns of a stack copy,
 * term by term (lse_row), each lane on its own: a line's bits are its own. */
static void LF(lse_scan)(int k, const void *x, void *y, size_t outer, size_t n, size_t ncols,
                         size_t stride, unsigned flags) {
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const int rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    const size_t es = axk_size(k);
    const int pf = n * stride * es > LSE_PF_MIN;
    if (stride == 1 && n > 1 && n < LSE_SB) {
        _Alignas(64) char t[(LSE_SB - 1) * LSE_SL * sizeof(LE)];
        for (size_t o = 0; o < outer; o += LSE_SL) {
            const size_t cw = outer - o < LSE_SL ? outer - o : LSE_SL;
            for (size_t l = 0; l < cw; l++)
                axk_copy_s(t + l * es, LSE_SL * es, (const char *)x + (o + l) * n * es, es, n, es);
            for (size_t g = 0; g < cw; g += LN) {
                const size_t cnt = cw - g < LN ? cw - g : LN;
                LV m;
                LF(lse_acc) s;
                LF(lse_empty)(&m, &s, 1);
                for (size_t q = 0; q < n; q++) {
                    char *r = t + ((rev ? n - 1 - q : q) * LSE_SL + g) * es;
                    LF(lse_row)(k, r, LF(lse_ldc)(k, r, cnt), cnt, excl, &m, &s, 0);
                }
            }
            for (size_t l = 0; l < cw; l++)
                axk_copy_s((char *)y + (o + l) * n * es, es, t + l * es, LSE_SL * es, n, es);
        }
        return;
    }
    for (size_t o = 0; o < outer; o++) {
        const void *xo = axk_at(k, x, o * n * stride);
        void *yo = axk_at_mut(k, y, o * n * stride);
        if (stride == 1) {
            LF(lse_seg)(k, xo, yo, n, flags, AXIAL_LSE_EMPTY);
            continue;
        }
        for (size_t c0 = 0; c0 < ncols; c0 += LW) {
            const size_t cw = ncols - c0 < LW ? ncols - c0 : LW, ng = (cw + LN - 1) / LN;
            LV m[LW / LN];
            LF(lse_acc) s[LW / LN];
            LF(lse_empty)(m, s, ng);
            for (size_t t = 0; t < n; t += LSE_SB)
                for (size_t g = 0; g < ng; g++) {
                    const size_t i = c0 + g * LN, cnt = cw - g * LN < LN ? cw - g * LN : LN;
                    if (pf) {
                        lse_pf(k, xo, n, t + LSE_SB, LSE_SB, i, stride, rev);
                        if (y != x)
                            lse_pf(k, yo, n, t + LSE_SB, LSE_SB, i, stride, rev);
                    }
                    LF(lse_cblock)(k, xo, yo, n, t, i, stride, cnt, excl, rev, &m[g], &s[g]);
                }
        }
    }
}

#undef LV
#undef LMASK
#undef LE
#undef LN
#undef LMAX
#undef LX
#undef LKX
#undef LF
#undef LW
#undef LH
#undef HALF
#undef TOV

#endif /* AXIAL_OPS_LSE_H / the body */
