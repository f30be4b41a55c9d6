/* cp_config.c: COZ_CALLPATH=resource[:period],..., the resource table,
 * the periods drawn from it, and the state the clocks (cp_clocks.c,
 * cp_wall.c) and the program's signal calls (signal_guard.c) share. */
#include "callpath.h"
#include "cp_internal.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Units: the resource's natural unit (the seed's "gtick"). Default periods
 * give a few hundred samples per second of busy use. */
const struct cp_resource_info cp_resources[CP_NRES] = {
    [CP_CPU] = {"cpu", "ns", 1000000},
    [CP_WALL] = {"wall", "ns", 1000000},
    [CP_MINFLT] = {"minflt", "faults", 64},
    [CP_MAJFLT] = {"majflt", "faults", 1},
    [CP_CSW] = {"csw", "switches", 16},
    [CP_READ] = {"read", "bytes", 65536},
    [CP_WRITE] = {"write", "bytes", 65536},
    [CP_HEAP] = {"heap", "bytes", 524288},
};

struct cp_config cp_config;
_Atomic bool cp_active;
int cp_signal;
bool cp_ready;

uint64_t cp_jittered(struct cp_jitter *j, enum cp_resource r) {
  if (!j->rng)
    j->rng = 0x9e3779b97f4a7c15ull;
  uint64_t p = cp_config.period[r];
  if (!j->first_done[r]) {
    j->first_done[r] = true;
    return 1 + coz_xorshift64s(&j->rng) % p; /* random phase in (0, P] */
  }
  uint64_t half = p / 2;
  return half + coz_xorshift64s(&j->rng) % (p ? p : 1) +
         (p == 1); /* [P/2, 3P/2) */
}

void coz_callpath_mask_signal(sigset_t *mask) {
  if (cp_ready)
    sigaddset(mask, cp_signal);
}

static void bad(const char *what, const char *item, size_t len) {
  char line[512];
  int n = snprintf(
      line, sizeof line,
      "coz: COZ_CALLPATH: %s '%.*s': expected a comma-separated "
      "list of cpu|wall|minflt|majflt|csw|read|write|heap[:period], e.g. "
      "cpu,read:4096; call paths are off\n",
      what, (int)len, item);
  if (n > 0) {
    ssize_t unused =
        write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    (void)unused;
  }
}

bool cp_parse_spec(const char *spec, struct cp_config *out) {
  const char *p = spec;
  bool any = false;
  while (*p) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    const char *colon = memchr(p, ':', len);
    size_t name_len = colon ? (size_t)(colon - p) : len;
    int r = -1;
    for (int i = 0; i < CP_NRES; i++)
      if (strlen(cp_resources[i].name) == name_len &&
          memcmp(cp_resources[i].name, p, name_len) == 0)
        r = i;
    if (r < 0) {
      bad("unknown resource", p, len);
      return false;
    }
    uint64_t period = cp_resources[r].default_period;
    if (colon) {
      char buf[32];
      size_t plen = len - name_len - 1;
      if (plen == 0 || plen >= sizeof buf) {
        bad("bad period in", p, len);
        return false;
      }
      memcpy(buf, colon + 1, plen);
      buf[plen] = 0;
      char *e;
      errno = 0;
      unsigned long long v = strtoull(buf, &e, 10);
      if (*e || errno || v == 0 || buf[0] == '-') {
        bad("bad period in", p, len);
        return false;
      }
      period = v;
    }
    out->enabled[r] = true;
    out->period[r] = period;
    any = true;
    p += len;
    if (*p == ',')
      p++;
  }
  if (!any)
    bad("empty list", spec, strlen(spec));
  return any;
}
