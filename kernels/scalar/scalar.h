/* SPDX-License-Identifier: MIT */
/* scalar.h: declarations of the scalar reference kernels (see kernels.h). */
#ifndef AXIAL_SCALAR_H
#define AXIAL_SCALAR_H

#include "kernels.h"
#include "types.h"

#define AXIAL_DECLARE_SCALAR(name, DT, T, A, W, LOAD, STORE)                                      \
    void axial_cumsum_##name##__scalar(const void *x, void *y, size_t outer, size_t n,      \
                                       size_t inner, unsigned flags);                        \
    void axial_reduce_##name##__scalar(const void *x, void *y, size_t outer, size_t n,      \
                                       size_t inner, unsigned flags);                        \
    void axial_reduce_acc_##name##__scalar(const void *x, void *acc, size_t outer, size_t n, \
                                           size_t inner);                                    \
    void axial_reduce_finish_##name##__scalar(const void *acc, void *y, size_t count);
AXIAL_SCALAR_TYPES(AXIAL_DECLARE_SCALAR)
#undef AXIAL_DECLARE_SCALAR

/* The log-semiring kernels (lse.c), float dtypes only. */
AXIAL_FLOAT_DTYPES(AXIAL_DECLARE_LSE_KERNELS, scalar)

void axial_roll_b1__scalar(const void *x, void *y, size_t outer, size_t n, size_t shift,
                           unsigned flags);
void axial_roll_b2__scalar(const void *x, void *y, size_t outer, size_t n, size_t shift,
                           unsigned flags);
void axial_roll_b4__scalar(const void *x, void *y, size_t outer, size_t n, size_t shift,
                           unsigned flags);
void axial_roll_b8__scalar(const void *x, void *y, size_t outer, size_t n, size_t shift,
                           unsigned flags);

#endif /* AXIAL_SCALAR_H */
