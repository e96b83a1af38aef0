/* SPDX-License-Identifier: MIT */
/*
 * make_golden.c: writes the golden files tests/golden/<dtype>.gold (the
 * format: README.md beside this file).  Not run by the test suite; test
 * `golden` reads what it wrote.
 *
 *   axial-make-golden [--isa=ref|avx512|avx2|neon|scalar] [--out=DIR] [--check]
 *
 * --isa=NAME runs every case through the public API with that ISA selected:
 * the files are then the library's own outputs (the ones to commit, made on
 * an x86 SIMD ISA once every SIMD kernel follows the one summation order).
 * --isa=ref (the default) runs them through the public API as well, with the
 * float CumSum and ReduceSum entries of the active kernel table replaced by
 * the reference of the order (tests/order_ref.c): the library's planner, the
 * order's kernels, whatever the kernels of this branch do.  A SIMD ISA and
 * ref must write the same files (the first comment line, which names the
 * maker, aside).  --isa=scalar writes the scalar oracle's sums, which do not
 * follow the order (for comparisons only).  DIR defaults to the source tree's
 * tests/golden.  --check writes nothing: it compares what it would write
 * with the files in DIR, the "# made by" line aside, names the first
 * differing line of each file and exits with 1 if any differs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden.h"
#include "internal.h"
#include "kernels.h"
#include "order_ref.h"

#ifndef AX_GOLDEN_DIR
#define AX_GOLDEN_DIR "tests/golden"
#endif

/* The reference of the order with the kernels' signatures. */
#define AX_REF_KERNELS(name, DT, unused)                                                          \
    static void ref_cumsum_##name(const void *x, void *y, size_t outer, size_t n, size_t inner, \
                                  unsigned flags) {                                             \
        ax_ref_cumsum(DT, x, y, outer, n, inner, flags);                                         \
    }                                                                                           \
    static void ref_reduce_##name(const void *x, void *y, size_t outer, size_t n,              \
                                  size_t inner, unsigned flags) {                               \
        (void)flags;                                                                             \
        ax_ref_reduce(DT, x, y, outer, n, inner);                                                \
    }                                                                                           \
    static void ref_reduce_acc_##name(const void *x, void *acc, size_t outer, size_t n,        \
                                      size_t inner) {                                           \
        ax_ref_reduce_acc(DT, x, acc, outer, n, inner);                                          \
    }                                                                                           \
    static void ref_reduce_finish_##name(const void *acc, void *y, size_t count) {             \
        ax_ref_reduce_finish(DT, acc, y, count);                                                 \
    }                                                                                           \
    static double ref_cumsum_seg_##name(const void *x, void *y, size_t len, unsigned flags,    \
                                        double carry) {                                         \
        return ax_ref_cumsum_seg(DT, x, y, len, flags, carry);                                   \
    }                                                                                           \
    static double ref_scan_total_##name(const void *x, size_t len, unsigned flags) {           \
        return ax_ref_scan_total(DT, x, len, flags);                                             \
    }                                                                                           \
    static void ref_cumsum_cols_##name(const void *x, void *y, size_t n, size_t ncols,         \
                                       size_t stride, unsigned flags) {                         \
        ax_ref_cumsum_cols(DT, x, y, n, ncols, stride, flags);                                   \
    }                                                                                           \
    static void ref_reduce_cols_##name(const void *x, void *acc, size_t n, size_t ncols,       \
                                       size_t stride) {                                         \
        ax_ref_reduce_cols(DT, x, acc, n, ncols, stride);                                        \
    }
AXIAL_FLOAT_DTYPES(AX_REF_KERNELS, unused)

/* Replaces the float sum entries of the active (merged) table by the
 * reference.  The merged tables are writable memory inside the library
 * (src/dispatch.c); only this tool writes them, before any call. */
static void install_reference(void) {
    const struct axial_kernels *active = axial__kernels();
    struct axial_kernels *kt;
    memcpy(&kt, &active, sizeof kt);
#define AX_SET_REF(name, DT, unused)                                                              \
    kt->cumsum[DT] = ref_cumsum_##name;                                                           \
    kt->reduce[DT] = ref_reduce_##name;                                                           \
    kt->reduce_acc[DT] = ref_reduce_acc_##name;                                                   \
    kt->reduce_finish[DT] = ref_reduce_finish_##name;                                             \
    kt->cumsum_seg[DT] = ref_cumsum_seg_##name;                                                   \
    kt->scan_total[DT] = ref_scan_total_##name;                                                   \
    kt->cumsum_cols[DT] = ref_cumsum_cols_##name;                                                 \
    kt->reduce_cols[DT] = ref_reduce_cols_##name;
    AXIAL_FLOAT_DTYPES(AX_SET_REF, unused)
#undef AX_SET_REF
}

/* The next line of f without its newline, or NULL at the end; a line
 * longer than the buffer comes in pieces (compared piece by piece). */
