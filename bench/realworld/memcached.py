#!/usr/bin/env python3
"""The memcached case study (issue 21): Debian's memcached 1.6.18 serving a
memcaslap load on loopback, profiled with coz-cc and with Coz 0.2.2, the
profile's first line with an achievable change changed, and the predicted
program speedup compared with the real one (bench/realworld/study.py does
the steps; this file says how memcached is built, loaded and stopped).

The load: memcaslap's default mix (90% get, 10% set, 64-byte keys, 1 KiB
values) from 2 threads and 32 connections in all, OPS requests per run,
against memcached with 2 worker threads and its default 64 MB of memory. A
run's time is the time memcaslap takes for its requests, so 1 - T_new/T_old
is the throughput's speedup in Coz's convention (the report's).

The progress point is "a response finished": the first statement of
resp_finish() in memcached.c, reached once per response when its last byte
has gone to the socket. It is given to coz-cc only as --coz-progress in
CFLAGS; Coz 0.2.2's build alone gets COZ_PROGRESS in the source there.

usage: bench/realworld/memcached.py --bin build/bin [--steps ...]
           (the options of every study: bench/realworld/study.py)
       bench/realworld/memcached.py funccost [--rounds 4]
           (tokenize_command()'s cost per response before and after the
           change: see function_cost)
"""

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import measure  # noqa: E402
import profiling  # noqa: E402
import study  # noqa: E402
from study import bl, debsrc  # noqa: E402

WORKERS = 2
LOAD_THREADS = 2
CONCURRENCY = 32
# Requests per timed run: ~15 s at the plain build's rate on this machine.
OPS = 2_000_000
RESULT_RE = re.compile(r"Run time: ([\d.]+)s Ops: (\d+) TPS: (\d+)")


class StudyError(Exception):
    """The server or the load failed; the message says what happened."""


def tokenizer_line(build, pattern):
    path = build.src / "proto_text.c"
    return f"proto_text.c:" \
        f"{study.find_line(path, pattern, r'^static size_t tokenize_command')}"


class Memcached(study.Program):
    name = "memcached"
    title = "memcached 1.6.18 under memcaslap"
    package = "memcached"
    packages = ["libevent-dev", "libmemcached-tools"]
    # The line: `e++;`, the step of tokenize_command()'s byte-by-byte loop
    # (the profile's first line with an achievable change,
    # docs/case-studies.md); after the change memchr() steps, called from
    # the header of the loop that replaced it.
    changes = [study.Change(
        "tokenize", "memcached-tokenize-memchr.patch",
        "tokenize_command() finds the spaces with memchr() instead of a "
        "byte-by-byte loop",
        lambda b: tokenizer_line(b, r"^ {8}e\+\+;"),
        lambda b: tokenizer_line(b, r"memchr\(e, ' '"))]

    def progress(self, build):
        path = build.src / "memcached.c"
        return path, study.find_line(path, r"mc_resp \*next = resp->next;",
                                     r"^mc_resp\* resp_finish\(")

    def build(self, build, progress_flags):
        """memcached's own configure and make, the compiler and CFLAGS on
        configure's command line (memcached's -Werror stays on)."""
        flags = f"{build.cflags} {progress_flags}".strip()
        bl.run(["./configure", f"CC={build.cc}", f"CFLAGS={flags}"],
                     cwd=build.src)
        bl.run(["make", "-j", str(build.jobs), "memcached"],
                     cwd=build.src)
        return build.src / "memcached"

    def load(self, exe, scratch):
        return Load(exe)


def build_one(bin_dir, work, flavour="coz", jobs=2) -> Path:
    """One build of the unchanged memcached in WORK/memcached/builds, where
    the study keeps its builds (the soak and the CI test need only one)."""
    program = Memcached()
    root = Path(work).resolve() / program.name
    try:
        debsrc.install(["make", "patch", "dpkg-dev", *program.packages])
        tree = debsrc.fetch(program.package, root / "debian")
    except debsrc.AptError as e:
        raise StudyError(str(e)) from None
    b = study.Build(bl.Toolchain(bin_dir), flavour, 0, root / "builds", jobs)
    return study.make_build(program, b, tree)


