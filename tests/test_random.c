/* SPDX-License-Identifier: MIT */
/*
 * test_random.c: the library against the independent oracle (oracle.c) on
 * random shapes of rank 0..6 (with 0- and 1-sized dimensions, and long axes
 * that cross every vector width and unroll), every axis (negative too),
 * every flag, repeated axes, huge and negative shifts, every type, in-place
 * calls, misaligned buffers (whole elements) and canary bytes around every
 * output.
 *
 * Test data for floats is k/16 with |k| <= 64 (and some -0.0): every partial
 * sum is exact in f32, f64 and long double, so any summation order gives the
 * same exact sum, rounded once to the output type: the comparison is
 * bitwise, for every ISA.  Integers are full-width random bits (wrapping)
 * mixed with small values.  The kernel shapes at every vector-width
 * boundary are test_shapes.c; general data test_tolerance.c and
 * test_accuracy.c.  The case machinery is cases.c.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "harness.h"
#include "oracle.h"
#include "tests.h"

/* A random shape of rank in [rmin, rmax] with at most ~max_count elements. */
static size_t rand_shape(ax_t *t, size_t rmin, size_t rmax, size_t max_count,
                         int64_t *shape) {
    size_t rank = (size_t)ax_rand_range(t, (int64_t)rmin, (int64_t)rmax);
    for (size_t k = 0; k < rank; k++) {
        uint64_t r = ax_rand(t) % 100;
        shape[k] = r < 3 ? 0 : r < 23 ? 1 : r < 75 ? ax_rand_range(t, 2, 9)
                                                    : ax_rand_range(t, 10, 70);
    }
    for (;;) { /* shrink the largest dimension until it fits */
        size_t count = 1, big = 0;
        for (size_t k = 0; k < rank; k++) {
            count *= (size_t)shape[k];
            if (shape[k] > shape[big]) big = k;
        }
        if (count <= max_count) break;
        shape[big] = shape[big] / 2;
    }
    return rank;
}

/* ---- CumSum -------------------------------------------------------------------- */

void t_cumsum_random(ax_t *t) {
    int64_t shape[6];
    for (int it = 0; it < ax_iters(40); it++)
        for (size_t d = 0; d < AX_N_SUM_TYPES; d++) {
            size_t rank = rand_shape(t, 1, 6, 1500, shape);
            int64_t axis = ax_rand_range(t, -(int64_t)rank, (int64_t)rank - 1);
            cumsum_case(t, ax_sum_types[d], rank, shape, axis, (unsigned)(ax_rand(t) & 3),
                        FILL_EXACT, false);
        }
}

/* Long scanned axes, with short and long inner strides: every vector width
 * and unroll boundary (1..70, 127..129, 255..257, ~1000, ~4100). */
void t_cumsum_long_axes(ax_t *t) {
    static const int64_t lens[] = {2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65,
                                   127, 128, 129, 255, 256, 257, 1000, 1025};
    static const int64_t others[] = {1, 2, 3, 4, 5, 8, 16, 17};
    for (size_t l = 0; l < sizeof lens / sizeof *lens; l++)
        for (size_t d = 0; d < AX_N_SUM_TYPES; d++) {
            int64_t o = others[ax_rand(t) % 8], s1[1] = {lens[l]};
            unsigned flags = (unsigned)(ax_rand(t) & 3);
            cumsum_case(t, ax_sum_types[d], 1, s1, 0, flags, FILL_EXACT, false);
            int64_t rows[2] = {o, lens[l]}, cols[2] = {lens[l], o};
            cumsum_case(t, ax_sum_types[d], 2, rows, 1, flags, FILL_EXACT, false);
            cumsum_case(t, ax_sum_types[d], 2, cols, 0, flags, FILL_EXACT, false);
            int64_t mid[3] = {2, lens[l] > 300 ? 40 : lens[l], lens[l] > 300 ? 2 : o};
            cumsum_case(t, ax_sum_types[d], 3, mid, -2, flags, FILL_EXACT, false);
        }
}

