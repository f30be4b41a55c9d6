/* units.c: path normalization, scope patterns and the per-object table
 * builder, case by case. */
#include "objmap.h"
#include "path.h"
#include "scope.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void norm(const char *dir, const char *name, const char *want) {
  char out[256];
  size_t n = coz_path_normalize(out, sizeof out, dir, name);
  const char *got = n ? out : "(too long)";
  if (strcmp(got, want) != 0) {
    fprintf(stderr, "FAIL normalize(%s, %s) = %s, want %s\n",
            dir ? dir : "NULL", name, got, want);
    failures++;
  }
}

static void match(const char *list, const char *path, const char *alias,
                  int want) {
  if (coz_scope_match(list, path, alias) != want) {
    fprintf(stderr, "FAIL match(%s, %s) should be %d\n", list, path, want);
    failures++;
  }
}

static struct coz_line L[8];

static void at(const struct coz_objmap *m, uint64_t addr, int want) {
  struct coz_line *got = coz_objmap_lookup(m, (uintptr_t)addr);
  struct coz_line *w = want < 0 ? NULL : &L[want];
  if (got != w) {
    fprintf(stderr, "FAIL lookup(%#llx) = L%d, want L%d\n",
            (unsigned long long)addr, got ? (int)(got - L) : -1, want);
    failures++;
  }
}

/* Sequences out of order, overlapping, outside the code segment and
 * across its end. */
static void table_unsorted(void) {
  uint64_t lo = 0x1000, hi = 0x2000;
  struct coz_objmap_builder b;
  coz_objmap_begin(&b, &lo, &hi, 1, 0);
  coz_objmap_add_range(&b, 0x1500, 0x1510, &L[1]);
  coz_objmap_add_range(&b, 0x1510, 0x1520, &L[1]);
  coz_objmap_add_range(&b, 0x1530, 0x1540, &L[2]);
  coz_objmap_end_sequence(&b);
  coz_objmap_add_range(&b, 0x1100, 0x1110, &L[3]);
  coz_objmap_end_sequence(&b);
  coz_objmap_add_range(&b, 0x0, 0x10, &L[4]); /* discarded code at 0 */
  coz_objmap_add_range(&b, 0x10, 0x1200, &L[4]);
  coz_objmap_end_sequence(&b);
  coz_objmap_add_range(&b, 0x1505, 0x1535, &L[5]); /* overlaps the first */
  coz_objmap_add_range(&b, 0x1540, 0x1550, &L[5]);
  coz_objmap_end_sequence(&b);
  coz_objmap_add_range(&b, 0x1ff0, 0x2010, &L[6]); /* crosses the end */
  bool oom;
  struct coz_objmap *m = coz_objmap_finish(&b, &oom);
  if (!m || oom) {
    fprintf(stderr, "FAIL unsorted table not built\n");
    failures++;
    return;
  }
  at(m, 0x0fff, -1);
  at(m, 0x0005, -1);
  at(m, 0x1100, 3);
  at(m, 0x110f, 3);
  at(m, 0x1110, -1);
  at(m, 0x1505, 1);
  at(m, 0x151f, 1);
  at(m, 0x1525, -1); /* a hole of the first sequence stays a hole */
  at(m, 0x1535, 2);
  at(m, 0x1540, 5); /* the overlapping sequence keeps what is beyond */
  at(m, 0x154f, 5);
  at(m, 0x1550, -1);
  at(m, 0x1ff5, 6);
  at(m, 0x2000, -1);
  at(m, 0x2005, -1);
  /* Merged: one entry for 0x1500..0x1520. */
  size_t entries_for_l1 = 0;
  for (size_t i = 0; i < m->n; i++)
    entries_for_l1 += m->r[i].line == &L[1];
  if (entries_for_l1 != 1) {
    fprintf(stderr, "FAIL L1 has %zu entries, want 1 (merged)\n",
            entries_for_l1);
    failures++;
  }
}

/* Sequences in address order, one starting where the previous ends. */
static void table_sorted(void) {
  uint64_t lo = 0x1000, hi = 0x2000;
  struct coz_objmap_builder b;
  coz_objmap_begin(&b, &lo, &hi, 1, 16);
  coz_objmap_add_range(&b, 0x1000, 0x1010, &L[1]);
  coz_objmap_end_sequence(&b);
  coz_objmap_add_range(&b, 0x1010, 0x1020, &L[2]);
  coz_objmap_add_range(&b, 0x1030, 0x1040, &L[2]);
  coz_objmap_end_sequence(&b);
  bool oom;
  struct coz_objmap *m = coz_objmap_finish(&b, &oom);
  if (!m) {
    fprintf(stderr, "FAIL sorted table not built\n");
    failures++;
    return;
  }
  at(m, 0x1000, 1);
  at(m, 0x100f, 1);
  at(m, 0x1010, 2);
  at(m, 0x1025, -1);
  at(m, 0x1030, 2);
  at(m, 0x1040, -1);
  m->bias = 0x7f0000000000; /* a PIE's load bias */
  at(m, 0x7f0000001010, 2);
  at(m, 0x1010, -1);
}

