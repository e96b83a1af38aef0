/* SPDX-License-Identifier: MIT */
/*
 * cumsum.c: AVX-512 (F + VL + BW + DQ) CumSum.  Entry points (kernels.h):
 * cumsum for every summable dtype; for F32, F64, F16 and BF16 also
 * cumsum_seg (a line segment from a given carry), scan_total (the total a
 * chunk adds to the carry) and cumsum_cols (a column tile of a split).
 *
 * Floats follow the one summation order (docs/API.md section 7, "One
 * summation order"; tests/order_ref.c is its executable definition), so they
 * give the bits of the AVX2 and NEON kernels.  Lines (inner == 1): a block of
 * 16 is one zmm of f32 (F64: two zmm, lanes 0-7 and 8-15) and a quad is one
 * 128-bit lane (F64: a 256-bit half), so the quad scans are in-lane shifts
 * with masked adds and E is a permute of the quad totals (net_f32, net_f64);
 * four blocks a step share one scan of their quad totals (net4_f32).  Lines
 * of n <= 16 sit several to a vector (short_f32c).  Columns (inner > 1):
 * sequential f64 sums, eight columns to a vector (cols_matrix).  Integers
 * wrap, so any order gives their bits: log-step scans when inner is a power
 * of two below the lanes of a vector (seg_scan, flat_scan), column tiles
 * otherwise; signed and unsigned integers of one width share a kernel.
 *
 * Tails: masked loads that fill -0.0 (floats) or 0, and masked stores;
 * nothing outside the tensor is read or written.  In place (y == x) is safe:
 * every element is loaded before its output is stored, never after.  Calls
 * that write at least AXIAL_STREAM_BYTES, and the tasks of split calls that
 * do (AXIAL_KERNEL_STREAM), stream whole aligned 64-byte lines.
 */
#include "avx512.h"

/* The short loops over the 4 or 8 vectors of one step must be unrolled, so
 * that their arrays live in registers. */
#define AXIAL_UNROLL _Pragma("GCC unroll 8")
/* Register tile of the column path, in vectors (16 would spill registers). */
#define AXIAL_TILE 8
/* Rows ahead that the streaming float column tiles prefetch. */
#define AXIAL_COLS_PF 16
/* Tiles of the column path that one walk down the rows carries (cols_tiles). */
#define AXIAL_SWEEP 16
/* Bytes a call writes from which its full, aligned vectors are streamed. */
#define AXIAL_CUMSUM_NT AXIAL_STREAM_BYTES

/* What a lane holds: the dtype's storage and the scan's arithmetic. */
enum axial_kind { K_F32, K_F64, K_F16, K_BF16, K_I8, K_I16, K_I32, K_I64 };

AXIAL_INLINE int k_float(enum axial_kind k) { return k <= K_BF16; }
/* Bytes of one element in memory. */
AXIAL_INLINE size_t k_es(enum axial_kind k) {
    switch (k) {
    case K_I8: return 1;
    case K_F16: case K_BF16: case K_I16: return 2;
    case K_F32: case K_I32: return 4;
    default: return 8;
    }
}
/* Bytes of one lane in a register (floats are scanned in f64), lanes per vector. */
AXIAL_INLINE size_t k_ls(enum axial_kind k) { return k_float(k) ? 8 : k_es(k); }
AXIAL_INLINE size_t k_vl(enum axial_kind k) { return 64 / k_ls(k); }

/* The identity every sum starts from: -0.0 for floats, 0 for integers. */
AXIAL_INLINE __m512i v_ident(enum axial_kind k) {
    return k_float(k) ? _mm512_castpd_si512(_mm512_set1_pd(-0.0)) : _mm512_setzero_si512();
}

/* ---- f64 -> 16-bit floats, 8 lanes, one rounding ---------------------------
 * Round to f32 toward zero and set the lsb when that was inexact (round to
 * odd): the f32 keeps enough bits that the following nearest-even rounding to
 * f16 / bf16 gives the correctly rounded f64 value.  NaN stays NaN. */
