// C++ test workload for coz-c++: the same computation as work.c written
// with std::thread, std::mutex, RAII locks and a lambda, so the pass sees
// C++ call sites (invokes with unwind edges) and the output can be compared
// with the C version.
#include <coz.h>

#include <cstdint>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace {

constexpr int Threads = 2, Chunks = 400, Steps = 1000000;

std::uint64_t chunkWork(std::uint64_t seed) {
  std::uint64_t x = seed;
  for (int i = 0; i < Steps; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    asm volatile("" : "+r"(x)); // keep the loop: register-only work
  }
  return x;
}

class ChunkQueue {
public:
  int take() {
    std::lock_guard<std::mutex> guard(lock_);
    if (next_ >= Chunks)
      throw std::out_of_range("no chunk left");
    return next_++;
  }
  void add(std::uint64_t value) {
    std::lock_guard<std::mutex> guard(lock_);
    sum_ += value;
  }
  std::uint64_t sum() const { return sum_; }

private:
  std::mutex lock_;
  int next_ = 0;
  std::uint64_t sum_ = 0;
};

} // namespace

int main() {
  ChunkQueue queue;
  std::vector<std::thread> threads;
  for (int i = 0; i < Threads; i++)
    threads.emplace_back([&queue] {
      for (;;) {
        int chunk;
        try {
          chunk = queue.take();
        } catch (const std::out_of_range &) {
          return;
        }
        queue.add(chunkWork(static_cast<std::uint64_t>(chunk) + 1));
        COZ_PROGRESS_NAMED("chunk");
      }
    });
  for (auto &t : threads)
    t.join();
  std::printf("chunks=%d sum=%016llx\n", Chunks,
              static_cast<unsigned long long>(queue.sum()));
  return 0;
}
