/* SPDX-License-Identifier: MIT */
/*
 * test_stack.c: no call uses more than AX_STACK_BOUND bytes of the caller's
 * stack (the bound the README documents), on the ISA under test.
 *
 * Each case is one public call (CumSum, ReduceSum incl. the split reductions
 * that run reduce_acc / reduce_finish, Roll incl. in place, LogCumSumExp
 * and ReduceLogSumExp incl. its chunked few-output reduction (two 1 KiB
 * arrays of partial states on the stack) and its several-groups reduction
 * (reduce_lse_acc / reduce_lse_finish) for the float dtypes, and a few calls
 * that fail and format a message) with a shape that reaches one kernel path:
 * rows, short rows, small inner (the lane-pattern paths), column blocks
 * below, at and past every column chunk and tile of the SIMD kernels, for
 * every dtype.  After an unmeasured warm-up pass (a process's first call of
 * a libc function through the PLT runs the dynamic linker's resolver on the
 * caller's stack, once), two phases, on threads whose stacks are our own
 * mmap'd regions (pthread_attr_setstack):
 *   1. measure: every case on one thread with a 256 KiB stack pre-filled
 *      with a pattern, refilled below the thread's frame before each call
 *      (by a plain loop, no call); after each call the lowest overwritten
 *      word gives its high-water mark, counted from the stack pointer at the
 *      call (read in the calling function, so the call's return address and
 *      arguments count).  A use above the bound is a failed check naming the
 *      case; the largest use per op is printed as a TAP diagnostic.
 *   2. guard: every case again, on one thread whose stack holds just the
 *      bound below the calling frame (plus < 64 bytes of alignment): the
 *      thread's own frames and libc's thread block above it (measured in
 *      phase 1), everything below PROT_NONE.  A call that goes past the bound
 *      by more than the slack touches that region and the process dies of
 *      SIGSEGV (the handler, on an alternate stack, names the case first);
 *      both drivers report the crash as a failure.
 * Builds with AddressSanitizer grow every frame (redzones), so there the test
 * reports a skip; test.sh's valgrind stage leaves it out (memcheck reports the
 * fill below the stack pointer).  POSIX threads and mmap only; elsewhere a
 * skip.
 */
#if defined(__unix__) || defined(__APPLE__)
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, sigaltstack */
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>
#define AX_HAVE_STACK_TEST 1
#endif

#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "tests.h"

/* The documented bound: what any call may use of the caller's stack. */
#define AX_STACK_BOUND (16 * 1024)

#if defined(AX_HAVE_STACK_TEST) && !defined(AX_ASAN)

enum { OP_CUMSUM, OP_REDUCE, OP_REDUCE_ACC, OP_ROLL, OP_ROLL_INPLACE, OP_ERROR, OP_LCSE,
       OP_RLSE, OP_RLSE_ACC, OP_N };
static const char *const op_names[OP_N] = {"cumsum", "reduce_sum", "reduce_sum split (reduce_acc)",
                                           "roll", "roll in place", "failing call",
                                           "logcumsumexp", "reduce_logsumexp",
                                           "reduce_logsumexp split (reduce_lse_acc)"};

typedef struct {
    int op;
    axial_dtype dt;
    size_t rank;
    int64_t shape[4];
    int64_t axes[2]; /* cumsum: axes[0] is the axis; roll: shifts (1, 2) on these */
    size_t naxes;
    unsigned flags; /* cumsum flags */
} sc_case;

#define SC_MAX_CASES 12288
static sc_case sc_cases[SC_MAX_CASES];
static size_t sc_ncases, sc_max_bytes;

static const axial_dtype sc_sum_dtypes[] = {AXIAL_F32, AXIAL_F64, AXIAL_F16, AXIAL_BF16,
                                            AXIAL_I8,  AXIAL_U8,  AXIAL_I16, AXIAL_U16,
                                            AXIAL_I32, AXIAL_U32, AXIAL_I64, AXIAL_U64};
#define SC_NSUM (sizeof sc_sum_dtypes / sizeof *sc_sum_dtypes)

