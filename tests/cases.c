/* SPDX-License-Identifier: MIT */
/* cases.c: see cases.h. */
#include "cases.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"

const axial_dtype ax_sum_types[12] = {AXIAL_F32, AXIAL_F64, AXIAL_F16, AXIAL_BF16,
                                      AXIAL_I8,  AXIAL_U8,  AXIAL_I16, AXIAL_U16,
                                      AXIAL_I32, AXIAL_U32, AXIAL_I64, AXIAL_U64};
const axial_dtype ax_float_types[4] = {AXIAL_F32, AXIAL_F64, AXIAL_F16, AXIAL_BF16};
const axial_dtype ax_roll_types[8] = {AXIAL_I8,  AXIAL_BOOL, AXIAL_F16, AXIAL_U16,
                                      AXIAL_F32, AXIAL_I32,  AXIAL_F64, AXIAL_U64};

int ax_iters(int base) {
    int n = (int)(base * ax_scale());
    return n > 0 ? n : 1;
}

bool ax_sample(ax_t *t, double frac) {
    double p = frac * ax_scale();
    uint64_t r = ax_rand(t); /* drawn either way: every ISA sees the same stream */
    return p >= 1.0 || (double)(r >> 11) < p * 9007199254740992.0;
}

/* ---- input data ------------------------------------------------------------- */

/* The bits of k/16 (|k| <= 64) in each float format, computed once: filling
 * through or_set_f's table search for every element would dominate the run. */
static uint64_t exact_bits[AXIAL_BF16 + 1][129];
static bool exact_ready[AXIAL_BF16 + 1];

static uint64_t exact_value(axial_dtype dt, int64_t k) {
    if (!exact_ready[dt]) {
        for (int j = 0; j <= 128; j++) {
            uint64_t b = 0;
            or_set_f(dt, &b, 0, (long double)(j - 64) / 16.0L);
            exact_bits[dt][j] = b;
        }
        exact_ready[dt] = true;
    }
    return exact_bits[dt][k + 64];
}

/* Random bits of a float format: sign, exponent field in [elo, ehi], random
 * significand; f32 (8, 23), f64 (11, 52), f16 (5, 10), bf16 (8, 7). */
static uint64_t general_bits(ax_t *t, axial_dtype dt) {
    int mbits, ebits, elo, ehi;
    switch (dt) {
    case AXIAL_F32: mbits = 23, ebits = 8, elo = 127 - 12, ehi = 127 + 12; break;
    case AXIAL_F64: mbits = 52, ebits = 11, elo = 1023 - 20, ehi = 1023 + 20; break;
    case AXIAL_F16: mbits = 10, ebits = 5, elo = 0, ehi = 15 + 2; break;
    default: mbits = 7, ebits = 8, elo = 127 - 12, ehi = 127 + 12; break;
    }
    uint64_t r = ax_rand(t);
    uint64_t m = r & ((1ull << mbits) - 1);
    uint64_t e = (uint64_t)ax_rand_range(t, elo, ehi);
    uint64_t s = (r >> 63) & 1;
    return (s << (mbits + ebits)) | (e << mbits) | m;
}

/* The bits of v, a value of float format dt (f16 or bf16) exactly: the
 * oracle's table search would be slow for millions of elements. */
static uint64_t encode_exact(axial_dtype dt, long double v) {
    const int p = ax_dtype_fmt(dt).p, emin = ax_dtype_fmt(dt).emin, bias = 1 - emin;
    uint64_t sign = signbit(v) ? 0x8000u : 0;
    long double a = fabsl(v);
    if (a == 0) return sign;
    int e = ilogbl(a);
    if (e < emin) return sign | (uint64_t)ldexpl(a, p - 1 - emin); /* subnormal */
    return sign | ((uint64_t)(e + bias) << (p - 1)) |
           ((uint64_t)ldexpl(a, p - 1 - e) - (1ull << (p - 1)));
}

