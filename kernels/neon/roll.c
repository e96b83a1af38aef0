/* SPDX-License-Identifier: MIT */
/*
 * roll.c: AdvSIMD (NEON) Roll, one entry point per element size (b1, b2, b4,
 * b8) serving every dtype, bool included: `outer` contiguous rows of n
 * elements, y[o][(j + shift) mod n] = x[o][j], 0 <= shift < n, x and y
 * disjoint.  Roll moves bytes: no summation order applies, and the output is
 * the scalar kernel's bit for bit.  One body works in bytes (rows of nb = n*E
 * bytes rotated by sb = shift*E, a flat block of T = outer*nb bytes): TBL
 * permutes bytes, so unlike the x86 kernels nothing depends on E.
 *
 * Paths, chosen once per call; the loops move 64 bytes a step:
 *  - shift 0: one copy of the block.
 *  - nb divides 16: one TBL per output vector, the index built once per call.
 *  - nb = 32: one TBL over the row's two registers per output vector.  TBL
 *    over four registers is three uops on Neoverse N1 (one or two registers:
 *    one, as BSL), so rows of 64 bytes take the select path.
 *  - other nb < AXIAL_ROLL_LONG: two loads and a BSL per output vector.
 *  - longer rows, and calls too small for the select: two copies per row.
 * Tails: copies over 64 bytes end with the last 64 bytes again, overlapping;
 * shorter ones are overlapping pairs of 32, 16, 8, 4 or 2 bytes; the TBL path
 * ends with whole rows in 8/4/2-byte chunks.  Nothing outside the rows is read
 * or written, and no vector move is masked or partial.
 *
 * No non-temporal stores: Neoverse-class cores stop allocating lines for the
 * destination on their own when they see a run of full-line writes (glibc's
 * aarch64 memcpy relies on the same), so, unlike the x86 kernels, there is no
 * size threshold and no fence.
 */
#include <string.h>

#include "neon.h"

#define AXIAL_ROLL_LONG 128  /* row bytes from which rows are block copies */
#define AXIAL_ROLL_ALIGN 256 /* copies from which the stores are 16-byte aligned */

AXIAL_INLINE uint8x16_t axial_roll_ld(const char *p) {
    return vld1q_u8((const uint8_t *)(const void *)p);
}
AXIAL_INLINE void axial_roll_st(char *p, uint8x16_t v) {
    vst1q_u8((uint8_t *)(void *)p, v);
}

/* Copies len <= 64 bytes. */
AXIAL_INLINE void axial_roll_copy_short(char *d, const char *s, size_t len) {
    if (len >= 32) {
        const uint8x16_t a = axial_roll_ld(s), b = axial_roll_ld(s + 16);
        const uint8x16_t c = axial_roll_ld(s + len - 32), e = axial_roll_ld(s + len - 16);
        axial_roll_st(d, a);
        axial_roll_st(d + 16, b);
        axial_roll_st(d + len - 32, c);
        axial_roll_st(d + len - 16, e);
    } else if (len >= 16) {
        const uint8x16_t a = axial_roll_ld(s), b = axial_roll_ld(s + len - 16);
        axial_roll_st(d, a);
        axial_roll_st(d + len - 16, b);
    } else if (len >= 8) {
        AXIAL_ROLL_PAIR(8, d, s, len);
    } else if (len >= 4) {
        AXIAL_ROLL_PAIR(4, d, s, len);
    } else if (len >= 2) {
        AXIAL_ROLL_PAIR(2, d, s, len);
    } else if (len == 1) {
        *d = *s;
    }
}

/* Copies len > 64 bytes: 64 bytes a step, then the last 64 again.  From
 * AXIAL_ROLL_ALIGN bytes on, the steps store 16-byte aligned, so that no
 * q store splits a cache line. */
