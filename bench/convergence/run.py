#!/usr/bin/env python3
"""Time to an answer: profiling time until the top-k ranking is right and
stays right, coz-cc against Coz 0.2.2 (Debian's coz-profiler), interleaved.

For each case (a program whose true ranking is known by construction) and
each repetition, both profilers run the unmodified program again and again,
ours run i, then Coz's run i, each appending to its own profile, up to
--runs runs. After every run the profile so far is ranked by coz-report
(which reads Coz's files too, and pools their baselines as it does ours:
the comparison is of the experiments each runtime collects, analysed
alike). The answer is right when the report's top k lines are the true top
k in the true order, each with a slope whose 95% interval lies above zero.
The time to an answer is the profiling time (wall time of the runs) at the
first run after which the answer is right at every later run.

usage: bench/convergence/run.py --bin BUILD/bin [--runs 15] [--reps 3]
       [--cases pipeline3,serial,...] [--json OUT]
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "accuracy"))
import benchlib as bl  # noqa: E402

# name, source, true top regions in order, BENCH_SCALE. The time to an
# answer is counted in whole runs, so runs are short beside it (1-1.6 s
# here): at 6 s runs both profilers answered serial after the second run,
# a tie the run length made, not the profilers.
CASES = {
    "pipeline3": (HERE / "cases" / "pipeline3.c", ["s2a", "s2b", "s2c"], 1.0),
    "serial": (bl.CASES_DIR / "serial.c", ["a", "b"], 0.7),
    "pipeline": (bl.CASES_DIR / "pipeline.c", ["s2"], 0.5),
    "fork_join": (bl.CASES_DIR / "fork_join.c", ["a"], 0.7),
}


def build(tc, src, work):
    ours = work / (src.stem + ".coz-cc")
    coz = work / (src.stem + ".coz")
    base = ["-O2", "-std=c11", "-Wall", "-Wextra", str(src), "-pthread"]
    bl.run([str(tc.coz_cc), "-g", *base, "-o", str(ours)])
    # Coz 0.2.2 with its own coz.h (Debian's, in /usr/include)
    bl.run([tc.cc, "-g", *bl.COZ022_FLAGS, *base, "-o", str(coz)])
    return ours, coz


def ranking(tc, profile, regions, truth):
    """Whether the report's answer is right: the true top k, in order, each
    slope's interval above 0."""
    if not profile.exists():
        return False
    p = bl.run([str(tc.coz_report), "--json", "--top", "0", str(profile)],
               check=False)
    try:
        lines = json.loads(p.stdout)["lines"]
    except (ValueError, KeyError):
        return False
    want = [regions[r] for r in truth]
    if len(lines) < len(want):
        return False
    for row, line in zip(lines, want):
        if row.get("line") != line or not row.get("slope_ci") or \
                row["slope_ci"][0] <= 0:
            return False
    return True


def time_to_answer(history):
    """history: [(cumulative seconds, right)]; the time after which every
    check is right, or None."""
    t = None
    for secs, right in history:
        if right and t is None:
            t = secs
        elif not right:
            t = None
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--json")
    a = ap.parse_args()
    if not shutil.which("coz"):
        bl.die("coz (Debian's coz-profiler) is not installed: "
               "apt-get install coz-profiler")
    tc = bl.Toolchain(a.bin)
    work = Path(tempfile.mkdtemp(prefix="coz-convergence-"))
    results = []
    for name in a.cases.split(","):
        if name not in CASES:
            bl.die(f"unknown case {name!r}; cases: {', '.join(CASES)}")
        src, truth, scale = CASES[name]
        regions = bl.region_lines(src)
        ours_exe, coz_exe = build(tc, src, work)
        for rep in range(a.reps):
            prof = {"ours": work / f"{name}-{rep}-ours.coz",
                    "coz": work / f"{name}-{rep}-coz.coz"}
            hist = {"ours": [], "coz": []}
            spent = {"ours": 0.0, "coz": 0.0}
            for i in range(a.runs):
                for tool in ("ours", "coz"):
                    env = {"BENCH_SCALE": str(scale)}
                    t0 = time.monotonic()
                    if tool == "ours":
                        env["COZ_OUTPUT"] = str(prof[tool])
                        bl.run([str(ours_exe)], env=env)
                    else:
                        bl.run(["coz", "run", "-o", str(prof[tool]), "---",
                                str(coz_exe)], env=env, cwd=work)
                    spent[tool] += time.monotonic() - t0
                    hist[tool].append(
                        (spent[tool], ranking(tc, prof[tool], regions, truth)))
            r = {"case": name, "rep": rep,
                 "ours_s": time_to_answer(hist["ours"]),
                 "coz_s": time_to_answer(hist["coz"]),
                 "ours_total_s": spent["ours"], "coz_total_s": spent["coz"],
                 "ours_right": [x[1] for x in hist["ours"]],
                 "coz_right": [x[1] for x in hist["coz"]]}
            results.append(r)
            fmt = lambda v, tot: "%.0f s" % v if v is not None else \
                "> %.0f s" % tot
            print("%-10s rep %d: coz-cc %s, Coz %s   (right after each run: "
                  "coz-cc %s, Coz %s)" % (
                      name, rep, fmt(r["ours_s"], r["ours_total_s"]),
                      fmt(r["coz_s"], r["coz_total_s"]),
                      "".join("+" if x else "." for x in r["ours_right"]),
                      "".join("+" if x else "." for x in r["coz_right"])))
            sys.stdout.flush()
    print("\ncase        coz-cc (median)   Coz (median)   ratio")
    for name in a.cases.split(","):
        rows = [r for r in results if r["case"] == name]
        med = {}
        for tool in ("ours", "coz"):
            vals = [r[tool + "_s"] if r[tool + "_s"] is not None
                    else float("inf") for r in rows]
            med[tool] = statistics.median(vals)
        ratio = med["ours"] / med["coz"] if med["coz"] not in (0, float(
            "inf")) else float("nan")
        print("%-10s  %10.0f s      %10.0f s    %.2f" % (
            name, med["ours"], med["coz"], ratio))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
