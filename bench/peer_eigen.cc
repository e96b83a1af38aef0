/* SPDX-License-Identifier: MIT */
// peer_eigen.cc: the Eigen Tensor module (Debian's libeigen3-dev, 3.4) as a
// peer, on the default (single-threaded) device, over TensorMaps of the same
// buffers:
//   CumSum:    y = x.cumsum(axis, exclusive), reverse as
//              y = x.reverse(r).cumsum(axis, exclusive).reverse(r);
//   ReduceSum: y = x.sum(dims);
//   Roll:      the slice assignments Eigen users write: for every rolled axis
//              the two halves [0, d-s) -> [s, d) and [d-s, d) -> [0, s), so
//              2^k block copies for k rolled axes.
// Built -O3 -march=x86-64-v3 on x86-64 (AVX2, FMA), as a runtime for
// today's CPUs would build it.
// On T threads (the threads dimension): the same expressions assigned with
// `.device(dev)`, dev an Eigen::ThreadPoolDevice over an Eigen::ThreadPool
// of T threads made in setup (as TensorFlow runs them).
// Types: f32, f64, i32, i8, i16, i64 (roll: by element size) and bf16
// (Eigen::bfloat16, which also accumulates in bfloat16).
#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>

#include <cstdio>
#include <new>

extern "C" {
#include "bench.h"
}

