/* intern.c: see intern.h. Files live in a chained hash table that doubles
 * when its load reaches 1; lines in their file's dense array. Entries come
 * from the arena and are never freed. */
#include "intern.h"

#include "arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct table {
  void **buckets;
  size_t mask; /* bucket count - 1 */
  size_t count;
};

static struct table files;
static struct coz_line_entry *first_line, *last_line;
static size_t n_lines;

static uint64_t hash_bytes(const char *s, size_t len) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

/* Rehashes into twice as many buckets; chain_of gives an entry's link and
 * hash_of its hash. Returns 0 or -1 when out of memory. */
static int table_grow(struct table *t, void **(*chain_of)(void *),
                      uint64_t (*hash_of)(void *)) {
  size_t n = t->buckets ? (t->mask + 1) * 2 : 1024;
  void **b = calloc(n, sizeof *b);
  if (!b)
    return -1;
  if (t->buckets) {
    for (size_t i = 0; i <= t->mask; i++) {
      void *e = t->buckets[i];
      while (e) {
        void *next = *chain_of(e);
        size_t k = hash_of(e) & (n - 1);
        *chain_of(e) = b[k];
        b[k] = e;
        e = next;
      }
    }
    free(t->buckets);
  }
  t->buckets = b;
  t->mask = n - 1;
  return 0;
}

static void **file_chain(void *e) {
  return (void **)&((struct coz_file *)e)->chain;
}
static uint64_t file_hash(void *e) { return ((struct coz_file *)e)->hash; }
static struct coz_file *lookup_file(const char *path, size_t len, uint64_t h) {
  if (!files.buckets)
    return NULL;
  for (struct coz_file *f = files.buckets[h & files.mask]; f; f = f->chain)
    if (f->hash == h && f->len == len && memcmp(f->path, path, len) == 0)
      return f;
  return NULL;
}

static struct coz_file *add_file(const char *path, size_t len, uint64_t h,
                                 bool is_default, coz_scope_fn scope) {
  if (files.count >= files.mask && table_grow(&files, file_chain, file_hash))
    return NULL;
  struct coz_file *f = coz_arena_alloc(sizeof *f);
  char *copy = coz_arena_strndup(path, len);
  if (!f || !copy)
    return NULL;
  f->path = copy;
  f->len = len;
  f->hash = h;
  f->is_default = is_default;
  f->in_scope = scope(f);
  size_t k = h & files.mask;
  f->chain = files.buckets[k];
  files.buckets[k] = f;
  files.count++;
  return f;
}

struct coz_file *coz_intern_file(const char *path, size_t len,
                                 coz_scope_fn scope) {
  uint64_t h = hash_bytes(path, len);
  struct coz_file *f = lookup_file(path, len, h);
  return f ? f : add_file(path, len, h, false, scope);
}

struct coz_file *coz_intern_default_file(const char *path, size_t len,
                                         coz_scope_fn scope, bool *was_other) {
  uint64_t h = hash_bytes(path, len);
  struct coz_file *f = lookup_file(path, len, h);
  if (was_other)
    *was_other = f && !f->is_default;
  if (!f)
    return add_file(path, len, h, true, scope);
  f->is_default = true;
  f->in_scope = scope(f);
  return f;
}

void coz_intern_rescope(coz_scope_fn scope) {
  for (size_t i = 0; files.buckets && i <= files.mask; i++)
    for (struct coz_file *f = files.buckets[i]; f; f = f->chain)
      f->in_scope = scope(f);
}

/* Makes file->by_line hold index lineno. */
static int reserve_line(struct coz_file *file, uint32_t lineno) {
  if (lineno < file->by_line_cap)
    return 0;
  uint32_t cap = file->by_line_cap ? file->by_line_cap : 256;
  while (cap <= lineno)
    cap *= 2;
  struct coz_line_entry **v = realloc(file->by_line, cap * sizeof *v);
  if (!v)
    return -1;
  memset(v + file->by_line_cap, 0, (cap - file->by_line_cap) * sizeof *v);
  file->by_line = v;
  file->by_line_cap = cap;
  return 0;
}

/* Writes ":lineno" and a NUL at out; returns the length. */
static size_t format_suffix(char *out, uint32_t lineno) {
  char digits[10];
  size_t n = 0;
  do
    digits[n++] = (char)('0' + lineno % 10);
  while ((lineno /= 10) != 0);
  out[0] = ':';
  for (size_t i = 0; i < n; i++)
    out[1 + i] = digits[n - 1 - i];
  out[1 + n] = '\0';
  return n + 1;
}

struct coz_line *coz_intern_line(struct coz_file *file, uint32_t lineno) {
  if (lineno == 0 || lineno > COZ_MAX_LINENO)
    return NULL;
  if (lineno < file->by_line_cap && file->by_line[lineno])
    return &file->by_line[lineno]->line;
  if (reserve_line(file, lineno))
    return NULL;
  struct coz_line_entry *l = coz_arena_alloc(sizeof *l);
  if (!l)
    return NULL;
  l->file = file;
  l->lineno = lineno;
  file->by_line[lineno] = l;
  n_lines++;
  if (last_line)
    last_line->next_all = l;
  else
    first_line = l;
  last_line = l;
  return &l->line;
}

size_t coz_line_name(const struct coz_line *line, char *buf, size_t cap) {
  if (cap == 0)
    return 0;
  const struct coz_line_entry *l = (const struct coz_line_entry *)line;
  char suffix[12];
  size_t n_suffix = format_suffix(suffix, l->lineno);
  size_t n = l->file->len + n_suffix;
  if (n > cap - 1)
    n = cap - 1;
  size_t n_path = l->file->len < n ? l->file->len : n;
  memcpy(buf, l->file->path, n_path);
  memcpy(buf + n_path, suffix, n - n_path);
  buf[n] = '\0';
  return n;
}

struct coz_line_entry *coz_intern_first_line(void) {
  return first_line;
}

size_t coz_intern_line_count(void) { return n_lines; }
