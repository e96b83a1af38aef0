/* SPDX-License-Identifier: MIT */
/*
 * ops/roll.h: Roll, written once over the vocabulary (simd/<isa>.h, included first).  One kernel per element
 * size (b1, b2, b4, b8) serves every dtype, bool included: `outer` contiguous rows of n elements, y[o][(j +
 * shift) mod n] = x[o][j], 0 <= shift < n, x and y disjoint.  Roll moves bytes: the output is the scalar
 * kernel's bit for bit.  One body per ISA works in bytes (rows of nb = n*E bytes rotated by sb = shift*E, a
 * block of T = outer*nb bytes); E only picks the permute's unit.
 *
 * Paths, chosen once per call, and tails: kernels/README.md ("Roll").  Nothing outside x and y is read or
 * written.  Streaming (where AX_ROLL_NT): a call writing at least AXIAL_STREAM_BYTES, or a piece of a split
 * call whose whole output does (AXIAL_KERNEL_STREAM), streams its aligned whole lines, keeps plain stores for
 * heads, tails and the bytes where two copies meet, sends copies of AX_ROLL_MEMCPY bytes or more to memcpy,
 * and ends with ax_stream_fence.
 *
 * An ISA's roll section defines AX_ROLL_UNITS, AX_ROLL_LINE, AX_ROLL_NT, AX_ROLL_RUNMAX, vi_sel8, vi_tbl (and
 * vi_tbl2 with unit 8), and may override AX_ROLL_HALF_FROM, AX_ROLL_ALIGN_FROM, AX_ROLL_INORDER.
 */
#ifndef AXIAL_OPS_ROLL_H
#define AXIAL_OPS_ROLL_H

#define AX_ROLL_LONG 128                  /* row bytes from which rows are copies */
#define AX_ROLL_MEMCPY ((size_t)64 << 20) /* a streaming copy from which memcpy does it */
#ifndef AX_ROLL_HALF_FROM /* in-cache rows longer than this move by half vectors */
#define AX_ROLL_HALF_FROM SIZE_MAX
#endif
#ifndef AX_ROLL_ALIGN_FROM /* copies from which the stores are aligned to V */
#define AX_ROLL_ALIGN_FROM 1 /* all */
#endif

#ifndef AX_ROLL_INORDER /* keep the stores of a step in address order */
#define AX_ROLL_INORDER 0
#endif
AXIAL_INLINE void ax_roll_inorder(void) {
    if (AX_ROLL_INORDER) /* an empty asm that GCC's scheduler cannot move stores across */
        __asm__ volatile("" ::: "memory");
}

typedef unsigned char ax_roll_half __attribute__((vector_size(AX_VB / 2)));

/* Four chunks of w bytes (V or V/2) from s + o[i] to d + o[i], loads first. */
AXIAL_INLINE void ax_roll_mov4(char *d, const char *s, size_t w, size_t o1, size_t o2,
                               size_t o3) {
    if (w == AX_VB) {
        const vi a = vi_ld(s), b = vi_ld(s + o1), c = vi_ld(s + o2), e = vi_ld(s + o3);
        vi_st(d, a), ax_roll_inorder(), vi_st(d + o1, b), ax_roll_inorder();
        vi_st(d + o2, c), ax_roll_inorder(), vi_st(d + o3, e);
    } else {
        ax_roll_half a, b, c, e;
        memcpy(&a, s, sizeof a), memcpy(&b, s + o1, sizeof b);
        memcpy(&c, s + o2, sizeof c), memcpy(&e, s + o3, sizeof e);
        memcpy(d, &a, sizeof a), ax_roll_inorder(), memcpy(d + o1, &b, sizeof b);
        ax_roll_inorder(), memcpy(d + o2, &c, sizeof c), ax_roll_inorder();
        memcpy(d + o3, &e, sizeof e);
    }
}
/* One chunk of w bytes (V or V/2). */
AXIAL_INLINE void ax_roll_mov(char *d, const char *s, size_t w) {
    ax_roll_half h;
    if (w == AX_VB)
        vi_st(d, vi_ld(s));
    else
        memcpy(&h, s, sizeof h), memcpy(d, &h, sizeof h);
}

