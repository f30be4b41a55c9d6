/* A run that dies without exit handlers: 1 MiB read in reader(), then a
 * sleep past the call-path profiler's periodic write (10 s), then abort().
 * The periodic block must hold the read. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static char buf[4096];

__attribute__((noinline)) void reader(int fd) {
  for (int i = 0; i < 256; i++)
    if (read(fd, buf, sizeof buf) != sizeof buf)
      abort();
  __asm__ volatile("");
}

int main(void) {
  int fd = open("/dev/zero", O_RDONLY);
  if (fd < 0)
    return 1;
  reader(fd);
  sleep(20); /* the periodic write is due at 10 s; a loaded machine is slow */
  abort();
}
