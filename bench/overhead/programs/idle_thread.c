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

__attribute__((constructor)) static void start_idle_thread(void) {
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_create(&t, &attr, idle, NULL);
  pthread_attr_destroy(&attr);
}
