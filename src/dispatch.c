/* SPDX-License-Identifier: MIT */
/*
 * dispatch.c: CPU detection and the choice of kernel table.
 *
 * available = compiled in AND this CPU and OS run it.  On x86 that is CPUID
 * for the instructions plus XCR0 (read with xgetbv) for the OS saving the
 * registers: AVX2 needs AVX2+FMA+F16C+AVX with XMM|YMM state enabled,
 * AVX-512 needs F+VL+BW+DQ with opmask|ZMM_Hi256|Hi16_ZMM state as well.
 * On aarch64 AdvSIMD is architectural (every AArch64 CPU has it): on Linux
 * the kernel's HWCAP_ASIMD bit is still checked (getauxval), on every other
 * AArch64 OS (Apple, Windows on Arm, the BSDs, bare metal) NEON is available.
 *
 * Each ISA's table is merged over the scalar one once (an ISA may leave
 * entries NULL, and the merge records which ISA each entry came from, for
 * AXIAL_VERBOSE's kernel names), inside pthread_once; the active ISA is an
 * atomic int, so selection is safe to race from several threads.
 *
 * The environment, read once in that pthread_once: AXIAL_ISA (a name, any
 * case, surrounding white space ignored) caps the choice; an unknown name is
 * ignored, reported by axial_last_error() of the initialising thread and by
 * one warning on stderr.  AXIAL_VERBOSE=1 prints the choice and its reasons
 * on stderr, then one line per call (src/verbose.c) and per axial_isa_select.
 */
#if defined(__AVX__) || defined(__AVX2__) || defined(__AVX512F__)
#error "src/ must be compiled without ISA flags: dispatch would run AVX code before checking the CPU"
#endif

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define AXIAL_X86 1
#elif defined(__aarch64__) || defined(_M_ARM64)
#define AXIAL_ARM64 1
#if defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1 << 1)
#endif
#endif
#endif

#define AXIAL_NISA 4

static const char *const axial_isa_names[AXIAL_NISA] = {"scalar", "avx2", "avx512", "neon"};

/* The default's table where this CPU runs some op families faster on another
 * ISA than on the best one (axial_tuning): axial_tables[AXIAL_TUNED], the
 * best ISA's merged table with those families' entries taken from the other
 * ISA's.  axial_active holds AXIAL_TUNED until axial_isa_select. */
#define AXIAL_TUNED AXIAL_NISA

static pthread_once_t axial_once = PTHREAD_ONCE_INIT;
static unsigned axial_available_mask;                    /* written once, in axial_init */
static struct axial_kernels axial_tables[AXIAL_NISA + 1]; /* merged tables, written once */
/* The ISA each entry of a merged table came from (scalar where an ISA left it NULL). */
static unsigned char axial_entry_from[AXIAL_NISA + 1][AXIAL_NENTRY];
static unsigned axial_tuned_base = AXIAL_ISA_SCALAR; /* the ISA AXIAL_TUNED is based on */
static bool axial_tuned_built; /* axial_tables[AXIAL_TUNED] exists (axial_tune) */
static atomic_int axial_active = ATOMIC_VAR_INIT(AXIAL_ISA_SCALAR);
/* A thread's own choice, which wins over axial_active on that thread
 * (axial__isa_thread): an axial_active value, or -1 to follow the process. */
static _Thread_local int axial_thread_active = -1;
/* Set once any thread has made its own choice: until then no call reads the
 * thread-local one (a __tls_get_addr call in a shared library). */
static atomic_bool axial_thread_chosen = ATOMIC_VAR_INIT(false);
AXIAL_HIDDEN atomic_int axial__verbose_state = ATOMIC_VAR_INIT(-1); /* -1 until axial_init */
/* kernels.h: the output size from which kernels stream (axial_stream_size). */
AXIAL_HIDDEN size_t axial__stream_bytes = AXIAL_STREAM_MIN;

#if defined(AXIAL_X86)
static uint64_t axial_xgetbv0(void) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}
#endif

