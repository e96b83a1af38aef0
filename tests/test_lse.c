/* SPDX-License-Identifier: MIT */
/*
 * test_lse.c: LogCumSumExp and ReduceLogSumExp (docs/API.md, section 15) on
 * every ISA, against the long-double oracle of oracle.c (max first, then the
 * sum of expl(x - max), then logl: not the kernels' online rescaling).
 *
 * Every output is checked against the accuracy bound of the contract, with
 * y* the oracle's value and n the output's number of terms:
 *   f32, f16, bf16: |y - y*| <= ulp_T(y*) + 4 * 2^-24 * (|y*| + ln n + 4)
 *   f64:            |y - y*| <= 2^-53 * (4 |y*| + 4 ln n + 16 + n)
 * (the oracle's own error, about (|y*| + n) 2^-63, is 2^-10 of the f64 bound
 * and far less of the others'), and the special values exactly: a NaN
 * output where the terms hold a NaN, +inf where they hold +inf and no NaN,
 * -inf where they hold no finite term (an exclusive scan's first output, a
 * reduced axis of length 0).  Each test notes the worst error it saw as a
 * fraction of the bound, per op and type.
 *
 * The cases: the examples of the contract ([0, 0, 0] under the four scan
 * flags, a reduction with keep_dims, the special-value rules one by one,
 * written out by hand, not from the oracle); random shapes, axes and flags
 * of every float type (cases.h's ax_rand_shape / ax_rand_axes, in place too); the
 * kernel-shape families of cases.c (rows, short rows, columns, 3-D and
 * several-axes reductions around every vector width); long lines across the
 * reduction planner's 64 KiB chunks (8192 f64, 16384 f32, 32768 f16/bf16
 * terms); special values placed first, last and inside lines of every
 * width; lines of three 16384-element chunks and a bit with -inf, +inf,
 * NaN, ramps and jumps placed against the chunk boundaries of LogCumSumExp's
 * split along a line, `_ex` on a pool against the plain call bit for bit
 * (lse_chunks); empty axes under both conventions, length-0 reduced axes, rank 0
 * (a copy, bit for bit); rising and falling ramps and saw teeth (a new
 * maximum at every step: the rescale path); huge magnitudes (f32 +-80,
 * +-100 where exp overflows f32, +-1e30, near FLT_MAX; f64 +-700, 710,
 * +-1e300; f16 +-60000); and the measured targets (ReduceLogSumExp of
 * N(0, 16) f32 within 1 ulp of the correctly rounded value; LogCumSumExp of
 * f32 zeros within the bound at every output; and LogCumSumExp of N(0, 16)
 * f32 within the bound, which an f32 running sum of the exp terms fails) at
 * 2^20 (2^18) on every run and at the target's 2^24 where AXIAL_TEST_BIG is
 * not 0 (qemu runs).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "harness.h"
#include "oracle.h"
#include "tests.h"

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* ---- the bound and the comparison --------------------------------------------- */

static long double lse_bound(axial_dtype dt, long double y, size_t n) {
    long double ln = n > 1 ? logl((long double)n) : 0.0L;
    if (dt == AXIAL_F64) return 0x1p-53L * (4 * fabsl(y) + 4 * ln + 16 + (long double)n);
    return or_ulp(dt, y) + 4 * 0x1p-24L * (fabsl(y) + ln + 4);
}

enum { OP_SCAN, OP_REDUCE };
static const char *const op_name[2] = {"logcumsumexp", "reduce_logsumexp"};

/* The worst error / bound per op and type seen by the current test. */
static struct {
    double ratio;
    char what[400];
} worst[2][AXIAL_BF16 + 1];

static void note_worst(ax_t *t) {
    for (int op = 0; op < 2; op++)
        for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
            axial_dtype dt = ax_float_types[d];
            if (worst[op][dt].ratio > 0)
                ax_note(t, "%s %s: worst error %.3f of the bound (%s)", op_name[op],
                        ax_dtype_str(dt), worst[op][dt].ratio, worst[op][dt].what);
            worst[op][dt].ratio = 0;
        }
}

/* Output k of `got` against exact[k] (terms[k] terms, or all_terms). */
static bool lse_ok(axial_dtype dt, const void *got, size_t k, long double e, size_t n,
                   long double *err_out, long double *bound_out) {
    long double y = or_get_f(dt, got, k);
    *err_out = *bound_out = 0;
    if (isnan(e)) return isnan(y);
    if (isinf(e)) return y == e;
    *bound_out = lse_bound(dt, e, n);
    *err_out = fabsl(y - e);
    return *err_out <= *bound_out; /* false for NaN and inf outputs */
}

static bool lse_compare(ax_t *t, int op, axial_dtype dt, const void *got,
                        const long double *exact, const size_t *terms, size_t all_terms,
                        size_t count, const char *what) {
    for (size_t k = 0; k < count; k++) {
        size_t n = terms ? terms[k] : all_terms;
        long double err, bound;
        if (!lse_ok(dt, got, k, exact[k], n, &err, &bound))
            return AX_CHECK(t, false,
                            "%s: element %zu of %zu is %.17Lg, exact %.21Lg (%zu terms): "
                            "error %.3Lg, bound %.3Lg",
                            what, k, count, or_get_f(dt, got, k), exact[k], n, err, bound);
        double r = bound > 0 ? (double)(err / bound) : 0.0;
        if (r > worst[op][dt].ratio) {
            worst[op][dt].ratio = r;
            snprintf(worst[op][dt].what, sizeof worst[op][dt].what, "%s, element %zu", what, k);
        }
    }
    return AX_CHECK(t, true, "%s", what);
}

/* The oracle and the checks hold infinities and NaNs in long double.
 * valgrind's x87 emulation (64-bit doubles inside) does not keep them (an f32
 * -inf read as long double becomes the finite -1.19e4932): there these tests
 * report a skip, never a pass; ASan runs them instead. */
static bool ld_specials_or_skip(ax_t *t) {
    volatile float pinf = INFINITY, qnan = NAN;
    const long double a = -(long double)pinf, b = (long double)qnan;
    if (isinf(a) && a < 0 && isnan(b) && a + 1.0L == a) return true;
    ax_skip(t, "long double infinities and NaNs are not IEEE here (valgrind's x87 "
            "emulation?): -inf reads as %Lg", a);
    return false;
}

/* The share of the sampled cases run: all of them where long double is the
 * x87's 64-bit format, a third where it is IEEE quad in software (aarch64:
 * expl and logl cost far more, and the whole suite runs there under qemu).
 * AXIAL_TEST_SCALE raises both. */
static double ld_share(void) { return LDBL_MANT_DIG > 64 ? 0.35 : 1.0; }

/* ---- one call against the oracle ------------------------------------------------- */

/* data (count values, stored rounded to dt) replaces the filled input when
 * not NULL. */
static void scan_data(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape, int64_t axis,
                      unsigned flags, enum fill mode, bool inplace, const long double *data) {
    size_t count = or_count(rank, shape);
    io_case io;
    io_begin(t, &io, dt, count, count, mode, inplace);
    if (data)
        for (size_t i = 0; i < count; i++) or_set_f(dt, io.x.p, i, data[i]);
    long double *exact = malloc((count + 1) * sizeof *exact);
    size_t *terms = malloc((count + 1) * sizeof *terms);
    if (!exact || !terms) abort();
    size_t norm = (size_t)(axis < 0 ? axis + (int64_t)rank : axis);
    or_logcumsumexp_exact(dt, io.x.p, exact, terms, rank, shape, norm, flags & 1, flags & 2);
    io_ready(&io);
    char sh[160], what[320];
    snprintf(what, sizeof what, "logcumsumexp %s %s axis %lld flags %u%s (misalign %zu/%zu)",
             ax_dtype_str(dt), ax_shape_str(sh, sizeof sh, rank, shape), (long long)axis,
             flags, inplace ? " in place" : "", io.x.misalign, io.y.misalign);
    axial_status st = axial_logcumsumexp(dt, io.src, io.y.p, rank, shape, axis, flags);
    if (io_called(t, &io, st, what))
        lse_compare(t, OP_SCAN, dt, io.y.p, exact, terms, 0, count, what);
    free(exact);
    free(terms);
    io_free(&io);
}

