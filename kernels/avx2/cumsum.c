/* SPDX-License-Identifier: MIT */
/*
 * cumsum.c: AVX2 + FMA + F16C CumSum for every summable dtype (kernels.h):
 * cumsum over (outer, n, inner) with flags EXCLUSIVE / REVERSE, and for the
 * planner's splits cumsum_seg, scan_total, cumsum_run, cumsum_cols and
 * cumsum_cols_run (cols_run.h).
 *
 * Floats follow the one summation order (docs/API.md section 7, "One
 * summation order"; tests/order_ref.c is its executable definition), so they
 * give the bits of AVX-512 and NEON.  Lines (inner == 1): the order's block
 * of 16 is two ymm of f32 (C = f32 for f32, f16, bf16) or four ymm of f64,
 * one quad per 128-bit half or per f64 register; the block network is
 * in-register shifts and adds, and the f64 carries D and S are the only
 * loop-carried chain.  REVERSE loads each block as usual and runs every shift
 * of the network the other way, so reversing costs no shuffle.  Columns
 * (inner > 1): each column a sequential f64 sum, 4 columns per vector;
 * f16/bf16 outputs are rounded from f64 through f32 rounded to odd, which
 * equals one rounding.  Integers wrap in their own width (signed and unsigned
 * share a kernel) and give the same bits in any order: long rows a vector at
 * a time, rows of n <= 15 as one flat segmented scan, columns as above.
 *
 * Tails: AVX2 has no masked moves for 8/16-bit lanes and vmaskmov stores are
 * slow on AMD CPUs, so a partial vector (a line's last block, padded with
 * -0.0; an integer row's tail; the last rows of a narrow slice) goes through
 * a stack buffer: nothing outside the tensor is read or written.  Stores are
 * always plain.  In place (y == x) is safe: every element is loaded before a
 * store touches it, and a store that covers more than its own outputs only
 * clobbers elements already loaded, whose right values are stored after it.
 */
#include <stdlib.h>
#include <string.h>

#include "avx2.h"
#include "cols_run.h"

/* Kinds of lanes (compile-time constants after inlining). */
enum { K_F64, K_F32, K_F16, K_BF16, K_I8, K_I16, K_I32, K_I64 };

AXIAL_INLINE int k_float(int k) { return k <= K_BF16; }
AXIAL_INLINE int k_esize(int k) {
    return k == K_I8 ? 1 : k == K_I16 ? 2 : k == K_I32 ? 4 : 8;
}
AXIAL_INLINE size_t k_lanes(int k) { return (size_t)(32 / k_esize(k)); }
/* bytes of one element in memory */
AXIAL_INLINE size_t k_msize(int k) {
    return k == K_F32 ? 4 : (k == K_F16 || k == K_BF16) ? 2 : (size_t)k_esize(k);
}

#define AX_PD(v) _mm256_castsi256_pd(v)
#define AX_SI(v) _mm256_castpd_si256(v)

/* The identity of addition in every lane: -0.0 for floats, 0 for integers. */
AXIAL_INLINE __m256i v_ident(int k) {
    return k_float(k) ? AX_SI(_mm256_set1_pd(-0.0)) : _mm256_setzero_si256();
}

AXIAL_INLINE __m256i v_add(int k, __m256i a, __m256i b) {
    switch (k) {
    case K_I8: return _mm256_add_epi8(a, b);
    case K_I16: return _mm256_add_epi16(a, b);
    case K_I32: return _mm256_add_epi32(a, b);
    case K_I64: return _mm256_add_epi64(a, b);
    default: return AX_SI(_mm256_add_pd(AX_PD(a), AX_PD(b)));
    }
}

AXIAL_INLINE __m256i v_set1(int k, int64_t c) {
    switch (k_esize(k)) {
    case 1: return _mm256_set1_epi8((char)c);
    case 2: return _mm256_set1_epi16((short)c);
    case 4: return _mm256_set1_epi32((int)c);
    default: return _mm256_set1_epi64x(c);
    }
}

/* Signed lane compare a > b (all-ones where true), lanes of the kind's width. */
AXIAL_INLINE __m256i v_cmpgt(int k, __m256i a, __m256i b) {
    switch (k_esize(k)) {
    case 1: return _mm256_cmpgt_epi8(a, b);
    case 2: return _mm256_cmpgt_epi16(a, b);
    case 4: return _mm256_cmpgt_epi32(a, b);
    default: return _mm256_cmpgt_epi64(a, b);
    }
}

/* ---- loads and stores: W elements <-> one vector of lanes ------------------ */

AXIAL_INLINE __m256i v_load(int k, const void *p) {
    switch (k) {
    case K_F64: return AX_SI(_mm256_loadu_pd((const double *)p));
    case K_F32: return AX_SI(_mm256_cvtps_pd(_mm_loadu_ps((const float *)p)));
    case K_F16:
        return AX_SI(_mm256_cvtps_pd(_mm_cvtph_ps(_mm_loadl_epi64((const __m128i *)p))));
    case K_BF16: {
        const __m128i h = _mm_cvtepu16_epi32(_mm_loadl_epi64((const __m128i *)p));
        return AX_SI(_mm256_cvtps_pd(_mm_castsi128_ps(_mm_slli_epi32(h, 16))));
    }
    default: return _mm256_loadu_si256((const __m256i *)p);
    }
}

/* f64 -> f32 rounded to odd: RNE, stepped one ulp toward zero where that went
 * away from zero, and the lsb set where inexact.  Then one more RNE rounding
 * to a format with >= 2 fewer significand bits equals a single RNE rounding
 * of the f64 value.  NaN stays NaN; beyond FLT_MAX it gives FLT_MAX | odd,
 * which the narrower format rounds to infinity as it should. */
AXIAL_INLINE __m128 f64_to_f32_odd(__m256d v) {
    const __m128 r = _mm256_cvtpd_ps(v);
    const __m256d b = _mm256_cvtps_pd(r);
    const __m256d abs = _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_MAX));
    const __m256i away = AX_SI(_mm256_cmp_pd(_mm256_and_pd(b, abs), _mm256_and_pd(v, abs),
                                             _CMP_GT_OQ));
    const __m256i inexact = AX_SI(_mm256_cmp_pd(b, v, _CMP_NEQ_UQ));
    const __m256i lo = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    const __m128i away32 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(away, lo));
    const __m128i odd32 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(inexact, lo));
    __m128i u = _mm_add_epi32(_mm_castps_si128(r), away32); /* -1 where away */
    u = _mm_or_si128(u, _mm_and_si128(odd32, _mm_set1_epi32(1)));
    return _mm_castsi128_ps(u);
}

