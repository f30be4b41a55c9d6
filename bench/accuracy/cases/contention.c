/* Case 4: contention. The main thread does work outside a lock and inside it,
 * then reaches the progress point. A second thread hammers the same lock: it
 * pauses, then spins on pthread_mutex_trylock until it gets the lock and
 * holds it for a while. Cutting the pause makes the hammer take the lock more
 * often, so the main thread waits more: a real slowdown (downward slope). */
#include "../bench_common.h"
#include <coz.h>
#include <pthread.h>
#include <stdatomic.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int done;
static uint64_t n_outside, n_crit, n_pause, n_hold;

/* Pause lengths vary (uniform over half to one and a half times the mean) so
 * that the two threads cannot fall into a lock-step schedule that hides the
 * contention at one particular setting. */
static uint64_t jitter(uint64_t *rng, uint64_t mean) {
  *rng = *rng * BENCH_LCG_MUL + BENCH_LCG_ADD;
  return mean / 2 + (mean ? (*rng >> 33) % mean : 0);
}

static void *hammer(void *arg) {
  uint64_t x = (uint64_t)(uintptr_t)arg, rng = 12345;
  while (!atomic_load_explicit(&done, memory_order_relaxed)) {
    uint64_t n = jitter(&rng, n_pause);
    BENCH_WORK(n, x); /* REGION:pause */
    while (pthread_mutex_trylock(&lock) != 0)
      __asm__ volatile("pause");
    BENCH_WORK(n_hold, x); /* REGION:hold */
    pthread_mutex_unlock(&lock);
  }
  BENCH_USE(x);
  return NULL;
}

int main(void) {
  n_outside = bench_iters("outside", 100);
  n_crit = bench_iters("crit", 400);
  n_pause = bench_iters("pause", 600);
  n_hold = bench_iters("hold", 400);
  long rounds = bench_rounds(1400);
  uint64_t x = 3, rng = 777;
  uint64_t start = bench_now_ns();
  pthread_t t;
  pthread_create(&t, NULL, hammer, (void *)(uintptr_t)7);
  for (long r = 0; r < rounds; ++r) {
    uint64_t n = jitter(&rng, n_outside);
    BENCH_WORK(n, x); /* REGION:outside */
    pthread_mutex_lock(&lock);
    BENCH_WORK(n_crit, x); /* REGION:crit */
    pthread_mutex_unlock(&lock);
    COZ_PROGRESS;
  }
  atomic_store(&done, 1);
  pthread_join(t, NULL);
  BENCH_USE(x);
  bench_report(start, 0.0);
  return 0;
}
