/* SPDX-License-Identifier: MIT */
/*
 * streams.c: streams and shards against one call, in one binary run
 * (docs/API.md, "Streams and shards"):
 *   streams/{op}/f32/{isa}/[4194304]/one_call     the plain call, 16 MiB
 *   streams/{op}/f32/{isa}/[4194304]/pieces:P     a stream fed P pieces
 *                                                 (256: 64 KiB, 4096: 4 KiB)
 *   streams/{op}/f32/{isa}/[4096,1024]/axis:0/{one_call,pieces:256}
 *                                                 the same down columns
 *   shards/{op}/f32/{isa}/[4194304]/one_call      the plain call
 *   shards/{op}/f32/{isa}/[4194304]/shards:16     16 summaries, combined in
 *                                                 order, then each shard
 *                                                 scanned (scans) or the
 *                                                 result finished (reductions)
 *   streams/copy/f32/probe/[4194304]              memcpy of the 16 MiB
 * for op cumsum, logcumsumexp, reduce_sum and reduce_logsumexp (a stream:
 * its pushes, then its result).  Bytes are input plus output, as the
 * matrix's.  Each stream's output is checked against the one call's bytes
 * once, before the timing.  The pieces and shards rows also report
 * x_one_call: the median over ST_ALT rounds of their work's time over the
 * one call's, the two timed one right after the other in each round, in
 * turn first (so that each meets the caches as the other left them as
 * often as it meets them as it left them itself; rows timed apart meet
 * another state of a shared machine: 10% either way).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "shim.h"

enum { ST_N = 4194304, ST_ROWS = 4096, ST_COLS = 1024, SH_SHARDS = 16, ST_ALT = 8 };

typedef struct {
    axial_op op;
    int isa;
    size_t pieces; /* 0: one call */
    bool cols;     /* [4096, 1024] axis 0 */
    bool shards;
    float *x, *y, *want;
} st_inst;

static float *st_data(void) {
    static float *x;
    if (x == NULL) {
        x = malloc((size_t)ST_N * sizeof *x);
        uint64_t r = 0x9e3779b97f4a7c15u;
        for (size_t i = 0; i < ST_N; i++) {
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            x[i] = (float)((r >> 40) & 0xffffff) * 0x1p-24f * 4.0f - 2.0f;
        }
    }
    return x;
}

static bool is_scan(axial_op op) { return op == AXIAL_OP_CUMSUM || op == AXIAL_OP_LOGCUMSUMEXP; }

/* The ops along axis 0 of [n] or [rows, cols]. */
static axial_status one_call(const st_inst *in, float *y) {
    const int64_t line[1] = {ST_N}, cols[2] = {ST_ROWS, ST_COLS}, axes[1] = {0};
    const ax_call call = {ax_op_of(in->op), AXIAL_F32, in->cols ? 2 : 1, in->cols ? cols : line,
                          0, 0, axes, 1, NULL, 0};
    return ax_call_plain(&call, in->x, y);
}

/* One stream over the whole tensor in `pieces` equal pieces. */
static axial_status run_stream(const st_inst *in, axial_stream *s) {
    axial_stream_reset(s);
    const size_t rows = in->cols ? ST_ROWS : ST_N, per = rows / in->pieces;
    const size_t row = in->cols ? ST_COLS : 1;
    for (size_t p = 0; p < in->pieces; p++) {
        const int64_t line[1] = {(int64_t)per}, cols[2] = {(int64_t)per, ST_COLS};
        const axial_status st = axial_stream_push(
            s, AXIAL_F32, in->x + p * per * row, is_scan(in->op) ? in->y + p * per * row : NULL,
            in->cols ? 2 : 1, in->cols ? cols : line);
        if (st != AXIAL_OK)
            return st;
    }
    return is_scan(in->op) ? AXIAL_OK : axial_stream_result(s, in->y);
}

/* Summaries of 16 shards of the line, combined in order, then the scans or
 * the finish.  The summaries' buffers are the caller's (sum, 16 of cap). */
static axial_status run_shards(const st_inst *in, unsigned char *sum, size_t cap) {
    const int64_t line[1] = {ST_N}, axes[1] = {0};
    const axial_shards sh = {in->op, AXIAL_F32, 1, line, axes, 1, 0};
    const size_t per = ST_N / SH_SHARDS;
    size_t z[SH_SHARDS];
    axial_status st = AXIAL_OK;
    for (size_t k = 0; k < SH_SHARDS && st == AXIAL_OK; k++) {
        st = axial_shard_summary_size(&sh, (int64_t)(k * per), (int64_t)per, &z[k]);
        if (st == AXIAL_OK)
            st = axial_shard_summarize(&sh, in->x + k * per, (int64_t)(k * per), (int64_t)per,
                                       sum + k * cap, cap);
    }
    /* carries: the running combination in piece order (prefix k covers [0, k)) */
    unsigned char *acc = sum + SH_SHARDS * cap;
    size_t az = 0;
    for (size_t k = 0; k < SH_SHARDS && st == AXIAL_OK; k++) {
        if (is_scan(in->op))
            st = axial_shard_scan(&sh, in->x + k * per, in->y + k * per, (int64_t)(k * per),
                                  (int64_t)per, k ? acc : NULL, az);
        if (st != AXIAL_OK)
            break;
        if (k == 0) {
            memcpy(acc, sum, z[0]);
            az = z[0];
        } else {
            st = axial_shard_combine(acc, az, sum + k * cap, z[k], acc, cap, &az);
        }
    }
    if (st == AXIAL_OK && !is_scan(in->op))
        st = axial_shard_finish(&sh, acc, az, in->y);
    return st;
}

