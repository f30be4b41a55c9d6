/* A program with its own allocator: it defines malloc, calloc, realloc and
 * free (a bump allocator over a static arena; free keeps nothing). It must
 * link and run with the runtime (which then allocates from it too), and
 * its allocations must be counted once each: calloc calls malloc inside,
 * and only the program's call of calloc counts. path_a allocates N bytes
 * per round, path_b 3N; main prints the tally of the bytes asked for. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

enum { ARENA = 256 << 20, ALIGN = 16 };
static _Alignas(ALIGN) char arena[ARENA];
static atomic_size_t used;
static atomic_long served;

/* Each block starts with its size, for realloc. */
void *malloc(size_t n) {
  size_t need = (n + 2 * ALIGN - 1) / ALIGN * ALIGN;
  size_t at = atomic_fetch_add(&used, need);
  if (at + need > ARENA || need < n)
    return NULL;
  atomic_fetch_add(&served, 1);
  *(size_t *)(arena + at) = n;
  return arena + at + ALIGN;
}

void free(void *p) { (void)p; }

/* Through a volatile pointer: the optimizer would fold malloc + memset 0
 * into a call of calloc, this very function. */
static void *(*volatile zero)(void *, int, size_t) = memset;

void *calloc(size_t n, size_t size) {
  if (size && n > (size_t)-1 / size)
    return NULL;
  void *p = malloc(n * size);
  if (p)
    zero(p, 0, n * size);
  return p;
}

void *realloc(void *p, size_t n) {
  void *q = malloc(n);
  if (p && q) {
    size_t old = *(size_t *)((char *)p - ALIGN);
    memcpy(q, p, old < n ? old : n);
  }
  return q;
}

__attribute__((noinline)) static unsigned long allocate(int n) {
  char *a = malloc((size_t)n);
  char *b = calloc((size_t)n, 2);
  a = realloc(a, 3 * (size_t)n);
  if (!a || !b || b[n] != 0)
    return 0;
  memset(a, 1, 3 * (size_t)n);
  free(a);
  free(b);
  return (unsigned long)n + 2ul * n + 3ul * n;
}

/* The sums after the calls keep them out of tail position. */
static unsigned long total;
__attribute__((noinline)) void path_a(int n) { total += allocate(n); }
__attribute__((noinline)) void path_b(int n) {
  total += allocate(n);
  total += allocate(2 * n);
}

int main(void) {
  for (int round = 0; round < 300; round++) {
    path_a(1024);
    path_b(1024);
  }
  printf("allocated %lu served %ld\n", total, atomic_load(&served));
  return 0;
}
