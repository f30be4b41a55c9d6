#!/usr/bin/env python3
"""Call-path tests of the counted calls (docs/callpath.md): heap bytes and
stdio bytes, counted by calls the pass inserts after each allocation and
stdio call (contract/counted_calls.def), and the report's C++
names (which --coz-skip takes as they are printed). Same conventions and helpers as callpath.py: programs whose use of
the resource per call path is known by construction.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

from callpath import (check, frac, report, resource_total, rows, run_program,
                      sampled_runs)


def split_checks(label, medians, names):
    """The medians of split_queries(names) against 0.25 / 0.75."""
    a, b, da, db, ua, ub = medians
    pa, pb, leaf_a, leaf_b = names
    ok = check(f'{label}: function {pa}', a, 0.25)
    ok &= check(f'{label}: function {pb}', b, 0.75)
    ok &= check(f'{label}: down (main {pa} {leaf_a})', da, 0.25)
    ok &= check(f'{label}: down (main {pb} {leaf_b})', db, 0.75)
    ok &= check(f'{label}: up ({pa} {leaf_a})', ua, 0.25)
    ok &= check(f'{label}: up ({pb} {leaf_b})', ub, 0.75)
    return ok


def split_queries(names):
    """Function, down and up queries of a program whose path_a uses a
    quarter of the resource through leaf_a and path_b the rest through
    leaf_b."""
    pa, pb, leaf_a, leaf_b = names
    return [('function', None, [pa]), ('function', None, [pb]),
            ('down', 'main', ['main', pa, leaf_a]),
            ('down', 'main', ['main', pb, leaf_b]),
            ('up', leaf_a, [pa, leaf_a]), ('up', leaf_b, [pb, leaf_b])]


def exact_totals(label, runs, want):
    """Every run's resource total equals want(stdout of that run)."""
    ok = True
    for i, (_, total, stdout) in enumerate(runs):
        expected = want(stdout)
        good = total is not None and total == expected
        print(f'{"ok  " if good else "FAIL"} {label} run {i}: total {total}'
              f' (want exactly {expected})')
        ok &= good
    return ok


def tally(stdout):
    """The bytes a program says it allocated (`allocated N`)."""
    m = re.search(r'allocated (\d+)', stdout)
    return int(m.group(1)) if m else -1


# Periods are below the programs' allocation and write sizes, so nearly every call
# is sampled with its own bytes and fractions are close to exact.
HEAP_CXX = ('heap::Workload::path_a(int)', 'heap::Workload::path_b(int)',
            'heap::allocate_mix(int)', 'heap::allocate_mix(int)')


def heap_test(args, workdir):
    # C++: malloc, calloc, realloc, new, new[], nothrow and aligned new and
    # std::vector growth, N bytes on path_a, 3N on path_b; the total must
    # be exactly what the program asked for (nothing missed, nothing twice).
    runs = sampled_runs(args, 'cp_heap', 'heap:512', 'heap',
                        split_queries(HEAP_CXX), workdir)
    med = [statistics.median(r[0][i] for r in runs) for i in range(6)]
    ok = split_checks('heap', med, HEAP_CXX)
    ok &= exact_totals('heap', runs, tally)
    return ok


