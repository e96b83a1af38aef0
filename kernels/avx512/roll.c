/* SPDX-License-Identifier: MIT */
/*
 * roll.c: AVX-512 (F + VL + BW + DQ) Roll, one kernel per element size (b1,
 * b2, b4, b8) serving every dtype, bool included: `outer` contiguous rows of
 * n elements, y[o][(j + shift) mod n] = x[o][j], 0 <= shift < n, x and y
 * disjoint.  Roll moves bytes, so the one summation order (docs/API.md
 * section 7) does not apply: the output is the scalar kernel's, bit for bit.
 * Everything works in bytes: rows of nb = n*E bytes rotated by sb = shift*E
 * over a block of T = outer*nb bytes; E only picks the permute instruction.
 *
 * Paths, chosen once per call (axial_roll_avx512), for shift != 0:
 *  - rows that tile the vector (nb divides 16, or 64 when E >= 2): one
 *    permute per vector with an index built once per call (axial_roll_tiled).
 *  - other rows shorter than AXIAL_ROLL_LONG bytes: y[p] is x[p - sb], or
 *    x[p - sb + nb] where p's phase in its row is below sb, so every output
 *    vector, wherever rows begin in it, is two loads and a byte select
 *    (axial_roll_selected).
 *  - longer rows, and calls too small for the select: two copies per row
 *    (axial_roll_row in cache, else axial_roll_copy).  Shift 0: one copy.
 *
 * Tails: overlapping plain vectors or pairs of smaller moves; masked loads
 * and stores only at the end of the permute path (elsewhere they cost more
 * than overlapping plain vectors on Zen 5).  No load or store leaves the
 * rows.  A call that writes at least AXIAL_ROLL_NT bytes, or a task of a
 * split call that does (AXIAL_KERNEL_STREAM), streams its aligned full lines.
 */
#include <string.h>

#include "avx512.h"

#define AXIAL_ROLL_LONG 128            /* row bytes from which rows are block copies */
#define AXIAL_ROLL_RUNMAX ((size_t)16 << 10) /* longer rows: copies with aligned stores */
#define AXIAL_ROLL_ROW64 512        /* in-cache rows up to this many bytes: 64-byte moves */
#define AXIAL_ROLL_NT AXIAL_STREAM_BYTES /* bytes a call writes from which it streams */
#define AXIAL_ROLL_MEMCPY ((size_t)64 << 20) /* one copy from which memcpy does it */
/* Streaming stores skip the read for ownership of the destination: 2 passes
 * over memory instead of 3.  Heads, tails and the lines where two copies meet
 * use plain stores; a call that streamed ends with an sfence.  Streaming
 * copies of at least AXIAL_ROLL_MEMCPY bytes go to glibc's memcpy, which
 * streams them itself above its own threshold (a share of the last-level
 * cache). */

static inline __m512i axial_roll_ld(const char *p) { return _mm512_loadu_si512((const void *)p); }
static inline void axial_roll_st(char *p, __m512i v) { _mm512_storeu_si512((void *)p, v); }
static inline __m256i axial_roll_ld32(const char *p) {
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}
static inline void axial_roll_st32(char *p, __m256i v) {
    _mm256_storeu_si256((__m256i *)(void *)p, v);
}
/* A store to a 64-byte aligned address: streaming or plain. */
static inline void axial_roll_st_line(char *p, __m512i v, int nt) {
    if (nt)
        _mm512_stream_si512((void *)p, v);
    else
        _mm512_store_si512((void *)p, v);
}
/* Bytes from p to the next 64-byte boundary, in [1, 64]. */
static inline size_t axial_roll_to_line(const char *p) { return 64 - ((uintptr_t)p & 63); }

/* Copies len <= 256 bytes: 2 or 4 overlapping vectors, or under 64 bytes
 * overlapping pairs of 32/16/8/4/2-byte moves, not a masked vector: masked
 * stores into lines that are being streamed are slow. */
