// Case 9: C++ producer/consumer with std::thread, std::mutex and
// std::condition_variable (the blocking happens inside libstdc++). The
// producer is the bottleneck; cutting the consumer gains nothing.
#include "../bench_common.h"
#include <coz.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace {

constexpr size_t kCapacity = 8;

class BoundedQueue {
public:
  void push(uint64_t v) {
    std::unique_lock<std::mutex> guard(mu_);
    not_full_.wait(guard, [this] { return items_.size() < kCapacity; });
    items_.push_back(v);
    not_empty_.notify_one();
  }
  uint64_t pop() {
    std::unique_lock<std::mutex> guard(mu_);
    not_empty_.wait(guard, [this] { return !items_.empty(); });
    uint64_t v = items_.front();
    items_.pop_front();
    not_full_.notify_one();
    return v;
  }

private:
  std::mutex mu_;
  std::condition_variable not_empty_, not_full_;
  std::deque<uint64_t> items_;
};

} // namespace

int main() {
  const uint64_t n_produce = bench_iters("produce", 1000);
  const uint64_t n_consume = bench_iters("consume", 500);
  const long items = bench_rounds(1000);
  BoundedQueue queue;
  uint64_t start = bench_now_ns();
  std::thread producer([&] {
    uint64_t x = 1;
    for (long i = 0; i < items; ++i) {
      BENCH_WORK(n_produce, x); /* REGION:produce */
      queue.push(x);
    }
  });
  std::thread consumer([&] {
    uint64_t y = 2;
    for (long i = 0; i < items; ++i) {
      y ^= queue.pop();
      BENCH_WORK(n_consume, y); /* REGION:consume */
      COZ_PROGRESS;
    }
    BENCH_USE(y);
  });
  producer.join();
  consumer.join();
  bench_report(start, 0.0);
  return 0;
}
