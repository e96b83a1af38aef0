/* SPDX-License-Identifier: MIT */
/* table.c: the avx2 kernel table.  An entry left NULL falls back to scalar
 * (dispatch merges this table over the scalar one). */
#include "avx2.h"

const struct axial_kernels axial_kernels__avx2 = {
    /* cumsum.c */
    .cumsum = {AXIAL_SUM_DTYPES(AXIAL_CUMSUM_OF, avx2)},
    .cumsum_seg = {AXIAL_FLOAT_DTYPES(AXIAL_CUMSUM_SEG_OF, avx2)},
    .scan_total = {AXIAL_FLOAT_DTYPES(AXIAL_SCAN_TOTAL_OF, avx2)},
    .cumsum_run = {AXIAL_FLOAT_DTYPES(AXIAL_CUMSUM_RUN_OF, avx2)},
    .cumsum_cols_run = AXIAL_COLS_RUN_OF(avx2),
    .cumsum_cols = {AXIAL_FLOAT_DTYPES(AXIAL_CUMSUM_COLS_OF, avx2)},

    /* reduce.c */
    .reduce = {AXIAL_SUM_DTYPES(AXIAL_REDUCE_OF, avx2)},
    .reduce_acc = {AXIAL_SUM_DTYPES(AXIAL_REDUCE_ACC_OF, avx2)},
    .reduce_finish = {AXIAL_SUM_DTYPES(AXIAL_REDUCE_FINISH_OF, avx2)},
    .reduce_cols = {AXIAL_FLOAT_DTYPES(AXIAL_REDUCE_COLS_OF, avx2)},

    /* roll.c */
    .roll = AXIAL_ROLL_OF(avx2),

    /* lse.c (reduce_lse_finish: the scalar one rounds the states) */
    .logcumsumexp = {AXIAL_FLOAT_DTYPES(AXIAL_LOGCUMSUMEXP_OF, avx2)},
    .reduce_lse = {AXIAL_FLOAT_DTYPES(AXIAL_REDUCE_LSE_OF, avx2)},
    .reduce_lse_acc = {AXIAL_FLOAT_DTYPES(AXIAL_REDUCE_LSE_ACC_OF, avx2)},
    .logcumsumexp_cols = {AXIAL_FLOAT_DTYPES(AXIAL_LOGCUMSUMEXP_COLS_OF, avx2)},
    .reduce_lse_cols = {AXIAL_FLOAT_DTYPES(AXIAL_REDUCE_LSE_COLS_OF, avx2)},
    .logcumsumexp_seg = {AXIAL_FLOAT_DTYPES(AXIAL_LOGCUMSUMEXP_SEG_OF, avx2)},
    .lse_scan_total = {AXIAL_FLOAT_DTYPES(AXIAL_LSE_SCAN_TOTAL_OF, avx2)},
};
