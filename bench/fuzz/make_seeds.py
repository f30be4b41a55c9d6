#!/usr/bin/env python3
"""Seed corpora for the runtime's fuzz targets, cut from real objects.

usage: make_seeds.py lines    OUT_DIR ELF...
       make_seeds.py eh-frame OUT_DIR ELF...
       make_seeds.py open     OUT_DIR [--debuglink STRIPPED DEBUG] ELF...
                              [--objcopy OBJCOPY]

lines:    one seed per unit of each object's .debug_line (with its
          .debug_line_str and .debug_str), in fuzz_lines.c's layout, both
          as a full decode and as a file-table pass.
eh-frame: each object's bytes from .eh_frame_hdr to the end of .eh_frame,
          in fuzz_eh_frame.c's layout.
open:     each object whole, in fuzz_dwarf_open.c's layout; with
          --debuglink, the stripped object is given a .gnu_debuglink to
          "obj.debug" (the name the fuzz target writes its second file
          under, objcopy computing the CRC) and the pair becomes one seed.
Objects that lack the sections are skipped; seeds over 64 KiB (the fuzz
runs' -max_len) are left out. OUT_DIR is emptied first; the script prints
how many seeds it wrote and fails when it wrote none.
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

MAX_SEED = 65536
SHF_COMPRESSED = 0x800
SHT_NOBITS = 8


def sections(path):
    """{name: (addr, file bytes)} of an ELF64 little-endian file, or {}."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return {}
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    heads = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
             for i in range(shnum)]
    names = heads[shstrndx][4]
    out = {}
    for name_off, typ, flags, addr, off, size in heads:
        end = data.index(b"\0", names + name_off)
        name = data[names + name_off:end].decode()
        body = b"" if typ == SHT_NOBITS else data[off:off + size]
        if flags & SHF_COMPRESSED and len(body) >= 24:
            body = zlib.decompress(body[24:])
        elif name.startswith(".zdebug_") and body[:4] == b"ZLIB":
            body = zlib.decompress(body[12:])
            name = "." + name[2:]
        out[name] = (addr, body)
    return out


def units(line):
    """(offset, bytes) of each unit of a .debug_line section."""
    off = 0
    while off + 4 <= len(line):
        length, = struct.unpack_from("<I", line, off)
        head = 4
        if length == 0xFFFFFFFF:
            length, = struct.unpack_from("<Q", line, off + 4)
            head = 12
        end = off + head + length
        if end > len(line):
            break
        yield line[off:end]
        off = end


def lines_seeds(path):
    secs = sections(path)
    line = secs.get(".debug_line", (0, b""))[1]
    line_str = secs.get(".debug_line_str", (0, b""))[1]
    strs = secs.get(".debug_str", (0, b""))[1]
    comp_dir = b"/build/fuzz"
    for unit in units(line):
        version, = struct.unpack_from("<H", unit, 4)
        ls, s = (line_str, strs) if version >= 5 else (b"", b"")
        for flags in (0, 1):
            head = struct.pack("<BHII", flags, len(comp_dir), len(ls), len(s))
            yield head + comp_dir + ls + s + unit


def eh_frame_seeds(path):
    secs = sections(path)
    if ".eh_frame_hdr" not in secs or ".eh_frame" not in secs:
        return
    (hdr_addr, hdr), (eh_addr, eh) = secs[".eh_frame_hdr"], secs[".eh_frame"]
    lo = min(hdr_addr, eh_addr)
    hi = max(hdr_addr + len(hdr), eh_addr + len(eh))
    seg = bytearray(hi - lo)
    seg[hdr_addr - lo:hdr_addr - lo + len(hdr)] = hdr
    seg[eh_addr - lo:eh_addr - lo + len(eh)] = eh
    for pc_seed in (0, 0x9E3779B9):
        yield struct.pack("<IIQ", hdr_addr - lo, pc_seed, lo) + bytes(seg)


def open_seed(obj, debug=b"", mode=0):
    return struct.pack("<BI", mode, len(obj)) + obj + debug


def open_seeds(path):
    with open(path, "rb") as f:
        obj = f.read()
    if obj[:4] == b"\x7fELF":
        for mode in (0, 3):
            yield open_seed(obj, mode=mode)


def debuglink_seeds(objcopy, stripped, debug):
    with tempfile.TemporaryDirectory() as tmp:
        dbg = os.path.join(tmp, "obj.debug")
        obj = os.path.join(tmp, "obj.so")
        shutil.copyfile(debug, dbg)
        subprocess.run([objcopy, "--remove-section=.gnu_debuglink",
                        "--add-gnu-debuglink=" + dbg, os.path.abspath(stripped),
                        obj],
                       check=True, cwd=tmp)
        with open(obj, "rb") as f, open(dbg, "rb") as g:
            pair = (f.read(), g.read())
    for mode in (0, 1):
        yield open_seed(pair[0], pair[1], mode)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=["lines", "eh-frame", "open"])
    ap.add_argument("out")
    ap.add_argument("objects", nargs="*")
    ap.add_argument("--debuglink", nargs=2, metavar=("STRIPPED", "DEBUG"))
    ap.add_argument("--objcopy", default="objcopy")
    args = ap.parse_args()
    make = {"lines": lines_seeds, "eh-frame": eh_frame_seeds,
            "open": open_seeds}[args.kind]
    seeds = {}
    for path in args.objects:
        if not os.path.exists(path):
            continue  # an optional system object
        for seed in make(path):
            seeds.setdefault(seed, path)
    if args.debuglink:
        for seed in debuglink_seeds(args.objcopy, *args.debuglink):
            seeds.setdefault(seed, args.debuglink[0])
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    written = 0
    for i, seed in enumerate(s for s in seeds if len(s) <= MAX_SEED):
        with open(os.path.join(args.out, "seed-%03d" % i), "wb") as f:
            f.write(seed)
        written += 1
    print("make_seeds.py: %d %s seeds in %s" % (written, args.kind, args.out))
    if written == 0:
        sys.exit("make_seeds.py: no seed: none of the objects has the "
                 "sections (build the tree's test objects first)")


if __name__ == "__main__":
    main()
