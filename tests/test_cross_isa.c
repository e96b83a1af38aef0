/* SPDX-License-Identifier: MIT */
/*
 * test_cross_isa.c: float CumSum and ReduceSum give the same bits on every
 * SIMD ISA of the host (docs/API.md, "One summation order"): each case runs
 * through the public API once per SIMD ISA (axial_isa_select) and the
 * outputs are compared with memcmp (NaN payloads aside: where the bytes
 * differ only by a NaN's payload or sign, the elements count as equal).
 *
 * An API test: it selects the ISAs itself (and the test's ISA again at the
 * end).  Families, for F32, F64, F16 and BF16, on general data (random
 * signs, significands and exponents: another order of additions almost
 * surely changes bits):
 *   random     random shapes (rank 1..5), axes (negative, repeated), flags,
 *              in-place scans;
 *   long       long axes: lines across the 16384-element scan chunks with
 *              every flag, long rows, columns and 3-D middles;
 *   rows, short rows [R, 2..17], columns [n, C] (C below and from 16),
 *   3-D reductions: the kernel-shape families of cases.c, sampled;
 *   split      the planner's chunked ReduceSum (at most 64 outputs, more
 *              than 64 KiB per output row), several reduced groups
 *              ([64, N, 64] over {0, 2} and others), and sizes above the
 *              split thresholds run on a pool of 2 threads (axial_*_ex);
 *   cancel     rows, short rows and long lines of cancelling data (pairs B,
 *              -B of large values among small ones, golden.h): in f16 and
 *              bf16 the final rounding hides most differences of order on
 *              general data, not on these;
 *   specials   the families with NaN, +-inf and signed zeros mixed into
 *              general data, and signed zeros only.
 * One case in four of the small ones also runs through the _ex form on the
 * pool (below the thresholds nothing is split: the plain path).
 *
 * With fewer than two SIMD ISAs (aarch64 has neon only; qemu -cpu Haswell
 * has avx2 only) there is nothing to compare: a skip with the reason.  Test
 * `golden` checks every SIMD ISA's bits against files made on x86.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "golden.h"
#include "harness.h"
#include "oracle.h"
#include "tests.h"

#define COUNT(a) (sizeof(a) / sizeof *(a))

static struct {
    axial_isa isa[AX_N_ARCH_ISAS];
    int n;
    axial_pool *pool;
    const axial_executor *ex;
    long cases, calls, nan_only;
    bool cancel; /* inputs: golden.c's cancelling data */
    void (*toggle)(int on); /* ax_cross_isa_self: around the second run */
} X;

/* General data with about one element in 40 replaced by NaN, +-inf or
 * +-0.0 (FILL_SPECIALS here), or a plain fill. */
static void fill(ax_t *t, axial_dtype dt, void *x, size_t count, enum fill mode) {
    if (X.cancel) {
        golden_case c = {.dt = dt, .rank = 1, .shape = {(int64_t)count},
                         .fill = GOLDEN_CANCEL, .seed = ax_rand(t)};
        golden_input(&c, x);
        return;
    }
    if (mode != FILL_SPECIALS && mode != FILL_RARE_SPECIALS) {
        ax_fill(t, dt, x, count, mode);
        return;
    }
    ax_fill(t, dt, x, count, FILL_GENERAL);
    const uint64_t one_in = mode == FILL_SPECIALS ? 40 : 400;
    for (size_t k = 0; k < count; k++) {
        const uint64_t r = ax_rand(t);
        if (r % one_in == 0) {
            const long double sp[5] = {NAN, INFINITY, -INFINITY, -0.0L, 0.0L};
            or_set_f(dt, x, k, sp[(r >> 32) % 5]);
        }
    }
}

