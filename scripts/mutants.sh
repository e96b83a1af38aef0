#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Mutation testing: does the test suite catch a planted one-line bug?
#
# Each mutant below is a one-line edit of one source file (a bug: a carry
# dropped, a lane mask off by one, an f64 sum taken through a float...).  For
# each one the script plants it in a copy of the source tree, rebuilds the
# TAP driver incrementally, runs the suite's fast drivers for the ISAs the
# mutant touches, and reverts it.  A mutant is KILLED when a driver fails (a
# check fails, the driver crashes or hangs), SURVIVED when every driver
# passes: then the suite has a gap that the bug slips through.
#
#   bash scripts/mutants.sh           every mutant (on demand; about 5 minutes
#                                     on 2 cores, and 10 more for the NEON ones
#                                     under qemu, the cross build included)
#   bash scripts/mutants.sh --ci      the few marked ci (for CI: about a minute
#                                     after the first build), each killed by a
#                                     test whatever the threads' timing
#   bash scripts/mutants.sh ID...     the mutants named
#   bash scripts/mutants.sh --list    the list, checked (every edit's line
#                                     found exactly once), nothing built
#
# Where: build-mutants/ (ignored by git): src/, a copy of the checkout's
# files (tracked and untracked-not-ignored; refreshed file by file, so that
# only what changed rebuilds); build/, its native build (debugoptimized, -g1,
# no benchmarks; the AVX-512 kernels only where this CPU runs them,
# scripts/avx512-option.sh); aarch64/, the cross build whose TAP driver runs
# the NEON mutants under qemu-aarch64 (not in --ci; AXIAL_MUTANTS_QEMU=0
# reports them skipped instead); logs/, each driver's TAP output and stderr;
# report.txt, the last table.  The checkout itself is never written, so the
# script can run beside builds of it.
#
# The drivers (tests/axial-tap; ISA tokens of a mutant):
#   scalar, avx2, avx512, neon   `axial-tap --isa=ISA`: every per-ISA test
#   api                          `axial-tap --isa=api`: the ISA-independent tests
#   refsplit                     `axial-tap-refsplit --isa=scalar` on
#                                parallel_cumsum and parallel_reduce (the split
#                                planner over the reference kernels, as meson
#                                runs it)
# with AXIAL_TEST_BIG=0 (no full-size targets or 4 GiB tensors), a quarter
# of the random cases (AXIAL_TEST_SCALE, default 0.25), the SIMD ISA
# required (AXIAL_TEST_REQUIRE_ISA: a mutant that loses it fails), and
# AXIAL_TEST_SKIP=stack (it bounds stack frames, not values) plus, on the
# scalar ISA, order_kernels (there it checks the tests' own reference, no
# library code), and under qemu guard_pages too (as scripts/test.sh does).
# A driver stops at its first failing test (the mutant is killed: no need
# to run on), and after AXIAL_MUTANTS_TIMEOUT seconds (default 300 native,
# 1200 under qemu), which counts as killed (a hang).  Before the mutants
# the same drivers run on the unmutated tree: they must pass (not in --ci,
# which scripts/test.sh runs after its native stage has run those tests on
# the same sources, every case of them).  A mutant whose
# ISAs this machine cannot run (AVX-512 on a CPU without it, NEON without
# qemu) is SKIPPED, its edit still checked by compiling the file
# (-fsyntax-only), never counted as killed.
#
# Adding a mutant: a record in the list below (fields in any order, a blank
# line between records):
#   id    a short unique name
#   file  the file, relative to the repository root
#   isa   the drivers to run, in order, comma-separated (above): the ISAs
#         whose kernels or paths the edit changes (src/ edits: the ISAs
#         whose tests reach the code)
#   ci    yes: one of the --ci set (optional)
#   what  what the bug does, one line
#   old   text that must occur exactly once in the file (a part of one line)
#   new   what replaces it
# The script fails (exit 2) when `old` is missing or occurs more than once,
# or when the mutated file does not compile: so the list cannot rot
# silently as the code changes.  The edit must change behaviour on some
# input the ISAs' tests could feed (not dead code).
#
# Exit status: 0 every mutant that ran was killed (skipped ones do not
# count); 1 some mutant survived; 2 a usage or list error, or a mutant that
# does not compile; 3 the unmutated tree does not build or its drivers fail.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
umask 022
# the drivers' settings are the script's (below), not the caller's
unset AXIAL_ISA AXIAL_VERBOSE AXIAL_TEST_SKIP AXIAL_TEST_REQUIRE_ISA AXIAL_TEST_BIG

# ---- the mutants ------------------------------------------------------------
mutant_list() {
cat <<'EOF'
id:   src-scan-carry-dropped
file: src/cumsum.c
isa:  avx2,refsplit
what: blocked scan (the _ex split of long lines): the serial step sets the next chunk carry to the chunk total alone, R_{h+1} = S_h
old:  R += S;
new:  R = S;

id:   src-reduce-chunk-short
file: src/reduce.c
isa:  scalar
what: ReduceSum of few outputs in fixed chunks: every full chunk sums one row too few
old:  len = p->n - j0 < p->chunk ? p->n - j0 : p->chunk;
new:  len = p->n - j0 < p->chunk ? p->n - j0 : p->chunk - 1;

id:   src-reduce-wide-offset
file: src/reduce.c
isa:  scalar,avx2,api
what: several reduced groups, split: a task's rows start at accumulator b instead of b * inner (a stride error)
old:  size_t xoff = b * n * inner + lo * p->xstride[gr], aoff = b * inner;
new:  size_t xoff = b * n * inner + lo * p->xstride[gr], aoff = b;

id:   src-wide-batch-order
file: src/reduce.c
isa:  avx2
what: ReduceSum of several reduced groups, slabs batched into one reduce_acc call: their sums are added to the accumulator last slab first
old:                  axial_wide_add(&p->k, acc + aoff * wide, (char *)p->batch + l * w * wide, w);
new:                  axial_wide_add(&p->k, acc + aoff * wide, (char *)p->batch + (m - 1 - l) * w * wide, w);

id:   int-periodic-wrap
file: kernels/ops/reduce.h
isa:  avx2
what: integer ReduceSum of 1 < inner < lanes: the tail's output index wraps to 1, not 0, after the last output
old:          for (size_t i = q % inner; q < count; q++, i = i + 1 == inner ? 0 : i + 1)
new:          for (size_t i = q % inner; q < count; q++, i = i + 1 == inner ? 1 % inner : i + 1)

id:   int-few-rows-tree
file: kernels/ops/reduce.h
isa:  avx2,avx512
what: integer ReduceSum of 1 < inner < lanes over few rows (a row a load): 2 rows of each tree of 4 left out
old:  f = vi_add(k, f, ri_gsum(k, axk_at(k, x, (o * n + j) * inner), inner * axk_size(k), 4));
new:  f = vi_add(k, f, ri_gsum(k, axk_at(k, x, (o * n + j) * inner), inner * axk_size(k), 2));

id:   int-wide-rows-chain
file: kernels/ops/reduce.h
isa:  avx2,avx512
what: x86 integer ReduceSum of rows of 2 to 4 vectors (AX_VB / 8 rows a group): a row's last whole vector left out
old:          RD_UNROLL for (size_t i = 0; i + 1 < nc; i++) s = i + 1 < vr ? vi_add(k, s, vi_ld(axk_at(k, q, i * L))) : s;
new:          RD_UNROLL for (size_t i = 0; i + 1 < nc; i++) s = i + 2 < vr ? vi_add(k, s, vi_ld(axk_at(k, q, i * L))) : s;

id:   avx512-int-rows3-lane
file: kernels/simd/avx512.h
isa:  avx512
what: AVX-512 integer ReduceSum rows of 3 (vi_rows3, 32-bit lanes): each row's fourth lane, the next row's first element, kept
old:                            _mm512_maskz_permutex2var_epi32(0x7777, a, i, b), _mm512_maskz_permutex2var_epi64(0x77, a, i, b));
new:                            _mm512_maskz_permutex2var_epi32(0xffff, a, i, b), _mm512_maskz_permutex2var_epi64(0x77, a, i, b));