void ax_fill(ax_t *t, axial_dtype dt, void *p, size_t count, enum fill mode) {
    static const int prec[AXIAL_BF16 + 1] = {0, 24, 53, 11, 8};
    for (size_t i = 0; i < count; i++) {
        if (dt == AXIAL_BOOL) {
            or_set_u(dt, p, i, ax_rand(t) & 1);
        } else if (!ax_dtype_is_float(dt)) {
            uint64_t r = ax_rand(t);
            or_set_u(dt, p, i, (r & 1) ? r : (uint64_t)ax_rand_range(t, -100, 100));
        } else if (mode == FILL_GENERAL) {
            or_set_u(dt, p, i, general_bits(t, dt));
        } else if (mode == FILL_UNIFORM01) {
            int64_t k = (int64_t)(ax_rand(t) >> (64 - prec[dt]));
            long double v = ldexpl((long double)k, -prec[dt]); /* exact */
            if (dt == AXIAL_F16 || dt == AXIAL_BF16) or_set_u(dt, p, i, encode_exact(dt, v));
            else or_set_f(dt, p, i, v);
        } else if (mode == FILL_ZEROS) { /* the sign bit, or +0 */
            or_set_u(dt, p, i, ax_rand(t) % 16 ? 1ull << (8 * ax_dtype_size(dt) - 1) : 0);
        } else {
            int64_t k = ax_rand_range(t, -64, 64);
            uint64_t r = ax_rand(t) % 64;
            uint64_t bits = r == 0 ? exact_value(dt, 0) : exact_value(dt, k);
            if (r == 0) /* -0.0: the sign bit on top of +0 */
                bits |= 1ull << (8 * ax_dtype_size(dt) - 1);
            if (mode == FILL_RARE_SPECIALS)
                r = ax_rand(t) % 256;
            if ((mode == FILL_SPECIALS || mode == FILL_RARE_SPECIALS) && r >= 1 && r <= 3) {
                or_set_f(dt, p, i, r == 1 ? INFINITY : r == 2 ? -INFINITY : NAN);
                continue;
            }
            or_set_u(dt, p, i, bits);
        }
    }
}

/* ---- one call -------------------------------------------------------------------- */

bool ax_compare(ax_t *t, axial_dtype dt, const void *got, const void *want, size_t count,
                const char *what) {
    for (size_t i = 0; i < count; i++) {
        if (!or_same(dt, got, i, want, i)) {
            char g[64], w[64];
            return AX_CHECK(t, false, "%s: element %zu of %zu is %s, oracle %s", what, i,
                            count, or_str(g, sizeof g, dt, got, i),
                            or_str(w, sizeof w, dt, want, i));
        }
    }
    return AX_CHECK(t, true, "%s", what);
}

int io_misalign_x = -1, io_misalign_y = -1;

void io_begin(ax_t *t, io_case *io, axial_dtype dt, size_t count, size_t ocount,
              enum fill mode, bool inplace) {
    io->dt = dt;
    io->es = ax_dtype_size(dt);
    io->count = count;
    io->ocount = ocount;
    io->inplace = inplace;
    const size_t mx = (size_t)ax_rand_range(t, 0, 7), my = (size_t)ax_rand_range(t, 0, 7);
    ax_buf_alloc(&io->x, count * io->es,
                 io->es * (io_misalign_x >= 0 ? (size_t)io_misalign_x : mx));
    ax_buf_alloc(&io->y, ocount * io->es,
                 io->es * (io_misalign_y >= 0 ? (size_t)io_misalign_y : my));
    ax_buf_poison(&io->x, 0);
    ax_buf_poison(&io->y, 0x5a);
    ax_fill(t, dt, io->x.p, count, mode);
    io->want = malloc(ocount * io->es + 1);
    io->xcopy = malloc(count * io->es + 1);
    if (!io->want || !io->xcopy) {
        fprintf(stderr, "# test harness: out of memory (%zu + %zu elements)\n", ocount, count);
        abort();
    }
    io->ready = false;
    io->src = io->x.p;
}

void io_ready(io_case *io) {
    memcpy(io->xcopy, io->x.p, io->count * io->es);
    io->ready = true;
    if (io->inplace) {
        memcpy(io->y.p, io->x.p, io->count * io->es);
        io->src = io->y.p;
    }
}

bool io_called(ax_t *t, io_case *io, axial_status st, const char *what) {
    bool ok = AX_CHECK(t, st == AXIAL_OK, "%s: status %s (%s)", what, axial_status_name(st),
                       axial_last_error());
    ok &= AX_CHECK(t, ax_buf_canary_ok(&io->y), "%s: wrote outside the output", what);
    ok &= AX_CHECK(t, io->inplace || ax_buf_canary_ok(&io->x), "%s: wrote around the input",
                   what);
    ok &= AX_CHECK(t, io->ready, "%s: the test called without io_ready", what);
    ok &= AX_CHECK(t, io->inplace || !io->ready ||
                          memcmp(io->x.p, io->xcopy, io->count * io->es) == 0,
                   "%s: changed its separate input", what);
    return ok;
}

