#!/usr/bin/env python3
"""Drop-in survey: Debian source packages built with plain clang and with
coz-cc, each through its own build system, and their own test suites run on
both builds with profiling on at its defaults (no COZ_* variable set).

Usage: bench/dropin/run.py --bin BUILD/bin [--work DIR] [--only a,b]
                           [--quick] [--jobs N] [--json FILE] [--markdown FILE]

For each package (packages.py) it fetches the source with `apt-get source`
(debsrc.py), installs the Debian packages its build needs, and in two fresh
copies of the source runs the same commands with CC/CXX = clang-14/clang++-14
and = coz-cc/coz-c++ (CFLAGS = CXXFLAGS = "-O2 -g" in both). It compares, per
test, what each build's harness reported; the exit status of each test
command; the feature checks the build system made (its generated config
headers); the files each tree holds afterwards (a coz-cc build may add only
profiles); and whether the runtime wrote anything ("coz: ...") into the
output the build and the tests saw. Test-suite wall times are recorded for
both.

--quick runs the CI subset (ctest label dropin-quick). Exit status: 0 when
both builds of every package behave the same, 1 when a difference was found,
2 on a set-up error (no network, a missing tool).
"""

import argparse
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "accuracy"))
import benchlib  # noqa: E402
import debsrc  # noqa: E402
import packages  # noqa: E402
import results  # noqa: E402
import table  # noqa: E402

STEP_TIMEOUT_S = 1800
PROFILE_NAMES = ("profile.coz", "profile.callpath")
# A line of the runtime's own on stderr (runtime/util.c prefixes "coz: ").
RUNTIME_LINE = re.compile(r"^coz: .*$", re.M)
# Variables of the caller's that would change either build or the profiler.
SCRUBBED = ("CC", "CXX", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS",
            "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")


def die(msg: str) -> None:
    print(f"dropin: {msg}", file=sys.stderr)
    sys.exit(2)


def flavour_env(args, pkg, flavour: str) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("COZ_") and k not in SCRUBBED}
    if flavour == "plain":
        env.update(CC=args.cc, CXX=args.cxx)
    else:
        env.update(CC=str(args.bin / "coz-cc"), CXX=str(args.bin / "coz-c++"))
    flags = " ".join(["-O2 -g", pkg.flags]).strip()
    env.update(CFLAGS=flags, CXXFLAGS=flags)
    return env


def run_command(cmd: str, tree: Path, env: dict):
    """(exit status or "timeout", output) of one bash line run in TREE; on a
    time-out its whole process group is killed (make's children too)."""
    p = subprocess.Popen(["bash", "-c", cmd], cwd=tree, env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=STEP_TIMEOUT_S)
        return p.returncode, out.decode(errors="replace")
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return "timeout", out.decode(errors="replace")


def children_cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_steps(commands, tree: Path, env: dict, log: Path, jobs: int,
              stop_on_failure: bool):
    """Runs each command in TREE, appending its output to LOG. Returns
    ([(command, exit status)], output text, wall seconds, CPU seconds).
    The CPU time (user + system of every process the commands waited for)
    is what a shared machine's load leaves nearly unchanged: wall time
    there measures the load as much as the toolchain."""
    statuses, texts = [], []
    t0, cpu0 = time.monotonic(), children_cpu_s()
    for template in commands:
        cmd = template.format(jobs=jobs, tree=tree, here=HERE)
        t_cmd = time.monotonic()
        status, out = run_command(cmd, tree, env)
        with log.open("a") as f:
            f.write(f"$ {cmd}\n{out}[exit {status}, "
                    f"{time.monotonic() - t_cmd:.1f} s]\n")
        statuses.append((template, status))
        texts.append(out)
        if status != 0 and stop_on_failure:
            break
    return (statuses, "\n".join(texts), time.monotonic() - t0,
            children_cpu_s() - cpu0)


def tree_files(tree: Path) -> set:
    return {str(p.relative_to(tree)) for p in tree.rglob("*")
            if p.is_file() or p.is_symlink()}


def runtime_lines(tree: Path, outputs: str) -> list:
    """Lines the runtime printed that reached the build's or the tests'
    output, or a log file in the tree (config.log, test logs)."""
    found = RUNTIME_LINE.findall(outputs)
    for path in tree.rglob("*"):
        if path.suffix in (".log", ".trs", ".out", ".err", ".txt", ".json") \
                and path.is_file() and path.stat().st_size < 50_000_000:
            found += RUNTIME_LINE.findall(path.read_text(errors="replace"))
    return found