id:   avx512-int-rows3-bytes
file: kernels/simd/avx512.h
isa:  avx512
what: AVX-512 integer ReduceSum byte rows of 3 (vi_rows3 as 16-bit lanes): the second half of the rows summed from the first half's elements
old:                                                               _mm512_cvtepi16_epi8(ax_rows3(AXK_I16, w + 3)), 1);
new:                                                               _mm512_cvtepi16_epi8(ax_rows3(AXK_I16, w)), 1);

id:   int-wide-quarter-keep
file: kernels/ops/reduce.h
isa:  avx512
what: AVX-512 integer ReduceSum byte rows of up to 16 (4 rows a vector, vi_ld4q): the keep mask's period a half vector, not a quarter
old:          kb[b] = b % (wide > 1 ? AX_VB / wide : !wide && V == 1 && 2 * n <= L ? AX_VB / 2 : AX_VB)
new:          kb[b] = b % (wide > 1 ? AX_VB / 2 : !wide && V == 1 && 2 * n <= L ? AX_VB / 2 : AX_VB)

id:   avx512-int-fold8
file: kernels/simd/avx512.h
isa:  avx512
what: AVX-512 integer ReduceSum rows in groups of 8-byte lanes (vi_fold8): each odd row folded from the even row before it
old:  for (int i = 0; i < 8; i++) d[i] = _mm512_castsi512_pd(r[i]);
new:  for (int i = 0; i < 8; i++) d[i] = _mm512_castsi512_pd(r[i & 6]);

id:   avx512-iflat-carry
file: kernels/ops/cumsum.h
isa:  avx512
what: AVX-512 narrow integer CumSum columns as a flat run (cs_iflat): the carry broadcasts the vector's last element, not its last row
old:  : vi_last(B == 2 ? AXK_I16 : B == 4 ? AXK_I32 : AXK_I64, s, rev);
new:  : vi_last(k, s, rev);

id:   avx512-iflat-row16
file: kernels/ops/cumsum.h
isa:  avx512
what: AVX-512 integer CumSum columns of 16 bytes as a flat run: the carry broadcasts the vector's first row, not its last
old:  : B > 8 ? vi_row16(s, rev) :
new:  : B > 8 ? vi_row16(s, !rev) :

id:   avx512-iflat-step4
file: kernels/ops/cumsum.h
isa:  avx512
what: AVX-512 narrow integer CumSum columns as a flat run, four vectors a step: the third vector loaded from the second's place
old:  v[u] = vi_ld(xs + (rev ? N - j - (u + 1) * W : j + u * W) * e);
new:  v[u] = vi_ld(xs + (rev ? N - j - (u + 1) * W : j + (u == 2 ? 1 : u) * W) * e);

id:   avx512-iflat-tail
file: kernels/ops/cumsum.h
isa:  avx512
what: AVX-512 narrow integer CumSum columns as a flat run, reverse: the last rows' copy one element low in the zeroed step
old:  const size_t off = rev ? sizeof b - r * e : 0;
new:  const size_t off = rev ? sizeof b - r * e - e : 0;

id:   avx512-sweep-int-tile
file: kernels/ops/cumsum.h
isa:  avx512
what: AVX-512 integer CumSum columns, the last 5-7 vectors of a sweep as one tile: 6 of them taken as 5
old:  : v == 5 ? CS_SWEEP_N(5) : v == 6 ? CS_SWEEP_N(6) : CS_SWEEP_N(7);
new:  : v == 5 ? CS_SWEEP_N(5) : v == 6 ? CS_SWEEP_N(5) : CS_SWEEP_N(7);

id:   cs-rest-sweep
file: kernels/ops/cumsum.h
isa:  avx512
what: CumSum columns past the last whole tile, as one tile of 2-4 vectors in a sweep: the last vector swept twice
old:  c = ncols;
new:  c = ncols - last;

id:   avx512-cols-regs
file: kernels/ops/reduce.h
isa:  avx512
what: AVX-512 float column tiles of 2 whole vectors with their sums in registers (rd_cols_regs): only the first vector's columns summed
old:  w == 2 * L ? rd_cols_regs(k, x, acc, n, stride, 2)
new:  w == 2 * L ? rd_cols_regs(k, x, acc, n, stride, 1)

id:   avx512-int-stw
file: kernels/simd/avx512.h
isa:  avx512
what: AVX-512 integer ReduceSum rows in groups of 8-byte lanes, i32 outputs stored straight to y (vi_stw): the lanes rotated by one
old:  _mm256_storeu_si256(p, _mm512_cvtepi64_epi32(v)), vi_st(p, v)); }
new:  _mm256_storeu_si256(p, _mm512_cvtepi64_epi32(_mm512_alignr_epi64(v, v, 1))), vi_st(p, v)); }

id:   avx2-hsum-i16-pairs
file: kernels/simd/avx2.h
isa:  avx2
what: AVX2 integer row sums: 16-bit lanes summed without their high halves (the odd lanes left out)
old:      v = k == AXK_I16 ? _mm256_add_epi32(_mm256_and_si256(v, _mm256_set1_epi32(0xffff)), _mm256_srli_epi32(v, 16)) : v;
new:      v = k == AXK_I16 ? _mm256_and_si256(v, _mm256_set1_epi32(0xffff)) : v;

id:   avx2-int-rows-pairs
file: kernels/simd/avx2.h
isa:  avx2
what: AVX2 integer short rows: the pairwise sums' 64-bit quarters left as the 128-bit halves put them (a's and b's interleaved), so rows swap sums
old:                                      : _mm256_add_epi64(_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b)), 0xd8);
new:                                      : _mm256_add_epi64(_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b)), 0xe4);

id:   avx512-int-rows-bytes
file: kernels/simd/avx512.h
isa:  avx512
what: AVX-512 integer short rows of bytes: a pair's sum keeps its carry bit (masked to 9 bits), so the pack saturates and sums of large bytes go wrong
old:  #define AX_PAIRS(v, w) _mm512_and_si512(_mm512_add_epi##w(v, _mm512_srli_epi##w(v, w / 2)), _mm512_set1_epi##w((1 << w / 2) - 1))
new:  #define AX_PAIRS(v, w) _mm512_and_si512(_mm512_add_epi##w(v, _mm512_srli_epi##w(v, w / 2)), _mm512_set1_epi##w((2 << w / 2) - 1))

