/* SPDX-License-Identifier: MIT */
/*
 * ops/cumsum.h: CumSum for every summable dtype, written once over simd/<isa>.h (included first): the
 * whole-shape kernel and the float split kernels cumsum_seg, scan_total, cumsum_run, cumsum_cols,
 * cumsum_cols_run (kernels.h), all defined by AX_CUMSUM_ENTRIES(). Floats follow the one summation order
 * (docs/API.md, "One summation order"; tests/order_ref.c).  Lines: blocks of 16 in scan order, each a virtual
 * block (blk: 16 f32 lanes for f32/f16/bf16; blkd: 16 f64); blk_qscan scans the quads, blk_qoffs adds the quad
 * offsets E, the total p_15 feeds the f64 carries D and S of the chunk (AXIAL_SCAN_CHUNK elements: D from R, R
 * += S at its end).  An output is (C)D + p_i, exclusive (C)D + p_{i-1}, a line's first exclusive output +0.0
 * (written last: in place, its input was read).  REVERSE is a constant the vocabulary mirrors its shifts by
 * (blocks keep their layout).  A partial last block goes through -0.0 padding; lines of n < 16 are each a
 * block from -0.0 (y = p), packed in slots (lines of 4: one quad each; of 2 and 3 on contiguous vectors).
 * Columns: each a sequential f64 sum from -0.0 (or acc[c]), rounded once per output (f16/bf16 through f32
 * rounded to odd); a register tile of AX_CS_TILE vectors walks the rows, or for wide rows all columns walk
 * them over running sums in memory. Integers wrap in their own width (any order gives their bits; signed and
 * unsigned share a kernel), exclusive = inclusive - x: rows of n >= 16 a vector at a time, n < 16 one
 * segmented scan of the flat run; columns as the floats, or (AX_CS_IFLAT) narrow ones as one flat run.  Where
 * the ISA streams (AX_CS_NT), a large call streams (kernels/README.md), then fences.
 */
#ifndef AXIAL_OPS_CUMSUM_H
#define AXIAL_OPS_CUMSUM_H

#include <stdlib.h>

#ifndef AX_CS_NT
#define AX_CS_NT 0
#endif
#ifndef AX_CS_EXCL_CONST
#define AX_CS_EXCL_CONST 0
#endif
#ifndef AX_CS_TILE
#define AX_CS_TILE 4
#endif
#ifndef AX_CS_REST_TILES /* the columns past the last tile as one smaller tile (AX_CS_TILE 8) */
#define AX_CS_REST_TILES 0
#endif
_Static_assert(!AX_CS_REST_TILES || AX_CS_TILE == 8, "AX_CS_REST_TILES takes tiles of 8");
#ifndef AX_CS_HALVES /* kinds whose column vectors move as two f64 halves (vd_ld_h, vd_put_h) */
#define AX_CS_HALVES(k) 0
#endif
#ifndef AX_BLK_PART /* 1: blk_ld_part, blk_st_part (masked blocks: a line's tail, and f64 lines of 10-15) */
#define AX_BLK_PART 0
#endif
#ifndef AX_CS_PART_ROWS /* integer rows of these bytes, narrower than a vector, move as parts, not whole vectors */
#define AX_CS_PART_ROWS(bytes) 0
#endif
#ifndef AX_CS_ROWS_CONST /* narrow tiles' rows in loops of each constant width (no branch a row) */
#define AX_CS_ROWS_CONST 0
#endif

/* ---- float lines ----------------------------------------------------------- */

/* One block at xb (its lowest address): its total t; with out, the outputs (C)D + e at yb.  The same code for
 * both networks (B: blk or blkd, C the carry's type in the block); also lines of 4 (cs_quads_B). */
#define AX_CS_BLOCK(B, C)                                                                   \
    AXIAL_INLINE double cs_block_##B(int k, const char *xb, char *yb, C dc, int out, int excl, \
                                     int rev, int nt) {                                     \
        const B p = B##_qoffs(B##_qscan(B##_ld(k, xb, rev), rev), rev);                     \
        const double t = B##_total(p, rev);                                                 \
        if (out)                                                                            \
            B##_st(k, yb, B##_addc(dc, excl ? B##_up1(p, rev) : p), rev, nt);               \
        return t;                                                                           \
    }                                                                                       \
    AXIAL_INLINE void cs_row16_##B(int k, const char *x, char *y, int excl, int rev, int nt) { \
        const B p = B##_qoffs(B##_qscan(B##_ld(k, x, rev), rev), rev);                     \
        B##_st(k, y, excl ? B##_up1(p, rev) : p, rev, nt);                                  \
    }                                                                                       \
    AXIAL_INLINE void cs_quads_##B(int k, const char *x, char *y, int excl, int rev, int nt) { \
        const B s = B##_qscan(B##_ld(k, x, rev), rev);                                      \
        B##_st(k, y, excl ? B##_qexcl(s, rev) : s, rev, nt);                                \
    }
AX_CS_BLOCK(blk, float)
AX_CS_BLOCK(blkd, double)

AXIAL_INLINE double cs_block(int k, const char *xb, char *yb, double D, int out, int excl,
                             int rev, int nt) {
    if (k == AXK_F64)
        return cs_block_blkd(k, xb, yb, D, out, excl, rev, nt);
    return cs_block_blk(k, xb, yb, (float)D, out, excl, rev, nt);
}

/* The last r < 16 elements of a chunk (a line's end), padded with -0.0. */
AXIAL_INLINE double cs_tail(int k, const char *x, char *y, size_t r, double D, int out,
                            int excl, int rev) {
    const size_t es = axk_size(k), off = (rev ? 16 - r : 0) * es;
#if AX_BLK_PART /* the block that ends at the line's end, masked to its r elements */
    const void *xb = (const void *)((uintptr_t)x - off);
    void *yb = (void *)((uintptr_t)y - off);
    if (k == AXK_F64) {
        const blkd p = blkd_qoffs(blkd_qscan(blkd_ld_part(xb, r, rev), rev), rev);
        if (out)
            blkd_st_part(yb, blkd_addc(D, excl ? blkd_up1(p, rev) : p), r, rev);
        return blkd_total(p, rev);
    }
    const blk p = blk_qoffs(blk_qscan(blk_ld_part(k, xb, r, rev), rev), rev);
    if (out)
        blk_st_part(k, yb, blk_addc((float)D, excl ? blk_up1(p, rev) : p), r, rev);
    return blk_total(p, rev);
#endif
    _Alignas(64) uint64_t bi[16], bo[16];
    axk_fill_nz(k, bi, sizeof bi);
    axk_copy((char *)bi + off, x, r, es);
    const double t = cs_block(k, (const char *)bi, (char *)bo, D, out, excl, rev, 0);
    if (out)
        axk_copy(y, (const char *)bo + off, r, es);
    return t;
}

/* The carries D and S of a chunk; an ISA may keep them otherwise (AX_CS_CARRY): cs_dc is D rounded to C = f32,
 * cs_d is D. */
#ifndef AX_CS_CARRY
typedef struct { double D, S; } cs_carry;
AXIAL_INLINE cs_carry cs_carry_of(double D, double S) { return (cs_carry){D, S}; }
AXIAL_INLINE double cs_d(cs_carry c) { return c.D; }
AXIAL_INLINE double cs_s(cs_carry c) { return c.S; }
AXIAL_INLINE float cs_dc(cs_carry c) { return (float)c.D; }
AXIAL_INLINE cs_carry cs_add(cs_carry c, double t) { return (cs_carry){c.D + t, c.S + t}; }
#endif

/* Blocks [b, end) of k-space from the carries D, S (a whole number of blocks unless end is the line's end,
 * len).  An ISA may take four f32 blocks a step (AX_CS_STEP4: cs_step4). */
