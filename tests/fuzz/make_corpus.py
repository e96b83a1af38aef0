#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the seed corpus of tests/fuzz/fuzz_diff.c into tests/fuzz/corpus/.

    python3 tests/fuzz/make_corpus.py        (rewrites the directory)

Each seed is one call, encoded as fuzz_diff.c's header comment describes:
a 12-byte header, the dimension bytes, the axis bytes, the shifts, then
(optionally) explicit (class, value) pairs for the first elements; the other
elements come from the target's generator (by the data mode), so the files
stay small and the seeds are reproducible byte for byte.
"""
import base64
import os
import struct
import sys

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
PTRDIFF_MAX = INT64_MAX

OPS = {"cumsum": 0, "reduce": 1, "roll": 2, "shape": 3, "lcse": 4, "rlse": 5}
DT = {"f32": 1, "f64": 2, "f16": 3, "bf16": 4, "i8": 5, "u8": 6, "i16": 7, "u16": 8,
      "i32": 9, "u32": 10, "i64": 11, "u64": 12, "bool": 13,
      "bad0": 0, "bad14": 14, "bad99": 15}

# Mirrors of fuzz_diff.c's tables.
DIM_TABLE = [32, 33, 47, 48, 63, 64, 65, 96, 127, 128, 129, 192, 255, 256, 257, 300,
             511, 512, 513, 1000, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097,
             4100, 8191, 8192]
DIM_SPECIAL = [-1, -2, INT64_MIN, INT64_MAX, 1 << 32, 1 << 40, 1 << 62, (1 << 62) + 1,
               PTRDIFF_MAX // 2, PTRDIFF_MAX // 8 + 1, 1 << 31, 3037000500, 0, 1, -4096,
               1 << 61]
SHIFT_TABLE = [INT64_MIN, INT64_MAX, INT64_MIN + 1, INT64_MAX - 1, 1 << 62, -(1 << 62),
               1 << 32, -(1 << 32), 4096, -4096, 4097, -4097, 8191, -8191, 1000003,
               -1000003, 127, 128, 129, 255, 256, 257, -127, -128, -129, -255, -256, -257,
               511, 512, -512, 1023, 1024, -1024, 2047, 2048, -2048, 65, -65, 96, -96,
               3037000499, -3037000499, INT64_MAX // 3, -(-INT64_MIN // 3), (1 << 32) - 1,
               -((1 << 32) - 1), INT64_MAX - 4095, INT64_MIN + 4096, 8192, -8192, 4100,
               -4100, 1, -1, 0, 64, -64, 100, -100, 1 << 20, -(1 << 20), INT64_MAX // 2,
               INT64_MIN // 2]
assert len(SHIFT_TABLE) == 64 and len(DIM_TABLE) == 32 and len(DIM_SPECIAL) == 16


def axis_special(r):
    return [r, -r - 1, r + 1, -r - 2, INT64_MAX, INT64_MIN, 100, -100, 16, -17, 1 << 32,
            -(1 << 32), 0, -1, r - 1, -r, 17, -16, INT64_MAX - 1, INT64_MIN + 1, r + 8,
            -r - 8, 0, 1, 2, -2, 3, -3, 2 * r, -2 * r, 7, -8]


def dim_byte(d):
    if 0 <= d < 32:
        return d
    if d in DIM_TABLE:
        return 0x80 | DIM_TABLE.index(d)
    if 1 <= d <= 8:
        return 0xC0 | (d - 1)
    if d in DIM_SPECIAL:
        return 0xF0 | DIM_SPECIAL.index(d)
    raise ValueError("dimension %d cannot be encoded" % d)


def axis_byte(a, rank):
    if rank > 0 and -rank <= a < rank:
        return a + rank
    if rank == 0 and -1 <= a <= 1:
        return a + 1
    return 0xE0 | axis_special(rank).index(a)


def shift_bytes(s):
    if -64 <= s < 64:
        return bytes([s + 64])
    if s in SHIFT_TABLE:
        return bytes([0x80 | SHIFT_TABLE.index(s)])
    return bytes([0xC0]) + struct.pack("<q", s)


SPECIAL = {None: 0, "x_null": 1, "y_null": 2, "shape_null": 3, "axes_null": 4,
           "shift_null": 5, "overlap": 6, "out_rank_null": 7, "out_shape_null": 7}

# Data modes (h[8] & 15) of generated elements: fuzz_diff.c gen_class().
MODE = {"any": 0, "ordinary": 1, "exact": 2, "unit": 3, "rare_special": 4, "huge": 5,
        "tiny": 6, "small": 7}


def seed(op, dt, shape, axis=0, axes=(), shifts=None, flags=0, bad_bit=None, inplace=False,
         xoff=0, yoff=0, special=None, special_arg=0, mode="ordinary", seed_bytes=b"\0\0\0",
         data=b"", rank=None):
    h = bytearray(12)
    h[0] = OPS[op]
    h[1] = DT[dt]
    rank = len(shape) if rank is None else rank
    h[2] = 0xF8 if rank == 17 else rank
    h[3] = flags | ((0x80 | (bad_bit << 2)) if bad_bit is not None else 0)
    h[4] = len(axes)
    nshift = len(shifts) if shifts is not None else 0
    if op == "roll":
        if nshift == (len(axes) if axes else 1):
            h[5] = 0x00
        elif nshift == 1:
            h[5] = 0x80
        else:
            h[5] = 0xC0 | nshift
    h[6] = int(inplace) | (xoff << 1) | (yoff << 4) | (0x80 if special else 0)
    h[7] = SPECIAL[special] | (8 if special == "out_shape_null" else 0) | (special_arg << 3)
    h[8] = MODE[mode]
    h[9:12] = seed_bytes
    out = bytes(h) + bytes(dim_byte(d) for d in shape[:8])
    if op in ("cumsum", "lcse"):
        out += bytes([axis_byte(axis, rank)])
    out += bytes(axis_byte(a, rank) for a in axes)
    for s in shifts or ():
        out += shift_bytes(s)
    return out + data


# Explicit float elements: (class << 4 | lo, value) pairs (fuzz_diff.c make_float).
def fl(cls, lo=0, v=0):
    return bytes([(cls << 4) | lo, v])


ONE, MINUS_ONE = fl(15, 7, 0), fl(15, 7, 1)
NAN, INF, NINF, NZERO, PZERO = fl(9, 0, 2), fl(10, 0, 0), fl(10, 0, 1), fl(8, 0, 1), fl(8, 0, 0)
HUGE, NHUGE, SUB = fl(12, 0, 0x80), fl(12, 0, 0x81), fl(11, 0, 0)

SEEDS = {
    # ---- cumsum: long rows, short rows, columns, 3-D, flags, types, buffers
    "cumsum-f32-row-inclusive": seed("cumsum", "f32", [1000], 0, mode="ordinary"),
    "cumsum-f32-row-exclusive": seed("cumsum", "f32", [1000], -1, flags=1, mode="unit"),
    "cumsum-f32-row-reverse": seed("cumsum", "f32", [257], 0, flags=2, mode="any"),
    "cumsum-f64-row-excl-rev": seed("cumsum", "f64", [4097], 0, flags=3, mode="rare_special"),
    "cumsum-f16-ones-4096": seed("cumsum", "f16", [4096], 0, mode="exact",
                                 data=ONE * 64),
    "cumsum-bf16-short-rows": seed("cumsum", "bf16", [96, 5], 1, mode="ordinary"),
    "cumsum-f32-short-rows-3": seed("cumsum", "f32", [257, 3], -1, flags=1, mode="exact"),
    "cumsum-f64-columns": seed("cumsum", "f64", [300, 17], 0, flags=2, mode="ordinary"),
    "cumsum-f32-columns-wide": seed("cumsum", "f32", [4, 1025], 0, mode="tiny"),
    "cumsum-f16-3d-middle": seed("cumsum", "f16", [4, 33, 5], 1, flags=3, mode="ordinary"),
    "cumsum-i8-wrap-inplace": seed("cumsum", "i8", [2, 513], 1, inplace=True, mode="any"),
    "cumsum-u64-columns-misaligned": seed("cumsum", "u64", [65, 7], 0, xoff=3, yoff=5,
                                          mode="any"),
    "cumsum-i16-3d-reverse": seed("cumsum", "i16", [3, 4, 129], 2, flags=2, mode="any"),
    "cumsum-u32-specials": seed("cumsum", "u32", [64], 0, flags=1, mode="small"),
    "cumsum-f32-nan-inf-zero": seed("cumsum", "f32", [3, 8], 1,
                                    data=ONE + NAN + INF + NINF + NZERO + PZERO + SUB + HUGE
                                    + NZERO * 8 + MINUS_ONE * 8),
    "cumsum-f16-overflow": seed("cumsum", "f16", [64], 0, mode="huge"),
    # terms in [2^123, 2^124): the SIMD carry of the first two blocks passes
    # FLT_MAX and, rounded to f32, is inf; the third block, negative, brings
    # the sum back far below it (fuzz_diff.c, the overflow allowance)
    "cumsum-f32-carry-overflow": seed("cumsum", "f32", [48], 0,
                                      data=fl(12, 0, 0x08) * 32 + fl(12, 0, 0x09) * 16),
    "cumsum-err-bool": seed("cumsum", "bool", [8], 0),
    "cumsum-err-axis": seed("cumsum", "f32", [4, 4], 2),
    "cumsum-err-flags": seed("cumsum", "i32", [4, 4], 0, flags=1, bad_bit=7),
    "cumsum-err-rank0": seed("cumsum", "f32", [], 0),
    "cumsum-err-negative-dim": seed("cumsum", "f32", [4, -1], 0),
    "cumsum-zero-dim-huge": seed("cumsum", "f64", [0, 1 << 40], 1),
    "cumsum-err-overlap": seed("cumsum", "f32", [64], 0, special="overlap", special_arg=3),
    "cumsum-err-x-null": seed("cumsum", "u8", [16], 0, special="x_null"),
    # ---- reduce_sum
    "reduce-f32-rows": seed("reduce", "f32", [64, 1000], axes=[1], mode="unit"),
    "reduce-f32-row-8192": seed("reduce", "f32", [8192], axes=[0], mode="ordinary"),
    "reduce-bf16-short-rows": seed("reduce", "bf16", [511, 3], axes=[-1], mode="ordinary"),
    "reduce-f16-short-rows-9": seed("reduce", "f16", [300, 9], axes=[1], mode="exact"),
    "reduce-f32-columns": seed("reduce", "f32", [128, 33], axes=[0], mode="ordinary"),
    "reduce-f32-column-chunk": seed("reduce", "f32", [2, 4100], axes=[0], mode="unit"),
    "reduce-f64-3d-wide": seed("reduce", "f64", [8, 9, 10], axes=[0, 2], mode="ordinary"),
    "reduce-f32-4d-keepdims": seed("reduce", "f32", [3, 5, 7, 9], axes=[1, 3], flags=1,
                                   mode="any"),
    "reduce-f32-identity": seed("reduce", "f32", [7, 9], axes=[], mode="any"),
    "reduce-f16-all": seed("reduce", "f16", [7, 9, 2], axes=[], flags=2, mode="ordinary"),
    "reduce-i64-duplicate-axes": seed("reduce", "i64", [6, 65], axes=[1, -1], mode="any"),
    "reduce-u8-columns-wrap": seed("reduce", "u8", [257, 31], axes=[0], mode="any"),
    "reduce-i16-small-inner": seed("reduce", "i16", [513, 3], axes=[0], mode="any"),
    "reduce-f32-zero-length": seed("reduce", "f32", [0, 5], axes=[0], flags=1),
    "reduce-f32-huge-overflow": seed("reduce", "f32", [16, 64], axes=[1], mode="huge"),
    "reduce-bf16-huge-columns": seed("reduce", "bf16", [64, 16], axes=[0], mode="huge"),
    "reduce-f32-negzero": seed("reduce", "f32", [4, 4], axes=[1], data=NZERO * 8 + PZERO * 8),
    "reduce-rank0": seed("reduce", "u16", [], axes=[], flags=2),
    "reduce-err-inplace": seed("reduce", "f32", [8, 8], axes=[0], inplace=True),
    "reduce-err-bool": seed("reduce", "bool", [8], axes=[0]),
    "reduce-err-axis-rank0": seed("reduce", "f32", [], axes=[0]),
    "reduce-err-axes-null": seed("reduce", "f32", [4], axes=[0], special="axes_null"),
    "reduce-err-axis-range": seed("reduce", "i32", [4, 4], axes=[0, INT64_MIN]),
    # ---- roll
    "roll-f32-row": seed("roll", "f32", [1000], axes=[0], shifts=[7]),
    "roll-u8-2d-both": seed("roll", "u8", [8, 300], axes=[0, 1], shifts=[3, -129]),
    "roll-f64-flat": seed("roll", "f64", [5, 7, 3], axes=[], shifts=[-22]),
    "roll-i16-rank0-flat": seed("roll", "i16", [], axes=[], shifts=[5]),
    "roll-bool-repeated-axis": seed("roll", "bool", [9, 10], axes=[1, 1, -1], shifts=[4, 5, 6],
                                    mode="any"),
    "roll-u64-int64-extremes": seed("roll", "u64", [3, 4, 5], axes=[0, 1, 2],
                                    shifts=[INT64_MIN, INT64_MAX, INT64_MIN + 1]),
    "roll-bf16-one-shift-3-axes": seed("roll", "bf16", [4, 1, 6, 33], axes=[0, 2, 3],
                                       shifts=[1000003]),
    "roll-i32-inplace": seed("roll", "i32", [17, 65], axes=[1], shifts=[-1], inplace=True),
    "roll-i8-long-rows": seed("roll", "i8", [3, 4097], axes=[1], shifts=[4000 - (1 << 40)]),
    "roll-f16-rank5": seed("roll", "f16", [2, 3, 2, 5, 7], axes=[4, 0, 2], shifts=[3, 1, 1],
                           xoff=1, yoff=2),
    "roll-err-nshift0": seed("roll", "f32", [4], axes=[0], shifts=[]),
    "roll-err-nshift-mismatch": seed("roll", "f32", [4, 4], axes=[0, 1], shifts=[1, 2, 3]),
    "roll-err-axis": seed("roll", "u16", [4, 4], axes=[2], shifts=[1]),
    "roll-err-shift-null": seed("roll", "u16", [4, 4], axes=[1], shifts=[1],
                                special="shift_null"),
    "roll-err-overlap": seed("roll", "i64", [48], axes=[0], shifts=[1], special="overlap",
                             special_arg=7),
    # ---- reduce_sum_shape, and the generic checks
    "shape-keepdims": seed("shape", "f32", [2, 3, 4], axes=[0, -1], flags=1),
    "shape-huge-ok": seed("shape", "f32", [1 << 40, 4096], axes=[1]),
    "shape-err-too-large": seed("shape", "f32", [1 << 62, 3], axes=[0]),
    "shape-err-out-rank-null": seed("shape", "f32", [2, 3], axes=[1], special="out_rank_null"),
    "shape-out-shape-null-rank0": seed("shape", "f32", [2, 3], axes=[], flags=2,
                                       special="out_shape_null"),
    "shape-err-flags": seed("shape", "f32", [2], axes=[0], bad_bit=2),
    "err-dtype-0": seed("cumsum", "bad0", [4], 0),
    "err-dtype-14": seed("reduce", "bad14", [4], axes=[0]),
    "err-dtype-99": seed("roll", "bad99", [4], axes=[0], shifts=[1]),
    "err-rank-17": seed("roll", "u8", [1] * 8, axes=[0], shifts=[1], rank=17),
    # ---- logcumsumexp (lcse) and reduce_logsumexp (rlse): floats only
    "lcse-f32-row": seed("lcse", "f32", [1000], 0, mode="ordinary"),
    "lcse-f64-row-exclusive": seed("lcse", "f64", [4097], -1, flags=1, mode="any"),
    "lcse-f16-short-rows": seed("lcse", "f16", [96, 5], 1, flags=2, mode="ordinary"),
    "lcse-bf16-columns-reverse": seed("lcse", "bf16", [300, 17], 0, flags=3, mode="ordinary"),
    "lcse-f32-columns-wide": seed("lcse", "f32", [4, 1025], 0, mode="unit"),
    "lcse-f32-3d-inplace": seed("lcse", "f32", [4, 33, 5], 1, inplace=True, mode="exact"),
    "lcse-f32-specials": seed("lcse", "f32", [3, 8], 1,
                              data=ONE + NAN + INF + NINF + NZERO + PZERO + SUB + HUGE
                              + NINF * 8 + MINUS_ONE * 8),
    "lcse-f64-neginf-then-inf": seed("lcse", "f64", [2, 6], 1, flags=2,
                                     data=NINF * 3 + ONE + INF + ONE + NINF * 6),
    "lcse-f32-rare-specials": seed("lcse", "f32", [2049], 0, flags=1, mode="rare_special"),
    "lcse-bf16-huge": seed("lcse", "bf16", [64], 0, mode="huge"),
    "lcse-f16-tiny": seed("lcse", "f16", [7, 65], -1, mode="tiny"),
    "lcse-f32-misaligned": seed("lcse", "f32", [65, 7], 0, xoff=3, yoff=5, mode="any"),
    "lcse-err-i32": seed("lcse", "i32", [4, 4], 1),
    "lcse-err-bool": seed("lcse", "bool", [8], 0),
    "lcse-err-u8-bad-axis": seed("lcse", "u8", [4, 4], 2),
    "lcse-err-axis": seed("lcse", "f32", [4, 4], 2),
    "lcse-err-flags": seed("lcse", "f64", [4, 4], 0, flags=1, bad_bit=7),
    "lcse-err-overlap": seed("lcse", "f32", [64], 0, special="overlap", special_arg=3),
    "lcse-zero-dim-huge": seed("lcse", "f16", [0, 1 << 40], 1),
    "rlse-f32-rows": seed("rlse", "f32", [64, 1000], axes=[1], mode="ordinary"),
    "rlse-f32-row-8192": seed("rlse", "f32", [8192], axes=[0], mode="any"),
    "rlse-f64-full-chunks": seed("rlse", "f64", [2, 4100], axes=[0, 1], mode="ordinary"),
    "rlse-bf16-short-rows": seed("rlse", "bf16", [511, 3], axes=[-1], mode="ordinary"),
    "rlse-f16-columns": seed("rlse", "f16", [128, 33], axes=[0], mode="unit"),
    "rlse-f32-column-chunk": seed("rlse", "f32", [2, 4100], axes=[0], mode="ordinary"),
    "rlse-f64-3d-wide": seed("rlse", "f64", [8, 9, 10], axes=[0, 2], mode="any"),
    "rlse-f32-4d-keepdims": seed("rlse", "f32", [3, 5, 7, 9], axes=[1, 3], flags=1,
                                 mode="rare_special"),
    "rlse-f32-identity": seed("rlse", "f32", [7, 9], axes=[], mode="any"),
    "rlse-f16-all": seed("rlse", "f16", [7, 9, 2], axes=[], flags=2, mode="ordinary"),
    "rlse-f32-zero-length": seed("rlse", "f32", [0, 5], axes=[0], flags=1),
    "rlse-f32-specials": seed("rlse", "f32", [4, 4], axes=[1],
                              data=NINF * 4 + NINF + ONE + NINF + ONE + NAN + INF + ONE + ONE
                              + INF + NINF + HUGE + SUB),
    "rlse-bf16-huge": seed("rlse", "bf16", [64, 16], axes=[0], mode="huge"),
    "rlse-f32-tiny": seed("rlse", "f32", [16, 64], axes=[1], mode="tiny"),
    "rlse-err-u8": seed("rlse", "u8", [8], axes=[0]),
    "rlse-err-bool": seed("rlse", "bool", [8], axes=[0]),
    "rlse-err-i64-bad-shape": seed("rlse", "i64", [4, -1], axes=[0]),
    "rlse-err-inplace": seed("rlse", "f32", [8, 8], axes=[0], inplace=True),
    "rlse-err-axes-null": seed("rlse", "f64", [4], axes=[0], special="axes_null"),
    "rlse-err-axis-rank0": seed("rlse", "f32", [], axes=[0]),
}

# Inputs the fuzzer found, kept as regressions (base64, as libFuzzer prints them).
FOUND = {
    # f16 reduce, short rows of 6: an f32 sum that rounds to 65520 (the f16
    # overflow midpoint) gives inf on AVX2 where the scalar f64 sum, a hair
    # below, gives 65504: within the accuracy bound; the harness's inf-vs-finite
    # rule once took the ulp at inf and called it a mismatch.
    "found-f16-reduce-overflow-midpoint":
        "PQMFAAMAIkhIgkgtSEgGSEhISEhIAAEAFwACA35+fut+AwIAIkhIgkhISEgGSEhISEhIAAEAFwAC6w==",
}
SEEDS.update({name: base64.b64decode(b64) for name, b64 in FOUND.items()})


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    os.makedirs(root, exist_ok=True)
    for name in os.listdir(root):
        os.remove(os.path.join(root, name))
    for name, blob in sorted(SEEDS.items()):
        with open(os.path.join(root, name), "wb") as f:
            f.write(blob)
    print("%d seeds in %s" % (len(SEEDS), root), file=sys.stderr)


if __name__ == "__main__":
    main()