void io_free(io_case *io) {
    free(io->want);
    free(io->xcopy);
    ax_buf_free(&io->x);
    ax_buf_free(&io->y);
}

void io_end(ax_t *t, io_case *io, axial_status st, const char *what) {
    if (io_called(t, io, st, what))
        ax_compare(t, io->dt, io->y.p, io->want, io->ocount, what);
    io_free(io);
}

void cumsum_case(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape, int64_t axis,
                 unsigned flags, enum fill mode, bool inplace) {
    size_t count = or_count(rank, shape);
    io_case io;
    io_begin(t, &io, dt, count, count, mode, inplace);
    size_t norm = (size_t)(axis < 0 ? axis + (int64_t)rank : axis);
    or_cumsum(dt, io.x.p, io.want, rank, shape, norm, flags & 1, flags & 2);
    io_ready(&io);
    char sh[160], what[320];
    snprintf(what, sizeof what, "cumsum %s %s axis %lld flags %u%s (misalign %zu/%zu)",
             ax_dtype_str(dt), ax_shape_str(sh, sizeof sh, rank, shape), (long long)axis,
             flags, inplace ? " in place" : "", io.x.misalign, io.y.misalign);
    io_end(t, &io, axial_cumsum(dt, io.src, io.y.p, rank, shape, axis, flags), what);
}

void reduce_case(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape,
                 const int64_t *axes, size_t naxes, unsigned flags, enum fill mode) {
    size_t count = or_count(rank, shape);
    bool keep = flags & AXIAL_REDUCE_KEEP_DIMS, all = flags & AXIAL_REDUCE_EMPTY_AXES_ALL;
    int64_t oshape[AXIAL_MAX_RANK], lshape[AXIAL_MAX_RANK];
    size_t orank = 0, lrank = 99;
    or_reduce(dt, NULL, NULL, rank, shape, axes, naxes, keep, all, &orank, oshape);
    size_t ocount = or_count(orank, oshape);

    char sh[160], ax[160], what[400];
    snprintf(what, sizeof what, "reduce_sum %s %s axes %s flags %u", ax_dtype_str(dt),
             ax_shape_str(sh, sizeof sh, rank, shape), ax_shape_str(ax, sizeof ax, naxes, axes),
             flags);
    axial_status st = axial_reduce_sum_shape(rank, shape, axes, naxes, flags, &lrank, lshape);
    if (AX_CHECK(t, st == AXIAL_OK && lrank == orank, "%s: shape status %s, rank %zu, want %zu",
                 what, axial_status_name(st), lrank, orank))
        for (size_t k = 0; k < orank; k++)
            AX_CHECK(t, lshape[k] == oshape[k], "%s: out_shape[%zu] = %lld, want %lld", what,
                     k, (long long)lshape[k], (long long)oshape[k]);

    io_case io;
    io_begin(t, &io, dt, count, ocount, mode, false);
    or_reduce(dt, io.x.p, io.want, rank, shape, axes, naxes, keep, all, &orank, oshape);
    io_ready(&io);
    io_end(t, &io, axial_reduce_sum(dt, io.x.p, io.y.p, rank, shape, axes, naxes, flags), what);
}

void roll_case(ax_t *t, axial_dtype dt, size_t rank, const int64_t *shape,
               const int64_t *shift, size_t nshift, const int64_t *axes, size_t naxes,
               bool inplace) {
    size_t count = or_count(rank, shape);
    io_case io;
    io_begin(t, &io, dt, count, count, FILL_EXACT, inplace);
    or_roll(dt, io.x.p, io.want, rank, shape, shift, nshift, axes, naxes);
    io_ready(&io);
    char sh[160], sa[200], aa[160], what[600];
    snprintf(what, sizeof what, "roll %s %s shift %s axes %s%s", ax_dtype_str(dt),
             ax_shape_str(sh, sizeof sh, rank, shape), ax_shape_str(sa, sizeof sa, nshift, shift),
             ax_shape_str(aa, sizeof aa, naxes, axes), inplace ? " in place" : "");
    io_end(t, &io, axial_roll(dt, io.src, io.y.p, rank, shape, shift, nshift, axes, naxes), what);
}