AXIAL_INLINE void v_store(int k, void *p, __m256i v) {
    switch (k) {
    case K_F64: _mm256_storeu_pd((double *)p, AX_PD(v)); break;
    case K_F32: _mm_storeu_ps((float *)p, _mm256_cvtpd_ps(AX_PD(v))); break;
    case K_F16:
        _mm_storel_epi64((__m128i *)p,
                         _mm_cvtps_ph(f64_to_f32_odd(AX_PD(v)),
                                      _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        break;
    case K_BF16: {
        const __m256 f = _mm256_set_m128(_mm_setzero_ps(), f64_to_f32_odd(AX_PD(v)));
        _mm_storel_epi64((__m128i *)p, axial_avx2_f32_to_bf16(f));
        break;
    }
    default: _mm256_storeu_si256((__m256i *)p, v); break;
    }
}

/* A partial vector through a stack buffer: elements p[0..cnt) <-> lanes
 * off..off+cnt-1 (other lanes are 0 and their results dropped). */
AXIAL_INLINE __m256i v_load_part(int k, const void *p, size_t cnt, size_t off) {
    _Alignas(32) unsigned char buf[32] = {0};
    memcpy(buf + off * k_msize(k), p, cnt * k_msize(k));
    return v_load(k, buf);
}
AXIAL_INLINE void v_store_part(int k, void *p, __m256i v, size_t cnt, size_t off) {
    _Alignas(32) unsigned char buf[32];
    v_store(k, buf, v);
    memcpy(p, buf + off * k_msize(k), cnt * k_msize(k));
}

/* ---- lane shuffles ---------------------------------------------------------
 * "Forward" moves lanes up (toward higher indices), "reverse" down.  Lanes
 * that come from nowhere get the identity (or a given uniform fill). */

/* vpshufb indices: broadcast the last (forward) / first (reverse) element of
 * each 128-bit half, for elements of e bytes. */
AXIAL_INLINE __m256i idx_end(int e, int rev) {
    static const _Alignas(32) unsigned char t[2][4][32] = {
        {{15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
          15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15},
         {14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15,
          14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15},
         {12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15,
          12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15},
         {8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15,
          8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15}},
        {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
         {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1,
          0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1},
         {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3,
          0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3},
         {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7,
          0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7}}};
    const int li = e == 1 ? 0 : e == 2 ? 1 : e == 4 ? 2 : 3;
    return _mm256_load_si256((const __m256i *)(const void *)t[rev][li]);
}

/* Shift each 128-bit half by b bytes (b < 16), the identity shifted in. */
AXIAL_INLINE __m256i v_shift_inlane(int k, __m256i v, int b, int rev) {
    switch (b) {
    case 1: return rev ? _mm256_srli_si256(v, 1) : _mm256_slli_si256(v, 1);
    case 2: return rev ? _mm256_srli_si256(v, 2) : _mm256_slli_si256(v, 2);
    case 4: return rev ? _mm256_srli_si256(v, 4) : _mm256_slli_si256(v, 4);
    default: { /* 64-bit lanes: vshufpd picks the identity (-0.0 for floats) in */
        const __m256d id = AX_PD(v_ident(k));
        return AX_SI(rev ? _mm256_shuffle_pd(AX_PD(v), id, 0x5) : _mm256_shuffle_pd(id, AX_PD(v), 0x0));
    }
    }
}

/* Shift the whole vector by b bytes (b in 1, 2, 4, 8, 16), lanes of the
 * uniform vector f shifted in. */
AXIAL_INLINE __m256i v_shift(__m256i v, __m256i f, int b, int rev) {
    if (!rev) {
        const __m256i t = _mm256_permute2x128_si256(v, f, 0x02); /* [f.lo | v.lo] */
        switch (b) {
        case 1: return _mm256_alignr_epi8(v, t, 15);
        case 2: return _mm256_alignr_epi8(v, t, 14);
        case 4: return _mm256_alignr_epi8(v, t, 12);
        case 8: return _mm256_alignr_epi8(v, t, 8);
        default: return t;
        }
    }
    const __m256i t = _mm256_permute2x128_si256(v, f, 0x31); /* [v.hi | f.hi] */
    switch (b) {
    case 1: return _mm256_alignr_epi8(t, v, 1);
    case 2: return _mm256_alignr_epi8(t, v, 2);
    case 4: return _mm256_alignr_epi8(t, v, 4);
    case 8: return _mm256_alignr_epi8(t, v, 8);
    default: return t;
    }
}

/* The last lane (forward) / first lane (reverse) in every lane. */
AXIAL_INLINE __m256i v_bcast_end(int k, __m256i s, int rev) {
    const int e = k_esize(k);
    if (e == 8)
        return rev ? _mm256_permute4x64_epi64(s, 0x00) : _mm256_permute4x64_epi64(s, 0xFF);
    const __m256i d = _mm256_permutevar8x32_epi32(s, _mm256_set1_epi32(rev ? 0 : 7));
    return e == 4 ? d : _mm256_shuffle_epi8(d, idx_end(e, rev));
}

/* Inclusive scan of one vector (forward: lane l gets lanes 0..l; reverse:
 * lanes l..W-1): log2(16/e) in-lane steps, then one step across the halves. */
AXIAL_INLINE __m256i v_scan(int k, __m256i v, int rev) {
    const int e = k_esize(k);
    for (int b = e; b < 16; b *= 2)
        v = v_add(k, v, v_shift_inlane(k, v, b, rev));
    if (e == 8) { /* one vpermq: the half's end lane to the other half, blend the identity */
        const __m256i t = rev ? _mm256_blend_epi32(_mm256_permute4x64_epi64(v, 0xAA), v_ident(k), 0xF0)
                              : _mm256_blend_epi32(_mm256_permute4x64_epi64(v, 0x55), v_ident(k), 0x0F);
        return v_add(k, v, t);
    }
    __m256i t = rev ? _mm256_permute2x128_si256(v, v_ident(k), 0x31)  /* [v.hi | id] */
                    : _mm256_permute2x128_si256(v, v_ident(k), 0x02); /* [id | v.lo] */
    return v_add(k, v, _mm256_shuffle_epi8(t, idx_end(e, rev)));
}

/* ---- integer rows (inner == 1, n >= 16), a vector at a time ------------- */

/* Output of a scanned vector s given the carry of everything before it;
 * exclusive: s moves one lane on, `fill` (the sum just before s's first lane,
 * apart from the carry) comes in. */
AXIAL_INLINE __m256i row_out(int k, __m256i s, __m256i carry, __m256i fill, int excl, int rev) {
    if (excl)
        s = v_shift(s, fill, k_esize(k), rev);
    return v_add(k, carry, s);
}

AXIAL_INLINE void scan_row(int k, const char *x, char *y, size_t n, int excl, int rev) {
    const size_t W = k_lanes(k), ms = k_msize(k);
    __m256i carry = v_ident(k);
    size_t j = 0;
    for (; j + 2 * W <= n; j += 2 * W) {
        const size_t p0 = rev ? n - j - W : j, p1 = rev ? n - j - 2 * W : j + W;
        const __m256i s0 = v_scan(k, v_load(k, x + p0 * ms), rev);
        /* s1 continues s0's scan; the carry waits for nothing but itself */
        const __m256i t0 = v_bcast_end(k, s0, rev);
        const __m256i s1 = v_add(k, v_scan(k, v_load(k, x + p1 * ms), rev), t0);
        v_store(k, y + p0 * ms, row_out(k, s0, carry, v_ident(k), excl, rev));
        v_store(k, y + p1 * ms, row_out(k, s1, carry, t0, excl, rev));
        carry = v_add(k, carry, v_bcast_end(k, s1, rev));
    }
    if (j + W <= n) {
        const size_t p = rev ? n - j - W : j;
        const __m256i s = v_scan(k, v_load(k, x + p * ms), rev);
        v_store(k, y + p * ms, row_out(k, s, carry, v_ident(k), excl, rev));
        carry = v_add(k, carry, v_bcast_end(k, s, rev));
        j += W;
    }
    if (j < n) {
        const size_t r = n - j, p = rev ? 0 : j, off = rev ? W - r : 0;
        const __m256i s = v_scan(k, v_load_part(k, x + p * ms, r, off), rev);
        v_store_part(k, y + p * ms, row_out(k, s, carry, v_ident(k), excl, rev), r, off);
    }
    if (excl) /* the empty sum: +0 (all-zero bits in every dtype) */
        memset(y + (rev ? n - 1 : 0) * ms, 0, ms);
}

/* ---- integer short rows (inner == 1, n <= 15), flat segmented scan --------- */

/* One vector of the flat run.  R: each lane's index within its row (in scan
 * order), L: each lane's index within the vector (in scan order), *carry:
 * the inclusive sum at the last lane of the previous vector. */
AXIAL_INLINE __m256i seg_vec(int k, __m256i v, __m256i R, __m256i L, __m256i *carry, size_t n,
                             int cross, int excl, int rev) {
    const size_t W = k_lanes(k);
    const int e = k_esize(k);
    const __m256i id = v_ident(k);
    __m256i s = v;
    /* Hillis-Steele within the vector, each step confined to the row (d is a
     * constant in each step so that the shifts get their immediates) */
#define AX_SEG_STEP(d)                                                                      \
    if (n > (d) && W > (d))                                                                 \
        s = v_add(k, s, _mm256_blendv_epi8(id, v_shift(s, id, (d) * e, rev),               \
                                           v_cmpgt(k, R, v_set1(k, (d) - 1))));
    AX_SEG_STEP(1) AX_SEG_STEP(2) AX_SEG_STEP(4) AX_SEG_STEP(8)
#undef AX_SEG_STEP
    const __m256i before = *carry;
    if (cross) {
        const __m256i cm = v_cmpgt(k, R, L); /* the lane's row began in an earlier vector */
        const __m256i ce = v_bcast_end(k, cm, rev);
        /* the next carry without waiting for this vector's full result */
        *carry = v_add(k, v_bcast_end(k, s, rev), _mm256_blendv_epi8(id, before, ce));
        s = v_add(k, s, _mm256_blendv_epi8(id, before, cm));
    }
    if (excl) /* one lane back within the row; a row's first output is +0 */
        s = _mm256_and_si256(v_shift(s, before, e, rev), v_cmpgt(k, R, _mm256_setzero_si256()));
    return s;
}

/* Flat run of `total` elements in rows of n <= 15.  The row indices of a
 * vector repeat with period P = n / gcd(n, W) vectors: they come from a table
 * of P vectors (a computed update would be a loop-carried chain). */
AXIAL_INLINE void scan_seg(int k, const char *x, char *y, size_t total, size_t n, int excl,
                           int rev) {
    const size_t W = k_lanes(k), ms = k_msize(k), e = (size_t)k_esize(k);
    size_t P = 1; /* the smallest P with n | P W: P <= n <= 15 */
    while ((P * W) % n != 0)
        P++;
    const int cross = W % n != 0;
    _Alignas(32) unsigned char rb[16][32], lb[32];
    for (size_t l = 0; l < W; l++) {
        const uint64_t ls = rev ? W - 1 - l : l;
        memcpy(lb + l * e, &ls, e); /* little-endian: the low bytes */
        for (size_t q = 0; q < P; q++) {
            const uint64_t rs = (q * W + ls) % n;
            memcpy(rb[q] + l * e, &rs, e);
        }
    }
    const __m256i L = _mm256_load_si256((const __m256i *)(const void *)lb);
    __m256i carry = v_ident(k);
    size_t j = 0, ph = 0;
    if (P == 1) { /* the masks are loop invariants */
        const __m256i R = _mm256_load_si256((const __m256i *)(const void *)rb[0]);
        for (; j + W <= total; j += W) {
            const size_t p = rev ? total - j - W : j;
            v_store(k, y + p * ms, seg_vec(k, v_load(k, x + p * ms), R, L, &carry, n, cross, excl, rev));
        }
    } else {
        for (; j + W <= total; j += W) {
            const size_t p = rev ? total - j - W : j;
            const __m256i R = _mm256_load_si256((const __m256i *)(const void *)rb[ph]);
            v_store(k, y + p * ms, seg_vec(k, v_load(k, x + p * ms), R, L, &carry, n, cross, excl, rev));
            ph = ph + 1 == P ? 0 : ph + 1;
        }
    }
    if (j < total) {
        const size_t r = total - j, p = rev ? 0 : j, off = rev ? W - r : 0;
        const __m256i R = _mm256_load_si256((const __m256i *)(const void *)rb[ph]);
        const __m256i v = v_load_part(k, x + p * ms, r, off);
        v_store_part(k, y + p * ms, seg_vec(k, v, R, L, &carry, n, cross, excl, rev), r, off);
    }
}

/* ---- columns (inner > 1), floats in f64 lanes and integers ---------------- */

#define AX_TILE 64 /* vectors of column accumulators in the L1 tile */

/* One column vector of one row: acc += x; y = inclusive or exclusive value. */
AXIAL_INLINE __m256i col_step(int k, __m256i *acc, __m256i v, int excl, int first) {
    const __m256i a = *acc;
    *acc = v_add(k, a, v);
    return excl ? (first ? _mm256_setzero_si256() : a) : *acc;
}

/* Columns [0, cols) of rows of `inner` elements, W <= cols < (AX_TILE + 1) W:
 * nv full vectors and, when W does not divide cols, one more vector ending
 * at column cols (overlapping the last full one; it is loaded before the
 * row's stores, and writes the overlapped columns again with the same bits,
 * as its accumulator lanes add the same terms in the same order).  Narrow
 * tiles (cols <= 4 W) keep the accumulators in registers. */
AXIAL_INLINE void cols_tile(int k, const char *x, char *y, size_t n, size_t inner, size_t cols,
                            int excl, int rev, __m256i *tile) {
    const size_t W = k_lanes(k), ms = k_msize(k), nv = cols / W, ov = (cols - W) * ms;
    const int rem = cols % W != 0, narrow = cols <= 4 * W;
    __m256i reg[4];
    __m256i *acc = narrow ? reg : tile;
    for (size_t q = 0; q < (narrow ? 4 : nv + 1); q++)
        acc[q] = v_ident(k);
    size_t t = 0;
    /* Wide tiles: four rows per pass over the accumulators (each column
     * still adds its rows in order), so the tile (L1) or the heap row (L2)
     * is read and written once per four rows, not once per row.  The
     * overlapping last vectors of the four rows are loaded first. */
    for (; !narrow && t + 4 <= n; t += 4) {
        const char *xr[4];
        char *yr[4];
        __m256i vo[4];
        for (size_t r = 0; r < 4; r++) {
            const size_t j = rev ? n - 1 - (t + r) : t + r;
            xr[r] = x + j * inner * ms;
            yr[r] = y + j * inner * ms;
            vo[r] = rem ? v_load(k, xr[r] + ov) : _mm256_setzero_si256();
        }
        for (size_t q = 0; q < nv + rem; q++) {
            const size_t off = q < nv ? q * W * ms : ov;
            __m256i a = tile[q];
            for (size_t r = 0; r < 4; r++) {
                const __m256i v = q < nv ? v_load(k, xr[r] + off) : vo[r];
                v_store(k, yr[r] + off, col_step(k, &a, v, excl, t + r == 0));
            }
            tile[q] = a;
        }
    }
    for (; t < n; t++) {
        const size_t j = rev ? n - 1 - t : t;
        const char *xr = x + j * inner * ms;
        char *yr = y + j * inner * ms;
        const __m256i vo = rem ? v_load(k, xr + ov) : _mm256_setzero_si256();
        if (narrow) { /* constant indices: the accumulators stay in registers */
            for (size_t q = 0; q < 4; q++)
                if (q < nv)
                    v_store(k, yr + q * W * ms,
                            col_step(k, &reg[q], v_load(k, xr + q * W * ms), excl, t == 0));
        } else {
            for (size_t q = 0; q < nv; q++)
                v_store(k, yr + q * W * ms,
                        col_step(k, &tile[q], v_load(k, xr + q * W * ms), excl, t == 0));
        }
        if (rem)
            v_store(k, yr + ov, col_step(k, &acc[nv], vo, excl, t == 0));
    }
}

/* inner < W: one vector per row, loaded at the row's start (forward; lanes
 * 0..inner-1 are the row) or ending at the row's end (reverse; the top inner
 * lanes), so it also covers up to D = ceil(W / inner) - 1 rows that come
 * later in scan order; their lanes are dropped, but the full-width store of a
 * row overwrites them with junk.  So rows are loaded D rows ahead of the
 * stores (a ring of loaded vectors), which keeps in-place scans right: a
 * clobbered row was read already and is stored again, correctly, later.  The
 * last D rows in scan order (whose vector would leave the slice) go through
 * the buffer. */
AXIAL_INLINE __m256i small_row(int k, const char *x, size_t n, size_t inner, size_t t,
                               size_t full, int rev) {
    const size_t ms = k_msize(k), off = rev ? k_lanes(k) - inner : 0; /* row's first lane */
    const char *xr = x + (rev ? n - 1 - t : t) * inner * ms;
    return t < full ? v_load(k, xr - off * ms) : v_load_part(k, xr, inner, off);
}

AXIAL_INLINE void cols_small(int k, const char *x, char *y, size_t n, size_t inner, int excl,
                             int rev) {
    const size_t W = k_lanes(k), ms = k_msize(k), D = (W + inner - 1) / inner - 1;
    const size_t full = n > D ? n - D : 0; /* rows (in scan order) stored whole */
    const size_t off = rev ? W - inner : 0;  /* the row's first lane */
    __m256i ring[16];                        /* D <= 15 (W <= 32, inner >= 2) */
    __m256i acc = v_ident(k);
    for (size_t t = 0; t < D && t < n; t++)
        ring[t % 16] = small_row(k, x, n, inner, t, full, rev);
    for (size_t t = 0; t < n; t++) {
        if (t + D < n)
            ring[(t + D) % 16] = small_row(k, x, n, inner, t + D, full, rev);
        char *yr = y + (rev ? n - 1 - t : t) * inner * ms;
        const __m256i o = col_step(k, &acc, ring[t % 16], excl, t == 0);
        if (t < full)
            v_store(k, yr - off * ms, o);
        else
            v_store_part(k, yr, o, inner, off);
    }
}

/* Columns in tiles of AX_TILE vectors (the last tile keeps >= W columns).
 * Wide rows that need several tiles walk all rows once per tile, which
 * strides through memory; so when the rows are long, the accumulators of a
 * whole row are taken from the heap (at most 8 bytes per column, meant to
 * stay in L2) and x and y stream strictly in order.  Without memory for
 * them, the stack tiles do the same work.  Columns [0, ncols) of
 * rows `stride` elements apart; fewer than W columns of wider rows (a split
 * tile) go through the stack buffer, a vector per row, so that nothing
 * outside the tile is read or written. */
AXIAL_INLINE void scan_cols(int k, const char *x, char *y, size_t n, size_t ncols, size_t stride,
                            int excl, int rev) {
    const size_t W = k_lanes(k), ms = k_msize(k);
    if (ncols < W && ncols == stride) {
        cols_small(k, x, y, n, ncols, excl, rev);
        return;
    }
    if (ncols < W) {
        __m256i acc = v_ident(k);
        for (size_t t = 0; t < n; t++) {
            const size_t j = rev ? n - 1 - t : t;
            const __m256i v = v_load_part(k, x + j * stride * ms, ncols, 0);
            v_store_part(k, y + j * stride * ms, col_step(k, &acc, v, excl, t == 0), ncols, 0);
        }
        return;
    }
    __m256i stack[AX_TILE + 1], *acc = stack, *heap = NULL;
    size_t tile = AX_TILE * W;
    if (ncols >= tile + W && n >= 8) {
        heap = aligned_alloc(32, (ncols / W + 1) * sizeof(__m256i));
        if (heap) {
            acc = heap;
            tile = ncols;
        }
    }
    for (size_t i0 = 0, cols; i0 < ncols; i0 += cols) {
        cols = ncols - i0 >= tile + W ? tile : ncols - i0;
        cols_tile(k, x + i0 * ms, y + i0 * ms, n, stride, cols, excl, rev, acc);
    }
    free(heap);
}

/* ---- float lines (inner == 1): the one order -------------------------------
 * A 16-element block of k-space (the line in scan order) is two ymm of f32
 * for f32/f16/bf16 (C = f32) and four ymm of f64 for f64 (C = f64); each
 * 128-bit half (f32) or each register (f64) is one quad.  Forward, register
 * A holds k = 0..7 in lanes 0..7 and B k = 8..15; reverse, the block is
 * loaded from its lowest address as usual, so the lanes hold k in falling
 * order (A = memory [8, 16): its low half is quad 1, its high half quad 0)
 * and every shift of the network runs the other way.  No shuffle is spent
 * on reversing. */

#define AX_NEGZ _mm256_set1_ps(-0.0f)
#define AX_NEGZD _mm256_set1_pd(-0.0)
#define AX_PS(v) _mm256_castsi256_ps(v)
#define AX_SIS(v) _mm256_castps_si256(v)

/* 8 elements of T <-> 8 f32 lanes (widening exact, narrowing RNE once). */
AXIAL_INLINE __m256 f_load(int k, const void *p) {
    switch (k) {
    case K_F16: return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p));
    case K_BF16: return axial_avx2_widen_bf16(_mm_loadu_si128((const __m128i *)p));
    default: return _mm256_loadu_ps((const float *)p);
    }
}
AXIAL_INLINE void f_store(int k, void *p, __m256 v) {
    switch (k) {
    case K_F16: _mm_storeu_si128((__m128i *)p, axial_avx2_f32_to_f16(v)); break;
    case K_BF16: _mm_storeu_si128((__m128i *)p, axial_avx2_f32_to_bf16(v)); break;
    default: _mm256_storeu_ps((float *)p, v); break;
    }
}

