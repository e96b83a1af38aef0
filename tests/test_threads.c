/* SPDX-License-Identifier: MIT */
/*
 * test_threads.c: every op called from several threads at once while another
 * thread keeps switching the ISA (axial_isa_select over every available one).
 *
 * Each worker runs a fixed list of calls -- CumSum (long rows, short rows,
 * columns, every flag), ReduceSum (rows, columns, a split reduction over two
 * non-adjacent axes), Roll (1-D and multi-axis) over several dtypes -- into
 * its own output buffers and compares each result with the oracle's, bit
 * for bit: the data are exact (FILL_EXACT: every partial sum is exact in
 * every format), so whichever ISA a call happens to run on, the bits are the
 * same.  Any difference, wrong status or torn kernel table is a failure;
 * under ThreadSanitizer (scripts/test.sh builds build-tsan for this test) a
 * data race in dispatch or in the per-thread error message is a report and
 * a non-zero exit.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cases.h"
#include "harness.h"
#include "oracle.h"
#include "tests.h"

enum { TH_WORKERS = 3, TH_CASES = 12, TH_MIN_SWITCHES = 64 };

struct th_case {
    ax_op op;
    axial_dtype dt;
    size_t rank;
    int64_t shape[3];
    int64_t axis;          /* cumsum */
    unsigned flags;        /* cumsum / reduce */
    size_t naxes;          /* reduce / roll */
    int64_t axes[3], shifts[3];
    void *x, *want;
    size_t count, ocount;
};

static struct th_case th_cases[TH_CASES] = {
    {AX_OP_CUMSUM, AXIAL_F32, 2, {37, 300}, 1, 0, 0, {0}, {0}, 0, 0, 0, 0},
    {AX_OP_CUMSUM, AXIAL_I8, 2, {300, 5}, 1, AXIAL_CUMSUM_EXCLUSIVE, 0, {0}, {0}, 0, 0, 0, 0},
    {AX_OP_CUMSUM, AXIAL_BF16, 2, {50, 70}, 0, AXIAL_CUMSUM_REVERSE, 0, {0}, {0}, 0, 0, 0, 0},
    {AX_OP_CUMSUM, AXIAL_I64, 3, {4, 30, 9}, -2, 3, 0, {0}, {0}, 0, 0, 0, 0},
    {AX_OP_REDUCE, AXIAL_F32, 2, {64, 100}, 0, 0, 1, {1}, {0}, 0, 0, 0, 0},
    {AX_OP_REDUCE, AXIAL_U16, 2, {100, 64}, 0, AXIAL_REDUCE_KEEP_DIMS, 1, {0}, {0}, 0, 0, 0, 0},
    {AX_OP_REDUCE, AXIAL_F16, 3, {8, 9, 40}, 0, 0, 2, {0, 2}, {0}, 0, 0, 0, 0},
    {AX_OP_REDUCE, AXIAL_I32, 2, {300, 3}, 0, 0, 1, {1}, {0}, 0, 0, 0, 0},
    {AX_OP_ROLL, AXIAL_U8, 1, {2000}, 0, 0, 1, {0}, {500}, 0, 0, 0, 0},
    {AX_OP_ROLL, AXIAL_F64, 2, {30, 100}, 0, 0, 2, {0, 1}, {7, -33}, 0, 0, 0, 0},
    {AX_OP_ROLL, AXIAL_I16, 3, {5, 6, 7}, 0, 0, 3, {0, 1, 2}, {1, 2, 3}, 0, 0, 0, 0},
    {AX_OP_ROLL, AXIAL_BOOL, 2, {40, 17}, 0, 0, 1, {1}, {5}, 0, 0, 0, 0},
};

static axial_status th_call(const struct th_case *c, const void *x, void *y) {
    const ax_call call = {c->op,    c->dt,   c->rank,  c->shape,  c->axis,
                          c->flags, c->axes, c->naxes, c->shifts, c->naxes};
    return ax_call_plain(&call, x, y);
}

struct th_worker {
    int bad_status, bad_bits, iters;
    char first[256];
};

static atomic_int th_stop;

static void *th_work(void *arg) {
    struct th_worker *w = arg;
    void *y[TH_CASES];
    for (int c = 0; c < TH_CASES; c++)
        y[c] = malloc(th_cases[c].ocount * ax_dtype_size(th_cases[c].dt) + 1);
    while (!atomic_load(&th_stop) || w->iters < 2) {
        for (int c = 0; c < TH_CASES; c++) {
            const struct th_case *k = &th_cases[c];
            if (!y[c]) continue;
            const axial_status st = th_call(k, k->x, y[c]);
            if (st != AXIAL_OK) {
                if (!w->bad_status++)
                    snprintf(w->first, sizeof w->first, "case %d: %s (%s)", c,
                             axial_status_name(st), axial_last_error());
            } else if (memcmp(y[c], k->want, k->ocount * ax_dtype_size(k->dt)) != 0) {
                if (!w->bad_bits++)
                    snprintf(w->first, sizeof w->first, "case %d (%s): wrong bits", c,
                             ax_dtype_str(k->dt));
            }
        }
        w->iters++;
    }
    for (int c = 0; c < TH_CASES; c++) free(y[c]);
    return NULL;
}

struct th_switcher {
    atomic_long switches; /* real switches between available ISAs (read by
                           * the main thread while this one runs) */
    long refused;         /* answers that were wrong */
    long declined;        /* unavailable ISAs rightly refused (not switches) */
};

