/* SPDX-License-Identifier: MIT */
/*
 * cumsum.c: AdvSIMD (NEON) CumSum for every summable dtype: the whole-shape
 * kernel over (outer, n, inner), flags EXCLUSIVE / REVERSE, and the float
 * split kernels cumsum_seg, cumsum_run, scan_total, cumsum_cols (kernels.h).
 *
 * Floats follow the one summation order (docs/API.md, "One summation order";
 * tests/order_ref.c is its executable definition): the AVX2 / AVX-512 bits.
 * Lines (inner == 1): the order's 16-element block is four q registers, one
 * quad each in memory order (F64: eight).  The quad scan is two EXT + FADD
 * steps, the quad offsets come from DUPs of the quad totals, and the f64
 * carries take one add per block, so the loop runs two blocks per step.
 * REVERSE maps k-quad j to memory quad 3 - j and scans each quad downwards.
 * Lines shorter than 16 are one block with a -0.0 carry: n = 4 one line per
 * register, n = 2, 3 by LD2 / LD3 (the quad scan across registers), n = 1 a
 * copy.  Columns (inner > 1): each column a sequential f64 sum, in register
 * tiles.  F16 / BF16 widen exactly and round once (neon.h).  Error: c = 7 on
 * lines, 2 on columns.
 *
 * Integers: one generic body on logical vectors of W lanes, wrapping adds,
 * specialised per kind and flags (paths 1-3 below; the float column tiles
 * reuse it with f64 lanes).
 *
 * Tails: nothing outside the tensor is read or written.  A partial vector is a
 * full vector overlapping done work (masked, or recomputing the same bits), a
 * stack buffer (a float line's last block, padded with -0.0), or piecewise
 * moves.  In place: every store covers only elements already loaded, and an
 * exclusive line's leading +0.0 is written last.
 */
#include <string.h>

#include "neon.h"
#include "cols_run.h"

/* Short loops over the registers of one step must unroll (arrays -> registers). */
#define AXIAL_UNROLL _Pragma("GCC unroll 16")
/* Vectors per register tile of the column path. */
#define AXIAL_TILE 8

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
/* Lanes of one logical vector. */
AXIAL_INLINE size_t k_w(enum axial_kind k) {
    switch (k) {
    case K_F32: case K_F64: return 2;
    case K_F16: case K_BF16: return 4;
    default: return 16 / k_es(k);
    }
}
/* Registers of one logical vector (f16 / bf16: two f64 registers). */
AXIAL_INLINE int k_nr(enum axial_kind k) { return k == K_F16 || k == K_BF16 ? 2 : 1; }
/* Bytes of one lane in registers. */
AXIAL_INLINE size_t k_lb(enum axial_kind k) { return k_float(k) ? 8 : k_es(k); }
/* Bytes of one vector in memory. */
AXIAL_INLINE size_t k_vb(enum axial_kind k) { return k_w(k) * k_es(k); }

/* A logical vector: r[0] (and r[1] for f16 / bf16: lanes 2 and 3). */
typedef struct {
    uint8x16_t r[2];
} V;

#define AXF(v) vreinterpretq_f64_u8(v)
#define AXU(v) vreinterpretq_u8_f64(v)

/* ---- byte shuffles with literal immediates ---------------------------------- */
/* vextq_u8(a, b, n): bytes n..15 of a, then 0..n-1 of b. */
AXIAL_INLINE uint8x16_t ext_b(uint8x16_t a, uint8x16_t b, size_t n) {
    switch (n) {
    case 0: return a;
    case 1: return vextq_u8(a, b, 1);
    case 2: return vextq_u8(a, b, 2);
    case 3: return vextq_u8(a, b, 3);
    case 4: return vextq_u8(a, b, 4);
    case 5: return vextq_u8(a, b, 5);
    case 6: return vextq_u8(a, b, 6);
    case 7: return vextq_u8(a, b, 7);
    case 8: return vextq_u8(a, b, 8);
    case 9: return vextq_u8(a, b, 9);
    case 10: return vextq_u8(a, b, 10);
    case 11: return vextq_u8(a, b, 11);
    case 12: return vextq_u8(a, b, 12);
    case 13: return vextq_u8(a, b, 13);
    case 14: return vextq_u8(a, b, 14);
    case 15: return vextq_u8(a, b, 15);
    default: return b;
    }
}

/* ---- lane arithmetic ------------------------------------------------------ */
AXIAL_INLINE V v_splat(uint8x16_t z) {
    V v;
    v.r[0] = v.r[1] = z;
    return v;
}
/* The identity every sum starts from: -0.0 for floats, 0 for integers. */
AXIAL_INLINE V v_ident(enum axial_kind k) {
    return v_splat(k_float(k) ? AXU(vdupq_n_f64(-0.0)) : vdupq_n_u8(0));
}
/* All bits zero: +0.0 (an empty float sum) or 0. */
AXIAL_INLINE V v_zero(void) { return v_splat(vdupq_n_u8(0)); }

AXIAL_INLINE uint8x16_t add_r(enum axial_kind k, uint8x16_t a, uint8x16_t b) {
    if (k_float(k))
        return AXU(vaddq_f64(AXF(a), AXF(b)));
    switch (k_es(k)) {
    case 1: return vaddq_u8(a, b);
    case 2: return vreinterpretq_u8_u16(vaddq_u16(vreinterpretq_u16_u8(a), vreinterpretq_u16_u8(b)));
    case 4: return vreinterpretq_u8_u32(vaddq_u32(vreinterpretq_u32_u8(a), vreinterpretq_u32_u8(b)));
    default: return vreinterpretq_u8_u64(vaddq_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b)));
    }
}
AXIAL_INLINE V v_add(enum axial_kind k, V a, V b) {
    V o = a;
    o.r[0] = add_r(k, a.r[0], b.r[0]);
    if (k_nr(k) == 2)
        o.r[1] = add_r(k, a.r[1], b.r[1]);
    return o;
}
/* a - b, integers only (exact modulo 2^bits). */
AXIAL_INLINE V v_sub(enum axial_kind k, V a, V b) {
    V o = a;
    switch (k_es(k)) {
    case 1: o.r[0] = vsubq_u8(a.r[0], b.r[0]); break;
    case 2:
        o.r[0] = vreinterpretq_u8_u16(vsubq_u16(vreinterpretq_u16_u8(a.r[0]), vreinterpretq_u16_u8(b.r[0])));
        break;
    case 4:
        o.r[0] = vreinterpretq_u8_u32(vsubq_u32(vreinterpretq_u32_u8(a.r[0]), vreinterpretq_u32_u8(b.r[0])));
        break;
    default:
        o.r[0] = vreinterpretq_u8_u64(vsubq_u64(vreinterpretq_u64_u8(a.r[0]), vreinterpretq_u64_u8(b.r[0])));
        break;
    }
    return o;
}
/* Lanes where m is set: a; elsewhere b. */
AXIAL_INLINE V v_bsl(enum axial_kind k, V m, V a, V b) {
    V o = a;
    o.r[0] = vbslq_u8(m.r[0], a.r[0], b.r[0]);
    if (k_nr(k) == 2)
        o.r[1] = vbslq_u8(m.r[1], a.r[1], b.r[1]);
    return o;
}
AXIAL_INLINE V v_and(enum axial_kind k, V a, V m) {
    V o = a;
    o.r[0] = vandq_u8(a.r[0], m.r[0]);
    if (k_nr(k) == 2)
        o.r[1] = vandq_u8(a.r[1], m.r[1]);
    return o;
}

/* Lane i takes lane i - s (up) or i + s (down); the s lanes shifted in come
 * from `fill` (its top lanes going up, its bottom lanes going down). */
AXIAL_INLINE V v_up(enum axial_kind k, V v, size_t s, V fill) {
    const size_t sb = s * k_lb(k);
    V o = v;
    if (k_nr(k) == 1) {
        o.r[0] = ext_b(fill.r[0], v.r[0], 16 - sb);
    } else if (sb == 8) {
        o.r[0] = ext_b(fill.r[1], v.r[0], 8);
        o.r[1] = ext_b(v.r[0], v.r[1], 8);
    } else { /* 16 */
        o.r[0] = fill.r[1];
        o.r[1] = v.r[0];
    }
    return o;
}
AXIAL_INLINE V v_down(enum axial_kind k, V v, size_t s, V fill) {
    const size_t sb = s * k_lb(k);
    V o = v;
    if (k_nr(k) == 1) {
        o.r[0] = ext_b(v.r[0], fill.r[0], sb);
    } else if (sb == 8) {
        o.r[0] = ext_b(v.r[0], v.r[1], 8);
        o.r[1] = ext_b(v.r[1], fill.r[0], 8);
    } else {
        o.r[0] = v.r[1];
        o.r[1] = fill.r[0];
    }
    return o;
}
/* Shift s lanes along the scan direction. */
AXIAL_INLINE V v_sh(enum axial_kind k, V v, size_t s, V fill, int rev) {
    return rev ? v_down(k, v, s, fill) : v_up(k, v, s, fill);
}
/* Every lane gets the last lane in scan order (the top one; reverse: lane 0). */
AXIAL_INLINE V v_end(enum axial_kind k, V v, int rev) {
    if (k_float(k)) {
        if (rev)
            return v_splat(AXU(vdupq_laneq_f64(AXF(v.r[0]), 0)));
        return v_splat(AXU(vdupq_laneq_f64(AXF(v.r[k_nr(k) - 1]), 1)));
    }
    switch (k_es(k)) {
    case 1: return v_splat(rev ? vdupq_laneq_u8(v.r[0], 0) : vdupq_laneq_u8(v.r[0], 15));
    case 2: {
        const uint16x8_t h = vreinterpretq_u16_u8(v.r[0]);
        return v_splat(vreinterpretq_u8_u16(rev ? vdupq_laneq_u16(h, 0) : vdupq_laneq_u16(h, 7)));
    }
    case 4: {
        const uint32x4_t h = vreinterpretq_u32_u8(v.r[0]);
        return v_splat(vreinterpretq_u8_u32(rev ? vdupq_laneq_u32(h, 0) : vdupq_laneq_u32(h, 3)));
    }
    default: {
        const uint64x2_t h = vreinterpretq_u64_u8(v.r[0]);
        return v_splat(vreinterpretq_u8_u64(rev ? vdupq_laneq_u64(h, 0) : vdupq_laneq_u64(h, 1)));
    }
    }
}

