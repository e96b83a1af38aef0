/* SPDX-License-Identifier: MIT */
/*
 * order.c: a CumSum line, element by element, in the one summation order
 * (order.h), for the stream's pieces that start or end inside a block or a
 * chunk, and the column and integer running sums of streams and shards.
 * Generic C (no -m flags): an f32 addition here is the kernels' vaddps on
 * one lane, and there is no multiplication, so no contraction can change a
 * bit.  The line order's pieces (a block's edge at most a push, or the
 * scalar ISA's lines) are AXIAL_COLD: compiled for size, 3 KB less code.
 */
#include "order.h"

#include <stdio.h>
#include <string.h>

#include "../kernels/scalar/convert.h"
#include "internal.h"

int axial__order_active(axial_dtype dtype) {
    if (dtype != AXIAL_F32 && dtype != AXIAL_F64 && dtype != AXIAL_F16 && dtype != AXIAL_BF16)
        return AXIAL_ORDER_EXACT;
    return axial_isa_active() == AXIAL_ISA_SCALAR ? AXIAL_ORDER_SCALAR : AXIAL_ORDER_SIMD;
}

size_t axial__dtype_size(axial_dtype dtype) {
    switch (dtype) {
    case AXIAL_F64: case AXIAL_I64: case AXIAL_U64: return 8;
    case AXIAL_F32: case AXIAL_I32: case AXIAL_U32: return 4;
    case AXIAL_F16: case AXIAL_BF16: case AXIAL_I16: case AXIAL_U16: return 2;
    default: return 1;
    }
}

void axial__line_carry_init(axial_line_carry *c) {
    c->R = -0.0;
    c->D = -0.0;
    c->S = -0.0;
    for (int i = 0; i < 16; i++)
        c->pend[i] = -0.0;
}

double axial__reduce_tree8(axial_dtype dt, const void *x, size_t P, size_t valid, size_t p) {
    double r[8];
    for (size_t i = 0; i < 8; i++)
        r[i] = i * P + p < valid ? axial__float_at(dt, x, i * P + p) : -0.0;
    if (dt == AXIAL_F64)
        return ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    float f[8]; /* C is f32: each addition rounded to f32 */
    for (size_t i = 0; i < 8; i++)
        f[i] = (float)r[i];
    return (double)(((f[0] + f[1]) + (f[2] + f[3])) + ((f[4] + f[5]) + (f[6] + f[7])));
}

/* A wide (or C) value rounded once to the element type. */
static inline void store_t(axial_dtype dt, void *y, size_t i, double v) {
    switch (dt) {
    case AXIAL_F32: ((float *)y)[i] = (float)v; break;
    case AXIAL_F64: ((double *)y)[i] = v; break;
    case AXIAL_F16: ((uint16_t *)y)[i] = axial_double_to_f16(v); break;
    default: ((uint16_t *)y)[i] = axial_double_to_bf16(v); break;
    }
}

/* The block network (docs/API.md, "One summation order") in C = T: the
 * quads' scans, their offsets E, p = s + E. */
#define AX_BLOCK(T)                                                                        \
    T v[16], s[16], T_[4];                                                                 \
    for (int i = 0; i < 16; i++)                                                           \
        v[i] = (T)vd[i];                                                                   \
    for (int q = 0; q < 4; q++) {                                                          \
        const T *u = v + 4 * q;                                                            \
        T *w = s + 4 * q;                                                                  \
        w[0] = u[0];                                                                       \
        w[1] = u[1] + u[0];                                                                \
        w[2] = (u[2] + u[1]) + u[0];                                                       \
        w[3] = (u[3] + u[2]) + (u[1] + u[0]);                                              \
        T_[q] = w[3];                                                                      \
    }                                                                                      \
    const T E[4] = {(T)-0.0, T_[0], T_[1] + T_[0], (T_[2] + T_[1]) + T_[0]};               \
    for (int i = 0; i < 16; i++)                                                           \
        pd[i] = (double)(s[i] + E[i / 4]);

static AXIAL_COLD void block_f32(const double vd[16], double pd[16]) { AX_BLOCK(float) }
static AXIAL_COLD void block_f64(const double vd[16], double pd[16]) { AX_BLOCK(double) }

static inline size_t kpos(size_t len, size_t i, bool rev) { return rev ? len - 1 - i : i; }

/* The end of a chunk: the next chunk starts from R + S. */
static inline void chunk_end(axial_line_carry *c) {
    c->R += c->S;
    c->D = c->R;
    c->S = -0.0;
}

/* SIMD order: elements [k, k + m) of the piece, all in one block (the
 * block's first pos % 16 elements are pending in c). */
