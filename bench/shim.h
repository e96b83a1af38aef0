/* SPDX-License-Identifier: MIT */
/*
 * shim.h: Google Benchmark from C.  The benchmarks are C; this header and
 * shim.cc are the only C++.  A benchmark body runs its loop in C with one
 * out-of-line call per batch (not per iteration):
 *
 *     size_t n = axb_iterations(s);
 *     while (axb_batch(s, n))
 *         for (size_t i = 0; i < n; i++) work();
 *     axb_set_bytes(s, bytes_per_iteration);
 */
#ifndef AXB_SHIM_H
#define AXB_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct axb_state axb_state; /* a benchmark::State */
typedef void (*axb_fn)(axb_state *s, void *arg);

/* Registers `fn(s, arg)` under `name` (copied).  Returns 0 on success. */
int axb_register(const char *name, axb_fn fn, void *arg);
/* Iterations the library wants in this run. */
size_t axb_iterations(axb_state *s);
/* Starts (first call) / ends (second call) one timed batch of n iterations:
 * true while the loop should run. */
int axb_batch(axb_state *s, size_t n);
/* Per-iteration figures; multiplied by the iteration count here. */
void axb_set_bytes(axb_state *s, double bytes_per_iteration);
void axb_set_items(axb_state *s, double items_per_iteration);
void axb_counter(axb_state *s, const char *name, double value);
void axb_label(axb_state *s, const char *label);
/* Marks the benchmark skipped with a message (shown, and in the JSON). */
void axb_skip(axb_state *s, const char *message);
/* A key/value line in the run's context header (and the JSON "context"). */
void axb_context(const char *key, const char *value);
/* Initialize, run what the command line selects, shut down. */
int axb_main(int argc, char **argv);

/* Keep a value / all memory alive across the loop (DoNotOptimize in C). */
#define AXB_KEEP(v) __asm__ volatile("" : : "r,m"(v) : "memory")
#define AXB_CLOBBER() __asm__ volatile("" : : : "memory")

#ifdef __cplusplus
}
#endif

#endif /* AXB_SHIM_H */
