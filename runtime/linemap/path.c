/* path.c: see path.h. */
#include "path.h"

#include <string.h>

/* Appends the components of s to out[0..*len), resolving "." and "..". */
static int append_components(char *out, size_t cap, size_t *len,
                             const char *s) {
  while (*s) {
    while (*s == '/')
      s++;
    const char *end = s;
    while (*end && *end != '/')
      end++;
    size_t n = (size_t)(end - s);
    if (n == 0)
      break;
    if (n == 1 && s[0] == '.') {
      /* drop "." */
    } else if (n == 2 && s[0] == '.' && s[1] == '.' && *len > 0 &&
               !(*len >= 2 && out[*len - 1] == '.' && out[*len - 2] == '.' &&
                 (*len == 2 || out[*len - 3] == '/'))) {
      /* "x/.." cancels x; at the root ".." stays at the root. */
      while (*len > 0 && out[*len - 1] != '/')
        (*len)--;
      if (*len > 1)
        (*len)--; /* the '/' before x, unless it is the root */
    } else {
      int need_slash = *len > 0 && out[*len - 1] != '/';
      if (*len + need_slash + n + 1 > cap)
        return -1;
      if (need_slash)
        out[(*len)++] = '/';
      memcpy(out + *len, s, n);
      *len += n;
    }
    s = end;
  }
  return 0;
}

size_t coz_path_normalize(char *out, size_t cap, const char *dir,
                          const char *name) {
  size_t len = 0;
  if (cap < 2)
    return 0;
  if (name[0] != '/' && dir && dir[0]) {
    if (dir[0] == '/')
      out[len++] = '/';
    if (append_components(out, cap, &len, dir) < 0)
      return 0;
  } else if (name[0] == '/') {
    out[len++] = '/';
  }
  if (append_components(out, cap, &len, name) < 0)
    return 0;
  if (len == 0)
    out[len++] = '.';
  out[len] = '\0';
  return len;
}

const char *coz_path_basename(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}
