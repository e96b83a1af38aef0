/* SPDX-License-Identifier: MIT */
/*
 * test_parallel.c: the _ex forms give the plain call's bits with every
 * executor, and refuse bad arguments before any task runs.
 *
 * Per ISA (parallel_cumsum, parallel_reduce, parallel_roll,
 * parallel_logcumsumexp, parallel_logsumexp), for every dtype (the float
 * ones for the log-space ops) and shape family of each op -- sizes above the split thresholds (1.25x
 * the op's threshold, 1.125x when AXIAL_TEST_SCALE < 1, which also samples a
 * quarter of the cases), the random small shapes of the shared families in
 * cases.c, and the 2^24-element f32 sizes of the full-size accuracy targets (AXIAL_TEST_BIG) -- the
 * output of the plain call is compared with memcmp against `_ex` with:
 *   the built-in pool at 1, 2, 3 or 8 threads: one of them per case, in
 *   turn, so that every shape family of every op meets each of the four
 *   (all four on every case with AXIAL_TEST_SCALE >= 2, which takes several
 *   times as long, and far longer on a loaded host, as pthreadpool's idle
 *   workers spin; a new pool per call, so that no idle pool spins meanwhile);
 *   a test executor running the tasks in reverse, and one in a shuffled
 *   order, each on 3 threads of its own plus the caller (every task must run
 *   exactly once);
 *   a spy that runs the tasks inline in a shuffled order and counts the
 *   parallel_for calls: at most 2 per op call, none below the thresholds
 *   (small shapes), at least one for the shapes built to split.
 * The few-lines shapes (one or a few long lines, [R, C] axis 0) are split
 * along their lines where the active table has the split kernels (CumSum's
 * blocked scan, column tiles), else not at all; the spy checks which.
 * axial-tap-refsplit (tests/refsplit.c) runs these tests with the reference
 * kernels of the one summation order in every table, so the planner's
 * chunks, carries and tiles are checked whatever the ISAs provide.
 * Float inputs are general data (FILL_GENERAL), so a different order of
 * additions would show in the bits; some log-space cases get rare NaN and
 * +-inf terms too (FILL_RARE_SPECIALS: which state wins must not depend on
 * the order either).  LogCumSumExp's split lines carry axial_lse_acc states
 * from chunk to chunk in order, and the log-space reductions' chunks and
 * groups merge them in the planner's fixed order.  Outputs sit in canaried buffers at
 * random whole-element misalignment (Roll's and copies' block boundaries
 * follow y's address).
 *
 * API tests: parallel_errors (every argument check of the five ops, and
 * exec->parallel_for NULL / concurrency 0: the status, no task run, the
 * output untouched), parallel_pool (axial_pool_* and several threads
 * submitting to one pool at once), parallel_ranges (the planners' task
 * ranges on 64-byte lines, and the streaming outputs' task cap),
 * parallel_adapter_pthreadpool and
 * parallel_adapter_openmp (the adapters of tests/adapters/).
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "adapters/axial_pthreadpool.h"
#include "cases.h"
#include "harness.h"
#include "internal.h" /* the active kernel table: which split kernels it has */
#include "oracle.h"
#include "tests.h"
#ifdef AX_HAVE_OPENMP
#include "adapters/axial_openmp.h"
#endif

#if defined(__SANITIZE_THREAD__)
#define AX_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define AX_TSAN 1
#endif
#endif

/* ---- test executors -------------------------------------------------------- */

enum order { ORDER_REVERSE, ORDER_SHUFFLE };

typedef struct {
    enum order order;
    int threads; /* besides the caller */
    uint64_t rng;
    atomic_long calls, tasks, bad; /* bad: a task run twice or never */
    size_t max_tasks;
} order_exec;

typedef struct {
    order_exec *e;
    axial_task_fn fn;
    void *arg;
    const size_t *perm;
    atomic_size_t next;
    atomic_uchar *ran;
    size_t n;
} order_call;

static void *order_worker(void *p) {
    order_call *c = p;
    for (;;) {
        const size_t i = atomic_fetch_add(&c->next, 1);
        if (i >= c->n)
            return NULL;
        c->fn(c->arg, c->perm[i]);
        atomic_fetch_add(&c->ran[c->perm[i]], 1);
    }
}

