/* SPDX-License-Identifier: MIT */
/*
 * ops/reduce.h: ReduceSum for every summable dtype (kernels.h: reduce, reduce_acc, reduce_finish, reduce_run,
 * reduce_cols over (outer, n, inner)), written once over simd/<isa>.h (included first);
 * AXIAL_DEFINE_REDUCE_KERNELS() defines them for its ISA.
 *
 * Floats follow the one summation order (docs/API.md section 7, tests/order_ref.c), over positions, never
 * registers: C (the trees' type) is f32 for f32/f16/bf16, f64 for f64; a `vc` is one native vector of C.
 *   columns (inner >= 16): each column alone, groups of 8 rows by the tree ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7))
 *     in C, widened and added into the column's f64 sum; the last w % L columns from the overlapping vector of
 *     the last L, only its new lanes added.
 *   periodic (1 < inner < 16): super-rows of P = lcm(inner, 16), position p a column of them (trees over 8
 *     super-rows, AX_RED_PIECE positions a tree) into A[p], A folded in halves to `inner` sums.
 *   rows (inner == 1): P == 16, the 16 sums folded by vector adds, then AX_ND rows at once by vd_halves_add
 *     (the last halvings as a transpose).  Short rows (n <= 16) are one super-row, -0.0 past n (a fold adding
 *     -0.0 is exact): folded from the fewest vectors, or packed several to a vector; rows of 32..128, a
 *     multiple of 16, one group.
 *   Rows of 2 of f32 add in f32: (x0 + x1) rounded to f64, then to f32, is the f32 sum (53 >= 2 * 24 + 2), and
 *   so for f16/bf16 (24 >= 2 * 11 + 2).  f16/bf16 round to odd in f32, then to nearest even: one rounding.
 * Integers wrap (signed and unsigned share a body per width): native accumulators, slots of lcm(inner, lanes)
 * for narrow columns; reduce_acc adds the wrapped sum into the uint64_t accumulator. Tails touch nothing
 * outside x, y, acc: a long run's last group that is not whole super-rows from a -0.0-padded copy (rd_tail16);
 * a vector past its run loaded whole where that stays in x (extra lanes -0.0), else by vf_ld_part; short rows
 * near x's end from a padded copy.  Rows stream their aligned output groups in a reduce writing
 * AXIAL_STREAM_BYTES (or a task of one).  Prefetch: AX_RED_PF_SHORT, _LONG.
 */
#ifndef AXIAL_OPS_REDUCE_H
#define AXIAL_OPS_REDUCE_H

#ifndef AX_RED_PIECE /* positions per tree of the periodic and row order */
#define AX_RED_PIECE 16
#endif
#ifndef AX_RED_IN_ORDER /* the periodic and row trees' loads kept in address order (RD_IN_ORDER) */
#define AX_RED_IN_ORDER 1
#endif
#if AX_RED_IN_ORDER /* else a flat run's pieces apart: the next one's loads after (NEON f32 runs spilled: 0.92x, modelled) */
#define RD_PIECE_FENCE(full) ((void)0)
#else
#define RD_PIECE_FENCE(full) ((full) == RD_ALL ? ({ __asm__ volatile("" ::: "memory"); }) : (void)0)
#endif
#ifndef AX_RED_ROWS3 /* vf_rows3: the ISA sums 4 rows of 3 (f32, f16, bf16) at once (lo: rows 0, 1; hi: 2, 3) */
#define AX_RED_ROWS3 0
#define vf_rows3(k, p, lo, hi) ((void)(k), (void)(p), (void)(lo), (void)(hi))
#endif
#ifndef AX_RED_SPREAD /* vf_spread, vd_spread: pack short rows of any length */
#define AX_RED_SPREAD 0
#define vf_spread(v, n, q) (v)
#define vd_spread(v, n, q) (v)
#endif
#ifndef AX_RED_FOLD8 /* the ISA's vd_fold8 (vi_fold8) folds 8 rows of 8 lanes (rd_fold_rows; the wide integer groups) */
#define AX_RED_FOLD8 0
#define vd_fold8(v) (v)[0]
#define vi_fold8(v) (v)[0]
#endif
#ifndef AX_RED_INT_ROWS3 /* vi_rows3(k, p): lane r the sum of row r of rows of 3 at p */
#define AX_RED_INT_ROWS3 0
#define vi_rows3(k, p) ((void)(k), vi_ld(p))
#endif
#ifndef AX_RED_INT_WIDE /* vi_wide(k, v): v's lanes summed in zero-extended 8-byte lanes */
#define AX_RED_INT_WIDE 0
#define vi_wide(k, v) (v)
#endif
#ifndef AX_RED_INT_STW /* vi_stw(k, p, v): the low bytes of v's 8-byte lanes to p, k's lanes (wide groups straight to y) */
#define AX_RED_INT_STW 0
#define vi_stw(k, p, v) vi_st(p, v)
#endif
#ifndef AX_RED_INT_ACC /* vi_acc(k, acc, v): acc[0 .. lanes) += v's lanes (a whole group of reduce_acc, not wide) */
#define AX_RED_INT_ACC 0
#define vi_acc(k, acc, v) ((void)0)
#endif
#ifndef AX_RED_INT_QUARTERS /* vi_ld4q(p, s): 4 quarter vectors, s bytes apart (wide groups of byte rows) */
#define AX_RED_INT_QUARTERS 0
#define vi_ld4q(p, s) vi_ld(p)
#endif
#ifndef AX_RED_ROWS_V /* bf16 rows of one whole vector: a copy of rd_rows_n of their own (rd_rows_n_bf16) */
#define AX_RED_ROWS_V 0
#endif
#ifndef AX_RED_PF_SHORT
#define AX_RED_PF_SHORT 0
#endif
#ifndef AX_RED_PF_LONG
#define AX_RED_PF_LONG 0
#endif

#define RD_UNROLL _Pragma("GCC unroll 16")
#define RD_MIN(a, b) ((a) < (b) ? (a) : (b))
#define RD_COL_CHUNK 4096  /* columns per pass into acc (or an f64 y) */
#define RD_COL_STACK 1024  /* f32/f16/bf16 reduce: columns per pass into an f64 stack row */
#define RD_PF_ROW 2048     /* AX_RED_PF_LONG: row bytes from which a row prefetches itself */
#define RD_INT_CHUNK 4096  /* integer columns: bytes per pass */

static inline size_t rd_gcd(size_t a, size_t b) { return b ? rd_gcd(b, a % b) : a; }

/* ---- C vectors --------------------------------------------------------------- */
typedef struct { vf f; vd d; } vc;
AXIAL_INLINE size_t vc_nw(int k) { return k == AXK_F64 ? 1 : 2; } /* vd per vc */
AXIAL_INLINE size_t vc_n(int k) { return vc_nw(k) * AX_ND; }
AXIAL_INLINE vc vc_of(vf f, vd d) { return (vc){f, d}; }
AXIAL_INLINE vc vc_nz(int k) {
    return k == AXK_F64 ? vc_of(vf_set1(0.0f), vd_set1(-0.0)) : vc_of(vf_set1(-0.0f), vd_set1(0.0));
}
AXIAL_INLINE vc vc_ld(int k, const void *p) {
    return k == AXK_F64 ? vc_of(vf_set1(0.0f), vd_ld((const double *)p))
                        : vc_of(vf_ld(k, p), vd_set1(0.0));
}
AXIAL_INLINE vc vc_add(int k, vc a, vc b) {
    return k == AXK_F64 ? vc_of(a.f, vd_add(a.d, b.d)) : vc_of(vf_add(a.f, b.f), a.d);
}
/* v, computed here: an empty volatile asm (no code) the compiler keeps in order, over the ISA's register
 * operand AX_OPAQUE */
AXIAL_INLINE vc vc_opaque(int k, vc v) {
    if (k == AXK_F64)
        __asm__ volatile("" : AX_OPAQUE(v.d));
    else
        __asm__ volatile("" : AX_OPAQUE(v.f));
    return v;
}
/* lanes >= cnt replaced by -0.0 */
AXIAL_INLINE vc vc_keep(int k, vc v, size_t cnt) {
    return k == AXK_F64 ? vc_of(v.f, vd_keep(v.d, cnt, -0.0)) : vc_of(vf_keep(v.f, cnt, -0.0f), v.d);
}
/* The avail elements at p, -0.0 past them: a whole load where L elements from p end at or before `end` (NULL:
 * they always do), else a partial one. */
