/* SPDX-License-Identifier: MIT */
/*
 * main.c: the benchmark matrix, one row per
 *   {op}/{type}/{impl}/{shape}/{params}
 * impl: scalar, avx2, avx512 (x86-64) or scalar, neon (aarch64): axial with
 * that ISA selected, skipped with a message when the CPU or build lacks it;
 * probe: the bandwidth ceiling (read-sum for the reductions, memcpy for the
 * scans and Roll); loop, eigen, onednn: the peers.  The log-space ops
 * (logcumsumexp, reduce_logsumexp; [n], [n/1024, 1024] axis 1,
 * [1024, n/1024] axis 0 in f32 and f64, [n] in bf16) have the probe and, in
 * place of the peers, the exp probes exp_{isa} (exp_probe.c: one exp per
 * element with libm or SLEEF on that ISA, the ceiling of a one-exp kernel);
 * their Python peers are in scripts/peers.py.  Every benchmark reports bytes
 * (input + output) and items (input elements) per second.  Each peer's
 * output is checked once against axial's scalar kernels (integers and Roll
 * bit for bit, floats within tolerance()); a difference skips it with the
 * element and both values in the message.
 *
 * Sizes: cache-resident (256 KiB of input, to fit in L2) and memory-resident (256 MiB, or
 * AXIAL_BENCH_BYTES); AXIAL_BENCH_SIZES=cache|memory|both picks.
 *
 * Threads: each threaded case (the f32 cases but the excl/rev
 * scans, the log-space ops' included; every case with
 * AXIAL_BENCH_THREAD_CASES=all) is also measured at
 * T = 1 .. the CPUs this process may run on (or AXIAL_BENCH_THREADS, e.g.
 * "1,2,4" or "1-16"), its name ending in "/threads:T":
 *   {isa}: axial_*_ex with axial_pool_executor(pool), pool = a T-thread
 *     axial_pool, on the ISA dispatch picks (threads:1: a 1-thread pool; the
 *     plain call is the row without "/threads:"), its output checked bit for
 *     bit against the plain call's;
 *   probe, eigen, onednn (T >= 2): the T-thread probe, Eigen on a
 *     ThreadPoolDevice of T threads, oneDNN with T OpenMP threads.  At T = 1
 *     they are the rows without "/threads:".
 * Threaded rows add counters cpu_per_wall (process CPU time / wall time over
 * the timed loop: about T when T threads work) and threads_ran (the threads
 * that ran for 5% of it or more).  Also:
 *   parallel_for/empty/pool/threads:T   one parallel_for of a T-thread pool
 *     with T no-op tasks (the cost of waking and joining the pool);
 *   {op}/f32/{isa}/{shape}/.../sweep[/threads:2]   the split sweep: 1-D f32
 *     CumSum, ReduceSum (all axes) and Roll, and CumSum of [n/1024, 1024]
 *     along axis 1, of 4 KiB .. 4 MiB, the plain call beside _ex with a
 *     2-thread pool (where splitting starts to pay).
 *   axial-bench --cases-json=FILE   writes the case list (for scripts/peers.py)
 * Every other argument is Google Benchmark's.
 */
#define _DEFAULT_SOURCE
#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "shim.h"

/* ---- cases -------------------------------------------------------------------- */

size_t axb_count(const axb_case *c) {
    size_t n = 1;
    for (size_t k = 0; k < c->rank; k++) n *= (size_t)c->shape[k];
    return n;
}

size_t axb_out_count(const axb_case *c) {
    if (!ax_op_reduce(c->op)) return axb_count(c);
    size_t n = 1;
    for (size_t k = 0; k < c->rank; k++) {
        bool red = c->naxes == 0;
        for (size_t a = 0; a < c->naxes; a++) red |= (size_t)c->axes[a] == k;
        if (!red) n *= (size_t)c->shape[k];
    }
    return n;
}

void axb_split(const axb_case *c, size_t axis, size_t *outer, size_t *n, size_t *inner) {
    *outer = *inner = 1;
    for (size_t k = 0; k < axis; k++) *outer *= (size_t)c->shape[k];
    *n = (size_t)c->shape[axis];
    for (size_t k = axis + 1; k < c->rank; k++) *inner *= (size_t)c->shape[k];
}

void axb_roll_shifts(const axb_case *c, int64_t eff[3]) {
    eff[0] = eff[1] = eff[2] = 0;
    for (size_t a = 0; a < c->naxes; a++) {
        int64_t d = c->shape[c->axes[a]];
        int64_t s = (c->nshift == 1 ? c->shift[0] : c->shift[a]) % d;
        eff[c->axes[a]] = ((eff[c->axes[a]] + s) % d + d) % d;
    }
}

#define AXB_MAX_CASES 256
static axb_case cases[AXB_MAX_CASES];
static size_t ncases;

static axb_case *add_case(ax_op op, axial_dtype dt, size_t rank, int64_t d0, int64_t d1,
                          int64_t d2) {
    if (ncases == AXB_MAX_CASES) {
        fprintf(stderr, "axial-bench: more than %d cases\n", AXB_MAX_CASES);
        exit(1);
    }
    axb_case *c = &cases[ncases++];
    memset(c, 0, sizeof *c);
    c->op = op;
    c->dtype = dt;
    c->rank = rank;
    c->shape[0] = d0;
    c->shape[1] = d1;
    c->shape[2] = d2;
    return c;
}

static void append(char *buf, size_t cap, const char *fmt, long long v, int first) {
    size_t len = strlen(buf);
    snprintf(buf + len, cap - len, first ? fmt : ",%lld", v);
}

