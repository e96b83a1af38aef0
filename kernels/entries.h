/* SPDX-License-Identifier: MIT */
/*
 * entries.h: the one list of kernel table entries.
 *
 * AXIAL_KERNEL_ENTRIES(X, arg) calls, once per field of struct axial_kernels and in its order,
 *     X(op, kernel type, index set, (scalar, avx2, avx512, neon), arg)
 *   op          the field, and the kernels' names: axial_<op>_<key>__<isa>;
 *   kernel type a function type of kernels.h (declared `type name;`);
 *   index set   the field's slots, each with the key of its kernels' names:
 *                 SUM_DTYPES     the 12 summable dtypes   (slot: the dtype)
 *                 FLOAT_DTYPES   f32, f64, f16, bf16      (slot: the dtype)
 *                 F32_F64_DTYPES f32, f64                 (slot: the dtype)
 *                 ROLL_SIZES     b1, b2, b4, b8           (slot: log2 size)
 *               (a dtype field has AXIAL_NDTYPE slots, roll AXIAL_NROLL; slots outside the set stay NULL);
 *   one cell per ISA, in AXIAL_ISA_* order:
 *     1      the ISA's folder defines the kernels, one per key, and its
 *            table holds them;
 *     0      it has none: its merged table keeps the scalar entry (none
 *            where the scalar cell is 0 too: the planner then does not take that path).
 *
 * Generated from it: the struct's fields (kernels.h), each ISA's declarations and table
 * (AXIAL_DECLARE_KERNELS, AXIAL_DEFINE_KERNEL_TABLE), the entry indices (src/internal.h), the merge
 * (src/dispatch.c), the AXIAL_VERBOSE kernel names (src/verbose.c) and what tests/kernel_table.c expects of
 * every merged table.
 *
 * To add an entry: give it a kernel type in kernels.h (or reuse one), write axial_<op>_<key>__<isa> for each
 * key of its set in each ISA whose cell is 1, add its line below, and have the planner use kt-><op>[slot] with
 * AXIAL_ENTRY(op) + slot for its AXIAL_VERBOSE line.
 */
#ifndef AXIAL_ENTRIES_H
#define AXIAL_ENTRIES_H

/* The entries.  reduce_lse_finish is the scalar one everywhere (one rounding of a double state per output);
 * the split and column kernels have no scalar version (the planner then does not split that way). */
/* clang-format off */
#define AXIAL_KERNEL_ENTRIES(X, arg)                                                         \
    /* op                kernel type                   index set       cells */              \
    X(cumsum,            axial_cumsum_kernel,          SUM_DTYPES,     (1, 1, 1,    1), arg) \
    X(reduce,            axial_reduce_kernel,          SUM_DTYPES,     (1, 1, 1,    1), arg) \
    X(reduce_acc,        axial_reduce_acc_kernel,      SUM_DTYPES,     (1, 1, 1,    1), arg) \
    X(reduce_finish,     axial_reduce_finish_kernel,   SUM_DTYPES,     (1, 1, 1,    1), arg) \
    X(roll,              axial_roll_kernel,            ROLL_SIZES,     (1, 1, 1,    1), arg) \
    X(cumsum_seg,        axial_cumsum_seg_kernel,      FLOAT_DTYPES,   (0, 1, 1,    1), arg) \
    X(scan_total,        axial_scan_total_kernel,      FLOAT_DTYPES,   (0, 1, 1,    1), arg) \
    X(cumsum_cols,       axial_cumsum_cols_kernel,     FLOAT_DTYPES,   (0, 1, 1,    1), arg) \
    X(reduce_cols,       axial_reduce_cols_kernel,     FLOAT_DTYPES,   (0, 1, 1,    1), arg) \
    X(reduce_run,        axial_reduce_run_kernel,      FLOAT_DTYPES,   (0, 1, 1,    1), arg) \
    X(logcumsumexp,      axial_cumsum_kernel,          FLOAT_DTYPES,   (1, 1, 1,    1), arg) \
    X(reduce_lse,        axial_reduce_kernel,          FLOAT_DTYPES,   (1, 1, 1,    1), arg) \
    X(reduce_lse_acc,    axial_reduce_acc_kernel,      FLOAT_DTYPES,   (1, 1, 1,    1), arg) \
    X(reduce_lse_finish, axial_reduce_finish_kernel,   FLOAT_DTYPES,   (1, 0, 0,    0), arg) \
    X(logcumsumexp_cols, axial_cumsum_cols_kernel,     FLOAT_DTYPES,   (0, 1, 1,    1), arg) \
    X(reduce_lse_cols,   axial_reduce_cols_kernel,     FLOAT_DTYPES,   (0, 1, 1,    1), arg) \
    X(logcumsumexp_seg,  axial_lse_seg_kernel,         FLOAT_DTYPES,   (0, 1, 1,    1), arg) \
    X(lse_scan_total,    axial_lse_total_kernel,       FLOAT_DTYPES,   (0, 1, 1,    1), arg) \
    X(reduce_lse_run,    axial_lse_run_kernel,         FLOAT_DTYPES,   (0, 1, 1,    1), arg) \
    X(logcumsumexp_run,  axial_lse_line_run_kernel,    FLOAT_DTYPES,   (0, 1, 1,    1), arg) \
    X(logcumsumexp_cols_run, axial_lse_cols_run_kernel, FLOAT_DTYPES, (0, 1, 1,    1), arg) \
    X(cumsum_run,        axial_cumsum_run_kernel,      FLOAT_DTYPES,   (0, 1, 1,    1), arg) \
    X(cumsum_cols_run,   axial_cumsum_cols_run_kernel, F32_F64_DTYPES, (0, 1, 1,    1), arg)
