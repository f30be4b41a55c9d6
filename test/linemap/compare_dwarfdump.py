#!/usr/bin/env python3
"""Checks the line map's DWARF reader against llvm-dwarfdump.

Usage: compare_dwarfdump.py DUMP_LINES LLVM_DWARFDUMP ELF-FILE...
For every row of every line-table sequence that llvm-dwarfdump prints
(line != 0, covering at least one byte), the range dump_lines reports at
that address must name the same line and a path ending with the row's
file name (joined with its directory). Fails on any mismatch, or when a
file yields no row at all."""
import bisect
import os
import re
import subprocess
import sys

ROW = re.compile(r'0x([0-9a-f]{16})\s+(\d+)\s+\d+\s+(\d+)\s+\d+\s+\d+\s*(.*)')


def our_ranges(dump, elf):
    out = subprocess.run([dump, elf], check=True, capture_output=True,
                         text=True).stdout
    ranges = []
    for line in out.splitlines():
        lo, hi, name = line.split(' ', 2)
        ranges.append((int(lo, 16), int(hi, 16), name))
    ranges.sort()
    return ranges


def reference_rows(dwarfdump, elf):
    """Yields (address, path, line) for every row with code."""
    out = subprocess.run([dwarfdump, '--debug-line', elf], check=True,
                         capture_output=True, text=True).stdout
    version, dirs, files, seq = 0, [], [], []
    for text in out.splitlines():
        m = re.match(r'\s*version: (\d+)', text)
        if m:
            version, dirs, files = int(m.group(1)), [], []
            continue
        m = re.match(r'include_directories\[\s*\d+\] = "(.*)"', text)
        if m:
            dirs.append(m.group(1))
            continue
        if re.match(r'file_names\[\s*\d+\]:', text):
            files.append(['', 0])
            continue
        m = re.match(r'\s+name: "(.*)"', text)
        if m and files:
            files[-1][0] = m.group(1)
            continue
        m = re.match(r'\s+dir_index: (\d+)', text)
        if m and files:
            files[-1][1] = int(m.group(1))
            continue
        m = ROW.match(text)
        if not m:
            continue
        seq.append((int(m.group(1), 16), int(m.group(2)), int(m.group(3))))
        if 'end_sequence' not in m.group(4):
            continue
        for (addr, line, fileno), nxt in zip(seq, seq[1:]):
            index = fileno if version >= 5 else fileno - 1
            if line == 0 or nxt[0] <= addr or not 0 <= index < len(files):
                continue
            name, d = files[index]
            # Before DWARF 5 directory 0 is the unit's (not listed).
            dirname = dirs[d] if version >= 5 else (dirs[d - 1] if d else '')
            path = name if name.startswith('/') or not dirname else \
                dirname + '/' + name
            yield addr, os.path.normpath(path), line
        seq = []


def main():
    dump, dwarfdump, elfs = sys.argv[1], sys.argv[2], sys.argv[3:]
    failed = False
    for elf in elfs:
        ranges = our_ranges(dump, elf)
        starts = [r[0] for r in ranges]
        rows = bad = 0
        for addr, path, line in reference_rows(dwarfdump, elf):
            rows += 1
            k = bisect.bisect_right(starts, addr) - 1
            got = ranges[k][2] if k >= 0 and addr < ranges[k][1] else None
            ok = got is not None
            if ok:
                got_file, got_line = got.rsplit(':', 1)
                ok = int(got_line) == line and (
                    got_file == path or got_file.endswith('/' + path.lstrip('./')))
            if not ok:
                bad += 1
                if bad <= 5:
                    print(f'{elf}: {addr:#x} is {path}:{line}, we say {got}')
        print(f'{elf}: {rows} rows, {bad} mismatches')
        failed |= bad > 0 or rows == 0
    return 1 if failed else 0


sys.exit(main())
