/* SPDX-License-Identifier: MIT */
/* cumsum.c: AdvSIMD (NEON) CumSum, ops/cumsum.h over simd/neon.h. */
#include "simd/neon.h"
/* 32 registers: column tiles of 8 vectors, the columns past the last one one tile of 2 to 7, not a
 * sweep (n1/v1: [1024,64] f64 1.7x/2.5x, [21845,12] i32 2.4x/5.9x fewer cycles, modelled) */
#define AX_CS_TILE 8
/* tiles walk rows up to about a page (the sweep's running sums cost i32 [256,256] axis 0 1.6x, modelled) */
#define AX_CS_SWEEP_TILES 32
#define AX_CS_REST_TILES 1
/* narrow columns' rows a constant width a loop (one branch unit on N1: f64 [32768,2] 1.7x, modelled) */
#define AX_CS_ROWS_CONST 1
/* columns' EXCLUSIVE a constant (bf16 [256,256] axis 0 n1 1.12x -> 1.02, i16 v1 1.33x -> 1.00, modelled) */
#define AX_CS_EXCL_CONST 1
#include "ops/cumsum.h"

AX_CUMSUM_ENTRIES()