/* Inclusive scan over all W lanes: log2 W shift-and-add steps. */
AXIAL_INLINE V v_scan(enum axial_kind k, V v, int rev) {
    const V id = v_ident(k);
    const size_t w = k_w(k);
    v = v_add(k, v, v_sh(k, v, 1, id, rev));
    if (w > 2)
        v = v_add(k, v, v_sh(k, v, 2, id, rev));
    if (w > 4)
        v = v_add(k, v, v_sh(k, v, 4, id, rev));
    if (w > 8)
        v = v_add(k, v, v_sh(k, v, 8, id, rev));
    return v;
}

/* Integer lanes shifted by `bits` toward the scan direction inside lanes of
 * sb bytes (2, 4 or 8): nothing crosses an sb-byte segment. */
AXIAL_INLINE uint8x16_t wsh(uint8x16_t v, size_t sb, size_t bits, int rev) {
#define AXIAL_WSH(W, n)                                                                    \
    return rev ? vreinterpretq_u8_u##W(vshrq_n_u##W(vreinterpretq_u##W##_u8(v), n))        \
               : vreinterpretq_u8_u##W(vshlq_n_u##W(vreinterpretq_u##W##_u8(v), n))
    if (sb == 2)
        AXIAL_WSH(16, 8);
    if (sb == 4) {
        if (bits == 8)
            AXIAL_WSH(32, 8);
        AXIAL_WSH(32, 16);
    }
    if (bits == 8)
        AXIAL_WSH(64, 8);
    if (bits == 16)
        AXIAL_WSH(64, 16);
    AXIAL_WSH(64, 32);
#undef AXIAL_WSH
}

/* Exclusive scan of t inside aligned segments of s lanes (s a power of two,
 * 1 < s < W): lane i gets the sum of the lanes before it in its segment. */
AXIAL_INLINE V v_seg_excl(enum axial_kind k, V t, size_t s, int rev) {
    V o = t;
    const size_t es = k_es(k), sb = s * es;
    uint8x16_t p = t.r[0];
    /* s * es <= 8 bytes here.  Inclusive over s - 1 lanes, then one lane more
     * makes it exclusive (s = 2: just the shift). */
    if (s > 2) {
        p = add_r(k, p, wsh(p, sb, es * 8, rev));
        p = add_r(k, p, wsh(p, sb, es * 16, rev));
    }
    if (s > 4)
        p = add_r(k, p, wsh(p, sb, es * 32, rev));
    o.r[0] = wsh(p, sb, es * 8, rev);
    return o;
}

/* Exclusive scan over all W lanes (*e) and the total, broadcast (*tot). */
AXIAL_INLINE void v_scan_excl(enum axial_kind k, V t, int rev, V *e, V *tot) {
    const V id = v_ident(k);
    if (k_w(k) == 2) { /* i64: the total by one pairwise add */
        *e = v_sh(k, t, 1, id, rev);
        *tot = v_splat(vreinterpretq_u8_u64(vpaddq_u64(vreinterpretq_u64_u8(t.r[0]),
                                                       vreinterpretq_u64_u8(t.r[0]))));
        return;
    }
    const V p = v_scan(k, t, rev);
    *e = v_sh(k, p, 1, id, rev);
    *tot = v_end(k, p, rev);
}

/* ---- loads and stores ----------------------------------------------------------
 * A vector's memory image is k_vb bytes (16, or 8 for f32 / f16 / bf16), held
 * in the low bytes of a q register ("raw"); v_raw / raw_v convert it. */
AXIAL_INLINE V raw_v(enum axial_kind k, uint8x16_t raw) {
    V v = v_splat(raw);
    float32x4_t f;
    switch (k) {
    case K_F32:
        v.r[0] = v.r[1] = AXU(vcvt_f64_f32(vget_low_f32(vreinterpretq_f32_u8(raw))));
        return v;
    case K_F16: f = axial_neon_f16_lo(vreinterpretq_u16_u8(raw)); break;
    case K_BF16: f = axial_neon_bf16_lo(vreinterpretq_u16_u8(raw)); break;
    default: return v;
    }
    v.r[0] = AXU(vcvt_f64_f32(vget_low_f32(f)));
    v.r[1] = AXU(vcvt_high_f64_f32(f));
    return v;
}
AXIAL_INLINE uint8x16_t v_raw(enum axial_kind k, V v) {
    uint16x4_t h;
    switch (k) {
    case K_F32: {
        const float32x2_t f = vcvt_f32_f64(AXF(v.r[0]));
        return vreinterpretq_u8_f32(vcombine_f32(f, f));
    }
    case K_F16: h = axial_neon_f64x2_to_f16(AXF(v.r[0]), AXF(v.r[1])); break;
    case K_BF16: h = axial_neon_f64x2_to_bf16(AXF(v.r[0]), AXF(v.r[1])); break;
    default: return v.r[0];
    }
    return vreinterpretq_u8_u16(vcombine_u16(h, h));
}
/* The kinds whose vector is 8 bytes in memory (f32, f16, bf16) also move two
 * vectors per Q register: the low half is the first, the high half the second
 * (FCVTL2 / FCVTN2 and friends work on the high half directly). */
AXIAL_INLINE V raw_v_hi(enum axial_kind k, uint8x16_t raw) {
    V v = v_splat(raw);
    float32x4_t f;
    switch (k) {
    case K_F32:
        v.r[0] = v.r[1] = AXU(vcvt_high_f64_f32(vreinterpretq_f32_u8(raw)));
        return v;
    case K_F16: f = axial_neon_f16_hi(vreinterpretq_u16_u8(raw)); break;
    default: f = axial_neon_bf16_hi(vreinterpretq_u16_u8(raw)); break;
    }
    v.r[0] = AXU(vcvt_f64_f32(vget_low_f32(f)));
    v.r[1] = AXU(vcvt_high_f64_f32(f));
    return v;
}
AXIAL_INLINE uint8x16_t v_raw2(enum axial_kind k, V a, V b) {
    switch (k) {
    case K_F32:
        return vreinterpretq_u8_f32(vcvt_high_f32_f64(vcvt_f32_f64(AXF(a.r[0])), AXF(b.r[0])));
    case K_F16:
        return vreinterpretq_u8_u16(
            axial_neon_f32x2_to_f16(axial_neon_f64x2_to_f32_odd(AXF(a.r[0]), AXF(a.r[1])),
                                    axial_neon_f64x2_to_f32_odd(AXF(b.r[0]), AXF(b.r[1]))));
    default:
        return vreinterpretq_u8_u16(
            axial_neon_f32x2_to_bf16(axial_neon_f64x2_to_f32_odd(AXF(a.r[0]), AXF(a.r[1])),
                                     axial_neon_f64x2_to_f32_odd(AXF(b.r[0]), AXF(b.r[1]))));
    }
}
AXIAL_INLINE V v_ld(enum axial_kind k, const char *p) {
    if (k_vb(k) == 16)
        return raw_v(k, vld1q_u8((const uint8_t *)p));
    const uint8x8_t d = vld1_u8((const uint8_t *)p);
    return raw_v(k, vcombine_u8(d, d));
}
AXIAL_INLINE void v_st(enum axial_kind k, char *p, V v) {
    const uint8x16_t raw = v_raw(k, v);
    if (k_vb(k) == 16)
        vst1q_u8((uint8_t *)p, raw);
    else
        vst1_u8((uint8_t *)p, vget_low_u8(raw));
}

/* nb < 16 bytes, in 8/4/2/1-byte pieces (little-endian lanes). */
AXIAL_INLINE uint64_t ld_small(const char *p, size_t nb) {
    uint64_t v = 0;
    unsigned sh = 0;
    if (nb & 4) {
        uint32_t w;
        memcpy(&w, p, 4);
        v = w, p += 4, sh = 32;
    }
    if (nb & 2) {
        uint16_t w;
        memcpy(&w, p, 2);
        v |= (uint64_t)w << sh, p += 2, sh += 16;
    }
    if (nb & 1)
        v |= (uint64_t)(uint8_t)*p << sh;
    return v;
}
AXIAL_INLINE void st_small(char *p, uint64_t v, size_t nb) {
    if (nb & 4) {
        const uint32_t w = (uint32_t)v;
        memcpy(p, &w, 4);
        v >>= 32, p += 4;
    }
    if (nb & 2) {
        const uint16_t w = (uint16_t)v;
        memcpy(p, &w, 2);
        v >>= 16, p += 2;
    }
    if (nb & 1)
        *p = (char)(uint8_t)v;
}
AXIAL_INLINE uint8x16_t ld_bytes(const char *p, size_t nb) {
    uint64_t lo, hi = 0;
    if (nb & 8) {
        memcpy(&lo, p, 8);
        hi = ld_small(p + 8, nb & 7);
    } else {
        lo = ld_small(p, nb);
    }
    return vcombine_u8(vcreate_u8(lo), vcreate_u8(hi));
}
AXIAL_INLINE void st_bytes(char *p, uint8x16_t v, size_t nb) {
    const uint64x2_t q = vreinterpretq_u64_u8(v);
    if (nb & 8) {
        const uint64_t lo = vgetq_lane_u64(q, 0);
        memcpy(p, &lo, 8);
        st_small(p + 8, vgetq_lane_u64(q, 1), nb & 7);
    } else {
        st_small(p, vgetq_lane_u64(q, 0), nb);
    }
}

/* ---- LDm / STm (m = 1..4) of raw registers, lanes of lb bytes ---------------------
 * vb = 16: Q registers; vb = 8 (f32, f16, bf16): D registers, in the low half. */
#define AXIAL_ID8(v) (v)
#define AXIAL_D16(v) vreinterpretq_u8_u16(vcombine_u16(v, v))
#define AXIAL_D32(v) vreinterpretq_u8_u32(vcombine_u32(v, v))
#define AXIAL_LDM(n, q, VT, ET, sfx, CONV)                                            \
    do {                                                                              \
        const VT##x##n##_t t_ = vld##n##q##_##sfx((const ET *)(const void *)p);        \
        AXIAL_UNROLL                                                                  \
        for (int j_ = 0; j_ < n; j_++)                                                \
            raw[j_] = CONV(t_.val[j_]);                                               \
    } while (0)
#define AXIAL_LDM_ALL(q, VT, ET, sfx, CONV)                                           \
    do {                                                                              \
        switch (m) {                                                                  \
        case 2: AXIAL_LDM(2, q, VT, ET, sfx, CONV); return;                           \
        case 3: AXIAL_LDM(3, q, VT, ET, sfx, CONV); return;                           \
        default: AXIAL_LDM(4, q, VT, ET, sfx, CONV); return;                          \
        }                                                                             \
    } while (0)
