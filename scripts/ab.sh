#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Timed A/B of two builds of axial over the benchmark matrix.
#   bash scripts/ab.sh OLD_BENCH NEW_BENCH [ROUNDS] [Google Benchmark args, e.g. --benchmark_filter=cumsum]
# OLD_BENCH and NEW_BENCH are two axial-bench binaries, release builds of the
# two trees (in each: meson setup build-rel --buildtype=release -Dtests=false
# && ninja -C build-rel bench/axial-bench).  ROUNDS: default 5.
#
# Method.  The benchmarks to run are the names either binary lists (with the
# caller's --benchmark_filter), axial's own only: those whose impl is scalar,
# avx2, avx512, neon or default (docs/BENCHMARKS.md names them
# {op}/{type}/{impl}/{shape}/{params}[/threads:T]; the streams/ and shards/
# rows name their ISA too); AB_ALL=1 runs and reports the peers' and probes'
# rows as well (the same code on both sides: their ratios show the drift).
# They are cut into chunks of $AB_CHUNK (40) names, and each round runs every
# chunk on both binaries one after the other, the order alternating (old
# new, new old, ...), so that old and new of a benchmark run seconds apart
# and a drift of the shared machine weighs on both alike; each run is one
# repetition with --benchmark_min_time=$AB_MIN_TIME (0.05 s), its Google
# Benchmark JSON kept.  Per benchmark on both sides: the median over the
# rounds of each side's time, and new/old.  The time is Google Benchmark's
# cpu_time, except real_time (wall) for the threads:T rows with T >= 2, whose
# cpu_time leaves out the pool's workers (AB_TIME=real_time or cpu_time for
# one of them everywhere): on this shared VM a base-against-itself trial gave
# geometric means of new/old of 0.86-1.13 with real_time medians but
# 0.99-1.01 with cpu_time medians (preemption by other processes adds wall
# time, not CPU time; a memory-bound loop's stalls count in both).  The
# table lists them sorted, slowest first, with each side's spread
# ((max - min) / median over the rounds: the noise); rows above
# $AB_FLAG (1.05) are flagged, rerun alone for $AB_RECHECK (15) rounds, and
# their final ratios reported: a flag that does not hold there was noise.
# Rows skipped with an error on the new side only are listed (a failed check).
# Output: the markdown tables on stdout, progress on stderr.
# Environment: AB_OUT, the folder for the raw JSON and logs, new or empty
# (default build-ab/YYYYmmdd-HHMMSS under the current folder, which
# .gitignore leaves out in a checkout); AXIAL_BENCH_BYTES (default 32 MiB,
# as scripts/bench.sh's quick run) and the other AXIAL_BENCH_* variables pass
# to both binaries.  Both must be built from trees whose benchmark names agree.
# Limits: a shared VM drifts by more than 5 % within minutes; the medians and
# the recheck damp it but do not remove it: read the spread columns, and the
# peers' ratios with AB_ALL=1 (their code is the same on both sides).  The
# threads:2 rows on a 2-vCPU machine measure the neighbours as much as axial.
# Cost: about 0.18 s of CPU per benchmark and binary (setup and check
# included; measured on 116 logcumsumexp and 260 reduce_sum rows, 32 MiB).
# The matrix lists 911 benchmarks (axial-bench --benchmark_list_tests | wc
# -l; 2 CPUs, AVX-512), 468 of them axial's: one round of both binaries is
# ~3 min on a quiet 2-vCPU machine (~6 min with AB_ALL=1), and 3-5 times
# that while other builds share it (load 10-14: 0.5-0.9 s per benchmark).
# So ROUNDS=5 on a quiet machine: ~15 min plus the recheck.
set -euo pipefail
{ # (the whole script is read before it runs: a checkout during a long run cannot change it)
[ $# -ge 2 ] || { sed -n '3,7p' "$0"; exit 2; }
old=$(realpath "$1") new=$(realpath "$2"); shift 2
rounds=5
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then rounds=$1; shift; fi
for b in "$old" "$new"; do [ -x "$b" ] || { echo "ab.sh: $b is not an executable" >&2; exit 2; }; done
out=${AB_OUT:-build-ab/$(date +%Y%m%d-%H%M%S)}
if [ -d "$out" ] && [ -n "$(ls -A "$out")" ]; then # (its JSON would join this run's tables)
  echo "ab.sh: $out holds an earlier run; name an empty or new folder in AB_OUT" >&2; exit 2
fi
mkdir -p "$out"
export AXIAL_BENCH_BYTES=${AXIAL_BENCH_BYTES:-$((32 << 20))}
cpus=$(getconf _NPROCESSORS_ONLN)
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
min_time=${AB_MIN_TIME:-0.05}

args=()   # the caller's arguments less --benchmark_filter (the chunks' filters replace it)
for a in "$@"; do [[ $a == --benchmark_filter=* ]] || args+=("$a"); done

# run TAG ROUNDS NAMES: the rounds over the benchmarks named (one a line), in
# chunks of $AB_CHUNK, each chunk ABBA, into $out/TAG-{old,new}-rR-cC.json
run() {
  local tag=$1 n=$2 r c side filters=(); shift 2
  mapfile -t filters < <(printf '%s\n' "$1" | sed 's/[].[*+?$(){}|]/[&]/g' |
    awk -v k="${AB_CHUNK:-40}" '{f = f (NR % k == 1 || k == 1 ? "" : "|") $0}
      NR % k == 0 {print "^(" f ")$"; f = ""} END {if (f != "") print "^(" f ")$"}')
  for ((r = 1; r <= n; r++)); do
    local t0=$SECONDS
    for c in "${!filters[@]}"; do
      local order="old new"
      [ $(((r + c) % 2)) -eq 0 ] && order="new old"
      for side in $order; do
        local bin=$old f=$out/$tag-$side-r$r-c$c; [ "$side" = new ] && bin=$new
        "$bin" --benchmark_repetitions=1 --benchmark_min_time="$min_time" ${args[@]+"${args[@]}"} \
          --benchmark_filter="${filters[c]}" --benchmark_out="$f.json" --benchmark_out_format=json \
          > "$f.txt" 2> "$f.err" || { tail -n 20 "$f.err" >&2; exit 1; }
      done
    done
    echo "  $tag round $r/$n: $((SECONDS - t0)) s" >&2
  done
}

# table TAG: the markdown table of $out/TAG-*.json; flagged names to $out/TAG-flagged.txt
table() {
  AB_TIME=${AB_TIME:-auto} AB_FLAG=${AB_FLAG:-1.05} AB_ALL=${AB_ALL:-0} \
    /usr/bin/python3 - "$out" "$1" <<'EOF'
import glob, json, math, os, re, statistics, sys
out, tag = sys.argv[1:3]
mode, flag = os.environ['AB_TIME'], float(os.environ['AB_FLAG'])
def key(name):    # auto: CPU time, but wall time where a pool's workers share the work
    if mode != 'auto':
        return mode
    return 'real_time' if re.search(r'/threads:([2-9]|\d\d)', name) else 'cpu_time'
axial = re.compile(r'(^|/)(scalar|avx2|avx512|neon|default)(/|$)')
t, err = {'old': {}, 'new': {}}, {'old': {}, 'new': {}}
for side in t:
    for f in sorted(glob.glob('%s/%s-%s-r*.json' % (out, tag, side))):
        if os.path.getsize(f) == 0:     # a chunk of names only the other side lists
            continue
        for b in json.load(open(f))['benchmarks']:
            if os.environ['AB_ALL'] != '1' and not axial.search(b['name']):
                continue
            if b.get('error_occurred'):     # skipped: an ISA the CPU lacks, a failed check...
                err[side][b['name']] = b.get('error_message', '')
                continue
            if b.get('run_type', 'iteration') != 'iteration':
                continue
            unit = {'ns': 1, 'us': 1e3, 'ms': 1e6, 's': 1e9}[b.get('time_unit', 'ns')]
            t[side].setdefault(b['name'], []).append(b[key(b['name'])] * unit)
rows = []
for name in t['old'].keys() & t['new'].keys():
    o, n = t['old'][name], t['new'][name]
    mo, mn = statistics.median(o), statistics.median(n)
    rows.append((mn / mo, name, mo, mn, (max(o) - min(o)) / mo, (max(n) - min(n)) / mn, len(o), len(n)))
rows.sort(reverse=True)
only = len(t['old'].keys() ^ t['new'].keys())
print('| benchmark | old ns | new ns | new/old | old spread | new spread | rounds | |')
print('|---|---:|---:|---:|---:|---:|---:|---|')
for r, name, mo, mn, so, sn, k, l in rows:
    print('| %s | %.0f | %.0f | %.3f | %.0f%% | %.0f%% | %d/%d | %s |'
          % (name, mo, mn, r, 100 * so, 100 * sn, k, l, 'SLOWER' if r > flag else ''))
g = math.exp(sum(math.log(r[0]) for r in rows) / len(rows)) if rows else float('nan')
bad = [r[1] for r in rows if r[0] > flag]
print('\n%d benchmarks (medians of %s); geometric mean of new/old %.3f; above %.2f: %d; '
      'in one side only: %d' % (len(rows), 'CPU time, wall time at threads:2+' if mode == 'auto'
                                else mode, g, flag, len(bad), only))
for name in sorted(err['new'].keys() - err['old'].keys()):
    print('- ERROR in new only: %s: %s' % (name, err['new'][name]))
if err['old'].keys() & err['new'].keys():
    print('- skipped on both sides: %d rows, e.g. %s: %s' % (len(err['old'].keys() & err['new'].keys()),
          *min((n, err['new'][n]) for n in err['old'].keys() & err['new'].keys())))
open('%s/%s-flagged.txt' % (out, tag), 'w').write(''.join(b + '\n' for b in bad))
EOF
}

echo "# A/B: new/old time, medians of $rounds rounds"
echo
echo "- CPU: $(awk -F': *' '/^model name/ && !n {n = $2} /^cpu family/ && !f {f = $2}
  /^model[[:space:]]*:/ && !m {m = $2} END {printf "%s (family %s model %s)", n, f, m}' /proc/cpuinfo),
  $cpus CPUs; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "- old: $old"
echo "- new: $new"
echo "- args: --benchmark_min_time=$min_time $*; AXIAL_BENCH_BYTES=$AXIAL_BENCH_BYTES; raw JSON: $out/"
echo
names=$(for b in "$old" "$new"; do "$b" --benchmark_list_tests "$@" 2>/dev/null; done | awk '!seen[$0]++' |
  if [ "${AB_ALL:-0}" = 1 ]; then cat; else grep -E '(^|/)(scalar|avx2|avx512|neon|default)(/|$)' || true; fi)
[ -n "$names" ] || { echo "ab.sh: no benchmark to run" >&2; exit 2; }
echo "- $(echo "$names" | wc -l) benchmarks, in chunks of ${AB_CHUNK:-40}"
start=$SECONDS
run main "$rounds" "$names"
echo "- $rounds rounds of both binaries: $((SECONDS - start)) s"
echo
table main
flagged=$(cat "$out/main-flagged.txt")
if [ -n "$flagged" ]; then
  echo
  echo "## Recheck: the $(echo "$flagged" | wc -l) flagged rows alone, ${AB_RECHECK:-15} rounds"
  echo
  run recheck "${AB_RECHECK:-15}" "$flagged"
  table recheck
fi
exit
}