namespace {

template <typename T, int R>
using Map = Eigen::TensorMap<Eigen::Tensor<T, R, Eigen::RowMajor, Eigen::DenseIndex>>;

// The device: nullptr is the default (single-thread) one, `y = expr`.
using Dev = const Eigen::ThreadPoolDevice *;

template <typename L, typename R>
void assign(Dev dev, L &&lhs, const R &rhs) {
    if (dev) lhs.device(*dev) = rhs;
    else lhs = rhs;
}

template <typename T, int R>
Eigen::DSizes<Eigen::DenseIndex, R> dims(const axb_case *c) {
    Eigen::DSizes<Eigen::DenseIndex, R> d;
    for (int k = 0; k < R; k++) d[k] = c->shape[k];
    return d;
}

template <typename T, int R>
void cumsum(Dev dev, const axb_case *c, const void *xv, void *yv) {
    Map<const T, R> x(static_cast<const T *>(xv), dims<T, R>(c));
    Map<T, R> y(static_cast<T *>(yv), dims<T, R>(c));
    const bool excl = c->flags & AXIAL_CUMSUM_EXCLUSIVE;
    if (c->flags & AXIAL_CUMSUM_REVERSE) {
        Eigen::array<bool, R> r;
        for (int k = 0; k < R; k++) r[k] = k == c->axis;
        assign(dev, y, x.reverse(r).cumsum(c->axis, excl).reverse(r));
    } else {
        assign(dev, y, x.cumsum(c->axis, excl));
    }
}

template <typename T, int R, int N>
void sum_n(Dev dev, const axb_case *c, const void *xv, void *yv) {
    Map<const T, R> x(static_cast<const T *>(xv), dims<T, R>(c));
    Eigen::array<Eigen::DenseIndex, N> red;
    Eigen::DSizes<Eigen::DenseIndex, R - N> od;
    for (int a = 0; a < N; a++) red[a] = c->axes[a];
    for (int k = 0, o = 0; k < R; k++) {
        bool r = false;
        for (int a = 0; a < N; a++) r |= red[a] == k;
        if (!r) od[o++] = c->shape[k];
    }
    Map<T, R - N> y(static_cast<T *>(yv), od);
    assign(dev, y, x.sum(red));
}

template <typename T, int R>
void sum_all(Dev dev, const axb_case *c, const void *xv, void *yv) {
    Map<const T, R> x(static_cast<const T *>(xv), dims<T, R>(c));
    Eigen::TensorMap<Eigen::Tensor<T, 0, Eigen::RowMajor>> y(static_cast<T *>(yv));
    assign(dev, y, x.sum());
}

template <typename T, int R>
void roll(Dev dev, const axb_case *c, const void *xv, void *yv) {
    Map<const T, R> x(static_cast<const T *>(xv), dims<T, R>(c));
    Map<T, R> y(static_cast<T *>(yv), dims<T, R>(c));
    int64_t eff[3];
    axb_roll_shifts(c, eff);
    for (int combo = 0; combo < (1 << R); combo++) {
        Eigen::DSizes<Eigen::DenseIndex, R> src, dst, ext;
        bool empty = false;
        for (int k = 0; k < R; k++) {
            const Eigen::DenseIndex d = c->shape[k], s = eff[k];
            if (combo >> k & 1) { src[k] = d - s; dst[k] = 0; ext[k] = s; }
            else { src[k] = 0; dst[k] = s; ext[k] = d - s; }
            empty |= ext[k] == 0;
        }
        if (!empty) assign(dev, y.slice(dst, ext), x.slice(src, ext));
    }
}

template <typename T>
bool run_typed(Dev dev, const axb_case *c, const void *x, void *y) {
    switch (c->op) {
    case AX_OP_CUMSUM:
        if (c->rank == 1) cumsum<T, 1>(dev, c, x, y);
        else if (c->rank == 2) cumsum<T, 2>(dev, c, x, y);
        else return false;
        return true;
    case AX_OP_REDUCE:
        if (c->naxes == 0) {
            if (c->rank == 1) sum_all<T, 1>(dev, c, x, y);
            else return false;
        } else if (c->rank == 2 && c->naxes == 1) sum_n<T, 2, 1>(dev, c, x, y);
        else if (c->rank == 3 && c->naxes == 1) sum_n<T, 3, 1>(dev, c, x, y);
        else if (c->rank == 3 && c->naxes == 2) sum_n<T, 3, 2>(dev, c, x, y);
        else return false;
        return true;
    default:
        if (c->rank == 1) roll<T, 1>(dev, c, x, y);
        else if (c->rank == 2) roll<T, 2>(dev, c, x, y);
        else roll<T, 3>(dev, c, x, y);
        return true;
    }
}

bool dispatch(Dev dev, const axb_case *c, const void *x, void *y) {
    if (c->op == AX_OP_ROLL) { // only the element size matters
        switch (ax_dtype_size(c->dtype)) {
        case 1: return run_typed<int8_t>(dev, c, x, y);
        case 2: return run_typed<int16_t>(dev, c, x, y);
        case 4: return run_typed<float>(dev, c, x, y);
        default: return run_typed<double>(dev, c, x, y);
        }
    }
    switch (c->dtype) {
    case AXIAL_F32: return run_typed<float>(dev, c, x, y);
    case AXIAL_F64: return run_typed<double>(dev, c, x, y);
    case AXIAL_I32: return run_typed<int32_t>(dev, c, x, y);
    case AXIAL_I8: return run_typed<int8_t>(dev, c, x, y);
    case AXIAL_BF16: return run_typed<Eigen::bfloat16>(dev, c, x, y);
    default: return false;
    }
}

bool eigen_prepare(const axb_case *c, void **ctx, char *why, size_t cap) {
    *ctx = nullptr;
    if (!AXB_PEER_CPU_OK()) {
        std::snprintf(why, cap, "eigen: built for x86-64-v3, this CPU lacks AVX2/FMA");
        return false;
    }
    bool ok = c->rank <= 3 && !ax_op_lse(c->op);
    if (ok && c->op != AX_OP_ROLL)
        ok = c->dtype == AXIAL_F32 || c->dtype == AXIAL_F64 || c->dtype == AXIAL_I32 ||
             c->dtype == AXIAL_I8 || c->dtype == AXIAL_BF16;
    if (!ok) std::snprintf(why, cap, "eigen: case not wired (%s)", c->name);
    return ok;
}

struct Threaded {
    Eigen::ThreadPool pool;
    Eigen::ThreadPoolDevice dev;
    explicit Threaded(int n) : pool(n), dev(&pool, n) {}
};

void eigen_run(void *ctx, const axb_case *c, const void *x, void *y) {
    dispatch(ctx ? &static_cast<Threaded *>(ctx)->dev : nullptr, c, x, y);
}

void eigen_free(void *ctx) { delete static_cast<Threaded *>(ctx); }

bool eigen_prepare_threads(const axb_case *c, size_t threads, void **ctx, char *why, size_t cap) {
    if (!eigen_prepare(c, ctx, why, cap)) return false;
    *ctx = new (std::nothrow) Threaded(static_cast<int>(threads));
    if (!*ctx) std::snprintf(why, cap, "eigen: out of memory");
    return *ctx != nullptr;
}

} // namespace

extern "C" const axb_peer axb_eigen = {"eigen", eigen_prepare, eigen_run, eigen_free,
                                       eigen_prepare_threads};
