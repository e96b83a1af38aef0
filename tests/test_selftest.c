/* SPDX-License-Identifier: MIT */
/*
 * test_selftest.c: every kind of check of this suite, shown to fail.
 *
 * Each test plants a deliberately broken kernel into the merged kernel table
 * of one ISA (white-box: the tables are writable objects of src/dispatch.c,
 * reached through axial__kernels(), as tests/refsplit.c does), runs one of
 * the suite's own checks on it, and expects that check to fail; the same
 * check on the intact kernel must pass first, so the failure is the fault's.
 * The broken runs' messages are counted, not printed (ax_quiet).
 *
 *   selftest_oracle       a CumSum whose last output is off (bit 20 of an
 *                         f32 flipped): the oracle comparison (cases.c);
 *   selftest_bound        an f32 CumSum summed as a plain f32 running sum,
 *                         and an f64 CumSum that rounds every term to f32:
 *                         the error bounds of test_tolerance.c, on a line of
 *                         100003 terms;
 *   selftest_canaries     one element written past the output: the canaries;
 *   selftest_poison       under AddressSanitizer, the bytes around a buffer's
 *                         tensor are poisoned (a kernel's read of them is
 *                         reported), the tensor's are not (skipped without it);
 *   selftest_input        a write into a separate input: the input check;
 *   selftest_guard_pages  one element read past the input: test guard_pages
 *                         (in a child process, which must die of the fault);
 *   selftest_stack        a kernel with a 64 KiB frame: test stack (in a
 *                         child, which must fail or die at the guard);
 *   selftest_cross_isa    the best SIMD ISA against itself, its second run
 *                         off by one bit: test cross_isa's comparison;
 *   selftest_threads      the split scan's later segments off by one bit:
 *                         the _ex calls against the plain call
 *                         (test_parallel.c);
 *   selftest_golden       the last output off by one bit: test golden.
 * The refsplit program's breaks (AX_REFSPLIT_BREAK) are meson tests that must
 * fail (tests/meson.build), and the fuzzer's checks have their own
 * fault-injection tests (tests/fuzz/meson.build).
 */
#if defined(__unix__) || defined(__APPLE__)
#define _DEFAULT_SOURCE 1 /* setenv, fork */
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#define AX_HAVE_FORK 1
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "harness.h"
#include "internal.h"
#include "kernels.h"
#include "tests.h"
#ifdef AX_ASAN
#include <sanitizer/asan_interface.h>
#endif

enum fault { F_NONE, F_VALUE, F_RUNNING_F32, F_PAST_WRITE, F_INPUT_WRITE, F_PAST_READ, F_STACK };
static enum fault fault;
static axial_cumsum_kernel *real_cumsum[AXIAL_BF16 + 1];
static axial_cumsum_seg_kernel *real_seg;

/* Flips a high significand bit of element k: an error of 1/8 relative. */
static void spoil(axial_dtype dt, void *y, size_t k) {
    if (dt == AXIAL_F64) ((uint64_t *)y)[k] ^= (uint64_t)1 << 49;
    else if (dt == AXIAL_F32) ((uint32_t *)y)[k] ^= 1u << 20;
    else ((uint16_t *)y)[k] ^= 1u << 4;
}

/* A CumSum of f32 or f64 in a plain running sum of the element type, with
 * f64 terms rounded to f32 first: what the bounds must reject. */
static void running_f32(axial_dtype dt, const void *x, void *y, size_t outer, size_t n,
                        size_t inner, unsigned flags) {
    const bool excl = flags & AXIAL_CUMSUM_EXCLUSIVE, rev = flags & AXIAL_CUMSUM_REVERSE;
    for (size_t o = 0; o < outer; o++)
        for (size_t i = 0; i < inner; i++) {
            float acc = 0.0f;
            for (size_t jj = 0; jj < n; jj++) {
                const size_t j = rev ? n - 1 - jj : jj, at = (o * n + j) * inner + i;
                const float v = dt == AXIAL_F64 ? (float)((const double *)x)[at]
                                                : ((const float *)x)[at];
                if (!excl) acc += v;
                if (dt == AXIAL_F64) ((double *)y)[at] = acc;
                else ((float *)y)[at] = acc;
                if (excl) acc += v;
            }
        }
}

/* 64 KiB of stack, in a function of its own (a frame is made whole at a
 * function's entry, and the intact runs must not pay for it). */
