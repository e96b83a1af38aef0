/* SPDX-License-Identifier: MIT */
/*
 * reduce.c: AVX-512 (F + VL + BW + DQ) ReduceSum for every summable dtype.
 * Entry points (kernels.h), shape (outer, n, inner):
 *   reduce:        y[o][i]    = sum_j x[o][j][i]
 *   reduce_acc:    acc[o][i] += sum_j x[o][j][i]  (acc: double for floats, uint64_t for integers)
 *   reduce_finish: y[k] = acc[k] rounded to the element type
 *   reduce_cols:   acc[c] += column c of an (n, stride) matrix, c < ncols (floats)
 *
 * Floats follow the one summation order (docs/API.md section 7, "One
 * summation order"; tests/order_ref.c is its executable definition), so they
 * give the bits of the AVX2 and NEON kernels.  A virtual vector is one zmm of
 * f32 (F64: two zmm, lanes 0-7 and 8-15).  Columns (inner >= 16): each
 * group's 8-row tree joins the columns' f64 sums (r512_ftile_*), which the
 * F32/F16/BF16 reduce keeps partly in y's own bytes (r512_fwhole_*).
 * Periodic (1 < inner < 16): r512_fper_*.  Rows (inner == 1): n <= 8 packed
 * several rows to a vector (r512_fpack_*), longer rows folded eight at once
 * (r512_fold8x8).  Integers wrap, so any order gives their bits: trees over
 * row blocks, transposing add trees for short rows, super-rows.
 *
 * Tails: masked loads that fill -0.0 (floats) or 0, and masked stores;
 * nothing outside x, y, acc is touched; pointers need only element alignment.
 * Full vectors use plain loads and stores, also where the lanes past a row
 * are then set to -0.0 in registers: masked accesses that miss the caches are
 * slow on some CPUs (Zen 5).
 */
#include <string.h>

#include "avx512.h"

#define R512_CB 1024 /* column block: columns summed per pass, and lcm limit */
#define R512_RB 32   /* rows summed in registers before the block sums in memory */
#define R512_SHORT 64 /* integers: inner == 1 and n <= this: the transposing short-row path */

/* Float rows of at most R512_PF_ROW bytes prefetch (axial_prefetch_ahead,
 * kernels.h: AXIAL_ROWS_PF_AHEAD bytes ahead) per group of 16 rows, in inputs
 * of at least AXIAL_ROWS_PF_MIN bytes; long rows of at least R512_PF_ROW bytes
 * prefetch within the row (r512_frowv_*), except F64, which reads at memory
 * speed without it and is slowed by it.  Without prefetching, these loops
 * wait on memory, and their speed depends on where the linker places them.
 * Prefetching changes no arithmetic. */
#define R512_PF_ROW 2048
/* Small constant-count loops over vector arrays must be unrolled to stay in registers. */
#define R512_UNROLL _Pragma("GCC unroll 16")

/* ---- wide sums (double / uint64_t) ------------------------------------------- */

/* acc[0..k) += b[0..k); whole vectors by plain loads and stores (acc may have
 * left the caches between reduce_acc calls; masked accesses there are slow). */
static inline void r512_wadd_f(double *acc, const double *b, size_t k) {
    size_t i = 0;
    for (; i + 8 <= k; i += 8)
        _mm512_storeu_pd(acc + i, _mm512_add_pd(_mm512_loadu_pd(acc + i), _mm512_loadu_pd(b + i)));
    if (i < k) {
        const __mmask8 m = (__mmask8)axial_avx512_mask64(k - i);
        const __m512d s = _mm512_add_pd(_mm512_maskz_loadu_pd(m, acc + i),
                                        _mm512_maskz_loadu_pd(m, b + i));
        _mm512_mask_storeu_pd(acc + i, m, s);
    }
}
static inline void r512_wadd_u(uint64_t *acc, const uint64_t *b, size_t k) {
    size_t i = 0;
    for (; i + 8 <= k; i += 8)
        _mm512_storeu_si512(acc + i, _mm512_add_epi64(_mm512_loadu_si512(acc + i),
                                                      _mm512_loadu_si512(b + i)));
    if (i < k) {
        const __mmask8 m = (__mmask8)axial_avx512_mask64(k - i);
        const __m512i s = _mm512_add_epi64(_mm512_maskz_loadu_epi64(m, acc + i),
                                           _mm512_maskz_loadu_epi64(m, b + i));
        _mm512_mask_storeu_epi64(acc + i, m, s);
    }
}

/* f64 -> f32 rounding to odd: exact single rounding for a later f16/bf16 RNE. */
static inline __m256 r512_pd_to_ps_odd(__m512d d) {
    const __m256 t = _mm512_cvt_roundpd_ps(d, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __mmask8 inexact = _mm512_cmp_pd_mask(_mm512_cvtps_pd(t), d, _CMP_NEQ_UQ);
    const __m256i ti = _mm256_castps_si256(t);
    return _mm256_castsi256_ps(_mm256_mask_or_epi32(ti, inexact, ti, _mm256_set1_epi32(1)));
}

/* Store 8 wide sums as the element type (m: the lanes to write).  All 8
 * lanes go out by a plain store: masked stores (and loads) that miss the
 * caches are much slower than plain ones on Zen 5. */
static inline void r512_put_f32(float *y, __m512d d, __mmask8 m) {
    if (m == 0xff) _mm256_storeu_ps(y, _mm512_cvtpd_ps(d));
    else _mm256_mask_storeu_ps(y, m, _mm512_cvtpd_ps(d));
}
static inline void r512_put_f64(double *y, __m512d d, __mmask8 m) {
    if (m == 0xff) _mm512_storeu_pd(y, d);
    else _mm512_mask_storeu_pd(y, m, d);
}
static inline void r512_put_h(uint16_t *y, __m128i h, __mmask8 m) {
    if (m == 0xff) _mm_storeu_si128((__m128i *)(void *)y, h);
    else _mm_mask_storeu_epi16(y, m, h);
}
static inline void r512_put_f16(uint16_t *y, __m512d d, __mmask8 m) {
    r512_put_h(y, _mm256_cvtps_ph(r512_pd_to_ps_odd(d), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), m);
}
static inline void r512_put_bf16(uint16_t *y, __m512d d, __mmask8 m) {
    const __m256i h = axial_avx512_f32_to_bf16(_mm512_zextps256_ps512(r512_pd_to_ps_odd(d)));
    r512_put_h(y, _mm256_castsi256_si128(h), m);
}
static inline void r512_put_b8(uint8_t *y, __m512i v, __mmask8 m) {
    if (m == 0xff) _mm_storel_epi64((__m128i *)(void *)y, _mm512_cvtepi64_epi8(v));
    else _mm512_mask_cvtepi64_storeu_epi8(y, m, v);
}
static inline void r512_put_b16(uint16_t *y, __m512i v, __mmask8 m) {
    r512_put_h(y, _mm512_cvtepi64_epi16(v), m);
}
static inline void r512_put_b32(uint32_t *y, __m512i v, __mmask8 m) {
    if (m == 0xff) _mm256_storeu_si256((__m256i *)(void *)y, _mm512_cvtepi64_epi32(v));
    else _mm512_mask_cvtepi64_storeu_epi32(y, m, v);
}
static inline void r512_put_b64(uint64_t *y, __m512i v, __mmask8 m) {
    if (m == 0xff) _mm512_storeu_si512(y, v);
    else _mm512_mask_storeu_epi64(y, m, v);
}
#define r512_wload_f(p, m) _mm512_maskz_loadu_pd(m, p)
#define r512_wload_u(p, m) _mm512_maskz_loadu_epi64(m, p)

/* Streaming stores for large outputs: a reduce on the row paths that writes
 * at least R512_NT bytes (beyond the caches), or a task of a split call that
 * does (AXIAL_KERNEL_STREAM), writes its 16-byte aligned groups of 16 outputs
 * (F32 rows of 2: 64-byte aligned ones) with non-temporal stores (no read of
 * the destination lines); the head rows store plainly; then sfence. */
#define R512_NT AXIAL_STREAM_BYTES
static inline void r512_stream16(void *dst, const void *src, size_t bytes) {
    for (size_t i = 0; i < bytes; i += 16)
        _mm_stream_si128((__m128i *)(void *)((char *)dst + i),
                         _mm_load_si128((const __m128i *)(const void *)((const char *)src + i)));
}

/* ---- per-family vector arithmetic -------------------------------------------
 * Family ps: 16 f32 lanes, wide register accumulator = two f64 zmm;
 * pd: 8 f64 lanes; e8..e64: integer lanes of that width, accumulated in it.
 * ca: the type of the in-memory column sums (double for floats, own width). */
typedef struct { __m512d lo, hi; } r512_wr_ps;
typedef __m512 r512_v_ps;
typedef __m512d r512_v_pd, r512_wr_pd;
typedef __m512i r512_v_e8, r512_wr_e8, r512_v_e16, r512_wr_e16, r512_v_e32, r512_wr_e32,
    r512_v_e64, r512_wr_e64;
typedef double r512_ca_ps, r512_ca_pd;
typedef uint8_t r512_ca_e8;
typedef uint16_t r512_ca_e16;
typedef uint32_t r512_ca_e32;
typedef uint64_t r512_ca_e64;
#define R512_L_ps 16
#define R512_L_pd 8
#define R512_L_e8 64
#define R512_L_e16 32
#define R512_L_e32 16
#define R512_L_e64 8

AXIAL_INLINE __m512 r512_add_ps(__m512 a, __m512 b) { return _mm512_add_ps(a, b); }
AXIAL_INLINE __m512d r512_add_pd(__m512d a, __m512d b) { return _mm512_add_pd(a, b); }
AXIAL_INLINE __m512i r512_add_e8(__m512i a, __m512i b) { return _mm512_add_epi8(a, b); }
AXIAL_INLINE __m512i r512_add_e16(__m512i a, __m512i b) { return _mm512_add_epi16(a, b); }
AXIAL_INLINE __m512i r512_add_e32(__m512i a, __m512i b) { return _mm512_add_epi32(a, b); }
AXIAL_INLINE __m512i r512_add_e64(__m512i a, __m512i b) { return _mm512_add_epi64(a, b); }
AXIAL_INLINE __m512 r512_id_ps(void) { return _mm512_set1_ps(-0.0f); }
AXIAL_INLINE __m512d r512_id_pd(void) { return _mm512_set1_pd(-0.0); }
#define r512_id_e8 _mm512_setzero_si512
#define r512_id_e16 _mm512_setzero_si512
#define r512_id_e32 _mm512_setzero_si512
#define r512_id_e64 _mm512_setzero_si512

/* Float families: the widening add of a vector into the f64 register sums. */
AXIAL_INLINE r512_wr_ps r512_wradd_ps(r512_wr_ps w, __m512 v) {
    w.lo = _mm512_add_pd(w.lo, _mm512_cvtps_pd(_mm512_castps512_ps256(v)));
    w.hi = _mm512_add_pd(w.hi, _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1)));
    return w;
}
AXIAL_INLINE __m512d r512_wradd_pd(__m512d w, __m512d v) { return _mm512_add_pd(w, v); }