static void scan_case(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape, int64_t axis,
                      unsigned flags, enum fill mode, bool inplace) {
    scan_data(t, dt, rank, shape, axis, flags, mode, inplace, NULL);
}

static void reduce_data(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape,
                        const int64_t *axes, size_t naxes, unsigned flags, enum fill mode,
                        const long double *data) {
    size_t count = or_count(rank, shape), orank = 0, lrank = 99;
    bool keep = flags & AXIAL_REDUCE_KEEP_DIMS, all = flags & AXIAL_REDUCE_EMPTY_AXES_ALL;
    int64_t oshape[AXIAL_MAX_RANK], lshape[AXIAL_MAX_RANK];
    or_reduce(dt, NULL, NULL, rank, shape, axes, naxes, keep, all, &orank, oshape);
    size_t ocount = or_count(orank, oshape);
    char sh[160], ax[160], what[400];
    snprintf(what, sizeof what, "reduce_logsumexp %s %s axes %s flags %u", ax_dtype_str(dt),
             ax_shape_str(sh, sizeof sh, rank, shape), ax_shape_str(ax, sizeof ax, naxes, axes),
             flags);
    axial_status st = axial_reduce_sum_shape(rank, shape, axes, naxes, flags, &lrank, lshape);
    AX_CHECK(t, st == AXIAL_OK && lrank == orank && !memcmp(lshape, oshape, orank * 8),
             "%s: output shape (status %s, rank %zu, want %zu)", what, axial_status_name(st),
             lrank, orank);
    io_case io;
    io_begin(t, &io, dt, count, ocount, mode, false);
    if (data)
        for (size_t i = 0; i < count; i++) or_set_f(dt, io.x.p, i, data[i]);
    long double *exact = malloc((ocount + 1) * sizeof *exact);
    if (!exact) abort();
    size_t terms = or_reduce_lse_exact(dt, io.x.p, exact, rank, shape, axes, naxes, keep, all,
                                       &orank, oshape);
    io_ready(&io);
    st = axial_reduce_logsumexp(dt, io.x.p, io.y.p, rank, shape, axes, naxes, flags);
    if (io_called(t, &io, st, what))
        lse_compare(t, OP_REDUCE, dt, io.y.p, exact, NULL, terms, ocount, what);
    free(exact);
    io_free(&io);
}

static void reduce_case_lse(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape,
                            const int64_t *axes, size_t naxes, unsigned flags, enum fill mode) {
    reduce_data(t, dt, rank, shape, axes, naxes, flags, mode, NULL);
}

/* ---- the contract's examples and rules, written out ---------------------------------- */

#define NI ((long double)NAN)
#define PI ((long double)INFINITY)
#define MI (-(long double)INFINITY)

/* A 1-D scan of x (n <= 8) under flags against want, every float type;
 * NaN wants NaN, infinities themselves, finite values within the bound. */
static void scan_expect(ax_t *t, const char *label, size_t n, const long double *x,
                        unsigned flags, const long double *want) {
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        axial_dtype dt = ax_float_types[d];
        unsigned char xb[64], yb[64];
        memset(yb, 0x5a, sizeof yb);
        for (size_t i = 0; i < n; i++) or_set_f(dt, xb, i, x[i]);
        const int64_t shape[1] = {(int64_t)n};
        axial_status st = axial_logcumsumexp(dt, xb, yb, 1, shape, 0, flags);
        if (!AX_CHECK(t, st == AXIAL_OK, "%s %s flags %u: %s", label, ax_dtype_str(dt), flags,
                      axial_status_name(st)))
            continue;
        for (size_t i = 0; i < n; i++) {
            size_t terms = (flags & AXIAL_CUMSUM_REVERSE) ? n - i : i + 1;
            if (flags & AXIAL_CUMSUM_EXCLUSIVE) terms--;
            long double err, bound;
            AX_CHECK(t, lse_ok(dt, yb, i, want[i], terms, &err, &bound),
                     "%s %s flags %u: y[%zu] = %.17Lg, want %.17Lg", label, ax_dtype_str(dt),
                     flags, i, or_get_f(dt, yb, i), want[i]);
        }
        AX_CHECK(t, yb[n * ax_dtype_size(dt)] == 0x5a, "%s %s: wrote past the output", label,
                 ax_dtype_str(dt));
    }
}

/* The same for a full reduction of x (n terms) to one value. */
static void reduce_expect(ax_t *t, const char *label, size_t n, const long double *x,
                          long double want) {
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        axial_dtype dt = ax_float_types[d];
        unsigned char xb[64], yb[16];
        memset(yb, 0x5a, sizeof yb);
        for (size_t i = 0; i < n; i++) or_set_f(dt, xb, i, x[i]);
        const int64_t shape[1] = {(int64_t)n}, ax0[1] = {0};
        axial_status st = axial_reduce_logsumexp(dt, xb, yb, 1, shape, ax0, 1, 0);
        long double err, bound;
        AX_CHECK(t, st == AXIAL_OK && lse_ok(dt, yb, 0, want, n, &err, &bound),
                 "%s %s: %s, y = %.17Lg, want %.17Lg", label, ax_dtype_str(dt),
                 axial_status_name(st), or_get_f(dt, yb, 0), want);
        AX_CHECK(t, yb[ax_dtype_size(dt)] == 0x5a, "%s %s: wrote past the output", label,
                 ax_dtype_str(dt));
    }
}

