/* nodebug.c: built without -g. The line map must say, in one line on
 * stderr, that the executable needs -g, and report failure. */
#include "linemap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
  char path[] = "/tmp/coz-linemap-nodebug-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0)
    return 2;
  unlink(path);
  int saved = dup(2);
  dup2(fd, 2);
  struct coz_scope_config cfg = {0};
  long n = coz_linemap_build(&cfg);
  dup2(saved, 2);
  char msg[1024] = {0};
  ssize_t len = pread(fd, msg, sizeof msg - 1, 0);
  int lines = 0;
  for (ssize_t i = 0; i < len; i++)
    lines += msg[i] == '\n';
  int ok = n == -1 && lines == 1 && strstr(msg, "-g") != NULL;
  printf("build returned %ld; stderr had %d line(s): %s", n, lines, msg);
  printf("%s\n", ok ? "nodebug: ok" : "nodebug: FAIL");
  return ok ? 0 : 1;
}
