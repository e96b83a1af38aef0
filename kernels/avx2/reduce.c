/* SPDX-License-Identifier: MIT */
/*
 * reduce.c: AVX2 + FMA + F16C ReduceSum kernels for every summable dtype.
 *
 *   reduce:        y[o][i]    = sum_j x[o][j][i]   (shape (outer, n, inner))
 *   reduce_acc:    acc[o][i] += sum_j x[o][j][i]   (double for floats, uint64_t for integers)
 *   reduce_finish: y[k] = acc[k] rounded once to the element type
 *
 * Two families share one generic body each (always-inline functions taking a
 * constant `kind`, instantiated by the thin per-dtype wrappers at the end):
 *
 * f32, f16, bf16 ("float family"): terms are widened to f32 lanes (exact) and
 * summed in f32 only in pairwise trees over at most 8 vectors -- so a term
 * passes through at most 3 f32 roundings -- whose results are widened to f64
 * (vcvtps2pd, exact) and added into f64 accumulators; horizontal sums and the
 * fold of lanes are f64.  Bound: |error| <= 3*2^-24*sum|x| (the tree) +
 * (terms)*2^-53*sum|x| (the f64 part) + half an ulp of the output, i.e.
 * c = 3 (+ 2^-29*n, below 1 for n < 2^29) in docs/API.md's bound.  Paths:
 *   - rows (inner == 1, n >= 16): each row is summed in blocks of 8 vectors
 *     (64 elements, one tree), two blocks per step into two pairs of f64
 *     accumulators to hide the add latency; leftover whole vectors are widened
 *     and added without any f32 rounding.  8 rows at a time are reduced
 *     horizontally by an f64 hadd transpose, so 8 outputs leave as one vector.
 *   - short rows (inner == 1, n <= 15): 8 rows per step.  n == 2: one hadd of
 *     two loads gives the 8 pair sums (+ vpermpd); n == 4: two hadd levels of
 *     four loads (+ vpermps); other n <= 8: one load per row with lanes >= n
 *     blended to -0.0, then an hadd transpose (hadd, hadd, add: 3 roundings);
 *     9..15: two such transposes (elements 0..7 and 8..n-1) joined in f64.
 *     "hadd" is vshufps evens + vshufps odds + vaddps: the same sums, and
 *     twice as fast as vhaddps here.  Groups whose loads would pass the end of
 *     x run on a -0.0-padded copy.
 *   - columns (inner a multiple of 8 or >= 16): chunks of up to 4096 columns
 *     for reduce_acc (16 KiB runs per f32 row, summed into acc itself: the
 *     prefetchers need long runs, 8 KiB runs down 1024 rows stayed near 0.7
 *     of the read probe) and of 1024 columns for reduce, whose f64
 *     accumulator row (8 KiB) is on the caller's stack, which a call may use
 *     only 16 KiB of; the chunk width does not change any sum (each column is
 *     summed alone, in the same order); 8 rows at a time, 4 column
 *     vectors per step (whole cache lines of each row); each column vector is
 *     the tree of 8 rows, widened and added into that f64 accumulator row
 *     (the output chunk's own acc for reduce_acc).  A column count that is not a
 *     multiple of 8 ends with one overlapping vector (the last 8 columns) in
 *     its own accumulator, of which only the lanes past the whole vectors count.
 *   - small inner (2..15, not a multiple of 8): x[o] is read as one flat run of
 *     n*inner elements in blocks of P = lcm(inner, 8) elements: vector m of a
 *     block always holds the same columns, so P/8 vector accumulators (each fed
 *     by trees over 8 blocks) are folded lane -> column (mod inner) at the end.
 * f16/bf16 outputs from f64 round once: f64 -> f32 rounding to odd (RNE, then
 * step the lsb toward the exact value when inexact and even), then f32 -> f16
 * / bf16 RNE; with 24 >= 11 + 2 bits this is exactly one rounding.  Where a
 * result is already an f32 sum (short rows n <= 8) it is rounded once from
 * f32, as the contract allows ("accumulated in f32").  Known limit of any f32 partial
 * sum: a tree whose partial exceeds FLT_MAX gives inf where an f64 sum might
 * come back into range.
 *
 * f64 and the integers ("own-type family"): plain vertical adds in the
 * element's own width (integers wrap in unsigned lanes, so i8 and u8 -- and
 * each signed/unsigned pair -- share one kernel per element size); f64 is
 * plain f64 addition in any order (4 accumulators).  reduce_acc adds the
 * wrapped row/column sum to the uint64_t acc (its low bits are what counts).
 * Paths: rows (4 accumulators, lanes summed at the end), columns (4 rows per
 * pass added into a chunk accumulator row, overlapping last vector as above),
 * small inner (< 32 bytes: the same periodic-lane trick with
 * lcm(inner, lanes)/lanes accumulators).  Short rows of these types are summed
 * per row by the rows path's scalar tail.
 *
 * Sums start from -0.0 (floats) / 0 (integers).  Tails: nothing outside the
 * tensors is read or written; a partial vector is copied into a stack buffer
 * pre-filled with -0.0 (or 0) and loaded from there, partial outputs are
 * stored through a stack buffer and copied.  n == 1: reduce is a copy.
 * The loops over a tree's 8 vectors carry `#pragma GCC unroll 8`: without it
 * GCC 12 kept the vectors in a stack array (3.5x slower).
 */
