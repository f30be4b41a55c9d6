"""CPU priority for test programs whose figures a loaded machine skews."""
import os


def favour():
    """A preexec_fn: test programs run with CPU priority where allowed: on a
    shared machine, CPU taken by other processes turns into noise and bias
    in wall-clock rates (Coz sizes delays in CPU time and measures their
    effect in wall time, and "parallel" threads stop running in parallel).
    As root the program gets the lowest real-time round-robin priority (the
    kernel's RT throttling still leaves 5% of each CPU to everything else;
    stalls it causes land in single experiments, which the per-pair medians
    discard); otherwise its own autogroup at niceness -15 (raised
    priority), where the kernel allows it.
    Its threads inherit the priority, the profiler thread too, which then
    waits for busy threads' 100 ms quanta."""
    try:
        os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(1))
        return
    except (OSError, AttributeError):
        pass
    try:
        os.setsid()
        with open("/proc/self/autogroup", "w") as f:
            f.write("-15")
    except OSError:
        pass