static __attribute__((noinline)) void deep_frame(unsigned salt) {
    volatile unsigned char frame[64 * 1024];
    for (size_t k = 0; k < sizeof frame; k += 512) frame[k] = (unsigned char)k;
    (void)frame[salt % sizeof frame];
}

#define BROKEN_CUMSUM(name, DT)                                                                \
    static void broken_cumsum_##name(const void *x, void *y, size_t outer, size_t n,          \
                                     size_t inner, unsigned flags) {                          \
        broken_cumsum(DT, x, y, outer, n, inner, flags);                                      \
    }

static void broken_cumsum(axial_dtype dt, const void *x, void *y, size_t outer, size_t n,
                          size_t inner, unsigned flags) {
    const size_t count = outer * n * inner, es = dt == AXIAL_F64 ? 8 : 4;
    if (fault == F_RUNNING_F32) {
        running_f32(dt, x, y, outer, n, inner, flags);
        return;
    }
    if (fault == F_PAST_READ && count) {
        volatile unsigned char past = ((const unsigned char *)x)[count * es];
        (void)past;
    }
    if (fault == F_STACK) deep_frame(flags);
    real_cumsum[dt](x, y, outer, n, inner, flags);
    if (!count) return;
    if (fault == F_VALUE) spoil(dt, y, count - 1);
    if (fault == F_PAST_WRITE) { /* (the canaries must see it, not AddressSanitizer) */
        ax_buf_unpoison((unsigned char *)y + count * es, es);
        memset((unsigned char *)y + count * es, 0, es);
    }
    if (fault == F_INPUT_WRITE && x != y) spoil(dt, (void *)(uintptr_t)x, 0);
}
BROKEN_CUMSUM(f32, AXIAL_F32)
BROKEN_CUMSUM(f64, AXIAL_F64)

static double broken_seg(const void *x, void *y, size_t len, unsigned flags, double carry) {
    const double r = real_seg(x, y, len, flags, carry);
    if (fault == F_VALUE && (flags & AXIAL_SCAN_CONTINUE) && len) spoil(AXIAL_F32, y, len - 1);
    return r;
}

static struct axial_kernels *table_of(axial_isa isa) {
    if (axial_isa_select(isa) != AXIAL_OK) return NULL;
    return (struct axial_kernels *)(uintptr_t)axial__kernels();
}

/* Plants the broken f32 and f64 CumSum (and f32 cumsum_seg where the table
 * has one) into isa's table; unplug restores them. */
static void plug(axial_isa isa) {
    struct axial_kernels *kt = table_of(isa);
    real_cumsum[AXIAL_F32] = kt->cumsum[AXIAL_F32];
    real_cumsum[AXIAL_F64] = kt->cumsum[AXIAL_F64];
    kt->cumsum[AXIAL_F32] = broken_cumsum_f32;
    kt->cumsum[AXIAL_F64] = broken_cumsum_f64;
    real_seg = kt->cumsum_seg[AXIAL_F32];
    if (real_seg) kt->cumsum_seg[AXIAL_F32] = broken_seg;
    fault = F_NONE;
}

static void unplug(axial_isa isa) {
    struct axial_kernels *kt = table_of(isa);
    kt->cumsum[AXIAL_F32] = real_cumsum[AXIAL_F32];
    kt->cumsum[AXIAL_F64] = real_cumsum[AXIAL_F64];
    if (real_seg) kt->cumsum_seg[AXIAL_F32] = real_seg;
    fault = F_NONE;
}

typedef void (*probe_fn)(ax_t *sub);

/* Runs probe on isa without and then with the fault: the first must pass
 * with checks made, the second must fail. */
static void expect_caught(ax_t *t, axial_isa isa, enum fault f, probe_fn probe,
                          const char *check) {
    const axial_isa was = axial_isa_active();
    plug(isa);
    ax_t clean, broken;
    memset(&clean, 0, sizeof clean);
    memset(&broken, 0, sizeof broken);
    clean.name = broken.name = t->name;
    clean.isa = broken.isa = isa;
    clean.rng = broken.rng = t->rng;
    axial_isa_select(isa);
    probe(&clean);
    fault = f;
    ax_quiet = true;
    axial_isa_select(isa);
    probe(&broken);
    ax_quiet = false;
    unplug(isa);
    axial_isa_select(was);
    AX_CHECK(t, clean.fails == 0 && clean.checks > 0,
             "%s on intact %s kernels: %ld of %ld checks failed; first: %s", check,
             axial_isa_name(isa), clean.fails, clean.checks, clean.first);
    AX_CHECK(t, broken.fails > 0,
             "%s did not catch the broken %s kernel (%ld checks, all passed)", check,
             axial_isa_name(isa), broken.checks);
    if (broken.fails)
        ax_note(t, "%s on %s: %ld of %ld checks failed, as they must; first: %.200s", check,
                axial_isa_name(isa), broken.fails, broken.checks, broken.first);
}

