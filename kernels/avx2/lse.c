/* SPDX-License-Identifier: MIT */
/*
 * lse.c: AVX2 + FMA + F16C LogCumSumExp and ReduceLogSumExp for the float
 * dtypes (kernels.h, "log semiring"; reduce_lse_finish is the scalar one).
 * The per-element exp and log are SLEEF's 1-ulp AVX2 functions; libm does
 * only per-line bookkeeping (a carry's rescale, a final merge).
 *
 * Order: the log-space ops are outside the one summation order of the plain
 * sums (docs/API.md section 15): each ISA meets the bound, the bits may differ
 * between ISAs but never depend on the thread count.  Every output keeps a
 * state (m, s), m the largest term and s the sum of exp(term - m) in f64; only
 * short runs of exps (at most 32) are summed in C (f32 for f32/f16/bf16,
 * widened exactly on load and rounded once at the store; f64 for f64), so no
 * error grows with the length.  Lines are scanned in chunks of
 * AXIAL_SCAN_CHUNK from the scan's start, each from an empty state merged with
 * the carry of the chunks before it (lse_mix), so a split along a line gives
 * the one call's bits.  Tails go through small buffers padded with -inf.
 *
 * SLEEF's functions clobber every ymm register, so the hot loops run a
 * block's exps first, into an L1 array with nothing live across the calls,
 * and use them after: the calls then overlap like a plain exp loop.
 * Error: a term exp(x - m), x <= m, carries the rounding of x - m and SLEEF's
 * ulp, so s errs by at most 2^-24 (ln n + 2) relative when s >= 1; the sums in
 * C add a few 2^-24, the f64 rescales and carries 2^-53 a step, the log an ulp
 * of ln n, m + log(s) one rounding: about 2^-24 (2 ln n + 8) + ulp/2 for f32,
 * inside the bound with room for the line scan's rise threshold and carry
 * merge (below).  f64: the same at 2^-53, plus the n term of its f64 sums.
 */
#include <float.h>
#include <math.h>
#include <sleef.h>
#include <string.h>

#include "avx2.h"
#include "scalar/convert.h"

enum { LSE_F32, LSE_F16, LSE_BF16, LSE_F64 };

#define LSE_ROWS 16     /* rows of an f64 reduction block; an f32 sum of the column scan */
#define LSE_RED_ROWS 32 /* rows of an f32 reduction block: a tree of depth 5 */
#define LSE_T_F32 12.0f /* scan rise threshold, C = f32 (see lse_scan_vec8) */
#define LSE_T_F64 4.0   /* scan rise threshold, C = f64 */
#define LSE_SCAN_VECS 8 /* vectors of a line-scan chunk (64 f32 terms) */
#define LSE_SCAN_ROWS 8 /* rows of a column-scan block checked at once */
#define LSE_SCAN_PF 16  /* rows ahead that a column scan prefetches */

AXIAL_INLINE size_t lse_es(int k) { return k == LSE_F64 ? 8 : k == LSE_F32 ? 4 : 2; }

/* Column walks over more bytes than this prefetch ahead (lse_pf): the
 * reduction each group's lines of the next row block, the scan x and y
 * LSE_SCAN_PF rows ahead. */
#ifndef LSE_PF_MIN
#define LSE_PF_MIN ((size_t)4 << 20)
#endif
/* Prefetches element i of `rows` rows `stride` elements apart (from the far
 * end with rev: rows i, i - stride, ...) into L1: the rows a column walk
 * reads next, far apart, whose lines the hardware prefetch met out of order
 * or too late (changes no arithmetic). */
AXIAL_INLINE void lse_pf(int k, const void *x, size_t i, size_t stride, size_t rows, int rev) {
    const char *p = (const char *)x + i * lse_es(k);
    const ptrdiff_t step = (rev ? -1 : 1) * (ptrdiff_t)(stride * lse_es(k));
    for (size_t r = 0; r < rows; r++, p += step)
        _mm_prefetch(p, _MM_HINT_T0);
}

/* ---- scalar bits: element <-> double, the scalar step ------------------- */
AXIAL_INLINE double lse_ld1(int k, const void *x, size_t i) {
    if (k == LSE_F32)
        return (double)((const float *)x)[i];
    if (k == LSE_F64)
        return ((const double *)x)[i];
    if (k == LSE_F16)
        return axial_f16_to_double(((const uint16_t *)x)[i]);
    return axial_bf16_to_double(((const uint16_t *)x)[i]);
}
AXIAL_INLINE void lse_st1(int k, void *y, size_t i, double v) {
    if (k == LSE_F32)
        ((float *)y)[i] = (float)v;
    else if (k == LSE_F64)
        ((double *)y)[i] = v;
    else if (k == LSE_F16)
        ((uint16_t *)y)[i] = axial_double_to_f16(v);
    else
        ((uint16_t *)y)[i] = axial_double_to_bf16(v);
}

/* One term into a double state, with the special-value rules: NaN wins for
 * good, then +inf, -inf adds nothing, the first finite term sets m. */
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

/* The state of a special line/column (it holds a NaN or a +inf). */
static axial_lse_acc lse_special(int k, const void *x, size_t i0, size_t n, size_t stride) {
    for (size_t j = 0; j < n; j++)
        if (isnan(lse_ld1(k, x, i0 + j * stride)))
            return (axial_lse_acc){NAN, 0.0};
    return (axial_lse_acc){INFINITY, 0.0};
}

/* ---- 8 lanes of f32 ------------------------------------------------------ */
AXIAL_INLINE __m256 lse_ld8(int k, const void *x, size_t i) {
    const char *p = (const char *)x + i * lse_es(k);
    if (k == LSE_F32)
        return _mm256_loadu_ps((const float *)(const void *)p);
    if (k == LSE_F16)
        return axial_avx2_load_f16((const uint16_t *)(const void *)p);
    return axial_avx2_load_bf16((const uint16_t *)(const void *)p);
}
AXIAL_INLINE void lse_st8(int k, void *y, size_t i, __m256 v) {
    char *p = (char *)y + i * lse_es(k);
    if (k == LSE_F32)
        _mm256_storeu_ps((float *)(void *)p, v);
    else if (k == LSE_F16)
        _mm_storeu_si128((__m128i *)(void *)p, axial_avx2_f32_to_f16(v));
    else
        _mm_storeu_si128((__m128i *)(void *)p, axial_avx2_f32_to_bf16(v));
}
/* cnt < 8 elements at base.. (rev: lane l = element base + cnt-1-l), the
 * other lanes -inf. */
static __m256 lse_ld8_part(int k, const void *x, size_t base, int cnt, int rev) {
    const size_t es = lse_es(k);
    const uint32_t pad32 = 0xff800000u;
    const uint16_t pad16 = k == LSE_F16 ? 0xfc00u : 0xff80u;
    _Alignas(32) unsigned char b[32];
    for (int l = 0; l < 8; l++) {
        if (l < cnt)
            memcpy(b + l * es, (const char *)x + (base + (size_t)(rev ? cnt - 1 - l : l)) * es, es);
        else if (es == 4)
            memcpy(b + l * es, &pad32, 4);
        else
            memcpy(b + l * es, &pad16, 2);
    }
    return lse_ld8(k, b, 0);
}
static void lse_st8_part(int k, void *y, size_t base, int cnt, int rev, __m256 v) {
    const size_t es = lse_es(k);
    _Alignas(32) unsigned char b[32];
    lse_st8(k, b, 0, v);
    for (int l = 0; l < cnt; l++)
        memcpy((char *)y + (base + (size_t)(rev ? cnt - 1 - l : l)) * es, b + l * es, es);
}
AXIAL_INLINE __m256 lse_ldr(int k, const void *x, size_t i, int cnt) {
    return cnt == 8 ? lse_ld8(k, x, i) : lse_ld8_part(k, x, i, cnt, 0);
}
AXIAL_INLINE __m256 lse_rev8(__m256 v) {
    return _mm256_permutevar8x32_ps(v, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0));
}
AXIAL_INLINE float lse_hmax8(__m256 v) {
    __m128 h = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    h = _mm_max_ps(h, _mm_permute_ps(h, 0x4e));
    h = _mm_max_ps(h, _mm_permute_ps(h, 0xb1));
    return _mm_cvtss_f32(h);
}
/* Inclusive prefix sum of 8 lanes. */
AXIAL_INLINE __m256 lse_pfx8(__m256 e) {
    e = _mm256_add_ps(e, _mm256_castsi256_ps(_mm256_slli_si256(_mm256_castps_si256(e), 4)));
    e = _mm256_add_ps(e, _mm256_castsi256_ps(_mm256_slli_si256(_mm256_castps_si256(e), 8)));
    const __m256 t = _mm256_permute_ps(e, 0xff);
    return _mm256_add_ps(e, _mm256_permute2f128_ps(t, t, 0x08));
}
/* Lanes shifted up by one, lane 0 = f. */
AXIAL_INLINE __m256 lse_up1(__m256 v, __m256 f) {
    return _mm256_blend_ps(_mm256_permutevar8x32_ps(v, _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6)),
                           f, 0x01);
}
AXIAL_INLINE float lse_lane7(__m256 v) {
    return _mm_cvtss_f32(_mm_permute_ps(_mm256_extractf128_ps(v, 1), 0xff));
}
AXIAL_INLINE __m256d lse_lo_pd(__m256 v) { return _mm256_cvtps_pd(_mm256_castps256_ps128(v)); }
AXIAL_INLINE __m256d lse_hi_pd(__m256 v) { return _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)); }
AXIAL_INLINE __m256d lse_mask_lo(__m256 m) {
    return _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(_mm256_castps_si256(m))));
}
AXIAL_INLINE __m256d lse_mask_hi(__m256 m) {
    return _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm256_extracti128_si256(_mm256_castps_si256(m), 1)));
}

