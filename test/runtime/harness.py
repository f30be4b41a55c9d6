#!/usr/bin/env python3
"""Runtime accuracy and behaviour tests for coz-cc.

Each accuracy test runs test programs linked with the runtime, alternating
the variants it compares (A B A B ...) so that machine noise hits both
alike, takes the median of per-pair ratios, prints every number and
asserts. Tests live in accuracy.py and behaviour.py; helpers in rtlib.py.

usage: harness.py TEST --bindir DIR --srcdir DIR [--rounds N]
"""
import argparse
import sys

import accuracy
import behaviour
import rtlib


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
    rtlib.ARGS = ap.parse_args()
    name = "test_" + rtlib.ARGS.test
    fn = getattr(accuracy, name, None) or getattr(behaviour, name, None)
    if not fn:
        rtlib.fail("unknown test " + rtlib.ARGS.test)
    sys.exit(0 if fn() else 1)


if __name__ == "__main__":
    main()
