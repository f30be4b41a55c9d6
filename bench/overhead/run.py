#!/usr/bin/env python3
"""Overhead benchmark: what coz-cc costs a program.

1. Wall-time ratios for every accuracy program and a few CPU-bound ones,
   four variants timed interleaved in one session (plain clang -O2 -g;
   coz-cc -O2 -g run with COZ_OFF=1; coz-cc with profiling on but every
   speedup 0 (COZ_FIXED_SPEEDUP=0: sampling and experiments, no delays);
   coz-cc with profiling on), the median over rounds of each variant's
   time divided by the plain build's time in the same round. The delays a
   virtual speedup inserts are its method, not a cost of the machinery, so
   the third column tells the two apart. The CPU-bound programs, which
   run one thread, have one more: the plain build with one idle thread
   (programs/idle_thread.c, `floor`), what any profiler's own thread costs
   them through glibc's multi-thread paths. Every build of the CPU-bound
   programs starts each function at a 64-byte line (CPU_LAYOUT): each is
   one hot loop, and where that loop lands decided their ratios by up to
   18% on identical machine code (docs/results.md, "The direct table moves
   into the runtime").
2. The cost of one progress-point visit in ns, 1 and 2 threads (a tight
   loop with COZ_PROGRESS_NAMED vs the same loop without it, both built with
   coz-cc; and, for reference, one shared atomic counter, the cache-line
   ping-pong that per-CPU shards avoid).
3. Startup on a large program: Debian's SQLite (amalgamation and shell,
   ~270k lines, fetched with `apt-get source` at benchmark time, see
   sqlite_source.py) or, with --startup-program synthetic, a generated
   ~250k-line C program; plain vs coz-cc, wall time of a run that does
   almost nothing, and the compile times.

    bench/overhead/run.py --bin build/bin [--runs 7] [--json out.json]
"""

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "accuracy"))
import benchlib as bl  # noqa: E402
import sqlite_source  # noqa: E402
from cases import CASES  # noqa: E402

CPU_PROGRAMS = ["cpu_calls.c", "cpu_sort.c", "cpu_matrix.c", "cpu_mutex.c"]
# The same layout rule in every build of them, so that the ratios measure
# the code each build runs rather than where the linker put it.
CPU_LAYOUT = ["-falign-functions=64"]
GEN_PROGRAM = bl.REPO / "bench" / "startup" / "gen_program.py"


class Program:
    def __init__(self, name, plain, coz, env, coz022=None, floor=None):
        self.name, self.plain, self.coz, self.env = name, plain, coz, env
        self.coz022 = coz022  # the build for Coz 0.2.2, with --coz022
        self.floor = floor  # plain with an idle thread (one-thread programs)


def build_cpu(tc, src: Path, flavour, out: Path, defines=()):
    out.mkdir(parents=True, exist_ok=True)
    exe = out / (src.stem + "".join(d.replace("-D", "_").lower()
                                    for d in defines))
    werror, extra = ["-Werror"], []
    if flavour == "floor":
        exe = exe.with_name(exe.name + "_floor")
        extra = [str(HERE / "programs" / "idle_thread.c")]
    if flavour in ("plain", "floor"):
        cmd = [tc.cc, "-I", str(bl.REPO / "include"), "-pthread"]
    elif flavour == "coz022":  # Debian's coz.h
        cmd, werror = [tc.cc, *bl.COZ022_FLAGS], []
    else:
        cmd = [str(tc.coz_cc)]
    bl.run(cmd + ["-O2", "-g", *CPU_LAYOUT, "-std=c11", "-Wall", "-Wextra",
                  *werror, *defines, str(src), *extra, "-o", str(exe)])
    return exe


def timed(exe, env, args=(), wrap=(), cwd=None):
    t0 = time.monotonic()
    p = bl.run([*wrap, str(exe), *args], env=env, timed=True, cwd=cwd)
    return time.monotonic() - t0, p.stdout


