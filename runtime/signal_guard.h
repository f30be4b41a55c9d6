/* signal_guard.h: the real signal functions, for the runtime's own use.
 * In dynamic executables signal_guard.c defines sigaction and
 * pthread_sigmask for the program (they keep the sample signal working);
 * the runtime installs its handlers and blocks its signal through these,
 * so that what it does is never taken for something the program did. */
#ifndef COZ_SIGNAL_GUARD_H
#define COZ_SIGNAL_GUARD_H

#include <signal.h>
#include <stdbool.h>

/* sigaction and pthread_sigmask without the interposition. Any thread;
 * no allocation after the first call of each (dlsym); async-signal-safe
 * from then on. */
int coz_real_sigaction(int sig, const struct sigaction *act,
                       struct sigaction *old);
int coz_real_sigmask(int how, const sigset_t *set, sigset_t *old);

/* From now on every handler of the program's runs with the sample signal
 * blocked, so that no sample lands inside one: the profiler host
 * (profiler_host.h) runs the profiler from samples in the program's own
 * code, which must not be a handler that interrupted libc. Patches the
 * handlers installed so far; the interposers, later ones. Normal context.
 * False when later ones cannot be seen (-static: no interposers). */
bool coz_signal_guard_handlers(void);

#endif /* COZ_SIGNAL_GUARD_H */
