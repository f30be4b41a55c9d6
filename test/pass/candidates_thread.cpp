// C++: a function handed to a std::thread constructor is a thread entry; its
// outermost loop is a candidate (llvm-pass/Candidates.h), and so are the
// returns of the function its body calls. A loop on one line is not.
// RUN: %clangxx -std=c++17 %frontend-ir %s -o %t.ll
// RUN: %opt-coz %t.ll -o %t.out.ll
// RUN: FileCheck --input-file=%t.out.ll %s
// RUN: grep -o '__coz_name[.0-9]* = .*candidates_thread.cpp:[0-9]*' %t.out.ll | %count 2
#include <thread>

int fetch();

int step(int k) {
  int s = 0;
  for (int i = 0; i < k; i++)
    s += fetch();
  // CHECK-DAG: @__coz_name{{[.0-9]*}} = {{.*}}c"{{/.*}}/candidates_thread.cpp:[[#@LINE+1]]\00"
  return s;
}

void work(int n) {
  // CHECK-DAG: @__coz_name{{[.0-9]*}} = {{.*}}c"{{/.*}}/candidates_thread.cpp:[[#@LINE+1]]\00"
  for (int i = 0; i < n; i++) {
    step(i);
  }
}

int main() {
  std::thread t(work, 3);
  t.join();
  for (int i = 0; i < 3; i++) step(i);
}