def wall_ratios(programs, runs, scratch: Path):
    """Per program: medians of off/plain and on/plain per-round ratios."""
    rows = []
    for prog in programs:
        order = ["plain", "off", "sampling", "on"]
        if prog.coz022:
            order.append("coz022")
        if prog.floor:
            order.append("floor")
        times = {b: [] for b in order}
        for r in range(runs):
            k = r % len(order)
            for build in order[k:] + order[:k]:  # rotate the order
                if build == "coz022":  # Coz 0.2.2 as users run it
                    times[build].append(timed(
                        prog.coz022, dict(prog.env), cwd=scratch,
                        wrap=("coz", "run", "-o", str(scratch / "c.coz"),
                              "---"))[0])
                    continue
                exe = {"plain": prog.plain, "floor": prog.floor}.get(
                    build, prog.coz)
                env = dict(prog.env)
                if build == "off":
                    env["COZ_OFF"] = "1"
                if build in ("sampling", "on"):
                    env.update({"COZ_OUTPUT": str(scratch / "ovh.coz"),
                                "COZ_QUIET": "1"})
                if build == "sampling":
                    env["COZ_FIXED_SPEEDUP"] = "0"
                times[build].append(timed(exe, env)[0])
        (scratch / "ovh.coz").unlink(missing_ok=True)
        ratio = {b: bl.median([t / p for t, p in zip(times[b], times["plain"])])
                 for b in order[1:]}
        rows.append({"program": prog.name, "runs": runs,
                     "plain_s": bl.median(times["plain"]),
                     "off_s": bl.median(times["off"]),
                     "on_s": bl.median(times["on"]),
                     "off_ratio": ratio["off"],
                     "sampling_ratio": ratio["sampling"],
                     "on_ratio": ratio["on"],
                     "coz022_ratio": ratio.get("coz022"),
                     "floor_ratio": ratio.get("floor")})
        print(f"{prog.name:<20} plain {rows[-1]['plain_s']:7.3f}s  "
              f"off x{ratio['off']:.3f}  sampling x{ratio['sampling']:.3f}  "
              f"on x{ratio['on']:.3f}"
              + (f"  Coz 0.2.2 x{ratio['coz022']:.3f}" if prog.coz022 else "")
              + (f"  idle thread x{ratio['floor']:.3f}" if prog.floor else ""),
              flush=True)
    return rows


def progress_cost(tc, work: Path, runs):
    src = HERE / "programs" / "progress_cost.c"
    with_pt = build_cpu(tc, src, "coz", work)
    without = build_cpu(tc, src, "coz", work, ("-DNO_PROGRESS",))
    shared = build_cpu(tc, src, "coz", work, ("-DSHARED_ATOMIC",))
    out = {}
    for threads in ("1", "2"):
        per = {"with": [], "without": [], "shared": []}
        for _ in range(runs):
            for key, exe in (("with", with_pt), ("without", without),
                             ("shared", shared)):
                _, stdout = timed(exe, {"COZ_OFF": "1"}, (threads,))
                per[key].append(float(stdout.split("=")[1]))
        visit = [w - wo for w, wo in zip(per["with"], per["without"])]
        atomic = [s - wo for s, wo in zip(per["shared"], per["without"])]
        out[threads] = {"visit_ns": bl.median(visit),
                        "shared_atomic_ns": bl.median(atomic),
                        "loop_ns": bl.median(per["without"])}
        print(f"progress visit, {threads} thread(s): "
              f"{out[threads]['visit_ns']:.2f} ns (one shared atomic counter: "
              f"{out[threads]['shared_atomic_ns']:.2f} ns)", flush=True)
    return out


