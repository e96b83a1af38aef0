/* SPDX-License-Identifier: MIT */
/*
 * reduce.c: AdvSIMD (NEON) ReduceSum for every summable dtype.
 *   reduce:        y[o][i]    = sum_j x[o][j][i]   (shape (outer, n, inner))
 *   reduce_acc:    acc[o][i] += sum_j x[o][j][i]   (double for floats, uint64_t for integers)
 *   reduce_finish: y[k] = acc[k] rounded once to the element type
 *   reduce_cols:   acc[c] += sum_j x[j * stride + c], c < ncols (floats; kernels.h)
 * Two families of always-inline bodies, instantiated per kind and mode at the
 * end; signed and unsigned integers of one width share one.
 *
 * Floats follow the one summation order (docs/API.md, "One summation order";
 * tests/order_ref.c is its executable definition): the AVX2 / AVX-512 bits.
 * The order's 16-lane vector is 4 q registers of f32 (f64: 8), its 16 f64 sums
 * 8 float64x2 registers.  Columns (inner >= 16): one group of 8 rows streams
 * over a chunk of columns, the tree in C, widened to f64, one f64 add per
 * column (the chunk width changes no bit).  inner < 16: super-rows of
 * P = lcm(inner, 16) elements (the periodic path); rows (P = 16) keep their 16
 * sums in registers and fold them by vertical adds (FADDP adds adjacent lanes,
 * not the halving order, so it serves only for the last pair).  reduce_acc and
 * reduce_cols add into acc in the same order, so a split reduction has the
 * same bits.  Error: c = 4 + 1/2 ulp.
 *
 * Integers: vertical adds in the element's width (wrapping, exact modulo
 * 2^bits); reduce_acc adds the own-width sums zero-extended to acc.
 *
 * Tails: nothing outside x, y, acc is read or written.  Partial vectors are a
 * row's last 16 bytes with the lanes already counted masked to the identity,
 * or an identity-padded (-0.0 or 0) stack copy.  Pointers need only element
 * alignment.  Stack: at most about 8.5 KiB per call (large buffers sit in the
 * frames of their own paths).
 */
#include <stdbool.h>
#include <string.h>

#include "neon.h"

/* Loops over a constant number of vectors must unroll completely, or GCC
 * keeps the vectors in a stack array. */
#define RN_UNROLL _Pragma("GCC unroll 16")

enum { M_RED, M_ACC }; /* reduce (store the element type) or reduce_acc (add to wide acc) */

/* Column chunks bound the sums that a group of rows updates, and each row is
 * read in runs of a whole chunk, so the hardware prefetcher sees sequential
 * streams. */
#define RN_FCB 4096   /* float family, columns, reduce_acc / reduce_cols: columns per chunk (into acc) */
#define RN_OCB 16384  /* own-type family, wide columns, into y or acc: bytes per chunk */
/* Chunks whose sums are a stack row (a call may use only 16 KiB of the caller's
 * stack, README): float reduce (f64 sums: 8 KiB), e8..e32 reduce_acc (own width). */
#define RN_FSB 1024   /* float family, reduce: columns per chunk */
#define RN_OSB 4096   /* own-type family, e8..e32 reduce_acc: bytes per chunk */

/* rn_keep(b): bytes [0, b) all ones, [b, 16) zero (0 <= b <= 16). */
static const uint8_t rn_mask_tab[32] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
AXIAL_INLINE uint8x16_t rn_keep(size_t b) { return vld1q_u8(rn_mask_tab + 16 - b); }

static size_t rn_gcd(size_t a, size_t b) {
    while (b) {
        const size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* bytes (a multiple of 16) of the 16-byte pattern v. */
AXIAL_INLINE void rn_fill(uint8_t *p, size_t bytes, uint8x16_t v) {
    for (size_t i = 0; i < bytes; i += 16)
        vst1q_u8(p + i, v);
}
AXIAL_INLINE void rn_fill_d(double *d, size_t cnt) { /* -0.0, the identity of f64 addition */
    const float64x2_t z = vdupq_n_f64(-0.0);
    size_t i = 0;
    for (; i + 2 <= cnt; i += 2)
        vst1q_f64(d + i, z);
    if (i < cnt)
        d[i] = -0.0;
}

/* ======================================================================
 * Own-type (integer) family: i8/u8, i16/u16, i32/u32, i64/u64 (wrapping adds
 * in the element width).  A vector is a uint8x16_t; the kind says how to add.
 * ====================================================================== */
enum { K_E8, K_E16, K_E32, K_E64 };

AXIAL_INLINE size_t o_w(int k) { return k == K_E8 ? 1 : k == K_E16 ? 2 : k == K_E32 ? 4 : 8; }
AXIAL_INLINE size_t o_l(int k) { return 16 / o_w(k); }
AXIAL_INLINE uint8x16_t o_id(int k) {
    (void)k;
    return vdupq_n_u8(0);
}
AXIAL_INLINE uint8x16_t o_add(int k, uint8x16_t a, uint8x16_t b) {
    switch (k) {
    case K_E8: return vaddq_u8(a, b);
    case K_E16: return vreinterpretq_u8_u16(vaddq_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b)));
    case K_E32: return vreinterpretq_u8_u32(vaddq_u32(vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(b)));
    default: return vreinterpretq_u8_u64(vaddq_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b)));
    }
}
/* ADDP: the pair sums of a, then those of b. */
AXIAL_INLINE uint8x16_t o_addp(int k, uint8x16_t a, uint8x16_t b) {
    switch (k) {
    case K_E8: return vpaddq_u8(a, b);
    case K_E16: return vreinterpretq_u8_u16(vpaddq_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b)));
    case K_E32: return vreinterpretq_u8_u32(vpaddq_u32(vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(b)));
    default: return vreinterpretq_u8_u64(vpaddq_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b)));
    }
}
/* Pairwise tree of G (1, 2, 4, 8) vectors. */
AXIAL_INLINE uint8x16_t o_tree(int k, int G, const uint8x16_t *v) {
    if (G == 1) return v[0];
    if (G == 2) return o_add(k, v[0], v[1]);
    const uint8x16_t a = o_add(k, o_add(k, v[0], v[1]), o_add(k, v[2], v[3]));
    if (G == 4) return a;
    return o_add(k, a, o_add(k, o_add(k, v[4], v[5]), o_add(k, v[6], v[7])));
}

/* N (1, 2, 4, 8, 16) vectors -> one, by log2(N) levels of ADDP: when each
 * vector holds L/N whole rows of N lanes, lane j of the result is row j's sum.
 * The levels are written out: GCC 12 keeps a level loop rolled, the vectors
 * on the stack. */
AXIAL_INLINE uint8x16_t o_addp_tree(int k, int N, uint8x16_t *v) {
    if (N >= 16)
        RN_UNROLL for (int j = 0; j < 8; j++) v[j] = o_addp(k, v[2 * j], v[2 * j + 1]);
    if (N >= 8)
        RN_UNROLL for (int j = 0; j < 4; j++) v[j] = o_addp(k, v[2 * j], v[2 * j + 1]);
    if (N >= 4)
        RN_UNROLL for (int j = 0; j < 2; j++) v[j] = o_addp(k, v[2 * j], v[2 * j + 1]);
    if (N >= 2)
        v[0] = o_addp(k, v[0], v[1]);
    return v[0];
}

/* Wide (uint64) copies of the L lanes of s, L/2 vectors (e64: s itself). */
AXIAL_INLINE void o_widen(int k, uint8x16_t s, uint64x2_t *w) {
    if (k == K_E8) {
        const uint16x8_t h[2] = {vmovl_u8(vget_low_u8(s)), vmovl_high_u8(s)};
        RN_UNROLL for (int i = 0; i < 2; i++) {
            const uint32x4_t l = vmovl_u16(vget_low_u16(h[i])), u = vmovl_high_u16(h[i]);
            w[4 * i + 0] = vmovl_u32(vget_low_u32(l));
            w[4 * i + 1] = vmovl_high_u32(l);
            w[4 * i + 2] = vmovl_u32(vget_low_u32(u));
            w[4 * i + 3] = vmovl_high_u32(u);
        }
    } else if (k == K_E16) {
        const uint16x8_t h = vreinterpretq_u16_u8(s);
        const uint32x4_t l = vmovl_u16(vget_low_u16(h)), u = vmovl_high_u16(h);
        w[0] = vmovl_u32(vget_low_u32(l));
        w[1] = vmovl_high_u32(l);
        w[2] = vmovl_u32(vget_low_u32(u));
        w[3] = vmovl_high_u32(u);
    } else if (k == K_E32) {
        const uint32x4_t l = vreinterpretq_u32_u8(s);
        w[0] = vmovl_u32(vget_low_u32(l));
        w[1] = vmovl_high_u32(l);
    } else {
        w[0] = vreinterpretq_u64_u8(s);
    }
}
AXIAL_INLINE uint64x2_t o_wadd(int k, uint64x2_t a, uint64x2_t b) {
    (void)k;
    return vaddq_u64(a, b);
}

/* Outputs o .. o+cnt-1 (cnt <= L) from lanes 0 .. cnt-1 of s: stored in the
 * element type (reduce) or added to the 8-byte accumulators (reduce_acc; an
 * integer sum is zero-extended, only its low bits count). */
AXIAL_INLINE void o_emit(int k, int mode, void *y, size_t o, uint8x16_t s, size_t cnt) {
    const size_t w = o_w(k), L = o_l(k);
    if (mode == M_RED) {
        uint8_t *d = (uint8_t *)y + o * w;
        if (cnt == L) {
            vst1q_u8(d, s);
        } else {
            uint8_t b[16];
            vst1q_u8(b, s);
            memcpy(d, b, cnt * w);
        }
        return;
    }
    uint64x2_t wv[8];
    o_widen(k, s, wv);
    uint64_t *a = (uint64_t *)y + o;
    if (cnt == L) {
        RN_UNROLL for (size_t j = 0; j < L / 2; j++)
            vst1q_u64(a + 2 * j, o_wadd(k, vld1q_u64(a + 2 * j), wv[j]));
    } else {
        uint64_t b[16] = {0};
        memcpy(b, a, cnt * 8);
        RN_UNROLL for (size_t j = 0; j < L / 2; j++)
            vst1q_u64(b + 2 * j, o_wadd(k, vld1q_u64(b + 2 * j), wv[j]));
        memcpy(a, b, cnt * 8);
    }
}

/* As o_emit, where `room` outputs exist from o on: with room to spare a
 * whole vector goes out (reduce: the outputs past cnt get garbage that the
 * next write, in output order, replaces; reduce_acc: lanes >= cnt must be the
 * identity, the adds leave the next outputs unchanged). */
