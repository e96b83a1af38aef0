/* SPDX-License-Identifier: MIT */
/*
 * axial: SIMD CPU kernels for CumSum, ReduceSum, Roll, LogCumSumExp and
 * ReduceLogSumExp.
 *
 * Semantics: OpenVINO CumSum-3 / ReduceSum-1 / Roll-7 and ONNX CumSum-11/14,
 * ReduceSum-13.  The full reference (every argument and status, the semantics
 * tables, accuracy, memory and stack use, threads) is docs/API.md; these
 * comments are its summary.
 *
 * Tensors are dense, row-major (C order): a pointer to the first element, a
 * dtype, a rank (0..AXIAL_MAX_RANK) and `rank` int64_t dimensions (>= 0; the
 * byte size must fit in ptrdiff_t).  An axis is in [-rank, rank-1]; negative
 * counts from the back.  x is the input, y the output; a tensor pointer may be
 * NULL only when the tensor has no elements, and needs only element alignment.
 *
 * Every function is reentrant and thread-safe.  The plain forms run on the
 * calling thread; an _ex form runs its tasks on the executor it is given
 * (the host's, or axial's pool) and returns when they are done.  No function
 * but axial_pool_create starts a thread.
 * On any error nothing is written to the output and axial_last_error() says
 * why, naming the values.
 */
#ifndef AXIAL_H
#define AXIAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the exported functions (the library is built with hidden visibility). */
#if defined(_WIN32) && defined(AXIAL_BUILDING_DLL)
#define AXIAL_API __declspec(dllexport)
#elif defined(__GNUC__)
#define AXIAL_API __attribute__((visibility("default")))
#else
#define AXIAL_API
#endif

#define AXIAL_VERSION_MAJOR 0
#define AXIAL_VERSION_MINOR 6
#define AXIAL_VERSION_PATCH 0
/* 10000 * major + 100 * minor + patch, e.g. 600 for 0.6.0. */
#define AXIAL_VERSION (AXIAL_VERSION_MAJOR * 10000 + AXIAL_VERSION_MINOR * 100 + AXIAL_VERSION_PATCH)

/* The AXIAL_VERSION of the library loaded at run time: compare it with the
 * header's AXIAL_VERSION to detect a header/library mismatch. */
AXIAL_API unsigned axial_version(void);

/* The largest rank any function accepts (a rank above it is AXIAL_E_RANK). */
#define AXIAL_MAX_RANK 16

/* Element types (ABI: the values are fixed).  The output has the input's type.
 * Integer sums wrap modulo 2^bits; f16/bf16 are summed wider and rounded once
 * per output (docs/API.md, sections 2 and 7). */
typedef enum {
    AXIAL_F32 = 1,  /* float                                   */
    AXIAL_F64 = 2,  /* double                                  */
    AXIAL_F16 = 3,  /* uint16_t holding IEEE binary16 bits      */
    AXIAL_BF16 = 4, /* uint16_t holding bfloat16 bits           */
    AXIAL_I8 = 5,
    AXIAL_U8 = 6,
    AXIAL_I16 = 7,
    AXIAL_U16 = 8,
    AXIAL_I32 = 9,
    AXIAL_U32 = 10,
    AXIAL_I64 = 11,
    AXIAL_U64 = 12,
    AXIAL_BOOL = 13 /* uint8_t 0/1; Roll only                   */
} axial_dtype;

/* Status codes (ABI: the values are fixed).  Every cause and message:
 * docs/ERRORS.md. */
typedef enum {
    AXIAL_OK = 0,
    AXIAL_E_NULL = 1,    /* a needed pointer is NULL                          */
    AXIAL_E_DTYPE = 2,   /* unknown type, or one the op refuses               */
    AXIAL_E_RANK = 3,    /* rank 0 where the op needs >= 1, or > MAX_RANK     */
    AXIAL_E_SHAPE = 4,   /* a negative dimension, or a size that overflows    */
    AXIAL_E_AXIS = 5,    /* an axis outside [-rank, rank-1]                   */
    AXIAL_E_ARGS = 6,    /* inconsistent counts or flags                      */
    AXIAL_E_OVERLAP = 7, /* input and output overlap where the op forbids it  */
    AXIAL_E_ISA = 8,     /* an ISA that is not available here                 */
    AXIAL_E_NOMEM = 9    /* a heap allocation failed (docs/API.md, 12)    */
} axial_status;

