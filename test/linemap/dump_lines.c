/* dump_lines.c: prints the ranges the line map's DWARF reader finds in an
 * ELF file, one "lo hi file:line" per range (hex addresses), for
 * compare_dwarfdump.py to check against llvm-dwarfdump. */
#include "dwarf_lines.h"
#include "path.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The file names handed out, freed at the end. */
struct names {
  char **v;
  size_t n, cap;
};

static void *on_file(void *ctx, const char *path, const char *comp_dir) {
  struct names *names = ctx;
  char buf[PATH_MAX];
  if (!coz_path_normalize(buf, sizeof buf, comp_dir, path))
    return NULL;
  if (names->n == names->cap) {
    size_t cap = names->cap ? names->cap * 2 : 64;
    char **v = realloc(names->v, cap * sizeof *v);
    if (!v)
      return NULL;
    names->v = v;
    names->cap = cap;
  }
  char *name = strdup(buf);
  if (name)
    names->v[names->n++] = name;
  return name;
}

static void on_range(void *ctx, uint64_t lo, uint64_t hi, void *file,
                     uint32_t line) {
  (void)ctx;
  printf("%llx %llx %s:%u\n", (unsigned long long)lo, (unsigned long long)hi,
         (const char *)file, line);
}

static void on_end(void *ctx) { (void)ctx; }

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s ELF-FILE\n", argv[0]);
    return 2;
  }
  struct coz_dwarf_object *obj = coz_dwarf_open(argv[1]);
  if (!obj) {
    fprintf(stderr, "%s: no DWARF line table found\n", argv[1]);
    return 1;
  }
  struct names names = {NULL, 0, 0};
  struct coz_dwarf_sink sink = {on_file, on_range, on_end, &names, NULL};
  long units = coz_dwarf_read_lines(obj, &sink, false);
  coz_dwarf_close(obj);
  for (size_t i = 0; i < names.n; i++)
    free(names.v[i]);
  free(names.v);
  return units > 0 ? 0 : 1;
}
