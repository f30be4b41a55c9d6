/* allocation.c: where a run spends its experiments (see allocation.h).
 *
 * Per line, the experiments so far in 21 speedup buckets (0, 5, ..., 100%):
 * count, effective duration and visits of the point. The baseline is every
 * speedup-0 experiment of every line, as coz-report pools it. A line's
 * slope is a weighted least-squares fit of y_b = 1 - p_b / p_0 (p the
 * period between visits), each point weighted by the inverse of its
 * variance (1 - y)^2 kappa (1/D_b + 1/D_0), kappa the baselines' duration-
 * weighted relative variance (at least the counting noise, 1/rate). A line
 * is out of the race when it has MIN_EXPS experiments in 3 buckets or more
 * and slope + 2 se lies below the TOP-th highest slope - 2 se of the
 * others: it is then run 1 time in KEEP_ONE_IN when drawn. */
#include "allocation.h"
#include "fd_floor.h"
#include "linemap/linemap.h"
#include "output.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BUCKETS 21
#define TOP 3
#define MIN_EXPS 8
#define KEEP_ONE_IN 5
/* Speedup-0 experiments the run's baseline needs before 0 is drawn with
 * probability 1/5 instead of 1/2. */
#define BASELINE_START 10

struct line_stats {
  const struct coz_line *line; /* NULL: empty slot */
  uint32_t total;
  uint32_t n[BUCKETS];
  double dur[BUCKETS], vis[BUCKETS];
};

static struct line_stats *slots;
static size_t n_slots, n_used;
static struct {
  uint32_t n;
  double dur, vis, dr2; /* sums of d, visits, and d r^2 (r = visits/d) */
} base;
static uint64_t (*rnd)(void);
static bool ready;

static size_t hash_ptr(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  return (size_t)(x ^ (x >> 33));
}

static struct line_stats *find(const struct coz_line *line, bool add) {
  if (n_slots == 0 || (add && 2 * (n_used + 1) > n_slots)) {
    if (!add)
      return NULL;
    size_t cap = n_slots ? 2 * n_slots : 256;
    struct line_stats *v = calloc(cap, sizeof *v);
    if (!v)
      return NULL;
    for (size_t i = 0; i < n_slots; i++)
      if (slots[i].line) {
        size_t j = hash_ptr(slots[i].line) & (cap - 1);
        while (v[j].line)
          j = (j + 1) & (cap - 1);
        v[j] = slots[i];
      }
    free(slots);
    slots = v;
    n_slots = cap;
  }
  size_t j = hash_ptr(line) & (n_slots - 1);
  while (slots[j].line && slots[j].line != line)
    j = (j + 1) & (n_slots - 1);
  if (!slots[j].line) {
    if (!add)
      return NULL;
    slots[j].line = line;
    n_used++;
  }
  return &slots[j];
}

static int bucket_of(int pct) {
  int b = (pct + 2) / 5;
  return b < 0 ? 0 : b >= BUCKETS ? BUCKETS - 1 : b;
}

void coz_alloc_record(struct coz_line *line, int speedup_pct,
                      double duration_ns, uint64_t visits) {
  if (!ready || !(duration_ns > 0))
    return;
  struct line_stats *s = find(line, true);
  if (!s)
    return;
  int b = bucket_of(speedup_pct);
  s->total++;
  s->n[b]++;
  s->dur[b] += duration_ns;
  s->vis[b] += (double)visits;
  if (b == 0) {
    double r = (double)visits / duration_ns;
    base.n++;
    base.dur += duration_ns;
    base.vis += (double)visits;
    base.dr2 += duration_ns * r * r;
  }
}

/* kappa: the baselines' duration-weighted relative variance, at least
 * counting noise. */
static double kappa(void) {
  if (!(base.dur > 0) || !(base.vis > 0))
    return 0;
  double rate = base.vis / base.dur;
  double k = 1 / rate;
  if (base.n >= 2) {
    double sum = (base.dr2 - rate * base.vis) / (rate * rate);
    k = fmax(k, sum / (base.n - 1));
  }
  return k;
}

/* The slope and its standard error of a line; false when it cannot be
 * judged yet. */
static bool slope_of(const struct line_stats *s, double k, double *slope,
                     double *se) {
  if (s->total < MIN_EXPS || !(k > 0) || !(base.vis > 0))
    return false;
  double p0 = base.dur / base.vis;
  double sw = 1 / (k / base.dur), sx = 0, sy = 0, sxx = 0, sxy = 0;
  int buckets = 0;
  for (int b = 1; b < BUCKETS; b++) {
    if (!s->n[b] || !(s->vis[b] > 0))
      continue;
    double y = 1 - s->dur[b] / s->vis[b] / p0, x = b / 20.0;
    double r = fmax(1 - y, 0.05);
    double w = 1 / (r * r * k * (1 / s->dur[b] + 1 / base.dur));
    sw += w, sx += w * x, sy += w * y, sxx += w * x * x, sxy += w * x * y;
    buckets++;
  }
  if (buckets < 2)
    return false;
  double mx = sx / sw, dxx = sxx - sw * mx * mx;
  if (!(dxx > 0))
    return false;
  *slope = (sxy - sw * mx * (sy / sw)) / dxx;
  *se = sqrt(1 / dxx);
  return isfinite(*slope) && isfinite(*se);
}

