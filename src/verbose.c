/* SPDX-License-Identifier: MIT */
/*
 * verbose.c: AXIAL_VERBOSE's line per call (the ONEDNN_VERBOSE habit).
 *
 * With AXIAL_VERBOSE=1 every successful call prints, right before its kernel
 * calls, one line on stderr:
 *
 *   axial: <op> <dtype> <shape> <arguments> -> <plan> kernel=<name>[,<name>]
 *
 * where <plan> names the kernel calls the planner makes on its contiguous
 * shapes (scan, reduce, reduce_acc + reduce_finish, roll, and the split
 * paths' scan_total + cumsum_seg, cumsum_cols, reduce_cols + reduce_finish;
 * or a copy, a zero
 * fill, an empty tensor, with kernel=none) and <name> is the kernel's own name,
 * axial_<op>_<dtype>__<isa>, with the ISA the entry really came from (scalar
 * where the active ISA leaves the entry to scalar).  Fields are separated by
 * spaces and contain none; lists are [a,b] with commas.  Each line is built in
 * a buffer and written with one fprintf, so lines from several threads do not
 * interleave within a line.  Nothing here runs when AXIAL_VERBOSE is off: the
 * planners test axial__verbose_on() first.
 */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

static const char *const axial_dtype_names[AXIAL_NDTYPE] = {
    "?",   "f32", "f64", "f16", "bf16", "i8",  "u8",
    "i16", "u16", "i32", "u32", "i64",  "u64", "bool"};

/* A growing line: appends stop (silently) at the end of the buffer. */
struct axial_line {
    char buf[1024];
    size_t len;
};

static void axial_vappend(struct axial_line *l, const char *fmt, va_list ap) {
    if (l->len + 1 >= sizeof l->buf)
        return;
    const int n = vsnprintf(l->buf + l->len, sizeof l->buf - l->len, fmt, ap);
    if (n > 0)
        l->len += (size_t)n < sizeof l->buf - l->len ? (size_t)n : sizeof l->buf - 1 - l->len;
}

static void axial_append(struct axial_line *l, const char *fmt, ...) AXIAL_PRINTF(2, 3);
static void axial_append(struct axial_line *l, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    axial_vappend(l, fmt, ap);
    va_end(ap);
}

/* " name=[a,b,c]" (at most 16 values shown, then "..."). */
static void axial_append_list(struct axial_line *l, const char *name, const int64_t *v,
                              size_t n) {
    axial_append(l, " %s=[", name);
    for (size_t k = 0; k < n && k < 16; k++)
        axial_append(l, "%s%lld", k ? "," : "", (long long)v[k]);
    axial_append(l, n > 16 ? ",...]" : "]");
}

static void axial_append_head(struct axial_line *l, const char *op, axial_dtype dtype,
                              size_t rank, const int64_t *shape) {
    axial_append(l, "axial: %s %s [", op, axial_dtype_names[dtype]);
    for (size_t k = 0; k < rank; k++)
        axial_append(l, "%s%lld", k ? "," : "", (long long)shape[k]);
    axial_append(l, "]");
}

/* "<op>_<key>" of each table entry, by index (kernels/entries.h). */
#define AXIAL_ENTRY_NAME_SLOT_(key, slot, op) [AXIAL_ENTRY(op) + slot] = #op "_" #key,
#define AXIAL_ENTRY_NAME_(op, type, set, cells, arg) AXIAL_##set(AXIAL_ENTRY_NAME_SLOT_, op)
static const char *const axial_entry_names[AXIAL_NENTRY] = {
    AXIAL_KERNEL_ENTRIES(AXIAL_ENTRY_NAME_, 0)};

/* axial_<op>_<key>__<isa> of one table entry. */
static void axial_append_kernel(struct axial_line *l, const struct axial_kernels *kt,
                                unsigned e) {
    const char *name = e < AXIAL_NENTRY ? axial_entry_names[e] : NULL;
    axial_append(l, "axial_%s__%s", name ? name : "unknown", axial__entry_isa(kt, e));
}