#include <string.h>

#include "avx2.h"

#define AXIAL_INLINE static inline __attribute__((always_inline))
#define AXIAL_MIN(a, b) ((a) < (b) ? (a) : (b))

/* Columns are reduced in chunks: long runs of each row for the prefetchers,
 * while the f64 accumulator row stays in L1/L2.  reduce_acc sums into acc
 * itself; reduce (float family) needs an f64 row of its own, on the caller's
 * stack, which is bounded (16 KiB per call, README): that chunk is narrower. */
#define AXIAL_COL_CHUNK 4096 /* float family, reduce_acc: columns per chunk */
#define AXIAL_COL_STACK 1024 /* float family, reduce: columns per chunk (8 KiB of f64) */
#define AXIAL_GCOL_BYTES 4096 /* own-type family: bytes of columns per chunk */

static size_t axial_gcd(size_t a, size_t b) {
    while (b) {
        const size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* ======================================================================
 * Float family: f32, f16, bf16
 * ====================================================================== */
enum { FK_F32, FK_F16, FK_BF16 };

AXIAL_INLINE size_t f_size(int k) { return k == FK_F32 ? 4 : 2; }
AXIAL_INLINE const void *f_at(int k, const void *p, size_t i) {
    return (const char *)p + i * f_size(k);
}

AXIAL_INLINE __m256 f_load(int k, const void *p) {
    if (k == FK_F32)
        return _mm256_loadu_ps((const float *)p);
    if (k == FK_F16)
        return axial_avx2_load_f16((const uint16_t *)p);
    return axial_avx2_load_bf16((const uint16_t *)p);
}

/* Fills `words` 32-bit words with -0.0 of the element type (f32: one per
 * word; f16/bf16: two, 0x8000 each). */
AXIAL_INLINE void f_fill_negzero(int k, uint32_t *buf, size_t words) {
    const uint32_t pat = k == FK_F32 ? 0x80000000u : 0x80008000u;
    for (size_t i = 0; i < words; i++)
        buf[i] = pat;
}

/* cnt (0..8) elements from p, the other lanes -0.0; reads only the cnt. */
AXIAL_INLINE __m256 f_load_part(int k, const void *p, size_t cnt) {
    uint32_t buf[8];
    f_fill_negzero(k, buf, 8);
    memcpy(buf, p, cnt * f_size(k));
    return f_load(k, buf);
}

/* 8 f32 lanes -> 8 elements, rounding once (RNE). */
AXIAL_INLINE void f_store(int k, void *y, __m256 s) {
    if (k == FK_F32)
        _mm256_storeu_ps((float *)y, s);
    else if (k == FK_F16)
        _mm_storeu_si128((__m128i *)y, axial_avx2_f32_to_f16(s));
    else
        _mm_storeu_si128((__m128i *)y, axial_avx2_f32_to_bf16(s));
}
AXIAL_INLINE void f_store_part(int k, void *y, __m256 s, size_t cnt) {
    uint32_t buf[8];
    f_store(k, buf, s);
    memcpy(y, buf, cnt * f_size(k));
}

/* f64 -> f32 rounding to odd: RNE, then where that was inexact and gave an
 * even significand, step to the odd neighbour on the exact value's side.  A
 * later RNE to f16/bf16 then rounds as if straight from f64.  NaN compares
 * unordered (left alone); overflow to inf steps back to FLT_MAX (odd), which
 * still rounds to inf in f16/bf16; underflow to 0 steps to the smallest
 * subnormal, which still rounds to 0. */
static inline __m128 f_round_odd(__m256d d) {
    const __m128 f = _mm256_cvtpd_ps(d);
    const __m256d back = _mm256_cvtps_pd(f);
    const __m256d abs = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
    const __m256d inexact = _mm256_cmp_pd(back, d, _CMP_NEQ_OQ);
    const __m256d away =
        _mm256_cmp_pd(_mm256_and_pd(back, abs), _mm256_and_pd(d, abs), _CMP_GT_OQ);
    const __m256i pick = _mm256_setr_epi32(0, 2, 4, 6, 0, 0, 0, 0);
    const __m128i inex32 = _mm256_castsi256_si128(
        _mm256_permutevar8x32_epi32(_mm256_castpd_si256(inexact), pick));
    const __m128i away32 = _mm256_castsi256_si128(
        _mm256_permutevar8x32_epi32(_mm256_castpd_si256(away), pick));
    const __m128i bits = _mm_castps_si128(f);
    const __m128i one = _mm_set1_epi32(1);
    const __m128i even = _mm_cmpeq_epi32(_mm_and_si128(bits, one), _mm_setzero_si128());
    /* delta: 0 (exact or already odd), -1 (f is above |d|), +1 (below) */
    const __m128i delta = _mm_and_si128(_mm_and_si128(inex32, even), _mm_or_si128(away32, one));
    return _mm_castsi128_ps(_mm_add_epi32(bits, delta));
}

/* 8 f64 sums -> 8 f32 lanes such that f_store rounds them exactly once. */
AXIAL_INLINE __m256 f_narrow(int k, __m256d lo, __m256d hi) {
    if (k == FK_F32)
        return _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
    return _mm256_set_m128(f_round_odd(hi), f_round_odd(lo));
}

AXIAL_INLINE void f_widen_add(__m256 s, __m256d *lo, __m256d *hi) {
    *lo = _mm256_add_pd(*lo, _mm256_cvtps_pd(_mm256_castps256_ps128(s)));
    *hi = _mm256_add_pd(*hi, _mm256_cvtps_pd(_mm256_extractf128_ps(s, 1)));
}

/* Pairwise tree of 8 vectors: every term sees 3 f32 roundings. */
AXIAL_INLINE __m256 f_tree8(const __m256 v[8]) {
    return _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(v[0], v[1]), _mm256_add_ps(v[2], v[3])),
                         _mm256_add_ps(_mm256_add_ps(v[4], v[5]), _mm256_add_ps(v[6], v[7])));
}