static void axial_roll_copy_long(char *d, const char *s, size_t len) {
    char *const de = d + len;
    const char *const se = s + len;
    if (len >= AXIAL_ROLL_ALIGN) { /* one head vector, then stores aligned to 16 */
        axial_roll_st(d, axial_roll_ld(s));
        const size_t a = 16 - ((uintptr_t)d & 15);
        d += a, s += a, len -= a;
    }
    for (size_t k = (len - 1) / 64; k > 0; k--, d += 64, s += 64) {
        const uint8x16_t v0 = axial_roll_ld(s), v1 = axial_roll_ld(s + 16);
        const uint8x16_t v2 = axial_roll_ld(s + 32), v3 = axial_roll_ld(s + 48);
        axial_roll_st(d, v0);
        axial_roll_st(d + 16, v1);
        axial_roll_st(d + 32, v2);
        axial_roll_st(d + 48, v3);
    }
    /* the last 64 bytes (1 to 64 of them not yet written) */
    const uint8x16_t v0 = axial_roll_ld(se - 64), v1 = axial_roll_ld(se - 48);
    const uint8x16_t v2 = axial_roll_ld(se - 32), v3 = axial_roll_ld(se - 16);
    axial_roll_st(de - 64, v0);
    axial_roll_st(de - 48, v1);
    axial_roll_st(de - 32, v2);
    axial_roll_st(de - 16, v3);
}

AXIAL_INLINE void axial_roll_copy(char *d, const char *s, size_t len) {
    if (len <= 64)
        axial_roll_copy_short(d, s, len);
    else
        axial_roll_copy_long(d, s, len);
}

/* One row by two copies. */
AXIAL_INLINE void axial_roll_row(const char *x, char *y, size_t nb, size_t sb) {
    axial_roll_copy(y, x + nb - sb, sb);
    axial_roll_copy(y + sb, x, nb - sb);
}

/* ---- rows that tile the vector (nb divides 16) or a q pair (nb = 32): TBL ------ */

/* The TBL index of the output bytes base..base+15 of a block of whole rows,
 * nb a power of two: the byte of the block each takes, (its row start) +
 * ((its phase - sb) mod nb) = k - sb, plus nb where the phase is < sb. */
