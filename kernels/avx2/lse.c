/* SPDX-License-Identifier: MIT */
/* lse.c: the AVX2 LogCumSumExp and ReduceLogSumExp (ops/lse.h). */
#include "simd/avx2.h"
#include "ops/lse.h"
