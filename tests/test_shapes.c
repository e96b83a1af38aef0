/* SPDX-License-Identifier: MIT */
/*
 * test_shapes.c: every kernel shape the planner produces, at the sizes
 * around every vector width, unroll factor and several-rows-per-vector
 * packing, for every type, bit for bit against the oracle.
 *
 * The shape families are in cases.c (cumsum_rows, reduce_3d, ...); the roll
 * shapes are here.  Data is exact (cases.h, FILL_EXACT: every order of
 * summation gives the same bits), inputs and outputs are misaligned by 0..7
 * whole elements and followed by canaries; a quarter of the scans run in
 * place.  The *_specials tests run the same shapes for the float types with
 * inf/-inf/NaN (dense and rare) and with signed zeros only (a sum of -0.0
 * terms is -0.0, an empty sum +0).
 *
 * Library calls per ISA at AXIAL_TEST_SCALE=1 (every listed shape runs; the
 * specials sample them; a lower scale samples all of them): cumsum rows
 * 15744, short rows 12288, columns 17472, specials ~11300; reduce rows and
 * short rows 7584, columns 4776, 3-D 20160, specials ~4500; roll rows by
 * every shift 74550, 100..400-byte and long rows 1525, 3-D ~1370.
 * shape_streaming (below): 96 calls of 4-8 MiB with misaligned outputs.
 */
#include <stdlib.h>

#include "cases.h"
#include "harness.h"
#include "oracle.h"
#include "tests.h"

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* ---- CumSum ------------------------------------------------------------------------ */

void t_cumsum_shape_rows(ax_t *t) {
    for (size_t d = 0; d < AX_N_SUM_TYPES; d++)
        cumsum_rows(t, ax_sum_types[d], FILL_EXACT, cumsum_case, 1.0, FLAGS_ALL);
}

void t_cumsum_shape_short_rows(ax_t *t) {
    for (size_t d = 0; d < AX_N_SUM_TYPES; d++)
        cumsum_short_rows(t, ax_sum_types[d], FILL_EXACT, cumsum_case, 1.0, FLAGS_ALL);
}

void t_cumsum_shape_columns(ax_t *t) {
    for (size_t d = 0; d < AX_N_SUM_TYPES; d++)
        cumsum_columns(t, ax_sum_types[d], FILL_EXACT, cumsum_case, 1.0, FLAGS_ALL);
}

/* inf, -inf and NaN propagate as IEEE addition says (any NaN equals any NaN);
 * a sum of only -0.0 is -0.0. */
void t_cumsum_shape_specials(ax_t *t) {
    static const enum fill modes[3] = {FILL_RARE_SPECIALS, FILL_SPECIALS, FILL_ZEROS};
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++)
        for (int m = 0; m < 3; m++) {
            cumsum_rows(t, ax_float_types[d], modes[m], cumsum_case, 0.25, FLAGS_ALL);
            cumsum_short_rows(t, ax_float_types[d], modes[m], cumsum_case, 0.25, FLAGS_ALL);
            cumsum_columns(t, ax_float_types[d], modes[m], cumsum_case, 0.25, FLAGS_ALL);
        }
}

/* ---- ReduceSum ------------------------------------------------------------------------ */

void t_reduce_shape_rows(ax_t *t) {
    for (size_t d = 0; d < AX_N_SUM_TYPES; d++) {
        reduce_rows(t, ax_sum_types[d], FILL_EXACT, reduce_case, 1.0);
        reduce_short_rows(t, ax_sum_types[d], FILL_EXACT, reduce_case, 1.0);
    }
}

void t_reduce_shape_columns(ax_t *t) {
    for (size_t d = 0; d < AX_N_SUM_TYPES; d++)
        reduce_columns(t, ax_sum_types[d], FILL_EXACT, reduce_case, 1.0);
}

void t_reduce_shape_3d(ax_t *t) {
    for (size_t d = 0; d < AX_N_SUM_TYPES; d++)
        reduce_3d(t, ax_sum_types[d], FILL_EXACT, reduce_case, 1.0);
}

