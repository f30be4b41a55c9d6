/* signal_guard.c: keeps the sample signal (COZ_SAMPLE_SIGNAL) working
 * without the program noticing it. In dynamically linked
 * executables the runtime defines sigaction, signal, sigprocmask and
 * pthread_sigmask (a definition in the executable wins symbol lookup):
 *
 * - A handler the program installs for the sample signal becomes the
 *   "previous" handler that the runtime's handler chains the program's own
 *   signals to (its itimer's SIGPROF), instead of replacing the runtime's;
 *   the program reads back what it installed.
 * - Handlers that run on an alternate signal stack (SA_ONSTACK) get the
 *   sample signal added to their mask: a sample landing while such a
 *   handler runs would push a second signal frame onto a stack that may be
 *   4 KiB (Rust's), and overflow it. The sample waits until the handler
 *   returns.
 * - A program that blocks the sample signal (often: every signal, in worker
 *   threads) does not block it: a blocked sample would stay pending and
 *   show in sigpending() or be returned by sigwait().
 *
 * Only while profiling is on; the runtime's own calls use the real
 * functions. -static executables get none of this (no interposition). */
#include "signal_guard.h"
#include "abi.h"
#include "callpath/callpath.h"
#include "runtime.h"
#include "sampler.h"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

/* coz_signal_handled's set: bit sig - 1 for each signal with a handler. */
static _Atomic uint64_t handled;
static _Atomic bool nodefer_seen;

static void note_action(int sig, const struct sigaction *act) {
  if (sig < 1 || sig > 64 || sig == COZ_SAMPLE_SIGNAL || !act)
    return;
  uint64_t bit = 1ull << (sig - 1);
  if (act->sa_handler == SIG_DFL || act->sa_handler == SIG_IGN) {
    atomic_fetch_and(&handled, ~bit);
    return;
  }
  /* A fault's signal comes from the instruction that faulted: in the
   * program's code, not in libc's allocator (AddressSanitizer's handlers
   * for them are SA_NODEFER). Any other may arrive anywhere. */
  bool fault = sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE ||
               sig == SIGILL || sig == SIGTRAP || sig == SIGSYS;
  if ((act->sa_flags & SA_NODEFER) && !fault)
    atomic_store(&nodefer_seen, true);
  atomic_fetch_or(&handled, bit);
}

uint64_t coz_signal_handled(bool *nodefer) {
  *nodefer = atomic_load(&nodefer_seen);
  return atomic_load(&handled);
}

bool coz_signal_handlers_scan(void) {
  for (int sig = 1; sig <= 64; sig++) {
    struct sigaction now;
    if (sig != SIGKILL && sig != SIGSTOP &&
        coz_real_sigaction(sig, NULL, &now) == 0)
      note_action(sig, &now);
  }
#ifdef COZ_STATIC_RUNTIME
  return false; /* no interposers: later handlers would go unseen */
#else
  return true;
#endif
}

#ifdef COZ_STATIC_RUNTIME

int coz_real_sigaction(int sig, const struct sigaction *act,
                       struct sigaction *old) {
  return sigaction(sig, act, old);
}

int coz_real_sigmask(int how, const sigset_t *set, sigset_t *old) {
  return pthread_sigmask(how, set, old);
}

#else

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef int (*sigmask_fn)(int, const sigset_t *, sigset_t *);
typedef void (*handler_fn)(int);
typedef handler_fn (*signal_fn)(int, handler_fn);

static void *next(const char *name) {
  /* RTLD_NEXT from the executable: libc's definition. */
  return dlsym(RTLD_NEXT, name);
}

#define REAL(type, name)                                                       \
  static type real_##name(void) {                                              \
    static type f;                                                             \
    type g = __atomic_load_n(&f, __ATOMIC_ACQUIRE);                            \
    if (!g) {                                                                  \
      g = (type)next(#name);                                                   \
      __atomic_store_n(&f, g, __ATOMIC_RELEASE);                               \
    }                                                                          \
    return g;                                                                  \
  }
