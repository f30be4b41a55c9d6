/* signal_guard.c: keeps the sample signal (COZ_SAMPLE_SIGNAL) working
 * without the program noticing it. In dynamically linked
 * executables the runtime defines sigaction, signal (and its forms
 * __sysv_signal, sysv_signal, bsd_signal, sigset), sigprocmask and
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
 *   returns. Once the profiler runs in the program's only thread
 *   (profiler_host.c), every handler does: a sample inside a handler that
 *   interrupted malloc must not run the profiler, which allocates.
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

#ifdef COZ_STATIC_RUNTIME

int coz_real_sigaction(int sig, const struct sigaction *act,
                       struct sigaction *old) {
  return sigaction(sig, act, old);
}

int coz_real_sigmask(int how, const sigset_t *set, sigset_t *old) {
  return pthread_sigmask(how, set, old);
}

bool coz_signal_guard_handlers(void) {
  return false; /* no interposers: later handlers would go unseen */
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

/* Set once the profiler may run from samples in the program's own code
 * (coz_signal_guard_handlers): from then on no handler of the program's
 * may be interrupted by a sample. */
static _Atomic bool handlers_masked;

/* Whether act's handler runs with the sample signal blocked. */
static bool masks_sample(const struct sigaction *act) {
  return act && act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN &&
         ((act->sa_flags & SA_ONSTACK) || atomic_load(&handlers_masked));
}

static void mask_sample(sigset_t *mask) {
  sigaddset(mask, COZ_SAMPLE_SIGNAL);
  coz_callpath_mask_signal(mask); /* its samples too */
}

/* For the functions that install a handler without sigaction (signal,
 * sysv_signal, ...): the action as installed, with the sample signal added
 * to its mask. */
static void mask_installed(int sig) {
  struct sigaction now;
  if (real_sigaction()(sig, NULL, &now) == 0 && masks_sample(&now) &&
      sigismember(&now.sa_mask, COZ_SAMPLE_SIGNAL) != 1) {
    mask_sample(&now.sa_mask);
    real_sigaction()(sig, &now, NULL);
  }
}

bool coz_signal_guard_handlers(void) {
  atomic_store(&handlers_masked, true);
  for (int sig = 1; sig < NSIG; sig++)
    if (sig != SIGKILL && sig != SIGSTOP && sig != COZ_SAMPLE_SIGNAL)
      mask_installed(sig);
  return true;
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
  if (masks_sample(act)) {
    copy = *act;
    mask_sample(&copy.sa_mask);
    act = &copy;
  }
  return real_sigaction()(sig, act, old);
}

COZ_EXPORT handler_fn signal(int sig, handler_fn handler) {
  if (!guarding() || sig != COZ_SAMPLE_SIGNAL) {
    handler_fn old = real_signal()(sig, handler);
    if (old != SIG_ERR && guarding())
      mask_installed(sig);
    return old;
  }
  /* glibc's signal(): BSD semantics. */
  struct sigaction act, old;
  memset(&act, 0, sizeof act);
  act.sa_handler = handler;
  act.sa_flags = SA_RESTART;
  sigemptyset(&act.sa_mask);
  sigaction(sig, &act, &old);
  return old.sa_handler;
}

/* signal()'s other forms (ISO C's signal in strict modes is __sysv_signal:
 * the handler runs with its own signal unblocked), for the handlers'
 * masks only. */
#define OTHER_SIGNAL(NAME)                                                     \
  REAL(signal_fn, NAME)                                                        \
  COZ_EXPORT handler_fn NAME(int sig, handler_fn handler) {                    \
    handler_fn old = real_##NAME()(sig, handler);                              \
    if (old != SIG_ERR && guarding() && sig != COZ_SAMPLE_SIGNAL)              \
      mask_installed(sig);                                                     \
    return old;                                                                \
  }
OTHER_SIGNAL(__sysv_signal)
OTHER_SIGNAL(sysv_signal)
OTHER_SIGNAL(bsd_signal)
OTHER_SIGNAL(sigset)

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