/* Two overlapping moves of w bytes (a constant) copy len in [w, 2w]. */
AXIAL_INLINE void ax_roll_pair(char *d, const char *s, size_t len, size_t w) {
    char a[AX_VB], b[AX_VB];
    memcpy(a, s, w), memcpy(b, s + len - w, w);
    memcpy(d, a, w), memcpy(d + len - w, b, w);
}
/* Copies len <= 4V bytes. */
AXIAL_INLINE void ax_roll_copy_short(char *d, const char *s, size_t len) {
    if (len >= 2 * AX_VB) {
        ax_roll_mov4(d, s, AX_VB, AX_VB, len - 2 * AX_VB, len - AX_VB);
        return;
    }
    if (len >= AX_VB) {
        const vi a = vi_ld(s), b = vi_ld(s + len - AX_VB);
        vi_st(d, a), vi_st(d + len - AX_VB, b);
        return;
    }
    /* (the sizes must be constants: a loop over them became a byte loop) */
    if (len >= AX_VB / 2)
        ax_roll_pair(d, s, len, AX_VB / 2);
    else if (len >= AX_VB / 4)
        ax_roll_pair(d, s, len, AX_VB / 4);
    else if (len >= AX_VB / 8)
        ax_roll_pair(d, s, len, AX_VB / 8);
    else if (AX_VB >= 32 && len * 16 >= AX_VB)
        ax_roll_pair(d, s, len, AX_VB / 16);
    else if (AX_VB >= 64 && len * 32 >= AX_VB)
        ax_roll_pair(d, s, len, AX_VB / 32);
    else if (len == 1)
        *d = *s;
}

/* `steps` steps of 4 vectors; nt: d is line-aligned and the stores stream. */
AXIAL_INLINE void ax_roll_steps(char *d, const char *s, size_t steps, int nt) {
    for (; steps > 0; steps--, d += 4 * AX_VB, s += 4 * AX_VB) {
        const vi v0 = vi_ld(s), v1 = vi_ld(s + AX_VB);
        const vi v2 = vi_ld(s + 2 * AX_VB), v3 = vi_ld(s + 3 * AX_VB);
        vi_put(d, v0, nt), ax_roll_inorder(), vi_put(d + AX_VB, v1, nt);
        ax_roll_inorder(), vi_put(d + 2 * AX_VB, v2, nt), ax_roll_inorder();
        vi_put(d + 3 * AX_VB, v3, nt);
    }
}

/* Copies len > 4V bytes.  Plain: one head vector, stores aligned to V (from AX_ROLL_ALIGN_FROM bytes), the
 * last 4V bytes again.  Streaming: exact plain copies up to the first line and after the last, so no line is
 * written both ways. */
AXIAL_NOINLINE void ax_roll_copy_long(char *d, const char *s, size_t len, int nt) {
    nt = AX_ROLL_NT && nt;
    if (nt && len >= AX_ROLL_MEMCPY) {
        memcpy(d, s, len);
        return;
    }
    if (nt) {
        const size_t a = (AX_ROLL_LINE - ((uintptr_t)d & (AX_ROLL_LINE - 1))) & (AX_ROLL_LINE - 1);
        ax_roll_copy_short(d, s, a);
        d += a, s += a, len -= a;
        ax_roll_steps(d, s, len / (4 * AX_VB), 1);
        d += len / (4 * AX_VB) * (4 * AX_VB), s += len / (4 * AX_VB) * (4 * AX_VB);
        for (len %= 4 * AX_VB; len >= AX_ROLL_LINE; d += AX_ROLL_LINE, s += AX_ROLL_LINE,
                                                   len -= AX_ROLL_LINE)
            for (size_t h = 0; h < AX_ROLL_LINE; h += AX_VB)
                vi_put(d + h, vi_ld(s + h), 1);
        ax_roll_copy_short(d, s, len);
        return;
    }
    char *const de = d + len;
    const char *const se = s + len;
    if (len >= AX_ROLL_ALIGN_FROM) {
        vi_st(d, vi_ld(s));
        const size_t a = AX_VB - ((uintptr_t)d & (AX_VB - 1));
        d += a, s += a, len -= a;
    }
    ax_roll_steps(d, s, (len - 1) / (4 * AX_VB), 0);
    ax_roll_mov4(de - 4 * AX_VB, se - 4 * AX_VB, AX_VB, AX_VB, 2 * AX_VB, 3 * AX_VB);
}

