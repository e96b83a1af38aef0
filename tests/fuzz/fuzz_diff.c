/* SPDX-License-Identifier: MIT */
/*
 * fuzz_diff.c: differential libFuzzer target.  Every input is decoded into
 * one call of axial_cumsum, axial_reduce_sum, axial_roll,
 * axial_reduce_sum_shape, axial_logcumsumexp or axial_reduce_logsumexp; the
 * call runs once per ISA of axial_isa_available() (axial_isa_select), and
 * every ISA's run, the scalar one's included, is checked against an oracle
 * that shares no code with the library (fuzz_oracle.c: its own element
 * formats, argument checks, indexing, Roll and sums in long double, written
 * from docs/API.md):
 *   - the status is the oracle's: its model of the arguments' checks in
 *     docs/ERRORS.md's order, then the buffers (NULL, then overlap); every
 *     ISA returns the same status (and an error leaves a non-empty message);
 *   - on success the integer sums, and every Roll of every dtype, are the
 *     oracle's bits ("oracle exact"); the float sums are within the accuracy
 *     bound of the oracle's sum ("oracle bound", below); the log-space ops
 *     within their own bound of the oracle's y* ("log-space bound", below),
 *     NaN and +-inf as the oracle's;
 *   - the float CumSum and ReduceSum of the SIMD ISAs have the same bits
 *     (one order on every SIMD ISA, docs/API.md section 7; NaN payloads
 *     aside) where a CPU runs more than one;
 *   - the log-space ops refuse every non-float dtype first (AXIAL_E_DTYPE
 *     whatever the other arguments), and ReduceLogSumExp fails as its shape
 *     query does;
 *   - on error nothing is written: the output bytes keep their poison (and an
 *     in-place or overlapping call leaves x as it was);
 *   - 64 canary bytes before and after x and y are unchanged; x is unchanged
 *     unless the call is in place; under ASan those bytes are also poisoned
 *     during the call, so a read outside the tensors is reported too;
 *   - the call with a partial overlap of x and y fails (AXIAL_E_OVERLAP);
 *   - axial_reduce_sum_shape's status and output shape equal an independent
 *     model here (the README's order of checks), and axial_reduce_sum fails
 *     with the same status when the shape query fails;
 *   - streams and shards (check_pieces): where a call succeeded, its tensor
 *     cut into 1..8 pieces along the axis (the scans: anywhere, fed to a stream,
 *     the state through its bytes once; the four sums: on the grid of
 *     axial_shard_grid, summarised, combined in order, scanned or finished)
 *     gives that ISA's one-call bytes exactly.
 * Any difference prints "MISMATCH on ISA ...: " and the check that fired
 * (oracle status, oracle exact, oracle bound, log-space bound, cross-ISA
 * bits, ...), the oracle's value, the result and the bound, then the case
 * (op, dtype, shape, axes, flags, shifts, buffers), and calls abort(), so
 * libFuzzer saves the input; `axial-fuzz-diff FILE` replays it.  At start
 * the oracle checks itself (fo_selfcheck: every f16 and bf16 value and
 * midpoint, f32 and f64 against the compiler's casts, the examples of
 * docs/API.md).
 * AX_FUZZ_INJECT=kind (output, canary, status, input, error-write, bound,
 * sum-bound, exact; see run_one) injects a fault into every ISA's run:
 * meson's 'fuzz self-test' tests check that each is caught.
 *
 * Build: clang, -fsanitize=fuzzer on this target, the library built with
 * -Db_sanitize=address,undefined, -fno-sanitize-recover=all and
 * -fsanitize=fuzzer-no-link (coverage of the kernels): scripts/fuzz.sh.
 *
 * ---- Input layout (missing bytes read as 0; make_corpus.py writes it) ----
 *   h[0]  op: % 6 -> cumsum, reduce_sum, roll, reduce_sum_shape, logcumsumexp,
 *         reduce_logsumexp (the log-space ops read their arguments as the sums do)
 *   h[1]  dtype: % 16 -> 1..13 as is; 0, 14 and 15 -> 0, 14, 99 (invalid)
 *   h[2]  rank: % 9 -> 0..8; h[2] >= 0xF8 -> 17 (above AXIAL_MAX_RANK)
 *   h[3]  flags: bits 0-1; bit 7 adds the unknown bit 1 << ((h[3] >> 2) & 31)
 *   h[4]  naxes: & 15 (reduce, roll)
 *   h[5]  nshift: h[5] >> 6 == 0/1: naxes (1 when naxes is 0), 2: 1, 3: h[5] & 15
 *   h[6]  bit 0 in place (y == x); bits 1-3 and 4-6: x and y offset in
 *         elements (0..7) from a 64-byte boundary; bit 7: special pointer h[7]
 *   h[7]  special (& 7): 1 x NULL, 2 y NULL, 3 shape NULL, 4 axes NULL,
 *         5 shift NULL, 6 y partially overlapping x (offset from h[7] >> 3),
 *         7 out_rank NULL (shape query) / out_shape NULL when h[7] & 8
 *   h[8]  data: & 15 picks the class distribution of generated elements
 *   h[9..11] mixed into the generator's seed
 *   then: rank dim bytes, the axis bytes (cumsum: 1; others: naxes), the
 *   shifts (roll: nshift, each 1 byte, or 0xC0.. + 8 raw little-endian
 *   bytes), then 2 bytes per element (class, value) while they last; the
 *   rest of the elements come from a generator seeded by the input.
 *
 * Dimension byte b: < 0x80: b & 31 (0..31); 0x80..0xBF: a table of sizes
 * around vector and block boundaries (32 .. 8192); 0xC0..0xEF: 1 + (b & 7);
 * 0xF0..0xFF: negative or huge values (errors, or fine next to a 0).  When
 * the call could succeed and the input or output would exceed AX_MAX_ELEMS
 * elements, the non-zero dimensions are clamped (left to right) so that
 * their product fits: huge dimensions beside a 0 stay (the size check must
 * still run on them).
 *
 * Axis byte b (rank r): < 0xE0: (b % 2r) - r, i.e. [-r, r-1]; else a table
 * of invalid or edge values (r, -r-1, INT64_MIN, INT64_MAX, ...).
 * Shift: selector < 0x80: selector - 64; 0x80..0xBF: a table of edge values
 * (INT64_MIN, INT64_MAX, +-2^62, ...); 0xC0..0xFF: 8 raw bytes.
 *
 * Float elements (class byte c, value byte v): c >> 4 picks ordinary values
 * (+-(1+f) 2^e, |e| <= 8, random significand), exact small multiples of
 * 2^-k, uniform [0, 1), +-0, NaN (quiet and signalling, random payload),
 * +-inf, subnormals, values within 2^8 of the format's largest, values with
 * any exponent, the smallest normals, and powers of two.
 *
 * ---- The float bound (the oracle's sum, every ISA) ----
 * For output k of a float sum of m terms the oracle gives S, their sum in
 * long double from -0.0 (+0.0 for an empty sum), M = sum |x| over its finite
 * terms, and the largest finite |x|.  Every ISA's result r must satisfy
 *     |r - S| <= 0.5 ulp_F(|S| + e + eo) + e + eo
 * with u = 2^-24 and the constants of docs/API.md, section 7: C = 2 on the
 * scalar ISA (sequential f64), on the SIMD ISAs C = 4 for ReduceSum (f32
 * trees of 8, joined in f64) and C = 7 for CumSum (blocks of 16 in f32, an
 * f64 carry rounded to f32); e = C u M for f32, 1.5 (C+1) u M for f16/bf16
 * (widened, summed, rounded once), (m + 8) 2^-53 M for f64 (c + n of the
 * docs, any tree of f64 additions).  The ulp is taken at |S| + e: the value
 * the kernel rounds may lie in the binade above S.  eo = m 2^-64 M is the
 * oracle's own error (m long double additions of 64-bit significands; exact
 * up to that for f32/f16/bf16 terms, and never overflowing: x87's exponent
 * reaches 2^16383), and M is inflated by as much.  M == 0 (every term +-0,
 * or an empty sum) asks for the oracle's bits: the sign of a zero sum is
 * defined (docs/API.md, signed zeros: only all -0.0 terms give -0.0, an
 * empty sum is +0.0).  NaN iff the oracle's S is NaN (a NaN term, or +inf and
 * -inf terms); an infinite S (infinite terms of one sign) asks for the same
 * infinity; for a finite S, r may be +-inf only with the sign of S and
 * |S| + bound >= T (T = the midpoint above the largest finite value: the
 * unrounded sum, within the bound of S, rounded to inf).
 *
 * ---- Overflowing partial sums (the choice) ----
 * Large magnitudes are generated on purpose (values within 2^8 of FLT_MAX,
 * DBL_MAX, 65504), and the cases where a kernel's partial sum overflows by
 * design are accepted explicitly, from the oracle's M and max |x|, not kept
 * out by the decoder:
 *   - f32 and bf16 on a SIMD ISA: ReduceSum adds up to 8 terms in an f32
 *     tree (docs/API.md, "Known limit"), which may overflow to inf where the
 *     exact sum is in range: accepted for an output with M >= 2^127 and
 *     max |x| >= 2^124 (necessary for 8 terms to reach 2^128).  CumSum adds
 *     up to 16 terms in an f32 block and rounds its f64 carry (the sum of the
 *     earlier blocks) to f32 before adding it: once the carry passes the f32
 *     range the output is inf, whatever later terms bring back, with terms
 *     of any size; accepted for an output with M >= 2^127.
 *   - f64, every op and ISA (the scalar ISA too): partial sums of any length
 *     may overflow in one order and not another; accepted where M >= 2^1023.
 * Such an output may be non-finite in any way (NaN too, from inf - inf); a
 * finite one still meets the bound, and a NaN oracle sum still asks for NaN.
 * The scalar ISA sums f32/f16/bf16 in f64, and f16 partials (f32, at most
 * 8704 terms below 65520) cannot overflow: no allowance for them.
 * AX_FUZZ_STATS=1 prints at exit how often the allowance was used.
 *
 * ---- The log-space bound ----
 * LogCumSumExp and ReduceLogSumExp (docs/API.md, section 15): the oracle's
 * y* is m + logl(sum expl(x - m)) in long double (m the running maximum),
 * NaN if a term is NaN, else +inf if one is, else -inf for no finite term.
 * Every ISA's result y must satisfy |y - y*| <= B(|y*| + eo) + eo, with
 * f32/f16/bf16 B(v) = ulp_T(v) + 4 u (v + ln n + 4), f64 B(v) = 2^-53 (4 v +
 * 4 ln n + 16 + n), n = the axis length for the scan (an output's error may
 * depend on the terms after it in its vector), the terms per output for the
 * reduction, and eo = 2^-62 (|y*| + n + 8) the oracle's own error.  NaN and
 * +-inf exactly as the oracle's (a finite maximum plus at most ln 8704 < 10
 * cannot reach the overflow threshold of any format: no overflow allowance).
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axial.h"
#include "../call.h" /* the cases as their calls, the dtype helpers */
#include "../harness.h" /* ax_in_list (the suite's list of required ISAs) */
#include "fuzz_oracle.h"

