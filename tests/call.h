/* SPDX-License-Identifier: MIT */
/*
 * call.h: the dtype helpers the tests share.  Plain C11 on include/axial.h
 * alone (no harness, no oracle; C++ may include it), so that the fuzzer
 * (tests/fuzz) and the benchmark (bench/) can build it too.
 */
#ifndef AX_CALL_H
#define AX_CALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "axial.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- dtypes ------------------------------------------------------------------ */

/* AXIAL_F32 .. AXIAL_BOOL. */
bool ax_dtype_valid(axial_dtype dt);
bool ax_dtype_is_float(axial_dtype dt); /* F32, F64, F16, BF16 */
/* Bytes per element (1 for an invalid dtype). */
size_t ax_dtype_size(axial_dtype dt);
/* "f32", "bf16", "u64", "bool", ... ("?" for an invalid dtype). */
const char *ax_dtype_str(axial_dtype dt);

/* A float format: exponent and fraction bits, precision (fraction + 1) and
 * least normal exponent.  ax_dtype_fmt: that of F32, F64, F16, else BF16's. */
typedef struct {
    int ebits, mbits, p, emin;
} ax_float_fmt;
ax_float_fmt ax_dtype_fmt(axial_dtype dt);

/* f16 / bf16 bits as a double, exactly (NaN and infinities too). */
double ax_f16_to_double(uint16_t bits);
double ax_bf16_to_double(uint16_t bits);
/* Element i of a tensor of a valid dtype as a double: floats exactly,
 * integers (64-bit ones rounded) and bool converted. */
double ax_dtype_value(axial_dtype dt, const void *p, size_t i);

#ifdef __cplusplus
}
#endif

#endif /* AX_CALL_H */
