/* SPDX-License-Identifier: MIT */
/*
 * roll.c: AVX2 Roll kernels, one per element size (b1, b2, b4, b8), serving
 * every dtype, bool included: `outer` contiguous rows of n elements,
 * y[o][(j + shift) mod n] = x[o][j], 0 <= shift < n, x and y disjoint.
 *
 * Roll only moves bytes: there is no summation order, and the output is bit
 * for bit the scalar kernel's.  Everything works in bytes: rows of nb = n*E
 * bytes rotated by sb = shift*E bytes over a flat block of T = outer*nb
 * bytes.  Paths, chosen once per call (as in kernels/avx512/roll.c, at 32
 * bytes a vector):
 *  - shift 0: the whole block is one copy.
 *  - rows that tile the vector (nb divides 16; or E >= 4 and nb divides 32):
 *    one vpshufb / vpermd per vector with an index vector built once per
 *    call (axial_roll_tiled).
 *  - other rows under AXIAL_ROLL_LONG bytes: two loads and a blend per
 *    output vector, wherever rows begin in it (axial_roll_blended).
 *  - longer rows: two copies per row; in cache and up to AXIAL_ROLL_RUNMAX
 *    bytes as runs of unaligned vectors (axial_roll_run), else with stores
 *    aligned to the destination.
 * Tails: a copy up to 128 bytes is overlapping pairs of the widest fitting
 * moves, a longer one ends with overlapping vectors, so nothing outside x and
 * y is touched.  A call that writes at least AXIAL_ROLL_NT bytes, or a piece
 * of a split call whose whole output does (AXIAL_KERNEL_STREAM, kernels.h),
 * streams its aligned whole lines (no read-for-ownership of y) and ends with
 * an sfence; copies of at least AXIAL_ROLL_MEMCPY bytes go to memcpy, which
 * streams on its own.
 */
#include <string.h>

#include "avx2.h"

#define AXIAL_ROLL_LONG 128             /* row bytes from which rows are block copies */
#define AXIAL_ROLL_RUNMAX ((size_t)16 << 10) /* longer rows: copies with aligned stores */
#define AXIAL_ROLL_NT AXIAL_STREAM_BYTES /* bytes a call writes from which it streams */
#define AXIAL_ROLL_MEMCPY ((size_t)64 << 20) /* one copy from which memcpy does it */

static inline __m256i axial_roll_ld(const char *p) {
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}
static inline void axial_roll_st(char *p, __m256i v) {
    _mm256_storeu_si256((__m256i *)(void *)p, v);
}
/* A store to a 32-byte aligned address: streaming or plain. */
static inline void axial_roll_st_line(char *p, __m256i v, int nt) {
    if (nt)
        _mm256_stream_si256((__m256i *)(void *)p, v);
    else
        _mm256_store_si256((__m256i *)(void *)p, v);
}
/* Bytes from p to the next 64-byte boundary, in [1, 64]. */
static inline size_t axial_roll_to_line(const char *p) { return 64 - ((uintptr_t)p & 63); }

