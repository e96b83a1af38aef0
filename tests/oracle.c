/* SPDX-License-Identifier: MIT */
/* oracle.c: see oracle.h.  Slow and simple on purpose. */
#include "oracle.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool or_is_signed(axial_dtype dt) {
    return dt == AXIAL_I8 || dt == AXIAL_I16 || dt == AXIAL_I32 || dt == AXIAL_I64;
}

/* ---- f16 / bf16 by value tables ------------------------------------------
 * Positive bit patterns of both formats increase with their value, so the
 * nearest value is found by binary search over the patterns.  The pattern
 * after the largest finite one is infinity; for rounding it stands for the
 * value 2^(emax+1), which makes "ties to even" send the midpoint above the
 * largest finite value to infinity, as IEEE 754 says. */

static long double or_f16_decode(uint16_t b) {
    int s = b >> 15, e = (b >> 10) & 31, m = b & 1023;
    long double v;
    if (e == 31) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexpl((long double)m, -24);
    else v = ldexpl((long double)(1024 + m), e - 25);
    return s ? -v : v;
}

static long double or_bf16_decode(uint16_t b) {
    int s = b >> 15, e = (b >> 7) & 255, m = b & 127;
    long double v;
    if (e == 255) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexpl((long double)m, -133);
    else v = ldexpl((long double)(128 + m), e - 134);
    return s ? -v : v;
}

/* Every value of both formats, decoded once (the tests read millions); a
 * float holds each exactly (f16 and bf16 are subsets of f32). */
static float *or_f16_table, *or_bf16_table;

static float *or_table(float **tab, long double (*decode)(uint16_t)) {
    if (!*tab) {
        float *t = malloc(65536 * sizeof *t);
        if (!t) abort();
        for (uint32_t b = 0; b < 65536; b++) t[b] = (float)decode((uint16_t)b);
        *tab = t;
    }
    return *tab;
}

long double or_f16_value(uint16_t b) { return or_table(&or_f16_table, or_f16_decode)[b]; }
long double or_bf16_value(uint16_t b) { return or_table(&or_bf16_table, or_bf16_decode)[b]; }

static uint16_t or_round_table(long double v, long double (*value)(uint16_t),
                               uint16_t inf_bits, long double inf_stand_in,
                               uint16_t nan_bits) {
    if (isnan(v)) return nan_bits;
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    long double a = fabsl(v);
    if (a >= inf_stand_in) return sign | inf_bits;
    /* largest pattern lo in [0, inf_bits) with value(lo) <= a */
    uint32_t lo = 0, hi = inf_bits; /* value(lo) <= a < value(hi) */
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (value((uint16_t)mid) <= a) lo = mid;
        else hi = mid;
    }
    long double vlo = value((uint16_t)lo);
    long double vhi = hi == inf_bits ? inf_stand_in : value((uint16_t)hi);
    uint32_t pick;
    if (a - vlo < vhi - a) pick = lo;
    else if (a - vlo > vhi - a) pick = hi;
    else pick = (lo & 1) ? hi : lo;
    return (uint16_t)(sign | pick);
}

uint16_t or_round_f16(long double v) {
    return or_round_table(v, or_f16_value, 0x7c00, 65536.0L, 0x7e00);
}

uint16_t or_round_bf16(long double v) {
    return or_round_table(v, or_bf16_value, 0x7f80, ldexpl(1.0L, 128), 0x7fc0);
}

/* ---- element access -------------------------------------------------------- */

long double or_get_f(axial_dtype dt, const void *p, size_t i) {
    switch (dt) {
    case AXIAL_F32: { float v; memcpy(&v, (const char *)p + 4 * i, 4); return v; }
    case AXIAL_F64: { double v; memcpy(&v, (const char *)p + 8 * i, 8); return v; }
    case AXIAL_F16: { uint16_t b; memcpy(&b, (const char *)p + 2 * i, 2); return or_f16_value(b); }
    case AXIAL_BF16: { uint16_t b; memcpy(&b, (const char *)p + 2 * i, 2); return or_bf16_value(b); }
    default: abort();
    }
}

