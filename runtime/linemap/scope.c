/* scope.c: see scope.h. */
#include "scope.h"

#include "path.h"

#include <fnmatch.h>
#include <string.h>

static bool is_separator(char c) { return c == ':' || c == ','; }

static bool glob_matches(const char *glob, const char *path,
                         const char *alias) {
  if (strcmp(glob, "%") == 0)
    return true;
  if (alias && strcmp(glob, alias) == 0)
    return true;
  if (fnmatch(glob, path, 0) == 0)
    return true;
  return strchr(glob, '/') == NULL &&
         fnmatch(glob, coz_path_basename(path), 0) == 0;
}

bool coz_scope_match(const char *list, const char *path, const char *alias) {
  char glob[1024];
  if (!list)
    return false;
  for (const char *s = list; *s;) {
    while (is_separator(*s))
      s++;
    size_t n = 0;
    while (s[n] && !is_separator(s[n]))
      n++;
    if (n > 0 && n < sizeof glob) {
      memcpy(glob, s, n);
      glob[n] = '\0';
      if (glob_matches(glob, path, alias))
        return true;
    }
    s += n;
  }
  return false;
}

bool coz_scope_nonempty(const char *list) {
  if (!list)
    return false;
  for (; *list; list++)
    if (!is_separator(*list))
      return true;
  return false;
}
