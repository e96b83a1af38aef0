/* SPDX-License-Identifier: MIT */
/*
 * convert.h: exact conversions between the 16-bit float formats and double, for the scalar kernels.
 *
 * Widening (f16/bf16 -> double) is exact.  Narrowing (double -> f16/bf16) rounds ONCE, to nearest with ties to
 * even, straight from double: going through float first would round twice and could differ in the last bit.
 * NaN stays NaN (quieted, sign kept); overflow gives infinity; values below the smallest subnormal round to
 * (signed) zero or the smallest subnormal. rint() is used for the rounding, so the default rounding mode (to
 * nearest) is assumed, as everywhere in the library.
 */
#ifndef AXIAL_SCALAR_CONVERT_H
#define AXIAL_SCALAR_CONVERT_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline double axial_f16_to_double(uint16_t h) {
    const unsigned e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    double v;
    if (e == 0x1f)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, -24); /* subnormal: m * 2^-24 */
    else
        v = ldexp((double)(m | 0x400u), (int)e - 25);
    return (h & 0x8000u) ? -v : v;
}

static inline double axial_bf16_to_double(uint16_t b) {
    const uint32_t u = (uint32_t)b << 16; /* bf16 is the top half of a float */
    float f;
    memcpy(&f, &u, sizeof f);
    return (double)f;
}

/* Round |v| to a binary format with `ebits` exponent and `mbits` fraction bits. */
static inline uint16_t axial_round_to_small_float(double v, int ebits, int mbits) {
    const uint32_t sign = signbit(v) ? 1u << (ebits + mbits) : 0u;
    const uint32_t inf = ((1u << ebits) - 1u) << mbits;
    if (isnan(v))
        return (uint16_t)(sign | inf | (1u << (mbits - 1)));
    const double a = fabs(v);
    if (a == 0.0)
        return (uint16_t)sign;
    if (isinf(a))
        return (uint16_t)(sign | inf);
    const int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias;
    int e;
    (void)frexp(a, &e);
    e -= 1; /* a is in [2^e, 2^(e+1)) */
    if (e < emin)
        e = emin; /* subnormal: the quantum stays 2^(emin - mbits) */
    /* Exact scaling, then one rounding to an integer significand in [0, 2^(mbits+1)]. */
    const double m = rint(ldexp(a, mbits - e));
    /* Exponent field (e + bias - 1) plus the significand with its hidden bit: a carry out of the fraction
     * bumps the exponent, a subnormal (e == emin, m < 2^mbits) gets exponent field 0, and one that rounds up
     * to 2^mbits becomes the smallest normal.  All by the same addition. */
    const uint64_t bits = ((uint64_t)(e + bias - 1) << mbits) + (uint64_t)m;
    if (bits >= inf)
        return (uint16_t)(sign | inf);
    return (uint16_t)(sign | (uint32_t)bits);
}

static inline uint16_t axial_double_to_f16(double v) { return axial_round_to_small_float(v, 5, 10); }
static inline uint16_t axial_double_to_bf16(double v) { return axial_round_to_small_float(v, 8, 7); }

#endif /* AXIAL_SCALAR_CONVERT_H */
