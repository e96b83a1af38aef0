/* SPDX-License-Identifier: MIT */
/*
 * internal.h: what the generic layer shares between its files.  Nothing here
 * is exported (the library is built with hidden visibility).
 */
#ifndef AXIAL_INTERNAL_H
#define AXIAL_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "axial.h"
#include "kernels.h"

#if defined(__GNUC__)
#define AXIAL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define AXIAL_UNLIKELY(c) __builtin_expect(!!(c), 0)
#define AXIAL_HIDDEN __attribute__((visibility("hidden"))) /* read directly, not via the GOT */
#define AXIAL_COLD __attribute__((cold))
#else
#define AXIAL_COLD
#define AXIAL_HIDDEN
#define AXIAL_PRINTF(f, a)
#define AXIAL_UNLIKELY(c) (c)
#endif

/* Records the calling thread's message and returns `status`. */
axial_status axial__fail(axial_status status, const char *fmt, ...) AXIAL_PRINTF(2, 3);
void axial__set_message(const char *fmt, ...) AXIAL_PRINTF(1, 2);

/* The active kernel table (selects the best ISA on first use). */
const struct axial_kernels *axial__kernels(void);
/* The merged table of an ISA this CPU runs (NULL for any other). */
const struct axial_kernels *axial__isa_kernels(unsigned isa);

/* ---- AXIAL_VERBOSE (src/verbose.c): one stderr line per call ---- */

/* A table entry, by index: AXIAL_ENTRY(op) + its slot (the dtype, or roll's
 * log2 element size), the entries in the order of kernels/entries.h. */
#define AXIAL_ENTRY(op) axial_entry_##op
#define AXIAL_ENTRY_INDEX_(op, type, set, cells, arg)                                      \
    axial_entry_##op, axial_entry_##op##_last_ = axial_entry_##op + AXIAL_SLOTS_##set - 1,
enum {
    AXIAL_KERNEL_ENTRIES(AXIAL_ENTRY_INDEX_, 0)
    AXIAL_NENTRY,
    AXIAL_ENTRY_NONE = AXIAL_NENTRY /* no kernel: a copy, a fill, an empty tensor */
};
/* The op families whose ISA the default may choose per CPU (src/dispatch.c),
 * and that choice from what CPUID reports: isa_of[f] for each family, and the
 * reason (NULL: every family on `best`). */
enum { AXIAL_FAMILY_CUMSUM, AXIAL_FAMILY_REDUCE_SUM, AXIAL_NFAMILY };
const char *axial__tuning(bool amd, unsigned family, unsigned mask, unsigned best,
                          unsigned char isa_of[AXIAL_NFAMILY]);
/* The active choice as it stands (one ISA, or the default's per-op choice),
 * and that choice made active again (false, nothing changed, for a state
 * this process cannot have had): what a caller that selects an ISA for a
 * while restores afterwards, as axial_isa_select cannot (the Python
 * package's use_isa, the benchmarks' default rows).  A state that is not an
 * axial_isa is the default's per-op choice. */
int axial__isa_state(void);
bool axial__isa_restore(int state);
/* The calling thread's own choice, in force on that thread over the
 * process's (axial_isa_active, the ops' tables; their tasks run on the
 * table the calling thread chose, wherever they run): `state` an
 * axial_isa (or a state above), -1 to follow the process again.  Returns
 * the thread's choice before (-1: none), or -2, changing nothing, for a
 * state this process cannot have.  The Python package's use_isa. */
int axial__isa_thread(int state);
/* The ISA ("avx2", or "scalar" where the ISA left the entry to scalar) whose
 * kernel is entry `entry` of the merged table kt (one axial__kernels() returned). */
const char *axial__entry_isa(const struct axial_kernels *kt, unsigned entry);

/* -1 until the library initialises, then 0 (AXIAL_VERBOSE off) or 1; written once. */
extern AXIAL_HIDDEN atomic_int axial__verbose_state;
AXIAL_COLD bool axial__verbose_slow(void); /* initialises; whether AXIAL_VERBOSE is on */
/* Whether to print: with AXIAL_VERBOSE off, one relaxed load (a plain load)
 * and one branch predicted not taken. */
