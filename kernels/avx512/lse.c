/* SPDX-License-Identifier: MIT */
/*
 * lse.c: AVX-512 (F + VL + BW + DQ) LogCumSumExp and ReduceLogSumExp for F32,
 * F64, F16 and BF16.  Entry points (kernels.h): logcumsumexp, reduce_lse,
 * reduce_lse_acc; logcumsumexp_cols and reduce_lse_cols (column tiles of a
 * split); logcumsumexp_seg and lse_scan_total (a line split into chunks of
 * AXIAL_SCAN_CHUNK elements).  exp and log are SLEEF's 1-ulp vector functions
 * (Sleef_{exp,log}f16_u10avx512f, Sleef_{exp,log}d8_u10avx512f).
 *
 * The one summation order (docs/API.md section 7) does not apply: the log
 * semiring ops promise the bound of docs/API.md section 15 and thread
 * invariance, not the AVX2 and NEON kernels' bits.  C, the compute type, is
 * f32 for F32, F16 and BF16 (widened exactly, rounded once at the store) and
 * f64 for F64.  A state (m, s) has the value m + log(s): m a reference no
 * smaller than the terms so far, s the sum of exp(term - m), kept in f64 so
 * that its error does not grow with n; short runs of exps are summed in C
 * first.  An empty state has s = 0 and m = -C_MAX, never -inf, so that
 * -inf - -inf never happens.  References move in steps (LSE_REDUCE_LAG,
 * LSE_SCAN_RISE); why the error meets the bound is given next to those
 * constants, and each path's order at its function.
 *
 * Tails use masked loads (-inf in the unused lanes) and masked stores: nothing
 * outside the tensor is read or written.  In place (y == x) is safe: each
 * element is loaded before its output is stored, and a rescan reads only a
 * reduction's input.  Built with -ffp-contract=off.
 */
#include <float.h>
#include <math.h>
#include <sleef.h>

#include "avx512.h"
#include "scalar/convert.h"

/* The f32-computed dtypes. */
enum lse_dt { D_F32, D_F16, D_BF16 };

/* Why the error meets the bound (f32 family, u = 2^-24): the dominant terms
 * of every output lie within 2 of its reference (LSE_REDUCE_LAG,
 * LSE_SCAN_RISE), so a term exp(fl(x - m)) errs by below u (|x - m| + 2)
 * relative (the subtraction, SLEEF's 1-ulp exp), which weighted by
 * exp(x - m) averages to at most u (ln n + 4) over s; a C sum of <= 16 terms
 * adds <= 4u relative, each f64 addition or rescale 2^-53; the log of s
 * rounded to C (s >= e^-2) adds u + 2u |log s|, and m + log(s) and the store
 * one rounding of y.  So |y - y*| <= ulp_T(y*) + 4u (|y*| + ln n + 4).  A
 * chunk's merge with its carry (a + b s in f64, a and b within 2^-52) is far
 * inside that, except an exclusive chunk's first output, which is why
 * cl_chunk computes it in double.  F64: the same with u = 2^-53, and the n
 * additions of s give the bound's n * 2^-53 term. */

/* A rise of the block maximum above the running maximum of its first
 * output's terms up to which a LogCumSumExp block stays vectorised. */
#define LSE_SCAN_RISE 2.0
/* Up to this rise, a block is computed in f64 (exp(-LSE_SCAN_WIDE) is a
 * normal double); beyond it, the scalar step. */
#define LSE_SCAN_WIDE 600.0
/* A reduction lane's reference m is raised only when a block's maximum
 * exceeds it by more than this: exp(x - m) <= e^2 stays far from overflow,
 * and the rescales (one f64 SLEEF call per half) become rare. */
#define LSE_REDUCE_LAG 2.0f
/* Vectors of a LogCumSumExp line block whose terms are all referred to one
 * reference: exps, then prefixes, then logs, so that the SLEEF calls of the
 * block overlap instead of forming one long chain. */
#define LSE_SCAN_BLOCK 8
/* Columns whose states a column kernel keeps while it walks the rows. */
#define LSE_COLS_W 512
/* Column walks over more bytes than this prefetch the next block (pf_tile);
 * smaller ones gain nothing from it. */
#ifndef LSE_PF_MIN
#define LSE_PF_MIN ((size_t)4 << 20)
#endif
#define LSE_COLS_W_D 256

/* ---- scalar helpers (fallbacks, rescans, final roundings) ---------------- */

AXIAL_INLINE double ld1(const void *p, size_t i, enum lse_dt dt) {
    switch (dt) {
    case D_F32: return (double)((const float *)p)[i];
    case D_F16: return axial_f16_to_double(((const uint16_t *)p)[i]);
    default: return axial_bf16_to_double(((const uint16_t *)p)[i]);
    }
}
AXIAL_INLINE void st1(void *p, size_t i, double v, enum lse_dt dt) {
    switch (dt) {
    case D_F32: ((float *)p)[i] = (float)v; break;
    case D_F16: ((uint16_t *)p)[i] = axial_double_to_f16(v); break;
    default: ((uint16_t *)p)[i] = axial_double_to_bf16(v); break;
    }
}

/* The one scalar step of a state (m, s) in double, the canonical form of
 * kernels.h (empty: m = -inf): the special values of the contract (a NaN
 * term makes the state NaN for good, even after +inf; else +inf sticks). */
AXIAL_INLINE void lse_step(double *m, double *s, double v) {
    if (isnan(*m) || v == -INFINITY)
        return;
    if (isnan(v)) {
        *m = v;
    } else if (*m == INFINITY) {
        return;
    } else if (v == INFINITY) {
        *m = v;
    } else if (*m == -INFINITY) {
        *m = v, *s = 1;
    } else if (v > *m) {
        *s = *s * exp(*m - v) + 1;
        *m = v;
    } else {
        *s += exp(v - *m);
    }
}

/* The value of a reduction whose lane sums were not finite: its terms hold
 * NaN or +inf (nothing else can overflow a sum of exp(x - m), x <= m). */
static double lse_rescan(const void *x, size_t n, size_t stride, int f64, enum lse_dt dt) {
    int inf = 0;
    for (size_t j = 0; j < n; j++) {
        const double v = f64 ? ((const double *)x)[j * stride] : ld1(x, j * stride, dt);
        if (isnan(v))
            return v;
        inf |= v == INFINITY;
    }
    return inf ? INFINITY : NAN;
}

/* ===================== f32 compute: F32, F16, BF16 ====================== */

/* 16 elements at p[i..], lanes outside k are -inf. */
AXIAL_INLINE __m512 ldm(const void *p, size_t i, __mmask16 k, enum lse_dt dt) {
    const __m512 ninf = _mm512_set1_ps(-INFINITY);
    if (dt == D_F32)
        return _mm512_mask_loadu_ps(ninf, k, (const float *)p + i);
    const __m256i h = _mm256_maskz_loadu_epi16(k, (const uint16_t *)p + i);
    const __m512 v = dt == D_F16 ? axial_avx512_widen_f16(h) : axial_avx512_widen_bf16(h);
    return _mm512_mask_mov_ps(ninf, k, v);
}
AXIAL_INLINE __m512 ldf(const void *p, size_t i, enum lse_dt dt) {
    if (dt == D_F32)
        return _mm512_loadu_ps((const float *)p + i);
    return dt == D_F16 ? axial_avx512_load_f16((const uint16_t *)p + i)
                       : axial_avx512_load_bf16((const uint16_t *)p + i);
}
AXIAL_INLINE void stm(void *p, size_t i, __m512 v, __mmask16 k, enum lse_dt dt) {
    if (dt == D_F32)
        _mm512_mask_storeu_ps((float *)p + i, k, v);
    else
        _mm256_mask_storeu_epi16((uint16_t *)p + i, k,
                                 dt == D_F16 ? axial_avx512_f32_to_f16(v)
                                             : axial_avx512_f32_to_bf16(v));
}
AXIAL_INLINE __mmask16 mask16(size_t k) { return (__mmask16)(k >= 16 ? 0xffffu : (1u << k) - 1); }
AXIAL_INLINE __m512d lo_pd(__m512 v) { return _mm512_cvtps_pd(_mm512_castps512_ps256(v)); }
AXIAL_INLINE __m512d hi_pd(__m512 v) { return _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1)); }
AXIAL_INLINE __m512 pd_to_ps(__m512d a, __m512d b) {
    return _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(a)), _mm512_cvtpd_ps(b), 1);
}
/* Lane l of v moved to lane l + sh (lanes below sh: 0). */
AXIAL_INLINE __m512 up_ps(__m512 v, int sh) {
    const __m512i z = _mm512_setzero_si512(), u = _mm512_castps_si512(v);
    switch (sh) {
    case 1: return _mm512_castsi512_ps(_mm512_alignr_epi32(u, z, 15));
    case 2: return _mm512_castsi512_ps(_mm512_alignr_epi32(u, z, 14));
    case 4: return _mm512_castsi512_ps(_mm512_alignr_epi32(u, z, 12));
    default: return _mm512_castsi512_ps(_mm512_alignr_epi32(u, z, 8));
    }
}
AXIAL_INLINE __m512 prefix_ps(__m512 e) {
    e = _mm512_add_ps(e, up_ps(e, 1));
    e = _mm512_add_ps(e, up_ps(e, 2));
    e = _mm512_add_ps(e, up_ps(e, 4));
    return _mm512_add_ps(e, up_ps(e, 8));
}
AXIAL_INLINE __m512d up_pd(__m512d v, int sh) {
    const __m512i z = _mm512_setzero_si512(), u = _mm512_castpd_si512(v);
    switch (sh) {
    case 1: return _mm512_castsi512_pd(_mm512_alignr_epi64(u, z, 7));
    case 2: return _mm512_castsi512_pd(_mm512_alignr_epi64(u, z, 6));
    default: return _mm512_castsi512_pd(_mm512_alignr_epi64(u, z, 4));
    }
}
AXIAL_INLINE __m512d prefix_pd(__m512d e) {
    e = _mm512_add_pd(e, up_pd(e, 1));
    e = _mm512_add_pd(e, up_pd(e, 2));
    return _mm512_add_pd(e, up_pd(e, 4));
}

