"""Shared helpers of the runtime tests: running test programs, parsing
profiles strictly, measuring predicted and actual speedups."""
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from priority import favour  # noqa: E402
from terminal import run_on_terminal  # noqa: E402

ARGS = None
TYPES = {"startup", "shutdown", "samples", "runtime", "experiment",
         "throughput-point", "latency-point"}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def line_of(src, marker):
    """'file.c:N' of the line carrying the marker comment."""
    path = os.path.join(ARGS.srcdir, "progs", src)
    with open(path) as f:
        for n, text in enumerate(f, 1):
            if marker in text:
                return "%s:%d" % (src, n)
    fail("marker %s not found in %s" % (marker, path))


def parse_profile(path):
    """Parses a profile strictly: every line must be a known record whose
    fields are key=value; returns (experiments, samples, lines)."""
    exps, samples, recs = [], {}, []
    with open(path) as f:
        text = f.read()
    if text and not text.endswith("\n"):
        fail("profile %s ends in a partial line" % path)
    cur = None
    for raw in text.splitlines():
        parts = raw.split("\t")
        typ = parts[0]
        if typ not in TYPES:
            fail("unknown record type in %r" % raw)
        rec = {}
        for p in parts[1:]:
            if "=" not in p:
                fail("field without '=' in %r" % raw)
            k, v = p.split("=", 1)
            rec[k] = v
        recs.append((typ, rec))
        if typ == "experiment":
            cur = {"selected": rec["selected"],
                   "speedup": float(rec["speedup"]),
                   "duration": int(rec["duration"]),
                   "selected_samples": int(rec["selected-samples"]),
                   "pid": int(rec["pid"]), "points": {}}
            # The window (since 2026-11-28; not in older records).
            for k in ("start", "end"):
                cur[k] = int(rec[k]) if k in rec else None
            exps.append(cur)
        elif typ in ("throughput-point", "latency-point"):
            if cur is None:
                fail("point record before any experiment: %r" % raw)
            if typ == "throughput-point":
                cur["points"][rec["name"]] = {"delta": int(rec["delta"])}
            else:
                cur["points"][rec["name"]] = {
                    "arrivals": int(rec["arrivals"]),
                    "departures": int(rec["departures"]),
                    "difference": float(rec["difference"])}
        else:
            cur = None
            if typ == "samples":
                samples[rec["location"]] = (samples.get(rec["location"], 0)
                                            + int(rec["count"]))
    return exps, samples, recs


def run(prog, args=(), env=None, profiled=True, favoured=True):
    """Runs a test program; returns (stdout, experiments, samples).
    favoured=False runs it at normal priority (see favour)."""
    e = dict(os.environ)
    for k in list(e):
        if k.startswith("COZ_"):
            del e[k]
    e.update({"COZ_QUIET": "1", "COZ_EXPERIMENT": "100", "COZ_COOLOFF": "10",
              "COZ_SAMPLER": ARGS.sampler})
    fd, profile = tempfile.mkstemp(suffix=".coz")
    os.close(fd)
    os.unlink(profile)
    e["COZ_OUTPUT"] = profile
    if not profiled:
        e["COZ_OFF"] = "1"
    e.update(env or {})
    cmd = [os.path.join(ARGS.bindir, prog)] + [str(a) for a in args]
    p = subprocess.run(cmd, env=e, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=120,
                       preexec_fn=favour if favoured else None)
    if p.returncode != 0:
        fail("%s exited with %d: %s" % (cmd, p.returncode, p.stderr))
    exps, samples = [], {}
    if profiled:
        if not os.path.exists(profile):
            fail("%s wrote no profile" % cmd)
        exps, samples, _ = parse_profile(profile)
        os.unlink(profile)
    return p.stdout, exps, samples


def value(stdout, key):
    m = re.search(r"\b%s=([0-9.eE+-]+)" % re.escape(key), stdout)
    if not m:
        fail("no %s= in program output %r" % (key, stdout))
    return float(m.group(1))


def visits(exp, point):
    return sum(pt.get("delta", 0) for name, pt in exp["points"].items()
               if name == point or name.endswith("/" + point))


def period(exps, point, line=None):
    """Mean time between visits of a throughput point (effective ns)."""
    delta = dur = 0
    for x in exps:
        if line and not x["selected"].endswith(line):
            continue
        for name, pt in x["points"].items():
            if name == point or name.endswith("/" + point):
                delta += pt["delta"]
                dur += x["duration"]
    if delta == 0:
        fail("no visits to %s in the experiments" % point)
    return dur / delta