/* Integer families: the register accumulator is the vector itself. */
#define R512_INT_FAMILY(F, CAT, HSUM)                                                       \
    AXIAL_INLINE __m512i r512_wrz_##F(void) { return _mm512_setzero_si512(); }             \
    AXIAL_INLINE __m512i r512_wradd_##F(__m512i w, __m512i v) { return r512_add_##F(w, v); } \
    AXIAL_INLINE __m512i r512_wrmerge_##F(__m512i a, __m512i b) { return r512_add_##F(a, b); } \
    AXIAL_INLINE uint64_t r512_wrsum_##F(__m512i w) { return (uint64_t)(HSUM); }          \
    AXIAL_INLINE void r512_caadd_##F(CAT *ca, __m512i w) {                                 \
        _mm512_storeu_si512(ca, r512_add_##F(_mm512_loadu_si512(ca), w));                 \
    }
/* Horizontal sums of 32- and 64-bit lanes, wrapping.  Not the compiler's
 * _mm512_reduce_add_epi32/64: GCC writes their last step as a signed scalar
 * add, which is undefined on overflow (UBSan reports it). */
AXIAL_INLINE uint32_t r512_hsum_u32(__m512i w) {
    __m256i h = _mm256_add_epi32(_mm512_castsi512_si256(w), _mm512_extracti64x4_epi64(w, 1));
    __m128i q = _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    q = _mm_add_epi32(q, _mm_unpackhi_epi64(q, q));
    q = _mm_add_epi32(q, _mm_srli_epi64(q, 32));
    return (uint32_t)_mm_cvtsi128_si32(q);
}
AXIAL_INLINE uint64_t r512_hsum_u64(__m512i w) {
    __m256i h = _mm256_add_epi64(_mm512_castsi512_si256(w), _mm512_extracti64x4_epi64(w, 1));
    __m128i q = _mm_add_epi64(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    q = _mm_add_epi64(q, _mm_unpackhi_epi64(q, q));
    return (uint64_t)_mm_cvtsi128_si64(q);
}
/* Horizontal sums keep the low bits exactly: vpsadbw gives 8-byte sums in
 * u64 lanes, vpmaddwd (by 1) gives exact sums of signed word pairs. */
R512_INT_FAMILY(e8, uint8_t, r512_hsum_u64(_mm512_sad_epu8(w, _mm512_setzero_si512())))
R512_INT_FAMILY(e16, uint16_t, r512_hsum_u32(_mm512_madd_epi16(w, _mm512_set1_epi16(1))))
R512_INT_FAMILY(e32, uint32_t, r512_hsum_u32(w))
R512_INT_FAMILY(e64, uint64_t, r512_hsum_u64(w))

/* ---- loads, per storage type --------------------------------------------------
 * ld: a full vector of the family; ldm: masked, the other lanes the identity;
 * dld: the short-row domain (16 x 32-bit lanes, or 8 x 64-bit), k elements. */
AXIAL_INLINE __m512 r512_ld_f32(const float *p) { return _mm512_loadu_ps(p); }
AXIAL_INLINE __m512 r512_ldm_f32(const float *p, __mmask64 m) {
    return _mm512_mask_loadu_ps(r512_id_ps(), (__mmask16)m, p);
}
AXIAL_INLINE __m512 r512_ld_f16(const uint16_t *p) { return axial_avx512_load_f16(p); }
AXIAL_INLINE __m512 r512_ldm_f16(const uint16_t *p, __mmask64 m) { /* 0x8000: -0.0 */
    return axial_avx512_widen_f16(_mm256_mask_loadu_epi16(_mm256_set1_epi16(-0x8000), (__mmask16)m, p));
}
AXIAL_INLINE __m512 r512_ld_bf16(const uint16_t *p) { return axial_avx512_load_bf16(p); }
AXIAL_INLINE __m512 r512_ldm_bf16(const uint16_t *p, __mmask64 m) {
    return axial_avx512_widen_bf16(_mm256_mask_loadu_epi16(_mm256_set1_epi16(-0x8000), (__mmask16)m, p));
}
AXIAL_INLINE __m512d r512_ld_f64(const double *p) { return _mm512_loadu_pd(p); }
AXIAL_INLINE __m512d r512_ldm_f64(const double *p, __mmask64 m) {
    return _mm512_mask_loadu_pd(r512_id_pd(), (__mmask8)m, p);
}
AXIAL_INLINE __m512i r512_ld_b8(const uint8_t *p) { return _mm512_loadu_si512(p); }
AXIAL_INLINE __m512i r512_ldm_b8(const uint8_t *p, __mmask64 m) { return _mm512_maskz_loadu_epi8(m,
                                 p); }
AXIAL_INLINE __m512i r512_ld_b16(const uint16_t *p) { return _mm512_loadu_si512(p); }
AXIAL_INLINE __m512i r512_ldm_b16(const uint16_t *p, __mmask64 m) {
    return _mm512_maskz_loadu_epi16((__mmask32)m, p);
}
AXIAL_INLINE __m512i r512_ld_b32(const uint32_t *p) { return _mm512_loadu_si512(p); }
AXIAL_INLINE __m512i r512_ldm_b32(const uint32_t *p, __mmask64 m) {
    return _mm512_maskz_loadu_epi32((__mmask16)m, p);
}
AXIAL_INLINE __m512i r512_ld_b64(const uint64_t *p) { return _mm512_loadu_si512(p); }
AXIAL_INLINE __m512i r512_ldm_b64(const uint64_t *p, __mmask64 m) {
    return _mm512_maskz_loadu_epi64((__mmask8)m, p);
}
#define r512_dld_f32(p, k) r512_ldm_f32(p, axial_avx512_mask64(k))
#define r512_dld_f16(p, k) r512_ldm_f16(p, axial_avx512_mask64(k))
#define r512_dld_bf16(p, k) r512_ldm_bf16(p, axial_avx512_mask64(k))
#define r512_dld_f64(p, k) r512_ldm_f64(p, axial_avx512_mask64(k))
#define r512_dld_b32(p, k) r512_ldm_b32(p, axial_avx512_mask64(k))
#define r512_dld_b64(p, k) r512_ldm_b64(p, axial_avx512_mask64(k))
/* dfl: a full short-row-domain vector (16 or 8 elements), unmasked: masked
 * loads that miss the caches are much slower than plain ones on Zen 5. */
#define r512_dfl_f32(p) _mm512_loadu_ps(p)
#define r512_dfl_f16(p) axial_avx512_load_f16(p)
#define r512_dfl_bf16(p) axial_avx512_load_bf16(p)
#define r512_dfl_f64(p) _mm512_loadu_pd(p)
#define r512_dfl_b32(p) _mm512_loadu_si512(p)
#define r512_dfl_b64(p) _mm512_loadu_si512(p)
#define r512_dfl_b8(p) _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define r512_dfl_b16(p) _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
AXIAL_INLINE __m512i r512_dld_b8(const uint8_t *p, size_t k) {
    return _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8((__mmask16)axial_avx512_mask64(k), p));
}
AXIAL_INLINE __m512i r512_dld_b16(const uint16_t *p, size_t k) {
    return _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16((__mmask16)axial_avx512_mask64(k), p));
}

/* ---- the integer short-row domains: transposing add trees ----------------------------
 * v[0..Q) hold DL rows of Q lanes each (DL = 16 for 32-bit lanes, 8 for
 * 64-bit), in order; one level sums lanes 2l and 2l+1 of each pair (v[2i],
 * v[2i+1]) into lane l of v[i]: Q/2 lanes per row, Q/2 vectors.  The fold
 * writes the DL row sums, wide, to out. */
static const int32_t r512_even32[16] = {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30};
static const int32_t r512_odd32[16] = {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31};
static const int64_t r512_even64[8] = {0, 2, 4, 6, 8, 10, 12, 14};
static const int64_t r512_odd64[8] = {1, 3, 5, 7, 9, 11, 13, 15};
#define R512_IDX(t) _mm512_loadu_si512(t)

typedef __m512i r512_dv_d32i, r512_dv_d64i;
#define R512_DL_d32i 16
#define R512_DL_d64i 8

AXIAL_INLINE __m512i r512_lvl_d32i(__m512i a, __m512i b) {
    return _mm512_add_epi32(_mm512_permutex2var_epi32(a, R512_IDX(r512_even32), b),
                            _mm512_permutex2var_epi32(a, R512_IDX(r512_odd32), b));
}
AXIAL_INLINE __m512i r512_lvl_d64i(__m512i a, __m512i b) {
    return _mm512_add_epi64(_mm512_permutex2var_epi64(a, R512_IDX(r512_even64), b),
                            _mm512_permutex2var_epi64(a, R512_IDX(r512_odd64), b));
}
#define r512_did_d32i _mm512_setzero_si512
#define r512_did_d64i _mm512_setzero_si512
#define r512_dadd_d32i _mm512_add_epi32
#define r512_dadd_d64i _mm512_add_epi64
/* the integer short rows' spread (r512_group_*; the float ones permute, r512_fpack_*) */
#define r512_dexp_d32i(v, m) _mm512_maskz_expand_epi32((__mmask16)(m), v)
#define r512_dexp_d64i(v, m) _mm512_maskz_expand_epi64((__mmask8)(m), v)

/* log2 of a power of two <= 16, as an expression GCC folds for constant q. */
#define R512_LOG2(q) ((unsigned)((q) >= 2) + ((q) >= 4) + ((q) >= 8) + ((q) >= 16))

/* The exact domains: every level in the lane type. */
#define R512_FOLD_ALL(D, VT)                                                                      \
    AXIAL_INLINE VT r512_foldv_##D(VT *v, size_t q) {                                            \
        const unsigned lq = R512_LOG2(q);                                                         \
        R512_UNROLL                                                                               \
        for (unsigned l = 0; l < lq; l++)                                                         \
            R512_UNROLL                                                                           \
            for (size_t i = 0; i < (q >> (l + 1)); i++)                                           \
                v[i] = r512_lvl_##D(v[2 * i], v[2 * i + 1]);                                      \
        return v[0];                                                                              \
    }
R512_FOLD_ALL(d32i, __m512i)
R512_FOLD_ALL(d64i, __m512i)
AXIAL_INLINE void r512_fold_d32i(__m512i *v, size_t q, unsigned depth, uint64_t *out) {
    (void)depth;
    const __m512i s = r512_foldv_d32i(v, q);
    _mm512_storeu_si512(out, _mm512_cvtepu32_epi64(_mm512_castsi512_si256(s)));
    _mm512_storeu_si512(out + 8, _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(s, 1)));
}
AXIAL_INLINE void r512_fold_d64i(__m512i *v, size_t q, unsigned depth, uint64_t *out) {
    (void)depth;
    _mm512_storeu_si512(out, r512_foldv_d64i(v, q));
}

/* Rows of 17..64 elements: each row's vectors are summed (a tree), the row
 * vector is cut to 8 wide lanes (wide8), and 8 such rows become one vector of
 * their 8 sums by three in-register levels (t8): unpacklo/hi pairs lanes
 * within 128-bit blocks, then two vshuff64x2 levels pair the blocks.  The
 * shuffles are cheap in-lane or 128-bit-block ones, unlike vpermt2. */
