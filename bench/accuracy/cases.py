"""The accuracy cases: which program, which regions to predict, thresholds.

Each target is one region of one program (found by its REGION:<name>
comment). `threshold` is the largest |predicted - actual| in percentage points
that the full run accepts; `quick_threshold` the one of --quick (loose enough
to be stable on a loaded two-core machine, tight enough that a profiler whose
virtual speedups do nothing fails: every quick case has a target whose true
effect is far from what a broken profiler predicts).
"""

from dataclasses import dataclass, field
from typing import List, Optional


@dataclass
class Target:
    region: str
    quick: bool = False  # part of --quick


@dataclass
class Case:
    name: str
    source: str  # under bench/accuracy/cases/
    targets: List[Target]
    metric: str = "elapsed"  # or "latency": what the program speedup is of
    progress_point: Optional[str] = None  # coz-report point to read (None: only one)
    needs_lib: bool = False  # links libbenchwork.so (uninstrumented)
    threshold: float = 3.0
    quick_threshold: float = 10.0
    # Work per run (BENCH_SCALE) for timing runs and for profiling runs.
    scale: float = 0.5
    profile_scale: float = 4.0
    note: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def cxx(self) -> bool:
        return self.source.endswith(".cpp")


CASES = [
    Case("serial", "serial.c",
         [Target("a", quick=True), Target("b")],
         note="two regions, 60/40 of each round"),
    Case("figure1", "figure1.c",
         [Target("a", quick=True), Target("b", quick=True)],
         note="paper Fig. 1: threads per round, a slightly longer than b"),
    Case("pipeline", "pipeline.c",
         [Target("s2"), Target("s1")],
         note="3 stages, mutex+condvar queues, s2 is the bottleneck"),
    Case("contention", "contention.c",
         [Target("pause"), Target("crit")],
         note="hammer thread spins on trylock; cutting its pause slows the program"),
    Case("latency", "latency.c",
         [Target("handle")], metric="latency", progress_point="request",
         note="COZ_BEGIN/COZ_END, 2 workers, 4 requests in flight"),
    Case("phases", "phases.c",
         [Target("a"), Target("c")],
         note="a runs only in the first half of the run"),
    Case("semaphore", "semaphore.c",
         [Target("produce", quick=True), Target("consume", quick=True)],
         note="POSIX semaphores, producer is the bottleneck"),
    Case("blocking_io", "blocking_io.c",
         [Target("compute")],
         note="pipe round trip to a thread that sleeps 1 ms"),
    Case("cxx_threads", "cxx_threads.cpp",
         [Target("produce"), Target("consume")],
         note="std::thread, std::mutex, std::condition_variable"),
    Case("uninstrumented_lib", "uninstrumented_lib.c",
         [Target("lib"), Target("own")], needs_lib=True,
         note="region inside a plain clang -O2 .so; predicted at the call site"),
    Case("fork_join", "fork_join.c",
         [Target("a"), Target("b")],
         note="persistent threads, pthread_barrier, a longer than b"),
]


def find_case(name: str) -> Case:
    for c in CASES:
        if c.name == name:
            return c
    raise KeyError(name)
