/* SPDX-License-Identifier: MIT */
/* golden.c: see golden.h; the file format is tests/golden/README.md. */
#include "golden.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "call.h"

/* ---- numbers ---------------------------------------------------------------- */

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int64_t range(uint64_t *s, int64_t lo, int64_t hi) {
    return lo + (int64_t)(splitmix(s) % (uint64_t)(hi - lo + 1));
}

uint64_t golden_bits(axial_dtype dt, const void *y, size_t k) {
    switch (ax_dtype_size(dt)) {
    case 8: { uint64_t v; memcpy(&v, (const char *)y + 8 * k, 8); return v; }
    case 4: { uint32_t v; memcpy(&v, (const char *)y + 4 * k, 4); return v; }
    default: { uint16_t v; memcpy(&v, (const char *)y + 2 * k, 2); return v; }
    }
}

void golden_set_bits(axial_dtype dt, void *y, size_t k, uint64_t bits) {
    switch (ax_dtype_size(dt)) {
    case 8: memcpy((char *)y + 8 * k, &bits, 8); break;
    case 4: { uint32_t v = (uint32_t)bits; memcpy((char *)y + 4 * k, &v, 4); break; }
    default: { uint16_t v = (uint16_t)bits; memcpy((char *)y + 2 * k, &v, 2); break; }
    }
}

/* Significand bits, exponent bits and the exponent field range of the
 * general data: f32 and bf16 2^-12..2^12, f64 2^-30..2^30, f16 subnormals
 * up to 2^3 (below 16, so no sum here comes near f16's 65504). */
static void format_of(axial_dtype dt, int *mbits, int *ebits, int *elo, int *ehi) {
    switch (dt) {
    case AXIAL_F32: *mbits = 23, *ebits = 8, *elo = 127 - 12, *ehi = 127 + 12; break;
    case AXIAL_F64: *mbits = 52, *ebits = 11, *elo = 1023 - 30, *ehi = 1023 + 30; break;
    case AXIAL_F16: *mbits = 10, *ebits = 5, *elo = 0, *ehi = 15 + 3; break;
    default: *mbits = 7, *ebits = 8, *elo = 127 - 12, *ehi = 127 + 12; break;
    }
}

/* The generator of the inputs: integer arithmetic only, so every machine
 * makes the same bits.  Never change it without regenerating the files. */
void golden_input(const golden_case *c, void *x) {
    int mbits, ebits, elo, ehi;
    format_of(c->dt, &mbits, &ebits, &elo, &ehi);
    const uint64_t sign = 1ull << (mbits + ebits), emax = (1ull << ebits) - 1;
    const uint64_t qnan = (emax << mbits) | (1ull << (mbits - 1)), inf = emax << mbits;
    const int bias = (1 << (ebits - 1)) - 1, big = c->dt == AXIAL_F64 ? 28 : c->dt == AXIAL_F16 ? 8 : 10;
    uint64_t s = c->seed, prev = 0;
    bool pair = false;
    const size_t count = golden_in_count(c);
    for (size_t k = 0; k < count; k++) {
        const uint64_t r = splitmix(&s);
        uint64_t bits;
        if (c->fill == GOLDEN_ZEROS) {
            bits = r % 16 ? sign : 0;
        } else if (c->fill == GOLDEN_CANCEL && pair) {
            bits = prev ^ sign; /* the pair's -B */
            pair = false;
        } else if (c->fill == GOLDEN_CANCEL) {
            /* B (2^big..2^(big+2), big = 8 for f16, 10 for f32/bf16, 28 for
             * f64) at an even index three times in four, then -B; else a
             * small value (f16 2^-14..2^-8, else 2^(-big-2)..2^(-big+4)) */
            pair = k % 2 == 0 && k + 1 < count && r % 4 != 0;
            const int lo = pair ? bias + big : c->dt == AXIAL_F16 ? 1 : bias - big - 2;
            const uint64_t e = (uint64_t)lo + (r >> 8) % (pair ? 3 : 7);
            bits = ((r >> 63) ? sign : 0) | (e << mbits) | ((r >> 1) & ((1ull << mbits) - 1));
        } else {
            const uint64_t e = (uint64_t)elo + (r >> 8) % (uint64_t)(ehi - elo + 1);
            bits = ((r >> 63) ? sign : 0) | (e << mbits) | ((r >> 1) & ((1ull << mbits) - 1));
            if (c->fill == GOLDEN_SPECIALS && (r >> 32) % 40 == 0) {
                const uint64_t sp[6] = {qnan, sign | qnan, inf, sign | inf, sign, 0};
                bits = sp[(r >> 40) % 6];
            }
        }
        golden_set_bits(c->dt, x, k, bits);
        prev = bits;
    }
}