/* vhaddps as two shuffles and an add (evens + odds per 128-bit lane): the
 * same sums, cheaper than vhaddps on recent cores. */
AXIAL_INLINE __m256 f_hadd(__m256 a, __m256 b) {
    return _mm256_add_ps(_mm256_shuffle_ps(a, b, 0x88), _mm256_shuffle_ps(a, b, 0xdd));
}

/* Transposing tree: lane r of the result is the sum of the 8 lanes of v[r]
 * (hadd, hadd, add: 3 roundings per term). */
AXIAL_INLINE __m256 f_tree8_t(const __m256 v[8]) {
    const __m256 g0 = f_hadd(f_hadd(v[0], v[1]), f_hadd(v[2], v[3]));
    const __m256 g1 = f_hadd(f_hadd(v[4], v[5]), f_hadd(v[6], v[7]));
    return _mm256_add_ps(_mm256_permute2f128_ps(g0, g1, 0x20),
                         _mm256_permute2f128_ps(g0, g1, 0x31));
}

/* Lane r of the result: the sum of the 4 lanes of (a, b, c, d)[r], in f64. */
AXIAL_INLINE __m256d f_hsum4(__m256d a, __m256d b, __m256d c, __m256d d) {
    const __m256d ab = _mm256_hadd_pd(a, b); /* a01 b01 a23 b23 */
    const __m256d cd = _mm256_hadd_pd(c, d);
    return _mm256_add_pd(_mm256_permute2f128_pd(ab, cd, 0x20),
                         _mm256_permute2f128_pd(ab, cd, 0x31));
}

/* acc[0..cnt) += the f64 lanes (lo, hi). */
AXIAL_INLINE void f_acc_add(double *acc, __m256d lo, __m256d hi, size_t cnt) {
    if (cnt == 8) {
        _mm256_storeu_pd(acc, _mm256_add_pd(_mm256_loadu_pd(acc), lo));
        _mm256_storeu_pd(acc + 4, _mm256_add_pd(_mm256_loadu_pd(acc + 4), hi));
        return;
    }
    double t[8];
    _mm256_storeu_pd(t, lo);
    _mm256_storeu_pd(t + 4, hi);
    for (size_t i = 0; i < cnt; i++)
        acc[i] += t[i];
}

/* Output sink of a path: reduce (acc == NULL) stores y[off..off+cnt) rounded
 * once; reduce_acc adds into acc[off..off+cnt). */
AXIAL_INLINE void f_emit64(int k, void *y, double *acc, size_t off, __m256d lo, __m256d hi,
                           size_t cnt) {
    if (acc) {
        f_acc_add(acc + off, lo, hi, cnt);
    } else if (cnt == 8) {
        f_store(k, (void *)f_at(k, y, off), f_narrow(k, lo, hi));
    } else {
        f_store_part(k, (void *)f_at(k, y, off), f_narrow(k, lo, hi), cnt);
    }
}
AXIAL_INLINE void f_emit32(int k, void *y, double *acc, size_t off, __m256 s, size_t cnt) {
    if (acc) {
        f_acc_add(acc + off, _mm256_cvtps_pd(_mm256_castps256_ps128(s)),
                  _mm256_cvtps_pd(_mm256_extractf128_ps(s, 1)), cnt);
    } else if (cnt == 8) {
        f_store(k, (void *)f_at(k, y, off), s);
    } else {
        f_store_part(k, (void *)f_at(k, y, off), s, cnt);
    }
}

/* reduce_finish body: 8 outputs per step, the tail through a padded buffer. */
AXIAL_INLINE void f_finish(int k, const double *acc, void *y, size_t count) {
    size_t i = 0;
    for (; i + 8 <= count; i += 8)
        f_store(k, (void *)f_at(k, y, i),
                f_narrow(k, _mm256_loadu_pd(acc + i), _mm256_loadu_pd(acc + i + 4)));
    if (i < count) {
        double t[8] = {-0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0, -0.0};
        memcpy(t, acc + i, (count - i) * sizeof(double));
        f_store_part(k, (void *)f_at(k, y, i),
                     f_narrow(k, _mm256_loadu_pd(t), _mm256_loadu_pd(t + 4)), count - i);
    }
}

/*
 * The flat core: `count` consecutive elements, vector q (elements 8q..8q+7)
 * going to accumulator pair acc[2m], acc[2m+1] with m = q mod slots.  Trees
 * combine the 8 vectors of one slot in 8 consecutive blocks of 8*slots
 * elements; leftover whole vectors are widened alone, the last partial
 * vector is padded with -0.0.  acc must start at -0.0.
 */
