#!/usr/bin/env python3
"""A/A test of coz-report's slope intervals on a real program's noise.

Takes a recorded profile, keeps only its speedup-0 experiments (no delay
was inserted in them, so no line's speedup had any effect), and relabels
them at random: each goes to one of --lines made-up lines, half of them as
baselines and half at a random speedup of 5-100%. Every row of such a
profile has a true slope of 0, so about 2.5% of the slope intervals should
lie above 0 and 2.5% below. The noise is the program's own: its drift,
its stalls, its spread between experiments. Repeated over --profiles
random relabellings.

Prints the rows, how many intervals lie above 0 and below 0, and the mean
slope (the rows of one relabelling share its baseline, so their slopes
move together).

usage: bench/coverage/aa.py --report BIN/coz-report [--lines 10]
       [--profiles 60] [--seed 1] PROFILE
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

SPEEDUPS = [round(0.05 * k, 2) for k in range(1, 21)]
POINT_RECORDS = ("throughput-point", "latency-point")


def experiments(path):
    """[(experiment fields, [point record lines])] of the speedup-0
    experiments, and the other records (startup, runtime, shutdown)."""
    exps, other, cur = [], [], None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            kind = line.split("\t", 1)[0]
            if kind == "experiment":
                fields = dict(x.split("=", 1) for x in line.split("\t")[1:]
                              if "=" in x)
                cur = (fields, []) if float(fields.get("speedup", "nan")) == 0 \
                    else None
                if cur:
                    exps.append(cur)
            elif kind in POINT_RECORDS:
                if cur:
                    cur[1].append(line)
            elif kind == "samples":
                continue  # the made-up lines get samples of their own
            else:
                other.append(line)
                cur = None
    return exps, other


def relabel(exps, other, n_lines, rng, out):
    with open(out, "w") as f:
        for line in other:
            if line.startswith("startup"):
                f.write(line + "\n")
        for fields, points in exps:
            fields = dict(fields)
            # no samples of the made-up lines: no phase factor, no phases
            fields.pop("selected-samples", None)
            fields["selected"] = "aa.c:%d" % (rng.randrange(n_lines) + 1)
            fields["speedup"] = "0" if rng.random() < 0.5 \
                else "%.2f" % rng.choice(SPEEDUPS)
            f.write("experiment\t" + "\t".join(
                "%s=%s" % kv for kv in fields.items()) + "\n")
            for p in points:
                f.write(p + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--report", required=True)
    ap.add_argument("--lines", type=int, default=10)
    ap.add_argument("--profiles", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("profile")
    a = ap.parse_args()
    if not os.access(a.report, os.X_OK):
        sys.exit("aa.py: %s is not an executable coz-report; pass "
                 "--report BUILD/bin/coz-report" % a.report)
    try:
        exps, other = experiments(a.profile)
    except (OSError, ValueError) as e:
        sys.exit("aa.py: cannot read %s (%s); pass a profile coz-cc wrote"
                 % (a.profile, e))
    if len(exps) < 4 * a.lines:
        sys.exit("aa.py: %s has %d speedup-0 experiments, too few for %d "
                 "lines; pass a longer profile or fewer --lines"
                 % (a.profile, len(exps), a.lines))
    rng = random.Random(a.seed)
    rows = above = below = 0
    total = 0.0
    with tempfile.TemporaryDirectory(prefix="coz-aa-") as work:
        path = os.path.join(work, "aa.coz")
        for _ in range(a.profiles):
            relabel(exps, other, a.lines, rng, path)
            p = subprocess.run([a.report, "--json", "--min-points", "3",
                                path], stdout=subprocess.PIPE, text=True,
                               check=True)
            for row in json.loads(p.stdout)["lines"]:
                lo, hi = row["slope_ci"]
                rows += 1
                above += lo > 0
                below += hi < 0
                total += row["slope"]
    print("%s: %d speedup-0 experiments, %d A/A rows: %d intervals above 0 "
          "(%.1f%%), %d below (%.1f%%), mean slope %+.4f"
          % (os.path.basename(a.profile), len(exps), rows, above,
             100 * above / max(rows, 1), below, 100 * below / max(rows, 1),
             total / max(rows, 1)))


if __name__ == "__main__":
    main()