AXIAL_INLINE void ld_raw_m(size_t vb, size_t lb, int m, const char *p, uint8x16_t raw[4]) {
    if (m == 1) {
        if (vb == 16) {
            raw[0] = vld1q_u8((const uint8_t *)p);
        } else {
            const uint8x8_t d = vld1_u8((const uint8_t *)p);
            raw[0] = vcombine_u8(d, d);
        }
        return;
    }
    if (vb == 8) {
        if (lb == 2)
            AXIAL_LDM_ALL(, uint16x4, uint16_t, u16, AXIAL_D16);
        AXIAL_LDM_ALL(, uint32x2, uint32_t, u32, AXIAL_D32);
    }
    switch (lb) {
    case 1: AXIAL_LDM_ALL(q, uint8x16, uint8_t, u8, AXIAL_ID8);
    case 2: AXIAL_LDM_ALL(q, uint16x8, uint16_t, u16, vreinterpretq_u8_u16);
    case 4: AXIAL_LDM_ALL(q, uint32x4, uint32_t, u32, vreinterpretq_u8_u32);
    default: AXIAL_LDM_ALL(q, uint64x2, uint64_t, u64, vreinterpretq_u8_u64);
    }
}
#undef AXIAL_LDM
#undef AXIAL_LDM_ALL
#undef AXIAL_D16
#undef AXIAL_D32

#define AXIAL_Q16(v) vget_low_u16(vreinterpretq_u16_u8(v))
#define AXIAL_Q32(v) vget_low_u32(vreinterpretq_u32_u8(v))
/* (The structs are built by initialisers: GCC 12 sends member-wise built
 * x4 structs through the stack.) */
#define AXIAL_STM_ALL(q, VT, ET, sfx, CONV)                                           \
    do {                                                                              \
        ET *p_ = (ET *)(void *)p;                                                     \
        switch (m) {                                                                  \
        case 2: {                                                                     \
            const VT##x2_t t_ = {{CONV(raw[0]), CONV(raw[1])}};                        \
            vst2##q##_##sfx(p_, t_);                                                   \
            return;                                                                   \
        }                                                                             \
        case 3: {                                                                     \
            const VT##x3_t t_ = {{CONV(raw[0]), CONV(raw[1]), CONV(raw[2])}};          \
            vst3##q##_##sfx(p_, t_);                                                   \
            return;                                                                   \
        }                                                                             \
        default: {                                                                    \
            const VT##x4_t t_ = {{CONV(raw[0]), CONV(raw[1]), CONV(raw[2]), CONV(raw[3])}}; \
            vst4##q##_##sfx(p_, t_);                                                   \
            return;                                                                   \
        }                                                                             \
        }                                                                             \
    } while (0)
AXIAL_INLINE void st_raw_m(size_t vb, size_t lb, int m, char *p, const uint8x16_t raw[4]) {
    if (m == 1) {
        if (vb == 16)
            vst1q_u8((uint8_t *)p, raw[0]);
        else
            vst1_u8((uint8_t *)p, vget_low_u8(raw[0]));
        return;
    }
    if (vb == 8) {
        if (lb == 2)
            AXIAL_STM_ALL(, uint16x4, uint16_t, u16, AXIAL_Q16);
        AXIAL_STM_ALL(, uint32x2, uint32_t, u32, AXIAL_Q32);
    }
    switch (lb) {
    case 1: AXIAL_STM_ALL(q, uint8x16, uint8_t, u8, AXIAL_ID8);
    case 2: AXIAL_STM_ALL(q, uint16x8, uint16_t, u16, vreinterpretq_u16_u8);
    case 4: AXIAL_STM_ALL(q, uint32x4, uint32_t, u32, vreinterpretq_u32_u8);
    default: AXIAL_STM_ALL(q, uint64x2, uint64_t, u64, vreinterpretq_u64_u8);
    }
}
#undef AXIAL_STM_ALL
#undef AXIAL_Q16
#undef AXIAL_Q32
#undef AXIAL_ID8

/* m vectors from m * W elements, de-interleaved: v[j] lane t = element m t + j. */
AXIAL_INLINE void v_ldm(enum axial_kind k, int m, const char *p, V v[4]) {
    uint8x16_t raw[4];
    ld_raw_m(k_vb(k), k_es(k), m, p, raw);
    AXIAL_UNROLL
    for (int j = 0; j < m; j++)
        v[j] = raw_v(k, raw[j]);
}
AXIAL_INLINE void v_stm(enum axial_kind k, int m, char *p, const V v[4]) {
    uint8x16_t raw[4];
    AXIAL_UNROLL
    for (int j = 0; j < m; j++)
        raw[j] = v_raw(k, v[j]);
    st_raw_m(k_vb(k), k_es(k), m, p, raw);
}

/* 8-byte vector kinds: LDm of Q registers = two consecutive LDm steps of
 * D registers (lo: the first m * W elements, hi: the next). */
AXIAL_INLINE void v_ldm2(enum axial_kind k, int m, const char *p, V lo[4], V hi[4]) {
    uint8x16_t raw[4];
    ld_raw_m(16, k_es(k), m, p, raw);
    AXIAL_UNROLL
    for (int j = 0; j < m; j++) {
        lo[j] = raw_v(k, raw[j]);
        hi[j] = raw_v_hi(k, raw[j]);
    }
}
AXIAL_INLINE void v_stm2(enum axial_kind k, int m, char *p, const V lo[4], const V hi[4]) {
    uint8x16_t raw[4];
    AXIAL_UNROLL
    for (int j = 0; j < m; j++)
        raw[j] = v_raw2(k, lo[j], hi[j]);
    st_raw_m(16, k_es(k), m, p, raw);
}

/* ---- lane masks and lane tables (lanes of k_lb bytes, as the vectors hold them) -- */
AXIAL_INLINE uint8x16_t cmp_r(size_t lb, uint8x16_t a, uint8x16_t b, int gt) {
#define AXIAL_CMP(W)                                                                       \
    return vreinterpretq_u8_u##W(gt ? vcgtq_u##W(vreinterpretq_u##W##_u8(a), vreinterpretq_u##W##_u8(b)) \
                                    : vcgeq_u##W(vreinterpretq_u##W##_u8(a), vreinterpretq_u##W##_u8(b)))
    switch (lb) {
    case 1: return gt ? vcgtq_u8(a, b) : vcgeq_u8(a, b);
    case 2: AXIAL_CMP(16);
    case 4: AXIAL_CMP(32);
    default: AXIAL_CMP(64);
    }
#undef AXIAL_CMP
}
/* a >= b (gt: a > b), unsigned, lane by lane: all ones or zero. */
AXIAL_INLINE V v_cmp(enum axial_kind k, V a, V b, int gt) {
    V o = a;
    o.r[0] = cmp_r(k_lb(k), a.r[0], b.r[0], gt);
    if (k_nr(k) == 2)
        o.r[1] = cmp_r(k_lb(k), a.r[1], b.r[1], gt);
    return o;
}
AXIAL_INLINE V v_dupn(enum axial_kind k, uint64_t d) {
    switch (k_lb(k)) {
    case 1: return v_splat(vdupq_n_u8((uint8_t)d));
    case 2: return v_splat(vreinterpretq_u8_u16(vdupq_n_u16((uint16_t)d)));
    case 4: return v_splat(vreinterpretq_u8_u32(vdupq_n_u32((uint32_t)d)));
    default: return v_splat(vreinterpretq_u8_u64(vdupq_n_u64(d)));
    }
}
/* A vector from W lanes of k_lb bytes at p. */
AXIAL_INLINE V v_lanes(enum axial_kind k, const uint8_t *p) {
    V v = v_splat(vld1q_u8(p));
    if (k_nr(k) == 2)
        v.r[1] = vld1q_u8(p + 16);
    return v;
}
static inline void put_lane(uint8_t *p, size_t lb, size_t i, uint64_t val) {
    switch (lb) {
    case 1: p[i] = (uint8_t)val; break;
    case 2: { const uint16_t w = (uint16_t)val; memcpy(p + 2 * i, &w, 2); break; }
    case 4: { const uint32_t w = (uint32_t)val; memcpy(p + 4 * i, &w, 4); break; }
    default: memcpy(p + 8 * i, &val, 8); break;
    }
}
/* Masks in block layout from an LDm of this table at a byte offset: 128 zero
 * bytes, 128 bytes of ones, 128 zero bytes (see row_long). */
#define AXIAL_Z8 0, 0, 0, 0, 0, 0, 0, 0
#define AXIAL_O8 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
#define AXIAL_Z128 AXIAL_Z8, AXIAL_Z8, AXIAL_Z8, AXIAL_Z8, AXIAL_Z8, AXIAL_Z8, AXIAL_Z8, AXIAL_Z8, \
                   AXIAL_Z8, AXIAL_Z8, AXIAL_Z8, AXIAL_Z8, AXIAL_Z8, AXIAL_Z8, AXIAL_Z8, AXIAL_Z8
#define AXIAL_O128 AXIAL_O8, AXIAL_O8, AXIAL_O8, AXIAL_O8, AXIAL_O8, AXIAL_O8, AXIAL_O8, AXIAL_O8, \
                   AXIAL_O8, AXIAL_O8, AXIAL_O8, AXIAL_O8, AXIAL_O8, AXIAL_O8, AXIAL_O8, AXIAL_O8
static const uint8_t axial_cs_mask[384] = {AXIAL_Z128, AXIAL_O128, AXIAL_Z128};
#undef AXIAL_Z8
#undef AXIAL_O8
#undef AXIAL_Z128
#undef AXIAL_O128
/* The lanes [lo, lo + len) of a window of bb bytes (<= 128) of lb-byte lanes,
 * where len = r lanes at the top (fwd) or bottom (rev): the table offset. */
AXIAL_INLINE const uint8_t *mask_at(size_t bb, size_t rb, int rev) {
    return axial_cs_mask + (rev ? 256 - rb : 128 - bb + rb);
}
/* LDm of the mask table into vectors (float kinds: f64 lanes). */
AXIAL_INLINE void mask_ldm(enum axial_kind k, int m, const uint8_t *p, V mk[4]) {
    uint8x16_t raw[4], hi[4];
    ld_raw_m(16, k_lb(k), m, (const char *)p, raw);
    if (k_nr(k) == 2)
        ld_raw_m(16, 8, m, (const char *)p + 16 * m, hi);
    AXIAL_UNROLL
    for (int j = 0; j < m; j++) {
        mk[j] = v_splat(raw[j]);
        if (k_nr(k) == 2)
            mk[j].r[1] = hi[j];
    }
}

/* ---- one LDm step: m registers, groups of m, segments of s lanes ---------------
 * P[i]: inclusive prefix inside the group of m; the group totals get an
 * exclusive scan inside segments of s lanes (s = W: the whole vector, and
 * with a carry c the total is added to it).  Outputs: off + P (inclusive) or
 * off + P of the element before (exclusive; the first is off itself). */