AXIAL_INLINE void o_emit_room(int k, int mode, void *y, size_t o, uint8x16_t s, size_t cnt,
                              size_t room) {
    const size_t L = o_l(k), nv = (cnt + 1) / 2;
    if (mode == M_RED && room >= L) {
        vst1q_u8((uint8_t *)y + o * o_w(k), s);
    } else if (mode == M_ACC && room >= 2 * nv) {
        uint64x2_t wv[8];
        o_widen(k, s, wv);
        uint64_t *a = (uint64_t *)y + o;
        RN_UNROLL for (size_t j = 0; j < L / 2; j++)
            if (j < nv)
                vst1q_u64(a + 2 * j, o_wadd(k, vld1q_u64(a + 2 * j), wv[j]));
    } else {
        o_emit(k, mode, y, o, s, cnt);
    }
}

/* One sum per output of a row: its own-width bits (reduce) or wide add. */
AXIAL_INLINE void o_emit1(int k, int mode, void *y, size_t o, uint8x16_t s) {
    uint64_t h;
    switch (k) {
    case K_E8: h = vaddvq_u8(s); break;
    case K_E16: h = vaddvq_u16(vreinterpretq_u16_u8(s)); break;
    case K_E32: h = vaddvq_u32(vreinterpretq_u32_u8(s)); break;
    default: h = vaddvq_u64(vreinterpretq_u64_u8(s)); break;
    }
    if (mode == M_ACC) {
        ((uint64_t *)y)[o] += h;
        return;
    }
    switch (k) {
    case K_E8: ((uint8_t *)y)[o] = (uint8_t)h; break;
    case K_E16: ((uint16_t *)y)[o] = (uint16_t)h; break;
    case K_E32: ((uint32_t *)y)[o] = (uint32_t)h; break;
    default: ((uint64_t *)y)[o] = h; break;
    }
}

/* The sum of nv whole vectors from p in 4 accumulators of the element's own
 * vector type: with uint8x16_t accumulators reinterpreted per add, GCC 12
 * copies every accumulator once per iteration. */
#define RN_VSUM(kn, VT, LD, ADD, TOU8, FROMU8)                                     \
    AXIAL_INLINE uint8x16_t o_vsum_##kn(const uint8_t *p, size_t nv, uint8x16_t idu8) { \
        const VT id = FROMU8(idu8);                                                \
        VT a0 = id, a1 = id, a2 = id, a3 = id;                                     \
        size_t v = 0;                                                              \
        for (; v + 4 <= nv; v += 4) {                                              \
            a0 = ADD(a0, LD(p + 16 * v));                                          \
            a1 = ADD(a1, LD(p + 16 * v + 16));                                     \
            a2 = ADD(a2, LD(p + 16 * v + 32));                                     \
            a3 = ADD(a3, LD(p + 16 * v + 48));                                     \
        }                                                                          \
        for (; v < nv; v++)                                                        \
            a0 = ADD(a0, LD(p + 16 * v));                                          \
        return TOU8(ADD(ADD(a0, a1), ADD(a2, a3)));                                \
    }
#define RN_LD8(q) vld1q_u8(q)
#define RN_LD16(q) vld1q_u16((const uint16_t *)(const void *)(q))
#define RN_LD32(q) vld1q_u32((const uint32_t *)(const void *)(q))
#define RN_LD64(q) vld1q_u64((const uint64_t *)(const void *)(q))
#define RN_ID(v) (v)
RN_VSUM(e8, uint8x16_t, RN_LD8, vaddq_u8, RN_ID, RN_ID)
RN_VSUM(e16, uint16x8_t, RN_LD16, vaddq_u16, vreinterpretq_u8_u16, vreinterpretq_u16_u8)
RN_VSUM(e32, uint32x4_t, RN_LD32, vaddq_u32, vreinterpretq_u8_u32, vreinterpretq_u32_u8)
RN_VSUM(e64, uint64x2_t, RN_LD64, vaddq_u64, vreinterpretq_u8_u64, vreinterpretq_u64_u8)
AXIAL_INLINE uint8x16_t o_vsum(int k, const uint8_t *p, size_t nv, uint8x16_t id) {
    switch (k) {
    case K_E8: return o_vsum_e8(p, nv, id);
    case K_E16: return o_vsum_e16(p, nv, id);
    case K_E32: return o_vsum_e32(p, nv, id);
    default: return o_vsum_e64(p, nv, id);
    }
}

/* ---- own type: rows (inner == 1, n > 4L) --------------------------------------
 * Four vector accumulators, 64 bytes per step; the last partial vector is the
 * row's last 16 bytes with the lanes already counted set to the identity. */
AXIAL_INLINE void o_rows(int k, int mode, const uint8_t *x, void *y, size_t outer, size_t n) {
    const size_t w = o_w(k), L = o_l(k), rb = n * w, nv = n / L, remb = (n % L) * w;
    const uint8x16_t id = o_id(k), skip = rn_keep(16 - remb);
    for (size_t o = 0; o < outer; o++) {
        const uint8_t *p = x + o * rb;
        uint8x16_t s = o_vsum(k, p, nv, id);
        if (remb)
            s = o_add(k, s, vbslq_u8(skip, id, vld1q_u8(p + rb - 16)));
        o_emit1(k, mode, y, o, s);
    }
}

/* ---- own type: short rows (inner == 1, n <= 4L), L rows per group --------------
 * n a power of two <= L: the group is n whole vectors; log2(n) levels of ADDP
 * leave one lane per row.  n == 3: LD3 de-interleaves, two adds.  Otherwise
 * each row is summed into one vector (its <= 4 vectors, the last with the
 * lanes past the row set to the identity), and the L row vectors go through
 * log2(L) levels of ADDP.  The last group, or a group whose loads would pass
 * the end of x, runs on an identity-padded copy. */
AXIAL_INLINE void o_group_pow2(int k, int mode, int N, const uint8_t *p, void *y, size_t o,
                               size_t cnt) {
    uint8x16_t v[16];
    RN_UNROLL for (int j = 0; j < N; j++)
        v[j] = vld1q_u8(p + 16 * j);
    o_emit(k, mode, y, o, o_addp_tree(k, N, v), cnt);
}
AXIAL_INLINE void o_group_ld3(int k, int mode, const uint8_t *p, void *y, size_t o, size_t cnt) {
    uint8x16_t a, b, c;
    switch (k) {
    case K_E8: {
        const uint8x16x3_t t = vld3q_u8(p);
        a = t.val[0], b = t.val[1], c = t.val[2];
        break;
    }
    case K_E16: {
        const uint16x8x3_t t = vld3q_u16((const uint16_t *)(const void *)p);
        a = vreinterpretq_u8_u16(t.val[0]), b = vreinterpretq_u8_u16(t.val[1]);
        c = vreinterpretq_u8_u16(t.val[2]);
        break;
    }
    case K_E32: {
        const uint32x4x3_t t = vld3q_u32((const uint32_t *)(const void *)p);
        a = vreinterpretq_u8_u32(t.val[0]), b = vreinterpretq_u8_u32(t.val[1]);
        c = vreinterpretq_u8_u32(t.val[2]);
        break;
    }
    default: {
        const uint64x2x3_t t = vld3q_u64((const uint64_t *)(const void *)p);
        a = vreinterpretq_u8_u64(t.val[0]), b = vreinterpretq_u8_u64(t.val[1]);
        c = vreinterpretq_u8_u64(t.val[2]);
        break;
    }
    }
    o_emit(k, mode, y, o, o_add(k, o_add(k, a, b), c), cnt);
}
AXIAL_INLINE uint8x16_t o_rowvec(int k, int V, const uint8_t *p, uint8x16_t keep, uint8x16_t id) {
    uint8x16_t v[4];
    RN_UNROLL for (int i = 0; i < V; i++)
        v[i] = vld1q_u8(p + 16 * i);
    v[V - 1] = vbslq_u8(keep, v[V - 1], id);
    if (V == 1) return v[0];
    if (V == 2) return o_add(k, v[0], v[1]);
    if (V == 3) return o_add(k, o_add(k, v[0], v[1]), v[2]);
    return o_add(k, o_add(k, v[0], v[1]), o_add(k, v[2], v[3]));
}
AXIAL_INLINE void o_group_gen(int k, int mode, int V, const uint8_t *p, size_t rb, uint8x16_t keep,
                              void *y, size_t o, size_t cnt) {
    const int L = (int)o_l(k);
    const uint8x16_t id = o_id(k);
    uint8x16_t r[16];
    RN_UNROLL for (int j = 0; j < L; j++)
        r[j] = o_rowvec(k, V, p + (size_t)j * rb, keep, id);
    o_emit(k, mode, y, o, o_addp_tree(k, L, r), cnt);
}

AXIAL_INLINE void o_short_pow2(int k, int mode, int N, const uint8_t *x, void *y, size_t outer) {
    const size_t L = o_l(k), gb = (size_t)N * 16; /* L rows of N elements */
    if ((size_t)N > L)
        return; /* never called so (n <= L); keeps the instance out of the code */
    const uint8_t *p = x;
    size_t o = 0;
    for (; o + 2 * L <= outer; o += 2 * L, p += 2 * gb) {
        o_group_pow2(k, mode, N, p, y, o, L);
        o_group_pow2(k, mode, N, p + gb, y, o + L, L);
    }
    for (; o < outer; o += L, p += gb) {
        if (o + L <= outer) {
            o_group_pow2(k, mode, N, p, y, o, L);
            continue;
        }
        uint8_t pad[256];
        rn_fill(pad, gb, o_id(k));
        memcpy(pad, p, (outer - o) * (size_t)N * o_w(k));
        o_group_pow2(k, mode, N, pad, y, o, outer - o);
    }
}
AXIAL_INLINE void o_short_ld3(int k, int mode, const uint8_t *x, void *y, size_t outer) {
    const size_t L = o_l(k);
    const uint8_t *p = x;
    size_t o = 0;
    for (; o + 2 * L <= outer; o += 2 * L, p += 96) {
        o_group_ld3(k, mode, p, y, o, L);
        o_group_ld3(k, mode, p + 48, y, o + L, L);
    }
    for (; o < outer; o += L, p += 48) {
        if (o + L <= outer) {
            o_group_ld3(k, mode, p, y, o, L);
            continue;
        }
        uint8_t pad[48];
        rn_fill(pad, 48, o_id(k));
        memcpy(pad, p, (outer - o) * 3 * o_w(k));
        o_group_ld3(k, mode, pad, y, o, outer - o);
    }
}
/* e8 rows of N = 5, 6, 7 bytes: 16 rows are N whole vectors; TBL (two source
 * registers, indices built once) spreads rows 2d, 2d+1 over the two 8-lane
 * halves of vector d, zero-filled past N (0 is the identity), then 3 levels
 * of ADDP give the 16 row sums. */
