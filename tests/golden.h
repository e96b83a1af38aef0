/* SPDX-License-Identifier: MIT */
/*
 * golden.h: the golden cases of float CumSum and ReduceSum (tests/golden/).
 *
 * The case list and the inputs are generated here from a fixed seed (never
 * stored); the outputs are stored in tests/golden/<dtype>.gold, a text
 * format described in tests/golden/README.md.  axial-make-golden
 * (tests/golden/make_golden.c) writes the files, test `golden`
 * (test_golden.c) reads them back and runs the same cases.
 *
 * Changing anything here that changes a case or an input (the list, the
 * seed, the generator) invalidates the files: regenerate them (README.md).
 */
#ifndef AX_GOLDEN_H
#define AX_GOLDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "axial.h"

#define GOLDEN_FORMAT 1
#define GOLDEN_SEED 0x6178696131367531ull /* "axia16u1" */
#define GOLDEN_MAX_CASES 256
#define GOLDEN_MAX_RANK 4

enum golden_op { GOLDEN_CUMSUM = 1, GOLDEN_REDUCE = 2 };
/* Inputs: general data (random signs, significands and exponents over many
 * binades, so that another summation order almost surely changes bits), the
 * same with specials (NaN, +-inf, +-0.0; about 1 element in 40), signed
 * zeros only (mostly -0.0), and cancelling data: pairs B, -B of large values
 * among small ones, whose sums are small beside the rounding errors of the
 * large terms, so that the order shows even after the rounding to f16 or
 * bf16 (general f16/bf16 sums rarely differ once rounded). */
enum golden_fill { GOLDEN_GENERAL = 0, GOLDEN_SPECIALS = 1, GOLDEN_ZEROS = 2, GOLDEN_CANCEL = 3 };

typedef struct {
    int op;
    axial_dtype dt;
    const char *family;
    size_t rank;
    int64_t shape[GOLDEN_MAX_RANK];
    size_t naxes;                 /* CumSum: 1, axes[0] is the axis */
    int64_t axes[GOLDEN_MAX_RANK];
    unsigned flags;
    int fill;
    uint64_t seed; /* of the input */
} golden_case;

/* The cases of one float dtype (at most GOLDEN_MAX_CASES); returns the count. */
size_t golden_cases(axial_dtype dt, golden_case *cases);

size_t golden_in_count(const golden_case *c);
size_t golden_out_count(const golden_case *c);
/* The input (golden_in_count elements), from c->seed. */
void golden_input(const golden_case *c, void *x);
/* The case through the public API (ex may be NULL). */
axial_status golden_call(const golden_case *c, const void *x, void *y, const axial_executor *ex);
/* "cumsum f32 rows shape 3,17 axes 1 flags 2 fill general seed 0x..." (the
 * key of a case line in the files). */
const char *golden_key(const golden_case *c, char *buf, size_t cap);

/* Which output elements a file stores: all of them up to 256, else windows
 * (the first and last 32, the first and last 16 of every line and 16 either
 * side of each scan-chunk boundary of every
 * line, both from the line's start and from its end).  keep[k] for k < count. */
void golden_keep(const golden_case *c, bool *keep, size_t count);
/* FNV-1a 64 of every output element's bits (as a little-endian integer),
 * every NaN counted as the format's default quiet NaN: NaN payloads aside. */
uint64_t golden_hash(axial_dtype dt, const void *y, size_t count);
/* The hash of the stored elements, their indices included (a record's check). */
uint64_t golden_check(axial_dtype dt, const void *y, const bool *keep, size_t count);

/* Element bits as an integer (2, 4 or 8 bytes), and back. */
uint64_t golden_bits(axial_dtype dt, const void *y, size_t k);
void golden_set_bits(axial_dtype dt, void *y, size_t k, uint64_t bits);

/* The file of a dtype: <dir>/<dtype>.gold. */
const char *golden_path(char *buf, size_t cap, const char *dir, axial_dtype dt);

/* Writes one file: header, then per case its key, output count and hash, the
 * stored elements and the check.  `outputs[i]` is case i's output; its NaNs
 * are made the format's default quiet NaN (in place), so that the file does
 * not depend on the CPU's NaN payloads and signs. */
bool golden_write(FILE *f, axial_dtype dt, const golden_case *cases, size_t n,
                  void *const *outputs, const char *made_by);

/* A file read back: the record of case i. */
typedef struct {
    char key[256];
    size_t count;     /* output elements                          */
    uint64_t hash;    /* golden_hash of the whole output          */
    bool *keep;       /* count flags: which elements are stored    */
    void *y;          /* count elements; those not kept are zero   */
} golden_record;

typedef struct {
    axial_dtype dt;
    size_t n;
    golden_record *rec;
} golden_file;

/* Reads and checks the syntax, every record's check and the case count;
 * false with a message in err (naming the line) when anything is off. */
bool golden_read(const char *path, axial_dtype dt, golden_file *gf, char *err, size_t cap);
void golden_free(golden_file *gf);

#endif /* AX_GOLDEN_H */
