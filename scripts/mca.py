# SPDX-License-Identifier: MIT
"""llvm-mca before/after table of a kernel's hot loops.

Usage (from anywhere; trees are source checkouts of axial):
  python3 scripts/mca.py --isa avx512 --before OLD_TREE --after NEW_TREE \\
      kernels/avx512/cumsum.c axial_cumsum_f32__avx512 [FUNCTION...]
  options: --cpus a,b (default avx512: znver4,sapphirerapids,icelake-server;
           avx2: znver3,alderlake; neon: neoverse-n1,neoverse-v1), --all (every
           loop, not only the hottest), --asm (the hottest loops' assembly),
           --nt (see below), --paths N (most paths per loop, default 4).
  env: CC (x86, default gcc), CC_AARCH64 (default aarch64-linux-gnu-gcc),
       MCA (default llvm-mca-19), MCA_CACHE (assembly cache, default /tmp/axial-mca-$UID).

Method.  For each tree, FILE is compiled to assembly as the release build
compiles that ISA's folder: -std=c11 -O3 -DNDEBUG -D_FILE_OFFSET_BITS=64
-fvisibility=hidden -fno-strict-aliasing -fPIC -ffp-contract=off, the ISA's
flags read from that tree's kernels/meson.build, -I include, kernels, src and
the file's folder (the kernel libraries get no -DAXIAL_HAVE_*: only src/
does), plus -g, which does not change GCC's code (it names source lines);
NEON (aarch64-linux-gnu-gcc) also gets -fno-section-anchors, so that the
function-pointer tables its kernels dispatch through are named (it changes
how static data is addressed, not the loops).  FUNCTION's body is taken with
its .constprop/.isra/.part/.cold clones and the local (non-global) functions
it calls or names in such a table, transitively.  The control-flow graph
gives the innermost natural loops (back edges to a dominating header); each
loop is taken along its paths once round (fall-through first, at most --paths;
the fall-through path alone when there are more).  Each path's instructions go
to llvm-mca per CPU: cycles/iteration = Total Cycles / Iterations.  Bytes
loaded per iteration are summed from the instructions' memory operands
(vector width, broadcast element, widening load, GPR size, ld1/ldp register
lists), and cyc/64B = cycles per 64 loaded bytes normalises loops that are
unrolled or tiled differently.  Per FUNCTION and CPU the hottest loop (most
bytes per iteration; tie: most instructions; paths with streaming stores only
with --nt, loops with calls only when there is no other) of each side is compared: the ratio is
after/before of cyc/64B (below 1: the after loop is faster); '?' marks two
loops that store different shares of their loads (likely not the same loop).
A loop is named by its clone or local function, header label, and the tree's
source file with most of its lines (kernels/simd/, the vocabulary, last), with
that file's line range.

What it cannot tell.  llvm-mca models a compute-bound loop whose data is in
L1: no cache misses, memory bandwidth, prefetch, cache-line splits (masked
or unaligned), store-to-load forwarding (loads never alias stores), branch
misprediction, nor the code around the loop (per-row setup, tails, calls:
a call is a black box).  Its znver4 model gives 512-bit loads and stores
256-bit costs (Zen 4 really splits them), and its sapphirerapids model gives
streaming stores absurd latencies.  Masked loads count their full width.
Loops reached only through a jump table may be missed.  The hottest loop by
bytes is a heuristic: check the --all table when the kernel's structure
changed.  Use it for same-ISA before/after of compute loops only; decide
between ISAs, and anything memory-bound, on a real machine (scripts/ab.sh).
"""
import argparse, collections, functools, hashlib, os, re, subprocess, sys, tempfile

CPUS = {'avx512': 'znver4,sapphirerapids,icelake-server', 'avx2': 'znver3,alderlake',
        'neon': 'neoverse-n1,neoverse-v1'}
LAB = re.compile(r'^([A-Za-z_.$][\w.$]*):')