uint64_t or_get_u(axial_dtype dt, const void *p, size_t i) {
    const char *c = (const char *)p;
    switch (dt) {
    case AXIAL_I8: { int8_t v; memcpy(&v, c + i, 1); return (uint64_t)(int64_t)v; }
    case AXIAL_U8: case AXIAL_BOOL: { uint8_t v; memcpy(&v, c + i, 1); return v; }
    case AXIAL_I16: { int16_t v; memcpy(&v, c + 2 * i, 2); return (uint64_t)(int64_t)v; }
    case AXIAL_U16: case AXIAL_F16: case AXIAL_BF16: { uint16_t v; memcpy(&v, c + 2 * i, 2); return v; }
    case AXIAL_I32: { int32_t v; memcpy(&v, c + 4 * i, 4); return (uint64_t)(int64_t)v; }
    case AXIAL_U32: case AXIAL_F32: { uint32_t v; memcpy(&v, c + 4 * i, 4); return v; }
    default: { uint64_t v; memcpy(&v, c + 8 * i, 8); return v; }
    }
}

void or_set_u(axial_dtype dt, void *p, size_t i, uint64_t v) {
    size_t s = ax_dtype_size(dt);
    char *c = (char *)p + s * i;
    /* little-endian hosts only (x86-64, aarch64): the low bytes */
    unsigned char b[8];
    for (size_t k = 0; k < 8; k++) b[k] = (unsigned char)(v >> (8 * k));
    memcpy(c, b, s);
}

void or_set_f(axial_dtype dt, void *p, size_t i, long double v) {
    switch (dt) {
    case AXIAL_F32: { float f = (float)v; memcpy((char *)p + 4 * i, &f, 4); break; }
    case AXIAL_F64: { double d = (double)v; memcpy((char *)p + 8 * i, &d, 8); break; }
    case AXIAL_F16: or_set_u(AXIAL_U16, p, i, or_round_f16(v)); break;
    case AXIAL_BF16: or_set_u(AXIAL_U16, p, i, or_round_bf16(v)); break;
    default: abort();
    }
}

bool or_same(axial_dtype dt, const void *a, size_t ia, const void *b, size_t ib) {
    if (or_get_u(dt, a, ia) == or_get_u(dt, b, ib)) return true; /* same bits */
    if (ax_dtype_is_float(dt)) {
        long double va = or_get_f(dt, a, ia), vb = or_get_f(dt, b, ib);
        if (isnan(va) || isnan(vb)) return isnan(va) && isnan(vb);
    }
    return or_get_u(dt, a, ia) == or_get_u(dt, b, ib);
}

const char *or_str(char *buf, size_t cap, axial_dtype dt, const void *p, size_t i) {
    uint64_t bits = or_get_u(dt, p, i) & (~0ull >> (64 - 8 * ax_dtype_size(dt)));
    if (ax_dtype_is_float(dt))
        snprintf(buf, cap, "%.17Lg (0x%llx)", or_get_f(dt, p, i), (unsigned long long)bits);
    else if (or_is_signed(dt))
        snprintf(buf, cap, "%lld", (long long)or_get_u(dt, p, i));
    else
        snprintf(buf, cap, "%llu", (unsigned long long)bits);
    return buf;
}

/* ---- the operators ---------------------------------------------------------- */

size_t or_count(size_t rank, const int64_t *shape) {
    size_t n = 1;
    for (size_t k = 0; k < rank; k++) n *= (size_t)shape[k];
    return n;
}

/* Advances the multi-index idx over shape; false after the last one. */
static bool or_next(size_t rank, const int64_t *shape, int64_t *idx) {
    for (size_t k = rank; k-- > 0;) {
        if (++idx[k] < shape[k]) return true;
        idx[k] = 0;
    }
    return false;
}

