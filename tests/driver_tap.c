/* SPDX-License-Identifier: MIT */
/*
 * driver_tap.c: runs the tests of tests.h and prints TAP; no dependencies,
 * so it also runs under qemu-user (where criterion cannot) and on a cross
 * build.  Exit status 1 when any test fails.
 *   axial-tap [--isa=NAME|--isa=api] [substring]
 * --isa=NAME runs the per-ISA tests for that ISA only (a TAP
 * "1..0 # SKIP" when the CPU or build lacks it, so meson shows it SKIPPED);
 * --isa=api runs the ISA-independent tests; neither runs everything.
 * AXIAL_TEST_REQUIRE_ISA=name[,name...]: those ISAs must be available (test.sh
 * sets it to every ISA the CPU and OS report, scripts/cpu-isas.sh, and to
 * the emulated CPU's under qemu), so a build or detection that loses one
 * fails instead of showing a skip.
 * AXIAL_TEST_SEED: mixed into every test's seed; printed first ("# seed").
 * The last line names the ISAs whose tests ran and those skipped.
 * AXIAL_TEST_SKIP=test[,test...]: those tests are reported as skipped, not run
 * (test.sh's valgrind run leaves out the long-double tolerance tests, whose
 * x87 arithmetic valgrind emulates very slowly; every other run has them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "tests.h"

struct entry {
    const char *name;
    ax_fn fn;
    int per_isa;
};

#define AX_ENTRY_ISA(name) {#name, t_##name, 1},
#define AX_ENTRY_API(name) {#name, t_##name, 0},
static const struct entry entries[] = {AX_ISA_TESTS(AX_ENTRY_ISA) AX_API_TESTS(AX_ENTRY_API)};
static const axial_isa arch_isas[AX_N_ARCH_ISAS] = AX_ARCH_ISAS;

/* The first ISA of this architecture named in AXIAL_TEST_REQUIRE_ISA that is not
 * available, or NULL. */
static const char *missing_required_isa(void) {
    for (int i = 0; i < AX_N_ARCH_ISAS; i++)
        if (ax_isa_required(arch_isas[i]) && !(axial_isa_available() & (1u << arch_isas[i])))
            return axial_isa_name(arch_isas[i]);
    return NULL;
}

int main(int argc, char **argv) {
    printf("# seed: AXIAL_TEST_SEED=%llu\n", (unsigned long long)ax_seed());
    const char *missing = missing_required_isa();
    if (missing) {
        printf("Bail out! %s is required by AXIAL_TEST_REQUIRE_ISA but not available "
               "(available mask 0x%x)\n", missing, axial_isa_available());
        return 1;
    }
    const char *filter = NULL, *only = NULL;
    for (int a = 1; a < argc; a++) {
        if (strncmp(argv[a], "--isa=", 6) == 0) only = argv[a] + 6;
        else filter = argv[a];
    }
    axial_isa isas[AX_N_ARCH_ISAS];
    int nisa = 0, run_api = !only || strcmp(only, "api") == 0;
    for (int i = 0; i < AX_N_ARCH_ISAS; i++)
        if (!only || strcmp(only, axial_isa_name(arch_isas[i])) == 0) isas[nisa++] = arch_isas[i];
    if (only && !run_api && nisa == 0) {
        fprintf(stderr, "axial-tap: --isa=%s is not an ISA of this architecture\n", only);
        return 2;
    }
    if (only && nisa == 1 && !(axial_isa_available() & (1u << isas[0]))) {
        printf("1..0 # SKIP %s is not available on this CPU/build (available mask 0x%x)\n",
               only, axial_isa_available());
        return 0; /* TAP "1..0 # SKIP": meson reports SKIP */
    }
    const size_t n = sizeof entries / sizeof *entries;
    int total = 0, failed = 0, skipped = 0, num = 0;
    int isa_ran[AX_N_ARCH_ISAS] = {0}; /* tests of each ISA that ran (not skipped) */
    int isa_sel[AX_N_ARCH_ISAS] = {0}; /* tests of each ISA selected */
    for (size_t i = 0; i < n; i++)
        if (!filter || strstr(entries[i].name, filter))
            total += entries[i].per_isa ? nisa : run_api;
    printf("1..%d\n", total);
    const axial_isa best = axial_isa_active();
    const char *skip_list = getenv("AXIAL_TEST_SKIP");
    for (size_t i = 0; i < n; i++) {
        if (filter && !strstr(entries[i].name, filter)) continue;
        int runs = entries[i].per_isa ? nisa : run_api;
        for (int r = 0; r < runs; r++) {
            ax_t t;
            axial_isa sel = entries[i].per_isa ? isas[r] : best;
            if (ax_in_list(skip_list, entries[i].name)) {
                skipped++;
                printf("ok %d - %s/%s # SKIP excluded by AXIAL_TEST_SKIP\n", ++num,
                       entries[i].name, entries[i].per_isa ? axial_isa_name(sel) : "api");
                continue;
            }
            struct timespec t0, t1;
            timespec_get(&t0, TIME_UTC); /* C11; the time is for information */
            ax_run(&t, entries[i].name, entries[i].fn, sel);
            timespec_get(&t1, TIME_UTC);
            double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
            num++;
            const char *label = entries[i].per_isa ? axial_isa_name(sel) : "api";
            if (t.fails) {
                failed++;
                printf("not ok %d - %s/%s # %ld of %ld checks failed; first: %s\n", num,
                       entries[i].name, label, t.fails, t.checks, t.first);
            } else if (t.skipped) {
                skipped++;
                printf("ok %d - %s/%s # SKIP %s\n", num, entries[i].name, label,
                       t.skip_reason);
            } else {
                printf("ok %d - %s/%s (%ld checks, %.2f s)\n", num, entries[i].name, label,
                       t.checks, secs);
            }
            if (entries[i].per_isa) {
                isa_sel[r]++;
                isa_ran[r] += !t.skipped;
            }
            fflush(stdout);
        }
    }
    char ran[64] = "", notrun[64] = "";
    for (int r = 0; r < nisa; r++) {
        if (!isa_sel[r]) continue;
        char *list = isa_ran[r] ? ran : notrun;
        size_t len = strlen(list);
        snprintf(list + len, sizeof ran - len, "%s%s", len ? "," : "", axial_isa_name(isas[r]));
    }
    printf("# %d tests: %d passed, %d failed, %d skipped (default ISA: %s; ISAs run: %s; "
           "ISAs not run: %s; seed %llu)\n",
           total, total - failed - skipped, failed, skipped, axial_isa_name(best),
           ran[0] ? ran : "none", notrun[0] ? notrun : "none", (unsigned long long)ax_seed());
    return failed ? 1 : 0;
}