id:   src-axis-negative
file: src/shape.c
isa:  scalar,api
what: axis normalisation: a negative axis counts from the front (-1 is axis 0)
old:  *out = (size_t)(axis < 0 ? axis + r : axis);
new:  *out = (size_t)(axis < 0 ? -axis - 1 : axis);

id:   src-task-range-last
file: src/parallel.c
isa:  scalar,avx2
ci:   yes
what: aligned task ranges: the last task ends on an alignment boundary, not at the last unit
old:  *end = k + 1 == ntasks ? units : *end * align;
new:  *end = *end * align;

id:   src-roll-negative-shift
file: src/roll.c
isa:  scalar
ci:   yes
what: Roll: a negative shift is reduced mod n one too far (d - m instead of d - 1 - m)
old:  return d - 1 - m;
new:  return d - m;

id:   src-stream-chunk-carry
file: src/stream.c
isa:  avx2
ci:   yes
what: CumSum streams: at a chunk end the carry becomes the chunk total alone (R = S)
old:  c->R += c->S;
new:  c->R = c->S;

id:   src-stream-lse-nan-mark
file: src/stream.c
isa:  avx2
ci:   yes
what: ReduceLogSumExp streams: a column whose sum turned NaN is not marked where it holds a NaN (+inf comes out, not NaN)
old:  ls[c] = NAN;
new:  (void)c;

id:   src-stream-lse-nan-look
file: src/stream.c
isa:  avx2
what: ReduceLogSumExp streams: the look for a sum turned NaN leaves out every fourth line or column's sum, so those are not marked (+inf comes out, not NaN)
old:      if (!all && !isnan((t[0] + t[1]) + (t[2] + t[3])))
new:      if (!all && !isnan((t[0] + t[1]) + t[2]))

id:   src-wide-no-cells
file: src/reduce.c
isa:  avx2
what: ReduceSum of several reduced groups: the one call sums its first reduced axis as one cell, where its shards (and the golden files) take the order's cells
old:      if (p->cellg == 0) {
new:      if (p->cellg == 0 || p->gr == p->gr) {

id:   src-stream-many-chunks
file: src/stream.c
isa:  avx2
what: ReduceSum streams of more than 64 outputs take no chunks (the one call sums 1024 rows a chunk)
old:          chunk = axial__reduce_chunk(outer * inner, inner * es, true);
new:          chunk = outer * inner <= AXIAL_REDUCE_FEW ? AXIAL_REDUCE_CHUNK / (inner * es) : 0;

id:   src-shard-many-cell
file: src/shard.c
isa:  avx2
what: shards of a reduction: cells of twice the order's chunks (summaries on the grid split a chunk)
old:              p->cell = chunk;
new:              p->cell = 2 * chunk;

id:   src-shard-size-wraps
file: src/shard.c
isa:  api
what: shard summaries: the byte count wraps (values x value bytes unchecked), as it did before the check
old:  axial__bytes(per, p->vs, AX_SH_HEAD + 8 * p->rank + 8, size);
new:  (*size = per * p->vs + AX_SH_HEAD + 8 * p->rank + 8, true);

id:   src-stream-reset-order
file: src/stream.c
isa:  api
what: streams: a reset keeps an imported state's summation order, not create's
old:  s->order = s->order0;
new:  (void)s->order0;

id:   src-shard-carry-last-cell
file: src/shard.c
isa:  scalar
what: shard scans: the carry from a summary leaves out its last cell's partial P (R alone)
old:  v_add(p, buf, v + p->nv * p->vs, p->nv);
new:  (void)v;

id:   dispatch-active-table
file: src/dispatch.c
isa:  avx2,api
ci:   yes
what: dispatch: every call takes the scalar table whatever ISA is active or selected
old:  return &axial_tables[axial_active_here()];
new:  return &axial_tables[AXIAL_ISA_SCALAR];

id:   dispatch-thread-choice-ignored
file: src/dispatch.c
isa:  api
what: dispatch: a thread's own ISA choice (use_isa) is ignored by the tables its calls take
old:      return own >= 0 ? own : atomic_load_explicit(&axial_active, memory_order_relaxed);
new:      return (void)own, atomic_load_explicit(&axial_active, memory_order_relaxed);

id:   scalar-cumsum-f64-via-f32
file: kernels/scalar/cumsum.c
isa:  scalar
ci:   yes
what: scalar CumSum of float lines: each term is rounded to f32 before it is added (f64 accumulates f32 terms)
old:  const double v = LOAD(x[j]);
new:  const double v = (float)LOAD(x[j]);

id:   scalar-cumsum-exclusive
file: kernels/scalar/cumsum.c
isa:  scalar
what: scalar CumSum of columns and integers, EXCLUSIVE: an output includes its own term (but the first)
old:  y[base + b] = STORE(t ? acc[b] : (A)0);
new:  y[base + b] = STORE(t ? (A)(acc[b] + v) : (A)0);

id:   scalar-cumsum-reverse
file: kernels/scalar/cumsum.c
isa:  scalar
what: scalar CumSum of columns and integers, REVERSE: starts at row 0, then n-1 down to 1 (off by one)
old:  const size_t j = reverse ? n - 1 - t : t;
new:  const size_t j = reverse ? (n - t) % n : t;

id:   scalar-reduce-f64-via-f32
file: kernels/scalar/reduce.c
isa:  scalar
what: scalar ReduceSum f64: the running sum is rounded to f32 after every term
old:  acc[b] = (A)(acc[b] + LOAD(row[b]));
new:  acc[b] = DT == AXIAL_F64 ? (A)(float)(acc[b] + LOAD(row[b])) : (A)(acc[b] + LOAD(row[b]));

id:   scalar-lse-f64-via-f32
file: kernels/scalar/lse.c
isa:  scalar
what: scalar LogCumSumExp and ReduceLogSumExp f64: each term is rounded to f32 before it enters the state
old:  const A v = (A)LOAD(x[base + b]);
new:  const A v = (A)(float)LOAD(x[base + b]);

id:   scalar-lse-rescale-sign
file: kernels/kernels.h
isa:  scalar
what: scalar log-space step: on a new maximum s is rescaled by exp(v - m) instead of exp(m - v)
old:  (s) = (s) * EXP((m) - (v)) + 1, (m) = (v);
new:  (s) = (s) * EXP((v) - (m)) + 1, (m) = (v);

id:   scalar-roll-wrap
file: kernels/scalar/roll.c
isa:  scalar
what: scalar Roll: the wrapped part lands one element too far right (y[0] never written)
old:  yr[j + shift - n] = xr[j];
new:  yr[j + shift - n + 1] = xr[j];

id:   cumsum-chunk-carry
file: kernels/ops/cumsum.h
isa:  avx2
what: CumSum float lines, every SIMD ISA: the next chunk's carry is this chunk's total alone (R = S)
old:  R += S;
new:  R = S;

id:   cumsum-reverse-tail
file: kernels/ops/cumsum.h
isa:  avx2
what: CumSum float lines, REVERSE, every SIMD ISA: the partial last block sits one lane low in its padded buffer
old:  off = (rev ? 16 - r : 0) * es;
new:  off = (rev ? 15 - r : 0) * es;

id:   avx2-cumsum-quad-shuffle
file: kernels/simd/avx2.h
isa:  avx2
ci:   yes
what: AVX2 vocabulary, CumSum f32 family, forward: a quad's total broadcast from lane 2, not 3 (a wrong shuffle constant)
old:  const __m256 bA = rev ? _mm256_shuffle_ps(s.a, s.a, 0x00) : _mm256_shuffle_ps(s.a, s.a, 0xFF);
new:  const __m256 bA = rev ? _mm256_shuffle_ps(s.a, s.a, 0x00) : _mm256_shuffle_ps(s.a, s.a, 0xAA);

id:   avx512-cumsum-f64-quad-offset
file: kernels/simd/avx512.h
isa:  avx512
what: AVX-512 vocabulary, CumSum f64 lines, forward: the first quad's total is added to one lane too few of the second quad
old:  const __m512d e = _mm512_mask_permutexvar_pd(_mm512_set1_pd(-0.0), rev ? 0x0F : 0xF0,
new:  const __m512d e = _mm512_mask_permutexvar_pd(_mm512_set1_pd(-0.0), rev ? 0x0F : 0xE0,

id:   neon-cumsum-quad-end
file: kernels/simd/neon.h
isa:  neon
what: NEON vocabulary, CumSum f32 family, forward: a quad's total taken from lane 2, not 3
old:  return rev ? vdupq_laneq_f32(s, 0) : vdupq_laneq_f32(s, 3);
new:  return rev ? vdupq_laneq_f32(s, 0) : vdupq_laneq_f32(s, 2);

id:   cumsum-whole-past
file: kernels/ops/cumsum.h
isa:  avx2
what: CumSum narrow back-to-back columns, every SIMD ISA: whole vectors one row further, the last one past the tensor's end
old:  const size_t past = (wc + last - 1) / last - 1; /* rows a vector reaches past its own */
new:  const size_t past = (wc + last - 1) / last - 2; /* rows a vector reaches past its own */

id:   reduce-one-row-fold
file: kernels/ops/reduce.h
isa:  avx2
what: ReduceSum of one row alone, every SIMD ISA: its in-register fold stops one halving early (lane 0 lacks lane 1's sums)
old:  for (size_t h = AX_ND / 2; h >= 1; h /= 2) s = vd_halves_add(h, s, s);
new:  for (size_t h = AX_ND / 2; h >= 2; h /= 2) s = vd_halves_add(h, s, s);

id:   reduce-tree-row
file: kernels/ops/reduce.h
isa:  avx2
what: ReduceSum floats, every SIMD ISA: the 8-row tree reads rows 1 and 2 where rows 2 and 3 belong
old:  RD_PAIR(b, c, 2);
new:  RD_PAIR(b, c, 1);

id:   neon-line4-excl
file: kernels/simd/neon.h
isa:  neon
what: NEON integer lines by LD4/ST4, exclusive: each quad's later outputs take their own element's prefix, not the one before
old:  j == f ? base : ax_neon_add(k, base, a[j - d]);
new:  j == f ? base : ax_neon_add(k, base, a[j]);

id:   neon-lines3-order
file: kernels/simd/neon.h
isa:  neon
what: NEON f32 lines of 3 by LD3/ST3: the last output adds (x1 + x0) + x2, not the network's (x1 + x2) + x0 (other bits)
old:  s2 = add(add(b, c), a);
new:  s2 = add(add(b, a), c);

id:   neon-rows3-middle
file: kernels/simd/neon.h
isa:  neon
what: NEON f32 rows of 3 by LD3: rows 2 and 3 add their first element twice, not their middle one
old:  vcvt_high_f64_f32(t.val[1]));
new:  vcvt_high_f64_f32(t.val[0]));

id:   neon-int-rows-keep
file: kernels/ops/reduce.h
isa:  neon
what: integer short rows (NEON ADDP groups): a row's last vector keeps one lane past the row
old:  ? AX_VB / 2 : AX_VB) < (n - (V ? vr - 1 : 0) * L) * es
new:  ? AX_VB / 2 : AX_VB) <= (n - (V ? vr - 1 : 0) * L) * es

id:   copy-elem-width
file: kernels/simd/common.h
isa:  avx2
what: element copies of 4 bytes (f32 heads and tails of the scans) move only their low 2 bytes
old:  else if (es == 4) AXK_COPY_(uint32_t)
new:  else if (es == 4) AXK_COPY_(uint16_t)

id:   cumsum-one-carry
file: kernels/ops/cumsum.h
isa:  avx2
what: float CumSum lines, every SIMD ISA: a chunk's sum S is taken from its carry D even where the carry does not start at -0.0 (the chunks after a line's first)
old:  const int one = !memcmp(D, S, sizeof *D); /* D and S of the same bits stay so */
new:  const int one = 1;

