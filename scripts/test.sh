#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole test suite from a fresh Debian 12 machine (what CI runs):
# prints the run's seed first (AXIAL_TEST_SEED, drawn unless set: every test
# program, the fuzzer and pytest take it, so the same value replays the run),
# installs what is missing (scripts/deps.sh test), requires every ISA this
# CPU and OS report (scripts/cpu-isas.sh: AXIAL_TEST_REQUIRE_ISA in every
# stage that runs natively, AVX-512 aside under valgrind, which hides it),
# then these stages, in order:
#   native    scripts/check-tree.sh (an SPDX line in every source file, no
#             reference outside the repository), then the
#             native build (warnings are errors) and `meson test`: the
#             criterion suite per ISA (the TAP driver, the same tests, runs
#             in the stages below), kernel-table test, AXIAL_ISA
#             tests, README example (big tests included: full-size accuracy,
#             > 2^31-element tensors);
#   qemu-x86  the TAP driver under qemu-x86_64 as CPUs without AVX-512
#             (Haswell: the AVX2 and API tests, AVX-512 skipped) and without
#             AVX (Nehalem: the scalar and API tests, AVX2 and AVX-512
#             skipped), the two at once: dispatch must not leak an ISA
#             (emulation is much slower: big tests report SKIP there,
#             AXIAL_TEST_BIG=0, random/shape tests run an eighth of their
#             cases under Haswell and a quarter under Nehalem, and the stack
#             and guard-page tests, and the scalar ISA's order_kernels, are
#             the native stage's);
#   aarch64   cross build, whole suite under qemu-aarch64 for the neon and
#             the scalar ISA (neon is required: a missing one fails; half the
#             random cases for neon; a quarter for scalar, whose guard_pages,
#             stack and order_kernels tests are the native stage's);
#   asan      the suite built with clang's ASan + UBSan (-fno-sanitize-recover),
#             in build-asan/, which the fuzz stage reuses (the bytes around
#             every test tensor poisoned; half the random cases; big tests and
#             guard_pages are the native stage's; the SIMD kernels at -O1,
#             kernels/meson.build; the AVX-512 kernels are built there only
#             where the CPU runs them, scripts/fuzz.sh);
#   tsan      the API tests (threads calling every op while one switches
#             the ISA; the pool, the adapters, several threads submitting to
#             one pool) and the parallel tests of every ISA (the _ex forms on
#             the pool and on executors of several threads) under ThreadSanitizer;
#   valgrind  the TAP driver under valgrind memcheck (a tenth of the random
#             cases);
#   fuzz      the differential fuzzer (libFuzzer, the asan stage's build) on
#             its seed corpus for AXIAL_FUZZ_SECONDS (default 90), then the
#             seed replay and the fuzzer's fault-injection self-tests;
#   mutants   scripts/mutants.sh --ci: a few representative one-line bugs
#             (planner, dispatch, a scalar and an AVX2 kernel, streams, an f64
#             sum taken through f32) planted one at a time in a copy of the
#             sources (build-mutants/), each of which the TAP driver must fail
#             (the whole list: bash scripts/mutants.sh);
#   consumers axial as its users take it: the native build installed
#             (`meson install --destdir`) into a prefix whose files must be
#             exactly the library, header, pkg-config and CMake files; the
#             README example built against it through pkg-config, and by
#             tests/consumers/cmake with axial::axial and axial::axial_static;
#             tests/consumers/meson with axial as a wrap subproject (a
#             tarball of this checkout), shared and static; each one run, and
#             the static ones checked to load no libaxial.so;
#   python    the Python package as its users take it: a virtual environment
#             (build-python/venv) with numpy, dask, distributed, ml_dtypes,
#             pytest and hypothesis from PyPI, `pip install .` (meson-python
#             from PyPI under build isolation; the wheel must hold the package
#             alone), then pytest on tests/python: numpy and a long double
#             oracle, hypothesis properties, bad input, thread counts,
#             streams, and axial.dask on a 2-process LocalCluster.
# One more stage runs only when named, as it takes a quarter of an hour of
# compiling:
#   avx512-emu the AVX-512 kernels compiled against SIMDe's emulation
#             (meson -Davx512_emulation=true, tests/emu/avx512.h) and the TAP
#             driver's AVX-512 tests on an AVX2 CPU, AVX-512 required: their
#             bits against the golden files, the other ISAs and the oracles,
#             on a machine without AVX-512 (speed means nothing there; the
#             stack test is left out: SIMDe's frames are not the kernels').
# The test builds are debugoptimized (the default buildtype is release).
# `bash scripts/test.sh STAGE...` runs only the stages named, in order.  The
# whole suite (no stage named) runs on two workers at once on a machine of 2
# or more CPUs (queue_order below): much of each stage is one process (a test
# driver, qemu, valgrind, the fuzzer) or a build waiting on its largest file,
# so two fill the CPUs.
set -euo pipefail
cd "$(dirname "$0")/.."
# One seed per run of the suite, printed first and passed to every driver (the
# C tests, the fuzzer, pytest): AXIAL_TEST_SEED=N bash scripts/test.sh replays a run.
export AXIAL_TEST_SEED=${AXIAL_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "== seed: AXIAL_TEST_SEED=$AXIAL_TEST_SEED (replay: AXIAL_TEST_SEED=$AXIAL_TEST_SEED bash scripts/test.sh $*)"
bash scripts/deps.sh test
# Every ISA this CPU and OS report (scripts/cpu-isas.sh) is required wherever
# the suite runs natively: its tests fail, rather than show a skip, if the
# build or axial's detection loses one.
cpu_isas=$(bash scripts/cpu-isas.sh)
echo "== ISAs of this CPU, required in the native runs: $cpu_isas"
jobs=$(nproc)
all_stages=(native qemu-x86 aarch64 asan tsan valgrind fuzz mutants consumers python)
stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=("${all_stages[@]}")
for s in "${stages[@]}"; do
  [[ " ${all_stages[*]} avx512-emu " == *" $s "* ]] ||
    { echo "test.sh: unknown stage $s (${all_stages[*]} avx512-emu)" >&2; exit 2; }
done

# meson setup runs `cmake --system-information` (the CMake module) in its
# working directory, where CMake makes a scratch project: two setups at once
# from this directory (the lanes below) broke each other's ("Unable to find
# cmake").  So every setup here and in scripts/fuzz.sh holds this lock.
export AXIAL_SETUP_LOCK=${AXIAL_SETUP_LOCK:-${TMPDIR:-/tmp}/axial-meson-setup.$(id -u).lock}
msetup() { # meson setup arguments...; its log's end on failure
  local out
  out=$(flock "$AXIAL_SETUP_LOCK" meson setup "$@" 2>&1) || { printf '%s\n' "$out" | tail -n 30; return 1; }
}
# The test builds keep line tables only (-g1, after the build type's -g):
# enough for the sanitizers', valgrind's and gdb's backtraces, and it does not
# change the code; full debug info nearly doubles the compile time of the
# largest kernel files, and compiling is most of this suite's time.
test_cflags=-g1
setup() { # dir, c_args (after test_cflags), extra meson args...
  local dir=$1 cargs="$test_cflags${2:+ $2}"; shift 2
  if [ -f "$dir/build.ninja" ]; then # (--reconfigure keeps the old c_args: configure sets them)
    msetup --reconfigure "$dir" -Dbuildtype=debugoptimized "$@"
    flock "$AXIAL_SETUP_LOCK" meson configure "$dir" "-Dc_args=$cargs" >/dev/null
  else msetup "$dir" -Dbuildtype=debugoptimized "-Dc_args=$cargs" "$@"; fi
}

# hold NAME: this stage holds the lock NAME until it ends (each stage runs in
# a subshell of its own): the workers below run stages side by side.
hold() { local fd; exec {fd}> "$AXIAL_SETUP_LOCK.$1"; flock "$fd"; }
# build/: the native, qemu-x86, valgrind and consumers stages share it, so
# they must set it up alike (any difference would reconfigure and rebuild it).
# The native stage holds its lock throughout (its build and its suite); the
# others while they set it up and build it (in a subshell: the lock goes
# with it).
build_native_unlocked() { # ninja targets...
  setup build "" -Dbenchmarks=false -Dwerror=true
  ninja -C build -j "$jobs" "$@"
}
build_native() { ( hold build; build_native_unlocked "$@" ); }

# The ISAs whose per-ISA tests ran and those skipped, from a meson test log
# (tests named "<driver> <isa>").
isas_run() { # build dir, driver (unit, tap)
  python3 - "$1/meson-logs/testlog.json" "$2" <<'PY'
import json, sys
ran, skipped = [], []
for line in open(sys.argv[1]):
    t = json.loads(line)
    # (meson names a test "project / name" where the build has subprojects)
    d, _, isa = t["name"].split(" / ")[-1].partition(" ")
    if d == sys.argv[2] and isa != "api":
        (skipped if t["result"] == "SKIP" else ran).append(isa)
print(f"-- ISAs run: {' '.join(ran) or 'none'}; skipped: {' '.join(skipped) or 'none'}")
PY
}

stage_native() {
  echo "== native build and suite"
  bash scripts/check-tree.sh   # SPDX lines; nothing points outside the repository
  hold build
  build_native_unlocked
  AXIAL_TEST_REQUIRE_ISA=$cpu_isas meson test -C build --print-errorlogs --num-processes 1
  isas_run build unit
}

# One emulated CPU: the TAP driver for each of the ISAs given and the API
# tests, one after the other, into build/qemu-CPU-ISA.tap.
qemu_cpu() { # cpu, require, scale, more tests to skip, isa...
  local cpu=$1 require=$2 scale=$3 skip=$4; shift 4
  local isa
  for isa in "$@" api; do
    # qemu's warnings about CPUID features TCG lacks go to the log, not the screen
    AXIAL_TEST_REQUIRE_ISA=$require AXIAL_TEST_BIG=0 AXIAL_TEST_SCALE=$scale AXIAL_TEST_SKIP=stack,guard_pages,selftest_stack,selftest_guard_pages$skip \
      qemu-x86_64 -cpu "$cpu" build/tests/axial-tap --isa="$isa" > "build/qemu-$cpu-$isa.tap" \
      2>> "build/qemu-$cpu.log" || return 1
  done
}

stage_qemu-x86() {
  echo "== x86-64 under qemu-user: without AVX-512 (Haswell) and without AVX (Nehalem), at once"
  build_native tests/axial-tap
  # The scalar kernels run under Nehalem only and the AVX2 ones under Haswell
  # only: the same code under both CPUs would double the stage.  Every test
  # runs, on part of the random cases: the native stage runs them all on the
  # same build, and what this stage adds is that nothing executes an
  # instruction the emulated CPU lacks, which any case of a path shows.
  # Haswell takes an eighth (AXIAL_TEST_SCALE=0.125: the AVX2 kernels and
  # their SLEEF calls are the slowest code under TCG, and this lane was the
  # stage's length), Nehalem a quarter (its lane is the shorter).  On the
  # scalar ISA order_kernels checks the suite's own reference of the order
  # (tests/order_ref.c) against exact sums, no library code: in long double,
  # which qemu emulates in software, it took a third of Nehalem's scalar run;
  # the native stage runs it.  Two tests are
  # left out (AXIAL_TEST_SKIP, reported as skipped): stack measures the stack
  # of the very code the native stage measures; guard_pages sets tensors
  # against PROT_NONE pages, where the native stage catches any byte read or
  # written outside them on this very build, and its kernels and tails are
  # the ones the other tests run here (it is also the longest test under
  # emulation).  Haswell runs AVX2 for sure: its tests must run there, not
  # show as skipped.
  rm -f build/qemu-*.tap build/qemu-*.log
  qemu_cpu Haswell avx2 0.125 "" avx2 avx512 & local haswell=$!
  qemu_cpu Nehalem "" 0.25 ,order_kernels scalar avx2 avx512 & local nehalem=$!
  local cpu pid failed=0
  for cpu in Haswell Nehalem; do
    pid=$haswell; [ "$cpu" = Nehalem ] && pid=$nehalem
    if ! wait "$pid"; then
      grep -v '^qemu-x86_64: warning' "build/qemu-$cpu.log" | tail -n 20
      grep -hE '^(not ok|Bail out)' build/qemu-"$cpu"-*.tap; echo "FAILED under -cpu $cpu"; failed=1
    fi
    echo "-- qemu-x86_64 -cpu $cpu"
    cat build/qemu-"$cpu"-*.tap | grep -E ' # SKIP ' |
      sed 's/.* # SKIP /  skipped: /' | sort | uniq -c || true
    tail -qn 1 build/qemu-"$cpu"-*.tap | grep '^# ' || true
  done
  [ "$failed" -eq 0 ] || exit 1
}

stage_aarch64() {
  echo "== aarch64 cross build, whole suite under qemu-aarch64 (neon and scalar)"
  setup build-aarch64 "" --cross-file cross/aarch64-linux-gnu.txt -Dbenchmarks=false -Dwerror=true
  ninja -C build-aarch64 -j "$jobs"
  # (-t 2: the per-test timeout guards against hangs; with the other lane
  # running, the emulated tests take longer)
  # (the self-tests of the stack and guard-page checks fork a child that
  # qemu-user does not run as the kernel would; the native stage runs them)
  # NEON, which only this stage runs, takes half the random cases.  The
  # scalar ISA, the portable C that the native stage runs on every case,
  # takes a quarter, as under qemu-x86's Nehalem: what aarch64 adds for it
  # (its compiler, its libm) every case meets alike; its guard_pages and
  # stack tests (a fifth of its time: plain C, no intrinsics that could read
  # past a tensor) are the native stage's, and so is its order_kernels (the
  # suite's own reference checked in long double, which is software on
  # aarch64: a quarter of the run; see stage_qemu-x86).
  aarch64_tap 0.25 ,guard_pages,stack,order_kernels --suite tap-scalar
  aarch64_tap 0.5 "" --no-suite tap-scalar
}
aarch64_tap() { # scale, more tests to skip, the meson tests...
  local scale=$1 skip=$2; shift 2
  AXIAL_TEST_REQUIRE_ISA=neon AXIAL_TEST_BIG=0 AXIAL_TEST_SCALE=$scale \
  AXIAL_TEST_SKIP=selftest_stack,selftest_guard_pages$skip \
    meson test -C build-aarch64 --print-errorlogs --num-processes 1 -t 2 "$@"
  isas_run build-aarch64 tap # (each run's log)
}

stage_asan() {
  echo "== ASan + UBSan build (clang, shared with the fuzzer) and suite"
  # One clang ASan + UBSan build, build-asan/, serves this stage and the fuzz
  # stage (scripts/fuzz.sh configures it); here it builds everything.
  hold asan
  AXIAL_FUZZ_SETUP_ONLY=1 bash scripts/fuzz.sh
  ninja -C build-asan -j "$jobs"
  # allocator_may_return_null: the NOMEM test asks for more than RAM + swap.
  # The fuzz suite (seed replay, fault-injection self-tests) runs in the fuzz stage.
  # The full-size accuracy targets and the > 2^31-element tensors
  # (AXIAL_TEST_BIG) run in the native stage only: under ASan they are long,
  # for kernels and planning the other tests cover.  So does guard_pages: here
  # the bytes around every test's tensors are poisoned (tests/harness.c), so
  # ASan reports any read or write of them in every test, not only in its
  # sweep of tails (a fifth of this stage's tests' time).  Every test runs,
  # on half the random cases (AXIAL_TEST_SCALE=0.5; the parallel tests then
  # take a quarter of theirs, and they were half the stage's tests' time):
  # the native stage runs them all on the same sources, and what this stage
  # adds, an access outside a tensor or the heap's blocks, any case of a
  # path shows, and the poisoned bytes catch it at the first byte.
  AXIAL_TEST_REQUIRE_ISA=$cpu_isas AXIAL_TEST_BIG=0 AXIAL_TEST_SCALE=0.5 AXIAL_TEST_SKIP=guard_pages ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    meson test -C build-asan --no-suite fuzz --print-errorlogs --num-processes 1 -t 4
  isas_run build-asan unit
}

stage_tsan() {
  echo "== ThreadSanitizer: the API tests (threads calling every op while one switches the ISA)"
  # (the AVX-512 kernels only where the CPU runs them, as in build-asan)
  setup build-tsan "" -Dbenchmarks=false -Db_sanitize=thread -Db_lundef=false \
    "-Davx512=$(bash scripts/avx512-option.sh)"
  ninja -C build-tsan -j "$jobs" tests/axial-tap
  export AXIAL_TEST_REQUIRE_ISA=$cpu_isas
  TSAN_OPTIONS=halt_on_error=1:allocator_may_return_null=1 build-tsan/tests/axial-tap --isa=api |
    grep -E '^(not ok|Bail out|# [0-9]+ tests)'
  # the split ops on the pool and the test executors, every ISA, a quarter of the cases
  TSAN_OPTIONS=halt_on_error=1 AXIAL_TEST_BIG=0 AXIAL_TEST_SCALE=0.5 \
    build-tsan/tests/axial-tap parallel_ | grep -E '^(not ok|Bail out|# [0-9]+ tests)'
  # stream pushes on the pool (and the test executors), every ISA
  TSAN_OPTIONS=halt_on_error=1 AXIAL_TEST_BIG=0 AXIAL_TEST_SCALE=0.5 \
    build-tsan/tests/axial-tap stream_cuts | grep -E '^(not ok|Bail out|# [0-9]+ tests)'
}

stage_valgrind() {
  echo "== valgrind memcheck of the TAP driver"
  # valgrind 3.19 hides AVX-512 from CPUID, so it runs scalar and AVX2 (the
  # AVX-512 tests show as skipped here; the asan stage runs them where the
  # CPU has AVX-512).  The long-double tolerance tests are left out (~100x
  # slower under valgrind), and so is the self-test of their bounds (a third
  # of the stage's time; it tests the suite's check, not axial's code, and
  # runs in every other stage); big tests too.  So is the stack test: it fills
  # and reads the stack below the stack pointer (its measurement), which
  # memcheck reports; and valgrind is no CPU to bound.  So is guard_pages:
  # its tensors are mmap'd (all defined to memcheck) against inaccessible
  # pages, which fault natively at the first byte outside them, so memcheck
  # finds nothing there that the other tests' tails would not show.  A tenth
  # of the random cases (AXIAL_TEST_SCALE=0.1): what memcheck adds to the
  # asan stage is a read of a byte never written, which any case of a path
  # shows; the native stage runs every case.
  build_native tests/axial-tap
  # (every ISA of the CPU but AVX-512, which valgrind hides, is required)
  AXIAL_TEST_REQUIRE_ISA=${cpu_isas/,avx512/} \
  AXIAL_TEST_BIG=0 AXIAL_TEST_SCALE=0.1 AXIAL_TEST_SKIP=cumsum_tolerance,reduce_tolerance,selftest_bound,stack,guard_pages,selftest_stack,selftest_guard_pages \
    valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    build/tests/axial-tap > build/valgrind.tap 2> build/valgrind.log \
    || { grep -v '^#' build/valgrind.log | tail -n 40; grep -E '^not ok' build/valgrind.tap
         echo "FAILED under valgrind"; exit 1; }
  tail -n 1 build/valgrind.tap
}

stage_fuzz() {
  echo "== differential fuzzer, ${AXIAL_FUZZ_SECONDS:-90} s"
  hold asan # (build-asan/: the asan stage's)
  export AXIAL_TEST_REQUIRE_ISA=$cpu_isas # (the fuzzer names the ISAs it checks)
  bash scripts/fuzz.sh "${AXIAL_FUZZ_SECONDS:-90}"
  # the seed replay and the self-tests that inject faults (the checks can fail)
  meson test -C build-asan --suite fuzz --no-rebuild --print-errorlogs --num-processes 1
}

stage_mutants() {
  echo "== mutants: one-line bugs planted in a copy of the sources, each must fail the suite's fast drivers"
  # (the few marked ci; bash scripts/mutants.sh runs them all, NEON under qemu too)
  bash scripts/mutants.sh --ci
}

stage_consumers() {
  echo "== consumers: install, pkg-config, CMake package, meson wrap subproject (shared and static)"
  # The library installed is the native stage's build (no rebuild after it).
  build_native >/dev/null
  local top=$PWD dir=build-consumers
  rm -rf "$dir"; mkdir -p "$dir"
  meson install -C build --destdir "$top/$dir/dest" --quiet >/dev/null
  local info prefix libdir version
  info=$(meson introspect build --buildoptions --projectinfo | python3 -c 'import json, sys
j = json.load(sys.stdin); o = {x["name"]: x["value"] for x in j["buildoptions"]}
print(o["prefix"], o["libdir"], j["projectinfo"]["version"])')
  read -r prefix libdir version <<< "$info"
  local root=$top/$dir/dest$prefix
  # what an install carries: the library, its header, pkg-config and CMake files, nothing else
  (cd "$root" && find . ! -type d | sed 's|^\./||' | sort) > "$dir/installed.txt"
  printf '%s\n' include/axial.h "$libdir"/cmake/axial/axialConfig.cmake \
    "$libdir"/cmake/axial/axialConfigVersion.cmake "$libdir"/libaxial.a "$libdir"/libaxial.so \
    "$libdir"/libaxial.so.0 "$libdir/libaxial.so.0.${version#*.}" "$libdir"/pkgconfig/axial.pc |
    sort > "$dir/expected.txt"
  diff -u "$dir/expected.txt" "$dir/installed.txt" || { echo "FAILED: installed files differ"; exit 1; }
  echo "-- installed: $(tr '\n' ' ' < "$dir/installed.txt")"

  echo "-- pkg-config: the README example against the shared library (rpath) and the static one"
  local pc=(pkg-config --define-variable=prefix="$root")
  export PKG_CONFIG_PATH=$root/$libdir/pkgconfig
  cc -std=c11 tests/example.c -o "$dir/pc-shared" $("${pc[@]}" --cflags --libs axial) -Wl,-rpath,"$root/$libdir"
  cc -std=c11 tests/example.c -o "$dir/pc-static" $("${pc[@]}" --cflags axial) \
    $("${pc[@]}" --static --libs axial | sed 's/-laxial\b/-l:libaxial.a/')
  unset PKG_CONFIG_PATH
  "$dir/pc-shared" >/dev/null; "$dir/pc-static" >/dev/null

  echo "-- CMake: find_package(axial CONFIG), axial::axial and axial::axial_static"
  cmake -S tests/consumers/cmake -B "$dir/cmake" -DCMAKE_PREFIX_PATH="$root" >/dev/null
  cmake --build "$dir/cmake" -j "$jobs" >/dev/null
  (cd "$dir/cmake" && ctest --output-on-failure | grep -E 'tests passed|Failed')

  echo "-- meson: tests/consumers/meson with axial through a wrap, shared and static"
  local tarball=$top/$dir/axial-$version.tar.gz
  # this checkout's files (tracked and new, not ignored), as a release tarball
  git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - --transform "s|^|axial-$version/|" -czf "$tarball"
  cp -rL tests/consumers/meson "$dir/meson-src"
  mkdir -p "$dir/meson-src/subprojects"
  cat > "$dir/meson-src/subprojects/axial.wrap" <<WRAP
[wrap-file]
directory = axial-$version
source_url = file://$tarball
source_filename = axial-$version.tar.gz
source_hash = $(sha256sum "$tarball" | cut -d' ' -f1)

[provide]
dependency_names = axial
WRAP
  msetup "$dir/meson" "$dir/meson-src" --force-fallback-for=axial
  ninja -C "$dir/meson" -j "$jobs" >/dev/null
  # only the consumer's two tests: axial's own are off in a subproject
  local listed; listed=$(meson test -C "$dir/meson" --no-rebuild --list | sort | tr '\n' ',')
  [ "$listed" = "example shared,example static," ] || { echo "FAILED: the consumer's meson test lists $listed"; exit 1; }
  meson test -C "$dir/meson" --no-rebuild --print-errorlogs | grep -E '^ *[0-9]+/[0-9]+ '
  # the parent is unoptimized (buildtype debug, meson's default): axial's
  # SIMD kernels must still be compiled with -O2 (kernels/meson.build), the
  # rest of axial with the parent's -O0
  python3 - "$dir/meson/compile_commands.json" <<'PY'
import json, sys
bad, simd = [], 0
for e in json.load(open(sys.argv[1])):
    f, args = e["file"], e["command"].split()
    if "/axial-" not in f:
        continue
    want = "-O2" if any("/kernels/" + i + "/" in f for i in ("avx2", "avx512", "neon")) else "-O0"
    simd += want == "-O2"
    opt = [a for a in args if a.startswith("-O")]
    if opt[-1:] != [want]:
        bad.append(f"{f}: {opt}, want {want}")
if bad or simd == 0:
    sys.exit("FAILED: optimization of axial's files in a debug parent:\n" + "\n".join(bad or ["no SIMD kernel file"]))
print(f"-- debug parent: {simd} SIMD kernel files at -O2, the rest of axial at -O0")
PY

  # the static builds must not load libaxial.so, the shared ones must
  local exe needed
  for exe in "$dir/pc-static" "$dir/cmake/example_static" "$dir/meson/example-static"; do
    needed=$(readelf -d "$exe" | grep NEEDED)
    [[ $needed != *libaxial* ]] || { echo "FAILED: $exe needs libaxial.so"; exit 1; }
  done
  for exe in "$dir/pc-shared" "$dir/cmake/example_shared" "$dir/meson/example-shared"; do
    needed=$(readelf -d "$exe" | grep NEEDED)
    [[ $needed == *libaxial.so.0* ]] || { echo "FAILED: $exe does not load libaxial.so.0"; exit 1; }
  done
  echo "-- static builds load no libaxial.so, shared builds load libaxial.so.0"
}

stage_python() {
  echo "== Python package: pip install . into build-python/venv, pytest tests/python"
  bash scripts/python-venv.sh
  # (numpy's generators and hypothesis take the suite's seed: AXIAL_TEST_SEED)
  ( cd build-python && AXIAL_TEST_REQUIRE_ISA=$cpu_isas venv/bin/python -m pytest -q -p no:cacheprovider -p no:logging \
      --hypothesis-seed="$AXIAL_TEST_SEED" ../tests/python )
}

stage_avx512-emu() {
  echo "== AVX-512 kernels emulated on AVX2 (SIMDe): their bits where no AVX-512 CPU is at hand"
  setup build-emu "" -Dbenchmarks=false -Davx512_emulation=true
  ninja -C build-emu -j "$jobs" tests/axial-tap
  AXIAL_TEST_REQUIRE_ISA=avx512 AXIAL_TEST_BIG=0 AXIAL_TEST_SKIP=stack \
    build-emu/tests/axial-tap --isa=avx512 > build-emu/avx512.tap 2> build-emu/avx512.log ||
    { tail -n 20 build-emu/avx512.log; grep -E '^(not ok|Bail out)' build-emu/avx512.tap
      echo "FAILED: emulated AVX-512"; exit 1; }
  grep -E ' # SKIP ' build-emu/avx512.tap | sed 's/.* # SKIP /  skipped: /' | sort | uniq -c || true
  tail -n 1 build-emu/avx512.tap
}

run_stages() { # stage...
  local s t0
  for s in "$@"; do
    t0=$(date +%s)
    ( set -e; "stage_$s" )
    echo "-- stage $s passed in $(( $(date +%s) - t0 )) s"
  done
}

# The whole suite on 2 or more CPUs: two workers take the stages from one
# queue, each the next when it is done with one (the order below: the long
# and the depended-on first), each output line prefixed with its worker.
# The shared build directories are locked: build/ for the native stage
# (build and suite), then for each other stage's setup and build of it;
# build-asan/ for the whole asan and fuzz stages.  After a failure the
# workers take no new stage.
queue_order=(native asan aarch64 python tsan valgrind qemu-x86 fuzz mutants consumers)
worker() { # queue file
  local q=$1 s t0 rc
  while :; do
    s=$(flock "$q.lock" bash -c '[ -e "$1.failed" ] || { head -n 1 "$1"; sed -i 1d "$1"; }' _ "$q")
    [ -n "$s" ] || return 0
    t0=$(date +%s)
    set +e; ( set -e; "stage_$s" ); rc=$?; set -e
    if [ "$rc" -ne 0 ]; then
      touch "$q.failed"; echo "-- stage $s FAILED (exit status $rc)"; return 1
    fi
    echo "-- stage $s passed in $(( $(date +%s) - t0 )) s"
  done
}

t_all=$(date +%s)
if [ $# -eq 0 ] && [ "$jobs" -ge 2 ]; then
  echo "== two workers, one queue: ${queue_order[*]}"
  queue=$(mktemp "${TMPDIR:-/tmp}/axial-stages.XXXXXX")
  printf '%s\n' "${queue_order[@]}" > "$queue"
  ( set -o pipefail; worker "$queue" 2>&1 | sed -u 's/^/[a] /' ) &
  wa=$!
  ( set -o pipefail; worker "$queue" 2>&1 | sed -u 's/^/[b] /' ) &
  wb=$!
  rc_a=0 rc_b=0
  wait "$wa" || rc_a=$?
  wait "$wb" || rc_b=$?
  left=$(tr '\n' ' ' < "$queue")
  rm -f "$queue" "$queue.lock" "$queue.failed"
  if [ "$rc_a" -ne 0 ] || [ "$rc_b" -ne 0 ]; then
    echo "== FAILED (worker exit status $rc_a and $rc_b)${left:+; not run: $left}"
    exit 1
  fi
else
  run_stages "${stages[@]}"
fi
echo "== all tests passed (${stages[*]}) in $(( $(date +%s) - t_all )) s"
