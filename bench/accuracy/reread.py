#!/usr/bin/env python3
"""Re-reads every prediction of an accuracy run's JSON from the profiles the
run left in its work directory, with the coz-report of --bin.

Why it exists: a change to coz-report's analysis can be judged on the same
profiles, with the same actual figures, without profiling again (an hour of
machine time for the full suite). The profiles are the last run's: run.py
overwrites <work>/profiles/<case>-<region>.coz target by target, so re-read
right after the run whose JSON you give.

    bench/accuracy/reread.py --bin build/bin acc.json reread.json

Prints each prediction that moved; writes the JSON with predicted,
predicted_ci, error_pp, ok, experiments and curve replaced, and
`reread_by` naming the coz-report used. render_tables.py reads it as usual.
"""

import argparse
import json
import sys
from pathlib import Path

import benchlib as bl
import report_reader as rr
from cases import find_case


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="bin/ holding coz-report")
    ap.add_argument("--work", help="the run's scratch directory "
                    "(default <bin>/../bench-work)")
    ap.add_argument("input", help="JSON written by run.py --json")
    ap.add_argument("output", help="where to write the re-read JSON")
    args = ap.parse_args()
    tc = bl.Toolchain(args.bin)
    work = Path(args.work) if args.work else tc.bin.parent / "bench-work"
    try:
        doc = json.loads(Path(args.input).read_text())
    except (OSError, json.JSONDecodeError) as e:
        bl.die(f"cannot read {args.input} ({e}): give the JSON that "
               "run.py --json wrote")
    if not isinstance(doc, dict) or "results" not in doc or "args" not in doc:
        bl.die(f"{args.input} is not an accuracy run's JSON (run.py --json)")
    if doc["args"].get("mode") != "targeted":
        bl.die("reread.py handles targeted runs only (the default mode)")
    for r in doc["results"]:
        profile = work / "profiles" / f"{r['case']}-{r['region']}.coz"
        if not profile.exists():
            bl.die(f"{profile} is missing: re-read in the work directory "
                   f"of the run that wrote {args.input} (--work)")
        source, line = r["line"].rsplit(":", 1)
        row = rr.find_row(bl.report_json(tc, profile, 3), source, int(line),
                          find_case(r["case"]).progress_point)
        s, old = r["s"], r["predicted"]
        pred = rr.prediction(row, s) if row else None
        r["predicted"] = pred
        r["predicted_ci"] = rr.prediction_ci(row, s) if row else None
        r["error_pp"] = None if pred is None else 100 * (pred - r["actual"])
        r["ok"] = (r["error_pp"] is not None and
                   abs(r["error_pp"]) <= r["threshold_pp"])
        r["experiments"] = rr.experiments(row) if row else 0
        r["curve"] = rr.curve(row) if row else []
        if pred != old:
            was = "n/a" if old is None else f"{100 * old:.1f}%"
            now = "n/a" if pred is None else f"{100 * pred:.1f}%"
            print(f"{r['line']} at {int(100 * s)}%: {was} -> {now} "
                  f"(actual {100 * r['actual']:.1f}%)")
    doc["reread_by"] = str(tc.coz_report)
    Path(args.output).write_text(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