AXIAL_INLINE void f_flat(int k, const void *x, size_t count, size_t slots, __m256d *acc) {
    size_t q = 0;
    __m256 v[8];
    if (slots == 1) { /* rows: two trees per step into two accumulator pairs */
        __m256d e0 = acc[0], e1 = acc[1];
        __m256d e2 = _mm256_set1_pd(-0.0), e3 = e2;
        for (; q + 128 <= count; q += 128) {
            #pragma GCC unroll 8
            for (size_t b = 0; b < 8; b++)
                v[b] = f_load(k, f_at(k, x, q + 8 * b));
            f_widen_add(f_tree8(v), &e0, &e1);
            #pragma GCC unroll 8
            for (size_t b = 0; b < 8; b++)
                v[b] = f_load(k, f_at(k, x, q + 64 + 8 * b));
            f_widen_add(f_tree8(v), &e2, &e3);
        }
        acc[0] = _mm256_add_pd(e0, e2);
        acc[1] = _mm256_add_pd(e1, e3);
    }
    const size_t step = 64 * slots;
    for (; q + step <= count; q += step) {
        for (size_t m = 0; m < slots; m++) {
            #pragma GCC unroll 8
            for (size_t b = 0; b < 8; b++)
                v[b] = f_load(k, f_at(k, x, q + 8 * (m + slots * b)));
            f_widen_add(f_tree8(v), &acc[2 * m], &acc[2 * m + 1]);
        }
    }
    size_t m = 0;
    for (; q + 8 <= count; q += 8) {
        f_widen_add(f_load(k, f_at(k, x, q)), &acc[2 * m], &acc[2 * m + 1]);
        if (++m == slots)
            m = 0;
    }
    if (q < count)
        f_widen_add(f_load_part(k, f_at(k, x, q), count - q), &acc[2 * m], &acc[2 * m + 1]);
}

/* Rows of n >= 16: one flat run per row, 8 rows transposed per output vector. */
AXIAL_INLINE void f_rows(int k, const void *x, void *y, double *acc, size_t outer, size_t n) {
    const __m256d nz = _mm256_set1_pd(-0.0);
    for (size_t o0 = 0; o0 < outer; o0 += 8) {
        const size_t cnt = AXIAL_MIN(8, outer - o0);
        __m256d s[8];
        for (size_t r = 0; r < 8; r++) {
            __m256d a[2] = {nz, nz};
            if (r < cnt)
                f_flat(k, f_at(k, x, (o0 + r) * n), n, 1, a);
            s[r] = _mm256_add_pd(a[0], a[1]);
        }
        f_emit64(k, y, acc, o0, f_hsum4(s[0], s[1], s[2], s[3]), f_hsum4(s[4], s[5], s[6], s[7]),
                 cnt);
    }
}

/* Rows of n <= 8 starting at base, 8 of them, rows padded to 8 lanes. */
AXIAL_INLINE __m256 f_short8(int k, const void *base, size_t n, size_t from, __m256 mask) {
    const __m256 nz = _mm256_set1_ps(-0.0f);
    __m256 v[8];
    #pragma GCC unroll 8
    for (size_t r = 0; r < 8; r++)
        v[r] = _mm256_blendv_ps(nz, f_load(k, f_at(k, base, r * n + from)), mask);
    return f_tree8_t(v);
}

/* 8 short rows (n <= 15) starting at base -> their 8 sums, to the sink. */
AXIAL_INLINE void f_short_group(int k, const void *base, size_t n, void *y, double *acc,
                                size_t o0, size_t cnt, __m256 mask_lo, __m256 mask_hi) {
    if (n == 2) {
        const __m256 h = f_hadd(f_load(k, base), f_load(k, f_at(k, base, 8)));
        /* h = rows 0 1 4 5 | 2 3 6 7 */
        f_emit32(k, y, acc, o0,
                 _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(h), 0xd8)), cnt);
    } else if (n == 4) {
        const __m256 h01 = f_hadd(f_load(k, base), f_load(k, f_at(k, base, 8)));
        const __m256 h23 = f_hadd(f_load(k, f_at(k, base, 16)), f_load(k, f_at(k, base, 24)));
        const __m256 g = f_hadd(h01, h23); /* rows 0 2 4 6 | 1 3 5 7 */
        f_emit32(k, y, acc, o0,
                 _mm256_permutevar8x32_ps(g, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)), cnt);
    } else if (n <= 8) {
        f_emit32(k, y, acc, o0, f_short8(k, base, n, 0, mask_lo), cnt);
    } else {
        const __m256 a = f_short8(k, base, n, 0, mask_lo);
        const __m256 b = f_short8(k, base, n, 8, mask_hi);
        __m256d lo = _mm256_cvtps_pd(_mm256_castps256_ps128(a));
        __m256d hi = _mm256_cvtps_pd(_mm256_extractf128_ps(a, 1));
        f_widen_add(b, &lo, &hi);
        f_emit64(k, y, acc, o0, lo, hi, cnt);
    }
}

/* Short rows, n <= 15, 8 rows per step (see the header); the groups whose
 * loads would pass the end of x go through a -0.0-padded copy. */