/* "{op}/{type}/{shape}/{params}" */
static void name_case(axb_case *c) {
    char shape[64] = "", params[96] = "";
    for (size_t k = 0; k < c->rank; k++) append(shape, sizeof shape, k ? "x%lld" : "%lld",
                                                 (long long)c->shape[k], 1);
    if (ax_op_scan(c->op)) {
        snprintf(params, sizeof params, "axis:%lld", (long long)c->axis);
        if (c->flags)
            strcat(params, c->flags == 3 ? "/excl,rev" : c->flags == 1 ? "/excl" : "/rev");
    } else if (ax_op_reduce(c->op)) {
        strcpy(params, "axes:");
        if (c->naxes == 0) strcat(params, "all");
        for (size_t a = 0; a < c->naxes; a++)
            append(params, sizeof params, "%lld", (long long)c->axes[a], a == 0);
    } else {
        strcpy(params, "axes:");
        for (size_t a = 0; a < c->naxes; a++)
            append(params, sizeof params, "%lld", (long long)c->axes[a], a == 0);
        strcat(params, "/shift:");
        for (size_t s = 0; s < c->nshift; s++)
            append(params, sizeof params, "%lld", (long long)c->shift[s], s == 0);
    }
    snprintf(c->name, sizeof c->name, "%s/%s/%s/%s%s", ax_op_name(c->op),
             ax_dtype_str(c->dtype), shape, params, c->sweep ? "/sweep" : "");
}

static void cumsum_cases(size_t bytes) {
    const int64_t n = (int64_t)(bytes / 4);
    axb_case *c;
    c = add_case(AX_OP_CUMSUM, AXIAL_F32, 1, n, 0, 0);
    c = add_case(AX_OP_CUMSUM, AXIAL_F32, 2, n / 1024, 1024, 0), c->axis = 1;
    c = add_case(AX_OP_CUMSUM, AXIAL_F32, 2, 1024, n / 1024, 0);
    c = add_case(AX_OP_CUMSUM, AXIAL_F32, 2, n / 4, 4, 0), c->axis = 1, c->flags = 3;
    /* lines of 3 (RGB channels): the short lines whose width is no power of two */
    c = add_case(AX_OP_CUMSUM, AXIAL_F32, 2, n / 3, 3, 0), c->axis = 1;
    /* f64 lines of 3: short f64 lines, which no block of 16 packs */
    c = add_case(AX_OP_CUMSUM, AXIAL_F64, 2, n / 6, 3, 0), c->axis = 1;
    /* and columns of 3: a walk down rows narrower than one vector */
    c = add_case(AX_OP_CUMSUM, AXIAL_F32, 2, n / 3, 3, 0);
    c = add_case(AX_OP_CUMSUM, AXIAL_F32, 1, n, 0, 0), c->flags = 3;
    /* narrow columns past the float tiles: i16 rows of two AVX-512 vectors, f16 rows of one tile, i8 rows
     * of 16 (several rows to a vector) */
    c = add_case(AX_OP_CUMSUM, AXIAL_I16, 2, n / 32, 64, 0);
    c = add_case(AX_OP_CUMSUM, AXIAL_F16, 2, n / 32, 64, 0);
    c = add_case(AX_OP_CUMSUM, AXIAL_I8, 2, (int64_t)bytes / 16, 16, 0);
    const axial_dtype more[] = {AXIAL_F64, AXIAL_I32, AXIAL_I8, AXIAL_BF16, AXIAL_F16};
    for (int t = 0; t < 5; t++)
        add_case(AX_OP_CUMSUM, more[t], 1, (int64_t)(bytes / ax_dtype_size(more[t])), 0, 0);
    (void)c;
}

static void reduce_cases(size_t bytes) {
    const int64_t n = (int64_t)(bytes / 4);
    axb_case *c;
    c = add_case(AX_OP_REDUCE, AXIAL_F32, 1, n, 0, 0), c->flags = AXIAL_REDUCE_EMPTY_AXES_ALL;
    c = add_case(AX_OP_REDUCE, AXIAL_F32, 2, n / 1024, 1024, 0), c->naxes = 1, c->axes[0] = 1;
    c = add_case(AX_OP_REDUCE, AXIAL_F32, 2, 1024, n / 1024, 0), c->naxes = 1, c->axes[0] = 0;
    c = add_case(AX_OP_REDUCE, AXIAL_F32, 2, n / 2, 2, 0), c->naxes = 1, c->axes[0] = 1;
    /* rows of 3 (an RGB channel sum): the packed short rows whose width is no power of two */
    c = add_case(AX_OP_REDUCE, AXIAL_F32, 2, n / 3, 3, 0), c->naxes = 1, c->axes[0] = 1;
    c = add_case(AX_OP_REDUCE, AXIAL_F32, 2, n / 4, 4, 0), c->naxes = 1, c->axes[0] = 0;
    c = add_case(AX_OP_REDUCE, AXIAL_F32, 3, 64, n / 4096, 64), c->naxes = 2, c->axes[0] = 0,
    c->axes[1] = 2;
    /* several reduced groups over slabs of a few rows: many slabs a kernel call */
    c = add_case(AX_OP_REDUCE, AXIAL_F32, 3, n / 64, 4, 16), c->naxes = 2, c->axes[0] = 0,
    c->axes[1] = 2;
    /* integer rows shorter than a vector, and integer columns of 3 (1 < inner < lanes) */
    c = add_case(AX_OP_REDUCE, AXIAL_I8, 2, (int64_t)bytes / 16, 16, 0), c->naxes = 1, c->axes[0] = 1;
    c = add_case(AX_OP_REDUCE, AXIAL_I32, 2, n / 5, 5, 0), c->naxes = 1, c->axes[0] = 1;
    c = add_case(AX_OP_REDUCE, AXIAL_I32, 3, n / 48, 16, 3), c->naxes = 1, c->axes[0] = 1;
    /* rows of 64 (medium rows, whole super-rows); integer columns over few rows: bytes of 5, and
     * i64 columns of 4 (one AVX2 vector) */
    c = add_case(AX_OP_REDUCE, AXIAL_F32, 2, n / 64, 64, 0), c->naxes = 1, c->axes[0] = 1;
    c = add_case(AX_OP_REDUCE, AXIAL_I8, 3, (int64_t)bytes / 80, 16, 5), c->naxes = 1, c->axes[0] = 1;
    c = add_case(AX_OP_REDUCE, AXIAL_I64, 3, (int64_t)bytes / 192, 6, 4), c->naxes = 1, c->axes[0] = 1;
    /* integer rows of 3 and of 40 bytes (x86: rows of 3 through vi_rows3, groups of 8-byte lanes) */
    c = add_case(AX_OP_REDUCE, AXIAL_I32, 2, n / 3, 3, 0), c->naxes = 1, c->axes[0] = 1;
    c = add_case(AX_OP_REDUCE, AXIAL_I8, 2, (int64_t)bytes / 40, 40, 0), c->naxes = 1, c->axes[0] = 1;
    /* float columns of a few vectors: f16 [., 32] and f32 [., 48] over axis 0 */
    c = add_case(AX_OP_REDUCE, AXIAL_F16, 2, n / 16, 32, 0), c->naxes = 1, c->axes[0] = 0;
    c = add_case(AX_OP_REDUCE, AXIAL_F32, 2, n / 48, 48, 0), c->naxes = 1, c->axes[0] = 0;
    const axial_dtype more[] = {AXIAL_F64, AXIAL_I32, AXIAL_I8, AXIAL_BF16, AXIAL_F16};
    for (int t = 0; t < 5; t++) {
        c = add_case(AX_OP_REDUCE, more[t], 1, (int64_t)(bytes / ax_dtype_size(more[t])), 0, 0);
        c->flags = AXIAL_REDUCE_EMPTY_AXES_ALL;
    }
}