/* What this CPU and OS can run, regardless of what is compiled in. */
static unsigned axial_cpu_runs(void) {
    unsigned mask = 1u << AXIAL_ISA_SCALAR;
#if defined(AXIAL_X86)
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return mask;
    const bool osxsave = (c >> 27) & 1, avx = (c >> 28) & 1, fma = (c >> 12) & 1,
               f16c = (c >> 29) & 1;
    if (!osxsave || !avx)
        return mask;
    const uint64_t xcr0 = axial_xgetbv0();
    const bool os_ymm = (xcr0 & 0x6) == 0x6;    /* XMM | YMM */
    const bool os_zmm = (xcr0 & 0xe6) == 0xe6;  /* + opmask, ZMM_Hi256, Hi16_ZMM */
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return mask;
    const bool avx2 = (b >> 5) & 1, f = (b >> 16) & 1, dq = (b >> 17) & 1, bw = (b >> 30) & 1,
               vl = (b >> 31) & 1;
    if (os_ymm && avx2 && fma && f16c)
        mask |= 1u << AXIAL_ISA_AVX2;
    if (os_ymm && os_zmm && avx2 && fma && f16c && f && dq && bw && vl)
        mask |= 1u << AXIAL_ISA_AVX512;
#ifdef AXIAL_AVX512_EMULATED
    /* a test build (meson -Davx512_emulation=true): its AVX-512 kernels are
     * SIMDe's emulation on AVX2 */
    if (mask & (1u << AXIAL_ISA_AVX2))
        mask |= 1u << AXIAL_ISA_AVX512;
#endif
#elif defined(AXIAL_ARM64) && defined(__linux__)
    if (getauxval(AT_HWCAP) & HWCAP_ASIMD)
        mask |= 1u << AXIAL_ISA_NEON;
#elif defined(AXIAL_ARM64)
    mask |= 1u << AXIAL_ISA_NEON; /* architectural on AArch64; no HWCAP to ask */
#endif
    return mask;
}

/* The table each ISA provides (NULL when not compiled in). */
static const struct axial_kernels *axial_isa_table(unsigned isa) {
    switch (isa) {
    case AXIAL_ISA_SCALAR: return &axial_kernels__scalar;
#ifdef AXIAL_HAVE_AVX2
    case AXIAL_ISA_AVX2: return &axial_kernels__avx2;
#endif
#ifdef AXIAL_HAVE_AVX512
    case AXIAL_ISA_AVX512: return &axial_kernels__avx512;
#endif
#ifdef AXIAL_HAVE_NEON
    case AXIAL_ISA_NEON: return &axial_kernels__neon;
#endif
    default: return NULL;
    }
}

/* Start from the scalar table; take every entry the ISA provides; record in
 * from[] which ISA each entry is (by its index: AXIAL_ENTRY(op) + slot). */
