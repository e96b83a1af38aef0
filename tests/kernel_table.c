/* SPDX-License-Identifier: MIT */
/*
 * kernel_table.c: every SIMD ISA of the architecture provides every kernel,
 * so nothing falls back to scalar without anyone noticing.
 *
 * The one white-box test: it includes kernels/kernels.h and src/internal.h
 * and links the static library, whose hidden symbols are still linkable.
 * For each SIMD ISA of the architecture that this CPU runs, it selects the
 * ISA and checks that every entry of the active (merged) table -- cumsum,
 * reduce, reduce_acc, reduce_finish for the 12 summable dtypes, roll for the
 * 4 element sizes, and for the 4 float dtypes the split kernels cumsum_seg,
 * scan_total, cumsum_cols, reduce_cols and the log-space column tiles
 * logcumsumexp_cols, reduce_lse_cols -- is that ISA's own kernel, by name (axial_<op>_<dtype>__<isa>),
 * and not the scalar one.  An ISA the CPU lacks is a TAP skip; an ISA whose
 * name is in AXIAL_TEST_REQUIRE_ISA (comma-separated; test.sh sets it where the
 * CPU is known, e.g. neon under qemu-aarch64) must be there, or the test fails.
 * Prints TAP, one line per (ISA, table entry).
 *
 * The log-space entries (logcumsumexp, reduce_lse, reduce_lse_acc,
 * reduce_lse_finish) exist for the float dtypes only: the scalar table has
 * every one of them and none for another dtype (checked always); a SIMD
 * ISA's table may leave any of them NULL (dispatch then runs the scalar
 * kernel: a TAP skip that says so), and an entry it sets must be what the
 * active table holds when the ISA is selected, and not the scalar kernel;
 * it never sets one for a non-float dtype.  LogCumSumExp's split along a
 * line (logcumsumexp_seg, lse_scan_total): the scalar table has neither; a
 * SIMD ISA has its own pair (AVX-512, AVX2 and NEON do) or neither (a line
 * would be one task there), and the active table holds exactly that.
 * The stream kernels (cumsum_run for the float dtypes, cumsum_cols_run for
 * f32 and f64): the scalar table has none; AVX2 and NEON their own, and
 * AVX-512 takes AVX2's (dispatch.c: the one order, and every AVX-512 CPU
 * runs AVX2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "internal.h"
#include "kernels.h"

#if defined(__aarch64__)
#ifdef AXIAL_HAVE_NEON
AXIAL_DECLARE_KERNELS(neon)
#endif
#else
#ifdef AXIAL_HAVE_AVX2
AXIAL_DECLARE_KERNELS(avx2)
#endif
#ifdef AXIAL_HAVE_AVX512
AXIAL_DECLARE_KERNELS(avx512)
#endif
#endif

/* One expected entry: where it sits in the table, its kernel, its name. */
struct entry {
    const char *op, *type;
    size_t offset; /* byte offset of the function pointer in struct axial_kernels */
    void (*fn)(void);
    const char *name;
};

