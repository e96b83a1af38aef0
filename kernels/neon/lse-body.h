/* SPDX-License-Identifier: MIT */
/*
 * lse-body.h: the body of kernels/neon/lse.c, included once per float dtype
 * (lse.c describes the algorithm and its error).  Not a public or a
 * shared header: lse.c defines, before each inclusion,
 *   the compute family (once per family): V, E, L, MASK, A and the V_* / A_*
 *     operations (f32 lanes for f32, f16 and bf16; f64 lanes for f64);
 *   the dtype: LSE_NAME, LSE_T, LSE_LOAD(p) (L elements -> V, exact),
 *     LSE_STORE(p, v) (V -> L elements, RNE), LSE_NEGINF_T (-inf as a T),
 *     LSE_STORE1(p, d) (double -> one T, rounded once).
 */
#define LSE_CAT2(a, b) a##_##b
#define LSE_CAT(a, b) LSE_CAT2(a, b)
#define LSE_FN(f) LSE_CAT(f, LSE_NAME)
#define LSE_UNROLL _Pragma("GCC unroll 16")
#define LSE_KN3(op, name) axial_##op##_##name##__neon
#define LSE_KN2(op, name) LSE_KN3(op, name)
#define LSE_KN(op) LSE_KN2(op, LSE_NAME) /* the kernel axial_<op>_<dtype>__neon */

/* ---- ReduceLogSumExp along lines (inner == 1) ----------------------------- */

/* One block of LSE_RB vectors (LSE_RB * L elements) into the lane states. */
AXIAL_INLINE void LSE_FN(lse_line_block)(const LSE_T *p, V *m, A *a) {
    V mx = LSE_LOAD(p);
    LSE_UNROLL
    for (int k = 1; k < LSE_RB; k++)
        mx = V_MAX(mx, LSE_LOAD(p + k * L)); /* FMAX: a NaN lane stays NaN */
    const V mn = V_MAX(*m, mx);
    const MASK rose = V_GT(mn, *m); /* false for NaN */
    if (V_ANY(rose))
        *a = A_RESCALE(*a, *m, mn, rose);
    *m = mn;
    /* base of the exponentials: 0 where the lane is still empty (-inf), so
     * that -inf - -inf never happens (the terms there are -inf: exp gives 0) */
    const V base = V_SEL(V_EQ(mn, V_DUP(-(E)INFINITY)), V_DUP(0), mn);
    V e[LSE_RB];
    LSE_UNROLL
    for (int k = 0; k < LSE_RB; k++)
        e[k] = V_EXP(V_SUB(LSE_LOAD(p + k * L), base));
    for (int w = LSE_RB / 2; w > 0; w /= 2) /* pairwise tree: <= 16 terms a lane */
        for (int k = 0; k < w; k++)
            e[k] = V_ADD(e[k], e[k + w]);
    *a = A_ADD(*a, e[0]);
}

/* The terms of one line of n elements, added into *acc. */
static void LSE_FN(lse_line)(const LSE_T *x, size_t n, axial_lse_acc *acc) {
    V m = V_DUP(-(E)INFINITY);
    A a = A_ZERO();
    size_t j = 0;
    for (; j + LSE_RB * L <= n; j += LSE_RB * L)
        LSE_FN(lse_line_block)(x + j, &m, &a);
    if (j < n) { /* the tail, padded with -inf (adds nothing, raises no max) */
        LSE_T t[LSE_RB * L];
        for (size_t k = 0; k < LSE_RB * L; k++)
            t[k] = j + k < n ? x[j + k] : LSE_NEGINF_T;
        LSE_FN(lse_line_block)(t, &m, &a);
    }
    E ml[L];
    double sl[L];
    V_STORE_E(ml, m);
    A_STORE(sl, a);
    for (int l = 0; l < L; l++) /* lanes merged in order; NaN, +inf, -inf handled there */
        axial_lse_add(acc, (double)ml[l], sl[l]);
}

/* ---- ReduceLogSumExp along columns (inner > 1) ---------------------------- */

