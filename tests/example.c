/* SPDX-License-Identifier: MIT */
/* The README's example: a cumulative sum, a row sum and a roll of a 2x3 matrix. */
#include <stdio.h>

#include <axial.h>

int main(void) {
    const float x[6] = {1, 2, 3, 4, 5, 6}; /* [[1, 2, 3], [4, 5, 6]] */
    const int64_t shape[2] = {2, 3};
    float y[6], sums[2];

    /* y = [[1, 3, 6], [4, 9, 15]] */
    if (axial_cumsum(AXIAL_F32, x, y, 2, shape, -1, 0) != AXIAL_OK) goto fail;

    const int64_t axes[1] = {1}; /* sums = [6, 15] */
    if (axial_reduce_sum(AXIAL_F32, x, sums, 2, shape, axes, 1, 0) != AXIAL_OK) goto fail;

    const int64_t shift[1] = {1}; /* y = [[3, 1, 2], [6, 4, 5]] */
    if (axial_roll(AXIAL_F32, x, y, 2, shape, shift, 1, axes, 1) != AXIAL_OK) goto fail;

    printf("sums %g %g, rolled row %g %g %g, ISA %s\n", sums[0], sums[1], y[0], y[1], y[2],
           axial_isa_name(axial_isa_active()));
    /* errors name the values involved */
    if (axial_cumsum(AXIAL_F32, x, y, 2, shape, 2, 0) == AXIAL_E_AXIS)
        printf("expected error: %s\n", axial_last_error());
    return sums[1] == 15 && y[0] == 3 ? 0 : 1;
fail:
    fprintf(stderr, "axial: %s\n", axial_last_error());
    return 1;
}
