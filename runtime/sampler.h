/* sampler.h: the seam between the runtime core and the ways of sampling a
 * thread's CPU time. A sampler makes the kernel deliver COZ_SAMPLE_SIGNAL to
 * the sampled thread itself, at the moment of the sample: the signal's
 * context (the interrupted registers, the live stack) is the sample. Two
 * implementations:
 *   sampler_perf.c   perf_event_open on the thread's task clock (an
 *                    hrtimer: samples every period of CPU time exactly),
 *                    signal on overflow; no ring buffer
 *   sampler_timer.c  timer_create on the thread's CPU clock (SIGEV_THREAD_ID)
 *                    when perf is denied, and for threads that block often
 *                    (a perf event costs at each context switch); fires at
 *                    scheduler ticks only
 * sampler_kernel.c adds to the perf sampler the samples of time in the
 * kernel, which its signal (user mode only) cannot take: a ring per thread
 * that the thread reads at its next sample or interposed I/O call (the one
 * ring the runtime keeps).
 * sampler_context.c reads a sample out of the signal's context for both;
 * sampler_period.c draws the periods. The back-ends share only
 * sampler_thread.h and sampler_period.h with the core, so calls run one way:
 * from sampler.c down.
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

#include "sampler_thread.h"

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
/* In the sample handler, after the sample and the kernel's samples are
 * processed, and only when the signal did not interrupt the runtime's own
 * code: every few samples, moves a thread that blocks often from perf to
 * the timer sampler, and back once it no longer does (sampler.c says why).
 * Async-signal-safe; in the thread. */
void coz_sampler_review(struct coz_sampler_thread *s);
/* The waits between two looks of coz_sampler_review_blocking. */
#define COZ_CHECK_BLOCKS 32
/* At a wait of the thread's, outside the runtime's own code, once
 * COZ_CHECK_BLOCKS waits were counted in s->blocking_calls (checkpoints.h,
 * coz_checkpoint_count_wait): the same look for a thread on perf, with the
 * sample signal blocked around it (two system calls to block it, two to
 * look: once in 32 waits). Not async-signal-safe; in the thread. */
void coz_sampler_review_blocking(struct coz_sampler_thread *s);
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

#endif /* COZ_SAMPLER_H */
