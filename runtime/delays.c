/* delays.c: the global and per-thread delay counts (see delays.h). */
#include "delays.h"
#include "thread_state.h"
#include "util.h"

#include <errno.h>
#include <stdatomic.h>
#include <sys/prctl.h>

_Atomic uint64_t coz_global_delay_ns;
static _Atomic uint64_t slept_total;

uint64_t coz_delays_slept_ns(void) { return atomic_load(&slept_total); }

/* nanosleep wakes a thread late: by its timer slack (50 us by default)
 * plus the wake-up latency (~45 us on the VMs this was measured on). The
 * excess is taken off later pauses (§3.4), but a pause that ends late
 * delays its thread at the moment it was about to wake another thread or
 * exit, and a shorter pause later cannot give that back (a short-lived
 * thread never pauses again: 2 threads x 100 us per 2 ms round took 3-4
 * points off Figure 1's predictions). So a pause sleeps with a timer slack
 * of 1 ns, asks to wake up early by the expected latency (a running
 * estimate over all pauses), and spins for the rest. */
static _Atomic uint64_t wake_latency_ns = 50000;

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ volatile("yield");
#endif
}

/* Pauses ns of wall time; returns the time actually paused.
 * Async-signal-safe. */
static uint64_t pause_exactly(uint64_t ns) {
  uint64_t start = coz_now_ns(), deadline = start + ns;
  uint64_t latency = atomic_load_explicit(&wake_latency_ns, memory_order_relaxed);
  if (ns > latency) {
    uint64_t ask = ns - latency;
    int saved_errno = errno;
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
    errno = saved_errno;
    uint64_t late = coz_now_ns() - (start + ask);
    if ((int64_t)late < 0)
      late = 0;
    /* EWMA, weight 1/8; racy updates only lose a sample. */
    atomic_store_explicit(&wake_latency_ns, latency - latency / 8 + late / 8,
                          memory_order_relaxed);
  }
  uint64_t now;
  while ((now = coz_now_ns()) < deadline)
    cpu_relax();
  return now - start;
}

/* Pauses `owed` ns, minus what earlier pauses overran (§3.4: the excess is
 * tracked and taken off future pauses). */
static void pause_for(struct coz_thread *t, uint64_t owed) {
  if (t->excess_ns >= owed) {
    t->excess_ns -= owed;
    return;
  }
  uint64_t want = owed - t->excess_ns;
  uint64_t slept = pause_exactly(want);
  atomic_fetch_add_explicit(&slept_total, slept, memory_order_relaxed);
  t->excess_ns = slept > want ? slept - want : 0;
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

void coz_delays_settle(struct coz_thread *t) {
  uint64_t g = coz_delay_global();
  if (t->local_delay > g)
    raise_global(t->local_delay);
  else if (t->local_delay < g)
    coz_delays_catch_up(t);
}

void coz_delays_credit(struct coz_thread *t) {
  uint64_t g = coz_delay_global();
  if (t->local_delay < g)
    t->local_delay = g;
}