void t_lse_seeds(ax_t *t) {
    if (!ld_specials_or_skip(t)) return;
    const long double l2 = logl(2.0L), l3 = logl(3.0L);
    const long double z3[3] = {0, 0, 0};
    /* the contract's four examples */
    scan_expect(t, "[0,0,0]", 3, z3, 0, (const long double[]){0, l2, l3});
    scan_expect(t, "[0,0,0]", 3, z3, 1, (const long double[]){MI, 0, l2});
    scan_expect(t, "[0,0,0]", 3, z3, 2, (const long double[]){l3, l2, 0});
    scan_expect(t, "[0,0,0]", 3, z3, 3, (const long double[]){l2, 0, MI});
    /* log(e^1 + e^2 + e^3) = 3 + log(1 + e^-1 + e^-2) */
    const long double r[3] = {1, 2, 3};
    scan_expect(t, "[1,2,3]", 3, r, 0,
                (const long double[]){1, 2 + log1pl(expl(-1)), 3 + logl(1 + expl(-1) + expl(-2))});
    scan_expect(t, "[1,2,3]", 3, r, 3,
                (const long double[]){3 + log1pl(expl(-1)), 3, MI});
    /* the special-value rules, one by one */
    scan_expect(t, "NaN first", 3, (const long double[]){NI, 0, 1}, 0,
                (const long double[]){NI, NI, NI});
    scan_expect(t, "NaN last, reverse", 3, (const long double[]){0, 1, NI}, 2,
                (const long double[]){NI, NI, NI});
    scan_expect(t, "NaN last, exclusive", 3, (const long double[]){0, 0, NI}, 1,
                (const long double[]){MI, 0, l2});
    scan_expect(t, "NaN inside", 4, (const long double[]){0, NI, 0, PI}, 0,
                (const long double[]){0, NI, NI, NI});
    scan_expect(t, "NaN after +inf", 3, (const long double[]){PI, 0, NI}, 0,
                (const long double[]){PI, PI, NI});
    scan_expect(t, "+inf after NaN", 3, (const long double[]){NI, PI, 0}, 0,
                (const long double[]){NI, NI, NI});
    scan_expect(t, "+inf", 4, (const long double[]){0, PI, MI, 5}, 0,
                (const long double[]){0, PI, PI, PI});
    scan_expect(t, "+inf, exclusive", 3, (const long double[]){PI, 0, 0}, 1,
                (const long double[]){MI, PI, PI});
    scan_expect(t, "-inf terms", 5, (const long double[]){MI, 0, MI, 0, MI}, 0,
                (const long double[]){MI, 0, 0, l2, l2});
    scan_expect(t, "all -inf", 4, (const long double[]){MI, MI, MI, MI}, 0,
                (const long double[]){MI, MI, MI, MI});
    scan_expect(t, "all -inf, exclusive reverse", 3, (const long double[]){MI, MI, MI}, 3,
                (const long double[]){MI, MI, MI});
    scan_expect(t, "-inf then finite", 4, (const long double[]){MI, MI, -3, -3}, 0,
                (const long double[]){MI, MI, -3, -3 + l2});
    scan_expect(t, "-inf then +inf", 3, (const long double[]){MI, PI, MI}, 0,
                (const long double[]){MI, PI, PI});
    scan_expect(t, "one element", 1, (const long double[]){-7.5}, 0,
                (const long double[]){-7.5});
    scan_expect(t, "one element, exclusive", 1, (const long double[]){-7.5}, 1,
                (const long double[]){MI});

    reduce_expect(t, "[0,0,0,0]", 4, (const long double[]){0, 0, 0, 0}, logl(4.0L));
    reduce_expect(t, "[1,2,3]", 3, r, 3 + logl(1 + expl(-1) + expl(-2)));
    reduce_expect(t, "NaN first", 3, (const long double[]){NI, 0, PI}, NI);
    reduce_expect(t, "NaN last", 3, (const long double[]){PI, 0, NI}, NI);
    reduce_expect(t, "+inf", 3, (const long double[]){MI, PI, 0}, PI);
    reduce_expect(t, "all -inf", 5, (const long double[]){MI, MI, MI, MI, MI}, MI);
    reduce_expect(t, "-inf terms", 4, (const long double[]){MI, -1, MI, -1}, -1 + l2);
    reduce_expect(t, "100 (exp overflows f32)", 2, (const long double[]){100, 100}, 100 + l2);
    reduce_expect(t, "-100", 2, (const long double[]){-100, -100}, -100 + l2);

    /* ONNX's ReduceLogSumExp example: shape [3, 2, 2], axes [1], keepdims */
    const long double ox[12] = {5, 1, 20, 2, 30, 1, 40, 2, 55, 1, 60, 2};
    const int64_t oshape[3] = {3, 2, 2}, ax1[1] = {1}, axm2[1] = {-2};
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        axial_dtype dt = ax_float_types[d];
        unsigned char xb[96], yb[64];
        for (size_t i = 0; i < 12; i++) or_set_f(dt, xb, i, ox[i]);
        for (int k = 0; k < 2; k++) {
            memset(yb, 0x5a, sizeof yb);
            axial_status st = axial_reduce_logsumexp(dt, xb, yb, 3, oshape, k ? axm2 : ax1, 1,
                                                     AXIAL_REDUCE_KEEP_DIMS);
            AX_CHECK(t, st == AXIAL_OK, "ONNX example %s: %s", ax_dtype_str(dt),
                     axial_status_name(st));
            for (int o = 0; o < 3; o++)
                for (int c = 0; c < 2; c++) {
                    long double a = or_get_f(dt, xb, (size_t)(o * 4 + c)),
                                b = or_get_f(dt, xb, (size_t)(o * 4 + 2 + c));
                    long double hi = a > b ? a : b, lo = a > b ? b : a;
                    long double want = hi + log1pl(expl(lo - hi)), err, bound;
                    AX_CHECK(t, lse_ok(dt, yb, (size_t)(o * 2 + c), want, 2, &err, &bound),
                             "ONNX example %s output [%d,0,%d] = %.17Lg, want %.17Lg",
                             ax_dtype_str(dt), o, c, or_get_f(dt, yb, (size_t)(o * 2 + c)),
                             want);
                }
            AX_CHECK(t, yb[6 * ax_dtype_size(dt)] == 0x5a, "ONNX example %s: wrote past y",
                     ax_dtype_str(dt));
        }
    }
}

/* ---- random shapes, axes and flags ---------------------------------------------------- */

static const enum fill lse_modes[4] = {FILL_EXACT, FILL_GENERAL, FILL_UNIFORM01,
                                       FILL_RARE_SPECIALS};

void t_lse_random(ax_t *t) {
    if (!ld_specials_or_skip(t)) return;
    int64_t shape[6], axes[8];
    for (int it = 0; it < ax_iters(30); it++)
        for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
            axial_dtype dt = ax_float_types[d];
            enum fill mode = lse_modes[ax_rand(t) % 4];
            size_t rank = ax_rand_shape(t, 1, 6, 1500, shape);
            int64_t axis = ax_rand_range(t, -(int64_t)rank, (int64_t)rank - 1);
            scan_case(t, dt, rank, shape, axis, (unsigned)(ax_rand(t) & 3), mode,
                      ax_rand(t) % 3 == 0);
            rank = ax_rand_shape(t, 0, 6, 3000, shape);
            size_t naxes = ax_rand_axes(t, rank, axes, 8);
            reduce_case_lse(t, dt, rank, shape, axes, naxes, (unsigned)(ax_rand(t) & 3), mode);
        }
    note_worst(t);
}

/* The kernel shapes of cases.c: rows, short rows and columns for the scan
 * (every flag, in place on a quarter), rows, short rows, columns and 3-D /
 * several-axes patterns for the reduction; general and exact data. */
void t_lse_shapes(ax_t *t) {
    if (!ld_specials_or_skip(t)) return;
    static const enum fill modes[2] = {FILL_GENERAL, FILL_EXACT};
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++)
        for (int m = 0; m < 2; m++) {
            axial_dtype dt = ax_float_types[d];
            cumsum_rows(t, dt, modes[m], scan_case, 0.1 * ld_share(), FLAGS_ONE);
            cumsum_short_rows(t, dt, modes[m], scan_case, 0.1 * ld_share(), FLAGS_ONE);
            cumsum_columns(t, dt, modes[m], scan_case, 0.1 * ld_share(), FLAGS_ONE);
            reduce_rows(t, dt, modes[m], reduce_case_lse, 0.15 * ld_share());
            reduce_short_rows(t, dt, modes[m], reduce_case_lse, 0.15 * ld_share());
            reduce_columns(t, dt, modes[m], reduce_case_lse, 0.15 * ld_share());
            reduce_3d(t, dt, modes[m], reduce_case_lse, 0.04 * ld_share());
        }
    note_worst(t);
}

/* Long lines: the reduction planner's 64 KiB chunks (8192 f64, 16384 f32,
 * 32768 f16/bf16 terms; few outputs are accumulated chunk by chunk and the
 * states merged), for full reductions, rows, columns and several groups;
 * long scans with every flag. */