void t_cumsum_inplace(ax_t *t) {
    int64_t shape[6];
    for (int it = 0; it < ax_iters(15); it++)
        for (size_t d = 0; d < AX_N_SUM_TYPES; d++) {
            size_t rank = rand_shape(t, 1, 6, 2000, shape);
            int64_t axis = ax_rand_range(t, -(int64_t)rank, (int64_t)rank - 1);
            cumsum_case(t, ax_sum_types[d], rank, shape, axis, (unsigned)(ax_rand(t) & 3),
                        FILL_EXACT, true);
        }
    static const int64_t lens[] = {1, 16, 17, 255, 1000};
    for (size_t l = 0; l < 5; l++)
        for (size_t d = 0; d < AX_N_SUM_TYPES; d++)
            for (unsigned flags = 0; flags < 4; flags++) {
                int64_t s[2] = {lens[l], 3};
                cumsum_case(t, ax_sum_types[d], 1, s, 0, flags, FILL_EXACT, true);
                cumsum_case(t, ax_sum_types[d], 2, s, 0, flags, FILL_EXACT, true);
            }
}

/* inf, -inf and NaN propagate as IEEE addition says (NaN payloads aside). */
void t_cumsum_specials(ax_t *t) {
    int64_t shape[6];
    for (int it = 0; it < ax_iters(30); it++)
        for (size_t d = 0; d < 4; d++) {
            size_t rank = rand_shape(t, 1, 4, 3000, shape);
            int64_t axis = ax_rand_range(t, -(int64_t)rank, (int64_t)rank - 1);
            cumsum_case(t, ax_sum_types[d], rank, shape, axis, (unsigned)(ax_rand(t) & 3),
                        FILL_SPECIALS, ax_rand(t) & 1);
        }
}

/* ---- ReduceSum ------------------------------------------------------------------ */

static size_t rand_axes(ax_t *t, size_t rank, int64_t *axes, size_t max) {
    if (rank == 0) return 0;
    size_t naxes = (size_t)ax_rand_range(t, 0, (int64_t)(rank + 1 < max ? rank + 1 : max));
    for (size_t a = 0; a < naxes; a++)
        axes[a] = ax_rand_range(t, -(int64_t)rank, (int64_t)rank - 1);
    return naxes;
}

void t_reduce_random(ax_t *t) {
    int64_t shape[6], axes[8];
    for (int it = 0; it < ax_iters(40); it++)
        for (size_t d = 0; d < AX_N_SUM_TYPES; d++) {
            size_t rank = rand_shape(t, 0, 6, 3000, shape);
            size_t naxes = rand_axes(t, rank, axes, 8);
            reduce_case(t, ax_sum_types[d], rank, shape, axes, naxes, (unsigned)(ax_rand(t) & 3),
                        FILL_EXACT);
        }
}

/* Rows, columns and the 3-D middle/outer patterns at lengths that cross
 * every vector width and unroll. */
void t_reduce_long_axes(ax_t *t) {
    static const int64_t lens[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65,
                                   127, 128, 129, 255, 256, 257, 1000, 4097};
    static const int64_t others[] = {1, 2, 3, 4, 5, 8, 16, 17, 33};
    for (size_t l = 0; l < sizeof lens / sizeof *lens; l++)
        for (size_t d = 0; d < AX_N_SUM_TYPES; d++) {
            int64_t o = others[ax_rand(t) % 9];
            int64_t s1[1] = {lens[l]}, a0[1] = {0}, a1[1] = {1}, a02[2] = {0, 2};
            reduce_case(t, ax_sum_types[d], 1, s1, a0, 1, 0, FILL_EXACT);
            int64_t rows[2] = {o, lens[l]}, cols[2] = {lens[l], o};
            reduce_case(t, ax_sum_types[d], 2, rows, a1, 1, 0, FILL_EXACT);
            reduce_case(t, ax_sum_types[d], 2, cols, a0, 1, AXIAL_REDUCE_KEEP_DIMS, FILL_EXACT);
            int64_t mid[3] = {3, lens[l] > 300 ? 50 : lens[l], o};
            reduce_case(t, ax_sum_types[d], 3, mid, a1, 1, 0, FILL_EXACT);
            reduce_case(t, ax_sum_types[d], 3, mid, a02, 2, 0, FILL_EXACT);
        }
}

