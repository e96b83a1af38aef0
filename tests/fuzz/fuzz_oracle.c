/* SPDX-License-Identifier: MIT */
/* fuzz_oracle.c: see fuzz_oracle.h. */
#include "fuzz_oracle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- element formats ------------------------------------------------------- */

bool fo_dtype_valid(int dt) { return dt >= FO_F32 && dt <= FO_BOOL; }
bool fo_is_float(int dt) { return dt >= FO_F32 && dt <= FO_BF16; }

size_t fo_size(int dt) {
    switch (dt) {
    case FO_F64: case FO_I64: case FO_U64: return 8;
    case FO_F32: case FO_I32: case FO_U32: return 4;
    case FO_F16: case FO_BF16: case FO_I16: case FO_U16: return 2;
    case FO_I8: case FO_U8: case FO_BOOL: return 1;
    default: return 0;
    }
}

fo_fmt fo_fmt_of(int dt) {
    switch (dt) {
    case FO_F64: return (fo_fmt){11, 52};
    case FO_F16: return (fo_fmt){5, 10};
    case FO_BF16: return (fo_fmt){8, 7};
    default: return (fo_fmt){8, 23};
    }
}

static int fmt_bias(fo_fmt f) { return (1 << (f.ebits - 1)) - 1; }

long double fo_decode(fo_fmt f, uint64_t b) {
    const int bias = fmt_bias(f);
    const uint64_t mmask = ((uint64_t)1 << f.mbits) - 1, emask = ((uint64_t)1 << f.ebits) - 1;
    const uint64_t e = (b >> f.mbits) & emask, m = b & mmask;
    long double v;
    if (e == emask) v = m ? (long double)NAN : (long double)INFINITY;
    else if (e == 0) v = ldexpl((long double)m, 1 - bias - f.mbits); /* subnormal, +-0 */
    else v = ldexpl((long double)(m | ((uint64_t)1 << f.mbits)), (int)e - bias - f.mbits);
    return (b >> (f.ebits + f.mbits)) & 1 ? -v : v;
}

uint64_t fo_encode(fo_fmt f, long double v) {
    const int bias = fmt_bias(f), emin = 1 - bias, emax = bias;
    const uint64_t mmask = ((uint64_t)1 << f.mbits) - 1, emask = ((uint64_t)1 << f.ebits) - 1;
    const uint64_t sign = (uint64_t)(signbit(v) != 0) << (f.ebits + f.mbits);
    const uint64_t inf = sign | (emask << f.mbits);
    if (isnan(v)) return inf | ((uint64_t)1 << (f.mbits - 1));
    const long double a = fabsl(v);
    if (isinf(a)) return inf;
    if (a == 0) return sign;
    int e = ilogbl(a);
    if (e > emax) return inf;
    /* a / 2^q is below 2^(mbits + 1): its integer part is the significand
     * (the subnormals' quantum is that of emin); scaling by 2^-q is exact */
    const int q = (e < emin ? emin : e) - f.mbits;
    const long double t = ldexpl(a, -q);
    uint64_t n = (uint64_t)t;
    const long double frac = t - (long double)n; /* exact: the bits below the point */
    if (frac > 0.5L || (frac == 0.5L && (n & 1))) n++;
    if (e < emin) return sign | n; /* n == 2^mbits is the smallest normal's encoding */
    if (n >> (f.mbits + 1)) {     /* rounded up to the next binade */
        n >>= 1;
        e++;
    }
    if (e > emax) return inf;
    return sign | ((uint64_t)(e + bias) << f.mbits) | (n & mmask);
}

uint64_t fo_bits(size_t es, const void *p, size_t i) {
    const unsigned char *b = (const unsigned char *)p + es * i;
    uint64_t v = 0;
    for (size_t k = 0; k < es; k++) v |= (uint64_t)b[k] << (8 * k);
    return v;
}

static void put_le(size_t es, void *p, size_t i, uint64_t v) {
    unsigned char *b = (unsigned char *)p + es * i;
    for (size_t k = 0; k < es; k++) b[k] = (unsigned char)(v >> (8 * k));
}

long double fo_value(int dt, const void *p, size_t i) {
    return fo_decode(fo_fmt_of(dt), fo_bits(fo_size(dt), p, i));
}