AXIAL_INLINE void ax_roll_copy(char *d, const char *s, size_t len, int nt) {
    if (len <= 4 * AX_VB)
        ax_roll_copy_short(d, s, len);
    else
        ax_roll_copy_long(d, s, len, nt);
}

/* Copies len bytes in cache with unaligned chunks of w (V or V/2) in the order of the bytes, the last one
 * overlapping; shorter than w: short copy. */
AXIAL_INLINE void ax_roll_run(char *d, const char *s, size_t len, size_t w) {
    if (len < w) {
        ax_roll_copy_short(d, s, len);
        return;
    }
    size_t q = 0;
    for (; q + 4 * w <= len; q += 4 * w)
        ax_roll_mov4(d + q, s + q, w, w, 2 * w, 3 * w);
    for (; q + w <= len; q += w)
        ax_roll_mov(d + q, s + q, w);
    if (q < len)
        ax_roll_mov(d + len - w, s + len - w, w);
}
AXIAL_INLINE void ax_roll_rows_run(const char *x, char *y, size_t outer, size_t nb, size_t sb,
                                   size_t w) {
    for (; outer > 0; outer--, x += nb, y += nb) {
        ax_roll_run(y, x + nb - sb, sb, w);
        ax_roll_run(y + sb, x, nb - sb, w);
    }
}

/* ---- rows that tile the permute: one vi_tbl per vector ------------------------ */

/* The permute's unit for rows of nb bytes of E-byte elements, 0 if none: 1 bytes within 16-byte lanes, 2 and 4
 * words and dwords across the vector, 8 bytes across two vectors. */
AXIAL_INLINE int ax_roll_unit(size_t nb, size_t E) {
    if (16 % nb == 0)
        return 1;
    if ((AX_ROLL_UNITS & 4) && E >= 4 && AX_VB % nb == 0)
        return 4;
    if ((AX_ROLL_UNITS & 2) && E >= 2 && AX_VB % nb == 0)
        return 2;
    if ((AX_ROLL_UNITS & 8) && 2 * AX_VB % nb == 0)
        return 8;
    return 0;
}

/* vi_tbl's index for the output vector at byte `off` of its group (a vector; a pair for unit 8): output byte b
 * takes byte src of the group, in units of u bytes; unit 1 (vpshufb) indexes within its 16-byte lane. */
static vi ax_roll_index(size_t nb, size_t sb, size_t off, int u) {
    union { uint8_t b[AX_VB]; uint16_t w[AX_VB / 2]; uint32_t d[AX_VB / 4]; vi v; } idx;
    for (size_t b = 0; b < AX_VB; b += u == 8 ? 1 : (size_t)u) {
        const size_t q = off + b, ph = q % nb;
        const size_t src = q - ph + (ph >= sb ? ph - sb : ph + nb - sb);
        if (u == 8)
            idx.b[b] = (uint8_t)src;
        else if (u == 1)
            idx.b[b] = (uint8_t)(src & 15);
        else if (u == 2)
            idx.w[b / 2] = (uint16_t)(src / 2);
        else
            idx.d[b / 4] = (uint32_t)(src / 4);
    }
    return idx.v;
}

