/* delays.c: the global and per-thread delay counts (see delays.h). */
#include "delays.h"
#include "thread_state.h"
#include "util.h"

#include <stdatomic.h>

_Atomic uint64_t coz_global_delay_ns;
static _Atomic uint64_t slept_total;

uint64_t coz_delays_slept_ns(void) { return atomic_load(&slept_total); }

/* Pauses `owed` ns, minus what earlier nanosleeps overslept (§3.4: the
 * excess is tracked and taken off future pauses). */
static void pause_for(struct coz_thread *t, uint64_t owed) {
  if (t->excess_ns >= owed) {
    t->excess_ns -= owed;
    return;
  }
  uint64_t want = owed - t->excess_ns;
  uint64_t slept = coz_sleep_ns(want);
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
