// jit.cpp: a JIT-like program. Code is copied into an executable mapping
// and described to libgcc with __register_frame (so every throw then looks
// it up under libgcc's object lock), and two threads alternate between
// running that code and throwing C++ exceptions in a loop, while sampled.
// Prints the same built with coz-c++ or plain clang++.
#include <coz.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <sys/mman.h>
#include <thread>

extern "C" char jit_template[], jit_template_end[];
extern "C" void __register_frame(void *);
extern "C" void __deregister_frame(void *);

using jit_fn = uint64_t (*)(uint64_t, uint64_t);

// One CIE and one FDE in .eh_frame form, then the terminating zero.
// CIE: "zR", code 1, data -8, return address r16, FDE pointers absolute;
// CFA = rsp + 8, return address at CFA - 8 (a leaf that pushes nothing).
struct eh_frame {
  uint32_t cie_len = sizeof cie + 4, cie_id = 0;
  uint8_t cie[16] = {1,    'z',  'R', 0, 1,    0x78, 16, 1,
                     0x00, 0x0c, 7,   8, 0x90, 1,    0,  0};
  uint32_t fde_len = 4 + 8 + 8 + 1 + 3, fde_cie;
  uint64_t pc_begin, pc_range;
  uint8_t aug_len = 0, pad[3] = {0, 0, 0};
  uint32_t end = 0;
} __attribute__((packed));

static eh_frame frame;

static uint64_t throw_and_catch(uint64_t x) {
  for (int i = 0; i < 1500; i++) {
    try {
      if (x & 1)
        throw std::runtime_error("odd");
      throw std::out_of_range("even");
    } catch (const std::runtime_error &) {
      x = x * 3 + 1;
    } catch (const std::out_of_range &) {
      x = x / 2 + 7;
    }
  }
  return x;
}

static void worker(jit_fn f, uint64_t *x) {
  for (int r = 0; r < 120; r++) {
    *x = f(*x, 400000);
    *x = throw_and_catch(*x);
    COZ_PROGRESS;
  }
}

int main() {
  size_t size = static_cast<size_t>(jit_template_end - jit_template);
  void *code = mmap(nullptr, 4096, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (code == MAP_FAILED)
    return 1;
  std::memcpy(code, jit_template, size);
  if (mprotect(code, 4096, PROT_READ | PROT_EXEC) != 0)
    return 1;
  frame.fde_cie =
      static_cast<uint32_t>(reinterpret_cast<char *>(&frame.fde_cie) -
                            reinterpret_cast<char *>(&frame));
  frame.pc_begin = reinterpret_cast<uint64_t>(code);
  frame.pc_range = size;
  __register_frame(&frame);
  auto f = reinterpret_cast<jit_fn>(code);
  uint64_t a = 1, b = 2;
  std::thread ta(worker, f, &a), tb(worker, f, &b);
  ta.join();
  tb.join();
  __deregister_frame(&frame);
  std::printf("%016llx %016llx\n", static_cast<unsigned long long>(a),
              static_cast<unsigned long long>(b));
  return 0;
}
