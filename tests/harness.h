/* SPDX-License-Identifier: MIT */
/*
 * harness.h: the test logic is plain C, independent of any test framework.
 *
 * A test is `void fn(ax_t *t)`.  It checks with AX_CHECK / AX_EXPECT_*; a
 * failed check is counted and its message kept (the first few are printed),
 * the test goes on, so one run shows every broken case.  Two drivers run the
 * same list (list.h): driver_criterion.c (native, one criterion test per
 * test and ISA) and driver_tap.c (no dependencies; the one that runs under
 * qemu-user, where criterion cannot).
 *
 * Nothing here includes src/ or kernels/: the tests see only include/axial.h,
 * and the oracle (oracle.c) is written independently of the library.
 */
#ifndef AX_HARNESS_H
#define AX_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "axial.h"
#include "call.h"

#if defined(__GNUC__)
#define AX_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define AX_PRINTF(f, a)
#endif

typedef struct ax_t {
    const char *name;    /* test name                                     */
    axial_isa isa;       /* the ISA selected for this run                  */
    long checks;         /* checks made                                   */
    long fails;          /* checks failed                                 */
    long skipped;        /* set by ax_skip: the test could not run here   */
    char first[1024];    /* the first failure's message                   */
    char skip_reason[256];
    uint64_t rng;        /* xorshift state, seeded per test               */
} ax_t;

typedef void (*ax_fn)(ax_t *t);

/* Records one check; returns `ok`.  The message names the case. */
bool ax_check(ax_t *t, bool ok, const char *file, int line, const char *fmt, ...)
    AX_PRINTF(5, 6);
#define AX_CHECK(t, cond, ...) ax_check((t), (cond), __FILE__, __LINE__, __VA_ARGS__)

/* While true, failed checks and notes are counted but not printed: the
 * self-tests run checks that must fail (test_selftest.c). */
extern bool ax_quiet;

/* The test could not run on this machine (reported as a skip, never a pass). */
void ax_skip(ax_t *t, const char *fmt, ...) AX_PRINTF(2, 3);

/* A line of information (a measured value, not a check): "# [test/isa] ..."
 * on stderr, which meson keeps in its log. */
void ax_note(ax_t *t, const char *fmt, ...) AX_PRINTF(2, 3);

/* Runs `fn` with `isa` selected: sets up t, selects, runs.  Returns false
 * when the ISA is not available: t is then marked skipped, or failed when
 * the ISA is required (ax_isa_required).  A run that made no check and
 * failed none is marked skipped, with that reason: it proved nothing. */
bool ax_run(ax_t *t, const char *name, ax_fn fn, axial_isa isa);

/* AXIAL_TEST_SEED (0 when unset): mixed into every test's seed.  The drivers
 * print it first; scripts/test.sh draws one per run of the suite. */
uint64_t ax_seed(void);

/* Whether AXIAL_TEST_REQUIRE_ISA names `isa`: its tests must run (an
 * unavailable required ISA fails them instead of showing a skip). */
bool ax_isa_required(axial_isa isa);

/* Deterministic random numbers (xorshift64*). */
uint64_t ax_rand(ax_t *t);
/* Uniform in [lo, hi] (inclusive). */
int64_t ax_rand_range(ax_t *t, int64_t lo, int64_t hi);

/* Scale of the random tests: AXIAL_TEST_SCALE (default 1; CI under qemu
 * may lower it, a soak run may raise it). */
double ax_scale(void);

/* False when AXIAL_TEST_BIG=0: the accuracy targets at full size (2^24 and
 * 2^28 elements, 1 GiB) then report a skip (too slow under qemu-user). */
bool ax_big(void);

/* ---- buffers with canaries ---------------------------------------------- */

/* AX_ASAN: the tests are built with AddressSanitizer (GCC's or clang's). */
#if defined(__SANITIZE_ADDRESS__)
#define AX_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AX_ASAN 1
#endif
#endif

/* A buffer of `bytes` (+ `misalign` bytes before it) followed by
 * AX_CANARY bytes of 0xA5.  Fill and check with the helpers below.  Under
 * AddressSanitizer the bytes around the tensor are also poisoned from
 * ax_buf_poison on, so that any read or write of them by a kernel is
 * reported at once (the canaries alone see writes only). */
#define AX_CANARY 64
typedef struct {
    unsigned char *base; /* malloc'd                                    */
    unsigned char *p;    /* the tensor: base + misalign                 */
    size_t bytes;
    size_t misalign;
} ax_buf;

void ax_buf_alloc(ax_buf *b, size_t bytes, size_t misalign);
void ax_buf_free(ax_buf *b);
/* Sets the tensor bytes to `fill` and the canaries to 0xA5. */
void ax_buf_poison(ax_buf *b, unsigned char fill);
/* True when the AX_CANARY bytes before and after the tensor are intact. */
bool ax_buf_canary_ok(const ax_buf *b);
/* Lets the test's own code (a planted fault) touch n bytes at p that
 * ax_buf_poison poisoned (nothing without AddressSanitizer). */
void ax_buf_unpoison(void *p, size_t n);
/* True when every tensor byte is still `fill`. */
bool ax_buf_untouched(const ax_buf *b, unsigned char fill);

/* Shape as text "[2, 0, 3]" into buf (for messages). */
const char *ax_shape_str(char *buf, size_t cap, size_t rank, const int64_t *shape);

/* Whether `name` is one of the comma-separated names in `list` (NULL: none):
 * the AXIAL_TEST_REQUIRE_ISA and AXIAL_TEST_SKIP lists.  Inline, so that
 * kernel_table.c, which does not link harness.c, has it too. */
static inline bool ax_in_list(const char *list, const char *name) {
    const size_t len = strlen(name);
    for (const char *p = list; p && (p = strstr(p, name)) != NULL; p += len)
        if ((p == list || p[-1] == ',') && (p[len] == '\0' || p[len] == ','))
            return true;
    return false;
}

/* Crash naming for tests that place tensors next to inaccessible pages: while
 * a watch is on, a SIGSEGV or SIGBUS first writes `head` and the string at
 * `what` (as it is when the fault comes: the test rewrites it per call) to
 * stderr, then ends the process as before, so the driver reports the crash
 * and the log names the call.  POSIX; elsewhere they do nothing. */
void ax_fault_watch(const char *head, const char *what);
void ax_fault_unwatch(void);

#endif /* AX_HARNESS_H */
