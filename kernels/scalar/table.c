/* SPDX-License-Identifier: MIT */
/* table.c: the scalar kernel table: complete, every entry set (dispatch's base). */
#include "scalar.h"

#define AXIAL_CUMSUM_ENTRY(name, DT, ...) [DT] = axial_cumsum_##name##__scalar,
#define AXIAL_REDUCE_ENTRY(name, DT, ...) [DT] = axial_reduce_##name##__scalar,
#define AXIAL_REDUCE_ACC_ENTRY(name, DT, ...) [DT] = axial_reduce_acc_##name##__scalar,
#define AXIAL_REDUCE_FINISH_ENTRY(name, DT, ...) [DT] = axial_reduce_finish_##name##__scalar,

const struct axial_kernels axial_kernels__scalar = {
    .cumsum = {AXIAL_SCALAR_TYPES(AXIAL_CUMSUM_ENTRY)},
    .reduce = {AXIAL_SCALAR_TYPES(AXIAL_REDUCE_ENTRY)},
    .reduce_acc = {AXIAL_SCALAR_TYPES(AXIAL_REDUCE_ACC_ENTRY)},
    .reduce_finish = {AXIAL_SCALAR_TYPES(AXIAL_REDUCE_FINISH_ENTRY)},
    .logcumsumexp = {AXIAL_FLOAT_DTYPES(AXIAL_LOGCUMSUMEXP_OF, scalar)},
    .reduce_lse = {AXIAL_FLOAT_DTYPES(AXIAL_REDUCE_LSE_OF, scalar)},
    .reduce_lse_acc = {AXIAL_FLOAT_DTYPES(AXIAL_REDUCE_LSE_ACC_OF, scalar)},
    .reduce_lse_finish = {AXIAL_FLOAT_DTYPES(AXIAL_REDUCE_LSE_FINISH_OF, scalar)},
    .roll = {axial_roll_b1__scalar, axial_roll_b2__scalar, axial_roll_b4__scalar,
             axial_roll_b8__scalar},
};
