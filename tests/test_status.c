/* SPDX-License-Identifier: MIT */
/*
 * test_status.c: every status code (docs/API.md), for every function that can
 * return it.  Each failing call must leave the output untouched (checked
 * byte by byte, with canaries) and leave a message in axial_last_error()
 * that names the offending value.  The log-space ops (axial_logcumsumexp,
 * axial_reduce_logsumexp) take the checks of their sums, and refuse every
 * non-float dtype (the integers and BOOL: AXIAL_E_DTYPE naming it);
 * LogCumSumExp may run in place, ReduceLogSumExp may not.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cases.h"
#include "harness.h"
#include "internal.h" /* whether the active table has the split kernels */
#include "sysmem.h"
#include "tests.h"

/* The output every failing call gets: 256 bytes of 0x5a with canaries. */
static ax_buf out;
static const float xin[64] = {1, 2, 3, 4, 5, 6, 7, 8};

static void expect(ax_t *t, axial_status got, axial_status want, const char *needle,
                   const char *what) {
    const char *msg = axial_last_error();
    AX_CHECK(t, got == want, "%s: status %s, want %s (%s)", what, axial_status_name(got),
             axial_status_name(want), msg);
    AX_CHECK(t, msg && strstr(msg, needle), "%s: message \"%s\" does not name \"%s\"", what,
             msg ? msg : "(null)", needle);
    AX_CHECK(t, ax_buf_untouched(&out, 0x5a) && ax_buf_canary_ok(&out),
             "%s: the output was written", what);
    ax_buf_poison(&out, 0x5a);
}

static void begin(void) {
    ax_buf_alloc(&out, 256, 0);
    ax_buf_poison(&out, 0x5a);
}

static const int64_t s2x3[2] = {2, 3}, s6[1] = {6};
static const int64_t ax0[1] = {0}, one[1] = {1};

void t_status_null(ax_t *t) {
    begin();
    void *y = out.p;
    size_t r;
    int64_t os[4];
    expect(t, axial_cumsum(AXIAL_F32, NULL, y, 2, s2x3, 0, 0), AXIAL_E_NULL, "x is NULL",
           "cumsum x NULL");
    expect(t, axial_cumsum(AXIAL_F32, xin, NULL, 2, s2x3, 0, 0), AXIAL_E_NULL, "y is NULL",
           "cumsum y NULL");
    expect(t, axial_cumsum(AXIAL_F32, xin, y, 2, NULL, 0, 0), AXIAL_E_NULL, "shape is NULL",
           "cumsum shape NULL");
    expect(t, axial_reduce_sum(AXIAL_F32, NULL, y, 2, s2x3, ax0, 1, 0), AXIAL_E_NULL,
           "x is NULL", "reduce x NULL");
    expect(t, axial_reduce_sum(AXIAL_F32, xin, y, 2, s2x3, NULL, 1, 0), AXIAL_E_NULL,
           "axes is NULL", "reduce axes NULL");
    expect(t, axial_reduce_sum_shape(2, s2x3, ax0, 1, 0, NULL, os), AXIAL_E_NULL,
           "out_rank is NULL", "reduce_shape out_rank NULL");
    expect(t, axial_reduce_sum_shape(2, s2x3, ax0, 1, 0, &r, NULL), AXIAL_E_NULL,
           "out_shape is NULL", "reduce_shape out_shape NULL");
    expect(t, axial_roll(AXIAL_F32, xin, y, 1, s6, NULL, 1, ax0, 1), AXIAL_E_NULL,
           "shift is NULL", "roll shift NULL");
    expect(t, axial_roll(AXIAL_F32, xin, y, 1, s6, one, 1, NULL, 1), AXIAL_E_NULL,
           "axes is NULL", "roll axes NULL");
    expect(t, axial_roll(AXIAL_F32, xin, NULL, 1, s6, one, 1, ax0, 1), AXIAL_E_NULL,
           "y is NULL", "roll y NULL");
    expect(t, axial_logcumsumexp(AXIAL_F32, NULL, y, 2, s2x3, 0, 0), AXIAL_E_NULL, "x is NULL",
           "logcumsumexp x NULL");
    expect(t, axial_logcumsumexp(AXIAL_F32, xin, NULL, 2, s2x3, 0, 0), AXIAL_E_NULL,
           "y is NULL", "logcumsumexp y NULL");
    expect(t, axial_logcumsumexp(AXIAL_F32, xin, y, 2, NULL, 0, 0), AXIAL_E_NULL,
           "shape is NULL", "logcumsumexp shape NULL");
    expect(t, axial_reduce_logsumexp(AXIAL_F32, NULL, y, 2, s2x3, ax0, 1, 0), AXIAL_E_NULL,
           "x is NULL", "reduce_logsumexp x NULL");
    expect(t, axial_reduce_logsumexp(AXIAL_F32, xin, NULL, 2, s2x3, ax0, 1, 0), AXIAL_E_NULL,
           "y is NULL", "reduce_logsumexp y NULL");
    expect(t, axial_reduce_logsumexp(AXIAL_F32, xin, y, 2, s2x3, NULL, 1, 0), AXIAL_E_NULL,
           "axes is NULL", "reduce_logsumexp axes NULL");
    expect(t, axial_reduce_logsumexp(AXIAL_F32, xin, y, 2, NULL, ax0, 1, 0), AXIAL_E_NULL,
           "shape is NULL", "reduce_logsumexp shape NULL");
    ax_buf_free(&out);
}

void t_status_dtype(ax_t *t) {
    begin();
    static const int bad[] = {0, 14, -1, 99};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char needle[32], what[64];
        snprintf(needle, sizeof needle, "dtype %d", bad[i]);
        snprintf(what, sizeof what, "dtype %d", bad[i]);
        expect(t, axial_cumsum((axial_dtype)bad[i], xin, out.p, 1, s6, 0, 0), AXIAL_E_DTYPE,
               needle, what);
        expect(t, axial_reduce_sum((axial_dtype)bad[i], xin, out.p, 1, s6, ax0, 1, 0),
               AXIAL_E_DTYPE, needle, what);
        expect(t, axial_roll((axial_dtype)bad[i], xin, out.p, 1, s6, one, 1, ax0, 1),
               AXIAL_E_DTYPE, needle, what);
    }
    expect(t, axial_cumsum(AXIAL_BOOL, xin, out.p, 1, s6, 0, 0), AXIAL_E_DTYPE, "BOOL",
           "cumsum bool");
    expect(t, axial_reduce_sum(AXIAL_BOOL, xin, out.p, 1, s6, ax0, 1, 0), AXIAL_E_DTYPE,
           "BOOL", "reduce bool");
    /* the log-space ops: floats only; every other dtype is refused by number,
     * the integers as such, BOOL by name; checked before everything else */
    const int64_t neg6[1] = {-6};
    for (int dt = -1; dt <= 99; dt++) {
        if (dt == 16)
            dt = 99; /* -1..15, then 99 */
        if (dt == AXIAL_F32 || dt == AXIAL_F64 || dt == AXIAL_F16 || dt == AXIAL_BF16)
            continue;
        char needle[32], what[96];
        snprintf(needle, sizeof needle, "dtype %d", dt);
        const char *kind = dt == AXIAL_BOOL ? "BOOL" : dt >= AXIAL_I8 && dt <= AXIAL_U64
                                                       ? "integer" : needle;
        snprintf(what, sizeof what, "logcumsumexp dtype %d", dt);
        expect(t, axial_logcumsumexp((axial_dtype)dt, xin, out.p, 1, s6, 0, 0), AXIAL_E_DTYPE,
               needle, what);
        AX_CHECK(t, strstr(axial_last_error(), kind) && strstr(axial_last_error(),
                                                               "axial_logcumsumexp"),
                 "%s: message \"%s\" does not say \"%s\" and the function", what,
                 axial_last_error(), kind);
        snprintf(what, sizeof what, "logcumsumexp dtype %d, also a bad rank, axis, flags", dt);
        expect(t, axial_logcumsumexp((axial_dtype)dt, NULL, NULL, 0, NULL, 7, 99), AXIAL_E_DTYPE,
               needle, what);
        snprintf(what, sizeof what, "logcumsumexp_ex dtype %d in place", dt);
        expect(t, axial_logcumsumexp_ex((axial_dtype)dt, out.p, out.p, 1, s6, 0, 0, NULL),
               AXIAL_E_DTYPE, needle, what);
        snprintf(what, sizeof what, "reduce_logsumexp dtype %d", dt);
        expect(t, axial_reduce_logsumexp((axial_dtype)dt, xin, out.p, 1, s6, ax0, 1, 0),
               AXIAL_E_DTYPE, needle, what);
        AX_CHECK(t, strstr(axial_last_error(), kind) && strstr(axial_last_error(),
                                                               "axial_reduce_logsumexp"),
                 "%s: message \"%s\" does not say \"%s\" and the function", what,
                 axial_last_error(), kind);
        snprintf(what, sizeof what, "reduce_logsumexp dtype %d, also a bad shape", dt);
        expect(t, axial_reduce_logsumexp((axial_dtype)dt, xin, out.p, 1, neg6, ax0, 1, 0),
               AXIAL_E_DTYPE, needle, what);
        snprintf(what, sizeof what, "reduce_logsumexp dtype %d, no axes (a copy)", dt);
        expect(t, axial_reduce_logsumexp((axial_dtype)dt, xin, out.p, 1, s6, NULL, 0, 0),
               AXIAL_E_DTYPE, needle, what);
    }
    ax_buf_free(&out);
}

