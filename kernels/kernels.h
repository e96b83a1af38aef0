/* SPDX-License-Identifier: MIT */
/*
 * kernels.h: the kernel signatures, one typedef per op family, and the per-ISA tables.
 *
 * The planner (src/) reduces every N-D call to contiguous shapes:
 *   scan      (outer, n, inner): y[o][j][i] = sum of x[o][0..j][i]  (flags: exclusive/reverse)
 *   reduce    (outer, n, inner): y[o][i]    = sum over j of x[o][j][i]
 *   reduce_acc(outer, n, inner): acc[o][i] += sum over j of x[o][j][i]   (wide accumulator)
 *   reduce_finish(count):        y[k] = acc[k] rounded to the element type
 *   roll      (outer, n, shift): y[o][(j + shift) mod n] = x[o][j]       (0 <= shift < n;
 *                                  flags: AXIAL_KERNEL_STREAM only)
 * so a kernel loops over its shape itself: no indirect call per row, and no N-D logic in any kernel.  Kernels
 * trust their arguments (all checking is in src/): n >= 1, outer and inner >= 1, pointers valid for the whole
 * shape.
 *
 * The wide accumulator of reduce_acc / reduce_finish is 8 bytes per output: double for the float types (F32,
 * F64, F16, BF16), uint64_t for the integer types (the low bits of a wrapping uint64_t sum are the wrapped
 * sum).
 *
 * A scan may be called in place (y == x): a kernel reads x[o][j][i] before it writes y[o][j][i] and never
 * reads an element after writing it.
 */
#ifndef AXIAL_KERNELS_H
#define AXIAL_KERNELS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "axial.h"
#include "entries.h"

/* Streaming stores: a kernel whose call writes at least AXIAL_STREAM_BYTES may write its aligned full lines
 * with non-temporal stores, then fence; a split call's tasks are told so by AXIAL_KERNEL_STREAM in `flags`.
 * Values never change.  The threshold is the last-level cache's size as the C library reports it, clamped to
 * [AXIAL_STREAM_MIN, AXIAL_STREAM_MAX] (a VM may report its host's whole L3), set once before the first kernel
 * runs (src/dispatch.c). */
#define AXIAL_STREAM_MIN ((size_t)4 << 20)
#define AXIAL_STREAM_MAX ((size_t)32 << 20)
#if defined(__GNUC__)
extern __attribute__((visibility("hidden"))) size_t axial__stream_bytes;
#else
extern size_t axial__stream_bytes;
#endif
#define AXIAL_STREAM_BYTES axial__stream_bytes
#define AXIAL_KERNEL_STREAM 0x200u

/* The kernels' one spelling of forced inlining, and of its opposite: a helper that must become part of its
 * caller's loop (a body over a const kind, a vector load or store), and a path that must stay one copy. */
#define AXIAL_INLINE static inline __attribute__((always_inline))
#define AXIAL_NOINLINE static __attribute__((noinline))
#ifdef __clang__ /* and one copy, not one a constant argument (GCC clones noinline functions for those) */
#define AXIAL_NOCLONE AXIAL_NOINLINE
#else
#define AXIAL_NOCLONE static __attribute__((noinline, noclone))
#endif

/* Row prefetch: the row-reduction loops prefetch each group's lines AXIAL_ROWS_PF_AHEAD bytes ahead, in inputs
 * of AXIAL_ROWS_PF_MIN bytes or more (left to the hardware prefetchers, these loops, which read several rows
 * at once, wait on memory far longer than a plain sequential read does; a smaller input sits in the L2 cache,
 * where the prefetches only add work).  A prefetch never faults and changes no value, so it may reach past the
 * input's end. */
#define AXIAL_ROWS_PF_AHEAD 16384
#ifndef AXIAL_ROWS_PF_MIN /* (overridable only for measurements) */
#define AXIAL_ROWS_PF_MIN ((size_t)2 << 20)
#endif
AXIAL_INLINE void axial_prefetch_ahead(const void *p, size_t bytes) {
    for (size_t o = 0; o < bytes; o += 64)
        __builtin_prefetch((const char *)p + AXIAL_ROWS_PF_AHEAD + o, 0, 3);
}

