# SPDX-License-Identifier: MIT
"""llvm-mca per case: the loops a call really runs, before against after.

Usage:
  python3 scripts/mca_case.py --before OLD.so --after NEW.so [--isa neon] CASE...
  CASE  op:dtype:shape:axes[:extra], e.g. cumsum:f32:1024x64:1,
        cumsum:f32:16384x4:1:3 (extra: the flags; 1 exclusive, 2 reverse),
        reduce_sum:f32:65536:all, reduce_sum:f32:64x16x64:0,2,
        logcumsumexp:f64:32x1024:1, roll:f32:64x16x64:0,1,2:5,-7,9
        (extra: the shifts; default 3 on each axis).
  --isa neon (aarch64 libraries, run under qemu-aarch64; CPU models
        neoverse-n1,neoverse-v1), avx2 (x86-64 libraries under qemu-x86_64
        -cpu max; znver3,alderlake) or avx512 (x86-64 libraries run natively,
        single-stepped, on a host with AVX-512: qemu-user has none; znver4,
        sapphirerapids,icelake-server); --cpus a,b to choose others;
        --loops N: the loops listed per side (default 3); --reps R calls (2);
        --asm: each listed loop's body.
  env: MCA (default llvm-mca-19), QEMU_LD_PREFIX (default /usr/aarch64-linux-gnu);
        MCA_FUNCS=F: to stderr, the instructions a call runs per function, and
        each instruction of function F with its count a call.

Method.  A small driver (compiled here for the library's machine) loads the
library, selects the ISA and calls the op R times on the case; it runs under
qemu-user with -d in_asm,exec,nochain, which names every translation block
(TB) when it is built and logs each TB when it runs (avx512: natively, under
a small ptrace stepper that single-steps the calls and counts every
instruction address).  From those, every
instruction of the library gets its count of executions, so the case is
measured as it runs: whichever path the planner chose, with no guess at
which loop of the old code matches which of the new.  Loops are the back
edges of the library's disassembly (objdump): a branch to a lower address
T from B makes the loop [T, B]; its iterations are the executions of B (calls and
jumps to other functions are not loops; loops of under 8 iterations a call
or 1% of the work are not listed), and
its body for llvm-mca is the instructions of [T, B] that ran in at least
half of its iterations, in address order (the hot path once round), a run
of them that ran r > 1 times an iteration (an inner loop of a few turns,
not listed alone) repeated r times.  A loop
that holds a loop doing half its work is left out (the inner one is
listed), and so is one that shares instructions with a hotter listed one.
Per loop: llvm-mca's cycles per iteration on each CPU model, and its
modelled cycles per element of the case (cycles/iteration x iterations /
elements / R).  Per case: the instructions executed in the library per
element (exact: the emulator counts them), and the modelled cycles per
element of the listed loops together, with the share of the executed
instructions those loops cover.  The instructions run in libsleef (exp and
log: calls, which llvm-mca does not follow) are counted apart, and the
library's one-time set-up (axial_init: CPU features, tables) not at all.  after/before below 1: the after library is
faster in the model.

What it cannot tell: what llvm-mca cannot (scripts/mca.py says what; cache
misses, line splits, branch misprediction, aliasing), nor the time of the
code outside the listed loops (the coverage column says how much of the
work that is).  The instruction counts are exact for the emulated path;
qemu-user reports the host's features for the guest (-cpu max), so the
runtime dispatch may see more than a real core: the ISA is forced.
"""
import argparse, collections, concurrent.futures, os, re, subprocess, sys, tempfile

