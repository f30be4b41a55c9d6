#!/usr/bin/env python3
"""Runtime accuracy and behaviour tests for coz-cc.

Each accuracy test runs test programs linked with the runtime, alternating
the variants it compares (A B A B ...) so that machine noise hits both
alike, takes the median of per-pair ratios, prints every number and
asserts. Tests live in accuracy.py, behaviour.py and suggest.py; helpers
in rtlib.py.

usage: harness.py TEST --bindir DIR --srcdir DIR [--rounds N]
"""
import argparse
import sys

import accuracy
import behaviour
import rtlib
import suggest


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    ap.add_argument("--bindir", required=True)
    ap.add_argument("--srcdir", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sampler", default="auto",
                    help="COZ_SAMPLER for every profiled run")
    ap.add_argument("--rt-dynamic")
    ap.add_argument("--rt-static")
    ap.add_argument("--coz-cc", help="the driver (suggest tests)")
    ap.add_argument("--coz-report", help="coz-report (suggest tests)")
    ap.add_argument("--example", help="examples/two_stages.c (suggest tests)")
    rtlib.ARGS = ap.parse_args()
    name = "test_" + rtlib.ARGS.test
    fn = (getattr(accuracy, name, None) or getattr(behaviour, name, None)
          or getattr(suggest, name, None))
    if not fn:
        rtlib.fail("unknown test " + rtlib.ARGS.test)
    sys.exit(0 if fn() else 1)


if __name__ == "__main__":
    main()