/* s *= exp(m_old - m_new) on the lanes in `rose` (f64: the factor's error
 * must not pile up over many rises). */
static void lse_rescale8(__m256 mo, __m256 mn, __m256 rose, __m256d s[2]) {
    const __m256 lo = _mm256_set1_ps(-FLT_MAX);
    mo = _mm256_max_ps(mo, lo);
    mn = _mm256_max_ps(mn, lo);
    const __m256d one = _mm256_set1_pd(1.0);
    const __m256d f0 = Sleef_expd4_u10avx2(_mm256_sub_pd(lse_lo_pd(mo), lse_lo_pd(mn)));
    const __m256d f1 = Sleef_expd4_u10avx2(_mm256_sub_pd(lse_hi_pd(mo), lse_hi_pd(mn)));
    s[0] = _mm256_mul_pd(s[0], _mm256_blendv_pd(one, f0, lse_mask_lo(rose)));
    s[1] = _mm256_mul_pd(s[1], _mm256_blendv_pd(one, f1, lse_mask_hi(rose)));
}

/* ReduceLogSumExp.  Lanes are interleaved positions of a line (rows of 8
 * consecutive elements) or 8 columns of a row (f64: 4).  A block of rows is
 * a max pass (4 independent chains), then, only if some lane's max rose,
 * s *= exp(m_old - m_new) on those lanes, then the exps of x - m summed by a
 * tree in C (f64: 4 accumulators) and added to the f64 s.  A lane whose max
 * is -inf subtracts -FLT_MAX instead (-inf - -inf never happens; its s stays
 * 0).  Vector max drops NaN, but exp(NaN - m) makes s NaN and a +inf term
 * makes m +inf, so a line or column ends "special" iff it holds a NaN or a
 * +inf, and only that one is re-scanned (lse_special): the only fallback.
 *
 * One reduction block: rows r < rows (<= LSE_RED_ROWS) at x[i0 + r * stride],
 * cnt lanes each, into the lane states (m, s). */
AXIAL_INLINE void lse_block8(int k, const void *x, size_t i0, size_t stride, size_t rows, int cnt,
                             __m256 *m, __m256d s[2]) {
    const __m256 ninf = _mm256_set1_ps(-INFINITY);
    __m256 b0 = ninf, b1 = ninf, b2 = ninf, b3 = ninf;
    size_t r = 0;
    for (; r + 4 <= rows; r += 4) { /* max(x, b): a NaN x is dropped here */
        b0 = _mm256_max_ps(lse_ldr(k, x, i0 + (r + 0) * stride, cnt), b0);
        b1 = _mm256_max_ps(lse_ldr(k, x, i0 + (r + 1) * stride, cnt), b1);
        b2 = _mm256_max_ps(lse_ldr(k, x, i0 + (r + 2) * stride, cnt), b2);
        b3 = _mm256_max_ps(lse_ldr(k, x, i0 + (r + 3) * stride, cnt), b3);
    }
    for (; r < rows; r++)
        b0 = _mm256_max_ps(lse_ldr(k, x, i0 + r * stride, cnt), b0);
    const __m256 mn = _mm256_max_ps(_mm256_max_ps(_mm256_max_ps(b0, b1), _mm256_max_ps(b2, b3)), *m);
    const __m256 rose = _mm256_cmp_ps(mn, *m, _CMP_GT_OQ);
    if (_mm256_movemask_ps(rose))
        lse_rescale8(*m, mn, rose, s);
    *m = mn;
    const __m256 me = _mm256_max_ps(mn, _mm256_set1_ps(-FLT_MAX));
    /* the exps into a buffer (nothing live across the calls but `me`),
     * then summed by a tree */
    __m256 e[LSE_RED_ROWS];
    for (r = 0; r < rows; r++)
        e[r] = Sleef_expf8_u10avx2(_mm256_sub_ps(lse_ldr(k, x, i0 + r * stride, cnt), me));
    for (; r < LSE_RED_ROWS; r++)
        e[r] = _mm256_setzero_ps();
    for (size_t h = LSE_RED_ROWS / 2; h >= 1; h /= 2)
        for (r = 0; r < h; r++)
            e[r] = _mm256_add_ps(e[r], e[r + h]);
    const __m256 t = e[0];
    s[0] = _mm256_add_pd(s[0], lse_lo_pd(t));
    s[1] = _mm256_add_pd(s[1], lse_hi_pd(t));
}

/* The lane states of `len` rows at x[i0 + r * stride] (cnt lanes). */
AXIAL_INLINE void lse_rows8(int k, const void *x, size_t i0, size_t stride, size_t len, int cnt,
                            __m256 *m, __m256d s[2]) {
    *m = _mm256_set1_ps(-INFINITY);
    s[0] = s[1] = _mm256_setzero_pd();
    size_t r = 0;
    for (; r + LSE_RED_ROWS <= len; r += LSE_RED_ROWS)
        lse_block8(k, x, i0 + r * stride, stride, LSE_RED_ROWS, cnt, m, s);
    if (r < len)
        lse_block8(k, x, i0 + r * stride, stride, len - r, cnt, m, s);
}

/* The state of one line of n elements at x[i0..]: its lanes merged,
 * M = max m_l, S = sum s_l exp(m_l - M). */
static axial_lse_acc lse_line8(int k, const void *x, size_t i0, size_t n) {
    __m256 m;
    __m256d s[2];
    lse_rows8(k, x, i0, 8, n / 8, 8, &m, s);
    if (n % 8) /* the partial row, one more block */
        lse_block8(k, x, i0 + n / 8 * 8, 8, 1, (int)(n % 8), &m, s);
    const float mx = lse_hmax8(m);
    const __m256d u = _mm256_add_pd(s[0], s[1]); /* NaN in either half shows here */
    if (mx == INFINITY || _mm256_movemask_pd(_mm256_cmp_pd(u, u, _CMP_UNORD_Q)))
        return lse_special(k, x, i0, n, 1); /* before -inf: NaN among -inf keeps m -inf */
    if (mx == -INFINITY)
        return AXIAL_LSE_EMPTY;
    const __m256d M = _mm256_set1_pd((double)mx);
    const __m256d f0 = Sleef_expd4_u10avx2(_mm256_sub_pd(lse_lo_pd(m), M));
    const __m256d f1 = Sleef_expd4_u10avx2(_mm256_sub_pd(lse_hi_pd(m), M));
    const __m256d t = _mm256_add_pd(_mm256_mul_pd(s[0], f0), _mm256_mul_pd(s[1], f1));
    __m128d h = _mm_add_pd(_mm256_castpd256_pd128(t), _mm256_extractf128_pd(t, 1));
    h = _mm_add_sd(h, _mm_unpackhi_pd(h, h));
    return (axial_lse_acc){(double)mx, _mm_cvtsd_f64(h)};
}

/* The states of ncols (<= LSE_WIN) columns of n rows, rows `stride` apart:
 * the row blocks outermost, so each block's rows are read whole (from L1 in
 * both passes) and the lane states wait in a small array. */
