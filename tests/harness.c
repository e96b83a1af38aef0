/* SPDX-License-Identifier: MIT */
/* harness.c: checks, skips, random numbers, canary buffers and crash naming
 * for the tests. */
#if defined(__unix__) || defined(__APPLE__)
#define _DEFAULT_SOURCE 1 /* sigaction */
#include <signal.h>
#include <unistd.h>
#define AX_HAVE_SIGACTION 1
#endif

#include "harness.h"
#include "kernels.h" /* axial__stream_bytes */

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#ifdef AX_ASAN
#include <sanitizer/asan_interface.h>
#define AX_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define AX_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define AX_POISON(p, n) ((void)(p), (void)(n))
#define AX_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

static const int ax_print_limit = 8; /* failures printed per test */
bool ax_quiet;

bool ax_check(ax_t *t, bool ok, const char *file, int line, const char *fmt, ...) {
    t->checks++;
    if (ok) return true;
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (t->fails == 0)
        snprintf(t->first, sizeof t->first, "%s:%d: [%s/%s] %s", file, line, t->name,
                 axial_isa_name(t->isa), msg);
    if (t->fails < ax_print_limit && !ax_quiet)
        fprintf(stderr, "# FAIL %s:%d: [%s/%s] %s\n", file, line, t->name,
                axial_isa_name(t->isa), msg);
    t->fails++;
    return false;
}

void ax_skip(ax_t *t, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->skip_reason, sizeof t->skip_reason, fmt, ap);
    va_end(ap);
    t->skipped = 1;
}

void ax_note(ax_t *t, const char *fmt, ...) {
    if (ax_quiet) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "# [%s/%s] %s\n", t->name, axial_isa_name(t->isa), msg);
}