void t_lse_long_lines(ax_t *t) {
    if (!ld_specials_or_skip(t)) return;
    static const int64_t lens[] = {8191, 8192, 8193, 16383, 16384, 16385, 32767, 32769, 65537};
    static const enum fill modes[3] = {FILL_GENERAL, FILL_UNIFORM01, FILL_RARE_SPECIALS};
    const int64_t a0[1] = {0}, a1[1] = {1}, am1[1] = {-1}, a02[2] = {0, 2};
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        axial_dtype dt = ax_float_types[d];
        for (size_t l = 0; l < COUNT(lens); l++) {
            enum fill mode = modes[ax_rand(t) % 3];
            int64_t n = lens[l], s1[1] = {n}, rows[2] = {2, n}, cols[2] = {n, 2};
            int64_t mid[3] = {2, n / 4, 3};
            const double sh = ld_share();
            /* every length and type: one reduction and one scan each run, the
             * rest sampled */
            const int first = (int)((l + d + ax_seed()) % 2);
            if (first == 0 || ax_sample(t, sh))
                reduce_case_lse(t, dt, 1, s1, a0, 1, l & 1 ? AXIAL_REDUCE_KEEP_DIMS : 0, mode);
            if (ax_sample(t, 0.5 * sh))
                reduce_case_lse(t, dt, 1, s1, NULL, 0, AXIAL_REDUCE_EMPTY_AXES_ALL, mode);
            if (ax_sample(t, 0.5 * sh)) reduce_case_lse(t, dt, 2, rows, am1, 1, 0, mode);
            if (ax_sample(t, 0.5 * sh)) reduce_case_lse(t, dt, 2, cols, a0, 1, 0, mode);
            if (ax_sample(t, 0.3 * sh)) reduce_case_lse(t, dt, 3, mid, a02, 2, 0, mode);
            if (ax_sample(t, 0.3 * sh)) reduce_case_lse(t, dt, 3, mid, a1, 1, 0, mode);
            unsigned flags = (unsigned)(ax_rand(t) & 3);
            const bool inplace = ax_rand(t) & 1;
            if (first == 1 || ax_sample(t, 0.5 * sh)) scan_case(t, dt, 1, s1, 0, flags, mode, inplace);
            if (ax_sample(t, 0.3 * sh)) scan_case(t, dt, 2, cols, 0, flags ^ 1, mode, false);
        }
    }
    note_worst(t);
}

/* ---- special values in place ------------------------------------------------------------ */

/* Lines of every width with specials placed first, last and inside (and the
 * patterns of the contract's rules), in rows, columns and in place. */
void t_lse_specials(ax_t *t) {
    if (!ld_specials_or_skip(t)) return;
    static const int64_t lens[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 257};
    enum { NPAT = 10 };
    long double *v = malloc(3 * 257 * sizeof *v);
    for (size_t l = 0; l < COUNT(lens); l++)
        for (int pat = 0; pat < NPAT; pat++)
            for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
                axial_dtype dt = ax_float_types[d];
                const int64_t n = lens[l];
                /* three lines: the pattern at the start, the end and inside */
                for (int line = 0; line < 3; line++) {
                    long double *x = v + line * n;
                    for (int64_t j = 0; j < n; j++) x[j] = (long double)ax_rand_range(t, -64, 64) / 16;
                    int64_t p = line == 0 ? 0 : line == 1 ? n - 1 : ax_rand_range(t, 0, n - 1);
                    int64_t q = ax_rand_range(t, p, n - 1); /* at or after p */
                    switch (pat) {
                    case 0: x[p] = NI; break;
                    case 1: x[p] = PI; break;
                    case 2: x[p] = MI; break;
                    case 3: for (int64_t j = 0; j < n; j++) x[j] = MI; break;
                    case 4: for (int64_t j = 0; j <= p; j++) x[j] = MI; break; /* -inf then finite */
                    case 5: x[p] = PI, x[q] = NI; break;                   /* NaN after +inf */
                    case 6: x[p] = NI, x[q] = PI; break;                   /* +inf after NaN */
                    case 7: for (int64_t j = 0; j < n; j++) if (ax_rand(t) & 1) x[j] = MI; break;
                    case 8: x[p] = PI, x[q] = MI; break;
                    default: for (int64_t j = p; j < n; j++) x[j] = MI; break; /* finite then -inf */
                    }
                }
                unsigned flags = (unsigned)(ax_rand(t) & 3);
                int64_t rows[2] = {3, n}, a1[1] = {1};
                scan_data(t, dt, 2, rows, 1, flags, FILL_EXACT, pat & 1, v);
                reduce_data(t, dt, 2, rows, a1, 1, 0, FILL_EXACT, v);
                /* the same lines as columns: [n, 3] laid out from v transposed */
                long double *c = malloc(3 * (size_t)n * sizeof *c);
                for (int64_t j = 0; j < n; j++)
                    for (int line = 0; line < 3; line++) c[j * 3 + line] = v[line * n + j];
                int64_t cols[2] = {n, 3}, a0[1] = {0};
                scan_data(t, dt, 2, cols, 0, flags ^ 2, FILL_EXACT, !(pat & 1), c);
                reduce_data(t, dt, 2, cols, a0, 1, AXIAL_REDUCE_KEEP_DIMS, FILL_EXACT, c);
                free(c);
            }
    free(v);
    /* random specials (1/21 of the elements) on random shapes */
    int64_t shape[6], axes[8];
    for (int it = 0; it < ax_iters(20); it++)
        for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
            size_t rank = ax_rand_shape(t, 1, 4, 2000, shape);
            int64_t axis = ax_rand_range(t, -(int64_t)rank, (int64_t)rank - 1);
            scan_case(t, ax_float_types[d], rank, shape, axis, (unsigned)(ax_rand(t) & 3),
                      FILL_SPECIALS, ax_rand(t) & 1);
            rank = ax_rand_shape(t, 0, 4, 2000, shape);
            size_t naxes = ax_rand_axes(t, rank, axes, 8);
            reduce_case_lse(t, ax_float_types[d], rank, shape, axes, naxes,
                            (unsigned)(ax_rand(t) & 3), FILL_SPECIALS);
        }
    note_worst(t);
}

/* ---- empty axes, length-0 axes, rank 0 ----------------------------------------------------- */

