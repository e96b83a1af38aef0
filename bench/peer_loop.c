/* SPDX-License-Identifier: MIT */
/*
 * peer_loop.c: the plain C loops a user would write instead of calling
 * axial: accumulate in the element type (f32 in float, as numpy does; bf16
 * through float, rounded back each step), traverse row-major memory in
 * order (for a scan along a strided axis: add the previous output row),
 * and roll by copying with a wrapped index.  Built with -O3 like the rest
 * of bench/, so the compiler vectorises what it can.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

static float bf16_to_f(uint16_t b) {
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint16_t f_to_bf16(float f) { /* round to nearest even (NaN aside) */
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

/* CumSum over (outer, n, inner), forward or backward, inclusive or not. */
#define AXB_LOOP_CUMSUM(NAME, T, ACC, LD, ST)                                             \
    static void NAME(const T *x, T *y, size_t outer, size_t n, size_t inner, unsigned f) { \
        const int excl = f & 1, rev = (f & 2) != 0;                                      \
        for (size_t o = 0; o < outer; o++) {                                             \
            const T *xo = x + o * n * inner;                                             \
            T *yo = y + o * n * inner;                                                   \
            if (inner == 1) {                                                            \
                ACC s = 0;                                                               \
                for (size_t t = 0; t < n; t++) {                                         \
                    size_t j = rev ? n - 1 - t : t;                                      \
                    ACC v = LD(xo[j]);                                                   \
                    if (excl) { yo[j] = ST(s); s += v; }                                 \
                    else { s += v; yo[j] = ST(s); }                                      \
                }                                                                        \
                continue;                                                                \
            }                                                                            \
            for (size_t t = 0; t < n; t++) {                                             \
                size_t j = rev ? n - 1 - t : t, p = rev ? j + 1 : j - 1;                 \
                for (size_t i = 0; i < inner; i++) {                                     \
                    ACC prev = t ? LD(yo[p * inner + i]) : 0;                            \
                    ACC add = excl ? (t ? LD(xo[p * inner + i]) : 0) : LD(xo[j * inner + i]); \
                    yo[j * inner + i] = ST(prev + add);                                  \
                }                                                                        \
            }                                                                            \
        }                                                                                \
    }

/* ReduceSum of the middle axis of (outer, n, inner) into y[outer][inner]. */
#define AXB_LOOP_REDUCE(NAME, T, ACC, LD, ST)                                             \
    static void NAME(const T *x, T *y, size_t outer, size_t n, size_t inner) {           \
        for (size_t o = 0; o < outer; o++) {                                             \
            const T *xo = x + o * n * inner;                                             \
            if (inner == 1) {                                                            \
                ACC s = 0;                                                               \
                for (size_t j = 0; j < n; j++) s += LD(xo[j]);                           \
                y[o] = ST(s);                                                            \
                continue;                                                                \
            }                                                                            \
            for (size_t i = 0; i < inner; i++) y[o * inner + i] = ST(0);                 \
            for (size_t j = 0; j < n; j++)                                               \
                for (size_t i = 0; i < inner; i++)                                       \
                    y[o * inner + i] = ST(LD(y[o * inner + i]) + LD(xo[j * inner + i])); \
        }                                                                                \
    }                                                                                    \
    /* [a, b, c] over axes {0, 2}: y[b] = sum over a, c */                               \
    static void NAME##_02(const T *x, T *y, size_t a, size_t b, size_t c) {              \
        for (size_t j = 0; j < b; j++) y[j] = ST(0);                                     \
        for (size_t i = 0; i < a; i++)                                                   \
            for (size_t j = 0; j < b; j++) {                                             \
                ACC s = 0;                                                               \
                const T *row = x + (i * b + j) * c;                                      \
                for (size_t k = 0; k < c; k++) s += LD(row[k]);                          \
                y[j] = ST(LD(y[j]) + s);                                                 \
            }                                                                            \
    }

#define AXB_ID(v) (v)
AXB_LOOP_CUMSUM(cumsum_f32, float, float, AXB_ID, AXB_ID)
AXB_LOOP_CUMSUM(cumsum_f64, double, double, AXB_ID, AXB_ID)
AXB_LOOP_CUMSUM(cumsum_i32, int32_t, int32_t, AXB_ID, AXB_ID)
AXB_LOOP_CUMSUM(cumsum_i8, int8_t, int8_t, AXB_ID, AXB_ID)
AXB_LOOP_CUMSUM(cumsum_bf16, uint16_t, float, bf16_to_f, f_to_bf16)
AXB_LOOP_REDUCE(reduce_f32, float, float, AXB_ID, AXB_ID)
AXB_LOOP_REDUCE(reduce_f64, double, double, AXB_ID, AXB_ID)
AXB_LOOP_REDUCE(reduce_i32, int32_t, int32_t, AXB_ID, AXB_ID)
AXB_LOOP_REDUCE(reduce_i8, int8_t, int8_t, AXB_ID, AXB_ID)
AXB_LOOP_REDUCE(reduce_bf16, uint16_t, float, bf16_to_f, f_to_bf16)