long double fo_ulp(fo_fmt f, long double v) {
    const int bias = fmt_bias(f), emin = 1 - bias, emax = bias;
    const long double a = fabsl(v);
    int e = a == 0 || isnan(a) ? emin : isinf(a) ? emax : ilogbl(a);
    if (e < emin) e = emin;
    if (e > emax) e = emax;
    return ldexpl(1.0L, e - f.mbits);
}

long double fo_overflow_threshold(fo_fmt f) {
    return ldexpl(2.0L - ldexpl(1.0L, -(f.mbits + 1)), fmt_bias(f));
}

static const fo_fmt fmt_f16 = {5, 10}, fmt_bf16 = {8, 7}, fmt_f32 = {8, 23}, fmt_f64 = {11, 52};

float fo_f16_to_float(uint16_t h) { return (float)fo_decode(fmt_f16, h); }
uint16_t fo_float_to_f16(float v) { return (uint16_t)fo_encode(fmt_f16, v); }
float fo_bf16_to_float(uint16_t h) { return (float)fo_decode(fmt_bf16, h); }
uint16_t fo_float_to_bf16(float v) { return (uint16_t)fo_encode(fmt_bf16, v); }

static uint32_t float_bits(float v) {
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}
static uint64_t double_bits(double v) {
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* Every value of a 16-bit format round-trips; every midpoint between two
 * neighbours rounds to the even one (the one past the largest: to inf). */
static const char *check16(fo_fmt f, bool f16) {
    for (uint32_t h = 0; h < 0x10000; h++) {
        const long double v = fo_decode(f, h);
        const float fv = f16 ? fo_f16_to_float((uint16_t)h) : fo_bf16_to_float((uint16_t)h);
        if (isnan(v) != isnan(fv) || (!isnan(v) && (long double)fv != v))
            return "f16/bf16 to float differs from the decoded value";
        if (!f16) { /* bf16 is the top half of an f32 */
            const uint32_t want = h << 16;
            if (!isnan(fv) && float_bits(fv) != want) return "bf16 to float is not bits << 16";
        }
        const uint16_t back = f16 ? fo_float_to_f16(fv) : fo_float_to_bf16(fv);
        if (isnan(v) ? !isnan(fo_decode(f, back)) : back != h)
            return "float to f16/bf16 does not round-trip";
        const uint32_t mag = h & 0x7FFF, top = (((uint32_t)1 << f.ebits) - 1) << f.mbits;
        if (mag < top) { /* finite: the midpoint above it */
            const long double mid = (v + fo_decode(f, h + 1)) / 2; /* exact in long double */
            const uint64_t want = (h & 1) ? h + 1 : h;
            if (fo_encode(f, mid) != want) return "a midpoint does not round to even";
            const long double above = nextafterl(mid, (h & 0x8000) ? -INFINITY : INFINITY);
            if (fo_encode(f, above) != (uint64_t)h + 1) return "above a midpoint does not round up";
        }
    }
    return NULL;
}

/* The examples of docs/API.md (sections 4 to 7 and 15), on the oracle. */
typedef struct {
    fo_op op;
    int dtype;
    size_t rank;
    int64_t shape[2], axis;
    unsigned flags;
    size_t naxes;
    int64_t axes[2];
    size_t nshift;
    int64_t shift[2];
    int64_t x[6], y[6];
} doc_case;

static const doc_case doc_cases[] = {
    {FO_CUMSUM, FO_I32, 1, {5}, 0, 0, 0, {0}, 0, {0}, {1, 2, 3, 4, 5}, {1, 3, 6, 10, 15}},
    {FO_CUMSUM, FO_I32, 1, {5}, 0, 1, 0, {0}, 0, {0}, {1, 2, 3, 4, 5}, {0, 1, 3, 6, 10}},
    {FO_CUMSUM, FO_I32, 1, {5}, 0, 2, 0, {0}, 0, {0}, {1, 2, 3, 4, 5}, {15, 14, 12, 9, 5}},
    {FO_CUMSUM, FO_I32, 1, {5}, -1, 3, 0, {0}, 0, {0}, {1, 2, 3, 4, 5}, {14, 12, 9, 5, 0}},
    {FO_CUMSUM, FO_I32, 2, {2, 3}, -2, 0, 0, {0}, 0, {0}, {1, 2, 3, 4, 5, 6}, {1, 2, 3, 5, 7, 9}},
    {FO_CUMSUM, FO_I32, 2, {2, 3}, 1, 0, 0, {0}, 0, {0}, {1, 2, 3, 4, 5, 6}, {1, 3, 6, 4, 9, 15}},
    {FO_CUMSUM, FO_I8, 1, {2}, 0, 0, 0, {0}, 0, {0}, {100, 100}, {100, -56}},
    {FO_CUMSUM, FO_U8, 1, {2}, 0, 0, 0, {0}, 0, {0}, {200, 100}, {200, 44}},
    {FO_REDUCE, FO_I32, 2, {2, 3}, 0, 0, 1, {-1}, 0, {0}, {1, 2, 3, 4, 5, 6}, {6, 15}},
    {FO_REDUCE, FO_I32, 2, {2, 3}, 0, 1, 2, {1, -1}, 0, {0}, {1, 2, 3, 4, 5, 6}, {6, 15}},
    {FO_REDUCE, FO_I32, 2, {2, 3}, 0, 0, 1, {0}, 0, {0}, {1, 2, 3, 4, 5, 6}, {5, 7, 9}},
    {FO_REDUCE, FO_I32, 2, {2, 3}, 0, 0, 2, {0, 1}, 0, {0}, {1, 2, 3, 4, 5, 6}, {21}},
    {FO_REDUCE, FO_I32, 2, {2, 3}, 0, 0, 0, {0}, 0, {0}, {1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 5, 6}},
    {FO_REDUCE, FO_I32, 2, {2, 3}, 0, 2, 0, {0}, 0, {0}, {1, 2, 3, 4, 5, 6}, {21}},
    {FO_REDUCE, FO_I32, 2, {2, 0}, 0, 0, 1, {1}, 0, {0}, {0}, {0, 0}},
    {FO_ROLL, FO_I32, 1, {5}, 0, 0, 1, {0}, 1, {2}, {1, 2, 3, 4, 5}, {4, 5, 1, 2, 3}},
    {FO_ROLL, FO_I32, 1, {5}, 0, 0, 0, {0}, 1, {-1}, {1, 2, 3, 4, 5}, {2, 3, 4, 5, 1}},
    {FO_ROLL, FO_I32, 2, {2, 3}, 0, 0, 1, {1}, 1, {1}, {1, 2, 3, 4, 5, 6}, {3, 1, 2, 6, 4, 5}},
    {FO_ROLL, FO_I32, 2, {2, 3}, 0, 0, 2, {0, 1}, 1, {1}, {1, 2, 3, 4, 5, 6}, {6, 4, 5, 3, 1, 2}},
    {FO_ROLL, FO_I32, 2, {2, 3}, 0, 0, 0, {0}, 1, {1}, {1, 2, 3, 4, 5, 6}, {6, 1, 2, 3, 4, 5}},
    {FO_ROLL, FO_I32, 2, {2, 3}, 0, 0, 2, {1, 1}, 2, {1, 1}, {1, 2, 3, 4, 5, 6}, {2, 3, 1, 5, 6, 4}},
    {FO_ROLL, FO_I32, 2, {2, 3}, 0, 0, 1, {-1}, 1, {INT64_MIN}, {1, 2, 3, 4, 5, 6}, {3, 1, 2, 6, 4, 5}},
};

static const char *check_docs(void) {
    for (size_t t = 0; t < sizeof doc_cases / sizeof doc_cases[0]; t++) {
        const doc_case *d = &doc_cases[t];
        const fo_call c = {d->op,   d->dtype, d->rank,  d->shape,  d->axis,
                           d->flags, d->axes,  d->naxes, d->shift, d->nshift};
        const size_t es = fo_size(d->dtype);
        unsigned char x[6 * 8];
        for (size_t i = 0; i < 6; i++) put_le(es, x, i, (uint64_t)d->x[i]);
        fo_result r;
        if (fo_run(&c, x, &r) != FO_OK) return "a docs/API.md example is refused";
        const uint64_t mask = es == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * es)) - 1;
        for (size_t i = 0; i < r.count_out; i++)
            if (fo_bits(es, r.bytes, i) != ((uint64_t)d->y[i] & mask)) {
                fo_free(&r);
                return "a docs/API.md example of CumSum, ReduceSum or Roll gives another result";
            }
        fo_free(&r);
    }
    /* LogCumSumExp of [0, 0, 0] under each flag; signed zeros of the sums */
    const long double l2 = logl(2), l3 = logl(3), ninf = -INFINITY;
    const long double want[4][3] = {{0, l2, l3}, {ninf, 0, l2}, {l3, l2, 0}, {l2, 0, ninf}};
    const int64_t n3 = 3, n2 = 2, n0[2] = {2, 0}, ax1 = 1;
    const unsigned char zeros[8 * 3] = {0};
    for (unsigned fl = 0; fl < 4; fl++) {
        const fo_call c = {FO_LCSE, FO_F64, 1, &n3, 0, fl, NULL, 0, NULL, 0};
        fo_result r;
        fo_run(&c, zeros, &r);
        for (size_t i = 0; i < 3; i++)
            if (!(r.f[i].v == want[fl][i] || fabsl(r.f[i].v - want[fl][i]) < 1e-18L)) {
                fo_free(&r);
                return "the docs/API.md example of LogCumSumExp gives another result";
            }
        fo_free(&r);
    }
    const uint16_t negz[2] = {0x8000, 0x8000}; /* f16 -0.0, -0.0 */
    const fo_call sum2 = {FO_REDUCE, FO_F16, 1, &n2, 0, FO_REDUCE_EMPTY_AXES_ALL, NULL, 0, NULL, 0};
    const fo_call scan2 = {FO_CUMSUM, FO_F16, 1, &n2, 0, FO_CUMSUM_EXCLUSIVE, NULL, 0, NULL, 0};
    const fo_call empty = {FO_REDUCE, FO_F16, 2, n0, 0, 0, &ax1, 1, NULL, 0};
    fo_result a, b, e;
    fo_run(&sum2, negz, &a);
    fo_run(&scan2, negz, &b);
    fo_run(&empty, negz, &e);
    const bool ok = signbit(a.f[0].v) && a.f[0].v == 0 && !signbit(b.f[0].v) &&
                    b.f[0].v == 0 && signbit(b.f[1].v) && e.count_out == 2 &&
                    !signbit(e.f[1].v) && e.f[1].v == 0 && e.f[1].n == 0;
    fo_free(&a);
    fo_free(&b);
    fo_free(&e);
    return ok ? NULL : "the signed zeros of docs/API.md section 7";
}

