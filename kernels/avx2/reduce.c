/* SPDX-License-Identifier: MIT */
/*
 * reduce.c: AVX2 + FMA + F16C ReduceSum kernels for every summable dtype.
 *   reduce:        y[o][i]    = sum_j x[o][j][i]   (shape (outer, n, inner))
 *   reduce_acc:    acc[o][i] += sum_j x[o][j][i]   (double for floats, uint64_t for integers)
 *   reduce_finish: y[k] = acc[k] rounded once to the element type
 *   reduce_cols:   acc[c] += column c of an (n, stride) matrix, c < ncols (floats)
 *
 * Floats follow the one summation order (docs/API.md section 7, "One
 * summation order"; tests/order_ref.c is its executable definition), so they
 * give the bits of AVX-512 and NEON.  One generic body (always-inline
 * functions of a constant kind, instantiated per dtype at the end) holds the
 * order's 16-lane virtual vector as two halves of 8 lanes, each one ymm of f32
 * (C = f32 for f32, f16, bf16, widened exactly on load) or two ymm of f64.
 * Its paths are the order's cases (columns, P = 16, short rows, other P),
 * each at its section below.  f16/bf16 results are rounded from f64 to f32
 * by rounding to odd, then to nearest even: one rounding in all.
 * Integers wrap in their own width (signed and unsigned share a kernel), so
 * any order gives the same bits; reduce_acc adds the wrapped sum into the
 * uint64_t accumulator, whose low bits are what counts.
 *
 * Tails: nothing outside the tensors is read or written.  A partial vector is
 * loaded from a stack buffer pre-filled with -0.0 (or 0), or loaded whole
 * where that stays inside the tensor and blended; partial outputs go through
 * a stack buffer or a mask.  The loops over a tree's vectors carry
 * `#pragma GCC unroll`: without it GCC keeps the vectors in a stack array.
 * No FMA: the build has -ffp-contract=off.
 */
#include <string.h>

#include "avx2.h"

#define AXIAL_MIN(a, b) ((a) < (b) ? (a) : (b))

/* Columns are reduced in chunks: long runs of each row for the prefetchers,
 * while the f64 accumulator row stays in L1/L2.  reduce_acc (and the f64
 * reduce) sum into acc (y) itself; the f32/f16/bf16 reduce needs an f64 row
 * of its own, on the caller's stack, which is bounded (16 KiB per call,
 * README): that chunk is narrower. */
#define AXIAL_COL_CHUNK 4096 /* float family, into acc or y: columns per chunk */
#define AXIAL_COL_STACK 1024 /* f32/f16/bf16 reduce: columns per chunk (8 KiB of f64) */
#define AXIAL_GCOL_BYTES 4096 /* own-type family: bytes of columns per chunk */
#define AXIAL_REDUCE_NT AXIAL_STREAM_BYTES /* bytes a short-row reduce writes from which it streams */
#define AXIAL_REDUCE_PREFETCH ((size_t)2 << 20) /* column blocks from which the next group is prefetched */