#define AXIAL_NDTYPE 14 /* dtype enum values are 1..13; slot 0 is unused */
#define AXIAL_NROLL 4   /* roll kernels by element size: 1, 2, 4, 8 bytes */

typedef void axial_cumsum_kernel(const void *x, void *y, size_t outer, size_t n, size_t inner, unsigned flags);
typedef void axial_reduce_kernel(const void *x, void *y, size_t outer, size_t n, size_t inner, unsigned flags);
typedef void axial_reduce_acc_kernel(const void *x, void *acc, size_t outer, size_t n, size_t inner);
typedef void axial_reduce_finish_kernel(const void *acc, void *y, size_t count);
typedef void axial_roll_kernel(const void *x, void *y, size_t outer, size_t n, size_t shift, unsigned flags);

/*
 * The split paths' kernels (docs/API.md, "One summation order"; the reference is tests/order_ref.c).  Entries
 * may be NULL (the scalar table leaves them NULL, a SIMD table fills its float ones): the planner then does
 * not split that way.  Each gives exactly the bits of the whole-shape kernel of its ISA on the same elements,
 * so a split never changes a result.
 *
 *   cumsum_seg(x, y, len, flags, carry): a segment of len elements of one line (inner == 1) starting at a
 *     chunk boundary of the line's scan order (AXIAL_SCAN_CHUNK elements; with REVERSE the segment's k = 0 is
 *     x[len - 1]), scanned from the chunk carry `carry`; AXIAL_SCAN_CONTINUE in flags: the segment does not
 *     start its line.  Returns R after the segment: the carry of the chunk that follows it (R + the S of each
 *     of its chunks, in order), meaningful when the segment ends on a chunk boundary (a partial chunk ends its
 *     line: no carry follows it).  The whole-line kernel is cumsum_seg(line, n, flags, -0.0).
 *   scan_total(x, len, flags): the total S of one chunk of len elements (a multiple of 16), as cumsum_seg adds
 *     it to the next chunk's carry.
 *   cumsum_cols(x, y, n, ncols, stride, flags): columns [0, ncols) of an (n, stride) matrix (rows `stride`
 *     elements apart), each scanned alone.
 *   reduce_cols(x, acc, n, ncols, stride): acc[c] += column c of an (n, stride) matrix, for c < ncols, in the
 *     column order of inner >= 16.
 */
typedef double axial_cumsum_seg_kernel(const void *x, void *y, size_t len, unsigned flags, double carry);
/*   cumsum_run(x, y, len, flags, ds): len elements (a multiple of 16) of one line, whole blocks that start on
 *     a block boundary inside one chunk and do not pass its end, scanned from the carries ds[0] = D and ds[1]
 *     = S of that chunk (docs/API.md, "One summation order"), which it leaves in ds as they are after the
 *     blocks; AXIAL_SCAN_CONTINUE as for cumsum_seg.  A stream's pieces that start or end inside a chunk go
 *     through it (src/stream.c). */
typedef void axial_cumsum_run_kernel(const void *x, void *y, size_t len, unsigned flags, double *ds);
/*   cumsum_cols_run(x, y, n, ncols, stride, flags, acc): columns [0, ncols) of an (n, stride) matrix, each
 *     scanned from its f64 running sum acc[c] (the order of inner > 1), which it leaves in acc;
 *     AXIAL_SCAN_CONTINUE: the rows do not start their lines.  f32 and f64 only (NULL for the others);
 *     kernels/ops/cumsum.h (the scalar ISA's streams: src/order.c). */
typedef void axial_cumsum_cols_run_kernel(const void *x, void *y, size_t n, size_t ncols,
                                          size_t stride, unsigned flags, double *acc);
typedef double axial_scan_total_kernel(const void *x, size_t len, unsigned flags);
typedef void axial_cumsum_cols_kernel(const void *x, void *y, size_t n, size_t ncols,
                                      size_t stride, unsigned flags);
typedef void axial_reduce_cols_kernel(const void *x, void *acc, size_t n, size_t ncols, size_t stride);
/* reduce_run(x, len, a): a[0..16) += the 16 position sums of len elements of a row (len % 128 == 0) */
typedef void axial_reduce_run_kernel(const void *x, size_t len, double *a);

/* The one summation order's constants: the lanes of a virtual vector (and the column count from which
 * ReduceSum sums columns alone), the elements of a scan chunk, and the internal flag of a segment that does
 * not start its line (above the public CumSum flags). */
