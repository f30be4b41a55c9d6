#!/usr/bin/env python3
"""Replays recorded convergence profiles under several rankings, offline.

run.py leaves its profiles in its work folder ({case}-{rep}-ours.coz and
{case}-{rep}-coz.coz, each run appended to the last). This script cuts
each one after every run (a run starts at its `startup` record) and ranks
every prefix with `coz-report --sort KEY` for each KEY, so that two
rankings are compared on the same experiments, without running a program.

Per profile and ranking it prints:
  right   the run from which the answer is right at every later prefix
          (run.py's criterion: the true top k in order, each slope's 95%
          interval above 0), "-" when not right at the last run
  order   the same for the order alone (the true top k in order)
  stable  the answer's own stability on the whole profile: experiments over
          which the top k stayed as it is (coz-report's answer)

usage: bench/convergence/replay.py --report BIN/coz-report
       [--sorts lower,slope] [--json OUT] PROFILE...
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "accuracy"))
import benchlib as bl  # noqa: E402

# run.py's cases, by path: bench/accuracy has a run.py of its own.
_spec = importlib.util.spec_from_file_location("convergence_run",
                                               HERE / "run.py")
_run = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_run)
CASES = _run.CASES

NAME_RE = re.compile(r"^([a-z_0-9]+)-\d+-(ours|coz)\.coz$")


def report(exe, text, sort, k):
    with tempfile.NamedTemporaryFile("w", suffix=".coz") as f:
        f.write(text)
        f.flush()
        p = subprocess.run([exe, "--json", "--top", str(k), "--sort", sort,
                            f.name], capture_output=True, text=True)
    if p.returncode == 2:  # a usage error: the same for every prefix
        bl.die(f"{exe} --sort {sort}: " + (p.stderr.strip().splitlines()
                                           or ["usage error"])[-1])
    try:
        return json.loads(p.stdout)
    except ValueError:
        return None


def judge(doc, want):
    """(right, order right) as run.py's ranking() judges."""
    if not doc or len(doc.get("lines", [])) < len(want):
        return False, False
    rows = doc["lines"][:len(want)]
    order = all(r.get("line") == w for r, w in zip(rows, want))
    ci = all(r.get("slope_ci") and r["slope_ci"][0] > 0 for r in rows)
    return order and ci, order


def settles(flags):
    """1-based run from which every flag is true, or None."""
    t = None
    for i, f in enumerate(flags, 1):
        if f and t is None:
            t = i
        elif not f:
            t = None
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--report", required=True)
    ap.add_argument("--sorts", default="lower,slope")
    ap.add_argument("--json")
    ap.add_argument("profiles", nargs="+")
    a = ap.parse_args()
    sorts = a.sorts.split(",")
    if not os.access(a.report, os.X_OK):
        bl.die(f"{a.report}: not an executable coz-report")
    out = []
    for prof in a.profiles:
        if not Path(prof).is_file():
            bl.die(f"{prof}: no such profile")
        m = NAME_RE.match(Path(prof).name)
        if not m or m.group(1) not in CASES:
            bl.die(f"{prof}: not a run.py profile ({{case}}-{{rep}}-"
                   f"{{ours,coz}}.coz with a case of {', '.join(CASES)})")
        src, truth, _ = CASES[m.group(1)]
        regions = bl.region_lines(src)
        want = [regions[r] for r in truth]
        runs = bl.split_runs(Path(prof).read_text())
        res = {"profile": prof, "case": m.group(1), "runs": len(runs)}
        for s in sorts:
            right, order = [], []
            doc = None
            for n in range(1, len(runs) + 1):
                doc = report(a.report, "".join(runs[:n]), s, len(want))
                r, o = judge(doc, want)
                right.append(r)
                order.append(o)
            ans = (doc or {}).get("answer") or {}
            res[s] = {"right": settles(right), "order": settles(order),
                      "right_flags": right, "order_flags": order,
                      "stable": ans.get("stable_experiments"),
                      "experiments": (doc or {}).get("experiments")}
        out.append(res)
        cell = lambda v: "-" if v is None else str(v)
        print("%-60s %3d runs  " % (prof, len(runs)) + "  ".join(
            "%s: right %s order %s stable %s/%s" % (
                s, cell(res[s]["right"]), cell(res[s]["order"]),
                cell(res[s]["stable"]), cell(res[s]["experiments"]))
            for s in sorts))
        sys.stdout.flush()
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
