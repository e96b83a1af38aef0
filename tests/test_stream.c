/* SPDX-License-Identifier: MIT */
/*
 * test_stream.c: streams and shards (docs/API.md, "Streams and shards")
 * against one call, with memcmp.
 *
 * Per ISA:
 *   stream_cuts      CumSum fed in 2..100 pieces at random cut points (empty
 *                    pieces, single elements, cuts inside and across blocks
 *                    of 16 and chunks of 16384), every dtype and flag, lines
 *                    ([n], [R, n], [n, 1]), columns ([n, C] axis 0, [A, n, B]
 *                    axis 1); pieces in canaried buffers, some in place,
 *                    some through executors (a shuffled inline one, the
 *                    pool), some after the state went through its bytes
 *                    into a new stream: the outputs must be the one call's
 *                    bytes;
 *   stream_sums      ReduceSum fed in 2..100 pieces along its axis (rows,
 *                    periodic rows and columns, few outputs in fixed chunks
 *                    and many), every dtype: the result, and once the
 *                    result so far, must be the one call's bytes; a stream
 *                    begun on a SIMD ISA and ended on the scalar one keeps
 *                    the SIMD order (generic C);
 *   shard_cuts       the four ops cut along their axis into random pieces
 *                    on the grid: summaries (bytes copied, as if sent)
 *                    combined in random groupings, then scanned from their
 *                    carries or finished: the one call's bytes; off the
 *                    grid (and where there is no grid) within the bound.
 * API tests:
 *   stream_errors    every bad piece and bad bytes: the status, a message,
 *                    nothing written, the state unchanged (the stream goes
 *                    on to the one call's bits);
 *   shard_errors     summaries of other ops, dtypes, shapes, out of order,
 *                    with a gap, truncated, corrupted, another version;
 *   bytes_limits     sizes that would pass PTRDIFF_MAX (a stream's carries,
 *                    a summary, a scan's carries) and lengths past INT64_MAX
 *                    are AXIAL_E_SHAPE, nothing written; bytes of another
 *                    minor version or with reserved bytes set (checksums
 *                    made right) are refused, another patch level is read;
 *                    combine writes *size only when it succeeds and refuses
 *                    an out overlapping b; reset returns to create's order;
 *   shard_cross_isa  summaries and stream states (CumSum, ReduceSum) made on
 *                    one SIMD ISA go on on another (the same bits: one
 *                    summation order).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "harness.h"
#include "tests.h"

/* ---- helpers --------------------------------------------------------------- */

static size_t prod(const int64_t *s, size_t b, size_t e) {
    size_t p = 1;
    for (size_t i = b; i < e; i++)
        p *= (size_t)s[i];
    return p;
}

/* Copies the slab [s, s + L) of `axis` between a whole tensor (outer, n,
 * inner) and a piece (outer, L, inner): to_piece, or back. */
static void slab(char *whole, char *piece, size_t outer, size_t n, size_t inner, size_t s,
                 size_t L, size_t es, bool to_piece) {
    for (size_t o = 0; o < outer; o++) {
        char *w = whole + ((o * n + s) * inner) * es;
        char *p = piece + o * L * inner * es;
        if (to_piece)
            memcpy(p, w, L * inner * es);
        else
            memcpy(w, p, L * inner * es);
    }
}

/* Random cut points of [0, n): `pieces` pieces, sorted; some empty, some of
 * one element, some next to multiples of 16 and 16384. */
static size_t rand_cuts(ax_t *t, size_t n, size_t pieces, size_t *cuts) {
    cuts[0] = 0;
    for (size_t i = 1; i < pieces; i++) {
        const int kind = (int)ax_rand_range(t, 0, 5);
        size_t c = (size_t)ax_rand_range(t, 0, (int64_t)n);
        if (kind == 0 && n >= 16) /* next to a block */
            c = (size_t)ax_rand_range(t, 0, (int64_t)(n / 16)) * 16 + (size_t)ax_rand_range(t, 0, 2) - 1;
        else if (kind == 1 && n >= 16384) /* next to a chunk */
            c = (size_t)ax_rand_range(t, 0, (int64_t)(n / 16384)) * 16384 + (size_t)ax_rand_range(t, 0, 2) - 1;
        else if (kind == 2) /* right after the last cut: an empty or 1-element piece */
            c = cuts[i - 1] + (size_t)ax_rand_range(t, 0, 1);
        if (c > n)
            c = n;
        cuts[i] = c;
    }
    cuts[pieces] = n;
    for (size_t i = 1; i < pieces; i++) /* insertion sort */
        for (size_t j = i; j > 0 && cuts[j] < cuts[j - 1]; j--) {
            const size_t tmp = cuts[j];
            cuts[j] = cuts[j - 1];
            cuts[j - 1] = tmp;
        }
    return pieces;
}

/* An executor that runs the tasks inline, in reverse order. */
static void rev_parallel_for(void *self, axial_task_fn fn, void *arg, size_t n) {
    (*(int *)self)++;
    for (size_t i = n; i-- > 0;)
        fn(arg, i);
}

/* ---- stream_cuts -------------------------------------------------------------- */

typedef struct {
    size_t rank;
    int64_t shape[4];
    int64_t axis;
} st_shape;

/* got against want (count elements): the first that differs, named. */
static void st_same(ax_t *t, const char *name, const char *got, const char *want, size_t count,
                    size_t es, const size_t *cuts, size_t pieces) {
    if (count > 0 && memcmp(got, want, count * es) != 0) {
        size_t k = 0;
        while (memcmp(got + k * es, want + k * es, es) == 0)
            k++;
        AX_CHECK(t, false, "%s: element %zu differs from the one call (cuts %zu %zu %zu ...)",
                 name, k, cuts[1], pieces > 1 ? cuts[2] : 0, pieces > 2 ? cuts[3] : 0);
    } else {
        AX_CHECK(t, true, "%s", name);
    }
}

/* The stream through its state's bytes into a new one (as if sent); NULL
 * when that fails. */
static axial_stream *st_through_bytes(ax_t *t, axial_stream *s, axial_op op, axial_dtype dt,
                                      const st_shape *sh, unsigned flags, const char *name,
                                      size_t i) {
    const size_t sz = axial_stream_state_size(s);
    unsigned char *bytes = malloc(sz);
    axial_status st = axial_stream_export(s, bytes, sz);
    axial_stream_destroy(s);
    s = NULL;
    if (st == AXIAL_OK)
        st = axial_stream_create(op, dt, sh->rank, sh->shape, sh->axis, flags, &s);
    if (st == AXIAL_OK)
        st = axial_stream_import(s, bytes, sz);
    free(bytes);
    AX_CHECK(t, st == AXIAL_OK, "%s: piece %zu: export/import: %s (%s)", name, i,
             axial_status_name(st), axial_last_error());
    if (st != AXIAL_OK) {
        axial_stream_destroy(s);
        s = NULL;
    }
    return s;
}

/* A push, `how` 3 on the reverse inline executor, 4 on the pool, else plain. */
static void st_push(ax_t *t, axial_stream *s, axial_dtype dt, const void *x, void *y,
                    size_t rank, const int64_t *ps, int how, axial_pool *pool, const char *name,
                    size_t i) {
    int calls = 0;
    axial_executor rex = {rev_parallel_for, &calls, 3};
    const axial_executor *ex = how == 3 ? &rex : how == 4 && pool ? axial_pool_executor(pool)
                                                                  : NULL;
    const axial_status st = ex ? axial_stream_push_ex(s, dt, x, y, rank, ps, ex)
                               : axial_stream_push(s, dt, x, y, rank, ps);
    AX_CHECK(t, st == AXIAL_OK, "%s: push %zu: %s (%s)", name, i, axial_status_name(st),
             axial_last_error());
}

/* One stream case: the whole tensor, its one-call result, then the stream
 * over random cuts; `how` picks plain, executor, bytes or in place per piece. */