AXIAL_INLINE void blk_scan(enum axial_kind k, int m, size_t s, const V v[4], V *c, int excl,
                           int rev,
                           V out[4]) {
    V P[4];
    AXIAL_UNROLL
    for (int j = 0; j < m; j++) {
        const int i = rev ? m - 1 - j : j;
        P[i] = j ? v_add(k, P[rev ? i + 1 : i - 1], v[i]) : v[i];
    }
    const V t = P[rev ? 0 : m - 1];
    V e, tot = t;
    if (s == 1)
        e = v_ident(k);
    else if (s == k_w(k))
        v_scan_excl(k, t, rev, &e, &tot);
    else
        e = v_seg_excl(k, t, s, rev);
    const V off = c ? v_add(k, *c, e) : e;
    AXIAL_UNROLL
    for (int j = 0; j < m; j++) {
        const int i = rev ? m - 1 - j : j;
        if (!excl)
            out[i] = v_add(k, off, P[i]);
        else
            out[i] = j ? v_add(k, off, P[rev ? i + 1 : i - 1]) : off;
    }
    if (c)
        *c = v_add(k, *c, tot);
}

/* ---- 1. long rows: n >= 4 W -----------------------------------------------------
 * Blocks of 4 W elements by LD4, which de-interleaves: register j holds the
 * elements 4t + j, so three vertical adds scan all W groups of 4 at once and
 * one in-register scan of the group totals gives their offsets; the carry
 * takes one add per block.  The tail is one more block ending at the row's end
 * (its start, in reverse), its already-done lanes masked to the identity. */
AXIAL_INLINE void row_long(enum axial_kind k, const char *x, char *y, size_t n, int excl, int rev) {
    const size_t B = 4 * k_w(k), es = k_es(k), nb = n / B, r = n % B;
    const V id = v_ident(k);
    V c = id, v[4], o[4];
    for (size_t i = 0; i + 1 < nb; i++) {
        const size_t off = (rev ? n - (i + 1) * B : i * B) * es;
        v_ldm(k, 4, x + off, v);
        blk_scan(k, 4, k_w(k), v, &c, excl, rev, o);
        v_stm(k, 4, y + off, o);
    }
    /* The last full block is stored after the tail block that overlaps it. */
    const size_t offl = (rev ? r : (nb - 1) * B) * es;
    v_ldm(k, 4, x + offl, v);
    blk_scan(k, 4, k_w(k), v, &c, excl, rev, o);
    if (r) {
        const size_t offw = rev ? 0 : (n - B) * es;
        V w[4], mk[4], ow[4];
        v_ldm(k, 4, x + offw, w);
        mask_ldm(k, 4, mask_at(B * k_lb(k), r * k_lb(k), rev), mk);
        AXIAL_UNROLL
        for (int j = 0; j < 4; j++)
            w[j] = v_bsl(k, mk[j], w[j], id);
        blk_scan(k, 4, k_w(k), w, &c, excl, rev, ow);
        v_stm(k, 4, y + offw, ow);
    }
    v_stm(k, 4, y + offl, o);
}

/* ---- 2. short rows ---------------------------------------------------------------
 * n = m s (m <= 4, s a power of two <= W): LDm puts W / s whole rows into m
 * registers, each row in s lanes; the group totals get an exclusive scan inside
 * each s-lane segment, so nothing crosses a row and there is no carry.  Any
 * other n: a segmented scan of the flat run of rows, one vector at a time. */

/* One LDm step of W / s rows of n = m s, no carry. */
AXIAL_INLINE void ms_step(enum axial_kind k, int m, size_t s, const V v[4], int excl, int rev,
                          V o[4]) {
    blk_scan(k, m, s, v, (V *)0, excl, rev, o);
}
AXIAL_INLINE void rows_ms(enum axial_kind k, int m, size_t s, const char *x, char *y, size_t rows,
                          int excl, int rev) {
    const size_t W = k_w(k), R = W / s, sb = (size_t)m * W * k_es(k);
    V v[4], o[4];
    if (rows < R) { /* fewer rows than one step: through a buffer */
        _Alignas(16) char buf[64];
        const size_t len = rows * (size_t)m * s * k_es(k);
        memset(buf, 0, sizeof buf);
        memcpy(buf, x, len);
        v_ldm(k, m, buf, v);
        ms_step(k, m, s, v, excl, rev, o);
        v_stm(k, m, buf, o);
        memcpy(y, buf, len);
        return;
    }
    const size_t steps = rows / R, rr = rows % R;
    for (size_t i = 0; i + 1 < steps; i++) {
        v_ldm(k, m, x + i * sb, v);
        ms_step(k, m, s, v, excl, rev, o);
        v_stm(k, m, y + i * sb, o);
    }
    /* The last rows: one more step ending at the end, loaded before the last
     * full step is stored (the rows they share get the same bits). */
    const size_t offl = (steps - 1) * sb;
    v_ldm(k, m, x + offl, v);
    ms_step(k, m, s, v, excl, rev, o);
    if (rr) {
        const size_t offw = (rows - R) * (size_t)m * s * k_es(k);
        V w[4], ow[4];
        v_ldm(k, m, x + offw, w);
        ms_step(k, m, s, w, excl, rev, ow);
        v_stm(k, m, y + offw, ow);
    }
    v_stm(k, m, y + offl, o);
}

/* One vector of the flat segmented scan.  Q: each lane's distance from its
 * row's start in scan order; io: the lanes before it in this vector. */
AXIAL_INLINE V flat_vec(enum axial_kind k, V xv, V Q, V io, V *c, int excl, int rev) {
    const V id = v_ident(k);
    const size_t w = k_w(k);
    V p = xv;
#define AXIAL_FLAT_STEP(d)                                                                   \
    if (w > (d))                                                                             \
        p = v_add(k, p, v_bsl(k, v_cmp(k, Q, v_dupn(k, d), 0), v_sh(k, p, d, id, rev), id));
    AXIAL_FLAT_STEP(1)
    AXIAL_FLAT_STEP(2)
    AXIAL_FLAT_STEP(4)
    AXIAL_FLAT_STEP(8)
#undef AXIAL_FLAT_STEP
    p = v_add(k, p, v_bsl(k, v_cmp(k, Q, io, 1), *c, id)); /* rows begun before */
    V out = p;
    if (excl)
        out = v_sub(k, p, xv);
    *c = v_end(k, p, rev);
    return out;
}
AXIAL_INLINE void rows_flat(enum axial_kind k, const char *x, char *y, size_t N, size_t n, int excl,
                            int rev) {
    const size_t W = k_w(k), es = k_es(k), lb = k_lb(k), wm = W % n;
    _Alignas(16) uint8_t qt[5 * 16]; /* n + W < 5 W lanes of 16 / W bytes */
    _Alignas(16) uint8_t ib[32];
    for (size_t i = 0; i < n + W; i++)
        put_lane(qt, lb, i, rev ? n - 1 - i % n : i % n);
    for (size_t l = 0; l < W; l++)
        put_lane(ib, lb, l, rev ? W - 1 - l : l);
    const V io = v_lanes(k, ib);
    V c = v_ident(k);
    const size_t nv = N / W, rem = N % W;
    /* phase: the position of the vector's lane 0 modulo n */
    size_t ph = rev ? (N % n + n - wm) % n : 0;
    for (size_t i = 0; i < nv; i++) {
        const size_t off = (rev ? N - (i + 1) * W : i * W) * es;
        const V out = flat_vec(k, v_ld(k, x + off), v_lanes(k, qt + ph * lb), io, &c, excl, rev);
        v_st(k, y + off, out);
        ph = rev ? (ph >= wm ? ph - wm : ph + n - wm) : (ph + wm >= n ? ph + wm - n : ph + wm);
    }
    if (rem) { /* the last rem elements (reverse: the first), through a buffer */
        _Alignas(16) char buf[16];
        const size_t at = rev ? (W - rem) * es : 0, src = rev ? 0 : nv * W * es;
        memset(buf, 0, sizeof buf);
        memcpy(buf + at, x + src, rem * es);
        const V out = flat_vec(k, v_ld(k, buf), v_lanes(k, qt + ph * lb), io, &c, excl, rev);
        v_st(k, buf, out);
        memcpy(y + src, buf + at, rem * es);
    }
}

#define AXIAL_POW2(s) (((s) & ((s) - 1)) == 0)
/* Short rows n = m * s (m = 1..4, s a power of two <= W): the largest such m, else 0. */
AXIAL_INLINE int ms_plan(enum axial_kind k, size_t n) {
    for (int m = 4; m >= 1; m--)
        if (n % (size_t)m == 0 && AXIAL_POW2(n / (size_t)m) && n / (size_t)m <= k_w(k))
            return m;
    return 0;
}
AXIAL_INLINE void rows_short(enum axial_kind k, const char *x, char *y, size_t rows, size_t n,
                             int excl,
                             int rev) {
    const int m = ms_plan(k, n);
    const size_t s = n / (size_t)m;
#define AXIAL_MS(M, S)                                                         \
    if (m == M && s == S) {                                                    \
        if ((S) <= k_w(k) && (M) * (S) < 4 * k_w(k))                           \
            rows_ms(k, M, S, x, y, rows, excl, rev);                           \
        return;                                                                \
    }
    AXIAL_MS(1, 1)
    AXIAL_MS(2, 1)
    AXIAL_MS(3, 1)
    AXIAL_MS(4, 1)
    AXIAL_MS(3, 2)
    AXIAL_MS(4, 2)
    AXIAL_MS(3, 4)
    AXIAL_MS(4, 4)
    AXIAL_MS(3, 8)
    AXIAL_MS(4, 8)
    AXIAL_MS(3, 16)
#undef AXIAL_MS
}

/* ---- 3. columns ------------------------------------------------------------------
 * Row by row down the axis, accumulators in registers for tiles of AXIAL_TILE
 * vectors.  Integers with inner in 2..4 and n >= W use LDinner (one column per
 * register); other narrow rows move in pieces. */

/* nv vectors of columns, accumulators in registers; vector u at u * vb bytes,
 * the last at `last` (the row's last W columns when W does not divide inner).
 * All of a row is loaded before any of it is stored. */
