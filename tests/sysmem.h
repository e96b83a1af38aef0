/* SPDX-License-Identifier: MIT */
/*
 * sysmem.h: what Linux says of its memory, for the tests that size a tensor
 * past it (an allocation that must fail) or under it (a huge tensor that must
 * fit).  Header-only: env_test.c is its own program, without the harness.
 */
#ifndef AX_SYSMEM_H
#define AX_SYSMEM_H

#include <stdio.h>
#include <string.h>

/* vm.overcommit_memory (0 heuristic, 1 always, 2 never), or -1 where unknown. */
static inline int ax_overcommit_mode(void) {
    FILE *f = fopen("/proc/sys/vm/overcommit_memory", "r");
    int mode = -1;
    if (f) {
        if (fscanf(f, "%d", &mode) != 1)
            mode = -1;
        fclose(f);
    }
    return mode;
}

/* The kB of a /proc/meminfo field ("MemTotal", "SwapTotal", "MemAvailable"),
 * or 0 where it does not say. */
static inline unsigned long long ax_meminfo_kb(const char *field) {
    FILE *f = fopen("/proc/meminfo", "r");
    const size_t len = strlen(field);
    char line[256];
    unsigned long long kb = 0;
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        found = strncmp(line, field, len) == 0 && line[len] == ':' &&
                sscanf(line + len + 1, "%llu", &kb) == 1;
    if (f)
        fclose(f);
    return found ? kb : 0;
}

#endif