static inline void axial_roll_copy_short(char *d, const char *s, size_t len) {
    if (len < 64) {
        if (len >= 32)
            AXIAL_ROLL_PAIR(32, d, s, len);
        else if (len >= 16)
            AXIAL_ROLL_PAIR(16, d, s, len);
        else if (len >= 8)
            AXIAL_ROLL_PAIR(8, d, s, len);
        else if (len >= 4)
            AXIAL_ROLL_PAIR(4, d, s, len);
        else if (len >= 2)
            AXIAL_ROLL_PAIR(2, d, s, len);
        else if (len == 1)
            *d = *s;
    } else if (len <= 128) {
        const __m512i a = axial_roll_ld(s), b = axial_roll_ld(s + len - 64);
        axial_roll_st(d, a);
        axial_roll_st(d + len - 64, b);
    } else {
        const __m512i a = axial_roll_ld(s), b = axial_roll_ld(s + 64);
        const __m512i c = axial_roll_ld(s + len - 128), e = axial_roll_ld(s + len - 64);
        axial_roll_st(d, a);
        axial_roll_st(d + 64, b);
        axial_roll_st(d + len - 128, c);
        axial_roll_st(d + len - 64, e);
    }
}

/* `steps` unrolled steps of 4 vectors, stores aligned to d. */
AXIAL_INLINE void axial_roll_steps(char *d, const char *s,
                                   size_t steps, int nt) {
    for (; steps > 0; steps--, d += 256, s += 256) {
        const __m512i v0 = axial_roll_ld(s), v1 = axial_roll_ld(s + 64);
        const __m512i v2 = axial_roll_ld(s + 128), v3 = axial_roll_ld(s + 192);
        axial_roll_st_line(d, v0, nt);
        axial_roll_st_line(d + 64, v1, nt);
        axial_roll_st_line(d + 128, v2, nt);
        axial_roll_st_line(d + 192, v3, nt);
    }
}

/* Copies len > 256 bytes, 4 vectors a step, stores aligned to d.  Plain:
 * the head and the tail are whole unaligned vectors that overlap the aligned
 * part (masked loads and stores cost more).  Streaming: the head and the
 * tail are exact plain copies (axial_roll_copy_short), so no line is
 * written both ways. */
static void axial_roll_copy_long(char *d, const char *s, size_t len, int nt) {
    if (nt && len >= AXIAL_ROLL_MEMCPY) {
        memcpy(d, s, len);
        return;
    }
    if (nt) {
        const size_t a = axial_roll_to_line(d) & 63;
        axial_roll_copy_short(d, s, a);
        d += a, s += a, len -= a;
        axial_roll_steps(d, s, len / 256, 1);
        d += len / 256 * 256, s += len / 256 * 256, len %= 256;
        for (; len >= 64; d += 64, s += 64, len -= 64)
            axial_roll_st_line(d, axial_roll_ld(s), 1);
        axial_roll_copy_short(d, s, len);
        return;
    }
    char *const de = d + len;
    const char *const se = s + len;
    axial_roll_st(d, axial_roll_ld(s));
    const size_t a = axial_roll_to_line(d);
    d += a, s += a, len -= a;
    axial_roll_steps(d, s, (len - 1) / 256, 0);
    /* the last 256 bytes (1 to 256 of them not yet written) */
    const __m512i v0 = axial_roll_ld(se - 256), v1 = axial_roll_ld(se - 192);
    const __m512i v2 = axial_roll_ld(se - 128), v3 = axial_roll_ld(se - 64);
    axial_roll_st(de - 256, v0);
    axial_roll_st(de - 192, v1);
    axial_roll_st(de - 128, v2);
    axial_roll_st(de - 64, v3);
}

static inline void axial_roll_copy(char *d, const char *s, size_t len, int nt) {
    if (len <= 256)
        axial_roll_copy_short(d, s, len);
    else
        axial_roll_copy_long(d, s, len, nt);
}

