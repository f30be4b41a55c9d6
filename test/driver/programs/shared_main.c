/* Executable half of the -shared test: the threads of work.c, with the
 * chunk work and the progress point in libchunk.so. Same output as work.c. */
#include "shared_chunk.h"

#include <pthread.h>
#include <stdio.h>

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
    chunk_done();
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
  if (chunks_done() != CHUNKS) {
    fprintf(stderr, "library counted %d chunks, expected %d\n", chunks_done(),
            CHUNKS);
    return 1;
  }
  printf("chunks=%d sum=%016llx\n", CHUNKS, (unsigned long long)sum);
  return 0;
}
