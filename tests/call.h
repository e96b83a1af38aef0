/* SPDX-License-Identifier: MIT */
/*
 * call.h: a case as its public call, and the dtype helpers.  Shared by the
 * tests, the fuzzer (tests/fuzz) and the benchmark (bench/), so plain C11
 * on include/axial.h alone (no harness, no oracle; C++ may include it).
 *
 * An ax_call holds one call of the five ops but the tensors: ax_call_plain
 * makes it with the plain axial_* function, ax_call_ex with axial_*_ex on an
 * executor (NULL: the calling thread).  Each op reads only its own fields:
 * the scans axis and flags, the reductions axes and flags, Roll shift and
 * axes; any pointer may be NULL (the calls' own checks then answer).
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

typedef enum {
    AX_OP_CUMSUM, /* axial_cumsum                */
    AX_OP_REDUCE, /* axial_reduce_sum            */
    AX_OP_ROLL,   /* axial_roll                  */
    AX_OP_LCSE,   /* axial_logcumsumexp          */
    AX_OP_RLSE,   /* axial_reduce_logsumexp      */
    AX_OP_N
} ax_op;

static inline bool ax_op_scan(ax_op op) { return op == AX_OP_CUMSUM || op == AX_OP_LCSE; }
static inline bool ax_op_reduce(ax_op op) { return op == AX_OP_REDUCE || op == AX_OP_RLSE; }
static inline bool ax_op_lse(ax_op op) { return op == AX_OP_LCSE || op == AX_OP_RLSE; }

/* "cumsum", "reduce_sum", "roll", "logcumsumexp", "reduce_logsumexp" ("?" else). */
const char *ax_op_name(ax_op op);
/* The op of the stream and shard API's axial_op (which has no Roll). */
ax_op ax_op_of(axial_op op);

typedef struct {
    ax_op op;
    axial_dtype dt;
    size_t rank;
    const int64_t *shape;
    int64_t axis;         /* scans                 */
    unsigned flags;       /* scans, reductions     */
    const int64_t *axes;  /* reductions, Roll      */
    size_t naxes;
    const int64_t *shift; /* Roll                  */
    size_t nshift;
} ax_call;

axial_status ax_call_plain(const ax_call *c, const void *x, void *y);
axial_status ax_call_ex(const ax_call *c, const void *x, void *y, const axial_executor *ex);

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