/* The name of a status ("AXIAL_OK", ...); "AXIAL_E_UNKNOWN" for any other
 * value.  A static string, never NULL. */
AXIAL_API const char *axial_status_name(axial_status status);
/* The calling thread's message for its last failed call ("" if none), at most
 * 255 bytes, e.g. "axial_cumsum: axis 5 is outside [-2, 1]".  Successful calls
 * leave it unchanged.  Valid until the thread's next failure or its exit. */
AXIAL_API const char *axial_last_error(void);

/* ---- CumSum ------------------------------------------------------------ */

/* Exclusive: an output leaves out its own element (so the first one, in the
 * scan's direction, is the empty sum 0). */
#define AXIAL_CUMSUM_EXCLUSIVE 1u
/* Reverse: sum from the far end of the axis toward index 0. */
#define AXIAL_CUMSUM_REVERSE 2u

/*
 * Cumulative sum of x along `axis`; y has x's shape (as many elements as x).
 * For x = [1, 2, 3, 4, 5]:  flags 0 gives [1, 3, 6, 10, 15];  EXCLUSIVE
 * [0, 1, 3, 6, 10];  REVERSE [15, 14, 12, 9, 5];  both [14, 12, 9, 5, 0].
 *   dtype: any but AXIAL_BOOL.  rank >= 1.  axis in [-rank, rank-1].
 *   flags: 0 or AXIAL_CUMSUM_EXCLUSIVE | AXIAL_CUMSUM_REVERSE.
 *   y == x (in place) is allowed; any other overlap is refused.
 *   An empty tensor: nothing is read or written.
 * Returns AXIAL_OK, AXIAL_E_DTYPE, AXIAL_E_RANK, AXIAL_E_NULL, AXIAL_E_SHAPE,
 * AXIAL_E_AXIS, AXIAL_E_ARGS (unknown flag bits) or AXIAL_E_OVERLAP.
 * docs/API.md, section 4.
 */
AXIAL_API axial_status axial_cumsum(axial_dtype dtype, const void *x, void *y,
                                    size_t rank, const int64_t *shape,
                                    int64_t axis, unsigned flags);

/* ---- ReduceSum --------------------------------------------------------- */

/* Reduced axes stay in the output with length 1. */
#define AXIAL_REDUCE_KEEP_DIMS 1u
/* naxes == 0 reduces every axis (ONNX-13's default).  Without it naxes == 0
 * reduces none: y is a copy of x (OpenVINO ReduceSum-1). */
#define AXIAL_REDUCE_EMPTY_AXES_ALL 2u

/*
 * The output rank and shape of axial_reduce_sum for the same arguments, with
 * the same checks.  *out_rank <= rank; out_shape needs room for `rank`
 * entries and may be NULL when the output rank is 0.  Nothing is written on
 * error.  Returns AXIAL_OK, AXIAL_E_RANK, AXIAL_E_NULL, AXIAL_E_SHAPE,
 * AXIAL_E_ARGS or AXIAL_E_AXIS.  docs/API.md, section 5.
 */
AXIAL_API axial_status axial_reduce_sum_shape(size_t rank, const int64_t *shape,
                                              const int64_t *axes, size_t naxes,
                                              unsigned flags, size_t *out_rank,
                                              int64_t *out_shape);
