/* SPDX-License-Identifier: MIT */
/* cumsum.c: AdvSIMD (NEON) CumSum, ops/cumsum.h over simd/neon.h. */
#include "simd/neon.h"
/* 32 registers: column tiles of 8 vectors (as wide as AVX2 tiles of 4), and
 * the columns past the last one as one tile of 2 to 7 vectors rather than a
 * sweep (modelled, neoverse-n1/v1: [1024,64] f64 1.7x/2.5x and [21845,12]
 * i32 2.4x/5.9x fewer cycles). */
#define AX_CS_TILE 8
#define AX_CS_REST_TILES 1
/* narrow columns' rows a constant width a loop (one branch unit on N1: f64 [32768,2] 1.7x, modelled) */
#define AX_CS_ROWS_CONST 1
/* columns' EXCLUSIVE a constant (bf16 [256,256] axis 0 n1 1.12x -> 1.02, i16 v1 1.33x -> 1.00, modelled) */
#define AX_CS_EXCL_CONST 1
#include "ops/cumsum.h"

AX_CUMSUM_ENTRIES()