/* " -> <plan> kernel=<names>", then the line goes out. */
static void axial_finish(struct axial_line *l, const struct axial_kernels *kt, unsigned e1,
                         unsigned e2, const char *plan, va_list ap) {
    axial_append(l, " -> ");
    axial_vappend(l, plan, ap);
    axial_append(l, " kernel=");
    if (kt == NULL || e1 >= AXIAL_NENTRY) {
        axial_append(l, "none");
    } else {
        axial_append_kernel(l, kt, e1);
        if (e2 < AXIAL_NENTRY) {
            axial_append(l, ",");
            axial_append_kernel(l, kt, e2);
        }
    }
    /* a truncated line still ends in a newline */
    if (l->len + 1 >= sizeof l->buf)
        l->len = sizeof l->buf - 2;
    l->buf[l->len++] = '\n';
    l->buf[l->len] = '\0';
    fprintf(stderr, "%s", l->buf);
}

void axial__verbose_cumsum(const char *op, const struct axial_kernels *kt, unsigned e1,
                           unsigned e2, axial_dtype dtype, size_t rank, const int64_t *shape,
                           int64_t axis, unsigned flags, const char *plan, ...) {
    struct axial_line l = {.len = 0};
    axial_append_head(&l, op, dtype, rank, shape);
    axial_append(&l, " axis=%lld flags=0x%x", (long long)axis, flags);
    va_list ap;
    va_start(ap, plan);
    axial_finish(&l, kt, e1, e2, plan, ap);
    va_end(ap);
}

void axial__verbose_reduce(const char *op, const struct axial_kernels *kt, unsigned e1,
                           unsigned e2, axial_dtype dtype, size_t rank, const int64_t *shape,
                           const int64_t *axes, size_t naxes, unsigned flags, const char *plan,
                           ...) {
    struct axial_line l = {.len = 0};
    axial_append_head(&l, op, dtype, rank, shape);
    axial_append_list(&l, "axes", axes, naxes);
    axial_append(&l, " flags=0x%x", flags);
    va_list ap;
    va_start(ap, plan);
    axial_finish(&l, kt, e1, e2, plan, ap);
    va_end(ap);
}

static void axial_roll_finish(struct axial_line *l, const struct axial_kernels *kt,
                              unsigned e1, const char *plan, ...) AXIAL_PRINTF(4, 5);
static void axial_roll_finish(struct axial_line *l, const struct axial_kernels *kt,
                              unsigned e1, const char *plan, ...) {
    va_list ap;
    va_start(ap, plan);
    axial_finish(l, kt, e1, AXIAL_ENTRY_NONE, plan, ap);
    va_end(ap);
}

void axial__verbose_roll(const struct axial_kernels *kt, unsigned e1, axial_dtype dtype,
                         size_t rank, const int64_t *shape, const int64_t *shift,
                         size_t nshift, const int64_t *axes, size_t naxes, size_t copy_bytes,
                         size_t reps, size_t d, size_t sd, size_t n, size_t s, size_t ntasks) {
    struct axial_line l = {.len = 0};
    axial_append_head(&l, "roll", dtype, rank, shape);
    axial_append_list(&l, "shift", shift, nshift);
    axial_append_list(&l, "axes", axes, naxes);
    if (kt == NULL) {
        axial_roll_finish(&l, NULL, AXIAL_ENTRY_NONE, "empty");
        return;
    }
    char pre[48] = "", second[80] = "";
    if (copy_bytes)
        snprintf(pre, sizeof pre, "copy-to-temp(bytes=%zu) ", copy_bytes);
    if (sd > 0)
        snprintf(second, sizeof second, "+roll(outer=%zu,n=%zu,shift=%zu)", sd, n, s);
    char note[32];
    axial_roll_finish(&l, kt, e1, "%s%zu*(roll(outer=%zu,n=%zu,shift=%zu)%s)%s", pre, reps,
                      d - sd, n, s, second, axial__tasks_note(note, ntasks));
}