/* The best SIMD ISA, or the scalar one. */
static axial_isa best_isa(void) {
    static const axial_isa arch[AX_N_ARCH_ISAS] = AX_ARCH_ISAS;
    axial_isa b = AXIAL_ISA_SCALAR;
    for (int i = 0; i < AX_N_ARCH_ISAS; i++)
        if (axial_isa_available() & (1u << arch[i])) b = arch[i];
    return b;
}

static bool need_simd(ax_t *t) {
    if (best_isa() != AXIAL_ISA_SCALAR) return true;
    ax_skip(t, "needs a SIMD ISA (available mask 0x%x)", axial_isa_available());
    return false;
}

/* ---- the probes: one check each --------------------------------------------- */

static void probe_oracle(ax_t *s) {
    const int64_t shape[2] = {3, 1000};
    cumsum_case(s, AXIAL_F32, 2, shape, 1, 0, FILL_EXACT, false);
}

static void probe_bound_f32(ax_t *s) {
    const int64_t shape[1] = {100003};
    ax_tol_cumsum(s, AXIAL_F32, 1, shape, 0, 0, FILL_UNIFORM01, false);
}

static void probe_bound_f64(ax_t *s) {
    const int64_t shape[1] = {100003};
    ax_tol_cumsum(s, AXIAL_F64, 1, shape, 0, 0, FILL_GENERAL, false);
}

static void probe_buffers(ax_t *s) {
    const int64_t shape[2] = {5, 77};
    cumsum_case(s, AXIAL_F32, 2, shape, 1, 0, FILL_EXACT, false);
    cumsum_case(s, AXIAL_F64, 2, shape, 0, 0, FILL_EXACT, false);
}

static void probe_threads(ax_t *s) { ax_parallel_line_case(s, AXIAL_F32, 0); }

/* The fault is armed for the broken run only, and then spoils the second
 * ISA run of each case alone. */
static bool armed;
static void toggle(int on) { fault = on && armed ? F_VALUE : F_NONE; }
static void probe_cross_isa(ax_t *s) {
    armed = fault == F_VALUE;
    fault = F_NONE;
    ax_cross_isa_self(s, s->isa, toggle);
    armed = false;
}

void t_selftest_oracle(ax_t *t) {
    expect_caught(t, AXIAL_ISA_SCALAR, F_VALUE, probe_oracle, "the oracle comparison");
    if (best_isa() != AXIAL_ISA_SCALAR)
        expect_caught(t, best_isa(), F_VALUE, probe_oracle, "the oracle comparison");
}

void t_selftest_bound(ax_t *t) {
    expect_caught(t, AXIAL_ISA_SCALAR, F_RUNNING_F32, probe_bound_f32, "the f32 error bound");
    expect_caught(t, AXIAL_ISA_SCALAR, F_RUNNING_F32, probe_bound_f64, "the f64 error bound");
}

void t_selftest_canaries(ax_t *t) {
    expect_caught(t, best_isa(), F_PAST_WRITE, probe_buffers, "the output's canaries");
}

void t_selftest_poison(ax_t *t) {
#ifdef AX_ASAN
    for (size_t misalign = 0; misalign < 8; misalign += 3) {
        ax_buf b;
        ax_buf_alloc(&b, 37, misalign);
        ax_buf_poison(&b, 0);
        for (int pass = 0; pass < 2; pass++) { /* as filled, then after a canary check */
            const char *when = pass ? "after ax_buf_canary_ok" : "after ax_buf_poison";
            AX_CHECK(t, __asan_address_is_poisoned(b.base) && __asan_address_is_poisoned(b.p - 8),
                     "misalign %zu, %s: the bytes before the tensor are not poisoned", misalign, when);
            AX_CHECK(t, __asan_address_is_poisoned(b.p + b.bytes) &&
                            __asan_address_is_poisoned(b.p + b.bytes + AX_CANARY - 1),
                     "misalign %zu, %s: the bytes after the tensor are not poisoned", misalign, when);
            AX_CHECK(t, !__asan_region_is_poisoned(b.p, b.bytes),
                     "misalign %zu, %s: the tensor's own bytes are poisoned", misalign, when);
            if (!pass) AX_CHECK(t, ax_buf_canary_ok(&b), "misalign %zu: the canaries", misalign);
        }
        ax_buf_free(&b);
    }
#else
    ax_skip(t, "no AddressSanitizer in this build: the canaries are not poisoned");
#endif
}