AXIAL_INLINE void o_group_tbl(int mode, int N, const uint8_t *p, const uint8x16_t *idx, void *y,
                              size_t o, size_t cnt) {
    uint8x16_t v[8], t[8];
    RN_UNROLL for (int j = 0; j < N; j++)
        v[j] = vld1q_u8(p + 16 * j);
    RN_UNROLL for (int d = 0; d < 8; d++) {
        const int s0 = 2 * d * N / 16, s1 = s0 + 1 < N ? s0 + 1 : s0;
        const uint8x16x2_t tab = {{v[s0], v[s1]}};
        t[d] = vqtbl2q_u8(tab, idx[d]);
    }
    o_emit(K_E8, mode, y, o, o_addp_tree(K_E8, 8, t), cnt);
}
AXIAL_INLINE void o_short_tbl(int mode, int N, const uint8_t *x, void *y, size_t outer) {
    const size_t gb = (size_t)N * 16;
    uint8_t ib[8][16];
    uint8x16_t idx[8];
    for (int d = 0; d < 8; d++) {
        for (int l = 0; l < 16; l++)
            ib[d][l] = (uint8_t)(l % 8 < N ? 2 * d * N % 16 + l / 8 * N + l % 8 : 0xff);
        idx[d] = vld1q_u8(ib[d]);
    }
    const uint8_t *p = x;
    size_t o = 0;
    for (; o + 16 <= outer; o += 16, p += gb)
        o_group_tbl(mode, N, p, idx, y, o, 16);
    if (o < outer) {
        uint8_t pad[112] = {0};
        memcpy(pad, p, (outer - o) * (size_t)N);
        o_group_tbl(mode, N, pad, idx, y, o, outer - o);
    }
}
AXIAL_INLINE void o_short_gen(int k, int mode, int V, const uint8_t *x, void *y, size_t outer,
                              size_t n) {
    const size_t w = o_w(k), L = o_l(k), rb = n * w, total = outer * rb;
    const uint8x16_t keep = rn_keep((n - (size_t)(V - 1) * L) * w);
    if (V == 1 && L < 8)
        return; /* n <= L < 8 is always 1, 2, 3 or 4: never called so */
    size_t o = 0;
    /* A row's loads pass its end by < 16 bytes: only the groups near the end
     * of x can pass it (for rows < 16 bytes, several of them). */
    for (; o + L <= outer && (o + L - 1) * rb + 16 * (size_t)V <= total; o += L)
        o_group_gen(k, mode, V, x + o * rb, rb, keep, y, o, L);
    for (; o < outer; o += L) {
        const size_t cnt = outer - o < L ? outer - o : L;
        uint8_t pad[16 * 64 + 64];
        rn_fill(pad, sizeof pad, o_id(k));
        memcpy(pad, x + o * rb, cnt * rb);
        o_group_gen(k, mode, V, pad, rb, keep, y, o, cnt);
    }
}

/* ---- own type: columns ----------------------------------------------------------
 * dst[0 .. nb) (own width) += the sum of nrows rows (stride sb bytes) over nb
 * bytes of whole vectors; rows in groups of 8 (a pairwise tree, then one add
 * to dst), the last < 8 rows in groups of 4, 2, 1.  With tdst, the same rows'
 * 16 bytes at toff are added to tdst in the same pass (the overlapping last
 * vector of a row whose length is not a multiple of 16 bytes). */
AXIAL_INLINE uint8x16_t o_gload(int k, int G, const uint8_t *p, size_t sb) {
    uint8x16_t v[8];
    RN_UNROLL for (int j = 0; j < G; j++)
        v[j] = vld1q_u8(p + (size_t)j * sb);
    return o_tree(k, G, v);
}
AXIAL_INLINE void o_cols_g(int k, int G, const uint8_t *x, size_t sb, size_t nb, uint8_t *dst,
                           size_t toff, uint8_t *tdst) {
    size_t i = 0;
    for (; i + 32 <= nb; i += 32) {
        const uint8x16_t s0 = o_gload(k, G, x + i, sb), s1 = o_gload(k, G, x + i + 16, sb);
        vst1q_u8(dst + i, o_add(k, vld1q_u8(dst + i), s0));
        vst1q_u8(dst + i + 16, o_add(k, vld1q_u8(dst + i + 16), s1));
    }
    if (i < nb)
        vst1q_u8(dst + i, o_add(k, vld1q_u8(dst + i), o_gload(k, G, x + i, sb)));
    if (tdst)
        vst1q_u8(tdst, o_add(k, vld1q_u8(tdst), o_gload(k, G, x + toff, sb)));
}
AXIAL_INLINE void o_cols(int k, const uint8_t *x, size_t sb, size_t nrows, size_t nb, uint8_t *dst,
                         size_t toff, uint8_t *tdst) {
    size_t j = 0;
    for (; j + 8 <= nrows; j += 8)
        o_cols_g(k, 8, x + j * sb, sb, nb, dst, toff, tdst);
    if (nrows - j >= 4) {
        o_cols_g(k, 4, x + j * sb, sb, nb, dst, toff, tdst);
        j += 4;
    }
    if (nrows - j >= 2) {
        o_cols_g(k, 2, x + j * sb, sb, nb, dst, toff, tdst);
        j += 2;
    }
    if (j < nrows)
        o_cols_g(k, 1, x + j * sb, sb, nb, dst, toff, tdst);
}

/* Wide columns (inner a multiple of L, or >= 4L): chunks of RN_OCB (RN_OSB for
 * e8..e32 reduce_acc) bytes of
 * columns, each summed over all n rows into its target: y itself (reduce,
 * started from a copy of row 0), acc itself (e64 reduce_acc), or a stack
 * chunk widened into acc at the end (e8..e32 reduce_acc).  A chunk whose
 * length is not a multiple of 16 bytes ends with an overlapping vector in its
 * own accumulator, whose new lanes are added at the end.  The last chunk is
 * never shorter than 16 bytes. */
AXIAL_INLINE void o_wide(int k, int mode, const uint8_t *x, void *y, size_t outer, size_t n,
                         size_t inner) {
    const size_t w = o_w(k), L = o_l(k), sb = inner * w;
    const uint8x16_t id = o_id(k);
    const bool direct = mode == M_RED || w == 8; /* the target has the element's width */
    uint8_t chunk[RN_OSB + 16]; /* e8..e32 reduce_acc only (dead otherwise) */
    const size_t cb = direct ? RN_OCB : RN_OSB;
    for (size_t o = 0; o < outer; o++) {
        const uint8_t *xo = x + o * n * sb;
        size_t cw;
        for (size_t c0 = 0; c0 < sb; c0 += cw) {
            const size_t r = sb - c0;
            cw = r < cb + 16 ? r : cb; /* bytes */
            const size_t nb = cw & ~(size_t)15, remb = cw - nb;
            uint8_t *t = direct ? (uint8_t *)y + (mode == M_RED ? o * sb : o * inner * 8) + c0
                                : chunk;
            uint8_t tail[16];
            vst1q_u8(tail, id);
            if (mode == M_RED || !direct) { /* start from row 0 */
                memcpy(t, xo + c0, nb);
                if (remb)
                    memset(t + nb, 0, remb); /* integer identity */
                if (remb)
                    vst1q_u8(tail, vld1q_u8(xo + c0 + cw - 16));
                o_cols(k, xo + sb + c0, sb, n - 1, nb, t, cw - 16, remb ? tail : NULL);
            } else {
                o_cols(k, xo + c0, sb, n, nb, t, cw - 16, remb ? tail : NULL);
            }
            if (remb) {
                const uint8x16_t tv = vbslq_u8(rn_keep(16 - remb), id, vld1q_u8(tail));
                vst1q_u8(t + cw - 16, o_add(k, vld1q_u8(t + cw - 16), tv));
            }
            if (!direct) { /* widen the chunk's sums into acc */
                uint64_t *a = (uint64_t *)y + o * inner + c0 / w;
                size_t i = 0;
                for (; i + 16 <= cw; i += 16)
                    o_emit(k, M_ACC, a, i / w, vld1q_u8(t + i), L);
                if (i < cw)
                    o_emit(k, M_ACC, a, i / w, vld1q_u8(t + i), (cw - i) / w);
            }
        }
    }
}

/* Narrow columns (1 < inner < 4L, not a multiple of L): x[o] is read as "super
 * rows" of P = lcm(inner, L) elements, whose lanes always hold the same
 * columns (lane p: column p mod inner), summed as whole-vector columns; the
 * n mod (P/inner) left-over rows are a padded partial super row; then the P
 * sums are folded mod inner. */
AXIAL_INLINE void o_narrow(int k, int mode, const uint8_t *x, void *y, size_t outer, size_t n,
                           size_t inner) {
    const size_t w = o_w(k), L = o_l(k), g = rn_gcd(inner, L), P = inner / g * L;
    const size_t m = P / inner, ns = n / m, left = n - ns * m, pb = P * w, ib = inner * w;
    const uint8x16_t id = o_id(k);
    uint8_t buf[1008 + 64], pad[1008];
    for (size_t o = 0; o < outer; o++) {
        const uint8_t *xo = x + o * n * ib;
        rn_fill(buf + pb, 64, id);
        if (ns) {
            memcpy(buf, xo, pb);
            o_cols(k, xo + pb, pb, ns - 1, pb, buf, 0, NULL);
        } else {
            rn_fill(buf, pb, id);
        }
        if (left) {
            rn_fill(pad, pb, id);
            memcpy(pad, xo + ns * pb, left * ib);
            o_cols(k, pad, 0, 1, pb, buf, 0, NULL);
        }
        for (size_t c = 0; c < inner; c += L) {
            const size_t cnt = inner - c < L ? inner - c : L;
            uint8x16_t s = id;
            for (size_t t = 0; t < m; t++)
                s = o_add(k, s, vld1q_u8(buf + t * ib + c * w));
            s = vbslq_u8(rn_keep(cnt * w), s, id);
            o_emit_room(k, mode, y, o * inner + c, s, cnt, (outer - o) * inner - c);
        }
    }
}

/* Narrow columns, inner < L, few rows (n < 2 P/inner): per x[o], the n rows'
 * vectors (16 bytes from each row's start, lanes past inner ignored) summed
 * in two accumulators, written with o_emit_room; an x[o] whose last load
 * would pass the end of x is read from an identity-padded copy. */
AXIAL_INLINE void o_narrow_small(int k, int mode, const uint8_t *x, void *y, size_t outer, size_t n,
                                 size_t inner) {
    const size_t w = o_w(k), ib = inner * w, bb = n * ib, total = outer * bb;
    const uint8x16_t id = o_id(k), keep = rn_keep(ib);
    for (size_t o = 0; o < outer; o++) {
        const uint8_t *xo = x + o * bb;
        uint8_t pad[32 * 16 + 16];
        if (o * bb + (n - 1) * ib + 16 > total) {
            rn_fill(pad, sizeof pad, id);
            memcpy(pad, xo, bb);
            xo = pad;
        }
        uint8x16_t a0 = id, a1 = id;
        size_t j = 0;
        for (; j + 2 <= n; j += 2) {
            a0 = o_add(k, a0, vld1q_u8(xo + j * ib));
            a1 = o_add(k, a1, vld1q_u8(xo + (j + 1) * ib));
        }
        if (j < n)
            a0 = o_add(k, a0, vld1q_u8(xo + j * ib));
        const uint8x16_t s = vbslq_u8(keep, o_add(k, a0, a1), id);
        o_emit_room(k, mode, y, o * inner, s, inner, (outer - o) * inner);
    }
}