/* The oracle's ABI values are the header's */
_Static_assert(FO_F32 == AXIAL_F32 && FO_F64 == AXIAL_F64 && FO_F16 == AXIAL_F16 &&
                   FO_BF16 == AXIAL_BF16 && FO_I8 == AXIAL_I8 && FO_U8 == AXIAL_U8 &&
                   FO_I16 == AXIAL_I16 && FO_U16 == AXIAL_U16 && FO_I32 == AXIAL_I32 &&
                   FO_U32 == AXIAL_U32 && FO_I64 == AXIAL_I64 && FO_U64 == AXIAL_U64 &&
                   FO_BOOL == AXIAL_BOOL,
               "dtype values");
_Static_assert(FO_OK == AXIAL_OK && FO_E_NULL == AXIAL_E_NULL && FO_E_DTYPE == AXIAL_E_DTYPE &&
                   FO_E_RANK == AXIAL_E_RANK && FO_E_SHAPE == AXIAL_E_SHAPE &&
                   FO_E_AXIS == AXIAL_E_AXIS && FO_E_ARGS == AXIAL_E_ARGS &&
                   FO_E_OVERLAP == AXIAL_E_OVERLAP && FO_MAX_RANK == AXIAL_MAX_RANK,
               "status values");
_Static_assert(FO_CUMSUM_EXCLUSIVE == AXIAL_CUMSUM_EXCLUSIVE &&
                   FO_CUMSUM_REVERSE == AXIAL_CUMSUM_REVERSE &&
                   FO_REDUCE_KEEP_DIMS == AXIAL_REDUCE_KEEP_DIMS &&
                   FO_REDUCE_EMPTY_AXES_ALL == AXIAL_REDUCE_EMPTY_AXES_ALL,
               "flag values");

#define AX_MAX_ELEMS 8704 /* > 2 x 4100: a column block past 4096 columns */
#define AX_MAX_AXES 16
#define AX_CANARY 64
#define AX_CANARY_BYTE 0xA5
#define AX_NISA 4
#define AX_RANK_BAD 17

enum { OP_CUMSUM, OP_REDUCE, OP_ROLL, OP_SHAPE, OP_LCSE, OP_RLSE, OP_N };
static const char *const op_names[] = {"cumsum",          "reduce_sum",   "roll",
                                       "reduce_sum_shape", "logcumsumexp", "reduce_logsumexp"};
/* The public op of each (the shape query is no ax_op) */
static const ax_op call_op[OP_N] = {[OP_CUMSUM] = AX_OP_CUMSUM, [OP_REDUCE] = AX_OP_REDUCE,
                                    [OP_ROLL] = AX_OP_ROLL,     [OP_SHAPE] = AX_OP_N,
                                    [OP_LCSE] = AX_OP_LCSE,     [OP_RLSE] = AX_OP_RLSE};
static bool op_scan(int op) { return op == OP_CUMSUM || op == OP_LCSE; }
static bool op_reduce(int op) { return op == OP_REDUCE || op == OP_RLSE; }
static bool op_lse(int op) { return op == OP_LCSE || op == OP_RLSE; }

enum {
    SP_NONE,
    SP_X_NULL,
    SP_Y_NULL,
    SP_SHAPE_NULL,
    SP_AXES_NULL,
    SP_SHIFT_NULL,
    SP_OVERLAP,
    SP_OUT_NULL
};
static const char *const sp_names[] = {"",           "x NULL",     "y NULL",
                                       "shape NULL", "axes NULL",  "shift NULL",
                                       "overlap",    "out NULL"};

/* ---- the decoded case ---------------------------------------------------- */

typedef struct {
    int op;
    axial_dtype dtype;
    size_t rank;
    int64_t shape[AX_RANK_BAD + 1];
    int64_t axis; /* cumsum */
    int64_t axes[AX_MAX_AXES];
    size_t naxes;
    int64_t shift[AX_MAX_AXES];
    size_t nshift;
    unsigned flags;
    bool inplace;
    size_t xoff, yoff; /* elements past a 64-byte boundary */
    int special;
    unsigned special_arg;
    unsigned datamode;
    /* derived */
    size_t esize;          /* element size (8 for an invalid dtype: never read) */
    size_t count_in;       /* elements of x (0 where the call must fail on the shape) */
    size_t count_out;      /* elements of y */
    ptrdiff_t overlap_off; /* SP_OVERLAP: y - x in elements */
} fz_case;

/* ---- reading the input ---------------------------------------------------- */

typedef struct {
    const uint8_t *p;
    size_t n, at;
    uint64_t rng;
} fz_in;

static uint8_t in_byte(fz_in *in) { return in->at < in->n ? in->p[in->at++] : 0; }
static bool in_left(const fz_in *in, size_t k) { return in->n - in->at >= k; }

static uint64_t rng_next(fz_in *in) { /* xorshift64* */
    in->rng ^= in->rng >> 12;
    in->rng ^= in->rng << 25;
    in->rng ^= in->rng >> 27;
    return in->rng * 0x2545f4914f6cdd1dull;
}

static const int64_t dim_table[32] = {32,   33,   47,   48,   63,   64,   65,   96,
                                      127,  128,  129,  192,  255,  256,  257,  300,
                                      511,  512,  513,  1000, 1023, 1024, 1025, 2047,
                                      2048, 2049, 4095, 4096, 4097, 4100, 8191, 8192};
static const int64_t dim_special[16] = {-1,
                                        -2,
                                        INT64_MIN,
                                        INT64_MAX,
                                        (int64_t)1 << 32,
                                        (int64_t)1 << 40,
                                        (int64_t)1 << 62,
                                        ((int64_t)1 << 62) + 1,
                                        PTRDIFF_MAX / 2,
                                        PTRDIFF_MAX / 8 + 1,
                                        (int64_t)1 << 31,
                                        3037000500, /* ~ sqrt(2^63) */
                                        0,
                                        1,
                                        -4096,
                                        (int64_t)1 << 61};

static int64_t decode_dim(uint8_t b) {
    if (b < 0x80) return b & 31;
    if (b < 0xC0) return dim_table[b & 31];
    if (b < 0xF0) return 1 + (b & 7);
    return dim_special[b & 15];
}

static int64_t decode_axis(uint8_t b, size_t rank) {
    const int64_t r = (int64_t)rank;
    if (b < 0xE0) return r > 0 ? (int64_t)(b % (2 * rank)) - r : (int64_t)(b % 3) - 1;
    const int64_t t[32] = {r,         -r - 1, r + 1,     -r - 2,      INT64_MAX,  INT64_MIN,
                           100,       -100,   16,        -17,         (int64_t)1 << 32,
                           -((int64_t)1 << 32), 0,       -1,          r - 1,      -r,
                           17,        -16,    INT64_MAX - 1, INT64_MIN + 1, r + 8, -r - 8,
                           0,         1,      2,         -2,          3,          -3,
                           (int64_t)rank * 2, -(int64_t)rank * 2, 7, -8};
    return t[b & 31];
}

static const int64_t shift_table[64] = {INT64_MIN,
                                        INT64_MAX,
                                        INT64_MIN + 1,
                                        INT64_MAX - 1,
                                        (int64_t)1 << 62,
                                        -((int64_t)1 << 62),
                                        (int64_t)1 << 32,
                                        -((int64_t)1 << 32),
                                        4096,
                                        -4096,
                                        4097,
                                        -4097,
                                        8191,
                                        -8191,
                                        1000003,
                                        -1000003,
                                        127,
                                        128,
                                        129,
                                        255,
                                        256,
                                        257,
                                        -127,
                                        -128,
                                        -129,
                                        -255,
                                        -256,
                                        -257,
                                        511,
                                        512,
                                        -512,
                                        1023,
                                        1024,
                                        -1024,
                                        2047,
                                        2048,
                                        -2048,
                                        65,
                                        -65,
                                        96,
                                        -96,
                                        3037000499,
                                        -3037000499,
                                        INT64_MAX / 3,
                                        INT64_MIN / 3,
                                        (int64_t)UINT32_MAX,
                                        -(int64_t)UINT32_MAX,
                                        INT64_MAX - 4095,
                                        INT64_MIN + 4096,
                                        8192,
                                        -8192,
                                        4100,
                                        -4100,
                                        1,
                                        -1,
                                        0,
                                        64,
                                        -64,
                                        100,
                                        -100,
                                        1 << 20,
                                        -(1 << 20),
                                        INT64_MAX / 2,
                                        INT64_MIN / 2};

static int64_t decode_shift(fz_in *in) {
    const uint8_t s = in_byte(in);
    if (s < 0x80) return (int64_t)s - 64;
    if (s < 0xC0) return shift_table[s & 63];
    uint64_t v = 0;
    for (int k = 0; k < 8; k++) v |= (uint64_t)in_byte(in) << (8 * k);
    int64_t r;
    memcpy(&r, &v, sizeof r);
    return r;
}

