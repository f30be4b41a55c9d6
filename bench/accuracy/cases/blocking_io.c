/* Case 8: blocking pipe I/O on the critical path. Each round the main thread
 * computes, writes a request to a pipe and blocks reading the reply; a
 * "device" thread reads the request, sleeps 1 ms and replies. Cutting the
 * compute region by s gains s times its share; the sleep stays. */
#include "../bench_common.h"
#include <coz.h>
#include <pthread.h>
#include <unistd.h>

static int to_device[2], from_device[2];

static void *device(void *arg) {
  (void)arg;
  char c;
  while (read(to_device[0], &c, 1) == 1) {
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
    if (write(from_device[1], &c, 1) != 1)
      break;
  }
  return NULL;
}

int main(void) {
  uint64_t n_compute = bench_iters("compute", 2000);
  long rounds = bench_rounds(330);
  if (pipe(to_device) != 0 || pipe(from_device) != 0) {
    perror("pipe");
    return 1;
  }
  pthread_t t;
  pthread_create(&t, NULL, device, NULL);
  uint64_t x = 1;
  uint64_t start = bench_now_ns();
  for (long r = 0; r < rounds; ++r) {
    BENCH_WORK(n_compute, x); /* REGION:compute */
    char c = (char)x;
    if (write(to_device[1], &c, 1) != 1 || read(from_device[0], &c, 1) != 1) {
      perror("pipe I/O");
      return 1;
    }
    COZ_PROGRESS;
  }
  bench_report(start, 0.0);
  close(to_device[1]);
  pthread_join(t, NULL);
  BENCH_USE(x);
  return 0;
}
