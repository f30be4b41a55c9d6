// The counter layout of design.md, Contract 2, seen from the program: 16
// shards of 64 bytes, 64-byte aligned, the sum of the shards' first words
// is the number of visits; threads running on different CPUs use different
// shards (when the scheduler puts them there, so not asserted). A program
// may declare the counter itself; the pass then defines that symbol.
// RUN: %clang -O0 -fpass-plugin=%plugin %s -o %t.O0 && %t.O0 | FileCheck %s
// RUN: %clang -O2 -fpass-plugin=%plugin %s -o %t.O2 && %t.O2 | FileCheck %s
// RUN: %clang -O2 -fpass-plugin=%plugin %s -o %t.O2 && %t.O2 a b | FileCheck %s
#include "coz.h"
#include "lcg.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

extern uint64_t hot_counter[128] __asm__("__coz_ctr.0.hot");

static long per_thread;

static void *run(void *arg) {
  unsigned x = (unsigned)(long)arg;
  for (long i = 0; i < per_thread; i++) {
    x = lcg(x);
    COZ_PROGRESS_NAMED("hot");
  }
  return (void *)(long)(x & 1);
}

int main(int argc, char **argv) {
  (void)argv;
  per_thread = 100000L * argc;
  pthread_t t[4];
  for (long i = 0; i < 4; i++)
    pthread_create(&t[i], NULL, run, (void *)i);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], NULL);
  uint64_t total = 0, padding = 0;
  for (int s = 0; s < 16; s++) {
    total += hot_counter[s * 8];
    for (int w = 1; w < 8; w++)
      padding += hot_counter[s * 8 + w];
  }
  printf("expect %ld\n", 4 * per_thread);
  printf("total %llu padding %llu aligned %d\n", (unsigned long long)total,
         (unsigned long long)padding, (int)((uintptr_t)hot_counter % 64 == 0));
  return 0;
}
// CHECK: expect [[N:[0-9]+]]
// CHECK: total [[N]] padding 0 aligned 1