static inline bool axial__verbose_on(void) {
    const int v = atomic_load_explicit(&axial__verbose_state, memory_order_relaxed);
    return AXIAL_UNLIKELY(v != 0) && (v > 0 || axial__verbose_slow());
}
/* The planners call these right before their kernel calls, under
 * axial__verbose_on(): each prints one line "axial: <op> <dtype> <shape>
 * <arguments> -> <plan> kernel=<name>[,<name>]", the plan printf'd from
 * `plan`, the names those of entries e1 and e2 of kt (AXIAL_ENTRY_NONE: none). */
/* `op` names the op in the line ("cumsum", "logcumsumexp", "reduce_sum", ...). */
AXIAL_COLD void axial__verbose_cumsum(const char *op, const struct axial_kernels *kt, unsigned e1,
                           unsigned e2, axial_dtype dtype, size_t rank, const int64_t *shape,
                           int64_t axis, unsigned flags, const char *plan, ...)
    AXIAL_PRINTF(10, 11);
AXIAL_COLD void axial__verbose_reduce(const char *op, const struct axial_kernels *kt, unsigned e1,
                           unsigned e2, axial_dtype dtype, size_t rank, const int64_t *shape,
                           const int64_t *axes, size_t naxes, unsigned flags, const char *plan,
                           ...) AXIAL_PRINTF(11, 12);
/* " tasks=N" when a call is split into N > 1 tasks, else "" (for the plans above). */
static inline const char *axial__tasks_note(char buf[32], size_t ntasks) {
    buf[0] = '\0';
    if (ntasks > 1)
        snprintf(buf, 32, " tasks=%zu", ntasks);
    return buf;
}
/* Roll's plan: a copy to a temporary of copy_bytes (0: none), then reps times
 * roll(outer=d-sd,n,s) [+ roll(outer=sd,n,s) when sd > 0], in ntasks tasks. */
AXIAL_COLD void axial__verbose_roll(const struct axial_kernels *kt, unsigned e1, axial_dtype dtype,
                         size_t rank, const int64_t *shape, const int64_t *shift,
                         size_t nshift, const int64_t *axes, size_t naxes, size_t copy_bytes,
                         size_t reps, size_t d, size_t sd, size_t n, size_t s, size_t ntasks);

/* ---- argument checks; each sets the message and returns the status ---- */

/* Element size of a dtype; sums refuse BOOL. */
axial_status axial__check_dtype(const char *fn, axial_dtype dtype, bool allow_bool,
                                size_t *elem_size);
/* The same, for the log-space ops: only F32, F64, F16 and BF16. */
axial_status axial__check_float_dtype(const char *fn, axial_dtype dtype, size_t *elem_size);
/* rank in [min_rank, AXIAL_MAX_RANK], shape non-NULL when rank > 0. */
axial_status axial__check_rank(const char *fn, size_t rank, const int64_t *shape,
                               size_t min_rank);
/* No negative dimension; the element count and its byte size fit in ptrdiff_t
 * (even when another dimension is 0, so that the planner's products of any
 * subset of dimensions cannot overflow). */
axial_status axial__check_shape(const char *fn, size_t rank, const int64_t *shape,
                                size_t elem_size, size_t *count);
/* axis in [-rank, rank-1], normalised to [0, rank). */
axial_status axial__norm_axis(const char *fn, int64_t axis, size_t rank, size_t *out);
/* x and y non-NULL when they hold elements; their byte ranges do not overlap,
 * except exactly (x == y, same size) when allow_same. */
axial_status axial__check_buffers(const char *fn, const void *x, size_t x_bytes,
                                  const void *y, size_t y_bytes, bool allow_same);

/* Product of shape[begin..end), as size_t (callers checked it cannot overflow). */
size_t axial__product(const int64_t *shape, size_t begin, size_t end);
/* *out = n * each + extra when it fits in ptrdiff_t (the byte sizes of
 * states, summaries and carries); false, *out untouched, when it does not. */
bool axial__bytes(size_t n, size_t each, size_t extra, size_t *out);

/* ---- parallel execution (parallel.c) ---------------------------------- */

/* Every op splits its work into tasks of at least AXIAL_GRAIN bytes of
 * input (whole kernel shapes: lines, rows, blocks), as a function of dtype,
 * shape and arguments only, so the bits never depend on the executor. */