/* T bytes of whole rows by unit u; a streaming call comes here only with y aligned to V. */
AXIAL_INLINE void ax_roll_tiled(const char *x, char *y, size_t T, size_t nb, size_t sb, int u,
                                int nt) {
    const vi i0 = ax_roll_index(nb, sb, 0, u);
    size_t p = 0;
#if AX_ROLL_UNITS & 8
    if (u == 8) { /* rows of 2V: each output vector permutes its row */
        const vi i1 = ax_roll_index(nb, sb, AX_VB, u);
        for (; p + 4 * AX_VB <= T; p += 4 * AX_VB) {
            const vi o0 = vi_tbl2(x + p, i0), o1 = vi_tbl2(x + p, i1);
            const vi o2 = vi_tbl2(x + p + 2 * AX_VB, i0), o3 = vi_tbl2(x + p + 2 * AX_VB, i1);
            vi_st(y + p, o0), vi_st(y + p + AX_VB, o1);
            vi_st(y + p + 2 * AX_VB, o2), vi_st(y + p + 3 * AX_VB, o3);
        }
        if (p < T) /* one row left */
            vi_st(y + p, vi_tbl2(x + p, i0)), vi_st(y + p + AX_VB, vi_tbl2(x + p, i1));
        return;
    }
#endif
    for (; p + 4 * AX_VB <= T; p += 4 * AX_VB) {
        const vi v0 = vi_ld(x + p), v1 = vi_ld(x + p + AX_VB);
        const vi v2 = vi_ld(x + p + 2 * AX_VB), v3 = vi_ld(x + p + 3 * AX_VB);
        vi_put(y + p, vi_tbl(v0, i0, u), nt), ax_roll_inorder();
        vi_put(y + p + AX_VB, vi_tbl(v1, i0, u), nt), ax_roll_inorder();
        vi_put(y + p + 2 * AX_VB, vi_tbl(v2, i0, u), nt), ax_roll_inorder();
        vi_put(y + p + 3 * AX_VB, vi_tbl(v3, i0, u), nt);
    }
    for (; p + AX_VB <= T; p += AX_VB)
        vi_st(y + p, vi_tbl(vi_ld(x + p), i0, u));
    if (p < T) /* whole rows: the index never reaches past them */
        vi_st_part(y + p, vi_tbl(vi_ld_part(x + p, T - p), i0, u), T - p);
}

/* ---- short rows that do not tile: two loads and a select ---------------------- */

/* 4 output vectors at d from the straight (xa) and wrapped (xb) sources by the masks m0..m3, all loads first.
 * */
AXIAL_INLINE void ax_roll_sel4(char *d, const char *xa, const char *xb, vi m0, vi m1, vi m2, vi m3,
                               int nt) {
    const vi a0 = vi_ld(xa), a1 = vi_ld(xa + AX_VB), a2 = vi_ld(xa + 2 * AX_VB);
    const vi a3 = vi_ld(xa + 3 * AX_VB), b0 = vi_ld(xb), b1 = vi_ld(xb + AX_VB);
    const vi b2 = vi_ld(xb + 2 * AX_VB), b3 = vi_ld(xb + 3 * AX_VB);
    vi_put(d, vi_sel8(m0, b0, a0), nt), ax_roll_inorder();
    vi_put(d + AX_VB, vi_sel8(m1, b1, a1), nt), ax_roll_inorder();
    vi_put(d + 2 * AX_VB, vi_sel8(m2, b2, a2), nt), ax_roll_inorder();
    vi_put(d + 3 * AX_VB, vi_sel8(m3, b3, a3), nt);
}

/* Needs nb < AX_ROLL_LONG and (outer - 1) * nb >= AX_ROLL_LINE.  M[k] = (k mod nb) < sb ? 0xff : 0, nb + 4V
 * bytes, so that the 4 vectors of a step read it at one phase.  Both loads stay inside x for p in [sb, p1), p1
 * = T - nb + sb; the two ends left out are one copy each (row 0's wrapped part, the last row's straight part).
 * Head vectors up to a line boundary, then stores aligned to lines, the last vector again, overlapping. */
