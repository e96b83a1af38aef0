/* SPDX-License-Identifier: MIT */
/*
 * stream.c: CumSum, LogCumSumExp, ReduceSum and ReduceLogSumExp fed in
 * pieces along an axis (axial_stream_*), with the one call's bits for any
 * cut points (docs/API.md, "Streams and shards"; the log-space ops' and the
 * reductions' states below).
 *
 * The piece shape merges into (outer, L, inner) as axial_cumsum's does; the
 * state holds what the order carries across the cut:
 *   - float lines (inner == 1): per line an axial_line_carry (order.h): the
 *     chunk carry R, the running carry D and the chunk's total S, and the
 *     elements of a block begun but not ended (the SIMD network reads a
 *     whole block of 16; its outputs depend only on the elements before
 *     them, so a block cut in two is finished from the pending elements);
 *   - float columns (inner > 1): the f64 running sum of every column;
 *   - integers: the wrapping running sum of every line or column.
 * A push scans, per line, the rest of a block begun (order.c), then whole
 * chunks from a chunk boundary with the active ISA's cumsum_seg kernel (a
 * piece that holds whole chunks, 64 KiB of f32, runs at the kernel's speed),
 * the whole blocks up to the next chunk boundary with its cumsum_run kernel
 * (from the chunk's D and S), and a last part of a block (order.c); float
 * columns go through cumsum_cols_run (f32, f64) from their running sums,
 * the rest through order.c.  Floats follow the order of the ISA active at create (or the
 * one whose bytes were imported): the SIMD order on AVX2, AVX-512 and NEON,
 * the scalar order on the scalar ISA, whatever ISA is active at a push.
 * With an executor, lines (or groups of columns) are tasks: every line is
 * scanned alone, so the bits are the plain push's.  Nothing is allocated
 * after create.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "order.h"

#define AX_STREAM_FLAGS (AXIAL_CUMSUM_EXCLUSIVE | AXIAL_CUMSUM_REVERSE)
/* Columns per task of a push on an executor. */
#define AX_STREAM_COLS 256
/* The state's header bytes (below, "the state as bytes"). */
#define AX_ST_HEAD 32

struct axial_stream {
    axial_op op;
    axial_dtype dtype;
    unsigned flags;
    int order;  /* AXIAL_ORDER_* (order.h): create's, or an imported state's */
    int order0; /* create's: a reset returns to it */
    size_t rank, axis, esize, outer, inner;
    int64_t shape[AXIAL_MAX_RANK]; /* shape[axis] = 0 */
    uint64_t pos;                  /* elements taken along the axis */
    bool lines;                    /* float lines: carries are axial_line_carry */
    size_t ncarry;                 /* lines (outer), columns or outputs (outer * inner) */
    void *carry;
    /* ReduceSum and ReduceLogSumExp (red): P positions a super-row, rows a
     * fixed chunk (0: none) */
    bool red;
    size_t P;
    uint64_t chunk;
    /* ReduceLogSumExp (lse): the ISA whose order it follows (create's), its
     * kernel (NULL: the scalar order), C lanes' states a line or row */
    bool lse;
    unsigned isa;
    axial_lse_run_kernel *lrun;
    size_t C;
    /* LogCumSumExp (lcse): its ISA's line or column kernel (both NULL: the
     * scalar order) */
    bool lcse;
    axial_lse_line_run_kernel *lcrun;
    axial_lse_cols_run_kernel *lccols;
};

/* ReduceSum's state (red), in the carry's words: the SIMD order per outer
 * index A[P] (the positions' f64 sums of the chunk begun), then R[outputs]
 * (the f64 sum of the chunks ended), then per outer index the 8 P elements
 * of a group begun (red_npend of them); the scalar order R, then S[outputs]
 * (the chunk begun, summed one term at a time); integers the wrapping u64
 * sums.  The f64 scratch of axial_stream_result follows (not exported). */
/* ReduceLogSumExp's: the SIMD order per outer index its lanes' states
 * (kernels.h, reduce_lse_run: 2 C words) and R[inner] (the chunks ended,
 * axial_lse_acc), then per outer index the rows of a group begun (256
 * elements of a line, 16 rows of columns); the scalar order per output
 * L[4] (the scalar kernels' state of an F64 line in long double: m and s as
 * three doubles), S[2] (the chunk begun) and R[2]. */
static double *red_A(const axial_stream *s) { return s->carry; }
static double *red_R(const axial_stream *s) {
    return s->order == AXIAL_ORDER_SIMD ? red_A(s) + s->outer * s->P : red_A(s);
}
/* the words of the SIMD order before the groups begun, and a group's bytes */
static size_t red_head(const axial_stream *s) {
    return s->lse ? s->outer * (2 * s->C + 2 * s->inner) : s->outer * s->P + s->ncarry;
}
static size_t red_pstride(const axial_stream *s) {
    return s->lse ? ((s->inner == 1 ? 256 : 16 * s->inner) * s->esize + 7) / 8 * 8
                  : 8 * s->P * s->esize;
}
static char *red_pend(const axial_stream *s) { return (char *)(red_A(s) + red_head(s)); }
static size_t red_words(const axial_stream *s, int order) {
    if (order == AXIAL_ORDER_EXACT)
        return s->ncarry;
    if (order == AXIAL_ORDER_SCALAR)
        return (s->lse ? 8 : 2) * s->ncarry;
    return red_head(s) + s->outer * red_pstride(s) / 8;
}
/* The words of the state as bytes: the same, but of each group begun only
 * the elements taken (red_npend after `pos` rows), packed, then padding to
 * a word. */
static size_t red_npend_at(const axial_stream *s, uint64_t pos);
static size_t red_bytes_words(const axial_stream *s, int order, uint64_t pos) {
    if (order != AXIAL_ORDER_SIMD)
        return red_words(s, order);
    return red_head(s) + (s->outer * red_npend_at(s, pos) * s->esize + 7) / 8;
}
static double *red_scratch(const axial_stream *s) {
    /* (a ReduceSum stream's float state may be of either order: past the larger) */
    return red_A(s) + red_words(s, s->order == AXIAL_ORDER_EXACT || s->lse ? s->order
                                                                          : AXIAL_ORDER_SIMD);
}
/* The rows of a group begun of ReduceLogSumExp's SIMD order after `crow` rows of a chunk. */
static size_t lse_nrows(const axial_stream *s, uint64_t crow) {
    return (size_t)(crow % (s->inner == 1 ? 256 : 16));
}
/* The elements of a group begun, per outer index, after `crow` rows of a chunk. */
static size_t red_npend(const axial_stream *s, uint64_t crow) {
    if (s->lse)
        return lse_nrows(s, crow) * s->inner;
    if (s->P == s->inner) /* columns: a group is 8 rows */
        return (size_t)(crow % 8) * s->inner;
    return (size_t)(crow % (8 * s->P) * s->inner % (8 * s->P));
}
static size_t red_npend_at(const axial_stream *s, uint64_t pos) {
    return red_npend(s, s->chunk ? pos % s->chunk : pos);
}
/* n words between memory and little-endian bytes */
static void words_out(unsigned char *w, const void *m, size_t n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(w, m, 8 * n);
#else
    for (size_t i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, (const char *)m + 8 * i, 8);
        axial__put64(w + 8 * i, u);
    }