static uint64_t canonical(axial_dtype dt, uint64_t b) {
    int mbits, ebits, elo, ehi;
    format_of(dt, &mbits, &ebits, &elo, &ehi);
    const uint64_t emax = (1ull << ebits) - 1, m = b & ((1ull << mbits) - 1);
    if (((b >> mbits) & emax) == emax && m != 0)
        return (emax << mbits) | (1ull << (mbits - 1)); /* any NaN */
    return b;
}

static uint64_t fnv(uint64_t h, uint64_t v, size_t bytes) {
    for (size_t i = 0; i < bytes; i++)
        h = (h ^ ((v >> (8 * i)) & 0xff)) * 0x100000001b3ull;
    return h;
}

uint64_t golden_hash(axial_dtype dt, const void *y, size_t count) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t k = 0; k < count; k++)
        h = fnv(h, canonical(dt, golden_bits(dt, y, k)), ax_dtype_size(dt));
    return h;
}

uint64_t golden_check(axial_dtype dt, const void *y, const bool *keep, size_t count) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t k = 0; k < count; k++)
        if (keep[k])
            h = fnv(fnv(h, k, 8), golden_bits(dt, y, k), ax_dtype_size(dt));
    return h;
}

/* ---- the cases ---------------------------------------------------------------- */

typedef struct {
    golden_case *c;
    size_t n;
    axial_dtype dt;
    uint64_t rng;
} builder;

static golden_case *add(builder *b, int op, const char *family, size_t rank,
                        const int64_t *shape, size_t naxes, const int64_t *axes, unsigned flags,
                        int fill) {
    if (b->n >= GOLDEN_MAX_CASES)
        abort(); /* the list is fixed: raise GOLDEN_MAX_CASES */
    golden_case *c = &b->c[b->n++];
    memset(c, 0, sizeof *c);
    c->op = op;
    c->dt = b->dt;
    c->family = family;
    c->rank = rank;
    memcpy(c->shape, shape, rank * sizeof *shape);
    c->naxes = naxes;
    if (naxes)
        memcpy(c->axes, axes, naxes * sizeof *axes);
    c->flags = flags;
    c->fill = fill;
    c->seed = splitmix(&b->rng);
    return c;
}

static void cumsum(builder *b, const char *family, size_t rank, const int64_t *shape,
                   int64_t axis, unsigned flags, int fill) {
    add(b, GOLDEN_CUMSUM, family, rank, shape, 1, &axis, flags, fill);
}

static void reduce(builder *b, const char *family, size_t rank, const int64_t *shape,
                   size_t naxes, const int64_t *axes, unsigned flags, int fill) {
    add(b, GOLDEN_REDUCE, family, rank, shape, naxes, axes, flags, fill);
}

#define COUNT(a) (sizeof(a) / sizeof *(a))
#define S(...) ((const int64_t[]){__VA_ARGS__})

/* Elements of `bytes` bytes of input, odd (a tail). */
static int64_t elems(axial_dtype dt, size_t bytes) {
    return (int64_t)(bytes / ax_dtype_size(dt)) | 1;
}

/*
 * The families of the differential tests (tests/cases.h), a few shapes of
 * each: the lengths around the 16-lane virtual vector and its unrolls, short
 * rows of 2..16 (the periodic order of ReduceSum), columns with inner below
 * and from 16, lines across the 16384-element scan chunks (and their
 * reverse alignment), the planner's chunked ReduceSum (few outputs over more
 * than 64 KiB per output row, more over more than 1024 rows or 64 KiB of
 * rows) and several reduced groups, random shapes,
 * and special values.  CumSum flags and ReduceSum keep_dims rotate (the
 * rotation starts at a different flag for each dtype, so every shape meets
 * every flag over the four files); the shortest lines get all four flags.
 */