/*
 * Sum of x over axes[0..naxes-1] (any order; a repeated axis counts once).
 * y holds the product of the output shape's dimensions (see
 * axial_reduce_sum_shape; 1 element for rank 0) and must not overlap x, not
 * even y == x.  Reducing over an axis of length 0 gives 0.
 *   dtype: any but AXIAL_BOOL.  rank 0..AXIAL_MAX_RANK (rank 0: a copy).
 *   flags: 0 or AXIAL_REDUCE_KEEP_DIMS | AXIAL_REDUCE_EMPTY_AXES_ALL.
 * Returns AXIAL_OK, AXIAL_E_DTYPE, AXIAL_E_RANK, AXIAL_E_NULL, AXIAL_E_SHAPE,
 * AXIAL_E_ARGS, AXIAL_E_AXIS, AXIAL_E_OVERLAP or AXIAL_E_NOMEM (only when the
 * reduced axes form several separate groups: 8 bytes of scratch per output,
 * 16 where the first reduced axis is longer than one cell of the order).
 * docs/API.md, section 5.
 */
AXIAL_API axial_status axial_reduce_sum(axial_dtype dtype, const void *x, void *y,
                                        size_t rank, const int64_t *shape,
                                        const int64_t *axes, size_t naxes,
                                        unsigned flags);

/* ---- Roll -------------------------------------------------------------- */

/*
 * Rolls x along axes[0..naxes-1]; y has x's shape (as many elements as x).
 * Along an axis of length d rolled by s:  y[(i + s) mod d] = x[i]  (a positive
 * shift moves elements toward higher indices, as numpy.roll; [1, 2, 3, 4, 5]
 * by 2 gives [4, 5, 1, 2, 3]).
 *   nshift == naxes: shift[a] rolls axes[a];  nshift == 1: shift[0] rolls
 *   every named axis;  nshift == 0, or any other count: AXIAL_E_ARGS.
 *   naxes == 0 (with nshift == 1): the tensor is rolled as if flattened, then
 *   reshaped (numpy.roll without axis); only then may rank be 0 (a copy).
 *   A repeated axis adds its shifts.  Any int64 shift is valid (taken modulo
 *   the dimension, INT64_MIN included).
 *   dtype: any, AXIAL_BOOL included (bytes are moved, never interpreted).
 *   y == x (in place) is allowed, through a heap copy of x (AXIAL_E_NOMEM if
 *   that fails); any other overlap is refused.
 * Returns AXIAL_OK, AXIAL_E_DTYPE, AXIAL_E_RANK, AXIAL_E_NULL, AXIAL_E_SHAPE,
 * AXIAL_E_ARGS, AXIAL_E_AXIS, AXIAL_E_OVERLAP or AXIAL_E_NOMEM.
 * docs/API.md, section 6.
 */
AXIAL_API axial_status axial_roll(axial_dtype dtype, const void *x, void *y,
                                  size_t rank, const int64_t *shape,
                                  const int64_t *shift, size_t nshift,
                                  const int64_t *axes, size_t naxes);

/* ---- LogCumSumExp and ReduceLogSumExp (the log semiring) --------------- */

/*
 * log(exp(x[0]) + ... + exp(x[j])) along `axis`, with the rules of
 * axial_cumsum (shapes, axis, the flags EXCLUSIVE and REVERSE, in place
 * allowed, other overlap refused).  For x = [0, 0, 0]: flags 0 gives
 * [0, ln 2, ln 3]; EXCLUSIVE [-inf, 0, ln 2] (the empty sum of the log
 * semiring is -inf); REVERSE [ln 3, ln 2, 0]; both [ln 2, 0, -inf].
 *   dtype: AXIAL_F32, AXIAL_F64, AXIAL_F16 or AXIAL_BF16 (f16/bf16 computed
 *   in f32, rounded once per output); any other is AXIAL_E_DTYPE.
 * Special values, per output's terms: any NaN gives NaN (and every later
 * output of that line), else any +inf gives +inf, else all -inf (or none)
 * gives -inf; -inf terms add nothing.  Returns the codes of axial_cumsum.
 * docs/API.md, section 15.
 */
AXIAL_API axial_status axial_logcumsumexp(axial_dtype dtype, const void *x, void *y,
                                          size_t rank, const int64_t *shape,
                                          int64_t axis, unsigned flags);