AXIAL_INLINE void cols_tile(enum axial_kind k, int nv, const char *x, char *y, size_t n,
                            size_t stride,
                            size_t last, int excl, int rev) {
    const size_t vb = k_vb(k);
    V acc[AXIAL_TILE + 1], xv[AXIAL_TILE + 1], o[AXIAL_TILE + 1];
    AXIAL_UNROLL
    for (int u = 0; u < nv; u++)
        acc[u] = v_ident(k);
    for (size_t t = 0; t < n; t++) {
        const size_t row = (rev ? n - 1 - t : t) * stride;
        /* 8-byte vectors go two per Q register, but for the last one */
        AXIAL_UNROLL
        for (int u = 0; u < nv; u++) {
            if (k_vb(k) == 8 && u % 2 == 0 && u + 1 < nv - 1)
                v_ldm2(k, 1, x + row + (size_t)u * vb, &xv[u], &xv[u + 1]);
            else if (k_vb(k) != 8 || u % 2 == 0 || u == nv - 1)
                xv[u] = v_ld(k, x + row + (u == nv - 1 ? last : (size_t)u * vb));
        }
        AXIAL_UNROLL
        for (int u = 0; u < nv; u++) {
            if (excl) {
                o[u] = t ? acc[u] : v_zero();
                acc[u] = v_add(k, acc[u], xv[u]);
            } else {
                acc[u] = v_add(k, acc[u], xv[u]);
                o[u] = acc[u];
            }
        }
        AXIAL_UNROLL
        for (int u = 0; u < nv; u++) {
            if (k_vb(k) == 8 && u % 2 == 0 && u + 1 < nv - 1)
                v_stm2(k, 1, y + row + (size_t)u * vb, &o[u], &o[u + 1]);
            else if (k_vb(k) != 8 || u % 2 == 0 || u == nv - 1)
                v_st(k, y + row + (u == nv - 1 ? last : (size_t)u * vb), o[u]);
        }
    }
}
/* Columns [0, ncols) (ncols >= W) of rows `stride` bytes apart. */
AXIAL_INLINE void cols_wide(enum axial_kind k, const char *x, char *y, size_t n, size_t ncols,
                            size_t stride, int excl, int rev) {
    const size_t W = k_w(k), es = k_es(k), vb = k_vb(k), r = ncols % W;
    size_t i = 0;
    /* Whole tiles, leaving at least one full vector beside a partial one. */
    for (; ncols - i >= AXIAL_TILE * W + (r ? W : 0); i += AXIAL_TILE * W)
        cols_tile(k, AXIAL_TILE, x + i * es, y + i * es, n, stride, (AXIAL_TILE - 1) * vb, excl, rev);
    const size_t full = (ncols - i) / W;
    const int nv = (int)full + (r != 0);
    const size_t last = r ? (ncols - W - i) * es : (full - 1) * vb;
    x += i * es, y += i * es;
    switch (nv) { /* 0 .. T + 1 */
#define AXIAL_NV(N)                                                            \
    case N:                                                                    \
        if ((N) <= AXIAL_TILE + 1)                                              \
            cols_tile(k, N, x, y, n, stride, last, excl, rev);                 \
        break;
    AXIAL_NV(1)
    AXIAL_NV(2)
    AXIAL_NV(3)
    AXIAL_NV(4)
    AXIAL_NV(5)
    AXIAL_NV(6)
    AXIAL_NV(7)
    AXIAL_NV(8)
    AXIAL_NV(9)
#undef AXIAL_NV
    default: break;
    }
}

/* Integers, inner = g in 2..4 below W, n >= W: LDg puts one column of W rows
 * in each register; a lane scan and a carry per column. */
AXIAL_INLINE void ldg_step(enum axial_kind k, int g, const V v[4], V c[4], int excl, int rev,
                           V o[4]) {
    AXIAL_UNROLL
    for (int j = 0; j < g; j++) {
        const V p = v_scan(k, v[j], rev);
        o[j] = v_add(k, c[j], excl ? v_sub(k, p, v[j]) : p);
        c[j] = v_add(k, c[j], v_end(k, p, rev));
    }
}
AXIAL_INLINE void cols_ldg(enum axial_kind k, int g, const char *x, char *y, size_t n, int excl,
                           int rev) {
    const size_t W = k_w(k), es = k_es(k), rb = (size_t)g * es; /* bytes per row */
    const size_t nst = n / W, rr = n % W;
    V c[4], v[4], o[4];
    AXIAL_UNROLL
    for (int j = 0; j < 4; j++)
        c[j] = v_ident(k);
    for (size_t i = 0; i + 1 < nst; i++) {
        const size_t off = (rev ? n - (i + 1) * W : i * W) * rb;
        v_ldm(k, g, x + off, v);
        ldg_step(k, g, v, c, excl, rev, o);
        v_stm(k, g, y + off, o);
    }
    const size_t offl = (rev ? rr : (nst - 1) * W) * rb;
    v_ldm(k, g, x + offl, v);
    ldg_step(k, g, v, c, excl, rev, o);
    if (rr) { /* the last rr rows: one step ending at the slab's end, rows done masked */
        const size_t offw = rev ? 0 : (n - W) * rb;
        V w[4], ow[4];
        v_ldm(k, g, x + offw, w);
        const V mk = v_lanes(k, mask_at(16, rr * es, rev));
        AXIAL_UNROLL
        for (int j = 0; j < g; j++)
            w[j] = v_and(k, w[j], mk);
        ldg_step(k, g, w, c, excl, rev, ow);
        v_stm(k, g, y + offw, ow);
    }
    v_stm(k, g, y + offl, o);
}

/* inner < W otherwise: each row's inner * esize (< 16) bytes in pieces. */
AXIAL_INLINE void cols_part(enum axial_kind k, const char *x, char *y, size_t n, size_t ncols,
                            size_t stride, int excl, int rev) {
    const size_t nb = ncols * k_es(k);
    V acc = v_ident(k);
    for (size_t t = 0; t < n; t++) {
        const size_t row = (rev ? n - 1 - t : t) * stride;
        const V xv = raw_v(k, ld_bytes(x + row, nb));
        V o;
        if (excl) {
            o = t ? acc : v_zero();
            acc = v_add(k, acc, xv);
        } else {
            acc = v_add(k, acc, xv);
            o = acc;
        }
        st_bytes(y + row, v_raw(k, o), nb);
    }
}

/* ---- the kernels ------------------------------------------------------------------
 * One function per path, dtype and flags value (noinline: each is compiled with
 * its constants, and has its own name in the disassembly: cs_<path>_<dtype>_<flags>). */
AXIAL_INLINE void cols(enum axial_kind k, const char *x, char *y, size_t outer, size_t n,
                       size_t inner,
                       int excl, int rev) {
    const size_t slab = n * inner * k_es(k);
    for (size_t o = 0; o < outer; o++) {
        const char *xo = x + o * slab;
        char *yo = y + o * slab;
        if (inner >= k_w(k))
            cols_wide(k, xo, yo, n, inner, inner * k_es(k), excl, rev);
        else if (!k_float(k) && inner <= 4 && n >= k_w(k)) {
            switch (inner) {
            case 2: cols_ldg(k, 2, xo, yo, n, excl, rev); break;
            case 3: cols_ldg(k, 3, xo, yo, n, excl, rev); break;
            default: cols_ldg(k, 4, xo, yo, n, excl, rev); break;
            }
        } else
            cols_part(k, xo, yo, n, inner, inner * k_es(k), excl, rev);
    }
}

#define AXIAL_CS_PATHS(name, K, F, E, R)                                                        \
    AXIAL_NOINLINE void cs_long_##name##_##F(const char *x, char *y, size_t outer, size_t n) {   \
        for (size_t o = 0; o < outer; o++)                                                      \
            row_long(K, x + o * n * k_es(K), y + o * n * k_es(K), n, E, R);                     \
    }                                                                                           \
    AXIAL_NOINLINE void cs_short_##name##_##F(const char *x, char *y, size_t rows, size_t n) {  \
        rows_short(K, x, y, rows, n, E, R);                                                     \
    }                                                                                           \
    AXIAL_NOINLINE void cs_flat_##name##_##F(const char *x, char *y, size_t rows, size_t n) {   \
        rows_flat(K, x, y, rows * n, n, E, R);                                                  \
    }                                                                                           \
    AXIAL_NOINLINE void cs_cols_##name##_##F(const char *x, char *y, size_t outer, size_t n,    \
                                             size_t inner) {                                    \
        cols(K, x, y, outer, n, inner, E, R);                                                   \
    }

/* ---- floats: the one summation order ------------------------------------------------
 * (see the header).  The line path works on blocks of 16 elements (the
 * virtual vector) held as four quads in memory order; with REVERSE the
 * block's k-quad j is memory quad 3 - j and each quad is scanned downwards.
 * F32 / F16 / BF16: a quad is one float32x4_t (C = f32); F64: a quad is two
 * float64x2_t (C = f64), the block eight registers r[0..7]. */

/* k-quad j of a block: its memory quad. */
#define AXIAL_KQ(j) (rev ? 3 - (j) : (j))

/* One quad of T (4 elements) -> f32, and back (rounded once, to nearest even). */
AXIAL_INLINE float32x4_t q_ld4(enum axial_kind k, const char *p) {
    switch (k) {
    case K_F16: return axial_neon_load4_f16((const uint16_t *)(const void *)p);
    case K_BF16: return axial_neon_load4_bf16((const uint16_t *)(const void *)p);
    default: return vld1q_f32((const float *)(const void *)p);
    }
}
AXIAL_INLINE void q_st4(enum axial_kind k, char *p, float32x4_t v) {
    switch (k) {
    case K_F16: vst1_u16((uint16_t *)(void *)p, axial_neon_f32_to_f16(v)); break;
    case K_BF16: vst1_u16((uint16_t *)(void *)p, axial_neon_f32_to_bf16(v)); break;
    default: vst1q_f32((float *)(void *)p, v); break;
    }
}
/* One block of T (16 elements) -> four f32 quads, memory order, and back. */
AXIAL_INLINE void q_ld16(enum axial_kind k, const char *p, float32x4_t v[4]) {
    if (k == K_F32) {
        AXIAL_UNROLL
        for (int m = 0; m < 4; m++)
            v[m] = vld1q_f32((const float *)(const void *)p + 4 * m);
        return;
    }
    const uint16x8_t h0 = vld1q_u16((const uint16_t *)(const void *)p);
    const uint16x8_t h1 = vld1q_u16((const uint16_t *)(const void *)p + 8);
    if (k == K_F16) {
        v[0] = axial_neon_f16_lo(h0), v[1] = axial_neon_f16_hi(h0);
        v[2] = axial_neon_f16_lo(h1), v[3] = axial_neon_f16_hi(h1);
    } else {
        v[0] = axial_neon_bf16_lo(h0), v[1] = axial_neon_bf16_hi(h0);
        v[2] = axial_neon_bf16_lo(h1), v[3] = axial_neon_bf16_hi(h1);
    }
}
AXIAL_INLINE void q_st16(enum axial_kind k, char *p, const float32x4_t o[4]) {
    uint16_t *h = (uint16_t *)(void *)p;
    switch (k) {
    case K_F16:
        vst1q_u16(h, axial_neon_f32x2_to_f16(o[0], o[1]));
        vst1q_u16(h + 8, axial_neon_f32x2_to_f16(o[2], o[3]));
        break;
    case K_BF16:
        vst1q_u16(h, axial_neon_f32x2_to_bf16(o[0], o[1]));
        vst1q_u16(h + 8, axial_neon_f32x2_to_bf16(o[2], o[3]));
        break;
    default:
        AXIAL_UNROLL
        for (int m = 0; m < 4; m++)
            vst1q_f32((float *)(void *)p + 4 * m, o[m]);
        break;
    }
}

