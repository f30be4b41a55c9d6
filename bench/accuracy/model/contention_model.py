#!/usr/bin/env python3
"""A discrete-time model of bench/accuracy/cases/contention.c that separates
the virtual-speedup method from its sampled implementation.

Why it exists: the contention case is the suite's largest miss. The model
answers whether the miss is the method (a virtual speedup is not a real
one), the runtime (a defect in how delays are paid), or the sampling period
(delays come in chunks of speedup x period, charged when a sample lands,
after the line already ran). It runs the case's two threads for 3 s of
simulated time, with the region lengths measured on the benchmark machine,
in three modes:

  real     the region's work is cut by s (what the harness times);
  ideal    while the region runs, every other running thread runs at rate
           1-s, and the effective time is the elapsed time minus the delay
           (the paper's virtual speedup with continuous, exact pauses);
  sampled  what the runtime does: every `period` of a thread's CPU time it
           takes a sample; a sample in the region adds s x period to the
           thread's delay count and raises the global count G; a thread
           behind G pauses for the difference at its own samples and before
           lock, trylock and unlock (Tables 1-2); a thread woken by an
           unlock is credited up to G.

It prints, per target and speedup, the effect each mode predicts (mean of
three seeds) and the sampled mode's error against the real one. Regions,
in us: the hammer's pause 740 (uniform 370..1110), its hold 500; the main
thread's critical section 490 and its work outside 120 (uniform 60..180),
taken from profile sample counts at 1 ms of CPU per sample. It models
neither scheduling, wake-up latency nor the cost of sampling.

Usage: contention_model.py [PERIOD_US ...]     (default: 1000 250 100)
One period takes about a minute.
       contention_model.py --check
checks the model itself on 1 s of simulated time (~10 s; a ctest): the
exact virtual speedup must match the real cut within 1 pp, and the sampled
one at 100 us within 2 pp.
"""
import random
import sys

PAUSE_US, HOLD_US, CRIT_US, OUTSIDE_US = 740, 500, 490, 120
SIM_US = 3_000_000
CHECK_SIM_US = 1_000_000
STEP_US = 2
WORK_STATES = ('outside', 'crit', 'pause', 'hold')
NEXT_CALL = {'outside': 'lock', 'crit': 'unlock', 'pause': 'trylock',
             'hold': 'unlock'}
# lock call -> (region once acquired, its length, state while not acquired)
ACQUIRE = {'lock': ('crit', CRIT_US, 'blocked'),
           'trylock': ('hold', HOLD_US, 'spin')}


class Thread:
    def __init__(self, state, left, clock):
        self.state, self.left, self.clock = state, left, clock
        self.local = 0.0   # delay executed or absorbed (us)
        self.paying = 0.0  # pause still to run


def simulate(mode, target, s, period, seed, sim_us=SIM_US):
    """Rounds of the main thread per us of effective time."""
    rng = random.Random(seed)

    def jitter(mean):
        return mean / 2 + rng.random() * mean

    def length(region, mean, jittered):
        v = jitter(mean) if jittered else mean
        return v * (1 - s) if mode == 'real' and region == target else v

    main = Thread('outside', length('outside', OUTSIDE_US, True),
                  rng.random() * period)
    hammer = Thread('pause', length('pause', PAUSE_US, True),
                    rng.random() * period)
    holder, G, rounds = None, 0.0, 0

    def acquire(th, region, mean):
        nonlocal holder
        holder = th
        th.state, th.left = region, length(region, mean, False)

    def pay_owed(th):
        """Starts a pause for what th owes; True if it must pause."""
        owed = G - th.local
        if mode == 'sampled' and owed > 0:
            th.paying = owed
            return True
        return False

    t = 0
    while t < sim_us:
        t += STEP_US
        target_runs = any(th.state == target and th.paying <= 0
                          for th in (main, hammer))
        if mode == 'ideal' and target_runs:
            G += s * STEP_US
        for th in (hammer, main):
            if th.paying > 0:
                th.paying -= STEP_US
                th.local += STEP_US
                continue
            if th.state == 'blocked':
                continue
            if mode == 'sampled':
                th.clock += STEP_US
                if th.clock >= period:
                    th.clock -= period
                    if th.state == target:
                        th.local += s * period
                        G = max(G, th.local)
                    elif pay_owed(th):
                        continue
            if th.state in WORK_STATES:
                rate = 1.0
                if mode == 'ideal' and target_runs and th.state != target:
                    rate = 1 - s
                th.left -= STEP_US * rate
                if th.left > 0:
                    continue
                th.state = NEXT_CALL[th.state]
                if pay_owed(th):  # the call executes owed delays first
                    continue
            elif th.state == 'spin':
                th.state = 'trylock'
                if pay_owed(th):
                    continue
            if th.state in ACQUIRE:
                inside, mean, waiting = ACQUIRE[th.state]
                if holder is None:
                    acquire(th, inside, mean)
                else:
                    th.state = waiting
            elif th.state == 'unlock':
                holder = None
                if th is main:
                    rounds += 1
                    th.state = 'outside'
                    th.left = length('outside', OUTSIDE_US, True)
                else:
                    th.state = 'pause'
                    th.left = length('pause', PAUSE_US, True)
                    if main.state == 'blocked':  # the unlock wakes main
                        acquire(main, 'crit', CRIT_US)
                        main.local = max(main.local, G)
    effective = sim_us - (0 if mode == 'real' else G)
    return rounds / effective


def effect(mode, target, s, period, seeds=(1, 2, 3), sim_us=SIM_US):
    gains = [simulate(mode, target, s, period, seed, sim_us) /
             simulate('real', target, 0.0, period, seed, sim_us) - 1
             for seed in seeds]
    return 100 * sum(gains) / len(gains)


def check():
    passed = True
    for target in ('pause', 'crit'):
        for s in (0.25, 0.5):
            real = effect('real', target, s, 1000, (1,), CHECK_SIM_US)
            for mode, period, limit in (('ideal', 1000, 1.0),
                                        ('sampled', 100, 2.0)):
                got = effect(mode, target, s, period, (1,), CHECK_SIM_US)
                ok = abs(got - real) <= limit
                print(f'{target} {s:.0%}: real {real:+.1f}%, {mode} at '
                      f'{period} us {got:+.1f}% (limit {limit} pp) '
                      f'{"ok" if ok else "FAIL"}')
                passed &= ok
    return 0 if passed else 1


def main():
    if sys.argv[1:] == ['--check']:
        sys.exit(check())
    periods = [float(a) for a in sys.argv[1:]] or [1000, 250, 100]
    print('period  line           s   real  ideal  sampled  error pp')
    for period in periods:
        for target, line in (('pause', 'contention.c:27'),
                             ('crit', 'contention.c:51')):
            for s in (0.25, 0.5):
                real = effect('real', target, s, period)
                ideal = effect('ideal', target, s, period)
                sampled = effect('sampled', target, s, period)
                print(f'{period:5.0f}us {line} {s:4.0%} {real:+6.1f} '
                      f'{ideal:+6.1f} {sampled:+8.1f} {sampled - real:+9.1f}',
                      flush=True)


if __name__ == '__main__':
    main()
