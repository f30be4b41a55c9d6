/* signal_guard.h: the real signal functions, for the runtime's own use.
 * In dynamic executables signal_guard.c defines sigaction and
 * pthread_sigmask for the program (they keep the sample signal working);
 * the runtime installs its handlers and blocks its signal through these,
 * so that what it does is never taken for something the program did. */
#ifndef COZ_SIGNAL_GUARD_H
#define COZ_SIGNAL_GUARD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

/* sigaction and pthread_sigmask without the interposition. Any thread;
 * no allocation after the first call of each (dlsym); async-signal-safe
 * from then on. */
int coz_real_sigaction(int sig, const struct sigaction *act,
                       struct sigaction *old);
int coz_real_sigmask(int how, const sigset_t *set, sigset_t *old);

/* The program's signal handlers, for the profiler host (profiler_host.h):
 * coz_signal_handlers_scan reads the actions installed so far (normal
 * context; false when later ones cannot be seen: -static executables have
 * no interposition). From then on the interposers keep the set up to date.
 * coz_signal_handled: the signals 1-64 that have a handler of the
 * program's (bit sig - 1), and in *nodefer whether any but a fault's
 * (SIGSEGV, SIGBUS, ...) was ever installed with SA_NODEFER (its signal
 * stays unblocked while it runs). Any thread, async-signal-safe. */
bool coz_signal_handlers_scan(void);
uint64_t coz_signal_handled(bool *nodefer);

#endif /* COZ_SIGNAL_GUARD_H */