void t_lse_empty_axes(ax_t *t) {
    const int64_t shape[3] = {2, 3, 4};
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        axial_dtype dt = ax_float_types[d];
        const size_t es = ax_dtype_size(dt);
        unsigned char x[24 * 8], y[25 * 8];
        ax_fill(t, dt, x, 24, FILL_GENERAL);
        or_set_f(dt, x, 5, NAN); /* copied as it is */
        or_set_f(dt, x, 6, INFINITY);
        or_set_f(dt, x, 7, -INFINITY);
        or_set_f(dt, x, 8, 1e30L); /* log(exp(x)) would overflow: a copy does not */
        /* naxes 0 without the flag: a copy, bit for bit, keep_dims or not */
        for (unsigned keep = 0; keep < 2; keep++) {
            memset(y, 0x5a, sizeof y);
            axial_status st = axial_reduce_logsumexp(dt, x, y, 3, shape, NULL, 0,
                                                     keep ? AXIAL_REDUCE_KEEP_DIMS : 0);
            AX_CHECK(t, st == AXIAL_OK && memcmp(x, y, 24 * es) == 0 && y[24 * es] == 0x5a,
                     "%s naxes 0 (keep %u): a copy (%s)", ax_dtype_str(dt), keep,
                     axial_status_name(st));
        }
        /* rank 0: a copy either way */
        for (unsigned flags = 0; flags < 4; flags++) {
            memset(y, 0x5a, sizeof y);
            axial_status st = axial_reduce_logsumexp(dt, x + 8 * es, y, 0, NULL, NULL, 0, flags);
            AX_CHECK(t, st == AXIAL_OK && memcmp(x + 8 * es, y, es) == 0 && y[es] == 0x5a,
                     "%s rank 0 flags %u: a copy (%s)", ax_dtype_str(dt), flags,
                     axial_status_name(st));
            /* a scan needs an axis: rank 0 is refused as axial_cumsum refuses it */
            memset(y, 0x5a, sizeof y);
            axial_status want = axial_cumsum(dt, x + 8 * es, y, 0, NULL, 0, flags);
            st = axial_logcumsumexp(dt, x + 8 * es, y, 0, NULL, 0, flags);
            AX_CHECK(t, st == want && st != AXIAL_OK && y[0] == 0x5a,
                     "%s logcumsumexp rank 0 flags %u: %s, axial_cumsum gives %s, nothing "
                     "written", ax_dtype_str(dt), flags, axial_status_name(st),
                     axial_status_name(want));
        }
        /* EMPTY_AXES_ALL: every axis (against the oracle; NaN in x: NaN), with and
         * without keep_dims, and without the NaN */
        reduce_case_lse(t, dt, 3, shape, NULL, 0, AXIAL_REDUCE_EMPTY_AXES_ALL, FILL_GENERAL);
        reduce_case_lse(t, dt, 3, shape, NULL, 0,
                        AXIAL_REDUCE_EMPTY_AXES_ALL | AXIAL_REDUCE_KEEP_DIMS, FILL_EXACT);
        memset(y, 0x5a, sizeof y);
        axial_status st = axial_reduce_logsumexp(dt, x, y, 3, shape, NULL, 0,
                                                 AXIAL_REDUCE_EMPTY_AXES_ALL);
        AX_CHECK(t, st == AXIAL_OK && isnan(or_get_f(dt, y, 0)) && y[es] == 0x5a,
                 "%s EMPTY_AXES_ALL over a NaN: %s, %Lg", ax_dtype_str(dt),
                 axial_status_name(st), or_get_f(dt, y, 0));
        /* the flag does nothing when axes are given */
        const int64_t ax1[1] = {1};
        reduce_case_lse(t, dt, 3, shape, ax1, 1, AXIAL_REDUCE_EMPTY_AXES_ALL, FILL_EXACT);
        /* a reduced axis of length 0: -inf (ONNX's empty set), NULL x allowed */
        const int64_t z1[2] = {3, 0}, z0[3] = {0, 2, 3}, a0[1] = {0}, a12[2] = {1, -1};
        memset(y, 0x5a, sizeof y);
        st = axial_reduce_logsumexp(dt, NULL, y, 2, z1, ax1, 1, 0);
        AX_CHECK(t, st == AXIAL_OK && or_get_f(dt, y, 0) == -INFINITY &&
                        or_get_f(dt, y, 2) == -INFINITY && y[3 * es] == 0x5a,
                 "%s [3,0] over axis 1: %s, %Lg %Lg %Lg, want -inf", ax_dtype_str(dt),
                 axial_status_name(st), or_get_f(dt, y, 0), or_get_f(dt, y, 1),
                 or_get_f(dt, y, 2));
        memset(y, 0x5a, sizeof y);
        st = axial_reduce_logsumexp(dt, NULL, y, 3, z0, a0, 1, AXIAL_REDUCE_KEEP_DIMS);
        bool all_minf = true;
        for (size_t k = 0; k < 6; k++) all_minf &= or_get_f(dt, y, k) == -INFINITY;
        AX_CHECK(t, st == AXIAL_OK && all_minf && y[6 * es] == 0x5a,
                 "%s [0,2,3] over axis 0: %s, want 6 times -inf", ax_dtype_str(dt),
                 axial_status_name(st));
        memset(y, 0x5a, sizeof y);
        st = axial_reduce_logsumexp(dt, NULL, y, 3, z0, NULL, 0, AXIAL_REDUCE_EMPTY_AXES_ALL);
        AX_CHECK(t, st == AXIAL_OK && or_get_f(dt, y, 0) == -INFINITY && y[es] == 0x5a,
                 "%s [0,2,3] over every axis: %s, %Lg, want -inf", ax_dtype_str(dt),
                 axial_status_name(st), or_get_f(dt, y, 0));
        /* nothing reduced is empty but the output is: nothing written */
        memset(y, 0x5a, sizeof y);
        st = axial_reduce_logsumexp(dt, NULL, y, 3, z0, a12, 2, 0);
        AX_CHECK(t, st == AXIAL_OK && y[0] == 0x5a, "%s [0,2,3] over axes 1,2: %s",
                 ax_dtype_str(dt), axial_status_name(st));
        /* scans of empty tensors write nothing */
        st = axial_logcumsumexp(dt, NULL, NULL, 2, z1, 1, 1);
        AX_CHECK(t, st == AXIAL_OK, "%s logcumsumexp of [3,0]: %s", ax_dtype_str(dt),
                 axial_status_name(st));
    }
    note_worst(t);
}

/* ---- ramps: a new maximum at every step ----------------------------------------------------- */

/* Rising and falling ramps c * j + x0 and saw teeth (rising runs of 1..40
 * steps dropping back): the rescale path of the online kernels at every
 * step, with steps from 1e-3 (no term negligible) to 100 (every older term
 * underflows).  Scans with every flag (a reverse scan of a rising ramp meets
 * a falling one), reductions of rows and columns. */
void t_lse_ramps(ax_t *t) {
    if (!ld_specials_or_skip(t)) return;
    static const long double steps[] = {1e-3L, 0.1L, 0.75L, 1, 5, 30, 100};
    static const int64_t lens[] = {2, 3, 7, 8, 9, 16, 17, 33, 64, 65, 127, 257, 1000, 4100, 16500};
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        axial_dtype dt = ax_float_types[d];
        const long double cap = dt == AXIAL_F16 ? 30000 : 1e30L;
        for (size_t l = 0; l < COUNT(lens); l++)
            for (size_t s = 0; s < COUNT(steps); s++)
                for (int shape_kind = 0; shape_kind < 3; shape_kind++) {
                    const int64_t n = lens[l];
                    const long double c = steps[s];
                    /* (steep long ramps cost the oracle O(n^2 c / 11000): left out) */
                    if (c * (long double)n > cap || c * (long double)n > 2e5L ||
                        !ax_sample(t, (n > 1000 ? 0.2 : n == 1000 ? 0.5 : 1.0) * ld_share()))
                        continue;
                    long double *x = malloc(2 * (size_t)n * sizeof *x);
                    const long double x0 = -(long double)ax_rand_range(t, 0, 50);
                    int64_t tooth = ax_rand_range(t, 1, 40);
                    for (int64_t j = 0; j < n; j++) {
                        long double up = x0 + c * (long double)j;           /* rising */
                        long double down = x0 - c * (long double)j;         /* falling */
                        long double saw = x0 + c * (long double)(j % tooth); /* saw teeth */
                        x[j] = shape_kind == 0 ? up : shape_kind == 1 ? down : saw;
                        x[n + j] = shape_kind == 0 ? down : shape_kind == 1 ? saw : up;
                    }
                    int64_t rows[2] = {2, n}, cols[2] = {n, 2}, a1[1] = {1}, a0[1] = {0};
                    for (unsigned flags = 0; flags < 4; flags++) /* two flags of four */
                        if (flags == (unsigned)(l + s) % 4 || (n < 1000 && flags == (unsigned)(l + s + 2) % 4))
                            scan_data(t, dt, 2, rows, 1, flags, FILL_EXACT, flags == 2, x);
                    reduce_data(t, dt, 2, rows, a1, 1, 0, FILL_EXACT, x);
                    /* columns: each line strided (the transposed values) */
                    long double *xc = malloc(2 * (size_t)n * sizeof *xc);
                    for (int64_t j = 0; j < n; j++) xc[2 * j] = x[j], xc[2 * j + 1] = x[n + j];
                    scan_data(t, dt, 2, cols, 0, (unsigned)s & 3, FILL_EXACT, false, xc);
                    reduce_data(t, dt, 2, cols, a0, 1, 0, FILL_EXACT, xc);
                    free(xc);
                    free(x);
                }
    }
    note_worst(t);
}