/* 16 f32 -> 16 bf16 in one store (lo then hi in memory): the rounding of
 * axial_avx2_f32_to_bf16 (to nearest even, NaN kept NaN), with one pack and
 * one vpermq for both halves instead of one each. */
AXIAL_INLINE __m256i bf16_round_bits(__m256 v) {
    const __m256i u = _mm256_castps_si256(v);
    const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    const __m256i r = _mm256_add_epi32(u, _mm256_add_epi32(lsb, _mm256_set1_epi32(0x7fff)));
    const __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
    return _mm256_srli_epi32(
        _mm256_blendv_epi8(r, _mm256_or_si256(u, _mm256_set1_epi32(0x400000)), nan), 16);
}
AXIAL_INLINE void bf16_store16(void *p, __m256 lo, __m256 hi) {
    const __m256i w = _mm256_packus_epi32(bf16_round_bits(lo), bf16_round_bits(hi));
    _mm256_storeu_si256((__m256i *)p, _mm256_permute4x64_epi64(w, 0xD8));
}

/* In each quad, every lane takes the value one (b = 4) or two (b = 8) lanes
 * earlier in k order; -0.0 comes in. */
AXIAL_INLINE __m256 q_shift(__m256 v, int b, int rev) {
    const __m256i z = AX_SIS(AX_NEGZ), u = AX_SIS(v);
    if (rev)
        return AX_PS(b == 4 ? _mm256_alignr_epi8(z, u, 4) : _mm256_alignr_epi8(z, u, 8));
    return AX_PS(b == 4 ? _mm256_alignr_epi8(u, z, 12) : _mm256_alignr_epi8(u, z, 8));
}

