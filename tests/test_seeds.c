/* SPDX-License-Identifier: MIT */
/* test_seeds.c: the worked examples of the operator specs (OpenVINO CumSum-3 /
 * ReduceSum-1 / Roll-7, ONNX CumSum and ReduceSum), also in docs/API.md. */
#include <string.h>

#include "harness.h"
#include "tests.h"

void t_cumsum_seeds(ax_t *t) {
    static const float x[5] = {1, 2, 3, 4, 5};
    static const float want[4][5] = {
        {1, 3, 6, 10, 15}, /* inclusive         */
        {0, 1, 3, 6, 10},  /* exclusive         */
        {15, 14, 12, 9, 5},/* reverse           */
        {14, 12, 9, 5, 0}, /* exclusive+reverse */
    };
    const int64_t shape[1] = {5};
    for (unsigned flags = 0; flags < 4; flags++) {
        float y[5] = {-1, -1, -1, -1, -1};
        axial_status st = axial_cumsum(AXIAL_F32, x, y, 1, shape, 0, flags);
        AX_CHECK(t, st == AXIAL_OK, "flags %u: status %s", flags, axial_status_name(st));
        for (int j = 0; j < 5; j++)
            AX_CHECK(t, y[j] == want[flags][j], "flags %u: y[%d] = %g, want %g", flags, j,
                     (double)y[j], (double)want[flags][j]);
        /* the same with axis -1 and as int32 */
        int32_t xi[5] = {1, 2, 3, 4, 5}, yi[5];
        st = axial_cumsum(AXIAL_I32, xi, yi, 1, shape, -1, flags);
        AX_CHECK(t, st == AXIAL_OK, "i32 flags %u: status %s", flags, axial_status_name(st));
        for (int j = 0; j < 5; j++)
            AX_CHECK(t, yi[j] == (int32_t)want[flags][j], "i32 flags %u: y[%d] = %d", flags,
                     j, yi[j]);
    }
}

void t_reduce_seeds(ax_t *t) {
    /* ReduceSum-1's examples: shape [6, 12, 10, 24] */
    const int64_t shape[4] = {6, 12, 10, 24};
    static const struct {
        int64_t axes[2];
        size_t naxes;
        unsigned flags;
        size_t rank;
        int64_t out[4];
    } ex[] = {
        {{2, 3}, 2, AXIAL_REDUCE_KEEP_DIMS, 4, {6, 12, 1, 1}},
        {{2, 3}, 2, 0, 2, {6, 12}},
        {{1}, 1, AXIAL_REDUCE_KEEP_DIMS, 4, {6, 1, 10, 24}},
        {{1}, 1, 0, 3, {6, 10, 24}},
        {{-2}, 1, AXIAL_REDUCE_KEEP_DIMS, 4, {6, 12, 1, 24}},
        {{-2}, 1, 0, 3, {6, 12, 24}},
    };
    enum { N = 6 * 12 * 10 * 24 };
    static float x[N], y[N];
    for (int i = 0; i < N; i++) x[i] = (float)(i % 7) - 3.0f;
    for (size_t e = 0; e < sizeof ex / sizeof *ex; e++) {
        size_t r = 99;
        int64_t out[4] = {-1, -1, -1, -1};
        axial_status st = axial_reduce_sum_shape(4, shape, ex[e].axes, ex[e].naxes,
                                                 ex[e].flags, &r, out);
        AX_CHECK(t, st == AXIAL_OK && r == ex[e].rank, "example %zu: status %s rank %zu", e,
                 axial_status_name(st), r);
        for (size_t k = 0; k < ex[e].rank; k++)
            AX_CHECK(t, out[k] == ex[e].out[k], "example %zu: out_shape[%zu] = %lld, want %lld",
                     e, k, (long long)out[k], (long long)ex[e].out[k]);
        /* values, every example: against a direct loop over the 4-D index
         * (small integers: every order of summation gives the exact sum) */
        for (int i = 0; i < N; i++) y[i] = -999.0f;
        st = axial_reduce_sum(AXIAL_F32, x, y, 4, shape, ex[e].axes, ex[e].naxes, ex[e].flags);
        AX_CHECK(t, st == AXIAL_OK, "example %zu: status %s", e, axial_status_name(st));
        bool red[4] = {false, false, false, false};
        for (size_t k = 0; k < ex[e].naxes; k++) red[(ex[e].axes[k] + 4) % 4] = true;
        static double want[N];
        size_t nout = 1;
        for (int d = 0; d < 4; d++) nout *= red[d] ? 1 : (size_t)shape[d];
        for (size_t o = 0; o < nout; o++) want[o] = 0;
        for (int i = 0; i < N; i++) {
            /* the output index: the kept coordinates, row-major */
            size_t rem = (size_t)i, o = 0, stride = 1;
            for (int d = 3; d >= 0; d--) {
                const size_t c = rem % (size_t)shape[d];
                rem /= (size_t)shape[d];
                if (!red[d]) {
                    o += c * stride;
                    stride *= (size_t)shape[d];
                }
            }
            want[o] += x[i];
        }
        for (size_t o = 0; o < nout; o++)
            AX_CHECK(t, y[o] == (float)want[o], "example %zu: y[%zu] = %g, want %g", e, o,
                     (double)y[o], want[o]);
        for (size_t o = nout; o < nout + 16; o++)
            AX_CHECK(t, y[o] == -999.0f, "example %zu: y[%zu] past the %zu outputs written", e,
                     o, nout);
    }
}

void t_roll_seeds(ax_t *t) {
    static const int32_t x[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const int64_t shape[2] = {4, 3};
    static const int32_t want1[12] = {10, 11, 12, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    static const int32_t want2[12] = {5, 6, 4, 8, 9, 7, 11, 12, 10, 2, 3, 1};
    static const int32_t want3[12] = {8, 9, 7, 11, 12, 10, 2, 3, 1, 5, 6, 4};
    const int64_t s1[1] = {1}, a1[1] = {0};
    const int64_t s2[2] = {-1, 2}, a2[2] = {0, 1};
    const int64_t s3[3] = {1, 2, 1}, a3[3] = {0, 1, 0};
    const struct {
        const int64_t *s, *a;
        size_t n;
        const int32_t *want;
    } ex[3] = {{s1, a1, 1, want1}, {s2, a2, 2, want2}, {s3, a3, 3, want3}};
    for (int e = 0; e < 3; e++) {
        int32_t y[12];
        memset(y, 0xff, sizeof y);
        axial_status st = axial_roll(AXIAL_I32, x, y, 2, shape, ex[e].s, ex[e].n, ex[e].a,
                                     ex[e].n);
        AX_CHECK(t, st == AXIAL_OK, "example %d: status %s", e + 1, axial_status_name(st));
        for (int i = 0; i < 12; i++)
            AX_CHECK(t, y[i] == ex[e].want[i], "example %d: y[%d] = %d, want %d", e + 1, i,
                     y[i], ex[e].want[i]);
    }
}