static void stream_case(ax_t *t, axial_op op, axial_dtype dt, const st_shape *sh, unsigned flags,
                        size_t pieces, enum fill fill, axial_pool *pool) {
    const size_t es = ax_dtype_size(dt), rank = sh->rank;
    size_t ax = (size_t)(sh->axis < 0 ? sh->axis + (int64_t)rank : sh->axis);
    const size_t count = prod(sh->shape, 0, rank), n = (size_t)sh->shape[ax];
    const size_t outer = prod(sh->shape, 0, ax), inner = prod(sh->shape, ax + 1, rank);
    char *x = malloc(count * es + 1), *want = malloc(count * es + 1), *got = malloc(count * es + 1);
    ax_fill(t, dt, x, count, fill);
    char name[160], sbuf[64];
    snprintf(name, sizeof name, "%s %s %s axis %lld flags %u, fill %d, %zu pieces",
             op == AXIAL_OP_CUMSUM ? "cumsum" : "logcumsumexp", ax_dtype_str(dt),
             ax_shape_str(sbuf, sizeof sbuf, rank, sh->shape), (long long)sh->axis, flags,
             (int)fill, pieces);
    axial_status st = op == AXIAL_OP_CUMSUM
                          ? axial_cumsum(dt, x, want, rank, sh->shape, sh->axis, flags)
                          : axial_logcumsumexp(dt, x, want, rank, sh->shape, sh->axis, flags);
    AX_CHECK(t, st == AXIAL_OK, "%s: one call: %s", name, axial_status_name(st));
    axial_stream *s = NULL;
    st = axial_stream_create(op, dt, rank, sh->shape, sh->axis, flags, &s);
    if (!AX_CHECK(t, st == AXIAL_OK, "%s: create: %s (%s)", name, axial_status_name(st),
                  axial_last_error()))
        goto done;
    size_t cuts[102];
    rand_cuts(t, n, pieces, cuts);
    const bool rev = (flags & AXIAL_CUMSUM_REVERSE) != 0;
    memset(got, 0x5a, count * es);
    for (size_t i = 0; i < pieces; i++) {
        /* REVERSE: the pieces come from the far end */
        const size_t j = rev ? pieces - 1 - i : i;
        const size_t a = cuts[j], L = cuts[j + 1] - cuts[j];
        int64_t ps[4];
        memcpy(ps, sh->shape, sizeof ps);
        ps[ax] = (int64_t)L;
        const size_t pc = outer * L * inner;
        ax_buf in, out;
        const int how = (int)ax_rand_range(t, 0, 5);
        ax_buf_alloc(&in, pc * es, (size_t)ax_rand_range(t, 0, 7) * es);
        ax_buf_alloc(&out, pc * es, (size_t)ax_rand_range(t, 0, 7) * es);
        ax_buf_poison(&in, 0);
        ax_buf_poison(&out, 0x5a);
        slab(x, (char *)in.p, outer, n, inner, a, L, es, true);
        void *y = how == 1 ? in.p : out.p; /* in place */
        if (how == 2) /* through the state's bytes, into a new stream */
            s = st_through_bytes(t, s, op, dt, sh, flags, name, i);
        if (s == NULL)
            break;
        st_push(t, s, dt, in.p, y, rank, ps, how, pool, name, i);
        AX_CHECK(t, ax_buf_canary_ok(&in) && ax_buf_canary_ok(&out),
                 "%s: push %zu of %zu elements wrote outside its output", name, i, L);
        slab(got, (char *)y, outer, n, inner, a, L, es, false);
        ax_buf_free(&in);
        ax_buf_free(&out);
    }
    if (s != NULL)
        AX_CHECK(t, axial_stream_length(s) == (int64_t)n, "%s: length %lld, want %zu", name,
                 (long long)axial_stream_length(s), n);
    st_same(t, name, got, want, count, es, cuts, pieces);
done:
    axial_stream_destroy(s);
    free(x);
    free(want);
    free(got);
}

/* A line longer than two scan chunks (16384 elements). */
static bool sh_chunks(const st_shape *sh) {
    return sh->rank == 1 && sh->shape[0] > 2 * 16384;
}

void t_stream_cuts(ax_t *t) {
    axial_pool *pool = NULL;
    if (axial_pool_create(2, &pool) != AXIAL_OK)
        pool = NULL;
    const bool big = ax_big();
    const st_shape shapes[] = {
        {1, {1000}, 0},         {1, {40000}, 0},     {2, {3, 33000}, 1},  {2, {5, 77}, -1},
        {2, {300, 1}, 0},       {1, {17}, 0},        {2, {200, 37}, 0},   {3, {2, 150, 5}, 1},
        {3, {3, 4, 500}, 2},    {2, {50, 1000}, 0},  {1, {16384 * 3 + 5}, 0},
        {3, {2, 0, 40}, 2}, /* no element: nothing is read or written, the length grows */
        {2, {9, 7}, 1},         {2, {4, 9}, 1},
    };
    const size_t nshapes = sizeof shapes / sizeof shapes[0];
    for (size_t d = 0; d < AX_N_SUM_TYPES; d++) {
        const axial_dtype dt = ax_sum_types[d];
        for (size_t k = 0; k < nshapes; k++) {
            /* the line of three chunks and a bit, f32 and f64: every run (the
             * carry from chunk to chunk across pushes), the rest sampled */
            const bool always = sh_chunks(&shapes[k]) && (dt == AXIAL_F32 || dt == AXIAL_F64);
            if (!ax_sample(t, (dt == AXIAL_F32 || dt == AXIAL_F64) ? 1.0 : 0.5) && !always)
                continue;
            const st_shape *sh = &shapes[k];
            if (!big && prod(sh->shape, 0, sh->rank) > 60000 && dt != AXIAL_F32)
                continue;
            for (unsigned flags = 0; flags < 4; flags++) {
                const size_t pieces = (size_t)ax_rand_range(t, 2, 100);
                stream_case(t, AXIAL_OP_CUMSUM, dt, sh, flags, pieces, FILL_GENERAL, pool);
            }
        }
    }
    /* LogCumSumExp: general data (steep rises: new references within a
     * vector), uniform, and rare specials (the scalar step from a NaN or
     * +inf); lines of a vector's head and of several chunks (every type and
     * fill under every flag; with AXIAL_TEST_SCALE < 1 under one flag that
     * moves with the seed, the others sampled: in emulation these lines were
     * most of the test's time) */
    static const enum fill lse_fills[3] = {FILL_GENERAL, FILL_UNIFORM01, FILL_RARE_SPECIALS};
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        const axial_dtype dt = ax_float_types[d];
        for (size_t k = 0; k < nshapes; k++) {
            const st_shape *sh = &shapes[k];
            for (size_t f = 0; f < 3; f++)
                for (unsigned flags = 0; flags < 4; flags++)
                    if ((sh_chunks(sh) && (ax_scale() >= 1.0 || flags == (d + f + ax_seed()) % 4)) ||
                        ax_sample(t, dt == AXIAL_F32 ? 0.8 : 0.4))
                        stream_case(t, AXIAL_OP_LOGCUMSUMEXP, dt, sh, flags,
                                    (size_t)ax_rand_range(t, 2, 100), lse_fills[f], pool);
        }
    }
    axial_pool_destroy(pool);
}

/* ---- stream_sums --------------------------------------------------------------- */

static axial_status red_call(axial_op op, axial_dtype dt, const void *x, void *y, size_t rank,
                             const int64_t *shape, const int64_t *axis, unsigned flags) {
    return op == AXIAL_OP_REDUCE_SUM ? axial_reduce_sum(dt, x, y, rank, shape, axis, 1, flags)
                                     : axial_reduce_logsumexp(dt, x, y, rank, shape, axis, 1, flags);
}

/* One ReduceSum (or ReduceLogSumExp) stream case: the stream over random
 * cuts against the one call, and once, after a random piece, the result so
 * far against the one call of the prefix. */
static void stream_sum_case(ax_t *t, axial_op op, axial_dtype dt, const st_shape *sh,
                            unsigned flags, size_t pieces, enum fill fill, axial_pool *pool) {
    const size_t es = ax_dtype_size(dt), rank = sh->rank;
    const size_t ax = (size_t)(sh->axis < 0 ? sh->axis + (int64_t)rank : sh->axis);
    const size_t count = prod(sh->shape, 0, rank), n = (size_t)sh->shape[ax];
    const size_t outer = prod(sh->shape, 0, ax), inner = prod(sh->shape, ax + 1, rank);
    const size_t nout = outer * inner;
    char *x = malloc(count * es + 1), *pre = malloc(count * es + 1);
    char *want = malloc(nout * es + 1), *got = malloc(nout * es + 1);
    ax_fill(t, dt, x, count, fill);
    char name[160], sbuf[64];
    snprintf(name, sizeof name, "%s stream %s %s axis %lld, %zu pieces, fill %d",
             op == AXIAL_OP_REDUCE_SUM ? "reduce_sum" : "reduce_logsumexp", ax_dtype_str(dt),
             ax_shape_str(sbuf, sizeof sbuf, rank, sh->shape), (long long)sh->axis, pieces,
             (int)fill);
    const int64_t axis = sh->axis;
    axial_stream *s = NULL;
    axial_status st = axial_stream_create(op, dt, rank, sh->shape, axis, flags, &s);
    if (!AX_CHECK(t, st == AXIAL_OK, "%s: create: %s (%s)", name, axial_status_name(st),
                  axial_last_error()))
        goto done;
    size_t cuts[102];
    rand_cuts(t, n, pieces, cuts);
    const size_t check_at = (size_t)ax_rand_range(t, 0, (int64_t)pieces - 1);
    for (size_t i = 0; i < pieces && s != NULL; i++) {
        const size_t a = cuts[i], L = cuts[i + 1] - cuts[i];
        int64_t ps[4];
        memcpy(ps, sh->shape, sizeof ps);
        ps[ax] = (int64_t)L;
        ax_buf in;
        const int how = (int)ax_rand_range(t, 0, 4);
        ax_buf_alloc(&in, outer * L * inner * es, (size_t)ax_rand_range(t, 0, 7) * es);
        ax_buf_poison(&in, 0);
        slab(x, (char *)in.p, outer, n, inner, a, L, es, true);
        if (how == 2) /* through the state's bytes, into a new stream */
            s = st_through_bytes(t, s, op, dt, sh, flags, name, i);
        if (s != NULL)
            st_push(t, s, dt, in.p, NULL, rank, ps, how, pool, name, i);
        ax_buf_free(&in);
        if (s != NULL && i == check_at && nout > 0) { /* the sum so far: the prefix's one call */
            int64_t ps2[4];
            memcpy(ps2, sh->shape, sizeof ps2);
            ps2[ax] = (int64_t)cuts[i + 1];
            for (size_t o = 0; o < outer; o++)
                memcpy(pre + o * cuts[i + 1] * inner * es, x + o * n * inner * es,
                       cuts[i + 1] * inner * es);
            st = red_call(op, dt, pre, want, rank, ps2, &axis, flags);
            memset(got, 0x5a, nout * es);
            const axial_status st2 = axial_stream_result(s, got);
            AX_CHECK(t, st == AXIAL_OK && st2 == AXIAL_OK &&
                            memcmp(got, want, nout * es) == 0,
                     "%s: the result after %zu of %zu elements differs from their one call (%s)",
                     name, cuts[i + 1], n, axial_last_error());
        }
    }
    if (s == NULL)
        goto done;
    AX_CHECK(t, axial_stream_length(s) == (int64_t)n, "%s: length %lld, want %zu", name,
             (long long)axial_stream_length(s), n);
    st = red_call(op, dt, x, want, rank, sh->shape, &axis, flags);
    memset(got, 0x5a, nout * es + 1);
    const axial_status st2 = axial_stream_result(s, got);
    AX_CHECK(t, st == AXIAL_OK && st2 == AXIAL_OK && (unsigned char)got[nout * es] == 0x5a,
             "%s: result: %s (%s)", name, axial_status_name(st2), axial_last_error());
    st_same(t, name, got, want, nout, es, cuts, pieces);
done:
    axial_stream_destroy(s);
    free(x);
    free(pre);
    free(want);
    free(got);
}

