/* SPDX-License-Identifier: MIT */
/* table.c: the scalar kernel table, the entries whose scalar cell is 1 in
 * kernels/entries.h (dispatch's base). */
#include "scalar.h"

AXIAL_DEFINE_KERNEL_TABLE(scalar)
