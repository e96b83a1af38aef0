/* SPDX-License-Identifier: MIT */
/*
 * probes.c: the bandwidth ceiling of each case, measured on the same bytes.
 *   ReduceSum, ReduceLogSumExp: a read probe, an unrolled vector sum of the input bytes as
 *     64-bit integer lanes, 64-byte vectors (8 independent accumulators, so
 *     it is bound by loads, not by the add latency); built for AVX-512, AVX2 and baseline
 *     with target_clones, so the probe is as wide as the CPU allows;
 *   CumSum, LogCumSumExp and Roll: a copy probe, memcpy of the input bytes to the output.
 * An op at "1.0 of probe" moves its bytes as fast as the memory system can.
 * On T threads (the threads dimension): the input (and output) split into T
 * contiguous parts of whole cache lines, one task per part on a T-thread
 * axial pool (pthreadpool gives each thread one task), each running the
 * one-thread probe on its part; the read probe's T sums land in task-indexed
 * slots, one cache line apart, added after.  At T = 1 it is the one-thread
 * probe itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

typedef uint64_t axb_v8 __attribute__((vector_size(64)));
typedef uint64_t axb_v8u __attribute__((vector_size(64), aligned(1), may_alias));

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
static uint64_t read_sum(const unsigned char *p, size_t bytes) {
    axb_v8 a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0}, a4 = {0}, a5 = {0}, a6 = {0}, a7 = {0};
    size_t i = 0;
    for (; i + 512 <= bytes; i += 512) {
        const axb_v8u *v = (const axb_v8u *)(const void *)(p + i);
        a0 += v[0], a1 += v[1], a2 += v[2], a3 += v[3];
        a4 += v[4], a5 += v[5], a6 += v[6], a7 += v[7];
    }
    a0 += a1 + a2 + a3 + a4 + a5 + a6 + a7;
    uint64_t s = a0[0] + a0[1] + a0[2] + a0[3] + a0[4] + a0[5] + a0[6] + a0[7];
    for (; i < bytes; i++) s += p[i];
    return s;
}

static bool probe_prepare(const axb_case *c, void **ctx, char *why, size_t cap) {
    (void)c, (void)why, (void)cap;
    *ctx = NULL;
    return true;
}

static void probe_run(void *ctx, const axb_case *c, const void *x, void *y) {
    (void)ctx;
    size_t bytes = axb_count(c) * ax_dtype_size(c->dtype);
    if (ax_op_reduce(c->op)) {
        uint64_t s = read_sum(x, bytes);
        memcpy(y, &s, ax_dtype_size(c->dtype) < 8 ? ax_dtype_size(c->dtype) : 8);
    } else {
        memcpy(y, x, bytes);
    }
}

typedef struct {
    axial_pool *pool;
    const axial_executor *exec;
    size_t threads;
    /* per call */
    const unsigned char *x;
    unsigned char *y;
    size_t bytes, part;
    bool read;
    uint64_t sums[]; /* threads * 8: one cache line per task */
} probe_t_ctx;

static void probe_task(void *arg, size_t i) {
    probe_t_ctx *p = arg;
    size_t lo = i * p->part;
    if (lo >= p->bytes) return;
    size_t len = p->bytes - lo < p->part ? p->bytes - lo : p->part;
    if (p->read) p->sums[i * 8] = read_sum(p->x + lo, len);
    else memcpy(p->y + lo, p->x + lo, len);
}

static void probe_t_free(void *ctx) {
    probe_t_ctx *p = ctx;
    if (!p) return;
    axial_pool_destroy(p->pool);
    free(p);
}

static bool probe_t_prepare(const axb_case *c, size_t threads, void **ctx, char *why, size_t cap) {
    (void)c;
    probe_t_ctx *p = calloc(1, sizeof *p + threads * 8 * sizeof(uint64_t));
    *ctx = p;
    if (!p) {
        snprintf(why, cap, "probe: out of memory");
        return false;
    }
    p->threads = threads;
    axial_status st = axial_pool_create(threads, &p->pool);
    if (st != AXIAL_OK) {
        snprintf(why, cap, "probe: axial_pool_create(%zu): %s", threads, axial_last_error());
        return false; /* main() releases ctx */
    }
    p->exec = axial_pool_executor(p->pool);
    return true;
}

static void probe_t_run(void *ctx, const axb_case *c, const void *x, void *y) {
    probe_t_ctx *p = ctx;
    if (!p) { /* the one-thread probe */
        probe_run(ctx, c, x, y);
        return;
    }
    if (p->threads == 1) {
        probe_run(NULL, c, x, y);
        return;
    }
    p->x = x, p->y = y;
    p->bytes = axb_count(c) * ax_dtype_size(c->dtype);
    p->part = ((p->bytes + p->threads - 1) / p->threads + 63) & ~(size_t)63;
    p->read = ax_op_reduce(c->op);
    p->exec->parallel_for(p->exec->self, probe_task, p, p->threads);
    if (p->read) {
        uint64_t s = 0;
        for (size_t i = 0; i < p->threads; i++) s += p->part * i < p->bytes ? p->sums[i * 8] : 0;
        memcpy(y, &s, ax_dtype_size(c->dtype) < 8 ? ax_dtype_size(c->dtype) : 8);
    }
}

const axb_peer axb_probe = {"probe", probe_prepare, probe_t_run, probe_t_free, probe_t_prepare};