/* Copies len >= W bytes (W = 32 or 64) with unaligned W-byte vectors of type
 * V in the order of the bytes (4 per step, then single ones), the last one
 * overlapping: no alignment peeling, for the copies of rows in cache (see
 * the header). */
#define AXIAL_ROLL_RUN(V, LD, ST, W)                                                     \
    do {                                                                                 \
        size_t q = 0;                                                                    \
        for (; q + 4 * (W) <= len; q += 4 * (W)) {                                       \
            const V v0 = LD(s + q), v1 = LD(s + q + (W));                                \
            const V v2 = LD(s + q + 2 * (W)), v3 = LD(s + q + 3 * (W));                  \
            ST(d + q, v0);                                                               \
            ST(d + q + (W), v1);                                                         \
            ST(d + q + 2 * (W), v2);                                                     \
            ST(d + q + 3 * (W), v3);                                                     \
        }                                                                                \
        for (; q + (W) <= len; q += (W))                                                 \
            ST(d + q, LD(s + q));                                                        \
        if (q < len)                                                                     \
            ST(d + len - (W), LD(s + len - (W)));                                        \
    } while (0)
AXIAL_INLINE void axial_roll_run(char *d, const char *s,
                                 size_t len, size_t W) {
    if (W == 64)
        AXIAL_ROLL_RUN(__m512i, axial_roll_ld, axial_roll_st, 64);
    else
        AXIAL_ROLL_RUN(__m256i, axial_roll_ld32, axial_roll_st32, 32);
}
#undef AXIAL_ROLL_RUN

/* One row (AXIAL_ROLL_LONG <= nb <= AXIAL_ROLL_RUNMAX bytes) in cache: its two
 * parts as runs of W-byte vectors; parts shorter than W by overlapping
 * smaller moves.  W = 64 for rows up to AXIAL_ROLL_ROW64 bytes, else 32: a
 * 64-byte unaligned store always splits across two lines, a 32-byte one only
 * half the time, which is faster on Zen 5; peeling to aligned stores with
 * misaligned loads is no faster in cache.  Longer rows take the copies with
 * aligned stores (axial_roll_copy_long). */
AXIAL_INLINE void axial_roll_row(const char *x, char *y,
                                 size_t nb, size_t sb, size_t W) {
    if (sb >= W)
        axial_roll_run(y, x + nb - sb, sb, W);
    else
        axial_roll_copy_short(y, x + nb - sb, sb);
    if (nb - sb >= W)
        axial_roll_run(y + sb, x, nb - sb, W);
    else
        axial_roll_copy_short(y + sb, x, nb - sb);
}

/* ---- rows that tile the vector: one permute per vector ------------------------ */

/* u: the permute's unit in bytes (1 vpshufb, 2 vpermw, 4 vpermd). */
AXIAL_INLINE __m512i axial_roll_perm(__m512i v, __m512i idx,
                                                                    int u) {
    return u == 1   ? _mm512_shuffle_epi8(v, idx)
           : u == 2 ? _mm512_permutexvar_epi16(idx, v)
                    : _mm512_permutexvar_epi32(idx, v);
}

/* The index vector: output byte b of a vector takes byte src(b) of its row,
 * in units of u bytes; vpshufb indexes within its 128-bit lane. */
static __m512i axial_roll_index(size_t nb, size_t sb, int u) {
    union {
        uint8_t b[64];
        uint16_t w[32];
        uint32_t d[16];
        __m512i v;
    } idx;
    for (size_t k = 0; k < (size_t)(64 / u); k++) {
        const size_t b = k * (size_t)u, ph = b % nb;
        const size_t src = b - ph + (ph >= sb ? ph - sb : ph + nb - sb);
        if (u == 1)
            idx.b[k] = (uint8_t)(src & 15);
        else if (u == 2)
            idx.w[k] = (uint16_t)(src / 2);
        else
            idx.d[k] = (uint32_t)(src / 4);
    }
    return idx.v;
}