AXIAL_INLINE __m256 f64_to_f32_odd(__m512d d) {
    const __m256 t = _mm512_cvt_roundpd_ps(d, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __mmask8 inexact = _mm512_cmp_pd_mask(_mm512_cvtps_pd(t), d, _CMP_NEQ_UQ);
    const __m256i u = _mm256_castps_si256(t);
    return _mm256_castsi256_ps(_mm256_mask_or_epi32(u, inexact, u, _mm256_set1_epi32(1)));
}
/* avx512.h's 16-lane nearest-even narrowing on 8 lanes (the upper 8 are zero). */
AXIAL_INLINE __m128i f32_to_bf16_8(__m256 f) {
    return _mm256_castsi256_si128(axial_avx512_f32_to_bf16(_mm512_zextps256_ps512(f)));
}

/* ---- loads and stores: lanes outside the mask load as the identity --------- */
AXIAL_INLINE __m512i v_load(enum axial_kind k, const char *p, __mmask64 m) {
    const __mmask8 m8 = (__mmask8)m;
    const __m128i negz16 = _mm_set1_epi16((short)0x8000);
    switch (k) {
    case K_F64: return _mm512_castpd_si512(_mm512_mask_loadu_pd(_mm512_set1_pd(-0.0), m8, p));
    case K_F32:
        return _mm512_castpd_si512(
            _mm512_cvtps_pd(_mm256_mask_loadu_ps(_mm256_set1_ps(-0.0f), m8, p)));
    case K_F16:
        return _mm512_castpd_si512(
            _mm512_cvtps_pd(_mm256_cvtph_ps(_mm_mask_loadu_epi16(negz16, m8, p))));
    case K_BF16: {
        const __m256i w = _mm256_cvtepu16_epi32(_mm_mask_loadu_epi16(negz16, m8, p));
        return _mm512_castpd_si512(_mm512_cvtps_pd(_mm256_castsi256_ps(_mm256_slli_epi32(w, 16))));
    }
    case K_I8: return _mm512_maskz_loadu_epi8(m, p);
    case K_I16: return _mm512_maskz_loadu_epi16((__mmask32)m, p);
    case K_I32: return _mm512_maskz_loadu_epi32((__mmask16)m, p);
    default: return _mm512_maskz_loadu_epi64(m8, p);
    }
}
AXIAL_INLINE void v_store(enum axial_kind k, char *p, __mmask64 m, __m512i v) {
    const __mmask8 m8 = (__mmask8)m;
    const __m512d d = _mm512_castsi512_pd(v);
    switch (k) {
    case K_F64: _mm512_mask_storeu_pd(p, m8, d); break;
    case K_F32: _mm256_mask_storeu_ps(p, m8, _mm512_cvtpd_ps(d)); break;
    case K_F16:
        _mm_mask_storeu_epi16(p, m8, _mm256_cvtps_ph(f64_to_f32_odd(d),
                                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        break;
    case K_BF16: _mm_mask_storeu_epi16(p, m8, f32_to_bf16_8(f64_to_f32_odd(d))); break;
    case K_I8: _mm512_mask_storeu_epi8(p, m, v); break;
    case K_I16: _mm512_mask_storeu_epi16(p, (__mmask32)m, v); break;
    case K_I32: _mm512_mask_storeu_epi32(p, (__mmask16)m, v); break;
    default: _mm512_mask_storeu_epi64(p, m8, v); break;
    }
}

/* Four full vectors that lie back to back in memory, o[0] lowest, at a 64-byte
 * aligned address: streaming (nt) or plain.  Streaming stores are whole lines
 * (64 bytes): f32 outputs go two vectors, f16 / bf16 four vectors to a
 * line, as streaming half lines is slow. */
AXIAL_INLINE void v_store4(enum axial_kind k, char *p, const __m512i o[4], int nt) {
    const size_t vb = k_vl(k) * k_es(k);
    if (!nt) {
        AXIAL_UNROLL
        for (int u = 0; u < 4; u++)
            v_store(k, p + (size_t)u * vb, axial_avx512_mask64(k_vl(k)), o[u]);
        return;
    }
    __m256 f[4];
    __m128i h[4];
    switch (k) {
    case K_F32:
        AXIAL_UNROLL
        for (int u = 0; u < 4; u++)
            f[u] = _mm512_cvtpd_ps(_mm512_castsi512_pd(o[u]));
        _mm512_stream_ps((float *)(void *)p, _mm512_insertf32x8(_mm512_castps256_ps512(f[0]), f[1], 1));
        _mm512_stream_ps((float *)(void *)(p + 64),
                         _mm512_insertf32x8(_mm512_castps256_ps512(f[2]), f[3], 1));
        break;
    case K_F16:
    case K_BF16:
        AXIAL_UNROLL
        for (int u = 0; u < 4; u++) {
            const __m256 r = f64_to_f32_odd(_mm512_castsi512_pd(o[u]));
            h[u] = k == K_F16 ? _mm256_cvtps_ph(r, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
                              : f32_to_bf16_8(r);
        }
        _mm512_stream_si512((void *)p,
                            _mm512_inserti32x4(_mm512_inserti32x4(_mm512_inserti32x4(
                                                   _mm512_castsi128_si512(h[0]), h[1], 1), h[2], 2),
                                               h[3], 3));
        break;
    default:
        AXIAL_UNROLL
        for (int u = 0; u < 4; u++)
            _mm512_stream_si512((void *)(p + (size_t)u * 64), o[u]);
        break;
    }
}
/* Elements from p to the next 64-byte boundary (0 when aligned); SIZE_MAX when
 * p is not element-aligned (never streamed then). */
AXIAL_INLINE size_t to_line(enum axial_kind k, const char *p) {
    const size_t a = (size_t)(-(uintptr_t)p & 63);
    return a % k_es(k) ? SIZE_MAX : a / k_es(k);
}
/* A vector whose lanes outside m are not used: a plain load where the whole
 * vector lies before `end` (a masked load followed by a masked store runs far
 * slower from memory than either alone), else masked.  The lanes past m then
 * hold neighbouring elements (possibly outputs already written, in place),
 * which the caller never lets reach a lane inside m. */
AXIAL_INLINE __m512i v_load_some(enum axial_kind k, const char *p, __mmask64 m, const char *end) {
    if (end && (size_t)(end - p) >= k_vl(k) * k_es(k))
        return v_load(k, p, axial_avx512_mask64(k_vl(k)));
    return v_load(k, p, m);
}
/* A plain store when m is every lane. */
AXIAL_INLINE void v_store_some(enum axial_kind k, char *p, __mmask64 m, __m512i v) {
    if (m == axial_avx512_mask64(k_vl(k)))
        v_store(k, p, axial_avx512_mask64(k_vl(k)), v);
    else
        v_store(k, p, m, v);
}

/* ---- lane arithmetic ---------------------------------------------------- */
AXIAL_INLINE __m512i v_add(enum axial_kind k, __m512i a, __m512i b) {
    if (k_float(k))
        return _mm512_castpd_si512(_mm512_add_pd(_mm512_castsi512_pd(a), _mm512_castsi512_pd(b)));
    switch (k_ls(k)) {
    case 1: return _mm512_add_epi8(a, b);
    case 2: return _mm512_add_epi16(a, b);
    case 4: return _mm512_add_epi32(a, b);
    default: return _mm512_add_epi64(a, b);
    }
}
/* a - b, integers only (exact modulo 2^bits). */
AXIAL_INLINE __m512i v_sub(enum axial_kind k, __m512i a, __m512i b) {
    switch (k_ls(k)) {
    case 1: return _mm512_sub_epi8(a, b);
    case 2: return _mm512_sub_epi16(a, b);
    case 4: return _mm512_sub_epi32(a, b);
    default: return _mm512_sub_epi64(a, b);
    }
}
/* Lanes in m: a + b; the others: a. */
AXIAL_INLINE __m512i v_mask_add(enum axial_kind k, __m512i a, __mmask64 m, __m512i b) {
    if (k_float(k))
        return _mm512_castpd_si512(_mm512_mask_add_pd(_mm512_castsi512_pd(a), (__mmask8)m,
                                                      _mm512_castsi512_pd(a), _mm512_castsi512_pd(b)));
    switch (k_ls(k)) {
    case 1: return _mm512_mask_add_epi8(a, m, a, b);
    case 2: return _mm512_mask_add_epi16(a, (__mmask32)m, a, b);
    case 4: return _mm512_mask_add_epi32(a, (__mmask16)m, a, b);
    default: return _mm512_mask_add_epi64(a, (__mmask8)m, a, b);
    }
}
/* Lanes in m: b; the others: a. */
AXIAL_INLINE __m512i v_blend(enum axial_kind k, __m512i a, __mmask64 m, __m512i b) {
    switch (k_ls(k)) {
    case 1: return _mm512_mask_mov_epi8(a, m, b);
    case 2: return _mm512_mask_mov_epi16(a, (__mmask32)m, b);
    case 4: return _mm512_mask_mov_epi32(a, (__mmask16)m, b);
    default: return _mm512_mask_mov_epi64(a, (__mmask8)m, b);
    }
}

/* ---- whole-register shifts by b bytes (b a power of two <= 32) ----------------
 * Up: byte i takes byte i - b, the low b bytes come from the top of `fill`.
 * Down: byte i takes byte i + b, the top b bytes from the bottom of `fill`.
 * Shifts below 4 bytes cross 128-bit lanes in two steps (valignq by one lane,
 * then vpalignr).  A switch keeps every immediate a literal at any -O level. */
AXIAL_INLINE __m512i shift_up_bytes(__m512i v, __m512i fill, size_t b) {
    switch (b) {
    case 1: return _mm512_alignr_epi8(v, _mm512_alignr_epi64(v, fill, 6), 15);
    case 2: return _mm512_alignr_epi8(v, _mm512_alignr_epi64(v, fill, 6), 14);
    case 4: return _mm512_alignr_epi32(v, fill, 15);
    case 8: return _mm512_alignr_epi64(v, fill, 7);
    case 16: return _mm512_alignr_epi64(v, fill, 6);
    default: return _mm512_alignr_epi64(v, fill, 4); /* 32 */
    }
}
AXIAL_INLINE __m512i shift_down_bytes(__m512i v, __m512i fill, size_t b) {
    switch (b) {
    case 1: return _mm512_alignr_epi8(_mm512_alignr_epi64(fill, v, 2), v, 1);
    case 2: return _mm512_alignr_epi8(_mm512_alignr_epi64(fill, v, 2), v, 2);
    case 4: return _mm512_alignr_epi32(fill, v, 1);
    case 8: return _mm512_alignr_epi64(fill, v, 1);
    case 16: return _mm512_alignr_epi64(fill, v, 2);
    default: return _mm512_alignr_epi64(fill, v, 4); /* 32 */
    }
}
/* Shift by s lanes toward the scan direction, filling the identity. */
AXIAL_INLINE __m512i v_shift(enum axial_kind k, __m512i v, size_t s, int rev) {
    return rev ? shift_down_bytes(v, v_ident(k), s * k_ls(k))
               : shift_up_bytes(v, v_ident(k), s * k_ls(k));
}

/* In-vector inclusive scan with stride g (a power of two): lane i gets the sum
 * of lanes i, i-g, i-2g, ... (i+g, ... in reverse).  Levels s < g are skipped. */
AXIAL_INLINE __m512i scan_local(enum axial_kind k, __m512i v, size_t g, int rev) {
    const size_t vl = k_vl(k);
#define AXIAL_SCAN_LEVEL(s)                                                    \
    if ((s) < vl && (s) >= g)                                                  \
        v = v_add(k, v, v_shift(k, v, (s), rev));
    AXIAL_SCAN_LEVEL(1)
    AXIAL_SCAN_LEVEL(2)
    AXIAL_SCAN_LEVEL(4)
    AXIAL_SCAN_LEVEL(8)
    AXIAL_SCAN_LEVEL(16)
    AXIAL_SCAN_LEVEL(32)
#undef AXIAL_SCAN_LEVEL
    return v;
}

/* ---- per-call constants of the flat and segment paths ----------------------
 * The carry of a vector is its last (first, reverse) group of g lanes,
 * repeated over the vector: one vpermw/vpermd/vpermq with a per-call index;
 * bytes (no vpermb in F+VL+BW+DQ) take vpermq to the right 128 bits, then vpshufb. */
struct axial_scan_plan {
    __m512i lidx;  /* lane index of the broadcast (qword index for bytes) */
    __m512i bidx;  /* bytes: the vpshufb index within 128 bits */
    __m512i sidx;  /* f64 lanes: shift by one group (exclusive) */
    __mmask8 smask;
    size_t g;
};

AXIAL_INLINE struct axial_scan_plan plan_make(enum axial_kind k, size_t g, int rev) {
    struct axial_scan_plan P;
    const size_t ls = k_ls(k), vl = k_vl(k), gb = g * ls; /* gb: bytes of one group */
    union {
        int8_t b[64];
        int16_t w[32];
        int32_t d[16];
        int64_t q[8];
    } li, bi, si;
    for (size_t i = 0; i < 8; i++) {
        si.q[i] = (int64_t)((rev ? i + g : i - g) & 7);
        if (ls == 1) /* the 128 bits holding the group (or the group's qwords) */
            li.q[i] = (int64_t)(gb >= 16 ? (rev ? i % (gb / 8) : 8 - gb / 8 + i % (gb / 8))
                                         : (rev ? i % 2 : 6 + i % 2));
    }
    for (size_t i = 0; i < 64; i++)
        bi.b[i] = (int8_t)(gb >= 16 ? i % 16 : rev ? (i % 16) % gb : 16 - gb + (i % 16) % gb);
    for (size_t i = 0; i < vl && ls > 1; i++) {
        const size_t src = rev ? i % g : vl - g + i % g;
        if (ls == 2) li.w[i] = (int16_t)src;
        else if (ls == 4) li.d[i] = (int32_t)src;
        else li.q[i] = (int64_t)src;
    }
    P.lidx = _mm512_loadu_si512(li.b);
    P.bidx = _mm512_loadu_si512(bi.b);
    P.sidx = _mm512_loadu_si512(si.b);
    /* smask is used by f64 only (g < 8); other kinds may have g up to 63. */
    P.smask = g >= 8 ? 0 : (__mmask8)(rev ? (1u << (8 - g)) - 1 : (0xffu << g) & 0xffu);
    P.g = g;
    return P;
}
/* Every lane of group r gets lane r of the last (first, reverse) group. */
AXIAL_INLINE __m512i bcast_group(enum axial_kind k, const struct axial_scan_plan *P, __m512i v) {
    switch (k_ls(k)) {
    case 1: return _mm512_shuffle_epi8(_mm512_permutexvar_epi64(P->lidx, v), P->bidx);
    case 2: return _mm512_permutexvar_epi16(P->lidx, v);
    case 4: return _mm512_permutexvar_epi32(P->lidx, v);
    default: return _mm512_permutexvar_epi64(P->lidx, v);
    }
}
/* The exclusive outputs from the carry c, the in-vector inclusive prefix p and x. */
AXIAL_INLINE __m512i excl_out(enum axial_kind k, const struct axial_scan_plan *P, __m512i c,
                              __m512i p, __m512i x) {
    if (k_float(k))
        return v_add(k, c, _mm512_mask_permutexvar_epi64(v_ident(k), P->smask, P->sidx, p));
    return v_sub(k, v_add(k, c, p), x);
}

/* ---- flat: one slab of N elements (n rows of g columns), g < lanes ------------
 * Integers (cumsum_kind) whose slab does not fit one vector: the slab as one
 * flat array, a vector at a time, a log-step scan with strides g, 2g, ...
 * plus the carry broadcast from the previous vector; four vectors a step.
 * Exclusive is inclusive - x, exact modulo 2^bits. */
AXIAL_INLINE void flat_scan(enum axial_kind k, const char *x, char *y, size_t N,
                            const struct axial_scan_plan *P, const char *xend, int excl, int rev) {
    const size_t vl = k_vl(k), es = k_es(k), g = P->g;
    const __mmask64 all = axial_avx512_mask64(vl);
    const __m512i zero = _mm512_setzero_si512();
    __m512i c = v_ident(k);
    /* The lanes of the first output row, set to +0.0 (floats, exclusive). */
    __mmask64 first = 0;
    if (excl && k_float(k)) {
        const size_t len = N < vl ? N : vl;
        first = rev ? axial_avx512_mask64(len) & ~axial_avx512_mask64(len - g)
                    : axial_avx512_mask64(g);
    }
    size_t done = 0;
    for (; N - done >= 4 * vl; done += 4 * vl) {
        __m512i xv[4], p[4], t[4], base[4];
        size_t off[4];
        AXIAL_UNROLL
        for (int u = 0; u < 4; u++) {
            off[u] = (rev ? N - done - (size_t)(u + 1) * vl : done + (size_t)u * vl) * es;
            xv[u] = v_load(k, x + off[u], all);
            p[u] = scan_local(k, xv[u], g, rev);
            t[u] = bcast_group(k, P, p[u]);
        }
        const __m512i t01 = v_add(k, t[0], t[1]);
        base[0] = c;
        base[1] = v_add(k, c, t[0]);
        base[2] = v_add(k, c, t01);
        base[3] = v_add(k, c, v_add(k, t01, t[2]));
        c = v_add(k, c, v_add(k, t01, v_add(k, t[2], t[3])));
        AXIAL_UNROLL
        for (int u = 0; u < 4; u++) {
            __m512i out = excl ? excl_out(k, P, base[u], p[u], xv[u]) : v_add(k, base[u], p[u]);
            if (u == 0 && first) {
                out = v_blend(k, out, first, zero);
                first = 0;
            }
            v_store(k, y + off[u], all, out);
        }
    }
    while (done < N) {
        const size_t len = N - done < vl ? N - done : vl;
        const size_t off = (rev ? N - done - len : done) * es;
        const __mmask64 m = axial_avx512_mask64(len);
        /* Reverse needs the identity in the lanes past m (they would reach
         * the lanes below); forward lanes past m only reach lanes past m. */
        const __m512i xv = rev ? v_load(k, x + off, m) : v_load_some(k, x + off, m, xend);
        const __m512i p = scan_local(k, xv, g, rev);
        __m512i out = excl ? excl_out(k, P, c, p, xv) : v_add(k, c, p);
        out = v_blend(k, out, first, zero);
        first = 0;
        v_store(k, y + off, m, out);
        c = v_add(k, c, bcast_group(k, P, p));
        done += len;
    }
}

/* ---- segments: `count` slabs of n rows x g columns, n*g <= lanes -------------
 * Several whole slabs per vector, one load and one store each, with a
 * log-step (Hillis-Steele) scan whose per-level masks keep slabs and columns
 * apart. */

/* The lanes [0, len) of slabs of n rows x g columns: lev[i], those that add
 * the lane 2^i away (same slab, same column); keep, those not in a first row
 * (exclusive keeps a sum there). */
AXIAL_INLINE void seg_masks(size_t n, size_t g, size_t len, int rev, __mmask64 lev[6],
                            __mmask64 *keep) {
    const size_t L = n * g;
    *keep = 0;
    for (size_t i = 0; i < 6; i++)
        lev[i] = 0;
    for (size_t l = 0; l < len; l++) {
        const size_t pos = (l % L) / g, d = rev ? n - 1 - pos : pos;
        for (size_t i = 0; i < 6; i++)
            if ((((size_t)1 << i) % g) == 0 && d >= ((size_t)1 << i) / g)
                lev[i] |= (__mmask64)1 << l;
        if (d >= 1)
            *keep |= (__mmask64)1 << l;
    }
}

/* The scan of one vector of whole slabs.  lev[i]: lanes that add the lane 2^i
 * away (same slab, same column); keep: lanes not in a first row. */
AXIAL_INLINE __m512i seg_vec(enum axial_kind k, __m512i xv, const __mmask64 lev[6], __mmask64 keep,
                             const struct axial_scan_plan *P, int excl, int rev) {
    __m512i p = xv;
#define AXIAL_SEG_LEVEL(i)                                                     \
    if (lev[i])                                                                \
        p = v_mask_add(k, p, lev[i], v_shift(k, p, (size_t)1 << (i), rev));
    AXIAL_SEG_LEVEL(0)
    AXIAL_SEG_LEVEL(1)
    AXIAL_SEG_LEVEL(2)
    AXIAL_SEG_LEVEL(3)
    AXIAL_SEG_LEVEL(4)
    AXIAL_SEG_LEVEL(5)
#undef AXIAL_SEG_LEVEL
    if (!excl)
        return p;
    return k_float(k) ? v_blend(k, _mm512_setzero_si512(), keep, excl_out(k, P, v_ident(k), p, xv))
                      : v_sub(k, p, xv);
}

AXIAL_INLINE void seg_scan(enum axial_kind k, const char *x, char *y, size_t count, size_t n,
                           const struct axial_scan_plan *P, int excl, int rev) {
    const size_t vl = k_vl(k), es = k_es(k), g = P->g, L = n * g;
    const size_t per = vl / L; /* slabs per vector */
    __mmask64 lev[6], keep;
    seg_masks(n, g, per * L, rev, lev, &keep);
    for (size_t r = 0; r < count; r += per) {
        const size_t cnt = count - r < per ? count - r : per;
        const __mmask64 m = axial_avx512_mask64(cnt * L);
        const __m512i xv = v_load_some(k, x + r * L * es, m, x + count * L * es);
        const __m512i out = seg_vec(k, xv, lev, keep, P, excl, rev);
        v_store_some(k, y + r * L * es, m, out);
    }
}


/* Streaming (whole vectors of slabs only, per * L == lanes): the slabs
 * before the first 64-byte boundary and the last ones go through seg_scan,
 * plainly; between them four vectors a step, streamed. */
AXIAL_INLINE void seg_scan_nt(enum axial_kind k, const char *x, char *y, size_t count, size_t n,
                              const struct axial_scan_plan *P, int excl, int rev) {
    const size_t vl = k_vl(k), es = k_es(k), g = P->g, L = n * g;
    const size_t per = vl / L, h = to_line(k, y);
    if (per * L != vl || h == SIZE_MAX || h % L != 0 || h / L + 4 * per > count) {
        seg_scan(k, x, y, count, n, P, excl, rev);
        return;
    }
    __mmask64 lev[6], keep;
    seg_masks(n, g, vl, rev, lev, &keep);
    size_t r = h / L;
    if (r)
        seg_scan(k, x, y, r, n, P, excl, rev);
    const __mmask64 all = axial_avx512_mask64(vl);
    for (; count - r >= 4 * per; r += 4 * per) {
        __m512i out[4];
        AXIAL_UNROLL
        for (int u = 0; u < 4; u++)
            out[u] = seg_vec(k, v_load(k, x + (r + (size_t)u * per) * L * es, all), lev, keep, P,
                             excl, rev);
        v_store4(k, y + r * L * es, out, 1);
    }
    if (r < count)
        seg_scan(k, x + r * L * es, y + r * L * es, count - r, n, P, excl, rev);
}

/* ---- columns: walk j down the rows ------------------------------------------ */

/* g tiles (1 <= g <= AXIAL_SWEEP) of AXIAL_TILE full vectors of columns, and
 * the h columns just before them (the head of a streaming walk, h < 64 / es:
 * up to four masked vectors of the f16 / bf16 family, whose vectors hold 8
 * columns, stored plainly), walked row by row: each row's stretch of
 * g * AXIAL_TILE vectors is read and written in address order.  Each column
 * adds its rows in order from the identity, whatever g.  One tile (g == 1, a
 * constant at its call) keeps its accumulators in registers and, streaming
 * floats, prefetches AXIAL_COLS_PF rows ahead: its rows are far apart, a
 * row of the tile per page.  Wider rows go g tiles at a time, accumulators
 * in L1 (8 KiB): one tile walking down rows far apart touches a new page per
 * row, which the hardware prefetchers do not follow and the TLB misses. */
AXIAL_INLINE void cols_tiles(enum axial_kind k, const char *x, char *y, size_t n, size_t stride,
                             size_t g, int excl, int rev, int nt, size_t h) {
    const size_t vl = k_vl(k), vb = vl * k_es(k); /* bytes of one vector's columns */
    const __mmask64 all = axial_avx512_mask64(vl);
    const size_t hv = (h + vl - 1) / vl, hb = h * k_es(k);
    __m512i acc[AXIAL_SWEEP * AXIAL_TILE], hacc[64 / 8];
    for (size_t u = 0; u < g * AXIAL_TILE; u++)
        acc[u] = v_ident(k);
    for (size_t u = 0; u < hv; u++)
        hacc[u] = v_ident(k);
    for (size_t t = 0; t < n; t++) {
        const size_t row = (rev ? n - 1 - t : t) * stride;
        if (g == 1 && k_float(k) && nt && t + AXIAL_COLS_PF < n) {
            const char *pf = x + (rev ? n - 1 - t - AXIAL_COLS_PF : t + AXIAL_COLS_PF) * stride;
            if (h)
                _mm_prefetch(pf - hb, _MM_HINT_T0);
            for (size_t l = 0; l < AXIAL_TILE * vb; l += 64)
                _mm_prefetch(pf + l, _MM_HINT_T0);
        }
        for (size_t u = 0; u < hv; u++) {
            const size_t off = row - hb + u * vb;
            const __mmask64 m = axial_avx512_mask64(h - u * vl < vl ? h - u * vl : vl);
            const __m512i xv = v_load(k, x + off, m);
            v_store(k, y + off, m,
                    excl ? (t ? hacc[u] : _mm512_setzero_si512()) : v_add(k, hacc[u], xv));
            hacc[u] = v_add(k, hacc[u], xv);
        }
        for (size_t j = 0; j < g; j++) {
            const size_t at = row + j * AXIAL_TILE * vb;
            __m512i *a = acc + j * AXIAL_TILE, out[AXIAL_TILE];
            AXIAL_UNROLL
            for (int u = 0; u < AXIAL_TILE; u++) {
                const __m512i xv = v_load(k, x + at + (size_t)u * vb, all);
                out[u] = excl ? (t ? a[u] : _mm512_setzero_si512()) : v_add(k, a[u], xv);
                a[u] = v_add(k, a[u], xv);
            }
            AXIAL_UNROLL
            for (int u = 0; u < AXIAL_TILE; u += 4)
                v_store4(k, y + at + (size_t)u * vb, out + u, nt);
        }
    }
}

/* The last w columns of a walk (fewer than AXIAL_TILE vectors; the last
 * vector's lanes m): one walk down the rows with every vector's accumulator
 * in a register, stored plainly.  One walk for all of them, not one per
 * vector, so that each row's last lines are read from memory once. */
AXIAL_INLINE void cols_tail(enum axial_kind k, const char *x, char *y, size_t n, size_t stride,
                            size_t w, const char *xend, int excl, int rev) {
    const size_t vl = k_vl(k), vb = vl * k_es(k), nv = (w - 1) / vl + 1;
    const __mmask64 all = axial_avx512_mask64(vl), m = axial_avx512_mask64(w - (nv - 1) * vl);
    __m512i acc[AXIAL_TILE];
    AXIAL_UNROLL
    for (int u = 0; u < AXIAL_TILE; u++)
        acc[u] = v_ident(k);
    for (size_t t = 0; t < n; t++) {
        const char *xr = x + (rev ? n - 1 - t : t) * stride;
        char *yr = y + (xr - x);
        AXIAL_UNROLL
        for (int u = 0; u < AXIAL_TILE; u++) {
            if ((size_t)u >= nv)
                break;
            const int part = (size_t)u + 1 == nv && m != all;
            const __m512i xv = part ? v_load_some(k, xr + (size_t)u * vb, m, xend)
                                    : v_load(k, xr + (size_t)u * vb, all);
            const __m512i out =
                excl ? (t ? acc[u] : _mm512_setzero_si512()) : v_add(k, acc[u], xv);
            acc[u] = v_add(k, acc[u], xv);
            if (part)
                v_store(k, yr + (size_t)u * vb, m, out);
            else
                v_store(k, yr + (size_t)u * vb, all, out);
        }
    }
}

/* Columns [0, ncols) of an (n, stride bytes) matrix: each column summed in
 * order from the identity (floats: in f64, every output rounded once; f16 /
 * bf16 through f64_to_f32_odd).  Streaming: the `head`
 * columns before y's first 64-byte boundary ride along with the first tile
 * (one walk down the rows; up to 15 f32 / 31 f16 columns, which can take
 * more than one vector of f64 lanes); then every row's tiles are aligned. */
AXIAL_INLINE void cols_matrix(enum axial_kind k, const char *x, char *y, size_t n, size_t ncols,
                              size_t stride, const char *xend, int excl, int rev, int nt) {
    const size_t vl = k_vl(k), es = k_es(k);
    size_t head = nt ? to_line(k, y) : 0;
    if (stride % 64 != 0 || head >= ncols || ncols - head < AXIAL_TILE * vl)
        head = 0, nt = 0;
    size_t i = head;
    for (size_t tiles; (tiles = (ncols - i) / (AXIAL_TILE * vl)) != 0;) {
        const size_t hi = i == head ? head : 0, g = tiles < AXIAL_SWEEP ? tiles : AXIAL_SWEEP;
        if (g == 1)
            cols_tiles(k, x + i * es, y + i * es, n, stride, 1, excl, rev, nt, hi);
        else
            cols_tiles(k, x + i * es, y + i * es, n, stride, g, excl, rev, nt, hi);
        i += g * AXIAL_TILE * vl;
    }
    if (i < ncols)
        cols_tail(k, x + i * es, y + i * es, n, stride, ncols - i, xend, excl, rev);
}

/* ---- the kernel body ---------------------------------------------------------- */
AXIAL_INLINE void cumsum_body(enum axial_kind k, const char *x, char *y, size_t outer, size_t n,
                              size_t inner, int excl, int rev, int nt) {
    const size_t vl = k_vl(k), es = k_es(k);
    const char *xend = x + outer * n * inner * es;
    if (inner < vl && (inner & (inner - 1)) == 0) {
        const struct axial_scan_plan P = plan_make(k, inner, rev);
        if (n * inner <= vl) {
            if (nt)
                seg_scan_nt(k, x, y, outer, n, &P, excl, rev);
            else
                seg_scan(k, x, y, outer, n, &P, excl, rev);
        } else {
            for (size_t o = 0; o < outer; o++)
                flat_scan(k, x + o * n * inner * es, y + o * n * inner * es, n * inner, &P,
                          xend, excl, rev);
        }
        return;
    }
    for (size_t o = 0; o < outer; o++)
        cols_matrix(k, x + o * n * inner * es, y + o * n * inner * es, n, inner, inner * es, xend,
                    excl, rev, nt);
}

/* Calls that write at least AXIAL_CUMSUM_NT bytes (more than the caches keep
 * for the caller; the output would only evict its input), and the tasks of
 * split calls that do (`stream`: AXIAL_KERNEL_STREAM), stream; smaller ones
 * store plainly.  Tails are never streamed. */
AXIAL_INLINE void cumsum_flags(enum axial_kind k, const char *x, char *y, size_t outer, size_t n,
                               size_t inner, int excl, int rev, int stream) {
    const int nt = stream || outer * n * inner * k_es(k) >= AXIAL_CUMSUM_NT;
    cumsum_body(k, x, y, outer, n, inner, excl, rev, nt);
    if (nt)
        _mm_sfence(); /* order the streaming stores before whatever follows */
}

/* REVERSE becomes a constant (it turns every shift the other way); EXCLUSIVE
 * and streaming stay run-time flags: they choose the output's value or the
 * kind of store, once per vector. */
AXIAL_INLINE void cumsum_kind(enum axial_kind k, const void *x, void *y, size_t outer, size_t n,
                              size_t inner, unsigned flags) {
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const int st = (flags & AXIAL_KERNEL_STREAM) != 0;
    if (flags & AXIAL_CUMSUM_REVERSE)
        cumsum_flags(k, (const char *)x, (char *)y, outer, n, inner, excl, 1, st);
    else
        cumsum_flags(k, (const char *)x, (char *)y, outer, n, inner, excl, 0, st);
}

/* ==== floats: the one summation order ======================================== */

/* f32-family kinds (F32, F16, BF16; C = f32): 16 elements <-> 16 f32 lanes,
 * widened exactly; lanes outside a mask load as -0.0. */
/* bf16 -> f32: each word to the high half of its dword, one vpermw. */
AXIAL_INLINE __m512 widen_bf16(__m256i h) {
    const __m512i idx = _mm512_set_epi16(15, 0, 14, 0, 13, 0, 12, 0, 11, 0, 10, 0, 9, 0, 8, 0, 7,
                                         0, 6, 0, 5, 0, 4, 0, 3, 0, 2, 0, 1, 0, 0, 0);
    return _mm512_castsi512_ps(
        _mm512_maskz_permutexvar_epi16(0xAAAAAAAAu, idx, _mm512_castsi256_si512(h)));
}
AXIAL_INLINE __m512 l_load(enum axial_kind k, const char *p) {
    switch (k) {
    case K_F32: return _mm512_loadu_ps(p);
    case K_F16: return axial_avx512_load_f16((const uint16_t *)(const void *)p);
    default: return widen_bf16(_mm256_loadu_si256((const __m256i *)(const void *)p));
    }
}
AXIAL_INLINE __m512 l_load_mask(enum axial_kind k, const char *p, __mmask16 m) {
    if (k == K_F32)
        return _mm512_mask_loadu_ps(_mm512_set1_ps(-0.0f), m, p);
    const __m256i h = _mm256_mask_loadu_epi16(_mm256_set1_epi16((short)0x8000), m, p);
    return k == K_F16 ? axial_avx512_widen_f16(h) : widen_bf16(h);
}
/* f32 -> bf16 to nearest even, in the high half of each dword (avx512.h's
 * rounding: NaN stays NaN), and two such vectors packed into 32 words. */
AXIAL_INLINE __m512i bf16_hi(__m512 v) {
    const __m512i u = _mm512_castps_si512(v);
    const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    const __m512i r = _mm512_add_epi32(u, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff)));
    const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    return _mm512_mask_or_epi32(r, nan, u, _mm512_set1_epi32(0x400000));
}
AXIAL_INLINE __m512i bf16_pack2(__m512 lo, __m512 hi) {
    const __m512i idx = _mm512_set_epi16(63, 61, 59, 57, 55, 53, 51, 49, 47, 45, 43, 41, 39, 37,
                                         35, 33, 31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7,
                                         5, 3, 1);
    return _mm512_permutex2var_epi16(bf16_hi(lo), idx, bf16_hi(hi));
}
/* f32 -> T, once, to nearest even. */
AXIAL_INLINE __m256i l_narrow(enum axial_kind k, __m512 v) {
    return k == K_F16 ? axial_avx512_f32_to_f16(v) : axial_avx512_f32_to_bf16(v);
}
AXIAL_INLINE void l_store(enum axial_kind k, char *p, __m512 v) {
    if (k == K_F32)
        _mm512_storeu_ps(p, v);
    else
        _mm256_storeu_si256((__m256i *)(void *)p, l_narrow(k, v));
}
AXIAL_INLINE void l_store_mask(enum axial_kind k, char *p, __mmask16 m, __m512 v) {
    if (k == K_F32)
        _mm512_mask_storeu_ps(p, m, v);
    else
        _mm256_mask_storeu_epi16(p, m, l_narrow(k, v));
}

AXIAL_INLINE __m512 bsl_ps(__m512 v, int bytes) {
    return bytes == 4 ? _mm512_castsi512_ps(_mm512_bslli_epi128(_mm512_castps_si512(v), 4))
                      : _mm512_castsi512_ps(_mm512_bslli_epi128(_mm512_castps_si512(v), 8));
}
/* Lane i takes lane i - 1, lane 0 takes lane 15 of `fill`. */
AXIAL_INLINE __m512 up1_ps(__m512 v, __m512 fill) {
    return _mm512_castsi512_ps(
        _mm512_alignr_epi32(_mm512_castps_si512(v), _mm512_castps_si512(fill), 15));
}
/* The lane-reversal index of the low cnt lanes: lane i <- lane (cnt-1-i) mod 16
 * (the lanes at and above cnt read lanes at and above cnt). */
AXIAL_INLINE __m512i rev_idx(size_t cnt) {
    const __m512i iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    return _mm512_and_si512(_mm512_sub_epi32(_mm512_set1_epi32((int)cnt - 1), iota),
                            _mm512_set1_epi32(15));
}

/* The quad scans of a block (f32): s0 = v0, s1 = v1+v0, s2 = (v2+v1)+v0,
 * s3 = (v3+v2)+(v1+v0) in every 128-bit lane (one quad). */
AXIAL_INLINE __m512 quads_f32(__m512 v) {
    const __m512 a = _mm512_mask_add_ps(v, 0xEEEE, v, bsl_ps(v, 4));
    return _mm512_mask_add_ps(a, 0xCCCC, a, bsl_ps(a, 8));
}
/* The block's inclusive prefix p = s + E (E_0 = -0, E_1 = T0, E_2 = T1+T0,
 * E_3 = (T2+T1)+T0, T_q = s_{4q+3}). */
AXIAL_INLINE __m512 net_f32(__m512 v) {
    const __m512 negz = _mm512_set1_ps(-0.0f);
    const __m512 s = quads_f32(v);
    const __m512 u = _mm512_mask_permutexvar_ps(
        negz, 0xFFF0, _mm512_setr_epi32(0, 0, 0, 0, 3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11), s);
    const __m512 w = _mm512_mask_permutexvar_ps(
        negz, 0xFF00, _mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 7, 7, 7, 7), s);
    const __m512 z = _mm512_mask_permutexvar_ps(negz, 0xF000, _mm512_set1_epi32(3), s);
    return _mm512_add_ps(s, _mm512_add_ps(_mm512_add_ps(u, w), z));
}
AXIAL_INLINE double lane15_f32(__m512 p) {
    return (double)_mm_cvtss_f32(_mm_permute_ps(_mm512_extractf32x4_ps(p, 3), 3));
}

/* Four full blocks at once, each in memory order (rev: k-lane i is memory
 * lane 15 - i, so quads are memory quads 3 - q, each reversed, and the
 * network runs mirrored: no lane reversal).  The quad totals of the four
 * blocks are gathered into one vector (block u in lanes 4u .. 4u+3, k
 * order), whose own quad scan is E: Q_0 = T0 = E_1, Q_1 = T1+T0 = E_2,
 * Q_2 = (T2+T1)+T0 = E_3, and t = T3 + Q_2 (p_15 = s_15 + E_3). */
AXIAL_INLINE __m512 bsr_ps(__m512 v, int bytes) {
    return bytes == 4 ? _mm512_castsi512_ps(_mm512_bsrli_epi128(_mm512_castps_si512(v), 4))
                      : _mm512_castsi512_ps(_mm512_bsrli_epi128(_mm512_castps_si512(v), 8));
}
AXIAL_INLINE __m512 quads_dir(__m512 v, int rev) {
    if (!rev)
        return quads_f32(v);
    const __m512 a = _mm512_mask_add_ps(v, 0x7777, v, bsr_ps(v, 4));
    return _mm512_mask_add_ps(a, 0x3333, a, bsr_ps(a, 8));
}
/* F32: the first level's neighbours come from a masked load one element
 * off (lanes inside the block only), which spares a shuffle. */
AXIAL_INLINE __m512 quads_dir_mem(__m512 v, const char *p, int rev) {
    if (!rev) {
        const __m512 l = _mm512_maskz_loadu_ps(0xEEEE, (const void *)((uintptr_t)p - 4));
        const __m512 a = _mm512_mask_add_ps(v, 0xEEEE, v, l);
        return _mm512_mask_add_ps(a, 0xCCCC, a, bsl_ps(a, 8));
    }
    const __m512 a = _mm512_mask_add_ps(v, 0x7777, v, _mm512_maskz_loadu_ps(0x7777, p + 4));
    return _mm512_mask_add_ps(a, 0x3333, a, bsr_ps(a, 8));
}
AXIAL_INLINE __m256d net4_f32(enum axial_kind k, const __m512 v[4], const char *const ptr[4],
                              __m512 p[4], int rev) {
    const __m512 negz = _mm512_set1_ps(-0.0f);
    __m512 s[4];
    AXIAL_UNROLL
    for (int u = 0; u < 4; u++)
        s[u] = k == K_F32 ? quads_dir_mem(v[u], ptr[u], rev) : quads_dir(v[u], rev);
    const __m512i gi = rev ? _mm512_setr_epi32(12, 8, 4, 0, 28, 24, 20, 16, 0, 0, 0, 0, 0, 0, 0, 0)
                           : _mm512_setr_epi32(3, 7, 11, 15, 19, 23, 27, 31, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m512 a = _mm512_permutex2var_ps(s[0], gi, s[1]);
    const __m512 b = _mm512_permutex2var_ps(s[2], gi, s[3]);
    const __m512 T = _mm512_shuffle_f32x4(a, b, _MM_SHUFFLE(1, 0, 1, 0));
    const __m512 Q = quads_f32(T);
    AXIAL_UNROLL
    for (int u = 0; u < 4; u++) {
        const int q = 4 * u;
        const __m512i ei =
            rev ? _mm512_setr_epi32(q + 2, q + 2, q + 2, q + 2, q + 1, q + 1, q + 1, q + 1, q, q, q,
                                    q, 0, 0, 0, 0)
                : _mm512_setr_epi32(0, 0, 0, 0, q, q, q, q, q + 1, q + 1, q + 1, q + 1, q + 2, q + 2,
                                    q + 2, q + 2);
        p[u] = _mm512_add_ps(
            s[u], _mm512_mask_permutexvar_ps(negz, rev ? 0x0FFF : 0xFFF0, ei, Q));
    }
    const __m512 t = _mm512_add_ps(T, bsl_ps(Q, 4));
    return _mm256_cvtps_pd(_mm512_castps512_ps128(
        _mm512_permutexvar_ps(_mm512_setr_epi32(3, 7, 11, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), t)));
}

/* A full block of k-space at b (16 elements), in k order.  REVERSE: the lanes
 * are reversed here (the four-block path mirrors its network instead: the
 * same bits). */
AXIAL_INLINE __m512 blk_in(enum axial_kind k, const char *x, size_t len, size_t b, int rev) {
    if (!rev)
        return l_load(k, x + b * k_es(k));
    return _mm512_permutexvar_ps(rev_idx(16), l_load(k, x + (len - b - 16) * k_es(k)));
}
/* cnt < 16 elements of k-space at b, padded with -0.0. */
AXIAL_INLINE __m512 blk_in_part(enum axial_kind k, const char *x, size_t len, size_t b, size_t cnt,
                                int rev) {
    const __mmask16 m = (__mmask16)((1u << cnt) - 1);
    if (!rev)
        return l_load_mask(k, x + b * k_es(k), m);
    return _mm512_permutexvar_ps(rev_idx(cnt), l_load_mask(k, x + (len - b - cnt) * k_es(k), m));
}
AXIAL_INLINE void blk_out_part(enum axial_kind k, char *y, size_t len, size_t b, size_t cnt,
                               int rev,
                               __m512 o) {
    const __mmask16 m = (__mmask16)(cnt >= 16 ? 0xffffu : (1u << cnt) - 1);
    if (!rev)
        l_store_mask(k, y + b * k_es(k), m, o);
    else
        l_store_mask(k, y + (len - b - cnt) * k_es(k), m, _mm512_permutexvar_ps(rev_idx(cnt), o));
}
/* Four full blocks at b .. b + 63 of k-space, o[0] first, each in memory
 * order: streamed (whole aligned lines) or plain. */
AXIAL_INLINE void blk_out4(enum axial_kind k, char *y, size_t len, size_t b, int rev, __m512 o[4],
                           int nt) {
    const size_t es = k_es(k);
    __m512 m[4]; /* memory order, lowest address first */
    AXIAL_UNROLL
    for (int u = 0; u < 4; u++)
        m[u] = rev ? o[3 - u] : o[u];
    char *p = y + (rev ? len - b - 64 : b) * es;
    if (k == K_F32) {
        AXIAL_UNROLL
        for (int u = 0; u < 4; u++) {
            if (nt)
                _mm512_stream_ps((float *)(void *)(p + 64 * u), m[u]);
            else
                _mm512_storeu_ps(p + 64 * u, m[u]);
        }
        return;
    }
    AXIAL_UNROLL
    for (int u = 0; u < 4; u += 2) {
        const __m512i l = k == K_BF16 ? bf16_pack2(m[u], m[u + 1])
                                      : _mm512_inserti64x4(_mm512_castsi256_si512(l_narrow(k, m[u])),
                                                           l_narrow(k, m[u + 1]), 1);
        if (nt)
            _mm512_stream_si512((void *)(p + 64 * (u / 2)), l);
        else
            _mm512_storeu_si512(p + 64 * (u / 2), l);
    }
}

/* One line segment of len elements (f32 family) from the chunk carry R, in
 * the order's names: per chunk of AXIAL_SCAN_CHUNK elements D starts at R;
 * per block, with t its total p_15, D += t and S += t in f64; R += S at the
 * chunk's end.  Returns R. */
AXIAL_INLINE double line_f32c(enum axial_kind k, const char *x, char *y, size_t len, int excl,
                              int rev, int cont, double R, int nt) {
    const size_t es = k_es(k);
    const __m512 negz = _mm512_set1_ps(-0.0f);
    __mmask16 z0 = excl && !cont ? 1 : 0; /* the line's first output: +0.0 */
    if (nt)
        nt = (((uintptr_t)(rev ? y + len * es : y)) & 63) == 0;
    for (size_t h = 0; h < len; h += AXIAL_SCAN_CHUNK) {
        const size_t hend = len - h < AXIAL_SCAN_CHUNK ? len : h + AXIAL_SCAN_CHUNK;
        __m128d DS = _mm_setr_pd(R, -0.0); /* [D, S] */
        size_t b = h;
        for (; hend - b >= 64; b += 64) {
            __m512 v[4], p[4], o[4];
            const char *ptr[4];
            double t[4];
            float dc[4];
            AXIAL_UNROLL
            for (int u = 0; u < 4; u++) {
                ptr[u] = x + (rev ? len - b - 16 * (size_t)(u + 1) : b + 16 * (size_t)u) * es;
                v[u] = l_load(k, ptr[u]);
            }
            _mm256_storeu_pd(t, net4_f32(k, v, ptr, p, rev));
            /* The carries through memory: t and (C)D are then operands of
             * broadcasting additions, not shuffles.  [D, S] in one vector: one
             * addition per block for both chains. */
            __asm__("" : "+m"(t));
            AXIAL_UNROLL
            for (int u = 0; u < 4; u++) {
                _mm_store_ss(&dc[u], _mm_cvtpd_ps(DS));
                DS = _mm_add_pd(DS, _mm_set1_pd(t[u]));
            }
            __asm__("" : "+m"(dc));
            AXIAL_UNROLL
            for (int u = 0; u < 4; u++) {
                const __m512 e = !excl ? p[u]
                                 : rev ? _mm512_castsi512_ps(_mm512_alignr_epi32(
                                             _mm512_castps_si512(negz), _mm512_castps_si512(p[u]), 1))
                                       : up1_ps(p[u], negz);
                o[u] = _mm512_add_ps(_mm512_set1_ps(dc[u]), e);
            }
            if (excl) {
                o[0] = _mm512_mask_mov_ps(o[0], rev ? (__mmask16)(z0 << 15) : z0,
                                          _mm512_setzero_ps());
                z0 = 0;
            }
            blk_out4(k, y, len, b, rev, o, nt);
        }
        double D = _mm_cvtsd_f64(DS), S = _mm_cvtsd_f64(_mm_unpackhi_pd(DS, DS));
        for (; b < hend; b += 16) {
            const size_t cnt = hend - b < 16 ? hend - b : 16;
            const __m512 p = net_f32(cnt == 16 ? blk_in(k, x, len, b, rev)
                                               : blk_in_part(k, x, len, b, cnt, rev));
            const double t = lane15_f32(p);
            __m512 o = _mm512_add_ps(_mm512_set1_ps((float)D), excl ? up1_ps(p, negz) : p);
            if (excl) {
                o = _mm512_mask_mov_ps(o, z0, _mm512_setzero_ps());
                z0 = 0;
            }
            D += t;
            S += t;
            blk_out_part(k, y, len, b, cnt, rev, o);
        }
        R += S;
    }
    return R;
}

/* S of one chunk of len elements (a multiple of 16), f32 family. */
AXIAL_INLINE double total_f32c(enum axial_kind k, const char *x, size_t len, int rev) {
    double S = -0.0;
    size_t b = 0;
    for (; len - b >= 64; b += 64) {
        __m512 p[4];
        double t[4];
        __m512 v[4];
        const char *ptr[4];
        AXIAL_UNROLL
        for (int u = 0; u < 4; u++) {
            ptr[u] = x + (rev ? len - b - 16 * (size_t)(u + 1) : b + 16 * (size_t)u) * k_es(k);
            v[u] = l_load(k, ptr[u]);
        }
        _mm256_storeu_pd(t, net4_f32(k, v, ptr, p, rev));
        S = (((S + t[0]) + t[1]) + t[2]) + t[3];
    }
    for (; b < len; b += 16)
        S += lane15_f32(net_f32(blk_in(k, x, len, b, rev)));
    return S;
}

/* Lines of n <= 16 elements (f32 family), whole lines from a -0.0 carry: each
 * line is one block, so its outputs are the block's prefix (-0.0 + e == e).
 * The lines sit in groups of P lanes (P the power of two >= n), 16 / P of
 * them per vector (expanded when n < P); the network's levels that stay
 * inside a group are the block's own. */
AXIAL_INLINE void short_f32c(enum axial_kind k, const char *x, char *y, size_t lines, size_t n,
                             int excl, int rev, int nt) {
    const size_t es = k_es(k);
    const size_t P = n <= 1 ? 1 : n <= 2 ? 2 : n <= 4 ? 4 : n <= 8 ? 8 : 16, L = 16 / P;
    const __m512 negz = _mm512_set1_ps(-0.0f);
    __mmask16 mexp = 0, starts = 0;
    int32_t idx[16];
    for (size_t l = 0; l < 16; l++) {
        const size_t g = l / P * P, i = l % P;
        if (i < n)
            mexp |= (__mmask16)(1u << l);
        if (i == 0)
            starts |= (__mmask16)(1u << l);
        idx[l] = (int32_t)(g + ((n - 1 - i) & (P - 1)));
    }
    const __m512i ridx = _mm512_loadu_si512(idx);
    const __mmask16 m1 = P == 1 ? 0 : P == 2 ? 0xAAAA : 0xEEEE, m2 = P >= 4 ? 0xCCCC : 0;
    if (nt)
        nt = k == K_F32 && n == P && (((uintptr_t)y) & 63) == 0;
    for (size_t r = 0; r < lines; r += L) {
        const size_t cnt = lines - r < L ? lines - r : L, elems = cnt * n;
        const __mmask16 lm = (__mmask16)(elems >= 16 ? 0xffffu : (1u << elems) - 1);
        __m512 v = elems == 16 ? l_load(k, x + r * n * es) : l_load_mask(k, x + r * n * es, lm);
        if (n != P)
            v = _mm512_mask_expand_ps(negz, mexp, v);
        if (rev)
            v = _mm512_permutexvar_ps(ridx, v);
        __m512 p;
        if (P == 16) {
            p = net_f32(v);
        } else {
            p = v;
            if (m1)
                p = _mm512_mask_add_ps(p, m1, p, bsl_ps(p, 4));
            if (m2)
                p = _mm512_mask_add_ps(p, m2, p, bsl_ps(p, 8));
            if (P == 8)
                p = _mm512_add_ps(p, _mm512_mask_permutexvar_ps(
                                         negz, 0xF0F0,
                                         _mm512_setr_epi32(0, 0, 0, 0, 3, 3, 3, 3, 0, 0, 0, 0, 11,
                                                           11, 11, 11),
                                         p));
        }
        __m512 o = excl ? _mm512_maskz_mov_ps((__mmask16)~starts, up1_ps(p, negz)) : p;
        if (rev)
            o = _mm512_permutexvar_ps(ridx, o);
        if (n != P)
            o = _mm512_maskz_compress_ps(mexp, o);
        if (elems == 16 && nt)
            _mm512_stream_ps((float *)(void *)(y + r * n * es), o);
        else if (elems == 16)
            l_store(k, y + r * n * es, o);
        else
            l_store_mask(k, y + r * n * es, lm, o);
    }
}

/* ---- f64: the same network in f64, a block in two vectors (lanes 0-7, 8-15) -- */
struct blk64 {
    __m512d lo, hi;
};
AXIAL_INLINE __m512i rev_idx64(size_t cnt, int hi) {
    const __m512i iota = hi ? _mm512_setr_epi64(8, 9, 10, 11, 12, 13, 14, 15)
                            : _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    return _mm512_and_si512(_mm512_sub_epi64(_mm512_set1_epi64((long long)cnt - 1), iota),
                            _mm512_set1_epi64(15));
}
/* In k order: lane i <- memory lane (cnt-1-i) mod 16, and back (the same). */
AXIAL_INLINE struct blk64 rev64(struct blk64 m, size_t cnt) {
    struct blk64 r;
    r.lo = _mm512_permutex2var_pd(m.lo, rev_idx64(cnt, 0), m.hi);
    r.hi = _mm512_permutex2var_pd(m.lo, rev_idx64(cnt, 1), m.hi);
    return r;
}
AXIAL_INLINE struct blk64 blk64_in(const char *x, size_t len, size_t b, size_t cnt, int rev) {
    const char *p = x + (rev ? len - b - cnt : b) * 8;
    const __m512d negz = _mm512_set1_pd(-0.0);
    struct blk64 m;
    if (cnt == 16) {
        m.lo = _mm512_loadu_pd(p);
        m.hi = _mm512_loadu_pd(p + 64);
    } else {
        const unsigned mm = (1u << cnt) - 1;
        m.lo = _mm512_mask_loadu_pd(negz, (__mmask8)mm, p);
        m.hi = _mm512_mask_loadu_pd(negz, (__mmask8)(mm >> 8), p + 64);
    }
    return rev ? rev64(m, cnt) : m;
}
AXIAL_INLINE void blk64_out(char *y, size_t len, size_t b, size_t cnt, int rev, struct blk64 o,
                            int nt) {
    char *p = y + (rev ? len - b - cnt : b) * 8;
    if (rev)
        o = rev64(o, cnt);
    if (cnt == 16 && nt) {
        _mm512_stream_pd((double *)(void *)p, o.lo);
        _mm512_stream_pd((double *)(void *)(p + 64), o.hi);
    } else if (cnt == 16) {
        _mm512_storeu_pd(p, o.lo);
        _mm512_storeu_pd(p + 64, o.hi);
    } else {
        const unsigned mm = (1u << cnt) - 1;
        _mm512_mask_storeu_pd(p, (__mmask8)mm, o.lo);
        _mm512_mask_storeu_pd(p + 64, (__mmask8)(mm >> 8), o.hi);
    }
}
AXIAL_INLINE struct blk64 net_f64(struct blk64 v) {
    const __m512d negz = _mm512_set1_pd(-0.0);
    struct blk64 s, p;
    /* quads are the 256-bit halves: a_i = v_i + v_{i-1}, s_i = a_i + a_{i-2} */
    const __m512d alo = _mm512_mask_add_pd(v.lo, 0xEE, v.lo, _mm512_permutex_pd(v.lo, 0x90));
    const __m512d ahi = _mm512_mask_add_pd(v.hi, 0xEE, v.hi, _mm512_permutex_pd(v.hi, 0x90));
    s.lo = _mm512_mask_add_pd(alo, 0xCC, alo, _mm512_permutex_pd(alo, 0x40));
    s.hi = _mm512_mask_add_pd(ahi, 0xCC, ahi, _mm512_permutex_pd(ahi, 0x40));
    const __m512d elo = _mm512_mask_permutexvar_pd(negz, 0xF0, _mm512_set1_epi64(3), s.lo);
    const __m512d u = _mm512_permutex2var_pd(s.lo, _mm512_setr_epi64(7, 7, 7, 7, 11, 11, 11, 11),
                                             s.hi);                       /* T1 | T2 */
    const __m512d w = _mm512_permutexvar_pd(_mm512_setr_epi64(3, 3, 3, 3, 7, 7, 7, 7), s.lo);
    p.lo = _mm512_add_pd(s.lo, elo);
    p.hi = _mm512_add_pd(s.hi, _mm512_add_pd(_mm512_add_pd(u, w), elo));
    return p;
}
AXIAL_INLINE struct blk64 excl64(struct blk64 p) {
    struct blk64 e;
    e.lo = _mm512_castsi512_pd(_mm512_alignr_epi64(_mm512_castpd_si512(p.lo),
                                                   _mm512_castpd_si512(_mm512_set1_pd(-0.0)), 7));
    e.hi = _mm512_castsi512_pd(
        _mm512_alignr_epi64(_mm512_castpd_si512(p.hi), _mm512_castpd_si512(p.lo), 7));
    return e;
}
AXIAL_INLINE double lane15_f64(struct blk64 p) {
    return _mm_cvtsd_f64(_mm_unpackhi_pd(_mm512_extractf64x2_pd(p.hi, 3), _mm512_extractf64x2_pd(p.hi, 3)));
}

AXIAL_INLINE double line_f64(const char *x, char *y, size_t len, int excl, int rev, int cont,
                             double R, int nt) {
    __mmask8 z0 = excl && !cont ? 1 : 0;
    if (nt)
        nt = (((uintptr_t)(rev ? y + len * 8 : y)) & 63) == 0;
    for (size_t h = 0; h < len; h += AXIAL_SCAN_CHUNK) {
        const size_t hend = len - h < AXIAL_SCAN_CHUNK ? len : h + AXIAL_SCAN_CHUNK;
        double D = R, S = -0.0;
        for (size_t b = h; b < hend; b += 16) {
            const size_t cnt = hend - b < 16 ? hend - b : 16;
            const struct blk64 p = net_f64(blk64_in(x, len, b, cnt, rev));
            const double t = lane15_f64(p);
            const struct blk64 e = excl ? excl64(p) : p;
            const __m512d d = _mm512_set1_pd(D);
            struct blk64 o;
            o.lo = _mm512_add_pd(d, e.lo);
            o.hi = _mm512_add_pd(d, e.hi);
            if (excl) {
                o.lo = _mm512_mask_mov_pd(o.lo, z0, _mm512_setzero_pd());
                z0 = 0;
            }
            D += t;
            S += t;
            blk64_out(y, len, b, cnt, rev, o, nt);
        }
        R += S;
    }
    return R;
}
AXIAL_INLINE double total_f64(const char *x, size_t len, int rev) {
    double S = -0.0;
    for (size_t b = 0; b < len; b += 16)
        S += lane15_f64(net_f64(blk64_in(x, len, b, 16, rev)));
    return S;
}

/* ---- float entry points -------------------------------------------------------- */
/* Returns R after the segment (kernels.h: cumsum_seg). */
AXIAL_INLINE double seg_float(enum axial_kind k, const char *x, char *y, size_t len, int excl,
                              int rev, int cont, double carry, int nt) {
    if (k == K_F64)
        return line_f64(x, y, len, excl, rev, cont, carry, nt);
    return line_f32c(k, x, y, len, excl, rev, cont, carry, nt);
}

AXIAL_INLINE void cumsum_float(enum axial_kind k, const char *x, char *y, size_t outer, size_t n,
                               size_t inner, int excl, int rev, int stream) {
    const size_t es = k_es(k);
    const int nt = stream || outer * n * inner * es >= AXIAL_CUMSUM_NT;
    if (inner == 1 && n <= 16 && k != K_F64) {
        short_f32c(k, x, y, outer, n, excl, rev, nt);
    } else if (inner == 1) {
        for (size_t o = 0; o < outer; o++)
            seg_float(k, x + o * n * es, y + o * n * es, n, excl, rev, 0, -0.0, nt);
    } else {
        const char *xend = x + outer * n * inner * es;
        for (size_t o = 0; o < outer; o++)
            cols_matrix(k, x + o * n * inner * es, y + o * n * inner * es, n, inner, inner * es,
                        xend, excl, rev, nt);
    }
    if (nt)
        _mm_sfence();
}

AXIAL_INLINE void cumsum_float_flags(enum axial_kind k, const void *x, void *y, size_t outer,
                                     size_t n, size_t inner, unsigned flags) {
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const int st = (flags & AXIAL_KERNEL_STREAM) != 0;
    if (flags & AXIAL_CUMSUM_REVERSE)
        cumsum_float(k, (const char *)x, (char *)y, outer, n, inner, excl, 1, st);
    else
        cumsum_float(k, (const char *)x, (char *)y, outer, n, inner, excl, 0, st);
}

AXIAL_INLINE double cumsum_seg_kind(enum axial_kind k, const void *x, void *y, size_t len,
                                    unsigned flags, double carry) {
    const char *xc = (const char *)x;
    char *yc = (char *)y;
    const int cont = (flags & AXIAL_SCAN_CONTINUE) != 0;
    const int nt = (flags & AXIAL_KERNEL_STREAM) || len * k_es(k) >= AXIAL_CUMSUM_NT;
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const double R = flags & AXIAL_CUMSUM_REVERSE ? seg_float(k, xc, yc, len, excl, 1, cont, carry, nt)
                                                  : seg_float(k, xc, yc, len, excl, 0, cont, carry, nt);
    if (nt)
        _mm_sfence();
    return R;
}

AXIAL_INLINE double scan_total_kind(enum axial_kind k, const void *x, size_t len, unsigned flags) {
    const char *xc = (const char *)x;
    if (flags & AXIAL_CUMSUM_REVERSE)
        return k == K_F64 ? total_f64(xc, len, 1) : total_f32c(k, xc, len, 1);
    return k == K_F64 ? total_f64(xc, len, 0) : total_f32c(k, xc, len, 0);
}

/* A column tile of a split: tails are always masked (the columns past ncols
 * may belong to another tile). */
AXIAL_INLINE void cumsum_cols_kind(enum axial_kind k, const void *x, void *y, size_t n,
                                   size_t ncols,
                                   size_t stride, unsigned flags) {
    const char *xc = (const char *)x;
    char *yc = (char *)y;
    const size_t es = k_es(k);
    const int nt = (flags & AXIAL_KERNEL_STREAM) || n * ncols * es >= AXIAL_CUMSUM_NT;
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    if (flags & AXIAL_CUMSUM_REVERSE)
        cols_matrix(k, xc, yc, n, ncols, stride * es, NULL, excl, 1, nt);
    else
        cols_matrix(k, xc, yc, n, ncols, stride * es, NULL, excl, 0, nt);
    if (nt)
        _mm_sfence();
}

#define AXIAL_FLOAT_KERNELS(name, K)                                                          \
    void axial_cumsum_##name##__avx512(const void *x, void *y, size_t outer, size_t n,       \
                                       size_t inner, unsigned flags) {                       \
        cumsum_float_flags(K, x, y, outer, n, inner, flags);                                 \
    }                                                                                        \
    double axial_cumsum_seg_##name##__avx512(const void *x, void *y, size_t len,            \
                                             unsigned flags, double carry) {                 \
        return cumsum_seg_kind(K, x, y, len, flags, carry);                                  \
    }                                                                                        \
    double axial_scan_total_##name##__avx512(const void *x, size_t len, unsigned flags) {    \
        return scan_total_kind(K, x, len, flags);                                            \
    }                                                                                        \
    void axial_cumsum_cols_##name##__avx512(const void *x, void *y, size_t n, size_t ncols,  \
                                            size_t stride, unsigned flags) {                 \
        cumsum_cols_kind(K, x, y, n, ncols, stride, flags);                                  \
    }
AXIAL_FLOAT_KERNELS(f32, K_F32)
AXIAL_FLOAT_KERNELS(f64, K_F64)
AXIAL_FLOAT_KERNELS(f16, K_F16)
AXIAL_FLOAT_KERNELS(bf16, K_BF16)

#define AXIAL_CUMSUM_KERNEL(name, K)                                                    \
    void axial_cumsum_##name##__avx512(const void *x, void *y, size_t outer, size_t n, \
                                       size_t inner, unsigned flags) {                 \
        cumsum_kind(K, x, y, outer, n, inner, flags);                                  \
    }
AXIAL_CUMSUM_KERNEL(i8, K_I8)
AXIAL_CUMSUM_KERNEL(i16, K_I16)
AXIAL_CUMSUM_KERNEL(i32, K_I32)
AXIAL_CUMSUM_KERNEL(i64, K_I64)

/* Unsigned integers: the same wrapping bits as the signed kernel of their width. */
AXIAL_CUMSUM_UNSIGNED_KERNELS(avx512)
