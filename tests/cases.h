/* SPDX-License-Identifier: MIT */
/*
 * cases.h: one library call checked against the oracle, and the families of
 * kernel shapes the differential tests walk.
 *
 * A case (cumsum_case, reduce_case, roll_case) fills a random input, runs the
 * oracle, calls the library with the ISA of the test selected and compares:
 * inputs and outputs sit in buffers with whole-element misalignment 0..7 and
 * canary bytes before and after (io_begin / io_ready / io_end), so a kernel
 * that reads or writes past a tensor, or misses an element, fails.  Exact
 * data compares bit for bit (test_random.c, test_shapes.c); general float
 * data against the accuracy bound of docs/API.md (test_tolerance.c plugs its own case runner
 * into the same shape families).
 *
 * The families (cumsum_rows, reduce_columns, ...) enumerate the shapes around
 * every vector width and unroll factor of the kernels, as (outer, n, inner)
 * the planner hands them; each calls `run` once per shape, dtype already
 * chosen.  `frac` samples: a shape runs with probability frac * AXIAL_TEST_SCALE
 * (capped at 1), the same shapes on every ISA (the random stream depends on
 * the test name only).
 */
#ifndef AX_CASES_H
#define AX_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness.h"

extern const axial_dtype ax_sum_types[12];   /* every type but BOOL          */
extern const axial_dtype ax_float_types[4];  /* F32, F64, F16, BF16           */
extern const axial_dtype ax_roll_types[8];   /* both of every element size + BOOL */
#define AX_N_SUM_TYPES 12
#define AX_N_FLOAT_TYPES 4
#define AX_N_ROLL_TYPES 8

/* What the input holds.  Integers get full-width random bits mixed with
 * small values in every mode; the modes differ for the float types:
 *   FILL_EXACT      k/16 with |k| <= 64 and some -0.0: every partial sum
 *                   is exact in every format, so any order gives the same
 *                   bits (the comparison is bitwise);
 *   FILL_SPECIALS   the same with ~3/64 inf, -inf and NaN;
 *   FILL_RARE_SPECIALS the same with ~1/256 of them (long rows keep finite
 *                   outputs before the first one);
 *   FILL_ZEROS      only signed zeros, mostly -0.0: a sum of -0.0 terms must
 *                   be -0.0 (sums start from -0.0), an empty sum +0;
 *   FILL_GENERAL    random signs, significands and exponents over a wide
 *                   range (f32/bf16: 2^-12..2^13, f64: 2^-20..2^21,
 *                   f16: subnormals..8): general data, for tolerance tests;
 *   FILL_UNIFORM01  uniform [0, 1) with the format's full precision. */
enum fill {
    FILL_EXACT,
    FILL_SPECIALS,
    FILL_RARE_SPECIALS,
    FILL_ZEROS,
    FILL_GENERAL,
    FILL_UNIFORM01
};

void ax_fill(ax_t *t, axial_dtype dt, void *p, size_t count, enum fill mode);

/* Iteration count base * AXIAL_TEST_SCALE (at least 1). */
int ax_iters(int base);
/* True with probability frac * AXIAL_TEST_SCALE (always when >= 1). */
bool ax_sample(ax_t *t, double frac);

/* One call: x (filled) and y (poisoned, 0x5a) with random whole-element
 * misalignment and canaries, the oracle's answer in `want`; `src` is x, or
 * y holding a copy of x for an in-place call.  `xcopy` holds x as filled: a
 * call with a separate input must leave it unchanged. */
typedef struct {
    axial_dtype dt;
    size_t es, count, ocount;
    bool inplace;
    ax_buf x, y;
    void *want, *xcopy;
    const void *src;
    bool ready; /* io_ready was called */
} io_case;

void io_begin(ax_t *t, io_case *io, axial_dtype dt, size_t count, size_t ocount,
              enum fill mode, bool inplace);
/* When >= 0, the misalignment io_begin gives x / y (whole elements; else a
 * random 0..7): test_shapes.c's streaming test sets them around its calls. */
extern int io_misalign_x, io_misalign_y;
/* Call after the input is final and the oracle has read it, before the call:
 * keeps x's bytes (xcopy) and makes the in-place copy. */
void io_ready(io_case *io);
/* Checks the status, the canaries and (a separate input) that x is as it
 * was filled; true when the output may be compared. */
bool io_called(ax_t *t, io_case *io, axial_status st, const char *what);
/* Frees the buffers. */
void io_free(io_case *io);
/* io_called, then the output bit for bit against want (any NaN equals any
 * NaN), then io_free. */