def progress_point(exe) -> str:
    """The progress point's name in the profile of a coz build whose
    executable is EXE (coz-cc names it FILE:LINE as given)."""
    path, line = Memcached().progress(SimpleNamespace(src=Path(exe).parent))
    return f"{path.name}:{line}"


def version(work) -> str:
    return debsrc.version(Memcached.package,
                          Path(work).resolve() / Memcached.name / "debian")


def server_argv(exe) -> list:
    argv = [str(exe), "-l", "127.0.0.1", "-U", "0", "-t", str(WORKERS)]
    if os.geteuid() == 0:
        argv += ["-u", "root"]  # memcached refuses root without -u
    return argv


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clean_env(extra: dict) -> dict:
    """This process's environment without the profilers' settings, plus
    EXTRA: they come only from the caller."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COZ_")
           and not k.startswith("BENCH_") and k != "LD_PRELOAD"}
    env.update(extra)
    return env


class Server:
    """memcached (ARGV, maybe under a launcher such as `coz run ---`) on a
    free loopback port; stopped with SIGINT sent to memcached itself (a
    launcher that gets it may kill the server before it writes its
    profile's last records)."""

    def __init__(self, exe, argv, env, log=None):
        self.exe = Path(exe).resolve()
        self.port = free_port()
        self.proc = subprocess.Popen([*argv, "-p", str(self.port)],
                                     env=clean_env(env),
                                     stdout=log or subprocess.DEVNULL,
                                     stderr=log or subprocess.DEVNULL)
        self._wait_ready()
        self.pid = self._server_pid()

    def _wait_ready(self, limit_s=30.0):
        deadline = time.monotonic() + limit_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise StudyError(f"memcached exited with status "
                                 f"{self.proc.returncode} at start-up")
            try:
                socket.create_connection(("127.0.0.1", self.port),
                                         timeout=1).close()
                return
            except OSError:
                time.sleep(0.02)
        self.kill()
        raise StudyError(f"memcached did not accept connections on port "
                         f"{self.port} within {limit_s:.0f} s")

    def _server_pid(self) -> int:
        """memcached's pid: ours, or our launcher's child."""
        pid = self.proc.pid
        for _ in range(8):  # a launcher's launcher, at most a few deep
            try:
                if Path(os.readlink(f"/proc/{pid}/exe")) == self.exe:
                    return pid
                kids = Path(f"/proc/{pid}/task/{pid}/children").read_text()
                pid = int(kids.split()[0])
            except (OSError, IndexError, ValueError):
                break
        self.kill()
        raise StudyError(f"no process running {self.exe} under "
                         f"pid {self.proc.pid}")

    def stats(self) -> dict:
        """memcached's `stats` (name -> value as text)."""
        with socket.create_connection(("127.0.0.1", self.port),
                                      timeout=10) as s:
            s.sendall(b"stats\r\n")
            buf = b""
            while not buf.endswith(b"END\r\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                buf += chunk
        return {p[1]: p[2] for p in (line.split() for line in
                                     buf.decode(errors="replace").splitlines())
                if len(p) == 3 and p[0] == "STAT"}

    def stop(self, limit_s=30.0):
        """SIGINT to memcached, then the exit status of what we started
        (None if it had to be killed)."""
        if self.proc.poll() is None:
            try:
                os.kill(self.pid, signal.SIGINT)
            except ProcessLookupError:
                pass
        try:
            return self.proc.wait(timeout=limit_s)
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()


def memcaslap(port: int, ops=None, seconds=None):
    """memcaslap against the server, for OPS requests or SECONDS; its
    (requests per second, wall seconds)."""
    limit = ["-x", str(ops)] if ops else ["-t", f"{int(seconds)}s"]
    cmd = ["memcaslap", "-s", f"127.0.0.1:{port}", "-T", str(LOAD_THREADS),
           "-c", str(CONCURRENCY), *limit]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    wall = time.monotonic() - t0
    m = RESULT_RE.search(p.stdout)
    if p.returncode != 0 or not m:
        raise StudyError(f"memcaslap exited {p.returncode} without its "
                         f"result line: {(p.stdout + p.stderr)[-500:]}")
    return float(m.group(3)), wall


class Load(measure.Runnable):
    """One run: memcached started (self.argv, self.env: the profiled
    process), memcaslap's OPS requests, SIGINT. Its time is memcaslap's."""

    def __init__(self, exe, ops=OPS):
        super().__init__(server_argv(exe))
        self.exe, self.ops = exe, ops

    def run(self, timeout=None):
        try:
            with Server(self.exe, self.argv, self.env) as srv:
                _, wall = memcaslap(srv.port, ops=self.ops)
                status = srv.stop()
        except StudyError as e:
            bl.die(str(e))
        if status != 0:
            bl.die(f"{self.exe}: exit status {status} on SIGINT "
                         "(None: killed after 30 s)")
        return wall, None


def function_lines(src: Path, name_re: str) -> range:
    """The lines of the C function whose definition matches name_re, up to
    its closing brace in column 0."""
    first = study.find_line(src, name_re)
    last = study.find_line(src, r"^}", name_re)
    return range(first, last + 1)


def function_cost(argv):
    """`memcached.py funccost [--work W] [--bin B] [--rounds N]`:
    tokenize_command()'s CPU time per response (all its lines' samples x
    the period / the point's visits) before and after the change, coz-cc
    builds run alternately with every speedup 0. The change moves the
    loop's work from the ranked line to a memchr() call on another line,
    so the function's cost says what the change did; the study's builds
    are reused (run the study's build step first)."""
    import argparse
    import tempfile
    ap = argparse.ArgumentParser(prog="memcached.py funccost")
    ap.add_argument("--bin", default=str(bl.REPO / "build" / "bin"))
    ap.add_argument("--work", default=str(bl.REPO / "build-realworld"))
    ap.add_argument("--rounds", type=bl.positive_int, default=4)
    ap.add_argument("--nice", type=int, default=0,
                    help="as the study's --nice (e.g. -20 as root)")
    args = ap.parse_args(argv)
    if args.nice:
        study.raise_priority(args.nice)
    builds = Path(args.work).resolve() / Memcached.name / "builds"
    point = progress_point(builds / "coz-0" / "src" / "memcached")
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for lvl in ((0, 1) if r % 2 == 0 else (1, 0)):
                Load(builds / f"coz-{lvl}" / "src" / "memcached").with_env(
                    COZ_OUTPUT=f"{tmp}/{lvl}.coz", COZ_QUIET="1",
                    COZ_FIXED_SPEEDUP="0").run()
        for lvl in (0, 1):
            src = builds / f"coz-{lvl}" / "src" / "proto_text.c"
            lines = function_lines(src, r"^static size_t tokenize_command")
            samples = visits = 0
            for kind, rec in profiling._records(Path(f"{tmp}/{lvl}.coz")):
                loc = rec.get("location", "")
                if kind == "samples" and "/proto_text.c:" in loc and \
                        int(loc.rsplit(":", 1)[1]) in lines:
                    samples += int(rec["count"])
                elif kind == "runtime" and rec.get("point") == point:
                    visits += int(rec["visits"])
            ns = samples * bl.DEFAULT_PERIOD_US * 1000 / visits
            out[lvl] = ns
            print(f"change level {lvl}: tokenize_command (proto_text.c:"
                  f"{lines.start}-{lines.stop - 1}) {samples} samples in "
                  f"{visits} responses: {ns:.2f} ns per response")
    print(f"function speedup: {100 * (1 - out[1] / out[0]):.0f}%")


if __name__ == "__main__":
    if sys.argv[1:2] == ["funccost"]:
        function_cost(sys.argv[2:])
    else:
        study.main(Memcached())