typedef __m512i r512_wv_d32i, r512_wv_d64i;
AXIAL_INLINE __m512i r512_wide8_d32i(__m512i v) { /* wrapping, then zero-extended */
    return _mm512_cvtepu32_epi64(
        _mm256_add_epi32(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1)));
}
AXIAL_INLINE __m512i r512_wide8_d64i(__m512i v) { return v; }
#define R512_T8(D, VT, ADD, LO, HI, SHUF)                                                         \
    AXIAL_INLINE VT r512_t8_##D(const VT *w) {                                                    \
        VT p[4], q[2];                                                                            \
        R512_UNROLL                                                                               \
        for (int i = 0; i < 4; i++)                                                               \
            p[i] = ADD(LO(w[2 * i], w[2 * i + 1]), HI(w[2 * i], w[2 * i + 1]));                   \
        R512_UNROLL                                                                               \
        for (int i = 0; i < 2; i++)                                                               \
            q[i] = ADD(SHUF(p[2 * i], p[2 * i + 1], 0x88), SHUF(p[2 * i], p[2 * i + 1], 0xdd));   \
        return ADD(SHUF(q[0], q[1], 0x88), SHUF(q[0], q[1], 0xdd));                               \
    }
R512_T8(d32i, __m512i, _mm512_add_epi64, _mm512_unpacklo_epi64, _mm512_unpackhi_epi64,
        _mm512_shuffle_i64x2)
R512_T8(d64i, __m512i, _mm512_add_epi64, _mm512_unpacklo_epi64, _mm512_unpackhi_epi64,
        _mm512_shuffle_i64x2)
#define r512_wst_d32i(p, v) _mm512_storeu_si512(p, v)
#define r512_wst_d64i(p, v) _mm512_storeu_si512(p, v)

static inline size_t r512_gcd(size_t a, size_t b) {
    while (b) {
        const size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* ---- the kernels, once per storage type ---------------------------------------
 * S: storage name, T: element type, F: vector family, D: short-row domain,
 * WF: wide type (f: double, u: uint64_t). */
#define R512_WT_f double
#define R512_WT_u uint64_t

#define R512_DEFINE_BASE(S, T, F, WF)                                                               \
    typedef R512_WT_##WF r512_w_##S;                                                              \
                                                                                                  \
    /* y[0..count) = acc[0..count) rounded to T */                                                \
    static void r512_finish_##S(const r512_w_##S *acc, T *y, size_t count) {                      \
        for (size_t k = 0; k < count; k += 8) {                                                   \
            const __mmask8 m = (__mmask8)axial_avx512_mask64(count - k);                          \
            r512_put_##S(y + k, r512_wload_##WF(acc + k, m), m);                                 \
        }                                                                                         \
    }                                                                                             \
                                                                                                  \
    /* Pairwise tree over rows p, p + stride, ... (cnt <= 8 of them, lanes m). */                 \
    AXIAL_INLINE r512_v_##F r512_sum8_##S(const T *p, size_t stride, size_t cnt, __mmask64 m,    \
                                          int full) {                                             \
        r512_v_##F v[8];                                                                          \
        R512_UNROLL                                                                               \
        for (size_t i = 0; i < 8; i++)                                                            \
            v[i] = i >= cnt ? r512_id_##F() : full ? r512_ld_##S(p + i * stride)                 \
                                                   : r512_ldm_##S(p + i * stride, m);             \
        R512_UNROLL                                                                               \
        for (size_t w = 1; w < 8; w *= 2)                                                         \
            R512_UNROLL                                                                           \
            for (size_t i = 0; i < 8; i += 2 * w)                                                 \
                v[i] = r512_add_##F(v[i], v[i + w]);                                              \
        return v[0];                                                                              \
    }                                                                                             \
                                                                                                  \
    /* Hand wide sums to the caller: round into y, or add into acc. */                            \
    static inline void r512_emit_##S(void *dst, size_t off, const r512_w_##S *b, size_t k,        \
                                     int acc) {                                                   \
        if (acc)                                                                                  \
            r512_wadd_##WF((r512_w_##S *)dst + off, b, k);                                        \
        else                                                                                      \
            r512_finish_##S(b, (T *)dst + off, k);                                                \
    }