#define AXIAL_MERGE_ENTRY_(op, type, set, cells, arg)                                       \
    for (size_t k = 0; k < AXIAL_SLOTS_##set; k++)                                          \
        if (isa->op[k])                                                                     \
            out->op[k] = isa->op[k], from[AXIAL_ENTRY(op) + k] = (unsigned char)isa_id;
static AXIAL_COLD void axial_merge(struct axial_kernels *out, unsigned char *from,
                        const struct axial_kernels *isa, unsigned isa_id) {
    *out = axial_kernels__scalar;
    memset(from, AXIAL_ISA_SCALAR, AXIAL_NENTRY);
    AXIAL_KERNEL_ENTRIES(AXIAL_MERGE_ENTRY_, 0)
}

const char *axial__entry_isa(const struct axial_kernels *kt, unsigned entry) {
    const ptrdiff_t t = kt - axial_tables;
    if (t < 0 || t > AXIAL_TUNED || entry >= AXIAL_NENTRY)
        return "unknown";
    return axial_isa_names[axial_entry_from[t][entry]];
}

/* ---- the per-op choice of the default ------------------------------------ */

/* The op families the default may run on another ISA than the best one: each
 * takes all its entries (whole-shape, split and column kernels) from one ISA,
 * so a call never mixes ISAs.  CumSum and ReduceSum follow the one summation
 * order on every SIMD ISA, so the choice changes no bit; the log-space ops
 * (whose exp and log differ between ISAs) and Roll always run on the
 * default's ISA. */
static const char *const axial_family_names[AXIAL_NFAMILY] = {"cumsum", "reduce_sum"};

/* The family of a table entry, by its op's name; AXIAL_NFAMILY: none. */
static unsigned axial_entry_family(const char *op) {
    static const char *const cumsum[] = {"cumsum",      "cumsum_seg", "scan_total",
                                         "cumsum_cols", "cumsum_run", "cumsum_cols_run"};
    static const char *const reduce[] = {"reduce", "reduce_acc", "reduce_finish", "reduce_cols"};
    for (size_t k = 0; k < sizeof cumsum / sizeof cumsum[0]; k++)
        if (strcmp(op, cumsum[k]) == 0)
            return AXIAL_FAMILY_CUMSUM;
    for (size_t k = 0; k < sizeof reduce / sizeof reduce[0]; k++)
        if (strcmp(op, reduce[k]) == 0)
            return AXIAL_FAMILY_REDUCE_SUM;
    return AXIAL_NFAMILY;
}

/* Which ISA runs each op family by default (isa_of[f]; `best` where the CPU
 * gives no reason to leave it), from what CPUID reports: vendor, family and
 * the ISAs available (mask).  Returns the reason, or NULL where every family
 * stays on `best`.
 *   - AMD family 0x19 with AVX-512 (Zen 4) executes 512-bit instructions on
 *     256-bit units, two passes each, and its 512-bit cross-lane permutes
 *     are slower than two 256-bit ones: the AVX2 kernels of CumSum and
 *     ReduceSum, whose in-register networks shuffle most, ran faster there
 *     than the AVX-512 ones (CumSum [n] and ReduceSum of every element and
 *     of [64, 1024] along axis 1, f32 at 256 KiB: 13.0 against 15.3, 2.46
 *     against 2.81 and 2.84 against 3.22 microseconds).  Intel's AVX-512
 *     CPUs and AMD's family 0x1a (Zen 5) have full-width units: AVX-512
 *     everywhere. */
AXIAL_HIDDEN const char *axial__tuning(bool amd, unsigned family, unsigned mask, unsigned best,
                                       unsigned char isa_of[AXIAL_NFAMILY]) {
    for (unsigned f = 0; f < AXIAL_NFAMILY; f++)
        isa_of[f] = (unsigned char)best;
    if (amd && family == 0x19 && best == AXIAL_ISA_AVX512 && (mask >> AXIAL_ISA_AVX2) & 1u) {
        isa_of[AXIAL_FAMILY_CUMSUM] = AXIAL_ISA_AVX2;
        isa_of[AXIAL_FAMILY_REDUCE_SUM] = AXIAL_ISA_AVX2;
        return "AMD family 0x19 runs AVX-512 on 256-bit units";
    }
    return NULL;
}

/* The vendor and family CPUID reports (x86; elsewhere not AMD, family 0). */
static void axial_cpu_family(bool *amd, unsigned *family) {
    *amd = false;
    *family = 0;
#if defined(AXIAL_X86)
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return;
    *amd = b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u; /* "AuthenticAMD" */
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return;
    const unsigned base = (a >> 8) & 0xf;
    *family = base == 0xf ? base + ((a >> 20) & 0xff) : base;
#endif
}

/* The default's table: the best ISA's merged table, each family's entries
 * from the ISA isa_of names (AXIAL_MERGE_ENTRY_'s records kept, so
 * AXIAL_VERBOSE names the kernels that run). */
#define AXIAL_TUNE_ENTRY_(op, type, set, cells, arg)                                      \
    {                                                                                    \
        const unsigned f = axial_entry_family(#op);                                      \
        if (f < AXIAL_NFAMILY && isa_of[f] != best) {                                     \
            memcpy(out->op, axial_tables[isa_of[f]].op, sizeof out->op);                  \
            memcpy(from + AXIAL_ENTRY(op), axial_entry_from[isa_of[f]] + AXIAL_ENTRY(op), \
                   AXIAL_SLOTS_##set);                                                    \
        }                                                                                \
    }
static AXIAL_COLD void axial_tune(unsigned best, const unsigned char isa_of[AXIAL_NFAMILY]) {
    struct axial_kernels *out = &axial_tables[AXIAL_TUNED];
    unsigned char *from = axial_entry_from[AXIAL_TUNED];
    *out = axial_tables[best];
    memcpy(from, axial_entry_from[best], AXIAL_NENTRY);
    AXIAL_KERNEL_ENTRIES(AXIAL_TUNE_ENTRY_, 0)
    axial_tuned_base = best;
    axial_tuned_built = true;
}

/* Rank of each ISA (by value) for AXIAL_ISA's cap. */
static const unsigned axial_level[AXIAL_NISA] = {0, 1, 2, 1};

#if defined(AXIAL_X86)
#define AXIAL_ARCH_ISAS ((1u << AXIAL_ISA_SCALAR) | (1u << AXIAL_ISA_AVX2) | (1u << AXIAL_ISA_AVX512))
#elif defined(AXIAL_ARM64)
#define AXIAL_ARCH_ISAS ((1u << AXIAL_ISA_SCALAR) | (1u << AXIAL_ISA_NEON))
#else
#define AXIAL_ARCH_ISAS (1u << AXIAL_ISA_SCALAR)
#endif

/* Best available ISA, in the order scalar < neon, avx2 < avx512, capped by `cap`. */
static unsigned axial_best(unsigned mask, unsigned cap_level) {
    static const unsigned order[] = {AXIAL_ISA_AVX512, AXIAL_ISA_AVX2, AXIAL_ISA_NEON,
                                     AXIAL_ISA_SCALAR};
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
        if ((mask >> order[k]) & 1u && axial_level[order[k]] <= cap_level)
            return order[k];
    return AXIAL_ISA_SCALAR;
}

/* "scalar,avx2" for a mask of ISAs ("none" when empty). */
static const char *axial_mask_names(char *buf, size_t cap, unsigned mask) {
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned isa = 0; isa < AXIAL_NISA; isa++)
        if ((mask >> isa) & 1u)
            len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? "," : "",
                                    axial_isa_names[isa]);
    return len ? buf : "none";
}

/* White space as isspace() in the C locale, without the locale. */
static bool axial_is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* Whether [s, s + len) spells `name` in any case (ASCII). */
static bool axial_names_equal(const char *s, size_t len, const char *name) {
    size_t k = 0;
    for (; k < len && name[k]; k++) {
        char c = s[k];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != name[k])
            return false;
    }
    return k == len && name[k] == '\0';
}

