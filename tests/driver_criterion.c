/* SPDX-License-Identifier: MIT */
/*
 * driver_criterion.c: the same tests (tests.h) as criterion tests:
 * suite = test, name = ISA ("api" for the ISA-independent ones).  An ISA the
 * CPU or the build lacks is reported by cr_skip_test with the reason.
 * meson runs it once per ISA (criterion's --filter option), so a missing ISA shows as
 * a SKIPPED test there too, unless AXIAL_TEST_REQUIRE_ISA names it: then its
 * tests fail (harness.c, ax_run).  Before the tests it prints the seed
 * (AXIAL_TEST_SEED) and after them the ISAs whose tests ran, on stderr.
 * AXIAL_TEST_SKIP=test[,test...]: those tests are reported as skipped, not
 * run (as by the TAP driver).
 */
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "tests.h"

static void ax_criterion_run(const char *name, ax_fn fn, int per_isa, axial_isa isa) {
    if (ax_in_list(getenv("AXIAL_TEST_SKIP"), name))
        cr_skip_test("excluded by AXIAL_TEST_SKIP");
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

ReportHook(PRE_ALL)(struct criterion_test_set *set) {
    (void)set;
    fprintf(stderr, "# seed: AXIAL_TEST_SEED=%llu\n", (unsigned long long)ax_seed());
}

/* The ISAs whose tests ran (passed or failed, not skipped); a test's name is
 * its ISA. */
ReportHook(POST_ALL)(struct criterion_global_stats *stats) {
    static const axial_isa isas[] = AX_ARCH_ISAS;
    char ran[64] = "", notrun[64] = "";
    for (size_t i = 0; i < sizeof isas / sizeof *isas; i++) {
        const char *name = axial_isa_name(isas[i]);
        long run = 0, seen = 0;
        for (struct criterion_suite_stats *ss = stats->suites; ss; ss = ss->next)
            for (struct criterion_test_stats *ts = ss->tests; ts; ts = ts->next)
                if (strcmp(ts->test->name, name) == 0) {
                    seen++;
                    run += ts->test_status != CR_STATUS_SKIPPED;
                }
        if (!seen) continue;
        char *list = run ? ran : notrun;
        size_t len = strlen(list);
        snprintf(list + len, sizeof ran - len, "%s%s", len ? "," : "", name);
    }
    fprintf(stderr, "# ISAs run: %s; ISAs not run (skipped or filtered out): %s; seed %llu\n", ran[0] ? ran : "none",
            notrun[0] ? notrun : "none", (unsigned long long)ax_seed());
}