# The outcome of a CMake check (try_compile, check_function_exists, ...)
# and of a meson one, as their caches and logs record it.
CMAKE_CHECK = re.compile(r"^(?:\w*HAVE_\w*|\w*_WORKS\w*):INTERNAL=.*$", re.M)
MESON_CHECK = re.compile(r"^(?:Library|Has header|Header|Checking for|"
                         r"Checking if|Compiler for|Fetching value)\b.*: "
                         r"(?:YES|NO|\S+)", re.M)


def config_lines(tree: Path, headers) -> list:
    """What the build system found out about the compiler and the system:
    its generated config headers line by line, and the check results in
    _build's CMake cache or meson log."""
    lines = []
    for rel in headers:
        path = tree / rel
        if path.exists():
            lines += [f"{rel}: {line}" for line in
                      path.read_text(errors="replace").splitlines()
                      if line.startswith(("#define", "/* #undef", "#undef"))]
        else:
            lines.append(f"{rel}: (not generated)")
    for rel, pattern in (("_build/CMakeCache.txt", CMAKE_CHECK),
                         ("_build/meson-logs/meson-log.txt", MESON_CHECK)):
        path = tree / rel
        if path.exists():
            lines += [f"{rel}: {m.replace(' (cached)', '')}" for m in
                      pattern.findall(path.read_text(errors="replace"))]
    return lines


def one_flavour(args, pkg, src: Path, flavour: str) -> dict:
    tree = args.work / "runs" / pkg.name / flavour
    log = args.work / "runs" / pkg.name / f"{flavour}.log"
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(src, tree, symlinks=True)
    log.write_text("")
    before = tree_files(tree)
    env = flavour_env(args, pkg, flavour)
    build, test = pkg.quick if args.quick else (pkg.build, pkg.test)
    steps, build_out, build_s, build_cpu = run_steps(
        build, tree, env, log, args.jobs, stop_on_failure=True)
    built = all(s == 0 for _, s in steps)
    r = {"built": built, "build_s": round(build_s, 2),
         "build_cpu_s": round(build_cpu, 2), "log": str(log),
         "tests": {}, "test_s": None, "test_cpu_s": None, "commands": {}}
    if built:
        runs, test_out, test_s, test_cpu = run_steps(
            test, tree, env, log, args.jobs, stop_on_failure=False)
        r["test_s"], r["test_cpu_s"] = round(test_s, 2), round(test_cpu, 2)
        r["commands"] = {c: s for c, s in runs}
        if pkg.parse:
            r["tests"] = pkg.parse(tree, test_out)
        r["tests"].update({f"exit of `{c}`": "PASS" if s == 0 else "FAIL"
                           for c, s in runs})
    else:
        test_out = ""
    after = tree_files(tree)
    r["files"] = sorted(after - before)
    r["profiles"] = sorted(f for f in r["files"]
                           if Path(f).name in PROFILE_NAMES)
    printed = runtime_lines(tree, build_out + test_out)
    r["runtime_lines"], r["runtime_line_count"] = printed[:5], len(printed)
    r["config"] = config_lines(tree, pkg.config)
    return r


def compare(plain: dict, coz: dict) -> list:
    """Every way the coz-cc build was distinguishable from the plain one."""
    found = []
    if plain["built"] != coz["built"]:
        return [f"build: plain {'ok' if plain['built'] else 'failed'}, "
                f"coz-cc {'ok' if coz['built'] else 'failed'}"]
    for name, a, b in results.differences(plain["tests"], coz["tests"]):
        found.append(f"test {name}: plain {a}, coz-cc {b}")
    cfg = sorted(set(plain["config"]) ^ set(coz["config"]))
    found += [f"configuration: {'plain' if c in plain['config'] else 'coz-cc'}"
              f" only: {c}" for c in cfg[:20]]
    if plain["profiles"]:
        found.append(f"the plain build made profiles: {plain['profiles']}")
    extra = sorted(set(coz["files"]) - set(plain["files"]))
    missing = sorted(set(plain["files"]) - set(coz["files"]))
    extra = [f for f in extra if Path(f).name not in PROFILE_NAMES]
    found += [f"file only in the coz-cc tree: {f}" for f in extra[:10]]
    found += [f"file only in the plain tree: {f}" for f in missing[:10]]
    return found + runtime_output(coz)


