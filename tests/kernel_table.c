/* SPDX-License-Identifier: MIT */
/*
 * kernel_table.c: every merged kernel table holds exactly the kernels that
 * the list of kernels/entries.h says, so nothing falls back to scalar (or to
 * nothing) without anyone noticing.
 *
 * The one white-box test: it includes kernels/kernels.h and src/internal.h
 * and links the static library, whose hidden symbols are still linkable.
 * For scalar and each SIMD ISA of the architecture that this CPU runs, it
 * selects the ISA and checks every slot of the active (merged) table.  A
 * slot of an entry's index set holds, by the ISA's cell in the list: 1, the
 * ISA's own axial_<op>_<key>__<isa>; 0, the scalar kernel (none where the
 * scalar cell is 0 too); another ISA's name, that ISA's kernel (AVX-512
 * runs AVX2's stream kernels) -- compared by address, with the ISA that
 * dispatch records for AXIAL_VERBOSE's name.  Every slot outside the set is
 * NULL.  An ISA the CPU lacks is a TAP skip; an ISA whose name is in
 * AXIAL_TEST_REQUIRE_ISA (comma-separated; test.sh sets it where the CPU is
 * known, e.g. neon under qemu-aarch64) must be there, or the test fails.
 * Prints TAP, one line per (ISA, slot of an index set) and per (ISA, entry).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "internal.h"
#include "kernels.h"

AXIAL_DECLARE_KERNELS(scalar)
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

/* One slot of an index set: where it sits, and the kernel it must hold. */
struct want {
    const char *op, *key;
    unsigned entry; /* AXIAL_ENTRY(op) + slot */
    size_t offset;  /* byte offset of the slot in struct axial_kernels */
    void (*fn)(void); /* NULL: no kernel */
    const char *isa;  /* whose kernel fn is ("none" when NULL) */
};

#define SLOT(op, slot)                                                                       \
    (offsetof(struct axial_kernels, op) + (size_t)(slot) * sizeof(void (*)(void)))
#define KERNEL(op, key, isa) (void (*)(void))axial_##op##_##key##__##isa, #isa

/* By the ISA's cell: WANT_<cell>(op, key, isa, scalar cell) gives fn, isa. */
#define WANT(cell, ...) WANT_(cell, __VA_ARGS__)
#define WANT_(cell, ...) WANT_##cell(__VA_ARGS__)
#define WANT_1(op, key, isa, scell) KERNEL(op, key, isa)
#define WANT_0(op, key, isa, scell) SCALAR_(scell, op, key)
#define SCALAR_(scell, op, key) SCALAR_##scell(op, key)
#define SCALAR_1(op, key) KERNEL(op, key, scalar)
#define SCALAR_0(op, key) NULL, "none"

