/* sampler.h: the seam between the runtime core and the ways of sampling a
 * thread's CPU time. A sampler delivers COZ_SAMPLE_SIGNAL to the sampled
 * thread itself; the core's handler (threads.c) then asks the sampler for
 * the samples taken so far. Two implementations:
 *   sampler_perf.c   perf_event_open on task-clock, ring buffer, callchains,
 *                    user registers and a copy of the top of the stack
 *   sampler_timer.c  timer_create on the thread's CPU clock (SIGEV_THREAD_ID)
 *                    with frame-pointer unwinding and a copy of the stack,
 *                    when perf is denied
 * Both are async-signal-safe in on_signal and drain. */
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
 * queue, and a lost one costs nothing because every drain takes all
 * pending samples. */
#define COZ_SAMPLE_SIGNAL SIGPROF
#define COZ_MAX_FRAMES 32   /* call-chain entries kept per sample */
#define COZ_TIMER_BUFFER 16 /* samples the timer sampler holds per thread */
/* Bytes of stack, from the sampled sp up, copied with each sample for CFI
 * unwinding (unwind/unwind.h) of frames built without frame pointers, up
 * to the first in-scope one. 2 KiB holds the usual out-of-scope frames
 * between a sample and its in-scope call site: libc's frameless leaves
 * need 8 bytes, malloc and pthread frames a few hundred, stdio's frames
 * carry ~1 KiB buffers. A perf record is then ~2.4 KiB: a 4-page ring
 * holds 6 and the 1-page ring of a thread short of locked memory still
 * holds one, which is why drains are also triggered by a half-full ring
 * (sampler.c). Deeper out-of-scope chains fall back to the kernel's
 * frame-pointer chain. A multiple of 8, as perf requires. */
#define COZ_STACK_SNAPSHOT 2048

struct coz_timer_sample {
  uint32_t n;           /* entries in ips; ips[0] is the interrupted pc */
  uint32_t stack_bytes; /* of this slot's stack copy; 0: none (no regs) */
  uint64_t weight_ns;   /* thread CPU time since the previous sample */
  struct coz_unwind_regs regs;
  uint64_t ips[COZ_MAX_FRAMES];
};

/* Per-thread sampler state, embedded in struct coz_thread. */
struct coz_sampler_thread {
  int kind;             /* 0 none, 1 perf, 2 timer */
  uint32_t signals;     /* sample signals seen (batching) */
  bool phase_done;      /* first (random-length) period is over */
  uint64_t rng;         /* per-thread jitter state */
  uint64_t last_cpu_ns; /* timer: thread CPU time at the previous sample */
  /* perf */
  int fd;
  void *ring; /* perf_event_mmap_page followed by the data pages */
  size_t ring_bytes;
  bool perf_regs; /* records carry user registers and stack */
  /* timer */
  timer_t timer;
  volatile uint32_t timer_head; /* written by the handler only */
  uint32_t timer_tail;          /* written by drain only */
  /* COZ_TIMER_BUFFER stack copies of COZ_STACK_SNAPSHOT bytes, one per
   * slot of timer_buf (mmap'ed: NULL when the thread's stack is unknown);
   * the thread's stack is [stack_lo, stack_hi). */
  unsigned char *timer_stacks;
  uintptr_t stack_lo, stack_hi;
  struct coz_timer_sample timer_buf[COZ_TIMER_BUFFER];
};

/* One sample, as the samplers hand it over. */
struct coz_sample {
  /* The call chain: ips[0] is the sampled pc, later entries return
   * addresses (frame pointers: the kernel's for perf, the handler's walk
   * for the timer sampler). */
  const uint64_t *ips;
  size_t n;
  /* The CPU time the sample stands for: COZ_PERIOD for perf; for the timer
   * sampler the CPU time since the previous sample, because CPU-time
   * timers only fire at scheduler ticks (a 1 ms timer fires every 4 ms
   * with HZ=250, the periods between lost). */
  uint64_t weight_ns;
  /* The registers at the sample and a copy of the stack from regs.sp up,
   * for CFI unwinding; has_regs is false when the sampler has neither
   * (the stack may still be empty when it could not be read). */
  bool has_regs;
  struct coz_unwind_regs regs;
  struct coz_stack_view stack;
};

typedef void (*coz_sample_fn)(void *ctx, const struct coz_sample *sample);

/* Chooses the sampler once (COZ_SAMPLER, perf availability). Returns false
 * after one line on stderr when no sampler works. */
bool coz_sampler_init(void);
/* Which one coz_sampler_init chose: "perf" or "timer". */
const char *coz_sampler_name(void);

/* Starts sampling thread tid of this process (usually the caller), the
 * signal delivered to that thread. Not async-signal-safe. */
bool coz_sampler_start(struct coz_sampler_thread *s, pid_t tid);
/* Stops sampling and releases the resources (thread exit, fork child). */
void coz_sampler_stop(struct coz_sampler_thread *s);
/* Whether this signal came from the thread's sampler (not from the
 * program's own use of the signal). Async-signal-safe. */
bool coz_sampler_owns(const struct coz_sampler_thread *s,
                      const siginfo_t *info);
/* The handler's first step; returns true when a batch is ready. */
bool coz_sampler_on_signal(struct coz_sampler_thread *s, siginfo_t *info,
                           void *ucontext);
/* Hands every pending sample to fn; returns how many. Async-signal-safe,
 * and only ever called by the sampled thread itself. */
size_t coz_sampler_drain(struct coz_sampler_thread *s, coz_sample_fn fn,
                         void *ctx);

/* Length of a thread's first sampling period: uniform in (0, COZ_PERIOD].
 * A fresh thread would otherwise always be sampled at the same offsets
 * from its start, and a thread that lives a few periods would have its
 * samples (and so its virtual speedup) systematically under-counted. */
uint64_t coz_sampler_first_period(pid_t tid);

/* True while an experiment runs: samples are then processed as they come
 * instead of in batches, so that a sample in the selected line raises the
 * global delay count before the thread can wake or outlive another one. A
 * batch's latency would otherwise let a short-lived thread exit, or a
 * waker wake, without the delays it owes (Figure 1's rounds are a few ms). */
bool coz_sampler_urgent(void);
/* The next sampling period: uniform in [P/2, 3P/2), mean COZ_PERIOD. A
 * fixed period aliases with loops whose iterations last about a multiple of
 * it (samples then lock onto one part of the loop for long stretches);
 * jitter keeps every line's share of samples equal to its share of time. */
uint64_t coz_sampler_next_period(struct coz_sampler_thread *s);

/* Per-implementation entry points used by sampler.c's dispatch. */
bool coz_perf_available(void);
bool coz_perf_start(struct coz_sampler_thread *s, pid_t tid);
/* Returns true when the ring is half full (drain it now). */
bool coz_perf_on_signal(struct coz_sampler_thread *s);
void coz_perf_stop(struct coz_sampler_thread *s);
size_t coz_perf_drain(struct coz_sampler_thread *s, coz_sample_fn fn,
                      void *ctx);
bool coz_timer_start(struct coz_sampler_thread *s, pid_t tid);
void coz_timer_stop(struct coz_sampler_thread *s);
bool coz_timer_on_signal(struct coz_sampler_thread *s, void *ucontext);
size_t coz_timer_drain(struct coz_sampler_thread *s, coz_sample_fn fn,
                       void *ctx);

#endif /* COZ_SAMPLER_H */