/* ---- dtypes ---------------------------------------------------------------- */

/* ax_dtype_valid, _is_float, _size, _value and _fmt (the float formats): call.h */
static const char *dt_name(axial_dtype dt) {
    return ax_dtype_valid(dt) ? ax_dtype_str(dt) : "invalid";
}

static uint64_t get_bits(size_t es, const void *p, size_t i) {
    uint64_t v = 0;
    memcpy(&v, (const char *)p + es * i, es); /* little-endian: the low bytes */
    return v;
}
static void put_bits(size_t es, void *p, size_t i, uint64_t v) {
    memcpy((char *)p + es * i, &v, es);
}

static uint64_t fmt_bits(ax_float_fmt f, unsigned sign, uint64_t efield, uint64_t mant) {
    const uint64_t mmask = ((uint64_t)1 << f.mbits) - 1;
    return ((uint64_t)sign << (f.ebits + f.mbits)) | (efield << f.mbits) | (mant & mmask);
}

/* An exactly representable normal double (|v| in [2^-8, 2^8)) in format f. */
static uint64_t fmt_exact(ax_float_fmt f, double v) {
    uint64_t b;
    memcpy(&b, &v, 8);
    const unsigned sign = (unsigned)(b >> 63);
    const int e = (int)((b >> 52) & 2047) - 1023;
    const uint64_t mant = (b & (((uint64_t)1 << 52) - 1)) >> (52 - f.mbits);
    const int bias = (1 << (f.ebits - 1)) - 1;
    return fmt_bits(f, sign, (uint64_t)(e + bias), mant);
}

/* One float element from class byte c, value byte v and random bits r. */
static uint64_t make_float(axial_dtype dt, uint8_t c, uint8_t v, uint64_t r) {
    const ax_float_fmt f = ax_dtype_fmt(dt);
    const int bias = (1 << (f.ebits - 1)) - 1;
    const uint64_t emaxf = ((uint64_t)1 << f.ebits) - 2; /* largest finite exponent field */
    const unsigned sign = v & 1;
    const unsigned cls = c >> 4, lo = c & 15;
    const uint64_t mant = r >> 12;
    switch (cls) {
    case 0: case 1: case 2: case 3: case 4: /* ordinary: +-(1+f) 2^e, |e| <= 8 */
        return fmt_bits(f, sign, (uint64_t)(bias + (int)((v >> 1) % 17) - 8), mant);
    case 5: case 6: { /* exact small multiples of 2^-k: cancellations, exact sums */
        const unsigned k = v >> 1;
        if (k == 0) return fmt_bits(f, sign, 0, 0);
        return fmt_exact(f, (sign ? -1.0 : 1.0) * ldexp(k, -(int)(lo & 3)));
    }
    case 7: /* uniform [0, 1): 2^-1 .. 2^-8 */
        return fmt_bits(f, 0, (uint64_t)(bias - 1 - (int)(v & 7)), mant);
    case 8: return fmt_bits(f, sign, 0, 0);                                     /* +-0 */
    case 9: {                                                                    /* NaN */
        uint64_t m = (v & 2) ? (mant | ((uint64_t)1 << (f.mbits - 1)))         /* quiet */
                             : (mant & ~((uint64_t)1 << (f.mbits - 1)));        /* signalling */
        if ((m & (((uint64_t)1 << f.mbits) - 1)) == 0) m = 1;
        return fmt_bits(f, sign, emaxf + 1, m);
    }
    case 10: return fmt_bits(f, sign, emaxf + 1, 0); /* +-inf */
    case 11: {                                        /* subnormal */
        uint64_t m = mant;
        if (v & 2) m >>= (v >> 2) % (unsigned)f.mbits; /* small ones too */
        if ((m & (((uint64_t)1 << f.mbits) - 1)) == 0) m = 1;
        return fmt_bits(f, sign, 0, m);
    }
    case 12: /* within 2^8 of the largest finite value */
        return fmt_bits(f, sign, emaxf - ((v >> 1) & 7), (v & 0x80) ? ~(uint64_t)0 : mant);
    case 13: /* any exponent */
        return fmt_bits(f, sign, 1 + (r ^ ((uint64_t)v << 3)) % emaxf, mant);
    case 14: /* the smallest normals */
        return fmt_bits(f, sign, 1 + ((v >> 1) & 1), mant);
    default: /* powers of two 2^-7 .. 2^8 */
        return fmt_bits(f, sign, (uint64_t)(bias + (int)lo - 7), 0);
    }
}

static uint64_t make_int(size_t es, uint8_t c, uint8_t v, uint64_t r) {
    const unsigned bits = (unsigned)(8 * es);
    const uint64_t mask = bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
    const uint64_t smin = (uint64_t)1 << (bits - 1);
    switch (c >> 5) {
    case 4: return (uint64_t)(int64_t)(int8_t)v & mask; /* small */
    case 5: {
        const uint64_t t[8] = {0, 1, mask, smin, smin - 1, smin + 1, mask - 1, 2};
        return t[v & 7] & mask;
    }
    default: return ((r << 8) | v) & mask; /* raw */
    }
}

/* The class byte of a generated element, by the case's data mode. */
static uint8_t gen_class(fz_in *in, unsigned mode, bool is_float) {
    const uint64_t r = rng_next(in);
    const uint8_t any = (uint8_t)r, low = (uint8_t)(r >> 8);
    switch (mode) {
    case 1: return (uint8_t)((low % 5) << 4 | (low & 15));         /* ordinary */
    case 2: return (uint8_t)((5 + (low & 1)) << 4 | (low >> 4));   /* exact */
    case 3: return (uint8_t)(7 << 4);                               /* uniform [0, 1) */
    case 4: return (r >> 16) % 64 ? (uint8_t)((low % 5) << 4) : any; /* 1/64 special */
    case 5: return (r >> 16) % 4 ? (uint8_t)((low % 5) << 4) : (uint8_t)(12 << 4); /* huge */
    case 6: { /* subnormals, zeros, smallest normals, ordinary */
        static const uint8_t k[4] = {11 << 4, 8 << 4, 14 << 4, 0};
        return k[low & 3];
    }
    case 7: return is_float ? (uint8_t)(5 << 4) : (uint8_t)(4 << 5); /* exact / small ints */
    default: return any;
    }
}

/* ---- the independent model of the shape query -------------------------------- */

/* Status of axial_reduce_sum_shape (checks in the README's order) and the
 * output shape. */
static axial_status model_shape(size_t rank, const int64_t *shape, const int64_t *axes,
                                size_t naxes, unsigned flags, bool out_rank_null,
                                bool out_shape_null, size_t esize, size_t *orank,
                                int64_t *oshape) {
    if (rank > AXIAL_MAX_RANK) return AXIAL_E_RANK;
    if (rank > 0 && !shape) return AXIAL_E_NULL;
    unsigned __int128 nz = esize;
    for (size_t k = 0; k < rank; k++) {
        if (shape[k] < 0) return AXIAL_E_SHAPE;
        if (shape[k] == 0) continue;
        nz *= (uint64_t)shape[k];
        if (nz > PTRDIFF_MAX) return AXIAL_E_SHAPE;
    }
    if (flags & ~3u) return AXIAL_E_ARGS;
    if (naxes > 0 && !axes) return AXIAL_E_NULL;
    bool red[AX_RANK_BAD + 1] = {false};
    for (size_t k = 0; k < rank; k++) red[k] = naxes == 0 && (flags & 2);
    for (size_t a = 0; a < naxes; a++) {
        if (axes[a] < -(int64_t)rank || axes[a] >= (int64_t)rank) return AXIAL_E_AXIS;
        red[axes[a] < 0 ? axes[a] + (int64_t)rank : axes[a]] = true;
    }
    size_t r = 0;
    for (size_t k = 0; k < rank; k++) {
        if (!red[k]) oshape[r++] = shape[k];
        else if (flags & 1) oshape[r++] = 1;
    }
    *orank = r;
    if (out_rank_null) return AXIAL_E_NULL;
    if (r > 0 && out_shape_null) return AXIAL_E_NULL;
    return AXIAL_OK;
}

/* ---- messages ---------------------------------------------------------------- */

static void print_list(const char *name, const int64_t *v, size_t n, bool null) {
    fprintf(stderr, " %s=", name);
    if (null) {
        fprintf(stderr, "NULL");
        return;
    }
    fprintf(stderr, "[");
    for (size_t k = 0; k < n; k++) fprintf(stderr, k ? ", %lld" : "%lld", (long long)v[k]);
    fprintf(stderr, "]");
}

static void print_case(const fz_case *c) {
    fprintf(stderr, "axial-fuzz: case: %s dtype=%s(%d) rank=%zu", op_names[c->op],
            dt_name(c->dtype), (int)c->dtype, c->rank);
    print_list("shape", c->shape, c->rank <= AX_RANK_BAD ? c->rank : 0,
               c->special == SP_SHAPE_NULL);
    if (op_scan(c->op)) fprintf(stderr, " axis=%lld", (long long)c->axis);
    else print_list("axes", c->axes, c->naxes, c->special == SP_AXES_NULL);
    if (c->op == OP_ROLL) print_list("shift", c->shift, c->nshift, c->special == SP_SHIFT_NULL);
    fprintf(stderr, " flags=0x%x%s x_off=%zu y_off=%zu %s", c->flags,
            c->inplace ? " in-place" : "", c->xoff, c->yoff, sp_names[c->special]);
    if (c->special == SP_OVERLAP) fprintf(stderr, " (y = x %+td elements)", c->overlap_off);
    fprintf(stderr, " elements in=%zu out=%zu datamode=%u\n", c->count_in, c->count_out,
            c->datamode);
}

static const fz_case *cur_case;

__attribute__((format(printf, 2, 3), noreturn)) static void fail(axial_isa isa,
                                                                  const char *fmt, ...);