static size_t axial_gcd(size_t a, size_t b) {
    while (b) {
        const size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* ======================================================================
 * Float family: f32, f16, bf16 (C = f32) and f64 (C = f64), in the one order
 * ====================================================================== */
enum { FK_F32, FK_F16, FK_BF16, FK_F64 };

AXIAL_INLINE size_t f_size(int k) { return k == FK_F64 ? 8 : k == FK_F32 ? 4 : 2; }
AXIAL_INLINE const void *f_at(int k, const void *p, size_t i) {
    return (const char *)p + i * f_size(k);
}

/* Fills `words` 64-bit words with -0.0 of the element type. */
AXIAL_INLINE void f_fill_negzero(int k, uint64_t *buf, size_t words) {
    const uint64_t pat = k == FK_F64   ? 0x8000000000000000ull
                         : k == FK_F32 ? 0x8000000080000000ull
                                       : 0x8000800080008000ull;
    for (size_t i = 0; i < words; i++)
        buf[i] = pat;
}

/* 8 lanes of C (half a virtual vector): f64 lanes 0..3 in lo, 4..7 in hi;
 * the f32 family's 8 f32 lanes in lo's bits (hi unused).  All helpers are
 * always inlined with a constant kind, so the unused half never exists. */
typedef struct {
    __m256d lo, hi;
} v8;

AXIAL_INLINE v8 v8_f32(__m256 s) {
    const v8 v = {_mm256_castps_pd(s), _mm256_setzero_pd()};
    return v;
}
AXIAL_INLINE __m256 v8_ps(v8 v) { return _mm256_castpd_ps(v.lo); }

AXIAL_INLINE v8 v8_load(int k, const void *p) {
    if (k == FK_F64) {
        const v8 v = {_mm256_loadu_pd((const double *)p), _mm256_loadu_pd((const double *)p + 4)};
        return v;
    }
    if (k == FK_F32)
        return v8_f32(_mm256_loadu_ps((const float *)p));
    if (k == FK_F16)
        return v8_f32(axial_avx2_load_f16((const uint16_t *)p));
    return v8_f32(axial_avx2_load_bf16((const uint16_t *)p));
}
AXIAL_INLINE v8 v8_nz(int k) {
    if (k == FK_F64) {
        const v8 v = {_mm256_set1_pd(-0.0), _mm256_set1_pd(-0.0)};
        return v;
    }
    return v8_f32(_mm256_set1_ps(-0.0f));
}
/* Addition in C. */
AXIAL_INLINE v8 v8_add(int k, v8 a, v8 b) {
    if (k == FK_F64) {
        const v8 v = {_mm256_add_pd(a.lo, b.lo), _mm256_add_pd(a.hi, b.hi)};
        return v;
    }
    return v8_f32(_mm256_add_ps(v8_ps(a), v8_ps(b)));
}
/* v with its lanes >= cnt replaced by -0.0. */
AXIAL_INLINE v8 v8_keep(int k, v8 v, size_t cnt) {
    if (k == FK_F64) {
        const __m256i c = _mm256_set1_epi64x((long long)cnt);
        const __m256d mlo = _mm256_castsi256_pd(_mm256_cmpgt_epi64(c, _mm256_setr_epi64x(0, 1, 2, 3)));
        const __m256d mhi = _mm256_castsi256_pd(_mm256_cmpgt_epi64(c, _mm256_setr_epi64x(4, 5, 6, 7)));
        const v8 r = {_mm256_blendv_pd(_mm256_set1_pd(-0.0), v.lo, mlo),
                      _mm256_blendv_pd(_mm256_set1_pd(-0.0), v.hi, mhi)};
        return r;
    }
    const __m256 m = _mm256_castsi256_ps(
        _mm256_cmpgt_epi32(_mm256_set1_epi32((int)cnt), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)));
    return v8_f32(_mm256_blendv_ps(_mm256_set1_ps(-0.0f), v8_ps(v), m));
}
/* cnt (< 8) elements from p, the other lanes -0.0; reads only the cnt. */
AXIAL_INLINE v8 v8_load_part(int k, const void *p, size_t cnt) {
    uint64_t buf[8];
    f_fill_negzero(k, buf, 8);
    memcpy(buf, p, cnt * f_size(k));
    return v8_load(k, buf);
}
/* The avail elements at p (lanes past avail -0.0); loads all 8 and blends
 * when the 8 end at or before `end`, else copies. */
AXIAL_INLINE v8 v8_load_upto(int k, const void *p, size_t avail, const void *end) {
    if (avail >= 8)
        return v8_load(k, p);
    if ((size_t)((const char *)end - (const char *)p) >= 8 * f_size(k))
        return v8_keep(k, v8_load(k, p), avail);
    return v8_load_part(k, p, avail);
}
/* W lanes: the exact widening to f64 (the identity for f64). */
AXIAL_INLINE void v8_widen(int k, v8 s, __m256d *lo, __m256d *hi) {
    if (k == FK_F64) {
        *lo = s.lo;
        *hi = s.hi;
        return;
    }
    *lo = _mm256_cvtps_pd(_mm256_castps256_ps128(v8_ps(s)));
    *hi = _mm256_cvtps_pd(_mm256_extractf128_ps(v8_ps(s), 1));
}
/* (lo, hi) = (lo, hi) + widened s, in W. */
AXIAL_INLINE void v8_widen_add(int k, v8 s, __m256d *lo, __m256d *hi) {
    __m256d a, b;
    v8_widen(k, s, &a, &b);
    *lo = _mm256_add_pd(*lo, a);
    *hi = _mm256_add_pd(*hi, b);
}
/* A[0..8) = A[0..8) + widened s. */
AXIAL_INLINE void v8_acc(int k, double *A, v8 s) {
    __m256d lo = _mm256_loadu_pd(A), hi = _mm256_loadu_pd(A + 4);
    v8_widen_add(k, s, &lo, &hi);
    _mm256_storeu_pd(A, lo);
    _mm256_storeu_pd(A + 4, hi);
}
/* The order's tree of 8 rows, in C: ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)). */
AXIAL_INLINE v8 v8_tree(int k, const v8 r[8]) {
    /* one statement per add, in address order: GCC evaluates nested
     * arguments right to left, and descending accesses within a block
     * slowed memory-bound runs */
    const v8 t01 = v8_add(k, r[0], r[1]);
    const v8 t23 = v8_add(k, r[2], r[3]);
    const v8 t03 = v8_add(k, t01, t23);
    const v8 t45 = v8_add(k, r[4], r[5]);
    const v8 t67 = v8_add(k, r[6], r[7]);
    const v8 t47 = v8_add(k, t45, t67);
    return v8_add(k, t03, t47);
}

/* 8 f32 lanes -> 8 elements (f32 family), rounding once (RNE); nt: to a
 * 32-byte (f32) / 16-byte (f16, bf16) aligned y, streaming. */
AXIAL_INLINE void f_put(int k, void *y, __m256 s, int nt) {
    if (k == FK_F32) {
        if (nt)
            _mm256_stream_ps((float *)y, s);
        else
            _mm256_storeu_ps((float *)y, s);
        return;
    }
    const __m128i h = k == FK_F16 ? axial_avx2_f32_to_f16(s) : axial_avx2_f32_to_bf16(s);
    if (nt)
        _mm_stream_si128((__m128i *)y, h);
    else
        _mm_storeu_si128((__m128i *)y, h);
}
AXIAL_INLINE void f_store(int k, void *y, __m256 s) { f_put(k, y, s, 0); }
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

/* Output sink of 8 sums (lo, hi) for outputs off .. off+cnt-1: reduce
 * (acc == NULL) stores them rounded once (streaming when nt and cnt == 8:
 * y + off is then aligned); reduce_acc adds them into acc. */
AXIAL_INLINE void f_emit(int k, void *y, double *acc, size_t off, __m256d lo, __m256d hi,
                         size_t cnt, int nt) {
    if (acc) {
        f_acc_add(acc + off, lo, hi, cnt);
        return;
    }
    void *d = (char *)y + off * f_size(k);
    if (k == FK_F64) {
        if (cnt == 8 && nt) {
            _mm256_stream_pd((double *)d, lo);
            _mm256_stream_pd((double *)d + 4, hi);
        } else if (cnt == 8) {
            _mm256_storeu_pd((double *)d, lo);
            _mm256_storeu_pd((double *)d + 4, hi);
        } else {
            double t[8];
            _mm256_storeu_pd(t, lo);
            _mm256_storeu_pd(t + 4, hi);
            memcpy(d, t, cnt * 8);
        }
        return;
    }
    const __m256 s = f_narrow(k, lo, hi);
    if (cnt == 8)
        f_put(k, d, s, nt);
    else
        f_store_part(k, d, s, cnt);
}

/* reduce_finish body: 8 outputs per step, the tail through a padded buffer. */
AXIAL_INLINE void f_finish(int k, const double *acc, void *y, size_t count) {
    if (k == FK_F64) {
        memcpy(y, acc, count * 8);
        return;
    }
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

/* ---- 16 positions (P == 16: rows, inner 2, 4, 8) --------------------------
 * One group of 8 super-rows of 16 elements at p: chunk b (8 lanes) is half
 * b % 2 of super-row b / 2.  Chunks >= m are -0.0 (m constant: the adds of
 * -0.0 fold away); with `part`, chunk m - 1 holds the `avail` elements left
 * (1..8).  The two trees go to A[0..1] (positions 0..7) and A[2..3] (8..15). */
AXIAL_INLINE v8 f_chunk16(int k, const void *p, const int b, const int m, const int part,
                          size_t avail, const void *end) {
    if (b < m - 1 || (b == m - 1 && !part))
        return v8_load(k, f_at(k, p, 8 * (size_t)b));
    if (b == m - 1)
        return v8_load_upto(k, f_at(k, p, 8 * (size_t)b), avail, end);
    return v8_nz(k);
}
AXIAL_INLINE void f_group16(int k, const void *p, __m256d A[4], const int m, const int part,
                            size_t avail, const void *end) {
#define AXIAL_CH(b) f_chunk16(k, p, b, m, part, avail, end)
    /* Both trees at once, two super-rows at a time in address order: the
     * empty asm keeps GCC from reordering the loads (it evaluates nested
     * arguments right to left; descending or interleaved sweeps over a
     * block slow down memory-bound runs). */
#define AXIAL_IN_ORDER() __asm__ volatile("" ::: "memory")
    const v8 e01 = v8_add(k, AXIAL_CH(0), AXIAL_CH(2)), o01 = v8_add(k, AXIAL_CH(1), AXIAL_CH(3));
    AXIAL_IN_ORDER();
    const v8 e23 = v8_add(k, AXIAL_CH(4), AXIAL_CH(6)), o23 = v8_add(k, AXIAL_CH(5), AXIAL_CH(7));
    AXIAL_IN_ORDER();
    const v8 e03 = v8_add(k, e01, e23), o03 = v8_add(k, o01, o23);
    const v8 e45 = v8_add(k, AXIAL_CH(8), AXIAL_CH(10)), o45 = v8_add(k, AXIAL_CH(9), AXIAL_CH(11));
    AXIAL_IN_ORDER();
    const v8 e67 = v8_add(k, AXIAL_CH(12), AXIAL_CH(14)), o67 = v8_add(k, AXIAL_CH(13), AXIAL_CH(15));
    const v8 e47 = v8_add(k, e45, e67), o47 = v8_add(k, o45, o67);
    v8_widen_add(k, v8_add(k, e03, e47), &A[0], &A[1]);
    v8_widen_add(k, v8_add(k, o03, o47), &A[2], &A[3]);
#undef AXIAL_CH
#undef AXIAL_IN_ORDER
}

/* A[0..4) (from -0.0) += the 16 position sums of the flat run x[0..N):
 * whole groups of 128 elements, then the last group (padded; its chunk count
 * is a runtime value: one copy of the group serves every tail).  end: the
 * end of the tensor (over-reads stay before it). */
AXIAL_INLINE void f_flat16(int k, const void *x, size_t N, const void *end, __m256d A[4]) {
    size_t q = 0;
    for (; q + 128 <= N; q += 128)
        f_group16(k, f_at(k, x, q), A, 16, 0, 0, end);
    if (q == N)
        return;
    const size_t R = N - q;
    const int m = (int)((R + 7) / 8);
    f_group16(k, f_at(k, x, q), A, m, 1, R - 8 * (size_t)(m - 1), end);
}

/* The first two halvings of the fold: A[p] += A[p + 8], then A[p] += A[p + 4]:
 * lanes 0..3 of the result are positions 0..3. */
AXIAL_INLINE __m256d f_fold2(__m256d a0, __m256d a1, __m256d a2, __m256d a3) {
    return _mm256_add_pd(_mm256_add_pd(a0, a2), _mm256_add_pd(a1, a3));
}
/* The last two halvings (A[p] += A[p + 2], A[0] += A[1]) of 4 rows at once:
 * lane r is the sum of row r, from its lanes c_r[0..3]. */
AXIAL_INLINE __m256d f_fold_last(__m256d c0, __m256d c1, __m256d c2, __m256d c3) {
    const __m256d d01 = _mm256_add_pd(_mm256_permute2f128_pd(c0, c1, 0x20),
                                      _mm256_permute2f128_pd(c0, c1, 0x31));
    const __m256d d23 = _mm256_add_pd(_mm256_permute2f128_pd(c2, c3, 0x20),
                                      _mm256_permute2f128_pd(c2, c3, 0x31));
    /* d01 = row 0 (c0+c2, c1+c3), row 1 (..); hadd: rows 0 2 1 3 */
    return _mm256_permute4x64_pd(_mm256_hadd_pd(d01, d23), 0xd8);
}

/* Rows (inner == 1, n > 16), 8 rows per output step. */
AXIAL_INLINE void f_rows_from(int k, const void *x, void *y, double *acc, size_t o0,
                              size_t outer, size_t n) {
    const void *end = f_at(k, x, outer * n);
    const __m256d nz = _mm256_set1_pd(-0.0);
    for (; o0 < outer; o0 += 8) {
        const size_t cnt = AXIAL_MIN(8, outer - o0);
        __m256d c[8];
        #pragma GCC unroll 1
        for (size_t r = 0; r < 8; r++) {
            __m256d A[4] = {nz, nz, nz, nz};
            if (r < cnt)
                f_flat16(k, f_at(k, x, (o0 + r) * n), n, end, A);
            c[r] = f_fold2(A[0], A[1], A[2], A[3]);
        }
        f_emit(k, y, acc, o0, f_fold_last(c[0], c[1], c[2], c[3]),
               f_fold_last(c[4], c[5], c[6], c[7]), cnt, 0);
    }
}
/* Rows whose last group is m whole chunks (n % 8 == 0, m = n % 128 / 8
 * constant): no per-row dispatch of the tail; steps of 4 rows (one fold
 * transpose: the planner's tasks may hand over as few as 4 rows).  Returns
 * the rows done (f_rows_from takes the rest). */
AXIAL_INLINE size_t f_rows_fixed(int k, const void *x, void *y, double *acc, size_t outer,
                               size_t n, const int m) {
    const __m256d nz = _mm256_set1_pd(-0.0);
    const size_t G = n / 128;
    size_t o0 = 0;
    for (; o0 + 4 <= outer; o0 += 4) {
        __m256d c[4];
        #pragma GCC unroll 1
        for (size_t r = 0; r < 4; r++) {
            const void *row = f_at(k, x, (o0 + r) * n);
            __m256d A[4] = {nz, nz, nz, nz};
            for (size_t g = 0; g < G; g++)
                f_group16(k, f_at(k, row, 128 * g), A, 16, 0, 0, NULL);
            if (m)
                f_group16(k, f_at(k, row, 128 * G), A, m, 0, 0, NULL);
            c[r] = f_fold2(A[0], A[1], A[2], A[3]);
        }
        const __m256d e = f_fold_last(c[0], c[1], c[2], c[3]);
        if (acc)
            _mm256_storeu_pd(acc + o0, _mm256_add_pd(_mm256_loadu_pd(acc + o0), e));
        else
            f_emit(k, y, NULL, o0, e, nz, 4, 0);
    }
    return o0;
}
/* Rows (inner == 1, n > 16): f_rows_fixed where the last group is 0, 2, 4 or 8
 * whole chunks, f_rows_from for the rest. */
AXIAL_INLINE void f_rows(int k, const void *x, void *y, double *acc, size_t outer, size_t n) {
    size_t done = 0;
    switch (n % 8 ? 1 : n % 128) {
    case 0: done = f_rows_fixed(k, x, y, acc, outer, n, 0); break;
    case 16: done = f_rows_fixed(k, x, y, acc, outer, n, 2); break;
    case 32: done = f_rows_fixed(k, x, y, acc, outer, n, 4); break;
    case 64: done = f_rows_fixed(k, x, y, acc, outer, n, 8); break;
    default: break;
    }
    if (done < outer)
        f_rows_from(k, x, y, acc, done, outer, n);
}

/* ---- short rows (inner == 1, n <= 16): the row is one super-row ----------
 * Its tree is the row itself, so the sum is the halving fold of its 16
 * lanes (widened, -0.0 past n) in W.  8 rows per step. */
AXIAL_INLINE __m256d f_short_c(int k, const void *p, size_t n) {
    __m256d a0, a1, a2, a3;
    v8_widen(k, v8_keep(k, v8_load(k, p), n), &a0, &a1);
    if (n <= 8)
        return _mm256_add_pd(a0, a1); /* A[p] += A[p + 8] adds -0.0 */
    v8_widen(k, v8_keep(k, v8_load(k, f_at(k, p, 8)), n - 8), &a2, &a3);
    return f_fold2(a0, a1, a2, a3);
}

AXIAL_INLINE void f_short_group(int k, const void *base, size_t n, void *y, double *acc,
                                size_t o0, size_t cnt, int nt) {
    __m256d e0, e1;
    if (n == 2 && k == FK_F32 && !acc) {
        /* f32 (x0 + x1) rounded to f64, then to f32, is the f32 sum x0 + x1
         * (53 >= 2 * 24 + 2: the double rounding of one addition is
         * innocuous), so the f32 reduce adds in f32: evens + odds of two
         * loads give rows 0 1 4 5 | 2 3 6 7. */
        const __m256 a = _mm256_loadu_ps((const float *)base);
        const __m256 c = _mm256_loadu_ps((const float *)base + 8);
        const __m256 h = _mm256_add_ps(_mm256_shuffle_ps(a, c, 0x88), _mm256_shuffle_ps(a, c, 0xdd));
        const __m256 s = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(h), 0xd8));
        float *d = (float *)y + o0;
        if (cnt == 8 && nt)
            _mm256_stream_ps(d, s);
        else if (cnt == 8)
            _mm256_storeu_ps(d, s);
        else
            f_store_part(k, d, s, cnt);
        return;
    }
    if (n == 2) { /* x0 + x1 per row in f64: one hadd of 4 rows */
        __m256d l0, h0, l1, h1;
        v8_widen(k, v8_load(k, base), &l0, &h0);
        v8_widen(k, v8_load(k, f_at(k, base, 8)), &l1, &h1);
        e0 = _mm256_permute4x64_pd(_mm256_hadd_pd(l0, h0), 0xd8);
        e1 = _mm256_permute4x64_pd(_mm256_hadd_pd(l1, h1), 0xd8);
    } else if (n == 4) { /* a 4-lane half is one row: (x0 + x2) + (x1 + x3) */
        __m256d c[8];
        #pragma GCC unroll 4
        for (size_t r = 0; r < 8; r += 2)
            v8_widen(k, v8_load(k, f_at(k, base, 4 * r)), &c[r], &c[r + 1]);
        e0 = f_fold_last(c[0], c[1], c[2], c[3]);
        e1 = f_fold_last(c[4], c[5], c[6], c[7]);
    } else {
        __m256d c[8];
        #pragma GCC unroll 8
        for (size_t r = 0; r < 8; r++)
            c[r] = f_short_c(k, f_at(k, base, r * n), n);
        e0 = f_fold_last(c[0], c[1], c[2], c[3]);
        e1 = f_fold_last(c[4], c[5], c[6], c[7]);
    }
    f_emit(k, y, acc, o0, e0, e1, cnt, nt);
}