id:   lse-chunk-carry
file: kernels/ops/lse.h
isa:  avx2
what: a LogCumSumExp chunk's outputs leave out the carry R of the chunks before it
old:  LF(lse_cs) c = {m, S, lse_mix_of(*R, (double)m)};
new:  LF(lse_cs) c = {m, S, lse_mix_of(AXIAL_LSE_EMPTY, (double)m)};

id:   neon-int-rows-halves
file: kernels/ops/reduce.h
isa:  neon
what: integer rows of at most half a vector (two a vector): each pair's second half reads the first row again
old:  h == 2 ? vi_ld2h(q, axk_at(k, p, (h * r + 1) * n)) : vi_ld4q
new:  h == 2 ? vi_ld2h(q, q) : vi_ld4q

id:   neon-int-rows3
file: kernels/simd/neon.h
isa:  neon
what: integer rows of 3 by LD3: the sum drops each row's last element
old:  return vi_add(k, vi_add(k, t[0], t[1]), t[2]);
new:  return vi_add(k, vi_add(k, t[0], t[1]), t[1]);

id:   neon-int-acc
file: kernels/simd/neon.h
isa:  neon
what: NEON integer reduce_acc of whole groups (vi_acc): each wide lane's high half zipped from the low half
old:  w[2 * i + 1] = AX_NEON_W(j, vzip2q, w[i], vi_zero())
new:  w[2 * i + 1] = AX_NEON_W(j, vzip1q, w[i], vi_zero())

id:   neon-bf16-rows-v
file: kernels/ops/reduce.h
isa:  neon
what: NEON bf16 ReduceSum rows of one whole vector (rd_rows_n_bf16): rows taken one element short
old:  (AXK_BF16, x, y, acc, outer, vc_n(AXK_BF16), 0, 1, stream))
new:  (AXK_BF16, x, y, acc, outer, vc_n(AXK_BF16) - 1, 0, 1, stream))

id:   neon-line4-carry64
file: kernels/simd/neon.h
isa:  neon
what: NEON i64 CumSum lines by LD4 (vi_line4): the carry takes the quad's last lane, not both lanes' sum
old:  vreinterpretq_u8_u64(vpaddq_u64(w, w))
new:  vreinterpretq_u8_u64(vdupq_laneq_u64(w, 1))

