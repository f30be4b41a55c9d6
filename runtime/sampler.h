/* sampler.h: the seam between the runtime core and the ways of sampling a
 * thread's CPU time. A sampler makes the kernel deliver COZ_SAMPLE_SIGNAL to
 * the sampled thread itself, at the moment of the sample: the signal's
 * context (the interrupted registers, the live stack) is the sample. Two
 * implementations:
 *   sampler_perf.c   perf_event_open on the thread's task clock (an
 *                    hrtimer: samples every period of CPU time exactly),
 *                    signal on overflow; no ring buffer
 *   sampler_timer.c  timer_create on the thread's CPU clock (SIGEV_THREAD_ID)
 *                    when perf is denied; fires at scheduler ticks only
 * sampler_kernel.c adds to the perf sampler the samples of time in the
 * kernel, which its signal (user mode only) cannot take: a ring per thread
 * that the thread's next sample reads (the one ring the runtime keeps).
 * sampler_context.c reads a sample out of the signal's context for both.
 *
 * Why the user-mode samples use no perf ring: the kernel's call chain
 * walks frame pointers, which libraries built without them lose (the CFI
 * stepper needs the stack, and a copy of it in every record makes rings
 * large); a ring costs a mapping per thread (a program that starts a thread
 * per task pays it each time); and the samples are processed in the handler
 * anyway. The kernel-time samples take that cost, as no signal can carry
 * them (sampler_kernel.c). */
#ifndef COZ_SAMPLER_H
#define COZ_SAMPLER_H

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
  bool phase_done;           /* timer: the first, random, period is over */
  uint64_t rng;              /* per-thread jitter state */
  uint64_t last_cpu_ns;      /* thread CPU time at the previous sample */
  uint64_t armed_ns;         /* perf: the period armed at the previous sample */
  uint64_t suspended_cpu_ns; /* thread CPU time at the suspension */
  uint64_t suspended_left;   /* timer: what was left of the period then */
  int fd;                    /* perf */
  uint32_t first_weight;     /* perf: periods the next sample stands for */
  timer_t timer;             /* timer */
  /* The thread's stack, [stack_lo, stack_hi): samples on it read it
   * directly; both 0 when unknown (threads adopted at start-up are set up
   * from another thread), and their samples read through checked views. */
  uintptr_t stack_lo, stack_hi;
  /* perf, kernel time (sampler_kernel.c): the event (-1 none), its ring
   * and period, whether it is still to be opened, counts, and the copy of the user stack of the record being
   * attributed. */
  int kfd;
  void *kring;
  bool kwanted; /* to be opened once the thread shows kernel time */
  uint32_t kernel_periods; /* periods that ended in the kernel (sampler.c) */
  uint64_t kperiod;
  uint64_t kernel_samples, kernel_lost;
  unsigned char kstack[COZ_KERNEL_STACK];
};

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

/* Chooses the sampler once (COZ_SAMPLER, perf availability). Returns false
 * after one line on stderr when no sampler works. */
bool coz_sampler_init(void);
/* Which one coz_sampler_init chose: "perf" or "timer". */
const char *coz_sampler_name(void);

/* Starts sampling thread tid of this process (usually the caller), the
 * signal delivered to that thread. Not async-signal-safe. */
bool coz_sampler_start(struct coz_sampler_thread *s, pid_t tid);
/* Stops sampling and releases the resources (thread exit). */
void coz_sampler_stop(struct coz_sampler_thread *s);
/* After fork, in the child: drops the parent's resources without touching
 * them (closes the copy of the perf descriptor only). */
void coz_sampler_forget(struct coz_sampler_thread *s);
/* Whether this signal came from the thread's sampler (not from the
 * program's own use of the signal). Async-signal-safe. */
bool coz_sampler_owns(const struct coz_sampler_thread *s,
                      const siginfo_t *info);