const char *fo_selfcheck(void) {
    const char *why = check16(fmt_f16, true);
    if (!why) why = check16(fmt_bf16, false);
    if (!why) why = check_docs();
    if (why) return why;
    /* f32 and f64 against the compiler's conversions from long double */
    uint64_t r = 0x9e3779b97f4a7c15ull;
    for (int k = 0; k < 200000; k++) {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        const int e = (int)(r >> 52) % 2300 - 1150; /* across both formats' ranges */
        long double v = ldexpl((long double)(r | 1), e - 63);
        if (r & 0x800) v = -v;
        if (fo_encode(fmt_f32, v) != float_bits((float)v)) return "f32 rounding differs from (float)";
        if (fo_encode(fmt_f64, v) != double_bits((double)v)) return "f64 rounding differs from (double)";
        const uint32_t b32 = (uint32_t)r;
        float f32;
        memcpy(&f32, &b32, sizeof f32);
        const long double d32 = fo_decode(fmt_f32, b32);
        if (isnan(f32) ? !isnan(d32) : (long double)f32 != d32) return "f32 decoding";
        double f64;
        memcpy(&f64, &r, sizeof f64);
        const long double d64 = fo_decode(fmt_f64, r);
        if (isnan(f64) ? !isnan(d64) : (long double)f64 != d64) return "f64 decoding";
    }
    return NULL;
}

