/* SPDX-License-Identifier: MIT */
/*
 * test_huge.c: int8 tensors past 2^31 elements and 2^32 bytes (test
 * huge_tensors; test huge_float_sums, below, sums f32, f16 and bf16 tensors
 * of 2^31 + 2^20 elements), where an
 * index or byte offset held in 32 bits (int, unsigned, a 32-bit loop counter
 * or lane count in a kernel or the planner) would wrap.  Per ISA, every call
 * out of place:
 *   A. [3, 2^30] (3 GiB): cumsum along axis 1 (flags 0 and exclusive|reverse)
 *      and axis 0 (reverse, exclusive); reduce_sum along axis 0, axis 1 and
 *      both; roll along axis 0, axis 1, both, and flattened (a shift past 2^31);
 *   B. 1-D [2^31 + 2^20]: cumsum (flags 0 and reverse), reduce_sum, roll;
 *   C. 2^32 + 2^20 bytes: the 1-D tensor's cumsum, reduce_sum and roll (by
 *      2^32 - 3); [4, 2^30 + 2^18] reduce_sum and cumsum along axis 0;
 *      [2^12, 2^20 + 2^8] reduce_sum axis 1; [2^31 + 2^19, 2] (more than 2^31
 *      rows) reduce_sum and exclusive cumsum along axis 1.
 * The scalar kernels are much slower than the SIMD ones (the whole list
 * would take too long there), so on the scalar ISA one call per op and axis
 * runs: cumsum axis 0 (A) and along a row (B, reverse), reduce_sum axis 0
 * and 1 (A) and of the 2^32 + 2^20 row (C), every roll of A and B.
 *
 * Data.  Every tensor starts at x, so x[i] is one closed form for all of them.
 * x is read-only and costs ~62 MiB: its 2 MiB blocks are mappings of K = 31
 * blocks of a memfd, block v of x showing memfd block pi(v) = hash(v) mod K
 * (first-touching gigabytes of fresh memory is slow; only y is real
 * memory).  Memfd block k holds blk[(off_k + j) mod P], the
 * period P = 65521 a prime and blk[n] = (n * 2654435761 >> 24) mod 256: so the
 * sum of any range of x is known in O(1) (prefix sums of one period, and of
 * the blocks), and an index that is off by d reads other data unless d is a
 * multiple of 2 MiB landing on the same memfd block (1 in 31) with d = 0
 * mod P as well.  Where memfd_create is missing, x is real memory filled
 * with the same values.
 *
 * Checks.  Each call is checked on ~500-1800 sampled outputs: windows of 64 on
 * each side of index 0, every row start, 2^31, 2^32 (where inside the
 * output) and the last element, and 512 random indices, each against its
 * closed-form value.  Before the call the sampled outputs are set to the
 * complement of that value, so an output the kernel never writes fails too.
 * x ends at an inaccessible page, y at one for phase C's full-size outputs;
 * x is mapped read-only (a write to it faults).  Each call's time is noted
 * (ax_note) in the log.
 *
 * Runs when AXIAL_TEST_BIG is not 0 (the native run; under qemu it reports a
 * skip), on a 64-bit size_t, and when /proc/meminfo's MemAvailable leaves
 * room for what it touches (else a skip with the figures; never a pass).
 */
#if defined(__linux__)
#define _GNU_SOURCE 1 /* memfd_create */
#define AX_HAVE_MEMFD 1
#endif
#if defined(__unix__) || defined(__APPLE__)
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, madvise */
#include <sys/mman.h>
#include <unistd.h>
#define AX_HAVE_MMAN 1
#endif

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "oracle.h"
#include "sysmem.h"
#include "tests.h"

#if AX_HAVE_MMAN && SIZE_MAX > 0xffffffffu