/* Short rows; the groups whose loads would pass the end of x go through a
 * -0.0-padded copy.  A reduce writing >= AXIAL_REDUCE_NT bytes, or one task of
 * a split call that does (`stream`: AXIAL_KERNEL_STREAM), streams its outputs
 * (after plain head rows up to an aligned y): here the output is a large
 * share of the traffic ([R, 2] axis 1 writes half as many bytes as it reads),
 * and a streaming store does not read the line it writes.  From
 * AXIAL_ROWS_PF_MIN bytes of input each group of 8 rows prefetches its lines
 * AXIAL_ROWS_PF_AHEAD bytes ahead (kernels.h). */
AXIAL_INLINE void f_short_n(int k, const void *x, void *y, double *acc, size_t outer, size_t n,
                            int stream) {
    const size_t total = outer * n, es = f_size(k);
    const size_t need = (n == 2 || n == 4) ? 8 * n : 7 * n + (n <= 8 ? 8 : 16);
    size_t o0 = 0;
    int nt = 0;
    if (!acc && (stream || outer * es >= AXIAL_REDUCE_NT)) {
        const size_t al = es == 2 ? 16 : 32; /* 8 outputs: 16 or 32 (2 x 32) bytes */
        const size_t mis = (uintptr_t)y % al, head = mis ? (al - mis) / es : 0;
        if (mis % es == 0 && head < 8) {
            nt = 1;
            if (head > 0)
                f_short_group(k, x, n, y, acc, 0, head, 0); /* reads 8 rows, writes head */
            o0 = head;
        }
    }
    const int pf = total * es >= AXIAL_ROWS_PF_MIN;
    for (; o0 + 8 <= outer && o0 * n + need <= total; o0 += 8) {
        if (pf)
            axial_prefetch_ahead(f_at(k, x, o0 * n), 8 * n * es);
        f_short_group(k, f_at(k, x, o0 * n), n, y, acc, o0, 8, nt);
    }
    if (nt)
        _mm_sfence(); /* order the streaming stores before whatever follows */
    for (; o0 < outer; o0 += 8) {
        uint64_t buf[(8 * 16 + 16) * 8 / 8];
        const size_t cnt = AXIAL_MIN(8, outer - o0);
        f_fill_negzero(k, buf, sizeof buf / sizeof buf[0]);
        memcpy(buf, f_at(k, x, o0 * n), cnt * n * es);
        f_short_group(k, buf, n, y, acc, o0, cnt, 0);
    }
}
/* The f32 reduce of [R, 2] rows: its own function, so that its short loop
 * starts where the function does, whatever the rest of the file compiles to
 * (its speed depends on that placement). */