/* The TOP-th highest slope - 2 se among the lines other than `skip`
 * (-infinity when fewer than TOP can be judged). */
static double race_bar(const struct line_stats *skip, double k) {
  double best[TOP]; /* descending */
  int n = 0;
  for (size_t i = 0; i < n_slots; i++) {
    const struct line_stats *s = &slots[i];
    double sl, se;
    if (!s->line || s == skip || !slope_of(s, k, &sl, &se))
      continue;
    double lo = sl - 2 * se;
    int j;
    if (n < TOP)
      j = n++;
    else if (lo > best[TOP - 1])
      j = TOP - 1;
    else
      continue;
    for (; j > 0 && best[j - 1] < lo; j--)
      best[j] = best[j - 1];
    best[j] = lo;
  }
  return n == TOP ? best[TOP - 1] : -INFINITY;
}

bool coz_alloc_accept(struct coz_line *line) {
  if (!ready)
    return true;
  const struct line_stats *s = find(line, false);
  double k = kappa(), sl, se;
  if (!s || !slope_of(s, k, &sl, &se) || sl + 2 * se >= race_bar(s, k))
    return true;
  return rnd() % KEEP_ONE_IN == 0;
}

int coz_alloc_speedup(struct coz_line *line) {
  if (rnd() % (ready && base.n >= BASELINE_START ? 5 : 2) == 0)
    return 0;
  const struct line_stats *s = ready ? find(line, false) : NULL;
  if (s && rnd() % 2 == 0) {
    /* One of the least tried nonzero speedups, at random among them. */
    uint32_t least = UINT32_MAX, ties = 0;
    for (int b = 1; b < BUCKETS; b++)
      least = s->n[b] < least ? s->n[b] : least;
    for (int b = 1; b < BUCKETS; b++)
      ties += s->n[b] == least;
    uint64_t pick = rnd() % ties;
    for (int b = 1; b < BUCKETS; b++)
      if (s->n[b] == least && pick-- == 0)
        return b * 5;
  }
  return (int)(rnd() % 20 + 1) * 5;
}

/* ---- The profile so far. ---- */

/* The value of key= in a tab-separated record, copied into buf. */
static bool field(const char *rec, const char *key, char *buf, size_t cap) {
  size_t klen = strlen(key);
  for (const char *p = strchr(rec, '\t'); p; p = strchr(p + 1, '\t')) {
    if (strncmp(p + 1, key, klen) != 0 || p[1 + klen] != '=')
      continue;
    const char *v = p + 2 + klen, *e = v;
    while (*e && *e != '\t' && *e != '\n')
      e++;
    size_t n = (size_t)(e - v);
    if (n >= cap)
      return false;
    memcpy(buf, v, n);
    buf[n] = '\0';
    return true;
  }
  return false;
}

/* Name -> line lookups, cached: a profile names a few lines many times. */
#define NAME_CACHE 64
static struct {
  char *name;
  struct coz_line *line;
} name_cache[NAME_CACHE];

static struct coz_line *line_named(const char *name) {
  size_t h = 5381;
  for (const char *c = name; *c; c++)
    h = h * 33 + (unsigned char)*c;
  h %= NAME_CACHE;
  if (name_cache[h].name && strcmp(name_cache[h].name, name) == 0)
    return name_cache[h].line;
  free(name_cache[h].name);
  name_cache[h].name = strdup(name);
  name_cache[h].line = coz_linemap_find(name);
  return name_cache[h].line;
}

/* Tab-separated records of earlier runs (JSON lines are not read): an
 * `experiment` of a line this program has, then its point's line. */
static void read_profile(const char *point) {
  /* Opened before main, and only a regular file (COZ_OUTPUT may be
   * /dev/full or a FIFO). */
  int fd = coz_output_take_reader();
  FILE *f = fd >= 0 ? fdopen(fd, "re") : NULL;
  if (!f) {
    if (fd >= 0)
      coz_fd_close(fd);
    return;
  }
  char *rec = NULL, val[4200];
  size_t cap = 0;
  struct coz_line *line = NULL;
  int pct = 0;
  double duration = 0;
  while (getline(&rec, &cap, f) > 0) {
    if (strncmp(rec, "experiment\t", 11) == 0) {
      line = field(rec, "selected", val, sizeof val) ? line_named(val) : NULL;
      pct = field(rec, "speedup", val, sizeof val)
                ? (int)lround(strtod(val, NULL) * 100)
                : -1;
      duration =
          field(rec, "duration", val, sizeof val) ? strtod(val, NULL) : 0;
      if (pct < 0 || pct > 100)
        line = NULL;
    } else if (line && strncmp(rec, "throughput-point\t", 17) == 0 &&
               field(rec, "name", val, sizeof val) && strcmp(val, point) == 0 &&
               field(rec, "delta", val, sizeof val)) {
      coz_alloc_record(line, pct, duration, strtoull(val, NULL, 10));
      line = NULL;
    }
  }
  free(rec);
  fclose(f);
  for (size_t i = 0; i < NAME_CACHE; i++) {
    free(name_cache[i].name);
    name_cache[i].name = NULL;
  }
}

void coz_alloc_init(const char *point, uint64_t (*random)(void)) {
  rnd = random;
  if (ready || !point)
    return;
  ready = true;
  read_profile(point);
}