/*
 * log(sum of exp(x)) over axes[0..naxes-1], with the rules of
 * axial_reduce_sum (axes, flags, output shape from axial_reduce_sum_shape, no
 * overlap).  No reduced axis (naxes == 0 without EMPTY_AXES_ALL, or rank 0)
 * gives a copy of x; an axis of length 0 gives -inf.  Types and special
 * values as axial_logcumsumexp.  Returns the codes of axial_reduce_sum
 * (AXIAL_E_NOMEM: 16 bytes of scratch per output when the reduced axes form
 * several separate groups, 32 with cells).  docs/API.md, section 15.
 */
AXIAL_API axial_status axial_reduce_logsumexp(axial_dtype dtype, const void *x, void *y,
                                              size_t rank, const int64_t *shape,
                                              const int64_t *axes, size_t naxes,
                                              unsigned flags);

/* ---- Parallel execution ------------------------------------------------ */

/* One task of a parallel loop: pthreadpool's 1-D task signature. */
typedef void (*axial_task_fn)(void *arg, size_t task);

/* The host's threads, lent to axial.  parallel_for calls fn(arg, i) exactly
 * once for every i in [0, ntasks), on any threads (the caller's included), in
 * any order, and returns when all have returned.  axial never calls it from
 * inside one of its tasks, and at most a few times per op call. */
typedef struct axial_executor {
    void (*parallel_for)(void *self, axial_task_fn fn, void *arg, size_t ntasks);
    void *self;         /* handed back to parallel_for                  */
    size_t concurrency; /* how many tasks it can run at once (>= 1)     */
} axial_executor;

/* The ops with an executor.  exec == NULL: the calling thread does all the
 * work (the plain function is exactly this).  exec->parallel_for == NULL is
 * AXIAL_E_NULL, exec->concurrency == 0 is AXIAL_E_ARGS.  Every argument is
 * checked before any task runs; on error no task runs and nothing is written.
 * The split depends on dtype, shape and arguments only, so the output is bit
 * for bit the plain function's for every executor, concurrency and task order. */
AXIAL_API axial_status axial_cumsum_ex(axial_dtype dtype, const void *x, void *y,
                                       size_t rank, const int64_t *shape, int64_t axis,
                                       unsigned flags, const axial_executor *exec);
AXIAL_API axial_status axial_reduce_sum_ex(axial_dtype dtype, const void *x, void *y,
                                           size_t rank, const int64_t *shape,
                                           const int64_t *axes, size_t naxes,
                                           unsigned flags, const axial_executor *exec);
AXIAL_API axial_status axial_roll_ex(axial_dtype dtype, const void *x, void *y,
                                     size_t rank, const int64_t *shape,
                                     const int64_t *shift, size_t nshift,
                                     const int64_t *axes, size_t naxes,
                                     const axial_executor *exec);
AXIAL_API axial_status axial_logcumsumexp_ex(axial_dtype dtype, const void *x, void *y,
                                             size_t rank, const int64_t *shape, int64_t axis,
                                             unsigned flags, const axial_executor *exec);
AXIAL_API axial_status axial_reduce_logsumexp_ex(axial_dtype dtype, const void *x, void *y,
                                                 size_t rank, const int64_t *shape,
                                                 const int64_t *axes, size_t naxes,
                                                 unsigned flags, const axial_executor *exec);

/* The built-in pool (pthreadpool), for hosts that have none. */
typedef struct axial_pool axial_pool;
/* nthreads == 0: one per CPU this process may run on (the caller's thread
 * counts as one).  AXIAL_E_NULL for a NULL pool, AXIAL_E_NOMEM when the
 * threads cannot be made. */
AXIAL_API axial_status axial_pool_create(size_t nthreads, axial_pool **pool);
/* Joins the threads; NULL is a no-op.  No call may be running on the pool. */
AXIAL_API void axial_pool_destroy(axial_pool *pool);
/* The pool as an executor (concurrency = its thread count), valid until
 * destroy.  Several threads may submit to one pool at once: their calls are
 * serialised.  NULL for a NULL pool. */
AXIAL_API const axial_executor *axial_pool_executor(axial_pool *pool);

/* ---- Streams and shards: one call's bits across calls ------------------ */

/* The ops of streams and shards (ABI: the values are fixed). */
typedef enum {
    AXIAL_OP_CUMSUM = 1,
    AXIAL_OP_LOGCUMSUMEXP = 2,
    AXIAL_OP_REDUCE_SUM = 3,
    AXIAL_OP_REDUCE_LOGSUMEXP = 4
} axial_op;