/* Runs `call` once per SIMD ISA and compares the outputs with the first's. */
static void run_case(ax_t *t, size_t count, size_t ocount, enum fill mode, bool inplace,
                     bool threads, const ax_call *call, const char *what) {
    const axial_dtype dt = call->dt;
    const size_t es = ax_dtype_size(dt);
    ax_buf x, y[AX_N_ARCH_ISAS];
    ax_buf_alloc(&x, count * es, es * (size_t)ax_rand_range(t, 0, 7));
    ax_buf_poison(&x, 0);
    fill(t, dt, x.p, count, mode);
    const axial_executor *ex = threads || X.cases % 4 == 3 ? X.ex : NULL;
    X.cases++;
    for (int i = 0; i < X.n; i++) {
        ax_buf_alloc(&y[i], ocount * es, es * (size_t)ax_rand_range(t, 0, 7));
        ax_buf_poison(&y[i], 0x5a);
        axial_status st = axial_isa_select(X.isa[i]);
        if (X.toggle && i == 1) X.toggle(1);
        if (st == AXIAL_OK) {
            if (inplace) {
                memcpy(y[i].p, x.p, count * es);
                st = ax_call_ex(call, y[i].p, y[i].p, ex);
            } else {
                st = ax_call_ex(call, x.p, y[i].p, ex);
            }
        }
        if (X.toggle && i == 1) X.toggle(0);
        X.calls++;
        AX_CHECK(t, st == AXIAL_OK && ax_buf_canary_ok(&y[i]),
                 "%s on %s%s: status %s (%s), or a write outside the output", what,
                 axial_isa_name(X.isa[i]), ex ? " with a pool of 2" : "", axial_status_name(st),
                 axial_last_error());
    }
    for (int i = 1; i < X.n; i++) {
        if (memcmp(y[i].p, y[0].p, ocount * es) == 0) {
            AX_CHECK(t, true, "%s", what);
            continue;
        }
        size_t k = 0;
        while (k < ocount && or_same(dt, y[i].p, k, y[0].p, k))
            k++;
        if (k == ocount) { /* NaN payloads only */
            X.nan_only++;
            AX_CHECK(t, true, "%s", what);
            continue;
        }
        size_t ndiff = 0;
        for (size_t j = k; j < ocount; j++)
            ndiff += !or_same(dt, y[i].p, j, y[0].p, j);
        char a[64], b[64];
        AX_CHECK(t, false, "%s%s: %s and %s differ in %zu of %zu outputs, first element %zu: %s vs %s",
                 what, ex ? " (pool of 2)" : "", axial_isa_name(X.isa[i]),
                 axial_isa_name(X.isa[0]), ndiff, ocount, k, or_str(a, sizeof a, dt, y[i].p, k),
                 or_str(b, sizeof b, dt, y[0].p, k));
    }
    for (int i = 0; i < X.n; i++)
        ax_buf_free(&y[i]);
    ax_buf_free(&x);
}

/* ---- the two ops ------------------------------------------------------------ */

static void cumsum_x(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape, int64_t axis,
                     unsigned flags, enum fill mode, bool inplace) {
    const ax_call call = {AX_OP_CUMSUM, dt, rank, shape, axis, flags, NULL, 0, NULL, 0};
    const size_t count = or_count(rank, shape);
    char sh[160], what[300];
    snprintf(what, sizeof what, "cumsum %s %s axis %lld flags %u%s (%s data)", ax_dtype_str(dt),
             ax_shape_str(sh, sizeof sh, rank, shape), (long long)axis, flags,
             inplace ? " in place" : "",
             X.cancel ? "cancelling" : mode == FILL_ZEROS ? "signed zeros"
                                     : mode == FILL_GENERAL ? "general" : "special");
    run_case(t, count, count, mode, inplace, count * ax_dtype_size(dt) > ((size_t)512 << 10),
             &call, what);
}

static void reduce_x(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape,
                     const int64_t *axes, size_t naxes, unsigned flags, enum fill mode) {
    const ax_call call = {AX_OP_REDUCE, dt, rank, shape, 0, flags, axes, naxes, NULL, 0};
    size_t orank = 0;
    int64_t oshape[AXIAL_MAX_RANK];
    char sh[160], ax[160], what[400];
    snprintf(what, sizeof what, "reduce_sum %s %s axes %s flags %u (%s data)", ax_dtype_str(dt),
             ax_shape_str(sh, sizeof sh, rank, shape), ax_shape_str(ax, sizeof ax, naxes, axes),
             flags, X.cancel ? "cancelling" : mode == FILL_ZEROS ? "signed zeros"
                                            : mode == FILL_GENERAL ? "general" : "special");
    if (!AX_CHECK(t, axial_reduce_sum_shape(rank, shape, axes, naxes, flags, &orank, oshape) ==
                         AXIAL_OK, "%s: axial_reduce_sum_shape: %s", what, axial_last_error()))
        return;
    const size_t count = or_count(rank, shape);
    run_case(t, count, or_count(orank, oshape), mode, false,
             count * ax_dtype_size(dt) > ((size_t)1 << 20), &call, what);
}

