/* SPDX-License-Identifier: MIT */
/*
 * order_ref.c: the one summation order of the SIMD float kernels, in plain C
 * (see order_ref.h and docs/API.md, "One summation order").
 *
 * Types: T is the element type; C, the type sums are computed in, is f32 for
 * F32, F16 and BF16 (16-bit values widen to f32 exactly) and f64 for F64; W,
 * the wide type, is f64.  Every value here is held in a double, but a C-type
 * value of the f32 family is always exactly an f32 and every C-type addition
 * is rounded to f32 (cadd).  "-0.0" is the identity of IEEE addition
 * (v + -0.0 == v for every v), used for every padding lane.
 *
 * ReduceSum, kernel shape (outer, n, inner) -> outer * inner sums:
 *   inner >= 16 ("columns"): each column c on its own; its rows in groups of
 *     8 (rows 8g .. 8g+7; rows past n are -0.0), each group summed by the
 *     tree ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)) in C, widened to W and added
 *     in group order to the column's accumulator: acc itself for reduce_acc
 *     (so acc = ((acc + g0) + g1) + ...), -0.0 for reduce.
 *   inner < 16 ("periodic"): x[o] read as one flat run z of N = n * inner
 *     elements, cut into "super-rows" of P = lcm(inner, 16) elements (the
 *     last padded with -0.0); every position p < P is a column of the
 *     super-rows, summed as above (groups of 8 super-rows, tree in C, W
 *     accumulator A[p] from -0.0); then A is folded in halves while longer
 *     than inner -- A[p] += A[p + h] for p < h, h = len / 2 -- (P / inner is a
 *     power of two and p, p + h are the same column mod inner); finally
 *     acc[o][c] = acc[o][c] + A[c] (reduce: y = A[c] rounded).  inner == 1 is
 *     a row: 16 lanes, trees over 8 blocks of 16, a 16 -> 1 halving fold.
 *   reduce_finish / the rounding of reduce: W -> T once, to nearest even.
 *
 * CumSum, kernel shape (outer, n, inner):
 *   inner > 1 ("columns"): each column on its own, sequentially in W from
 *     -0.0: D = D + x[j]; y[j] = D rounded to T once (exclusive: y[j] is D
 *     before the addition, and +0.0 for the first row).
 *   inner == 1 ("lines"): k-space is the line in scan order (REVERSE: k = 0
 *     is the last element).  Blocks of 16 elements from k = 0 (the last
 *     block padded with -0.0), chunks of AX_ORDER_CHUNK elements (1024
 *     blocks).  In a block, v[0..15], in C:
 *       quads  q = 0..3 (lanes 4q..4q+3), a_i = v_i + v_{i-1}, s_i = a_i + a_{i-2}
 *              within the quad (terms before the quad's start are -0.0):
 *              s0 = v0, s1 = v0+v1, s2 = (v1+v2)+v0, s3 = (v2+v3)+(v0+v1);
 *       quad totals T_q = s_{4q+3};  E_0 = -0.0, E_1 = T_0, E_2 = T_1 + T_0,
 *              E_3 = (T_2 + T_1) + T_0;
 *       p_i = s_i + E_{i/4}  (the block's inclusive prefix);  t = p_15.
 *     Carries in W: R (the chunk carry) starts at -0.0 (or the carry given to
 *     cumsum_seg); in each chunk D = R and S = -0.0; per block, every output
 *     is  y_k = round_T( (C)D + e )  with e = p_i (inclusive) or p_{i-1}
 *     (exclusive; e = -0.0 for i == 0), (C)D being D rounded to C; then
 *     D = D + t and S = S + t.  At the chunk's end R = R + S.  Exclusive's
 *     first output of a line is +0.0.
 *   cumsum_seg scans a segment of len elements of one line that starts at a
 *     chunk boundary of k-space, from R = carry; with AX_ORDER_CONTINUE in
 *     flags the segment does not start the line (no +0.0 rule).  With
 *     REVERSE, x is the segment's lowest address and k = 0 is x[len - 1].
 *   scan_total returns S of one chunk of len elements (a multiple of 16).
 */
