/* SPDX-License-Identifier: MIT */
/*
 * env_test.c: the environment variables the library reads once, at first use:
 * AXIAL_ISA and AXIAL_VERBOSE.  meson runs this program with several values
 * of each; it derives what the library must have done from the variables and
 * axial_isa_available():
 *   - AXIAL_ISA, matched in any case with surrounding white space ignored:
 *     a name of this architecture caps the choice (the best available ISA at
 *     or below it; exactly that ISA when it is available); an unknown name or
 *     one of another architecture is ignored (the best ISA), reported by
 *     axial_last_error() and by one warning line on stderr;
 *   - AXIAL_VERBOSE=1: one "axial: init" line, then exactly one line per
 *     successful call (none for a failed one) and per axial_isa_select, each
 *     compared in full with the line the call must print (op, dtype, shape,
 *     arguments, planned kernel calls, kernel names of the active ISA);
 *     unset, "0" or any other value: the calls print nothing.
 * The program sends its own stderr to a temporary file (dup2) while it calls
 * the library, so it needs no shell and runs under qemu-user.  Prints TAP.
 * Where AXIAL_ISA names or caps no ISA, the default may run CumSum and
 * ReduceSum on another ISA than the active one (axial__tuning, from the
 * vendor and family this program reads with CPUID itself): the init line
 * then says so ("; per op cumsum=... reduce_sum=..."), and those calls'
 * lines name that ISA's kernels; otherwise the init line has no such part.
 * The log-space ops' lines name, per kernel, the active ISA where that ISA's
 * own table (kernels/kernels.h) has the entry, else scalar (a SIMD table may
 * leave them NULL: dispatch runs the scalar kernel).
 */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno */
#define _DEFAULT_SOURCE         /* MAP_ANONYMOUS, MAP_NORESERVE */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "axial.h"
#include "internal.h" /* axial__tuning: the default's per-op choice */
#include "kernels.h"  /* the ISAs' own tables: which log-space kernels they have */
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include "sysmem.h"

static int failures, ntests;

static void check(int ok, const char *fmt, const char *a, const char *b) {
    ntests++;
    failures += !ok;
    printf("%s %d - ", ok ? "ok" : "not ok", ntests);
    printf(fmt, a, b);
    printf("\n");
}

static void skip(const char *what, const char *why) {
    printf("ok %d - %s # SKIP %s\n", ++ntests, what, why);
}

/* The variable with surrounding white space removed, in lower case. */
static void normalise(const char *env, char *out, size_t cap) {
    while (*env && strchr(" \t\n\v\f\r", *env))
        env++;
    size_t n = strlen(env);
    while (n > 0 && strchr(" \t\n\v\f\r", env[n - 1]))
        n--;
    size_t k = 0;
    for (; k < n && k + 1 < cap; k++)
        out[k] = (char)(env[k] >= 'A' && env[k] <= 'Z' ? env[k] - 'A' + 'a' : env[k]);
    out[k] = '\0';
}

/* The lines the library wrote, and the next one to compare. */
static char err_text[16384];
static char *err_next;

static const char *next_line(void) {
    static char line[2048];
    if (err_next == NULL || *err_next == '\0')
        return NULL;
    char *nl = strchr(err_next, '\n');
    size_t n = nl ? (size_t)(nl - err_next) : strlen(err_next);
    if (n >= sizeof line)
        n = sizeof line - 1;
    memcpy(line, err_next, n);
    line[n] = '\0';
    err_next += nl ? (size_t)(nl - err_next) + 1 : strlen(err_next);
    return line;
}