def heap_cxx_demangled_test(args, workdir):
    out, _ = run_program(args, 'cp_heap', 'heap:512', workdir, 'dm')
    text = report(args, out, '--resource', 'heap', '--threshold', '0')
    fn = rows(text).get('function', {})
    ok = True
    for name in ('heap::Workload::path_a(int)', 'heap::allocate_mix(int)'):
        good = (name,) in fn
        print(f'{"ok  " if good else "FAIL"} function profile shows {name}')
        ok &= good
    vec = [n[0] for n in fn if n[0].startswith('void std::vector<int')]
    good = bool(vec) and '_Z' not in text
    print(f'{"ok  " if good else "FAIL"} no mangled name left; the vector '
          f'growth shows as {vec[:1]}')
    ok &= good
    # --root takes the mangled name, the demangled one, or the demangled
    # one without its parameters: the same profile each time.
    downs = [report(args, out, '--resource', 'heap', '--threshold', '0',
                    '--root', root, '--down')
             for root in ('_ZN4heap8Workload6path_aEi',
                          'heap::Workload::path_a(int)',
                          'heap::Workload::path_a')]
    got = [frac(rows(d), 'down', 'heap::Workload::path_a(int)',
                'heap::allocate_mix(int)') for d in downs]
    good = got[0] > 0.2 and got.count(got[0]) == 3
    print(f'{"ok  " if good else "FAIL"} --root mangled, demangled, short: '
          f'{got}')
    ok &= good
    # JSON: frames carry the demangled name, and the mangled one when it
    # differs; fractions agree with the text.
    p = subprocess.run([args.report, 'callpath', '--json', '--resource',
                        'heap', '--threshold', '0', out],
                       capture_output=True, text=True)
    doc = json.loads(p.stdout) if p.returncode == 0 else {}
    frames, json_frac = {}, None
    for prof in doc.get('profiles', []):
        for row in prof['rows']:
            for f in row['path']:
                frames[f['name']] = f.get('mangled')
            if [f['name'] for f in row['path']] == [
                    'heap::Workload::path_a(int)']:
                json_frac = row['fraction']
    good = doc.get('schema') == 'coz-callpath/1' and \
        frames.get('heap::Workload::path_a(int)') == \
        '_ZN4heap8Workload6path_aEi' and 'main' in frames and \
        frames['main'] is None and json_frac is not None and \
        abs(json_frac - frac(rows(text), 'function',
                             'heap::Workload::path_a(int)')) < 1e-5
    print(f'{"ok  " if good else "FAIL"} JSON names, mangled names and '
          f'fractions ({json_frac})')
    ok &= good
    html = os.path.join(workdir, 'dm.html')
    report(args, out, '--resource', 'heap', '--html', html)
    page = open(html).read() if os.path.exists(html) else ''
    good = 'heap::Workload::path_b(int)' in page and \
        'std::vector&lt;int' in page and '_ZN4heap' not in page
    print(f'{"ok  " if good else "FAIL"} HTML icicle view with demangled '
          f'names')
    ok &= good
    return ok


def build(args, label, *cmd):
    p = subprocess.run(list(cmd), capture_output=True, text=True)
    if p.returncode != 0:
        print(f'FAIL {label}: {p.stderr}')
    return p.returncode == 0


def own_malloc_test(args, workdir):
    # The program defines malloc, calloc, realloc and free (-fno-builtin,
    # as allocators are built): it links, runs, and its own calls are
    # counted once each (its calloc calls its malloc inside).
    exe = os.path.join(workdir, 'own_malloc')
    src = os.path.join(os.path.dirname(__file__), 'progs', 'cp_own_malloc.c')
    if not build(args, 'a program defining malloc does not build',
                 args.driver, '-O2', '-fno-builtin', '-Wall', '-Wextra',
                 '-Werror', src, '-o', exe):
        return False
    names = ('path_a', 'path_b', 'allocate', 'allocate')
    runs = sampled_runs(args, exe, 'heap:512', 'heap', split_queries(names),
                        workdir)
    ok = True
    for i, (_, _, stdout) in enumerate(runs):
        m = re.search(r'allocated (\d+) served (\d+)', stdout)
        # 300 rounds of 3 allocate() calls of 3 blocks each.
        good = m is not None and int(m.group(1)) > 0 and \
            int(m.group(2)) >= 2700
        print(f'{"ok  " if good else "FAIL"} run {i}: its allocator ran: '
              f'{stdout.strip()}')
        ok &= good
    med = [statistics.median(r[0][i] for r in runs) for i in range(6)]
    ok &= split_checks('own malloc', med, names)
    ok &= exact_totals('own malloc', runs, tally)
    return ok