DRIVER = r'''
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef int (*scan_t)(int, const void *, void *, size_t, const int64_t *, int64_t, unsigned);
typedef int (*red_t)(int, const void *, void *, size_t, const int64_t *, const int64_t *, size_t,
                     unsigned);
typedef int (*roll_t)(int, const void *, void *, size_t, const int64_t *, const int64_t *, size_t,
                      const int64_t *, size_t);
static const size_t es[] = {0, 4, 8, 2, 2, 1, 1, 2, 2, 4, 4, 8, 8, 1};
int main(int argc, char **argv) {
    /* lib op dtype isa reps axes ("all" or "0,2") extra (flags, or shifts "5,-7,9") dims... */
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    void *f = dlsym(h, argv[2]);
    int (*sel)(int) = (int (*)(int))dlsym(h, "axial_isa_select");
    if (!f || !sel) { fprintf(stderr, "no %s\n", argv[2]); return 1; }
    Dl_info di;
    dladdr(f, &di);
    const int dt = atoi(argv[3]), isa = atoi(argv[4]), reps = atoi(argv[5]);
    int64_t sh[8], axes[8], shifts[8];
    size_t rank = 0, n = 1, naxes = 0, nshift = 0;
    for (int i = 8; i < argc && rank < 8; i++)
        n *= (size_t)(sh[rank++] = atoll(argv[i]));
    for (char *p = argv[6], *e; *p && naxes < 8; p = *e ? e + 1 : e) {
        if (!strcmp(p, "all")) {
            for (size_t i = 0; i < rank; i++) axes[naxes++] = (int64_t)i;
            break;
        }
        axes[naxes++] = strtoll(p, &e, 10);
    }
    for (char *p = argv[7], *e; *p && nshift < 8; p = *e ? e + 1 : e)
        shifts[nshift++] = strtoll(p, &e, 10);
    const unsigned flags = nshift ? (unsigned)shifts[0] : 0;
    while (strstr(argv[2], "roll") && nshift < naxes)
        shifts[nshift++] = 3;
    char *x = aligned_alloc(64, n * es[dt] + 64), *y = aligned_alloc(64, n * es[dt] + 64);
    for (size_t i = 0; i < n; i++) {
        const float v = (float)(i % 17) * 0.25f - 1.0f;
        union { float f; uint32_t u; } b = {v};
        switch (dt) {
        case 1: ((float *)x)[i] = v; break;
        case 2: ((double *)x)[i] = v; break;
        case 3: ((_Float16 *)x)[i] = (_Float16)v; break;
        case 4: ((uint16_t *)x)[i] = (uint16_t)(b.u >> 16); break;
        default: memcpy(x + i * es[dt], &(int64_t){(int64_t)(i % 7) - 3}, es[dt]);
        }
    }
    if (sel(isa) != 0) { fprintf(stderr, "isa %d not available\n", isa); return 1; }
    int rc = 0;
    printf("BASE %p\n", di.dli_fbase);
    fflush(stdout);
    const int step = getenv("MCA_STEP") != NULL; /* under the stepper: the calls between two signals */
    if (step)
        raise(SIGUSR1);
    for (int r = 0; r < reps; r++) {
        if (strstr(argv[2], "roll"))
            rc |= ((roll_t)f)(dt, x, y, rank, sh, shifts, naxes, axes, naxes);
        else if (strstr(argv[2], "reduce"))
            rc |= ((red_t)f)(dt, x, y, rank, sh, axes, naxes, 0);
        else
            rc |= ((scan_t)f)(dt, x, y, rank, sh, axes[0], flags);
    }
    if (step)
        raise(SIGUSR2);
    printf("RC %d\n", rc);
    FILE *maps = fopen("/proc/self/maps", "r"); /* the code of libsleef, for its share */
    char line[512];
    while (maps && fgets(line, sizeof line, maps))
        if (strstr(line, "libsleef") && strstr(line, "r-x"))
            printf("SLEEF %s", line);
    if (maps)
        fclose(maps);
    return rc != 0;
}
'''
STEPPER = r'''
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>
/* stepper OUT EXE ARGS...: EXE under ptrace, single-stepped from its SIGUSR1 to its SIGUSR2; OUT gets
 * "address count" for every instruction address stepped. */
#define SLOTS (1u << 22)
static unsigned long long key[SLOTS], cnt[SLOTS];
int main(int argc, char **argv) {
    (void)argc;
    const pid_t pid = fork();
    if (pid == 0) {
        ptrace(PTRACE_TRACEME, 0, 0, 0);
        execv(argv[2], argv + 2);
        _exit(127);
    }
    int st, stepping = 0, sig = 0;
    waitpid(pid, &st, 0);
    for (;;) {
        ptrace(stepping ? PTRACE_SINGLESTEP : PTRACE_CONT, pid, 0, (void *)(long)sig);
        if (waitpid(pid, &st, 0) < 0 || WIFEXITED(st) || WIFSIGNALED(st))
            break;
        sig = WSTOPSIG(st);
        if (sig == SIGUSR1 || sig == SIGUSR2) {
            stepping = sig == SIGUSR1, sig = 0;
        } else if (sig == SIGTRAP && stepping) {
            struct user_regs_struct r;
            ptrace(PTRACE_GETREGS, pid, 0, &r);
            unsigned long long h = (r.rip * 0x9E3779B97F4A7C15ull) >> 42;
            while (key[h] && key[h] != r.rip)
                h = (h + 1) & (SLOTS - 1);
            key[h] = r.rip, cnt[h]++, sig = 0;
        }
    }
    FILE *f = fopen(argv[1], "w");
    for (unsigned i = 0; f && i < SLOTS; i++)
        if (key[i])
            fprintf(f, "%llx %llu\n", key[i], cnt[i]);
    return f && fclose(f) == 0 && WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
'''
DTYPES = {'f32': 1, 'f64': 2, 'f16': 3, 'bf16': 4, 'i8': 5, 'u8': 6, 'i16': 7, 'u16': 8,
          'i32': 9, 'u32': 10, 'i64': 11, 'u64': 12, 'bool': 13}