AXIAL_NOINLINE vc vc_ld_near_end(int k, const void *p, size_t avail) { /* (one copy a kind) */
    return k == AXK_F64 ? vc_of(vf_set1(0.0f), vd_ld_part((const double *)p, avail, -0.0))
                        : vc_of(vf_ld_part(k, p, avail, -0.0f), vd_set1(0.0));
}
AXIAL_INLINE vc vc_ld_upto(int k, const void *p, size_t avail, const void *end) {
    if (avail >= vc_n(k))
        return vc_ld(k, p);
    if (!end || (size_t)((const char *)end - (const char *)p) >= vc_n(k) * axk_size(k))
        return vc_keep(k, vc_ld(k, p), avail);
    return vc_ld_near_end(k, p, avail);
}
/* v widened exactly to f64: w[0 .. vc_nw) in lane order */
AXIAL_INLINE void vc_widen(int k, vc v, vd *w) {
    if (k == AXK_F64)
        w[0] = v.d;
    else
        w[0] = vd_lo(v.f), w[1] = vd_hi(v.f);
}

/* ---- the tree of 8 rows ------------------------------------------------------
 * nv vectors of row s at p + s * P + off + v * L.  full (RD_ALL): all loaded; RD_ALL2: all loaded, two vectors
 * at a time where the ISA has vf_ld2 (column tiles); RD_ROWS: rows s >= R are -0.0; RD_RUN: a vector at or
 * past R elements from p is -0.0, one across R is loaded up to R; RD_KEEP: all loaded (the caller has room
 * past R), lanes at or past R -0.0 by a select. */
#define RD_MAXV 8
enum { RD_RUN, RD_ALL, RD_ROWS, RD_KEEP, RD_ALL2 };
AXIAL_INLINE void rd_ldrow(int k, vc *r, const void *p, size_t s, size_t P, size_t off, size_t R,
                           size_t nv, const void *end, int full) {
#ifdef AX_VF_LD2 /* vf_ld2: two vectors of f32, f16 or bf16 at p, the ISA's way */
    if (full == RD_ALL2 && k != AXK_F64 && nv % 2 == 0) {
        RD_UNROLL for (size_t v = 0; v < nv; v += 2) {
            r[v].d = r[v + 1].d = vd_set1(0.0);
            vf_ld2(k, axk_at(k, p, s * P + off + v * vc_n(k)), &r[v].f, &r[v + 1].f);
        }
        return;
    }
#endif
    /* strided rows: an opaque pointer, not an offset a vector (GCC spilled those: 1.08x); column tiles (RD_ALL2):
     * p plus an opaque offset, the same in every group (row pointers kept on the stack: AVX2 f16 columns 1.05x) */
    const void *row = axk_at(k, p, s * P);
    size_t ob = s * P * axk_size(k);
    if (!__builtin_constant_p(P) && full == RD_ALL2) {
        __asm__("" : "+r"(ob));
        row = (const char *)p + ob;
    } else if (!__builtin_constant_p(P))
        __asm__("" : "+r"(row));
    RD_UNROLL for (size_t v = 0; v < nv; v++) {
        const size_t o = s * P + off + v * vc_n(k);
        r[v] = full == RD_ALL || full == RD_ALL2 ? vc_ld(k, axk_at(k, row, off + v * vc_n(k)))
               : full == RD_ROWS ? (s < R ? vc_ld(k, axk_at(k, p, o)) : vc_nz(k))
               : full == RD_KEEP ? (v + 1 < nv || (__builtin_constant_p(R) && o + vc_n(k) <= R)
                                        ? vc_ld(k, axk_at(k, p, o)) /* (nv: the fewest that hold R) */
                                        : vc_keep(k, vc_ld(k, axk_at(k, p, o)), o < R ? R - o : 0))
               : o >= R          ? vc_nz(k)
                                 : vc_ld_upto(k, axk_at(k, p, o), R - o, end);
    }
}
AXIAL_INLINE void rd_addv(int k, vc *a, const vc *b, size_t nv) {
    RD_UNROLL for (size_t v = 0; v < nv; v++) a[v] = vc_add(k, a[v], b[v]);
}
/* a[0 .. nv) = ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), its statements in address order (loads between the adds:
 * fewer live vectors).  ord: the empty asm keeps GCC from issuing a group's loads in descending order, which
 * slows the memory-bound rows. */
#define RD_IN_ORDER(ord, x)                                                                   \
    do {                                                                                      \
        if (ord)                                                                              \
            RD_UNROLL for (size_t v_ = 0; v_ < nv; v_++) x[v_] = vc_opaque(k, x[v_]);          \
    } while (0)
AXIAL_INLINE void rd_tree(int k, vc *a, const void *p, size_t P, size_t off, size_t R, size_t nv,
                          const void *end, int full, int ord) {
    vc b[RD_MAXV], c[RD_MAXV], d[RD_MAXV];
#define RD_PAIR(x, y, s) /* x = row s + row s + 1 */                                          \
    (rd_ldrow(k, x, p, s, P, off, R, nv, end, full), rd_ldrow(k, y, p, (s) + 1, P, off, R, nv, end, full), \
     rd_addv(k, x, y, nv))
    RD_PAIR(a, b, 0);
    RD_IN_ORDER(ord, a);
    if (full == RD_ROWS && R <= 2) /* (a sum with -0.0 is the sum: the same bits) */
        return;
    RD_PAIR(b, c, 2);
    rd_addv(k, a, b, nv);
    RD_IN_ORDER(ord, a);
    if (full == RD_ROWS && R <= 4)
        return;
    RD_PAIR(b, c, 4);
    RD_IN_ORDER(ord, b);
    RD_PAIR(c, d, 6);
#undef RD_PAIR
    rd_addv(k, b, c, nv);
    rd_addv(k, a, b, nv);
}
/* A[0 .. nv * vc_nw) += the widened a[0 .. nv) */
AXIAL_INLINE void rd_wadd(int k, vd *A, const vc *a, size_t nv) {
    RD_UNROLL for (size_t v = 0; v < nv; v++) {
        vd w[2];
        vc_widen(k, a[v], w);
        RD_UNROLL for (size_t i = 0; i < vc_nw(k); i++)
            A[v * vc_nw(k) + i] = vd_add(A[v * vc_nw(k) + i], w[i]);
    }
}
/* One group of 8 super-rows of P positions at p (R elements left unless full), added into A[0 .. P / AX_ND): a
 * tree per piece of AX_RED_PIECE positions.  rd_group16: P == 16, its pieces unrolled, so that A (indexed by
 * constants only) stays in registers. */
#define RD_STEP(k) ((AX_RED_PIECE > vc_n(k) ? AX_RED_PIECE / vc_n(k) : 1) * vc_n(k))
AXIAL_INLINE void rd_piece(int k, const void *p, size_t P, size_t m, vd *A, size_t R,
                           const void *end, int full) {
    const size_t nv = RD_STEP(k) / vc_n(k);
    vc a[RD_MAXV];
    rd_tree(k, a, p, P, m, R, nv, end, full, AX_RED_IN_ORDER);
    rd_wadd(k, A + m / AX_ND, a, nv);
}
AXIAL_INLINE void rd_group(int k, const void *p, size_t P, vd *A, size_t R, const void *end,
                           int full) {
    for (size_t m = 0; m < P; m += RD_STEP(k))
        rd_piece(k, p, P, m, A, R, end, full);
}
AXIAL_INLINE void rd_group16(int k, const void *p, vd *A, size_t R, int full) {
    RD_UNROLL for (size_t m = 0; m < 16; m += RD_STEP(k)) rd_piece(k, p, 16, m, A, R, NULL, full), RD_PIECE_FENCE(full);
}
/* v[0 .. cnt) folded in halves by vector adds into v[0] (those past cnt: -0.0, not added) */
AXIAL_INLINE vd rd_foldv(vd *v, size_t cnt) {
    RD_UNROLL for (size_t h = 8; h >= 1; h /= 2) /* (constant bounds: v stays in registers) */
        RD_UNROLL for (size_t i = 0; i < h; i++) if (i + h < cnt) v[i] = vd_add(v[i], v[i + h]);
    return v[0];
}
/* v[0 .. m) hold AX_ND rows of m lanes each, row after row (m a power of two, m <= AX_ND): each row folded in
 * halves; lane r of the result is row r. */
AXIAL_INLINE vd rd_fold_rows(vd *v, size_t m) {
    if (AX_RED_FOLD8 && m == 8)
        return vd_fold8(v);
    RD_UNROLL for (size_t h = 8; h >= 1; h /= 2)
        RD_UNROLL for (size_t i = 0; i < h; i++) if (2 * h <= m) v[i] = vd_halves_add(h, v[2 * i], v[2 * i + 1]);
    return v[0];
}
/* The last group of a flat run, R < 128 elements not whole super-rows: one copy a kind (rd_tail16_<name>),
 * from a -0.0-padded copy of the R elements (RD_RUN's -0.0 lanes: the same bits), a[0 .. 16) its sums in
 * memory.  Its call stays out of the callers' loops' registers: their sums cross it in a[] only, so they are
 * not kept on the stack for the whole loop (a call clobbers every vector register).  rd_run (reduce_run): a[0
 * .. 16) += the position sums of len elements at x, a multiple of 128. */
