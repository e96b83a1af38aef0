/* table.c: the avx2 kernel table.  An entry left NULL falls back to scalar
 * (dispatch merges this table over the scalar one). */
#include "avx2.h"

const struct axial_kernels axial_kernels__avx2 = {
    /* cumsum.c */
    .cumsum = {AXIAL_SUM_DTYPES(AXIAL_CUMSUM_OF, avx2)},

    /* reduce.c */
    .reduce = {0},
    .reduce_acc = {0},
    .reduce_finish = {0},

    /* roll.c */
    .roll = AXIAL_ROLL_OF(avx2),
};