/* Copies len <= 128 bytes. */
static inline void axial_roll_copy_short(char *d, const char *s, size_t len) {
    if (len >= 64) {
        const __m256i a = axial_roll_ld(s), b = axial_roll_ld(s + 32);
        const __m256i c = axial_roll_ld(s + len - 64), e = axial_roll_ld(s + len - 32);
        axial_roll_st(d, a);
        axial_roll_st(d + 32, b);
        axial_roll_st(d + len - 64, c);
        axial_roll_st(d + len - 32, e);
    } else if (len >= 32) {
        const __m256i a = axial_roll_ld(s), b = axial_roll_ld(s + len - 32);
        axial_roll_st(d, a);
        axial_roll_st(d + len - 32, b);
    } else if (len >= 16) {
        AXIAL_ROLL_PAIR(16, d, s, len);
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

/* `steps` unrolled steps of 4 vectors, stores aligned to d. */
AXIAL_INLINE void axial_roll_steps(char *d, const char *s,
                                   size_t steps, int nt) {
    for (; steps > 0; steps--, d += 128, s += 128) {
        const __m256i v0 = axial_roll_ld(s), v1 = axial_roll_ld(s + 32);
        const __m256i v2 = axial_roll_ld(s + 64), v3 = axial_roll_ld(s + 96);
        axial_roll_st_line(d, v0, nt);
        axial_roll_st_line(d + 32, v1, nt);
        axial_roll_st_line(d + 64, v2, nt);
        axial_roll_st_line(d + 96, v3, nt);
    }
}

/* Copies len > 128 bytes, 4 vectors a step, stores aligned to d. */
static void axial_roll_copy_long(char *d, const char *s, size_t len, int nt) {
    if (nt && len >= AXIAL_ROLL_MEMCPY) {
        memcpy(d, s, len);
        return;
    }
    char *const de = d + len;
    const char *const se = s + len;
    if (nt) { /* plain stores up to the first line, whole lines streamed */
        const size_t a = axial_roll_to_line(d) & 63;
        axial_roll_copy_short(d, s, a);
        d += a, s += a, len -= a;
        axial_roll_steps(d, s, len / 128, 1);
        d += len / 128 * 128, s += len / 128 * 128, len %= 128;
        for (; len >= 64; d += 64, s += 64, len -= 64) {
            const __m256i v0 = axial_roll_ld(s), v1 = axial_roll_ld(s + 32);
            axial_roll_st_line(d, v0, 1);
            axial_roll_st_line(d + 32, v1, 1);
        }
        axial_roll_copy_short(d, s, len);
        return;
    }
    axial_roll_st(d, axial_roll_ld(s));
    const size_t a = 32 - ((uintptr_t)d & 31);
    d += a, s += a, len -= a;
    axial_roll_steps(d, s, (len - 1) / 128, 0);
    /* the last 128 bytes (1 to 128 of them not yet written) */
    const __m256i v0 = axial_roll_ld(se - 128), v1 = axial_roll_ld(se - 96);
    const __m256i v2 = axial_roll_ld(se - 64), v3 = axial_roll_ld(se - 32);
    axial_roll_st(de - 128, v0);
    axial_roll_st(de - 96, v1);
    axial_roll_st(de - 64, v2);
    axial_roll_st(de - 32, v3);
}

static inline void axial_roll_copy(char *d, const char *s, size_t len, int nt) {
    if (len <= 128)
        axial_roll_copy_short(d, s, len);
    else
        axial_roll_copy_long(d, s, len, nt);
}

/* One row by two copies. */
static inline void axial_roll_row(const char *x, char *y, size_t nb, size_t sb, int nt) {
    axial_roll_copy(y, x + nb - sb, sb, nt);
    axial_roll_copy(y + sb, x, nb - sb, nt);
}

/* Copies len >= 32 bytes with unaligned vectors in the order of the bytes, the
 * last one overlapping: no alignment peeling, for the short copies of rows
 * in cache, where peeling each copy costs more than the misaligned vectors
 * it saves. */
AXIAL_INLINE void axial_roll_run(char *d, const char *s,
                                 size_t len) {
    size_t q = 0;
    for (; q + 128 <= len; q += 128) {
        const __m256i v0 = axial_roll_ld(s + q), v1 = axial_roll_ld(s + q + 32);
        const __m256i v2 = axial_roll_ld(s + q + 64), v3 = axial_roll_ld(s + q + 96);
        axial_roll_st(d + q, v0);
        axial_roll_st(d + q + 32, v1);
        axial_roll_st(d + q + 64, v2);
        axial_roll_st(d + q + 96, v3);
    }
    for (; q + 32 <= len; q += 32)
        axial_roll_st(d + q, axial_roll_ld(s + q));
    if (q < len)
        axial_roll_st(d + len - 32, axial_roll_ld(s + len - 32));
}

/* One row (nb >= 128 bytes) in cache: its two parts as runs. */
AXIAL_INLINE void axial_roll_row_run(const char *x, char *y,
                                     size_t nb, size_t sb) {
    if (sb >= 32)
        axial_roll_run(y, x + nb - sb, sb);
    else
        axial_roll_copy_short(y, x + nb - sb, sb);
    if (nb - sb >= 32)
        axial_roll_run(y + sb, x, nb - sb);
    else
        axial_roll_copy_short(y + sb, x, nb - sb);
}

/* ---- rows that tile the vector: one permute per vector ------------------------ */

/* u: the permute's unit in bytes (1 vpshufb, 4 vpermd). */
AXIAL_INLINE __m256i axial_roll_perm(__m256i v, __m256i idx,
                                                                    int u) {
    return u == 1 ? _mm256_shuffle_epi8(v, idx) : _mm256_permutevar8x32_epi32(v, idx);
}

/* The index vector: output byte b of a vector takes byte src(b) of its row,
 * in units of u bytes; vpshufb indexes within its 128-bit lane. */
static __m256i axial_roll_index(size_t nb, size_t sb, int u) {
    union {
        uint8_t b[32];
        uint32_t d[8];
        __m256i v;
    } idx;
    for (size_t k = 0; k < (size_t)(32 / u); k++) {
        const size_t b = k * (size_t)u, ph = b % nb;
        const size_t src = b - ph + (ph >= sb ? ph - sb : ph + nb - sb);
        if (u == 1)
            idx.b[k] = (uint8_t)(src & 15);
        else
            idx.d[k] = (uint32_t)(src / 4);
    }
    return idx.v;
}

/* T bytes of rows of nb bytes, nb | 16 (u = 1) or nb | 32 (u = 4); a streaming
 * call comes here only with y 32-byte aligned.  The tail (whole rows) is one
 * vpmaskmovd for vpermd; for vpshufb one 16-byte step, then row by row. */
AXIAL_INLINE void
axial_roll_tiled(const char *x, char *y, size_t T, size_t nb, size_t sb, int u, int nt) {
    const __m256i idx = axial_roll_index(nb, sb, u);
    size_t p = 0;
    if (nt) { /* y is 32-byte aligned here */
        for (; p + 128 <= T; p += 128) {
            const __m256i v0 = axial_roll_ld(x + p), v1 = axial_roll_ld(x + p + 32);
            const __m256i v2 = axial_roll_ld(x + p + 64), v3 = axial_roll_ld(x + p + 96);
            axial_roll_st_line(y + p, axial_roll_perm(v0, idx, u), 1);
            axial_roll_st_line(y + p + 32, axial_roll_perm(v1, idx, u), 1);
            axial_roll_st_line(y + p + 64, axial_roll_perm(v2, idx, u), 1);
            axial_roll_st_line(y + p + 96, axial_roll_perm(v3, idx, u), 1);
        }
    } else {
        for (; p + 128 <= T; p += 128) {
            const __m256i v0 = axial_roll_ld(x + p), v1 = axial_roll_ld(x + p + 32);
            const __m256i v2 = axial_roll_ld(x + p + 64), v3 = axial_roll_ld(x + p + 96);
            axial_roll_st(y + p, axial_roll_perm(v0, idx, u));
            axial_roll_st(y + p + 32, axial_roll_perm(v1, idx, u));
            axial_roll_st(y + p + 64, axial_roll_perm(v2, idx, u));
            axial_roll_st(y + p + 96, axial_roll_perm(v3, idx, u));
        }
    }
    for (; p + 32 <= T; p += 32)
        axial_roll_st(y + p, axial_roll_perm(axial_roll_ld(x + p), idx, u));
    if (p == T)
        return;
    /* the tail is whole rows: the index never reaches past them */
    if (u == 4) {
        const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)((T - p) / 4)),
                                             _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        const __m256i v = _mm256_maskload_epi32((const int *)(const void *)(x + p), m);
        _mm256_maskstore_epi32((int *)(void *)(y + p), m, axial_roll_perm(v, idx, 4));
        return;
    }
    if (p + 16 <= T) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(x + p));
        _mm_storeu_si128((__m128i *)(void *)(y + p),
                         _mm_shuffle_epi8(v, _mm256_castsi256_si128(idx)));
        p += 16;
    }
    for (; p < T; p += nb)
        axial_roll_row(x + p, y + p, nb, sb, 0);
}