AXIAL_INLINE void o_reduce(int k, int mode, const void *xv, void *y, size_t outer, size_t n,
                           size_t inner) {
    const uint8_t *x = (const uint8_t *)xv;
    const size_t L = o_l(k);
    if (inner == 1) {
        if (n > 4 * L) {
            o_rows(k, mode, x, y, outer, n);
        } else if (n == 3) {
            o_short_ld3(k, mode, x, y, outer);
        } else if (k == K_E8 && n >= 5 && n <= 7) {
            switch (n) {
            case 5: o_short_tbl(mode, 5, x, y, outer); break;
            case 6: o_short_tbl(mode, 6, x, y, outer); break;
            default: o_short_tbl(mode, 7, x, y, outer); break;
            }
        } else if ((n & (n - 1)) == 0 && n <= L) {
            switch (n) {
            case 1: o_short_pow2(k, mode, 1, x, y, outer); break;
            case 2: o_short_pow2(k, mode, 2, x, y, outer); break;
            case 4: o_short_pow2(k, mode, 4, x, y, outer); break;
            case 8: o_short_pow2(k, mode, 8, x, y, outer); break;
            default: o_short_pow2(k, mode, 16, x, y, outer); break;
            }
        } else {
            switch ((n + L - 1) / L) {
            case 1: o_short_gen(k, mode, 1, x, y, outer, n); break;
            case 2: o_short_gen(k, mode, 2, x, y, outer, n); break;
            case 3: o_short_gen(k, mode, 3, x, y, outer, n); break;
            default: o_short_gen(k, mode, 4, x, y, outer, n); break;
            }
        }
    } else if (inner % L == 0 || inner >= 4 * L) {
        o_wide(k, mode, x, y, outer, n, inner);
    } else if (n >= 2 * (L / rn_gcd(inner, L))) { /* at least two super rows */
        o_narrow(k, mode, x, y, outer, n, inner);
    } else if (inner < L) {
        o_narrow_small(k, mode, x, y, outer, n, inner);
    } else {
        o_wide(k, mode, x, y, outer, n, inner);
    }
}

/* reduce_finish: L outputs per step from L uint64 (UZP1 keeps the low halves). */
AXIAL_INLINE uint8x16_t o_pack(int k, const uint64_t *a) {
    if (k == K_E64)
        return vld1q_u8((const uint8_t *)a);
    uint32x4_t h[4];
    const int nh = k == K_E8 ? 4 : k == K_E16 ? 2 : 1;
    RN_UNROLL for (int i = 0; i < nh; i++)
        h[i] = vuzp1q_u32(vreinterpretq_u32_u64(vld1q_u64(a + 4 * i)),
                          vreinterpretq_u32_u64(vld1q_u64(a + 4 * i + 2)));
    if (k == K_E32) return vreinterpretq_u8_u32(h[0]);
    const uint16x8_t q0 = vuzp1q_u16(vreinterpretq_u16_u32(h[0]), vreinterpretq_u16_u32(h[1]));
    if (k == K_E16) return vreinterpretq_u8_u16(q0);
    const uint16x8_t q1 = vuzp1q_u16(vreinterpretq_u16_u32(h[2]), vreinterpretq_u16_u32(h[3]));
    return vuzp1q_u8(vreinterpretq_u8_u16(q0), vreinterpretq_u8_u16(q1));
}
AXIAL_INLINE void o_finish(int k, const void *accv, void *yv, size_t count) {
    const uint64_t *a = (const uint64_t *)accv;
    uint8_t *y = (uint8_t *)yv;
    const size_t w = o_w(k), L = o_l(k);
    size_t i = 0;
    for (; i + 2 * L <= count; i += 2 * L) {
        vst1q_u8(y + i * w, o_pack(k, a + i));
        vst1q_u8(y + i * w + 16, o_pack(k, a + i + L));
    }
    for (; i < count; i += L) {
        const size_t c = count - i < L ? count - i : L;
        uint64_t t[16] = {0};
        uint8_t b[16];
        memcpy(t, a + i, c * 8);
        vst1q_u8(b, o_pack(k, t));
        memcpy(y + i * w, b, c * w);
    }
}

/* ======================================================================
 * Float family: f32, f16, bf16, f64, in the one summation order (header).
 * C, the type of the trees, is f32 for f32, f16, bf16 (16-bit values widen
 * exactly: FCVTL / USHLL #16) and f64 for f64; sums are f64.  A "unit" is
 * 8 consecutive elements of a row: f32 two float32x4 (f16/bf16: one 16-byte
 * vector, widened to two float32x4), f64 four float64x2.
 * ====================================================================== */
enum { F_F32, F_F16, F_BF16, F_F64 };

AXIAL_INLINE size_t f_es(int k) { return k == F_F64 ? 8 : k == F_F32 ? 4 : 2; }
AXIAL_INLINE uint8x16_t f_id(int k) { /* -0.0 in every lane of the element type */
    switch (k) {
    case F_F32: return vreinterpretq_u8_u32(vdupq_n_u32(0x80000000u));
    case F_F64: return vreinterpretq_u8_u64(vdupq_n_u64(0x8000000000000000u));
    default: return vreinterpretq_u8_u16(vdupq_n_u16(0x8000u));
    }
}
/* The f32 lanes of raw vectors: f32 lo = r0, hi = r1; f16/bf16 lo/hi = r0's halves. */
AXIAL_INLINE void f_split(int k, uint8x16_t r0, uint8x16_t r1, float32x4_t *lo, float32x4_t *hi) {
    if (k == F_F32) {
        *lo = vreinterpretq_f32_u8(r0);
        *hi = vreinterpretq_f32_u8(r1);
    } else if (k == F_F16) {
        *lo = axial_neon_f16_lo(vreinterpretq_u16_u8(r0));
        *hi = axial_neon_f16_hi(vreinterpretq_u16_u8(r0));
    } else {
        *lo = axial_neon_bf16_lo(vreinterpretq_u16_u8(r0));
        *hi = axial_neon_bf16_hi(vreinterpretq_u16_u8(r0));
    }
}
AXIAL_INLINE float64x2_t f_wlo(float32x4_t v) { return vcvt_f64_f32(vget_low_f32(v)); }
AXIAL_INLINE float64x2_t f_whi(float32x4_t v) { return vcvt_high_f64_f32(v); }
/* The f64 pairs of a 16-byte vector of the element type: f32 2, f16/bf16 4, f64 1
 * (w[i] holds the vector's elements 2i, 2i+1). */
AXIAL_INLINE int f_widen(int k, uint8x16_t r, float64x2_t *w) {
    if (k == F_F64) {
        w[0] = vreinterpretq_f64_u8(r);
        return 1;
    }
    if (k == F_F32) {
        w[0] = f_wlo(vreinterpretq_f32_u8(r));
        w[1] = f_whi(vreinterpretq_f32_u8(r));
        return 2;
    }
    float32x4_t lo, hi;
    f_split(k, r, r, &lo, &hi);
    w[0] = f_wlo(lo), w[1] = f_whi(lo), w[2] = f_wlo(hi), w[3] = f_whi(hi);
    return 4;
}

/* The tree ((v0+v1)+(v2+v3))+((v4+v5)+(v6+v7)) of the first G (1..8) of v:
 * the absent rows are -0.0 and v + -0.0 == v, so their additions are left
 * out and the bits are those of the whole tree. */
#define RN_TREE(name, VT, ADD)                                                       \
    AXIAL_INLINE VT name(int G, const VT *v) {                                       \
        VT a[4], b[2];                                                               \
        int na = 0, nb = 0;                                                          \
        RN_UNROLL for (int i = 0; i < G; i += 2) a[na++] = i + 1 < G ? ADD(v[i], v[i + 1]) : v[i]; \
        RN_UNROLL for (int i = 0; i < na; i += 2) b[nb++] = i + 1 < na ? ADD(a[i], a[i + 1]) : a[i]; \
        return nb == 2 ? ADD(b[0], b[1]) : b[0];                                     \
    }
RN_TREE(f_tree32, float32x4_t, vaddq_f32)
RN_TREE(f_tree64, float64x2_t, vaddq_f64)

/* The unit at byte offset off of the rows r[0 .. G): its 8 column trees in
 * C, widened to f64: w[i] = columns 2i, 2i+1. */
AXIAL_INLINE void f_unit_tree(int k, int G, const uint8_t *const *r, size_t off, float64x2_t *w) {
    if (k == F_F64) {
        RN_UNROLL for (int i = 0; i < 4; i++) {
            float64x2_t v[8];
            RN_UNROLL for (int j = 0; j < G; j++)
                v[j] = vld1q_f64((const double *)(const void *)(r[j] + off + 16 * (size_t)i));
            w[i] = f_tree64(G, v);
        }
        return;
    }
    float32x4_t lo[8], hi[8];
    RN_UNROLL for (int j = 0; j < G; j++) {
        const uint8x16_t r0 = vld1q_u8(r[j] + off);
        f_split(k, r0, k == F_F32 ? vld1q_u8(r[j] + off + 16) : r0, &lo[j], &hi[j]);
    }
    const float32x4_t tl = f_tree32(G, lo), th = f_tree32(G, hi);
    w[0] = f_wlo(tl), w[1] = f_whi(tl), w[2] = f_wlo(th), w[3] = f_whi(th);
}
AXIAL_INLINE void f_add8(double *d, const float64x2_t *w) {
    RN_UNROLL for (int i = 0; i < 4; i++)
        vst1q_f64(d + 2 * i, vaddq_f64(vld1q_f64(d + 2 * i), w[i]));
}

/* ---- the column core ----------------------------------------------------------------
 * d[0 .. 8 nu) += the trees of one group of rows r[0 .. G) over nu units (each
 * column alone: a tree in C per column, widened, one f64 add into d); with
 * tdst, the unit at byte offset toff goes into tdst[0 .. 8) in the same pass
 * (the overlapping last unit of a width that is not a multiple of 8). */
