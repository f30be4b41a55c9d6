#!/usr/bin/env python3
"""Renders the JSON of run.py (accuracy) and/or overhead/run.py as the
Markdown tables of docs/results.md.

    bench/accuracy/render_tables.py [--accuracy acc.json] [--overhead ovh.json]
"""

import argparse
import json
import statistics

import benchlib as bl


def pct(v, digits=1):
    return "n/a" if v is None else f"{100 * v:.{digits}f}%"


def accuracy(doc):
    out = [f"Run {doc['date']}; machine: {doc['machine']}; mode "
           f"`{doc['args']['mode']}`, {doc['args']['pairs']} timing triples per "
           f"target, sampling period {doc['args'].get('period_us') or bl.DEFAULT_PERIOD_US} us.",
           "",
           "| case | line | s | predicted | actual (IQR of ratios) | error (pp) "
           "| runs | profiling s | within |",
           "|---|---|---|---|---|---|---|---|---|"]
    errs = []
    for r in doc["results"]:
        err = r["error_pp"]
        if err is not None:
            errs.append(abs(err))
        iqr = r.get("actual_iqr")
        spread = "" if iqr is None or iqr != iqr else f" (±{50 * iqr:.1f})"
        out.append(
            f"| {r['case']} | `{r['line']}` | {int(100 * r['s'])}% | "
            f"{pct(r['predicted'])} | {pct(r['actual'])}{spread} | "
            f"{'n/a' if err is None else f'{err:+.1f}'} | {r['profile_runs']} | "
            f"{r['profile_s']:.0f} | "
            f"{'yes' if r['ok'] else 'no'} ({r['threshold_pp']:g} pp) |")
    if errs:
        out += ["", f"|error|: median {statistics.median(errs):.1f} pp, "
                f"max {max(errs):.1f} pp over {len(errs)} predictions "
                f"({len(doc['results']) - len(errs)} missing)."]
    return "\n".join(out)


def overhead(doc):
    out = [f"Run {doc['date']}; machine: {doc['machine']}; medians of "
           f"{doc['runs']} interleaved rounds; sampling period "
           f"{doc.get('period_us') or bl.DEFAULT_PERIOD_US} us.", ""]
    if "wall" in doc:
        out += ["| program | plain (s) | coz-cc, COZ_OFF=1 | coz-cc, speedups 0 "
                "(no delays) | coz-cc, profiling on | plain with an idle "
                "thread |",
                "|---|---|---|---|---|---|"]
        for r in doc["wall"]:
            samp, floor = r.get("sampling_ratio"), r.get("floor_ratio")
            out.append(f"| {r['program']} | {r['plain_s']:.3f} | "
                       f"{r['off_ratio']:.3f} | "
                       f"{'n/a' if samp is None else f'{samp:.3f}'} | "
                       f"{r['on_ratio']:.3f} | "
                       f"{'-' if floor is None else f'{floor:.3f}'} |")
        samp = doc.get("mean_sampling_overhead")
        out += ["", f"Mean overhead: profiling off "
                f"{100 * doc['mean_off_overhead']:+.1f}%, speedups 0 "
                f"{'n/a' if samp is None else f'{100 * samp:+.1f}%'}, "
                f"profiling on {100 * doc['mean_on_overhead']:+.1f}%.", ""]
    if "visit" in doc:
        out += ["| threads | progress-point visit (ns) | one shared atomic "
                "counter instead (ns) | loop without the point (ns/iter) |",
                "|---|---|---|---|"]
        for t, v in sorted(doc["visit"].items()):
            out.append(f"| {t} | {v['visit_ns']:.2f} | "
                       f"{v['shared_atomic_ns']:.2f} | {v['loop_ns']:.2f} |")
        out.append("")
    if "startup" in doc:
        s = doc["startup"]
        # Older results (before --startup-program) name no program.
        name = s.get("program", "synthetic program")
        out += [f"{name}, {s['lines']} lines, medians of {s['runs']} runs:",
                "",
                "| build | run (ms) | compile + link (s) |", "|---|---|---|",
                f"| plain clang -O2 -g | {s['plain_ms']:.1f} | "
                f"{s['compile_plain_s']:.0f} |",
                f"| coz-cc -O2 -g, COZ_OFF=1 | {s['off_ms']:.1f} | "
                f"{s['compile_coz_s']:.0f} |",
                f"| coz-cc -O2 -g, profiling on | {s['on_ms']:.1f} | |"]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--accuracy")
    ap.add_argument("--overhead")
    a = ap.parse_args()
    if a.accuracy:
        print(accuracy(json.load(open(a.accuracy))))
        print()
    if a.overhead:
        print(overhead(json.load(open(a.overhead))))


if __name__ == "__main__":
    main()
