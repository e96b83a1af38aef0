/* SPDX-License-Identifier: MIT */
/*
 * tests.h: the test list.  Each X(name) is a function `void t_name(ax_t *)`.
 *   AX_ISA_TESTS   run once per ISA of the architecture (scalar, avx2, avx512;
 *                  scalar, neon): the kernels
 *                  of each ISA against the oracle; an ISA the CPU or build
 *                  lacks is reported as skipped.
 *   AX_API_TESTS   run once (with the default ISA): argument checks, the
 *                  ISA-selection API, threads, and cross_isa (which selects
 *                  each SIMD ISA itself and compares their outputs).
 */
#ifndef AX_TESTS_H
#define AX_TESTS_H

#include "harness.h"

#define AX_ISA_TESTS(X)                                                        \
    X(cumsum_seeds)                                                            \
    X(cumsum_random)                                                           \
    X(cumsum_long_axes)                                                        \
    X(cumsum_inplace)                                                          \
    X(cumsum_specials)                                                         \
    X(cumsum_f16_ones)                                                         \
    X(cumsum_f32_accuracy)                                                     \
    X(cumsum_f32_ones_past_2p24)                                               \
    X(cumsum_f32_spec_target)                                                  \
    X(cumsum_f32_ones_2p28)                                                    \
    X(reduce_seeds)                                                            \
    X(reduce_random)                                                           \
    X(reduce_long_axes)                                                        \
    X(reduce_specials)                                                         \
    X(reduce_empty_axes)                                                       \
    X(reduce_f32_accuracy)                                                     \
    X(reduce_f32_spec_target)                                                  \
    X(lse_seeds)                                                               \
    X(lse_random)                                                              \
    X(lse_shapes)                                                              \
    X(lse_long_lines)                                                          \
    X(lse_specials)                                                            \
    X(lse_empty_axes)                                                          \
    X(lse_ramps)                                                               \
    X(lse_chunks)                                                              \
    X(lse_lines_apart)                                                         \
    X(lse_columns_apart)                                                       \
    X(lse_huge)                                                                \
    X(lse_f32_accuracy)                                                        \
    X(lse_f32_spec_target)                                                     \
    X(roll_seeds)                                                              \
    X(roll_random)                                                             \
    X(roll_inplace)                                                            \
    X(roll_extreme_shifts)                                                     \
    X(zero_sized)                                                              \
    X(integer_wrap)                                                            \
    X(cumsum_shape_rows)                                                       \
    X(cumsum_shape_short_rows)                                                 \
    X(cumsum_shape_columns)                                                    \
    X(cumsum_shape_specials)                                                   \
    X(reduce_shape_rows)                                                       \
    X(reduce_shape_columns)                                                    \
    X(reduce_shape_3d)                                                         \
    X(reduce_shape_specials)                                                   \
    X(roll_shape_rows)                                                         \
    X(roll_shape_long_rows)                                                    \
    X(roll_shape_3d)                                                           \
    X(shape_streaming)                                                         \
    X(cumsum_tolerance)                                                        \
    X(reduce_tolerance)                                                        \
    X(huge_tensors)                                                            \
    X(huge_float_sums)                                                         \
    X(stack)                                                                   \
    X(parallel_cumsum)                                                         \
    X(parallel_reduce)                                                         \
    X(parallel_roll)                                                           \
    X(parallel_logcumsumexp)                                                   \
    X(parallel_logsumexp)                                                      \
    X(order_kernels)                                                           \
    X(stream_cuts)                                                             \
    X(stream_sums)                                                             \
    X(shard_cuts)                                                              \
    X(golden)                                                                  \
    X(guard_pages) /* last: an out-of-bounds read kills the process */

#define AX_API_TESTS(X)                                                        \
    X(status_null)                                                             \
    X(status_dtype)                                                            \
    X(status_rank)                                                             \
    X(status_shape)                                                            \
    X(status_axis)                                                             \
    X(status_args)                                                             \
    X(status_overlap)                                                          \
    X(status_isa)                                                              \
    X(status_nomem)                                                            \
    X(status_names)                                                            \
    X(guard_selftest)                                                          \
    X(isa_api)                                                                 \
    X(isa_thread)                                                              \
    X(threads)                                                                 \
    X(threads_isa_switch)                                                      \
    X(parallel_errors)                                                         \
    X(parallel_pool)                                                           \
    X(parallel_ranges)                                                         \
    X(parallel_adapter_pthreadpool)                                            \
    X(parallel_adapter_openmp)                                                 \
    X(cross_isa)                                                               \
    X(stream_errors)                                                           \
    X(shard_errors)                                                            \
    X(bytes_limits)                                                            \
    X(shard_cross_isa)                                                         \
    X(selftest_oracle)                                                         \
    X(selftest_bound)                                                          \
    X(selftest_canaries)                                                       \
    X(selftest_poison)                                                         \
    X(selftest_input)                                                          \
    X(selftest_cross_isa)                                                      \
    X(selftest_threads)                                                        \
    X(selftest_golden)                                                         \
    X(selftest_stack)                                                          \
    X(selftest_guard_pages)

/* The ISAs of the architecture the tests are built for (an x86 build never
 * has NEON kernels and vice versa). */
#if defined(__aarch64__)
#define AX_ARCH_ISAS {AXIAL_ISA_SCALAR, AXIAL_ISA_NEON}
#define AX_N_ARCH_ISAS 2
#else
#define AX_ARCH_ISAS {AXIAL_ISA_SCALAR, AXIAL_ISA_AVX2, AXIAL_ISA_AVX512}
#define AX_N_ARCH_ISAS 3
#endif

#define AX_DECLARE(name) void t_##name(ax_t *t);
AX_ISA_TESTS(AX_DECLARE)
AX_API_TESTS(AX_DECLARE)
#undef AX_DECLARE

#endif /* AX_TESTS_H */
