/* table.c: the neon kernel table.  An entry left NULL falls back to scalar
 * (dispatch merges this table over the scalar one).  This branch has the
 * roll kernels only; the lead fills in the other ops at merge. */
#include "neon.h"

const struct axial_kernels axial_kernels__neon = {
    /* roll.c */
    .roll = AXIAL_ROLL_OF(neon),
};
