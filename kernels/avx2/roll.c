/* SPDX-License-Identifier: MIT */
/* avx2 Roll: the algorithm of ops/roll.h over simd/avx2.h. */
#include "simd/avx2.h"
#include "ops/roll.h"
