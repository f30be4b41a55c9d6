/* Heap bytes by construction, in C++: every round, path_a runs
 * allocate_mix once and path_b three times with the same size, so path_a
 * allocates exactly N bytes and path_b 3N (0.25 / 0.75). allocate_mix
 * goes through malloc, calloc, realloc, new, new[], nothrow new, aligned
 * new and std::vector's growth, and tallies the bytes it asked for (the
 * vector's from its capacity changes); main prints the tally, which the
 * profile's total must equal. Names live in a namespace and a class, so
 * the report must demangle them. */
#include <cstdio>
#include <cstdlib>
#include <new>
#include <vector>

namespace heap {

struct alignas(64) Line {
  char bytes[64];
};

void *volatile sink; /* pointers escape: no allocation is optimized away */

__attribute__((noinline)) unsigned long allocate_mix(int n) {
  unsigned long bytes = 0;
  void *p = std::malloc(n);
  void *q = std::calloc(n, 3);
  bytes += n + 3ul * n;
  sink = p = std::realloc(p, 2ul * n);
  bytes += 2ul * n;
  char *a = new char[n];
  long *l = new long(n);
  long *nt = new (std::nothrow) long(n);
  Line *w = new Line; /* over-aligned: operator new(size, align_val_t) */
  bytes += n + 2 * sizeof(long) + sizeof(Line);
  sink = q, sink = a, sink = l, sink = nt, sink = w;
  std::vector<int> v;
  std::size_t cap = 0;
  for (int i = 0; i < n; i++) {
    v.push_back(i);
    if (v.capacity() != cap) { /* the vector grew: a new block */
      cap = v.capacity();
      bytes += cap * sizeof(int);
    }
  }
  sink = v.data();
  std::free(p);
  std::free(q);
  delete[] a;
  delete l;
  delete nt;
  delete w;
  return bytes;
}

struct Workload {
  unsigned long total = 0;
  __attribute__((noinline)) void path_a(int n);
  __attribute__((noinline)) void path_b(int n);
};

/* The sum after each call keeps it out of tail position. */
void Workload::path_a(int n) { total += allocate_mix(n); }
void Workload::path_b(int n) {
  for (int k = 0; k < 3; k++)
    total += allocate_mix(n);
}

} // namespace heap

int main() {
  heap::Workload w;
  for (int round = 0; round < 200; round++) {
    w.path_a(1000);
    w.path_b(1000);
  }
  std::printf("allocated %lu\n", w.total);
  return 0;
}
