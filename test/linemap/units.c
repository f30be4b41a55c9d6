/* units.c: path normalization and scope patterns, case by case. */
#include "path.h"
#include "scope.h"

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

int main(void) {
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