void t_reduce_shape_specials(ax_t *t) {
    static const enum fill modes[3] = {FILL_RARE_SPECIALS, FILL_SPECIALS, FILL_ZEROS};
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++)
        for (int m = 0; m < 3; m++) {
            reduce_rows(t, ax_float_types[d], modes[m], reduce_case, 0.25);
            reduce_short_rows(t, ax_float_types[d], modes[m], reduce_case, 0.25);
            reduce_columns(t, ax_float_types[d], modes[m], reduce_case, 0.25);
            reduce_3d(t, ax_float_types[d], modes[m], reduce_case, 0.1);
        }
}

/* ---- Roll ------------------------------------------------------------------------------ */

/* Every element size, BOOL on its own; of two types of one size, either. */
static const axial_dtype roll_sizes[5][2] = {{AXIAL_I8, AXIAL_U8},   {AXIAL_BOOL, AXIAL_BOOL},
                                             {AXIAL_I16, AXIAL_F16}, {AXIAL_F32, AXIAL_I32},
                                             {AXIAL_F64, AXIAL_I64}};

static axial_dtype roll_type(ax_t *t, size_t s) { return roll_sizes[s][ax_rand(t) & 1]; }

/* shift s of a dimension d, written as s, s - d or s + k*d */
static int64_t spell_shift(ax_t *t, int64_t s, int64_t d) {
    switch (ax_rand(t) % 4) {
    case 0: return s - d;
    case 1: return s + d * ax_rand_range(t, -3, 3);
    default: return s;
    }
}

/* One row shape [R, n] (axis 1 or -1) by s; [n] when R is 1, half the time. */
static void roll_row(ax_t *t, axial_dtype dt, int64_t r, int64_t n, int64_t s) {
    int64_t shape[2] = {r, n}, sh[1] = {spell_shift(t, s, n)}, ax[1];
    bool inplace = ax_rand(t) % 8 == 0;
    if (r == 1 && (ax_rand(t) & 1)) {
        ax[0] = ax_rand(t) & 1 ? 0 : -1;
        roll_case(t, dt, 1, shape + 1, sh, 1, ax, 1, inplace);
    } else {
        ax[0] = ax_rand(t) & 1 ? 1 : -1;
        roll_case(t, dt, 2, shape, sh, 1, ax, 1, inplace);
    }
}

/* Rows n = 1..70 by every shift 0..n-1, R = 1, 2, 3, 5, 8, 17 rows. */
void t_roll_shape_rows(ax_t *t) {
    static const int64_t rs[] = {1, 2, 3, 5, 8, 17};
    for (size_t s = 0; s < COUNT(roll_sizes); s++)
        for (int64_t n = 1; n <= 70; n++)
            for (int64_t sh = 0; sh < n; sh++)
                for (size_t r = 0; r < COUNT(rs); r++)
                    if (ax_sample(t, 1.0)) roll_row(t, roll_type(t, s), rs[r], n, sh);
}

/* Rows of 100..400 bytes (each length for 8- and 4-byte elements, every
 * 3rd / 7th for 2 and 1), by 1, n-1, n/2 and two random shifts; long rows
 * (1000..65539) by 1, 7, n/3, n/2, n-1 and a random shift. */
void t_roll_shape_long_rows(ax_t *t) {
    static const int64_t rs[] = {1, 2, 3, 4, 7};
    static const size_t step[5] = {7, 7, 3, 1, 1};
    for (size_t s = 0; s < COUNT(roll_sizes); s++) {
        int64_t es = (int64_t)ax_dtype_size(roll_sizes[s][0]);
        for (int64_t n = (100 + es - 1) / es; n <= 400 / es; n += (int64_t)step[s]) {
            int64_t shifts[5] = {1, n - 1, n / 2, ax_rand_range(t, 0, n - 1),
                                 ax_rand_range(t, 0, n - 1)};
            for (int k = 0; k < 5; k++)
                if (ax_sample(t, 1.0))
                    roll_row(t, roll_type(t, s), rs[ax_rand(t) % COUNT(rs)], n, shifts[k]);
        }
        static const int64_t longs[] = {1000, 1023, 1024, 1025, 4095, 4096, 4097, 10007, 65539};
        for (size_t l = 0; l < COUNT(longs); l++) {
            int64_t n = longs[l];
            int64_t shifts[6] = {1, 7, n / 3, n / 2, n - 1, ax_rand_range(t, 0, n - 1)};
            for (int k = 0; k < 6; k++)
                if (ax_sample(t, 1.0))
                    roll_row(t, roll_type(t, s), n > 5000 ? 1 : 1 + (int64_t)(ax_rand(t) & 1),
                             n, shifts[k]);
        }
    }
}