AXIAL_NOINLINE void f_pairs_f32(const void *x, void *y, size_t outer,
                                int stream) {
    f_short_n(FK_F32, x, y, NULL, outer, 2, stream);
}
/* One loop per common n, so that its group code is straight-line. */
AXIAL_INLINE void f_short(int k, const void *x, void *y, double *acc, size_t outer, size_t n,
                          int stream) {
    if (n == 2 && k == FK_F32 && !acc)
        f_pairs_f32(x, y, outer, stream);
    else if (n == 2)
        f_short_n(k, x, y, acc, outer, 2, stream);
    else if (n == 4)
        f_short_n(k, x, y, acc, outer, 4, stream);
    else
        f_short_n(k, x, y, acc, outer, n, stream);
}

/* ---- the periodic order (inner 2..15) -------------------------------------
 * A[0..P) += the position sums of the flat run x[0..N), P = lcm(inner, 16)
 * > 16: chunk m (8 lanes) of each super-row, trees over 8 super-rows. */
AXIAL_INLINE void f_flatP(int k, const void *x, size_t N, size_t P, const void *end, double *A) {
    const size_t S = P / 8;
    size_t q = 0;
    for (; q + 8 * P <= N; q += 8 * P) {
        for (size_t m = 0; m < S; m++) {
            v8 v[8];
            #pragma GCC unroll 8
            for (size_t s = 0; s < 8; s++)
                v[s] = v8_load(k, f_at(k, x, q + s * P + 8 * m));
            v8_acc(k, A + 8 * m, v8_tree(k, v));
        }
    }
    if (q == N)
        return;
    const size_t R = N - q;
    for (size_t m = 0; m < S; m++) {
        v8 v[8];
        #pragma GCC unroll 8
        for (size_t s = 0; s < 8; s++) {
            const size_t off = s * P + 8 * m;
            v[s] = off < R ? v8_load_upto(k, f_at(k, x, q + off), R - off, end) : v8_nz(k);
        }
        v8_acc(k, A + 8 * m, v8_tree(k, v));
    }
}