ISAS = {'neon': (3, 'aarch64-linux-gnu-gcc', 'aarch64-linux-gnu-objdump', 'qemu-aarch64',
                 'aarch64', 'neoverse-n1,neoverse-v1'),
        'avx2': (1, 'gcc', 'objdump', 'qemu-x86_64', 'x86_64', 'znver3,alderlake'),
        'avx512': (2, 'gcc', 'objdump', None, 'x86_64', 'znver4,sapphirerapids,icelake-server')}
HEX = re.compile(r'\b(?:0x)?[0-9a-f]+ <[^>]*>')


def build_driver(isa, tmp):
    src, exe = os.path.join(tmp, 'drv.c'), os.path.join(tmp, 'drv-' + isa)
    open(src, 'w').write(DRIVER)
    subprocess.run([ISAS[isa][1], '-O1', '-o', exe, src, '-ldl'], check=True)
    if ISAS[isa][3] is None:  # run natively, single-stepped (qemu-user has no AVX-512)
        open(src, 'w').write(STEPPER)
        subprocess.run(['gcc', '-O2', '-o', exe + '-stepper', src], check=True)
    return exe


def disasm(lib, isa):
    """offset -> (text for llvm-mca, is a branch, branch target offset or None), sorted."""
    out = subprocess.run([ISAS[isa][2], '-d', '--no-show-raw-insn', '-w', lib], check=True,
                         capture_output=True, text=True).stdout
    ins, func, names = {}, None, {}
    for line in out.splitlines():
        m = re.match(r'^([0-9a-f]+) <([^>]+)>:$', line)
        if m:
            func = m.group(2)
            continue
        m = re.match(r'^\s+([0-9a-f]+):\s+(.*)$', line)
        if not m or func is None:
            continue
        off, text = int(m.group(1), 16), m.group(2).split('//')[0].split('#')[0] \
            if isa != 'neon' else m.group(2).split('//')[0]
        text = text.strip()
        if not text or text.startswith('.') or '(bad)' in text:
            continue
        tgt = None
        mm = HEX.search(text)
        mnem = text.split()[0]
        branch = mnem.startswith(('b', 'cb', 'tb', 'j', 'call', 'ret', 'loop')) and \
            not mnem.startswith(('bic', 'bif', 'bit', 'bsl', 'bfi', 'bfm', 'bfx', 'bswap', 'bsr',
                                 'bsf', 'bt', 'blend', 'bextr', 'bzhi', 'blsr', 'blsi'))
        if mm and branch:
            tgt = int(mm.group(0).split()[0].replace('0x', ''), 16)
        text = HEX.sub('.Lx', text)
        ins[off] = (text, branch, tgt)
        names[off] = func
    return ins, names


def trace(exe, lib, op, dt, isa_id, reps, axes, extra, dims, isa, tmp):
    log = os.path.join(tmp, 'log')
    env = dict(os.environ)
    args = [exe, lib, op, str(dt), str(isa_id), str(reps), axes, extra] + [str(d) for d in dims]
    if ISAS[isa][3] is None:  # natively: every instruction between the driver's two signals, stepped
        env['MCA_STEP'] = '1'
        cmd = [exe + '-stepper', log] + args
    elif isa == 'neon':
        cmd = [ISAS[isa][3], '-L', os.environ.get('QEMU_LD_PREFIX', '/usr/aarch64-linux-gnu'),
               '-d', 'in_asm,exec,nochain', '-D', log] + args
    else:
        cmd = [ISAS[isa][3], '-cpu', 'max', '-d', 'in_asm,exec,nochain', '-D', log] + args
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode:
        sys.exit('mca_case.py: %s failed: %s %s' % (' '.join(cmd), r.stdout, r.stderr))
    base = int(re.search(r'BASE (0x[0-9a-f]+)', r.stdout).group(1), 16)
    sleef = [tuple(int(v, 16) for v in m.split('-'))
             for m in re.findall(r'SLEEF ([0-9a-f]+-[0-9a-f]+)', r.stdout)]
    counts, in_sleef = collections.Counter(), 0
    for a, k in (stepped(log) if ISAS[isa][3] is None else executed(log)):
        if any(lo <= a < hi for lo, hi in sleef):
            in_sleef += k
        else:
            counts[a - base] += k
    return counts, in_sleef