AXIAL_INLINE void cs_blocks(int k, const char *x, char *y, size_t len, size_t b, size_t end,
                            double *D, double *S, int out, int excl, int rev, int nt) {
    const size_t es = axk_size(k);
    const int one = !memcmp(D, S, sizeof *D); /* D and S of the same bits stay so */
    cs_carry c = cs_carry_of(*D, *S);
#ifdef AX_CS_TOTALS8 /* totals alone (scan_total), 8 blocks at once */
    for (_Alignas(32) double t[8]; !out && k != AXK_F64 && b + 128 <= end; b += 128) {
        cs_totals8(k, x + (rev ? len - 128 - b : b) * es, t, rev);
        for (int j = 0; j < 8; j++)
            c = cs_add(c, t[rev ? 7 - j : j]);
    }
#endif
#ifdef AX_CS_STEP4
    for (; k != AXK_F64 && b + 64 <= end; b += 64) {
        const size_t p = (rev ? len - 64 - b : b) * es;
        c = cs_step4(k, x + p, y + p, c, out, excl, rev, nt);
    }
#endif
    for (; b + 16 <= end; b += 16) { /* (one: S is D's, not summed apart: AVX2 f32 lines 0.94x) */
        const size_t p = (rev ? len - 16 - b : b) * es;
        const double t = k == AXK_F64 ? cs_block_blkd(k, x + p, y + p, cs_d(c), out, excl, rev, nt)
                                      : cs_block_blk(k, x + p, y + p, cs_dc(c), out, excl, rev, nt);
        c = one ? cs_carry_of(cs_d(c) + t, -0.0) : cs_add(c, t);
    }
    c = one ? cs_carry_of(cs_d(c), cs_d(c)) : c;
    if (b < end) {
        const size_t p = (rev ? 0 : b) * es;
        c = cs_add(c, cs_tail(k, x + p, y + p, end - b, cs_d(c), out, excl, rev));
    }
    *D = cs_d(c);
    *S = cs_s(c);
}

/* Whether full blocks of a line at y may stream: each vector store of a block is aligned. */
AXIAL_INLINE int cs_nt_line(int k, const char *y, size_t len, int rev, int nt) {
    const size_t es = axk_size(k), a = 16 * es < AX_VB ? 16 * es : AX_VB;
    return AX_CS_NT && nt && (((uintptr_t)(rev ? y + len * es : y)) & (a - 1)) == 0;
}

/* A segment of len elements from the chunk carry R (cumsum_seg; scan_total with out = 0): returns R after it.
 * */
AXIAL_INLINE double cs_line(int k, const char *x, char *y, size_t len, int out, int excl,
                            int rev, int start, double R, int nt) {
    nt = out && cs_nt_line(k, y, len, rev, nt);
    for (size_t h = 0; h < len; h += AXIAL_SCAN_CHUNK) {
        const size_t end = len - h < AXIAL_SCAN_CHUNK ? len : h + AXIAL_SCAN_CHUNK;
        double D = R, S = -0.0;
        cs_blocks(k, x, y, len, h, end, &D, &S, out, excl, rev, nt);
        R += S;
    }
    if (out && excl && start && len) /* the empty sum: +0.0, all-zero bits */
        memset(y + (rev ? len - 1 : 0) * axk_size(k), 0, axk_size(k));
    return R;
}

/* Whole blocks of one chunk from ds = {D, S} (cumsum_run). */
AXIAL_INLINE void cs_run(int k, const char *x, char *y, size_t len, int excl, int rev, int start,
                         double *ds) {
    cs_blocks(k, x, y, len, 0, len, &ds[0], &ds[1], 1, excl, rev, 0);
    if (excl && start && len)
        memset(y + (rev ? len - 1 : 0) * axk_size(k), 0, axk_size(k));
}

/* One block of lines in slots of P lanes (4: quads; 8: f32, f16, bf16 halves; 16), each from -0.0: the levels
 * inside a slot; the exclusive first output in k order +0.0 for P = 4 (qexcl), else the slot before's last. */
AXIAL_INLINE void cs_slots(int k, const char *xb, char *yb, size_t P, int excl, int rev, int nt) {
    if (P == 8) {
        const blk p = blk_qoffs8(blk_qscan(blk_ld(k, xb, rev), rev), rev);
        blk_st(k, yb, excl ? blk_up1(p, rev) : p, rev, nt);
    } else
        (P == 4 ? k == AXK_F64 ? cs_quads_blkd : cs_quads_blk : k == AXK_F64 ? cs_row16_blkd : cs_row16_blk)(k, xb, yb, excl, rev, nt);
}
/* Lines of 4, 8 (f32, f16, bf16) and 16: 16 / n to a block; the lines left over go one by one. */
AXIAL_INLINE void cs_lines(int k, const char *x, char *y, size_t outer, size_t n, int excl,
                            int rev, int nt) {
    const size_t es = axk_size(k), per = 16 / n;
    nt = cs_nt_line(k, y, 0, 0, nt);
    size_t o = 0;
    for (; o + per <= outer; o += per) {
        cs_slots(k, x + o * n * es, y + o * n * es, n, excl, rev, nt);
        for (size_t r = 0; excl && n != 4 && r < per; r++) memset(y + ((o + r) * n + (rev ? n - 1 : 0)) * es, 0, es);
    }
    for (; o < outer; o++)
        cs_line(k, x + o * n * es, y + o * n * es, n, 1, excl, rev, 1, -0.0, 0);
}

/* f(args..., excl, rev) with each flag a constant in its copy (for loops whose registers must not wait on a
 * flag: ST4/ST3 take theirs in a row) */
#define CS_BY_FLAGS(excl, rev, f, ...)                                                        \
    ((excl) ? (rev) ? f(__VA_ARGS__, 1, 1) : f(__VA_ARGS__, 1, 0)                           \
            : (rev) ? f(__VA_ARGS__, 0, 1) : f(__VA_ARGS__, 0, 0))
#ifndef AX_CS_LINES3 /* vf_lines3: the ISA moves four f32 (f16, bf16) lines of 3 as one */
#define AX_CS_LINES3 0
#define vf_lines3(k, x, y, excl, rev) ((void)(k), (void)(x), (void)(y), (void)(excl), (void)(rev))
#endif
/* lines of 3, a vector's lanes of them at a time while they are left; returns the lines done */
AXIAL_INLINE size_t cs_lines3(int k, const char *x, char *y, size_t lines, int excl, int rev) {
    const size_t W = k == AXK_F64 ? AX_ND : AX_NF;
    size_t r = 0;
    for (; r + W <= lines; r += W)
        vf_lines3(k, x + r * 3 * axk_size(k), y + r * 3 * axk_size(k), excl, rev);
    return r;
}
/* Lines of n < 16 in slots of P lanes (8 or 16; f64: 16), each -0.0 but for its line at its k-first end: one
 * line's bits; through stack copies, a batch of blocks at a time (none loads what a copy just stored). */
AXIAL_INLINE void cs_slot_lines(int k, const char *x, char *y, size_t lines, size_t n, int excl,
                                int rev) {
    const size_t es = axk_size(k), P = n <= 8 && k != AXK_F64 ? 8 : 16, L = 16 / P;
    const size_t at = rev ? P - n : 0, bb = 16 * es, G = 2048 / bb * L; /* lines a batch */
    _Alignas(64) uint64_t bi[256], bo[256];
    axk_fill_nz(k, bi, sizeof bi); /* (the slots' lanes past their lines stay -0.0) */
    for (size_t r = 0; r < lines; r += G) {
        const size_t cnt = lines - r < G ? lines - r : G;
        for (size_t s = 0, o = at * es; s < cnt; s++, o += s % L ? P * es : bb - (L - 1) * P * es)
            axk_copy((char *)bi + o, x + (r + s) * n * es, n, es);
        for (size_t b = 0; b * L < cnt; b++)
            cs_slots(k, (const char *)bi + b * bb, (char *)bo + b * bb, P, excl, rev, 0);
        for (size_t s = 0, o = at * es; s < cnt; s++, o += s % L ? P * es : bb - (L - 1) * P * es) {
            char *yl = y + (r + s) * n * es;
            axk_copy(yl, (const char *)bo + o, n, es);
            if (excl) memset(yl + (rev ? n - 1 : 0) * es, 0, es); /* (blk_up1 crossed the slots) */
        }
    }
}
#ifndef AX_CS_SHORT /* 1: the ISA's own cs_short, f32, f16 and bf16 lines of n < 16 (else f32 2, 3: cs_ln) */
#define AX_CS_SHORT 0
#define cs_short(k, x, y, lines, n, excl, rev, nt) ((void)(nt), cs_slot_lines(k, x, y, lines, n, excl, rev))
#endif
/* Lines of 2 and 3 (a quad each: o_1 = x_1 + x_0, o_2 = (x_2 + x_1) + x_0; reverse mirrored), W a step as n
 * vectors: a lane adds the elements before it in its line, loaded 1 and 2 back (reverse: ahead), -0.0 where
 * its line has none; a step loads all before it stores (in place).  Steps whose loads would leave x (the
 * first, the last two) go through t, two elements either side. */
