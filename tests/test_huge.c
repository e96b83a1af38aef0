/*
 * test_huge.c: int8 tensors past 2^31 elements and 2^32 bytes, where an
 * index or byte offset held in 32 bits (int, unsigned, a 32-bit lane count
 * or loop counter in a kernel) would wrap.  Per ISA:
 *   A. [3, 2^30] (3 GiB, x and y): cumsum along axis 1 (flags 0 and
 *      exclusive|reverse) and axis 0 (reverse, exclusive); reduce_sum along
 *      axis 0, axis 1 and both; roll along axis 0, axis 1, both, and
 *      flattened (a shift past 2^31);
 *   B. 1-D [2^31 + 2^20] (a prefix of the same x): cumsum (flags 0 and
 *      reverse), reduce_sum, roll;
 *   C. 2^32 + 2^20 bytes of x (y shrinks to 2 GiB): reduce_sum of
 *      [4, 2^30 + 2^18] axis 0, of the 1-D tensor, of [2^12, 2^20 + 2^8]
 *      axis 1 and of [2^31 + 2^19, 2] axis 1 (more than 2^31 rows), then
 *      in-place cumsums of the 1-D tensor and of [2^31 + 2^19, 2] axis 1
 *      (x refilled between them; an out-of-place 4 GiB roll or cumsum would
 *      need 8 GiB).
 * The scalar kernels take 1-4 ns an element (the whole list would take
 * minutes there), so on the scalar ISA one op per op and axis runs: cumsum
 * axis 0 (A) and along a row (B, reverse), reduce_sum axis 0 and 1 (A) and
 * of the whole 1-D tensor (C), every roll of A and B.
 * The data are closed-form and periodic with a prime period P:
 * x[i] = blk[i mod P], blk[k] = (k * 2654435761 >> 24) mod 256, so any sum
 * of a range of x is known in O(1) (prefix sums of one period) and no buffer
 * of expected values is needed; an indexing error by d elements shows unless
 * P divides d (P = 65521 divides no power of two).  Each op is checked on a
 * few thousand sampled outputs: windows of 64 on each side of index 0, every
 * row start, 2^31, 2^32 (where inside the output) and the last element, and
 * 512 random indices.  Before an out-of-place call the sampled outputs are
 * set to the complement of their expected value, so an output the kernel
 * never writes fails too.  The mappings end at an inaccessible page (phase
 * A's outputs and phase C's input end exactly there).  Each op's time is
 * noted (ax_note) in the log.
 *
 * Runs when AXIAL_TEST_BIG is not 0 (the native run; under qemu it reports a
 * skip), on 64-bit size_t, and when /proc/meminfo's MemAvailable leaves room
 * for the 6 GiB it touches (else a skip with the figures; never a pass).
 */
#if defined(__unix__) || defined(__APPLE__)
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, madvise */
#include <sys/mman.h>
#include <unistd.h>
#define AX_HAVE_MMAN 1
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "tests.h"

#if AX_HAVE_MMAN && SIZE_MAX > 0xffffffffu

#define P 65521u /* the period of the data: a prime */
#define G30 ((uint64_t)1 << 30)
#define G31 ((uint64_t)1 << 31)
#define G32 ((uint64_t)1 << 32)
#define M20 ((uint64_t)1 << 20)

static uint8_t blk[P];
static uint64_t pre[P + 1]; /* pre[k] = blk[0] + ... + blk[k-1] */

static void data_init(void) {
    pre[0] = 0;
    for (uint64_t k = 0; k < P; k++) {
        blk[k] = (uint8_t)((k * 2654435761u) >> 24);
        pre[k + 1] = pre[k] + blk[k];
    }
}

static uint8_t xv(uint64_t i) { return blk[i % P]; }
/* x[0] + ... + x[a-1], mod 2^64 (only the low 8 bits count) */
static uint64_t S(uint64_t a) { return (a / P) * pre[P] + pre[a % P]; }
/* x[a] + ... + x[b-1] mod 2^8 */
static uint8_t range_sum(uint64_t a, uint64_t b) { return (uint8_t)(S(b) - S(a)); }

/* x[from..to) = the closed-form data, by doubling copies of whole periods. */
static void fill(uint8_t *x, uint64_t from, uint64_t to) {
    uint64_t i = from;
    for (; i < to && (i < P || i % P != 0); i++) x[i] = xv(i); /* up to a whole period */
    while (i < to) {                                           /* x[i..) repeats x[0..) */
        uint64_t len = i < to - i ? i : to - i;
        memcpy(x + i, x, len);
        i += len;
    }
}