void t_selftest_input(ax_t *t) {
    expect_caught(t, best_isa(), F_INPUT_WRITE, probe_buffers, "the separate-input check");
}

void t_selftest_cross_isa(ax_t *t) {
    if (need_simd(t))
        expect_caught(t, best_isa(), F_VALUE, probe_cross_isa, "the cross-ISA comparison");
}

void t_selftest_threads(ax_t *t) {
    if (!need_simd(t)) return;
    if (!table_of(best_isa())->cumsum_seg[AXIAL_F32]) {
        ax_skip(t, "%s has no split scan kernel", axial_isa_name(best_isa()));
        axial_isa_select(t->isa);
        return;
    }
    axial_isa_select(t->isa);
    expect_caught(t, best_isa(), F_VALUE, probe_threads, "the thread-invariance comparison");
}

void t_selftest_golden(ax_t *t) {
    expect_caught(t, best_isa(), F_VALUE, t_golden, "test golden");
}

/* ---- the checks that end the process: in a child ----------------------------- */

#ifdef AX_HAVE_FORK
/* Runs test fn on isa with fault f in a child process (its output to
 * /dev/null).  Returns the wait status, or -1. */
static int run_child(ax_fn fn, const char *name, axial_isa isa, enum fault f) {
    fflush(stdout);
    fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        /* a sample of the test's cases: the fault is in every kernel call,
         * and the native stage runs the whole test on intact kernels */
        setenv("AXIAL_TEST_SCALE", "0.05", 1);
        plug(isa);
        fault = f;
        ax_quiet = true;
        ax_t s;
        ax_run(&s, name, fn, isa);
        _exit(s.fails ? 1 : s.skipped ? 77 : 0);
    }
    int status;
    return waitpid(pid, &status, 0) == pid ? status : -1;
}

static void expect_child_fails(ax_t *t, ax_fn fn, const char *name, enum fault f) {
    const axial_isa isa = best_isa();
    const int clean = run_child(fn, name, isa, F_NONE);
    if (clean >= 0 && WIFEXITED(clean) && WEXITSTATUS(clean) == 77) {
        ax_skip(t, "test %s reports a skip here", name);
        return;
    }
    AX_CHECK(t, clean >= 0 && WIFEXITED(clean) && WEXITSTATUS(clean) == 0,
             "test %s on intact %s kernels did not pass (wait status 0x%x)", name,
             axial_isa_name(isa), clean);
    const int broken = run_child(fn, name, isa, f);
    /* killed by the fault, or failed checks (a sanitizer's fault handler
     * exits with a status instead) */
    const bool crashed = broken >= 0 && WIFSIGNALED(broken);
    const bool failed = broken >= 0 && WIFEXITED(broken) && WEXITSTATUS(broken) != 0 &&
                        WEXITSTATUS(broken) != 77;
    AX_CHECK(t, crashed || failed,
             "test %s did not catch the broken %s kernel (wait status 0x%x)", name,
             axial_isa_name(isa), broken);
    if (crashed || failed)
        ax_note(t, "test %s on %s: %s, as it must", name, axial_isa_name(isa),
                crashed ? "the process died of the fault" : "it failed");
}

void t_selftest_guard_pages(ax_t *t) {
    expect_child_fails(t, t_guard_pages, "guard_pages", F_PAST_READ);
}

#if defined(__SANITIZE_THREAD__)
#define AX_SELFTEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define AX_SELFTEST_TSAN 1
#endif
#endif

void t_selftest_stack(ax_t *t) {
#ifdef AX_SELFTEST_TSAN
    /* ThreadSanitizer's instrumentation grows every frame past the bound
     * (test stack runs on uninstrumented builds only) */
    ax_skip(t, "a ThreadSanitizer build: its frames are not the kernels'");
#else
    expect_child_fails(t, t_stack, "stack", F_STACK);
#endif
}
#else
void t_selftest_guard_pages(ax_t *t) { ax_skip(t, "no fork on this platform"); }
void t_selftest_stack(ax_t *t) { ax_skip(t, "no fork on this platform"); }
#endif
