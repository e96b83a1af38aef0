/* SPDX-License-Identifier: MIT */
/* cumsum.c: AVX-512 CumSum, ops/cumsum.h over simd/avx512.h. */
#include "simd/avx512.h"

/* Calls that write at least AXIAL_STREAM_BYTES stream their full blocks. */
#define AX_CS_NT 1
/* Wide column sweeps: blocks of 1024 columns, one row a pass (timed, Xeon,
 * f32 from memory, new/old kernels: [4096,1024] axis 0 1.53 -> 1.25x,
 * [1024,8192] streaming 1.8 -> 1.07x; AVX2 is fastest with the defaults). */
#define AX_CS_SWEEP_COLS 1024
#define AX_CS_SWEEP_ROWS 1
#include "ops/cumsum.h"

AX_CUMSUM_ENTRIES()