/* LSE_RBC rows (p + k * stride) of LSE_CW vectors of columns into the states. */
AXIAL_INLINE void LSE_FN(lse_cols_block)(const LSE_T *p, size_t stride, V *m, A *a) {
    for (int v = 0; v < LSE_CW; v++) {
        const LSE_T *q = p + v * L;
        V mx = LSE_LOAD(q);
        LSE_UNROLL
        for (int k = 1; k < LSE_RBC; k++)
            mx = V_MAX(mx, LSE_LOAD(q + k * stride));
        const V mn = V_MAX(m[v], mx);
        const MASK rose = V_GT(mn, m[v]);
        if (V_ANY(rose))
            a[v] = A_RESCALE(a[v], m[v], mn, rose);
        m[v] = mn;
        const V base = V_SEL(V_EQ(mn, V_DUP(-(E)INFINITY)), V_DUP(0), mn);
        V e[LSE_RBC];
        LSE_UNROLL
        for (int k = 0; k < LSE_RBC; k++)
            e[k] = V_EXP(V_SUB(LSE_LOAD(q + k * stride), base));
        for (int h = LSE_RBC / 2; h > 0; h /= 2)
            for (int k = 0; k < h; k++)
                e[k] = V_ADD(e[k], e[k + h]);
        a[v] = A_ADD(a[v], e[0]);
    }
}

/* Columns [0, w) of an (n, stride) matrix, w <= LSE_CW * L: their states
 * added into acc[0 .. w).  Whole blocks are read in place; a partial block
 * (the last rows, or a strip narrower than LSE_CW vectors) is copied into a
 * buffer padded with -inf. */
static void LSE_FN(lse_cols)(const LSE_T *x, size_t n, size_t stride, size_t w,
                             axial_lse_acc *acc) {
    const size_t W = LSE_CW * L;
    V m[LSE_CW];
    A a[LSE_CW];
    for (int v = 0; v < LSE_CW; v++)
        m[v] = V_DUP(-(E)INFINITY), a[v] = A_ZERO();
    for (size_t j = 0; j < n; j += LSE_RBC) {
        if (w == W && j + LSE_RBC <= n) {
            LSE_FN(lse_cols_block)(x + j * stride, stride, m, a);
            continue;
        }
        LSE_T tmp[LSE_RBC * LSE_CW * L];
        for (size_t k = 0; k < LSE_RBC; k++)
            for (size_t c = 0; c < W; c++)
                tmp[k * W + c] = j + k < n && c < w ? x[(j + k) * stride + c] : LSE_NEGINF_T;
        LSE_FN(lse_cols_block)(tmp, W, m, a);
    }
    for (int v = 0; v < LSE_CW; v++) {
        E ml[L];
        double sl[L];
        V_STORE_E(ml, m[v]);
        A_STORE(sl, a[v]);
        for (int l = 0; l < L; l++)
            if ((size_t)(v * L + l) < w)
                axial_lse_add(&acc[v * L + l], (double)ml[l], sl[l]);
    }
}

/* Columns [0, ncols) of an (n, stride) matrix (inner > 1), in strips of
 * LSE_CW vectors from column 0 (the last one w = ncols mod W wide): acc ==
 * NULL -> write y[0 .. ncols) (reduce_lse), else merge into acc[0 .. ncols).
 * The whole-shape kernels call it with ncols = stride = inner, the column
 * tiles (reduce_lse_cols) with their own ncols: on a tile that starts and
 * ends on strip boundaries (or at the row's end), every strip sees the same
 * columns as in the whole-shape call. */
static void LSE_FN(lse_reduce_cols)(const LSE_T *x, LSE_T *y, axial_lse_acc *acc, size_t n,
                                    size_t ncols, size_t stride) {
    const size_t W = LSE_CW * L;
    for (size_t c = 0; c < ncols; c += W) {
        const size_t w = ncols - c < W ? ncols - c : W;
        if (acc) {
            LSE_FN(lse_cols)(x + c, n, stride, w, &acc[c]);
        } else {
            axial_lse_acc s[LSE_CW * L];
            for (size_t k = 0; k < w; k++)
                s[k] = AXIAL_LSE_EMPTY;
            LSE_FN(lse_cols)(x + c, n, stride, w, s);
            for (size_t k = 0; k < w; k++)
                LSE_STORE1(&y[c + k], axial_lse_value(s[k]));
        }
    }
}

/* Both reductions: acc == NULL -> write y (reduce_lse), else merge into acc. */
AXIAL_INLINE void LSE_FN(lse_reduce)(const void *xv, void *yv, axial_lse_acc *acc,
                                          size_t outer, size_t n, size_t inner) {
    const LSE_T *x = (const LSE_T *)xv;
    LSE_T *y = (LSE_T *)yv;
    for (size_t o = 0; o < outer; o++) {
        const LSE_T *xo = x + o * n * inner;
        if (inner == 1) {
            axial_lse_acc s = AXIAL_LSE_EMPTY;
            LSE_FN(lse_line)(xo, n, acc ? &acc[o] : &s);
            if (!acc)
                LSE_STORE1(&y[o], axial_lse_value(s));
            continue;
        }
        if (acc)
            LSE_FN(lse_reduce_cols)(xo, NULL, &acc[o * inner], n, inner, inner);
        else
            LSE_FN(lse_reduce_cols)(xo, &y[o * inner], NULL, n, inner, inner);
    }
}

