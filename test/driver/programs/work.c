/* Test workload for coz-cc: two threads take chunks of LCG work from a shared
 * queue, add each chunk's result into a shared sum under a mutex, and mark one
 * unit of progress per chunk. The sum is order-independent, so the output is
 * the same for every build and every schedule; the run lasts long enough
 * (a few tenths of a second) for the runtime to run experiments. */
#include <coz.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

enum { THREADS = 2, CHUNKS = 400, STEPS = 1000000 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int next_chunk;
static uint64_t sum;

static uint64_t chunk_work(uint64_t seed) {
  uint64_t x = seed;
  for (int i = 0; i < STEPS; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    __asm__ volatile("" : "+r"(x)); /* keep the loop: register-only work */
  }
  return x;
}

static void *worker(void *arg) {
  (void)arg;
  for (;;) {
    pthread_mutex_lock(&lock);
    int chunk = next_chunk++;
    pthread_mutex_unlock(&lock);
    if (chunk >= CHUNKS)
      return NULL;
    uint64_t result = chunk_work((uint64_t)chunk + 1);
    pthread_mutex_lock(&lock);
    sum += result;
    pthread_mutex_unlock(&lock);
    COZ_PROGRESS_NAMED("chunk");
  }
}

int main(void) {
  pthread_t threads[THREADS];
  for (int i = 0; i < THREADS; i++)
    if (pthread_create(&threads[i], NULL, worker, NULL) != 0) {
      fputs("pthread_create failed\n", stderr);
      return 1;
    }
  for (int i = 0; i < THREADS; i++)
    pthread_join(threads[i], NULL);
  printf("chunks=%d sum=%016llx\n", CHUNKS, (unsigned long long)sum);
  return 0;
}
