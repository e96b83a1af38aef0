/* SPDX-License-Identifier: MIT */
/* reduce.c: ReduceSum on AdvSIMD: ops/reduce.h over simd/neon.h. */
#include "simd/neon.h"

#include "ops/reduce.h"

AXIAL_DEFINE_REDUCE_KERNELS()