def startup_program(kind, work: Path, lines):
    """The large program of the startup benchmark: its C files, compiler
    and link flags, the arguments of a run that does almost nothing, a
    label, and its source lines (.c and .h files beside its sources)."""
    if kind == "sqlite":
        files = sqlite_source.amalgamation(work / "sqlite")
        prog = {"label": "SQLite shell, Debian source "
                f"{sqlite_source.version(work / 'sqlite')} (amalgamation)",
                "cfiles": files, "cflags": ["-I", str(files[0].parent)],
                "libs": ["-lm", "-lpthread"],
                "args": ["-batch", ":memory:", "select 1;"]}
    else:
        src = work / "src"
        bl.run([sys.executable, str(GEN_PROGRAM), str(src), str(lines)])
        prog = {"label": "synthetic program (bench/startup/gen_program.py)",
                "cfiles": sorted(f for f in src.iterdir() if f.suffix == ".c")
                + [HERE / "programs" / "startup_main.c"],
                "cflags": ["-I", str(bl.REPO / "include")], "libs": [],
                "args": []}
    src_dir = prog["cfiles"][0].parent
    prog["lines"] = sum(len(f.read_text(errors="replace").splitlines())
                        for f in src_dir.iterdir() if f.suffix in (".c", ".h"))
    return prog


def compile_all(cc, prog, obj: Path):
    """Compiles prog's C files two at a time (the machine has two cores)."""
    obj.mkdir(parents=True, exist_ok=True)
    pending = list(prog["cfiles"])
    while pending:
        batch, pending = pending[:2], pending[2:]
        procs = [subprocess.Popen([cc, "-O2", "-g", *prog["cflags"], "-c",
                                   str(f), "-o", str(obj / (f.stem + ".o"))])
                 for f in batch]
        # Both are waited for, even when the first failed.
        if any([p.wait() != 0 for p in procs]):
            bl.die(f"{cc} failed on the startup program ({prog['label']})")