/* The quad scan: a_i = v_i + v_{i-1}, s_i = a_i + a_{i-2}, -0.0 shifted in
 * (reverse: the same downwards in memory). */
AXIAL_INLINE float32x4_t q_scan(float32x4_t v, int rev) {
    const float32x4_t nz = vdupq_n_f32(-0.0f);
    if (rev) {
        const float32x4_t a = vaddq_f32(v, vextq_f32(v, nz, 1));
        return vaddq_f32(a, vextq_f32(a, nz, 2));
    }
    const float32x4_t a = vaddq_f32(v, vextq_f32(nz, v, 3));
    return vaddq_f32(a, vextq_f32(nz, a, 2));
}
/* The quad's last lane in scan order, in every lane. */
AXIAL_INLINE float32x4_t q_end(float32x4_t v, int rev) {
    return rev ? vdupq_laneq_f32(v, 0) : vdupq_laneq_f32(v, 3);
}

/* One block: v -> o (memory order), y = (C)D + e; D += t, S += t (f64). */
AXIAL_INLINE void q_block(const float32x4_t v[4], float32x4_t o[4], double *D, double *S, int excl,
                          int rev) {
    const float32x4_t nz = vdupq_n_f32(-0.0f);
    float32x4_t s[4], p[4];
    AXIAL_UNROLL
    for (int m = 0; m < 4; m++)
        s[m] = q_scan(v[m], rev);
    const float32x4_t b0 = q_end(s[AXIAL_KQ(0)], rev), b1 = q_end(s[AXIAL_KQ(1)], rev),
                      b2 = q_end(s[AXIAL_KQ(2)], rev);
    p[AXIAL_KQ(0)] = s[AXIAL_KQ(0)];
    p[AXIAL_KQ(1)] = vaddq_f32(s[AXIAL_KQ(1)], b0);
    p[AXIAL_KQ(2)] = vaddq_f32(s[AXIAL_KQ(2)], vaddq_f32(b1, b0));
    p[AXIAL_KQ(3)] = vaddq_f32(s[AXIAL_KQ(3)], vaddq_f32(vaddq_f32(b2, b1), b0));
    const double t =
        (double)(rev ? vgetq_lane_f32(p[AXIAL_KQ(3)], 0) : vgetq_lane_f32(p[AXIAL_KQ(3)], 3));
    const float32x4_t dc = vdupq_n_f32((float)*D);
    *D += t;
    *S += t;
    AXIAL_UNROLL
    for (int m = 0; m < 4; m++) {
        float32x4_t e = p[m];
        if (excl && rev)
            e = vextq_f32(p[m], m < 3 ? p[m + 1] : nz, 1);
        else if (excl)
            e = vextq_f32(m > 0 ? p[m - 1] : nz, p[m], 3);
        o[m] = vaddq_f32(dc, e);
    }
}

/* f64: a quad is (r[2q], r[2q + 1]); the quad scan on two registers. */
AXIAL_INLINE void d_scan(const float64x2_t v[2], float64x2_t s[2], int rev) {
    const float64x2_t nz = vdupq_n_f64(-0.0);
    if (rev) {
        const float64x2_t alo = vaddq_f64(v[0], vextq_f64(v[0], v[1], 1));
        const float64x2_t ahi = vaddq_f64(v[1], vextq_f64(v[1], nz, 1));
        s[0] = vaddq_f64(alo, ahi);
        s[1] = ahi;
    } else {
        const float64x2_t alo = vaddq_f64(v[0], vextq_f64(nz, v[0], 1));
        const float64x2_t ahi = vaddq_f64(v[1], vextq_f64(v[0], v[1], 1));
        s[0] = alo;
        s[1] = vaddq_f64(ahi, alo);
    }
}
/* The quad's last lane in scan order (r: the quad's two registers), in both lanes. */
AXIAL_INLINE float64x2_t d_end(const float64x2_t r[2], int rev) {
    return rev ? vdupq_laneq_f64(r[0], 0) : vdupq_laneq_f64(r[1], 1);
}
AXIAL_INLINE void d_block(const float64x2_t v[8], float64x2_t o[8], double *D, double *S, int excl,
                          int rev) {
    const float64x2_t nz = vdupq_n_f64(-0.0);
    float64x2_t s[8], p[8];
    AXIAL_UNROLL
    for (int m = 0; m < 4; m++)
        d_scan(v + 2 * m, s + 2 * m, rev);
    const float64x2_t b0 = d_end(s + 2 * AXIAL_KQ(0), rev), b1 = d_end(s + 2 * AXIAL_KQ(1), rev),
                      b2 = d_end(s + 2 * AXIAL_KQ(2), rev);
    const float64x2_t E[4] = {nz, b0, vaddq_f64(b1, b0), vaddq_f64(vaddq_f64(b2, b1), b0)};
    AXIAL_UNROLL
    for (int j = 0; j < 4; j++) {
        const int m = AXIAL_KQ(j);
        p[2 * m] = j ? vaddq_f64(s[2 * m], E[j]) : s[2 * m];
        p[2 * m + 1] = j ? vaddq_f64(s[2 * m + 1], E[j]) : s[2 * m + 1];
    }
    const double t = rev ? vgetq_lane_f64(p[2 * AXIAL_KQ(3)], 0)
                         : vgetq_lane_f64(p[2 * AXIAL_KQ(3) + 1], 1);
    const float64x2_t dc = vdupq_n_f64(*D);
    *D += t;
    *S += t;
    AXIAL_UNROLL
    for (int i = 0; i < 8; i++) {
        float64x2_t e = p[i];
        if (excl && rev)
            e = vextq_f64(p[i], i < 7 ? p[i + 1] : nz, 1);
        else if (excl)
            e = vextq_f64(i > 0 ? p[i - 1] : nz, p[i], 1);
        o[i] = vaddq_f64(dc, e);
    }
}

/* One block at xp -> yp (both may be the same memory). */
AXIAL_INLINE void f_block(enum axial_kind k, const char *xp, char *yp, double *D, double *S,
                          int excl,
                          int rev) {
    if (k == K_F64) {
        float64x2_t v[8], o[8];
        AXIAL_UNROLL
        for (int i = 0; i < 8; i++)
            v[i] = vld1q_f64((const double *)(const void *)xp + 2 * i);
        d_block(v, o, D, S, excl, rev);
        AXIAL_UNROLL
        for (int i = 0; i < 8; i++)
            vst1q_f64((double *)(void *)yp + 2 * i, o[i]);
        return;
    }
    float32x4_t v[4], o[4];
    q_ld16(k, xp, v);
    q_block(v, o, D, S, excl, rev);
    q_st16(k, yp, o);
}

/* nb bytes (< 256) without a library call: 16-byte pieces, then 8, 4, 2. */
AXIAL_INLINE void copy_small(char *d, const char *s, size_t nb) {
    for (; nb >= 16; nb -= 16, d += 16, s += 16)
        vst1q_u8((uint8_t *)d, vld1q_u8((const uint8_t *)s));
    if (nb & 8) {
        vst1_u8((uint8_t *)d, vld1_u8((const uint8_t *)s));
        d += 8, s += 8;
    }
    if (nb & 4) {
        uint32_t w;
        memcpy(&w, s, 4);
        memcpy(d, &w, 4);
        d += 4, s += 4;
    }
    if (nb & 2) {
        uint16_t w;
        memcpy(&w, s, 2);
        memcpy(d, &w, 2);
    }
}

/* A block of r < 16 elements at xp (k-space: the first r lanes; reverse:
 * xp[r - 1] is lane 0), through a buffer padded with -0.0. */
AXIAL_INLINE void f_part(enum axial_kind k, const char *xp, char *yp, size_t r, double *D,
                         double *S,
                         int excl, int rev) {
    const size_t es = k_es(k), at = rev ? (AXIAL_ORDER_LANES - r) * es : 0;
    _Alignas(16) char buf[AXIAL_ORDER_LANES * 8];
    const uint8x16_t nz = es == 2   ? vreinterpretq_u8_u16(vdupq_n_u16(0x8000u))
                          : es == 4 ? vreinterpretq_u8_f32(vdupq_n_f32(-0.0f))
                                    : vreinterpretq_u8_f64(vdupq_n_f64(-0.0));
    AXIAL_UNROLL
    for (size_t i = 0; i < AXIAL_ORDER_LANES * es; i += 16)
        vst1q_u8((uint8_t *)buf + i, nz);
    copy_small(buf + at, xp, r * es);
    f_block(k, buf, buf, D, S, excl, rev);
    copy_small(yp, buf + at, r * es);
}

/* A segment of len elements of one line, from the chunk carry R (kernels.h:
 * cumsum_seg).  Blocks from k = 0; chunks of AXIAL_SCAN_CHUNK elements; the
 * last block of the segment (r < 16 elements) goes through a buffer padded
 * with -0.0. */
AXIAL_INLINE double f_line(enum axial_kind k, const char *x, char *y, size_t len, int start,
                           double R, int excl, int rev) {
    const size_t es = k_es(k);
    for (size_t h = 0; h < len; h += AXIAL_SCAN_CHUNK) {
        const size_t hl = len - h < AXIAL_SCAN_CHUNK ? len - h : AXIAL_SCAN_CHUNK;
        const size_t nb = hl / AXIAL_ORDER_LANES, r = hl % AXIAL_ORDER_LANES;
        double D = R, S = -0.0;
        _Pragma("GCC unroll 2") for (size_t b = 0; b < nb; b++) {
            const size_t kb = h + b * AXIAL_ORDER_LANES;
            const size_t off = (rev ? len - kb - AXIAL_ORDER_LANES : kb) * es;
            f_block(k, x + off, y + off, &D, &S, excl, rev);
        }
        if (r) { /* the segment's last r elements (reverse: its first) */
            const size_t off = rev ? 0 : (h + nb * AXIAL_ORDER_LANES) * es;
            f_part(k, x + off, y + off, r, &D, &S, excl, rev);
        }
        R += S;
    }
    if (excl && start && len) /* the empty sum: +0.0, written last (in place) */
        memset(y + (rev ? len - 1 : 0) * es, 0, es);
    return R; /* R after the segment (kernels.h: cumsum_seg) */
}