#define FP_NAN_PINF 0x89 /* vfpclass: QNaN | +inf | SNaN */

/* ---- ReduceLogSumExp of one line (inner == 1), in canonical form ---------- */

/* Raise the references m of the lanes whose block maximum b exceeds them by
 * more than LSE_REDUCE_LAG to b + LSE_REDUCE_LAG (room for a further rise of
 * twice the lag before the next rescale; terms stay <= e^2), rescaling their sums in f64 (no SLEEF call
 * when those lanes are still empty). */
AXIAL_INLINE void rl_raise(__m512 b, __m512 *m, __m512d *s0, __m512d *s1) {
    const __mmask16 up =
        _mm512_cmp_ps_mask(b, _mm512_add_ps(*m, _mm512_set1_ps(LSE_REDUCE_LAG)), _CMP_GT_OQ);
    /* (b = +inf gives m = +inf: the sum turns NaN and the line is rescanned) */
    if (!up)
        return;
    const __m512 lag = _mm512_set1_ps(LSE_REDUCE_LAG);
    const __m512 nm = _mm512_mask_add_ps(*m, up, b, lag);
    const __m512d z = _mm512_setzero_pd();
    const __mmask8 u0 = (__mmask8)up & _mm512_cmp_pd_mask(*s0, z, _CMP_NEQ_UQ);
    const __mmask8 u1 = (__mmask8)(up >> 8) & _mm512_cmp_pd_mask(*s1, z, _CMP_NEQ_UQ);
    if (u0 | u1) {
        const __m512d f0 = Sleef_expd8_u10avx512f(_mm512_sub_pd(lo_pd(*m), lo_pd(nm)));
        const __m512d f1 = Sleef_expd8_u10avx512f(_mm512_sub_pd(hi_pd(*m), hi_pd(nm)));
        *s0 = _mm512_mask_mul_pd(*s0, u0, *s0, f0);
        *s1 = _mm512_mask_mul_pd(*s1, u1, *s1, f1);
    }
    *m = nm;
}

/* ReduceLogSumExp of a line.  Lane states: m (f32), s (two f64 halves).  A
 * block of nv vectors (nv <= 4), cnt elements from x[j]: the lane maxima b
 * raise the references (rl_raise), then exp(x - m) of the block is summed in
 * C by a tree (4 terms a lane), widened and added to s. */
AXIAL_INLINE void rl_block(const void *x, size_t j, size_t cnt, int full, enum lse_dt dt,
                           __m512 *m, __m512d *s0, __m512d *s1) {
    __m512 v[4];
    _Pragma("GCC unroll 4") for (int q = 0; q < 4; q++) {
        if (full)
            v[q] = ldf(x, j + 16 * (size_t)q, dt);
        else
            v[q] = ldm(x, j + 16 * (size_t)q, mask16(cnt > 16 * (size_t)q ? cnt - 16 * (size_t)q : 0), dt);
    }
    const __m512 b = _mm512_max_ps(_mm512_max_ps(v[0], v[1]), _mm512_max_ps(v[2], v[3]));
    rl_raise(b, m, s0, s1);
    __m512 e[4];
    _Pragma("GCC unroll 4") for (int q = 0; q < 4; q++) e[q] =
        Sleef_expf16_u10avx512f(_mm512_sub_ps(v[q], *m));
    const __m512 t = _mm512_add_ps(_mm512_add_ps(e[0], e[1]), _mm512_add_ps(e[2], e[3]));
    *s0 = _mm512_add_pd(*s0, lo_pd(t));
    *s1 = _mm512_add_pd(*s1, hi_pd(t));
}

/* Merge per-lane states (m in f64 halves, s) into one canonical state: M the
 * largest m of a lane with s > 0, S = sum of s_l exp(m_l - M). */
AXIAL_INLINE axial_lse_acc merge_lanes(__m512d m0, __m512d m1, __m512d s0, __m512d s1) {
    const __m512d zero = _mm512_setzero_pd();
    const __mmask8 n0 = _mm512_cmp_pd_mask(s0, zero, _CMP_GT_OQ);
    const __mmask8 n1 = _mm512_cmp_pd_mask(s1, zero, _CMP_GT_OQ);
    axial_lse_acc r = AXIAL_LSE_EMPTY;
    if (!(n0 | n1))
        return r;
    const __m512d ninf = _mm512_set1_pd(-INFINITY);
    const double M = _mm512_reduce_max_pd(
        _mm512_max_pd(_mm512_mask_mov_pd(ninf, n0, m0), _mm512_mask_mov_pd(ninf, n1, m1)));
    const __m512d vM = _mm512_set1_pd(M);
    const __m512d f0 = Sleef_expd8_u10avx512f(_mm512_sub_pd(m0, vM));
    const __m512d f1 = Sleef_expd8_u10avx512f(_mm512_sub_pd(m1, vM));
    r.m = M;
    r.s = _mm512_reduce_add_pd(_mm512_add_pd(_mm512_maskz_mul_pd(n0, s0, f0),
                                             _mm512_maskz_mul_pd(n1, s1, f1)));
    return r;
}

/* A line whose lane sums are not finite (only NaN or +inf terms make them
 * so) is rescanned for NaN (NaN, else +inf); -inf terms add exp(-inf) = 0. */
AXIAL_INLINE axial_lse_acc rl_line(const void *x, size_t n, enum lse_dt dt) {
    __m512 m = _mm512_set1_ps(-FLT_MAX);
    __m512d s0 = _mm512_setzero_pd(), s1 = _mm512_setzero_pd();
    size_t j = 0;
    for (; j + 64 <= n; j += 64)
        rl_block(x, j, 64, 1, dt, &m, &s0, &s1);
    if (j < n)
        rl_block(x, j, n - j, 0, dt, &m, &s0, &s1);
    const __m512d sum = _mm512_add_pd(s0, s1);
    if (_mm512_cmp_pd_mask(_mm512_sub_pd(sum, sum), _mm512_setzero_pd(), _CMP_NEQ_UQ)) {
        const axial_lse_acc r = {lse_rescan(x, n, 1, 0, dt), 1.0};
        return r;
    }
    return merge_lanes(lo_pd(m), hi_pd(m), s0, s1);
}

/* Prefetches (into L1) the line of column c in the rows of the next block of
 * a column walk: rows [t, t + 8) (from the far end with REVERSE; none from n
 * on), `inner` elements of es bytes apart.  A walk reads a block a vector
 * tile at a time down its rows; with rows shorter than a page several rows
 * share one, their lines are met out of order, and the hardware's stream
 * prefetcher does not follow them.  Called per tile, one block ahead, so the
 * requests are spread over the block's work.  Prefetching changes no
 * arithmetic. */
AXIAL_INLINE void pf_tile(const void *p, size_t n, size_t t, size_t inner, size_t c, int rev,
                          size_t es) {
    if (n * inner * es <= LSE_PF_MIN)
        return;
    for (size_t q = 0; q < 8 && t + q < n; q++)
        _mm_prefetch((const char *)p + ((rev ? n - 1 - (t + q) : t + q) * inner + c) * es,
                     _MM_HINT_T0);
}

/* ---- ReduceLogSumExp of a tile of <= 16 columns (inner > 1) --------------- */

/* Rows [j, j + r) (r <= 8) of the tile of columns [c, c + popcount(k)): the
 * lanes are columns, the block's lane maxima raise the references as in a
 * line (rl_raise), and its exps are summed in C, then added to s in f64. */
AXIAL_INLINE void rc_rows(const void *x, size_t j, size_t r, size_t inner, size_t c, __mmask16 k,
                          enum lse_dt dt, __m512 *m, __m512d *s0, __m512d *s1) {
    __m512 b = ldm(x, j * inner + c, k, dt);
    for (size_t q = 1; q < r; q++)
        b = _mm512_max_ps(b, ldm(x, (j + q) * inner + c, k, dt));
    rl_raise(b, m, s0, s1);
    __m512 t = _mm512_setzero_ps();
    for (size_t q = 0; q < r; q++)
        t = _mm512_add_ps(
            t, Sleef_expf16_u10avx512f(_mm512_sub_ps(ldm(x, (j + q) * inner + c, k, dt), *m)));
    *s0 = _mm512_add_pd(*s0, lo_pd(t));
    *s1 = _mm512_add_pd(*s1, hi_pd(t));
}