#define LSE_WIN 256 /* 7 KiB of stack for the states */
static void lse_cols8(int k, const void *x, size_t i0, size_t n, size_t stride, size_t ncols,
                      axial_lse_acc *out) {
    __m256 m[LSE_WIN / 8];
    __m256d s[LSE_WIN / 8][2];
    const size_t nch = (ncols + 7) / 8;
    for (size_t c = 0; c < nch; c++)
        m[c] = _mm256_set1_ps(-INFINITY), s[c][0] = s[c][1] = _mm256_setzero_pd();
    const int pf = n * stride * lse_es(k) > LSE_PF_MIN;
    for (size_t r = 0; r < n; r += LSE_RED_ROWS) {
        const size_t rows = n - r < LSE_RED_ROWS ? n - r : LSE_RED_ROWS;
        const size_t next = n - r - rows < LSE_RED_ROWS ? n - r - rows : LSE_RED_ROWS;
        size_t c = 0;
        for (; c < ncols / 8; c++) {
            if (pf)
                lse_pf(k, x, i0 + (r + rows) * stride + c * 8, stride, next, 0);
            lse_block8(k, x, i0 + r * stride + c * 8, stride, rows, 8, &m[c], s[c]);
        }
        if (c < nch)
            lse_block8(k, x, i0 + r * stride + c * 8, stride, rows, (int)(ncols % 8), &m[c], s[c]);
    }
    for (size_t c = 0; c < nch; c++) {
        float mm[8];
        double ss[8];
        _mm256_storeu_ps(mm, m[c]);
        _mm256_storeu_pd(ss, s[c][0]);
        _mm256_storeu_pd(ss + 4, s[c][1]);
        for (size_t l = 0; l < 8 && c * 8 + l < ncols; l++) {
            if (mm[l] == INFINITY || isnan(ss[l]))
                out[c * 8 + l] = lse_special(k, x, i0 + c * 8 + l, n, stride);
            else if (mm[l] == -INFINITY)
                out[c * 8 + l] = AXIAL_LSE_EMPTY;
            else
                out[c * 8 + l] = (axial_lse_acc){(double)mm[l], ss[l]};
        }
    }
}

/* ---- 4 lanes of f64 ------------------------------------------------------ */
static __m256d lse_ld4_part(const double *x, size_t base, int cnt, int rev) {
    double b[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
    for (int l = 0; l < cnt; l++)
        b[l] = x[base + (size_t)(rev ? cnt - 1 - l : l)];
    return _mm256_loadu_pd(b);
}
static void lse_st4_part(double *y, size_t base, int cnt, int rev, __m256d v) {
    double b[4];
    _mm256_storeu_pd(b, v);
    for (int l = 0; l < cnt; l++)
        y[base + (size_t)(rev ? cnt - 1 - l : l)] = b[l];
}
AXIAL_INLINE __m256d lse_ldr4(const double *x, size_t i, int cnt) {
    return cnt == 4 ? _mm256_loadu_pd(x + i) : lse_ld4_part(x, i, cnt, 0);
}
AXIAL_INLINE __m256d lse_rev4(__m256d v) { return _mm256_permute4x64_pd(v, 0x1b); }
AXIAL_INLINE double lse_hmax4(__m256d v) {
    __m128d h = _mm_max_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    h = _mm_max_sd(h, _mm_unpackhi_pd(h, h));
    return _mm_cvtsd_f64(h);
}
AXIAL_INLINE __m256d lse_pfx4(__m256d e) {
    const __m256d z = _mm256_setzero_pd();
    e = _mm256_add_pd(e, _mm256_blend_pd(_mm256_permute4x64_pd(e, 0x90), z, 0x1));
    return _mm256_add_pd(e, _mm256_blend_pd(_mm256_permute4x64_pd(e, 0x40), z, 0x3));
}

AXIAL_INLINE void lse_block4(const double *x, size_t i0, size_t stride, size_t rows, int cnt,
                             __m256d *m, __m256d *s) {
    const __m256d ninf = _mm256_set1_pd(-INFINITY);
    __m256d b0 = ninf, b1 = ninf, b2 = ninf, b3 = ninf;
    size_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        b0 = _mm256_max_pd(lse_ldr4(x, i0 + (r + 0) * stride, cnt), b0);
        b1 = _mm256_max_pd(lse_ldr4(x, i0 + (r + 1) * stride, cnt), b1);
        b2 = _mm256_max_pd(lse_ldr4(x, i0 + (r + 2) * stride, cnt), b2);
        b3 = _mm256_max_pd(lse_ldr4(x, i0 + (r + 3) * stride, cnt), b3);
    }
    for (; r < rows; r++)
        b0 = _mm256_max_pd(lse_ldr4(x, i0 + r * stride, cnt), b0);
    const __m256d mn = _mm256_max_pd(_mm256_max_pd(_mm256_max_pd(b0, b1), _mm256_max_pd(b2, b3)), *m);
    const __m256d lo = _mm256_set1_pd(-DBL_MAX);
    const __m256d me = _mm256_max_pd(mn, lo);
    const __m256d rose = _mm256_cmp_pd(mn, *m, _CMP_GT_OQ);
    if (_mm256_movemask_pd(rose)) {
        const __m256d f = Sleef_expd4_u10avx2(_mm256_sub_pd(_mm256_max_pd(*m, lo), me));
        *s = _mm256_mul_pd(*s, _mm256_blendv_pd(_mm256_set1_pd(1.0), f, rose));
    }
    *m = mn;
    const __m256d z = _mm256_setzero_pd();
    __m256d a0 = z, a1 = z, a2 = z, a3 = z;
    r = 0;
    for (; r + 4 <= rows; r += 4) {
#define LSE_E4(q) Sleef_expd4_u10avx2(_mm256_sub_pd(lse_ldr4(x, i0 + (r + (q)) * stride, cnt), me))
        a0 = _mm256_add_pd(a0, LSE_E4(0));
        a1 = _mm256_add_pd(a1, LSE_E4(1));
        a2 = _mm256_add_pd(a2, LSE_E4(2));
        a3 = _mm256_add_pd(a3, LSE_E4(3));
    }
    for (; r < rows; r++)
        a0 = _mm256_add_pd(a0, LSE_E4(0));
#undef LSE_E4
    *s = _mm256_add_pd(*s, _mm256_add_pd(_mm256_add_pd(a0, a1), _mm256_add_pd(a2, a3)));
}

AXIAL_INLINE void lse_rows4(const double *x, size_t i0, size_t stride, size_t len, int cnt,
                            __m256d *m, __m256d *s) {
    *m = _mm256_set1_pd(-INFINITY);
    *s = _mm256_setzero_pd();
    size_t r = 0;
    for (; r + LSE_ROWS <= len; r += LSE_ROWS)
        lse_block4(x, i0 + r * stride, stride, LSE_ROWS, cnt, m, s);
    if (r < len)
        lse_block4(x, i0 + r * stride, stride, len - r, cnt, m, s);
}

static axial_lse_acc lse_line4(const double *x, size_t i0, size_t n) {
    __m256d m, s;
    lse_rows4(x, i0, 4, n / 4, 4, &m, &s);
    if (n % 4) /* the partial row, one more block */
        lse_block4(x, i0 + n / 4 * 4, 4, 1, (int)(n % 4), &m, &s);
    const double mx = lse_hmax4(m);
    if (mx == INFINITY || _mm256_movemask_pd(_mm256_cmp_pd(s, s, _CMP_UNORD_Q)))
        return lse_special(LSE_F64, x, i0, n, 1);
    if (mx == -INFINITY)
        return AXIAL_LSE_EMPTY;
    const __m256d t = _mm256_mul_pd(s, Sleef_expd4_u10avx2(_mm256_sub_pd(m, _mm256_set1_pd(mx))));
    __m128d h = _mm_add_pd(_mm256_castpd256_pd128(t), _mm256_extractf128_pd(t, 1));
    h = _mm_add_sd(h, _mm_unpackhi_pd(h, h));
    return (axial_lse_acc){mx, _mm_cvtsd_f64(h)};
}

static void lse_cols4(const double *x, size_t i0, size_t n, size_t stride, size_t ncols,
                      axial_lse_acc *out) {
    __m256d m[LSE_WIN / 4], s[LSE_WIN / 4];
    const size_t nch = (ncols + 3) / 4;
    for (size_t c = 0; c < nch; c++)
        m[c] = _mm256_set1_pd(-INFINITY), s[c] = _mm256_setzero_pd();
    const int pf = n * stride * 8 > LSE_PF_MIN;
    for (size_t r = 0; r < n; r += LSE_ROWS) {
        const size_t rows = n - r < LSE_ROWS ? n - r : LSE_ROWS;
        const size_t next = n - r - rows < LSE_ROWS ? n - r - rows : LSE_ROWS;
        size_t c = 0;
        for (; c < ncols / 4; c++) {
            if (pf)
                lse_pf(LSE_F64, x, i0 + (r + rows) * stride + c * 4, stride, next, 0);
            lse_block4(x, i0 + r * stride + c * 4, stride, rows, 4, &m[c], &s[c]);
        }
        if (c < nch)
            lse_block4(x, i0 + r * stride + c * 4, stride, rows, (int)(ncols % 4), &m[c], &s[c]);
    }
    for (size_t c = 0; c < nch; c++) {
        double mm[4], ss[4];
        _mm256_storeu_pd(mm, m[c]);
        _mm256_storeu_pd(ss, s[c]);
        for (size_t l = 0; l < 4 && c * 4 + l < ncols; l++) {
            if (mm[l] == INFINITY || isnan(ss[l]))
                out[c * 4 + l] = lse_special(LSE_F64, x, i0 + c * 4 + l, n, stride);
            else if (mm[l] == -INFINITY)
                out[c * 4 + l] = AXIAL_LSE_EMPTY;
            else
                out[c * 4 + l] = (axial_lse_acc){mm[l], ss[l]};
        }
    }
}