/* ---- the chunks of a split line ------------------------------------------------------------- */

/* Where the active table has LogCumSumExp's split along a line
 * (logcumsumexp_seg, kernels/kernels.h), a line is scanned in chunks of
 * AXIAL_SCAN_CHUNK elements counted from the scan's start, each from the
 * carry of the chunks before it.  Lines of three chunks and a bit with the
 * patterns placed against those boundaries: leading chunks of -inf only
 * (an empty carry), +inf in one chunk and NaN in a later one, NaN in the
 * first, a carry of +inf, rising and falling ramps (the chunk's own terms
 * dominate, or the carry does), a chunk 2000 below the others and one 90
 * above (a factor of the carry or of the chunk's state underflows), chunks
 * 150 (f64: 1000) above the carry (an exclusive chunk's first output is the
 * carry alone), and general values; under the four flags (REVERSE: the
 * pattern is laid out in scan order, so from the line's end).  On a SIMD ISA
 * every pattern runs for every type in every run, under a flag that moves
 * with the seed.  Each output against the oracle, and `_ex` on a 3-thread
 * pool against the plain call, bit for bit (on every table: where a line is
 * not split, one task). */
void t_lse_chunks(ax_t *t) {
    if (!ld_specials_or_skip(t)) return;
    const size_t Q = 16384, n = 3 * Q + 77;
    axial_pool *pool = NULL;
    if (!AX_CHECK(t, axial_pool_create(3, &pool) == AXIAL_OK, "a pool of 3 threads"))
        return;
    long double *v = malloc(n * sizeof *v), *exact = malloc(n * sizeof *exact);
    size_t *terms = malloc(n * sizeof *terms);
    if (!v || !exact || !terms) abort();
    enum { NPAT = 10 };
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        const axial_dtype dt = ax_float_types[d];
        const size_t es = ax_dtype_size(dt);
        for (int pat = 0; pat < NPAT; pat++)
            for (unsigned flags = 0; flags < 4; flags++) {
                /* every pattern and type once, under one flag that moves with
                 * the suite's seed (AXIAL_TEST_SEED), the other flags sampled (a
                 * quarter; the long double oracle is far slower where it is
                 * quad: ld_share) */
                const double sh = ld_share();
                const unsigned main_flag = (unsigned)((pat + (int)d + (int)(ax_seed() % 4)) % 4);
                const bool sampled = ax_sample(t, 0.25 * sh * sh);
                /* (the scalar kernels scan a line in one piece: no chunk
                 * boundary to place the patterns against, so sampled only) */
                if ((flags != main_flag || t->isa == AXIAL_ISA_SCALAR) && !sampled) continue;
                for (size_t k = 0; k < n; k++) { /* k: position in scan order */
                    long double e = (long double)ax_rand_range(t, -256, 256) / 64;
                    switch (pat) {
                    case 0: e = k < 2 * Q ? MI : e; break;
                    case 1: e = k == Q + 5 ? PI : k == 3 * Q + 3 ? NI : e; break;
                    case 2: e = k == 7 ? NI : e; break;
                    case 3: e = k == 0 ? PI : e; break;
                    case 4: e = (long double)k / 128; break;   /* rising */
                    case 5: e = -(long double)k / 128; break;  /* falling */
                    case 6: e += k / Q == 1 ? -2000 : k / Q == 2 ? 90 : 0; break;
                    case 7: e = k + 1 == n ? e : MI; break;
                    case 8: e += k >= 2 * Q ? (dt == AXIAL_F64 ? 1000 : 150) : 0; break;
                    default: break;
                    }
                    if (dt == AXIAL_F16 && isfinite(e) && fabsl(e) > 2000) e = e < 0 ? -2000 : 2000;
                    v[flags & AXIAL_CUMSUM_REVERSE ? n - 1 - k : k] = e;
                }
                ax_buf x, y, y2;
                ax_buf_alloc(&x, n * es, es * (size_t)ax_rand_range(t, 0, 7));
                ax_buf_alloc(&y, n * es, es * (size_t)ax_rand_range(t, 0, 7));
                ax_buf_alloc(&y2, n * es, es * (size_t)ax_rand_range(t, 0, 7));
                for (size_t k = 0; k < n; k++) or_set_f(dt, x.p, k, v[k]);
                const int64_t shape[1] = {(int64_t)n};
                or_logcumsumexp_exact(dt, x.p, exact, terms, 1, shape, 0, flags & 1, flags & 2);
                char what[160];
                snprintf(what, sizeof what, "logcumsumexp %s [%zu] flags %u, chunk pattern %d",
                         ax_dtype_str(dt), n, flags, pat);
                if (AX_CHECK(t, axial_logcumsumexp(dt, x.p, y.p, 1, shape, 0, flags) == AXIAL_OK,
                             "%s: the plain call", what))
                    lse_compare(t, OP_SCAN, dt, y.p, exact, terms, 0, n, what);
                AX_CHECK(t, axial_logcumsumexp_ex(dt, x.p, y2.p, 1, shape, 0, flags,
                                                  axial_pool_executor(pool)) == AXIAL_OK &&
                                memcmp(y.p, y2.p, n * es) == 0,
                         "%s: _ex on 3 threads gives the plain call's bits", what);
                ax_buf_free(&x);
                ax_buf_free(&y);
                ax_buf_free(&y2);
            }
    }
    free(v);
    free(exact);
    free(terms);
    axial_pool_destroy(pool);
    note_worst(t);
}

/* ---- lines apart ---------------------------------------------------------------------------- */

/* A line's outputs depend on that line alone: [R, n] along axis 1 in one
 * call and cut into calls of a few lines each give the same bits (a dask
 * chunking or a thread's share of the lines cuts them so), for short lines,
 * lines of about a vector and lines of several, with rises steep and mild. */
void t_lse_lines_apart(ax_t *t) {
    const int64_t ns[] = {1, 3, 5, 8, 15, 16, 17, 33, 64, 100};
    const size_t R = 37;
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        const axial_dtype dt = ax_float_types[d];
        const size_t es = ax_dtype_size(dt);
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            for (unsigned flags = 0; flags < 4; flags++) {
                const int64_t n = ns[i];
                const size_t count = R * (size_t)n;
                ax_buf x, y, y2;
                ax_buf_alloc(&x, count * es, es * (size_t)ax_rand_range(t, 0, 7));
                ax_buf_alloc(&y, count * es, es * (size_t)ax_rand_range(t, 0, 7));
                ax_buf_alloc(&y2, count * es, es * (size_t)ax_rand_range(t, 0, 7));
                for (size_t k = 0; k < count; k++) /* lines of mild and steep rises */
                    or_set_f(dt, x.p, k,
                             (long double)ax_rand_range(t, -256, 256) /
                                 ((k / (size_t)n) % 3 == 0 ? 4 : 64));
                const int64_t shape[2] = {(int64_t)R, n};
                char what[160];
                snprintf(what, sizeof what, "logcumsumexp %s [%zu, %lld] axis 1 flags %u",
                         ax_dtype_str(dt), R, (long long)n, flags);
                bool ok = axial_logcumsumexp(dt, x.p, y.p, 2, shape, 1, flags) == AXIAL_OK;
                for (size_t r = 0; ok && r < R;) {
                    size_t m = (size_t)ax_rand_range(t, 1, 7);
                    m = m < R - r ? m : R - r;
                    const int64_t part[2] = {(int64_t)m, n};
                    ok = axial_logcumsumexp(dt, (const char *)x.p + r * (size_t)n * es,
                                            (char *)y2.p + r * (size_t)n * es, 2, part, 1,
                                            flags) == AXIAL_OK;
                    r += m;
                }
                AX_CHECK(t, ok && memcmp(y.p, y2.p, count * es) == 0,
                         "%s: calls of a few lines each give one call's bits", what);
                ax_buf_free(&x);
                ax_buf_free(&y);
                ax_buf_free(&y2);
            }
    }
}

