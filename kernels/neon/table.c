/* table.c: the neon kernel table.  An entry left NULL falls back to scalar
 * (dispatch merges this table over the scalar one).  This branch (neon-reduce)
 * fills only the ReduceSum entries; the lead writes the final table at merge. */
#include "neon.h"

const struct axial_kernels axial_kernels__neon = {
    /* reduce.c */
    .reduce = {AXIAL_SUM_DTYPES(AXIAL_REDUCE_OF, neon)},
    .reduce_acc = {AXIAL_SUM_DTYPES(AXIAL_REDUCE_ACC_OF, neon)},
    .reduce_finish = {AXIAL_SUM_DTYPES(AXIAL_REDUCE_FINISH_OF, neon)},
};