AXIAL_INLINE void f_periodic(int k, const void *x, void *y, double *acc, size_t outer, size_t n,
                             size_t inner) {
    const size_t P = inner * (16 / axial_gcd(inner, 16)), N = n * inner;
    const void *end = f_at(k, x, outer * N);
    for (size_t o = 0; o < outer; o++) {
        double A[240];
        const void *xo = f_at(k, x, o * N);
        if (P == 16) {
            const __m256d nz = _mm256_set1_pd(-0.0);
            __m256d a[4] = {nz, nz, nz, nz};
            f_flat16(k, xo, N, end, a);
            for (size_t i = 0; i < 4; i++)
                _mm256_storeu_pd(A + 4 * i, a[i]);
        } else {
            for (size_t p = 0; p < P; p++)
                A[p] = -0.0;
            f_flatP(k, xo, N, P, end, A);
        }
        for (size_t len = P; len > inner; len /= 2)
            for (size_t p = 0; p < len / 2; p++)
                A[p] += A[p + len / 2];
        if (acc) {
            for (size_t i = 0; i < inner; i++)
                acc[o * inner + i] += A[i];
        } else {
            f_finish(k, A, (void *)f_at(k, y, o * inner), inner);
        }
    }
}

/* ---- columns (inner >= 16, and reduce_cols) -------------------------------
 * Each column alone: its rows in groups of 8 (-0.0 past n), the tree in C,
 * widened and added in group order into its f64 accumulator: acc itself for
 * reduce_acc and reduce_cols, y itself for the f64 reduce, an f64 row on the
 * stack (from -0.0, rounded once at the end) for the f32/f16/bf16 reduce.
 * Columns go in chunks (AXIAL_COL_CHUNK, AXIAL_COL_STACK); a chunk's width
 * changes no bit, as no column looks at another.  Blocks of at least
 * AXIAL_REDUCE_PREFETCH bytes prefetch the next group's lines while summing
 * the current one, for the short runs down the rows. */