/* ---- columns apart ---------------------------------------------------------------------------- */

/* A column's outputs depend on that column alone, wherever it sits in its
 * vector: [R, C] along axis 0 in one call and cut into calls of a few
 * columns each give the same bits (a dask chunking of the kept axis), at
 * any cut (blocks of 2 or more columns: one column is a line, another walk),
 * for ReduceLogSumExp and LogCumSumExp (a column group's paths give each
 * lane the same bits). */
void t_lse_columns_apart(ax_t *t) {
    const size_t R = 37, C = 300; /* (every block in the plan of the whole: no fixed chunks) */
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        const axial_dtype dt = ax_float_types[d];
        const size_t es = ax_dtype_size(dt), count = R * C;
        char *x = malloc(count * es), *y = malloc(count * es), *y2 = malloc(count * es);
        char *col = malloc(count * es), *out = malloc(count * es);
        for (size_t k = 0; k < count; k++) /* columns of mild and steep rises, a NaN, an inf */
            or_set_f(dt, x, k, k == 5 * C + 7 ? NAN : k == 9 * C + 40 ? INFINITY
                               : (long double)ax_rand_range(t, -256, 256) / ((k % C) % 3 ? 4 : 64));
        const int64_t shape[2] = {(int64_t)R, (int64_t)C}, axis = 0;
        for (int op = 0; op < 5; op++) { /* ReduceLogSumExp, then LogCumSumExp's flags */
            const size_t nout = op ? count : C;
            bool ok = (op ? axial_logcumsumexp(dt, x, y, 2, shape, 0, (unsigned)(op - 1))
                          : axial_reduce_logsumexp(dt, x, y, 2, shape, &axis, 1, 0)) == AXIAL_OK;
            for (size_t c0 = 0; ok && c0 < C;) {
                size_t w = (size_t)ax_rand_range(t, 2, 70);
                w = w + 2 > C - c0 ? C - c0 : w; /* (no block of one column) */
                const int64_t part[2] = {(int64_t)R, (int64_t)w};
                for (size_t r = 0; r < R; r++)
                    memcpy(col + r * w * es, x + (r * C + c0) * es, w * es);
                ok = (op ? axial_logcumsumexp(dt, col, out, 2, part, 0, (unsigned)(op - 1))
                         : axial_reduce_logsumexp(dt, col, out, 2, part, &axis, 1, 0)) == AXIAL_OK;
                for (size_t r = 0; r < (op ? R : 1); r++)
                    memcpy(y2 + (r * C + c0) * es, out + r * w * es, w * es);
                c0 += w;
            }
            AX_CHECK(t, ok && memcmp(y, y2, nout * es) == 0,
                     "%s %s [%zu, %zu] axis 0%s: calls of a few columns each give one call's bits",
                     op ? "logcumsumexp" : "reduce_logsumexp", ax_dtype_str(dt), R, C,
                     op == 2 ? " exclusive" : op == 3 ? " reverse" : op == 4 ? " both" : "");
        }
        free(x);
        free(y);
        free(y2);
        free(col);
        free(out);
    }
}

/* ---- huge magnitudes ------------------------------------------------------------------------- */

/* Values whose exp overflows or underflows the type (f32 +-80, +-100,
 * +-1e30, near FLT_MAX; f64 +-700, 710, +-1e300; f16 +-60000): a kernel
 * must subtract the maximum before exp and never form inf - inf. */
void t_lse_huge(ax_t *t) {
    if (!ld_specials_or_skip(t)) return;
    static const long double f32v[] = {80, -80, 88.5L, 100, -100, 1e30L, -1e30L, 3e38L, -3e38L};
    static const long double f64v[] = {700, -700, 710, -745, 1e300L, -1e300L, 1.7e308L};
    static const long double f16v[] = {11, -17, 60000, -60000, 1000, -1000};
    static const int64_t lens[] = {1, 2, 5, 8, 16, 17, 33, 100, 1000, 4097};
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        axial_dtype dt = ax_float_types[d];
        const long double *vals = dt == AXIAL_F64 ? f64v : dt == AXIAL_F16 ? f16v : f32v;
        size_t nv = dt == AXIAL_F64 ? COUNT(f64v) : dt == AXIAL_F16 ? COUNT(f16v) : COUNT(f32v);
        for (size_t l = 0; l < COUNT(lens); l++)
            for (int kind = 0; kind < 4; kind++) {
                const int64_t n = lens[l];
                if (!ax_sample(t, (n > 100 ? 0.5 : 1.0) * ld_share())) continue;
                long double *x = malloc(3 * (size_t)n * sizeof *x);
                for (int64_t j = 0; j < 3 * n; j++) {
                    long double a = vals[ax_rand(t) % nv], b = vals[ax_rand(t) % nv];
                    switch (kind) {
                    case 0: x[j] = vals[(size_t)(j / n) % nv]; break; /* one value per line */
                    case 1: x[j] = a; break;                          /* mixed huge values */
                    case 2: x[j] = a + (long double)ax_rand_range(t, -8, 8) * (fabsl(a) < 1e4L ? 0.5L : 0); break;
                    default: x[j] = ax_rand(t) % 4 ? b : (long double)ax_rand_range(t, -64, 64) / 16;
                    }
                }
                int64_t rows[2] = {3, n}, a1[1] = {1}, a0[1] = {0}, cols[2] = {n, 3};
                unsigned flags = (unsigned)(ax_rand(t) & 3);
                scan_data(t, dt, 2, rows, 1, flags, FILL_EXACT, kind == 1, x);
                scan_data(t, dt, 2, cols, 0, flags ^ 3, FILL_EXACT, false, x);
                reduce_data(t, dt, 2, rows, a1, 1, 0, FILL_EXACT, x);
                reduce_data(t, dt, 2, cols, a0, 1, 0, FILL_EXACT, x);
                int64_t flat[1] = {3 * n};
                reduce_data(t, dt, 1, flat, a0, 1, 0, FILL_EXACT, x);
                free(x);
            }
    }
    note_worst(t);
}

/* ---- the measured targets ---------------------------------------------------------------------- */

/* n f32 values of N(0, 16) (standard deviation 4), Box-Muller on the test's
 * random stream, rounded to f32. */
static float *normal_f32(ax_t *t, size_t n) {
    float *x = malloc(n * sizeof *x);
    if (!x) return NULL;
    for (size_t i = 0; i < n; i += 2) {
        double u = ((double)(ax_rand(t) >> 11) + 0.5) * 0x1p-53;
        double v = (double)(ax_rand(t) >> 11) * 0x1p-53;
        double r = 4.0 * sqrt(-2.0 * log(u));
        x[i] = (float)(r * cos(6.283185307179586 * v));
        if (i + 1 < n) x[i + 1] = (float)(r * sin(6.283185307179586 * v));
    }
    return x;
}