#define R512_DEFINE_INT(S, T, F, D, WF)                                                           \
    /* One long row (n > 64) -> its wide sum: blocks of 8 vectors by pairwise trees into two    \
     * register accumulators, one horizontal sum at the end. */                                 \
    static r512_w_##S r512_row_##S(const T *p, size_t n) {                                        \
        enum { L = R512_L_##F };                                                                  \
        r512_wr_##F a0 = r512_wrz_##F(), a1 = r512_wrz_##F();                                     \
        size_t j = 0;                                                                             \
        for (; j + 16 * L <= n; j += 16 * L) {                                                    \
            a0 = r512_wradd_##F(a0, r512_sum8_##S(p + j, L, 8, 0, 1));                            \
            a1 = r512_wradd_##F(a1, r512_sum8_##S(p + j + 8 * L, L, 8, 0, 1));                    \
        }                                                                                         \
        if (j + 8 * L <= n) {                                                                     \
            a0 = r512_wradd_##F(a0, r512_sum8_##S(p + j, L, 8, 0, 1));                            \
            j += 8 * L;                                                                           \
        }                                                                                         \
        if (j + L <= n) {                                                                         \
            const size_t q = (n - j) / L;                                                         \
            a1 = r512_wradd_##F(a1, r512_sum8_##S(p + j, L, q, 0, 1));                            \
            j += q * L;                                                                           \
        }                                                                                         \
        if (j < n)                                                                                \
            a0 = r512_wradd_##F(a0, r512_ldm_##S(p + j, axial_avx512_mask64(n - j)));             \
        return r512_wrsum_##F(r512_wrmerge_##F(a0, a1));                                          \
    }                                                                                             \
                                                                                                  \
    /* rows <= DL short rows (n <= 64) -> DL wide sums in out (the first rows valid).         \
     * Q: lanes per row after loading (a power of two; DL when n > DL), M: vectors          \
     * per row (n > DL only), both constants in each instance so the trees stay in          \
     * registers; spread: the vexpand mask (lanes l % Q < n). */                             \
    AXIAL_INLINE void r512_group_##S(const T *x, size_t rows, size_t n, size_t Q, size_t M,     \
                                     uint64_t spread, r512_w_##S *out) {                        \
        enum { DL = R512_DL_##D };                                                                \
        r512_dv_##D v[DL];                                                                        \
        if (M == 0) {                                                                             \
            const size_t rpv = DL / Q; /* rows per vector */                                      \
            R512_UNROLL                                                                           \
            for (size_t i = 0; i < Q; i++) {                                                      \
                const size_t r = i * rpv, rv = r >= rows ? 0 : rows - r < rpv ? rows - r : rpv;  \
                v[i] = rv == rpv && n == Q ? r512_dfl_##S(x + r * n)                              \
                     : rv                  ? r512_dld_##S(x + r * n, rv * n)                      \
                                           : r512_did_##D();                                      \
                if (n != Q)                                                                       \
                    v[i] = r512_dexp_##D(v[i], spread);                                           \
            }                                                                                     \
            r512_fold_##D(v, Q, 0, out);                                                          \
            return;                                                                               \
        }                                                                                         \
        /* M vectors per row (n > DL): a tree per row (depth <= 2 for M <= 4), wide8, and     \
         * t8 for each 8 rows. */                                                            \
        R512_UNROLL                                                                               \
        for (size_t h = 0; h < DL / 8; h++) {                                                     \
            r512_wv_##D w[8];                                                                     \
            R512_UNROLL                                                                           \
            for (size_t rr = 0; rr < 8; rr++) {                                                   \
                const size_t r = 8 * h + rr;                                                      \
                r512_dv_##D t[8];                                                                 \
                R512_UNROLL                                                                       \
                for (size_t k = 0; k < M; k++)                                                    \
                    t[k] = r >= rows                ? r512_did_##D()                              \
                         : k + 1 < M || n == M * DL ? r512_dfl_##S(x + r * n + k * DL)            \
                                                    : r512_dld_##S(x + r * n + k * DL, n - k * DL); \
                R512_UNROLL                                                                       \
                for (size_t c = M; c > 1; c = (c + 1) / 2) {                                      \
                    R512_UNROLL                                                                   \
                    for (size_t i = 0; i < c / 2; i++)                                            \
                        t[i] = r512_dadd_##D(t[2 * i], t[2 * i + 1]);                             \
                    if (c % 2)                                                                    \
                        t[c / 2] = t[c - 1];                                                      \
                }                                                                                 \
                w[rr] = r512_wide8_##D(t[0]);                                                     \
            }                                                                                     \
            r512_wst_##D(out + 8 * h, r512_t8_##D(w));                                            \
        }                                                                                         \
    }                                                                                             \
                                                                                                  \
    /* Rows [r0, r0 + g) of inner == 1, n <= 64 (g <= 16) -> their wide sums in buf. */       \
    AXIAL_INLINE void r512_sgroups_##S(const T *x, size_t r0, size_t g, size_t n, size_t Q,      \
                                       size_t M, uint64_t spread, r512_w_##S *buf) {             \
        enum { DL = R512_DL_##D };                                                                \
        for (size_t s = 0; s < g; s += DL)                                                        \
            r512_group_##S(x + (r0 + s) * n, g - s < DL ? g - s : DL, n, Q, M, spread, buf + s);  \
    }                                                                                             \
    /* All rows of inner == 1, n <= 64, for one (Q, M) instance.  A reduce writing at least  \
     * R512_NT bytes streams its 16-aligned groups of 16 outputs (see r512_stream16). */     \
    AXIAL_INLINE void r512_short_##S(const T *x, void *dst, size_t outer, size_t n, size_t Q,     \
                                     size_t M, int acc) {                                         \
        enum { DL = R512_DL_##D };                                                                \
        r512_w_##S buf[16];                                                                       \
        uint64_t spread = 0;                                                                      \
        for (size_t l = 0; l < DL; l++)                                                           \
            spread |= (uint64_t)(l % Q < n) << l;                                                 \
        size_t r0 = 0;                                                                            \
        if (!acc && outer * sizeof(T) >= R512_NT) {                                               \
            const size_t h = (16 - (uintptr_t)dst % 16) % 16 / sizeof(T); /* to 16 bytes */      \
            if (h) {                                                                              \
                r512_sgroups_##S(x, 0, h, n, Q, M, spread, buf);                                  \
                r512_emit_##S(dst, 0, buf, h, 0);                                                 \
                r0 = h;                                                                           \
            }                                                                                     \
            _Alignas(64) T tmp[16];                                                               \
            for (; r0 + 16 <= outer; r0 += 16) {                                                  \
                r512_sgroups_##S(x, r0, 16, n, Q, M, spread, buf);                                \
                r512_finish_##S(buf, tmp, 16);                                                    \
                r512_stream16((T *)dst + r0, tmp, sizeof tmp);                                    \
            }                                                                                     \
            _mm_sfence();                                                                         \
        }                                                                                         \
        for (; r0 + 16 <= outer; r0 += 16) {                                                      \
            r512_sgroups_##S(x, r0, 16, n, Q, M, spread, buf);                                    \
            r512_emit_##S(dst, r0, buf, 16, acc);                                                 \
        }                                                                                         \
        if (r0 < outer) {                                                                         \
            r512_sgroups_##S(x, r0, outer - r0, n, Q, M, spread, buf);                            \
            r512_emit_##S(dst, r0, buf, outer - r0, acc);                                         \
        }                                                                                         \
    }                                                                                             \
    static void r512_shortrows_##S(const T *x, void *dst, size_t outer, size_t n, int acc) {      \
        enum { DL = R512_DL_##D };                                                                \
        if (n > DL) { /* M = vectors per row: <= 4 for 16-lane domains (n <= 64) */            \
            switch (DL == 16 && n > 48 ? 4 : (n + DL - 1) / DL) {                                 \
            case 2: r512_short_##S(x, dst, outer, n, DL, 2, acc); return;                         \
            case 3: r512_short_##S(x, dst, outer, n, DL, 3, acc); return;                         \
            case 4: r512_short_##S(x, dst, outer, n, DL, 4, acc); return;                         \
            default: break;                                                                       \
            }                                                                                     \
            if (DL == 8) /* 64-bit domains only: 5..8 vectors per row */                          \
                switch ((n + DL - 1) / DL) {                                                      \
                case 5: r512_short_##S(x, dst, outer, n, 8, 5, acc); return;                      \
                case 6: r512_short_##S(x, dst, outer, n, 8, 6, acc); return;                      \
                case 7: r512_short_##S(x, dst, outer, n, 8, 7, acc); return;                      \
                default: r512_short_##S(x, dst, outer, n, 8, 8, acc); return;                     \
                }                                                                                 \
        }                                                                                         \
        if (n == 1) r512_short_##S(x, dst, outer, n, 1, 0, acc);                                  \
        else if (n == 2) r512_short_##S(x, dst, outer, n, 2, 0, acc);                             \
        else if (n <= 4) r512_short_##S(x, dst, outer, n, 4, 0, acc);                             \
        else if (n <= 8) r512_short_##S(x, dst, outer, n, 8, 0, acc);                             \
        else r512_short_##S(x, dst, outer, n, 16, 0, acc);                                        \
    }                                                                                             \
                                                                                                  \
    /* Rows of the column tile [c, c + tv*L) (lanes m of each vector), rb rows. */                \
    AXIAL_INLINE void r512_tile_##S(const T *x, size_t stride, size_t rb, __mmask64 m, int full, \
                                    int tv, r512_ca_##F *ca) {                                    \
        enum { L = R512_L_##F };                                                                  \
        r512_wr_##F a[4];                                                                         \
        R512_UNROLL                                                                               \
        for (int t = 0; t < tv; t++)                                                              \
            a[t] = r512_wrz_##F();                                                                \
        size_t j = 0;                                                                             \
        for (; j + 8 <= rb; j += 8)                                                               \
            R512_UNROLL                                                                           \
            for (int t = 0; t < tv; t++)                                                          \
                a[t] = r512_wradd_##F(a[t],                                                       \
                                      r512_sum8_##S(x + j * stride + t * L, stride, 8, m, full)); \
        if (j < rb)                                                                               \
            R512_UNROLL                                                                           \
            for (int t = 0; t < tv; t++)                                                          \
                a[t] = r512_wradd_##F(                                                            \
                    a[t], r512_sum8_##S(x + j * stride + t * L, stride, rb - j, m, full));        \
        R512_UNROLL                                                                               \
        for (int t = 0; t < tv; t++)                                                              \
            r512_caadd_##F(ca + t * L, a[t]);                                                     \
    }                                                                                             \
                                                                                                  \
    /* ca[c] += sum over j < nrows of x[j*stride + c], c < w, in blocks of rbmax rows; \
     * ca must have room for w rounded up to whole vectors. */                                \
    AXIAL_INLINE void r512_colacc_##S(const T *x, size_t stride, size_t nrows, size_t w,          \
                                      size_t rbmax, r512_ca_##F *ca) {                            \
        enum { L = R512_L_##F };                                                                  \
        for (size_t j0 = 0; j0 < nrows; j0 += rbmax) {                                            \
            const size_t rb = nrows - j0 < rbmax ? nrows - j0 : rbmax;                            \
            const T *xr = x + j0 * stride;                                                        \
            size_t c = 0;                                                                         \
            for (; c + 4 * L <= w; c += 4 * L)                                                    \
                r512_tile_##S(xr + c, stride, rb, 0, 1, 4, ca + c);                               \
            switch ((w - c) / L) {                                                                \
            case 3: r512_tile_##S(xr + c, stride, rb, 0, 1, 3, ca + c); break;                    \
            case 2: r512_tile_##S(xr + c, stride, rb, 0, 1, 2, ca + c); break;                    \
            case 1: r512_tile_##S(xr + c, stride, rb, 0, 1, 1, ca + c); break;                    \
            default: break;                                                                       \
            }                                                                                     \
            c = w / L * L;                                                                        \
            if (c < w)                                                                            \
                r512_tile_##S(xr + c, stride, rb, axial_avx512_mask64(w - c), 0, 1, ca + c);      \
        }                                                                                         \
    }                                                                                             \
    /* out[c] = sum over j < nrows of x[j*stride + c], c < w <= R512_CB, rbmax rows per pass. */ \
    /* out must have room for w rounded up to whole vectors (wv).  The sums                 \
     * accumulate in out's own memory (no stack row): double / uint64_t ones                  \
     * in place; those of an element's own width (e8..e32, s bytes) in the top                 \
     * s*wv bytes of out, then widened in ascending order, which writes                        \
     * out[c] (bytes 8c..8c+8) only below the sums not yet read (the library is               \
     * built with -fno-strict-aliasing). */                                                    \
    static void r512_cols_##S(const T *x, size_t stride, size_t nrows, size_t w, size_t rbmax,    \
                              r512_w_##S *out) {                                                  \
        enum { L = R512_L_##F };                                                                  \
        const size_t wv = (w + L - 1) / L * L;                                                    \
        if (sizeof(r512_ca_##F) != sizeof *out && wv <= 4 * L) {                                  \
            /* up to 4 vectors (the super rows summed in registers): a 256-byte row, which the   \
             * compiler knows apart from x (unlike the in-out row below, which is slower) */    \
            r512_ca_##F small[4 * L] = {0}; /* (GCC 12 cannot see the loop below fill it) */      \
            for (size_t c = 0; c < wv; c++)                                                       \
                small[c] = (r512_ca_##F)(-0.0);                                                   \
            r512_colacc_##S(x, stride, nrows, w, rbmax, small);                                   \
            for (size_t c = 0; c < w; c++)                                                        \
                out[c] = (r512_w_##S)small[c];                                                    \
            return;                                                                               \
        }                                                                                         \
        r512_ca_##F *ca = (r512_ca_##F *)(void *)((char *)out +                                   \
                                                  (sizeof *out - sizeof *ca) * wv);               \
        for (size_t c = 0; c < wv; c++)                                                           \
            ca[c] = (r512_ca_##F)(-0.0);                                                          \
        r512_colacc_##S(x, stride, nrows, w, rbmax, ca);                                          \
        if (sizeof *ca != sizeof *out)                                                            \
            for (size_t c = 0; c < w; c++) {                                                      \
                const r512_ca_##F v = *(volatile r512_ca_##F *)&ca[c];                            \
                out[c] = (r512_w_##S)v;                                                           \
            }                                                                                     \
    }                                                                                             \
    /* inner == 1, n > 64: row sums, R512_CB rows at a time. */                                \
    AXIAL_NOINLINE void r512_rows_##S(const T *x, void *dst, size_t outer,                       \
                                      size_t n, int acc) {                                        \
        r512_w_##S buf[R512_CB];                                                                  \
        for (size_t r0 = 0; r0 < outer; r0 += R512_CB) {                                          \
            const size_t g = outer - r0 < R512_CB ? outer - r0 : R512_CB;                         \
            for (size_t r = 0; r < g; r++)                                                        \
                buf[r] = r512_row_##S(x + (r0 + r) * n, n);                                       \
            r512_emit_##S(dst, r0, buf, g, acc);                                                  \
        }                                                                                         \
    }                                                                                             \
    /* Super rows of x[o] (lcm <= R512_CB elements, per = lcm / inner >= 2 rows each): the     \
     * lcm column sums, folded mod inner in place (buf[0..inner) += buf[k*inner..]), then the  \
     * n mod per left-over rows summed into buf[inner..] (free again) and added. */             \
    AXIAL_NOINLINE void r512_super_##S(const T *xo, void *dst, size_t off,                       \
                                       size_t n, size_t inner, size_t lcm,                       \
                                       int acc) {                                                 \
        enum { L = R512_L_##F };                                                                  \
        r512_w_##S buf[R512_CB];                                                                  \
        const size_t per = lcm / inner, ns = n / per;                                             \
        /* <= 4 vectors per super row: one stream, all rows in registers */                     \
        r512_cols_##S(xo, lcm, ns, lcm, lcm <= 4 * L ? ns : R512_RB, buf);                        \
        for (size_t k = 1; k < per; k++)                                                          \
            r512_wadd_##WF(buf, buf + k * inner, inner);                                          \
        if (n % per) {                                                                            \
            r512_cols_##S(xo + ns * lcm, inner, n % per, inner, R512_RB, buf + inner);            \
            r512_wadd_##WF(buf, buf + inner, inner);                                              \
        }                                                                                         \
        r512_emit_##S(dst, off, buf, inner, acc);                                                 \
    }                                                                                             \
    /* Columns [i0, inner) of x[o] in blocks of R512_CB, R512_RB rows in registers. */          \
    AXIAL_NOINLINE void r512_blocks_##S(const T *xo, void *dst, size_t off,                      \
                                        size_t n, size_t i0, size_t inner,                       \
                                        int acc) {                                                \
        r512_w_##S buf[R512_CB];                                                                  \
        for (; i0 < inner; i0 += R512_CB) {                                                       \
            const size_t w = inner - i0 < R512_CB ? inner - i0 : R512_CB;                         \
            r512_cols_##S(xo + i0, inner, n, w, R512_RB, buf);                                    \
            r512_emit_##S(dst, off + i0, buf, w, acc);                                            \
        }                                                                                         \
    }                                                                                             \
                                                                                                  \
    /* No buffer of its own: each path's buffer lives only in that path's frame, so a call's    \
     * stack is the deepest path's (README: 16 KiB per call). */                                \
    static void r512_reduce_##S(const void *xv, void *dst, size_t outer, size_t n, size_t inner,  \
                                int acc, int stream) {                                            \
        enum { L = R512_L_##F };                                                                  \
        const T *x = (const T *)xv;                                                               \
        (void)stream; /* streams by its own output's size only (R512_NT) */                       \
        if (inner == 1 && n <= R512_SHORT) {                                                      \
            r512_shortrows_##S(x, dst, outer, n, acc);                                            \
            return;                                                                               \
        }                                                                                         \
        if (inner == 1) {                                                                         \
            r512_rows_##S(x, dst, outer, n, acc);                                                 \
            return;                                                                               \
        }                                                                                         \
        const size_t lcm = inner / r512_gcd(inner, L) * L, per = lcm / inner;                     \
        const int super = inner % L != 0 && lcm <= R512_CB && n >= per;                           \
        for (size_t o = 0; o < outer; o++) {                                                      \
            const T *xo = x + o * n * inner;                                                      \
            if (super) {                                                                          \
                r512_super_##S(xo, dst, o * inner, n, inner, lcm, acc);                           \
                continue;                                                                         \
            }                                                                                     \
            const size_t i0 = 0;                                                                  \
            if (i0 < inner)                                                                       \
                r512_blocks_##S(xo, dst, o * inner, n, i0, inner, acc);                           \
        }                                                                                         \
    }

R512_DEFINE_BASE(f32, float, ps, f)
R512_DEFINE_BASE(f16, uint16_t, ps, f)
R512_DEFINE_BASE(bf16, uint16_t, ps, f)
R512_DEFINE_BASE(f64, double, pd, f)
R512_DEFINE_BASE(b8, uint8_t, e8, u)
R512_DEFINE_BASE(b16, uint16_t, e16, u)
R512_DEFINE_BASE(b32, uint32_t, e32, u)
R512_DEFINE_BASE(b64, uint64_t, e64, u)
R512_DEFINE_INT(b8, uint8_t, e8, d32i, u)
R512_DEFINE_INT(b16, uint16_t, e16, d32i, u)
R512_DEFINE_INT(b32, uint32_t, e32, d32i, u)
R512_DEFINE_INT(b64, uint64_t, e64, d64i, u)
/* ---- the float kernels: the one summation order ------------------------------
 * "Virtual vectors" of 16 lanes: f32 (f16/bf16 widened) holds one in a zmm,
 * f64 in two (lo: lanes 0..7, hi: 8..15); their f64 accumulators are two
 * zmm (r512_wr_ps: lo, hi) in both cases.  -0.0 is every pad and every
 * start, so a sum of only -0.0 is -0.0.  An f32 tree of 8 terms may overflow
 * where the exact sum would not (only for terms within a factor 8 of
 * FLT_MAX). */
typedef __m512 r512_sv_ps;
typedef r512_wr_ps r512_sv_pd; /* two f64 zmm */
AXIAL_INLINE __m512 r512_svadd_ps(__m512 a, __m512 b) { return _mm512_add_ps(a, b); }
AXIAL_INLINE r512_sv_pd r512_svadd_pd(r512_sv_pd a, r512_sv_pd b) {
    return (r512_sv_pd){_mm512_add_pd(a.lo, b.lo), _mm512_add_pd(a.hi, b.hi)};
}
AXIAL_INLINE __m512 r512_svid_ps(void) { return r512_id_ps(); }
AXIAL_INLINE r512_sv_pd r512_svid_pd(void) { return (r512_sv_pd){r512_id_pd(), r512_id_pd()}; }
/* A virtual vector in f64 (exact). */
AXIAL_INLINE r512_wr_ps r512_svwide_ps(__m512 v) {
    return (r512_wr_ps){_mm512_cvtps_pd(_mm512_castps512_ps256(v)),
                        _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1))};
}
AXIAL_INLINE r512_wr_ps r512_svwide_pd(r512_sv_pd v) { return v; }
/* Loads of 16 elements, or of k < 16 (the other lanes -0.0). */
#define r512_svld_f32(p) r512_ld_f32(p)
#define r512_svld_f16(p) r512_ld_f16(p)
#define r512_svld_bf16(p) r512_ld_bf16(p)
#define r512_svldk_f32(p, k) r512_ldm_f32(p, axial_avx512_mask64(k))
#define r512_svldk_f16(p, k) r512_ldm_f16(p, axial_avx512_mask64(k))
#define r512_svldk_bf16(p, k) r512_ldm_bf16(p, axial_avx512_mask64(k))
AXIAL_INLINE r512_sv_pd r512_svld_f64(const double *p) {
    return (r512_sv_pd){_mm512_loadu_pd(p), _mm512_loadu_pd(p + 8)};
}
/* The same k < 16 elements by a plain load of 16 (all of them in x), the
 * other lanes then set to -0.0: masked loads that miss the caches are much
 * slower than plain ones on Zen 5.  The empty asm keeps GCC from folding
 * the load into a masked move's memory form (a masked load again). */
AXIAL_INLINE __m512 r512_plain_ps(__m512 v) {
    __asm__("" : AXIAL_AVX512_OPAQUE(v));
    return v;
}
AXIAL_INLINE __m512d r512_plain_pd(__m512d v) {
    __asm__("" : AXIAL_AVX512_OPAQUE(v));
    return v;
}
#define r512_svldf_f32(p, k)                                                                      \
    _mm512_mask_mov_ps(r512_id_ps(), (__mmask16)axial_avx512_mask64(k), r512_plain_ps(r512_ld_f32(p)))
#define r512_svldf_f16(p, k)                                                                      \
    _mm512_mask_mov_ps(r512_id_ps(), (__mmask16)axial_avx512_mask64(k), r512_plain_ps(r512_ld_f16(p)))
#define r512_svldf_bf16(p, k)                                                                     \
    _mm512_mask_mov_ps(r512_id_ps(), (__mmask16)axial_avx512_mask64(k), r512_plain_ps(r512_ld_bf16(p)))
AXIAL_INLINE r512_sv_pd r512_svldf_f64(const double *p, size_t k) {
    const __mmask16 m = (__mmask16)axial_avx512_mask64(k);
    return (r512_sv_pd){
        _mm512_mask_mov_pd(r512_id_pd(), (__mmask8)m, r512_plain_pd(_mm512_loadu_pd(p))),
        _mm512_mask_mov_pd(r512_id_pd(), (__mmask8)(m >> 8), r512_plain_pd(_mm512_loadu_pd(p + 8)))};
}
AXIAL_INLINE r512_sv_pd r512_svldk_f64(const double *p, size_t k) {
    const __mmask16 m = (__mmask16)axial_avx512_mask64(k);
    return (r512_sv_pd){_mm512_mask_loadu_pd(r512_id_pd(), (__mmask8)m, p),
                        _mm512_mask_loadu_pd(r512_id_pd(), (__mmask8)(m >> 8), p + 8)};
}

/* The f64 accumulators of a column tile of one vector (L columns; lanes m
 * unless full): loaded from and stored back to memory. */
AXIAL_INLINE r512_wr_ps r512_wrld_ps(const double *ca, __mmask64 m, int full) {
    if (full)
        return (r512_wr_ps){_mm512_loadu_pd(ca), _mm512_loadu_pd(ca + 8)};
    return (r512_wr_ps){_mm512_maskz_loadu_pd((__mmask8)m, ca),
                        _mm512_maskz_loadu_pd((__mmask8)(m >> 8), ca + 8)};
}
AXIAL_INLINE void r512_wrst_ps(double *ca, r512_wr_ps a, __mmask64 m, int full) {
    if (full) {
        _mm512_storeu_pd(ca, a.lo);
        _mm512_storeu_pd(ca + 8, a.hi);
    } else {
        _mm512_mask_storeu_pd(ca, (__mmask8)m, a.lo);
        _mm512_mask_storeu_pd(ca + 8, (__mmask8)(m >> 8), a.hi);
    }
}
AXIAL_INLINE __m512d r512_wrld_pd(const double *ca, __mmask64 m, int full) {
    return full ? _mm512_loadu_pd(ca) : _mm512_maskz_loadu_pd((__mmask8)m, ca);
}
AXIAL_INLINE void r512_wrst_pd(double *ca, __m512d a, __mmask64 m, int full) {
    if (full) _mm512_storeu_pd(ca, a);
    else _mm512_mask_storeu_pd(ca, (__mmask8)m, a);
}

/* 8 rows of 8 f64 lanes (r, in row order) -> the vector of their 8 sums, each
 * row folded in halves: lane p += lane p + 4, then p + 2, then p + 1.  Fed in
 * the order 0,2,4,6,1,3,5,7, the three levels (two vshuff64x2 levels, then
 * unpacklo/hi) leave the sums in row order. */
AXIAL_INLINE __m512d r512_fold8x8(const __m512d *r) {
    const __m512d w[8] = {r[0], r[2], r[4], r[6], r[1], r[3], r[5], r[7]};
    __m512d u[4], v[2];
    R512_UNROLL
    for (int i = 0; i < 4; i++) /* [w2i(0..3) w2i+1(0..3)] + [w2i(4..7) w2i+1(4..7)] */
        u[i] = _mm512_add_pd(_mm512_shuffle_f64x2(w[2 * i], w[2 * i + 1], 0x44),
                             _mm512_shuffle_f64x2(w[2 * i], w[2 * i + 1], 0xee));
    R512_UNROLL
    for (int i = 0; i < 2; i++) /* lanes p += p + 2 of each 4-lane row */
        v[i] = _mm512_add_pd(_mm512_shuffle_f64x2(u[2 * i], u[2 * i + 1], 0x88),
                             _mm512_shuffle_f64x2(u[2 * i], u[2 * i + 1], 0xdd));
    return _mm512_add_pd(_mm512_unpacklo_pd(v[0], v[1]), _mm512_unpackhi_pd(v[0], v[1]));
}

/* One halving level of f64 vectors holding rows of q lanes (q = 2, 4, 8):
 * lane p of each row += lane p + q/2; a and b -> one vector of rows of q/2. */
static const int64_t r512_half_lo[3][8] = {{0, 2, 4, 6, 8, 10, 12, 14},
                                           {0, 1, 4, 5, 8, 9, 12, 13},
                                           {0, 1, 2, 3, 8, 9, 10, 11}};
static const int64_t r512_half_hi[3][8] = {{1, 3, 5, 7, 9, 11, 13, 15},
                                           {2, 3, 6, 7, 10, 11, 14, 15},
                                           {4, 5, 6, 7, 12, 13, 14, 15}};
AXIAL_INLINE __m512d r512_half(__m512d a, __m512d b, size_t q) {
    if (q == 8)
        return _mm512_add_pd(_mm512_shuffle_f64x2(a, b, 0x44), _mm512_shuffle_f64x2(a, b, 0xee));
    const unsigned l = q == 2 ? 0 : 1;
    return _mm512_add_pd(_mm512_permutex2var_pd(a, R512_IDX(r512_half_lo[l]), b),
                         _mm512_permutex2var_pd(a, R512_IDX(r512_half_hi[l]), b));
}
/* d[0..cnt): rows of q lanes -> halving levels down to one lane per row. */
AXIAL_INLINE void r512_halves(__m512d *d, size_t cnt, size_t q) {
    R512_UNROLL
    for (; q > 1; q /= 2, cnt /= 2)
        R512_UNROLL
        for (size_t i = 0; i < cnt / 2; i++)
            d[i] = r512_half(d[2 * i], d[2 * i + 1], q);
}

/* Short rows n <= 8, packed: 16 rows padded to Q = 2^k >= n lanes (a load of
 * 16n/Q elements, spread by a masked permute when n != Q: lane l takes
 * element (l / Q) n + l % Q, pad lanes -0.0), widened to f64 and folded in
 * halves (the periodic order of a row: A = the row, the 16 -> 8 -> ...
 * levels over -0.0 lanes change nothing) -> 16 sums in out.  far: a whole
 * vector past the group's end is still in x, so full vectors load plainly
 * (the permute reads only the first 16n/Q lanes).  A permute, not vexpand:
 * GCC folds a plain load into vexpand's memory form, a masked load, which is
 * slow from memory. */
#define R512_SPREAD_ps(n, Q)                                                                      \
    _mm512_add_epi32(                                                                             \
        _mm512_mullo_epi32(_mm512_srli_epi32(R512_IOTA32, R512_LOG2(Q)), _mm512_set1_epi32((int)(n))), \
        _mm512_and_si512(R512_IOTA32, _mm512_set1_epi32((int)(Q) - 1)))
#define R512_SPREAD_pd(n, Q)                                                                      \
    _mm512_add_epi64(                                                                             \
        _mm512_mullo_epi64(_mm512_srli_epi64(R512_IOTA64, R512_LOG2(Q)), _mm512_set1_epi64((long long)(n))), \
        _mm512_and_si512(R512_IOTA64, _mm512_set1_epi64((long long)(Q) - 1)))
#define R512_IOTA32 _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define R512_IOTA64 _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0)
#define R512_FPACK_ps(S, T)                                                                       \
    AXIAL_INLINE void r512_fpack_##S(const T *x, size_t rows, size_t n, size_t Q, uint64_t spread, \
                                     int far, double *out) {                                      \
        const size_t rpv = 16 / Q;                                                                \
        const __m512i idx = R512_SPREAD_ps(n, Q);                                                 \
        __m512d d[16];                                                                            \
        R512_UNROLL                                                                               \
        for (size_t i = 0; i < Q; i++) {                                                          \
            const size_t r = i * rpv, rv = r >= rows ? 0 : rows - r < rpv ? rows - r : rpv;      \
            __m512 v = rv == rpv && (n == Q || far) ? r512_dfl_##S(x + r * n)                     \
                     : rv                           ? r512_dld_##S(x + r * n, rv * n)             \
                                                    : r512_id_ps();                               \
            if (n != Q)                                                                           \
                v = _mm512_mask_permutexvar_ps(r512_id_ps(), (__mmask16)spread, idx, v);          \
            d[2 * i] = _mm512_cvtps_pd(_mm512_castps512_ps256(v));                                \
            d[2 * i + 1] = _mm512_cvtps_pd(_mm512_extractf32x8_ps(v, 1));                         \
        }                                                                                         \
        r512_halves(d, 2 * Q, Q);                                                                 \
        _mm512_storeu_pd(out, d[0]);                                                              \
        _mm512_storeu_pd(out + 8, d[1]);                                                          \
    }
