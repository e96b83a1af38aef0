/* SPDX-License-Identifier: MIT */
/* table.c: the avx512 kernel table.  An entry left NULL falls back to scalar
 * (dispatch merges this table over the scalar one). */
#include "avx512.h"

const struct axial_kernels axial_kernels__avx512 = {
    /* cumsum.c */
    .cumsum = {AXIAL_SUM_DTYPES(AXIAL_CUMSUM_OF, avx512)},
    .cumsum_seg = {AXIAL_FLOAT_DTYPES(AXIAL_CUMSUM_SEG_OF, avx512)},
    .scan_total = {AXIAL_FLOAT_DTYPES(AXIAL_SCAN_TOTAL_OF, avx512)},
    .cumsum_cols = {AXIAL_FLOAT_DTYPES(AXIAL_CUMSUM_COLS_OF, avx512)},

    /* reduce.c */
    .reduce = {AXIAL_SUM_DTYPES(AXIAL_REDUCE_OF, avx512)},
    .reduce_acc = {AXIAL_SUM_DTYPES(AXIAL_REDUCE_ACC_OF, avx512)},
    .reduce_finish = {AXIAL_SUM_DTYPES(AXIAL_REDUCE_FINISH_OF, avx512)},
    .reduce_cols = {AXIAL_FLOAT_DTYPES(AXIAL_REDUCE_COLS_OF, avx512)},

    /* lse.c (reduce_lse_finish: the scalar one rounds the states) */
    .logcumsumexp = {AXIAL_FLOAT_DTYPES(AXIAL_LOGCUMSUMEXP_OF, avx512)},
    .reduce_lse = {AXIAL_FLOAT_DTYPES(AXIAL_REDUCE_LSE_OF, avx512)},
    .reduce_lse_acc = {AXIAL_FLOAT_DTYPES(AXIAL_REDUCE_LSE_ACC_OF, avx512)},
    .logcumsumexp_cols = {AXIAL_FLOAT_DTYPES(AXIAL_LOGCUMSUMEXP_COLS_OF, avx512)},
    .reduce_lse_cols = {AXIAL_FLOAT_DTYPES(AXIAL_REDUCE_LSE_COLS_OF, avx512)},
    .logcumsumexp_seg = {AXIAL_FLOAT_DTYPES(AXIAL_LOGCUMSUMEXP_SEG_OF, avx512)},
    .lse_scan_total = {AXIAL_FLOAT_DTYPES(AXIAL_LSE_SCAN_TOTAL_OF, avx512)},

    /* roll.c */
    .roll = AXIAL_ROLL_OF(avx512),
};