def runtime_output(coz: dict) -> list:
    if not coz["runtime_lines"]:
        return []
    return [f"the runtime printed {coz['runtime_line_count']} line(s) the "
            f"build or tests saw, e.g. {coz['runtime_lines'][0]!r}"]


def check_alone(coz: dict) -> list:
    """Without a plain build to compare with (--quick): the coz-cc build
    must build, pass every test it ran and print nothing of its own."""
    if not coz["built"]:
        return ["build: coz-cc failed"]
    found = [f"test {n}: coz-cc {s}" for n, s in sorted(coz["tests"].items())
             if s not in results.PASSED + ("SKIP",)]
    return found + runtime_output(coz)


def survey(args, pkg) -> dict:
    print(f"== {pkg.name}", file=sys.stderr, flush=True)
    try:
        debsrc.install(["dpkg-dev", *pkg.deps])
        src = debsrc.fetch(pkg.name, args.work / "src")
    except debsrc.AptError as e:
        die(str(e))
    (args.work / "runs" / pkg.name).mkdir(parents=True, exist_ok=True)
    out = {"package": pkg.name, "version": debsrc.version(pkg.name,
                                                          args.work / "src"),
           "system": pkg.system, "lang": pkg.lang, "note": pkg.note,
           "load": benchlib.loadavg()}
    out["plain"] = None if args.quick else one_flavour(args, pkg, src, "plain")
    out["coz"] = one_flavour(args, pkg, src, "coz")
    out["differences"] = check_alone(out["coz"]) if args.quick \
        else compare(out["plain"], out["coz"])
    for flavour in ("plain", "coz"):
        if out[flavour]:
            out[flavour]["files"] = len(out[flavour]["files"])
    print(table.summary_line(out), file=sys.stderr, flush=True)
    for d in out["differences"][:15]:
        print(f"   difference: {d}", file=sys.stderr)
    if len(out["differences"]) > 15:
        print(f"   ({len(out['differences']) - 15} more in the JSON)",
              file=sys.stderr)
    return out


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the build tree's bin/")
    ap.add_argument("--work", help="sources and builds (default "
                    "$XDG_CACHE_HOME/coz-cc-dropin or ~/.cache/coz-cc-dropin)")
    ap.add_argument("--only", help="comma-separated package names")
    ap.add_argument("--quick", action="store_true",
                    help="the CI subset: the coz-cc build alone of the "
                    "packages that have a quick recipe")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cc", default="clang-14")
    ap.add_argument("--cxx", default="clang++-14")
    ap.add_argument("--json", help="write everything measured to this file")
    ap.add_argument("--markdown", help="write the results table to this file")
    args = ap.parse_args()
    args.bin = Path(args.bin).resolve()
    for tool in ("coz-cc", "coz-c++"):
        if not os.access(args.bin / tool, os.X_OK):
            die(f"{args.bin / tool} is missing: build the tree and pass "
                "--bin BUILD/bin")
    for tool in (args.cc, args.cxx):
        if shutil.which(tool) is None:
            die(f"'{tool}' not found: apt-get install clang-14, or pass "
                "--cc/--cxx")
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    args.work = Path(args.work or Path(cache) / "coz-cc-dropin").resolve()
    return args


def main():
    args = parse_args()
    chosen = packages.PACKAGES
    if args.only:
        names = args.only.split(",")
        unknown = [n for n in names if packages.by_name(n) is None]
        if unknown:
            die(f"unknown package(s) {', '.join(unknown)}: choose from "
                f"{', '.join(p.name for p in packages.PACKAGES)}")
        chosen = [packages.by_name(n) for n in names]
    if args.quick:
        chosen = [p for p in chosen if p.quick]
    args.work.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    surveyed = [survey(args, p) for p in chosen]
    report = {"machine": benchlib.machine_summary(), "seconds": round(
        time.monotonic() - t0), "packages": surveyed}
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    text = table.markdown(surveyed)
    if args.markdown:
        Path(args.markdown).write_text(text)
    print(text)
    bad = [s["package"] for s in surveyed if s["differences"]]
    print(f"dropin: {len(surveyed)} package(s) in {report['seconds']} s; "
          f"{len(bad)} with differences{': ' + ', '.join(bad) if bad else ''}",
          file=sys.stderr)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