size_t golden_cases(axial_dtype dt, golden_case *cases) {
    builder b = {cases, 0, dt, GOLDEN_SEED ^ ((uint64_t)dt << 56)};
    unsigned rot = (unsigned)dt;

    /* CumSum: rows (a line per row), every flag on some. */
    static const int64_t row_lens[] = {1, 2, 7, 15, 16, 17, 31, 33, 64, 65, 100, 129, 257};
    for (size_t l = 0; l < COUNT(row_lens); l++) {
        const int64_t n = row_lens[l], o = range(&b.rng, 1, n > 64 ? 1 : 3);
        const bool all = n == 17 || n == 65;
        for (unsigned f = 0; f < 4; f++) {
            if (!all && f != rot % 4)
                continue;
            if (o == 1)
                cumsum(&b, "rows", 1, S(n), 0, f, GOLDEN_GENERAL);
            else
                cumsum(&b, "rows", 2, S(o, n), -1, f, GOLDEN_GENERAL);
        }
        rot++;
    }
    /* CumSum: short rows [R, n] along the last axis, n = 2..16. */
    for (int64_t n = 2; n <= 16; n++, rot++)
        cumsum(&b, "short_rows", 2, S(range(&b.rng, 1, 12), n), 1, rot % 4, GOLDEN_GENERAL);
    /* CumSum: columns [n, C] axis 0 and [2, n, C] axis 1, C below and from 16. */
    static const int64_t widths[] = {2, 3, 5, 8, 15, 16, 17, 33, 64};
    for (size_t w = 0; w < COUNT(widths); w++, rot++) {
        const int64_t n = range(&b.rng, 1, 12), C = widths[w];
        if (w % 2)
            cumsum(&b, "columns", 3, S(2, n, C), 1, rot % 4, GOLDEN_GENERAL);
        else
            cumsum(&b, "columns", 2, S(n, C), 0, rot % 4, GOLDEN_GENERAL);
    }
    /* CumSum: long lines across the scan chunks (16384 elements), every flag;
     * two lines of a chunk and a bit; long columns. */
    for (unsigned f = 0; f < 4; f++)
        cumsum(&b, "long", 1, S(16384 + 37), 0, f, GOLDEN_GENERAL);
    cumsum(&b, "long", 1, S(2 * 16384 + 5), 0, rot++ % 4, GOLDEN_GENERAL);
    cumsum(&b, "long", 2, S(2, 16384 + 100), 1, rot++ % 4, GOLDEN_GENERAL);
    cumsum(&b, "long", 2, S(20000, 3), 0, rot++ % 4, GOLDEN_GENERAL);
    cumsum(&b, "long", 3, S(2, 3000, 17), 1, rot++ % 4, GOLDEN_GENERAL);
    /* CumSum: random shapes, rank 1..4, any axis, any flags. */
    for (int k = 0; k < 10; k++) {
        int64_t shape[4];
        const size_t rank = (size_t)range(&b.rng, 1, 4);
        int64_t count = 1;
        for (size_t d = 0; d < rank; d++) {
            shape[d] = range(&b.rng, 1, count > 12 ? 3 : 12);
            count *= shape[d];
        }
        /* one draw per statement: the order of evaluation of arguments is
         * unspecified, and the list must be the same on every machine */
        const int64_t axis = range(&b.rng, -(int64_t)rank, (int64_t)rank - 1);
        const unsigned flags = (unsigned)range(&b.rng, 0, 3);
        cumsum(&b, "random", rank, shape, axis, flags, GOLDEN_GENERAL);
    }
    /* CumSum: special values and signed zeros. */
    for (unsigned f = 0; f < 4; f++)
        cumsum(&b, "specials", 1, S(64), 0, f, GOLDEN_SPECIALS);
    cumsum(&b, "specials", 2, S(23, 5), 0, rot++ % 4, GOLDEN_SPECIALS);
    cumsum(&b, "specials", 2, S(5, 23), 1, rot++ % 4, GOLDEN_SPECIALS);
    cumsum(&b, "specials", 2, S(2, 40), 1, rot++ % 4, GOLDEN_ZEROS);
    cumsum(&b, "specials", 2, S(10, 17), 0, rot++ % 4, GOLDEN_ZEROS);
    /* CumSum: cancelling data along lines (pairs B, -B). */
    for (unsigned f = 0; f < 4; f++)
        cumsum(&b, "cancel", 1, S(64), 0, f, GOLDEN_CANCEL);
    cumsum(&b, "cancel", 2, S(3, 100), 1, rot++ % 4, GOLDEN_CANCEL);
    cumsum(&b, "cancel", 2, S(9, 16), -1, rot++ % 4, GOLDEN_CANCEL);
    cumsum(&b, "cancel", 1, S(16384 + 37), 0, rot++ % 4, GOLDEN_CANCEL);

    /* ReduceSum: rows [o, n] axis 1 / [n]. */
    static const int64_t rlens[] = {1, 2, 7, 8, 15, 16, 17, 31, 33, 64, 65, 127, 129, 257, 1000, 4097};
    for (size_t l = 0; l < COUNT(rlens); l++, rot++) {
        const int64_t n = rlens[l], o = range(&b.rng, 1, 5);
        const unsigned keep = rot % 2 ? AXIAL_REDUCE_KEEP_DIMS : 0;
        if (o == 1)
            reduce(&b, "rows", 1, S(n), 1, S(0), keep, GOLDEN_GENERAL);
        else
            reduce(&b, "rows", 2, S(o, n), 1, S(-1), keep, GOLDEN_GENERAL);
    }
    /* ReduceSum: short rows [R, n] axis 1, n = 2..16 (the periodic order). */
    for (int64_t n = 2; n <= 16; n++, rot++)
        reduce(&b, "short_rows", 2, S(range(&b.rng, 1, 40), n), 1, S(1),
               rot % 2 ? AXIAL_REDUCE_KEEP_DIMS : 0, GOLDEN_GENERAL);
    /* ReduceSum: columns [n, C] axis 0 and [3, n, C] axis 1. */
    static const int64_t cwidths[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 300};
    static const int64_t clens[] = {1, 2, 3, 7, 8, 9, 17, 100, 1000};
    for (size_t w = 0; w < COUNT(cwidths); w++, rot++) {
        const int64_t C = cwidths[w], n = clens[range(&b.rng, 0, C > 64 ? 7 : 8)];
        const unsigned keep = rot % 2 ? AXIAL_REDUCE_KEEP_DIMS : 0;
        if (w % 2)
            reduce(&b, "columns", 3, S(3, n, C), 1, S(1), keep, GOLDEN_GENERAL);
        else
            reduce(&b, "columns", 2, S(n, C), 1, S(0), keep, GOLDEN_GENERAL);
    }
    /* ReduceSum: [A, B, C] over {0, 2}, {0}, {1, 2}, {0, 1, 2}. */
    static const int64_t as[] = {1, 2, 3, 5}, bs[] = {1, 2, 3, 7, 16, 17};
    static const int64_t cs[] = {1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65};
    static const int64_t sets[4][3] = {{0, 2, 0}, {0, 0, 0}, {1, 2, 0}, {0, 1, 2}};
    static const size_t nset[4] = {2, 1, 2, 3};
    for (int k = 0; k < 16; k++, rot++) {
        const int64_t A = as[range(&b.rng, 0, 3)], B = bs[range(&b.rng, 0, 5)],
                      C = cs[range(&b.rng, 0, 13)];
        int64_t axes[3];
        const size_t s = (size_t)k % 4;
        for (size_t a = 0; a < nset[s]; a++) /* given negative half the time */
            axes[a] = sets[s][a] - (range(&b.rng, 0, 1) ? 3 : 0);
        reduce(&b, "3d", 3, S(A, B, C), nset[s], axes, rot % 2 ? AXIAL_REDUCE_KEEP_DIMS : 0,
               GOLDEN_GENERAL);
    }
    /* ReduceSum: the planner's chunked path (at most 64 outputs, more than
     * 64 KiB per output row: 2.5 chunks and more) and several reduced groups. */
    const size_t KiB = 1024;
    reduce(&b, "split", 1, S(elems(dt, 160 * KiB)), 1, S(0), 0, GOLDEN_GENERAL);
    reduce(&b, "split", 2, S(2, elems(dt, 200 * KiB)), 1, S(1), AXIAL_REDUCE_KEEP_DIMS,
           GOLDEN_GENERAL);
    reduce(&b, "split", 2, S(elems(dt, 170 * KiB) / 3, 3), 1, S(0), 0, GOLDEN_GENERAL);
    reduce(&b, "split", 2, S(elems(dt, 150 * KiB) / 16, 16), 1, S(0), 0, GOLDEN_GENERAL);
    reduce(&b, "split", 2, S(elems(dt, 260 * KiB) / 64, 64), 1, S(-2), AXIAL_REDUCE_KEEP_DIMS,
           GOLDEN_GENERAL);
    reduce(&b, "split", 3, S(64, 5, 64), 2, S(0, 2), 0, GOLDEN_GENERAL);
    reduce(&b, "split", 3, S(64, 17, 64), 2, S(2, 0), AXIAL_REDUCE_KEEP_DIMS, GOLDEN_GENERAL);
    reduce(&b, "split", 4, S(5, 40, 3, 20), 2, S(1, 3), 0, GOLDEN_GENERAL);
    reduce(&b, "split", 4, S(3, 7, 16, 9), 2, S(0, 2), 0, GOLDEN_GENERAL);
    reduce(&b, "split", 2, S(17, 33), 0, NULL, AXIAL_REDUCE_EMPTY_AXES_ALL, GOLDEN_GENERAL);
    reduce(&b, "long", 1, S(100003), 1, S(0), 0, GOLDEN_GENERAL);
    reduce(&b, "long", 2, S(3000, 100), 1, S(0), 0, GOLDEN_GENERAL);
    /* more outputs in chunks (at least 1024 rows, or 64 KiB of rows): columns,
     * rows of a 3-D shape, lines of 2.5 chunks; cancelling data, which shows
     * the chunks' partials even in f16 */
    reduce(&b, "chunks", 2, S(2600, 70), 1, S(0), 0, GOLDEN_CANCEL);
    reduce(&b, "chunks", 3, S(5, 1500, 20), 1, S(1), AXIAL_REDUCE_KEEP_DIMS, GOLDEN_CANCEL);
    reduce(&b, "chunks", 2, S(65, elems(dt, 160 * KiB)), 1, S(1), 0, GOLDEN_CANCEL);
    /* ReduceSum: random shapes, rank 1..4, random (repeated, negative) axes. */
    for (int k = 0; k < 12; k++) {
        int64_t shape[4], axes[4];
        const size_t rank = (size_t)range(&b.rng, 1, 4);
        int64_t count = 1;
        for (size_t d = 0; d < rank; d++) {
            shape[d] = range(&b.rng, 1, count > 200 ? 3 : 40);
            count *= shape[d];
        }
        const size_t naxes = (size_t)range(&b.rng, 1, (int64_t)rank);
        for (size_t a = 0; a < naxes; a++)
            axes[a] = range(&b.rng, -(int64_t)rank, (int64_t)rank - 1);
        reduce(&b, "random", rank, shape, naxes, axes, (unsigned)range(&b.rng, 0, 3),
               GOLDEN_GENERAL);
    }
    /* ReduceSum: special values and signed zeros. */
    reduce(&b, "specials", 1, S(300), 1, S(0), 0, GOLDEN_SPECIALS);
    reduce(&b, "specials", 2, S(7, 300), 1, S(1), 0, GOLDEN_SPECIALS);
    reduce(&b, "specials", 2, S(300, 20), 1, S(0), 0, GOLDEN_SPECIALS);
    reduce(&b, "specials", 2, S(100, 5), 1, S(0), 0, GOLDEN_SPECIALS);
    reduce(&b, "specials", 3, S(3, 50, 40), 2, S(0, 2), 0, GOLDEN_SPECIALS);
    reduce(&b, "specials", 2, S(64, 33), 1, S(0), 0, GOLDEN_ZEROS);
    reduce(&b, "specials", 2, S(9, 100), 1, S(1), 0, GOLDEN_ZEROS);
    /* ReduceSum: cancelling data along rows (pairs B, -B). */
    reduce(&b, "cancel", 1, S(1000), 1, S(0), 0, GOLDEN_CANCEL);
    reduce(&b, "cancel", 2, S(5, 300), 1, S(1), AXIAL_REDUCE_KEEP_DIMS, GOLDEN_CANCEL);
    reduce(&b, "cancel", 2, S(40, 16), 1, S(1), 0, GOLDEN_CANCEL);
    reduce(&b, "cancel", 2, S(20, 6), 1, S(-1), 0, GOLDEN_CANCEL);
    reduce(&b, "cancel", 1, S(100003), 1, S(0), 0, GOLDEN_CANCEL);
    reduce(&b, "cancel", 2, S(2, 50001), 1, S(1), 0, GOLDEN_CANCEL);
    return b.n;
}

