/* syslib.c: hot code in Debian's system libraries, built without frame
 * pointers (%rbp holds data there): two threads compress a buffer over and
 * over, one with libbz2, one with zlib. Prints checksums of the outputs,
 * the same built with coz-cc or plain clang. */
#include <bzlib.h>
#include <coz.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

enum { SIZE = 256 << 10, ROUNDS = 12 };
static unsigned char input[SIZE];

static uint64_t fnv(const unsigned char *p, size_t n, uint64_t h) {
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

static void *bz2_thread(void *arg) {
  static char out[SIZE + SIZE / 100 + 600];
  uint64_t h = 14695981039346656037ull;
  for (int r = 0; r < ROUNDS; r++) {
    unsigned int n = sizeof out;
    if (BZ2_bzBuffToBuffCompress(out, &n, (char *)input, SIZE, 9, 0, 30) !=
        BZ_OK)
      return NULL;
    h = fnv((const unsigned char *)out, n, h);
    COZ_PROGRESS;
  }
  *(uint64_t *)arg = h;
  return NULL;
}

static void *zlib_thread(void *arg) {
  static unsigned char out[SIZE + SIZE / 100 + 600];
  uint64_t h = 14695981039346656037ull;
  for (int r = 0; r < 4 * ROUNDS; r++) {
    uLongf n = sizeof out;
    if (compress2(out, &n, input, SIZE, 9) != Z_OK)
      return NULL;
    h = fnv(out, n, h);
    COZ_PROGRESS;
  }
  *(uint64_t *)arg = h;
  return NULL;
}

int main(void) {
  /* Text-like data: compressible, but not trivially. */
  uint32_t x = 12345;
  for (size_t i = 0; i < SIZE; i++) {
    x = x * 1103515245u + 12345u;
    input[i] = (unsigned char)("etaoin shrdlu"[(x >> 16) % 13]);
  }
  uint64_t hb = 0, hz = 0;
  pthread_t tb, tz;
  pthread_create(&tb, NULL, bz2_thread, &hb);
  pthread_create(&tz, NULL, zlib_thread, &hz);
  pthread_join(tb, NULL);
  pthread_join(tz, NULL);
  printf("bz2 %016llx zlib %016llx\n", (unsigned long long)hb,
         (unsigned long long)hz);
  return hb && hz ? 0 : 1;
}