/* Columns in blocks of LSE_COLS_W (their states on the stack, 6 KiB), each
 * block's rows 8 at a time across its whole width: runs of 2 KiB of a row
 * rather than one 64-byte line per row and tile (which, with rows far apart,
 * waits on memory).  Each column's arithmetic is that of its tile alone.
 * y = m + log(s) in f64, rounded once, or (m, s) merged into acc; a column
 * whose sum is not finite is rescanned (lse_rescan). */
AXIAL_INLINE void rc_run(const void *xv, void *yv, axial_lse_acc *acc, size_t outer, size_t n,
                         size_t inner, size_t ncols, enum lse_dt dt) {
    const size_t es = dt == D_F32 ? 4 : 2;
    for (size_t o = 0; o < outer; o++) {
        const char *x = (const char *)xv + o * n * inner * es;
        for (size_t c0 = 0; c0 < ncols; c0 += LSE_COLS_W) {
            const size_t cw = ncols - c0 < LSE_COLS_W ? ncols - c0 : LSE_COLS_W;
            const size_t nt = (cw + 15) / 16;
            __m512 mt[LSE_COLS_W / 16];
            __m512d s0t[LSE_COLS_W / 16], s1t[LSE_COLS_W / 16];
            for (size_t q = 0; q < nt; q++) {
                mt[q] = _mm512_set1_ps(-FLT_MAX);
                s0t[q] = s1t[q] = _mm512_setzero_pd();
            }
            for (size_t j = 0; j < n; j += 8) {
                const size_t r = n - j < 8 ? n - j : 8;
                for (size_t q = 0; q < nt; q++) {
                    pf_tile(x, n, j + 8, inner, c0 + 16 * q, 0, es);
                    rc_rows(x, j, r, inner, c0 + 16 * q, mask16(cw - 16 * q), dt, &mt[q], &s0t[q],
                            &s1t[q]);
                }
            }
            for (size_t q = 0; q < nt; q++) {
                const size_t c = c0 + 16 * q, w = cw - 16 * q < 16 ? cw - 16 * q : 16;
                const __m512 m = mt[q];
                const __m512d s0 = s0t[q], s1 = s1t[q];
                double ms[16], ss[16], ys[16];
                _mm512_storeu_pd(ms, lo_pd(m));
                _mm512_storeu_pd(ms + 8, hi_pd(m));
                _mm512_storeu_pd(ss, s0);
                _mm512_storeu_pd(ss + 8, s1);
                if (acc) {
                    for (size_t i = 0; i < w; i++) {
                        axial_lse_acc *a = &acc[o * ncols + c + i];
                        if (!isfinite(ss[i]))
                            axial_lse_add(a, lse_rescan(x + (c + i) * es, n, inner, 0, dt), 1.0);
                        else if (ss[i] > 0)
                            axial_lse_add(a, ms[i], ss[i]);
                    }
                    continue;
                }
                /* y = m + log(s) in f64; s = 0 gives -inf */
                _mm512_storeu_pd(ys, _mm512_add_pd(lo_pd(m), Sleef_logd8_u10avx512f(s0)));
                _mm512_storeu_pd(ys + 8, _mm512_add_pd(hi_pd(m), Sleef_logd8_u10avx512f(s1)));
                for (size_t i = 0; i < w; i++) {
                    double v = ys[i];
                    if (!isfinite(ss[i]))
                        v = lse_rescan(x + (c + i) * es, n, inner, 0, dt);
                    st1(yv, o * ncols + c + i, v, dt);
                }
            }
        }
    }
}

AXIAL_INLINE void reduce_lse_f(const void *x, void *y, axial_lse_acc *acc, size_t outer, size_t n,
                               size_t inner, enum lse_dt dt) {
    if (inner > 1) {
        rc_run(x, y, acc, outer, n, inner, inner, dt);
        return;
    }
    const size_t es = dt == D_F32 ? 4 : 2;
    for (size_t o = 0; o < outer; o++) {
        const axial_lse_acc r = rl_line((const char *)x + o * n * es, n, dt);
        if (acc)
            axial_lse_add(&acc[o], r.m, r.s);
        else
            st1(y, o, axial_lse_value(r), dt);
    }
}

/* ---- LogCumSumExp of one line (inner == 1) -------------------------------- */

/* The outputs of a chunk scanned from the carry R (empty or finite) while
 * the chunk's own state has the reference mr: ref + log(a + b s), s the
 * local sum, ref = max(R.m, mr), a = R.s exp(R.m - ref), b = exp(mr - ref).
 * R empty: (mr, 0, 1), so a + b s is s exactly (the first chunk of a line
 * has the bits of a scan without chunks). */
typedef struct {
    double ref, a, b;
} lse_mix;
AXIAL_INLINE lse_mix mix_of(axial_lse_acc R, double mr) {
    if (R.m == -INFINITY)
        return (lse_mix){mr, 0.0, 1.0};
    const double ref = R.m > mr ? R.m : mr;
    return (lse_mix){ref, R.s * exp(R.m - ref), exp(mr - ref)};
}
/* a + b s (mixed: a carry is there), else s: the same bits when a = 0 and
 * b = 1, without the two operations per output where no carry is. */
AXIAL_INLINE __m512d mix_pd(int mixed, __m512d va, __m512d vb, __m512d s) {
    return mixed ? _mm512_add_pd(va, _mm512_mul_pd(vb, s)) : s;
}
/* The value of the carry R followed by the local state (m, s). */
AXIAL_INLINE double lse_val_from(axial_lse_acc R, double m, double s) {
    axial_lse_add(&R, m, s);
    return axial_lse_value(R);
}

/* The scalar fallback for the lanes [0, k) of a block (positions from base,
 * lane order reversed with rev), local state in canonical form; outputs
 * (with emit) those of the carry R followed by the local state. */
AXIAL_INLINE void cl_scalar(const void *x, void *y, size_t base, size_t k, int excl, int rev,
                            double *m, double *s, enum lse_dt dt, axial_lse_acc R, int emit) {
    for (size_t l = 0; l < k; l++) {
        const size_t j = rev ? base + k - 1 - l : base + l;
        const double v = ld1(x, j, dt);
        if (emit && excl)
            st1(y, j, lse_val_from(R, *m, *s), dt);
        lse_step(m, s, v);
        if (emit && !excl)
            st1(y, j, lse_val_from(R, *m, *s), dt);
    }
}

/* One chunk of n <= AXIAL_SCAN_CHUNK elements of a line (REVERSE: from
 * x[n - 1], vectors lane-reversed), scanned with a state of its own from
 * empty; with emit its outputs are those of the carry R followed by that
 * state (mix_of).  Returns the chunk's own final state (canonical): the same
 * bits with or without emit, whatever R, which makes it the chunk's total
 * for a split.  Blocks of LSE_SCAN_BLOCK vectors with no NaN or +inf, whose
 * maximum B lies at most LSE_SCAN_RISE above the maximum P of the block's
 * first output's terms, take B as reference when it rises (S rescaled by
 * exp(m - B), libm) and run their exps, then their prefixes (in C, added to
 * S in f64), then their logs (of s rounded to C).  Other vectors go one at a
 * time, with the vector's own maximum: a rise beyond LSE_SCAN_RISE in f64,
 * beyond LSE_SCAN_WIDE by the scalar step; NaN or +inf, and a NaN or +inf
 * carry, send the rest of the chunk to the scalar step. */