#endif
}
static void words_in(void *m, const unsigned char *r, size_t n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(m, r, 8 * n);
#else
    for (size_t i = 0; i < n; i++) {
        const uint64_t u = axial__get64(r + 8 * i);
        memcpy((char *)m + 8 * i, &u, 8);
    }
#endif
}

/* LogCumSumExp's state: the SIMD order per line an axial_lse_line (kernels.h,
 * 12 words: R, m, S, the terms of a vector begun), the scalar order per line
 * or column the scalar kernel's (m, s): double, for F64 long double (s as
 * three doubles, lse_step_ld); the SIMD order's columns per outer index
 * m[C], s[C], f[C], S[C] (kernels.h, logcumsumexp_cols_run). */
static size_t lcse_words(const axial_stream *s) {
    return (s->lcrun ? 12 : s->lccols ? 4 * s->C : 4) * s->ncarry;
}

static void lse_lanes_empty(const axial_stream *s, double *ls) {
    for (size_t i = 0; i < s->C; i++)
        ls[i] = s->dtype == AXIAL_F64 ? -DBL_MAX : -FLT_MAX, ls[s->C + i] = 0.0;
}

/* ReduceLogSumExp's words (above): the SIMD order's lanes and R[inner] of
 * outer index o; the scalar order's S[outputs], R[outputs] after them. */
static double *lse_ls(const axial_stream *s, size_t o) {
    return red_A(s) + o * 2 * (s->C + s->inner);
}
static axial_lse_acc *lse_R(const axial_stream *s, size_t o) {
    return (axial_lse_acc *)(void *)(lse_ls(s, o) + 2 * s->C);
}
static axial_lse_acc *lse_S(const axial_stream *s) {
    return (axial_lse_acc *)(void *)(red_A(s) + 4 * s->ncarry);
}

static void stream_init_carries(axial_stream *s) {
    s->pos = 0;
    if (s->lcse) {
        memset(s->carry, 0, lcse_words(s) * 8);
        for (size_t i = 0; i < s->ncarry; i++) {
            double *w = (double *)s->carry + lcse_words(s) / s->ncarry * i;
            if (s->lccols) /* m the lane type's -MAX, the rest 0 */
                lse_lanes_empty(s, w);
            else /* R (the scalar order: the state) empty; lines: m -MAX, S 0 */
                w[0] = -INFINITY,
                w[2] = !s->lcrun ? 0 : s->dtype == AXIAL_F64 ? -DBL_MAX : -FLT_MAX;
        }
    } else if (s->lse) {
        memset(s->carry, 0, red_words(s, s->order) * 8); /* (L's s and the pending rows) */
        for (size_t o = 0; s->order == AXIAL_ORDER_SIMD && o < s->outer; o++) {
            lse_lanes_empty(s, lse_ls(s, o));
            for (size_t i = 0; i < s->inner; i++)
                lse_R(s, o)[i] = AXIAL_LSE_EMPTY;
        }
        for (size_t i = 0; s->order == AXIAL_ORDER_SCALAR && i < s->ncarry; i++) {
            red_A(s)[4 * i] = -INFINITY; /* L's m */
            lse_S(s)[i] = lse_S(s)[s->ncarry + i] = AXIAL_LSE_EMPTY;
        }
    } else if (s->red && s->order != AXIAL_ORDER_EXACT) {
        double *d = s->carry;
        for (size_t i = 0, n = red_words(s, AXIAL_ORDER_SIMD); i < n; i++)
            d[i] = -0.0;
    } else if (s->lines) {
        axial_line_carry *c = s->carry;
        for (size_t i = 0; i < s->ncarry; i++)
            axial__line_carry_init(&c[i]);
    } else if (s->order == AXIAL_ORDER_EXACT) {
        memset(s->carry, 0, s->ncarry * sizeof(uint64_t));
    } else {
        double *d = s->carry;
        for (size_t i = 0; i < s->ncarry; i++)
            d[i] = -0.0;
    }
}

