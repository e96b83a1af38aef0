/* SPDX-License-Identifier: MIT */
/* table.c: the neon kernel table, the entries whose neon cell is 1 in
 * kernels/entries.h (dispatch merges it over the scalar one). */
#include "simd/neon.h"

AXIAL_DEFINE_KERNEL_TABLE(neon)