def isa_flags(tree, isa):
    """The flags of the tree's kernels/meson.build: every SIMD file's (simd_c_args, less
    the sanitizer ones), then the ISA's (['avx2', ['-mavx2', ...]])."""
    t = open(os.path.join(tree, 'kernels', 'meson.build')).read()
    m = re.search(r"\[\s*'%s'\s*,\s*\[([^\]]*)\]" % isa, t)  # (a third member may follow)
    if not m:
        sys.exit('mca.py: no %s flags in %s/kernels/meson.build' % (isa, tree))
    common = [f for a in re.findall(r"simd_c_args\s*\+?=\s*cc\.get_supported_arguments\(\[([^\]]*)\]\)", t)
              for f in re.findall(r"'([^']*)'", a) if not f.startswith('-fno-sanitize')]
    return common + re.findall(r"'([^']*)'", m.group(1))


@functools.lru_cache(maxsize=None)     # one compile per tree, whatever the functions
def compile_asm(tree, src, isa):
    tree = os.path.abspath(tree)
    path = os.path.join(tree, src)
    cc = os.environ.get('CC_AARCH64', 'aarch64-linux-gnu-gcc') if isa == 'neon' else \
        os.environ.get('CC', 'gcc')
    flags = ['-std=c11', '-O3', '-DNDEBUG', '-D_FILE_OFFSET_BITS=64', '-fvisibility=hidden',
             '-fno-strict-aliasing', '-fPIC', '-ffp-contract=off'] + isa_flags(tree, isa) + \
        ['-I' + os.path.join(tree, d) for d in ('include', 'kernels', 'src')] + \
        ['-I' + os.path.dirname(path)] + (['-fno-section-anchors'] if isa == 'neon' else [])
    pre = subprocess.run([cc] + flags + ['-E', path], capture_output=True, check=True).stdout
    key = hashlib.sha1(pre + ' '.join([cc] + flags).encode()).hexdigest()[:16]
    cache = os.environ.get('MCA_CACHE', '/tmp/axial-mca-%d' % os.getuid())
    os.makedirs(cache, exist_ok=True)
    out = os.path.join(cache, '%s-%s-%s.s' % (os.path.basename(src)[:-2], isa, key))
    if not os.path.exists(out):
        print('mca.py: compiling %s for %s ...' % (path, isa), file=sys.stderr)
        subprocess.run([cc] + flags + ['-g', '-S', '-o', out + '.tmp', path], check=True)
        os.rename(out + '.tmp', out)
    return open(out).read().split('\n'), path


def functions(lines, func):
    """FUNCTION, its clones and the local functions it calls or names (function-pointer
    tables included), transitively: {name: (start, end)}."""
    starts = {m.group(1): i for i, l in enumerate(lines) for m in [LAB.match(l)] if m}
    glob = {w for l in lines for w in re.findall(r'^\s*\.globl\s+(\S+)', l)}
    funcs = {w for l in lines for w in re.findall(r'^\s*\.type\s+([^,\s]+),\s*[@%]function', l)}
    def span(s):
        e = next((j for j in range(starts[s], len(lines))
                  if re.match(r'\s*\.size\s+%s\s*,' % re.escape(s), lines[j])), len(lines))
        return starts[s], e
    def named(s, body):       # the symbols that the lines of s name, tables looked into
        for l in body:
            for w in re.findall(r'[A-Za-z_][\w.$]*', (l.split(None, 1) + ['', ''])[1]):
                if w in funcs and w not in glob:
                    yield w
                elif w in starts and w not in funcs and w != s:
                    for t in lines[starts[w] + 1:starts[w] + 64]:
                        m = re.match(r'\s*\.(?:xword|quad|long|word)\s+([A-Za-z_][\w.$]*)\s*$', t)
                        if m and m.group(1) in funcs and m.group(1) not in glob:
                            yield m.group(1)
                        elif not m and (LAB.match(t) or '.size' in t):
                            break
    todo = [s for s in starts if s == func or re.fullmatch(
        re.escape(func) + r'(\.(constprop|isra|part)\.\d+|\.cold)+', s)]
    if not todo:
        sys.exit('mca.py: no function %s in the assembly' % func)
    got = {}
    while todo:
        s = todo.pop()
        if s not in got:
            got[s] = span(s)
            todo += list(named(s, [l for l in lines[got[s][0] + 1:got[s][1]]
                                   if not l.lstrip().startswith('.')]))
    return got


