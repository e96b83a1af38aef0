/* SPDX-License-Identifier: MIT */
/*
 * order.h: the one summation order of a CumSum line, element by element, in
 * generic C, for what the kernels cannot take whole: a stream's pieces that
 * start or end inside a block or a chunk, and the shards' carries.
 *
 * The orders (docs/API.md, "One summation order" and "Streams and shards"):
 *   SIMD (AVX2, AVX-512, NEON): blocks of 16 from the line's scan start, the
 *     block network in C (f32 for f32/f16/bf16, f64 for f64), the carries R
 *     (between chunks), D (within a chunk) and S (the chunk's total) in f64;
 *   scalar: each element added to D in f64; chunks of AXIAL_SCAN_CHUNK as
 *     above (D starts a chunk at R, S sums the chunk from -0.0, R += S);
 *   integers: one wrapping sum (any order gives the same bits).
 * A line's carry is an axial_line_carry; `pos` is how many elements of the
 * line (in scan order) it has taken.  The network is written once here, on
 * values held in double (a C value of the f32 family is an f32 exactly and
 * each C addition is rounded to f32), so its bits are the kernels'.
 */
#ifndef AXIAL_ORDER_H
#define AXIAL_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "axial.h"
#include "../kernels/scalar/convert.h"

/* The summation orders a stream or summary follows (ABI of the bytes). */
enum { AXIAL_ORDER_SCALAR = 0, AXIAL_ORDER_SIMD = 1, AXIAL_ORDER_EXACT = 2 };
/* A log-space op's state follows its ISA's own order: AXIAL_ORDER_ISA + axial_isa. */
enum { AXIAL_ORDER_ISA = 16 };

/* An element of a float dtype as a double (f32, f16, bf16 exactly). */
static inline double axial__float_at(axial_dtype dt, const void *x, size_t i) {
    const char *p = x;
    switch (dt) {
    case AXIAL_F32: { float v; __builtin_memcpy(&v, p + 4 * i, 4); return v; }
    case AXIAL_F64: { double v; __builtin_memcpy(&v, p + 8 * i, 8); return v; }
    case AXIAL_F16: { uint16_t v; __builtin_memcpy(&v, p + 2 * i, 2); return axial_f16_to_double(v); }
    default: { uint16_t v; __builtin_memcpy(&v, p + 2 * i, 2); return axial_bf16_to_double(v); }
    }
}
/* v rounded to a float dtype, into element i of y. */
static inline void axial__float_put(axial_dtype dt, void *y, size_t i, double v) {
    if (dt == AXIAL_F64)
        ((double *)y)[i] = v;
    else if (dt == AXIAL_F32)
        ((float *)y)[i] = (float)v;
    else
        ((uint16_t *)y)[i] = dt == AXIAL_F16 ? axial_double_to_f16(v) : axial_double_to_bf16(v);
}

/* One line's carries: R, D, S (above) and the elements of its block that
 * has started but not ended (pos % 16 of them, C values). */
typedef struct {
    double R, D, S;
    double pend[16];
} axial_line_carry;

/* The order a float op follows on the active ISA. */
int axial__order_active(axial_dtype dtype);

/* The carry of a line that has taken nothing. */
void axial__line_carry_init(axial_line_carry *c);

/* Scans elements [k, k + m) (in scan order) of a piece of `len` elements of
 * one line (REVERSE: element i of the scan is x[len - 1 - i]), the line
 * having taken `pos` elements before the piece's element k, into y, and
 * advances the carry.  Any k, m, pos.  flags: the public CumSum flags. */
void axial__line_scan(axial_dtype dtype, int order, unsigned flags, axial_line_carry *c,
                      const void *x, void *y, size_t len, size_t k, size_t m, uint64_t pos);

/* Columns and integers: `cols` running sums, one per column of an (n, cols)
 * piece with rows `stride` elements apart (REVERSE: the last row first),
 * the column having taken `pos` rows before: floats sequentially in f64
 * (acc: double[cols]), integers wrapping (acc: uint64_t[cols]). */
void axial__cols_scan(axial_dtype dtype, unsigned flags, void *acc, const void *x, void *y,
                      size_t n, size_t cols, size_t stride, uint64_t pos);

/* ReduceSum's SIMD order (docs/API.md, "One summation order") in generic C:
 * the tree ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)) in C of position p of the 8
 * super-rows of P elements at x, of which the first `valid` elements are
 * terms and the rest -0.0, widened to f64.  A position's sum is the f64 sum
 * of such trees, group after group. */
double axial__reduce_tree8(axial_dtype dtype, const void *x, size_t P, size_t valid, size_t p);

/* Element size of a summable dtype. */
size_t axial__dtype_size(axial_dtype dtype);

/* ---- bytes that travel -------------------------------------------------- */

/* FNV-1a 64 over n bytes taken as little-endian 64-bit words (then any
 * last bytes one by one): the bytes' checksum. */
uint64_t axial__fnv1a(const void *p, size_t n);
static inline void axial__put64(unsigned char *p, uint64_t v) {
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static inline uint64_t axial__get64(const unsigned char *p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}
static inline void axial__putd(unsigned char *p, double d) {
    uint64_t u;
    __builtin_memcpy(&u, &d, 8);
    axial__put64(p, u);
}
static inline double axial__getd(const unsigned char *p) {
    const uint64_t u = axial__get64(p);
    double d;
    __builtin_memcpy(&d, &u, 8);
    return d;
}
/* The bytes' format version (stream states and shard summaries). */
#define AXIAL_BYTES_FORMAT 1u
/* Bytes 0..17 of a header: magic, the format, this library's version, op,
 * dtype, flags, order, rank and axis; the rest of its `head` bytes 0. */
void axial__put_head(unsigned char *b, const char *magic, size_t head, int op, int dtype,
                     unsigned flags, int order, size_t rank, size_t axis);
/* The header's writer (bytes 8..11: its AXIAL_VERSION) is a library of this
 * one's major and minor version (a minor version may change the summation
 * order), and bytes zero_from..23 are 0 (reserved). */
axial_status axial__check_writer(const char *fn, const char *what, const unsigned char *b,
                                 size_t zero_from);

#endif /* AXIAL_ORDER_H */