/* One op on the tensor x of shape [R, C] (R == 1 with rank 1: 1-D [C]). */
enum kind { CUMSUM, REDUCE, ROLL };
typedef struct {
    const char *name;
    enum kind kind;
    size_t rank;
    uint64_t R, C;
    int64_t axis;     /* cumsum */
    unsigned flags;   /* cumsum */
    size_t naxes;     /* reduce, roll: axes {axes[0..naxes)} */
    int64_t axes[2];
    int64_t shift[2]; /* roll: shift per named axis (flattened: shift[0], naxes 0) */
    bool inplace;
    bool scalar; /* run on the scalar ISA too (see t_huge_tensors) */
} op_t;

static uint64_t n_out(const op_t *op) {
    if (op->kind != REDUCE) return op->R * op->C;
    bool r0 = false, r1 = false;
    for (size_t a = 0; a < op->naxes; a++) {
        if (op->rank == 1 || op->axes[a] == 1 || op->axes[a] == -1) r1 = true;
        else r0 = true;
    }
    return (r0 ? 1 : op->R) * (r1 ? 1 : op->C);
}

static uint64_t mod(int64_t a, uint64_t d) {
    uint64_t m = (uint64_t)(a < 0 ? -(a + 1) : a) % d;
    return a >= 0 ? m : d - 1 - m;
}

/* The expected output at flat index p, from the closed form of x. */
static uint8_t expected(const op_t *op, uint64_t p) {
    const uint64_t R = op->R, C = op->C;
    switch (op->kind) {
    case CUMSUM: {
        const bool excl = op->flags & AXIAL_CUMSUM_EXCLUSIVE, rev = op->flags & AXIAL_CUMSUM_REVERSE;
        const uint64_t r = p / C, j = p % C;
        if (op->rank == 1 || op->axis == 1 || op->axis == -1) { /* along a row */
            const uint64_t b = r * C;
            if (!rev) return range_sum(b, b + j + !excl);
            return range_sum(b + j + excl, b + C);
        }
        uint8_t s = 0; /* along axis 0: rows r' <= r (or >= r), column j */
        for (uint64_t q = 0; q < R; q++)
            if (rev ? (q > r || (q == r && !excl)) : (q < r || (q == r && !excl)))
                s = (uint8_t)(s + xv(q * C + j));
        return s;
    }
    case REDUCE: {
        bool r0 = false, r1 = false;
        for (size_t a = 0; a < op->naxes; a++) {
            if (op->rank == 1 || op->axes[a] == 1 || op->axes[a] == -1) r1 = true;
            else r0 = true;
        }
        if (r0 && r1) return range_sum(0, R * C);
        if (r1) return range_sum(p * C, p * C + C); /* p is the row */
        uint8_t s = 0;                               /* r0: p is the column */
        for (uint64_t q = 0; q < R; q++) s = (uint8_t)(s + xv(q * C + p));
        return s;
    }
    default: {
        if (op->naxes == 0) return xv(mod((int64_t)p - op->shift[0], R * C) % (R * C));
        uint64_t r = p / C, j = p % C;
        for (size_t a = 0; a < op->naxes; a++) {
            const int64_t s = op->shift[a];
            if (op->rank == 1 || op->axes[a] == 1 || op->axes[a] == -1)
                j = (j + C - mod(s, C)) % C;
            else
                r = (r + R - mod(s, R)) % R;
        }
        return xv(r * C + j);
    }
    }
}

#define NSAMP 4096
static uint64_t pos[NSAMP];
static uint8_t want[NSAMP];

/* The sampled output indices of an op: windows around the interesting
 * indices, then random ones. */
static size_t sample(ax_t *t, const op_t *op) {
    const uint64_t n = n_out(op);
    uint64_t marks[16];
    size_t nm = 0, np = 0;
    marks[nm++] = 0;
    marks[nm++] = G31;
    marks[nm++] = G32;
    marks[nm++] = n;
    if (op->kind != REDUCE || n == op->R * op->C)
        for (uint64_t r = 1; r <= op->R && nm < 16; r++) marks[nm++] = r * op->C;
    for (size_t m = 0; m < nm; m++)
        for (int64_t d = -64; d < 64; d++)
            if ((d >= 0 || marks[m] >= (uint64_t)-d) && marks[m] + (uint64_t)d < n && np < NSAMP)
                pos[np++] = marks[m] + (uint64_t)d;
    for (int k = 0; k < 512 && np < NSAMP; k++) pos[np++] = ax_rand(t) % n;
    return np;
}

