/*
 * env_test.c: the AXIAL_ISA environment variable (read once, at first use).
 * meson runs this program with several values; it derives what the library
 * must have chosen from the variable and axial_isa_available():
 *   a name of this architecture caps the choice (the best available ISA at
 *   or below it); an unknown name or one of another architecture is ignored
 *   (the best ISA) and reported by axial_last_error().  Prints TAP.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axial.h"

int main(void) {
    const char *env = getenv("AXIAL_ISA");
#if defined(__aarch64__)
    static const axial_isa order[] = {AXIAL_ISA_SCALAR, AXIAL_ISA_NEON};
#else
    static const axial_isa order[] = {AXIAL_ISA_SCALAR, AXIAL_ISA_AVX2, AXIAL_ISA_AVX512};
#endif
    const int n = (int)(sizeof order / sizeof *order);
    /* read availability first: it must not depend on the variable */
    axial_isa got = axial_isa_active(); /* first use: applies AXIAL_ISA */
    const char *msg = axial_last_error();
    unsigned avail = axial_isa_available();
    int cap = n - 1, known = 0;
    for (int i = 0; env && i < n; i++)
        if (strcmp(env, axial_isa_name(order[i])) == 0) cap = i, known = 1;
    axial_isa want = AXIAL_ISA_SCALAR;
    for (int i = 0; i <= cap; i++)
        if (avail & (1u << order[i])) want = order[i];
    int ok1 = got == want;
    int ok2 = known || !env || !*env || strstr(msg, env) != NULL;
    printf("1..2\n");
    printf("%s 1 - AXIAL_ISA=%s: active %s, want %s (available 0x%x)\n", ok1 ? "ok" : "not ok",
           env ? env : "(unset)", axial_isa_name(got), axial_isa_name(want), avail);
    printf("%s 2 - AXIAL_ISA=%s: %s reported (\"%s\")\n", ok2 ? "ok" : "not ok",
           env ? env : "(unset)", known ? "nothing to be" : "the ignored name", msg);
    return ok1 && ok2 ? 0 : 1;
}