static void fail(axial_isa isa, const char *fmt, ...) {
    fprintf(stderr, "axial-fuzz: MISMATCH on ISA %s: ", axial_isa_name(isa));
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    if (cur_case) print_case(cur_case);
    fflush(stderr);
    abort();
}

/* ---- buffers ------------------------------------------------------------------- */

/* [canary][pad to offset][body][canary], body at a 64-byte boundary + off.
 * Under ASan the bytes around the body are also poisoned during the call, so
 * that a kernel that reads outside its tensors (docs/API.md: nothing outside
 * is read; masked loads are checked lane by lane) is reported at once. */
typedef struct {
    unsigned char *base, *body;
    size_t bytes, pre, total;
} fz_buf;

static void buf_alloc(fz_buf *b, size_t bytes, size_t off_bytes) {
    b->pre = AX_CANARY + off_bytes;
    b->total = (b->pre + bytes + AX_CANARY + 63) & ~(size_t)63;
    b->base = aligned_alloc(64, b->total);
    if (!b->base) abort();
    b->body = b->base + b->pre;
    b->bytes = bytes;
}

#ifdef AX_ASAN /* (harness.h) */
#include <sanitizer/asan_interface.h>
static void buf_guard(fz_buf *b, bool on) {
    if (on) {
        ASAN_POISON_MEMORY_REGION(b->base, b->pre);
        ASAN_POISON_MEMORY_REGION(b->body + b->bytes, b->total - b->pre - b->bytes);
    } else {
        ASAN_UNPOISON_MEMORY_REGION(b->base, b->total);
    }
}
#else
static void buf_guard(fz_buf *b, bool on) {
    (void)b;
    (void)on;
}
#endif

static void buf_fill(fz_buf *b, const void *content, unsigned char poison) {
    memset(b->base, AX_CANARY_BYTE, b->pre);
    if (content) memcpy(b->body, content, b->bytes);
    else memset(b->body, poison, b->bytes);
    memset(b->body + b->bytes, AX_CANARY_BYTE, AX_CANARY);
}

static bool buf_canary_ok(const fz_buf *b) {
    for (size_t i = 0; i < b->pre; i++)
        if (b->base[i] != AX_CANARY_BYTE) return false;
    for (size_t i = 0; i < AX_CANARY; i++)
        if (b->body[b->bytes + i] != AX_CANARY_BYTE) return false;
    return true;
}

/* First byte of the body that differs from content (or poison), or -1. */
static ptrdiff_t buf_diff(const fz_buf *b, const void *content, unsigned char poison) {
    for (size_t i = 0; i < b->bytes; i++) {
        const unsigned char want = content ? ((const unsigned char *)content)[i] : poison;
        if (b->body[i] != want) return (ptrdiff_t)i;
    }
    return -1;
}

/* ---- self-tests and statistics ------------------------------------------------------ */

enum {
    INJ_NONE,
    INJ_OUTPUT,
    INJ_CANARY,
    INJ_STATUS,
    INJ_INPUT,
    INJ_ERROR_WRITE,
    INJ_BOUND,
    INJ_SUM_BOUND,
    INJ_EXACT,
    INJ_N
};
static const char *const inject_names[INJ_N] = {"",      "output", "canary",    "status", "input",
                                               "error-write", "bound", "sum-bound", "exact"};
static int inject; /* AX_FUZZ_INJECT, see run_one */

static struct {
    unsigned long long runs, compared, limit_used, limit_outputs;
    unsigned long long limit_by_dtype[16];
} stats;

static void print_stats(void) {
    fprintf(stderr,
            "axial-fuzz: %llu inputs, %llu ISA comparisons, overflow allowance used on %llu "
            "outputs of %llu inputs\n",
            stats.runs, stats.compared, stats.limit_outputs, stats.limit_used);
    for (int d = 0; d < 16; d++)
        if (stats.limit_by_dtype[d])
            fprintf(stderr, "axial-fuzz:   %s: %llu outputs\n", dt_name((axial_dtype)d),
                    stats.limit_by_dtype[d]);
}

/* ---- one case ------------------------------------------------------------------------ */

typedef struct {
    axial_status st;
    unsigned char *out; /* count_out * esize bytes on success */
    size_t orank;
    int64_t oshape[AX_RANK_BAD + 1];
} fz_result;

static const unsigned char poison_of[AX_NISA] = {0xC3, 0x5A, 0x96, 0x3C};

/* Self-test (AX_FUZZ_INJECT=kind): a fault is injected into every ISA's run
 * (the scalar one's too: every ISA is checked against the oracle) after its
 * call, to show that each check fires (meson's 'fuzz self-test' tests expect
 * a MISMATCH on the seed corpus).  'bound' moves the first output of a float
 * sum 64 ulps away (a finite non-zero one): past the bound where M is close
 * to |sum| and m is small (f32 allows ~17 ulps); 'sum-bound' moves a float
 * sum's output to 4 times its bound from the oracle's sum (inject_sum_bound);
 * 'exact' flips the lowest bit of the first output of an integer sum or a
 * Roll. */

/* Runs the case on the selected ISA with x = x0 (count_in elements). */
static void run_one(const fz_case *c, axial_isa isa, const void *x0, fz_result *res) {
    const size_t es = c->esize;
    const size_t xbytes = c->count_in * es, ybytes = c->count_out * es;
    const unsigned char poison = poison_of[isa];
    fz_buf xb, yb;
    /* overlap: the x buffer holds [count_out pre][x][count_out post] */
    const size_t pre_el = c->special == SP_OVERLAP ? c->count_out : 0;
    const size_t xbody = xbytes + 2 * pre_el * es;
    buf_alloc(&xb, xbody, c->xoff * es);
    buf_alloc(&yb, ybytes, c->yoff * es);
    unsigned char *xcontent = malloc(xbody + 1);
    if (!xcontent) abort();
    memset(xcontent, poison, xbody);
    if (xbytes) memcpy(xcontent + pre_el * es, x0, xbytes);
    buf_fill(&xb, xcontent, 0);
    buf_fill(&yb, NULL, poison);
    buf_guard(&xb, true);
    buf_guard(&yb, true);

    void *px = xb.body + pre_el * es;
    void *py = c->inplace ? px : yb.body;
    const int64_t *shape = c->special == SP_SHAPE_NULL ? NULL : c->shape;
    const int64_t *axes = c->special == SP_AXES_NULL ? NULL : c->axes;
    const int64_t *shift = c->special == SP_SHIFT_NULL ? NULL : c->shift;
    if (c->special == SP_X_NULL) px = NULL;
    if (c->special == SP_Y_NULL) py = NULL;
    if (c->special == SP_OVERLAP) py = (char *)xb.body + (ptrdiff_t)(pre_el * es) +
                                       c->overlap_off * (ptrdiff_t)es;
    /* a zero-size tensor may sit anywhere; keep x and y apart for ASan */

    axial_status st = AXIAL_OK;
    res->orank = 99;
    if (c->op == OP_SHAPE) {
        const bool ornull = c->special == SP_OUT_NULL && !(c->special_arg & 8);
        const bool osnull = c->special == SP_OUT_NULL && (c->special_arg & 8);
        for (size_t k = 0; k <= AX_RANK_BAD; k++) res->oshape[k] = -7;
        st = axial_reduce_sum_shape(c->rank, shape, axes, c->naxes, c->flags,
                                    ornull ? NULL : &res->orank, osnull ? NULL : res->oshape);
    } else {
        const ax_call call = {call_op[c->op], c->dtype, c->rank,  shape, c->axis,
                              c->flags,       axes,     c->naxes, shift, c->nshift};
        st = ax_call_plain(&call, px, py);
    }
    buf_guard(&xb, false);
    buf_guard(&yb, false);
    if (inject) {
        if (inject == INJ_CANARY) yb.base[0] ^= 1;
        if (inject == INJ_STATUS) st = st == AXIAL_OK ? AXIAL_E_NOMEM : AXIAL_OK;
        if (inject == INJ_INPUT && !c->inplace && xbytes && px) ((unsigned char *)px)[0] ^= 1;
        if (inject == INJ_ERROR_WRITE && st != AXIAL_OK && ybytes) yb.body[0] ^= 1;
    }
    res->st = st;
    if (st != AXIAL_OK) {
        const char *msg = axial_last_error();
        if (!msg || !msg[0]) fail(isa, "status %s with an empty axial_last_error()",
                                  axial_status_name(st));
    }

    /* canaries, x untouched, nothing written on error */
    if (!buf_canary_ok(&xb)) fail(isa, "status %s: wrote around x", axial_status_name(st));
    if (!buf_canary_ok(&yb)) fail(isa, "status %s: wrote around y", axial_status_name(st));
    const bool x_is_out = c->inplace && st == AXIAL_OK;
    ptrdiff_t d;
    if (!x_is_out && (d = buf_diff(&xb, xcontent, 0)) >= 0)
        fail(isa, "status %s: x changed at byte %td (0x%02x, was 0x%02x)%s",
             axial_status_name(st), d, xb.body[d], xcontent[d],
             c->inplace ? " (in place, failed call)" : "");
    if (st != AXIAL_OK && (d = buf_diff(&yb, NULL, poison)) >= 0)
        fail(isa, "status %s: y written at byte %td on error", axial_status_name(st), d);

    res->out = NULL;
    if (st == AXIAL_OK && c->op != OP_SHAPE) {
        res->out = malloc(ybytes + 1);
        if (!res->out) abort();
        if (ybytes) memcpy(res->out, c->inplace ? (unsigned char *)px : yb.body, ybytes);
        if (inject == INJ_OUTPUT && ybytes)
            for (size_t b = 0; b < es; b++) res->out[b] ^= 0xFF;
        if (inject == INJ_EXACT && ybytes && (c->op == OP_ROLL || !ax_dtype_is_float(c->dtype)))
            res->out[0] ^= 1;
        if (inject == INJ_BOUND && ybytes &&
            ax_dtype_is_float(c->dtype) && c->op != OP_ROLL) {
            const double v = ax_dtype_value(c->dtype, res->out, 0);
            if (op_lse(c->op)) {
                /* the log-space bound is mostly absolute: 1/16 of |v| for |v| >= 1/4 */
                if (isfinite(v) && fabs(v) >= 0.25 && fabs(v) < 1e30)
                    put_bits(es, res->out, 0,
                             get_bits(es, res->out, 0) +
                                 ((uint64_t)1 << (ax_dtype_fmt(c->dtype).mbits - 4)));
            } else if (isfinite(v) && v != 0 && fabs(v) < 1e30) {
                put_bits(es, res->out, 0, get_bits(es, res->out, 0) + 64);
            }
        }
    }
    free(xcontent);
    free(xb.base);
    free(yb.base);
}