void LSE_KN(reduce_lse)(const void *x, void *y, size_t outer, size_t n, size_t inner,
                        unsigned flags) {
    (void)flags; /* never streams */
    LSE_FN(lse_reduce)(x, y, NULL, outer, n, inner);
}
void LSE_KN(reduce_lse_acc)(const void *x, void *acc, size_t outer,
                                                     size_t n, size_t inner) {
    LSE_FN(lse_reduce)(x, NULL, (axial_lse_acc *)acc, outer, n, inner);
}

/* The column tile: reduce_lse (outer = 1, inner = stride) on columns
 * [0, ncols), by the same code (stride 1 is a line, as there). */
void LSE_KN(reduce_lse_cols)(const void *xv, void *yv, size_t n, size_t ncols,
                             size_t stride) {
    if (stride == 1) {
        LSE_FN(lse_reduce)(xv, yv, NULL, 1, n, 1);
        return;
    }
    LSE_FN(lse_reduce_cols)((const LSE_T *)xv, (LSE_T *)yv, NULL, n, ncols, stride);
}

/* ---- LogCumSumExp along lines (inner == 1) -------------------------------- */

/* L consecutive terms (in scan order) through the chunk's state; returns
 * their outputs (in scan order; with emit), those of the carry R followed by
 * the state (mixed: R is not empty; rbad: R is NaN or +inf, the scalar step
 * for every term). */
AXIAL_INLINE V LSE_FN(lcse_step)(axial_lse_acc *st, V x, int excl, axial_lse_acc R,
                                      int emit, int mixed, int rbad, lse_mix *mx) {
    const E b = V_HMAX(x); /* FMAXV: NaN if a lane is NaN */
    double m = st->m;
    int fast = 0;
    if (!rbad && b == b && b != (E)INFINITY && !isnan(m) && m != INFINITY) {
        if ((double)b > m) {
            /* the new base b must stay within LSE_T_RISE of the largest term of
             * every output of this vector (the first one's is m0), or the
             * early outputs would lose bits to the cancellation m + log(s) */
            const double x0 = (double)V_LANE0(x);
            const double m0 = excl ? (m != -INFINITY ? m : x0) : (x0 > m ? x0 : m);
            if ((double)b - m0 <= LSE_T_RISE) {
                st->s = m == -INFINITY ? 0.0 : st->s * exp(m - (double)b);
                st->m = m = (double)b;
                fast = 1;
            }
        } else {
            fast = m != -INFINITY;
        }
    }
    if (fast) { /* base m (finite, the largest term so far), s >= 1 */
        const V mv = V_DUP((E)m);
        const V p = V_PREFIX(V_EXP(V_SUB(x, mv))); /* -inf terms give 0 */
        V y = mv;
        if (emit) {
            const V q = excl ? V_SHIFT1(p) : p;
            const V sj = V_ADD(V_DUP((E)st->s), q);
            if (mixed) { /* a + b s_j in the lanes' type (s_j >= e^-4) */
                if (mx->m != m)
                    *mx = lse_mix_of(R, m);
                y = V_ADD(V_DUP((E)mx->ref),
                          V_LOG(V_ADD(V_DUP((E)mx->a), V_MUL(V_DUP((E)mx->b), sj))));
            } else {
                y = V_ADD(mv, V_LOG(sj));
            }
        }
        st->s += (double)V_LAST(p);
        return y;
    }
    /* the scalar step (the oracle's, in double): special values, big rises */
    E xs[L], ys[L];
    V_STORE_E(xs, x);
    for (int l = 0; l < L; l++) {
        const double v = (double)xs[l];
        if (emit && excl)
            ys[l] = (E)lse_val_from(R, *st);
        if (isnan(st->m) || v == -INFINITY) {
        } else if (isnan(v)) { /* NaN wins, after +inf too */
            st->m = v;
        } else if (st->m == INFINITY) {
        } else if (v == INFINITY) {
            st->m = v;
        } else if (st->m == -INFINITY) {
            st->m = v, st->s = 1.0;
        } else if (v > st->m) {
            st->s = st->s * exp(st->m - v) + 1.0;
            st->m = v;
        } else {
            st->s += exp(v - st->m);
        }
        if (emit && !excl)
            ys[l] = (E)lse_val_from(R, *st);
    }
    return emit ? V_LOAD_E(ys) : x;
}

