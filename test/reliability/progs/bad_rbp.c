/* bad_rbp.c: out-of-scope hot loops (bad_rbp.S) holding in %rbp an
 * address of unmapped memory just above the stack they run on, on the
 * main thread, on a pthread and on a ucontext coroutine whose stack is an
 * mmap'd block with an unmapped page above it. Samples land in them all
 * the time; a frame-pointer walk that trusts rbp faults. Prints the same
 * line built with coz-cc or plain clang. */
#define _GNU_SOURCE
#include <coz.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

uint64_t spin_rbp_cfi(uint64_t n, uint64_t rbp);
uint64_t spin_rbp_nocfi(uint64_t n, uint64_t rbp);

enum { ROUNDS = 60, STEPS = 1500000 };

/* The first page at or above addr that nothing maps (msync says ENOMEM). */
static uint64_t unmapped_above(uint64_t addr) {
  long page = sysconf(_SC_PAGESIZE);
  uint64_t p = (addr + (uint64_t)page - 1) & ~(uint64_t)(page - 1);
  for (int i = 0; i < 4096; i++, p += (uint64_t)page)
    if (msync((void *)(uintptr_t)p, (size_t)page, MS_ASYNC) != 0 &&
        errno == ENOMEM)
      return p + 8;
  return addr + 8; /* none found: still not a frame of this stack */
}

static uint64_t own_stack_top(void) {
  pthread_attr_t attr;
  void *lo = NULL;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &lo, &size);
    pthread_attr_destroy(&attr);
  }
  return (uint64_t)(uintptr_t)lo + size;
}

static uint64_t work(uint64_t rbp) {
  uint64_t x = 0;
  for (int r = 0; r < ROUNDS; r++) {
    x = x * 31 + spin_rbp_cfi(STEPS + (uint64_t)r, rbp);
    x = x * 31 + spin_rbp_nocfi(STEPS - (uint64_t)r, rbp);
    COZ_PROGRESS;
  }
  return x;
}

static void *thread_main(void *arg) {
  *(uint64_t *)arg = work(unmapped_above(own_stack_top()));
  return NULL;
}

static ucontext_t main_ctx, co_ctx;
static uint64_t co_result, co_rbp;

static void coroutine(void) { co_result = work(co_rbp); }

int main(void) {
  uint64_t on_main = work(unmapped_above(own_stack_top()));

  uint64_t on_thread = 0;
  pthread_t t;
  pthread_create(&t, NULL, thread_main, &on_thread);
  pthread_join(t, NULL);

  /* 16 pages of stack, and the page above them unmapped. */
  long page = sysconf(_SC_PAGESIZE);
  size_t size = 16 * (size_t)page;
  char *block = mmap(NULL, size + (size_t)page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (block == MAP_FAILED)
    return 1;
  munmap(block + size, (size_t)page);
  co_rbp = (uint64_t)(uintptr_t)(block + size) + 8;
  getcontext(&co_ctx);
  co_ctx.uc_stack.ss_sp = block;
  co_ctx.uc_stack.ss_size = size;
  co_ctx.uc_link = &main_ctx;
  makecontext(&co_ctx, coroutine, 0);
  swapcontext(&main_ctx, &co_ctx);

  printf("main %llx thread %llx coroutine %llx\n", (unsigned long long)on_main,
         (unsigned long long)on_thread, (unsigned long long)co_result);
  return 0;
}