/* The variable's value as it can be printed on one line: at most 40 characters,
 * anything unprintable as '?'. */
static const char *axial_printable(char *buf, size_t cap, const char *s) {
    size_t k = 0;
    for (; s[k] && k + 4 < cap && k < 40; k++)
        buf[k] = s[k] >= 0x20 && s[k] < 0x7f ? s[k] : '?';
    if (s[k] && k + 4 <= cap)
        buf[k++] = '.', buf[k++] = '.', buf[k++] = '.';
    buf[k] = '\0';
    return buf;
}

/* AXIAL_VERBOSE: unset, empty or "0" off; a positive integer on; anything else
 * is ignored with a warning. */
static int axial_read_verbose(void) {
    const char *env = getenv("AXIAL_VERBOSE");
    if (env == NULL)
        return 0;
    while (axial_is_space(*env))
        env++;
    char *end;
    const long v = strtol(env, &end, 10);
    while (axial_is_space(*end))
        end++;
    if (*end == '\0' && v >= 0)
        return v > 0;
    char shown[48];
    fprintf(stderr, "axial: warning: AXIAL_VERBOSE=\"%s\" is not 0 or 1: ignored\n",
            axial_printable(shown, sizeof shown, env));
    return 0;
}

/* The streaming threshold (kernels.h): the last-level cache's size as the C
 * library reports it (glibc reads CPUID or the OS), clamped to
 * [AXIAL_STREAM_MIN, AXIAL_STREAM_MAX]; AXIAL_STREAM_MIN where it reports
 * none (other C libraries, most Arm systems). */
