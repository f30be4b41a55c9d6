#!/usr/bin/env python3
"""Overhead on the real programs of the case studies (bench/realworld/):
each built by its study's own build code (Debian source, its own build
system) and timed as plain clang -O2 -g / coz-cc with COZ_OFF=1 / coz-cc
profiling on with every speedup 0 (`s0`: no delays) / coz-cc profiling on
/ Coz 0.2.2 (`coz run ---`), interleaved round by round with a
rotating order; each ratio is the median over rounds of the variant's wall
time over the plain build's in the same round, with its 95% interval.

    bench/overhead/realworld.py --bin build/bin [--programs sqlite,pbzip2,leveldb]
        [--rounds 10] [--lock FILE] [--nice -20] [--json out.json]

The study options (--work, --scratch, --jobs) are bench/realworld/study.py's.
"""

import importlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "realworld"))
import study  # noqa: E402
import benchlib as bl  # noqa: E402

PROGRAMS = {"sqlite": "Sqlite", "pbzip2": "Pbzip2", "leveldb": "Leveldb"}


def main():
    ap = study.parser(__doc__.split("\n")[0])
    ap.add_argument("--programs", default=",".join(PROGRAMS),
                    help=f"comma list of: {','.join(PROGRAMS)}")
    args = ap.parse_args()
    names = [n for n in args.programs.split(",") if n]
    bad = [n for n in names if n not in PROGRAMS]
    if bad:
        bl.die(f"unknown program(s) {','.join(bad)}: use "
               f"{','.join(PROGRAMS)}")
    if args.nice:
        study.raise_priority(args.nice)
    out = {"machine": bl.machine_summary(), "rounds": args.rounds,
           "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "programs": {}}
    for name in names:
        program = getattr(importlib.import_module(name), PROGRAMS[name])()
        s = study.Study(program, args)
        s.step_build(levels=[0])
        res = study.overhead(s, args.rounds)
        out["programs"][name] = {k: v for k, v in res.items() if k != "times"}
        print(f"{name:<8} plain {res['plain_s']:6.2f} s  " + "  ".join(
            f"{k} x{res[k]['ratio']:.3f} [{res[k]['ratio_ci'][0]:.3f}, "
            f"{res[k]['ratio_ci'][1]:.3f}]"
            for k in res if isinstance(res[k], dict) and "ratio" in res[k]),
            flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