def period_at(exps, point, speedup):
    return period([x for x in exps if abs(x["speedup"] - speedup / 100) < 1e-6],
                  point)


def predicted(prog, args, line, speedup, point, env=None):
    """Program speedups predicted by one run with line virtually sped up by
    speedup%. The runtime alternates its experiments between 0 and that
    speedup; each adjacent (0, s) pair gives one value 1 - p_s / p_0, so
    machine noise slower than an experiment cancels, and the caller takes
    the median over all pairs of all runs (robust to a stalled experiment).
    With speedup 0 every experiment is a baseline: pairs compare them."""
    e = {"COZ_FIXED_LINE": line, "COZ_FIXED_SPEEDUP": str(speedup)}
    e.update(env or {})
    _, exps, _ = run(prog, args, e)
    # The last experiment is cut short by the exit. Pairs are taken walking
    # the sequence (0 then s), so one unusable experiment never shifts the
    # pairing of the others.
    exps = exps[:-1]
    vals = []
    i = 0
    while i + 1 < len(exps):
        a, b = exps[i], exps[i + 1]
        if speedup and (a["speedup"] != 0 or
                        abs(b["speedup"] - speedup / 100) > 1e-6):
            i += 1
            continue
        i += 2
        if not (visits(a, point) and visits(b, point)):
            continue  # e.g. the first experiment, before the first visit
        vals.append(1 - period([b], point) / period([a], point))
    if len(vals) < 3:
        fail("only %d experiment pairs in a run of %s" % (len(vals), prog))
    return vals


def stolen_ms():
    """CPU time the hypervisor has given to others since boot, all CPUs
    (/proc/stat's steal column, in USER_HZ ticks); 0 where unknown."""
    try:
        with open("/proc/stat") as f:
            ticks = int(f.readline().split()[8])
    except (OSError, IndexError, ValueError):
        return 0
    return ticks * 1000 // os.sysconf("SC_CLK_TCK")


def median_of_runs(fn, rounds):
    """Runs fn (a list of per-pair values) rounds times; median of all."""
    vals = []
    for _ in range(rounds):
        vals += fn()
    return statistics.median(vals), vals


def report(name, got, want, tol, vals=None):
    ok = abs(got - want) <= tol
    print("%-40s predicted %+6.2f%%  expected %+6.2f%%  error %5.2f pp "
          "(limit %.1f) %s" % (name, 100 * got, 100 * want,
                               100 * abs(got - want), 100 * tol,
                               "ok" if ok else "FAILED"))
    if vals is not None:
        q = statistics.quantiles(vals, n=4) if len(vals) > 1 else vals * 3
        print("    %d pairs, quartiles %+.2f%% %+.2f%% %+.2f%%"
              % (len(vals), 100 * q[0], 100 * q[1], 100 * q[2]))
    return ok


def actual_pairs(prog, args, env=None):
    """One unprofiled run: 1 - t_changed/t_full for each pair of alternating
    blocks (full, changed) the program measured itself; fails on none."""
    out, _, _ = run(prog, args, env, profiled=False)
    vals = [1 - float(m.group(2)) / float(m.group(1))
            for m in re.finditer(r"pair=([0-9.]+),([0-9.]+)", out)]
    if not vals:
        fail("%s printed no pairs" % prog)
    return vals


def actual_speedup(prog, args, runs):
    """Median of actual_pairs over runs runs, and the pairs."""
    vals = []
    for _ in range(runs):
        vals += actual_pairs(prog, args)
    return statistics.median(vals), vals


def run_plain(args, env, timeout=60, tty=False):
    """rt_misc ARGS with only the COZ_* variables of env. tty=True gives it
    a terminal for stderr (a pty), as a person running it has; the result's
    stderr is what the terminal showed."""
    e = {k: v for k, v in os.environ.items() if not k.startswith("COZ_")}
    e.update(env)
    cmd = [os.path.join(ARGS.bindir, "rt_misc")] + args
    if not tty:
        return subprocess.run(cmd, env=e, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True,
                              timeout=timeout, preexec_fn=favour)
    return run_on_terminal(cmd, e, timeout, preexec_fn=favour)