/* The 16 lanes (A, B) moved one lane on in k order, `prev`'s last k lane
 * (a uniform -0.0 for A) coming into the first: e_i = p_{i-1}. */
AXIAL_INLINE __m256 x_shift(__m256 v, __m256 prev, int rev) {
    const __m256i u = AX_SIS(v);
    if (rev)
        return AX_PS(_mm256_alignr_epi8(AX_SIS(_mm256_permute2f128_ps(v, prev, 0x21)), u, 4));
    return AX_PS(_mm256_alignr_epi8(u, AX_SIS(_mm256_permute2f128_ps(v, prev, 0x03)), 12));
}

/* The quad scans of one block's halves A, B (s_i = a_i + a_{i-2}, a_i =
 * v_i + v_{i-1}), and each quad's total in every lane of its quad (bA, bB). */
AXIAL_INLINE void quad_scans(__m256 *sA, __m256 *sB, __m256 *bA, __m256 *bB, int rev) {
    *sA = _mm256_add_ps(*sA, q_shift(*sA, 4, rev));
    *sB = _mm256_add_ps(*sB, q_shift(*sB, 4, rev));
    *sA = _mm256_add_ps(*sA, q_shift(*sA, 8, rev));
    *sB = _mm256_add_ps(*sB, q_shift(*sB, 8, rev));
    *bA = rev ? _mm256_shuffle_ps(*sA, *sA, 0x00) : _mm256_shuffle_ps(*sA, *sA, 0xFF);
    *bB = rev ? _mm256_shuffle_ps(*sB, *sB, 0x00) : _mm256_shuffle_ps(*sB, *sB, 0xFF);
}