AXIAL_INLINE void rd_run(int k, const void *x, size_t len, double *a, int pf) {
    vd A[16 / AX_ND];
    RD_UNROLL for (size_t i = 0; i < 16 / AX_ND; i++) A[i] = vd_ld(a + i * AX_ND);
    for (size_t q = 0; q < len; q += 128) {
        if (AX_RED_PF_LONG && pf) /* (as a long row of rd_flat16) */
            axial_prefetch_ahead(axk_at(k, x, q), 128 * axk_size(k));
        rd_group16(k, axk_at(k, x, q), A, 128, RD_ALL);
    }
    RD_UNROLL for (size_t i = 0; i < 16 / AX_ND; i++) vd_st(a + i * AX_ND, A[i]);
}
/* f_<kind> once a float kind (noinline; unused in a part without floats), called by AX_BY_FLOAT */
#define RD_ONCE_(name, K, f, args, call) static __attribute__((noinline, unused)) void f##_##name args { f call; }
#define RD_RUN_(name, K) RD_ONCE_(name, K, rd_run, (const void *x, size_t len, double *a, int pf), (K, x, len, a, pf))
AX_EACH_FLOAT(RD_RUN_)
AXIAL_INLINE void rd_tail16(int k, const void *p, size_t R, double *a) {
    uint64_t buf[128];
    axk_fill_nz(k, buf, 128 * axk_size(k));
    memcpy(buf, p, R * axk_size(k));
    AX_BY_FLOAT(k, rd_run, buf, 128, a, 0);
}
#define RD_TAIL16_(name, K) RD_ONCE_(name, K, rd_tail16, (const void *p, size_t R, double *a), (K, p, R, a))
AX_EACH_FLOAT(RD_TAIL16_)
/* out[0 .. 16 / AX_ND) = the 16 position sums of the flat run x[0 .. N). The sums stay in a local array, whose
 * address does not escape, so that they stay in registers over the loop (in the caller's array, GCC stored
 * them to memory every group: the loads of x might read them). */
AXIAL_INLINE void rd_flat16(int k, const void *x, size_t N, vd *out, int pf) {
    vd A[16 / AX_ND];
    RD_UNROLL for (size_t i = 0; i < 16 / AX_ND; i++) A[i] = vd_set1(-0.0);
    size_t q = 0;
    for (; q + 128 <= N; q += 128) {
        if (AX_RED_PF_LONG && pf)
            axial_prefetch_ahead(axk_at(k, x, q), 128 * axk_size(k));
        rd_group16(k, axk_at(k, x, q), A, 128, RD_ALL);
    }
    const void *p = axk_at(k, x, q);
    if (q < N && (N - q) % 16 == 0) /* whole super-rows (rows of 16, 32, 64 elements ...) */
        rd_group16(k, p, A, (N - q) / 16, RD_ROWS);
    if (q < N && (N - q) % 16 != 0) {
        _Alignas(64) double a[16];
        RD_UNROLL for (size_t i = 0; i < 16 / AX_ND; i++) vd_st(a + i * AX_ND, A[i]);
        AX_BY_FLOAT(k, rd_tail16, p, N - q, a);
        RD_UNROLL for (size_t i = 0; i < 16 / AX_ND; i++) A[i] = vd_ld(a + i * AX_ND);
    }
    RD_UNROLL for (size_t i = 0; i < 16 / AX_ND; i++) out[i] = A[i];
}

/* ---- outputs ------------------------------------------------------------------ */
/* AX_NF sums (lo: outputs off.., hi: the next AX_ND) for outputs off .. off+cnt-1: reduce (acc NULL) stores
 * them rounded once (nt: streaming, to an aligned y + off, cnt == AX_NF); reduce_acc adds them to acc. */
AXIAL_INLINE void rd_emit(int k, void *y, double *acc, size_t off, vd lo, vd hi, size_t cnt,
                          int nt) {
    if (acc && cnt == AX_NF) {
        vd_st(acc + off, vd_add(vd_ld(acc + off), lo));
        vd_st(acc + off + AX_ND, vd_add(vd_ld(acc + off + AX_ND), hi));
    } else if (acc || (k == AXK_F64 && cnt < AX_NF)) {
        double *d = acc ? acc + off : (double *)y + off;
        const size_t l = RD_MIN(cnt, AX_ND);
        vd_st_part(d, acc ? vd_add(vd_ld_part(d, l, -0.0), lo) : lo, l);
        vd_st_part(d + AX_ND, acc ? vd_add(vd_ld_part(d + AX_ND, cnt - l, -0.0), hi) : hi, cnt - l);
    } else if (k == AXK_F64) {
        vd_put((double *)y + off, lo, nt);
        vd_put((double *)y + off + AX_ND, hi, nt);
    } else if (cnt == AX_NF) {
        vf_put(k, axk_at_mut(k, y, off), vf_narrow_for(k, lo, hi), nt);
    } else {
        vf_st_part(k, axk_at_mut(k, y, off), vf_narrow_for(k, lo, hi), cnt);
    }
}
/* reduce_finish: AX_NF outputs a step, the tail by partial loads and a partial store. */
AXIAL_INLINE void rd_finish(int k, const double *acc, void *y, size_t count) {
    if (k == AXK_F64) {
        memcpy(y, acc, count * 8);
        return;
    }
    size_t i = 0;
    for (; i + AX_NF <= count; i += AX_NF)
        vf_st(k, axk_at_mut(k, y, i), vf_narrow_for(k, vd_ld(acc + i), vd_ld(acc + i + AX_ND)));
    const size_t r = count - i, lo = RD_MIN(r, AX_ND); /* (lanes past count: -0.0, not stored) */
    if (r)
        vf_st_part(k, axk_at_mut(k, y, i), vf_narrow_for(k, vd_ld_part(acc + i, lo, -0.0),
                   vd_ld_part(acc + i + AX_ND, r - lo, -0.0)), r);
}
/* a[0 .. len) (f64 sums of positions) folded in halves to `inner` sums, then stored rounded (reduce) or added
 * to acc (reduce_acc). */
AXIAL_INLINE void rd_fold_out(int k, double *a, size_t len, size_t inner, void *y, double *acc) {
    for (; len > inner; len /= 2)
        for (size_t p = 0; p < len / 2; p++)
            a[p] += a[p + len / 2];
    if (acc)
        for (size_t i = 0; i < inner; i++)
            acc[i] += a[i];
    else
        rd_finish(k, a, y, inner);
}

/* ---- rows (inner == 1) -------------------------------------------------------------
 * AX_NF rows a step, in two halves of AX_ND rows, each one vd of sums.  Each row is reduced to AX_ND lanes
 * (rd_row), or, packed (rows of m <= AX_ND elements, m a power of two), AX_NF rows are m vectors of each half.
 * */
/* One row's sums folded to AX_ND lanes: nvr vectors (short rows, room for whole loads), RD_MID (one group of n
 * / 16 <= 8 whole super-rows), or (nvr 0) a long row of super-rows of 16. */
