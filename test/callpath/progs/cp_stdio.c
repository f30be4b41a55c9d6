/* Bytes through stdio by construction, in 4 KiB units, rounds alternating
 * A B. `write`: path_a hands 1 MiB to fwrite, path_b 3 MiB to fprintf and
 * fputs (2 KiB each per unit), all to /dev/null. `read`: path_a takes
 * 1 MiB from fread, path_b 3 MiB from fgets (one 4 KiB line per call), from
 * a file of 4 KiB lines that the program writes first. The program makes
 * no other stdio or read/write call, so the profile's total must be exactly
 * 4 MiB: libc's own read()/write() under stdio must not count again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { UNIT = 4096, MIB = 1 << 20, ROUNDS = 8, LINES = 64 };
static char block[UNIT], half[UNIT / 2 + 1], buf[2 * UNIT];
static const char *data = "cp_stdio.data";

__attribute__((noinline)) static void put_block(FILE *f) {
  if (fwrite(block, 1, UNIT, f) != UNIT)
    abort();
}

__attribute__((noinline)) static void put_text(FILE *f) {
  /* 2047 characters and a newline, then 2048 characters (half holds
   * 2048). */
  if (fprintf(f, "%.*s\n", UNIT / 2 - 1, half) != UNIT / 2 ||
      fputs(half, f) < 0)
    abort();
}

/* One unit from f, from its start again at the end of the file (the
 * failed call at the end moves no byte). */
__attribute__((noinline)) static void get_block(FILE *f) {
  if (fread(buf, 1, UNIT, f) != UNIT) {
    rewind(f);
    if (fread(buf, 1, UNIT, f) != UNIT)
      abort();
  }
}

__attribute__((noinline)) static void get_line(FILE *f) {
  if (!fgets(buf, sizeof buf, f)) {
    rewind(f);
    if (!fgets(buf, sizeof buf, f))
      abort();
  }
  if (strlen(buf) != UNIT)
    abort();
}

typedef void unit_fn(FILE *);

/* The empty asm after each call keeps it out of tail position. */
__attribute__((noinline)) void path_a(unit_fn *fn, FILE *f, int bytes) {
  for (int i = 0; i < bytes / UNIT; i++) {
    fn(f);
    __asm__ volatile("");
  }
}

__attribute__((noinline)) void path_b(unit_fn *fn, FILE *f, int bytes) {
  for (int i = 0; i < bytes / UNIT; i++) {
    fn(f);
    __asm__ volatile("");
  }
}

int main(int argc, char **argv) {
  memset(block, 'b', sizeof block);
  memset(half, 'h', UNIT / 2);
  if (argc > 1 && strcmp(argv[1], "read") == 0) {
    FILE *out = fopen(data, "w");
    for (int i = 0; out && i < LINES; i++) {
      memset(buf, 'x', UNIT - 1);
      buf[UNIT - 1] = '\n';
      fwrite(buf, 1, UNIT, out);
    }
    if (!out || fclose(out) != 0)
      return 1;
    FILE *a = fopen(data, "r"), *b = fopen(data, "r");
    if (!a || !b)
      return 1;
    for (int r = 0; r < ROUNDS; r++) {
      path_a(get_block, a, MIB / ROUNDS);
      path_b(get_line, b, 3 * MIB / ROUNDS);
    }
    fclose(a);
    fclose(b);
    remove(data);
    return 0;
  }
  FILE *null = fopen("/dev/null", "w");
  if (!null)
    return 1;
  for (int r = 0; r < ROUNDS; r++) {
    path_a(put_block, null, MIB / ROUNDS);
    path_b(put_text, null, 3 * MIB / ROUNDS);
  }
  return fclose(null) == 0 ? 0 : 1;
}