/* Whole blocks inside one chunk from the carries ds = {D, S} (kernels.h:
 * cumsum_run): f_line's block loop, without its chunk ends. */
AXIAL_INLINE void f_run(enum axial_kind k, const char *x, char *y, size_t len, int start,
                        double *ds,
                        int excl, int rev) {
    const size_t es = k_es(k), nb = len / AXIAL_ORDER_LANES;
    double D = ds[0], S = ds[1];
    _Pragma("GCC unroll 2") for (size_t b = 0; b < nb; b++) {
        const size_t kb = b * AXIAL_ORDER_LANES;
        const size_t off = (rev ? len - kb - AXIAL_ORDER_LANES : kb) * es;
        f_block(k, x + off, y + off, &D, &S, excl, rev);
    }
    if (excl && start && len) /* the empty sum: +0.0, written last (in place) */
        memset(y + (rev ? len - 1 : 0) * es, 0, es);
    ds[0] = D;
    ds[1] = S;
}

/* Lines of n = 2 or 3 elements: LDn puts element j of 4 lines (F64: 2) in
 * register j, so the quad scan is vertical: s1 = v1 + v0, s2 = (v2 + v1) + v0
 * (reverse: v_j is element n - 1 - j), the same bits (addition commutes). */
#define AXIAL_MS_SCAN(ADD, Z, rg, n, excl, rev)                                                 \
    do {                                                                                        \
        if ((n) == 2) {                                                                         \
            const int i0 = rev ? 1 : 0, i1 = 1 - i0;                                            \
            const __typeof__(rg[0]) v0 = rg[i0], v1 = rg[i1];                                  \
            rg[i0] = excl ? (Z) : v0;                                                           \
            rg[i1] = excl ? v0 : ADD(v1, v0);                                                   \
        } else {                                                                                \
            const int i0 = rev ? 2 : 0, i2 = 2 - i0;                                            \
            const __typeof__(rg[0]) v0 = rg[i0], v1 = rg[1], v2 = rg[i2];                      \
            const __typeof__(rg[0]) s1 = ADD(v1, v0);                                           \
            rg[i0] = excl ? (Z) : v0;                                                           \
            rg[1] = excl ? v0 : s1;                                                             \
            rg[i2] = excl ? s1 : ADD(ADD(v2, v1), v0);                                          \
        }                                                                                       \
    } while (0)
AXIAL_INLINE void f_rows23(enum axial_kind k, const char *x, char *y, size_t rows, size_t n,
                           int excl,
                           int rev) {
    const size_t es = k_es(k), lb = n * es, per = k == K_F64 ? 2 : 4;
    size_t i = 0;
    for (; i + per <= rows; i += per) {
        const char *xp = x + i * lb;
        char *yp = y + i * lb;
        if (k == K_F64) {
            const double *d = (const double *)(const void *)xp;
            double *o = (double *)(void *)yp;
            float64x2_t rg[3];
            if (n == 2) {
                const float64x2x2_t t = vld2q_f64(d);
                rg[0] = t.val[0], rg[1] = t.val[1];
                AXIAL_MS_SCAN(vaddq_f64, vdupq_n_f64(0.0), rg, 2, excl, rev);
                const float64x2x2_t w = {{rg[0], rg[1]}};
                vst2q_f64(o, w);
            } else {
                const float64x2x3_t t = vld3q_f64(d);
                rg[0] = t.val[0], rg[1] = t.val[1], rg[2] = t.val[2];
                AXIAL_MS_SCAN(vaddq_f64, vdupq_n_f64(0.0), rg, 3, excl, rev);
                const float64x2x3_t w = {{rg[0], rg[1], rg[2]}};
                vst3q_f64(o, w);
            }
            continue;
        }
        float32x4_t rg[3];
        if (k == K_F32) {
            const float *f = (const float *)(const void *)xp;
            float *o = (float *)(void *)yp;
            if (n == 2) {
                const float32x4x2_t t = vld2q_f32(f);
                rg[0] = t.val[0], rg[1] = t.val[1];
                AXIAL_MS_SCAN(vaddq_f32, vdupq_n_f32(0.0f), rg, 2, excl, rev);
                const float32x4x2_t w = {{rg[0], rg[1]}};
                vst2q_f32(o, w);
            } else {
                const float32x4x3_t t = vld3q_f32(f);
                rg[0] = t.val[0], rg[1] = t.val[1], rg[2] = t.val[2];
                AXIAL_MS_SCAN(vaddq_f32, vdupq_n_f32(0.0f), rg, 3, excl, rev);
                const float32x4x3_t w = {{rg[0], rg[1], rg[2]}};
                vst3q_f32(o, w);
            }
            continue;
        }
        /* F16 / BF16: four lines in D registers, widened to f32 and back */
        const uint16_t *h = (const uint16_t *)(const void *)xp;
        uint16_t *o = (uint16_t *)(void *)yp;
#define AXIAL_W(u) (k == K_F16 ? vcvt_f32_f16(vreinterpret_f16_u16(u)) \
                               : vreinterpretq_f32_u32(vshll_n_u16(u, 16)))
#define AXIAL_N(f) (k == K_F16 ? axial_neon_f32_to_f16(f) : axial_neon_f32_to_bf16(f))
        if (n == 2) {
            const uint16x4x2_t t = vld2_u16(h);
            rg[0] = AXIAL_W(t.val[0]), rg[1] = AXIAL_W(t.val[1]);
            AXIAL_MS_SCAN(vaddq_f32, vdupq_n_f32(0.0f), rg, 2, excl, rev);
            const uint16x4x2_t w = {{AXIAL_N(rg[0]), AXIAL_N(rg[1])}};
            vst2_u16(o, w);
        } else {
            const uint16x4x3_t t = vld3_u16(h);
            rg[0] = AXIAL_W(t.val[0]), rg[1] = AXIAL_W(t.val[1]), rg[2] = AXIAL_W(t.val[2]);
            AXIAL_MS_SCAN(vaddq_f32, vdupq_n_f32(0.0f), rg, 3, excl, rev);
            const uint16x4x3_t w = {{AXIAL_N(rg[0]), AXIAL_N(rg[1]), AXIAL_N(rg[2])}};
            vst3_u16(o, w);
        }
#undef AXIAL_W
#undef AXIAL_N
    }
    for (; i < rows; i++) { /* the last lines, one block each */
        double D = -0.0, S = -0.0;
        f_part(k, x + i * lb, y + i * lb, n, &D, &S, excl, rev);
        if (excl)
            memset(y + i * lb + (rev ? lb - es : 0), 0, es);
    }
}
#undef AXIAL_MS_SCAN

/* Lines of n < 16 elements ([rows, n], n != 4): one block each, D = -0.0;
 * n = 1 is a copy (-0.0 + x == x) or, exclusive, +0.0; n = 2, 3: LDn. */
AXIAL_INLINE void f_short(enum axial_kind k, const char *x, char *y, size_t rows, size_t n,
                          int excl,
                          int rev) {
    const size_t es = k_es(k), lb = n * es;
    if (n == 1) {
        if (excl)
            memset(y, 0, rows * es);
        else if (x != y)
            memmove(y, x, rows * es);
        return;
    }
    if (n <= 3) {
        if (n == 2)
            f_rows23(k, x, y, rows, 2, excl, rev);
        else
            f_rows23(k, x, y, rows, 3, excl, rev);
        return;
    }
    for (size_t i = 0; i < rows; i++) {
        double D = -0.0, S = -0.0;
        f_part(k, x + i * lb, y + i * lb, n, &D, &S, excl, rev);
        if (excl) /* the empty sum: +0.0 */
            memset(y + i * lb + (rev ? lb - es : 0), 0, es);
    }
}

/* S of one chunk of len elements (a multiple of 16): the block totals
 * t = T3 + ((T2 + T1) + T0) of k-quads' totals T, whose quad sums
 * (v3 + v2) + (v1 + v0) are, bit for bit, the pairwise adds below. */
AXIAL_INLINE double f_total(enum axial_kind k, const char *x, size_t len, int rev) {
    const size_t es = k_es(k);
    double S = -0.0;
    for (size_t kb = 0; kb < len; kb += AXIAL_ORDER_LANES) {
        const char *p = x + (rev ? len - kb - AXIAL_ORDER_LANES : kb) * es;
        double Tm[4]; /* memory order */
        if (k == K_F64) {
            const double *d = (const double *)(const void *)p;
            const float64x2_t a = vpaddq_f64(vpaddq_f64(vld1q_f64(d), vld1q_f64(d + 2)),
                                             vpaddq_f64(vld1q_f64(d + 4), vld1q_f64(d + 6)));
            const float64x2_t b = vpaddq_f64(vpaddq_f64(vld1q_f64(d + 8), vld1q_f64(d + 10)),
                                             vpaddq_f64(vld1q_f64(d + 12), vld1q_f64(d + 14)));
            Tm[0] = vgetq_lane_f64(a, 0), Tm[1] = vgetq_lane_f64(a, 1);
            Tm[2] = vgetq_lane_f64(b, 0), Tm[3] = vgetq_lane_f64(b, 1);
            const double t = rev ? Tm[0] + ((Tm[1] + Tm[2]) + Tm[3])
                                 : Tm[3] + ((Tm[2] + Tm[1]) + Tm[0]);
            S += t;
        } else {
            float32x4_t v[4];
            q_ld16(k, p, v);
            const float32x4_t T = vpaddq_f32(vpaddq_f32(v[0], v[1]), vpaddq_f32(v[2], v[3]));
            const float t0 = vgetq_lane_f32(T, 0), t1 = vgetq_lane_f32(T, 1),
                        t2 = vgetq_lane_f32(T, 2), t3 = vgetq_lane_f32(T, 3);
            const float t = rev ? t0 + ((t1 + t2) + t3) : t3 + ((t2 + t1) + t0);
            S += (double)t;
        }
    }
    return S;
}

/* Short lines of n = 4 elements ([rows, 4]): one line per quad register, no
 * carry (D = -0.0: y = -0.0 + e = e); the quad scan is the whole network. */