AXIAL_INLINE axial_lse_acc cl_chunk_run(const void *x, void *y, size_t n, unsigned flags,
                                        enum lse_dt dt, axial_lse_acc R, int emit, int mixed) {
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const int rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    const __m512i lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    /* Local state: reference mr (f32; -FLT_MAX when empty), S (f64; 0 when empty). */
    float mr = -FLT_MAX;
    double S = 0;
    lse_mix mx = mix_of(R, (double)mr);
    const __m512i ridx = _mm512_sub_epi32(_mm512_set1_epi32(15), lane);
    /* a NaN or +inf carry: every output is the scalar step's */
    const int rbad = emit && (isnan(R.m) || R.m == INFINITY);
    size_t stop = rbad ? n : 0; /* the per-vector path runs up to here */
    for (size_t t = 0; t < n;) {
        if (t >= stop && n - t >= 16 * LSE_SCAN_BLOCK) {
            /* a block of whole vectors with no NaN, no +inf and no rise */
            const size_t base = rev ? n - t - 16 * LSE_SCAN_BLOCK : t;
            __m512 v[LSE_SCAN_BLOCK], b = _mm512_set1_ps(-INFINITY);
            __mmask16 bad = 0;
            for (int q = 0; q < LSE_SCAN_BLOCK; q++) {
                v[q] = rev ? _mm512_permutexvar_ps(
                                 ridx, ldf(x, base + 16 * (size_t)(LSE_SCAN_BLOCK - 1 - q), dt))
                           : ldf(x, base + 16 * (size_t)q, dt);
                bad |= _mm512_fpclass_ps_mask(v[q], FP_NAN_PINF);
                b = _mm512_max_ps(b, v[q]);
            }
            if (!bad && _mm512_cmp_ps_mask(b, _mm512_set1_ps(mr), _CMP_GT_OQ)) {
                /* a rise: the block's maximum becomes the reference if every
                 * output of the block stays within LSE_SCAN_RISE of it */
                const float B = _mm512_reduce_max_ps(b), x0 = _mm512_cvtss_f32(v[0]);
                const double P = excl ? (S == 0 ? (double)x0 : (double)mr)
                                      : (double)(x0 > mr ? x0 : mr);
                if ((double)B - P > LSE_SCAN_RISE) {
                    bad = 1;
                } else {
                    S = S == 0 ? 0 : S * exp((double)mr - (double)B);
                    mr = B;
                    if (emit)
                        mx = mix_of(R, (double)mr);
                }
            }
            const __m512 vm = _mm512_set1_ps(mr);
            if (!bad) {
                __m512 sf[LSE_SCAN_BLOCK];
                const __m512d va = _mm512_set1_pd(mx.a), vb = _mm512_set1_pd(mx.b);
                for (int q = 0; q < LSE_SCAN_BLOCK; q++)
                    sf[q] = Sleef_expf16_u10avx512f(_mm512_sub_ps(v[q], vm));
                for (int q = 0; q < LSE_SCAN_BLOCK; q++) {
                    const __m512 p = prefix_ps(sf[q]);
                    if (emit) {
                        const __m512 pq = excl ? up_ps(p, 1) : p;
                        const __m512d vS = _mm512_set1_pd(S);
                        sf[q] = pd_to_ps(
                            mix_pd(mixed, va, vb, _mm512_add_pd(vS, lo_pd(pq))),
                            mix_pd(mixed, va, vb, _mm512_add_pd(vS, hi_pd(pq))));
                    }
                    S += (double)_mm512_cvtss_f32(_mm512_permutexvar_ps(_mm512_set1_epi32(15), p));
                }
                if (emit) {
                    const __m512 vref = _mm512_set1_ps((float)mx.ref);
                    for (int q = 0; q < LSE_SCAN_BLOCK; q++) {
                        const __m512 out = _mm512_add_ps(vref, Sleef_logf16_u10avx512f(sf[q]));
                        if (rev)
                            stm(y, base + 16 * (size_t)(LSE_SCAN_BLOCK - 1 - q),
                                _mm512_permutexvar_ps(ridx, out), 0xffff, dt);
                        else
                            stm(y, base + 16 * (size_t)q, out, 0xffff, dt);
                    }
                }
                t += 16 * LSE_SCAN_BLOCK;
                continue;
            }
            stop = t + 16;
        }
        const size_t k = n - t < 16 ? n - t : 16;
        const __mmask16 km = mask16(k);
        const size_t base = rev ? n - t - k : t;
        __m512 v = ldm(x, base, km, dt);
        __m512i idx = lane;
        if (rev) {
            idx = _mm512_and_si512(_mm512_sub_epi32(_mm512_set1_epi32((int)k - 1), lane),
                                   _mm512_set1_epi32(15));
            v = _mm512_mask_permutexvar_ps(_mm512_set1_ps(-INFINITY), km, idx, v);
        }
        int scalar = rbad || _mm512_fpclass_ps_mask(v, FP_NAN_PINF) != 0;
        if (!scalar && _mm512_cmp_ps_mask(v, _mm512_set1_ps(mr), _CMP_GT_OQ)) {
            const float B = _mm512_reduce_max_ps(v);
            const float x0 = _mm512_cvtss_f32(v);
            const double P = excl ? (S == 0 ? (double)x0 : (double)mr)
                                  : (double)(x0 > mr ? x0 : mr);
            if ((double)B - P > LSE_SCAN_WIDE) {
                scalar = 1;
            } else if ((double)B - P > LSE_SCAN_RISE) {
                /* a steep rise: the block in f64, referred to B (f64 keeps
                 * the relative precision of terms down to e^-LSE_SCAN_WIDE) */
                const __m512d vB = _mm512_set1_pd((double)B);
                S = S == 0 ? 0 : S * exp((double)mr - (double)B);
                const __m512d p0 =
                    prefix_pd(Sleef_expd8_u10avx512f(_mm512_sub_pd(lo_pd(v), vB)));
                const __m512d p1 = _mm512_add_pd(
                    prefix_pd(Sleef_expd8_u10avx512f(_mm512_sub_pd(hi_pd(v), vB))),
                    _mm512_permutexvar_pd(_mm512_set1_epi64(7), p0));
                mr = B;
                if (emit) {
                    mx = mix_of(R, (double)mr);
                    __m512d q0 = p0, q1 = p1;
                    if (excl) {
                        q0 = up_pd(p0, 1);
                        q1 = _mm512_castsi512_pd(_mm512_alignr_epi64(
                            _mm512_castpd_si512(p1), _mm512_castpd_si512(p0), 7));
                    }
                    const __m512d vS = _mm512_set1_pd(S), va = _mm512_set1_pd(mx.a),
                                  vb = _mm512_set1_pd(mx.b), vr = _mm512_set1_pd(mx.ref);
                    const __m512d s0 = mix_pd(mixed, va, vb, _mm512_add_pd(vS, q0));
                    const __m512d s1 = mix_pd(mixed, va, vb, _mm512_add_pd(vS, q1));
                    __m512 out = pd_to_ps(_mm512_add_pd(vr, Sleef_logd8_u10avx512f(s0)),
                                          _mm512_add_pd(vr, Sleef_logd8_u10avx512f(s1)));
                    if (rev)
                        out = _mm512_permutexvar_ps(idx, out);
                    stm(y, base, out, km, dt);
                }
                S += _mm512_cvtsd_f64(_mm512_permutexvar_pd(_mm512_set1_epi64(7), p1));
                t += k;
                continue;
            } else {
                S = S == 0 ? 0 : S * exp((double)mr - (double)B);
                mr = B;
                if (emit)
                    mx = mix_of(R, (double)mr);
            }
        }
        if (scalar) {
            double m = S == 0 ? -INFINITY : (double)mr, s = S;
            cl_scalar(x, y, base, k, excl, rev, &m, &s, dt, R, emit);
            t += k;
            if (isnan(m) || m == INFINITY || rbad) {
                /* the rest of the chunk: NaN, or +inf until a NaN (or a
                 * NaN / +inf carry) */
                while (t < n) {
                    const size_t kk = n - t < 16 ? n - t : 16;
                    cl_scalar(x, y, rev ? n - t - kk : t, kk, excl, rev, &m, &s, dt, R, emit);
                    t += kk;
                }
                return (axial_lse_acc){m, s};
            }
            mr = m == -INFINITY ? -FLT_MAX : (float)m;
            S = s;
            if (emit)
                mx = mix_of(R, (double)mr);
            continue;
        }
        if (emit) {
            const __m512 vm = _mm512_set1_ps(mr);
            const __m512 p = prefix_ps(Sleef_expf16_u10avx512f(_mm512_sub_ps(v, vm)));
            const __m512 q = excl ? up_ps(p, 1) : p;
            const __m512d vS = _mm512_set1_pd(S), va = _mm512_set1_pd(mx.a),
                          vb = _mm512_set1_pd(mx.b);
            const __m512 sf =
                pd_to_ps(mix_pd(mixed, va, vb, _mm512_add_pd(vS, lo_pd(q))),
                         mix_pd(mixed, va, vb, _mm512_add_pd(vS, hi_pd(q))));
            __m512 out = _mm512_add_ps(_mm512_set1_ps((float)mx.ref), Sleef_logf16_u10avx512f(sf));
            if (rev)
                out = _mm512_permutexvar_ps(idx, out);
            stm(y, base, out, km, dt);
            S += (double)_mm512_cvtss_f32(_mm512_permutexvar_ps(_mm512_set1_epi32(15), p));
        } else {
            const __m512 p =
                prefix_ps(Sleef_expf16_u10avx512f(_mm512_sub_ps(v, _mm512_set1_ps(mr))));
            S += (double)_mm512_cvtss_f32(_mm512_permutexvar_ps(_mm512_set1_epi32(15), p));
        }
        t += k;
    }
    return (axial_lse_acc){S == 0 ? -INFINITY : (double)mr, S};
}

/* cl_chunk_run, and an exclusive scan's first output of the chunk (no term
 * of its own) is the carry's value, rounded once: the vector paths would
 * give R.m + log(a) with a = R.s exp(R.m - mr), which underflows f32 when
 * the chunk's reference mr lies far above the carry. */