static void roll_cases(size_t bytes) {
    const int64_t n = (int64_t)(bytes / 4);
    axb_case *c;
    const axial_dtype sizes[] = {AXIAL_F32, AXIAL_I8, AXIAL_I16, AXIAL_F64};
    for (int t = 0; t < 4; t++) {
        int64_t m = (int64_t)(bytes / ax_dtype_size(sizes[t]));
        c = add_case(AX_OP_ROLL, sizes[t], 1, m, 0, 0);
        c->naxes = c->nshift = 1, c->shift[0] = m / 3;
    }
    c = add_case(AX_OP_ROLL, AXIAL_F32, 2, n / 1024, 1024, 0);
    c->naxes = c->nshift = 1, c->axes[0] = 1, c->shift[0] = 100;
    c = add_case(AX_OP_ROLL, AXIAL_F32, 2, n / 4, 4, 0);
    c->naxes = c->nshift = 1, c->axes[0] = 1, c->shift[0] = 1;
    c = add_case(AX_OP_ROLL, AXIAL_F32, 3, 64, n / 4096, 64);
    c->naxes = c->nshift = 3;
    c->axes[0] = 0, c->axes[1] = 1, c->axes[2] = 2;
    c->shift[0] = 5, c->shift[1] = -7, c->shift[2] = 9;
}

/* The log-space ops, each of f32 and f64 as [n], [n/1024, 1024]
 * along axis 1 (rows) and [1024, n/1024] along axis 0 (columns), and bf16 as
 * [n]; the reduction of [n] over all axes; LogCumSumExp of short lines. */
static void lse_cases(size_t bytes) {
    const axial_dtype types[] = {AXIAL_F32, AXIAL_F64, AXIAL_BF16};
    const ax_op ops[] = {AX_OP_LCSE, AX_OP_RLSE};
    for (int o = 0; o < 2; o++)
        for (int t = 0; t < 3; t++) {
            const int64_t n = (int64_t)(bytes / ax_dtype_size(types[t]));
            const bool red = ops[o] == AX_OP_RLSE;
            axb_case *c = add_case(ops[o], types[t], 1, n, 0, 0);
            if (red) c->flags = AXIAL_REDUCE_EMPTY_AXES_ALL;
            if (types[t] == AXIAL_BF16) continue;
            c = add_case(ops[o], types[t], 2, n / 1024, 1024, 0);
            if (red) c->naxes = 1, c->axes[0] = 1;
            else c->axis = 1;
            c = add_case(ops[o], types[t], 2, 1024, n / 1024, 0);
            if (red) c->naxes = 1, c->axes[0] = 0;
        }
    /* LogCumSumExp f32 along lines of 3 and of 100: short lines, many a vector */
    const int64_t n = (int64_t)(bytes / 4);
    add_case(AX_OP_LCSE, AXIAL_F32, 2, n / 3, 3, 0)->axis = 1;
    add_case(AX_OP_LCSE, AXIAL_F32, 2, n / 100, 100, 0)->axis = 1;
}

/* The split sweep: 1-D f32 of each op, and CumSum of rows of 1024 (many
 * lines, split into groups of lines where a 1-D scan may not be), 4 KiB ..
 * 4 MiB of input. */
static void sweep_cases(void) {
    for (size_t bytes = (size_t)4 << 10; bytes <= (size_t)4 << 20; bytes *= 2) {
        const int64_t n = (int64_t)(bytes / 4);
        axb_case *c = add_case(AX_OP_CUMSUM, AXIAL_F32, 1, n, 0, 0);
        c->sweep = true;
        c = add_case(AX_OP_CUMSUM, AXIAL_F32, 2, n / 1024, 1024, 0);
        c->axis = 1, c->sweep = true;
        c = add_case(AX_OP_REDUCE, AXIAL_F32, 1, n, 0, 0);
        c->flags = AXIAL_REDUCE_EMPTY_AXES_ALL, c->sweep = true;
        c = add_case(AX_OP_ROLL, AXIAL_F32, 1, n, 0, 0);
        c->naxes = c->nshift = 1, c->shift[0] = n / 3, c->sweep = true;
    }
}

