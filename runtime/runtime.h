/* runtime.h: the runtime's life cycle, shared by init.c and the rest. */
#ifndef COZ_RUNTIME_H
#define COZ_RUNTIME_H

#include <stdatomic.h>
#include <stdbool.h>

/* True while profiling is on: set once initialisation succeeded, cleared at
 * exit and in fork children. Checkpoints pass straight through when false. */
extern _Atomic bool coz_active;

/* Idempotent initialisation (preinit_array, constructor, or lazily from the
 * first thread creation before those ran). */
void coz_init(void);
/* The same with an explicit environment (from .preinit_array). */
void coz_init_env(char **envp);
/* Starts the profiler thread (once; after libraries are initialised). */
void coz_start_profiler_thread(void);
/* Wakes the profiler thread (a thread exited; the last may have). */
void coz_profiler_poke(void);

/* Signal handler for COZ_SAMPLE_SIGNAL (sample_processing.c). Signals that
 * are not the sampler's (the program's own SIGPROF) go to the handler that
 * was installed before the runtime's. */
#include <signal.h>
extern struct sigaction coz_previous_action;
void coz_on_sample_signal(int sig, siginfo_t *info, void *ucontext);
/* Processes the calling thread's pending samples and owed delays
 * (checkpoints; not from signal handlers). */
struct coz_thread;
void coz_process_now(struct coz_thread *t);
/* Processes the samples of kernel time waiting in the calling thread's ring
 * (sampler_kernel.c) now, at an I/O checkpoint (not from signal handlers).
 * A thread that lives in system calls takes few user-mode samples, whose
 * signal is the other reader: between two, its ring filled and lost 78% of
 * the records of a thread with 92% system time. errno is preserved. */
void coz_process_kernel_time(struct coz_thread *t);

#endif /* COZ_RUNTIME_H */
