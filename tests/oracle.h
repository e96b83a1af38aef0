/* SPDX-License-Identifier: MIT */
/*
 * oracle.h: an independent, brute-force model of the three operators.
 *
 * It shares no code with src/ or kernels/: it walks every multi-index of the
 * tensors with explicit strides, sums floats in long double (exact for the
 * test data, see test_random.c; a running sum along each scanned line, so
 * that long axes cost O(n)) and integers in uint64_t (wrapping), and
 * rounds to f16/bf16 by searching the table of every representable value
 * (not by the frexp/rint arithmetic the scalar kernels use).
 */
#ifndef AX_ORACLE_H
#define AX_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "axial.h"
#include "call.h" /* the dtype helpers: ax_dtype_size, ax_dtype_is_float */

bool or_is_signed(axial_dtype dt);

/* Element i of a float-typed tensor, exactly. */
long double or_get_f(axial_dtype dt, const void *p, size_t i);
/* Element i of an integer tensor, sign- or zero-extended to 64 bits. */
uint64_t or_get_u(axial_dtype dt, const void *p, size_t i);
/* Stores v rounded once to nearest-even (floats) / truncated mod 2^bits (ints). */
void or_set_f(axial_dtype dt, void *p, size_t i, long double v);
void or_set_u(axial_dtype dt, void *p, size_t i, uint64_t v);

uint16_t or_round_f16(long double v);
uint16_t or_round_bf16(long double v);
long double or_f16_value(uint16_t bits);
long double or_bf16_value(uint16_t bits);

/* Same element?  Bitwise, except that any NaN equals any NaN. */
bool or_same(axial_dtype dt, const void *a, size_t ia, const void *b, size_t ib);
/* Element i as text (value and bits) for messages. */
const char *or_str(char *buf, size_t cap, axial_dtype dt, const void *p, size_t i);

size_t or_count(size_t rank, const int64_t *shape);

/* CumSum along `axis` (already in [0, rank)). */
void or_cumsum(axial_dtype dt, const void *x, void *y, size_t rank, const int64_t *shape,
               size_t axis, bool exclusive, bool reverse);

/* The same in long double, before rounding (float types only): sum[k] is
 * the running sum (exact for the exact test data; on general data its own
 * error is at most terms[k] * LDBL_EPSILON * mag[k]), mag[k] the sum of |x|
 * over its terms and terms[k] their count.  mag and terms may be NULL. */
void or_cumsum_exact(axial_dtype dt, const void *x, long double *sum, long double *mag,
                     size_t *terms, size_t rank, const int64_t *shape, size_t axis,
                     bool exclusive, bool reverse);

/* ReduceSum: output shape (rank and dims) and values, from the raw axes
 * (negative, repeated) and flags.  y may be NULL to get the shape only. */
void or_reduce(axial_dtype dt, const void *x, void *y, size_t rank, const int64_t *shape,
               const int64_t *axes, size_t naxes, bool keep_dims, bool empty_all,
               size_t *out_rank, int64_t *out_shape);

/* ReduceSum in long double (float types): sum and mag (sum of |x|) per
 * output, as or_cumsum_exact; returns the number of terms per output. */
size_t or_reduce_exact(axial_dtype dt, const void *x, long double *sum, long double *mag,
                       size_t rank, const int64_t *shape, const int64_t *axes, size_t naxes,
                       bool keep_dims, bool empty_all, size_t *out_rank, int64_t *out_shape);

/* ---- the log semiring (LogCumSumExp, ReduceLogSumExp; float types) ----------
 * Independent of the kernels' online max-and-rescale: each output is
 * computed as max first, then the sum of expl(x - max) in long double, then
 * max + logl(sum), with the special values decided before any arithmetic
 * (any NaN term: NaN; else any +inf: +inf; else no finite term: -inf).
 * A scan takes the max of the whole line; the prefixes whose sum falls below
 * 2^-16000 (terms far below the line's max: a rising ramp) are an initial
 * segment of the line, and are computed again the same way on that segment
 * alone, with its own max.  The reference errs by about (|y| + n) * 2^-63
 * (64-bit long double; less on aarch64's 113-bit one) for n terms.
 * val gets one value per element (scan) or output (reduce); terms (scan, may
 * be NULL) the number of terms of each output; the reduce returns its
 * number of terms per output and sets the output shape as or_reduce. */
void or_logcumsumexp_exact(axial_dtype dt, const void *x, long double *val, size_t *terms,
                           size_t rank, const int64_t *shape, size_t axis, bool exclusive,
                           bool reverse);
size_t or_reduce_lse_exact(axial_dtype dt, const void *x, long double *val, size_t rank,
                           const int64_t *shape, const int64_t *axes, size_t naxes,
                           bool keep_dims, bool empty_all, size_t *out_rank, int64_t *out_shape);

/* The spacing of float format dt at |v| (subnormal spacing below the normal
 * range; at 0 the smallest subnormal's). */
long double or_ulp(axial_dtype dt, long double v);

/* Roll with raw shifts/axes (naxes == 0: flattened, one shift). */
void or_roll(axial_dtype dt, const void *x, void *y, size_t rank, const int64_t *shape,
             const int64_t *shift, size_t nshift, const int64_t *axes, size_t naxes);

#endif /* AX_ORACLE_H */