void t_reduce_specials(ax_t *t) {
    int64_t shape[6], axes[8];
    for (int it = 0; it < ax_iters(30); it++)
        for (size_t d = 0; d < 4; d++) {
            size_t rank = rand_shape(t, 0, 4, 3000, shape);
            size_t naxes = rand_axes(t, rank, axes, 8);
            reduce_case(t, ax_sum_types[d], rank, shape, axes, naxes, (unsigned)(ax_rand(t) & 3),
                        FILL_SPECIALS);
        }
}

/* naxes == 0: the identity (OpenVINO ReduceSum-1, ONNX noop_with_empty_axes=1)
 * or, with AXIAL_REDUCE_EMPTY_AXES_ALL, every axis (ONNX-13's default). */
void t_reduce_empty_axes(ax_t *t) {
    const int64_t shape[3] = {2, 3, 4};
    int32_t x[24], y[24];
    for (int i = 0; i < 24; i++) x[i] = i + 1;
    size_t r = 0;
    int64_t out[3] = {0, 0, 0};
    /* identity */
    memset(y, 0, sizeof y);
    axial_status st = axial_reduce_sum(AXIAL_I32, x, y, 3, shape, NULL, 0, 0);
    AX_CHECK(t, st == AXIAL_OK && memcmp(x, y, sizeof x) == 0, "naxes 0, no flag: identity");
    st = axial_reduce_sum_shape(3, shape, NULL, 0, 0, &r, out);
    AX_CHECK(t, st == AXIAL_OK && r == 3 && out[0] == 2 && out[1] == 3 && out[2] == 4,
             "naxes 0, no flag: shape [2,3,4] (rank %zu)", r);
    /* every axis */
    memset(y, 0, sizeof y);
    st = axial_reduce_sum(AXIAL_I32, x, y, 3, shape, NULL, 0, AXIAL_REDUCE_EMPTY_AXES_ALL);
    AX_CHECK(t, st == AXIAL_OK && y[0] == 300 && y[1] == 0,
             "naxes 0, EMPTY_AXES_ALL: y[0] = %d, want 300; y[1] untouched", y[0]);
    st = axial_reduce_sum_shape(3, shape, NULL, 0, AXIAL_REDUCE_EMPTY_AXES_ALL, &r, out);
    AX_CHECK(t, st == AXIAL_OK && r == 0, "EMPTY_AXES_ALL: rank %zu, want 0", r);
    st = axial_reduce_sum_shape(3, shape, NULL, 0,
                                AXIAL_REDUCE_EMPTY_AXES_ALL | AXIAL_REDUCE_KEEP_DIMS, &r, out);
    AX_CHECK(t, st == AXIAL_OK && r == 3 && out[0] == 1 && out[1] == 1 && out[2] == 1,
             "EMPTY_AXES_ALL|KEEP_DIMS: shape [1,1,1] (rank %zu)", r);
    /* the flag does nothing when axes are given */
    const int64_t ax1[1] = {1};
    st = axial_reduce_sum(AXIAL_I32, x, y, 3, shape, ax1, 1, AXIAL_REDUCE_EMPTY_AXES_ALL);
    AX_CHECK(t, st == AXIAL_OK && y[0] == 1 + 5 + 9 && y[7] == 16 + 20 + 24,
             "axes [1] with EMPTY_AXES_ALL: y[0] = %d, y[7] = %d", y[0], y[7]);
    /* rank 0: a copy either way */
    int32_t s = 42, o = 0;
    st = axial_reduce_sum(AXIAL_I32, &s, &o, 0, NULL, NULL, 0, AXIAL_REDUCE_EMPTY_AXES_ALL);
    AX_CHECK(t, st == AXIAL_OK && o == 42, "rank 0: y = %d, want 42", o);
    /* reducing an axis of length 0 gives 0 */
    const int64_t zshape[2] = {3, 0};
    int32_t z[3] = {7, 7, 7};
    st = axial_reduce_sum(AXIAL_I32, NULL, z, 2, zshape, ax1, 1, 0);
    AX_CHECK(t, st == AXIAL_OK && z[0] == 0 && z[1] == 0 && z[2] == 0,
             "[3,0] over axis 1: %d %d %d, want zeros", z[0], z[1], z[2]);
    float fz[3] = {7, 7, 7};
    st = axial_reduce_sum(AXIAL_F32, NULL, fz, 2, zshape, ax1, 1, 0);
    AX_CHECK(t, st == AXIAL_OK && fz[0] == 0 && !signbit(fz[0]), "f32 empty sum is +0");
}