#define AX_CS_LN(V, T, W, LD, ST)                                                                \
    AXIAL_INLINE void cs_ln_##V(int k, const char *x, char *y, size_t lines, size_t n, int excl, \
                                int rev) {                                                       \
        const size_t es = axk_size(k); const ptrdiff_t d = rev ? (ptrdiff_t)es : -(ptrdiff_t)es; \
        T pos[3 * W]; /* a lane's place in its line (k order): masks, 1 and 2 elements before */ \
        _Alignas(64) char t[3 * W * 8 + 32] = {0}; V##_mask m1[3], m2[3];                         \
        for (size_t i = 0, r = 0; i < n * W; i++, r = r + 1 == n ? 0 : r + 1)                  \
            pos[i] = (T)(rev ? n - 1 - r : r);                                                   \
        for (size_t j = 0; j < n; j++)                                                           \
            m1[j] = V##_gt(LD(AXK_F32, pos + j * W), V##_set1(0.5)),                             \
            m2[j] = V##_gt(LD(AXK_F32, pos + j * W), V##_set1(1.5));                             \
        for (size_t l = 0; l < lines; l += W) {                                                  \
            const int cp = l == 0 || lines - l < 2 * W;                                          \
            size_t c = (lines - l < W ? lines - l : W) * n;                                     \
            __asm__("" : "+r"(c)); /* (copies as loops, not unrolled to their bound) */          \
            if (cp) axk_copy(t + 2 * es, x + l * n * es, c, es);                                 \
            const char *xs = cp ? t + 2 * es : x + l * n * es; V o[3];                           \
            for (size_t j = 0; j < 3 && j < n; j++) { /* (n 2 or 3: no loop of n) */             \
                const char *p = xs + j * W * es;                                                 \
                const V a = V##_sel(m1[j], LD(k, p + d), V##_set1(-0.0)),                        \
                        b = V##_sel(m2[j], LD(k, p + 2 * d), V##_set1(-0.0));                    \
                o[j] = excl ? V##_sel(m1[j], V##_add(a, b), V##_set1(0.0)) : V##_add(V##_add(LD(k, p), a), b); \
            }                                                                                    \
            for (size_t j = 0; j < 3 && j < n; j++) ST(k, (cp ? t + 2 * es : y + l * n * es) + j * W * es, o[j]); \
            if (cp) axk_copy(y + l * n * es, t + 2 * es, c, es);                                 \
        }                                                                                        \
    }
#define CS_VD_LD(k, p) ((void)(k), vd_ld((const double *)(const void *)(p)))
#define CS_VD_ST(k, p, v) ((void)(k), vd_st((double *)(void *)(p), v))
AX_CS_LN(vf, float, AX_NF, vf_ld, vf_st)
AX_CS_LN(vd, double, AX_ND, CS_VD_LD, CS_VD_ST)

/* ---- columns (inner > 1) --------------------------------------------------- */

/* A column vector: cs_cw(k) columns, as two f64 vectors (floats: AX_NF columns) or one integer vector. */
typedef struct {
    vd lo, hi;
    vi i;
} cs_col;

AXIAL_INLINE size_t cs_cw(int k) { return axk_float(k) ? AX_NF : AX_VB / axk_size(k); }
AXIAL_INLINE cs_col cs_col_zero(int k, double z) {
    (void)k;
    cs_col c;
    c.lo = c.hi = vd_set1(z);
    c.i = vi_zero();
    return c;
}
/* cnt <= cs_cw(k) columns at p (missing ones: 0; a float half past them all: -0.0, which an add drops). */
AXIAL_INLINE cs_col cs_col_ld(int k, const char *p, size_t cnt) {
    cs_col c = cs_col_zero(k, -0.0);
    const size_t w = cs_cw(k);
    if (k == AXK_F64) {
        const double *d = (const double *)(const void *)p;
        c.lo = cnt >= AX_ND ? vd_ld(d) : vd_ld_part(d, cnt, 0.0);
        c.hi = cnt >= w ? vd_ld(d + AX_ND) : cnt > AX_ND ? vd_ld_part(d + AX_ND, cnt - AX_ND, 0.0)
                                                          : vd_set1(-0.0);
    } else if (AX_CS_HALVES(k) && (cnt >= w || (cnt == AX_ND && k == AXK_F16))) { /* (f16 [8192, 8] 0.74x) */
        c.lo = vd_ld_h(k, p), c.hi = cnt >= w ? vd_ld_h(k, p + AX_ND * axk_size(k)) : c.hi;
    } else if (axk_float(k) && cnt <= AX_ND) { /* the low half alone */
        c.lo = k == AXK_F32 ? vd_ld_f32_part((const float *)(const void *)p, cnt)
                            : vd_lo(vf_ld_part(k, p, cnt, 0.0f));
    } else if (axk_float(k)) {
        const vf v = cnt >= w ? vf_ld(k, p) : vf_ld_part(k, p, cnt, 0.0f);
        c.lo = vd_lo(v);
        c.hi = vd_hi(v);
    } else {
        c.i = cnt >= w ? vi_ld(p) : vi_ld_part(p, cnt * axk_size(k));
    }
    return c;
}
/* nt: a whole vector streams (p 64-byte aligned; AX_CS_NT only) */
AXIAL_INLINE void cs_col_put(int k, char *p, cs_col c, size_t cnt, int nt) {
    const size_t w = cs_cw(k);
    nt = AX_CS_NT && nt && cnt >= w;
    if (k == AXK_F64) {
        double *d = (double *)(void *)p; /* (nt: only where cnt >= w) */
        if (cnt >= AX_ND)
            vd_put(d, c.lo, nt);
        else
            vd_st_part(d, c.lo, cnt);
        if (cnt >= w)
            vd_put(d + AX_ND, c.hi, nt);
        else if (cnt > AX_ND)
            vd_st_part(d + AX_ND, c.hi, cnt - AX_ND);
    } else if (AX_CS_HALVES(k) && (cnt >= w || (cnt == AX_ND && k == AXK_F16))) {
        vd_put_h(k, p, c.lo, nt), cnt >= w ? vd_put_h(k, p + AX_ND * axk_size(k), c.hi, nt) : (void)0;
    } else if (axk_float(k) && cnt <= AX_ND) {
        if (k == AXK_F32)
            vd_st_f32_part((float *)(void *)p, c.lo, cnt);
        else
            vf_st_part(k, p, vf_narrow_for(k, c.lo, c.lo), cnt);
    } else if (axk_float(k)) {
        const vf v = vf_narrow_for(k, c.lo, c.hi);
        if (cnt >= w)
            vf_put(k, p, v, nt);
        else
            vf_st_part(k, p, v, cnt);
    } else if (cnt >= w) {
        vi_put(p, c.i, AX_CS_NT && nt);
    } else {
        vi_st_part(p, c.i, cnt * axk_size(k));
    }
}
AXIAL_INLINE cs_col cs_col_add(int k, cs_col a, cs_col b) {
    if (axk_float(k))
        a.lo = vd_add(a.lo, b.lo), a.hi = vd_add(a.hi, b.hi);
    else
        a.i = vi_add(k, a.i, b.i);
    return a;
}

