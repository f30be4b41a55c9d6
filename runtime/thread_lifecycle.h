/* thread_lifecycle.h: what a thread's start and exit mean for the runtime
 * (thread_lifecycle.c); the slots themselves are thread_state.h's. */
#ifndef COZ_THREAD_LIFECYCLE_H
#define COZ_THREAD_LIFECYCLE_H

#include <stdbool.h>

/* Registers the calling thread and the threads that already exist (created
 * before the runtime initialised), and arranges for every registered
 * thread's exit to execute its owed delays and free its slot. Once, from
 * the runtime's initialisation; false if the thread state cannot be set
 * up. */
bool coz_threads_init(void);

#endif /* COZ_THREAD_LIFECYCLE_H */