void io_end(ax_t *t, io_case *io, axial_status st, const char *what);

/* Compares count elements; reports the first difference. */
bool ax_compare(ax_t *t, axial_dtype dt, const void *got, const void *want, size_t count,
                const char *what);

/* The three cases against the oracle (bitwise).  axis / axes may be
 * negative; flags are the op's flags. */
void cumsum_case(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape, int64_t axis,
                 unsigned flags, enum fill mode, bool inplace);
void reduce_case(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape,
                 const int64_t *axes, size_t naxes, unsigned flags, enum fill mode);
void roll_case(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape,
               const int64_t *shift, size_t nshift, const int64_t *axes, size_t naxes,
               bool inplace);

/* Random shapes and axes (test_random.c): a shape of rank in [rmin, rmax]
 * with dimensions 0, 1, 2..9 and 10..70 and at most ~max_count elements;
 * 0..rank+1 axes (at most max), negative and repeated ones too. */
size_t ax_rand_shape(ax_t *t, size_t rmin, size_t rmax, size_t max_count, int64_t *shape);
size_t ax_rand_axes(ax_t *t, size_t rank, int64_t *axes, size_t max);

/* ---- kernel-shape families ------------------------------------------------ */

typedef void (*cumsum_run)(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape,
                           int64_t axis, unsigned flags, enum fill mode, bool inplace);
typedef void (*reduce_run)(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape,
                           const int64_t *axes, size_t naxes, unsigned flags, enum fill mode);

/* Which flags a scan family runs with. */
enum flag_set { FLAGS_ALL, FLAGS_ONE };

/* Inner-axis rows [outer, n] axis 1 ([n] when outer is 1), n = 1..70,
 * 127..129, 255..257, 511..513, 1023..1025, outer 1, 2, 3, 5; every flag
 * (FLAGS_ALL) or one per shape, rotating; a quarter of them in place. */
void cumsum_rows(ax_t *t, axial_dtype dt, enum fill mode, cumsum_run run, double frac,
                 enum flag_set fs);
/* Short rows [R, n] axis 1, n = 2..17, R = 1..9, 15, 16, 17, 31, 33, 64, 65:
 * several rows per vector and their tails. */
void cumsum_short_rows(ax_t *t, axial_dtype dt, enum fill mode, cumsum_run run, double frac,
                       enum flag_set fs);
/* Vertical scans [n, C] axis 0 and [2, n, C] axis 1, C = 1..17, 31..33,
 * 63..65, 127..129, n = 1, 2, 3, 8, 9, 17, 100. */
void cumsum_columns(ax_t *t, axial_dtype dt, enum fill mode, cumsum_run run, double frac,
                    enum flag_set fs);

/* Rows [R, n] axis 1 (R = 1: [n]), n = 1..70 and 127..129 up to 4095..4097;
 * KEEP_DIMS on half. */
void reduce_rows(ax_t *t, axial_dtype dt, enum fill mode, reduce_run run, double frac);
/* Short rows [R, n] axis 1, n = 2..17, R as cumsum_short_rows. */
void reduce_short_rows(ax_t *t, axial_dtype dt, enum fill mode, reduce_run run, double frac);
/* Columns [n, C] axis 0 and [3, n, C] axis 1, C and n as cumsum_columns,
 * and n = 1000 for C <= 17 (the [R, 4] axis 0 case). */
void reduce_columns(ax_t *t, axial_dtype dt, enum fill mode, reduce_run run, double frac);
/* [A, B, C] over axes {0, 2}, {0}, {1, 2}, {0, 1, 2} (in random order and
 * sign), A = 1, 2, 3, 5, B = 1, 2, 3, 7, 16, 17, C = 1..4, 7..9, 15..17,
 * 31, 33, 64, 65. */
void reduce_3d(ax_t *t, axial_dtype dt, enum fill mode, reduce_run run, double frac);

/* Single checks that test_selftest.c runs against broken kernels: one
 * CumSum against the error bound (test_tolerance.c), one float CumSum line
 * long enough to be split, on every executor against the plain call
 * (test_parallel.c), and the cross-ISA comparison of `isa` with itself, with
 * toggle(1) before its second run and toggle(0) after (test_cross_isa.c). */
void ax_tol_cumsum(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape, int64_t axis,
                   unsigned flags, enum fill mode, bool inplace);
void ax_parallel_line_case(ax_t *t, axial_dtype dt, unsigned flags);
void ax_cross_isa_self(ax_t *t, axial_isa isa, void (*toggle)(int on));

#endif /* AX_CASES_H */