/* ---- one case ----------------------------------------------------------------- */

size_t golden_in_count(const golden_case *c) {
    size_t n = 1;
    for (size_t d = 0; d < c->rank; d++)
        n *= (size_t)c->shape[d];
    return n;
}

size_t golden_out_count(const golden_case *c) {
    if (c->op == GOLDEN_CUMSUM)
        return golden_in_count(c);
    size_t orank = 0;
    int64_t oshape[AXIAL_MAX_RANK];
    if (axial_reduce_sum_shape(c->rank, c->shape, c->axes, c->naxes, c->flags, &orank,
                               oshape) != AXIAL_OK)
        return 0;
    size_t n = 1;
    for (size_t d = 0; d < orank; d++)
        n *= (size_t)oshape[d];
    return n;
}

axial_status golden_call(const golden_case *c, const void *x, void *y, const axial_executor *ex) {
    const ax_call call = {c->op == GOLDEN_CUMSUM ? AX_OP_CUMSUM : AX_OP_REDUCE,
                          c->dt, c->rank, c->shape, c->axes[0], c->flags, c->axes, c->naxes,
                          NULL, 0};
    return ax_call_ex(&call, x, y, ex);
}

static int list(char *buf, size_t cap, const int64_t *v, size_t n) {
    int len = 0;
    if (n == 0)
        return snprintf(buf, cap, "-");
    for (size_t k = 0; k < n && (size_t)len < cap; k++)
        len += snprintf(buf + len, cap - (size_t)len, k ? ",%" PRId64 : "%" PRId64, v[k]);
    return len;
}

