/* SPDX-License-Identifier: MIT */
/*
 * order_agree.c: test "order definition" (TAP).  tests/order_ref.c, the
 * executable form of the one summation order, states its own constants and
 * its own f16/bf16 conversions, so that a change in the library cannot move
 * the definition with it.  White-box: this checks that the library's
 * (kernels/kernels.h, kernels/scalar/convert.h) agree with the definition's:
 *   - the virtual vector, the scan chunk and the continue flag;
 *   - f16 and bf16 to double for all 65536 values of each;
 *   - double to f16 and bf16 at every value, every midpoint between
 *     neighbours (ties to even), the doubles just beside each midpoint, past
 *     the largest finite value, and 2^20 random doubles across the range.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../kernels/scalar/convert.h"
#include "kernels.h"
#include "order_ref.h"

static int num, failed;

static void ok(int cond, const char *what) {
    printf("%s %d - %s\n", cond ? "ok" : "not ok", ++num, what);
    failed += !cond;
}

static int same(double a, double b) {
    return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

typedef double (*to_d)(uint16_t);
typedef uint16_t (*from_d)(double);

/* Counts disagreements of the two conversions of one format; prints the first. */
static long compare_format(const char *name, to_d lib_to, to_d ref_to, from_d lib_from,
                           from_d ref_from, uint16_t max_finite, double beyond) {
    long bad = 0;
    for (uint32_t h = 0; h < 65536; h++)
        if (!same(lib_to((uint16_t)h), ref_to((uint16_t)h)) && bad++ == 0)
            fprintf(stderr, "# %s 0x%04x to double: library %a, definition %a\n", name, h,
                    lib_to((uint16_t)h), ref_to((uint16_t)h));
    for (uint32_t h = 0; h <= max_finite; h++) {
        const double v = ref_to((uint16_t)h);
        const double next = h == max_finite ? beyond : ref_to((uint16_t)(h + 1));
        const double mid = v + (next - v) / 2; /* exact: one more bit than the format */
        const double probes[] = {v, mid, nextafter(mid, -INFINITY), nextafter(mid, INFINITY),
                                 nextafter(v, INFINITY), next};
        for (size_t k = 0; k < sizeof probes / sizeof *probes; k++)
            for (int sgn = 0; sgn < 2; sgn++) {
                const double p = sgn ? -probes[k] : probes[k];
                if (lib_from(p) != ref_from(p) && bad++ == 0)
                    fprintf(stderr, "# double %a to %s: library 0x%04x, definition 0x%04x\n", p,
                            name, lib_from(p), ref_from(p));
            }
    }
    uint64_t r = 0x9e3779b97f4a7c15ull;
    for (long i = 0; i < (1L << 20); i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        /* any sign and significand, exponents around the format's range */
        const double p = ldexp((double)(int64_t)(r >> 11) * 0x1p-52, (int)(r & 511) - 290);
        if (lib_from(p) != ref_from(p) && bad++ == 0)
            fprintf(stderr, "# double %a to %s: library 0x%04x, definition 0x%04x\n", p, name,
                    lib_from(p), ref_from(p));
    }
    const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e300, -1e300, 5e-324};
    for (size_t k = 0; k < sizeof special / sizeof *special; k++)
        if (lib_from(special[k]) != ref_from(special[k]) && bad++ == 0)
            fprintf(stderr, "# double %a to %s: library 0x%04x, definition 0x%04x\n",
                    special[k], name, lib_from(special[k]), ref_from(special[k]));
    return bad;
}

int main(void) {
    printf("1..5\n");
    ok(AX_ORDER_LANES == AXIAL_ORDER_LANES, "the virtual vector: 16 elements in both");
    ok(AX_ORDER_CHUNK == AXIAL_SCAN_CHUNK, "the scan chunk: 16384 elements in both");
    ok(AX_ORDER_CONTINUE == AXIAL_SCAN_CONTINUE &&
           !(AX_ORDER_CONTINUE & (AXIAL_CUMSUM_EXCLUSIVE | AXIAL_CUMSUM_REVERSE)),
       "the continue flag: the same bit, apart from the public flags");
    ok(compare_format("f16", axial_f16_to_double, ax_ref_f16_to_double, axial_double_to_f16,
                      ax_ref_double_to_f16, 0x7bff, 65536.0) == 0,
       "f16 conversions: library and definition agree");
    ok(compare_format("bf16", axial_bf16_to_double, ax_ref_bf16_to_double, axial_double_to_bf16,
                      ax_ref_double_to_bf16, 0x7f7f, 0x1p128) == 0,
       "bf16 conversions: library and definition agree");
    return failed ? 1 : 0;
}