AXIAL_INLINE axial_lse_acc cl_chunk(const void *x, void *y, size_t n, unsigned flags,
                                    enum lse_dt dt, axial_lse_acc R, int emit) {
    /* (R empty: a = 0, b = 1, an instance without them) */
    const axial_lse_acc T = R.m == -INFINITY ? cl_chunk_run(x, y, n, flags, dt, R, emit, 0)
                                             : cl_chunk_run(x, y, n, flags, dt, R, emit, 1);
    if (emit && (flags & AXIAL_CUMSUM_EXCLUSIVE) && n > 0)
        st1(y, flags & AXIAL_CUMSUM_REVERSE ? n - 1 : 0, axial_lse_value(R), dt);
    return T;
}

/* A segment of len elements of a line from a chunk boundary of its scan
 * order (chunks of AXIAL_SCAN_CHUNK counted from the scan's start; REVERSE:
 * the segment's first element is x[len - 1]), from the carry R: each chunk
 * from R, then R (+)= the chunk's total; returns R after the segment (kept
 * only after a whole chunk: a partial one ends its line). */
AXIAL_INLINE axial_lse_acc cl_seg(const void *x, void *y, size_t len, unsigned flags,
                                  enum lse_dt dt,
                                  axial_lse_acc R) {
    const size_t es = dt == D_F32 ? 4 : 2;
    const int rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    for (size_t c0 = 0; c0 < len; c0 += AXIAL_SCAN_CHUNK) {
        const size_t k = len - c0 < AXIAL_SCAN_CHUNK ? len - c0 : AXIAL_SCAN_CHUNK;
        const size_t lo = (rev ? len - c0 - k : c0) * es;
        const axial_lse_acc T =
            cl_chunk((const char *)x + lo, (char *)y + lo, k, flags, dt, R, 1);
        if (k == AXIAL_SCAN_CHUNK)
            axial_lse_add(&R, T.m, T.s);
    }
    return R;
}

/* ---- LogCumSumExp of a tile of <= 16 columns (inner > 1) ------------------ */

AXIAL_INLINE __m512 cc_out(__m512 m, __m512d s0, __m512d s1, __mmask16 kio) {
    const __m512 y = _mm512_add_ps(m, Sleef_logf16_u10avx512f(pd_to_ps(s0, s1)));
    return _mm512_mask_mov_ps(y, kio, _mm512_set1_ps(INFINITY));
}

/* One row of a column tile: the running maximum, per lane (exact: the scan
 * needs every output referred to its own prefix maximum). */
AXIAL_INLINE void cc_row(const void *x, void *y, size_t off, __mmask16 k, int excl, enum lse_dt dt,
                         __m512 *m, __m512d *s0, __m512d *s1, __mmask16 *knan, __mmask16 *kinf,
                         __mmask16 *kio) {
    const __m512 v = ldm(x, off, k, dt);
    if (excl)
        stm(y, off, cc_out(*m, *s0, *s1, *kio), k, dt);
    if (_mm512_fpclass_ps_mask(v, FP_NAN_PINF)) {
        *knan |= _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
        *kinf |= _mm512_cmp_ps_mask(v, _mm512_set1_ps(INFINITY), _CMP_EQ_OQ);
        *kio = *kinf & (__mmask16)~*knan;
    }
    const __mmask16 up = _mm512_cmp_ps_mask(v, *m, _CMP_GT_OQ);
    if (up) {
        const __m512 nm = _mm512_mask_mov_ps(*m, up, v);
        const __m512d f0 = Sleef_expd8_u10avx512f(_mm512_sub_pd(lo_pd(*m), lo_pd(nm)));
        const __m512d f1 = Sleef_expd8_u10avx512f(_mm512_sub_pd(hi_pd(*m), hi_pd(nm)));
        *s0 = _mm512_mask_mul_pd(*s0, (__mmask8)up, *s0, f0);
        *s1 = _mm512_mask_mul_pd(*s1, (__mmask8)(up >> 8), *s1, f1);
        *m = nm;
    }
    const __m512 e = Sleef_expf16_u10avx512f(_mm512_sub_ps(v, *m));
    *s0 = _mm512_add_pd(*s0, lo_pd(e));
    *s1 = _mm512_add_pd(*s1, hi_pd(e));
    if (!excl)
        stm(y, off, cc_out(*m, *s0, *s1, *kio), k, dt);
}

/* The state of a column tile of LogCumSumExp. */
typedef struct {
    __m512 m;
    __m512d s0, s1;
    __mmask16 knan, kinf, kio; /* NaN seen, +inf seen, +inf and no NaN */
} cc_state;

/* Rows [t, t + LSE_SCAN_BLOCK) of a column tile (rows from the far end with
 * REVERSE), or the rows [t, n) when fewer remain.  A block with no NaN, no
 * +inf and no steep rise (a lane whose block maximum exceeds by at most
 * LSE_SCAN_RISE the maximum of its first output's terms takes it as
 * reference at once) runs its exps, then its sums, then its logs; any other
 * block runs row by row. */
AXIAL_INLINE void cc_block(const void *x, void *y, size_t n, size_t t, size_t inner, size_t c,
                           __mmask16 k, int excl, int rev, enum lse_dt dt, cc_state *st) {
    __m512 m = st->m;
    __m512d s0 = st->s0, s1 = st->s1;
    __mmask16 knan = st->knan, kinf = st->kinf, kio = st->kio;
    if (t + LSE_SCAN_BLOCK > n) {
        for (; t < n; t++)
            cc_row(x, y, (rev ? n - 1 - t : t) * inner + c, k, excl, dt, &m, &s0, &s1, &knan,
                   &kinf, &kio);
    } else {
        size_t off[LSE_SCAN_BLOCK];
        __m512 e[LSE_SCAN_BLOCK];
        __mmask16 bad = 0;
        __m512 b = _mm512_set1_ps(-INFINITY);
        for (int q = 0; q < LSE_SCAN_BLOCK; q++) {
            off[q] = (rev ? n - 1 - (t + (size_t)q) : t + (size_t)q) * inner + c;
            e[q] = ldm(x, off[q], k, dt);
            bad |= _mm512_fpclass_ps_mask(e[q], FP_NAN_PINF);
            b = _mm512_max_ps(b, e[q]);
        }
        const __mmask16 up = bad ? 0 : _mm512_cmp_ps_mask(b, m, _CMP_GT_OQ);
        if (up) {
            const __m512d z = _mm512_setzero_pd();
            const __mmask16 nz = (__mmask16)(_mm512_cmp_pd_mask(s0, z, _CMP_NEQ_UQ) |
                                             (_mm512_cmp_pd_mask(s1, z, _CMP_NEQ_UQ) << 8));
            const __m512 P = excl ? _mm512_mask_mov_ps(e[0], nz, m) : _mm512_max_ps(m, e[0]);
            if (_mm512_mask_cmp_ps_mask(up, _mm512_sub_ps(b, P),
                                        _mm512_set1_ps((float)LSE_SCAN_RISE), _CMP_NLE_UQ)) {
                bad = 1;
            } else {
                const __m512 nm = _mm512_mask_mov_ps(m, up, b);
                const __mmask16 u = up & nz;
                if (u) {
                    const __m512d f0 = Sleef_expd8_u10avx512f(_mm512_sub_pd(lo_pd(m), lo_pd(nm)));
                    const __m512d f1 = Sleef_expd8_u10avx512f(_mm512_sub_pd(hi_pd(m), hi_pd(nm)));
                    s0 = _mm512_mask_mul_pd(s0, (__mmask8)u, s0, f0);
                    s1 = _mm512_mask_mul_pd(s1, (__mmask8)(u >> 8), s1, f1);
                }
                m = nm;
            }
        }
        if (bad) {
            for (int q = 0; q < LSE_SCAN_BLOCK; q++)
                cc_row(x, y, off[q], k, excl, dt, &m, &s0, &s1, &knan, &kinf, &kio);
        } else {
            for (int q = 0; q < LSE_SCAN_BLOCK; q++)
                e[q] = Sleef_expf16_u10avx512f(_mm512_sub_ps(e[q], m));
            for (int q = 0; q < LSE_SCAN_BLOCK; q++) {
                const __m512 sb = pd_to_ps(s0, s1);
                s0 = _mm512_add_pd(s0, lo_pd(e[q]));
                s1 = _mm512_add_pd(s1, hi_pd(e[q]));
                e[q] = excl ? sb : pd_to_ps(s0, s1);
            }
            for (int q = 0; q < LSE_SCAN_BLOCK; q++) {
                const __m512 out = _mm512_add_ps(m, Sleef_logf16_u10avx512f(e[q]));
                stm(y, off[q], _mm512_mask_mov_ps(out, kio, _mm512_set1_ps(INFINITY)), k, dt);
            }
        }
    }
    st->m = m, st->s0 = s0, st->s1 = s1;
    st->knan = knan, st->kinf = kinf, st->kio = kio;
}

/* Columns in blocks of LSE_COLS_W (states on the stack), each block's rows
 * LSE_SCAN_BLOCK at a time across its whole width (as rc_run). */
