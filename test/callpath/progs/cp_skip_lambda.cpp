/* A lambda that allocates, for --coz-skip by the name coz-report prints for
 * it. Every round, ns::fill allocates n bytes itself and 3n through its
 * lambda (not inlined: a frame of its own, so the report names it); main
 * prints both tallies. fill is inline, so the lambda's name is the
 * external one ({lambda(int)#1}), which demanglers spell differently. */
#include <cstdio>
#include <cstdlib>

namespace ns {

void *volatile sink; /* pointers escape: no allocation is optimized away */

inline unsigned long fill(int n, unsigned long *by_lambda) {
  auto take = [](int k) __attribute__((noinline)) {
    sink = std::malloc(k);
    std::free(sink);
    return (unsigned long)k;
  };
  for (int i = 0; i < 3; i++)
    *by_lambda += take(n);
  sink = std::malloc(n);
  std::free(sink);
  return (unsigned long)n;
}

} // namespace ns

int main() {
  unsigned long own = 0, by_lambda = 0;
  for (int round = 0; round < 200; round++)
    own += ns::fill(1000, &by_lambda);
  std::printf("fill %lu lambda %lu\n", own, by_lambda);
  return 0;
}
