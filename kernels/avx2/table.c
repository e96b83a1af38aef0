/* SPDX-License-Identifier: MIT */
/* table.c: the avx2 kernel table, the entries whose avx2 cell is 1 in
 * kernels/entries.h (dispatch merges it over the scalar one). */
#include "simd/avx2.h"

AXIAL_DEFINE_KERNEL_TABLE(avx2)