AXIAL_INLINE void f_short_n(int k, const void *x, void *y, double *acc, size_t outer, size_t n) {
    const size_t total = outer * n;
    const size_t need = (n == 2 || n == 4) ? 8 * n : 7 * n + (n <= 8 ? 8 : 16);
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 mask_lo = _mm256_castsi256_ps(
        _mm256_cmpgt_epi32(_mm256_set1_epi32((int)AXIAL_MIN(n, 8)), lane));
    const __m256 mask_hi = _mm256_castsi256_ps(
        _mm256_cmpgt_epi32(_mm256_set1_epi32(n > 8 ? (int)(n - 8) : 0), lane));
    size_t o0 = 0;
    for (; o0 + 8 <= outer && o0 * n + need <= total; o0 += 8)
        f_short_group(k, f_at(k, x, o0 * n), n, y, acc, o0, 8, mask_lo, mask_hi);
    for (; o0 < outer; o0 += 8) {
        uint32_t buf[8 * 15 + 16];
        const size_t cnt = AXIAL_MIN(8, outer - o0);
        f_fill_negzero(k, buf, sizeof buf / sizeof buf[0]);
        memcpy(buf, f_at(k, x, o0 * n), cnt * n * f_size(k));
        f_short_group(k, buf, n, y, acc, o0, cnt, mask_lo, mask_hi);
    }
}
/* One loop per common n, so that its group code is straight-line. */
AXIAL_INLINE void f_short(int k, const void *x, void *y, double *acc, size_t outer, size_t n) {
    if (n == 2)
        f_short_n(k, x, y, acc, outer, 2);
    else if (n == 4)
        f_short_n(k, x, y, acc, outer, 4);
    else
        f_short_n(k, x, y, acc, outer, n);
}

/* Tree of `rb` (<= 8) rows of one column vector; missing rows are -0.0. */
AXIAL_INLINE __m256 f_colsum(int k, const void *p, size_t stride, size_t rb) {
    __m256 v[8];
    #pragma GCC unroll 8
    for (size_t b = 0; b < 8; b++)
        v[b] = b < rb ? f_load(k, f_at(k, p, b * stride)) : _mm256_set1_ps(-0.0f);
    return f_tree8(v);
}

/* dacc[0..w) += column sums of rows j..j+rb-1 of w (>= 8) columns, `stride` apart. */
AXIAL_INLINE void f_cols_block(int k, const void *x, double *dacc, size_t w, size_t stride,
                               size_t j, size_t rb, __m256d *tl, __m256d *th) {
    const size_t nv = w / 8;
    const void *p = f_at(k, x, j * stride);
    size_t c = 0;
    for (; c + 4 <= nv; c += 4) { /* 4 trees per step: whole cache lines of each row */
        __m256 s[4];
        #pragma GCC unroll 4
        for (size_t u = 0; u < 4; u++)
            s[u] = f_colsum(k, f_at(k, p, 8 * (c + u)), stride, rb);
        #pragma GCC unroll 4
        for (size_t u = 0; u < 4; u++) {
            double *d = dacc + 8 * (c + u);
            __m256d lo = _mm256_loadu_pd(d), hi = _mm256_loadu_pd(d + 4);
            f_widen_add(s[u], &lo, &hi);
            _mm256_storeu_pd(d, lo);
            _mm256_storeu_pd(d + 4, hi);
        }
    }
    for (; c < nv; c++) {
        __m256d lo = _mm256_loadu_pd(dacc + 8 * c), hi = _mm256_loadu_pd(dacc + 8 * c + 4);
        f_widen_add(f_colsum(k, f_at(k, p, 8 * c), stride, rb), &lo, &hi);
        _mm256_storeu_pd(dacc + 8 * c, lo);
        _mm256_storeu_pd(dacc + 8 * c + 4, hi);
    }
    if (w % 8)
        f_widen_add(f_colsum(k, f_at(k, p, w - 8), stride, rb), tl, th);
}
/* dacc[0..w) += column sums of n rows. */
AXIAL_INLINE void f_cols(int k, const void *x, double *dacc, size_t n, size_t w, size_t stride) {
    __m256d tl = _mm256_set1_pd(-0.0), th = tl;
    size_t j = 0;
    for (; j + 8 <= n; j += 8)
        f_cols_block(k, x, dacc, w, stride, j, 8, &tl, &th);
    if (j < n)
        f_cols_block(k, x, dacc, w, stride, j, n - j, &tl, &th);
    if (w % 8) { /* the overlapping last vector: only its lanes past the whole vectors */
        double t[8];
        _mm256_storeu_pd(t, tl);
        _mm256_storeu_pd(t + 4, th);
        for (size_t l = 8 - w % 8; l < 8; l++)
            dacc[w - 8 + l] += t[l];
    }
}