#define AXIAL_ORDER_LANES 16
#define AXIAL_SCAN_CHUNK ((size_t)16384)
#define AXIAL_SCAN_CONTINUE 0x100u /* (AXIAL_KERNEL_STREAM, above, is 0x200) */

/*
 * The log semiring (LogCumSumExp, ReduceLogSumExp; float dtypes only, the other entries NULL):
 *   logcumsumexp (outer, n, inner): y[o][j][i] = log(sum of exp(x[o][0..j][i])) (flags: exclusive/reverse;
 *                      same signature as cumsum)
 *   reduce_lse   (outer, n, inner): y[o][i]    = log(sum over j of exp(x[o][j][i]))
 *   reduce_lse_acc(outer, n, inner): acc[o][i] (+)= the terms x[o][j][i]
 *   reduce_lse_finish(count):       y[k] = value of acc[k], rounded once
 * and, like the sums' split kernels (NULL in the scalar table, which then does not split that way), two
 * column-tile entries for the planners' column tiles along an outer axis:
 *   logcumsumexp_cols(x, y, n, ncols, stride, flags): columns [0, ncols) of an (n, stride) matrix (rows
 *     `stride` elements apart), each scanned;
 *   reduce_lse_cols(x, y, n, ncols, stride): y[c] = the ReduceLogSumExp of column c of an (n, stride) matrix,
 *     rounded, for c < ncols.
 *   Both give exactly the bits that logcumsumexp / reduce_lse (outer = 1, inner = stride) give those columns,
 *   provided the tile starts on a 64-byte line of its row (a whole number of the kernels' column groups from
 *   the row's start) and ends on one or at the row's end: the planner cuts tiles so.  (They share the types of
 *   cumsum_cols and reduce_cols; reduce_lse_cols writes outputs, not accumulators.)
 * The wide accumulator is an axial_lse_acc per output (16 bytes): the value m + log(s), with s the sum of
 * exp(term - m) in double.  States:
 *   empty (no term, or only -inf terms): m = -inf, s = 0 (AXIAL_LSE_EMPTY); a NaN term seen: m = NaN; else a
 *   +inf term seen: m = +inf; else m is finite and s >= 1 when m is the largest term so far (kernels may keep
 *   any finite m: the value is the same up to rounding).
 * axial_lse_add merges a state into another; the planner combines partial accumulators with it in a fixed
 * order, so the bits never depend on threads.
 */
typedef struct {
    double m, s;
} axial_lse_acc;
#define AXIAL_LSE_EMPTY ((axial_lse_acc){-INFINITY, 0.0})

/* *a (+)= (m, s): the log-semiring sum of two states (see above). */
static inline void axial_lse_add(axial_lse_acc *a, double m, double s) {
    if (isnan(a->m) || m == -INFINITY)
        return; /* NaN stays NaN; an empty state adds nothing */
    if (isnan(m) || a->m == -INFINITY || m == INFINITY || a->m == INFINITY) {
        if (!(a->m == INFINITY && !isnan(m))) /* NaN wins, then +inf */
            a->m = m, a->s = s;
        return;
    }
    if (m > a->m) {
        a->s = a->s * exp(a->m - m) + s;
        a->m = m;
    } else {
        a->s += s * exp(m - a->m);
    }
}

/* The value of a state, in double: NaN, +inf, -inf (empty) or m + log(s). */
static inline double axial_lse_value(axial_lse_acc a) {
    if (!isfinite(a.m))
        return a.m;
    return a.m + log(a.s);
}

/* The step of a state (m, s) of type A (double or long double) by a term v (the scalar kernels', streams' and
 * SIMD kernels' scalar step), and its value. */
#define AXIAL_LSE_STEP(A, EXP, m, s, v)                                                 \
    do { /* NaN stays, +inf stays (but for a NaN), -inf adds nothing */                 \
        if (isnan(m) || (v) == -(A)INFINITY || ((m) == (A)INFINITY && !isnan(v)))      \
            break;                                                                      \
        if (isnan(v) || (v) == (A)INFINITY || (m) == -(A)INFINITY)                       \
            (m) = (v), (s) = 1;                                                         \
        else if ((v) > (m))                                                              \
            (s) = (s) * EXP((m) - (v)) + 1, (m) = (v);                                  \
        else                                                                            \
            (s) += EXP((v) - (m));                                                      \
    } while (0)
