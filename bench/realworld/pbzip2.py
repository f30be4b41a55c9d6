#!/usr/bin/env python3
"""Case study: Debian's pbzip2 1.1.13 (C++, a pipeline of threads: a
reader, -p compressor threads calling libbz2, a writer).

Built with its own Makefile, as issue 25 reports a user would:
`make CXX=coz-c++ CXXFLAGS="-O2 -g -Wno-reserved-user-defined-literal"`
(the warning flag is needed by plain clang++ too). The load compresses a
generated text file of INPUT_MB MB with -p2; progress point: one block
compressed (the consumer's line after BZ2_bzBuffToBuffCompress).

    bench/realworld/pbzip2.py --bin build/bin [study options, see study.py]

make_pbzip2(), make_input() and progress_line() are also used by the
reliability test test/reliability/pbzip2_check.py.
"""

import random
from pathlib import Path

import study
from measure import Runnable
import benchlib as bl

INPUT_MB = 120
THREADS = 2
WARNING = "-Wno-reserved-user-defined-literal"


def make_pbzip2(src: Path, cxx: str, cxxflags: str, jobs=2) -> Path:
    """pbzip2's own Makefile; returns the executable."""
    bl.run(["make", f"-j{jobs}", "-C", str(src), f"CXX={cxx}",
            f"CXXFLAGS={cxxflags} {WARNING}"], timeout=900)
    return src / "pbzip2"


def progress_line(source: Path) -> int:
    """The progress point: the consumer's line after compressing a block."""
    return study.find_line(source, r"disposeMemory\(fileData->buf\);",
                           after=r"^void \*consumer \(void \*q\)")


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
    title = f"pbzip2 -p{THREADS}: compressing {INPUT_MB} MB of text"
    package = "pbzip2"
    packages = ["libbz2-dev"]
    changes = []

    def progress(self, b):
        path = b.src / "pbzip2.cpp"
        return path, progress_line(path)

    def build(self, b, progress_flags):
        return make_pbzip2(b.src, b.cxx, f"{b.cflags} {progress_flags}",
                           b.jobs)

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