def heap_dso_test(args, workdir):
    # A library built with coz-cc: its counting calls reach the
    # executable's runtime (exported __coz_count_heap), not its fallbacks.
    progs = os.path.join(os.path.dirname(__file__), 'progs')
    lib = os.path.join(workdir, 'libcpheap.so')
    exe = os.path.join(workdir, 'heap_dso')
    if not (build(args, 'library', args.driver, '-O2', '-fPIC', '-shared',
                  os.path.join(progs, 'cp_heap_lib.c'), '-o', lib) and
            build(args, 'executable', args.driver, '-O2',
                  os.path.join(progs, 'cp_heap_dso.c'), lib,
                  f'-Wl,-rpath,{workdir}', '-o', exe)):
        return False
    q = [('function', None, ['exe_allocate']),
         ('function', None, ['lib_allocate'])]
    runs = sampled_runs(args, exe, 'heap:512', 'heap', q, workdir)
    e, lb = [statistics.median(r[0][i] for r in runs) for i in range(2)]
    ok = check('function exe_allocate', e, 0.25)
    ok &= check('function lib_allocate (in the library)', lb, 0.75)
    ok &= exact_totals('heap dso', runs, lambda _: 4000 * (1000 + 3000))
    return ok


def skip_lambda_test(args, workdir):
    # A lambda's name copied from the report is one --coz-skip accepts (the
    # pass demangles as the report does): built plainly, the lambda's bytes
    # are counted under that name; built with --coz-skip=<that name>, its
    # calls are not counted at all and only the enclosing function's are.
    src = os.path.join(os.path.dirname(__file__), 'progs',
                       'cp_skip_lambda.cpp')
    cxx = os.path.join(os.path.dirname(args.driver), 'coz-c++')
    plain = os.path.join(workdir, 'skip_plain')
    if not build(args, 'plain build', cxx, '-O2', '-Wall', '-Wextra',
                 '-Werror', src, '-o', plain):
        return False
    out, stdout = run_program(args, plain, 'heap:512', workdir, 'plain')
    m = re.search(r'fill (\d+) lambda (\d+)', stdout)
    own, by_lambda = (int(m.group(1)), int(m.group(2))) if m else (-1, -1)
    text = report(args, out, '--resource', 'heap', '--threshold', '0')
    names = [n[0] for n in rows(text).get('function', {}) if '{lambda' in n[0]]
    good = len(names) == 1 and resource_total(text) == own + by_lambda
    print(f'{"ok  " if good else "FAIL"} plain build: lambda shown as '
          f'{names}, {resource_total(text)} bytes (want {own + by_lambda})')
    if not good:
        return False
    skipped = os.path.join(workdir, 'skip_lambda')
    if not build(args, f'build with --coz-skip={names[0]}', cxx, '-O2',
                 f'--coz-skip={names[0]}', src, '-o', skipped):
        return False
    out, _ = run_program(args, skipped, 'heap:512', workdir, 'skipped')
    text = report(args, out, '--resource', 'heap', '--threshold', '0')
    good = resource_total(text) == own and '{lambda' not in text
    print(f'{"ok  " if good else "FAIL"} --coz-skip={names[0]}: '
          f'{resource_total(text)} bytes (want {own}, the lambda\'s uncounted)')
    return good


def stdio_test(args, workdir, resource):
    # 1 MiB through path_a, 3 MiB through path_b, nothing else: exactly
    # 4 MiB in all (libc's own read()/write() under stdio count nothing).
    if resource == 'write':
        names, argv = ('path_a', 'path_b', 'put_block', 'put_text'), ()
    else:
        names, argv = ('path_a', 'path_b', 'get_block', 'get_line'), ('read',)
    runs = sampled_runs(args, 'cp_stdio', f'{resource}:1024', resource,
                        split_queries(names), workdir, argv)
    med = [statistics.median(r[0][i] for r in runs) for i in range(6)]
    ok = split_checks(f'stdio {resource}', med, names)
    ok &= exact_totals(f'stdio {resource}', runs, lambda _: 4 << 20)
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bindir', required=True)
    ap.add_argument('--report', required=True)
    ap.add_argument('--driver', required=True)
    ap.add_argument('test')
    args = ap.parse_args()
    tests = {
        'heap': lambda w: heap_test(args, w),
        'heap_cxx_demangled': lambda w: heap_cxx_demangled_test(args, w),
        'own_malloc': lambda w: own_malloc_test(args, w),
        'heap_dso': lambda w: heap_dso_test(args, w),
        'skip_lambda': lambda w: skip_lambda_test(args, w),
        'stdio_write': lambda w: stdio_test(args, w, 'write'),
        'stdio_read': lambda w: stdio_test(args, w, 'read'),
    }
    with tempfile.TemporaryDirectory() as w:
        ok = tests[args.test](w)
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