const char *golden_key(const golden_case *c, char *buf, size_t cap) {
    static const char *const fills[4] = {"general", "specials", "zeros", "cancel"};
    char sh[96], ax[96];
    list(sh, sizeof sh, c->shape, c->rank);
    list(ax, sizeof ax, c->axes, c->naxes);
    snprintf(buf, cap, "%s %s %s shape %s axes %s flags %u fill %s seed 0x%016" PRIx64,
             c->op == GOLDEN_CUMSUM ? "cumsum" : "reduce_sum", ax_dtype_str(c->dt), c->family,
             sh, ax, c->flags, fills[c->fill], c->seed);
    return buf;
}

const char *golden_path(char *buf, size_t cap, const char *dir, axial_dtype dt) {
    snprintf(buf, cap, "%s/%s.gold", dir, ax_dtype_str(dt));
    return buf;
}

static void keep_window(bool *keep, size_t count, size_t lo, size_t hi) { /* [lo, hi) in [0, count) */
    for (size_t k = lo; k < hi && k < count; k++)
        keep[k] = true;
}

void golden_keep(const golden_case *c, bool *keep, size_t count) {
    const bool all = count <= 256;
    for (size_t k = 0; k < count; k++)
        keep[k] = all;
    if (all)
        return;
    keep_window(keep, count, 0, 32);
    keep_window(keep, count, count - 32, count);
    if (c->op != GOLDEN_CUMSUM)
        return;
    /* the lines of the scan: (outer, n, inner) */
    const size_t rank = c->rank, ax = (size_t)(c->axes[0] < 0 ? c->axes[0] + (int64_t)rank
                                                             : c->axes[0]);
    size_t n = (size_t)c->shape[ax], inner = 1;
    for (size_t d = ax + 1; d < rank; d++)
        inner *= (size_t)c->shape[d];
    const size_t line = n * inner, chunk = 16384;
    for (size_t s = 0; s < count; s += line) {
        keep_window(keep, count, s, s + 16);
        keep_window(keep, count, s + line - 16, s + line);
        for (size_t m = chunk; m < n; m += chunk) {
            keep_window(keep, count, s + (m - 16) * inner, s + (m + 16) * inner);
            keep_window(keep, count, s + (n - m > 16 ? n - m - 16 : 0) * inner,
                        s + (n - m + 16) * inner);
        }
    }
}

