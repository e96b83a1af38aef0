/* SPDX-License-Identifier: MIT */
/*
 * test_golden.c: the golden files (tests/golden/<dtype>.gold, made by
 * axial-make-golden from the x86 kernels; format and regeneration in
 * tests/golden/README.md).
 *
 * Every case of golden.c's list (the families of cases.c, a few shapes
 * each, for F32, F64, F16, BF16; inputs generated from the case's seed)
 * runs through the public API with the test's ISA selected:
 *   on a SIMD ISA (avx2, avx512, neon): every stored output element must be
 *   the file's, bit for bit (NaN payloads aside); the first difference is
 *   named (case, element, both values), and the hash of the whole output
 *   (NaNs counted as one) must be the file's, which covers the elements a
 *   long case does not store;
 *   on the scalar ISA (sequential sums: its bits may differ): every stored
 *   element of the file, and the scalar output beside it, must lie within
 *   the documented bound of the exact sum (docs/API.md: c = 7 for CumSum,
 *   4 for ReduceSum); where either is inf or NaN both must be the same
 *   (NaN payloads aside).
 * A missing, damaged or stale file (a case whose key is not the
 * generator's) fails: a skip here would hide a lost file.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "golden.h"
#include "harness.h"
#include "oracle.h"
#include "tests.h"

#ifndef AX_GOLDEN_DIR
#error "build with -DAX_GOLDEN_DIR=\"<source>/tests/golden\" (tests/meson.build)"
#endif

/* ---- the bound (test_tolerance.c's, with the order's constant c; or_ulp
 * from oracle.c) --------------------------------------------------------------- */

static long double bound_of(axial_dtype dt, long double c, long double exact, long double mag,
                            size_t terms) {
    const long double u = ldexpl(1.0L, -24), ref = (long double)terms * LDBL_EPSILON * mag;
    const long double half_ulp = 0.5L * or_ulp(dt, exact);
    switch (dt) {
    case AXIAL_F32: return half_ulp + c * u * mag + ref;
    case AXIAL_F64: return half_ulp + (long double)terms * ldexpl(1.0L, -53) * mag + ref;
    default: return half_ulp + 1.5L * (c + 1) * u * mag + ref;
    }
}

/* ---- one case ------------------------------------------------------------- */

static bool finite_bits(axial_dtype dt, const void *p, size_t k) {
    const uint64_t b = or_get_u(dt, p, k);
    switch (dt) {
    case AXIAL_F32: return ((b >> 23) & 0xff) != 0xff;
    case AXIAL_F64: return ((b >> 52) & 0x7ff) != 0x7ff;
    case AXIAL_F16: return ((b >> 10) & 0x1f) != 0x1f;
    default: return ((b >> 7) & 0xff) != 0xff;
    }
}

typedef struct {
    long cases, stored, differ_bits;
    double worst_golden, worst_scalar;
} tally;

static void simd_case(ax_t *t, const golden_case *c, const golden_record *r, const void *y,
                      size_t i, const char *key) {
    const axial_dtype dt = c->dt;
    for (size_t k = 0; k < r->count; k++) {
        if (r->keep[k] && !or_same(dt, y, k, r->y, k)) {
            char a[64], b[64];
            AX_CHECK(t, false, "golden %s case %zu (%s): output element %zu of %zu is %s, "
                     "the file has %s", ax_dtype_str(dt), i, key, k, r->count,
                     or_str(a, sizeof a, dt, y, k), or_str(b, sizeof b, dt, r->y, k));
            return;
        }
    }
    const uint64_t h = golden_hash(dt, y, r->count);
    AX_CHECK(t, h == r->hash, "golden %s case %zu (%s): the stored elements agree but the hash "
             "of all %zu outputs is 0x%016llx, the file's 0x%016llx (an element the file does "
             "not store differs)", ax_dtype_str(dt), i, key, r->count, (unsigned long long)h,
             (unsigned long long)r->hash);
}

