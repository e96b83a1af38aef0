/* SPDX-License-Identifier: MIT */
/* cumsum.c: AdvSIMD (NEON) CumSum, ops/cumsum.h over simd/neon.h. */
#include "simd/neon.h"
#define AX_CS_TILE 8 /* 32 registers: column tiles of 8 vectors, as wide as AVX2 tiles of 4 (model below) */
#include "ops/cumsum.h"

AX_CUMSUM_ENTRIES()