id:   neon-int-lines-rev
file: kernels/simd/neon.h
isa:  neon
what: integer lines of 2 to 4 by LDn/STn: reverse lines scanned from their first element
old:  const size_t j = rev ? n - 1 - i : i;
new:  const size_t j = i;

id:   neon-int-cols-carry
file: kernels/simd/neon.h
isa:  neon
what: integer columns of 2 to 4 by LDn/STn: a column's carry is taken from the step's first row, not its last
old:  if (c) c[j] = vi_last(k, p, rev);
new:  if (c) c[j] = vi_last(k, p, !rev);

id:   cumsum-icols-rest
file: kernels/ops/cumsum.h
isa:  neon
what: integer columns of 2 to 4 by LDn/STn: the rows left over after whole steps lose their last row
old:  memcpy(t, x + p, r * n * es);
new:  memcpy(t, x + p, (r - 1) * n * es);

id:   neon-part-few
file: kernels/simd/neon.h
isa:  neon
what: NEON partial vectors: the 2-byte piece after a 4-byte one is read at the row's start
old:  memcpy(&v, b + o, 2);
new:  memcpy(&v, b, 2);

id:   avx2-part-third-byte
file: kernels/simd/avx2.h
isa:  avx2
what: AVX2 vocabulary, partial integer and f16/bf16 vectors: the third byte after the last whole dword lands on the second
old:  (r > 2 ? (uint32_t)b[2] << 16 : 0u);
new:  (r > 2 ? (uint32_t)b[2] << 8 : 0u);

id:   avx2-reduce-keep-mask
file: kernels/simd/avx2.h
isa:  avx2
what: AVX2 vocabulary, ReduceSum f64 tails: vd_keep keeps one lane too few
old:  const __m256i idx = _mm256_setr_epi64x(0, 1, 2, 3);
new:  const __m256i idx = _mm256_setr_epi64x(1, 2, 3, 4);

id:   lse-mix-sign
file: kernels/ops/lse.h
isa:  avx2
what: LogCumSumExp lines past one chunk, every SIMD ISA: a chunk's own state is weighted by exp(ref - m), not exp(m - ref)
old:  return (lse_mix){ref, R.s * exp(R.m - ref), exp(m - ref)};
new:  return (lse_mix){ref, R.s * exp(R.m - ref), exp(ref - m)};

id:   lse-reduce-tree
file: kernels/ops/lse.h
isa:  avx2
what: ReduceLogSumExp blocks, every SIMD ISA: the exps' pairwise tree adds a term to itself instead of its partner
old:  e[r] = LX(add)(e[r], e[r + w]);
new:  e[r] = LX(add)(e[r], e[r]);

id:   lse-stream-held
file: kernels/ops/lse.h
isa:  avx2
ci:   yes
what: LogCumSumExp streams, every SIMD ISA: the terms of a vector begun are not kept, so the next push runs that vector without them
old:  memcpy(st->held + hv * es, b + hv * es, take * es);
new:  (void)b;

id:   lse-rise-late
file: kernels/ops/lse.h
isa:  avx2
what: LogCumSumExp lines, every SIMD ISA: at a rise above the reference the lanes after it keep the old reference's outputs (steep rises overflow)
old:  const size_t j0 = i ? up[i - 1] : 0, w = i ? j0 + (size_t)excl : 0;
new:  const size_t j0 = i ? up[i - 1] : 0, w = i ? LN : 0;

id:   lse-vec-prefix-all
file: kernels/ops/lse.h
isa:  avx2
what: LogCumSumExp lines, every SIMD ISA: in a vector whose reference moves, each reference's prefix also sums the lanes before it (exps from another reference)
old:  const LV pv = LX(scan)(LX(sel)(LF(lse_ge)(j0), e, LX(set1)(0)));
new:  const LV pv = LX(scan)(e);

id:   lse-row-rescale
file: kernels/ops/lse.h
isa:  avx2
what: LogCumSumExp, a line's first 8 terms, every SIMD ISA: a new maximum does not rescale the sum of the terms before it
old:  const LV a = LX(sel)(up, e, one), b = LX(sel)(up, one, e);
new:  const LV a = one, b = LX(sel)(up, one, e);

id:   neon-icols-excl
file: kernels/ops/cumsum.h
isa:  neon
what: columns, EXCLUSIVE a constant of their own function (NEON): the exclusive call scans inclusively
old:  CS_BY_FLAGS(1, rev, cs_cols_, K, x, y, n, ncols, stride, first, acc, nt); break;
new:  CS_BY_FLAGS(0, rev, cs_cols_, K, x, y, n, ncols, stride, first, acc, nt); break;

id:   neon-fcols-excl-first
file: kernels/ops/cumsum.h
isa:  neon
what: float columns, EXCLUSIVE stored before the add (NEON): the first row's -0.0 left, not zeroed to +0.0
old:      if (CS_PRE(k, excl) && n)
new:      if (0 && CS_PRE(k, excl) && n)

id:   neon-red-pairs
file: kernels/ops/reduce.h
isa:  neon
what: float column and periodic ReduceSum, two vectors a load (NEON vf_ld2): the pair's halves swapped
old:              vf_ld2(k, axk_at(k, p, s * P + off + v * vc_n(k)), &r[v].f, &r[v + 1].f);
new:              vf_ld2(k, axk_at(k, p, s * P + off + v * vc_n(k)), &r[v + 1].f, &r[v].f);

id:   roll-select-phase
file: kernels/ops/roll.h
isa:  avx2
what: Roll of short rows by byte select, every SIMD ISA: the byte at the row's phase sb comes from the wrapped part
old:  (ph >= sb ? ph - sb : ph + nb - sb)
new:  (ph > sb ? ph - sb : ph + nb - sb)

id:   avx2-totals8-order
file: kernels/simd/avx2.h
isa:  avx2
what: AVX2 chunk totals of the line split (scan_total), 8 blocks at once: the quads' totals added in another order
old:  : _mm_add_ps(m3, _mm_add_ps(_mm_add_ps(m2, m1), m0))));
new:  : _mm_add_ps(_mm_add_ps(m3, m2), _mm_add_ps(m1, m0))));

id:   avx2-bf16-interleaved-up1
file: kernels/simd/avx2.h
isa:  avx2
what: AVX2 bf16 blocks, quads interleaved: exclusive outputs take the high quad of a from a's own low quad, not b's
old:          return (blk){ax_cs_qup(p.a, 1, ax_cs_qnext(p.b, z, rev), rev),
new:          return (blk){ax_cs_qup(p.a, 1, ax_cs_qnext(p.a, z, rev), rev),

id:   lines23-second-back
file: kernels/ops/cumsum.h
isa:  avx2
what: float CumSum lines of 2 and 3, every SIMD ISA: the element two back is added at a line's second element too
old:              m2[j] = V##_gt(LD(AXK_F32, pos + j * W), V##_set1(1.5));                             \
new:              m2[j] = V##_gt(LD(AXK_F32, pos + j * W), V##_set1(0.5));                             \

EOF
}

# ---- arguments ----------------------------------------------------------------
usage() { sed -n '13,21p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
mode=full list=0 wanted=()
for a in "$@"; do
  case $a in
    --ci) mode=ci ;;
    --list) list=1 ;;
    -h|--help) usage ;;
    -*) echo "mutants.sh: unknown option $a" >&2; usage ;;
    *) wanted+=("$a"); mode=named ;;
  esac
