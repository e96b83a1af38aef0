/* SPDX-License-Identifier: MIT */
/*
 * order_ref.h: the summation order that every SIMD kernel of float CumSum and
 * ReduceSum follows (AVX2, AVX-512 and NEON alike), written as plain C.
 *
 * This is the executable form of docs/API.md's "One summation order": the
 * SIMD kernels of each ISA must give exactly these bits (test order_kernels),
 * and so the same bits as each other (tests cross_isa and golden).  It is
 * slow on purpose: one element at a time, in the order the definition reads.
 * The scalar kernels (the oracle) do NOT follow it: they sum sequentially in
 * double.
 *
 * The functions have the kernels' signatures (kernels/kernels.h) and take
 * the dtype first; dtype is one of AXIAL_F32, AXIAL_F64, AXIAL_F16, AXIAL_BF16.
 */
#ifndef AX_ORDER_REF_H
#define AX_ORDER_REF_H

#include <stddef.h>
#include <stdint.h>

#include "axial.h"

/* The definition's constants, stated here and not taken from the library
 * (test "order definition" checks that kernels/kernels.h agrees):
 *   AX_ORDER_LANES     the virtual vector: 16 elements;
 *   AX_ORDER_CHUNK     CumSum's scan chunk along a line: 16384 elements;
 *   AX_ORDER_CONTINUE  the kernels' flag "this segment continues a line"
 *                      (cumsum_seg), a bit above the public CumSum flags. */
#define AX_ORDER_LANES 16
#define AX_ORDER_CHUNK ((size_t)16384)
#define AX_ORDER_CONTINUE 0x100u

/* The definition's f16 and bf16 conversions (to nearest even), written
 * independently of the library's. */
double ax_ref_f16_to_double(uint16_t h);
double ax_ref_bf16_to_double(uint16_t b);
uint16_t ax_ref_double_to_f16(double v);
uint16_t ax_ref_double_to_bf16(double v);

void ax_ref_cumsum(axial_dtype dt, const void *x, void *y, size_t outer, size_t n,
                   size_t inner, unsigned flags);
/* Returns R after the segment (the carry of the chunk that follows it). */
double ax_ref_cumsum_seg(axial_dtype dt, const void *x, void *y, size_t len, unsigned flags,
                         double carry);
double ax_ref_scan_total(axial_dtype dt, const void *x, size_t len, unsigned flags);
void ax_ref_cumsum_cols(axial_dtype dt, const void *x, void *y, size_t n, size_t ncols,
                        size_t stride, unsigned flags);

void ax_ref_reduce(axial_dtype dt, const void *x, void *y, size_t outer, size_t n, size_t inner);
void ax_ref_reduce_acc(axial_dtype dt, const void *x, double *acc, size_t outer, size_t n,
                       size_t inner);
void ax_ref_reduce_cols(axial_dtype dt, const void *x, double *acc, size_t n, size_t ncols,
                        size_t stride);
void ax_ref_reduce_finish(axial_dtype dt, const double *acc, void *y, size_t count);

#endif /* AX_ORDER_REF_H */
