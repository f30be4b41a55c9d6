/* Bytes read and written by construction: exactly 1 MiB through path_a and
 * 3 MiB through path_b, in 4 KiB calls, for read (from /dev/zero) and for
 * write (to /dev/null). The phases alternate A B A B so that any drift of
 * the clock between phases shows up in both paths. */
#include <coz.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

enum { CHUNK = 4096, MIB = 1 << 20, ROUNDS = 8 };
static char buf[CHUNK];

__attribute__((noinline)) static void move_chunk(int in, int out) {
  if (read(in, buf, CHUNK) != CHUNK || write(out, buf, CHUNK) != CHUNK)
    abort();
}

__attribute__((noinline)) void path_a(int in, int out, int bytes) {
  for (int i = 0; i < bytes / CHUNK; i++)
    move_chunk(in, out);
}

__attribute__((noinline)) void path_b(int in, int out, int bytes) {
  for (int i = 0; i < bytes / CHUNK; i++)
    move_chunk(in, out);
}

int main(void) {
  int in = open("/dev/zero", O_RDONLY), out = open("/dev/null", O_WRONLY);
  if (in < 0 || out < 0)
    return 1;
  for (int r = 0; r < ROUNDS; r++) {
    path_a(in, out, MIB / ROUNDS);
    path_b(in, out, 3 * MIB / ROUNDS);
    COZ_PROGRESS; /* so that the causal profile beside is written */
  }
  return 0;
}