/* The block prefix p (A, B) of one block. */
AXIAL_INLINE void f_block(__m256 *A, __m256 *B, int rev) {
    /* quads; their totals: forward bA = [T0|T1], bB = [T2|T3] */
    __m256 sA = *A, sB = *B, bA, bB;
    quad_scans(&sA, &sB, &bA, &bB, rev);
    /* EA = [E0|E1] = [-0|T0]; u = [T1|T2]; EB = (u + [T0|T1]) + EA = [T1+T0 | (T2+T1)+T0] */
    const __m256 EA = rev ? _mm256_permute2f128_ps(bA, AX_NEGZ, 0x21)
                          : _mm256_permute2f128_ps(bA, AX_NEGZ, 0x02);
    const __m256 u = rev ? _mm256_permute2f128_ps(bB, bA, 0x21) : _mm256_permute2f128_ps(bA, bB, 0x21);
    const __m256 EB = _mm256_add_ps(_mm256_add_ps(u, bA), EA);
    *A = _mm256_add_ps(sA, EA);
    *B = _mm256_add_ps(sB, EB);
}

/* t = p_15 as f64: reverse, lane 0 of B (free); forward, lane 7, read back
 * from a stack copy of B (a store and a load instead of two shuffle-port
 * uops; the value feeds only the f64 chains, which run behind). */
AXIAL_INLINE double f_total(__m256 B, int rev) {
    if (rev)
        return (double)_mm256_cvtss_f32(B);
    _Alignas(32) float buf[8];
    _mm256_store_ps(buf, B);
    double td;
    __asm__("vcvtss2sd %1, %0, %0" : "=x"(td) : "m"(buf[7]));
    return td;
}

/* One block at `xb` (its lowest address) -> outputs at yb, from the carry
 * rounded to C; returns t.  In place: both halves are loaded first. */
AXIAL_INLINE double f_block_io(int k, const char *xb, char *yb, float dc, int excl, int rev) {
    const size_t h = 8 * k_msize(k);
    __m256 A = f_load(k, xb + (rev ? h : 0)), B = f_load(k, xb + (rev ? 0 : h));
    f_block(&A, &B, rev);
    const double t = f_total(B, rev);
    if (excl) {
        B = x_shift(B, A, rev);
        A = x_shift(A, AX_NEGZ, rev);
    }
    /* broadcast from memory: a load, where vbroadcastss from a register
     * would take a shuffle-port slot (the network's bottleneck) */
    __m256 d;
    __asm__("vbroadcastss %1, %0" : "=x"(d) : "m"(dc));
    A = _mm256_add_ps(d, A);
    B = _mm256_add_ps(d, B);
    if (k == K_BF16) {
        bf16_store16(yb, rev ? B : A, rev ? A : B);
    } else {
        f_store(k, yb + (rev ? h : 0), A);
        f_store(k, yb + (rev ? 0 : h), B);
    }
    return t;
}

/* bf16 lines: the 16 halves of a block in one load, widened by two in-lane
 * unpacks with zero (no lane-crossing vpmovzxwd), which leaves the quads
 * interleaved: forward A' = [q0|q2], B' = [q1|q3] (reverse: [q2|q0],
 * [q3|q1], each quad in falling k order).  The same network on this layout:
 * Z0 = [-0|T0], Z1 = [-0|T1] (the low quads' totals moved up), EA' =
 * Z1 + Z0 = [E0|E2], EB' = (bA' + Z1) + Z0 = [E1|E3]; p_15 stays in lane 7
 * of B' (forward) or lane 0 (reverse); and the rounded outputs pack back
 * into memory order with one in-lane vpackusdw. */
AXIAL_INLINE void bf_load(const char *xb, __m256 *A, __m256 *B, int rev) {
    const __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)xb);
    const __m256i z = _mm256_setzero_si256();
    const __m256 lo = AX_PS(_mm256_unpacklo_epi16(z, v)), hi = AX_PS(_mm256_unpackhi_epi16(z, v));
    *A = rev ? hi : lo;
    *B = rev ? lo : hi;
}

AXIAL_INLINE void bf_block(__m256 *A, __m256 *B, int rev) {
    __m256 sA = *A, sB = *B, bA, bB;
    quad_scans(&sA, &sB, &bA, &bB, rev);
    const __m256 Z0 = rev ? _mm256_permute2f128_ps(bA, AX_NEGZ, 0x21)
                          : _mm256_permute2f128_ps(bA, AX_NEGZ, 0x02);
    const __m256 Z1 = rev ? _mm256_permute2f128_ps(bB, AX_NEGZ, 0x21)
                          : _mm256_permute2f128_ps(bB, AX_NEGZ, 0x02);
    *A = _mm256_add_ps(sA, _mm256_add_ps(Z1, Z0));
    *B = _mm256_add_ps(sB, _mm256_add_ps(_mm256_add_ps(bA, Z1), Z0));
}