static void scalar_case(ax_t *t, const golden_case *c, const golden_record *r, const void *x,
                        const void *y, size_t i, const char *key, tally *tl) {
    const axial_dtype dt = c->dt;
    const size_t n = r->count;
    long double *sum = malloc((n + 1) * sizeof *sum), *mag = malloc((n + 1) * sizeof *mag);
    size_t *terms = malloc((n + 1) * sizeof *terms), all = 0;
    if (!AX_CHECK(t, sum && mag && terms, "out of memory"))
        goto out;
    long double cst;
    if (c->op == GOLDEN_CUMSUM) {
        const int64_t a = c->axes[0] < 0 ? c->axes[0] + (int64_t)c->rank : c->axes[0];
        or_cumsum_exact(dt, x, sum, mag, terms, c->rank, c->shape, (size_t)a,
                        c->flags & AXIAL_CUMSUM_EXCLUSIVE, c->flags & AXIAL_CUMSUM_REVERSE);
        cst = 7; /* lines; columns have c = 2 */
    } else {
        size_t orank;
        int64_t oshape[AXIAL_MAX_RANK];
        all = or_reduce_exact(dt, x, sum, mag, c->rank, c->shape, c->axes, c->naxes,
                              c->flags & AXIAL_REDUCE_KEEP_DIMS,
                              c->flags & AXIAL_REDUCE_EMPTY_AXES_ALL, &orank, oshape);
        cst = 4;
    }
    for (size_t k = 0; k < n; k++) {
        if (!r->keep[k])
            continue;
        tl->stored++;
        tl->differ_bits += !or_same(dt, y, k, r->y, k);
        const long double g = or_get_f(dt, r->y, k), s = or_get_f(dt, y, k), e = sum[k];
        char a[64], b[64];
        /* inf and NaN by their bits: valgrind's long double is a double in
         * disguise, whose isfinite() can say yes to an infinity */
        if (!finite_bits(dt, r->y, k) || !finite_bits(dt, y, k)) {
            if (!AX_CHECK(t, or_same(dt, r->y, k, y, k), "golden %s case %zu (%s): element "
                          "%zu: the file has %s, the scalar ISA %s", ax_dtype_str(dt), i, key, k,
                          or_str(a, sizeof a, dt, r->y, k), or_str(b, sizeof b, dt, y, k)))
                break;
            continue;
        }
        const long double bound = bound_of(dt, cst, e, mag[k], terms && c->op == GOLDEN_CUMSUM
                                                                   ? terms[k] : all);
        const long double eg = fabsl(g - e), es = fabsl(s - e);
        if (bound > 0 && (double)(eg / bound) > tl->worst_golden)
            tl->worst_golden = (double)(eg / bound);
        if (bound > 0 && (double)(es / bound) > tl->worst_scalar)
            tl->worst_scalar = (double)(es / bound);
        if (!AX_CHECK(t, eg <= bound && es <= bound,
                      "golden %s case %zu (%s): element %zu: the file has %s, the scalar ISA "
                      "%s, the exact sum is %.21Lg; errors %.3Lg and %.3Lg, bound %.3Lg (c = %Lg)",
                      ax_dtype_str(dt), i, key, k, or_str(a, sizeof a, dt, r->y, k),
                      or_str(b, sizeof b, dt, y, k), e, eg, es, bound, cst))
            break;
    }
out:
    free(sum);
    free(mag);
    free(terms);
}

void t_golden(ax_t *t) {
    static const axial_dtype dts[4] = {AXIAL_F32, AXIAL_F64, AXIAL_F16, AXIAL_BF16};
    static golden_case cases[GOLDEN_MAX_CASES];
    const bool scalar = t->isa == AXIAL_ISA_SCALAR;
    for (int d = 0; d < 4; d++) {
        const axial_dtype dt = dts[d];
        const size_t es = ax_dtype_size(dt);
        char path[1024], err[512];
        golden_file gf;
        golden_path(path, sizeof path, AX_GOLDEN_DIR, dt);
        if (!AX_CHECK(t, golden_read(path, dt, &gf, err, sizeof err), "%s", err))
            continue;
        const size_t n = golden_cases(dt, cases);
        AX_CHECK(t, gf.n == n, "%s has %zu cases, the generator (tests/golden.c) %zu: "
                 "regenerate the files (tests/golden/README.md)", path, gf.n, n);
        tally tl = {0, 0, 0, 0, 0};
        for (size_t i = 0; i < n && i < gf.n; i++) {
            const golden_case *c = &cases[i];
            const golden_record *r = &gf.rec[i];
            char key[256];
            golden_key(c, key, sizeof key);
            if (!AX_CHECK(t, strcmp(key, r->key) == 0 && r->count == golden_out_count(c),
                          "%s case %zu is \"%s\" (%zu outputs), the generator's \"%s\" (%zu): "
                          "regenerate the files (tests/golden/README.md)", path, i, r->key,
                          r->count, key, golden_out_count(c)))
                continue;
            ax_buf x, y;
            ax_buf_alloc(&x, golden_in_count(c) * es, 0);
            ax_buf_alloc(&y, r->count * es, 0);
            ax_buf_poison(&x, 0);
            ax_buf_poison(&y, 0x5a);
            golden_input(c, x.p);
            const axial_status st = golden_call(c, x.p, y.p, NULL);
            if (AX_CHECK(t, st == AXIAL_OK && ax_buf_canary_ok(&y),
                         "golden %s case %zu (%s): status %s (%s), or a write outside the "
                         "output", ax_dtype_str(dt), i, key, axial_status_name(st),
                         axial_last_error())) {
                if (scalar)
                    scalar_case(t, c, r, x.p, y.p, i, key, &tl);
                else
                    simd_case(t, c, r, y.p, i, key);
            }
            tl.cases++;
            ax_buf_free(&x);
            ax_buf_free(&y);
        }
        if (scalar)
            ax_note(t, "%s: %ld cases, %ld stored elements; worst error %.3f of the bound "
                       "(file), %.3f (scalar); %ld elements differ in bits from the scalar ISA's",
                    ax_dtype_str(dt), tl.cases, tl.stored, tl.worst_golden, tl.worst_scalar,
                    tl.differ_bits);
        golden_free(&gf);
    }
}
