#!/usr/bin/env python3
"""Case study: Debian's SQLite (sqlite3 3.40.1) under a multithreaded load.

SQLite is built through its own build system (`configure --disable-tcl`,
`make libsqlite3.la`, the amalgamation sqlite3.c compiled into the library)
with CC=clang or CC=coz-cc; the load is sqlite_inserts.c (two threads, each
inserting rows into its own database, one transaction per insert), linked
against the static library and compiled with the same compiler. Progress
point: one insert done, given with --coz-progress on the workload's line.

    bench/realworld/sqlite.py --bin build/bin [study options, see study.py]
"""

from pathlib import Path

import study
from measure import Runnable
import benchlib as bl

THREADS = 2
ROWS = 2000000  # in all; ~2-5 s for the plain build on 2 cores
CHECK_ROWS = 20000
WORKLOAD = "sqlite_inserts.c"


def amalgamation_line(pattern):
    """A Change's line locator: file:line of pattern in the build's
    generated sqlite3.c (the file its debug info names)."""
    def locate(b: study.Build):
        path = b.dir / "obj" / "sqlite3.c"
        return f"sqlite3.c:{study.find_line(path, pattern)}"
    return locate


# The first line of the original program's profile: sqlite3_mutex_enter's
# indirect call of the mutex method (pthread_mutex_lock).
MUTEX_ENTER = amalgamation_line(
    r"sqlite3GlobalConfig\.mutex\.xMutexEnter\(p\);")


class Sqlite(study.Program):
    name = "sqlite"
    title = (f"SQLite: {THREADS} threads inserting {ROWS} rows, each into "
             "its own database")
    package = "sqlite3"
    packages = ["tcl"]  # SQLite's make joins the amalgamation with tclsh
    extra_files = [WORKLOAD]
    changes = [
        study.Change(
            "memstatus", "sqlite-memstatus.patch",
            "memory statistics off by default: no global mutex around "
            "every sqlite3_malloc/sqlite3_free",
            before=MUTEX_ENTER, after=MUTEX_ENTER),
    ]

    def progress(self, b):
        path = b.src / WORKLOAD
        return path, study.find_line(path, r"one insert done")

    def build(self, b, progress_flags):
        obj = b.dir / "obj"
        obj.mkdir(parents=True, exist_ok=True)
        bl.run([str(b.src / "configure"), "--disable-tcl", f"CC={b.cc}",
                f"CFLAGS={b.cflags}"], cwd=obj, timeout=900)
        bl.run(["make", f"-j{b.jobs}", "libsqlite3.la"], cwd=obj,
               timeout=3600)
        exe = obj / "sqlite_inserts"
        bl.run([b.cc, *b.cflags.split(), *progress_flags.split(), "-Wall",
                "-Wextra", "-Werror", "-I", str(obj), str(b.src / WORKLOAD),
                str(obj / ".libs" / "libsqlite3.a"), "-lpthread", "-lm",
                "-ldl", "-o", str(exe)])
        return exe

    def load(self, exe, scratch):
        return Runnable([exe, THREADS, ROWS, scratch])

    def check_output(self, b, exe, scratch):
        p = bl.run([str(exe), str(THREADS), str(CHECK_ROWS), str(scratch)],
                   env={"COZ_OFF": "1"})
        if f"rows={CHECK_ROWS}" not in p.stdout:
            bl.die(f"{b.name}: the workload inserted the wrong number of "
                   f"rows:\n{p.stdout}")


if __name__ == "__main__":
    study.main(Sqlite())