static char *next_line(FILE *f, char *buf, size_t cap) {
    if (fgets(buf, (int)cap, f) == NULL)
        return NULL;
    buf[strcspn(buf, "\n")] = '\0';
    return buf;
}

/* Whether the text in `got` (rewound) equals the file at path, lines that
 * start with "# made by" aside; the first difference goes to stderr. */
static bool same_file(FILE *got, const char *path) {
    FILE *want = fopen(path, "r");
    if (want == NULL) {
        fprintf(stderr, "%s: cannot read it\n", path);
        return false;
    }
    rewind(got);
    static char a[4096], b[4096];
    bool same = true;
    for (size_t line = 1;; line++) {
        char *la, *lb;
        do
            la = next_line(got, a, sizeof a);
        while (la && strncmp(la, "# made by", 9) == 0);
        do
            lb = next_line(want, b, sizeof b);
        while (lb && strncmp(lb, "# made by", 9) == 0);
        if (la == NULL && lb == NULL)
            break;
        if (la == NULL || lb == NULL || strcmp(la, lb) != 0) {
            fprintf(stderr, "%s differs (line %zu without the made-by line):\n  file: %.160s\n"
                            "  now:  %.160s\n", path, line, lb ? lb : "(end)",
                    la ? la : "(end)");
            same = false;
            break;
        }
    }
    fclose(want);
    return same;
}

int main(int argc, char **argv) {
    const char *isa = "ref", *dir = AX_GOLDEN_DIR;
    bool check = false;
    for (int a = 1; a < argc; a++) {
        if (strncmp(argv[a], "--isa=", 6) == 0) {
            isa = argv[a] + 6;
        } else if (strncmp(argv[a], "--out=", 6) == 0) {
            dir = argv[a] + 6;
        } else if (strcmp(argv[a], "--check") == 0) {
            check = true;
        } else {
            fprintf(stderr,
                    "usage: %s [--isa=ref|avx512|avx2|neon|scalar] [--out=DIR] [--check]\n",
                    argv[0]);
            return 2;
        }
    }
    const bool ref = strcmp(isa, "ref") == 0;
    axial_isa sel = AXIAL_ISA_SCALAR;
    if (!ref) {
        int k = 0;
        while (k < 4 && strcmp(axial_isa_name((axial_isa)k), isa) != 0)
            k++;
        if (k == 4) {
            fprintf(stderr, "axial-make-golden: unknown ISA \"%s\"\n", isa);
            return 2;
        }
        sel = (axial_isa)k;
    }
    if (axial_isa_select(sel) != AXIAL_OK) {
        fprintf(stderr, "axial-make-golden: %s is not available here: %s\n",
                axial_isa_name(sel), axial_last_error());
        return 1;
    }
    if (ref)
        install_reference();
    char made_by[96];
    snprintf(made_by, sizeof made_by, "axial-make-golden --isa=%s", isa);

    static const axial_dtype dts[4] = {AXIAL_F32, AXIAL_F64, AXIAL_F16, AXIAL_BF16};
    static golden_case cases[GOLDEN_MAX_CASES];
    static void *outputs[GOLDEN_MAX_CASES];
    int differ = 0;
    for (int d = 0; d < 4; d++) {
        const size_t n = golden_cases(dts[d], cases);
        const size_t es = dts[d] == AXIAL_F64 ? 8 : dts[d] == AXIAL_F32 ? 4 : 2;
        for (size_t i = 0; i < n; i++) {
            void *x = malloc(golden_in_count(&cases[i]) * es + 1);
            outputs[i] = malloc(golden_out_count(&cases[i]) * es + 1);
            if (x == NULL || outputs[i] == NULL) {
                fprintf(stderr, "axial-make-golden: out of memory\n");
                return 1;
            }
            golden_input(&cases[i], x);
            const axial_status st = golden_call(&cases[i], x, outputs[i], NULL);
            free(x);
            if (st != AXIAL_OK) {
                char key[256];
                fprintf(stderr, "axial-make-golden: %s: %s (%s)\n",
                        golden_key(&cases[i], key, sizeof key), axial_status_name(st),
                        axial_last_error());
                return 1;
            }
        }
        char path[1024];
        golden_path(path, sizeof path, dir, dts[d]);
        FILE *f = check ? tmpfile() : fopen(path, "w");
        if (f == NULL || !golden_write(f, dts[d], cases, n, outputs, made_by)) {
            fprintf(stderr, "axial-make-golden: cannot write %s\n", check ? "a temporary file" : path);
            return 1;
        }
        if (check) {
            const bool same = same_file(f, path);
            differ += !same;
            printf("%s: %zu cases, %s the outputs of --isa=%s\n", path, n,
                   same ? "the same as" : "NOT the same as", isa);
            fclose(f);
        } else {
            if (fclose(f) != 0) {
                fprintf(stderr, "axial-make-golden: cannot write %s\n", path);
                return 1;
            }
            printf("%s: %zu cases written\n", path, n);
        }
        for (size_t i = 0; i < n; i++)
            free(outputs[i]);
    }
    return differ ? 1 : 0;
}