AXIAL_INLINE void f_cols_g(int k, int G, const uint8_t *const *r, size_t nu, double *d, size_t toff,
                           double *tdst) {
    const size_t ub = 8 * f_es(k);
    for (size_t u = 0; u < nu; u++) {
        float64x2_t w[4];
        f_unit_tree(k, G, r, u * ub, w);
        f_add8(d + 8 * u, w);
    }
    if (tdst) {
        float64x2_t w[4];
        f_unit_tree(k, G, r, toff, w);
        f_add8(tdst, w);
    }
}
/* One group of G (0..8, run-time) rows given by pointers: the last, partial group. */
AXIAL_INLINE void f_cols_ptr_body(int k, const uint8_t *const *r, size_t G, size_t nu, double *d,
                                  size_t toff, double *tdst) {
    switch (G) {
    case 0: break;
    case 1: f_cols_g(k, 1, r, nu, d, toff, tdst); break;
    case 2: f_cols_g(k, 2, r, nu, d, toff, tdst); break;
    case 3: f_cols_g(k, 3, r, nu, d, toff, tdst); break;
    case 4: f_cols_g(k, 4, r, nu, d, toff, tdst); break;
    case 5: f_cols_g(k, 5, r, nu, d, toff, tdst); break;
    case 6: f_cols_g(k, 6, r, nu, d, toff, tdst); break;
    case 7: f_cols_g(k, 7, r, nu, d, toff, tdst); break;
    default: f_cols_g(k, 8, r, nu, d, toff, tdst); break;
    }
}
/* nrows rows from x, sb bytes apart: groups of 8 rows, then the last partial group. */
AXIAL_INLINE void f_cols_body(int k, const uint8_t *x, size_t sb, size_t nrows, size_t nu,
                              double *d,
                              size_t toff, double *tdst) {
    const uint8_t *r[8];
    size_t j = 0;
    for (; j + 8 <= nrows; j += 8) {
        RN_UNROLL for (int i = 0; i < 8; i++)
            r[i] = x + (j + (size_t)i) * sb;
        f_cols_g(k, 8, r, nu, d, toff, tdst);
    }
    for (size_t i = 0; i < nrows - j; i++)
        r[i] = x + (j + i) * sb;
    f_cols_ptr_body(k, r, nrows - j, nu, d, toff, tdst);
}
#define RN_COLS(kn, K)                                                                       \
    AXIAL_NOINLINE void f_cols_ptr_##kn(const uint8_t *const *r, size_t G, size_t nu, double *d, \
                                        size_t toff, double *tdst) {                        \
        f_cols_ptr_body(K, r, G, nu, d, toff, tdst);                                        \
    }                                                                                       \
    AXIAL_NOINLINE void f_cols_##kn(const uint8_t *x, size_t sb, size_t nrows, size_t nu,    \
                                    double *d, size_t toff, double *tdst) {                 \
        f_cols_body(K, x, sb, nrows, nu, d, toff, tdst);                                    \
    }
RN_COLS(f32, F_F32)
RN_COLS(f16, F_F16)
RN_COLS(bf16, F_BF16)
RN_COLS(f64, F_F64)
AXIAL_INLINE void f_cols_ptr(int k, const uint8_t *const *r, size_t G, size_t nu, double *d) {
    switch (k) {
    case F_F32: f_cols_ptr_f32(r, G, nu, d, 0, NULL); break;
    case F_F16: f_cols_ptr_f16(r, G, nu, d, 0, NULL); break;
    case F_BF16: f_cols_ptr_bf16(r, G, nu, d, 0, NULL); break;
    default: f_cols_ptr_f64(r, G, nu, d, 0, NULL); break;
    }
}
AXIAL_INLINE void f_cols(int k, const uint8_t *x, size_t sb, size_t nrows, size_t nu, double *d,
                         size_t toff, double *tdst) {
    switch (k) {
    case F_F32: f_cols_f32(x, sb, nrows, nu, d, toff, tdst); break;
    case F_F16: f_cols_f16(x, sb, nrows, nu, d, toff, tdst); break;
    case F_BF16: f_cols_bf16(x, sb, nrows, nu, d, toff, tdst); break;
    default: f_cols_f64(x, sb, nrows, nu, d, toff, tdst); break;
    }
}

/* ---- outputs --------------------------------------------------------------------- */
/* 8 doubles -> 8 elements at y, one rounding each. */
AXIAL_INLINE void f_put8(int k, uint8_t *y, const double *s) {
    const float64x2_t d0 = vld1q_f64(s), d1 = vld1q_f64(s + 2), d2 = vld1q_f64(s + 4),
                      d3 = vld1q_f64(s + 6);
    if (k == F_F64) {
        double *o = (double *)(void *)y;
        vst1q_f64(o, d0), vst1q_f64(o + 2, d1), vst1q_f64(o + 4, d2), vst1q_f64(o + 6, d3);
        return;
    }
    if (k == F_F32) {
        vst1q_f32((float *)(void *)y, axial_neon_f64x2_to_f32(d0, d1));
        vst1q_f32((float *)(void *)y + 4, axial_neon_f64x2_to_f32(d2, d3));
        return;
    }
    const float32x4_t lo = axial_neon_f64x2_to_f32_odd(d0, d1), hi = axial_neon_f64x2_to_f32_odd(d2, d3);
    vst1q_u16((uint16_t *)(void *)y,
              k == F_F16 ? axial_neon_f32x2_to_f16(lo, hi) : axial_neon_f32x2_to_bf16(lo, hi));
}
/* cnt doubles -> cnt elements (reduce) */
AXIAL_INLINE void f_store_n(int k, uint8_t *y, const double *s, size_t cnt) {
    const size_t es = f_es(k);
    size_t i = 0;
    for (; i + 8 <= cnt; i += 8)
        f_put8(k, y + i * es, s + i);
    if (i < cnt) {
        double t[8] = {0};
        uint8_t b[64];
        memcpy(t, s + i, (cnt - i) * 8);
        f_put8(k, b, t);
        memcpy(y + i * es, b, (cnt - i) * es);
    }
}
/* As f_store_n, where `room` outputs exist from y on: whole groups of 8 go
 * out while they fit (outputs past cnt get garbage, rewritten by the next
 * writes in order); s must be readable up to cnt rounded up to 8. */
AXIAL_INLINE void f_store_room(int k, uint8_t *y, const double *s, size_t cnt, size_t room) {
    const size_t es = f_es(k);
    size_t i = 0;
    for (; i < cnt && i + 8 <= room; i += 8)
        f_put8(k, y + i * es, s + i);
    if (i < cnt)
        f_store_n(k, y + i * es, s + i, cnt - i);
}
/* acc[0 .. cnt) += s[0 .. cnt) */
AXIAL_INLINE void f_acc_n(double *acc, const double *s, size_t cnt) {
    size_t i = 0;
    for (; i + 2 <= cnt; i += 2)
        vst1q_f64(acc + i, vaddq_f64(vld1q_f64(acc + i), vld1q_f64(s + i)));
    if (i < cnt)
        acc[i] += s[i];
}
/* Outputs o .. o+cnt-1 (cnt <= 4) from the sums d0 = {0, 1}, d1 = {2, 3}:
 * rounded once (reduce) or added to acc (reduce_acc). */
AXIAL_INLINE void f_emit_d(int k, int mode, void *y, size_t o, float64x2_t d0, float64x2_t d1,
                           size_t cnt) {
    if (mode == M_ACC) {
        double *a = (double *)y + o;
        if (cnt == 4) {
            vst1q_f64(a, vaddq_f64(vld1q_f64(a), d0));
            vst1q_f64(a + 2, vaddq_f64(vld1q_f64(a + 2), d1));
        } else {
            double t[4];
            vst1q_f64(t, d0);
            vst1q_f64(t + 2, d1);
            f_acc_n(a, t, cnt);
        }
        return;
    }
    uint8_t b[32];
    const size_t es = f_es(k);
    if (k == F_F64) {
        vst1q_f64((double *)(void *)b, d0);
        vst1q_f64((double *)(void *)b + 2, d1);
    } else if (k == F_F32) {
        vst1q_f32((float *)(void *)b, axial_neon_f64x2_to_f32(d0, d1));
    } else if (k == F_F16) {
        vst1_u16((uint16_t *)(void *)b, axial_neon_f64x2_to_f16(d0, d1));
    } else {
        vst1_u16((uint16_t *)(void *)b, axial_neon_f64x2_to_bf16(d0, d1));
    }
    memcpy((uint8_t *)y + o * es, b, cnt * es); /* constant size when cnt == 4 */
}

/* ---- inner < 16: the periodic order -------------------------------------------------
 * a[0 .. P) (f64, from -0.0) = the sums of the positions of the super-rows of
 * P elements of the flat run p[0 .. N): groups of 8 super-rows by the column
 * core; the last group's partial super-row is a -0.0 padded copy. */
AXIAL_INLINE void f_super(int k, const uint8_t *p, size_t N, size_t P, double *a) {
    const size_t es = f_es(k), pb = P * es, nfull = N / P, part = N - nfull * P;
    const size_t g8 = nfull / 8 * 8;
    rn_fill_d(a, P);
    if (g8)
        f_cols(k, p, pb, g8, P / 8, a, 0, NULL);
    const uint8_t *r[8];
    size_t G = 0;
    for (; g8 + G < nfull; G++)
        r[G] = p + (g8 + G) * pb;
    uint8_t pad[240 * 8];
    if (part) {
        rn_fill(pad, pb, f_id(k));
        memcpy(pad, p + nfull * pb, part * es);
        r[G++] = pad;
    }
    f_cols_ptr(k, r, G, P / 8, a);
}
/* P = 16 (inner 1, 2, 4, 8): the same, the 16 sums in registers while
 * whole groups of 8 super-rows last (one super-row = 4 f32 / 2 f16 / 8 f64
 * vectors; its 16 sums = 8 float64x2, A[i] = positions 2i, 2i+1). */
AXIAL_INLINE void f_super16(int k, const uint8_t *p, size_t N, double *a) {
    const size_t es = f_es(k), bb = 16 * es, ng = N / 128;
    float64x2_t A[8];
    RN_UNROLL for (int i = 0; i < 8; i++)
        A[i] = vdupq_n_f64(-0.0);
    for (size_t g = 0; g < ng; g++, p += 8 * bb) {
        const uint8_t *r[8];
        RN_UNROLL for (int j = 0; j < 8; j++)
            r[j] = p + (size_t)j * bb;
        RN_UNROLL for (int u = 0; u < 2; u++) {
            float64x2_t w[4];
            f_unit_tree(k, 8, r, (size_t)u * 8 * es, w);
            RN_UNROLL for (int i = 0; i < 4; i++)
                A[4 * u + i] = vaddq_f64(A[4 * u + i], w[i]);
            /* f32, f64: one unit's loads at a time; hoisting all 32 (f32)
             * above the trees needs 40 registers with A, and GCC 12 spills
             * (f16/bf16 do better without this barrier). */
            if (k == F_F32 || k == F_F64)
                __asm__ volatile("" ::: "memory");
        }
    }
    RN_UNROLL for (int i = 0; i < 8; i++)
        vst1q_f64(a + 2 * i, A[i]);
    const size_t left = N - ng * 128;
    if (left) {
        const size_t nb = left / 16, part = left % 16;
        const uint8_t *r[8];
        for (size_t j = 0; j < nb; j++)
            r[j] = p + j * bb;
        uint8_t pad[128];
        if (part) {
            rn_fill(pad, bb, f_id(k));
            memcpy(pad, p + nb * bb, part * es);
            r[nb] = pad;
        }
        f_cols_ptr(k, r, nb + (part != 0), 2, a);
    }
}
/* The halving fold of a[0 .. P) down to `inner` sums: a[p] += a[p + h]. */
AXIAL_INLINE void f_fold(double *a, size_t P, size_t inner) {
    for (size_t len = P; len > inner; len /= 2) {
        const size_t h = len / 2;
        size_t p = 0;
        for (; p + 2 <= h; p += 2)
            vst1q_f64(a + p, vaddq_f64(vld1q_f64(a + p), vld1q_f64(a + p + h)));
        if (p < h)
            a[p] += a[p + h];
    }
}
/* 1 < inner < 16: per x[o], the P sums, folded to inner, then acc + A (or A rounded). */
AXIAL_INLINE void f_periodic(int k, int mode, const uint8_t *x, void *y, size_t outer, size_t n,
                             size_t inner) {
    const size_t es = f_es(k), P = inner / rn_gcd(inner, AXIAL_ORDER_LANES) * AXIAL_ORDER_LANES;
    const size_t N = n * inner;
    double a[240];
    for (size_t o = 0; o < outer; o++) {
        const uint8_t *xo = x + o * N * es;
        if (P == AXIAL_ORDER_LANES)
            f_super16(k, xo, N, a);
        else
            f_super(k, xo, N, P, a);
        f_fold(a, P, inner);
        if (mode == M_RED)
            f_store_room(k, (uint8_t *)y + o * inner * es, a, inner, (outer - o) * inner);
        else
            f_acc_n((double *)y + o * inner, a, inner);
    }
}