/* ---- kernel-shape families -------------------------------------------------------- */

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* Row lengths: every n up to 70 (every tail of one to four vectors of every
 * element width, and the unroll of short loops), then k*w*unroll +- 1. */
static const int64_t row_tail_lens[] = {127, 128, 129, 255, 256, 257, 511, 512, 513,
                                        1023, 1024, 1025};
static const int64_t short_rows[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65};
static const int64_t col_widths[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,   10,  11,  12, 13,
                                     14, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129};
static const int64_t col_lens[] = {1, 2, 3, 8, 9, 17, 100};

static int64_t row_len(size_t k) { /* k < 70 + COUNT(row_tail_lens) */
    return k < 70 ? (int64_t)k + 1 : row_tail_lens[k - 70];
}

/* A scan axis given as positive or negative, at random. */
static int64_t some_axis(ax_t *t, int64_t axis, size_t rank) {
    return ax_rand(t) & 1 ? axis - (int64_t)rank : axis;
}

void cumsum_rows(ax_t *t, axial_dtype dt, enum fill mode, cumsum_run run, double frac,
                 enum flag_set fs) {
    static const int64_t outers[] = {1, 2, 3, 5};
    unsigned rot = 0;
    for (size_t k = 0; k < 70 + COUNT(row_tail_lens); k++)
        for (size_t o = 0; o < COUNT(outers); o++, rot++)
            for (unsigned flags = 0; flags < 4; flags++) {
                if (fs == FLAGS_ONE && flags != (rot & 3)) continue;
                if (!ax_sample(t, frac)) continue;
                bool inplace = ax_rand(t) % 4 == 0;
                int64_t shape[2] = {outers[o], row_len(k)};
                if (outers[o] == 1 && (ax_rand(t) & 1))
                    run(t, dt, 1, shape + 1, some_axis(t, 0, 1), flags, mode, inplace);
                else
                    run(t, dt, 2, shape, some_axis(t, 1, 2), flags, mode, inplace);
            }
}

void cumsum_short_rows(ax_t *t, axial_dtype dt, enum fill mode, cumsum_run run, double frac,
                       enum flag_set fs) {
    unsigned rot = 0;
    for (int64_t n = 2; n <= 17; n++)
        for (size_t r = 0; r < COUNT(short_rows); r++, rot++)
            for (unsigned flags = 0; flags < 4; flags++) {
                if (fs == FLAGS_ONE && flags != (rot & 3)) continue;
                if (!ax_sample(t, frac)) continue;
                int64_t shape[2] = {short_rows[r], n};
                run(t, dt, 2, shape, some_axis(t, 1, 2), flags, mode, ax_rand(t) % 4 == 0);
            }
}

void cumsum_columns(ax_t *t, axial_dtype dt, enum fill mode, cumsum_run run, double frac,
                    enum flag_set fs) {
    unsigned rot = 0;
    for (size_t c = 0; c < COUNT(col_widths); c++)
        for (size_t l = 0; l < COUNT(col_lens); l++, rot++)
            for (int layout = 0; layout < 2; layout++)
                for (unsigned flags = 0; flags < 4; flags++) {
                    if (fs == FLAGS_ONE && flags != ((rot + (unsigned)layout) & 3)) continue;
                    if (!ax_sample(t, frac)) continue;
                    bool inplace = ax_rand(t) % 4 == 0;
                    int64_t s3[3] = {2, col_lens[l], col_widths[c]};
                    if (layout == 0)
                        run(t, dt, 2, s3 + 1, some_axis(t, 0, 2), flags, mode, inplace);
                    else
                        run(t, dt, 3, s3, some_axis(t, 1, 3), flags, mode, inplace);
                }
    /* rows of 4100 columns: past 32 register tiles of any ISA (4096 bytes of i8), where a
     * kernel sweeps all columns over running sums in memory; each flag once */
    for (unsigned flags = 0; flags < 4; flags++) {
        if (!ax_sample(t, frac)) continue;
        int64_t s3[3] = {2, flags & 1 ? 17 : 9, 4100};
        if (flags & 2)
            run(t, dt, 3, s3, some_axis(t, 1, 3), flags, mode, ax_rand(t) % 4 == 0);
        else
            run(t, dt, 2, s3 + 1, some_axis(t, 0, 2), flags, mode, ax_rand(t) % 4 == 0);
    }
}