/* ---- families --------------------------------------------------------------- */

/* A random shape of rank 1..5 with at most max_count elements (as
 * test_random.c, with longer dimensions). */
static size_t rand_shape(ax_t *t, int64_t *shape, size_t max_count) {
    const size_t rank = (size_t)ax_rand_range(t, 1, 5);
    for (size_t k = 0; k < rank; k++) {
        const uint64_t r = ax_rand(t) % 100;
        shape[k] = r < 20 ? 1 : r < 60 ? ax_rand_range(t, 2, 17) : ax_rand_range(t, 18, 300);
    }
    for (;;) {
        size_t count = 1, big = 0;
        for (size_t k = 0; k < rank; k++) {
            count *= (size_t)shape[k];
            if (shape[k] > shape[big])
                big = k;
        }
        if (count <= max_count)
            break;
        shape[big] /= 2;
    }
    return rank;
}

static void family_random(ax_t *t, axial_dtype dt) {
    int64_t shape[5], axes[6];
    for (int it = 0; it < ax_iters(12); it++) {
        size_t rank = rand_shape(t, shape, 20000);
        cumsum_x(t, dt, rank, shape, ax_rand_range(t, -(int64_t)rank, (int64_t)rank - 1),
                 (unsigned)(ax_rand(t) & 3), FILL_GENERAL, ax_rand(t) % 4 == 0);
        rank = rand_shape(t, shape, 20000);
        const size_t naxes = (size_t)ax_rand_range(t, 1, (int64_t)rank + 1);
        for (size_t a = 0; a < naxes; a++)
            axes[a] = ax_rand_range(t, -(int64_t)rank, (int64_t)rank - 1);
        reduce_x(t, dt, rank, shape, axes, naxes, (unsigned)(ax_rand(t) & 3), FILL_GENERAL);
    }
}

static void family_long(ax_t *t, axial_dtype dt) {
    static const int64_t lens[] = {127, 255, 256, 257, 1000, 1025, 4097};
    for (size_t l = 0; l < COUNT(lens); l++) {
        const int64_t n = lens[l], o = ax_rand_range(t, 2, 17);
        const unsigned fl = (unsigned)(ax_rand(t) & 3);
        const int64_t rows[2] = {o, n}, cols[2] = {n, o}, mid[3] = {2, n, o};
        const int64_t a0[1] = {0}, a1[1] = {1}, a02[2] = {0, 2};
        cumsum_x(t, dt, 2, rows, 1, fl, FILL_GENERAL, false);
        cumsum_x(t, dt, 2, cols, 0, fl, FILL_GENERAL, false);
        cumsum_x(t, dt, 3, mid, -2, fl, FILL_GENERAL, false);
        reduce_x(t, dt, 2, rows, a1, 1, 0, FILL_GENERAL);
        reduce_x(t, dt, 2, cols, a0, 1, AXIAL_REDUCE_KEEP_DIMS, FILL_GENERAL);
        reduce_x(t, dt, 3, mid, a1, 1, 0, FILL_GENERAL);
        reduce_x(t, dt, 3, mid, a02, 2, 0, FILL_GENERAL);
    }
    /* lines across the scan chunks (16384 elements), every flag */
    for (unsigned f = 0; f < 4; f++) {
        const int64_t one[1] = {16384 + 37}, two[1] = {2 * 16384 + 5}, rows[2] = {3, 16384 + 300};
        cumsum_x(t, dt, 1, one, 0, f, FILL_GENERAL, f == 1);
        cumsum_x(t, dt, 1, two, -1, f, FILL_GENERAL, false);
        cumsum_x(t, dt, 2, rows, 1, f, FILL_GENERAL, false);
    }
    const int64_t col[2] = {20000, 3}, mid[3] = {2, 5000, 17}, line[1] = {100003};
    const int64_t a0[1] = {0};
    cumsum_x(t, dt, 2, col, 0, (unsigned)(ax_rand(t) & 3), FILL_GENERAL, false);
    cumsum_x(t, dt, 3, mid, 1, (unsigned)(ax_rand(t) & 3), FILL_GENERAL, false);
    reduce_x(t, dt, 1, line, a0, 1, 0, FILL_GENERAL);
}

