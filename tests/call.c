/* SPDX-License-Identifier: MIT */
/* call.c: see call.h. */
#include "call.h"

#include <math.h>
#include <string.h>

const char *ax_op_name(ax_op op) {
    static const char *const names[AX_OP_N] = {"cumsum", "reduce_sum", "roll", "logcumsumexp",
                                               "reduce_logsumexp"};
    return (unsigned)op < AX_OP_N ? names[op] : "?";
}

ax_op ax_op_of(axial_op op) {
    switch (op) {
    case AXIAL_OP_CUMSUM: return AX_OP_CUMSUM;
    case AXIAL_OP_LOGCUMSUMEXP: return AX_OP_LCSE;
    case AXIAL_OP_REDUCE_SUM: return AX_OP_REDUCE;
    case AXIAL_OP_REDUCE_LOGSUMEXP: return AX_OP_RLSE;
    }
    return AX_OP_N;
}

axial_status ax_call_plain(const ax_call *c, const void *x, void *y) {
    switch (c->op) {
    case AX_OP_CUMSUM: return axial_cumsum(c->dt, x, y, c->rank, c->shape, c->axis, c->flags);
    case AX_OP_REDUCE:
        return axial_reduce_sum(c->dt, x, y, c->rank, c->shape, c->axes, c->naxes, c->flags);
    case AX_OP_ROLL:
        return axial_roll(c->dt, x, y, c->rank, c->shape, c->shift, c->nshift, c->axes,
                          c->naxes);
    case AX_OP_LCSE:
        return axial_logcumsumexp(c->dt, x, y, c->rank, c->shape, c->axis, c->flags);
    case AX_OP_RLSE:
        return axial_reduce_logsumexp(c->dt, x, y, c->rank, c->shape, c->axes, c->naxes,
                                      c->flags);
    case AX_OP_N: break;
    }
    return AXIAL_E_ARGS;
}

axial_status ax_call_ex(const ax_call *c, const void *x, void *y, const axial_executor *ex) {
    switch (c->op) {
    case AX_OP_CUMSUM:
        return axial_cumsum_ex(c->dt, x, y, c->rank, c->shape, c->axis, c->flags, ex);
    case AX_OP_REDUCE:
        return axial_reduce_sum_ex(c->dt, x, y, c->rank, c->shape, c->axes, c->naxes, c->flags,
                                   ex);
    case AX_OP_ROLL:
        return axial_roll_ex(c->dt, x, y, c->rank, c->shape, c->shift, c->nshift, c->axes,
                             c->naxes, ex);
    case AX_OP_LCSE:
        return axial_logcumsumexp_ex(c->dt, x, y, c->rank, c->shape, c->axis, c->flags, ex);
    case AX_OP_RLSE:
        return axial_reduce_logsumexp_ex(c->dt, x, y, c->rank, c->shape, c->axes, c->naxes,
                                         c->flags, ex);
    case AX_OP_N: break;
    }
    return AXIAL_E_ARGS;
}

/* ---- dtypes ------------------------------------------------------------------ */

bool ax_dtype_valid(axial_dtype dt) { return dt >= AXIAL_F32 && dt <= AXIAL_BOOL; }

bool ax_dtype_is_float(axial_dtype dt) {
    return dt == AXIAL_F32 || dt == AXIAL_F64 || dt == AXIAL_F16 || dt == AXIAL_BF16;
}

size_t ax_dtype_size(axial_dtype dt) {
    switch (dt) {
    case AXIAL_F64: case AXIAL_I64: case AXIAL_U64: return 8;
    case AXIAL_F32: case AXIAL_I32: case AXIAL_U32: return 4;
    case AXIAL_F16: case AXIAL_BF16: case AXIAL_I16: case AXIAL_U16: return 2;
    default: return 1;
    }
}

const char *ax_dtype_str(axial_dtype dt) {
    static const char *const names[] = {"?",   "f32", "f64", "f16", "bf16", "i8",  "u8",
                                        "i16", "u16", "i32", "u32", "i64",  "u64", "bool"};
    return (unsigned)dt < sizeof names / sizeof *names ? names[dt] : "?";
}

ax_float_fmt ax_dtype_fmt(axial_dtype dt) {
    const ax_float_fmt f32 = {8, 23, 24, -126}, f64 = {11, 52, 53, -1022},
                       f16 = {5, 10, 11, -14}, bf16 = {8, 7, 8, -126};
    return dt == AXIAL_F32 ? f32 : dt == AXIAL_F64 ? f64 : dt == AXIAL_F16 ? f16 : bf16;
}

double ax_f16_to_double(uint16_t b) {
    const int e = (b >> 10) & 31, m = b & 1023;
    double v;
    if (e == 31) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexp(m, -24);
    else v = ldexp(1024 + m, e - 25);
    return b >> 15 ? -v : v;
}

double ax_bf16_to_double(uint16_t b) {
    const uint32_t w = (uint32_t)b << 16;
    float f;
    memcpy(&f, &w, 4);
    return f;
}

double ax_dtype_value(axial_dtype dt, const void *p, size_t i) {
    const char *c = (const char *)p + i * ax_dtype_size(dt);
    switch (dt) {
    case AXIAL_F32: { float v; memcpy(&v, c, 4); return v; }
    case AXIAL_F64: { double v; memcpy(&v, c, 8); return v; }
    case AXIAL_F16: { uint16_t v; memcpy(&v, c, 2); return ax_f16_to_double(v); }
    case AXIAL_BF16: { uint16_t v; memcpy(&v, c, 2); return ax_bf16_to_double(v); }
    case AXIAL_I8: { int8_t v; memcpy(&v, c, 1); return v; }
    case AXIAL_I16: { int16_t v; memcpy(&v, c, 2); return v; }
    case AXIAL_U16: { uint16_t v; memcpy(&v, c, 2); return v; }
    case AXIAL_I32: { int32_t v; memcpy(&v, c, 4); return v; }
    case AXIAL_U32: { uint32_t v; memcpy(&v, c, 4); return v; }
    case AXIAL_I64: { int64_t v; memcpy(&v, c, 8); return (double)v; }
    case AXIAL_U64: { uint64_t v; memcpy(&v, c, 8); return (double)v; }
    default: { uint8_t v; memcpy(&v, c, 1); return v; } /* U8, BOOL */
    }
}
