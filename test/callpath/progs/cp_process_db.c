/* A miniature of the seed paper's process_db: two qsort call paths of very
 * different cost. uniquify_db sorts pointers to records by name with an
 * expensive comparison; print_salary_stats sorts the salaries (ints). The
 * program measures each phase with its own thread CPU clock and prints
 * `phase NAME NS` lines: the test's ground truth. A phase holds more than
 * its qsort calls (print_salary_stats gathers the salaries by a scattered
 * walk, ~10% of its time), so the qsort calls of each path are timed on
 * their own too (`phase qsort_in_NAME NS`): the up view from qsort is
 * measured against those. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { RECORDS = 40000, NAME_LEN = 48, SALARY_SORTS = 25 };

typedef struct {
  char name[NAME_LEN];
  int salary;
} DB_RECORD;

static uint64_t cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int name_lt(const void *a, const void *b) {
  const DB_RECORD *x = *(DB_RECORD *const *)a, *y = *(DB_RECORD *const *)b;
  /* Expensive on purpose: a checksum of both names before comparing. */
  unsigned hx = 0, hy = 0;
  for (int round = 0; round < 6; round++)
    for (int i = 0; i < NAME_LEN; i++) {
      hx = hx * 31 + (unsigned char)x->name[i];
      hy = hy * 31 + (unsigned char)y->name[i];
      __asm__ volatile("" : "+r"(hx), "+r"(hy));
    }
  int c = memcmp(x->name, y->name, NAME_LEN);
  return c ? c : (int)(hx & 1) - (int)(hy & 1);
}

static int integer_lt(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* CPU time inside the qsort calls of uniquify_db [0] and of
 * print_salary_stats [1]. */
static uint64_t in_qsort[2];

/* Inlined: qsort's caller on the stack stays uniquify_db or
 * print_salary_stats. */
static inline __attribute__((always_inline)) void
timed_qsort(int path, void *base, size_t n, size_t size,
            int (*lt)(const void *, const void *)) {
  uint64_t t = cpu_ns();
  qsort(base, n, size, lt);
  in_qsort[path] += cpu_ns() - t;
}

__attribute__((noinline)) DB_RECORD *read_db(void) {
  DB_RECORD *db = malloc(sizeof *db * RECORDS);
  uint32_t s = 12345;
  for (int i = 0; i < RECORDS; i++) {
    for (int k = 0; k < NAME_LEN; k++) {
      s = s * 1103515245u + 12345u;
      db[i].name[k] = (char)('a' + (s >> 16) % 26);
    }
    db[i].salary = (int)(s % 100000);
  }
  return db;
}

__attribute__((noinline)) DB_RECORD **uniquify_db(DB_RECORD *db) {
  DB_RECORD **ptrs = malloc(sizeof *ptrs * RECORDS);
  for (int i = 0; i < RECORDS; i++)
    ptrs[i] = &db[i];
  timed_qsort(0, ptrs, RECORDS, sizeof *ptrs, name_lt);
  return ptrs;
}

__attribute__((noinline)) void print_salary_stats(DB_RECORD **ptrs) {
  int *salaries = malloc(sizeof *salaries * RECORDS);
  /* Sorted several times over (from scratch each time) so that this path's
   * share is small but well above the noise. */
  for (int rep = 0; rep < SALARY_SORTS; rep++) {
    for (int i = 0; i < RECORDS; i++)
      salaries[i] = ptrs[(i * 7919) % RECORDS]->salary;
    timed_qsort(1, salaries, RECORDS, sizeof *salaries, integer_lt);
  }
  printf("median %d\n", salaries[RECORDS / 2]);
  free(salaries);
}

int main(void) {
  uint64_t t0 = cpu_ns();
  DB_RECORD *db = read_db();
  uint64_t t1 = cpu_ns();
  DB_RECORD **ptrs = NULL;
  for (int rep = 0; rep < 2; rep++) { /* long enough for ~100s of samples */
    free(ptrs);
    ptrs = uniquify_db(db);
  }
  uint64_t t2 = cpu_ns();
  print_salary_stats(ptrs);
  uint64_t t3 = cpu_ns();
  printf("phase read_db %llu\nphase uniquify_db %llu\n"
         "phase print_salary_stats %llu\nphase main %llu\n"
         "phase qsort_in_uniquify_db %llu\n"
         "phase qsort_in_print_salary_stats %llu\n",
         (unsigned long long)(t1 - t0), (unsigned long long)(t2 - t1),
         (unsigned long long)(t3 - t2), (unsigned long long)(t3 - t0),
         (unsigned long long)in_qsort[0], (unsigned long long)in_qsort[1]);
  free(ptrs);
  free(db);
  return 0;
}