/* Its own function per kind and mode, so that its stack (A and the padded
 * super-row, ~4 KiB) and f_wide's (8 KiB) are not one frame. */
#define RN_PERIODIC(kn, K)                                                                  \
    AXIAL_NOINLINE void f_periodic_red_##kn(const uint8_t *x, void *y, size_t outer, size_t n, \
                                            size_t inner) {                                 \
        f_periodic(K, M_RED, x, y, outer, n, inner);                                        \
    }                                                                                       \
    AXIAL_NOINLINE void f_periodic_acc_##kn(const uint8_t *x, void *y, size_t outer, size_t n, \
                                            size_t inner) {                                 \
        f_periodic(K, M_ACC, x, y, outer, n, inner);                                        \
    }
RN_PERIODIC(f32, F_F32)
RN_PERIODIC(f16, F_F16)
RN_PERIODIC(bf16, F_BF16)
RN_PERIODIC(f64, F_F64)
AXIAL_INLINE void f_periodic_call(int k, int mode, const uint8_t *x, void *y, size_t outer,
                                  size_t n, size_t inner) {
    const bool r = mode == M_RED;
    switch (k) {
    case F_F32: (r ? f_periodic_red_f32 : f_periodic_acc_f32)(x, y, outer, n, inner); break;
    case F_F16: (r ? f_periodic_red_f16 : f_periodic_acc_f16)(x, y, outer, n, inner); break;
    case F_BF16: (r ? f_periodic_red_bf16 : f_periodic_acc_bf16)(x, y, outer, n, inner); break;
    default: (r ? f_periodic_red_f64 : f_periodic_acc_f64)(x, y, outer, n, inner); break;
    }
}

/* ---- inner == 1, n > 16: rows -------------------------------------------------------
 * The row's 16 sums (f_super16), folded in the halving order by vertical adds
 * of their registers (A[i] += A[i+4], A[i] += A[i+2], A[0] += A[1]), the last
 * step A0 + A1 by FADDP; row sums leave four at a time. */
AXIAL_INLINE void f_rows(int k, int mode, const uint8_t *x, void *y, size_t outer, size_t n) {
    const size_t rb = n * f_es(k);
    double rs[4], a[16];
    for (size_t o = 0; o < outer; o++) {
        f_super16(k, x + o * rb, n, a);
        float64x2_t A[8];
        RN_UNROLL for (int i = 0; i < 8; i++)
            A[i] = vld1q_f64(a + 2 * i);
        RN_UNROLL for (int i = 0; i < 4; i++)
            A[i] = vaddq_f64(A[i], A[i + 4]);
        RN_UNROLL for (int i = 0; i < 2; i++)
            A[i] = vaddq_f64(A[i], A[i + 2]);
        rs[o & 3] = vpaddd_f64(vaddq_f64(A[0], A[1]));
        if ((o & 3) == 3)
            f_emit_d(k, mode, y, o - 3, vld1q_f64(rs), vld1q_f64(rs + 2), 4);
    }
    if (outer & 3)
        f_emit_d(k, mode, y, outer & ~(size_t)3, vld1q_f64(rs), vld1q_f64(rs + 2), outer & 3);
}

/* Rows per group of the short and medium rows, their sums leaving in pairs. */
AXIAL_INLINE int f_sg(int k) { return k == F_F32 || k == F_F64 ? 4 : 8; }
/* Emit the group's sums s[0 .. G/2) (pairs of rows). */
AXIAL_INLINE void f_emit_pairs(int k, int mode, void *y, size_t o, const float64x2_t *s,
                               size_t cnt) {
    f_emit_d(k, mode, y, o, s[0], s[1], cnt < 4 ? cnt : 4);
    if (f_sg(k) == 8 && cnt > 4)
        f_emit_d(k, mode, y, o + 4, s[2], s[3], cnt - 4);
}

/* ---- inner == 1, 16 < n <= 128: one group of NB = ceil(n / 16) blocks --------------
 * Per row, in registers: for each unit position (2 per block) the tree over
 * the NB blocks (the last block's lanes past the row set to -0.0 by BSL; its
 * absent blocks left out of the tree), widened to A[0..7], the halving fold
 * by vertical adds, and one FADDP finishes two rows, as for short rows.  The
 * rows whose loads would pass the end of x go through f_rows. */
AXIAL_INLINE float64x2_t f_rowtree(int k, int NB, const uint8_t *p, const uint8x16_t *km,
                                   uint8x16_t id) {
    const size_t es = f_es(k), bb = 16 * es;
    const int QU = (int)(8 * es / 16); /* q registers per unit */
    float64x2_t A[8];
    RN_UNROLL for (int u = 0; u < 2; u++) {
        if (k == F_F64) {
            RN_UNROLL for (int i = 0; i < 4; i++) {
                float64x2_t v[8];
                RN_UNROLL for (int b = 0; b < NB; b++) {
                    uint8x16_t r = vld1q_u8(p + (size_t)b * bb + (size_t)u * 64 + 16 * (size_t)i);
                    if (b == NB - 1)
                        r = vbslq_u8(km[u * 4 + i], r, id);
                    v[b] = vreinterpretq_f64_u8(r);
                }
                A[4 * u + i] = f_tree64(NB, v);
            }
            continue;
        }
        float32x4_t lo[8], hi[8];
        RN_UNROLL for (int b = 0; b < NB; b++) {
            const uint8_t *q = p + (size_t)b * bb + (size_t)u * 8 * es;
            uint8x16_t r0 = vld1q_u8(q), r1 = k == F_F32 ? vld1q_u8(q + 16) : r0;
            if (b == NB - 1) {
                r0 = vbslq_u8(km[u * QU], r0, id);
                if (k == F_F32)
                    r1 = vbslq_u8(km[u * QU + 1], r1, id);
            }
            f_split(k, r0, k == F_F32 ? r1 : r0, &lo[b], &hi[b]);
        }
        const float32x4_t tl = f_tree32(NB, lo), th = f_tree32(NB, hi);
        A[4 * u] = f_wlo(tl), A[4 * u + 1] = f_whi(tl), A[4 * u + 2] = f_wlo(th);
        A[4 * u + 3] = f_whi(th);
    }
    RN_UNROLL for (int i = 0; i < 4; i++)
        A[i] = vaddq_f64(A[i], A[i + 4]);
    RN_UNROLL for (int i = 0; i < 2; i++)
        A[i] = vaddq_f64(A[i], A[i + 2]);
    return vaddq_f64(A[0], A[1]);
}
AXIAL_INLINE void f_rows_mid(int k, int mode, int NB, const uint8_t *x, void *y, size_t outer,
                             size_t n) {
    const size_t es = f_es(k), rb = n * es, total = outer * rb, G = (size_t)f_sg(k);
    const size_t lastb = (n - 16 * (size_t)(NB - 1)) * es; /* bytes of the row in the last block */
    uint8x16_t km[8];
    RN_UNROLL for (int i = 0; i < 8; i++)
        km[i] = rn_keep(lastb > 16 * (size_t)i ? (lastb - 16 * (size_t)i < 16 ? lastb - 16 * (size_t)i : 16) : 0);
    const uint8x16_t id = f_id(k);
    size_t o = 0;
    for (; o + G <= outer && (o + G - 1) * rb + 16 * es * (size_t)NB <= total; o += G) {
        float64x2_t s[4];
        RN_UNROLL for (size_t j = 0; j < G; j += 2)
            s[j / 2] = vpaddq_f64(f_rowtree(k, NB, x + (o + j) * rb, km, id),
                                  f_rowtree(k, NB, x + (o + j + 1) * rb, km, id));
        f_emit_pairs(k, mode, y, o, s, G);
    }
    if (o < outer)
        f_rows(k, mode, x + o * rb,
               mode == M_RED ? (void *)((uint8_t *)y + o * es) : (void *)((double *)y + o),
               outer - o, n);
}

/* ---- inner == 1, n <= 16: short rows -------------------------------------------------
 * One partial super-row per row: its trees are the elements themselves, so a
 * row's sum is the halving fold of its elements widened to f64 (pads -0.0,
 * their additions left out): n = 2: x0 + x1; n = 3: (x0 + x2) + x1;
 * n = 4: (x0 + x2) + (x1 + x3); ... .
 * n <= 4: LDn de-interleaves a group of 4 rows (f16/bf16: 8; f64: two LDn of
 * 2) into vectors of one position each, widened to f64 pairs of rows, and
 * the fold is vertical.  5 <= n <= 16: each row's (<= 4) vectors from its
 * start, lanes past the row set to -0.0 (BSL), widened to f64 pairs
 * w[i] = positions 2i, 2i+1 and folded vertically (w[i] += w[i+4], w[i+2],
 * w[i+1]); the last step, position 0 + position 1, is one FADDP for two
 * rows.  The last group, or a group whose loads would pass the end of x, runs
 * on a -0.0 padded copy. */