static uint64_t xs64(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void order_parallel_for(void *self, axial_task_fn fn, void *arg, size_t n) {
    order_exec *e = self;
    atomic_fetch_add(&e->calls, 1);
    atomic_fetch_add(&e->tasks, (long)n);
    if (n > e->max_tasks)
        e->max_tasks = n;
    size_t *perm = malloc(n * sizeof *perm);
    atomic_uchar *ran = calloc(n, 1);
    if (perm == NULL || ran == NULL) {
        free(perm);
        free(ran);
        atomic_fetch_add(&e->bad, 1);
        return;
    }
    for (size_t i = 0; i < n; i++)
        perm[i] = e->order == ORDER_REVERSE ? n - 1 - i : i;
    if (e->order == ORDER_SHUFFLE)
        for (size_t i = n; i > 1; i--) {
            const size_t j = (size_t)(xs64(&e->rng) % i), tmp = perm[i - 1];
            perm[i - 1] = perm[j];
            perm[j] = tmp;
        }
    order_call c = {e, fn, arg, perm, 0, ran, n};
    pthread_t th[8];
    int started = 0;
    for (int k = 0; k < e->threads && k < 8; k++)
        if (pthread_create(&th[started], NULL, order_worker, &c) == 0)
            started++;
    order_worker(&c);
    for (int k = 0; k < started; k++)
        pthread_join(th[k], NULL);
    for (size_t i = 0; i < n; i++)
        if (atomic_load(&ran[i]) != 1)
            atomic_fetch_add(&e->bad, 1);
    free(perm);
    free(ran);
}

static axial_executor order_executor(order_exec *e, enum order order, int threads) {
    memset(e, 0, sizeof *e);
    e->order = order;
    e->threads = threads;
    e->rng = 0x9e3779b97f4a7c15u;
    axial_executor ex = {order_parallel_for, e, (size_t)threads + 1};
    return ex;
}

/* The executors every case runs with. */
enum { N_POOLS = 4, N_EXECS = N_POOLS + 3 };
static const size_t pool_threads[N_POOLS] = {1, 2, 3, 8};

typedef struct {
    axial_pool *pools[N_POOLS];
    axial_executor ex[N_EXECS];
    const char *names[N_EXECS];
    order_exec rev, shuf, spy; /* spy: no threads of its own */
    bool ok;
} execs;

static bool execs_init(ax_t *t, execs *E) {
    (void)t;
    memset(E, 0, sizeof *E);
    static const char *const pool_names[N_POOLS] = {"pool(1)", "pool(2)", "pool(3)", "pool(8)"};
    for (int k = 0; k < N_POOLS; k++)
        E->names[k] = pool_names[k];
    E->ex[N_POOLS] = order_executor(&E->rev, ORDER_REVERSE, 3);
    E->names[N_POOLS] = "reverse order, 4 threads";
    E->ex[N_POOLS + 1] = order_executor(&E->shuf, ORDER_SHUFFLE, 3);
    E->names[N_POOLS + 1] = "shuffled order, 4 threads";
    E->ex[N_POOLS + 2] = order_executor(&E->spy, ORDER_SHUFFLE, 0);
    E->names[N_POOLS + 2] = "spy (inline, shuffled)";
    E->ok = true;
    return true;
}

/* Each call gets a pool of its own, destroyed right after: pthreadpool's
 * idle workers spin for a while, and on a small machine the spinning of
 * pools kept alive would slow every later call. */
static const axial_executor *execs_get(ax_t *t, execs *E, int k) {
    if (k >= N_POOLS)
        return &E->ex[k];
    axial_status st = axial_pool_create(pool_threads[k], &E->pools[k]);
    if (!AX_CHECK(t, st == AXIAL_OK, "axial_pool_create(%zu): %s (%s)", pool_threads[k],
                  axial_status_name(st), axial_last_error()))
        return NULL;
    E->ex[k] = *axial_pool_executor(E->pools[k]);
    AX_CHECK(t, E->ex[k].concurrency == pool_threads[k], "pool(%zu): concurrency %zu",
             pool_threads[k], E->ex[k].concurrency);
    return &E->ex[k];
}

static void execs_put(execs *E, int k) {
    if (k < N_POOLS) {
        axial_pool_destroy(E->pools[k]);
        E->pools[k] = NULL;
    }
}

static void execs_free(ax_t *t, execs *E) {
    AX_CHECK(t, atomic_load(&E->rev.bad) == 0 && atomic_load(&E->shuf.bad) == 0 &&
                    atomic_load(&E->spy.bad) == 0,
             "a test executor saw a task run twice or never (%ld, %ld, %ld)",
             atomic_load(&E->rev.bad), atomic_load(&E->shuf.bad), atomic_load(&E->spy.bad));
}

/* ---- one case ------------------------------------------------------------------ */

enum split { SPLIT_ANY, SPLIT_NO, SPLIT_YES };

typedef struct {
    ax_op op;
    axial_dtype dt;
    size_t rank;
    int64_t shape[4];
    int64_t axis;   /* cumsum, logcumsumexp */
    unsigned flags; /* cumsum, reduce, and their log-space forms */
    size_t naxes, nshift;
    int64_t axes[4], shift[4];
    bool inplace;
    bool specials; /* log-space ops: rare NaN / +-inf / -inf terms in the input */
    enum split split;
    int pool; /* which of the pools runs it (the others are too slow here) */
} pcase;

static ax_call call_of(const pcase *c) {
    return (ax_call){c->op, c->dt, c->rank, c->shape, c->axis,
                     c->flags, c->axes, c->naxes, c->shift, c->nshift};
}

static axial_status pcall(const pcase *c, const void *x, void *y, const axial_executor *ex) {
    const ax_call call = call_of(c);
    return ax_call_ex(&call, x, y, ex);
}

static axial_status plain_call(const pcase *c, const void *x, void *y) {
    const ax_call call = call_of(c);
    return ax_call_plain(&call, x, y);
}

static const char *describe(char *buf, size_t cap, const pcase *c) {
    char sh[96];
    int len = snprintf(buf, cap, "%s %s %s", ax_op_name(c->op), ax_dtype_str(c->dt),
                       ax_shape_str(sh, sizeof sh, c->rank, c->shape));
    if (ax_op_scan(c->op))
        len += snprintf(buf + len, cap - (size_t)len, " axis %lld flags %u", (long long)c->axis,
                        c->flags);
    else {
        len += snprintf(buf + len, cap - (size_t)len, " axes {");
        for (size_t a = 0; a < c->naxes; a++)
            len += snprintf(buf + len, cap - (size_t)len, "%s%lld", a ? ", " : "",
                            (long long)c->axes[a]);
        len += snprintf(buf + len, cap - (size_t)len, "}");
        if (c->op == AX_OP_ROLL)
            for (size_t a = 0; a < c->nshift; a++)
                len += snprintf(buf + len, cap - (size_t)len, " shift %lld",
                                (long long)c->shift[a]);
        else
            len += snprintf(buf + len, cap - (size_t)len, " flags %u", c->flags);
    }
    snprintf(buf + len, cap - (size_t)len, "%s%s", c->inplace ? " in place" : "",
             c->specials ? " (NaN/inf terms)" : "");
    return buf;
}

/* Runs the plain call and every executor; compares bytes. */
static int pool_turn;

static void run_pcase(ax_t *t, execs *E, pcase *c) {
    c->pool = pool_turn++ % N_POOLS;
    char what[320];
    describe(what, sizeof what, c);
    const size_t es = ax_dtype_size(c->dt), count = or_count(c->rank, c->shape);
    size_t ocount = count;
    if (ax_op_reduce(c->op)) {
        size_t orank;
        int64_t oshape[AXIAL_MAX_RANK];
        if (!AX_CHECK(t, axial_reduce_sum_shape(c->rank, c->shape, c->axes, c->naxes, c->flags,
                                                &orank, oshape) == AXIAL_OK,
                      "%s: reduce_sum_shape failed", what))
            return;
        ocount = or_count(orank, oshape);
    }
    ax_buf x, want, y;
    ax_buf_alloc(&x, count * es, es * (size_t)ax_rand_range(t, 0, 7));
    ax_buf_alloc(&want, ocount * es, 0);
    ax_buf_alloc(&y, ocount * es, es * (size_t)ax_rand_range(t, 0, 7));
    ax_buf_poison(&x, 0);
    ax_fill(t, c->dt, x.p, count,
            c->specials                ? FILL_RARE_SPECIALS
            : ax_dtype_is_float(c->dt) ? FILL_GENERAL
                                       : FILL_EXACT);
    ax_buf_poison(&want, 0x5a);
    void *xcopy = malloc(count * es + 1);
    if (xcopy)
        memcpy(xcopy, x.p, count * es);
    axial_status st;
    if (c->inplace) {
        memcpy(want.p, x.p, count * es);
        st = plain_call(c, want.p, want.p);
    } else {
        st = plain_call(c, x.p, want.p);
    }
    if (!AX_CHECK(t, st == AXIAL_OK && xcopy, "%s: the plain call: %s (%s)", what,
                  axial_status_name(st), axial_last_error()))
        goto out;
    for (int k = 0; k < N_EXECS; k++) {
        ax_buf_poison(&y, 0x5a);
        const long calls0 = atomic_load(&E->spy.calls);
        if (k < N_POOLS && k != c->pool && ax_scale() < 2.0)
            continue;
        const axial_executor *ex = execs_get(t, E, k);
        if (ex == NULL)
            continue;
        if (c->inplace) {
            memcpy(y.p, x.p, count * es);
            st = pcall(c, y.p, y.p, ex);
        } else {
            st = pcall(c, x.p, y.p, ex);
        }
        execs_put(E, k);
        if (!AX_CHECK(t, st == AXIAL_OK, "%s with %s: %s (%s)", what, E->names[k],
                      axial_status_name(st), axial_last_error()))
            continue;
        AX_CHECK(t, ax_buf_canary_ok(&y) && ax_buf_canary_ok(&x),
                 "%s with %s: wrote outside the output", what, E->names[k]);
        if (memcmp(y.p, want.p, ocount * es) != 0) {
            size_t i = 0;
            while (memcmp(y.p + i * es, want.p + i * es, es) == 0)
                i++;
            AX_CHECK(t, false, "%s with %s: output element %zu differs from the plain call's",
                     what, E->names[k], i);
        } else {
            AX_CHECK(t, true, "%s", what);
        }
        if (k == N_POOLS + 2) { /* the spy */
            const long calls = atomic_load(&E->spy.calls) - calls0;
            AX_CHECK(t, calls <= 2, "%s: %ld parallel_for calls (at most 2)", what, calls);
            if (c->split == SPLIT_NO)
                AX_CHECK(t, calls == 0, "%s: %ld parallel_for calls for a call that is not split",
                         what, calls);
            if (c->split == SPLIT_YES)
                AX_CHECK(t, calls >= 1, "%s: no parallel_for call for a call that is split",
                         what);
        }
    }
    if (!c->inplace)
        AX_CHECK(t, memcmp(x.p, xcopy, count * es) == 0, "%s: the input was changed", what);
out:
    free(xcopy);
    ax_buf_free(&x);
    ax_buf_free(&want);
    ax_buf_free(&y);
}

/* Elements of about `bytes` bytes of one dtype, odd, so tails are exercised. */
static int64_t elems(axial_dtype dt, size_t bytes) {
    return (int64_t)(bytes / ax_dtype_size(dt)) | 1;
}

/* The input size of the split cases: above the op's threshold (CumSum,
 * LogCumSumExp and Roll 512 KiB, ReduceSum and ReduceLogSumExp 1 MiB:
 * src/internal.h; the log-space ops share their sums' planners). */
/* The op's threshold (bytes of input, src/internal.h): below it, one task. */
static size_t op_threshold(ax_op op) {
    return op == AX_OP_LCSE || op == AX_OP_RLSE ? AXIAL_LSE_THRESHOLD
           : op == AX_OP_CUMSUM                ? AXIAL_CUMSUM_THRESHOLD
           : op == AX_OP_ROLL                  ? AXIAL_ROLL_THRESHOLD
                                               : AXIAL_REDUCE_THRESHOLD;
}
static size_t split_bytes(ax_op op) {
    const size_t base = ax_op_reduce(op) ? AXIAL_REDUCE_THRESHOLD : AXIAL_CUMSUM_THRESHOLD;
    return base + (ax_scale() >= 1.0 ? base / 4 : base / 8);
}
static double split_frac(void) { return ax_scale() >= 1.0 ? 1.0 : 0.5; }

static pcase mk(ax_op op, axial_dtype dt, size_t rank, int64_t a, int64_t b, int64_t c2,
                enum split split) {
    pcase c;
    memset(&c, 0, sizeof c);
    c.op = op;
    c.dt = dt;
    c.rank = rank;
    c.shape[0] = a;
    c.shape[1] = b;
    c.shape[2] = c2;
    c.split = split;
    return c;
}

/* Whether a shape of few lines is split along them: CumSum's blocked scan
 * along the innermost axis (inner == 1; switched by AXIAL_SPLIT_SCAN_BLOCKS)
 * needs cumsum_seg and scan_total, LogCumSumExp's logcumsumexp_seg and
 * lse_scan_total (always on; every SIMD table has them); the column tiles
 * (AXIAL_SPLIT_COLUMN_TILES) need the op's cols kernel and rows (`cols`
 * columns) of at least 8 (the reductions) or 16 (the scans) 64-byte lines,
 * which make two tiles (src/internal.h); the active table has the kernels for the float
 * types of a SIMD ISA (kernels/kernels.h).  The cases using this are above
 * the thresholds with fewer than 16 lines. */
static enum split axis_split(ax_op op, axial_dtype dt, int64_t cols) {
    const struct axial_kernels *kt = axial__kernels();
    if (cols == 1 && op == AX_OP_LCSE)
        return kt->logcumsumexp_seg[dt] && kt->lse_scan_total[dt] ? SPLIT_YES : SPLIT_NO;
    if (cols == 1)
        return AXIAL_SPLIT_SCAN_BLOCKS && op == AX_OP_CUMSUM && kt->cumsum_seg[dt] &&
                       kt->scan_total[dt] ? SPLIT_YES : SPLIT_NO;
    const bool has = op == AX_OP_REDUCE ? kt->reduce_cols[dt] != NULL
                     : op == AX_OP_RLSE ? kt->reduce_lse_cols[dt] != NULL
                     : op == AX_OP_LCSE ? kt->logcumsumexp_cols[dt] != NULL
                                        : kt->cumsum_cols[dt] != NULL;
    const size_t rowlines = ((size_t)cols * ax_dtype_size(dt) + 63) / 64;
    const size_t least = 2 * (ax_op_reduce(op) ? AXIAL_REDUCE_TILE_MIN : AXIAL_SCAN_TILE_MIN);
    return AXIAL_SPLIT_COLUMN_TILES && has && rowlines >= least ? SPLIT_YES : SPLIT_NO;
}

/* The same for a reduction of [rows, cols] along axis 0: with more rows
 * than a chunk of the order (axial__reduce_chunk) the chunks are tasks (or
 * the tiles walk them), so it is split wherever it is above the threshold. */
static enum split red_split(ax_op op, axial_dtype dt, int64_t rows, int64_t cols) {
    const size_t chunk = axial__reduce_chunk((size_t)cols, (size_t)cols * ax_dtype_size(dt),
                                             ax_dtype_is_float(dt));
    return chunk && (size_t)rows > chunk ? SPLIT_YES : axis_split(op, dt, cols);
}

/* [N / cols, cols] along axis 0, split or not as red_split says. */
static pcase mk_cols(ax_op op, axial_dtype dt, int64_t N, int64_t cols) {
    return mk(op, dt, 2, N / cols, cols, 0, red_split(op, dt, N / cols, cols));
}

/* ---- small shapes of the shared families: never split ------------------------- */

static execs *fam_execs;
static ax_op fam_scan = AX_OP_CUMSUM, fam_red = AX_OP_REDUCE; /* or their log-space forms */

/* Below the op's threshold nothing is split; above it the plan may split or not. */
static enum split small_split(ax_op op, axial_dtype dt, size_t rank, const int64_t *shape) {
    return or_count(rank, shape) * ax_dtype_size(dt) < op_threshold(op) ? SPLIT_NO : SPLIT_ANY;
}

static void fam_cumsum(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape, int64_t axis,
                       unsigned flags, enum fill mode, bool inplace) {
    (void)mode;
    pcase c = mk(fam_scan, dt, rank, 0, 0, 0, SPLIT_NO);
    memcpy(c.shape, shape, rank * sizeof *shape);
    c.split = small_split(fam_scan, dt, rank, shape);
    c.axis = axis;
    c.flags = flags;
    c.inplace = inplace;
    run_pcase(t, fam_execs, &c);
}

static void fam_reduce(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape,
                       const int64_t *axes, size_t naxes, unsigned flags, enum fill mode) {
    (void)mode;
    pcase c = mk(fam_red, dt, rank, 0, 0, 0, SPLIT_NO);
    memcpy(c.shape, shape, rank * sizeof *shape);
    c.split = small_split(fam_red, dt, rank, shape);
    memcpy(c.axes, axes, naxes * sizeof *axes);
    c.naxes = naxes;
    c.flags = flags;
    run_pcase(t, fam_execs, &c);
}

/* ---- the ops ------------------------------------------------------------------------ */

void ax_parallel_line_case(ax_t *t, axial_dtype dt, unsigned flags) {
    execs E;
    if (!execs_init(t, &E))
        return;
    const int64_t Q = (int64_t)AXIAL_SCAN_CHUNK, N = elems(dt, split_bytes(AX_OP_CUMSUM));
    pcase c = mk(AX_OP_CUMSUM, dt, 1, (N > 3 * Q ? N : 3 * Q) + 17, 0, 0, SPLIT_ANY);
    c.flags = flags;
    run_pcase(t, &E, &c);
    execs_free(t, &E);
}

void t_parallel_cumsum(ax_t *t) {
    execs E;
    if (!execs_init(t, &E))
        return;
    fam_execs = &E;
    fam_scan = AX_OP_CUMSUM;
    const size_t B = split_bytes(AX_OP_CUMSUM);
    for (size_t d = 0; d < AX_N_SUM_TYPES; d++) {
        const axial_dtype dt = ax_sum_types[d];
        const int64_t N = elems(dt, B);
        const unsigned fl = (unsigned)d % 4;
        pcase cs[7] = {
            mk(AX_OP_CUMSUM, dt, 2, N / 100, 100, 0, SPLIT_YES),      /* many lines */
            mk(AX_OP_CUMSUM, dt, 2, N / 5, 5, 0, SPLIT_YES),          /* many short lines */
            mk(AX_OP_CUMSUM, dt, 3, 37, N / (37 * 65), 65, SPLIT_YES), /* lines of columns */
            mk(AX_OP_CUMSUM, dt, 2, N / 300, 300, 0, axis_split(AX_OP_CUMSUM, dt, 300)), /* axis 0 */
            mk(AX_OP_CUMSUM, dt, 1, N, 0, 0, axis_split(AX_OP_CUMSUM, dt, 1)),           /* one line */
            mk(AX_OP_CUMSUM, dt, 2, N / 1001, 1001, 0, SPLIT_YES),    /* in place */
            mk(AX_OP_CUMSUM, dt, 2, 3, N / 3, 0, SPLIT_YES),          /* few long lines */
        };
        cs[0].axis = 1;
        cs[1].axis = -1;
        cs[2].axis = 1;
        cs[3].axis = 0;
        cs[5].axis = 1;
        cs[5].inplace = true;
        cs[6].axis = 1;
        for (int k = 0; k < 7; k++) {
            cs[k].flags = (fl + (unsigned)k) % 4;
            if (ax_sample(t, split_frac()))
                run_pcase(t, &E, &cs[k]);
        }
        if (ax_dtype_is_float(dt)) { /* few lines: split along them (src/cumsum.c) */
            const int64_t Q = (int64_t)AXIAL_SCAN_CHUNK;
            const int64_t whole = ((int64_t)B / (int64_t)ax_dtype_size(dt) + Q - 1) / Q * Q;
            enum { NA = 10 };
            pcase as[NA] = {
                mk(AX_OP_CUMSUM, dt, 1, N, 0, 0, SPLIT_ANY),          /* one line, each flag set, */
                mk(AX_OP_CUMSUM, dt, 1, N - 5003, 0, 0, SPLIT_ANY),   /* other last chunks */
                mk(AX_OP_CUMSUM, dt, 1, N - 10006, 0, 0, SPLIT_ANY),
                mk(AX_OP_CUMSUM, dt, 1, N - 15009, 0, 0, SPLIT_ANY),
                mk(AX_OP_CUMSUM, dt, 1, whole, 0, 0, SPLIT_ANY),      /* whole chunks only */
                mk(AX_OP_CUMSUM, dt, 2, 5, N / 5, 0, SPLIT_YES),      /* 5 lines */
                mk(AX_OP_CUMSUM, dt, 2, N / 1000, 1000, 0, SPLIT_ANY), /* axis 0: tiles */
                mk(AX_OP_CUMSUM, dt, 3, 2, N / 74, 37, SPLIT_YES),    /* 2 x 37 columns */
                mk(AX_OP_CUMSUM, dt, 2, N / 9, 9, 0, SPLIT_ANY),      /* 9 columns */
                mk(AX_OP_CUMSUM, dt, 2, N / 4099, 4099, 0, SPLIT_ANY), /* axis 0: 2-8 tiles */
            };
            const int64_t cols[NA] = {1, 1, 1, 1, 1, 1, 1000, 37, 9, 4099};
            for (int k = 0; k < NA; k++) {
                pcase *c = &as[k];
                c->axis = k == 5 ? -1 : k == 7 ? 1 : 0;
                c->flags = (unsigned)(k + (int)d) % 4;
                if (k == 0) /* always run, and reversed: the backward blocked scan */
                    c->flags = AXIAL_CUMSUM_REVERSE | ((unsigned)d & 1u);
                c->inplace = ((unsigned)k + (unsigned)d) % 3 == 0;
                if (c->split == SPLIT_ANY) /* (the shorter lines fall below the
                                            * threshold at small AXIAL_TEST_SCALE) */
                    c->split = or_count(c->rank, c->shape) * ax_dtype_size(dt) <
                                       AXIAL_CUMSUM_THRESHOLD
                                   ? SPLIT_NO
                                   : axis_split(AX_OP_CUMSUM, dt, cols[k]);
                if (k == 0 || ax_sample(t, split_frac()))
                    run_pcase(t, &E, c);
            }
            /* always: a few lines of four chunks and a bit each, so that a
             * chunk totalled in the first pass is followed by more of its
             * line (the carry between chunk groups, on every executor) */
            pcase few = mk(AX_OP_CUMSUM, dt, 2, 4, 4 * Q + 5, 0, SPLIT_ANY);
            few.axis = 1;
            few.flags = (unsigned)d % 4;
            few.split = SPLIT_ANY; /* (by lines, or along them too) */
            run_pcase(t, &E, &few);
        }
        /* the shared small shapes (sampled) */
        cumsum_columns(t, dt, FILL_EXACT, fam_cumsum, 0.005, FLAGS_ONE);
        cumsum_short_rows(t, dt, FILL_EXACT, fam_cumsum, 0.003, FLAGS_ONE);
    }
    if (ax_big()) { /* the full-size accuracy targets' sizes: 2^24 f32 */
        pcase c = mk(AX_OP_CUMSUM, AXIAL_F32, 2, 1 << 12, 1 << 12, 0, SPLIT_YES);
        c.axis = 1;
        run_pcase(t, &E, &c);
        c = mk(AX_OP_CUMSUM, AXIAL_F32, 1, 1 << 24, 0, 0, axis_split(AX_OP_CUMSUM, AXIAL_F32, 1));
        run_pcase(t, &E, &c);
        /* Outputs of >= 4 MiB: the tasks stream as the plain call does
         * (AXIAL_KERNEL_STREAM), misaligned buffers: column tiles, lines of
         * floats and of integers, each flag set. */
        static const struct { axial_dtype dt; int64_t r, c; int axis; } big[5] = {
            {AXIAL_F32, 1027, 4099, 0}, {AXIAL_F16, 4099, 1000, 0}, {AXIAL_BF16, 2053, 2048, 0},
            {AXIAL_F64, 1031, 1024, 1}, {AXIAL_I32, 4097, 1024, 1}};
        for (int k = 0; k < 5; k++) {
            c = mk(AX_OP_CUMSUM, big[k].dt, 2, big[k].r, big[k].c, 0,
                   big[k].axis ? SPLIT_YES : axis_split(AX_OP_CUMSUM, big[k].dt, big[k].c));
            c.axis = big[k].axis;
            c.flags = (unsigned)k % 4;
            run_pcase(t, &E, &c);
        }
    }
    execs_free(t, &E);
}

void t_parallel_reduce(ax_t *t) {
    execs E;
    if (!execs_init(t, &E))
        return;
    fam_execs = &E;
    fam_red = AX_OP_REDUCE;
    const size_t B = split_bytes(AX_OP_REDUCE);
    for (size_t d = 0; d < AX_N_SUM_TYPES; d++) {
        const axial_dtype dt = ax_sum_types[d];
        const int64_t N = elems(dt, B);
        enum { NC = 12 };
        pcase cs[NC] = {
            mk(AX_OP_REDUCE, dt, 2, N / 77, 77, 0, SPLIT_YES),            /* rows */
            mk(AX_OP_REDUCE, dt, 1, N, 0, 0, SPLIT_YES),                  /* full: chunks */
            mk(AX_OP_REDUCE, dt, 2, N / 2, 2, 0, SPLIT_YES),              /* [R, 2] axis 0 */
            mk(AX_OP_REDUCE, dt, 2, N / 64, 64, 0, SPLIT_YES),            /* 64 outputs */
            mk_cols(AX_OP_REDUCE, dt, N, 65), /* tiles */
            mk(AX_OP_REDUCE, dt, 3, 4, N / 64, 16, SPLIT_YES),            /* 4 x 16 outputs */
            mk(AX_OP_REDUCE, dt, 3, 64, N / 4096 + 1, 64, SPLIT_ANY),     /* {0, 2}: wide */
            mk(AX_OP_REDUCE, dt, 3, 3, N / 21, 7, SPLIT_YES),             /* {0, 2}: wide (slabs of 64 KiB pieces: src/reduce.c) */
            mk(AX_OP_REDUCE, dt, 2, N / 100, 100, 0, SPLIT_YES),          /* no axes: a copy */
            mk(AX_OP_REDUCE, dt, 2, N / 100, 100, 0, SPLIT_YES),          /* EMPTY_AXES_ALL */
            mk(AX_OP_REDUCE, dt, 2, 3, N / 3, 0, SPLIT_YES),              /* {0, 1} merged */
            mk(AX_OP_REDUCE, dt, 3, 5, N / 500, 100, SPLIT_YES),          /* {1} of 3-D */
        };
        const int64_t ax1[NC][3] = {{1}, {0}, {0}, {0}, {0}, {1}, {0, 2}, {2, 0},
                                    {0}, {0}, {-1, 0}, {1}};
        const size_t nax[NC] = {1, 1, 1, 1, 1, 1, 2, 2, 0, 0, 2, 1};
        for (int k = 0; k < NC; k++) {
            memcpy(cs[k].axes, ax1[k], sizeof ax1[k]);
            cs[k].naxes = nax[k];
            cs[k].flags = ax_rand(t) & 1 ? AXIAL_REDUCE_KEEP_DIMS : 0;
            if (k == 9)
                cs[k].flags |= AXIAL_REDUCE_EMPTY_AXES_ALL;
            if (ax_sample(t, split_frac()))
                run_pcase(t, &E, &cs[k]);
        }
        { /* always: several reduced groups with a kept axis after the last one,
           * {0, 2} of [4, 64, 8, C] (each group's accumulator is C wide) */
            pcase w = mk(AX_OP_REDUCE, dt, 4, 4, 64, 8, SPLIT_ANY);
            w.shape[3] = N / 2048 + 1;
            w.axes[0] = 0;
            w.axes[1] = 2;
            w.naxes = 2;
            w.flags = (unsigned)d & 1 ? AXIAL_REDUCE_KEEP_DIMS : 0;
            run_pcase(t, &E, &w);
        }
        if (ax_dtype_is_float(dt)) { /* few rows of many columns: tiles (src/reduce.c) */
            enum { NA = 5 };
            pcase as[NA] = {
                mk_cols(AX_OP_REDUCE, dt, N, 1000),
                mk_cols(AX_OP_REDUCE, dt, N, 100),
                mk(AX_OP_REDUCE, dt, 3, 3, N / 3000, 1000, SPLIT_YES), /* 3 rows of tiles */
                mk(AX_OP_REDUCE, dt, 3, N / 2000, 2, 1000,
                   red_split(AX_OP_REDUCE, dt, N / 2000, 2000)),
                mk_cols(AX_OP_REDUCE, dt, N, 4099),
            };
            const int64_t ax2[NA][2] = {{0}, {-2}, {1}, {0}, {0}};
            for (int k = 0; k < NA; k++) {
                memcpy(as[k].axes, ax2[k], sizeof ax2[k]);
                as[k].naxes = 1;
                as[k].flags = ax_rand(t) & 1 ? AXIAL_REDUCE_KEEP_DIMS : 0;
                if (ax_sample(t, split_frac()))
                    run_pcase(t, &E, &as[k]);
            }
        }
        reduce_3d(t, dt, FILL_EXACT, fam_reduce, 0.0005);
        reduce_columns(t, dt, FILL_EXACT, fam_reduce, 0.003);
    }
    if (ax_big()) { /* the full-size accuracy targets' sizes: 2^24 f32, full and over rows */
        pcase c = mk(AX_OP_REDUCE, AXIAL_F32, 1, 1 << 24, 0, 0, SPLIT_YES);
        c.naxes = 1;
        run_pcase(t, &E, &c);
        c = mk(AX_OP_REDUCE, AXIAL_F32, 2, 1 << 12, 1 << 12, 0, SPLIT_YES);
        c.axes[0] = 1;
        c.naxes = 1;
        run_pcase(t, &E, &c);
        /* Outputs of >= 4 MiB, rows of 2 and 3 (the short-row paths that
         * stream, in every task: AXIAL_KERNEL_STREAM), misaligned buffers. */
        static const struct { axial_dtype dt; int64_t r, c; } big[5] = {
            {AXIAL_F32, (1 << 20) + 5, 2}, {AXIAL_F16, (1 << 21) + 3, 2},
            {AXIAL_BF16, (1 << 21) + 9, 3}, {AXIAL_F64, (1 << 19) + 1, 3},
            {AXIAL_I32, (1 << 20) + 7, 2}};
        for (int k = 0; k < 5; k++) {
            c = mk(AX_OP_REDUCE, big[k].dt, 2, big[k].r, big[k].c, 0, SPLIT_YES);
            c.axes[0] = 1;
            c.naxes = 1;
            c.flags = k % 2 ? AXIAL_REDUCE_KEEP_DIMS : 0;
            run_pcase(t, &E, &c);
        }
    }
    execs_free(t, &E);
}

/* ---- the log-space ops ---------------------------------------------------------------- */

/* LogCumSumExp, the float dtypes: the planner of CumSum (src/cumsum.c) with
 * the logcumsumexp kernels: many lines, short lines, lines of columns, few
 * long lines and in place split into groups of lines; one long line (with
 * and without NaN / inf terms) along itself where the table has
 * logcumsumexp_seg (else one task); an outer axis ([R, C] axis 0) into
 * column tiles where it has logcumsumexp_cols. */
void t_parallel_logcumsumexp(ax_t *t) {
    execs E;
    if (!execs_init(t, &E))
        return;
    fam_execs = &E;
    fam_scan = AX_OP_LCSE;
    const size_t B = split_bytes(AX_OP_LCSE);
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        const axial_dtype dt = ax_float_types[d];
        const int64_t N = elems(dt, B);
        enum { NC = 14 };
        pcase cs[NC] = {
            mk(AX_OP_LCSE, dt, 2, N / 100, 100, 0, SPLIT_YES),       /* many lines */
            mk(AX_OP_LCSE, dt, 2, N / 5, 5, 0, SPLIT_YES),           /* many short lines */
            mk(AX_OP_LCSE, dt, 3, 37, N / (37 * 65), 65, SPLIT_YES), /* lines of columns */
            mk(AX_OP_LCSE, dt, 2, N / 300, 300, 0, axis_split(AX_OP_LCSE, dt, 300)), /* axis 0 */
            mk(AX_OP_LCSE, dt, 1, N, 0, 0, axis_split(AX_OP_LCSE, dt, 1)), /* one long line */
            mk(AX_OP_LCSE, dt, 2, N / 1001, 1001, 0, SPLIT_YES),     /* in place */
            mk(AX_OP_LCSE, dt, 2, 3, N / 3, 0, SPLIT_YES),           /* few long lines */
            mk(AX_OP_LCSE, dt, 1, N, 0, 0, axis_split(AX_OP_LCSE, dt, 1)), /* one line: NaN / inf */
            mk(AX_OP_LCSE, dt, 3, 2, N / 74, 37, SPLIT_YES),         /* 2 x 37 columns */
            mk(AX_OP_LCSE, dt, 2, N / 100, 100, 0, SPLIT_YES),       /* NaN / inf terms */
            /* few lines of wide rows: column tiles (logcumsumexp_cols) */
            mk(AX_OP_LCSE, dt, 2, N / 1000, 1000, 0, axis_split(AX_OP_LCSE, dt, 1000)),
            mk(AX_OP_LCSE, dt, 2, N / 4099, 4099, 0, axis_split(AX_OP_LCSE, dt, 4099)), /* NaN / inf */
            mk(AX_OP_LCSE, dt, 3, 3, N / 3000, 1000, SPLIT_YES), /* 3 rows of tiles */
            mk(AX_OP_LCSE, dt, 2, N / 2053, 2053, 0, axis_split(AX_OP_LCSE, dt, 2053)), /* in place */
        };
        const int64_t axis[NC] = {1, -1, 1, 0, 0, 1, 1, 0, 1, -1, 0, 0, 1, 0};
        for (int k = 0; k < NC; k++) {
            cs[k].axis = axis[k];
            cs[k].flags = ((unsigned)d + (unsigned)k) % 4;
            cs[k].inplace = k == 5 || k == 13;
            cs[k].specials = k == 7 || k == 9 || k == 11;
            if (ax_sample(t, split_frac()))
                run_pcase(t, &E, &cs[k]);
        }
        /* the shared small shapes (sampled) */
        cumsum_columns(t, dt, FILL_GENERAL, fam_cumsum, 0.002, FLAGS_ONE);
        cumsum_short_rows(t, dt, FILL_GENERAL, fam_cumsum, 0.002, FLAGS_ONE);
    }
    if (ax_big()) { /* the accuracy target's size, 2^24 f32, as rows and as one line */
        pcase c = mk(AX_OP_LCSE, AXIAL_F32, 2, 1 << 12, 1 << 12, 0, SPLIT_YES);
        c.axis = 1;
        run_pcase(t, &E, &c);
        c = mk(AX_OP_LCSE, AXIAL_F32, 1, 1 << 24, 0, 0, axis_split(AX_OP_LCSE, AXIAL_F32, 1));
        c.flags = AXIAL_CUMSUM_REVERSE;
        run_pcase(t, &E, &c);
    }
    fam_scan = AX_OP_CUMSUM;
    execs_free(t, &E);
}