#define R512_FPACK_pd(S, T)                                                                       \
    AXIAL_INLINE void r512_fpack_##S(const T *x, size_t rows, size_t n, size_t Q, uint64_t spread, \
                                     int far, double *out) {                                      \
        const size_t rpv = 8 / Q;                                                                 \
        const __m512i idx = R512_SPREAD_pd(n, Q);                                                 \
        R512_UNROLL                                                                               \
        for (size_t h = 0; h < 16; h += 8) {                                                      \
            __m512d d[8];                                                                         \
            R512_UNROLL                                                                           \
            for (size_t i = 0; i < Q; i++) {                                                      \
                const size_t r = h + i * rpv,                                                     \
                             rv = r >= rows ? 0 : rows - r < rpv ? rows - r : rpv;                \
                __m512d v = rv == rpv && (n == Q || far) ? r512_dfl_##S(x + r * n)                \
                          : rv                           ? r512_dld_##S(x + r * n, rv * n)        \
                                                         : r512_id_pd();                          \
                if (n != Q)                                                                       \
                    v = _mm512_mask_permutexvar_pd(r512_id_pd(), (__mmask8)spread, idx, v);       \
                d[i] = v;                                                                         \
            }                                                                                     \
            r512_halves(d, Q, Q);                                                                 \
            _mm512_storeu_pd(out + h, d[0]);                                                      \
        }                                                                                         \
    }