/* The tree of rows 0 .. rb-1 (<= 8) of the 8 columns at p. */
AXIAL_INLINE v8 f_coltree(int k, const void *p, size_t stride, size_t rb) {
    v8 v[8];
    #pragma GCC unroll 8
    for (size_t b = 0; b < 8; b++)
        v[b] = b < rb ? v8_load(k, f_at(k, p, b * stride)) : v8_nz(k);
    return v8_tree(k, v);
}

/* acc[0..w) (w >= 8) += the group of rows 0 .. rb-1 at x.  The last w % 8
 * columns come from the overlapping vector of the last 8 columns, of which
 * the lanes selected by (mlo, mhi) are stored.  pf: prefetch the next group. */
AXIAL_INLINE void f_cols_group(int k, const void *x, double *acc, size_t w, size_t stride,
                               size_t rb, __m256d mlo, __m256d mhi, int pf) {
    const size_t nv = w / 8;
    size_t c = 0;
    for (; c + 4 <= nv; c += 4) { /* 4 trees per step: whole cache lines of each row */
        if (pf) {
            #pragma GCC unroll 8
            for (size_t b = 8; b < 16; b++)
                for (size_t l = 0; l < 32 * f_size(k); l += 64)
                    _mm_prefetch((const char *)f_at(k, x, b * stride + 8 * c) + l, _MM_HINT_T0);
        }
        v8 s[4];
        #pragma GCC unroll 4
        for (size_t u = 0; u < 4; u++)
            s[u] = f_coltree(k, f_at(k, x, 8 * (c + u)), stride, rb);
        #pragma GCC unroll 4
        for (size_t u = 0; u < 4; u++)
            v8_acc(k, acc + 8 * (c + u), s[u]);
    }
    for (; c < nv; c++)
        v8_acc(k, acc + 8 * c, f_coltree(k, f_at(k, x, 8 * c), stride, rb));
    if (w % 8) {
        double *d = acc + w - 8;
        const __m256d lo = _mm256_loadu_pd(d), hi = _mm256_loadu_pd(d + 4);
        __m256d nlo = lo, nhi = hi;
        v8_widen_add(k, f_coltree(k, f_at(k, x, w - 8), stride, rb), &nlo, &nhi);
        _mm256_storeu_pd(d, _mm256_blendv_pd(lo, nlo, mlo));
        _mm256_storeu_pd(d + 4, _mm256_blendv_pd(hi, nhi, mhi));
    }
}