/* In the handler of a signal the sampler owns: reads the sample out of the
 * signal's context into *out and starts the next, jittered, period.
 * Async-signal-safe. */
void coz_sampler_take(struct coz_sampler_thread *s, void *ucontext,
                      struct coz_sample *out);
/* After coz_sampler_take: the next sample of time the thread spent in the
 * kernel since its previous user-mode sample (registers at its entry to the
 * kernel, a view of a copy of its stack, valid until the next call), false
 * when there is none left. Async-signal-safe; in the thread. */
bool coz_sampler_next_kernel(struct coz_sampler_thread *s,
                             struct coz_sample *out);

/* Around a pause (delays.c): the time a thread pauses for a delay is no
 * time of the program's. A pause spins for the end of its sleep, and all of
 * it when shorter than the wake-up latency; that CPU time would run the
 * thread's sampling clock, so sped-up experiments would take extra samples
 * (each a signal, and a sample of whichever line the pause interrupted)
 * that baselines do not (docs/results.md, "Design figures"). Suspend stops the
 * thread's sampling clock, resume restarts it with what was left of the period.
 * Async-signal-safe; in the thread. */
void coz_sampler_suspend(struct coz_sampler_thread *s);
void coz_sampler_resume(struct coz_sampler_thread *s);

/* Length of a thread's first sampling period: uniform in (0, COZ_PERIOD].
 * A fresh thread would otherwise always be sampled at the same offsets
 * from its start, and a thread that lives a few periods would have its
 * samples (and so its virtual speedup) systematically under-counted. */
uint64_t coz_sampler_first_period(pid_t tid);
/* The next sampling period: uniform in [P/2, 3P/2), mean COZ_PERIOD. A
 * fixed period aliases with loops whose iterations last about a multiple of
 * it (samples then lock onto one part of the loop for long stretches);
 * jitter keeps every line's share of samples equal to its share of time. */
uint64_t coz_sampler_next_period(struct coz_sampler_thread *s);

/* sampler_context.c: the calling thread's stack range into s (start-up of
 * a thread's sampler, in that thread); and a sample from a signal's
 * context. */
void coz_sampler_own_stack(struct coz_sampler_thread *s);
void coz_sample_from_context(const struct coz_sampler_thread *s,
                             const void *ucontext, struct coz_sample *out);

/* Per-implementation entry points used by sampler.c's dispatch. */
/* sampler_perf.c, for both perf events: a task-clock event's attributes
 * (disabled, user and kernel time, no idle), and perf_event_open on thread
 * tid with close-on-exec. */
struct perf_event_attr;
void coz_perf_task_clock(struct perf_event_attr *attr, uint64_t period);
long coz_perf_open(struct perf_event_attr *attr, pid_t tid);
bool coz_perf_available(void);
bool coz_perf_start(struct coz_sampler_thread *s, pid_t tid);
uint64_t coz_perf_rearm(struct coz_sampler_thread *s);
void coz_perf_stop(struct coz_sampler_thread *s);
void coz_perf_suspend(struct coz_sampler_thread *s, bool suspend);
bool coz_perf_kernel_init(void);
void coz_perf_kernel_start(struct coz_sampler_thread *s);
void coz_perf_kernel_stop(struct coz_sampler_thread *s);
void coz_perf_kernel_forget(struct coz_sampler_thread *s);
void coz_perf_kernel_suspend(struct coz_sampler_thread *s, bool suspend);
bool coz_perf_kernel_next(struct coz_sampler_thread *s, struct coz_sample *out);
bool coz_timer_start(struct coz_sampler_thread *s, pid_t tid);
uint64_t coz_timer_rearm(struct coz_sampler_thread *s);
void coz_timer_stop(struct coz_sampler_thread *s);
void coz_timer_suspend(struct coz_sampler_thread *s);
void coz_timer_resume(struct coz_sampler_thread *s);

#endif /* COZ_SAMPLER_H */