static void *th_switch(void *arg) {
    struct th_switcher *s = arg;
    const unsigned avail = axial_isa_available();
    for (unsigned k = 0; !atomic_load(&th_stop); k++) {
        const unsigned isa = k % 4;
        const axial_status st = axial_isa_select((axial_isa)isa);
        if (!((avail >> isa) & 1u)) {
            if (st == AXIAL_E_ISA) s->declined++;
            else s->refused++; /* an unavailable ISA taken */
        } else if (st == AXIAL_OK && axial_isa_active() == (axial_isa)isa) {
            atomic_fetch_add(&s->switches, 1);
        } else {
            s->refused++; /* an available ISA refused */
        }
    }
    return NULL;
}

void t_threads_isa_switch(ax_t *t) {
    const axial_isa before = axial_isa_active();
    if (__builtin_popcount(axial_isa_available()) < 2) {
        ax_skip(t, "one ISA available (mask 0x%x): nothing to switch between",
                axial_isa_available());
        return;
    }
    int prepared = 1;
    for (int c = 0; c < TH_CASES; c++) {
        struct th_case *k = &th_cases[c];
        const size_t es = ax_dtype_size(k->dt);
        k->count = or_count(k->rank, k->shape);
        k->ocount = k->count;
        if (k->op == AX_OP_REDUCE) {
            size_t orank;
            int64_t oshape[8];
            axial_reduce_sum_shape(k->rank, k->shape, k->axes, k->naxes, k->flags, &orank, oshape);
            k->ocount = or_count(orank, oshape);
        }
        k->x = malloc(k->count * es);
        k->want = malloc(k->ocount * es + 1);
        if (!k->x || !k->want) { prepared = 0; continue; }
        ax_fill(t, k->dt, k->x, k->count, FILL_EXACT);
        size_t orank;
        int64_t oshape[8];
        switch (k->op) {
        case AX_OP_CUMSUM:
            or_cumsum(k->dt, k->x, k->want, k->rank, k->shape,
                      (size_t)(k->axis < 0 ? k->axis + (int64_t)k->rank : k->axis),
                      k->flags & AXIAL_CUMSUM_EXCLUSIVE, k->flags & AXIAL_CUMSUM_REVERSE);
            break;
        case AX_OP_REDUCE:
            or_reduce(k->dt, k->x, k->want, k->rank, k->shape, k->axes, k->naxes,
                      k->flags & AXIAL_REDUCE_KEEP_DIMS, false, &orank, oshape);
            break;
        default:
            or_roll(k->dt, k->x, k->want, k->rank, k->shape, k->shifts, k->naxes, k->axes,
                    k->naxes);
            break;
        }
    }
    if (AX_CHECK(t, prepared, "malloc of the cases failed")) {
        atomic_store(&th_stop, 0);
        pthread_t wt[TH_WORKERS], st;
        struct th_worker w[TH_WORKERS];
        struct th_switcher sw;
        atomic_init(&sw.switches, 0);
        sw.refused = sw.declined = 0;
        memset(w, 0, sizeof w);
        int started = 0;
        for (int i = 0; i < TH_WORKERS; i++)
            started += AX_CHECK(t, pthread_create(&wt[i], NULL, th_work, &w[i]) == 0,
                                "pthread_create worker %d", i);
        const int sw_ok = AX_CHECK(t, pthread_create(&st, NULL, th_switch, &sw) == 0,
                                   "pthread_create switcher");
        /* Let them race for 0.3 s: each worker makes many passes natively
         * (few under sanitizers or qemu; at least 2 each).  A
         * scheduler that runs one thread at a time with long slices
         * (valgrind) may not have run the switcher by then, so go on until
         * it has made TH_MIN_SWITCHES switches, for at most 60 s. */
        struct timespec nap = {0, 300 * 1000 * 1000}, tick = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
        for (int waited = 0; sw_ok && waited < 6000 &&
                             atomic_load(&sw.switches) < TH_MIN_SWITCHES; waited++)
            nanosleep(&tick, NULL);
        atomic_store(&th_stop, 1);
        for (int i = 0; i < started; i++) pthread_join(wt[i], NULL);
        if (sw_ok) pthread_join(st, NULL);
        long passes = 0;
        for (int i = 0; i < started; i++) {
            passes += w[i].iters;
            AX_CHECK(t, w[i].bad_status == 0 && w[i].bad_bits == 0,
                     "worker %d: %d wrong statuses, %d wrong results in %d passes; first: %s",
                     i, w[i].bad_status, w[i].bad_bits, w[i].iters, w[i].first);
        }
        AX_CHECK(t, sw.refused == 0, "isa_select answered wrongly %ld times", sw.refused);
        const long switches = atomic_load(&sw.switches);
        AX_CHECK(t, switches >= TH_MIN_SWITCHES,
                 "the switcher made %ld switches in 60 s (at least %d wanted)", switches,
                 (int)TH_MIN_SWITCHES);
        ax_note(t, "%d workers x %d cases: %ld passes while the ISA switched %ld times "
                   "between available ISAs (mask 0x%x; %ld unavailable ones refused)",
                started, TH_CASES, passes, switches, axial_isa_available(), sw.declined);
    }
    for (int c = 0; c < TH_CASES; c++) {
        free(th_cases[c].x);
        free(th_cases[c].want);
        th_cases[c].x = th_cases[c].want = NULL;
    }
    axial_isa_select(before);
}