/* ---- the arguments ------------------------------------------------------------ */

static int refuse(fo_result *r, int st, const char *why) {
    r->status = st;
    r->why = why;
    return st;
}

/* NULL shape, negative dimensions, the byte size (non-zero dimensions only). */
static int check_shape(const fo_call *c, size_t es, fo_result *r) {
    if (c->rank > 0 && !c->shape) return refuse(r, FO_E_NULL, "shape is NULL");
    uint64_t bytes = es, count = 1;
    for (size_t k = 0; k < c->rank; k++) {
        const int64_t d = c->shape[k];
        if (d < 0) return refuse(r, FO_E_SHAPE, "a negative dimension");
        if (d == 0) {
            count = 0;
            continue;
        }
        if (bytes > (uint64_t)PTRDIFF_MAX / (uint64_t)d)
            return refuse(r, FO_E_SHAPE, "the byte size exceeds PTRDIFF_MAX");
        bytes *= (uint64_t)d;
        count *= (uint64_t)d;
    }
    r->count_in = (size_t)count;
    return FO_OK;
}

static bool axis_ok(int64_t a, size_t rank) {
    return rank > 0 && a >= -(int64_t)rank && a < (int64_t)rank;
}
static size_t axis_norm(int64_t a, size_t rank) {
    return (size_t)(a < 0 ? a + (int64_t)rank : a);
}

