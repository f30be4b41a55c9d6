/* altstack.c: signal handlers of the program's own that do work on an
 * alternate signal stack while the program is sampled. SIGALRM's handler
 * is installed with sigaction (SA_ONSTACK); SIGVTALRM's with the raw
 * rt_sigaction system call, which the runtime does not see, so samples
 * land on the alternate stack too. Both handlers run an out-of-scope loop
 * (bad_rbp.S) with %rbp pointing into the unmapped page just above the
 * alternate stack. Prints
 * the same built with coz-cc or plain clang. */
#define _GNU_SOURCE
#include <coz.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

uint64_t spin_rbp_cfi(uint64_t n, uint64_t rbp);

enum { ALT_SIZE = 64 << 10 };
static char *alt;
static volatile sig_atomic_t handled_alrm, handled_vt;
static volatile uint64_t sink;

static void on_alrm(int sig) {
  (void)sig;
  sink += spin_rbp_cfi(200000, (uint64_t)(uintptr_t)(alt + ALT_SIZE) + 8);
  handled_alrm++;
}

static void on_vtalrm(int sig) {
  (void)sig;
  sink += spin_rbp_cfi(200000, (uint64_t)(uintptr_t)(alt + ALT_SIZE) + 8);
  handled_vt++;
}

/* glibc's sigaction supplies a restorer; the raw call needs its own. */
__attribute__((naked)) static void restore_rt(void) {
  __asm__ volatile("mov $15, %eax\n\tsyscall");
}

struct kernel_sigaction {
  void (*handler)(int);
  unsigned long flags;
  void (*restorer)(void);
  uint64_t mask;
};

static int raw_sigaction(int sig, void (*fn)(int)) {
  struct kernel_sigaction ka = {fn, SA_ONSTACK | SA_RESTART | 0x04000000,
                                restore_rt, 0}; /* 0x04000000: SA_RESTORER */
  return (int)syscall(SYS_rt_sigaction, sig, &ka, NULL, 8);
}

int main(void) {
  /* The page above the alternate stack unmapped. */
  long page = sysconf(_SC_PAGESIZE);
  alt = mmap(NULL, ALT_SIZE + (size_t)page, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (alt == MAP_FAILED)
    return 1;
  munmap(alt + ALT_SIZE, (size_t)page);
  stack_t ss = {.ss_sp = alt, .ss_size = ALT_SIZE, .ss_flags = 0};
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alrm;
  sa.sa_flags = SA_ONSTACK | SA_RESTART;
  if (sigaltstack(&ss, NULL) != 0 || sigaction(SIGALRM, &sa, NULL) ||
      raw_sigaction(SIGVTALRM, on_vtalrm) != 0)
    return 1;
  struct itimerval every = {{0, 4000}, {0, 4000}};
  setitimer(ITIMER_REAL, &every, NULL);
  setitimer(ITIMER_VIRTUAL, &every, NULL);
  uint64_t x = 1;
  for (int r = 0; r < 700; r++) {
    for (int i = 0; i < 600000; i++) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      __asm__ volatile("" : "+r"(x));
    }
    COZ_PROGRESS;
  }
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
  setitimer(ITIMER_VIRTUAL, &off, NULL);
  printf("x=%llx handlers ran: %s\n", (unsigned long long)x,
         handled_alrm > 0 && handled_vt > 0 ? "both" : "NOT BOTH");
  return 0;
}