/* ---- ReduceLogSumExp entry bodies ---------------------------------------- */
/* Columns [0, ncols) of each of the outer (n, stride) blocks (rows `stride`
 * elements apart; the whole-shape entries pass ncols = stride = inner, the
 * cols entry outer = 1 and a tile).  acc == NULL: y[o][c] = value; else
 * acc[o][c] (+)= state (y and acc hold ncols outputs per block). */
AXIAL_INLINE void lse_reduce(int k, const void *x, void *y, axial_lse_acc *acc, size_t outer,
                             size_t n, size_t ncols, size_t stride) {
    axial_lse_acc st[LSE_WIN];
    for (size_t o = 0; o < outer; o++) {
        if (stride == 1) { /* a line (ncols == 1) */
            st[0] = k == LSE_F64 ? lse_line4((const double *)x, o * n, n) : lse_line8(k, x, o * n, n);
            if (acc)
                axial_lse_add(&acc[o], st[0].m, st[0].s);
            else
                lse_st1(k, y, o, axial_lse_value(st[0]));
            continue;
        }
        for (size_t c = 0; c < ncols; c += LSE_WIN) {
            const size_t cnt = ncols - c < LSE_WIN ? ncols - c : LSE_WIN;
            if (k == LSE_F64)
                lse_cols4((const double *)x, o * n * stride + c, n, stride, cnt, st);
            else
                lse_cols8(k, x, o * n * stride + c, n, stride, cnt, st);
            for (size_t l = 0; l < cnt; l++) {
                if (acc)
                    axial_lse_add(&acc[o * ncols + c + l], st[l].m, st[l].s);
                else
                    lse_st1(k, y, o * ncols + c + l, axial_lse_value(st[l]));
            }
        }
    }
}

/* ---- LogCumSumExp -------------------------------------------------------- */
/* The carry R of a line's earlier chunks (kernels.h, logcumsumexp_seg)
 * merged into a chunk's outputs: with the chunk's state (m, s), the value
 * ref + log(a + b s), ref = max(R.m, m), a = R.s exp(R.m - ref), b =
 * exp(m - ref), computed in double once per change of m.  The f32 paths
 * round a, b and a + b s_j to f32: s_j >= e^-2 relative to ref, so that adds
 * at most 4 * 2^-24 to y; the carries themselves merge in double (2^-52 a
 * chunk).  A NaN or +inf carry runs the chunk by the scalar step. */
typedef struct {
    double ref, a, b;
} lse_mix;
static lse_mix lse_mix_of(axial_lse_acc R, double m) {
    const double ref = R.m > m ? R.m : m;
    return (lse_mix){ref, R.s * exp(R.m - ref), exp(m - ref)};
}
/* The value of R followed by the state a. */
AXIAL_INLINE double lse_val_from(axial_lse_acc R, axial_lse_acc a) {
    axial_lse_add(&R, a.m, a.s);
    return axial_lse_value(R);
}

/* Scan-order terms t in [t0, t1) of a line (element j = rev ? n-1-t : t) by
 * the scalar step, from and into the state (m, S); outputs (with emit) of
 * the carry R followed by the state. */
static void lse_scan_scalar(int k, const void *x, void *y, size_t base, size_t n, size_t t0,
                            size_t t1, int excl, int rev, double *m, double *S,
                            axial_lse_acc R, int emit) {
    axial_lse_acc a = {*m, *m == -INFINITY ? 0.0 : *S};
    for (size_t t = t0; t < t1; t++) {
        const size_t j = base + (rev ? n - 1 - t : t);
        const double v = lse_ld1(k, x, j);
        if (emit && excl)
            lse_st1(k, y, j, lse_val_from(R, a));
        lse_step(&a, v);
        if (emit && !excl)
            lse_st1(k, y, j, lse_val_from(R, a));
    }
    *m = a.m, *S = a.s;
}

/* LogCumSumExp of a line, per vector of 8 (f64: 4) terms in scan order:
 * B = the vector's max; on a rise (B > m) S *= exp(m - B) in f64 and m = B;
 * e = exp(x - m); p = the in-register prefix of e in C; y_j = m + log(S +
 * p_j); S += the vector's total in f64.  Without a rise every s_j >= 1, so an
 * f32 log of (float)S + p_j is enough (two roundings of 2^-24 in s_j).  In a
 * vector that rose, outputs before the max have s_j < 1 and take an f64 log,
 * unless every output's own largest term is within 1 of B (s_j > 1/e: an f32
 * log still fits; a slow ramp rises in every vector).  If some output's own
 * largest term is more than T below B (LSE_T_F32, LSE_T_F64: beyond it the
 * rounded x - B and log(s_j) near -T would cost more than the bound allows),
 * the vector runs the scalar step instead: a ramp rising faster than T per
 * vector runs at scalar speed, still correct.  A NaN or +inf sends the rest
 * of the line to the scalar step.
 *
 * One vector of a line, C = f32: scan-order terms t0 .. t0+cnt-1 (cnt <= 8),
 * from and into the state (m, S).  Returns 1 when it finished the line
 * (a NaN or +inf: the scalar step did the rest). */
