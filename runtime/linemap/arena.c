/* arena.c: see arena.h. */
#include "arena.h"

#include <stdlib.h>
#include <string.h>

#define COZ_ARENA_CHUNK (256 * 1024)

static char *chunk_cur;
static size_t chunk_left;

void *coz_arena_alloc(size_t size) {
  size = (size + 15) & ~(size_t)15;
  if (size > COZ_ARENA_CHUNK / 4)
    return calloc(1, size); /* big blocks get their own allocation */
  if (size > chunk_left) {
    char *fresh = calloc(1, COZ_ARENA_CHUNK);
    if (!fresh)
      return NULL;
    chunk_cur = fresh;
    chunk_left = COZ_ARENA_CHUNK;
  }
  void *p = chunk_cur;
  chunk_cur += size;
  chunk_left -= size;
  return p;
}

char *coz_arena_strndup(const char *s, size_t len) {
  char *p = coz_arena_alloc(len + 1);
  if (p) {
    memcpy(p, s, len);
    p[len] = '\0';
  }
  return p;
}