void t_stream_sums(ax_t *t) {
    axial_pool *pool = NULL;
    if (axial_pool_create(2, &pool) != AXIAL_OK)
        pool = NULL;
    /* rows, periodic and columns; few outputs (fixed chunks: 16384 f32 terms
     * a chunk of [40000], 5461 rows of [20000, 3], 442 of [1500, 37]), many
     * within one chunk, and many over several (1024 rows of [2100, 70] and
     * [3, 1100, 40], 16384 f32 terms of [66, 20000] axis 1) */
    const st_shape shapes[] = {
        {1, {1000}, 0},       {1, {40000}, 0},       {2, {3, 33000}, 1},   {2, {5, 77}, -1},
        {2, {300, 1}, 0},     {1, {17}, 0},          {2, {20000, 3}, 0},   {2, {1500, 37}, 0},
        {3, {2, 150, 5}, 1},  {3, {3, 4, 500}, 2},   {2, {50, 1000}, 0},   {2, {100, 300}, 1},
        {3, {40, 500, 3}, 1}, {2, {3000, 20}, 0},    {3, {2, 0, 40}, 2},   {1, {0}, 0},
        {2, {2100, 70}, 0},   {3, {3, 1100, 40}, 1}, {2, {66, 20000}, 1},
    };
    const size_t nshapes = sizeof shapes / sizeof shapes[0];
    for (size_t d = 0; d < AX_N_SUM_TYPES; d++) {
        const axial_dtype dt = ax_sum_types[d];
        for (size_t k = 0; k < nshapes; k++) {
            if (!ax_sample(t, (dt == AXIAL_F32 || dt == AXIAL_F64) ? 1.0 : 0.5))
                continue;
            for (unsigned f = 0; f < 2; f++)
                stream_sum_case(t, AXIAL_OP_REDUCE_SUM, dt, &shapes[k],
                                f ? AXIAL_REDUCE_KEEP_DIMS : 0, (size_t)ax_rand_range(t, 2, 100),
                                FILL_GENERAL, pool);
        }
    }
    /* ReduceLogSumExp: lanes of lines (groups of 256 elements) and columns
     * (16 rows), with general data (rescales), uniform and rare specials */
    static const enum fill lse_fills[3] = {FILL_GENERAL, FILL_UNIFORM01, FILL_RARE_SPECIALS};
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++)
        for (size_t k = 0; k < nshapes; k++)
            for (size_t f = 0; f < 3; f++)
                if (ax_sample(t, ax_float_types[d] == AXIAL_F32 ? 1.0 : 0.4))
                    stream_sum_case(t, AXIAL_OP_REDUCE_LOGSUMEXP, ax_float_types[d], &shapes[k],
                                    f == 1 ? AXIAL_REDUCE_KEEP_DIMS : 0,
                                    (size_t)ax_rand_range(t, 2, 100), lse_fills[f], pool);
    axial_pool_destroy(pool);
    { /* always: a NaN in a column of whole blocks of rows (the SIMD order's lanes
       * turn NaN and only a mark tells NaN from +inf, as the one call rereads) */
        enum { R = 64, C = 20 };
        static float xs[R * C];
        float want[C], got[C];
        for (size_t i = 0; i < R * C; i++)
            xs[i] = 0.25f;
        xs[17 * C + 3] = NAN;
        xs[40 * C + 7] = INFINITY;
        const int64_t shape[2] = {R, C}, piece[2] = {16, C}, axis = 0;
        axial_stream *s = NULL;
        axial_status st = axial_stream_create(AXIAL_OP_REDUCE_LOGSUMEXP, AXIAL_F32, 2, shape, 0,
                                              0, &s);
        for (int r = 0; st == AXIAL_OK && r < R; r += 16)
            st = axial_stream_push(s, AXIAL_F32, xs + r * C, NULL, 2, piece);
        if (st == AXIAL_OK)
            st = axial_stream_result(s, got);
        axial_stream_destroy(s);
        axial_reduce_logsumexp(AXIAL_F32, xs, want, 2, shape, &axis, 1, 0);
        AX_CHECK(t, st == AXIAL_OK && isnan(got[3]) && isnan(want[3]) && got[7] == INFINITY &&
                        memcmp(got, want, 3 * sizeof *got) == 0 &&
                        memcmp(got + 4, want + 4, (C - 4) * sizeof *got) == 0,
                 "reduce_logsumexp stream f32 [64, 20] axis 0, a NaN in column 3: %s, got "
                 "%g (want %g), column 7 %g",
                 st ? axial_last_error() : "", (double)got[3], (double)want[3], (double)got[7]);
    }
    /* a SIMD stream goes on on the scalar ISA in its own order (ReduceSum:
     * generic C; ReduceLogSumExp: its ISA's kernels) */
    const axial_isa isa = axial_isa_active();
    if (isa == AXIAL_ISA_SCALAR)
        return;
    const axial_dtype dts[2] = {AXIAL_F32, AXIAL_BF16};
    for (size_t k = 0; k < nshapes; k++)
        for (size_t d = 0; d < 4; d++) {
            const axial_op op = d < 2 ? AXIAL_OP_REDUCE_SUM : AXIAL_OP_REDUCE_LOGSUMEXP;
            const st_shape *sh = &shapes[k];
            const axial_dtype dt = dts[d % 2];
            const size_t es = ax_dtype_size(dt), rank = sh->rank;
            const size_t ax = (size_t)(sh->axis < 0 ? sh->axis + (int64_t)rank : sh->axis);
            const size_t count = prod(sh->shape, 0, rank), n = (size_t)sh->shape[ax];
            const size_t outer = prod(sh->shape, 0, ax), inner = prod(sh->shape, ax + 1, rank);
            if (count == 0)
                continue;
            char *x = malloc(count * es), *p2 = malloc(count * es);
            char *want = malloc(outer * inner * es), *got = malloc(outer * inner * es);
            ax_fill(t, dt, x, count, FILL_GENERAL);
            red_call(op, dt, x, want, rank, sh->shape, &sh->axis, 0);
            axial_stream *s = NULL;
            axial_stream_create(op, dt, rank, sh->shape, sh->axis, 0, &s);
            const size_t cut = (size_t)ax_rand_range(t, 0, (int64_t)n);
            int64_t ps[4];
            memcpy(ps, sh->shape, sizeof ps);
            for (int half = 0; half < 2; half++) {
                const size_t a = half ? cut : 0, L = half ? n - cut : cut;
                ps[ax] = (int64_t)L;
                slab(x, p2, outer, n, inner, a, L, es, true);
                axial_isa_select(half ? AXIAL_ISA_SCALAR : isa);
                axial_stream_push(s, dt, p2, NULL, rank, ps);
            }
            const axial_status st = axial_stream_result(s, got);
            axial_isa_select(isa);
            AX_CHECK(t, st == AXIAL_OK && memcmp(got, want, outer * inner * es) == 0,
                     "%s stream %s shape %zu: begun on %s, ended on scalar: %s",
                     d < 2 ? "reduce_sum" : "reduce_logsumexp", ax_dtype_str(dt), k,
                     axial_isa_name(isa), st ? axial_last_error() : "the bits differ");
            axial_stream_destroy(s);
            free(x);
            free(p2);
            free(want);
            free(got);
        }
}

/* ---- shard_cuts --------------------------------------------------------------- */

typedef struct {
    axial_op op;
    size_t rank;
    int64_t shape[4];
    size_t naxes;
    int64_t axes[4];
    unsigned flags;
} sh_case;

/* The one call of a shard case. */
static axial_status one_call(const sh_case *c, axial_dtype dt, const void *x, void *y) {
    const ax_call call = {ax_op_of(c->op), dt,      c->rank,  c->shape, c->axes[0],
                          c->flags,        c->axes, c->naxes, NULL,     0};
    return ax_call_plain(&call, x, y);
}

/* Summaries in `groupings`: combines adjacent pairs in a random order until
 * one covers [first, last); returns its bytes (malloc'd). */
