#!/usr/bin/env python3
"""Coverage of coz-report's 95% intervals against known truth.

Builds many small profiles of one line whose true program speedups are
known, runs `coz-report --json` on each, and counts how often the interval
of each point (and of the slope) contains the truth, for a given number of
experiments per speedup.

Sources of experiments:
  synthetic:uniform10  visit counts with +-10% uniform noise per experiment
  synthetic:normal5    5% normal noise per experiment
  synthetic:heavy      3% normal noise, and 1 experiment in 20 off by 30%
  FILE.coz             a recorded profile holding many experiments of one
                       line at a few speedups (bench/accuracy with
                       COZ_FIXED_LINE and several COZ_FIXED_SPEEDUP runs);
                       each small profile draws experiments from it without
                       replacement; the truth is the whole recording's
                       estimate (its own coz-report run).

usage: coverage.py --report BIN/coz-report [--trials 200] [--sizes 2,3,5,10,30]
                   [--baseline-factor K] [--json OUT] SOURCE...
--baseline-factor K gives the baseline K times as many experiments as each
speedup (K > 1 mimics the pooled baseline of a profile with many lines).
Prints, per source and size, the coverage of the points and of the slope,
and the median widths of the points' and the slope's intervals.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

SPEEDUPS = [0.0, 0.25, 0.5, 0.75, 1.0]
TRUE_SLOPE = 0.4  # synthetic truth: y = 0.4 s
DURATION = 100_000_000
RATE0 = 1e-5  # visits per ns at speedup 0


def synthetic_experiment(model, s, rng):
    rate = RATE0 / (1 - TRUE_SLOPE * s)
    if model == "uniform10":
        f = 1 + 0.1 * rng.uniform(-1, 1)
    elif model == "normal5":
        f = 1 + 0.05 * rng.gauss(0, 1)
    elif model == "heavy":
        f = 1 + 0.03 * rng.gauss(0, 1)
        if rng.random() < 0.05:
            f *= 1 + rng.choice([-0.3, 0.3])
    else:
        sys.exit("coverage.py: unknown synthetic model %r (uniform10, "
                 "normal5, heavy)" % model)
    return (s, DURATION, max(0, round(rate * DURATION * f)))


def read_recording(path):
    """{speedup: [(s, duration, delta)]} of the one line and point."""
    by_s, cur = {}, None
    with open(path) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            kv = dict(x.split("=", 1) for x in fields[1:] if "=" in x)
            if fields[0] == "experiment":
                cur = (round(float(kv["speedup"]), 3), float(kv["duration"]))
            elif fields[0] == "throughput-point" and cur:
                by_s.setdefault(cur[0], []).append(
                    (cur[0], cur[1], int(kv["delta"])))
                cur = None
    return by_s


def write_profile(exps, path):
    with open(path, "w") as f:
        f.write("startup\ttime=1\tpid=1\n")
        for s, d, delta in exps:
            f.write("experiment\tselected=c.c:1\tspeedup=%.3f\tduration=%d\n"
                    "throughput-point\tname=p\tdelta=%d\n" % (s, d, delta))


def analyse(report, path, replicates):
    p = subprocess.run([report, "--json", "--min-points", "2", "--bootstrap",
                        str(replicates), path], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    doc = json.loads(p.stdout)
    return doc["lines"][0] if doc["lines"] else None


def wls_slope(points):
    """Weighted least squares slope of [(s, y, w)]."""
    sw = sum(w for _, _, w in points)
    mx = sum(w * s for s, _, w in points) / sw
    my = sum(w * y for _, y, w in points) / sw
    sxx = sum(w * (s - mx) ** 2 for s, _, w in points)
    sxy = sum(w * (s - mx) * (y - my) for s, y, w in points)
    return sxy / sxx


def truth_of(source, report, work):
    """{speedup: y} of the source's truth, and a function of the design (n
    per speedup, baseline factor) giving the true slope: coz-report's
    weights (the visits counted) depend on how many experiments each speedup has,
    and a curve that is not a line has a different weighted slope under
    different weights, so the truth must be taken under the same ones."""
    if source.startswith("synthetic:"):
        return {s: TRUE_SLOPE * s for s in SPEEDUPS}, lambda n, k0: TRUE_SLOPE
    path = os.path.join(work, "whole.coz")
    rec = read_recording(source)
    write_profile([e for v in rec.values() for e in v], path)
    row = analyse(report, path, 0)
    pts = {round(pt["speedup"], 3): pt for pt in row["points"]}
    truth = {s: pt["program_speedup"] for s, pt in pts.items()}

    def slope(n, k0):
        return wls_slope([
            (s, pt["program_speedup"],
             n * (k0 if s == 0 else 1) * pt["delta"] / pt["experiments"])
            for s, pt in pts.items()])
    return truth, slope


def draw(source, n, k0, rng, rec):
    if source.startswith("synthetic:"):
        model = source.split(":", 1)[1]
        return [synthetic_experiment(model, s, rng)
                for s in SPEEDUPS for _ in range(n * (k0 if s == 0 else 1))]
    out = []
    for s, pool in rec.items():
        want = n * (k0 if s == 0 else 1)
        if want > len(pool):
            return None
        out += rng.sample(pool, want)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sources", nargs="+")
    ap.add_argument("--report", required=True)
    ap.add_argument("--trials", type=int, default=200)
    ap.add_argument("--sizes", default="2,3,5,10,30")
    ap.add_argument("--baseline-factor", type=int, default=1)
    ap.add_argument("--replicates", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="coz-coverage-")
    results = []
    for source in a.sources:
        rec = None if source.startswith("synthetic:") else \
            read_recording(source)
        truth, slope_of_design = truth_of(source, a.report, work)
        for n in [int(x) for x in a.sizes.split(",")]:
            true_slope = slope_of_design(n, a.baseline_factor)
            rng = random.Random(a.seed * 1000003 + n)
            hits = miss = slope_hits = slope_n = 0
            widths, slope_widths = [], []
            for t in range(a.trials):
                exps = draw(source, n, a.baseline_factor, rng, rec)
                if exps is None:
                    break
                path = os.path.join(work, "t.coz")
                write_profile(exps, path)
                row = analyse(a.report, path, a.replicates)
                if not row:
                    continue
                for pt in row["points"]:
                    s = round(pt["speedup"], 3)
                    if s == 0 or s not in truth or pt["ci"] is None:
                        continue
                    lo, hi = pt["ci"]
                    ok = lo <= truth[s] <= hi
                    hits += ok
                    miss += not ok
                    widths.append(hi - lo)
                if row["slope_ci"]:
                    lo, hi = row["slope_ci"]
                    slope_hits += lo <= true_slope <= hi
                    slope_n += 1
                    slope_widths.append(hi - lo)
            pts = hits + miss
            r = {"source": source, "per_speedup": n,
                 "baseline": n * a.baseline_factor, "profiles": slope_n,
                 "point_coverage": hits / pts if pts else None,
                 "slope_coverage": slope_hits / slope_n if slope_n else None,
                 "median_point_width": statistics.median(widths)
                 if widths else None,
                 "median_slope_width": statistics.median(slope_widths)
                 if slope_widths else None}
            results.append(r)
            print("%-24s n=%-3d base=%-4d profiles=%-4d points %s  slope %s"
                  "  width %s  slope width %s" % (
                      os.path.basename(source), n, r["baseline"], slope_n,
                      "%.1f%%" % (100 * r["point_coverage"])
                      if pts else "-",
                      "%.1f%%" % (100 * r["slope_coverage"])
                      if slope_n else "-",
                      "%.4f" % r["median_point_width"] if widths else "-",
                      "%.4f" % r["median_slope_width"] if slope_widths
                      else "-"))
            sys.stdout.flush()
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