static int st_cmp(const void *a, const void *b) {
    const double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

static void st_body(axb_state *s, void *arg) {
    st_inst *in = arg;
    if (axial_isa_select((axial_isa)in->isa) != AXIAL_OK) {
        axb_skip(s, "this ISA is not available on this CPU/build");
        return;
    }
    const size_t count = ST_N, out = is_scan(in->op) ? count : in->cols ? ST_COLS : 1;
    in->x = st_data();
    if (in->y == NULL) {
        in->y = malloc(count * sizeof(float));
        in->want = malloc(count * sizeof(float));
    }
    if (one_call(in, in->want) != AXIAL_OK) {
        axb_skip(s, axial_last_error());
        return;
    }
    axial_stream *stream = NULL;
    unsigned char *sum = NULL;
    const size_t cap = 4096;
    if (in->pieces) {
        const int64_t line[1] = {ST_N}, cols[2] = {ST_ROWS, ST_COLS};
        if (axial_stream_create(in->op, AXIAL_F32, in->cols ? 2 : 1, in->cols ? cols : line, 0,
                                0, &stream) != AXIAL_OK) {
            axb_skip(s, axial_last_error());
            return;
        }
    }
    if (in->shards)
        sum = malloc((SH_SHARDS + 1) * cap);
    /* check once: the same bytes as the one call */
    axial_status st = in->pieces ? run_stream(in, stream)
                      : in->shards ? run_shards(in, sum, cap)
                                   : one_call(in, in->y);
    if (st != AXIAL_OK || memcmp(in->y, in->want, out * sizeof(float)) != 0) {
        axb_skip(s, st != AXIAL_OK ? axial_last_error() : "the output is not the one call's");
        axial_stream_destroy(stream);
        free(sum);
        return;
    }
    if (in->pieces || in->shards) { /* x_one_call, alternating (the top of the file) */
        double r[ST_ALT];
        for (int k = 0; k < ST_ALT; k++) {
            double t[2]; /* t[0] the one call's, t[1] the work's (odd rounds: the work first) */
            for (int j = 0; j < 2; j++) {
                const int work = (j ^ k) & 1;
                const double t0 = axb_wall();
                if (work)
                    in->pieces ? run_stream(in, stream) : run_shards(in, sum, cap);
                else
                    one_call(in, in->want);
                t[work] = axb_wall() - t0;
            }
            r[k] = t[1] / t[0];
        }
        qsort(r, ST_ALT, sizeof r[0], st_cmp);
        axb_counter(s, "x_one_call", (r[ST_ALT / 2 - 1] + r[ST_ALT / 2]) / 2);
    }
    const size_t n = axb_iterations(s);
    while (axb_batch(s, n))
        for (size_t i = 0; i < n; i++) {
            if (in->pieces)
                run_stream(in, stream);
            else if (in->shards)
                run_shards(in, sum, cap);
            else
                one_call(in, in->y);
            AXB_CLOBBER();
        }
    axb_set_bytes(s, (double)(count + out) * sizeof(float));
    axb_set_items(s, (double)count);
    axial_stream_destroy(stream);
    free(sum);
}

static void copy_body(axb_state *s, void *arg) {
    (void)arg;
    float *x = st_data(), *y = malloc((size_t)ST_N * sizeof *y);
    const size_t n = axb_iterations(s);
    while (axb_batch(s, n))
        for (size_t i = 0; i < n; i++) {
            memcpy(y, x, (size_t)ST_N * sizeof *y);
            AXB_CLOBBER();
        }
    axb_set_bytes(s, 2.0 * ST_N * sizeof(float));
    free(y);
}

static const char *const st_ops[] = {"?", "cumsum", "logcumsumexp", "reduce_sum",
                                     "reduce_logsumexp"};

static void reg(axial_op op, int isa, size_t pieces, bool cols, bool shards) {
    st_inst *in = calloc(1, sizeof *in);
    in->op = op;
    in->isa = isa;
    in->pieces = pieces;
    in->cols = cols;
    in->shards = shards;
    char name[160];
    snprintf(name, sizeof name, "%s/%s/f32/%s/%s/%s", shards || (!pieces && !is_scan(op)) ? "shards" : "streams",
             st_ops[op], axial_isa_name((axial_isa)isa), cols ? "[4096,1024]/axis:0" : "[4194304]",
             "");
    size_t len = strlen(name);
    if (shards)
        snprintf(name + len, sizeof name - len, "shards:%d", SH_SHARDS);
    else if (pieces)
        snprintf(name + len, sizeof name - len, "pieces:%zu", pieces);
    else
        snprintf(name + len, sizeof name - len, "one_call");
    axb_register(name, st_body, in);
}

void axb_register_streams(const int *isas, size_t nisa) {
    axb_register("streams/copy/f32/probe/[4194304]", copy_body, NULL);
    for (size_t k = 0; k < nisa; k++) {
        const int isa = isas[k];
        for (axial_op op = AXIAL_OP_CUMSUM; op <= AXIAL_OP_REDUCE_LOGSUMEXP; op++) {
            if (is_scan(op)) /* (the sums' one_call rows are the shards' below) */
                reg(op, isa, 0, false, false);
            reg(op, isa, 256, false, false);
            reg(op, isa, 4096, false, false);
        }
        for (axial_op op = AXIAL_OP_CUMSUM; op <= AXIAL_OP_REDUCE_LOGSUMEXP; op++) {
            reg(op, isa, 0, true, false);
            reg(op, isa, 256, true, false);
        }
        for (axial_op op = AXIAL_OP_CUMSUM; op <= AXIAL_OP_REDUCE_LOGSUMEXP; op++) {
            if (!is_scan(op)) /* (the scans' one_call rows are the streams' above) */
                reg(op, isa, 0, false, false);
            reg(op, isa, 0, false, true);
        }
    }
}
