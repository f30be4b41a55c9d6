/* A thread woken by another must not execute the delays its waker executed
 * (§3.4.1), not even when a sample lands just as its blocking call returns.
 * The waker runs line A for ~2 ms a round, stamps the time and wakes the
 * main thread through a semaphore, then waits for its answer. With A sped
 * up by 100% the global delay count grows by A's run time while main is
 * blocked; main, credited on waking, owes nothing. Had it paid them, it
 * would return from sem_wait that much (> 1 ms) after the stamp.
 *   wake_credit ROUNDS   prints late=N (wake-ups later than 1 ms) and
 *                        worst_us=... */
#include "spin.h"
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static sem_t go, answered;
static _Atomic double posted;
static long rounds;

static void *waker(void *arg) {
  uint64_t x = (uint64_t)(uintptr_t)arg;
  for (long r = 0; r < rounds; ++r) {
    SPIN(2000000, x); /* LINE_A */
    atomic_store(&posted, now_s());
    sem_post(&go);
    sem_wait(&answered);
  }
  return (void *)(uintptr_t)x;
}

int main(int argc, char **argv) {
  rounds = argc > 1 ? atol(argv[1]) : 3000;
  sem_init(&go, 0, 0);
  sem_init(&answered, 0, 0);
  pthread_t a;
  pthread_create(&a, NULL, waker, (void *)(uintptr_t)7);
  long late = 0;
  double worst = 0;
  for (long r = 0; r < rounds; ++r) {
    sem_wait(&go);
    double lateness = now_s() - atomic_load(&posted);
    late += lateness > 1e-3;
    worst = lateness > worst ? lateness : worst;
    sem_post(&answered);
  }
  pthread_join(a, NULL);
  printf("late=%ld rounds=%ld worst_us=%.0f\n", late, rounds, worst * 1e6);
  return 0;
}