def stepped(log):
    """(address, executions) from the stepper's file."""
    with open(log) as f:
        for line in f:
            a, k = line.split()
            yield int(a, 16), int(k)


def executed(log):
    """(address, executions) from qemu's log: each TB's instructions, as often as the TB ran."""
    tbs, runs, cur = {}, collections.Counter(), None
    with open(log, errors='replace') as f:
        for line in f:
            if line.startswith('IN:'):
                cur = []
            elif cur is not None and line.startswith('0x'):
                cur.append(int(line.split(':')[0], 16))
            elif line.startswith('Trace'):
                if cur:
                    tbs[cur[0]] = cur
                cur = None
                pc = int(line.split('[')[1].split('/')[1], 16)
                runs[pc] += 1
            elif cur and not line.strip():
                tbs[cur[0]] = cur
                cur = None
    for pc, k in runs.items():
        for a in tbs.get(pc, [pc]):
            yield a, k


def mca(body, isa, cpu):
    with tempfile.NamedTemporaryFile('w', suffix='.s', delete=False) as f:
        f.write('.Lx:\n' + '\n'.join(body) + '\n')
        path = f.name
    try:
        r = subprocess.run([os.environ.get('MCA', 'llvm-mca-19'), '-mtriple=' + ISAS[isa][4] +
                            '-linux-gnu', '-mcpu=' + cpu, '-iterations=200', path],
                           capture_output=True, text=True)
    finally:
        os.unlink(path)
    m1, m2 = re.search(r'Total Cycles:\s+(\d+)', r.stdout), re.search(r'Iterations:\s+(\d+)',
                                                                         r.stdout)
    if not (m1 and m2):
        return None
    return int(m1.group(1)) / int(m2.group(1))


def hot_path(ins, counts, span, it):
    """The body of loop [span] for llvm-mca: the instructions that ran in at
    least half of its it iterations, in address order; a run of them that
    ran r > 1 times an iteration (an inner loop not listed alone) r times
    over (at most 16), so that its work is counted as often as it is done."""
    body, run, times = [], [], 1
    for o in span + [None]:
        r = 0 if o is None else min(16, max(1, round(counts.get(o, 0) / it)))
        if o is not None and counts.get(o, 0) * 2 < it:
            continue
        if r != times:
            body += run * times
            run, times = [], r
        if o is not None:
            run.append(ins[o][0])
    return body


def loops(ins, names, counts, nloops, reps):
    """The hottest innermost loops: (instructions executed in them, B, T, iterations, body)."""
    offs = sorted(ins)
    idx = {o: i for i, o in enumerate(offs)}
    found = []
    for b in offs:
        text, branch, t = ins[b]
        if not branch or t is None or t > b or t not in idx or names[t] != names[b] or \
                text.split()[0] in ('bl', 'blr', 'call', 'callq') or counts.get(b, 0) < 8 * reps:
            continue
        it = counts[b]
        span = offs[idx[t]:idx[b] + 1]
        work = sum(counts.get(o, 0) for o in span)
        body = hot_path(ins, counts, span, it)
        found.append((work, b, t, it, body))
    found.sort(reverse=True)
    total = sum(counts.get(o, 0) for o in offs)
    keep = []
    for lp in found:
        work, b, t = lp[:3]
        inside = lambda k: t <= k[2] and k[1] <= b and k is not lp
        # listed: the inner loop that does most of an outer loop's work; a
        # loop inside a listed one is part of its work
        if any(inside(k) and k[0] * 2 >= work for k in found) or \
                any(k[2] <= b and t <= k[1] for k in keep):
            continue
        if work * 100 < total:
            break
        keep.append(lp)
        if len(keep) == nloops:
            break
    return keep


