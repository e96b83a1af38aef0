/* SPDX-License-Identifier: MIT */
/* call.c: see call.h. */
#include "call.h"

#include <math.h>
#include <string.h>

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
