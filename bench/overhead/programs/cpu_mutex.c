/* Synchronization-heavy: one thread takes and releases an uncontended mutex
 * 300 million times, so every call goes through a coz-cc checkpoint. */
#define _POSIX_C_SOURCE 200809L
#include <coz.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long counter;

int main(void) {
  for (int round = 0; round < 300; ++round) {
    for (int i = 0; i < 1000000; ++i) {
      pthread_mutex_lock(&lock);
      counter++;
      pthread_mutex_unlock(&lock);
    }
    COZ_PROGRESS;
  }
  printf("counter %lu\n", counter);
  return 0;
}
