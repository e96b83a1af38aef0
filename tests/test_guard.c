/*
 * test_guard.c: no kernel reads (or writes) outside its tensors, even by a
 * byte: each input and output sits flush against an inaccessible page
 * (PROT_NONE), once ending at the page and once starting right after one.
 * A full-vector load of a tail, or a load of the vector before the first
 * element, faults here (the test binary dies with SIGSEGV, which both
 * drivers report as a failure) where canaries could not see a read.
 *
 * Shapes: rows and short rows of every length 1..70 and around 128..1025,
 * columns of widths 1..17, 31..33, 63..65, for every type and scan flag,
 * ReduceSum over rows and columns, Roll rows by several shifts for every
 * element size.  Results are compared with the oracle as well.
 * POSIX only (mmap / mprotect); elsewhere the test reports a skip.
 */
#if defined(__unix__) || defined(__APPLE__)
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, sigaction */
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>
#define AX_HAVE_MMAN 1
#endif

#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "harness.h"
#include "oracle.h"
#include "tests.h"

#if AX_HAVE_MMAN

/* A mapping with an inaccessible page on each side; the tensor of `bytes`
 * ends at the upper guard (at_end) or starts at the lower one. */
typedef struct {
    unsigned char *base, *p;
    size_t len;
} guarded;

static bool guard_alloc(guarded *g, size_t bytes, bool at_end) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = (bytes + page - 1) / page * page;
    g->len = body + 2 * page;
    void *m = mmap(NULL, g->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return false;
    g->base = m;
    if (mprotect(g->base, page, PROT_NONE) != 0 ||
        mprotect(g->base + g->len - page, page, PROT_NONE) != 0) {
        munmap(m, g->len);
        return false;
    }
    g->p = at_end ? g->base + page + body - bytes : g->base + page;
    return true;
}

static void guard_free(guarded *g) { munmap(g->base, g->len); }

enum op { OP_CUMSUM, OP_REDUCE, OP_ROLL };

/* The case in flight, named on stderr if it faults (then the default action
 * ends the process, and the driver reports the crash). */
static char current[256];

static void on_fault(int sig) {
    static const char head[] = "# guard_pages: fault outside the tensors in ";
    if (write(2, head, sizeof head - 1) < 0 || write(2, current, strlen(current)) < 0 ||
        write(2, "\n", 1) < 0) {
        /* nothing more to do */
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* One call of `op` on [outer, n, inner] (axis 1), x and y guarded at the
 * ends given by `where` (bit 0: x at the end, bit 1: y at the end). */
static void guard_case(ax_t *t, enum op op, axial_dtype dt, int64_t outer, int64_t n,
                       int64_t inner, unsigned flags, int64_t shift, unsigned where) {
    const int64_t shape[3] = {outer, n, inner}, axis[1] = {1}, sh[1] = {shift};
    size_t es = or_size(dt), count = or_count(3, shape);
    size_t ocount = op == OP_REDUCE ? (size_t)(outer * inner) : count;
    guarded gx, gy;
    if (!guard_alloc(&gx, count * es, where & 1)) {
        ax_skip(t, "mmap/mprotect failed");
        return;
    }
    if (!guard_alloc(&gy, ocount * es, (where >> 1) & 1)) {
        guard_free(&gx);
        ax_skip(t, "mmap/mprotect failed");
        return;
    }
    ax_fill(t, dt, gx.p, count, FILL_EXACT);
    void *want = malloc(ocount * es + 1);
    axial_status st;
    size_t orank;
    int64_t oshape[3];
    snprintf(current, sizeof current,
             "%s %s [%lld, %lld, %lld] axis 1 flags %u shift %lld, guards %u (isa %s)",
             op == OP_CUMSUM ? "cumsum" : op == OP_REDUCE ? "reduce_sum" : "roll",
             ax_dtype_str(dt), (long long)outer, (long long)n, (long long)inner, flags,
             (long long)shift, where, axial_isa_name(t->isa));
    const char *what = current;
    switch (op) {
    case OP_CUMSUM:
        or_cumsum(dt, gx.p, want, 3, shape, 1, flags & 1, flags & 2);
        st = axial_cumsum(dt, gx.p, gy.p, 3, shape, 1, flags);
        break;
    case OP_REDUCE:
        or_reduce(dt, gx.p, want, 3, shape, axis, 1, false, false, &orank, oshape);
        st = axial_reduce_sum(dt, gx.p, gy.p, 3, shape, axis, 1, 0);
        break;
    default:
        or_roll(dt, gx.p, want, 3, shape, sh, 1, axis, 1);
        st = axial_roll(dt, gx.p, gy.p, 3, shape, sh, 1, axis, 1);
        break;
    }
    if (AX_CHECK(t, st == AXIAL_OK, "%s: %s", what, axial_status_name(st)))
        ax_compare(t, dt, gy.p, want, ocount, what);
    free(want);
    guard_free(&gx);
    guard_free(&gy);
}

static void guard_cases(ax_t *t);

void t_guard_pages(ax_t *t) {
    struct sigaction sa, old_segv, old_bus;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &old_segv);
    sigaction(SIGBUS, &sa, &old_bus);
    guard_cases(t);
    sigaction(SIGSEGV, &old_segv, NULL);
    sigaction(SIGBUS, &old_bus, NULL);
}

static void guard_cases(ax_t *t) {
    static const int64_t tails[] = {127, 128, 129, 255, 256, 257, 1023, 1025};
    static const int64_t widths[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
                                     31, 32, 33, 63, 64, 65};
    for (size_t d = 0; d < AX_N_SUM_TYPES && !t->skipped; d++) {
        axial_dtype dt = ax_sum_types[d];
        for (int64_t k = 0; k < 70 + 8; k++) {
            int64_t n = k < 70 ? k + 1 : tails[k - 70];
            unsigned where = (unsigned)(ax_rand(t) & 3), flags = (unsigned)(ax_rand(t) & 3);
            int64_t rows = n <= 17 ? ax_rand_range(t, 1, 9) : 1;
            if (ax_sample(t, 1.0)) guard_case(t, OP_CUMSUM, dt, rows, n, 1, flags, 0, where);
            if (ax_sample(t, 1.0)) guard_case(t, OP_REDUCE, dt, rows, n, 1, 0, 0, where ^ 3);
        }
        for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
            unsigned where = (unsigned)(ax_rand(t) & 3), flags = (unsigned)(ax_rand(t) & 3);
            int64_t n = ax_rand_range(t, 1, 9);
            if (ax_sample(t, 1.0))
                guard_case(t, OP_CUMSUM, dt, 1, n, widths[w], flags, 0, where);
            if (ax_sample(t, 1.0))
                guard_case(t, OP_REDUCE, dt, 1, n, widths[w], 0, 0, where ^ 3);
        }
    }
    static const axial_dtype sizes[4] = {AXIAL_U8, AXIAL_I16, AXIAL_F32, AXIAL_I64};
    for (size_t s = 0; s < 4 && !t->skipped; s++)
        for (int64_t k = 0; k < 70 + 8; k++) {
            int64_t n = k < 70 ? k + 1 : tails[k - 70];
            int64_t rows = n <= 17 ? ax_rand_range(t, 1, 9) : 1;
            for (int r = 0; r < 3; r++)
                if (ax_sample(t, 1.0))
                    guard_case(t, OP_ROLL, sizes[s], rows, n, 1, 0, ax_rand_range(t, 0, n - 1),
                               (unsigned)(ax_rand(t) & 3));
        }
}

#else

void t_guard_pages(ax_t *t) { ax_skip(t, "no mmap/mprotect on this platform"); }

#endif