static unsigned char *combine_all(ax_t *t, unsigned char **sum, size_t *size, size_t first,
                                  size_t last, size_t *out_size, const char *name) {
    size_t m = last - first;
    unsigned char **v = malloc(m * sizeof *v);
    size_t *z = malloc(m * sizeof *z);
    for (size_t i = 0; i < m; i++) { /* copies: as if sent to another process */
        v[i] = malloc(size[first + i]);
        memcpy(v[i], sum[first + i], size[first + i]);
        z[i] = size[first + i];
    }
    while (m > 1) {
        const size_t k = (size_t)ax_rand_range(t, 0, (int64_t)m - 2);
        size_t need = 0;
        axial_status st = axial_shard_combine(v[k], z[k], v[k + 1], z[k + 1], NULL, 0, &need);
        unsigned char *o = malloc(need);
        if (st == AXIAL_OK)
            st = axial_shard_combine(v[k], z[k], v[k + 1], z[k + 1], o, need, &need);
        AX_CHECK(t, st == AXIAL_OK, "%s: combine: %s (%s)", name, axial_status_name(st),
                 axial_last_error());
        free(v[k]);
        free(v[k + 1]);
        v[k] = o;
        z[k] = need;
        memmove(v + k + 1, v + k + 2, (m - k - 2) * sizeof *v);
        memmove(z + k + 1, z + k + 2, (m - k - 2) * sizeof *z);
        m--;
    }
    unsigned char *r = v[0];
    *out_size = z[0];
    free(v);
    free(z);
    return r;
}

static void shard_case(ax_t *t, axial_dtype dt, const sh_case *c, bool on_grid) {
    const size_t es = ax_dtype_size(dt);
    const size_t count = prod(c->shape, 0, c->rank);
    const axial_shards sh = {c->op, dt, c->rank, c->shape, c->axes, c->naxes, c->flags};
    char name[160], sbuf[64];
    snprintf(name, sizeof name, "op %d %s %s axes %lld.. flags %u %s", (int)c->op,
             ax_dtype_str(dt), ax_shape_str(sbuf, sizeof sbuf, c->rank, c->shape),
             (long long)c->axes[0], c->flags, on_grid ? "on the grid" : "off the grid");
    int64_t cut = 0, grid = 0;
    axial_status st = axial_shard_grid(&sh, &cut, &grid);
    if (!AX_CHECK(t, st == AXIAL_OK, "%s: grid: %s (%s)", name, axial_status_name(st),
                  axial_last_error()))
        return;
    const bool scan = c->op == AXIAL_OP_CUMSUM || c->op == AXIAL_OP_LOGCUMSUMEXP;
    size_t ocount = count, orank = 0;
    int64_t oshape[4];
    if (!scan) {
        axial_reduce_sum_shape(c->rank, c->shape, c->axes, c->naxes, c->flags, &orank, oshape);
        ocount = prod(oshape, 0, orank);
    }
    char *x = malloc(count * es + 1), *want = malloc(ocount * es + 1), *got = malloc(ocount * es + 1);
    ax_fill(t, dt, x, count, FILL_GENERAL);
    st = one_call(c, dt, x, want);
    AX_CHECK(t, st == AXIAL_OK, "%s: one call: %s", name, axial_status_name(st));
    const size_t n = (size_t)c->shape[cut], ax = (size_t)cut;
    const size_t outer = prod(c->shape, 0, ax), inner = prod(c->shape, ax + 1, c->rank);
    const bool rev = scan && (c->flags & AXIAL_CUMSUM_REVERSE);
    /* cuts: on the grid (multiples of grid from the scan's start), or anywhere */
    size_t cuts[34], pieces = (size_t)ax_rand_range(t, 1, 32);
    cuts[0] = 0;
    for (size_t i = 1; i < pieces; i++) {
        size_t k = (size_t)ax_rand_range(t, 0, (int64_t)n);
        if (on_grid) {
            const size_t g = grid > 0 ? (size_t)grid : n + 1;
            k = k / g * g;
            if (rev && k > 0) /* from the far end */
                k = n - k;
        }
        cuts[i] = k > n ? n : k;
    }
    cuts[pieces] = n;
    for (size_t i = 1; i < pieces; i++)
        for (size_t j = i; j > 0 && cuts[j] < cuts[j - 1]; j--) {
            const size_t tmp = cuts[j];
            cuts[j] = cuts[j - 1];
            cuts[j - 1] = tmp;
        }
    /* summaries, in scan order (REVERSE: the last piece first) */
    unsigned char **sum = calloc(pieces, sizeof *sum);
    size_t *size = calloc(pieces, sizeof *size), *pa = calloc(pieces, sizeof *pa),
           *pl = calloc(pieces, sizeof *pl);
    char **pin = calloc(pieces, sizeof *pin);
    for (size_t i = 0; i < pieces; i++) {
        const size_t j = rev ? pieces - 1 - i : i;
        pa[i] = cuts[j];
        pl[i] = cuts[j + 1] - cuts[j];
        pin[i] = malloc(outer * pl[i] * inner * es + 1);
        slab(x, pin[i], outer, n, inner, pa[i], pl[i], es, true);
        st = axial_shard_summary_size(&sh, (int64_t)pa[i], (int64_t)pl[i], &size[i]);
        sum[i] = malloc(size[i] ? size[i] : 1);
        if (st == AXIAL_OK)
            st = axial_shard_summarize(&sh, pin[i], (int64_t)pa[i], (int64_t)pl[i], sum[i], size[i]);
        AX_CHECK(t, st == AXIAL_OK, "%s: summary of piece %zu: %s (%s)", name, i,
                 axial_status_name(st), axial_last_error());
    }
    memset(got, 0x5a, ocount * es);
    if (scan) {
        for (size_t i = 0; i < pieces; i++) {
            size_t csize = 0;
            unsigned char *carry = i ? combine_all(t, sum, size, 0, i, &csize, name) : NULL;
            char *out = malloc(outer * pl[i] * inner * es + 1);
            st = axial_shard_scan(&sh, pin[i], out, (int64_t)pa[i], (int64_t)pl[i], carry, csize);
            AX_CHECK(t, st == AXIAL_OK, "%s: scan of piece %zu: %s (%s)", name, i,
                     axial_status_name(st), axial_last_error());
            slab(got, out, outer, n, inner, pa[i], pl[i], es, false);
            free(out);
            free(carry);
        }
    } else {
        size_t tsize = 0;
        unsigned char *total = combine_all(t, sum, size, 0, pieces, &tsize, name);
        st = axial_shard_finish(&sh, total, tsize, got);
        AX_CHECK(t, st == AXIAL_OK, "%s: finish: %s (%s)", name, axial_status_name(st),
                 axial_last_error());
        free(total);
    }
    /* the scalar ISA's log-space ops (one state per LogCumSumExp line, a long
     * double state in the f64 ReduceLogSumExp) are within the bound only */
    const bool lse_op = c->op == AXIAL_OP_LOGCUMSUMEXP || c->op == AXIAL_OP_REDUCE_LOGSUMEXP;
    const bool exact = on_grid && !(lse_op && axial_isa_active() == AXIAL_ISA_SCALAR);
    if (exact) {
        if (ocount > 0 && memcmp(got, want, ocount * es) != 0) {
            size_t k = 0;
            while (memcmp(got + k * es, want + k * es, es) == 0)
                k++;
            AX_CHECK(t, false, "%s: output %zu differs from the one call (%zu pieces, grid %lld)",
                     name, k, pieces, (long long)grid);
        } else {
            AX_CHECK(t, true, "%s", name);
        }
    } else if (dt == AXIAL_F32 || dt == AXIAL_F64) {
        /* within the bound: against the one call, 16 * 2^-24 * (the sum of
         * the magnitudes of the whole axis) (a generous c for the carries'
         * extra roundings), or 2^-20 of |y| + ln n for the log semiring */
        double M = 0;
        for (size_t i = 0; i < count; i++)
            M += fabs(ax_dtype_value(dt, x, i));
        const double u = dt == AXIAL_F64 ? 0x1p-53 : 0x1p-24;
        const bool lse = c->op == AXIAL_OP_LOGCUMSUMEXP || c->op == AXIAL_OP_REDUCE_LOGSUMEXP;
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < ocount; i++) {
            const double g = ax_dtype_value(dt, got, i), w = ax_dtype_value(dt, want, i);
            if (isnan(w) || isinf(w) || g == w)
                continue;
            const double tol = lse ? 16 * u * (fabs(w) + log((double)n + 1) + 4) + 4 * u * fabs(w)
                                   : 16 * u * M + 4 * u * fabs(w);
            if (!(fabs(g - w) <= tol) && bad++ == 0)
                first = i;
        }
        AX_CHECK(t, bad == 0, "%s: %zu outputs outside the bound, the first %zu: %.9g, one call %.9g",
                 name, bad, first, bad ? ax_dtype_value(dt, got, first) : 0.0,
                 bad ? ax_dtype_value(dt, want, first) : 0.0);
    }
    for (size_t i = 0; i < pieces; i++) {
        free(sum[i]);
        free(pin[i]);
    }
    free(sum);
    free(size);
    free(pa);
    free(pl);
    free(pin);
    free(x);
    free(want);
    free(got);
}

