/* sample_processing.c: what a thread does with its own samples (§3.4).
 *
 * Runs in the sample signal handler, or at a checkpoint: everything here is
 * async-signal-safe (no allocation, no locks, atomics and nanosleep only).
 * The handler attributes each sample at once, while the sampled stack is
 * still there (§3.4.2), to the first in-scope frame of its call chain: the
 * sampled pc if it is in scope, else the first in-scope return address
 * that CFI unwinding of the live stack reaches (code without frame
 * pointers, such as most libraries, hides its caller from a frame-pointer
 * chain), else, where CFI cannot go on, the first in-scope return address
 * of the frame-pointer chain. The stack is read through a view that
 * cannot fault (unwind/stack.h): rbp may hold anything. Then the sample is
 * processed: counted on its line; while the profiler waits for a line, the
 * first attributed line becomes the candidate; during an experiment a sample in
 * the selected line adds the delay size to this thread's local count; and
 * delays.c applies the "minimize delays" rule. A sample that interrupts the
 * runtime's own code (in_runtime) waits in the thread's queue until that code
 * is done. */
#include "config.h"
#include "delays.h"
#include "experiment.h"
#include "linemap/linemap.h"
#include "profiler_host.h"
#include "runtime.h"
#include "thread_state.h"
#include "unwind/unwind.h"

#include <errno.h>

/* Out-of-scope frames unwound with CFI per sample before giving up on it
 * (a library's own call depth, not the program's). */
#define CFI_STEPS 16
/* Frame-pointer steps after that. */
#define FP_STEPS 32

/* The line of a frame: return addresses point after the call, and the
 * call's line is at -1 (the code a signal frame interrupted is at pc). */
static struct coz_line *caller_line(const struct coz_unwind_regs *r) {
  return coz_linemap_lookup((uintptr_t)r->pc - r->pc_is_return_address);
}

static struct coz_line *attribute(struct coz_sample *s) {
  /* The fast path: most samples of a profile are in scope. */
  struct coz_line *line = coz_linemap_lookup((uintptr_t)s->regs.pc);
  if (line)
    return line;
  struct coz_unwind_regs regs = s->regs;
  for (int i = 0; i < CFI_STEPS; i++) {
    enum coz_unwind_result r = coz_unwind_step(&regs, &s->stack);
    if (r == COZ_UNWIND_OUTERMOST)
      return NULL; /* the whole chain was out of scope */
    if (r != COZ_UNWIND_STEPPED)
      break;
    if ((line = caller_line(&regs)))
      return line;
  }
  /* Where CFI cannot go on (no CFI: JIT code; a rule it does not follow),
   * frame pointers may: from there when CFI kept track of rbp, else from
   * the sampled registers. */
  if (!regs.bp_known)
    regs = s->regs;
  for (int i = 0; i < FP_STEPS && coz_unwind_fp_step(&regs, &s->stack); i++)
    if ((line = caller_line(&regs)))
      return line;
  return NULL;
}

/* Whether line is one of COZ_FIXED_LINE's range (read only for samples
 * outside the selected line while an experiment runs). */
static bool in_fixed_range(const struct coz_line *line) {
  const struct coz_line_range *range =
      atomic_load_explicit(&coz_exp_range, memory_order_relaxed);
  return range && coz_line_in_range(line, range);
}

static void account(struct coz_thread *t, struct coz_line *line,
                    uint64_t weight_ns) {
  atomic_fetch_add_explicit(&line->samples, 1, memory_order_relaxed);
  if (atomic_load_explicit(&coz_exp_selecting, memory_order_relaxed)) {
    struct coz_line *none = NULL;
    atomic_compare_exchange_strong(&coz_exp_candidate, &none, line);
  }
  struct coz_line *selected =
      atomic_load_explicit(&coz_exp_selected, memory_order_acquire);
  if (selected)
    atomic_fetch_add_explicit(&coz_exp_samples, 1, memory_order_relaxed);
  if (selected && (selected == line || in_fixed_range(line))) {
    atomic_fetch_add_explicit(&coz_exp_selected_samples, 1,
                              memory_order_relaxed);
    /* delay = speedup x the CPU time this sample stands for (its period). */
    uint64_t per_period =
        atomic_load_explicit(&coz_exp_delay_ns, memory_order_relaxed);
    t->local_delay += weight_ns == coz_config.PERIOD
                          ? per_period
                          : per_period * weight_ns / coz_config.PERIOD;
  }
}