AXIAL_INLINE double bf_block_io(const char *xb, char *yb, float dc, int excl, int rev) {
    __m256 A, B;
    bf_load(xb, &A, &B, rev);
    bf_block(&A, &B, rev);
    const double t = f_total(B, rev);
    if (excl) { /* e_i = p_{i-1}: B' takes A''s quads' last lanes, A' B''s low quad's */
        const __m256 F = rev ? _mm256_permute2f128_ps(B, AX_NEGZ, 0x21)
                             : _mm256_permute2f128_ps(B, AX_NEGZ, 0x02);
        const __m256i a = AX_SIS(A), b = AX_SIS(B), f = AX_SIS(F);
        B = AX_PS(rev ? _mm256_alignr_epi8(a, b, 4) : _mm256_alignr_epi8(b, a, 12));
        A = AX_PS(rev ? _mm256_alignr_epi8(f, a, 4) : _mm256_alignr_epi8(a, f, 12));
    }
    __m256 d;
    __asm__("vbroadcastss %1, %0" : "=x"(d) : "m"(dc));
    A = _mm256_add_ps(d, A);
    B = _mm256_add_ps(d, B);
    __m256i ra, rb;
    const __m256 nan = _mm256_cmp_ps(A, B, _CMP_UNORD_Q);
    if (_mm256_testz_ps(nan, nan)) { /* no NaN: the rounding alone */
        const __m256i ua = AX_SIS(A), ub = AX_SIS(B), one = _mm256_set1_epi32(1),
                      bias = _mm256_set1_epi32(0x7fff);
        ra = _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(ua, bias),
                                                _mm256_and_si256(_mm256_srli_epi32(ua, 16), one)), 16);
        rb = _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(ub, bias),
                                                _mm256_and_si256(_mm256_srli_epi32(ub, 16), one)), 16);
    } else {
        ra = bf16_round_bits(A);
        rb = bf16_round_bits(B);
    }
    _mm256_storeu_si256((__m256i *)(void *)yb,
                        rev ? _mm256_packus_epi32(rb, ra) : _mm256_packus_epi32(ra, rb));
    return t;
}

AXIAL_INLINE double bf_block_t(const char *xb, int rev) {
    __m256 A, B;
    bf_load(xb, &A, &B, rev);
    bf_block(&A, &B, rev);
    return f_total(B, rev);
}

AXIAL_INLINE double f_block_t(int k, const char *xb, int rev) {
    const size_t h = 8 * k_msize(k);
    __m256 A = f_load(k, xb + (rev ? h : 0)), B = f_load(k, xb + (rev ? 0 : h));
    f_block(&A, &B, rev);
    return f_total(B, rev);
}

/* ---- the same network in f64: one quad per register ---- */

AXIAL_INLINE __m256d d_shift1(__m256d v, __m256d fill, int rev) {
    /* one lane on in k order; fill's k-last lane comes in */
    const __m256i u = AX_SI(v);
    if (rev)
        return AX_PD(_mm256_alignr_epi8(AX_SI(_mm256_permute2f128_pd(v, fill, 0x21)), u, 8));
    return AX_PD(_mm256_alignr_epi8(u, AX_SI(_mm256_permute2f128_pd(v, fill, 0x03)), 8));
}

/* a_i = v_i + v_{i-1}, s_i = a_i + a_{i-2} in one quad (one register);
 * the one-lane move is a vpermpd and a blend of -0.0 (a blend runs on any
 * vector port, a second shuffle would not). */
AXIAL_INLINE __m256d d_qscan(__m256d v, int rev) {
    const __m256d a = _mm256_add_pd(
        v, rev ? _mm256_blend_pd(_mm256_permute4x64_pd(v, 0xF9), AX_NEGZD, 0x8)
               : _mm256_blend_pd(_mm256_permute4x64_pd(v, 0x90), AX_NEGZD, 0x1));
    return _mm256_add_pd(a, rev ? _mm256_permute2f128_pd(a, AX_NEGZD, 0x21)
                                : _mm256_permute2f128_pd(a, AX_NEGZD, 0x02));
}

AXIAL_INLINE __m256d d_bcast_end(__m256d s, int rev) {
    return rev ? _mm256_permute4x64_pd(s, 0x00) : _mm256_permute4x64_pd(s, 0xFF);
}

/* Quads q[0..3] (k order) -> the block prefix p in q. */
AXIAL_INLINE void d_block(__m256d q[4], int rev) {
    for (int i = 0; i < 4; i++)
        q[i] = d_qscan(q[i], rev);
    const __m256d T0 = d_bcast_end(q[0], rev), T1 = d_bcast_end(q[1], rev),
                  T2 = d_bcast_end(q[2], rev);
    const __m256d E2 = _mm256_add_pd(T1, T0);
    const __m256d E3 = _mm256_add_pd(_mm256_add_pd(T2, T1), T0);
    q[1] = _mm256_add_pd(q[1], T0);
    q[2] = _mm256_add_pd(q[2], E2);
    q[3] = _mm256_add_pd(q[3], E3);
}

/* t = p_15: reverse lane 0 of q[3]; forward lane 3, read back from a stack
 * copy (as f_total). */
AXIAL_INLINE double d_total(__m256d q3, int rev) {
    if (rev)
        return _mm256_cvtsd_f64(q3);
    _Alignas(32) double buf[4];
    _mm256_store_pd(buf, q3);
    double td;
    __asm__("vmovsd %1, %0" : "=x"(td) : "m"(buf[3]));
    return td;
}

AXIAL_INLINE void d_load4(const char *xb, __m256d q[4], int rev) {
    const double *p = (const double *)(const void *)xb;
    for (int i = 0; i < 4; i++)
        q[i] = _mm256_loadu_pd(p + (rev ? 12 - 4 * i : 4 * i));
}

AXIAL_INLINE double d_block_io(const char *xb, char *yb, double D, int excl, int rev) {
    __m256d q[4];
    d_load4(xb, q, rev);
    d_block(q, rev);
    const double t = d_total(q[3], rev);
    if (excl) {
        for (int i = 3; i > 0; i--)
            q[i] = d_shift1(q[i], q[i - 1], rev);
        q[0] = d_shift1(q[0], AX_NEGZD, rev);
    }
    __m256d d; /* broadcast from memory: a load, not a shuffle */
    __asm__("vbroadcastsd %1, %0" : "=x"(d) : "m"(D));
    double *o = (double *)(void *)yb;
    for (int i = 0; i < 4; i++)
        _mm256_storeu_pd(o + (rev ? 12 - 4 * i : 4 * i), _mm256_add_pd(d, q[i]));
    return t;
}

AXIAL_INLINE double d_block_t(const char *xb, int rev) {
    __m256d q[4];
    d_load4(xb, q, rev);
    d_block(q, rev);
    return d_total(q[3], rev);
}

/* ---- the line driver ----
 * A segment of len elements starting at a chunk boundary of k-space, from
 * the chunk carry R.  Blocks of 16 in k order; the last, partial block goes
 * through a 16-element stack buffer padded with -0.0 (forward: the
 * elements at its start; reverse: at its end). */
AXIAL_INLINE void pad_in(int k, unsigned char *buf, const char *x, size_t r, int rev) {
    const size_t ms = k_msize(k);
    for (size_t i = 0; i < 16; i++) {
        if (k == K_F64) {
            const double z = -0.0;
            memcpy(buf + i * 8, &z, 8);
        } else if (k == K_F32) {
            const float z = -0.0f;
            memcpy(buf + i * 4, &z, 4);
        } else {
            const uint16_t z = 0x8000; /* -0.0 in f16 and bf16 */
            memcpy(buf + i * 2, &z, 2);
        }
    }
    memcpy(buf + (rev ? 16 - r : 0) * ms, x, r * ms);
}

/* Chunk totals (scan_total) of the f32 family, 8 blocks at a time: only the
 * block totals t = p_15 are needed, and the network computes them without
 * any prefix.  In k order a block's quads total T_q = (v3 + v2) + (v1 + v0)
 * and the block t = T3 + ((T2 + T1) + T0) (the order's p_15 = s_15 + E_3),
 * so here: lane pairs, then quads, by even/odd in-lane shuffles of two
 * registers at a time (vertical adds, the k-later operand first as in the
 * network), then the quads of 4 blocks gathered as [M0|M1], [M2|M3] (memory
 * quads M, lanes in k order of the blocks) and added in 128 bits; the 8
 * totals, widened to f64, join S in k order, one add each, as the block
 * loop would.  About 4 shuffles per block instead of the block network's 8.
 * Reverse: k runs down memory, so a quad's k-later pair and the block's
 * k-later quads are the lower ones (T0 = M3 ... T3 = M0). */