static size_t axial_stream_size(void) {
    long llc = -1;
#if defined(_SC_LEVEL3_CACHE_SIZE)
    llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
#if defined(_SC_LEVEL2_CACHE_SIZE)
    if (llc <= 0)
        llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    if (llc <= 0 || (unsigned long)llc <= AXIAL_STREAM_MIN)
        return AXIAL_STREAM_MIN;
    return (unsigned long)llc >= AXIAL_STREAM_MAX ? AXIAL_STREAM_MAX : (size_t)llc;
}

static AXIAL_COLD void axial_init(void) {
    axial__stream_bytes = axial_stream_size();
    const unsigned runs = axial_cpu_runs();
    unsigned mask = 0, compiled = 0;
    for (unsigned isa = 0; isa < AXIAL_NISA; isa++) {
        const struct axial_kernels *t = axial_isa_table(isa);
        if (t)
            compiled |= 1u << isa;
        if (t && ((runs >> isa) & 1u)) {
            axial_merge(&axial_tables[isa], axial_entry_from[isa], t, isa);
            mask |= 1u << isa;
        }
    }
    axial_available_mask = mask;
    const int verbose = axial_read_verbose();

    unsigned cap = 2, chosen; /* no cap */
    const char *env = getenv("AXIAL_ISA");
    char shown[48], why[160];
    snprintf(why, sizeof why, "AXIAL_ISA unset: the best available ISA");
    if (env && *env) {
        const char *b = env, *e = env + strlen(env);
        while (b < e && axial_is_space(*b))
            b++;
        while (e > b && axial_is_space(e[-1]))
            e--;
        unsigned named = AXIAL_NISA;
        for (unsigned isa = 0; isa < AXIAL_NISA; isa++)
            if (axial_names_equal(b, (size_t)(e - b), axial_isa_names[isa]))
                named = isa;
        axial_printable(shown, sizeof shown, env);
        const char *ignored = NULL;
        if (named == AXIAL_NISA)
            ignored = "is not one of scalar, avx2, avx512, neon";
        else if (!((AXIAL_ARCH_ISAS >> named) & 1u))
            ignored = "is not an ISA of this architecture"; /* it caps nothing here */
        if (ignored) {
            axial__set_message("AXIAL_ISA=\"%s\" %s: ignored", shown, ignored);
            fprintf(stderr, "axial: warning: AXIAL_ISA=\"%s\" %s: ignored\n", shown, ignored);
            snprintf(why, sizeof why, "AXIAL_ISA=\"%s\" %s: ignored, the best available ISA",
                     shown, ignored);
        } else if ((mask >> named) & 1u) {
            cap = AXIAL_NISA; /* exactly the named one */
            atomic_store(&axial_active, (int)named);
            snprintf(why, sizeof why, "AXIAL_ISA=\"%s\" names it", shown);
        } else {
            cap = axial_level[named]; /* not run by this CPU: the best below it */
            snprintf(why, sizeof why,
                     "AXIAL_ISA=\"%s\": %s is %s, so the best available ISA below it", shown,
                     axial_isa_names[named],
                     (compiled >> named) & 1u ? "not run by this CPU/OS" : "not compiled in");
        }
    }
    if (cap != AXIAL_NISA)
        atomic_store(&axial_active, (int)axial_best(mask, cap));
    chosen = (unsigned)atomic_load(&axial_active);
    /* The per-op choice, for the default only: AXIAL_ISA that names or caps an
     * ISA runs everything on it. */
    unsigned char isa_of[AXIAL_NFAMILY];
    bool amd;
    unsigned family;
    axial_cpu_family(&amd, &family);
    const char *tuned =
        cap == 2 ? axial__tuning(amd, family, mask, chosen, isa_of) : NULL;
    char per_op[160] = "";
    if (tuned) {
        axial_tune(chosen, isa_of);
        atomic_store(&axial_active, AXIAL_TUNED);
        size_t len = (size_t)snprintf(per_op, sizeof per_op, "; per op");
        for (unsigned f = 0; f < AXIAL_NFAMILY; f++)
            len += (size_t)snprintf(per_op + len, sizeof per_op - len, " %s=%s",
                                    axial_family_names[f], axial_isa_names[isa_of[f]]);
        snprintf(per_op + len, sizeof per_op - len, " (%s)", tuned);
    }
    if (verbose) {
        char a[64], r[64], c[64];
        fprintf(stderr,
                "axial: init isa=%s available=%s (mask 0x%x) cpu=%s compiled=%s "
                "stream_bytes=%zu: %s%s\n",
                axial_isa_names[chosen], axial_mask_names(a, sizeof a, mask), mask,
                axial_mask_names(r, sizeof r, runs & AXIAL_ARCH_ISAS),
                axial_mask_names(c, sizeof c, compiled), axial__stream_bytes, why, per_op);
    }
    atomic_store(&axial__verbose_state, verbose);
}