/* The float family's body for reduce (acc == NULL) and reduce_acc. */
AXIAL_INLINE void f_reduce(int k, const void *x, void *y, double *acc, size_t outer, size_t n,
                           size_t inner) {
    if (y && n == 1) { /* a sum of one term: the term */
        memcpy(y, x, outer * inner * f_size(k));
        return;
    }
    if (inner == 1) {
        if (n <= 15)
            f_short(k, x, y, acc, outer, n);
        else
            f_rows(k, x, y, acc, outer, n);
        return;
    }
    if (inner < 16 && inner % 8 != 0) {
        const size_t slots = inner / axial_gcd(inner, 8);
        for (size_t o = 0; o < outer; o++) {
            __m256d a[2 * 15];
            for (size_t m = 0; m < 2 * slots; m++)
                a[m] = _mm256_set1_pd(-0.0);
            const void *xo = f_at(k, x, o * n * inner);
            if (slots == 1)
                f_flat(k, xo, n * inner, 1, a);
            else
                f_flat(k, xo, n * inner, slots, a);
            double lanes[8 * 15], out[15];
            for (size_t m = 0; m < 2 * slots; m++)
                _mm256_storeu_pd(lanes + 4 * m, a[m]);
            for (size_t i = 0; i < inner; i++)
                out[i] = -0.0;
            for (size_t q = 0; q < 8 * slots; q++)
                out[q % inner] += lanes[q];
            if (acc) {
                for (size_t i = 0; i < inner; i++)
                    acc[o * inner + i] += out[i];
            } else {
                f_finish(k, out, (void *)f_at(k, y, o * inner), inner);
            }
        }
        return;
    }
    double buf[AXIAL_COL_STACK];
    const size_t chunk = acc ? AXIAL_COL_CHUNK : AXIAL_COL_STACK;
    for (size_t o = 0; o < outer; o++) {
        for (size_t i0 = 0; i0 < inner;) {
            size_t w = AXIAL_MIN(chunk, inner - i0);
            if (inner - i0 - w > 0 && inner - i0 - w < 8)
                w -= 8; /* keep the last chunk >= 8 columns wide */
            const void *xo = f_at(k, x, o * n * inner + i0);
            if (acc) {
                f_cols(k, xo, acc + o * inner + i0, n, w, inner);
            } else {
                for (size_t i = 0; i < w; i++)
                    buf[i] = -0.0;
                f_cols(k, xo, buf, n, w, inner);
                f_finish(k, buf, (void *)f_at(k, y, o * inner + i0), w);
            }
            i0 += w;
        }
    }
}

/* ======================================================================
 * Own-type family: integers by element size, and f64
 * ====================================================================== */
enum { GK_B1, GK_B2, GK_B4, GK_B8, GK_F64 };

AXIAL_INLINE size_t g_size(int k) {
    return k == GK_B1 ? 1 : k == GK_B2 ? 2 : k == GK_B4 ? 4 : 8;
}
AXIAL_INLINE const void *g_at(int k, const void *p, size_t i) {
    return (const char *)p + i * g_size(k);
}
AXIAL_INLINE __m256i g_load(int k, const void *p) {
    (void)k;
    return _mm256_loadu_si256((const __m256i *)p);
}
AXIAL_INLINE __m256i g_add(int k, __m256i a, __m256i b) {
    switch (k) {
    case GK_B1: return _mm256_add_epi8(a, b);
    case GK_B2: return _mm256_add_epi16(a, b);
    case GK_B4: return _mm256_add_epi32(a, b);
    case GK_B8: return _mm256_add_epi64(a, b);
    default:
        return _mm256_castpd_si256(
            _mm256_add_pd(_mm256_castsi256_pd(a), _mm256_castsi256_pd(b)));
    }
}
AXIAL_INLINE __m256i g_start_vec(int k) {
    return k == GK_F64 ? _mm256_castpd_si256(_mm256_set1_pd(-0.0)) : _mm256_setzero_si256();
}

/* Scalars travel as 64-bit patterns: the zero-extended integer (its low bits
 * are the wrapped sum) or the f64 bits; these are also the bits of the
 * reduce_acc accumulator. */
AXIAL_INLINE uint64_t g_start(int k) { return k == GK_F64 ? 0x8000000000000000ull : 0; }
AXIAL_INLINE uint64_t g_get(int k, const void *p, size_t i) {
    const void *e = g_at(k, p, i);
    switch (k) {
    case GK_B1: return *(const uint8_t *)e;
    case GK_B2: { uint16_t v; memcpy(&v, e, 2); return v; }
    case GK_B4: { uint32_t v; memcpy(&v, e, 4); return v; }
    default: { uint64_t v; memcpy(&v, e, 8); return v; }
    }
}
AXIAL_INLINE void g_put(int k, void *p, size_t i, uint64_t v) {
    void *e = (char *)p + i * g_size(k);
    switch (k) {
    case GK_B1: *(uint8_t *)e = (uint8_t)v; break;
    case GK_B2: { const uint16_t t = (uint16_t)v; memcpy(e, &t, 2); break; }
    case GK_B4: { const uint32_t t = (uint32_t)v; memcpy(e, &t, 4); break; }
    default: memcpy(e, &v, 8); break;
    }
}
AXIAL_INLINE uint64_t g_sadd(int k, uint64_t a, uint64_t b) {
    if (k != GK_F64)
        return a + b;
    double da, db;
    memcpy(&da, &a, 8);
    memcpy(&db, &b, 8);
    da += db;
    memcpy(&a, &da, 8);
    return a;
}
/* s + every lane of v, in lane order. */
AXIAL_INLINE uint64_t g_lanes_add(int k, uint64_t s, __m256i v) {
    unsigned char t[32];
    _mm256_storeu_si256((__m256i *)t, v);
    for (size_t l = 0; l < 32 / g_size(k); l++)
        s = g_sadd(k, s, g_get(k, t, l));
    return s;
}
/* Sink: reduce stores y[off] (the low bits); reduce_acc adds into acc[off]. */
AXIAL_INLINE void g_emit(int k, void *y, uint64_t *acc, size_t off, uint64_t s) {
    if (acc)
        acc[off] = g_sadd(k, acc[off], s);
    else
        g_put(k, y, off, s);
}