#define RD_MID 64
AXIAL_INLINE vd rd_row(int k, const void *p, size_t n, size_t nvr, int pf) {
    if (nvr == RD_MID) {
        vd A[16 / AX_ND];
        RD_UNROLL for (size_t i = 0; i < 16 / AX_ND; i++) A[i] = vd_set1(-0.0);
        rd_group16(k, p, A, n / 16, RD_ROWS);
        return rd_foldv(A, 16 / AX_ND);
    }
    if (!nvr) {
        vd A[16 / AX_ND]; /* (its own array: so it stays in registers) */
        rd_flat16(k, p, n, A, pf);
        return rd_foldv(A, 16 / AX_ND);
    }
    vd w[2 * RD_MAXV];
    vc r[RD_MAXV];
    rd_ldrow(k, r, p, 0, 0, 0, n, nvr, NULL, RD_KEEP);
    RD_UNROLL for (size_t v = 0; v < nvr; v++) vc_widen(k, r[v], w + v * vc_nw(k));
    return rd_foldv(w, nvr * vc_nw(k));
}
/* The sums of AX_NF rows of n elements at p (rows past cnt: -0.0) to the sink. */
AXIAL_INLINE void rd_rows_step(int k, const void *p, size_t n, size_t m, size_t nvr, int pf,
                               void *y, double *acc, size_t o0, size_t cnt, int nt) {
    vd c[16];
    if (AX_RED_ROWS3 && k != AXK_F64 && n == 3) {
        vf_rows3(k, p, &c[0], &c[1]);
        rd_emit(k, y, acc, o0, c[0], c[1], cnt, nt);
        return;
    }
    if (m) { /* packed: m lanes a row (spread where n < m) */
        RD_UNROLL for (size_t i = 0; i < 2 * m / vc_nw(k); i++) {
            vc v = vc_ld(k, axk_at(k, p, i * (vc_n(k) / m) * n));
            if (n < m)
                v = k == AXK_F64 ? vc_of(v.f, vd_spread(v.d, n, m)) : vc_of(vf_spread(v.f, n, m), v.d);
            vc_widen(k, v, c + i * vc_nw(k));
        }
        rd_emit(k, y, acc, o0, rd_fold_rows(c, m), rd_fold_rows(c + m, m), cnt, nt);
        return;
    }
    if (!nvr) { /* long rows: one copy of the row's loop */
#pragma GCC unroll 1
        for (size_t r = 0; r < AX_NF; r++)
            c[r] = r < cnt ? rd_row(k, axk_at(k, p, r * n), n, 0, pf) : vd_set1(-0.0);
    } else {
        RD_UNROLL for (size_t r = 0; r < AX_NF; r++) c[r] =
            nvr != RD_MID || r < cnt ? rd_row(k, axk_at(k, p, r * n), n, nvr, 0) : vd_set1(-0.0);
    }
    const vd lo = rd_fold_rows(c, AX_ND);
    rd_emit(k, y, acc, o0, lo, rd_fold_rows(c + AX_ND, AX_ND), cnt, nt);
}
/* The reduce of f32, f16 and bf16 rows of 2, in f32 (the header says why that is exact); the last rows through
 * a zeroed copy. */
AXIAL_INLINE void rd_pair_step(int k, const char *p, char *q, int nt) {
    vf_put(k, q, vf_pairs_add(vf_ld(k, p), vf_ld(k, p + AX_NF * axk_size(k))), nt);
}
AXIAL_INLINE void rd_pairs(int k, const char *x, char *y, size_t o0, size_t outer, int nt, int pf) {
    const size_t es = axk_size(k), B = AX_NF * es; /* a step's output bytes */
    const char *p = x + 2 * o0 * es;
    char *q = y + o0 * es;
    size_t s = (outer - o0) / AX_NF;
    for (; s >= 2; s -= 2, p += 4 * B, q += 2 * B) { /* two steps: NEON 1.5x, modelled */
        if (pf)
            axial_prefetch_ahead(p, 4 * B);
        rd_pair_step(k, p, q, nt);
        rd_pair_step(k, p + 2 * B, q + B, nt);
    }
    if (s)
        rd_pair_step(k, p, q, nt), p += 2 * B, q += B;
    const size_t r = (outer - o0) % AX_NF;
    if (r) {
        _Alignas(64) unsigned char t[2 * AX_NF * 4] = {0};
        memcpy(t, p, 2 * r * es);
        rd_pair_step(k, (const char *)t, (char *)t, 0);
        memcpy(q, t, r * es);
    }
}
#define RD_PAIRS_(name, K) RD_ONCE_(name, K, rd_pairs, (const void *x, void *y, size_t o0, size_t outer, int nt, int pf), \
                                    (K, (const char *)x, (char *)y, o0, outer, nt, pf))
AX_EACH_FLOAT(RD_PAIRS_) /* (one copy each: 1.1x, timed; f64 never) */
/* All rows; m (packed) and nvr (per row; both 0: long rows) are constants of the caller.  A stream starts with
 * plain head rows up to an aligned y. */
AXIAL_INLINE void rd_rows_n(int k, const void *x, void *y, double *acc, size_t outer, size_t n,
                            size_t m, size_t nvr, int stream) {
    const size_t es = axk_size(k), total = outer * n;
    const int shrt = m || (nvr && nvr != RD_MID); /* (medium rows stop at cnt) */
    /* a short rows' step reads this much from its first row (else: a padded copy) */
    const size_t need = m ? (AX_NF - vc_n(k) / m) * n + vc_n(k) : (AX_NF - 1) * n + nvr * vc_n(k);
    size_t head = 0;
    int nt = 0;
    if (!acc && outer >= 2 * AX_NF && (stream || outer * es >= AXIAL_STREAM_BYTES)) {
        const size_t al = k == AXK_F64 ? AX_VB : AX_NF * es; /* one step's store */
        const size_t mis = (uintptr_t)y % al;
        if (mis % es == 0)
            nt = 1, head = mis ? (al - mis) / es : 0;
    }
    const int pf = total * es >= AXIAL_ROWS_PF_MIN &&
                   (shrt ? AX_RED_PF_SHORT : AX_RED_PF_LONG && n * es <= RD_PF_ROW);
    if (k != AXK_F64 && n == 2 && !acc) {
        AX_BY_FLOAT(k, rd_pairs, x, y, 0, head, 0, 0);
        AX_BY_FLOAT(k, rd_pairs, x, y, head, outer, nt, pf);
    } else {
        const int pfin = k != AXK_F64 && n * es >= RD_PF_ROW;
        /* short rows' whole steps from o0 < inside read inside x */
        const size_t inside = shrt && !acc && total >= need ? (total - need) / n + 1 : 0;
        for (size_t o0 = 0; o0 < outer;) {
            if (o0 >= head && o0 < inside && outer - o0 >= AX_NF) {
                /* (no checks a step: NEON rows of 3 1.4x fewer cycles, modelled) */
                for (; o0 < inside && outer - o0 >= AX_NF; o0 += AX_NF) {
                    const void *p = axk_at(k, x, o0 * n);
                    if (pf)
                        axial_prefetch_ahead(p, AX_NF * n * es);
                    rd_rows_step(k, p, n, m, nvr, 0, y, NULL, o0, AX_NF, nt);
                }
                continue;
            }
            const size_t cnt = RD_MIN(AX_NF, (o0 < head ? head : outer) - o0);
            const void *p = axk_at(k, x, o0 * n);
            uint64_t buf[(AX_NF * 16 + 16) * 8 / 8];
            if (shrt && o0 * n + need > total) {
                axk_fill_nz(k, buf, sizeof buf);
                memcpy(buf, p, (total - o0 * n) * es);
                p = buf;
            }
            if (pf)
                axial_prefetch_ahead(p, AX_NF * n * es);
            rd_rows_step(k, p, n, m, nvr, pfin, y, acc, o0, cnt, nt && o0 >= head);
            o0 += cnt;
        }
    }
    if (nt)
        ax_stream_fence();
}
#if AX_RED_ROWS_V /* (not inlined in rd_rows: there, NEON bf16 rows of 256 modelled at 1.1x the cycles) */
RD_ONCE_(bf16, AXK_BF16, rd_rows_n, (const void *x, void *y, double *acc, size_t outer, int stream),
         (AXK_BF16, x, y, acc, outer, vc_n(AXK_BF16), 0, 1, stream))
#endif
/* One row alone, in a step's order (its run's sums folded in halves) without a step of AX_NF rows for it
 * (AVX-512 [16] 1.3x, timed). */