static unsigned keep_or_not(ax_t *t) { return ax_rand(t) & 1 ? AXIAL_REDUCE_KEEP_DIMS : 0; }

void reduce_rows(ax_t *t, axial_dtype dt, enum fill mode, reduce_run run, double frac) {
    static const int64_t outers[] = {1, 2, 3, 5};
    static const int64_t longer[] = {2047, 2048, 2049, 4095, 4096, 4097};
    for (size_t k = 0; k < 70 + COUNT(row_tail_lens) + COUNT(longer); k++)
        for (size_t o = 0; o < COUNT(outers); o++) {
            if (!ax_sample(t, frac)) continue;
            int64_t n = k < 70 + COUNT(row_tail_lens) ? row_len(k)
                                                      : longer[k - 70 - COUNT(row_tail_lens)];
            int64_t shape[2] = {outers[o], n}, ax[1];
            unsigned flags = keep_or_not(t);
            if (outers[o] == 1 && (ax_rand(t) & 1)) {
                ax[0] = some_axis(t, 0, 1);
                run(t, dt, 1, shape + 1, ax, 1, flags, mode);
            } else {
                ax[0] = some_axis(t, 1, 2);
                run(t, dt, 2, shape, ax, 1, flags, mode);
            }
        }
}

void reduce_short_rows(ax_t *t, axial_dtype dt, enum fill mode, reduce_run run, double frac) {
    static const int64_t longer[] = {32, 64, 128, 256}; /* rows of 8 and 16 vectors */
    for (int64_t i = 2; i <= 17 + (int64_t)COUNT(longer); i++)
        for (size_t r = 0; r < COUNT(short_rows); r++) {
            if (!ax_sample(t, frac)) continue;
            const int64_t n = i <= 17 ? i : longer[i - 18];
            int64_t shape[2] = {short_rows[r], n}, ax[1] = {some_axis(t, 1, 2)};
            run(t, dt, 2, shape, ax, 1, keep_or_not(t), mode);
        }
}

void reduce_columns(ax_t *t, axial_dtype dt, enum fill mode, reduce_run run, double frac) {
    for (size_t c = 0; c < COUNT(col_widths); c++)
        for (size_t l = 0; l <= COUNT(col_lens); l++)
            for (int layout = 0; layout < 2; layout++) {
                int64_t n = l < COUNT(col_lens) ? col_lens[l] : 1000;
                if (n == 1000 && col_widths[c] > 17) continue;
                if (!ax_sample(t, frac)) continue;
                int64_t s3[3] = {3, n, col_widths[c]}, ax[1];
                if (layout == 0) {
                    ax[0] = some_axis(t, 0, 2);
                    run(t, dt, 2, s3 + 1, ax, 1, keep_or_not(t), mode);
                } else {
                    ax[0] = some_axis(t, 1, 3);
                    run(t, dt, 3, s3, ax, 1, keep_or_not(t), mode);
                }
            }
}

void reduce_3d(ax_t *t, axial_dtype dt, enum fill mode, reduce_run run, double frac) {
    static const int64_t as[] = {1, 2, 3, 5}, bs[] = {1, 2, 3, 7, 16, 17};
    static const int64_t cs[] = {1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65};
    static const int64_t sets[5][3] = {{0, 2, -1}, {0, -1, -1}, {1, 2, -1}, {0, 1, 2}, {1, -1, -1}};
    static const size_t nset[5] = {2, 1, 2, 3, 1};
    for (size_t a = 0; a < COUNT(as); a++)
        for (size_t b = 0; b < COUNT(bs); b++)
            for (size_t c = 0; c < COUNT(cs); c++)
                for (size_t s = 0; s < COUNT(nset); s++) {
                    if (!ax_sample(t, frac)) continue;
                    int64_t shape[3] = {as[a], bs[b], cs[c]}, axes[3];
                    size_t n = nset[s];
                    for (size_t k = 0; k < n; k++) /* in random order and sign */
                        axes[k] = some_axis(t, sets[s][k], 3);
                    if (n > 1 && (ax_rand(t) & 1)) {
                        int64_t tmp = axes[0];
                        axes[0] = axes[n - 1];
                        axes[n - 1] = tmp;
                    }
                    run(t, dt, 3, shape, axes, n, keep_or_not(t), mode);
                }
}
