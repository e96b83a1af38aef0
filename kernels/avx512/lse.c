/* SPDX-License-Identifier: MIT */
/* lse.c: the AVX-512 LogCumSumExp and ReduceLogSumExp (ops/lse.h). */
#include "simd/avx512.h"
#include "ops/lse.h"