/* clang-format on */

/* The index sets, as Y(key, slot, ...): the SIMD folders also define their kernels with the dtype sets. */
#define AXIAL_SUM_DTYPES(Y, ...)                                                          \
    Y(f32, AXIAL_F32, __VA_ARGS__) Y(f64, AXIAL_F64, __VA_ARGS__)                          \
    Y(f16, AXIAL_F16, __VA_ARGS__) Y(bf16, AXIAL_BF16, __VA_ARGS__)                        \
    Y(i8, AXIAL_I8, __VA_ARGS__) Y(u8, AXIAL_U8, __VA_ARGS__)                              \
    Y(i16, AXIAL_I16, __VA_ARGS__) Y(u16, AXIAL_U16, __VA_ARGS__)                          \
    Y(i32, AXIAL_I32, __VA_ARGS__) Y(u32, AXIAL_U32, __VA_ARGS__)                          \
    Y(i64, AXIAL_I64, __VA_ARGS__) Y(u64, AXIAL_U64, __VA_ARGS__)
#define AXIAL_FLOAT_DTYPES(Y, ...)                                                        \
    Y(f32, AXIAL_F32, __VA_ARGS__) Y(f64, AXIAL_F64, __VA_ARGS__)                          \
    Y(f16, AXIAL_F16, __VA_ARGS__) Y(bf16, AXIAL_BF16, __VA_ARGS__)
#define AXIAL_F32_F64_DTYPES(Y, ...) Y(f32, AXIAL_F32, __VA_ARGS__) Y(f64, AXIAL_F64, __VA_ARGS__)
#define AXIAL_ROLL_SIZES(Y, ...)                                                          \
    Y(b1, 0, __VA_ARGS__) Y(b2, 1, __VA_ARGS__) Y(b4, 2, __VA_ARGS__) Y(b8, 3, __VA_ARGS__)
/* The slots of a field of each set. */
#define AXIAL_SLOTS_SUM_DTYPES AXIAL_NDTYPE
#define AXIAL_SLOTS_FLOAT_DTYPES AXIAL_NDTYPE
#define AXIAL_SLOTS_F32_F64_DTYPES AXIAL_NDTYPE
#define AXIAL_SLOTS_ROLL_SIZES AXIAL_NROLL

/* One ISA's cell, by the ISA's name: AXIAL_CELL_avx2 cells. */
#define AXIAL_CELL_scalar(scalar, avx2, avx512, neon) scalar
#define AXIAL_CELL_avx2(scalar, avx2, avx512, neon) avx2
#define AXIAL_CELL_avx512(scalar, avx2, avx512, neon) avx512
#define AXIAL_CELL_neon(scalar, avx2, avx512, neon) neon

/* AXIAL_IF_OWN(cell)(text): the text where the cell is 1, else nothing. */
#define AXIAL_CAT(a, b) AXIAL_CAT_(a, b)
#define AXIAL_CAT_(a, b) a##b
#define AXIAL_IF_OWN(cell) AXIAL_CAT(AXIAL_IF_OWN_, cell)
#define AXIAL_IF_OWN_1(...) __VA_ARGS__
#define AXIAL_IF_OWN_0(...)

/* The fields of struct axial_kernels. */
#define AXIAL_KERNEL_FIELD_(op, type, set, cells, arg) type *op[AXIAL_SLOTS_##set];

/* Declarations of the kernels whose cell is 1 for isa: `type axial_<op>_<key>__<isa>;`. */
#define AXIAL_DECLARE_KERNELS(isa) AXIAL_KERNEL_ENTRIES(AXIAL_DECLARE_ENTRY_, isa)
#define AXIAL_DECLARE_ENTRY_(op, type, set, cells, isa)                                    \
    AXIAL_IF_OWN(AXIAL_CELL_##isa cells)(AXIAL_##set(AXIAL_DECLARE_SLOT_, op, type, isa))
#define AXIAL_DECLARE_SLOT_(key, slot, op, type, isa) type axial_##op##_##key##__##isa;

/* The table axial_kernels__<isa>: the kernels whose cell is 1 for isa. */
#define AXIAL_DEFINE_KERNEL_TABLE(isa)                                                    \
    const struct axial_kernels axial_kernels__##isa = {                                   \
        AXIAL_KERNEL_ENTRIES(AXIAL_TABLE_ENTRY_, isa)};
#define AXIAL_TABLE_ENTRY_(op, type, set, cells, isa)                                      \
    AXIAL_IF_OWN(AXIAL_CELL_##isa cells)(.op = {AXIAL_##set(AXIAL_TABLE_SLOT_, op, isa)},)
#define AXIAL_TABLE_SLOT_(key, slot, op, isa) [slot] = axial_##op##_##key##__##isa,

#endif /* AXIAL_ENTRIES_H */