done
[ "$mode" = ci ] && [ ${#wanted[@]} -gt 0 ] && { echo "mutants.sh: --ci takes no ids" >&2; exit 2; }

# ---- parse and check the list -------------------------------------------------
M_ID=() M_FILE=() M_ISA=() M_CI=() M_WHAT=() M_OLD=() M_NEW=()
list_error() { echo "mutants.sh: list error: $*" >&2; exit 2; }
add_record() { # the fields of one record, in r_*
  [ -n "${r_id}${r_file}${r_isa}${r_what}${r_old}${r_new}" ] || return 0
  local f
  for f in id file isa what old new; do
    local v="r_$f"
    [ -n "${!v}" ] || list_error "mutant '${r_id:-?}' has no $f"
  done
  [[ $r_id =~ ^[a-z0-9][a-z0-9-]*$ ]] || list_error "bad id '$r_id'"
  local i
  for i in "${M_ID[@]}"; do [ "$i" != "$r_id" ] || list_error "id $r_id twice"; done
  local t
  IFS=, read -ra toks <<< "$r_isa"
  for t in "${toks[@]}"; do
    case $t in scalar|avx2|avx512|neon|api|refsplit) ;; *) list_error "$r_id: unknown isa '$t'" ;; esac
  done
  [ -f "$r_file" ] || list_error "$r_id: no file $r_file"
  [ "$r_old" != "$r_new" ] || list_error "$r_id: old and new are the same"
  M_ID+=("$r_id") M_FILE+=("$r_file") M_ISA+=("$r_isa") M_CI+=("$r_ci") M_WHAT+=("$r_what")
  M_OLD+=("$r_old") M_NEW+=("$r_new")
}
r_id= r_file= r_isa= r_ci= r_what= r_old= r_new=
while IFS= read -r line; do
  if [[ $line =~ ^[[:space:]]*$ ]]; then
    add_record; r_id= r_file= r_isa= r_ci= r_what= r_old= r_new=; continue
  fi
  [[ $line =~ ^([a-z]+):[[:space:]]*(.*[^[:space:]])[[:space:]]*$ ]] || list_error "bad line: $line"
  key=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]}
  case $key in
    id|file|isa|ci|what|old|new) printf -v "r_$key" '%s' "$val" ;;
    *) list_error "unknown field '$key' in: $line" ;;
  esac
done < <(mutant_list)
add_record

# edit FILE OLD NEW [check]: replace the one occurrence of OLD in FILE by NEW
# (check: only count, write nothing); exit 3 when OLD is not there exactly once.
edit() {
  python3 - "$@" <<'PY'
import sys
path, old, new = sys.argv[1:4]
with open(path, encoding="utf-8") as f:
    text = f.read()
n = text.count(old)
if n != 1:
    print(f"found {n} times", file=sys.stderr)
    sys.exit(3)
if len(sys.argv) < 5:
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new, 1))
PY
}
for i in "${!M_ID[@]}"; do # every edit, against the checkout: the list must not rot
  why=$(edit "${M_FILE[i]}" "${M_OLD[i]}" "${M_NEW[i]}" check 2>&1) ||
    list_error "${M_ID[i]}: the old text of ${M_FILE[i]} is ${why:-not readable}: ${M_OLD[i]}"
done

if [ "$list" -eq 1 ]; then
  printf '%-30s %-16s %-3s %s\n' ID ISA CI 'FILE: WHAT'
  for i in "${!M_ID[@]}"; do
    printf '%-30s %-16s %-3s %s: %s\n' "${M_ID[i]}" "${M_ISA[i]}" "${M_CI[i]:+ci}" "${M_FILE[i]}" "${M_WHAT[i]}"
  done
  echo "${#M_ID[@]} mutants; every old text found exactly once"
  exit 0
fi

# the mutants of this run, in list order (mutants of one file stay together,
# so that planting the next one and reverting the last cost one compile)
run=()
case $mode in
  full) run=("${!M_ID[@]}") ;;
  ci) for i in "${!M_ID[@]}"; do [ "${M_CI[i]}" = yes ] && run+=("$i"); done ;;
  named)
    for w in "${wanted[@]}"; do
      found=
      for i in "${!M_ID[@]}"; do [ "${M_ID[i]}" = "$w" ] && found=$i; done
      [ -n "$found" ] || { echo "mutants.sh: no mutant '$w' (--list lists them)" >&2; exit 2; }
      run+=("$found")
    done ;;
esac

# ---- the copy and its builds ----------------------------------------------------
work=$top/build-mutants
src=$work/src bld=$work/build xbld=$work/aarch64 logs=$work/logs
mkdir -p "$src" "$logs"
exec {lockfd}> "$work/.lock"
flock -n "$lockfd" || { echo "mutants.sh: another run holds $work/.lock" >&2; exit 2; }
jobs=$(nproc)
scale=${AXIAL_TEST_SCALE:-0.25}
t_start=$(date +%s)

# The copy: every file of the checkout whose content differs is copied (a new
# mtime: ninja rebuilds what depends on it); the others keep theirs.
git rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
  { echo "mutants.sh: needs a git checkout (it copies the files git knows)" >&2; exit 2; }
sync_copy() {
  local f n=0
  while IFS= read -r -d '' f; do
    [ -f "$f" ] || continue
    if ! cmp -s "$f" "$src/$f"; then
      mkdir -p "$src/$(dirname "$f")"
      cp "$f" "$src/$f"
      n=$((n + 1))
    fi
  done < <(git ls-files -z --cached --others --exclude-standard)
  echo "-- build-mutants/src: $n files refreshed from the checkout"
}

# meson setup runs `cmake --system-information` in its working directory:
# setups at once from one directory break each other, so every setup of the
# suite holds this lock (scripts/test.sh).
export AXIAL_SETUP_LOCK=${AXIAL_SETUP_LOCK:-${TMPDIR:-/tmp}/axial-meson-setup.$(id -u).lock}
msetup() { # meson setup arguments...; its log's end on failure
  local out
  out=$(flock "$AXIAL_SETUP_LOCK" meson setup "$@" 2>&1) || { printf '%s\n' "$out" | tail -n 30; return 1; }
}
setup_native() {
  [ -f "$bld/build.ninja" ] && return 0
  msetup "$bld" "$src" -Dbuildtype=debugoptimized -Dc_args=-g1 -Dbenchmarks=false \
    "-Davx512=$(bash scripts/avx512-option.sh)"
}
setup_cross() {
  [ -f "$xbld/build.ninja" ] && return 0
  msetup "$xbld" "$src" --cross-file "$src/cross/aarch64-linux-gnu.txt" \
    -Dbuildtype=debugoptimized -Dc_args=-g1 -Dbenchmarks=false
}