AXIAL_INLINE void cc_run(const void *x, void *y, size_t n, size_t inner, size_t ncols, int excl,
                         int rev, enum lse_dt dt) {
    for (size_t c0 = 0; c0 < ncols; c0 += LSE_COLS_W) {
        const size_t cw = ncols - c0 < LSE_COLS_W ? ncols - c0 : LSE_COLS_W;
        const size_t nt = (cw + 15) / 16, es = dt == D_F32 ? 4 : 2;
        cc_state st[LSE_COLS_W / 16];
        for (size_t q = 0; q < nt; q++) {
            st[q].m = _mm512_set1_ps(-FLT_MAX);
            st[q].s0 = st[q].s1 = _mm512_setzero_pd();
            st[q].knan = st[q].kinf = st[q].kio = 0;
        }
        for (size_t t = 0; t < n; t += LSE_SCAN_BLOCK) {
            for (size_t q = 0; q < nt; q++) {
                pf_tile(x, n, t + LSE_SCAN_BLOCK, inner, c0 + 16 * q, rev, es);
                if (y != x)
                    pf_tile(y, n, t + LSE_SCAN_BLOCK, inner, c0 + 16 * q, rev, es);
                cc_block(x, y, n, t, inner, c0 + 16 * q, mask16(cw - 16 * q), excl, rev, dt,
                         &st[q]);
            }
        }
    }
}

AXIAL_INLINE void logcumsumexp_f(const void *x, void *y, size_t outer, size_t n, size_t inner,
                                 unsigned flags, enum lse_dt dt) {
    const size_t es = dt == D_F32 ? 4 : 2;
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const int rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    for (size_t o = 0; o < outer; o++) {
        const char *xo = (const char *)x + o * n * inner * es;
        char *yo = (char *)y + o * n * inner * es;
        if (inner == 1) {
            cl_seg(xo, yo, n, flags, dt, AXIAL_LSE_EMPTY);
            continue;
        }
        cc_run(xo, yo, n, inner, inner, excl, rev, dt);
    }
}

/* ============================ f64 compute: F64 ============================ */

AXIAL_INLINE __mmask8 mask8(size_t k) { return (__mmask8)(k >= 8 ? 0xffu : (1u << k) - 1); }
AXIAL_INLINE __m512d ldm_d(const double *p, __mmask8 k) {
    return _mm512_mask_loadu_pd(_mm512_set1_pd(-INFINITY), k, p);
}
/* Reduce: a block of 4 vectors (32 elements) of a line, or 8 rows of a
 * column tile; m, s per lane.  F64 raises a reference to the block maximum
 * itself (no lag). */
AXIAL_INLINE void d_rescale(__m512d b, __m512d *m, __m512d *s) {
    const __mmask8 up = _mm512_cmp_pd_mask(b, *m, _CMP_GT_OQ);
    if (up) {
        const __m512d nm = _mm512_mask_mov_pd(*m, up, b);
        *s = _mm512_mask_mul_pd(*s, up, *s, Sleef_expd8_u10avx512f(_mm512_sub_pd(*m, nm)));
        *m = nm;
    }
}

static axial_lse_acc rl_line_d(const double *x, size_t n) {
    __m512d m = _mm512_set1_pd(-DBL_MAX), s = _mm512_setzero_pd();
    for (size_t j = 0; j < n; j += 32) {
        __m512d v[4];
        const size_t cnt = n - j;
        for (int q = 0; q < 4; q++)
            v[q] = cnt >= 32 ? _mm512_loadu_pd(x + j + 8 * q)
                             : ldm_d(x + j + 8 * q, mask8(cnt > 8 * (size_t)q ? cnt - 8 * (size_t)q : 0));
        d_rescale(_mm512_max_pd(_mm512_max_pd(v[0], v[1]), _mm512_max_pd(v[2], v[3])), &m, &s);
        __m512d e[4];
        for (int q = 0; q < 4; q++)
            e[q] = Sleef_expd8_u10avx512f(_mm512_sub_pd(v[q], m));
        s = _mm512_add_pd(s, _mm512_add_pd(_mm512_add_pd(e[0], e[1]), _mm512_add_pd(e[2], e[3])));
    }
    if (_mm512_cmp_pd_mask(_mm512_sub_pd(s, s), _mm512_setzero_pd(), _CMP_NEQ_UQ)) {
        const axial_lse_acc r = {lse_rescan(x, n, 1, 1, D_F32), 1.0};
        return r;
    }
    return merge_lanes(m, _mm512_set1_pd(-DBL_MAX), s, _mm512_setzero_pd());
}

/* Rows [j, j + r) (r <= 8) of a tile of 8 columns (x at its first). */
AXIAL_INLINE void rc_rows_d(const double *x, size_t j, size_t r, size_t inner, __mmask8 k,
                            __m512d *m,
                            __m512d *s) {
    __m512d b = ldm_d(x + j * inner, k);
    for (size_t q = 1; q < r; q++)
        b = _mm512_max_pd(b, ldm_d(x + (j + q) * inner, k));
    d_rescale(b, m, s);
    __m512d t = _mm512_setzero_pd();
    for (size_t q = 0; q < r; q++)
        t = _mm512_add_pd(
            t, Sleef_expd8_u10avx512f(_mm512_sub_pd(ldm_d(x + (j + q) * inner, k), *m)));
    *s = _mm512_add_pd(*s, t);
}

static void reduce_lse_d(const double *x, double *y, axial_lse_acc *acc, size_t outer, size_t n,
                         size_t inner, size_t ncols) {
    for (size_t o = 0; o < outer; o++) {
        const double *xo = x + o * n * inner;
        if (inner == 1) {
            const axial_lse_acc r = rl_line_d(xo, n);
            if (acc)
                axial_lse_add(&acc[o], r.m, r.s);
            else
                y[o] = axial_lse_value(r);
            continue;
        }
        /* as rc_run: LSE_COLS_W_D columns per walk over the rows */
        for (size_t c0 = 0; c0 < ncols; c0 += LSE_COLS_W_D) {
            const size_t cw = ncols - c0 < LSE_COLS_W_D ? ncols - c0 : LSE_COLS_W_D;
            const size_t nt = (cw + 7) / 8;
            __m512d mt[LSE_COLS_W_D / 8], st[LSE_COLS_W_D / 8];
            for (size_t q = 0; q < nt; q++)
                mt[q] = _mm512_set1_pd(-DBL_MAX), st[q] = _mm512_setzero_pd();
            for (size_t j = 0; j < n; j += 8) {
                for (size_t q = 0; q < nt; q++) {
                    pf_tile(xo, n, j + 8, inner, c0 + 8 * q, 0, 8);
                    rc_rows_d(xo + c0 + 8 * q, j, n - j < 8 ? n - j : 8, inner,
                              mask8(cw - 8 * q), &mt[q], &st[q]);
                }
            }
            for (size_t q = 0; q < nt; q++) {
                const size_t c = c0 + 8 * q, w = cw - 8 * q < 8 ? cw - 8 * q : 8;
                const __m512d m = mt[q], s = st[q];
                double ms[8], ss[8], ys[8];
                _mm512_storeu_pd(ms, m);
                _mm512_storeu_pd(ss, s);
                _mm512_storeu_pd(ys, _mm512_add_pd(m, Sleef_logd8_u10avx512f(s)));
                for (size_t i = 0; i < w; i++) {
                    if (acc) {
                        axial_lse_acc *a = &acc[o * ncols + c + i];
                        if (!isfinite(ss[i]))
                            axial_lse_add(a, lse_rescan(xo + c + i, n, inner, 1, D_F32), 1.0);
                        else if (ss[i] > 0)
                            axial_lse_add(a, ms[i], ss[i]);
                    } else {
                        y[o * ncols + c + i] =
                            isfinite(ss[i]) ? ys[i] : lse_rescan(xo + c + i, n, inner, 1, D_F32);
                    }
                }
            }
        }
    }
}

static void cl_scalar_d(const double *x, double *y, size_t base, size_t k, int excl, int rev,
                        double *m, double *s, axial_lse_acc R, int emit) {
    for (size_t l = 0; l < k; l++) {
        const size_t j = rev ? base + k - 1 - l : base + l;
        const double v = x[j];
        if (emit && excl)
            y[j] = lse_val_from(R, *m, *s);
        lse_step(m, s, v);
        if (emit && !excl)
            y[j] = lse_val_from(R, *m, *s);
    }
}

/* As cl_chunk, for F64 (the outputs' a + b s and log in f64; a rise beyond
 * LSE_SCAN_RISE takes the scalar step, there is no wider step). */
