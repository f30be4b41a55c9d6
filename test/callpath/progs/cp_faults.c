/* Minor page faults by construction: path_a touches N fresh anonymous
 * pages, path_b 3N (one write per page of a new mapping), alternating. */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

enum { N = 2048, ROUNDS = 4 };

__attribute__((noinline)) static void touch_pages(size_t pages) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  char *p = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    abort();
  for (size_t i = 0; i < pages; i++)
    p[i * page] = 1;
  munmap(p, pages * page);
}

/* The empty asm after the call keeps it out of tail position: a tail call
 * would replace path_a's frame with touch_pages'. */
__attribute__((noinline)) void path_a(void) {
  touch_pages(N);
  __asm__ volatile("");
}
__attribute__((noinline)) void path_b(void) {
  touch_pages(3 * N);
  __asm__ volatile("");
}

int main(void) {
  for (int r = 0; r < ROUNDS; r++) {
    path_a();
    path_b();
  }
  return 0;
}