AXIAL_INLINE __m128 f_quads4(__m256 r01, __m256 r23, int rev) {
    /* r: [M0 M2 M0' M2' | M1 M3 M1' M3'] of two blocks each */
    const __m256 w = _mm256_shuffle_ps(r01, r23, 0x88), x = _mm256_shuffle_ps(r01, r23, 0xDD);
    const __m128 m0 = _mm256_castps256_ps128(w), m1 = _mm256_extractf128_ps(w, 1);
    const __m128 m2 = _mm256_castps256_ps128(x), m3 = _mm256_extractf128_ps(x, 1);
    if (rev) /* T0..T3 = M3..M0 */
        return _mm_add_ps(m0, _mm_add_ps(_mm_add_ps(m1, m2), m3));
    return _mm_add_ps(m3, _mm_add_ps(_mm_add_ps(m2, m1), m0));
}
/* Sums of lane pairs (level 1) or of pairs of pairs (level 2) of a and b, in
 * the lanes [a even..., b even... ] of each 128-bit half. */
AXIAL_INLINE __m256 f_pairs(__m256 a, __m256 b, int rev) {
    const __m256 e = _mm256_shuffle_ps(a, b, 0x88), o = _mm256_shuffle_ps(a, b, 0xDD);
    return rev ? _mm256_add_ps(e, o) : _mm256_add_ps(o, e);
}
/* The quads of block j at its two registers: [M0 M2 M0' M2' | M1 M3 M1' M3']
 * for blocks j and j + 1. */
AXIAL_INLINE __m256 f_quads2(int k, const char *b0, const char *b1, int rev) {
    const size_t h = 8 * k_msize(k);
    const __m256 p0 = f_pairs(f_load(k, b0), f_load(k, b0 + h), rev);
    const __m256 p1 = f_pairs(f_load(k, b1), f_load(k, b1 + h), rev);
    return f_pairs(p0, p1, rev);
}
/* Blocks [b, b + 128) of a chunk (k order), S += each block's total. */
AXIAL_INLINE double f_totals8(int k, const char *x, size_t len, size_t b, int rev, double S) {
    const size_t ms = k_msize(k);
    const char *blk[8];
    for (int j = 0; j < 8; j++)
        blk[j] = x + (rev ? len - 16 - (b + 16 * (size_t)j) : b + 16 * (size_t)j) * ms;
    const __m128 lo = f_quads4(f_quads2(k, blk[0], blk[1], rev), f_quads2(k, blk[2], blk[3], rev), rev);
    const __m128 hi = f_quads4(f_quads2(k, blk[4], blk[5], rev), f_quads2(k, blk[6], blk[7], rev), rev);
    _Alignas(32) double t[8];
    _mm256_store_pd(t, _mm256_cvtps_pd(lo));
    _mm256_store_pd(t + 4, _mm256_cvtps_pd(hi));
    for (int j = 0; j < 8; j++)
        S += t[j];
    return S;
}

/* Returns R after the segment (scan_total; cumsum_seg, kernels.h).  With
 * out, a partial last chunk (one that ends its line: no carry follows it)
 * does not keep S, so R after it is meaningless. */
AXIAL_INLINE double line_seg(int k, const char *x, char *y, size_t len, int excl, int rev,
                             int start, double R, int out) {
    const size_t ms = k_msize(k);
    for (size_t h = 0; h < len; h += AXIAL_SCAN_CHUNK) {
        const size_t hend = len - h < AXIAL_SCAN_CHUNK ? len : h + AXIAL_SCAN_CHUNK;
        double D = R, S = -0.0;
        size_t b = h;
        if (k == K_F64) {
            for (; b + 16 <= hend; b += 16) {
                const size_t p = rev ? len - 16 - b : b;
                const double td = out ? d_block_io(x + p * ms, y + p * ms, D, excl, rev)
                                      : d_block_t(x + p * ms, rev);
                D += td;
                S += td;
            }
            if (b < hend) {
                _Alignas(32) unsigned char bi[16 * 8], bo[16 * 8];
                const size_t r = hend - b, p = rev ? 0 : b;
                pad_in(k, bi, x + p * ms, r, rev);
                const double t = d_block_io((const char *)bi, (char *)bo, D, excl, rev);
                if (out)
                    memcpy(y + p * ms, bo + (rev ? 16 - r : 0) * ms, r * ms);
                S += t;
            }
        } else if (out && hend - h < AXIAL_SCAN_CHUNK) {
            /* a partial chunk ends its line: S is not needed, one f64 add less */
            for (; b + 16 <= hend; b += 16) {
                const size_t p = rev ? len - 16 - b : b;
                D += k == K_BF16 ? bf_block_io(x + p * ms, y + p * ms, (float)D, excl, rev)
                                 : f_block_io(k, x + p * ms, y + p * ms, (float)D, excl, rev);
            }
        } else {
            if (!out) /* totals only: 8 blocks at a time */
                for (; b + 128 <= hend; b += 128)
                    S = f_totals8(k, x, len, b, rev, S);
            for (; b + 16 <= hend; b += 16) {
                const size_t p = rev ? len - 16 - b : b;
                const double td =
                    k == K_BF16 ? (out ? bf_block_io(x + p * ms, y + p * ms, (float)D, excl, rev)
                                       : bf_block_t(x + p * ms, rev))
                    : out ? f_block_io(k, x + p * ms, y + p * ms, (float)D, excl, rev)
                          : f_block_t(k, x + p * ms, rev);
                D += td;
                S += td;
            }
        }
        if (k != K_F64) {
            if (b < hend) {
                _Alignas(32) unsigned char bi[16 * 4], bo[16 * 4];
                const size_t r = hend - b, p = rev ? 0 : b;
                pad_in(k, bi, x + p * ms, r, rev);
                const double t = f_block_io(k, (const char *)bi, (char *)bo, (float)D, excl, rev);
                if (out)
                    memcpy(y + p * ms, bo + (rev ? 16 - r : 0) * ms, r * ms);
                S += t;
            }
        }
        R += S;
    }
    if (out && excl && start) /* the empty sum: +0 */
        memset(y + (rev ? len - 1 : 0) * ms, 0, ms);
    return R;
}
/* Whole blocks inside one chunk from the carries ds = {D, S} (kernels.h:
 * cumsum_run): line_seg's block loop, without its chunk ends. */
AXIAL_INLINE void line_run(int k, const char *x, char *y, size_t len, int excl, int rev, int start,
                           double *ds) {
    const size_t ms = k_msize(k);
    double D = ds[0], S = ds[1];
    for (size_t b = 0; b + 16 <= len; b += 16) {
        const size_t p = rev ? len - 16 - b : b;
        const double td = k == K_F64    ? d_block_io(x + p * ms, y + p * ms, D, excl, rev)
                          : k == K_BF16 ? bf_block_io(x + p * ms, y + p * ms, (float)D, excl, rev)
                                        : f_block_io(k, x + p * ms, y + p * ms, (float)D, excl, rev);
        D += td;
        S += td;
    }
    if (excl && start && len) /* the empty sum: +0 */
        memset(y + (rev ? len - 1 : 0) * ms, 0, ms);
    ds[0] = D;
    ds[1] = S;
}

