"""Timing for the case studies: interleaved runs and paired ratios.

On a shared machine the time of one run drifts with the load, so builds
are compared only within a round: every round runs each variant once (the
order rotates from round to round, so that being first is nobody's bias),
and a comparison is the median over rounds of the per-round ratio, with a
distribution-free 95% interval from the order statistics of those ratios.
"""

import contextlib
import copy
import fcntl
import math
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "accuracy"))
import benchlib as bl  # noqa: E402


class Runnable:
    """One way of running a build: argv, extra environment, directory.
    A load that is more than one command (a server and its client) is a
    subclass whose run() starts the server with self.argv and self.env
    (the profiled process), drives it and stops it; with_env() and
    wrapped() keep the subclass."""

    def __init__(self, argv, env=None, cwd=None):
        self.argv = [str(a) for a in argv]
        self.env = dict(env or {})
        self.cwd = cwd

    def with_env(self, **extra):
        out = copy.copy(self)
        out.env = {**self.env, **extra}
        return out

    def wrapped(self, prefix):
        """The same run under a launcher (e.g. `coz run ---`)."""
        out = copy.copy(self)
        out.argv = [*map(str, prefix), *self.argv]
        return out

    def run(self, timeout=bl.RUN_TIMEOUT_S):
        """Runs once; returns (wall seconds, completed process). A failing
        run stops the study: its timings would be meaningless."""
        t0 = time.monotonic()
        p = bl.run(self.argv, env=self.env, cwd=self.cwd, timed=True,
                   timeout=timeout)
        return time.monotonic() - t0, p


class Lock:
    """Optional coordination with other work on the machine (--lock FILE):
    timings hold the file exclusively, CPU-heavy work that is not a timing
    holds it shared. Without a file both are no-ops."""

    def __init__(self, path=None, shared_timing=False):
        # shared_timing: when others' shared holds never end, timings run
        # under the shared lock too (they then disturb no exclusive
        # measurement, but run beside others' builds: say so in the docs)
        self.path, self.shared_timing = path, shared_timing

    @contextlib.contextmanager
    def _held(self, mode):
        if not self.path:
            yield
            return
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(fd, mode)
            yield
        finally:
            os.close(fd)  # releases the lock

    def timing(self):
        return self._held(fcntl.LOCK_SH if self.shared_timing else
                          fcntl.LOCK_EX)

    def working(self):
        return self._held(fcntl.LOCK_SH)


def interleaved(variants: dict, rounds: int, lock: Lock, chunk=5):
    """{name: [seconds per round]} for {name: Runnable}. The lock is taken
    for `chunk` rounds at a time so that others can measure in between."""
    names = list(variants)
    times = {n: [] for n in names}
    for start in range(0, rounds, chunk):
        with lock.timing():
            for r in range(start, min(start + chunk, rounds)):
                k = r % len(names)
                for name in names[k:] + names[:k]:
                    times[name].append(variants[name].run()[0])
    return times


def _binom_cdf(k, n):
    return sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n


def median_ci(xs):
    """(median, low, high): the 95% interval of the median from order
    statistics (distribution-free; coverage >= 95%, e.g. the 2nd and 9th
    of 10 values, 97.9%). Needs at least 6 values."""
    xs = sorted(xs)
    n = len(xs)
    if n < 6:
        return bl.median(xs), float("nan"), float("nan")
    k = 0
    while _binom_cdf(k, n) <= 0.025:
        k += 1
    # xs[k-1] .. xs[n-k] (0-based) is the interval [x_(k), x_(n-k+1)]
    return bl.median(xs), xs[max(k - 1, 0)], xs[min(n - k, n - 1)]


def ratio_stats(new, base):
    """Median and 95% CI of the per-round ratios new/base."""
    ratios = [a / b for a, b in zip(new, base)]
    med, lo, hi = median_ci(ratios)
    return {"ratio": med, "ratio_ci": [lo, hi], "rounds": len(ratios)}


def speedup_stats(new, base):
    """Program speedup 1 - T_new/T_base (Coz's convention, also the
    report's), median over rounds and its 95% CI."""
    r = ratio_stats(new, base)
    lo, hi = r["ratio_ci"]
    return {"speedup": 1 - r["ratio"], "speedup_ci": [1 - hi, 1 - lo],
            "rounds": r["rounds"], "base_s": bl.median(base),
            "new_s": bl.median(new)}