static void axial_ensure_init(void) { pthread_once(&axial_once, axial_init); }

bool axial__verbose_slow(void) {
    axial_ensure_init();
    return atomic_load(&axial__verbose_state) > 0;
}

/* The choice in force on the calling thread. */
static int axial_active_here(void) {
    const int own = atomic_load_explicit(&axial_thread_chosen, memory_order_relaxed)
                        ? axial_thread_active : -1;
    return own >= 0 ? own : atomic_load_explicit(&axial_active, memory_order_relaxed);
}

const struct axial_kernels *axial__kernels(void) {
    axial_ensure_init();
    return &axial_tables[axial_active_here()];
}

const struct axial_kernels *axial__isa_kernels(unsigned isa) {
    axial_ensure_init();
    return isa < AXIAL_NISA && ((axial_available_mask >> isa) & 1u) ? &axial_tables[isa] : NULL;
}

unsigned axial_isa_available(void) {
    axial_ensure_init();
    return axial_available_mask;
}

/* The ISA an axial_active value stands for. */
static unsigned axial_isa_of_active(int active) {
    return active == AXIAL_TUNED ? axial_tuned_base : (unsigned)active;
}

axial_isa axial_isa_active(void) {
    axial_ensure_init();
    return (axial_isa)axial_isa_of_active(axial_active_here());
}

axial_status axial_isa_select(axial_isa isa) {
    axial_ensure_init();
    if ((unsigned)isa >= AXIAL_NISA)
        return axial__fail(AXIAL_E_ISA, "axial_isa_select: %d is not an axial_isa (0..3)",
                           (int)isa);
    if (!((axial_available_mask >> isa) & 1u)) {
        if (axial__verbose_on())
            fprintf(stderr, "axial: isa_select isa=%s refused: not available (mask 0x%x)\n",
                    axial_isa_names[isa], axial_available_mask);
        return axial__fail(AXIAL_E_ISA,
                           "axial_isa_select: ISA %d (%s) is not available here "
                           "(available mask 0x%x)",
                           (int)isa, axial_isa_names[isa], axial_available_mask);
    }
    const int was = atomic_exchange(&axial_active, (int)isa);
    if (axial__verbose_on())
        fprintf(stderr, "axial: isa_select isa=%s was=%s\n", axial_isa_names[isa],
                axial_isa_names[axial_isa_of_active(was)]);
    return AXIAL_OK;
}

int axial__isa_state(void) {
    axial_ensure_init();
    return atomic_load(&axial_active);
}

/* Whether `state` is an axial_active value this process can have. */
static bool axial_state_ok(int state) {
    return state == AXIAL_TUNED ? axial_tuned_built
                                : state >= 0 && state < AXIAL_NISA &&
                                      ((axial_available_mask >> state) & 1u);
}

bool axial__isa_restore(int state) {
    axial_ensure_init();
    const bool ok = axial_state_ok(state);
    if (ok)
        atomic_store(&axial_active, state);
    return ok;
}

int axial__isa_thread(int state) {
    axial_ensure_init();
    if (state != -1 && !axial_state_ok(state))
        return -2;
    const int was = axial_thread_active;
    if (state != -1)
        atomic_store_explicit(&axial_thread_chosen, true, memory_order_relaxed);
    axial_thread_active = state;
    return was;
}

const char *axial_isa_name(axial_isa isa) {
    if ((unsigned)isa >= AXIAL_NISA)
        return "unknown";
    return axial_isa_names[isa];
}