static double now(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void run_op(ax_t *t, const op_t *op, const uint8_t *x, uint8_t *y) {
    const size_t np = sample(t, op);
    for (size_t k = 0; k < np; k++) {
        want[k] = expected(op, pos[k]);
        if (!op->inplace) y[pos[k]] = (uint8_t)~want[k];
    }
    const int64_t shape2[2] = {(int64_t)op->R, (int64_t)op->C};
    const int64_t *shape = op->rank == 1 ? shape2 + 1 : shape2;
    void *out = op->inplace ? (void *)(uintptr_t)x : y;
    axial_status st;
    const double t0 = now();
    switch (op->kind) {
    case CUMSUM:
        st = axial_cumsum(AXIAL_I8, x, out, op->rank, shape, op->axis, op->flags);
        break;
    case REDUCE:
        st = axial_reduce_sum(AXIAL_I8, x, out, op->rank, shape, op->axes, op->naxes, 0);
        break;
    default:
        st = axial_roll(AXIAL_I8, x, out, op->rank, shape, op->shift, op->naxes ? op->naxes : 1,
                        op->axes, op->naxes);
        break;
    }
    const double secs = now() - t0;
    if (!AX_CHECK(t, st == AXIAL_OK, "%s: %s (%s)", op->name, axial_status_name(st),
                  axial_last_error()))
        return;
    const uint8_t *got = out;
    size_t bad = 0, first = 0;
    for (size_t k = 0; k < np; k++)
        if (got[pos[k]] != want[k] && bad++ == 0) first = k;
    AX_CHECK(t, bad == 0, "%s: %zu of %zu sampled outputs wrong; first at %llu: %d, want %d",
             op->name, bad, np, bad ? (unsigned long long)pos[first] : 0ull,
             bad ? (int)(int8_t)got[pos[first]] : 0, bad ? (int)(int8_t)want[first] : 0);
    ax_note(t, "%-44s %6.2f s, %zu outputs checked", op->name, secs, np);
}

/* A mapping of `bytes` followed by an inaccessible page; NULL on failure. */
static uint8_t *big_map(size_t bytes, size_t *len) {
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    *len = (bytes + page - 1) / page * page + page;
    void *m = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    uint8_t *p = m;
    if (mprotect(p + *len - page, page, PROT_NONE) != 0) {
        munmap(m, *len);
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    madvise(p, *len - page, MADV_HUGEPAGE); /* fewer page faults; a hint only */
#endif
    return p + (*len - page - bytes); /* ends at the guard */
}

/* MemAvailable in bytes, or 0 where /proc/meminfo does not say. */
static uint64_t mem_available(void) {
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    unsigned long long kb = 0;
    bool found = false;
    while (f && !found && fgets(line, sizeof line, f))
        found = sscanf(line, "MemAvailable: %llu kB", &kb) == 1;
    if (f) fclose(f);
    return found ? (uint64_t)kb * 1024 : 0;
}

#define I64(v) ((int64_t)(v))
/* Designated initialisers for the op tables. */
#define CUM(nm, r, R_, C_, ax, fl, sc) \
    {.name = nm, .kind = CUMSUM, .rank = r, .R = R_, .C = C_, .axis = ax, .flags = fl, .scalar = sc}
#define RED(nm, r, R_, C_, na, a0, a1, sc)                                                  \
    {.name = nm, .kind = REDUCE, .rank = r, .R = R_, .C = C_, .naxes = na, .axes = {a0, a1}, \
     .scalar = sc}
#define ROL(nm, r, R_, C_, na, a0, a1, s0, s1, sc)                                        \
    {.name = nm, .kind = ROLL, .rank = r, .R = R_, .C = C_, .naxes = na, .axes = {a0, a1}, \
     .shift = {s0, s1}, .scalar = sc}

static void run_ops(ax_t *t, const op_t *ops, size_t n, const uint8_t *x, uint8_t *y) {
    for (size_t k = 0; k < n; k++)
        if (ops[k].scalar || t->isa != AXIAL_ISA_SCALAR) run_op(t, &ops[k], x, y);
}

void t_huge_tensors(ax_t *t) {
    if (!ax_big()) {
        ax_skip(t, "AXIAL_TEST_BIG=0: the 3-4 GiB tensors are not run here");
        return;
    }
    const uint64_t NA = 3 * G30, NB = G31 + M20, NC = G32 + M20, RS = G31 + M20 / 2;
    /* peak: x of phase C and 2 GiB of y, and slack */
    const uint64_t need = NC + G31 + M20 + (1ull << 29);
    const uint64_t avail = mem_available();
    if (avail != 0 && avail < need) {
        ax_skip(t, "needs %.1f GiB of free memory, MemAvailable is %.1f GiB",
                (double)need / (double)G30, (double)avail / (double)G30);
        return;
    }
    size_t xlen, ylen;
    uint8_t *x = big_map(NC, &xlen); /* phase C's x; A and B use its first bytes */
    uint8_t *y = big_map(NA, &ylen);
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (!x || !y) {
        ax_skip(t, "cannot map %.1f GiB + %.1f GiB", (double)NC / (double)G30,
                (double)NA / (double)G30);
        if (x) munmap(x + NC + page - xlen, xlen);
        if (y) munmap(y + NA + page - ylen, ylen);
        return;
    }
    /* x[i] is the closed form at index i of every tensor: they all start at x. */
    data_init();
    double t0 = now();
    fill(x, 0, NA);
    ax_note(t, "filled 3 GiB in %.2f s", now() - t0);
    if (t->isa == AXIAL_ISA_SCALAR)
        ax_note(t, "scalar ISA: one op per op and axis (see the file's comment)");

    static const op_t a_ops[] = {
        CUM("A cumsum [3, 2^30] axis 1", 2, 3, G30, 1, 0, false),
        CUM("A cumsum [3, 2^30] axis -1 exclusive|reverse", 2, 3, G30, -1, 3, false),
        CUM("A cumsum [3, 2^30] axis 0 reverse", 2, 3, G30, 0, 2, true),
        CUM("A cumsum [3, 2^30] axis 0 exclusive", 2, 3, G30, 0, 1, false),
        RED("A reduce_sum [3, 2^30] axis 0", 2, 3, G30, 1, 0, 0, true),
        RED("A reduce_sum [3, 2^30] axis 1", 2, 3, G30, 1, 1, 0, true),
        RED("A reduce_sum [3, 2^30] axes {1, 0}", 2, 3, G30, 2, 1, 0, false),
        ROL("A roll [3, 2^30] axis 0 by 1", 2, 3, G30, 1, 0, 0, 1, 0, true),
        ROL("A roll [3, 2^30] axis 1 by 2^29+12345", 2, 3, G30, 1, 1, 0, I64(G30 / 2 + 12345), 0,
            true),
        ROL("A roll [3, 2^30] axes {0, 1} by {-1, 7-2^30}", 2, 3, G30, 2, 0, 1, -1, 7 - I64(G30),
            true),
        ROL("A roll [3, 2^30] flattened by 2^31+3", 2, 3, G30, 0, 0, 0, I64(G31 + 3), 0, true),
        CUM("B cumsum [2^31+2^20]", 1, 1, NB, 0, 0, false),
        CUM("B cumsum [2^31+2^20] reverse", 1, 1, NB, 0, 2, true),
        RED("B reduce_sum [2^31+2^20]", 1, 1, NB, 1, 0, 0, false),
        ROL("B roll [2^31+2^20] by 5-2^31", 1, 1, NB, 1, 0, 0, 5 - I64(G31), 0, true),
    };
    run_ops(t, a_ops, sizeof a_ops / sizeof *a_ops, x, y);

    /* C: y keeps 2 GiB + 1 MiB (the rest goes back), x grows to 2^32 + 2^20 bytes. */
    const size_t ykeep = (size_t)(G31 + M20);
    madvise(y + ykeep, NA - ykeep, MADV_DONTNEED);
    t0 = now();
    fill(x, NA, NC);
    ax_note(t, "filled 1 GiB more in %.2f s", now() - t0);
    static const op_t c_ops[] = {
        RED("C reduce_sum [4, 2^30+2^18] axis 0", 2, 4, G30 + M20 / 4, 1, 0, 0, false),
        RED("C reduce_sum [2^32+2^20]", 1, 1, NC, 1, 0, 0, true),
        RED("C reduce_sum [2^12, 2^20+2^8] axis 1", 2, 1 << 12, M20 + 256, 1, 1, 0, false),
        RED("C reduce_sum [2^31+2^19, 2] axis 1", 2, RS, 2, 1, 1, 0, false),
    };
    run_ops(t, c_ops, sizeof c_ops / sizeof *c_ops, x, y);
    if (t->isa != AXIAL_ISA_SCALAR) { /* in place: each changes x, refilled after */
        static const op_t c_cum[] = {
            CUM("C cumsum [2^32+2^20] in place", 1, 1, NC, 0, 0, false),
            CUM("C cumsum [2^31+2^19, 2] axis 1 exclusive in place", 2, RS, 2, 1, 1, false),
        };
        for (size_t k = 0; k < 2; k++) {
            op_t op = c_cum[k];
            op.inplace = true;
            if (k > 0) fill(x, 0, NC);
            run_op(t, &op, x, y);
        }
    }
    munmap(x + NC + page - xlen, xlen);
    munmap(y + NA + page - ylen, ylen);
}

#else

void t_huge_tensors(ax_t *t) {
    ax_skip(t, "needs mmap and a 64-bit size_t");
}

#endif
