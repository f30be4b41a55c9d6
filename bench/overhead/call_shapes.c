/* call_shapes: what the shape of an intercepted call costs an uncontended
 * lock loop on this machine, separated from the runtime. One thread takes
 * and releases a mutex ITERATIONS times, the calls made in one of six ways:
 *   plt         pthread_mutex_lock/unlock through the PLT (the plain
 *               program);
 *   site-test   the call site loads a table row, tests it and calls
 *               through the register (coz-cc's ABI 2 call sites);
 *   site        the same without the test;
 *   stub        a direct call of a stub that jumps through the row (the
 *               shape of a PLT entry);
 *   stub-test   a direct call of a stub that loads the row, tests it and
 *               jumps through the register (the runtime's entries since
 *               ABI 3);
 *   stub-try    stub-test, and the call site tests the lock's result (the
 *               pass's try-first split).
 * Every row holds libc's own function, so all six do the same work. Rounds
 * run the six in rotating order, each in a fresh child process; each ratio
 * is the median over rounds of the shape's time over the same round's
 * `plt`. x86-64 only (the stubs are assembly).
 *
 *   bench/overhead/call_shapes [rounds (default 7)]
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "median.h"

#define ITERATIONS 300000000u
#define MAX_ROUNDS 64

enum { PLT, SITE_TEST, SITE, STUB, STUB_TEST, STUB_TRY, N_SHAPES };
static const char *const shape_names[N_SHAPES] = {
    "plt", "site-test", "site", "stub", "stub-test", "stub-try"};

typedef int (*lock_fn)(pthread_mutex_t *);
/* The table the stubs read: lock, unlock. Not static: the stubs name it. */
lock_fn call_shapes_table[2];

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long counter;

/* The slow side of a test that fails (never taken: the rows are set). */
__attribute__((noinline, used)) int call_shapes_slow_lock(pthread_mutex_t *m) {
  return pthread_mutex_lock(m);
}
__attribute__((noinline, used)) int call_shapes_slow_unlock(pthread_mutex_t *m) {
  return pthread_mutex_unlock(m);
}

#if defined(__x86_64__)
int stub_lock(pthread_mutex_t *m);
int stub_unlock(pthread_mutex_t *m);
int stub_test_lock(pthread_mutex_t *m);
int stub_test_unlock(pthread_mutex_t *m);
__asm__(".text\n"
        ".p2align 4\n"
        "stub_lock: jmp *call_shapes_table(%rip)\n"
        ".p2align 4\n"
        "stub_unlock: jmp *call_shapes_table+8(%rip)\n"
        ".p2align 4\n"
        "stub_test_lock:\n"
        "  mov call_shapes_table(%rip), %rax\n"
        "  test %rax, %rax\n"
        "  je call_shapes_slow_lock\n"
        "  jmp *%rax\n"
        ".p2align 4\n"
        "stub_test_unlock:\n"
        "  mov call_shapes_table+8(%rip), %rax\n"
        "  test %rax, %rax\n"
        "  je call_shapes_slow_unlock\n"
        "  jmp *%rax\n");
#endif

static lock_fn row(int i) {
  return __atomic_load_n(&call_shapes_table[i], __ATOMIC_RELAXED);
}

/* ABI 2's call site: one load of the row, a test, a call through it, and
 * out of line a direct call (of another prototype than the row's, so that
 * the compiler cannot turn the two calls into one through a select). */
static __attribute__((noinline)) void site_slow(int i) {
  (i ? call_shapes_slow_unlock : call_shapes_slow_lock)(&lock);
}
static inline __attribute__((always_inline)) void site_test(int i) {
  lock_fn f = row(i);
  if (__builtin_expect(f != NULL, 1))
    f(&lock);
  else
    site_slow(i);
}

/* Each shape is its own loop: a switch inside one loop would leave its
 * dispatch to the compiler's unswitching. */
#define LOOP(LOCK, UNLOCK)                                                     \
  for (unsigned i = 0; i < ITERATIONS; i++) {                                  \
    LOCK;                                                                      \
    counter++;                                                                 \
    UNLOCK;                                                                    \
  }

static void run(int shape) {
#if defined(__x86_64__)
  switch (shape) {
  case PLT:
    LOOP(pthread_mutex_lock(&lock), pthread_mutex_unlock(&lock));
    break;
  case SITE_TEST:
    LOOP(site_test(0), site_test(1));
    break;
  case SITE:
    LOOP(row(0)(&lock), row(1)(&lock));
    break;
  case STUB:
    LOOP(stub_lock(&lock), stub_unlock(&lock));
    break;
  case STUB_TEST:
    LOOP(stub_test_lock(&lock), stub_test_unlock(&lock));
    break;
  case STUB_TRY:
    LOOP(if (__builtin_expect(stub_test_lock(&lock) == 16, 0))
             call_shapes_slow_lock(&lock),
         stub_test_unlock(&lock));
    break;
  }
#else
  (void)shape;
#endif
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One shape in a fresh child, timed from the parent: wall seconds, < 0 on
 * failure. */
static double measure(int shape) {
  double t0 = now_s();
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    run(shape);
    _exit(counter == ITERATIONS ? 0 : 1);
  }
  int status;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0)
    return -1;
  return now_s() - t0;
}

int main(int argc, char **argv) {
#if !defined(__x86_64__)
  (void)argc, (void)argv;
  fprintf(stderr, "call_shapes: x86-64 only (its stubs are assembly)\n");
  return 2;
#else
  int rounds = argc > 1 ? atoi(argv[1]) : 7;
  if (rounds < 1 || rounds > MAX_ROUNDS) {
    fprintf(stderr, "call_shapes: rounds must be 1..%d\n", MAX_ROUNDS);
    return 2;
  }
  call_shapes_table[0] = (lock_fn)dlsym(RTLD_NEXT, "pthread_mutex_lock");
  call_shapes_table[1] = (lock_fn)dlsym(RTLD_NEXT, "pthread_mutex_unlock");
  if (!call_shapes_table[0] || !call_shapes_table[1]) {
    fprintf(stderr, "call_shapes: libc's mutex functions not found\n");
    return 1;
  }
  double t[N_SHAPES][MAX_ROUNDS], ratio[N_SHAPES][MAX_ROUNDS];
  for (int r = 0; r < rounds; r++)
    for (int k = 0; k < N_SHAPES; k++) {
      int s = (k + r) % N_SHAPES;
      if ((t[s][r] = measure(s)) < 0) {
        fprintf(stderr, "call_shapes: the %s run failed\n", shape_names[s]);
        return 1;
      }
    }
  for (int s = 0; s < N_SHAPES; s++)
    for (int r = 0; r < rounds; r++)
      ratio[s][r] = t[s][r] / t[PLT][r];
  double plt_s = bench_median(t[PLT], rounds);
  printf("%u lock/unlock pairs, %d rounds; plt median %.3f s (%.2f ns a pair)\n",
         ITERATIONS, rounds, plt_s, plt_s * 1e9 / ITERATIONS);
  printf("shape        time ratio\n");
  for (int s = 0; s < N_SHAPES; s++)
    printf("%-12s %10.3f\n", shape_names[s], bench_median(ratio[s], rounds));
  return 0;
#endif
}
