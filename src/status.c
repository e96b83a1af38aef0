/* SPDX-License-Identifier: MIT */
/* status.c: status names, the per-thread error message, the version. */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

static _Thread_local char axial_message[256];

static void axial__vset(const char *fmt, va_list ap) {
    vsnprintf(axial_message, sizeof axial_message, fmt, ap);
}

void axial__set_message(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    axial__vset(fmt, ap);
    va_end(ap);
}

axial_status axial__fail(axial_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    axial__vset(fmt, ap);
    va_end(ap);
    return status;
}

const char *axial_last_error(void) { return axial_message; }

unsigned axial_version(void) { return AXIAL_VERSION; }

const char *axial_status_name(axial_status status) {
    switch (status) {
    case AXIAL_OK: return "AXIAL_OK";
    case AXIAL_E_NULL: return "AXIAL_E_NULL";
    case AXIAL_E_DTYPE: return "AXIAL_E_DTYPE";
    case AXIAL_E_RANK: return "AXIAL_E_RANK";
    case AXIAL_E_SHAPE: return "AXIAL_E_SHAPE";
    case AXIAL_E_AXIS: return "AXIAL_E_AXIS";
    case AXIAL_E_ARGS: return "AXIAL_E_ARGS";
    case AXIAL_E_OVERLAP: return "AXIAL_E_OVERLAP";
    case AXIAL_E_ISA: return "AXIAL_E_ISA";
    case AXIAL_E_NOMEM: return "AXIAL_E_NOMEM";
    }
    return "AXIAL_E_UNKNOWN";
}
