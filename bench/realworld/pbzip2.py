#!/usr/bin/env python3
"""Case study: Debian's pbzip2 1.1.13 (C++, a pipeline of threads: a
reader, -p compressor threads calling libbz2, a writer), with libbz2
built from Debian's bzip2 1.0.8 source and linked in statically, so that
the profile sees where the compressor spends its time.

Both built with their own Makefiles: bzip2's `make libbz2.a CC=coz-cc
CFLAGS=...`, then pbzip2's own static target, which links the libbz2.a
put beside its source: `make pbzip2-static CXX=coz-c++ CXXFLAGS="-O2 -g
-Wno-reserved-user-defined-literal"` (the warning flag is needed by plain
clang++ too). The load compresses a generated text file of INPUT_MB MB
with -p2; progress point: one block compressed (the consumer's line after
BZ2_bzBuffToBuffCompress).

    bench/realworld/pbzip2.py --bin build/bin [study options, see study.py]

make_pbzip2(), make_input() and progress_line() are also used by the
reliability test test/reliability/pbzip2_check.py.
"""

import random
import shutil
from pathlib import Path

import study
from measure import Runnable
import benchlib as bl

INPUT_MB = 120
THREADS = 2
WARNING = "-Wno-reserved-user-defined-literal"


def make_pbzip2(src: Path, cxx: str, cxxflags: str, jobs=2,
                target="pbzip2") -> Path:
    """pbzip2's own Makefile (target pbzip2-static: with the libbz2.a and
    bzlib.h in SRC); returns the executable."""
    bl.run(["make", f"-j{jobs}", "-C", str(src), f"CXX={cxx}",
            f"CXXFLAGS={cxxflags} {WARNING}", target], timeout=900)
    return src / "pbzip2"


def make_libbz2(bzip2: Path, cc: str, cflags: str, into: Path, jobs=2):
    """libbz2.a from bzip2's own Makefile (with its large-file flag), and
    its header, put in INTO."""
    bl.run(["make", f"-j{jobs}", "-C", str(bzip2), f"CC={cc}",
            f"CFLAGS={cflags} -D_FILE_OFFSET_BITS=64", "libbz2.a"],
           timeout=900)
    for f in ("libbz2.a", "bzlib.h"):
        shutil.copy(bzip2 / f, into / f)


def progress_line(source: Path) -> int:
    """The progress point: the consumer's line after compressing a block."""
    return study.find_line(source, r"disposeMemory\(fileData->buf\);",
                           after=r"^void \*consumer \(void \*q\)")


def maingtu_lines(b) -> str:
    """A Change's locator: blocksort.c's suffix comparison, all of it (the
    change rewrites the function: its cost is the function's), with the
    helper the change adds in front of it."""
    path = b.src / "bzip2" / "blocksort.c"
    text = path.read_text()
    first = study.find_line(path, r"blockWord \( const UChar\* p \)$") \
        if "blockWord" in text else study.find_line(path, r"^Bool mainGtU")
    last = study.find_line(path, r"^   return False;$",
                           after=r"^Bool mainGtU") + 1
    return f"blocksort.c:{first}-{last}"


def make_input(path: Path, megabytes: int, seed=1) -> Path:
    """A log-like text file (timestamps, hosts, words drawn from a skewed
    vocabulary): it compresses like text, about 4:1, and is not so
    repetitive that libbz2 falls back to its slow sort. Made once."""
    size = megabytes << 20
    if path.exists() and path.stat().st_size == size:
        return path
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    vocab = ["".join(rng.choices(letters, k=rng.randint(2, 10)))
             for _ in range(5000)]
    weights = [1 / (i + 1) for i in range(len(vocab))]
    path.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with open(path, "wb") as out:
        while written < size:
            words = rng.choices(vocab, weights, k=20000)
            lines = []
            for i in range(0, len(words), 10):
                t = rng.randrange(86400)
                lines.append(f"2024-03-{1 + t % 28:02d} {t // 3600:02d}:"
                             f"{t // 60 % 60:02d}:{t % 60:02d} "
                             f"host{rng.randrange(64)} "
                             f"{' '.join(words[i:i + 10])} "
                             f"id={rng.randrange(10 ** 6)}\n")
            chunk = "".join(lines).encode()[:size - written]
            out.write(chunk)
            written += len(chunk)
    return path


class Pbzip2(study.Program):
    name = "pbzip2"
    title = (f"pbzip2 -p{THREADS} with libbz2: compressing {INPUT_MB} MB "
             "of text")
    package = "pbzip2"
    sources = {"bzip2": "bzip2"}
    changes = [
        study.Change(
            "maingtu-words", "pbzip2-maingtu-words.patch",
            "libbz2's suffix comparison (mainGtU) compares 8 bytes of the "
            "block at a time, and then the quadrants up to the first byte "
            "that differs, instead of byte by byte",
            before=maingtu_lines, after=maingtu_lines),
    ]

    def progress(self, b):
        path = b.src / "pbzip2.cpp"
        return path, progress_line(path)

    def build(self, b, progress_flags):
        # the progress point is pbzip2's: libbz2 is built without it
        make_libbz2(b.src / "bzip2", b.cc, b.cflags, b.src, b.jobs)
        return make_pbzip2(b.src, b.cxx, f"{b.cflags} {progress_flags}",
                           b.jobs, "pbzip2-static")

    def load(self, exe, scratch):
        data = make_input(scratch / "input.txt", INPUT_MB)
        # -k keeps the input, -f replaces the last run's input.txt.bz2
        return Runnable([exe, f"-p{THREADS}", "-k", "-f", data])

    def check_output(self, b, exe, scratch):
        """Every build's output is the plain build's, byte for byte."""
        data = make_input(scratch / "check.txt", 8, seed=2)
        bl.run([str(exe), f"-p{THREADS}", "-k", "-f", str(data)],
               env={"COZ_OFF": "1"})
        out = data.with_suffix(".txt.bz2").read_bytes()
        ref = scratch / "check.ref"
        if b.name == "plain-0":
            ref.write_bytes(out)
        elif not ref.exists() or ref.read_bytes() != out:
            bl.die(f"{b.name}: pbzip2's output differs from the plain "
                   "build's")


if __name__ == "__main__":
    study.main(Pbzip2())