AXIAL_INLINE int lse_scan_vec8(int k, const void *x, void *y, size_t base, size_t n, size_t t0,
                               int cnt, int excl, int rev, float *mp, double *Sp, axial_lse_acc R,
                               int emit, int mixed, lse_mix *mx) {
    const __m256 ninf = _mm256_set1_ps(-INFINITY), pinf = _mm256_set1_ps(INFINITY);
    float m = *mp;
    double S = *Sp;
    {
        size_t pos;
        __m256 v;
        if (cnt == 8) {
            pos = base + (rev ? n - t0 - 8 : t0);
            v = lse_ld8(k, x, pos);
            if (rev)
                v = lse_rev8(v);
        } else {
            pos = base + (rev ? 0 : t0);
            v = lse_ld8_part(k, x, pos, cnt, rev);
        }
        int rose = 0;
        /* one compare finds both a rise and a NaN (+inf is a rise) */
        if (_mm256_movemask_ps(_mm256_cmp_ps(v, _mm256_set1_ps(m), _CMP_NLE_UQ))) {
            if (_mm256_movemask_ps(_mm256_cmp_ps(v, pinf, _CMP_NLT_UQ))) { /* NaN or +inf */
                double md = m;
                lse_scan_scalar(k, x, y, base, n, t0, n, excl, rev, &md, &S, R, emit);
                *mp = (float)md, *Sp = S; /* (the chunk's final state: NaN or +inf) */
                return 1;
            }
            const float B = lse_hmax8(v); /* > m */
            /* each output's own largest term: the prefix max P_j (and m) */
            __m256 P = v;
            P = _mm256_max_ps(P, lse_up1(P, ninf));
            const __m256i up2 = _mm256_setr_epi32(0, 0, 0, 1, 2, 3, 4, 5);
            const __m256i up4 = _mm256_setr_epi32(0, 0, 0, 0, 0, 1, 2, 3);
            P = _mm256_max_ps(P, _mm256_blend_ps(_mm256_permutevar8x32_ps(P, up2), ninf, 0x03));
            P = _mm256_max_ps(P, _mm256_blend_ps(_mm256_permutevar8x32_ps(P, up4), ninf, 0x0f));
            P = _mm256_max_ps(P, _mm256_set1_ps(m));
            const float lim = B - LSE_T_F32;
            const __m256 low = _mm256_cmp_ps(P, _mm256_set1_ps(lim), _CMP_LT_OQ);
            int bad = _mm256_movemask_ps(_mm256_and_ps(_mm256_cmp_ps(P, ninf, _CMP_NEQ_OQ), low));
            if (excl && m != -INFINITY && m < lim)
                bad = 1;
            if (bad) {
                double md = m;
                lse_scan_scalar(k, x, y, base, n, t0, t0 + (size_t)cnt, excl, rev, &md, &S, R,
                                emit);
                *mp = (float)md, *Sp = S;
                if (mixed)
                    *mx = lse_mix_of(R, md > -FLT_MAX ? md : -FLT_MAX);
                return 0;
            }
            /* every output's own largest term within 1 of B: s_j > 1/e, and
             * the f32 log below stays inside the bound (a slow ramp) */
            const __m256 far = _mm256_cmp_ps(P, _mm256_set1_ps(B - 1.0f), _CMP_LT_OQ);
            rose = _mm256_movemask_ps(_mm256_and_ps(_mm256_cmp_ps(P, ninf, _CMP_NEQ_OQ), far)) ||
                   (excl && m != -INFINITY && m < B - 1.0f);
            S *= exp((double)m - (double)B);
            m = B;
            if (mixed)
                *mx = lse_mix_of(R, (double)m);
        }
        const float mef = m > -FLT_MAX ? m : -FLT_MAX;
        const __m256 me = _mm256_set1_ps(mef);
        const __m256 e = Sleef_expf8_u10avx2(_mm256_sub_ps(v, me));
        __m256 p;
        float tot;
        if (excl) {
            p = lse_pfx8(lse_up1(e, _mm256_setzero_ps()));
            tot = lse_lane7(p) + lse_lane7(e);
        } else {
            p = lse_pfx8(e);
            tot = lse_lane7(p);
        }
        __m256 yv;
        if (!emit) {
            yv = _mm256_setzero_ps();
        } else if (mixed && !rose) {
            /* with the carry: a + b ((float)S + p_j) in f32 (s_j >= e^-2
             * relative to ref: see lse_mix) */
            const __m256 s = _mm256_add_ps(
                _mm256_set1_ps((float)mx->a),
                _mm256_mul_ps(_mm256_set1_ps((float)mx->b),
                              _mm256_add_ps(_mm256_set1_ps((float)S), p)));
            yv = _mm256_add_ps(_mm256_set1_ps((float)mx->ref), Sleef_logf8_u10avx2(s));
        } else if (mixed) { /* after a rise: a + b (S + p_j) in f64, f64 logs */
            const __m256d Sv = _mm256_set1_pd(S), va = _mm256_set1_pd(mx->a),
                          vb = _mm256_set1_pd(mx->b);
            const __m256d s0 = _mm256_add_pd(va, _mm256_mul_pd(vb, _mm256_add_pd(Sv, lse_lo_pd(p))));
            const __m256d s1 = _mm256_add_pd(va, _mm256_mul_pd(vb, _mm256_add_pd(Sv, lse_hi_pd(p))));
            const __m256d md = _mm256_set1_pd(mx->ref);
            const __m256d y0 = _mm256_add_pd(md, Sleef_logd4_u10avx2(s0));
            const __m256d y1 = _mm256_add_pd(md, Sleef_logd4_u10avx2(s1));
            yv = _mm256_set_m128(_mm256_cvtpd_ps(y1), _mm256_cvtpd_ps(y0));
        } else if (!rose) {
            /* s_j >= 1 (or 0 before the first finite term; > 1/e after a
             * rise of less than 1 over every output's own maximum): s_j in f32,
             * (float)S + p_j, two roundings of 2^-24, is enough for an f32 log */
            yv = _mm256_add_ps(me, Sleef_logf8_u10avx2(_mm256_add_ps(_mm256_set1_ps((float)S), p)));
        } else {
            const __m256d Sv = _mm256_set1_pd(S);
            const __m256d s0 = _mm256_add_pd(Sv, lse_lo_pd(p)), s1 = _mm256_add_pd(Sv, lse_hi_pd(p));
            const __m256d md = _mm256_set1_pd((double)mef);
            const __m256d y0 = _mm256_add_pd(md, Sleef_logd4_u10avx2(s0));
            const __m256d y1 = _mm256_add_pd(md, Sleef_logd4_u10avx2(s1));
            yv = _mm256_set_m128(_mm256_cvtpd_ps(y1), _mm256_cvtpd_ps(y0));
        }
        if (emit && cnt == 8)
            lse_st8(k, y, pos, rev ? lse_rev8(yv) : yv);
        else if (emit)
            lse_st8_part(k, y, pos, cnt, rev, yv);
        S += (double)tot;
    }
    *mp = m, *Sp = S;
    return 0;
}

/* One chunk of a line (kernels.h, logcumsumexp_seg: n <= AXIAL_SCAN_CHUNK
 * terms scanned with a state of their own from empty, the outputs those of
 * the carry R followed by it), C = f32: full vectors in a loop of their own
 * (cnt, excl, rev constants there), then the partial one.  Returns the
 * chunk's own final state: the same with or without emit, whatever R.
 * mixed: R is not empty (else a = 0, b = 1 and the outputs are the state's
 * alone, computed without them).  A NaN or +inf carry runs the scalar step. */
AXIAL_INLINE axial_lse_acc lse_chunk8(int k, const void *x, void *y, size_t base, size_t n,
                                      int excl, int rev, axial_lse_acc R, int emit, int mixed) {
    float m = -INFINITY;
    double S = 0.0;
    size_t t0 = 0;
    lse_mix mx = {0, 0, 1};
    if (mixed)
        mx = lse_mix_of(R, -FLT_MAX);
    if (emit && (isnan(R.m) || R.m == INFINITY)) {
        double md = m;
        lse_scan_scalar(k, x, y, base, n, 0, n, excl, rev, &md, &S, R, emit);
        return (axial_lse_acc){md, S};
    }
    /* Chunks of LSE_SCAN_VECS full vectors without a rise or NaN (the
     * common case) in two passes over L1: all the exps (independent, as fast
     * as an exp loop), then the prefixes and logs with the short f64 carry
     * chain.  A chunk with a rise or a special value goes vector by vector. */
    while (t0 + 8 * LSE_SCAN_VECS <= n) {
        const __m256 mv = _mm256_set1_ps(m);
        int first = LSE_SCAN_VECS; /* the first vector with a rise or NaN */
        for (int q = LSE_SCAN_VECS - 1; q >= 0; q--) {
            const size_t t = t0 + 8 * (size_t)q;
            const __m256 v = lse_ld8(k, x, base + (rev ? n - t - 8 : t));
            if (_mm256_movemask_ps(_mm256_cmp_ps(v, mv, _CMP_NLE_UQ)))
                first = q;
        }
        if (first < LSE_SCAN_VECS) { /* the vectors up to it one by one, then a new chunk */
            for (int q = 0; q <= first; q++)
                if (lse_scan_vec8(k, x, y, base, n, t0 + 8 * (size_t)q, 8, excl, rev, &m, &S, R,
                                  emit, mixed, &mx))
                    return (axial_lse_acc){m, S};
            t0 += 8 * (size_t)(first + 1);
            continue;
        }
        const __m256 me = _mm256_max_ps(mv, _mm256_set1_ps(-FLT_MAX));
        __m256 e[LSE_SCAN_VECS];
        for (int q = 0; q < LSE_SCAN_VECS; q++) {
            const size_t t = t0 + 8 * (size_t)q;
            __m256 v = lse_ld8(k, x, base + (rev ? n - t - 8 : t));
            e[q] = Sleef_expf8_u10avx2(_mm256_sub_ps(rev ? lse_rev8(v) : v, me));
        }
        /* the 8 prefixes and sums, then the 8 logs (independent calls that
         * overlap, as the exps above) */
        const __m256 va = _mm256_set1_ps((float)mx.a), vb = _mm256_set1_ps((float)mx.b);
        for (int q = 0; q < LSE_SCAN_VECS; q++) {
            const __m256 p = lse_pfx8(excl ? lse_up1(e[q], _mm256_setzero_ps()) : e[q]);
            const float tot = excl ? lse_lane7(p) + lse_lane7(e[q]) : lse_lane7(p);
            /* s_j = (float)S + p_j >= 1, or 0 before the first finite term: an
             * f32 log (see lse_scan_vec8); with the carry a + b s_j in f32
             * (s_j >= e^-2 relative to ref: see lse_mix) */
            const __m256 sj = _mm256_add_ps(_mm256_set1_ps((float)S), p);
            e[q] = mixed ? _mm256_add_ps(va, _mm256_mul_ps(vb, sj)) : sj;
            S += (double)tot;
        }
        if (emit) {
            const __m256 ref = mixed ? _mm256_set1_ps((float)mx.ref) : me;
            for (int q = 0; q < LSE_SCAN_VECS; q++) {
                const size_t t = t0 + 8 * (size_t)q;
                const __m256 yv = _mm256_add_ps(ref, Sleef_logf8_u10avx2(e[q]));
                lse_st8(k, y, base + (rev ? n - t - 8 : t), rev ? lse_rev8(yv) : yv);
            }
        }
        t0 += 8 * LSE_SCAN_VECS;
    }
    for (; t0 + 8 <= n; t0 += 8)
        if (lse_scan_vec8(k, x, y, base, n, t0, 8, excl, rev, &m, &S, R, emit, mixed, &mx))
            return (axial_lse_acc){m, S};
    if (t0 < n)
        lse_scan_vec8(k, x, y, base, n, t0, (int)(n - t0), excl, rev, &m, &S, R, emit, mixed,
                      &mx);
    return (axial_lse_acc){m, m == -INFINITY ? 0.0 : S};
}

/* One chunk of a line, f64 (REVERSE and mixed as constants in each copy): as
 * lse_chunk8. */