/* ReduceLogSumExp, the float dtypes: the planner of ReduceSum (src/reduce.c)
 * with the reduce_lse kernels: rows (groups of whole rows), few outputs (the
 * fixed 64 KiB chunks of the reduced extent, partial states merged in chunk
 * order: the full reduction of a long [n], [R, 2] axis 0, 64 outputs),
 * several reduced groups (the 16-byte wide states), a copy (no axes), an
 * axis of length 0 (-inf), and column tiles (reduce_lse_cols) of few rows
 * of at least 512 bytes. */
void t_parallel_logsumexp(ax_t *t) {
    execs E;
    if (!execs_init(t, &E))
        return;
    fam_execs = &E;
    fam_red = AX_OP_RLSE;
    const size_t B = split_bytes(AX_OP_RLSE);
    for (size_t d = 0; d < AX_N_FLOAT_TYPES; d++) {
        const axial_dtype dt = ax_float_types[d];
        const int64_t N = elems(dt, B);
        enum { NC = 19 };
        pcase cs[NC] = {
            mk(AX_OP_RLSE, dt, 2, N / 77, 77, 0, SPLIT_YES),        /* rows */
            mk(AX_OP_RLSE, dt, 1, N, 0, 0, SPLIT_YES),              /* full: chunks */
            mk(AX_OP_RLSE, dt, 2, N / 2, 2, 0, SPLIT_YES),          /* [R, 2] axis 0: chunks */
            mk(AX_OP_RLSE, dt, 2, N / 64, 64, 0, SPLIT_YES),        /* 64 outputs: chunks */
            mk_cols(AX_OP_RLSE, dt, N, 65), /* 65 outputs */
            mk(AX_OP_RLSE, dt, 3, 4, N / 64, 16, SPLIT_YES),        /* 4 x 16 outputs */
            mk(AX_OP_RLSE, dt, 3, 64, N / 4096 + 1, 64, SPLIT_ANY), /* {0, 2}: wide */
            mk(AX_OP_RLSE, dt, 3, 9, N / 63, 7, SPLIT_YES),         /* {0, 2}: wide */
            mk(AX_OP_RLSE, dt, 2, N / 100, 100, 0, SPLIT_YES),      /* no axes: a copy */
            mk(AX_OP_RLSE, dt, 2, N / 100, 100, 0, SPLIT_YES),      /* EMPTY_AXES_ALL */
            mk(AX_OP_RLSE, dt, 2, 3, N / 3, 0, SPLIT_YES),          /* {0, 1} merged */
            mk(AX_OP_RLSE, dt, 3, 5, N / 500, 100, SPLIT_YES),      /* {1} of 3-D */
            mk(AX_OP_RLSE, dt, 3, N / 700, 0, 7, SPLIT_NO),         /* length 0: -inf */
            mk(AX_OP_RLSE, dt, 1, N, 0, 0, SPLIT_YES),              /* full, NaN / inf terms */
            mk(AX_OP_RLSE, dt, 3, 9, N / 63, 7, SPLIT_YES),         /* wide, NaN / inf terms */
            /* few rows of wide rows: column tiles (reduce_lse_cols) */
            mk_cols(AX_OP_RLSE, dt, N, 1000),
            mk_cols(AX_OP_RLSE, dt, N, 4099), /* NaN / inf */
            mk(AX_OP_RLSE, dt, 3, 3, N / 3000, 1000, SPLIT_YES), /* 3 rows of tiles */
            /* rows of 8-31 lines: two tiles (the log-space ops' narrower tiles) */
            mk_cols(AX_OP_RLSE, dt, N, 200), /* NaN / inf */
        };
        const int64_t ax1[NC][3] = {{1}, {0}, {0},  {0},     {0}, {1}, {0, 2}, {2, 0},
                                    {0}, {0}, {-1, 0}, {1}, {1}, {0}, {0, -1}, {0}, {0}, {1},
                                    {0}};
        const size_t nax[NC] = {1, 1, 1, 1, 1, 1, 2, 2, 0, 0, 2, 1, 1, 1, 2, 1, 1, 1, 1};
        for (int k = 0; k < NC; k++) {
            memcpy(cs[k].axes, ax1[k], sizeof ax1[k]);
            cs[k].naxes = nax[k];
            cs[k].flags = ax_rand(t) & 1 ? AXIAL_REDUCE_KEEP_DIMS : 0;
            if (k == 9)
                cs[k].flags |= AXIAL_REDUCE_EMPTY_AXES_ALL;
            cs[k].specials = k == 13 || k == 14 || k == 16 || k == 18;
            if (ax_sample(t, split_frac()))
                run_pcase(t, &E, &cs[k]);
        }
        reduce_3d(t, dt, FILL_GENERAL, fam_reduce, 0.0005);
        reduce_columns(t, dt, FILL_GENERAL, fam_reduce, 0.002);
    }
    if (ax_big()) { /* the accuracy target's size: 2^24 f32, full (1024 chunks) */
        pcase c = mk(AX_OP_RLSE, AXIAL_F32, 1, 1 << 24, 0, 0, SPLIT_YES);
        c.naxes = 1;
        run_pcase(t, &E, &c);
    }
    fam_red = AX_OP_REDUCE;
    execs_free(t, &E);
}

