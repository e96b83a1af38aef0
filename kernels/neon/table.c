/* SPDX-License-Identifier: MIT */
/* table.c: the neon kernel table: every entry (tests/kernel_table.c checks
 * that none is left to the scalar fallback). */
#include "neon.h"

const struct axial_kernels axial_kernels__neon = {
    /* cumsum.c */
    .cumsum = {AXIAL_SUM_DTYPES(AXIAL_CUMSUM_OF, neon)},
    .cumsum_seg = {AXIAL_FLOAT_DTYPES(AXIAL_CUMSUM_SEG_OF, neon)},
    .scan_total = {AXIAL_FLOAT_DTYPES(AXIAL_SCAN_TOTAL_OF, neon)},
    .cumsum_run = {AXIAL_FLOAT_DTYPES(AXIAL_CUMSUM_RUN_OF, neon)},
    .cumsum_cols_run = AXIAL_COLS_RUN_OF(neon),
    .cumsum_cols = {AXIAL_FLOAT_DTYPES(AXIAL_CUMSUM_COLS_OF, neon)},

    /* reduce.c */
    .reduce = {AXIAL_SUM_DTYPES(AXIAL_REDUCE_OF, neon)},
    .reduce_acc = {AXIAL_SUM_DTYPES(AXIAL_REDUCE_ACC_OF, neon)},
    .reduce_finish = {AXIAL_SUM_DTYPES(AXIAL_REDUCE_FINISH_OF, neon)},
    .reduce_cols = {AXIAL_FLOAT_DTYPES(AXIAL_REDUCE_COLS_OF, neon)},

    /* lse.c (reduce_lse_finish: the scalar one rounds the states) */
    .logcumsumexp = {AXIAL_FLOAT_DTYPES(AXIAL_LOGCUMSUMEXP_OF, neon)},
    .reduce_lse = {AXIAL_FLOAT_DTYPES(AXIAL_REDUCE_LSE_OF, neon)},
    .reduce_lse_acc = {AXIAL_FLOAT_DTYPES(AXIAL_REDUCE_LSE_ACC_OF, neon)},
    .logcumsumexp_cols = {AXIAL_FLOAT_DTYPES(AXIAL_LOGCUMSUMEXP_COLS_OF, neon)},
    .logcumsumexp_seg = {AXIAL_FLOAT_DTYPES(AXIAL_LOGCUMSUMEXP_SEG_OF, neon)},
    .lse_scan_total = {AXIAL_FLOAT_DTYPES(AXIAL_LSE_SCAN_TOTAL_OF, neon)},
    .reduce_lse_cols = {AXIAL_FLOAT_DTYPES(AXIAL_REDUCE_LSE_COLS_OF, neon)},

    /* roll.c */
    .roll = AXIAL_ROLL_OF(neon),
};
