/* Context switches by construction: every nanosleep blocks once, 250 in
 * path_a and 750 in path_b, alternating in rounds. Prints how many sleeps
 * returned EINTR: sampling must never cut a sleep short. */
#include <errno.h>
#include <stdio.h>
#include <time.h>

enum { ROUNDS = 5, NAPS_A = 50 };

static int interrupted;

__attribute__((noinline)) static void nap(void) {
  struct timespec ts = {0, 100000};
  if (nanosleep(&ts, NULL) != 0 && errno == EINTR)
    interrupted++;
  __asm__ volatile("");
}

__attribute__((noinline)) void path_a(int n) {
  for (int i = 0; i < n; i++)
    nap();
}

__attribute__((noinline)) void path_b(int n) {
  for (int i = 0; i < n; i++)
    nap();
}

int main(void) {
  for (int r = 0; r < ROUNDS; r++) {
    path_a(NAPS_A);
    path_b(3 * NAPS_A);
  }
  printf("eintr %d\n", interrupted);
  return 0;
}