/* One chunk of a line (kernels.h, logcumsumexp_seg: n <= AXIAL_SCAN_CHUNK
 * terms from a state of their own, the outputs those of the carry R followed
 * by it); returns the chunk's final state, the same with or without emit,
 * whatever R.  An exclusive chunk's first output is R's value (ref + log(a)
 * would underflow for a chunk far above its carry). */
AXIAL_INLINE axial_lse_acc LSE_FN(lcse_chunk)(const LSE_T *x, LSE_T *y, size_t n,
                                                   int excl, int rev, axial_lse_acc R,
                                                   int emit, int mixed) {
    axial_lse_acc st = AXIAL_LSE_EMPTY;
    lse_mix mx = {NAN, 0, 0, 1}; /* (NaN: computed at the first base) */
    const int rbad = emit && (isnan(R.m) || R.m == INFINITY);
    size_t t = 0;
    for (; t + L <= n; t += L) {
        const size_t at = rev ? n - t - L : t;
        V v = LSE_LOAD(x + at);
        if (rev)
            v = V_REV(v);
        V r = LSE_FN(lcse_step)(&st, v, excl, R, emit, mixed, rbad, &mx);
        if (rev)
            r = V_REV(r);
        if (emit)
            LSE_STORE(y + at, r);
    }
    if (t < n) { /* the last n - t < L terms, padded with -inf after them */
        const size_t k = n - t;
        LSE_T ti[L], to[L];
        for (size_t l = 0; l < L; l++)
            ti[l] = l < k ? x[rev ? n - 1 - t - l : t + l] : LSE_NEGINF_T;
        const V r = LSE_FN(lcse_step)(&st, LSE_LOAD(ti), excl, R, emit, mixed, rbad, &mx);
        if (emit) {
            LSE_STORE(to, r);
            for (size_t l = 0; l < k; l++)
                y[rev ? n - 1 - t - l : t + l] = to[l];
        }
    }
    if (emit && excl && n > 0)
        LSE_STORE1(y + (rev ? n - 1 : 0), axial_lse_value(R));
    return st;
}

/* A segment of a line from a chunk boundary of its scan order: chunks of
 * AXIAL_SCAN_CHUNK terms from the carry R, R (+)= each chunk's total;
 * returns R after the segment (kept only after a whole chunk: a partial one
 * ends its line). */
static axial_lse_acc LSE_FN(lcse_seg)(const LSE_T *x, LSE_T *y, size_t len, int excl, int rev,
                                      axial_lse_acc R) {
    for (size_t c0 = 0; c0 < len; c0 += AXIAL_SCAN_CHUNK) {
        const size_t k = len - c0 < AXIAL_SCAN_CHUNK ? len - c0 : AXIAL_SCAN_CHUNK;
        const size_t lo = rev ? len - c0 - k : c0;
        const axial_lse_acc T =
            R.m == -INFINITY ? LSE_FN(lcse_chunk)(x + lo, y + lo, k, excl, rev, R, 1, 0)
                             : LSE_FN(lcse_chunk)(x + lo, y + lo, k, excl, rev, R, 1, 1);
        if (k == AXIAL_SCAN_CHUNK)
            axial_lse_add(&R, T.m, T.s);
    }
    return R;
}

