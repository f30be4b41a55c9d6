/* thread_lifecycle.h: what a thread's start and exit mean for the runtime
 * (thread_lifecycle.c); the slots themselves are thread_state.h's, the
 * creating side thread_create.c's. */
#ifndef COZ_THREAD_LIFECYCLE_H
#define COZ_THREAD_LIFECYCLE_H

#include <stdbool.h>

/* Registers the calling thread and the threads that already exist (created
 * before the runtime initialised), and arranges for every registered
 * thread's exit to execute its owed delays and free its slot. Once, from
 * the runtime's initialisation; false if the thread state cannot be set
 * up. */
bool coz_threads_init(void);

struct coz_thread;
/* Binds the slot t, reserved for the calling thread, and starts its
 * sampler and call-path clocks; first thing in a new thread, before the
 * user's function. Opens and maps the sampler's events; not from signal
 * handlers. */
void coz_thread_begin(struct coz_thread *t);
/* Ends the calling thread's registration: its owed delays, then its slot.
 * However the thread ends (return, pthread_exit, cancellation: a key's
 * destructor); safe to call twice. Not from signal handlers. */
void coz_thread_end(void);

#endif /* COZ_THREAD_LIFECYCLE_H */