static uint64_t ax_hash(const char *s, uint64_t h) {
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

uint64_t ax_seed(void) {
    const char *seed = getenv("AXIAL_TEST_SEED");
    return seed ? strtoull(seed, NULL, 0) : 0;
}

bool ax_isa_required(axial_isa isa) {
    return ax_in_list(getenv("AXIAL_TEST_REQUIRE_ISA"), axial_isa_name(isa));
}

bool ax_run(ax_t *t, const char *name, ax_fn fn, axial_isa isa) {
    memset(t, 0, sizeof *t);
    t->name = name;
    t->isa = isa;
    /* The seed depends on the test and AXIAL_TEST_SEED (not the ISA): every
     * ISA sees the same cases; scripts/test.sh draws a new AXIAL_TEST_SEED
     * for every run of the suite and prints it, so a run can be replayed. */
    t->rng = ax_hash(name, 0xcbf29ce484222325ull ^ ax_seed()) | 1;
    /* The tests' outputs of 4 MiB and more take the streaming-store paths on
     * every machine: the threshold, the last-level cache's size up to
     * AXIAL_STREAM_MAX (kernels.h), is held at its least here (after the
     * library has set it, and while no other thread runs). */
    (void)axial_isa_available();
    axial__stream_bytes = AXIAL_STREAM_MIN;
    if (!(axial_isa_available() & (1u << isa))) {
        if (ax_isa_required(isa)) /* a required ISA never shows as a skip */
            ax_check(t, false, __FILE__, __LINE__,
                     "%s is required by AXIAL_TEST_REQUIRE_ISA but not available on this "
                     "CPU/build (available mask 0x%x)",
                     axial_isa_name(isa), axial_isa_available());
        else
            ax_skip(t, "%s is not available on this CPU/build (available mask 0x%x)",
                    axial_isa_name(isa), axial_isa_available());
        return false;
    }
    if (axial_isa_select(isa) != AXIAL_OK) {
        ax_check(t, false, __FILE__, __LINE__, "axial_isa_select(%s) failed: %s",
                 axial_isa_name(isa), axial_last_error());
        return true;
    }
    fn(t);
    /* A test that checked nothing proved nothing: a skip, with the reason. */
    if (!t->skipped && t->checks == 0)
        ax_skip(t, "made no checks on this machine or with these settings");
    return !t->skipped;
}

uint64_t ax_rand(ax_t *t) {
    t->rng ^= t->rng >> 12;
    t->rng ^= t->rng << 25;
    t->rng ^= t->rng >> 27;
    return t->rng * 0x2545f4914f6cdd1dull;
}

int64_t ax_rand_range(ax_t *t, int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1u;
    uint64_t r = ax_rand(t);
    return (int64_t)((uint64_t)lo + (span ? r % span : r));
}

double ax_scale(void) {
    const char *s = getenv("AXIAL_TEST_SCALE");
    double v = s ? strtod(s, NULL) : 1.0;
    return v > 0 ? v : 1.0;
}

bool ax_big(void) {
    const char *s = getenv("AXIAL_TEST_BIG");
    return !(s && strcmp(s, "0") == 0);
}

/* the bytes of b's allocation: its canaries, misalignment and tensor, to 64 */
static size_t buf_total(size_t bytes, size_t misalign) {
    return (AX_CANARY + misalign + bytes + AX_CANARY + 63) & ~(size_t)63;
}

void ax_buf_alloc(ax_buf *b, size_t bytes, size_t misalign) {
    const size_t total = buf_total(bytes, misalign);
    b->base = aligned_alloc(64, total);
    if (!b->base) {
        fprintf(stderr, "# test harness: out of memory (%zu bytes)\n", total);
        abort();
    }
    b->p = b->base + AX_CANARY + misalign;
    b->bytes = bytes;
    b->misalign = misalign;
}

void ax_buf_free(ax_buf *b) {
    if (b->base) AX_UNPOISON(b->base, buf_total(b->bytes, b->misalign));
    free(b->base);
    b->base = b->p = NULL;
}

void ax_buf_unpoison(void *p, size_t n) { AX_UNPOISON(p, n); }

/* (ASan: from the tensor's end to the allocation's, as a granule that
 * ends inside the poisoned bytes is left addressable) */
void ax_buf_poison(ax_buf *b, unsigned char fill) {
    const size_t lo = AX_CANARY + b->misalign, hi = buf_total(b->bytes, b->misalign) - lo - b->bytes;
    AX_UNPOISON(b->base, lo + b->bytes + hi);
    memset(b->base, 0xA5, lo);
    memset(b->p, fill, b->bytes);
    memset(b->p + b->bytes, 0xA5, AX_CANARY);
    AX_POISON(b->base, lo);
    AX_POISON(b->p + b->bytes, hi);
}

bool ax_buf_canary_ok(const ax_buf *b) {
    const size_t lo = AX_CANARY + b->misalign, hi = buf_total(b->bytes, b->misalign) - lo - b->bytes;
    AX_UNPOISON(b->base, lo);
    AX_UNPOISON(b->p + b->bytes, hi);
    bool ok = true;
    for (const unsigned char *q = b->base; q < b->p; q++)
        ok &= *q == 0xA5;
    for (size_t i = 0; i < AX_CANARY; i++)
        ok &= b->p[b->bytes + i] == 0xA5;
    AX_POISON(b->base, lo);
    AX_POISON(b->p + b->bytes, hi);
    return ok;
}

bool ax_buf_untouched(const ax_buf *b, unsigned char fill) {
    for (size_t i = 0; i < b->bytes; i++)
        if (b->p[i] != fill) return false;
    return true;
}

const char *ax_shape_str(char *buf, size_t cap, size_t rank, const int64_t *shape) {
    size_t len = 0;
    len += (size_t)snprintf(buf + len, cap - len, "[");
    for (size_t i = 0; i < rank && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, i ? ", %lld" : "%lld",
                                (long long)shape[i]);
    if (len < cap) snprintf(buf + len, cap - len, "]");
    return buf;
}

#ifdef AX_HAVE_SIGACTION
static const char *ax_fw_head = "", *ax_fw_what = "";
static struct sigaction ax_fw_old_segv, ax_fw_old_bus;

static void ax_fw_handler(int sig) { /* async-signal-safe: write, signal, raise */
    if (write(2, ax_fw_head, strlen(ax_fw_head)) < 0 ||
        write(2, ax_fw_what, strlen(ax_fw_what)) < 0 || write(2, "\n", 1) < 0) {
        /* nothing more to do */
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void ax_fault_watch(const char *head, const char *what) {
    ax_fw_head = head;
    ax_fw_what = what;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = ax_fw_handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &ax_fw_old_segv);
    sigaction(SIGBUS, &sa, &ax_fw_old_bus);
}

void ax_fault_unwatch(void) {
    sigaction(SIGSEGV, &ax_fw_old_segv, NULL);
    sigaction(SIGBUS, &ax_fw_old_bus, NULL);
    ax_fw_head = ax_fw_what = "";
}
#else
void ax_fault_watch(const char *head, const char *what) {
    (void)head;
    (void)what;
}
void ax_fault_unwatch(void) {}
#endif