static void family_split(ax_t *t, axial_dtype dt) {
    const int64_t es = (int64_t)ax_dtype_size(dt), KiB = 1024;
    const int64_t a0[1] = {0}, a1[1] = {1}, am2[1] = {-2}, a02[2] = {0, 2}, a13[2] = {1, 3};
    /* chunked: at most 64 outputs, more than 64 KiB per output row */
    const int64_t full[1] = {(200 * KiB / es) | 1}, two[2] = {2, (150 * KiB / es) | 1};
    reduce_x(t, dt, 1, full, a0, 1, 0, FILL_GENERAL);
    reduce_x(t, dt, 2, two, a1, 1, AXIAL_REDUCE_KEEP_DIMS, FILL_GENERAL);
    static const int64_t cw[] = {1, 3, 7, 16, 17, 64};
    for (size_t w = 0; w < COUNT(cw); w++) {
        const int64_t cols[2] = {(170 * KiB / es / cw[w]) | 1, cw[w]};
        reduce_x(t, dt, 2, cols, w % 2 ? a0 : am2, 1, 0, FILL_GENERAL);
    }
    /* several reduced groups */
    static const int64_t ns[] = {1, 3, 17, 40};
    for (size_t k = 0; k < COUNT(ns); k++) {
        const int64_t cube[3] = {64, ns[k], 64};
        reduce_x(t, dt, 3, cube, a02, 2, (unsigned)k & 1, FILL_GENERAL);
    }
    const int64_t s4[4] = {5, 40, 3, 20}, s4b[4] = {3, 7, 16, 9};
    reduce_x(t, dt, 4, s4, a13, 2, 0, FILL_GENERAL);
    reduce_x(t, dt, 4, s4b, a02, 2, AXIAL_REDUCE_KEEP_DIMS, FILL_GENERAL);
    /* above the split thresholds (CumSum 512 KiB, ReduceSum 1 MiB): the pool */
    const int64_t big = 1300 * KiB / es;
    const int64_t wide[3] = {64, big / 4096, 64}, rows[2] = {big / 1000, 1000},
                  cols[2] = {big / 5, 5}, lines[2] = {big / 100, 100}, line[1] = {big | 1},
                  mcol[3] = {37, big / (37 * 65), 65};
    reduce_x(t, dt, 3, wide, a02, 2, 0, FILL_GENERAL);
    reduce_x(t, dt, 2, rows, a1, 1, 0, FILL_GENERAL);
    reduce_x(t, dt, 2, cols, a0, 1, 0, FILL_GENERAL);
    reduce_x(t, dt, 1, line, a0, 1, 0, FILL_GENERAL);
    cumsum_x(t, dt, 2, lines, 1, (unsigned)(ax_rand(t) & 3), FILL_GENERAL, false);
    cumsum_x(t, dt, 2, cols, 1, (unsigned)(ax_rand(t) & 3), FILL_GENERAL, false);
    cumsum_x(t, dt, 3, mcol, 1, (unsigned)(ax_rand(t) & 3), FILL_GENERAL, false);
    cumsum_x(t, dt, 1, line, 0, (unsigned)(ax_rand(t) & 3), FILL_GENERAL, false);
    cumsum_x(t, dt, 2, lines, 0, (unsigned)(ax_rand(t) & 3), FILL_GENERAL, false);
}

/* Pairs B, -B of large values among small ones (golden.h): small sums beside
 * the large terms' rounding errors, so that the order shows in f16 and bf16
 * too (their rounding hides most differences on general data). */
static void family_cancel(ax_t *t, axial_dtype dt) {
    X.cancel = true;
    cumsum_rows(t, dt, FILL_GENERAL, cumsum_x, 0.02, FLAGS_ONE);
    cumsum_short_rows(t, dt, FILL_GENERAL, cumsum_x, 0.03, FLAGS_ONE);
    reduce_rows(t, dt, FILL_GENERAL, reduce_x, 0.05);
    reduce_short_rows(t, dt, FILL_GENERAL, reduce_x, 0.1);
    const int64_t line[1] = {2 * 16384 + 999}, rows[2] = {3, 50001}, a0[1] = {0}, a1[1] = {1};
    for (unsigned f = 0; f < 4; f++)
        cumsum_x(t, dt, 1, line, 0, f, FILL_GENERAL, false);
    reduce_x(t, dt, 1, line, a0, 1, 0, FILL_GENERAL);
    reduce_x(t, dt, 2, rows, a1, 1, 0, FILL_GENERAL);
    X.cancel = false;
}

