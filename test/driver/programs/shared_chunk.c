/* libchunk.so for the -shared test: see shared_chunk.h. */
#include "shared_chunk.h"

#include <coz.h>
#include <pthread.h>

enum { STEPS = 1000000 };

static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;
static int done;

uint64_t chunk_work(uint64_t seed) {
  uint64_t x = seed;
  for (int i = 0; i < STEPS; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    __asm__ volatile("" : "+r"(x)); /* keep the loop: register-only work */
  }
  return x;
}

void chunk_done(void) {
  pthread_mutex_lock(&done_lock);
  done++;
  pthread_mutex_unlock(&done_lock);
  COZ_PROGRESS_NAMED("chunk");
}

int chunks_done(void) {
  pthread_mutex_lock(&done_lock);
  int n = done;
  pthread_mutex_unlock(&done_lock);
  return n;
}
