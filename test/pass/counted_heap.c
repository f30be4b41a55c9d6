// Counted calls, heap (contract/counted_calls.def): each direct call
// of an allocation function is kept exactly as it was, and followed by a
// call of __coz_count_heap(bytes, str) whose bytes come from the call's
// arguments, 0 when the allocation failed. Not counted: calls in functions
// skipped (annotation, --coz-skip), in __coz_* functions, in the definition
// of a counted function (a program's own calloc calling its malloc), and
// calls of a static function that only shares the name.
// RUN: %clang %frontend-ir %s -o - | env COZ_PASS_ARGS="--coz-skip=by_option" %opt-coz | FileCheck %s
// The same through clang at -O0 (optnone functions are instrumented too).
// RUN: COZ_PASS_ARGS="--coz-skip=by_option" %clang -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - | FileCheck %s
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

// CHECK-LABEL: define {{.*}} @plain(
void *plain(size_t n) {
  // CHECK: [[P:%[0-9a-z.]+]] = call {{.*}}@malloc(i64 {{.*}}[[N:%[0-9a-z.]+]])
  // CHECK-NEXT: [[OK:%[0-9a-z.]+]] = icmp ne {{i8\*|ptr}} [[P]], null
  // CHECK-NEXT: [[B:%[0-9a-z.]+]] = select i1 [[OK]], i64 [[N]], i64 0
  // CHECK-NEXT: notail call void @__coz_count_heap(i64 [[B]], {{i8\*|ptr}} null)
  return malloc(n);
}

// CHECK-LABEL: define {{.*}} @products(
void *products(void *p, size_t n, size_t m) {
  // CHECK: [[C:%[0-9a-z.]+]] = call {{.*}}@calloc(i64 {{.*}}[[CN:%[0-9a-z.]+]], i64 {{.*}}[[CM:%[0-9a-z.]+]])
  // CHECK-NEXT: [[M:%[0-9a-z.]+]] = mul i64 [[CN]], [[CM]]
  // CHECK-NEXT: [[OK:%[0-9a-z.]+]] = icmp ne {{i8\*|ptr}} [[C]], null
  // CHECK-NEXT: [[B:%[0-9a-z.]+]] = select i1 [[OK]], i64 [[M]], i64 0
  // CHECK-NEXT: notail call void @__coz_count_heap(i64 [[B]],
  void *c = calloc(n, m);
  // realloc: the new size, its second argument.
  // CHECK: call {{.*}}@realloc({{.*}}, i64 {{.*}}[[RN:%[0-9a-z.]+]])
  // CHECK-NEXT: icmp ne
  // CHECK-NEXT: [[B:%[0-9a-z.]+]] = select i1 {{.*}}, i64 [[RN]], i64 0
  // CHECK-NEXT: notail call void @__coz_count_heap(i64 [[B]],
  p = realloc(p, n);
  // CHECK: call {{.*}}@reallocarray({{.*}}, i64 {{.*}}[[AN:%[0-9a-z.]+]], i64 {{.*}}[[AM:%[0-9a-z.]+]])
  // CHECK-NEXT: mul i64 [[AN]], [[AM]]
  p = reallocarray(p, n, m);
  // CHECK: call {{.*}}@aligned_alloc(i64 {{.*}}, i64 {{.*}}[[AL:%[0-9a-z.]+]])
  // CHECK-NEXT: icmp ne
  // CHECK-NEXT: select i1 {{.*}}, i64 [[AL]], i64 0
  free(aligned_alloc(64, n));
  free(c);
  return p;
}

// posix_memalign: its size argument, and only when it returned 0.
// CHECK-LABEL: define {{.*}} @memalign_ok(
int memalign_ok(void **out, size_t n) {
  // CHECK: [[R:%[0-9a-z.]+]] = call i32 @posix_memalign({{.*}}, i64 {{.*}}[[PN:%[0-9a-z.]+]])
  // CHECK-NEXT: [[OK:%[0-9a-z.]+]] = icmp eq i32 [[R]], 0
  // CHECK-NEXT: [[B:%[0-9a-z.]+]] = select i1 [[OK]], i64 [[PN]], i64 0
  // CHECK-NEXT: notail call void @__coz_count_heap(i64 [[B]],
  return posix_memalign(out, 64, n);
}

// strdup: strlen(result) + 1, the strlen left to the runtime.
// CHECK-LABEL: define {{.*}} @copy(
char *copy(const char *s) {
  // CHECK: [[D:%[0-9a-z.]+]] = call {{.*}}@strdup(
  // CHECK-NEXT: [[OK:%[0-9a-z.]+]] = icmp ne {{i8\*|ptr}} [[D]], null
  // CHECK-NEXT: [[B:%[0-9a-z.]+]] = select i1 [[OK]], i64 1, i64 0
  // CHECK-NEXT: [[S:%[0-9a-z.]+]] = select i1 [[OK]], {{i8\*|ptr}} [[D]], {{i8\*|ptr}} null
  // CHECK-NEXT: notail call void @__coz_count_heap(i64 [[B]], {{i8\*|ptr}} [[S]])
  return strdup(s);
}

// CHECK-LABEL: define {{.*}} @annotated(
// CHECK: call {{.*}}@malloc(
// CHECK-NOT: __coz_count
// CHECK: ret
__attribute__((annotate("coz_skip"))) void *annotated(size_t n) {
  return malloc(n);
}

// CHECK-LABEL: define {{.*}} @by_option(
// CHECK: call {{.*}}@malloc(
// CHECK-NOT: __coz_count
// CHECK: ret
void *by_option(size_t n) { return malloc(n); }

// CHECK-LABEL: define {{.*}} @__coz_mine(
// CHECK: call {{.*}}@malloc(
// CHECK-NOT: __coz_count
// CHECK: ret
void *__coz_mine(size_t n) { return malloc(n); }

// A program's own calloc is an allocator: its callers are counted, its
// inner malloc is not (that would count the bytes twice).
// CHECK-LABEL: define {{.*}} @valloc(
// CHECK: call {{.*}}@malloc(
// CHECK-NOT: __coz_count
// CHECK: ret
void *valloc(size_t n) { return malloc(n); }
// CHECK-LABEL: define {{.*}} @uses_own(
// CHECK: call {{.*}}@valloc(
// CHECK-NEXT: icmp ne
// CHECK-NEXT: select
// CHECK-NEXT: notail call void @__coz_count_heap(
void *uses_own(size_t n) { return valloc(n); }

// A static function that shares a name is not the allocator.
__attribute__((noinline)) static void *pvalloc(size_t n) { return (void *)n; }
// CHECK-LABEL: define {{.*}} @uses_static(
// CHECK: call {{.*}}@pvalloc(
// CHECK-NOT: __coz_count
// CHECK: ret
void *uses_static(size_t n) { return pvalloc(n); }

// One no-op fallback per module, for programs without the runtime.
// CHECK-LABEL: define linkonce void @__coz_count_heap(i64 %0, {{i8\*|ptr}} %1)
// CHECK-SAME: [[FALLBACK:#[0-9]+]] comdat
// CHECK-NOT: call
// CHECK: ret void
// CHECK-NEXT: }
// CHECK: attributes [[FALLBACK]] = { noinline nounwind {{.*}}uwtable