static void sc_add(int op, axial_dtype dt, size_t rank, const int64_t *shape, const int64_t *axes,
                   size_t naxes, unsigned flags) {
    if (sc_ncases == SC_MAX_CASES) abort(); /* the list below outgrew the table */
    sc_case *c = &sc_cases[sc_ncases++];
    memset(c, 0, sizeof *c);
    c->op = op;
    c->dt = dt;
    c->rank = rank;
    size_t count = 1;
    for (size_t k = 0; k < rank; k++) {
        c->shape[k] = shape[k];
        count *= (size_t)shape[k];
    }
    for (size_t a = 0; a < naxes; a++) c->axes[a] = axes[a];
    c->naxes = naxes;
    c->flags = flags;
    if (count * 8 > sc_max_bytes) sc_max_bytes = count * 8;
}

/* Column counts around every tile and chunk of the SIMD kernels (vectors of
 * 2..64 lanes, tiles of 4 vectors, 1024-element and 4096-column chunks). */
static const int64_t sc_widths[] = {2, 3, 4, 5, 7, 8, 12, 15, 16, 17, 24, 31, 33, 48, 63, 64,
                                    65, 100, 129, 255, 504, 1000, 1023, 1024, 1025, 2047,
                                    2049, 4095, 4097, 8193, 16385};
#define SC_NW (sizeof sc_widths / sizeof *sc_widths)
static const int64_t sc_rowlens[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 48, 49, 63,
                                     64, 65, 128, 200, 1000};
#define SC_NR (sizeof sc_rowlens / sizeof *sc_rowlens)