axial_lse_acc LSE_KN(logcumsumexp_seg)(const void *xv, void *yv, size_t len, unsigned flags,
                                       axial_lse_acc carry) {
    return LSE_FN(lcse_seg)((const LSE_T *)xv, (LSE_T *)yv, len, (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0,
                     (flags & AXIAL_CUMSUM_REVERSE) != 0, carry);
}

axial_lse_acc LSE_KN(lse_scan_total)(const void *xv, size_t len, unsigned flags) {
    return LSE_FN(lcse_chunk)((const LSE_T *)xv, NULL, len, (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0,
                              (flags & AXIAL_CUMSUM_REVERSE) != 0, AXIAL_LSE_EMPTY, 0, 0);
}

/* ---- LogCumSumExp along columns (inner > 1) ------------------------------- */

/* Columns [0, w) of an (n, stride) matrix, w <= LSE_CW * L, scanned. */
static void LSE_FN(lcse_cols)(const LSE_T *x, LSE_T *y, size_t n, size_t stride, size_t w,
                              int excl, int rev) {
    const size_t W = LSE_CW * L;
    V m[LSE_CW];
    A a[LSE_CW];
    for (int v = 0; v < LSE_CW; v++)
        m[v] = V_DUP(-(E)INFINITY), a[v] = A_ZERO();
    const V ninf = V_DUP(-(E)INFINITY), inf = V_DUP((E)INFINITY), zero = V_DUP(0);
    for (size_t t = 0; t < n; t++) {
        const size_t j = rev ? n - 1 - t : t;
        const LSE_T *xr = x + j * stride;
        LSE_T *yr = y + j * stride;
        LSE_T ti[LSE_CW * L], to[LSE_CW * L];
        if (w < W) {
            for (size_t c = 0; c < W; c++)
                ti[c] = c < w ? xr[c] : LSE_NEGINF_T;
            xr = ti;
        }
        for (int v = 0; v < LSE_CW && (size_t)v * L < w; v++) {
            const V xv = LSE_LOAD(xr + v * L);
            V yv = zero;
            if (excl) { /* the value before this row's term */
                const V base = V_SEL(V_EQ(m[v], ninf), zero, m[v]);
                const MASK fin = V_LT(V_ABS(m[v]), inf);
                yv = V_SEL(fin, V_ADD(base, V_LOG(A_TOV(a[v]))), m[v]);
            }
            const V mn = V_MAX(m[v], xv); /* FMAX keeps NaN */
            const MASK rose = V_GT(mn, m[v]);
            if (V_ANY(rose))
                a[v] = A_RESCALE(a[v], m[v], mn, rose);
            m[v] = mn;
            const V base = V_SEL(V_EQ(mn, ninf), zero, mn);
            a[v] = A_ADD(a[v], V_EXP(V_SUB(xv, base)));
            if (!excl) {
                const MASK fin = V_LT(V_ABS(mn), inf);
                yv = V_SEL(fin, V_ADD(base, V_LOG(A_TOV(a[v]))), mn);
            }
            if (w < W)
                LSE_STORE(to + v * L, yv);
            else
                LSE_STORE(yr + v * L, yv);
        }
        if (w < W)
            for (size_t c = 0; c < w; c++)
                yr[c] = to[c];
    }
}

/* Columns [0, ncols) of an (n, stride) matrix (inner > 1), scanned in strips
 * of LSE_CW vectors from column 0: the whole-shape kernel calls it with
 * ncols = stride = inner, the column tiles (logcumsumexp_cols) with their own
 * ncols (same strips on a tile cut on strip boundaries or the row's end). */
static void LSE_FN(lcse_cols_tile)(const LSE_T *x, LSE_T *y, size_t n, size_t ncols,
                                   size_t stride, int excl, int rev) {
    const size_t W = LSE_CW * L;
    for (size_t c = 0; c < ncols; c += W)
        LSE_FN(lcse_cols)(x + c, y + c, n, stride, ncols - c < W ? ncols - c : W, excl, rev);
}

void LSE_KN(logcumsumexp)(const void *xv, void *yv, size_t outer,
                                                   size_t n, size_t inner, unsigned flags) {
    const LSE_T *x = (const LSE_T *)xv;
    LSE_T *y = (LSE_T *)yv;
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const int rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    for (size_t o = 0; o < outer; o++) {
        const LSE_T *xo = x + o * n * inner;
        LSE_T *yo = y + o * n * inner;
        if (inner == 1) {
            LSE_FN(lcse_seg)(xo, yo, n, excl, rev, AXIAL_LSE_EMPTY);
            continue;
        }
        LSE_FN(lcse_cols_tile)(xo, yo, n, inner, inner, excl, rev);
    }
}

/* The column tile: logcumsumexp (outer = 1, inner = stride) on columns
 * [0, ncols), by the same code (stride 1 is a line, as there). */
void LSE_KN(logcumsumexp_cols)(const void *xv, void *yv, size_t n, size_t ncols,
                               size_t stride, unsigned flags) {
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const int rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    if (stride == 1) {
        LSE_FN(lcse_seg)((const LSE_T *)xv, (LSE_T *)yv, n, excl, rev, AXIAL_LSE_EMPTY);
        return;
    }
    LSE_FN(lcse_cols_tile)((const LSE_T *)xv, (LSE_T *)yv, n, ncols, stride, excl, rev);
}

#undef LSE_FN
#undef LSE_UNROLL
#undef LSE_KN
#undef LSE_KN2
#undef LSE_KN3
#undef LSE_CAT
#undef LSE_CAT2