/* p[0..k) = -0.0, by vector stores (p may be misaligned for a double). */
static inline void r512_neg0(double *p, size_t k) {
    size_t i = 0;
    for (; i + 8 <= k; i += 8)
        _mm512_storeu_pd(p + i, r512_id_pd());
    if (i < k)
        _mm512_mask_storeu_pd(p + i, (__mmask8)axial_avx512_mask64(k - i), r512_id_pd());
}

/* The f32 reduce of rows of 2: the order's x0 + x1 in f64, rounded to f32,
 * equals x0 + x1 rounded once in f32 (double rounding through f64's 53 bits
 * is innocuous for a sum: 53 >= 2 * 24 + 2), so 16 rows are an even/odd split
 * of 32 elements and one f32 add.  Writing >= R512_NT bytes, the 64-byte
 * aligned stores are streaming ones (then sfence). */
AXIAL_INLINE __m512 r512_pair16(__m512 a, __m512 b) {
    return _mm512_add_ps(_mm512_permutex2var_ps(a, R512_IDX(r512_even32), b),
                         _mm512_permutex2var_ps(a, R512_IDX(r512_odd32), b));
}
/* k < 16 rows of 2 at x -> y[0..k), masked. */
AXIAL_INLINE void r512_pairs_tail(const float *x, float *y, size_t k) {
    const __m512 a = _mm512_maskz_loadu_ps((__mmask16)axial_avx512_mask64(2 * k), x);
    const __m512 b = _mm512_maskz_loadu_ps((__mmask16)axial_avx512_mask64(k > 8 ? 2 * k - 16 : 0),
                                           x + 16);
    _mm512_mask_storeu_ps(y, (__mmask16)axial_avx512_mask64(k), r512_pair16(a, b));
}
AXIAL_NOINLINE void r512_pairs_f32(const float *x, float *y, size_t outer,
                                   int nt) {
    size_t r = 0;
    const int pf = outer * 2 * sizeof(float) >= AXIAL_ROWS_PF_MIN;
    if (nt || outer * sizeof(float) >= R512_NT) {
        size_t h = (64 - (uintptr_t)y % 64) % 64 / sizeof(float); /* to 64 bytes */
        h = h < outer ? h : outer;
        if (h) {
            r512_pairs_tail(x, y, h);
            r = h;
        }
        for (; r + 16 <= outer; r += 16) {
            if (pf)
                axial_prefetch_ahead(x + 2 * r, 128);
            _mm512_stream_ps(y + r, r512_pair16(_mm512_loadu_ps(x + 2 * r),
                                                _mm512_loadu_ps(x + 2 * r + 16)));
        }
        _mm_sfence();
    }
    for (; r + 16 <= outer; r += 16) {
        if (pf)
            axial_prefetch_ahead(x + 2 * r, 128);
        _mm512_storeu_ps(y + r, r512_pair16(_mm512_loadu_ps(x + 2 * r),
                                            _mm512_loadu_ps(x + 2 * r + 16)));
    }
    if (r < outer)
        r512_pairs_tail(x + 2 * r, y + r, outer - r);
}

#define R512_FDL_ps 16 /* lanes of a packed short-row vector */
#define R512_FDL_pd 8
#define R512_RUN 4096 /* columns per pass of the column order with acc in memory */
#define R512_ROWBUF 1024 /* the f64 row of the f32/f16/bf16 reduce, on the stack */