# build DIR TARGET...: incremental; the log in $logs/build.log
build() {
  local dir=$1; shift
  ninja -C "$dir" -j "$jobs" "$@" > "$logs/build.log" 2>&1
}

sync_copy

# Which drivers run where.  qemu: NEON through the cross build under
# qemu-aarch64 (x86-64 hosts, full and named runs).
host=$(uname -m)
qemu=0
if [ "$host" = x86_64 ] && [ "$mode" != ci ] && [ "${AXIAL_MUTANTS_QEMU:-1}" != 0 ] &&
   command -v qemu-aarch64 >/dev/null && command -v aarch64-linux-gnu-gcc >/dev/null; then
  qemu=1
fi
need_refsplit=0 need_cross=0
for i in "${run[@]}"; do
  [[ ,${M_ISA[i]}, == *,refsplit,* ]] && need_refsplit=1
  [[ ,${M_ISA[i]}, == *,neon,* ]] && [ "$qemu" = 1 ] && need_cross=1
done
targets=(tests/axial-tap)
[ "$need_refsplit" = 1 ] && targets+=(tests/axial-tap-refsplit)

t0=$(date +%s)
setup_native || { echo "mutants.sh: meson setup of build-mutants/build failed"; exit 3; }
build "$bld" "${targets[@]}" || { tail -n 30 "$logs/build.log"; echo "mutants.sh: the unmutated tree does not build"; exit 3; }
if [ "$need_cross" = 1 ]; then
  setup_cross || { echo "mutants.sh: meson setup of build-mutants/aarch64 failed"; exit 3; }
  build "$xbld" tests/axial-tap || { tail -n 30 "$logs/build.log"; echo "mutants.sh: the unmutated tree does not cross-build"; exit 3; }
fi
echo "-- build of the unmutated copy: $(( $(date +%s) - t0 )) s (${targets[*]}$([ "$need_cross" = 1 ] && echo '; the aarch64 one too'))"

# avail ISA: sets why_not to "" when this machine runs the token's tests
# (natively, or NEON under qemu), else to why not.  The unmutated driver
# says which ISAs it has.
declare -A avail_cache
avail() {
  local isa=$1
  why_not=
  case $isa in api|refsplit) return 0 ;; esac
  if [ -z "${avail_cache[$isa]+x}" ]; then
    local out rc=0 w=
    out=$("$bld/tests/axial-tap" "--isa=$isa" no-such-test 2>&1) || rc=$?
    if [ "$rc" = 2 ]; then
      if [ "$isa" = neon ] && [ "$qemu" = 1 ]; then w=
      elif [ "$isa" = neon ] && [ "$mode" = ci ]; then w="not an ISA of $host (qemu: not in --ci)"
      elif [ "$isa" = neon ] && [ "${AXIAL_MUTANTS_QEMU:-1}" = 0 ]; then w="not an ISA of $host (qemu: AXIAL_MUTANTS_QEMU=0)"
      elif [ "$isa" = neon ]; then w="not an ISA of $host (qemu: no qemu-aarch64 or aarch64-linux-gnu-gcc)"
      else w="not an ISA of $host"; fi
    elif [[ $out == *"# SKIP"* ]]; then
      w="this CPU or build lacks $isa"
    fi
    avail_cache[$isa]=$w
  fi
  why_not=${avail_cache[$isa]}
}

# drive TOKEN LOGNAME: runs the drivers of one ISA token; returns 0 when they
# pass, 1 when one fails (first failing test line in $kill_line).
timeout_native=${AXIAL_MUTANTS_TIMEOUT:-300}
timeout_qemu=${AXIAL_MUTANTS_TIMEOUT:-1200}
kill_line=
# run_one LOGBASE TIMEOUT CMD...: one driver, stopped at its first failing
# test; 0 when it passes, else 1 with the reason in kill_line.  (The driver
# runs in a subshell that reaps it, so that a crash is reported here, not by
# bash; driver_pid is what the EXIT trap stops.)
driver_pid=
stop_driver() {
  [ -n "$driver_pid" ] || return 0
  kill "$(cat "$driver_pid" 2>/dev/null)" 2>/dev/null || true
  rm -f "$driver_pid"
}
run_one() {
  local base=$1 limit=$2; shift 2
  local tap=$base.tap err=$base.err t0 sub rc=0 hung=0
  t0=$(date +%s)
  : > "$tap"
  rm -f "$base.pid"
  ( "$@" > "$tap" 2> "$err" & echo $! > "$base.pid"; wait $! ) 2>/dev/null &
  sub=$! driver_pid=$base.pid
  while kill -0 "$sub" 2>/dev/null; do
    if grep -qE '^(not ok|Bail out!)' "$tap"; then stop_driver; break; fi
    if [ $(( $(date +%s) - t0 )) -ge "$limit" ]; then hung=1; stop_driver; break; fi
    sleep 0.2
  done
  wait "$sub" || rc=$?
  driver_pid=
  rm -f "$base.pid"
  local first
  first=$(grep -m1 -E '^(not ok|Bail out!)' "$tap" || true)
  if [ -n "$first" ]; then
    kill_line=$(printf '%s' "$first" | sed -E 's/^not ok [0-9]+ - //; s/ # ([0-9]+ of [0-9]+ checks failed; )first: /: \1/; s|\.\./src/tests/|tests/|')
    return 1
  fi
  local last
  last=$(grep -E '^ok ' "$tap" | tail -n 1 | sed -E 's/^ok [0-9]+ - //; s/ .*//')
  if [ "$hung" = 1 ]; then
    kill_line="hung: no end after ${limit} s, last test passed ${last:-none} (${base##*/}.tap)"
    return 1
  fi
  if [ "$rc" -ne 0 ]; then
    local sig=
    [ "$rc" -gt 128 ] && sig=" (signal $((rc - 128)))"
    kill_line="crashed${sig} in the test after ${last:-the start} (${base##*/}.tap, .err: $(tail -n 1 "$err" | cut -c1-80))"
    return 1
  fi
  return 0
}
drive() { # token logname
  local tok=$1 name=$2 skip=stack
  local -a env=(env AXIAL_TEST_BIG=0 "AXIAL_TEST_SCALE=$scale")
  case $tok in
    scalar)
      run_one "$logs/$name-scalar" "$timeout_native" "${env[@]}" AXIAL_TEST_SKIP=stack,order_kernels \
        "$bld/tests/axial-tap" --isa=scalar ;;
    avx2|avx512)
      run_one "$logs/$name-$tok" "$timeout_native" "${env[@]}" AXIAL_TEST_SKIP=$skip \
        "AXIAL_TEST_REQUIRE_ISA=$tok" "$bld/tests/axial-tap" "--isa=$tok" ;;
    api)
      run_one "$logs/$name-api" "$timeout_native" "${env[@]}" "$bld/tests/axial-tap" --isa=api ;;
    refsplit)
      run_one "$logs/$name-refsplit-cumsum" "$timeout_native" "${env[@]}" \
        "$bld/tests/axial-tap-refsplit" --isa=scalar parallel_cumsum &&
      run_one "$logs/$name-refsplit-reduce" "$timeout_native" "${env[@]}" \
        "$bld/tests/axial-tap-refsplit" --isa=scalar parallel_reduce ;;
    neon)
      if [ "$host" = aarch64 ]; then
        run_one "$logs/$name-neon" "$timeout_native" "${env[@]}" AXIAL_TEST_SKIP=$skip \
          AXIAL_TEST_REQUIRE_ISA=neon "$bld/tests/axial-tap" --isa=neon
      else
        run_one "$logs/$name-neon" "$timeout_qemu" "${env[@]}" AXIAL_TEST_SKIP=stack,guard_pages \
          AXIAL_TEST_REQUIRE_ISA=neon qemu-aarch64 -L /usr/aarch64-linux-gnu "$xbld/tests/axial-tap" --isa=neon
      fi ;;
  esac
}
# the build directory that compiles a token's code
dir_of() { [ "$1" = neon ] && [ "$host" != aarch64 ] && echo "$xbld" || echo "$bld"; }