/* ---- against the oracle ---------------------------------------------------------------- */

static fo_op oracle_op(int op) {
    switch (op) {
    case OP_CUMSUM: return FO_CUMSUM;
    case OP_REDUCE: return FO_REDUCE;
    case OP_ROLL: return FO_ROLL;
    case OP_LCSE: return FO_LCSE;
    default: return FO_RLSE;
    }
}

/* The oracle's value, and the format's rounding of it (the oracle's own). */
static void print_oracle(axial_dtype dt, long double v, char *buf, size_t cap) {
    snprintf(buf, cap, "%.21Lg (rounded: bits 0x%0*llx)", v, (int)(2 * fo_size(dt)),
             (unsigned long long)fo_encode(fo_fmt_of(dt), v));
}
static void print_result(axial_dtype dt, const void *p, size_t i, char *buf, size_t cap) {
    const size_t es = fo_size(dt);
    snprintf(buf, cap, "%.21Lg (bits 0x%0*llx)", fo_value(dt, p, i), (int)(2 * es),
             (unsigned long long)fo_bits(es, p, i));
}

/* The float sums' bound for one output on one ISA (the top of the file):
 * 0.5 ulp_F at |S| + e, plus e, plus the oracle's own error eo.  *allow says
 * whether the documented overflow of a partial sum may make it non-finite. */
static long double sum_bound(const fz_case *c, axial_isa isa, const fo_out *o, bool *allow) {
    const axial_dtype dt = c->dtype;
    const long double m = (long double)o->n, u = 0x1p-24L;
    const long double eo = m * 0x1p-64L * o->mag;             /* S: m long double additions */
    const long double M = o->mag * (1 + (m + 2) * 0x1p-63L);  /* M, the same */
    const bool simd = isa != AXIAL_ISA_SCALAR;
    /* docs/API.md, section 7: scalar c = 2; SIMD ReduceSum 4 (+ 1/2 ulp),
     * SIMD CumSum 7 (the innermost axis; 2 along the others) */
    const long double C = !simd ? 2 : c->op == OP_CUMSUM ? 7 : 4;
    long double e;
    if (dt == AXIAL_F32) e = C * u * M;
    else if (dt == AXIAL_F64) e = (m + 8) * 0x1p-53L * M;
    else e = 1.5L * (C + 1) * u * M;
    if (dt == AXIAL_F64) *allow = M >= 0x1p1023L;
    else *allow = simd && (dt == AXIAL_F32 || dt == AXIAL_BF16) && M >= 0x1p127L &&
                  (c->op == OP_CUMSUM || o->maxabs >= 0x1p124L);
    return 0.5L * fo_ulp(fo_fmt_of(dt), fabsl(o->v) + e + eo) + e + eo;
}

/* Self-test 'sum-bound': the first finite output of a non-zero sum moves
 * to the oracle's S plus 4 times its bound, rounded to the format: at least
 * 1.9 bounds from S whatever the format's ulp there. */
static void inject_sum_bound(const fz_case *c, axial_isa isa, unsigned char *out,
                             const fo_result *orc) {
    const fo_fmt f = fo_fmt_of(c->dtype);
    for (size_t k = 0; k < c->count_out; k++) {
        const fo_out *o = &orc->f[k];
        bool allow;
        const long double b = sum_bound(c, isa, o, &allow), r = fo_value(c->dtype, out, k);
        if (o->mag == 0 || !isfinite(o->v) || !isfinite(r) ||
            !(fabsl(o->v) + 4 * b < fo_overflow_threshold(f) / 2))
            continue;
        put_bits(fo_size(c->dtype), out, k, fo_encode(f, o->v + 4 * b));
        return;
    }
}

static void compare_sum(const fz_case *c, axial_isa isa, const unsigned char *out,
                        const fo_result *orc) {
    const axial_dtype dt = c->dtype;
    const fo_fmt f = fo_fmt_of(dt);
    const long double T = fo_overflow_threshold(f);
    bool used = false;
    for (size_t k = 0; k < c->count_out; k++) {
        const fo_out *o = &orc->f[k];
        bool allow;
        const long double bound = sum_bound(c, isa, o, &allow);
        const long double S = o->v, r = fo_value(dt, out, k);
        const char *why = NULL;
        if (isnan(S)) {
            if (!isnan(r)) why = "the oracle's sum is NaN (a NaN term, or inf - inf), the result not";
        } else if (isinf(S)) {
            if (r != S) why = "the oracle's sum is an infinity (infinite terms of one sign), the result not";
        } else if (isnan(r)) {
            why = "NaN where the oracle's sum is finite";
        } else if (isinf(r)) {
            /* rounded to inf: the unrounded sum, within the bound of S, passed T */
            if ((r > 0) != (S > 0) || fabsl(S) + bound < T)
                why = "an infinity where the oracle's sum is not within the bound of overflow";
        } else if (o->mag == 0) {
            if (fo_bits(fo_size(dt), out, k) != fo_encode(f, S))
                why = "a sum of zeros (M == 0): the bits are not the oracle's";
        } else if (!(fabsl(r - S) <= bound)) {
            why = "outside the bound";
        }
        if (why && allow && !isfinite(r) && !isnan(S)) {
            why = NULL; /* the documented overflow of a partial sum */
            used = true;
            stats.limit_outputs++;
            stats.limit_by_dtype[dt & 15]++;
        }
        if (why) {
            char so[128], sr[128];
            print_oracle(dt, S, so, sizeof so);
            print_result(dt, out, k, sr, sizeof sr);
            fail(isa,
                 "oracle bound: %s: output %zu of %zu: oracle %s, result %s; |diff| %.6Lg, "
                 "bound %.6Lg (M %.6Lg, %zu terms, max|x| %.6Lg%s)",
                 why, k, c->count_out, so, sr, fabsl(r - S), bound, o->mag, o->n, o->maxabs,
                 allow ? ", overflow allowance applies" : "");
        }
    }
    if (used) stats.limit_used++;
}

/* The log-space bound B(v) of n terms (the top of the file). */
static long double lse_bound(axial_dtype dt, long double v, long double n) {
    const long double a = fabsl(v), ln = logl(n > 1 ? n : 1);
    if (dt == AXIAL_F64) return ldexpl(4 * a + 4 * ln + 16 + n, -53);
    return fo_ulp(fo_fmt_of(dt), a) + ldexpl(4 * (a + ln + 4), -24);
}

static void compare_lse(const fz_case *c, axial_isa isa, const unsigned char *out,
                        const fo_result *orc) {
    const axial_dtype dt = c->dtype;
    long double nscan = 0; /* a scan's outputs: n = the axis length */
    if (c->op == OP_LCSE)
        nscan = (long double)c->shape[c->axis < 0 ? c->axis + (int64_t)c->rank : c->axis];
    for (size_t k = 0; k < c->count_out; k++) {
        const long double y = orc->f[k].v, r = fo_value(dt, out, k);
        const long double n = c->op == OP_LCSE ? nscan : (long double)orc->f[k].n;
        /* the oracle's own error: expl, logl and n additions in long double */
        const long double eo = ldexpl(fabsl(isfinite(y) ? y : 0) + n + 8, -62);
        long double bound = 0;
        const char *why = NULL;
        if (isnan(y)) {
            if (!isnan(r)) why = "the oracle's y* is NaN, the result not";
        } else if (isinf(y)) {
            if (r != y) why = "the oracle's y* is an infinity, the result not the same one";
        } else if (!isfinite(r)) {
            why = "non-finite where the oracle's y* is finite";
        } else {
            bound = lse_bound(dt, fabsl(y) + eo, n) + eo;
            if (!(fabsl(r - y) <= bound)) why = "outside the bound";
        }
        if (why) {
            char so[128], sr[128];
            print_oracle(dt, y, so, sizeof so);
            print_result(dt, out, k, sr, sizeof sr);
            fail(isa,
                 "log-space bound: %s: output %zu of %zu: oracle %s, result %s; |diff| %.6Lg, "
                 "bound %.6Lg (%.0Lf terms)",
                 why, k, c->count_out, so, sr, fabsl(r - y), bound, n);
        }
    }
}

static void compare_exact(const fz_case *c, axial_isa isa, const unsigned char *out,
                          const fo_result *orc) {
    const size_t es = fo_size(c->dtype);
    if (memcmp(out, orc->bytes, c->count_out * es) == 0) return;
    for (size_t k = 0; k < c->count_out; k++) {
        const uint64_t want = fo_bits(es, orc->bytes, k), got = fo_bits(es, out, k);
        if (want != got)
            fail(isa, "oracle exact: output %zu of %zu: oracle 0x%0*llx, result 0x%0*llx "
                 "(bound: the same bits)", k, c->count_out, (int)(2 * es),
                 (unsigned long long)want, (int)(2 * es), (unsigned long long)got);
    }
}

/* ---- decoding ------------------------------------------------------------------------- */

