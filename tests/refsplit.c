/* SPDX-License-Identifier: MIT */
/*
 * refsplit.c: the split planner (src/) against the reference kernels of the
 * one summation order, whatever the ISAs' tables hold.
 *
 * Linked only into the test program axial-tap-refsplit (the TAP driver and
 * the tests, never the library): before main, it points the float entries
 * of every available ISA's merged kernel table -- cumsum, reduce,
 * reduce_acc, reduce_finish and the split kernels cumsum_seg, scan_total,
 * cumsum_cols, reduce_cols -- at tests/order_ref.c's functions.  The plain
 * calls then sum in the order's whole-shape form and the _ex calls take the
 * split paths of src/cumsum.c and src/reduce.c (the blocked scan along the
 * axis, the column tiles), so test parallel_cumsum / parallel_reduce check,
 * bit for bit, that the planner's chunks, carries and tiles give the
 * whole-shape bits, independently of any ISA's kernels:
 *
 *   build/tests/axial-tap-refsplit --isa=avx512 parallel_
 *
 * (any ISA: the scalar table is patched too).  The merged tables are
 * writable objects (src/dispatch.c), reached through axial__kernels().
 * AX_REFSPLIT_BREAK=carry|continue|reverse breaks one thing on purpose, to
 * show that the tests see it (meson tests "refsplit break ..."): cumsum_seg
 * ignores its carry (starts every segment from -0.0), drops
 * AXIAL_SCAN_CONTINUE, or scan_total ignores REVERSE.  The reference is slow (one element at a time): far slower than
 * the SIMD kernels.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kernels.h"
#include "order_ref.h"

static int refsplit_break; /* 0 none, 1 carry, 2 continue, 3 reverse */

#define REF_KERNELS(name, DT, unused)                                                        \
    static void ref_cumsum_##name(const void *x, void *y, size_t o, size_t n, size_t i,     \
                                  unsigned f) {                                             \
        ax_ref_cumsum(DT, x, y, o, n, i, f);                                                \
    }                                                                                       \
    static void ref_reduce_##name(const void *x, void *y, size_t o, size_t n, size_t i,     \
                                  unsigned flags) {                                         \
        (void)flags;                                                                        \
        ax_ref_reduce(DT, x, y, o, n, i);                                                   \
    }                                                                                       \
    static void ref_reduce_acc_##name(const void *x, void *acc, size_t o, size_t n,         \
                                      size_t i) {                                           \
        ax_ref_reduce_acc(DT, x, acc, o, n, i);                                             \
    }                                                                                       \
    static void ref_reduce_finish_##name(const void *acc, void *y, size_t count) {          \
        ax_ref_reduce_finish(DT, acc, y, count);                                            \
    }                                                                                       \
    static double ref_cumsum_seg_##name(const void *x, void *y, size_t len, unsigned f,     \
                                        double carry) {                                     \
        if (refsplit_break == 1)                                                            \
            carry = -0.0;                                                                   \
        if (refsplit_break == 2)                                                            \
            f &= ~AXIAL_SCAN_CONTINUE;                                                      \
        return ax_ref_cumsum_seg(DT, x, y, len, f, carry);                                  \
    }                                                                                       \
    static double ref_scan_total_##name(const void *x, size_t len, unsigned f) {            \
        if (refsplit_break == 3)                                                            \
            f &= ~(unsigned)AXIAL_CUMSUM_REVERSE;                                           \
        return ax_ref_scan_total(DT, x, len, f);                                            \
    }                                                                                       \
    static void ref_cumsum_cols_##name(const void *x, void *y, size_t n, size_t ncols,      \
                                       size_t stride, unsigned f) {                         \
        ax_ref_cumsum_cols(DT, x, y, n, ncols, stride, f);                                  \
    }                                                                                       \
    static void ref_reduce_cols_##name(const void *x, void *acc, size_t n, size_t ncols,    \
                                       size_t stride) {                                     \
        ax_ref_reduce_cols(DT, x, acc, n, ncols, stride);                                   \
    }
AXIAL_FLOAT_DTYPES(REF_KERNELS, 0)

#define REF_PLUG(name, DT, kt)                                                               \
    kt->cumsum[DT] = ref_cumsum_##name;                                                     \
    kt->reduce[DT] = ref_reduce_##name;                                                     \
    kt->reduce_acc[DT] = ref_reduce_acc_##name;                                             \
    kt->reduce_finish[DT] = ref_reduce_finish_##name;                                       \
    kt->cumsum_seg[DT] = ref_cumsum_seg_##name;                                             \
    kt->scan_total[DT] = ref_scan_total_##name;                                             \
    kt->cumsum_cols[DT] = ref_cumsum_cols_##name;                                           \
    kt->reduce_cols[DT] = ref_reduce_cols_##name;

__attribute__((constructor)) static void refsplit_plug(void) {
    const char *b = getenv("AX_REFSPLIT_BREAK");
    refsplit_break = !b                            ? 0
                     : strcmp(b, "carry") == 0    ? 1
                     : strcmp(b, "continue") == 0 ? 2
                     : strcmp(b, "reverse") == 0  ? 3
                                                  : 0;
    const axial_isa was = axial_isa_active();
    const unsigned avail = axial_isa_available();
    for (unsigned isa = 0; isa < 32; isa++) {
        if (!((avail >> isa) & 1u) || axial_isa_select((axial_isa)isa) != AXIAL_OK)
            continue;
        /* the merged table is a writable static object of dispatch.c */
        struct axial_kernels *kt = (struct axial_kernels *)(uintptr_t)axial__kernels();
        AXIAL_FLOAT_DTYPES(REF_PLUG, kt)
    }
    axial_isa_select(was);
}
