#!/usr/bin/env python3
"""Runs one reliability case (CMakeLists.txt lists them): the coz-cc build
of the program, profiling on, RUNS times with each sampler (every other
run with call-path sampling too), against its plain clang build.

A run passes when it exits as the plain build did, prints the same stdout,
nothing on stderr, within the time limit, and leaves a profile with an
experiment. Prints one line per run; exit status 1 if any run failed.

usage: reliability.py --bindir DIR [--runs N] [--samplers perf,timer] CASE
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

# Extra arguments per case (the library dlchurn loads).
ARGS = {"dlchurn": lambda bindir: [os.path.join(bindir, "libchurn.so")]}
TIME_LIMIT = 120


def run(cmd, env):
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True,
                           timeout=TIME_LIMIT)
    except subprocess.TimeoutExpired:
        return None, time.monotonic() - t0
    return p, time.monotonic() - t0


def experiments(path):
    if not os.path.exists(path):
        return 0
    with open(path) as f:
        return sum(1 for line in f if line.startswith("experiment\t"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case")
    ap.add_argument("--bindir", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--samplers", default="perf,timer")
    a = ap.parse_args()
    extra = ARGS.get(a.case, lambda _: [])(a.bindir)
    base = {k: v for k, v in os.environ.items() if not k.startswith("COZ_")}
    plain, _ = run([os.path.join(a.bindir, a.case + "_plain")] + extra,
                   base)
    if plain is None or plain.returncode != 0:
        print("FAIL: the plain build itself fails: %r"
              % (plain and plain.stderr))
        return 1
    work = tempfile.mkdtemp(prefix="coz-reliability-")
    failures = 0
    for sampler in a.samplers.split(","):
        for i in range(a.runs):
            profile = os.path.join(work, "%s-%d.coz" % (sampler, i))
            env = dict(base, COZ_SAMPLER=sampler, COZ_OUTPUT=profile,
                       COZ_EXPERIMENT="50")
            if i % 2 == 1:  # the call-path profiler unwinds too
                env.update(COZ_CALLPATH="cpu",
                           COZ_CALLPATH_OUTPUT=profile + ".callpath")
            p, secs = run([os.path.join(a.bindir, a.case)] + extra, env)
            what = "%s run %d%s" % (sampler, i,
                                    " +callpath" if i % 2 else "")
            if p is None:
                problem = "no exit within %d s (hang)" % TIME_LIMIT
            elif p.returncode != plain.returncode:
                problem = "exit status %d, plain %d" % (p.returncode,
                                                        plain.returncode)
            elif p.stdout != plain.stdout:
                problem = "stdout %r, plain %r" % (p.stdout, plain.stdout)
            elif p.stderr:
                problem = "stderr %r" % p.stderr[-500:]
            elif experiments(profile) == 0:
                problem = "no experiment in the profile"
            else:
                problem = None
            print("%-4s %s %s: %.2f s%s" % ("ok" if not problem else "FAIL",
                                            a.case, what, secs,
                                            "" if not problem
                                            else ": " + problem))
            failures += problem is not None
    print("%s: %d of %d runs failed" % (a.case, failures,
                                        a.runs * len(a.samplers.split(","))))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
