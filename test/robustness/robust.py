#!/usr/bin/env python3
"""Robustness tests of issue 7: each test runs a coz-cc built program
(progs/robust.c) the way the issue describes and fails when the program
behaves differently than without profiling, or the profile is lost or
malformed. Usage: robust.py --bindir ... TEST"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from priority import favour  # noqa: E402
from terminal import run_on_terminal  # noqa: E402

A = None
TYPES = {"startup", "shutdown", "samples", "runtime", "experiment",
         "throughput-point", "latency-point"}
SCRATCH = tempfile.mkdtemp(prefix="coz-robust-")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def note(msg):
    print(msg)
    sys.stdout.flush()


def base_env(extra=None):
    e = {k: v for k, v in os.environ.items() if not k.startswith("COZ_")}
    e.update({"COZ_QUIET": "1", "COZ_EXPERIMENT": "50", "COZ_COOLOFF": "5"})
    e.update(extra or {})
    return e


def run(args, env=None, prog="robust", wrap=(), timeout=120, profiled=True,
        out=None, check=True, tty=False, favoured=False):
    """Runs bindir/prog ARGS; returns (CompletedProcess, profile path).
    tty: stderr is a terminal (the runtime's notices show only there).
    favoured: at CPU priority (priority.favour)."""
    out = out or os.path.join(SCRATCH, "p%d.coz" % time.monotonic_ns())
    e = base_env(env)
    e["COZ_OUTPUT"] = out
    if not profiled:
        e["COZ_OFF"] = "1"
    cmd = list(wrap) + [os.path.join(A.bindir, prog)] + [str(a) for a in args]
    note("+ " + " ".join(cmd))
    try:
        if tty:
            p = run_on_terminal(cmd, e, timeout)
        else:
            p = subprocess.run(cmd, env=e, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               timeout=timeout,
                               preexec_fn=favour if favoured else None)
    except subprocess.TimeoutExpired:
        fail("%s did not finish in %d s (hang)" % (cmd, timeout))
    if check and p.returncode != 0:
        fail("%s exited with %d\nstdout: %s\nstderr: %s"
             % (cmd, p.returncode, p.stdout, p.stderr))
    return p, out


def parse(path):
    """Strict parse: every line complete and a known record of key=value
    fields. Returns the list of (type, dict)."""
    if not os.path.exists(path):
        fail("no profile written at %s" % path)
    with open(path) as f:
        text = f.read()
    if text and not text.endswith("\n"):
        fail("profile ends in a partial line: %r" % text[-200:])
    recs = []
    for raw in text.splitlines():
        parts = raw.split("\t")
        if parts[0] not in TYPES:
            fail("unknown record in %r" % raw)
        rec = {}
        for p in parts[1:]:
            if "=" not in p:
                fail("field without '=' in %r" % raw)
            k, v = p.split("=", 1)
            rec[k] = v
        recs.append((parts[0], rec))
    return recs


def experiments(recs, pid=None):
    return [r for t, r in recs if t == "experiment" and
            (pid is None or int(r["pid"]) == pid)]


def pids_of(recs, typ):
    return {int(r["pid"]) for t, r in recs if t == typ}


def on_work_line(recs):
    """Samples are counted in CPU time, which a loaded machine hands out
    sparingly: ask for some, and for most of them on the work line."""
    n = samples_at(recs, "LINE_WORK")
    total = sum(int(r["count"]) for t, r in recs if t == "samples")
    want(n >= 5 and n >= 0.5 * total,
         "samples land on the work line (%d of %d)" % (n, total))


def samples_at(recs, marker):
    line = line_of(marker)
    return sum(int(r["count"]) for t, r in recs
               if t == "samples" and r["location"].endswith(line))


def line_of(marker):
    with open(os.path.join(A.srcdir, "progs", "robust.c")) as f:
        for n, text in enumerate(f, 1):
            if marker in text:
                return "robust.c:%d" % n
    fail("no %s in robust.c" % marker)


def report_malformed(path):
    p = subprocess.run([A.report, "--json", "--min-points", "1", path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=120)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        fail("coz-report --json printed no JSON (status %d): %s"
             % (p.returncode, p.stderr))
    return doc["malformed_records"], doc["experiments"]


def want(cond, msg):
    if not cond:
        fail(msg)
    note("ok: " + msg)


def stderr_lines(p):
    return [l for l in p.stderr.splitlines() if l.strip()]


def profiled_ok(recs, min_exps=1):
    # Experiments last 50 ms of wall time and double while progress is rare;
    # a machine loaded 100 times over stretches them: ask for one.
    n = len(experiments(recs))
    want(n >= min_exps, "profile holds %d experiments (>= %d)" % (n, min_exps))


# ---- 1. perf denied -> timer fallback ----

def t_timer_forced():
    p, out = run(["work", 1200], {"COZ_SAMPLER": "timer", "COZ_QUIET": "0"})
    want(not any("perf" in l for l in stderr_lines(p)),
         "forced timer sampler says nothing about perf: %r" % p.stderr)
    recs = parse(out)
    profiled_ok(recs)
    on_work_line(recs)


def denied(err):
    wrap = [A.deny, err]
    p, out = run(["work", 1200], wrap=wrap)
    want(p.stderr == "", "perf denied with %s, stderr a pipe: silent: %r"
         % (err, p.stderr))
    recs = parse(out)
    profiled_ok(recs)
    on_work_line(recs)
    # A person sees it: one line on a terminal.
    p, out = run(["work", 300], {"COZ_QUIET": "0"}, wrap=wrap, tty=True)
    lines = stderr_lines(p)
    want(any("perf_event_open" in l and "timer" in l for l in lines),
         "perf denied with %s: a line on the terminal: %r" % (err, lines))
    # Many threads: still one line, not one per thread.
    p, out = run(["threads", 400, 40], {"COZ_QUIET": "0"}, wrap=wrap,
                 tty=True)
    lines = [l for l in stderr_lines(p) if "perf_event_open" in l]
    want(len(lines) == 1, "400 threads, still one line: %r" % lines[:3])
    want("joined=400" in p.stdout, "threads ran: %s" % p.stdout.strip())
    if os.path.exists(out):  # a run shorter than an experiment writes none
        parse(out)
    # Forcing perf when it is denied: one line, program runs unprofiled.
    p, out = run(["work", 200], {"COZ_SAMPLER": "perf"}, wrap=wrap)
    lines = stderr_lines(p)
    want(len(lines) == 1 and "COZ_SAMPLER" in lines[0],
         "COZ_SAMPLER=perf when denied: one line %r" % lines)
    want("work done" in p.stdout, "program still runs")


def t_perf_denied_eacces():
    denied("EACCES")


def t_perf_denied_eperm():
    denied("EPERM")


def t_perf_denied_enosys():
    denied("ENOSYS")


# ---- 2. fork and exec ----

def t_fork():
    p, out = run(["fork"])
    want("child status 3" in p.stdout, "forked child ran and exited 3")
    recs = parse(out)
    parent = pids_of(recs, "startup")
    want(len(parent) == 1, "one process wrote the profile: %s" % parent)
    (pid,) = parent
    want(pids_of(recs, "experiment") <= {pid} and
         pids_of(recs, "shutdown") == {pid} and
         pids_of(recs, "runtime") <= {pid},
         "the child (design.md: stops cleanly) wrote no record")
    profiled_ok(recs)


def exec_like(mode):
    p, out = run([mode])
    want(re.search(r"status 0", p.stdout) is not None,
         "%s child exited 0: %s" % (mode, p.stdout.strip()))
    m = re.search(r"work done pid=(\d+)", p.stdout)
    want(m is not None, "the exec'd program ran")
    child = int(m.group(1))
    recs = parse(out)
    want(child in pids_of(recs, "startup") and
         child in pids_of(recs, "shutdown"),
         "the exec'd program (pid %d) profiled itself" % child)
    want(len(experiments(recs, child)) >= 1,
         "its experiments: %d" % len(experiments(recs, child)))
    want(len(pids_of(recs, "startup")) == 2, "parent and child both profiled")


def t_exec():
    exec_like("exec")


def t_execself():
    """exec without fork: the same pid starts a second run in the file."""
    p, out = run(["execself"])
    want("before exec" in p.stdout and "work done" in p.stdout,
         "both images ran: %s" % p.stdout.strip())
    recs = parse(out)
    starts = [i for i, (t, _) in enumerate(recs) if t == "startup"]
    want(len(starts) == 2 and len(pids_of(recs, "startup")) == 1,
         "two runs of one pid in the profile")
    after = [r for t, r in recs[starts[1]:] if t == "experiment"]
    want(len(after) >= 1 and pids_of(recs, "shutdown"),
         "the exec'd image profiled itself (%d experiments)" % len(after))


def t_spawn():
    exec_like("spawn")


def t_vfork():
    p, out = run(["vfork"])
    want("vfork statuses 5 0" in p.stdout, "vfork children: %s" % p.stdout)
    recs = parse(out)
    want(len(pids_of(recs, "startup")) == 1, "only the parent profiled")
    profiled_ok(recs)
    want(len(pids_of(recs, "shutdown")) == 1, "parent shut down cleanly")


# ---- 3. threads ----

def threads(n, conc, wrap=(), env=None, out=None, timeout=240):
    t0 = time.monotonic()
    p, out = run(["threads", n, conc], env, wrap=wrap, out=out,
                 timeout=timeout)
    dt = time.monotonic() - t0
    want("threads=%d joined=%d finished=%d" % (n, n, n) in p.stdout,
         "%d threads (%d at once) in %.1f s: %s" % (n, conc, dt,
                                                    p.stdout.strip()))
    bad = [l for l in stderr_lines(p) if "error" in l.lower()]
    want(not bad, "no error lines: %r" % bad[:3])
    recs = parse(out)
    want(pids_of(recs, "shutdown"), "profile has its shutdown record")
    return recs


def t_threads_10k():
    threads(10000, 10000)


def t_threads_100k():
    threads(100000, 100)


def t_threads_10k_unprivileged():
    if not shutil.which("setpriv"):
        fail("setpriv (util-linux) is needed")
    if os.getuid() != 0:
        # Already unprivileged: the plain 10k test is this test.
        threads(10000, 10000)
        return
    d = tempfile.mkdtemp(prefix="coz-robust-nobody-")
    os.chmod(d, 0o777)
    shutil.copy(os.path.join(A.bindir, "robust"), os.path.join(d, "robust"))
    os.chmod(os.path.join(d, "robust"), 0o755)
    saved = A.bindir
    A.bindir = d
    try:
        out = os.path.join(d, "p.coz")
        threads(10000, 10000, wrap=["setpriv", "--reuid=nobody",
                                    "--regid=nogroup", "--clear-groups"],
                out=out)
        want(os.stat(out).st_uid != 0, "the profile was written by uid %d"
             % os.stat(out).st_uid)
    finally:
        A.bindir = saved


def t_detached():
    p, out = run(["detached", 3000])
    want("detached=3000 finished=3000" in p.stdout, p.stdout.strip())
    parse(out)


def t_ctor_thread():
    p, out = run(["ctor"], {"ROBUST_CTOR": "1"})
    want("ctor thread joined" in p.stdout, "constructor thread ran")
    recs = parse(out)
    # main only waits: work-line samples come from the constructor's thread.
    want(samples_at(recs, "LINE_WORK") >= 1,
         "constructor thread sampled (%d)" % samples_at(recs, "LINE_WORK"))


def t_pthread_exit_main():
    p, out = run(["pthread_exit"], timeout=30)
    want(p.stdout.count("worker 1 done") == 3, "3 detached workers finished")
    recs = parse(out)
    want(pids_of(recs, "shutdown"), "shutdown record written")


# ---- 4. signals ----

def counts(p):
    m = re.search(r"own=(\d+) stray=(\d+) wall_ms=(\d+)", p.stdout)
    if not m:
        fail("no counts in %r" % p.stdout)
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def own_handler(mode):
    """The program's 10 ms interval timer: ITIMER_PROF ticks in process CPU
    time (the same 0.6 s with or without profiling), ITIMER_REAL in wall
    time (which a loaded machine stretches; expirations while one signal is
    pending merge, hence the loose lower bound). Both runs are favoured: the
    profiler thread's CPU time (its line map) ticks the process timer too,
    and while other processes kept the main thread off its CPU those
    signals waited and merged (33 of 71 with two busy processes beside)."""
    base, _ = run([mode], profiled=False, favoured=True)
    own0, stray0, _ = counts(base)
    p, out = run([mode], favoured=True)
    own, stray, wall = counts(p)
    want(stray == 0, "%s: the program's handler saw no foreign signal "
         "(stray=%d; unprofiled %d)" % (mode, stray, stray0))
    lo, hi = (0.5 * own0, 1.5 * own0) if mode == "sigprof" else (
        0.3 * wall / 10, wall / 10 + 5)
    want(lo <= own <= hi, "%s: its own timer signals %d (%.0f..%.0f; "
         "unprofiled %d)" % (mode, own, lo, hi, own0))
    parse(out)


def t_sigprof_own():
    own_handler("sigprof")


def t_sigalrm_own():
    own_handler("sigalrm")


def t_sigblock():
    p, out = run(["sigblock"])
    want("blocked thread: pending=0" in p.stdout,
         "a thread blocking all signals finds none pending: %s"
         % p.stdout.strip())
    parse(out)


def t_altstack():
    # A short period so samples often land inside the 4 KiB-stack handler.
    p, out = run(["altstack"], {"COZ_PERIOD": "50000"})
    want(re.search(r"usr1 sent=(\d+) handled=\1\b", p.stdout) is not None,
         "every SIGUSR1 handled on the 4 KiB sigaltstack: %s"
         % p.stdout.strip())
    parse(out)


def t_sa_restart():
    p, out = run(["restart", 1000], {"COZ_PERIOD": "100000"})
    want("eintr=0 sigprof_restart=1" in p.stdout,
         "blocking reads restarted: %s" % p.stdout.strip())
    parse(out)


# ---- 5. crash safety ----

def crashed(mode, sig):
    out = os.path.join(SCRATCH, mode + ".coz")
    if mode == "forever":
        e = base_env({"COZ_OUTPUT": out})
        cmd = [os.path.join(A.bindir, "robust"), "forever"]
        proc = subprocess.Popen(cmd, env=e, stdout=subprocess.DEVNULL)
        time.sleep(1.5)
        proc.send_signal(signal.SIGKILL)
        rc = proc.wait()
    else:
        p, _ = run([mode], out=out, check=False)
        rc = p.returncode
    want(rc == -sig, "%s ended by signal %d (status %d)" % (mode, sig, rc))
    recs = parse(out)
    n = len(experiments(recs))
    want(n >= 1, "%d finished experiments on file" % n)
    malformed, exps = report_malformed(out)
    want(malformed == 0 and exps >= n - 1,
         "coz-report: %d malformed records, %d experiments" % (malformed, exps))


def t_crash_segv():
    crashed("segv", signal.SIGSEGV)


def t_crash_abort():
    crashed("abort", signal.SIGABRT)


def t_crash_sigkill():
    crashed("forever", signal.SIGKILL)


# ---- 6. allocators ----

def allocator(name, lib):
    prog = "robust_" + name
    path = os.path.join(A.bindir, prog)
    if not os.path.exists(path):
        fail("%s was not built: install %s (scripts/setup.sh)" % (prog, lib))
    needed = subprocess.run(["readelf", "-d", path], stdout=subprocess.PIPE,
                            text=True).stdout
    want("lib%s" % name in needed, "%s links lib%s" % (prog, name))
    p, out = run(["alloc"], prog=prog, timeout=60)
    want("alloc ok=1" in p.stdout, "8 threads churned the heap")
    profiled_ok(parse(out))
    p, out = run(["threads", 2000, 50], prog=prog, timeout=60)
    want("joined=2000" in p.stdout, "2000 threads with %s" % name)


def t_alloc_jemalloc():
    allocator("jemalloc", "libjemalloc-dev")


def t_alloc_tcmalloc():
    allocator("tcmalloc", "libgoogle-perftools-dev")


# ---- 7. bad input ----

GARBAGE = {"U64": ["fast", "-1", "99999999999999999999999", ""],
           "BOOL": ["maybe", "2"],
           "PCT": ["150", "x"],
           "CHOICE": ["magic", ""]}


def flags():
    with open(A.flags) as f:
        return re.findall(r"^COZ_FLAG\((\w+), (\w+),", f.read(), re.M)


def t_bad_env():
    base, _ = run(["work", 150], profiled=False)
    want_out = re.sub(r"pid=\d+", "", base.stdout)
    tested = 0
    for name, typ in flags():
        var = "COZ_" + name
        kind = "CHOICE" if typ.startswith("CHOICE") else typ
        values = GARBAGE.get(kind, ["\x01\x7f[[garbage"])
        for v in values:
            if name == "OUTPUT":
                continue  # t_unwritable_output
            env = {var: v}
            if name.endswith("_OUTPUT"):  # a feature's own output file
                env[var] = "/nonexistent-dir/" + v
                env["COZ_" + name[:-len("_OUTPUT")]] = "cpu"
            p, out = run(["work", 150], env, check=False)
            lines = stderr_lines(p)
            if p.returncode != 0 or re.sub(r"pid=\d+", "", p.stdout) != want_out:
                fail("%s=%r changed the program: status %d, %r"
                     % (var, v, p.returncode, p.stdout))
            # A string that matches nothing (a scope, a line) gets its line
            # from the profiler; bad numbers and words name the variable.
            if len(lines) != 1 or (kind != "STR" and var not in lines[0]):
                fail("%s=%r: want one line naming it, got %r"
                     % (var, v, lines))
            # Call paths (docs/callpath.md) are a feature of their own: a
            # bad value turns only them off.
            feature = name.startswith("CALLPATH")
            if not feature and os.path.exists(out) and experiments(parse(out)):
                fail("%s=%r: profiling should be off" % (var, v))
            tested += 1
    want(tested >= 20, "%d garbage values, one line each, program unchanged"
         % tested)


def t_unwritable_output():
    d = os.path.join(SCRATCH, "adir")
    os.mkdir(d)
    for path in ["/nonexistent-dir/p.coz", d, "/proc/version", "/dev/full"]:
        p, _ = run(["work", 150], out=path, check=False)
        lines = stderr_lines(p)
        want(p.returncode == 0 and "work done" in p.stdout,
             "COZ_OUTPUT=%s: program still runs" % path)
        want(len(lines) == 1 and "COZ_OUTPUT" in lines[0],
             "COZ_OUTPUT=%s: one line: %r" % (path, lines))


def t_no_debug_info():
    p, out = run(["work", 400], prog="robust_nodebug", check=False)
    want(p.returncode == 0 and "work done" in p.stdout,
         "program without debug info runs")
    want(p.stderr == "", "stderr a pipe: silent: %r" % p.stderr)
    p, out = run(["work", 400], {"COZ_QUIET": "0"}, prog="robust_nodebug",
                 check=False, tty=True)
    # " -g": the flag as a word; a temporary directory's random name can
    # hold "-g" too (coz-robust-gy5hb2op failed CI's run once).
    lines = [l for l in stderr_lines(p) if " -g" in l]
    want(len(lines) == 1, "a terminal shows one line about -g: %r"
         % stderr_lines(p))


def driver(args, cwd):
    e = {k: v for k, v in os.environ.items()
         if not k.startswith("COZ_")}
    note("+ coz-cc " + " ".join(args))
    return subprocess.run([A.driver] + args, cwd=cwd, env=e, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=120)


def t_bad_driver_args():
    src = os.path.join(A.srcdir, "progs", "robust.c")
    for bad in (["--coz-progress"], ["--coz-progress="],
                ["--coz-progress=robust.c"], ["--coz-begin=robust.c:10"],
                ["--coz-nonsense=1"], ["--coz-skip="]):
        p = driver(bad + ["-c", src, "-o", "x.o"], SCRATCH)
        lines = stderr_lines(p)
        want(p.returncode != 0 and len(lines) == 1 and "coz" in lines[0],
             "coz-cc %s: refused in one line: %r" % (bad, lines))


def t_missing_progress_line():
    src = os.path.join(A.srcdir, "progs", "robust.c")
    exe = os.path.join(SCRATCH, "robust_badline")
    p = driver(["-g", "-O2", "--coz-progress=robust.c:99999", src,
                "-o", exe], SCRATCH)
    lines = stderr_lines(p)
    want(p.returncode == 0, "a missing line does not stop the build")
    want(len(lines) == 1 and "robust.c:99999" in lines[0],
         "one line names it: %r" % lines)
    e = base_env({"COZ_OUTPUT": os.path.join(SCRATCH, "badline.coz")})
    r = subprocess.run([exe, "work", "300"], env=e, stdout=subprocess.PIPE,
                       text=True, timeout=60)
    want(r.returncode == 0 and "work done" in r.stdout, "the program runs")


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    for opt in ("bindir", "srcdir", "report", "driver", "deny", "flags"):
        ap.add_argument("--" + opt, required=True)
    A = ap.parse_args()
    fn = globals().get("t_" + A.test)
    if not fn:
        fail("no test %s" % A.test)
    try:
        fn()
    finally:
        shutil.rmtree(SCRATCH, ignore_errors=True)
    print("PASS")


if __name__ == "__main__":
    main()
