// Counted calls in C++: operator new and new[] by their mangled names
// (plain, nothrow, align_val_t). An invoke of one stays an invoke with the
// same unwind edge; the counting call goes on its normal edge, in a block of
// its own when the normal destination is also reached from elsewhere.
// std::vector's growth reaches operator new from the allocator that the
// program instantiates, so it is counted too.
// RUN: %clangxx %frontend-ir -std=c++17 %s -o - | %opt-coz | FileCheck %s
#include <new>
#include <vector>

struct Guard {
  ~Guard();
};
struct alignas(64) Wide {
  char b[64];
};
bool flag();

// Inside a cleanup scope `new` is an invoke; it never returns NULL, so
// the size is counted as it is.
// CHECK-LABEL: define {{.*}} @_Z3onei(
int *one(int v) {
  Guard g;
  // CHECK: [[P:%[0-9a-z.]+]] = invoke {{.*}}@_Znwm(i64 {{.*}}4)
  // CHECK-NEXT: to label %[[NORMAL:[0-9a-z.]+]] unwind label %[[LPAD:[0-9a-z.]+]]
  // CHECK: {{^}}[[NORMAL]]:
  // CHECK-NEXT: notail call void @__coz_count_heap(i64 4, {{i8\*|ptr}} null)
  // CHECK: {{^}}[[LPAD]]:
  // CHECK-NEXT: landingpad
  return new int(v);
}

// Two invokes of new[] whose normal destination is one block (a PHI
// merges their results once sroa and simplifycfg have run): each gets a
// block of its own on its edge, so each counts only its own size, and the
// PHI takes its values through the new blocks.
// RUN: %clangxx %frontend-ir %s -o - | %opt-plain -passes='function(sroa,simplifycfg)' | %opt-coz | FileCheck --check-prefix=SPLIT %s
// SPLIT-LABEL: define {{.*}} @_Z6eitherbm(
// SPLIT: invoke {{.*}}@_Znam(i64 {{.*}}[[N1:%[0-9a-z._]+]])
// SPLIT-NEXT: to label %[[E1:[0-9a-z._]+]] unwind
// SPLIT: {{^}}[[E1]]:
// SPLIT-NEXT: notail call void @__coz_count_heap(i64 [[N1]],
// SPLIT-NEXT: br label %[[MERGE:[0-9a-z._]+]]
// SPLIT: invoke {{.*}}@_Znam(i64 {{.*}}[[N2:%[0-9a-z._]+]])
// SPLIT-NEXT: to label %[[E2:[0-9a-z._]+]] unwind
// SPLIT: {{^}}[[E2]]:
// SPLIT-NEXT: notail call void @__coz_count_heap(i64 [[N2]],
// SPLIT-NEXT: br label %[[MERGE]]
// SPLIT: {{^}}[[MERGE]]:
// SPLIT-NEXT: phi {{.*}} [ %{{[0-9]+}}, %[[E1]] ], [ %{{[0-9]+}}, %[[E2]] ]
char *either(bool b, unsigned long n) {
  Guard g;
  char *p = b ? new char[n] : new char[2 * n];
  flag();
  return p;
}

// CHECK-LABEL: define {{.*}} @_Z7nothrowm(
void *nothrow(unsigned long n) {
  // CHECK: [[P:%[0-9a-z.]+]] = call {{.*}}@_ZnwmRKSt9nothrow_t(i64 {{.*}}[[N:%[0-9a-z.]+]],
  // CHECK-NEXT: [[OK:%[0-9a-z.]+]] = icmp ne {{i8\*|ptr}} [[P]], null
  // CHECK-NEXT: [[B:%[0-9a-z.]+]] = select i1 [[OK]], i64 [[N]], i64 0
  // CHECK-NEXT: notail call void @__coz_count_heap(i64 [[B]],
  return ::operator new(n, std::nothrow);
}

// Over-aligned types go through the align_val_t variant.
// CHECK-LABEL: define {{.*}} @_Z7alignedv(
Wide *aligned() {
  // CHECK: call {{.*}}@_ZnwmSt11align_val_t(i64 {{.*}}64, i64 {{.*}}64)
  // CHECK-NEXT: notail call void @__coz_count_heap(i64 64,
  return new Wide;
}

// CHECK-LABEL: define {{.*}} @_Z4growi(
std::vector<int> grow(int n) {
  std::vector<int> v;
  for (int i = 0; i < n; i++)
    v.push_back(i);
  return v;
}
// The allocator the vector instantiates here calls operator new with
// n x sizeof(int) bytes, and is counted.
// CHECK-LABEL: define linkonce_odr {{.*}}@_ZN{{.*}}allocatorIiE8allocateE
// CHECK: [[S:%[0-9a-z.]+]] = mul i64 {{.*}}, 4
// CHECK: call {{.*}}@_Znwm(i64 {{.*}}[[S]])
// CHECK-NEXT: notail call void @__coz_count_heap(i64 [[S]],

// CHECK: define linkonce void @__coz_count_heap(