static int64_t rshift(ax_t *t, int64_t d) { return ax_rand_range(t, -3 * d, 3 * d); }

void t_parallel_roll(ax_t *t) {
    execs E;
    if (!execs_init(t, &E))
        return;
    const size_t B = split_bytes(AX_OP_ROLL);
    for (size_t d = 0; d < AX_N_ROLL_TYPES; d++) {
        const axial_dtype dt = ax_roll_types[d];
        const int64_t N = elems(dt, B);
        enum { NC = 10 };
        pcase cs[NC] = {
            mk(AX_OP_ROLL, dt, 1, N, 0, 0, SPLIT_YES),                 /* one row: parts */
            mk(AX_OP_ROLL, dt, 2, N / 1000, 1000, 0, SPLIT_YES),       /* rows, axis 1 */
            mk(AX_OP_ROLL, dt, 2, N / 1000, 1000, 0, SPLIT_YES),       /* both axes */
            mk(AX_OP_ROLL, dt, 2, 3, N / 3, 0, SPLIT_YES),             /* few long rows */
            mk(AX_OP_ROLL, dt, 3, 17, 33, N / 561, SPLIT_YES),         /* 3-D, all axes */
            mk(AX_OP_ROLL, dt, 2, N / 50, 50, 0, SPLIT_YES),           /* flattened */
            mk(AX_OP_ROLL, dt, 1, N, 0, 0, SPLIT_YES),                 /* in place */
            mk(AX_OP_ROLL, dt, 2, N / 1000, 1000, 0, SPLIT_YES),       /* in place, both axes */
            mk(AX_OP_ROLL, dt, 2, N / 1000, 1000, 0, SPLIT_YES),       /* shift 0: a copy */
            mk(AX_OP_ROLL, dt, 3, 5, 7, 9, SPLIT_NO),                  /* small */
        };
        const size_t nax[NC] = {1, 1, 2, 2, 3, 0, 1, 2, 1, 3};
        for (int k = 0; k < NC; k++) {
            pcase *c = &cs[k];
            c->naxes = nax[k];
            c->nshift = nax[k] == 0 ? 1 : nax[k];
            for (size_t a = 0; a < c->naxes; a++)
                c->axes[a] = (int64_t)a - (ax_rand(t) & 1 ? (int64_t)c->rank : 0);
            if (k == 1)
                c->axes[0] = 1;
            for (size_t a = 0; a < c->nshift; a++)
                c->shift[a] = k == 8 ? 0
                              : rshift(t, c->naxes ? c->shape[c->axes[a] < 0
                                                                   ? c->axes[a] + (int64_t)c->rank
                                                                   : c->axes[a]]
                                                   : (int64_t)or_count(c->rank, c->shape));
            c->inplace = k == 6 || k == 7;
            if (ax_sample(t, split_frac()))
                run_pcase(t, &E, c);
        }
    }
    if (ax_big()) { /* 2^24 f32 */
        pcase c = mk(AX_OP_ROLL, AXIAL_F32, 1, 1 << 24, 0, 0, SPLIT_YES);
        c.naxes = c.nshift = 1;
        c.shift[0] = 12345;
        run_pcase(t, &E, &c);
        /* Outputs of >= 4 MiB: every run and part of >= 64 KiB streams
         * (AXIAL_KERNEL_STREAM; parts as the kernel's shift-0 copy), at most
         * one task per 256 KiB, misaligned buffers: few long rows on both
         * axes (runs and parts), rows of a few KiB (runs of rows through the
         * long-row path), short rows (the select path), 3-D, in place. */
        static const struct { axial_dtype dt; int64_t a, b, c; size_t rank, naxes; } big[5] = {
            {AXIAL_I8, 7, (4 << 20) / 7 + 3, 0, 2, 2},    {AXIAL_F16, 2053, 1027, 0, 2, 1},
            {AXIAL_F64, (1 << 16) + 3, 9, 0, 2, 1},       {AXIAL_BOOL, 5, 1001, 1003, 3, 3},
            {AXIAL_I32, 3, (1 << 19) + 5, 0, 2, 2}};
        for (int k = 0; k < 5; k++) {
            c = mk(AX_OP_ROLL, big[k].dt, big[k].rank, big[k].a, big[k].b, big[k].c, SPLIT_YES);
            c.naxes = c.nshift = big[k].naxes;
            for (size_t a = 0; a < c.naxes; a++) {
                const size_t ax = big[k].naxes == 1 ? 1 : a;
                c.axes[a] = (int64_t)ax;
                c.shift[a] = rshift(t, c.shape[ax]);
            }
            c.inplace = k == 4;
            run_pcase(t, &E, &c);
        }
    }
    execs_free(t, &E);
}