AXIAL_INLINE axial_lse_acc cl_chunk_d_run(const double *x, double *y, size_t n, unsigned flags,
                                          axial_lse_acc R, int emit, int mixed) {
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const int rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    const __m512i lane = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    double mr = -DBL_MAX, S = 0;
    lse_mix mx = mix_of(R, mr);
    const __m512i ridx = _mm512_sub_epi64(_mm512_set1_epi64(7), lane);
    const int rbad = emit && (isnan(R.m) || R.m == INFINITY);
    size_t stop = rbad ? n : 0; /* the per-vector path runs up to here */
    for (size_t t = 0; t < n;) {
        if (t >= stop && n - t >= 8 * LSE_SCAN_BLOCK) {
            /* as cl_chunk: a block with no NaN, no +inf and a safe rise */
            const size_t base = rev ? n - t - 8 * LSE_SCAN_BLOCK : t;
            __m512d v[LSE_SCAN_BLOCK], b = _mm512_set1_pd(-INFINITY);
            __mmask8 bad = 0;
            for (int q = 0; q < LSE_SCAN_BLOCK; q++) {
                v[q] = rev ? _mm512_permutexvar_pd(
                                 ridx, _mm512_loadu_pd(x + base + 8 * (size_t)(LSE_SCAN_BLOCK - 1 - q)))
                           : _mm512_loadu_pd(x + base + 8 * (size_t)q);
                bad |= _mm512_fpclass_pd_mask(v[q], FP_NAN_PINF);
                b = _mm512_max_pd(b, v[q]);
            }
            if (!bad && _mm512_cmp_pd_mask(b, _mm512_set1_pd(mr), _CMP_GT_OQ)) {
                const double B = _mm512_reduce_max_pd(b), x0 = _mm512_cvtsd_f64(v[0]);
                const double P = excl ? (S == 0 ? x0 : mr) : (x0 > mr ? x0 : mr);
                if (B - P > LSE_SCAN_RISE) {
                    bad = 1;
                } else {
                    S = S == 0 ? 0 : S * exp(mr - B);
                    mr = B;
                    if (emit)
                        mx = mix_of(R, mr);
                }
            }
            const __m512d vm = _mm512_set1_pd(mr);
            if (!bad) {
                __m512d sf[LSE_SCAN_BLOCK];
                const __m512d va = _mm512_set1_pd(mx.a), vb = _mm512_set1_pd(mx.b);
                for (int q = 0; q < LSE_SCAN_BLOCK; q++)
                    sf[q] = Sleef_expd8_u10avx512f(_mm512_sub_pd(v[q], vm));
                for (int q = 0; q < LSE_SCAN_BLOCK; q++) {
                    const __m512d p = prefix_pd(sf[q]);
                    if (emit)
                        sf[q] = mix_pd(mixed, va, vb,
                                       _mm512_add_pd(_mm512_set1_pd(S), excl ? up_pd(p, 1) : p));
                    S += _mm512_cvtsd_f64(_mm512_permutexvar_pd(_mm512_set1_epi64(7), p));
                }
                if (emit) {
                    const __m512d vref = _mm512_set1_pd(mx.ref);
                    for (int q = 0; q < LSE_SCAN_BLOCK; q++) {
                        const __m512d out = _mm512_add_pd(vref, Sleef_logd8_u10avx512f(sf[q]));
                        if (rev)
                            _mm512_storeu_pd(y + base + 8 * (size_t)(LSE_SCAN_BLOCK - 1 - q),
                                             _mm512_permutexvar_pd(ridx, out));
                        else
                            _mm512_storeu_pd(y + base + 8 * (size_t)q, out);
                    }
                }
                t += 8 * LSE_SCAN_BLOCK;
                continue;
            }
            stop = t + 8;
        }
        const size_t k = n - t < 8 ? n - t : 8;
        const __mmask8 km = mask8(k);
        const size_t base = rev ? n - t - k : t;
        __m512d v = ldm_d(x + base, km);
        __m512i idx = lane;
        if (rev) {
            idx = _mm512_and_si512(_mm512_sub_epi64(_mm512_set1_epi64((long long)k - 1), lane),
                                   _mm512_set1_epi64(7));
            v = _mm512_mask_permutexvar_pd(_mm512_set1_pd(-INFINITY), km, idx, v);
        }
        int scalar = rbad || _mm512_fpclass_pd_mask(v, FP_NAN_PINF) != 0;
        if (!scalar && _mm512_cmp_pd_mask(v, _mm512_set1_pd(mr), _CMP_GT_OQ)) {
            const double B = _mm512_reduce_max_pd(v);
            const double x0 = _mm512_cvtsd_f64(v);
            const double P = excl ? (S == 0 ? x0 : mr) : (x0 > mr ? x0 : mr);
            if (B - P > LSE_SCAN_RISE) {
                scalar = 1;
            } else {
                S = S == 0 ? 0 : S * exp(mr - B);
                mr = B;
                if (emit)
                    mx = mix_of(R, mr);
            }
        }
        if (scalar) {
            double m = S == 0 ? -INFINITY : mr, s = S;
            cl_scalar_d(x, y, base, k, excl, rev, &m, &s, R, emit);
            t += k;
            if (isnan(m) || m == INFINITY || rbad) {
                while (t < n) {
                    const size_t kk = n - t < 8 ? n - t : 8;
                    cl_scalar_d(x, y, rev ? n - t - kk : t, kk, excl, rev, &m, &s, R, emit);
                    t += kk;
                }
                return (axial_lse_acc){m, s};
            }
            mr = m == -INFINITY ? -DBL_MAX : m;
            S = s;
            if (emit)
                mx = mix_of(R, mr);
            continue;
        }
        const __m512d vm = _mm512_set1_pd(mr);
        const __m512d p = prefix_pd(Sleef_expd8_u10avx512f(_mm512_sub_pd(v, vm)));
        if (emit) {
            const __m512d q = excl ? up_pd(p, 1) : p;
            const __m512d sq = mix_pd(mixed, _mm512_set1_pd(mx.a), _mm512_set1_pd(mx.b),
                                      _mm512_add_pd(_mm512_set1_pd(S), q));
            __m512d out = _mm512_add_pd(_mm512_set1_pd(mx.ref), Sleef_logd8_u10avx512f(sq));
            if (rev)
                out = _mm512_permutexvar_pd(idx, out);
            _mm512_mask_storeu_pd(y + base, km, out);
        }
        S += _mm512_cvtsd_f64(_mm512_permutexvar_pd(_mm512_set1_epi64(7), p));
        t += k;
    }
    return (axial_lse_acc){S == 0 ? -INFINITY : mr, S};
}

/* As cl_chunk (in f64, a would underflow for a chunk 745 above its carry). */
AXIAL_INLINE axial_lse_acc cl_chunk_d(const double *x, double *y, size_t n, unsigned flags,
                                      axial_lse_acc R, int emit) {
    const axial_lse_acc T = R.m == -INFINITY ? cl_chunk_d_run(x, y, n, flags, R, emit, 0)
                                             : cl_chunk_d_run(x, y, n, flags, R, emit, 1);
    if (emit && (flags & AXIAL_CUMSUM_EXCLUSIVE) && n > 0)
        y[flags & AXIAL_CUMSUM_REVERSE ? n - 1 : 0] = axial_lse_value(R);
    return T;
}

/* As cl_seg, for F64. */
static axial_lse_acc cl_seg_d(const double *x, double *y, size_t len, unsigned flags,
                              axial_lse_acc R) {
    const int rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    for (size_t c0 = 0; c0 < len; c0 += AXIAL_SCAN_CHUNK) {
        const size_t k = len - c0 < AXIAL_SCAN_CHUNK ? len - c0 : AXIAL_SCAN_CHUNK;
        const size_t lo = rev ? len - c0 - k : c0;
        const axial_lse_acc T = cl_chunk_d(x + lo, y + lo, k, flags, R, 1);
        if (k == AXIAL_SCAN_CHUNK)
            axial_lse_add(&R, T.m, T.s);
    }
    return R;
}

AXIAL_INLINE __m512d cc_out_d(__m512d m, __m512d s, __mmask8 kio) {
    return _mm512_mask_mov_pd(_mm512_add_pd(m, Sleef_logd8_u10avx512f(s)), kio,
                              _mm512_set1_pd(INFINITY));
}

static void cc_row_d(const double *x, double *y, size_t off, __mmask8 k, int excl, __m512d *m,
                     __m512d *s, __mmask8 *knan, __mmask8 *kinf, __mmask8 *kio) {
    const __m512d v = ldm_d(x + off, k);
    if (excl)
        _mm512_mask_storeu_pd(y + off, k, cc_out_d(*m, *s, *kio));
    if (_mm512_fpclass_pd_mask(v, FP_NAN_PINF)) {
        *knan |= _mm512_cmp_pd_mask(v, v, _CMP_UNORD_Q);
        *kinf |= _mm512_cmp_pd_mask(v, _mm512_set1_pd(INFINITY), _CMP_EQ_OQ);
        *kio = *kinf & (__mmask8)~*knan;
    }
    d_rescale(v, m, s);
    *s = _mm512_add_pd(*s, Sleef_expd8_u10avx512f(_mm512_sub_pd(v, *m)));
    if (!excl)
        _mm512_mask_storeu_pd(y + off, k, cc_out_d(*m, *s, *kio));
}

/* The state of a column tile of LogCumSumExp, f64. */
typedef struct {
    __m512d m, s;
    __mmask8 knan, kinf, kio;
} cc_state_d;

