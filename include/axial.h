/*
 * axial: SIMD CPU kernels for CumSum, ReduceSum and Roll.
 *
 * Semantics: OpenVINO CumSum-3 / ReduceSum-1 / Roll-7 and ONNX CumSum-11/14,
 * ReduceSum-13.  Tensors are dense, row-major (C order); shapes are int64_t.
 * The contract (status codes, accuracy, threading) is SPEC.md; the README
 * lists the choices made where the operator specs are silent.
 *
 * Every function is reentrant and thread-safe.  On any error nothing is
 * written to the output and axial_last_error() says why, naming the values.
 */
#ifndef AXIAL_H
#define AXIAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(AXIAL_BUILDING_DLL)
#define AXIAL_API __declspec(dllexport)
#elif defined(__GNUC__)
#define AXIAL_API __attribute__((visibility("default")))
#else
#define AXIAL_API
#endif

#define AXIAL_VERSION_MAJOR 0
#define AXIAL_VERSION_MINOR 1
#define AXIAL_VERSION_PATCH 0

/* The largest rank any function accepts. */
#define AXIAL_MAX_RANK 16

/* Element types (ABI: the values are fixed). */
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

/* Status codes (ABI: the values are fixed). */
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
    AXIAL_E_NOMEM = 9
} axial_status;

AXIAL_API const char *axial_status_name(axial_status status);
/* The calling thread's message for its last failed call ("" if none). */
AXIAL_API const char *axial_last_error(void);

/* ---- CumSum ------------------------------------------------------------ */

#define AXIAL_CUMSUM_EXCLUSIVE 1u
#define AXIAL_CUMSUM_REVERSE 2u

AXIAL_API axial_status axial_cumsum(axial_dtype dtype, const void *x, void *y,
                                    size_t rank, const int64_t *shape,
                                    int64_t axis, unsigned flags);

/* ---- ReduceSum --------------------------------------------------------- */

#define AXIAL_REDUCE_KEEP_DIMS 1u
#define AXIAL_REDUCE_EMPTY_AXES_ALL 2u

AXIAL_API axial_status axial_reduce_sum_shape(size_t rank, const int64_t *shape,
                                              const int64_t *axes, size_t naxes,
                                              unsigned flags, size_t *out_rank,
                                              int64_t *out_shape);
AXIAL_API axial_status axial_reduce_sum(axial_dtype dtype, const void *x, void *y,
                                        size_t rank, const int64_t *shape,
                                        const int64_t *axes, size_t naxes,
                                        unsigned flags);

/* ---- Roll -------------------------------------------------------------- */

AXIAL_API axial_status axial_roll(axial_dtype dtype, const void *x, void *y,
                                  size_t rank, const int64_t *shape,
                                  const int64_t *shift, size_t nshift,
                                  const int64_t *axes, size_t naxes);

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

/* ---- ISA selection ----------------------------------------------------- */

typedef enum {
    AXIAL_ISA_SCALAR = 0,
    AXIAL_ISA_AVX2 = 1,   /* AVX2 + FMA + F16C, OS saves YMM         */
    AXIAL_ISA_AVX512 = 2, /* AVX-512 F+VL+BW+DQ, OS saves ZMM/opmask */
    AXIAL_ISA_NEON = 3
} axial_isa;

/* Bit (1u << isa) is set when the ISA is compiled in AND this CPU and OS run it. */
AXIAL_API unsigned axial_isa_available(void);
AXIAL_API axial_isa axial_isa_active(void);
/* AXIAL_E_ISA when unavailable (never SIGILL). */
AXIAL_API axial_status axial_isa_select(axial_isa isa);
/* "scalar", "avx2", "avx512", "neon"; "unknown" for any other value. */
AXIAL_API const char *axial_isa_name(axial_isa isa);

#ifdef __cplusplus
}
#endif

#endif /* AXIAL_H */