AXIAL_INLINE axial_lse_acc lse_chunk4(const double *x, double *y, size_t base, size_t n, int excl,
                                      int rev, axial_lse_acc R, int emit, int mixed) {
    const __m256d ninf = _mm256_set1_pd(-INFINITY), pinf = _mm256_set1_pd(INFINITY);
    const __m256d z = _mm256_setzero_pd();
    double m = -INFINITY, S = 0.0;
    lse_mix mx = {0, 0, 1};
    if (mixed)
        mx = lse_mix_of(R, -DBL_MAX);
    if (emit && (isnan(R.m) || R.m == INFINITY)) {
        lse_scan_scalar(LSE_F64, x, y, base, n, 0, n, excl, rev, &m, &S, R, emit);
        return (axial_lse_acc){m, S};
    }
    for (size_t t0 = 0; t0 < n; t0 += 4) {
        if (t0 + 4 * LSE_SCAN_VECS <= n) {
            /* as the f32 chunks: the vectors before the first one with a
             * rise or NaN run their exps first, then the prefixes and logs */
            const __m256d mv = _mm256_set1_pd(m);
            int nf = LSE_SCAN_VECS;
            for (int q = LSE_SCAN_VECS - 1; q >= 0; q--) {
                const size_t t = t0 + 4 * (size_t)q;
                const __m256d v = _mm256_loadu_pd(x + base + (rev ? n - t - 4 : t));
                if (_mm256_movemask_pd(_mm256_cmp_pd(v, mv, _CMP_NLE_UQ)))
                    nf = q;
            }
            if (nf > 0) {
                const __m256d me = _mm256_max_pd(mv, _mm256_set1_pd(-DBL_MAX));
                __m256d e[LSE_SCAN_VECS];
                for (int q = 0; q < nf; q++) {
                    const size_t t = t0 + 4 * (size_t)q;
                    const __m256d v = _mm256_loadu_pd(x + base + (rev ? n - t - 4 : t));
                    e[q] = Sleef_expd4_u10avx2(_mm256_sub_pd(rev ? lse_rev4(v) : v, me));
                }
                /* the prefixes and sums, then the logs (overlapping calls) */
                for (int q = 0; q < nf; q++) {
                    const __m256d ex = _mm256_blend_pd(_mm256_permute4x64_pd(e[q], 0x90), z, 0x1);
                    const __m256d p = lse_pfx4(excl ? ex : e[q]);
                    const __m256d p3 = _mm256_permute4x64_pd(p, 0xff);
                    const __m256d e3 = _mm256_permute4x64_pd(e[q], 0xff);
                    /* with the carry: (a + b S) + b p_j (see lse_mix) */
                    e[q] = mixed ? _mm256_add_pd(_mm256_set1_pd(mx.a + mx.b * S),
                                                 _mm256_mul_pd(_mm256_set1_pd(mx.b), p))
                                 : _mm256_add_pd(_mm256_set1_pd(S), p);
                    S += excl ? _mm256_cvtsd_f64(p3) + _mm256_cvtsd_f64(e3) : _mm256_cvtsd_f64(p3);
                }
                if (emit) {
                    const __m256d ref = mixed ? _mm256_set1_pd(mx.ref) : me;
                    for (int q = 0; q < nf; q++) {
                        const size_t t = t0 + 4 * (size_t)q;
                        const __m256d yv = _mm256_add_pd(ref, Sleef_logd4_u10avx2(e[q]));
                        _mm256_storeu_pd(y + base + (rev ? n - t - 4 : t), rev ? lse_rev4(yv) : yv);
                    }
                }
                t0 += 4 * (size_t)nf - 4; /* the loop adds the last 4 */
                continue;
            }
        }
        const int cnt = n - t0 >= 4 ? 4 : (int)(n - t0);
        size_t pos;
        __m256d v;
        if (cnt == 4) {
            pos = base + (rev ? n - t0 - 4 : t0);
            v = _mm256_loadu_pd(x + pos);
            if (rev)
                v = lse_rev4(v);
        } else {
            pos = base + (rev ? 0 : t0);
            v = lse_ld4_part(x, pos, cnt, rev);
        }
        if (_mm256_movemask_pd(_mm256_cmp_pd(v, pinf, _CMP_NLT_UQ))) {
            lse_scan_scalar(LSE_F64, x, y, base, n, t0, n, excl, rev, &m, &S, R, emit);
            return (axial_lse_acc){m, S};
        }
        const double B = lse_hmax4(v);
        if (B > m) {
            __m256d P = v;
            P = _mm256_max_pd(P, _mm256_blend_pd(_mm256_permute4x64_pd(P, 0x90), ninf, 0x1));
            P = _mm256_max_pd(P, _mm256_blend_pd(_mm256_permute4x64_pd(P, 0x40), ninf, 0x3));
            P = _mm256_max_pd(P, _mm256_set1_pd(m));
            const double lim = B - LSE_T_F64;
            const __m256d low = _mm256_cmp_pd(P, _mm256_set1_pd(lim), _CMP_LT_OQ);
            int bad = _mm256_movemask_pd(_mm256_and_pd(_mm256_cmp_pd(P, ninf, _CMP_NEQ_OQ), low));
            if (excl && m != -INFINITY && m < lim)
                bad = 1;
            if (bad) {
                lse_scan_scalar(LSE_F64, x, y, base, n, t0, t0 + (size_t)cnt, excl, rev, &m, &S,
                                R, emit);
                if (mixed)
                    mx = lse_mix_of(R, m > -DBL_MAX ? m : -DBL_MAX);
                continue;
            }
            S *= exp(m - B);
            m = B;
            if (mixed)
                mx = lse_mix_of(R, m);
        }
        const __m256d me = _mm256_set1_pd(m > -DBL_MAX ? m : -DBL_MAX);
        const __m256d e = Sleef_expd4_u10avx2(_mm256_sub_pd(v, me));
        const __m256d p = excl ? lse_pfx4(_mm256_blend_pd(_mm256_permute4x64_pd(e, 0x90), z, 0x1))
                               : lse_pfx4(e);
        if (emit) {
            __m256d s = _mm256_add_pd(_mm256_set1_pd(S), p), ref = me;
            if (mixed)
                s = _mm256_add_pd(_mm256_set1_pd(mx.a + mx.b * S),
                                  _mm256_mul_pd(_mm256_set1_pd(mx.b), p)),
                ref = _mm256_set1_pd(mx.ref);
            const __m256d yv = _mm256_add_pd(ref, Sleef_logd4_u10avx2(s));
            if (cnt == 4)
                _mm256_storeu_pd(y + pos, rev ? lse_rev4(yv) : yv);
            else
                lse_st4_part(y, pos, cnt, rev, yv);
        }
        double pe[4], ee[4];
        _mm256_storeu_pd(pe, p);
        _mm256_storeu_pd(ee, e);
        S += excl ? pe[3] + ee[3] : pe[3];
    }
    return (axial_lse_acc){m, m == -INFINITY ? 0.0 : S};
}

/* A chunk from the carry R (mixed when R is not empty), and an exclusive
 * scan's first output of the chunk (no term of its own) is R's value,
 * rounded once: the vector paths would give ref + log(a), and a underflows
 * when the chunk's m lies far above the carry. */
AXIAL_INLINE axial_lse_acc lse_chunk(int k, const void *x, void *y, size_t base, size_t n, int excl,
                                     int rev, axial_lse_acc R, int emit) {
    const int mixed = R.m != -INFINITY;
    axial_lse_acc T;
    if (k == LSE_F64)
        T = mixed ? lse_chunk4((const double *)x, (double *)y, base, n, excl, rev, R, emit, 1)
                  : lse_chunk4((const double *)x, (double *)y, base, n, excl, rev, R, emit, 0);
    else
        T = mixed ? lse_chunk8(k, x, y, base, n, excl, rev, R, emit, 1)
                  : lse_chunk8(k, x, y, base, n, excl, rev, R, emit, 0);
    if (emit && excl && n > 0)
        lse_st1(k, y, base + (rev ? n - 1 : 0), axial_lse_value(R));
    return T;
}

/* A segment of a line from a chunk boundary of its scan order (kernels.h,
 * logcumsumexp_seg): chunks of AXIAL_SCAN_CHUNK from the carry R, R (+)= each
 * chunk's total; returns R after the
 * segment (kept only after a whole chunk: a partial one ends its line). */
AXIAL_INLINE axial_lse_acc lse_seg(int k, const void *x, void *y, size_t base, size_t len, int excl,
                                   int rev, axial_lse_acc R) {
    for (size_t c0 = 0; c0 < len; c0 += AXIAL_SCAN_CHUNK) {
        const size_t kk = len - c0 < AXIAL_SCAN_CHUNK ? len - c0 : AXIAL_SCAN_CHUNK;
        const axial_lse_acc T =
            lse_chunk(k, x, y, base + (rev ? len - c0 - kk : c0), kk, excl, rev, R, 1);
        if (kk == AXIAL_SCAN_CHUNK)
            axial_lse_add(&R, T.m, T.s);
    }
    return R;
}
/* REVERSE as a constant (it turns every load and shuffle the other way);
 * EXCLUSIVE stays a run-time flag: it shifts each vector's terms by one. */
