/* SPDX-License-Identifier: MIT */
/* table.c: the avx512 kernel table, the entries whose avx512 cell is 1 in
 * kernels/entries.h (dispatch merges it over the scalar one). */
#include "simd/avx512.h"

AXIAL_DEFINE_KERNEL_TABLE(avx512)