/* ReduceLogSumExp of n N(0, 16) f32 values within 1 ulp of the correctly
 * rounded value (the long-double reference rounded to f32; its own error is
 * below 2^-38 ulp here, far from deciding a rounding). */
static void lse_reduce_target(ax_t *t, size_t n, const char *label) {
    float *x = normal_f32(t, n);
    if (!x) {
        ax_skip(t, "cannot allocate %zu floats", n);
        return;
    }
    /* The reference, once per data set: every ISA sees the same data (the
     * seed depends on the test only), so the other ISAs reuse it. */
    static struct {
        size_t n;
        uint64_t key;
        long double exact;
    } memo[4];
    uint64_t key = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < n; i++) {
        uint32_t b;
        memcpy(&b, &x[i], 4);
        key = (key ^ b) * 0x100000001b3ull;
    }
    long double exact = NAN;
    for (size_t k = 0; k < COUNT(memo); k++)
        if (memo[k].n == n && memo[k].key == key) exact = memo[k].exact;
    if (isnan(exact)) {
        long double mx = -INFINITY, s = 0;
        for (size_t i = 0; i < n; i++)
            if (x[i] > mx) mx = x[i];
        for (size_t i = 0; i < n; i++) s += expl((long double)x[i] - mx);
        exact = mx + logl(s);
        for (size_t k = 0; k < COUNT(memo); k++)
            if (memo[k].n == 0) {
                memo[k].n = n, memo[k].key = key, memo[k].exact = exact;
                break;
            }
    }
    const float cr = (float)exact;
    float y = NAN;
    const int64_t shape[1] = {(int64_t)n}, ax[1] = {0};
    axial_status st = axial_reduce_logsumexp(AXIAL_F32, x, &y, 1, shape, ax, 1, 0);
    const long double ulp = or_ulp(AXIAL_F32, cr);
    const long double steps = fabsl((long double)y - (long double)cr) / ulp;
    AX_CHECK(t, st == AXIAL_OK && steps <= 1,
             "reduce_logsumexp of %s N(0,16) f32: %.9g, correctly rounded %.9g (exact %.12Lg), "
             "%Lg ulp apart (%s)", label, (double)y, (double)cr, exact, steps,
             axial_status_name(st));
    ax_note(t, "reduce_logsumexp of %s N(0,16) f32: %.9g, correctly rounded %.9g, %Lg ulp from "
            "it, error %.3Lg ulp of the exact %.12Lg (target <= 1 ulp)", label, (double)y,
            (double)cr, steps, ((long double)y - exact) / ulp, exact);
    free(x);
}

/* LogCumSumExp of n f32 zeros: y*[j] = ln(j + 1), every output within the
 * bound; the last is ln n.  In place (the output buffer holds the zeros).
 * The reference is libm's double log (error below 2^-52 |y*|, 2^-27 of the
 * bound): long double's logl would cost far more on aarch64's quad. */
static void lse_zeros_target(ax_t *t, size_t n, const char *label) {
    float *y = malloc(n * sizeof *y);
    if (!y) {
        ax_skip(t, "cannot allocate %zu floats", n);
        return;
    }
    for (size_t i = 0; i < n; i++) y[i] = 0.0f;
    const int64_t shape[1] = {(int64_t)n};
    axial_status st = axial_logcumsumexp(AXIAL_F32, y, y, 1, shape, 0, 0);
    AX_CHECK(t, st == AXIAL_OK, "status %s", axial_status_name(st));
    double wr = 0, werr = 0;
    size_t at = 0, bad = n, off = 0;
    for (size_t i = 0; i < n; i++) {
        const long double e = log((double)(i + 1));
        const long double err = fabsl((long double)y[i] - e), b = lse_bound(AXIAL_F32, e, i + 1);
        if (y[i] != (float)e) off++;
        if (!(err <= b) && bad == n) bad = i;
        if ((double)(err / b) > wr) wr = (double)(err / b), werr = (double)err, at = i;
    }
    AX_CHECK(t, bad == n, "logcumsumexp of %s f32 zeros: y[%zu] = %.9g, exact %.12g, out of "
             "the bound", label, bad, bad < n ? (double)y[bad] : 0.0,
             bad < n ? log((double)(bad + 1)) : 0.0);
    ax_note(t, "logcumsumexp of %s f32 zeros: last %.9g (exact %.9Lg), worst error %.3g "
            "(%.3f of the bound) at %zu, %zu outputs not correctly rounded", label,
            (double)y[n - 1], (long double)log((double)n), werr, wr, at, off);
    free(y);
}

/* LogCumSumExp of n N(0, 16) f32 values, every output within the bound (the
 * reference streams in double: the data span less than 2 * 40, so the whole
 * line's maximum serves every prefix without underflow, and the double sum
 * of at most 2^24 terms in (0, 1] errs by at most 2^-29 relative, 2^-12 of
 * the bound; long double would cost far more on aarch64's quad).  An f32
 * running sum of the exp terms (error growing with n) fails it, as the zeros
 * of lse_zeros_target cannot show (their f32 running sum is exact to 2^24). */
static void lse_scan_normal(ax_t *t, size_t n, const char *label) {
    float *x = normal_f32(t, n), *y = malloc(n * sizeof *y);
    if (!x || !y) {
        free(x);
        free(y);
        ax_skip(t, "cannot allocate 2 x %zu floats", n);
        return;
    }
    const int64_t shape[1] = {(int64_t)n};
    axial_status st = axial_logcumsumexp(AXIAL_F32, x, y, 1, shape, 0, 0);
    AX_CHECK(t, st == AXIAL_OK, "status %s", axial_status_name(st));
    double mx = -INFINITY, s = 0;
    for (size_t i = 0; i < n; i++)
        if (x[i] > mx) mx = x[i];
    double wr = 0;
    size_t at = 0, bad = n;
    for (size_t i = 0; i < n; i++) {
        s += exp((double)x[i] - mx);
        const long double e = (long double)mx + (long double)log(s);
        const long double err = fabsl((long double)y[i] - e), b = lse_bound(AXIAL_F32, e, i + 1);
        if (!(err <= b) && bad == n) {
            bad = i;
            AX_CHECK(t, false, "logcumsumexp of %s N(0,16) f32: y[%zu] = %.9g, exact %.12Lg, "
                     "error %.3Lg > bound %.3Lg", label, i, (double)y[i], e, err, b);
        }
        if ((double)(err / b) > wr) wr = (double)(err / b), at = i;
    }
    AX_CHECK(t, bad == n, "logcumsumexp of %s N(0,16) f32 within the bound", label);
    ax_note(t, "logcumsumexp of %s N(0,16) f32: last %.9g, worst error %.3f of the bound at %zu",
            label, (double)y[n - 1], wr, at);
    free(x);
    free(y);
}

void t_lse_f32_accuracy(ax_t *t) {
    lse_reduce_target(t, (size_t)1 << 20, "2^20");
    lse_zeros_target(t, (size_t)1 << 20, "2^20");
    lse_scan_normal(t, (size_t)1 << 18, "2^18");
}

void t_lse_f32_spec_target(ax_t *t) {
    if (!ax_big()) {
        ax_skip(t, "AXIAL_TEST_BIG=0: full-size accuracy target not run here");
        return;
    }
    lse_reduce_target(t, (size_t)1 << 24, "2^24");
    lse_zeros_target(t, (size_t)1 << 24, "2^24");
    lse_scan_normal(t, (size_t)1 << 24, "2^24");
}
