/* A SIGUSR1 handler that works on a 4 KiB alternate signal stack, raised
 * for 0.5 s: a call-path sample landing inside it would push a second
 * signal frame and overflow that stack. Exit 0 when every signal was
 * handled. */
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static atomic_long handled;

static void on_usr1(int sig) {
  (void)sig;
  uint64_t x = 5;
  for (int i = 0; i < 20000; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    __asm__ volatile("" : "+r"(x));
  }
  atomic_fetch_add(&handled, 1);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void) {
  static char stack[4096] __attribute__((aligned(16)));
  stack_t ss = {.ss_sp = stack, .ss_size = sizeof stack, .ss_flags = 0};
  if (sigaltstack(&ss, NULL) != 0)
    return 1;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sa.sa_flags = SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGUSR1, &sa, NULL);
  long sent = 0;
  for (double end = now_s() + 0.5; now_s() < end; sent++)
    raise(SIGUSR1);
  printf("sent %ld handled %ld\n", sent, (long)handled);
  return sent == handled ? 0 : 1;
}