AXIAL_INLINE void rd_one(int k, const void *x, size_t n, void *y, double *acc) {
    _Alignas(64) double a[16];
    vd A[16 / AX_ND], s;
    RD_UNROLL for (size_t i = 0; i < 16 / AX_ND; i++) vd_st(a + i * AX_ND, vd_set1(-0.0));
    if (n >= 128)
        AX_BY_FLOAT(k, rd_run, x, n / 128 * 128, a, k != AXK_F64 && n * axk_size(k) >= RD_PF_ROW);
    if (n % 128)
        AX_BY_FLOAT(k, rd_tail16, axk_at(k, x, n / 128 * 128), n % 128, a);
    RD_UNROLL for (size_t i = 0; i < 16 / AX_ND; i++) A[i] = vd_ld(a + i * AX_ND);
    s = rd_foldv(A, 16 / AX_ND);
    for (size_t h = AX_ND / 2; h >= 1; h /= 2) s = vd_halves_add(h, s, s);
    rd_emit(k, y, acc, 0, s, s, 1, 0);
}
/* One loop per kind of row, each with its constants. */
AXIAL_INLINE void rd_rows(int k, const void *x, void *y, double *acc, size_t outer, size_t n,
                          int stream) {
    const size_t V = vc_n(k); /* (rd_rows_n's N, m and nvr constants of each loop) */
#define RD_ROWS_IF(c, N, m, nvr) if (c) rd_rows_n(k, x, y, acc, outer, N, m, nvr, stream); else
    if (outer == 1 && n > 2) rd_one(k, x, n, y, acc); else
    RD_ROWS_IF(n == 64, 64, 0, RD_MID) /* (a constant depth of its trees: 1.05x AVX-512, 1.1x AVX2) */
    RD_ROWS_IF(n > 16 && n <= 128 && n % 16 == 0, n, 0, RD_MID) RD_ROWS_IF(n > 16, n, 0, 0)
    RD_ROWS_IF(n == 2, 2, 2, 0) RD_ROWS_IF(n == 4 && 4 <= AX_ND, 4, 4, 0) RD_ROWS_IF(n == 8 && 8 <= AX_ND, 8, 8, 0)
    RD_ROWS_IF(AX_RED_SPREAD && n < 4 && 4 <= AX_ND, n, 4, 0) RD_ROWS_IF(AX_RED_SPREAD && n < 8 && 8 <= AX_ND, n, 8, 0)
    RD_ROWS_IF(AX_RED_ROWS3 && k != AXK_F64 && n == 3, 3, 0, 1)
    /* whole vectors, constant row offsets (NEON f64 rows of 8: 1.6x, modelled) */
    RD_ROWS_IF(n == 2 * V, 2 * V, 0, 2) RD_ROWS_IF(n == 4 * V && 4 * V <= 16, 4 * V, 0, 4)
    RD_ROWS_IF(n == 8 * V && 8 * V <= 16, 8 * V, 0, 8)
#if AX_RED_ROWS_V
    if (k == AXK_BF16 && n == V) rd_rows_n_bf16(x, y, acc, outer, stream); else
#endif
    /* the fewest vectors that hold the row (-0.0 adds nothing) */
    RD_ROWS_IF(n <= V, n, 0, 1) RD_ROWS_IF(n <= 2 * V, n, 0, 2) RD_ROWS_IF(n <= 3 * V && 3 * V < 16, n, 0, 3)
    RD_ROWS_IF(n <= 4 * V && 4 * V < 16, n, 0, 4) RD_ROWS_IF(n <= 5 * V && 5 * V < 16, n, 0, 5)
    RD_ROWS_IF(n <= 6 * V && 6 * V < 16, n, 0, 6) RD_ROWS_IF(n <= 7 * V && 7 * V < 16, n, 0, 7)
    rd_rows_n(k, x, y, acc, outer, n, 0, 16 / V, stream);
#undef RD_ROWS_IF
}

/* ---- periodic (1 < inner < 16) ----------------------------------------------------- */
AXIAL_INLINE void rd_periodic(int k, const void *x, void *y, double *acc, size_t outer, size_t n,
                              size_t inner) {
    const size_t P = inner * (16 / rd_gcd(inner, 16)), N = n * inner;
    const void *end = axk_at(k, x, outer * N);
    for (size_t o = 0; o < outer; o++) {
        const void *xo = axk_at(k, x, o * N);
        void *yo = acc ? NULL : axk_at_mut(k, y, o * inner);
        double *ao = acc ? acc + o * inner : NULL;
        if (P == 16) {
            vd A[16 / AX_ND];
            _Alignas(64) double a[16];
            rd_flat16(k, xo, N, A, 0);
            RD_UNROLL for (size_t i = 0; i < 16 / AX_ND; i++) vd_st(a + i * AX_ND, A[i]);
            rd_fold_out(k, a, 16, inner, yo, ao);
        } else {
            vd A[240 / AX_ND];
            for (size_t i = 0; i < P / AX_ND; i++)
                A[i] = vd_set1(-0.0);
            size_t q = 0;
            for (; q + 8 * P <= N; q += 8 * P)
                rd_group(k, axk_at(k, xo, q), P, A, 8 * P, end, RD_ALL2);
            if (q < N)
                rd_group(k, axk_at(k, xo, q), P, A, N - q, end, RD_RUN);
            double a[240];
            for (size_t i = 0; i < P / AX_ND; i++)
                vd_st(a + i * AX_ND, A[i]);
            rd_fold_out(k, a, P, inner, yo, ao);
        }
    }
}

/* ---- columns (inner >= 16, reduce_cols) ----------------------------------------------
 * acc[0 .. w) += the columns of the group of R rows at x; 4 trees a step, loaded row after row (whole lines of
 * each row, in address order). */
AXIAL_INLINE void rd_cols_add(int k, double *acc, const vc *a, size_t nv) {
    vd A[2 * RD_MAXV];
    RD_UNROLL for (size_t i = 0; i < nv * vc_nw(k); i++) A[i] = vd_ld(acc + i * AX_ND);
    rd_wadd(k, A, a, nv);
    RD_UNROLL for (size_t i = 0; i < nv * vc_nw(k); i++) vd_st(acc + i * AX_ND, A[i]);
}
AXIAL_INLINE void rd_cols_group(int k, const void *x, double *acc, size_t w, size_t stride,
                                size_t R, int full) {
    const size_t L = vc_n(k);
    size_t c = 0;
    for (; c + 4 * L <= w; c += 4 * L) {
        vc a[4];
        rd_tree(k, a, x, stride, c, R, 4, NULL, full, AX_RED_IN_ORDER);
        rd_cols_add(k, acc + c, a, 4);
    }
    for (; c + L <= w; c += L) {
        vc a;
        rd_tree(k, &a, x, stride, c, R, 1, NULL, full, 0);
        rd_cols_add(k, acc + c, &a, 1);
    }
    if (c < w) { /* the last L columns, whose lanes past c are new */
        vc a;
        vd t[2] = {vd_set1(0.0), vd_set1(0.0)};
        double s[2 * AX_ND];
        rd_tree(k, &a, x, stride, w - L, R, 1, NULL, full, 0);
        vc_widen(k, a, t);
        for (size_t i = 0; i < vc_nw(k); i++)
            vd_st(s + i * AX_ND, t[i]);
        for (size_t i = L - (w - c); i < L; i++)
            acc[w - L + i] += s[i];
    }
}
/* AX_RED_COL_REGS: a tile of nv = 1 to 4 whole vectors of columns (w == nv * L) keeps its sums in registers down
 * all n rows (the same adds, in the same order). */
#ifndef AX_RED_COL_REGS
#define AX_RED_COL_REGS 0
#endif
AXIAL_INLINE void rd_cols_regs(int k, const void *x, double *acc, size_t n, size_t stride, size_t nv) {
    vd A[8];
    RD_UNROLL for (size_t i = 0; i < nv * vc_nw(k); i++) A[i] = vd_ld(acc + i * AX_ND);
    size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        vc a[4];
        rd_tree(k, a, axk_at(k, x, j * stride), stride, 0, 8, nv, NULL, RD_ALL, 0);
        rd_wadd(k, A, a, nv);
    }
    if (j < n) {
        vc a[4];
        rd_tree(k, a, axk_at(k, x, j * stride), stride, 0, n - j, nv, NULL, RD_ROWS, 0);
        rd_wadd(k, A, a, nv);
    }
    RD_UNROLL for (size_t i = 0; i < nv * vc_nw(k); i++) vd_st(acc + i * AX_ND, A[i]);
}
/* acc[0 .. w) += the column sums of n rows `stride` elements apart. */
AXIAL_INLINE void rd_cols(int k, const void *x, double *acc, size_t n, size_t w, size_t stride) {
    const size_t L = vc_n(k);
    if (w < L) { /* a narrow tile: loads up to its last element, partial sums */
        const void *end = axk_at(k, x, (n - 1) * stride + w);
        for (size_t j = 0; j < n; j += 8) {
            vc a[1], r[8];
            vd W[2];
            for (size_t s = 0; s < 8; s++)
                r[s] = j + s < n ? vc_ld_upto(k, axk_at(k, x, (j + s) * stride), w, end) : vc_nz(k);
            a[0] = vc_add(k, vc_add(k, vc_add(k, r[0], r[1]), vc_add(k, r[2], r[3])),
                          vc_add(k, vc_add(k, r[4], r[5]), vc_add(k, r[6], r[7])));
            vc_widen(k, a[0], W);
            for (size_t i = 0; i < vc_nw(k); i++) {
                const size_t lo = i * AX_ND, cnt = w > lo ? RD_MIN(w - lo, AX_ND) : 0;
                if (cnt)
                    vd_st_part(acc + lo, vd_add(vd_ld_part(acc + lo, cnt, -0.0), W[i]), cnt);
            }
        }
        return;
    }
    if (AX_RED_COL_REGS && w % L == 0 && w <= 4 * L) { /* (nv a constant each: 1-3 vectors AVX-512 f32 [4096, 16] axis 0 0.5x, timed) */
        w == L ? rd_cols_regs(k, x, acc, n, stride, 1) : w == 2 * L ? rd_cols_regs(k, x, acc, n, stride, 2)
        : w == 3 * L ? rd_cols_regs(k, x, acc, n, stride, 3) : rd_cols_regs(k, x, acc, n, stride, 4);
        return;
    }
    size_t j = 0;
    for (; j + 8 <= n; j += 8)
        rd_cols_group(k, axk_at(k, x, j * stride), acc, w, stride, 8, RD_ALL2);
    if (j < n)
        rd_cols_group(k, axk_at(k, x, j * stride), acc, w, stride, n - j, RD_ROWS);
}