/* ---- errors: no task runs, nothing is written -------------------------------------- */

void t_parallel_errors(ax_t *t) {
    enum { S0 = 512, S1 = 1024 };
    const size_t bytes = (size_t)S0 * S1 * 4;
    unsigned char *x = malloc(bytes), *y = malloc(bytes + 8);
    if (!AX_CHECK(t, x && y, "out of memory")) {
        free(x);
        free(y);
        return;
    }
    memset(x, 0x11, bytes);
    order_exec spy;
    const axial_executor ok_ex = order_executor(&spy, ORDER_SHUFFLE, 0);
    axial_executor no_fn = ok_ex, no_conc = ok_ex;
    no_fn.parallel_for = NULL;
    no_conc.concurrency = 0;
    const int64_t shape[2] = {S0, S1}, neg[2] = {S0, -1}, ax1[1] = {1}, ax9[1] = {9},
                  sh1[1] = {3}, sh2[2] = {1, 2}, axes2[2] = {0, 1};
    const int64_t *nullp = NULL;
    struct {
        const char *what;
        ax_op op; /* 0 cumsum, 1 reduce, 2 roll, 3 logcumsumexp, 4 reduce_logsumexp */
        axial_dtype dt;
        const void *x;
        void *y;
        size_t rank;
        const int64_t *shape;
        int64_t axis;
        unsigned flags;
        const int64_t *axes, *shift;
        size_t naxes, nshift;
        const axial_executor *ex;
        axial_status want;
    } cs[] = {
        {"cumsum exec->parallel_for NULL", 0, AXIAL_F32, x, y, 2, shape, 1, 0, NULL, NULL, 0, 0, &no_fn, AXIAL_E_NULL},
        {"cumsum exec->concurrency 0", 0, AXIAL_F32, x, y, 2, shape, 1, 0, NULL, NULL, 0, 0, &no_conc, AXIAL_E_ARGS},
        {"cumsum dtype 0", 0, (axial_dtype)0, x, y, 2, shape, 1, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_DTYPE},
        {"cumsum dtype BOOL", 0, AXIAL_BOOL, x, y, 2, shape, 1, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_DTYPE},
        {"cumsum rank 0", 0, AXIAL_F32, x, y, 0, shape, 0, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_RANK},
        {"cumsum rank 17", 0, AXIAL_F32, x, y, 17, shape, 0, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_RANK},
        {"cumsum shape NULL", 0, AXIAL_F32, x, y, 2, nullp, 0, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_NULL},
        {"cumsum negative dim", 0, AXIAL_F32, x, y, 2, neg, 0, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_SHAPE},
        {"cumsum axis 2", 0, AXIAL_F32, x, y, 2, shape, 2, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_AXIS},
        {"cumsum flags 4", 0, AXIAL_F32, x, y, 2, shape, 1, 4, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_ARGS},
        {"cumsum x NULL", 0, AXIAL_F32, NULL, y, 2, shape, 1, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_NULL},
        {"cumsum y NULL", 0, AXIAL_F32, x, NULL, 2, shape, 1, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_NULL},
        {"cumsum overlap", 0, AXIAL_F32, y + 4, y, 2, shape, 1, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_OVERLAP},
        {"reduce exec->parallel_for NULL", 1, AXIAL_F32, x, y, 2, shape, 0, 0, ax1, NULL, 1, 0, &no_fn, AXIAL_E_NULL},
        {"reduce exec->concurrency 0", 1, AXIAL_F32, x, y, 2, shape, 0, 0, ax1, NULL, 1, 0, &no_conc, AXIAL_E_ARGS},
        {"reduce dtype 14", 1, (axial_dtype)14, x, y, 2, shape, 0, 0, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_DTYPE},
        {"reduce dtype BOOL", 1, AXIAL_BOOL, x, y, 2, shape, 0, 0, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_DTYPE},
        {"reduce rank 17", 1, AXIAL_F32, x, y, 17, shape, 0, 0, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_RANK},
        {"reduce negative dim", 1, AXIAL_F32, x, y, 2, neg, 0, 0, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_SHAPE},
        {"reduce axes NULL", 1, AXIAL_F32, x, y, 2, shape, 0, 0, NULL, NULL, 1, 0, &ok_ex, AXIAL_E_NULL},
        {"reduce axis 9", 1, AXIAL_F32, x, y, 2, shape, 0, 0, ax9, NULL, 1, 0, &ok_ex, AXIAL_E_AXIS},
        {"reduce flags 8", 1, AXIAL_F32, x, y, 2, shape, 0, 8, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_ARGS},
        {"reduce x NULL", 1, AXIAL_F32, NULL, y, 2, shape, 0, 0, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_NULL},
        {"reduce y NULL", 1, AXIAL_F32, x, NULL, 2, shape, 0, 0, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_NULL},
        {"reduce overlap", 1, AXIAL_F32, y, y, 2, shape, 0, 0, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_OVERLAP},
        {"roll exec->parallel_for NULL", 2, AXIAL_F32, x, y, 2, shape, 0, 0, ax1, sh1, 1, 1, &no_fn, AXIAL_E_NULL},
        {"roll exec->concurrency 0", 2, AXIAL_F32, x, y, 2, shape, 0, 0, ax1, sh1, 1, 1, &no_conc, AXIAL_E_ARGS},
        {"roll dtype 99", 2, (axial_dtype)99, x, y, 2, shape, 0, 0, ax1, sh1, 1, 1, &ok_ex, AXIAL_E_DTYPE},
        {"roll rank 17", 2, AXIAL_F32, x, y, 17, shape, 0, 0, ax1, sh1, 1, 1, &ok_ex, AXIAL_E_RANK},
        {"roll negative dim", 2, AXIAL_F32, x, y, 2, neg, 0, 0, ax1, sh1, 1, 1, &ok_ex, AXIAL_E_SHAPE},
        {"roll nshift 0", 2, AXIAL_F32, x, y, 2, shape, 0, 0, ax1, sh1, 1, 0, &ok_ex, AXIAL_E_ARGS},
        {"roll shift NULL", 2, AXIAL_F32, x, y, 2, shape, 0, 0, ax1, NULL, 1, 1, &ok_ex, AXIAL_E_NULL},
        {"roll axes NULL", 2, AXIAL_F32, x, y, 2, shape, 0, 0, NULL, sh1, 1, 1, &ok_ex, AXIAL_E_NULL},
        {"roll nshift 2, naxes 1", 2, AXIAL_F32, x, y, 2, shape, 0, 0, ax1, sh2, 1, 2, &ok_ex, AXIAL_E_ARGS},
        {"roll axis 9", 2, AXIAL_F32, x, y, 2, shape, 0, 0, ax9, sh1, 1, 1, &ok_ex, AXIAL_E_AXIS},
        {"roll x NULL", 2, AXIAL_F32, NULL, y, 2, shape, 0, 0, axes2, sh2, 2, 2, &ok_ex, AXIAL_E_NULL},
        {"roll y NULL", 2, AXIAL_F32, x, NULL, 2, shape, 0, 0, axes2, sh2, 2, 2, &ok_ex, AXIAL_E_NULL},
        {"roll overlap", 2, AXIAL_F32, y + 8, y, 2, shape, 0, 0, axes2, sh2, 2, 2, &ok_ex, AXIAL_E_OVERLAP},
        {"logcumsumexp exec->parallel_for NULL", 3, AXIAL_F32, x, y, 2, shape, 1, 0, NULL, NULL, 0, 0, &no_fn, AXIAL_E_NULL},
        {"logcumsumexp exec->concurrency 0", 3, AXIAL_F32, x, y, 2, shape, 1, 0, NULL, NULL, 0, 0, &no_conc, AXIAL_E_ARGS},
        {"logcumsumexp dtype I32", 3, AXIAL_I32, x, y, 2, shape, 1, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_DTYPE},
        {"logcumsumexp dtype U8", 3, AXIAL_U8, x, y, 2, shape, 1, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_DTYPE},
        {"logcumsumexp dtype BOOL", 3, AXIAL_BOOL, x, y, 2, shape, 1, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_DTYPE},
        {"logcumsumexp rank 0", 3, AXIAL_F32, x, y, 0, shape, 0, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_RANK},
        {"logcumsumexp rank 17", 3, AXIAL_F32, x, y, 17, shape, 0, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_RANK},
        {"logcumsumexp shape NULL", 3, AXIAL_F32, x, y, 2, nullp, 0, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_NULL},
        {"logcumsumexp negative dim", 3, AXIAL_F32, x, y, 2, neg, 0, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_SHAPE},
        {"logcumsumexp axis 2", 3, AXIAL_F32, x, y, 2, shape, 2, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_AXIS},
        {"logcumsumexp flags 4", 3, AXIAL_F32, x, y, 2, shape, 1, 4, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_ARGS},
        {"logcumsumexp x NULL", 3, AXIAL_F32, NULL, y, 2, shape, 1, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_NULL},
        {"logcumsumexp y NULL", 3, AXIAL_F32, x, NULL, 2, shape, 1, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_NULL},
        {"logcumsumexp overlap", 3, AXIAL_F32, y + 4, y, 2, shape, 1, 0, NULL, NULL, 0, 0, &ok_ex, AXIAL_E_OVERLAP},
        {"reduce_logsumexp exec->parallel_for NULL", 4, AXIAL_F32, x, y, 2, shape, 0, 0, ax1, NULL, 1, 0, &no_fn, AXIAL_E_NULL},
        {"reduce_logsumexp exec->concurrency 0", 4, AXIAL_F32, x, y, 2, shape, 0, 0, ax1, NULL, 1, 0, &no_conc, AXIAL_E_ARGS},
        {"reduce_logsumexp dtype I64", 4, AXIAL_I64, x, y, 2, shape, 0, 0, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_DTYPE},
        {"reduce_logsumexp dtype U16", 4, AXIAL_U16, x, y, 2, shape, 0, 0, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_DTYPE},
        {"reduce_logsumexp dtype BOOL", 4, AXIAL_BOOL, x, y, 2, shape, 0, 0, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_DTYPE},
        {"reduce_logsumexp dtype 14", 4, (axial_dtype)14, x, y, 2, shape, 0, 0, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_DTYPE},
        {"reduce_logsumexp rank 17", 4, AXIAL_F32, x, y, 17, shape, 0, 0, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_RANK},
        {"reduce_logsumexp negative dim", 4, AXIAL_F32, x, y, 2, neg, 0, 0, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_SHAPE},
        {"reduce_logsumexp axes NULL", 4, AXIAL_F32, x, y, 2, shape, 0, 0, NULL, NULL, 1, 0, &ok_ex, AXIAL_E_NULL},
        {"reduce_logsumexp axis 9", 4, AXIAL_F32, x, y, 2, shape, 0, 0, ax9, NULL, 1, 0, &ok_ex, AXIAL_E_AXIS},
        {"reduce_logsumexp flags 8", 4, AXIAL_F32, x, y, 2, shape, 0, 8, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_ARGS},
        {"reduce_logsumexp x NULL", 4, AXIAL_F32, NULL, y, 2, shape, 0, 0, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_NULL},
        {"reduce_logsumexp y NULL", 4, AXIAL_F32, x, NULL, 2, shape, 0, 0, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_NULL},
        {"reduce_logsumexp overlap", 4, AXIAL_F32, y, y, 2, shape, 0, 0, ax1, NULL, 1, 0, &ok_ex, AXIAL_E_OVERLAP},
        {"reduce_logsumexp full, y == x", 4, AXIAL_F32, y, y, 2, shape, 0, 0, axes2, NULL, 2, 0, &ok_ex, AXIAL_E_OVERLAP},
    };
    /* a rank-17 shape must be readable: the checks may look at it */
    static const int64_t big_rank[17] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 512, 1024};
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
        if (cs[k].rank == 17)
            cs[k].shape = big_rank;
        memset(y, 0x5a, bytes + 8);
        const long tasks0 = atomic_load(&spy.tasks), calls0 = atomic_load(&spy.calls);
        const ax_call call = {cs[k].op,    cs[k].dt,   cs[k].rank,  cs[k].shape, cs[k].axis,
                              cs[k].flags, cs[k].axes, cs[k].naxes, cs[k].shift, cs[k].nshift};
        const axial_status st = ax_call_ex(&call, cs[k].x, cs[k].y, cs[k].ex);
        AX_CHECK(t, st == cs[k].want, "%s: %s, want %s (%s)", cs[k].what, axial_status_name(st),
                 axial_status_name(cs[k].want), axial_last_error());
        AX_CHECK(t, axial_last_error()[0] != '\0', "%s: no message", cs[k].what);
        AX_CHECK(t, atomic_load(&spy.tasks) == tasks0 && atomic_load(&spy.calls) == calls0,
                 "%s: tasks ran (%ld)", cs[k].what, atomic_load(&spy.tasks) - tasks0);
        bool untouched = true;
        for (size_t i = 0; i < bytes + 8; i++)
            untouched &= y[i] == 0x5a;
        AX_CHECK(t, untouched, "%s: the output was written", cs[k].what);
    }
    /* the same valid calls split through the spy: the spy is live */
    memset(y, 0x5a, bytes);
    AX_CHECK(t, axial_cumsum_ex(AXIAL_F32, x, y, 2, shape, 1, 0, &ok_ex) == AXIAL_OK &&
                    atomic_load(&spy.calls) == 1 && atomic_load(&spy.tasks) > 1,
             "a valid split cumsum through the spy: %ld calls, %ld tasks",
             atomic_load(&spy.calls), atomic_load(&spy.tasks));
    const long tasks1 = atomic_load(&spy.tasks);
    AX_CHECK(t, axial_logcumsumexp_ex(AXIAL_F32, x, y, 2, shape, 1, 0, &ok_ex) == AXIAL_OK &&
                    atomic_load(&spy.calls) == 2 && atomic_load(&spy.tasks) > tasks1 + 1,
             "a valid split logcumsumexp through the spy: %ld calls, %ld tasks",
             atomic_load(&spy.calls), atomic_load(&spy.tasks) - tasks1);
    const long tasks2 = atomic_load(&spy.tasks);
    AX_CHECK(t, axial_reduce_logsumexp_ex(AXIAL_F32, x, y, 2, shape, axes2, 2, 0, &ok_ex) ==
                        AXIAL_OK &&
                    atomic_load(&spy.calls) == 3 && atomic_load(&spy.tasks) > tasks2 + 1,
             "a valid chunked reduce_logsumexp through the spy: %ld calls, %ld tasks",
             atomic_load(&spy.calls), atomic_load(&spy.tasks) - tasks2);
    free(x);
    free(y);
}