/* [A, B, C] rolled on all three axes (random order, random shifts of any
 * sign), on two of them, and flattened. */
void t_roll_shape_3d(ax_t *t) {
    static const int64_t as[] = {1, 2, 3, 5}, bs[] = {1, 2, 7, 16, 17};
    static const int64_t cs[] = {1, 2, 3, 4, 8, 15, 16, 17, 33, 64, 65};
    for (size_t s = 0; s < COUNT(roll_sizes); s++)
        for (size_t a = 0; a < COUNT(as); a++)
            for (size_t b = 0; b < COUNT(bs); b++)
                for (size_t c = 0; c < COUNT(cs); c++) {
                    if (!ax_sample(t, 1.0)) continue;
                    int64_t shape[3] = {as[a], bs[b], cs[c]}, axes[3] = {0, 1, 2}, sh[3];
                    for (int k = 2; k > 0; k--) { /* a random order */
                        int j = (int)(ax_rand(t) % (uint64_t)(k + 1));
                        int64_t tmp = axes[k];
                        axes[k] = axes[j];
                        axes[j] = tmp;
                    }
                    for (int k = 0; k < 3; k++) {
                        int64_t d = shape[axes[k]];
                        sh[k] = spell_shift(t, ax_rand_range(t, 0, d - 1), d);
                        if (ax_rand(t) & 1) axes[k] -= 3;
                    }
                    size_t naxes = ax_rand(t) % 4 == 0 ? 2 : 3;
                    axial_dtype dt = roll_type(t, s);
                    roll_case(t, dt, 3, shape, sh, naxes, axes, naxes, ax_rand(t) % 4 == 0);
                    if (ax_rand(t) % 4 == 0)
                        roll_case(t, dt, 3, shape, sh, 1, NULL, 0, false);
                }
}

/* ---- the streaming-store paths -------------------------------------------------- */

/* Calls that write 4 MiB or more take the kernels' streaming-store paths
 * (non-temporal stores of whole, aligned 64-byte lines), whose heads and
 * tails before and after the output's first and last line boundary are
 * separate code, driven by the output's address.  The shape families above
 * stay far below that size, and test_guard's big calls put their outputs
 * against a page, so neither covers an output that starts off a line (a
 * head handled wrongly there can leave the first columns of every row
 * unwritten, which only such an output shows).  Here, for every summable type
 * and two output misalignments within a 64-byte line (one element: the
 * longest head; half a line plus one), each such path against the oracle,
 * the input misaligned as well: CumSum [R, C] axis 0 with C*size a
 * multiple of 64 bytes and not, and rows of more than 16 column tiles
 * (AVX-512 walks them 16 tiles at a time) and such rows aligned (the wide
 * column sweep then streams its whole vectors), one long line (also half a
 * line off, where blocks of 32 bytes stream), segments [R, 4] axis 1;
 * ReduceSum [R, 2] and [R, 3] axis 1; Roll of one line and of [R, C] by
 * (0, 333)
 * (the integer types: one of each width, signed and unsigned share their
 * kernels, at one misalignment).  AXIAL_TEST_SCALE < 1 (qemu, valgrind)
 * samples them; AXIAL_TEST_BIG=0 keeps the float types' CumSum [R, C]. */