/* ---- running one case ------------------------------------------------------------- */

static ax_call call_of(const axb_case *c) {
    return (ax_call){c->op,    c->dtype, c->rank,  c->shape, c->axis,
                     c->flags, c->axes,  c->naxes, c->shift, c->nshift};
}

static axial_status run_axial(const axb_case *c, const void *x, void *y) {
    const ax_call call = call_of(c);
    return ax_call_plain(&call, x, y);
}

static axial_status run_axial_ex(const axb_case *c, const void *x, void *y,
                                 const axial_executor *ex) {
    const ax_call call = call_of(c);
    return ax_call_ex(&call, x, y, ex);
}

static void *alloc(size_t bytes) {
    void *p = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (!p) {
        fprintf(stderr, "axial-bench: out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    memset(p, 0, bytes); /* fault the pages in before timing */
    return p;
}

/* f16 bits of a normal float that f16 holds exactly (the fill's v/8). */
static uint16_t axb_f16_bits(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    if ((b & 0x7fffffffu) == 0)
        return (uint16_t)(b >> 16);
    return (uint16_t)(((b >> 16) & 0x8000u) | ((((b >> 23) & 0xffu) - 112u) << 10) |
                      ((b >> 13) & 0x3ffu));
}

/* Small values: no overflow to inf, exact integer sums for a while. */
static void fill(const axb_case *c, void *x) {
    size_t n = axb_count(c);
    for (size_t i = 0; i < n; i++) {
        int v = (int)(i * 7 % 17) - 8;
        switch (c->dtype) {
        case AXIAL_F32: ((float *)x)[i] = (float)v * 0.125f; break;
        case AXIAL_F64: ((double *)x)[i] = v * 0.125; break;
        case AXIAL_BF16: { float f = (float)v * 0.125f; uint32_t b; memcpy(&b, &f, 4);
                           ((uint16_t *)x)[i] = (uint16_t)(b >> 16); break; }
        case AXIAL_F16: /* v/8, |v| <= 8: sign, exponent 15 + log2, 10 fraction bits */
            ((uint16_t *)x)[i] = axb_f16_bits((float)v * 0.125f); break;
        case AXIAL_I8: ((int8_t *)x)[i] = (int8_t)v; break;
        case AXIAL_I16: ((int16_t *)x)[i] = (int16_t)v; break;
        case AXIAL_I32: ((int32_t *)x)[i] = v; break;
        default: ((int64_t *)x)[i] = v; break;
        }
    }
}

typedef struct {
    const axb_case *c;
    int isa;              /* axial ISA, or -1 for a peer */
    const axb_peer *peer;
    size_t threads;       /* 0: the single-thread row; T: "/threads:T" */
    int checked;          /* peer vs axial: 0 not yet, 1 agreed, -1 differed */
    double rel_err;       /* the checked peer's largest error / largest |y| */
    char why[200];        /* the difference, when checked == -1             */
} axb_inst;

/* How far a float peer may stray from axial, relative to the largest |y|
 * (at least 1).  The inputs are multiples of 1/8 in [-1, 1] whose running
 * sums stay small, so every partial sum is exact in f32 and f64 in any
 * order, and within a unit or two of the last place in bf16 (8 bits): a
 * peer beyond this computed something else (wrong axis, wrong flags). */
static double tolerance(axial_dtype dt) {
    switch (dt) {
    case AXIAL_F64: return 1e-12;
    case AXIAL_F32: return 1e-5;
    case AXIAL_BF16: return 1.6e-2; /* 4 ulp of bf16 at 1.0 */
    case AXIAL_F16: return 4e-3;    /* 4 ulp of f16 at 1.0 */
    default: return 0;              /* integers and Roll: bit for bit */
    }
}

/* Once per benchmark: runs the peer on x into a y prefilled with a
 * sentinel (so a peer that writes nothing is caught) and compares it with
 * axial's scalar kernels, the oracle. */
static void check_peer(axb_inst *in, const void *x, void *y, void *ctx) {
    const axb_case *c = in->c;
    const size_t es = ax_dtype_size(c->dtype), no = axb_out_count(c);
    void *ref = alloc(no * es);
    memset(y, 0x5a, no * es); /* 0x5a5a...: 1.5e16 as f32, not a sum of this data */
    in->peer->run(ctx, c, x, y);
    axial_isa prev = axial_isa_active();
    axial_isa_select(AXIAL_ISA_SCALAR);
    axial_status st = run_axial(c, x, ref);
    axial_isa_select(prev);
    in->checked = 1;
    if (st != AXIAL_OK) {
        snprintf(in->why, sizeof in->why, "check: axial failed (%s: %s)", axial_status_name(st),
                 axial_last_error());
        in->checked = -1;
        free(ref);
        return;
    }
    double worst = 0, scale = 0;
    size_t at = 0;
    const bool bits = c->op == AX_OP_ROLL || tolerance(c->dtype) == 0;
    for (size_t i = 0; i < no; i++) {
        if (bits) {
            if (memcmp((const char *)y + i * es, (const char *)ref + i * es, es) != 0) {
                snprintf(in->why, sizeof in->why,
                         "check: %s differs from axial at element %zu (%g, axial %g)",
                         in->peer->name, i, ax_dtype_value(c->dtype, y, i),
                         ax_dtype_value(c->dtype, ref, i));
                in->checked = -1;
                break;
            }
            continue;
        }
        double r = ax_dtype_value(c->dtype, ref, i), d = ax_dtype_value(c->dtype, y, i) - r;
        if (d < 0) d = -d;
        if (d != d) d = 1e300; /* NaN */
        if (r < 0) r = -r;
        if (d > worst) worst = d, at = i;
        if (r > scale) scale = r;
    }
    in->rel_err = worst / (scale > 1 ? scale : 1);
    if (in->checked == 1 && in->rel_err > tolerance(c->dtype)) {
        snprintf(in->why, sizeof in->why,
                 "check: %s differs from axial by %g at element %zu (%g, axial %g; tolerance %g)",
                 in->peer->name, worst, at, ax_dtype_value(c->dtype, y, at),
                 ax_dtype_value(c->dtype, ref, at), tolerance(c->dtype));
        in->checked = -1;
    }
    free(ref);
}

static double now(clockid_t id) {
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
double axb_wall(void) { return now(CLOCK_MONOTONIC); }

/* Around a threaded benchmark's timed loop: how many threads worked.  Each
 * thread's CPU time comes from its Linux per-thread CPU clock (the clockid
 * glibc's pthread_getcpuclockid makes from a thread id: any thread of this
 * process, the pool's and the peers' included). */
#define AXB_MAX_TASKS 256
typedef struct {
    double cpu, wall;
    size_t ntasks;
    int tid[AXB_MAX_TASKS];
    double tcpu[AXB_MAX_TASKS];
} axb_usage;

static double thread_cpu(int tid) {
    clockid_t id = (clockid_t)(((unsigned)~tid << 3) | 6u); /* CPUCLOCK_PERTHREAD | SCHED */
    struct timespec t;
    if (clock_gettime(id, &t) != 0) return -1;
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void usage_threads(axb_usage *u) {
    u->ntasks = 0;
    DIR *d = opendir("/proc/self/task");
    if (!d) return;
    for (struct dirent *e; (e = readdir(d)) && u->ntasks < AXB_MAX_TASKS;) {
        if (e->d_name[0] == '.') continue;
        int tid = atoi(e->d_name);
        u->tid[u->ntasks] = tid;
        u->tcpu[u->ntasks++] = thread_cpu(tid);
    }
    closedir(d);
}

static void usage_start(axb_usage *u, const axb_inst *in) {
    if (!in->threads) return;
    usage_threads(u);
    u->cpu = now(CLOCK_PROCESS_CPUTIME_ID);
    u->wall = now(CLOCK_MONOTONIC);
}

/* cpu_per_wall: process CPU time / wall time over the loop; threads_ran: the
 * threads that ran for at least 5% of it (new threads count from 0). */
static void usage_report(axb_state *s, const axb_inst *in, axb_usage *u) {
    if (!in->threads) return;
    double wall = now(CLOCK_MONOTONIC) - u->wall, cpu = now(CLOCK_PROCESS_CPUTIME_ID) - u->cpu;
    axb_usage after;
    usage_threads(&after);
    int ran = 0;
    for (size_t i = 0; i < after.ntasks; i++) {
        double before = 0;
        for (size_t k = 0; k < u->ntasks; k++)
            if (u->tid[k] == after.tid[i]) before = u->tcpu[k];
        ran += after.tcpu[i] >= 0 && before >= 0 && after.tcpu[i] - before >= 0.05 * wall;
    }
    axb_counter(s, "cpu_per_wall", wall > 0 ? cpu / wall : 0);
    axb_counter(s, "threads_ran", ran);
}

static axial_isa default_isa; /* what dispatch picked at startup */
/* The default as it started (hidden functions of the static library:
 * src/internal.h), and whether it runs some ops on another ISA (docs/API.md
 * section 10): then the single-thread rows have a "default" row beside each
 * ISA's, and the threaded rows run the default too, which no
 * axial_isa_select can bring back. */
int axial__isa_state(void);
bool axial__isa_restore(int state);
static int default_state;
static bool default_per_op;
#define AXB_DEFAULT (-2) /* an instance's isa: the default, not one forced ISA */

/* Makes an instance's ISA active: one ISA, or the default. */
static bool select_isa(int isa) {
    if (isa == AXB_DEFAULT)
        return axial__isa_restore(default_state);
    return axial_isa_select((axial_isa)isa) == AXIAL_OK;
}

/* A row's ISA name: "default" for the default's own single-thread rows, the
 * default's ISA for its threaded and sweep rows. */
static const char *isa_row_name(int isa, bool own_row) {
    if (isa == AXB_DEFAULT)
        return own_row ? "default" : axial_isa_name(default_isa);
    return axial_isa_name((axial_isa)isa);
}

static const char *isa_label(const axb_inst *in) {
    return isa_row_name(in->isa, !in->threads && !in->c->sweep);
}

/* axial_*_ex on a T-thread pool, its output first checked against the plain call's. */
static bool bench_pool(axb_state *s, axb_inst *in, const void *x, void *y) {
    const axb_case *c = in->c;
    const size_t es = ax_dtype_size(c->dtype), no = axb_out_count(c);
    char why[256];
    axial_pool *pool = NULL;
    if (!select_isa(in->isa)) {
        snprintf(why, sizeof why, "%s: %s", isa_label(in), axial_last_error());
        axb_skip(s, why);
        return false;
    }
    axial_status st = axial_pool_create(in->threads, &pool);
    if (st != AXIAL_OK) {
        snprintf(why, sizeof why, "axial_pool_create(%zu): %s", in->threads, axial_last_error());
        axb_skip(s, why);
        return false;
    }
    const axial_executor *ex = axial_pool_executor(pool);
    bool ok = false;
    void *ref = alloc(no * es);
    memset(y, 0x5a, no * es);
    st = run_axial(c, x, ref);
    if (st == AXIAL_OK) st = run_axial_ex(c, x, y, ex);
    if (st != AXIAL_OK) {
        snprintf(why, sizeof why, "axial: %s", axial_last_error());
        axb_skip(s, why);
        goto done;
    }
    for (size_t i = 0; i < no; i++)
        if (memcmp((const char *)y + i * es, (const char *)ref + i * es, es) != 0) {
            snprintf(why, sizeof why,
                     "threads:%zu: output differs from the plain call at element %zu "
                     "(%g, plain %g)",
                     in->threads, i, ax_dtype_value(c->dtype, y, i),
                     ax_dtype_value(c->dtype, ref, i));
            axb_skip(s, why);
            goto done;
        }
    size_t iters = axb_iterations(s);
    static axb_usage u;
    usage_start(&u, in);
    while (axb_batch(s, iters))
        for (size_t i = 0; i < iters; i++) {
            run_axial_ex(c, x, y, ex);
            AXB_CLOBBER();
        }
    usage_report(s, in, &u);
    axb_label(s, isa_label(in));
    ok = true;
done:
    free(ref);
    axial_pool_destroy(pool);
    return ok;
}

static void noop_task(void *arg, size_t task) {
    (void)arg, (void)task;
}

/* One parallel_for of a T-thread pool with T tasks that do nothing. */
static void bench_parallel_for(axb_state *s, void *arg) {
    const axb_inst *in = arg;
    axial_pool *pool = NULL;
    if (axial_pool_create(in->threads, &pool) != AXIAL_OK) {
        char why[256];
        snprintf(why, sizeof why, "axial_pool_create(%zu): %s", in->threads, axial_last_error());
        axb_skip(s, why);
        return;
    }
    const axial_executor *ex = axial_pool_executor(pool);
    const size_t ntasks = in->threads;
    ex->parallel_for(ex->self, noop_task, NULL, ntasks); /* warm-up */
    size_t iters = axb_iterations(s);
    static axb_usage u;
    usage_start(&u, in);
    while (axb_batch(s, iters))
        for (size_t i = 0; i < iters; i++) {
            ex->parallel_for(ex->self, noop_task, NULL, ntasks);
            AXB_CLOBBER();
        }
    usage_report(s, in, &u);
    axb_set_items(s, 1); /* calls per second */
    axial_pool_destroy(pool);
}

/* The probes (bandwidth and exp): ceilings, not peers: their output is not
 * compared with axial's. */
static bool is_probe(const axb_peer *p) {
    return p == &axb_probe || p == &axb_exp_scalar || p == &axb_exp_avx2 ||
           p == &axb_exp_avx512 || p == &axb_exp_neon;
}

/* The log-space ops get the bandwidth probe and the exp probes (their
 * peers are the Python runtimes); the other ops every peer but the exp
 * probes. */
static bool peer_applies(const axb_case *c, const axb_peer *p) {
    if (ax_op_lse(c->op)) return is_probe(p);
    return !is_probe(p) || p == &axb_probe;
}

static void bench_body(axb_state *s, void *arg) {
    axb_inst *in = arg;
    const axb_case *c = in->c;
    const size_t es = ax_dtype_size(c->dtype), n = axb_count(c), no = axb_out_count(c);
    void *x = alloc(n * es), *y = alloc(no * es), *ctx = NULL;
    char why[256];
    fill(c, x);
    if (!in->peer && in->threads) {
        if (!bench_pool(s, in, x, y)) goto done;
    } else if (in->peer) {
        bool ok = in->threads ? in->peer->prepare_threads(c, in->threads, &ctx, why, sizeof why)
                              : in->peer->prepare(c, &ctx, why, sizeof why);
        if (!ok) {
            axb_skip(s, why);
            goto done;
        }
        if (is_probe(in->peer)) {
            in->peer->run(ctx, c, x, y); /* warm-up */
        } else {
            if (!in->checked) check_peer(in, x, y, ctx); /* also the warm-up */
            else in->peer->run(ctx, c, x, y);
            if (in->checked < 0) {
                axb_skip(s, in->why);
                goto done;
            }
            axb_counter(s, "max_rel_err", in->rel_err);
        }
        size_t iters = axb_iterations(s);
        static axb_usage u;
        usage_start(&u, in);
        while (axb_batch(s, iters))
            for (size_t i = 0; i < iters; i++) {
                in->peer->run(ctx, c, x, y);
                AXB_CLOBBER();
            }
        usage_report(s, in, &u);
        axb_label(s, in->peer->name);
    } else {
        unsigned avail = axial_isa_available();
        if (!select_isa(in->isa)) {
            snprintf(why, sizeof why, "%s is not available on this CPU/build (available mask 0x%x)",
                     isa_label(in), avail);
            axb_skip(s, why);
            goto done;
        }
        axial_status st = run_axial(c, x, y);
        if (st != AXIAL_OK) {
            snprintf(why, sizeof why, "axial: %s", axial_last_error());
            axb_skip(s, why);
            goto done;
        }
        size_t iters = axb_iterations(s);
        while (axb_batch(s, iters))
            for (size_t i = 0; i < iters; i++) {
                run_axial(c, x, y);
                AXB_CLOBBER();
            }
        axb_label(s, isa_label(in));
    }
    axb_set_bytes(s, (double)((n + no) * es));
    axb_set_items(s, (double)n);
done:
    if (ctx && in->peer && in->peer->release) in->peer->release(ctx);
    free(x);
    free(y);
}

/* ---- registration ------------------------------------------------------------------ */

#define AXB_MAX_THREADS 64
static size_t thread_list[AXB_MAX_THREADS], nthreads;

/* AXIAL_BENCH_THREADS: "1,2,4", "1-16" or a mix; default 1 .. the CPUs this
 * process may run on.  Returns false (with a message) on a bad list. */
static bool parse_threads(const char *spec) {
    if (!spec || !*spec) {
        cpu_set_t set;
        long n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                              : sysconf(_SC_NPROCESSORS_ONLN);
        if (n < 1) n = 1;
        if (n > AXB_MAX_THREADS) n = AXB_MAX_THREADS;
        for (long t = 1; t <= n; t++) thread_list[nthreads++] = (size_t)t;
        return true;
    }
    const char *p = spec;
    while (*p) {
        char *end;
        unsigned long lo = strtoul(p, &end, 10), hi = lo;
        if (end == p) break;
        if (*end == '-') {
            p = end + 1;
            hi = strtoul(p, &end, 10);
            if (end == p) break;
        }
        if (lo < 1 || hi < lo || hi > AXB_MAX_THREADS) break;
        for (unsigned long t = lo; t <= hi; t++) {
            bool dup = false;
            for (size_t k = 0; k < nthreads; k++) dup |= thread_list[k] == t;
            if (!dup && nthreads < AXB_MAX_THREADS) thread_list[nthreads++] = t;
        }
        p = end;
        if (*p == ',') p++;
        else if (*p) break;
        if (!*p) return nthreads > 0;
    }
    fprintf(stderr,
            "axial-bench: AXIAL_BENCH_THREADS=%s: use a list like 1,2,4 or 1-16 (1 .. %d)\n",
            spec, AXB_MAX_THREADS);
    return false;
}

static void write_json(const char *path) {
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fprintf(f, "[\n");
    for (size_t i = 0; i < ncases; i++) {
        const axb_case *c = &cases[i];
        fprintf(f, "  {\"case\": \"%s\", \"op\": \"%s\", \"dtype\": \"%s\", \"shape\": [",
                c->name, ax_op_name(c->op), ax_dtype_str(c->dtype));
        for (size_t k = 0; k < c->rank; k++)
            fprintf(f, "%s%lld", k ? ", " : "", (long long)c->shape[k]);
        fprintf(f, "], \"bytes\": %zu", axb_count(c) * ax_dtype_size(c->dtype));
        /* the thread counts of its "/threads:T" rows (T >= 2; T = 1 is the plain row) */
        fprintf(f, ", \"threads\": [");
        for (size_t t = 0, k = 0; c->threaded && t < nthreads; t++)
            if (thread_list[t] > 1) fprintf(f, "%s%zu", k++ ? ", " : "", thread_list[t]);
        fprintf(f, "], \"sweep\": %s", c->sweep ? "true" : "false");
        if (ax_op_scan(c->op)) {
            fprintf(f, ", \"axis\": %lld, \"exclusive\": %s, \"reverse\": %s",
                    (long long)c->axis, c->flags & 1 ? "true" : "false",
                    c->flags & 2 ? "true" : "false");
        } else {
            fprintf(f, ", \"axes\": [");
            for (size_t a = 0; a < c->naxes; a++)
                fprintf(f, "%s%lld", a ? ", " : "", (long long)c->axes[a]);
            fprintf(f, "]");
            if (ax_op_reduce(c->op)) fprintf(f, ", \"keep_dims\": false");
            else {
                fprintf(f, ", \"shift\": [");
                for (size_t s = 0; s < c->nshift; s++)
                    fprintf(f, "%s%lld", s ? ", " : "", (long long)c->shift[s]);
                fprintf(f, "]");
            }
        }
        fprintf(f, "}%s\n", i + 1 < ncases ? "," : "");
    }
    fprintf(f, "]\n");
    fclose(f);
}

/* One registered benchmark; lives until the process ends. */
static axb_inst *new_inst(const axb_case *c, int isa, const axb_peer *peer, size_t threads) {
    axb_inst *in = calloc(1, sizeof *in);
    if (!in) {
        fprintf(stderr, "axial-bench: out of memory\n");
        exit(1);
    }
    in->c = c, in->isa = isa, in->peer = peer, in->threads = threads;
    return in;
}

int main(int argc, char **argv) {
#ifdef AXB_HAVE_ONEDNN
    /* Debian's oneDNN is OpenMP-threaded (ldd: libgomp.so.1), and libgomp
     * reads OMP_NUM_THREADS once, when it is loaded with the binary: set it
     * and re-execute, so that oneDNN runs on one thread like every
     * single-thread row here (its "/threads:T" rows call
     * omp_set_num_threads(T): peer_onednn.c). */
    const char *omp = getenv("OMP_NUM_THREADS");
    if (!omp || strcmp(omp, "1") != 0) {
        setenv("OMP_NUM_THREADS", "1", 1);
        execv("/proc/self/exe", argv);
        perror("axial-bench: re-exec with OMP_NUM_THREADS=1");
        return 1;
    }
    axb_context("onednn_threads", "1 (OpenMP, OMP_NUM_THREADS=1)");
#endif
    default_isa = axial_isa_active();
    default_state = axial__isa_state();
    default_per_op = default_state != (int)default_isa;
    const char *sizes = getenv("AXIAL_BENCH_SIZES"), *mem = getenv("AXIAL_BENCH_BYTES");
    const char *tcases = getenv("AXIAL_BENCH_THREAD_CASES");
    if (!parse_threads(getenv("AXIAL_BENCH_THREADS"))) return 2;
    if (tcases && strcmp(tcases, "main") != 0 && strcmp(tcases, "all") != 0) {
        fprintf(stderr, "axial-bench: AXIAL_BENCH_THREAD_CASES=%s: use main or all\n", tcases);
        return 2;
    }
    if (sizes && strcmp(sizes, "cache") != 0 && strcmp(sizes, "memory") != 0 &&
        strcmp(sizes, "both") != 0) {
        fprintf(stderr, "axial-bench: AXIAL_BENCH_SIZES=%s: use cache, memory or both\n", sizes);
        return 2;
    }
    size_t big = mem ? (size_t)strtoull(mem, NULL, 0) : (size_t)256 << 20;
    if (big < ((size_t)1 << 20)) big = (size_t)1 << 20;
    big &= ~(((size_t)1 << 20) - 1); /* whole MiB: every shape divides */
    size_t list[2], nsizes = 0;
    if (!sizes || strcmp(sizes, "memory") != 0) list[nsizes++] = (size_t)256 << 10;
    if (!sizes || strcmp(sizes, "cache") != 0) list[nsizes++] = big;
    char ctx[64];
    snprintf(ctx, sizeof ctx, nsizes == 2 ? "%zu,%zu" : "%zu", list[0], nsizes == 2 ? list[1] : 0);
    axb_context("input_bytes", ctx);
    for (size_t z = 0; z < nsizes; z++) {
        cumsum_cases(list[z]);
        reduce_cases(list[z]);
        roll_cases(list[z]);
        lse_cases(list[z]);
    }
    /* the threads dimension: the f32 cases but the excl/rev scans, or all */
    const bool all = tcases && strcmp(tcases, "all") == 0;
    for (size_t i = 0; i < ncases; i++)
        cases[i].threaded = all || (cases[i].dtype == AXIAL_F32 &&
                                    !(ax_op_scan(cases[i].op) && cases[i].flags));
    sweep_cases();
    for (size_t i = 0; i < ncases; i++) name_case(&cases[i]);
    char tl[AXB_MAX_THREADS * 4] = "";
    for (size_t t = 0; t < nthreads; t++)
        snprintf(tl + strlen(tl), sizeof tl - strlen(tl), "%s%zu", t ? "," : "", thread_list[t]);
    axb_context("threads", tl);
    axb_context("threads_isa", axial_isa_name(default_isa));

    int out = 1;
    for (int a = 1; a < argc; a++) {
        if (strncmp(argv[a], "--cases-json=", 13) == 0) {
            write_json(argv[a] + 13);
            return 0;
        }
        argv[out++] = argv[a];
    }
    argc = out;

#if defined(__aarch64__)
    static const int isas[] = {AXIAL_ISA_SCALAR, AXIAL_ISA_NEON};
#else
    static const int isas[] = {AXIAL_ISA_SCALAR, AXIAL_ISA_AVX2, AXIAL_ISA_AVX512};
#endif
    static const axb_peer *peers[] = {&axb_probe, &axb_exp_scalar,
#if defined(__aarch64__)
                                      &axb_exp_neon,
#else
                                      &axb_exp_avx2, &axb_exp_avx512,
#endif
                                      &axb_loop,
#ifdef AXB_HAVE_EIGEN
                                      &axb_eigen,
#endif
#ifdef AXB_HAVE_ONEDNN
                                      &axb_onednn,
#endif
    };
    const size_t nisa_own = sizeof isas / sizeof *isas, npeer = sizeof peers / sizeof *peers;
    /* the ISAs' rows, then the default's where it chooses per op */
    int isa_rows[sizeof isas / sizeof *isas + 1];
    memcpy(isa_rows, isas, sizeof isas);
    isa_rows[nisa_own] = AXB_DEFAULT;
    const size_t nisa = nisa_own + default_per_op;
    char name[256];
    for (size_t i = 0; i < ncases; i++) {
        const char *c = cases[i].name;
        const char *rest = strchr(strchr(c, '/') + 1, '/'); /* after op/type */
        /* the single-thread rows (the sweep: the plain call on the default ISA only) */
        for (size_t k = 0; k < nisa + npeer; k++) {
            const int sweep_isa = default_per_op ? AXB_DEFAULT : (int)default_isa;
            if (cases[i].sweep && (k >= nisa || isa_rows[k] != sweep_isa)) continue;
            if (k >= nisa && !peer_applies(&cases[i], peers[k - nisa])) continue;
            axb_inst *in = new_inst(&cases[i], k < nisa ? isa_rows[k] : -1,
                                    k < nisa ? NULL : peers[k - nisa], 0);
            snprintf(name, sizeof name, "%.*s/%s%s", (int)(rest - c), c,
                     k < nisa ? isa_row_name(isa_rows[k], !cases[i].sweep) : in->peer->name,
                     rest);
            axb_register(name, bench_body, in);
        }
        /* "/threads:T": axial on a T-thread pool; the peers that can at T >= 2 */
        for (size_t t = 0; t < (cases[i].sweep ? 1 : cases[i].threaded ? nthreads : 0); t++) {
            const size_t nt = cases[i].sweep ? 2 : thread_list[t];
            for (size_t k = 0; k <= npeer; k++) {
                const axb_peer *peer = k ? peers[k - 1] : NULL;
                if (peer && (nt < 2 || !peer->prepare_threads || cases[i].sweep ||
                             !peer_applies(&cases[i], peer)))
                    continue;
                axb_inst *in = new_inst(&cases[i], peer ? -1 : AXB_DEFAULT, peer, nt);
                snprintf(name, sizeof name, "%.*s/%s%s/threads:%zu", (int)(rest - c), c,
                         peer ? peer->name : axial_isa_name(default_isa), rest, nt);
                axb_register(name, bench_body, in);
            }
        }
    }
    axb_register_streams(isas, nisa);
    for (size_t t = 0; t < nthreads; t++) {
        snprintf(name, sizeof name, "parallel_for/empty/pool/threads:%zu", thread_list[t]);
        axb_register(name, bench_parallel_for, new_inst(NULL, -1, NULL, thread_list[t]));
    }
    return axb_main(argc, argv);
}