static AXIAL_COLD void simd_block(axial_dtype dt, unsigned flags, axial_line_carry *c,
                                  const void *x, void *y, size_t len, size_t k, size_t m,
                                  uint64_t pos) {
    const bool rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    const bool excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const size_t j = (size_t)(pos % 16);
    double v[16], p[16];
    for (size_t i = 0; i < 16; i++)
        v[i] = i < j ? c->pend[i] : i < j + m ? axial__float_at(dt, x, kpos(len, k + i - j, rev)) : -0.0;
    if (dt == AXIAL_F64)
        block_f64(v, p);
    else
        block_f32(v, p);
    /* every input of the block is read: y may be x */
    const double Dc = dt == AXIAL_F64 ? c->D : (double)(float)c->D;
    for (size_t i = j; i < j + m; i++) {
        const double e = excl ? (i ? p[i - 1] : -0.0) : p[i];
        double out = dt == AXIAL_F64 ? Dc + e : (double)((float)Dc + (float)e);
        if (excl && pos - j + i == 0)
            out = 0.0; /* the line's empty first sum */
        store_t(dt, y, kpos(len, k + i - j, rev), out);
    }
    if (j + m < 16) {
        for (size_t i = j; i < j + m; i++)
            c->pend[i] = v[i];
        return;
    }
    c->D += p[15];
    c->S += p[15];
    if ((pos - j + 16) % AXIAL_SCAN_CHUNK == 0)
        chunk_end(c);
}

/* Scalar order: one element at a time in f64, in chunks. */
static AXIAL_COLD void scalar_run(axial_dtype dt, unsigned flags, axial_line_carry *c,
                                  const void *x, void *y, size_t len, size_t k, size_t m,
                                  uint64_t pos) {
    const bool rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    const bool excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    for (size_t i = 0; i < m; i++, pos++) {
        const size_t at = kpos(len, k + i, rev);
        const double v = axial__float_at(dt, x, at);
        if (excl) {
            store_t(dt, y, at, pos ? c->D : 0.0);
            c->D += v;
        } else {
            c->D += v;
            store_t(dt, y, at, c->D);
        }
        c->S += v;
        if ((pos + 1) % AXIAL_SCAN_CHUNK == 0)
            chunk_end(c);
    }
}

void axial__line_scan(axial_dtype dtype, int order, unsigned flags, axial_line_carry *c,
                      const void *x, void *y, size_t len, size_t k, size_t m, uint64_t pos) {
    if (order == AXIAL_ORDER_SCALAR) {
        scalar_run(dtype, flags, c, x, y, len, k, m, pos);
        return;
    }
    while (m > 0) {
        const size_t room = 16 - (size_t)(pos % 16), take = m < room ? m : room;
        simd_block(dtype, flags, c, x, y, len, k, take, pos);
        k += take;
        m -= take;
        pos += take;
    }
}

/* Float columns (the order of inner > 1, docs/API.md "One summation order"):
 * each column on its own, sequentially in f64 from its running sum a[i],
 * each output rounded once; exclusive writes the sum before the row (+0.0
 * on a line's first row).  No multiplication, so nothing can contract.
 * STORE(k, v) writes y[k]; f32 and f64 have functions of their own (below),
 * their loops without a dtype switch. */
#define AX_COLS_FLOAT(LOAD, STORE)                                                          \
    for (size_t t = 0; t < n; t++) {                                                       \
        const size_t r = (rev ? n - 1 - t : t) * stride;                                   \
        const bool zero = excl && pos + t == 0; /* the empty sum */                        \
        for (size_t i = 0; i < cols; i++) {                                                \
            const double v = LOAD, before = a[i];                                          \
            a[i] += v;                                                                     \
            STORE(r + i, zero ? 0.0 : excl ? before : a[i]);                               \
        }                                                                                  \
    }
#define AX_ST_ANY(k, v) store_t(dtype, y, k, v)
#define AX_ST_F32(k, v) (((float *)y)[k] = (float)(v))
#define AX_ST_F64(k, v) (((double *)y)[k] = (v))

#define AX_COLS_INT(T)                                                                      \
    for (size_t t = 0; t < n; t++) {                                                       \
        const size_t r = (rev ? n - 1 - t : t) * stride;                                   \
        const T *xr = (const T *)x + r;                                                    \
        T *yr = (T *)y + r;                                                                \
        for (size_t i = 0; i < cols; i++) {                                                \
            const uint64_t v = (uint64_t)xr[i];                                            \
            if (excl) {                                                                    \
                yr[i] = (T)(pos + t ? u[i] : 0u);                                          \
                u[i] += v;                                                                 \
            } else {                                                                       \
                u[i] += v;                                                                 \
                yr[i] = (T)u[i];                                                           \
            }                                                                              \
        }                                                                                  \
    }