#define CS_UNROLL_TILE _Pragma("GCC unroll 16")
/* The output of a running sum s after it took v: s; exclusive, integers s - v (the sums wrap: exact, and no
 * copy of the sum before lives across the add), floats the sum before (+0.0 first); where EXCLUSIVE is a
 * constant (AX_CS_EXCL_CONST), that sum is stored before the add and the first row's -0.0 zeroed after (no
 * copy, no branch a vector: CS_PRE). */
#define CS_PRE(k, excl) (AX_CS_EXCL_CONST && (excl) && axk_float(k))
AXIAL_INLINE cs_col cs_col_out(int k, cs_col s, cs_col v, cs_col before, int excl, int first) {
    if (excl && !axk_float(k))
        s.i = vi_sub(k, s.i, v.i);
    return !excl || !axk_float(k) ? s : first ? cs_col_zero(k, 0.0) : before;
}
/* One row of a tile or sweep: nv column vectors a (nv a constant), the last cnt columns wide; nt: streaming
 * stores. */
AXIAL_INLINE void cs_tile_row(int k, const char *xr, char *yr, cs_col *a, int nv, size_t cnt,
                              int excl, int first, int nt) {
    const size_t es = axk_size(k), w = cs_cw(k);
    cs_col v[AX_VB == 64 ? 8 : AX_CS_TILE]; /* (AVX-512 integer sweeps: nv <= 7) */
    CS_UNROLL_TILE for (int q = 0; q < nv; q++) /* integers: loads first (y may be x), so paired */
        if (!axk_float(k)) v[q] = cs_col_ld(k, xr + (size_t)q * w * es, q == nv - 1 ? cnt : w);
    CS_UNROLL_TILE for (int q = 0; q < nv; q++) {
        const size_t c = (size_t)q * w * es, m = q == nv - 1 ? cnt : w;
        const cs_col before = a[q];
        if (axk_float(k))
            v[q] = cs_col_ld(k, xr + c, m);
        if (CS_PRE(k, excl)) /* the sum before, stored before the add (no copy of it) */
            cs_col_put(k, yr + c, before, m, nt);
        a[q] = cs_col_add(k, a[q], v[q]);
        if (!CS_PRE(k, excl))
            cs_col_put(k, yr + c, cs_col_out(k, a[q], v[q], before, excl, first), m, nt);
    }
}
/* nv column vectors (nv a constant: the tile stays in registers), the last `last` columns wide, down all n
 * rows from -0.0.  Rows narrower than wc (a column vector, or its f64 half where that holds them), back to
 * back, forward, x and y apart: wc columns from each row's start (lanes past the row hold later rows' terms,
 * and their outputs are stored over by those rows' own stores), but for the rows whose wc columns would pass
 * the end. */
AXIAL_INLINE void cs_tile(int k, const char *x, char *y, size_t n, size_t stride, int nv,
                          size_t last, int excl, int rev) {
    const size_t es = axk_size(k), w = cs_cw(k), bytes = n * stride * es;
    const size_t wc = axk_float(k) && last <= AX_ND ? AX_ND : w; /* the columns of a whole load */
    size_t whole = 0; /* rows read and written as wc columns */
    if (nv == 1 && last < wc && stride == last && !rev && (axk_float(k) || !AX_CS_PART_ROWS(last * es)) &&
        ((uintptr_t)y + bytes <= (uintptr_t)x || (uintptr_t)x + bytes <= (uintptr_t)y)) {
        const size_t past = (wc + last - 1) / last - 1; /* rows a vector reaches past its own */
        whole = n > past ? n - past : 0;
    }
    cs_col a[AX_CS_TILE];
    CS_UNROLL_TILE for (int q = 0; q < nv; q++) a[q] = cs_col_zero(k, -0.0);
    const ptrdiff_t step = (rev ? -1 : 1) * (ptrdiff_t)(stride * es);
    const size_t r0 = rev ? (n - 1) * stride * es : 0;
    const char *xr = x + r0;
    char *yr = y + r0;
    size_t t = 0; /* rows to `end` while c holds, the last vector cnt wide (a constant where it can be) */
#define CS_TILE_ROWS(c, end, nvs, cnt) \
    for (; (c) && t < (end); t++, xr += step, yr += step) cs_tile_row(k, xr, yr, a, nvs, cnt, excl, t == 0, 0);
    CS_TILE_ROWS(wc == w, whole, 1, w) CS_TILE_ROWS(wc != w, whole, 1, AX_ND)
    CS_TILE_ROWS(AX_CS_ROWS_CONST && last == w, n, nv, w)
    CS_TILE_ROWS(AX_CS_ROWS_CONST && axk_float(k) && last == AX_ND, n, nv, AX_ND) CS_TILE_ROWS(1, n, nv, last)
#undef CS_TILE_ROWS
    if (CS_PRE(k, excl) && n)
        memset(y + r0, 0, ((size_t)(nv - 1) * w + last) * es);
}

/* ncols columns: whole tiles, then a vector at a time, each walking all n rows; one copy a kind and direction
 * (cs_rest_<kind>; and EXCLUSIVE where AX_CS_EXCL_CONST), not one inlined in every column path */
AXIAL_INLINE void cs_rest(int k, const char *x, char *y, size_t n, size_t ncols, size_t stride, int excl, int rev) {
    const size_t es = axk_size(k), w = cs_cw(k), tw = AX_CS_TILE * w;
    size_t c = 0;
    for (; c + tw <= ncols; c += tw)
        cs_tile(k, x + c * es, y + c * es, n, stride, AX_CS_TILE, w, excl, rev);
    for (; c < ncols; c += w)
        cs_tile(k, x + c * es, y + c * es, n, stride, 1, ncols - c < w ? ncols - c : w, excl, rev);
}
/* f(K, args..., excl, rev) once a kind (f_<kind>; EXCLUSIVE a constant where AX_CS_EXCL_CONST, REVERSE where
 * RC): the column paths call these, not one inlined in each of them */
#define CS_ONCE_R(RC, f, K, e, ...) (RC && rev ? f(K, __VA_ARGS__, e, 1) : RC ? f(K, __VA_ARGS__, e, 0) : f(K, __VA_ARGS__, e, rev))
#define CS_ONCE_(f, name, K, RC, params, ...)                                                                 \
    AXIAL_NOCLONE __attribute__((unused)) void f##_##name params {                                            \
        if (AX_CS_EXCL_CONST)                                                                                 \
            excl ? CS_ONCE_R(RC, f, K, 1, __VA_ARGS__) : CS_ONCE_R(RC, f, K, 0, __VA_ARGS__);                 \
        else                                                                                                  \
            CS_ONCE_R(RC, f, K, excl, __VA_ARGS__);                                                           \
    }
#define CS_REST_(name, K) CS_ONCE_(cs_rest, name, K, 1, (const char *x, char *y, size_t n, size_t ncols, size_t stride, \
                                                     int excl, int rev), x, y, n, ncols, stride)
AX_EACH_KIND(CS_REST_)

/* All columns walk the rows in order, AX_CS_SWEEP_ROWS rows a pass over the row's column vectors, the running
 * sums in memory (acc: f64 per column for floats, the element's own width for integers; in L1 or L2), read and
 * written once a pass; x and y go in row order.  Where every row starts at the same offset in a line, the head
 * (the columns before y's first boundary of a column vector's size, at most a 64-byte line) goes first, so
 * that no later store straddles two lines, and with nt (AX_CS_NT, a call that writes at least
 * AXIAL_STREAM_BYTES) those later whole vectors stream.  acc is best 64-byte aligned at the head's end, but
 * y's alignment goes first (timed: stores that straddle lines cost more). */
