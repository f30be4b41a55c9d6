/* delays.c: the global and per-thread delay counts (see delays.h). */
#include "delays.h"
#include "thread_state.h"
#include "util.h"

#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/prctl.h>

_Atomic uint64_t coz_global_delay_ns;

/* How a pause waits. The pausing thread stands for a thread of the sped-up
 * program that would be running, so its CPU stays busy: a CPU left idle
 * wakes up slower (on VMs, with deep idle states), a cost sped-up
 * experiments would pay and their baselines not (docs/results.md, "Design
 * figures"). So a pause spins, yielding the CPU to any thread that wants it,
 * while the program has at most SPIN_THREADS_PER_CPU threads per CPU (blocked
 * ones count too: the runtime does not know which are). Beyond that, spinning
 * threads would churn the scheduler, so the pause sleeps with a timer slack of
 * 1 ns, wakes early by the expected wake-up latency (a running estimate over
 * all pauses) and spins the rest: a pause that ends late delays its thread just
 * as it was about to wake another thread or exit, which a shorter pause later
 * cannot give back. */
#define SPIN_THREADS_PER_CPU 4
static _Atomic uint64_t wake_latency_ns = 50000;
static _Atomic long usable_cpus;

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ volatile("yield");
#endif
}

static long cpus(void) {
  long n = atomic_load_explicit(&usable_cpus, memory_order_relaxed);
  if (n == 0) {
    cpu_set_t set;
    /* The system call: async-signal-safe. Returns the mask's size. */
    if (syscall(SYS_sched_getaffinity, 0, sizeof set, &set) > 0)
      n = CPU_COUNT(&set);
    if (n <= 0)
      n = 1;
    atomic_store_explicit(&usable_cpus, n, memory_order_relaxed);
  }
  return n;
}

/* Sleeps until about `latency` before the deadline; updates the estimate. */
static void sleep_most(uint64_t ask, uint64_t latency) {
  uint64_t start = coz_now_ns();
  int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
  if (slack > 1)
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  struct timespec req = {(time_t)(ask / 1000000000u),
                         (long)(ask % 1000000000u)};
  struct timespec rem;
  /* The system call itself: nanosleep() is interposed (io_checkpoints.c)
   * and a delay is no wait of the program's. A program's signal handler
   * may cut the sleep short: sleep the rest. */
  while (syscall(SYS_nanosleep, &req, &rem) != 0 && errno == EINTR)
    req = rem;
  if (slack > 1)
    prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0);
  uint64_t late = coz_now_ns() - (start + ask);
  if ((int64_t)late < 0)
    late = 0;
  /* EWMA, weight 1/8; racy updates only lose a sample. */
  atomic_store_explicit(&wake_latency_ns, latency - latency / 8 + late / 8,
                        memory_order_relaxed);
}

/* The time a thread's sampler takes to resume (an EWMA, weight 1/8): a
 * pause ends that much before its deadline, so the resume ends near it. */
static _Atomic uint64_t resume_cost_ns = 5000;

/* Waits until `deadline` (coz_now_ns). */
static void wait_until(uint64_t deadline) {
  uint64_t now = coz_now_ns();
  if (now >= deadline)
    return;
  bool spin = coz_threads_live() <= SPIN_THREADS_PER_CPU * cpus();
  uint64_t latency =
      atomic_load_explicit(&wake_latency_ns, memory_order_relaxed);
  if (!spin && deadline - now > latency)
    sleep_most(deadline - now - latency, latency);
  while ((now = coz_now_ns()) < deadline) {
    if (spin && deadline - now > 20000)
      syscall(SYS_sched_yield);
    else
      cpu_relax();
  }
}

/* Pauses `owed` ns, minus what earlier pauses overran (§3.4: the excess is
 * tracked and taken off future pauses). The pause is all the time from
 * here to the return, the sampler's suspension included: its system calls
 * are time the thread does not run the program either.
 * Async-signal-safe; errno is preserved. */
static void pause_for(struct coz_thread *t, uint64_t owed) {
  if (t->excess_ns >= owed) {
    t->excess_ns -= owed;
    return;
  }
  int saved_errno = errno;
  uint64_t want = owed - t->excess_ns;
  uint64_t start = coz_now_ns();
  coz_sampler_suspend(&t->sampler);
  uint64_t cost = atomic_load_explicit(&resume_cost_ns, memory_order_relaxed);
  wait_until(start + (want > cost ? want - cost : 0));
  uint64_t resume = coz_now_ns();
  coz_sampler_resume(&t->sampler);
  uint64_t end = coz_now_ns();
  /* Racy updates only lose a term of the average. */
  atomic_store_explicit(&resume_cost_ns, cost - cost / 8 + (end - resume) / 8,
                        memory_order_relaxed);
  uint64_t paused = end - start;
  t->excess_ns = paused > want ? paused - want : 0;
  errno = saved_errno;
}

/* Raises G to at least v. */
static void raise_global(uint64_t v) {
  uint64_t g = atomic_load_explicit(&coz_global_delay_ns, memory_order_relaxed);
  while (g < v && !atomic_compare_exchange_weak_explicit(
                      &coz_global_delay_ns, &g, v, memory_order_acq_rel,
                      memory_order_relaxed)) {
  }
}

void coz_delays_catch_up(struct coz_thread *t) {
  /* Other threads may raise G while we sleep; a few rounds settle it. */
  for (int round = 0; round < 4; round++) {
    uint64_t g = coz_delay_global();
    if (t->local_delay >= g)
      break;
    uint64_t owed = g - t->local_delay;
    pause_for(t, owed);
    t->local_delay = g;
  }
}

void coz_delays_publish(struct coz_thread *t) {
  if (t->local_delay > coz_delay_global())
    raise_global(t->local_delay);
}

void coz_delays_settle(struct coz_thread *t) {
  coz_delays_publish(t);
  coz_delays_catch_up(t); /* returns at once unless G is ahead */
}