void t_shard_cuts(ax_t *t) {
    const sh_case cases[] = {
        {AXIAL_OP_CUMSUM, 1, {70000}, 1, {0}, 0},
        {AXIAL_OP_CUMSUM, 2, {3, 40000}, 1, {-1}, AXIAL_CUMSUM_REVERSE},
        {AXIAL_OP_CUMSUM, 2, {33000, 1}, 1, {0}, AXIAL_CUMSUM_EXCLUSIVE},
        {AXIAL_OP_CUMSUM, 1, {50000}, 1, {0}, AXIAL_CUMSUM_EXCLUSIVE | AXIAL_CUMSUM_REVERSE},
        {AXIAL_OP_CUMSUM, 2, {300, 40}, 1, {0}, 0},
        {AXIAL_OP_LOGCUMSUMEXP, 1, {50000}, 1, {0}, 0},
        {AXIAL_OP_LOGCUMSUMEXP, 2, {2, 40000}, 1, {1}, AXIAL_CUMSUM_REVERSE | AXIAL_CUMSUM_EXCLUSIVE},
        {AXIAL_OP_LOGCUMSUMEXP, 2, {200, 20}, 1, {0}, 0},
        {AXIAL_OP_REDUCE_SUM, 1, {100000}, 1, {0}, 0},
        {AXIAL_OP_REDUCE_SUM, 2, {40000, 3}, 1, {0}, 0},
        {AXIAL_OP_REDUCE_SUM, 3, {4, 9000, 16}, 1, {1}, AXIAL_REDUCE_KEEP_DIMS},
        {AXIAL_OP_REDUCE_SUM, 2, {30000, 2}, 0, {0}, AXIAL_REDUCE_EMPTY_AXES_ALL},
        {AXIAL_OP_REDUCE_SUM, 2, {500, 70}, 1, {0}, 0},
        {AXIAL_OP_REDUCE_SUM, 3, {20, 7, 30}, 2, {0, 2}, 0},
        {AXIAL_OP_REDUCE_SUM, 3, {300, 5, 40}, 2, {0, 2}, 0},   /* several groups in cells */
        {AXIAL_OP_REDUCE_SUM, 4, {3, 400, 5, 8}, 2, {1, 3}, AXIAL_REDUCE_KEEP_DIMS},
        {AXIAL_OP_REDUCE_LOGSUMEXP, 3, {200, 3, 20}, 2, {-1, 0}, 0},
        {AXIAL_OP_REDUCE_LOGSUMEXP, 1, {70000}, 1, {0}, 0},
        {AXIAL_OP_REDUCE_LOGSUMEXP, 2, {30000, 2}, 1, {0}, 0},
        {AXIAL_OP_REDUCE_LOGSUMEXP, 2, {300, 80}, 1, {0}, 0},
        {AXIAL_OP_REDUCE_SUM, 2, {2500, 70}, 1, {0}, 0},     /* many outputs in chunks */
        {AXIAL_OP_REDUCE_SUM, 2, {66, 40000}, 1, {1}, 0},
        {AXIAL_OP_REDUCE_LOGSUMEXP, 2, {2200, 80}, 1, {0}, AXIAL_REDUCE_KEEP_DIMS},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const bool lse = cases[k].op == AXIAL_OP_LOGCUMSUMEXP ||
                         cases[k].op == AXIAL_OP_REDUCE_LOGSUMEXP;
        for (size_t d = 0; d < AX_N_SUM_TYPES; d++) {
            const axial_dtype dt = ax_sum_types[d];
            if (lse && d >= AX_N_FLOAT_TYPES)
                continue;
            if (dt != AXIAL_F32 && !ax_sample(t, 0.5))
                continue;
            for (int rep = 0; rep < ax_iters(2); rep++) {
                shard_case(t, dt, &cases[k], true);
                if (dt == AXIAL_F32 || dt == AXIAL_F64)
                    shard_case(t, dt, &cases[k], false);
            }
        }
    }
}

/* ---- stream_errors ---------------------------------------------------------- */

/* A bad call: the status, a message naming something, the output untouched. */
static void expect_bad(ax_t *t, axial_status st, axial_status want, const unsigned char *y,
                       size_t bytes, const char *what) {
    bool untouched = true;
    for (size_t i = 0; i < bytes; i++)
        untouched = untouched && y[i] == 0x5a;
    AX_CHECK(t, st == want && untouched && axial_last_error()[0] != '\0',
             "%s: %s (want %s), output %s, message \"%s\"", what, axial_status_name(st),
             axial_status_name(want), untouched ? "untouched" : "WRITTEN", axial_last_error());
}