static void family_specials(ax_t *t, axial_dtype dt) {
    static const enum fill modes[3] = {FILL_SPECIALS, FILL_RARE_SPECIALS, FILL_ZEROS};
    for (int m = 0; m < 3; m++) {
        cumsum_short_rows(t, dt, modes[m], cumsum_x, 0.01, FLAGS_ONE);
        cumsum_columns(t, dt, modes[m], cumsum_x, 0.01, FLAGS_ONE);
        cumsum_rows(t, dt, modes[m], cumsum_x, 0.01, FLAGS_ONE);
        reduce_rows(t, dt, modes[m], reduce_x, 0.02);
        reduce_short_rows(t, dt, modes[m], reduce_x, 0.03);
        reduce_columns(t, dt, modes[m], reduce_x, 0.02);
        reduce_3d(t, dt, modes[m], reduce_x, 0.005);
        const int64_t line[1] = {16384 + 999}, a0[1] = {0};
        cumsum_x(t, dt, 1, line, 0, (unsigned)m, modes[m], false);
        reduce_x(t, dt, 1, line, a0, 1, 0, modes[m]);
    }
}

void ax_cross_isa_self(ax_t *t, axial_isa isa, void (*toggle)(int on)) {
    memset(&X, 0, sizeof X);
    X.isa[0] = X.isa[1] = isa;
    X.n = 2;
    X.toggle = toggle;
    family_random(t, AXIAL_F32);
    cumsum_rows(t, AXIAL_F32, FILL_GENERAL, cumsum_x, 0.03, FLAGS_ONE);
    memset(&X, 0, sizeof X);
}

void t_cross_isa(ax_t *t) {
    memset(&X, 0, sizeof X);
    static const axial_isa arch[AX_N_ARCH_ISAS] = AX_ARCH_ISAS;
    char names[64] = "";
    for (int i = 0; i < AX_N_ARCH_ISAS; i++)
        if (arch[i] != AXIAL_ISA_SCALAR && (axial_isa_available() & (1u << arch[i]))) {
            X.isa[X.n++] = arch[i];
            strncat(names, X.n > 1 ? ", " : "", sizeof names - strlen(names) - 1);
            strncat(names, axial_isa_name(arch[i]), sizeof names - strlen(names) - 1);
        }
    if (X.n < 2) {
        ax_skip(t, "needs two SIMD ISAs to compare, this CPU/build has %d%s%s%s (test golden "
                   "checks each SIMD ISA's bits against the files made on x86)",
                X.n, X.n ? " (" : "", names, X.n ? ")" : "");
        return;
    }
    axial_status st = axial_pool_create(2, &X.pool);
    if (!AX_CHECK(t, st == AXIAL_OK, "axial_pool_create(2): %s", axial_last_error()))
        return;
    X.ex = axial_pool_executor(X.pool);
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        const axial_dtype dt = ax_float_types[d];
        family_random(t, dt);
        family_long(t, dt);
        cumsum_rows(t, dt, FILL_GENERAL, cumsum_x, 0.03, FLAGS_ONE);
        cumsum_short_rows(t, dt, FILL_GENERAL, cumsum_x, 0.05, FLAGS_ONE);
        cumsum_columns(t, dt, FILL_GENERAL, cumsum_x, 0.05, FLAGS_ONE);
        reduce_rows(t, dt, FILL_GENERAL, reduce_x, 0.1);
        reduce_short_rows(t, dt, FILL_GENERAL, reduce_x, 0.2);
        reduce_columns(t, dt, FILL_GENERAL, reduce_x, 0.1);
        reduce_3d(t, dt, FILL_GENERAL, reduce_x, 0.03);
        family_split(t, dt);
        family_cancel(t, dt);
        family_specials(t, dt);
    }
    axial_pool_destroy(X.pool);
    st = axial_isa_select(t->isa);
    AX_CHECK(t, st == AXIAL_OK, "selecting %s again: %s", axial_isa_name(t->isa),
             axial_last_error());
    ax_note(t, "%s: %ld cases, %ld calls (%ld differed only in NaN payloads)", names, X.cases,
            X.calls, X.nan_only);
}