AXIAL_NOINLINE void ax_roll_selected(const char *x, char *y, size_t T, size_t nb, size_t sb,
                                     int nt) {
    uint8_t M[AX_ROLL_LONG + 4 * AX_VB];
    memset(M, 0xff, sb);
    memset(M + sb, 0, nb - sb);
    for (size_t k = nb; k < nb + 4 * AX_VB; k *= 2)
        memcpy(M + k, M, k < nb + 4 * AX_VB - k ? k : nb + 4 * AX_VB - k);
    const size_t p1 = T - nb + sb;
    ax_roll_copy(y, x + nb - sb, sb, 0);
    ax_roll_copy(y + p1, x + T - nb, nb - sb, 0);
#define AX_ROLL_SEL(p, m) vi_sel8(vi_ld(m), vi_ld(x + (p) - sb + nb), vi_ld(x + (p) - sb))
    for (size_t h = 0; h < AX_ROLL_LINE; h += AX_VB)
        vi_st(y + sb + h, AX_ROLL_SEL(sb + h, M + (sb + h) % nb));
    const size_t p = sb + AX_ROLL_LINE - ((uintptr_t)(y + sb) & (AX_ROLL_LINE - 1));
    const char *xa = x + p - sb, *xb = xa + nb; /* the straight and the wrapped source */
    const uint8_t *m = M + p % nb, *const mend = M + nb;
    char *d = y + p;
    size_t steps = (p1 - p) / (4 * AX_VB);
    const size_t step4 = 4 * AX_VB % nb, step1 = AX_VB % nb;
    if (step4 == 0) { /* every step reads M at one phase: the masks stay in registers */
        const vi m0 = vi_ld(m), m1 = vi_ld(m + AX_VB);
        const vi m2 = vi_ld(m + 2 * AX_VB), m3 = vi_ld(m + 3 * AX_VB);
        for (; steps > 0; steps--, xa += 4 * AX_VB, xb += 4 * AX_VB, d += 4 * AX_VB)
            ax_roll_sel4(d, xa, xb, m0, m1, m2, m3, nt);
    }
    for (; steps > 0; steps--, xa += 4 * AX_VB, xb += 4 * AX_VB, d += 4 * AX_VB) {
        ax_roll_sel4(d, xa, xb, vi_ld(m), vi_ld(m + AX_VB), vi_ld(m + 2 * AX_VB),
                     vi_ld(m + 3 * AX_VB), nt);
        m += step4;
        m -= m >= mend ? nb : 0;
    }
    for (size_t k = (size_t)(y + p1 - d) / AX_VB; k > 0; k--) {
        vi_put(d, vi_sel8(vi_ld(m), vi_ld(xb), vi_ld(xa)), nt);
        xa += AX_VB, xb += AX_VB, d += AX_VB, m += step1;
        m -= m >= mend ? nb : 0;
    }
    if (d < y + p1) /* the last vector again, overlapping: the same bytes */
        vi_st(y + p1 - AX_VB, AX_ROLL_SEL(p1 - AX_VB, M + (p1 - AX_VB) % nb));
#undef AX_ROLL_SEL
}

/* ---- the kernel ------------------------------------------------------------------ */

AXIAL_NOINLINE void ax_roll(const char *x, char *y, size_t outer, size_t nb, size_t sb, size_t E,
                            unsigned flags) {
    const size_t T = outer * nb;
    const int nt =
        AX_ROLL_NT && (T >= AXIAL_STREAM_BYTES || (flags & AXIAL_KERNEL_STREAM) != 0);
    const int u = ax_roll_unit(nb, E);
    if (sb == 0) {
        ax_roll_copy(y, x, T, nt);
    } else if (u != 0 && (!nt || ((uintptr_t)y & (AX_VB - 1)) == 0)) {
        if (u == 1)
            ax_roll_tiled(x, y, T, nb, sb, 1, nt);
        else if ((AX_ROLL_UNITS & 2) && u == 2)
            ax_roll_tiled(x, y, T, nb, sb, 2, nt);
        else if ((AX_ROLL_UNITS & 4) && u == 4)
            ax_roll_tiled(x, y, T, nb, sb, 4, nt);
        else
            ax_roll_tiled(x, y, T, nb, sb, 8, nt);
    } else if (nb < AX_ROLL_LONG && (outer - 1) * nb >= AX_ROLL_LINE) {
        ax_roll_selected(x, y, T, nb, sb, nt);
    } else if (!nt && nb >= AX_ROLL_LONG && nb <= AX_ROLL_RUNMAX) {
        if (nb > AX_ROLL_HALF_FROM)
            ax_roll_rows_run(x, y, outer, nb, sb, AX_VB / 2);
        else
            ax_roll_rows_run(x, y, outer, nb, sb, AX_VB);
    } else {
        for (size_t o = 0; o < outer; o++, x += nb, y += nb) {
            ax_roll_copy(y, x + nb - sb, sb, nt);
            ax_roll_copy(y + sb, x, nb - sb, nt);
        }
    }
    if (nt)
        ax_stream_fence(); /* order the streaming stores before whatever follows */
}

#define AX_ROLL_ENTRY(E)                                                                  \
    void AX_KN(roll, b##E)(const void *x, void *y, size_t outer, size_t n, size_t s,      \
                           unsigned flags) {                                              \
        ax_roll((const char *)x, (char *)y, outer, n * E, s * E, E, flags);               \
    }
AX_ROLL_ENTRY(1)
AX_ROLL_ENTRY(2)
AX_ROLL_ENTRY(4)
AX_ROLL_ENTRY(8)
#undef AX_ROLL_ENTRY

#endif /* AXIAL_OPS_ROLL_H */
