/* SPDX-License-Identifier: MIT */
/* cumsum.c: AdvSIMD (NEON) CumSum, ops/cumsum.h over simd/neon.h. */
#include "simd/neon.h"
#include "ops/cumsum.h"

AX_CUMSUM_ENTRIES()