static void sc_build(void) {
    if (sc_ncases) return;
    for (size_t d = 0; d < SC_NSUM; d++) {
        const axial_dtype dt = sc_sum_dtypes[d];
        for (size_t r = 0; r < SC_NR; r++) {
            const int64_t n = sc_rowlens[r];
            const int64_t rows[2] = {37, n}, one = 1, zero = 0;
            for (unsigned f = 0; f < 4; f++) sc_add(OP_CUMSUM, dt, 2, rows, &one, 1, f);
            sc_add(OP_REDUCE, dt, 2, rows, &one, 1, 0);
            const int64_t split[3] = {2, 19, n}, sax[2] = {0, 2}; /* reduce_acc, inner 1 */
            sc_add(OP_REDUCE_ACC, dt, 3, split, sax, 2, 0);
            const int64_t col[2] = {n, 3};
            sc_add(OP_REDUCE, dt, 2, col, &zero, 1, 0);
        }
        { /* few outputs of long rows: the fixed chunks of the reduced extent */
            const int64_t longrows[2] = {2, 70000}, tall[2] = {70000, 2}, one = 1, zero = 0;
            sc_add(OP_REDUCE, dt, 2, longrows, &one, 1, 0);
            sc_add(OP_REDUCE, dt, 2, tall, &zero, 1, 0);
        }
        for (size_t w = 0; w < SC_NW; w++) {
            const int64_t W = sc_widths[w];
            for (int64_t n = 2; n <= 40; n = n * 3 + 3) { /* 2, 9, 30 rows */
                if (n * W > (1 << 18)) continue;
                const int64_t cols[2] = {n, W}, zero = 0;
                for (unsigned f = 0; f < 4; f += 3) sc_add(OP_CUMSUM, dt, 2, cols, &zero, 1, f);
                sc_add(OP_REDUCE, dt, 2, cols, &zero, 1, 0);
                const int64_t cols3[3] = {2, n, W}, one = 1;
                sc_add(OP_REDUCE, dt, 3, cols3, &one, 1, 0);
                const int64_t split[4] = {2, 3, n, W}, sax[2] = {0, 2}; /* reduce_acc, columns */
                sc_add(OP_REDUCE_ACC, dt, 4, split, sax, 2, 0);
            }
        }
    }
    /* The log-space ops, the float dtypes: rows, columns, the chunked few
     * outputs, several groups. */
    static const axial_dtype lse_dts[] = {AXIAL_F32, AXIAL_F64, AXIAL_F16, AXIAL_BF16};
    for (size_t d = 0; d < sizeof lse_dts / sizeof *lse_dts; d++) {
        const axial_dtype dt = lse_dts[d];
        for (size_t r = 0; r < SC_NR; r += 2) {
            const int64_t n = sc_rowlens[r];
            const int64_t rows[2] = {37, n}, one = 1, zero = 0, col[2] = {n, 3};
            for (unsigned f = 0; f < 4; f++) sc_add(OP_LCSE, dt, 2, rows, &one, 1, f);
            sc_add(OP_LCSE, dt, 2, col, &zero, 1, 3);
            sc_add(OP_RLSE, dt, 2, rows, &one, 1, 0);
            sc_add(OP_RLSE, dt, 2, col, &zero, 1, 0);
            const int64_t split[3] = {2, 19, n}, sax[2] = {0, 2};
            sc_add(OP_RLSE_ACC, dt, 3, split, sax, 2, 0);
        }
        for (size_t w = 0; w < SC_NW; w += 3) {
            const int64_t W = sc_widths[w], cols[2] = {9, W}, zero = 0;
            sc_add(OP_LCSE, dt, 2, cols, &zero, 1, 0);
            sc_add(OP_RLSE, dt, 2, cols, &zero, 1, 0);
            const int64_t split[4] = {2, 3, 9, W}, sax[2] = {0, 2};
            sc_add(OP_RLSE_ACC, dt, 4, split, sax, 2, 0);
        }
        /* few outputs of long rows: the chunks, 64 outputs (the most partial states) */
        const int64_t longrows[2] = {2, 70000}, tall[2] = {70000, 2}, wide64[2] = {2048, 64};
        const int64_t one = 1, zero = 0;
        sc_add(OP_RLSE, dt, 2, longrows, &one, 1, 0);
        sc_add(OP_RLSE, dt, 2, tall, &zero, 1, 0);
        sc_add(OP_RLSE, dt, 2, wide64, &zero, 1, 0);
    }
    /* Roll: every element size (bool among the 1-byte ones), rows, 3-D, flat, in place. */
    static const axial_dtype roll_dts[] = {AXIAL_BOOL, AXIAL_I8, AXIAL_F16, AXIAL_F32, AXIAL_F64};
    static const int64_t roll_lens[] = {1, 2, 3, 7, 16, 31, 64, 100, 127, 128, 129, 255, 512,
                                        1000, 4097, 16384, 16385, 40000};
    for (size_t d = 0; d < sizeof roll_dts / sizeof *roll_dts; d++)
        for (size_t l = 0; l < sizeof roll_lens / sizeof *roll_lens; l++) {
            const int64_t n = roll_lens[l];
            const int64_t rows[2] = {5, n}, one = 1, both[2] = {0, 1};
            sc_add(OP_ROLL, roll_dts[d], 2, rows, &one, 1, 0);
            sc_add(OP_ROLL_INPLACE, roll_dts[d], 2, rows, &one, 1, 0);
            sc_add(OP_ROLL, roll_dts[d], 2, rows, both, 2, 0);
            sc_add(OP_ROLL, roll_dts[d], 2, rows, NULL, 0, 0); /* flat */
            const int64_t cube[4] = {3, 2, 5, n}, ax3[2] = {0, 2};
            if (n <= 4097) sc_add(OP_ROLL, roll_dts[d], 4, cube, ax3, 2, 0); /* the odometer */
        }
    /* Failing calls: the message is formatted on the caller's stack. */
    const int64_t shape[2] = {4, 5}, bad = 7;
    sc_add(OP_ERROR, AXIAL_F32, 2, shape, &bad, 1, 0);
}

static void *sc_x, *sc_y;