/* Nothing in the segments: no table. */
static void table_empty(void) {
  uint64_t lo = 0x1000, hi = 0x2000;
  struct coz_objmap_builder b;
  coz_objmap_begin(&b, &lo, &hi, 1, 0);
  coz_objmap_add_range(&b, 0x10, 0x20, &L[1]);
  coz_objmap_end_sequence(&b);
  bool oom;
  if (coz_objmap_finish(&b, &oom) || oom) {
    fprintf(stderr, "FAIL a table with no range in the segments\n");
    failures++;
  }
}

/* A big table gets a bucket index; indexed lookups must agree with a
 * plain scan of the table at every address, bucket edges included. */
static void table_index(void) {
  uint64_t lo = 0x10000, hi = 0x90000;
  struct coz_objmap_builder b;
  coz_objmap_begin(&b, &lo, &hi, 1, 0);
  uint64_t x = 88172645463325252ull, addr = 0x10000;
  for (int seq = 0; seq < 300; seq++) {
    for (int i = 0; i < 20; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift */
      uint64_t len = 1 + x % 40, gap = (x >> 8) % 3 == 0 ? x % 50 : 0;
      coz_objmap_add_range(&b, addr + gap, addr + gap + len, &L[x % 8]);
      addr += gap + len;
    }
    coz_objmap_end_sequence(&b);
    addr += (x >> 16) % 200;
  }
  bool oom;
  struct coz_objmap *m = coz_objmap_finish(&b, &oom);
  if (!m || !m->idx) {
    fprintf(stderr, "FAIL big table or its index not built\n");
    failures++;
    return;
  }
  int wrong = 0;
  for (uint64_t a = 0xff00; a < addr + 100 && wrong < 5; a++) {
    struct coz_line *want = NULL;
    for (size_t i = 0; i < m->n && m->r[i].lo <= a; i++)
      want = m->r[i].line;
    if (coz_objmap_lookup(m, (uintptr_t)a) != want) {
      fprintf(stderr, "FAIL indexed lookup(%#llx) disagrees with a scan\n",
              (unsigned long long)a);
      wrong++;
    }
  }
  failures += wrong;
}

int main(void) {
  table_index();
  table_unsorted();
  table_sorted();
  table_empty();

  norm("/src/proj", "a.c", "/src/proj/a.c");
  norm("/src/proj", "/abs/b.c", "/abs/b.c");
  norm("/src/proj/", "./sub//c.c", "/src/proj/sub/c.c");
  norm("/src/proj/build", "../lib/d.c", "/src/proj/lib/d.c");
  norm("/", "../../e.c", "/e.c");
  norm(NULL, "rel/../f.c", "f.c");
  norm(NULL, "../g.c", "../g.c");
  norm(NULL, "../../g.c", "../../g.c");
  norm("", "h/./i.c", "h/i.c");
  norm("/x", "y/..", "/x");
  char big[300];
  memset(big, 'a', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  norm("/", big, "(too long)");

  match("%", "/any/where.c", NULL, 1);
  match("*.c", "/src/a.c", NULL, 1);
  match("*.c", "/src/a.h", NULL, 0);
  match("a.c", "/src/a.c", NULL, 1);
  match("a.c", "/src/ba.c", NULL, 0);
  match("/src/*", "/src/sub/a.c", NULL, 1);
  match("/src/*.c", "/other/src/a.c", NULL, 0);
  match("x.c:y.c", "/p/y.c", NULL, 1);
  match("x.c,y.c", "/p/y.c", NULL, 1);
  match(",,:", "/p/y.c", NULL, 0);
  match("", "/p/y.c", NULL, 0);
  match("MAIN", "/bin/prog", "MAIN", 1);
  match("MAIN", "/lib/libc.so.6", NULL, 0);
  match("libc.so*", "/lib/x86_64-linux-gnu/libc.so.6", NULL, 1);
  if (coz_scope_nonempty(":,") || !coz_scope_nonempty(":a") ||
      coz_scope_nonempty(NULL)) {
    fprintf(stderr, "FAIL coz_scope_nonempty\n");
    failures++;
  }
  if (failures)
    return 1;
  printf("units: ok\n");
  return 0;
}
