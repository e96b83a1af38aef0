/* SPDX-License-Identifier: MIT */
/* neon Roll: the algorithm of ops/roll.h over simd/neon.h. */
#include "simd/neon.h"
#include "ops/roll.h"