/* ---- short rows that do not tile: two loads and a blend ----------------------- */

/* M[k] = (k mod nb) < sb ? 0xff : 0 for k < len (len >= nb). */
static void axial_roll_pattern(uint8_t *M, size_t nb, size_t sb, size_t len) {
    memset(M, 0xff, sb);
    memset(M + sb, 0, nb - sb);
    for (size_t k = nb; k < len; k *= 2)
        memcpy(M + k, M, k < len - k ? k : len - k);
}

/* The output vector at flat byte p, whose phase in its row is ph. */
static inline __m256i axial_roll_blend(const char *x, const uint8_t *M, size_t p, size_t ph,
                                       size_t nb, size_t sb) {
    const __m256i m = _mm256_loadu_si256((const __m256i *)(const void *)(M + ph));
    return _mm256_blendv_epi8(axial_roll_ld(x + p - sb), axial_roll_ld(x + p - sb + nb), m);
}

/* Over the flat output, y[p] = x[p - sb] where p's phase in its row
 * (p mod nb) is >= sb, else x[p - sb + nb] (the same row's wrapped part).  So
 * every output vector, wherever rows begin inside it, is
 * blendv(x[p - sb ..], x[p - sb + nb ..], M[p mod nb ..]), with the pattern M
 * built once per call (nb + 128 bytes, so the 4 vectors of a step read M at
 * one phase).  Stores: two unaligned head vectors, then aligned ones, the
 * last one overlapping.
 * Both loads stay inside x for p in [sb, T - nb + sb); the two ends left out
 * are one copy each (row 0's wrapped part, the last row's unwrapped part).
 * Needs nb < AXIAL_ROLL_LONG and (outer - 1) * nb >= 64. */
