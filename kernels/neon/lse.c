/* SPDX-License-Identifier: MIT */
/* lse.c: the AdvSIMD LogCumSumExp and ReduceLogSumExp (ops/lse.h). */
#include "simd/neon.h"
#include "ops/lse.h"