void t_shape_streaming(ax_t *t) {
    if (t->isa == AXIAL_ISA_SCALAR) {
        /* plain calls, whose kernel alone decides to stream: the scalar
         * kernels never do, and their big lines are the oracles' own loops */
        ax_skip(t, "the scalar kernels have no streaming stores");
        return;
    }
    const size_t nt = (size_t)4 << 20; /* the streaming threshold, bytes written */
    const bool all = ax_big();
    for (size_t d = 0; d < AX_N_SUM_TYPES; d++) {
        const axial_dtype dt = ax_sum_types[d];
        const bool fl = ax_dtype_is_float(dt);
        if (!fl && (!all || !or_is_signed(dt)))
            continue;
        const int64_t es = (int64_t)ax_dtype_size(dt), lane = 64 / es, big = (int64_t)nt / es;
        const int64_t offs[2] = {1, lane / 2 + 1};
        for (int k = fl ? 0 : (int)(d / 2) % 2; k < (fl ? 2 : (int)(d / 2) % 2 + 1); k++) {
            io_misalign_y = (int)offs[k];
            io_misalign_x = (int)((offs[k] * 5 + 3) % lane);
            const unsigned flags = (unsigned)(d + (size_t)k) % 4;
            const int64_t C = lane * ax_rand_range(t, 2, 9), C1 = C + ax_rand_range(t, 1, lane - 1);
            const int64_t cols[2] = {big / C + 3, C}, cols1[2] = {big / C1 + 3, C1};
            /* rows wider than 16 tiles of 8 vectors: AVX-512 walks them in
             * several groups of tiles, the head riding with the first */
            const int64_t W = 17 * 8 * (fl ? 8 : lane) + lane / 2 + 1; /* AVX-512 lanes: f64 for floats */
            const int64_t wide[2] = {big / W + 3, W};
            const int64_t line[1] = {big + ax_rand_range(t, 1, 2 * lane)};
            const int64_t seg[2] = {big / 4 + 5, 4}, two[2] = {big + 7, 2}, three[2] = {big + 9, 3};
            const int64_t rows[2] = {big / 1000 + 2, 1000};
            const int64_t ax1[1] = {1}, sh1[1] = {line[0] / 3 + 1}, sh2[2] = {0, 333};
            const int64_t rax[2] = {0, 1};
            if (ax_sample(t, 1.0))
                cumsum_case(t, dt, 2, cols, 0, flags, FILL_EXACT, k == 1);
            if (!all)
                continue;
            if (ax_sample(t, 1.0))
                cumsum_case(t, dt, 2, cols1, 0, flags, FILL_EXACT, false);
            if (ax_sample(t, 1.0))
                cumsum_case(t, dt, 2, wide, 0, flags ^ 1u, FILL_EXACT, false);
            if (ax_sample(t, 1.0)) { /* the same sweep aligned: its whole vectors stream */
                const int64_t Wa = (W / lane) * lane, walign[2] = {big / Wa + 3, Wa};
                io_misalign_x = io_misalign_y = 0;
                cumsum_case(t, dt, 2, walign, 0, flags, FILL_EXACT, false);
                io_misalign_y = (int)offs[k];
                io_misalign_x = (int)((offs[k] * 5 + 3) % lane);
            }
            if (ax_sample(t, 1.0))
                cumsum_case(t, dt, 1, line, 0, flags, FILL_EXACT, k == 0);
            if (ax_sample(t, 1.0) && k == 1) { /* half a line off (both ends): 32-byte blocks stream */
                const int64_t half[1] = {big + lane};
                io_misalign_y = (int)(lane / 2);
                cumsum_case(t, dt, 1, half, 0, flags, FILL_EXACT, false);
                io_misalign_y = (int)offs[k];
            }
            if (ax_sample(t, 1.0))
                cumsum_case(t, dt, 2, seg, 1, flags, FILL_EXACT, false);
            if (ax_sample(t, 1.0))
                reduce_case(t, dt, 2, two, ax1, 1, 0, FILL_EXACT);
            if (ax_sample(t, 1.0))
                reduce_case(t, dt, 2, three, ax1, 1, AXIAL_REDUCE_KEEP_DIMS, FILL_EXACT);
            if (ax_sample(t, 1.0))
                roll_case(t, dt, 1, line, sh1, 1, rax, 1, k == 1);
            if (ax_sample(t, 1.0))
                roll_case(t, dt, 2, rows, sh2, 2, rax, 2, false);
        }
    }
    io_misalign_x = io_misalign_y = -1;
}
