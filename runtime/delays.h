/* delays.h: virtual speedup by delaying threads (§3.4, §3.4.3).
 *
 * Delays are counted in ns of virtual time: the global count G says how much
 * every thread should have paused so far; each thread's local_delay says how
 * much it has paused, or absorbed by running the selected line. A sample in
 * the selected line adds the experiment's delay size (speedup x period) to
 * the sampling thread's local count only; a thread ahead of G raises G to its
 * local count, a thread behind G pauses for the difference. */
#ifndef COZ_DELAYS_H
#define COZ_DELAYS_H

#include <stdatomic.h>
#include <stdint.h>

struct coz_thread;

/* G, in ns. Async-signal-safe. Inline: the checkpoints compare it with the
 * thread's local count on every call. */
extern _Atomic uint64_t coz_global_delay_ns;
static inline uint64_t coz_delay_global(void) {
  return atomic_load_explicit(&coz_global_delay_ns, memory_order_acquire);
}
/* After a batch: raise G to the local count, or pause until the local count
 * reaches G (the "minimize delays" rule). Async-signal-safe. */
void coz_delays_settle(struct coz_thread *t);
/* The first half of settle: raise G to the local count, pay nothing (a
 * thread inside a wait a wake-up may credit). Async-signal-safe. */
void coz_delays_publish(struct coz_thread *t);
/* Before an operation that may wake or block another thread: execute every
 * owed delay now. Async-signal-safe. */
void coz_delays_catch_up(struct coz_thread *t);

#endif /* COZ_DELAYS_H */