def side(lib, case, isa, cpus, reps, nloops, exe, tmp):
    op, dtype, shape, axes = case[:4]
    extra = case[4] if len(case) > 4 else ''
    dims = [int(d) for d in shape.split('x')]
    n = 1
    for d in dims:
        n *= d
    counts, in_sleef = trace(exe, lib, 'axial_' + op, DTYPES[dtype], ISAS[isa][0], reps, axes, extra, dims,
                   isa, tmp)
    ins, names = disasm(lib, isa)
    counts = collections.Counter({o: c for o, c in counts.items() if not names.get(o, '').startswith('axial_init')})
    total = sum(c for o, c in counts.items() if o in ins)
    if os.environ.get('MCA_FUNCS'):
        per = collections.Counter()
        for o, c in counts.items():
            if o in ins:
                per[names.get(o, '?')] += c
        for f, c in per.most_common(12):
            print(f'  {lib} {case}: {f} {c / reps:.0f} instr a call', file=sys.stderr)
        for o in sorted(ins):
            if names.get(o) == os.environ['MCA_FUNCS'] and counts.get(o):
                print(f'    {o:x} {counts[o] / reps:8.0f} {ins[o]}', file=sys.stderr)
    rows, model = [], collections.Counter()
    covered = 0
    for work, b, t, it, body in loops(ins, names, counts, nloops, reps):
        covered += work
        cyc = {c: mca(body, isa, c) for c in cpus}
        for c in cpus:
            if cyc[c] is not None:
                model[c] += cyc[c] * it / (n * reps)
        rows.append((names.get(t, '?'), t, len(body), it / reps, work / total, cyc, body))
    return {'ins': total / (n * reps), 'sleef': in_sleef / (n * reps),
            'cover': covered / max(total, 1), 'model': model, 'rows': rows}


def row(a, cpus, cs, s, detail):
    cells = ['%.2f | %.2f | %.2f | %.2f | %.2f' % (s[0]['ins'], s[1]['ins'], s[1]['ins'] / s[0]['ins'],
                                                 s[0]['sleef'], s[1]['sleef'])]
    for c in cpus:
        m0, m1 = s[0]['model'][c], s[1]['model'][c]
        cells.append('%.3f | %.3f | %s' % (m0, m1, '%.2f' % (m1 / m0) if m0 else '-'))
    print('| %s | %s | %.0f%%, %.0f%% |' % (cs, ' | '.join(cells), 100 * s[0]['cover'],
                                            100 * s[1]['cover']), flush=True)
    detail.append((cs, s))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--before', required=True)
    ap.add_argument('--after', required=True)
    ap.add_argument('--isa', default='neon', choices=sorted(ISAS))
    ap.add_argument('--cpus')
    ap.add_argument('--loops', type=int, default=3)
    ap.add_argument('--reps', type=int, default=2)
    ap.add_argument('--asm', action='store_true')
    ap.add_argument('--cases', dest='casefile', help='a file of cases, one a line (# comments)')
    ap.add_argument('--jobs', type=int, default=1, help='cases run at once')
    ap.add_argument('cases', nargs='*')
    a = ap.parse_args()
    if a.casefile:
        with open(a.casefile) as f:
            a.cases += [l.split('#')[0].strip() for l in f if l.split('#')[0].strip()]
    if not a.cases:
        ap.error('no cases')
    cpus = (a.cpus or ISAS[a.isa][5]).split(',')
    with tempfile.TemporaryDirectory() as tmp:
        exe = build_driver(a.isa, tmp)
        print('| case | instr/elem before | after | ratio | libsleef instr/elem before | after | ' +
              ' | '.join('%s cyc/elem before | after | ratio' % c for c in cpus) +
              ' | loops cover (before, after) |')
        print('|' + '---|' * (6 + 3 * len(cpus) + 1))
        detail = []
        def both(ic):
            d = os.path.join(tmp, str(ic[0]))
            os.makedirs(d)
            return [side(lib, ic[1].split(':'), a.isa, cpus, a.reps, a.loops, exe, d)
                    for lib in (a.before, a.after)]
        with concurrent.futures.ThreadPoolExecutor(max(a.jobs, 1)) as pool:
            sides = pool.map(both, enumerate(a.cases))  # (in order; printed as they come)
            for cs, s in zip(a.cases, sides):
                row(a, cpus, cs, s, detail)
        print()
        for cs, s in detail:
            for name, sd in zip(('before', 'after'), s):
                for fn, t, nb, it, share, cyc, body in sd['rows']:
                    print('  %s %s: %s @0x%x, %d instr, %.0f iterations a call, %.0f%% of the '
                          'work, cyc/iter %s' % (cs, name, fn, t, nb, it, 100 * share,
                                                 ' '.join('%s %.2f' % (c, v) if v else c + ' ?'
                                                          for c, v in cyc.items())))
                    if a.asm:
                        print('    ' + '\n    '.join(body))


if __name__ == '__main__':
    main()