# syntax_check FILE: compiles a mutated file no build here compiles (the
# ISA's flags; the cross compiler for NEON); "" when no compiler can
syntax_check() {
  local f=$1 cc
  local -a inc=(-std=c11 -fsyntax-only -I"$src/include" -I"$src/kernels" -I"$src/src")
  case $f in
    kernels/avx512/*) cc=${CC:-cc}
      "$cc" "${inc[@]}" -mavx512f -mavx512vl -mavx512bw -mavx512dq -mfma -mf16c "$src/$f" ;;
    kernels/neon/*)
      if [ "$host" = aarch64 ]; then cc=${CC:-cc}
      elif command -v aarch64-linux-gnu-gcc >/dev/null; then cc=aarch64-linux-gnu-gcc
      else return 4; fi
      "$cc" "${inc[@]}" "$src/$f" ;;
    *) return 4 ;;
  esac
}

planted= # the file holding a mutant now (reverted on any exit)
revert() {
  [ -n "$planted" ] || return 0
  cp "$top/$planted" "$src/$planted" # (a new mtime: the next build recompiles it)
  planted=
}
trap 'stop_driver; revert' EXIT
trap 'exit 130' INT TERM

# ---- the unmutated tree: every driver of the run must pass ------------------------
tokens=()
for i in "${run[@]}"; do
  IFS=, read -ra toks <<< "${M_ISA[i]}"
  for t in "${toks[@]}"; do
    avail "$t"
    [ -z "$why_not" ] || continue
    [[ " ${tokens[*]} " == *" $t "* ]] || tokens+=("$t")
  done
done
t0=$(date +%s) times=()
if [ "$mode" = ci ]; then # (the suite's native stage runs these tests, every case, on the same sources)
  echo "-- unmutated tree: its tests are the native stage's (--ci)"
else
  for t in "${tokens[@]}"; do
    t1=$(date +%s)
    if ! drive "$t" baseline; then
      echo "mutants.sh: the unmutated tree fails its $t tests: $kill_line (build-mutants/logs/baseline-$t*)"
      exit 3
    fi
    times+=("$t $(( $(date +%s) - t1 )) s")
  done
  echo "-- unmutated tree: every driver passes ($(IFS=,; echo "${times[*]:-none}" | sed 's/,/, /g'); $(( $(date +%s) - t0 )) s)"
fi

# ---- the mutants ----------------------------------------------------------------------

R_RES=() R_SECS=() R_NOTE=()
survived=0 killed=0 skipped=0
for i in "${run[@]}"; do
  id=${M_ID[i]} file=${M_FILE[i]}
  t0=$(date +%s)
  IFS=, read -ra toks <<< "${M_ISA[i]}"
  runnable=() why=()
  for t in "${toks[@]}"; do
    avail "$t"
    if [ -z "$why_not" ]; then runnable+=("$t"); else why+=("$t: $why_not"); fi
  done
  revert
  edit "$src/$file" "${M_OLD[i]}" "${M_NEW[i]}" || list_error "$id: cannot plant it in $file"
  planted=$file
  if [ ${#runnable[@]} -eq 0 ]; then
    note=$(IFS=';'; echo "${why[*]}")
    if syntax_check "$file" > "$logs/$id.syntax" 2>&1; then note+="; the mutated file compiles (-fsyntax-only)"
    elif [ $? -eq 4 ]; then note+="; not compiled here"
    else cat "$logs/$id.syntax" >&2; list_error "$id: the mutated $file does not compile"; fi
    revert
    R_RES[i]=SKIPPED R_SECS[i]=$(( $(date +%s) - t0 )) R_NOTE[i]=$note
    skipped=$((skipped + 1))
    printf '%-30s SKIPPED   %4s s  %s\n' "$id" "${R_SECS[i]}" "$note"
    continue
  fi
  # build what the runnable tokens need
  dirs=()
  for t in "${runnable[@]}"; do
    d=$(dir_of "$t"); [[ " ${dirs[*]} " == *" $d "* ]] || dirs+=("$d")
  done
  tb=$(date +%s)
  for d in "${dirs[@]}"; do
    tg=(tests/axial-tap)
    [ "$d" = "$bld" ] && tg=("${targets[@]}")
    if ! build "$d" "${tg[@]}"; then
      grep -E 'error|Error' "$logs/build.log" | head -n 20 >&2
      list_error "$id: the mutated $file does not compile (build-mutants/logs/build.log)"
    fi
  done
  tb=$(( $(date +%s) - tb ))
  res=SURVIVED note="passed: ${runnable[*]}"
  for t in "${runnable[@]}"; do
    if ! drive "$t" "$id"; then res=KILLED note=$kill_line; break; fi
  done
  [ ${#why[@]} -gt 0 ] && note+=" [not run: $(IFS=';'; echo "${why[*]}")]"
  revert
  R_RES[i]=$res R_SECS[i]=$(( $(date +%s) - t0 )) R_NOTE[i]=$note
  if [ "$res" = KILLED ]; then killed=$((killed + 1)); else survived=$((survived + 1)); fi
  printf '%-30s %-8s  %4s s  (build %s s) %s\n' "$id" "$res" "${R_SECS[i]}" "$tb" "$note"
done

# ---- the table -------------------------------------------------------------------------------
{
  echo
  echo "== mutants ($mode run, AXIAL_TEST_SCALE=$scale, $(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
  printf '%-30s %-8s %5s  %s\n' ID RESULT SECS 'FILE: WHAT'
  printf '%-30s %-8s %5s  %s\n' '' '' '' '  -> the first failing test (KILLED), the drivers that passed (SURVIVED), why not run (SKIPPED)'
  for i in "${run[@]}"; do
    printf '%-30s %-8s %5s  %s: %s\n' "${M_ID[i]}" "${R_RES[i]}" "${R_SECS[i]}" "${M_FILE[i]}" "${M_WHAT[i]}"
    printf '%-30s %-8s %5s    -> %s\n' '' '' '' "${R_NOTE[i]}"
  done
  echo "== ${#run[@]} mutants: $killed killed, $survived survived, $skipped skipped; $(( $(date +%s) - t_start )) s in all"
} | tee "$work/report.txt"
[ "$survived" -eq 0 ] || { echo "mutants.sh: $survived mutant(s) survived: the suite does not catch them"; exit 1; }
exit 0
