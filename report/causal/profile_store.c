/* profile_store.c: growable arrays and name interning for a merged profile.
 *
 * Lines and progress points are interned (open addressing on an FNV-1a hash)
 * so that experiments refer to them by index and records from many runs and
 * files merge on their names.
 */
#include "profile_store.h"

#include <stdlib.h>
#include <string.h>

void cr_profile_init(struct cr_profile *p) { memset(p, 0, sizeof *p); }

void cr_profile_free(struct cr_profile *p) {
  for (size_t i = 0; i < p->n_lines; i++)
    free(p->lines[i].name);
  for (size_t i = 0; i < p->n_points; i++)
    free(p->points[i].name);
  free(p->lines);
  free(p->points);
  free(p->experiments);
  free(p->obs);
  free(p->line_index.slots);
  free(p->point_index.slots);
  memset(p, 0, sizeof *p);
}

/* Grows `*arr` (of `*cap` elements of `size` bytes) to hold one more. */
static int grow(void **arr, size_t *cap, size_t n, size_t size) {
  if (n < *cap)
    return 0;
  size_t ncap = *cap ? *cap * 2 : 64;
  if (ncap > SIZE_MAX / size)
    return -1;
  void *na = realloc(*arr, ncap * size);
  if (!na)
    return -1;
  *arr = na;
  *cap = ncap;
  return 0;
}

static uint64_t hash_name(const char *s, unsigned salt) {
  uint64_t h = 1469598103934665603ull ^ salt;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* Rebuilds the slot array at twice the size; `name_of(i)`/`salt_of(i)` give
 * the key of entry i. */
typedef const char *(*name_fn)(const struct cr_profile *, size_t);
typedef unsigned (*salt_fn)(const struct cr_profile *, size_t);

static int rehash(struct cr_intern *t, const struct cr_profile *p, size_t n,
                  name_fn name_of, salt_fn salt_of) {
  size_t nslots = t->n_slots ? t->n_slots * 2 : 128;
  uint32_t *slots = calloc(nslots, sizeof *slots);
  if (!slots)
    return -1;
  for (size_t i = 0; i < n; i++) {
    size_t h = hash_name(name_of(p, i), salt_of(p, i)) & (nslots - 1);
    while (slots[h])
      h = (h + 1) & (nslots - 1);
    slots[h] = (uint32_t)(i + 1);
  }
  free(t->slots);
  t->slots = slots;
  t->n_slots = nslots;
  return 0;
}

/* Finds the slot of (name, salt): returns the entry index + 1, or 0 with
 * `*slot` set to the empty slot where it would go. */
static uint32_t probe(const struct cr_intern *t, const struct cr_profile *p,
                      const char *name, unsigned salt, name_fn name_of,
                      salt_fn salt_of, size_t *slot) {
  if (!t->n_slots)
    return 0;
  size_t h = hash_name(name, salt) & (t->n_slots - 1);
  while (t->slots[h]) {
    uint32_t i = t->slots[h] - 1;
    if (salt_of(p, i) == salt && strcmp(name_of(p, i), name) == 0)
      return i + 1;
    h = (h + 1) & (t->n_slots - 1);
  }
  *slot = h;
  return 0;
}

static const char *line_name(const struct cr_profile *p, size_t i) {
  return p->lines[i].name;
}
static unsigned line_salt(const struct cr_profile *p, size_t i) {
  (void)p;
  (void)i;
  return 0;
}
static const char *point_name(const struct cr_profile *p, size_t i) {
  return p->points[i].name;
}
static unsigned point_salt(const struct cr_profile *p, size_t i) {
  return (unsigned)p->points[i].kind;
}

long cr_store_line(struct cr_profile *p, const char *name) {
  size_t slot = 0;
  uint32_t found =
      probe(&p->line_index, p, name, 0, line_name, line_salt, &slot);
  if (found)
    return (long)found - 1;
  if (p->n_lines >= UINT32_MAX - 1)
    return -1;
  if (grow((void **)&p->lines, &p->cap_lines, p->n_lines, sizeof *p->lines))
    return -1;
  char *copy = strdup(name);
  if (!copy)
    return -1;
  /* Keep the load factor under one half so probes stay short. */
  if ((p->n_lines + 1) * 2 > p->line_index.n_slots) {
    if (rehash(&p->line_index, p, p->n_lines, line_name, line_salt)) {
      free(copy);
      return -1;
    }
    probe(&p->line_index, p, name, 0, line_name, line_salt, &slot);
  }
  struct cr_line *l = &p->lines[p->n_lines];
  memset(l, 0, sizeof *l);
  l->name = copy;
  p->line_index.slots[slot] = (uint32_t)(p->n_lines + 1);
  return (long)p->n_lines++;
}

long cr_store_point(struct cr_profile *p, const char *name,
                    enum cr_point_kind kind) {
  size_t slot = 0;
  uint32_t found = probe(&p->point_index, p, name, (unsigned)kind, point_name,
                         point_salt, &slot);
  if (found)
    return (long)found - 1;
  if (p->n_points >= UINT32_MAX - 1)
    return -1;
  if (grow((void **)&p->points, &p->cap_points, p->n_points, sizeof *p->points))
    return -1;
  char *copy = strdup(name);
  if (!copy)
    return -1;
  if ((p->n_points + 1) * 2 > p->point_index.n_slots) {
    if (rehash(&p->point_index, p, p->n_points, point_name, point_salt)) {
      free(copy);
      return -1;
    }
    probe(&p->point_index, p, name, (unsigned)kind, point_name, point_salt,
          &slot);
  }
  struct cr_point *pt = &p->points[p->n_points];
  memset(pt, 0, sizeof *pt);
  pt->name = copy;
  pt->kind = kind;
  p->point_index.slots[slot] = (uint32_t)(p->n_points + 1);
  return (long)p->n_points++;
}

long cr_store_experiment(struct cr_profile *p, const struct cr_experiment *e) {
  if (grow((void **)&p->experiments, &p->cap_experiments, p->n_experiments,
           sizeof *p->experiments))
    return -1;
  p->experiments[p->n_experiments] = *e;
  return (long)p->n_experiments++;
}

long cr_store_obs(struct cr_profile *p, const struct cr_obs *o) {
  if (grow((void **)&p->obs, &p->cap_obs, p->n_obs, sizeof *p->obs))
    return -1;
  p->obs[p->n_obs] = *o;
  return (long)p->n_obs++;
}

long cr_profile_find_point(const struct cr_profile *p, const char *name) {
  for (size_t i = 0; i < p->n_points; i++)
    if (strcmp(p->points[i].name, name) == 0)
      return (long)i;
  return -1;
}
