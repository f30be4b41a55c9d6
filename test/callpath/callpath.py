#!/usr/bin/env python3
"""Call-path profile tests (docs/callpath.md).

Each test runs a program whose resource use per call path is known by
construction, with COZ_CALLPATH set, then parses `coz-report callpath`
output and checks the function, downward and upward fractions. Sampled
numbers are checked on the median of RUNS runs, within TOL (absolute).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

RUNS = 3
TOL = 0.03
ROW = re.compile(r'^(\d+\.\d+) (?:\((.*)\)|(\S+)) \[(\d+)\]$')
# Function and body profiles: one name per row, which may hold blanks (a
# demangled C++ name's parameter list).
SINGLE_ROW = re.compile(r'^(\d+\.\d+) (.+) \[(\d+)\]$')


def run_program(args, name, spec, workdir, tag, argv=()):
    """Runs bindir/name (or the path name, when absolute)."""
    out = os.path.join(workdir, f'{tag}.callpath')
    if os.path.exists(out):
        os.unlink(out)
    env = dict(os.environ, COZ_CALLPATH=spec, COZ_CALLPATH_OUTPUT=out,
               COZ_QUIET='1', COZ_OUTPUT=os.path.join(workdir, 'profile.coz'))
    p = subprocess.run([os.path.join(args.bindir, name), *argv], env=env,
                       cwd=workdir, capture_output=True, text=True,
                       timeout=240)
    if p.returncode != 0:
        sys.exit(f'FAIL: {name} exited {p.returncode}: {p.stderr}')
    if not os.path.exists(out):
        sys.exit(f'FAIL: {name} wrote no call-path file ({p.stderr})')
    return out, p.stdout


def report(args, path, *opts):
    p = subprocess.run([args.report, 'callpath', *opts, path],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        sys.exit(f'FAIL: coz-report callpath {opts}: {p.stderr}')
    return p.stdout


def rows(text):
    """{path tuple: (fraction, samples)} of every profile in text, keyed
    by the kind ('function', 'down', 'up')."""
    out, kind = {}, None
    for line in text.splitlines():
        if line.startswith('Body+Descendants'):
            kind = 'function'
        elif line.startswith('Body Profile'):
            kind = 'body'
        elif line.startswith('Downward'):
            kind = 'down'
        elif line.startswith('Upward'):
            kind = 'up'
        if kind in ('function', 'body'):
            m = SINGLE_ROW.match(line)
            if m:
                out.setdefault(kind, {})[(m.group(2),)] = (
                    float(m.group(1)), int(m.group(3)))
            continue
        m = ROW.match(line)
        if m and kind:
            path = tuple((m.group(2) or m.group(3)).split())
            out.setdefault(kind, {})[path] = (float(m.group(1)),
                                              int(m.group(4)))
    return out


def resource_total(text):
    """The resource's total in a report's text (`N samples, T bytes in
    all`), or None."""
    m = re.search(r'^\d+ samples, (\d+) \S+ in all', text, re.M)
    return int(m.group(1)) if m else None


def frac(table, kind, *path):
    return table.get(kind, {}).get(tuple(path), (0.0, 0))[0]


def check(label, got, want, tol=TOL):
    ok = abs(got - want) <= tol
    print(f'{"ok  " if ok else "FAIL"} {label}: {got:.4f} (want {want:.4f} '
          f'+- {tol})')
    return ok


def sampled_runs(args, prog, spec, resource, queries, workdir, argv=()):
    """RUNS runs of prog; per run (fractions of queries, the resource's
    total, the program's stdout). queries: list of (kind, root, path)."""
    runs = []
    for i in range(RUNS):
        out, stdout = run_program(args, prog, spec, workdir,
                                  f'{os.path.basename(prog)}{i}', argv)
        values, total = [], None
        for kind, root, path in queries:
            opts = ['--resource', resource, '--threshold', '0']
            if kind != 'function':
                opts += ['--root', root, '--' + kind]
            text = report(args, out, *opts)
            total = resource_total(text)
            values.append(frac(rows(text), kind, *path))
        runs.append((values, total, stdout))
    return runs


def median_of(args, prog, spec, resource, queries, workdir, argv=()):
    """queries: list of (kind, root, path); returns the medians."""
    runs = sampled_runs(args, prog, spec, resource, queries, workdir, argv)
    return [statistics.median(r[0][i] for r in runs)
            for i in range(len(queries))]


def io_test(args, workdir, resource):
    # 1 MiB through path_a, 3 MiB through path_b; other I/O of the
    # process is none, so the fractions are exactly 0.25 and 0.75.
    q = [('function', None, ['path_a']), ('function', None, ['path_b']),
         ('function', None, ['move_chunk']),
         ('down', 'main', ['main', 'path_a', 'move_chunk']),
         ('down', 'main', ['main', 'path_b', 'move_chunk']),
         ('up', 'move_chunk', ['path_a', 'move_chunk']),
         ('up', 'move_chunk', ['path_b', 'move_chunk'])]
    a, b, m, da, db, ua, ub = median_of(
        args, 'cp_io', f'{resource}:4096', resource, q, workdir)
    ok = check('function path_a', a, 0.25)
    ok &= check('function path_b', b, 0.75)
    ok &= check('function move_chunk', m, 1.0)
    ok &= check('down (main path_a move_chunk)', da, 0.25)
    ok &= check('down (main path_b move_chunk)', db, 0.75)
    ok &= check('up (path_a move_chunk)', ua, 0.25)
    ok &= check('up (path_b move_chunk)', ub, 0.75)
    return ok


def wall_test(args, workdir):
    # One thread sleeps, polls, times out on a condition variable and spins;
    # another blocks in read() all along. The program measures each path's
    # real time: its share of all the threads' time is the expected
    # fraction (blocked or running, wall time counts the same).
    paths = ['path_sleep', 'path_poll', 'path_cond', 'path_spin', 'path_read']
    got = {p: [] for p in paths}
    want = {p: [] for p in paths}
    for i in range(RUNS):
        out, stdout = run_program(args, 'cp_wall', 'wall:2000000', workdir,
                                  f'wall{i}')
        ns = {p: int(re.search(rf'wall_{p}=(\d+)', stdout).group(1))
              for p in paths}
        table = rows(report(args, out, '--resource', 'wall', '--threshold',
                            '0'))
        for p in paths:
            want[p].append(ns[p] / sum(ns.values()))
            got[p].append(frac(table, 'function', p))
    ok = True
    for p in paths:
        ok &= check(f'function {p}', statistics.median(got[p]),
                    statistics.median(want[p]))
    return ok


def faults_test(args, workdir):
    # N fresh pages touched in path_a, 3N in path_b (N = 2048, 4 rounds):
    # 32768 faults of the process' ~33000. The pair splits 1:3.
    q = [('function', None, ['path_a']), ('function', None, ['path_b']),
         ('down', 'main', ['main', 'path_a', 'touch_pages']),
         ('down', 'main', ['main', 'path_b', 'touch_pages']),
         ('up', 'touch_pages', ['path_a', 'touch_pages']),
         ('up', 'touch_pages', ['path_b', 'touch_pages'])]
    a, b, da, db, ua, ub = median_of(args, 'cp_faults', 'minflt:16',
                                     'minflt', q, workdir)
    ok = check('faults path_a + path_b of all', a + b, 0.99, 0.02)
    ok &= check('function path_a share of the pair', a / (a + b), 0.25)
    ok &= check('down (main path_a touch_pages) share', da / (da + db), 0.25)
    ok &= check('up (path_b touch_pages) share', ub / (ua + ub), 0.75)
    ok &= check('down = function for path_b', db, b, 0.005)
    return ok


def process_db_test(args, workdir):
    # The program measures each phase with its own thread CPU clock; the
    # profile's fractions of the two qsort call paths must agree.
    shares, measured = [], []
    for i in range(RUNS):
        out, stdout = run_program(args, 'cp_process_db', 'cpu', workdir,
                                  f'db{i}')
        phase = {k: int(v) for k, v in
                 re.findall(r'^phase (\S+) (\d+)$', stdout, re.M)}
        fn = rows(report(args, out, '--resource', 'cpu', '--threshold', '0'))
        # glibc's qsort tail-calls qsort_r: whichever the stacks show.
        qs = max(('qsort', 'qsort_r'),
                 key=lambda n: frac(fn, 'function', n))
        up = rows(report(args, out, '--resource', 'cpu', '--root', qs,
                         '--up', '--threshold', '0'))
        down = rows(report(args, out, '--resource', 'cpu', '--root', 'main',
                           '--down', '--threshold', '0'))
        u = frac(up, 'up', 'uniquify_db', qs)
        p = frac(up, 'up', 'print_salary_stats', qs)
        du = frac(down, 'down', 'main', 'uniquify_db')
        dp = frac(down, 'down', 'main', 'print_salary_stats')
        shares.append((u / (u + p), du / (du + dp),
                       frac(fn, 'function', 'uniquify_db') /
                       frac(fn, 'function', 'main')))
        qu = phase['qsort_in_uniquify_db']
        measured.append((phase['uniquify_db'] /
                         (phase['uniquify_db'] + phase['print_salary_stats']),
                         phase['uniquify_db'] / phase['main'],
                         qu / (qu + phase['qsort_in_print_salary_stats'])))
    med = [statistics.median(s[i] for s in shares) for i in range(3)]
    want = [statistics.median(m[i] for m in measured) for i in range(3)]
    # The up view holds the qsort calls only; the down view the whole of
    # each function (the phase).
    ok = check('up: (uniquify_db qsort) share of the two qsort paths',
               med[0], want[2])
    ok &= check('down: (main uniquify_db) share of the two paths', med[1],
                want[0])
    ok &= check('function uniquify_db / main', med[2], want[1], 0.04)
    ok &= check('the two paths differ widely', med[0], 0.75, 0.15)
    return ok


def recursive_test(args, workdir):
    # Every level of rec() does the same work: walk_a -> rec x12,
    # walk_b -> rec x4. A function counts once per sample however often it
    # is on the stack, so rec is 1.0 (not 1.0 x depth).
    q = [('function', None, ['rec']), ('function', None, ['walk_a']),
         ('function', None, ['walk_b']),
         ('down', 'rec', ['rec', 'rec']), ('down', 'rec', ['rec', 'work']),
         ('up', 'rec', ['walk_a', 'rec']), ('up', 'rec', ['rec', 'rec']),
         ('down', 'walk_a', ['walk_a', 'rec', 'rec'])]
    r, a, b, rr, rw, ua, urr, war = median_of(args, 'cp_recursive', 'cpu',
                                              'cpu', q, workdir)
    ok = check('function rec (once per sample)', r, 1.0, 0.01)
    ok &= check('function walk_a', a / r, 0.75)
    ok &= check('function walk_b', b / r, 0.25)
    ok &= check('down (rec rec): two or more levels', rr / r, 14 / 16)
    ok &= check('down (rec work)', rw / r, 1.0, 0.01)
    ok &= check('up (walk_a rec)', ua / r, 0.75)
    ok &= check('up (rec rec)', urr / r, 14 / 16)
    ok &= check('down (walk_a rec rec): 11 of walk_a\'s 12 levels', war / r,
                0.75 * 11 / 12)
    return ok


def context_switches_test(args, workdir):
    # 250 sleeps in path_a, 750 in path_b: one switch each. All resources
    # at once, with small periods: no sleep may return EINTR.
    q = [('function', None, ['path_a']), ('function', None, ['path_b']),
         ('up', 'path_b', ['main', 'path_b'])]
    runs = []
    ok = True
    for i in range(RUNS):
        out, stdout = run_program(args, 'cp_sleep',
                                  'csw:4,cpu:100000,minflt:1', workdir,
                                  f'sleep{i}')
        ok &= check(f'run {i}: sleeps cut short (EINTR)',
                    float(re.search(r'eintr (\d+)', stdout).group(1)), 0, 0)
        vals = []
        for kind, root, path in q:
            opts = ['--resource', 'csw', '--threshold', '0']
            if kind != 'function':
                opts += ['--root', root, '--' + kind]
            vals.append(frac(rows(report(args, out, *opts)), kind, *path))
        runs.append(vals)
    a, b, ub = [statistics.median(r[i] for r in runs) for i in range(3)]
    ok &= check('csw path_a + path_b of all', a + b, 0.98, 0.025)
    ok &= check('csw path_b share of the pair', b / (a + b), 0.75)
    ok &= check('up (main path_b) = function path_b', ub, b, 0.001)
    return ok


def frame_pointer_notice_test(args, workdir):
    # The same program built with frame pointers (cp_sleep) and without
    # (cp_sleep_omitfp, coz-cc's default): csw call paths walk frame
    # pointers, so only the second draws the notice, and only with csw on.
    ok = True
    for name, spec, want in (('cp_sleep_omitfp', 'csw:4', 1),
                             ('cp_sleep', 'csw:4', 0),
                             ('cp_sleep_omitfp', 'cpu,wall', 0)):
        env = dict(os.environ, COZ_CALLPATH=spec, COZ_VERBOSE='1',
                   COZ_CALLPATH_OUTPUT=os.path.join(workdir, 'fp.callpath'),
                   COZ_OUTPUT=os.path.join(workdir, 'profile.coz'))
        env.pop('COZ_QUIET', None)
        p = subprocess.run([os.path.join(args.bindir, name)], env=env,
                           cwd=workdir, capture_output=True, text=True,
                           timeout=240)
        if p.returncode != 0:
            sys.exit(f'FAIL: {name} exited {p.returncode}: {p.stderr}')
        seen = [ln for ln in p.stderr.splitlines()
                if 'omit frame pointers' in ln]
        ok &= check(f'{name} with {spec}: notice lines', len(seen), want, 0)
        if seen:
            print(f'     {seen[0]}')
    return ok


def periodic_write_test(args, workdir):
    # The program aborts (no exit handler runs) after the periodic write.
    out = os.path.join(workdir, 'crash.callpath')
    env = dict(os.environ, COZ_CALLPATH='read:4096', COZ_CALLPATH_OUTPUT=out,
               COZ_QUIET='1', COZ_OUTPUT=os.path.join(workdir, 'p.coz'))
    p = subprocess.run([os.path.join(args.bindir, 'cp_crash')], env=env,
                       cwd=workdir, capture_output=True, timeout=120)
    ok = check('the program aborted', float(p.returncode != 0), 1.0, 0)
    if not os.path.exists(out):
        print('FAIL no call-path file after the crash')
        return False
    text = report(args, out, '--resource', 'read')
    total = re.search(r'(\d+) bytes in all', text)
    ok &= check('bytes in the periodic block', float(total.group(1)) if total
                else 0.0, 1 << 20, 0)
    # Bytes after the last sample are in the total but on no stack: up to
    # 1.5 periods (6 KiB of 1 MiB).
    ok &= check('function reader', frac(rows(text), 'function', 'reader'),
                1.0, 0.006)
    return ok


# A hand-made file: two delta blocks (totals 60 + 40 = 100 units) whose
# stacks are chosen so that every number below follows from the seed's
# appendix by hand (see docs/callpath.md, Report).
HANDMADE = """callpath\tversion=1\tpid=1\ttime=0
resource\tpid=1\tname=cpu\tunit=ns\tperiod=10\tsamples=6\ttotal=60\tdropped=0
object\tpid=1\tid=0\tpath=/x\tbuild-id=-
stack\tpid=1\tresource=cpu\tsamples=4\tweight=40\tframes=main@0+0x1;f@0+0x2;g@0+0x3;f@0+0x2;h@0+0x4
stack\tpid=1\tresource=cpu\tsamples=2\tweight=20\tframes=main@0+0x1;f@0+0x2;g@0+0x3
callpath\tversion=1\tpid=1\ttime=1
resource\tpid=1\tname=cpu\tunit=ns\tperiod=10\tsamples=4\ttotal=40\tdropped=0
stack\tpid=1\tresource=cpu\tsamples=1\tweight=10\tframes=main@0+0x1;f@0+0x2;g@0+0x3
stack\tpid=1\tresource=cpu\tsamples=2\tweight=20\tframes=main@0+0x1;x@0+0x5
stack\tpid=1\tresource=cpu\tsamples=1\tweight=10\tframes=f@0+0x2;y@0+0x6
"""

EXPECTED = {
    ('body', None): {('h',): 0.4, ('g',): 0.3, ('x',): 0.2, ('y',): 0.1},
    ('function', None): {('main',): 0.9, ('f',): 0.8, ('g',): 0.7,
                         ('h',): 0.4, ('x',): 0.2, ('y',): 0.1},
    ('down', 'main'): {('main',): 0.9, ('main', 'f'): 0.7,
                       ('main', 'f', 'g'): 0.7, ('main', 'f', 'g', 'f'): 0.4,
                       ('main', 'f', 'h'): 0.4, ('main', 'x'): 0.2},
    ('down', 'f'): {('f',): 0.8, ('f', 'g'): 0.7, ('f', 'g', 'f'): 0.4,
                    ('f', 'h'): 0.4, ('f', 'y'): 0.1},
    ('up', 'f'): {('f',): 0.8, ('main', 'f'): 0.7, ('g', 'f'): 0.4,
                  ('f', 'g', 'f'): 0.4},
    ('up', 'h'): {('h',): 0.4, ('f', 'h'): 0.4, ('g', 'f', 'h'): 0.4,
                  ('f', 'g', 'f', 'h'): 0.4, ('main', 'f', 'h'): 0.4},
}


def report_algorithm_test(args, workdir):
    path = os.path.join(workdir, 'hand.callpath')
    with open(path, 'w') as f:
        f.write(HANDMADE)
    ok = True
    for (kind, root), want in EXPECTED.items():
        opts = ['--threshold', '0'] + (['--body'] if kind == 'body' else [])
        if root:
            opts += ['--root', root, '--' + kind]
        got = {k: v[0] for k, v in rows(report(args, path, *opts))
               .get(kind, {}).items()}
        good = got.keys() == want.keys() and all(
            abs(got[k] - want[k]) < 1e-9 for k in want)
        print(f'{"ok  " if good else "FAIL"} {kind} {root or ""}: {got}')
        ok &= good
    return ok


def own_io_function_test(args, workdir):
    exe = os.path.join(workdir, 'own_send')
    src = os.path.join(os.path.dirname(__file__), 'progs', 'cp_own_send.c')
    p = subprocess.run([args.driver, '-O2', src, '-o', exe],
                       capture_output=True, text=True)
    if p.returncode != 0:
        print(f'FAIL a program defining send() does not link: {p.stderr}')
        return False
    r = subprocess.run([exe], capture_output=True, text=True,
                       env=dict(os.environ, COZ_CALLPATH='write',
                                COZ_QUIET='1'), cwd=workdir)
    good = r.returncode == 0 and r.stdout.strip() == 'send 2'
    print(f'{"ok  " if good else "FAIL"} its own send() runs: {r.stdout!r}')
    return good


def pthread_exit_main_test(args, workdir):
    out = os.path.join(workdir, 'pe.callpath')
    env = dict(os.environ, COZ_CALLPATH='cpu,csw,read', COZ_QUIET='1',
               COZ_CALLPATH_OUTPUT=out,
               COZ_OUTPUT=os.path.join(workdir, 'pe.coz'))
    try:
        p = subprocess.run([os.path.join(args.bindir, 'cp_pthread_exit')],
                           env=env, cwd=workdir, capture_output=True,
                           text=True, timeout=60)
    except subprocess.TimeoutExpired:
        print('FAIL the process outlived its last application thread')
        return False
    good = p.returncode == 0 and 'worker done' in p.stdout and \
        os.path.exists(out) and 'resource\t' in open(out).read()
    print(f'{"ok  " if good else "FAIL"} exit status {p.returncode}, '
          f'call-path file written')
    return good


def altstack_test(args, workdir):
    ok = True
    for i in range(RUNS):
        env = dict(os.environ, COZ_CALLPATH='cpu:100000,minflt:1',
                   COZ_QUIET='1',
                   COZ_CALLPATH_OUTPUT=os.path.join(workdir, 'alt.callpath'),
                   COZ_OUTPUT=os.path.join(workdir, 'alt.coz'))
        p = subprocess.run([os.path.join(args.bindir, 'cp_altstack')],
                           env=env, cwd=workdir, capture_output=True,
                           text=True, timeout=60)
        good = p.returncode == 0
        print(f'{"ok  " if good else "FAIL"} run {i}: exit {p.returncode} '
              f'{p.stdout.strip()}')
        ok &= good
    return ok


def report_cli_test(args, workdir):
    """Bad inputs get one clear line; the threshold hides rows; the HTML
    page holds the icicle view."""
    out, _ = run_program(args, 'cp_io', 'read:4096', workdir, 'cli')
    ok = True
    bad = [(['--resource', 'heap'], 'no resource'),
           (['--root', 'no_such_fn'], 'on no sampled stack'),
           (['--down'], 'need --root'),
           (['--threshold', '2'], 'fraction from 0 to 1')]
    for opts, msg in bad:
        p = subprocess.run([args.report, 'callpath', *opts, out],
                           capture_output=True, text=True)
        good = p.returncode == 2 and msg in p.stderr and \
            len(p.stderr.strip().splitlines()) == 1
        print(f'{"ok  " if good else "FAIL"} {opts}: {p.stderr.strip()}')
        ok &= good
    missing = os.path.join(workdir, 'missing.callpath')
    p = subprocess.run([args.report, 'callpath', missing],
                       capture_output=True, text=True)
    good = p.returncode == 2 and 'COZ_CALLPATH' in p.stderr
    print(f'{"ok  " if good else "FAIL"} missing file: {p.stderr.strip()}')
    ok &= good
    text = report(args, out, '--threshold', '0.5')
    shown = rows(text).get('function', {})
    good = ('path_b',) in shown and ('path_a',) not in shown and \
        'below the threshold' in text
    print(f'{"ok  " if good else "FAIL"} threshold 0.5 hides path_a')
    ok &= good
    html = os.path.join(workdir, 'cp.html')
    report(args, out, '--html', html)
    page = open(html).read()
    good = '<svg' in page and 'path_b' in page and 'move_chunk' in page
    print(f'{"ok  " if good else "FAIL"} HTML icicle view')
    ok &= good
    # coz-report --html: the causal page gets the call-path view when a
    # call-path file sits beside the causal profile.
    prof = os.path.join(workdir, 'cli.coz')
    run = subprocess.run([os.path.join(args.bindir, 'cp_io')], cwd=workdir,
                         env=dict(os.environ, COZ_CALLPATH='write:4096',
                                  COZ_CALLPATH_OUTPUT=os.path.join(
                                      workdir, 'cli.callpath'),
                                  COZ_OUTPUT=prof, COZ_QUIET='1'),
                         capture_output=True, text=True)
    page = os.path.join(workdir, 'causal.html')
    subprocess.run([args.report, '--html', page, prof], capture_output=True,
                   text=True)
    text = open(page).read() if os.path.exists(page) else ''
    good = run.returncode == 0 and 'Call paths: write' in text and \
        'Call paths: read' in text and 'move_chunk' in text
    print(f'{"ok  " if good else "FAIL"} coz-report --html shows the '
          f'call paths beside the causal profile')
    ok &= good
    bad_env = subprocess.run(
        [os.path.join(args.bindir, 'cp_io')], cwd=workdir,
        env=dict(os.environ, COZ_CALLPATH='cpu,bogus', COZ_QUIET='1'),
        capture_output=True, text=True)
    lines = [l for l in bad_env.stderr.splitlines() if 'COZ_CALLPATH' in l]
    good = bad_env.returncode == 0 and len(lines) == 1 and 'bogus' in lines[0]
    print(f'{"ok  " if good else "FAIL"} bad COZ_CALLPATH: one line, program '
          f'runs: {lines}')
    ok &= good
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bindir', required=True)
    ap.add_argument('--report', required=True)
    ap.add_argument('--driver', required=True)
    ap.add_argument('test')
    args = ap.parse_args()
    tests = {
        'io_read': lambda w: io_test(args, w, 'read'),
        'io_write': lambda w: io_test(args, w, 'write'),
        'faults': lambda w: faults_test(args, w),
        'wall': lambda w: wall_test(args, w),
        'process_db': lambda w: process_db_test(args, w),
        'recursive': lambda w: recursive_test(args, w),
        'context_switches': lambda w: context_switches_test(args, w),
        'frame_pointer_notice': lambda w: frame_pointer_notice_test(args, w),
        'periodic_write': lambda w: periodic_write_test(args, w),
        'report_algorithm': lambda w: report_algorithm_test(args, w),
        'own_io_function': lambda w: own_io_function_test(args, w),
        'pthread_exit_main': lambda w: pthread_exit_main_test(args, w),
        'altstack': lambda w: altstack_test(args, w),
        'report_cli': lambda w: report_cli_test(args, w),
    }
    with tempfile.TemporaryDirectory() as w:
        ok = tests[args.test](w)
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
