/* SPDX-License-Identifier: MIT */
/* cumsum.c: AVX2 + FMA + F16C CumSum, ops/cumsum.h over simd/avx2.h. */
#include "simd/avx2.h"
#include "ops/cumsum.h"

AX_CUMSUM_ENTRIES()