/* S: storage name, T: element type, F: family (ps: f32/f16/bf16, pd: f64). */
#define R512_DEFINE_FLOAT(S, T, F)                                                                \
    R512_FPACK_##F(S, T)                                                                          \
                                                                                                  \
    /* The column order on a tile of tv vectors of columns (lanes m unless full): the f64     \
     * sums ca[] loaded, one 8-row tree per group added to them in group order, stored. */      \
    AXIAL_INLINE void r512_ftile_##S(const T *x, size_t stride, size_t rb, __mmask64 m, int full, \
                                     int tv, double *ca) {                                        \
        enum { L = R512_L_##F };                                                                  \
        r512_wr_##F a[4];                                                                         \
        R512_UNROLL                                                                               \
        for (int t = 0; t < tv; t++)                                                              \
            a[t] = r512_wrld_##F(ca + t * L, m, full);                                            \
        size_t j = 0;                                                                             \
        for (; j + 8 <= rb; j += 8)                                                               \
            R512_UNROLL                                                                           \
            for (int t = 0; t < tv; t++)                                                          \
                a[t] = r512_wradd_##F(a[t],                                                       \
                                      r512_sum8_##S(x + j * stride + t * L, stride, 8, m, full)); \
        if (j < rb)                                                                               \
            R512_UNROLL                                                                           \
            for (int t = 0; t < tv; t++)                                                          \
                a[t] = r512_wradd_##F(                                                            \
                    a[t], r512_sum8_##S(x + j * stride + t * L, stride, rb - j, m, full));        \
        R512_UNROLL                                                                               \
        for (int t = 0; t < tv; t++)                                                              \
            r512_wrst_##F(ca + t * L, a[t], m, full);                                             \
    }                                                                                             \
    /* One pass of rb rows over columns [0, w) of x, sums ca[0..w). */                       \
    AXIAL_INLINE void r512_fpass_##S(const T *xr, size_t stride, size_t rb, size_t w,             \
                                     double *ca) {                                                \
        enum { L = R512_L_##F };                                                                  \
        size_t c = 0;                                                                             \
        for (; c + 4 * L <= w; c += 4 * L)                                                        \
            r512_ftile_##S(xr + c, stride, rb, 0, 1, 4, ca + c);                                  \
        switch ((w - c) / L) {                                                                    \
        case 3: r512_ftile_##S(xr + c, stride, rb, 0, 1, 3, ca + c); break;                       \
        case 2: r512_ftile_##S(xr + c, stride, rb, 0, 1, 2, ca + c); break;                       \
        case 1: r512_ftile_##S(xr + c, stride, rb, 0, 1, 1, ca + c); break;                       \
        default: break;                                                                           \
        }                                                                                         \
        c = w / L * L;                                                                            \
        if (c < w)                                                                                \
            r512_ftile_##S(xr + c, stride, rb, axial_avx512_mask64(w - c), 0, 1, ca + c);         \
    }                                                                                             \
    /* ca[c] = ca[c] + column c (c < w) of the (nrows, stride) matrix x, in the column      \
     * order; the sums of columns [0, h) are ca, those of [h, w) ca2[0..w-h).  Up to 4       \
     * vectors of columns: all rows in registers (one stream); wider: 8 rows per pass over   \
     * the whole width (long runs of each row). */                                          \
    AXIAL_NOINLINE void r512_fcolacc2_##S(const T *x, size_t stride,                             \
                                          size_t nrows, size_t w, size_t h,                      \
                                          double *ca, double *ca2) {                             \
        enum { L = R512_L_##F };                                                                  \
        const size_t rbmax = w <= 4 * L ? nrows : 8;                                              \
        for (size_t j0 = 0; j0 < nrows; j0 += rbmax) {                                            \
            const size_t rb = nrows - j0 < rbmax ? nrows - j0 : rbmax;                            \
            const T *xr = x + j0 * stride;                                                        \
            r512_fpass_##S(xr, stride, rb, h, ca);                                                \
            if (h < w)                                                                            \
                r512_fpass_##S(xr + h, stride, rb, w - h, ca2);                                   \
        }                                                                                         \
    }                                                                                             \
    static void r512_fcolacc_##S(const T *x, size_t stride, size_t nrows, size_t w, double *ca) { \
        r512_fcolacc2_##S(x, stride, nrows, w, w, ca, ca);                                        \
    }                                                                                             \
    /* reduce_cols: runs of R512_RUN columns. */                                                 \
    static void r512_fcols_##S(const T *x, size_t stride, size_t n, size_t w, double *acc) {     \
        for (size_t c0 = 0; c0 < w; c0 += R512_RUN)                                               \
            r512_fcolacc_##S(x + c0, stride, n, w - c0 < R512_RUN ? w - c0 : R512_RUN, acc + c0); \
    }                                                                                             \
    /* The reduce of inner >= 16 columns into y (T narrower than f64), blocks of w columns  \
     * read in runs of w: the f64 sums (from -0.0) of the first h = w * sizeof(T) / 8        \
     * columns in y's own bytes, the other w - h <= R512_ROWBUF in a stack row (f32: w =     \
     * 2048, 8 KiB runs; 16-bit T: 1365).  The stack row is bounded by the 16 KiB a call   \
     * may use (README); y's bytes make the runs longer, which read faster.  Rounded once    \
     * in ascending order, each output written only over sums already read (y[c] lies in   \
     * the sum of column c * sizeof(T) / 8 <= c; the library is built with                  \
     * -fno-strict-aliasing). */                                                             \
    AXIAL_NOINLINE void r512_fwhole_##S(const T *xo, T *y, size_t n,                             \
                                        size_t inner) {                                           \
        enum { WB = R512_ROWBUF * 8 / (8 - sizeof(T) % 8) }; /* (f64: unused) */               \
        double row[R512_ROWBUF];                                                                  \
        for (size_t c0 = 0; c0 < inner; c0 += WB) {                                               \
            const size_t w = inner - c0 < WB ? inner - c0 : WB, h = w * sizeof(T) / 8;            \
            double *ys = (double *)(void *)(y + c0);                                              \
            r512_neg0(ys, h); /* ys: element alignment only, vector stores */                    \
            r512_neg0(row, w - h);                                                                \
            r512_fcolacc2_##S(xo + c0, inner, n, w, h, ys, row);                                  \
            r512_finish_##S(ys, y + c0, h);                                                       \
            r512_finish_##S(row, y + c0 + h, w - h);                                              \
        }                                                                                         \
    }                                                                                             \
    static r512_wr_ps r512_frowv_##S(const T *p, size_t n);                                      \
    /* The periodic order (1 < inner < 16) of x[o]: A[0..inner) = its folded sums.  The       \
     * super-rows' positions are columns of stride P: the full groups of 8 super-rows,        \
     * then the last group (its full super-rows and the partial one's rem elements; the      \
     * positions past rem end one row earlier, the same as -0.0 pads). */                    \
    AXIAL_NOINLINE void r512_fper_##S(const T *xo, size_t n, size_t inner,                       \
                                      double *A) {                                                \
        const size_t P = inner / r512_gcd(inner, 16) * 16, N = n * inner;                         \
        const size_t ns = N / P, rem = N % P, ng = ns / 8 * 8;                                    \
        if (P == 16) { /* inner 2, 4, 8: the order of a row of N elements, before its fold */    \
            const r512_wr_ps a = r512_frowv_##S(xo, N);                                           \
            _mm512_storeu_pd(A, a.lo);                                                            \
            _mm512_storeu_pd(A + 8, a.hi);                                                        \
        } else {                                                                                  \
            for (size_t p = 0; p < P; p++)                                                        \
                A[p] = -0.0;                                                                      \
            if (ng)                                                                               \
                r512_fcolacc_##S(xo, P, ng, P, A);                                                \
            const T *xt = xo + ng * P;                                                            \
            if (rem)                                                                              \
                r512_fcolacc_##S(xt, P, ns - ng + 1, rem, A);                                     \
            if (ns > ng)                                                                          \
                r512_fcolacc_##S(xt + rem, P, ns - ng, P - rem, A + rem);                         \
        }                                                                                         \
        for (size_t len = P; len > inner; len /= 2)                                               \
            for (size_t p = 0; p < len / 2; p++)                                                  \
                A[p] += A[p + len / 2];                                                           \
    }                                                                                             \
    AXIAL_NOINLINE void r512_fpers_##S(const T *x, void *dst, size_t outer,                      \
                                       size_t n, size_t inner, int acc) {                         \
        double A[240]; /* P = lcm(inner, 16) <= 240 */                                            \
        for (size_t o = 0; o < outer; o++) {                                                      \
            r512_fper_##S(x + o * n * inner, n, inner, A);                                        \
            r512_emit_##S(dst, o * inner, A, inner, acc);                                         \
        }                                                                                         \
    }                                                                                             \
                                                                                                  \
    /* A row of n elements (16 * (M - 1) < n <= 16 * M, M <= 8): one group of M virtual      \
     * vectors, its tree (a missing right operand: the left one, as with -0.0 pads),          \
     * widened: A; returns A's halving level 16 -> 8 (lane p + lane p + 8). */                \
    /* far: 16 elements past the row's last vector are in x (a plain load). */                \
    AXIAL_INLINE __m512d r512_frowm_##S(const T *p, size_t n, size_t M, int far) {               \
        r512_sv_##F v[8];                                                                         \
        R512_UNROLL                                                                               \
        for (size_t k = 0; k < 8; k++) /* (past M: the identity, for a runtime M's warnings) */   \
            v[k] = k >= M                   ? r512_svid_##F()                                     \
                 : k + 1 < M || n == 16 * M ? r512_svld_##S(p + 16 * k)                           \
                 : far && M == 1            ? r512_svldf_##S(p + 16 * k, n - 16 * k)              \
                                            : r512_svldk_##S(p + 16 * k, n - 16 * k);             \
        R512_UNROLL                                                                               \
        for (size_t c = M; c > 1; c = (c + 1) / 2) {                                              \
            R512_UNROLL                                                                           \
            for (size_t i = 0; i < c / 2; i++)                                                    \
                v[i] = r512_svadd_##F(v[2 * i], v[2 * i + 1]);                                    \
            if (c % 2)                                                                            \
                v[c / 2] = v[c - 1];                                                              \
        }                                                                                         \
        const r512_wr_ps a = r512_svwide_##F(v[0]);                                               \
        return _mm512_add_pd(a.lo, a.hi);                                                         \
    }                                                                                             \
    /* A long row: groups of 8 virtual vectors (128 elements) into its 16 f64 lanes A. */   \
    AXIAL_NOINLINE r512_wr_ps r512_frowv_##S(const T *p, size_t n) {                             \
        r512_wr_ps a = r512_svid_pd();                                                            \
        r512_sv_##F v[8];                                                                         \
        size_t j = 0;                                                                             \
        const int pf = sizeof(T) < 8 && n * sizeof(T) >= R512_PF_ROW;                             \
        for (; j + 128 <= n; j += 128) {                                                          \
            if (pf)                                                                               \
                axial_prefetch_ahead(p + j, 128 * sizeof(T));                                     \
            R512_UNROLL                                                                           \
            for (size_t k = 0; k < 8; k++)                                                        \
                v[k] = r512_svld_##S(p + j + 16 * k);                                             \
            R512_UNROLL                                                                           \
            for (size_t w = 1; w < 8; w *= 2)                                                     \
                R512_UNROLL                                                                       \
                for (size_t i = 0; i < 8; i += 2 * w)                                             \
                    v[i] = r512_svadd_##F(v[i], v[i + w]);                                        \
            const r512_wr_ps g = r512_svwide_##F(v[0]);                                           \
            a.lo = _mm512_add_pd(a.lo, g.lo);                                                     \
            a.hi = _mm512_add_pd(a.hi, g.hi);                                                     \
        }                                                                                         \
        if (j < n) { /* the last group: q whole vectors, then k elements, -0.0 pads */        \
            const size_t q = (n - j) / 16, k = (n - j) % 16;                                      \
            R512_UNROLL                                                                           \
            for (size_t i = 0; i < 8; i++)                                                        \
                v[i] = i < q            ? r512_svld_##S(p + j + 16 * i)                           \
                     : i == q && k != 0 ? r512_svldk_##S(p + j + 16 * i, k)                       \
                                        : r512_svid_##F();                                        \
            R512_UNROLL                                                                           \
            for (size_t w = 1; w < 8; w *= 2)                                                     \
                R512_UNROLL                                                                       \
                for (size_t i = 0; i < 8; i += 2 * w)                                             \
                    v[i] = r512_svadd_##F(v[i], v[i + w]);                                        \
            const r512_wr_ps g = r512_svwide_##F(v[0]);                                           \
            a.lo = _mm512_add_pd(a.lo, g.lo);                                                     \
            a.hi = _mm512_add_pd(a.hi, g.hi);                                                     \
        }                                                                                         \
        return a;                                                                                 \
    }                                                                                             \
    /* ... and its halving level 16 -> 8. */                                                      \
    AXIAL_INLINE __m512d r512_frowl_##S(const T *p, size_t n) {                                   \
        const r512_wr_ps a = r512_frowv_##S(p, n);                                                \
        return _mm512_add_pd(a.lo, a.hi);                                                         \
    }                                                                                             \
    /* rows <= 16 rows of n elements -> their 16 f64 sums in out (the first rows valid):     \
     * packed (Q lanes per row, Q != 0) or per row (M vectors per row; 0: long rows). */    \
    AXIAL_INLINE void r512_fgroup_##S(const T *x, size_t rows, size_t n, size_t Q, size_t M,    \
                                      uint64_t spread, int far, double *out) {                    \
        if (Q) {                                                                                  \
            r512_fpack_##S(x, rows, n, Q, spread, far, out);                                      \
            return;                                                                               \
        }                                                                                         \
        for (size_t h = 0; h < rows; h += 8) {                                                    \
            __m512d r[8];                                                                         \
            R512_UNROLL                                                                           \
            for (size_t i = 0; i < 8; i++)                                                        \
                r[i] = h + i >= rows ? r512_id_pd()                                               \
                     : M         ? r512_frowm_##S(x + (h + i) * n, n, M, far)                     \
                                 : r512_frowl_##S(x + (h + i) * n, n);                            \
            _mm512_storeu_pd(out + h, r512_fold8x8(r));                                           \
        }                                                                                         \
    }                                                                                             \
    /* The head and tail groups of r512_frun (fewer than 16 rows, once per call):                 \
     * one copy for every Q and M, not one per constant pair. */                                  \
    AXIAL_NOINLINE void r512_fgroup_any_##S(const T *x, size_t rows, size_t n,                    \
                                                           size_t Q, size_t M,                    \
                                                           uint64_t spread, double *out) {        \
        r512_fgroup_##S(x, rows, n, Q, M, spread, 0, out);                                        \
    }                                                                                             \
    /* All rows (inner == 1), 16 at a time.  NT (r512_frows_nt_*): streams its 16-aligned         \
     * groups of 16 outputs (see r512_stream16).  P (a constant): rows n < Q or of one            \
     * masked vector, whose full loads may be plain (r512_fpack_*, r512_frowm_*) where a          \
     * vector past the group of 16 rows is still in x. */                                         \
    AXIAL_INLINE void r512_frun_##S(const T *x, void *dst, size_t outer, size_t n, size_t Q,     \
                                    size_t M, int acc, int P, int NT) {                           \
        double buf[16];                                                                           \
        uint64_t spread = 0;                                                                      \
        for (size_t l = 0; Q && l < R512_FDL_##F; l++)                                            \
            spread |= (uint64_t)(l % Q < n) << l;                                                 \
        size_t r0 = 0;                                                                            \
        const int pf = n * sizeof(T) <= R512_PF_ROW &&                                            \
                       outer * n * sizeof(T) >= AXIAL_ROWS_PF_MIN;                                \
        if (NT) { /* (r512_frows_nt_*: never with acc) */                                         \
            const size_t h = (16 - (uintptr_t)dst % 16) % 16 / sizeof(T); /* to 16 bytes */      \
            if (h) {                                                                              \
                r512_fgroup_any_##S(x, h, n, Q, M, spread, buf);                                  \
                r512_emit_##S(dst, 0, buf, h, 0);                                                 \
                r0 = h;                                                                           \
            }                                                                                     \
            _Alignas(64) T tmp[16];                                                               \
            for (; r0 + 16 <= outer; r0 += 16) {                                                  \
                if (pf) axial_prefetch_ahead(x + r0 * n, 16 * n * sizeof(T));                     \
                r512_fgroup_##S(x + r0 * n, 16, n, Q, M, spread, P && (outer - r0 - 16) * n >= 16, buf); \
                r512_finish_##S(buf, tmp, 16);                                                    \
                r512_stream16((T *)dst + r0, tmp, sizeof tmp);                                    \
            }                                                                                     \
            _mm_sfence();                                                                         \
        }                                                                                         \
        for (; r0 + 16 <= outer; r0 += 16) {                                                      \
            if (pf) axial_prefetch_ahead(x + r0 * n, 16 * n * sizeof(T));                         \
            r512_fgroup_##S(x + r0 * n, 16, n, Q, M, spread, P && (outer - r0 - 16) * n >= 16, buf); \
            r512_emit_##S(dst, r0, buf, 16, acc);                                                 \
        }                                                                                         \
        if (r0 < outer) {                                                                         \
            r512_fgroup_any_##S(x + r0 * n, outer - r0, n, Q, M, spread, buf);                    \
            r512_emit_##S(dst, r0, buf, outer - r0, acc);                                         \
        }                                                                                         \
    }                                                                                             \
    AXIAL_INLINE void r512_frows_body_##S(const T *x, void *dst, size_t outer, size_t n, int acc, \
                                          int NT) {                                               \
        switch (n <= 8 ? 0 : n <= 128 ? (n + 15) / 16 : 9) {                                      \
        case 1:                                                                                  \
            if (n == 16) r512_frun_##S(x, dst, outer, 16, 0, 1, acc, 0, NT); /* no masks */       \
            else r512_frun_##S(x, dst, outer, n, 0, 1, acc, 1, NT);                               \
            return;                                                                               \
        case 2:                                                                                  \
            if (n == 32) r512_frun_##S(x, dst, outer, 32, 0, 2, acc, 0, NT); /* no masks */       \
            else r512_frun_##S(x, dst, outer, n, 0, 2, acc, 0, NT);                               \
            return;                                                                               \
        case 3:                                                                                  \
            if (n == 48) r512_frun_##S(x, dst, outer, 48, 0, 3, acc, 0, NT); /* no masks */       \
            else r512_frun_##S(x, dst, outer, n, 0, 3, acc, 0, NT);                               \
            return;                                                                               \
        case 4:                                                                                  \
            if (n == 64) r512_frun_##S(x, dst, outer, 64, 0, 4, acc, 0, NT); /* no masks */       \
            else r512_frun_##S(x, dst, outer, n, 0, 4, acc, 0, NT);                               \
            return;                                                                               \
        case 5:                                                                                  \
            if (n == 80) r512_frun_##S(x, dst, outer, 80, 0, 5, acc, 0, NT); /* no masks */       \
            else r512_frun_##S(x, dst, outer, n, 0, 5, acc, 0, NT);                               \
            return;                                                                               \
        case 6:                                                                                  \
            if (n == 96) r512_frun_##S(x, dst, outer, 96, 0, 6, acc, 0, NT); /* no masks */       \
            else r512_frun_##S(x, dst, outer, n, 0, 6, acc, 0, NT);                               \
            return;                                                                               \
        case 7:                                                                                  \
            if (n == 112) r512_frun_##S(x, dst, outer, 112, 0, 7, acc, 0, NT); /* no masks */     \
            else r512_frun_##S(x, dst, outer, n, 0, 7, acc, 0, NT);                               \
            return;                                                                               \
        case 8:                                                                                  \
            if (n == 128) r512_frun_##S(x, dst, outer, 128, 0, 8, acc, 0, NT); /* no masks */     \
            else r512_frun_##S(x, dst, outer, n, 0, 8, acc, 0, NT);                               \
            return;                                                                               \
        case 9: r512_frun_##S(x, dst, outer, n, 0, 0, acc, 0, NT); return;                        \
        default: break;                                                                           \
        }                                                                                         \
        if (n == 1) r512_frun_##S(x, dst, outer, n, 1, 0, acc, 0, NT);                            \
        else if (n == 2) r512_frun_##S(x, dst, outer, n, 2, 0, acc, 0, NT);                       \
        else if (n == 3) r512_frun_##S(x, dst, outer, n, 4, 0, acc, 1, NT);                       \
        else if (n == 4) r512_frun_##S(x, dst, outer, n, 4, 0, acc, 0, NT);                       \
        else if (n == 8) r512_frun_##S(x, dst, outer, n, 8, 0, acc, 0, NT);                       \
        else r512_frun_##S(x, dst, outer, n, 8, 0, acc, 1, NT);                                   \
    }                                                                                             \
                                                                                                  \
    static void r512_frows_##S(const T *x, void *dst, size_t outer, size_t n, int acc) {         \
        r512_frows_body_##S(x, dst, outer, n, acc, 0);                                            \
    }                                                                                             \
    /* A reduce that streams: writing at least R512_NT bytes, or a split call's task of           \
     * such an output (the caller checks outer >= 16, more than the head rows before y's          \
     * first 16-byte boundary).  Its own instance with NT a constant, so that the plain           \
     * calls' code does not carry the test (a runtime argument would slow them). */               \
    AXIAL_NOINLINE void r512_frows_nt_##S(const T *x, void *dst, size_t outer,                    \
                                                             size_t n) {                          \
        r512_frows_body_##S(x, dst, outer, n, 0, 1);                                              \
    }                                                                                             \
                                                                                                  \
    static void r512_reduce_##S(const void *xv, void *dst, size_t outer, size_t n, size_t inner,  \
                                int acc, int stream) {                                            \
        const T *x = (const T *)xv;                                                               \
        if (inner == 1 && n == 2 && !acc && sizeof(T) == sizeof(float)) { /* f32 only */        \
            r512_pairs_f32((const float *)(const void *)x, (float *)dst, outer, stream);          \
            return;                                                                               \
        }                                                                                         \
        if (inner == 1) {                                                                         \
            if (!acc && outer >= 16 && (stream || outer * sizeof(T) >= R512_NT))                  \
                r512_frows_nt_##S(x, dst, outer, n);                                              \
            else                                                                                  \
                r512_frows_##S(x, dst, outer, n, acc);                                            \
            return;                                                                               \
        }                                                                                         \
        if (inner < 16) {                                                                         \
            r512_fpers_##S(x, dst, outer, n, inner, acc);                                         \
            return;                                                                               \
        }                                                                                         \
        for (size_t o = 0; o < outer; o++) {                                                      \
            const T *xo = x + o * n * inner;                                                      \
            if (acc) {                                                                            \
                r512_fcols_##S(xo, inner, n, inner, (double *)dst + o * inner);                   \
            } else if (sizeof(T) == sizeof(double)) { /* f64: the sums in y itself */             \
                double *yo = (double *)dst + o * inner;                                           \
                for (size_t c = 0; c < inner; c++)                                                \
                    yo[c] = -0.0;                                                                 \
                r512_fcols_##S(xo, inner, n, inner, yo);                                          \
            } else {                                                                              \
                r512_fwhole_##S(xo, (T *)dst + o * inner, n, inner);                              \
            }                                                                                     \
        }                                                                                         \
    }                                                                                             \
    void axial_reduce_cols_##S##__avx512(const void *x, void *acc, size_t n, size_t ncols,        \
                                         size_t stride) {                                         \
        r512_fcols_##S((const T *)x, stride, n, ncols, (double *)acc);                            \
    }