static int check(const fo_call *c, fo_result *r) {
    const int dt = c->dtype;
    if (!fo_dtype_valid(dt)) return refuse(r, FO_E_DTYPE, "not a dtype");
    if (c->op != FO_ROLL && dt == FO_BOOL) return refuse(r, FO_E_DTYPE, "BOOL cannot be summed");
    if ((c->op == FO_LCSE || c->op == FO_RLSE) && !fo_is_float(dt))
        return refuse(r, FO_E_DTYPE, "the log-space ops take the float dtypes only");
    if (c->rank > FO_MAX_RANK) return refuse(r, FO_E_RANK, "rank above 16");
    switch (c->op) {
    case FO_CUMSUM:
    case FO_LCSE:
        if (c->rank == 0) return refuse(r, FO_E_RANK, "a scan of rank 0");
        if (check_shape(c, fo_size(dt), r)) return r->status;
        if (!axis_ok(c->axis, c->rank)) return refuse(r, FO_E_AXIS, "axis out of range");
        if (c->flags & ~(FO_CUMSUM_EXCLUSIVE | FO_CUMSUM_REVERSE))
            return refuse(r, FO_E_ARGS, "unknown flag bits");
        r->count_out = r->count_in;
        return FO_OK;
    case FO_REDUCE:
    case FO_RLSE: {
        if (check_shape(c, fo_size(dt), r)) return r->status;
        if (c->flags & ~(FO_REDUCE_KEEP_DIMS | FO_REDUCE_EMPTY_AXES_ALL))
            return refuse(r, FO_E_ARGS, "unknown flag bits");
        if (c->naxes > 0 && !c->axes) return refuse(r, FO_E_NULL, "axes is NULL");
        for (size_t a = 0; a < c->naxes; a++)
            if (!axis_ok(c->axes[a], c->rank)) return refuse(r, FO_E_AXIS, "axis out of range");
        bool red[FO_MAX_RANK] = {false};
        for (size_t a = 0; a < c->naxes; a++) red[axis_norm(c->axes[a], c->rank)] = true;
        uint64_t out = 1;
        for (size_t k = 0; k < c->rank; k++)
            if (!(c->naxes ? red[k] : (c->flags & FO_REDUCE_EMPTY_AXES_ALL) != 0))
                out *= (uint64_t)c->shape[k]; /* <= the non-zero product: no overflow */
        r->count_out = (size_t)out;
        return FO_OK;
    }
    case FO_ROLL:
        if (c->rank == 0 && c->naxes > 0) return refuse(r, FO_E_RANK, "Roll of rank 0 with axes");
        if (check_shape(c, fo_size(dt), r)) return r->status;
        if (c->nshift == 0) return refuse(r, FO_E_ARGS, "nshift is 0");
        if (!c->shift) return refuse(r, FO_E_NULL, "shift is NULL");
        if (c->naxes > 0 && !c->axes) return refuse(r, FO_E_NULL, "axes is NULL");
        if (c->naxes > 0 ? c->nshift != 1 && c->nshift != c->naxes : c->nshift != 1)
            return refuse(r, FO_E_ARGS, "nshift does not match naxes");
        for (size_t a = 0; a < c->naxes; a++)
            if (!axis_ok(c->axes[a], c->rank)) return refuse(r, FO_E_AXIS, "axis out of range");
        r->count_out = r->count_in;
        return FO_OK;
    }
    return refuse(r, FO_E_ARGS, "unknown op");
}