REAL(sigaction_fn, sigaction)
REAL(sigmask_fn, pthread_sigmask)
REAL(sigmask_fn, sigprocmask)
REAL(signal_fn, signal)

int coz_real_sigaction(int sig, const struct sigaction *act,
                       struct sigaction *old) {
  return real_sigaction()(sig, act, old);
}

int coz_real_sigmask(int how, const sigset_t *set, sigset_t *old) {
  return real_pthread_sigmask()(how, set, old);
}

static bool guarding(void) {
  return atomic_load_explicit(&coz_active, memory_order_acquire);
}

/* Replaces the action the runtime's handler chains to. The handler may run
 * in another thread meanwhile: it reads SIG_IGN (does nothing) while the
 * fields change, never a handler with the wrong flags. */
static void set_previous(const struct sigaction *act) {
  sigset_t mask, saved;
  sigemptyset(&mask);
  sigaddset(&mask, COZ_SAMPLE_SIGNAL);
  real_pthread_sigmask()(SIG_BLOCK, &mask, &saved);
  __atomic_store_n(&coz_previous_action.sa_handler, SIG_IGN, __ATOMIC_SEQ_CST);
  coz_previous_action.sa_mask = act->sa_mask;
  coz_previous_action.sa_flags = act->sa_flags;
  __atomic_store_n(&coz_previous_action.sa_handler, act->sa_handler,
                   __ATOMIC_SEQ_CST);
  real_pthread_sigmask()(SIG_SETMASK, &saved, NULL);
}

COZ_EXPORT int sigaction(int sig, const struct sigaction *act,
                         struct sigaction *old) {
  if (!guarding())
    return real_sigaction()(sig, act, old);
  if (sig == COZ_SAMPLE_SIGNAL) {
    if (old)
      *old = coz_previous_action;
    if (act)
      set_previous(act);
    return 0;
  }
  struct sigaction copy;
  if (act && (act->sa_flags & SA_ONSTACK)) {
    copy = *act;
    sigaddset(&copy.sa_mask, COZ_SAMPLE_SIGNAL);
    coz_callpath_mask_signal(&copy.sa_mask); /* its samples too */
    act = &copy;
  }
  int r = real_sigaction()(sig, act, old);
  if (r == 0)
    note_action(sig, act);
  return r;
}

COZ_EXPORT handler_fn signal(int sig, handler_fn handler) {
  if (guarding() && sig != COZ_SAMPLE_SIGNAL) /* glibc's: no SA_NODEFER */
    note_action(sig, &(struct sigaction){.sa_handler = handler});
  if (!guarding() || sig != COZ_SAMPLE_SIGNAL)
    return real_signal()(sig, handler);
  /* glibc's signal(): BSD semantics. */
  struct sigaction act, old;
  memset(&act, 0, sizeof act);
  act.sa_handler = handler;
  act.sa_flags = SA_RESTART;
  sigemptyset(&act.sa_mask);
  sigaction(sig, &act, &old);
  return old.sa_handler;
}

/* SIG_BLOCK / SIG_SETMASK without the sample signal. */
static const sigset_t *without_sample(int how, const sigset_t *set,
                                      sigset_t *copy) {
  if (!set || how == SIG_UNBLOCK || !guarding() ||
      sigismember(set, COZ_SAMPLE_SIGNAL) != 1)
    return set;
  *copy = *set;
  sigdelset(copy, COZ_SAMPLE_SIGNAL);
  return copy;
}

COZ_EXPORT int pthread_sigmask(int how, const sigset_t *set, sigset_t *old) {
  sigset_t copy;
  return real_pthread_sigmask()(how, without_sample(how, set, &copy), old);
}

COZ_EXPORT int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
  sigset_t copy;
  return real_sigprocmask()(how, without_sample(how, set, &copy), old);
}

#endif
