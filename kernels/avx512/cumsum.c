/* SPDX-License-Identifier: MIT */
/* cumsum.c: AVX-512 CumSum, ops/cumsum.h over simd/avx512.h. */
#include "simd/avx512.h"

/* Calls that write at least AXIAL_STREAM_BYTES stream their full blocks. */
#define AX_CS_NT 1
/* Wide column sweeps: blocks of 1024 columns, one row a pass (f32 from
 * memory against 4 rows over the whole width: 1.2-1.35x faster on [4096,
 * 1024] axis 0; AVX2 is fastest with the defaults). */
#define AX_CS_SWEEP_COLS 1024
#define AX_CS_SWEEP_ROWS 1
#include "ops/cumsum.h"

AX_CUMSUM_ENTRIES()