#include "order_ref.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* ---- f16 and bf16, written here ------------------------------------------ */
/* The definition's own conversions (the library's are in its scalar
 * kernels; test "order definition" checks that the two agree on every
 * 16-bit value and on the doubles around every rounding boundary). */

double ax_ref_f16_to_double(uint16_t h) {
    const int e = (h >> 10) & 31, f = h & 1023;
    const double s = (h & 0x8000) ? -1.0 : 1.0;
    if (e == 31) return f ? NAN : s * INFINITY;
    /* f * 2^-24 (subnormal) or (1024 + f) * 2^(e - 25) */
    return s * (e == 0 ? (double)f / 16777216.0 : ldexp(1024.0 + f, e - 25));
}

double ax_ref_bf16_to_double(uint16_t b) {
    const int e = (b >> 7) & 255, f = b & 127;
    const double s = (b & 0x8000) ? -1.0 : 1.0;
    if (e == 255) return f ? NAN : s * INFINITY;
    return s * (e == 0 ? ldexp((double)f, -133) : ldexp(128.0 + f, e - 134));
}

/* v to nearest even in a format of `eb` exponent and `fb` fraction bits: the
 * value is scaled exactly so that its last kept bit is the units bit, and
 * nearbyint (the default mode: to nearest, ties to even) rounds it once. */
static uint16_t ref_round(double v, int eb, int fb) {
    const unsigned sign = signbit(v) ? 0x8000u : 0u, emax_field = (1u << eb) - 1u;
    if (isnan(v)) return (uint16_t)(sign | emax_field << fb | 1u << (fb - 1));
    const double a = fabs(v);
    const int bias = (1 << (eb - 1)) - 1;
    int e = ilogb(a); /* a in [2^e, 2^(e+1)); INT_MIN-ish for 0 */
    if (a == 0.0 || e < 1 - bias) e = 1 - bias; /* subnormals share the least quantum */
    if (isinf(a) || e > bias) return (uint16_t)(sign | emax_field << fb);
    const double q = nearbyint(ldexp(a, fb - e)); /* in [0, 2^(fb+1)] */
    unsigned field = (unsigned)(e + bias), frac;
    if (q >= ldexp(1.0, fb + 1)) { /* rounded up to the next binade */
        field++;
        frac = 0;
    } else if (q < ldexp(1.0, fb)) { /* subnormal (field 1 - ... becomes 0) */
        field = 0;
        frac = (unsigned)q;
    } else {
        frac = (unsigned)(q - ldexp(1.0, fb));
    }
    if (field >= emax_field) return (uint16_t)(sign | emax_field << fb);
    return (uint16_t)(sign | field << fb | frac);
}

uint16_t ax_ref_double_to_f16(double v) { return ref_round(v, 5, 10); }
uint16_t ax_ref_double_to_bf16(double v) { return ref_round(v, 8, 7); }

static double load(axial_dtype dt, const void *x, size_t k) {
    switch (dt) {
    case AXIAL_F32: return (double)((const float *)x)[k];
    case AXIAL_F64: return ((const double *)x)[k];
    case AXIAL_F16: return ax_ref_f16_to_double(((const uint16_t *)x)[k]);
    default: return ax_ref_bf16_to_double(((const uint16_t *)x)[k]);
    }
}

/* Stores a W value (or a C value, which is also exact in double): rounded
 * once to T. */
static void store(axial_dtype dt, void *y, size_t k, double v) {
    switch (dt) {
    case AXIAL_F32: ((float *)y)[k] = (float)v; break;
    case AXIAL_F64: ((double *)y)[k] = v; break;
    case AXIAL_F16: ((uint16_t *)y)[k] = ax_ref_double_to_f16(v); break;
    default: ((uint16_t *)y)[k] = ax_ref_double_to_bf16(v); break;
    }
}

/* Addition in C. */
static double cadd(axial_dtype dt, double a, double b) {
    if (dt == AXIAL_F64)
        return a + b;
    return (double)((float)a + (float)b);
}

/* W rounded to C. */
static double to_c(axial_dtype dt, double w) { return dt == AXIAL_F64 ? w : (double)(float)w; }