#define WANT_SLOT_(key, slot, op, isa, cell, scell)                                         \
    {#op, #key, AXIAL_ENTRY(op) + (slot), SLOT(op, slot), WANT(cell, op, key, isa, scell)},
#define WANT_ENTRY_(op, type, set, cells, isa)                                               \
    AXIAL_##set(WANT_SLOT_, op, isa, AXIAL_CELL_##isa cells, AXIAL_CELL_scalar cells)
#define WANTS(isa) {AXIAL_KERNEL_ENTRIES(WANT_ENTRY_, isa)}

/* Each entry: its slots, and which of them its index set holds. */
#define SET_BIT_(key, slot, arg) | (1ull << (slot))
#define ENTRY_(op, type, set, cells, arg)                                                    \
    {#op, SLOT(op, 0), AXIAL_SLOTS_##set, 0 AXIAL_##set(SET_BIT_, 0)},
static const struct {
    const char *op;
    size_t offset, nslots;
    unsigned long long in_set;
} entries[] = {AXIAL_KERNEL_ENTRIES(ENTRY_, 0)};
#define NOPS (sizeof entries / sizeof entries[0])

static const struct want want_scalar[] = WANTS(scalar);
#define NWANT (sizeof want_scalar / sizeof want_scalar[0])

static void (*slot_of(const struct axial_kernels *k, size_t offset))(void) {
    void (*fn)(void);
    memcpy(&fn, (const char *)k + offset, sizeof fn);
    return fn;
}

struct isa_case {
    axial_isa isa;
    const struct want *want; /* NWANT of them; NULL: not compiled in */
};

int main(void) {
#if defined(__aarch64__)
#ifdef AXIAL_HAVE_NEON
    static const struct want neon[NWANT] = WANTS(neon);
#else
    static const struct want *const neon = NULL;
#endif
    const struct isa_case cases[] = {{AXIAL_ISA_SCALAR, want_scalar}, {AXIAL_ISA_NEON, neon}};
#else
#ifdef AXIAL_HAVE_AVX2
    static const struct want avx2[NWANT] = WANTS(avx2);
#else
    static const struct want *const avx2 = NULL;
#endif
#ifdef AXIAL_HAVE_AVX512
    static const struct want avx512[NWANT] = WANTS(avx512);
#else
    static const struct want *const avx512 = NULL;
#endif
    const struct isa_case cases[] = {
        {AXIAL_ISA_SCALAR, want_scalar}, {AXIAL_ISA_AVX2, avx2}, {AXIAL_ISA_AVX512, avx512}};
#endif
    const size_t ncases = sizeof cases / sizeof cases[0];
    printf("1..%zu\n", ncases * (NWANT + NOPS));
    int num = 0, failed = 0;
    for (size_t c = 0; c < ncases; c++) {
        const char *isa_name = axial_isa_name(cases[c].isa);
        const char *why = NULL;
        if (!cases[c].want)
            why = "not compiled in (kernels/<isa>/table.c missing or disabled)";
        else if (axial_isa_select(cases[c].isa) != AXIAL_OK)
            why = axial_last_error();
        if (why) {
            const int must = ax_in_list(getenv("AXIAL_TEST_REQUIRE_ISA"), isa_name);
            for (size_t e = 0; e < NWANT + NOPS; e++) {
                num++;
                if (must)
                    printf("not ok %d - %s: required by AXIAL_TEST_REQUIRE_ISA but %s\n", num,
                           isa_name, why);
                else
                    printf("ok %d - %s # SKIP %s\n", num, isa_name, why);
            }
            failed += must ? (int)(NWANT + NOPS) : 0;
            continue;
        }
        const struct axial_kernels *active = axial__kernels();
        for (size_t e = 0; e < NWANT; e++) {
            const struct want *w = &cases[c].want[e];
            void (*got)(void) = slot_of(active, w->offset);
            void (*scalar)(void) = slot_of(&axial_kernels__scalar, w->offset);
            const char *from = axial__entry_isa(active, w->entry);
            const int ok = got == w->fn && (!got || strcmp(from, w->isa) == 0);
            num++;
            failed += !ok;
            printf("%s %d - %s %s %s: ", ok ? "ok" : "not ok", num, isa_name, w->op, w->key);
            if (ok && !got)
                printf("none, as kernels/entries.h says\n");
            else if (ok)
                printf("active kernel is axial_%s_%s__%s%s\n", w->op, w->key, w->isa,
                       strcmp(w->isa, isa_name) ? ", as kernels/entries.h says" : "");
            else if (got == w->fn)
                printf("the right kernel, but recorded as %s's, want %s's\n", from, w->isa);
            else if (w->fn)
                printf("active kernel is %s, want axial_%s_%s__%s\n",
                       !got ? "none" : got == scalar ? "the scalar one" : "another one", w->op,
                       w->key, w->isa);
            else
                printf("active kernel is %s, want none\n",
                       got == scalar ? "the scalar one" : "another one");
        }
        for (size_t o = 0; o < NOPS; o++) {
            int ok = 1;
            for (size_t k = 0; k < entries[o].nslots; k++)
                if (!((entries[o].in_set >> k) & 1u) &&
                    slot_of(active, entries[o].offset + k * sizeof(void (*)(void))) != NULL)
                    ok = 0;
            failed += !ok;
            printf("%s %d - %s %s: %s\n", ok ? "ok" : "not ok", ++num, isa_name, entries[o].op,
                   ok ? "no kernel outside its index set" : "a kernel outside its index set");
        }
    }
    return failed ? 1 : 0;
}
