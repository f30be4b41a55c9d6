"""Shared by the accuracy harness and the overhead benchmark: building the
case programs, running them, and reading coz-report's JSON."""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CASES_DIR = HERE / "cases"
REGION_RE = re.compile(r"/\*\s*REGION:(\w+)\s*\*/")
BENCH_RE = re.compile(r"^BENCH elapsed_ns=(\d+)(?: latency_ns=(\d+))?", re.M)
RUN_TIMEOUT_S = 300
# The runtime's default COZ_PERIOD (runtime/flags.def), for labels.
DEFAULT_PERIOD_US = 1000


def positive_int(text: str) -> int:
    """argparse type: a whole number above 0 (e.g. a period in us)."""
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v <= 0:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a positive whole number")
    return v


def die(msg: str) -> None:
    print(f"bench: {msg}", file=sys.stderr)
    sys.exit(2)


def region_lines(source: Path) -> dict:
    """Region name -> 1-based line number of its REGION comment."""
    lines = {}
    for no, text in enumerate(source.read_text().splitlines(), 1):
        m = REGION_RE.search(text)
        if m:
            lines[m.group(1)] = no
    return lines


class Toolchain:
    """Plain clang and the coz-cc tools of one build tree."""

    def __init__(self, bin_dir, cc="clang", cxx="clang++", need_coz=True):
        self.bin = Path(bin_dir).resolve() if bin_dir else None
        self.cc, self.cxx = cc, cxx
        for tool in (cc, cxx):
            if shutil.which(tool) is None:
                die(f"'{tool}' not found: install clang or pass --cc/--cxx")
        self.coz_cc = self.coz_cxx = self.coz_report = None
        if self.bin:
            self.coz_cc = self.bin / "coz-cc"
            self.coz_cxx = self.bin / "coz-c++"
            self.coz_report = self.bin / "coz-report"
        if need_coz:
            for tool in (self.coz_cc, self.coz_cxx, self.coz_report):
                if tool is None or not os.access(tool, os.X_OK):
                    die(f"'{tool}' is missing: build the tree (cmake --build "
                        f"<build>) and pass --bin <build>/bin")


_favour = None  # preexec function for the programs being timed, or None


def set_realtime(enabled: bool, required: bool = True) -> None:
    """Timed programs (not the compilers) run with the lowest real-time
    round-robin priority, so that ordinary load on a shared machine does not
    take their CPUs (the kernel's RT throttling still leaves 5% to others)."""
    global _favour
    if not enabled:
        _favour = None
        return
    try:
        os.sched_getparam(0)
        probe = subprocess.run(["true"], preexec_fn=_set_rr)
        if probe.returncode != 0:
            raise PermissionError
    except (PermissionError, subprocess.SubprocessError, OSError):
        if required:
            die("--rt needs root or CAP_SYS_NICE (SCHED_RR)")
        print("bench: SCHED_RR not permitted, timing at normal priority",
              file=sys.stderr)
        return
    _favour = _set_rr


def _set_rr():
    os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(1))


def run(cmd, env=None, timeout=RUN_TIMEOUT_S, check=True, timed=False,
        cwd=None):
    full_env = dict(os.environ)
    # The profiler's own settings must come only from the harness.
    for k in list(full_env):
        if k.startswith("COZ_") or k.startswith("BENCH_"):
            del full_env[k]
    if env:
        full_env.update(env)
    p = subprocess.run(cmd, env=full_env, capture_output=True, text=True,
                       timeout=timeout, cwd=cwd,
                       preexec_fn=_favour if timed else None)
    if check and p.returncode != 0:
        die(f"{' '.join(map(str, cmd))} exited {p.returncode}:\n"
            f"{p.stderr.strip()[-2000:]}")
    return p


def build_lib(tc: Toolchain, out_dir: Path) -> Path:
    """libbenchwork.so, always plain clang -O2 -g (out of the profiler's scope)."""
    lib = out_dir / "libbenchwork.so"
    run([tc.cc, "-O2", "-g", "-fPIC", "-shared", "-std=c11",
         str(CASES_DIR / "libwork.c"), "-o", str(lib)])
    return lib


# The flags of a build for Debian's Coz 0.2.2 (`coz run ---`): it reads
# DWARF 4 only, and its coz.h finds its runtime with dlsym. That header
# draws warnings, so these builds go without -Werror.
COZ022_FLAGS = ["-gdwarf-4", "-pthread", "-ldl"]