static int starts_with(const char *s, const char *prefix) {
    return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The calls whose lines are compared: every op, the empty, copy and fill
 * plans, both reduce plans and every roll plan, and one failed call. */
struct call {
    const char *expect; /* %s: the kernel's ISA; NULL: the call fails, no line */
};
/* The log-space lines: also the table slots of their one or two kernels
 * (byte offsets + 1), whose ISA their %s name (see slot_isa). */
struct lse_call {
    const char *expect;
    size_t slot1, slot2;
};
/* A line to compare: slot 0 is the active ISA's name (the other ops). */
struct line {
    const char *expect;
    size_t slot1, slot2;
};

#define LSE_SLOT(field, DT)                                                                \
    (offsetof(struct axial_kernels, field) + (size_t)(DT) * sizeof(void (*)(void)) + 1)

/* The ISA whose kernel sits in `slot` of the active ISA's merged table. */
static const char *slot_isa(axial_isa active, size_t slot) {
    if (slot == 0)
        return axial_isa_name(active);
    const struct axial_kernels *own = NULL;
    switch (active) {
#ifdef AXIAL_HAVE_AVX2
    case AXIAL_ISA_AVX2: own = &axial_kernels__avx2; break;
#endif
#ifdef AXIAL_HAVE_AVX512
    case AXIAL_ISA_AVX512: own = &axial_kernels__avx512; break;
#endif
#ifdef AXIAL_HAVE_NEON
    case AXIAL_ISA_NEON: own = &axial_kernels__neon; break;
#endif
    default: own = &axial_kernels__scalar; break;
    }
    void (*fn)(void);
    memcpy(&fn, (const char *)own + slot - 1, sizeof fn);
    return fn ? axial_isa_name(active) : "scalar";
}

/* A call that cannot allocate prints no line: ReduceSum of u8 [2, m, 2] over
 * axes {0, 2} needs an 8m-byte accumulator, here more than RAM + swap (x and
 * y are reserved, never touched).  Left out (no call, so no line either)
 * where the kernel would grant it (vm.overcommit_memory 1) or the address
 * space cannot be reserved.  Returns nonzero unless it failed with NOMEM. */
static int reduce_nomem(void) {
    const int mode = ax_overcommit_mode();
    const unsigned long long total_kb = ax_meminfo_kb("MemTotal") + ax_meminfo_kb("SwapTotal");
    if ((mode != 0 && mode != 2) || total_kb == 0)
        return 0;
    const size_t m = (size_t)(total_kb * 1024ull / 4 + (1ull << 28));
    void *x = mmap(NULL, 4 * m, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    void *y = mmap(NULL, m, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    int bad = 0;
    if (x != MAP_FAILED && y != MAP_FAILED) {
        const int64_t s[3] = {2, (int64_t)m, 2}, a[2] = {0, 2};
        bad = axial_reduce_sum(AXIAL_U8, x, y, 3, s, a, 2, 0) != AXIAL_E_NOMEM;
    }
    if (x != MAP_FAILED)
        munmap(x, 4 * m);
    if (y != MAP_FAILED)
        munmap(y, m);
    return bad;
}

/* The vendor and family of this CPU (x86 CPUID; elsewhere not AMD, 0). */
static void cpu_family(bool *amd, unsigned *family) {
    *amd = false;
    *family = 0;
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    char vendor[13] = "";
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return;
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    *amd = strcmp(vendor, "AuthenticAMD") == 0;
    if (__get_cpuid(1, &a, &b, &c, &d))
        *family = ((a >> 8) & 0xf) + (((a >> 8) & 0xf) == 0xf ? (a >> 20) & 0xff : 0);
#endif
}

static int run_calls(const struct line **calls) {
    static double x[32], y[32];
    static const struct call c[] = {
        {"axial: cumsum f32 [2,3] axis=-1 flags=0x0 -> scan(outer=2,n=3,inner=1) "
         "kernel=axial_cumsum_f32__%s"},
        {"axial: cumsum i16 [2,3,4] axis=1 flags=0x3 -> scan(outer=2,n=3,inner=4) "
         "kernel=axial_cumsum_i16__%s"},
        {"axial: cumsum f64 [0,3] axis=0 flags=0x0 -> empty kernel=none"},
        {NULL}, /* cumsum axis 5: AXIAL_E_AXIS */
        {"axial: reduce_sum f32 [2,3] axes=[1] flags=0x0 -> reduce(outer=2,n=3,inner=1) "
         "kernel=axial_reduce_f32__%s"},
        {"axial: reduce_sum bf16 [2,16,4] axes=[0,-1] flags=0x1 -> "
         "2*reduce_acc(outer=16,n=4,inner=1)+reduce_finish(count=16) "
         "kernel=axial_reduce_acc_bf16__%s,axial_reduce_finish_bf16__%s"},
        {"axial: reduce_sum u8 [2,3] axes=[] flags=0x0 -> copy(count=6) kernel=none"},
        {"axial: reduce_sum i32 [2,0] axes=[1] flags=0x0 -> zero-fill(count=2) kernel=none"},
        {"axial: reduce_sum f32 [0,3] axes=[1] flags=0x0 -> empty kernel=none"},
        {"axial: roll f32 [2,3] shift=[1] axes=[1] -> 1*(roll(outer=2,n=3,shift=1)) "
         "kernel=axial_roll_b4__%s"},
        {"axial: roll i64 [4,3] shift=[-3] axes=[0] -> 1*(roll(outer=1,n=12,shift=3)) "
         "kernel=axial_roll_b8__%s"},
        {"axial: roll u8 [2,3,4] shift=[1,1] axes=[0,2] -> copy-to-temp(bytes=24) "
         "1*(roll(outer=3,n=4,shift=1)+roll(outer=3,n=4,shift=1)) kernel=axial_roll_b1__%s"},
        {"axial: roll f16 [2,3,4] shift=[1] axes=[0,1,2] -> "
         "2*(roll(outer=2,n=4,shift=1)+roll(outer=1,n=4,shift=1)) kernel=axial_roll_b2__%s"},
        {"axial: roll bool [2,3,2] shift=[5] axes=[] -> 1*(roll(outer=1,n=12,shift=5)) "
         "kernel=axial_roll_b1__%s"},
        /* above the split threshold, no executor: one task, the unsplit roll's
         * kernel call (no " tasks=N", no memcpy pieces) */
        {"axial: roll f32 [262144] shift=[1] axes=[0] -> 1*(roll(outer=1,n=262144,shift=1)) "
         "kernel=axial_roll_b4__%s"},
        {"axial: roll f32 [0,3] shift=[1] axes=[1] -> empty kernel=none"},
    };
    static const struct lse_call l[] = {
        {"axial: logcumsumexp f32 [2,3] axis=1 flags=0x2 -> scan(outer=2,n=3,inner=1) "
         "kernel=axial_logcumsumexp_f32__%s", LSE_SLOT(logcumsumexp, AXIAL_F32), 0},
        {"axial: logcumsumexp bf16 [0,3] axis=0 flags=0x0 -> empty kernel=none", 0, 0},
        {NULL, 0, 0}, /* logcumsumexp of i32: AXIAL_E_DTYPE */
        {"axial: reduce_logsumexp f16 [2,3] axes=[-1] flags=0x0 -> "
         "reduce_lse(outer=2,n=3,inner=1) kernel=axial_reduce_lse_f16__%s", LSE_SLOT(reduce_lse, AXIAL_F16), 0},
        {"axial: reduce_logsumexp f64 [2,3,4] axes=[0,-1] flags=0x1 -> "
         "2*reduce_lse_acc(outer=3,n=4,inner=1)+reduce_lse_finish(count=3) "
         "kernel=axial_reduce_lse_acc_f64__%s,axial_reduce_lse_finish_f64__%s",
         LSE_SLOT(reduce_lse_acc, AXIAL_F64), LSE_SLOT(reduce_lse_finish, AXIAL_F64)},
        {"axial: reduce_logsumexp f32 [2,0] axes=[1] flags=0x0 -> fill-neg-inf(count=2) "
         "kernel=axial_reduce_lse_finish_f32__%s", LSE_SLOT(reduce_lse_finish, AXIAL_F32), 0},
        {"axial: reduce_logsumexp f32 [2,3] axes=[] flags=0x0 -> copy(count=6) kernel=none", 0,
         0},
        {NULL, 0, 0}, /* reduce_logsumexp of bool: AXIAL_E_DTYPE */
        {NULL, 0, 0}, /* reduce_nomem: AXIAL_E_NOMEM (or left out) */
    };
    const int64_t s23[2] = {2, 3}, s234[3] = {2, 3, 4}, s03[2] = {0, 3}, s20[2] = {2, 0},
                  s43[2] = {4, 3}, s232[3] = {2, 3, 2}, s2164[3] = {2, 16, 4}; /* (128 bf16: x) */
    const int64_t a1[1] = {1}, a0m1[2] = {0, -1}, a0[1] = {0}, a02[2] = {0, 2},
                  a012[3] = {0, 1, 2}, one[1] = {1}, m3[1] = {-3}, ones[2] = {1, 1},
                  five[1] = {5};
    int bad = 0;
    bad |= axial_cumsum(AXIAL_F32, x, y, 2, s23, -1, 0);
    bad |= axial_cumsum(AXIAL_I16, x, y, 3, s234, 1, 3);
    bad |= axial_cumsum(AXIAL_F64, x, y, 2, s03, 0, 0);
    bad |= axial_cumsum(AXIAL_F32, x, y, 2, s23, 5, 0) != AXIAL_E_AXIS;
    bad |= axial_reduce_sum(AXIAL_F32, x, y, 2, s23, a1, 1, 0);
    bad |= axial_reduce_sum(AXIAL_BF16, x, y, 3, s2164, a0m1, 2, AXIAL_REDUCE_KEEP_DIMS);
    bad |= axial_reduce_sum(AXIAL_U8, x, y, 2, s23, NULL, 0, 0);
    bad |= axial_reduce_sum(AXIAL_I32, x, y, 2, s20, a1, 1, 0);
    bad |= axial_reduce_sum(AXIAL_F32, x, y, 2, s03, a1, 1, 0);
    bad |= axial_roll(AXIAL_F32, x, y, 2, s23, one, 1, a1, 1);
    bad |= axial_roll(AXIAL_I64, x, y, 2, s43, m3, 1, a0, 1);
    bad |= axial_roll(AXIAL_U8, x, x, 3, s234, ones, 2, a02, 2);
    bad |= axial_roll(AXIAL_F16, x, y, 3, s234, one, 1, a012, 3);
    bad |= axial_roll(AXIAL_BOOL, x, y, 3, s232, five, 1, NULL, 0);
    {
        const int64_t n1[1] = {262144}; /* 1 MiB of f32 */
        float *bx = calloc(262144, sizeof *bx), *by = calloc(262144, sizeof *by);
        bad |= bx == NULL || by == NULL || axial_roll(AXIAL_F32, bx, by, 1, n1, one, 1, a0, 1);
        free(bx);
        free(by);
    }
    bad |= axial_roll(AXIAL_F32, x, y, 2, s03, one, 1, a1, 1);
    const int64_t am1[1] = {-1};
    bad |= axial_logcumsumexp(AXIAL_F32, x, y, 2, s23, 1, AXIAL_CUMSUM_REVERSE);
    bad |= axial_logcumsumexp(AXIAL_BF16, x, y, 2, s03, 0, 0);
    bad |= axial_logcumsumexp(AXIAL_I32, x, y, 2, s23, 1, 0) != AXIAL_E_DTYPE;
    bad |= axial_reduce_logsumexp(AXIAL_F16, x, y, 2, s23, am1, 1, 0);
    bad |= axial_reduce_logsumexp(AXIAL_F64, x, y, 3, s234, a0m1, 2, AXIAL_REDUCE_KEEP_DIMS);
    bad |= axial_reduce_logsumexp(AXIAL_F32, x, y, 2, s20, a1, 1, 0);
    bad |= axial_reduce_logsumexp(AXIAL_F32, x, y, 2, s23, NULL, 0, 0);
    bad |= axial_reduce_logsumexp(AXIAL_BOOL, x, y, 2, s23, a1, 1, 0) != AXIAL_E_DTYPE;
    bad |= reduce_nomem();
    static struct line lines[sizeof c / sizeof *c + sizeof l / sizeof *l];
    size_t n = 0;
    for (size_t k = 0; k < sizeof c / sizeof *c; k++)
        lines[n++] = (struct line){c[k].expect, 0, 0};
    for (size_t k = 0; k < sizeof l / sizeof *l; k++)
        lines[n++] = (struct line){l[k].expect, l[k].slot1, l[k].slot2};
    for (size_t k = 0; k < n; k++)
        calls[k] = &lines[k];
    calls[n] = NULL;
    return bad;
}

int main(void) {
#if defined(__aarch64__)
    static const axial_isa order[] = {AXIAL_ISA_SCALAR, AXIAL_ISA_NEON};
#else
    static const axial_isa order[] = {AXIAL_ISA_SCALAR, AXIAL_ISA_AVX2, AXIAL_ISA_AVX512};
#endif
    const int n = (int)(sizeof order / sizeof *order);
    const char *env = getenv("AXIAL_ISA");
    const char *venv = getenv("AXIAL_VERBOSE");
    const int verbose = venv && strcmp(venv, "1") == 0;
    char name[64] = "";
    if (env)
        normalise(env, name, sizeof name);

    /* stderr goes to a temporary file while the library runs */
    fflush(stderr);
    FILE *tmp = tmpfile();
    const int saved = dup(2);
    if (tmp == NULL || saved < 0 || dup2(fileno(tmp), 2) < 0) {
        printf("Bail out! cannot redirect stderr\n");
        return 1;
    }

    axial_isa got = axial_isa_active(); /* first use: reads the variables */
    char msg[512];
    snprintf(msg, sizeof msg, "%s", axial_last_error());
    const unsigned avail = axial_isa_available();
    const char *isa = axial_isa_name(got);
    const struct line *calls[32];
    const int calls_bad = run_calls(calls);
    /* one select that succeeds (the active ISA again), one that is refused */
    axial_isa refused = AXIAL_ISA_SCALAR;
    for (int k = 3; k >= 0; k--)
        if (!(avail & (1u << k))) refused = (axial_isa)k;
    const int sel_bad = axial_isa_select(got) != AXIAL_OK ||
                        axial_isa_select(refused) != AXIAL_E_ISA;

    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    const size_t len = fread(err_text, 1, sizeof err_text - 1, tmp);
    err_text[len] = '\0';
    fclose(tmp);
    err_next = err_text;

    int cap = n - 1, known = 0, other_arch = 0;
    for (int i = 0; i < n; i++)
        if (strcmp(name, axial_isa_name(order[i])) == 0) cap = i, known = 1;
    for (int i = 0; i < 4; i++)
        if (strcmp(name, axial_isa_name((axial_isa)i)) == 0 && !known) other_arch = 1;
    int ignored = env && *name && !known; /* unknown, or another architecture's */
    if (env && !*name && *env)
        ignored = 1; /* only white space: not a name */
    axial_isa want = AXIAL_ISA_SCALAR;
    for (int i = 0; i <= cap; i++)
        if (avail & (1u << order[i])) want = order[i];
    char shown[128];
    snprintf(shown, sizeof shown, "AXIAL_ISA=%s", env ? env : "(unset)");
    for (char *p = shown; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t') *p = '?';

    printf("# %s AXIAL_VERBOSE=%s: active %s, available 0x%x\n", shown, venv ? venv : "(unset)",
           isa, avail);
    check(got == want, "%s: active ISA %s as derived from the variable", shown, isa);
    if (known) {
        if (avail & (1u << order[cap]))
            check(got == order[cap], "%s: the named ISA %s is active", shown,
                  axial_isa_name(order[cap]));
        else
            skip(shown, "the named ISA is not available here (capped below it instead)");
    } else {
        skip(shown, "names no ISA of this architecture");
    }

    /* the warning: on stderr, first, once; and in the initialising thread's last error */
    const char *first = next_line();
    if (ignored) {
        int ok = starts_with(first, "axial: warning: AXIAL_ISA=\"") &&
                 strstr(first, other_arch ? "is not an ISA of this architecture: ignored"
                                          : "is not one of scalar, avx2, avx512, neon: ignored");
        check(ok, "%s: warning on stderr (\"%s\")", shown, first ? first : "(nothing)");
        check(strstr(msg, "AXIAL_ISA=\"") && strstr(msg, "ignored") &&
                  (strlen(env) > 40 || strchr(env, '\n') || strstr(msg, env)),
              "%s: axial_last_error names it (\"%s\")", shown, msg);
        first = next_line();
    } else {
        check(!starts_with(first, "axial: warning: AXIAL_ISA"),
              "%s: no AXIAL_ISA warning on stderr (\"%s\")", shown, first ? first : "(nothing)");
        check(msg[0] == '\0', "%s: nothing in axial_last_error (\"%s\")", shown, msg);
    }
    check(!calls_bad && !sel_bad, "%s: the calls return their statuses%s", shown, "");

    if (!verbose) {
        int quiet = first == NULL;
        if (venv && *venv && strcmp(venv, "0") != 0) /* not 0 or 1: one warning, then quiet */
            quiet = starts_with(first, "axial: warning: AXIAL_VERBOSE=\"") &&
                    next_line() == NULL;
        check(quiet, "AXIAL_VERBOSE=%s: the calls print nothing (\"%s\")",
              venv ? venv : "(unset)", first ? first : "");
        printf("1..%d\n", ntests);
        return failures ? 1 : 0;
    }

    /* The default's per-op choice: only where AXIAL_ISA names or caps nothing. */
    unsigned char fam_isa[AXIAL_NFAMILY];
    bool amd;
    unsigned family;
    cpu_family(&amd, &family);
    const char *tuned =
        known ? NULL : axial__tuning(amd, family, avail, (unsigned)got, fam_isa);
    char per_op[160] = "";
    if (tuned)
        snprintf(per_op, sizeof per_op, "; per op cumsum=%s reduce_sum=%s (%s)",
                 axial_isa_name((axial_isa)fam_isa[AXIAL_FAMILY_CUMSUM]),
                 axial_isa_name((axial_isa)fam_isa[AXIAL_FAMILY_REDUCE_SUM]), tuned);
    else
        fam_isa[AXIAL_FAMILY_CUMSUM] = fam_isa[AXIAL_FAMILY_REDUCE_SUM] = (unsigned char)got;
    printf("# per-op choice on this CPU (%s, family 0x%x): %s\n", amd ? "AMD" : "not AMD",
           family, tuned ? per_op + 2 : "none");

    /* AXIAL_VERBOSE=1: the init line, then one line per call, in order */
    char want_line[2048], names[64] = "";
    for (int i = 0; i < n; i++)
        if (avail & (1u << order[i]))
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     names[0] ? "," : "", axial_isa_name(order[i]));
    snprintf(want_line, sizeof want_line, "axial: init isa=%s available=%s (mask 0x%x) cpu=", isa,
             names, avail);
    check(starts_with(first, want_line) && strstr(first, " compiled=") &&
              strstr(first, " stream_bytes=") &&
              (!env || !*env || strstr(first, "AXIAL_ISA=\"")),
          "init line \"%s\" (wanted \"%s...\")", first ? first : "(nothing)", want_line);
    {
        const char *part = first ? strstr(first, "; per op") : NULL;
        check(tuned ? part && strcmp(part, per_op) == 0 : part == NULL,
              "init line's per-op part \"%s\" (wanted \"%s\")", part ? part : "",
              tuned ? per_op : "");
    }
    for (int k = 0; calls[k]; k++) {
        if (calls[k]->expect == NULL)
            continue; /* a failed call prints nothing: the next line is the next call's */
        /* CumSum's and ReduceSum's kernels: the family's ISA */
        axial_isa own = got;
        if (starts_with(calls[k]->expect, "axial: cumsum "))
            own = (axial_isa)fam_isa[AXIAL_FAMILY_CUMSUM];
        else if (starts_with(calls[k]->expect, "axial: reduce_sum "))
            own = (axial_isa)fam_isa[AXIAL_FAMILY_REDUCE_SUM];
        snprintf(want_line, sizeof want_line, calls[k]->expect,
                 slot_isa(own, calls[k]->slot1), slot_isa(own, calls[k]->slot2 ? calls[k]->slot2 : calls[k]->slot1));
        const char *line = next_line();
        check(line && strcmp(line, want_line) == 0, "call line \"%s\" (wanted \"%s\")",
              line ? line : "(nothing)", want_line);
    }
    snprintf(want_line, sizeof want_line, "axial: isa_select isa=%s was=%s", isa, isa);
    const char *line = next_line();
    check(line && strcmp(line, want_line) == 0, "select line \"%s\" (wanted \"%s\")",
          line ? line : "(nothing)", want_line);
    snprintf(want_line, sizeof want_line,
             "axial: isa_select isa=%s refused: not available (mask 0x%x)",
             axial_isa_name(refused), avail);
    line = next_line();
    check(line && strcmp(line, want_line) == 0, "refused select line \"%s\" (wanted \"%s\")",
          line ? line : "(nothing)", want_line);
    line = next_line();
    check(line == NULL, "nothing more on stderr (\"%s\")%s", line ? line : "", "");
    printf("1..%d\n", ntests);
    return failures ? 1 : 0;
}