static size_t or_offset(size_t rank, const int64_t *shape, const int64_t *idx) {
    size_t off = 0;
    for (size_t k = 0; k < rank; k++) off = off * (size_t)shape[k] + (size_t)idx[k];
    return off;
}

/* The line structure of a tensor along `axis`: outer x len x inner. */
static void or_lines(size_t rank, const int64_t *shape, size_t axis, size_t *outer,
                     size_t *len, size_t *inner) {
    *outer = or_count(axis, shape);
    *len = (size_t)shape[axis];
    *inner = or_count(rank - axis - 1, shape + axis + 1);
}

/* The running sum along every line, in the order of the scan (forward or
 * reverse).  A sum starts from -0.0, the identity of IEEE addition, so that
 * it is exactly the IEEE sum of its terms; an empty sum (the first output of
 * an exclusive scan) is +0.  For the exact test data every partial sum is
 * exact, so this equals any other order; on general data `mag` (sum of |x|)
 * and `terms` let the caller bound the reference's own error. */
static void or_scan(axial_dtype dt, const void *x, long double *fsum, uint64_t *usum,
                    long double *mag, size_t *terms, size_t rank, const int64_t *shape,
                    size_t axis, bool exclusive, bool reverse) {
    size_t outer, len, inner;
    or_lines(rank, shape, axis, &outer, &len, &inner);
    const bool fl = ax_dtype_is_float(dt);
    for (size_t o = 0; o < outer; o++)
        for (size_t i = 0; i < inner; i++) {
            long double fs = -0.0L, m = 0;
            uint64_t us = 0;
            for (size_t s = 0; s < len; s++) {
                size_t j = reverse ? len - 1 - s : s;
                size_t off = (o * len + j) * inner + i;
                if (exclusive) { /* the sum before this term */
                    if (fl) fsum[off] = s ? fs : 0.0L;
                    else usum[off] = us;
                    if (mag) mag[off] = m;
                    if (terms) terms[off] = s;
                }
                if (fl) {
                    long double v = or_get_f(dt, x, off);
                    fs += v;
                    m += fabsl(v);
                } else {
                    us += or_get_u(dt, x, off);
                }
                if (!exclusive) {
                    if (fl) fsum[off] = fs;
                    else usum[off] = us;
                    if (mag) mag[off] = m;
                    if (terms) terms[off] = s + 1;
                }
            }
        }
}

void or_cumsum(axial_dtype dt, const void *x, void *y, size_t rank, const int64_t *shape,
               size_t axis, bool exclusive, bool reverse) {
    size_t count = or_count(rank, shape);
    if (count == 0) return;
    long double *fs = ax_dtype_is_float(dt) ? malloc(count * sizeof *fs) : NULL;
    uint64_t *us = ax_dtype_is_float(dt) ? NULL : malloc(count * sizeof *us);
    if (!fs && !us) abort();
    or_scan(dt, x, fs, us, NULL, NULL, rank, shape, axis, exclusive, reverse);
    for (size_t k = 0; k < count; k++) {
        if (fs) or_set_f(dt, y, k, fs[k]);
        else or_set_u(dt, y, k, us[k]);
    }
    free(fs);
    free(us);
}

void or_cumsum_exact(axial_dtype dt, const void *x, long double *sum, long double *mag,
                     size_t *terms, size_t rank, const int64_t *shape, size_t axis,
                     bool exclusive, bool reverse) {
    if (or_count(rank, shape) == 0) return;
    or_scan(dt, x, sum, NULL, mag, terms, rank, shape, axis, exclusive, reverse);
}

/* ReduceSum in long double / uint64_t: fs, us (and mag) get one value per
 * output; returns the number of terms per output. */