void t_status_rank(ax_t *t) {
    begin();
    int64_t big[AXIAL_MAX_RANK + 1];
    for (int k = 0; k <= AXIAL_MAX_RANK; k++) big[k] = 1;
    char needle[32];
    snprintf(needle, sizeof needle, "rank %d", AXIAL_MAX_RANK + 1);
    expect(t, axial_cumsum(AXIAL_F32, xin, out.p, 0, NULL, 0, 0), AXIAL_E_RANK, "rank 0",
           "cumsum rank 0");
    expect(t, axial_cumsum(AXIAL_F32, xin, out.p, AXIAL_MAX_RANK + 1, big, 0, 0), AXIAL_E_RANK,
           needle, "cumsum rank 17");
    expect(t, axial_reduce_sum(AXIAL_F32, xin, out.p, AXIAL_MAX_RANK + 1, big, ax0, 1, 0),
           AXIAL_E_RANK, needle, "reduce rank 17");
    size_t r;
    int64_t os[AXIAL_MAX_RANK + 1];
    expect(t, axial_reduce_sum_shape(AXIAL_MAX_RANK + 1, big, ax0, 1, 0, &r, os), AXIAL_E_RANK,
           needle, "reduce_shape rank 17");
    expect(t, axial_roll(AXIAL_F32, xin, out.p, 0, NULL, one, 1, ax0, 1), AXIAL_E_RANK, "rank 0",
           "roll rank 0 with an axis");
    expect(t, axial_roll(AXIAL_F32, xin, out.p, AXIAL_MAX_RANK + 1, big, one, 1, NULL, 0),
           AXIAL_E_RANK, needle, "flat roll rank 17");
    expect(t, axial_logcumsumexp(AXIAL_F32, xin, out.p, 0, NULL, 0, 0), AXIAL_E_RANK, "rank 0",
           "logcumsumexp rank 0");
    expect(t, axial_logcumsumexp(AXIAL_F64, xin, out.p, AXIAL_MAX_RANK + 1, big, 0, 0),
           AXIAL_E_RANK, needle, "logcumsumexp rank 17");
    expect(t, axial_reduce_logsumexp(AXIAL_BF16, xin, out.p, AXIAL_MAX_RANK + 1, big, ax0, 1, 0),
           AXIAL_E_RANK, needle, "reduce_logsumexp rank 17");
    expect(t, axial_reduce_logsumexp(AXIAL_F16, xin, out.p, AXIAL_MAX_RANK + 1, big, NULL, 0,
                                     AXIAL_REDUCE_EMPTY_AXES_ALL),
           AXIAL_E_RANK, needle, "reduce_logsumexp rank 17, all axes");
    /* AXIAL_MAX_RANK itself is fine */
    float v = 3, w = 0;
    axial_status st = axial_cumsum(AXIAL_F32, &v, &w, AXIAL_MAX_RANK, big, -1, 0);
    AX_CHECK(t, st == AXIAL_OK && w == 3, "rank %d cumsum: %s", AXIAL_MAX_RANK,
             axial_status_name(st));
    w = 0;
    st = axial_logcumsumexp(AXIAL_F32, &v, &w, AXIAL_MAX_RANK, big, -1, 0);
    AX_CHECK(t, st == AXIAL_OK && fabsf(w - 3) <= 1e-6f, "rank %d logcumsumexp: %s, %g",
             AXIAL_MAX_RANK,
             axial_status_name(st), (double)w);
    w = 0;
    st = axial_reduce_logsumexp(AXIAL_F32, &v, &w, AXIAL_MAX_RANK, big, ax0, 1, 0);
    AX_CHECK(t, st == AXIAL_OK && fabsf(w - 3) <= 1e-6f, "rank %d reduce_logsumexp: %s, %g",
             AXIAL_MAX_RANK,
             axial_status_name(st), (double)w);
    ax_buf_free(&out);
}

/* ---- sizes that overflow: refused before anything is touched -------------
 * x and y point to inaccessible pages (PROT_NONE): a call that read or wrote
 * a byte would kill the test (the handler names the call first).  The
 * products wrap modulo 2^64 to 0, to small numbers or to 1, overflow only in
 * the byte size (the element count fits), or sit beside a zero dimension. */
#define P2(k) ((int64_t)1 << (k))

typedef struct {
    const char *what;
    axial_dtype dt;
    size_t rank;
    int64_t shape[4];
    bool count_overflows; /* the element count itself overflows (else only the bytes) */
} overflow_case;

static const overflow_case overflows[] = {
    {"[2^62] f32: 2^64 bytes, wraps to 0", AXIAL_F32, 1, {P2(62)}, false},
    {"[2^61 + 1] f64: 2^64 + 8 bytes, wraps to 8", AXIAL_F64, 1, {P2(61) + 1}, false},
    {"[2^61] f32: 2^63 bytes, past PTRDIFF_MAX", AXIAL_F32, 1, {P2(61)}, false},
    {"[2^61, 2] f32: 2^64 bytes, wraps to 0", AXIAL_F32, 2, {P2(61), 2}, false},
    {"[2^31, 2^30, 2] u16: 2^63 bytes", AXIAL_U16, 3, {P2(31), P2(30), 2}, false},
    {"[2^62, 2] i16: 2^63 elements", AXIAL_I16, 2, {P2(62), 2}, true},
    {"[2^32, 2^32] i8: 2^64 elements, wraps to 0", AXIAL_I8, 2, {P2(32), P2(32)}, true},
    {"[2^16, 2^16, 2^16, 2^16] u8: wraps to 0", AXIAL_U8, 4, {P2(16), P2(16), P2(16), P2(16)},
     true},
    {"[3, 6148914691236517206] i8: 2^64 + 2 elements, wraps to 2", AXIAL_I8, 2,
     {3, 6148914691236517206}, true},
    {"[INT64_MAX, INT64_MAX] u8: wraps to 1", AXIAL_U8, 2, {INT64_MAX, INT64_MAX}, true},
    {"[2^32 + 1, 2^32 - 1] i8: 2^64 - 1 elements", AXIAL_I8, 2, {P2(32) + 1, P2(32) - 1}, true},
    {"[2^63 - 1, 2] bool: 2^64 - 2", AXIAL_BOOL, 2, {INT64_MAX, 2}, true},
    {"[2^32, 0, 2^32] i8: a zero beside 2^64", AXIAL_I8, 3, {P2(32), 0, P2(32)}, true},
    {"[0, INT64_MAX, INT64_MAX] u8: a zero beside a wrap to 1", AXIAL_U8, 3,
     {0, INT64_MAX, INT64_MAX}, true},
    {"[2^62, 0] f32: a zero beside 2^64 bytes", AXIAL_F32, 2, {P2(62), 0}, false},
    {"[INT64_MAX, 0] i16: a zero beside 2^64 - 2 bytes", AXIAL_I16, 2, {INT64_MAX, 0}, false},
    {"[2^60, 0] f64: a zero beside 2^63 bytes", AXIAL_F64, 2, {P2(60), 0}, false},
    {"[1, 2^61, 1] u32: 2^63 bytes between ones", AXIAL_U32, 3, {1, P2(61), 1}, false},
};