axial_status axial_stream_create(axial_op op, axial_dtype dtype, size_t rank,
                                 const int64_t *shape, int64_t axis, unsigned flags,
                                 axial_stream **stream) {
    static const char fn[] = "axial_stream_create";
    if (stream == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: stream is NULL", fn);
    if (op < AXIAL_OP_CUMSUM || op > AXIAL_OP_REDUCE_LOGSUMEXP)
        return axial__fail(AXIAL_E_ARGS,
                           "%s: op %d is not a stream's (AXIAL_OP_CUMSUM, AXIAL_OP_LOGCUMSUMEXP, "
                           "AXIAL_OP_REDUCE_SUM, AXIAL_OP_REDUCE_LOGSUMEXP)", fn, (int)op);
    const bool lse = op == AXIAL_OP_REDUCE_LOGSUMEXP, red = op == AXIAL_OP_REDUCE_SUM || lse;
    const bool lcse = op == AXIAL_OP_LOGCUMSUMEXP;
    const unsigned allowed = red ? AXIAL_REDUCE_KEEP_DIMS : AX_STREAM_FLAGS;
    size_t es, count, ax;
    axial_status st = lse || lcse ? axial__check_float_dtype(fn, dtype, &es)
                                  : axial__check_dtype(fn, dtype, false, &es);
    if (st == AXIAL_OK)
        st = axial__check_rank(fn, rank, shape, 1);
    if (st != AXIAL_OK)
        return st;
    if (flags & ~allowed)
        return axial__fail(AXIAL_E_ARGS, "%s: flags 0x%x has unknown bits (allowed 0x%x)", fn,
                           flags, allowed);
    if ((st = axial__norm_axis(fn, axis, rank, &ax)) != AXIAL_OK)
        return st;
    int64_t sh[AXIAL_MAX_RANK];
    memcpy(sh, shape, rank * sizeof *sh);
    sh[ax] = 1; /* the axis length is free */
    if ((st = axial__check_shape(fn, rank, sh, es, &count)) != AXIAL_OK)
        return st;
    /* the carries, and the state's bytes (a header, the shape and a checksum
     * beside them), must have a size: 152 bytes a float line, 8 a column */
    const size_t outer = axial__product(sh, 0, ax), inner = axial__product(sh, ax + 1, rank);
    const int order = axial__order_active(dtype);
    const bool lines = !red && !lcse && inner == 1 && order != AXIAL_ORDER_EXACT;
    const bool lsimd = lcse && order == AXIAL_ORDER_SIMD; /* per outer index */
    const size_t ncarry = lines || lsimd ? outer : outer * inner;
    size_t units = ncarry, each = lines ? sizeof(axial_line_carry) : 8; /* (the size checked) */
    if (lcse) /* the SIMD order's lines or columns, the scalar order's (m, s) in 4 words */
        each = !lsimd ? 32 : inner == 1 ? sizeof(axial_lse_line) : 32 * ((inner + 15) / 16 * 16);
    /* ReduceSum: the positions of a super-row (inner >= 16: a row; 16 for
     * rows, lcm(inner, 16) between), and the one call's fixed chunks
     * (src/reduce.c), in rows */
    size_t P = inner >= 16 ? inner : inner * 16 / axial__gcd(inner, 16), words_per_outer = 0;
    uint64_t chunk = 0;
    /* ReduceLogSumExp: C lanes' states a line or row; the SIMD order's
     * scratch for a result holds one outer index's lanes (2 C words) */
    const size_t C = inner == 1 ? 16 : (inner + 15) / 16 * 16;
    size_t copy = 0;
    bool too_big = false;
    if (lse) { /* lanes, R, pending, scratch: 2 C + 4 inner + 2 es inner (1 a line) */
        too_big = inner > (SIZE_MAX / 64) / 32;
        words_per_outer = too_big ? 0 : 2 * C + 4 * inner + 2 * es * (inner == 1 ? 16 : inner);
        units = order == AXIAL_ORDER_SIMD ? outer : ncarry;
        each = order == AXIAL_ORDER_SIMD ? 8 * words_per_outer : 80; /* scalar: L, S, R, scratch */
        copy = order == AXIAL_ORDER_SIMD ? 16 * C : 0;
    } else if (red && order != AXIAL_ORDER_EXACT) { /* A, pending, R, scratch */
        too_big = inner > (SIZE_MAX / 64) / (es + 4);
        words_per_outer = too_big ? 0 : P * (1 + es) + 2 * inner;
        units = outer;
        each = 8 * words_per_outer;
    }
    if (red && outer * inner > 0 && order != AXIAL_ORDER_EXACT)
        chunk = axial__reduce_chunk(outer * inner, inner * es, true);
    size_t bytes;
    if (too_big || !axial__bytes(units, each, AX_ST_HEAD + 8 * rank + 64 + copy, &bytes))
        return axial__fail(AXIAL_E_SHAPE, "%s: %zu %s of %zu bytes exceed PTRDIFF_MAX bytes of "
                           "state", fn, units,
                           lines ? "lines" : red && order != AXIAL_ORDER_EXACT ? "outer indices"
                                                                              : "columns", each);
    axial_stream *s = calloc(1, sizeof *s);
    if (s == NULL)
        return axial__fail(AXIAL_E_NOMEM, "%s: no memory for the stream", fn);
    s->op = op;
    s->dtype = dtype;
    s->flags = flags;
    s->order = s->order0 = order;
    s->rank = rank;
    s->axis = ax;
    s->esize = es;
    memcpy(s->shape, sh, rank * sizeof *sh);
    s->shape[ax] = 0;
    s->outer = outer;
    s->inner = inner;
    s->lines = lines;
    s->ncarry = ncarry;
    s->red = red;
    s->P = P;
    s->chunk = chunk;
    s->lse = lse;
    s->isa = lse ? (unsigned)axial_isa_active() : 0;
    s->lrun = lse && order == AXIAL_ORDER_SIMD ? axial__isa_kernels(s->isa)->reduce_lse_run[dtype]
                                               : NULL;
    s->C = C;
    s->lcse = lcse;
    if (lcse)
        s->isa = (unsigned)axial_isa_active();
    s->lcrun = lsimd && inner == 1 ? axial__isa_kernels(s->isa)->logcumsumexp_run[dtype] : NULL;
    s->lccols = lsimd && inner > 1 ? axial__isa_kernels(s->isa)->logcumsumexp_cols_run[dtype]
                                   : NULL;
    const size_t alloc = red && order == AXIAL_ORDER_EXACT ? 2 * ncarry * 8 /* (sums, scratch) */
                                                           : units * each + copy;
    /* 64-byte aligned: the column kernels' running sums are whole lines */
    s->carry = aligned_alloc(64, alloc ? (alloc + 63) / 64 * 64 : 64);
    if (s->carry == NULL) {
        const size_t n = s->ncarry;
        free(s);
        return axial__fail(AXIAL_E_NOMEM, "%s: no memory for %zu carries of %zu bytes", fn, n,
                           each);
    }
    stream_init_carries(s);
    *stream = s;
    return AXIAL_OK;
}

void axial_stream_destroy(axial_stream *s) {
    if (s == NULL)
        return;
    free(s->carry);
    free(s);
}

int64_t axial_stream_length(const axial_stream *s) { return s ? (int64_t)s->pos : 0; }

void axial_stream_reset(axial_stream *s) {
    if (s != NULL) {
        s->order = s->order0;
        stream_init_carries(s);
    }
}

/* ---- a push ------------------------------------------------------------ */

typedef struct {
    const axial_stream *s;
    const struct axial_kernels *kt;
    const char *x;
    char *y;
    size_t len; /* the piece's axis length */
    size_t ntasks, units;
    axial_cumsum_cols_run_kernel *cols_run; /* float columns on a SIMD ISA, or NULL */
    bool simd; /* float lines in the SIMD order on a SIMD ISA (the calling thread's) */
} axial_push;

/* One float line: the rest of a block begun, whole chunks by the kernel,
 * blocks to the next chunk boundary, a last partial block. */
static void push_line(const axial_push *p, size_t o) {
    const axial_stream *s = p->s;
    axial_line_carry *c = (axial_line_carry *)s->carry + o;
    const size_t L = p->len, es = s->esize;
    const char *x = p->x + o * L * es;
    char *y = p->y + o * L * es;
    const bool rev = (s->flags & AXIAL_CUMSUM_REVERSE) != 0;
    axial_cumsum_seg_kernel *const seg = p->simd ? p->kt->cumsum_seg[s->dtype] : NULL;
    axial_cumsum_run_kernel *const run = p->simd ? p->kt->cumsum_run[s->dtype] : NULL;
    uint64_t pos = s->pos;
    size_t k = 0;
    while (k < L) {
        const size_t q = (size_t)(pos % AXIAL_SCAN_CHUNK);
        if (q == 0 && L - k >= AXIAL_SCAN_CHUNK && seg != NULL) {
            const size_t len = (L - k) / AXIAL_SCAN_CHUNK * AXIAL_SCAN_CHUNK;
            const size_t at = (rev ? L - k - len : k) * es;
            c->R = seg(x + at, y + at, len,
                       (s->flags & AX_STREAM_FLAGS) | (pos ? AXIAL_SCAN_CONTINUE : 0u), c->R);
            c->D = c->R;
            c->S = -0.0;
            k += len;
            pos += len;
            continue;
        }
        const size_t room = AXIAL_SCAN_CHUNK - q, j = (size_t)(pos % 16);
        if (run != NULL && j == 0 && L - k >= 16) { /* whole blocks to the chunk's end */
            const size_t most = L - k < room ? L - k : room, len = most / 16 * 16;
            const size_t at = (rev ? L - k - len : k) * es;
            double ds[2] = {c->D, c->S};
            run(x + at, y + at, len,
                (s->flags & AX_STREAM_FLAGS) | (pos ? AXIAL_SCAN_CONTINUE : 0u), ds);
            c->D = ds[0];
            c->S = ds[1];
            k += len;
            pos += len;
            if (pos % AXIAL_SCAN_CHUNK == 0) { /* the chunk ends: R + S starts the next */
                c->R += c->S;
                c->D = c->R;
                c->S = -0.0;
            }
            continue;
        }
        /* the rest of a block begun, a last part of a block (or, without a
         * run kernel, everything to the chunk's end) by the generic order */
        const size_t want = run == NULL ? room : j ? 16 - j : L - k;
        const size_t m = L - k < want ? L - k : want;
        axial__line_scan(s->dtype, s->order, s->flags, c, x, y, L, k, m, pos);
        k += m;
        pos += m;
    }
}

static void push_task(void *arg, size_t t) {
    const axial_push *p = arg;
    const axial_stream *s = p->s;
    size_t b, e;
    axial__task_range(p->units, p->ntasks, t, &b, &e);
    if (s->lines) {
        for (size_t o = b; o < e; o++)
            push_line(p, o);
        return;
    }
    /* columns (or integer lines): unit u = (outer o, a group of columns); the
     * task's groups of one outer index go as one run of columns, so that
     * each row is read in one sweep */
    const size_t groups = (s->inner - 1) / AX_STREAM_COLS + 1, es = s->esize;
    for (size_t u = b; u < e;) {
        const size_t o = u / groups, c0 = u % groups * AX_STREAM_COLS;
        const size_t u1 = (o + 1) * groups < e ? (o + 1) * groups : e; /* this outer's end */
        const size_t c1 = u1 % groups == 0 ? s->inner : u1 % groups * AX_STREAM_COLS;
        const size_t nc = c1 - c0;
        u = u1;
        const size_t at = (o * p->len * s->inner + c0) * es;
        char *acc = (char *)s->carry + (o * s->inner + c0) * 8;
        if (p->cols_run != NULL)
            p->cols_run(p->x + at, p->y + at, p->len, nc, s->inner,
                        (s->flags & AX_STREAM_FLAGS) | (s->pos ? AXIAL_SCAN_CONTINUE : 0u),
                        (double *)(void *)acc);
        else
            axial__cols_scan(s->dtype, s->flags, acc, p->x + at, p->y + at, p->len, nc,
                             s->inner, s->pos);
    }
}

/* ---- a LogCumSumExp push ------------------------------------------------ */

static void lse_step_ld(double *L, double term);

/* The scalar kernel's value of a LogCumSumExp state (above). */
static double lcse_value(const axial_stream *s, const double *L) {
    if (s->dtype == AXIAL_F64) {
        const long double m = L[0], ls = (long double)L[1] + L[2] + L[3];
        return (double)AXIAL_LSE_VALUE(m, ls, logl);
    }
    return AXIAL_LSE_VALUE(L[0], L[1], log);
}

/* The scalar order of ncols lines or columns (a row `stride` apart, the
 * states 4 words apart): the scalar kernel's step and value, a row at a time. */
static AXIAL_COLD void lcse_scalar(const axial_stream *s, double *L, const char *x, char *y,
                                   size_t len, size_t ncols, size_t stride) {
    const bool excl = (s->flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const bool rev = (s->flags & AXIAL_CUMSUM_REVERSE) != 0;
    for (size_t t = 0; t < len; t++)
        for (size_t c = 0; c < ncols; c++) {
            const size_t j = (rev ? len - 1 - t : t) * stride + c;
            double *l = L + 4 * c;
            const double v = axial__float_at(s->dtype, x, j);
            if (excl)
                axial__float_put(s->dtype, y, j, lcse_value(s, l));
            if (s->dtype == AXIAL_F64)
                lse_step_ld(l, v);
            else
                AXIAL_LSE_STEP(double, exp, l[0], l[1], v);
            if (!excl)
                axial__float_put(s->dtype, y, j, lcse_value(s, l));
        }
}

static void lcse_task(void *arg, size_t t) {
    const axial_push *p = arg;
    const axial_stream *s = p->s;
    const size_t es = s->esize, L = p->len;
    const size_t groups = s->lcrun || s->lccols ? 1 : (s->inner - 1) / AX_STREAM_COLS + 1;
    size_t b, e;
    axial__task_range(p->units, p->ntasks, t, &b, &e);
    for (size_t u = b; u < e; u++) {
        const size_t o = u / groups, c0 = u % groups * AX_STREAM_COLS;
        const size_t at = (o * L * s->inner + c0) * es; /* (c0 0 but for the scalar order) */
        if (s->lcrun) {
            s->lcrun(p->x + at, p->y + at, L, s->flags, (axial_lse_line *)s->carry + o, s->pos);
            continue;
        }
        if (s->lccols) {
            s->lccols(p->x + at, p->y + at, L, s->inner, s->flags,
                      (double *)s->carry + 4 * s->C * o, s->pos);
            continue;
        }
        const size_t c1 = c0 + AX_STREAM_COLS < s->inner ? c0 + AX_STREAM_COLS : s->inner;
        lcse_scalar(s, (double *)s->carry + 4 * (o * s->inner + c0), p->x + at, p->y + at, L,
                    c1 - c0, s->inner);
    }
}

/* ---- a ReduceSum push ---------------------------------------------------- */

typedef struct {
    axial_stream *s;
    const char *x;
    size_t len;                     /* the piece's axis length */
    size_t ntasks;
    axial_reduce_cols_kernel *cols; /* the SIMD order on a SIMD ISA, or NULL */
    axial_reduce_run_kernel *run;   /* the same, rows (inner 1) */
    axial_reduce_acc_kernel *acc;   /* the scalar order (the scalar ISA's), integers */
} axial_red_push;

/* ---- ReduceLogSumExp's state (above, the state's words) ---- */

/* Whether a row among n rows at x holds a NaN in column i (looked at only
 * where a sum turned NaN, or for the rows of a group begun). */
static AXIAL_COLD bool lse_has_nan(const axial_stream *s, const char *x, size_t n, size_t i) {
    for (size_t j = 0; j < n; j++)
        if (isnan(axial__float_at(s->dtype, x, j * s->inner + i)))
            return true;
    return false;
}
/* After the lanes ls took n rows at x (before, with `all`): marks each line
 * or column that holds a NaN (its m NaN, kernels.h), where its sum turned
 * NaN (a NaN or +inf term) or `all`. */
static void lse_mark(const axial_stream *s, double *ls, const char *x, size_t n, bool all) {
    const size_t C = s->C, w = s->inner == 1 ? 16 : s->inner;
    /* the sums' sum, four chains: NaN where one is (each is NaN or >= 0: a
     * state of other values only makes the walk below look) */
    double t[4] = {0, 0, 0, 0};
    size_t l = 0;
    for (; l + 4 <= w; l += 4)
        for (size_t i = 0; i < 4; i++)
            t[i] += ls[C + l + i];
    for (; l < w; l++)
        t[0] += ls[C + l];
    if (!all && !isnan((t[0] + t[1]) + (t[2] + t[3])))
        return;
    if (s->inner == 1 && !isnan(ls[0]) && lse_has_nan(s, x, n, 0))
        ls[0] = NAN;
    for (size_t c = 0; s->inner > 1 && c < s->inner; c++)
        if ((all || isnan(ls[C + c])) && !isnan(ls[c]) && lse_has_nan(s, x, n, c))
            ls[c] = NAN;
}
static void lse_take(const axial_stream *s, double *ls, const char *x, size_t n) {
    s->lrun(x, ls, NULL, n, s->inner, s->inner);
    lse_mark(s, ls, x, n, false);
}
/* The end of a chunk (or a result): acc[0 .. inner) (+)= the state of the
 * lanes ls (left changed) and the np rows begun at pd. */
static void lse_fin(const axial_stream *s, double *ls, const char *pd, size_t np,
                    axial_lse_acc *acc) {
    lse_mark(s, ls, pd, np, true);
    s->lrun(pd, ls, acc, np, s->inner, s->inner);
}

/* The scalar kernels' step of an F64 line, in long double as there, tests
 * included (its state L: m, then s as three doubles, exactly). */
static AXIAL_COLD void lse_step_ld(double *L, double term) { /* (above) */
    long double m = L[0], s = (long double)L[1] + L[2] + L[3];
    AXIAL_LSE_STEP(long double, expl, m, s, (long double)term);
    const long double r = s - (double)s;
    L[0] = (double)m, L[1] = (double)s, L[2] = (double)r, L[3] = (double)(r - (double)r);
}

/* The scalar order: rows [0, m) at x of outer index o into S by the scalar
 * kernel (a term at a time), and, for F64 in the first chunk or without
 * chunks, into L. */
static AXIAL_COLD void lse_scalar_feed(const axial_stream *s, size_t o, const char *x,
                                       size_t m, uint64_t pos) {
    const size_t inner = s->inner;
    if (s->dtype != AXIAL_F64 || s->chunk)
        axial_kernels__scalar.reduce_lse_acc[s->dtype](x, lse_S(s) + o * inner, 1, m, inner);
    const double *xd = (const double *)(const void *)x;
    for (size_t i = 0; s->dtype == AXIAL_F64 && (s->chunk == 0 || pos < s->chunk) && i < inner;
         i++)
        for (size_t j = 0; j < m; j++)
            lse_step_ld(red_A(s) + 4 * (o * inner + i), xd[j * inner + i]);
}

/* A[0 .. P) += the position sums of `rows` super-rows of P elements at x (a
 * multiple of 8), in the SIMD order: the kernel's columns, else generic C. */
static void red_groups(const axial_red_push *p, const char *x, double *A, size_t rows) {
    const axial_stream *s = p->s;
    if (p->run != NULL && s->inner == 1) { /* (P 16: the rows kernel's registers) */
        p->run(x, rows * 16, A);
        return;
    }
    if (p->cols != NULL) {
        p->cols(x, A, rows, s->P, s->P);
        return;
    }
    for (size_t g = 0; g < rows; g += 8)
        for (size_t q = 0; q < s->P; q++)
            A[q] += axial__reduce_tree8(s->dtype, x + g * s->P * s->esize, s->P, 8 * s->P, q);
}

/* out[0 .. inner) = R + the sums of the chunk begun (its positions' sums and
 * the group begun, np elements, folded in halves down to `inner`), for outer
 * index o: what the one call adds for that chunk. */
static void red_fold(const axial_stream *s, size_t o, size_t np, double *out) {
    const size_t P = s->P, inner = s->inner;
    const double *A = red_A(s) + o * P, *R = red_R(s) + o * inner;
    const char *pd = red_pend(s) + o * 8 * P * s->esize;
    if (P == inner) { /* columns: each its own sum */
        for (size_t c = 0; c < inner; c++)
            out[c] = R[c] + (np ? A[c] + axial__reduce_tree8(s->dtype, pd, P, np, c) : A[c]);
        return;
    }
    double a[240]; /* P = lcm(inner, 16) <= 240 */
    for (size_t q = 0; q < P; q++)
        a[q] = np ? A[q] + axial__reduce_tree8(s->dtype, pd, P, np, q) : A[q];
    for (size_t len = P; len > inner; len /= 2)
        for (size_t q = 0; q < len / 2; q++)
            a[q] += a[q + len / 2];
    for (size_t i = 0; i < inner; i++)
        out[i] = R[i] + a[i];
}

/* Rows [j, j + m) of the piece, within one chunk, from row pos of the axis,
 * for outer index o. */
static void red_feed(const axial_red_push *p, size_t o, size_t j, size_t m, uint64_t pos) {
    axial_stream *s = p->s;
    const size_t es = s->esize, inner = s->inner;
    const uint64_t crow = s->chunk ? pos % s->chunk : pos;
    const char *x = p->x + (o * p->len + j) * inner * es;
    if (s->lse && s->order == AXIAL_ORDER_SCALAR) {
        lse_scalar_feed(s, o, x, m, pos);
        return;
    }
    if (s->lse) { /* whole groups of rows through the kernel, the rest kept */
        const size_t U = inner == 1 ? 256 : 16, rb = inner * es, np = lse_nrows(s, crow);
        double *ls = lse_ls(s, o);
        char *pd = red_pend(s) + o * red_pstride(s);
        size_t k = 0;
        if (np > 0) {
            k = U - np < m ? U - np : m;
            memcpy(pd + np * rb, x, k * rb);
            if (np + k < U)
                return;
            lse_take(s, ls, pd, U);
        }
        const size_t whole = (m - k) / U * U;
        if (whole > 0)
            lse_take(s, ls, x + k * rb, whole);
        memcpy(pd, x + (k + whole) * rb, (m - k - whole) * rb);
        return;
    }
    if (s->order != AXIAL_ORDER_SIMD) { /* one sum per output: R (integers), S (scalar) */
        double *sum = s->order == AXIAL_ORDER_EXACT ? red_A(s) : red_R(s) + s->ncarry;
        p->acc(x, sum + o * inner, 1, m, inner);
        return;
    }
    const size_t P = s->P, G = 8 * P, e = m * inner;
    double *A = red_A(s) + o * P;
    char *pd = red_pend(s) + o * G * es;
    size_t np = red_npend(s, crow), k = 0;
    if (np > 0) { /* the group begun */
        k = G - np < e ? G - np : e;
        memcpy(pd + np * es, x, k * es);
        if (np + k < G)
            return;
        red_groups(p, pd, A, 8);
    }
    const size_t whole = (e - k) / G * G;
    if (whole > 0)
        red_groups(p, x + k * es, A, whole / P);
    memcpy(pd, x + (k + whole) * es, (e - k - whole) * es);
}

/* A chunk ends: R += its sum; its sums start again from -0.0 (the log
 * semiring: R (+)= its state; its state starts again empty). */
static AXIAL_COLD void red_close(axial_stream *s, size_t o) {
    const size_t inner = s->inner;
    if (s->lse && s->order == AXIAL_ORDER_SCALAR) {
        axial_lse_acc *S = lse_S(s) + o * inner;
        for (size_t i = 0; i < inner; i++) {
            axial_lse_add(&S[s->ncarry + i], S[i].m, S[i].s);
            S[i] = AXIAL_LSE_EMPTY;
        }
        return;
    }
    if (s->lse) {
        double *ls = lse_ls(s, o);
        lse_fin(s, ls, red_pend(s) + o * red_pstride(s), lse_nrows(s, s->chunk), lse_R(s, o));
        lse_lanes_empty(s, ls);
        return;
    }
    if (s->order == AXIAL_ORDER_SCALAR) {
        double *R = red_R(s) + o * inner, *S = R + s->ncarry;
        for (size_t i = 0; i < inner; i++)
            R[i] += S[i], S[i] = -0.0;
        return;
    }
    red_fold(s, o, red_npend(s, s->chunk), red_R(s) + o * inner);
    double *A = red_A(s) + o * s->P;
    for (size_t q = 0; q < s->P; q++)
        A[q] = -0.0;
}

static void red_task(void *arg, size_t t) {
    const axial_red_push *p = arg;
    axial_stream *s = p->s;
    size_t b, e;
    axial__task_range(s->outer, p->ntasks, t, &b, &e);
    for (size_t o = b; o < e; o++) {
        uint64_t pos = s->pos;
        for (size_t j = 0; j < p->len;) {
            const uint64_t crow = s->chunk ? pos % s->chunk : pos;
            size_t m = p->len - j;
            if (s->chunk && m > s->chunk - crow)
                m = (size_t)(s->chunk - crow);
            red_feed(p, o, j, m, pos);
            j += m;
            pos += m;
            if (s->chunk && pos % s->chunk == 0)
                red_close(s, o);
        }
    }
}

static void red_push(axial_stream *s, const void *x, size_t len, const axial_executor *exec) {
    const struct axial_kernels *kt = axial__kernels();
    axial_red_push p = {s, x, len, 1, NULL, NULL, kt->reduce_acc[s->dtype]};
    if (s->lse) /* (its own kernel, that of the ISA at create) */
        p.acc = NULL;
    if (s->order == AXIAL_ORDER_SIMD && axial_isa_active() != AXIAL_ISA_SCALAR)
        p.cols = kt->reduce_cols[s->dtype], p.run = kt->reduce_run[s->dtype];
    if (s->order == AXIAL_ORDER_SCALAR)
        p.acc = axial_kernels__scalar.reduce_acc[s->dtype];
    if (exec != NULL)
        p.ntasks = axial__ntasks(s->outer, len * s->inner * s->esize,
                                 s->lse ? AXIAL_LSE_THRESHOLD : AXIAL_REDUCE_THRESHOLD);
    axial__run(exec, p.ntasks, red_task, &p);
}

/* ReduceLogSumExp's result: per output R (+) the chunk begun, rounded (-inf
 * before any piece; after one row, that row, as the one call copies it). */
static AXIAL_COLD void lse_result(const axial_stream *s, axial_lse_acc *w, void *y) {
    const size_t n = s->ncarry;
    for (size_t k = 0; s->pos == 1 && k < n; k++) { /* (the scalar order: its m is the term) */
        if (s->order == AXIAL_ORDER_SIMD)
            memcpy((char *)y + k * s->esize, red_pend(s) + k / s->inner * red_pstride(s) +
                                                 k % s->inner * s->esize, s->esize);
        else
            axial__float_put(s->dtype, y, k,
                             s->dtype == AXIAL_F64 ? red_A(s)[4 * k] : lse_S(s)[k].m);
    }
    if (s->pos == 1)
        return;
    const axial_lse_acc *S = lse_S(s);
    for (size_t i = 0; s->order == AXIAL_ORDER_SCALAR && i < n; i++) {
        w[i] = S[n + i];
        axial_lse_add(&w[i], S[i].m, S[i].s);
    }
    double *copy = (double *)(w + n);
    for (size_t o = 0; s->order == AXIAL_ORDER_SIMD && o < s->outer; o++) {
        const double *ls = lse_ls(s, o);
        memcpy(copy, ls, 2 * s->C * sizeof *copy);
        memcpy(w + o * s->inner, lse_R(s, o), s->inner * sizeof *w);
        lse_fin(s, copy, red_pend(s) + o * red_pstride(s),
                lse_nrows(s, s->chunk ? s->pos % s->chunk : s->pos), w + o * s->inner);
    }
    axial__kernels()->reduce_lse_finish[s->dtype](w, y, n);
    if (s->order == AXIAL_ORDER_SCALAR && s->dtype == AXIAL_F64 &&
        (s->chunk == 0 || s->pos <= s->chunk))
        for (size_t i = 0; i < n; i++) /* the scalar kernels' long double line */
            ((double *)y)[i] = lcse_value(s, red_A(s) + 4 * i);
}

axial_status axial_stream_result(axial_stream *s, void *y) {
    static const char fn[] = "axial_stream_result";
    if (s == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: stream is NULL", fn);
    if (!s->red)
        return axial__fail(AXIAL_E_ARGS, "%s: a CumSum stream writes its outputs at each push; "
                           "only a reduction's stream has a result", fn);
    if (s->ncarry == 0)
        return AXIAL_OK;
    if (y == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: y is NULL (%zu outputs)", fn, s->ncarry);
    if (s->pos == 0 && !s->lse) { /* the empty sum: +0 (all-zero bits in every dtype) */
        memset(y, 0, s->ncarry * s->esize);
        return AXIAL_OK;
    }
    double *w = red_scratch(s);
    if (s->lse) {
        lse_result(s, (axial_lse_acc *)(void *)w, y);
        return AXIAL_OK;
    }
    if (s->order == AXIAL_ORDER_EXACT)
        memcpy(w, red_A(s), s->ncarry * 8);
    else if (s->order == AXIAL_ORDER_SCALAR)
        for (size_t i = 0; i < s->ncarry; i++)
            w[i] = red_R(s)[i] + red_R(s)[s->ncarry + i];
    else
        for (size_t o = 0; o < s->outer; o++)
            red_fold(s, o, red_npend_at(s, s->pos), w + o * s->inner);
    axial__kernels()->reduce_finish[s->dtype](w, y, s->ncarry);
    return AXIAL_OK;
}

/* The piece belongs to the stream: its dtype, rank and every dimension but
 * the axis; returns its axis length. */
static axial_status push_check(const char *fn, const axial_stream *s, axial_dtype dtype,
                               const void *x, const void *y, size_t rank, const int64_t *shape,
                               size_t *len) {
    if (s == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: stream is NULL", fn);
    if (dtype != s->dtype)
        return axial__fail(AXIAL_E_ARGS, "%s: the piece's dtype %d is not the stream's %d", fn,
                           (int)dtype, (int)s->dtype);
    if (rank != s->rank)
        return axial__fail(AXIAL_E_ARGS, "%s: the piece's rank %zu is not the stream's %zu", fn,
                           rank, s->rank);
    if (shape == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: shape is NULL (rank %zu)", fn, rank);
    for (size_t d = 0; d < rank; d++)
        if (d != s->axis && shape[d] != s->shape[d])
            return axial__fail(AXIAL_E_ARGS,
                               "%s: the piece's dimension %zu is %lld, the stream's is %lld "
                               "(only axis %zu may differ)",
                               fn, d, (long long)shape[d], (long long)s->shape[d], s->axis);
    size_t count;
    axial_status st = axial__check_shape(fn, rank, shape, s->esize, &count);
    if (st == AXIAL_OK && s->red && y != NULL)
        st = axial__fail(AXIAL_E_ARGS, "%s: y is %p; a reduction's stream writes nothing at a push "
                         "(its value: axial_stream_result), so y must be NULL", fn, y);
    else if (st == AXIAL_OK && s->red && x == NULL && count > 0)
        st = axial__fail(AXIAL_E_NULL, "%s: x is NULL (%zu elements)", fn, count);
    else if (st == AXIAL_OK && !s->red)
        st = axial__check_buffers(fn, x, count * s->esize, y, count * s->esize, true);
    if (st == AXIAL_OK && (uint64_t)shape[s->axis] > (uint64_t)INT64_MAX - s->pos)
        st = axial__fail(AXIAL_E_SHAPE, "%s: %lld more elements after %llu pass INT64_MAX, the "
                         "most axial_stream_length reports", fn, (long long)shape[s->axis],
                         (unsigned long long)s->pos);
    *len = (size_t)shape[s->axis];
    return st;
}

axial_status axial_stream_push_ex(axial_stream *s, axial_dtype dtype, const void *x, void *y,
                                  size_t rank, const int64_t *shape,
                                  const axial_executor *exec) {
    static const char fn[] = "axial_stream_push";
    size_t len = 0;
    axial_status st = push_check(fn, s, dtype, x, y, rank, shape, &len);
    if (st == AXIAL_OK)
        st = axial__check_exec(fn, exec);
    if (st != AXIAL_OK)
        return st;
    if (len == 0)
        return AXIAL_OK;
    if (s->ncarry == 0) { /* another dimension is 0: nothing to read or write */
        s->pos += len;
        return AXIAL_OK;
    }
    if (s->red) {
        red_push(s, x, len, exec);
        s->pos += len;
        return AXIAL_OK;
    }
    const bool simd_isa = axial_isa_active() != AXIAL_ISA_SCALAR;
    axial_push p = {s, axial__kernels(), x, y, len, 1, 0, NULL,
                    s->order == AXIAL_ORDER_SIMD && simd_isa};
    if (s->lcse) { /* units: lines, or an outer index's groups of columns */
        p.units = s->lcrun || s->lccols ? s->outer
                                        : s->outer * ((s->inner - 1) / AX_STREAM_COLS + 1);
        if (exec != NULL)
            p.ntasks = axial__ntasks(p.units, len * s->esize * (s->lccols || s->inner < AX_STREAM_COLS
                                                                    ? s->inner : AX_STREAM_COLS),
                                     AXIAL_LSE_THRESHOLD);
        axial__run(exec, p.ntasks, lcse_task, &p);
        s->pos += len;
        return AXIAL_OK;
    }
    if (!s->lines && s->order != AXIAL_ORDER_EXACT && simd_isa)
        p.cols_run = p.kt->cumsum_cols_run[s->dtype]; /* the columns' order is every ISA's */
    if (s->lines)
        p.units = s->outer;
    else
        p.units = s->outer * ((s->inner - 1) / AX_STREAM_COLS + 1);
    if (exec != NULL)
        p.ntasks = axial__ntasks(p.units, len * s->esize * (s->inner < AX_STREAM_COLS ? s->inner
                                                            : AX_STREAM_COLS), /* a unit's bytes */
                                 AXIAL_CUMSUM_THRESHOLD);
    axial__run(exec, p.ntasks, push_task, &p);
    s->pos += len;
    return AXIAL_OK;
}

axial_status axial_stream_push(axial_stream *s, axial_dtype dtype, const void *x, void *y,
                               size_t rank, const int64_t *shape) {
    return axial_stream_push_ex(s, dtype, x, y, rank, shape, NULL);
}

/* ---- the state as bytes -------------------------------------------------
 * Little-endian:
 *    0  "AXST"
 *    4  u32 format (AXIAL_BYTES_FORMAT)
 *    8  u32 AXIAL_VERSION of the library that wrote it
 *   12  u8 op, u8 dtype, u8 flags, u8 order
 *   16  u8 rank, u8 axis, 6 bytes 0
 *   24  u64 elements taken
 *   32  i64 shape[rank] (the axis: 0)
 *       per carry: float lines R, D, S and 16 pending values (19 f64);
 *       float columns the f64 sum; integers the u64 sum
 *  end  u64 FNV-1a of every byte before it
 */
size_t axial_stream_state_size(const axial_stream *s) {
    if (s == NULL)
        return 0;
    if (s->red)
        return AX_ST_HEAD + 8 * s->rank + 8 * red_bytes_words(s, s->order, s->pos) + 8;
    if (s->lcse)
        return AX_ST_HEAD + 8 * s->rank + 8 * lcse_words(s) + 8;
    return AX_ST_HEAD + 8 * s->rank + s->ncarry * (s->lines ? 19 * 8 : 8) + 8;
}

axial_status axial_stream_export(const axial_stream *s, void *buf, size_t cap) {
    static const char fn[] = "axial_stream_export";
    if (s == NULL || buf == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: %s is NULL", fn, s == NULL ? "stream" : "buf");
    const size_t size = axial_stream_state_size(s);
    if (cap < size)
        return axial__fail(AXIAL_E_ARGS, "%s: cap %zu is below the state's %zu bytes", fn, cap,
                           size);
    unsigned char *b = buf;
    axial__put_head(b, "AXST", AX_ST_HEAD, s->op, s->dtype, s->flags,
                    s->lse || s->lcse ? AXIAL_ORDER_ISA + (int)s->isa : s->order, s->rank,
                    s->axis);
    axial__put64(b + 24, s->pos);
    unsigned char *w = b + AX_ST_HEAD;
    for (size_t d = 0; d < s->rank; d++, w += 8)
        axial__put64(w, (uint64_t)s->shape[d]);
    if (s->lcse) {
        words_out(w, s->carry, lcse_words(s));
        w += 8 * lcse_words(s);
    } else if (s->red && s->order != AXIAL_ORDER_SIMD) {
        words_out(w, s->carry, red_words(s, s->order));
        w += 8 * red_words(s, s->order);
    } else if (s->red) { /* A and R, then each group begun's elements taken, packed */
        const size_t head = red_head(s), es = s->esize;
        const size_t np = red_npend_at(s, s->pos), nw = red_bytes_words(s, s->order, s->pos);
        words_out(w, s->carry, head);
        memset(w + 8 * head, 0, 8 * (nw - head));
        for (size_t o = 0; o < s->outer; o++)
            memcpy(w + 8 * head + o * np * es, red_pend(s) + o * red_pstride(s), np * es);
        w += 8 * nw;
    } else if (s->lines) {
        const axial_line_carry *c = s->carry;
        for (size_t i = 0; i < s->ncarry; i++) {
            axial__putd(w, c[i].R);
            axial__putd(w + 8, c[i].D);
            axial__putd(w + 16, c[i].S);
            w += 24;
            for (int j = 0; j < 16; j++, w += 8)
                axial__putd(w, c[i].pend[j]);
        }
    } else {
        words_out(w, s->carry, s->ncarry);
        w += 8 * s->ncarry;
    }
    axial__put64(w, axial__fnv1a(b, (size_t)(w - b)));
    return AXIAL_OK;
}

axial_status axial_stream_import(axial_stream *s, const void *buf, size_t size) {
    static const char fn[] = "axial_stream_import";
    if (s == NULL || buf == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: %s is NULL", fn, s == NULL ? "stream" : "buf");
    const unsigned char *b = buf;
    const size_t want = axial_stream_state_size(s);
    axial_status st;
    if (size < AX_ST_HEAD || memcmp(b, "AXST", 4) != 0)
        return axial__fail(AXIAL_E_ARGS, "%s: %zu bytes are not a stream state (no AXST header)",
                           fn, size);
    const unsigned format = (unsigned)(axial__get64(b + 4) & 0xffffffffu);
    if (format != AXIAL_BYTES_FORMAT)
        return axial__fail(AXIAL_E_ARGS, "%s: format %u, this library reads format %u", fn,
                           format, AXIAL_BYTES_FORMAT);
    if ((st = axial__check_writer(fn, "the state", b, 18)) != AXIAL_OK)
        return st;
    if (b[12] != (unsigned)s->op || b[13] != (unsigned)s->dtype || b[14] != s->flags)
        return axial__fail(AXIAL_E_ARGS,
                           "%s: the state is of op %u, dtype %u, flags 0x%x; the stream's are "
                           "%d, %d, 0x%x",
                           fn, b[12], b[13], b[14], (int)s->op, (int)s->dtype, s->flags);
    if (b[16] != s->rank || b[17] != s->axis)
        return axial__fail(AXIAL_E_ARGS,
                           "%s: the state is of rank %u axis %u; the stream's %zu axis %zu", fn,
                           b[16], b[17], s->rank, s->axis);
    int order = b[15];
    const bool is_float = s->order != AXIAL_ORDER_EXACT;
    const bool isa_bound = s->lse || s->lcse;
    if (isa_bound && order != AXIAL_ORDER_ISA + (int)s->isa)
        return axial__fail(AXIAL_E_ARGS, "%s: the state follows the order of ISA %d (%s), this "
                           "stream that of %s: each ISA gives log-space bits of its own",
                           fn, order - AXIAL_ORDER_ISA,
                           order >= AXIAL_ORDER_ISA
                               ? axial_isa_name((axial_isa)(order - AXIAL_ORDER_ISA))
                               : "none",
                           axial_isa_name((axial_isa)s->isa));
    if (isa_bound)
        order = s->order;
    else if (is_float ? (order != AXIAL_ORDER_SCALAR && order != AXIAL_ORDER_SIMD)
                      : order != AXIAL_ORDER_EXACT)
        return axial__fail(AXIAL_E_ARGS, "%s: order %d is not one of this dtype's", fn, order);
    /* (a reduction's state size depends on its order and length) */
    const uint64_t pos = axial__get64(b + 24);
    const size_t want_o =
        s->red ? AX_ST_HEAD + 8 * s->rank + 8 * red_bytes_words(s, order, pos) + 8 : want;
    if (size != want_o)
        return axial__fail(AXIAL_E_ARGS, "%s: %zu bytes, the stream's state has %zu", fn, size,
                           want_o);
    for (size_t d = 0; d < s->rank; d++)
        if ((int64_t)axial__get64(b + AX_ST_HEAD + 8 * d) != s->shape[d])
            return axial__fail(AXIAL_E_ARGS,
                               "%s: the state's dimension %zu is %lld, the stream's %lld", fn, d,
                               (long long)axial__get64(b + AX_ST_HEAD + 8 * d),
                               (long long)s->shape[d]);
    const uint64_t sum = axial__get64(b + size - 8);
    if (sum != axial__fnv1a(b, size - 8))
        return axial__fail(AXIAL_E_ARGS, "%s: checksum 0x%016llx does not match the bytes "
                           "(corrupted)", fn, (unsigned long long)sum);
    if (pos > (uint64_t)INT64_MAX)
        return axial__fail(AXIAL_E_ARGS, "%s: the state has taken %llu elements, past INT64_MAX "
                           "(corrupted)", fn, (unsigned long long)pos);
    /* every check passed: the stream changes */
    s->order = order;
    s->pos = pos;
    const unsigned char *r = b + AX_ST_HEAD + 8 * s->rank;
    if (s->lcse) {
        words_in(s->carry, r, lcse_words(s));
    } else if (s->red && order != AXIAL_ORDER_SIMD) {
        words_in(s->carry, r, red_words(s, order));
    } else if (s->red) {
        const size_t head = red_head(s), es = s->esize, np = red_npend_at(s, pos);
        words_in(s->carry, r, head);
        for (size_t o = 0; o < s->outer; o++)
            memcpy(red_pend(s) + o * red_pstride(s), r + 8 * head + o * np * es, np * es);
    } else if (s->lines) {
        axial_line_carry *c = s->carry;
        for (size_t i = 0; i < s->ncarry; i++) {
            c[i].R = axial__getd(r);
            c[i].D = axial__getd(r + 8);
            c[i].S = axial__getd(r + 16);
            r += 24;
            for (int j = 0; j < 16; j++, r += 8)
                c[i].pend[j] = axial__getd(r);
        }
    } else {
        words_in(s->carry, r, s->ncarry);
    }
    return AXIAL_OK;
}