static size_t or_reduce_core(axial_dtype dt, const void *x, long double **fs_out,
                             uint64_t **us_out, long double **mag_out, size_t rank,
                             const int64_t *shape, const int64_t *axes, size_t naxes,
                             bool keep_dims, bool empty_all, size_t *out_rank,
                             int64_t *out_shape, size_t *ocount_out) {
    bool reduced[AXIAL_MAX_RANK] = {false};
    for (size_t a = 0; a < naxes; a++)
        reduced[axes[a] < 0 ? axes[a] + (int64_t)rank : axes[a]] = true;
    if (naxes == 0 && empty_all)
        for (size_t k = 0; k < rank; k++) reduced[k] = true;

    /* output shape, and the same with reduced axes as 1 (for indexing) */
    int64_t kept[AXIAL_MAX_RANK];
    size_t r = 0;
    for (size_t k = 0; k < rank; k++) {
        kept[k] = reduced[k] ? 1 : shape[k];
        if (!reduced[k]) out_shape[r++] = shape[k];
        else if (keep_dims) out_shape[r++] = 1;
    }
    *out_rank = r;
    size_t terms = 1; /* per output */
    for (size_t k = 0; k < rank; k++)
        if (reduced[k]) terms *= (size_t)shape[k];
    if (!fs_out) return terms;

    size_t ocount = or_count(rank, kept);
    *ocount_out = ocount;
    long double *fs = calloc(ocount ? ocount : 1, sizeof *fs);
    long double *mag = calloc(ocount ? ocount : 1, sizeof *mag);
    uint64_t *us = calloc(ocount ? ocount : 1, sizeof *us);
    if (!fs || !us || !mag) abort();
    for (size_t o = 0; o < ocount; o++) fs[o] = terms ? -0.0L : 0.0L; /* as in or_scan */
    if (or_count(rank, shape) > 0) {
        int64_t idx[AXIAL_MAX_RANK] = {0}, oidx[AXIAL_MAX_RANK];
        do {
            for (size_t k = 0; k < rank; k++) oidx[k] = reduced[k] ? 0 : idx[k];
            size_t o = or_offset(rank, kept, oidx);
            size_t i = or_offset(rank, shape, idx);
            if (ax_dtype_is_float(dt)) {
                long double v = or_get_f(dt, x, i);
                fs[o] += v;
                mag[o] += fabsl(v);
            } else {
                us[o] += or_get_u(dt, x, i);
            }
        } while (or_next(rank, shape, idx));
    }
    *fs_out = fs;
    *us_out = us;
    *mag_out = mag;
    return terms;
}

void or_reduce(axial_dtype dt, const void *x, void *y, size_t rank, const int64_t *shape,
               const int64_t *axes, size_t naxes, bool keep_dims, bool empty_all,
               size_t *out_rank, int64_t *out_shape) {
    long double *fs = NULL, *mag = NULL;
    uint64_t *us = NULL;
    size_t ocount = 0;
    or_reduce_core(dt, x, y ? &fs : NULL, &us, &mag, rank, shape, axes, naxes, keep_dims,
                   empty_all, out_rank, out_shape, &ocount);
    if (!y) return;
    for (size_t o = 0; o < ocount; o++) {
        if (ax_dtype_is_float(dt)) or_set_f(dt, y, o, fs[o]);
        else or_set_u(dt, y, o, us[o]);
    }
    free(fs);
    free(us);
    free(mag);
}

size_t or_reduce_exact(axial_dtype dt, const void *x, long double *sum, long double *mag,
                       size_t rank, const int64_t *shape, const int64_t *axes, size_t naxes,
                       bool keep_dims, bool empty_all, size_t *out_rank, int64_t *out_shape) {
    long double *fs = NULL, *m = NULL;
    uint64_t *us = NULL;
    size_t ocount = 0;
    size_t terms = or_reduce_core(dt, x, &fs, &us, &m, rank, shape, axes, naxes, keep_dims,
                                  empty_all, out_rank, out_shape, &ocount);
    memcpy(sum, fs, ocount * sizeof *sum);
    memcpy(mag, m, ocount * sizeof *mag);
    free(fs);
    free(us);
    free(m);
    return terms;
}