static void decode(fz_in *in, fz_case *c) {
    uint8_t h[12];
    for (int k = 0; k < 12; k++) h[k] = in_byte(in);
    c->op = h[0] % OP_N;
    const unsigned dsel = h[1] % 16;
    c->dtype = (axial_dtype)(dsel >= 1 && dsel <= 13 ? (int)dsel : dsel == 0 ? 0 : dsel == 14 ? 14 : 99);
    c->rank = h[2] >= 0xF8 ? AX_RANK_BAD : h[2] % 9;
    c->flags = h[3] & 3;
    if (h[3] & 0x80) c->flags |= 1u << ((h[3] >> 2) & 31);
    c->naxes = op_scan(c->op) ? 0 : h[4] & 15;
    switch (h[5] >> 6) {
    case 0: case 1: c->nshift = c->naxes ? c->naxes : 1; break;
    case 2: c->nshift = 1; break;
    default: c->nshift = h[5] & 15; break;
    }
    if (c->op != OP_ROLL) c->nshift = 0;
    c->inplace = h[6] & 1;
    c->xoff = (h[6] >> 1) & 7;
    c->yoff = (h[6] >> 4) & 7;
    c->special = (h[6] & 0x80) ? h[7] & 7 : SP_NONE;
    c->special_arg = h[7];
    c->datamode = h[8] & 15;
    in->rng ^= ((uint64_t)h[9] << 16 | (uint64_t)h[10] << 8 | h[11]) * 0x9e3779b97f4a7c15ull;
    if (!in->rng) in->rng = 1;

    for (size_t k = 0; k <= AX_RANK_BAD; k++) c->shape[k] = 1;
    const size_t nd = c->rank <= 8 ? c->rank : 8;
    for (size_t k = 0; k < nd; k++) c->shape[k] = decode_dim(in_byte(in));
    if (op_scan(c->op)) c->axis = decode_axis(in_byte(in), c->rank);
    for (size_t a = 0; a < c->naxes; a++) c->axes[a] = decode_axis(in_byte(in), c->rank);
    for (size_t s = 0; s < c->nshift; s++) c->shift[s] = decode_shift(in);

    /* buffers: in place only for the ops that allow it (reduce: overlap error) */
    if (c->op == OP_SHAPE) c->inplace = false;
}

/* Element counts, clamping the shape where the call could succeed. */
static void size_case(fz_case *c) {
    c->esize = ax_dtype_valid(c->dtype) ? ax_dtype_size(c->dtype) : 8;
    c->count_in = c->count_out = 0;
    if (c->op == OP_SHAPE || c->rank > AXIAL_MAX_RANK) return;
    bool neg = false;
    unsigned __int128 nz = c->esize;
    for (size_t k = 0; k < c->rank; k++) {
        if (c->shape[k] < 0) neg = true;
        else if (c->shape[k] > 0) nz *= (uint64_t)c->shape[k];
        if (nz > PTRDIFF_MAX) nz = (unsigned __int128)PTRDIFF_MAX + 1; /* saturate */
    }
    if (neg || nz > PTRDIFF_MAX) return; /* the shape check fails: nothing is touched */
    /* input and output counts as the call would see them */
    size_t orank = 0;
    int64_t oshape[AX_RANK_BAD + 1];
    for (int pass = 0; pass < 2; pass++) {
        unsigned __int128 cin = 1, cout = 1, nzp = 1;
        for (size_t k = 0; k < c->rank; k++) {
            cin *= (uint64_t)c->shape[k];
            if (c->shape[k]) nzp *= (uint64_t)c->shape[k];
        }
        cout = cin;
        if (op_reduce(c->op)) {
            axial_status st = model_shape(c->rank, c->shape, c->axes, c->naxes, c->flags & 3,
                                          false, false, 1, &orank, oshape);
            cout = 1;
            if (st == AXIAL_OK)
                for (size_t k = 0; k < orank; k++) cout *= (uint64_t)oshape[k];
            else
                cout = 0;
        }
        if (cin <= AX_MAX_ELEMS && cout <= AX_MAX_ELEMS) {
            c->count_in = (size_t)cin;
            c->count_out = (size_t)cout;
            return;
        }
        /* clamp the non-zero dimensions, left to right, to a product <= the limit */
        uint64_t p = 1;
        for (size_t k = 0; k < c->rank; k++) {
            if (c->shape[k] == 0) continue;
            uint64_t room = AX_MAX_ELEMS / p;
            if ((uint64_t)c->shape[k] > room) c->shape[k] = (int64_t)(room ? room : 1);
            p *= (uint64_t)c->shape[k];
        }
        (void)nzp;
    }
    abort(); /* unreachable: the second pass fits */
}

static void fill_data(fz_in *in, const fz_case *c, void *x) {
    const bool is_float = ax_dtype_is_float(c->dtype);
    for (size_t i = 0; i < c->count_in; i++) {
        uint8_t cls, v;
        if (in_left(in, 2)) {
            cls = in_byte(in);
            v = in_byte(in);
        } else {
            cls = gen_class(in, c->datamode, is_float);
            v = (uint8_t)(rng_next(in) >> 32);
        }
        const uint64_t r = rng_next(in);
        uint64_t bits;
        if (c->dtype == AXIAL_BOOL) bits = cls >= 0xF0 ? v : (v & 1);
        else if (is_float) bits = make_float(c->dtype, cls, v, r);
        else bits = make_int(c->esize, cls, v, r);
        put_bits(c->esize, x, i, bits);
    }
}

/* ---- streams and shards ------------------------------------------------------------------- */

/* The slab [a, a + L) of the cut axis between the whole tensor (outer, n,
 * inner) and a piece (outer, L, inner). */
static void fz_slab(unsigned char *whole, unsigned char *piece, size_t outer, size_t n,
                    size_t inner, size_t a, size_t L, size_t es, bool to_piece) {
    for (size_t o = 0; o < outer; o++) {
        unsigned char *w = whole + (o * n + a) * inner * es, *p = piece + o * L * inner * es;
        if (L * inner)
            memcpy(to_piece ? p : w, to_piece ? w : p, L * inner * es);
    }
}

/* Sorted cuts of [0, n) into k pieces: multiples of g (g > 0) or anywhere. */
static void fz_cuts(fz_in *in, size_t n, size_t g, size_t k, size_t *cuts) {
    cuts[0] = 0;
    for (size_t i = 1; i < k; i++) {
        size_t c = n ? (size_t)(rng_next(in) % (n + 1)) : 0;
        if (g > 0)
            c = c / g * g;
        cuts[i] = c;
    }
    cuts[k] = n;
    for (size_t i = 1; i < k; i++)
        for (size_t j = i; j > 0 && cuts[j] < cuts[j - 1]; j--) {
            const size_t t = cuts[j];
            cuts[j] = cuts[j - 1];
            cuts[j - 1] = t;
        }
}

/* The first output where a and b differ, or count: bit for bit, except that
 * any NaN equals any NaN (docs/API.md, section 7: which of two NaN payloads
 * a sum keeps depends on the operand order, on every ISA). */
static size_t first_diff(const fz_case *c, const void *a, const void *b, size_t count) {
    const size_t es = c->esize;
    for (size_t k = 0; k < count; k++) {
        if (get_bits(es, a, k) == get_bits(es, b, k)) continue;
        if (ax_dtype_is_float(c->dtype) && isnan(ax_dtype_value(c->dtype, a, k)) &&
            isnan(ax_dtype_value(c->dtype, b, k)))
            continue;
        return k;
    }
    return count;
}

/* A stream's state through its bytes and back (as if sent). */
static void fz_through_bytes(axial_isa isa, axial_stream *st) {
    const size_t z = axial_stream_state_size(st);
    unsigned char *b = malloc(z + 1);
    if (!b || axial_stream_export(st, b, z) != AXIAL_OK || axial_stream_import(st, b, z) != AXIAL_OK)
        fail(isa, "stream state export/import: %s", axial_last_error());
    free(b);
}

