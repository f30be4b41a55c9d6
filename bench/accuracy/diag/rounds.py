#!/usr/bin/env python3
"""Summarises fork_join_rounds.c's timeline(s): per file, mean round time,
main's time from leaving one barrier to reaching the next (region a), the
last arriver's time in its barrier call, the delay inserted per round, and
how often the worker arrived last. Rounds are split into those of
sped-up experiments (the delay count grew) and the others.

    rounds.py FILE.tsv ...
"""
import statistics
import sys


def rounds(path):
    rows = [list(map(int, line.split())) for line in open(path)]
    for prev, cur in zip(rows, rows[1:]):
        main_in, main_out, worker_in, _, delay = cur
        main_last = main_in >= worker_in
        yield {"round": main_out - prev[1], "a": main_in - prev[1],
               "last_call": main_out - main_in if main_last else None,
               "worker_last": not main_last, "delay": delay - prev[4]}


def summary(label, rs):
    if not rs:
        return
    mean = lambda k: statistics.mean(r[k] for r in rs if r[k] is not None) / 1e3
    print(f"{label:<28} rounds {len(rs):5d}  round {mean('round'):7.1f} us  "
          f"a {mean('a'):7.1f} us  main's call when last {mean('last_call'):5.1f} us  "
          f"delay {mean('delay'):6.1f} us  worker last "
          f"{100 * sum(r['worker_last'] for r in rs) / len(rs):4.1f}%")


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: rounds.py FILE.tsv ...")
    for path in sys.argv[1:]:
        rs = list(rounds(path))
        summary(f"{path} (no delay)", [r for r in rs if r["delay"] == 0])
        summary(f"{path} (sped up)", [r for r in rs if r["delay"] > 0])


if __name__ == "__main__":
    main()