/* The stack pointer, as exactly as the architecture allows. */
static inline __attribute__((always_inline)) uintptr_t sc_sp(void) {
    uintptr_t sp;
#if defined(__x86_64__) && defined(__GNUC__)
    __asm__ volatile("mov %%rsp, %0" : "=r"(sp));
#elif defined(__aarch64__) && defined(__GNUC__)
    __asm__ volatile("mov %0, sp" : "=r"(sp));
#else
    sp = (uintptr_t)__builtin_frame_address(0);
#endif
    return sp;
}

typedef struct {
    size_t first, last;       /* cases [first, last) */
    uintptr_t sp_call;        /* the stack pointer in the calling function */
    volatile size_t current;  /* the case running (for the fault message) */
    int bad_status;           /* a call that should succeed did not */
    char *altstack;           /* for the SIGSEGV handler */
    uint64_t *low;            /* measuring: the bottom of the pre-filled stack */
    size_t *used;             /* measuring: used[i], the high-water of case i */
} sc_run;

#define SC_PATTERN 0x5ac3a55a3ca5c35aull

/* The public op of each case kind (a failing call: CumSum on a bad axis). */
static const ax_op sc_ops[OP_N] = {
    [OP_CUMSUM] = AX_OP_CUMSUM, [OP_REDUCE] = AX_OP_REDUCE, [OP_REDUCE_ACC] = AX_OP_REDUCE,
    [OP_ROLL] = AX_OP_ROLL,     [OP_ROLL_INPLACE] = AX_OP_ROLL, [OP_ERROR] = AX_OP_CUMSUM,
    [OP_LCSE] = AX_OP_LCSE,     [OP_RLSE] = AX_OP_RLSE,     [OP_RLSE_ACC] = AX_OP_RLSE};

/* One call.  noinline: its frame is the calling frame every case shares
 * (ax_call_plain's small frame counts as part of the call). */
static __attribute__((noinline)) axial_status sc_call(const sc_case *c, sc_run *run) {
    void *x = sc_x, *y = c->op == OP_ROLL_INPLACE ? sc_x : sc_y;
    const int64_t shifts[2] = {1, 2}; /* Roll: 1 (flat) or 1, 2 on the axes */
    const ax_call call = {sc_ops[c->op], c->dt,   c->rank, c->shape, c->axes[0], c->flags,
                          c->axes,       c->naxes, c->naxes ? shifts : shifts + 1,
                          c->naxes ? c->naxes : 1};
    run->sp_call = sc_sp();
    const axial_status st = ax_call_plain(&call, x, y);
    if (c->op == OP_ERROR) return st == AXIAL_E_AXIS ? AXIAL_OK : AXIAL_E_ARGS;
    return st;
}

static char sc_fault_buf[256];
static sc_run *volatile sc_fault_run;

