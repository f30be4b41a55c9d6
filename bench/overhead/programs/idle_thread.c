/* Linked into a plain build as the overhead suite's `floor` variant: one
 * thread started by a constructor that never runs again. What any
 * profiler's thread costs a program before it does anything: once a
 * process has a second thread, glibc takes and releases a free mutex (and
 * a stdio stream's lock, malloc's arena) with atomic instructions. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <unistd.h>

static void *idle(void *arg) {
  (void)arg;
  for (;;)
    pause();
  return NULL;
}

/* Never joined: the process ends with main, the thread with it. */
__attribute__((constructor)) static void start_idle_thread(void) {
  pthread_t t;
  pthread_create(&t, NULL, idle, NULL);
}