def startup(tc, work: Path, kind, lines, runs):
    prog = startup_program(kind, work, lines)
    exes, compile_s = {}, {}
    for flavour, cc in (("plain", tc.cc), ("coz", str(tc.coz_cc))):
        obj = work / f"obj-{kind}-{flavour}"
        t0 = time.monotonic()
        compile_all(cc, prog, obj)
        exe = work / f"big-{kind}-{flavour}"
        bl.run([cc, "-O2", *map(str, sorted(obj.glob("*.o"))), *prog["libs"],
                "-o", str(exe)])
        compile_s[flavour] = time.monotonic() - t0
        exes[flavour] = exe
    times = {"plain": [], "off": [], "on": []}
    prof = work / "big.coz"
    args = prog["args"]
    for _ in range(runs):
        times["plain"].append(timed(exes["plain"], {}, args)[0])
        times["off"].append(timed(exes["coz"], {"COZ_OFF": "1"}, args)[0])
        times["on"].append(timed(exes["coz"], {"COZ_OUTPUT": str(prof),
                                               "COZ_QUIET": "1"}, args)[0])
    prof.unlink(missing_ok=True)
    res = {"program": prog["label"], "lines": prog["lines"], "runs": runs,
           "compile_plain_s": compile_s["plain"], "compile_coz_s": compile_s["coz"],
           **{f"{k}_ms": 1000 * bl.median(v) for k, v in times.items()}}
    print(f"startup, {prog['label']}, {prog['lines']} lines: plain "
          f"{res['plain_ms']:.1f} ms, coz-cc off {res['off_ms']:.1f} ms, on "
          f"{res['on_ms']:.1f} ms; compile {res['compile_plain_s']:.0f}s vs "
          f"{res['compile_coz_s']:.0f}s", flush=True)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=str(bl.REPO / "build" / "bin"))
    ap.add_argument("--work", help="scratch directory (default <bin>/../bench-overhead)")
    ap.add_argument("--cc", default="clang")
    ap.add_argument("--cxx", default="clang++")
    ap.add_argument("--runs", type=int, default=7, help="rounds per program (>= 5)")
    ap.add_argument("--startup-program", choices=("sqlite", "synthetic"),
                    default="sqlite", help="large program of the startup "
                    "benchmark: Debian's SQLite (fetched with apt-get source) "
                    "or a generated one")
    ap.add_argument("--lines", type=int, default=250000,
                    help="size of the synthetic startup program")
    ap.add_argument("--skip", default="", help="comma list of: wall,visit,startup")
    ap.add_argument("--period-us", type=bl.positive_int,
                    help="COZ_PERIOD of the wall-time runs, in us (runtime "
                    f"default {bl.DEFAULT_PERIOD_US})")
    ap.add_argument("--sampler", choices=("auto", "perf", "timer"),
                    help="COZ_SAMPLER of the wall-time runs (runtime default)")
    ap.add_argument("--rt", action="store_true",
                    help="run the timed programs SCHED_RR priority 1 (root): "
                    "robust to ordinary load on a shared machine")
    ap.add_argument("--nice", type=int, default=0,
                    help="niceness increment for the harness and everything "
                    "it runs (e.g. -20 as root, on a machine shared with "
                    "other work)")
    ap.add_argument("--coz022", action="store_true",
                    help="also time Debian's Coz 0.2.2 (`coz run ---`, "
                    "coz-profiler) on each program, interleaved")
    ap.add_argument("--json", help="write the results as JSON here")
    args = ap.parse_args()
    bl.set_nice(args.nice)
    bl.set_realtime(args.rt)
    if args.runs < 5:
        bl.die("--runs must be at least 5")
    tc = bl.Toolchain(args.bin, args.cc, args.cxx)
    if args.coz022 and not shutil.which("coz"):
        bl.die("--coz022: coz (Debian's coz-profiler) is not installed: "
               "apt-get install coz-profiler")
    work = Path(args.work) if args.work else tc.bin.parent / "bench-overhead"
    work.mkdir(parents=True, exist_ok=True)
    skip = set(filter(None, args.skip.split(",")))
    print(f"machine: {bl.machine_summary()}")
    result = {"machine": bl.machine_summary(),
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "runs": args.runs, "period_us": args.period_us or bl.DEFAULT_PERIOD_US,
              "sampler": args.sampler or "default"}
    if "wall" not in skip:
        # The harness passes no COZ_* variable of its own environment on.
        env = {"COZ_PERIOD": str(args.period_us * 1000)} if args.period_us else {}
        if args.sampler:
            env["COZ_SAMPLER"] = args.sampler
        programs = []
        for case in CASES:
            programs.append(Program(
                case.name, bl.build_case(tc, case, "plain", work / "plain"),
                bl.build_case(tc, case, "coz", work / "coz"), env,
                bl.build_case(tc, case, "coz022", work / "coz022")
                if args.coz022 else None))
        for src in CPU_PROGRAMS:
            path = HERE / "programs" / src
            programs.append(Program(
                path.stem, build_cpu(tc, path, "plain", work / "plain"),
                build_cpu(tc, path, "coz", work / "coz"), env,
                build_cpu(tc, path, "coz022", work / "coz022")
                if args.coz022 else None,
                build_cpu(tc, path, "floor", work / "plain")))
        with tempfile.TemporaryDirectory() as scratch:
            rows = wall_ratios(programs, args.runs, Path(scratch))
        result["wall"] = rows
        on = [r["on_ratio"] - 1 for r in rows]
        off = [r["off_ratio"] - 1 for r in rows]
        result["mean_on_overhead"] = statistics.mean(on)
        result["mean_off_overhead"] = statistics.mean(off)
        result["mean_sampling_overhead"] = statistics.mean(
            r["sampling_ratio"] - 1 for r in rows)
        print(f"mean overhead: profiling on {100 * statistics.mean(on):+.1f}%, "
              f"off {100 * statistics.mean(off):+.1f}%")
        if args.coz022:
            coz = [r["coz022_ratio"] - 1 for r in rows]
            result["mean_coz022_overhead"] = statistics.mean(coz)
            print(f"Coz 0.2.2: {100 * statistics.mean(coz):+.1f}% mean; "
                  f"coz-cc below it on {sum(r['on_ratio'] < r['coz022_ratio'] for r in rows)} "
                  f"of {len(rows)} programs")
    if "visit" not in skip:
        result["visit"] = progress_cost(tc, work / "visit", args.runs)
    if "startup" not in skip:
        result["startup"] = startup(tc, work / "startup",
                                    args.startup_program, args.lines, args.runs)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
