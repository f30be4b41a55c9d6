"""Profiling for the case studies: a user's profile and when its ranking
settles, a line's own cost before and after a change, and the prediction
at the line speedup the change achieved. Everything reads profiles with
coz-report (docs/report.md), Coz 0.2.2's included.
"""

import json
import math
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "accuracy"))
import benchlib as bl  # noqa: E402
import report_reader as rr  # noqa: E402

# Coz 0.2.2 (Debian's coz-profiler) runs a program under its launcher.
COZ022 = "coz"
# The timeline re-reads the growing profile after every run: the ranking
# needs the slopes, not tight intervals, so fewer bootstrap replicates.
TIMELINE_BOOTSTRAP = 100


def report(tc, profile: Path, min_points=5, bootstrap=None):
    """coz-report's JSON of one profile (docs/report.md, coz-report/1)."""
    cmd = [str(tc.coz_report), "--json", "--min-points", str(min_points)]
    if bootstrap:
        cmd += ["--bootstrap", str(bootstrap)]
    p = bl.run(cmd + [str(profile)], check=False)
    try:
        return json.loads(p.stdout)
    except ValueError:
        bl.die(f"coz-report --json {profile} printed no JSON (exit "
               f"{p.returncode}): {p.stderr.strip()[-300:]}")
        return {}


def short(location: str) -> str:
    """file:line without the directories (for tables)."""
    path, _, line = location.rpartition(":")
    return f"{Path(path).name}:{line}"


def ranking(doc, n=5):
    """The first n plotted rows (in the report's default order):
    location, slope and its CI, predictions."""
    return [{"location": short(r["location"]), "slope": r["slope"],
             "slope_ci": r["slope_ci"], "experiments": r["experiments"],
             "predicted": r["predicted"]}
            for r in (doc.get("lines") or [])[:n]]


def profiled(runnable, profile: Path, tool: str):
    """The run that appends to profile: ours (coz-cc build) or Coz's."""
    if tool == "coz022":
        if shutil.which(COZ022) is None:
            bl.die("'coz' not found: the comparison with Coz 0.2.2 needs "
                   "Debian's coz-profiler (apt-get install coz-profiler)")
        return runnable.wrapped([COZ022, "run", "-o", profile, "---"])
    return runnable.with_env(COZ_OUTPUT=str(profile), COZ_QUIET="1")


def profile_for(runnable, profile: Path, seconds, tool, lock):
    """Profiles the unchanged program as a user does (default settings,
    run after run, one profile) for about `seconds` of profiling; returns
    each run's wall seconds."""
    profile.unlink(missing_ok=True)
    run = profiled(runnable, profile, tool)
    times = []
    while sum(times) < seconds:
        with lock.working():
            times.append(run.run()[0])
    return times


def _first(doc, key):
    rows = [r for r in doc.get("lines") or [] if key(r) is not None]
    return short(max(rows, key=key)["location"]) if rows else None