def blocks_of(lines, start, end, files):
    """Basic blocks [(labels, [(ins, (file, line) of the tree's sources)])] and successor lists."""
    blocks, src, code = [([], [])], None, True
    for l in lines[start:end]:
        s = re.split(r'\s//|\s#\s', l.strip())[0].strip()
        m = re.match(r'\.loc\s+(\d+)\s+(\d+)', s)
        if m:
            src = (files[int(m.group(1))], int(m.group(2))) if int(m.group(1)) in files else src
            continue
        if re.match(r'\.(text|section)\b', s):
            code = s.startswith('.text') or bool(re.match(r'\.section\s+\.text', s))
        if not s or s.startswith(('.', '#', '//')) and not LAB.match(s) or not code:
            continue
        m = LAB.match(s)
        if m:       # a code label (.L<n>, a function); -g's .LVL/.LBB... labels are no targets
            if not re.fullmatch(r'\.L\d+|[^.].*', m.group(1)):
                continue
            if blocks[-1][1]:
                blocks.append(([], []))
            blocks[-1][0].append(m.group(1))
            continue
        blocks[-1][1].append((s, src))
        if kind(s)[0] != 'other':
            blocks.append(([], []))
    blocks = [b for b in blocks if b[0] or b[1]]
    where = {n: i for i, b in enumerate(blocks) for n in b[0]}
    succ = []
    for i, (_, ins) in enumerate(blocks):
        k, target = kind(ins[-1][0]) if ins else ('other', None)
        nxt = [i + 1] if i + 1 < len(blocks) else []
        tgt = [where[target]] if target in where else []
        succ.append({'other': nxt, 'cond': tgt + nxt, 'jump': tgt, 'end': []}[k])
    return blocks, succ


def kind(s):
    """('jump'|'cond'|'end'|'other', target) of an x86 or aarch64 instruction."""
    p = s.replace(',', ' ').split()
    mn = p[0] if p else ''
    if mn in ('ret', 'retq', 'ud2', 'br', 'brk') or (mn in ('jmp', 'notrack') and '*' in s):
        return 'end', None
    if mn in ('jmp', 'b'):
        return 'jump', p[-1]
    if re.fullmatch(r'j\w+|b\.?(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)|cbn?z|tbn?z', mn):
        return 'cond', p[-1]
    return 'other', None


def innermost_loops(succ):
    """[(header, body)] of the innermost natural loops (dominators as bit sets)."""
    n = len(succ)
    pred = [[] for _ in range(n)]
    for u in range(n):
        for v in succ[u]:
            pred[v].append(u)
    # iterative dominators in layout order; roots: the entry and the blocks without
    # predecessors (jump-table targets); a cycle entered only from a jump table keeps
    # the full set, so it still counts as a loop
    roots = [0] + [i for i in range(1, n) if not pred[i]]
    full = (1 << n) - 1
    dom = [1 << i if i in roots else full for i in range(n)]
    changed = True
    while changed:
        changed = False
        for b in range(n):
            if b not in roots:
                d = full
                for p in pred[b]:
                    d &= dom[p]
                d |= 1 << b
                if d != dom[b]:
                    dom[b], changed = d, True
    loops = collections.defaultdict(set)
    for u in range(n):
        for h in succ[u]:
            if dom[u] >> h & 1:
                body, work = {h, u}, [u]
                while work:
                    for p in pred[work.pop()]:
                        if p not in body:
                            body.add(p)
                            work.append(p)
                loops[h] |= body
    return sorted((h, b) for h, b in loops.items() if not any(h2 != h and h2 in b for h2 in loops))


def paths_of(h, body, succ, most):
    paths = []
    def dfs(b, path):
        for s in sorted(succ[b], key=lambda x: x != b + 1):      # fall-through first
            if len(paths) > most:
                return
            if s == h:
                paths.append(list(path))
            elif s in body and s not in path:
                dfs(s, path + [s])
    dfs(h, [h])
    return paths[:1] if len(paths) > most else paths


X86W = {'b': 1, 'w': 2, 'l': 4, 'q': 8, 'd': 4}
STORES = re.compile(r'[vk]?(mov|maskmov|pmaskmov|extract|cvtps2ph|compress|pcompress|pmov[a-z]*'
                    r'|stos|pextr|scatter|pscatter)')


