/* SPDX-License-Identifier: MIT */
/*
 * driver_criterion.c: the same tests (tests.h) as criterion tests:
 * suite = test, name = ISA ("api" for the ISA-independent ones).  An ISA the
 * CPU or the build lacks is reported by cr_skip_test with the reason.
 * meson runs it once per ISA (criterion's --filter option), so a missing ISA shows as
 * a SKIPPED test there too.
 */
#include <criterion/criterion.h>

#include "harness.h"
#include "tests.h"

static void ax_criterion_run(const char *name, ax_fn fn, int per_isa, axial_isa isa) {
    ax_t t;
    ax_run(&t, name, fn, per_isa ? isa : axial_isa_active());
    if (t.fails)
        cr_assert_fail("%ld of %ld checks failed; first: %s", t.fails, t.checks, t.first);
    else if (t.skipped)
        cr_skip_test("%s", t.skip_reason);
}

#if defined(__aarch64__)
#define AX_CR_ISA(name)                                                                    \
    Test(name, scalar) { ax_criterion_run(#name, t_##name, 1, AXIAL_ISA_SCALAR); }        \
    Test(name, neon) { ax_criterion_run(#name, t_##name, 1, AXIAL_ISA_NEON); }
#else
#define AX_CR_ISA(name)                                                                    \
    Test(name, scalar) { ax_criterion_run(#name, t_##name, 1, AXIAL_ISA_SCALAR); }        \
    Test(name, avx2) { ax_criterion_run(#name, t_##name, 1, AXIAL_ISA_AVX2); }            \
    Test(name, avx512) { ax_criterion_run(#name, t_##name, 1, AXIAL_ISA_AVX512); }
#endif
#define AX_CR_API(name) \
    Test(name, api) { ax_criterion_run(#name, t_##name, 0, AXIAL_ISA_SCALAR); }

AX_ISA_TESTS(AX_CR_ISA)
AX_API_TESTS(AX_CR_API)
