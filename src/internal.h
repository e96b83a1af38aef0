/*
 * internal.h: what the generic layer shares between its files.  Nothing here
 * is exported (the library is built with hidden visibility).
 */
#ifndef AXIAL_INTERNAL_H
#define AXIAL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "axial.h"
#include "kernels.h"

#if defined(__GNUC__)
#define AXIAL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define AXIAL_PRINTF(f, a)
#endif

/* Records the calling thread's message and returns `status`. */
axial_status axial__fail(axial_status status, const char *fmt, ...) AXIAL_PRINTF(2, 3);
void axial__set_message(const char *fmt, ...) AXIAL_PRINTF(1, 2);

/* The active kernel table (selects the best ISA on first use). */
const struct axial_kernels *axial__kernels(void);

/* ---- argument checks; each sets the message and returns the status ---- */

/* Element size of a dtype; sums refuse BOOL. */
axial_status axial__check_dtype(const char *fn, axial_dtype dtype, bool allow_bool,
                                size_t *elem_size);
/* rank in [min_rank, AXIAL_MAX_RANK], shape non-NULL when rank > 0. */
axial_status axial__check_rank(const char *fn, size_t rank, const int64_t *shape,
                               size_t min_rank);
/* No negative dimension; the element count and its byte size fit in ptrdiff_t
 * (even when another dimension is 0, so that the planner's products of any
 * subset of dimensions cannot overflow). */
axial_status axial__check_shape(const char *fn, size_t rank, const int64_t *shape,
                                size_t elem_size, size_t *count);
/* axis in [-rank, rank-1], normalised to [0, rank). */
axial_status axial__norm_axis(const char *fn, int64_t axis, size_t rank, size_t *out);
/* x and y non-NULL when they hold elements; their byte ranges do not overlap,
 * except exactly (x == y, same size) when allow_same. */
axial_status axial__check_buffers(const char *fn, const void *x, size_t x_bytes,
                                  const void *y, size_t y_bytes, bool allow_same);

/* Product of shape[begin..end), as size_t (callers checked it cannot overflow). */
size_t axial__product(const int64_t *shape, size_t begin, size_t end);

/* log2 of an element size of 1, 2, 4 or 8 */
static inline unsigned axial__log2_size(size_t elem_size) {
    return elem_size == 1 ? 0u : elem_size == 2 ? 1u : elem_size == 4 ? 2u : 3u;
}

#endif /* AXIAL_INTERNAL_H */
