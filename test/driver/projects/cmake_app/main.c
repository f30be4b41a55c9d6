/* main.c: two threads share 400 chunks of work (the computation of the
 * driver tests' work.c), marking progress when coz.h is available. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "chunk.h"

#include <pthread.h>
#include <stdio.h>

#if defined(HAVE_COZ_H) || (!defined(HAVE_CONFIG_H) && __has_include(<coz.h>))
#include <coz.h>
#else
#define COZ_PROGRESS_NAMED(name)
#endif

enum { THREADS = 2, CHUNKS = 400 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int next_chunk;
static uint64_t sum;

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