def timeline(tc, profile: Path, run_seconds, points=30):
    """The ranking as it stood after 1, 2, ... runs of the profile (about
    `points` prefixes): profiling seconds so far, the first line in the
    report's default order and the first by the lower end of the slope's
    95% interval (steep and well measured)."""
    runs = bl.split_runs(profile.read_text(errors="replace"))
    n = min(len(runs), len(run_seconds))
    step = max(1, n // points)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        prefix = Path(tmp) / "prefix.coz"
        for k in sorted(set(range(step, n + 1, step)) | {n}):
            prefix.write_text("".join(runs[:k]))
            doc = report(tc, prefix, bootstrap=TIMELINE_BOOTSTRAP)
            ranks = (doc.get("answer") or {}).get("ranks") or [{}]
            out.append({
                "runs": k, "seconds": sum(run_seconds[:k]),
                "experiments": doc.get("experiments", 0),
                "first": short(doc["lines"][0]["location"])
                if doc.get("lines") else None,
                "first_lower": _first(doc, lambda r: (r["slope_ci"] or
                                                      [None])[0]),
                "rank1_settled": bool(ranks[0].get("settled"))})
    return out


def _settled_from(entries, ok):
    """The profiling time from which on ok(entry) holds at every later
    prefix (None if it does not hold at the end)."""
    since = None
    for e in reversed(entries):
        if not ok(e):
            break
        since = e["seconds"]
    return since


def time_to_ranking(entries):
    """When the ranking settled: the profiling time from which on the first
    line stays the final first line, in the report's order and by the
    lower end of the slope's interval; and from which on the report
    calls its rank 1 settled (its interval overlaps no other row's)."""
    res = {"total_s": entries[-1]["seconds"] if entries else 0}
    for key in ("first", "first_lower"):
        final = entries[-1][key] if entries else None
        res[key] = final
        res[f"{key}_settled_s"] = _settled_from(
            entries, lambda e, k=key, f=final: e[k] == f)
    res["rank1_settled_s"] = _settled_from(
        entries, lambda e: e.get("rank1_settled"))
    return res


def _records(profile: Path):
    for line in profile.read_text(errors="replace").splitlines():
        fields = line.split("\t")
        yield fields[0], dict(f.split("=", 1) for f in fields[1:] if "=" in f)


def split_location(location: str):
    """'file:line' or 'file:first-last' (a COZ_FIXED_LINE range): (file,
    range of line numbers)."""
    path, _, lines = location.rpartition(":")
    first, _, last = lines.partition("-")
    return path, range(int(first), int(last or first) + 1)


def line_samples(profile: Path, location_suffix: str, point: str,
                 region=None):
    """(samples in the line, or in the lines of file:first-last; visits of
    the point; samples in the region) summed over the runs of one of our
    profiles (`samples` and `runtime point=` records). region: (file
    suffix, line range or None for the whole file), or None."""
    samples = visits = in_region = 0
    lfile, lines = split_location(location_suffix)
    for kind, rec in _records(profile):
        loc = rec.get("location", "")
        if kind == "samples":
            path, _, line = loc.rpartition(":")
            if not line.isdigit():
                continue
            if path.endswith("/" + lfile) and int(line) in lines:
                samples += int(rec["count"])
            if region and path.endswith("/" + region[0]) and (
                    region[1] is None or int(line) in region[1]):
                in_region += int(rec["count"])
        elif kind == "runtime" and rec.get("point") == point:
            visits += int(rec["visits"])
    return samples, visits, in_region



def line_cost(runs: dict, locations: dict, point: str, rounds, lock,
              period_ns, regions=None):
    """The line's CPU time per visit of the progress point (per unit of
    work), before and after the change: {"before", "after"} builds run
    interleaved with sampling on and no virtual speedup, the line's samples
    times the period over the point's visits. The line speedup is
    1 - after/before, its interval from the Poisson counts.

    regions ({"before", "after"}: see line_samples): when the change also
    adds or alters other lines (new code beside the line, work moved), the
    line alone overstates what it saved. The line speedup is then the
    region's saving over the line's cost before, (R_before - R_after) /
    L_before: the speedup of the line alone that removes as much time per
    visit as the change did (the line's own figure is kept as
    line_only_speedup)."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        profiles = {k: Path(tmp) / f"{k}.coz" for k in runs}
        for r in range(rounds):
            with lock.working():
                for k in (list(runs) if r % 2 == 0 else list(runs)[::-1]):
                    runs[k].with_env(COZ_OUTPUT=str(profiles[k]),
                                     COZ_QUIET="1",
                                     COZ_FIXED_SPEEDUP="0").run()
        for k in runs:
            region = regions[k] if regions else None
            n, visits, rn = line_samples(profiles[k], locations[k], point,
                                         region)
            per = period_ns / visits if visits else float("nan")
            out[k] = {"location": locations[k], "samples": n,
                      "visits": visits, "ns_per_visit": n * per}
            if region:
                out[k]["region"] = {
                    "file": region[0], "samples": rn, "ns_per_visit": rn * per,
                    "lines": [region[1].start, region[1].stop - 1]
                    if region[1] else None}
    b, a = out["before"], out["after"]
    ratio = a["ns_per_visit"] / b["ns_per_visit"] if b["samples"] else \
        float("nan")
    # log-ratio of two Poisson counts: sd ~ sqrt(1/n1 + 1/n2)
    spread = math.sqrt(1 / b["samples"] + 1 / max(a["samples"], 1)) \
        if b["samples"] else float("nan")
    out["line_speedup"] = 1 - ratio
    out["line_speedup_ci"] = [1 - ratio * math.exp(1.96 * spread),
                              1 - ratio * math.exp(-1.96 * spread)]
    if regions and b["samples"]:
        rb, ra = b["region"], a["region"]
        s = (rb["ns_per_visit"] - ra["ns_per_visit"]) / b["ns_per_visit"]
        # the saving's Poisson spread, over the line's cost, and the
        # line's own relative spread
        sd = math.sqrt(
            (rb["samples"] + ra["samples"]) / b["samples"] ** 2 +
            s * s / b["samples"])
        out["line_only_speedup"] = out["line_speedup"]
        out["line_only_speedup_ci"] = out["line_speedup_ci"]
        out["line_speedup"] = s
        out["line_speedup_ci"] = [s - 1.96 * sd, s + 1.96 * sd]
    out["rounds"] = rounds
    return out


def _point_at(row, s):
    for p in row.get("points") or []:
        if abs(p["speedup"] - s) < 1e-6:
            return p
    return None


def predict_fixed(tc, runnable, location: str, s_pct: int, point: str,
                  min_experiments, max_seconds, profile: Path, lock):
    """The unchanged program profiled with COZ_FIXED_LINE=location and
    COZ_FIXED_SPEEDUP=s_pct (experiments alternate between 0 and s) until
    both have min_experiments; returns the measured program speedup at s."""
    profile.unlink(missing_ok=True)
    run = profiled(runnable, profile, "ours").with_env(
        COZ_FIXED_LINE=location, COZ_FIXED_SPEEDUP=str(s_pct))
    # a range's row is named as given: file:first-last
    src, _, line = location.rpartition(":")
    s = s_pct / 100
    spent, runs, row = 0.0, 0, None
    while spent < max_seconds:
        with lock.working():
            spent += run.run()[0]
        runs += 1
        doc = report(tc, profile, min_points=2)
        row = rr.find_row(doc, src, line, point)
        if row and rr.enough_at(row, min_experiments, [s]):
            break
    pt = _point_at(row, s) if row else None
    return {"location": location, "s_pct": s_pct, "runs": runs,
            "seconds": spent,
            "experiments": rr.experiments(row) if row else 0,
            "predicted": pt["program_speedup"] if pt else None,
            "predicted_ci": pt["ci"] if pt else None,
            "phase_factor": row.get("phase_factor") if row else None}


def predict_from_curve(row, s):
    """The free profile's program speedup at line speedup s, interpolated
    linearly between the measured speedups around s (None outside)."""
    pts = sorted((p["speedup"], p["program_speedup"])
                 for p in (row or {}).get("points") or [])
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        if x0 <= s <= x1:
            return y0 + (y1 - y0) * (s - x0) / (x1 - x0) if x1 > x0 else y0
    return None


CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-quic", "--no-first-run",
                  "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]


def png(tc, profile: Path, out_png: Path, source_dirs=(), rows=4):
    """The HTML report of a profile as a PNG (headless Chromium)."""
    with tempfile.TemporaryDirectory() as tmp:
        html = Path(tmp) / "report.html"
        cmd = [str(tc.coz_report), "--html", str(html), str(profile)]
        for d in source_dirs:
            cmd += ["--source-dir", str(d)]
        bl.run(cmd, check=False)
        browser = shutil.which("chromium")
        if browser is None or not html.exists():
            print(f"study: no PNG of {profile}: chromium or the page is "
                  "missing (apt-get install chromium)", file=sys.stderr)
            return None
        out_png.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([browser, *CHROMIUM_FLAGS,
                        f"--user-data-dir={Path(tmp) / 'chromium'}",
                        f"--screenshot={out_png.resolve()}",
                        f"--window-size=1100,{260 + 330 * rows}",
                        html.as_uri()],
                       capture_output=True, timeout=120)
    return out_png if out_png.exists() else None