static void sc_fault(int sig) { /* async-signal-safe: write, signal, raise */
    char num[24], *p = num + sizeof num;
    size_t i = sc_fault_run ? sc_fault_run->current : 0;
    *--p = '\n';
    do *--p = (char)('0' + i % 10); while ((i /= 10) != 0 && p > num);
    if (write(2, sc_fault_buf, strlen(sc_fault_buf)) < 0 ||
        write(2, p, (size_t)(num + sizeof num - p)) < 0) {
        /* nothing more to do */
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void *sc_thread(void *arg) {
    sc_run *run = (sc_run *)arg;
    if (run->altstack) { /* a stack overflow can only be reported from another stack */
        stack_t ss;
        memset(&ss, 0, sizeof ss);
        ss.ss_sp = run->altstack;
        ss.ss_size = 64 * 1024;
        sigaltstack(&ss, NULL);
    }
    /* Measuring: before each call the stack below this frame (down to the
     * lowest word the last call touched) is filled with the pattern again, by
     * a plain loop (no call, so nothing of ours lives down there); after it,
     * the lowest word that changed is the call's high-water mark. */
    volatile uint64_t *const low = run->low;
    size_t dirty = (size_t)-1; /* the first possibly changed word; all at start */
    for (size_t i = run->first; i < run->last; i++) {
        run->current = i;
        if (low) {
            const size_t end = (size_t)((sc_sp() - 256 - (uintptr_t)low) / 8);
            for (size_t w = dirty == (size_t)-1 ? 0 : dirty; w < end; w++) low[w] = SC_PATTERN;
        }
        if (sc_call(&sc_cases[i], run) != AXIAL_OK) run->bad_status = 1;
        if (low) {
            size_t w = 0;
            while (low[w] == SC_PATTERN) w++;
            dirty = w;
            const uintptr_t lowest = (uintptr_t)(low + w);
            run->used[i] = run->sp_call > lowest ? (size_t)(run->sp_call - lowest) : 0;
        }
    }
    if (run->altstack) {
        stack_t ss;
        memset(&ss, 0, sizeof ss);
        ss.ss_flags = SS_DISABLE;
        sigaltstack(&ss, NULL);
    }
    return NULL;
}

/* Runs cases [first, last) on a thread whose stack is [base, base + size). */
static int sc_start(void *base, size_t size, sc_run *run) {
    pthread_attr_t attr;
    pthread_t th;
    if (pthread_attr_init(&attr) != 0) return -1;
    int rc = pthread_attr_setstack(&attr, base, size);
    if (rc == 0) rc = pthread_create(&th, &attr, sc_thread, run);
    pthread_attr_destroy(&attr);
    if (rc != 0) return rc;
    return pthread_join(th, NULL);
}

static const char *sc_describe(size_t i, char *buf, size_t cap) {
    const sc_case *c = &sc_cases[i];
    char s[96], ax[48] = "";
    if (c->op == OP_CUMSUM || c->op == OP_ERROR || c->op == OP_LCSE)
        snprintf(ax, sizeof ax, "axis %lld%s", (long long)c->axes[0],
                 c->flags == 0 ? "" : c->flags == 1 ? " exclusive"
                 : c->flags == 2 ? " reverse" : " exclusive reverse");
    else if (c->naxes == 0)
        snprintf(ax, sizeof ax, "(flat)");
    else if (c->naxes == 1)
        snprintf(ax, sizeof ax, "axes {%lld}", (long long)c->axes[0]);
    else
        snprintf(ax, sizeof ax, "axes {%lld, %lld}", (long long)c->axes[0], (long long)c->axes[1]);
    snprintf(buf, cap, "case %zu: %s %s %s %s", i, op_names[c->op], ax_dtype_str(c->dt),
             ax_shape_str(s, sizeof s, c->rank, c->shape), ax);
    return buf;
}

void t_stack(ax_t *t) {
    sc_build();
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t measure = 256 * 1024; /* >= PTHREAD_STACK_MIN everywhere */
    sc_x = calloc(1, sc_max_bytes);
    sc_y = calloc(1, sc_max_bytes);
    char *region = mmap(NULL, measure, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *alt = malloc(64 * 1024);
    size_t *used = calloc(sc_ncases, sizeof *used);
    if (!sc_x || !sc_y || region == MAP_FAILED || !alt || !used) {
        ax_skip(t, "cannot allocate the test's buffers (%zu bytes each)", sc_max_bytes);
        goto done;
    }
    /* x: small values (every byte 0x01: finite in every float type). */
    memset(sc_x, 1, sc_max_bytes);

    /* Warm-up, unmeasured: the first call of a libc function through the PLT
     * runs the dynamic linker's resolver (which saves the vector registers on
     * the stack) once per process; phase 1 measures the calls themselves. */
    {
        sc_run run = {.first = 0, .last = sc_ncases};
        if (!AX_CHECK(t, sc_start(region, measure, &run) == 0, "pthread for the warm-up"))
            goto done;
    }

    /* Phase 1: the high-water mark of each case. */
    size_t worst[OP_N] = {0}, worst_case[OP_N] = {0}, margin = 0;
    uint64_t *const words = (uint64_t *)(void *)region;
    const size_t nwords = measure / 8;
    {
        for (size_t w = 0; w < nwords; w++) words[w] = SC_PATTERN;
        sc_run run = {.first = 0, .last = sc_ncases, .low = words, .used = used};
        if (!AX_CHECK(t, sc_start(region, measure, &run) == 0,
                      "pthread with a %zu-byte stack", measure))
            goto done;
        margin = (size_t)((uintptr_t)(region + measure) - run.sp_call);
        AX_CHECK(t, !run.bad_status, "a call failed: %s", axial_last_error());
    }
    size_t over = 0;
    for (size_t i = 0; i < sc_ncases; i++) {
        char d[200];
        if (!AX_CHECK(t, used[i] <= AX_STACK_BOUND, "%s: %zu bytes of stack, bound %d",
                      sc_describe(i, d, sizeof d), used[i], AX_STACK_BOUND) &&
            ++over <= 8) /* printed now: phase 2 may crash before the report */
            ax_note(t, "OVER THE BOUND: %zu bytes: %s", used[i], d);
        const int op = sc_cases[i].op;
        if (used[i] > worst[op]) {
            worst[op] = used[i];
            worst_case[op] = i;
        }
    }
    for (int op = 0; op < OP_N; op++) {
        char d[200];
        ax_note(t, "stack high-water %zu bytes: %s", worst[op],
                sc_describe(worst_case[op], d, sizeof d));
    }
    if (over)
        ax_note(t, "%zu of %zu calls over the %d-byte bound", over, sc_ncases, AX_STACK_BOUND);
    ax_note(t, "%zu calls; the test thread's own frames and libc's thread block: %zu bytes",
            sc_ncases, margin);

    /* Phase 2: every case on a stack of the bound, with nothing mapped below
     * (also after a phase-1 failure: an overrun must crash). */
    {
        /* stack top 64-aligned, so libc lays out its thread block as in phase 1 */
        const size_t low_pages = (measure / 2 + page - 1) / page * page;
        char *const guard_end = region + low_pages;
        uintptr_t top = (uintptr_t)guard_end + AX_STACK_BOUND + margin;
        top = (top + 63) & ~(uintptr_t)63;
        for (size_t w = 0; w < nwords; w++) words[w] = SC_PATTERN;
        if (!AX_CHECK(t, mprotect(region, low_pages, PROT_NONE) == 0, "mprotect of the guard"))
            goto done;
        sc_run run = {.first = 0, .last = sc_ncases, .altstack = alt};
        sc_fault_run = &run;
        snprintf(sc_fault_buf, sizeof sc_fault_buf,
                 "# [stack/%s] SIGSEGV: a call went past the %d-byte stack bound: case ",
                 axial_isa_name(t->isa), AX_STACK_BOUND);
        struct sigaction sa, old_segv;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = sc_fault;
        sa.sa_flags = SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGSEGV, &sa, &old_segv);
        const int rc = sc_start(region, (size_t)(top - (uintptr_t)region), &run);
        sigaction(SIGSEGV, &old_segv, NULL);
        sc_fault_run = NULL;
        mprotect(region, low_pages, PROT_READ | PROT_WRITE);
        if (AX_CHECK(t, rc == 0, "pthread on the bounded stack: error %d", rc)) {
            const size_t room = (size_t)(run.sp_call - (uintptr_t)guard_end);
            AX_CHECK(t, room >= AX_STACK_BOUND && room < AX_STACK_BOUND + 64 + 16,
                     "the calling frame sits %zu bytes above the guard (want %d + < 80)", room,
                     AX_STACK_BOUND);
            ax_note(t, "all %zu calls ran with %zu bytes of stack below the calling frame and "
                    "PROT_NONE under it", sc_ncases, room);
        }
    }
done:
    if (region != MAP_FAILED) munmap(region, measure);
    free(alt);
    free(used);
    free(sc_x);
    free(sc_y);
    sc_x = sc_y = NULL;
}

#else
void t_stack(ax_t *t) {
#if defined(AX_ASAN)
    ax_skip(t, "AddressSanitizer enlarges every stack frame: the bound is checked without it");
#else
    ax_skip(t, "needs POSIX threads and mmap");
#endif
}
#endif