/* acc[0..w) += the column sums of n rows `stride` apart (any w >= 1). */
AXIAL_INLINE void f_cols(int k, const void *x, double *acc, size_t n, size_t w, size_t stride) {
    const int pf = n * stride * f_size(k) >= AXIAL_REDUCE_PREFETCH;
    if (w < 8) { /* narrow tile: loads end at the tile's last element, partial stores */
        const void *end = f_at(k, x, (n - 1) * stride + w);
        const __m256i c = _mm256_set1_epi64x((long long)w);
        const __m256i mlo = _mm256_cmpgt_epi64(c, _mm256_setr_epi64x(0, 1, 2, 3));
        const __m256i mhi = _mm256_cmpgt_epi64(c, _mm256_setr_epi64x(4, 5, 6, 7));
        for (size_t j = 0; j < n; j += 8) {
            const size_t rb = AXIAL_MIN(8, n - j);
            v8 v[8];
            for (size_t b = 0; b < 8; b++)
                v[b] = b < rb ? v8_load_upto(k, f_at(k, x, (j + b) * stride), w, end) : v8_nz(k);
            __m256d lo = _mm256_maskload_pd(acc, mlo), hi = _mm256_maskload_pd(acc + 4, mhi);
            v8_widen_add(k, v8_tree(k, v), &lo, &hi);
            _mm256_maskstore_pd(acc, mlo, lo);
            _mm256_maskstore_pd(acc + 4, mhi, hi);
        }
        return;
    }
    const __m256i t = _mm256_set1_epi64x((long long)(8 - w % 8));
    const __m256d mlo = _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_setr_epi64x(1, 2, 3, 4), t));
    const __m256d mhi = _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_setr_epi64x(5, 6, 7, 8), t));
    size_t j = 0;
    for (; j + 8 <= n; j += 8)
        f_cols_group(k, f_at(k, x, j * stride), acc, w, stride, 8, mlo, mhi,
                     pf && j + 16 <= n);
    if (j < n)
        f_cols_group(k, f_at(k, x, j * stride), acc, w, stride, n - j, mlo, mhi, 0);
}

/* The float family's body for reduce (acc == NULL) and reduce_acc; stream:
 * the call is a task of a split that streams (AXIAL_KERNEL_STREAM). */