#ifndef AXIAL_GRAIN /* (overridable only for measuring the thresholds) */
#define AXIAL_GRAIN ((size_t)64 << 10)
#endif
/* A reduction with one group of reduced axes sums its reduced extent in
 * fixed chunks of rows (one row: the elements of every output at one index
 * of the extent), each from the identity, the chunks' sums added in chunk
 * order: few outputs (at most AXIAL_REDUCE_FEW) in chunks of
 * AXIAL_REDUCE_CHUNK bytes of rows (16384 f32, 8192 f64, 32768 f16/bf16,
 * 65536 i8 terms for a full reduction), more outputs of the float types in
 * chunks of that many bytes of rows but at least AXIAL_REDUCE_CHUNK_ROWS rows
 * (1024 rows of [R, C] axis 0 from C = 16 f32 on).  With or without
 * threads: the calls, the shards and the streams alike (src/reduce.c). */
#define AXIAL_REDUCE_FEW 64
#define AXIAL_REDUCE_CHUNK ((size_t)64 << 10)
#define AXIAL_REDUCE_CHUNK_ROWS ((size_t)1024)
/* The rows of a chunk for `outputs` outputs of `row_bytes` bytes a row
 * (> 0), or 0 where there are no chunks (many outputs of an integer type,
 * whose sums are the same in any order).  An extent of at most that many
 * rows is one chunk: the one kernel call's bits (-0.0 + P == P). */
static inline size_t axial__reduce_chunk(size_t outputs, size_t row_bytes, bool floats) {
    const size_t rows = AXIAL_REDUCE_CHUNK / row_bytes;
    if (outputs <= AXIAL_REDUCE_FEW)
        return rows;
    return !floats ? 0 : rows > AXIAL_REDUCE_CHUNK_ROWS ? rows : AXIAL_REDUCE_CHUNK_ROWS;
}
/* A reduction with several groups of reduced axes (float types) sums the
 * indices of its first reduced axis (the cut axis of its shards) in fixed
 * cells, each from the identity, the cells' sums added in cell order: a
 * cell is the smallest power of two of indices that holds at least
 * AXIAL_WIDE_CELL_TERMS terms of each output, `terms` being an output's
 * terms at one index (the product of the other reduced dimensions); an axis
 * of at most one cell is summed as one (src/reduce.c). */