/* Processes the queued samples and settles delays; t->in_runtime is set. */
static void process(struct coz_thread *t) {
  do {
    t->pending = 0;
    for (;;) {
      uint32_t head = t->queue_head;
      atomic_signal_fence(memory_order_acquire);
      if (t->queue_tail == head)
        break;
      struct coz_queued_sample q = t->queue[t->queue_tail % COZ_SAMPLE_QUEUE];
      t->queue_tail++;
      account(t, q.line, q.weight_ns);
    }
    if (t->in_wait)
      coz_delays_publish(t); /* owed delays wait for the wake-up's credit */
    else
      coz_delays_settle(t);
  } while (t->pending);
}

static void enqueue(struct coz_thread *t, struct coz_line *line,
                    uint64_t weight_ns) {
  uint32_t head = t->queue_head;
  if (head - t->queue_tail >= COZ_SAMPLE_QUEUE) {
    t->queue_dropped++; /* the runtime code it interrupted runs long */
    return;
  }
  t->queue[head % COZ_SAMPLE_QUEUE] =
      (struct coz_queued_sample){line, weight_ns};
  atomic_signal_fence(memory_order_release);
  t->queue_head = head + 1;
}

/* The thread's samples of kernel time since its previous sample (perf
 * sampler, sampler_kernel.c), each attributed from its own registers and
 * stack copy and processed at once: the queue is shorter than a ring. */
static void take_kernel_samples(struct coz_thread *t) {
  struct coz_sample sample;
  while (coz_sampler_next_kernel(&t->sampler, &sample)) {
    t->samples++;
    struct coz_line *line = attribute(&sample);
    if (line) {
      enqueue(t, line, sample.weight_ns);
      process(t);
    }
  }
}

void coz_on_sample_signal(int sig, siginfo_t *info, void *ucontext) {
  int saved_errno = errno;
  struct coz_thread *t = coz_thread_self();
  if (!t || !coz_sampler_owns(&t->sampler, info)) {
    /* The program's own signal: hand it to the program's handler. */
    struct sigaction *prev = &coz_previous_action;
    errno = saved_errno;
    if (prev->sa_flags & SA_SIGINFO) {
      if (prev->sa_sigaction)
        prev->sa_sigaction(sig, info, ucontext);
    } else if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN) {
      prev->sa_handler(sig);
    }
    return;
  }
  struct coz_sample sample;
  coz_sampler_take(&t->sampler, ucontext, &sample);
  t->samples++;
  struct coz_line *line = attribute(&sample);
  if (line)
    enqueue(t, line, sample.weight_ns);
  if (t->in_runtime) {
    t->pending = 1; /* the interrupted runtime code processes it */
  } else {
    t->in_runtime = 1;
    process(t);
    take_kernel_samples(t);
    /* Only here, never under in_runtime: a move unmaps the perf ring that
     * the interrupted runtime code may be reading. */
    coz_sampler_review(&t->sampler);
    coz_host_on_sample((uintptr_t)sample.regs.pc);
    t->in_runtime = 0;
  }
  errno = saved_errno;
}

void coz_process_now(struct coz_thread *t) {
  if (t->in_runtime)
    return;
  t->in_runtime = 1;
  process(t);
  t->in_runtime = 0;
}

void coz_process_kernel_time(struct coz_thread *t) {
  if (t->in_runtime)
    return;
  int saved_errno = errno;
  t->in_runtime = 1;
  take_kernel_samples(t);
  if (t->pending) /* a user-mode sample came meanwhile and was queued */
    process(t);
  t->in_runtime = 0;
  errno = saved_errno;
}