def x86_access(s):
    """(loaded, stored) bytes of one AT&T instruction."""
    m = re.match(r'(\S+)\s*(.*)', s)
    mn, ops = m.group(1), re.split(r',\s*(?![^()]*\))', m.group(2))
    mem = [i for i, o in enumerate(ops) if '(' in o]
    if not mem or re.match(r'(lea|prefetch|nop|j|call|clflush)', mn):
        return 0, 0
    o, last = ops[mem[0]], mem[0] == len(ops) - 1
    vw = max([{'x': 16, 'y': 32, 'z': 64}[r] for r in re.findall(r'%([xyz])mm', s)] or [0])
    gw = max([{'r': 8, 'e': 4}.get(p, 2 if len(r) == 2 and r[1] in 'xip' else 1)
              for p, r in re.findall(r'%([re]?)([a-z]+\d*[a-z]?)\b', ' '.join(ops[:mem[0]]))
              if not r.startswith(('xmm', 'ymm', 'zmm', 'k'))] or [8])
    sz = re.search(r'(\d+)x(\d+)$', mn)
    down = re.match(r'vpmovu?s?([wdq])([bwd])$', mn)
    if '{1to' in o:                                          # embedded broadcast
        w = 8 if re.search(r'(pd|q)$', mn) else 4
    elif re.match(r'v?p?broadcast', mn):
        w = int(sz.group(1)) * int(sz.group(2)) // 8 if sz else 16 if mn.endswith('128') else \
            {'b': 1, 'w': 2, 'd': 4, 'q': 8, 's': 4}.get(mn[-1], 8)
    elif re.match(r'v(insert|extract)[fi](128|32x4|64x2)$', mn):
        w = 16
    elif re.match(r'v(insert|extract)[fi](32x8|64x4)$', mn):
        w = 32
    elif re.match(r'vpmov[sz]x([bwd][wdq])$', mn):          # widening load
        w = vw // {'bw': 2, 'bd': 4, 'bq': 8, 'wd': 2, 'wq': 4, 'dq': 2}[mn[-2:]]
    elif down:                                               # narrowing store
        w = vw * X86W[down.group(2)] // X86W[down.group(1)]
    elif re.match(r'v?cvt(ph2ps|ps2pd|dq2pd|udq2pd|ps2ph)$', mn):
        w = vw // 2
    elif re.match(r'v?cvtt?pd2(ps|dq|udq)[xyz]?$', mn):    # narrowing conversion from memory
        w = {'x': 16, 'y': 32, 'z': 64}.get(mn[-1], 2 * vw)
    elif re.match(r'v?(movd|movq|pinsr[bwdq]|pextr[bwdq])$', mn):
        w = X86W[mn[-1]] if mn[-1] != 'q' else 8
    elif re.search(r'(ss|sd|sh)$', mn) and not re.match(r'(cmps|movs|stos|lods|scas)[bwlqd]?$', mn):
        w = {'ss': 4, 'sd': 8, 'sh': 2}[mn[-2:]]              # scalar SSE/AVX
    elif re.match(r'movs[bwl][wlq]$|movz[bw][wlq]$', mn):
        w = X86W[mn[4]]
    elif re.match(r'set', mn):
        w = 1
    elif vw:
        w = vw
    elif mn[-1] in 'bwlq' and not re.match(r'(cmov|kmov)', mn) or re.match(r'kmov[bwdq]$', mn):
        w = X86W[mn[-1]]
    else:
        w = gw
    if not last or re.match(r'(div|idiv|mul|imul|push)\w?$', mn):
        return w, 0
    if STORES.match(mn) or re.match(r'(set|pop)', mn):
        return 0, w
    if re.match(r'v?(cmp|test|ucomis|comis|bt)', mn):
        return w, 0
    return w, w          # read-modify-write