static double tree8(axial_dtype dt, const double r[8]) {
    return cadd(dt, cadd(dt, cadd(dt, r[0], r[1]), cadd(dt, r[2], r[3])),
                cadd(dt, cadd(dt, r[4], r[5]), cadd(dt, r[6], r[7])));
}

/* ---- ReduceSum ------------------------------------------------------------ */

/* Column c of an (n, *) matrix with row stride `stride`: groups of 8 rows
 * by the tree, added to a in group order. */
static double column_sum(axial_dtype dt, const void *x, size_t n, size_t stride, size_t c,
                         double a) {
    for (size_t g = 0; g < n; g += 8) {
        double r[8];
        for (size_t k = 0; k < 8; k++)
            r[k] = g + k < n ? load(dt, x, (g + k) * stride + c) : -0.0;
        a += tree8(dt, r);
    }
    return a;
}

static size_t gcd(size_t a, size_t b) {
    while (b) {
        const size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The periodic order for inner < 16: the sums of x[o] (n * inner elements)
 * per column, into out[inner]. */
static void periodic_sums(axial_dtype dt, const void *x, size_t n, size_t inner, double *out) {
    const size_t P = inner * (AX_ORDER_LANES / gcd(inner, AX_ORDER_LANES));
    const size_t N = n * inner, nsr = (N + P - 1) / P;
    double A[AX_ORDER_LANES * AX_ORDER_LANES];
    for (size_t p = 0; p < P; p++) {
        double a = -0.0;
        for (size_t g = 0; g < nsr; g += 8) {
            double r[8];
            for (size_t k = 0; k < 8; k++) {
                const size_t idx = (g + k) * P + p;
                r[k] = g + k < nsr && idx < N ? load(dt, x, idx) : -0.0;
            }
            a += tree8(dt, r);
        }
        A[p] = a;
    }
    for (size_t len = P; len > inner; len /= 2)
        for (size_t p = 0; p < len / 2; p++)
            A[p] += A[p + len / 2];
    memcpy(out, A, inner * sizeof *out);
}

void ax_ref_reduce_acc(axial_dtype dt, const void *x, double *acc, size_t outer, size_t n,
                       size_t inner) {
    const size_t es = dt == AXIAL_F64 ? 8 : dt == AXIAL_F32 ? 4 : 2;
    for (size_t o = 0; o < outer; o++) {
        const char *xo = (const char *)x + o * n * inner * es;
        double *ao = acc + o * inner;
        if (inner >= AX_ORDER_LANES) {
            for (size_t c = 0; c < inner; c++)
                ao[c] = column_sum(dt, xo, n, inner, c, ao[c]);
        } else {
            double part[AX_ORDER_LANES];
            periodic_sums(dt, xo, n, inner, part);
            for (size_t c = 0; c < inner; c++)
                ao[c] += part[c];
        }
    }
}

void ax_ref_reduce_cols(axial_dtype dt, const void *x, double *acc, size_t n, size_t ncols,
                        size_t stride) {
    for (size_t c = 0; c < ncols; c++)
        acc[c] = column_sum(dt, x, n, stride, c, acc[c]);
}

void ax_ref_reduce_finish(axial_dtype dt, const double *acc, void *y, size_t count) {
    for (size_t k = 0; k < count; k++)
        store(dt, y, k, acc[k]);
}

void ax_ref_reduce(axial_dtype dt, const void *x, void *y, size_t outer, size_t n, size_t inner) {
    const size_t es = dt == AXIAL_F64 ? 8 : dt == AXIAL_F32 ? 4 : 2;
    double acc[256];
    for (size_t o = 0; o < outer; o++) {
        const char *xo = (const char *)x + o * n * inner * es;
        char *yo = (char *)y + o * inner * es;
        for (size_t c0 = 0; c0 < inner; c0 += 256) {
            const size_t w = inner - c0 < 256 ? inner - c0 : 256;
            for (size_t c = 0; c < w; c++)
                acc[c] = -0.0;
            if (inner >= AX_ORDER_LANES)
                ax_ref_reduce_cols(dt, xo + c0 * es, acc, n, w, inner);
            else
                ax_ref_reduce_acc(dt, xo, acc, 1, n, inner);
            ax_ref_reduce_finish(dt, acc, yo + c0 * es, w);
        }
    }
}

/* ---- CumSum --------------------------------------------------------------- */

/* The inclusive prefix p[16] of one block v[16] (C arithmetic). */
static void block_prefix(axial_dtype dt, const double v[16], double p[16]) {
    double s[16], T[4];
    for (int q = 0; q < 4; q++) {
        const double *u = v + 4 * q;
        double *w = s + 4 * q;
        w[0] = u[0];
        w[1] = cadd(dt, u[1], u[0]);
        w[2] = cadd(dt, cadd(dt, u[2], u[1]), u[0]);
        w[3] = cadd(dt, cadd(dt, u[3], u[2]), cadd(dt, u[1], u[0]));
        T[q] = w[3];
    }
    const double E[4] = {-0.0, T[0], cadd(dt, T[1], T[0]), cadd(dt, cadd(dt, T[2], T[1]), T[0])};
    for (int i = 0; i < 16; i++)
        p[i] = cadd(dt, s[i], E[i / 4]);
}

/* Element k of k-space of a run of len elements at x. */
static size_t kpos(size_t len, size_t k, int reverse) { return reverse ? len - 1 - k : k; }

double ax_ref_cumsum_seg(axial_dtype dt, const void *x, void *y, size_t len, unsigned flags,
                         double carry) {
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const int rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    const int line_start = (flags & AX_ORDER_CONTINUE) == 0;
    double R = carry;
    for (size_t h = 0; h < len; h += AX_ORDER_CHUNK) {
        const size_t hend = len - h < AX_ORDER_CHUNK ? len : h + AX_ORDER_CHUNK;
        double D = R, S = -0.0;
        for (size_t b = h; b < hend; b += 16) {
            double v[16], p[16];
            for (size_t i = 0; i < 16; i++)
                v[i] = b + i < hend ? load(dt, x, kpos(len, b + i, rev)) : -0.0;
            block_prefix(dt, v, p); /* reads all of v before y is written: in place is fine */
            const double Dc = to_c(dt, D);
            for (size_t i = 0; i < 16 && b + i < hend; i++) {
                const double e = excl ? (i ? p[i - 1] : -0.0) : p[i];
                double out = cadd(dt, Dc, e);
                if (excl && line_start && b + i == 0)
                    out = 0.0;
                store(dt, y, kpos(len, b + i, rev), out);
            }
            D += p[15];
            S += p[15];
        }
        R += S;
    }
    return R;
}

double ax_ref_scan_total(axial_dtype dt, const void *x, size_t len, unsigned flags) {
    const int rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    double S = -0.0;
    for (size_t b = 0; b < len; b += 16) {
        double v[16], p[16];
        for (size_t i = 0; i < 16; i++)
            v[i] = b + i < len ? load(dt, x, kpos(len, b + i, rev)) : -0.0;
        block_prefix(dt, v, p);
        S += p[15];
    }
    return S;
}

void ax_ref_cumsum_cols(axial_dtype dt, const void *x, void *y, size_t n, size_t ncols,
                        size_t stride, unsigned flags) {
    const int excl = (flags & AXIAL_CUMSUM_EXCLUSIVE) != 0;
    const int rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    for (size_t c = 0; c < ncols; c++) {
        double D = -0.0;
        for (size_t t = 0; t < n; t++) {
            const size_t k = (rev ? n - 1 - t : t) * stride + c;
            const double v = load(dt, x, k);
            if (excl) {
                store(dt, y, k, t ? D : 0.0);
                D += v;
            } else {
                D += v;
                store(dt, y, k, D);
            }
        }
    }
}

void ax_ref_cumsum(axial_dtype dt, const void *x, void *y, size_t outer, size_t n, size_t inner,
                   unsigned flags) {
    const size_t es = dt == AXIAL_F64 ? 8 : dt == AXIAL_F32 ? 4 : 2;
    for (size_t o = 0; o < outer; o++) {
        const char *xo = (const char *)x + o * n * inner * es;
        char *yo = (char *)y + o * n * inner * es;
        if (inner == 1)
            ax_ref_cumsum_seg(dt, xo, yo, n, flags, -0.0);
        else
            ax_ref_cumsum_cols(dt, xo, yo, n, inner, inner, flags);
    }
}
