/* sampler_thread.h: what the sampler core (sampler.c) and its back-ends
 * (sampler_perf.c, sampler_kernel.c, sampler_timer.c) share: the signal,
 * a thread's sampler state and a sample; and the one test of that state
 * made outside the sampler (an I/O call: is the kernel ring to be read). */
#ifndef COZ_SAMPLER_THREAD_H
#define COZ_SAMPLER_THREAD_H

#include "unwind/unwind.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/* SIGPROF, as Coz: a non-queued signal cannot overflow the real-time signal
 * queue. */
#define COZ_SAMPLE_SIGNAL SIGPROF

/* Bytes of user stack each sample of kernel time copies (from sp up):
 * enough for the library frames between a system call and the program.
 * 1 KiB was not under AddressSanitizer, whose read() interceptor stands
 * between them: 25% of the reads' kernel time reached their line (test
 * runtime.kernel_samples, sanitized tree), 90-100% with 4 KiB. */
#define COZ_KERNEL_STACK 4096

/* Per-thread sampler state, embedded in struct coz_thread. */
struct coz_sampler_thread {
  int kind;                  /* 0 none, 1 perf, 2 timer */
  uint32_t signals;          /* sample signals taken (statistics) */
  uint64_t weight_sum_ns;    /* the CPU time they stood for (statistics) */
  bool phase_done;           /* timer: the first, random, period is over */
  uint64_t rng;              /* per-thread jitter state */
  uint64_t last_cpu_ns;      /* thread CPU time at the previous sample */
  uint64_t armed_ns;         /* perf: the period armed at the previous sample */
  uint32_t rearm_left;       /* perf: samples before the period is redrawn */
  uint64_t suspended_cpu_ns; /* thread CPU time at the suspension */
  uint64_t suspended_left;   /* timer: what was left of the period then */
  int fd;                    /* perf */
  uint32_t first_weight;     /* perf: periods the next sample stands for */
  timer_t timer;             /* timer */
  /* The signal count, CPU time (0: not looked yet) and context switches
   * at the last look (sampler.c moves a thread that blocks often to the
   * timer), the blocking calls counted towards the next look
   * (checkpoints.h), and the moves made (statistics). */
  uint32_t switch_signals, moves, blocking_calls;
  uint64_t switch_cpu_ns, switch_count;
  /* The thread's stack, [stack_lo, stack_hi): samples on it read it
   * directly; both 0 when unknown (threads adopted at start-up are set up
   * from another thread), and their samples read through checked views. */
  uintptr_t stack_lo, stack_hi;
  /* perf, kernel time (sampler_kernel.c, which sets them up): the event
   * (-1 none), its ring, whether it is still to be opened, counts (the
   * exiting thread's verbose line), and the copy of the user stack of the
   * record being attributed. */
  int kfd;
  void *kring;
  bool kwanted;            /* to be opened once the thread shows kernel time */
  uint32_t kernel_periods; /* periods that ended in the kernel (sampler.c) */
  uint64_t kernel_samples, kernel_lost;
  unsigned char kstack[COZ_KERNEL_STACK];
};

/* The kernel ring is opened once the thread's user-mode samples show it
 * spends time in the kernel: this many periods that ended there
 * (sampler_kernel.c, open_event, says why it waits). */
#define COZ_KERNEL_SIGN 3

/* Whether the thread's ring of kernel samples is open, or due to be opened
 * by the next reader (its sample handler or an I/O call). Inline: every
 * interposed I/O call tests it, and most threads never get a ring. */
static inline bool
coz_kernel_ring_due(const struct coz_sampler_thread *s) {
  return s->kring || (s->kwanted && s->kernel_periods >= COZ_KERNEL_SIGN);
}

/* One sample, read from a signal's context. */
struct coz_sample {
  /* The thread CPU time the sample stands for: the mean CPU time between
   * two samples of a thread, sampling's own cost included (sampler.c). */
  uint64_t weight_ns;
  /* The interrupted registers (regs.pc the sampled pc), and a view of the
   * live stack above regs.sp that unwinding in the handler reads. */
  struct coz_unwind_regs regs;
  struct coz_stack_view stack;
};

#endif /* COZ_SAMPLER_THREAD_H */
