// Producer/consumer in C++: std::thread, std::mutex, std::condition_variable
// (their pthread calls happen inside libstdc++ and inline headers). The
// producer is the bottleneck.
//   cxx ITEMS                  profiled run
//   cxx ITEMS actual BLOCK     unprofiled: blocks alternate full producer
//                              work and 75% of it; prints pair=<full>,<cut>
#include "spin.h"
#include <condition_variable>
#include <coz.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

// ~100 us and ~50 us per item: see pc.c (the consumer's waits stay short).
static const long kProducer = 100000, kConsumer = 50000;
static long items, block = 1;
static bool actual;
static std::mutex mu;
static std::condition_variable not_full, not_empty;
static std::deque<long> q;

static void producer() {
  uint64_t x = 1;
  for (long i = 0; i < items; i++) {
    long work = actual && (i / block) % 2 ? kProducer / 4 * 3 : kProducer;
    SPIN(work, x); /* LINE_PRODUCER */
    std::unique_lock<std::mutex> lock(mu);
    not_full.wait(lock, [] { return q.size() < 8; });
    q.push_back(i);
    not_empty.notify_one();
  }
}

static void consumer() {
  uint64_t x = 2;
  double block_start = now_s(), full = 0;
  for (long i = 0; i < items; i++) {
    long v;
    {
      std::unique_lock<std::mutex> lock(mu);
      not_empty.wait(lock, [] { return !q.empty(); });
      v = q.front();
      q.pop_front();
      not_full.notify_one();
    }
    SPIN(kConsumer, x); /* LINE_CONSUMER */
    COZ_PROGRESS;
    if (actual && (v + 1) % block == 0) {
      double t = now_s();
      if ((v / block) % 2 == 0)
        full = t - block_start;
      else
        std::printf("pair=%.6f,%.6f\n", full, t - block_start);
      block_start = t;
    }
  }
}

int main(int argc, char **argv) {
  items = argc > 1 ? std::atol(argv[1]) : 2000;
  actual = argc > 3 && std::strcmp(argv[2], "actual") == 0;
  if (actual)
    block = std::atol(argv[3]);
  std::thread p(producer), c(consumer);
  p.join();
  c.join();
  return 0;
}