/* ---- the pool ------------------------------------------------------------------------- */

typedef struct {
    const axial_executor *ex;
    const float *x;
    const float *want_c, *want_r;
    int bad;
} submitter;

enum { SUB_R = 256, SUB_N = 1024 };

static void *submit(void *p) {
    submitter *s = p;
    float *y = malloc((size_t)SUB_R * SUB_N * sizeof *y), r[1];
    const int64_t shape[2] = {SUB_R, SUB_N}, flat[1] = {SUB_R * SUB_N}, ax0[1] = {0};
    for (int i = 0; i < 10 && y; i++) {
        if (axial_cumsum_ex(AXIAL_F32, s->x, y, 2, shape, 1, 0, s->ex) != AXIAL_OK ||
            memcmp(y, s->want_c, (size_t)SUB_R * SUB_N * sizeof *y) != 0)
            s->bad++;
        if (axial_reduce_sum_ex(AXIAL_F32, s->x, r, 1, flat, ax0, 1, 0, s->ex) != AXIAL_OK ||
            memcmp(r, s->want_r, sizeof r) != 0)
            s->bad++;
    }
    if (y == NULL)
        s->bad++;
    free(y);
    return NULL;
}

/* axial__unit_align / axial__task_range_aligned: the ranges tile [0, units)
 * in order, none empty, every inner boundary a multiple of the alignment,
 * which puts it on a 64-byte line of both tensors (or is 1 where there are
 * too few blocks); axial__stream_tasks caps a streaming output's tasks. */