AXIAL_INLINE void f_reduce(int k, const void *x, void *y, double *acc, size_t outer, size_t n,
                           size_t inner, int stream) {
    if (y && n == 1) { /* a sum of one term: the term */
        memcpy(y, x, outer * inner * f_size(k));
        return;
    }
    if (inner == 1) {
        if (n <= 16)
            f_short(k, x, y, acc, outer, n, stream);
        else
            f_rows(k, x, y, acc, outer, n);
        return;
    }
    if (inner < 16) {
        f_periodic(k, x, y, acc, outer, n, inner);
        return;
    }
    double buf[AXIAL_COL_STACK];
    const size_t chunk = acc || k == FK_F64 ? AXIAL_COL_CHUNK : AXIAL_COL_STACK;
    for (size_t o = 0; o < outer; o++) {
        for (size_t i0 = 0; i0 < inner;) {
            size_t w = AXIAL_MIN(chunk, inner - i0);
            if (inner - i0 - w > 0 && inner - i0 - w < 8)
                w -= 8; /* keep the last chunk >= 8 columns wide */
            const void *xo = f_at(k, x, o * n * inner + i0);
            if (acc) {
                f_cols(k, xo, acc + o * inner + i0, n, w, inner);
            } else {
                /* f64 sums into y itself, the f32 family into an f64 row */
                double *d = k == FK_F64 ? (double *)(void *)f_at(k, y, o * inner + i0) : buf;
                size_t i = 0;
                for (; i + 4 <= w; i += 4)
                    _mm256_storeu_pd(d + i, _mm256_set1_pd(-0.0));
                for (; i < w; i++)
                    memcpy(d + i, &(const double){-0.0}, 8);
                f_cols(k, xo, d, n, w, inner);
                if (k != FK_F64)
                    f_finish(k, buf, (void *)f_at(k, y, o * inner + i0), w);
            }
            i0 += w;
        }
    }
}

/* ======================================================================
 * Own-type family: integers by element size
 * ====================================================================== */
enum { GK_B1, GK_B2, GK_B4, GK_B8 };

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
    default: return _mm256_add_epi64(a, b);
    }
}
AXIAL_INLINE __m256i g_start_vec(int k) {
    (void)k;
    return _mm256_setzero_si256();
}

/* Scalars travel as 64-bit patterns: the zero-extended integer (its low bits
 * are the wrapped sum); these are also the bits of the reduce_acc
 * accumulator. */
AXIAL_INLINE uint64_t g_start(int k) {
    (void)k;
    return 0;
}
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
    (void)k;
    return a + b;
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
/* reduce and reduce_acc share one body per dtype: y or acc is NULL, a
 * run-time test once per group of outputs. */
#define AXIAL_F_KERNELS(name, K)                                                               \
    AXIAL_NOINLINE void f_reduce_##name(const void *x, void *y, double *acc, size_t outer,    \
                                        size_t n, size_t inner, int stream) {                 \
        f_reduce(K, x, y, acc, outer, n, inner, stream);                                      \
    }                                                                                         \
    void axial_reduce_##name##__avx2(const void *x, void *y, size_t outer, size_t n,          \
                                     size_t inner, unsigned flags) {                          \
        f_reduce_##name(x, y, NULL, outer, n, inner, (flags & AXIAL_KERNEL_STREAM) != 0);     \
    }                                                                                         \
    void axial_reduce_acc_##name##__avx2(const void *x, void *acc, size_t outer, size_t n,    \
                                         size_t inner) {                                      \
        f_reduce_##name(x, NULL, (double *)acc, outer, n, inner, 0);                          \
    }                                                                                         \
    void axial_reduce_finish_##name##__avx2(const void *acc, void *y, size_t count) {         \
        f_finish(K, (const double *)acc, y, count);                                           \
    }                                                                                         \
    void axial_reduce_cols_##name##__avx2(const void *x, void *acc, size_t n, size_t ncols,   \
                                          size_t stride) {                                    \
        f_cols(K, x, (double *)acc, n, ncols, stride);                                        \
    }
AXIAL_F_KERNELS(f32, FK_F32)
AXIAL_F_KERNELS(f64, FK_F64)
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

#define AXIAL_G_KERNELS(name, sz)                                                              \
    void axial_reduce_##name##__avx2(const void *x, void *y, size_t outer, size_t n,          \
                                     size_t inner, unsigned flags) {                          \
        (void)flags; /* the integer reduce stores plainly */                                  \
        g_reduce_##sz(x, y, outer, n, inner);                                                 \
    }                                                                                         \
    void axial_reduce_acc_##name##__avx2(const void *x, void *acc, size_t outer, size_t n,    \
                                         size_t inner) {                                      \
        g_reduce_acc_##sz(x, acc, outer, n, inner);                                           \
    }                                                                                         \
    void axial_reduce_finish_##name##__avx2(const void *acc, void *y, size_t count) {         \
        g_finish_##sz(acc, y, count);                                                         \
    }
AXIAL_G_KERNELS(i8, b1)
AXIAL_G_KERNELS(u8, b1)
AXIAL_G_KERNELS(i16, b2)
AXIAL_G_KERNELS(u16, b2)
AXIAL_G_KERNELS(i32, b4)
AXIAL_G_KERNELS(u32, b4)
AXIAL_G_KERNELS(i64, b8)
AXIAL_G_KERNELS(u64, b8)