static void cols_f32(const void *x, void *y, size_t n, size_t cols, size_t stride, bool rev,
                     bool excl, uint64_t pos, double *a) {
    AX_COLS_FLOAT((double)((const float *)x)[r + i], AX_ST_F32)
}
static void cols_f64(const void *x, void *y, size_t n, size_t cols, size_t stride, bool rev,
                     bool excl, uint64_t pos, double *a) {
    AX_COLS_FLOAT(((const double *)x)[r + i], AX_ST_F64)
}

void axial__cols_scan(axial_dtype dtype, unsigned flags, void *acc, const void *x, void *y,
                      size_t n, size_t cols, size_t stride, uint64_t pos) {
    const bool rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    const bool excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    double *a = acc;
    uint64_t *u = acc;
    switch (dtype) {
    case AXIAL_F32: cols_f32(x, y, n, cols, stride, rev, excl, pos, a); break;
    case AXIAL_F64: cols_f64(x, y, n, cols, stride, rev, excl, pos, a); break;
    case AXIAL_F16: AX_COLS_FLOAT(axial_f16_to_double(((const uint16_t *)x)[r + i]), AX_ST_ANY) break;
    case AXIAL_BF16: AX_COLS_FLOAT(axial_bf16_to_double(((const uint16_t *)x)[r + i]), AX_ST_ANY) break;
    case AXIAL_I8: case AXIAL_U8: AX_COLS_INT(uint8_t) break;
    case AXIAL_I16: case AXIAL_U16: AX_COLS_INT(uint16_t) break;
    case AXIAL_I32: case AXIAL_U32: AX_COLS_INT(uint32_t) break;
    default: AX_COLS_INT(uint64_t) break;
    }
}

uint64_t axial__fnv1a(const void *p, size_t n) {
    const unsigned char *b = p;
    uint64_t h = 0xcbf29ce484222325u;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) { /* a word at a time: one multiply per 8 bytes */
        h ^= axial__get64(b + i);
        h *= 0x100000001b3u;
    }
    for (; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3u;
    }
    return h;
}

axial_status axial__check_writer(const char *fn, const char *what, const unsigned char *b,
                                 size_t zero_from) {
    static const char *const since[] = {/* each minor version's change of the order, from 0.3 */
        "a reduction of over 64 outputs sums in fixed chunks of rows",
        "LogCumSumExp takes references from earlier terms only",
        "several reduced groups sum their first reduced axis in cells",
        "AVX-512 LogCumSumExp heads of f32, f16, bf16 are 16 terms"};
    const unsigned v = (unsigned)(axial__get64(b + 4) >> 32), me = AXIAL_VERSION;
    char why[160] = ""; /* the first change the writer lacks, and how many more (0.x: v / 100
                         * is the minor version) */
    unsigned first = 0, more = 0;
    for (unsigned m = 3; m - 3 < sizeof since / sizeof *since; m++)
        if (v < me && v / 100 < m && m <= me / 100)
            first ? (void)more++ : (void)(first = m);
    if (first)
        snprintf(why, sizeof why, more ? ": the order changed in 0.%u: %s (and %u later: docs/API.md "
                                         "section 11)" : ": the order changed in 0.%u: %s",
                 first, since[first - 3], more);
    if (v / 100 != me / 100)
        return axial__fail(AXIAL_E_ARGS, "%s: %s was written by axial %u.%u.%u; this library (%u.%u.%u) "
                           "reads %u.%u.x only%s", fn, what, v / 10000, v / 100 % 100, v % 100,
                           me / 10000, me / 100 % 100, me % 100, me / 10000, me / 100 % 100, why);
    for (size_t i = zero_from; i < 24; i++)
        if (b[i] != 0)
            return axial__fail(AXIAL_E_ARGS, "%s: %s has 0x%02x at byte %zu, which this format "
                               "keeps 0 (corrupted)", fn, what, b[i], i);
    return AXIAL_OK;
}

void axial__put_head(unsigned char *b, const char *magic, size_t head, int op, int dtype,
                     unsigned flags, int order, size_t rank, size_t axis) {
    memset(b, 0, head);
    memcpy(b, magic, 4);
    axial__put64(b + 4, AXIAL_BYTES_FORMAT | (uint64_t)AXIAL_VERSION << 32);
    const int v[6] = {op, dtype, (int)flags, order, (int)rank, (int)axis};
    for (int i = 0; i < 6; i++)
        b[12 + i] = (unsigned char)v[i];
}