static void check_pieces(const fz_case *c, axial_isa isa, const void *x0, const void *want,
                         fz_in *in) {
    if (c->special != SP_NONE || c->count_in == 0 || !ax_dtype_valid(c->dtype) ||
        c->dtype == AXIAL_BOOL || c->op == OP_ROLL || c->op == OP_SHAPE)
        return;
    const size_t es = c->esize;
    const axial_op op = c->op == OP_CUMSUM ? AXIAL_OP_CUMSUM
                        : c->op == OP_LCSE ? AXIAL_OP_LOGCUMSUMEXP
                        : c->op == OP_REDUCE ? AXIAL_OP_REDUCE_SUM
                                             : AXIAL_OP_REDUCE_LOGSUMEXP;
    const axial_shards sh = {op, c->dtype, c->rank, c->shape, op_scan(c->op) ? &c->axis : c->axes,
                             op_scan(c->op) ? 1 : c->naxes, c->flags};
    int64_t cut, grid;
    if (axial_shard_grid(&sh, &cut, &grid) != AXIAL_OK) {
        if (op_scan(c->op))
            fail(isa, "axial_shard_grid refused a call that succeeded: %s", axial_last_error());
        return; /* a reduction of no axis: nothing to cut */
    }
    size_t outer = 1, inner = 1;
    for (size_t k = 0; k < (size_t)cut; k++) outer *= (size_t)c->shape[k];
    for (size_t k = (size_t)cut + 1; k < c->rank; k++) inner *= (size_t)c->shape[k];
    const size_t n = (size_t)c->shape[cut], pieces = 1 + (size_t)(rng_next(in) % 8);
    const bool rev = op_scan(c->op) && (c->flags & AXIAL_CUMSUM_REVERSE);
    size_t cuts[10];
    unsigned char *got = malloc(c->count_out * es + 1), *piece = malloc(c->count_in * es + 1);
    unsigned char *out = malloc(c->count_in * es + 1);
    if (!got || !piece || !out) abort();
    unsigned char *x = (unsigned char *)x0;
    /* a stream (CumSum, LogCumSumExp), cut anywhere */
    if (c->op == OP_CUMSUM || (c->op == OP_LCSE && ax_dtype_is_float(c->dtype))) {
        axial_stream *st = NULL;
        if (axial_stream_create(op, c->dtype, c->rank, c->shape, c->axis, c->flags, &st) != AXIAL_OK)
            fail(isa, "axial_stream_create: %s", axial_last_error());
        fz_cuts(in, n, 0, pieces, cuts);
        const size_t half = pieces / 2;
        for (size_t i = 0; i < pieces; i++) {
            const size_t j = rev ? pieces - 1 - i : i, a = cuts[j], L = cuts[j + 1] - cuts[j];
            int64_t ps[AX_RANK_BAD + 1];
            memcpy(ps, c->shape, sizeof ps);
            ps[cut] = (int64_t)L;
            fz_slab(x, piece, outer, n, inner, a, L, es, true);
            if (i == half)
                fz_through_bytes(isa, st);
            if (axial_stream_push(st, c->dtype, piece, out, c->rank, ps) != AXIAL_OK)
                fail(isa, "stream push %zu of [%zu, %zu): %s", i, a, a + L, axial_last_error());
            fz_slab(got, out, outer, n, inner, a, L, es, false);
        }
        axial_stream_destroy(st);
        const size_t k = first_diff(c, got, want, c->count_out);
        if (k < c->count_out) {
            char cl[128] = "";
            for (size_t i = 1; i < pieces && strlen(cl) < 100; i++)
                snprintf(cl + strlen(cl), sizeof cl - strlen(cl), " %zu", cuts[i]);
            fail(isa, "a stream of %zu pieces (cuts%s) is not the one call: output %zu is "
                 "0x%llx, the one call's 0x%llx", pieces, cl, k,
                 (unsigned long long)get_bits(es, got, k), (unsigned long long)get_bits(es, want, k));
        }
    }
    /* a stream (ReduceSum or ReduceLogSumExp along its one axis), cut anywhere */
    if (op_reduce(c->op) && c->naxes == 1 && !(c->flags & ~AXIAL_REDUCE_KEEP_DIMS) &&
        (c->op == OP_REDUCE || ax_dtype_is_float(c->dtype))) {
        axial_stream *st = NULL;
        if (axial_stream_create(op, c->dtype, c->rank, c->shape, cut, c->flags, &st) != AXIAL_OK)
            fail(isa, "axial_stream_create (a sum): %s", axial_last_error());
        fz_cuts(in, n, 0, pieces, cuts);
        for (size_t i = 0; i < pieces; i++) {
            const size_t a = cuts[i], L = cuts[i + 1] - cuts[i];
            int64_t ps[AX_RANK_BAD + 1];
            memcpy(ps, c->shape, sizeof ps);
            ps[cut] = (int64_t)L;
            fz_slab(x, piece, outer, n, inner, a, L, es, true);
            if (i == pieces / 2)
                fz_through_bytes(isa, st);
            if (axial_stream_push(st, c->dtype, piece, NULL, c->rank, ps) != AXIAL_OK)
                fail(isa, "sum stream push %zu of [%zu, %zu): %s", i, a, a + L, axial_last_error());
        }
        if (axial_stream_result(st, got) != AXIAL_OK)
            fail(isa, "axial_stream_result: %s", axial_last_error());
        axial_stream_destroy(st);
        const size_t k = first_diff(c, got, want, c->count_out);
        if (k < c->count_out)
            fail(isa, "a sum stream of %zu pieces is not the one call: output %zu is 0x%llx, the "
                 "one call's 0x%llx", pieces, k, (unsigned long long)get_bits(es, got, k),
                 (unsigned long long)get_bits(es, want, k));
    }
    /* shards on the grid (grid 0: only empty pieces beside the whole) */
    fz_cuts(in, n, grid > 0 ? (size_t)grid : n + 1, pieces, cuts);
    if (rev)
        for (size_t i = 1; i < pieces; i++) /* the grid counts from the far end */
            cuts[i] = n - cuts[i];
    for (size_t i = 1; i < pieces; i++)
        for (size_t j = i; j > 0 && cuts[j] < cuts[j - 1]; j--) {
            const size_t t = cuts[j];
            cuts[j] = cuts[j - 1];
            cuts[j - 1] = t;
        }
    unsigned char *acc = NULL;
    size_t accz = 0;
    memset(got, 0x5a, c->count_out * es);
    for (size_t i = 0; i < pieces; i++) {
        const size_t j = rev ? pieces - 1 - i : i, a = cuts[j], L = cuts[j + 1] - cuts[j];
        fz_slab(x, piece, outer, n, inner, a, L, es, true);
        size_t z;
        if (axial_shard_summary_size(&sh, (int64_t)a, (int64_t)L, &z) != AXIAL_OK)
            fail(isa, "axial_shard_summary_size: %s", axial_last_error());
        unsigned char *sm = malloc(z);
        if (!sm || axial_shard_summarize(&sh, piece, (int64_t)a, (int64_t)L, sm, z) != AXIAL_OK)
            fail(isa, "axial_shard_summarize [%zu, %zu): %s", a, a + L, axial_last_error());
        if (op_scan(c->op)) {
            if (axial_shard_scan(&sh, piece, out, (int64_t)a, (int64_t)L, acc, accz) != AXIAL_OK)
                fail(isa, "axial_shard_scan [%zu, %zu): %s", a, a + L, axial_last_error());
            fz_slab(got, out, outer, n, inner, a, L, es, false);
        }
        if (acc == NULL) {
            acc = sm;
            accz = z;
            continue;
        }
        size_t need;
        if (axial_shard_combine(acc, accz, sm, z, NULL, 0, &need) != AXIAL_OK)
            fail(isa, "axial_shard_combine: %s", axial_last_error());
        unsigned char *nacc = malloc(need);
        if (!nacc || axial_shard_combine(acc, accz, sm, z, nacc, need, &need) != AXIAL_OK)
            fail(isa, "axial_shard_combine: %s", axial_last_error());
        free(acc);
        free(sm);
        acc = nacc;
        accz = need;
    }
    if (!op_scan(c->op) && axial_shard_finish(&sh, acc, accz, got) != AXIAL_OK)
        fail(isa, "axial_shard_finish: %s", axial_last_error());
    /* the scalar ISA's log-space ops (one state per LogCumSumExp line, a long
     * double state in the f64 ReduceLogSumExp) are within the bound only */
    const bool exact = !(op_lse(c->op) && isa == AXIAL_ISA_SCALAR);
    const size_t k = exact ? first_diff(c, got, want, c->count_out) : c->count_out;
    if (k < c->count_out) {
        fail(isa, "%zu shards on the grid (%lld along axis %lld; cuts %zu %zu) differ from the "
             "one call at output %zu: 0x%llx, the one call's 0x%llx", pieces, (long long)grid,
             (long long)cut, cuts[1], cuts[pieces > 1 ? 2 : 1], k,
             (unsigned long long)get_bits(es, got, k), (unsigned long long)get_bits(es, want, k));
    }
    free(acc);
    free(got);
    free(piece);
    free(out);
}

/* ---- every ISA against the oracle -------------------------------------------------------- */

static unsigned isa_mask;

/* The status the oracle expects of the call as run_one makes it: that of the
 * arguments (fuzz_oracle.c), then the buffers' (NULL, then overlap).
 * *either: ReduceSum with y == x where a tensor is empty (no byte shared)
 * may succeed or fail with AXIAL_E_OVERLAP. */
static int oracle_status(const fz_case *c, const fo_result *orc, bool *either,
                         const char **why) {
    *either = false;
    *why = orc->why;
    if (orc->status != FO_OK) return orc->status;
    *why = "valid arguments and buffers";
    if (c->special == SP_X_NULL && orc->count_in) {
        *why = "x is NULL and holds elements";
        return FO_E_NULL;
    }
    if (c->special == SP_Y_NULL && orc->count_out) {
        *why = "y is NULL and holds elements";
        return FO_E_NULL;
    }
    if (c->special == SP_OVERLAP || (op_reduce(c->op) && c->inplace && orc->count_in &&
                                     orc->count_out)) {
        *why = "x and y overlap";
        return FO_E_OVERLAP;
    }
    *either = op_reduce(c->op) && c->inplace;
    return FO_OK;
}

static void check_oracle(const fz_case *c, const void *x0, fz_result *res) {
    const fo_call oc = {oracle_op(c->op),
                        (int)c->dtype,
                        c->rank,
                        c->special == SP_SHAPE_NULL ? NULL : c->shape,
                        c->axis,
                        c->flags,
                        c->special == SP_AXES_NULL ? NULL : c->axes,
                        c->naxes,
                        c->special == SP_SHIFT_NULL ? NULL : c->shift,
                        c->nshift};
    fo_result orc;
    fo_run(&oc, NULL, &orc); /* the arguments and the sizes first */
    if (orc.status == FO_OK && (orc.count_in != c->count_in || orc.count_out != c->count_out)) {
        fprintf(stderr, "axial-fuzz: the fuzzer sized the call %zu -> %zu elements, the oracle "
                "%zu -> %zu\n", c->count_in, c->count_out, orc.count_in, orc.count_out);
        print_case(c);
        abort();
    }
    bool either, any_ok = false;
    const char *why;
    const int want = oracle_status(c, &orc, &either, &why);
    for (int i = 0; i < AX_NISA; i++) {
        if (!(isa_mask & (1u << i))) continue;
        const axial_status st = res[i].st;
        if ((int)st != want && !(either && (st == AXIAL_OK || st == AXIAL_E_OVERLAP)))
            fail((axial_isa)i, "oracle status: status %s, the oracle says %s (%s)",
                 axial_status_name(st), axial_status_name((axial_status)want), why);
        any_ok |= st == AXIAL_OK;
    }
    if (!any_ok || c->count_out == 0) return;
    fo_run(&oc, x0, &orc);
    const bool exact = c->op == OP_ROLL || !fo_is_float(c->dtype);
    int simd0 = -1;
    for (int i = 0; i < AX_NISA; i++) {
        if (!(isa_mask & (1u << i))) continue;
        const axial_isa isa = (axial_isa)i;
        unsigned char *out = res[i].out;
        stats.compared++;
        if (op_lse(c->op)) {
            compare_lse(c, isa, out, &orc);
        } else if (exact) {
            compare_exact(c, isa, out, &orc);
        } else {
            if (inject == INJ_SUM_BOUND) inject_sum_bound(c, isa, out, &orc);
            compare_sum(c, isa, out, &orc);
            /* the SIMD ISAs sum in one order: the same bits (docs/API.md,
             * section 7), NaN payloads aside */
            if (isa == AXIAL_ISA_SCALAR) continue;
            if (simd0 < 0) {
                simd0 = i;
                continue;
            }
            const size_t k = first_diff(c, res[simd0].out, out, c->count_out);
            if (k < c->count_out)
                fail(isa, "cross-ISA bits: output %zu of %zu: %s 0x%llx, %s 0x%llx (one order "
                     "on every SIMD ISA)", k, c->count_out, axial_isa_name((axial_isa)simd0),
                     (unsigned long long)get_bits(c->esize, res[simd0].out, k),
                     axial_isa_name(isa), (unsigned long long)get_bits(c->esize, out, k));
        }
    }
    fo_free(&orc);
}

