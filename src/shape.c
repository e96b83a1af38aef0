/* SPDX-License-Identifier: MIT */
/*
 * shape.c: the argument checks shared by every op, and size arithmetic that
 * cannot overflow silently.
 */
#include <inttypes.h>

#include "internal.h"

axial_status axial__check_dtype(const char *fn, axial_dtype dtype, bool allow_bool,
                                size_t *elem_size) {
    size_t size;
    switch (dtype) {
    case AXIAL_I8: case AXIAL_U8: case AXIAL_BOOL: size = 1; break;
    case AXIAL_F16: case AXIAL_BF16: case AXIAL_I16: case AXIAL_U16: size = 2; break;
    case AXIAL_F32: case AXIAL_I32: case AXIAL_U32: size = 4; break;
    case AXIAL_F64: case AXIAL_I64: case AXIAL_U64: size = 8; break;
    default:
        return axial__fail(AXIAL_E_DTYPE, "%s: dtype %d is not an axial_dtype (1..13)", fn,
                           (int)dtype);
    }
    if (dtype == AXIAL_BOOL && !allow_bool)
        return axial__fail(AXIAL_E_DTYPE, "%s: dtype %d (AXIAL_BOOL) cannot be summed", fn,
                           (int)dtype);
    *elem_size = size;
    return AXIAL_OK;
}

axial_status axial__check_float_dtype(const char *fn, axial_dtype dtype, size_t *elem_size) {
    axial_status st = axial__check_dtype(fn, dtype, false, elem_size);
    if (st == AXIAL_OK && dtype != AXIAL_F32 && dtype != AXIAL_F64 && dtype != AXIAL_F16 &&
        dtype != AXIAL_BF16)
        st = axial__fail(AXIAL_E_DTYPE,
                         "%s: dtype %d is an integer type; this op takes AXIAL_F32 (%d), "
                         "AXIAL_F64 (%d), AXIAL_F16 (%d) or AXIAL_BF16 (%d)",
                         fn, (int)dtype, (int)AXIAL_F32, (int)AXIAL_F64, (int)AXIAL_F16,
                         (int)AXIAL_BF16);
    return st;
}

axial_status axial__check_rank(const char *fn, size_t rank, const int64_t *shape,
                               size_t min_rank) {
    if (rank < min_rank)
        return axial__fail(AXIAL_E_RANK, "%s: rank %zu is below the minimum %zu", fn, rank,
                           min_rank);
    if (rank > AXIAL_MAX_RANK)
        return axial__fail(AXIAL_E_RANK, "%s: rank %zu is above AXIAL_MAX_RANK (%d)", fn, rank,
                           AXIAL_MAX_RANK);
    if (rank > 0 && shape == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: shape is NULL for rank %zu", fn, rank);
    return AXIAL_OK;
}

axial_status axial__check_shape(const char *fn, size_t rank, const int64_t *shape,
                                size_t elem_size, size_t *count) {
    /* The product of the non-zero dimensions bounds the product of any subset
     * of them; if it fits, no stride or block size the planner forms overflows. */
    uint64_t nonzero = elem_size;
    bool empty = false;
    for (size_t k = 0; k < rank; k++) {
        const int64_t d = shape[k];
        if (d < 0)
            return axial__fail(AXIAL_E_SHAPE, "%s: dimension %zu is negative (%" PRId64 ")", fn,
                               k, d);
        if (d == 0) {
            empty = true;
            continue;
        }
        if (__builtin_mul_overflow(nonzero, (uint64_t)d, &nonzero) || nonzero > PTRDIFF_MAX)
            return axial__fail(AXIAL_E_SHAPE,
                               "%s: shape too large: %zu-byte elements times dimensions "
                               "0..%zu (dimension %zu is %" PRId64 ") exceed PTRDIFF_MAX bytes",
                               fn, elem_size, k, k, d);
    }
    *count = empty ? 0 : (size_t)(nonzero / elem_size);
    return AXIAL_OK;
}

axial_status axial__norm_axis(const char *fn, int64_t axis, size_t rank, size_t *out) {
    const int64_t r = (int64_t)rank;
    if (axis < -r || axis >= r) {
        if (rank == 0)
            return axial__fail(AXIAL_E_AXIS, "%s: axis %" PRId64 " given for a rank-0 tensor",
                               fn, axis);
        return axial__fail(AXIAL_E_AXIS, "%s: axis %" PRId64 " is outside [%" PRId64
                           ", %" PRId64 "]", fn, axis, -r, r - 1);
    }
    *out = (size_t)(axis < 0 ? axis + r : axis);
    return AXIAL_OK;
}

axial_status axial__check_buffers(const char *fn, const void *x, size_t x_bytes,
                                  const void *y, size_t y_bytes, bool allow_same) {
    if (x_bytes > 0 && x == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: x is NULL but holds %zu bytes", fn, x_bytes);
    if (y_bytes > 0 && y == NULL)
        return axial__fail(AXIAL_E_NULL, "%s: y is NULL but holds %zu bytes", fn, y_bytes);
    if (x_bytes == 0 || y_bytes == 0)
        return AXIAL_OK;
    const uintptr_t xa = (uintptr_t)x, ya = (uintptr_t)y;
    if (xa < ya + y_bytes && ya < xa + x_bytes) {
        if (allow_same && xa == ya && x_bytes == y_bytes)
            return AXIAL_OK;
        return axial__fail(AXIAL_E_OVERLAP,
                           "%s: x [%p, +%zu bytes) and y [%p, +%zu bytes) overlap%s", fn, x,
                           x_bytes, y, y_bytes,
                           allow_same ? " (only y == x is allowed)" : " (not allowed)");
    }
    return AXIAL_OK;
}

size_t axial__product(const int64_t *shape, size_t begin, size_t end) {
    size_t p = 1;
    for (size_t k = begin; k < end; k++)
        p *= (size_t)shape[k];
    return p;
}

bool axial__bytes(size_t n, size_t each, size_t extra, size_t *out) {
    size_t b;
    if (__builtin_mul_overflow(n, each, &b) || __builtin_add_overflow(b, extra, &b) ||
        b > PTRDIFF_MAX)
        return false;
    *out = b;
    return true;
}