AXIAL_INLINE void f_group_ldn(int k, int mode, int N, const uint8_t *p, void *y, size_t o,
                              size_t cnt) {
    /* v[i][h]: position i of rows 2h, 2h+1 (f64) */
    float64x2_t v[4][4];
    if (k == F_F64) {
        RN_UNROLL for (int h = 0; h < 2; h++) {
            const double *q = (const double *)(const void *)(p + (size_t)h * 16 * (size_t)N);
            if (N == 1) {
                v[0][h] = vld1q_f64(q);
            } else if (N == 2) {
                const float64x2x2_t t = vld2q_f64(q);
                v[0][h] = t.val[0], v[1][h] = t.val[1];
            } else if (N == 3) {
                const float64x2x3_t t = vld3q_f64(q);
                v[0][h] = t.val[0], v[1][h] = t.val[1], v[2][h] = t.val[2];
            } else {
                const float64x2x4_t t = vld4q_f64(q);
                v[0][h] = t.val[0], v[1][h] = t.val[1], v[2][h] = t.val[2], v[3][h] = t.val[3];
            }
        }
    } else if (k == F_F32) {
        const float *q = (const float *)(const void *)p;
        float32x4_t s[4];
        if (N == 1) {
            s[0] = vld1q_f32(q);
        } else if (N == 2) {
            const float32x4x2_t t = vld2q_f32(q);
            s[0] = t.val[0], s[1] = t.val[1];
        } else if (N == 3) {
            const float32x4x3_t t = vld3q_f32(q);
            s[0] = t.val[0], s[1] = t.val[1], s[2] = t.val[2];
        } else {
            const float32x4x4_t t = vld4q_f32(q);
            s[0] = t.val[0], s[1] = t.val[1], s[2] = t.val[2], s[3] = t.val[3];
        }
        RN_UNROLL for (int i = 0; i < N; i++)
            v[i][0] = f_wlo(s[i]), v[i][1] = f_whi(s[i]);
    } else {
        const uint16_t *q = (const uint16_t *)(const void *)p;
        uint16x8_t s[4];
        if (N == 1) {
            s[0] = vld1q_u16(q);
        } else if (N == 2) {
            const uint16x8x2_t t = vld2q_u16(q);
            s[0] = t.val[0], s[1] = t.val[1];
        } else if (N == 3) {
            const uint16x8x3_t t = vld3q_u16(q);
            s[0] = t.val[0], s[1] = t.val[1], s[2] = t.val[2];
        } else {
            const uint16x8x4_t t = vld4q_u16(q);
            s[0] = t.val[0], s[1] = t.val[1], s[2] = t.val[2], s[3] = t.val[3];
        }
        RN_UNROLL for (int i = 0; i < N; i++)
            f_widen(k, vreinterpretq_u8_u16(s[i]), v[i]);
    }
    const int H = f_sg(k) / 2;
    float64x2_t r[4];
    RN_UNROLL for (int h = 0; h < H; h++) {
        if (N == 1)
            r[h] = v[0][h];
        else if (N == 2)
            r[h] = vaddq_f64(v[0][h], v[1][h]);
        else if (N == 3)
            r[h] = vaddq_f64(vaddq_f64(v[0][h], v[2][h]), v[1][h]);
        else
            r[h] = vaddq_f64(vaddq_f64(v[0][h], v[2][h]), vaddq_f64(v[1][h], v[3][h]));
    }
    f_emit_pairs(k, mode, y, o, r, cnt);
}
AXIAL_INLINE void f_short_ldn(int k, int mode, int N, const uint8_t *x, void *y, size_t outer) {
    const size_t G = (size_t)f_sg(k), gb = G * (size_t)N * f_es(k); /* G rows of N elements */
    const uint8_t *p = x;
    size_t o = 0;
    for (; o + 2 * G <= outer; o += 2 * G, p += 2 * gb) {
        f_group_ldn(k, mode, N, p, y, o, G);
        f_group_ldn(k, mode, N, p + gb, y, o + G, G);
    }
    for (; o < outer; o += G, p += gb) {
        if (o + G <= outer) {
            f_group_ldn(k, mode, N, p, y, o, G);
            continue;
        }
        uint8_t pad[128];
        rn_fill(pad, gb, f_id(k));
        memcpy(pad, p, (outer - o) * (size_t)N * f_es(k));
        f_group_ldn(k, mode, N, pad, y, o, outer - o);
    }
}
/* reduce, n == 2: y = round(x0 + x1 in f64) is the sum x0 + x1 rounded once
 * in C (f32): a double rounding through a format of at least 2p + 2 bits is
 * innocuous for one addition (Figueroa; f64 53 >= 2 * 24 + 2, and f32 24 >=
 * 2 * 11 + 2 for f16 and 2 * 8 + 2 for bf16), overflow included.  So the
 * rows' sums are FADDP of the element vectors themselves (f16/bf16: widened
 * to f32, rounded once from f32); f64 adds in f64.  8 rows per step (f64: 4);
 * the last rows scalar, in the same arithmetic. */
AXIAL_INLINE void f_short_pair(int k, const uint8_t *x, void *yv, size_t outer) {
    uint8_t *y = (uint8_t *)yv;
    size_t o = 0;
    if (k == F_F64) {
        for (; o + 4 <= outer; o += 4) {
            const double *q = (const double *)(const void *)(x + o * 16);
            double *d = (double *)(void *)(y + o * 8);
            vst1q_f64(d, vpaddq_f64(vld1q_f64(q), vld1q_f64(q + 2)));
            vst1q_f64(d + 2, vpaddq_f64(vld1q_f64(q + 4), vld1q_f64(q + 6)));
        }
        for (; o < outer; o++) {
            double a, b;
            memcpy(&a, x + o * 16, 8);
            memcpy(&b, x + o * 16 + 8, 8);
            a += b;
            memcpy(y + o * 8, &a, 8);
        }
        return;
    }
    if (k == F_F32) {
        for (; o + 8 <= outer; o += 8) {
            const float *q = (const float *)(const void *)(x + o * 8);
            float *d = (float *)(void *)(y + o * 4);
            vst1q_f32(d, vpaddq_f32(vld1q_f32(q), vld1q_f32(q + 4)));
            vst1q_f32(d + 4, vpaddq_f32(vld1q_f32(q + 8), vld1q_f32(q + 12)));
        }
        for (; o < outer; o++) {
            float a, b;
            memcpy(&a, x + o * 8, 4);
            memcpy(&b, x + o * 8 + 4, 4);
            a += b;
            memcpy(y + o * 4, &a, 4);
        }
        return;
    }
    for (; o < outer; o += 8) {
        uint8_t pad[32];
        const uint8_t *p = x + o * 4;
        const size_t cnt = outer - o < 8 ? outer - o : 8;
        if (cnt < 8) {
            rn_fill(pad, 32, f_id(k));
            memcpy(pad, p, cnt * 4);
            p = pad;
        }
        float32x4_t a, b, c, d;
        f_split(k, vld1q_u8(p), vld1q_u8(p), &a, &b);
        f_split(k, vld1q_u8(p + 16), vld1q_u8(p + 16), &c, &d);
        const float32x4_t lo = vpaddq_f32(a, b), hi = vpaddq_f32(c, d);
        const uint16x8_t h = k == F_F16 ? axial_neon_f32x2_to_f16(lo, hi)
                                        : axial_neon_f32x2_to_bf16(lo, hi);
        if (cnt == 8) {
            vst1q_u16((uint16_t *)(void *)(y + o * 2), h);
        } else {
            uint8_t b16[16];
            vst1q_u16((uint16_t *)(void *)b16, h);
            memcpy(y + o * 2, b16, cnt * 2);
        }
    }
}

/* One row of 5..16 elements: V 16-byte vectors from p (the last masked by
 * keep), widened and folded to w[0] = {position 0, position 1} sums. */
AXIAL_INLINE float64x2_t f_rowfold(int k, int V, const uint8_t *p, uint8x16_t keep, uint8x16_t id) {
    float64x2_t w[8];
    int nw = 0;
    RN_UNROLL for (int i = 0; i < V; i++) {
        uint8x16_t r = vld1q_u8(p + 16 * (size_t)i);
        if (i == V - 1)
            r = vbslq_u8(keep, r, id);
        nw += f_widen(k, r, w + nw);
    }
    RN_UNROLL for (int h = 4; h >= 1; h /= 2)
        RN_UNROLL for (int i = 0; i < h; i++)
            if (i + h < nw)
                w[i] = vaddq_f64(w[i], w[i + h]);
    return w[0];
}
AXIAL_INLINE void f_group_gen(int k, int mode, int V, const uint8_t *p, size_t rb, uint8x16_t keep,
                              void *y, size_t o, size_t cnt) {
    const uint8x16_t id = f_id(k);
    const int G = f_sg(k);
    float64x2_t s[4];
    RN_UNROLL for (int j = 0; j < G; j += 2)
        s[j / 2] = vpaddq_f64(f_rowfold(k, V, p + (size_t)j * rb, keep, id),
                              f_rowfold(k, V, p + (size_t)(j + 1) * rb, keep, id));
    f_emit_pairs(k, mode, y, o, s, cnt);
}
AXIAL_INLINE void f_short_gen(int k, int mode, int V, const uint8_t *x, void *y, size_t outer,
                              size_t n) {
    const size_t es = f_es(k), rb = n * es, total = outer * rb, G = (size_t)f_sg(k);
    if ((size_t)V * 16 < 5 * es || (size_t)V * 16 > 16 * es + 15)
        return; /* never called so (5 <= n <= 16); keeps the instance out of the code */
    const uint8x16_t keep = rn_keep(rb - (size_t)(V - 1) * 16);
    size_t o = 0;
    for (; o + G <= outer && (o + G - 1) * rb + 16 * (size_t)V <= total; o += G)
        f_group_gen(k, mode, V, x + o * rb, rb, keep, y, o, G);
    for (; o < outer; o += G) {
        const size_t cnt = outer - o < G ? outer - o : G;
        uint8_t pad[4 * 128]; /* f64: 4 rows of 16 (f16: 8 rows of 32 bytes) */
        rn_fill(pad, sizeof pad, f_id(k));
        memcpy(pad, x + o * rb, cnt * rb);
        f_group_gen(k, mode, V, pad, rb, keep, y, o, cnt);
    }
}

/* ---- inner >= 16: columns -----------------------------------------------------------
 * acc[c] += column c of the ncols (>= 8) columns at x, rows sb bytes apart:
 * chunks of cb columns (the last one 8 .. cb + 7), each summed over all n
 * rows by the column core into acc itself, so acc = ((acc + g0) + g1) + ...
 * per column.  A chunk whose width is not a multiple of 8 ends with an
 * overlapping unit summed into a copy t of its 8 accumulators in the same
 * pass; its lanes that no whole unit covers are copied back. */