/* rd_cols once a kind (reduce, reduce_acc and reduce_cols call it) */
#define RD_COLS_(name, K)                                                                          \
    RD_ONCE_(name, K, rd_cols, (const void *x, double *acc, size_t n, size_t w, size_t stride),   \
             (K, x, acc, n, w, stride))
AX_EACH_FLOAT(RD_COLS_)
#define rd_cols_k(k, ...) AX_BY_FLOAT(k, rd_cols, __VA_ARGS__)
/* The float body of reduce (acc NULL) and reduce_acc. */
AXIAL_INLINE void rd_float(int k, const void *x, void *y, double *acc, size_t outer, size_t n,
                           size_t inner, int stream) {
    if (y && n == 1) { /* a sum of one term: the term */
        memcpy(y, x, outer * inner * axk_size(k));
        return;
    }
    if (inner == 1) {
        rd_rows(k, x, y, acc, outer, n, stream);
        return;
    }
    if (inner < 16) {
        rd_periodic(k, x, y, acc, outer, n, inner);
        return;
    }
}
/* The column part of rd_float (inner >= 16, n > 1 or no y): a function of its own a kind, so that its f64 row
 * on the stack never adds to the frames of the row paths (the call's stack bound, docs/API.md section 12). */
AXIAL_INLINE void rd_float_cols(int k, const void *x, void *y, double *acc, size_t outer,
                                size_t n, size_t inner) {
    double buf[RD_COL_STACK];
    const size_t chunk = acc || k == AXK_F64 ? RD_COL_CHUNK : RD_COL_STACK, L = vc_n(k);
    for (size_t o = 0; o < outer; o++) {
        for (size_t i0 = 0; i0 < inner;) {
            size_t w = RD_MIN(chunk, inner - i0);
            if (inner - i0 - w > 0 && inner - i0 - w < L)
                w -= L; /* keep the last chunk at least L wide */
            /* f64 sums into y itself, the f32 family into an f64 row */
            double *d = acc ? acc + o * inner + i0
                        : k == AXK_F64 ? (double *)axk_at_mut(k, y, o * inner + i0) : buf;
            if (!acc) /* (a loop of its own: vector stores) */
                for (size_t i = 0; i < w; i++)
                    d[i] = -0.0;
            rd_cols_k(k, axk_at(k, x, o * n * inner + i0), d, n, w, inner);
            if (!acc && k != AXK_F64)
                rd_finish(k, buf, axk_at_mut(k, y, o * inner + i0), w);
            i0 += w;
        }
    }
}

/* ==== integers: wrapping, one body per width ========================================= */
AXIAL_INLINE size_t ri_lanes(int k) { return AX_VB / axk_size(k); }
AXIAL_INLINE uint64_t ri_get(int k, const void *p, size_t i) { /* an element zero-extended (little-endian) */
    uint64_t v = 0;
    memcpy(&v, axk_at(k, p, i), axk_size(k));
    return v;
}
AXIAL_INLINE void ri_put(int k, void *p, size_t i, uint64_t v) { memcpy(axk_at_mut(k, p, i), &v, axk_size(k)); } /* low bytes */
AXIAL_INLINE void ri_emit(int k, void *y, uint64_t *acc, size_t off, uint64_t s) {
    acc ? (void)(acc[off] += s) : ri_put(k, y, off, s);
}
/* A pairwise tree over v[0 .. N) (N a power of two): lanes added (pairs 0) or pairs of lanes (vi_addp). */
AXIAL_INLINE vi ri_tree(int k, vi *v, size_t N, int pairs) {
    for (size_t h = N / 2; h >= 1; h /= 2)
        RD_UNROLL for (size_t j = 0; j < h; j++)
            v[j] = pairs ? vi_addp(k, v[2 * j], v[2 * j + 1]) : vi_add(k, v[2 * j], v[2 * j + 1]);
    return v[0];
}
/* The sum of the vectors at q + r sb, r < G (a constant), as a tree. */
AXIAL_INLINE vi ri_gsum(int k, const char *q, size_t sb, size_t G) {
    vi v[16];
    RD_UNROLL for (size_t r = 0; r < G; r++) v[r] = vi_ld(q + r * sb);
    return ri_tree(k, v, G, 0);
}
/* One row: trees of 4 whole vectors, whole ones, a partial one, its lanes summed (vi_hsum). */
AXIAL_INLINE uint64_t ri_rowsum(int k, const void *p, size_t n) {
    const size_t L = ri_lanes(k);
    vi a = vi_zero();
    size_t j = 0;
    for (; j + 4 * L <= n; j += 4 * L)
        a = vi_add(k, a, ri_gsum(k, axk_at(k, p, j), AX_VB, 4));
    for (; j + L <= n; j += L)
        a = vi_add(k, a, vi_ld(axk_at(k, p, j)));
    if (j < n)
        a = vi_add(k, a, vi_ld_part(axk_at(k, p, j), (n - j) * axk_size(k)));
    return vi_hsum(k, a);
}
/* dst[0 .. w) (own type, w >= lanes) += the column sums of G rows at x, `stride` elements apart; *t (the
 * overlapping last vector at w - L, where w % L) += its own. */
AXIAL_INLINE void ri_cols_g(int k, const char *x, char *dst, size_t w, size_t stride, size_t G, vi *t) {
    const size_t L = ri_lanes(k), es = axk_size(k), sb = stride * es, nb = w / L * AX_VB;
    for (size_t b = 0; b < nb; b += AX_VB)
        vi_st(dst + b, vi_add(k, vi_ld(dst + b), ri_gsum(k, x + b, sb, G)));
    if (w % L)
        *t = vi_add(k, *t, ri_gsum(k, x + (w - L) * es, sb, G));
}
AXIAL_INLINE void ri_cols(int k, const void *x, void *dst, size_t n, size_t w, size_t stride) {
    const size_t L = ri_lanes(k), tail = w % L;
    vi t = vi_zero();
    size_t j = 0;
    for (; j + 8 <= n; j += 8)
        ri_cols_g(k, axk_at(k, x, j * stride), dst, w, stride, 8, &t);
    for (; j < n; j++)
        ri_cols_g(k, axk_at(k, x, j * stride), dst, w, stride, 1, &t);
    if (tail) { /* the overlapping last vector: only its lanes past the whole vectors */
        unsigned char b[AX_VB];
        vi_st(b, t);
        for (size_t l = L - tail; l < L; l++)
            ri_put(k, dst, w - L + l, ri_get(k, dst, w - L + l) + ri_get(k, b, l));
    }
}
/* Short rows (kinds of at most 16 lanes: n <= 4 vectors, 8 or 16), one group of L rows a step: lane r of the
 * step's vector is row r's sum.  n a power of two <= L: the group is n whole vectors, log2(n) levels of
 * vi_addp; 3: vi_rows3; else each row is V vectors (the lanes past the row zeroed unless n == V L, a constant
 * then; 8 or 16, whole, by a tree: NEON n1 0.7x the cycles of one chain, modelled), added, and the L row
 * vectors take log2(L) levels.  A group whose loads would pass the end of x runs on a zero-padded copy. */
