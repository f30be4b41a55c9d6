#!/usr/bin/env python3
"""Overhead on a server (issue 23): Debian's memcached under memcaslap load
(bench/realworld/memcached.py), the case study's `overhead` step on its
own: plain clang -O2 -g / coz-cc with COZ_OFF=1 / coz-cc profiling on with
every speedup 0 (`s0`: no delays) / coz-cc profiling on / Coz 0.2.2, run in
interleaved rounds with a rotating order; each figure is
the median over rounds of a variant's time for the load's requests over
the plain build's in the same round, with a 95% order-statistic interval
(bench/realworld/study.py). Builds and results are the study's (same
--work), so a study run and this one share them.

usage: bench/overhead/memcached.py [--bin build/bin] [--rounds 10]
           [--lock FILE] [--json OUT] [other options of study.py]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "realworld"))
import memcached  # noqa: E402
import study  # noqa: E402

if __name__ == "__main__":
    sys.argv[1:1] = ["--steps", "overhead"]
    study.main(memcached.Memcached())