#define AXIAL_WIDE_CELL_TERMS ((size_t)1024)
static inline size_t axial__wide_cell(size_t terms) {
    size_t g = 1;
    while (g < AXIAL_WIDE_CELL_TERMS && g * terms < AXIAL_WIDE_CELL_TERMS)
        g *= 2;
    return g;
}
/* The greatest common divisor (gcd(a, 0) = a). */
static inline size_t axial__gcd(size_t a, size_t b) {
    while (b) {
        const size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}
/* Below these sizes (bytes of input) an op makes one task and never calls
 * parallel_for; how they were chosen is in parallel.c. */
#ifndef AXIAL_CUMSUM_THRESHOLD
#define AXIAL_CUMSUM_THRESHOLD ((size_t)512 << 10)
#define AXIAL_REDUCE_THRESHOLD ((size_t)1 << 20)
#define AXIAL_ROLL_THRESHOLD ((size_t)512 << 10)
/* The log-space ops spend an exp (and, scanning, a log) per element, many
 * times a sum's time per byte: they pay for a parallel_for from two grains on. */
#define AXIAL_LSE_THRESHOLD ((size_t)128 << 10)
#endif
/* Fewer lines (outer) than this, split along the lines themselves where the
 * table has the split kernels: CumSum's blocked scan along the innermost
 * axis, CumSum's and ReduceSum's column tiles along an outer axis.  From
 * this many lines on, groups of whole lines are enough tasks. */
#define AXIAL_SPLIT_FEW_LINES 16
/* Column tiles: rows of at least 2 * AXIAL_TILE_LINES 64-byte lines make
 * one tile per AXIAL_TILE_LINES lines (4 KiB, a page).  A tile walks its
 * rows `inner` elements apart, so a narrow tile reads little of each row per
 * step: tiles one line wide were far slower than the plain call, and 1 KiB
 * tiles of long rows still lost to it when reading from memory.  The
 * log-space ops spend an exp per element, many times a sum's time per byte,
 * so their tiles are AXIAL_LSE_TILE_LINES (1 KiB) wide.  Narrower rows make
 * two tiles, down to tiles of AXIAL_REDUCE_TILE_MIN lines (256 B) for the
 * reductions and AXIAL_SCAN_TILE_MIN lines (512 B) for the scans, which
 * write every element: with the two threads on separate cores, 256-byte
 * tiles made CumSum slower than the plain call (each row's boundary line
 * lies between the two threads' tiles), while the reductions still gained
 * there. */
#ifndef AXIAL_TILE_LINES /* (overridable only for measurements) */
#define AXIAL_TILE_LINES 64
#endif
#ifndef AXIAL_LSE_TILE_LINES
#define AXIAL_LSE_TILE_LINES 16
#endif
#define AXIAL_REDUCE_TILE_MIN 4
#define AXIAL_SCAN_TILE_MIN 8
/* The column tiles of an input of `bytes` bytes in `outer` lines of rows of
 * `row_bytes` bytes: *rowlines 64-byte lines per row, and the number of
 * tiles per row: one per 64 KiB grain of a line, at most one per
 * `tile_lines` lines of a row (AXIAL_TILE_LINES, or AXIAL_LSE_TILE_LINES for
 * the log-space ops), two for rows of 2 * `min_lines` lines (the op's
 * AXIAL_*_TILE_MIN) up to twice `tile_lines`. */
static inline size_t axial__tiles(size_t bytes, size_t outer, size_t row_bytes,
                                  size_t tile_lines, size_t min_lines, size_t *rowlines) {
    const size_t grains = bytes / AXIAL_GRAIN; /* >= 1: above every threshold */
    const size_t want = (grains - 1) / outer + 1;
    const size_t lines = (row_bytes - 1) / 64 + 1;
    const size_t most = lines >= 2 * tile_lines ? lines / tile_lines
                        : lines >= 2 * min_lines ? 2 : 1;
    *rowlines = lines;
    return want < most ? want : most;
}
/* The widest tile's columns, for AXIAL_VERBOSE. */
static inline size_t axial__tile_max_cols(size_t rowlines, size_t ntiles, size_t esize,
                                          size_t inner) {
    const size_t w = ((rowlines - 1) / ntiles + 1) * (64 / esize);
    return w < inner ? w : inner;
}
/* The two splits along few lines, each switchable for measurements:
 *   - AXIAL_SPLIT_COLUMN_TILES (on): the column tiles along an outer axis
 *     (CumSum, ReduceSum, and the log-space ops where the table has their
 *     cols kernels).  With tiles of a page, two threads beat the plain call
 *     for every op; tiles one cache line wide lost to it.
 *   - AXIAL_SPLIT_SCAN_BLOCKS (on): CumSum's blocked scan along one line.
 *     As two full passes (every chunk's total, then every chunk scanned) it
 *     would move 3 units of memory traffic to the plain call's 2 and lose to
 *     it; since its first pass scans every group whose carry is known
 *     (src/cumsum.c), a 1-thread pool makes one pass, as the plain call, and
 *     2 threads beat the plain call (docs/BENCHMARKS.md). */
#ifndef AXIAL_SPLIT_COLUMN_TILES
#define AXIAL_SPLIT_COLUMN_TILES 1
#endif
#ifndef AXIAL_SPLIT_SCAN_BLOCKS
#define AXIAL_SPLIT_SCAN_BLOCKS 1
#endif

/* The kernel flag of a call that writes `out_bytes` bytes: AXIAL_KERNEL_STREAM
 * from AXIAL_STREAM_BYTES on, so that a split call's tasks store as the whole
 * call would (kernels.h; the plain call's kernel decides the same itself). */
static inline unsigned axial__stream_flag(size_t out_bytes) {
    return out_bytes >= AXIAL_STREAM_BYTES ? AXIAL_KERNEL_STREAM : 0u;
}
/* A kernel that streams its stores ends each call with an sfence, which waits
 * for the write-combining buffers to drain.  With 64 KiB tasks those waits
 * made a split call noticeably slower than the plain call on a 1-thread
 * pool, so a call whose output streams makes at most one task per
 * AXIAL_STREAM_TASK bytes of output (>= 16 tasks: the output is >=
 * AXIAL_STREAM_BYTES). */
#define AXIAL_STREAM_TASK ((size_t)256 << 10)
static inline size_t axial__stream_tasks(size_t ntasks, size_t out_bytes) {
    const size_t most = out_bytes / AXIAL_STREAM_TASK;
    return out_bytes < AXIAL_STREAM_BYTES || ntasks <= most ? ntasks : most;
}

/* exec NULL, or a usable executor (parallel_for set, concurrency >= 1). */
axial_status axial__check_exec(const char *fn, const axial_executor *exec);
/* Runs fn(arg, i) once for every i in [0, ntasks): through exec->parallel_for
 * when exec is non-NULL and ntasks > 1, else on the calling thread in index
 * order (so ntasks == 1 never calls parallel_for). */
void axial__run(const axial_executor *exec, size_t ntasks, axial_task_fn fn, void *arg);
/* How many tasks `units` units of `unit_bytes` bytes each make: 1 when the
 * whole is below `threshold` bytes, else about one per AXIAL_GRAIN bytes,
 * at most one per unit. */
size_t axial__ntasks(size_t units, size_t unit_bytes, size_t threshold);
/* Task k of ntasks over `units` units: [*begin, *end), contiguous, in order,
 * sizes differing by at most 1. */
void axial__task_range(size_t units, size_t ntasks, size_t k, size_t *begin, size_t *end);
/* Units per task boundary such that every boundary falls on a 64-byte line
 * of the input (`in_bytes` per unit) and of the output (`out_bytes` per
 * unit), counted from the tensors' starts: the smallest power of two up to
 * 64 that does, or 1 where that leaves fewer such blocks than ntasks.  (Rows
 * of 12 bytes cut anywhere put every load of a task across two lines.) */
size_t axial__unit_align(size_t units, size_t ntasks, size_t in_bytes, size_t out_bytes);
/* axial__task_range over blocks of `align` units, the last task ending at `units`. */
void axial__task_range_aligned(size_t units, size_t ntasks, size_t align, size_t k,
                               size_t *begin, size_t *end);
/* Column tile k of the planners' column tiles, `ntiles` per row over the
 * `rowlines` 64-byte lines of rows of `inner` elements of `esize` bytes:
 * columns [*c0, *c1) (whole lines from the row's start, the last tile ending
 * at the row's end); returns the tile's row (outer index) k / ntiles. */
size_t axial__tile_cols(size_t rowlines, size_t ntiles, size_t k, size_t esize, size_t inner,
                        size_t *c0, size_t *c1);
/* A split of `count` elements of `esize` bytes at `dst` into ntasks blocks
 * whose inner boundaries fall on 64-byte lines of dst, so that no two tasks
 * write one cache line (the boundaries follow dst's address: used only where
 * elements are moved, never summed, so that cannot change any bit). */
typedef struct {
    size_t count, head, line, ntasks;
} axial_lines;
void axial__lines_plan(axial_lines *l, const void *dst, size_t esize, size_t count,
                       size_t threshold);
/* Block k: elements [*begin, *end). */
void axial__lines_range(const axial_lines *l, size_t k, size_t *begin, size_t *end);
/* dst = src, `bytes` bytes, in line-aligned blocks on exec. */
void axial__copy(const axial_executor *exec, void *dst, const void *src, size_t bytes);

/* log2 of an element size of 1, 2, 4 or 8 */
static inline unsigned axial__log2_size(size_t elem_size) {
    return elem_size == 1 ? 0u : elem_size == 2 ? 1u : elem_size == 4 ? 2u : 3u;
}

/* The wide accumulators of a whole reduction in the plain call's order
 * (src/reduce.c; for the shards' summaries). */
axial_status axial__reduce_wide_acc(bool lse, axial_dtype dtype, const void *x, size_t rank,
                                    const int64_t *shape, const bool *reduced, void *acc,
                                    size_t count_out);
/* The same for several reduced groups cut into cells (axial__wide_cell):
 * the wide accumulators of indices [lo, hi) of the cut axis of a piece x
 * that holds `len` of its indices, in the plain call's order for a cell of
 * the tensor of shape `shape`. */
void axial__reduce_wide_cell(bool lse, axial_dtype dtype, const void *x, size_t rank,
                             const int64_t *shape, const bool *reduced, size_t len, size_t lo,
                             size_t hi, void *acc, size_t count_out);

#endif /* AXIAL_INTERNAL_H */