/* A scan or a sum fed in pieces along its axis (docs/API.md, "Streams and
 * shards").  Created once for (op, dtype, the piece shape -- shape[axis] is
 * ignored --, axis, flags): op AXIAL_OP_CUMSUM (flags those of axial_cumsum)
 * or AXIAL_OP_REDUCE_SUM (the sum along the axis alone; flags 0 or
 * AXIAL_REDUCE_KEEP_DIMS), every dtype but BOOL; AXIAL_OP_LOGCUMSUMEXP and
 * AXIAL_OP_REDUCE_LOGSUMEXP (their flags likewise) the float dtypes, each
 * in the order of the ISA active at create.  Each scan push scans the next
 * piece (the piece shape with any axis length, 0 included; REVERSE: pieces
 * are fed from the far end) and writes that piece's outputs: concatenated, they are
 * bit for bit the one call's, for any cut points.  A ReduceSum push (y NULL)
 * takes the next piece, and axial_stream_result writes, at any time, the
 * bits of one axial_reduce_sum over everything taken so far.  The state is
 * allocated once, at create; pushes allocate nothing.  AXIAL_E_NOMEM at
 * create when the state cannot be allocated. */
typedef struct axial_stream axial_stream;
AXIAL_API axial_status axial_stream_create(axial_op op, axial_dtype dtype, size_t rank,
                                           const int64_t *shape, int64_t axis, unsigned flags,
                                           axial_stream **stream);
/* Frees the state; NULL is a no-op. */
AXIAL_API void axial_stream_destroy(axial_stream *stream);
/* Scans the next piece x (dtype, rank and every dimension but the axis as
 * at create) into y (x's shape; y == x allowed); a ReduceSum stream adds x
 * to its sums (y NULL, AXIAL_E_ARGS otherwise).  A piece that does not
 * belong is AXIAL_E_ARGS (or the checks' codes of axial_cumsum), nothing
 * written and the state unchanged. */
AXIAL_API axial_status axial_stream_push(axial_stream *stream, axial_dtype dtype,
                                         const void *x, void *y, size_t rank,
                                         const int64_t *shape);
/* The same on an executor (exec == NULL: the calling thread): the same bits. */
AXIAL_API axial_status axial_stream_push_ex(axial_stream *stream, axial_dtype dtype,
                                            const void *x, void *y, size_t rank,
                                            const int64_t *shape, const axial_executor *exec);
/* A ReduceSum stream's sum of every piece taken (the output of the one
 * call, of its shape, into y), the state unchanged; +0 before any piece.
 * AXIAL_E_ARGS for a CumSum stream. */
AXIAL_API axial_status axial_stream_result(axial_stream *stream, void *y);
/* How many elements along the axis the stream has been fed. */
AXIAL_API int64_t axial_stream_length(const axial_stream *stream);
/* Back to its state at create (length 0, create's summation order, whatever
 * an import brought). */
AXIAL_API void axial_stream_reset(axial_stream *stream);
/* The state as plain bytes (the same on every ISA of one summation order):
 * axial_stream_state_size bytes, written by axial_stream_export into buf
 * (AXIAL_E_ARGS when cap is smaller).  axial_stream_import loads bytes made
 * by a stream of the same op, dtype, piece shape, axis and flags
 * (AXIAL_E_ARGS otherwise, or for truncated or corrupted bytes: the stream
 * is then unchanged). */
AXIAL_API size_t axial_stream_state_size(const axial_stream *stream);
AXIAL_API axial_status axial_stream_export(const axial_stream *stream, void *buf, size_t cap);
AXIAL_API axial_status axial_stream_import(axial_stream *stream, const void *buf, size_t size);

/* A tensor cut into pieces along one axis (the scan axis; for reductions the
 * first reduced axis), each piece summarised on its own, the summaries
 * combined in piece order, then (scans) each piece scanned from its carry or
 * (reductions) the result finished from the whole.  The one call's bits
 * whenever every cut falls on the grid (axial_shard_grid); within the
 * accuracy bound anywhere else.  docs/API.md, "Streams and shards". */
