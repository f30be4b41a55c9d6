// Counted calls, stdio (contract/counted_calls.def): the bytes the
// program hands to stdio count as `write`, those stdio hands back as
// `read`. The stdio call is kept as it was (variadic ones too, with their
// own function type) and followed by __coz_count_read/_write.
// RUN: %clang %frontend-ir %s -o - | %opt-coz | FileCheck %s
// RUN: %clang -O0 -S -emit-llvm -fpass-plugin=%plugin %s -o - | FileCheck %s
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>

// fread/fwrite: items returned x item size (argument 1).
// CHECK-LABEL: define {{.*}} @blocks(
size_t blocks(void *buf, size_t size, size_t n, FILE *in, FILE *out) {
  // CHECK: [[R:%[0-9a-z.]+]] = call i64 @fread({{.*}}, i64 {{.*}}[[SZ:%[0-9a-z.]+]], i64
  // CHECK-NEXT: [[B:%[0-9a-z.]+]] = mul i64 [[R]], [[SZ]]
  // CHECK-NEXT: notail call void @__coz_count_read(i64 [[B]], {{i8\*|ptr}} null)
  size_t got = fread(buf, size, n, in);
  // CHECK: [[W:%[0-9a-z.]+]] = call i64 @fwrite({{.*}}, i64 {{.*}}[[WS:%[0-9a-z.]+]], i64
  // CHECK-NEXT: [[B:%[0-9a-z.]+]] = mul i64 [[W]], [[WS]]
  // CHECK-NEXT: notail call void @__coz_count_write(i64 [[B]], {{i8\*|ptr}} null)
  return got + fwrite(buf, size, got, out);
}

// fgets: strlen of the result when it is not NULL (the runtime's strlen).
// CHECK-LABEL: define {{.*}} @line(
char *line(char *buf, FILE *in) {
  // CHECK: [[R:%[0-9a-z.]+]] = call {{.*}}@fgets(
  // CHECK-NEXT: [[OK:%[0-9a-z.]+]] = icmp ne {{i8\*|ptr}} [[R]], null
  // CHECK-NEXT: [[S:%[0-9a-z.]+]] = select i1 [[OK]], {{i8\*|ptr}} [[R]], {{i8\*|ptr}} null
  // CHECK-NEXT: notail call void @__coz_count_read(i64 0, {{i8\*|ptr}} [[S]])
  return fgets(buf, 100, in);
}

// fputs: strlen of the argument when it succeeded; puts adds the newline.
// CHECK-LABEL: define {{.*}} @strings(
int strings(const char *s, FILE *out) {
  // CHECK: [[R:%[0-9a-z.]+]] = call i32 @fputs({{i8\*|ptr}} {{.*}}[[A:%[0-9a-z.]+]],
  // CHECK-NEXT: [[OK:%[0-9a-z.]+]] = icmp sge i32 [[R]], 0
  // CHECK-NEXT: [[S:%[0-9a-z.]+]] = select i1 [[OK]], {{i8\*|ptr}} [[A]], {{i8\*|ptr}} null
  // CHECK-NEXT: notail call void @__coz_count_write(i64 0, {{i8\*|ptr}} [[S]])
  int r = fputs(s, out);
  // CHECK: [[R:%[0-9a-z.]+]] = call i32 @puts({{i8\*|ptr}} {{.*}}[[A:%[0-9a-z.]+]])
  // CHECK-NEXT: [[OK:%[0-9a-z.]+]] = icmp sge i32 [[R]], 0
  // CHECK-NEXT: [[B:%[0-9a-z.]+]] = select i1 [[OK]], i64 1, i64 0
  // CHECK-NEXT: [[S:%[0-9a-z.]+]] = select i1 [[OK]], {{i8\*|ptr}} [[A]], {{i8\*|ptr}} null
  // CHECK-NEXT: notail call void @__coz_count_write(i64 [[B]], {{i8\*|ptr}} [[S]])
  return r + puts(s);
}

// One character, when the result is not EOF.
// CHECK-LABEL: define {{.*}} @chars(
int chars(FILE *in, FILE *out) {
  // CHECK: [[R:%[0-9a-z.]+]] = call i32 @fgetc(
  // CHECK-NEXT: [[OK:%[0-9a-z.]+]] = icmp sge i32 [[R]], 0
  // CHECK-NEXT: [[B:%[0-9a-z.]+]] = select i1 [[OK]], i64 1, i64 0
  // CHECK-NEXT: notail call void @__coz_count_read(i64 [[B]],
  int c = fgetc(in);
  // CHECK: call i32 @fputc(
  // CHECK-NEXT: icmp sge
  // CHECK-NEXT: select
  // CHECK-NEXT: notail call void @__coz_count_write(
  fputc(c, out);
  // CHECK: call i32 @putc(
  // CHECK: notail call void @__coz_count_write(
  putc(c, out);
  // CHECK: call i32 @getc(
  // CHECK: notail call void @__coz_count_read(
  return getc(in);
}

// getline: the count it returns, when positive.
// CHECK-LABEL: define {{.*}} @lines(
long lines(char **buf, size_t *cap, FILE *in) {
  // CHECK: [[R:%[0-9a-z.]+]] = call i64 @getline(
  // CHECK-NEXT: [[OK:%[0-9a-z.]+]] = icmp sgt i64 [[R]], 0
  // CHECK-NEXT: [[B:%[0-9a-z.]+]] = select i1 [[OK]], i64 [[R]], i64 0
  // CHECK-NEXT: notail call void @__coz_count_read(i64 [[B]],
  return getline(buf, cap, in);
}

// printf and friends: the variadic call stays as it was; the count it
// returns, widened to 64 bits, when positive.
// CHECK-LABEL: define {{.*}} @formatted(
int formatted(FILE *out, int fd, const char *fmt, va_list ap, int x) {
  // CHECK: [[R:%[0-9a-z.]+]] = call i32 ({{.*}}...) @printf({{.*}}, i32 {{.*}})
  // CHECK-NEXT: [[W:%[0-9a-z.]+]] = zext i32 [[R]] to i64
  // CHECK-NEXT: [[OK:%[0-9a-z.]+]] = icmp sgt i32 [[R]], 0
  // CHECK-NEXT: [[B:%[0-9a-z.]+]] = select i1 [[OK]], i64 [[W]], i64 0
  // CHECK-NEXT: notail call void @__coz_count_write(i64 [[B]], {{i8\*|ptr}} null)
  int n = printf("%d\n", x);
  // CHECK: call i32 ({{.*}}...) @fprintf(
  // CHECK: notail call void @__coz_count_write(
  n += fprintf(out, "%d %d\n", x, n);
  // CHECK: call i32 ({{.*}}...) @dprintf(
  // CHECK: notail call void @__coz_count_write(
  n += dprintf(fd, "%d\n", x);
  // CHECK: call i32 @vfprintf(
  // CHECK: notail call void @__coz_count_write(
  return n + vfprintf(out, fmt, ap);
}

// A function that is not in the table is left alone.
// CHECK-LABEL: define {{.*}} @unrelated(
// CHECK-NOT: __coz_count
// CHECK: ret
int unrelated(FILE *f) { return fflush(f); }

// CHECK-DAG: define linkonce void @__coz_count_read(
// CHECK-DAG: define linkonce void @__coz_count_write(