/* ---- the file ----------------------------------------------------------------- */

static int hex_digits(axial_dtype dt) { return 2 * (int)ax_dtype_size(dt); }

bool golden_write(FILE *f, axial_dtype dt, const golden_case *cases, size_t n,
                  void *const *outputs, const char *made_by) {
    fprintf(f, "# axial golden outputs (format %d: tests/golden/README.md)\n", GOLDEN_FORMAT);
    fprintf(f, "# made by %s\n", made_by);
    fprintf(f, "golden %d %s %zu\n", GOLDEN_FORMAT, ax_dtype_str(dt), n);
    for (size_t i = 0; i < n; i++) {
        const golden_case *c = &cases[i];
        const size_t count = golden_out_count(c);
        bool *keep = malloc(count + 1);
        if (keep == NULL)
            return false;
        golden_keep(c, keep, count);
        for (size_t k = 0; k < count; k++) /* NaN payloads and signs differ between CPUs */
            golden_set_bits(dt, outputs[i], k, canonical(dt, golden_bits(dt, outputs[i], k)));
        char key[256];
        fprintf(f, "case %zu %s out %zu hash 0x%016" PRIx64 "\n", i,
                golden_key(c, key, sizeof key), count, golden_hash(dt, outputs[i], count));
        size_t stored = 0;
        for (size_t k = 0; k < count;) {
            if (!keep[k]) {
                k++;
                continue;
            }
            fprintf(f, "@%zu", k);
            for (int j = 0; j < 16 && k < count && keep[k]; j++, k++, stored++)
                fprintf(f, " %0*" PRIx64, hex_digits(dt), golden_bits(dt, outputs[i], k));
            fprintf(f, "\n");
        }
        fprintf(f, "end %zu stored %zu check 0x%016" PRIx64 "\n", i, stored,
                golden_check(dt, outputs[i], keep, count));
        free(keep);
    }
    return fflush(f) == 0 && !ferror(f);
}

