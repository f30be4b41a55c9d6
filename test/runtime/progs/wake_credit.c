/* A thread woken by another must not execute the delays its waker executed
 * (§3.4.1), not even when a sample lands just as its blocking call returns.
 * The waker runs line A for ~2 ms a round, stamps the time and wakes the
 * main thread, then waits for its answer. With A sped up by 100% the global
 * delay count grows by A's run time while main is blocked; main, credited
 * on waking, owes nothing. Had it paid them, it would return from its wait
 * that much (> 1 ms) after the stamp.
 *   wake_credit ROUNDS [sem|hooks]   prints late=N (wake-ups later than
 *                                    1 ms) and worst_us=...
 * sem waits in sem_wait (a checkpoint of the table); hooks waits on a raw
 * futex, a custom primitive that tells the runtime through coz.h's
 * COZ_PRE_BLOCK / COZ_POST_BLOCK / COZ_CATCH_UP. */
#include "coz.h"
#include "spin.h"
#include <linux/futex.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* A one-shot event: post sets the word and wakes, wait sleeps until it is
 * set and clears it. No libc lock is involved, so no checkpoint runs but
 * the hooks. */
struct event {
  _Atomic int word;
};

static void event_post(struct event *e) {
  COZ_CATCH_UP();
  atomic_store(&e->word, 1);
  syscall(SYS_futex, &e->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void event_wait(struct event *e) {
  COZ_PRE_BLOCK();
  while (!atomic_exchange(&e->word, 0))
    syscall(SYS_futex, &e->word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
  COZ_POST_BLOCK(1);
}

static int use_hooks;
static sem_t go_sem, answered_sem;
static struct event go_ev, answered_ev;
static _Atomic double posted;
static long rounds;

static void post_go(void) {
  use_hooks ? event_post(&go_ev) : (void)sem_post(&go_sem);
}
static void wait_go(void) {
  use_hooks ? event_wait(&go_ev) : (void)sem_wait(&go_sem);
}
static void post_answered(void) {
  use_hooks ? event_post(&answered_ev) : (void)sem_post(&answered_sem);
}
static void wait_answered(void) {
  use_hooks ? event_wait(&answered_ev) : (void)sem_wait(&answered_sem);
}

static void *waker(void *arg) {
  uint64_t x = (uint64_t)(uintptr_t)arg;
  for (long r = 0; r < rounds; ++r) {
    SPIN(2000000, x); /* LINE_A */
    atomic_store(&posted, now_s());
    post_go();
    wait_answered();
  }
  return (void *)(uintptr_t)x;
}

int main(int argc, char **argv) {
  rounds = argc > 1 ? atol(argv[1]) : 3000;
  use_hooks = argc > 2 && strcmp(argv[2], "hooks") == 0;
  sem_init(&go_sem, 0, 0);
  sem_init(&answered_sem, 0, 0);
  pthread_t a;
  pthread_create(&a, NULL, waker, (void *)(uintptr_t)7);
  long late = 0;
  double worst = 0;
  for (long r = 0; r < rounds; ++r) {
    wait_go();
    double lateness = now_s() - atomic_load(&posted);
    late += lateness > 1e-3;
    worst = lateness > worst ? lateness : worst;
    post_answered();
    /* A round done: the profile (which the test reads the experiments
     * from) is only written by a program with a progress point. */
    COZ_PROGRESS_NAMED("round");
  }
  pthread_join(a, NULL);
  printf("late=%ld rounds=%ld worst_us=%.0f\n", late, rounds, worst * 1e6);
  return 0;
}