#define P 65521u                  /* the period inside a block: a prime */
#define BLK ((uint64_t)1 << 21)   /* bytes of a block of x */
#define K 31u                     /* distinct blocks in the memfd */
#define G30 ((uint64_t)1 << 30)
#define G31 ((uint64_t)1 << 31)
#define G32 ((uint64_t)1 << 32)
#define M20 ((uint64_t)1 << 20)
#define NX (G32 + M20)            /* the largest tensor, in bytes */
#define NV ((NX + BLK - 1) / BLK) /* blocks of x's mapping */

static uint8_t blk[P];
static uint64_t pre[P + 1];    /* pre[n] = blk[0] + ... + blk[n-1] */
static uint64_t off[K], bsum[K];
static uint64_t cum[NV + 1];   /* cum[v] = the sum of x's mapping blocks before v */
static unsigned pi[NV];        /* x's mapping block v shows memfd block pi[v] */
static uint64_t X0;            /* x[i] is the mapping's byte X0 + i */

/* sum of blk[n mod P] over n in [0, a) */
static uint64_t S(uint64_t a) { return (a / P) * pre[P] + pre[a % P]; }

static uint64_t splitmix(uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void data_init(void) {
    pre[0] = 0;
    for (uint64_t n = 0; n < P; n++) {
        blk[n] = (uint8_t)((n * 2654435761u) >> 24);
        pre[n + 1] = pre[n] + blk[n];
    }
    for (unsigned k = 0; k < K; k++) {
        off[k] = (uint64_t)k * 40503u % P; /* distinct: P is prime */
        bsum[k] = S(off[k] + BLK) - S(off[k]);
    }
    cum[0] = 0;
    for (uint64_t v = 0; v < NV; v++) {
        pi[v] = (unsigned)(splitmix(v) % K);
        cum[v + 1] = cum[v] + bsum[pi[v]];
    }
}

/* byte m of x's mapping, and the sum of bytes [0, m) */
static uint8_t mv(uint64_t m) { return blk[(off[pi[m / BLK]] + m % BLK) % P]; }
static uint64_t D(uint64_t m) {
    const uint64_t v = m / BLK;
    if (m % BLK == 0) return cum[v]; /* v may be NV: the end of the mapping */
    const uint64_t o = off[pi[v]];
    return cum[v] + S(o + m % BLK) - S(o);
}
static uint8_t xv(uint64_t i) { return mv(X0 + i); }
/* x[a] + ... + x[b-1] mod 2^8 */
static uint8_t range_sum(uint64_t a, uint64_t b) { return (uint8_t)(D(X0 + b) - D(X0 + a)); }

/* ---- memory ------------------------------------------------------------------- */

typedef struct {
    unsigned char *base;
    size_t len;
} mapping;

/* A region of `bytes` ending at an inaccessible page; NULL on failure. */
static uint8_t *anon_map(mapping *m, size_t bytes) {
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    m->len = (bytes + page - 1) / page * page + page;
    void *p = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    m->base = p;
    if (mprotect(m->base + m->len - page, page, PROT_NONE) != 0) {
        munmap(p, m->len);
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    madvise(m->base, m->len - page, MADV_HUGEPAGE); /* fewer page faults; a hint only */
#endif
    return m->base + (m->len - page - bytes);
}

/* x's mapping (NV blocks and a guard page): blocks of a memfd where there is
 * one (read-only), else real memory filled with the same bytes.  Returns the
 * mapping's start; *aliased says which. */
static unsigned char *x_map(mapping *m, bool *aliased) {
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    m->len = (size_t)(NV * BLK) + page;
    *aliased = false;
#if AX_HAVE_MEMFD
    int fd = memfd_create("axial-test-huge", 0);
    if (fd >= 0 && ftruncate(fd, (off_t)(K * BLK)) == 0) {
        unsigned char *src = mmap(NULL, K * BLK, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        void *r = mmap(NULL, m->len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        bool ok = src != MAP_FAILED && r != MAP_FAILED;
        if (ok) {
            for (unsigned k = 0; k < K; k++) {
                uint64_t n = off[k];
                for (uint64_t j = 0; j < BLK; j++) {
                    src[k * BLK + j] = blk[n];
                    n = n + 1 == P ? 0 : n + 1;
                }
            }
            m->base = r;
            for (uint64_t v = 0; v < NV && ok; v++)
                ok = mmap(m->base + v * BLK, BLK, PROT_READ, MAP_SHARED | MAP_FIXED, fd,
                          (off_t)(pi[v] * BLK)) != MAP_FAILED;
        }
        if (src != MAP_FAILED) munmap(src, K * BLK);
        close(fd);
        if (ok) {
            *aliased = true;
            return m->base;
        }
        if (r != MAP_FAILED) munmap(r, m->len);
    } else if (fd >= 0) {
        close(fd);
    }
#endif
    void *p = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    m->base = p;
    for (uint64_t v = 0; v < NV; v++) {
        uint64_t n = off[pi[v]];
        for (uint64_t j = 0; j < BLK; j++) {
            m->base[v * BLK + j] = blk[n];
            n = n + 1 == P ? 0 : n + 1;
        }
    }
    if (mprotect(m->base, m->len - page, PROT_READ) != 0 ||
        mprotect(m->base + m->len - page, page, PROT_NONE) != 0) {
        munmap(p, m->len);
        return NULL;
    }
    return m->base;
}

/* MemAvailable in bytes, or 0 where /proc/meminfo does not say. */
static uint64_t mem_available(void) { return (uint64_t)ax_meminfo_kb("MemAvailable") * 1024; }

/* ---- the calls ------------------------------------------------------------------ */

/* One op on the tensor x of shape [R, C] (R == 1 with rank 1: 1-D [C]). */
typedef struct {
    const char *name;
    ax_op kind;
    size_t rank;
    uint64_t R, C;
    int64_t axis;     /* cumsum */
    unsigned flags;   /* cumsum (0 for the others) */
    size_t naxes;     /* reduce, roll: axes {axes[0..naxes)} */
    int64_t axes[2];
    int64_t shift[2]; /* roll: shift per named axis (flattened: shift[0], naxes 0) */
    bool scalar;      /* run on the scalar ISA too */
} op_t;

static bool along_row(const op_t *op, int64_t axis) {
    return op->rank == 1 || axis == 1 || axis == -1;
}

static void reduced(const op_t *op, bool *r0, bool *r1) {
    *r0 = *r1 = false;
    for (size_t a = 0; a < op->naxes; a++) {
        if (along_row(op, op->axes[a])) *r1 = true;
        else *r0 = true;
    }
}

static uint64_t n_out(const op_t *op) {
    if (op->kind != AX_OP_REDUCE) return op->R * op->C;
    bool r0, r1;
    reduced(op, &r0, &r1);
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
    case AX_OP_CUMSUM: {
        const bool excl = op->flags & AXIAL_CUMSUM_EXCLUSIVE, rev = op->flags & AXIAL_CUMSUM_REVERSE;
        const uint64_t r = p / C, j = p % C;
        if (along_row(op, op->axis)) {
            const uint64_t b = r * C;
            return rev ? range_sum(b + j + excl, b + C) : range_sum(b, b + j + !excl);
        }
        uint8_t s = 0; /* along axis 0: rows q <= r (or >= r), column j */
        for (uint64_t q = 0; q < R; q++)
            if (rev ? (q > r || (q == r && !excl)) : (q < r || (q == r && !excl)))
                s = (uint8_t)(s + xv(q * C + j));
        return s;
    }
    case AX_OP_REDUCE: {
        bool r0, r1;
        reduced(op, &r0, &r1);
        if (r0 && r1) return range_sum(0, R * C);
        if (r1) return range_sum(p * C, p * C + C); /* p is the row */
        uint8_t s = 0;                               /* r0: p is the column */
        for (uint64_t q = 0; q < R; q++) s = (uint8_t)(s + xv(q * C + p));
        return s;
    }
    default: {
        if (op->naxes == 0) return xv(mod((int64_t)p - op->shift[0], R * C));
        uint64_t r = p / C, j = p % C;
        for (size_t a = 0; a < op->naxes; a++) {
            if (along_row(op, op->axes[a])) j = (j + C - mod(op->shift[a], C)) % C;
            else r = (r + R - mod(op->shift[a], R)) % R;
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
    if (op->kind != AX_OP_REDUCE)
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
        y[pos[k]] = (uint8_t)~want[k];
    }
    const int64_t shape2[2] = {(int64_t)op->R, (int64_t)op->C};
    const int64_t *shape = op->rank == 1 ? shape2 + 1 : shape2;
    const ax_call call = {op->kind,  AXIAL_I8, op->rank,  shape,     op->axis,
                          op->flags, op->axes, op->naxes, op->shift, op->naxes ? op->naxes : 1};
    const double t0 = now();
    const axial_status st = ax_call_plain(&call, x, y);
    const double secs = now() - t0;
    if (!AX_CHECK(t, st == AXIAL_OK, "%s: %s (%s)", op->name, axial_status_name(st),
                  axial_last_error()))
        return;
    size_t bad = 0, first = 0;
    for (size_t k = 0; k < np; k++)
        if (y[pos[k]] != want[k] && bad++ == 0) first = k;
    AX_CHECK(t, bad == 0, "%s: %zu of %zu sampled outputs wrong; first at %llu: %d, want %d",
             op->name, bad, np, bad ? (unsigned long long)pos[first] : 0ull,
             bad ? (int)(int8_t)y[pos[first]] : 0, bad ? (int)(int8_t)want[first] : 0);
    ax_note(t, "%-52s %6.2f s, %zu outputs checked", op->name, secs, np);
}

#define I64(v) ((int64_t)(v))
/* Designated initialisers for the op table. */
#define CUM(nm, r, R_, C_, ax, fl, sc)                                                   \
    {.name = nm, .kind = AX_OP_CUMSUM, .rank = r, .R = R_, .C = C_, .axis = ax, .flags = fl, \
     .scalar = sc}
#define RED(nm, r, R_, C_, na, a0, a1, sc)                                                 \
    {.name = nm, .kind = AX_OP_REDUCE, .rank = r, .R = R_, .C = C_, .naxes = na,          \
     .axes = {a0, a1}, .scalar = sc}
#define ROL(nm, r, R_, C_, na, a0, a1, s0, s1, sc)                                         \
    {.name = nm, .kind = AX_OP_ROLL, .rank = r, .R = R_, .C = C_, .naxes = na,            \
     .axes = {a0, a1}, .shift = {s0, s1}, .scalar = sc}

static const op_t ops[] = {
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
    CUM("B cumsum [2^31+2^20]", 1, 1, G31 + M20, 0, 0, false),
    CUM("B cumsum [2^31+2^20] reverse", 1, 1, G31 + M20, 0, 2, true),
    RED("B reduce_sum [2^31+2^20]", 1, 1, G31 + M20, 1, 0, 0, false),
    ROL("B roll [2^31+2^20] by 5-2^31", 1, 1, G31 + M20, 1, 0, 0, 5 - I64(G31), 0, true),
    CUM("C cumsum [2^32+2^20]", 1, 1, NX, 0, 0, false),
    RED("C reduce_sum [2^32+2^20]", 1, 1, NX, 1, 0, 0, true),
    ROL("C roll [2^32+2^20] by 2^32-3", 1, 1, NX, 1, 0, 0, I64(G32 - 3), 0, false),
    RED("C reduce_sum [4, 2^30+2^18] axis 0", 2, 4, G30 + M20 / 4, 1, 0, 0, false),
    CUM("C cumsum [4, 2^30+2^18] axis 0 reverse", 2, 4, G30 + M20 / 4, 0, 2, false),
    RED("C reduce_sum [2^12, 2^20+2^8] axis 1", 2, 1 << 12, M20 + 256, 1, 1, 0, false),
    RED("C reduce_sum [2^31+2^19, 2] axis 1", 2, G31 + M20 / 2, 2, 1, 1, 0, false),
    CUM("C cumsum [2^31+2^19, 2] axis 1 exclusive", 2, G31 + M20 / 2, 2, 1, 1, false),
};

void t_huge_tensors(ax_t *t) {
    if (!ax_big()) {
        ax_skip(t, "AXIAL_TEST_BIG=0: the 3-4 GiB tensors are not run here");
        return;
    }
    const bool scalar = t->isa == AXIAL_ISA_SCALAR;
    const uint64_t ybytes = scalar ? 3 * G30 : NX; /* what the calls write */
    /* y, x's memfd (or x itself), and slack */
    const uint64_t need = ybytes + (uint64_t)K * BLK + (1ull << 29);
    const uint64_t avail = mem_available();
    if (avail != 0 && avail < need) {
        ax_skip(t, "needs %.1f GiB of free memory, MemAvailable is %.1f GiB",
                (double)need / (double)G30, (double)avail / (double)G30);
        return;
    }
    data_init();
    mapping xm = {NULL, 0}, ym = {NULL, 0};
    bool aliased;
    double t0 = now();
    unsigned char *xbase = x_map(&xm, &aliased);
    uint8_t *y = anon_map(&ym, NX);
    if (!xbase || !y) {
        ax_skip(t, "cannot map x (%.1f GiB of address space) and y (%.1f GiB)",
                (double)(NV * BLK) / (double)G30, (double)NX / (double)G30);
        if (xbase) munmap(xm.base, xm.len);
        if (y) munmap(ym.base, ym.len);
        return;
    }
    X0 = NV * BLK - NX; /* x ends at the guard page */
    const uint8_t *x = xbase + X0;
    if (!aliased && avail != 0 && avail < need + NV * BLK) {
        ax_skip(t, "no memfd: x needs %.1f GiB more", (double)(NV * BLK) / (double)G30);
        munmap(xm.base, xm.len);
        munmap(ym.base, ym.len);
        return;
    }
    ax_note(t, "x: %s, mapped in %.2f s", aliased ? "memfd blocks (62 MiB)" : "filled memory",
            now() - t0);
    if (scalar) ax_note(t, "scalar ISA: one call per op and axis (see the file's comment)");
    t0 = now();
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++)
        if (ops[k].scalar || !scalar) run_op(t, &ops[k], x, y);
    ax_note(t, "calls and checks: %.2f s", now() - t0);
    munmap(xm.base, xm.len);
    munmap(ym.base, ym.len);
}


/* ---- float sums past 2^31 elements (test huge_float_sums) ---------------------- */
/* x: 2^31 + 2^20 elements of f32, f16 or bf16, an anonymous mapping that is
 * zero everywhere (read, it costs no memory) but at NNZ positions: around
 * 0, 2^30, 2^31, the end, and at random, each holding a small integer
 * +-1..8.  Every partial sum is an integer of at most 768 in magnitude, exact
 * in f32, so every order of summation gives the exact sum, rounded once to
 * the format (bf16 holds integers to 256 exactly); an index that wraps at
 * 2^31 or 2^32 reads other elements and misses or repeats nonzero ones. */
#define NF (G31 + M20)
#define NNZ 96
static uint64_t nz_at[NNZ];
static int nz_v[NNZ];
static size_t nnz;

static int cmp_u64(const void *a, const void *b) {
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void nz_init(ax_t *t) {
    static const uint64_t fixed[] = {0,        1,        15,       16,       17,
                                     G30 - 1,  G30,      G31 - 17, G31 - 16, G31 - 1,
                                     G31,      G31 + 1,  G31 + 15, G31 + 16, NF - 17,
                                     NF - 16,  NF - 2,   NF - 1};
    size_t n = 0;
    for (; n < sizeof fixed / sizeof *fixed; n++) nz_at[n] = fixed[n];
    for (; n < NNZ; n++) nz_at[n] = (uint64_t)ax_rand_range(t, 0, (int64_t)NF - 1);
    qsort(nz_at, n, sizeof *nz_at, cmp_u64);
    nnz = 0;
    for (size_t k = 0; k < n; k++)
        if (nnz == 0 || nz_at[k] != nz_at[nnz - 1]) nz_at[nnz++] = nz_at[k];
    for (size_t k = 0; k < nnz; k++) {
        const int v = (int)ax_rand_range(t, 1, 8);
        nz_v[k] = ax_rand(t) & 1 ? v : -v;
    }
}

/* The sum of x[a..b), exactly, rounded once to dt. */
static long double fsum(axial_dtype dt, uint64_t a, uint64_t b, uint64_t stride,
                        uint64_t phase) {
    long s = 0;
    for (size_t k = 0; k < nnz; k++)
        if (nz_at[k] >= a && nz_at[k] < b && nz_at[k] % stride == phase) s += nz_v[k];
    unsigned char r[8];
    or_set_f(dt, r, 0, (long double)s);
    return or_get_f(dt, r, 0);
}

static void fcheck(ax_t *t, axial_dtype dt, const char *what, const void *y, uint64_t at,
                   long double want, size_t *bad) {
    const long double got = or_get_f(dt, y, at);
    if (!(got == want) && (*bad)++ == 0)
        AX_CHECK(t, false, "%s %s: output %llu is %Lg, want %Lg", ax_dtype_str(dt), what,
                 (unsigned long long)at, got, want);
}

static void huge_float(ax_t *t, axial_dtype dt, bool scan, unsigned flags, bool one_call) {
    const size_t es = ax_dtype_size(dt);
    mapping xm = {NULL, 0}, ym = {NULL, 0};
    unsigned char *x = anon_map(&xm, NF * es);
    unsigned char *y = anon_map(&ym, scan ? NF * es : 4096 * es);
    if (!AX_CHECK(t, x && y, "%s: cannot map x and y", ax_dtype_str(dt))) goto out;
    for (size_t k = 0; k < nnz; k++) or_set_f(dt, x, nz_at[k], (long double)nz_v[k]);
    char what[128];
    size_t bad = 0;
    double t0 = now();
    if (!scan) {
        /* all of it; [2, NF/2] along axis 1; [NF/1024, 1024] along axis 0 */
        const int64_t s1[1] = {(int64_t)NF}, s2[2] = {2, (int64_t)NF / 2},
                      s3[2] = {(int64_t)NF / 1024, 1024}, a0[1] = {0}, a1[1] = {1};
        axial_status st = axial_reduce_sum(dt, x, y, 1, s1, a0, 1, 0);
        if (AX_CHECK(t, st == AXIAL_OK, "reduce_sum [%llu]: %s", (unsigned long long)NF,
                     axial_last_error()))
            fcheck(t, dt, "reduce_sum of all", y, 0, fsum(dt, 0, NF, 1, 0), &bad);
        if (one_call) goto done;
        st = axial_reduce_sum(dt, x, y, 2, s2, a1, 1, 0);
        if (AX_CHECK(t, st == AXIAL_OK, "reduce_sum [2, n/2] axis 1: %s", axial_last_error()))
            for (uint64_t r = 0; r < 2; r++)
                fcheck(t, dt, "reduce_sum [2, n/2] axis 1", y, r,
                       fsum(dt, r * (NF / 2), (r + 1) * (NF / 2), 1, 0), &bad);
        st = axial_reduce_sum(dt, x, y, 2, s3, a0, 1, 0);
        if (AX_CHECK(t, st == AXIAL_OK, "reduce_sum [n/1024, 1024] axis 0: %s",
                     axial_last_error()))
            for (uint64_t c = 0; c < 1024; c++)
                fcheck(t, dt, "reduce_sum [n/1024, 1024] axis 0", y, c, fsum(dt, 0, NF, 1024, c),
                       &bad);
    done:
        snprintf(what, sizeof what, "reduce_sum of %llu elements, %s", (unsigned long long)NF,
                 one_call ? "one shape" : "three shapes");
    } else {
        /* the sampled outputs: beside every nonzero term, and at random; each
         * set to NaN first, so an output never written fails */
        enum { NS = NNZ * 3 + 256 };
        static uint64_t at[NS];
        size_t ns = 0;
        for (size_t k = 0; k < nnz; k++)
            for (int d = -1; d <= 1; d++)
                if ((int64_t)nz_at[k] + d >= 0 && nz_at[k] + (uint64_t)(d + 1) <= NF)
                    at[ns++] = nz_at[k] + (uint64_t)(int64_t)d;
        while (ns < NS) at[ns++] = (uint64_t)ax_rand_range(t, 0, (int64_t)NF - 1);
        for (size_t k = 0; k < ns; k++) or_set_f(dt, y, at[k], NAN);
        const int64_t s1[1] = {(int64_t)NF};
        const axial_status st = axial_cumsum(dt, x, y, 1, s1, 0, flags);
        if (AX_CHECK(t, st == AXIAL_OK, "cumsum [%llu] flags %u: %s", (unsigned long long)NF,
                     flags, axial_last_error()))
            for (size_t k = 0; k < ns; k++) {
                const bool rev = flags & AXIAL_CUMSUM_REVERSE, ex = flags & AXIAL_CUMSUM_EXCLUSIVE;
                const uint64_t p = at[k];
                /* inclusive: [0, p] or [p, NF); exclusive leaves p out */
                const long double want = rev ? fsum(dt, p + ex, NF, 1, 0)
                                             : fsum(dt, 0, p + !ex, 1, 0);
                fcheck(t, dt, "cumsum", y, p, want, &bad);
            }
        snprintf(what, sizeof what, "cumsum of %llu elements, flags %u, %zu outputs checked",
                 (unsigned long long)NF, flags, ns);
    }
    AX_CHECK(t, bad == 0, "%s %s: %zu outputs wrong", ax_dtype_str(dt), what, bad);
    ax_note(t, "%s %-60s %6.2f s", ax_dtype_str(dt), what, now() - t0);
out:
    if (x) munmap(xm.base, xm.len);
    if (y) munmap(ym.base, ym.len);
}

void t_huge_float_sums(ax_t *t) {
    if (!ax_big()) {
        ax_skip(t, "AXIAL_TEST_BIG=0: the 4-8 GiB float tensors are not run here");
        return;
    }
    /* the largest output: f32 CumSum's 8 GiB (the inputs are zero pages) */
    const uint64_t need = NF * 4 + (1ull << 30), avail = mem_available();
    if (avail != 0 && avail < need) {
        ax_skip(t, "needs %.1f GiB of free memory, MemAvailable is %.1f GiB",
                (double)need / (double)G30, (double)avail / (double)G30);
        return;
    }
    nz_init(t);
    static const axial_dtype dts[3] = {AXIAL_F32, AXIAL_F16, AXIAL_BF16};
    static const unsigned scan_flags[3] = {0, AXIAL_CUMSUM_REVERSE,
                                           AXIAL_CUMSUM_EXCLUSIVE | AXIAL_CUMSUM_REVERSE};
    if (t->isa == AXIAL_ISA_SCALAR) {
        /* the scalar kernels take 4-40 ns per element here: one call, for
         * the planner's index arithmetic (src/), which every ISA shares */
        ax_note(t, "scalar ISA: the f32 ReduceSum of all elements only");
        huge_float(t, AXIAL_F32, false, 0, true);
        return;
    }
    for (int d = 0; d < 3; d++) {
        huge_float(t, dts[d], false, 0, false);
        huge_float(t, dts[d], true, scan_flags[d], false);
    }
}
#else

void t_huge_tensors(ax_t *t) {
    ax_skip(t, "needs mmap and a 64-bit size_t");
}

void t_huge_float_sums(ax_t *t) { ax_skip(t, "needs mmap and a 64-bit size_t"); }

#endif
