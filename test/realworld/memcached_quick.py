#!/usr/bin/env python3
"""The CI subset of the real-world studies (ctest -L realworld-quick):
Debian's memcached built with coz-cc through its own configure, profiled
under a short memcaslap load, then stopped with SIGINT.

It fails (exit 1, one line per problem) unless:
  * the source fetches and memcached's configure and make (with its own
    -Werror) succeed with CC=coz-cc and --coz-progress in CFLAGS;
  * the server runs the load, prints nothing (a profiled program looks
    like the plain build), and on SIGINT exits with status 0 within 10 s,
    leaving no process of its build behind;
  * the profile holds exactly one run with its `startup` and `shutdown`
    records and experiments in which the progress point advanced, and
    coz-report reads it without a malformed record.
Packages it needs and lacks are installed with apt (root or sudo).

usage: memcached_quick.py --bin BUILD/bin --work DIR [--seconds 12]
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" /
                       "realworld"))
import memcached as mc  # noqa: E402
import profiling  # noqa: E402
from study import bl  # noqa: E402


def processes_of(exe: Path):
    """PIDs of the processes running EXE."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.readlink(entry / "exe") == str(exe):
                    pids.append(int(entry.name))
            except OSError:
                pass
    return pids


def profile_problems(profile: Path, point: str, tc):
    """(what is wrong with the profile of one run, the experiments in which
    the point advanced, all experiments)."""
    if not profile.exists():
        return ["no profile was written"], 0, 0
    kinds, advanced, in_exp = {}, 0, False
    for line in profile.read_text().splitlines():
        fields = line.split("\t")
        kinds[fields[0]] = kinds.get(fields[0], 0) + 1
        keys = dict(f.split("=", 1) for f in fields[1:] if "=" in f)
        if fields[0] == "experiment":
            in_exp = True
        elif fields[0] == "throughput-point" and in_exp and \
                keys.get("name") == point and int(keys.get("delta", 0)) > 0:
            advanced += 1
    problems = []
    for kind in ("startup", "shutdown"):
        if kinds.get(kind) != 1:
            problems.append(f"{kinds.get(kind, 0)} '{kind}' records, want 1")
    if advanced == 0:
        problems.append(f"no experiment in which '{point}' advanced "
                        f"({kinds.get('experiment', 0)} experiments)")
    doc = profiling.report(tc, profile, bootstrap=50)
    if doc.get("malformed_records"):
        problems.append(f"coz-report found {doc['malformed_records']} "
                        "malformed records")
    if doc.get("runs") != 1:
        problems.append(f"coz-report counts {doc.get('runs')} runs, want 1")
    return problems, advanced, kinds.get("experiment", 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--seconds", type=int, default=12)
    args = ap.parse_args()
    bindir = Path(args.bin).resolve()
    work = Path(args.work).resolve()
    t0 = time.monotonic()
    try:
        exe = mc.build_one(bindir, work)
        point = mc.progress_point(exe)
    except mc.StudyError as e:
        print(f"FAIL: {e}")
        return 1
    built = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="coz-realworld-") as tmp:
        profile = Path(tmp) / "memcached.coz"
        log = Path(tmp) / "server.log"
        problems = []
        with open(log, "w") as out:
            try:
                with mc.Server(exe, mc.server_argv(exe),
                               {"COZ_OUTPUT": str(profile)}, log=out) as srv:
                    ops, _ = mc.memcaslap(srv.port, seconds=args.seconds)
                    t_stop = time.monotonic()
                    status = srv.stop(limit_s=10)
                    stop_s = time.monotonic() - t_stop
            except mc.StudyError as e:
                print(f"FAIL: {e}")
                return 1
        if status != 0:
            problems.append(f"on SIGINT the server exited with status "
                            f"{status} (None: still running after 10 s)")
        left = processes_of(exe)
        if left:
            problems.append(f"processes of the build still running: {left}")
        if log.read_text():
            problems.append(f"the server printed: {log.read_text()[-300:]!r}")
        found, advanced, experiments = profile_problems(
            profile, point, bl.Toolchain(bindir))
        problems += found
    print(f"memcached {mc.version(work)}: fetch and build "
          f"{built - t0:.0f} s, load {ops:.0f} ops/s for {args.seconds} s, "
          f"stop {stop_s:.1f} s, {experiments} experiments, "
          f"{advanced} with '{point}' advancing")
    for p in problems:
        print(f"FAIL: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
