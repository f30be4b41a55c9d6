/* cp_wall.c: the wall-clock resource (COZ_CALLPATH=wall): where threads
 * spend real time, blocked or not, without ever signalling a blocked
 * thread (a signal would cut its sleep or poll short).
 *
 * Each thread has a sequence of wall-clock deadlines, P apart on average
 * (jittered like every clock, first one random). A deadline is a sample of
 * what the thread was doing at that instant, weighted by the time since the
 * previous deadline:
 *  - inside a blocking call the runtime intercepts (synchronization
 *    checkpoints, read/write, sleeps, poll, ...): the stack of that call,
 *    known exactly, recorded when the call returns;
 *  - otherwise the thread was running or waiting for a CPU: the stack of
 *    its next CPU-clock sample (taken every P/4 of CPU time); when it
 *    enters a blocking call first, the stack of its previous CPU sample
 *    since it last waited (the code it ran, or was preempted in, the
 *    longest), else the blocking call's own stack.
 * So the weights add up to the thread's elapsed time up to its last
 * deadline, and the waits the runtime cannot see (a futex called directly,
 * a page fault) go to the code that runs next. */
#include "callpath.h"
#include "cp_internal.h"

#include <signal.h>
#include <time.h>

struct wall_state {
  bool armed;
  volatile sig_atomic_t busy; /* a CPU sample must not touch the state */
  /* Inside an intercepted blocking call: its deadlines belong to that
   * call's stack, even if a CPU sample comes first (in libc's system call
   * wrapper, right after the kernel returned). */
  volatile sig_atomic_t blocked;
  bool have_last; /* last: the stack of a CPU sample since the last wait */
  struct cp_stack last;
  uint64_t prev; /* the previous deadline (or the start) */
  uint64_t next; /* the next deadline */
  struct cp_jitter jit;
};
static CP_TLS struct wall_state wall;

_Atomic bool coz_callpath_wall;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void cp_wall_thread_start(uint64_t seed) {
  if (!cp_config.enabled[CP_WALL])
    return;
  wall.jit = (struct cp_jitter){.rng = seed};
  uint64_t now = now_ns();
  wall.prev = now;
  wall.next = now + cp_jittered(&wall.jit, CP_WALL);
  wall.armed = true;
}

void cp_wall_thread_stop(void) { wall.armed = false; }

/* Takes the deadlines up to `now`: the weight of their samples (0: none
 * passed), and the next deadline after now. */
static uint64_t take_deadlines(uint64_t now) {
  if (now < wall.next)
    return 0;
  uint64_t last = wall.next;
  uint64_t period = cp_config.period[CP_WALL];
  /* After a very long wait, skip ahead rather than draw every deadline:
   * the weight is the same, the phase stays random. */
  if (now - last > 1000 * period)
    last = now - cp_jittered(&wall.jit, CP_WALL) / 2;
  for (;;) {
    uint64_t step = cp_jittered(&wall.jit, CP_WALL);
    if (last + step > now) {
      wall.next = last + step;
      break;
    }
    last += step;
  }
  uint64_t w = last - wall.prev;
  wall.prev = last;
  return w;
}

static void sample_here(uint64_t weight, uintptr_t caller_ra) {
  struct cp_stack st;
  cp_capture_here(&st, caller_ra);
  cp_record(CP_WALL, &st, weight);
}

/* Takes the thread's state for a blocking call's hook; false when wall
 * time is not sampled here, or a hook or CPU sample holds it already. */
static bool hold(void) {
  if (!wall.armed || wall.busy ||
      !atomic_load_explicit(&cp_active, memory_order_relaxed))
    return false;
  wall.busy = 1;
  return true;
}

void coz_callpath_block_begin(uintptr_t caller_ra) {
  if (!hold())
    return;
  /* Deadlines that passed since the last sample, while the thread ran (or
   * waited for a CPU) up to this call. */
  uint64_t w = take_deadlines(now_ns());
  if (w && wall.have_last)
    cp_record(CP_WALL, &wall.last, w);
  else if (w)
    sample_here(w, caller_ra);
  wall.blocked = 1;
  wall.have_last = false;
  wall.busy = 0;
}

void coz_callpath_block_end(uintptr_t caller_ra) {
  if (!hold())
    return;
  /* Deadlines that passed while the thread waited in this call. */
  uint64_t w = take_deadlines(now_ns());
  if (w)
    sample_here(w, caller_ra);
  wall.blocked = 0;
  wall.busy = 0;
}

bool cp_wall_wants_stack(void) {
  return wall.armed && !wall.busy && !wall.blocked;
}

void cp_wall_on_cpu_sample(const struct cp_stack *st) {
  if (!wall.armed || wall.busy || wall.blocked)
    return;
  uint64_t w = take_deadlines(now_ns());
  if (w)
    cp_record(CP_WALL, st, w);
  wall.last = *st;
  wall.have_last = true;
}
