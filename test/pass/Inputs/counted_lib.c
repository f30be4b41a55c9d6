/* A library built with the pass: its allocation and stdio calls are
 * counted through __coz_count_*, which resolve to the executable's runtime
 * when it exports them and to the library's own no-op fallbacks otherwise.
 * It reports the bytes it allocated and wrote, so callers can check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int counted_lib_work(int n, FILE *out, long *heap, long *written) {
  for (int i = 1; i <= n; i++) {
    size_t size = (size_t)i * 16;
    char *p = malloc(size);
    if (!p)
      return -1;
    memset(p, 'a', size - 1);
    p[size - 1] = 0;
    *heap += (long)size;
    int w = fprintf(out, "%s\n", p);
    free(p);
    if (w < 0)
      return -1;
    *written += w;
  }
  return 0;
}
