"""The case-study driver shared by bench/realworld/{sqlite,pbzip2,...}.py.

A study module describes one real program with a `Program` subclass (its
Debian source package, how its own build system is driven, its load, its
progress point) and its changes, each a patch under patches/ that follows a
profile: change k is made to the program with changes 1..k-1 applied, as a
developer iterates (profile, change the first line, profile again). Then
it calls `main()`. The steps, each re-runnable alone (`--steps`), results
kept in WORK/NAME/results.json:

  build     the Debian source (bench/dropin/debsrc.py) built through its
            own build system: plain clang -O2 -g and coz-cc (progress point
            given with --coz-progress, no source edit) for the original and
            after each change, and plain clang -O2 -gdwarf-4 with Coz
            0.2.2's COZ_PROGRESS at the same line (the only source edit,
            for Coz's build alone)
  profile   each program a change is made to (the original one while no
            change is written), its coz-cc build profiled as
            a user does (default settings, run after run, one profile) for
            --profile-s seconds: the ranking and when it settled; the HTML
            report as a PNG
  coz022    the same with Coz 0.2.2 (`coz run ---`) on the original program,
            read by coz-report
  settle    re-reads the profiles above (their rankings, and the rankings
            after each prefix of their runs: when the first line settled)
  linecost  the changed line's CPU time per progress visit before and after
            the change (samples x period / visits): the line speedup s
  predict   the program before the change profiled with COZ_FIXED_LINE=the
            line and COZ_FIXED_SPEEDUP=s: the predicted program speedup at s
  actual    plain builds before/after the change, --pairs interleaved
            rounds: the actual program speedup (median of per-round ratios)
  overhead  the original program: plain / coz-cc COZ_OFF=1 / profiling on
            with every speedup 0 (sampling and experiments, no delays) /
            profiling on / Coz 0.2.2 (/ profiling on with --sampler's),
            interleaved rounds: medians of the ratios to plain

Usage (every study takes the same options):
  bench/realworld/NAME.py --bin build/bin [--steps build,actual]
      [--changes 1] [--lock FILE] [--nice -20] [--profile-s 600]
      [--pairs 15] [--json OUT]
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "accuracy"))
sys.path.insert(0, str(HERE.parent / "dropin"))
import benchlib as bl  # noqa: E402
import debsrc  # noqa: E402  (bench/dropin: the one Debian-source fetcher)
import measure  # noqa: E402
import profiling  # noqa: E402

STEPS = ["build", "profile", "coz022", "settle", "linecost", "predict",
         "actual", "overhead"]
PATCHES = HERE / "patches"
FLAGS = {"plain": "-O2 -g", "coz": "-O2 -g", "coz022": "-O2 -gdwarf-4"}


class Change:
    """A source change (patches/PATCH, applied with patch -p1 in the
    source tree) and the line it speeds up: `before(build)` and
    `after(build)` give its file:line in a build without and with the
    change (`after` None: the line's code is gone), or file:first-last
    when the change rewrites a function (COZ_FIXED_LINE speeds up the
    range; its cost is all its lines'). `region(build)`, when
    the change adds code beside the line: (file name, line range, or None
    for the whole file) whose cost says what the change saved
    (profiling.line_cost)."""

    def __init__(self, name, patch, what, before, after, region=None):
        self.name, self.patch, self.what = name, patch, what
        self.before, self.after, self.region = before, after, region


class Build:
    """One build: flavour (plain, coz, coz022), how many of the program's
    changes are applied, its source copy and compilers."""

    def __init__(self, tc, flavour, level, root: Path, jobs):
        self.tc, self.flavour, self.level, self.jobs = tc, flavour, level, \
            jobs
        self.name = f"{flavour}-{level}"
        self.dir = root / self.name
        self.src = self.dir / "src"
        coz = flavour == "coz"
        self.cc = str(tc.coz_cc) if coz else tc.cc
        self.cxx = str(tc.coz_cxx) if coz else tc.cxx
        self.cflags = FLAGS[flavour]


class Program:
    """What a study module defines (see sqlite.py)."""
    name = ""         # results directory
    title = ""        # for tables
    package = ""      # Debian source package
    packages = []     # Debian packages the build needs
    extra_files = []  # files of this directory the build needs (workloads)
    # {directory: Debian source package}: libraries built from their own
    # source inside the program's tree (src/DIRECTORY), so that the
    # profile reaches into them and a change (patch -p1) may edit them
    sources = {}
    changes = []      # [Change], in the order they are made

    def progress(self, build: Build):
        """(file path in build.src, line): the progress point."""
        raise NotImplementedError

    def coz_flags(self, build: Build) -> str:
        """The coz-cc flags that place the progress point (a program may
        add --coz-begin/--coz-end here)."""
        path, line = self.progress(build)
        return f"--coz-progress={path.name}:{line}"

    def build(self, build: Build, progress_flags: str):
        """Runs the program's own build in build.src; returns the
        executable. progress_flags go into its C/C++ flags (coz only)."""
        raise NotImplementedError

    def load(self, exe: Path, scratch: Path) -> measure.Runnable:
        """One bounded run of the load against the executable."""
        raise NotImplementedError

    def check_output(self, build: Build, exe: Path, scratch: Path):
        """Optional: verify a build's output (e.g. against plain)."""


def find_line(path: Path, pattern: str, after: str = None) -> int:
    """1-based number of the first line matching regex pattern (after the
    first line matching `after`, when given)."""
    start = after is None
    for no, text in enumerate(path.read_text(errors="replace").splitlines(),
                              1):
        if not start:
            start = re.search(after, text) is not None
            continue
        if re.search(pattern, text):
            return no
    bl.die(f"no line matching {pattern!r} in {path}: the study expects "
           "the Debian version named in its header")
    return 0


def annotate_for_coz022(path: Path, line: int):
    """Coz 0.2.2 counts progress only through COZ_PROGRESS in the source:
    append it to the progress line and include coz.h in place of the first
    blank line after the last #include above it, so that no line moves
    (the two profilers' rankings then name the same lines)."""
    lines = path.read_text().split("\n")
    last = max(i for i, t in enumerate(lines[:line - 1])
               if t.startswith("#include"))
    blank = next((i for i in range(last + 1, line - 1)
                  if not lines[i].strip()), None)
    if blank is None:
        bl.die(f"{path}: no blank line between line {last + 1} and the "
               "progress point: nowhere to include coz.h without moving "
               "lines")
    lines[blank] = "#include <coz.h>"
    lines[line - 1] += " COZ_PROGRESS;"
    path.write_text("\n".join(lines))


def _stamp(program, b: Build) -> str:
    """What a build depends on besides the fetched source: a change here
    rebuilds it."""
    h = hashlib.sha256()
    for f in [*(PATCHES / c.patch for c in program.changes[:b.level]),
              *(HERE / f for f in program.extra_files)]:
        h.update(f.read_bytes())
    if b.flavour == "coz":
        # the driver, and the pass and runtime it puts in (build/lib/coz-cc)
        for f in [Path(b.cc), *sorted(b.tc.bin.parent.glob("lib/coz-cc/*"))]:
            h.update(f"{f.name} {f.stat().st_mtime}".encode())
    h.update(f"{b.cc} {b.cxx} {b.cflags}".encode())
    return h.hexdigest()


def make_build(program, b: Build, tree: Path, libraries=None):
    """Copies the source (and the libraries' sources: {directory: tree}),
    applies the changes and the annotation, builds; returns the
    executable. Reuses a finished build with the same stamp."""
    stamp, exe_file = b.dir / "stamp", b.dir / "exe"
    if stamp.exists() and stamp.read_text() == _stamp(program, b) and \
            exe_file.exists() and Path(exe_file.read_text()).exists():
        return Path(exe_file.read_text())
    shutil.rmtree(b.dir, ignore_errors=True)
    shutil.copytree(tree, b.src, symlinks=True)
    for sub, lib in (libraries or {}).items():
        shutil.copytree(lib, b.src / sub, symlinks=True)
    for f in program.extra_files:
        shutil.copy(HERE / f, b.src / Path(f).name)
    for c in program.changes[:b.level]:
        bl.run(["patch", "-p1", "-i", str(PATCHES / c.patch)], cwd=b.src)
    path, line = program.progress(b)
    flags = ""
    if b.flavour == "coz022":
        annotate_for_coz022(path, line)
    elif b.flavour == "coz":
        flags = program.coz_flags(b)
    t0 = time.monotonic()
    exe = program.build(b, flags)
    print(f"  built {b.name} in {time.monotonic() - t0:.0f} s: {exe}",
          flush=True)
    exe_file.write_text(str(exe))
    stamp.write_text(_stamp(program, b))
    return exe


def default_scratch(name) -> Path:
    """Where the loads write: a tmpfs when there is one, so that the
    machine's disk (shared, throttled on a VM) adds none of its noise."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        return shm / f"coz-realworld-{name}"
    return Path(bl.REPO / "build-realworld" / name / "scratch")


class Study:
    def __init__(self, program, args):
        self.p, self.args = program, args
        self.tc = bl.Toolchain(args.bin)
        self.work = Path(args.work).resolve() / program.name
        self.work.mkdir(parents=True, exist_ok=True)
        self.scratch = Path(args.scratch) if args.scratch else \
            default_scratch(program.name)
        self.scratch.mkdir(parents=True, exist_ok=True)
        self.lock = measure.Lock(args.lock, args.shared_timing)
        self.results_file = self.work / "results.json"
        self.results = json.loads(self.results_file.read_text()) \
            if self.results_file.exists() else {}
        self.builds, self.exes = {}, {}
        # --sampler: the linecost and predict steps with that sampler, kept
        # beside the default's results (keys "linecost@timer", ...)
        # perf-user: the perf sampler without its samples of kernel time
        # (COZ_KERNEL_SAMPLES=0), as it was before they existed
        self.coz_env = {"COZ_SAMPLER": "perf", "COZ_KERNEL_SAMPLES": "0"} \
            if args.sampler == "perf-user" else \
            {"COZ_SAMPLER": args.sampler} if args.sampler else {}
        self.suffix = f"@{args.sampler}" if args.sampler else ""

    def save(self):
        self.results_file.write_text(json.dumps(self.results, indent=1))

    def point(self):
        path, line = self.p.progress(self.builds["coz-0"])
        return f"{path.name}:{line}"

    def load(self, name, **env):
        return self.p.load(self.exes[name], self.scratch).with_env(**env)

    def change_results(self, k):
        return self.results.setdefault("changes", {}).setdefault(
            self.p.changes[k - 1].name, {"level": k,
                                         "what": self.p.changes[k - 1].what})

    # ---- steps ---------------------------------------------------------

    def step_build(self, levels=None):
        """Builds the original program (level 0) and the program after each
        change (levels 1..n), or only the given levels."""
        try:
            # coz-profiler: the coz022 build includes its coz.h.
            debsrc.install(["make", "patch", "dpkg-dev", "coz-profiler",
                            *self.p.packages])
            tree = debsrc.fetch(self.p.package, self.work / "debian")
            libraries = {sub: debsrc.fetch(pkg, self.work / "debian")
                         for sub, pkg in self.p.sources.items()}
        except debsrc.AptError as e:
            bl.die(str(e))
        self.results["version"] = ", ".join(
            debsrc.version(pkg, self.work / "debian")
            for pkg in [self.p.package, *self.p.sources.values()])
        if levels is None:
            levels = range(len(self.p.changes) + 1)
        variants = [("coz022", 0)] + [(f, k) for k in levels
                                      for f in ("plain", "coz")]
        with self.lock.working():
            for flavour, level in variants:
                b = Build(self.tc, flavour, level, self.work / "builds",
                          self.args.jobs)
                self.builds[b.name] = b
                self.exes[b.name] = make_build(self.p, b, tree, libraries)
        for name, b in self.builds.items():
            if b.flavour != "coz022":
                self.p.check_output(b, self.exes[name], self.scratch)

    def _profile(self, key, variant, tool, seconds):
        prof = self.work / f"{key}.coz"
        print(f"{key}: profiling {variant} for ~{seconds} s", flush=True)
        times = profiling.profile_for(self.load(variant), prof, seconds,
                                      tool, self.lock)
        res = {"profile": str(prof), "run_seconds": times}
        self.summarize_profile(res)
        return res

    def summarize_profile(self, res):
        """The ranking of a profile and when it settled (re-read later
        with --steps settle after a change to the analysis)."""
        prof = Path(res["profile"])
        doc = profiling.report(self.tc, prof)
        entries = profiling.timeline(self.tc, prof, res["run_seconds"])
        res.update({"runs": len(res["run_seconds"]),
                    "experiments": doc.get("experiments"),
                    "ranking": profiling.ranking(doc, 8),
                    "settled": profiling.time_to_ranking(entries),
                    "timeline": entries})

    def step_profile(self, level):
        """Profiles the program with `level` changes applied."""
        res = self._profile(f"profile-{level}", f"coz-{level}", "ours",
                            self.args.profile_s)
        out = (Path(self.args.png_dir) if self.args.png_dir else
               HERE.parent.parent / "docs" / "images") / \
            f"case-{self.p.name}-{level}.png"
        res["png"] = str(profiling.png(self.tc, Path(res["profile"]), out,
                                       [self.builds[f"coz-{level}"].src]))
        self.results.setdefault("profiles", {})[str(level)] = res

    def step_settle(self):
        for res in [*self.results.get("profiles", {}).values(),
                    self.results.get("coz022")]:
            if res and Path(res["profile"]).exists():
                self.summarize_profile(res)

    def step_coz022(self):
        self.results["coz022"] = self._profile(
            "coz022", "coz022-0", "coz022",
            self.args.coz022_s or self.args.profile_s)

    def step_linecost(self, k):
        c = self.p.changes[k - 1]
        old, new = self.builds[f"coz-{k - 1}"], self.builds[f"coz-{k}"]
        before, after = c.before(old), c.after(new)
        regions = {"before": c.region(old), "after": c.region(new)} \
            if c.region else None
        print(f"linecost: {before} vs {after}", flush=True)
        cost = profiling.line_cost(
            {"before": self.load(f"coz-{k - 1}", **self.coz_env),
             "after": self.load(f"coz-{k}", **self.coz_env)},
            {"before": before, "after": after}, self.point(),
            self.args.linecost_rounds, self.lock,
            bl.DEFAULT_PERIOD_US * 1000, regions)
        self.change_results(k)["linecost" + self.suffix] = cost

    def step_predict(self, k):
        res = self.change_results(k)
        s = res["linecost" + self.suffix]["line_speedup"]
        s_pct = min(100, max(1, round(100 * s)))
        loc = self.p.changes[k - 1].before(self.builds[f"coz-{k - 1}"])
        print(f"predict: {loc} at {s_pct}%", flush=True)
        pred = profiling.predict_fixed(
            self.tc, self.load(f"coz-{k - 1}", **self.coz_env), loc, s_pct,
            self.point(), self.args.predict_exps, self.args.predict_max_s,
            self.work / f"predict-{k - 1}{self.suffix}.coz", self.lock)
        prof = self.results.get("profiles", {}).get(str(k - 1), {}).get(
            "profile")
        # the free profile's curve of the line (a range has none)
        one_line = loc.rpartition(":")[2].isdigit()
        if prof and Path(prof).exists() and one_line:
            doc = profiling.report(self.tc, Path(prof))
            src, _, line = loc.rpartition(":")
            row = profiling.rr.find_row(doc, src, int(line))
            pred["free_profile_predicted"] = profiling.predict_from_curve(
                row, s_pct / 100)
            pred["free_profile_rank"] = row["rank"] if row else None
        res["predict" + self.suffix] = pred

    def step_actual(self, k):
        print(f"actual: change {k}, {self.args.pairs} interleaved rounds",
              flush=True)
        times = measure.interleaved(
            {"before": self.load(f"plain-{k - 1}"),
             "after": self.load(f"plain-{k}")}, self.args.pairs, self.lock)
        self.change_results(k)["actual"] = {
            **measure.speedup_stats(times["after"], times["before"]),
            "times": times, "load": bl.loadavg(),
            "timing_lock": "shared" if self.lock.shared_timing else
            "exclusive"}

    def step_overhead(self):
        self.results["overhead"] = overhead(self, self.args.rounds)

    def run(self, steps, changes):
        self.step_build()
        for step in steps:
            if step == "build":
                continue
            if step in ("coz022", "settle", "overhead"):
                getattr(self, f"step_{step}")()
            elif step == "profile":
                # the programs the changes are made to (the original one
                # while no change is written yet), or --profile-levels
                for level in self.args.profile_levels or sorted(
                        {k - 1 for k in changes} or {0}):
                    self.step_profile(level)
            else:
                for k in changes:
                    getattr(self, f"step_{step}")(k)
            self.results.setdefault("done", {})[step] = time.strftime(
                "%Y-%m-%d %H:%M UTC", time.gmtime())
            self.results["machine"] = bl.machine_summary()
            self.save()
        print_table(self.p, self.results)


def overhead(study, rounds):
    """The original program: plain / coz-cc COZ_OFF=1 / profiling on at
    speedups 0 (what the machinery costs without the delays, which are the
    method) / profiling on / Coz 0.2.2, interleaved; medians of the
    per-round ratios to plain (also bench/overhead/realworld.py)."""
    profiles = []

    def profiled(runnable, name, tool="ours"):
        profiles.append(study.scratch / name)
        return profiling.profiled(runnable, profiles[-1], tool)

    variants = {
        "plain": study.load("plain-0"),
        "off": study.load("coz-0", COZ_OFF="1"),
        "s0": profiled(study.load("coz-0", COZ_FIXED_SPEEDUP="0"),
                       "ovh-s0.coz"),
        "on": profiled(study.load("coz-0"), "ovh.coz"),
        "coz022": profiled(study.load("coz022-0"), "ovh022.coz", "coz022")}
    if study.coz_env:  # --sampler: profiling on with it, in the same rounds
        variants["on" + study.suffix] = profiled(
            study.load("coz-0", **study.coz_env), "ovh-s.coz")
    print(f"overhead: {rounds} rounds of {', '.join(variants)}", flush=True)
    times = measure.interleaved(variants, rounds, study.lock)
    for profile in profiles:
        profile.unlink(missing_ok=True)
    out = {"plain_s": bl.median(times["plain"]), "rounds": rounds,
           "load": bl.loadavg(), "times": times,
           "timing_lock": "shared" if study.lock.shared_timing else
           "exclusive"}
    for k in variants:
        if k != "plain":
            out[k] = measure.ratio_stats(times[k], times["plain"])
    return out


def _pct(v):
    return "n/a" if v is None else f"{100 * v:+.1f}%"


def _ci(pair):
    if not pair or None in pair:
        return ""
    return f" [{100 * pair[0]:+.1f}, {100 * pair[1]:+.1f}]"


def _secs(s):
    return "never" if s is None else f"{s:.0f} s"


def _print_profile(label, p):
    st = p["settled"]
    first = ", ".join(f"{x['location']} {x['slope']:+.3f}"
                      for x in p["ranking"][:3])
    print(f"{label}: {p['runs']} runs, {st['total_s']:.0f} s, "
          f"{p['experiments']} experiments; first in the report's order: "
          f"{first or 'none plotted'} (first settled at "
          f"{_secs(st['first_settled_s'])}); first by the slope's "
          f"lower 95% bound: {st['first_lower']} (settled at "
          f"{_secs(st['first_lower_settled_s'])}); the report's rank 1 "
          f"settled at {_secs(st['rank1_settled_s'])}")


def _print_change(name, r):
    print(f"-- change {r['level']} ({name}): {r['what']}")
    if "linecost" in r:
        lc = r["linecost"]
        print(f"line speedup: {_pct(lc['line_speedup'])}"
              f"{_ci(lc['line_speedup_ci'])} ({lc['before']['location']}: "
              f"{lc['before']['ns_per_visit']:.1f} -> "
              f"{lc['after']['ns_per_visit']:.1f} ns per visit)")
        if "region" in lc["before"]:
            rb, ra = lc["before"]["region"], lc["after"]["region"]
            print(f"  from the region {rb['file']} {rb['lines'] or ''}: "
                  f"{rb['ns_per_visit']:.1f} -> {ra['ns_per_visit']:.1f} ns "
                  f"per visit; the line alone: "
                  f"{_pct(lc['line_only_speedup'])}")
    if "predict" in r:
        pr = r["predict"]
        print(f"predicted at {pr['s_pct']}%: {_pct(pr['predicted'])}"
              f"{_ci(pr['predicted_ci'])} (fixed line, {pr['experiments']} "
              f"experiments); free profile: "
              f"{_pct(pr.get('free_profile_predicted'))}")
    if "actual" in r:
        a = r["actual"]
        print(f"actual: {_pct(a['speedup'])}{_ci(a['speedup_ci'])} "
              f"({a['rounds']} rounds, {a['base_s']:.2f} -> "
              f"{a['new_s']:.2f} s)")
        if r.get("predict", {}).get("predicted") is not None:
            diff = r["predict"]["predicted"] - a["speedup"]
            print(f"difference: {100 * diff:+.1f} points")


def print_table(program, r):
    print(f"\n== {program.title} (Debian {r.get('version', '?')})")
    for level, prof in sorted(r.get("profiles", {}).items()):
        _print_profile(f"profile with {level} change(s)", prof)
    for name, ch in sorted(r.get("changes", {}).items(),
                           key=lambda kv: kv[1]["level"]):
        _print_change(name, ch)
    if "coz022" in r:
        _print_profile("Coz 0.2.2", r["coz022"])
    if "overhead" in r:
        o = r["overhead"]
        print(f"overhead: plain {o['plain_s']:.2f} s; " + "; ".join(
            f"{k} x{o[k]['ratio']:.3f}" for k in o
            if isinstance(o[k], dict) and "ratio" in o[k]))


def raise_priority(nice):
    """--nice N (N < 0, root): this process and all it runs get niceness N
    in a session of their own whose autogroup gets N too; with the
    kernel's autogroups, nice alone only ranks processes within a session,
    and other sessions' work would still take half the CPUs."""
    if os.getsid(0) != os.getpid():
        os.execvp("setsid", ["setsid", "-w", sys.executable, *sys.argv])
    try:
        Path("/proc/self/autogroup").write_text(str(nice))
    except OSError:
        pass  # no autogroups: nice alone ranks all processes
    bl.set_nice(nice)


def parser(description):
    """The options of every study (and of bench/overhead/realworld.py)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--bin", default=str(bl.REPO / "build" / "bin"))
    ap.add_argument("--work", default=str(bl.REPO / "build-realworld"),
                    help="work directory (sources, builds, profiles)")
    ap.add_argument("--scratch", help="where the load writes (default: a "
                    "directory in /dev/shm)")
    ap.add_argument("--steps", default=",".join(STEPS),
                    help=f"comma list of: {','.join(STEPS)}")
    ap.add_argument("--changes", help="comma list of change numbers for "
                    "the per-change steps (default all)")
    ap.add_argument("--profile-levels", type=lambda t: [
        int(x) for x in t.split(",")], help="profile the program with these "
        "numbers of changes applied (e.g. 1: after the first change, to "
        "find the next one)")
    ap.add_argument("--lock", help="flock this file: exclusive while "
                    "timing, shared while building and profiling")
    ap.add_argument("--sampler", choices=["perf", "perf-user", "timer"],
                    help="COZ_SAMPLER for the linecost and predict steps "
                    "(results kept beside the default sampler's), and a "
                    "variant of the overhead step; perf-user: perf without "
                    "samples of kernel time")
    ap.add_argument("--shared-timing", action="store_true",
                    help="time under the shared lock (when the exclusive "
                    "one cannot be had; recorded in the results)")
    ap.add_argument("--nice", type=int, default=0,
                    help="niceness for everything the study runs, in its "
                    "own session (e.g. -20 as root, on a machine shared "
                    "with other work)")
    ap.add_argument("--jobs", type=bl.positive_int, default=2)
    ap.add_argument("--profile-s", type=bl.positive_int, default=600)
    ap.add_argument("--coz022-s", type=bl.positive_int)
    ap.add_argument("--linecost-rounds", type=bl.positive_int, default=6)
    ap.add_argument("--predict-exps", type=bl.positive_int, default=30)
    ap.add_argument("--predict-max-s", type=bl.positive_int, default=900)
    ap.add_argument("--pairs", type=bl.positive_int, default=15)
    ap.add_argument("--rounds", type=bl.positive_int, default=10,
                    help="overhead rounds")
    ap.add_argument("--png-dir", help="where the profiles' pictures go "
                    "(default docs/images)")
    ap.add_argument("--json", help="also write the results here")
    return ap


def main(program):
    args = parser(program.title + " case study (bench/realworld/study.py)"
                  ).parse_args()
    steps = [s for s in args.steps.split(",") if s]
    bad = [s for s in steps if s not in STEPS]
    if bad:
        bl.die(f"unknown step(s) {','.join(bad)}: use {','.join(STEPS)}")
    if args.pairs < 10:
        bl.die("--pairs must be at least 10")
    n = len(program.changes)
    try:
        changes = [int(c) for c in args.changes.split(",")] \
            if args.changes else list(range(1, n + 1))
    except ValueError:
        changes = [0]
    if any(not 1 <= c <= n for c in changes):
        bl.die(f"--changes takes numbers from 1 to {n}")
    if args.nice:
        raise_priority(args.nice)
    study = Study(program, args)
    study.run(steps, changes)
    if args.json:
        Path(args.json).write_text(json.dumps(study.results, indent=1))
    return study