#define AX_CS_SWEEP_ROWS 8 /* (AVX-512 i16 [64, 4096] axis 0 0.96x, f32 0.93x the time of 4; 16 rows: 1.05x at [4096, 4096]) */
#define AX_CS_SWEEP_ROWS_STACK 256 /* narrower column sets (AVX-512 i8 [512, 100] axis 0: 0.7x the time of 4) */
/* `rows` rows from t (in scan order) at column c: nv column vectors (nv a constant: they stay in registers over
 * the rows), the last one cnt columns wide. */
AXIAL_INLINE void cs_sweep_col(int k, const char *x, char *y, size_t n, size_t stride, size_t t,
                               size_t rows, size_t c, int nv, size_t cnt, int first, int excl,
                               int rev, char *acc, int nt) {
    const int ak = axk_float(k) ? AXK_F64 : k;
    const size_t es = axk_size(k), as = axk_size(ak), w = cs_cw(k);
    cs_col a[AX_VB == 64 ? 8 : AX_CS_TILE];
    for (int q = 0; q < nv; q++)
        a[q] = cs_col_ld(ak, acc + (c + (size_t)q * w) * as, q == nv - 1 ? cnt : w);
    const ptrdiff_t step = (rev ? -1 : 1) * (ptrdiff_t)(stride * es);
    size_t off = ((rev ? n - 1 - t : t) * stride + c) * es;
#pragma GCC unroll 1
    for (size_t r = 0; r < rows; r++, off += step)
        cs_tile_row(k, x + off, y + off, a, nv, cnt, excl, t + r == 0 && first, nt);
    if (CS_PRE(k, excl) && t == 0 && first && rows)
        memset(y + ((rev ? n - 1 : 0) * stride + c) * es, 0, ((size_t)(nv - 1) * w + cnt) * es);
    for (int q = 0; q < nv; q++)
        cs_col_put(ak, acc + (c + (size_t)q * w) * as, a[q], q == nv - 1 ? cnt : w, 0);
}
/* The columns before y's first boundary of a column vector's size (at most a 64-byte line), where every row
 * starts at the same offset in a line: after them, no whole vector's store straddles two lines; else 0. */
AXIAL_INLINE size_t cs_head(int k, const char *y, size_t ncols, size_t stride) {
    const size_t es = axk_size(k), w = cs_cw(k), a = w * es < 64 ? w * es : 64;
    const size_t head = (a - (uintptr_t)y % a) % a / es; /* < w */
    return (uintptr_t)y % es == 0 && stride * es % a == 0 && head + w <= ncols ? head : 0;
}
AXIAL_INLINE void cs_sweep(int k, const char *x, char *y, size_t n, size_t ncols, size_t stride,
                           int first, char *acc, int nt, size_t R, int excl, int rev) {
    const size_t es = axk_size(k), w = cs_cw(k);
    const size_t head = cs_head(k, y, ncols, stride);
    nt = AX_CS_NT && nt && ((uintptr_t)y + head * es) % 64 == 0 && stride * es % 64 == 0 && w * es % 64 == 0;
    for (size_t t = 0; t < n; t += R) {
        const size_t rows = n - t < R ? n - t : R;
        /* the head, register tiles, then single vectors (one call site each: the code of a sweep is large) */
        for (size_t c = 0; c < ncols;) {
            const size_t h = c == 0 ? head : 0, cnt = h ? h : ncols - c < w ? ncols - c : w;
            const int big = !axk_float(k) && AX_VB == 64 && ncols - c > AX_CS_TILE * w && ncols - c <= 7 * w;
            if (!h && c + AX_CS_TILE * w <= ncols && !big) {
                cs_sweep_col(k, x, y, n, stride, t, rows, c, AX_CS_TILE, w, first, excl, rev, acc, nt);
                c += AX_CS_TILE * w;
            } else if (!h && ncols - c > w && (big || ncols - c <= 4 * w)) { /* the last 2-4 (big: 2-7) vectors */
                const size_t v = (ncols - c + w - 1) / w, last = ncols - c - (v - 1) * w;
#define CS_SWEEP_N(N) cs_sweep_col(k, x, y, n, stride, t, rows, c, N, last, first, excl, rev, acc, nt)
                v == 2 ? CS_SWEEP_N(2) : v == 3 ? CS_SWEEP_N(3) : v == 4 || !big ? CS_SWEEP_N(4)
                : v == 5 ? CS_SWEEP_N(5) : v == 6 ? CS_SWEEP_N(6) : CS_SWEEP_N(7);
#undef CS_SWEEP_N
                c = ncols;
            } else { /* the head and the tail stored plainly */
                cs_sweep_col(k, x, y, n, stride, t, rows, c, 1, cnt, first, excl, rev, acc, nt && !h && cnt == w);
                c += cnt;
            }
        }
    }
    if (nt)
        ax_stream_fence();
}

/* Columns [0, ncols) of rows `stride` elements apart.  acc: the f64 running sums of cumsum_cols_run, or NULL
 * (from -0.0).  A vector or one tile of columns walks the rows (cs_rest); up to a few tiles (below
 * AX_CS_SWEEP_TILES) sweep running sums on the stack, AX_CS_SWEEP_ROWS_STACK rows a pass (one pass over memory,
 * not a walk a tile), or (AX_CS_REST_TILES) whole tiles walk, the columns past them one smaller tile; wider,
 * one sweep over heap running sums. */
#ifndef AX_CS_SWEEP_TILES
#define AX_CS_SWEEP_TILES 4
#endif
#define CS_SWEEP_(name, K) CS_ONCE_(cs_sweep, name, K, 0, (const char *x, char *y, size_t n, size_t ncols, size_t stride, \
                                       int first, char *acc, int nt, size_t R, int excl, int rev), x, y, n, ncols, stride, first, acc, nt, R)
AX_EACH_KIND(CS_SWEEP_)
AXIAL_INLINE void cs_cols_(int k, const char *x, char *y, size_t n, size_t ncols, size_t stride,
                           int first, double *acc, int nt, int excl, int rev) {
    const size_t es = axk_size(k), w = cs_cw(k), tw = AX_CS_TILE * w, as = axk_size(axk_float(k) ? AXK_F64 : k);
    _Alignas(64) char tail[(AX_CS_REST_TILES ? 0 : AX_CS_SWEEP_TILES * AX_CS_TILE * AX_NF * 8) + 64];
    char *h = NULL, *a = (char *)acc;
    if (!a && ncols >= AX_CS_SWEEP_TILES * tw && n >= 8)
        a = h = aligned_alloc(64, (ncols * as + 63) / 64 * 64 + 64);
    if (!a) { /* a tile or a vector walks the rows; else all sweep, or whole tiles walk (T) and at most a vector */
        const size_t r = ncols % tw, T = AX_CS_REST_TILES || ncols >= AX_CS_SWEEP_TILES * tw;
        const size_t c = ncols <= w || ncols == tw ? ncols : !T ? 0 : r <= w ? ncols : ncols - r;
        if (c)
            AX_BY_ANY(k, cs_rest, x, y, n, c, stride, excl, rev);
        x += c * es, y += c * es, ncols -= c;
        if (!ncols)
            return;
        if (AX_CS_REST_TILES) { /* one tile of the r columns left, their vector count a constant */
            const size_t last = (r - 1) % w + 1;
#define CS_TILE_N(N) case N: cs_tile(k, x, y, n, stride, N, last, excl, rev); break;
            switch ((r + w - 1) / w) { /* (the last one partial) */
            CS_TILE_N(2) CS_TILE_N(3) CS_TILE_N(4) CS_TILE_N(5) CS_TILE_N(6) CS_TILE_N(7) default: CS_TILE_N(8) }
#undef CS_TILE_N
            return;
        }
        a = tail;
    }
    if (!acc) { /* aligned so that the sums of y's aligned vectors are (cs_head) */
        a += (64 - cs_head(k, y, ncols, stride) * as % 64) % 64;
        axk_float(k) ? axk_fill_nz(AXK_F64, (uint64_t *)(void *)a, ncols * 8) : (void)memset(a, 0, ncols * as);
    }
    AX_BY_ANY(k, cs_sweep, x, y, n, ncols, stride, acc ? first : 1, a, nt, !h && !acc ? AX_CS_SWEEP_ROWS_STACK : AX_CS_SWEEP_ROWS,
               excl, rev);
    free(h);
}
/* AX_CS_EXCL_CONST: EXCLUSIVE a constant of the column loops (a runtime one costs NEON a branch and a copy of
 * the sum a vector), in a function of its own (else GCC spills LD3/ST3 tuples), the kind a constant too
 * (immediate offsets, paired: NEON i32 [2048, 32] n1 1.33x -> 1.00x, modelled) */