AXIAL_INLINE axial_lse_acc lse_seg_flags(int k, const void *x, void *y, size_t base, size_t len,
                                         unsigned flags, axial_lse_acc R) {
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    if (flags & AXIAL_CUMSUM_REVERSE)
        return lse_seg(k, x, y, base, len, excl, 1, R);
    return lse_seg(k, x, y, base, len, excl, 0, R);
}
AXIAL_INLINE axial_lse_acc lse_total_flags(int k, const void *x, size_t len, unsigned flags) {
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    if (flags & AXIAL_CUMSUM_REVERSE)
        return lse_chunk(k, x, NULL, 0, len, excl, 1, AXIAL_LSE_EMPTY, 0);
    return lse_chunk(k, x, NULL, 0, len, excl, 0, AXIAL_LSE_EMPTY, 0);
}

/* LogCumSumExp of columns: lanes are columns, rows in scan order; per row
 * M = max(m, x), s *= exp(m - M) on the lanes that rose (f64 s, only when
 * some lane rose), s += exp(x - M), y = M + log(s).  C = f32: the sum since
 * the last flush stays in f32 (<= LSE_ROWS terms), flushed into the f64 s
 * every LSE_ROWS rows and before every rescale, and y = M + log((float)s +
 * s_f32) (s >= 1: an f32 log); blocks of LSE_SCAN_ROWS rows where no lane
 * rises and no NaN/+inf appears run their exps first.  From a column group's
 * first NaN or +inf on (and always in f64) the general rows: s in f64, NaN
 * kept in M, y = M where M is not finite: no branch, no fallback.
 *
 * Columns c .. c+cnt-1 (cnt <= 8) of one (n, stride) block, C = f32. */
AXIAL_INLINE __m256 lse_col_value8(__m256 m, const __m256d s[2]) {
    const __m256 sf = _mm256_set_m128(_mm256_cvtpd_ps(s[1]), _mm256_cvtpd_ps(s[0]));
    const __m256 v = _mm256_add_ps(_mm256_max_ps(m, _mm256_set1_ps(-FLT_MAX)), Sleef_logf8_u10avx2(sf));
    const __m256 absm = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), m);
    return _mm256_blendv_ps(m, v, _mm256_cmp_ps(absm, _mm256_set1_ps(INFINITY), _CMP_LT_OQ));
}
/* The fast rows (no NaN or +inf met yet in these columns): the sum since
 * the last flush in f32 (<= LSE_ROWS terms per lane), flushed into the f64
 * S every LSE_ROWS rows; y = m + log((float)S + s). */