AXIAL_INLINE void f_colsum(int k, const uint8_t *x, size_t sb, size_t n, size_t ncols, double *acc,
                           size_t cb) {
    const size_t es = f_es(k);
    size_t cw;
    for (size_t c0 = 0; c0 < ncols; c0 += cw) {
        const size_t r = ncols - c0;
        cw = r < cb + 8 ? r : cb;
        const size_t nu = cw / 8, rem = cw % 8;
        double *d = acc + c0, t[8];
        if (rem)
            memcpy(t, d + cw - 8, sizeof t);
        f_cols(k, x + c0 * es, sb, n, nu, d, (cw - 8) * es, rem ? t : NULL);
        if (rem)
            memcpy(d + cw - rem, t + 8 - rem, rem * sizeof *t);
    }
}
/* One element widened to C (held in a double: exact). */
AXIAL_INLINE double f_get1(int k, const uint8_t *p) {
    switch (k) {
    case F_F32: { float v; memcpy(&v, p, 4); return v; }
    case F_F64: { double v; memcpy(&v, p, 8); return v; }
    default: {
        uint16_t h;
        memcpy(&h, p, 2);
        const uint16x8_t u = vdupq_n_u16(h);
        return vgetq_lane_f32(k == F_F16 ? axial_neon_f16_lo(u) : axial_neon_bf16_lo(u), 0);
    }
    }
}
/* Fewer than 8 columns (a narrow tile of reduce_cols): each column alone,
 * scalar, in the same order (the tree in C: float for f32/f16/bf16). */
AXIAL_INLINE void f_colsum_narrow(int k, const uint8_t *x, size_t sb, size_t n, size_t ncols,
                                  double *acc) {
    const size_t es = f_es(k);
    for (size_t c = 0; c < ncols; c++) {
        double a = acc[c];
        for (size_t g = 0; g < n; g += 8) {
            double v[8];
            for (size_t j = 0; j < 8; j++)
                v[j] = g + j < n ? f_get1(k, x + (g + j) * sb + c * es) : -0.0;
            if (k == F_F64) {
                a += ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
            } else {
                float f[8];
                for (int j = 0; j < 8; j++)
                    f[j] = (float)v[j];
                a += (double)(((f[0] + f[1]) + (f[2] + f[3])) + ((f[4] + f[5]) + (f[6] + f[7])));
            }
        }
        acc[c] = a;
    }
}
/* Whole shapes, inner >= 16: reduce sums chunks of RN_FSB columns into a
 * stack row of f64 (from -0.0) and rounds them; reduce_acc sums into acc. */
AXIAL_INLINE void f_wide(int k, int mode, const uint8_t *x, void *y, size_t outer, size_t n,
                         size_t inner) {
    const size_t es = f_es(k), sb = inner * es;
    double buf[RN_FSB + 8]; /* reduce only (dead for reduce_acc) */
    for (size_t o = 0; o < outer; o++) {
        const uint8_t *xo = x + o * n * sb;
        if (mode == M_ACC) {
            f_colsum(k, xo, sb, n, inner, (double *)y + o * inner, RN_FCB);
            continue;
        }
        size_t cw;
        for (size_t c0 = 0; c0 < inner; c0 += cw) {
            const size_t r = inner - c0;
            cw = r < RN_FSB + 8 ? r : RN_FSB;
            rn_fill_d(buf, cw);
            f_colsum(k, xo + c0 * es, sb, n, cw, buf, RN_FSB + 8);
            f_store_n(k, (uint8_t *)y + (o * inner + c0) * es, buf, cw);
        }
    }
}

/* Its own function per kind and mode too: its 8 KiB of sums are not in the
 * frame of the other paths. */
#define RN_WIDE(kn, K)                                                                      \
    AXIAL_NOINLINE void f_wide_red_##kn(const uint8_t *x, void *y, size_t outer, size_t n,  \
                                        size_t inner) {                                     \
        f_wide(K, M_RED, x, y, outer, n, inner);                                            \
    }                                                                                       \
    AXIAL_NOINLINE void f_wide_acc_##kn(const uint8_t *x, void *y, size_t outer, size_t n,  \
                                        size_t inner) {                                     \
        f_wide(K, M_ACC, x, y, outer, n, inner);                                            \
    }
RN_WIDE(f32, F_F32)
RN_WIDE(f16, F_F16)
RN_WIDE(bf16, F_BF16)
RN_WIDE(f64, F_F64)
AXIAL_INLINE void f_wide_call(int k, int mode, const uint8_t *x, void *y, size_t outer, size_t n,
                              size_t inner) {
    const bool r = mode == M_RED;
    switch (k) {
    case F_F32: (r ? f_wide_red_f32 : f_wide_acc_f32)(x, y, outer, n, inner); break;
    case F_F16: (r ? f_wide_red_f16 : f_wide_acc_f16)(x, y, outer, n, inner); break;
    case F_BF16: (r ? f_wide_red_bf16 : f_wide_acc_bf16)(x, y, outer, n, inner); break;
    default: (r ? f_wide_red_f64 : f_wide_acc_f64)(x, y, outer, n, inner); break;
    }
}

AXIAL_INLINE void f_reduce(int k, int mode, const void *xv, void *y, size_t outer, size_t n,
                           size_t inner) {
    const uint8_t *x = (const uint8_t *)xv;
    if (inner >= AXIAL_ORDER_LANES) {
        f_wide_call(k, mode, x, y, outer, n, inner);
    } else if (inner > 1) {
        f_periodic_call(k, mode, x, y, outer, n, inner);
    } else if (n > 128) {
        f_rows(k, mode, x, y, outer, n);
    } else if (n > 16) {
        switch ((n + 15) / 16) {
        case 2: f_rows_mid(k, mode, 2, x, y, outer, n); break;
        case 3: f_rows_mid(k, mode, 3, x, y, outer, n); break;
        case 4: f_rows_mid(k, mode, 4, x, y, outer, n); break;
        case 5: f_rows_mid(k, mode, 5, x, y, outer, n); break;
        case 6: f_rows_mid(k, mode, 6, x, y, outer, n); break;
        case 7: f_rows_mid(k, mode, 7, x, y, outer, n); break;
        default: f_rows_mid(k, mode, 8, x, y, outer, n); break;
        }
    } else if (mode == M_RED && n == 1) {
        memcpy(y, x, outer * f_es(k)); /* x0 widened and rounded back: x0 */
    } else if (mode == M_RED && n == 2) {
        f_short_pair(k, x, y, outer);
    } else if (n <= 4) {
        switch (n) {
        case 1: f_short_ldn(k, mode, 1, x, y, outer); break;
        case 2: f_short_ldn(k, mode, 2, x, y, outer); break;
        case 3: f_short_ldn(k, mode, 3, x, y, outer); break;
        default: f_short_ldn(k, mode, 4, x, y, outer); break;
        }
    } else {
        switch ((n * f_es(k) + 15) / 16) {
        case 1: f_short_gen(k, mode, 1, x, y, outer, n); break;
        case 2: f_short_gen(k, mode, 2, x, y, outer, n); break;
        case 3: f_short_gen(k, mode, 3, x, y, outer, n); break;
        case 4: f_short_gen(k, mode, 4, x, y, outer, n); break;
        case 5: f_short_gen(k, mode, 5, x, y, outer, n); break;
        case 6: f_short_gen(k, mode, 6, x, y, outer, n); break;
        case 7: f_short_gen(k, mode, 7, x, y, outer, n); break;
        default: f_short_gen(k, mode, 8, x, y, outer, n); break;
        }
    }
}

AXIAL_INLINE void f_finish(int k, const void *accv, void *yv, size_t count) {
    f_store_n(k, (uint8_t *)yv, (const double *)accv, count);
}

AXIAL_INLINE void f_reduce_cols(int k, const void *xv, void *accv, size_t n, size_t ncols,
                                size_t stride) {
    const uint8_t *x = (const uint8_t *)xv;
    const size_t sb = stride * f_es(k);
    if (ncols >= 8)
        f_colsum(k, x, sb, n, ncols, (double *)accv, RN_FCB);
    else
        f_colsum_narrow(k, x, sb, n, ncols, (double *)accv);
}

/* ======================================================================
 * Entry points.  Signed and unsigned integers of one width share a body.
 * ====================================================================== */
#define RN_OWN(kn, K)                                                                      \
    AXIAL_NOINLINE void rn_reduce_##kn(const void *x, void *y, size_t outer, size_t n,     \
                                       size_t inner) {                                     \
        o_reduce(K, M_RED, x, y, outer, n, inner);                                         \
    }                                                                                      \
    AXIAL_NOINLINE void rn_reduce_acc_##kn(const void *x, void *acc, size_t outer, size_t n, \
                                           size_t inner) {                                 \
        o_reduce(K, M_ACC, x, acc, outer, n, inner);                                       \
    }                                                                                      \
    AXIAL_NOINLINE void rn_finish_##kn(const void *acc, void *y, size_t count) {           \
        o_finish(K, acc, y, count);                                                        \
    }
RN_OWN(e8, K_E8)
RN_OWN(e16, K_E16)
RN_OWN(e32, K_E32)
RN_OWN(e64, K_E64)

#define RN_FLT(kn, K)                                                                      \
    AXIAL_NOINLINE void rn_reduce_##kn(const void *x, void *y, size_t outer, size_t n,     \
                                       size_t inner) {                                     \
        f_reduce(K, M_RED, x, y, outer, n, inner);                                         \
    }                                                                                      \
    AXIAL_NOINLINE void rn_reduce_acc_##kn(const void *x, void *acc, size_t outer, size_t n, \
                                           size_t inner) {                                 \
        f_reduce(K, M_ACC, x, acc, outer, n, inner);                                       \
    }                                                                                      \
    AXIAL_NOINLINE void rn_finish_##kn(const void *acc, void *y, size_t count) {           \
        f_finish(K, acc, y, count);                                                        \
    }                                                                                      \
    void axial_reduce_cols_##kn##__neon(const void *x, void *acc, size_t n, size_t ncols,  \
                                        size_t stride) {                                   \
        f_reduce_cols(K, x, acc, n, ncols, stride);                                        \
    }
RN_FLT(f32, F_F32)
RN_FLT(f16, F_F16)
RN_FLT(bf16, F_BF16)
RN_FLT(f64, F_F64)

#define RN_ENTRY(name, kn)                                                                 \
    void axial_reduce_##name##__neon(const void *x, void *y, size_t outer, size_t n,       \
                                     size_t inner, unsigned flags) {                       \
        (void)flags; /* stores plainly */                                                  \
        rn_reduce_##kn(x, y, outer, n, inner);                                             \
    }                                                                                      \
    void axial_reduce_acc_##name##__neon(const void *x, void *acc, size_t outer, size_t n, \
                                         size_t inner) {                                   \
        rn_reduce_acc_##kn(x, acc, outer, n, inner);                                       \
    }                                                                                      \
    void axial_reduce_finish_##name##__neon(const void *acc, void *y, size_t count) {      \
        rn_finish_##kn(acc, y, count);                                                     \
    }
RN_ENTRY(f32, f32)
RN_ENTRY(f64, f64)
RN_ENTRY(f16, f16)
RN_ENTRY(bf16, bf16)
RN_ENTRY(i8, e8)
RN_ENTRY(u8, e8)
RN_ENTRY(i16, e16)
RN_ENTRY(u16, e16)
RN_ENTRY(i32, e32)
RN_ENTRY(u32, e32)
RN_ENTRY(i64, e64)
RN_ENTRY(u64, e64)
