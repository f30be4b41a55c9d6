#!/usr/bin/env python3
"""Case study: Debian's leveldb 1.23 (C++), its own db_bench reading a
database from two threads at once.

Built through its own CMake build (`cmake -DLEVELDB_BUILD_TESTS=OFF`,
`make db_bench`) with CXX=clang++ or CXX=coz-c++. The load: db_bench
readrandom, 2 threads, each doing READS random point reads of a database
of KEYS keys that is made once (fillrandom, then compacted, so that reads
change nothing in it) and kept in the scratch directory. Progress point:
one read done, ReadRandom's line after DB::Get, given with --coz-progress.

    bench/realworld/leveldb.py --bin build/bin [study options, see study.py]
"""

import re
from pathlib import Path

import study
from measure import Runnable
import benchlib as bl

THREADS = 2
KEYS = 1000000
READS = 1000000   # per thread; ~2 s for the plain build on 2 cores
CHECK_READS = 20000

def decode_entry_line(b: study.Build) -> str:
    """A Change's line locator: DecodeEntry's first read of an entry, where
    the binary search over a block's restart points waits on memory (the
    first line of the original program's profile)."""
    no = study.find_line(b.src / "table" / "block.cc",
                         r"\*shared = reinterpret_cast",
                         after=r"static inline const char\* DecodeEntry")
    return f"block.cc:{no}"


class Leveldb(study.Program):
    name = "leveldb"
    title = (f"leveldb db_bench readrandom: {THREADS} threads, "
             f"{READS} reads each of {KEYS} keys")
    package = "leveldb"
    # db_bench links gtest/gmock (Debian's 0120-external_testing.patch)
    packages = ["cmake", "libgtest-dev", "libgmock-dev"]
    changes = [
        study.Change(
            "seek-prefetch", "leveldb-seek-prefetch.patch",
            "Block::Iter::Seek's binary search asks for the entries of both "
            "possible next probes before comparing the current one",
            before=decode_entry_line, after=decode_entry_line,
            # the prefetches are new lines of Seek, which has DecodeEntry
            # inlined: the whole file says what the change saved
            region=lambda b: ("block.cc", None)),
    ]

    def progress(self, b):
        path = b.src / "benchmarks" / "db_bench.cc"
        return path, study.find_line(
            path, r"thread->stats\.FinishedSingleOp\(\);",
            after=r"void ReadRandom\(ThreadState\* thread\)")

    def build(self, b, progress_flags):
        obj = b.dir / "obj"
        obj.mkdir(parents=True, exist_ok=True)
        # The optional libraries are switched off, so that a machine that
        # has libsnappy-dev (compressed blocks) or libcrc32c-dev runs the
        # same workload as one that has not: all of it leveldb's own code.
        bl.run(["cmake", str(b.src), "-DCMAKE_BUILD_TYPE=None",
                f"-DCMAKE_C_COMPILER={b.cc}", f"-DCMAKE_CXX_COMPILER={b.cxx}",
                f"-DCMAKE_C_FLAGS={b.cflags}",
                f"-DCMAKE_CXX_FLAGS={b.cflags} {progress_flags}",
                "-DLEVELDB_BUILD_TESTS=OFF", "-DHAVE_SNAPPY=0",
                "-DHAVE_CRC32C=0", "-DHAVE_TCMALLOC=0"], cwd=obj, timeout=900)
        bl.run(["make", f"-j{b.jobs}", "db_bench"], cwd=obj, timeout=3600)
        return obj / "db_bench"

    def database(self, exe, scratch) -> Path:
        """The database the reads use, made once by the first build that
        asks (every build writes the same one: fixed seeds) and compacted,
        so that no read triggers a compaction and every run reads the same
        files."""
        db = scratch / "db"
        done = scratch / "db.done"
        if not done.exists():
            bl.run([str(exe), f"--db={db}", f"--num={KEYS}",
                    "--benchmarks=fillrandom,compact"], env={"COZ_OFF": "1"},
                   timeout=900)
            done.write_text(f"{KEYS}\n")
        return db

    def _argv(self, exe, scratch, reads):
        return [exe, f"--db={self.database(exe, scratch)}",
                "--use_existing_db=1", f"--threads={THREADS}",
                f"--num={KEYS}", f"--reads={reads}",
                "--benchmarks=readrandom"]

    def load(self, exe, scratch):
        return Runnable(self._argv(exe, scratch, READS))

    def check_output(self, b, exe, scratch):
        """Every build finds the same keys as the plain build."""
        p = bl.run([str(a) for a in self._argv(exe, scratch, CHECK_READS)],
                   env={"COZ_OFF": "1"})
        found = re.search(r"\((\d+) of \d+ found\)", p.stdout)
        if not found:
            bl.die(f"{b.name}: db_bench printed no readrandom result:\n"
                   f"{p.stdout}")
        ref = scratch / "check.ref"
        if b.name == "plain-0":
            ref.write_text(found.group(1))
        elif not ref.exists() or ref.read_text() != found.group(1):
            bl.die(f"{b.name}: db_bench found {found.group(1)} keys, the "
                   "plain build another number")


if __name__ == "__main__":
    study.main(Leveldb())