/* ---- the entry point --------------------------------------------------------------------- */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    isa_mask = axial_isa_available();
    const char *why = fo_selfcheck();
    if (why) {
        fprintf(stderr, "axial-fuzz: the oracle fails its own check: %s\n", why);
        exit(2);
    }
    fprintf(stderr, "axial-fuzz: checking against the oracle:");
    for (int i = 0; i < AX_NISA; i++)
        if (isa_mask & (1u << i)) fprintf(stderr, " %s", axial_isa_name((axial_isa)i));
    fprintf(stderr, "\n");
    /* AXIAL_TEST_REQUIRE_ISA (scripts/test.sh: every ISA of the CPU): one
     * missing from the fuzzed ISAs ends the run */
    for (int i = 0; i < AX_NISA; i++) {
        const char *name = axial_isa_name((axial_isa)i);
        if (ax_in_list(getenv("AXIAL_TEST_REQUIRE_ISA"), name) && !(isa_mask & (1u << i))) {
            fprintf(stderr, "axial-fuzz: %s is required by AXIAL_TEST_REQUIRE_ISA but not "
                            "available (mask 0x%x)\n", name, isa_mask);
            exit(2);
        }
    }
    const char *inj = getenv("AX_FUZZ_INJECT");
    if (inj && inj[0]) {
        for (int k = 1; k < INJ_N; k++)
            if (strcmp(inj, inject_names[k]) == 0) inject = k;
        if (!inject) {
            fprintf(stderr, "axial-fuzz: unknown AX_FUZZ_INJECT=%s\n", inj);
            exit(2);
        }
        fprintf(stderr, "axial-fuzz: self-test: injecting '%s' faults\n", inj);
    }
    const char *s = getenv("AX_FUZZ_STATS");
    if (s && s[0] == '1') atexit(print_stats);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_in in = {data, size, 0, 0xcbf29ce484222325ull};
    for (size_t i = 0; i < size; i++) in.rng = (in.rng ^ data[i]) * 0x100000001b3ull;
    if (!isa_mask) isa_mask = axial_isa_available();
    fz_case c;
    memset(&c, 0, sizeof c);
    decode(&in, &c);
    size_case(&c);
    cur_case = &c;
    stats.runs++;

    /* the special pointer modes that need elements */
    if (c.special == SP_OVERLAP) {
        /* y starts off elements from x, overlapping it without being it */
        if (c.count_in == 0 || c.count_out == 0 || c.op == OP_SHAPE) {
            c.special = SP_NONE;
        } else {
            const size_t span = c.count_in + c.count_out - 1;
            c.overlap_off = (ptrdiff_t)((c.special_arg >> 3) % span) - (ptrdiff_t)(c.count_out - 1);
            if (c.overlap_off == 0 && c.count_in == c.count_out) {
                c.special = SP_NONE; /* that is y == x */
                c.inplace = c.op != OP_SHAPE;
            }
        }
        c.inplace = c.special == SP_OVERLAP ? false : c.inplace;
    }
    if (op_reduce(c.op) && c.inplace && c.count_out != c.count_in) {
        /* y == x with a different size: still an overlap, the buffer holds both */
        if (c.count_out > c.count_in) c.inplace = false;
    }

    unsigned char *x0 = malloc(c.count_in * c.esize + 1);
    if (!x0) abort();
    fill_data(&in, &c, x0);

    fz_result res[AX_NISA];
    memset(res, 0, sizeof res);
    for (int i = 0; i < AX_NISA; i++) {
        if (!(isa_mask & (1u << i))) continue;
        const axial_isa isa = (axial_isa)i;
        if (axial_isa_select(isa) != AXIAL_OK) fail(isa, "axial_isa_select failed");
        if (axial_isa_active() != isa) fail(isa, "axial_isa_active() is %d", axial_isa_active());
        run_one(&c, isa, x0, &res[i]);
    }

    const fz_result *s = &res[AXIAL_ISA_SCALAR];
    /* checks of the scalar run against the model and the contract (docs/API.md) */
    if (c.special == SP_OVERLAP && s->st == AXIAL_OK)
        fail(AXIAL_ISA_SCALAR, "x and y overlap partially (y = x %+td elements), status OK",
             c.overlap_off);
    if (op_reduce(c.op) && c.inplace && c.count_in > 0 && c.count_out > 0 &&
        ax_dtype_valid(c.dtype) && c.dtype != AXIAL_BOOL && s->st == AXIAL_OK)
        fail(AXIAL_ISA_SCALAR, "%s with y == x returned OK", op_names[c.op]);
    /* the log-space ops: a non-float dtype is refused before anything else */
    if (op_lse(c.op) && !ax_dtype_is_float(c.dtype) && s->st != AXIAL_E_DTYPE)
        fail(AXIAL_ISA_SCALAR, "%s of a non-float dtype: status %s, want AXIAL_E_DTYPE",
             op_names[c.op], axial_status_name(s->st));
    if (op_lse(c.op) && !ax_dtype_is_float(c.dtype) && ax_dtype_valid(c.dtype) &&
        !strstr(axial_last_error(), c.dtype == AXIAL_BOOL ? "BOOL" : "integer"))
        fail(AXIAL_ISA_SCALAR, "%s of %s: the message does not say so: %s", op_names[c.op],
             dt_name(c.dtype), axial_last_error());
    if (c.op == OP_SHAPE ||
        (c.op == OP_REDUCE && ax_dtype_valid(c.dtype) && c.dtype != AXIAL_BOOL) ||
        (c.op == OP_RLSE && ax_dtype_is_float(c.dtype))) {
        size_t orank = 0;
        int64_t oshape[AX_RANK_BAD + 1];
        const bool ornull = c.op == OP_SHAPE && c.special == SP_OUT_NULL && !(c.special_arg & 8);
        const bool osnull = c.op == OP_SHAPE && c.special == SP_OUT_NULL && (c.special_arg & 8);
        const axial_status want = model_shape(
            c.rank, c.special == SP_SHAPE_NULL ? NULL : c.shape,
            c.special == SP_AXES_NULL ? NULL : c.axes, c.naxes, c.flags, ornull, osnull,
            c.op == OP_SHAPE ? 1 : c.esize, &orank, oshape);
        if (c.op == OP_SHAPE) {
            if (s->st != want)
                fail(AXIAL_ISA_SCALAR, "status %s, the model says %s", axial_status_name(s->st),
                     axial_status_name(want));
            if (want == AXIAL_OK) {
                if (s->orank != orank)
                    fail(AXIAL_ISA_SCALAR, "out_rank %zu, the model says %zu", s->orank, orank);
                for (size_t k = 0; k < orank; k++)
                    if (s->oshape[k] != oshape[k])
                        fail(AXIAL_ISA_SCALAR, "out_shape[%zu] = %lld, the model says %lld", k,
                             (long long)s->oshape[k], (long long)oshape[k]);
                for (size_t k = orank; k <= AX_RANK_BAD; k++)
                    if (s->oshape[k] != -7)
                        fail(AXIAL_ISA_SCALAR, "out_shape[%zu] written past out_rank %zu", k,
                             orank);
            }
        } else if (want != AXIAL_OK && s->st != want) {
            /* reduce_sum fails as its shape query (on its element size) does */
            fail(AXIAL_ISA_SCALAR, "status %s, the shape checks say %s", axial_status_name(s->st),
                 axial_status_name(want));
        } else if (want == AXIAL_OK && s->st == AXIAL_OK) {
            size_t n = 1;
            for (size_t k = 0; k < orank; k++) n *= (size_t)oshape[k];
            if (n != c.count_out) abort(); /* the fuzzer's own sizing */
        }
    }

    /* every ISA: the status of the scalar run (the same checks, one order)
     * and the shape query's output */
    for (int i = 1; i < AX_NISA; i++) {
        if (!(isa_mask & (1u << i))) continue;
        const axial_isa isa = (axial_isa)i;
        const fz_result *r = &res[i];
        if (r->st != s->st)
            fail(isa, "status %s, scalar %s", axial_status_name(r->st), axial_status_name(s->st));
        if (c.op == OP_SHAPE && r->st == AXIAL_OK &&
            (r->orank != s->orank || memcmp(r->oshape, s->oshape, sizeof r->oshape) != 0))
            fail(isa, "reduce_sum_shape output differs from scalar's");
    }
    if (c.op != OP_SHAPE) check_oracle(&c, x0, res);
    /* each ISA's streams and shards against its own one call (not while a
     * fault is injected into the one-call runs: the self-tests aim at the
     * checks above) */
    for (int i = 0; i < AX_NISA && !inject; i++) {
        if (!(isa_mask & (1u << i)) || res[i].st != AXIAL_OK) continue;
        if (axial_isa_select((axial_isa)i) != AXIAL_OK) fail((axial_isa)i, "axial_isa_select failed");
        check_pieces(&c, (axial_isa)i, x0, res[i].out, &in);
    }
    for (int i = 0; i < AX_NISA; i++) free(res[i].out);
    free(x0);
    cur_case = NULL;
    return 0;
}