R512_DEFINE_FLOAT(f32, float, ps)
R512_DEFINE_FLOAT(f16, uint16_t, ps)
R512_DEFINE_FLOAT(bf16, uint16_t, ps)
R512_DEFINE_FLOAT(f64, double, pd)

/* The exported kernels; signed and unsigned integers share their width's code. */
#define R512_EXPORT(name, DT, S)                                                                  \
    void axial_reduce_##name##__avx512(const void *x, void *y, size_t outer, size_t n,           \
                                       size_t inner, unsigned flags) {                            \
        r512_reduce_##S(x, y, outer, n, inner, 0, (flags & AXIAL_KERNEL_STREAM) != 0);           \
    }                                                                                             \
    void axial_reduce_acc_##name##__avx512(const void *x, void *acc, size_t outer, size_t n,     \
                                           size_t inner) {                                        \
        r512_reduce_##S(x, acc, outer, n, inner, 1, 0);                                           \
    }                                                                                             \
    void axial_reduce_finish_##name##__avx512(const void *acc, void *y, size_t count) {          \
        r512_finish_##S((const r512_w_##S *)acc, y, count);                                       \
    }
#define R512_S_f32 f32
#define R512_S_f64 f64
#define R512_S_f16 f16
#define R512_S_bf16 bf16
#define R512_S_i8 b8
#define R512_S_u8 b8
#define R512_S_i16 b16
#define R512_S_u16 b16
#define R512_S_i32 b32
#define R512_S_u32 b32
#define R512_S_i64 b64
#define R512_S_u64 b64
#define R512_EXPORT_(name, DT, S) R512_EXPORT(name, DT, S) /* expands R512_S_<name> first */
#define R512_STORAGE_OF(name, DT, arg) R512_EXPORT_(name, DT, R512_S_##name)
AXIAL_SUM_DTYPES(R512_STORAGE_OF, unused)
