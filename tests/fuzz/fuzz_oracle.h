/* SPDX-License-Identifier: MIT */
/*
 * fuzz_oracle.h: the differential fuzzer's oracle (fuzz_diff.c says how it is
 * used).  It shares no code with the library, nor with tests/call.c: the
 * element formats, the argument checks, the indexing over shapes and axes,
 * Roll, and the sums are written here from docs/API.md alone, in plain C11
 * and long double (x87's 64-bit significand on x86).  It does not include
 * axial.h: dtypes, flags and statuses are the documented ABI values, which
 * fuzz_diff.c checks against the header at compile time.
 *
 *   - integer sums (every integer dtype): exact, in uint64_t, wrapped to the
 *     dtype's width (docs/API.md, section 7: "own width, wrapping");
 *   - Roll (every dtype, BOOL included): the bytes moved, shifts taken
 *     modulo the dimension (negative ones too), repeated axes adding;
 *   - float sums: per output, S = the sum of its terms in long double from
 *     -0.0 (+0.0 for an empty sum), M = the sum of |x| over its finite terms,
 *     the largest finite |x| and the number of terms;
 *   - log-space sums: per output, y* = m + logl(sum expl(x - m)) with m the
 *     largest term (kept as a running maximum, the sum rescaled when it
 *     grows), NaN / +inf / -inf by section 15's rules.
 */
#ifndef AX_FUZZ_ORACLE_H
#define AX_FUZZ_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The ABI values of docs/API.md (axial_dtype, axial_status, the flags). */
enum { FO_F32 = 1, FO_F64, FO_F16, FO_BF16, FO_I8, FO_U8, FO_I16, FO_U16, FO_I32, FO_U32,
       FO_I64, FO_U64, FO_BOOL };
enum { FO_OK, FO_E_NULL, FO_E_DTYPE, FO_E_RANK, FO_E_SHAPE, FO_E_AXIS, FO_E_ARGS, FO_E_OVERLAP };
#define FO_CUMSUM_EXCLUSIVE 1u
#define FO_CUMSUM_REVERSE 2u
#define FO_REDUCE_KEEP_DIMS 1u
#define FO_REDUCE_EMPTY_AXES_ALL 2u
#define FO_MAX_RANK 16

typedef enum { FO_CUMSUM, FO_REDUCE, FO_ROLL, FO_LCSE, FO_RLSE } fo_op;

/* One call, its arguments as the library gets them (any pointer may be NULL). */
typedef struct {
    fo_op op;
    int dtype;
    size_t rank;
    const int64_t *shape;
    int64_t axis;   /* CumSum, LogCumSumExp */
    unsigned flags; /* all but Roll */
    const int64_t *axes;
    size_t naxes;
    const int64_t *shift; /* Roll */
    size_t nshift;
} fo_call;

/* One output of a float or log-space sum. */
typedef struct {
    long double v;      /* the sum S, or y* */
    long double mag;    /* M: sum of |x| over the finite terms (float sums) */
    long double maxabs; /* the largest finite |x| (float sums) */
    size_t n;           /* its number of terms */
} fo_out;

typedef struct {
    int status;                  /* FO_OK, or the status the arguments call for */
    const char *why;             /* what the check found (a static string) */
    size_t count_in, count_out;  /* elements of x and y (status FO_OK) */
    unsigned char *bytes;        /* integer sums and Roll: the output's bytes */
    fo_out *f;                   /* float and log-space sums: count_out outputs */
} fo_result;

/* Checks the arguments in docs/ERRORS.md's order (dtype, rank, shape, ...),
 * all but the tensors' pointers and their overlap, and with x not NULL and
 * status FO_OK computes the outputs from x (count_in elements).  r is
 * cleared first; fo_free releases it. */
int fo_run(const fo_call *c, const void *x, fo_result *r);
void fo_free(fo_result *r);

/* ---- element formats ---- */
typedef struct {
    int ebits, mbits; /* exponent and fraction bits */
} fo_fmt;

bool fo_dtype_valid(int dt);
bool fo_is_float(int dt);
size_t fo_size(int dt); /* bytes per element, 0 for an invalid dtype */
fo_fmt fo_fmt_of(int dt); /* F32, F64, F16, BF16 */

/* Bits <-> value, exactly / rounded to nearest even, with subnormals, +-0,
 * +-inf and NaN (a NaN encodes as a quiet NaN). */
long double fo_decode(fo_fmt f, uint64_t bits);
uint64_t fo_encode(fo_fmt f, long double v);
/* Element i of a little-endian tensor of es-byte elements, as bits / value. */
uint64_t fo_bits(size_t es, const void *p, size_t i);
long double fo_value(int dt, const void *p, size_t i);
/* ulp of |v| in the format (exponent clamped to the format's normal range),
 * and the overflow threshold (the midpoint above the largest finite value). */
long double fo_ulp(fo_fmt f, long double v);
long double fo_overflow_threshold(fo_fmt f);

float fo_f16_to_float(uint16_t h);
uint16_t fo_float_to_f16(float v);
float fo_bf16_to_float(uint16_t h);
uint16_t fo_float_to_bf16(float v);

/* Checks the conversions above (every f16 and bf16 value and midpoint, f32
 * and f64 against the compiler's casts) and fo_run on the examples of
 * docs/API.md (the flags, axes, shifts, wrapping, signed zeros, the
 * log-space scan): NULL, or what failed. */
const char *fo_selfcheck(void);

#endif
