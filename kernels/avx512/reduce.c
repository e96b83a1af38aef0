/* SPDX-License-Identifier: MIT */
/* reduce.c: ReduceSum on AVX-512: ops/reduce.h over simd/avx512.h. */
#include "simd/avx512.h"

#include "ops/reduce.h"

AXIAL_DEFINE_REDUCE_KERNELS()
