/* config.c: reads the flags of flags.def from COZ_<NAME> variables.
 * Runs from .preinit_array, before any allocator is guaranteed to be usable,
 * so it parses in place and never allocates. */
#include "config.h"
#include "util.h"

#include <string.h>

struct coz_config coz_config;
struct coz_config_given coz_config_given;

static bool bad(const char *var, const char *value, const char *accepted) {
  coz_log_error("%s=\"%s\" is not valid (accepted: %s); profiling is off, "
                "the program runs normally",
                var, value, accepted);
  return false;
}

static bool parse_STR(const char *var, const char *v, const char **out) {
  (void)var;
  *out = v;
  return true;
}

static bool parse_U64(const char *var, const char *v, uint64_t *out) {
  uint64_t x = 0;
  if (*v == '\0')
    return bad(var, v, "an unsigned decimal integer");
  for (const char *p = v; *p; p++) {
    if (*p < '0' || *p > '9' || x > (UINT64_MAX - 9) / 10)
      return bad(var, v, "an unsigned decimal integer");
    x = x * 10 + (uint64_t)(*p - '0');
  }
  *out = x;
  return true;
}

static bool parse_BOOL(const char *var, const char *v, bool *out) {
  static const char *const yes[] = {"1", "yes", "true", "on"};
  static const char *const no[] = {"0", "no", "false", "off", ""};
  for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
    if (strcasecmp(v, yes[i]) == 0)
      return *out = true, true;
  for (size_t i = 0; i < sizeof no / sizeof *no; i++)
    if (strcasecmp(v, no[i]) == 0)
      return *out = false, true;
  return bad(var, v, "1, 0, yes, no, true, false, on, off");
}

static bool parse_PCT(const char *var, const char *v, int *out) {
  uint64_t x;
  if (*v == '\0')
    return *out = -1, true;
  if (!parse_U64(var, v, &x))
    return false;
  if (x > 100)
    return bad(var, v, "an integer percentage 0..100");
  *out = (int)x;
  return true;
}

/* Finds v among the '|'-separated words; its index is the enum value. */
static bool parse_choice(const char *var, const char *v, const char *words,
                         int *out) {
  size_t n = strlen(v);
  int index = 0;
  for (const char *w = words; *w; index++) {
    const char *end = strchr(w, '|');
    size_t len = end ? (size_t)(end - w) : strlen(w);
    if (len == n && strncasecmp(w, v, n) == 0)
      return *out = index, true;
    w += len + (end != NULL);
  }
  return bad(var, v, words);
}

static bool parse_CHOICE_FORMAT(const char *var, const char *v, int *out) {
  return parse_choice(var, v, COZ_CHOICES_FORMAT, out);
}

static bool parse_CHOICE_SAMPLER(const char *var, const char *v, int *out) {
  return parse_choice(var, v, COZ_CHOICES_SAMPLER, out);
}

/* getenv is not usable yet in .preinit_array functions (libc sets environ
 * in its own initialiser, which runs later), so look in envp directly. */
static const char *lookup(char *const *envp, const char *name) {
  size_t n = strlen(name);
  for (; envp && *envp; envp++)
    if (strncmp(*envp, name, n) == 0 && (*envp)[n] == '=')
      return *envp + n + 1;
  return NULL;
}

bool coz_config_load(char *const *envp) {
  bool ok = true;
  /* Defaults first, so that a bad value still leaves a consistent struct. */
#define COZ_FLAG(NAME, TYPE, DEFAULT, DESC)                                    \
  if (!parse_##TYPE("COZ_" #NAME, DEFAULT, &coz_config.NAME))                  \
    ok = false;
#include "flags.def"
#undef COZ_FLAG
#define COZ_FLAG(NAME, TYPE, DEFAULT, DESC)                                    \
  if (ok) {                                                                    \
    const char *v = lookup(envp, "COZ_" #NAME);                                \
    coz_config_given.NAME = v != NULL;                                         \
    if (v && !parse_##TYPE("COZ_" #NAME, v, &coz_config.NAME))                 \
      ok = false;                                                              \
  }
#include "flags.def"
#undef COZ_FLAG
  if (ok && coz_config.PERIOD < 10000)
    ok = bad("COZ_PERIOD", lookup(envp, "COZ_PERIOD"),
             "a period of at least 10000 ns");
  if (ok && coz_config.EXPERIMENT == 0)
    ok = bad("COZ_EXPERIMENT", lookup(envp, "COZ_EXPERIMENT"),
             "a positive number of milliseconds");
  return ok;
}
