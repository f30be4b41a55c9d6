// The bytes of counted calls, end to end: a stand-in for the runtime sums
// what the pass hands to __coz_count_heap/read/write, and the sums must
// equal the bytes the program itself knows it allocated, read and wrote
// through stdio, at -O0 and -O2. Failed calls (NULL, EOF, an error code)
// add nothing. A DSO built with the pass reaches the executable's exported
// counters.
// RUN: %clang -O2 -c %inputs/counted_rt.c -o %t.rt.o
// RUN: %clang -O0 -fpass-plugin=%plugin %s %t.rt.o -o %t.O0
// RUN: %t.O0 %t.data | FileCheck %s
// RUN: %clang -O2 -fpass-plugin=%plugin %s %t.rt.o -o %t.O2
// RUN: %t.O2 %t.data | FileCheck %s
// RUN: %clang -O2 -fPIC -shared -fpass-plugin=%plugin %inputs/counted_lib.c -o %t.dir.libcounted.so
// RUN: %clang -O2 -fpass-plugin=%plugin -DUSE_DSO %s %t.rt.o %t.dir.libcounted.so -Wl,--export-dynamic-symbol=__coz_* -Wl,-rpath,$(dirname %t) -o %t.dso
// RUN: %t.dso %t.data | FileCheck --check-prefixes=CHECK,DSO %s
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void counted_sums(uint64_t *heap, uint64_t *read, uint64_t *write);
int counted_lib_work(int n, FILE *out, long *heap, long *written);

// Pointers escape here, so -O2 cannot remove an allocation (a removed
// allocation would still be counted: the count is of the source's calls).
void *volatile sink;

static uint64_t heap, rd, wr; // what the program knows it moved

static int formatted(FILE *f, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vfprintf(f, fmt, ap);
  va_end(ap);
  return n;
}

static void allocate(size_t n) {
  sink = malloc(n);
  heap += n;
  sink = calloc(n, 3);
  heap += 3 * n;
  char *p = malloc(n);
  sink = p = realloc(p, 5 * n);
  heap += n + 5 * n;
  sink = aligned_alloc(64, 64 * n);
  heap += 64 * n;
  void *m;
  if (posix_memalign(&m, 32, 7 * n) == 0)
    heap += 7 * n;
  sink = m;
  if (posix_memalign(&m, 3, n) == 0) // EINVAL: not a power of two
    abort();
  sink = malloc(SIZE_MAX - n); // fails: NULL
  if (sink)
    abort();
  sink = strdup("seven!");
  heap += 7;
  sink = strndup("abcdefgh", n / 4); // n is 16: "abcd"
  heap += n / 4 + 1;
}

static void write_file(const char *path, size_t n) {
  FILE *f = fopen(path, "w");
  if (!f)
    abort();
  int ints[64] = {0};
  wr += 4 * fwrite(ints, 4, n, f);
  const char *line = "a line for fgets\n";
  if (fputs(line, f) >= 0)
    wr += strlen(line);
  wr += (fputc('x', f) != EOF) + (putc('y', f) != EOF);
  int w = fprintf(f, "%zu-%s\n", n, "zz");
  wr += w > 0 ? (uint64_t)w : 0;
  w = formatted(f, "%05zu\n", n);
  wr += w > 0 ? (uint64_t)w : 0;
  fclose(f);
  int fd = open("/dev/null", O_WRONLY);
  w = dprintf(fd, "%zu\n", n);
  wr += w > 0 ? (uint64_t)w : 0;
  close(fd);
}

static void read_file(const char *path, size_t n) {
  FILE *f = fopen(path, "r");
  if (!f)
    abort();
  int ints[64];
  rd += 4 * fread(ints, 4, n, f);
  char buf[128];
  if (fgets(buf, sizeof buf, f))
    rd += strlen(buf);
  rd += (fgetc(f) != EOF) + (getc(f) != EOF);
  char *line = NULL;
  size_t cap = 0;
  ssize_t got = getline(&line, &cap, f);
  rd += got > 0 ? (uint64_t)got : 0;
  if (fgets(buf, sizeof buf, f))
    rd += strlen(buf);
  // At the end of the file: nothing more is read, nothing counted.
  if (fgets(buf, sizeof buf, f) || fgetc(f) != EOF ||
      getline(&line, &cap, f) != -1 || fread(ints, 4, 1, f) != 0)
    abort();
  free(line);
  fclose(f);
}

int main(int argc, char **argv) {
  size_t n = (size_t)argc + 14; // 16, unknown to the optimizer
  allocate(n);
  write_file(argv[1], n);
  read_file(argv[1], n);
#ifdef USE_DSO
  FILE *null = fopen("/dev/null", "w");
  long lib_heap = 0, lib_written = 0;
  if (!null || counted_lib_work((int)n, null, &lib_heap, &lib_written) != 0)
    abort();
  fclose(null);
  heap += (uint64_t)lib_heap;
  wr += (uint64_t)lib_written;
#endif
  uint64_t h, r, w;
  counted_sums(&h, &r, &w); // before this program's own printf
#ifdef USE_DSO
  printf("dso heap=%ld written=%ld\n", lib_heap, lib_written);
#endif
  printf("expect heap=%llu read=%llu write=%llu\n", (unsigned long long)heap,
         (unsigned long long)rd, (unsigned long long)wr);
  printf("counted heap=%llu read=%llu write=%llu\n", (unsigned long long)h,
         (unsigned long long)r, (unsigned long long)w);
  return 0;
}
// DSO: dso heap=2176 written=2176
// CHECK: expect heap=[[H:[1-9][0-9]*]] read=[[R:[1-9][0-9]*]] write=[[W:[1-9][0-9]*]]
// CHECK-NEXT: counted heap=[[H]] read=[[R]] write=[[W]]