AXIAL_NOINLINE void cs_cols_x(int k, const char *x, char *y, size_t n, size_t ncols,
                               size_t stride, int rev, int first, double *acc, int nt) {
#define CS_IX(K) case K: CS_BY_FLAGS(1, rev, cs_cols_, K, x, y, n, ncols, stride, first, acc, nt); break;
    switch (k) { CS_IX(AXK_I8) CS_IX(AXK_I16) CS_IX(AXK_I32) CS_IX(AXK_I64) CS_IX(AXK_F32) CS_IX(AXK_F64) CS_IX(AXK_F16) default: CS_IX(AXK_BF16) }
#undef CS_IX
}
AXIAL_INLINE void cs_cols(int k, const char *x, char *y, size_t n, size_t ncols, size_t stride,
                          int excl, int rev, int first, double *acc, int nt) {
    if (AX_CS_EXCL_CONST && excl)
        cs_cols_x(k, x, y, n, ncols, stride, rev, first, acc, nt);
    else
        cs_cols_(k, x, y, n, ncols, stride, first, acc, nt, excl && !AX_CS_EXCL_CONST, rev);
}

/* ---- integer lines (inner == 1) -------------------------------------------- */

/* Rows of n >= 16, a vector at a time; the tail (at the line's end in k order, the lowest addresses in
 * reverse) in the low lanes of a zeroed vector: zeros add nothing, whichever way the scan runs. */
/* Whether the full vectors of a run of n elements at y may stream. */
AXIAL_INLINE int cs_nt_vec(int k, const char *y, size_t n, int rev, int nt) {
    return AX_CS_NT && nt && (((uintptr_t)(rev ? y + n * axk_size(k) : y)) & (AX_VB - 1)) == 0;
}

#ifndef AX_CS_ILINE4 /* vi_line4: the ISA scans 4 vectors of a line at once (plain stores) */
#define AX_CS_ILINE4 0
#define vi_line4(k, x, y, carry, excl, rev) \
    ((void)(k), (void)(x), (void)(y), (void)(excl), (void)(rev), (carry))
#endif
/* the first *j elements of the line (k order) in blocks of 4 vectors */
AXIAL_INLINE vi cs_iline4(int k, const char *x, char *y, size_t n, size_t *j, int excl, int rev) {
    const size_t es = axk_size(k), W = AX_VB / es;
    vi carry = vi_zero();
    for (; *j + 4 * W <= n; *j += 4 * W) {
        const size_t p = (rev ? n - *j - 4 * W : *j) * es;
        carry = vi_line4(k, x + p, y + p, carry, excl, rev);
    }
    return carry;
}
AXIAL_INLINE void cs_irow(int k, const char *x, char *y, size_t n, int excl, int rev, int nt) {
    const size_t es = axk_size(k), W = AX_VB / es;
    nt = cs_nt_vec(k, y, n, rev, nt);
    vi carry = vi_zero();
    size_t j = 0;
    if (AX_CS_ILINE4 && !nt)
        carry = CS_BY_FLAGS(excl, rev, cs_iline4, k, x, y, n, &j);
    for (; j + 2 * W <= n; j += 2 * W) {
        const size_t p0 = (rev ? n - j - W : j) * es, p1 = (rev ? n - j - 2 * W : j + W) * es;
        const vi v0 = vi_ld(x + p0), v1 = vi_ld(x + p1);
        const vi s0 = vi_scan(k, v0, rev);
        /* s1 continues s0; the carry waits for nothing but itself */
        const vi s1 = vi_add(k, vi_scan(k, v1, rev), vi_last(k, s0, rev));
        const vi o0 = vi_add(k, carry, s0), o1 = vi_add(k, carry, s1);
        vi_put(y + p0, excl ? vi_sub(k, o0, v0) : o0, AX_CS_NT && nt);
        vi_put(y + p1, excl ? vi_sub(k, o1, v1) : o1, AX_CS_NT && nt);
        carry = vi_add(k, carry, vi_last(k, s1, rev));
    }
    for (; j < n; j += W) {
        const size_t r = n - j < W ? n - j : W, p = (rev ? n - j - r : j) * es;
        const vi v = r == W ? vi_ld(x + p) : vi_ld_part(x + p, r * es);
        const vi s = vi_scan(k, v, rev);
        vi o = vi_add(k, carry, s);
        o = excl ? vi_sub(k, o, v) : o;
        if (r == W)
            vi_st(y + p, o);
        else
            vi_st_part(y + p, o, r * es);
        carry = vi_add(k, carry, vi_last(k, s, rev));
    }
}

/* One vector of the flat run of rows of n < 16.  M: its phase's lane masks (cs_iseg), M[i] where a lane is at
 * least 2^i into its row (k order), M[4] where its row began in an earlier vector, M[5] M[4]'s last lane in
 * every lane; *carry: the inclusive sum at the previous vector's last lane. */
AXIAL_INLINE vi cs_seg_vec(int k, vi v, unsigned char (*M)[AX_VB], vi *carry, size_t n, int cross, int excl,
                           int rev) {
    const size_t W = AX_VB / axk_size(k);
    vi s = v;
    /* Hillis-Steele in the vector, each step kept inside the row */
#define AX_CS_SEG_STEP(i) \
    if (n > (1u << i) && W > (1u << i)) s = vi_add(k, s, vi_and(vi_up(k, s, vi_zero(), 1 << i, rev), vi_ld(M[i])));
    AX_CS_SEG_STEP(0) AX_CS_SEG_STEP(1) AX_CS_SEG_STEP(2) AX_CS_SEG_STEP(3)
#undef AX_CS_SEG_STEP
    if (cross) {
        const vi before = *carry;
        *carry = vi_add(k, vi_last(k, s, rev), vi_and(before, vi_ld(M[5])));
        s = vi_add(k, s, vi_and(before, vi_ld(M[4])));
    }
    return excl ? vi_sub(k, s, v) : s;
}

#ifndef AX_CS_ILINES /* vi_lines(k, x, y, n, c, excl, rev): the ISA scans a vector's lanes of rows of 2..4 */
#define AX_CS_ILINES 0
#define vi_lines(k, x, y, n, c, excl, rev) ((void)(k), (void)(x), (void)(y), (void)(n), (void)(c), (void)(excl), (void)(rev))
#endif
/* rows of n (a constant 2..4) W a step: lines (c NULL) or the n columns down all rows from their carries c;
 * the rows left over through a zeroed stack copy; returns the rows */