void t_stream_errors(ax_t *t) {
    const int64_t shape[2] = {3, 40};
    float x[3 * 40], want[3 * 40], got[3 * 40];
    unsigned char y[3 * 40 * 4];
    for (int i = 0; i < 120; i++)
        x[i] = (float)((i * 37) % 11) * 0.375f - 1.0f;
    axial_cumsum(AXIAL_F32, x, want, 2, shape, 1, 0);
    axial_stream *s = NULL;
    axial_status st = axial_stream_create(AXIAL_OP_CUMSUM, AXIAL_F32, 2, shape, 1, 0, &s);
    if (!AX_CHECK(t, st == AXIAL_OK, "create: %s", axial_status_name(st)))
        return;
    /* the first 10 columns of the piece's scan, then bad pushes, then the rest */
    float p1[3 * 10], p2[3 * 30];
    for (int o = 0; o < 3; o++) {
        memcpy(p1 + o * 10, x + o * 40, 10 * sizeof(float));
        memcpy(p2 + o * 30, x + o * 40 + 10, 30 * sizeof(float));
    }
    const int64_t s1[2] = {3, 10}, s2[2] = {3, 30};
    st = axial_stream_push(s, AXIAL_F32, p1, got, 2, s1);
    AX_CHECK(t, st == AXIAL_OK, "push: %s", axial_status_name(st));
    float g1[30];
    memcpy(g1, got, sizeof g1);
    const int64_t bad_shape[2] = {4, 30}, big[2] = {3, INT64_MAX};
    struct {
        axial_dtype dt;
        const void *x;
        size_t rank;
        const int64_t *shape;
        axial_status want;
        const char *what;
    } bad[] = {
        {AXIAL_F64, p2, 2, s2, AXIAL_E_ARGS, "a piece of another dtype"},
        {AXIAL_F32, p2, 2, bad_shape, AXIAL_E_ARGS, "a piece of another shape off the axis"},
        {AXIAL_F32, p2, 1, s2, AXIAL_E_ARGS, "a piece of another rank"},
        {AXIAL_F32, NULL, 2, s2, AXIAL_E_NULL, "a NULL piece"},
        {AXIAL_F32, p2, 2, NULL, AXIAL_E_NULL, "a NULL shape"},
        {AXIAL_F32, p2, 2, big, AXIAL_E_SHAPE, "a piece too large"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        memset(y, 0x5a, sizeof y);
        st = axial_stream_push(s, bad[k].dt, bad[k].x, y, bad[k].rank, bad[k].shape);
        expect_bad(t, st, bad[k].want, y, sizeof y, bad[k].what);
    }
    memset(y, 0x5a, sizeof y);
    st = axial_stream_push(s, AXIAL_F32, p2, p2 + 1, 2, s2);
    expect_bad(t, st, AXIAL_E_OVERLAP, y, 0, "an output overlapping the piece");
    axial_executor none = {NULL, NULL, 1};
    st = axial_stream_push_ex(s, AXIAL_F32, p2, y, 2, s2, &none);
    expect_bad(t, st, AXIAL_E_NULL, y, sizeof y, "an executor without parallel_for");
    AX_CHECK(t, axial_stream_push(NULL, AXIAL_F32, p2, y, 2, s2) == AXIAL_E_NULL, "a NULL stream");
    /* bad bytes: the state stays */
    const size_t sz = axial_stream_state_size(s);
    unsigned char *bytes = malloc(sz), *bb = malloc(sz + 8);
    AX_CHECK(t, axial_stream_export(s, bytes, sz) == AXIAL_OK, "export");
    AX_CHECK(t, axial_stream_export(s, bytes, sz - 1) == AXIAL_E_ARGS, "export into a short buffer");
    struct { size_t at; unsigned char x; const char *what; } flips[] = {
        {0, 'X', "another magic"}, {4, 2, "another format version"}, {12, 2, "another op"},
        {13, 2, "another dtype"},  {14, 1, "other flags"},        {16, 3, "another rank"},
        {17, 0, "another axis"},   {32, 4, "another shape"},      {40, 1, "a corrupted value"},
    };
    for (size_t k = 0; k < sizeof flips / sizeof flips[0]; k++) {
        memcpy(bb, bytes, sz);
        bb[flips[k].at] = flips[k].x == bb[flips[k].at] ? (unsigned char)(flips[k].x + 1) : flips[k].x;
        st = axial_stream_import(s, bb, sz);
        AX_CHECK(t, st == AXIAL_E_ARGS, "import of a state with %s: %s (%s)", flips[k].what,
                 axial_status_name(st), axial_last_error());
    }
    st = axial_stream_import(s, bytes, sz - 1);
    AX_CHECK(t, st == AXIAL_E_ARGS, "import of truncated bytes: %s", axial_status_name(st));
    memcpy(bb, bytes, sz);
    bb[sz] = 0;
    st = axial_stream_import(s, bb, sz + 1);
    AX_CHECK(t, st == AXIAL_E_ARGS, "import of bytes with one more: %s", axial_status_name(st));
    axial_stream *other = NULL;
    const int64_t oshape[2] = {3, 7};
    axial_stream_create(AXIAL_OP_CUMSUM, AXIAL_F32, 2, oshape, 0, 0, &other);
    st = axial_stream_import(other, bytes, sz);
    AX_CHECK(t, st == AXIAL_E_ARGS, "import into a stream of another axis: %s", axial_status_name(st));
    axial_stream_destroy(other);
    /* after all that, the stream goes on to the one call's bits */
    st = axial_stream_push(s, AXIAL_F32, p2, p2, 2, s2);
    AX_CHECK(t, st == AXIAL_OK, "push after the bad ones: %s", axial_status_name(st));
    for (int o = 0; o < 3; o++) {
        memcpy(got + o * 40, g1 + o * 10, 10 * sizeof(float));
        memcpy(got + o * 40 + 10, p2 + o * 30, 30 * sizeof(float));
    }
    AX_CHECK(t, memcmp(got, want, sizeof want) == 0,
             "the stream after rejected pieces and bytes is not the one call");
    /* create's checks */
    axial_stream *z = NULL;
    AX_CHECK(t, axial_stream_create(AXIAL_OP_CUMSUM, AXIAL_BOOL, 2, shape, 1, 0, &z) == AXIAL_E_DTYPE, "BOOL");
    AX_CHECK(t, axial_stream_create(AXIAL_OP_CUMSUM, AXIAL_F32, 2, shape, 2, 0, &z) == AXIAL_E_AXIS, "axis 2");
    AX_CHECK(t, axial_stream_create(AXIAL_OP_CUMSUM, AXIAL_F32, 2, shape, 1, 4, &z) == AXIAL_E_ARGS, "flags 4");
    AX_CHECK(t, axial_stream_create(AXIAL_OP_CUMSUM, AXIAL_F32, 0, shape, 0, 0, &z) == AXIAL_E_RANK, "rank 0");
    AX_CHECK(t, axial_stream_create(AXIAL_OP_LOGCUMSUMEXP, AXIAL_I32, 2, shape, 1, 0, &z) == AXIAL_E_DTYPE, "LogCumSumExp of I32");
    AX_CHECK(t, axial_stream_create(AXIAL_OP_LOGCUMSUMEXP, AXIAL_F32, 2, shape, 1, 4, &z) == AXIAL_E_ARGS, "LogCumSumExp flags 4");
    AX_CHECK(t, axial_stream_create(AXIAL_OP_REDUCE_LOGSUMEXP, AXIAL_I32, 2, shape, 1, 0, &z) == AXIAL_E_DTYPE, "ReduceLogSumExp of I32");
    AX_CHECK(t, axial_stream_create(AXIAL_OP_REDUCE_LOGSUMEXP, AXIAL_F32, 2, shape, 1, AXIAL_CUMSUM_REVERSE, &z) == AXIAL_E_ARGS, "a log-sum's flags");
    AX_CHECK(t, axial_stream_create(AXIAL_OP_REDUCE_SUM, AXIAL_F32, 2, shape, 1, AXIAL_CUMSUM_REVERSE, &z) == AXIAL_E_ARGS, "a sum's flags");
    AX_CHECK(t, axial_stream_create((axial_op)9, AXIAL_F32, 2, shape, 1, 0, &z) == AXIAL_E_ARGS, "op 9");
    AX_CHECK(t, axial_stream_create(AXIAL_OP_CUMSUM, AXIAL_F32, 2, shape, 1, 0, NULL) == AXIAL_E_NULL, "NULL out");
    AX_CHECK(t, z == NULL, "a failed create set the stream");
    /* a ReduceSum stream: y must be NULL at a push, the result is its own
     * call (a CumSum stream has none), and a bad push changes nothing */
    axial_stream *r = NULL;
    float sum[3], sum2[3], ones[3 * 30];
    for (int i = 0; i < 90; i++)
        ones[i] = (float)(i % 7) - 3.0f;
    st = axial_stream_create(AXIAL_OP_REDUCE_SUM, AXIAL_F32, 2, shape, 1, 0, &r);
    AX_CHECK(t, st == AXIAL_OK, "a ReduceSum stream: %s", axial_status_name(st));
    if (r != NULL) {
        const int64_t ps[2] = {3, 30};
        st = axial_stream_result(r, sum);
        AX_CHECK(t, st == AXIAL_OK && sum[0] == 0.0f && !signbit(sum[0]), "the empty sum is +0");
        AX_CHECK(t, axial_stream_push(r, AXIAL_F32, ones, ones, 2, ps) == AXIAL_E_ARGS,
                 "a sum's push with a y");
        AX_CHECK(t, axial_stream_push(r, AXIAL_F32, NULL, NULL, 2, ps) == AXIAL_E_NULL, "x NULL");
        AX_CHECK(t, axial_stream_length(r) == 0, "a refused push changed the length");
        AX_CHECK(t, axial_stream_push(r, AXIAL_F32, ones, NULL, 2, ps) == AXIAL_OK, "a sum's push");
        AX_CHECK(t, axial_stream_result(r, NULL) == AXIAL_E_NULL, "result into NULL");
        AX_CHECK(t, axial_stream_result(NULL, sum) == AXIAL_E_NULL, "result of NULL");
        AX_CHECK(t, axial_stream_result(s, sum) == AXIAL_E_ARGS, "the result of a CumSum stream");
        const int64_t ax1 = 1;
        st = axial_stream_result(r, sum);
        AX_CHECK(t, st == AXIAL_OK && axial_reduce_sum(AXIAL_F32, ones, sum2, 2, ps, &ax1, 1, 0) ==
                                          AXIAL_OK && memcmp(sum, sum2, sizeof sum) == 0,
                 "the sum after a refused push is not the one call's");
        const size_t rsz = axial_stream_state_size(r);
        unsigned char *rb = malloc(rsz);
        AX_CHECK(t, axial_stream_export(r, rb, rsz) == AXIAL_OK, "export a sum");
        AX_CHECK(t, axial_stream_import(s, rb, rsz) == AXIAL_E_ARGS,
                 "a sum's state into a CumSum stream");
        free(rb);
    }
    axial_stream_destroy(r);
    free(bytes);
    free(bb);
    axial_stream_destroy(s);
}

/* ---- shard_errors ------------------------------------------------------------- */

static unsigned char *summ(const axial_shards *sh, const void *x, int64_t a, int64_t len,
                           size_t *size) {
    axial_shard_summary_size(sh, a, len, size);
    unsigned char *b = malloc(*size);
    if (axial_shard_summarize(sh, x, a, len, b, *size) != AXIAL_OK) {
        free(b);
        return NULL;
    }
    return b;
}

void t_shard_errors(ax_t *t) {
    static float x[40000];
    for (int i = 0; i < 40000; i++)
        x[i] = (float)(i % 13) - 6.0f;
    const int64_t shape[1] = {40000}, axes[1] = {0};
    const axial_shards sh = {AXIAL_OP_CUMSUM, AXIAL_F32, 1, shape, axes, 1, 0};
    const axial_shards shr = {AXIAL_OP_REDUCE_SUM, AXIAL_F32, 1, shape, axes, 1, 0};
    const axial_shards sh64 = {AXIAL_OP_CUMSUM, AXIAL_F64, 1, shape, axes, 1, 0};
    const int64_t shape2[1] = {40001};
    const axial_shards shs = {AXIAL_OP_CUMSUM, AXIAL_F32, 1, shape2, axes, 1, 0};
    size_t za, zb, zc, zr, zd, zs, z;
    unsigned char *a = summ(&sh, x, 0, 16384, &za), *b = summ(&sh, x + 16384, 16384, 16384, &zb);
    unsigned char *c = summ(&sh, x + 32768, 32768, 40000 - 32768, &zc);
    unsigned char *r = summ(&shr, x + 16384, 16384, 16384, &zr);
    static double xd[40000];
    unsigned char *d = summ(&sh64, xd, 16384, 16384, &zd);
    unsigned char *s2 = summ(&shs, x + 16384, 16384, 16384, &zs);
    if (!AX_CHECK(t, a && b && c && r && d && s2, "summaries: %s", axial_last_error()))
        goto out;
    unsigned char out[4096];
    AX_CHECK(t, axial_shard_combine(a, za, b, zb, out, sizeof out, &z) == AXIAL_OK, "a then b: %s",
             axial_last_error());
    struct {
        const unsigned char *p, *q;
        size_t zp, zq;
        const char *what;
    } bad[] = {
        {b, a, zb, za, "out of order"},       {a, c, za, zc, "with a gap"},
        {a, r, za, zr, "of another op"},      {a, d, za, zd, "of another dtype"},
        {a, s2, za, zs, "of another shape"},  {a, b, za, zb - 1, "truncated"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        memset(out, 0x5a, sizeof out);
        axial_status st = axial_shard_combine(bad[k].p, bad[k].zp, bad[k].q, bad[k].zq, out,
                                              sizeof out, &z);
        expect_bad(t, st, AXIAL_E_ARGS, out, sizeof out, bad[k].what);
    }
    unsigned char *bb = malloc(zb);
    const size_t flips[] = {0, 4, 12, 13, 14, 17, 24, 33, 48, 64, zb - 20, zb - 1};
    for (size_t k = 0; k < sizeof flips / sizeof flips[0]; k++) {
        memcpy(bb, b, zb);
        bb[flips[k]] ^= 0x21;
        memset(out, 0x5a, sizeof out);
        axial_status st = axial_shard_combine(a, za, bb, zb, out, sizeof out, &z);
        char what[64];
        snprintf(what, sizeof what, "a summary with byte %zu changed", flips[k]);
        expect_bad(t, st, AXIAL_E_ARGS, out, sizeof out, what);
    }
    free(bb);
    /* a scan's carry must cover [0, start) */
    float y[16384];
    memset(y, 0x5a, sizeof y);
    axial_status st = axial_shard_scan(&sh, x + 32768, y, 32768, 40000 - 32768, a, za);
    expect_bad(t, st, AXIAL_E_ARGS, (unsigned char *)y, sizeof y, "a carry that ends before the piece");
    st = axial_shard_scan(&sh, x + 16384, y, 16384, 16384, NULL, 0);
    expect_bad(t, st, AXIAL_E_NULL, (unsigned char *)y, sizeof y, "no carry for a later piece");
    st = axial_shard_finish(&shr, r, zr, y);
    expect_bad(t, st, AXIAL_E_ARGS, (unsigned char *)y, sizeof y, "finish from part of the axis");
    st = axial_shard_summarize(&sh, x, 30000, 20000, out, sizeof out);
    AX_CHECK(t, st == AXIAL_E_ARGS, "a piece past the axis's end: %s", axial_status_name(st));
    st = axial_shard_summarize(&sh, x, 0, 100, out, 10);
    AX_CHECK(t, st == AXIAL_E_ARGS, "a summary buffer too small: %s", axial_status_name(st));
out:
    free(a);
    free(b);
    free(c);
    free(r);
    free(d);
    free(s2);
}

/* ---- bytes_limits --------------------------------------------------------------- */

uint64_t axial__fnv1a(const void *p, size_t n); /* (src/order.c: the bytes' checksum) */

/* The bytes b (n of them) with the u32 at `at` set to v (little-endian) and
 * their checksum made right: what a writer of those values would send. */
static void forge32(unsigned char *b, size_t n, size_t at, uint32_t v) {
    for (int i = 0; i < 4; i++)
        b[at + i] = (unsigned char)(v >> (8 * i));
    const uint64_t h = axial__fnv1a(b, n - 8);
    for (int i = 0; i < 8; i++)
        b[n - 8 + i] = (unsigned char)(h >> (8 * i));
}

void t_bytes_limits(ax_t *t) {
    axial_stream *s = NULL;
    axial_status st;
    /* a stream whose carries (152 bytes a float line, 8 a column) pass PTRDIFF_MAX */
    const int64_t lines[2] = {(int64_t)1 << 60, 5}, cols[3] = {5, (int64_t)1 << 61, 2};
    st = axial_stream_create(AXIAL_OP_CUMSUM, AXIAL_F32, 2, lines, 1, 0, &s);
    AX_CHECK(t, st == AXIAL_E_SHAPE && s == NULL, "a stream of 2^60 f32 lines: %s (%s)",
             axial_status_name(st), axial_last_error());
    st = axial_stream_create(AXIAL_OP_CUMSUM, AXIAL_I8, 3, cols, 0, 0, &s);
    AX_CHECK(t, st == AXIAL_E_SHAPE && s == NULL, "a stream of 2^62 i8 columns: %s (%s)",
             axial_status_name(st), axial_last_error());
    /* a length past INT64_MAX, through a state that says it has taken INT64_MAX - 5 */
    const int64_t shape[2] = {3, 7}, piece[2] = {3, 10};
    float x[30] = {0}, y[30];
    axial_stream_create(AXIAL_OP_CUMSUM, AXIAL_F32, 2, shape, 1, 0, &s);
    if (!AX_CHECK(t, s != NULL, "create: %s", axial_last_error()))
        return;
    const size_t sz = axial_stream_state_size(s);
    unsigned char *b = malloc(sz), *b2 = malloc(sz);
    axial_stream_export(s, b, sz);
    memcpy(b2, b, sz);
    forge32(b2, sz, 24, 0xfffffffau);
    forge32(b2, sz, 28, 0x7fffffffu);
    st = axial_stream_import(s, b2, sz);
    AX_CHECK(t, st == AXIAL_OK && axial_stream_length(s) == INT64_MAX - 5,
             "a state of INT64_MAX - 5 elements: %s, length %lld", axial_status_name(st),
             (long long)axial_stream_length(s));
    memset(y, 0x5a, sizeof y);
    st = axial_stream_push(s, AXIAL_F32, x, y, 2, piece);
    expect_bad(t, st, AXIAL_E_SHAPE, (unsigned char *)y, sizeof y, "10 elements after INT64_MAX - 5");
    AX_CHECK(t, axial_stream_length(s) == INT64_MAX - 5, "the refused push moved the length");
    forge32(b2, sz, 28, 0x80000000u);
    st = axial_stream_import(s, b2, sz);
    AX_CHECK(t, st == AXIAL_E_ARGS && axial_stream_length(s) == INT64_MAX - 5,
             "a state of 2^63 + 2^32 - 6 elements: %s", axial_status_name(st));
    /* another minor version, reserved bytes; another patch level is read */
    const uint32_t me = axial_version();
    const struct { size_t at; uint32_t v; axial_status want; const char *what; } forged[] = {
        {8, me + 100, AXIAL_E_ARGS, "the next minor version"},
        {8, me - me % 100 + (me % 100 + 1) % 100, AXIAL_OK, "another patch level"},
        {8, me + 10000, AXIAL_E_ARGS, "the next major version"},
        {16, 0x01000000u | 1u << 8 | 2u, AXIAL_E_ARGS, "reserved byte 19 set"}, /* rank 2, axis 1 */
        {20, 0x100u, AXIAL_E_ARGS, "reserved byte 21 set"},
    };
    for (size_t k = 0; k < sizeof forged / sizeof forged[0]; k++) {
        memcpy(b2, b, sz);
        forge32(b2, sz, forged[k].at, forged[k].v);
        st = axial_stream_import(s, b2, sz);
        AX_CHECK(t, st == forged[k].want, "a state with %s: %s (want %s): %s", forged[k].what,
                 axial_status_name(st), axial_status_name(forged[k].want), axial_last_error());
    }
    /* states of 0.2 (no chunks for many outputs), 0.3 (LogCumSumExp's
     * references from later terms) and 0.4 (several reduced groups without
     * cells): refused, the change named */
    static const struct { uint32_t v; const char *name, *change; } old[3] = {
        {200, "axial 0.2.0", "fixed chunks of rows"}, {300, "axial 0.3.0", "earlier terms only"},
        {400, "axial 0.4.0", "first reduced axis in cells"}};
    for (size_t k = 0; k < 3; k++) {
        memcpy(b2, b, sz);
        forge32(b2, sz, 8, old[k].v);
        st = axial_stream_import(s, b2, sz);
        AX_CHECK(t, st == AXIAL_E_ARGS && strstr(axial_last_error(), old[k].name) &&
                        strstr(axial_last_error(), old[k].change),
                 "a state of %s: %s, \"%s\"", old[k].name, axial_status_name(st),
                 axial_last_error());
    }
    free(b);
    free(b2);
    axial_stream_destroy(s);
    s = NULL;
    /* reset returns to create's order: a scalar-ISA stream that imported a SIMD state */
    const axial_isa simd = axial_isa_active(), before = simd;
    enum { N = 3000 };
    float *lx = malloc(N * sizeof *lx), *ly = malloc(N * sizeof *ly), *lw = malloc(N * sizeof *lw);
    for (int i = 0; i < N; i++)
        lx[i] = (float)((i * 7919) % 1000) * 0.001f + 1e-4f * (float)(i % 7);
    const int64_t ln[1] = {N};
    if (simd != AXIAL_ISA_SCALAR) {
        axial_stream *a = NULL;
        axial_stream_create(AXIAL_OP_CUMSUM, AXIAL_F32, 1, ln, 0, 0, &a);
        axial_stream_push(a, AXIAL_F32, lx, ly, 1, ln);
        const size_t asz = axial_stream_state_size(a);
        unsigned char *ab = malloc(asz);
        axial_stream_export(a, ab, asz);
        axial_cumsum(AXIAL_F32, lx, lw, 1, ln, 0, 0); /* the SIMD order's line */
        axial_isa_select(AXIAL_ISA_SCALAR);
        axial_cumsum(AXIAL_F32, lx, ly, 1, ln, 0, 0); /* the scalar order's */
        AX_CHECK(t, memcmp(ly, lw, N * sizeof *ly) != 0,
                 "this line has the same bits in the scalar and the SIMD order: it cannot "
                 "tell which order a stream follows");
        axial_stream_create(AXIAL_OP_CUMSUM, AXIAL_F32, 1, ln, 0, 0, &s);
        st = axial_stream_import(s, ab, asz);
        axial_stream_reset(s);
        memset(lw, 0, N * sizeof *lw);
        st = st ? st : axial_stream_push(s, AXIAL_F32, lx, lw, 1, ln);
        AX_CHECK(t, st == AXIAL_OK && memcmp(ly, lw, N * sizeof *ly) == 0,
                 "a scalar-ISA stream reset after importing a %s state: %s",
                 axial_isa_name(simd), st ? axial_last_error() : "not the scalar order's bits");
        axial_isa_select(before);
        axial_stream_destroy(a);
        axial_stream_destroy(s);
        free(ab);
    } else {
        ax_skip(t, "reset's order: no SIMD ISA on this CPU");
    }
    free(lx);
    free(ly);
    free(lw);
    /* summaries: 2^61 i8 outputs of 8-byte values; LogCumSumExp's 2^60 16-byte carries */
    unsigned char buf[256];
    const int64_t red[2] = {(int64_t)1 << 61, 2}, lse[2] = {(int64_t)1 << 60, 2}, ax1[1] = {1};
    const axial_shards shr = {AXIAL_OP_REDUCE_SUM, AXIAL_I8, 2, red, ax1, 1, 0};
    const axial_shards shl = {AXIAL_OP_LOGCUMSUMEXP, AXIAL_F16, 2, lse, ax1, 1, 0};
    size_t z = 12345;
    st = axial_shard_summary_size(&shr, 0, 0, &z);
    AX_CHECK(t, st == AXIAL_E_SHAPE && z == 12345, "the summary size of 2^61 outputs: %s, %zu",
             axial_status_name(st), z);
    memset(buf, 0x5a, sizeof buf);
    st = axial_shard_summarize(&shr, NULL, 0, 0, buf, sizeof buf);
    expect_bad(t, st, AXIAL_E_SHAPE, buf, sizeof buf, "an empty piece's summary of 2^61 outputs");
    st = axial_shard_scan(&shl, NULL, NULL, 0, 0, NULL, 0);
    AX_CHECK(t, st == AXIAL_E_SHAPE, "2^60 LogCumSumExp carries of 16 bytes: %s (%s)",
             axial_status_name(st), axial_last_error());
    /* combine: *size only on success; out overlapping b; bytes of another minor version */
    static float sx[32768];
    const int64_t one[1] = {32768}, ax0[1] = {0};
    const axial_shards sh = {AXIAL_OP_CUMSUM, AXIAL_F32, 1, one, ax0, 1, 0};
    size_t za, zb;
    unsigned char *pa = summ(&sh, sx, 0, 16384, &za), *pb = summ(&sh, sx + 16384, 16384, 16384, &zb);
    if (!AX_CHECK(t, pa && pb, "summaries: %s", axial_last_error()))
        goto out;
    unsigned char *o = malloc(za + zb + 64);
    z = 12345;
    st = axial_shard_combine(pa, za, pb, zb, o, 8, &z);
    AX_CHECK(t, st == AXIAL_E_ARGS && z == 12345, "a combine into 8 bytes: %s, *size %zu",
             axial_status_name(st), z);
    memcpy(o, pb, zb);
    st = axial_shard_combine(pa, za, o, zb, o + 8, za + zb, &z);
    AX_CHECK(t, st == AXIAL_E_OVERLAP && z == 12345, "out overlapping b: %s, *size %zu",
             axial_status_name(st), z);
    memcpy(o, pb, zb);
    forge32(o, zb, 8, me + 100);
    st = axial_shard_combine(pa, za, o, zb, o + zb, za + 64, &z);
    AX_CHECK(t, st == AXIAL_E_ARGS && z == 12345 && strstr(axial_last_error(), "written by axial") != NULL,
             "b of the next minor version: %s, \"%s\"", axial_status_name(st), axial_last_error());
    memcpy(o, pb, zb);
    forge32(o, zb, 16, (uint32_t)o[16] | (uint32_t)o[17] << 8 | (uint32_t)o[18] << 16 | 1u << 24);
    st = axial_shard_combine(pa, za, o, zb, o + zb, za + 64, &z);
    AX_CHECK(t, st == AXIAL_E_ARGS && z == 12345, "b with reserved byte 19 set: %s",
             axial_status_name(st));
    st = axial_shard_combine(pa, za, pb, zb, o, za + zb, &z);
    AX_CHECK(t, st == AXIAL_OK && z == za, "a then b: %s, *size %zu (want %zu)",
             axial_status_name(st), z, za);
    free(o);
out:
    free(pa);
    free(pb);
}

/* ---- shard_cross_isa ------------------------------------------------------------ */

/* A reduction's f32 stream of `shape` made on ISA a, fed x's first h
 * elements, then its bytes imported into one made on b (active after). */
static axial_status moved_stream(axial_op op, const float *x, const int64_t *shape,
                                 const int64_t *h, axial_isa a, axial_isa b, axial_stream **s) {
    axial_isa_select(a);
    axial_stream_create(op, AXIAL_F32, 1, shape, 0, 0, s);
    axial_stream_push(*s, AXIAL_F32, x, NULL, 1, h);
    const size_t sz = axial_stream_state_size(*s);
    unsigned char *bytes = malloc(sz);
    axial_stream_export(*s, bytes, sz);
    axial_stream_destroy(*s);
    axial_isa_select(b);
    axial_stream_create(op, AXIAL_F32, 1, shape, 0, 0, s);
    const axial_status st = axial_stream_import(*s, bytes, sz);
    free(bytes);
    return st;
}

void t_shard_cross_isa(ax_t *t) {
    const unsigned avail = axial_isa_available();
    axial_isa simd[3];
    size_t ns = 0;
    for (int i = 1; i <= 3; i++)
        if (avail & (1u << i))
            simd[ns++] = (axial_isa)i;
    if (ns < 2) {
        ax_skip(t, "fewer than two SIMD ISAs on this CPU (available 0x%x)", avail);
        return;
    }
    const axial_isa before = axial_isa_active();
    enum { N = 50000 };
    float *x = malloc(N * sizeof *x), *want = malloc(N * sizeof *x), *got = malloc(N * sizeof *x);
    ax_fill(t, AXIAL_F32, x, N, FILL_GENERAL);
    const int64_t shape[1] = {N}, axes[1] = {0};
    const axial_shards sh = {AXIAL_OP_CUMSUM, AXIAL_F32, 1, shape, axes, 1, 0};
    for (size_t i = 0; i < ns; i++)
        for (size_t j = 0; j < ns; j++) {
            if (i == j)
                continue;
            /* summaries and the first half of a stream on ISA i; the rest on j */
            axial_isa_select(simd[i]);
            axial_cumsum(AXIAL_F32, x, want, 1, shape, 0, 0);
            size_t za, zb, z;
            unsigned char *a = summ(&sh, x, 0, 16384, &za);
            axial_stream *s = NULL;
            axial_stream_create(AXIAL_OP_CUMSUM, AXIAL_F32, 1, shape, 0, 0, &s);
            const int64_t h[1] = {20000 + 7}, rest[1] = {N - 20000 - 7};
            axial_stream_push(s, AXIAL_F32, x, got, 1, h);
            axial_isa_select(simd[j]);
            unsigned char *b = summ(&sh, x + 16384, 16384, 16384, &zb);
            unsigned char ab[1024];
            axial_status st = axial_shard_combine(a, za, b, zb, ab, sizeof ab, &z);
            st = st ? st : axial_shard_scan(&sh, x + 32768, got + 32768, 32768, N - 32768, ab, z);
            AX_CHECK(t, st == AXIAL_OK && memcmp(got + 32768, want + 32768, (N - 32768) * 4) == 0,
                     "shards summarised on %s and %s: %s, %s", axial_isa_name(simd[i]),
                     axial_isa_name(simd[j]), axial_status_name(st),
                     st ? axial_last_error() : "the bits differ from the one call");
            st = axial_stream_push(s, AXIAL_F32, x + 20007, got + 20007, 1, rest);
            AX_CHECK(t, st == AXIAL_OK && memcmp(got, want, (size_t)N * 4) == 0,
                     "a stream begun on %s, ended on %s: %s", axial_isa_name(simd[i]),
                     axial_isa_name(simd[j]), st ? axial_last_error() : "the bits differ");
            axial_stream_destroy(s);
            free(a);
            free(b);
            /* a ReduceSum stream begun on ISA i, its bytes, ended on j */
            axial_isa_select(simd[i]);
            float sa, sb;
            axial_reduce_sum(AXIAL_F32, x, &sb, 1, shape, axes, 1, 0);
            st = moved_stream(AXIAL_OP_REDUCE_SUM, x, shape, h, simd[i], simd[j], &s);
            st = st ? st : axial_stream_push(s, AXIAL_F32, x + 20007, NULL, 1, rest);
            st = st ? st : axial_stream_result(s, &sa);
            AX_CHECK(t, st == AXIAL_OK && memcmp(&sa, &sb, 4) == 0,
                     "a sum stream begun on %s, ended on %s: %s", axial_isa_name(simd[i]),
                     axial_isa_name(simd[j]), st ? axial_last_error() : "the bits differ");
            axial_stream_destroy(s);
            /* a ReduceLogSumExp state goes on only on its own ISA */
            st = moved_stream(AXIAL_OP_REDUCE_LOGSUMEXP, x, shape, h, simd[i], simd[j], &s);
            AX_CHECK(t, st == AXIAL_E_ARGS && strstr(axial_last_error(), axial_isa_name(simd[i])),
                     "a ReduceLogSumExp state of %s imported on %s: %s (%s), want AXIAL_E_ARGS "
                     "naming %s", axial_isa_name(simd[i]), axial_isa_name(simd[j]),
                     axial_status_name(st), axial_last_error(), axial_isa_name(simd[i]));
            axial_stream_destroy(s);
        }
    axial_isa_select(before);
    free(x);
    free(want);
    free(got);
}