AXIAL_INLINE float32x4_t q_line4(float32x4_t v, int excl, int rev) {
    const float32x4_t s = q_scan(v, rev), pz = vdupq_n_f32(0.0f);
    if (!excl)
        return s;
    return rev ? vextq_f32(s, pz, 1) : vextq_f32(pz, s, 3);
}
/* F64: a line is one quad of two registers. */
AXIAL_INLINE void d_line4(const char *xp, char *yp, int excl, int rev) {
    const float64x2_t pz = vdupq_n_f64(0.0);
    float64x2_t v[2], s[2];
    v[0] = vld1q_f64((const double *)(const void *)xp);
    v[1] = vld1q_f64((const double *)(const void *)xp + 2);
    d_scan(v, s, rev);
    if (excl && rev) {
        v[0] = vextq_f64(s[0], s[1], 1);
        v[1] = vextq_f64(s[1], pz, 1);
    } else if (excl) {
        v[1] = vextq_f64(s[0], s[1], 1);
        v[0] = vextq_f64(pz, s[0], 1);
    } else {
        v[0] = s[0], v[1] = s[1];
    }
    vst1q_f64((double *)(void *)yp, v[0]);
    vst1q_f64((double *)(void *)yp + 2, v[1]);
}
AXIAL_INLINE void q_rows4(enum axial_kind k, const char *x, char *y, size_t rows, int excl,
                          int rev) {
    const size_t es = k_es(k), lb = 4 * es;
    size_t i = 0;
    if (k == K_F64) {
        _Pragma("GCC unroll 2") for (; i < rows; i++)
            d_line4(x + i * lb, y + i * lb, excl, rev);
        return;
    }
    for (; i + 4 <= rows; i += 4) {
        float32x4_t v[4];
        q_ld16(k, x + i * lb, v);
        AXIAL_UNROLL
        for (int m = 0; m < 4; m++)
            v[m] = q_line4(v[m], excl, rev);
        q_st16(k, y + i * lb, v);
    }
    for (; i < rows; i++)
        q_st4(k, y + i * lb, q_line4(q_ld4(k, x + i * lb), excl, rev));
}

/* Columns (inner > 1): each column in f64 from -0.0, rounded once per output:
 * the register tiles of path 3 (f64 lanes); fewer columns than one vector in pieces. */
AXIAL_INLINE void f_cols(enum axial_kind k, const char *x, char *y, size_t n, size_t ncols,
                         size_t stride, int excl, int rev) {
    if (ncols >= k_w(k))
        cols_wide(k, x, y, n, ncols, stride * k_es(k), excl, rev);
    else
        cols_part(k, x, y, n, ncols, stride * k_es(k), excl, rev);
}

#define AXIAL_FLOAT_PATHS(name, K, F, E, R)                                                     \
    AXIAL_NOINLINE double cs_line_##name##_##F(const char *x, char *y, size_t len, int start,    \
                                               double carry) {                                  \
        return f_line(K, x, y, len, start, carry, E, R);                                        \
    }                                                                                           \
    AXIAL_NOINLINE void cs_run_##name##_##F(const char *x, char *y, size_t len, int start,       \
                                            double *ds) {                                       \
        f_run(K, x, y, len, start, ds, E, R);                                                   \
    }                                                                                           \
    AXIAL_NOINLINE void cs_rows4_##name##_##F(const char *x, char *y, size_t rows) {             \
        q_rows4(K, x, y, rows, E, R);                                                           \
    }                                                                                           \
    AXIAL_NOINLINE void cs_fshort_##name##_##F(const char *x, char *y, size_t rows, size_t n) {  \
        f_short(K, x, y, rows, n, E, R);                                                        \
    }                                                                                           \
    AXIAL_NOINLINE void cs_fcols_##name##_##F(const char *x, char *y, size_t n, size_t ncols,    \
                                              size_t stride) {                                  \
        f_cols(K, x, y, n, ncols, stride, E, R);                                                \
    }

/* The flags value F is EXCLUSIVE (1) | REVERSE (2). */
#define AXIAL_CUMSUM_FLOAT_KERNEL(name, K)                                                      \
    AXIAL_FLOAT_PATHS(name, K, 0, 0, 0)                                                         \
    AXIAL_FLOAT_PATHS(name, K, 1, 1, 0)                                                         \
    AXIAL_FLOAT_PATHS(name, K, 2, 0, 1)                                                         \
    AXIAL_FLOAT_PATHS(name, K, 3, 1, 1)                                                         \
    double axial_cumsum_seg_##name##__neon(const void *x, void *y, size_t len, unsigned flags,  \
                                           double carry) {                                      \
        static double (*const line[4])(const char *, char *, size_t, int, double) = {           \
            cs_line_##name##_0, cs_line_##name##_1, cs_line_##name##_2, cs_line_##name##_3};    \
        return line[flags & (AXIAL_CUMSUM_EXCLUSIVE | AXIAL_CUMSUM_REVERSE)](                   \
            (const char *)x, (char *)y, len, (flags & AXIAL_SCAN_CONTINUE) == 0, carry);        \
    }                                                                                           \
    void axial_cumsum_run_##name##__neon(const void *x, void *y, size_t len, unsigned flags,    \
                                         double *ds) {                                          \
        static void (*const run[4])(const char *, char *, size_t, int, double *) = {            \
            cs_run_##name##_0, cs_run_##name##_1, cs_run_##name##_2, cs_run_##name##_3};        \
        run[flags & (AXIAL_CUMSUM_EXCLUSIVE | AXIAL_CUMSUM_REVERSE)](                           \
            (const char *)x, (char *)y, len, (flags & AXIAL_SCAN_CONTINUE) == 0, ds);           \
    }                                                                                           \
    double axial_scan_total_##name##__neon(const void *x, size_t len, unsigned flags) {        \
        return flags & AXIAL_CUMSUM_REVERSE ? f_total(K, (const char *)x, len, 1)               \
                                            : f_total(K, (const char *)x, len, 0);              \
    }                                                                                           \
    void axial_cumsum_cols_##name##__neon(const void *x, void *y, size_t n, size_t ncols,      \
                                          size_t stride, unsigned flags) {                      \
        static void (*const col[4])(const char *, char *, size_t, size_t, size_t) = {           \
            cs_fcols_##name##_0, cs_fcols_##name##_1, cs_fcols_##name##_2,                      \
            cs_fcols_##name##_3};                                                               \
        col[flags & (AXIAL_CUMSUM_EXCLUSIVE | AXIAL_CUMSUM_REVERSE)]((const char *)x,          \
                                                                     (char *)y, n, ncols,       \
                                                                     stride);                   \
    }                                                                                           \
    void axial_cumsum_##name##__neon(const void *xv, void *yv, size_t outer, size_t n,         \
                                     size_t inner, unsigned flags) {                           \
        static void (*const rows4[4])(const char *, char *, size_t) = {                         \
            cs_rows4_##name##_0, cs_rows4_##name##_1, cs_rows4_##name##_2,                      \
            cs_rows4_##name##_3};                                                               \
        static void (*const shrt[4])(const char *, char *, size_t, size_t) = {                  \
            cs_fshort_##name##_0, cs_fshort_##name##_1, cs_fshort_##name##_2,                   \
            cs_fshort_##name##_3};                                                              \
        const char *x = (const char *)xv;                                                       \
        char *y = (char *)yv;                                                                   \
        const size_t slab = n * inner * k_es(K);                                                \
        const unsigned f = flags & (AXIAL_CUMSUM_EXCLUSIVE | AXIAL_CUMSUM_REVERSE);             \
        if (inner > 1) {                                                                        \
            for (size_t o = 0; o < outer; o++)                                                  \
                axial_cumsum_cols_##name##__neon(x + o * slab, y + o * slab, n, inner, inner,  \
                                                 f);                                            \
        } else if (n == 4) {                                                                    \
            rows4[f](x, y, outer);                                                              \
        } else if (n < AXIAL_ORDER_LANES) {                                                     \
            shrt[f](x, y, outer, n);                                                            \
        } else {                                                                                \
            for (size_t o = 0; o < outer; o++)                                                  \
                axial_cumsum_seg_##name##__neon(x + o * slab, y + o * slab, n, f, -0.0);        \
        }                                                                                       \
    }

/* Signed and unsigned integers of one width share the kernel (wrapping sums,
 * the same bits).  The flags value F is EXCLUSIVE (1) | REVERSE (2). */
#define AXIAL_CUMSUM_KERNEL(name, K)                                                            \
    AXIAL_CS_PATHS(name, K, 0, 0, 0)                                                            \
    AXIAL_CS_PATHS(name, K, 1, 1, 0)                                                            \
    AXIAL_CS_PATHS(name, K, 2, 0, 1)                                                            \
    AXIAL_CS_PATHS(name, K, 3, 1, 1)                                                            \
    void axial_cumsum_##name##__neon(const void *xv, void *yv, size_t outer, size_t n,         \
                                     size_t inner, unsigned flags) {                           \
        static void (*const lng[4])(const char *, char *, size_t, size_t) = {                   \
            cs_long_##name##_0, cs_long_##name##_1, cs_long_##name##_2, cs_long_##name##_3};    \
        static void (*const shrt[4])(const char *, char *, size_t, size_t) = {                  \
            cs_short_##name##_0, cs_short_##name##_1, cs_short_##name##_2, cs_short_##name##_3};\
        static void (*const flat[4])(const char *, char *, size_t, size_t) = {                  \
            cs_flat_##name##_0, cs_flat_##name##_1, cs_flat_##name##_2, cs_flat_##name##_3};    \
        static void (*const col[4])(const char *, char *, size_t, size_t, size_t) = {           \
            cs_cols_##name##_0, cs_cols_##name##_1, cs_cols_##name##_2, cs_cols_##name##_3};    \
        const char *x = (const char *)xv;                                                       \
        char *y = (char *)yv;                                                                   \
        const unsigned f = flags & (AXIAL_CUMSUM_EXCLUSIVE | AXIAL_CUMSUM_REVERSE);             \
        if (inner > 1)                                                                          \
            col[f](x, y, outer, n, inner);                                                      \
        else if (n >= 4 * k_w(K))                                                               \
            lng[f](x, y, outer, n);                                                             \
        else if (ms_plan(K, n))                                                                 \
            shrt[f](x, y, outer, n);                                                            \
        else                                                                                    \
            flat[f](x, y, outer, n);                                                            \
    }
AXIAL_CUMSUM_FLOAT_KERNEL(f32, K_F32)
AXIAL_CUMSUM_FLOAT_KERNEL(f64, K_F64)
AXIAL_CUMSUM_FLOAT_KERNEL(f16, K_F16)
AXIAL_CUMSUM_FLOAT_KERNEL(bf16, K_BF16)
AXIAL_CUMSUM_KERNEL(i8, K_I8)
AXIAL_CUMSUM_KERNEL(i16, K_I16)
AXIAL_CUMSUM_KERNEL(i32, K_I32)
AXIAL_CUMSUM_KERNEL(i64, K_I64)

/* Unsigned integers: the same wrapping bits as the signed kernel of their width. */
AXIAL_CUMSUM_UNSIGNED_KERNELS(neon)

/* cumsum_cols_run (kernels.h): kernels/cols_run.h, vectorised by the compiler. */
AXIAL_DEFINE_COLS_RUN(neon)
