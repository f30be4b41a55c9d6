/* dlchurn.c: two threads each dlopen a library, run its code for about a
 * millisecond and dlclose it, over and over, while they are sampled: the
 * runtime's tables of loaded objects go stale under the samples. The path
 * of the library is argv[1]. Prints the same built with coz-cc or plain
 * clang. */
#include <coz.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

static const char *lib_path;

static void *worker(void *arg) {
  uint64_t x = *(uint64_t *)arg;
  for (int r = 0; r < 300; r++) {
    void *h = dlopen(lib_path, RTLD_NOW | RTLD_LOCAL);
    uint64_t (*work)(uint64_t, uint64_t) =
        h ? (uint64_t(*)(uint64_t, uint64_t))dlsym(h, "churn_work") : NULL;
    if (!work)
      return NULL;
    x = work(x, 2000000);
    dlclose(h);
    COZ_PROGRESS;
  }
  *(uint64_t *)arg = x;
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  lib_path = argv[1];
  uint64_t a = 1, b = 2;
  pthread_t ta, tb;
  pthread_create(&ta, NULL, worker, &a);
  pthread_create(&tb, NULL, worker, &b);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  printf("%016llx %016llx\n", (unsigned long long)a, (unsigned long long)b);
  return 0;
}