/* Shapes at the limit with a zero dimension: valid, empty, nothing touched. */
static const overflow_case empty_limits[] = {
    {"[INT64_MAX, 0] i8: 2^63 - 1 bytes beside the zero", AXIAL_I8, 2, {INT64_MAX, 0}, false},
    {"[2^60 - 1, 0] f64: 2^63 - 8 bytes", AXIAL_F64, 2, {P2(60) - 1, 0}, false},
    {"[0, 2^61 - 1] u32", AXIAL_U32, 2, {0, P2(61) - 1}, false},
};

static void shape_overflow(ax_t *t) {
    const size_t page = 4096 > (size_t)sysconf(_SC_PAGESIZE) ? 4096 : (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *none = mmap(NULL, 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!AX_CHECK(t, none != MAP_FAILED, "mmap of two PROT_NONE pages failed")) return;
    void *x = none, *y = none + page;
    char what[192] = "";
    ax_fault_watch("# status_shape: the library touched x or y in ", what);
    const int64_t ax_last[1] = {-1}, ax_both[2] = {0, -1}, sh1[1] = {1}, sh2[2] = {3, -5};
    for (size_t i = 0; i < sizeof overflows / sizeof *overflows; i++) {
        const overflow_case *c = &overflows[i];
        const size_t r = c->rank;
        /* the sums refuse BOOL first (AXIAL_E_DTYPE): they get u8 instead */
        const axial_dtype sdt = c->dt == AXIAL_BOOL ? AXIAL_U8 : c->dt;
#define EXPECT_SHAPE(call, label)                                                          \
    do {                                                                                   \
        snprintf(what, sizeof what, "%s: %s", label, c->what);                             \
        expect(t, call, AXIAL_E_SHAPE, "too large", what);                                 \
    } while (0)
        EXPECT_SHAPE(axial_cumsum(sdt, x, y, r, c->shape, 0, 0), "cumsum axis 0");
        EXPECT_SHAPE(axial_cumsum(sdt, x, y, r, c->shape, -1, 3), "cumsum axis -1 flags 3");
        EXPECT_SHAPE(axial_cumsum(sdt, y, y, r, c->shape, -1, 0), "cumsum in place");
        /* shape values are checked before the axis, the flags and the buffers */
        EXPECT_SHAPE(axial_cumsum(sdt, x, y, r, c->shape, 99, 0x40), "cumsum bad axis, flags");
        EXPECT_SHAPE(axial_cumsum(sdt, NULL, NULL, r, c->shape, 0, 0), "cumsum NULL x, y");
        EXPECT_SHAPE(axial_reduce_sum(sdt, x, y, r, c->shape, ax0, 1, 0), "reduce axis 0");
        EXPECT_SHAPE(axial_reduce_sum(sdt, x, y, r, c->shape, ax_last, 1, AXIAL_REDUCE_KEEP_DIMS),
                     "reduce axis -1 keep_dims");
        EXPECT_SHAPE(axial_reduce_sum(sdt, x, y, r, c->shape, ax_both, 2, 0), "reduce axes {0, -1}");
        EXPECT_SHAPE(axial_reduce_sum(sdt, x, y, r, c->shape, NULL, 0, 0), "reduce identity");
        EXPECT_SHAPE(axial_reduce_sum(sdt, x, y, r, c->shape, NULL, 0, AXIAL_REDUCE_EMPTY_AXES_ALL),
                     "reduce all (empty axes)");
        EXPECT_SHAPE(axial_reduce_sum(sdt, x, x, r, c->shape, ax0, 1, 0), "reduce y == x");
        EXPECT_SHAPE(axial_roll(c->dt, x, y, r, c->shape, sh1, 1, ax0, 1), "roll axis 0");
        EXPECT_SHAPE(axial_roll(c->dt, x, y, r, c->shape, sh2, 2, ax_both, 2),
                     "roll axes {0, -1}");
        EXPECT_SHAPE(axial_roll(c->dt, x, y, r, c->shape, sh1, 1, NULL, 0), "flat roll");
        EXPECT_SHAPE(axial_roll(c->dt, y, y, r, c->shape, sh1, 1, NULL, 0), "flat roll in place");
        /* the log-space ops take floats: the float type of the same size
         * (f16 for the 1-byte cases, whose element counts overflow anyway) */
        const size_t es = c->dt == AXIAL_F64 || c->dt == AXIAL_I64 || c->dt == AXIAL_U64 ? 8
                          : c->dt == AXIAL_F32 || c->dt == AXIAL_I32 || c->dt == AXIAL_U32 ? 4
                                                                                          : 2;
        const axial_dtype fdt = es == 8 ? AXIAL_F64 : es == 4 ? AXIAL_F32 : AXIAL_F16;
        EXPECT_SHAPE(axial_logcumsumexp(fdt, x, y, r, c->shape, 0, 0), "logcumsumexp axis 0");
        EXPECT_SHAPE(axial_logcumsumexp(fdt, y, y, r, c->shape, -1, 3),
                     "logcumsumexp in place, flags 3");
        EXPECT_SHAPE(axial_logcumsumexp(fdt, NULL, NULL, r, c->shape, 99, 0x40),
                     "logcumsumexp NULL x, y, bad axis, flags");
        EXPECT_SHAPE(axial_reduce_logsumexp(fdt, x, y, r, c->shape, ax0, 1, 0),
                     "reduce_logsumexp axis 0");
        EXPECT_SHAPE(axial_reduce_logsumexp(fdt, x, y, r, c->shape, ax_both, 2,
                                            AXIAL_REDUCE_KEEP_DIMS),
                     "reduce_logsumexp axes {0, -1} keep_dims");
        EXPECT_SHAPE(axial_reduce_logsumexp(fdt, x, y, r, c->shape, NULL, 0, 0),
                     "reduce_logsumexp identity");
        EXPECT_SHAPE(axial_reduce_logsumexp(fdt, x, x, r, c->shape, NULL, 0,
                                            AXIAL_REDUCE_EMPTY_AXES_ALL),
                     "reduce_logsumexp all (empty axes), y == x");
#undef EXPECT_SHAPE
        /* The shape query has no dtype: it refuses an element count that
         * overflows, and answers for one that overflows only in bytes. */
        size_t orank = 99;
        int64_t oshape[4] = {-7, -7, -7, -7};
        axial_status st = axial_reduce_sum_shape(r, c->shape, ax0, 1, 0, &orank, oshape);
        snprintf(what, sizeof what, "reduce_sum_shape axis 0: %s", c->what);
        if (c->count_overflows) {
            expect(t, st, AXIAL_E_SHAPE, "too large", what);
            AX_CHECK(t, orank == 99 && oshape[0] == -7, "%s: out_rank / out_shape written", what);
        } else {
            AX_CHECK(t, st == AXIAL_OK && orank == r - 1 && (r < 2 || oshape[0] == c->shape[1]),
                     "%s: %s, out_rank %zu (the count fits: a valid shape for 1-byte types)",
                     what, axial_status_name(st), orank);
        }
        st = axial_reduce_sum_shape(r, c->shape, NULL, 0, AXIAL_REDUCE_EMPTY_AXES_ALL |
                                    AXIAL_REDUCE_KEEP_DIMS, &orank, oshape);
        if (c->count_overflows) {
            snprintf(what, sizeof what, "reduce_sum_shape all axes: %s", c->what);
            expect(t, st, AXIAL_E_SHAPE, "too large", what);
        }
    }
    /* empty shapes at the limit: accepted, nothing touched */
    for (size_t i = 0; i < sizeof empty_limits / sizeof *empty_limits; i++) {
        const overflow_case *c = &empty_limits[i];
        /* reduced over the non-zero axis, so that the output keeps the 0 */
        const int64_t *big_axis = c->shape[0] == 0 ? ax_last : ax0;
        axial_status st;
#define EXPECT_OK(call, label)                                                             \
    do {                                                                                   \
        snprintf(what, sizeof what, "%s: %s", label, c->what);                             \
        st = call;                                                                         \
        AX_CHECK(t, st == AXIAL_OK, "%s: %s (%s)", what, axial_status_name(st),            \
                 axial_last_error());                                                      \
    } while (0)
        EXPECT_OK(axial_cumsum(c->dt, x, y, c->rank, c->shape, 0, 0), "cumsum axis 0");
        EXPECT_OK(axial_cumsum(c->dt, y, y, c->rank, c->shape, -1, 3), "cumsum in place");
        EXPECT_OK(axial_reduce_sum(c->dt, x, y, c->rank, c->shape, big_axis, 1,
                                   AXIAL_REDUCE_KEEP_DIMS), "reduce over the non-zero axis");
        EXPECT_OK(axial_roll(c->dt, x, y, c->rank, c->shape, sh2, 2, ax_both, 2), "roll");
        EXPECT_OK(axial_roll(c->dt, y, y, c->rank, c->shape, sh1, 1, NULL, 0),
                  "flat roll in place");
        if (c->dt == AXIAL_F64 || c->dt == AXIAL_U32) { /* a float type of the same size */
            const axial_dtype fdt = c->dt == AXIAL_U32 ? AXIAL_F32 : c->dt;
            EXPECT_OK(axial_logcumsumexp(fdt, x, y, c->rank, c->shape, 0, 0),
                      "logcumsumexp axis 0");
            EXPECT_OK(axial_logcumsumexp(fdt, y, y, c->rank, c->shape, -1, 3),
                      "logcumsumexp in place");
            EXPECT_OK(axial_reduce_logsumexp(fdt, x, y, c->rank, c->shape, big_axis, 1,
                                             AXIAL_REDUCE_KEEP_DIMS),
                      "reduce_logsumexp over the non-zero axis");
        }
#undef EXPECT_OK
    }
    ax_fault_unwatch();
    munmap(none, 2 * page);
}

void t_status_shape(ax_t *t) {
    begin();
    const int64_t neg[2] = {2, -3}, huge[2] = {INT64_MAX, 2}, big3[3] = {1 << 30, 1 << 30, 0};
    const int64_t over[3] = {(int64_t)1 << 31, (int64_t)1 << 31, (int64_t)1 << 2};
    expect(t, axial_cumsum(AXIAL_F32, xin, out.p, 2, neg, 0, 0), AXIAL_E_SHAPE, "-3",
           "cumsum negative dim");
    expect(t, axial_cumsum(AXIAL_F32, xin, out.p, 2, huge, 0, 0), AXIAL_E_SHAPE,
           "too large", "cumsum INT64_MAX dim");
    expect(t, axial_cumsum(AXIAL_F32, xin, out.p, 3, over, 0, 0), AXIAL_E_SHAPE,
           "too large", "cumsum 2^64 bytes");
    expect(t, axial_reduce_sum(AXIAL_F64, xin, out.p, 2, neg, ax0, 1, 0), AXIAL_E_SHAPE, "-3",
           "reduce negative dim");
    size_t r;
    int64_t os[3];
    expect(t, axial_reduce_sum_shape(2, neg, ax0, 1, 0, &r, os), AXIAL_E_SHAPE, "-3",
           "reduce_shape negative dim");
    expect(t, axial_roll(AXIAL_I8, xin, out.p, 2, huge, one, 1, ax0, 1), AXIAL_E_SHAPE,
           "too large", "roll INT64_MAX dim");
    expect(t, axial_roll(AXIAL_I8, xin, out.p, 2, neg, one, 1, NULL, 0), AXIAL_E_SHAPE, "-3",
           "flat roll negative dim");
    expect(t, axial_logcumsumexp(AXIAL_F32, xin, out.p, 2, neg, 0, 0), AXIAL_E_SHAPE, "-3",
           "logcumsumexp negative dim");
    expect(t, axial_logcumsumexp(AXIAL_BF16, xin, out.p, 2, huge, 0, 0), AXIAL_E_SHAPE,
           "too large", "logcumsumexp INT64_MAX dim");
    expect(t, axial_reduce_logsumexp(AXIAL_F64, xin, out.p, 2, neg, ax0, 1, 0), AXIAL_E_SHAPE,
           "-3", "reduce_logsumexp negative dim");
    expect(t, axial_reduce_logsumexp(AXIAL_F16, xin, out.p, 3, over, ax0, 1, 0), AXIAL_E_SHAPE,
           "too large", "reduce_logsumexp 2^64 bytes");
    /* a zero dimension does not excuse an overflowing shape... */
    const int64_t zhuge[3] = {INT64_MAX, 4, 0};
    expect(t, axial_cumsum(AXIAL_F32, NULL, NULL, 3, zhuge, 0, 0), AXIAL_E_SHAPE, "too large",
           "cumsum overflow beside a 0");
    /* ...but a large empty one is fine */
    axial_status st = axial_cumsum(AXIAL_F32, NULL, NULL, 3, big3, 0, 0);
    AX_CHECK(t, st == AXIAL_OK, "[2^30, 2^30, 0]: %s (%s)", axial_status_name(st),
             axial_last_error());
    st = axial_logcumsumexp(AXIAL_F32, NULL, NULL, 3, big3, 1, 0);
    AX_CHECK(t, st == AXIAL_OK, "logcumsumexp [2^30, 2^30, 0]: %s (%s)", axial_status_name(st),
             axial_last_error());
    shape_overflow(t); /* expect() checks `out` too */
    ax_buf_free(&out);
}

void t_status_axis(ax_t *t) {
    begin();
    expect(t, axial_cumsum(AXIAL_F32, xin, out.p, 2, s2x3, 2, 0), AXIAL_E_AXIS, "axis 2",
           "cumsum axis 2 of rank 2");
    expect(t, axial_cumsum(AXIAL_F32, xin, out.p, 2, s2x3, -3, 0), AXIAL_E_AXIS, "axis -3",
           "cumsum axis -3 of rank 2");
    expect(t, axial_cumsum(AXIAL_F32, xin, out.p, 2, s2x3, INT64_MIN, 0), AXIAL_E_AXIS,
           "-9223372036854775808", "cumsum axis INT64_MIN");
    const int64_t a5[2] = {0, 5}, am3[1] = {-3};
    expect(t, axial_reduce_sum(AXIAL_F32, xin, out.p, 2, s2x3, a5, 2, 0), AXIAL_E_AXIS,
           "axis 5", "reduce axis 5");
    expect(t, axial_reduce_sum(AXIAL_F32, xin, out.p, 2, s2x3, am3, 1, 0), AXIAL_E_AXIS,
           "axis -3", "reduce axis -3");
    size_t r;
    int64_t os[3];
    expect(t, axial_reduce_sum_shape(2, s2x3, a5, 2, 0, &r, os), AXIAL_E_AXIS, "axis 5",
           "reduce_shape axis 5");
    float s = 1;
    expect(t, axial_reduce_sum(AXIAL_F32, &s, out.p, 0, NULL, ax0, 1, 0), AXIAL_E_AXIS,
           "axis 0", "reduce rank 0 with axis 0");
    const int64_t sh2[2] = {1, 1}, a12[2] = {1, 2};
    expect(t, axial_roll(AXIAL_F32, xin, out.p, 2, s2x3, sh2, 2, a12, 2), AXIAL_E_AXIS,
           "axis 2", "roll axis 2");
    expect(t, axial_logcumsumexp(AXIAL_F32, xin, out.p, 2, s2x3, 2, 0), AXIAL_E_AXIS, "axis 2",
           "logcumsumexp axis 2 of rank 2");
    expect(t, axial_logcumsumexp(AXIAL_F16, xin, out.p, 2, s2x3, -3, 0), AXIAL_E_AXIS,
           "axis -3", "logcumsumexp axis -3 of rank 2");
    expect(t, axial_logcumsumexp(AXIAL_F32, xin, out.p, 2, s2x3, INT64_MIN, 0), AXIAL_E_AXIS,
           "-9223372036854775808", "logcumsumexp axis INT64_MIN");
    expect(t, axial_reduce_logsumexp(AXIAL_F32, xin, out.p, 2, s2x3, a5, 2, 0), AXIAL_E_AXIS,
           "axis 5", "reduce_logsumexp axis 5");
    expect(t, axial_reduce_logsumexp(AXIAL_BF16, xin, out.p, 2, s2x3, am3, 1, 0), AXIAL_E_AXIS,
           "axis -3", "reduce_logsumexp axis -3");
    expect(t, axial_reduce_logsumexp(AXIAL_F32, &s, out.p, 0, NULL, ax0, 1, 0), AXIAL_E_AXIS,
           "axis 0", "reduce_logsumexp rank 0 with axis 0");
    ax_buf_free(&out);
}

void t_status_args(ax_t *t) {
    begin();
    expect(t, axial_cumsum(AXIAL_F32, xin, out.p, 1, s6, 0, 4), AXIAL_E_ARGS, "0x4",
           "cumsum flag 4");
    expect(t, axial_cumsum(AXIAL_F32, xin, out.p, 1, s6, 0, 0x80000003u), AXIAL_E_ARGS,
           "0x80000000", "cumsum flag bit 31");
    expect(t, axial_reduce_sum(AXIAL_F32, xin, out.p, 1, s6, ax0, 1, 8), AXIAL_E_ARGS, "0x8",
           "reduce flag 8");
    expect(t, axial_logcumsumexp(AXIAL_F32, xin, out.p, 1, s6, 0, 4), AXIAL_E_ARGS, "0x4",
           "logcumsumexp flag 4");
    expect(t, axial_logcumsumexp(AXIAL_F64, xin, out.p, 1, s6, 0, 0x80000003u), AXIAL_E_ARGS,
           "0x80000000", "logcumsumexp flag bit 31");
    expect(t, axial_reduce_logsumexp(AXIAL_F32, xin, out.p, 1, s6, ax0, 1, 8), AXIAL_E_ARGS,
           "0x8", "reduce_logsumexp flag 8");
    expect(t, axial_reduce_logsumexp(AXIAL_F16, xin, out.p, 1, s6, NULL, 0, 0x10), AXIAL_E_ARGS,
           "0x10", "reduce_logsumexp flag 0x10, no axes");
    size_t r;
    int64_t os[2];
    expect(t, axial_reduce_sum_shape(1, s6, ax0, 1, 4, &r, os), AXIAL_E_ARGS, "0x4",
           "reduce_shape flag 4");
    const int64_t sh3[3] = {1, 2, 3}, ax01[2] = {0, 1};
    expect(t, axial_roll(AXIAL_F32, xin, out.p, 2, s2x3, sh3, 0, ax01, 2), AXIAL_E_ARGS,
           "nshift is 0", "roll nshift 0");
    expect(t, axial_roll(AXIAL_F32, xin, out.p, 2, s2x3, sh3, 3, ax01, 2), AXIAL_E_ARGS,
           "nshift 3", "roll nshift 3 naxes 2");
    expect(t, axial_roll(AXIAL_F32, xin, out.p, 2, s2x3, sh3, 2, NULL, 0), AXIAL_E_ARGS,
           "nshift 2", "flat roll nshift 2");
    ax_buf_free(&out);
}

void t_status_overlap(ax_t *t) {
    begin();
    /* x inside the output buffer, shifted by one element: partial overlap */
    float *buf = (float *)(void *)out.p;
    for (int i = 0; i < 8; i++) buf[i] = (float)i;
    ax_buf copy;
    ax_buf_alloc(&copy, out.bytes, 0);
    memcpy(copy.p, out.p, out.bytes);
#define UNCHANGED(what)                                                                    \
    AX_CHECK(t, memcmp(copy.p, out.p, out.bytes) == 0 && ax_buf_canary_ok(&out),           \
             "%s: the buffers were written", what)
    axial_status st = axial_cumsum(AXIAL_F32, buf, buf + 1, 1, s6, 0, 0);
    AX_CHECK(t, st == AXIAL_E_OVERLAP && strstr(axial_last_error(), "overlap"),
             "cumsum y = x + 1: %s (%s)", axial_status_name(st), axial_last_error());
    UNCHANGED("cumsum y = x + 1");
    st = axial_cumsum(AXIAL_F32, buf + 5, buf, 1, s6, 0, 0);
    AX_CHECK(t, st == AXIAL_E_OVERLAP, "cumsum x = y + 5: %s", axial_status_name(st));
    UNCHANGED("cumsum x = y + 5");
    st = axial_roll(AXIAL_F32, buf, buf + 2, 1, s6, one, 1, ax0, 1);
    AX_CHECK(t, st == AXIAL_E_OVERLAP, "roll y = x + 2: %s", axial_status_name(st));
    UNCHANGED("roll y = x + 2");
    /* a different type over the same bytes: same start, different sizes */
    st = axial_roll(AXIAL_I8, out.p + 1, out.p, 1, s6, one, 1, ax0, 1);
    AX_CHECK(t, st == AXIAL_E_OVERLAP, "roll i8 y = x - 1: %s", axial_status_name(st));
    UNCHANGED("roll i8 y = x - 1");
    /* reduce: y must not overlap x at all, not even exactly */
    st = axial_reduce_sum(AXIAL_F32, buf, buf, 1, s6, NULL, 0, 0);
    AX_CHECK(t, st == AXIAL_E_OVERLAP, "reduce identity y == x: %s", axial_status_name(st));
    UNCHANGED("reduce y == x");
    const int64_t s23[2] = {2, 3}, a1[1] = {1};
    st = axial_reduce_sum(AXIAL_F32, buf, buf + 4, 2, s23, a1, 1, 0);
    AX_CHECK(t, st == AXIAL_E_OVERLAP, "reduce y inside x: %s", axial_status_name(st));
    UNCHANGED("reduce y inside x");
    /* the log-space ops: LogCumSumExp as CumSum (in place allowed, partial
     * overlap refused), ReduceLogSumExp as ReduceSum (any overlap refused) */
    st = axial_logcumsumexp(AXIAL_F32, buf, buf + 1, 1, s6, 0, 0);
    AX_CHECK(t, st == AXIAL_E_OVERLAP && strstr(axial_last_error(), "overlap"),
             "logcumsumexp y = x + 1: %s (%s)", axial_status_name(st), axial_last_error());
    UNCHANGED("logcumsumexp y = x + 1");
    st = axial_logcumsumexp(AXIAL_F32, buf + 5, buf, 1, s6, 0, 3);
    AX_CHECK(t, st == AXIAL_E_OVERLAP, "logcumsumexp x = y + 5: %s", axial_status_name(st));
    UNCHANGED("logcumsumexp x = y + 5");
    st = axial_logcumsumexp(AXIAL_F16, out.p + 2, out.p, 1, s6, 0, 0);
    AX_CHECK(t, st == AXIAL_E_OVERLAP, "logcumsumexp f16 y = x - 1: %s", axial_status_name(st));
    UNCHANGED("logcumsumexp f16 y = x - 1");
    st = axial_reduce_logsumexp(AXIAL_F32, buf, buf, 1, s6, NULL, 0, 0);
    AX_CHECK(t, st == AXIAL_E_OVERLAP && strstr(axial_last_error(), "overlap"),
             "reduce_logsumexp identity y == x: %s (%s)", axial_status_name(st),
             axial_last_error());
    UNCHANGED("reduce_logsumexp y == x");
    st = axial_reduce_logsumexp(AXIAL_F32, buf, buf + 4, 2, s23, a1, 1, 0);
    AX_CHECK(t, st == AXIAL_E_OVERLAP, "reduce_logsumexp y inside x: %s", axial_status_name(st));
    UNCHANGED("reduce_logsumexp y inside x");
    st = axial_reduce_logsumexp(AXIAL_F32, buf, buf, 1, s6, ax0, 1, 0);
    AX_CHECK(t, st == AXIAL_E_OVERLAP, "reduce_logsumexp full, y == x: %s",
             axial_status_name(st));
    UNCHANGED("reduce_logsumexp full, y == x");
    /* LogCumSumExp in place: [0, 0, 0] -> [0, ln 2, ln 3] (the header's example) */
    float lz[3] = {0, 0, 0};
    const int64_t s3[1] = {3};
    st = axial_logcumsumexp(AXIAL_F32, lz, lz, 1, s3, 0, 0);
    AX_CHECK(t, st == AXIAL_OK && fabsf(lz[0]) <= 2e-6f && fabsf(lz[1] - 0.69314718f) <= 2e-6f &&
                    fabsf(lz[2] - 1.09861229f) <= 2e-6f, /* within the documented bound */
             "logcumsumexp in place: %s, [%g, %g, %g]", axial_status_name(st), (double)lz[0],
             (double)lz[1], (double)lz[2]);
    /* adjacent is not overlapping */
    st = axial_cumsum(AXIAL_F32, buf, buf + 6, 1, s6, 0, 0);
    AX_CHECK(t, st == AXIAL_OK && buf[6 + 5] == 15, "cumsum into the adjacent bytes: %s",
             axial_status_name(st));
#undef UNCHANGED
    ax_buf_free(&copy);
    ax_buf_free(&out);
}

void t_status_isa(ax_t *t) {
    axial_isa before = axial_isa_active();
    unsigned avail = axial_isa_available();
    for (int isa = 0; isa < 4; isa++) {
        axial_status st = axial_isa_select((axial_isa)isa);
        if (avail & (1u << isa)) {
            AX_CHECK(t, st == AXIAL_OK && axial_isa_active() == (axial_isa)isa,
                     "select available %s: %s", axial_isa_name((axial_isa)isa),
                     axial_status_name(st));
        } else {
            AX_CHECK(t, st == AXIAL_E_ISA && strstr(axial_last_error(),
                                                    axial_isa_name((axial_isa)isa)),
                     "select unavailable %s: %s (%s)", axial_isa_name((axial_isa)isa),
                     axial_status_name(st), axial_last_error());
        }
    }
    axial_isa_select(before);
    axial_status st = axial_isa_select((axial_isa)7);
    AX_CHECK(t, st == AXIAL_E_ISA && strstr(axial_last_error(), "7"),
             "select 7: %s (%s)", axial_status_name(st), axial_last_error());
    st = axial_isa_select((axial_isa)-1);
    AX_CHECK(t, st == AXIAL_E_ISA && axial_isa_active() == before, "select -1: %s",
             axial_status_name(st));
}

/* AXIAL_E_NOMEM: an in-place roll copies x to a temporary; a tensor larger
 * than RAM + swap (reserved, never touched) makes that allocation fail
 * under Linux's default overcommit heuristic. */
static int nomem_tasks; /* parallel_for calls of the executor below (none may come) */
static void nomem_parallel_for(void *self, axial_task_fn fn, void *arg, size_t n) {
    (void)self, (void)fn, (void)arg, (void)n;
    nomem_tasks++;
}

void t_status_nomem(ax_t *t) {
    const int mode = ax_overcommit_mode();
    if (mode != 0 && mode != 2) {
        ax_skip(t, "needs vm.overcommit_memory 0 or 2 (it is %d)", mode);
        return;
    }
    const unsigned long long total_kb = ax_meminfo_kb("MemTotal") + ax_meminfo_kb("SwapTotal");
    size_t bytes = (size_t)(total_kb * 1024ull * 2 + (1ull << 30));
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        ax_skip(t, "cannot reserve %zu bytes of address space", bytes);
        return;
    }
    const int64_t shape[1] = {(int64_t)bytes};
    axial_status st = axial_roll(AXIAL_U8, p, p, 1, shape, one, 1, ax0, 1);
    AX_CHECK(t, st == AXIAL_E_NOMEM && strstr(axial_last_error(), "byte"),
             "in-place roll of %zu bytes: %s (%s)", bytes, axial_status_name(st),
             axial_last_error());
    munmap(p, bytes);
    /* ReduceSum over two non-adjacent axis groups sums into an 8-byte-per-output
     * accumulator: [2, m, 2] u8 over axes {0, 2} needs 8m bytes of it (x is 4m
     * bytes, reserved and untouched; y m bytes). */
    const size_t m = bytes / 8 + 1; /* the accumulator alone exceeds RAM + swap */
    void *rx = mmap(NULL, 4 * m, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    void *ry = mmap(NULL, m, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (rx == MAP_FAILED || ry == MAP_FAILED) {
        ax_skip(t, "cannot reserve %zu bytes for the ReduceSum case", 5 * m);
    } else {
        const int64_t s3[3] = {2, (int64_t)m, 2}, a02[2] = {0, 2};
        st = axial_reduce_sum(AXIAL_U8, rx, ry, 3, s3, a02, 2, 0);
        AX_CHECK(t, st == AXIAL_E_NOMEM && strstr(axial_last_error(), "accumulator"),
                 "reduce_sum u8 [2, %zu, 2] axes {0, 2}: %s (%s)", m, axial_status_name(st),
                 axial_last_error());
    }
    if (rx != MAP_FAILED) munmap(rx, 4 * m);
    if (ry != MAP_FAILED) munmap(ry, m);
    /* ReduceLogSumExp the same way: [2, m2, 2] f16 over {0, 2} sums into a
     * 16-byte state per output (16 m2 bytes: more than RAM + swap; x 8 m2
     * bytes, y 2 m2, reserved and untouched), plain and _ex (no task runs). */
    const size_t m2 = bytes / 16 + 1;
    rx = mmap(NULL, 8 * m2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ry = mmap(NULL, 2 * m2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (rx == MAP_FAILED || ry == MAP_FAILED) {
        ax_skip(t, "cannot reserve %zu bytes for the ReduceLogSumExp case", 10 * m2);
    } else {
        const int64_t s3[3] = {2, (int64_t)m2, 2}, a02[2] = {0, 2};
        st = axial_reduce_logsumexp(AXIAL_F16, rx, ry, 3, s3, a02, 2, 0);
        AX_CHECK(t, st == AXIAL_E_NOMEM && strstr(axial_last_error(), "accumulator") &&
                        strstr(axial_last_error(), "axial_reduce_logsumexp"),
                 "reduce_logsumexp f16 [2, %zu, 2] axes {0, 2}: %s (%s)", m2,
                 axial_status_name(st), axial_last_error());
        nomem_tasks = 0;
        const axial_executor ex = {nomem_parallel_for, NULL, 4};
        st = axial_reduce_logsumexp_ex(AXIAL_F16, rx, ry, 3, s3, a02, 2, 0, &ex);
        AX_CHECK(t, st == AXIAL_E_NOMEM && nomem_tasks == 0,
                 "reduce_logsumexp_ex f16 [2, %zu, 2] axes {0, 2}: %s (%s), %d parallel_for "
                 "calls", m2, axial_status_name(st), axial_last_error(), nomem_tasks);
    }
    if (rx != MAP_FAILED) munmap(rx, 8 * m2);
    if (ry != MAP_FAILED) munmap(ry, 2 * m2);
    /* ReduceSum_ex of [2, m] f16 axis 0 in column tiles (src/reduce.c) sums
     * into an 8-byte-per-output buffer: 8m bytes (x 4m, y 2m, reserved).
     * Only where the active table has reduce_cols (otherwise the call would
     * really sum the 4m bytes): axial-tap-refsplit runs it with the
     * reference kernels plugged in. */
    if (AXIAL_SPLIT_COLUMN_TILES == 0) {
        ax_note(t, "the column tiles are off (AXIAL_SPLIT_COLUMN_TILES 0): the column-tile case is not run");
        return;
    } else if (axial__kernels()->reduce_cols[AXIAL_F16] == NULL) {
        ax_note(t, "the active ISA has no reduce_cols for f16: the column-tile case is not run");
        return;
    }
    rx = mmap(NULL, 4 * m, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ry = mmap(NULL, 2 * m, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (rx == MAP_FAILED || ry == MAP_FAILED) {
        ax_skip(t, "cannot reserve %zu bytes for the ReduceSum tiles case", 6 * m);
    } else {
        const int64_t s2[2] = {2, (int64_t)m}, a0[1] = {0};
        nomem_tasks = 0;
        const axial_executor ex = {nomem_parallel_for, NULL, 4};
        st = axial_reduce_sum_ex(AXIAL_F16, rx, ry, 2, s2, a0, 1, 0, &ex);
        AX_CHECK(t, st == AXIAL_E_NOMEM && strstr(axial_last_error(), "accumulator") &&
                        nomem_tasks == 0,
                 "reduce_sum_ex f16 [2, %zu] axis 0: %s (%s), %d parallel_for calls", m,
                 axial_status_name(st), axial_last_error(), nomem_tasks);
    }
    if (rx != MAP_FAILED) munmap(rx, 4 * m);
    if (ry != MAP_FAILED) munmap(ry, 2 * m);
}

void t_status_names(ax_t *t) {
    static const char *names[] = {"AXIAL_OK",     "AXIAL_E_NULL",  "AXIAL_E_DTYPE",
                                  "AXIAL_E_RANK", "AXIAL_E_SHAPE", "AXIAL_E_AXIS",
                                  "AXIAL_E_ARGS", "AXIAL_E_OVERLAP", "AXIAL_E_ISA",
                                  "AXIAL_E_NOMEM"};
    for (int s = 0; s < 10; s++) {
        const char *n = axial_status_name((axial_status)s);
        AX_CHECK(t, n && strstr(n, names[s] + 6), "status %d is named \"%s\"", s,
                 n ? n : "(null)");
    }
    const char *n = axial_status_name((axial_status)42);
    AX_CHECK(t, n != NULL && *n, "status 42 has a printable name");
    /* the enum values are ABI */
    AX_CHECK(t, AXIAL_E_NULL == 1 && AXIAL_E_DTYPE == 2 && AXIAL_E_RANK == 3 &&
                    AXIAL_E_SHAPE == 4 && AXIAL_E_AXIS == 5 && AXIAL_E_ARGS == 6 &&
                    AXIAL_E_OVERLAP == 7 && AXIAL_E_ISA == 8 && AXIAL_E_NOMEM == 9,
             "status values");
    AX_CHECK(t, AXIAL_F32 == 1 && AXIAL_F64 == 2 && AXIAL_F16 == 3 && AXIAL_BF16 == 4 &&
                    AXIAL_I8 == 5 && AXIAL_U8 == 6 && AXIAL_I16 == 7 && AXIAL_U16 == 8 &&
                    AXIAL_I32 == 9 && AXIAL_U32 == 10 && AXIAL_I64 == 11 && AXIAL_U64 == 12 &&
                    AXIAL_BOOL == 13,
             "dtype values");
    AX_CHECK(t, AXIAL_CUMSUM_EXCLUSIVE == 1 && AXIAL_CUMSUM_REVERSE == 2 &&
                    AXIAL_REDUCE_KEEP_DIMS == 1 && AXIAL_REDUCE_EMPTY_AXES_ALL == 2,
             "flag values");
    /* a successful call does not clear the message; a failing one sets it */
    axial_cumsum(AXIAL_F32, xin, NULL, 1, s6, 9, 0);
    AX_CHECK(t, strstr(axial_last_error(), "axis 9") != NULL, "message: %s",
             axial_last_error());
}

void t_isa_api(ax_t *t) {
    static const char *names[4] = {"scalar", "avx2", "avx512", "neon"};
    for (int i = 0; i < 4; i++)
        AX_CHECK(t, strcmp(axial_isa_name((axial_isa)i), names[i]) == 0, "isa name %d: %s", i,
                 axial_isa_name((axial_isa)i));
    AX_CHECK(t, strcmp(axial_isa_name((axial_isa)9), "unknown") == 0, "isa name 9");
    unsigned avail = axial_isa_available();
    AX_CHECK(t, avail & 1u, "scalar is always available (mask 0x%x)", avail);
    AX_CHECK(t, (avail & ~0xfu) == 0, "mask 0x%x has no unknown bits", avail);
#if defined(__x86_64__) || defined(__i386__)
    AX_CHECK(t, !(avail & (1u << AXIAL_ISA_NEON)), "no NEON on x86 (mask 0x%x)", avail);
#elif defined(__aarch64__)
    AX_CHECK(t, !(avail & 6u), "no AVX on aarch64 (mask 0x%x)", avail);
#endif
    AX_CHECK(t, avail & (1u << axial_isa_active()), "active %s is available",
             axial_isa_name(axial_isa_active()));

    /* The default's per-op choice (axial__tuning) on the CPUs it knows: Zen 4
     * (AMD family 0x19 with AVX-512) runs CumSum and ReduceSum on AVX2; Zen 5,
     * Intel, and every CPU without AVX-512 run everything on the best ISA. */
    static const struct {
        const char *cpu;
        bool amd;
        unsigned family, mask, best, cumsum, reduce;
        bool tuned;
    } rule[] = {
        {"AMD family 0x19 with AVX-512 (Zen 4)", true, 0x19, 0x7, AXIAL_ISA_AVX512,
         AXIAL_ISA_AVX2, AXIAL_ISA_AVX2, true},
        {"AMD family 0x19 without AVX-512 (Zen 3)", true, 0x19, 0x3, AXIAL_ISA_AVX2,
         AXIAL_ISA_AVX2, AXIAL_ISA_AVX2, false},
        {"AMD family 0x1a (Zen 5)", true, 0x1a, 0x7, AXIAL_ISA_AVX512, AXIAL_ISA_AVX512,
         AXIAL_ISA_AVX512, false},
        {"Intel family 6 with AVX-512", false, 6, 0x7, AXIAL_ISA_AVX512, AXIAL_ISA_AVX512,
         AXIAL_ISA_AVX512, false},
        {"AMD family 0x19 capped to scalar", true, 0x19, 0x7, AXIAL_ISA_SCALAR,
         AXIAL_ISA_SCALAR, AXIAL_ISA_SCALAR, false},
        {"aarch64", false, 0, 0x9, AXIAL_ISA_NEON, AXIAL_ISA_NEON, AXIAL_ISA_NEON, false},
    };
    for (size_t k = 0; k < sizeof rule / sizeof rule[0]; k++) {
        unsigned char isa_of[AXIAL_NFAMILY];
        const char *why =
            axial__tuning(rule[k].amd, rule[k].family, rule[k].mask, rule[k].best, isa_of);
        AX_CHECK(t,
                 (why != NULL) == rule[k].tuned && isa_of[AXIAL_FAMILY_CUMSUM] == rule[k].cumsum &&
                     isa_of[AXIAL_FAMILY_REDUCE_SUM] == rule[k].reduce,
                 "per-op choice on %s: cumsum=%s reduce_sum=%s (%s), want %s %s", rule[k].cpu,
                 axial_isa_name((axial_isa)isa_of[AXIAL_FAMILY_CUMSUM]),
                 axial_isa_name((axial_isa)isa_of[AXIAL_FAMILY_REDUCE_SUM]),
                 why ? why : "no reason", axial_isa_name((axial_isa)rule[k].cumsum),
                 axial_isa_name((axial_isa)rule[k].reduce));
    }
}

/* A thread's own ISA (axial__isa_thread, the Python package's use_isa): in
 * force on that thread only, for the tasks it hands to a pool and the
 * streams it pushes too, and restored exactly; the process's choice stays. */
struct isa_peer {
    const float *x;
    float *y;
    int64_t n;
    axial_isa seen;
    axial_status st;
};

static void *isa_peer_main(void *arg) {
    struct isa_peer *p = arg;
    p->seen = axial_isa_active();
    p->st = axial_cumsum(AXIAL_F32, p->x, p->y, 1, &p->n, 0, 0);
    return NULL;
}

void t_isa_thread(ax_t *t) {
    enum { R = 64, L = 8192, N = R * L }; /* 2 MiB: split on the pool */
    const int64_t line[1] = {N}, rows[2] = {R, L};
    const size_t bytes = (size_t)N * sizeof(float);
    float *x = malloc(bytes), *want = malloc(bytes), *want_rows = malloc(bytes);
    float *proc_want = malloc(bytes), *y = malloc(bytes);
    axial_pool *pool = NULL;
    if (!AX_CHECK(t, x && want && want_rows && proc_want && y, "allocations") ||
        !AX_CHECK(t, axial_pool_create(2, &pool) == AXIAL_OK, "axial_pool_create"))
        goto out;
    const axial_executor *ex = axial_pool_executor(pool);
    ax_fill(t, AXIAL_F32, x, N, FILL_GENERAL);
    const int s0 = axial__isa_state();
    AX_CHECK(t, axial__isa_thread(99) == -2 && axial__isa_thread(-1) == -1,
             "a state this process cannot have is refused; none was set");
    const unsigned avail = axial_isa_available();
    for (int pass = 0; pass < 2; pass++) { /* the process on its default, then on scalar */
        const int base = pass ? (int)AXIAL_ISA_SCALAR : s0;
        axial__isa_restore(base);
        const axial_isa proc = axial_isa_active();
        axial_cumsum(AXIAL_F32, x, proc_want, 1, line, 0, 0);
        for (unsigned isa = 0; isa < 4; isa++) {
            if (!((avail >> isa) & 1u))
                continue;
            const char *name = axial_isa_name((axial_isa)isa);
            axial_isa_select((axial_isa)isa); /* the reference: the process on that ISA */
            axial_cumsum(AXIAL_F32, x, want, 1, line, 0, 0);
            axial_cumsum(AXIAL_F32, x, want_rows, 2, rows, 1, 0);
            axial__isa_restore(base);
            const int was = axial__isa_thread((int)isa);
            AX_CHECK(t, was == -1 && axial_isa_active() == (axial_isa)isa &&
                            axial__isa_state() == base,
                     "%s for this thread: active %s, the process's state %d (was %d)", name,
                     axial_isa_name(axial_isa_active()), axial__isa_state(), base);
            memset(y, 0, bytes);
            AX_CHECK(t, axial_cumsum_ex(AXIAL_F32, x, y, 1, line, 0, 0, ex) == AXIAL_OK &&
                            memcmp(y, want, bytes) == 0,
                     "a line on a pool from a thread on %s: the bits of the process on it", name);
            axial_stream *s = NULL;
            memset(y, 0, bytes);
            AX_CHECK(t, axial_stream_create(AXIAL_OP_CUMSUM, AXIAL_F32, 2, rows, 1, 0, &s) ==
                                AXIAL_OK &&
                            axial_stream_push_ex(s, AXIAL_F32, x, y, 2, rows, ex) == AXIAL_OK &&
                            memcmp(y, want_rows, bytes) == 0,
                     "a stream of rows on a pool from a thread on %s: the process's bits", name);
            axial_stream_destroy(s);
            struct isa_peer peer = {x, y, N, AXIAL_ISA_SCALAR, AXIAL_E_ARGS};
            pthread_t th;
            memset(y, 0, bytes);
            if (AX_CHECK(t, pthread_create(&th, NULL, isa_peer_main, &peer) == 0, "thread")) {
                pthread_join(th, NULL);
                AX_CHECK(t, peer.seen == proc && peer.st == AXIAL_OK &&
                                memcmp(y, proc_want, bytes) == 0,
                         "another thread meanwhile runs the process's %s (saw %s)",
                         axial_isa_name(proc), axial_isa_name(peer.seen));
            }
            AX_CHECK(t, axial__isa_thread(was) == (int)isa && axial_isa_active() == proc,
                     "the thread's choice restored: active %s, want %s",
                     axial_isa_name(axial_isa_active()), axial_isa_name(proc));
        }
    }
    axial__isa_restore(s0);
out:
    axial_pool_destroy(pool);
    free(x);
    free(want);
    free(want_rows);
    free(proc_want);
    free(y);
}

/* Every function is reentrant: threads sum and fail at the same time, each
 * with its own data and its own axial_last_error(). */
struct thr {
    int id;
    int bad;
};

static void *thr_main(void *arg) {
    struct thr *a = arg;
    int32_t x[1000], y[1000];
    for (int i = 0; i < 1000; i++) x[i] = i + a->id;
    const int64_t shape[1] = {1000};
    char want[32];
    snprintf(want, sizeof want, "axis %d ", 100 + a->id);
    for (int it = 0; it < 2000; it++) {
        if (axial_cumsum(AXIAL_I32, x, y, 1, shape, 0, 0) != AXIAL_OK ||
            y[999] != 999 * 1000 / 2 + 1000 * a->id)
            a->bad++;
        if (axial_cumsum(AXIAL_I32, x, y, 1, shape, 100 + a->id, 0) != AXIAL_E_AXIS ||
            !strstr(axial_last_error(), want))
            a->bad++;
        if (it % 100 == 0) axial_isa_select(axial_isa_active());
    }
    return NULL;
}

void t_threads(ax_t *t) {
    enum { NT = 4 };
    pthread_t th[NT];
    struct thr a[NT];
    for (int i = 0; i < NT; i++) {
        a[i].id = i;
        a[i].bad = 0;
        AX_CHECK(t, pthread_create(&th[i], NULL, thr_main, &a[i]) == 0, "pthread_create %d", i);
    }
    for (int i = 0; i < NT; i++) {
        pthread_join(th[i], NULL);
        AX_CHECK(t, a[i].bad == 0, "thread %d: %d wrong results or messages", i, a[i].bad);
    }
}