/* ---- the sums ------------------------------------------------------------------ */

/* A float sum: from -0.0, in long double; an empty one is +0.0 at the end. */
static void fsum_add(fo_out *o, long double x) {
    o->v += x;
    o->n++;
    if (isfinite(x)) {
        const long double a = fabsl(x);
        o->mag += a;
        if (a > o->maxabs) o->maxabs = a;
    }
}
static fo_out fsum_start(void) { return (fo_out){-0.0L, 0, 0, 0}; }
static fo_out fsum_value(fo_out o) {
    if (o.n == 0) o.v = 0.0L;
    return o;
}

/* A log-space sum (section 15): NaN if any term is NaN, else +inf if any is,
 * else -inf for no finite term; else m + log(s), m the largest term so far
 * and s the sum of exp(x - m), rescaled when m grows. */
typedef struct {
    bool nan, pinf;
    long double m, s;
    size_t n;
} lse_state;

static void lse_add(lse_state *st, long double x) {
    st->n++;
    if (isnan(x)) st->nan = true;
    else if (isinf(x)) st->pinf |= x > 0;
    else if (st->s == 0) {
        st->m = x;
        st->s = 1;
    } else if (x > st->m) {
        st->s = st->s * expl(st->m - x) + 1;
        st->m = x;
    } else {
        st->s += expl(x - st->m);
    }
}

static fo_out lse_value(const lse_state *st) {
    long double v;
    if (st->nan) v = NAN;
    else if (st->pinf) v = INFINITY;
    else if (st->s == 0) v = -INFINITY;
    else v = st->m + logl(st->s);
    return (fo_out){v, 0, 0, st->n};
}

static int64_t mod_i64(int64_t s, int64_t d) { /* d > 0; exact for every s */
    const int64_t m = s % d;
    return m < 0 ? m + d : m;
}

