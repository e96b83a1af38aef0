/* SPDX-License-Identifier: MIT */
/*
 * bench.h: one benchmark case (an op on a shape) and the implementations
 * measured on it: axial on each ISA, the bandwidth probe, and the peers.
 */
#ifndef AXB_BENCH_H
#define AXB_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "axial.h"
#include "../tests/call.h" /* the ops (ax_op), their calls and the dtype helpers */

/* LogCumSumExp is a scan like CumSum (axis, flags), ReduceLogSumExp a
 * reduction like ReduceSum (axes, flags): ax_op_scan, ax_op_reduce. */
typedef struct {
    ax_op op;
    axial_dtype dtype;
    size_t rank;
    int64_t shape[3];
    int64_t axis;      /* the scans                                 */
    unsigned flags;    /* the scans' / the reductions' flags        */
    size_t naxes;      /* reductions / Roll (0 with EMPTY_AXES_ALL: all) */
    int64_t axes[3];
    size_t nshift;     /* Roll                                      */
    int64_t shift[3];
    bool threaded;     /* also measured at threads:T (the threads dimension) */
    bool sweep;        /* a size of the split sweep ("/sweep" in its name)  */
    char name[160];    /* "{op}/{type}/{shape}/{params}" without the impl */
} axb_case;

size_t axb_count(const axb_case *c);
size_t axb_out_count(const axb_case *c); /* elements of y */

/* Implementations beside axial.  Each returns false when it does not
 * support the case (the benchmark is then skipped with `why` set). */
typedef bool (*axb_peer_prepare)(const axb_case *c, void **ctx, char *why, size_t cap);
typedef void (*axb_peer_run)(void *ctx, const axb_case *c, const void *x, void *y);
typedef void (*axb_peer_free)(void *ctx);
/* The same on `threads` threads (the threads dimension); run and release
 * are the peer's own, on the ctx this made. */
typedef bool (*axb_peer_prepare_threads)(const axb_case *c, size_t threads, void **ctx,
                                         char *why, size_t cap);

typedef struct {
    const char *name; /* "probe", "loop", "eigen", "onednn" */
    axb_peer_prepare prepare;
    axb_peer_run run;
    axb_peer_free release;
    axb_peer_prepare_threads prepare_threads; /* NULL: single-threaded only */
} axb_peer;

extern const axb_peer axb_probe;  /* probes.c      */
/* The exp probes of the log-space ops (exp_probe.c): one SLEEF exp per
 * element on that ISA (scalar: libm), the ceiling of a one-exp kernel. */
extern const axb_peer axb_exp_scalar, axb_exp_avx2, axb_exp_avx512, axb_exp_neon;
/* Their loops, exp_probe_<isa>.c, each built with its ISA's flags (only where
 * meson builds that ISA's kernels; AXB_HAVE_EXP_<ISA> then): y[i] = exp(x[i])
 * over n elements of dt (f32, f64, bf16 through f32), or with sum their sum,
 * stored to y[0] in dt. */
void axb_exp_run_avx2(axial_dtype dt, const void *x, void *y, size_t n, bool sum);
void axb_exp_run_avx512(axial_dtype dt, const void *x, void *y, size_t n, bool sum);
void axb_exp_run_neon(axial_dtype dt, const void *x, void *y, size_t n, bool sum);
extern const axb_peer axb_loop;   /* peer_loop.c   */
#ifdef AXB_HAVE_EIGEN
extern const axb_peer axb_eigen;  /* peer_eigen.cc */
#endif
#ifdef AXB_HAVE_ONEDNN
extern const axb_peer axb_onednn; /* peer_onednn.c */
#endif

/* Peers built for x86-64-v3 run only where the CPU has AVX2 and FMA. */
#ifdef AXB_PEER_NEEDS_AVX2
#define AXB_PEER_CPU_OK() (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
#else
#define AXB_PEER_CPU_OK() 1
#endif

/* (outer, n, inner) of a single-axis case: the axis and what is around it. */
void axb_split(const axb_case *c, size_t axis, size_t *outer, size_t *n, size_t *inner);
/* Roll: the total shift per dimension, in [0, d). */
void axb_roll_shifts(const axb_case *c, int64_t eff[3]);

/* Streams and shards against one call (streams.c), on each ISA of isas. */
void axb_register_streams(const int *isas, size_t nisa);
double axb_wall(void); /* seconds on the monotonic clock (main.c) */

#endif /* AXB_BENCH_H */