AXIAL_INLINE void
axial_roll_tiled(const char *x, char *y, size_t T, size_t nb, size_t sb, int u, int nt) {
    const __m512i idx = axial_roll_index(nb, sb, u);
    size_t p = 0;
    if (nt) { /* y is 64-byte aligned here */
        for (; p + 256 <= T; p += 256) {
            const __m512i v0 = axial_roll_ld(x + p), v1 = axial_roll_ld(x + p + 64);
            const __m512i v2 = axial_roll_ld(x + p + 128), v3 = axial_roll_ld(x + p + 192);
            _mm512_stream_si512((void *)(y + p), axial_roll_perm(v0, idx, u));
            _mm512_stream_si512((void *)(y + p + 64), axial_roll_perm(v1, idx, u));
            _mm512_stream_si512((void *)(y + p + 128), axial_roll_perm(v2, idx, u));
            _mm512_stream_si512((void *)(y + p + 192), axial_roll_perm(v3, idx, u));
        }
    } else {
        for (; p + 256 <= T; p += 256) {
            const __m512i v0 = axial_roll_ld(x + p), v1 = axial_roll_ld(x + p + 64);
            const __m512i v2 = axial_roll_ld(x + p + 128), v3 = axial_roll_ld(x + p + 192);
            axial_roll_st(y + p, axial_roll_perm(v0, idx, u));
            axial_roll_st(y + p + 64, axial_roll_perm(v1, idx, u));
            axial_roll_st(y + p + 128, axial_roll_perm(v2, idx, u));
            axial_roll_st(y + p + 192, axial_roll_perm(v3, idx, u));
        }
    }
    for (; p + 64 <= T; p += 64)
        axial_roll_st(y + p, axial_roll_perm(axial_roll_ld(x + p), idx, u));
    if (p < T) { /* whole rows: the index never reaches past them */
        const __mmask64 m = axial_avx512_mask64(T - p);
        _mm512_mask_storeu_epi8(y + p, m,
                                axial_roll_perm(_mm512_maskz_loadu_epi8(m, x + p), idx, u));
    }
}

/* ---- short rows that do not tile: two loads and a select ---------------------- */

/* M[k] = (k mod nb) < sb ? 0xff : 0 for k < len (len a multiple of nb or more). */
static void axial_roll_pattern(uint8_t *M, size_t nb, size_t sb, size_t len) {
    memset(M, 0xff, sb);
    memset(M + sb, 0, nb - sb);
    for (size_t k = nb; k < len; k *= 2)
        memcpy(M + k, M, k < len - k ? k : len - k);
}

/* The output vector at flat byte p, whose phase in its row is ph. */
static inline __m512i axial_roll_select(const char *x, const uint8_t *M, size_t p, size_t ph,
                                        size_t nb, size_t sb) {
    const __m512i m = _mm512_loadu_si512((const void *)(M + ph));
    const __m512i wrapped = axial_roll_ld(x + p - sb + nb), straight = axial_roll_ld(x + p - sb);
    return _mm512_ternarylogic_epi64(m, wrapped, straight, 0xca); /* m ? wrapped : straight */
}

/* Needs nb < AXIAL_ROLL_LONG and (outer - 1) * nb >= 64 (its head and last
 * vectors).  y[p] = select(M[p mod nb ..], x[p - sb + nb ..], x[p - sb ..])
 * with M[k] = (k mod nb) < sb ? 0xff : 0, built once per call, nb + 256 bytes
 * long so that the 4 vectors of a step read M at one phase.  Stores are full
 * vectors aligned to y.  Both loads stay inside x for p in [sb, T - nb + sb);
 * the two ends left out are one copy each.  A masked load per vector would
 * make this path slower, not faster. */
