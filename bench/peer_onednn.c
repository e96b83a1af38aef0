/* SPDX-License-Identifier: MIT */
/*
 * peer_onednn.c: oneDNN's reduction primitive (sum), from Debian's
 * libdnnl-dev (oneDNN 2.6, C API), as a peer for ReduceSum.  The primitive
 * and the memory objects are created in setup; the timed call is one
 * dnnl_primitive_execute + dnnl_stream_wait, with the memory objects'
 * handles pointed at the benchmark's buffers.  oneDNN is OpenMP-threaded:
 * main() pins OMP_NUM_THREADS=1 so it runs on one thread like every other
 * single-thread figure here; on T threads (the threads dimension) setup calls
 * omp_set_num_threads(T) before it creates the primitive (oneDNN reads
 * omp_get_max_threads() when it creates and when it executes one) and
 * release sets it back to 1.  The benchmark's cpu_per_wall and threads_ran
 * counters show how many threads it really ran on (its reduction splits over
 * the outputs: a full reduction stays on one thread).  Types: f32, bf16, i8
 * (s8), i32 (s32); reduced dims are 1 in the destination descriptor (plain
 * row-major tags).
 */
#include <stdio.h>
#include <stdlib.h>

#include <oneapi/dnnl/dnnl.h>
#include <omp.h>

#include "bench.h"

typedef struct {
    dnnl_engine_t engine;
    dnnl_stream_t stream;
    dnnl_primitive_t prim;
    dnnl_memory_t src, dst;
    size_t threads; /* 0: OMP_NUM_THREADS as main() set it (1) */
} onednn_ctx;

static void onednn_free(void *p) {
    onednn_ctx *c = p;
    if (!c) return;
    if (c->src) dnnl_memory_destroy(c->src);
    if (c->dst) dnnl_memory_destroy(c->dst);
    if (c->prim) dnnl_primitive_destroy(c->prim);
    if (c->stream) dnnl_stream_destroy(c->stream);
    if (c->engine) dnnl_engine_destroy(c->engine);
    if (c->threads) omp_set_num_threads(1);
    free(c);
}

static bool onednn_setup(const axb_case *c, size_t threads, void **ctxp, char *why, size_t cap) {
    *ctxp = NULL;
    if (c->op != AX_OP_REDUCE) {
        snprintf(why, cap, "onednn: no primitive for this op");
        return false;
    }
    dnnl_data_type_t dt;
    switch (c->dtype) {
    case AXIAL_F32: dt = dnnl_f32; break;
    case AXIAL_BF16: dt = dnnl_bf16; break;
    case AXIAL_I8: dt = dnnl_s8; break;
    case AXIAL_I32: dt = dnnl_s32; break;
    default: snprintf(why, cap, "onednn: no %s reduction", ax_dtype_str(c->dtype)); return false;
    }
    static const dnnl_format_tag_t tags[4] = {dnnl_format_tag_undef, dnnl_a, dnnl_ab, dnnl_abc};
    dnnl_dims_t sd, dd;
    for (size_t k = 0; k < c->rank; k++) {
        sd[k] = c->shape[k];
        bool red = c->naxes == 0;
        for (size_t a = 0; a < c->naxes; a++) red |= (size_t)c->axes[a] == k;
        dd[k] = red ? 1 : c->shape[k];
    }
    onednn_ctx *x = calloc(1, sizeof *x);
    if (!x) {
        snprintf(why, cap, "onednn: out of memory");
        return false;
    }
    if (threads) omp_set_num_threads((int)threads);
    x->threads = threads;
    dnnl_memory_desc_t smd, dmd;
    dnnl_reduction_desc_t rd;
    dnnl_primitive_desc_t pd = NULL;
    dnnl_status_t st = dnnl_engine_create(&x->engine, dnnl_cpu, 0);
    if (st == dnnl_success) st = dnnl_stream_create(&x->stream, x->engine, dnnl_stream_default_flags);
    if (st == dnnl_success) st = dnnl_memory_desc_init_by_tag(&smd, (int)c->rank, sd, dt, tags[c->rank]);
    if (st == dnnl_success) st = dnnl_memory_desc_init_by_tag(&dmd, (int)c->rank, dd, dt, tags[c->rank]);
    if (st == dnnl_success) st = dnnl_reduction_desc_init(&rd, dnnl_reduction_sum, &smd, &dmd, 0.f, 0.f);
    if (st == dnnl_success) st = dnnl_primitive_desc_create(&pd, &rd, NULL, x->engine, NULL);
    if (st == dnnl_success) st = dnnl_primitive_create(&x->prim, pd);
    if (st == dnnl_success) st = dnnl_memory_create(&x->src, &smd, x->engine, DNNL_MEMORY_NONE);
    if (st == dnnl_success) st = dnnl_memory_create(&x->dst, &dmd, x->engine, DNNL_MEMORY_NONE);
    if (pd) dnnl_primitive_desc_destroy(pd);
    if (st != dnnl_success) {
        if (st == dnnl_unimplemented)
            snprintf(why, cap, "onednn: no %s reduction on this CPU (dnnl_unimplemented)",
                     ax_dtype_str(c->dtype));
        else
            snprintf(why, cap, "onednn: setup failed (dnnl status %d)", (int)st);
        onednn_free(x);
        return false;
    }
    *ctxp = x;
    return true;
}

static void onednn_run(void *p, const axb_case *c, const void *xv, void *yv) {
    (void)c;
    onednn_ctx *x = p;
    dnnl_memory_set_data_handle(x->src, (void *)xv);
    dnnl_memory_set_data_handle(x->dst, yv);
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_SRC, x->src}, {DNNL_ARG_DST, x->dst}};
    dnnl_primitive_execute(x->prim, x->stream, 2, args);
    dnnl_stream_wait(x->stream);
}

static bool onednn_prepare(const axb_case *c, void **ctxp, char *why, size_t cap) {
    return onednn_setup(c, 0, ctxp, why, cap);
}

const axb_peer axb_onednn = {"onednn", onednn_prepare, onednn_run, onednn_free, onednn_setup};