AXIAL_INLINE size_t cs_ildn(int k, const char *x, char *y, size_t rows, size_t n, vi *c, int excl, int rev) {
    const size_t es = axk_size(k), W = AX_VB / es, b = n * AX_VB, steps = rows / W, r = rows % W;
    for (size_t s = 0; s < steps; s++) {
        const size_t p = c && rev ? (rows - (s + 1) * W) * n * es : s * b;
        vi_lines(k, x + p, y + p, n, c, excl, rev);
    }
    if (r) { /* (columns in reverse: the rows left are the first ones; the zeros add nothing) */
        _Alignas(64) unsigned char t[4 * AX_VB] = {0};
        const size_t p = c && rev ? 0 : steps * b;
        memcpy(t, x + p, r * n * es);
        vi_lines(k, t, t, n, c, excl, rev);
        memcpy(y + p, t, r * n * es);
    }
    return rows;
}
AXIAL_INLINE size_t cs_ildn_n(int k, const char *x, char *y, size_t rows, size_t n, vi *c, int excl, int rev) {
    return n == 2 ? CS_BY_FLAGS(excl, rev, cs_ildn, k, x, y, rows, 2, c)
         : n == 3 ? CS_BY_FLAGS(excl, rev, cs_ildn, k, x, y, rows, 3, c) : CS_BY_FLAGS(excl, rev, cs_ildn, k, x, y, rows, 4, c);
}
AXIAL_INLINE void cs_iseg(int k, const char *x, char *y, size_t total, size_t n, int excl,
                          int rev, int nt) {
    const size_t es = axk_size(k), W = AX_VB / es;
    nt = cs_nt_vec(k, y, total, rev, nt);
    size_t P = 1; /* the smallest P with n | P W: P <= n <= 15 */
    while ((P * W) % n != 0)
        P++;
    const int cross = W % n != 0;
    _Alignas(64) unsigned char rb[AX_VB], lb[AX_VB], M[15][6][AX_VB]; /* (masks a phase: AVX-512 i16 [21845, 3] axis 1 0.52x) */
    for (size_t q = 0; q < P; q++) { /* R: each lane's position in its row, L: in the vector (k order) */
        for (size_t l = 0; l < W; l++) {
            const uint64_t ls = rev ? W - 1 - l : l, rs = (q * W + ls) % n;
            memcpy(lb + l * es, &ls, es), memcpy(rb + l * es, &rs, es); /* little-endian: the low bytes */
        }
        const vi R = vi_ld(rb), cm = vi_cmpgt(k, R, vi_ld(lb));
        for (int i = 0; i < 4; i++) vi_st(M[q][i], vi_cmpgt(k, R, vi_set1(k, (1 << i) - 1)));
        vi_st(M[q][4], cm), vi_st(M[q][5], vi_last(k, cm, rev));
    }
    vi carry = vi_zero();
    size_t j = 0, ph = 0;
    for (; j + W <= total; j += W) {
        const size_t p = (rev ? total - j - W : j) * es;
        vi_put(y + p, cs_seg_vec(k, vi_ld(x + p), M[ph], &carry, n, cross, excl, rev),
               AX_CS_NT && nt);
        ph = ph + 1 == P ? 0 : ph + 1;
    }
    if (j < total) { /* in reverse, the tail is the vector's top lanes */
        const size_t r = total - j, p = (rev ? 0 : j) * es, off = (rev ? W - r : 0) * es;
        _Alignas(64) unsigned char b[AX_VB] = {0};
        memcpy(b + off, x + p, r * es);
        vi_st(b, cs_seg_vec(k, vi_ld(b), M[ph], &carry, n, cross, excl, rev));
        memcpy(y + p, b + off, r * es);
    }
}

/* AX_CS_IFLAT: integer columns of B bytes, B a power of two below a vector (whole rows in every vector), as one
 * flat run: steps of B, 2B, ... bytes in the vector, plus C (each column's sum so far, in every row's lanes),
 * which then is the last row's outputs broadcast (vi_last; vi_row16), or for B = 32 (one step) takes the
 * vector's column totals (t: the same step, rotating); the last rows from a zeroed copy.  B a constant in each
 * copy (cs_iflat_b). */
#ifndef AX_CS_IFLAT
#define AX_CS_IFLAT 0
#define vi_row16(v, rev) (v)
#endif
AXIAL_INLINE vi cs_iflat_vec(int k, vi v, vi *C, size_t B, int excl, int rev) {
    vi s = v, t = v;
    for (size_t d = B; d < AX_VB; d *= 2) { /* (B a constant: unrolled) */
        s = vi_add(k, s, vi_up(k, s, vi_zero(), (int)(d / axk_size(k)), rev));
        t = B > 16 ? vi_add(k, t, vi_up(k, t, t, (int)(d / axk_size(k)), rev)) : t;
    }
    t = B > 16 ? t : B > 8 ? vi_row16(s, rev) : t; /* (16 bytes: off C's chain, i32 [16384, 4] 0.89x the time) */
    s = vi_add(k, *C, s); /* (below: the broadcast of the sums, i8 [65536, 2] axis 0 0.64x the time of t) */
    *C = B > 8 ? vi_add(k, *C, t) : vi_last(B == 2 ? AXK_I16 : B == 4 ? AXK_I32 : AXK_I64, s, rev);
    return excl ? vi_sub(k, s, v) : s;
}
AXIAL_INLINE void cs_iflat(int k, const char *x, char *y, size_t total, size_t B, int excl, int rev,
                           int nt) {
    const size_t e = axk_size(k), W = AX_VB / e, r = total % (4 * W), p = (rev ? 0 : total - r) * e;
    nt = cs_nt_vec(k, y, total, rev, nt);
    vi C = vi_zero();
    _Alignas(64) unsigned char b[4 * AX_VB] = {0}; /* the last rows in k order, zeros past them: one more step */
    const size_t off = rev ? sizeof b - r * e : 0;
    for (int last = 0; last < 1 + (r > 0); last++) { /* 4 loads, then 4 stores (i64 [32768, 2] 0.75x the time of 1) */
        const char *xs = last ? (const char *)b : x + (rev ? r * e : 0);
        char *ys = last ? (char *)b : y + (rev ? r * e : 0);
        const size_t N = last ? 4 * W : total - r;
        for (size_t j = 0; j < N; j += 4 * W) {
            vi v[4];
            for (int u = 0; u < 4; u++) v[u] = vi_ld(xs + (rev ? N - j - (u + 1) * W : j + u * W) * e);
            for (int u = 0; u < 4; u++)
                vi_put(ys + (rev ? N - j - (u + 1) * W : j + u * W) * e, cs_iflat_vec(k, v[u], &C, B, excl, rev),
                       AX_CS_NT && nt && !last);
        }
        last ? (void)memcpy(y + p, b + off, r * e) : (void)memcpy(b + off, x + p, r * e);
    }
}
AXIAL_INLINE void cs_iflat_b(int k, const char *x, char *y, size_t total, size_t B, int excl, int rev,
                             int nt) {
#define CS_IFLAT_B(b) case b: if ((b) >= axk_size(k) && (b) < AX_VB) cs_iflat(k, x, y, total, b, excl, rev, nt); break;
    switch (B) { CS_IFLAT_B(2) CS_IFLAT_B(4) CS_IFLAT_B(8) CS_IFLAT_B(16) CS_IFLAT_B(32) default: break; }
#undef CS_IFLAT_B
}

/* ---- the entry points ------------------------------------------------------ */

