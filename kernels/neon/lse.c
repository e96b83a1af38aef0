/* SPDX-License-Identifier: MIT */
/* lse.c: the AdvSIMD LogCumSumExp and ReduceLogSumExp (ops/lse.h). */
#include "simd/neon.h"
#define LSE_RC 16 /* column blocks of 16 rows: RLSE [256, 256] axis 0 1.12x -> 0.91x the old cycles (n1, modelled) */
#include "ops/lse.h"