static void compute(const fo_call *c, const void *x, fo_result *r) {
    const int dt = c->dtype;
    const size_t es = fo_size(dt), rank = c->rank, nin = r->count_in, nout = r->count_out;
    const bool fl = fo_is_float(dt), lse = c->op == FO_LCSE || c->op == FO_RLSE;
    size_t d[FO_MAX_RANK + 1];
    for (size_t k = 0; k < rank; k++) d[k] = (size_t)c->shape[k];
    if (c->op == FO_ROLL || !fl) {
        r->bytes = calloc(nout * es + 1, 1);
        if (!r->bytes) abort();
    } else {
        r->f = calloc(nout + 1, sizeof *r->f);
        if (!r->f) abort();
    }
    const uint64_t wrap = es == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * es)) - 1;

    if (c->op == FO_CUMSUM || c->op == FO_LCSE) {
        const size_t a = axis_norm(c->axis, rank);
        size_t outer = 1, inner = 1;
        for (size_t k = 0; k < a; k++) outer *= d[k];
        for (size_t k = a + 1; k < rank; k++) inner *= d[k];
        const size_t n = d[a];
        const bool excl = c->flags & FO_CUMSUM_EXCLUSIVE, rev = c->flags & FO_CUMSUM_REVERSE;
        if (nin == 0) return;
        for (size_t o = 0; o < outer; o++)
            for (size_t in = 0; in < inner; in++) {
                uint64_t acc = 0;
                fo_out fs = fsum_start();
                lse_state ls = {false, false, 0, 0, 0};
                for (size_t t = 0; t < n; t++) {
                    const size_t j = rev ? n - 1 - t : t, i = (o * n + j) * inner + in;
                    for (int pass = 0; pass < 2; pass++) {
                        /* exclusive: the output before the term; inclusive: after */
                        if (pass == (excl ? 0 : 1)) {
                            if (lse) r->f[i] = lse_value(&ls);
                            else if (fl) r->f[i] = fsum_value(fs);
                            else put_le(es, r->bytes, i, acc & wrap);
                        } else {
                            if (lse) lse_add(&ls, fo_value(dt, x, i));
                            else if (fl) fsum_add(&fs, fo_value(dt, x, i));
                            else acc += fo_bits(es, x, i);
                        }
                    }
                }
            }
        return;
    }

    if (c->op == FO_REDUCE || c->op == FO_RLSE) {
        bool red[FO_MAX_RANK] = {false};
        for (size_t a = 0; a < c->naxes; a++) red[axis_norm(c->axes[a], rank)] = true;
        if (c->naxes == 0)
            for (size_t k = 0; k < rank; k++) red[k] = (c->flags & FO_REDUCE_EMPTY_AXES_ALL) != 0;
        /* the output index of an input index: the kept dimensions, row-major
         * (KEEP_DIMS only adds dimensions of length 1) */
        size_t ostride[FO_MAX_RANK + 1], acc_stride = 1;
        for (size_t k = rank; k-- > 0;) {
            ostride[k] = red[k] ? 0 : acc_stride;
            if (!red[k]) acc_stride *= d[k];
        }
        uint64_t *iacc = NULL;
        lse_state *ls = NULL;
        if (lse) ls = calloc(nout + 1, sizeof *ls);
        else if (!fl) iacc = calloc(nout + 1, sizeof *iacc);
        if ((lse && !ls) || (!lse && !fl && !iacc)) abort();
        for (size_t o = 0; o < nout && fl && !lse; o++) r->f[o] = fsum_start();
        size_t idx[FO_MAX_RANK + 1] = {0};
        for (size_t i = 0; i < nin; i++) {
            size_t o = 0;
            for (size_t k = 0; k < rank; k++) o += idx[k] * ostride[k];
            if (lse) lse_add(&ls[o], fo_value(dt, x, i));
            else if (fl) fsum_add(&r->f[o], fo_value(dt, x, i));
            else iacc[o] += fo_bits(es, x, i);
            for (size_t k = rank; k-- > 0;) { /* the next index, row-major */
                if (++idx[k] < d[k]) break;
                idx[k] = 0;
            }
        }
        for (size_t o = 0; o < nout; o++) {
            if (lse) r->f[o] = lse_value(&ls[o]);
            else if (fl) r->f[o] = fsum_value(r->f[o]);
            else put_le(es, r->bytes, o, iacc[o] & wrap);
        }
        free(ls);
        free(iacc);
        return;
    }

    /* Roll: y[(i + s) mod d] = x[i] along each rolled axis, or along the
     * flattened tensor (naxes 0) */
    if (nin == 0) return;
    if (c->naxes == 0) {
        const size_t s = (size_t)mod_i64(c->shift[0], (int64_t)nin);
        for (size_t i = 0; i < nin; i++)
            memcpy(r->bytes + es * ((i + s) % nin), (const unsigned char *)x + es * i, es);
        return;
    }
    size_t sh[FO_MAX_RANK + 1] = {0}, stride[FO_MAX_RANK + 1], st = 1;
    for (size_t a = 0; a < c->naxes; a++) {
        const size_t k = axis_norm(c->axes[a], rank);
        const int64_t s = c->shift[c->nshift == 1 ? 0 : a];
        sh[k] = (sh[k] + (size_t)mod_i64(s, (int64_t)d[k])) % d[k]; /* repeated axes add */
    }
    for (size_t k = rank; k-- > 0;) {
        stride[k] = st;
        st *= d[k];
    }
    size_t idx[FO_MAX_RANK + 1] = {0};
    for (size_t i = 0; i < nin; i++) {
        size_t to = 0;
        for (size_t k = 0; k < rank; k++) to += (idx[k] + sh[k]) % d[k] * stride[k];
        memcpy(r->bytes + es * to, (const unsigned char *)x + es * i, es);
        for (size_t k = rank; k-- > 0;) {
            if (++idx[k] < d[k]) break;
            idx[k] = 0;
        }
    }
}

int fo_run(const fo_call *c, const void *x, fo_result *r) {
    memset(r, 0, sizeof *r);
    r->why = "";
    if (check(c, r) != FO_OK) return r->status;
    if (x) compute(c, x, r);
    return FO_OK;
}

void fo_free(fo_result *r) {
    free(r->bytes);
    free(r->f);
    r->bytes = NULL;
    r->f = NULL;
}