/* One row: 4 accumulators over whole vectors, lanes summed, scalar tail. */
AXIAL_INLINE uint64_t g_rowsum(int k, const void *p, size_t n) {
    const size_t L = 32 / g_size(k);
    __m256i a0 = g_start_vec(k), a1 = a0, a2 = a0, a3 = a0;
    size_t j = 0;
    for (; j + 4 * L <= n; j += 4 * L) {
        a0 = g_add(k, a0, g_load(k, g_at(k, p, j)));
        a1 = g_add(k, a1, g_load(k, g_at(k, p, j + L)));
        a2 = g_add(k, a2, g_load(k, g_at(k, p, j + 2 * L)));
        a3 = g_add(k, a3, g_load(k, g_at(k, p, j + 3 * L)));
    }
    for (; j + L <= n; j += L)
        a0 = g_add(k, a0, g_load(k, g_at(k, p, j)));
    uint64_t s = g_start(k);
    if (n >= L)
        s = g_lanes_add(k, s, g_add(k, g_add(k, a0, a1), g_add(k, a2, a3)));
    for (; j < n; j++)
        s = g_sadd(k, s, g_get(k, p, j));
    return s;
}

/* dst[0..w) (own type, w >= lanes) += column sums of n rows `stride` apart. */
AXIAL_INLINE void g_cols(int k, const void *x, void *dst, size_t n, size_t w, size_t stride) {
    const size_t L = 32 / g_size(k), nv = w / L, tail = w % L;
    __m256i t = g_start_vec(k);
    size_t j = 0;
    for (; j + 4 <= n; j += 4) {
        const void *p = g_at(k, x, j * stride);
        for (size_t c = 0; c <= nv; c++) {
            size_t col = c * L;
            if (c == nv) {
                if (!tail)
                    break;
                col = w - L;
            }
            const void *q = g_at(k, p, col);
            const __m256i s01 = g_add(k, g_load(k, q), g_load(k, g_at(k, q, stride)));
            const __m256i s23 =
                g_add(k, g_load(k, g_at(k, q, 2 * stride)), g_load(k, g_at(k, q, 3 * stride)));
            const __m256i s = g_add(k, s01, s23);
            if (c == nv) {
                t = g_add(k, t, s);
            } else {
                __m256i *d = (__m256i *)(void *)((char *)dst + col * g_size(k));
                _mm256_storeu_si256(d, g_add(k, _mm256_loadu_si256(d), s));
            }
        }
    }
    for (; j < n; j++) {
        const void *p = g_at(k, x, j * stride);
        for (size_t c = 0; c < nv; c++) {
            __m256i *d = (__m256i *)(void *)((char *)dst + c * L * g_size(k));
            _mm256_storeu_si256(d, g_add(k, _mm256_loadu_si256(d), g_load(k, g_at(k, p, c * L))));
        }
        if (tail)
            t = g_add(k, t, g_load(k, g_at(k, p, w - L)));
    }
    if (tail) { /* the overlapping last vector: only its lanes past the whole vectors */
        unsigned char b[32];
        _mm256_storeu_si256((__m256i *)b, t);
        for (size_t l = L - tail; l < L; l++)
            g_put(k, dst, w - L + l, g_sadd(k, g_get(k, dst, w - L + l), g_get(k, b, l)));
    }
}