typedef struct axial_shards {
    axial_op op;
    axial_dtype dtype;
    size_t rank;
    const int64_t *shape; /* the whole tensor's shape                       */
    const int64_t *axes;  /* scans: the axis (naxes 1); reductions: axes      */
    size_t naxes;
    unsigned flags; /* the op's flags                                        */
} axial_shards;
/* The cut axis (normalised) and its grid: a cut at c is on the grid when c
 * (REVERSE scans: shape[axis] - c) is a multiple of *grid.  *grid is 0
 * where the op's order has no grid there (every cut is then within the
 * bound only). */
AXIAL_API axial_status axial_shard_grid(const axial_shards *sh, int64_t *axis, int64_t *grid);
/* The bytes of the summary of the piece [start, start + len) of the cut axis. */
AXIAL_API axial_status axial_shard_summary_size(const axial_shards *sh, int64_t start,
                                                int64_t len, size_t *size);
/* Summarises the piece x (the whole shape with the cut axis len long) into
 * summary (cap bytes, at least axial_shard_summary_size). */
AXIAL_API axial_status axial_shard_summarize(const axial_shards *sh, const void *x,
                                             int64_t start, int64_t len, void *summary,
                                             size_t cap);
/* Combines a (pieces [s, m)) and b ([m, e)) into out ([s, e)); out may be a.
 * *size gets the bytes of out (out == NULL: only that), and only on success.
 * Summaries of other ops, dtypes, shapes or versions, out of order or with a
 * gap: AXIAL_E_ARGS; out overlapping a (other than out == a) or b:
 * AXIAL_E_OVERLAP. */
AXIAL_API axial_status axial_shard_combine(const void *a, size_t asize, const void *b,
                                           size_t bsize, void *out, size_t cap, size_t *size);
/* Scans: the piece x [start, start + len) into y from carry, the combined
 * summary of every piece before it ([0, start); NULL when start is 0). */
AXIAL_API axial_status axial_shard_scan(const axial_shards *sh, const void *x, void *y,
                                        int64_t start, int64_t len, const void *carry,
                                        size_t carry_size);
/* Reductions: the result y (axial_reduce_sum_shape's shape) from the
 * combined summary of the whole axis. */
AXIAL_API axial_status axial_shard_finish(const axial_shards *sh, const void *total,
                                          size_t total_size, void *y);

/* ---- ISA selection ----------------------------------------------------- */

/* At first use the best available ISA is chosen (avx512 > avx2 > neon >
 * scalar), capped by the environment variable AXIAL_ISA (a name, case and
 * surrounding spaces ignored; an unknown one is ignored with a warning);
 * AXIAL_VERBOSE=1 reports the choice and every call on stderr.  The choice is
 * process-wide.  docs/API.md, section 10. */
typedef enum {
    AXIAL_ISA_SCALAR = 0, /* portable C, the reference; always there */
    AXIAL_ISA_AVX2 = 1,   /* AVX2 + FMA + F16C, OS saves YMM         */
    AXIAL_ISA_AVX512 = 2, /* AVX-512 F+VL+BW+DQ, OS saves ZMM/opmask */
    AXIAL_ISA_NEON = 3    /* aarch64 AdvSIMD                          */
} axial_isa;

/* Bit (1u << isa) is set when the ISA is compiled in AND this CPU and OS run it. */
AXIAL_API unsigned axial_isa_available(void);
/* The ISA the next op call uses. */
AXIAL_API axial_isa axial_isa_active(void);
/* Makes an available ISA the active one for the whole process (calls already
 * running finish on theirs).  AXIAL_E_ISA when unknown or unavailable: the
 * active ISA is then unchanged (never SIGILL). */
AXIAL_API axial_status axial_isa_select(axial_isa isa);
/* "scalar", "avx2", "avx512", "neon"; "unknown" for any other value. */
AXIAL_API const char *axial_isa_name(axial_isa isa);

#ifdef __cplusplus
}
#endif

#endif /* AXIAL_H */