void t_parallel_ranges(ax_t *t) {
    static const size_t units[] = {1, 2, 15, 16, 17, 63, 64, 65, 100, 1000, 5471, 2796202};
    static const size_t bytes[] = {1, 2, 3, 4, 8, 12, 16, 24, 48, 64, 96, 100, 4096, 4100};
    size_t bad = 0, checked = 0, aligned = 0;
    for (size_t u = 0; u < sizeof units / sizeof *units; u++)
        for (size_t nt = 1; nt <= 40 && nt <= units[u]; nt += nt < 4 ? 1 : 7)
            for (size_t i = 0; i < sizeof bytes / sizeof *bytes; i++)
                for (size_t o = 0; o < sizeof bytes / sizeof *bytes; o += 3) {
                    const size_t a = axial__unit_align(units[u], nt, bytes[i], bytes[o]);
                    const bool lined = a * bytes[i] % 64 == 0 && a * bytes[o] % 64 == 0;
                    bool ok = a == 1 || (lined && units[u] / a >= nt && a <= 64);
                    aligned += a > 1;
                    size_t next = 0;
                    for (size_t k = 0; k < nt; k++) {
                        size_t b, e;
                        axial__task_range_aligned(units[u], nt, a, k, &b, &e);
                        ok = ok && b == next && e > b && (k + 1 == nt || e % a == 0);
                        next = e;
                    }
                    ok = ok && next == units[u];
                    checked++;
                    if (!ok && bad++ < 5)
                        AX_CHECK(t, false,
                                 "%zu units of %zu / %zu bytes in %zu tasks: align %zu, a "
                                 "range is empty, out of order or off its lines",
                                 units[u], bytes[i], bytes[o], nt, a);
                }
    AX_CHECK(t, bad == 0 && aligned > checked / 4, "%zu of %zu range sets wrong, %zu aligned",
             bad, checked, aligned);
    /* rows of 12 bytes (f32 [R, 3] axis 1): boundaries every 16 rows */
    AX_CHECK(t, axial__unit_align(2796202, 511, 12, 4) == 16, "[R, 3] f32 rows: align %zu",
             axial__unit_align(2796202, 511, 12, 4));
    AX_CHECK(t, axial__unit_align(20, 2, 12, 4) == 1, "too few blocks: align %zu",
             axial__unit_align(20, 2, 12, 4));
    /* (the threshold depends on the cache: 4 of it stream, whatever it is) */
    const size_t big = 4 * AXIAL_STREAM_BYTES;
    AX_CHECK(t,
             AXIAL_STREAM_BYTES >= AXIAL_STREAM_MIN && AXIAL_STREAM_BYTES <= AXIAL_STREAM_MAX &&
                 axial__stream_tasks(512, AXIAL_STREAM_BYTES - 1) == 512 &&
                 axial__stream_tasks(1u << 20, big) == big / AXIAL_STREAM_TASK &&
                 axial__stream_tasks(3, big) == 3,
             "axial__stream_tasks (threshold %zu): %zu %zu %zu", AXIAL_STREAM_BYTES,
             axial__stream_tasks(512, AXIAL_STREAM_BYTES - 1),
             axial__stream_tasks(1u << 20, big), axial__stream_tasks(3, big));
}