#define SLOT(field, DT) (offsetof(struct axial_kernels, field) + (size_t)(DT) * sizeof(void (*)(void)))
#define SUM_ENTRIES(name, DT, isa)                                                          \
    {"cumsum", #name, SLOT(cumsum, DT), (void (*)(void))axial_cumsum_##name##__##isa,       \
     "axial_cumsum_" #name "__" #isa},                                                      \
    {"reduce", #name, SLOT(reduce, DT), (void (*)(void))axial_reduce_##name##__##isa,       \
     "axial_reduce_" #name "__" #isa},                                                      \
    {"reduce_acc", #name, SLOT(reduce_acc, DT),                                             \
     (void (*)(void))axial_reduce_acc_##name##__##isa, "axial_reduce_acc_" #name "__" #isa}, \
    {"reduce_finish", #name, SLOT(reduce_finish, DT),                                       \
     (void (*)(void))axial_reduce_finish_##name##__##isa,                                   \
     "axial_reduce_finish_" #name "__" #isa},
#define SPLIT_ENTRIES(name, DT, isa)                                                        \
    {"cumsum_seg", #name, SLOT(cumsum_seg, DT),                                             \
     (void (*)(void))axial_cumsum_seg_##name##__##isa, "axial_cumsum_seg_" #name "__" #isa}, \
    {"scan_total", #name, SLOT(scan_total, DT),                                             \
     (void (*)(void))axial_scan_total_##name##__##isa, "axial_scan_total_" #name "__" #isa}, \
    {"cumsum_cols", #name, SLOT(cumsum_cols, DT),                                           \
     (void (*)(void))axial_cumsum_cols_##name##__##isa,                                     \
     "axial_cumsum_cols_" #name "__" #isa},                                                 \
    {"reduce_cols", #name, SLOT(reduce_cols, DT),                                           \
     (void (*)(void))axial_reduce_cols_##name##__##isa,                                     \
     "axial_reduce_cols_" #name "__" #isa},                                                 \
    {"logcumsumexp_cols", #name, SLOT(logcumsumexp_cols, DT),                               \
     (void (*)(void))axial_logcumsumexp_cols_##name##__##isa,                               \
     "axial_logcumsumexp_cols_" #name "__" #isa},                                           \
    {"reduce_lse_cols", #name, SLOT(reduce_lse_cols, DT),                                   \
     (void (*)(void))axial_reduce_lse_cols_##name##__##isa,                                 \
     "axial_reduce_lse_cols_" #name "__" #isa},
#define ROLL_ENTRY(log2, bytes, isa)                                                        \
    {"roll", "b" #bytes, SLOT(roll, log2), (void (*)(void))axial_roll_b##bytes##__##isa,    \
     "axial_roll_b" #bytes "__" #isa}
#define ISA_ENTRIES(isa)                                                                    \
    {AXIAL_SUM_DTYPES(SUM_ENTRIES, isa) AXIAL_FLOAT_DTYPES(SPLIT_ENTRIES, isa)              \
     ROLL_ENTRY(0, 1, isa), ROLL_ENTRY(1, 2, isa), ROLL_ENTRY(2, 4, isa), ROLL_ENTRY(3, 8, isa)}
#define NENTRIES (12 * 4 + 6 * 4 + 4) /* sums, split and log-space column tiles, rolls */

static void (*slot_of(const struct axial_kernels *k, size_t offset))(void) {
    void (*fn)(void);
    memcpy(&fn, (const char *)k + offset, sizeof fn);
    return fn;
}

struct isa_case {
    axial_isa isa;
    const struct entry *entries; /* NULL: not compiled in */
    const struct axial_kernels *own; /* the ISA's own table (entries may be NULL) */
};

/* The log-space entries: float dtypes only. */
static const struct {
    const char *op;
    size_t offset; /* of the dtype-0 slot */
} lse_ops[4] = {
    {"logcumsumexp", SLOT(logcumsumexp, 0)},
    {"reduce_lse", SLOT(reduce_lse, 0)},
    {"reduce_lse_acc", SLOT(reduce_lse_acc, 0)},
    {"reduce_lse_finish", SLOT(reduce_lse_finish, 0)},
};
static const struct {
    axial_dtype dt;
    const char *name;
} lse_types[4] = {{AXIAL_F32, "f32"}, {AXIAL_F64, "f64"}, {AXIAL_F16, "f16"}, {AXIAL_BF16, "bf16"}};
#define NLSE (4 * 4 + 4) /* per ISA: 16 float entries, one "no other dtype" line per op */
#define NLSE_SCALAR (4 * 4 + 4)
/* LogCumSumExp's split along a line: an ISA's own pair or none (then its
 * lines are one task; the scalar table has none). */
static const struct {
    const char *op;
    size_t offset;
} seg_ops[2] = {{"logcumsumexp_seg", SLOT(logcumsumexp_seg, 0)},
                {"lse_scan_total", SLOT(lse_scan_total, 0)}};
#define NSEG (2 * 4) /* per table */
#define NSTREAM (2 * 4) /* per table: cumsum_run, cumsum_cols_run of the floats */
static const size_t stream_offsets[2] = {SLOT(cumsum_run, 0), SLOT(cumsum_cols_run, 0)};
static const char *const stream_ops[2] = {"cumsum_run", "cumsum_cols_run"};

static bool lse_float(size_t dt) {
    return dt == AXIAL_F32 || dt == AXIAL_F64 || dt == AXIAL_F16 || dt == AXIAL_BF16;
}

/* No entry of `op` for a dtype other than the four floats, in table k. */
static bool lse_none_but_floats(const struct axial_kernels *k, size_t op_offset) {
    for (size_t dt = 0; dt < AXIAL_NDTYPE; dt++)
        if (!lse_float(dt) && slot_of(k, op_offset + dt * sizeof(void (*)(void))) != NULL)
            return false;
    return true;
}

int main(void) {
#if defined(__aarch64__)
#ifdef AXIAL_HAVE_NEON
    static const struct entry neon[NENTRIES] = ISA_ENTRIES(neon);
#else
    static const struct entry *const neon = NULL;
#endif
#ifdef AXIAL_HAVE_NEON
    const struct isa_case cases[] = {{AXIAL_ISA_NEON, neon, &axial_kernels__neon}};
#else
    const struct isa_case cases[] = {{AXIAL_ISA_NEON, neon, NULL}};
#endif
#else
#ifdef AXIAL_HAVE_AVX2
    static const struct entry avx2[NENTRIES] = ISA_ENTRIES(avx2);
#else
    static const struct entry *const avx2 = NULL;
#endif
#ifdef AXIAL_HAVE_AVX512
    static const struct entry avx512[NENTRIES] = ISA_ENTRIES(avx512);
#else
    static const struct entry *const avx512 = NULL;
#endif
#ifdef AXIAL_HAVE_AVX2
    const struct axial_kernels *own_avx2 = &axial_kernels__avx2;
#else
    const struct axial_kernels *own_avx2 = NULL;
#endif
#ifdef AXIAL_HAVE_AVX512
    const struct axial_kernels *own_avx512 = &axial_kernels__avx512;
#else
    const struct axial_kernels *own_avx512 = NULL;
#endif
    const struct isa_case cases[] = {{AXIAL_ISA_AVX2, avx2, own_avx2},
                                     {AXIAL_ISA_AVX512, avx512, own_avx512}};
#endif
    const size_t ncases = sizeof cases / sizeof cases[0];
    printf("1..%zu\n", NLSE_SCALAR + NSEG + NSTREAM + ncases * (NENTRIES + NLSE + NSEG + NSTREAM));
    int num = 0, failed = 0;
    for (int o = 0; o < 2; o++)
        for (int d = 0; d < 4; d++) {
            const size_t off = stream_offsets[o] + (size_t)lse_types[d].dt * sizeof(void (*)(void));
            const int ok = slot_of(&axial_kernels__scalar, off) == NULL;
            failed += !ok;
            printf("%s %d - scalar %s %s: %s\n", ok ? "ok" : "not ok", ++num, stream_ops[o],
                   lse_types[d].name, ok ? "NULL (streams use the generic order)" : "set, want NULL");
        }
    /* the scalar table: every log-space kernel for the floats, none for another dtype */
    for (int o = 0; o < 4; o++) {
        for (int d = 0; d < 4; d++) {
            const size_t off = lse_ops[o].offset + (size_t)lse_types[d].dt * sizeof(void (*)(void));
            const int ok = slot_of(&axial_kernels__scalar, off) != NULL;
            failed += !ok;
            printf("%s %d - scalar %s %s: %s\n", ok ? "ok" : "not ok", ++num, lse_ops[o].op,
                   lse_types[d].name, ok ? "set" : "NULL, want the scalar kernel");
        }
        const int ok = lse_none_but_floats(&axial_kernels__scalar, lse_ops[o].offset);
        failed += !ok;
        printf("%s %d - scalar %s: %s\n", ok ? "ok" : "not ok", ++num, lse_ops[o].op,
               ok ? "no entry for a non-float dtype" : "an entry for a non-float dtype");
    }
    for (int o = 0; o < 2; o++)
        for (int d = 0; d < 4; d++) {
            const size_t off = seg_ops[o].offset + (size_t)lse_types[d].dt * sizeof(void (*)(void));
            const int ok = slot_of(&axial_kernels__scalar, off) == NULL;
            failed += !ok;
            printf("%s %d - scalar %s %s: %s\n", ok ? "ok" : "not ok", ++num, seg_ops[o].op,
                   lse_types[d].name, ok ? "NULL (no split along a line)" : "set, want NULL");
        }
    for (size_t c = 0; c < ncases; c++) {
        const char *isa_name = axial_isa_name(cases[c].isa);
        const char *why = NULL;
        if (!cases[c].entries)
            why = "not compiled in (kernels/<isa>/table.c missing or disabled)";
        else if (axial_isa_select(cases[c].isa) != AXIAL_OK)
            why = axial_last_error();
        if (why) {
            const int must = ax_in_list(getenv("AXIAL_TEST_REQUIRE_ISA"), isa_name);
            for (int e = 0; e < NENTRIES + NLSE + NSEG + NSTREAM; e++) {
                num++;
                if (must)
                    printf("not ok %d - %s: required by AXIAL_TEST_REQUIRE_ISA but %s\n", num,
                           isa_name, why);
                else
                    printf("ok %d - %s # SKIP %s\n", num, isa_name, why);
            }
            failed += must ? NENTRIES + NLSE + NSEG + NSTREAM : 0;
            continue;
        }
        const struct axial_kernels *active = axial__kernels();
        for (int e = 0; e < NENTRIES; e++) {
            const struct entry *x = &cases[c].entries[e];
            void (*got)(void) = slot_of(active, x->offset);
            void (*scalar)(void) = slot_of(&axial_kernels__scalar, x->offset);
            const int ok = got == x->fn && got != scalar;
            num++;
            failed += !ok;
            printf("%s %d - %s %s %s: active kernel is %s%s\n", ok ? "ok" : "not ok", num,
                   isa_name, x->op, x->type,
                   got == x->fn ? x->name : got == scalar ? "the scalar one" : "another one",
                   got == x->fn ? "" : ", want the ISA's own");
        }
        /* the log-space entries: every SIMD ISA has its own scan, reduction and
         * accumulation kernels; reduce_lse_finish (one rounding of a double state
         * per output) is the scalar one on every ISA, by design */
        for (int o = 0; o < 4; o++) {
            for (int d = 0; d < 4; d++) {
                const size_t off =
                    lse_ops[o].offset + (size_t)lse_types[d].dt * sizeof(void (*)(void));
                void (*own)(void) = slot_of(cases[c].own, off);
                void (*got)(void) = slot_of(active, off);
                void (*scalar)(void) = slot_of(&axial_kernels__scalar, off);
                num++;
                if (o == 3 || own == NULL) { /* finish: NULL and scalar; others: a failure */
                    const int ok = o == 3 && own == NULL && got == scalar;
                    failed += !ok;
                    printf("%s %d - %s %s %s: %s\n", ok ? "ok" : "not ok", num, isa_name,
                           lse_ops[o].op, lse_types[d].name,
                           ok ? "the scalar finish, as on every ISA"
                           : o == 3 ? "want the ISA's table to leave it NULL (the scalar one)"
                                    : "the ISA's table leaves it NULL, want its own kernel");
                    continue;
                }
                const int ok = got == own && own != scalar;
                failed += !ok;
                printf("%s %d - %s %s %s: active kernel is %s\n", ok ? "ok" : "not ok", num,
                       isa_name, lse_ops[o].op, lse_types[d].name,
                       got == own && own != scalar ? "the ISA's own"
                       : got == scalar             ? "the scalar one, want the ISA's own"
                                                   : "another one, want the ISA's own");
            }
            const int ok = lse_none_but_floats(cases[c].own, lse_ops[o].offset) &&
                           lse_none_but_floats(active, lse_ops[o].offset);
            failed += !ok;
            printf("%s %d - %s %s: %s\n", ok ? "ok" : "not ok", ++num, isa_name, lse_ops[o].op,
                   ok ? "no entry for a non-float dtype (own and active table)"
                      : "an entry for a non-float dtype");
        }
        /* the split along a LogCumSumExp line: the ISA's own pair, or none at all */
        for (int d = 0; d < 4; d++) {
            const size_t dt = (size_t)lse_types[d].dt * sizeof(void (*)(void));
            void (*own_seg)(void) = slot_of(cases[c].own, seg_ops[0].offset + dt);
            void (*own_tot)(void) = slot_of(cases[c].own, seg_ops[1].offset + dt);
            for (int o = 0; o < 2; o++) {
                void (*own)(void) = o ? own_tot : own_seg;
                void (*got)(void) = slot_of(active, seg_ops[o].offset + dt);
                const int ok = got == own && (own_seg == NULL) == (own_tot == NULL);
                failed += !ok;
                printf("%s %d - %s %s %s: %s\n", ok ? "ok" : "not ok", ++num, isa_name,
                       seg_ops[o].op, lse_types[d].name,
                       !ok ? "want the ISA's own pair in the active table, or neither"
                       : own ? "active kernel is the ISA's own"
                             : "none (this ISA does not split a LogCumSumExp line)");
            }
        }
        /* the stream kernels: the ISA's own, or (AVX-512) AVX2's */
        for (int o = 0; o < 2; o++)
            for (int d = 0; d < 4; d++) {
                const size_t off = stream_offsets[o] + (size_t)lse_types[d].dt * sizeof(void (*)(void));
                void (*own)(void) = slot_of(cases[c].own, off);
                void (*got)(void) = slot_of(active, off);
                void (*want)(void) = own;
#if !defined(__aarch64__) && defined(AXIAL_HAVE_AVX2)
                if (cases[c].isa == AXIAL_ISA_AVX512 && own == NULL)
                    want = slot_of(&axial_kernels__avx2, off);
#endif
                const int needed = o == 0 || d < 2; /* cols_run: f32 and f64 only */
                const int ok = got == want && (want != NULL) == needed;
                failed += !ok;
                printf("%s %d - %s %s %s: %s\n", ok ? "ok" : "not ok", ++num, isa_name,
                       stream_ops[o], lse_types[d].name,
                       !ok ? "want the ISA's own (AVX-512: AVX2's), f16/bf16 columns none"
                       : want == NULL ? "none (the generic order)"
                       : want == own ? "active kernel is the ISA's own" : "active kernel is AVX2's");
            }
    }
    return failed ? 1 : 0;
}