/* ---- entry points --------------------------------------------------------- */

/* Lines of 4 or 8 elements (f32 family) and of 4 (f64): a line starts a
 * block and its carry is -0.0, so y = (C)-0.0 + p = p: a ymm of f32 holds two
 * lines of 4 (a quad each: the quad scan is the whole prefix) or one line of
 * 8 (two quads, E1 = T0); a ymm of f64 one line of 4.  Exclusive: p moved
 * one lane on, the line's first output +0.0 shifted in.  Lines left over (an
 * odd count of 4-lines) take the general code. */
AXIAL_INLINE void short_lines(int k, const char *x, char *y, size_t outer, size_t n, int excl,
                              int rev) {
    const size_t ms = k_msize(k), per = (k == K_F64 ? 4 : 8) / n;
    size_t o = 0;
    for (; o + per <= outer; o += per) {
        const char *xo = x + o * n * ms;
        char *yo = y + o * n * ms;
        if (k == K_F64) {
            __m256d s = d_qscan(_mm256_loadu_pd((const double *)(const void *)xo), rev);
            if (excl)
                s = d_shift1(s, _mm256_setzero_pd(), rev);
            _mm256_storeu_pd((double *)(void *)yo, s);
            continue;
        }
        const __m256 v = f_load(k, xo);
        __m256 s = _mm256_add_ps(v, q_shift(v, 4, rev));
        s = _mm256_add_ps(s, q_shift(s, 8, rev));
        if (n == 8) {
            const __m256 b = rev ? _mm256_shuffle_ps(s, s, 0x00) : _mm256_shuffle_ps(s, s, 0xFF);
            s = _mm256_add_ps(s, rev ? _mm256_permute2f128_ps(b, AX_NEGZ, 0x21)
                                     : _mm256_permute2f128_ps(b, AX_NEGZ, 0x02));
            if (excl)
                s = x_shift(s, _mm256_setzero_ps(), rev);
        } else if (excl) {
            const __m256i z = _mm256_setzero_si256(), u = AX_SIS(s);
            s = AX_PS(rev ? _mm256_alignr_epi8(z, u, 4) : _mm256_alignr_epi8(u, z, 12));
        }
        f_store(k, yo, s);
    }
    for (; o < outer; o++)
        line_seg(k, x + o * n * ms, y + o * n * ms, n, excl, rev, 1, -0.0, 1);
}

AXIAL_INLINE void cumsum_dir(int k, const char *x, char *y, size_t outer, size_t n, size_t inner,
                             int excl, int rev) {
    const size_t ms = k_msize(k);
    if (inner == 1 && k_float(k) && (n == 4 || (n == 8 && k != K_F64))) {
        short_lines(k, x, y, outer, n, excl, rev);
    } else if (inner == 1 && k_float(k)) {
        for (size_t o = 0; o < outer; o++)
            line_seg(k, x + o * n * ms, y + o * n * ms, n, excl, rev, 1, -0.0, 1);
    } else if (inner == 1 && n < 16) {
        scan_seg(k, x, y, outer * n, n, excl, rev);
    } else if (inner == 1) {
        for (size_t o = 0; o < outer; o++)
            scan_row(k, x + o * n * ms, y + o * n * ms, n, excl, rev);
    } else {
        for (size_t o = 0; o < outer; o++)
            scan_cols(k, x + o * n * inner * ms, y + o * n * inner * ms, n, inner, inner, excl,
                      rev);
    }
}

#define AX_DEFINE_CUMSUM(name, KIND)                                                      \
    void axial_cumsum_##name##__avx2(const void *x, void *y, size_t outer, size_t n,     \
                                     size_t inner, unsigned flags) {                     \
        const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;                          \
        if (flags & AXIAL_CUMSUM_REVERSE)                                                \
            cumsum_dir(KIND, (const char *)x, (char *)y, outer, n, inner, excl, 1);      \
        else                                                                             \
            cumsum_dir(KIND, (const char *)x, (char *)y, outer, n, inner, excl, 0);      \
    }
AX_DEFINE_CUMSUM(f32, K_F32)
AX_DEFINE_CUMSUM(f64, K_F64)
AX_DEFINE_CUMSUM(f16, K_F16)
AX_DEFINE_CUMSUM(bf16, K_BF16)
AX_DEFINE_CUMSUM(i8, K_I8)
AX_DEFINE_CUMSUM(u8, K_I8)
AX_DEFINE_CUMSUM(i16, K_I16)
AX_DEFINE_CUMSUM(u16, K_I16)
AX_DEFINE_CUMSUM(i32, K_I32)
AX_DEFINE_CUMSUM(u32, K_I32)
AX_DEFINE_CUMSUM(i64, K_I64)
AX_DEFINE_CUMSUM(u64, K_I64)

/* The split kernels (kernels.h): the same code as the whole-shape kernels. */
#define AX_DEFINE_SPLIT(name, KIND)                                                          \
    double axial_cumsum_seg_##name##__avx2(const void *x, void *y, size_t len,              \
                                           unsigned flags, double carry) {                  \
        const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;                             \
        const int start = (flags & AXIAL_SCAN_CONTINUE) == 0;                               \
        if (flags & AXIAL_CUMSUM_REVERSE)                                                   \
            return line_seg(KIND, (const char *)x, (char *)y, len, excl, 1, start, carry, 1); \
        return line_seg(KIND, (const char *)x, (char *)y, len, excl, 0, start, carry, 1);   \
    }                                                                                       \
    double axial_scan_total_##name##__avx2(const void *x, size_t len, unsigned flags) {      \
        if (flags & AXIAL_CUMSUM_REVERSE)                                                   \
            return line_seg(KIND, (const char *)x, NULL, len, 0, 1, 0, -0.0, 0);            \
        return line_seg(KIND, (const char *)x, NULL, len, 0, 0, 0, -0.0, 0);                \
    }                                                                                       \
    void axial_cumsum_cols_##name##__avx2(const void *x, void *y, size_t n, size_t ncols,     \
                                          size_t stride, unsigned flags) {                  \
        const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;                             \
        if (flags & AXIAL_CUMSUM_REVERSE)                                                   \
            scan_cols(KIND, (const char *)x, (char *)y, n, ncols, stride, excl, 1);         \
        else                                                                                \
            scan_cols(KIND, (const char *)x, (char *)y, n, ncols, stride, excl, 0);         \
    }
#define AX_DEFINE_RUN(name, KIND)                                                            \
    void axial_cumsum_run_##name##__avx2(const void *x, void *y, size_t len, unsigned flags,  \
                                         double *ds) {                                       \
        const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;                             \
        const int start = (flags & AXIAL_SCAN_CONTINUE) == 0;                               \
        if (flags & AXIAL_CUMSUM_REVERSE)                                                   \
            line_run(KIND, (const char *)x, (char *)y, len, excl, 1, start, ds);            \
        else                                                                                \
            line_run(KIND, (const char *)x, (char *)y, len, excl, 0, start, ds);            \
    }
AXIAL_DEFINE_COLS_RUN(avx2)
AX_DEFINE_RUN(f32, K_F32)
AX_DEFINE_RUN(f64, K_F64)
AX_DEFINE_RUN(f16, K_F16)
AX_DEFINE_RUN(bf16, K_BF16)
AX_DEFINE_SPLIT(f32, K_F32)
AX_DEFINE_SPLIT(f64, K_F64)
AX_DEFINE_SPLIT(f16, K_F16)
AX_DEFINE_SPLIT(bf16, K_BF16)