def build_case(tc: Toolchain, case, flavour: str, out_dir: Path,
               extra_flags=()) -> Path:
    """Builds one case. flavour: 'plain' (clang -O2), 'coz' (coz-cc -O2) or
    'coz022' (clang -O2 with COZ022_FLAGS and Debian's coz.h)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    src = CASES_DIR / case.source
    exe = out_dir / case.name
    werror = ["-Werror"]
    if flavour == "plain":
        compiler = tc.cxx if case.cxx else tc.cc
        flags = ["-I", str(REPO / "include"), "-pthread"]
    elif flavour == "coz022":
        compiler = tc.cxx if case.cxx else tc.cc
        flags, werror = COZ022_FLAGS, []
    else:
        compiler = str(tc.coz_cxx if case.cxx else tc.coz_cc)
        flags = []
    std = "-std=c++17" if case.cxx else "-std=c11"
    cmd = [compiler, "-O2", "-g", std, "-Wall", "-Wextra", *werror, *flags,
           *extra_flags, str(src), "-o", str(exe)]
    if case.needs_lib:
        lib_dir = out_dir.parent / "lib"
        lib_dir.mkdir(parents=True, exist_ok=True)
        lib = lib_dir / "libbenchwork.so"
        sources = (CASES_DIR / "libwork.c", HERE / "bench_common.h")
        if not lib.exists() or any(
                s.stat().st_mtime > lib.stat().st_mtime for s in sources):
            build_lib(tc, lib_dir)
        cmd += [f"-L{lib_dir}", "-lbenchwork", f"-Wl,-rpath,{lib_dir}"]
    run(cmd)
    return exe


def run_case(exe: Path, env: dict, cwd=None):
    """Runs a case program; returns (elapsed_ns, latency_ns or None, wall_s)."""
    t0 = time.monotonic()
    p = run([str(exe)], env=env, timed=True)
    wall = time.monotonic() - t0
    m = BENCH_RE.search(p.stdout)
    if not m:
        die(f"{exe} printed no BENCH line:\n{p.stdout[-500:]}{p.stderr[-500:]}")
    lat = float(m.group(2)) if m.group(2) else None
    return float(m.group(1)), lat, wall


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def iqr(xs):
    if len(xs) < 4:
        return float("nan")
    q = statistics.quantiles(xs, n=4)
    return q[2] - q[0]


def set_nice(increment: int) -> None:
    """Changes the niceness of this process and so of all it starts."""
    if increment:
        try:
            os.nice(increment)
        except PermissionError:
            die(f"--nice {increment} needs privileges (root or CAP_SYS_NICE)")


def loadavg() -> float:
    """The 1-minute load average (other work on the machine)."""
    return float(open("/proc/loadavg").read().split()[0])


def machine_summary() -> str:
    """The CPU, with its family and model: a VM's model name ("AMD EPYC")
    hides the host's generation, and generations differ in what an atomic
    instruction costs (docs/results.md, "Re-measured 2026-11-29")."""
    fields = {}
    try:
        for line in open("/proc/cpuinfo"):
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
            if not line.strip():
                break  # the first processor's block is enough
    except OSError:
        pass
    cpu = fields.get("model name", "unknown CPU")
    if "cpu family" in fields and "model" in fields:
        cpu += f" (family {fields['cpu family']} model {fields['model']})"
    load = open("/proc/loadavg").read().split()[:3]
    return (f"{cpu}, {os.cpu_count()} CPUs, load average "
            f"{' '.join(load)}, kernel {os.uname().release}")


# ---- coz-report ---------------------------------------------------------

def split_runs(text: str) -> list:
    """A profile's text cut into its runs, each from its `startup` record
    on (a profile is every run appended to the last)."""
    runs, cur = [], []
    for line in text.splitlines(keepends=True):
        if line.startswith("startup\t") and cur:
            runs.append("".join(cur))
            cur = []
        cur.append(line)
    if cur:
        runs.append("".join(cur))
    return runs


def report_json(tc: Toolchain, profile: Path, min_points=5):
    p = run([str(tc.coz_report), "--json", "--min-points", str(min_points),
             str(profile)], check=False)
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        die(f"coz-report --json {profile} did not print JSON "
            f"(exit {p.returncode}): {p.stderr.strip()[-500:]}")