/* The own-type family's body for reduce (acc == NULL) and reduce_acc. */
AXIAL_INLINE void g_reduce(int k, const void *x, void *y, uint64_t *acc, size_t outer, size_t n,
                           size_t inner) {
    const size_t L = 32 / g_size(k);
    if (y && n == 1) { /* a sum of one term: the term */
        memcpy(y, x, outer * inner * g_size(k));
        return;
    }
    if (inner == 1) {
        for (size_t o = 0; o < outer; o++)
            g_emit(k, y, acc, o, g_rowsum(k, g_at(k, x, o * n), n));
        return;
    }
    if (inner < L) { /* periodic lanes: slot m of a block of lcm(inner, L) */
        const size_t slots = inner / axial_gcd(inner, L), count = n * inner;
        for (size_t o = 0; o < outer; o++) {
            const void *xo = g_at(k, x, o * count);
            __m256i a[31];
            for (size_t m = 0; m < slots; m++)
                a[m] = g_start_vec(k);
            size_t q = 0;
            for (; q + slots * L <= count; q += slots * L)
                for (size_t m = 0; m < slots; m++)
                    a[m] = g_add(k, a[m], g_load(k, g_at(k, xo, q + m * L)));
            for (size_t m = 0; q + L <= count; q += L, m++)
                a[m] = g_add(k, a[m], g_load(k, g_at(k, xo, q)));
            uint64_t out[31];
            for (size_t i = 0; i < inner; i++)
                out[i] = g_start(k);
            for (size_t m = 0; m < slots; m++) {
                unsigned char b[32];
                _mm256_storeu_si256((__m256i *)b, a[m]);
                for (size_t l = 0; l < L; l++)
                    out[(m * L + l) % inner] = g_sadd(k, out[(m * L + l) % inner], g_get(k, b, l));
            }
            for (; q < count; q++)
                out[q % inner] = g_sadd(k, out[q % inner], g_get(k, xo, q));
            for (size_t i = 0; i < inner; i++)
                g_emit(k, y, acc, o * inner + i, out[i]);
        }
        return;
    }
    /* columns: reduce accumulates straight into y, reduce_acc into acc when
     * the element is 8 bytes wide (same bits), else into a buffer */
    const size_t chunk = AXIAL_GCOL_BYTES / g_size(k);
    uint64_t buf[AXIAL_GCOL_BYTES / 8];
    for (size_t o = 0; o < outer; o++) {
        for (size_t i0 = 0; i0 < inner;) {
            size_t w = AXIAL_MIN(chunk, inner - i0);
            if (inner - i0 - w > 0 && inner - i0 - w < L)
                w -= L;
            const void *xo = g_at(k, x, o * n * inner + i0);
            const size_t off = o * inner + i0;
            void *dst = acc ? (g_size(k) == 8 ? (void *)(acc + off) : (void *)buf)
                            : (void *)g_at(k, y, off);
            if (!acc || g_size(k) != 8)
                for (size_t i = 0; i < w; i++)
                    g_put(k, dst, i, g_start(k));
            g_cols(k, xo, dst, n, w, inner);
            if (acc && g_size(k) != 8)
                for (size_t i = 0; i < w; i++)
                    acc[off + i] += g_get(k, buf, i);
            i0 += w;
        }
    }
}

AXIAL_INLINE void g_finish(int k, const uint64_t *acc, void *y, size_t count) {
    for (size_t i = 0; i < count; i++)
        g_put(k, y, i, acc[i]);
}

/* ======================================================================
 * The kernels: one instantiation per family member, thin per-dtype names.
 * ====================================================================== */
#define AXIAL_F_KERNELS(name, K)                                                               \
    void axial_reduce_##name##__avx2(const void *x, void *y, size_t outer, size_t n,          \
                                     size_t inner) {                                          \
        f_reduce(K, x, y, NULL, outer, n, inner);                                             \
    }                                                                                         \
    void axial_reduce_acc_##name##__avx2(const void *x, void *acc, size_t outer, size_t n,    \
                                         size_t inner) {                                      \
        f_reduce(K, x, NULL, (double *)acc, outer, n, inner);                                 \
    }                                                                                         \
    void axial_reduce_finish_##name##__avx2(const void *acc, void *y, size_t count) {         \
        f_finish(K, (const double *)acc, y, count);                                           \
    }
AXIAL_F_KERNELS(f32, FK_F32)
AXIAL_F_KERNELS(f16, FK_F16)
AXIAL_F_KERNELS(bf16, FK_BF16)

#define AXIAL_G_BODIES(sz, K)                                                                  \
    static void g_reduce_##sz(const void *x, void *y, size_t outer, size_t n, size_t inner) { \
        g_reduce(K, x, y, NULL, outer, n, inner);                                             \
    }                                                                                         \
    static void g_reduce_acc_##sz(const void *x, void *acc, size_t outer, size_t n,           \
                                  size_t inner) {                                             \
        g_reduce(K, x, NULL, (uint64_t *)acc, outer, n, inner);                               \
    }                                                                                         \
    static void g_finish_##sz(const void *acc, void *y, size_t count) {                       \
        g_finish(K, (const uint64_t *)acc, y, count);                                         \
    }
AXIAL_G_BODIES(b1, GK_B1)
AXIAL_G_BODIES(b2, GK_B2)
AXIAL_G_BODIES(b4, GK_B4)
AXIAL_G_BODIES(b8, GK_B8)
AXIAL_G_BODIES(f64, GK_F64)

#define AXIAL_G_KERNELS(name, sz)                                                              \
    void axial_reduce_##name##__avx2(const void *x, void *y, size_t outer, size_t n,          \
                                     size_t inner) {                                          \
        g_reduce_##sz(x, y, outer, n, inner);                                                 \
    }                                                                                         \
    void axial_reduce_acc_##name##__avx2(const void *x, void *acc, size_t outer, size_t n,    \
                                         size_t inner) {                                      \
        g_reduce_acc_##sz(x, acc, outer, n, inner);                                           \
    }                                                                                         \
    void axial_reduce_finish_##name##__avx2(const void *acc, void *y, size_t count) {         \
        g_finish_##sz(acc, y, count);                                                         \
    }
AXIAL_G_KERNELS(f64, f64)
AXIAL_G_KERNELS(i8, b1)
AXIAL_G_KERNELS(u8, b1)
AXIAL_G_KERNELS(i16, b2)
AXIAL_G_KERNELS(u16, b2)
AXIAL_G_KERNELS(i32, b4)
AXIAL_G_KERNELS(u32, b4)
AXIAL_G_KERNELS(i64, b8)
AXIAL_G_KERNELS(u64, b8)