/* s mod d in [0, d), for any int64 s and d > 0 */
static int64_t or_mod(int64_t s, int64_t d) {
    int64_t m = s % d;
    return m < 0 ? m + d : m;
}

void or_roll(axial_dtype dt, const void *x, void *y, size_t rank, const int64_t *shape,
             const int64_t *shift, size_t nshift, const int64_t *axes, size_t naxes) {
    size_t es = ax_dtype_size(dt);
    size_t count = or_count(rank, shape);
    if (count == 0) return;
    if (naxes == 0) { /* flattened */
        int64_t s = or_mod(shift[0], (int64_t)count);
        for (size_t i = 0; i < count; i++)
            memcpy((char *)y + es * (((size_t)s + i) % count), (const char *)x + es * i, es);
        return;
    }
    int64_t eff[AXIAL_MAX_RANK] = {0};
    for (size_t a = 0; a < naxes; a++) {
        size_t k = (size_t)(axes[a] < 0 ? axes[a] + (int64_t)rank : axes[a]);
        int64_t s = or_mod(nshift == 1 ? shift[0] : shift[a], shape[k]);
        eff[k] = (eff[k] + s) % shape[k];
    }
    int64_t idx[AXIAL_MAX_RANK] = {0}, dst[AXIAL_MAX_RANK];
    do {
        for (size_t k = 0; k < rank; k++) dst[k] = (idx[k] + eff[k]) % shape[k];
        memcpy((char *)y + es * or_offset(rank, shape, dst),
               (const char *)x + es * or_offset(rank, shape, idx), es);
    } while (or_next(rank, shape, idx));
}

/* ---- the log semiring --------------------------------------------------------- */

long double or_ulp(axial_dtype dt, long double v) {
    const int p = ax_dtype_fmt(dt).p, emin = ax_dtype_fmt(dt).emin;
    long double a = fabsl(v);
    int e = a == 0 || isinf(a) || isnan(a) ? emin : ilogbl(a);
    return ldexpl(1.0L, (e < emin ? emin : e) - p + 1);
}

/* Below this a prefix's sum of expl(x - max) has lost terms to underflow. */
#define OR_LSE_TINY 0x1p-16000L

/* Inclusive prefixes of v[0..len) (scan order) into out, for the finite
 * part: v holds finite values or -inf only (specials decided by the caller).
 * Max of the segment first, then the prefix sums of expl(v - max); the
 * initial prefixes whose sum is below OR_LSE_TINY are done again on their
 * own segment (its max is below this one's by more than ~11000). */
static void or_lse_prefix(const long double *v, long double *out, size_t len) {
    while (len > 0) {
        long double mx = -INFINITY;
        for (size_t j = 0; j < len; j++)
            if (v[j] > mx) mx = v[j];
        if (mx == -INFINITY) { /* no finite term in any of these prefixes */
            for (size_t j = 0; j < len; j++) out[j] = -INFINITY;
            return;
        }
        long double s = 0;
        size_t redo = 0; /* prefixes [0, redo) are redone on their own */
        for (size_t j = 0; j < len; j++) {
            if (v[j] != -INFINITY) s += expl(v[j] - mx);
            if (s < OR_LSE_TINY) redo = j + 1;
            else out[j] = mx + logl(s);
        }
        len = redo;
    }
}

