/* SPDX-License-Identifier: MIT */
/* reduce.c: ReduceSum on AVX2 + FMA + F16C: ops/reduce.h over simd/avx2.h. */
#include "simd/avx2.h"

#include "ops/reduce.h"

AXIAL_DEFINE_REDUCE_KERNELS()