AXIAL_INLINE vi ri_rows_group(int k, const void *p, size_t n, size_t V, vi keep, int wide) {
    const size_t L = ri_lanes(k), nc = V >= 8 ? 1 : V, R = wide ? AX_VB / 8 : L; /* vectors of a row's chain; rows */
    const size_t vr = wide && V == 4 ? (n + L - 1) / L : V; /* (wide rows of 3 and 4 vectors: one loop) */
    vi v[16];
    if (!V) {
        if (n == 3)
            return vi_rows3(k, p);
        RD_UNROLL for (size_t j = 0; j < n; j++) v[j] = vi_ld(axk_at(k, p, j * L));
        return ri_tree(k, v, n, 1);
    }
    if (V == 1 && (wide ? wide > 1 : 2 * n <= L)) { /* h rows a vector, a half (quarter) each (NEON i8 [13107, 5] n1 0.8x,
                                                   * modelled; wide quarters: AVX-512 bytes of 5 0.45x the time of a row a vector, timed) */
        const size_t h = wide ? wide : 2, nv = (wide ? R : L) / h;
        RD_UNROLL for (size_t r = 0; r < nv; r++) {
            const void *q = axk_at(k, p, h * r * n); /* (the second row from p too: NEON 1.2x the instructions from q) */
            const vi u = vi_and(h == 2 ? vi_ld2h(q, axk_at(k, p, (h * r + 1) * n)) : vi_ld4q(q, n * axk_size(k)), keep);
            v[r] = wide ? vi_wide(k, u) : u;
        }
        return ri_tree(wide ? AXK_I64 : k, v, nv, 1);
    }
    RD_UNROLL for (size_t r = 0; r < R; r++) {
        const void *q = axk_at(k, p, r * n);
        vi s = V >= 8 ? ri_gsum(k, q, AX_VB, V) : vi_ld(axk_at(k, q, (vr - 1) * L)); /* (8, 16: whole) */
        s = n == vr * L ? s : vi_and(s, keep);
        RD_UNROLL for (size_t i = 0; i + 1 < nc; i++) s = i + 1 < vr ? vi_add(k, s, vi_ld(axk_at(k, q, i * L))) : s;
        v[r] = wide ? vi_wide(k, s) : s;
    }
    return wide && AX_RED_FOLD8 && R == 8 ? vi_fold8(v) : ri_tree(wide ? AXK_I64 : k, v, R, 1);
}
AXIAL_INLINE void ri_rows_short(int k, const void *x, void *y, uint64_t *acc, size_t outer, size_t n,
                                size_t V, int wide) {
    const size_t L = ri_lanes(k), es = axk_size(k), total = outer * n, R = wide ? AX_VB / 8 : L; /* rows a group */
    const size_t vr = wide && V == 4 ? (n + L - 1) / L : V;
    const size_t need = V ? (R - 1) * n + V * L : n * L; /* elements a group reads */
    unsigned char kb[AX_VB];
    for (size_t b = 0; b < AX_VB; b++)
        kb[b] = b % (wide > 1 ? AX_VB / wide : !wide && V == 1 && 2 * n <= L ? AX_VB / 2 : AX_VB) < (n - (V ? vr - 1 : 0) * L) * es ? 0xff : 0;
    const vi keep = vi_ld(kb);
    /* groups from o < whole: all L rows out, their reads inside x (no checks) */
    const size_t whole = total < need || outer < R ? 0 : RD_MIN((total - need) / n + 1, outer - R + 1);
    size_t o = 0;
    const unsigned char *p = x;
    unsigned char *q = y;
    /* two groups a step (NEON 1.2x, modelled), but for rows of 2-3 vectors of a runtime n (their 16-24 load
     * offsets spill: i32 [6553, 10] v1 1.18x the cycles of one group) */
    for (; AX_VB == 16 && !acc && (V < 2 || n == V * L) && o + L < whole; o += 2 * L, p += 2 * L * n * es, q += 2 * AX_VB) {
        vi_st(q, ri_rows_group(k, p, n, V, keep, 0));
        vi_st(q + AX_VB, ri_rows_group(k, p + L * n * es, n, V, keep, 0));
    }
    for (; AX_VB == 16 && !acc && o < whole; o += L) /* (NEON: rows of 2-3 vectors, n1 1.15x the cycles without) */
        vi_st(axk_at_mut(k, y, o), ri_rows_group(k, axk_at(k, x, o * n), n, V, keep, 0));
    for (; o < outer; o += R) { /* (one copy of the group: whole ones, then one from a padded copy) */
        const size_t cnt = RD_MIN(R, outer - o);
        uint64_t pad[(AX_VB == 16 ? 16 : 2) * 2 * AX_VB]; /* need * es: at most 16 L^2 es (x86: 32 L es, 2048 bytes) */
        const void *p = axk_at(k, x, o * n);
        if (o >= whole) {
            memset(pad, 0, need * es);
            p = memcpy(pad, p, cnt * n * es);
        }
        /* direct: the group's outputs straight to y (wide: narrowed), or added to acc by vector */
        const int direct = (!acc || (AX_RED_INT_ACC && !wide)) && cnt == R && (!wide || es == 8 || AX_RED_INT_STW);
        const vi s = ri_rows_group(k, p, n, V, keep, wide);
        AX_RED_INT_ACC && acc && direct ? vi_acc(k, acc + o, s)
        : AX_RED_INT_STW && direct && wide ? vi_stw(k, axk_at_mut(k, y, o), s) : vi_st(direct ? axk_at_mut(k, y, o) : (void *)pad, s);
        for (size_t r = 0; !direct && r < cnt; r++)
            ri_emit(k, y, acc, o + r, wide ? pad[r] : ri_get(k, pad, r));
    }
}
/* Periodic lanes (inner < L): vector m of each run of S holds slot m % slots of a block of lcm(inner, L) =
 * slots L elements; the vectors loaded and the tail go to out[i], i counted mod inner (no division). */