/* Roll of a rank <= 3 tensor: every element to its wrapped position. */
#define AXB_LOOP_ROLL(NAME, T)                                                           \
    static void NAME(const T *x, T *y, const int64_t d[3], const int64_t s[3]) {         \
        for (int64_t i = 0; i < d[0]; i++) {                                             \
            int64_t oi = i + s[0] >= d[0] ? i + s[0] - d[0] : i + s[0];                  \
            for (int64_t j = 0; j < d[1]; j++) {                                         \
                int64_t oj = j + s[1] >= d[1] ? j + s[1] - d[1] : j + s[1];              \
                const T *xr = x + (i * d[1] + j) * d[2];                                 \
                T *yr = y + (oi * d[1] + oj) * d[2];                                     \
                for (int64_t k = 0; k < d[2]; k++) {                                     \
                    int64_t ok = k + s[2] >= d[2] ? k + s[2] - d[2] : k + s[2];          \
                    yr[ok] = xr[k];                                                      \
                }                                                                        \
            }                                                                            \
        }                                                                                \
    }
AXB_LOOP_ROLL(roll_1, uint8_t)
AXB_LOOP_ROLL(roll_2, uint16_t)
AXB_LOOP_ROLL(roll_4, uint32_t)
AXB_LOOP_ROLL(roll_8, uint64_t)

static bool loop_prepare(const axb_case *c, void **ctx, char *why, size_t cap) {
    *ctx = NULL;
    if (!AXB_PEER_CPU_OK()) {
        snprintf(why, cap, "loop: built for x86-64-v3, this CPU lacks AVX2/FMA");
        return false;
    }
    if (ax_op_lse(c->op)) {
        snprintf(why, cap, "loop: no such operation (%s)", c->name);
        return false;
    }
    const bool ok = c->dtype == AXIAL_F32 || c->dtype == AXIAL_F64 || c->dtype == AXIAL_I32 ||
                    c->dtype == AXIAL_I8 || c->dtype == AXIAL_BF16 || c->op == AX_OP_ROLL;
    if (!ok)
        snprintf(why, cap, "loop: no %s loop", ax_dtype_str(c->dtype));
    return ok;
}

static void loop_run(void *ctx, const axb_case *c, const void *x, void *y) {
    (void)ctx;
    size_t outer, n, inner;
    if (c->op == AX_OP_CUMSUM) {
        axb_split(c, (size_t)c->axis, &outer, &n, &inner);
        switch (c->dtype) {
        case AXIAL_F32: cumsum_f32(x, y, outer, n, inner, c->flags); break;
        case AXIAL_F64: cumsum_f64(x, y, outer, n, inner, c->flags); break;
        case AXIAL_I32: cumsum_i32(x, y, outer, n, inner, c->flags); break;
        case AXIAL_I8: cumsum_i8(x, y, outer, n, inner, c->flags); break;
        default: cumsum_bf16(x, y, outer, n, inner, c->flags); break;
        }
    } else if (c->op == AX_OP_REDUCE) {
        if (c->naxes == 2) { /* [a, b, c] over {0, 2} */
            size_t a = (size_t)c->shape[0], b = (size_t)c->shape[1], cc = (size_t)c->shape[2];
            switch (c->dtype) {
            case AXIAL_F32: reduce_f32_02(x, y, a, b, cc); break;
            case AXIAL_F64: reduce_f64_02(x, y, a, b, cc); break;
            case AXIAL_I32: reduce_i32_02(x, y, a, b, cc); break;
            case AXIAL_I8: reduce_i8_02(x, y, a, b, cc); break;
            default: reduce_bf16_02(x, y, a, b, cc); break;
            }
            return;
        }
        if (c->naxes == 0) outer = 1, n = axb_count(c), inner = 1;
        else axb_split(c, (size_t)c->axes[0], &outer, &n, &inner);
        switch (c->dtype) {
        case AXIAL_F32: reduce_f32(x, y, outer, n, inner); break;
        case AXIAL_F64: reduce_f64(x, y, outer, n, inner); break;
        case AXIAL_I32: reduce_i32(x, y, outer, n, inner); break;
        case AXIAL_I8: reduce_i8(x, y, outer, n, inner); break;
        default: reduce_bf16(x, y, outer, n, inner); break;
        }
    } else {
        int64_t d[3] = {1, 1, 1}, s[3] = {0, 0, 0}, eff[3];
        axb_roll_shifts(c, eff);
        for (size_t k = 0; k < c->rank; k++) /* right-align into 3 dims */
            d[3 - c->rank + k] = c->shape[k], s[3 - c->rank + k] = eff[k];
        switch (ax_dtype_size(c->dtype)) {
        case 1: roll_1(x, y, d, s); break;
        case 2: roll_2(x, y, d, s); break;
        case 4: roll_4(x, y, d, s); break;
        default: roll_8(x, y, d, s); break;
        }
    }
}

const axb_peer axb_loop = {"loop", loop_prepare, loop_run, NULL, NULL};