AXIAL_INLINE void cs_main(int k, const char *x, char *y, size_t outer, size_t n, size_t inner,
                          unsigned flags, int rev) {
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const size_t es = axk_size(k);
    const int big = (flags & AXIAL_KERNEL_STREAM) || outer * n * inner * es >= AXIAL_STREAM_BYTES;
    const int nt = AX_CS_NT && inner == 1 && big, ntc = AX_CS_NT && big;
    if (inner > 1 && !axk_float(k) && AX_CS_ILINES && inner <= 4 && inner * es < AX_VB) {
        for (size_t o = 0; o < outer; o++) {
            vi c[4] = {vi_zero(), vi_zero(), vi_zero(), vi_zero()};
            cs_ildn_n(k, x + o * n * inner * es, y + o * n * inner * es, n, inner, c, excl, rev);
        }
    } else if (AX_CS_IFLAT && inner > 1 && !axk_float(k) && inner * es < AX_VB && AX_VB % (inner * es) == 0 &&
               n * inner * es >= 8 * AX_VB) { /* (shorter runs: most of it the zeroed copy) */
        for (size_t o = 0; o < outer; o++)
            cs_iflat_b(k, x + o * n * inner * es, y + o * n * inner * es, n * inner, inner * es, excl, rev, ntc);
    } else if (inner > 1) {
        for (size_t o = 0; o < outer; o++)
            cs_cols(k, x + o * n * inner * es, y + o * n * inner * es, n, inner, inner, excl, rev,
                    1, NULL, ntc);
    } else {
        /* first the lines an ISA takes a vector's lanes of at a step (LDn/STn), then the rest */
        size_t r = 0;
        if (!axk_float(k) && AX_CS_ILINES && n >= 2 && n <= 4)
            r = cs_ildn_n(k, x, y, outer, n, NULL, excl, rev);
        else if (axk_float(k) && AX_CS_LINES3 && n == 3)
            r = CS_BY_FLAGS(excl, rev, cs_lines3, k, x, y, outer);
        x += r * n * es, y += r * n * es, outer -= r;
        if (!axk_float(k) && n < 16 && outer) /* (none left where LDn/STn took all) */
            cs_iseg(k, x, y, outer * n, n, excl, rev, nt);
        else if (!axk_float(k))
            for (size_t o = 0; o < outer; o++)
                cs_irow(k, x + o * n * es, y + o * n * es, n, excl, rev, nt);
        else if (n == 4) /* (a constant in its copy) */
            cs_lines(k, x, y, outer, 4, excl, rev, nt);
        else if (n == 16 || (n == 8 && k != AXK_F64))
            cs_lines(k, x, y, outer, n, excl, rev, nt);
        else if (n == 1) /* -0.0 + x is x; exclusive: the empty sum */
            excl ? (void)memset(y, 0, outer * es) : (void)memmove(y, x, outer * es);
        else if ((n == 2 || n == 3) && (k == AXK_F64 || (k == AXK_F32 && !AX_CS_SHORT)))
            (k == AXK_F64 ? cs_ln_vd : cs_ln_vf)(k, x, y, outer, n, excl, rev);
        else if (n < 16 && (k != AXK_F64 || n < 10 || !AX_BLK_PART)) /* (f64 10+ with masked blocks: one by one) */
            k == AXK_F64 ? cs_slot_lines(k, x, y, outer, n, excl, rev) : cs_short(k, x, y, outer, n, excl, rev, nt);
        else
            for (size_t o = 0; o < outer; o++)
                cs_line(k, x + o * n * es, y + o * n * es, n, 1, excl, rev, 1, -0.0, nt);
    }
    if (nt)
        ax_stream_fence();
}

/* a column tile streams where its call, or the split call it is a task of, is big */
#define CS_COLS_NT(K, flags, count)                                                         \
    (AX_CS_NT && (((flags) & AXIAL_KERNEL_STREAM) || (count) * axk_size(K) >= AXIAL_STREAM_BYTES))
#define AX_CS_EXCL(flags) (((flags) & AXIAL_CUMSUM_EXCLUSIVE) != 0)
#define AX_CS_START(flags) (((flags) & AXIAL_SCAN_CONTINUE) == 0)
/* the call with REV_ a constant in each copy */
#define AX_CS_BY_REV(flags, ...)                                                            \
    do {                                                                                    \
        if ((flags) & AXIAL_CUMSUM_REVERSE) {                                               \
            const int REV_ = 1;                                                             \
            __VA_ARGS__;                                                                    \
        } else {                                                                            \
            const int REV_ = 0;                                                             \
            __VA_ARGS__;                                                                    \
        }                                                                                   \
    } while (0)

#define AX_CS_WHOLE(key, K)                                                                 \
    void AX_KN(cumsum, key)(const void *x, void *y, size_t outer, size_t n, size_t inner,   \
                            unsigned flags) {                                               \
        AX_CS_BY_REV(flags, cs_main(K, (const char *)x, (char *)y, outer, n, inner, flags, REV_)); \
    }
#define AX_CS_SPLIT(key, K)                                                                 \
    double AX_KN(cumsum_seg, key)(const void *x, void *y, size_t len, unsigned flags,       \
                                  double carry) {                                           \
        const int nt = AX_CS_NT && (flags & AXIAL_KERNEL_STREAM);                           \
        double R;                                                                           \
        AX_CS_BY_REV(flags, R = cs_line(K, (const char *)x, (char *)y, len, 1, AX_CS_EXCL(flags), \
                                        REV_, AX_CS_START(flags), carry, nt));              \
        if (nt)                                                                             \
            ax_stream_fence();                                                              \
        return R;                                                                           \
    }                                                                                       \
    double AX_KN(scan_total, key)(const void *x, size_t len, unsigned flags) {              \
        double R;                                                                           \
        AX_CS_BY_REV(flags, R = cs_line(K, (const char *)x, (char *)(uintptr_t)x, len, 0, 0, REV_, 0, -0.0, 0)); \
        return R;                                                                           \
    }                                                                                       \
    void AX_KN(cumsum_run, key)(const void *x, void *y, size_t len, unsigned flags,         \
                                double *ds) {                                               \
        AX_CS_BY_REV(flags, cs_run(K, (const char *)x, (char *)y, len, AX_CS_EXCL(flags), REV_, \
                                   AX_CS_START(flags), ds));                                \
    }                                                                                       \
    void AX_KN(cumsum_cols, key)(const void *x, void *y, size_t n, size_t ncols,            \
                                 size_t stride, unsigned flags) {                           \
        AX_CS_BY_REV(flags, cs_cols(K, (const char *)x, (char *)y, n, ncols, stride, AX_CS_EXCL(flags), \
                                    REV_, 1, NULL, CS_COLS_NT(K, flags, n * ncols)));       \
    }
#define AX_CS_COLS_RUN(key, K)                                                              \
    void AX_KN(cumsum_cols_run, key)(const void *x, void *y, size_t n, size_t ncols,        \
                                     size_t stride, unsigned flags, double *acc) {          \
        AX_CS_BY_REV(flags, cs_cols(K, (const char *)x, (char *)y, n, ncols, stride, AX_CS_EXCL(flags), \
                                    REV_, AX_CS_START(flags), acc, CS_COLS_NT(K, flags, n * ncols))); \
    }

/* Every CumSum entry point of the ISA, in three parts (the unsigned ones call the signed). */
#define AX_CS_PART1()                                                                       \
    AX_CS_WHOLE(f32, AXK_F32) AX_CS_WHOLE(f64, AXK_F64) AX_CS_SPLIT(f32, AXK_F32)           \
    AX_CS_SPLIT(f64, AXK_F64) AX_CS_COLS_RUN(f32, AXK_F32) AX_CS_COLS_RUN(f64, AXK_F64)
#define AX_CS_PART2()                                                                       \
    AX_CS_WHOLE(f16, AXK_F16) AX_CS_WHOLE(bf16, AXK_BF16) AX_CS_SPLIT(f16, AXK_F16) AX_CS_SPLIT(bf16, AXK_BF16)
/* an unsigned type: the signed kernel of its width (wrapping addition, the same bits) */
#define AX_CS_AS(u, s) void AX_KN(cumsum, u)(const void *x, void *y, size_t outer, size_t n, size_t inner, \
                                          unsigned flags) { AX_KN(cumsum, s)(x, y, outer, n, inner, flags); }
#define AX_CS_PART3()                                                                       \
    AX_CS_WHOLE(i8, AXK_I8) AX_CS_WHOLE(i16, AXK_I16) AX_CS_WHOLE(i32, AXK_I32)             \
    AX_CS_WHOLE(i64, AXK_I64) AX_CS_AS(u8, i8) AX_CS_AS(u16, i16) AX_CS_AS(u32, i32) AX_CS_AS(u64, i64)
#define AX_CUMSUM_ENTRIES() AX_ENTRIES(AX_CS_PART)

#endif /* AXIAL_OPS_CUMSUM_H */
