#!/usr/bin/env python3
"""Soak (issue 25): Debian's memcached built with coz-cc, profiling on,
under memcaslap load for --minutes (default 10), sampled every --interval
seconds: the server's resident memory, the profile's size and its
experiments, and the requests served (memcached's own counters).

Checked at the end (exit status 1 if any fails, each failure on a line):
  * the server stays up, serves requests in every interval and, on SIGINT,
    exits with status 0 within 10 s;
  * resident memory after the warm-up (--warmup seconds: the 64 MB cache
    fills) grows by less than --rss-mb (default 4 MB);
  * the profile grows linearly in experiments: over the samples after the
    warm-up, the least-squares line of size on experiments explains at
    least 99% of the variance (R^2), and every interval adds experiments
    (the profiler keeps working);
  * the profile ends with its `shutdown` record and coz-report reads it
    without a malformed record.

The build is the study's (bench/realworld/memcached.py, same --work).

usage: bench/realworld/memcached_soak.py [--bin build/bin] [--work DIR]
           [--minutes 10] [--interval 15] [--json OUT]
"""

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import memcached as mc  # noqa: E402
import profiling  # noqa: E402
from study import bl  # noqa: E402


def rss_kb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def count_experiments(profile: Path):
    if not profile.exists():
        return 0
    with open(profile, "rb") as f:
        return sum(1 for line in f if line.startswith(b"experiment\t"))


def sample(srv, profile, t0):
    st = srv.stats()
    return {"t": time.monotonic() - t0, "rss_kb": rss_kb(srv.proc.pid),
            "profile_bytes": profile.stat().st_size if profile.exists() else 0,
            "experiments": count_experiments(profile),
            "requests": int(st.get("cmd_get", 0)) + int(st.get("cmd_set", 0)),
            "curr_items": int(st.get("curr_items", 0))}


def r_squared(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    if sxx == 0 or syy == 0:
        return 0.0, 0.0
    return sxy * sxy / (sxx * syy), sxy / sxx


def soak(exe, profile, seconds, interval):
    """Runs the soak; (samples, exit status, stop seconds, load ops/s)."""
    samples = []
    with mc.Server(exe, mc.server_argv(exe),
                   {"COZ_OUTPUT": str(profile)}) as srv:
        t0 = time.monotonic()
        load = subprocess.Popen(
            ["memcaslap", "-s", f"127.0.0.1:{srv.port}", "-T",
             str(mc.LOAD_THREADS), "-c", str(mc.CONCURRENCY), "-t",
             f"{seconds}s"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True)
        while load.poll() is None:
            time.sleep(interval - (time.monotonic() - t0) % interval)
            if srv.proc.poll() is not None:
                break
            if load.poll() is None:
                samples.append(sample(srv, profile, t0))
                s = samples[-1]
                print(f"{s['t']:6.0f} s  RSS {s['rss_kb'] / 1024:7.1f} MB  "
                      f"profile {s['profile_bytes'] / 1e6:6.2f} MB  "
                      f"{s['experiments']:5} experiments  "
                      f"{s['requests']:10} requests", flush=True)
        out = load.communicate()[0]
        m = mc.RESULT_RE.search(out)
        t_stop = time.monotonic()
        status = srv.stop(limit_s=10)
        stop_s = time.monotonic() - t_stop
    return samples, status, stop_s, float(m.group(3)) if m else None


def check(samples, status, ops, profile, tc, warmup, rss_mb):
    """(problems, figures)."""
    problems = []
    after = [s for s in samples if s["t"] >= warmup]
    if len(after) < 3:
        return [f"only {len(after)} samples after the warm-up"], {}
    if status != 0:
        problems.append(f"on SIGINT the server exited with status {status} "
                        "(None: still running after 10 s)")
    if ops is None:
        problems.append("memcaslap did not finish with its result line")
    growth_mb = (max(s["rss_kb"] for s in after) - after[0]["rss_kb"]) / 1024
    if growth_mb >= rss_mb:
        problems.append(f"resident memory grew by {growth_mb:.1f} MB after "
                        f"the warm-up (bound {rss_mb} MB)")
    pairs = list(zip(samples, samples[1:]))
    idle = [b["t"] for a, b in pairs if b["requests"] <= a["requests"]]
    if idle:
        problems.append(f"no request served in the intervals ending at {idle}")
    stalled = [b["t"] for a, b in pairs if b["t"] >= warmup and
               b["experiments"] <= a["experiments"]]
    if stalled:
        problems.append(f"no experiment in the intervals ending at {stalled}")
    r2, bytes_per_exp = r_squared([s["experiments"] for s in after],
                                  [s["profile_bytes"] for s in after])
    if r2 < 0.99:
        problems.append(f"profile size is not linear in experiments "
                        f"(R^2 {r2:.4f} < 0.99)")
    text = profile.read_text() if profile.exists() else ""
    if not text.rstrip("\n").split("\n")[-1].startswith("shutdown"):
        problems.append("the profile does not end with a shutdown record")
    doc = profiling.report(tc, profile, bootstrap=50)
    if doc.get("malformed_records"):
        problems.append(f"{doc['malformed_records']} malformed records")
    figures = {
        "rss_start_mb": samples[0]["rss_kb"] / 1024,
        "rss_after_warmup_mb": after[0]["rss_kb"] / 1024,
        "rss_max_mb": max(s["rss_kb"] for s in samples) / 1024,
        "rss_end_mb": samples[-1]["rss_kb"] / 1024,
        "rss_growth_after_warmup_mb": growth_mb,
        "profile_mb": len(text.encode()) / 1e6,
        "experiments": count_experiments(profile),
        "bytes_per_experiment": bytes_per_exp, "r_squared": r2,
        "load_ops_s": ops, "lines_plotted": len(doc.get("lines") or [])}
    return problems, figures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=str(bl.REPO / "build" / "bin"))
    ap.add_argument("--work", default=str(bl.REPO / "build-realworld"),
                    help="the study's work directory (its builds)")
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--interval", type=float, default=15)
    ap.add_argument("--warmup", type=float, default=60)
    ap.add_argument("--rss-mb", type=float, default=4)
    ap.add_argument("--json", help="also write the figures and samples here")
    a = ap.parse_args()
    profile = Path(a.work).resolve() / "memcached" / "soak" / "soak.coz"
    profile.parent.mkdir(parents=True, exist_ok=True)
    profile.unlink(missing_ok=True)
    try:
        exe = mc.build_one(a.bin, a.work)
        load0 = bl.loadavg()
        samples, status, stop_s, ops = soak(exe, profile,
                                            int(a.minutes * 60), a.interval)
    except mc.StudyError as e:
        bl.die(str(e))
    problems, figures = check(samples, status, ops, profile,
                              bl.Toolchain(a.bin), a.warmup, a.rss_mb)
    figures.update({"stop_s": stop_s, "exit_status": status,
                    "loadavg_start": load0, "loadavg_end": bl.loadavg(),
                    "minutes": a.minutes})
    for k, v in figures.items():
        print(f"{k:28} {v:.4g}" if isinstance(v, float) else f"{k:28} {v}")
    if a.json:
        Path(a.json).write_text(json.dumps({
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "source": mc.version(a.work), "machine": bl.machine_summary(),
            "figures": figures, "samples": samples, "problems": problems},
            indent=1))
    for p in problems:
        print(f"FAIL: {p}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