/* The two above for the other tests (cases.h). */
size_t ax_rand_shape(ax_t *t, size_t rmin, size_t rmax, size_t max_count, int64_t *shape) {
    return rand_shape(t, rmin, rmax, max_count, shape);
}
size_t ax_rand_axes(ax_t *t, size_t rank, int64_t *axes, size_t max) {
    return rand_axes(t, rank, axes, max);
}

/* ---- Roll ------------------------------------------------------------------------ */

static int64_t rand_shift(ax_t *t, int64_t dim) {
    switch (ax_rand(t) % 8) {
    case 0: return INT64_MAX - ax_rand_range(t, 0, 3);
    case 1: return INT64_MIN + ax_rand_range(t, 0, 3);
    case 2: return (int64_t)(ax_rand(t) >> 1) * (ax_rand(t) & 1 ? 1 : -1);
    case 3: return dim * ax_rand_range(t, -1000, 1000) + ax_rand_range(t, -2, 2);
    default: return ax_rand_range(t, -2 * dim - 2, 2 * dim + 2);
    }
}

static void roll_random_cases(ax_t *t, int n, bool inplace) {
    int64_t shape[6], shift[8], axes[8];
    for (int it = 0; it < n; it++)
        for (size_t d = 0; d < AX_N_ROLL_TYPES; d++) {
            bool flat = ax_rand(t) % 5 == 0;
            size_t rank = rand_shape(t, flat ? 0 : 1, 6, 3000, shape);
            size_t naxes = flat ? 0 : (size_t)ax_rand_range(t, 1, (int64_t)rank + 2);
            for (size_t a = 0; a < naxes; a++)
                axes[a] = ax_rand_range(t, -(int64_t)rank, (int64_t)rank - 1);
            size_t nshift = (flat || ax_rand(t) % 4 == 0) ? 1 : naxes;
            for (size_t s = 0; s < nshift; s++)
                shift[s] = rand_shift(t, naxes ? shape[axes[s] < 0 ? axes[s] + (int64_t)rank
                                                                   : axes[s]]
                                               : (int64_t)or_count(rank, shape));
            roll_case(t, ax_roll_types[d], rank, shape, shift, nshift, axes, naxes, inplace);
        }
}

void t_roll_random(ax_t *t) { roll_random_cases(t, ax_iters(50), false); }
void t_roll_inplace(ax_t *t) { roll_random_cases(t, ax_iters(20), true); }

void t_roll_extreme_shifts(ax_t *t) {
    static const int64_t shifts[] = {INT64_MIN, INT64_MIN + 1, INT64_MAX, INT64_MAX - 1, -1,
                                     0, 1, 1000000007, -1000000007, (int64_t)1 << 62};
    static const int64_t dims[] = {1, 2, 3, 7, 16, 17, 100, 4099};
    for (size_t s = 0; s < sizeof shifts / sizeof *shifts; s++)
        for (size_t d = 0; d < sizeof dims / sizeof *dims; d++)
            for (size_t e = 0; e < AX_N_ROLL_TYPES; e += 2) {
                int64_t one[1] = {dims[d]}, two[2] = {3, dims[d]}, ax0[1] = {0};
                int64_t sh[1] = {shifts[s]}, sh2[2] = {shifts[s], shifts[s]}, ax11[2] = {1, -1};
                roll_case(t, ax_roll_types[e], 1, one, sh, 1, ax0, 1, false);
                roll_case(t, ax_roll_types[e], 1, one, sh, 1, NULL, 0, false);
                roll_case(t, ax_roll_types[e], 2, two, sh2, 2, ax11, 2, false); /* adds up */
                roll_case(t, ax_roll_types[e], 2, two, sh, 1, ax11, 2, s & 1);
            }
}

/* ---- sizes of zero and other corners ---------------------------------------------- */

