// C++: a function handed to a std::thread constructor is a thread entry; its
// outermost loop is a candidate (llvm-pass/Candidates.h). A loop on one
// line is not.
// RUN: %clangxx -std=c++17 %frontend-ir %s -o %t.ll
// RUN: %opt-coz %t.ll -o %t.out.ll
// RUN: FileCheck --input-file=%t.out.ll %s
// RUN: grep -o '__coz_name[.0-9]* = .*candidates_thread.cpp:[0-9]*' %t.out.ll | %count 1
#include <thread>

int fetch();

void work(int n) {
  // CHECK: @__coz_name{{[.0-9]*}} = {{.*}}c"{{/.*}}/candidates_thread.cpp:[[#@LINE+1]]\00"
  for (int i = 0; i < n; i++) {
    fetch();
  }
}

int main() {
  std::thread t(work, 3);
  t.join();
  for (int i = 0; i < 3; i++) fetch();
}
