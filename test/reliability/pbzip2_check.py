#!/usr/bin/env python3
"""pbzip2 from its Debian source, built with coz-c++ through its own
Makefile, compresses under profiling RUNS times with output byte-identical
to the plain clang++ build's (issue 25). Its hot code is libbz2's
BZ2_blockSort, a Debian system library built without frame pointers: a
sample handler that trusted %rbp there died with SIGSEGV within a second.

Each profiled run: exit status 0, nothing on stderr, stdout equal to the
plain build's, and a profile with experiments in it. The runs alternate
the perf and timer samplers. Fetches the source with bench/dropin/debsrc.py
(apt-get source, through a private deb-src list when apt has none) and
installs dpkg-dev, make and libbz2-dev when missing.

usage: pbzip2_check.py --bin BUILD/bin --work DIR [--cxx clang++]
                      [--runs 20] [--mb 4]
"""

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO / "bench" / "realworld"))
sys.path.insert(0, str(REPO / "bench" / "dropin"))
import debsrc  # noqa: E402
import pbzip2  # noqa: E402

SAMPLERS = ("perf", "timer")


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def build(tree: Path, out: Path, cxx: str, flags: str) -> Path:
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(tree, out, symlinks=True)
    return pbzip2.make_pbzip2(out, cxx, flags)


def compress(exe: Path, data: Path, env=None):
    return subprocess.run([str(exe), "-p2", "-k", "-c", str(data)],
                          capture_output=True, env=env, timeout=120)


def check_profile(profile: Path, run: int):
    if not profile.exists():
        fail(f"run {run}: no profile written ({profile})")
    text = profile.read_text(errors="replace")
    if "\nexperiment\t" not in text and not text.startswith("experiment\t"):
        fail(f"run {run}: the profile holds no experiment")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="coz-cc's build/bin")
    ap.add_argument("--cxx", default="clang++", help="the plain compiler")
    ap.add_argument("--work", required=True)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--mb", type=int, default=4, help="input size")
    args = ap.parse_args()
    work = Path(args.work).resolve()
    coz_cxx = Path(args.bin).resolve() / "coz-c++"
    if not coz_cxx.exists():
        fail(f"{coz_cxx} not found: build the tree first")
    try:
        debsrc.install(["make", "dpkg-dev", "libbz2-dev"])
        tree = debsrc.fetch("pbzip2", work / "debian")
    except debsrc.AptError as e:
        fail(str(e))
    src = tree / "pbzip2.cpp"
    line = pbzip2.progress_line(src)
    plain = build(tree, work / "plain", args.cxx, "-O2 -g")
    coz = build(tree, work / "coz", str(coz_cxx),
                f"-O2 -g --coz-progress=pbzip2.cpp:{line}")
    data = pbzip2.make_input(work / "input.txt", args.mb)
    ref = compress(plain, data)
    if ref.returncode != 0 or not ref.stdout:
        fail(f"the plain build failed ({ref.returncode}): {ref.stderr!r}")
    env = {k: v for k, v in os.environ.items() if not k.startswith("COZ_")}
    for run in range(1, args.runs + 1):
        profile = work / f"run{run}.coz"
        profile.unlink(missing_ok=True)
        sampler = SAMPLERS[run % 2]
        p = compress(coz, data, {**env, "COZ_OUTPUT": str(profile),
                                 "COZ_SAMPLER": sampler, "COZ_QUIET": "1"})
        what = f"run {run} ({sampler} sampler)"
        if p.returncode != 0:
            fail(f"{what}: exit status {p.returncode} (negative: killed by "
                 f"that signal); stderr: {p.stderr[-500:]!r}")
        if p.stderr:
            fail(f"{what}: stderr not empty: {p.stderr[-500:]!r}")
        if p.stdout != ref.stdout:
            fail(f"{what}: output differs from the plain build's "
                 f"({len(p.stdout)} vs {len(ref.stdout)} bytes)")
        check_profile(profile, run)
    print(f"PASS: {args.runs} profiled runs of pbzip2 -p2 on {args.mb} MB, "
          "output identical to the plain build's")


if __name__ == "__main__":
    main()