#define AXIAL_LSE_VALUE(m, s, LOG) (isfinite(m) ? (m) + LOG(s) : (m))

/*
 * LogCumSumExp's split along one line (inner == 1), like CumSum's (NULL in the scalar table: its lines are
 * never split).  A line is scanned in chunks of AXIAL_SCAN_CHUNK from its scan start, each from an empty
 * state; a chunk's outputs are those of the carry R (the earlier chunks' totals merged by axial_lse_add in
 * order) followed by its own state, and its total, its final state, does not depend on R.  The whole-line
 * kernel is logcumsumexp_seg(line, n, flags, AXIAL_LSE_EMPTY), so a split keeps its bits.
 *   logcumsumexp_seg(x, y, len, flags, carry): a segment from a chunk boundary (REVERSE: its first element is
 *     x[len - 1]; AXIAL_SCAN_CONTINUE: not the line's start, whose head differs); returns carry (+) each
 *     chunk's total, meaningful when the segment ends on a chunk boundary;
 *   lse_scan_total(x, len, flags): the total of one chunk.
 */
/* reduce_lse_run(x, ls, acc, n, ncols, stride), for streams (no scalar one): n rows from the lane states ls (m
 * of lane i at ls[i], s at ls[C + i], C = ncols rounded up to 16; a line's lanes: its vector positions); acc
 * NULL: whole blocks (16 rows, 256 line elements), the states back to ls; else ending as the whole-shape
 * kernels, acc[c] (+)= the state.  Empty lane: m = -MAX of the lane type, s = 0; m NaN: a NaN seen. */
typedef void axial_lse_run_kernel(const void *x, double *ls, axial_lse_acc *acc, size_t n,
                                  size_t ncols, size_t stride);
typedef axial_lse_acc axial_lse_seg_kernel(const void *x, void *y, size_t len, unsigned flags,
                                           axial_lse_acc carry);
typedef axial_lse_acc axial_lse_total_kernel(const void *x, size_t len, unsigned flags);
/* Streams (no scalar ones).  logcumsumexp_run(x, y, len, flags, st, pos): a line's scan positions [pos, pos +
 * len) from the piece x (REVERSE: from x[len - 1]) into y, from st and back: R the chunks ended, (m, S) the
 * chunk begun (empty: -MAX of the lane type, 0), the terms of a vector begun. logcumsumexp_cols_run(x, y, n,
 * ncols, flags, ls, pos): n rows of ncols columns from their states and back: m, s, the block begun's f and S
 * at ls[i], ls[C + i], ls[2 C + i], ls[3 C + i], C = ncols rounded up to 16 (empty: m -MAX, the rest 0; S is s
 * in the lane type, written, not read). */
typedef struct {
    axial_lse_acc R;
    double m, S;
    unsigned char held[64];
} axial_lse_line;
typedef void axial_lse_line_run_kernel(const void *x, void *y, size_t len, unsigned flags,
                                       axial_lse_line *st, uint64_t pos);
typedef void axial_lse_cols_run_kernel(const void *x, void *y, size_t n, size_t ncols,
                                       unsigned flags, double *ls, uint64_t pos);

/*
 * One table per ISA, its fields those of the list in kernels/entries.h.  An ISA's table may leave entries
 * NULL: dispatch starts from the scalar table and overrides only the entries an ISA provides.  Each folder
 * declares its kernels with AXIAL_DECLARE_KERNELS(<isa>) and defines its table.c with
 * AXIAL_DEFINE_KERNEL_TABLE(<isa>).
 */
struct axial_kernels {
    AXIAL_KERNEL_ENTRIES(AXIAL_KERNEL_FIELD_, 0)
};

extern const struct axial_kernels axial_kernels__scalar;
#ifdef AXIAL_HAVE_AVX2
extern const struct axial_kernels axial_kernels__avx2;
#endif
#ifdef AXIAL_HAVE_AVX512
extern const struct axial_kernels axial_kernels__avx512;
#endif
#ifdef AXIAL_HAVE_NEON
extern const struct axial_kernels axial_kernels__neon;
#endif

#endif /* AXIAL_KERNELS_H */