static void axial_roll_selected(const char *x, char *y, size_t outer, size_t nb, size_t sb,
                                int nt) {
    uint8_t M[AXIAL_ROLL_LONG + 256]; /* nb < AXIAL_ROLL_LONG */
    axial_roll_pattern(M, nb, sb, nb + 256);
    const size_t T = outer * nb, p1 = T - nb + sb;
    axial_roll_copy(y, x + nb - sb, sb, 0);         /* row 0's wrapped part */
    axial_roll_copy(y + p1, x + T - nb, nb - sb, 0); /* the last row's unwrapped part */
    size_t p = sb, ph = sb;
    axial_roll_st(y + p, axial_roll_select(x, M, p, ph, nb, sb));
    const size_t a = axial_roll_to_line(y + p);
    p += a, ph = (ph + a) % nb;
    const size_t step4 = 256 % nb, step1 = 64 % nb;
    for (; p + 256 <= p1; p += 256) {
        const __m512i v0 = axial_roll_select(x, M, p, ph, nb, sb);
        const __m512i v1 = axial_roll_select(x, M, p + 64, ph + 64, nb, sb);
        const __m512i v2 = axial_roll_select(x, M, p + 128, ph + 128, nb, sb);
        const __m512i v3 = axial_roll_select(x, M, p + 192, ph + 192, nb, sb);
        axial_roll_st_line(y + p, v0, nt);
        axial_roll_st_line(y + p + 64, v1, nt);
        axial_roll_st_line(y + p + 128, v2, nt);
        axial_roll_st_line(y + p + 192, v3, nt);
        ph += step4;
        ph -= ph >= nb ? nb : 0;
    }
    for (; p + 64 <= p1; p += 64) {
        axial_roll_st_line(y + p, axial_roll_select(x, M, p, ph, nb, sb), nt);
        ph += step1;
        ph -= ph >= nb ? nb : 0;
    }
    if (p < p1) /* the last vector again, overlapping: the same bytes */
        axial_roll_st(y + p1 - 64, axial_roll_select(x, M, p1 - 64, (p1 - 64) % nb, nb, sb));
}

/* ---- the kernel ------------------------------------------------------------------ */

AXIAL_INLINE void
axial_roll_avx512(const void *xv, void *yv, size_t outer, size_t n, size_t shift, size_t E,
                unsigned flags) {
    const char *x = (const char *)xv;
    char *y = (char *)yv;
    const size_t nb = n * E, sb = shift * E, T = outer * nb;
    const int nt = T >= AXIAL_ROLL_NT || (flags & AXIAL_KERNEL_STREAM) != 0;
    if (sb == 0) {
        axial_roll_copy(y, x, T, nt);
    } else if (16 % nb == 0 && (!nt || ((uintptr_t)y & 63) == 0)) {
        axial_roll_tiled(x, y, T, nb, sb, 1, nt);
    } else if (E >= 2 && 64 % nb == 0 && (!nt || ((uintptr_t)y & 63) == 0)) {
        if (E == 2)
            axial_roll_tiled(x, y, T, nb, sb, 2, nt);
        else
            axial_roll_tiled(x, y, T, nb, sb, 4, nt);
    } else if (nb < AXIAL_ROLL_LONG && (outer - 1) * nb >= 64) {
        axial_roll_selected(x, y, outer, nb, sb, nt);
    } else if (!nt && nb >= AXIAL_ROLL_LONG && nb <= AXIAL_ROLL_RUNMAX) {
        if (nb <= AXIAL_ROLL_ROW64)
            for (size_t o = 0; o < outer; o++, x += nb, y += nb)
                axial_roll_row(x, y, nb, sb, 64);
        else
            for (size_t o = 0; o < outer; o++, x += nb, y += nb)
                axial_roll_row(x, y, nb, sb, 32);
    } else {
        for (size_t o = 0; o < outer; o++, x += nb, y += nb) {
            axial_roll_copy(y, x + nb - sb, sb, nt);
            axial_roll_copy(y + sb, x, nb - sb, nt);
        }
    }
    if (nt)
        _mm_sfence(); /* order the streaming stores before whatever follows */
}

AXIAL_DEFINE_ROLL_ENTRIES(avx512, axial_roll_avx512)
