/* SPDX-License-Identifier: MIT */
/* cumsum.c: AVX-512 CumSum, ops/cumsum.h over simd/avx512.h. */
#include "simd/avx512.h"

/* Calls that write at least AXIAL_STREAM_BYTES stream their full blocks. */
#define AX_CS_NT 1
/* f32 and f16 columns as two halves: f32 [4096,1024] axis 0 1.08-1.18x faster, f16 [1024, 64] 1.07x, timed */
#define AX_CS_HALVES(k) ((k) == AXK_F32 || (k) == AXK_F16)
/* integer columns of 2-32 bytes as a flat run: i8 [8192, 8] axis 0 4.2x -> 1.1x the old kernels' time */
#define AX_CS_IFLAT 1
/* integer rows of 20-44 bytes by masked loads and stores: i64 [21845, 3] axis 0 0.78x, i32 [9362, 7] 0.70x */
#define AX_CS_PART_ROWS(bytes) ((bytes) >= 20 && (bytes) < 48)
#include "ops/cumsum.h"

AX_CUMSUM_ENTRIES()