/* As cc_block, in f64 (x, y at the tile's first column). */
AXIAL_INLINE void cc_block_d(const double *x, double *y, size_t n, size_t t, size_t inner,
                             __mmask8 k,
                             int excl, int rev, cc_state_d *st) {
    __m512d m = st->m, s = st->s;
    __mmask8 knan = st->knan, kinf = st->kinf, kio = st->kio;
    if (t + LSE_SCAN_BLOCK > n) {
        for (; t < n; t++)
            cc_row_d(x, y, (rev ? n - 1 - t : t) * inner, k, excl, &m, &s, &knan, &kinf, &kio);
    } else {
        size_t off[LSE_SCAN_BLOCK];
        __m512d e[LSE_SCAN_BLOCK], b = _mm512_set1_pd(-INFINITY);
        __mmask8 bad = 0;
        for (int q = 0; q < LSE_SCAN_BLOCK; q++) {
            off[q] = (rev ? n - 1 - (t + (size_t)q) : t + (size_t)q) * inner;
            e[q] = ldm_d(x + off[q], k);
            bad |= _mm512_fpclass_pd_mask(e[q], FP_NAN_PINF);
            b = _mm512_max_pd(b, e[q]);
        }
        const __mmask8 up = bad ? 0 : _mm512_cmp_pd_mask(b, m, _CMP_GT_OQ);
        if (up) {
            const __mmask8 nz = _mm512_cmp_pd_mask(s, _mm512_setzero_pd(), _CMP_NEQ_UQ);
            const __m512d P = excl ? _mm512_mask_mov_pd(e[0], nz, m) : _mm512_max_pd(m, e[0]);
            if (_mm512_mask_cmp_pd_mask(up, _mm512_sub_pd(b, P), _mm512_set1_pd(LSE_SCAN_RISE),
                                        _CMP_NLE_UQ)) {
                bad = 1;
            } else {
                const __m512d nm = _mm512_mask_mov_pd(m, up, b);
                if (up & nz)
                    s = _mm512_mask_mul_pd(s, up & nz, s,
                                           Sleef_expd8_u10avx512f(_mm512_sub_pd(m, nm)));
                m = nm;
            }
        }
        if (bad) {
            for (int q = 0; q < LSE_SCAN_BLOCK; q++)
                cc_row_d(x, y, off[q], k, excl, &m, &s, &knan, &kinf, &kio);
        } else {
            for (int q = 0; q < LSE_SCAN_BLOCK; q++)
                e[q] = Sleef_expd8_u10avx512f(_mm512_sub_pd(e[q], m));
            for (int q = 0; q < LSE_SCAN_BLOCK; q++) {
                const __m512d sb = s;
                s = _mm512_add_pd(s, e[q]);
                e[q] = excl ? sb : s;
            }
            for (int q = 0; q < LSE_SCAN_BLOCK; q++)
                _mm512_mask_storeu_pd(y + off[q], k, cc_out_d(m, e[q], kio));
        }
    }
    st->m = m, st->s = s;
    st->knan = knan, st->kinf = kinf, st->kio = kio;
}

/* As cc_run, in f64: LSE_COLS_W_D columns per walk over the rows. */
static void cc_run_d(const double *x, double *y, size_t n, size_t inner, size_t ncols, int excl,
                     int rev) {
    for (size_t c0 = 0; c0 < ncols; c0 += LSE_COLS_W_D) {
        const size_t cw = ncols - c0 < LSE_COLS_W_D ? ncols - c0 : LSE_COLS_W_D;
        const size_t nt = (cw + 7) / 8;
        cc_state_d st[LSE_COLS_W_D / 8];
        for (size_t q = 0; q < nt; q++) {
            st[q].m = _mm512_set1_pd(-DBL_MAX);
            st[q].s = _mm512_setzero_pd();
            st[q].knan = st[q].kinf = st[q].kio = 0;
        }
        for (size_t t = 0; t < n; t += LSE_SCAN_BLOCK) {
            for (size_t q = 0; q < nt; q++) {
                pf_tile(x, n, t + LSE_SCAN_BLOCK, inner, c0 + 8 * q, rev, 8);
                if (y != x)
                    pf_tile(y, n, t + LSE_SCAN_BLOCK, inner, c0 + 8 * q, rev, 8);
                cc_block_d(x + c0 + 8 * q, y + c0 + 8 * q, n, t, inner, mask8(cw - 8 * q), excl,
                           rev, &st[q]);
            }
        }
    }
}

static void logcumsumexp_d(const double *x, double *y, size_t outer, size_t n, size_t inner,
                           unsigned flags) {
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const int rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    for (size_t o = 0; o < outer; o++) {
        const double *xo = x + o * n * inner;
        double *yo = y + o * n * inner;
        if (inner == 1) {
            cl_seg_d(xo, yo, n, flags, AXIAL_LSE_EMPTY);
            continue;
        }
        cc_run_d(xo, yo, n, inner, inner, excl, rev);
    }
}

/* ============================== entry points ==============================
 * The column tiles of a split (logcumsumexp_cols, reduce_lse_cols) run the
 * column paths with the tile's column count apart from the row stride.  The
 * planner cuts tiles on 64-byte lines of a row (whole vector tiles), so every
 * vector holds the same columns, under the same mask, as in the whole-shape
 * call: the same bits, including the decisions a block takes for its whole
 * vector (fallbacks, references). */

#define AXIAL_LSE_F(name, DT)                                                                  \
    void axial_logcumsumexp_##name##__avx512(const void *x, void *y, size_t outer, size_t n,  \
                                             size_t inner, unsigned flags) {                  \
        logcumsumexp_f(x, y, outer, n, inner, flags, DT);                                     \
    }                                                                                         \
    void axial_reduce_lse_##name##__avx512(const void *x, void *y, size_t outer, size_t n,    \
                                           size_t inner, unsigned flags) {                    \
        (void)flags; /* writes one output per row: never streams */                           \
        reduce_lse_f(x, y, NULL, outer, n, inner, DT);                                        \
    }                                                                                         \
    void axial_reduce_lse_acc_##name##__avx512(const void *x, void *acc, size_t outer,        \
                                               size_t n, size_t inner) {                      \
        reduce_lse_f(x, NULL, (axial_lse_acc *)acc, outer, n, inner, DT);                     \
    }                                                                                         \
    void axial_logcumsumexp_cols_##name##__avx512(const void *x, void *y, size_t n,           \
                                                  size_t ncols, size_t stride, unsigned flags) { \
        cc_run(x, y, n, stride, ncols, (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0,                 \
               (flags & AXIAL_CUMSUM_REVERSE) != 0, DT);                                      \
    }                                                                                         \
    void axial_reduce_lse_cols_##name##__avx512(const void *x, void *y, size_t n, size_t ncols, \
                                                size_t stride) {                              \
        rc_run(x, y, NULL, 1, n, stride, ncols, DT);                                          \
    }                                                                                         \
    axial_lse_acc axial_logcumsumexp_seg_##name##__avx512(const void *x, void *y, size_t len, \
                                                          unsigned flags, axial_lse_acc carry) { \
        return cl_seg(x, y, len, flags, DT, carry);                                           \
    }                                                                                         \
    axial_lse_acc axial_lse_scan_total_##name##__avx512(const void *x, size_t len,            \
                                                        unsigned flags) {                     \
        return cl_chunk(x, NULL, len, flags, DT, AXIAL_LSE_EMPTY, 0);                         \
    }
AXIAL_LSE_F(f32, D_F32)
AXIAL_LSE_F(f16, D_F16)
AXIAL_LSE_F(bf16, D_BF16)

void axial_logcumsumexp_f64__avx512(const void *x, void *y, size_t outer, size_t n, size_t inner,
                                    unsigned flags) {
    logcumsumexp_d((const double *)x, (double *)y, outer, n, inner, flags);
}
void axial_reduce_lse_f64__avx512(const void *x, void *y, size_t outer, size_t n, size_t inner,
                                  unsigned flags) {
    (void)flags; /* never streams */
    reduce_lse_d((const double *)x, (double *)y, NULL, outer, n, inner, inner);
}
void axial_reduce_lse_acc_f64__avx512(const void *x, void *acc, size_t outer, size_t n,
                                      size_t inner) {
    reduce_lse_d((const double *)x, NULL, (axial_lse_acc *)acc, outer, n, inner, inner);
}
/* The column tiles: the column paths above on columns [0, ncols) of rows
 * `stride` apart (reduce_lse_d's inner == 1 branch is never taken: a tile's
 * rows hold more than one 64-byte line). */
void axial_logcumsumexp_cols_f64__avx512(const void *x, void *y, size_t n, size_t ncols,
                                         size_t stride, unsigned flags) {
    cc_run_d((const double *)x, (double *)y, n, stride, ncols,
             (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0, (flags & AXIAL_CUMSUM_REVERSE) != 0);
}
void axial_reduce_lse_cols_f64__avx512(const void *x, void *y, size_t n, size_t ncols,
                                       size_t stride) {
    reduce_lse_d((const double *)x, (double *)y, NULL, 1, n, stride, ncols);
}
axial_lse_acc axial_logcumsumexp_seg_f64__avx512(const void *x, void *y, size_t len,
                                                 unsigned flags, axial_lse_acc carry) {
    return cl_seg_d((const double *)x, (double *)y, len, flags, carry);
}
axial_lse_acc axial_lse_scan_total_f64__avx512(const void *x, size_t len, unsigned flags) {
    return cl_chunk_d((const double *)x, NULL, len, flags, AXIAL_LSE_EMPTY, 0);
}