AXIAL_INLINE void ri_periodic(int k, const void *x, void *y, uint64_t *acc, size_t o, size_t outer,
                              size_t n, size_t inner, size_t slots, size_t S) {
    const size_t L = ri_lanes(k), count = n * inner;
    for (; o < outer; o++) {
        const void *xo = axk_at(k, x, o * count);
        vi a[64];
        for (size_t m = 0; m < S; m++)
            a[m] = vi_zero();
        size_t q = 0;
        for (; q + S * L <= count; q += S * L)
            for (size_t m = 0; m < S; m++)
                a[m] = vi_add(k, a[m], vi_ld(axk_at(k, xo, q + m * L)));
        for (size_t m = 0; q + L <= count; q += L, m++)
            a[m] = vi_add(k, a[m], vi_ld(axk_at(k, xo, q)));
        uint64_t out[63], b[AX_VB / 8];
        for (size_t i = 0; i < inner; i++)
            out[i] = 0;
        const int one = slots == 1; /* vectors a slot apart added, from the last; one slot: */
        for (size_t m = S; m-- > slots;) /* its halves folded to inner lanes */
            a[m - slots] = vi_add(k, a[m - slots], a[m]);
        for (size_t h = L / 2; one && h >= inner; h /= 2)
            a[0] = vi_add(k, a[0], vi_up(k, a[0], vi_zero(), (int)h, 1));
        for (size_t m = 0, i = 0; m < (one ? 1 : RD_MIN(slots, count / L)); m++) {
            vi_st(b, a[m]);
            for (size_t l = 0; l < (one ? inner : L); l++, i = i + 1 == inner ? 0 : i + 1)
                out[i] += ri_get(k, b, l);
        }
        for (size_t i = q % inner; q < count; q++, i = i + 1 == inner ? 0 : i + 1)
            out[i] += ri_get(k, xo, q);
        for (size_t i = 0; i < inner; i++)
            ri_emit(k, y, acc, o * inner + i, out[i]);
    }
}
/* The integer body of reduce (acc NULL) and reduce_acc. */
AXIAL_INLINE void ri_reduce(int k, const void *x, void *y, uint64_t *acc, size_t outer, size_t n,
                            size_t inner) {
    const size_t L = ri_lanes(k);
    if (y && n == 1) {
        memcpy(y, x, outer * inner * axk_size(k));
        return;
    }
    /* (a group at most 16 vectors; wider ISAs rows of at most a vector: a small pad, 5 copies of the loop) */
    if (inner == 1 && (AX_VB == 16 ? n <= 4 * L || n == 8 * L || n == 16 * L : n <= L && ((n > 1 && n <= 16 && !(n & (n - 1)))
                                   || (AX_RED_INT_ROWS3 && n == 3) || (2 * n <= L ? L <= 32 : L <= 16)))) {
        const int v0 = AX_VB != 32; /* rows of 2-16 as whole vectors (AVX-512 i16 rows of 4: 0.17x the time of halves) */
#define RI_ROWS_IF(c, N, V) if (c) ri_rows_short(k, x, y, acc, outer, N, V, 0); else
        RI_ROWS_IF(n == 2 && (v0 || AX_VB == 64), 2, 0) RI_ROWS_IF(n == 4 && L >= 4 && v0, 4, 0) RI_ROWS_IF(n == 8 && L >= 8 && v0, 8, 0)
        RI_ROWS_IF(n == 16 && L >= 16 && v0, 16, 0) RI_ROWS_IF(n == 3 && AX_RED_INT_ROWS3, 3, 0)
        RI_ROWS_IF(AX_VB == 16 && n == 2 * L, 2 * L, 2) RI_ROWS_IF(AX_VB == 16 && n == 4 * L, 4 * L, 4) /* (NEON i8 rows of 32: 0.7x, modelled) */
        RI_ROWS_IF(AX_VB == 16 && n == 8 * L, 8 * L, 8) RI_ROWS_IF(AX_VB == 16 && n == 16 * L, 16 * L, 16) RI_ROWS_IF(AX_VB > 16 || n <= L, n, 1)
        RI_ROWS_IF(n <= 2 * L, n, 2) RI_ROWS_IF(n <= 3 * L, n, 3)
        ri_rows_short(k, x, y, acc, outer, n, 4, 0);
#undef RI_ROWS_IF
        return;
    } /* x86 rows of up to 4 vectors: AX_VB / 8 rows a group, their lanes to 8-byte sums (vi_wide) first */
    if (inner == 1 && AX_RED_INT_WIDE && n <= 4 * L) { /* (bytes: rows of a quarter or half of a vector, 4 or 2 a vector) */
        const int q = AX_RED_INT_QUARTERS && L == 64; /* (the other kinds' such rows are short rows) */
        q && 4 * n <= L ? ri_rows_short(k, x, y, acc, outer, n, 1, 4) : q && 2 * n <= L ? ri_rows_short(k, x, y, acc, outer, n, 1, 2)
        : n <= L ? ri_rows_short(k, x, y, acc, outer, n, 1, 1) : n <= 2 * L ? ri_rows_short(k, x, y, acc, outer, n, 2, 1)
                                                               : ri_rows_short(k, x, y, acc, outer, n, 4, 1);
        return;
    }
    if (inner == 1) {
        for (size_t o = 0; o < outer; o++)
            ri_emit(k, y, acc, o, ri_rowsum(k, axk_at(k, x, o * n), n));
        return;
    }
    /* inner < L, or on x86 one vector of at most 8 lanes (the column path's sums would go through memory a row
     * a time): fewer rows than 2 slots L (32 of one slot) a row a whole load, lane i column i */
    if (inner < L + (AX_VB > 16 && L <= 8)) {
        const size_t slots = inner / rd_gcd(inner, L), count = n * inner;
        size_t o = 0;
        for (; n < (slots > 1 ? 2 * slots * L : 32) && (o + 1) * count + L <= outer * count + inner; o++) {
            uint64_t b[AX_VB / 8]; /* (while the loads stay in x; 4 rows a tree: NEON n1 0.6x the cycles of one chain, modelled) */
            vi f = vi_zero();
            size_t j = 0;
            for (; j + 4 <= n; j += 4)
                f = vi_add(k, f, ri_gsum(k, axk_at(k, x, (o * n + j) * inner), inner * axk_size(k), 4));
            for (; j < n; j++)
                f = vi_add(k, f, vi_ld(axk_at(k, x, (o * n + j) * inner)));
            vi_st(b, f);
            for (size_t i = 0; i < inner; i++)
                ri_emit(k, y, acc, o * inner + i, ri_get(k, b, i));
        } /* the rest: S accumulators, a multiple of the slots, a constant where the slots are few (registers) */
        slots == 3 ? ri_periodic(k, x, y, acc, o, outer, n, inner, slots, 6)
        : slots <= 4 ? ri_periodic(k, x, y, acc, o, outer, n, inner, slots, 4) : ri_periodic(k, x, y, acc, o, outer, n, inner, slots, slots);
        return;
    }
    /* columns: reduce sums into y itself, reduce_acc into acc when elements are 8 bytes wide (the same bits),
     * else into an own-type buffer */
    const size_t chunk = RD_INT_CHUNK / axk_size(k);
    uint64_t buf[RD_INT_CHUNK / 8];
    for (size_t o = 0; o < outer; o++) {
        for (size_t i0 = 0; i0 < inner;) {
            size_t w = RD_MIN(chunk, inner - i0);
            if (inner - i0 - w > 0 && inner - i0 - w < L)
                w -= L;
            const void *xo = axk_at(k, x, o * n * inner + i0);
            const size_t off = o * inner + i0;
            void *dst = acc ? (axk_size(k) == 8 ? (void *)(acc + off) : (void *)buf)
                            : axk_at_mut(k, y, off);
            if (!acc || axk_size(k) != 8)
                memset(dst, 0, w * axk_size(k));
            ri_cols(k, xo, dst, n, w, inner);
            if (acc && axk_size(k) != 8)
                for (size_t i = 0; i < w; i++)
                    acc[off + i] += ri_get(k, buf, i);
            i0 += w;
        }
    }
}

/* ==== the entry points ================================================================ */
#define AX_RED_FLOAT_(name, K)                                                                  \
    AXIAL_NOINLINE void rd_fcols_##name(const void *x, void *y, double *acc, size_t outer,     \
                                        size_t n, size_t inner) {                              \
        rd_float_cols(K, x, y, acc, outer, n, inner);                                          \
    }                                                                                          \
    AXIAL_NOINLINE void rd_float_##name(const void *x, void *y, double *acc, size_t outer,     \
                                        size_t n, size_t inner, int stream) {                  \
        if (inner >= 16 && !(y && n == 1))                                                     \
            rd_fcols_##name(x, y, acc, outer, n, inner);                                       \
        else                                                                                   \
            rd_float(K, x, y, acc, outer, n, inner, stream);                                   \
    }                                                                                          \
    void AX_KN(reduce, name)(const void *x, void *y, size_t outer, size_t n, size_t inner,     \
                             unsigned flags) {                                                 \
        rd_float_##name(x, y, NULL, outer, n, inner, (flags & AXIAL_KERNEL_STREAM) != 0);      \
    }                                                                                          \
    void AX_KN(reduce_acc, name)(const void *x, void *acc, size_t outer, size_t n,             \
                                 size_t inner) {                                               \
        rd_float_##name(x, NULL, (double *)acc, outer, n, inner, 0);                           \
    }                                                                                          \
    void AX_KN(reduce_finish, name)(const void *acc, void *y, size_t count) {                  \
        rd_finish(K, (const double *)acc, y, count);                                           \
    }                                                                                          \
    void AX_KN(reduce_run, name)(const void *x, size_t len, double *a) { rd_run_##name(x, len, a, 1); } \
    void AX_KN(reduce_cols, name)(const void *x, void *acc, size_t n, size_t ncols,            \
                                  size_t stride) {                                             \
        rd_cols_##name(x, (double *)acc, n, ncols, stride);                                    \
    }
#define AX_RED_INT_(bits, K, s, u)                                                             \
    AXIAL_NOINLINE void ri_reduce_##bits(const void *x, void *y, uint64_t *acc, size_t outer,  \
                                         size_t n, size_t inner) {                             \
        ri_reduce(K, x, y, acc, outer, n, inner);                                              \
    }                                                                                          \
    AXIAL_NOINLINE void ri_finish_##bits(const void *acc, void *y, size_t count) {             \
        for (size_t i = 0; i < count; i++)                                                     \
            ri_put(K, y, i, ((const uint64_t *)acc)[i]);                                       \
    }                                                                                          \
    AX_RED_INT_NAMES_(s, bits) AX_RED_INT_NAMES_(u, bits)
#define AX_RED_INT_NAMES_(name, bits)                                                          \
    void AX_KN(reduce, name)(const void *x, void *y, size_t outer, size_t n, size_t inner,     \
                             unsigned flags) {                                                 \
        (void)flags; /* the integer reduce stores plainly */                                   \
        ri_reduce_##bits(x, y, NULL, outer, n, inner);                                         \
    }                                                                                          \
    void AX_KN(reduce_acc, name)(const void *x, void *acc, size_t outer, size_t n,             \
                                 size_t inner) {                                               \
        ri_reduce_##bits(x, NULL, (uint64_t *)acc, outer, n, inner);                           \
    }                                                                                          \
    void AX_KN(reduce_finish, name)(const void *acc, void *y, size_t count) {                  \
        ri_finish_##bits(acc, y, count);                                                       \
    }
#define AX_RED_PART1() AX_EACH_FLOAT(AX_RED_FLOAT_)
#define AX_RED_PART2() AX_RED_INT_(8, AXK_I8, i8, u8) AX_RED_INT_(16, AXK_I16, i16, u16)
#define AX_RED_PART3() AX_RED_INT_(32, AXK_I32, i32, u32) AX_RED_INT_(64, AXK_I64, i64, u64)
#define AXIAL_DEFINE_REDUCE_KERNELS() AX_ENTRIES(AX_RED_PART)

#endif /* AXIAL_OPS_REDUCE_H */
