/* SPDX-License-Identifier: MIT */
/*
 * version_test.c: axial_version() of the library this program runs with
 * equals the header's AXIAL_VERSION, and both equal meson's project()
 * version, which the build passes as AXIAL_TEST_PROJECT_VERSION ("M.m.p").
 * Prints TAP.
 */
#include <stdio.h>

#include "axial.h"

int main(void) {
    const char *project = AXIAL_TEST_PROJECT_VERSION;
    unsigned major = 0, minor = 0, patch = 0;
    int fields = sscanf(project, "%u.%u.%u", &major, &minor, &patch);
    unsigned want = major * 10000u + minor * 100u + patch;
    unsigned header = AXIAL_VERSION, lib = axial_version();
    int ok = 1;

    printf("1..3\n");
    if (fields == 3 && minor < 100 && patch < 100)
        printf("ok 1 - project version %s parses\n", project);
    else
        printf("not ok 1 - project version %s is not M.m.p with m, p < 100\n", project), ok = 0;
    if (lib == header)
        printf("ok 2 - axial_version() %u == AXIAL_VERSION\n", lib);
    else
        printf("not ok 2 - axial_version() %u != AXIAL_VERSION %u\n", lib, header), ok = 0;
    if (header == want)
        printf("ok 3 - AXIAL_VERSION %u == project version %s\n", header, project);
    else
        printf("not ok 3 - AXIAL_VERSION %u != project version %s (%u)\n", header, project, want),
            ok = 0;
    return ok ? 0 : 1;
}