void t_parallel_pool(ax_t *t) {
    axial_pool *pool = (axial_pool *)&pool;
    AX_CHECK(t, axial_pool_create(2, NULL) == AXIAL_E_NULL, "axial_pool_create(2, NULL)");
    AX_CHECK(t, axial_pool_executor(NULL) == NULL, "axial_pool_executor(NULL)");
    axial_pool_destroy(NULL);
    cpu_set_t set;
    const size_t cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? (size_t)CPU_COUNT(&set) : 0;
    axial_status st = axial_pool_create(0, &pool);
    if (AX_CHECK(t, st == AXIAL_OK, "axial_pool_create(0): %s", axial_status_name(st))) {
        const axial_executor *ex = axial_pool_executor(pool);
        AX_CHECK(t, ex && ex->parallel_for && ex->concurrency >= 1 &&
                        (cpus == 0 || ex->concurrency == cpus),
                 "pool(0): concurrency %zu, the CPUs this process may run on %zu",
                 ex ? ex->concurrency : 0, cpus);
        axial_pool_destroy(pool);
    }
    for (size_t n = 1; n <= 8; n++) {
        st = axial_pool_create(n, &pool);
        if (!AX_CHECK(t, st == AXIAL_OK, "axial_pool_create(%zu)", n))
            continue;
        AX_CHECK(t, axial_pool_executor(pool)->concurrency == n, "pool(%zu): concurrency %zu", n,
                 axial_pool_executor(pool)->concurrency);
        axial_pool_destroy(pool);
    }
    /* several threads submit to one pool at once */
    const size_t count = (size_t)SUB_R * SUB_N;
    float *x = malloc(count * sizeof *x), *want_c = malloc(count * sizeof *x), want_r[1];
    if (!AX_CHECK(t, x && want_c, "out of memory")) {
        free(x);
        free(want_c);
        return;
    }
    ax_fill(t, AXIAL_F32, x, count, FILL_GENERAL);
    const int64_t shape[2] = {SUB_R, SUB_N}, flat[1] = {(int64_t)count}, ax0[1] = {0};
    AX_CHECK(t, axial_cumsum(AXIAL_F32, x, want_c, 2, shape, 1, 0) == AXIAL_OK &&
                    axial_reduce_sum(AXIAL_F32, x, want_r, 1, flat, ax0, 1, 0) == AXIAL_OK,
             "the plain calls");
    if (AX_CHECK(t, axial_pool_create(3, &pool) == AXIAL_OK, "axial_pool_create(3)")) {
        enum { NSUB = 3 };
        submitter s[NSUB];
        pthread_t th[NSUB];
        for (int k = 0; k < NSUB; k++) {
            s[k] = (submitter){axial_pool_executor(pool), x, want_c, want_r, 0};
            if (pthread_create(&th[k], NULL, submit, &s[k]) != 0)
                submit(&s[k]), th[k] = pthread_self();
        }
        for (int k = 0; k < NSUB; k++) {
            if (!pthread_equal(th[k], pthread_self()))
                pthread_join(th[k], NULL);
            AX_CHECK(t, s[k].bad == 0, "submitter %d: %d of 20 calls differ or failed", k,
                     s[k].bad);
        }
        axial_pool_destroy(pool);
    }
    free(x);
    free(want_c);
}

/* ---- the adapters ----------------------------------------------------------------- */

/* A few split calls of each op through `ex`, bitwise against the plain call. */
static void adapter_cases(ax_t *t, const axial_executor *ex, const char *name) {
    const int64_t R = 300, N = 1001, shape[2] = {R, N}, flat[1] = {R * N}, ax0[1] = {0},
                  ax1[1] = {1}, axes2[2] = {0, 1}, sh2[2] = {7, -300};
    const size_t count = (size_t)(R * N);
    float *x = malloc(count * 4), *a = malloc(count * 4), *b = malloc(count * 4);
    if (!AX_CHECK(t, x && a && b, "out of memory"))
        goto out;
    ax_fill(t, AXIAL_F32, x, count, FILL_GENERAL);
    for (int k = 0; k < 5; k++) {
        axial_status s1, s2;
        memset(a, 0x5a, count * 4);
        memset(b, 0xa5, count * 4);
        size_t on = count;
        switch (k) {
        case 0:
            s1 = axial_cumsum(AXIAL_F32, x, a, 2, shape, 1, 0);
            s2 = axial_cumsum_ex(AXIAL_F32, x, b, 2, shape, 1, 0, ex);
            break;
        case 1:
            on = 1;
            s1 = axial_reduce_sum(AXIAL_F32, x, a, 1, flat, ax0, 1, 0);
            s2 = axial_reduce_sum_ex(AXIAL_F32, x, b, 1, flat, ax0, 1, 0, ex);
            break;
        case 2:
            on = (size_t)R;
            s1 = axial_reduce_sum(AXIAL_F32, x, a, 2, shape, ax1, 1, 0);
            s2 = axial_reduce_sum_ex(AXIAL_F32, x, b, 2, shape, ax1, 1, 0, ex);
            break;
        case 3:
            s1 = axial_roll(AXIAL_F32, x, a, 2, shape, sh2, 2, axes2, 2);
            s2 = axial_roll_ex(AXIAL_F32, x, b, 2, shape, sh2, 2, axes2, 2, ex);
            break;
        default:
            s1 = axial_roll(AXIAL_F32, x, a, 1, flat, sh2 + 1, 1, ax0, 1);
            s2 = axial_roll_ex(AXIAL_F32, x, b, 1, flat, sh2 + 1, 1, ax0, 1, ex);
            break;
        }
        AX_CHECK(t, s1 == AXIAL_OK && s2 == AXIAL_OK && memcmp(a, b, on * 4) == 0,
                 "%s adapter, case %d: %s / %s, or the outputs differ", name, k,
                 axial_status_name(s1), axial_status_name(s2));
    }
out:
    free(x);
    free(a);
    free(b);
}

void t_parallel_adapter_pthreadpool(ax_t *t) {
#if defined(AX_TSAN)
    /* pthreadpool orders its tasks with its own atomics, in a library built
     * without ThreadSanitizer: every task's write would be a false report.
     * (axial's pool adds acquire/release edges that TSan sees: parallel_pool
     * and the per-ISA tests run it here.) */
    ax_skip(t, "pthreadpool is not built with ThreadSanitizer: its synchronisation is invisible to it");
    return;
#endif
    pthreadpool_t pp = pthreadpool_create(3);
    if (!AX_CHECK(t, pp != NULL, "pthreadpool_create(3) failed"))
        return;
    const axial_executor ex = axial_pthreadpool_executor(pp);
    AX_CHECK(t, ex.concurrency == 3, "concurrency %zu", ex.concurrency);
    adapter_cases(t, &ex, "pthreadpool");
    pthreadpool_destroy(pp);
}

void t_parallel_adapter_openmp(ax_t *t) {
#if !defined(AX_HAVE_OPENMP)
    ax_skip(t, "built without OpenMP (the compiler has no -fopenmp)");
#elif defined(AX_TSAN)
    ax_skip(t, "libgomp is not built with ThreadSanitizer: its barriers are invisible to it");
#else
    const axial_executor ex = axial_openmp_executor();
    AX_CHECK(t, ex.concurrency >= 1, "concurrency %zu", ex.concurrency);
    adapter_cases(t, &ex, "OpenMP");
#endif
}