def a64_access(s):
    m = re.match(r'(\S+)\s*(.*)', s)
    mn, ops = m.group(1), m.group(2)
    if not re.match(r'(ld|st)', mn) or mn.startswith(('ldadd', 'stadd')):
        return 0, 0
    if re.match(r'(ld|st)[1-4]', mn):
        lst = re.search(r'\{([^}]*)\}', ops).group(1)
        regs = re.findall(r'v\d+\.(\d*)([bhsd])', lst)
        if '-' in lst:      # {v0.4s - v3.4s}
            a, b = (int(x) for x in re.findall(r'v(\d+)', lst)[:2])
            regs = regs[:1] * ((b - a) % 32 + 1)
        esz = {'b': 1, 'h': 2, 's': 4, 'd': 8}
        lane = mn.endswith('r') or re.search(r'\}\[\d+\]', ops)
        w = sum(esz[t] * (1 if lane or not c else int(c)) for c, t in regs)
    else:
        first = re.match(r'([xwqdshb])\d+|([xw])zr', ops)
        w = {'x': 8, 'w': 4, 'q': 16, 'd': 8, 's': 4, 'h': 2, 'b': 1}[(first.group(1) or first.group(2))]
        sfx = re.match(r'(?:ld|st)(?:u|a|l|x|ax|lx|n)?r(s?[bhw])$', mn)
        if sfx:
            w = {'b': 1, 'h': 2, 'w': 4}[sfx.group(1)[-1]]
        if re.match(r'(ld|st)n?p', mn):
            w *= 2
    return (w, 0) if mn.startswith('ld') else (0, w)


NOTES = [('(call)', r'(call|bl)\s'), ('(nt-store)', r'v?movnt|stnp'),
         ('(masked)', r'v\S+\s[^{]*\(.*\{%k|v\S+\s.*\{%k\d\}.*\(|v?p?maskmov')]
_seen = {}