AXIAL_INLINE __m256 lse_fast_value8(__m256 me, __m256 S32, __m256 s) {
    return _mm256_add_ps(me, Sleef_logf8_u10avx2(_mm256_add_ps(S32, s)));
}
AXIAL_INLINE void lse_scan_cols8(int k, const void *x, void *y, size_t base, size_t n,
                                 size_t stride, int cnt, int excl, int rev) {
    const __m256 pinf = _mm256_set1_ps(INFINITY), lo = _mm256_set1_ps(-FLT_MAX);
    __m256 m = _mm256_set1_ps(-INFINITY), me = lo, S32 = _mm256_setzero_ps();
    __m256 sf = _mm256_setzero_ps();
    __m256d s[2] = {_mm256_setzero_pd(), _mm256_setzero_pd()};
    size_t t = 0;
    unsigned since = 0;
    const int pf = n * stride * lse_es(k) > LSE_PF_MIN;
    for (int special = 0; t < n && !special;) {
        size_t rows = n - t < LSE_SCAN_ROWS ? n - t : LSE_SCAN_ROWS;
        if (rows == LSE_SCAN_ROWS) {
            /* the rows before the block's first rise or NaN/+inf: all their
             * exps first (independent), then the running sums and logs; that
             * row itself goes row by row, then a new block */
            size_t nf = LSE_SCAN_ROWS;
            if (pf && n - t >= LSE_SCAN_PF + LSE_SCAN_ROWS) { /* x and y, LSE_SCAN_PF rows on */
                const size_t ahead = base + (rev ? n - 1 - t - LSE_SCAN_PF : t + LSE_SCAN_PF) * stride;
                lse_pf(k, x, ahead, stride, LSE_SCAN_ROWS, rev);
                if (y != x)
                    lse_pf(k, y, ahead, stride, LSE_SCAN_ROWS, rev);
            }
#define LSE_ROW(r) (base + (rev ? n - 1 - t - (r) : t + (r)) * stride)
            for (size_t r = LSE_SCAN_ROWS; r-- > 0;)
                if (_mm256_movemask_ps(_mm256_cmp_ps(lse_ldr(k, x, LSE_ROW(r), cnt), m, _CMP_NLE_UQ)))
                    nf = r;
            __m256 e[LSE_SCAN_ROWS];
            for (size_t r = 0; r < nf; r++)
                e[r] = Sleef_expf8_u10avx2(_mm256_sub_ps(lse_ldr(k, x, LSE_ROW(r), cnt), me));
            for (size_t r = 0; r < nf; r++) {
                const size_t i = LSE_ROW(r);
#undef LSE_ROW
                if (!excl)
                    sf = _mm256_add_ps(sf, e[r]);
                const __m256 yv = lse_fast_value8(me, S32, sf);
                if (cnt == 8)
                    lse_st8(k, y, i, yv);
                else
                    lse_st8_part(k, y, i, cnt, 0, yv);
                if (excl)
                    sf = _mm256_add_ps(sf, e[r]);
                if (++since == LSE_ROWS) {
                    s[0] = _mm256_add_pd(s[0], lse_lo_pd(sf));
                    s[1] = _mm256_add_pd(s[1], lse_hi_pd(sf));
                    sf = _mm256_setzero_ps(), since = 0;
                    S32 = _mm256_set_m128(_mm256_cvtpd_ps(s[1]), _mm256_cvtpd_ps(s[0]));
                }
            }
            t += nf;
            if (nf == LSE_SCAN_ROWS)
                continue;
            rows = 1;
        }
        for (size_t r = 0; r < rows; r++, t++) { /* row by row */
            const size_t i = base + (rev ? n - 1 - t : t) * stride;
            const __m256 v = lse_ldr(k, x, i, cnt);
            if (_mm256_movemask_ps(_mm256_cmp_ps(v, pinf, _CMP_NLT_UQ))) {
                special = 1; /* a NaN or +inf: the general rows from here */
                break;
            }
            if (excl) {
                const __m256 yv = lse_fast_value8(me, S32, sf);
                if (cnt == 8)
                    lse_st8(k, y, i, yv);
                else
                    lse_st8_part(k, y, i, cnt, 0, yv);
            }
            const __m256 mn = _mm256_max_ps(v, m);
            const __m256 rose = _mm256_cmp_ps(mn, m, _CMP_GT_OQ);
            if (_mm256_movemask_ps(rose)) {
                s[0] = _mm256_add_pd(s[0], lse_lo_pd(sf)); /* flush, then rescale in f64 */
                s[1] = _mm256_add_pd(s[1], lse_hi_pd(sf));
                sf = _mm256_setzero_ps(), since = 0;
                lse_rescale8(m, mn, rose, s);
                S32 = _mm256_set_m128(_mm256_cvtpd_ps(s[1]), _mm256_cvtpd_ps(s[0]));
            }
            m = mn;
            me = _mm256_max_ps(m, lo);
            sf = _mm256_add_ps(sf, Sleef_expf8_u10avx2(_mm256_sub_ps(v, me)));
            if (!excl) {
                const __m256 yv = lse_fast_value8(me, S32, sf);
                if (cnt == 8)
                    lse_st8(k, y, i, yv);
                else
                    lse_st8_part(k, y, i, cnt, 0, yv);
            }
            if (++since == LSE_ROWS) {
                s[0] = _mm256_add_pd(s[0], lse_lo_pd(sf));
                s[1] = _mm256_add_pd(s[1], lse_hi_pd(sf));
                sf = _mm256_setzero_ps(), since = 0;
                S32 = _mm256_set_m128(_mm256_cvtpd_ps(s[1]), _mm256_cvtpd_ps(s[0]));
            }
        }
    }
    s[0] = _mm256_add_pd(s[0], lse_lo_pd(sf));
    s[1] = _mm256_add_pd(s[1], lse_hi_pd(sf));
    for (; t < n; t++) { /* general rows: NaN kept in m, s in f64 */
        const size_t i = base + (rev ? n - 1 - t : t) * stride;
        const __m256 v = lse_ldr(k, x, i, cnt);
        if (excl) {
            const __m256 yv = lse_col_value8(m, s);
            if (cnt == 8)
                lse_st8(k, y, i, yv);
            else
                lse_st8_part(k, y, i, cnt, 0, yv);
        }
        /* max(v, m) keeps m's NaN and drops v's: put v's back */
        const __m256 mn = _mm256_blendv_ps(_mm256_max_ps(v, m), v, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
        const __m256 rose = _mm256_cmp_ps(mn, m, _CMP_GT_OQ);
        if (_mm256_movemask_ps(rose))
            lse_rescale8(m, mn, rose, s);
        m = mn;
        const __m256 e = Sleef_expf8_u10avx2(_mm256_sub_ps(v, _mm256_max_ps(m, lo)));
        s[0] = _mm256_add_pd(s[0], lse_lo_pd(e));
        s[1] = _mm256_add_pd(s[1], lse_hi_pd(e));
        if (!excl) {
            const __m256 yv = lse_col_value8(m, s);
            if (cnt == 8)
                lse_st8(k, y, i, yv);
            else
                lse_st8_part(k, y, i, cnt, 0, yv);
        }
    }
}

AXIAL_INLINE __m256d lse_col_value4(__m256d m, __m256d s) {
    const __m256d v = _mm256_add_pd(_mm256_max_pd(m, _mm256_set1_pd(-DBL_MAX)), Sleef_logd4_u10avx2(s));
    const __m256d absm = _mm256_andnot_pd(_mm256_set1_pd(-0.0), m);
    return _mm256_blendv_pd(m, v, _mm256_cmp_pd(absm, _mm256_set1_pd(INFINITY), _CMP_LT_OQ));
}
AXIAL_INLINE void lse_scan_cols4(const double *x, double *y, size_t base, size_t n, size_t stride,
                                 int cnt, int excl, int rev) {
    const __m256d lo = _mm256_set1_pd(-DBL_MAX);
    __m256d m = _mm256_set1_pd(-INFINITY), s = _mm256_setzero_pd();
    const int pf = n * stride * 8 > LSE_PF_MIN;
    for (size_t t = 0; t < n; t++) {
        const size_t i = base + (rev ? n - 1 - t : t) * stride;
        if (pf && t % LSE_SCAN_ROWS == 0 && n - t >= LSE_SCAN_PF + LSE_SCAN_ROWS) {
            const size_t ahead = base + (rev ? n - 1 - t - LSE_SCAN_PF : t + LSE_SCAN_PF) * stride;
            lse_pf(LSE_F64, x, ahead, stride, LSE_SCAN_ROWS, rev);
            if (y != x)
                lse_pf(LSE_F64, y, ahead, stride, LSE_SCAN_ROWS, rev);
        }
        const __m256d v = lse_ldr4(x, i, cnt);
        if (excl) {
            const __m256d yv = lse_col_value4(m, s);
            if (cnt == 4)
                _mm256_storeu_pd(y + i, yv);
            else
                lse_st4_part(y, i, cnt, 0, yv);
        }
        const __m256d vnan = _mm256_cmp_pd(v, v, _CMP_UNORD_Q);
        const __m256d mn = _mm256_blendv_pd(_mm256_max_pd(v, m), v, vnan);
        const __m256d rose = _mm256_cmp_pd(mn, m, _CMP_GT_OQ);
        if (_mm256_movemask_pd(rose)) {
            const __m256d f = Sleef_expd4_u10avx2(_mm256_sub_pd(_mm256_max_pd(m, lo), _mm256_max_pd(mn, lo)));
            s = _mm256_mul_pd(s, _mm256_blendv_pd(_mm256_set1_pd(1.0), f, rose));
        }
        m = mn;
        s = _mm256_add_pd(s, Sleef_expd4_u10avx2(_mm256_sub_pd(v, _mm256_max_pd(m, lo))));
        if (!excl) {
            const __m256d yv = lse_col_value4(m, s);
            if (cnt == 4)
                _mm256_storeu_pd(y + i, yv);
            else
                lse_st4_part(y, i, cnt, 0, yv);
        }
    }
}

/* Columns [0, ncols) of each of the outer (n, stride) blocks, y laid out as
 * x (the whole-shape entry passes ncols = stride = inner, the cols entry
 * outer = 1 and a tile); stride == 1 is a line (ncols == 1). */
AXIAL_INLINE void lse_scan(int k, const void *x, void *y, size_t outer, size_t n, size_t ncols,
                           size_t stride, unsigned flags) {
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const int rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    const size_t w = k == LSE_F64 ? 4 : 8;
    for (size_t o = 0; o < outer; o++) {
        const size_t base = o * n * stride;
        /* (lines, stride == 1, go to the entries' logcumsumexp_seg) */
        for (size_t c = 0; c < ncols; c += w) {
            const int cnt = ncols - c < w ? (int)(ncols - c) : (int)w;
            if (k == LSE_F64)
                lse_scan_cols4((const double *)x, (double *)y, base + c, n, stride, cnt, excl, rev);
            else
                lse_scan_cols8(k, x, y, base + c, n, stride, cnt, excl, rev);
        }
    }
}

/* ---- the table's entries -------------------------------------------------
 * Column tiles (logcumsumexp_cols, reduce_lse_cols: the planners' split of
 * an outer axis into tiles of whole 64-byte lines of a row) run the column
 * code above on columns [0, ncols) of rows `stride` apart, and give the
 * whole shape's bits: a reduction lane never looks at another (a rescale
 * multiplies the other lanes' s by exactly 1), and the column scan decides
 * per group of 8 columns (f64: 4) counted from the first column, so a tile
 * that starts on a 64-byte line of its row and ends on one or at the row's
 * end has the whole-shape kernel's groups.  stride == 1 (a tile of a
 * one-column row) calls the whole-shape entry: a second inlined copy of the
 * line path made GCC clone lse_line8 per dtype. */
#define AXIAL_AVX2_LSE(name, K)                                                                \
    void axial_logcumsumexp_##name##__avx2(const void *x, void *y, size_t outer, size_t n,    \
                                           size_t inner, unsigned flags) {                    \
        if (inner > 1) {                                                                       \
            lse_scan(K, x, y, outer, n, inner, inner, flags);                                  \
            return;                                                                            \
        }                                                                                      \
        for (size_t o = 0; o < outer; o++) /* lines: the chunks from an empty carry */        \
            axial_logcumsumexp_seg_##name##__avx2((const char *)x + o * n * lse_es(K),         \
                                                  (char *)y + o * n * lse_es(K), n, flags,     \
                                                  AXIAL_LSE_EMPTY);                            \
    }                                                                                          \
    void axial_reduce_lse_##name##__avx2(const void *x, void *y, size_t outer, size_t n,      \
                                         size_t inner, unsigned flags) {                      \
        (void)flags; /* never streams */                                                       \
        lse_reduce(K, x, y, NULL, outer, n, inner, inner);                                     \
    }                                                                                          \
    void axial_reduce_lse_acc_##name##__avx2(const void *x, void *acc, size_t outer, size_t n, \
                                             size_t inner) {                                  \
        lse_reduce(K, x, NULL, (axial_lse_acc *)acc, outer, n, inner, inner);                  \
    }                                                                                          \
    void axial_logcumsumexp_cols_##name##__avx2(const void *x, void *y, size_t n, size_t ncols, \
                                                size_t stride, unsigned flags) {              \
        if (stride == 1) /* a line: no second copy of the line path */                         \
            axial_logcumsumexp_##name##__avx2(x, y, 1, n, 1, flags);                           \
        else                                                                                   \
            lse_scan(K, x, y, 1, n, ncols, stride, flags);                                     \
    }                                                                                          \
    void axial_reduce_lse_cols_##name##__avx2(const void *x, void *y, size_t n, size_t ncols,  \
                                              size_t stride) {                                \
        if (stride == 1)                                                                       \
            axial_reduce_lse_##name##__avx2(x, y, 1, n, 1, 0);                                 \
        else                                                                                   \
            lse_reduce(K, x, y, NULL, 1, n, ncols, stride);                                    \
    }                                                                                          \
    axial_lse_acc axial_logcumsumexp_seg_##name##__avx2(const void *x, void *y, size_t len,   \
                                                        unsigned flags, axial_lse_acc carry) { \
        return lse_seg_flags(K, x, y, 0, len, flags, carry);                                   \
    }                                                                                          \
    axial_lse_acc axial_lse_scan_total_##name##__avx2(const void *x, size_t len,              \
                                                      unsigned flags) {                       \
        return lse_total_flags(K, x, len, flags);                                              \
    }
AXIAL_AVX2_LSE(f32, LSE_F32)
AXIAL_AVX2_LSE(f64, LSE_F64)
AXIAL_AVX2_LSE(f16, LSE_F16)
AXIAL_AVX2_LSE(bf16, LSE_BF16)