static void axial_roll_blended(const char *x, char *y, size_t outer, size_t nb, size_t sb,
                               int nt) {
    uint8_t M[AXIAL_ROLL_LONG + 128]; /* nb < AXIAL_ROLL_LONG */
    axial_roll_pattern(M, nb, sb, nb + 128);
    const size_t T = outer * nb, p1 = T - nb + sb;
    axial_roll_copy(y, x + nb - sb, sb, 0);          /* row 0's wrapped part */
    axial_roll_copy(y + p1, x + T - nb, nb - sb, 0); /* the last row's unwrapped part */
    /* two unaligned head vectors reach the first line boundary */
    size_t p = sb, ph = sb;
    axial_roll_st(y + p, axial_roll_blend(x, M, p, ph, nb, sb));
    axial_roll_st(y + p + 32, axial_roll_blend(x, M, p + 32, (ph + 32) % nb, nb, sb));
    const size_t a = axial_roll_to_line(y + p);
    p += a, ph = (ph + a) % nb;
    const size_t step4 = 128 % nb, step1 = 32 % nb;
    for (; p + 128 <= p1; p += 128) {
        const __m256i v0 = axial_roll_blend(x, M, p, ph, nb, sb);
        const __m256i v1 = axial_roll_blend(x, M, p + 32, ph + 32, nb, sb);
        const __m256i v2 = axial_roll_blend(x, M, p + 64, ph + 64, nb, sb);
        const __m256i v3 = axial_roll_blend(x, M, p + 96, ph + 96, nb, sb);
        axial_roll_st_line(y + p, v0, nt);
        axial_roll_st_line(y + p + 32, v1, nt);
        axial_roll_st_line(y + p + 64, v2, nt);
        axial_roll_st_line(y + p + 96, v3, nt);
        ph += step4;
        ph -= ph >= nb ? nb : 0;
    }
    for (; p + 32 <= p1; p += 32) {
        axial_roll_st(y + p, axial_roll_blend(x, M, p, ph, nb, sb));
        ph += step1;
        ph -= ph >= nb ? nb : 0;
    }
    if (p < p1) /* the last vector again, overlapping: the same bytes */
        axial_roll_st(y + p1 - 32, axial_roll_blend(x, M, p1 - 32, (p1 - 32) % nb, nb, sb));
}

/* ---- the kernel ------------------------------------------------------------------ */

AXIAL_INLINE void
axial_roll_avx2(const void *xv, void *yv, size_t outer, size_t n, size_t shift, size_t E,
                unsigned flags) {
    const char *x = (const char *)xv;
    char *y = (char *)yv;
    const size_t nb = n * E, sb = shift * E, T = outer * nb;
    const int nt = T >= AXIAL_ROLL_NT || (flags & AXIAL_KERNEL_STREAM) != 0;
    const int y_aligned = ((uintptr_t)y & 31) == 0;
    if (sb == 0) {
        axial_roll_copy(y, x, T, nt);
    } else if (16 % nb == 0 && (!nt || y_aligned)) {
        axial_roll_tiled(x, y, T, nb, sb, 1, nt);
    } else if (E >= 4 && 32 % nb == 0 && (!nt || y_aligned)) {
        axial_roll_tiled(x, y, T, nb, sb, 4, nt);
    } else if (nb < AXIAL_ROLL_LONG && (outer - 1) * nb >= 64) {
        axial_roll_blended(x, y, outer, nb, sb, nt);
    } else if (!nt && nb >= AXIAL_ROLL_LONG && nb <= AXIAL_ROLL_RUNMAX) {
        for (size_t o = 0; o < outer; o++)
            axial_roll_row_run(x + o * nb, y + o * nb, nb, sb);
    } else {
        for (size_t o = 0; o < outer; o++)
            axial_roll_row(x + o * nb, y + o * nb, nb, sb, nt);
    }
    if (nt)
        _mm_sfence(); /* order the streaming stores before whatever follows */
}

AXIAL_DEFINE_ROLL_ENTRIES(avx2, axial_roll_avx2)