void or_logcumsumexp_exact(axial_dtype dt, const void *x, long double *val, size_t *terms,
                           size_t rank, const int64_t *shape, size_t axis, bool exclusive,
                           bool reverse) {
    size_t outer, len, inner;
    if (or_count(rank, shape) == 0) return;
    or_lines(rank, shape, axis, &outer, &len, &inner);
    long double *v = malloc(len * sizeof *v), *inc = malloc(len * sizeof *inc);
    if (!v || !inc) abort();
    for (size_t o = 0; o < outer; o++)
        for (size_t i = 0; i < inner; i++) {
            /* the line in scan order; the first NaN and +inf steps */
            size_t first_nan = len, first_inf = len;
            for (size_t s = 0; s < len; s++) {
                size_t j = reverse ? len - 1 - s : s;
                long double a = or_get_f(dt, x, (o * len + j) * inner + i);
                if (isnan(a) && first_nan == len) first_nan = s;
                if (a == INFINITY && first_inf == len) first_inf = s;
                v[s] = isfinite(a) ? a : -INFINITY; /* specials apart */
            }
            or_lse_prefix(v, inc, len);
            for (size_t s = 0; s < len; s++) {
                if (s >= first_nan) inc[s] = NAN;
                else if (s >= first_inf) inc[s] = INFINITY;
            }
            for (size_t s = 0; s < len; s++) {
                size_t j = reverse ? len - 1 - s : s, off = (o * len + j) * inner + i;
                if (exclusive) val[off] = s ? inc[s - 1] : -INFINITY;
                else val[off] = inc[s];
                if (terms) terms[off] = exclusive ? s : s + 1;
            }
        }
    free(v);
    free(inc);
}

size_t or_reduce_lse_exact(axial_dtype dt, const void *x, long double *val, size_t rank,
                           const int64_t *shape, const int64_t *axes, size_t naxes,
                           bool keep_dims, bool empty_all, size_t *out_rank, int64_t *out_shape) {
    bool reduced[AXIAL_MAX_RANK] = {false};
    for (size_t a = 0; a < naxes; a++)
        reduced[axes[a] < 0 ? axes[a] + (int64_t)rank : axes[a]] = true;
    if (naxes == 0 && empty_all)
        for (size_t k = 0; k < rank; k++) reduced[k] = true;
    int64_t kept[AXIAL_MAX_RANK];
    size_t r = 0, terms = 1;
    for (size_t k = 0; k < rank; k++) {
        kept[k] = reduced[k] ? 1 : shape[k];
        if (!reduced[k]) out_shape[r++] = shape[k];
        else if (keep_dims) out_shape[r++] = 1;
        if (reduced[k]) terms *= (size_t)shape[k];
    }
    *out_rank = r;
    size_t ocount = or_count(rank, kept);
    /* per output: max of the finite terms, NaN seen, +inf seen, then the sum */
    long double *mx = malloc((ocount + 1) * sizeof *mx), *sum = malloc((ocount + 1) * sizeof *sum);
    unsigned char *nan = calloc(ocount + 1, 1), *pinf = calloc(ocount + 1, 1);
    if (!mx || !sum || !nan || !pinf) abort();
    for (size_t o = 0; o < ocount; o++) mx[o] = -INFINITY, sum[o] = 0;
    int64_t idx[AXIAL_MAX_RANK] = {0}, oidx[AXIAL_MAX_RANK];
    for (int pass = 0; pass < 2 && or_count(rank, shape) > 0; pass++) {
        memset(idx, 0, sizeof idx);
        do {
            for (size_t k = 0; k < rank; k++) oidx[k] = reduced[k] ? 0 : idx[k];
            size_t o = or_offset(rank, kept, oidx);
            long double a = or_get_f(dt, x, or_offset(rank, shape, idx));
            if (pass == 0) {
                if (isnan(a)) nan[o] = 1;
                else if (a == INFINITY) pinf[o] = 1;
                else if (a > mx[o]) mx[o] = a;
            } else if (isfinite(a)) {
                sum[o] += expl(a - mx[o]);
            }
        } while (or_next(rank, shape, idx));
    }
    for (size_t o = 0; o < ocount; o++)
        val[o] = nan[o] ? NAN : pinf[o] ? INFINITY : mx[o] == -INFINITY ? -INFINITY
                                                                       : mx[o] + logl(sum[o]);
    free(mx);
    free(sum);
    free(nan);
    free(pinf);
    return terms;
}