AXIAL_INLINE uint8x16_t axial_roll_index(uint8_t base, size_t nb, size_t sb) {
    static const uint8_t iota[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    const uint8x16_t k = vaddq_u8(vld1q_u8(iota), vdupq_n_u8(base));
    const uint8x16_t ph = vandq_u8(k, vdupq_n_u8((uint8_t)(nb - 1)));
    const uint8x16_t wrap = vcltq_u8(ph, vdupq_n_u8((uint8_t)sb));
    return vaddq_u8(vsubq_u8(k, vdupq_n_u8((uint8_t)sb)),
                    vandq_u8(wrap, vdupq_n_u8((uint8_t)nb)));
}

/* Whole rows of W bytes (W = 2, 4 or 8, a multiple of nb) by the low half of
 * the index: the rows lie inside the chunk, so the indices do too. */
#define AXIAL_ROLL_CHUNK(W, d, s, idx)                                                  \
    do {                                                                                \
        uint64_t w_ = 0;                                                                \
        memcpy(&w_, s, W);                                                              \
        const uint8x8_t r_ = vqtbl1_u8(vcombine_u8(vcreate_u8(w_), vcreate_u8(0)),      \
                                       vget_low_u8(idx));                               \
        w_ = vget_lane_u64(vreinterpret_u64_u8(r_), 0);                                 \
        memcpy(d, &w_, W);                                                              \
    } while (0)

/* nb divides 16: one TBL per vector. */
static void axial_roll_tiled16(const char *x, char *y, size_t T, size_t nb, size_t sb) {
    const uint8x16_t idx = axial_roll_index(0, nb, sb);
    for (size_t k = T / 64; k > 0; k--, x += 64, y += 64) {
        const uint8x16_t v0 = axial_roll_ld(x), v1 = axial_roll_ld(x + 16);
        const uint8x16_t v2 = axial_roll_ld(x + 32), v3 = axial_roll_ld(x + 48);
        axial_roll_st(y, vqtbl1q_u8(v0, idx));
        axial_roll_st(y + 16, vqtbl1q_u8(v1, idx));
        axial_roll_st(y + 32, vqtbl1q_u8(v2, idx));
        axial_roll_st(y + 48, vqtbl1q_u8(v3, idx));
    }
    for (size_t k = T % 64 / 16; k > 0; k--, x += 16, y += 16)
        axial_roll_st(y, vqtbl1q_u8(axial_roll_ld(x), idx));
    /* T % 16 is whole rows of a power of two nb <= 8 bytes, so its binary
     * digits are chunks of whole rows */
    if (T & 8) {
        AXIAL_ROLL_CHUNK(8, y, x, idx);
        x += 8, y += 8;
    }
    if (T & 4) {
        AXIAL_ROLL_CHUNK(4, y, x, idx);
        x += 4, y += 4;
    }
    if (T & 2)
        AXIAL_ROLL_CHUNK(2, y, x, idx);
}

/* nb = 32: each output vector is a TBL over its row's two registers (LD1 of
 * two registers puts them in the consecutive pair TBL needs). */
static void axial_roll_tiled32(const char *x, char *y, size_t T, size_t sb) {
    const uint8x16_t i0 = axial_roll_index(0, 32, sb), i1 = axial_roll_index(16, 32, sb);
    const uint8_t *s = (const uint8_t *)(const void *)x;
    for (size_t k = T / 64; k > 0; k--, s += 64, y += 64) {
        const uint8x16x2_t r0 = vld1q_u8_x2(s), r1 = vld1q_u8_x2(s + 32);
        axial_roll_st(y, vqtbl2q_u8(r0, i0));
        axial_roll_st(y + 16, vqtbl2q_u8(r0, i1));
        axial_roll_st(y + 32, vqtbl2q_u8(r1, i0));
        axial_roll_st(y + 48, vqtbl2q_u8(r1, i1));
    }
    if (T & 32) { /* one row left */
        const uint8x16x2_t r0 = vld1q_u8_x2(s);
        axial_roll_st(y, vqtbl2q_u8(r0, i0));
        axial_roll_st(y + 16, vqtbl2q_u8(r0, i1));
    }
}

/* ---- short rows that do not tile: two loads and a select ---------------------- */

/* M[k] = (k mod nb) < sb ? 0xff : 0 for k < 16 * blocks, by vectors: the
 * phases of block j + 1 are those of block j plus 16 mod nb, less nb where
 * that reaches nb (no division per byte). */
static void axial_roll_pattern(uint8_t *M, size_t nb, size_t sb, size_t blocks) {
    static const uint8_t iota[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    const uint8x16_t vnb = vdupq_n_u8((uint8_t)nb), vsb = vdupq_n_u8((uint8_t)sb);
    const uint8x16_t step = vdupq_n_u8((uint8_t)(16 % nb));
    uint8x16_t ph = vld1q_u8(iota);
    for (size_t q = nb; q < 16; q += nb) /* iota mod nb */
        ph = vsubq_u8(ph, vandq_u8(vcgeq_u8(ph, vnb), vnb));
    for (size_t j = 0; j < blocks; j++) {
        vst1q_u8(M + 16 * j, vcltq_u8(ph, vsb));
        ph = vaddq_u8(ph, step);
        ph = vsubq_u8(ph, vandq_u8(vcgeq_u8(ph, vnb), vnb));
    }
}

/* The output vector at flat byte p (sb <= p, p + 16 <= T - nb + sb), whose
 * phase in its row is ph. */
AXIAL_INLINE uint8x16_t axial_roll_select(const char *x, const uint8_t *M, size_t p,
                                          size_t ph, size_t nb, size_t sb) {
    return vbslq_u8(vld1q_u8(M + ph), axial_roll_ld(x + p - sb + nb), axial_roll_ld(x + p - sb));
}

/* 64 output bytes at d from the straight (xa) and wrapped (xb) sources. */
AXIAL_INLINE void axial_roll_select4(char *d, const char *xa, const char *xb, uint8x16_t m0,
                                     uint8x16_t m1, uint8x16_t m2, uint8x16_t m3) {
    const uint8x16_t a0 = axial_roll_ld(xa), a1 = axial_roll_ld(xa + 16);
    const uint8x16_t a2 = axial_roll_ld(xa + 32), a3 = axial_roll_ld(xa + 48);
    const uint8x16_t b0 = axial_roll_ld(xb), b1 = axial_roll_ld(xb + 16);
    const uint8x16_t b2 = axial_roll_ld(xb + 32), b3 = axial_roll_ld(xb + 48);
    axial_roll_st(d, vbslq_u8(m0, b0, a0));
    axial_roll_st(d + 16, vbslq_u8(m1, b1, a1));
    axial_roll_st(d + 32, vbslq_u8(m2, b2, a2));
    axial_roll_st(d + 48, vbslq_u8(m3, b3, a3));
}

/* Over the flat output, y[p] = x[p - sb] where p's phase in its row (p mod nb)
 * is >= sb, else x[p - sb + nb]: every output vector, wherever rows begin in
 * it, is BSL(M[p mod nb ..], x[p - sb + nb ..], x[p - sb ..]).  M has nb + 64
 * bytes, so the 4 vectors of a step read it at one phase.  Both loads stay in x
 * for p in [sb, T - nb + sb); the two ends are plain copies.  One unaligned
 * head vector, then 16-byte aligned stores, the last vector overlapping.
 * Needs nb < AXIAL_ROLL_LONG and (outer - 1) * nb >= 16. */
static void axial_roll_selected(const char *x, char *y, size_t T, size_t nb, size_t sb) {
    uint8_t M[AXIAL_ROLL_LONG + 64]; /* nb + 64 bytes, whole blocks */
    axial_roll_pattern(M, nb, sb, (nb + 64 + 15) / 16);
    const size_t p1 = T - nb + sb; /* the outputs of both loads end at p1 */
    axial_roll_copy(y, x + nb - sb, sb);          /* row 0's wrapped part */
    axial_roll_copy(y + p1, x + T - nb, nb - sb); /* the last row's unwrapped part */
    axial_roll_st(y + sb, axial_roll_select(x, M, sb, sb, nb, sb));
    const size_t a = 16 - ((uintptr_t)(y + sb) & 15); /* then stores aligned to 16 */
    size_t p = sb + a;                                /* <= sb + 16 <= p1 */
    const size_t step4 = 64 % nb, step1 = 16 % nb;
    const char *xa = x + p - sb, *xb = xa + nb; /* the straight and the wrapped source */
    const uint8_t *m = M + (p % nb);
    const uint8_t *const mend = M + nb;
    char *d = y + p;
    const size_t steps = (p1 - p) / 64;
    if (step4 == 0) { /* nb = 64: every step reads M at one phase, masks stay in registers */
        const uint8x16_t m0 = vld1q_u8(m), m1 = vld1q_u8(m + 16);
        const uint8x16_t m2 = vld1q_u8(m + 32), m3 = vld1q_u8(m + 48);
        for (size_t k = steps; k > 0; k--, xa += 64, xb += 64, d += 64)
            axial_roll_select4(d, xa, xb, m0, m1, m2, m3);
    } else {
        for (size_t k = steps; k > 0; k--, xa += 64, xb += 64, d += 64) {
            axial_roll_select4(d, xa, xb, vld1q_u8(m), vld1q_u8(m + 16), vld1q_u8(m + 32),
                               vld1q_u8(m + 48));
            m += step4;
            m -= m >= mend ? nb : 0;
        }
    }
    for (size_t k = (p1 - p) % 64 / 16; k > 0; k--) {
        axial_roll_st(d, vbslq_u8(vld1q_u8(m), axial_roll_ld(xb), axial_roll_ld(xa)));
        xa += 16, xb += 16, d += 16, m += step1;
        m -= m >= mend ? nb : 0;
    }
    if ((p1 - p) % 16) /* the last vector again, overlapping: the same bytes */
        axial_roll_st(y + p1 - 16, axial_roll_select(x, M, p1 - 16, (p1 - 16) % nb, nb, sb));
}

/* ---- the kernel ------------------------------------------------------------------ */

static void axial_roll_neon(const void *xv, void *yv, size_t outer, size_t nb, size_t sb) {
    const char *x = (const char *)xv;
    char *y = (char *)yv;
    const size_t T = outer * nb;
    if (sb == 0) {
        axial_roll_copy(y, x, T);
    } else if (nb <= 16 && (nb & (nb - 1)) == 0) { /* nb divides 16 */
        axial_roll_tiled16(x, y, T, nb, sb);
    } else if (nb == 32) {
        axial_roll_tiled32(x, y, T, sb);
    } else if (nb < AXIAL_ROLL_LONG && T - nb >= 16) {
        axial_roll_selected(x, y, T, nb, sb);
    } else {
        for (size_t o = 0; o < outer; o++, x += nb, y += nb)
            axial_roll_row(x, y, nb, sb);
    }
}

/* The entry points take elements; the kernel works in bytes.  (No streaming
 * stores on NEON: flags is ignored.) */
static inline void axial_roll_neon_elems(const void *x, void *y, size_t outer, size_t n,
                                         size_t s, size_t E, unsigned flags) {
    (void)flags;
    axial_roll_neon(x, y, outer, n * E, s * E);
}
AXIAL_DEFINE_ROLL_ENTRIES(neon, axial_roll_neon_elems)
