// A COZ_* marker with a constant name becomes an inline atomic add on the
// point's sharded counter: no call, and the `if (__coz_marker)` guard is
// folded. A marker with a computed name stays a guarded runtime call.
// Checked at -O0 (clang -fpass-plugin, optnone) on the IR.
// RUN: %clang -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - | FileCheck %s
// RUN: %clang -O2 -S -emit-llvm -fpass-plugin=%plugin %s -o - | FileCheck --check-prefix=O2 %s
// Other targets have no inline CPU number: everything goes to shard 0.
// RUN: %clang --target=aarch64-linux-gnu -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - | FileCheck --check-prefix=ARM %s
#include "coz.h"

// CHECK-DAG: @__coz_ctr.0.items = linkonce_odr hidden global [128 x i64] zeroinitializer, comdat, align 64
// CHECK-DAG: @__coz_ctr.1.req = linkonce_odr hidden global [128 x i64] zeroinitializer, comdat, align 64
// CHECK-DAG: @__coz_ctr.2.req = linkonce_odr hidden global [128 x i64] zeroinitializer, comdat, align 64
// Names become symbols with bytes outside [A-Za-z0-9_.] as $XX ("/" $2f,
// ":" $3a), so any assembler takes them.
// CHECK-DAG: @"__coz_ctr.0.{{.*}}$2fmarker_atomic.c$3a[[#@LINE+6]]" = linkonce_odr hidden global
// CHECK-DAG: @__rseq_offset = extern_weak global i64

// CHECK-LABEL: define {{.*}} @hot(
// CHECK-NOT: call {{.*}}@__coz_marker
// CHECK: br i1 true,
void hot(void) { COZ_PROGRESS; }
// CHECK: load i64, {{.*}}!invariant.load
// CHECK: load volatile i32, {{i32 addrspace\(257\)\*|ptr addrspace\(257\)}}
// CHECK: and i32 %{{.*}}, 15
// CHECK: getelementptr inbounds i8, {{.*}}@"__coz_ctr.0.{{.*}}marker_atomic.c$3a[[#@LINE-4]]"
// CHECK: atomicrmw add {{.*}}, i64 1 monotonic, align 8
// CHECK-NOT: call {{.*}}@__coz_marker
// CHECK: ret void

// CHECK-LABEL: define {{.*}} @transaction(
// CHECK-NOT: call {{.*}}@__coz_marker
// CHECK: @__coz_ctr.1.req
// CHECK: atomicrmw add
// CHECK: @__coz_ctr.0.items
// CHECK: atomicrmw add
// CHECK: @__coz_ctr.2.req
// CHECK: atomicrmw add
// CHECK-NOT: call {{.*}}@__coz_marker
// CHECK: ret void
void transaction(void) {
  COZ_BEGIN("req");
  COZ_PROGRESS_NAMED("items");
  COZ_END("req");
}

// CHECK-LABEL: define {{.*}} @computed(
// CHECK: icmp ne {{.*}}@__coz_marker, {{.*}}null
// CHECK: call void @__coz_marker(i32 noundef 0,
void computed(const char *name) { COZ_PROGRESS_NAMED(name); }

// The optimizer then sees a plain counter bump: nothing is left of the
// marker at -O2 either.
// O2-LABEL: define {{.*}} @hot(
// O2-NOT: call
// O2: atomicrmw add
// O2-NOT: call
// O2: ret void

// ARM-LABEL: define {{.*}} @hot(
// ARM-NOT: addrspace(257)
// ARM-NOT: __rseq_offset
// ARM: atomicrmw add {{.*}}@"__coz_ctr.0.{{.*}}marker_atomic.c$3a{{[0-9]+}}"{{.*}}, i64 1 monotonic