void t_zero_sized(ax_t *t) {
    const int64_t shapes[3][3] = {{0, 3, 4}, {3, 0, 4}, {3, 4, 0}};
    const int64_t all[3] = {0, 1, 2}, one[1] = {1}, sh[1] = {5};
    for (int s = 0; s < 3; s++) {
        /* nothing to read or write: NULL buffers are fine */
        axial_status st = axial_cumsum(AXIAL_F32, NULL, NULL, 3, shapes[s], 1, 3);
        AX_CHECK(t, st == AXIAL_OK, "cumsum of shape %d with NULL buffers: %s", s,
                 axial_status_name(st));
        st = axial_roll(AXIAL_F32, NULL, NULL, 3, shapes[s], sh, 1, one, 1);
        AX_CHECK(t, st == AXIAL_OK, "roll of shape %d with NULL buffers: %s", s,
                 axial_status_name(st));
        st = axial_roll(AXIAL_F32, NULL, NULL, 3, shapes[s], sh, 1, NULL, 0);
        AX_CHECK(t, st == AXIAL_OK, "flat roll of shape %d: %s", s, axial_status_name(st));
        /* reduce over every axis: one output of 0 */
        double y = 5.0;
        st = axial_reduce_sum(AXIAL_F64, NULL, &y, 3, shapes[s], all, 3, 0);
        AX_CHECK(t, st == AXIAL_OK && y == 0.0, "reduce of shape %d to a scalar: %s, %g", s,
                 axial_status_name(st), y);
    }
    /* rank 0 flat roll is a copy */
    int16_t a = 1234, b = 0;
    axial_status st = axial_roll(AXIAL_I16, &a, &b, 0, NULL, sh, 1, NULL, 0);
    AX_CHECK(t, st == AXIAL_OK && b == 1234, "rank-0 roll: %s, %d", axial_status_name(st), b);
}

/* Wrapping integer sums: the extremes of every width. */
void t_integer_wrap(ax_t *t) {
    const int64_t shape[1] = {4}, ax[1] = {0};
    int8_t x8[4] = {127, 1, -128, -1}, y8[4], r8;
    axial_status st = axial_cumsum(AXIAL_I8, x8, y8, 1, shape, 0, 0);
    AX_CHECK(t, st == AXIAL_OK && y8[0] == 127 && y8[1] == -128 && y8[2] == 0 && y8[3] == -1,
             "i8 cumsum wraps: %d %d %d %d", y8[0], y8[1], y8[2], y8[3]);
    st = axial_reduce_sum(AXIAL_I8, x8, &r8, 1, shape, ax, 1, 0);
    AX_CHECK(t, st == AXIAL_OK && r8 == -1, "i8 sum wraps: %d", r8);
    uint64_t xu[4] = {UINT64_MAX, 2, UINT64_MAX, 0}, yu[4], ru;
    st = axial_cumsum(AXIAL_U64, xu, yu, 1, shape, 0, AXIAL_CUMSUM_REVERSE);
    AX_CHECK(t, st == AXIAL_OK && yu[0] == 0 && yu[1] == 1 && yu[2] == UINT64_MAX && yu[3] == 0,
             "u64 reverse cumsum wraps");
    st = axial_reduce_sum(AXIAL_U64, xu, &ru, 1, shape, ax, 1, 0);
    AX_CHECK(t, st == AXIAL_OK && ru == 0, "u64 sum wraps: %llu",
             (unsigned long long)ru);
    int64_t xi[4] = {INT64_MAX, 1, INT64_MIN, -1}, ri;
    st = axial_reduce_sum(AXIAL_I64, xi, &ri, 1, shape, ax, 1, 0);
    AX_CHECK(t, st == AXIAL_OK && ri == -1, "i64 sum wraps: %lld", (long long)ri);
    /* 300 x 255 in u8 over a long axis: 76500 mod 256 = 212 */
    uint8_t xb[300], rb;
    const int64_t s300[1] = {300};
    memset(xb, 255, sizeof xb);
    st = axial_reduce_sum(AXIAL_U8, xb, &rb, 1, s300, ax, 1, 0);
    AX_CHECK(t, st == AXIAL_OK && rb == (uint8_t)(300u * 255u), "u8 sum of 300 x 255: %u", rb);
}