void golden_free(golden_file *gf) {
    for (size_t i = 0; gf->rec && i < gf->n; i++) {
        free(gf->rec[i].keep);
        free(gf->rec[i].y);
    }
    free(gf->rec);
    gf->rec = NULL;
    gf->n = 0;
}

/* The file in memory, split into lines in place. */
static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            char *nb = realloc(buf, 2 * cap + 1);
            if (nb == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    *len = n;
    return buf;
}

#define FAIL(...) (snprintf(err, cap, __VA_ARGS__), golden_free(gf), free(text), false)

bool golden_read(const char *path, axial_dtype dt, golden_file *gf, char *err, size_t cap) {
    memset(gf, 0, sizeof *gf);
    gf->dt = dt;
    size_t len = 0;
    char *text = slurp(path, &len);
    if (text == NULL) {
        snprintf(err, cap, "cannot read %s (make it with axial-make-golden: tests/golden/README.md)",
                 path);
        return false;
    }
    size_t lineno = 0, ncase = 0;
    golden_record *r = NULL;
    bool header = false;
    for (char *line = text, *next; line < text + len; line = next) {
        char *nl = strchr(line, '\n');
        next = nl ? nl + 1 : text + len;
        if (nl)
            *nl = '\0';
        lineno++;
        if (line[0] == '#' || line[0] == '\0')
            continue;
        if (!header) {
            int fmt = 0;
            char name[8];
            size_t n = 0;
            if (sscanf(line, "golden %d %7s %zu", &fmt, name, &n) != 3 || fmt != GOLDEN_FORMAT ||
                strcmp(name, ax_dtype_str(dt)) != 0 || n == 0 || n > GOLDEN_MAX_CASES)
                return FAIL("%s:%zu: not a format-%d header for %s: \"%.80s\"", path, lineno,
                            GOLDEN_FORMAT, ax_dtype_str(dt), line);
            gf->rec = calloc(n, sizeof *gf->rec);
            if (gf->rec == NULL)
                return FAIL("out of memory");
            gf->n = n;
            header = true;
        } else if (strncmp(line, "case ", 5) == 0) {
            if (r != NULL)
                return FAIL("%s:%zu: case %zu has no end line", path, lineno, ncase - 1);
            size_t idx = 0;
            int off = 0;
            if (sscanf(line, "case %zu %n", &idx, &off) != 1 || idx != ncase || ncase >= gf->n)
                return FAIL("%s:%zu: expected case %zu of %zu", path, lineno, ncase, gf->n);
            r = &gf->rec[ncase++];
            char *out = strstr(line, " out ");
            if (out == NULL || (size_t)(out - (line + off)) >= sizeof r->key)
                return FAIL("%s:%zu: no \" out \" in the case line", path, lineno);
            memcpy(r->key, line + off, (size_t)(out - (line + off)));
            r->key[out - (line + off)] = '\0';
            if (sscanf(out, " out %zu hash 0x%" SCNx64, &r->count, &r->hash) != 2 ||
                r->count > ((size_t)1 << 26))
                return FAIL("%s:%zu: bad out/hash fields", path, lineno);
            r->keep = calloc(r->count + 1, 1);
            r->y = calloc(r->count + 1, ax_dtype_size(dt));
            if (r->keep == NULL || r->y == NULL)
                return FAIL("out of memory");
        } else if (line[0] == '@') {
            if (r == NULL)
                return FAIL("%s:%zu: data outside a case", path, lineno);
            char *p = line + 1, *end;
            size_t k = (size_t)strtoull(p, &end, 10);
            for (p = end; *p == ' '; k++) {
                const uint64_t bits = strtoull(p + 1, &end, 16);
                if (end - (p + 1) != hex_digits(dt) || k >= r->count)
                    return FAIL("%s:%zu: bad element %zu", path, lineno, k);
                golden_set_bits(dt, r->y, k, bits);
                r->keep[k] = true;
                p = end;
            }
            if (*p != '\0')
                return FAIL("%s:%zu: junk after the elements", path, lineno);
        } else if (strncmp(line, "end ", 4) == 0) {
            size_t idx = 0, stored = 0, kept = 0;
            uint64_t check = 0;
            if (r == NULL || sscanf(line, "end %zu stored %zu check 0x%" SCNx64, &idx, &stored,
                                    &check) != 3 || idx + 1 != ncase)
                return FAIL("%s:%zu: bad end line", path, lineno);
            for (size_t k = 0; k < r->count; k++)
                kept += r->keep[k];
            if (kept != stored || golden_check(dt, r->y, r->keep, r->count) != check)
                return FAIL("%s:%zu: case %zu is damaged (%zu elements stored of %zu, or the "
                            "check differs)", path, lineno, idx, kept, stored);
            r = NULL;
        } else {
            return FAIL("%s:%zu: unknown line \"%.40s\"", path, lineno, line);
        }
    }
    if (!header || r != NULL || ncase != gf->n)
        return FAIL("%s: truncated (%zu of %zu cases)", path, ncase, gf->n);
    free(text);
    return true;
}