def mca_cycles(text, cpu, isa):
    if (text, cpu) in _seen:
        return _seen[text, cpu]
    with tempfile.NamedTemporaryFile('w', suffix='.s', delete=False) as f:
        f.write(text)
    args = [os.environ.get('MCA', 'llvm-mca-19'), '-mcpu=' + cpu, '-iterations=200',
            '-timeline=false', '-instruction-info=false', '-resource-pressure=false']
    if isa == 'neon':
        args.append('-mtriple=aarch64')
    try:
        out = subprocess.run(args + [f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    m = re.search(r'Iterations:\s+(\d+)\s+Instructions:\s+\d+\s+Total Cycles:\s+(\d+)', out.stdout)
    if not m:
        print('mca.py: llvm-mca failed on %s: %s' % (cpu, out.stderr.strip()[:300]), file=sys.stderr)
        return None
    _seen[text, cpu] = int(m.group(2)) / int(m.group(1))
    return _seen[text, cpu]


def loops_of(tree, src, isa, func, most):
    lines, path = compile_asm(tree, src, isa)
    access = a64_access if isa == 'neon' else x86_access
    root = os.path.abspath(tree) + '/'
    files = {}       # .file N "path": the tree's own files, by number
    for m in (re.match(r'\s*\.file\s+(\d+)\s+"([^"]*)"(?:\s+"([^"]*)")?', l) for l in lines
              if l.startswith('\t.file')):
        f = os.path.normpath(m.group(3) or m.group(2)) if m else ''
        if f.startswith(root):
            files[int(m.group(1))] = f[len(root):]
    rows = []
    for sym, (start, end) in sorted(functions(lines, func).items()):
        blocks, succ = blocks_of(lines, start, end, files)
        for h, body in innermost_loops(succ):
            ps = paths_of(h, body, succ, most)
            for k, p in enumerate(ps):
                ins = [x for b in p for x in blocks[b][1]]
                ld = sum(access(t)[0] for t, _ in ins)
                st = sum(access(t)[1] for t, _ in ins)
                at = collections.defaultdict(set)     # the tree's file with most lines here, not the vocabulary's
                for _, fl in ins:
                    if fl:
                        at[fl[0]].add(fl[1])
                f = max(at, key=lambda x: ('simd/' not in x, len(at[x])), default=None)
                name = (sym[len(func):].lstrip('.') if sym.startswith(func) else sym) + ' '
                label = (blocks[h][0] or ['b%d' % h])[0]
                notes = ''.join(' ' + w for w, rx in NOTES if any(re.match(rx, t) for t, _ in ins))
                rows.append({'loop': '%s%s%s %s' % (name.lstrip(), label, '/%d' % (k + 1) if len(ps) > 1 else '',
                                                     '%s:%d-%d' % (f.replace('kernels/', ''), min(at[f]), max(at[f]))
                                                     if f else '?'),
                             'n': len(ins), 'ld': ld, 'st': st, 'notes': notes,
                             'text': ''.join('\t%s\n' % t for t, _ in ins)})
    return rows


def fmt(r, cpu, isa):
    c = r['cyc'].setdefault(cpu, mca_cycles(r['text'], cpu, isa))
    return '%s | %d | %d/%d | %s | %s' % (
        r['loop'] + r['notes'], r['n'], r['ld'], r['st'], '-' if c is None else '%.2f' % c,
        '-' if c is None or not r['ld'] else '%.2f' % (c * 64 / r['ld']))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--isa', required=True, choices=sorted(CPUS))
    ap.add_argument('--cpus')
    ap.add_argument('--before', required=True)
    ap.add_argument('--after', required=True)
    ap.add_argument('--all', action='store_true', help='also list every loop of both trees')
    ap.add_argument('--asm', action='store_true', help='print the hottest loops\' assembly')
    ap.add_argument('--nt', action='store_true', help='streaming-store loops may be the hottest')
    ap.add_argument('--paths', type=int, default=4)
    ap.add_argument('file')
    ap.add_argument('functions', nargs='+')
    a = ap.parse_args()
    cpus = (a.cpus or CPUS[a.isa]).split(',')
    print('# llvm-mca-modelled (not timed), %s, %s: before %s, after %s' % (a.isa, a.file, a.before, a.after))
    print('# loop: [clone or local function] header label file:lines; B/it: loaded/stored bytes per iteration; '
          'cyc/64B: cycles per 64 loaded bytes; ratio: after/before of cyc/64B (below 1: faster)\n')
    hdr = 'loop | insns | B/it | cyc/it | cyc/64B'
    print('| function | cpu | before: %s | after: %s | ratio |' % (hdr, hdr))
    print('|' + '---|' * 13)
    every, shown, odd = [], [], False
    for func in a.functions:
        side = []
        for tree in (a.before, a.after):
            rows = loops_of(tree, a.file, a.isa, func, a.paths)
            for r in rows:
                r['cyc'] = {}
            side.append(rows)
            every.append((func, tree, rows))
        # the hottest loop: most bytes loaded per iteration; streaming-store paths (taken
        # for memory-resident data, which llvm-mca does not model) only with --nt, and
        # loops with a call (a black box to llvm-mca), only when there is no other
        hot = [max(rs, key=lambda r: ('(call)' not in r['notes'], a.nt or 'nt-store' not in r['notes'],
                                      r['ld'], r['n'])) if rs else None for rs in side]
        shown += [(func, t, h) for t, h in zip((a.before, a.after), hot) if h]
        for c in cpus:
            cells = [fmt(h, c, a.isa) if h else 'no loop | | | |' for h in hot]
            v = [h and h['cyc'][c] and h['ld'] and h['cyc'][c] * 64 / h['ld'] for h in hot]
            ratio = '%.2f' % (v[1] / v[0]) if v[0] and v[1] else '-'
            if all(hot) and abs(hot[0]['st'] / max(hot[0]['ld'], 1) - hot[1]['st'] / max(hot[1]['ld'], 1)) > .25:
                ratio, odd = ratio + ' ?', True
            print('| %s | %s | %s | %s | %s |' % (func, c, cells[0], cells[1], ratio))
    if odd:
        print('\n?: the two loops store different shares of what they load: maybe not the same loop '
              '(see --all)')
    if a.all:
        print('\n| function | tree | cpu | loop | insns | B/it | cyc/it | cyc/64B |')
        print('|' + '---|' * 8)
        for func, tree, rows in every:
            for r in rows:
                for c in cpus:
                    print('| %s | %s | %s | %s |' % (func, tree, c, fmt(r, c, a.isa)))
    for func, tree, h in shown if a.asm else []:
        print('\n# %s, %s: %s\n%s' % (func, tree, h['loop'], h['text']))


if __name__ == '__main__':
    main()
