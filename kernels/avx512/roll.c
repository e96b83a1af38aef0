/* SPDX-License-Identifier: MIT */
/* avx512 Roll: the algorithm of ops/roll.h over simd/avx512.h. */
#include "simd/avx512.h"
#include "ops/roll.h"
