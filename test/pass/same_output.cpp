// A threaded C++ program prints the same thing with and without the pass,
// at -O0 and -O2, without any runtime: std::mutex/condition_variable go
// through libstdc++'s weak pthread references, an exception leaves a
// locked scope, and cancellation and pthread_exit unwind (forced unwinding)
// through the pass's fallback checkpoints, which need unwind tables.
// RUN: %clangxx -O0 %s -o %t.plain0 && %t.plain0 > %t.plain0.out
// RUN: %clangxx -O2 %s -o %t.plain2 && %t.plain2 > %t.plain2.out
// RUN: %clangxx -O0 -fpass-plugin=%plugin %s -o %t.pass0 && %t.pass0 > %t.pass0.out
// RUN: %clangxx -O2 -fpass-plugin=%plugin %s -o %t.pass2 && %t.pass2 > %t.pass2.out
// RUN: diff %t.plain0.out %t.plain2.out
// RUN: diff %t.plain0.out %t.pass0.out
// RUN: diff %t.plain0.out %t.pass2.out
// RUN: FileCheck --input-file=%t.pass2.out %s
// RUN: nm %t.pass2 | FileCheck --check-prefix=NM %s
// NM-DAG: W __coz_pthread_cond_wait
// NM-DAG: W __coz_pthread_exit
// NM-DAG: W __coz_pthread_mutex_lock
// CHECK: queue sum=20100 items=200
// CHECK: caught: odd value 7 (lock released: yes)
// CHECK: cancelled: cleanup ran, mutex free: yes
// CHECK: exited: cleanup ran, value 9
#include "coz.h"

#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <pthread.h>
#include <stdexcept>
#include <thread>
#include <vector>

static std::mutex qm;
static std::condition_variable qcv;
static std::deque<int> q;
static bool done;

static void produce() {
  for (int i = 1; i <= 200; i++) {
    {
      std::lock_guard<std::mutex> g(qm);
      q.push_back(i);
    }
    qcv.notify_one();
    COZ_PROGRESS_NAMED("pushed");
  }
  {
    std::lock_guard<std::mutex> g(qm);
    done = true;
  }
  qcv.notify_all();
}

static void consume(long *sum, int *items) {
  for (;;) {
    std::unique_lock<std::mutex> l(qm);
    qcv.wait(l, [] { return !q.empty() || done; });
    if (q.empty())
      return;
    *sum += q.front();
    ++*items;
    q.pop_front();
  }
}

static pthread_mutex_t em = PTHREAD_MUTEX_INITIALIZER;

struct Unlock {
  pthread_mutex_t *m;
  ~Unlock() { pthread_mutex_unlock(m); }
};

static void check_even(int v) {
  pthread_mutex_lock(&em);
  Unlock u{&em};
  if (v % 2)
    throw std::runtime_error("odd value " + std::to_string(v));
}

static pthread_mutex_t cm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cc = PTHREAD_COND_INITIALIZER;
static bool cleanup_ran;
static volatile bool waiting;

struct Flag {
  bool *f;
  ~Flag() { *f = true; }
};

static void *wait_forever(void *) {
  pthread_mutex_lock(&cm);
  Unlock u{&cm};
  Flag f{&cleanup_ran};
  waiting = true;
  for (;;)
    pthread_cond_wait(&cc, &cm); // cancellation point: forced unwind
}

static bool exit_cleanup;
static void *exit_early(void *) {
  Flag f{&exit_cleanup};
  pthread_exit(reinterpret_cast<void *>(9L));
}

int main() {
  long sum = 0;
  int items = 0;
  std::thread p(produce), c(consume, &sum, &items);
  p.join();
  c.join();
  std::printf("queue sum=%ld items=%d\n", sum, items);

  try {
    check_even(4);
    check_even(7);
  } catch (const std::exception &e) {
    bool free = pthread_mutex_trylock(&em) == 0;
    if (free)
      pthread_mutex_unlock(&em);
    std::printf("caught: %s (lock released: %s)\n", e.what(),
                free ? "yes" : "no");
  }

  pthread_t t;
  pthread_create(&t, nullptr, wait_forever, nullptr);
  while (!waiting)
    std::this_thread::yield();
  pthread_mutex_lock(&cm); // the waiter is inside pthread_cond_wait now
  pthread_mutex_unlock(&cm);
  pthread_cancel(t);
  pthread_join(t, nullptr);
  bool free = pthread_mutex_trylock(&cm) == 0;
  std::printf("cancelled: cleanup %s, mutex free: %s\n",
              cleanup_ran ? "ran" : "skipped", free ? "yes" : "no");

  void *ret;
  pthread_create(&t, nullptr, exit_early, nullptr);
  pthread_join(t, &ret);
  std::printf("exited: cleanup %s, value %ld\n", exit_cleanup ? "ran" : "skipped",
              reinterpret_cast<long>(ret));
  return 0;
}
